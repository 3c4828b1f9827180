// SPDX-License-Identifier: GPL-2.0
/*
 * round.c - one rate round's solve, in the loop's thread or in a worker
 * (see round.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "round.h"

void rd_init(struct rd *r)
{
	memset(r, 0, sizeof(*r));
	r->copy_step = MX_COPY_STEP;
	wk_init(&r->wk);
}

void rd_fini(struct rd *r)
{
	wk_fini(&r->wk);
	free(r->f);
	free(r->idx);
	free(r->id);
	free(r->rate);
	free(r->own);
	free(r->todo);
	free(r->map);
	free(r->fail);
	free(r->done.f);
	free(r->done.idx);
	free(r->done.id);
	free(r->done.rate);
	free(r->done.own);
	rd_init(r);
}

/* grow one array to cap elements of sz bytes; *p is kept on failure */
static int grow(void **p, size_t cap, size_t sz)
{
	void *q = realloc(*p, cap * sz);

	if (!q)
		return -ENOMEM;
	*p = q;
	return 0;
}

/* the next capacity for n: cap (256 when none yet) doubled until n fits */
static size_t cap_for(size_t cap, size_t n)
{
	cap = cap ? cap : 256;
	while (cap < n)
		cap *= 2;
	return cap;
}

int rd_reserve(struct rd *r, size_t n)
{
	size_t cap;

	if (wk_running(&r->wk))
		return -EBUSY;
	r->n = 0;
	r->nown = 0;
	r->ntodo = 0;
	r->nfail = 0;
	r->prep = NULL;
	/* the set of arrays that swaps with done's */
	if (n > r->cap) {
		cap = cap_for(r->cap, n);
		if (grow((void **)&r->f, cap, sizeof(*r->f)) ||
		    grow((void **)&r->idx, cap, sizeof(*r->idx)) ||
		    grow((void **)&r->id, cap, sizeof(*r->id)) ||
		    grow((void **)&r->rate, cap, sizeof(*r->rate)) ||
		    grow((void **)&r->own, cap, sizeof(*r->own)))
			return -ENOMEM;
		r->cap = cap;
	}
	/* the arrays both sets share: never shrunk by the smaller set */
	if (n > r->tcap) {
		cap = cap_for(r->tcap, n);
		if (grow((void **)&r->todo, cap, sizeof(*r->todo)) ||
		    grow((void **)&r->map, cap, sizeof(*r->map)) ||
		    grow((void **)&r->fail, cap, sizeof(*r->fail)))
			return -ENOMEM;
		r->tcap = cap;
	}
	return 0;
}

static int todo_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a & ~TODO_FAILED;
	uint32_t y = *(const uint32_t *)b & ~TODO_FAILED;

	return (x > y) - (x < y);
}

/*
 * The pairs at r->todo (in any order) into r->prep; the flows of those
 * that fail, or failed already (TODO_FAILED: no path), leave the
 * snapshot (the others keep their order) for r->fail, and the own list
 * follows the places that moved
 */
static void prepare_pairs(struct rd *r)
{
	size_t i, j, k, bad = 0;

	/* the cache grows once (no memory: it grows as the pairs come) */
	r2c2_rtab_reserve(r->prep, r->ntodo);
	for (k = 0; k < r->ntodo; k++) {
		const struct r2c2_flow *a = &r->f[r->todo[k] & ~TODO_FAILED];

		if ((r->todo[k] & TODO_FAILED) ||
		    r2c2_rtab_prepare(r->prep, a->src, a->dst, a->rproto)) {
			r->todo[k] |= TODO_FAILED;
			bad++;
		}
	}
	if (!bad)
		return;
	qsort(r->todo, r->ntodo, sizeof(*r->todo), todo_cmp);
	r->vc.stamp = 0;	/* f, idx and id are compacted below */
	for (i = 0, j = 0, k = 0; i < r->n; i++) {
		while (k < r->ntodo && (r->todo[k] & ~TODO_FAILED) < i)
			k++;
		if (k < r->ntodo && r->todo[k] == (i | TODO_FAILED)) {
			r->fail[r->nfail++] = (struct rd_fail){
				.src = r->f[i].src, .idx = r->idx[i],
				.id = r->id[i],
			};
			r->map[i] = UINT32_MAX;
			continue;
		}
		r->map[i] = (uint32_t)j;
		r->f[j] = r->f[i];
		r->idx[j] = r->idx[i];
		r->id[j++] = r->id[i];
	}
	r->n = j;
	for (k = 0, j = 0; k < r->nown; k++)
		if (r->map[r->own[k]] != UINT32_MAX)
			r->own[j++] = r->map[r->own[k]];
	r->nown = j;
}

int rd_solve(struct rd *r)
{
	uint64_t t0 = wk_clock_ns(CLOCK_MONOTONIC);
	uint64_t c0 = wk_clock_ns(CLOCK_THREAD_CPUTIME_ID);

	if (r->prep && r->ntodo)
		prepare_pairs(r);

	if (r->pf)
		r->ret = r2c2_propfair(r->pf, r->f, r->n, r->headroom,
				       r->rate, NULL);
	else
		r->ret = r2c2_maxmin(r->rt, r->f, r->n, r->headroom, r->rate,
				     r->ws);
	r->cpu_ns = wk_clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
	r->ns = wk_clock_ns(CLOCK_MONOTONIC) - t0;
	return r->ret;
}

static void rd_job(void *arg)
{
	rd_solve(arg);
}

int rd_start(struct rd *r)
{
	int e = wk_start(&r->wk, rd_job, r);

	if (!e)
		r->off_loop++;
	return e;
}

int rd_fd(const struct rd *r)
{
	return wk_fd(&r->wk);
}

bool rd_busy(const struct rd *r)
{
	return wk_running(&r->wk);
}

bool rd_over(const struct rd *r)
{
	return wk_over(&r->wk);
}

int rd_join(struct rd *r, bool wait)
{
	return wk_join(&r->wk, wait);
}

/*
 * Flow i of a snapshot (f, idx, id, rate) into the matrix: 1 if it is
 * still there, else 0 and *gone counted, unless its source is skip (the
 * flows rd_apply_own() counted already; -1: none)
 */
static size_t apply_one(const struct r2c2_flow *f, const uint32_t *idx,
			const uint32_t *id, const double *rate, size_t i,
			struct mx *m, int skip, uint64_t *gone)
{
	uint32_t k = mx_find_at(m, idx[i], f[i].src, id[i]);

	if (k == MX_NONE) {
		*gone += (int)f[i].src != skip;
		return 0;
	}
	m->f[k].rate = rate[i] > 0 ? rate[i] : (double)R2C2_RATE_MIN;
	return 1;
}

size_t rd_apply_to(struct rd *r, struct mx *m)
{
	size_t i, set = 0;

	for (i = 0; i < r->n; i++)
		set += apply_one(r->f, r->idx, r->id, r->rate, i, m, -1,
				 &r->gone);
	return set;
}

size_t rd_apply_own(struct rd *r, struct mx *m)
{
	size_t j, set = 0;

	for (j = 0; j < r->nown; j++)
		set += apply_one(r->f, r->idx, r->id, r->rate, r->own[j], m,
				 -1, &r->gone);
	return set;
}

#define SWAP(a, b) do { __typeof__(a) t_ = (a); (a) = (b); (b) = t_; } while (0)

void rd_keep(struct rd *r)
{
	r->done.own_src = r->nown ? r->f[r->own[0]].src : -1;
	SWAP(r->f, r->done.f);
	SWAP(r->idx, r->done.idx);
	SWAP(r->id, r->done.id);
	SWAP(r->rate, r->done.rate);
	SWAP(r->own, r->done.own);
	SWAP(r->cap, r->done.cap);
	SWAP(r->vc.stamp, r->done.vstamp);
	SWAP(r->vn, r->done.vn);
	r->done.n = r->n;
	r->done_pending = true;
	/* the arrays above are done's old ones: nothing in them yet */
	r->n = 0;
	r->nown = 0;
}

size_t rd_apply_done(struct rd *r, struct mx *m)
{
	size_t i, set = 0;

	if (!r->done_pending)
		return 0;
	for (i = 0; i < r->done.n; i++)
		set += apply_one(r->done.f, r->done.idx, r->done.id,
				 r->done.rate, i, m, r->done.own_src,
				 &r->gone);
	r->done_pending = false;
	return set;
}
