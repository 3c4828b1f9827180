// SPDX-License-Identifier: GPL-2.0
/*
 * propfair_test.c - NED + F-NORM: Kelly's linear network optimum, weights,
 * no over-allocation ever (random instances), warm prices converge faster
 * after a flow arrives.
 */
#include <math.h>
#include <string.h>
#include "r2c2_alloc.h"
#include "alloc_tap.h"

int main(void)
{
	u8 dims1[1] = { 3 }, dims[3] = { 4, 4, 4 };
	struct r2c2_topo *t;
	struct r2c2_rtab *rt;
	struct r2c2_pf *pf;
	struct r2c2_flow f[400];
	double x[400], load[64 * 8];
	unsigned int it, cold, warm, i, rep, bad = 0;
	uint64_t seed = 3;
	size_t l;

	/* linear network: mesh 0-1-2, long flow 0->2 (DOR), shorts 0->1, 1->2:
	 * PF optimum long = c/3, shorts = 2c/3 */
	r2c2_topo_grid(&t, dims1, 1, false, 3.0);
	r2c2_rtab_new(&rt, t);
	f[0] = (struct r2c2_flow){ .src = 0, .dst = 2, .rproto = R2C2_RP_DOR, .weight = 1 };
	f[1] = (struct r2c2_flow){ .src = 0, .dst = 1, .rproto = R2C2_RP_DOR, .weight = 1 };
	f[2] = (struct r2c2_flow){ .src = 1, .dst = 2, .rproto = R2C2_RP_DOR, .weight = 1 };
	for (i = 0; i < 3; i++)
		r2c2_rtab_prepare(rt, f[i].src, f[i].dst, f[i].rproto);
	pf = r2c2_pf_new(rt, NULL);
	r2c2_propfair(pf, f, 3, 0, x, &it);
	ok(fabs(x[0] - 1) < 1e-4 && fabs(x[1] - 2) < 1e-4 && fabs(x[2] - 2) < 1e-4,
	   "linear network: long c/3, shorts 2c/3 (%.5f %.5f %.5f, %u iterations)", x[0], x[1], x[2], it);
	/* weights on one link: shares proportional to weights */
	f[0] = (struct r2c2_flow){ .src = 0, .dst = 1, .rproto = R2C2_RP_DOR, .weight = 1 };
	f[2] = (struct r2c2_flow){ .src = 0, .dst = 1, .rproto = R2C2_RP_DOR, .weight = 2 };
	r2c2_propfair(pf, f, 3, 0, x, &it);
	ok(fabs(x[0] - 0.75) < 1e-4 && fabs(x[2] - 1.5) < 1e-4,
	   "weights 1:1:2 on one link share 3 as 0.75:0.75:1.5 (%.5f %.5f %.5f)", x[0], x[1], x[2]);
	f[2].demand = 0.5;
	r2c2_propfair(pf, f, 3, 0.1, x, &it);
	ok(fabs(x[2] - 0.5) < 1e-6 && fabs(x[0] - 1.1) < 1e-3,
	   "demand cap 0.5 and 10%% headroom: others get (2.7-0.5)/2 = 1.1 (%.5f %.5f %.5f)",
	   x[0], x[1], x[2]);
	r2c2_pf_free(pf);
	r2c2_rtab_free(rt);
	r2c2_topo_free(t);

	/* random torus workloads: never over-allocated; warm start helps */
	r2c2_topo_grid(&t, dims, 3, true, 10e9);
	r2c2_rtab_new(&rt, t);
	for (rep = 0; rep < 6; rep++) {
		unsigned int n = 100 + tbelow(&seed, 250);

		for (i = 0; i < n + 1; i++) {
			f[i].src = (u16)tbelow(&seed, 64);
			do
				f[i].dst = (u16)tbelow(&seed, 64);
			while (f[i].dst == f[i].src);
			f[i].rproto = (u8)tbelow(&seed, 3);
			f[i].weight = 1 + tbelow(&seed, 3);
			f[i].prio = (u8)(rep & 1 ? tbelow(&seed, 2) : 0);
			f[i].demand = tbelow(&seed, 4) == 0 ? tunif(&seed) * 3e9 : 0;
		}
		pf = r2c2_pf_new(rt, NULL);
		r2c2_propfair(pf, f, n, 0.05, x, &cold);
		r2c2_link_loads(rt, f, n, x, load);
		for (l = 0; l < 64 * 8; l++)
			if (load[l] > t->cap[l] * 0.95 * (1 + 1e-9))
				bad++;
		/* one flow arrives: warm prices */
		r2c2_propfair(pf, f, n + 1, 0.05, x, &warm);
		r2c2_link_loads(rt, f, n + 1, x, load);
		for (l = 0; l < 64 * 8; l++)
			if (load[l] > t->cap[l] * 0.95 * (1 + 1e-9))
				bad++;
		r2c2_pf_free(pf);
		ok(warm < cold, "4x4x4, %u flows: cold start %u iterations, after one arrival %u (warm)",
		   n, cold, warm);
	}
	ok(!bad, "F-NORM: no link above usable capacity in any result (%u violations)", bad);
	r2c2_rtab_free(rt);
	r2c2_topo_free(t);
	return tap_done();
}
