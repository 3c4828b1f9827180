// SPDX-License-Identifier: GPL-2.0
/*
 * weights.c - r2c2ctl path weights: the expected use of every directed
 * link by one packet from SRC to DST under a routing protocol, computed
 * offline (no kernel needed) with r2c2_link_weights_add() of
 * common/paths.c, the code r2c2.ko samples its routes from.
 *
 * This is the userspace side of the "kernel and allocator agree" check:
 * the selftests send packets (or have the kernel sample routes with
 * `route get DST count N`) and compare the per-link counts with N times
 * these weights.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "r2c2_alloc.h"
#include "json.h"
#include "r2c2ctl.h"

static void usage(FILE *f)
{
	fputs("Usage: r2c2ctl [-j] path weights topology SPEC [ routing PROTO ] SRC DST\n"
	      "where  SPEC  := torus:K1[xK2[xK3]] | mesh:K1[xK2[xK3]] | file:PATH | PATH\n"
	      "       PROTO := { rps | dor | vlb } (default rps)\n"
	      "       SRC, DST := node indices of the topology, SRC != DST\n"
	      "Prints every directed link (node, port) one packet from SRC to DST\n"
	      "uses, with its expected number of crossings, as the kernel samples\n"
	      "routes (common/paths.c). Needs no kernel module. topology and routing\n"
	      "may also be written --topology and --routing.\n", f);
}

/* node index: decimal, < n */
static int parse_node(const char *what, const char *s, unsigned int n,
		      uint16_t *v)
{
	uint32_t x;

	if (parse_u32(what, s, 0, R2C2_ADDR_NONE - 1, &x))
		return -1;
	if (x >= n) {
		char why[64];

		snprintf(why, sizeof(why), "the topology has nodes 0..%u", n - 1);
		invalid_arg(what, s, why);
		return -1;
	}
	*v = (uint16_t)x;
	return 0;
}

static int path_weights(int argc, char **argv)
{
	const char *spec = NULL, *words[2] = { NULL, NULL };
	unsigned int nwords = 0, i, used = 0;
	struct r2c2_topo *t = NULL;
	double *w = NULL, hops = 0;
	uint16_t src, dst;
	uint8_t rp = R2C2_RP_RPS;
	bool have_rp = false;
	char err[512], buf[16];
	int ret;

	for (; argc > 0; argc--, argv++) {
		const char *o = *argv;

		if (is_help(o) || !strcmp(o, "--help") || !strcmp(o, "-h")) {
			usage(stdout);
			return R2C2CTL_EXIT_OK;
		}
		if (!strcmp(o, "-j") || !strcmp(o, "--json")) {
			opts.json = true;
			print_init(true, opts.pretty);
		} else if (!strcmp(o, "topology") || !strcmp(o, "--topology")) {
			NEXT_ARG();
			if (spec)
				return duplicate_arg("topology");
			spec = *argv;
		} else if (!strcmp(o, "routing") || !strcmp(o, "--routing")) {
			NEXT_ARG();
			if (have_rp)
				return duplicate_arg("routing");
			if (parse_rproto(*argv, &rp))
				return R2C2CTL_EXIT_USAGE;
			have_rp = true;
		} else if (o[0] == '-' && o[1] == '-') {
			return unknown_arg(o);
		} else if (nwords < 2) {
			words[nwords++] = o;
		} else {
			return extra_arg(o, usage);
		}
	}
	if (!spec)
		return usage_error("path weights: missing topology SPEC");
	if (nwords < 2)
		return usage_error("path weights: missing %s", nwords ? "DST" : "SRC and DST");

	ret = r2c2_topo_parse(&t, spec, 1.0, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "r2c2ctl: %s\n", err);
		return R2C2CTL_EXIT_ERR;
	}
	if (parse_node("source", words[0], t->n, &src) ||
	    parse_node("destination", words[1], t->n, &dst)) {
		r2c2_topo_free(t);
		return R2C2CTL_EXIT_USAGE;
	}
	/* no route from a node to itself: alloc refuses such a flow too */
	if (src == dst) {
		r2c2_topo_free(t);
		return usage_error("path weights: source and destination are both %u", src);
	}
	w = calloc(R2C2_NLINKS(t->n), sizeof(*w));
	if (!w) {
		r2c2_topo_free(t);
		fputs("r2c2ctl: out of memory\n", stderr);
		return R2C2CTL_EXIT_ERR;
	}
	ret = r2c2_link_weights_add(&t->paths, rp, src, dst, 1.0, w);
	if (ret) {
		fprintf(stderr, "r2c2ctl: path weights %u -> %u: %s\n", src, dst,
			ret == -EHOSTUNREACH ? "destination unreachable" :
			strerror(-ret));
		free(w);
		r2c2_topo_free(t);
		return R2C2CTL_EXIT_ERR;
	}
	for (i = 0; i < R2C2_NLINKS(t->n); i++) {
		if (w[i] > 0) {
			hops += w[i];
			used++;
		}
	}

	open_obj(NULL);
	print_str("topology", "path on %s", spec);
	print_uint("src", " from %llu", src);
	print_uint("dst", " to %llu", dst);
	print_str("routing", " routing %s", rproto_name(rp, buf, sizeof(buf)));
	print_uint("nodes", " nodes %llu", t->n);
	print_float("hops", " hops %.6g", hops);
	print_uint("links_used", " links %llu", used);
	print_nl();
	open_arr("links");
	for (i = 0; i < R2C2_NLINKS(t->n); i++) {
		if (!(w[i] > 0))
			continue;
		open_obj(NULL);
		print_uint("node", "node %llu", i / R2C2_MAX_PORTS);
		print_uint("port", " port %llu", i % R2C2_MAX_PORTS);
		print_uint("neighbour", " -> node %llu", t->nbr[i]);
		print_uint("neighbour_port", " port %llu", t->nbr_port[i]);
		print_float("weight", " weight %.6g", w[i]);
		print_nl();
		close_obj();
	}
	close_arr();
	close_obj();
	free(w);
	r2c2_topo_free(t);
	return R2C2CTL_EXIT_OK;
}

int cmd_path(int argc, char **argv)
{
	if (argc == 0)
		return usage_error("path: missing command (weights)");
	if (is_help(argv[0])) {
		usage(stdout);
		return R2C2CTL_EXIT_OK;
	}
	if (!strcmp(argv[0], "weights"))
		return path_weights(argc - 1, argv + 1);
	return usage_error("unknown path command \"%s\"", argv[0]);
}
