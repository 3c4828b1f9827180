/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sch_r2c2_core.h - the parts of sch_r2c2 that need no netdev: rate
 * arithmetic, the flow table, the time-ordered tree of backlogged flows,
 * the idle list, rate leases and the announcement decision. sch_r2c2.c wraps them in a qdisc;
 * kunit/sch_r2c2_test.c tests them directly.
 *
 * Every flow is in exactly one of three places:
 * - the solo slot (@solo of the core), when it is the only flow with
 *   packets queued: it is sent next without a tree, so a lone backlogged
 *   flow costs no tree insertion or removal per packet;
 * - the time tree (@time_node), ordered by r2c2q_key() (its next send
 *   time, or its lease end if that comes first), while it has packets
 *   queued (@qlen > 0) and other flows have too: the leftmost flow is
 *   looked at next (EDT), sent if due, else the qdisc's watchdog wakes
 *   it; a solo flow moves into the tree when a second flow gets a
 *   packet, and the tree is empty whenever @solo is set;
 * - the idle list (@idle), in the order flows went idle, while it has
 *   none: garbage collection pops expired flows from its head, so no
 *   operation ever scans all flows.
 * The caller serialises all calls (the qdisc lock).
 */
#ifndef _SCH_R2C2_CORE_H
#define _SCH_R2C2_CORE_H

#include <linux/hash.h>
#include <linux/list.h>
#include <linux/math64.h>
#include <linux/rbtree.h>
#include <linux/skbuff.h>
#include <linux/time64.h>
#include <linux/types.h>
#include <uapi/linux/r2c2.h>

/**
 * struct r2c2q_flow - one flow's rate limiter (128 bytes)
 * @time_node: in the time tree while backlogged (unless it is the solo flow)
 * @idle: in the idle list while not backlogged
 * @hnode: in its hash bucket
 * @head: first queued packet (skb->next chains them)
 * @tail: last queued packet
 * @time_next: earliest send time of the next packet, ns (monotonic)
 * @rate: rate set by RATE_SET, bit/s (used in state R2C2_RS_SET)
 * @born: first packet, ns (used in state R2C2_RS_PENDING, which no
 *	RATE_SET enters)
 * @lease_end: when the current rate (initial or set) expires, ns (a
 *	deadline while R2C2Q_F_LEASE is set)
 * @bytes: bytes sent
 * @packets: packets sent
 * @last_active: last enqueue or dequeue, ns
 * @id: flow identifier
 * @qlen: packets queued
 * @backlog: bytes queued
 * @drops: packets dropped
 * @dst: destination node (R2C2_ADDR_NONE when unknown)
 * @state: enum r2c2_rate_state
 * @flags: R2C2Q_F_*
 * @prio: priority announced (its traffic class's, 0..15)
 * @weight: allocation weight announced (its traffic class's, 1..255)
 * @sport: transport source port of the first packet, host order
 * @dport: transport destination port of the first packet, host order
 */
struct r2c2q_flow {
	union {
		struct rb_node time_node;
		struct list_head idle;
	};
	struct hlist_node hnode;
	struct sk_buff *head;
	struct sk_buff *tail;
	u64 time_next;
	union {
		u64 rate;
		u64 born;
	};
	u64 lease_end;
	u64 bytes;
	u64 packets;
	u64 last_active;
	u32 id;
	u32 qlen;
	u32 backlog;
	u32 drops;
	u16 dst;
	u8 state:2;
	u8 flags:2;
	u8 prio:4;
	u8 weight;
	u16 sport;
	u16 dport;
};

/*
 * R2C2Q_F_STARTED: the first packet was seen (destination, ports and
 * class learned); a finish is owed unless the flow is still pending
 */
#define R2C2Q_F_STARTED	0x01

/*
 * R2C2Q_F_LEASE: @lease_end is a deadline: the flow's rate (initial or
 * set) was given for a lease (lease_ns was not 0 then) that has not
 * lapsed yet. Set and cleared with the state (r2c2q_lease_start(),
 * r2c2q_pend(), r2c2q_lease_check()), so a flow's place in the time
 * tree (r2c2q_key()) depends on its own fields only: tc qdisc change
 * of lease applies to leases given from then on and reorders nothing.
 */
#define R2C2Q_F_LEASE	0x02

/*
 * R2C2Q_WAIT_MAX_BYTES: a flow's wait is never longer than this many
 * bytes take at its rate (r2c2q_rescale()). A flow is charged only when
 * due, so its wait is one packet (64 KB GSO; 512 KB with BIG TCP) plus
 * at most a slot's worth: the bound does not bind in normal operation.
 */
#define R2C2Q_WAIT_MAX_BYTES	SZ_1M

/**
 * struct r2c2q_core - the flow table and schedule of one qdisc
 * @hash: 1 << @hash_log buckets
 * @hash_log: log2 of the buckets
 * @time_tree: backlogged flows by r2c2q_key() (empty while @solo is set)
 * @solo: the only backlogged flow, kept out of @time_tree, or NULL
 * @idle_list: flows without packets, oldest first
 * @overflow: the shared flow of packets whose own flow found no entry
 *	(maxflows reached, or no memory), or NULL: in no table, never on
 *	@idle_list, so never collected
 * @flows: flows in the table
 * @active: backlogged flows (@solo and those in @time_tree)
 * @initial_rate: bit/s of flows in state R2C2_RS_INITIAL
 * @safe_rate: bit/s of flows in state R2C2_RS_SAFE
 * @lease_ns: lifetime of a rate, 0 = forever
 * @idle_ns: a flow idle this long is garbage
 * @catchup_ns: how far behind now a late flow's clock may stay
 * @batch_ns: longest slot of send times that leave together
 * @quantum: bytes a slot holds at most at the flow's rate (2 MTU, as
 *	sch_fq's quantum)
 * @announce_ns: announce a flow once it is this old (0: no threshold)
 * @announce_bytes: announce a flow once it sent this much (0: none)
 * @rate_updates: rates set
 * @leases_expired: flows moved to the safe rate
 */
struct r2c2q_core {
	struct hlist_head *hash;
	u32 hash_log;
	struct rb_root_cached time_tree;
	struct r2c2q_flow *solo;
	struct list_head idle_list;
	struct r2c2q_flow *overflow;
	u32 flows;
	u32 active;
	u64 initial_rate;
	u64 safe_rate;
	u64 lease_ns;
	u64 idle_ns;
	u64 catchup_ns;
	u64 batch_ns;
	u32 quantum;
	u64 announce_ns;
	u64 announce_bytes;
	u64 rate_updates;
	u64 leases_expired;
};

/**
 * r2c2q_tx_ns() - time a packet takes at a rate
 * @len: bytes (any u32)
 * @rate: bit/s, at least 1
 *
 * len * 8 * NSEC_PER_SEC overflows u64 only beyond 2^31 bytes, where
 * mul_u64_u64_div_u64() takes over; below, the result is rounded to the
 * nearest ns (0.4 % of a 1500-byte packet's 120 ns at 100 Gbit/s).
 *
 * Return: ns.
 */
static inline u64 r2c2q_tx_ns(u32 len, u64 rate)
{
	if (len >= (1U << 31))
		return mul_u64_u64_div_u64(len, 8 * NSEC_PER_SEC, rate);
	return div64_u64((u64)len * (8 * NSEC_PER_SEC) + rate / 2, rate);
}

/**
 * r2c2q_rate() - a flow's effective rate
 * @c: the core
 * @f: the flow
 *
 * Return: bit/s.
 */
static inline u64 r2c2q_rate(const struct r2c2q_core *c,
			     const struct r2c2q_flow *f)
{
	/* INITIAL and PENDING last: two compares, no table of four */
	if (f->state == R2C2_RS_SET)
		return f->rate;
	if (f->state == R2C2_RS_SAFE)
		return READ_ONCE(c->safe_rate);
	return READ_ONCE(c->initial_rate);
}

/**
 * r2c2q_rescale() - a flow's effective rate changes: rescale its wait
 * @f: the flow
 * @old: bit/s its @time_next was charged at (its effective rate so far)
 * @rate: bit/s from now on
 * @now: ns
 *
 * The wait left before the next packet is scaled by @old / @rate, as if
 * the last packet had been sent at @rate. Every change of a flow's
 * effective rate goes through here (a set rate, the fall-back to the safe
 * rate), so @old is always the rate the wait was charged at: a wait
 * charged at R2C2_RATE_MIN and then scaled by another rate's ratio would
 * hold the flow for hours, and scaled again overflow the division (a
 * divide error in RATE_SET). The result is capped at what
 * R2C2Q_WAIT_MAX_BYTES take at @rate, so no input can overflow it. The
 * caller puts a backlogged flow back in order (r2c2q_requeue()).
 *
 * Return: true when @time_next moved (a wait left and a new rate).
 */
static inline bool r2c2q_rescale(struct r2c2q_flow *f, u64 old, u64 rate,
				 u64 now)
{
	u64 wait = f->time_next - now;

	if (old == rate || (s64)wait <= 0)
		return false;
	/* wait * old / rate < R2C2Q_WAIT_MAX_BYTES at rate: no overflow */
	if (wait >= r2c2q_tx_ns(R2C2Q_WAIT_MAX_BYTES, old))
		f->time_next = now + r2c2q_tx_ns(R2C2Q_WAIT_MAX_BYTES, rate);
	else
		f->time_next = now + mul_u64_u64_div_u64(wait, old, rate);
	return true;
}

/**
 * r2c2q_lease_start() - a rate (initial or set) is given: its lease starts
 * @c: the core
 * @f: the flow
 * @now: ns
 *
 * With lease_ns 0 (nolease) the rate holds until the next one.
 */
static inline void r2c2q_lease_start(const struct r2c2q_core *c,
				     struct r2c2q_flow *f, u64 now)
{
	f->lease_end = now + c->lease_ns;
	if (c->lease_ns)
		f->flags |= R2C2Q_F_LEASE;
	else
		f->flags &= ~R2C2Q_F_LEASE;
}

/**
 * r2c2q_key() - when the qdisc must next look at a backlogged flow
 * @f: the flow
 *
 * Its next send time, or its lease end if the lease lapses first: a
 * flow held at a low rate whose lease ends before its next packet is
 * due comes first at its lease end, and falls to the safe rate then
 * (the qdisc's dequeue, r2c2q_lease_check()), whether or not it sends
 * and whoever dumps the qdisc. The time tree is ordered by it. It reads
 * the flow's fields only (R2C2Q_F_LEASE, not lease_ns): every change of
 * them while the flow is backlogged ends with r2c2q_requeue().
 *
 * Return: ns.
 */
static inline u64 r2c2q_key(const struct r2c2q_flow *f)
{
	if ((f->flags & R2C2Q_F_LEASE) &&
	    (s64)(f->lease_end - f->time_next) < 0)
		return f->lease_end;
	return f->time_next;
}

/**
 * r2c2q_lease_check() - fall back to the safe rate when the lease ran out
 * @c: the core
 * @f: the flow
 * @now: ns
 *
 * A pending flow has no lease: the daemon cannot set a rate for a flow
 * the rack does not know. Its lease starts when it is announced. Nor
 * has a flow whose rate was given under nolease (R2C2Q_F_LEASE clear).
 * The wait of a flow that falls back is rescaled to the safe rate
 * (r2c2q_rescale()): a flow held at R2C2_RATE_MIN by a daemon that died
 * sends at the safe rate, not after minutes. Its r2c2q_key() changes:
 * the caller puts a backlogged flow that fell back in order again
 * (r2c2q_requeue()).
 *
 * Return: true when the flow just fell back.
 */
static inline bool r2c2q_lease_check(struct r2c2q_core *c,
				     struct r2c2q_flow *f, u64 now)
{
	if (!(f->flags & R2C2Q_F_LEASE) ||
	    (s64)(now - f->lease_end) < 0)
		return false;
	r2c2q_rescale(f, r2c2q_rate(c, f), READ_ONCE(c->safe_rate), now);
	f->state = R2C2_RS_SAFE;
	f->flags &= ~R2C2Q_F_LEASE;
	c->leases_expired++;
	return true;
}

/**
 * r2c2q_lookup() - find a flow
 * @c: the core
 * @id: flow identifier
 *
 * Return: the flow or NULL.
 */
static inline struct r2c2q_flow *r2c2q_lookup(const struct r2c2q_core *c,
					      u32 id)
{
	struct r2c2q_flow *f;

	hlist_for_each_entry(f, &c->hash[hash_32(id, c->hash_log)], hnode)
		if (f->id == id)
			return f;
	return NULL;
}

/**
 * r2c2q_insert() - add a new, idle flow at the initial rate
 * @c: the core
 * @f: zeroed memory
 * @id: flow identifier (not in the table)
 * @now: ns
 */
static inline void r2c2q_insert(struct r2c2q_core *c, struct r2c2q_flow *f,
				u32 id, u64 now)
{
	f->id = id;
	f->dst = 0xffff;
	f->state = R2C2_RS_INITIAL;
	f->weight = 1;
	f->time_next = now;
	r2c2q_lease_start(c, f, now);
	f->last_active = now;
	hlist_add_head(&f->hnode, &c->hash[hash_32(id, c->hash_log)]);
	list_add_tail(&f->idle, &c->idle_list);
	c->flows++;
}

/**
 * r2c2q_walk() - visit the table's flows from a cursor on, a bounded
 *	amount of work at a time
 * @c: the core
 * @cursor: in, where to begin; out, where to go on: the bucket in bits
 *	0..19, the position in its chain above (0: from the first bucket)
 * @budget: buckets and flows to visit at most (>= 1)
 * @fn: called for each flow in turn; a non-zero return stops the walk
 *	there, and the cursor names that flow again
 * @arg: @fn's argument
 *
 * A dump takes the qdisc lock, with bottom halves off, around each call:
 * the budget bounds that time whatever the table's size (up to 2^20
 * buckets). The table must not change between calls for a walk to see
 * every flow once; a resized table ends or restarts it harmlessly.
 *
 * Return: 0 when the flows ran out, -EAGAIN when the budget did, else
 * @fn's.
 */
static inline int r2c2q_walk(struct r2c2q_core *c, unsigned long *cursor,
			     unsigned int budget,
			     int (*fn)(struct r2c2q_flow *f, void *arg),
			     void *arg)
{
	unsigned long b = *cursor & 0xfffff, skip = *cursor >> 20, n = 0;
	unsigned int work = 0;
	struct r2c2q_flow *f;
	int err = 0;

	for (; b < (1UL << c->hash_log); b++, skip = 0) {
		n = skip;
		if (++work > budget) {
			err = -EAGAIN;
			break;
		}
		n = 0;
		hlist_for_each_entry(f, &c->hash[b], hnode) {
			if (n < skip) {
				n++;
				continue;
			}
			if (++work > budget) {
				err = -EAGAIN;
				break;
			}
			err = fn(f, arg);
			if (err)
				break;
			n++;
		}
		if (err)
			break;
	}
	*cursor = err ? b | n << 20 : b;
	return err;
}

/**
 * r2c2q_overflow_init() - set up the core's shared overflow flow
 * @c: the core
 * @f: zeroed memory, owned by the caller
 * @now: ns
 *
 * Packets whose flow can get no entry of its own (maxflows reached, no
 * memory) share @f, one FIFO at the safe rate, as sch_fq falls back to
 * its internal flow rather than refuse a flow. It is never announced,
 * has no lease and is in no table: no rate can be set for it, and the
 * garbage collector never sees it.
 */
static inline void r2c2q_overflow_init(struct r2c2q_core *c,
				       struct r2c2q_flow *f, u64 now)
{
	f->dst = 0xffff;
	f->state = R2C2_RS_SAFE;
	f->weight = 1;
	f->time_next = now;
	f->last_active = now;
	INIT_LIST_HEAD(&f->idle);
	c->overflow = f;
}

/**
 * r2c2q_pend() - hold back a new flow's announcement
 * @f: a flow in state R2C2_RS_INITIAL that has not sent yet
 * @now: ns, its first packet
 *
 * The flow sends at the initial rate, without a lease, until
 * r2c2q_announce().
 */
static inline void r2c2q_pend(struct r2c2q_flow *f, u64 now)
{
	f->state = R2C2_RS_PENDING;
	f->flags &= ~R2C2Q_F_LEASE;
	f->born = now;
}

/**
 * r2c2q_announce_due() - is a flow old or big enough to be announced?
 * @c: the core
 * @f: the flow (@born valid: pending, or just inserted and pended)
 * @now: ns
 *
 * With no threshold set, at once. Otherwise as soon as it has lived
 * announce_ns since its first packet or sent announce_bytes, whichever
 * set threshold comes first. The age is compared signed: a @born after
 * @now (not on a monotonic clock) is age < 0, never due by time.
 *
 * Return: true when it is due.
 */
static inline bool r2c2q_announce_due(const struct r2c2q_core *c,
				      const struct r2c2q_flow *f, u64 now)
{
	if (!c->announce_ns && !c->announce_bytes)
		return true;
	if (c->announce_ns && (s64)(now - f->born) >= (s64)c->announce_ns)
		return true;
	return c->announce_bytes && f->bytes >= c->announce_bytes;
}

/**
 * r2c2q_announce() - a pending flow is announced: its lease starts
 * @c: the core
 * @f: a flow in state R2C2_RS_PENDING
 * @now: ns
 *
 * It keeps the initial rate, now for one lease, as a flow announced at
 * its first packet: the daemon has a full lease to set its rate. Its
 * r2c2q_key() may change: the caller puts a backlogged flow in order
 * again (r2c2q_requeue()).
 */
static inline void r2c2q_announce(struct r2c2q_core *c, struct r2c2q_flow *f,
				  u64 now)
{
	f->state = R2C2_RS_INITIAL;
	r2c2q_lease_start(c, f, now);
}

static inline void r2c2q_tree_add(struct r2c2q_core *c, struct r2c2q_flow *f)
{
	struct rb_node **p = &c->time_tree.rb_root.rb_node, *parent = NULL;
	bool leftmost = true;

	while (*p) {
		struct r2c2q_flow *o;

		parent = *p;
		o = rb_entry(parent, struct r2c2q_flow, time_node);
		if ((s64)(r2c2q_key(f) - r2c2q_key(o)) < 0) {
			p = &parent->rb_left;
		} else {
			p = &parent->rb_right;
			leftmost = false;
		}
	}
	rb_link_node(&f->time_node, parent, p);
	rb_insert_color_cached(&f->time_node, &c->time_tree, leftmost);
}

/*
 * A flow leaves the idle list at its queue's first packet and rejoins
 * it when the queue runs empty: with one packet queued at a time, twice
 * a packet. list_del() and list_add_tail() call the CONFIG_DEBUG_LIST
 * validators (on in Debian's kernels) each time; sch_fq's flow lists
 * (its own singly linked ones) are not checked either. These two are
 * list_del() and list_add_tail() without that call and without the
 * poisoning: the entry is reused as @time_node at once.
 */
static inline void r2c2q_idle_del(struct r2c2q_flow *f)
{
	__list_del(f->idle.prev, f->idle.next);
}

static inline void r2c2q_idle_add(struct r2c2q_core *c, struct r2c2q_flow *f)
{
	struct list_head *prev = c->idle_list.prev;

	f->idle.next = &c->idle_list;
	f->idle.prev = prev;
	c->idle_list.prev = &f->idle;
	WRITE_ONCE(prev->next, &f->idle);
}

/**
 * r2c2q_activate() - an idle flow got a packet: into the schedule
 * @c: the core
 * @f: a flow on the idle list
 *
 * The first backlogged flow takes the solo slot; a second one moves the
 * solo flow into the time tree and joins it there, so the order of
 * equal send times stays first come, first served.
 */
static inline void r2c2q_activate(struct r2c2q_core *c, struct r2c2q_flow *f)
{
	r2c2q_idle_del(f);
	if (!c->active) {
		c->solo = f;
	} else {
		if (c->solo) {
			r2c2q_tree_add(c, c->solo);
			c->solo = NULL;
		}
		r2c2q_tree_add(c, f);
	}
	c->active++;
}

/**
 * r2c2q_deactivate() - a flow's queue ran empty: to the idle list
 * @c: the core
 * @f: the solo flow or a flow in the time tree
 * @now: ns
 */
static inline void r2c2q_deactivate(struct r2c2q_core *c,
				    struct r2c2q_flow *f, u64 now)
{
	if (f == c->solo)
		c->solo = NULL;
	else
		rb_erase_cached(&f->time_node, &c->time_tree);
	f->last_active = now;
	if (unlikely(f == c->overflow))
		INIT_LIST_HEAD(&f->idle);	/* never collected */
	else
		r2c2q_idle_add(c, f);
	c->active--;
}

/**
 * r2c2q_first() - the backlogged flow to look at first (r2c2q_key())
 * @c: the core
 *
 * Return: the flow or NULL.
 */
static inline struct r2c2q_flow *r2c2q_first(const struct r2c2q_core *c)
{
	struct rb_node *n;

	if (c->solo)
		return c->solo;
	n = rb_first_cached(&c->time_tree);

	return n ? rb_entry(n, struct r2c2q_flow, time_node) : NULL;
}

/**
 * r2c2q_slot_ns() - the length of a flow's send slots
 * @c: the core
 * @f: the flow
 *
 * batch_ns, or the time @quantum bytes take at the flow's rate if that
 * is shorter: a slot never holds more than a quantum's worth of sends.
 *
 * Return: ns; 0 when batching is off.
 */
static inline u64 r2c2q_slot_ns(const struct r2c2q_core *c,
				const struct r2c2q_flow *f)
{
	if (!c->batch_ns || !c->quantum)
		return 0;
	return min(c->batch_ns, r2c2q_tx_ns(c->quantum, r2c2q_rate(c, f)));
}

/**
 * r2c2q_due() - may a backlogged flow send its head packet now?
 * @c: the core
 * @f: the flow
 * @now: ns
 *
 * Time is cut into slots of r2c2q_slot_ns() (multiples of it since the
 * clock's zero), as a timing wheel's (Carousel): a flow sends when its
 * clock has reached now or lies in the slot now is in, so a packet
 * leaves at most one slot before its time and the packets whose times
 * share a slot leave together, at the slot's start (r2c2q_wake()): one
 * wakeup for a quantum, and a sender that is a little ahead of its rate
 * has its packets held until the next slot rather than each sent on its
 * own. Its clock advances from its own value (r2c2q_charge()), so
 * sending early does not raise the rate: over any interval a flow sends
 * at most rate * (interval + catchup_ns + slot) plus one packet.
 *
 * Return: true when it may.
 */
static inline bool r2c2q_due(const struct r2c2q_core *c,
			     const struct r2c2q_flow *f, u64 now)
{
	u64 slot, rem;

	if ((s64)(f->time_next - now) <= 0)
		return true;
	slot = r2c2q_slot_ns(c, f);
	if (!slot)
		return false;
	div64_u64_rem(now, slot, &rem);
	/* time_next is after now: within the slot that started at now - rem? */
	return f->time_next - (now - rem) < slot;
}

/**
 * r2c2q_wake() - when the qdisc must look again at a flow that is not due
 * @c: the core
 * @f: a flow for which r2c2q_due() is false
 *
 * When it becomes due: the start of the slot its clock lies in, or its
 * clock when batching is off; or its lease end if that comes first, when
 * it falls to the safe rate and its wait is rescaled (r2c2q_key()).
 *
 * Return: ns.
 */
static inline u64 r2c2q_wake(const struct r2c2q_core *c,
			     const struct r2c2q_flow *f)
{
	u64 slot = r2c2q_slot_ns(c, f), t = f->time_next, rem;

	if (slot) {
		div64_u64_rem(t, slot, &rem);
		t -= rem;
	}
	if ((f->flags & R2C2Q_F_LEASE) && (s64)(f->lease_end - t) < 0)
		return f->lease_end;
	return t;
}

/**
 * r2c2q_charge() - a packet of a flow was sent: advance its clock
 * @c: the core
 * @f: the flow
 * @len: bytes sent
 * @now: ns
 *
 * time_next = max(time_next, now - catchup) + len / rate: a flow woken
 * late by a coarse timer may send its backlog up to catchup_ns worth,
 * so timer slack does not lower the long-run rate; an idle flow gets no
 * more than that burst. The tree position is not updated here.
 */
static inline void r2c2q_charge(struct r2c2q_core *c, struct r2c2q_flow *f,
				u32 len, u64 now)
{
	u64 floor = now > c->catchup_ns ? now - c->catchup_ns : 0;
	u64 base = (s64)(f->time_next - floor) > 0 ? f->time_next : floor;

	f->time_next = base + r2c2q_tx_ns(len, r2c2q_rate(c, f));
	f->bytes += len;
	f->packets++;
	f->last_active = now;
}

/**
 * r2c2q_requeue() - put a backlogged flow at its new schedule position
 * @c: the core
 * @f: the solo flow or a flow in the time tree whose r2c2q_key() changed
 *
 * The solo flow stays where it is: it is the only one.
 */
static inline void r2c2q_requeue(struct r2c2q_core *c, struct r2c2q_flow *f)
{
	if (f == c->solo)
		return;
	rb_erase_cached(&f->time_node, &c->time_tree);
	r2c2q_tree_add(c, f);
}

/**
 * r2c2q_rate_set() - give a flow a computed rate, from its next packet on
 * @c: the core
 * @f: the flow
 * @rate: bit/s, R2C2_RATE_MIN..R2C2_RATE_MAX
 * @now: ns
 *
 * The wait left before the next packet is scaled by old rate / new rate
 * (r2c2q_rescale()), as if the last packet had been sent at the new
 * rate; the lease starts. A backlogged flow whose r2c2q_key() changed
 * is put in order again.
 * Not for a pending flow (the caller skips it: @rate holds its @born).
 */
static inline void r2c2q_rate_set(struct r2c2q_core *c, struct r2c2q_flow *f,
				  u64 rate, u64 now)
{
	u64 old = r2c2q_rate(c, f), key = r2c2q_key(f);

	f->rate = rate;
	f->state = R2C2_RS_SET;
	r2c2q_lease_start(c, f, now);
	c->rate_updates++;
	r2c2q_rescale(f, old, rate, now);
	if (f->qlen && r2c2q_key(f) != key)
		r2c2q_requeue(c, f);
}

/**
 * r2c2q_gc_pop() - take the oldest idle flow if it is garbage
 * @c: the core
 * @now: ns
 * @all: take it whatever its age
 *
 * Return: the flow, out of every structure (the caller frees it), or NULL.
 */
static inline struct r2c2q_flow *r2c2q_gc_pop(struct r2c2q_core *c, u64 now,
					      bool all)
{
	struct r2c2q_flow *f;

	f = list_first_entry_or_null(&c->idle_list, struct r2c2q_flow, idle);
	if (!f || (!all && now - f->last_active < c->idle_ns))
		return NULL;
	list_del(&f->idle);
	hlist_del(&f->hnode);
	c->flows--;
	return f;
}

/**
 * r2c2q_rehash() - move every flow to a new bucket array
 * @c: the core
 * @hash: 1 << @log empty buckets
 * @log: log2 of their number
 *
 * Return: the old bucket array (the caller frees it).
 */
static inline struct hlist_head *r2c2q_rehash(struct r2c2q_core *c,
					      struct hlist_head *hash, u32 log)
{
	struct hlist_head *old = c->hash;
	struct r2c2q_flow *f;
	struct hlist_node *tmp;
	u32 i;

	for (i = 0; old && i < (1U << c->hash_log); i++)
		hlist_for_each_entry_safe(f, tmp, &old[i], hnode) {
			hlist_del(&f->hnode);
			hlist_add_head(&f->hnode, &hash[hash_32(f->id, log)]);
		}
	c->hash = hash;
	c->hash_log = log;
	return old;
}

/**
 * r2c2q_core_init() - an empty core
 * @c: the core
 * @hash: 1 << @log empty buckets
 * @log: log2 of their number
 */
static inline void r2c2q_core_init(struct r2c2q_core *c,
				   struct hlist_head *hash, u32 log)
{
	c->hash = hash;
	c->hash_log = log;
	c->time_tree = RB_ROOT_CACHED;
	c->solo = NULL;
	INIT_LIST_HEAD(&c->idle_list);
	c->overflow = NULL;
	c->flows = 0;
	c->active = 0;
}

#endif /* _SCH_R2C2_CORE_H */
