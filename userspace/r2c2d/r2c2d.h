/* SPDX-License-Identifier: GPL-2.0 */
/* r2c2d.h - the daemon's state, shared by main.c and ctl.c */
#ifndef _R2C2D_H
#define _R2C2D_H

#include <poll.h>
#include <stdio.h>
#include <sys/types.h>
#include "r2c2_alloc.h"
#include "conf.h"
#include "dnl.h"
#include "digest.h"
#include "matrix.h"
#include "ratectl.h"
#include "round.h"
#include "routesel.h"
#include "tables.h"
#include "state.h"

/**
 * struct r2c2d_timing - what the loop did, for r2c2ctl daemon show
 */
struct r2c2d_timing {
	uint64_t ticks, rounds, rounds_on_demand, rounds_deferred;
	uint64_t pushes, push_batches, push_errors;
	uint64_t announces, refreshes_sent, resyncs, overruns, samples;
	uint64_t own_echoes;	/* own flows' events heard back, not applied */
	uint64_t compute_ns_last, compute_ns_max, compute_ns_sum;
	uint64_t round_flows_last;	/* flows the last round solved */
	uint64_t applied_gen;	/* the matrix gen of the rates last applied */
	uint64_t loop_ns_last, loop_ns_max, loop_ns_sum;
	uint64_t sample_ns_last;
	uint64_t alloc_errors, skipped_flows;
	uint64_t view_snapshots;	/* rounds that took mx.view, not a walk */
	uint64_t view_chunks;	/* chunks of mx.view they copied */
	uint64_t view_copy_steps;	/* copies left for the next try */
	uint64_t ctl_requests, ctl_timeouts, ctl_denied, ctl_busy;
	uint64_t state_saves, state_errors, state_restored;
};

/**
 * struct r2c2d_topo_stats - following the kernel's graph (TOPO_EVENT)
 * @events: TOPO_EVENTs heard
 * @syncs: times the kernel's graph was read (one per burst of events)
 * @rebuilds: syncs that found another graph and rebuilt the tables
 * @errors: syncs that failed (dump interrupted, out of memory, a graph
 *	the allocator cannot take): retried, after a growing delay
 * @last_gen: tables generation of the last TOPO_EVENT (0: none yet)
 * @nodes: nodes in the kernel's graph when it was last read
 * @rebuild_ns: CLOCK_MONOTONIC of the last rebuild (0: none)
 * @rebuild_wall_ns: CLOCK_REALTIME of the same
 * @sync_ns_last: how long the last sync took (dump and rebuild)
 * @reannounces: rebuilds after which the own flows were announced again
 * @left_flows: flows removed because their source left the graph
 * @burst_ns: the first TOPO_EVENT of the bursts whose rebuilds still wait
 *	for a round (0: none; set only when the node has flows of its own)
 * @follow_ns_last, @follow_ns_max: from the first TOPO_EVENT of a burst
 *	to the end of the first round (and push) on the rebuilt tables: how
 *	long own flows keep the rates of the old graph (only a node with
 *	flows of its own runs rounds)
 * @follows: rounds counted in them
 * @failing: syncs that failed in a row (0 after one that works); each is
 *	retried after @retry_ms, which doubles from TOPO_HOLDOFF_MS to
 *	TOPO_RETRY_MAX_MS (0: no retry waits)
 * @last_error: why the last failed sync failed ("": none yet)
 * @cache_clears: times a graph's cache of pair weights was cleared
 *	(table_cache_mb), @cache_freed the bytes they freed
 * @kept_last: pair weights and VLB groups the last new tables copied
 *	from the old ones (r2c2_rtab_carry(): those no changed link
 *	touches), @kept all of them; @keep_ns_last: how long that took
 *	(in the table worker: tb_carry_start())
 * @from_torus: the graph's tables in use take every RPS or DOR leg that
 *	no link changed since the node's torus is on from the torus's
 *	tables, translated (r2c2_rtab_from_torus())
 * @cache_need: bytes of that cache after the first round that followed
 *	the last clear or rebuild (what the flows then needed);
 *	@cache_measure: that round is still to come
 */
struct r2c2d_topo_stats {
	uint64_t events, syncs, rebuilds, errors, reannounces, left_flows;
	uint32_t last_gen, nodes;
	uint64_t rebuild_ns, rebuild_wall_ns, sync_ns_last;
	uint64_t burst_ns, follow_ns_last, follow_ns_max, follows;
	uint64_t failing;
	uint32_t retry_ms;
	char last_error[128];
	uint64_t cache_clears, cache_freed;
	uint64_t kept_last, kept, keep_ns_last;
	bool from_torus;
	size_t cache_need;
	size_t cache_bytes;	/* the last r2c2d_cache_bytes() counted */
	bool cache_measure;
};

#define CTL_CLIENTS	16	/* control connections served at once */
#define CTL_TIMEOUT_MS	10000	/* a client that sends nothing is dropped */
/*
 * Answers not yet read, in bytes, past which a large answer (matrix) is
 * refused while others wait: the answers in memory stay below about this
 * plus one matrix, however many clients ask
 */
#define CTL_PENDING_MAX	(64u << 20)
#define CTL_MATRIX_FLOW_BYTES	256	/* a matrix answer's bytes a flow, at most */

/**
 * struct ctl_client - one control connection (ctl.c)
 * @fd: the connection, non-blocking
 * @uid: the client's user (SO_PEERCRED); served when it is root's or
 *	r2c2d's own
 * @since_ns: when it was accepted
 * @buf: the command line read so far, @len bytes
 * @out: the answer (malloc'd), @outlen bytes, @off written
 */
struct ctl_client {
	int fd;
	uid_t uid;
	uint64_t since_ns;
	char buf[64];
	size_t len;
	char *out;
	size_t outlen, off;
};

#define TOPO_MAX_NODES	R2C2_ALLOC_MAX_NODES	/* addresses the kernel's graph may use */

struct r2c2d {
	struct r2c2d_conf conf;
	/*
	 * SIGHUP reloads: the file (-c, or NULL), the -o overrides (applied
	 * after it, in order) and the configuration as given, before the
	 * node's torus filled in 'topology'
	 */
	const char *conf_file;
	const char **ov_key, **ov_val;
	int nov;
	struct r2c2d_conf conf0;
	struct dnl nl;
	struct dnl_node node;
	struct mx mx;
	struct r2c2_topo *topo;		/* what the allocator uses */
	struct r2c2_topo *ctopo;	/* configured ('topology'), or NULL */
	struct r2c2_rtab *rt;
	struct r2c2_ws *ws;
	struct r2c2_pf *pf;
	struct rc_batch batch;
	struct rc_dem_conf dem;		/* from conf.demand_* */
	/*
	 * own flows whose demand or class a qdisc sample changed: announced
	 * after the dump (a request inside the dump's callback would read
	 * the rest of the dump as stale replies and leave the dump waiting)
	 */
	uint32_t *ann_ids;
	size_t ann_n, ann_cap;
	/*
	 * the rate round: its snapshot, solved in the loop or in a worker
	 * (round.h); how long its snapshot took
	 */
	struct rd rd;
	uint64_t rd_prep_ns;
	uint64_t computed_gen;
	uint64_t start_ns, last_sample_ns, last_refresh_ns, last_expire_ns;
	uint64_t last_lease_ns, last_round_ns;
	/*
	 * digest_ms: recovery of lost flow events (digest.h); the last
	 * digest sent, and the last time this node had flows of its own
	 * (it sends digests until expire_ms after that)
	 */
	struct dg dg;
	uint64_t last_digest_ns, last_own_ns;
	/*
	 * when the matrix last changed in a way that matters to the
	 * allocation (its gen moved; seen after each event read and tick),
	 * for daemon show: how long after a fault the rack's matrices
	 * settled, on each node's own clock
	 */
	uint64_t gen_seen, mx_changed_ns;
	struct rc_budget budget;	/* conf.cpu_budget */
	uint64_t budget_cpu_ns;		/* thread CPU time charged so far */
	bool budget_held;		/* a due round waits for the budget */
	bool need_resync;
	uint64_t warm_until_ns;		/* no round nor push before (warmup_ms) */
	/*
	 * state_file: the demands a previous daemon saved, for the own flows
	 * of the first qdisc sample (freed after it); own demands changed
	 * since the file was last written, and when that was
	 */
	struct st_ent *st;
	size_t st_n;
	bool st_dirty;
	uint64_t st_saved_ns;
	/*
	 * The r2c2 module went away (its family unregistered) at fam_gone_ns:
	 * nothing is read or pushed until dnl_open() works again, tried at
	 * fam_retry_ns; counted in fam_losses, fam_returns, and the last
	 * absence in fam_back_ms.
	 */
	bool fam_waiting;
	uint64_t fam_gone_ns, fam_retry_ns;
	uint64_t fam_losses, fam_returns, fam_back_ms;
	bool topo_dirty;		/* read the kernel's graph again */
	uint64_t topo_dirty_ns;		/* since when */
	uint64_t topo_retry_ns;		/* a failed read: not before */
	struct r2c2d_topo_stats ts;
	uint8_t reach[TOPO_MAX_NODES];	/* in the kernel's graph */
	uint16_t reach_q[TOPO_MAX_NODES];
	/*
	 * tables for a new graph, built off the loop (tables.h); the graph's
	 * reach, its addresses and the first event of its burst wait with
	 * them
	 */
	struct tb tb;
	uint8_t tb_reach[TOPO_MAX_NODES];
	uint32_t tb_nodes;
	uint64_t tb_dirty_ns;

	int ctl_fd;
	struct ctl_client ctl[CTL_CLIENTS];
	int nctl;
	size_t ctl_pending_max;		/* 0: CTL_PENDING_MAX (tests lower it) */
	struct r2c2d_timing t;
	struct rs rs;
	int verbose;
};

/* nanoseconds a millisecond: the daemon's times are in ns */
#define MS	1000000ull
/*
 * A burst of TOPO_EVENTs (one link going down changes the tables of
 * every node as its LSAs flood, and each change is an event) is read as
 * one: the graph is read this long after the first event of a burst.
 */
#define TOPO_HOLDOFF_MS	20
/* flows looked at by one expiry step, every 100 ms (mx_expire_step()) */
#define EXPIRE_STEP	16384

uint64_t r2c2d_now(void);
int r2c2d_rates_fresh(struct r2c2d *d);
void r2c2d_rates_sync(struct r2c2d *d);

/* events.c: flow events and digests */
/* a flow event from the kernel (the event socket's callback; arg: d) */
void on_event(void *arg, const struct mx_evt *e);
/* ask src to announce its flows again */
void send_resync(struct r2c2d *d, uint16_t src);
/* this node's digest when due */
void digest_step(struct r2c2d *d, uint64_t now);

/* rates.c: rate rounds, from the matrix to sch_r2c2 */
/* drop a graph's cached pair weights past table_cache_mb */
void cache_trim(struct r2c2d *d);
/*
 * the round's snapshot of the matrix (d->rd), before its solve; step: a
 * long copy of the view in steps (-EAGAIN until the last)
 */
int round_prepare(struct r2c2d *d, bool step);
/* a solved round's rates into the matrix; prep_ns: when it was prepared */
int round_apply(struct r2c2d *d, uint64_t prep_ns);
/* a whole round in the loop: prepare, solve, apply */
int compute(struct r2c2d *d);
/* whether the next round is to be solved in the worker */
bool round_off_loop(const struct r2c2d *d);
/* whether the matrix changed since the last round */
bool round_due(const struct r2c2d *d);
/* one RATE_SET batch to the kernel (rc_batch's flush; arg: d) */
int flush_rates(const uint32_t *id, const uint64_t *rate, size_t n,
		void *arg);
/* push the own flows' rates that changed or whose lease is due */
void push(struct r2c2d *d);

/* select.c: route selection (routesel.c) in the loop */
/* ROUTES heard (the event socket's callback; arg: d) */
void on_routes(void *arg, uint16_t from, const struct rs_ent *e,
	       size_t n);
/* the search's decision, when it finished (wait: until it has) */
void route_collect(struct r2c2d *d, bool wait);
void route_resume(struct r2c2d *d);
/* the search's parameters from the configuration */
struct rs_params route_params(const struct r2c2d *d);
/* start a search when this node's turn came */
void route_select(struct r2c2d *d, uint64_t now);

/* own.c: this node's flows, from the qdisc to the rack */
/* what on_qflow() is given: the daemon and the sample's time */
struct sample_ctx {
	struct r2c2d *d;
	uint64_t now;
};
/* one flow of the qdisc's dump (its callback; arg: a struct sample_ctx) */
void on_qflow(void *arg, const struct dnl_qflow *q);
/* sample the qdisc's flows: demands, announcements, the state file */
void sample_own(struct r2c2d *d, uint64_t now);
/* re-announce every own flow (REFRESH) */
void refresh_own(struct r2c2d *d);
/* write the state file (state_file), at most every STATE_SAVE_MS */
void state_save(struct r2c2d *d, uint64_t now);

/* follow.c: the graph the kernel routes on */
/* the configured topology ('topology', else the node's torus), or none */
int conf_topo(struct r2c2d *d, char *err, size_t errlen);
/* read the kernel's graph; 1: changed, tables being built */
int topo_sync(struct r2c2d *d);
/* a TOPO_EVENT from the kernel (the event socket's callback; arg: d) */
void on_topo_event(void *arg, const struct dnl_topo_ev *e);
/* when the kernel's graph is to be read (topo_dirty) */
uint64_t topo_due(const struct r2c2d *d);
/* topology work due now: the holdoff, a retry, a collect */
void topo_step(struct r2c2d *d, uint64_t now);
/* the worker's tables, when built (wait: until they are) */
void tables_collect(struct r2c2d *d, bool wait);
void tables_swap(struct r2c2d *d, struct tb_out *o);
/* which nodes the graph nbr (n nodes) reaches from this one */
void reach_from(struct r2c2d *d, const uint16_t *nbr, uint32_t n,
		uint8_t *reach);
/*
 * bytes of a graph's cache of pair weights (0 on a torus: it has none);
 * the last count while a route search prepares pairs in it
 */
size_t r2c2d_cache_bytes(struct r2c2d *d);
int ctl_open(struct r2c2d *d);
/* fill p[] with the listening socket and the clients; returns how many */
int ctl_pollfds(struct r2c2d *d, struct pollfd *p);
/* after poll(): accept, read commands, write answers, drop idle clients */
void ctl_serve(struct r2c2d *d, const struct pollfd *p, int np);
/* when the oldest silent client times out (UINT64_MAX: no client) */
uint64_t ctl_deadline(const struct r2c2d *d);
void ctl_close(struct r2c2d *d);

#endif
