/* SPDX-License-Identifier: GPL-2.0 */
/*
 * matrix.h - r2c2d's traffic matrix: every flow of the rack, learnt from
 * flow events, kept as soft state. No netlink, no clock: the caller passes
 * the time, so the logic is tested with synthetic event sequences
 * (tests/r2c2d_matrix_test.c).
 */
#ifndef _R2C2D_MATRIX_H
#define _R2C2D_MATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ratectl.h"

struct r2c2_flow;

#define MX_NONE		UINT32_MAX
/* flows per stamp of the view's changes (struct mx, @vchunk) */
#define MX_CHUNK	256
/*
 * chunks a snapshot of the view (a round's, a route search's) copies at
 * most in one go in the loop: 64 chunks, 16,384 flows, ~0.6 MB of view
 * and ids
 */
#define MX_COPY_STEP	64

/**
 * struct mx_flow - one flow of the rack
 * @src: source node; (@src, @id) is the key
 * @id: flow identifier, unique per source
 * @dst: destination node
 * @weight: 1..255
 * @prio: 0 (highest) .. 15
 * @rproto: enum r2c2_rproto
 * @demand_kbps: announced demand, R2C2_DEMAND_UNLIMITED for none
 * @born_ns: when the flow was first heard of
 * @refresh_ns: when it was last announced (start, update or refresh)
 * @changed_ns: when the last event that changed it arrived (its start, or
 *	an update of dst, weight, prio, routing or demand)
 * @mark: resynchronisation mark (mx_resync_begin/end)
 * @next: hash chain (index into the flow array)
 * @rate: rate computed for it in the last round, bit/s
 * @pushed: own flows: rate last pushed into the qdisc, bit/s (0: never)
 * @pushed_ns: own flows: when it was pushed
 * @moved_ns: own flows: when a different rate was last pushed (a lease
 *	refresh of the same rate does not count)
 * @dem: own flows: the demand estimator (ratectl.h)
 * @announced_kbps: own flows: demand we last announced
 * @own_pos: own flows: its place in the matrix's @own_ix
 */
struct mx_flow {
	uint16_t src;
	uint16_t dst;
	uint32_t id;
	uint8_t weight;
	uint8_t prio;
	uint8_t rproto;
	bool mark;
	uint32_t demand_kbps;
	uint64_t born_ns;
	uint64_t refresh_ns;
	uint64_t changed_ns;
	uint32_t next;
	double rate;
	double pushed;
	uint64_t pushed_ns;
	uint64_t moved_ns;
	struct rc_dem dem;
	uint32_t announced_kbps;
	uint32_t own_pos;
};

/**
 * struct mx_evt - a flow event (FLOW_EVENT multicast, or made up from a
 * kernel dump)
 * @type: enum r2c2_flow_evt_type
 * @src, @id, @dst, @weight, @prio, @rproto, @demand_kbps: as in mx_flow
 */
struct mx_evt {
	uint8_t type;
	uint16_t src;
	uint32_t id;
	uint16_t dst;
	uint8_t weight;
	uint8_t prio;
	uint8_t rproto;
	uint32_t demand_kbps;
};

/**
 * struct mx_stats - what the matrix has seen
 */
struct mx_stats {
	uint64_t events;
	uint64_t starts, finishes, updates, refreshes;
	uint64_t dup_starts;		/* START of a known, unchanged flow */
	uint64_t unknown_finishes;	/* FINISH of an unknown flow */
	uint64_t implicit_starts;	/* UPDATE/REFRESH of an unknown flow */
	uint64_t expired;
	uint64_t resync_removed;
	uint64_t invalid;
	uint64_t refused_full;		/* new flows refused: max_flows held */
	uint64_t refused_quota;		/* new flows refused: max_flows_per_src */
};

/**
 * struct mx - the matrix
 * @f: flows, dense (removal moves the last one into the hole)
 * @n: flows held
 * @cap: size of @f
 * @bucket: hash heads (indices into @f), @nb of them, a power of two
 * @gen: bumped by every change that can alter an allocation
 * @max_flows: refuse new flows beyond this
 * @max_per_src: refuse a source's new flows beyond this (mx_init():
 *	max_flows, no quota; the daemon sets max_flows_per_src)
 * @src_n: flows held per source address (65536 counters)
 * @src_dg: each source's digest as held (65536 sums of mx_term()): kept
 *	as flows come, change and go, so a digest heard costs O(1). A
 *	field of a held flow is changed only between mx_term_out() and
 *	mx_term_in()
 * @end_all: flows held per value of their higher end (65536 counters),
 *	@end_dem0 the same of those with a demand of 0 kbit/s: what
 *	@view_skip is for another node count, without a walk over the flows
 * @own_src: the node whose flows @own counts (-1: none, the default)
 * @own: flows of @own_src held
 * @own_ix: their indices in @f, in no order (@own of them), so that what
 *	concerns only this node's flows (pushing rates, refreshing them)
 *	does not walk the rack's
 * @view: each flow's allocator input, at its index in @f (mx_alloc_flow()
 *	without the topology's bound: r2c2d's snapshot of a round copies it
 *	whole instead of walking @f)
 * @fid: each flow's id, at its index in @f (the snapshot's keys)
 * @born: each flow's @born_ns, at its index in @f (a route search's
 *	snapshot copies it with @view and @fid, to tell the long flows)
 * @view_nodes: the topology's node count the view is for (mx_set_nodes())
 * @view_skip: flows the allocator must not be given as they are: a demand
 *	of 0 kbit/s (no share), or an end at or past @view_nodes
 * @unseen: flows new or changed since the caller last saw them
 *	(mx_seen()), or since mx_unseen_all()
 * @unseen_ix: their indices in @f, in no order (@unseen of them): what a
 *	round checks against a graph's tables, instead of every flow
 * @unseen_at: each flow's place in @unseen_ix (MX_NONE: not there), at its
 *	index in @f (an array of its own: clearing the list touches 4 bytes
 *	a flow, not a flow's 136)
 * @vstamp: the last stamp given to a change of @view, @fid or @born; the stamps
 *	of one matrix are above those of any matrix made before it
 * @vchunk: per MX_CHUNK flows of @f, the stamp of the last change of
 *	their @view, @fid or @born, so that a copy taken at stamp s is brought up to
 *	date by copying the chunks stamped after s (mx_view_since())
 * @expire_at: where mx_expire_step() goes on
 * @key: the bucket hash's key (SipHash-2-4 of (src, id)), random from
 *	mx_init(): flow ids picked to share a bucket with this key's hash
 *	cannot be picked without it
 *
 * @f (with @own_ix, @view, @fid, @born, @unseen_ix, @unseen_at) and
 * @bucket shrink by half when a quarter or less is in use (and more than
 * 64), so the memory of a burst of flows comes back.
 */
struct mx {
	struct mx_flow *f;
	uint32_t n, cap;
	uint32_t *bucket;
	uint32_t nb;
	uint64_t gen;
	uint32_t max_flows;
	uint32_t max_per_src;
	uint32_t *src_n;
	uint32_t *src_dg;
	uint32_t *end_all;
	uint32_t *end_dem0;
	int own_src;
	uint32_t own;
	uint32_t *own_ix;
	struct r2c2_flow *view;
	uint32_t *fid;
	uint64_t *born;
	uint32_t view_nodes;
	uint32_t view_skip;
	uint32_t unseen;
	uint32_t *unseen_ix;
	uint32_t *unseen_at;
	uint64_t vstamp;
	uint64_t *vchunk;
	uint32_t expire_at;
	uint64_t key[2];
	struct mx_stats st;
};

int mx_init(struct mx *m, uint32_t max_flows);
/* another hash key (tests): the flows are hashed again; 0 or -ENOMEM */
int mx_set_key(struct mx *m, const uint64_t key[2]);
/* SipHash-2-4 of the 8-byte little-endian word w, 128-bit key */
uint64_t mx_siphash(const uint64_t key[2], uint64_t w);
void mx_fini(struct mx *m);
/* count the flows of src (-1: none) in @own from now on */
void mx_set_own(struct mx *m, int src);
/*
 * the allocator's topology has n nodes from now on (@view_skip); every
 * flow is unseen (mx_unseen_all())
 */
void mx_set_nodes(struct mx *m, uint32_t n);
/*
 * Whether chunk c (flows c * MX_CHUNK on) of @view, @fid and @born changed since
 * a copy taken at stamp s (0: no copy)
 */
static inline bool mx_view_since(const struct mx *m, size_t c, uint64_t s)
{
	return !s || m->vchunk[c] > s;
}
/*
 * Bring a copy of @view, @fid and, unless @born is NULL, @born up to
 * date: the copy was taken at stamp *@stamp (0: none); the chunks
 * changed since are copied into @v, @id and @born, which have room for
 * @n flows; *@stamp becomes @vstamp. Returns the chunks copied.
 */
size_t mx_view_copy(const struct mx *m, struct r2c2_flow *v, uint32_t *id,
		    uint64_t *born, uint64_t *stamp);
/*
 * The same in steps: from chunk *@next on, the chunks changed since stamp
 * @since, at most @max of them (0: no bound); *@next becomes the chunk to
 * go on from, past the last (@n flows) once the copy got there. Returns
 * the chunks copied.
 */
size_t mx_view_copy_step(const struct mx *m, struct r2c2_flow *v,
			 uint32_t *id, uint64_t *born, uint64_t since,
			 size_t *next, size_t max);
/**
 * struct mx_copy - a copy of a matrix's view, brought up to date in steps
 * @stamp: the copy holds @view, @fid (and @born, if it copies them) as
 *	of this stamp of the matrix (its @vstamp); 0: it does not
 * @pass: the matrix's stamp when the pass under way began; 0: none
 * @base: @stamp when that pass began (the last pass's, once it is over)
 * @next: the chunk the pass goes on from
 */
struct mx_copy {
	uint64_t stamp;
	uint64_t pass, base;
	size_t next;
};
/*
 * One step of a pass (begun if none is under way): of the chunks changed
 * since @base, at most @max (0: no bound) from @next on, into @v, @id and,
 * unless NULL, @born; once the pass got past the last chunk, the chunks
 * changed since it began too, so that the copy is the matrix's as of this
 * call whatever came between, and @stamp becomes the matrix's. Adds the
 * chunks copied to *@chunks. Returns true when the pass is over.
 */
bool mx_copy_step(const struct mx *m, struct mx_copy *c, struct r2c2_flow *v,
		  uint32_t *id, uint64_t *born, size_t max, uint64_t *chunks);
/* whether a pass of @c is under way */
static inline bool mx_copying(const struct mx_copy *c)
{
	return c->pass;
}
/* end @c's pass where it is (the arrays were written otherwise) */
static inline void mx_copy_stop(struct mx_copy *c)
{
	c->pass = 0;
}
/* every flow into @unseen_ix (the tables it was seen against are gone) */
void mx_unseen_all(struct mx *m);
/*
 * The flow at place k of @unseen_ix is seen: the last entry takes its
 * place (a walk of the list from its end takes each entry once)
 */
void mx_seen(struct mx *m, uint32_t k);
/* index of (src, id) or MX_NONE */
uint32_t mx_find(const struct mx *m, uint16_t src, uint32_t id);
/*
 * The same, tried at index hint first (where a snapshot found the flow;
 * the matrix may have moved it since)
 */
uint32_t mx_find_at(const struct mx *m, uint32_t hint, uint16_t src,
		    uint32_t id);
/*
 * Apply an event heard at time now. Returns 1 if the matrix changed in a
 * way that matters to the allocation (gen bumped), 0 if not, -EINVAL for
 * a malformed event, -ENOSPC when full or when the source holds
 * max_per_src flows (counted in st.refused_full, st.refused_quota),
 * -ENOMEM.
 */
int mx_apply(struct mx *m, const struct mx_evt *e, uint64_t now);
/*
 * Remove flows not refreshed for ttl_ns (soft state); returns how many.
 * Flows of source keep (-1: none) stay: the daemon's own flows follow the
 * qdisc's dumps, not announcements.
 */
uint32_t mx_expire(struct mx *m, uint64_t now, uint64_t ttl_ns, int keep);
/*
 * The same over at most max flows: a matrix of at most max flows whole,
 * a larger one from where the last call stopped (@expire_at) to the end
 * or max flows on. The loop's share of expiry, bounded whatever the
 * matrix holds (a flow then goes up to n / max calls late).
 */
uint32_t mx_expire_step(struct mx *m, uint64_t now, uint64_t ttl_ns,
			int keep, uint32_t max);
/*
 * Remove the flows of sources not in reach (reach[src] == 0, or src at
 * or past n); those of source keep (-1: none) stay. Returns how many.
 */
uint32_t mx_drop_unreached(struct mx *m, const uint8_t *reach, uint32_t n,
			   int keep);
/*
 * Resynchronisation of one source's flows from a complete list (a kernel
 * dump of our own flows): mx_resync_begin() clears the marks of src's
 * flows, each listed flow is applied with mx_apply() (which marks it),
 * mx_resync_end() removes src's flows left unmarked; returns how many.
 */
void mx_resync_begin(struct mx *m, uint16_t src);
uint32_t mx_resync_end(struct mx *m, uint16_t src);
void mx_remove(struct mx *m, uint32_t idx);
/*
 * The digest of src's flows as this matrix holds them (the sum of
 * r2c2_flow_digest() over them, <r2c2/wire.h>); *count gets how many.
 * mx_digest_walk() computes the same from the flows themselves (tests).
 */
uint32_t mx_digest(const struct mx *m, uint16_t src, uint32_t *count);
uint32_t mx_digest_walk(const struct mx *m, uint16_t src, uint32_t *count);
/* a flow's term in its source's digest */
uint32_t mx_term(const struct mx_flow *f);
/* a held flow's allocator view leaves, then comes back (matrix.c) */
void mx_view_out(struct mx *m, const struct mx_flow *f);
void mx_view_in(struct mx *m, struct mx_flow *f);
/*
 * Around a change of a held flow's dst, weight, prio, rproto or demand:
 * its digest term and its allocator view follow
 */
static inline void mx_term_out(struct mx *m, const struct mx_flow *f)
{
	m->src_dg[f->src] -= mx_term(f);
	mx_view_out(m, f);
}

static inline void mx_term_in(struct mx *m, struct mx_flow *f)
{
	m->src_dg[f->src] += mx_term(f);
	mx_view_in(m, f);
}
/*
 * Remove src's flows last announced before @before (a source answering a
 * resync announces every flow it has again: those it did not are gone);
 * returns how many.
 */
uint32_t mx_drop_stale(struct mx *m, uint16_t src, uint64_t before);

/*
 * The allocator's view of a matrix flow, for a topology of nnodes nodes:
 * fills *a and returns true, or returns false (a untouched) when the
 * flow lies outside the topology (src or dst >= nnodes, or src == dst).
 * An unlimited demand is 0 (none), a demand in kbit/s becomes bit/s; a
 * demand of 0 kbit/s would read as unlimited, so the caller gives such a
 * flow no share instead (compute() in main.c).
 */
bool mx_alloc_flow(const struct mx_flow *f, uint32_t nnodes,
		   struct r2c2_flow *a);

/*
 * Whether a flow from src to dst lies in a topology of nnodes nodes:
 * both ends its nodes, and distinct. The allocator indexes its tables by
 * both ends; a flow that is not is left out (a peer's larger rack, a
 * hostile one).
 */
static inline bool mx_in_topology(uint32_t src, uint32_t dst, uint32_t nnodes)
{
	return src < nnodes && dst < nnodes && src != dst;
}

#endif /* _R2C2D_MATRIX_H */
