// SPDX-License-Identifier: GPL-2.0
/*
 * link_r2c2.c - ip link support for r2c0, the soft interface of an r2c2
 * node (IFLA_INFO_KIND "r2c2").
 *
 * A plugin ip loads from its lib dir (IP_LIB_DIR, Debian's default
 * /usr/lib/<multiarch>/ip) as link_r2c2.so, symbol r2c2_link_util.
 * It only prints: r2c0 is created and configured with r2c2ctl, and the
 * kernel refuses ip link add/set of kind r2c2 with a message saying so.
 *
 *   ip -d link show r2c0
 *     ... r2c2 addr 4 topology torus 3x3 rproto rps hello 100ms ...
 *   ip -j -d link show r2c0
 *     "linkinfo":{"info_kind":"r2c2","info_data":{"addr":4,
 *      "topology":"torus:3x3","rproto":"rps","hello_ms":100}}
 * (topology and rproto spelt as r2c2ctl -j node show spells topology and
 * routing).
 */
#include <stdio.h>
#include <string.h>

#include "utils.h"
#include "ip_common.h"

#include <linux/r2c2.h>

static const char *const rproto_names[__R2C2_RP_MAX] = {
	[R2C2_RP_RPS] = "rps",
	[R2C2_RP_DOR] = "dor",
	[R2C2_RP_VLB] = "vlb",
	[R2C2_RP_WLB] = "wlb",
};

static void r2c2_print_opt(struct link_util *lu, FILE *f, struct rtattr *tb[])
{
	char topo[64], text[64], num[8];
	const char *rp;

	if (!tb)
		return;
	if (tb[IFLA_R2C2_ADDR])
		print_uint(PRINT_ANY, "addr", "addr %u ",
			   rta_getattr_u16(tb[IFLA_R2C2_ADDR]));
	strcpy(topo, "none");
	strcpy(text, "none");
	if (tb[IFLA_R2C2_TOPO_DIMS]) {
		const __u8 *d = RTA_DATA(tb[IFLA_R2C2_TOPO_DIMS]);
		int i, n = RTA_PAYLOAD(tb[IFLA_R2C2_TOPO_DIMS]);
		size_t o = 0, t = 0;

		for (i = 0; i < n && o + 8 < sizeof(topo); i++) {
			o += snprintf(topo + o, sizeof(topo) - o, "%s%u",
				      i ? "x" : "torus:", d[i]);
			t += snprintf(text + t, sizeof(text) - t, "%s%u",
				      i ? "x" : "torus ", d[i]);
		}
	}
	print_string(PRINT_JSON, "topology", NULL, topo);
	print_string(PRINT_FP, NULL, "topology %s ", text);
	if (tb[IFLA_R2C2_RPROTO]) {
		__u8 v = rta_getattr_u8(tb[IFLA_R2C2_RPROTO]);

		if (v < __R2C2_RP_MAX && rproto_names[v]) {
			rp = rproto_names[v];
		} else {
			snprintf(num, sizeof(num), "%u", v);
			rp = num;
		}
		print_string(PRINT_ANY, "rproto", "rproto %s ", rp);
	}
	if (tb[IFLA_R2C2_HELLO_MS])
		print_uint(PRINT_ANY, "hello_ms", "hello %ums ",
			   rta_getattr_u32(tb[IFLA_R2C2_HELLO_MS]));
}

static int r2c2_parse_opt(struct link_util *lu, int argc, char **argv,
			  struct nlmsghdr *n)
{
	fprintf(stderr,
		"r2c2: r2c0 is made and configured with r2c2ctl (r2c2ctl node set addr ADDR), not ip link\n");
	return -1;
}

static void r2c2_print_help(struct link_util *lu, int argc, char **argv,
			    FILE *f)
{
	fprintf(f,
		"Usage: r2c2ctl node set addr ADDR ...   (r2c0 is not made by ip link)\n"
		"       ip -d link show r2c0       (addr, topology, rproto, hello)\n");
}

struct link_util r2c2_link_util = {
	.id		= "r2c2",
	.maxattr	= IFLA_R2C2_MAX,
	.parse_opt	= r2c2_parse_opt,
	.print_opt	= r2c2_print_opt,
	.print_help	= r2c2_print_help,
};
