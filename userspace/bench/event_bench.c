// SPDX-License-Identifier: GPL-2.0
/*
 * event_bench.c - how much of a weighted max-min solution one flow event
 * changes: the floor under any exact incremental solver, which must at
 * least rewrite every rate that moved.
 *
 * usage: event_bench [-n FLOWS] [-e EVENTS] [-m MIX] [-S SEED]
 *
 * On the 8x8x8 torus (10 Gbit/s links, headroom 5 %, weight 1, uniform
 * random pairs, as alloc_bench), FLOWS flows (10^4) are allocated; then
 * EVENTS times (200) one event is applied to that allocation, a FINISH
 * of a random flow or a START of a new random one (alternately), and the
 * allocation is computed again. For each event it counts the flows
 * (of those present before and after) whose rate moved by more than a
 * relative 1e-9, 1e-6, 1e-3 and 1e-2, and the "suffix": the flows whose
 * freeze level (rate / weight) is at or above the lowest level that
 * changed (the flows an engine re-solving from that level, keeping every
 * earlier freeze, would redo). Prints, per mix, the median, 90th
 * percentile and largest fraction of the flows for each.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "r2c2_alloc.h"
#include "bench.h"

#define NTH 4
static const double th[NTH] = { 1e-9, 1e-6, 1e-3, 1e-2 };

struct mix {
	const char *name;
	int pct[3];	/* rps, dor, vlb */
};

static void draw(struct r2c2_flow *f, const struct r2c2_topo *t,
		 const struct mix *m)
{
	int q = (int)(xr() % 100);

	memset(f, 0, sizeof(*f));
	f->src = (u16)(xr() % t->n);
	do
		f->dst = (u16)(xr() % t->n);
	while (f->dst == f->src);
	f->rproto = q < m->pct[0] ? R2C2_RP_RPS :
		    q < m->pct[0] + m->pct[1] ? R2C2_RP_DOR : R2C2_RP_VLB;
	f->weight = 1;
}

static void print_row(const char *mix, const char *what, double *v, int ne)
{
	qsort(v, (size_t)ne, sizeof(double), cmpd);
	printf("%-8s %-14s %8.4f %8.4f %8.4f\n", mix, what, v[ne / 2],
	       v[(ne * 9) / 10], v[ne - 1]);
}

int main(int argc, char **argv)
{
	static const struct mix mixes[] = {
		{ "rps", { 100, 0, 0 } }, { "dor", { 0, 100, 0 } },
		{ "vlb", { 0, 0, 100 } }, { "mix-1/3", { 34, 33, 33 } },
	};
	const u8 dims[3] = { 8, 8, 8 };
	const char *only = NULL;
	size_t n = 10000, mi;
	int ne = 200, opt;
	struct r2c2_topo *t;
	struct r2c2_rtab *rt;
	struct r2c2_ws *ws = r2c2_ws_new();

	while ((opt = getopt(argc, argv, "n:e:m:S:")) != -1) {
		if (opt == 'n')
			n = strtoul(optarg, NULL, 10);
		else if (opt == 'e')
			ne = atoi(optarg);
		else if (opt == 'm')
			only = optarg;
		else if (opt == 'S')
			xr_state = strtoull(optarg, NULL, 0);
		else {
			fputs("usage: event_bench [-n FLOWS] [-e EVENTS] [-m rps|dor|vlb|mix-1/3] [-S SEED]\n",
			      stderr);
			return 2;
		}
	}
	if (n < 2 || ne < 1) {
		fputs("event_bench: -n takes at least 2 flows, -e at least 1 event\n",
		      stderr);
		return 2;
	}
	if (!ws || r2c2_topo_grid(&t, dims, 3, true, 10e9) ||
	    r2c2_rtab_new(&rt, t)) {
		fputs("event_bench: out of memory\n", stderr);
		return 1;
	}
	printf("8x8x8 torus, %zu flows, %d events (FINISH and START alternately): fraction of the flows\n",
	       n, ne);
	printf("%-8s %-14s %8s %8s %8s\n", "mix", "what", "median", "p90", "max");
	for (mi = 0; mi < sizeof(mixes) / sizeof(mixes[0]); mi++) {
		const struct mix *m = &mixes[mi];
		struct r2c2_flow *f = calloc(n + 1, sizeof(*f));
		struct r2c2_flow *g = calloc(n + 1, sizeof(*g));
		double *x = calloc(n + 1, sizeof(double));
		double *y = calloc(n + 1, sizeof(double));
		double *moved[NTH], *suffix = calloc((size_t)ne, sizeof(double));
		char what[32];
		size_t i, j, k;
		int e, q;

		for (q = 0; q < NTH; q++)
			moved[q] = calloc((size_t)ne, sizeof(double));
		/* the same flows whatever is skipped: drawn first */
		for (i = 0; i < n; i++)
			draw(&f[i], t, m);
		if (only && strcmp(only, m->name))
			goto next;
		if (r2c2_maxmin(rt, f, n, 0.05, x, ws)) {
			fputs("event_bench: max-min failed\n", stderr);
			return 1;
		}
		for (e = 0; e < ne; e++) {
			bool fin = !(e & 1);
			size_t v = xr() % n, ng = 0;
			double lo = INFINITY;

			for (i = 0; i < n; i++)
				if (!fin || i != v)
					g[ng++] = f[i];
			if (!fin)
				draw(&g[ng++], t, m);
			if (r2c2_maxmin(rt, g, ng, 0.05, y, ws)) {
				fputs("event_bench: max-min failed\n", stderr);
				return 1;
			}
			/* the flows present before and after, in order */
			for (i = 0, j = 0; i < n; i++) {
				double d;

				if (fin && i == v)
					continue;
				d = fabs(y[j] - x[i]) / x[i];
				for (q = 0; q < NTH; q++)
					moved[q][e] += d > th[q];
				if (d > th[0] && x[i] < lo)
					lo = x[i];
				j++;
			}
			/* the event's own flow: its level before, or after */
			lo = fmin(lo, fin ? x[v] : y[ng - 1]);
			for (i = 0, k = 0; i < n; i++)
				k += x[i] >= lo * (1 - 1e-12);
			suffix[e] = (double)k / (double)n;
			for (q = 0; q < NTH; q++)
				moved[q][e] /= (double)n;
		}
		for (q = 0; q < NTH; q++) {
			snprintf(what, sizeof(what), "moved > %g", th[q]);
			print_row(m->name, what, moved[q], ne);
		}
		print_row(m->name, "suffix", suffix, ne);
		fflush(stdout);
next:
		for (q = 0; q < NTH; q++)
			free(moved[q]);
		free(suffix);
		free(f);
		free(g);
		free(x);
		free(y);
	}
	r2c2_rtab_free(rt);
	r2c2_topo_free(t);
	r2c2_ws_free(ws);
	return 0;
}
