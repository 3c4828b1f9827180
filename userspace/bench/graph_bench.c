// SPDX-License-Identifier: GPL-2.0
/*
 * graph_bench.c - the allocator's tables on a torus with links cut, which
 * r2c2d meets after any link failure: such a graph has no symmetry, so
 * its tables compute a pair's link weights when a flow of that pair is
 * first seen (r2c2_rtab_prepare()) and cache them; a link change rebuilds
 * the tables (r2c2d's worker: tables.c) and the pairs are prepared again.
 *
 * usage: graph_bench [-t K1xK2xK3] [-f FLOWS] [-x CUTS] [-r RUNS] [-S SEED]
 *                    [-p rps|dor|vlb|mix] [-a]
 *
 * On the torus (default 8x8x8) with CUTS (1) random links cut in both
 * directions, FLOWS (10^4) flows of uniform random pairs, routed by PROTO
 * (mix: a third each RPS, DOR and VLB), weight 1:
 *   build      the graph (r2c2_topo_from_adj_ports(): its paths) and its
 *              tables (r2c2_rtab_new()), as r2c2d's worker builds them
 *   prepare    every flow's pair (r2c2_rtab_prepare()), as r2c2d's first
 *              round on new tables does, and the cache's bytes then
 *   alloc      r2c2_maxmin() over the flows on those tables, against the
 *              same flows on the whole torus (no link cut)
 *   torus      the same first build and prepare, the tables first
 *              carried from the torus's (r2c2_rtab_carry(): a minimal
 *              leg the cut left as it was is the torus's, translated),
 *              as r2c2d's first link failure does; the pairs so prepared;
 *              and max-min over the flows on those tables
 *   change     one more link cut: build and prepare again, nothing kept
 *   kept       the same, the new tables first taking over from the old
 *              ones the pairs and groups the cut left as they were
 *              (r2c2_rtab_carry(), as r2c2d's tables_swap() does): the
 *              carry, then the pairs left to prepare
 *   all pairs  every (src, dst, protocol) prepared: the cache's bound,
 *              n * (n - 1) * 3 pairs (only with -a)
 * Times are this thread's CPU time in ms, medians over RUNS (5) runs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "r2c2_alloc.h"
#include "bench.h"

/* a copy of t's adjacency with ncut more random links cut both ways */
static int cut_links(const struct r2c2_topo *t, u16 *nbr, u8 *nport,
		     double *cap, unsigned int ncut)
{
	size_t nl = R2C2_NLINKS(t->n);
	unsigned int done = 0, tries = 0;

	adj_copy(t, nbr, nport, cap);
	while (done < ncut) {
		size_t l = xr() % nl;

		if (++tries > 1000000)
			return -1;
		if (nbr[l] == R2C2_IDX_NONE)
			continue;
		adj_cut(nbr, nport, cap, l);
		done++;
	}
	return 0;
}

static size_t tab_bytes(const struct r2c2_rtab *rt)
{
	size_t b = 0;
	int p;

	for (p = 0; p < __R2C2_RP_MAX; p++)
		b += r2c2_rtab_memory(rt, (u8)p);
	return b;
}

struct built {
	struct r2c2_topo *t;
	struct r2c2_rtab *rt;
	double build_ms, prep_ms, keep_ms;
	size_t bytes, kept;
};

/*
 * the graph of (nbr, nport, cap), its tables, with what they take over
 * from old (unless NULL) first, the flows' pairs prepared
 */
static int build(u16 n, const u16 *nbr, const u8 *nport, const double *cap,
		 const struct r2c2_flow *f, size_t nf, struct built *old,
		 struct built *b)
{
	double c0 = cpu_ms();
	size_t i, todo;

	if (r2c2_topo_from_adj_prev(&b->t, n, nbr, nport, cap,
				    old ? old->t : NULL) ||
	    r2c2_rtab_new(&b->rt, b->t))
		return -1;
	b->build_ms = cpu_ms() - c0;
	if (old) {
		c0 = cpu_ms();
		b->kept = r2c2_rtab_carry(b->rt, old->rt);
		b->keep_ms = cpu_ms() - c0;
	}
	c0 = cpu_ms();
	/* room for the pairs not there yet, as r2c2d's round makes it */
	for (i = 0, todo = 0; i < nf; i++)
		todo += !r2c2_rtab_prepared(b->rt, f[i].src, f[i].dst,
					    f[i].rproto);
	r2c2_rtab_reserve(b->rt, todo);
	for (i = 0; i < nf; i++)
		if (r2c2_rtab_prepare(b->rt, f[i].src, f[i].dst, f[i].rproto))
			return -1;
	b->prep_ms = cpu_ms() - c0;
	b->bytes = tab_bytes(b->rt);
	return 0;
}

static void unbuild(struct built *b)
{
	r2c2_rtab_free(b->rt);
	r2c2_topo_free(b->t);
	memset(b, 0, sizeof(*b));
}

/* CPU ms of one r2c2_maxmin() over the flows, or -1 when it failed */
static double maxmin_ms(const struct r2c2_rtab *rt, const struct r2c2_flow *f,
			size_t nf, double *x, struct r2c2_ws *ws)
{
	double c0 = cpu_ms();

	return r2c2_maxmin(rt, f, nf, 0.05, x, ws) ? -1 : cpu_ms() - c0;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(double), cmpd);
	return v[n / 2];
}

int main(int argc, char **argv)
{
	u8 dims[3] = { 8, 8, 8 };
	unsigned int nd = 3, ncut = 1;
	size_t nf = 10000, i, nl;
	int runs = 5, opt, r, all = 0, proto = -1;
	struct r2c2_topo *torus;
	struct r2c2_rtab *trt;
	struct r2c2_flow *f;
	double *x, *tb, *tp, *ta, *tt, *cb, *cp, *kk, *kp, *fk, *fp, *fa, c0;
	double *fb, *kb;
	u16 *nbr, *nbr2;
	u8 *nport, *nport2;
	double *cap, *cap2;
	struct r2c2_ws *ws = r2c2_ws_new();
	struct built g, h, k;
	size_t bytes = 0, bytes2 = 0, kept = 0, from = 0, bytesf = 0;
	uint64_t seed = 0;

	while ((opt = getopt(argc, argv, "t:f:x:r:S:p:a")) != -1) {
		if (opt == 't') {
			if (r2c2_parse_dims(optarg, dims, &nd)) {
				fprintf(stderr, "graph_bench: -t: want K1[xK2[xK3]], radices 2..255, not \"%s\"\n",
					optarg);
				return 2;
			}
		} else if (opt == 'f') {
			uint64_t v;

			if (r2c2_parse_uint(optarg, false, 1, 10000000, &v)) {
				fprintf(stderr, "graph_bench: -f: flows, 1..10000000, not \"%s\"\n", optarg);
				return 2;
			}
			nf = v;
		} else if (opt == 'x') {
			uint64_t v;

			if (r2c2_parse_uint(optarg, false, 1, 1000, &v)) {
				fprintf(stderr, "graph_bench: -x: links to cut, 1..1000, not \"%s\"\n", optarg);
				return 2;
			}
			ncut = (unsigned int)v;
		} else if (opt == 'r') {
			uint64_t v;

			if (r2c2_parse_uint(optarg, false, 1, 1000, &v)) {
				fprintf(stderr, "graph_bench: -r: runs, 1..1000, not \"%s\"\n", optarg);
				return 2;
			}
			runs = (int)v;
		} else if (opt == 'S') {
			if (r2c2_parse_uint(optarg, true, 0, UINT64_MAX, &seed)) {
				fprintf(stderr, "graph_bench: -S: a seed, not \"%s\"\n", optarg);
				return 2;
			}
			xr_state = seed;
		} else if (opt == 'p') {
			proto = !strcmp(optarg, "rps") ? R2C2_RP_RPS :
				!strcmp(optarg, "dor") ? R2C2_RP_DOR :
				!strcmp(optarg, "vlb") ? R2C2_RP_VLB :
				!strcmp(optarg, "mix") ? -1 : -2;
			if (proto == -2) {
				fprintf(stderr, "graph_bench: -p: rps, dor, vlb or mix, not \"%s\"\n",
					optarg);
				return 2;
			}
		} else if (opt == 'a') {
			all = 1;
		} else {
			fprintf(stderr, "usage: graph_bench [-t K1xK2xK3] [-f FLOWS] [-x CUTS] [-r RUNS] [-S SEED] [-p rps|dor|vlb|mix] [-a]\n");
			return 2;
		}
	}
	if (r2c2_topo_grid(&torus, dims, nd, true, 10e9) ||
	    r2c2_rtab_new(&trt, torus) || !ws) {
		fprintf(stderr, "graph_bench: -t: no such torus, or out of memory\n");
		return 2;
	}
	nl = R2C2_NLINKS(torus->n);
	f = calloc(nf, sizeof(*f));
	x = calloc(nf, sizeof(*x));
	tb = calloc(runs, sizeof(double));
	tp = calloc(runs, sizeof(double));
	ta = calloc(runs, sizeof(double));
	tt = calloc(runs, sizeof(double));
	cb = calloc(runs, sizeof(double));
	cp = calloc(runs, sizeof(double));
	kk = calloc(runs, sizeof(double));
	kp = calloc(runs, sizeof(double));
	fk = calloc(runs, sizeof(double));
	fp = calloc(runs, sizeof(double));
	fa = calloc(runs, sizeof(double));
	fb = calloc(runs, sizeof(double));
	kb = calloc(runs, sizeof(double));
	nbr = calloc(nl, sizeof(*nbr));
	nbr2 = calloc(nl, sizeof(*nbr2));
	nport = calloc(nl, sizeof(*nport));
	nport2 = calloc(nl, sizeof(*nport2));
	cap = calloc(nl, sizeof(*cap));
	cap2 = calloc(nl, sizeof(*cap2));
	if (!f || !x || !tb || !tp || !ta || !tt || !cb || !cp || !kk ||
	    !kp || !fk || !fp || !fa || !fb || !kb || !nbr ||
	    !nbr2 || !nport || !nport2 || !cap || !cap2) {
		fprintf(stderr, "graph_bench: out of memory\n");
		return 1;
	}
	for (i = 0; i < nf; i++) {
		f[i].src = (u16)(xr() % torus->n);
		do
			f[i].dst = (u16)(xr() % torus->n);
		while (f[i].dst == f[i].src);
		f[i].rproto = (u8)(proto >= 0 ? proto :
				   i % 3 == 0 ? R2C2_RP_RPS :
				   i % 3 == 1 ? R2C2_RP_DOR : R2C2_RP_VLB);
		f[i].weight = 1;
	}
	/* the cut graph, and the graph after one more link change */
	if (cut_links(torus, nbr, nport, cap, ncut)) {
		fprintf(stderr, "graph_bench: -x: cannot cut %u links\n", ncut);
		return 2;
	}
	{
		struct r2c2_topo tmp = *torus;

		tmp.nbr = nbr;
		tmp.nbr_port = nport;
		tmp.cap = cap;
		if (cut_links(&tmp, nbr2, nport2, cap2, 1)) {
			fprintf(stderr, "graph_bench: cannot cut one more link\n");
			return 2;
		}
	}
	for (r = 0; r < runs; r++) {
		struct built tor = { .t = torus, .rt = trt }, gt;

		if (build(torus->n, nbr, nport, cap, f, nf, &tor, &gt)) {
			fprintf(stderr, "graph_bench: the cut graph's tables from the torus's failed\n");
			return 1;
		}
		fb[r] = gt.build_ms;
		fk[r] = gt.keep_ms;
		fp[r] = gt.prep_ms;
		from = r2c2_rtab_from_torus(gt.rt, NULL);
		bytesf = gt.bytes;
		fa[r] = maxmin_ms(gt.rt, f, nf, x, ws);
		unbuild(&gt);
		if (fa[r] < 0) {
			fprintf(stderr, "graph_bench: maxmin failed (the graph from the torus)\n");
			return 1;
		}
		if (build(torus->n, nbr, nport, cap, f, nf, NULL, &g)) {
			fprintf(stderr, "graph_bench: the cut graph's tables failed (a pair without a path?)\n");
			return 1;
		}
		tb[r] = g.build_ms;
		tp[r] = g.prep_ms;
		bytes = g.bytes;
		ta[r] = maxmin_ms(g.rt, f, nf, x, ws);
		tt[r] = maxmin_ms(trt, f, nf, x, ws);
		if (ta[r] < 0 || tt[r] < 0) {
			fprintf(stderr, "graph_bench: maxmin failed (%s)\n",
				ta[r] < 0 ? "the graph" : "the torus");
			return 1;
		}
		if (build(torus->n, nbr2, nport2, cap2, f, nf, NULL, &h) ||
		    build(torus->n, nbr2, nport2, cap2, f, nf, &g, &k)) {
			fprintf(stderr, "graph_bench: the changed graph's tables failed\n");
			return 1;
		}
		unbuild(&g);
		cb[r] = h.build_ms;
		cp[r] = h.prep_ms;
		bytes2 = h.bytes;
		kb[r] = k.build_ms;
		kk[r] = k.keep_ms;
		kp[r] = k.prep_ms;
		kept = k.kept;
		unbuild(&h);
		unbuild(&k);
	}
	printf("graph_bench: %ux%ux%u torus, %u nodes, %u links cut both ways, %zu flows (%s), %d runs, CPU ms medians\n",
	       dims[0], nd > 1 ? dims[1] : 1, nd > 2 ? dims[2] : 1, torus->n,
	       ncut, nf, proto == R2C2_RP_RPS ? "RPS" :
	       proto == R2C2_RP_DOR ? "DOR" : proto == R2C2_RP_VLB ? "VLB" :
	       "1/3 RPS, DOR, VLB", runs);
	{
		double b = median(tb, runs), pr = median(tp, runs);
		double b2 = median(cb, runs), pr2 = median(cp, runs);

		printf("build_ms %.2f prepare_ms %.2f full_ms %.2f cache_mb %.1f\n",
		       b, pr, b + pr, bytes / 1e6);
		printf("alloc_graph_ms %.2f alloc_torus_ms %.2f\n",
		       median(ta, runs), median(tt, runs));
		printf("torus_build_ms %.2f torus_carry_ms %.2f torus_prepare_ms %.2f torus_full_ms %.2f from_torus %zu torus_cache_mb %.1f torus_alloc_ms %.2f\n",
		       median(fb, runs), median(fk, runs), median(fp, runs),
		       median(fb, runs) + median(fk, runs) + median(fp, runs),
		       from, bytesf / 1e6, median(fa, runs));
		printf("change_build_ms %.2f change_prepare_ms %.2f change_ms %.2f change_cache_mb %.1f\n",
		       b2, pr2, b2 + pr2, bytes2 / 1e6);
		printf("kept %zu kept_build_ms %.2f keep_ms %.2f kept_prepare_ms %.2f kept_change_ms %.2f\n",
		       kept, median(kb, runs), median(kk, runs), median(kp, runs),
		       median(kb, runs) + median(kk, runs) + median(kp, runs));
	}
	if (all) {
		unsigned int s, d, p;

		if (build(torus->n, nbr, nport, cap, f, 0, NULL, &g))
			return 1;
		c0 = cpu_ms();
		for (p = 0; p < 3; p++)
			for (s = 0; s < torus->n; s++)
				for (d = 0; d < torus->n; d++)
					if (s != d &&
					    r2c2_rtab_prepare(g.rt, (u16)s, (u16)d, (u8)p)) {
						fprintf(stderr, "graph_bench: pair %u %u failed\n", s, d);
						return 1;
					}
		printf("all_pairs_ms %.1f all_pairs_cache_mb %.1f pairs %u\n",
		       cpu_ms() - c0, tab_bytes(g.rt) / 1e6,
		       3 * torus->n * (torus->n - 1));
		unbuild(&g);
	}
	free(f); free(x); free(tb); free(tp); free(ta); free(tt); free(cb); free(cp);
	free(kk); free(kp); free(fk); free(fp); free(fa); free(fb); free(kb);
	free(nbr); free(nbr2); free(nport); free(nport2); free(cap); free(cap2);
	r2c2_ws_free(ws);
	r2c2_rtab_free(trt);
	r2c2_topo_free(torus);
	return 0;
}
