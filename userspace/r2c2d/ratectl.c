// SPDX-License-Identifier: GPL-2.0
/*
 * ratectl.c - rate-loop arithmetic of r2c2d (see ratectl.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <linux/types.h>
#include <linux/r2c2.h>

#include "ratectl.h"

bool rc_should_push(double target, double pushed, uint64_t pushed_ns,
		    uint64_t now, double thresh, uint64_t refresh_ns)
{
	if (pushed <= 0)
		return true;
	if (fabs(target - pushed) > thresh * pushed)
		return true;
	return refresh_ns && now - pushed_ns >= refresh_ns;
}

int rc_batch_init(struct rc_batch *b, size_t max,
		  int (*flush)(const uint32_t *, const uint64_t *, size_t,
			       void *), void *arg)
{
	b->id = calloc(max, sizeof(*b->id));
	b->rate = calloc(max, sizeof(*b->rate));
	b->n = 0;
	b->max = max;
	b->flush = flush;
	b->arg = arg;
	b->batches = b->entries = 0;
	b->err = 0;
	if (!b->id || !b->rate) {
		rc_batch_fini(b);
		return -ENOMEM;
	}
	return 0;
}

void rc_batch_fini(struct rc_batch *b)
{
	free(b->id);
	free(b->rate);
	b->id = NULL;
	b->rate = NULL;
}

int rc_batch_flush(struct rc_batch *b)
{
	int err;

	if (!b->n)
		return 0;
	err = b->flush(b->id, b->rate, b->n, b->arg);
	b->batches++;
	b->entries += b->n;
	b->n = 0;
	if (err)
		b->err = err;
	return err;
}

int rc_batch_add(struct rc_batch *b, uint32_t id, double rate)
{
	int err = 0;
	uint64_t r;

	if (b->n == b->max)
		err = rc_batch_flush(b);
	if (!(rate >= (double)R2C2_RATE_MIN))	/* NaN too */
		r = R2C2_RATE_MIN;
	else if (rate >= (double)R2C2_RATE_MAX)
		r = R2C2_RATE_MAX;
	else
		r = (uint64_t)llround(rate);
	b->id[b->n] = id;
	b->rate[b->n] = r;
	b->n++;
	return err;
}

void rc_dem_defaults(struct rc_dem_conf *c)
{
	c->window_ns = 500 * 1000000ull;
	c->windows = 3;
	c->alpha = 0.5;
	c->low = 0.8;
	c->high = 0.95;
	c->slack = 0.1;
	c->qempty = 3000;
}

int rc_demand_sample(struct rc_dem *d, uint64_t bytes, uint32_t backlog,
		     uint64_t now, const struct rc_dem_conf *c)
{
	double W, x;

	if (!d->wns || now <= d->ns || bytes < d->bytes) {
		/* first sample, clock glitch or a reused flow: restart */
		d->wns = d->ns = now;
		d->wbytes = d->bytes = bytes;
		d->qmin = backlog;
		d->rate = -1;
		d->low_n = d->high_n = 0;
		return 0;
	}
	d->ns = now;
	d->bytes = bytes;
	if (backlog < d->qmin)
		d->qmin = backlog;
	if (now - d->wns < c->window_ns)
		return 0;
	/* a window closed: its rate, its smallest backlog, eq. 1 */
	W = (double)(now - d->wns) * 1e-9;
	d->rate = (double)(bytes - d->wbytes) * 8 / W;
	d->wqmin = d->qmin;
	x = d->rate + (double)backlog * 8 / W;
	d->est = d->est > 0 ? c->alpha * x + (1 - c->alpha) * d->est : x;
	d->backlog = backlog;
	d->lwbytes = d->wbytes;
	d->lwns = d->wns;
	d->wns = now;
	d->wbytes = bytes;
	d->qmin = backlog;
	return 1;
}

uint32_t rc_demand_announce(struct rc_dem *d, double alloc,
			    uint32_t current_kbps, const struct rc_dem_conf *c)
{
	bool limited = current_kbps != R2C2_DEMAND_UNLIMITED;
	bool emptied = d->wqmin <= c->qempty;	/* queue ran dry */
	double want, T;
	uint32_t k;

	if (d->rate < 0)
		return current_kbps;
	if (alloc <= 0) {
		d->low_n = d->high_n = 0;
		return R2C2_DEMAND_UNLIMITED;
	}
	/*
	 * Held back by the qdisc: sending at its allocation (its queue may
	 * still run dry now and then when part of its window waits in a
	 * queue further on), or its queue never ran dry in the window
	 * (the rate of one window may still fall short: a 64 KB GSO packet
	 * takes 180 ms at 3 Mbit/s). A host-limited flow sends at most
	 * 1 / (1 + slack) of what it announced, below high, and its queue
	 * runs dry between its writes.
	 */
	d->high_n = d->rate >= c->high * alloc || !emptied ?
		    d->high_n + 1 : 0;
	/* its queue ran dry while it sent well below its allocation */
	d->low_n = emptied && d->rate < c->low * alloc ? d->low_n + 1 : 0;
	if (d->low_n == 1) {	/* a run of host-limited windows begins */
		d->run_bytes = d->lwbytes;
		d->run_ns = d->lwns;
		d->run_max = 0;
	}
	if (d->low_n && d->rate > d->run_max)
		d->run_max = d->rate;
	if (d->low_n && d->ns > d->run_ns) {
		T = (double)(d->ns - d->run_ns) * 1e-9;
		d->run_d = (double)(d->bytes - d->run_bytes) * 8 / T +
			   (double)d->backlog * 8 / T;
	}
	if (limited && d->high_n >= c->windows) {
		d->high_n = 0;
		return R2C2_DEMAND_UNLIMITED;
	}
	if (d->low_n < c->windows)
		return current_kbps;
	/*
	 * d = r + q/T over the whole run of host-limited windows, but not
	 * below its fastest window: a flow still ramping up when the run
	 * began would be held below what it offers
	 */
	want = (d->run_d > d->run_max ? d->run_d : d->run_max) *
	       (1 + c->slack) / 1000;
	/*
	 * A demand at or above its allocation frees nothing for others: the
	 * windows were slow against a larger allocation the flow had when
	 * the run began (others arrived since), not for want of data
	 */
	if (!limited && want * 1000 >= alloc)
		return current_kbps;
	if (want < 1)
		want = 1;
	if (want >= R2C2_DEMAND_UNLIMITED)
		return R2C2_DEMAND_UNLIMITED;
	k = (uint32_t)want;
	/* small changes of a limited demand are not worth a broadcast */
	if (limited && fabs((double)k - current_kbps) < current_kbps / 8.0)
		return current_kbps;
	return k;
}

void rc_budget_init(struct rc_budget *b, double share, uint64_t depth_ns,
		    uint64_t max_wait_ns, uint64_t now)
{
	const uint64_t lim = (uint64_t)1 << 60;

	b->share = share > 0 ? (share < 1 ? share : 1) : 0;
	b->depth_ns = (int64_t)(depth_ns < lim ? depth_ns : lim);
	b->tokens_ns = b->depth_ns;
	b->last_ns = now;
	b->max_wait_ns = max_wait_ns < lim ? max_wait_ns : lim;
	b->round_ns = now;
}

/* add what accrued since last_ns at share ns of CPU a ns, up to depth */
static void rc_budget_fill(struct rc_budget *b, uint64_t now)
{
	double add;

	if (now <= b->last_ns)
		return;
	add = (double)(now - b->last_ns) * b->share;
	b->last_ns = now;
	if (add >= (double)(b->depth_ns - b->tokens_ns))
		b->tokens_ns = b->depth_ns;
	else
		b->tokens_ns += (int64_t)add;
}

uint64_t rc_budget_next(struct rc_budget *b, uint64_t now)
{
	uint64_t t, cap;

	if (b->share <= 0)
		return now;
	rc_budget_fill(b, now);
	if (b->tokens_ns > 0)
		return now;
	/*
	 * Not when the bucket just reaches 0 but when it holds 1/32
	 * of its depth: the check itself is charged, so checks at 0 would
	 * find it below 0 every time and spend the budget on themselves
	 */
	t = now + (uint64_t)((double)(b->depth_ns / 32 - b->tokens_ns) /
			     b->share) + 1;
	cap = b->round_ns + b->max_wait_ns;
	if (b->max_wait_ns && t > cap)
		t = cap > now ? cap : now;
	return t;
}

void rc_budget_started(struct rc_budget *b, uint64_t now)
{
	b->round_ns = now;
}

void rc_budget_charge(struct rc_budget *b, uint64_t cpu_ns)
{
	if (b->share <= 0)
		return;
	/* the debt is capped at the bucket's depth */
	if (cpu_ns > (uint64_t)(b->tokens_ns + b->depth_ns))
		b->tokens_ns = -b->depth_ns;
	else
		b->tokens_ns -= (int64_t)cpu_ns;
}
