/* SPDX-License-Identifier: GPL-2.0 */
/*
 * routesel.h - r2c2d's route selection (R2C2 §3.4): whose turn it is to
 * run the genetic search, the search over the matrix's long-lived flows,
 * the ROUTES batches it broadcasts, and applying ROUTES heard from the
 * rack. No netlink and no clock: the caller passes the time, so the logic
 * is tested offline (tests/r2c2d_routesel_test.c).
 *
 * The turn: time is cut into slots of ga_interval_ms on the wall clock
 * (CLOCK_REALTIME, NTP-synchronised across the rack); in slot s the node
 * whose address is s mod n runs, n being the number of nodes of the
 * topology (the same at every node). No token to lose and no master: a
 * dead node only leaves its slot empty, and the next slot goes on with
 * the next node. Clock skew smaller than a slot at worst lets two nodes
 * search close together; a node that heard a ROUTES broadcast less than
 * half a slot ago skips its turn.
 */
#ifndef _R2C2D_ROUTESEL_H
#define _R2C2D_ROUTESEL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include <linux/r2c2.h>

#include "r2c2_alloc.h"
#include "matrix.h"
#include "worker.h"

/**
 * struct rs_ent - one routing assignment: flow (@src, @id) uses @rproto
 */
struct rs_ent {
	uint16_t src;
	uint32_t id;
	uint8_t rproto;
};

/**
 * struct rs_params - what the search is allowed to do
 * @long_ns: flows at least this old take part in the search
 * @margin: adopt the result only if utility > before * (1 + margin)
 * @budget_ms: time budget of one search (0: none)
 * @threads: fitness evaluators (r2c2_ga_opts.threads)
 * @utility: enum r2c2_utility
 * @policy: enum r2c2_policy
 * @headroom: as for the rate loop
 * @protos: protocols a long flow may get (1 << R2C2_RP_*)
 * @seed: random seed of the search
 */
struct rs_params {
	uint64_t long_ns;
	double margin;
	uint32_t budget_ms;
	uint32_t threads;
	int utility;
	int policy;
	double headroom;
	unsigned int protos;
	uint64_t seed;
};

/**
 * struct rs_decision - one search by this node
 * @wall_ns: when it ran (CLOCK_REALTIME)
 * @mono_ns: when it ran (the caller's clock)
 * @chunks: chunks of MX_CHUNK flows of the matrix's view copied for it
 *	(those changed since the last search's copy)
 * @copy_steps: the rs_prepare() calls its copy took (1: in one go)
 * @pair_steps: the worker's jobs its table work took (1: in one go)
 * @flows: flows in the search
 * @long_flows: of which long (their protocol may change)
 * @changed: long flows whose protocol changed (0 when not adopted)
 * @before, @after: utility of the current and the best assignment, bit/s
 * @count: long flows on each protocol after the decision
 * @duration_ns: time the search took
 * @generations, @evaluations: as r2c2_ga_result
 * @adopted: the gain beat the margin and the result was broadcast
 * @err: 0, or a negative errno from the search
 */
struct rs_decision {
	uint64_t wall_ns;
	uint64_t mono_ns;
	uint32_t chunks;
	uint32_t copy_steps;
	uint32_t pair_steps;
	uint32_t flows;
	uint32_t long_flows;
	uint32_t changed;
	double before;
	double after;
	uint32_t count[__R2C2_RP_MAX];
	uint64_t duration_ns;
	unsigned int generations;
	unsigned long evaluations;
	bool adopted;
	int err;
};

/**
 * struct rs - route selection state of one daemon
 * @last_slot: the last slot this node ran in (+1; 0: never)
 * @heard_ns: when ROUTES from another node were last heard (0: never)
 * @heard_from: who sent them
 * @heard_entries: how many entries they held
 * @runs: searches run
 * @adopted: searches whose result was broadcast
 * @skipped: turns skipped (a recent ROUTES heard, no long flow)
 * @batches, @entries_sent: ROUTES sent
 * @send_errors: ROUTES_SEND requests that failed
 * @heard, @entries_heard, @entries_applied: ROUTES heard, and entries
 *	that changed a known flow of the matrix
 * @last: the last search by this node
 * @ent: the last decision's entries, @nent of them
 *
 * The search's snapshot (rs_prepare): @vf, @vid and @vborn, copies of the
 * matrix's @view, @fid and @born (@vn flows) kept between searches and
 * brought up to date by @vc from the chunks changed since; @nnodes. A
 * copy of more than @copy_step chunks (0: no bound; rs_init():
 * MX_COPY_STEP) is a pass of @vc over several rs_prepare() calls. Its
 * input and result (the
 * worker's rs_pairs, rs_search): @f, @is_long and
 * @key (the flow each f[i] stands for, with its protocol at the
 * snapshot), @nf of them; @p, @dec. @cap: the size of each of these
 * arrays and @ent. While @wk runs (rs_start .. rs_finish), its thread
 * owns them, @ent, @nent, @wrt, @wret and the pairs' progress (@pi, @pn,
 * @pnl, @pfirst: the next step is a search's first, set by rs_prepare());
 * the loop touches only the other fields, and reads @pairs_done
 * (set by the thread once its table work is over, rs_tables_busy()).
 * @pairs_step_ns (rs_init(): RS_PAIRS_STEP_NS; 0: no bound) bounds a
 * job's table work: past it the job ends with the pairs not all
 * prepared and rs_finish() marks the search @paused and @yielded (the
 * loop's: a round may go before the next step), its flows and tables
 * kept, until rs_resume() starts the next step.
 */
struct rs {
	uint64_t last_slot;
	uint64_t heard_ns;
	uint16_t heard_from;
	uint32_t heard_entries;
	uint64_t runs, adopted, skipped;
	uint64_t batches, entries_sent, send_errors;
	uint64_t heard, entries_heard, entries_applied;
	struct rs_decision last;
	struct rs_ent *ent;
	size_t nent;
	/* snapshot and result of one search */
	struct r2c2_flow *vf;
	uint32_t *vid;
	uint64_t *vborn;
	size_t vn;
	struct mx_copy vc;
	size_t copy_step;
	uint32_t nnodes;
	struct r2c2_flow *f;
	bool *is_long;
	struct rs_ent *key;
	size_t nf, cap;
	struct rs_params p;
	struct rs_decision dec;
	/* the worker */
	struct wk wk;
	struct r2c2_rtab *wrt;
	int wret;
	atomic_bool pairs_done;
	uint64_t pairs_step_ns;
	size_t pi, pn, pnl;
	bool pfirst;
	bool paused;
	bool yielded;
};

/*
 * A route search's table work in steps of about 2 ms (one pair costs
 * 4-40 us), so that rounds are not held for all of it: 0.8 s at 10^5
 * flows on a graph's new tables.
 */
#define RS_PAIRS_STEP_NS	2000000ull

void rs_init(struct rs *s);
void rs_fini(struct rs *s);

/*
 * Is it this node's turn? Slot = wall_ns / interval_ns; the runner is
 * the node whose address is slot mod nnodes. True at most once a slot
 * (s->last_slot records it), and not when ROUTES from another node were
 * heard less than interval / 2 before now_ns (s->heard_ns, same clock as
 * now_ns). interval_ns 0 or nnodes 0: never.
 */
bool rs_my_turn(struct rs *s, uint64_t wall_ns, uint64_t now_ns,
		uint64_t interval_ns, uint32_t nnodes, uint16_t me);

/*
 * Search the matrix: every flow with both ends in the topology takes
 * part, those born at least p->long_ns before now are long and get a
 * protocol among p->protos. Prepares the tables for them. When the best
 * assignment beats the current one by the margin, the changed long flows
 * go to s->ent (s->nent) and the matrix is NOT touched (rs_apply() does
 * that). Fills *dec. Returns s->nent (0: nothing to change) or a
 * negative errno.
 */
int rs_select(struct rs *s, const struct mx *m, struct r2c2_rtab *rt,
	      uint32_t nnodes, uint64_t now, const struct rs_params *p,
	      struct rs_decision *dec);

/*
 * The same in three steps, so that the table work and the search run in a
 * thread while the loop goes on. rs_prepare() (the loop's thread; it
 * reads no table) brings the snapshot's copy of the matrix's view up to
 * date, copying only the chunks changed since the last search, at most
 * s->copy_step of them a call, and returns its number of flows (0:
 * nothing to search), -EAGAIN while the copy is not over (call again:
 * the pass goes on where it stopped, and ends with the chunks changed
 * meanwhile; p is the first call's, nnodes and now the last's) or
 * another negative errno. rs_copying(): a pass is under way. rs_pairs()
 * takes the flows with both ends among nnodes, tells the long ones,
 * prepares the tables for each (its protocol, and every protocol of
 * p->protos for a long one: it writes rt), leaves out those with no path
 * and returns the long flows left (0: nothing to search), or
 * -EINPROGRESS once it has worked s->pairs_step_ns with pairs left (call
 * it again to go on: the flows are taken once, at the first call of a
 * search). rs_search()
 * reads only the snapshot and rt; it fills s->dec and s->ent/s->nent
 * (entries keyed by (src, id), so they stay valid however the matrix
 * changed meanwhile) and returns s->nent or a negative errno.
 */
int rs_prepare(struct rs *s, const struct mx *m, uint32_t nnodes,
	       uint64_t now, const struct rs_params *p);
bool rs_copying(const struct rs *s);
int rs_pairs(struct rs *s, struct r2c2_rtab *rt);
int rs_search(struct rs *s, const struct r2c2_rtab *rt);
/*
 * rs_pairs() then, unless it failed or has pairs left (-EINPROGRESS),
 * rs_search(): the worker's job
 */
int rs_work(struct rs *s, struct r2c2_rtab *rt);

/*
 * rs_pairs() then rs_search() in a worker thread, after rs_prepare():
 * rs_start() starts them (-EBUSY while one runs); rs_fd() is an fd that
 * becomes readable when they are over (-1 when none runs); rs_finish()
 * collects them: *dec and the return value as from rs_search(), s->ent
 * ready for rs_send_batches(); -EAGAIN while the worker still runs
 * (wait: join it whatever it takes), -ECHILD when none was started,
 * -EINPROGRESS when its step of table work ended with pairs left: the
 * search is paused (rs_paused()) and rs_resume() goes on with it on the
 * same tables, or rs_drop() gives it up. rs_fini() joins a running
 * worker. While the worker runs (rs_running()) the loop must not write
 * rt; while rs_tables_busy() (a step of rs_pairs() runs) it must not
 * read rt either (on a graph: a torus's tables are never written).
 * While a search is under way, paused or not (rs_busy()), rt must stay
 * and keep its pairs: no new tables, no cache clear; while it is paused
 * a round may read rt and prepare pairs in it.
 */
int rs_start(struct rs *s, struct r2c2_rtab *rt);
int rs_resume(struct rs *s);
void rs_drop(struct rs *s);
bool rs_tables_busy(const struct rs *s);
int rs_fd(const struct rs *s);
bool rs_busy(const struct rs *s);
bool rs_running(const struct rs *s);
bool rs_paused(const struct rs *s);
int rs_finish(struct rs *s, bool wait, struct rs_decision *dec);

/*
 * Apply assignments to the matrix: each known flow takes its protocol
 * (unknown flows and invalid protocols are ignored). Returns how many
 * flows changed; bumps m->gen when any did.
 */
uint32_t rs_apply(struct mx *m, const struct rs_ent *e, size_t n);

/*
 * Cut n entries into batches of at most max (R2C2_ROUTES_MAX: one
 * 1,500-byte frame each) and hand each to send; stops at the first
 * error. Returns the number of batches sent or a negative errno.
 */
int rs_send_batches(const struct rs_ent *e, size_t n, size_t max,
		    int (*send)(const struct rs_ent *e, size_t n, void *arg),
		    void *arg);

#endif /* _R2C2D_ROUTESEL_H */
