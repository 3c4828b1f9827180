// SPDX-License-Identifier: GPL-2.0
/*
 * topo.c - r2c2ctl topo show: the rack graph this node discovered from
 * link-state advertisements (TOPO_GET dump, one node a message).
 *
 * A message holds R2C2_A_TOPO_NODE { NODE_ADDR, links }, where the links
 * are R2C2_A_TOPO_LINK { PORT, NBR_ADDR, NBR_PORT } nests, either side by
 * side or gathered in one list nest; both forms are read, and so is a
 * message that carries the node's attributes at the top level.
 */
#include <stdio.h>
#include <string.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include "json.h"
#include "nl.h"
#include "r2c2ctl.h"

static void usage(FILE *f)
{
	fputs("Usage: r2c2ctl topo show\n"
	      "Lists every node of the discovered rack graph and its links:\n"
	      "the local port, the neighbour node and the neighbour's port.\n",
	      f);
}

static void print_link(struct nlattr **ltb)
{
	open_obj(NULL);
	print_text("    ");
	if (ltb[R2C2_A_PORT])
		print_uint("port", "port %llu", nla_get_u8(ltb[R2C2_A_PORT]));
	if (ltb[R2C2_A_NBR_ADDR])
		print_uint("neighbour", " neighbour %llu",
			   nla_get_u16(ltb[R2C2_A_NBR_ADDR]));
	if (ltb[R2C2_A_NBR_PORT])
		print_uint("neighbour_port", " port %llu",
			   nla_get_u8(ltb[R2C2_A_NBR_PORT]));
	print_nl();
	close_obj();
}

/*
 * Links among the attributes at @head: TOPO_LINK nests, or (@depth > 0,
 * inside a list nest) nests of any type.
 */
static int print_links(const struct nlattr *head, int len, int depth)
{
	const struct nlattr *a;
	int rem;

	nla_for_each_attr(a, head, len, rem) {
		struct nlattr *ltb[R2C2_A_MAX + 1];

		if (depth == 0 && nla_type(a) != R2C2_A_TOPO_LINK)
			continue;
		if (ctl_nl_parse_nested(ltb, a))
			return -1;
		if (ltb[R2C2_A_PORT] || ltb[R2C2_A_NBR_ADDR])
			print_link(ltb);
		else if (depth < 1 &&
			 print_links(nla_data(a), nla_len(a), depth + 1))
			return -1;
	}
	return 0;
}

static int topo_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[R2C2_A_MAX + 1], *ntb[R2C2_A_MAX + 1];
	struct nlattr **node = tb;
	const struct nlattr *head;
	int len, err;

	(void)arg;
	if (ctl_nl_parse(msg, tb, NULL))
		return -1;
	head = genlmsg_attrdata(nlmsg_data(nlmsg_hdr(msg)), 0);
	len = genlmsg_attrlen(nlmsg_data(nlmsg_hdr(msg)), 0);
	if (tb[R2C2_A_TOPO_NODE]) {
		if (ctl_nl_parse_nested(ntb, tb[R2C2_A_TOPO_NODE]))
			return -1;
		node = ntb;
		head = nla_data(tb[R2C2_A_TOPO_NODE]);
		len = nla_len(tb[R2C2_A_TOPO_NODE]);
	}

	open_obj(NULL);
	if (node[R2C2_A_NODE_ADDR])
		print_uint("addr", "node %llu",
			   nla_get_u16(node[R2C2_A_NODE_ADDR]));
	print_nl();
	open_arr("links");
	err = print_links(head, len, 0);
	close_arr();
	close_obj();
	return err;
}

int cmd_topo(int argc, char **argv)
{
	const char *cmd = argc > 0 ? argv[0] : "show";

	if (is_help(cmd)) {
		usage(stdout);
		return R2C2CTL_EXIT_OK;
	}
	if (strcmp(cmd, "show"))
		return usage_error("unknown topo command \"%s\"", cmd);
	if (argc > 1)
		return extra_arg(argv[1], usage);
	return ctl_nl_dump_arr(R2C2_CMD_TOPO_GET, topo_cb, NULL);
}
