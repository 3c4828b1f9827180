/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reseq.h - receiver resequencing (paper §4.2): the per-flow reorder
 * buffer.
 *
 * The core (reseq.c) is a pure state machine over one flow's ring of held
 * packets with the time injected by the caller: no netdev, no timer, no
 * lock, so that KUnit can drive it (kunit/reseq_test.c includes it). The
 * node glue (reseqtab.c) keeps the flows in an RCU hash, locks each flow,
 * arms a timer per flow and delivers what the core releases. The design
 * is described in Documentation/resequencing.md.
 */
#ifndef _R2C2_RESEQ_H
#define _R2C2_RESEQ_H

#include <linux/bits.h>
#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/rcupdate.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <linux/r2c2.h>

/** R2C2_RSQ_WIN - ring slots of a flow; also the "far away" distance */
#define R2C2_RSQ_WIN			256
#define R2C2_RSQ_FLOW_LIMIT_DEFAULT	128
#define R2C2_RSQ_LIMIT_DEFAULT		4096
#define R2C2_RSQ_LIMIT_MAX		BIT(20)
#define R2C2_RSQ_TIMEOUT_US_DEFAULT	300
#define R2C2_RSQ_TIMEOUT_US_MIN		10
#define R2C2_RSQ_TIMEOUT_US_MAX		1000000
/** R2C2_RSQ_ADAPT_MAX_NS - adaptation never raises the timeout above this */
#define R2C2_RSQ_ADAPT_MAX_NS		(10 * NSEC_PER_MSEC)
/** R2C2_RSQ_SPREAD_WIN_NS - the delay-spread estimate is a max over 1-2 s */
#define R2C2_RSQ_SPREAD_WIN_NS		NSEC_PER_SEC
#define R2C2_RSQ_FLOWS_MAX		4096
#define R2C2_RSQ_RINGS_MAX		1024
#define R2C2_RSQ_HBITS			10
#define R2C2_RSQ_IDLE			HZ
#define R2C2_RSQ_GC_INTERVAL		(HZ / 10)

/**
 * enum r2c2_rsq_cnt - per-flow counters, in the order of the node's
 * counters R2C2_S_RESEQ_INORDER.. (enum r2c2_stat): counter i of a flow is
 * reported as stat R2C2_S_RESEQ_INORDER + i
 * @R2C2_RSQ_INORDER: arrived with the expected sequence number
 * @R2C2_RSQ_REORDERED: arrived ahead of a gap and was held
 * @R2C2_RSQ_TIMEOUT: released because a gap before it timed out
 * @R2C2_RSQ_LIMIT: released early (or passed unbuffered) because the
 *	flow's or the node's limit was reached
 * @R2C2_RSQ_LATE: arrived behind the expected number (its gap was given
 *	up, or a duplicate of a delivered packet); delivered at once
 * @R2C2_RSQ_DUP: copy of a packet already held; dropped
 * @R2C2_RSQ_RESYNC: a whole window ahead or behind (a restarted sender or
 *	a forged header): held packets were released and the flow restarted
 *	at this packet
 * @__R2C2_RSQ_CNT: number of counters
 */
enum r2c2_rsq_cnt {
	R2C2_RSQ_INORDER,
	R2C2_RSQ_REORDERED,
	R2C2_RSQ_TIMEOUT,
	R2C2_RSQ_LIMIT,
	R2C2_RSQ_LATE,
	R2C2_RSQ_DUP,
	R2C2_RSQ_RESYNC,
	__R2C2_RSQ_CNT,
};

/**
 * struct r2c2_rsq_params - what the core needs to know of its node
 * @timeout_ns: give a gap up after this long (already adapted)
 * @flow_limit: packets a flow may hold, 1..R2C2_RSQ_WIN - 1
 * @limit: packets the node may hold in all its flows
 * @global_held: packets the node holds now
 */
struct r2c2_rsq_params {
	u64 timeout_ns;
	u32 flow_limit;
	u32 limit;
	u32 global_held;
};

/**
 * struct r2c2_rsq_res - what one call of the core did
 * @cnt: counter increments, enum r2c2_rsq_cnt
 * @sample_ns: an observed reorder delay (0: none), for the spread estimate
 * @held_delta: change of the flow's held packets
 */
struct r2c2_rsq_res {
	u32 cnt[__R2C2_RSQ_CNT];
	u32 sample_ns;
	int held_delta;
};

/**
 * struct r2c2_rsq_flow - reorder state of one flow
 * @next: sequence number expected next
 * @nheld: packets held in @ring
 * @maxdepth: most packets held at once
 * @synced: @next is valid (a packet was seen)
 * @gap_since: when the packet after the gap at @next started waiting (ns)
 * @skip_lo: first sequence number of the last gap given up
 * @skip_hi: one past its last
 * @skip_since: when that gap started blocking (ns)
 * @skip_at: when that gap was given up (ns; 0: by a flush or resync)
 * @cnt: counters, enum r2c2_rsq_cnt
 * @ring: R2C2_RSQ_WIN held packets indexed by seq % R2C2_RSQ_WIN, or
 *	NULL while nothing was ever held (allocated by the caller)
 */
struct r2c2_rsq_flow {
	u32 next;
	u16 nheld;
	u16 maxdepth;
	bool synced;
	u64 gap_since;
	u32 skip_lo;
	u32 skip_hi;
	u64 skip_since;
	u64 skip_at;
	u64 cnt[__R2C2_RSQ_CNT];
	struct sk_buff **ring;
};

/**
 * struct r2c2_rsq_spread - windowed maximum of observed reorder delays
 * @t: start of the current window (ns)
 * @cur: maximum in the current window (ns)
 * @prev: maximum in the previous window (ns)
 */
struct r2c2_rsq_spread {
	u64 t;
	u32 cur;
	u32 prev;
};

/* reseq.c: the core */
bool r2c2_rsq_fast(struct r2c2_rsq_flow *f, u32 seq);
void r2c2_rsq_rcv(struct r2c2_rsq_flow *f, struct sk_buff *skb, u32 seq,
		  u64 now, const struct r2c2_rsq_params *p,
		  struct sk_buff_head *out, struct r2c2_rsq_res *res);
void r2c2_rsq_expire(struct r2c2_rsq_flow *f, u64 now, u64 timeout_ns,
		     struct sk_buff_head *out, struct r2c2_rsq_res *res);
u64 r2c2_rsq_deadline(const struct r2c2_rsq_flow *f, u64 timeout_ns);
void r2c2_rsq_flush(struct r2c2_rsq_flow *f, struct sk_buff_head *out,
		    struct r2c2_rsq_res *res);
void r2c2_rsq_free(struct r2c2_rsq_flow *f);
bool r2c2_rsq_ahead(const struct r2c2_rsq_flow *f, u32 seq);
void r2c2_rsq_spread_add(struct r2c2_rsq_spread *sp, u64 now, u32 sample);
u64 r2c2_rsq_timeout(const struct r2c2_rsq_spread *sp, u64 now, u64 cfg_ns);

struct r2c2_node;
struct nlattr;
struct netlink_callback;

/**
 * struct r2c2_rsq_ent - a flow in a node's reorder table
 * @hnode: in &r2c2_rsq_node.flows
 * @rcu: for kfree_rcu()
 * @gc: on a local list while being freed
 * @node: owning node
 * @timer: gives the gap up (soft hrtimer, absolute, CLOCK_MONOTONIC)
 * @lock: protects @f, @armed, @dead, @last_used
 * @src: the flow's source node
 * @id: flow identifier
 * @dead: unlinked: a reader that still finds it passes packets through
 * @armed: deadline @timer is armed for (ns), 0 none
 * @last_used: jiffies of the last packet
 * @f: the reorder state
 */
struct r2c2_rsq_ent {
	struct hlist_node hnode;
	struct rcu_head rcu;
	struct list_head gc;
	struct r2c2_node *node;
	struct hrtimer timer;
	spinlock_t lock;	/* see above */
	u16 src;
	u32 id;
	bool dead;
	u64 armed;
	unsigned long last_used;
	struct r2c2_rsq_flow f;
};

/**
 * struct r2c2_rsq_node - a node's resequencing state and settings
 * @enabled: resequence (READ_ONCE; module parameter reseq sets the default)
 * @timeout_us: configured gap timeout (the floor of the adapted one)
 * @flow_limit: packets a flow may hold
 * @limit: packets the node may hold
 * @held: packets held now
 * @nflows: entries in @flows
 * @nrings: flows with a ring allocated
 * @maxdepth: most packets one flow held at once (since the last reset)
 * @spread: observed reorder delays
 * @hist: per-CPU depth histogram: R2C2_RSQ_WIN + 1 counters, bucket d
 *	counts packets after whose arrival their flow held d packets
 * @lock: insertions and removals in @flows
 * @gc_work: frees idle flows and unused rings
 * @flows: the table, by (source, flow)
 */
struct r2c2_rsq_node {
	bool enabled;
	u32 timeout_us;
	u32 flow_limit;
	u32 limit;
	atomic_t held;
	atomic_t nflows;
	atomic_t nrings;
	u32 maxdepth;
	struct r2c2_rsq_spread spread;
	u64 __percpu *hist;
	spinlock_t lock;	/* see above */
	struct delayed_work gc_work;
	struct hlist_head flows[1 << R2C2_RSQ_HBITS];
};

/* reseqtab.c: the node glue */
int r2c2_reseq_init(struct r2c2_node *node);
void r2c2_reseq_fini(struct r2c2_node *node);
void r2c2_reseq_stop(struct r2c2_node *node);
void r2c2_reseq_rcv(struct r2c2_node *node, struct sk_buff *skb, u16 src,
		    u32 id, u32 seq, u8 rproto);
void r2c2_reseq_nl_set(struct r2c2_node *node, struct nlattr **a);
int r2c2_reseq_fill_node(struct sk_buff *msg, struct r2c2_node *node);
void r2c2_reseq_reset(struct r2c2_node *node);
struct genl_family;
int r2c2_reseq_dump(struct sk_buff *skb, struct netlink_callback *cb,
		    const struct genl_family *family);

#endif /* _R2C2_RESEQ_H */
