// SPDX-License-Identifier: GPL-2.0
/*
 * core.c - the bottom of the module: the node's counters, the random
 * numbers of route sampling and the node a netlink request names. Every
 * layer above calls it; it calls nothing of r2c2.
 */
#include <linux/random.h>

#include "r2c2.h"

unsigned int r2c2_net_id __read_mostly;

/**
 * r2c2_stat_add() - add to a counter of a node and maybe of a port
 * @node: the node
 * @port: the port the event belongs to, or NULL
 * @s: counter
 * @v: amount
 *
 * Any context.
 */
void r2c2_stat_add(struct r2c2_node *node, struct r2c2_port *port,
		   enum r2c2_stat s, u64 v)
{
	struct r2c2_stats *st;
	unsigned long flags;

	st = get_cpu_ptr(node->stats);
	flags = u64_stats_update_begin_irqsave(&st->syncp);
	u64_stats_add(&st->c[s], v);
	u64_stats_update_end_irqrestore(&st->syncp, flags);
	put_cpu_ptr(node->stats);
	if (!port)
		return;
	st = get_cpu_ptr(port->stats);
	flags = u64_stats_update_begin_irqsave(&st->syncp);
	u64_stats_add(&st->c[s], v);
	u64_stats_update_end_irqrestore(&st->syncp, flags);
	put_cpu_ptr(port->stats);
}

/**
 * r2c2_stats_read() - sum per-CPU counters
 * @stats: per-CPU counters
 * @out: __R2C2_S_MAX sums, written
 */
void r2c2_stats_read(struct r2c2_stats __percpu *stats, u64 *out)
{
	unsigned int cpu, i, start;

	memset(out, 0, sizeof(u64) * __R2C2_S_MAX);
	for_each_possible_cpu(cpu) {
		const struct r2c2_stats *st = per_cpu_ptr(stats, cpu);
		u64 v[__R2C2_S_MAX];

		do {
			start = u64_stats_fetch_begin(&st->syncp);
			for (i = 0; i < __R2C2_S_MAX; i++)
				v[i] = u64_stats_read(&st->c[i]);
		} while (u64_stats_fetch_retry(&st->syncp, start));
		for (i = 0; i < __R2C2_S_MAX; i++)
			out[i] += v[i];
	}
}

/**
 * r2c2_stats_zero() - reset per-CPU counters
 * @stats: per-CPU counters
 *
 * Increments racing with the reset may survive it.
 */
void r2c2_stats_zero(struct r2c2_stats __percpu *stats)
{
	unsigned int cpu, i;

	for_each_possible_cpu(cpu) {
		struct r2c2_stats *st = per_cpu_ptr(stats, cpu);
		unsigned long flags;

		flags = u64_stats_update_begin_irqsave(&st->syncp);
		for (i = 0; i < __R2C2_S_MAX; i++)
			u64_stats_set(&st->c[i], 0);
		u64_stats_update_end_irqrestore(&st->syncp, flags);
	}
}

/**
 * r2c2_rand() - uniform random numbers for r2c2_route_sample()
 * @ctx: unused
 *
 * Return: a random u32 (per-CPU batched, cheap enough per packet).
 */
u32 r2c2_rand(void *ctx)
{
	return get_random_u32();
}

/**
 * r2c2_genl_node() - the configured node a generic netlink request names
 * @info: the request; its namespace names the node
 *
 * Sets the extack message "no r2c2 node in this namespace" when the node
 * is not configured; the caller returns -ENODEV.
 *
 * Context: process context (a genl handler).
 * Return: the node, or NULL when it is not active.
 */
struct r2c2_node *r2c2_genl_node(struct genl_info *info)
{
	struct r2c2_node *node = r2c2_node_get(genl_info_net(info));

	if (!READ_ONCE(node->active)) {
		NL_SET_ERR_MSG(info->extack, "no r2c2 node in this namespace");
		return NULL;
	}
	return node;
}
