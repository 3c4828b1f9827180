// SPDX-License-Identifier: GPL-2.0
/*
 * link.c - r2c0 as rtnetlink and ethtool see it: a link of kind "r2c2"
 * whose IFLA_INFO_DATA reports the node's configuration (ip -d link show
 * r2c0, with iproute2's link_r2c2.so plugin), and the node's counters as
 * ethtool statistics (ethtool -S r2c0).
 *
 * r2c0 is created by configuring the node (r2c2ctl node set addr), never by
 * ip link add: the node is a per-namespace object with ports, tables
 * and works, and r2c0 is only its face. The link ops therefore refuse
 * every IFLA_INFO_KIND "r2c2" request in ->validate (before anything is
 * allocated), and have neither ->setup nor ->dellink, so rtnetlink
 * cannot create r2c0 and ip link del r2c0 stays refused (EOPNOTSUPP)
 * as it was: only the node's teardown unregisters r2c0.
 */
#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <net/rtnetlink.h>

#include <r2c2/stat_names.h>

#include "r2c2.h"

static const char r2c2_ethtool_names[][ETH_GSTRING_LEN] = { R2C2_STAT_NAMES };

static struct r2c2_node *r2c2_link_node(const struct net_device *dev)
{
	const struct r2c2_dev_priv *priv = netdev_priv(dev);

	return priv->node;
}

static int r2c2_link_validate(struct nlattr *tb[], struct nlattr *data[],
			      struct netlink_ext_ack *extack)
{
	NL_SET_ERR_MSG(extack,
		       "r2c2 links are made and changed with r2c2ctl (r2c2ctl node set addr ADDR), not ip link");
	return -EOPNOTSUPP;
}

/* RTNL held: the node's configuration changes under RTNL only */
static size_t r2c2_link_get_size(const struct net_device *dev)
{
	const struct r2c2_node *node = r2c2_link_node(dev);

	return nla_total_size(sizeof(u16)) +		/* IFLA_R2C2_ADDR */
	       nla_total_size(sizeof(u8)) +		/* IFLA_R2C2_RPROTO */
	       nla_total_size(sizeof(u32)) +		/* IFLA_R2C2_HELLO_MS */
	       (node->ndims ? nla_total_size(node->ndims) : 0);
}

static int r2c2_link_fill_info(struct sk_buff *skb,
			       const struct net_device *dev)
{
	const struct r2c2_node *node = r2c2_link_node(dev);

	if (nla_put_u16(skb, IFLA_R2C2_ADDR, node->addr) ||
	    nla_put_u8(skb, IFLA_R2C2_RPROTO, node->rproto) ||
	    nla_put_u32(skb, IFLA_R2C2_HELLO_MS, node->hello_ms) ||
	    (node->ndims && nla_put(skb, IFLA_R2C2_TOPO_DIMS, node->ndims,
				    node->dims)))
		return -EMSGSIZE;
	return 0;
}

static struct rtnl_link_ops r2c2_link_ops __read_mostly = {
	.kind = R2C2_LINK_KIND,
	.maxtype = IFLA_R2C2_MAX,
	.validate = r2c2_link_validate,
	.get_size = r2c2_link_get_size,
	.fill_info = r2c2_link_fill_info,
};

static void r2c2_get_drvinfo(struct net_device *dev,
			     struct ethtool_drvinfo *info)
{
	strscpy(info->driver, "r2c2", sizeof(info->driver));
	strscpy(info->version, R2C2_MOD_VERSION, sizeof(info->version));
}

/* ethtool counts from 0; R2C2_S_UNSPEC is no counter */
static int r2c2_get_sset_count(struct net_device *dev, int sset)
{
	return sset == ETH_SS_STATS ? R2C2_S_MAX : -EOPNOTSUPP;
}

static void r2c2_get_strings(struct net_device *dev, u32 sset, u8 *buf)
{
	if (sset != ETH_SS_STATS)
		return;
	memcpy(buf, r2c2_ethtool_names[1], R2C2_S_MAX * ETH_GSTRING_LEN);
}

static void r2c2_get_ethtool_stats(struct net_device *dev,
				   struct ethtool_stats *stats, u64 *data)
{
	u64 v[__R2C2_S_MAX];

	r2c2_node_stats_read(r2c2_link_node(dev), v);
	memcpy(data, &v[1], R2C2_S_MAX * sizeof(u64));
}

static const struct ethtool_ops r2c2_ethtool_ops = {
	.get_drvinfo = r2c2_get_drvinfo,
	.get_link = ethtool_op_get_link,
	.get_sset_count = r2c2_get_sset_count,
	.get_strings = r2c2_get_strings,
	.get_ethtool_stats = r2c2_get_ethtool_stats,
};

/**
 * r2c2_link_setup() - give r2c0 its link and ethtool operations
 * @dev: r2c0, not registered yet
 */
void r2c2_link_setup(struct net_device *dev)
{
	dev->rtnl_link_ops = &r2c2_link_ops;
	dev->ethtool_ops = &r2c2_ethtool_ops;
}

/**
 * r2c2_link_register() - register the link kind "r2c2"
 *
 * Return: 0 or a negative errno.
 */
int r2c2_link_register(void)
{
	BUILD_BUG_ON(ARRAY_SIZE(r2c2_ethtool_names) != __R2C2_S_MAX);
	BUILD_BUG_ON(R2C2_STAT_NAMES_LAST != R2C2_S_MAX);
	return rtnl_link_register(&r2c2_link_ops);
}

/**
 * r2c2_link_unregister() - unregister the link kind "r2c2"
 *
 * Only once no r2c0 is left (every node destroyed): the ops have no
 * ->dellink for rtnl_link_unregister() to call on a remaining one.
 */
void r2c2_link_unregister(void)
{
	rtnl_link_unregister(&r2c2_link_ops);
}
