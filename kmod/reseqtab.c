// SPDX-License-Identifier: GPL-2.0
/*
 * reseqtab.c - receiver resequencing of a node: the table of flows
 * (source node, flow id), a soft hrtimer per flow giving gaps up, garbage
 * collection of idle state, settings and the netlink view. The reorder
 * logic itself is the core in reseq.c.
 *
 * Locking: the table is an RCU hash; @rn->lock (BH) serialises insertions
 * and removals. Each flow has its own spinlock, taken in softirq by the
 * receive path and the flow's timer and with BH disabled elsewhere; held
 * packets are delivered (r2c2_deliver_eth()) under it, so that two CPUs
 * releasing packets of one flow cannot interleave them. A flow is
 * unlinked with @dead set under its lock; a reader that still finds it
 * passes packets through; it is freed after its timer is cancelled and a
 * grace period.
 */
#include <linux/hash.h>
#include <linux/module.h>
#include <linux/timekeeping.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include "r2c2.h"
#include "events.h"

static bool reseq = true;
module_param(reseq, bool, 0444);
MODULE_PARM_DESC(reseq, "resequence received flows on new nodes (default on; per node: r2c2ctl node set reseq on|off)");

static struct hlist_head *r2c2_rsq_bucket(struct r2c2_rsq_node *rn, u16 src,
					  u32 id)
{
	return &rn->flows[hash_64((u64)src << 32 | id, R2C2_RSQ_HBITS)];
}

static struct r2c2_rsq_ent *r2c2_rsq_find(struct r2c2_rsq_node *rn, u16 src,
					  u32 id)
{
	struct r2c2_rsq_ent *e;

	hlist_for_each_entry_rcu(e, r2c2_rsq_bucket(rn, src, id), hnode,
				 lockdep_is_held(&rn->lock))
		if (e->id == id && e->src == src)
			return e;
	return NULL;
}

static u64 r2c2_rsq_cur_timeout(struct r2c2_rsq_node *rn, u64 now)
{
	return r2c2_rsq_timeout(&rn->spread, now,
				(u64)READ_ONCE(rn->timeout_us) * NSEC_PER_USEC);
}

static void r2c2_rsq_deliver(struct r2c2_node *node, struct sk_buff_head *q)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(q)))
		r2c2_deliver_eth(node, skb);
}

/* Node counters, held packets, depth and spread after a core call. */
static void r2c2_rsq_account(struct r2c2_node *node, struct r2c2_rsq_ent *e,
			     const struct r2c2_rsq_res *res, u64 now)
{
	struct r2c2_rsq_node *rn = &node->rsq;
	unsigned int i;

	for (i = 0; i < __R2C2_RSQ_CNT; i++) {
		if (!res->cnt[i])
			continue;
		if (R2C2_S_RESEQ_INORDER + i == R2C2_S_RESEQ_DUP)
			r2c2_drop_n(node, R2C2_S_RESEQ_DUP, NULL, res->cnt[i]);
		else
			r2c2_stat_add(node, NULL, R2C2_S_RESEQ_INORDER + i,
				      res->cnt[i]);
	}
	if (res->held_delta)
		atomic_add(res->held_delta, &rn->held);
	if (res->sample_ns)
		r2c2_rsq_spread_add(&rn->spread, now, res->sample_ns);
}

/* Arm the flow's timer for @deadline unless it fires earlier anyway. */
static void r2c2_rsq_arm(struct r2c2_rsq_ent *e, u64 deadline)
{
	if (!deadline || (e->armed && e->armed <= deadline))
		return;
	e->armed = deadline;
	hrtimer_start(&e->timer, ns_to_ktime(deadline), HRTIMER_MODE_ABS_SOFT);
}

static enum hrtimer_restart r2c2_rsq_timer(struct hrtimer *t)
{
	struct r2c2_rsq_ent *e = container_of(t, struct r2c2_rsq_ent, timer);
	struct r2c2_node *node = e->node;
	struct r2c2_rsq_res res = {};
	struct sk_buff_head q;
	u64 now = 0, to;

	__skb_queue_head_init(&q);
	spin_lock(&e->lock);
	e->armed = 0;
	if (!e->dead && e->f.nheld) {
		now = ktime_get_ns();
		to = r2c2_rsq_cur_timeout(&node->rsq, now);
		r2c2_rsq_expire(&e->f, now, to, &q, &res);
		if (res.cnt[R2C2_RSQ_TIMEOUT])
			r2c2_event_reseq_timeout(node, e->src, e->id,
						 e->f.skip_lo, e->f.skip_hi,
						 res.cnt[R2C2_RSQ_TIMEOUT]);
		r2c2_rsq_deliver(node, &q);
		r2c2_rsq_arm(e, r2c2_rsq_deadline(&e->f, to));
	}
	spin_unlock(&e->lock);
	r2c2_rsq_account(node, e, &res, now);
	return HRTIMER_NORESTART;
}

/* A new flow; NULL when the node's flow limit is reached or on ENOMEM. */
static struct r2c2_rsq_ent *r2c2_rsq_insert(struct r2c2_node *node, u16 src,
					    u32 id)
{
	struct r2c2_rsq_node *rn = &node->rsq;
	struct r2c2_rsq_ent *e;

	spin_lock(&rn->lock);
	e = r2c2_rsq_find(rn, src, id);
	if (e || atomic_read(&rn->nflows) >= R2C2_RSQ_FLOWS_MAX)
		goto out;
	e = kzalloc(sizeof(*e), GFP_ATOMIC);
	if (!e)
		goto out;
	e->node = node;
	e->src = src;
	e->id = id;
	e->last_used = jiffies;
	spin_lock_init(&e->lock);
	hrtimer_init(&e->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	e->timer.function = r2c2_rsq_timer;
	hlist_add_head_rcu(&e->hnode, r2c2_rsq_bucket(rn, src, id));
	atomic_inc(&rn->nflows);
	if (!delayed_work_pending(&rn->gc_work))
		queue_delayed_work(system_wq, &rn->gc_work,
				   R2C2_RSQ_GC_INTERVAL);
out:
	spin_unlock(&rn->lock);
	return e;
}

static void r2c2_rsq_ring_alloc(struct r2c2_rsq_node *rn,
				struct r2c2_rsq_flow *f)
{
	if (atomic_inc_return(&rn->nrings) > R2C2_RSQ_RINGS_MAX) {
		atomic_dec(&rn->nrings);
		return;
	}
	f->ring = kcalloc(R2C2_RSQ_WIN, sizeof(*f->ring), GFP_ATOMIC);
	if (!f->ring)
		atomic_dec(&rn->nrings);
}

static void r2c2_rsq_pass(struct r2c2_node *node, struct sk_buff *skb,
			  enum r2c2_stat why)
{
	r2c2_stat_add(node, NULL, why, 1);
	this_cpu_inc(node->rsq.hist[0]);
	r2c2_deliver_eth(node, skb);
}

/**
 * r2c2_reseq_rcv() - deliver a data frame in its flow's sequence order
 * @node: the node
 * @skb: the frame, already turned into an Ethernet frame for r2c0; consumed
 * @src: its source node
 * @id: its flow identifier
 * @seq: its sequence number
 * @rproto: the routing protocol its sender used
 *
 * Frames of a flow without state whose sender routes by DOR (one path)
 * are delivered at once, without creating state; a DOR frame of a flow
 * that has state goes through the buffer, so it never overtakes held
 * frames of the same flow.
 *
 * Context: softirq, RCU read side.
 */
void r2c2_reseq_rcv(struct r2c2_node *node, struct sk_buff *skb, u16 src,
		    u32 id, u32 seq, u8 rproto)
{
	struct r2c2_rsq_node *rn = &node->rsq;
	struct r2c2_rsq_params p;
	struct r2c2_rsq_res res = {};
	struct r2c2_rsq_ent *e;
	struct sk_buff_head q;
	unsigned int depth;
	u64 now;

	if (!READ_ONCE(rn->enabled)) {
		r2c2_rsq_pass(node, skb, R2C2_S_RESEQ_DIRECT);
		return;
	}
	e = r2c2_rsq_find(rn, src, id);
	if (!e) {
		if (rproto == R2C2_RP_DOR) {
			r2c2_rsq_pass(node, skb, R2C2_S_RESEQ_DIRECT);
			return;
		}
		e = r2c2_rsq_insert(node, src, id);
		if (!e) {
			r2c2_rsq_pass(node, skb, R2C2_S_RESEQ_NOSTATE);
			return;
		}
	}
	spin_lock(&e->lock);
	if (unlikely(e->dead)) {
		spin_unlock(&e->lock);
		r2c2_rsq_pass(node, skb, R2C2_S_RESEQ_NOSTATE);
		return;
	}
	if (time_after(jiffies, e->last_used))
		e->last_used = jiffies;
	if (likely(r2c2_rsq_fast(&e->f, seq))) {
		r2c2_deliver_eth(node, skb);
		spin_unlock(&e->lock);
		r2c2_stat_add(node, NULL, R2C2_S_RESEQ_INORDER, 1);
		this_cpu_inc(rn->hist[0]);
		return;
	}
	if (!e->f.ring && r2c2_rsq_ahead(&e->f, seq))
		r2c2_rsq_ring_alloc(rn, &e->f);
	/* a frame held here must not keep the port's netdev, which may go
	 * away before the frame does: r2c2_deliver_eth() sets r2c0
	 */
	skb->dev = NULL;
	now = ktime_get_ns();
	p.timeout_ns = r2c2_rsq_cur_timeout(rn, now);
	p.flow_limit = READ_ONCE(rn->flow_limit);
	p.limit = READ_ONCE(rn->limit);
	p.global_held = (u32)max(atomic_read(&rn->held), 0);
	__skb_queue_head_init(&q);
	r2c2_rsq_rcv(&e->f, skb, seq, now, &p, &q, &res);
	r2c2_rsq_deliver(node, &q);
	r2c2_rsq_arm(e, r2c2_rsq_deadline(&e->f, p.timeout_ns));
	depth = e->f.nheld;
	if (depth > READ_ONCE(rn->maxdepth))
		WRITE_ONCE(rn->maxdepth, depth);
	spin_unlock(&e->lock);
	r2c2_rsq_account(node, e, &res, now);
	this_cpu_inc(rn->hist[depth]);
}

/* Release every flow's held packets in order (resequencing turned off). */
static void r2c2_rsq_flush_all(struct r2c2_node *node)
{
	struct r2c2_rsq_node *rn = &node->rsq;
	struct r2c2_rsq_ent *e;
	struct sk_buff_head q;
	unsigned int b;

	__skb_queue_head_init(&q);
	rcu_read_lock();
	for (b = 0; b < ARRAY_SIZE(rn->flows); b++)
		hlist_for_each_entry_rcu(e, &rn->flows[b], hnode) {
			struct r2c2_rsq_res res = {};

			spin_lock_bh(&e->lock);
			r2c2_rsq_flush(&e->f, &q, &res);
			r2c2_rsq_deliver(node, &q);
			spin_unlock_bh(&e->lock);
			r2c2_rsq_account(node, e, &res, 0);
		}
	rcu_read_unlock();
}

/* Free unlinked flows: cancel their timers, free held packets. */
static void r2c2_rsq_free_list(struct r2c2_node *node, struct list_head *dead)
{
	struct r2c2_rsq_node *rn = &node->rsq;
	struct r2c2_rsq_ent *e, *tmp;

	list_for_each_entry_safe(e, tmp, dead, gc) {
		list_del(&e->gc);
		hrtimer_cancel(&e->timer);
		if (e->f.nheld) {
			atomic_sub(e->f.nheld, &rn->held);
			r2c2_drop_n(node, R2C2_S_DROP_NO_NODE, NULL,
				    e->f.nheld);
		}
		if (e->f.ring)
			atomic_dec(&rn->nrings);
		r2c2_rsq_free(&e->f);
		kfree_rcu(e, rcu);
	}
}

static void r2c2_rsq_gc(struct work_struct *work)
{
	struct r2c2_rsq_node *rn = container_of(to_delayed_work(work),
						struct r2c2_rsq_node, gc_work);
	struct r2c2_node *node = container_of(rn, struct r2c2_node, rsq);
	struct r2c2_rsq_ent *e;
	struct hlist_node *tmp;
	unsigned long now = jiffies;
	LIST_HEAD(dead);
	unsigned int b;
	bool more;

	spin_lock_bh(&rn->lock);
	for (b = 0; b < ARRAY_SIZE(rn->flows); b++)
		hlist_for_each_entry_safe(e, tmp, &rn->flows[b], hnode) {
			spin_lock(&e->lock);
			if (!e->f.nheld && e->f.ring &&
			    time_after_eq(now, e->last_used + R2C2_RSQ_GC_INTERVAL)) {
				kfree(e->f.ring);
				e->f.ring = NULL;
				atomic_dec(&rn->nrings);
			}
			if (!e->f.nheld &&
			    time_after_eq(now, e->last_used + R2C2_RSQ_IDLE)) {
				e->dead = true;
				hlist_del_rcu(&e->hnode);
				atomic_dec(&rn->nflows);
				list_add(&e->gc, &dead);
			}
			spin_unlock(&e->lock);
		}
	more = atomic_read(&rn->nflows) > 0;
	spin_unlock_bh(&rn->lock);
	r2c2_rsq_free_list(node, &dead);
	if (more)
		queue_delayed_work(system_wq, &rn->gc_work,
				   R2C2_RSQ_GC_INTERVAL);
}

static void r2c2_rsq_defaults(struct r2c2_rsq_node *rn)
{
	WRITE_ONCE(rn->enabled, reseq);
	WRITE_ONCE(rn->timeout_us, R2C2_RSQ_TIMEOUT_US_DEFAULT);
	WRITE_ONCE(rn->flow_limit, R2C2_RSQ_FLOW_LIMIT_DEFAULT);
	WRITE_ONCE(rn->limit, R2C2_RSQ_LIMIT_DEFAULT);
}

/**
 * r2c2_reseq_init() - set up a node's resequencing (namespace init)
 * @node: the node
 *
 * Return: 0 or -ENOMEM.
 */
int r2c2_reseq_init(struct r2c2_node *node)
{
	struct r2c2_rsq_node *rn = &node->rsq;
	unsigned int b;

	rn->hist = __alloc_percpu(sizeof(u64) * (R2C2_RSQ_WIN + 1),
				  __alignof__(u64));
	if (!rn->hist)
		return -ENOMEM;
	r2c2_rsq_defaults(rn);
	spin_lock_init(&rn->lock);
	INIT_DELAYED_WORK(&rn->gc_work, r2c2_rsq_gc);
	for (b = 0; b < ARRAY_SIZE(rn->flows); b++)
		INIT_HLIST_HEAD(&rn->flows[b]);
	return 0;
}

/**
 * r2c2_reseq_stop() - forget every flow, free held packets, defaults back
 * @node: the node, no longer receiving (ports gone, synchronize_net())
 *
 * Held packets are freed and counted as drop_no_node.
 *
 * Context: process.
 */
void r2c2_reseq_stop(struct r2c2_node *node)
{
	struct r2c2_rsq_node *rn = &node->rsq;
	struct r2c2_rsq_ent *e;
	struct hlist_node *tmp;
	LIST_HEAD(dead);
	unsigned int b;

	cancel_delayed_work_sync(&rn->gc_work);
	spin_lock_bh(&rn->lock);
	for (b = 0; b < ARRAY_SIZE(rn->flows); b++)
		hlist_for_each_entry_safe(e, tmp, &rn->flows[b], hnode) {
			spin_lock(&e->lock);
			e->dead = true;
			spin_unlock(&e->lock);
			hlist_del_rcu(&e->hnode);
			atomic_dec(&rn->nflows);
			list_add(&e->gc, &dead);
		}
	spin_unlock_bh(&rn->lock);
	r2c2_rsq_free_list(node, &dead);
	cancel_delayed_work_sync(&rn->gc_work);
	r2c2_rsq_defaults(rn);
}

/**
 * r2c2_reseq_fini() - free what r2c2_reseq_init() allocated
 * @node: the node, stopped
 */
void r2c2_reseq_fini(struct r2c2_node *node)
{
	free_percpu(node->rsq.hist);
	node->rsq.hist = NULL;
}

/**
 * r2c2_reseq_nl_set() - apply NODE_SET's resequencing attributes
 * @node: the node
 * @a: the request's attributes (ranges checked by the policy)
 *
 * Turning resequencing off releases every held packet in order.
 *
 * Context: process, RTNL held.
 */
void r2c2_reseq_nl_set(struct r2c2_node *node, struct nlattr **a)
{
	struct r2c2_rsq_node *rn = &node->rsq;
	bool on;

	if (a[R2C2_A_RESEQ_TIMEOUT_US])
		WRITE_ONCE(rn->timeout_us,
			   nla_get_u32(a[R2C2_A_RESEQ_TIMEOUT_US]));
	if (a[R2C2_A_RESEQ_FLOW_LIMIT])
		WRITE_ONCE(rn->flow_limit,
			   nla_get_u32(a[R2C2_A_RESEQ_FLOW_LIMIT]));
	if (a[R2C2_A_RESEQ_LIMIT])
		WRITE_ONCE(rn->limit, nla_get_u32(a[R2C2_A_RESEQ_LIMIT]));
	if (!a[R2C2_A_RESEQ])
		return;
	on = nla_get_u8(a[R2C2_A_RESEQ]);
	WRITE_ONCE(rn->enabled, on);
	if (!on)
		r2c2_rsq_flush_all(node);
}

/**
 * r2c2_reseq_fill_node() - the node's resequencing settings and gauges
 * @msg: the message being built (NODE_GET, RESEQ_GET summary)
 * @node: the node
 *
 * Return: 0 or -EMSGSIZE.
 */
int r2c2_reseq_fill_node(struct sk_buff *msg, struct r2c2_node *node)
{
	struct r2c2_rsq_node *rn = &node->rsq;
	u64 to = r2c2_rsq_cur_timeout(rn, ktime_get_ns());

	if (nla_put_u8(msg, R2C2_A_RESEQ, READ_ONCE(rn->enabled)) ||
	    nla_put_u32(msg, R2C2_A_RESEQ_TIMEOUT_US, READ_ONCE(rn->timeout_us)) ||
	    nla_put_u32(msg, R2C2_A_RESEQ_FLOW_LIMIT, READ_ONCE(rn->flow_limit)) ||
	    nla_put_u32(msg, R2C2_A_RESEQ_LIMIT, READ_ONCE(rn->limit)) ||
	    nla_put_u32(msg, R2C2_A_RESEQ_HELD,
			(u32)max(atomic_read(&rn->held), 0)) ||
	    nla_put_u32(msg, R2C2_A_RESEQ_MAX_DEPTH, READ_ONCE(rn->maxdepth)) ||
	    nla_put_u32(msg, R2C2_A_RESEQ_FLOWS, atomic_read(&rn->nflows)) ||
	    nla_put_u32(msg, R2C2_A_RESEQ_TIMEOUT_EFF_US,
			(u32)div_u64(to, NSEC_PER_USEC)))
		return -EMSGSIZE;
	return 0;
}

/**
 * r2c2_reseq_reset() - zero the depth histogram and maximum (STATS_RESET)
 * @node: the node
 */
void r2c2_reseq_reset(struct r2c2_node *node)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(node->rsq.hist, cpu), 0,
		       sizeof(u64) * (R2C2_RSQ_WIN + 1));
	WRITE_ONCE(node->rsq.maxdepth, 0);
}

/* RESEQ_GET summary: settings, gauges, the RESEQ counters, histogram */
static int r2c2_rsq_fill_summary(struct sk_buff *msg, struct r2c2_node *node)
{
	u64 v[__R2C2_S_MAX], *hist;
	struct nlattr *nest, *a;
	unsigned int cpu, i;

	if (nla_put_u16(msg, R2C2_A_NODE_ADDR, READ_ONCE(node->addr)) ||
	    r2c2_reseq_fill_node(msg, node))
		return -EMSGSIZE;
	r2c2_stats_read(node->stats, v);
	nest = nla_nest_start(msg, R2C2_A_STATS);
	if (!nest)
		return -EMSGSIZE;
	for (i = R2C2_S_RESEQ_INORDER; i <= R2C2_S_RESEQ_NOSTATE; i++)
		if (nla_put_u64_64bit(msg, i, v[i], R2C2_S_PAD))
			return -EMSGSIZE;
	nla_nest_end(msg, nest);
	a = nla_reserve(msg, R2C2_A_RESEQ_HIST,
			sizeof(u64) * (R2C2_RSQ_WIN + 1));
	if (!a)
		return -EMSGSIZE;
	hist = nla_data(a);
	memset(hist, 0, sizeof(u64) * (R2C2_RSQ_WIN + 1));
	for_each_possible_cpu(cpu) {
		const u64 *h = per_cpu_ptr(node->rsq.hist, cpu);

		for (i = 0; i <= R2C2_RSQ_WIN; i++)
			hist[i] += READ_ONCE(h[i]);
	}
	return 0;
}

/* one flow of RESEQ_GET; RCU read side */
static int r2c2_rsq_fill_flow(struct sk_buff *msg, struct r2c2_rsq_ent *e)
{
	u64 cnt[__R2C2_RSQ_CNT];
	u32 next, held, maxdepth, age;
	struct nlattr *nest;
	unsigned int i;

	spin_lock_bh(&e->lock);
	memcpy(cnt, e->f.cnt, sizeof(cnt));
	next = e->f.next;
	held = e->f.nheld;
	maxdepth = e->f.maxdepth;
	age = jiffies_to_msecs(jiffies - e->last_used);
	spin_unlock_bh(&e->lock);
	if (nla_put_u16(msg, R2C2_A_FLOW_SRC, e->src) ||
	    nla_put_u32(msg, R2C2_A_FLOW_ID, e->id) ||
	    nla_put_u32(msg, R2C2_A_SEQ, next) ||
	    nla_put_u32(msg, R2C2_A_RESEQ_HELD, held) ||
	    nla_put_u32(msg, R2C2_A_RESEQ_MAX_DEPTH, maxdepth) ||
	    nla_put_u32(msg, R2C2_A_AGE_MS, age))
		return -EMSGSIZE;
	nest = nla_nest_start(msg, R2C2_A_STATS);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < __R2C2_RSQ_CNT; i++)
		if (nla_put_u64_64bit(msg, R2C2_S_RESEQ_INORDER + i, cnt[i],
				      R2C2_S_PAD))
			return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

static void *r2c2_rsq_put(struct sk_buff *skb, struct netlink_callback *cb,
			  const struct genl_family *family)
{
	return genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
			   cb->nlh->nlmsg_seq, family, NLM_F_MULTI,
			   R2C2_CMD_RESEQ_GET);
}

/**
 * r2c2_reseq_dump() - RESEQ_GET: a node summary, then one message a flow
 * @skb: the dump message
 * @cb: dump state: args[0] summary sent, args[1] bucket, args[2] position
 *	in the bucket
 * @family: the r2c2 family (its replies are built here)
 *
 * Return: the message length, or a negative errno.
 */
int r2c2_reseq_dump(struct sk_buff *skb, struct netlink_callback *cb,
		    const struct genl_family *family)
{
	struct r2c2_node *node = r2c2_node_get(sock_net(skb->sk));
	struct r2c2_rsq_node *rn = &node->rsq;
	unsigned long b, n, skip;
	struct r2c2_rsq_ent *e;
	void *hdr;

	if (!READ_ONCE(node->active)) {
		NL_SET_ERR_MSG(cb->extack, "no r2c2 node in this namespace");
		return -ENODEV;
	}
	if (!cb->args[0]) {
		hdr = r2c2_rsq_put(skb, cb, family);
		if (!hdr)
			return -EMSGSIZE;
		if (r2c2_rsq_fill_summary(skb, node)) {
			genlmsg_cancel(skb, hdr);
			return -EMSGSIZE;
		}
		genlmsg_end(skb, hdr);
		cb->args[0] = 1;
	}
	rcu_read_lock();
	for (b = cb->args[1]; b < ARRAY_SIZE(rn->flows); b++) {
		skip = cb->args[2];
		n = 0;
		hlist_for_each_entry_rcu(e, &rn->flows[b], hnode) {
			if (n++ < skip)
				continue;
			hdr = r2c2_rsq_put(skb, cb, family);
			if (!hdr)
				goto full;
			if (r2c2_rsq_fill_flow(skb, e)) {
				genlmsg_cancel(skb, hdr);
				goto full;
			}
			genlmsg_end(skb, hdr);
			cb->args[2] = n;
		}
		cb->args[2] = 0;
	}
full:
	rcu_read_unlock();
	cb->args[1] = b;
	return skb->len;
}
