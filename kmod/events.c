// SPDX-License-Identifier: GPL-2.0
/*
 * events.c - the node's drops and events: counters, tracepoints (system
 * "r2c2", trace.h) and, through the listener the netlink layer sets at
 * module init, generic netlink notifications, in one place.
 */
#include <linux/srcu.h>

#include "events.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

/*
 * The netlink layer's notifications: NULL until it registered them, and
 * again before it unregisters its family. A notification runs inside an
 * SRCU read-side section (the topology's may sleep), so once
 * r2c2_event_ops_set(NULL) returns none is under way and none starts.
 */
static const struct r2c2_event_ops __rcu *r2c2_event_ops;
DEFINE_STATIC_SRCU(r2c2_event_srcu);

/**
 * r2c2_event_ops_set() - who hears events beyond the tracepoints
 * @ops: the listener, or NULL for no one
 *
 * With @ops NULL, waits until no notification runs: the caller may then
 * take away what the old listener used (the generic netlink family).
 *
 * Context: process (module init and exit).
 */
void r2c2_event_ops_set(const struct r2c2_event_ops *ops)
{
	rcu_assign_pointer(r2c2_event_ops, ops);
	if (!ops)
		synchronize_srcu(&r2c2_event_srcu);
}

/* the listener, or NULL; within srcu_read_lock(&r2c2_event_srcu) */
static const struct r2c2_event_ops *r2c2_event_listener(void)
{
	return srcu_dereference(r2c2_event_ops, &r2c2_event_srcu);
}

static u16 r2c2_trace_addr(const struct r2c2_node *node)
{
	return READ_ONCE(node->addr);
}

static u8 r2c2_trace_port(const struct r2c2_port *port)
{
	return port ? port->num : R2C2_TRACE_NO_PORT;
}

/**
 * r2c2_drop() - drop a frame: count it, trace it, free it
 * @node: the node
 * @why: the drop counter
 * @port: the port the frame arrived on or was to leave by (counted there
 *	too), or NULL
 * @skb: the frame, freed; NULL when it is gone already
 *
 * Context: any.
 */
void r2c2_drop(struct r2c2_node *node, enum r2c2_stat why,
	       struct r2c2_port *port, struct sk_buff *skb)
{
	r2c2_stat_add(node, port, why, 1);
	trace_r2c2_drop(r2c2_trace_addr(node), r2c2_trace_port(port), why, 1,
			skb ? skb->len : 0);
	kfree_skb(skb);
}

/**
 * r2c2_drop_n() - count and trace frames dropped at once (freed by the
 *	caller)
 * @node: the node
 * @why: the drop counter
 * @port: the port they belong to, or NULL
 * @n: frames
 *
 * Context: any.
 */
void r2c2_drop_n(struct r2c2_node *node, enum r2c2_stat why,
		 struct r2c2_port *port, unsigned int n)
{
	r2c2_stat_add(node, port, why, n);
	trace_r2c2_drop(r2c2_trace_addr(node), r2c2_trace_port(port), why, n,
			0);
}

/**
 * r2c2_drops_sum() - the frames a node dropped, from its counters
 * @cnt: __R2C2_S_MAX counters (r2c2_stats_read())
 *
 * Every DROP_* counter and RESEQ_DUP; not BCAST_RETRY_FAIL, whose copies
 * DROP_TX_ERR counted already.
 *
 * Return: the sum.
 */
u64 r2c2_drops_sum(const u64 *cnt)
{
	u64 sum = cnt[R2C2_S_RESEQ_DUP];
	unsigned int i;

	for (i = R2C2_S_DROP_TRUNCATED; i <= R2C2_S_DROP_BAD_LSA; i++)
		sum += cnt[i];
	return sum + cnt[R2C2_S_DROP_TOO_BIG] + cnt[R2C2_S_DROP_OFFLOAD] +
	       cnt[R2C2_S_DROP_LSDB_FULL] + cnt[R2C2_S_DROP_UNKNOWN_SRC] +
	       cnt[R2C2_S_DROP_AUTH] + cnt[R2C2_S_DROP_REPLAY] +
	       cnt[R2C2_S_DROP_LLADDR];
}

/**
 * r2c2_event_flow() - a flow event sent or heard: trace, FLOW_EVENT
 * @node: the node
 * @src: the flow's source node
 * @evt: the event (wire format)
 * @sent: this node sent it (its own listeners hear it as the rack does)
 *
 * Context: any.
 */
void r2c2_event_flow(struct r2c2_node *node, u16 src,
		     const struct r2c2_flow_evt *evt, bool sent)
{
	const struct r2c2_event_ops *ops;
	int idx;

	trace_r2c2_flow(r2c2_trace_addr(node), src, ntohl(evt->flow),
			ntohs(evt->dst), evt->evt_prio >> 4, evt->weight,
			evt->evt_prio & 0xf, sent);
	idx = srcu_read_lock(&r2c2_event_srcu);
	ops = r2c2_event_listener();
	if (ops)
		ops->flow(node, src, evt);
	srcu_read_unlock(&r2c2_event_srcu, idx);
}

/**
 * r2c2_event_routes() - routing assignments sent or heard: trace,
 *	ROUTES_EVENT
 * @node: the node
 * @src: the node that broadcast them
 * @ent: entries (wire format)
 * @count: number of entries
 * @sent: this node sent them
 *
 * Context: any.
 */
void r2c2_event_routes(struct r2c2_node *node, u16 src,
		       const struct r2c2_route_ent *ent, unsigned int count,
		       bool sent)
{
	const struct r2c2_event_ops *ops;
	int idx;

	trace_r2c2_routes(r2c2_trace_addr(node), src, count, sent);
	idx = srcu_read_lock(&r2c2_event_srcu);
	ops = r2c2_event_listener();
	if (ops)
		ops->routes(node, src, ent, count);
	srcu_read_unlock(&r2c2_event_srcu, idx);
}

/**
 * r2c2_event_route_apply() - a routing assignment applied to a flow
 * @node: the node
 * @flow: flow identifier
 * @rproto: its routing protocol now
 * @remote: from a ROUTES frame
 * @ok: false when the flow table was full
 *
 * Context: any.
 */
void r2c2_event_route_apply(struct r2c2_node *node, u32 flow, u8 rproto,
			    bool remote, bool ok)
{
	trace_r2c2_route_apply(r2c2_trace_addr(node), flow, rproto, remote,
			       ok);
}

/**
 * r2c2_event_topo() - new tables: trace, TOPO_EVENT
 * @node: the node
 * @t: the new tables
 *
 * Context: process.
 */
void r2c2_event_topo(struct r2c2_node *node, const struct r2c2_tables *t)
{
	const struct r2c2_event_ops *ops;
	int idx;

	trace_r2c2_topo(r2c2_trace_addr(node), t->gen, t->n, t->links,
			t->topo_ok);
	idx = srcu_read_lock(&r2c2_event_srcu);
	ops = r2c2_event_listener();
	if (ops)
		ops->topo(node, t);
	srcu_read_unlock(&r2c2_event_srcu, idx);
}

/**
 * r2c2_event_reseq_timeout() - the resequencer gave gaps of a flow up
 * @node: the node
 * @src: the flow's source node
 * @flow: flow identifier
 * @skip_lo: first sequence number of the last gap given up
 * @skip_hi: one past its last
 * @released: held frames released by the timeouts
 *
 * Context: any.
 */
void r2c2_event_reseq_timeout(struct r2c2_node *node, u16 src, u32 flow,
			      u32 skip_lo, u32 skip_hi, unsigned int released)
{
	trace_r2c2_reseq_timeout(r2c2_trace_addr(node), src, flow, skip_lo,
				 skip_hi, released);
}
