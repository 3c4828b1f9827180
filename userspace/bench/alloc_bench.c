// SPDX-License-Identifier: GPL-2.0
/*
 * alloc_bench.c - water-filling on the 8x8x8 torus (3,072 directed links),
 * uniform random pairs, for RPS / DOR / VLB and mixes, 10^3..10^5 flows;
 * the baseline where it finishes in reasonable time; table memory.
 *
 * usage: alloc_bench [-r RUNS] [-b MAXBASELINE] [-n MAXFLOWS] [-m MIX] [-s FLOWS]
 *                    [-o RATES] [-S SEED] [-t K1xK2xK3] [-c MB]
 * Prints medians (one core, this thread only) of wall-clock time and of
 * this thread's CPU time (less sensitive to a loaded machine). -m and -s run one mix /
 * one size only (-s any number of flows, e.g. the few a round sees; under
 * valgrind --tool=callgrind --toggle-collect=r2c2_maxmin: instruction
 * counts). -o writes every
 * rate computed (binary doubles, in order) to RATES: `cmp` two engines'
 * files to see that they agree bit for bit. -S draws other flows (seed of
 * the generator; the default is the one every published number used).
 * -t another torus (e.g. 16x16x16: the tables' build time and memory,
 * then the allocations). -c writes MB megabytes of other memory before
 * each timed call, untimed: a round with cold caches, as a daemon woken
 * every rho after other work meets it (16 is twice this machine's L2s).
 * Times are in ms with four decimals (0.0100 = 10 us).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "r2c2_alloc.h"
#include "bench.h"

struct mix {
	const char *name;
	int pct[3];	/* rps, dor, vlb */
};

int main(int argc, char **argv)
{
	static const struct mix mixes[] = {
		{ "rps", { 100, 0, 0 } }, { "dor", { 0, 100, 0 } },
		{ "vlb", { 0, 0, 100 } }, { "mix-1/3", { 34, 33, 33 } },
		{ "vlb-heavy-80", { 20, 0, 80 } },
	};
	size_t sizes[] = { 1000, 10000, 100000 }, maxbase = 10000, maxn = 100000;
	size_t only_n = 0;
	const char *only_mix = NULL;
	FILE *out = NULL;
	int runs = 7, opt, p;
	u8 dims[3] = { 8, 8, 8 };
	unsigned int nd = 3;
	struct r2c2_topo *t;
	struct r2c2_rtab *rt;
	struct r2c2_ws *ws = r2c2_ws_new();
	double t0;
	unsigned int mi, si;
	size_t cold = 0;
	volatile unsigned char *evict = NULL;

	while ((opt = getopt(argc, argv, "r:b:n:m:s:o:S:t:c:")) != -1) {
		if (opt == 'c') {
			cold = strtoul(optarg, NULL, 10) << 20;
			evict = cold ? malloc(cold) : NULL;
			if (cold && !evict) {
				fprintf(stderr, "alloc_bench: -c: out of memory\n");
				return 1;
			}
		} else if (opt == 't') {
			if (r2c2_parse_dims(optarg, dims, &nd)) {
				fprintf(stderr, "alloc_bench: -t: want K1[xK2[xK3]], radices 2..255, not \"%s\"\n",
					optarg);
				return 2;
			}
		} else if (opt == 'r')
			runs = atoi(optarg);
		else if (opt == 'b')
			maxbase = strtoul(optarg, NULL, 10);
		else if (opt == 'n')
			maxn = strtoul(optarg, NULL, 10);
		else if (opt == 'm')
			only_mix = optarg;
		else if (opt == 's')
			only_n = strtoul(optarg, NULL, 10);
		else if (opt == 'S')
			xr_state = strtoull(optarg, NULL, 0);
		else if (opt == 'o' && !(out = fopen(optarg, "wb"))) {
			perror(optarg);
			return 1;
		}
	}
	if (r2c2_topo_grid(&t, dims, nd, true, 10e9)) {
		fprintf(stderr, "alloc_bench: -t: no such torus\n");
		return 2;
	}
	t0 = now_ms();
	if (r2c2_rtab_new(&rt, t)) {
		fprintf(stderr, "alloc_bench: tables: out of memory\n");
		return 1;
	}
	printf("%u", dims[0]);
	for (p = 1; p < (int)nd; p++)
		printf("x%u", dims[p]);
	printf(" torus: %u nodes, %u directed links; tables built in %.1f ms\n",
	       t->n, t->nlinks, now_ms() - t0);
	for (p = 0; p < __R2C2_RP_MAX; p++)
		printf("memory %s: %.2f MB\n", r2c2_rproto_name(p),
		       r2c2_rtab_memory(rt, (u8)p) / 1e6);
	printf("%-14s %8s %12s %12s %12s %12s %9s %s\n", "mix", "flows", "median_ms",
	       "min_ms", "cpu_med_ms", "baseline_ms", "speedup", "max_rel_diff");
	if (only_n)
		sizes[0] = only_n;
	for (si = 0; si < (only_n ? 1u : 3u); si++) {
		size_t n = sizes[si];

		if (n > maxn)
			break;
		for (mi = 0; mi < sizeof(mixes) / sizeof(mixes[0]); mi++) {
			struct r2c2_flow *f = calloc(n, sizeof(*f));
			double *x = calloc(n, sizeof(double)), *xb = calloc(n, sizeof(double));
			double *tm = calloc(runs, sizeof(double)), bms = NAN, diff = NAN;
			double *tc = calloc(runs, sizeof(double)), c0;
			size_t i;
			int r;

			/* same flows whatever is skipped: draw them first */
			for (i = 0; i < n; i++) {
				int q = (int)(xr() % 100);

				f[i].src = (u16)(xr() % t->n);
				do
					f[i].dst = (u16)(xr() % t->n);
				while (f[i].dst == f[i].src);
				f[i].rproto = q < mixes[mi].pct[0] ? R2C2_RP_RPS :
					q < mixes[mi].pct[0] + mixes[mi].pct[1] ?
					R2C2_RP_DOR : R2C2_RP_VLB;
				f[i].weight = 1;
			}
			if (only_mix && strcmp(only_mix, mixes[mi].name)) {
				free(f); free(x); free(xb); free(tm); free(tc);
				continue;
			}
			for (r = 0; r < runs; r++) {
				for (i = 0; i < cold; i += 64)
					evict[i] = (unsigned char)(evict[i] + r + 1);
				t0 = now_ms();
				c0 = cpu_ms();
				if (r2c2_maxmin(rt, f, n, 0.05, x, ws)) {
					fprintf(stderr, "maxmin failed\n");
					return 1;
				}
				tc[r] = cpu_ms() - c0;
				tm[r] = now_ms() - t0;
			}
			if (out && fwrite(x, sizeof(double), n, out) != n) {
				perror("write");
				return 1;
			}
			qsort(tm, runs, sizeof(double), cmpd);
			qsort(tc, runs, sizeof(double), cmpd);
			if (n <= maxbase) {
				t0 = now_ms();
				r2c2_maxmin_baseline(t, f, n, 0.05, xb);
				bms = now_ms() - t0;
				diff = 0;
				for (i = 0; i < n; i++)
					diff = fmax(diff, fabs(x[i] - xb[i]) / fmax(xb[i], 1));
			}
			printf("%-14s %8zu %12.4f %12.4f %12.4f %12.1f %9.1f %.2g\n", mixes[mi].name,
			       n, tm[runs / 2], tm[0], tc[runs / 2], bms, bms / tm[runs / 2], diff);
			fflush(stdout);
			free(f); free(x); free(xb); free(tm); free(tc);
		}
	}
	if (out && fclose(out)) {
		perror("close");
		return 1;
	}
	free((void *)evict);
	r2c2_ws_free(ws);
	r2c2_rtab_free(rt);
	r2c2_topo_free(t);
	return 0;
}
