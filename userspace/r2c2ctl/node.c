// SPDX-License-Identifier: GPL-2.0
/*
 * node.c - r2c2ctl node { set | show | del }: this netns's R2C2 node and
 * its soft interface (NODE_SET, NODE_GET, NODE_DEL).
 */
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <netlink/attr.h>

#include "json.h"
#include "nl.h"
#include "r2c2ctl.h"

static void usage(FILE *f)
{
	fputs("Usage: r2c2ctl node set [ addr ADDR ] [ ifname NAME ] [ topology TOPO ]\n"
	      "                        [ hello MS ] [ trees T ] [ routing PROTO ]\n"
	      "                        [ ethertype TYPE ] [ reseq { on | off } ]\n"
	      "                        [ reseq-timeout US ] [ reseq-flow-limit N ]\n"
	      "                        [ reseq-limit N ]\n"
	      "       r2c2ctl node show\n"
	      "       r2c2ctl node del\n"
	      "where  ADDR  := node address, 0..65534 (the first set needs it)\n"
	      "       NAME  := soft interface name on creation (default r2c0)\n"
	      "       TOPO  := { torus:K1[xK2[xK3]] | none }, each K 2..255\n"
	      "       MS    := hello interval in milliseconds, 10..60000\n"
	      "       T     := broadcast trees per source, 1..16\n"
	      "       PROTO := { rps | dor | vlb }, the default routing\n"
	      "       TYPE  := fabric ethertype, only 0x88b5 (before ports)\n"
	      "       reseq: receiver resequencing (default on); US := gap timeout\n"
	      "       in microseconds, 10..1000000; reseq-flow-limit 1..255 and\n"
	      "       reseq-limit 1..1048576 bound the packets held a flow and a node\n",
	      f);
}

static int node_set(int argc, char **argv)
{
	bool have_addr = false, have_ifname = false, have_topo = false;
	bool have_hello = false, have_trees = false, have_rp = false;
	bool have_etype = false;
	struct reseq_opts rs = { 0 };
	uint16_t addr = 0;
	uint32_t hello = 0, trees = 0, etype = 0;
	uint8_t rp = 0, dims[3];
	unsigned int ndims = 0, i;
	const char *ifname = NULL;
	struct nlattr *nest;
	struct nl_msg *msg;
	int err;

	for (; argc > 0; argc--, argv++) {
		if (matches(*argv, "addr")) {
			NEXT_ARG();
			if (have_addr)
				return duplicate_arg("addr");
			if (parse_addr("addr", *argv, &addr))
				return R2C2CTL_EXIT_USAGE;
			have_addr = true;
		} else if (matches(*argv, "ifname")) {
			NEXT_ARG();
			if (have_ifname)
				return duplicate_arg("ifname");
			if (parse_ifname("ifname", *argv))
				return R2C2CTL_EXIT_USAGE;
			ifname = *argv;
			have_ifname = true;
		} else if (matches(*argv, "topology")) {
			NEXT_ARG();
			if (have_topo)
				return duplicate_arg("topology");
			if (parse_topology(*argv, dims, &ndims))
				return R2C2CTL_EXIT_USAGE;
			have_topo = true;
		} else if (matches(*argv, "hello")) {
			NEXT_ARG();
			if (have_hello)
				return duplicate_arg("hello");
			if (parse_u32("hello interval", *argv, 10, 60000, &hello))
				return R2C2CTL_EXIT_USAGE;
			have_hello = true;
		} else if (matches(*argv, "trees")) {
			NEXT_ARG();
			if (have_trees)
				return duplicate_arg("trees");
			if (parse_u32("trees", *argv, 1, R2C2_MAX_TREES, &trees))
				return R2C2CTL_EXIT_USAGE;
			have_trees = true;
		} else if (matches(*argv, "routing")) {
			NEXT_ARG();
			if (have_rp)
				return duplicate_arg("routing");
			if (parse_rproto(*argv, &rp))
				return R2C2CTL_EXIT_USAGE;
			have_rp = true;
		} else if (matches(*argv, "ethertype")) {
			NEXT_ARG();
			if (have_etype)
				return duplicate_arg("ethertype");
			if (parse_u32("ethertype", *argv, 0x600, 0xffff, &etype))
				return R2C2CTL_EXIT_USAGE;
			have_etype = true;
		} else {
			err = parse_reseq_opt(&argc, &argv, &rs);
			if (err < 0)
				return extra_arg(*argv, usage);
			if (err > 0)
				return err;
		}
	}
	if (!(have_addr || have_ifname || have_topo || have_hello ||
	      have_trees || have_rp || have_etype || rs.have))
		return usage_error("node set: nothing to set");

	err = ctl_nl_open();
	if (err)
		return err;
	msg = ctl_nl_msg(R2C2_CMD_NODE_SET, false);
	if (!msg)
		return R2C2CTL_EXIT_ERR;
	if (have_addr)
		NLA_PUT_U16(msg, R2C2_A_NODE_ADDR, addr);
	if (have_ifname)
		NLA_PUT_STRING(msg, R2C2_A_IFNAME, ifname);
	if (have_etype)
		NLA_PUT_U16(msg, R2C2_A_ETHERTYPE, (uint16_t)etype);
	if (have_topo) {
		/* an empty nest says "no declared topology" */
		nest = nla_nest_start(msg, R2C2_A_TOPO_DIMS);
		if (!nest)
			goto nla_put_failure;
		for (i = 0; i < ndims; i++)
			NLA_PUT_U8(msg, R2C2_A_TOPO_DIM, dims[i]);
		if (nla_nest_end_keep_empty(msg, nest) < 0)
			goto nla_put_failure;
	}
	if (have_hello)
		NLA_PUT_U32(msg, R2C2_A_HELLO_MS, hello);
	if (have_trees)
		NLA_PUT_U8(msg, R2C2_A_TREES, (uint8_t)trees);
	if (have_rp)
		NLA_PUT_U8(msg, R2C2_A_RPROTO, rp);
	if (put_reseq_opts(msg, &rs))
		goto nla_put_failure;
	return ctl_nl_talk(msg, NULL, NULL);

nla_put_failure:
	nlmsg_free(msg);
	return ctl_nl_put_failed();
}

/* "torus:3x3" or "none" from a R2C2_A_TOPO_DIMS nest */
static void format_topology(const struct nlattr *dims, char *buf, size_t len)
{
	const struct nlattr *a;
	size_t off;
	int rem, n = 0;

	snprintf(buf, len, "none");
	off = 0;
	nla_for_each_nested(a, dims, rem) {
		if (nla_type(a) != R2C2_A_TOPO_DIM || nla_len(a) < 1)
			continue;
		if (off + 8 >= len)
			break;
		off += (size_t)snprintf(buf + off, len - off, "%s%u",
					n++ ? "x" : "torus:",
					nla_get_u8((struct nlattr *)a));
	}
}

static int node_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[R2C2_A_MAX + 1];
	char buf[64], ifn[IF_NAMESIZE];
	const char *dev = NULL;

	(void)arg;
	if (ctl_nl_parse(msg, tb, NULL))
		return -1;
	open_obj(NULL);
	if (tb[R2C2_A_NODE_ADDR])
		print_uint("addr", "node %llu",
			   nla_get_u16(tb[R2C2_A_NODE_ADDR]));
	if (tb[R2C2_A_IFNAME])
		dev = nla_get_string(tb[R2C2_A_IFNAME]);
	else if (tb[R2C2_A_IFINDEX])
		dev = if_indextoname(nla_get_u32(tb[R2C2_A_IFINDEX]), ifn);
	if (dev)
		print_str("ifname", " dev %s", dev);
	if (tb[R2C2_A_IFINDEX])
		print_uint("ifindex", NULL, nla_get_u32(tb[R2C2_A_IFINDEX]));
	if (tb[R2C2_A_ETHERTYPE]) {
		uint16_t et = nla_get_u16(tb[R2C2_A_ETHERTYPE]);

		/* text mentions it only when it is not the default */
		print_uint("ethertype", et == R2C2_ETH_P ? NULL :
			   " ethertype 0x%04llx", et);
	}
	if (tb[R2C2_A_RPROTO])
		print_str("routing", " routing %s",
			  rproto_name(nla_get_u8(tb[R2C2_A_RPROTO]), buf,
				      sizeof(buf)));
	if (tb[R2C2_A_TREES])
		print_uint("trees", " trees %llu", nla_get_u8(tb[R2C2_A_TREES]));
	if (tb[R2C2_A_HELLO_MS])
		print_uint("hello_ms", " hello %llums",
			   nla_get_u32(tb[R2C2_A_HELLO_MS]));
	if (tb[R2C2_A_TOPO_DIMS]) {
		format_topology(tb[R2C2_A_TOPO_DIMS], buf, sizeof(buf));
		print_str("topology", " topology %s", buf);
		if (!tb[R2C2_A_TOPO_OK])
			print_null("topology_ok", NULL);
		else if (is_json())
			print_bool("topology_ok", NULL,
				   nla_get_u8(tb[R2C2_A_TOPO_OK]));
		else
			print_text(nla_get_u8(tb[R2C2_A_TOPO_OK]) ?
				   " (ok)" : " (mismatch)");
	}
	print_reseq_node(tb);
	if (tb[R2C2_A_NODES])
		print_uint("nodes", " nodes %llu", nla_get_u32(tb[R2C2_A_NODES]));
	if (tb[R2C2_A_LINKS])
		print_uint("links", " links %llu", nla_get_u32(tb[R2C2_A_LINKS]));
	if (tb[R2C2_A_TABLES_GEN])
		print_uint("tables_gen", " tables gen %llu",
			   nla_get_u32(tb[R2C2_A_TABLES_GEN]));
	print_nl();
	if (opts.stats && tb[R2C2_A_STATS])
		print_stats("stats", tb[R2C2_A_STATS], 4, 4);
	close_obj();
	return 0;
}

static int node_simple(uint8_t cmd, ctl_msg_cb cb)
{
	struct nl_msg *msg;
	int err = ctl_nl_open();

	if (err)
		return err;
	msg = ctl_nl_msg(cmd, false);
	if (!msg)
		return R2C2CTL_EXIT_ERR;
	return ctl_nl_talk(msg, cb, NULL);
}

int cmd_node(int argc, char **argv)
{
	const char *cmd = argc > 0 ? argv[0] : "show";

	if (is_help(cmd)) {
		usage(stdout);
		return R2C2CTL_EXIT_OK;
	}
	if (!strcmp(cmd, "set"))
		return node_set(argc - 1, argv + 1);
	if (strcmp(cmd, "show") && strcmp(cmd, "del"))
		return usage_error("unknown node command \"%s\"", cmd);
	if (argc > 1)
		return extra_arg(argv[1], usage);
	if (!strcmp(cmd, "show"))
		return node_simple(R2C2_CMD_NODE_GET, node_cb);
	return node_simple(R2C2_CMD_NODE_DEL, NULL);
}
