/* SPDX-License-Identifier: GPL-2.0 */
/*
 * events.h - what r2c2.ko tells about itself: drops (a counter and a
 * tracepoint) and events (a tracepoint and, where userspace listens, a
 * generic netlink notification). Every layer reports here; the netlink
 * layer on top hears the events through the r2c2_event_ops it sets at
 * module init (and clears first at exit), so nothing below it calls it.
 */
#ifndef _R2C2_EVENTS_H
#define _R2C2_EVENTS_H

#include "r2c2.h"

/* port number of the tracepoints for "no port" */
#define R2C2_TRACE_NO_PORT	0xff

/**
 * struct r2c2_event_ops - the notifications of events (netlink.c)
 * @topo: new tables (process context)
 * @flow: a flow event sent or heard (any context)
 * @routes: routing assignments sent or heard (any context)
 */
struct r2c2_event_ops {
	void (*topo)(struct r2c2_node *node, const struct r2c2_tables *t);
	void (*flow)(struct r2c2_node *node, u16 src,
		     const struct r2c2_flow_evt *evt);
	void (*routes)(struct r2c2_node *node, u16 src,
		       const struct r2c2_route_ent *ent, unsigned int count);
};

void r2c2_event_ops_set(const struct r2c2_event_ops *ops);

void r2c2_drop(struct r2c2_node *node, enum r2c2_stat why,
	       struct r2c2_port *port, struct sk_buff *skb);
void r2c2_drop_n(struct r2c2_node *node, enum r2c2_stat why,
		 struct r2c2_port *port, unsigned int n);
void r2c2_event_flow(struct r2c2_node *node, u16 src,
		     const struct r2c2_flow_evt *evt, bool sent);
void r2c2_event_routes(struct r2c2_node *node, u16 src,
		       const struct r2c2_route_ent *ent, unsigned int count,
		       bool sent);
void r2c2_event_route_apply(struct r2c2_node *node, u32 flow, u8 rproto,
			    bool remote, bool ok);
void r2c2_event_topo(struct r2c2_node *node, const struct r2c2_tables *t);
void r2c2_event_reseq_timeout(struct r2c2_node *node, u16 src, u32 flow,
			      u32 skip_lo, u32 skip_hi, unsigned int released);
u64 r2c2_drops_sum(const u64 *cnt);

#endif /* _R2C2_EVENTS_H */
