// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - module init/exit, per-namespace node lifetime and counters.
 */
#include <linux/module.h>
#include <linux/random.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/rtnetlink.h>

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
 * r2c2_node_stats_read() - a node's counters, the XDP program's included
 * @node: the node
 * @out: __R2C2_S_MAX sums, written
 */
void r2c2_node_stats_read(struct r2c2_node *node, u64 *out)
{
	r2c2_stats_read(node->stats, out);
	r2c2_xdp_stats_add(node, NULL, out);
}

/**
 * r2c2_port_stats_read() - a port's counters, the XDP program's included
 * @port: the port
 * @out: __R2C2_S_MAX sums, written
 */
void r2c2_port_stats_read(struct r2c2_port *port, u64 *out)
{
	r2c2_stats_read(port->stats, out);
	r2c2_xdp_stats_add(port->node, port, out);
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

static void r2c2_node_defaults(struct r2c2_node *node)
{
	node->addr = R2C2_ADDR_NONE;
	node->hello_ms = R2C2_HELLO_MS_DEFAULT;
	node->trees = R2C2_TREES_DEFAULT;
	node->rproto = R2C2_RP_RPS;
	node->ndims = 0;
	memset(node->dims, 0, sizeof(node->dims));
	node->topo_hash = 0;
}

/**
 * r2c2_node_create() - give the namespace's node an address and r2c0
 * @node: an unconfigured node; hello_ms, trees, rproto and dims may
 *	already be set
 * @addr: node address
 * @ifname: name of the soft interface
 *
 * Context: RTNL held.
 * Return: 0 or a negative errno (the node stays unconfigured).
 */
int r2c2_node_create(struct r2c2_node *node, u16 addr, const char *ifname)
{
	struct net_device *dev;

	ASSERT_RTNL();
	node->addr = addr;
	dev = r2c2_dev_create(node, ifname);
	if (IS_ERR(dev)) {
		node->addr = R2C2_ADDR_NONE;
		return PTR_ERR(dev);
	}
	node->dev = dev;
	/* the table computation's memory is charged to the configurer's */
	node->memcg = get_mem_cgroup_from_mm(current->mm);
	node->lsa_seq = 0;
	node->flow_gc = jiffies + HZ;
	atomic_set(&node->bcast_seq, get_random_u32());
	WRITE_ONCE(node->active, true);
	r2c2_xdp_sync_all(node);
	queue_delayed_work(system_wq, &node->tick, 0);
	queue_work(system_wq, &node->lsa_work);
	return 0;
}

static void r2c2_tables_rcu_free(struct rcu_head *head)
{
	r2c2_tables_free(container_of(head, struct r2c2_tables, rcu));
}

static void r2c2_node_stop_works(struct r2c2_node *node)
{
	int i;

	/* twice: a work may have queued another before it was cancelled */
	for (i = 0; i < 2; i++) {
		cancel_delayed_work_sync(&node->tick);
		cancel_work_sync(&node->lsa_work);
		cancel_delayed_work_sync(&node->recompute);
	}
}

static void r2c2_node_drop_tables(struct r2c2_node *node)
{
	struct r2c2_tables *old, *prev;
	unsigned long gp;

	mutex_lock(&node->tbl_lock);
	old = rcu_replace_pointer(node->tables, NULL,
				  lockdep_is_held(&node->tbl_lock));
	prev = r2c2_tables_retire(node, NULL, &gp);
	mutex_unlock(&node->tbl_lock);
	r2c2_tables_reap(prev, gp);
	if (old)
		call_rcu(&old->rcu, r2c2_tables_rcu_free);
}

/**
 * r2c2_node_set_addr() - change the address of a configured node
 * @node: the node
 * @addr: new address
 *
 * Forgets everything learnt under the old address and re-announces.
 *
 * Context: RTNL held.
 * Return: 0.
 */
int r2c2_node_set_addr(struct r2c2_node *node, u16 addr)
{
	ASSERT_RTNL();
	if (addr == node->addr)
		return 0;
	spin_lock_bh(&node->lock);
	WRITE_ONCE(node->addr, addr);
	node->lsa_seq = 0;
	spin_unlock_bh(&node->lock);
	r2c2_dev_set_mac(node);
	r2c2_lsdb_flush(node);
	r2c2_dups_flush(node);
	r2c2_flows_gc(node, true);
	r2c2_topo_changed(node);
	queue_delayed_work(system_wq, &node->tick, 0);
	return 0;
}

/**
 * r2c2_node_destroy() - remove the node's ports, r2c0 and state
 * @node: the node, configured or not
 *
 * Counters survive; the configuration returns to defaults.
 *
 * Context: RTNL held.
 */
void r2c2_node_destroy(struct r2c2_node *node)
{
	int i;

	ASSERT_RTNL();
	WRITE_ONCE(node->active, false);
	for (i = 0; i < R2C2_MAX_PORTS; i++)
		r2c2_port_del(node, i, false);
	r2c2_xdp_unbind(node);
	synchronize_net();
	r2c2_node_stop_works(node);
	r2c2_reseq_stop(node);	/* frees held frames before r2c0 goes */
	if (node->dev) {
		unregister_netdevice(node->dev);
		node->dev = NULL;
	}
	r2c2_node_drop_tables(node);
	r2c2_lsdb_flush(node);
	r2c2_dups_flush(node);
	r2c2_auth_clear(node);
	r2c2_flows_gc(node, true);
	mem_cgroup_put(node->memcg);
	node->memcg = NULL;
	r2c2_node_defaults(node);
}

static int __net_init r2c2_net_init(struct net *net)
{
	struct r2c2_node *node = r2c2_node_get(net);
	int i;

	node->net = net;
	node->stats = alloc_percpu(struct r2c2_stats);
	if (!node->stats)
		return -ENOMEM;
	r2c2_node_defaults(node);
	spin_lock_init(&node->lock);
	spin_lock_init(&node->dup_lock);
	spin_lock_init(&node->flow_lock);
	spin_lock_init(&node->auth_lock);
	spin_lock_init(&node->xdp_lock);
	mutex_init(&node->tbl_lock);
	xa_init(&node->lsdb);
	xa_init(&node->dups);
	xa_init(&node->auth_peers);
	INIT_DELAYED_WORK(&node->tick, r2c2_topo_tick);
	INIT_WORK(&node->lsa_work, r2c2_lsa_work);
	INIT_DELAYED_WORK(&node->recompute, r2c2_recompute_work);
	for (i = 0; i < ARRAY_SIZE(node->flows); i++)
		INIT_HLIST_HEAD(&node->flows[i]);
	if (r2c2_reseq_init(node)) {
		free_percpu(node->stats);
		return -ENOMEM;
	}
	return 0;
}

static void __net_exit r2c2_net_exit(struct net *net)
{
	struct r2c2_node *node = r2c2_node_get(net);

	rtnl_lock();
	r2c2_node_destroy(node);
	rtnl_unlock();
	/* readers are gone (ports removed, r2c0 unregistered) and no RCU
	 * callback of ours touches the node: its memory may go now
	 */
	xa_destroy(&node->lsdb);
	xa_destroy(&node->dups);
	xa_destroy(&node->auth_peers);
	r2c2_reseq_fini(node);
	r2c2_classes_free(node);
	free_percpu(node->stats);
	node->stats = NULL;
}

static struct pernet_operations r2c2_net_ops = {
	.init = r2c2_net_init,
	.exit = r2c2_net_exit,
	.id = &r2c2_net_id,
	.size = sizeof(struct r2c2_node),
};

static int __init r2c2_init(void)
{
	int err;

	BUILD_BUG_ON(sizeof(struct r2c2_data_hdr) != R2C2_DATA_HLEN);
	BUILD_BUG_ON(sizeof(struct r2c2_data_hdr) != 40);
	BUILD_BUG_ON(sizeof(struct r2c2_ctl_hdr) != R2C2_CTL_HLEN);
	BUILD_BUG_ON(sizeof(struct r2c2_ctl_hdr) != 8);
	BUILD_BUG_ON(sizeof(struct r2c2_hello) != R2C2_HELLO_LEN);
	BUILD_BUG_ON(sizeof(struct r2c2_lsa) != 8);
	BUILD_BUG_ON(sizeof(struct r2c2_lsa_ent) != 4);
	BUILD_BUG_ON(sizeof(struct r2c2_flow_evt) != R2C2_FLOW_EVT_LEN);
	BUILD_BUG_ON(sizeof(struct r2c2_routes) != 4);
	BUILD_BUG_ON(sizeof(struct r2c2_route_ent) != 7);
	BUILD_BUG_ON(R2C2_MAX_HOPS * 3 > R2C2_ROUTE_BYTES * 8);
	BUILD_BUG_ON(sizeof(struct r2c2_auth_trl) != R2C2_AUTH_LEN);
	BUILD_BUG_ON(sizeof(siphash_key_t) != R2C2_AUTH_KEY_LEN);
	BUILD_BUG_ON(R2C2_CTL_HLEN + sizeof(struct r2c2_routes) +
		     R2C2_ROUTES_MAX_AUTH * sizeof(struct r2c2_route_ent) +
		     R2C2_AUTH_LEN > ETH_DATA_LEN);
	BUILD_BUG_ON(R2C2_CTL_HLEN + sizeof(struct r2c2_routes) +
		     R2C2_ROUTES_MAX * sizeof(struct r2c2_route_ent) >
		     ETH_DATA_LEN);

	err = r2c2_tables_wq_init();
	if (err)
		return err;
	err = register_pernet_device(&r2c2_net_ops);
	if (err)
		goto err_wq;
	err = r2c2_link_register();
	if (err)
		goto err_pernet;
	err = r2c2_notifier_register();
	if (err)
		goto err_link;
	/* last: userspace can reach us only when everything is ready */
	err = r2c2_genl_register();
	if (err)
		goto err_notifier;
	return 0;

err_notifier:
	r2c2_notifier_unregister();
err_link:
	/* no node was configured: genl was never reachable */
	r2c2_link_unregister();
err_pernet:
	unregister_pernet_device(&r2c2_net_ops);
	rcu_barrier();
err_wq:
	r2c2_tables_wq_fini();
	return err;
}

static void __exit r2c2_exit(void)
{
	r2c2_genl_unregister();
	r2c2_notifier_unregister();
	unregister_pernet_device(&r2c2_net_ops);
	/* after every node and its r2c0 are gone (link.c) */
	r2c2_link_unregister();
	r2c2_tables_wq_fini();
	rcu_barrier();
}

module_init(r2c2_init);
module_exit(r2c2_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("R2C2 rack-scale network: source-routed L2 forwarding, topology discovery and broadcast");
MODULE_AUTHOR("r2c2 project");
MODULE_ALIAS_GENL_FAMILY(R2C2_GENL_NAME);
MODULE_ALIAS_RTNL_LINK(R2C2_LINK_KIND);
