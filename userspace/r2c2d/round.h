/* SPDX-License-Identifier: GPL-2.0 */
/*
 * round.h - one rate round's solve, in the loop's thread or in a worker.
 *
 * A round is three steps. The loop snapshots the matrix's flows into a
 * struct rd (their allocator input, matrix index and flow id) and
 * prepares their pairs in the tables; the allocator solves the snapshot
 * (r2c2_maxmin() or r2c2_propfair()); the loop applies the rates to the
 * flows still in the matrix. A solve expected to take longer than
 * round_worker_us runs in a worker (rd_start()), so that a round of
 * 10^5 flows (tens of ms) does not hold the loop: meanwhile it hears
 * events, serves clients and refreshes leases, and the matrix may
 * change under the snapshot (rd_apply_to() finds each flow again by
 * its key).
 */
#ifndef _R2C2D_ROUND_H
#define _R2C2D_ROUND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "r2c2_alloc.h"
#include "matrix.h"
#include "worker.h"

/* a struct rd's @todo entry whose pair failed, or has no path */
#define TODO_FAILED	0x80000000u

/**
 * struct rd - a round's snapshot, solve and result
 * @f: the allocator's input, @n flows (@cap allocated)
 * @idx: the matrix index of f[i] when the snapshot was taken
 * @id: its flow id: (f[i].src, id[i]) is the flow's key
 * @rate: the result, bit/s (0: the flow was left nothing)
 * @rt, @ws, @pf: the tables, the max-min scratch, and the proportional-fair
 *	state (NULL: max-min); the worker reads @rt and writes @ws or @pf
 * @headroom: as for r2c2_maxmin()
 * @ret: the allocator's 0 or negative errno
 * @ns: how long the solve took (CLOCK_MONOTONIC); @cpu_ns: its thread's
 *	CPU time
 * @wk: the worker; while it runs its thread owns @f .. @cpu_ns, and the
 *	loop must not write the tables (prepare pairs, clear the cache,
 *	swap them) nor touch @ws or @pf
 * @own: the places in @f of this node's flows, @nown of them
 *	(rd_apply_own())
 * @vc: @f and @id as a copy of the matrix's view and ids (@vc.stamp),
 *	for the @vn first flows with @idx[i] == i; @vc.stamp 0: they are
 *	not (the walk over the flows, or a compaction, wrote them). A
 *	snapshot copies only the chunks changed since.
 * @copy_step: at most this many chunks copied by one round_prepare() in
 *	the loop (0: no bound; rd_init(): MX_COPY_STEP); a copy of more
 *	goes on at the next try, in a pass of @vc
 * @done: the last round rd_keep() kept (its @f, @idx, @id, @rate, @own
 *	arrays and their @vstamp (@vc.stamp) and @vn, the other set of two
 *	that swap),
 *	of @done_n flows; the loop
 *	applies its rates to the whole matrix only when they are read
 *	(rd_apply_done()), while the worker may solve the next round in the
 *	arrays above
 * @done_pending: @done holds rates not applied to the whole matrix yet
 *	(@done.own_src: the source of its @own flows, -1: none)
 * @prep: a graph's tables, in which the solve's thread first computes
 *	the link weights of the pairs at @todo (@ntodo places in @f, in
 *	any order), so that the loop does not (10^4 new pairs after a link
 *	change held it 63 ms); NULL: nothing to prepare. A pair that cannot
 *	be prepared, or an entry marked TODO_FAILED (a pair the loop found
 *	without a path), takes its flow out of the snapshot into @fail
 *	(@nfail: source, matrix index and id), whose rates the loop sets to 0
 * @map: scratch of that compaction
 * @tcap: the size of @todo, @map and @fail, which do not swap with @done
 * @gen: the matrix generation the snapshot was taken at
 * @off_loop: rounds solved in the worker; @gone: flows whose rate was
 *	not applied because they left the matrix meanwhile (this node's
 *	when the round ends, the others' when their rates are read)
 */
struct rd {
	struct r2c2_flow *f;
	uint32_t *idx;
	uint32_t *id;
	double *rate;
	uint32_t *own;
	size_t n, nown, cap;
	struct mx_copy vc;
	size_t vn;
	size_t copy_step;
	struct {
		struct r2c2_flow *f;
		uint32_t *idx;
		uint32_t *id;
		double *rate;
		uint32_t *own;
		size_t n, cap;
		uint64_t vstamp;
		size_t vn;
		int own_src;
	} done;
	bool done_pending;
	struct r2c2_rtab *prep;
	uint32_t *todo, *map;
	size_t ntodo, tcap;
	struct rd_fail {
		uint16_t src;
		uint32_t idx, id;
	} *fail;
	size_t nfail;
	const struct r2c2_rtab *rt;
	struct r2c2_ws *ws;
	struct r2c2_pf *pf;
	double headroom;
	int ret;
	uint64_t ns, cpu_ns;
	struct wk wk;
	uint64_t gen;
	uint64_t off_loop, gone;
};

void rd_init(struct rd *r);
/* joins a running solve, frees the snapshot */
void rd_fini(struct rd *r);
/* room for n flows (the snapshot is emptied): -EBUSY while a solve runs */
int rd_reserve(struct rd *r, size_t n);
/* solve the snapshot in the calling thread: returns r->ret */
int rd_solve(struct rd *r);
/* the same in the worker: -EBUSY while one runs, else 0 or -errno */
int rd_start(struct rd *r);
/* the eventfd that becomes readable when the worker is over, else -1 */
int rd_fd(const struct rd *r);
bool rd_busy(const struct rd *r);
/* the worker is over: rd_join() will not wait */
bool rd_over(const struct rd *r);
/* as wk_join(): 0 once the solve is over (its result in r), -EAGAIN, -ECHILD */
int rd_join(struct rd *r, bool wait);
/*
 * The rates of a solved snapshot into the matrix: each flow still in it
 * (at its index, else found by its key) takes its rate, R2C2_RATE_MIN
 * when it was left nothing. Returns the flows set; r->gone counts the
 * others.
 */
size_t rd_apply_to(struct rd *r, struct mx *m);
/* the same for the flows of r->own only (this node's): O(own flows) */
size_t rd_apply_own(struct rd *r, struct mx *m);
/*
 * Keep a solved snapshot's result as r->done (the arrays swap: the next
 * snapshot is taken in done's old ones) for rd_apply_done()
 */
void rd_keep(struct rd *r);
/*
 * r->done's rates into the whole matrix, once (rd_apply_to() of the kept
 * round): what reads other nodes' rates calls it first. Returns the
 * flows set (0 when nothing was pending).
 */
size_t rd_apply_done(struct rd *r, struct mx *m);

#endif /* _R2C2D_ROUND_H */
