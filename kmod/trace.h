/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.h - tracepoints of r2c2.ko (system "r2c2"). Fired only from
 * events.c, which defines them (CREATE_TRACE_POINTS).
 *
 * Drop reasons print as the counter names of r2c2ctl (drop_csum, ...).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM r2c2

#if !defined(_R2C2_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _R2C2_TRACE_H

#include <linux/tracepoint.h>
#include <linux/r2c2.h>

#define R2C2_TRACE_DROPS					\
	EM(R2C2_S_DROP_TRUNCATED, "drop_truncated")		\
	EM(R2C2_S_DROP_VERSION, "drop_version")			\
	EM(R2C2_S_DROP_CSUM, "drop_csum")			\
	EM(R2C2_S_DROP_RLEN, "drop_rlen")			\
	EM(R2C2_S_DROP_RIDX, "drop_ridx")			\
	EM(R2C2_S_DROP_NO_PORT, "drop_no_port")			\
	EM(R2C2_S_DROP_PORT_DOWN, "drop_port_down")		\
	EM(R2C2_S_DROP_LOOP, "drop_loop")			\
	EM(R2C2_S_DROP_DUP, "drop_dup")				\
	EM(R2C2_S_DROP_NO_ROUTE, "drop_no_route")		\
	EM(R2C2_S_DROP_NO_NODE, "drop_no_node")			\
	EM(R2C2_S_DROP_TX_ERR, "drop_tx_err")			\
	EM(R2C2_S_DROP_NOMEM, "drop_nomem")			\
	EM(R2C2_S_DROP_BAD_LSA, "drop_bad_lsa")			\
	EM(R2C2_S_RESEQ_DUP, "reseq_dup")			\
	EM(R2C2_S_DROP_TOO_BIG, "drop_too_big")			\
	EM(R2C2_S_BCAST_RETRY_FAIL, "bcast_retry_fail")		\
	EM(R2C2_S_DROP_OFFLOAD, "drop_offload")			\
	EM(R2C2_S_DROP_LSDB_FULL, "drop_lsdb_full")		\
	EM(R2C2_S_DROP_UNKNOWN_SRC, "drop_unknown_src")		\
	EM(R2C2_S_DROP_AUTH, "drop_auth")			\
	EM(R2C2_S_DROP_REPLAY, "drop_replay")			\
	EMe(R2C2_S_DROP_LLADDR, "drop_lladdr")

#define R2C2_TRACE_FLOW_EVTS					\
	EM(R2C2_FE_START, "start")				\
	EM(R2C2_FE_FINISH, "finish")				\
	EM(R2C2_FE_UPDATE, "update")				\
	EM(R2C2_FE_REFRESH, "refresh")				\
	EM(R2C2_FE_DIGEST, "digest")				\
	EMe(R2C2_FE_RESYNC, "resync")

/* the enum values for userspace (perf, bpftrace read the format file) */
#undef EM
#undef EMe
#define EM(a, b)	TRACE_DEFINE_ENUM(a);
#define EMe(a, b)	TRACE_DEFINE_ENUM(a);

R2C2_TRACE_DROPS
R2C2_TRACE_FLOW_EVTS
TRACE_DEFINE_ENUM(R2C2_RP_RPS);
TRACE_DEFINE_ENUM(R2C2_RP_DOR);
TRACE_DEFINE_ENUM(R2C2_RP_VLB);

#undef EM
#undef EMe
#define EM(a, b)	{ a, b },
#define EMe(a, b)	{ a, b }

/**
 * r2c2_drop - the node dropped frames (one counter increment of a drop
 * counter)
 * @node: the node's address (0xffff before it has one)
 * @port: the port the frames arrived on or were to leave by, 0xff for
 *	none (r2c0, the node itself)
 * @reason: enum r2c2_stat, the counter
 * @count: frames dropped at once (1, or a queue emptied)
 * @len: the frame's length, 0 when not known
 */
TRACE_EVENT(r2c2_drop,
	TP_PROTO(u16 node, u8 port, unsigned int reason, unsigned int count,
		 unsigned int len),
	TP_ARGS(node, port, reason, count, len),
	TP_STRUCT__entry(
		__field(u16, node)
		__field(u8, port)
		__field(unsigned int, reason)
		__field(unsigned int, count)
		__field(unsigned int, len)
	),
	TP_fast_assign(
		__entry->node = node;
		__entry->port = port;
		__entry->reason = reason;
		__entry->count = count;
		__entry->len = len;
	),
	TP_printk("node=%u port=%u reason=%s count=%u len=%u",
		  __entry->node, __entry->port,
		  __print_symbolic(__entry->reason, R2C2_TRACE_DROPS),
		  __entry->count, __entry->len)
);

/**
 * r2c2_flow - a flow event sent to the rack by this node or heard from it
 * @node: this node's address
 * @src: the flow's source node
 * @flow: flow identifier
 * @dst: destination node
 * @type: enum r2c2_flow_evt_type
 * @weight: allocation weight
 * @prio: priority level
 * @sent: 1 sent by this node, 0 heard from the rack
 */
TRACE_EVENT(r2c2_flow,
	TP_PROTO(u16 node, u16 src, u32 flow, u16 dst, u8 type, u8 weight,
		 u8 prio, bool sent),
	TP_ARGS(node, src, flow, dst, type, weight, prio, sent),
	TP_STRUCT__entry(
		__field(u16, node)
		__field(u16, src)
		__field(u32, flow)
		__field(u16, dst)
		__field(u8, type)
		__field(u8, weight)
		__field(u8, prio)
		__field(u8, sent)
	),
	TP_fast_assign(
		__entry->node = node;
		__entry->src = src;
		__entry->flow = flow;
		__entry->dst = dst;
		__entry->type = type;
		__entry->weight = weight;
		__entry->prio = prio;
		__entry->sent = sent;
	),
	TP_printk("node=%u %s src=%u flow=0x%08x dst=%u type=%s weight=%u prio=%u",
		  __entry->node, __entry->sent ? "sent" : "heard",
		  __entry->src, __entry->flow, __entry->dst,
		  __print_symbolic(__entry->type, R2C2_TRACE_FLOW_EVTS),
		  __entry->weight, __entry->prio)
);

/**
 * r2c2_routes - routing assignments sent to the rack or heard from it
 * @node: this node's address
 * @src: the node that broadcast them
 * @count: entries
 * @sent: 1 sent by this node, 0 heard from the rack
 */
TRACE_EVENT(r2c2_routes,
	TP_PROTO(u16 node, u16 src, unsigned int count, bool sent),
	TP_ARGS(node, src, count, sent),
	TP_STRUCT__entry(
		__field(u16, node)
		__field(u16, src)
		__field(unsigned int, count)
		__field(u8, sent)
	),
	TP_fast_assign(
		__entry->node = node;
		__entry->src = src;
		__entry->count = count;
		__entry->sent = sent;
	),
	TP_printk("node=%u %s src=%u count=%u", __entry->node,
		  __entry->sent ? "sent" : "heard", __entry->src,
		  __entry->count)
);

/**
 * r2c2_route_apply - a routing assignment naming this node, applied to
 * one of its sender flows
 * @node: this node's address
 * @flow: flow identifier
 * @rproto: enum r2c2_rproto now used by the flow
 * @remote: 1 from a ROUTES frame, 0 from a ROUTES_SEND of this node
 * @ok: 0 when the flow table was full (counted flow_table_full)
 */
TRACE_EVENT(r2c2_route_apply,
	TP_PROTO(u16 node, u32 flow, u8 rproto, bool remote, bool ok),
	TP_ARGS(node, flow, rproto, remote, ok),
	TP_STRUCT__entry(
		__field(u16, node)
		__field(u32, flow)
		__field(u8, rproto)
		__field(u8, remote)
		__field(u8, ok)
	),
	TP_fast_assign(
		__entry->node = node;
		__entry->flow = flow;
		__entry->rproto = rproto;
		__entry->remote = remote;
		__entry->ok = ok;
	),
	TP_printk("node=%u flow=0x%08x rproto=%s remote=%u ok=%u",
		  __entry->node, __entry->flow,
		  __print_symbolic(__entry->rproto, { R2C2_RP_RPS, "rps" },
				   { R2C2_RP_DOR, "dor" },
				   { R2C2_RP_VLB, "vlb" },
				   { R2C2_RP_WLB, "wlb" }),
		  __entry->remote, __entry->ok)
);

/**
 * r2c2_topo - new tables computed (as TOPO_EVENT)
 * @node: this node's address
 * @gen: tables generation
 * @nodes: nodes in the graph
 * @links: directed links
 * @topo_ok: 1 matches the declared topology, 0 does not, -1 none declared
 */
TRACE_EVENT(r2c2_topo,
	TP_PROTO(u16 node, u32 gen, u16 nodes, u32 links, int topo_ok),
	TP_ARGS(node, gen, nodes, links, topo_ok),
	TP_STRUCT__entry(
		__field(u16, node)
		__field(u32, gen)
		__field(u16, nodes)
		__field(u32, links)
		__field(int, topo_ok)
	),
	TP_fast_assign(
		__entry->node = node;
		__entry->gen = gen;
		__entry->nodes = nodes;
		__entry->links = links;
		__entry->topo_ok = topo_ok;
	),
	TP_printk("node=%u gen=%u nodes=%u links=%u topo_ok=%d",
		  __entry->node, __entry->gen, __entry->nodes, __entry->links,
		  __entry->topo_ok)
);

/**
 * r2c2_reseq_timeout - the resequencer gave up waiting for a gap
 * @node: this node's address
 * @src: the flow's source node
 * @flow: flow identifier
 * @skip_lo: first sequence number given up (of the last gap, when a
 *	timer run gave up several)
 * @skip_hi: one past the last
 * @released: held frames released by the timeouts of this timer run
 */
TRACE_EVENT(r2c2_reseq_timeout,
	TP_PROTO(u16 node, u16 src, u32 flow, u32 skip_lo, u32 skip_hi,
		 unsigned int released),
	TP_ARGS(node, src, flow, skip_lo, skip_hi, released),
	TP_STRUCT__entry(
		__field(u16, node)
		__field(u16, src)
		__field(u32, flow)
		__field(u32, skip_lo)
		__field(u32, skip_hi)
		__field(unsigned int, released)
	),
	TP_fast_assign(
		__entry->node = node;
		__entry->src = src;
		__entry->flow = flow;
		__entry->skip_lo = skip_lo;
		__entry->skip_hi = skip_hi;
		__entry->released = released;
	),
	TP_printk("node=%u src=%u flow=0x%08x skipped=%u..%u released=%u",
		  __entry->node, __entry->src, __entry->flow, __entry->skip_lo,
		  __entry->skip_hi - 1, __entry->released)
);

#endif /* _R2C2_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
