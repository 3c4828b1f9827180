// SPDX-License-Identifier: GPL-2.0
/*
 * sch_r2c2.c - R2C2 per-flow rate limiter (SIGCOMM 2015, sections 3.3,
 * 3.5, 4.2): one rate limiter per R2C2 flow, rates set by the control
 * plane through the "r2c2" generic netlink family (r2c2.ko).
 *
 * Packets are classified by r2c2_flow_id() (the flow id r2c0 puts in
 * the data header). Each flow has a queue and an earliest departure time
 * (EDT); backlogged flows sit in an rb-tree ordered by that time and the
 * qdisc watchdog wakes the queue when the first is due, as in sch_fq:
 * O(log n) per packet, no scan over flows. Send times are grouped in
 * slots of batch_us (shorter at rates where two MTU-sized packets take
 * less, as sch_fq's quantum), as in a timing wheel: the packets of a slot
 * leave together at its start, one wakeup per slot rather than per
 * packet. Flows without packets wait on an idle list in the order they
 * went idle and are garbage-collected (flow finish) from its head.
 * skb->tstamp is never read: send times are the qdisc's own, so stale
 * timestamps of forwarded packets do no harm.
 *
 * A new flow's first packet raises a flow start (or, with announce_after
 * or announce_bytes set, the first packet at which the flow is that old or
 * has sent that much: short flows then ride the headroom at the initial
 * rate without a broadcast), garbage collection a finish of an announced
 * flow; they are queued for a work item, which hands them to r2c2.ko
 * (broadcast + netlink event) outside the qdisc lock.
 *
 * Rates: initial_rate until a rate is set, the set rate for lease_ms,
 * then safe_rate until the next set (the daemon may have died). A
 * backlogged flow's place in the rb-tree is its lease end when that
 * comes before its send time, so the watchdog wakes the queue then and
 * dequeue lapses the lease on time, whether or not the flow is due.
 */
#include <linux/if_arp.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/types.h>
#include <linux/version.h>
#include <linux/workqueue.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/dsfield.h>
#include <net/flow_dissector.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>

#include <r2c2/sch.h>
#include <r2c2/wire.h>

#include "sch_r2c2_core.h"

#define CREATE_TRACE_POINTS
#include "sch_r2c2_trace.h"

#ifndef MODULE_ALIAS_NET_SCH
#define MODULE_ALIAS_NET_SCH(id)	MODULE_ALIAS("net-sch-" id)
#endif

#define R2C2Q_EVQ		16384	/* events queued at most, power of 2 */
#define R2C2Q_GC_ENQ		2	/* flows collected per enqueue at most */
#define R2C2Q_GC_WORK		4096	/* flows collected per work run at most */
#define R2C2Q_TIMER_SLACK	(10 * NSEC_PER_USEC)

/**
 * struct r2c2q_conf - the options, as tc gives and shows them
 * @limit: packets queued at most
 * @flow_limit: packets queued per flow at most
 * @maxflows: flows at most
 * @buckets_log: log2 of the hash buckets
 * @lease_ms: rate lease, 0 = none
 * @idle_ms: finish timeout
 * @catchup_us: catch-up horizon
 * @batch_us: send-ahead horizon
 * @announce_ms: announce flows this old (0: no time threshold)
 * @announce_bytes: announce flows that sent this much (0: none)
 * @initial_rate: bit/s
 * @safe_rate: bit/s
 */
struct r2c2q_conf {
	u32 limit;
	u32 flow_limit;
	u32 maxflows;
	u32 buckets_log;
	u32 lease_ms;
	u32 idle_ms;
	u32 catchup_us;
	u32 batch_us;
	u32 announce_ms;
	u32 announce_bytes;
	u64 initial_rate;
	u64 safe_rate;
};

/**
 * struct r2c2q_evt - a flow start or finish waiting for the work item
 * @id: flow identifier
 * @dst: destination node
 * @type: R2C2_FE_START or R2C2_FE_FINISH
 * @weight: the flow's allocation weight
 * @prio: the flow's priority
 */
struct r2c2q_evt {
	u32 id;
	u16 dst;
	u8 type;
	u8 weight;
	u8 prio;
};

/**
 * struct r2c2q_sched - private data of the qdisc
 * @core: flow table and schedule
 * @conf: the options
 * @sch: the qdisc
 * @watchdog: wakes the queue when the first flow is due
 * @reg: registration with r2c2.ko
 * @registered: @reg is registered
 * @work: hands events to r2c2.ko, collects idle flows
 * @overflow: the shared flow of packets whose flow got no entry
 *	(r2c2q_overflow_init())
 * @evq: event ring (R2C2Q_EVQ)
 * @evbuf: the work item's copy of the ring
 * @ev_head: next event to write
 * @ev_tail: next event to read
 * @st: counters (tc -s); version, flows and flows_active filled on dump
 */
struct r2c2q_sched {
	struct r2c2q_core core;
	struct r2c2q_conf conf;
	struct Qdisc *sch;
	struct qdisc_watchdog watchdog;
	struct r2c2_sch reg;
	bool registered;
	struct delayed_work work;
	struct r2c2q_flow overflow;
	struct r2c2q_evt *evq;
	struct r2c2q_evt *evbuf;
	u32 ev_head;
	u32 ev_tail;
	struct tc_r2c2_xstats st;
};

static struct kmem_cache *r2c2q_cachep __read_mostly;

static struct netlink_range_validation r2c2q_limit_range __ro_after_init = {
	.min = 1, .max = R2C2_LIMIT_MAX,
};

static struct netlink_range_validation r2c2q_rate_range __ro_after_init = {
	.min = R2C2_RATE_MIN, .max = R2C2_RATE_MAX,
};

static struct netlink_range_validation r2c2q_lease_range __ro_after_init = {
	.min = 0, .max = R2C2_TIME_MS_MAX,
};

static struct netlink_range_validation r2c2q_idle_range __ro_after_init = {
	.min = 1, .max = R2C2_TIME_MS_MAX,
};

static struct netlink_range_validation r2c2q_buckets_range __ro_after_init = {
	.min = R2C2_BUCKETS_LOG_MIN, .max = R2C2_BUCKETS_LOG_MAX,
};

static struct netlink_range_validation r2c2q_maxflows_range __ro_after_init = {
	.min = 1, .max = R2C2_MAXFLOWS_MAX,
};

static struct netlink_range_validation r2c2q_catchup_range __ro_after_init = {
	.min = 0, .max = R2C2_CATCHUP_US_MAX,
};

static struct netlink_range_validation r2c2q_batch_range __ro_after_init = {
	.min = 0, .max = R2C2_BATCH_US_MAX,
};

static struct netlink_range_validation r2c2q_announce_ms_range __ro_after_init = {
	.min = 0, .max = R2C2_TIME_MS_MAX,
};

static struct netlink_range_validation r2c2q_announce_bytes_range __ro_after_init = {
	.min = 0, .max = R2C2_ANNOUNCE_BYTES_MAX,
};

static const struct nla_policy r2c2q_policy[TCA_R2C2_MAX + 1] = {
	[TCA_R2C2_LIMIT] = NLA_POLICY_FULL_RANGE(NLA_U32, &r2c2q_limit_range),
	[TCA_R2C2_FLOW_LIMIT] = NLA_POLICY_FULL_RANGE(NLA_U32,
						      &r2c2q_limit_range),
	[TCA_R2C2_INITIAL_RATE] = NLA_POLICY_FULL_RANGE(NLA_U64,
							&r2c2q_rate_range),
	[TCA_R2C2_SAFE_RATE] = NLA_POLICY_FULL_RANGE(NLA_U64,
						     &r2c2q_rate_range),
	[TCA_R2C2_LEASE_MS] = NLA_POLICY_FULL_RANGE(NLA_U32, &r2c2q_lease_range),
	[TCA_R2C2_IDLE_MS] = NLA_POLICY_FULL_RANGE(NLA_U32, &r2c2q_idle_range),
	[TCA_R2C2_BUCKETS_LOG] = NLA_POLICY_FULL_RANGE(NLA_U32,
						       &r2c2q_buckets_range),
	[TCA_R2C2_MAXFLOWS] = NLA_POLICY_FULL_RANGE(NLA_U32,
						    &r2c2q_maxflows_range),
	[TCA_R2C2_CATCHUP_US] = NLA_POLICY_FULL_RANGE(NLA_U32,
						      &r2c2q_catchup_range),
	[TCA_R2C2_PAD] = { .type = NLA_REJECT },
	[TCA_R2C2_BATCH_US] = NLA_POLICY_FULL_RANGE(NLA_U32, &r2c2q_batch_range),
	[TCA_R2C2_ANNOUNCE_MS] = NLA_POLICY_FULL_RANGE(NLA_U32,
						       &r2c2q_announce_ms_range),
	[TCA_R2C2_ANNOUNCE_BYTES] = NLA_POLICY_FULL_RANGE(NLA_U32,
							  &r2c2q_announce_bytes_range),
};

static const struct r2c2q_conf r2c2q_defaults = {
	.limit = 10000,
	.flow_limit = 100,
	.maxflows = 65536,
	.buckets_log = 14,
	.lease_ms = 2000,
	.idle_ms = 3000,
	.catchup_us = 2000,
	.batch_us = 200,
	.initial_rate = 1000000000ULL,
	.safe_rate = 100000000ULL,
};

/* Queue a flow event for the work item; qdisc lock held. */
static void r2c2q_event(struct r2c2q_sched *q, u8 type,
			const struct r2c2q_flow *f)
{
	struct r2c2q_evt *e;

	trace_sch_r2c2_flow(qdisc_dev(q->sch), type, f->id, f->dst, f->weight,
			    f->prio);
	if (q->ev_head - q->ev_tail >= R2C2Q_EVQ) {
		q->st.events_lost++;
		return;
	}
	e = &q->evq[q->ev_head++ & (R2C2Q_EVQ - 1)];
	e->id = f->id;
	e->dst = f->dst;
	e->type = type;
	e->weight = f->weight;
	e->prio = f->prio;
	if (q->ev_head - q->ev_tail == 1)
		mod_delayed_work(system_wq, &q->work, 0);
}

/*
 * r2c2q_lease_check(), traced: true when the flow's lease just ran out.
 * Qdisc lock held.
 */
static bool r2c2q_lease_lapse(struct r2c2q_sched *q, struct r2c2q_flow *f,
			      u64 now)
{
	if (!r2c2q_lease_check(&q->core, f, now))
		return false;
	trace_sch_r2c2_lease_lapse(qdisc_dev(q->sch), f->id, f->rate,
				   READ_ONCE(q->core.safe_rate));
	return true;
}

/* Collect up to @budget expired idle flows; qdisc lock held. */
static void r2c2q_gc(struct r2c2q_sched *q, u64 now, unsigned int budget,
		     bool all)
{
	struct r2c2q_flow *f;

	while (budget-- && (f = r2c2q_gc_pop(&q->core, now, all))) {
		if (f->state == R2C2_RS_PENDING) {
			/* never announced: no START went out, no FINISH owed */
			q->st.flows_unannounced++;
		} else if (f->flags & R2C2Q_F_STARTED) {
			q->st.flows_finished++;
			r2c2q_event(q, R2C2_FE_FINISH, f);
		}
		kmem_cache_free(r2c2q_cachep, f);
	}
}

/* how often the work item collects idle flows: a quarter of idle_ms */
static unsigned long r2c2q_work_delay(const struct r2c2q_sched *q)
{
	return msecs_to_jiffies(clamp_t(u32, READ_ONCE(q->conf.idle_ms) / 4,
					10, 1000));
}

/*
 * A flow entry for @id, or NULL when maxflows are tracked (after a
 * little garbage collection) or memory is short: the caller then uses
 * the overflow flow.
 */
static struct r2c2q_flow *r2c2q_flow_new(struct r2c2q_sched *q, u32 id,
					 u64 now)
{
	struct r2c2q_flow *f;

	if (q->core.flows >= q->conf.maxflows) {
		r2c2q_gc(q, now, 8, false);
		if (q->core.flows >= q->conf.maxflows) {
			q->st.overflow_maxflows++;
			return NULL;
		}
	}
	f = kmem_cache_zalloc(r2c2q_cachep, GFP_ATOMIC | __GFP_NOWARN);
	if (!f) {
		q->st.overflow_nomem++;
		return NULL;
	}
	r2c2q_insert(&q->core, f, id, now);
	/* the work item collects idle flows: it sleeps while there are none */
	if (q->core.flows == 1)
		queue_delayed_work(system_wq, &q->work, r2c2q_work_delay(q));
	return f;
}

/* DSCP of an IPv4 or IPv6 packet into @k (R2C2_CK_IP), else nothing */
static void r2c2q_key_dscp(struct sk_buff *skb, struct r2c2_class_key *k)
{
	int off = skb_network_offset(skb);
	const struct ipv6hdr *ip6;
	const struct iphdr *ip;
	union {
		struct iphdr ip;
		struct ipv6hdr ip6;
	} _h;

	switch (skb->protocol) {
	case htons(ETH_P_IP):
		ip = skb_header_pointer(skb, off, sizeof(_h.ip), &_h.ip);
		if (!ip || ip->version != 4)
			return;
		k->dscp = ipv4_get_dsfield(ip) >> 2;
		break;
	case htons(ETH_P_IPV6):
		ip6 = skb_header_pointer(skb, off, sizeof(_h.ip6), &_h.ip6);
		if (!ip6 || ip6->version != 6)
			return;
		k->dscp = ipv6_get_dsfield(ip6) >> 2;
		break;
	default:
		return;
	}
	k->has |= R2C2_CK_IP;
}

/*
 * A pending flow is old or big enough: raise its start. True when it
 * was announced: its lease started, so a backlogged one goes back in
 * order (r2c2q_announce()).
 */
static bool r2c2q_announce_check(struct r2c2q_sched *q, struct r2c2q_flow *f,
				 u64 now)
{
	if (!r2c2q_announce_due(&q->core, f, now))
		return false;
	r2c2q_announce(&q->core, f, now);
	q->st.flows_announced++;
	r2c2q_event(q, R2C2_FE_START, f);
	return true;
}

/*
 * First packet of a flow: learn what to announce; raise the start now,
 * or leave the flow pending until announce_after / announce_bytes.
 */
static void r2c2q_flow_start(struct r2c2q_sched *q, struct r2c2q_flow *f,
			     struct sk_buff *skb, u64 now)
{
	struct r2c2_class_key k = { .skb_prio = skb->priority };
	struct flow_keys keys;
	struct ethhdr _eth;
	const struct ethhdr *eth;
	u8 weight, prio;

	f->flags |= R2C2Q_F_STARTED;
	if (qdisc_dev(q->sch)->type == ARPHRD_ETHER) {
		eth = skb_header_pointer(skb, 0, sizeof(_eth), &_eth);
		if (eth)
			f->dst = r2c2_mac_to_addr(eth->h_dest);
	}
	if (skb_flow_dissect_flow_keys(skb, &keys, 0)) {
		f->sport = ntohs(keys.ports.src);
		f->dport = ntohs(keys.ports.dst);
		k.sport = f->sport;
		k.dport = f->dport;
		if (keys.ports.ports)
			k.has |= R2C2_CK_PORTS;
	}
	r2c2q_key_dscp(skb, &k);
	if (r2c2_class_lookup(dev_net(qdisc_dev(q->sch)), &k, &weight, &prio)) {
		f->weight = weight;
		f->prio = prio;
	}
	q->st.flows_started++;
	r2c2q_pend(f, now);
	r2c2q_announce_check(q, f, now);
}

static int r2c2q_enqueue(struct sk_buff *skb, struct Qdisc *sch,
			 struct sk_buff **to_free)
{
	struct r2c2q_sched *q = qdisc_priv(sch);
	u32 id = r2c2_flow_id(skb);
	struct r2c2q_flow *f;
	u64 now;

	if (unlikely(sch->q.qlen >= sch->limit)) {
		q->st.drops_limit++;
		return qdisc_drop(skb, sch, to_free);
	}
	now = ktime_get_ns();
	f = r2c2q_lookup(&q->core, id);
	if (unlikely(!f)) {
		f = r2c2q_flow_new(q, id, now);
		if (unlikely(!f)) {
			/* no entry of its own: the shared flow, limit only */
			f = &q->overflow;
			goto queue;
		}
	}
	if (unlikely(!(f->flags & R2C2Q_F_STARTED)))
		r2c2q_flow_start(q, f, skb, now);
	else if (unlikely(f->state == R2C2_RS_PENDING) &&
		 r2c2q_announce_check(q, f, now) && f->qlen)
		r2c2q_requeue(&q->core, f);
	if (unlikely(f->qlen >= q->conf.flow_limit)) {
		f->drops++;
		q->st.drops_flow_limit++;
		return qdisc_drop(skb, sch, to_free);
	}
queue:
	skb->next = NULL;
	if (f->qlen) {
		f->tail->next = skb;
	} else {
		f->head = skb;
		/* no credit for the idle time: catchup is for late wakeups */
		if ((s64)(f->time_next - now) < 0)
			f->time_next = now;
		r2c2q_activate(&q->core, f);
	}
	f->tail = skb;
	f->qlen++;
	f->backlog += qdisc_pkt_len(skb);
	f->last_active = now;
	qdisc_qstats_backlog_inc(sch, skb);
	sch->q.qlen++;
	r2c2q_gc(q, now, R2C2Q_GC_ENQ, false);
	return NET_XMIT_SUCCESS;
}

/* Unlink the head packet of a backlogged flow, without charging it. */
static struct sk_buff *r2c2q_flow_pop(struct r2c2q_sched *q,
				      struct r2c2q_flow *f)
{
	struct sk_buff *skb = f->head;

	f->head = skb->next;
	if (!f->head)
		f->tail = NULL;
	skb_mark_not_on_list(skb);
	f->qlen--;
	f->backlog -= qdisc_pkt_len(skb);
	qdisc_qstats_backlog_dec(q->sch, skb);
	q->sch->q.qlen--;
	return skb;
}

static struct sk_buff *r2c2q_dequeue(struct Qdisc *sch)
{
	struct r2c2q_sched *q = qdisc_priv(sch);
	struct r2c2q_flow *f;
	struct sk_buff *skb;
	u64 now;

	f = r2c2q_first(&q->core);
	if (!f)
		return NULL;
	now = ktime_get_ns();
	/*
	 * A flow whose lease ends before its next send comes first at its
	 * lease end (r2c2q_key()), due or not: it falls to the safe rate,
	 * its wait rescaled, and takes its new place. A lease lapses once:
	 * the loop ends.
	 */
	while (unlikely(r2c2q_lease_lapse(q, f, now))) {
		r2c2q_requeue(&q->core, f);
		f = r2c2q_first(&q->core);
	}
	if (!r2c2q_due(&q->core, f, now)) {
		q->st.throttled++;
		qdisc_watchdog_schedule_range_ns(&q->watchdog,
						 r2c2q_wake(&q->core, f),
						 R2C2Q_TIMER_SLACK);
		return NULL;
	}
	skb = r2c2q_flow_pop(q, f);
	r2c2q_charge(&q->core, f, qdisc_pkt_len(skb), now);
	if (unlikely(f->state == R2C2_RS_PENDING))
		r2c2q_announce_check(q, f, now);
	if (f->qlen)
		r2c2q_requeue(&q->core, f);
	else
		r2c2q_deactivate(&q->core, f, now);
	qdisc_bstats_update(sch, skb);
	return skb;
}

/*
 * Free every queued packet; flows stay (idle). rtnl_kfree_skbs() takes a
 * list's head and tail: one packet is the list (skb, skb).
 */
static void r2c2q_purge(struct r2c2q_sched *q)
{
	struct r2c2q_flow *f;
	struct sk_buff *skb;
	u64 now = ktime_get_ns();

	while ((f = r2c2q_first(&q->core))) {
		while (f->qlen) {
			skb = r2c2q_flow_pop(q, f);
			rtnl_kfree_skbs(skb, skb);
		}
		r2c2q_deactivate(&q->core, f, now);
	}
}

static void r2c2q_reset(struct Qdisc *sch)
{
	struct r2c2q_sched *q = qdisc_priv(sch);

	r2c2q_purge(q);
	sch->q.qlen = 0;
	sch->qstats.backlog = 0;
}

static int r2c2q_parse(struct nlattr *opt, struct r2c2q_conf *cf,
		       struct netlink_ext_ack *extack)
{
	struct nlattr *tb[TCA_R2C2_MAX + 1];
	int err;

	err = __nla_parse(tb, TCA_R2C2_MAX, nla_data(opt), nla_len(opt),
			  r2c2q_policy, NL_VALIDATE_STRICT, extack);
	if (err)
		return err;
	if (tb[TCA_R2C2_LIMIT])
		cf->limit = nla_get_u32(tb[TCA_R2C2_LIMIT]);
	if (tb[TCA_R2C2_FLOW_LIMIT])
		cf->flow_limit = nla_get_u32(tb[TCA_R2C2_FLOW_LIMIT]);
	if (tb[TCA_R2C2_INITIAL_RATE])
		cf->initial_rate = nla_get_u64(tb[TCA_R2C2_INITIAL_RATE]);
	if (tb[TCA_R2C2_SAFE_RATE])
		cf->safe_rate = nla_get_u64(tb[TCA_R2C2_SAFE_RATE]);
	if (tb[TCA_R2C2_LEASE_MS])
		cf->lease_ms = nla_get_u32(tb[TCA_R2C2_LEASE_MS]);
	if (tb[TCA_R2C2_IDLE_MS])
		cf->idle_ms = nla_get_u32(tb[TCA_R2C2_IDLE_MS]);
	if (tb[TCA_R2C2_BUCKETS_LOG])
		cf->buckets_log = nla_get_u32(tb[TCA_R2C2_BUCKETS_LOG]);
	if (tb[TCA_R2C2_MAXFLOWS])
		cf->maxflows = nla_get_u32(tb[TCA_R2C2_MAXFLOWS]);
	if (tb[TCA_R2C2_CATCHUP_US])
		cf->catchup_us = nla_get_u32(tb[TCA_R2C2_CATCHUP_US]);
	if (tb[TCA_R2C2_BATCH_US])
		cf->batch_us = nla_get_u32(tb[TCA_R2C2_BATCH_US]);
	if (tb[TCA_R2C2_ANNOUNCE_MS])
		cf->announce_ms = nla_get_u32(tb[TCA_R2C2_ANNOUNCE_MS]);
	if (tb[TCA_R2C2_ANNOUNCE_BYTES])
		cf->announce_bytes = nla_get_u32(tb[TCA_R2C2_ANNOUNCE_BYTES]);
	if (cf->flow_limit > cf->limit) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_R2C2_FLOW_LIMIT] ?:
				    tb[TCA_R2C2_LIMIT],
				    "flow_limit must not exceed limit");
		return -EINVAL;
	}
	return 0;
}

static struct hlist_head *r2c2q_hash_alloc(u32 log)
{
	return kvcalloc(1UL << log, sizeof(struct hlist_head), GFP_KERNEL);
}

/* Apply @cf; qdisc lock held (or the qdisc not running yet). */
static void r2c2q_apply(struct r2c2q_sched *q, const struct r2c2q_conf *cf)
{
	struct r2c2q_core *c = &q->core;

	WRITE_ONCE(q->sch->limit, cf->limit);
	WRITE_ONCE(q->conf.limit, cf->limit);
	WRITE_ONCE(q->conf.flow_limit, cf->flow_limit);
	WRITE_ONCE(q->conf.maxflows, cf->maxflows);
	WRITE_ONCE(q->conf.lease_ms, cf->lease_ms);
	WRITE_ONCE(q->conf.idle_ms, cf->idle_ms);
	WRITE_ONCE(q->conf.catchup_us, cf->catchup_us);
	WRITE_ONCE(q->conf.batch_us, cf->batch_us);
	WRITE_ONCE(q->conf.announce_ms, cf->announce_ms);
	WRITE_ONCE(q->conf.announce_bytes, cf->announce_bytes);
	WRITE_ONCE(q->conf.initial_rate, cf->initial_rate);
	WRITE_ONCE(q->conf.safe_rate, cf->safe_rate);
	WRITE_ONCE(c->initial_rate, cf->initial_rate);
	WRITE_ONCE(c->safe_rate, cf->safe_rate);
	c->lease_ns = (u64)cf->lease_ms * NSEC_PER_MSEC;
	c->idle_ns = (u64)cf->idle_ms * NSEC_PER_MSEC;
	c->catchup_ns = (u64)cf->catchup_us * NSEC_PER_USEC;
	c->batch_ns = (u64)cf->batch_us * NSEC_PER_USEC;
	/* as sch_fq's quantum; set on init and change, like fq's */
	c->quantum = 2 * psched_mtu(qdisc_dev(q->sch));
	c->announce_ns = (u64)cf->announce_ms * NSEC_PER_MSEC;
	c->announce_bytes = cf->announce_bytes;
}

static int r2c2q_change(struct Qdisc *sch, struct nlattr *opt,
			struct netlink_ext_ack *extack)
{
	struct r2c2q_sched *q = qdisc_priv(sch);
	struct hlist_head *hash = NULL, *old = NULL;
	unsigned int dropped = 0, dropped_len = 0;
	struct r2c2q_conf cf = q->conf;
	struct r2c2q_flow *f;
	struct sk_buff *skb;
	int err;

	if (!opt)
		return 0;
	err = r2c2q_parse(opt, &cf, extack);
	if (err)
		return err;
	if (cf.buckets_log != q->conf.buckets_log) {
		hash = r2c2q_hash_alloc(cf.buckets_log);
		if (!hash) {
			NL_SET_ERR_MSG(extack, "no memory for the flow hash");
			return -ENOMEM;
		}
	}
	sch_tree_lock(sch);
	r2c2q_apply(q, &cf);
	if (hash) {
		old = r2c2q_rehash(&q->core, hash, cf.buckets_log);
		WRITE_ONCE(q->conf.buckets_log, cf.buckets_log);
	}
	while (sch->q.qlen > sch->limit && (f = r2c2q_first(&q->core))) {
		skb = r2c2q_flow_pop(q, f);
		if (!f->qlen)
			r2c2q_deactivate(&q->core, f, ktime_get_ns());
		f->drops++;
		q->st.drops_limit++;
		dropped++;
		dropped_len += qdisc_pkt_len(skb);
		qdisc_qstats_drop(sch);
		rtnl_kfree_skbs(skb, skb);
	}
	if (dropped)
		qdisc_tree_reduce_backlog(sch, dropped, dropped_len);
	sch_tree_unlock(sch);
	kvfree(old);
	return 0;
}

/*
 * Lock the qdisc tree we belong to from process context without RTNL
 * (sch_tree_lock() asserts RTNL): rate pushes, dumps, the work item.
 * The root is re-read under its lock: a graft swaps it under the old
 * root's lock. Caller in an RCU read-side section.
 */
static spinlock_t *r2c2q_tree_lock(struct Qdisc *sch)
{
	struct Qdisc *root;
	spinlock_t *lock;	/* the tree's root lock */

	if (sch->flags & TCQ_F_MQROOT) {
		lock = qdisc_lock(sch);
		spin_lock_bh(lock);
		return lock;
	}
	for (;;) {
		root = rcu_dereference(sch->dev_queue->qdisc_sleeping);
		lock = qdisc_lock(root);
		spin_lock_bh(lock);
		if (root == rcu_access_pointer(sch->dev_queue->qdisc_sleeping))
			return lock;
		spin_unlock_bh(lock);
	}
}

static void r2c2q_op_rate_set(void *priv, struct r2c2_rate_ent *ent,
			      unsigned int n)
{
	struct r2c2q_sched *q = priv;
	struct Qdisc *sch = q->sch;
	spinlock_t *lock;	/* the tree's root lock */
	unsigned int i, unknown = 0;
	struct r2c2q_flow *f;
	u64 now;

	rcu_read_lock();
	lock = r2c2q_tree_lock(sch);
	now = ktime_get_ns();
	for (i = 0; i < n; i++) {
		/*
		 * A flow the qdisc does not know has finished (or never
		 * started): creating it would make a ghost that no packet
		 * starts and whose finish nobody hears. Skip it, and a
		 * pending flow too: the rack has not heard of it yet.
		 */
		f = r2c2q_lookup(&q->core, ent[i].id);
		if (!f || f->state == R2C2_RS_PENDING) {
			unknown++;
			continue;
		}
		r2c2q_rate_set(&q->core, f, ent[i].rate, now);
		ent[i].applied = true;
		trace_sch_r2c2_rate_set(qdisc_dev(sch), f->id, ent[i].rate,
					READ_ONCE(q->conf.lease_ms));
	}
	q->st.rates_unknown += unknown;
	/* a flow may be due earlier now: run dequeue, it re-arms the timer */
	if (q->core.active)
		qdisc_watchdog_schedule_ns(&q->watchdog, now);
	spin_unlock_bh(lock);
	rcu_read_unlock();
}

/*
 * Fill @fi; a flow whose lease ran out falls back to the safe rate here
 * (qdisc lock held), as dequeue would at its lease end for a backlogged
 * one, or at its next packet for an idle one: true when a backlogged
 * one did, whose place in the schedule moved, so the caller re-arms the
 * watchdog.
 */
static bool r2c2q_flow_info(struct r2c2q_sched *q, struct r2c2q_flow *f,
			    u64 now, struct r2c2_qflow_info *fi)
{
	bool moved = r2c2q_lease_lapse(q, f, now) && f->qlen;

	if (moved)
		r2c2q_requeue(&q->core, f);
	fi->id = f->id;
	fi->dst = f->dst;
	fi->state = f->state;
	fi->sport = f->sport;
	fi->dport = f->dport;
	fi->weight = f->weight;
	fi->prio = f->prio;
	fi->rate = r2c2q_rate(&q->core, f);
	fi->qlen = f->qlen;
	fi->backlog = f->backlog;
	fi->packets = f->packets;
	fi->bytes = f->bytes;
	fi->drops = f->drops;
	fi->age_ms = (u32)min_t(u64, div_u64(now - f->last_active,
					     NSEC_PER_MSEC), U32_MAX);
	fi->lease_ms = 0;
	if ((f->flags & R2C2Q_F_LEASE) && (s64)(f->lease_end - now) > 0)
		fi->lease_ms = (u32)div_u64(f->lease_end - now, NSEC_PER_MSEC);
	return moved;
}

struct r2c2q_dump {
	struct r2c2q_sched *q;
	u64 now;
	bool moved;
	r2c2_qflow_fill_t fill;
	void *arg;
};

static int r2c2q_dump_flow(struct r2c2q_flow *f, void *arg)
{
	struct r2c2q_dump *d = arg;
	struct r2c2_qflow_info fi;

	d->moved |= r2c2q_flow_info(d->q, f, d->now, &fi);
	return d->fill(d->arg, &fi);
}

/*
 * At most R2C2_SCH_WALK_BUDGET buckets and flows a call (-EAGAIN: more
 * to come; r2c2q_walk()), so that the root lock is not held, with bottom
 * halves off, across a whole table of up to 2^20 buckets.
 */
static int r2c2q_op_qflow_walk(void *priv, unsigned long *cursor,
			       r2c2_qflow_fill_t fill, void *arg)
{
	struct r2c2q_dump d = { .q = priv, .fill = fill, .arg = arg };
	spinlock_t *lock;	/* the tree's root lock */
	int err;

	rcu_read_lock();
	lock = r2c2q_tree_lock(d.q->sch);
	d.now = ktime_get_ns();
	err = r2c2q_walk(&d.q->core, cursor, R2C2_SCH_WALK_BUDGET,
			 r2c2q_dump_flow, &d);
	/* a flow that fell back may be due earlier now */
	if (d.moved)
		qdisc_watchdog_schedule_ns(&d.q->watchdog, d.now);
	spin_unlock_bh(lock);
	rcu_read_unlock();
	return err;
}

static const struct r2c2_sch_ops r2c2q_sch_ops = {
	.rate_set = r2c2q_op_rate_set,
	.qflow_walk = r2c2q_op_qflow_walk,
};

static void r2c2q_work(struct work_struct *work)
{
	struct r2c2q_sched *q = container_of(to_delayed_work(work),
					     struct r2c2q_sched, work);
	struct Qdisc *sch = q->sch;
	spinlock_t *lock;	/* the tree's root lock */
	unsigned int i, n = 0;
	bool more, flows;
	u64 now;

	rcu_read_lock();
	lock = r2c2q_tree_lock(sch);
	now = ktime_get_ns();
	q->st.work_runs++;
	r2c2q_gc(q, now, R2C2Q_GC_WORK, false);
	while (q->ev_tail != q->ev_head && n < R2C2Q_EVQ)
		q->evbuf[n++] = q->evq[q->ev_tail++ & (R2C2Q_EVQ - 1)];
	more = q->ev_tail != q->ev_head;
	if (!more) {
		struct r2c2q_flow *f;

		f = list_first_entry_or_null(&q->core.idle_list,
					     struct r2c2q_flow, idle);
		more = f && now - f->last_active >= q->core.idle_ns;
	}
	/*
	 * With no flow left there is nothing to collect: sleep until the
	 * next new flow (r2c2q_flow_new()) or event (r2c2q_event()) queues
	 * the work again. One that comes after the unlock finds the work
	 * running, not pending, and queues it.
	 */
	flows = q->core.flows;
	spin_unlock_bh(lock);
	rcu_read_unlock();

	for (i = 0; i < n; i++)
		r2c2_sch_flow_event(&q->reg, q->evbuf[i].type, q->evbuf[i].id,
				    q->evbuf[i].dst, q->evbuf[i].weight,
				    q->evbuf[i].prio);
	if (more)
		queue_delayed_work(system_wq, &q->work, 0);
	else if (flows)
		queue_delayed_work(system_wq, &q->work, r2c2q_work_delay(q));
}

static int r2c2q_init(struct Qdisc *sch, struct nlattr *opt,
		      struct netlink_ext_ack *extack)
{
	struct r2c2q_sched *q = qdisc_priv(sch);
	struct r2c2q_conf cf = r2c2q_defaults;
	struct hlist_head *hash;
	int err;

	q->sch = sch;
	INIT_DELAYED_WORK(&q->work, r2c2q_work);
	qdisc_watchdog_init_clockid(&q->watchdog, sch, CLOCK_MONOTONIC);
	r2c2q_core_init(&q->core, NULL, 0);
	q->st.version = TC_R2C2_XSTATS_VERSION;
	if (opt) {
		err = r2c2q_parse(opt, &cf, extack);
		if (err)
			return err;
	}
	hash = r2c2q_hash_alloc(cf.buckets_log);
	q->evq = kvcalloc(R2C2Q_EVQ, sizeof(*q->evq), GFP_KERNEL);
	q->evbuf = kvcalloc(R2C2Q_EVQ, sizeof(*q->evbuf), GFP_KERNEL);
	if (!hash || !q->evq || !q->evbuf) {
		kvfree(hash);
		NL_SET_ERR_MSG(extack, "no memory for the flow table");
		return -ENOMEM;
	}
	r2c2q_core_init(&q->core, hash, cf.buckets_log);
	r2c2q_overflow_init(&q->core, &q->overflow, ktime_get_ns());
	q->conf.buckets_log = cf.buckets_log;
	r2c2q_apply(q, &cf);
	q->reg.dev = qdisc_dev(sch);
	q->reg.ops = &r2c2q_sch_ops;
	q->reg.priv = q;
	r2c2_sch_register(&q->reg);
	q->registered = true;
	queue_delayed_work(system_wq, &q->work, HZ / 10);
	return 0;
}

static void r2c2q_destroy(struct Qdisc *sch)
{
	struct r2c2q_sched *q = qdisc_priv(sch);
	struct r2c2q_flow *f;

	if (q->registered)
		r2c2_sch_unregister(&q->reg);
	q->registered = false;
	cancel_delayed_work_sync(&q->work);
	qdisc_watchdog_cancel(&q->watchdog);
	r2c2q_purge(q);
	/* no events: the work item is gone */
	while ((f = r2c2q_gc_pop(&q->core, 0, true)))
		kmem_cache_free(r2c2q_cachep, f);
	kvfree(q->core.hash);
	q->core.hash = NULL;
	kvfree(q->evq);
	kvfree(q->evbuf);
}

static int r2c2q_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct r2c2q_sched *q = qdisc_priv(sch);
	struct nlattr *opts;

	opts = nla_nest_start_noflag(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;
	if (nla_put_u32(skb, TCA_R2C2_LIMIT, READ_ONCE(q->conf.limit)) ||
	    nla_put_u32(skb, TCA_R2C2_FLOW_LIMIT,
			READ_ONCE(q->conf.flow_limit)) ||
	    nla_put_u64_64bit(skb, TCA_R2C2_INITIAL_RATE,
			      READ_ONCE(q->conf.initial_rate), TCA_R2C2_PAD) ||
	    nla_put_u64_64bit(skb, TCA_R2C2_SAFE_RATE,
			      READ_ONCE(q->conf.safe_rate), TCA_R2C2_PAD) ||
	    nla_put_u32(skb, TCA_R2C2_LEASE_MS, READ_ONCE(q->conf.lease_ms)) ||
	    nla_put_u32(skb, TCA_R2C2_IDLE_MS, READ_ONCE(q->conf.idle_ms)) ||
	    nla_put_u32(skb, TCA_R2C2_BUCKETS_LOG,
			READ_ONCE(q->conf.buckets_log)) ||
	    nla_put_u32(skb, TCA_R2C2_MAXFLOWS, READ_ONCE(q->conf.maxflows)) ||
	    nla_put_u32(skb, TCA_R2C2_CATCHUP_US,
			READ_ONCE(q->conf.catchup_us)) ||
	    nla_put_u32(skb, TCA_R2C2_BATCH_US, READ_ONCE(q->conf.batch_us)) ||
	    nla_put_u32(skb, TCA_R2C2_ANNOUNCE_MS,
			READ_ONCE(q->conf.announce_ms)) ||
	    nla_put_u32(skb, TCA_R2C2_ANNOUNCE_BYTES,
			READ_ONCE(q->conf.announce_bytes)))
		goto nla_put_failure;
	return nla_nest_end(skb, opts);

nla_put_failure:
	nla_nest_cancel(skb, opts);
	return -EMSGSIZE;
}

static int r2c2q_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	struct r2c2q_sched *q = qdisc_priv(sch);
	struct tc_r2c2_xstats st;

	sch_tree_lock(sch);
	st = q->st;
	st.flows = q->core.flows;
	st.flows_active = q->core.active;
	st.rate_updates = q->core.rate_updates;
	st.leases_expired = q->core.leases_expired;
	sch_tree_unlock(sch);
	return gnet_stats_copy_app(d, &st, sizeof(st));
}

static struct Qdisc_ops r2c2q_qdisc_ops __read_mostly = {
	.id		= "r2c2",
	.priv_size	= sizeof(struct r2c2q_sched),
	.enqueue	= r2c2q_enqueue,
	.dequeue	= r2c2q_dequeue,
	.peek		= qdisc_peek_dequeued,
	.init		= r2c2q_init,
	.reset		= r2c2q_reset,
	.destroy	= r2c2q_destroy,
	.change		= r2c2q_change,
	.dump		= r2c2q_dump,
	.dump_stats	= r2c2q_dump_stats,
	.owner		= THIS_MODULE,
};

static int __init r2c2q_module_init(void)
{
	int err;

	BUILD_BUG_ON(sizeof(struct r2c2q_flow) > 128);
	BUILD_BUG_ON(R2C2_BUCKETS_LOG_MAX > 20);
	r2c2q_cachep = kmem_cache_create("r2c2q_flow", sizeof(struct r2c2q_flow),
					 0, SLAB_HWCACHE_ALIGN, NULL);
	if (!r2c2q_cachep)
		return -ENOMEM;
	err = register_qdisc(&r2c2q_qdisc_ops);
	if (err)
		kmem_cache_destroy(r2c2q_cachep);
	return err;
}

static void __exit r2c2q_module_exit(void)
{
	unregister_qdisc(&r2c2q_qdisc_ops);
	kmem_cache_destroy(r2c2q_cachep);
}

module_init(r2c2q_module_init);
module_exit(r2c2q_module_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("R2C2 per-flow rate limiter, rates set by the r2c2 control plane");
MODULE_AUTHOR("r2c2 project");
MODULE_ALIAS_NET_SCH("r2c2");
