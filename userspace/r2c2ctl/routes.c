// SPDX-License-Identifier: GPL-2.0
/*
 * routes.c - r2c2ctl routes send SRC:FLOWID=PROTO ...: have the kernel
 * broadcast routing-protocol assignments to the rack (ROUTES_SEND), as
 * the node that runs route selection does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/attr.h>

#include "nl.h"
#include "r2c2ctl.h"

static void usage(FILE *f)
{
	fputs("Usage: r2c2ctl routes send ROUTE [ ROUTE ... ]\n"
	      "where  ROUTE  := SRC:FLOWID=PROTO, e.g. 3:0x1a=vlb\n"
	      "       SRC    := the flow's source node, 0..65534\n"
	      "       FLOWID := flow identifier, 0..0xffffffff (hex with 0x)\n"
	      "       PROTO  := { rps | dor | vlb }\n"
	      "At most 212 routes (one ROUTES frame).\n", f);
}

struct route_ent {
	uint16_t src;
	uint32_t flow;
	uint8_t rp;
};

static int parse_route(const char *tok, struct route_ent *r)
{
	static const char why[] = "expected SRC:FLOWID=PROTO, e.g. 3:0x1a=vlb";
	char buf[96], *colon, *eq;

	if (strlen(tok) >= sizeof(buf))
		return invalid_arg("route", tok, why), -1;
	strcpy(buf, tok);
	colon = strchr(buf, ':');
	eq = colon ? strchr(colon + 1, '=') : NULL;
	if (!colon || !eq)
		return invalid_arg("route", tok, why), -1;
	*colon = '\0';
	*eq = '\0';
	if (parse_addr("route source", buf, &r->src) ||
	    parse_flowid(colon + 1, &r->flow) ||
	    parse_rproto(eq + 1, &r->rp))
		return -1;
	return 0;
}

static int routes_send(int argc, char **argv)
{
	struct route_ent *r;
	struct nlattr *list, *ent;
	struct nl_msg *msg = NULL;
	int i, n = 0, err;

	if (argc == 0)
		return usage_error("routes send: missing SRC:FLOWID=PROTO");
	if (argc > R2C2_ROUTES_MAX)
		return usage_error("routes send: %d routes, at most %d fit a frame",
				   argc, R2C2_ROUTES_MAX);
	r = calloc((size_t)argc, sizeof(*r));
	if (!r) {
		fputs("r2c2ctl: out of memory\n", stderr);
		return R2C2CTL_EXIT_ERR;
	}
	for (i = 0; i < argc; i++) {
		if (is_help(argv[i])) {
			usage(stdout);
			err = R2C2CTL_EXIT_OK;
			goto out;
		}
		if (parse_route(argv[i], &r[n++])) {
			err = R2C2CTL_EXIT_USAGE;
			goto out;
		}
	}

	err = ctl_nl_open();
	if (err)
		goto out;
	msg = ctl_nl_msg(R2C2_CMD_ROUTES_SEND, false);
	if (!msg) {
		err = R2C2CTL_EXIT_ERR;
		goto out;
	}
	list = nla_nest_start(msg, R2C2_A_ROUTES);
	if (!list)
		goto nla_put_failure;
	for (i = 0; i < n; i++) {
		ent = nla_nest_start(msg, R2C2_A_ROUTE_ENT);
		if (!ent)
			goto nla_put_failure;
		NLA_PUT_U16(msg, R2C2_A_FLOW_SRC, r[i].src);
		NLA_PUT_U32(msg, R2C2_A_FLOW_ID, r[i].flow);
		NLA_PUT_U8(msg, R2C2_A_RPROTO, r[i].rp);
		nla_nest_end(msg, ent);
	}
	nla_nest_end(msg, list);
	err = ctl_nl_talk(msg, NULL, NULL);
	msg = NULL;
	goto out;

nla_put_failure:
	err = ctl_nl_put_failed();
out:
	nlmsg_free(msg);
	free(r);
	return err;
}

int cmd_routes(int argc, char **argv)
{
	if (argc == 0)
		return usage_error("routes: missing command (send)");
	if (is_help(argv[0])) {
		usage(stdout);
		return R2C2CTL_EXIT_OK;
	}
	if (!strcmp(argv[0], "send"))
		return routes_send(argc - 1, argv + 1);
	return usage_error("unknown routes command \"%s\"", argv[0]);
}
