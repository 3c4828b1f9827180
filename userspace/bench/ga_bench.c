// SPDX-License-Identifier: GPL-2.0
/*
 * ga_bench.c - genetic route selection on the 8x8x8 torus, 512 long flows:
 * time of one generation (100 fitness evaluations) on all cores, and the
 * gain of the selected assignment over the best single protocol.
 * usage: ga_bench [-r RUNS] [-g MAXGEN] [-t THREADS]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "r2c2_alloc.h"
#include "bench.h"

/* xorshift64, not bench.h's xr(): xr() would draw other flows */
static uint64_t rs = 12345;
static unsigned int rnd(unsigned int n)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return (unsigned int)(rs % n);
}

int main(int argc, char **argv)
{
	static const char *const wl[] = { "uniform", "permutation", "tornado", "hotspot" };
	u8 dims[3] = { 8, 8, 8 };
	struct r2c2_topo *t;
	struct r2c2_rtab *rt;
	struct r2c2_flow f[512], g[512];
	struct r2c2_ga_opts o;
	struct r2c2_ga_result res;
	unsigned int runs = 5, maxgen = 100, threads = 0, w, i, r;
	int opt, p;

	while ((opt = getopt(argc, argv, "r:g:t:")) != -1) {
		if (opt == 'r')
			runs = (unsigned int)atoi(optarg);
		else if (opt == 'g')
			maxgen = (unsigned int)atoi(optarg);
		else if (opt == 't')
			threads = (unsigned int)atoi(optarg);
	}
	r2c2_topo_grid(&t, dims, 3, true, 10e9);
	r2c2_rtab_new(&rt, t);
	printf("%-12s %10s %10s %10s %10s %10s %8s %6s\n", "workload", "gen_ms(med)",
	       "all-rps", "all-dor", "all-vlb", "selected", "gain", "gens");
	for (w = 0; w < 4; w++) {
		double gt[16], best = 0, u[3];
		double t0;

		for (i = 0; i < 512; i++) {
			unsigned int x = i % 8, y = i / 8 % 8, z = i / 64;

			f[i].src = (u16)i;
			switch (w) {
			case 0:
				do
					f[i].dst = (u16)rnd(512);
				while (f[i].dst == i);
				break;
			case 1:
				f[i].dst = (u16)((i * 167 + 5) % 512);
				if (f[i].dst == i)
					f[i].dst = (u16)((i + 1) % 512);
				break;
			case 2:	/* tornado: half-way in x, y and z */
				f[i].dst = (u16)((x + 3) % 8 + 8 * ((y + 3) % 8) + 64 * ((z + 3) % 8));
				break;
			default: /* hotspot: a quarter of the flows into 8 nodes */
				do
					f[i].dst = (u16)(rnd(4) ? rnd(512) : rnd(8) * 64);
				while (f[i].dst == i);
			}
			f[i].rproto = R2C2_RP_RPS;
			f[i].weight = 1;
			f[i].prio = 0;
			f[i].demand = 0;
		}
		for (p = 0; p < 3; p++) {
			memcpy(g, f, sizeof(f));
			for (i = 0; i < 512; i++)
				g[i].rproto = (u8)p;
			r2c2_utility(rt, g, 512, R2C2_POL_MAXMIN, R2C2_UTIL_SUM, 0.05, NULL, &u[p]);
			best = fmax(best, u[p]);
		}
		r2c2_ga_defaults(&o);
		o.threads = threads;
		o.max_gen = 0;	/* generation 0 only: 100 evaluations */
		for (r = 0; r < runs && r < 16; r++) {
			memcpy(g, f, sizeof(f));
			t0 = now_ms();
			r2c2_ga_select(rt, g, 512, NULL, &o, &res);
			gt[r] = now_ms() - t0;
		}
		qsort(gt, r, sizeof(double), cmpd);
		o.max_gen = maxgen;
		o.stall_gen = 20;
		memcpy(g, f, sizeof(f));
		r2c2_ga_select(rt, g, 512, NULL, &o, &res);
		printf("%-12s %10.1f %10.4g %10.4g %10.4g %10.4g %7.3fx %6u\n", wl[w], gt[r / 2],
		       u[0], u[1], u[2], res.fitness, res.fitness / best, res.generations);
		fflush(stdout);
	}
	r2c2_rtab_free(rt);
	r2c2_topo_free(t);
	return 0;
}
