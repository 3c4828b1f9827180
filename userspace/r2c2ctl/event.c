// SPDX-License-Identifier: GPL-2.0
/*
 * event.c - r2c2ctl event send flow ...: have the kernel broadcast a flow
 * event to the rack (FLOW_EVENT request), as a sender does when a flow
 * starts, finishes or changes (paper section 3.3).
 */
#include <stdio.h>
#include <string.h>
#include <netlink/attr.h>

#include "json.h"
#include "nl.h"
#include "r2c2ctl.h"

static void usage(FILE *f)
{
	fputs("Usage: r2c2ctl event send flow FLOWID dst ADDR [ type TYPE ]\n"
	      "                          [ weight W ] [ prio P ] [ demand RATE ]\n"
	      "                          [ routing PROTO ]\n"
	      "where  FLOWID := flow identifier, 0..0xffffffff (hex with 0x)\n"
	      "       ADDR   := destination node address, 0..65534\n"
	      "       TYPE   := { start | finish | update | refresh } (default start)\n"
	      "       W      := allocation weight, 1..255\n"
	      "       P      := priority, 0 (highest)..15\n"
	      "       RATE   := demand in bit/s: NUMBER[k|M|G|T][bit|bps|b] or\n"
	      "                 unlimited, e.g. 1500k, 100M, 10G (as in flow files;\n"
	      "                 sent in Kbit/s, rounded up)\n"
	      "       PROTO  := { rps | dor | vlb }\n", f);
}

struct flow_event {
	bool have_flow, have_dst, have_type, have_weight, have_prio;
	bool have_demand, have_rp;
	uint32_t flow, weight, prio, demand;
	uint16_t dst;
	uint8_t type, rp;
};

static int event_send(int argc, char **argv)
{
	struct flow_event e = { .type = R2C2_FE_START };
	struct nl_msg *msg;
	int err;

	for (; argc > 0; argc--, argv++) {
		if (!strcmp(*argv, "flow")) {
			NEXT_ARG();
			if (e.have_flow)
				return duplicate_arg("flow");
			if (parse_flowid(*argv, &e.flow))
				return R2C2CTL_EXIT_USAGE;
			e.have_flow = true;
		} else if (!strcmp(*argv, "dst")) {
			NEXT_ARG();
			if (e.have_dst)
				return duplicate_arg("dst");
			if (parse_addr("dst", *argv, &e.dst))
				return R2C2CTL_EXIT_USAGE;
			e.have_dst = true;
		} else if (!strcmp(*argv, "type")) {
			NEXT_ARG();
			if (e.have_type)
				return duplicate_arg("type");
			if (parse_flow_evt(*argv, &e.type))
				return R2C2CTL_EXIT_USAGE;
			e.have_type = true;
		} else if (!strcmp(*argv, "weight")) {
			NEXT_ARG();
			if (e.have_weight)
				return duplicate_arg("weight");
			if (parse_u32("weight", *argv, 1, 255, &e.weight))
				return R2C2CTL_EXIT_USAGE;
			e.have_weight = true;
		} else if (!strcmp(*argv, "prio")) {
			NEXT_ARG();
			if (e.have_prio)
				return duplicate_arg("prio");
			if (parse_u32("prio", *argv, 0, 15, &e.prio))
				return R2C2CTL_EXIT_USAGE;
			e.have_prio = true;
		} else if (!strcmp(*argv, "demand")) {
			NEXT_ARG();
			if (e.have_demand)
				return duplicate_arg("demand");
			if (parse_rate(*argv, &e.demand))
				return R2C2CTL_EXIT_USAGE;
			e.have_demand = true;
		} else if (!strcmp(*argv, "routing")) {
			NEXT_ARG();
			if (e.have_rp)
				return duplicate_arg("routing");
			if (parse_rproto(*argv, &e.rp))
				return R2C2CTL_EXIT_USAGE;
			e.have_rp = true;
		} else {
			return extra_arg(*argv, usage);
		}
	}
	if (!e.have_flow)
		return usage_error("event send: missing \"flow FLOWID\"");
	if (!e.have_dst)
		return usage_error("event send: missing \"dst ADDR\"");

	err = ctl_nl_open();
	if (err)
		return err;
	msg = ctl_nl_msg(R2C2_CMD_FLOW_EVENT, false);
	if (!msg)
		return R2C2CTL_EXIT_ERR;
	NLA_PUT_U32(msg, R2C2_A_FLOW_ID, e.flow);
	NLA_PUT_U16(msg, R2C2_A_DST, e.dst);
	NLA_PUT_U8(msg, R2C2_A_FLOW_EVT, e.type);
	if (e.have_weight)
		NLA_PUT_U8(msg, R2C2_A_WEIGHT, (uint8_t)e.weight);
	if (e.have_prio)
		NLA_PUT_U8(msg, R2C2_A_PRIO, (uint8_t)e.prio);
	if (e.have_demand)
		NLA_PUT_U32(msg, R2C2_A_DEMAND_KBPS, e.demand);
	if (e.have_rp)
		NLA_PUT_U8(msg, R2C2_A_RPROTO, e.rp);
	return ctl_nl_talk(msg, NULL, NULL);

nla_put_failure:
	nlmsg_free(msg);
	return ctl_nl_put_failed();
}

int cmd_event(int argc, char **argv)
{
	if (argc == 0)
		return usage_error("event: missing command (send)");
	if (is_help(argv[0])) {
		usage(stdout);
		return R2C2CTL_EXIT_OK;
	}
	if (!strcmp(argv[0], "send"))
		return event_send(argc - 1, argv + 1);
	return usage_error("unknown event command \"%s\"", argv[0]);
}
