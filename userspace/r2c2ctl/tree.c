// SPDX-License-Identifier: GPL-2.0
/*
 * tree.c - r2c2ctl tree show [ src N ]: this node's broadcast forwarding
 * entries, one per (source, tree) (TREE_GET dump).
 */
#include <stdio.h>
#include <string.h>
#include <netlink/attr.h>

#include "json.h"
#include "nl.h"
#include "r2c2ctl.h"

static void usage(FILE *f)
{
	fputs("Usage: r2c2ctl tree show [ src ADDR ]\n"
	      "Lists, for each broadcast tree of each source (or of ADDR only),\n"
	      "the port the tree reaches this node on (none at the root) and\n"
	      "the ports this node forwards the tree's frames to.\n", f);
}

static int tree_cb(struct nl_msg *msg, void *arg)
{
	const int *only = arg;
	struct nlattr *tb[R2C2_A_MAX + 1];
	unsigned int p, ports, n = 0;

	if (ctl_nl_parse(msg, tb, NULL))
		return -1;
	if (*only >= 0 && (!tb[R2C2_A_TREE_SRC] ||
			   nla_get_u16(tb[R2C2_A_TREE_SRC]) != *only))
		return 0;

	open_obj(NULL);
	if (tb[R2C2_A_TREE_SRC])
		print_uint("src", "src %llu", nla_get_u16(tb[R2C2_A_TREE_SRC]));
	if (tb[R2C2_A_TREE_ID])
		print_uint("tree", " tree %llu", nla_get_u8(tb[R2C2_A_TREE_ID]));
	if (tb[R2C2_A_TREE_PARENT]) {
		p = nla_get_u8(tb[R2C2_A_TREE_PARENT]);
		if (p == 0xff)
			print_null("parent_port", " parent none");
		else
			print_uint("parent_port", " parent %llu", p);
	}
	if (tb[R2C2_A_TREE_PORTS]) {
		ports = nla_get_u8(tb[R2C2_A_TREE_PORTS]);
		print_text(" ports");
		open_arr("ports");
		for (p = 0; p < R2C2_MAX_PORTS; p++) {
			if (ports & (1u << p)) {
				print_uint(NULL, " %llu", p);
				n++;
			}
		}
		close_arr();
		if (!n)
			print_text(" none");
	}
	print_nl();
	close_obj();
	return 0;
}

int cmd_tree(int argc, char **argv)
{
	const char *cmd = argc > 0 ? argv[0] : "show";
	struct nl_msg *msg;
	int only = -1, err;
	uint16_t src;

	if (is_help(cmd)) {
		usage(stdout);
		return R2C2CTL_EXIT_OK;
	}
	if (strcmp(cmd, "show"))
		return usage_error("unknown tree command \"%s\"", cmd);
	for (argc--, argv++; argc > 0; argc--, argv++) {
		if (matches(*argv, "src")) {
			NEXT_ARG();
			if (only >= 0)
				return duplicate_arg("src");
			if (parse_addr("src", *argv, &src))
				return R2C2CTL_EXIT_USAGE;
			only = src;
		} else {
			return extra_arg(*argv, usage);
		}
	}
	err = ctl_nl_open();
	if (err)
		return err;
	msg = ctl_nl_msg(R2C2_CMD_TREE_GET, true);
	if (!msg)
		return R2C2CTL_EXIT_ERR;
	/* the kernel may filter on it; we filter again in any case */
	if (only >= 0)
		NLA_PUT_U16(msg, R2C2_A_TREE_SRC, (uint16_t)only);
	open_arr(NULL);
	err = ctl_nl_talk(msg, tree_cb, &only);
	close_arr();
	return err;

nla_put_failure:
	nlmsg_free(msg);
	return ctl_nl_put_failed();
}
