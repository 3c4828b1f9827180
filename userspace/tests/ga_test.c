// SPDX-License-Identifier: GPL-2.0
/*
 * ga_test.c - genetic route selection: never worse than the current
 * assignment (elitism), reproducible for a seed whatever the thread
 * count, finds the Figure 4 fix-up, improves on its first generation by
 * crossover and mutation, stops when it stalls, utility min works.
 */
#include <math.h>
#include <string.h>
#include <time.h>
#include "r2c2_alloc.h"
#include "alloc_tap.h"

/*
 * Paper Figure 4 (as in maxmin_test.c): f1 1 -> 4 over 1->4 (drawn as
 * 1 -> 5 -> 4) and 1 -> 3 -> 4, f2 2 -> 3 -> 4; links into 4 capacity 1,
 * the others 2. All-RPS splits f1 over both paths: {2/3, 2/3}, utility
 * 4/3. The fix-up moves f1 to the direct path alone (DOR, the lower
 * port): {1, 1}, utility 2. A search that returns its input fails here;
 * one that stops after its first generation does not (all-DOR is one of
 * the genotypes it starts from): gadgets() is for that.
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
	/* the best is in generation 0: stall_gen generations, no more */
	ok(r.generations == o.stall_gen &&
	   r.evaluations == o.population + (unsigned long)o.stall_gen *
			    (o.population - o.elite),
	   "Figure 4: no improvement after generation 0: stops after stall_gen = %u generations (ran %u, %lu evaluations)",
	   o.stall_gen, r.generations, r.evaluations);
	r2c2_rtab_free(rt);
	r2c2_topo_free(t);
}

/*
 * NG gadgets of Figure 4's shape side by side (5 nodes each, not
 * connected): f1 a -> d over a -> e -> d (DOR: port 0, the lower) or
 * a -> c -> d (RPS: half on each), links into d capacity 1, the others 2.
 * In an even gadget f2 is b -> c -> d: f1 on DOR gets {1, 1} (utility 2),
 * on RPS {2/3, 2/3} (4/3). In an odd one f2 is b -> e -> d, on DOR's
 * path: f1 on RPS gets {2/3, 2/3} (4/3), on DOR {1/2, 1/2} (1). f2 has
 * one path: its protocol does not matter. The best assignment mixes the
 * protocols (NG/2 * (2 + 4/3)), all-DOR gets NG/2 * (2 + 1), all-RPS
 * NG * 4/3: none of generation 0's single-protocol genotypes has it, and
 * a random one with probability 2^-NG.
 */
enum { NG = 16 };

static void gadgets_build(struct r2c2_topo **tp, struct r2c2_rtab **rtp,
			  struct r2c2_flow *f)
{
	static u16 nbr[5 * NG * 8];
	static double cap[5 * NG * 8];
	int g, i, p;

	memset(nbr, 0xff, sizeof(nbr));
	memset(cap, 0, sizeof(cap));
	for (g = 0; g < NG; g++) {
		int a = 5 * g, b = a + 1, c = a + 2, d = a + 3, e = a + 4;

		nbr[a * 8 + 0] = (u16)e; cap[a * 8 + 0] = 2;
		nbr[a * 8 + 1] = (u16)c; cap[a * 8 + 1] = 2;
		nbr[e * 8 + 0] = (u16)d; cap[e * 8 + 0] = 1;
		nbr[c * 8 + 0] = (u16)d; cap[c * 8 + 0] = 1;
		nbr[b * 8 + 0] = (u16)(g % 2 ? e : c); cap[b * 8 + 0] = 2;
		f[2 * g] = (struct r2c2_flow){ .src = (u16)a, .dst = (u16)d,
			.rproto = R2C2_RP_RPS, .weight = 1 };
		f[2 * g + 1] = (struct r2c2_flow){ .src = (u16)b, .dst = (u16)d,
			.rproto = R2C2_RP_RPS, .weight = 1 };
	}
	r2c2_topo_from_adj(tp, 5 * NG, nbr, cap);
	r2c2_rtab_new(rtp, *tp);
	for (i = 0; i < 2 * NG; i++)
		for (p = R2C2_RP_RPS; p <= R2C2_RP_VLB; p++)
			r2c2_rtab_prepare(*rtp, f[i].src, f[i].dst, (u8)p);
}

/* f1 of every gadget on its best protocol */
static bool gadgets_best(const struct r2c2_flow *f)
{
	int g;

	for (g = 0; g < NG; g++)
		if (f[2 * g].rproto != (g % 2 ? R2C2_RP_RPS : R2C2_RP_DOR))
			return false;
	return true;
}

static bool all_dor(const struct r2c2_flow *f)
{
	int i;

	for (i = 0; i < 2 * NG; i++)
		if (f[i].rproto != R2C2_RP_DOR)
			return false;
	return true;
}

static void gadgets(void)
{
	const double best = NG / 2 * (2 + 4.0 / 3);
	struct r2c2_flow f[2 * NG], g[2 * NG];
	struct r2c2_topo *t;
	struct r2c2_rtab *rt;
	struct r2c2_ga_opts o;
	struct r2c2_ga_result r0, r;
	double chk = 0;
	int ret;

	gadgets_build(&t, &rt, f);
	r2c2_ga_defaults(&o);
	o.seed = 5;
	o.threads = 1;
	o.headroom = 0;
	o.protos = 1u << R2C2_RP_RPS | 1u << R2C2_RP_DOR;
	/* generation 0 alone: the best of its genotypes */
	o.max_gen = 0;
	memcpy(g, f, sizeof(f));
	ok(r2c2_ga_select(rt, g, 2 * NG, NULL, &o, &r0) == 0 &&
	   fabs(r0.initial - NG * 4.0 / 3) < 1e-9 && r0.generations == 0 &&
	   r0.fitness >= NG / 2 * 3.0 - 1e-9 && r0.fitness < best - 0.1,
	   "%d gadgets: generation 0 (all-RPS %.4g, all-DOR %.4g, 97 random) has at best %.4g, below the best mix %.4g",
	   NG, r0.initial, NG / 2 * 3.0, r0.fitness, best);
	/*
	 * three genotypes, no generation after the first: the current one
	 * (all-RPS) and one for each allowed protocol, the best all-DOR
	 */
	o.population = 3;
	memcpy(g, f, sizeof(f));
	ok(r2c2_ga_select(rt, g, 2 * NG, NULL, &o, &r0) == 0 &&
	   fabs(r0.fitness - NG / 2 * 3.0) < 1e-9 && all_dor(g),
	   "generation 0 holds every single-protocol assignment: population 3, all-DOR's %.4g (got %.4g)",
	   NG / 2 * 3.0, r0.fitness);
	o.population = 100;
	/* the whole search: the best mix, by crossover and mutation */
	o.max_gen = 1000;
	memcpy(g, f, sizeof(f));
	ret = r2c2_ga_select(rt, g, 2 * NG, NULL, &o, &r);
	r2c2_utility(rt, g, 2 * NG, R2C2_POL_MAXMIN, R2C2_UTIL_SUM, 0, NULL, &chk);
	/* found after generation 0: then stall_gen generations more */
	ok(ret == 0 && fabs(r.fitness - best) < 1e-9 && gadgets_best(g) &&
	   r.generations > o.stall_gen && fabs(chk - best) < 1e-9,
	   "%d gadgets: the search finds the best mix (%.4g, want %.4g; the assignment returned has %.4g) after %u generations",
	   NG, r.fitness, best, chk, r.generations);
	/* no mutation: crossover alone puts generation 0's genes together */
	o.mutation = 0;
	memcpy(g, f, sizeof(f));
	ok(r2c2_ga_select(rt, g, 2 * NG, NULL, &o, &r) == 0 &&
	   fabs(r.fitness - best) < 1e-9 && gadgets_best(g),
	   "%d gadgets, no mutation: crossover finds the best mix from generation 0's genes (%.4g, want %.4g)",
	   NG, r.fitness, best);
	/*
	 * Two genotypes, one of them elite: generation 0 is the current
	 * assignment and the first allowed protocol's, both all-RPS. DOR,
	 * which the even gadgets need, can only come from mutation.
	 */
	o.population = 2;
	o.elite = 1;
	o.max_gen = 5000;
	o.stall_gen = 300;
	o.mutation = 0.02;
	memcpy(g, f, sizeof(f));
	ok(r2c2_ga_select(rt, g, 2 * NG, NULL, &o, &r) == 0 &&
	   fabs(r.fitness - best) < 1e-9 && gadgets_best(g),
	   "%d gadgets, population 2 of all-RPS: mutation brings DOR in, the best mix found (%.4g, want %.4g) in %u generations",
	   NG, r.fitness, best, r.generations);
	/*
	 * it stopped stall_gen generations after its last improvement, at
	 * generation L: a run cut at L (the same random draws) has it, one
	 * cut at L - 1 does not. Improvements are sparse here: a search
	 * counting the generations without one since the start, not since
	 * the last one, stops elsewhere.
	 */
	{
		unsigned int L = r.generations - o.stall_gen;
		struct r2c2_ga_result rl, rl1;

		o.max_gen = L;
		memcpy(g, f, sizeof(f));
		r2c2_ga_select(rt, g, 2 * NG, NULL, &o, &rl);
		o.max_gen = L - 1;
		memcpy(g, f, sizeof(f));
		r2c2_ga_select(rt, g, 2 * NG, NULL, &o, &rl1);
		ok(r.generations > o.stall_gen && rl.fitness == r.fitness &&
		   rl1.fitness < r.fitness,
		   "stops stall_gen (%u) generations after the last improvement: at generation %u %.4g, at %u %.4g",
		   o.stall_gen, L, rl.fitness, L - 1, rl1.fitness);
		o.max_gen = 5000;
	}
	o.mutation = 0;
	memcpy(g, f, sizeof(f));
	ok(r2c2_ga_select(rt, g, 2 * NG, NULL, &o, &r) == 0 &&
	   r.fitness == r.initial && !memcmp(g, f, sizeof(f)),
	   "the same without mutation: nothing to breed from, the input returned (%.4g)",
	   r.fitness);
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
	ok(r2c2_ga_select(rt, g2, 120, NULL, &o, &r2) == 0 &&
	   r2c2_utility(rt, g2, 120, R2C2_POL_MAXMIN, R2C2_UTIL_MIN, 0.05, NULL, &chk) == 0,
	   "tail utility: search runs");
	/* seed 99: 4.46e9 against 1.9e9 */
	ok(r2.initial == cur && r2.fitness > 2 * cur && chk == r2.fitness,
	   "tail utility: min rate %.4g > 2 x current %.4g, and is the returned assignment's (%.4g)",
	   r2.fitness, cur, chk);
	o.utility = R2C2_UTIL_SUM;
	o.policy = R2C2_POL_PROPFAIR;
	o.max_gen = 5;
	memcpy(g2, f, 40 * sizeof(f[0]));
	ok(r2c2_ga_select(rt, g2, 40, NULL, &o, &r2) == 0 &&
	   r2c2_utility(rt, g2, 40, R2C2_POL_PROPFAIR, R2C2_UTIL_SUM, 0.05, NULL, &chk) == 0 &&
	   r2.fitness > 1.05 * r2.initial && fabs(chk - r2.fitness) <= 1e-9 * chk,
	   "proportional fairness: %.4g > 1.05 x current %.4g, the returned assignment's (%.4g)",
	   r2.fitness, r2.initial, chk);
	/*
	 * A budget far below one generation's cost: the current assignment
	 * is evaluated, hardly anything else, and it is returned unchanged
	 * if nothing better was seen (the search used to evaluate all of
	 * generation 0 before it first looked at the clock)
	 */
	o.policy = R2C2_POL_MAXMIN;
	o.max_gen = 1000;
	o.stall_gen = 1000;
	o.time_budget_ms = 1;
	memcpy(g2, f, sizeof(f));
	r2c2_utility(rt, f, 120, R2C2_POL_MAXMIN, R2C2_UTIL_SUM, 0.05, NULL, &cur);
	{
		struct timespec a, b;
		double ms;

		clock_gettime(CLOCK_MONOTONIC, &a);
		ok(r2c2_ga_select(rt, g2, 120, NULL, &o, &r2) == 0, "1 ms budget: search runs");
		clock_gettime(CLOCK_MONOTONIC, &b);
		ms = (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6;
		printf("# 1 ms budget: %lu evaluations, %u generations, %.3f ms\n",
		     r2.evaluations, r2.generations, ms);
	}
	ok(r2.evaluations >= 1 && r2.evaluations < o.population && r2.generations == 0 &&
	   r2.initial == cur && r2.fitness >= r2.initial,
	   "1 ms budget: %lu evaluations (want 1 to %u), %u generations (want 0), the current assignment's utility %.4g (want %.4g) evaluated first",
	   r2.evaluations, o.population - 1, r2.generations, r2.initial, cur);
	r2c2_rtab_free(rt);
	r2c2_topo_free(t);
	figure4();
	gadgets();
	return tap_done();
}
