// SPDX-License-Identifier: GPL-2.0
/*
 * pf_bench.c - proportional fairness (r2c2_propfair) on a torus: cold
 * start, then warm after single flow arrivals and departures, against
 * max-min on the same flows.
 *
 * usage: pf_bench [-t DIMS] [-n FLOWS] [-m MIX] [-p LEVELS] [-e EVENTS]
 *                 [-r TOL] [-T TOL] [-S SEED]
 *   -t  torus radices, e.g. 8x8x8 (default), 6x6x6, 16x16
 *   -n  flows (default 10000)
 *   -m  rps, dor, vlb or mix (default: a third each)
 *   -p  priority levels the flows are spread over (default 1)
 *   -e  warm events after the cold start, arrivals and departures in
 *       turn (default 20)
 *   -r  duality gap of the reference solve (default 1e-5; 0: none)
 *   -T  duality gap the engine stops at (struct r2c2_pf_opts.tol;
 *       default 1e-3, the library's)
 *   -S  seed of the flow generator
 * Flows: uniform random pairs, weights 1-3, a quarter with a demand up
 * to 2 Gbit/s, on 10 Gbit/s links, 5 % headroom. Times are this thread's
 * CPU time (not inflated when the machine is loaded), one core.
 * "dist" is how far the result is from the optimum, measured against a
 * reference solve to a smaller duality gap (-r): (U_ref - U) / sum of the
 * weights, over the flows of priority 0 (the engine stops at a gap of
 * -T a level).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "r2c2_alloc.h"
#include "bench.h"

/*
 * sum of w log x over the flows of priority 0 (each lower level solves
 * its own problem on what the levels above leave); W: their weights
 */
static double utility(const struct r2c2_flow *f, size_t n, const double *x,
		      double *W)
{
	double u = 0;
	size_t i;

	*W = 0;
	for (i = 0; i < n; i++)
		if (f[i].prio == 0 && x[i] > 0) {
			u += f[i].weight * log(x[i]);
			*W += f[i].weight;
		}
	return u;
}

static void draw(struct r2c2_flow *f, const struct r2c2_topo *t, int mix,
		 unsigned int levels)
{
	f->src = (u16)(xr() % t->n);
	do
		f->dst = (u16)(xr() % t->n);
	while (f->dst == f->src);
	f->rproto = (u8)(mix >= 0 ? mix : (int)(xr() % 3));
	f->weight = 1 + (double)(xr() % 3);
	f->prio = (u8)(xr() % levels);
	f->demand = xr() % 4 == 0 ? (double)(xr() % 2000 + 1) * 1e6 : 0;
}

static void usage(void)
{
	fputs("usage: pf_bench [-t DIMS] [-n FLOWS] [-m rps|dor|vlb|mix] [-p LEVELS]\n"
	      "                [-e EVENTS] [-r TOL] [-T TOL] [-S SEED]\n", stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	const char *dims_s = "8x8x8", *mix_s = "mix";
	unsigned int levels = 1, events = 20, it, nd = 0, e;
	size_t n = 10000, i;
	u8 dims[R2C2_MAX_DIMS];
	struct r2c2_topo *t;
	struct r2c2_rtab *rt;
	struct r2c2_pf *pf, *ref;
	struct r2c2_pf_opts ro = { .gamma = 1, .tol = 1e-5, .max_iter = 20000 };
	struct r2c2_pf_opts eo = { .gamma = 1, .tol = 1e-3, .max_iter = 2000 };
	struct r2c2_flow *f;
	double *x, *xr_, *xm, c0, cold_ms, mm_ms, W, u, uref, um;
	double *ems, *eit;
	int mix, opt, r;
	char *p;

	while ((opt = getopt(argc, argv, "t:n:m:p:e:r:T:S:")) != -1) {
		if (opt == 't')
			dims_s = optarg;
		else if (opt == 'n')
			n = strtoul(optarg, NULL, 10);
		else if (opt == 'm')
			mix_s = optarg;
		else if (opt == 'p')
			levels = (unsigned int)strtoul(optarg, NULL, 10);
		else if (opt == 'e')
			events = (unsigned int)strtoul(optarg, NULL, 10);
		else if (opt == 'r')
			ro.tol = strtod(optarg, NULL);
		else if (opt == 'T')
			eo.tol = strtod(optarg, NULL);
		else if (opt == 'S')
			xr_state = strtoull(optarg, NULL, 0);
		else
			usage();
	}
	if (!n || !levels || levels > R2C2_PRIO_LEVELS || !(ro.tol >= 0) ||
	    !(eo.tol > 0))
		usage();
	mix = !strcmp(mix_s, "mix") ? -1 : r2c2_parse_rproto(mix_s);
	if (mix < -1)
		usage();
	for (p = (char *)dims_s; nd < R2C2_MAX_DIMS; nd++) {
		dims[nd] = (u8)strtoul(p, &p, 10);
		if (*p != 'x')
			break;
		p++;
	}
	if (*p || !dims[0])
		usage();
	r = r2c2_topo_grid(&t, dims, nd + 1, true, 10e9);
	if (!r)
		r = r2c2_rtab_new(&rt, t);
	if (r) {
		fprintf(stderr, "pf_bench: torus %s: %s\n", dims_s, strerror(-r));
		return 1;
	}
	f = calloc(n + events, sizeof(*f));
	x = calloc(n + events, sizeof(*x));
	xr_ = calloc(n + events, sizeof(*x));
	xm = calloc(n + events, sizeof(*x));
	ems = calloc(events + 1, sizeof(*ems));
	eit = calloc(events + 1, sizeof(*eit));
	pf = r2c2_pf_new(rt, &eo);
	ref = r2c2_pf_new(rt, &ro);
	if (!f || !x || !xr_ || !xm || !ems || !eit || !pf || !ref)
		return 1;
	for (i = 0; i < n; i++)
		draw(&f[i], t, mix, levels);

	c0 = cpu_ms();
	if (r2c2_maxmin(rt, f, n, 0.05, xm, NULL))
		return 1;
	mm_ms = cpu_ms() - c0;
	c0 = cpu_ms();
	if (r2c2_propfair(pf, f, n, 0.05, x, &it))
		return 1;
	cold_ms = cpu_ms() - c0;
	if (ro.tol > 0 && r2c2_propfair(ref, f, n, 0.05, xr_, NULL))
		return 1;
	u = utility(f, n, x, &W);
	uref = ro.tol > 0 ? utility(f, n, xr_, &W) : NAN;
	um = utility(f, n, xm, &W);
	printf("torus %s nodes %u flows %zu mix %s levels %u\n", dims_s, t->n, n,
	       mix_s, levels);
	printf("cold: iterations %u cpu_ms %.1f dist %.2g (max-min's rates: dist %.2g; max-min cpu_ms %.1f)\n",
	       it, cold_ms, (uref - u) / W, (uref - um) / W, mm_ms);
	for (e = 0; e < events; e++) {
		if (e % 2 == 0) {
			draw(&f[n], t, mix, levels);
			n++;
		} else {
			size_t k = xr() % n;

			f[k] = f[n - 1];
			n--;
		}
		c0 = cpu_ms();
		if (r2c2_propfair(pf, f, n, 0.05, x, &it))
			return 1;
		ems[e] = cpu_ms() - c0;
		eit[e] = it;
	}
	if (events) {
		if (ro.tol > 0 && r2c2_propfair(ref, f, n, 0.05, xr_, NULL))
			return 1;
		u = utility(f, n, x, &W);
		uref = ro.tol > 0 ? utility(f, n, xr_, &W) : NAN;
		qsort(ems, events, sizeof(*ems), cmpd);
		qsort(eit, events, sizeof(*eit), cmpd);
		printf("warm, one event: iterations median %.0f max %.0f, cpu_ms median %.2f max %.2f, dist after the last %.2g\n",
		       eit[events / 2], eit[events - 1], ems[events / 2],
		       ems[events - 1], (uref - u) / W);
	}
	r2c2_pf_free(pf);
	r2c2_pf_free(ref);
	r2c2_rtab_free(rt);
	r2c2_topo_free(t);
	free(f); free(x); free(xr_); free(xm); free(ems); free(eit);
	return 0;
}
