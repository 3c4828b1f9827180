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
	wk_init(&r->wk);
}

void rd_fini(struct rd *r)
{
	wk_fini(&r->wk);
	free(r->f);
	free(r->idx);
	free(r->id);
	free(r->rate);
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

int rd_reserve(struct rd *r, size_t n)
{
	size_t cap = r->cap ? r->cap : 256;

	if (wk_running(&r->wk))
		return -EBUSY;
	r->n = 0;
	if (n <= r->cap)
		return 0;
	while (cap < n)
		cap *= 2;
	if (grow((void **)&r->f, cap, sizeof(*r->f)) ||
	    grow((void **)&r->idx, cap, sizeof(*r->idx)) ||
	    grow((void **)&r->id, cap, sizeof(*r->id)) ||
	    grow((void **)&r->rate, cap, sizeof(*r->rate)))
		return -ENOMEM;
	r->cap = cap;
	return 0;
}

int rd_solve(struct rd *r)
{
	uint64_t t0 = wk_clock_ns(CLOCK_MONOTONIC);
	uint64_t c0 = wk_clock_ns(CLOCK_THREAD_CPUTIME_ID);

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

size_t rd_apply_to(struct rd *r, struct mx *m)
{
	size_t i, set = 0;
	uint32_t k;

	for (i = 0; i < r->n; i++) {
		k = r->idx[i];
		if (k >= m->n || m->f[k].src != r->f[i].src ||
		    m->f[k].id != r->id[i])
			k = mx_find(m, r->f[i].src, r->id[i]);
		if (k == MX_NONE) {
			r->gone++;
			continue;
		}
		m->f[k].rate = r->rate[i] > 0 ? r->rate[i] :
			       (double)R2C2_RATE_MIN;
		set++;
	}
	return set;
}
