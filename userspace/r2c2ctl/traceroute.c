// SPDX-License-Identifier: GPL-2.0
/*
 * traceroute.c - r2c2ctl traceroute DST [ routing P ] [ count N ]: the
 * path(s) a packet from this node to node DST takes, hop by hop
 * ("port -> node"), as the kernel samples them for data frames.
 *
 * Nothing is sent on the fabric. The route header carries the whole path
 * and a frame whose route is used up at a node other than its
 * destination is dropped without a reply, so a route cut short after k
 * hops tells nothing back: a live per-hop probe would need a new frame
 * type. Instead the kernel's own sampler answers (ROUTE_GET, N times),
 * and each hop's port is read through the discovered graph (TOPO_GET)
 * to the node at its far end; NODE_GET gives the starting node. A hop
 * whose port has no link in the graph, or a path that does not end at
 * DST, is reported as such (exit 1). "r2c2ctl ping" checks reachability.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include "json.h"
#include "nl.h"
#include "r2c2ctl.h"

#define TR_MAX_PATHS	64

static void usage(FILE *f)
{
	fputs("Usage: r2c2ctl traceroute DST [ routing PROTO ] [ count N ]\n"
	      "where  DST   := destination node address, 0..65534\n"
	      "       PROTO := { rps | dor | vlb } (default: the node's);\n"
	      "                \"rproto\" is taken for \"routing\"\n"
	      "       N     := routes to sample, 1..1000 (default 1)\n"
	      "Prints the path of each distinct sampled route, one hop a line:\n"
	      "the output port and the node at its far end (from topo show).\n",
	      f);
}

/* one directed link of the graph */
struct tr_link {
	uint16_t from, to;
	uint8_t port, to_port;
};

/* one distinct route: its ports and how many samples drew it */
struct tr_path {
	uint8_t hops[R2C2_MAX_HOPS];
	unsigned int len, count;
};

struct tr_ctx {
	uint16_t self, dst;
	bool have_self, have_rp;
	uint8_t rp;
	uint32_t count;
	struct tr_link *links;
	size_t nlinks, cap;
	struct tr_path paths[TR_MAX_PATHS];
	unsigned int npaths, others;	/* others: samples beyond TR_MAX_PATHS */
	uint8_t got[R2C2_MAX_HOPS];
	int got_len;
	uint8_t got_rp;
	bool got_has_rp;
};

static int node_cb(struct nl_msg *msg, void *arg)
{
	struct tr_ctx *c = arg;
	struct nlattr *tb[R2C2_A_MAX + 1];

	if (ctl_nl_parse(msg, tb, NULL))
		return -1;
	if (tb[R2C2_A_NODE_ADDR]) {
		c->self = nla_get_u16(tb[R2C2_A_NODE_ADDR]);
		c->have_self = c->self != R2C2_ADDR_NONE;
	}
	return 0;
}

static int add_link(struct tr_ctx *c, uint16_t from, struct nlattr **ltb)
{
	struct tr_link *l;

	if (!ltb[R2C2_A_PORT] || !ltb[R2C2_A_NBR_ADDR])
		return 0;
	if (c->nlinks == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 64;

		l = realloc(c->links, cap * sizeof(*l));
		if (!l) {
			fputs("r2c2ctl: out of memory\n", stderr);
			return -1;
		}
		c->links = l;
		c->cap = cap;
	}
	l = &c->links[c->nlinks++];
	l->from = from;
	l->port = nla_get_u8(ltb[R2C2_A_PORT]);
	l->to = nla_get_u16(ltb[R2C2_A_NBR_ADDR]);
	l->to_port = ltb[R2C2_A_NBR_PORT] ? nla_get_u8(ltb[R2C2_A_NBR_PORT]) :
		     0xff;
	return 0;
}

static int topo_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[R2C2_A_MAX + 1], *ntb[R2C2_A_MAX + 1];
	struct tr_ctx *c = arg;
	const struct nlattr *a;
	uint16_t from;
	int rem;

	if (ctl_nl_parse(msg, tb, NULL))
		return -1;
	if (!tb[R2C2_A_TOPO_NODE])
		return 0;
	if (ctl_nl_parse_nested(ntb, tb[R2C2_A_TOPO_NODE]))
		return -1;
	if (!ntb[R2C2_A_NODE_ADDR])
		return 0;
	from = nla_get_u16(ntb[R2C2_A_NODE_ADDR]);
	nla_for_each_nested(a, tb[R2C2_A_TOPO_NODE], rem) {
		struct nlattr *ltb[R2C2_A_MAX + 1];

		if (nla_type(a) != R2C2_A_TOPO_LINK)
			continue;
		if (ctl_nl_parse_nested(ltb, a) || add_link(c, from, ltb))
			return -1;
	}
	return 0;
}

static int route_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[R2C2_A_MAX + 1];
	struct tr_ctx *c = arg;

	if (ctl_nl_parse(msg, tb, NULL))
		return -1;
	if (!tb[R2C2_A_ROUTE] || nla_len(tb[R2C2_A_ROUTE]) > R2C2_MAX_HOPS) {
		fputs("r2c2ctl: traceroute: the kernel sent no route\n", stderr);
		return -1;
	}
	c->got_len = nla_len(tb[R2C2_A_ROUTE]);
	memcpy(c->got, nla_data(tb[R2C2_A_ROUTE]), (size_t)c->got_len);
	if (tb[R2C2_A_RPROTO]) {
		c->got_rp = nla_get_u8(tb[R2C2_A_RPROTO]);
		c->got_has_rp = true;
	}
	return 0;
}

static void add_path(struct tr_ctx *c)
{
	struct tr_path *p;
	unsigned int i;

	for (i = 0; i < c->npaths; i++) {
		p = &c->paths[i];
		if (p->len == (unsigned int)c->got_len &&
		    !memcmp(p->hops, c->got, p->len)) {
			p->count++;
			return;
		}
	}
	if (c->npaths == TR_MAX_PATHS) {
		c->others++;
		return;
	}
	p = &c->paths[c->npaths++];
	memcpy(p->hops, c->got, (size_t)c->got_len);
	p->len = (unsigned int)c->got_len;
	p->count = 1;
}

static const struct tr_link *find_link(const struct tr_ctx *c, uint16_t from,
				       uint8_t port)
{
	size_t i;

	for (i = 0; i < c->nlinks; i++)
		if (c->links[i].from == from && c->links[i].port == port)
			return &c->links[i];
	return NULL;
}

/* print one path; false when it leaves the graph or ends elsewhere */
static bool print_path(const struct tr_ctx *c, const struct tr_path *p)
{
	const struct tr_link *l;
	uint16_t at = c->self;
	bool ok = true;
	unsigned int i;

	open_obj(NULL);
	print_uint("count", "path drawn %llu", p->count);
	print_text(" of %u times, ", c->count);
	print_uint("length", "%llu hops", p->len);
	print_nl();
	open_arr("hops");
	for (i = 0; i < p->len; i++) {
		l = ok ? find_link(c, at, p->hops[i]) : NULL;
		open_obj(NULL);
		print_uint("hop", "%3llu  ", i + 1ULL);
		print_uint("node", "node %llu ", at);
		print_uint("port", "port %llu -> ", p->hops[i]);
		if (l) {
			print_uint("to", "node %llu", l->to);
			if (l->to_port != 0xff)
				print_uint("to_port", " (port %llu)", l->to_port);
			at = l->to;
		} else {
			print_null("to", "?");
			ok = false;
		}
		print_nl();
		close_obj();
	}
	close_arr();
	if (ok && at != c->dst)
		ok = false;
	print_bool("reaches_dst", NULL, ok);
	if (!ok)
		print_text("     does not reach node %u\n", c->dst);
	close_obj();
	return ok;
}

static int tr_parse(struct tr_ctx *c, int argc, char **argv)
{
	bool have_dst = false, have_count = false;

	c->count = 1;
	for (; argc > 0; argc--, argv++) {
		if (matches(*argv, "routing") || !strcmp(*argv, "rproto")) {
			NEXT_ARG();
			if (c->have_rp)
				return duplicate_arg("routing");
			if (parse_rproto(*argv, &c->rp))
				return R2C2CTL_EXIT_USAGE;
			c->have_rp = true;
		} else if (matches(*argv, "count")) {
			NEXT_ARG();
			if (have_count)
				return duplicate_arg("count");
			if (parse_u32("count", *argv, 1, 1000, &c->count))
				return R2C2CTL_EXIT_USAGE;
			have_count = true;
		} else if (!have_dst && !is_help(*argv)) {
			if (parse_addr("destination", *argv, &c->dst))
				return R2C2CTL_EXIT_USAGE;
			have_dst = true;
		} else {
			return extra_arg(*argv, usage);
		}
	}
	if (!have_dst)
		return usage_error("traceroute: missing DST");
	return 0;
}

static int tr_run(struct tr_ctx *c)
{
	char buf[16];
	struct nl_msg *msg;
	unsigned int i, bad = 0;
	uint32_t k;
	int err;

	err = ctl_nl_open();
	if (err)
		return err;
	msg = ctl_nl_msg(R2C2_CMD_NODE_GET, false);
	if (!msg)
		return R2C2CTL_EXIT_ERR;
	err = ctl_nl_talk(msg, node_cb, c);
	if (err)
		return err;
	if (!c->have_self) {
		fputs("r2c2ctl: traceroute: this node has no address\n", stderr);
		return R2C2CTL_EXIT_ERR;
	}
	msg = ctl_nl_msg(R2C2_CMD_TOPO_GET, true);
	if (!msg)
		return R2C2CTL_EXIT_ERR;
	err = ctl_nl_talk(msg, topo_cb, c);
	if (err)
		return err;
	for (k = 0; k < c->count; k++) {
		msg = ctl_nl_msg(R2C2_CMD_ROUTE_GET, false);
		if (!msg)
			return R2C2CTL_EXIT_ERR;
		NLA_PUT_U16(msg, R2C2_A_DST, c->dst);
		if (c->have_rp)
			NLA_PUT_U8(msg, R2C2_A_RPROTO, c->rp);
		c->got_len = -1;
		err = ctl_nl_talk(msg, route_cb, c);
		if (err)
			return err;
		if (c->got_len < 0) {
			fputs("r2c2ctl: traceroute: the kernel sent no route\n",
			      stderr);
			return R2C2CTL_EXIT_ERR;
		}
		add_path(c);
	}

	open_obj(NULL);
	print_uint("src", "traceroute from node %llu", c->self);
	print_uint("dst", " to node %llu", c->dst);
	if (c->got_has_rp || c->have_rp)
		print_str("routing", ", routing %s",
			  rproto_name(c->got_has_rp ? c->got_rp : c->rp, buf,
				      sizeof(buf)));
	else
		print_null("routing", NULL);
	print_uint("samples", ", %llu samples", c->count);
	print_nl();
	open_arr("paths");
	for (i = 0; i < c->npaths; i++)
		if (!print_path(c, &c->paths[i]))
			bad++;
	close_arr();
	print_uint("other_samples",
		   c->others ? "%llu samples of further paths not shown\n" : NULL,
		   c->others);
	close_obj();
	if (bad) {
		fprintf(stderr,
			"r2c2ctl: traceroute: %u of the paths do not reach node %u through the graph\n",
			bad, c->dst);
		return R2C2CTL_EXIT_ERR;
	}
	return R2C2CTL_EXIT_OK;

nla_put_failure:
	nlmsg_free(msg);
	return ctl_nl_put_failed();
}

int cmd_traceroute(int argc, char **argv)
{
	struct tr_ctx c = { 0 };
	int err;

	if (argc > 0 && is_help(argv[0])) {
		usage(stdout);
		return R2C2CTL_EXIT_OK;
	}
	err = tr_parse(&c, argc, argv);
	if (!err)
		err = tr_run(&c);
	free(c.links);
	return err;
}
