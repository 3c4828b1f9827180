// SPDX-License-Identifier: GPL-2.0
/*
 * xdp.c - the maps of the XDP transit program (xdp/r2c2_xdp.bpf.c), kept
 * by the module.
 *
 * r2c2ctl loads the program and hands the module its two maps
 * (R2C2_CMD_XDP_SET). From then on the module writes a port's entry in
 * the ports map wherever the kernel path's view of the port changes: the
 * port is added or removed, its netdev goes up or down or changes MTU or
 * address, a neighbour is heard or forgotten, the node starts or stops.
 * The entry is computed from that state under the node's xdp_lock, so
 * the last write follows the last change. A seqcount in the entry lets
 * the program skip an entry being written; it then leaves the frame to
 * the kernel path, which is never wrong. What no event reports (a veth
 * neighbour's XDP on 6.1, the mode a port's program runs in) the node's
 * tick brings in, each hello interval (r2c2_xdp_refresh()). The program's counters (the
 * stats map) are added to the port's and the node's wherever those are
 * read, and folded into them when the maps are let go.
 */
#include <linux/bpf.h>
#include <linux/rtnetlink.h>

#include "r2c2.h"
#include "kcompat.h"
#include <r2c2/xdp.h>

#if IS_ENABLED(CONFIG_BPF_SYSCALL)

#ifdef R2C2_HAVE_BPF_INTERNAL_NS
MODULE_IMPORT_NS(BPF_INTERNAL);
#endif

/**
 * struct r2c2_xdp - the maps of the node's XDP program
 * @ports: BPF_MAP_TYPE_ARRAY of struct r2c2_xdp_port, one a port
 * @stats: BPF_MAP_TYPE_PERCPU_ARRAY of u64, R2C2_XDP_NSTATS
 */
struct r2c2_xdp {
	struct bpf_map *ports;
	struct bpf_map *stats;
};

static struct bpf_map *r2c2_xdp_map_get(int fd, enum bpf_map_type type,
					u32 value_size, u32 entries,
					struct netlink_ext_ack *extack)
{
	struct bpf_map *map = bpf_map_get(fd);

	if (IS_ERR(map))
		return map;
	if (map->map_type != type || map->key_size != sizeof(u32) ||
	    map->value_size != value_size || map->max_entries != entries ||
	    !r2c2_map_plain(map)) {
		bpf_map_put(map);
		return ERR_PTR(-EINVAL);
	}
	return map;
}

/* Port @num's counters in the stats map, summed over the CPUs, added to @v. */
static void r2c2_xdp_read(const struct r2c2_xdp *x, unsigned int num, u64 *v)
{
	unsigned int cpu, i;
	u32 key;
	u64 *c;

	for_each_possible_cpu(cpu)
		for (i = R2C2_S_UNSPEC + 1; i < __R2C2_S_MAX; i++) {
			key = r2c2_xdp_stat_key(num, i);
			c = x->stats->ops->map_lookup_percpu_elem(x->stats,
								  &key, cpu);
			if (c)
				v[i] += READ_ONCE(*c);
		}
}

static void r2c2_xdp_zero(const struct r2c2_xdp *x, unsigned int num)
{
	unsigned int cpu, i;
	u32 key;
	u64 *c;

	for_each_possible_cpu(cpu)
		for (i = 0; i < __R2C2_S_MAX; i++) {
			key = r2c2_xdp_stat_key(num, i);
			c = x->stats->ops->map_lookup_percpu_elem(x->stats,
								  &key, cpu);
			if (c)
				WRITE_ONCE(*c, 0);
		}
}

/*
 * Move port @num's counters of the stats map into the kernel's: the
 * node's, and the port's while it exists. Context: RTNL held.
 */
static void r2c2_xdp_fold(struct r2c2_node *node, const struct r2c2_xdp *x,
			  unsigned int num)
{
	struct r2c2_port *port = rtnl_dereference(node->ports[num]);
	u64 v[__R2C2_S_MAX] = {};
	unsigned int i;

	r2c2_xdp_read(x, num, v);
	r2c2_xdp_zero(x, num);
	for (i = R2C2_S_UNSPEC + 1; i < __R2C2_S_MAX; i++)
		if (v[i])
			r2c2_stat_add(node, port, i, v[i]);
}

/* What the program may do with port @num now. Context: xdp_lock held. */
static void r2c2_xdp_entry(struct r2c2_node *node, unsigned int num,
			   struct r2c2_xdp_port *e)
{
	struct r2c2_port *port;
	struct r2c2_nbr *nbr;

	memset(e, 0, sizeof(*e));
	rcu_read_lock();
	port = rcu_dereference(node->ports[num]);
	if (port) {
		e->ifindex = READ_ONCE(port->dev->ifindex);
		e->mtu = min_t(unsigned int, READ_ONCE(port->dev->mtu), 0xffff);
		e->flags = R2C2_XDP_F_PORT;
		if (r2c2_xdp_xmit_ok(port->dev))
			e->flags |= R2C2_XDP_F_XMIT;
		if (rcu_access_pointer(port->dev->xdp_prog))
			e->flags |= R2C2_XDP_F_GENERIC;
		ether_addr_copy(e->mac, port->dev->dev_addr);
		nbr = rcu_dereference(port->nbr);
		if (nbr && READ_ONCE(port->up) && READ_ONCE(node->active)) {
			e->flags |= R2C2_XDP_F_FWD;
			ether_addr_copy(e->nbr_mac, nbr->mac);
		}
	}
	rcu_read_unlock();
}

/*
 * Store @n in the entry @e the program reads, as a seqcount writer does.
 * Context: xdp_lock held, or no writer left (r2c2_xdp_unbind()).
 */
static void r2c2_xdp_store(struct r2c2_xdp_port *e,
			   const struct r2c2_xdp_port *n)
{
	u32 seq = READ_ONCE(e->seq) | 1;

	WRITE_ONCE(e->seq, seq);	/* odd: the program keeps off */
	/* pairs with the program's reads: seq before the entry */
	smp_wmb();
	WRITE_ONCE(e->ifindex, n->ifindex);
	WRITE_ONCE(e->mtu, n->mtu);
	WRITE_ONCE(e->flags, n->flags);
	memcpy(e->mac, n->mac, ETH_ALEN);
	memcpy(e->nbr_mac, n->nbr_mac, ETH_ALEN);
	/* pairs with the program's second read of seq, after the entry */
	smp_wmb();
	WRITE_ONCE(e->seq, seq + 1);
}

/* the flags no event of 6.1 reports */
#define R2C2_XDP_F_POLLED	(R2C2_XDP_F_XMIT | R2C2_XDP_F_GENERIC)

/* Does entry @e already say what @n says? Context: xdp_lock held. */
static bool r2c2_xdp_same(const struct r2c2_xdp_port *e,
			  const struct r2c2_xdp_port *n)
{
	return READ_ONCE(e->ifindex) == n->ifindex &&
	       READ_ONCE(e->mtu) == n->mtu &&
	       READ_ONCE(e->flags) == n->flags &&
	       ether_addr_equal(e->mac, n->mac) &&
	       ether_addr_equal(e->nbr_mac, n->nbr_mac);
}

/*
 * Write port @num's entry when it changed; with @polled, only when
 * R2C2_XDP_F_POLLED changed (the tick's refresh: what has an event is
 * left to the event). Every hello calls this: rewriting an unchanged
 * entry would send the frames read meanwhile to the kernel path for
 * nothing (its seq odd).
 * Context: xdp_lock held, BHs off.
 */
static void r2c2_xdp_write(struct r2c2_node *node, const struct r2c2_xdp *x,
			   unsigned int num, bool polled)
{
	struct r2c2_xdp_port *e, n;
	u32 key = num;

	e = x->ports->ops->map_lookup_elem(x->ports, &key);
	if (!e)
		return;
	r2c2_xdp_entry(node, num, &n);
	if (polled && !((READ_ONCE(e->flags) ^ n.flags) & R2C2_XDP_F_POLLED))
		return;
	if (r2c2_xdp_same(e, &n))
		return;
	r2c2_xdp_store(e, &n);
}

/*
 * Write the entries of ports @from to @to - 1 while maps are bound (with
 * @polled as r2c2_xdp_write() takes it). Context: any but hard IRQ.
 */
static void r2c2_xdp_write_ports(struct r2c2_node *node, unsigned int from,
				 unsigned int to, bool polled)
{
	const struct r2c2_xdp *x;
	unsigned int i;

	rcu_read_lock();
	x = rcu_dereference(node->xdp);
	if (x) {
		spin_lock_bh(&node->xdp_lock);
		for (i = from; i < to; i++)
			r2c2_xdp_write(node, x, i, polled);
		spin_unlock_bh(&node->xdp_lock);
	}
	rcu_read_unlock();
}

/**
 * r2c2_xdp_sync() - rewrite a port's entry in the XDP ports map
 * @node: the node
 * @num: port number
 *
 * Called after every change of what the kernel path does with the port.
 * Nothing happens while no XDP program is bound.
 *
 * Context: any but hard IRQ.
 */
void r2c2_xdp_sync(struct r2c2_node *node, unsigned int num)
{
	r2c2_xdp_write_ports(node, num, num + 1, false);
}

/**
 * r2c2_xdp_refresh() - follow what no event reports
 * @node: the node
 *
 * Whether a port's netdev takes redirected frames changes with its veth
 * peer's XDP program, of which 6.1 tells nothing, and whether the port's
 * own program runs in generic mode with an attach. The node's tick calls
 * this each hello interval; an entry is rewritten only when one of those
 * changed.
 *
 * Context: any but hard IRQ.
 */
void r2c2_xdp_refresh(struct r2c2_node *node)
{
	r2c2_xdp_write_ports(node, 0, R2C2_MAX_PORTS, true);
}

/**
 * r2c2_xdp_sync_all() - rewrite every port's entry
 * @node: the node
 *
 * Context: any but hard IRQ.
 */
void r2c2_xdp_sync_all(struct r2c2_node *node)
{
	r2c2_xdp_write_ports(node, 0, R2C2_MAX_PORTS, false);
}

/**
 * r2c2_xdp_port_gone() - a port is removed: its counters stay the node's
 * @node: the node
 * @num: the port's number, already cleared from @node->ports
 *
 * Context: RTNL held.
 */
void r2c2_xdp_port_gone(struct r2c2_node *node, unsigned int num)
{
	struct r2c2_xdp *x = rtnl_dereference(node->xdp);

	r2c2_xdp_sync(node, num);
	if (x)
		r2c2_xdp_fold(node, x, num);
}

/**
 * r2c2_xdp_stats_add() - add the XDP program's counters
 * @node: the node
 * @port: a port, or NULL for the node (the sum over its ports)
 * @v: __R2C2_S_MAX counters, added to
 *
 * Context: any but hard IRQ.
 */
void r2c2_xdp_stats_add(struct r2c2_node *node, const struct r2c2_port *port,
			u64 *v)
{
	const struct r2c2_xdp *x;
	unsigned int i;

	rcu_read_lock();
	x = rcu_dereference(node->xdp);
	if (x) {
		for (i = 0; i < R2C2_MAX_PORTS; i++)
			if (!port || port->num == i)
				r2c2_xdp_read(x, i, v);
	}
	rcu_read_unlock();
}

/**
 * r2c2_xdp_stats_zero() - reset the XDP program's counters
 * @node: the node
 *
 * Context: RTNL held.
 */
void r2c2_xdp_stats_zero(struct r2c2_node *node)
{
	struct r2c2_xdp *x = rtnl_dereference(node->xdp);
	unsigned int i;

	if (x)
		for (i = 0; i < R2C2_MAX_PORTS; i++)
			r2c2_xdp_zero(x, i);
}

/**
 * r2c2_xdp_unbind() - let the XDP program's maps go
 * @node: the node
 *
 * Every port's entry is cleared, so a program still attached to a port
 * passes every frame to the kernel path from then on; its counters move
 * into the kernel's.
 *
 * Context: RTNL held.
 */
void r2c2_xdp_unbind(struct r2c2_node *node)
{
	struct r2c2_xdp *x = rtnl_dereference(node->xdp);
	const struct r2c2_xdp_port none = {};
	struct r2c2_xdp_port *e;
	unsigned int i;
	u32 key;

	if (!x)
		return;
	RCU_INIT_POINTER(node->xdp, NULL);
	synchronize_net();	/* no r2c2_xdp_sync() writes any more */
	for (i = 0; i < R2C2_MAX_PORTS; i++) {
		key = i;
		e = x->ports->ops->map_lookup_elem(x->ports, &key);
		if (e)
			r2c2_xdp_store(e, &none);
	}
	synchronize_net();	/* no run of the program saw an entry */
	for (i = 0; i < R2C2_MAX_PORTS; i++)
		r2c2_xdp_fold(node, x, i);
	bpf_map_put(x->ports);
	bpf_map_put(x->stats);
	kfree(x);
}

/**
 * r2c2_xdp_bind() - take the maps of an XDP program loaded for the node
 * @node: the node
 * @ports_fd: file descriptor of its ports map (R2C2_XDP_PORTS_MAP)
 * @stats_fd: file descriptor of its stats map (R2C2_XDP_STATS_MAP)
 * @extack: error reporting
 *
 * Maps bound before are let go (r2c2_xdp_unbind()). The new maps' every
 * entry is written before this returns.
 *
 * Context: RTNL held.
 * Return: 0 or a negative errno (nothing changed).
 */
int r2c2_xdp_bind(struct r2c2_node *node, int ports_fd, int stats_fd,
		  struct netlink_ext_ack *extack)
{
	struct r2c2_xdp *x;
	unsigned int i;
	int err;

	ASSERT_RTNL();
	x = kzalloc(sizeof(*x), GFP_KERNEL);
	if (!x)
		return -ENOMEM;
	x->ports = r2c2_xdp_map_get(ports_fd, BPF_MAP_TYPE_ARRAY,
				    sizeof(struct r2c2_xdp_port),
				    R2C2_MAX_PORTS, extack);
	if (IS_ERR(x->ports)) {
		NL_SET_ERR_MSG(extack,
			       "XDP_PORTS_FD is not the ports map of r2c2's XDP program");
		err = PTR_ERR(x->ports);
		goto free;
	}
	x->stats = r2c2_xdp_map_get(stats_fd, BPF_MAP_TYPE_PERCPU_ARRAY,
				    sizeof(u64), R2C2_XDP_NSTATS, extack);
	if (IS_ERR(x->stats)) {
		NL_SET_ERR_MSG(extack,
			       "XDP_STATS_FD is not the stats map of r2c2's XDP program");
		err = PTR_ERR(x->stats);
		goto put;
	}
	if (x->ports == x->stats) {
		NL_SET_ERR_MSG(extack, "XDP_PORTS_FD and XDP_STATS_FD are one map");
		err = -EINVAL;
		bpf_map_put(x->stats);
		goto put;
	}
	r2c2_xdp_unbind(node);
	/* counters left in the maps by an earlier binding are not ours */
	for (i = 0; i < R2C2_MAX_PORTS; i++)
		r2c2_xdp_zero(x, i);
	rcu_assign_pointer(node->xdp, x);
	r2c2_xdp_sync_all(node);
	return 0;
put:
	bpf_map_put(x->ports);
free:
	kfree(x);
	return err;
}

#else /* !CONFIG_BPF_SYSCALL */

void r2c2_xdp_sync(struct r2c2_node *node, unsigned int num)
{
}

void r2c2_xdp_refresh(struct r2c2_node *node)
{
}

void r2c2_xdp_sync_all(struct r2c2_node *node)
{
}

void r2c2_xdp_port_gone(struct r2c2_node *node, unsigned int num)
{
}

void r2c2_xdp_stats_add(struct r2c2_node *node, const struct r2c2_port *port,
			u64 *v)
{
}

void r2c2_xdp_stats_zero(struct r2c2_node *node)
{
}

void r2c2_xdp_unbind(struct r2c2_node *node)
{
}

int r2c2_xdp_bind(struct r2c2_node *node, int ports_fd, int stats_fd,
		  struct netlink_ext_ack *extack)
{
	NL_SET_ERR_MSG(extack, "the kernel has no BPF system call");
	return -EOPNOTSUPP;
}

#endif /* CONFIG_BPF_SYSCALL */

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
