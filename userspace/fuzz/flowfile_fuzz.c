// SPDX-License-Identifier: GPL-2.0
/*
 * flowfile_fuzz.c - flow files under libFuzzer.
 *
 * Feeds: the input as a flow file (a memfd, by path) to
 * r2c2_flows_load(), as r2c2ctl alloc / route-select --flows FILE read
 * it, three times: on torus:4x4 and torus:3x4 (the torus tables' radix-2
 * and general transforms), and on a graph of 6 nodes whose links leave
 * some pairs without a path (parallel and one-way links, an island, a
 * lone node).
 * Reaches: flowfile.c with r2c2_read_line() and r2c2_parse_rate() and
 * r2c2_parse_rproto() of topo.c; then what alloc does with what loads:
 * r2c2_rtab_prepare() of each flow's pair, r2c2_maxmin() and its
 * certificate, r2c2_maxmin_check().
 * Checks: loaded flows are within the topology, have a path, and carry
 * what the file format allows (weight 1..255, prio 0..15, a protocol);
 * the max-min allocation of them passes its own certificate.
 * Work per input: a file of -max_len bytes holds at most a few hundred
 * flows, on 16, 12 or 6 nodes.
 */
#include <math.h>
#include <string.h>
#include <linux/types.h>
#include <linux/r2c2.h>

#include "r2c2_alloc.h"
#include "fuzz.h"

static struct r2c2_topo *topo[3];

static void fail(const char *why)
{
	fprintf(stderr, "flowfile_fuzz: %s\n", why);
	abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	/* 0 <-> 1 twice, 1 -> 2 -> 0 one way; 3 <-> 4; 5 alone */
	static const u16 adj[6][R2C2_MAX_PORTS] = {
		{ 1, 1 }, { 0, 0, 2 }, { 0 }, { 4 }, { 3 },
	};
	static const u8 deg[6] = { 2, 3, 1, 1, 1, 0 };
	u16 nbr[6 * R2C2_MAX_PORTS];
	double cap[6 * R2C2_MAX_PORTS];
	char err[256];

	(void)argc;
	(void)argv;
	for (unsigned int u = 0; u < 6; u++)
		for (unsigned int p = 0; p < R2C2_MAX_PORTS; p++) {
			nbr[u * R2C2_MAX_PORTS + p] = p < deg[u] ? adj[u][p] :
						      R2C2_IDX_NONE;
			cap[u * R2C2_MAX_PORTS + p] = p < deg[u] ? 1e9 * (p + 1) : 0;
		}
	if (r2c2_topo_parse(&topo[0], "torus:4x4", 10e9, err, sizeof(err)) ||
	    r2c2_topo_parse(&topo[1], "torus:3x4", 10e9, err, sizeof(err)) ||
	    r2c2_topo_from_adj(&topo[2], 6, nbr, cap))
		fail("the topologies do not build");
	return 0;
}

static void alloc(const struct r2c2_topo *t, const struct r2c2_flow *f,
		  size_t nf)
{
	struct r2c2_rtab *rt = NULL;
	struct r2c2_check chk;
	double *rate;
	size_t i;

	if (r2c2_rtab_new(&rt, t))
		abort();
	for (i = 0; i < nf; i++)
		if (r2c2_rtab_prepare(rt, f[i].src, f[i].dst, f[i].rproto))
			fail("a loaded flow's pair has no tables");
	rate = calloc(nf + 1, sizeof(*rate));
	if (!rate)
		abort();
	/* -ERANGE is the documented answer to weights too far apart */
	if (!r2c2_maxmin(rt, f, nf, R2C2_HEADROOM_DEFAULT, rate, NULL) &&
	    r2c2_maxmin_check(rt, f, nf, R2C2_HEADROOM_DEFAULT, rate, 1e-6,
			      &chk)) {
		fprintf(stderr, "flowfile_fuzz: flow %ld: %s (over %g)\n",
			chk.bad_flow, chk.why ? chk.why : "?", chk.max_over);
		fail("the max-min allocation fails its certificate");
	}
	free(rate);
	r2c2_rtab_free(rt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	struct r2c2_flow *f;
	char err[512];
	size_t nf, i;
	bool *lg;

	for (unsigned int k = 0; k < 3; k++) {
		const struct r2c2_topo *t = topo[k];

		err[0] = 0;
		if (r2c2_flows_load(path, t, &f, &lg, &nf, err, sizeof(err))) {
			if (!err[0] || f || lg || nf)
				fail("an error without a message, or with flows");
			continue;
		}
		for (i = 0; i < nf; i++)
			if (f[i].src >= t->n || f[i].dst >= t->n ||
			    f[i].src == f[i].dst ||
			    t->paths.dist[(size_t)f[i].dst * t->n + f[i].src] ==
			    R2C2_DIST_INF ||
			    !(f[i].weight >= R2C2_WEIGHT_MIN &&
			      f[i].weight <= R2C2_WEIGHT_MAX) ||
			    f[i].prio >= R2C2_PRIO_LEVELS ||
			    f[i].rproto >= __R2C2_RP_MAX ||
			    !(f[i].demand >= 0 && f[i].demand <= R2C2_PARSE_RATE_MAX))
				fail("a loaded flow the format does not allow");
		if (nf)
			alloc(t, f, nf);
		free(f);
		free(lg);
	}
	return 0;
}
