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

/*
 * Paper Figure 4 (as in maxmin_test.c): f1 1 -> 4 over 1->4 (drawn as
 * 1 -> 5 -> 4) and 1 -> 3 -> 4, f2 2 -> 3 -> 4; links into 4 capacity 1,
 * the others 2. All-RPS splits f1 over both paths: {2/3, 2/3}, utility
 * 4/3. The fix-up moves f1 to the direct path alone (DOR, the lower
 * port): {1, 1}, utility 2. A search that returns its input (or stops
 * short) fails here, where the elitism check above cannot.
 */
static void figure4(void)
{
	u16 nbr[6 * 8];
	double cap[6 * 8] = { 0 };
	struct r2c2_topo *t;
	struct r2c2_rtab *rt;
	struct r2c2_flow f[2] = {
		{ .src = 1, .dst = 4, .rproto = R2C2_RP_RPS, .weight = 1 },
		{ .src = 2, .dst = 4, .rproto = R2C2_RP_RPS, .weight = 1 },
	};
	struct r2c2_ga_opts o;
	struct r2c2_ga_result r;
	int p, i;

	memset(nbr, 0xff, sizeof(nbr));
	nbr[1 * 8 + 0] = 5; cap[1 * 8 + 0] = 2;
	nbr[5 * 8 + 0] = 4; cap[5 * 8 + 0] = 1;
	nbr[1 * 8 + 1] = 3; cap[1 * 8 + 1] = 2;
	nbr[3 * 8 + 0] = 4; cap[3 * 8 + 0] = 1;
	nbr[2 * 8 + 0] = 3; cap[2 * 8 + 0] = 2;
	r2c2_topo_from_adj(&t, 6, nbr, cap);
	r2c2_rtab_new(&rt, t);
	for (i = 0; i < 2; i++)
		for (p = R2C2_RP_RPS; p <= R2C2_RP_VLB; p++)
			r2c2_rtab_prepare(rt, f[i].src, f[i].dst, p);
	r2c2_ga_defaults(&o);
	o.seed = 1;
	o.threads = 1;
	o.headroom = 0;
	o.utility = R2C2_UTIL_SUM;
	o.policy = R2C2_POL_MAXMIN;
	ok(r2c2_ga_select(rt, f, 2, NULL, &o, &r) == 0 &&
	   fabs(r.initial - 4.0 / 3) < 1e-9 && fabs(r.fitness - 2) < 1e-9 &&
	   f[0].rproto == R2C2_RP_DOR,
	   "Figure 4: from all-RPS (utility %.4g, want 4/3) the search moves f1 to DOR (got proto %d) for {1, 1} (utility %.4g, want 2)",
	   r.initial, f[0].rproto, r.fitness);
	r2c2_rtab_free(rt);
	r2c2_topo_free(t);
}

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
	/* seed 99, one thread: 7.41e11 against 5.64e11 (+31 %) */
	ok(r1.fitness > 1.2 * cur && fabs(chk - r1.fitness) <= 1e-9 * chk,
	   "result (%.4g) > 1.2 x current all-DOR (%.4g) and is the utility of the returned assignment",
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
	figure4();
	return tap_done();
}
