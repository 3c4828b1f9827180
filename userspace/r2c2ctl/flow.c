// SPDX-License-Identifier: GPL-2.0
/*
 * flow.c - r2c2ctl flow { show | set }: this node's sending flows
 * (FLOW_GET dump) and the routing protocol of one of them (FLOW_SET).
 */
#include <stdio.h>
#include <string.h>
#include <netlink/attr.h>

#include "json.h"
#include "nl.h"
#include "r2c2ctl.h"

static void usage(FILE *f)
{
	fputs("Usage: r2c2ctl flow show\n"
	      "       r2c2ctl flow set FLOWID routing PROTO\n"
	      "where  FLOWID := flow identifier, 0..0xffffffff (hex with 0x)\n"
	      "       PROTO  := { rps | dor | vlb }\n", f);
}

static int flow_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[R2C2_A_MAX + 1];
	char buf[32];

	(void)arg;
	if (ctl_nl_parse(msg, tb, NULL))
		return -1;
	open_obj(NULL);
	if (tb[R2C2_A_FLOW_ID]) {
		format_flowid(nla_get_u32(tb[R2C2_A_FLOW_ID]), buf, sizeof(buf));
		print_str("flow", "flow %s", buf);
	}
	if (tb[R2C2_A_DST])
		print_uint("dst", " dst %llu", nla_get_u16(tb[R2C2_A_DST]));
	if (tb[R2C2_A_RPROTO])
		print_str("routing", " routing %s",
			  rproto_name(nla_get_u8(tb[R2C2_A_RPROTO]), buf,
				      sizeof(buf)));
	if (tb[R2C2_A_WEIGHT])
		print_uint("weight", " weight %llu",
			   nla_get_u8(tb[R2C2_A_WEIGHT]));
	if (tb[R2C2_A_PRIO])
		print_uint("prio", " prio %llu", nla_get_u8(tb[R2C2_A_PRIO]));
	if (tb[R2C2_A_DEMAND_KBPS])
		print_demand(nla_get_u32(tb[R2C2_A_DEMAND_KBPS]));
	if (tb[R2C2_A_SEQ])
		print_uint("seq", " seq %llu", nla_get_u32(tb[R2C2_A_SEQ]));
	if (tb[R2C2_A_PACKETS])
		print_uint("packets", " packets %llu",
			   nla_get_u64(tb[R2C2_A_PACKETS]));
	if (tb[R2C2_A_BYTES])
		print_uint("bytes", " bytes %llu",
			   nla_get_u64(tb[R2C2_A_BYTES]));
	if (tb[R2C2_A_AGE_MS])
		print_uint("age_ms", " age %llums",
			   nla_get_u32(tb[R2C2_A_AGE_MS]));
	print_nl();
	close_obj();
	return 0;
}

static int flow_show(int argc, char **argv)
{
	if (argc > 0)
		return extra_arg(argv[0], usage);
	return ctl_nl_dump_arr(R2C2_CMD_FLOW_GET, flow_cb, NULL);
}

static int flow_set(int argc, char **argv)
{
	bool have_id = false, have_rp = false;
	struct nl_msg *msg;
	uint32_t id = 0;
	uint8_t rp = 0;
	int err;

	for (; argc > 0; argc--, argv++) {
		if (!strcmp(*argv, "routing")) {
			NEXT_ARG();
			if (have_rp)
				return duplicate_arg("routing");
			if (parse_rproto(*argv, &rp))
				return R2C2CTL_EXIT_USAGE;
			have_rp = true;
		} else if (!have_id && !is_help(*argv)) {
			if (parse_flowid(*argv, &id))
				return R2C2CTL_EXIT_USAGE;
			have_id = true;
		} else {
			return extra_arg(*argv, usage);
		}
	}
	if (!have_id)
		return usage_error("flow set: missing FLOWID");
	if (!have_rp)
		return usage_error("flow set: missing \"routing PROTO\"");

	err = ctl_nl_open();
	if (err)
		return err;
	msg = ctl_nl_msg(R2C2_CMD_FLOW_SET, false);
	if (!msg)
		return R2C2CTL_EXIT_ERR;
	NLA_PUT_U32(msg, R2C2_A_FLOW_ID, id);
	NLA_PUT_U8(msg, R2C2_A_RPROTO, rp);
	return ctl_nl_talk(msg, NULL, NULL);

nla_put_failure:
	nlmsg_free(msg);
	return ctl_nl_put_failed();
}

int cmd_flow(int argc, char **argv)
{
	const char *cmd = argc > 0 ? argv[0] : "show";

	if (is_help(cmd)) {
		usage(stdout);
		return R2C2CTL_EXIT_OK;
	}
	if (!strcmp(cmd, "show"))
		return flow_show(argc - 1, argv + 1);
	if (!strcmp(cmd, "set"))
		return flow_set(argc - 1, argv + 1);
	return usage_error("unknown flow command \"%s\"", cmd);
}
