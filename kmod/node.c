// SPDX-License-Identifier: GPL-2.0
/*
 * node.c - a namespace's node: its state set up and torn down with the
 * namespace (r2c2_node_init(), r2c2_node_fini()), and configured and
 * unconfigured by NODE_SET and NODE_DEL (r2c2_node_create(),
 * r2c2_node_set_addr(), r2c2_node_destroy()); and the netdev notifier
 * through which it follows its ports. The control plane: it starts and
 * stops the topology's work, r2c0, the ports and the resequencer.
 */
#include <linux/random.h>
#include <linux/rtnetlink.h>

#include "r2c2.h"

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

/**
 * r2c2_node_init() - set up a namespace's node, unconfigured
 * @node: the node, zeroed
 * @net: its namespace
 *
 * Context: process (pernet init).
 * Return: 0 or -ENOMEM.
 */
int r2c2_node_init(struct r2c2_node *node, struct net *net)
{
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

/**
 * r2c2_node_fini() - tear a namespace's node down
 * @node: the node, configured or not
 *
 * Context: process (pernet exit), RTNL not held.
 */
void r2c2_node_fini(struct r2c2_node *node)
{
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

static int r2c2_netdev_event(struct notifier_block *nb, unsigned long event,
			     void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct r2c2_node *node = r2c2_node_get(dev_net(dev));
	struct r2c2_port *port;

	/* NULL in a namespace whose earlier pernet inits (loopback) run */
	if (!node || !node->dev)
		return NOTIFY_DONE;
	port = r2c2_port_find_dev(node, dev);
	if (!port)
		return NOTIFY_DONE;

	switch (event) {
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		if (!r2c2_port_follow(port))
			break;
		if (!port->up)
			r2c2_nbr_clear(port);
		else if (READ_ONCE(node->active))
			mod_delayed_work(system_wq, &node->tick, 0);
		break;
	case NETDEV_CHANGEMTU:
	case NETDEV_CHANGEADDR:
#ifdef R2C2_HAVE_XDP_FEATURES
	case NETDEV_XDP_FEAT_CHANGE:	/* a veth's peer got or lost NAPI */
#endif
		r2c2_xdp_sync(node, port->num);
		break;
	case NETDEV_UNREGISTER:
		r2c2_port_del(node, port->num, false);
		r2c2_topo_changed(node);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block r2c2_netdev_notifier = {
	.notifier_call = r2c2_netdev_event,
};

/**
 * r2c2_notifier_register() - follow the state of port netdevs
 *
 * Return: 0 or a negative errno.
 */
int r2c2_notifier_register(void)
{
	return register_netdevice_notifier(&r2c2_netdev_notifier);
}

/**
 * r2c2_notifier_unregister() - stop following netdevs
 *
 * The core replays NETDEV_UNREGISTER for every netdev, which detaches
 * every remaining port.
 */
void r2c2_notifier_unregister(void)
{
	unregister_netdevice_notifier(&r2c2_netdev_notifier);
}
