// SPDX-License-Identifier: GPL-2.0
/*
 * ga.c - genetic selection of routing protocols (R2C2 §3.4).
 *
 * A genotype gives every long flow a protocol. Its fitness is a utility
 * of the rates the allocator computes for all flows (long ones with the
 * genotype's protocols): aggregate throughput, or the minimum rate. The
 * first population holds the current assignment, one genotype per
 * allowed protocol (all flows on it) and random genotypes;
 * each generation keeps the elite unchanged (so the result is never
 * worse than the current assignment) and breeds the rest by tournament
 * selection, uniform crossover and per-gene mutation. Fitness is
 * evaluated by a pool of threads, each with its own scratch space; the
 * random choices are made by the calling thread only, so a given seed
 * gives the same result however the evaluations are scheduled.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rtab_int.h"

void r2c2_ga_defaults(struct r2c2_ga_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->population = 100;
	o->mutation = 0.01;
	o->elite = 10;
	o->max_gen = 1000;
	o->stall_gen = 30;
	o->time_budget_ms = 0;
	o->threads = 0;
	o->seed = 1;
	o->utility = R2C2_UTIL_SUM;
	o->policy = R2C2_POL_MAXMIN;
	o->protos = 1u << R2C2_RP_RPS | 1u << R2C2_RP_VLB | 1u << R2C2_RP_DOR;
	o->headroom = R2C2_HEADROOM_DEFAULT;
}

/**
 * r2c2_utility() - utility of an assignment
 * @rt: tables
 * @f: flows
 * @nf: number of flows
 * @policy: enum r2c2_policy
 * @utility: enum r2c2_utility
 * @headroom: as r2c2_maxmin()
 * @ws: scratch or NULL
 * @out: the sum or the minimum of the rates
 *
 * Return: as r2c2_allocate().
 */
int r2c2_utility(const struct r2c2_rtab *rt, const struct r2c2_flow *f,
		 size_t nf, int policy, int utility, double headroom,
		 struct r2c2_ws *ws, double *out)
{
	double *x = malloc((nf ? nf : 1) * sizeof(double)), u;
	size_t i;
	int ret;

	if (!x)
		return -ENOMEM;
	ret = r2c2_allocate(rt, policy, f, nf, headroom, x, ws);
	if (!ret) {
		u = utility == R2C2_UTIL_MIN ? (nf ? INFINITY : 0) : 0;
		for (i = 0; i < nf; i++)
			u = utility == R2C2_UTIL_MIN ? fmin(u, x[i]) : u + x[i];
		*out = u;
	}
	free(x);
	return ret;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

struct ga;

struct worker {
	struct ga *ga;
	pthread_t th;
	struct r2c2_ws *ws;
	struct r2c2_flow *f;
	double *x;
	int ret;
};

struct ga {
	const struct r2c2_rtab *rt;
	const struct r2c2_flow *f;
	size_t nf, ng;
	const u32 *gene;		/* gene -> flow index */
	const struct r2c2_ga_opts *o;
	u8 *pop;			/* population x ng */
	double *fit;
	unsigned int npop, from;	/* evaluate pop[from..npop) */
	unsigned int next;		/* atomic work counter */
	unsigned int done;		/* atomic: evaluations made */
	double deadline;		/* now_ms() past which none start (0: none) */
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct ga *ga = w->ga;

	for (;;) {
		unsigned int k = __atomic_fetch_add(&ga->next, 1, __ATOMIC_RELAXED);
		const u8 *g;
		size_t j, i;
		double u;
		int ret;

		if (k + ga->from >= ga->npop)
			break;
		k += ga->from;
		/*
		 * Past the budget no evaluation starts, except the current
		 * assignment's (generation 0's first): the rest rank last and
		 * the search ends with what it has.
		 */
		if (ga->deadline && (k || ga->from) && now_ms() >= ga->deadline) {
			ga->fit[k] = -INFINITY;
			continue;
		}
		__atomic_fetch_add(&ga->done, 1, __ATOMIC_RELAXED);
		g = ga->pop + (size_t)k * ga->ng;
		for (j = 0; j < ga->ng; j++)
			w->f[ga->gene[j]].rproto = g[j];
		if (ga->o->policy == R2C2_POL_MAXMIN)
			ret = r2c2_maxmin(ga->rt, w->f, ga->nf, ga->o->headroom, w->x, w->ws);
		else
			ret = r2c2_allocate(ga->rt, ga->o->policy, w->f, ga->nf,
					    ga->o->headroom, w->x, w->ws);
		if (ret) {
			w->ret = ret;
			ga->fit[k] = -INFINITY;
			continue;
		}
		u = ga->o->utility == R2C2_UTIL_MIN ? (ga->nf ? INFINITY : 0) : 0;
		for (i = 0; i < ga->nf; i++)
			u = ga->o->utility == R2C2_UTIL_MIN ? fmin(u, w->x[i]) : u + w->x[i];
		ga->fit[k] = u;
	}
	return NULL;
}

static int evaluate(struct ga *ga, struct worker *w, unsigned int nw,
		    unsigned int from)
{
	unsigned int i;
	int ret = 0;

	ga->from = from;
	ga->next = 0;
	if (nw == 1) {
		worker_main(&w[0]);
	} else {
		for (i = 0; i < nw; i++)
			if (pthread_create(&w[i].th, NULL, worker_main, &w[i]))
				return -EAGAIN;
		for (i = 0; i < nw; i++)
			pthread_join(w[i].th, NULL);
	}
	for (i = 0; i < nw; i++)
		if (w[i].ret)
			ret = w[i].ret;
	return ret;
}

static u64 rnd(u64 *s)
{
	u64 z = (*s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

struct rank {
	double fit;
	unsigned int idx;
};

static int cmp_rank(const void *a, const void *b)
{
	const struct rank *x = a, *y = b;

	if (x->fit != y->fit)
		return x->fit > y->fit ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/**
 * r2c2_ga_select() - choose protocols for the long flows
 * @rt: tables, prepared for every (flow, allowed protocol)
 * @f: flows; long flows' rproto is the current assignment on entry and
 *	the chosen one on return
 * @nf: number of flows
 * @is_long: which flows may change (NULL: all)
 * @o: parameters (r2c2_ga_defaults())
 * @res: what was found (may be NULL)
 *
 * Return: 0, -EINVAL, -ENOMEM, -EAGAIN (threads) or an allocator error.
 */
int r2c2_ga_select(const struct r2c2_rtab *rt, struct r2c2_flow *f,
		   size_t nf, const bool *is_long,
		   const struct r2c2_ga_opts *o, struct r2c2_ga_result *res)
{
	unsigned int P = o->population, E = o->elite, nw = o->threads, i;
	unsigned int gen = 0, stall = 0, nallowed = 0;
	u8 allowed[__R2C2_RP_MAX];
	struct worker *w = NULL;
	struct rank *rk = NULL;
	u8 *next = NULL, *best = NULL;
	u32 *gene = NULL;
	double t0 = now_ms(), bestfit;
	u64 seed = o->seed;
	struct ga ga;
	size_t j, ng = 0;
	int ret = -ENOMEM;

	if (P < 2 || !(o->mutation >= 0 && o->mutation <= 1))
		return -EINVAL;
	if (!E)
		E = 1;
	if (E > P)
		E = P;
	for (i = 0; i < __R2C2_RP_MAX; i++)
		if (o->protos & (1u << i))
			allowed[nallowed++] = (u8)i;
	if (!nallowed)
		return -EINVAL;
	if (!nw) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);

		nw = c > 0 ? (unsigned int)c : 1;
	}
	if (nw > P)
		nw = P;
	memset(&ga, 0, sizeof(ga));
	gene = malloc((nf ? nf : 1) * sizeof(*gene));
	if (!gene)
		goto out;
	for (j = 0; j < nf; j++)
		if (!is_long || is_long[j])
			gene[ng++] = (u32)j;
	ga.rt = rt;
	ga.f = f;
	ga.nf = nf;
	ga.ng = ng;
	ga.gene = gene;
	ga.o = o;
	ga.npop = P;
	if (o->time_budget_ms)
		ga.deadline = t0 + o->time_budget_ms;
	ga.pop = calloc((size_t)P * (ng ? ng : 1), 1);
	next = calloc((size_t)P * (ng ? ng : 1), 1);
	best = calloc(ng ? ng : 1, 1);
	ga.fit = calloc(P, sizeof(double));
	rk = calloc(P, sizeof(*rk));
	w = calloc(nw, sizeof(*w));
	if (!ga.pop || !next || !best || !ga.fit || !rk || !w)
		goto out;
	for (i = 0; i < nw; i++) {
		w[i].ga = &ga;
		w[i].ws = r2c2_ws_new();
		w[i].f = malloc((nf ? nf : 1) * sizeof(*f));
		w[i].x = malloc((nf ? nf : 1) * sizeof(double));
		if (!w[i].ws || !w[i].f || !w[i].x)
			goto out;
		memcpy(w[i].f, f, nf * sizeof(*f));
	}
	/*
	 * generation 0: the current assignment, every single-protocol
	 * assignment (so the result is never worse than the best of them)
	 * and random ones
	 */
	for (j = 0; j < ng; j++)
		ga.pop[j] = f[gene[j]].rproto;
	for (i = 1; i < P; i++)
		for (j = 0; j < ng; j++)
			ga.pop[(size_t)i * ng + j] = i <= nallowed ? allowed[i - 1] :
				allowed[rnd(&seed) % nallowed];
	ret = evaluate(&ga, w, nw, 0);
	if (ret)
		goto out;
	if (res) {
		memset(res, 0, sizeof(*res));
		res->initial = ga.fit[0];
		res->evaluations = ga.done;
	}
	bestfit = -INFINITY;
	for (;;) {
		for (i = 0; i < P; i++) {
			rk[i].fit = ga.fit[i];
			rk[i].idx = i;
		}
		qsort(rk, P, sizeof(*rk), cmp_rank);
		if (rk[0].fit > bestfit) {
			/* improvement must be real, not rounding noise */
			if (rk[0].fit > bestfit + 1e-12 * fabs(rk[0].fit))
				stall = 0;
			bestfit = rk[0].fit;
			memcpy(best, ga.pop + (size_t)rk[0].idx * ng, ng);
		} else {
			stall++;
		}
		if (gen >= o->max_gen || stall >= o->stall_gen ||
		    (o->time_budget_ms && now_ms() - t0 >= o->time_budget_ms))
			break;
		/* elite first, in rank order, then children */
		for (i = 0; i < E; i++)
			memcpy(next + (size_t)i * ng, ga.pop + (size_t)rk[i].idx * ng, ng);
		for (i = E; i < P; i++) {
			unsigned int a, b, c, d;
			const u8 *pa, *pb;
			u8 *ch = next + (size_t)i * ng;

			/* binary tournaments over ranks: lower rank wins */
			a = (unsigned int)(rnd(&seed) % P);
			b = (unsigned int)(rnd(&seed) % P);
			c = (unsigned int)(rnd(&seed) % P);
			d = (unsigned int)(rnd(&seed) % P);
			pa = ga.pop + (size_t)rk[a < b ? a : b].idx * ng;
			pb = ga.pop + (size_t)rk[c < d ? c : d].idx * ng;
			for (j = 0; j < ng; j++) {
				u64 r = rnd(&seed);

				ch[j] = (r & 1) ? pa[j] : pb[j];
				if ((double)(r >> 11) / 9007199254740992.0 < o->mutation &&
				    nallowed > 1) {
					u8 v;

					do
						v = allowed[rnd(&seed) % nallowed];
					while (v == ch[j]);
					ch[j] = v;
				}
			}
		}
		memcpy(ga.pop, next, (size_t)P * ng);
		/* the elite keep their fitness: shift it, evaluate the rest */
		for (i = 0; i < E; i++)
			rk[i].fit = ga.fit[rk[i].idx];
		for (i = 0; i < E; i++)
			ga.fit[i] = rk[i].fit;
		ga.done = 0;
		ret = evaluate(&ga, w, nw, E);
		if (ret)
			goto out;
		gen++;
		if (res)
			res->evaluations += ga.done;
	}
	for (j = 0; j < ng; j++)
		f[gene[j]].rproto = best[j];
	if (res) {
		res->fitness = bestfit;
		res->generations = gen;
	}
	ret = 0;
out:
	if (w)
		for (i = 0; i < nw; i++) {
			r2c2_ws_free(w[i].ws);
			free(w[i].f);
			free(w[i].x);
		}
	free(w);
	free(rk);
	free(ga.fit);
	free(ga.pop);
	free(next);
	free(best);
	free(gene);
	return ret;
}
