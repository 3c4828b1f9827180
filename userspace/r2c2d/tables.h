/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tables.h - r2c2d's routing tables built off the loop.
 *
 * Building the allocator's tables for a new graph (r2c2_topo_from_adj(),
 * r2c2_rtab_new(), the propfair state) takes 0.1 s at 512 nodes and
 * more than a minute at 4,096. The loop hands the graph to a worker
 * thread and goes on hearing events, serving clients, running rounds and
 * refreshing leases on the tables it has; when the worker is over, the
 * loop swaps the new tables in (tb_take()).
 */
#ifndef _R2C2D_TABLES_H
#define _R2C2D_TABLES_H

#include <stdbool.h>
#include <stdint.h>

#include "r2c2_alloc.h"
#include "worker.h"

/**
 * struct tb_out - what a build made
 * @t: the graph (the configured one given to tb_start(), or one built
 *	from its adjacency)
 * @rt: its routing tables
 * @ws: allocator scratch for them
 * @pf: proportional-fair state (NULL unless asked for)
 */
struct tb_out {
	struct r2c2_topo *t;
	struct r2c2_rtab *rt;
	struct r2c2_ws *ws;
	struct r2c2_pf *pf;
};

/**
 * struct tb - a table build, run by a worker thread
 * @ct: the configured topology to build tables for (shared, read only),
 *	or NULL: build the graph from @nbr, @nport and @cap, @n addresses
 * @pf: also make the proportional-fair state
 * @torus: a torus's tables in use when the build started (read only: a
 *	torus's tables are never written), or NULL: new tables of a graph
 *	keep what the torus's minimal legs need (r2c2_rtab_carry() from
 *	them), so that the legs the change left as they were are the
 *	torus's, translated
 * @prev: the graph of the tables in use when the build started (read
 *	only), or NULL: the new graph's paths are found from its own where
 *	only a few links failed or came back (r2c2_topo_from_adj_prev())
 * @out: the result, the caller's once tb_take() returned 0
 * @ret: the build's 0 or negative errno
 * @ns: how long the build took (CLOCK_MONOTONIC)
 * @wk: the worker; while it runs, it owns @ct .. @ns (and reads @torus
 *	and @prev, which must stay until it is over)
 * @ready: the worker is joined, its result waits for tb_take()
 * @builds, @ns_last, @ns_max: builds taken, and how long they took
 * @from: the tables in use, which a carry (tb_carry_start()) copies what
 *	the change left as it was from into @out; @carrying: it was
 *	started, and @out not taken yet; @kept: what it copied
 *	(r2c2_rtab_carry()), @keep_ns: how long it took
 * @old: tables swapped out, freed by @reap (tb_drop())
 * @reap: the worker that frees @old; while it runs, it owns @old
 * @drops: tables handed to @reap
 *
 * While @wk runs the loop reads only @wk, @ready, @carrying and the
 * counters.
 */
struct tb {
	const struct r2c2_topo *ct;
	uint16_t *nbr;
	uint8_t *nport;
	double *cap;
	uint32_t n;
	bool pf;
	const struct r2c2_rtab *torus;
	const struct r2c2_topo *prev;
	struct tb_out out;
	int ret;
	uint64_t ns;
	struct wk wk;
	bool ready;
	uint64_t builds, ns_last, ns_max;
	const struct r2c2_rtab *from;
	bool carrying;
	size_t kept;
	uint64_t keep_ns;
	struct tb_out old;
	struct wk reap;
	uint64_t drops;
};

void tb_init(struct tb *b);
/* joins a running build and frees what it made */
void tb_fini(struct tb *b);

/*
 * The tables for ct (not NULL), or else for the graph of n addresses
 * whose links are nbr/nport/cap (n * R2C2_MAX_PORTS each, as
 * r2c2_topo_from_adj_ports() takes them; nport may be NULL; taken over
 * by the build, freed by it), with the propfair state if pf: in the
 * calling thread (tb_build()), or in a worker (tb_start(): -EBUSY while
 * a build is running or waits to be taken; on an error nbr, nport and
 * cap are freed; torus, prev: struct tb's).
 */
int tb_build(const struct r2c2_topo *ct, uint16_t *nbr, uint8_t *nport,
	     double *cap, uint32_t n, bool pf, struct tb_out *out);
int tb_start(struct tb *b, const struct r2c2_topo *ct, uint16_t *nbr,
	     uint8_t *nport, double *cap, uint32_t n, bool pf,
	     const struct r2c2_rtab *torus, const struct r2c2_topo *prev);
/* the eventfd that becomes readable when the worker is over, else -1 */
int tb_fd(const struct tb *b);
/* a build runs, or its result waits: no other starts */
bool tb_busy(const struct tb *b);
/* the worker is over (joined or not): tb_take() will not wait */
bool tb_over(const struct tb *b);
/*
 * Join the worker once it is over (wait: whatever it takes), keeping
 * its result: -EAGAIN while it runs, -ECHILD when none was started, else
 * 0 (the result is ready).
 */
int tb_join(struct tb *b, bool wait);
/*
 * A ready build's second step, in the worker: copy into its tables what
 * the change left as it was of the cache of from, the tables in use
 * (r2c2_rtab_carry()). While it runs, from may be read but not written
 * (no pair prepared, no cache cleared: tb_carrying()). Then tb_join()
 * and tb_take() as for the build. -EINVAL when the build failed or made
 * a torus's tables, or from is NULL or a torus's; -EALREADY when this
 * build's carry was started; -ECHILD when no build is ready.
 */
int tb_carry_start(struct tb *b, const struct r2c2_rtab *from);
/* a carry was started and its tables were not taken yet */
static inline bool tb_carrying(const struct tb *b)
{
	return b->carrying;
}
/*
 * The ready result into *out, the caller's now: returns the build's 0 or
 * negative errno (then *out is empty); -ECHILD when none is ready.
 */
int tb_take(struct tb *b, struct tb_out *out);
/* free what a build made (a graph that is not ct) */
void tb_out_free(struct tb_out *o, const struct r2c2_topo *ct);
/*
 * Tables swapped out, freed in a thread (at 4,096 nodes, 250 MB of them
 * held the loop 10 ms): o is emptied, and its graph is freed unless it
 * is ct. A free still running is waited for first; one that cannot start
 * is done here.
 */
void tb_drop(struct tb *b, struct tb_out *o, const struct r2c2_topo *ct);
/* the loop's tick: a free that is over is joined (tb_drop()) */
void tb_reap(struct tb *b);

#endif /* _R2C2D_TABLES_H */
