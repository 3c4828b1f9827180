/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ratectl.h - r2c2d's rate-loop arithmetic, without I/O: which rates to
 * push (Flowtune §6.4: only those that changed beyond a threshold, in
 * batches), the demand estimator (R2C2 eq. 1, d = r + q/T, EWMA) and when
 * a flow's demand is worth announcing. Tested by tests/r2c2d_rate_test.c.
 */
#ifndef _R2C2D_RATECTL_H
#define _R2C2D_RATECTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Push target if it was never pushed, differs from pushed by more than
 * thresh (relative), or the last push is older than refresh_ns (keeps the
 * qdisc's lease alive; 0: never refresh).
 */
bool rc_should_push(double target, double pushed, uint64_t pushed_ns,
		    uint64_t now, double thresh, uint64_t refresh_ns);

/**
 * struct rc_batch - rates collected for one RATE_SET message at a time
 * @id, @rate: entries, @n of them, at most @max
 * @flush: sends the batch; returns 0 or a negative errno
 * @arg: for @flush
 * @batches, @entries: what was flushed so far
 */
struct rc_batch {
	uint32_t *id;
	uint64_t *rate;
	size_t n, max;
	int (*flush)(const uint32_t *id, const uint64_t *rate, size_t n,
		     void *arg);
	void *arg;
	uint64_t batches, entries;
	int err;
};

int rc_batch_init(struct rc_batch *b, size_t max,
		  int (*flush)(const uint32_t *, const uint64_t *, size_t,
			       void *), void *arg);
void rc_batch_fini(struct rc_batch *b);
/* add one entry, flushing first when full; rates clamped to the ABI range */
int rc_batch_add(struct rc_batch *b, uint32_t id, double rate);
int rc_batch_flush(struct rc_batch *b);

/**
 * struct rc_dem - demand estimator state of one flow
 * @est: bit/s, the EWMA of r + q/T
 * @bytes: counter at the last sample
 * @ns: time of the last sample (0: none yet)
 */
struct rc_dem {
	double est;
	uint64_t bytes;
	uint64_t ns;
};

/*
 * Feed a sample: bytes sent so far, backlog bytes now, at time now.
 * r = delta bytes / T, d = r + backlog / T, est = alpha * d + (1 - alpha)
 * * est (the first estimate is d itself). Returns the estimate, or -1
 * when this is the first sample (no rate yet).
 */
double rc_demand_sample(struct rc_dem *d, uint64_t bytes, uint32_t backlog,
			uint64_t now, double alpha);

/*
 * Demand to announce, in Kbit/s: a flow using less than low * alloc is
 * host-limited and announces est * (1 + slack); one that uses more than
 * high * alloc (or has no allocation) announces unlimited. Between the
 * two, the current announcement stands. Small changes (< 1/8) of a
 * limited announcement are not worth a broadcast either.
 */
uint32_t rc_demand_announce(double est, double alloc, uint32_t current_kbps,
			    double low, double high, double slack);

#endif /* _R2C2D_RATECTL_H */
