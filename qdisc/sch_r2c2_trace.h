/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sch_r2c2_trace.h - tracepoints of sch_r2c2.ko. They join r2c2.ko's in
 * the trace system "r2c2" (events/r2c2/ in tracefs): the two modules share
 * the directory, each event keeps its own module.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM r2c2

#if !defined(_SCH_R2C2_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _SCH_R2C2_TRACE_H

#include <linux/netdevice.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/r2c2.h>

TRACE_DEFINE_ENUM(R2C2_FE_START);
TRACE_DEFINE_ENUM(R2C2_FE_FINISH);

/**
 * sch_r2c2_rate_set - the control plane set a flow's rate
 * @dev: the qdisc's device
 * @flow: flow identifier
 * @rate: bit/s
 * @lease_ms: how long it holds (0: for ever)
 */
TRACE_EVENT(sch_r2c2_rate_set,
	TP_PROTO(const struct net_device *dev, u32 flow, u64 rate,
		 u32 lease_ms),
	TP_ARGS(dev, flow, rate, lease_ms),
	TP_STRUCT__entry(
		__array(char, dev, IFNAMSIZ)
		__field(u32, flow)
		__field(u64, rate)
		__field(u32, lease_ms)
	),
	TP_fast_assign(
		strscpy(__entry->dev, dev->name, IFNAMSIZ);
		__entry->flow = flow;
		__entry->rate = rate;
		__entry->lease_ms = lease_ms;
	),
	TP_printk("dev=%s flow=0x%08x rate=%llu lease_ms=%u", __entry->dev,
		  __entry->flow, __entry->rate, __entry->lease_ms)
);

/**
 * sch_r2c2_lease_lapse - a flow's rate lease ran out: safe rate now
 * @dev: the qdisc's device
 * @flow: flow identifier
 * @rate: the rate whose lease ran out, bit/s
 * @safe_rate: the rate from now on, bit/s
 */
TRACE_EVENT(sch_r2c2_lease_lapse,
	TP_PROTO(const struct net_device *dev, u32 flow, u64 rate,
		 u64 safe_rate),
	TP_ARGS(dev, flow, rate, safe_rate),
	TP_STRUCT__entry(
		__array(char, dev, IFNAMSIZ)
		__field(u32, flow)
		__field(u64, rate)
		__field(u64, safe_rate)
	),
	TP_fast_assign(
		strscpy(__entry->dev, dev->name, IFNAMSIZ);
		__entry->flow = flow;
		__entry->rate = rate;
		__entry->safe_rate = safe_rate;
	),
	TP_printk("dev=%s flow=0x%08x rate=%llu safe_rate=%llu",
		  __entry->dev, __entry->flow, __entry->rate,
		  __entry->safe_rate)
);

/**
 * sch_r2c2_flow - the qdisc detected a flow start or finish (queued for
 *	r2c2.ko, which announces it)
 * @dev: the qdisc's device
 * @type: R2C2_FE_START or R2C2_FE_FINISH
 * @flow: flow identifier
 * @dst: destination node
 * @weight: allocation weight
 * @prio: priority level
 */
TRACE_EVENT(sch_r2c2_flow,
	TP_PROTO(const struct net_device *dev, u8 type, u32 flow, u16 dst,
		 u8 weight, u8 prio),
	TP_ARGS(dev, type, flow, dst, weight, prio),
	TP_STRUCT__entry(
		__array(char, dev, IFNAMSIZ)
		__field(u8, type)
		__field(u32, flow)
		__field(u16, dst)
		__field(u8, weight)
		__field(u8, prio)
	),
	TP_fast_assign(
		strscpy(__entry->dev, dev->name, IFNAMSIZ);
		__entry->type = type;
		__entry->flow = flow;
		__entry->dst = dst;
		__entry->weight = weight;
		__entry->prio = prio;
	),
	TP_printk("dev=%s type=%s flow=0x%08x dst=%u weight=%u prio=%u",
		  __entry->dev,
		  __print_symbolic(__entry->type, { R2C2_FE_START, "start" },
				   { R2C2_FE_FINISH, "finish" }),
		  __entry->flow, __entry->dst, __entry->weight, __entry->prio)
);

#endif /* _SCH_R2C2_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE sch_r2c2_trace
#include <trace/define_trace.h>
