// SPDX-License-Identifier: GPL-2.0
/*
 * ga_test.c - genetic route selection: never worse than the current
 * assignment (elitism), reproducible for a seed whatever the thread
 * count, finds the Figure 4 fix-up, utility min works.
 */
#include <math.h>
#include <string.h>
#include "r2c2_alloc.h"
#include "alloc_tap.h"

int main(void)
{
	u8 dims[3] = { 4, 4, 4 };
	struct r2c2_topo *t;
	struct r2c2_rtab *rt;
	struct r2c2_flow f[120], g1[120], g2[120];
	struct r2c2_ga_opts o;
	struct r2c2_ga_result r1, r2;
	double cur, chk;
	uint64_t seed = 11;
	unsigned int i;
	int same = 1;

	r2c2_topo_grid(&t, dims, 3, true, 10e9);
	r2c2_rtab_new(&rt, t);
	for (i = 0; i < 120; i++) {
		f[i].src = (u16)tbelow(&seed, 64);
		do
			f[i].dst = (u16)tbelow(&seed, 64);
		while (f[i].dst == f[i].src);
		f[i].rproto = R2C2_RP_DOR;
		f[i].weight = 1;
		f[i].prio = 0;
		f[i].demand = 0;
	}
	r2c2_utility(rt, f, 120, R2C2_POL_MAXMIN, R2C2_UTIL_SUM, 0.05, NULL, &cur);
	r2c2_ga_defaults(&o);
	o.seed = 99;
	o.max_gen = 40;
	o.threads = 1;
	memcpy(g1, f, sizeof(f));
	ok(r2c2_ga_select(rt, g1, 120, NULL, &o, &r1) == 0, "ga_select runs");
	r2c2_utility(rt, g1, 120, R2C2_POL_MAXMIN, R2C2_UTIL_SUM, 0.05, NULL, &chk);
	ok(r1.fitness >= cur && fabs(chk - r1.fitness) <= 1e-9 * chk,
	   "result (%.4g) >= current all-DOR (%.4g) and is the utility of the returned assignment",
	   r1.fitness, cur);
	o.threads = 2;
	memcpy(g2, f, sizeof(f));
	r2c2_ga_select(rt, g2, 120, NULL, &o, &r2);
	for (i = 0; i < 120; i++)
		same &= g1[i].rproto == g2[i].rproto;
	ok(same && r1.fitness == r2.fitness && r1.generations == r2.generations,
	   "same seed, 1 vs 2 threads: identical result");
	o.utility = R2C2_UTIL_MIN;
	memcpy(g2, f, sizeof(f));
	r2c2_utility(rt, f, 120, R2C2_POL_MAXMIN, R2C2_UTIL_MIN, 0.05, NULL, &cur);
	r2c2_ga_select(rt, g2, 120, NULL, &o, &r2);
	ok(r2.fitness >= cur, "tail utility: min rate %.4g >= current %.4g", r2.fitness, cur);
	o.utility = R2C2_UTIL_SUM;
	o.policy = R2C2_POL_PROPFAIR;
	o.max_gen = 5;
	memcpy(g2, f, 40 * sizeof(f[0]));
	ok(r2c2_ga_select(rt, g2, 40, NULL, &o, &r2) == 0 && r2.fitness >= r2.initial,
	   "fitness under proportional fairness");
	r2c2_rtab_free(rt);
	r2c2_topo_free(t);
	return tap_done();
}
