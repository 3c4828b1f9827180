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

double rc_demand_sample(struct rc_dem *d, uint64_t bytes, uint32_t backlog,
			uint64_t now, double alpha)
{
	double T, r, x;

	if (!d->ns || now <= d->ns || bytes < d->bytes) {
		/* first sample, clock glitch or a reused flow: restart */
		d->ns = now;
		d->bytes = bytes;
		return -1;
	}
	T = (double)(now - d->ns) * 1e-9;
	r = (double)(bytes - d->bytes) * 8 / T;
	x = r + (double)backlog * 8 / T;
	d->est = d->est > 0 ? alpha * x + (1 - alpha) * d->est : x;
	d->ns = now;
	d->bytes = bytes;
	return d->est;
}

uint32_t rc_demand_announce(double est, double alloc, uint32_t current_kbps,
			    double low, double high, double slack)
{
	double want;
	uint32_t k;

	if (est < 0)
		return current_kbps;
	if (alloc <= 0 || est > high * alloc)
		return R2C2_DEMAND_UNLIMITED;
	if (est >= low * alloc)
		return current_kbps;
	want = est * (1 + slack) / 1000;
	if (want < 1)
		want = 1;
	if (want >= R2C2_DEMAND_UNLIMITED)
		return R2C2_DEMAND_UNLIMITED;
	k = (uint32_t)want;
	if (current_kbps != R2C2_DEMAND_UNLIMITED &&
	    fabs((double)k - current_kbps) < current_kbps / 8.0)
		return current_kbps;
	return k;
}
