// SPDX-License-Identifier: GPL-2.0
/*
 * monitor.c - r2c2ctl monitor [ count N ] [ timeout S ]: print the events
 * of the "events" multicast group (flow events heard from the rack,
 * topology or table changes, routing assignments), one line or one JSON
 * object a line, until N events or S seconds.
 */
#include <stdio.h>
#include <string.h>
#include <netlink/attr.h>

#include "json.h"
#include "nl.h"
#include "r2c2ctl.h"

static void usage(FILE *f)
{
	fputs("Usage: r2c2ctl [ -j ] monitor [ count N ] [ timeout S ]\n"
	      "where  N := stop after N events, 1..4294967295\n"
	      "       S := stop after S seconds (e.g. 5 or 0.5)\n"
	      "Prints each flow, topo and routes event as a line, or with -j\n"
	      "as one JSON object a line.\n", f);
}

struct monitor {
	uint32_t count;		/* 0: no limit */
	uint32_t seen;
};

static void print_flow_event(struct nlattr **tb)
{
	char buf[32];

	print_str("event", "flow", "flow");
	if (tb[R2C2_A_FLOW_EVT])
		print_str("type", " %s",
			  flow_evt_name(nla_get_u8(tb[R2C2_A_FLOW_EVT]), buf,
					sizeof(buf)));
	if (tb[R2C2_A_FLOW_SRC])
		print_uint("src", " src %llu", nla_get_u16(tb[R2C2_A_FLOW_SRC]));
	if (tb[R2C2_A_FLOW_ID]) {
		format_flowid(nla_get_u32(tb[R2C2_A_FLOW_ID]), buf, sizeof(buf));
		print_str("flow", " flow %s", buf);
	}
	if (tb[R2C2_A_DST])
		print_uint("dst", " dst %llu", nla_get_u16(tb[R2C2_A_DST]));
	if (tb[R2C2_A_WEIGHT])
		print_uint("weight", " weight %llu",
			   nla_get_u8(tb[R2C2_A_WEIGHT]));
	if (tb[R2C2_A_PRIO])
		print_uint("prio", " prio %llu", nla_get_u8(tb[R2C2_A_PRIO]));
	if (tb[R2C2_A_DEMAND_KBPS])
		print_demand(nla_get_u32(tb[R2C2_A_DEMAND_KBPS]));
	if (tb[R2C2_A_RPROTO])
		print_str("routing", " routing %s",
			  rproto_name(nla_get_u8(tb[R2C2_A_RPROTO]), buf,
				      sizeof(buf)));
}

static void print_topo_event(struct nlattr **tb)
{
	print_str("event", "topo", "topo");
	if (tb[R2C2_A_NODE_ADDR])
		print_uint("addr", " node %llu", nla_get_u16(tb[R2C2_A_NODE_ADDR]));
	if (tb[R2C2_A_NODES])
		print_uint("nodes", " nodes %llu", nla_get_u32(tb[R2C2_A_NODES]));
	if (tb[R2C2_A_LINKS])
		print_uint("links", " links %llu", nla_get_u32(tb[R2C2_A_LINKS]));
	if (tb[R2C2_A_TABLES_GEN])
		print_uint("tables_gen", " tables gen %llu",
			   nla_get_u32(tb[R2C2_A_TABLES_GEN]));
	if (tb[R2C2_A_TOPO_OK]) {
		bool ok = nla_get_u8(tb[R2C2_A_TOPO_OK]);

		if (is_json())
			print_bool("topology_ok", NULL, ok);
		else
			print_text(" topology %s", ok ? "ok" : "mismatch");
	}
}

static int print_routes_event(struct nlattr **tb)
{
	const struct nlattr *a;
	char buf[32];
	int rem;

	print_str("event", "routes", "routes");
	if (tb[R2C2_A_NODE_ADDR])
		print_uint("from", " from %llu",
			   nla_get_u16(tb[R2C2_A_NODE_ADDR]));
	open_arr("routes");
	if (tb[R2C2_A_ROUTES]) {
		nla_for_each_nested(a, tb[R2C2_A_ROUTES], rem) {
			struct nlattr *rtb[R2C2_A_MAX + 1];

			if (nla_type(a) != R2C2_A_ROUTE_ENT)
				continue;
			if (ctl_nl_parse_nested(rtb, a)) {
				close_arr();
				return -1;
			}
			open_obj(NULL);
			print_text(" ");
			if (rtb[R2C2_A_FLOW_SRC])
				print_uint("src", "%llu",
					   nla_get_u16(rtb[R2C2_A_FLOW_SRC]));
			if (rtb[R2C2_A_FLOW_ID]) {
				format_flowid(nla_get_u32(rtb[R2C2_A_FLOW_ID]),
					      buf, sizeof(buf));
				print_str("flow", ":%s", buf);
			}
			if (rtb[R2C2_A_RPROTO])
				print_str("routing", "=%s",
					  rproto_name(nla_get_u8(rtb[R2C2_A_RPROTO]),
						      buf, sizeof(buf)));
			close_obj();
		}
	}
	close_arr();
	return 0;
}

static int monitor_cb(struct nl_msg *msg, void *arg)
{
	struct monitor *m = arg;
	struct nlattr *tb[R2C2_A_MAX + 1];
	uint8_t cmd;
	int err = 0;

	if (ctl_nl_parse(msg, tb, &cmd))
		return -1;
	switch (cmd) {
	case R2C2_CMD_FLOW_EVENT:
		open_obj(NULL);
		print_flow_event(tb);
		break;
	case R2C2_CMD_TOPO_EVENT:
		open_obj(NULL);
		print_topo_event(tb);
		break;
	case R2C2_CMD_ROUTES_EVENT:
		open_obj(NULL);
		err = print_routes_event(tb);
		break;
	default:
		return 0;	/* newer events: not ours to print */
	}
	print_nl();
	close_obj();
	fflush(stdout);
	if (err)
		return -1;
	m->seen++;
	return m->count && m->seen >= m->count ? 1 : 0;
}

int cmd_monitor(int argc, char **argv)
{
	struct monitor m = { 0 };
	bool have_count = false;
	int timeout_ms = 0, err;

	for (; argc > 0; argc--, argv++) {
		if (matches(*argv, "count")) {
			NEXT_ARG();
			if (have_count)
				return duplicate_arg("count");
			if (parse_u32("count", *argv, 1, UINT32_MAX, &m.count))
				return R2C2CTL_EXIT_USAGE;
			have_count = true;
		} else if (matches(*argv, "timeout")) {
			NEXT_ARG();
			if (timeout_ms)
				return duplicate_arg("timeout");
			if (parse_seconds(*argv, &timeout_ms))
				return R2C2CTL_EXIT_USAGE;
		} else {
			return extra_arg(*argv, usage);
		}
	}
	err = ctl_nl_open();
	if (err)
		return err;
	/* one compact JSON object a line, whatever -p says */
	if (is_json()) {
		print_fini();
		print_init(true, false);
	}
	return ctl_nl_listen(timeout_ms, monitor_cb, &m);
}
