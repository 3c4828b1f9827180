/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ratectl.h - r2c2d's rate-loop arithmetic, without I/O: which rates to
 * push (Flowtune §6.4: only those that changed beyond a threshold, in
 * batches), the demand estimator (R2C2 eq. 1, d = r + q/T, EWMA) and when
 * a flow's demand is worth announcing. Tested by tests/r2c2d_matrix_test.c.
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
 * struct rc_dem_conf - the demand estimator's knobs (rc_dem_defaults())
 * @window_ns: measurement window (500 ms): samples (every
 *	demand_interval_ms) are summed up once a window
 * @windows: consecutive windows a verdict needs (3)
 * @alpha: EWMA gain of the estimate, per window (0.5)
 * @low: host-limited below low * allocation (0.8)
 * @high: held back at high * allocation and above (0.95)
 * @slack: a limited flow announces its estimate * (1 + slack) (0.1)
 * @qempty: a backlog of at most this many bytes counts as empty (3000)
 */
struct rc_dem_conf {
	uint64_t window_ns;
	unsigned int windows;
	double alpha, low, high, slack;
	uint32_t qempty;
};

void rc_dem_defaults(struct rc_dem_conf *c);

/**
 * struct rc_dem - demand estimator state of one flow
 * @est: bit/s, the EWMA over windows of d = r + q/T (R2C2 eq. 1; T the
 *	window, q the backlog at its end)
 * @rate: bit/s sent in the last window (-1: none yet)
 * @wqmin: smallest backlog sampled in the last window
 * @bytes, @ns: counter and time of the last sample (@ns 0: none)
 * @wbytes, @wns: the same at the start of the current window
 * @qmin: smallest backlog so far in the current window
 * @low_n, @high_n: consecutive windows that looked host-limited / held
 *	back
 * @lwbytes, @lwns: counter and time where the last window began
 * @run_bytes, @run_ns: counter and time where the current run of
 *	host-limited windows began
 * @run_d: d = r + q/T over that run (T its length, q the last backlog)
 * @backlog: backlog at the end of the last window
 */
struct rc_dem {
	double est;
	double rate;
	uint32_t wqmin;
	uint64_t bytes, ns;
	uint64_t wbytes, wns;
	uint32_t qmin;
	unsigned int low_n, high_n;
	uint64_t lwbytes, lwns;
	uint64_t run_bytes, run_ns;
	double run_d;
	double run_max;		/* fastest window of the run */
	uint32_t backlog;
};

/*
 * Feed a sample: bytes sent so far and backlog bytes now, at time now.
 * Returns 1 when it closed a window (d->rate, d->wqmin, d->est are new),
 * else 0. The first sample, a counter that went back (a reused flow) or a
 * clock that did not advance restart the estimator.
 */
int rc_demand_sample(struct rc_dem *d, uint64_t bytes, uint32_t backlog,
		     uint64_t now, const struct rc_dem_conf *c);

/*
 * Demand to announce after a window closed, in Kbit/s, given the flow's
 * allocation alloc (bit/s) and what is announced now (current_kbps).
 * TCP's rate wobbles (under TCG by 10-20 % and more), so neither verdict
 * rests on one window or on the rate alone:
 * - host-limited: for c->windows windows in a row the flow's queue ran
 *   dry (backlog <= qempty at some sample) while it sent below low *
 *   alloc. It announces max(d, fastest window) * (1 + slack), d = r +
 *   q/T (eq. 1) over the whole run of such windows (T >= c->windows windows: an application
 *   writing in bursts averages out). A flow the qdisc holds back always
 *   has a backlog, so it is never taken for one.
 * - held back again (a limited flow that wants more): for c->windows
 *   windows in a row it sent at high * alloc or more, or its queue never
 *   ran dry: unlimited (a host-limited flow sends 1 / (1 + slack) of its
 *   announcement, below high, and its queue runs dry between writes; a
 *   dry queue alone does not clear it, as part of a TCP window may wait
 *   in a queue further on and leave the qdisc's dry).
 * An unlimited flow whose demand so found is not below its allocation
 * (its run began under a larger one) is not announced. Otherwise, and
 * for changes of a limited demand below 1/8, the current announcement
 * stands. No allocation: unlimited.
 */
uint32_t rc_demand_announce(struct rc_dem *d, double alloc,
			    uint32_t current_kbps, const struct rc_dem_conf *c);

/**
 * struct rc_budget - a token bucket of CPU time for the rate rounds
 * @share: fraction of one core the rounds may take on average (0: no
 *	limit)
 * @depth_ns: CPU time the bucket holds at most: a burst of rounds after a
 *	quiet spell runs at once, every rho
 * @tokens_ns: CPU time that may be spent now; below 0, owed (at most
 *	@depth_ns)
 * @last_ns: when @tokens_ns was last brought up to date
 * @max_wait_ns: a round waits at most this long after the last began
 * @round_ns: when the last round began (rc_budget_started())
 *
 * The paper recomputes every rho to amortise the cost of a round; under
 * churn that still costs a round every rho, and a round's cost grows with
 * the flows in the rack. With a budget the daemon is charged the CPU time
 * it spends (rounds and everything else), and a round may start only
 * while the bucket is not empty, so once a burst has spent the bucket,
 * rounds are spaced by their cost / @share and the whole takes @share of
 * a core over any stretch longer than @depth_ns / @share. A round that
 * must wait is due again when the bucket holds @depth_ns / 32 (not 0:
 * the wakeup that checks is charged too). Work that
 * cannot wait (reading events) may alone exceed the budget: the debt is
 * then capped at @depth_ns and a round still runs @max_wait_ns after the
 * last, so rates are never older than that. Every round is still exact;
 * they are fewer.
 */
struct rc_budget {
	double share;
	int64_t depth_ns;
	int64_t tokens_ns;
	uint64_t last_ns;
	uint64_t max_wait_ns;
	uint64_t round_ns;
};

/* share 0..1 of a core (0: off); the bucket starts full at now */
void rc_budget_init(struct rc_budget *b, double share, uint64_t depth_ns,
		    uint64_t max_wait_ns, uint64_t now);
/* the earliest time a round may start: now or later (now if off) */
uint64_t rc_budget_next(struct rc_budget *b, uint64_t now);
/* a round begins at now */
void rc_budget_started(struct rc_budget *b, uint64_t now);
/* cpu_ns of CPU time were spent */
void rc_budget_charge(struct rc_budget *b, uint64_t cpu_ns);

#endif /* _R2C2D_RATECTL_H */
