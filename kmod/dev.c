// SPDX-License-Identifier: GPL-2.0
/*
 * dev.c - r2c0, the node's soft interface: turns Ethernet frames of the
 * stack into source-routed data frames (unicast) or tree broadcasts
 * (broadcast and multicast), and keeps the sender flow table.
 */
#include <linux/hash.h>
#include <linux/rtnetlink.h>

#include <r2c2/sch.h>

#include "r2c2.h"
#include "events.h"

static struct r2c2_flow *r2c2_flow_find(struct r2c2_node *node, u32 id)
{
	struct hlist_head *head = &node->flows[hash_32(id, R2C2_FLOW_HBITS)];
	struct r2c2_flow *f;

	hlist_for_each_entry_rcu(f, head, hnode,
				 lockdep_is_held(&node->flow_lock))
		if (f->id == id)
			return f;
	return NULL;
}

/* The flow, inserted if new; NULL when the table is full or memory is
 * short. flow_lock held.
 */
static struct r2c2_flow *__r2c2_flow_insert(struct r2c2_node *node, u32 id,
					    u16 dst, u8 rproto)
{
	struct r2c2_flow *f;

	lockdep_assert_held(&node->flow_lock);
	f = r2c2_flow_find(node, id);
	if (f || node->nflows >= R2C2_FLOW_MAX)
		return f;
	f = kzalloc(sizeof(*f), GFP_ATOMIC);
	if (!f)
		return NULL;
	f->id = id;
	f->dst = dst;
	f->rproto = rproto;
	f->last_used = jiffies;
	hlist_add_head_rcu(&f->hnode,
			   &node->flows[hash_32(id, R2C2_FLOW_HBITS)]);
	node->nflows++;
	return f;
}

/* Insert a flow; NULL when the table is full or memory is short. */
static struct r2c2_flow *r2c2_flow_insert(struct r2c2_node *node, u32 id,
					  u16 dst, u8 rproto)
{
	struct r2c2_flow *f;

	spin_lock_bh(&node->flow_lock);
	f = __r2c2_flow_insert(node, id, dst, rproto);
	spin_unlock_bh(&node->flow_lock);
	return f;
}

/**
 * r2c2_flow_set() - set the routing protocol of a sender flow
 * @node: the node
 * @id: flow identifier
 * @dst: destination, or R2C2_ADDR_NONE to leave it as it is
 * @rproto: enum r2c2_rproto, or R2C2_RP_NODE for the node default
 *
 * Creates the flow when it does not exist yet, so that an assignment may
 * precede the flow's first packet.
 *
 * Context: any; caller in an RCU read-side section.
 * Return: the flow, or NULL when the table is full.
 */
struct r2c2_flow *r2c2_flow_set(struct r2c2_node *node, u32 id, u16 dst,
				u8 rproto)
{
	struct r2c2_flow *f = r2c2_flow_find(node, id);

	if (!f)
		f = r2c2_flow_insert(node, id, dst, rproto);
	if (!f)
		return NULL;
	if (dst != R2C2_ADDR_NONE)
		WRITE_ONCE(f->dst, dst);
	WRITE_ONCE(f->rproto, rproto);
	WRITE_ONCE(f->last_used, jiffies);
	return f;
}

/**
 * r2c2_flow_hold() - keep a sender flow while it lives, though idle
 * @node: the node
 * @id: flow identifier
 * @dst: its destination, or R2C2_ADDR_NONE
 * @why: R2C2_FH_QDISC (the qdisc started it) or R2C2_FH_ANNOUNCED (a
 *	START, UPDATE or REFRESH request announced it)
 *
 * Creates the flow (node default routing) when there is none, so that an
 * assignment heard later lives as long as the flow does.
 *
 * Context: process.
 */
void r2c2_flow_hold(struct r2c2_node *node, u32 id, u16 dst, u8 why)
{
	struct r2c2_flow *f;

	spin_lock_bh(&node->flow_lock);
	f = __r2c2_flow_insert(node, id, dst, R2C2_RP_NODE);
	if (f) {
		f->held |= why;
		if (why & R2C2_FH_ANNOUNCED)
			WRITE_ONCE(f->announced, jiffies);
		if (dst != R2C2_ADDR_NONE)
			WRITE_ONCE(f->dst, dst);
	}
	spin_unlock_bh(&node->flow_lock);
	if (!f)
		r2c2_stat_add(node, NULL, R2C2_S_FLOW_TABLE_FULL, 1);
}

/**
 * r2c2_flow_forget() - a sender flow finished: forget it and its routing
 * @node: the node
 * @id: flow identifier
 *
 * Context: process.
 */
void r2c2_flow_forget(struct r2c2_node *node, u32 id)
{
	struct r2c2_flow *f;

	spin_lock_bh(&node->flow_lock);
	f = r2c2_flow_find(node, id);
	if (f) {
		hlist_del_rcu(&f->hnode);
		node->nflows--;
		kfree_rcu(f, rcu);
	}
	spin_unlock_bh(&node->flow_lock);
}

/**
 * r2c2_flows_release() - drop one reason to keep every sender flow
 * @node: the node
 * @why: R2C2_FH_* (R2C2_FH_QDISC: the qdisc on r2c0 went away, its
 *	flows will never finish)
 *
 * Context: process.
 */
void r2c2_flows_release(struct r2c2_node *node, u8 why)
{
	struct r2c2_flow *f;
	unsigned int i;

	spin_lock_bh(&node->flow_lock);
	for (i = 0; i < ARRAY_SIZE(node->flows); i++)
		hlist_for_each_entry(f, &node->flows[i], hnode)
			f->held &= ~why;
	spin_unlock_bh(&node->flow_lock);
}

/* An idle flow that nothing holds; flow_lock held. */
static bool r2c2_flow_expired(const struct r2c2_flow *f)
{
	if (time_before(jiffies, READ_ONCE(f->last_used) + R2C2_FLOW_IDLE) ||
	    (f->held & R2C2_FH_QDISC))
		return false;
	return !(f->held & R2C2_FH_ANNOUNCED) ||
	       time_after_eq(jiffies, READ_ONCE(f->announced) +
			     R2C2_FLOW_ANNOUNCE_TTL);
}

/**
 * r2c2_flows_gc() - forget idle sender flows that nothing holds
 * @node: the node
 * @all: forget every flow
 *
 * Context: process or softirq context.
 */
void r2c2_flows_gc(struct r2c2_node *node, bool all)
{
	struct r2c2_flow *f;
	struct hlist_node *tmp;
	unsigned int i;

	spin_lock_bh(&node->flow_lock);
	for (i = 0; i < ARRAY_SIZE(node->flows); i++)
		hlist_for_each_entry_safe(f, tmp, &node->flows[i], hnode) {
			if (!all && !r2c2_flow_expired(f))
				continue;
			hlist_del_rcu(&f->hnode);
			node->nflows--;
			kfree_rcu(f, rcu);
		}
	spin_unlock_bh(&node->flow_lock);
}

/* Drop a frame r2c0 was asked to send: counted by reason and as r2c0's
 * tx_dropped (ip -s link).
 */
static bool r2c2_dev_drop(struct r2c2_node *node, struct sk_buff *skb,
			  enum r2c2_stat why)
{
	dev_core_stats_tx_dropped_inc(skb->dev);
	r2c2_drop(node, why, NULL, skb);
	return false;
}

/*
 * Broadcast or multicast frame of r2c0: send it over a broadcast tree.
 * False when it was dropped.
 */
static bool r2c2_dev_bcast(struct r2c2_node *node, struct sk_buff *skb)
{
	if (skb_cow_head(skb, R2C2_CTL_HLEN + LL_MAX_HEADER))
		return r2c2_dev_drop(node, skb, R2C2_S_DROP_NOMEM);
	skb_push(skb, R2C2_CTL_HLEN);
	r2c2_bcast_send(node, skb, R2C2_T_BCAST_ETH, ETH_HLEN);
	return true;
}

/*
 * Unicast to another node: sample a route and send the first hop.
 * False when the frame was dropped.
 */
static bool r2c2_dev_unicast(struct r2c2_node *node, struct sk_buff *skb,
			     u16 dst)
{
	/* read before skb_cow_head(), which may move the head */
	__be16 proto = ((const struct ethhdr *)skb->data)->h_proto;
	/* with a rack key, ARP and ND are signed for their destination */
	bool sign = unlikely(r2c2_auth_on(node)) &&
		    r2c2_lladdr_frame(skb, ETH_HLEN, proto);
	u8 hops[R2C2_MAX_HOPS], rproto;
	const struct r2c2_tables *t;
	struct r2c2_data_hdr *h;
	struct r2c2_flow *f;
	struct r2c2_port *port;
	struct r2c2_nbr *nbr;
	int di, len;
	u32 id, seq = 0;

	t = rcu_dereference(node->tables);
	di = t ? r2c2_tables_idx(t, dst) : -1;
	if (di < 0 || t->me == R2C2_IDX_NONE)
		return r2c2_dev_drop(node, skb, R2C2_S_DROP_NO_ROUTE);
	id = r2c2_flow_id(skb);
	f = r2c2_flow_find(node, id);
	if (!f)
		f = r2c2_flow_insert(node, id, dst, R2C2_RP_NODE);
	rproto = f ? READ_ONCE(f->rproto) : R2C2_RP_NODE;
	if (rproto == R2C2_RP_NODE)
		rproto = READ_ONCE(node->rproto);
	len = r2c2_route_sample(&t->paths, rproto, t->me, (u16)di, r2c2_rand,
				NULL, hops);
	if (len <= 0)
		return r2c2_dev_drop(node, skb, R2C2_S_DROP_NO_ROUTE);
	port = rcu_dereference(node->ports[hops[0]]);
	if (!port)
		return r2c2_dev_drop(node, skb, R2C2_S_DROP_NO_PORT);
	nbr = rcu_dereference(port->nbr);
	if (!nbr || !READ_ONCE(port->up))
		return r2c2_dev_drop(node, skb, R2C2_S_DROP_PORT_DOWN);
	if (skb_cow_head(skb, R2C2_DATA_HLEN + LL_RESERVED_SPACE(port->dev)))
		return r2c2_dev_drop(node, skb, R2C2_S_DROP_NOMEM);
	if (f) {
		seq = (u32)atomic_inc_return(&f->seq) - 1;
		atomic64_inc(&f->packets);
		atomic64_add(skb->len - ETH_HLEN, &f->bytes);
		if (READ_ONCE(f->dst) != dst)
			WRITE_ONCE(f->dst, dst);
		if (time_after(jiffies, READ_ONCE(f->last_used)))
			WRITE_ONCE(f->last_used, jiffies);
	} else {
		r2c2_stat_add(node, NULL, R2C2_S_FLOW_TABLE_FULL, 1);
	}
	skb_pull(skb, ETH_HLEN);
	h = skb_push(skb, R2C2_DATA_HLEN);
	memset(h, 0, sizeof(*h));
	h->ver_type = r2c2_ver_type(R2C2_T_DATA);
	h->rlen = (u8)len;
	/* the sender is the first forwarding node: it takes hop 0 */
	h->ridx = 1;
	h->rproto = rproto;
	h->flow = htonl(id);
	h->src = htons(READ_ONCE(node->addr));
	h->dst = htons(dst);
	h->seq = htonl(seq);
	h->plen = htons(skb->len - R2C2_DATA_HLEN);
	h->proto = proto;
	r2c2_route_pack(h->route, hops, len);
	h->csum = (__force __sum16)r2c2_data_csum(h);
	if (sign && r2c2_auth_data_sign(node, skb))
		return r2c2_dev_drop(node, skb, R2C2_S_DROP_NOMEM);
	r2c2_stat_add(node, port, R2C2_S_ORIGINATED, 1);
	r2c2_port_xmit(port, skb, nbr->mac);
	return true;
}

static netdev_tx_t r2c2_dev_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct r2c2_dev_priv *priv = netdev_priv(dev);
	struct r2c2_node *node = priv->node;
	const struct ethhdr *eth;
	unsigned int len = skb->len;
	bool sent;
	u16 dst;

	if (!READ_ONCE(node->active)) {
		r2c2_dev_drop(node, skb, R2C2_S_DROP_NO_NODE);
		return NETDEV_TX_OK;
	}
	if (!pskb_may_pull(skb, ETH_HLEN)) {
		r2c2_dev_drop(node, skb, R2C2_S_DROP_TRUNCATED);
		return NETDEV_TX_OK;
	}
	eth = (const struct ethhdr *)skb->data;
	rcu_read_lock();
	if (is_multicast_ether_addr(eth->h_dest)) {
		sent = r2c2_dev_bcast(node, skb);
		goto out;
	}
	dst = r2c2_mac_to_addr(eth->h_dest);
	if (dst == R2C2_ADDR_NONE) {
		sent = r2c2_dev_drop(node, skb, R2C2_S_DROP_NO_ROUTE);
		goto out;
	}
	if (dst == READ_ONCE(node->addr)) {
		skb_scrub_packet(skb, false);
		r2c2_stat_add(node, NULL, R2C2_S_DELIVERED, 1);
		r2c2_deliver_eth(node, skb);
		sent = true;
		goto out;
	}
	sent = r2c2_dev_unicast(node, skb, dst);
out:
	rcu_read_unlock();
	/* frames handed on; those dropped are r2c0's tx_dropped */
	if (sent)
		dev_sw_netstats_tx_add(dev, 1, len);
	return NETDEV_TX_OK;
}

static int r2c2_dev_init(struct net_device *dev)
{
	struct r2c2_dev_priv *priv = netdev_priv(dev);
	int err;

	dev->tstats = netdev_alloc_pcpu_stats(struct pcpu_sw_netstats);
	if (!dev->tstats)
		return -ENOMEM;
	err = gro_cells_init(&priv->gro, dev);
	if (err) {
		free_percpu(dev->tstats);
		dev->tstats = NULL;
	}
	return err;
}

/* after dev_close() and a grace period: no r2c2_deliver_eth() is left */
static void r2c2_dev_uninit(struct net_device *dev)
{
	struct r2c2_dev_priv *priv = netdev_priv(dev);

	gro_cells_destroy(&priv->gro);
	free_percpu(dev->tstats);
}

/*
 * r2c0's counters: packets and bytes of its own (tstats); rx_dropped is
 * what the node dropped (r2c2_drops_sum() of its counters) but r2c0's
 * own transmit drops, which the core adds as tx_dropped.
 */
static void r2c2_dev_get_stats64(struct net_device *dev,
				 struct rtnl_link_stats64 *s)
{
	struct r2c2_dev_priv *priv = netdev_priv(dev);
	struct net_device_core_stats __percpu *core;
	u64 cnt[__R2C2_S_MAX], drops, tx = 0;
	unsigned int cpu;

	dev_get_tstats64(dev, s);
	if (!priv->node->stats)
		return;
	r2c2_node_stats_read(priv->node, cnt);
	drops = r2c2_drops_sum(cnt);
	core = READ_ONCE(dev->core_stats);
	if (core)
		for_each_possible_cpu(cpu)
			tx += READ_ONCE(per_cpu_ptr(core, cpu)->tx_dropped);
	s->rx_dropped += drops > tx ? drops - tx : 0;
}

static const struct net_device_ops r2c2_netdev_ops = {
	.ndo_init = r2c2_dev_init,
	.ndo_uninit = r2c2_dev_uninit,
	.ndo_start_xmit = r2c2_dev_xmit,
	.ndo_get_stats64 = r2c2_dev_get_stats64,
	.ndo_validate_addr = eth_validate_addr,
};

static void r2c2_dev_setup(struct net_device *dev)
{
	ether_setup(dev);
	dev->netdev_ops = &r2c2_netdev_ops;
	dev->needs_free_netdev = true;
	/* fits 1500-byte ports; jumbo ports allow more (port_xmit checks) */
	dev->mtu = ETH_DATA_LEN - R2C2_DATA_HLEN;
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = ETH_MAX_MTU - R2C2_DATA_HLEN;
	dev->needed_headroom = R2C2_DATA_HLEN + ETH_HLEN;
	r2c2_dev_set_lltx(dev);
	r2c2_dev_set_netns_local(dev);
	r2c2_link_setup(dev);
}

/**
 * r2c2_dev_create() - create and register r2c0 of a node
 * @node: the node, @node->addr set
 * @ifname: interface name (may hold a %d)
 *
 * Context: RTNL held.
 * Return: the registered netdev or an ERR_PTR().
 */
struct net_device *r2c2_dev_create(struct r2c2_node *node,
				   const char *ifname)
{
	struct r2c2_dev_priv *priv;
	struct net_device *dev;
	u8 mac[ETH_ALEN];
	int err;

	dev = alloc_netdev(sizeof(*priv), ifname, NET_NAME_USER,
			   r2c2_dev_setup);
	if (!dev)
		return ERR_PTR(-ENOMEM);
	priv = netdev_priv(dev);
	priv->node = node;
	dev_net_set(dev, node->net);
	r2c2_addr_to_mac(node->addr, mac);
	eth_hw_addr_set(dev, mac);
	err = register_netdevice(dev);
	if (err) {
		free_netdev(dev);
		return ERR_PTR(err);
	}
	netif_carrier_on(dev);
	return dev;
}

/**
 * r2c2_dev_pre_set_mac() - ask whether r2c0 may take the MAC of an address
 * @node: the node
 * @addr: the node's address to be
 * @extack: netlink extended ack, for the refusal's reason
 *
 * Sends NETDEV_PRE_CHANGEADDR, as dev_set_mac_address() does, so that
 * an upper device or an offloading driver can veto the change before
 * anything of the node has changed.
 *
 * Context: RTNL held.
 * Return: 0, or the veto's error.
 */
int r2c2_dev_pre_set_mac(struct r2c2_node *node, u16 addr,
			 struct netlink_ext_ack *extack)
{
	u8 mac[ETH_ALEN];
	int err;

	ASSERT_RTNL();
	if (!node->dev)
		return 0;
	r2c2_addr_to_mac(addr, mac);
	err = dev_pre_changeaddr_notify(node->dev, mac, extack);
	/* what NL_SET_ERR_MSG_WEAK() does on 6.12: keep the veto's own */
	if (err && extack && !extack->_msg)
		NL_SET_ERR_MSG(extack,
			       "the soft interface's new MAC address was refused by a device stacked on it");
	return err;
}

/**
 * r2c2_dev_set_mac() - give r2c0 the MAC of the node's (new) address
 * @node: the node
 *
 * The caller asked r2c2_dev_pre_set_mac() first.
 *
 * Context: RTNL held.
 */
void r2c2_dev_set_mac(struct r2c2_node *node)
{
	u8 mac[ETH_ALEN];

	ASSERT_RTNL();
	if (!node->dev)
		return;
	r2c2_addr_to_mac(node->addr, mac);
	eth_hw_addr_set(node->dev, mac);
	call_netdevice_notifiers(NETDEV_CHANGEADDR, node->dev);
}
