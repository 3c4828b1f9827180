// SPDX-License-Identifier: GPL-2.0
/*
 * route.c - r2c2ctl route get DST [ routing P ] [ count N ]: ask the
 * kernel to sample a source route the way it does for data frames
 * (ROUTE_GET), once, or N times and count the hops on every link.
 */
#include <stdio.h>
#include <string.h>
#include <netlink/attr.h>

#include "json.h"
#include "nl.h"
#include "r2c2ctl.h"

static void usage(FILE *f)
{
	fputs("Usage: r2c2ctl route get DST [ routing PROTO ] [ count N ]\n"
	      "where  DST   := destination node address, 0..65534\n"
	      "       PROTO := { rps | dor | vlb } (default: the node's)\n"
	      "       N     := samples, 1..4294967295\n"
	      "Without count, prints the output port of each hop of one\n"
	      "sampled route; with count, the number of times each directed\n"
	      "link (node index, port) was used by N samples.\n", f);
}

struct route_req {
	uint16_t dst;
	bool have_rp;
	uint8_t rp;
	uint32_t count;		/* 0: one route */
};

static void print_dst_routing(struct nlattr **tb, const struct route_req *r)
{
	char buf[16];
	unsigned int rp;

	print_uint("dst", "dst %llu",
		   tb[R2C2_A_DST] ? nla_get_u16(tb[R2C2_A_DST]) : r->dst);
	if (tb[R2C2_A_RPROTO] || r->have_rp) {
		rp = tb[R2C2_A_RPROTO] ? nla_get_u8(tb[R2C2_A_RPROTO]) : r->rp;
		print_str("routing", " routing %s",
			  rproto_name(rp, buf, sizeof(buf)));
	} else {
		print_null("routing", NULL);
	}
}

static int route_hops(struct nlattr **tb, const struct route_req *r)
{
	const uint8_t *hops;
	int i, n;

	if (!tb[R2C2_A_ROUTE]) {
		fputs("r2c2ctl: route get: the kernel sent no route\n", stderr);
		return -1;
	}
	hops = nla_data(tb[R2C2_A_ROUTE]);
	n = nla_len(tb[R2C2_A_ROUTE]);
	open_obj(NULL);
	if (is_json())
		print_dst_routing(tb, r);
	open_arr("hops");
	for (i = 0; i < n; i++)
		print_uint(NULL, i ? " %llu" : "%llu", hops[i]);
	close_arr();
	print_nl();
	close_obj();
	return 0;
}

static int route_counts(struct nlattr **tb, const struct route_req *r)
{
	const unsigned char *raw;
	unsigned long long nodes;
	uint32_t c;
	int i, n;

	if (!tb[R2C2_A_LINK_COUNTS] ||
	    nla_len(tb[R2C2_A_LINK_COUNTS]) % sizeof(uint32_t)) {
		fputs("r2c2ctl: route get: the kernel sent no link counts\n",
		      stderr);
		return -1;
	}
	raw = nla_data(tb[R2C2_A_LINK_COUNTS]);
	n = nla_len(tb[R2C2_A_LINK_COUNTS]) / (int)sizeof(uint32_t);
	nodes = tb[R2C2_A_NODES] ? nla_get_u32(tb[R2C2_A_NODES]) :
		(unsigned long long)n / R2C2_MAX_PORTS;

	open_obj(NULL);
	print_dst_routing(tb, r);
	print_uint("samples", " samples %llu",
		   tb[R2C2_A_COUNT] ? nla_get_u32(tb[R2C2_A_COUNT]) : r->count);
	print_uint("nodes", " nodes %llu", nodes);
	print_nl();
	open_arr("links");
	for (i = 0; i < n; i++) {
		memcpy(&c, raw + (size_t)i * sizeof(c), sizeof(c));
		if (!c)
			continue;
		open_obj(NULL);
		print_uint("node", "node %llu", (unsigned int)i / R2C2_MAX_PORTS);
		print_uint("port", " port %llu", (unsigned int)i % R2C2_MAX_PORTS);
		print_uint("count", " count %llu", c);
		print_nl();
		close_obj();
	}
	close_arr();
	close_obj();
	return 0;
}

static int route_cb(struct nl_msg *msg, void *arg)
{
	const struct route_req *r = arg;
	struct nlattr *tb[R2C2_A_MAX + 1];

	if (ctl_nl_parse(msg, tb, NULL))
		return -1;
	return r->count ? route_counts(tb, r) : route_hops(tb, r);
}

static int route_get(int argc, char **argv)
{
	struct route_req r = { 0 };
	bool have_dst = false, have_count = false;
	struct nl_msg *msg;
	int err;

	for (; argc > 0; argc--, argv++) {
		if (matches(*argv, "routing")) {
			NEXT_ARG();
			if (r.have_rp)
				return duplicate_arg("routing");
			if (parse_rproto(*argv, &r.rp))
				return R2C2CTL_EXIT_USAGE;
			r.have_rp = true;
		} else if (matches(*argv, "count")) {
			NEXT_ARG();
			if (have_count)
				return duplicate_arg("count");
			if (parse_u32("count", *argv, 1, UINT32_MAX, &r.count))
				return R2C2CTL_EXIT_USAGE;
			have_count = true;
		} else if (!have_dst && !is_help(*argv)) {
			if (parse_addr("destination", *argv, &r.dst))
				return R2C2CTL_EXIT_USAGE;
			have_dst = true;
		} else {
			return extra_arg(*argv, usage);
		}
	}
	if (!have_dst)
		return usage_error("route get: missing DST");

	err = ctl_nl_open();
	if (err)
		return err;
	msg = ctl_nl_msg(R2C2_CMD_ROUTE_GET, false);
	if (!msg)
		return R2C2CTL_EXIT_ERR;
	NLA_PUT_U16(msg, R2C2_A_DST, r.dst);
	if (r.have_rp)
		NLA_PUT_U8(msg, R2C2_A_RPROTO, r.rp);
	if (r.count)
		NLA_PUT_U32(msg, R2C2_A_COUNT, r.count);
	return ctl_nl_talk(msg, route_cb, &r);

nla_put_failure:
	nlmsg_free(msg);
	return ctl_nl_put_failed();
}

int cmd_route(int argc, char **argv)
{
	if (argc == 0)
		return usage_error("route: missing command (get)");
	if (is_help(argv[0])) {
		usage(stdout);
		return R2C2CTL_EXIT_OK;
	}
	if (!strcmp(argv[0], "get"))
		return route_get(argc - 1, argv + 1);
	return usage_error("unknown route command \"%s\"", argv[0]);
}
