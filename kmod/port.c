// SPDX-License-Identifier: GPL-2.0
/*
 * port.c - attaching netdevs as ports, reading their state, and
 * transmitting on them.
 */
#include <linux/if_arp.h>
#include <linux/rtnetlink.h>
#include <net/netlink.h>

#include "r2c2.h"
#include "events.h"

/**
 * r2c2_port_find_dev() - the port a netdev is attached as
 * @node: the node
 * @dev: the netdev
 *
 * Context: RTNL held.
 * Return: the port or NULL.
 */
struct r2c2_port *r2c2_port_find_dev(struct r2c2_node *node,
				     const struct net_device *dev)
{
	struct r2c2_port *port;
	int i;

	for (i = 0; i < R2C2_MAX_PORTS; i++) {
		port = rtnl_dereference(node->ports[i]);
		if (port && port->dev == dev)
			return port;
	}
	return NULL;
}

static bool r2c2_dev_usable(const struct net_device *dev)
{
	return netif_running(dev) && netif_carrier_ok(dev);
}

/**
 * r2c2_port_add() - attach a netdev as a port
 * @node: a configured node
 * @num: port number, 0..R2C2_MAX_PORTS-1
 * @dev: an Ethernet netdev of the node's namespace
 * @extack: error reporting
 *
 * Context: RTNL held.
 * Return: 0 or a negative errno.
 */
int r2c2_port_add(struct r2c2_node *node, u8 num, struct net_device *dev,
		  struct netlink_ext_ack *extack)
{
	struct r2c2_port *port;

	ASSERT_RTNL();
	if (num >= R2C2_MAX_PORTS) {
		NL_SET_ERR_MSG(extack, "port number out of range");
		return -EINVAL;
	}
	if (rtnl_dereference(node->ports[num])) {
		NL_SET_ERR_MSG(extack, "port number already in use");
		return -EBUSY;
	}
	if (r2c2_port_find_dev(node, dev)) {
		NL_SET_ERR_MSG(extack, "netdev is already a port");
		return -EBUSY;
	}
	if (dev == node->dev || dev->netdev_ops == node->dev->netdev_ops) {
		NL_SET_ERR_MSG(extack, "an r2c2 soft interface cannot be a port");
		return -EINVAL;
	}
	if (dev->type != ARPHRD_ETHER || dev->addr_len != ETH_ALEN ||
	    (dev->flags & IFF_LOOPBACK)) {
		NL_SET_ERR_MSG(extack, "port netdev must be Ethernet");
		return -EINVAL;
	}
	if (!net_eq(dev_net(dev), node->net)) {
		NL_SET_ERR_MSG(extack, "port netdev must be in the node's namespace");
		return -EINVAL;
	}

	port = kzalloc(sizeof(*port), GFP_KERNEL);
	if (!port)
		return -ENOMEM;
	port->stats = alloc_percpu(struct r2c2_stats);
	if (!port->stats) {
		kfree(port);
		return -ENOMEM;
	}
	port->node = node;
	port->dev = dev;
	port->num = num;
	port->up = r2c2_dev_usable(dev);
	port->pt.type = htons(R2C2_ETH_P);
	port->pt.dev = dev;
	port->pt.func = r2c2_rcv;
	r2c2_bretry_init(port);
	dev_hold(dev);
	rcu_assign_pointer(node->ports[num], port);
	dev_add_pack(&port->pt);
	r2c2_xdp_sync(node, num);
	if (READ_ONCE(node->active))
		queue_delayed_work(system_wq, &node->tick, 0);
	return 0;
}

static void r2c2_port_rcu_free(struct rcu_head *head)
{
	struct r2c2_port *port = container_of(head, struct r2c2_port, rcu);
	struct r2c2_nbr *nbr = rcu_dereference_protected(port->nbr, 1);

	kfree(nbr);
	dev_put(port->dev);
	free_percpu(port->stats);
	kfree(port);
}

/**
 * r2c2_port_del() - detach a port
 * @node: the node
 * @num: port number; nothing happens when no port has it
 * @sync: wait for receivers to finish (else the caller calls
 *	synchronize_net() or relies on RCU-deferred freeing only)
 *
 * Broadcast copies waiting on the port for a retry are dropped at once;
 * the port is freed after an RCU grace period; its netdev reference is
 * dropped then. The caller tells the topology (r2c2_topo_changed()).
 *
 * Context: RTNL held.
 */
void r2c2_port_del(struct r2c2_node *node, u8 num, bool sync)
{
	struct r2c2_port *port;

	ASSERT_RTNL();
	port = rtnl_dereference(node->ports[num]);
	if (!port)
		return;
	RCU_INIT_POINTER(node->ports[num], NULL);
	if (sync)
		dev_remove_pack(&port->pt);
	else
		__dev_remove_pack(&port->pt);
	r2c2_bretry_stop(port);
	r2c2_xdp_port_gone(node, num);
	call_rcu(&port->rcu, r2c2_port_rcu_free);
}

/**
 * r2c2_port_state() - enum r2c2_port_state of a port
 * @port: the port
 *
 * Context: RCU read side or RTNL.
 * Return: the state.
 */
u8 r2c2_port_state(struct r2c2_port *port)
{
	if (!READ_ONCE(port->up))
		return R2C2_PS_DOWN;
	return rcu_access_pointer(port->nbr) ? R2C2_PS_NBR : R2C2_PS_UP;
}

/**
 * r2c2_port_xmit() - push an Ethernet header and transmit on a port
 * @port: the port
 * @skb: an R2C2 frame starting at its R2C2 header; consumed
 * @dst: Ethernet destination
 *
 * Counts TX_PACKETS/TX_BYTES, or the drop reason. A frame longer than the
 * port's MTU (r2c0's MTU set above the port's, or a route crossing ports
 * of different MTUs) is dropped here and counted as DROP_TOO_BIG, so that
 * the drop is visible in the node's counters rather than lost in the
 * port driver.
 *
 * Context: any, BHs may be enabled.
 * Return: 0 when the port's dev_queue_xmit() took the frame;
 * -ENOBUFS when it reported a drop (net_xmit_eval() != 0: a full qdisc,
 * or veth's NET_XMIT_DROP when the peer's backlog is full), which a
 * caller holding a copy may retry; -EMSGSIZE or -ENOMEM when the frame
 * was dropped here. The frame is consumed in every case.
 */
int r2c2_port_xmit(struct r2c2_port *port, struct sk_buff *skb,
		   const u8 *dst)
{
	struct r2c2_node *node = port->node;
	struct net_device *dev = port->dev;
	struct ethhdr *eth;
	unsigned int len;
	int ret;

	/* with a rack key, control frames get their trailer here */
	if (unlikely(r2c2_auth_on(node)) && r2c2_auth_sign(port, skb)) {
		r2c2_drop(node, R2C2_S_DROP_NOMEM, port, skb);
		return -ENOMEM;
	}
	if (unlikely(skb->len > READ_ONCE(dev->mtu)) && !skb_is_gso(skb)) {
		r2c2_drop(node, R2C2_S_DROP_TOO_BIG, port, skb);
		return -EMSGSIZE;
	}
	if (skb_cow_head(skb, LL_RESERVED_SPACE(dev))) {
		r2c2_drop(node, R2C2_S_DROP_NOMEM, port, skb);
		return -ENOMEM;
	}
	skb_reset_network_header(skb);
	eth = skb_push(skb, ETH_HLEN);
	skb_reset_mac_header(skb);
	ether_addr_copy(eth->h_dest, dst);
	ether_addr_copy(eth->h_source, dev->dev_addr);
	eth->h_proto = htons(R2C2_ETH_P);
	skb->dev = dev;
	skb->protocol = htons(R2C2_ETH_P);
	/* a forwarded skb's timestamp would read as an EDT send time */
	skb_clear_tstamp(skb);
	len = skb->len;
	r2c2_stat_add(node, port, R2C2_S_TX_PACKETS, 1);
	r2c2_stat_add(node, port, R2C2_S_TX_BYTES, len);
	ret = dev_queue_xmit(skb);
	/* net_xmit_eval() evaluates its argument twice */
	if (net_xmit_eval(ret)) {
		r2c2_drop(node, R2C2_S_DROP_TX_ERR, port, NULL);
		return -ENOBUFS;
	}
	return 0;
}

/**
 * r2c2_port_xmit_nbr() - transmit to the neighbour heard on a port
 * @port: the port
 * @skb: an R2C2 frame; consumed unless -ENOTCONN is returned
 *
 * Context: RCU read side.
 * Return: -ENOTCONN when the port is down or has no neighbour (@skb is
 * the caller's still); else r2c2_port_xmit()'s value.
 */
int r2c2_port_xmit_nbr(struct r2c2_port *port, struct sk_buff *skb)
{
	struct r2c2_nbr *nbr = rcu_dereference(port->nbr);

	if (!nbr || !READ_ONCE(port->up))
		return -ENOTCONN;
	return r2c2_port_xmit(port, skb, nbr->mac);
}

/**
 * r2c2_port_follow() - read the state of a port's netdev again
 * @port: the port
 *
 * Context: RTNL held.
 * Return: true when the port went up or down.
 */
bool r2c2_port_follow(struct r2c2_port *port)
{
	bool up = r2c2_dev_usable(port->dev);

	if (up == port->up)
		return false;
	WRITE_ONCE(port->up, up);
	r2c2_xdp_sync(port->node, port->num);
	return true;
}
