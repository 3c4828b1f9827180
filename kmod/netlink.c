// SPDX-License-Identifier: GPL-2.0
/*
 * netlink.c - the generic netlink family "r2c2": configuration, state
 * dumps, route sampling, flow events and routing assignments.
 */
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "r2c2.h"
#include "events.h"

static struct genl_family r2c2_genl_family;

enum r2c2_mcgrp {
	R2C2_MCGRP_EVENTS,
};

static const struct genl_multicast_group r2c2_mcgrps[] = {
	/* flow events and route assignments: the rack's traffic matrix */
	[R2C2_MCGRP_EVENTS] = { .name = R2C2_GENL_MCGRP_EVENTS,
				.flags = GENL_MCAST_CAP_NET_ADMIN },
};

static int r2c2_put_stats(struct sk_buff *msg, const u64 *v)
{
	struct nlattr *nest;
	int i;

	nest = nla_nest_start(msg, R2C2_A_STATS);
	if (!nest)
		return -EMSGSIZE;
	for (i = R2C2_S_UNSPEC + 1; i < __R2C2_S_MAX; i++)
		if (nla_put_u64_64bit(msg, i, v[i], R2C2_S_PAD)) {
			nla_nest_cancel(msg, nest);
			return -EMSGSIZE;
		}
	nla_nest_end(msg, nest);
	return 0;
}

/* NODE_GET reply; RTNL held */
static int r2c2_fill_node(struct sk_buff *msg, struct r2c2_node *node)
{
	const struct r2c2_tables *t;
	struct nlattr *nest;
	int i, err = -EMSGSIZE;

	if (nla_put_u16(msg, R2C2_A_NODE_ADDR, node->addr) ||
	    nla_put_string(msg, R2C2_A_IFNAME, node->dev->name) ||
	    nla_put_u32(msg, R2C2_A_IFINDEX, node->dev->ifindex) ||
	    nla_put_u32(msg, R2C2_A_HELLO_MS, node->hello_ms) ||
	    nla_put_u8(msg, R2C2_A_TREES, node->trees) ||
	    nla_put_u8(msg, R2C2_A_RPROTO, node->rproto) ||
	    nla_put_u16(msg, R2C2_A_ETHERTYPE, R2C2_ETH_P) ||
	    nla_put_u8(msg, R2C2_A_XDP, !!rcu_access_pointer(node->xdp)) ||
	    r2c2_reseq_fill_node(msg, node))
		return -EMSGSIZE;
	nest = nla_nest_start(msg, R2C2_A_TOPO_DIMS);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < node->ndims; i++)
		if (nla_put_u8(msg, R2C2_A_TOPO_DIM, node->dims[i]))
			return -EMSGSIZE;
	nla_nest_end(msg, nest);

	rcu_read_lock();
	t = rcu_dereference(node->tables);
	if (t) {
		if (nla_put_u32(msg, R2C2_A_NODES, t->n) ||
		    nla_put_u32(msg, R2C2_A_LINKS, t->links) ||
		    nla_put_u32(msg, R2C2_A_TABLES_GEN, t->gen))
			goto out;
		if (node->ndims && t->topo_ok >= 0 &&
		    nla_put_u8(msg, R2C2_A_TOPO_OK, t->topo_ok))
			goto out;
	} else {
		if (nla_put_u32(msg, R2C2_A_NODES, 0) ||
		    nla_put_u32(msg, R2C2_A_LINKS, 0) ||
		    nla_put_u32(msg, R2C2_A_TABLES_GEN, 0))
			goto out;
		if (node->ndims && nla_put_u8(msg, R2C2_A_TOPO_OK, 0))
			goto out;
	}
	err = 0;
out:
	rcu_read_unlock();
	return err;
}

static int r2c2_nl_node_get(struct sk_buff *skb, struct genl_info *info)
{
	struct r2c2_node *node;
	struct sk_buff *msg;
	void *hdr;
	int err;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &r2c2_genl_family, 0,
				R2C2_CMD_NODE_GET);
	if (!hdr) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	rtnl_lock();
	node = r2c2_genl_node(info);
	err = node ? r2c2_fill_node(msg, node) : -ENODEV;
	rtnl_unlock();
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/* TOPO_DIMS: 0..R2C2_MAX_DIMS TOPO_DIM u8 attributes, each >= 2 */
static int r2c2_parse_dims(const struct nlattr *nest, u8 *dims,
			   struct netlink_ext_ack *extack)
{
	const struct nlattr *a;
	unsigned int n = 0, nodes = 1;
	int rem;

	nla_for_each_nested(a, nest, rem) {
		if (nla_type(a) != R2C2_A_TOPO_DIM || nla_len(a) != sizeof(u8)) {
			NL_SET_ERR_MSG_ATTR(extack, a, "TOPO_DIMS holds u8 TOPO_DIM only");
			return -EINVAL;
		}
		if (n == R2C2_MAX_DIMS) {
			NL_SET_ERR_MSG_ATTR(extack, a, "at most 3 dimensions");
			return -EINVAL;
		}
		if (nla_get_u8(a) < 2) {
			NL_SET_ERR_MSG_ATTR(extack, a, "a dimension's radix must be 2..255");
			return -EINVAL;
		}
		dims[n++] = nla_get_u8(a);
		nodes *= nla_get_u8(a);
	}
	if (rem) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "malformed TOPO_DIMS");
		return -EINVAL;
	}
	if (nodes > R2C2_ADDR_NONE) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "declared topology has too many nodes");
		return -EINVAL;
	}
	return (int)n;
}

static int r2c2_nl_node_set(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct r2c2_node *node = r2c2_node_get(genl_info_net(info));
	struct nlattr **a = info->attrs;
	u8 dims[R2C2_MAX_DIMS] = {}, ndims = 0;
	u32 hello_ms, old_hello;
	u8 trees, rproto, old_ndims, old_dims[R2C2_MAX_DIMS];
	bool set_dims = false;
	const char *ifname = "r2c0";
	int err = 0;

	if (a[R2C2_A_TOPO_DIMS]) {
		err = r2c2_parse_dims(a[R2C2_A_TOPO_DIMS], dims, extack);
		if (err < 0)
			return err;
		ndims = (u8)err;
		set_dims = true;
		err = 0;	/* the count is not the request's result */
	}
	if (a[R2C2_A_ETHERTYPE] &&
	    nla_get_u16(a[R2C2_A_ETHERTYPE]) != R2C2_ETH_P) {
		NL_SET_ERR_MSG_ATTR(extack, a[R2C2_A_ETHERTYPE],
				    "only the default ethertype 0x88b5 is supported");
		return -EOPNOTSUPP;
	}
	if (a[R2C2_A_IFNAME])
		ifname = nla_data(a[R2C2_A_IFNAME]);

	rtnl_lock();
	if (!node->active && !a[R2C2_A_NODE_ADDR]) {
		NL_SET_ERR_MSG(extack, "NODE_ADDR is required to create the node");
		err = -EINVAL;
		goto out;
	}
	if (node->active && a[R2C2_A_IFNAME] &&
	    strcmp(ifname, node->dev->name)) {
		NL_SET_ERR_MSG_ATTR(extack, a[R2C2_A_IFNAME],
				    "the interface name is set at creation only");
		err = -EOPNOTSUPP;
		goto out;
	}

	old_hello = node->hello_ms;
	old_ndims = node->ndims;
	memcpy(old_dims, node->dims, sizeof(old_dims));
	hello_ms = a[R2C2_A_HELLO_MS] ? nla_get_u32(a[R2C2_A_HELLO_MS]) :
					 node->hello_ms;
	trees = a[R2C2_A_TREES] ? nla_get_u8(a[R2C2_A_TREES]) : node->trees;
	rproto = a[R2C2_A_RPROTO] ? nla_get_u8(a[R2C2_A_RPROTO]) : node->rproto;
	if (!set_dims) {
		ndims = node->ndims;
		memcpy(dims, node->dims, sizeof(dims));
	}

	/* a stacked device may veto the new MAC: ask before changing anything */
	if (node->active && a[R2C2_A_NODE_ADDR] &&
	    nla_get_u16(a[R2C2_A_NODE_ADDR]) != node->addr) {
		err = r2c2_dev_pre_set_mac(node,
					   nla_get_u16(a[R2C2_A_NODE_ADDR]),
					   extack);
		if (err)
			goto out;
	}

	spin_lock_bh(&node->lock);
	WRITE_ONCE(node->hello_ms, hello_ms);
	WRITE_ONCE(node->trees, trees);
	WRITE_ONCE(node->rproto, rproto);
	node->ndims = ndims;
	memcpy(node->dims, dims, sizeof(dims));
	WRITE_ONCE(node->topo_hash, r2c2_topo_hash(dims, ndims));
	spin_unlock_bh(&node->lock);
	r2c2_reseq_nl_set(node, a);

	if (!node->active) {
		err = r2c2_node_create(node, nla_get_u16(a[R2C2_A_NODE_ADDR]),
				       ifname);
		if (err) {
			NL_SET_ERR_MSG(extack, "cannot create the soft interface");
			spin_lock_bh(&node->lock);
			WRITE_ONCE(node->hello_ms, R2C2_HELLO_MS_DEFAULT);
			WRITE_ONCE(node->trees, R2C2_TREES_DEFAULT);
			WRITE_ONCE(node->rproto, R2C2_RP_RPS);
			node->ndims = 0;
			memset(node->dims, 0, sizeof(node->dims));
			WRITE_ONCE(node->topo_hash, 0);
			spin_unlock_bh(&node->lock);
		}
		goto out;
	}
	if (a[R2C2_A_NODE_ADDR])
		r2c2_node_set_addr(node, nla_get_u16(a[R2C2_A_NODE_ADDR]));
	if (hello_ms != old_hello)
		mod_delayed_work(system_wq, &node->tick, 0);
	if (ndims != old_ndims || memcmp(dims, old_dims, sizeof(dims))) {
		/* neighbours learn the new hash from our next hellos */
		mod_delayed_work(system_wq, &node->tick, 0);
		mod_delayed_work(r2c2_tables_wq, &node->recompute, 0);
	}
out:
	rtnl_unlock();
	return err;
}

static int r2c2_nl_node_del(struct sk_buff *skb, struct genl_info *info)
{
	struct r2c2_node *node;
	int err = 0;

	rtnl_lock();
	node = r2c2_genl_node(info);
	if (node)
		r2c2_node_destroy(node);
	else
		err = -ENODEV;
	rtnl_unlock();
	return err;
}

static int r2c2_nl_port_add(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct net *net = genl_info_net(info);
	struct nlattr **a = info->attrs;
	struct net_device *dev = NULL;
	struct r2c2_node *node;
	int err;

	if (!a[R2C2_A_PORT]) {
		NL_SET_ERR_MSG(extack, "PORT is required");
		return -EINVAL;
	}
	if (!a[R2C2_A_IFINDEX] && !a[R2C2_A_PORT_IFNAME]) {
		NL_SET_ERR_MSG(extack, "IFINDEX or PORT_IFNAME is required");
		return -EINVAL;
	}
	rtnl_lock();
	node = r2c2_genl_node(info);
	if (!node) {
		err = -ENODEV;
		goto out;
	}
	if (a[R2C2_A_IFINDEX]) {
		dev = __dev_get_by_index(net, nla_get_u32(a[R2C2_A_IFINDEX]));
		if (!dev) {
			NL_SET_ERR_MSG_ATTR(extack, a[R2C2_A_IFINDEX],
					    "no such interface");
			err = -ENODEV;
			goto out;
		}
	}
	if (a[R2C2_A_PORT_IFNAME]) {
		struct net_device *d;

		d = __dev_get_by_name(net, nla_data(a[R2C2_A_PORT_IFNAME]));
		if (!d) {
			NL_SET_ERR_MSG_ATTR(extack, a[R2C2_A_PORT_IFNAME],
					    "no such interface");
			err = -ENODEV;
			goto out;
		}
		if (dev && d != dev) {
			NL_SET_ERR_MSG_ATTR(extack, a[R2C2_A_PORT_IFNAME],
					    "IFINDEX and PORT_IFNAME disagree");
			err = -EINVAL;
			goto out;
		}
		dev = d;
	}
	err = r2c2_port_add(node, nla_get_u8(a[R2C2_A_PORT]), dev, extack);
out:
	rtnl_unlock();
	return err;
}

static int r2c2_nl_port_del(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct r2c2_node *node;
	int err = 0;
	u8 num;

	if (!info->attrs[R2C2_A_PORT]) {
		NL_SET_ERR_MSG(extack, "PORT is required");
		return -EINVAL;
	}
	num = nla_get_u8(info->attrs[R2C2_A_PORT]);
	rtnl_lock();
	node = r2c2_genl_node(info);
	if (!node) {
		err = -ENODEV;
	} else if (!rtnl_dereference(node->ports[num])) {
		NL_SET_ERR_MSG_ATTR(extack, info->attrs[R2C2_A_PORT],
				    "no such port");
		err = -ENOENT;
	} else {
		r2c2_port_del(node, num, true);
		r2c2_topo_changed(node);
	}
	rtnl_unlock();
	return err;
}

/**
 * r2c2_nl_key_get() - KEY_GET: key ids and overlap, never the keys
 * @skb: the request
 * @info: no attributes
 *
 * The reply carries what r2c2_auth_fill() puts.
 *
 * Return: 0 or a negative errno.
 */
static int r2c2_nl_key_get(struct sk_buff *skb, struct genl_info *info)
{
	struct r2c2_node *node;
	struct sk_buff *msg;
	int err = -EMSGSIZE;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &r2c2_genl_family, 0,
				R2C2_CMD_KEY_GET);
	if (!hdr)
		goto fail;
	rtnl_lock();
	node = r2c2_genl_node(info);
	err = node ? r2c2_auth_fill(node, msg) : -ENODEV;
	rtnl_unlock();
	if (err)
		goto fail;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
fail:
	nlmsg_free(msg);
	return err;
}

static void *r2c2_dump_put(struct sk_buff *skb, struct netlink_callback *cb,
			   u8 cmd)
{
	return genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
			   cb->nlh->nlmsg_seq, &r2c2_genl_family, NLM_F_MULTI,
			   cmd);
}

static struct r2c2_node *r2c2_dump_node(struct sk_buff *skb,
					struct netlink_callback *cb)
{
	struct r2c2_node *node = r2c2_node_get(sock_net(skb->sk));

	if (!READ_ONCE(node->active)) {
		NL_SET_ERR_MSG(cb->extack, "no r2c2 node in this namespace");
		return NULL;
	}
	return node;
}

/* one port; RTNL held (dev->name is stable) and RCU read side */
static int r2c2_fill_port(struct sk_buff *msg, struct r2c2_port *port)
{
	struct r2c2_nbr *nbr = rcu_dereference(port->nbr);
	u64 v[__R2C2_S_MAX];

	if (nla_put_u8(msg, R2C2_A_PORT, port->num) ||
	    nla_put_u32(msg, R2C2_A_IFINDEX, port->dev->ifindex) ||
	    nla_put_string(msg, R2C2_A_PORT_IFNAME, port->dev->name) ||
	    nla_put_u8(msg, R2C2_A_PORT_STATE, r2c2_port_state(port)))
		return -EMSGSIZE;
	if (nbr &&
	    (nla_put_u16(msg, R2C2_A_NBR_ADDR, nbr->addr) ||
	     nla_put_u8(msg, R2C2_A_NBR_PORT, nbr->port) ||
	     nla_put(msg, R2C2_A_NBR_MAC, ETH_ALEN, nbr->mac) ||
	     nla_put_u32(msg, R2C2_A_AGE_MS,
			 jiffies_to_msecs(jiffies - READ_ONCE(port->last_heard)))))
		return -EMSGSIZE;
	r2c2_port_stats_read(port, v);
	return r2c2_put_stats(msg, v);
}

static int r2c2_nl_port_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct r2c2_node *node = r2c2_dump_node(skb, cb);
	struct r2c2_port *port;
	unsigned long i;
	void *hdr;

	if (!node)
		return -ENODEV;
	/* a port's device name changes under RTNL only */
	rtnl_lock();
	rcu_read_lock();
	for (i = cb->args[0]; i < R2C2_MAX_PORTS; i++) {
		port = rcu_dereference(node->ports[i]);
		if (!port)
			continue;
		hdr = r2c2_dump_put(skb, cb, R2C2_CMD_PORT_GET);
		if (!hdr)
			break;
		if (r2c2_fill_port(skb, port)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	rcu_read_unlock();
	rtnl_unlock();
	cb->args[0] = i;
	return skb->len;
}

static int r2c2_nl_topo_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct r2c2_node *node = r2c2_dump_node(skb, cb);
	const struct r2c2_tables *t;
	struct nlattr *nest, *link;
	unsigned long u;
	unsigned int k;
	void *hdr;

	if (!node)
		return -ENODEV;
	rcu_read_lock();
	t = rcu_dereference(node->tables);
	if (!t)
		goto out_unlock;
	cb->seq = t->gen;
	for (u = cb->args[0]; u < t->n; u++) {
		hdr = r2c2_dump_put(skb, cb, R2C2_CMD_TOPO_GET);
		if (!hdr)
			break;
		genl_dump_check_consistent(cb, hdr);
		nest = nla_nest_start(skb, R2C2_A_TOPO_NODE);
		if (!nest || nla_put_u16(skb, R2C2_A_NODE_ADDR, t->addrs[u]))
			goto cancel;
		for (k = 0; k < R2C2_MAX_PORTS; k++) {
			u16 v = t->paths.nbr[u * R2C2_MAX_PORTS + k];

			if (v == R2C2_IDX_NONE)
				continue;
			link = nla_nest_start(skb, R2C2_A_TOPO_LINK);
			if (!link ||
			    nla_put_u8(skb, R2C2_A_PORT, k) ||
			    nla_put_u16(skb, R2C2_A_NBR_ADDR, t->addrs[v]) ||
			    nla_put_u8(skb, R2C2_A_NBR_PORT,
				       t->paths.nbr_port[u * R2C2_MAX_PORTS + k]))
				goto cancel;
			nla_nest_end(skb, link);
		}
		nla_nest_end(skb, nest);
		genlmsg_end(skb, hdr);
		continue;
cancel:
		genlmsg_cancel(skb, hdr);
		break;
	}
	cb->args[0] = u;
out_unlock:
	rcu_read_unlock();
	return skb->len;
}

static int r2c2_nl_tree_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct r2c2_node *node = r2c2_dump_node(skb, cb);
	const struct r2c2_tables *t;
	unsigned int trees;
	unsigned long i;
	void *hdr;

	if (!node)
		return -ENODEV;
	trees = READ_ONCE(node->trees);
	rcu_read_lock();
	t = rcu_dereference(node->tables);
	if (!t || t->me == R2C2_IDX_NONE)
		goto out_unlock;
	cb->seq = t->gen;
	for (i = cb->args[0]; i < (unsigned long)t->n * trees; i++) {
		unsigned int s = i / trees, tr = i % trees;
		size_t f = (size_t)s * R2C2_MAX_TREES + tr;

		hdr = r2c2_dump_put(skb, cb, R2C2_CMD_TREE_GET);
		if (!hdr)
			break;
		genl_dump_check_consistent(cb, hdr);
		if (nla_put_u16(skb, R2C2_A_TREE_SRC, t->addrs[s]) ||
		    nla_put_u8(skb, R2C2_A_TREE_ID, tr) ||
		    nla_put_u8(skb, R2C2_A_TREE_PORTS, t->fib_ports[f]) ||
		    nla_put_u8(skb, R2C2_A_TREE_PARENT, t->fib_parent[f])) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	cb->args[0] = i;
out_unlock:
	rcu_read_unlock();
	return skb->len;
}

static int r2c2_nl_route_get(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **a = info->attrs;
	const struct r2c2_tables *t;
	struct r2c2_node *node;
	u8 hops[R2C2_MAX_HOPS];
	u32 count = 0, i, *lc = NULL;
	struct sk_buff *msg = NULL;
	size_t size = NLMSG_GOODSIZE;
	int di, len = 0, err;
	u8 rproto;
	u16 dst;
	void *hdr;

	if (!a[R2C2_A_DST]) {
		NL_SET_ERR_MSG(extack, "DST is required");
		return -EINVAL;
	}
	dst = nla_get_u16(a[R2C2_A_DST]);
	if (a[R2C2_A_COUNT])
		count = nla_get_u32(a[R2C2_A_COUNT]);
	/* sampling is CPU time under the node's table lock: cap the anonymous */
	if (count > R2C2_ROUTE_SAMPLES_UNPRIV &&
	    !netlink_ns_capable(skb, genl_info_net(info)->user_ns,
				CAP_NET_ADMIN)) {
		NL_SET_ERR_MSG_ATTR(extack, a[R2C2_A_COUNT],
				    "COUNT above 100 needs CAP_NET_ADMIN");
		return -EPERM;
	}
	node = r2c2_genl_node(info);
	if (!node)
		return -ENODEV;
	rproto = a[R2C2_A_RPROTO] ? nla_get_u8(a[R2C2_A_RPROTO]) :
				    READ_ONCE(node->rproto);

	mutex_lock(&node->tbl_lock);
	t = rcu_dereference_protected(node->tables,
				      lockdep_is_held(&node->tbl_lock));
	err = -EHOSTUNREACH;
	if (!t || t->me == R2C2_IDX_NONE) {
		NL_SET_ERR_MSG(extack, "no tables yet");
		goto out;
	}
	di = r2c2_tables_idx(t, dst);
	if (di < 0) {
		NL_SET_ERR_MSG_ATTR(extack, a[R2C2_A_DST],
				    "destination is not in the discovered graph");
		goto out;
	}
	if (count) {
		size_t bytes = (size_t)t->n * R2C2_MAX_PORTS * sizeof(u32);

		err = -EMSGSIZE;
		if (bytes > U16_MAX - NLA_HDRLEN) {
			NL_SET_ERR_MSG(extack, "graph too large for LINK_COUNTS");
			goto out;
		}
		size += bytes;
		err = -ENOMEM;
		lc = kvzalloc(bytes, GFP_KERNEL);
		if (!lc)
			goto out;
	}
	for (i = 0; i < max_t(u32, count, 1); i++) {
		u16 u = t->me;
		int h;

		len = r2c2_route_sample(&t->paths, rproto, t->me, (u16)di,
					r2c2_rand, NULL, hops);
		if (len < 0) {
			err = len;
			NL_SET_ERR_MSG_ATTR(extack, a[R2C2_A_DST],
					    "no route to the destination");
			goto out;
		}
		if (!lc)
			continue;
		for (h = 0; h < len; h++) {
			lc[u * R2C2_MAX_PORTS + hops[h]]++;
			u = t->paths.nbr[u * R2C2_MAX_PORTS + hops[h]];
		}
		if ((i & 1023) == 1023)
			cond_resched();
	}
	err = -ENOMEM;
	msg = genlmsg_new(size, GFP_KERNEL);
	if (!msg)
		goto out;
	err = -EMSGSIZE;
	hdr = genlmsg_put_reply(msg, info, &r2c2_genl_family, 0,
				R2C2_CMD_ROUTE_GET);
	if (!hdr ||
	    nla_put_u16(msg, R2C2_A_DST, dst) ||
	    nla_put_u8(msg, R2C2_A_RPROTO, rproto) ||
	    nla_put(msg, R2C2_A_ROUTE, len, hops))
		goto out;
	if (lc &&
	    (nla_put_u32(msg, R2C2_A_COUNT, count) ||
	     nla_put_u32(msg, R2C2_A_NODES, t->n) ||
	     nla_put(msg, R2C2_A_LINK_COUNTS,
		     t->n * R2C2_MAX_PORTS * sizeof(u32), lc)))
		goto out;
	genlmsg_end(msg, hdr);
	err = 0;
out:
	mutex_unlock(&node->tbl_lock);
	kvfree(lc);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

static int r2c2_nl_stats_get(struct sk_buff *skb, struct genl_info *info)
{
	struct r2c2_node *node = r2c2_node_get(genl_info_net(info));
	u64 v[__R2C2_S_MAX];
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &r2c2_genl_family, 0,
				R2C2_CMD_STATS_GET);
	r2c2_node_stats_read(node, v);
	if (!hdr ||
	    nla_put_u16(msg, R2C2_A_NODE_ADDR, READ_ONCE(node->addr)) ||
	    r2c2_put_stats(msg, v)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static int r2c2_nl_stats_reset(struct sk_buff *skb, struct genl_info *info)
{
	struct r2c2_node *node = r2c2_node_get(genl_info_net(info));
	struct r2c2_port *port;
	int i;

	rtnl_lock();
	r2c2_stats_zero(node->stats);
	r2c2_xdp_stats_zero(node);
	r2c2_reseq_reset(node);
	for (i = 0; i < R2C2_MAX_PORTS; i++) {
		port = rtnl_dereference(node->ports[i]);
		if (port)
			r2c2_stats_zero(port->stats);
	}
	rtnl_unlock();
	return 0;
}

static int r2c2_nl_flow_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct r2c2_node *node = r2c2_dump_node(skb, cb);
	unsigned long b, skip, n;
	struct r2c2_flow *f;
	u8 rproto;
	void *hdr;

	if (!node)
		return -ENODEV;
	rcu_read_lock();
	for (b = cb->args[0]; b < ARRAY_SIZE(node->flows); b++) {
		skip = cb->args[1];
		n = 0;
		hlist_for_each_entry_rcu(f, &node->flows[b], hnode) {
			if (n++ < skip)
				continue;
			rproto = READ_ONCE(f->rproto);
			if (rproto == R2C2_RP_NODE)
				rproto = READ_ONCE(node->rproto);
			hdr = r2c2_dump_put(skb, cb, R2C2_CMD_FLOW_GET);
			if (!hdr)
				goto full;
			if (nla_put_u32(skb, R2C2_A_FLOW_ID, f->id) ||
			    nla_put_u16(skb, R2C2_A_DST, READ_ONCE(f->dst)) ||
			    nla_put_u8(skb, R2C2_A_RPROTO, rproto) ||
			    nla_put_u32(skb, R2C2_A_SEQ, atomic_read(&f->seq)) ||
			    nla_put_u64_64bit(skb, R2C2_A_PACKETS,
					      atomic64_read(&f->packets),
					      R2C2_A_PAD) ||
			    nla_put_u64_64bit(skb, R2C2_A_BYTES,
					      atomic64_read(&f->bytes),
					      R2C2_A_PAD) ||
			    nla_put_u32(skb, R2C2_A_AGE_MS,
					jiffies_to_msecs(jiffies -
							 READ_ONCE(f->last_used)))) {
				genlmsg_cancel(skb, hdr);
				goto full;
			}
			genlmsg_end(skb, hdr);
			cb->args[1] = n;
		}
		cb->args[1] = 0;
	}
full:
	rcu_read_unlock();
	cb->args[0] = b;
	return skb->len;
}

static int r2c2_nl_flow_set(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **a = info->attrs;
	struct r2c2_node *node;
	struct r2c2_flow *f;

	if (!a[R2C2_A_FLOW_ID] || !a[R2C2_A_RPROTO]) {
		NL_SET_ERR_MSG(extack, "FLOW_ID and RPROTO are required");
		return -EINVAL;
	}
	node = r2c2_genl_node(info);
	if (!node)
		return -ENODEV;
	rcu_read_lock();
	f = r2c2_flow_set(node, nla_get_u32(a[R2C2_A_FLOW_ID]),
			  a[R2C2_A_DST] ? nla_get_u16(a[R2C2_A_DST]) :
					  R2C2_ADDR_NONE,
			  nla_get_u8(a[R2C2_A_RPROTO]));
	rcu_read_unlock();
	if (!f) {
		NL_SET_ERR_MSG(extack, "sender flow table is full");
		return -ENOSPC;
	}
	return 0;
}

static int r2c2_nl_flow_event(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **a = info->attrs;
	struct r2c2_flow_evt evt = {};
	struct r2c2_node *node;
	u8 type = R2C2_FE_START, prio = 0, rproto;
	u32 demand = R2C2_DEMAND_UNLIMITED;
	int err;

	if (!a[R2C2_A_FLOW_ID] || !a[R2C2_A_DST]) {
		NL_SET_ERR_MSG(extack, "FLOW_ID and DST are required");
		return -EINVAL;
	}
	node = r2c2_genl_node(info);
	if (!node)
		return -ENODEV;
	rproto = READ_ONCE(node->rproto);
	if (a[R2C2_A_FLOW_EVT])
		type = nla_get_u8(a[R2C2_A_FLOW_EVT]);
	if (a[R2C2_A_PRIO])
		prio = nla_get_u8(a[R2C2_A_PRIO]);
	if (a[R2C2_A_RPROTO])
		rproto = nla_get_u8(a[R2C2_A_RPROTO]);
	if (a[R2C2_A_DEMAND_KBPS])
		demand = nla_get_u32(a[R2C2_A_DEMAND_KBPS]);
	evt.flow = htonl(nla_get_u32(a[R2C2_A_FLOW_ID]));
	evt.dst = htons(nla_get_u16(a[R2C2_A_DST]));
	evt.weight = a[R2C2_A_WEIGHT] ? nla_get_u8(a[R2C2_A_WEIGHT]) : 1;
	evt.evt_prio = (u8)(type << 4 | prio);
	evt.rproto_demand = htonl((u32)rproto << 30 | demand);
	err = r2c2_flow_evt_send(node, &evt);
	if (err)
		return err;
	/* the node's own listeners hear it as the rack does */
	r2c2_event_flow(node, READ_ONCE(node->addr), &evt, true);
	/*
	 * our own flow: its routing assignment lives while it is announced
	 * (a DIGEST or RESYNC names no flow)
	 */
	if (type == R2C2_FE_DIGEST || type == R2C2_FE_RESYNC)
		return 0;
	if (type == R2C2_FE_FINISH)
		r2c2_flow_forget(node, nla_get_u32(a[R2C2_A_FLOW_ID]));
	else
		r2c2_flow_hold(node, nla_get_u32(a[R2C2_A_FLOW_ID]),
			       nla_get_u16(a[R2C2_A_DST]), R2C2_FH_ANNOUNCED);
	return 0;
}

static int r2c2_nl_routes_send(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *tb[R2C2_A_MAX + 1];
	struct r2c2_route_ent *ent;
	struct r2c2_node *node;
	unsigned int n = 0;
	struct nlattr *e;
	int rem, err;

	if (!info->attrs[R2C2_A_ROUTES]) {
		NL_SET_ERR_MSG(extack, "ROUTES is required");
		return -EINVAL;
	}
	node = r2c2_genl_node(info);
	if (!node)
		return -ENODEV;
	ent = kcalloc(R2C2_ROUTES_MAX, sizeof(*ent), GFP_KERNEL);
	if (!ent)
		return -ENOMEM;
	err = -EINVAL;
	nla_for_each_nested(e, info->attrs[R2C2_A_ROUTES], rem) {
		if (nla_type(e) != R2C2_A_ROUTE_ENT) {
			NL_SET_ERR_MSG_ATTR(extack, e, "ROUTES holds ROUTE_ENT only");
			goto out;
		}
		if (n == R2C2_ROUTES_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, e, "too many entries (max 212)");
			goto out;
		}
		err = nla_parse_nested(tb, R2C2_A_MAX, e, r2c2_policy, extack);
		if (err)
			goto out;
		err = -EINVAL;
		if (!tb[R2C2_A_FLOW_SRC] || !tb[R2C2_A_FLOW_ID] ||
		    !tb[R2C2_A_RPROTO]) {
			NL_SET_ERR_MSG_ATTR(extack, e,
					    "ROUTE_ENT needs FLOW_SRC, FLOW_ID and RPROTO");
			goto out;
		}
		ent[n].src = htons(nla_get_u16(tb[R2C2_A_FLOW_SRC]));
		ent[n].flow = htonl(nla_get_u32(tb[R2C2_A_FLOW_ID]));
		ent[n].rproto = nla_get_u8(tb[R2C2_A_RPROTO]);
		n++;
	}
	if (rem || !n) {
		NL_SET_ERR_MSG_ATTR(extack, info->attrs[R2C2_A_ROUTES],
				    "ROUTES needs 1..212 well-formed entries");
		goto out;
	}
	err = r2c2_routes_send(node, ent, n);
	if (!err)	/* the node's own listeners hear it as the rack does */
		r2c2_event_routes(node, READ_ONCE(node->addr), ent, n, true);
out:
	kfree(ent);
	return err;
}

static int r2c2_nl_xdp_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *pfd = info->attrs[R2C2_A_XDP_PORTS_FD];
	struct nlattr *sfd = info->attrs[R2C2_A_XDP_STATS_FD];
	struct r2c2_node *node;
	int err = 0;

	if (!pfd != !sfd) {
		NL_SET_ERR_MSG_ATTR(info->extack, pfd ? pfd : sfd,
				    "XDP_PORTS_FD and XDP_STATS_FD go together");
		return -EINVAL;
	}
	rtnl_lock();
	node = r2c2_genl_node(info);
	if (!node) {
		err = -ENODEV;
	} else if (pfd) {
		err = r2c2_xdp_bind(node, nla_get_s32(pfd), nla_get_s32(sfd),
				    info->extack);
	} else {
		r2c2_xdp_unbind(node);
	}
	rtnl_unlock();
	return err;
}

static int r2c2_nl_reseq_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	return r2c2_reseq_dump(skb, cb, &r2c2_genl_family);
}

static const struct genl_small_ops r2c2_ops[] = {
	{
		.cmd = R2C2_CMD_NODE_GET,
		.doit = r2c2_nl_node_get,
	},
	{
		.cmd = R2C2_CMD_NODE_SET,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = r2c2_nl_node_set,
	},
	{
		.cmd = R2C2_CMD_NODE_DEL,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = r2c2_nl_node_del,
	},
	{
		.cmd = R2C2_CMD_PORT_ADD,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = r2c2_nl_port_add,
	},
	{
		.cmd = R2C2_CMD_PORT_DEL,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = r2c2_nl_port_del,
	},
	{
		.cmd = R2C2_CMD_PORT_GET,
		.dumpit = r2c2_nl_port_dump,
	},
	{
		.cmd = R2C2_CMD_TOPO_GET,
		.dumpit = r2c2_nl_topo_dump,
	},
	{
		.cmd = R2C2_CMD_TREE_GET,
		.dumpit = r2c2_nl_tree_dump,
	},
	{
		.cmd = R2C2_CMD_ROUTE_GET,
		.doit = r2c2_nl_route_get,
	},
	{
		.cmd = R2C2_CMD_STATS_GET,
		.doit = r2c2_nl_stats_get,
	},
	{
		.cmd = R2C2_CMD_STATS_RESET,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = r2c2_nl_stats_reset,
	},
	{
		.cmd = R2C2_CMD_FLOW_GET,
		.dumpit = r2c2_nl_flow_dump,
	},
	{
		.cmd = R2C2_CMD_FLOW_SET,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = r2c2_nl_flow_set,
	},
	{
		.cmd = R2C2_CMD_FLOW_EVENT,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = r2c2_nl_flow_event,
	},
	{
		.cmd = R2C2_CMD_ROUTES_SEND,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = r2c2_nl_routes_send,
	},
	{
		.cmd = R2C2_CMD_RESEQ_GET,
		.dumpit = r2c2_nl_reseq_dump,
	},
	{
		.cmd = R2C2_CMD_RATE_SET,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = r2c2_nl_rate_set,
	},
	{
		.cmd = R2C2_CMD_QFLOW_GET,
		.dumpit = r2c2_nl_qflow_dump,
	},
	{
		.cmd = R2C2_CMD_CLASS_SET,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = r2c2_nl_class_set,
	},
	{
		.cmd = R2C2_CMD_CLASS_DEL,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = r2c2_nl_class_del,
	},
	{
		.cmd = R2C2_CMD_CLASS_GET,
		.dumpit = r2c2_nl_class_dump,
	},
	{
		.cmd = R2C2_CMD_KEY_SET,
		.flags = GENL_ADMIN_PERM,
		.doit = r2c2_nl_key_set,
	},
	{
		.cmd = R2C2_CMD_KEY_DEL,
		.flags = GENL_ADMIN_PERM,
		.doit = r2c2_nl_key_del,
	},
	{
		.cmd = R2C2_CMD_KEY_GET,
		.doit = r2c2_nl_key_get,
	},
	{
		.cmd = R2C2_CMD_XDP_SET,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = r2c2_nl_xdp_set,
	},
};

static struct genl_family r2c2_genl_family __ro_after_init = {
	.name = R2C2_GENL_NAME,
	.version = R2C2_GENL_VERSION,
	.maxattr = R2C2_A_MAX,
	.policy = r2c2_policy,
	.netnsok = true,
	.module = THIS_MODULE,
	.small_ops = r2c2_ops,
	.n_small_ops = ARRAY_SIZE(r2c2_ops),
	.resv_start_op = R2C2_CMD_NODE_GET,
	.mcgrps = r2c2_mcgrps,
	.n_mcgrps = ARRAY_SIZE(r2c2_mcgrps),
};

static struct sk_buff *r2c2_event_new(struct r2c2_node *node, size_t size,
				      u8 cmd, void **hdr, gfp_t gfp)
{
	struct sk_buff *msg;

	if (!genl_has_listeners(&r2c2_genl_family, node->net,
				R2C2_MCGRP_EVENTS))
		return NULL;
	msg = genlmsg_new(size, gfp);
	if (!msg)
		return NULL;
	*hdr = genlmsg_put(msg, 0, 0, &r2c2_genl_family, 0, cmd);
	if (!*hdr) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static void r2c2_event_send(struct r2c2_node *node, struct sk_buff *msg,
			    void *hdr, gfp_t gfp)
{
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&r2c2_genl_family, node->net, msg, 0,
				R2C2_MCGRP_EVENTS, gfp);
}

/**
 * r2c2_genl_topo_event() - announce new tables (TOPO_EVENT)
 * @node: the node
 * @t: the new tables
 *
 * Carries NODE_ADDR, NODES, LINKS, TABLES_GEN and, with a declared
 * topology, TOPO_OK.
 *
 * Context: process.
 */
static void r2c2_genl_topo_event(struct r2c2_node *node,
				 const struct r2c2_tables *t)
{
	struct sk_buff *msg;
	void *hdr;

	msg = r2c2_event_new(node, NLMSG_GOODSIZE, R2C2_CMD_TOPO_EVENT, &hdr,
			     GFP_KERNEL);
	if (!msg)
		return;
	if (nla_put_u16(msg, R2C2_A_NODE_ADDR, READ_ONCE(node->addr)) ||
	    nla_put_u32(msg, R2C2_A_NODES, t->n) ||
	    nla_put_u32(msg, R2C2_A_LINKS, t->links) ||
	    nla_put_u32(msg, R2C2_A_TABLES_GEN, t->gen) ||
	    (t->topo_ok >= 0 && nla_put_u8(msg, R2C2_A_TOPO_OK, t->topo_ok))) {
		nlmsg_free(msg);
		return;
	}
	r2c2_event_send(node, msg, hdr, GFP_KERNEL);
}

/**
 * r2c2_genl_flow_event() - announce a flow event heard from the rack
 * @node: the node
 * @src: the flow's source node
 * @evt: the event (wire format)
 *
 * Context: any.
 */
static void r2c2_genl_flow_event(struct r2c2_node *node, u16 src,
				 const struct r2c2_flow_evt *evt)
{
	u32 rd = ntohl(evt->rproto_demand);
	struct sk_buff *msg;
	void *hdr;

	msg = r2c2_event_new(node, NLMSG_GOODSIZE, R2C2_CMD_FLOW_EVENT, &hdr,
			     GFP_ATOMIC);
	if (!msg)
		return;
	if (nla_put_u16(msg, R2C2_A_FLOW_SRC, src) ||
	    nla_put_u32(msg, R2C2_A_FLOW_ID, ntohl(evt->flow)) ||
	    nla_put_u16(msg, R2C2_A_DST, ntohs(evt->dst)) ||
	    nla_put_u8(msg, R2C2_A_WEIGHT, evt->weight) ||
	    nla_put_u8(msg, R2C2_A_PRIO, evt->evt_prio & 0xf) ||
	    nla_put_u32(msg, R2C2_A_DEMAND_KBPS, rd & R2C2_DEMAND_UNLIMITED) ||
	    nla_put_u8(msg, R2C2_A_RPROTO, rd >> 30) ||
	    nla_put_u8(msg, R2C2_A_FLOW_EVT, evt->evt_prio >> 4)) {
		nlmsg_free(msg);
		return;
	}
	r2c2_event_send(node, msg, hdr, GFP_ATOMIC);
}

/**
 * r2c2_genl_routes_event() - announce routing assignments heard
 * @node: the node
 * @src: the node that broadcast them (NODE_ADDR)
 * @ent: entries (wire format)
 * @count: number of entries
 *
 * Carries NODE_ADDR and ROUTES, a nest of ROUTE_ENT {FLOW_SRC, FLOW_ID,
 * RPROTO}.
 *
 * Context: any.
 */
static void r2c2_genl_routes_event(struct r2c2_node *node, u16 src,
				   const struct r2c2_route_ent *ent,
				   unsigned int count)
{
	struct nlattr *list, *e;
	struct sk_buff *msg;
	unsigned int i;
	void *hdr;

	msg = r2c2_event_new(node, 64 + count * 32, R2C2_CMD_ROUTES_EVENT,
			     &hdr, GFP_ATOMIC);
	if (!msg)
		return;
	if (nla_put_u16(msg, R2C2_A_NODE_ADDR, src))
		goto fail;
	list = nla_nest_start(msg, R2C2_A_ROUTES);
	if (!list)
		goto fail;
	for (i = 0; i < count; i++) {
		e = nla_nest_start(msg, R2C2_A_ROUTE_ENT);
		if (!e ||
		    nla_put_u16(msg, R2C2_A_FLOW_SRC, ntohs(ent[i].src)) ||
		    nla_put_u32(msg, R2C2_A_FLOW_ID, ntohl(ent[i].flow)) ||
		    nla_put_u8(msg, R2C2_A_RPROTO, ent[i].rproto))
			goto fail;
		nla_nest_end(msg, e);
	}
	nla_nest_end(msg, list);
	r2c2_event_send(node, msg, hdr, GFP_ATOMIC);
	return;
fail:
	nlmsg_free(msg);
}

static const struct r2c2_event_ops r2c2_genl_event_ops = {
	.topo = r2c2_genl_topo_event,
	.flow = r2c2_genl_flow_event,
	.routes = r2c2_genl_routes_event,
};

/**
 * r2c2_genl_register() - register the family and its notifications of
 *	events (last step of module init)
 *
 * Return: 0 or a negative errno.
 */
int r2c2_genl_register(void)
{
	int err = genl_register_family(&r2c2_genl_family);

	if (!err)
		r2c2_event_ops_set(&r2c2_genl_event_ops);
	return err;
}

/**
 * r2c2_genl_unregister() - stop the notifications, then unregister the
 *	family (first step of exit)
 *
 * Nodes hear frames until the pernet exit: a notification must not
 * reach the family once it is gone (its group's ids may be another
 * family's by then).
 */
void r2c2_genl_unregister(void)
{
	r2c2_event_ops_set(NULL);
	genl_unregister_family(&r2c2_genl_family);
}
