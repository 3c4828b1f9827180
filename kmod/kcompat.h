/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kcompat.h - the few kernel API differences between 6.1 and 6.12 that
 * r2c2.ko meets, in one place (as batman-adv keeps compat.h). Feature
 * tests rather than version tests where the API leaves a trace.
 */
#ifndef _R2C2_KCOMPAT_H
#define _R2C2_KCOMPAT_H

#include <linux/netdevice.h>
#include <linux/bpf.h>
#include <net/genetlink.h>

/**
 * r2c2_dev_set_lltx() - mark a netdev as doing its own tx locking
 * @dev: the netdev (before register_netdevice())
 */
static inline void r2c2_dev_set_lltx(struct net_device *dev)
{
#ifdef NETIF_F_LLTX
	dev->features |= NETIF_F_LLTX;
#else
	dev->lltx = true;	/* 6.12: a private flag */
#endif
}

/**
 * r2c2_dev_set_netns_local() - forbid moving a netdev to another netns
 * @dev: the netdev (before register_netdevice())
 */
static inline void r2c2_dev_set_netns_local(struct net_device *dev)
{
#if defined(NETIF_F_NETNS_LOCAL)
	dev->features |= NETIF_F_NETNS_LOCAL;
#elif defined(R2C2_HAVE_NETNS_IMMUTABLE)
	dev->netns_immutable = true;	/* 6.15, and 6.12.y (probed in Kbuild) */
#else
	dev->netns_local = true;	/* 6.12: a private flag */
#endif
}

/**
 * r2c2_map_plain() - whether a BPF map's values are plain bytes
 * @map: the map
 *
 * Values with a spin lock, timer or kernel pointer in them must not be
 * written by anyone but the BPF core.
 *
 * Return: true when the value holds none of them.
 */
static inline bool r2c2_map_plain(const struct bpf_map *map)
{
#if defined(R2C2_HAVE_BTF_RECORD)
	return IS_ERR_OR_NULL(map->record);	/* 6.2 (probed in Kbuild) */
#elif IS_ENABLED(CONFIG_BPF_SYSCALL)
	return !map_value_has_spin_lock(map) && !map_value_has_timer(map) &&
	       !map_value_has_kptrs(map);
#else
	return true;
#endif
}

/**
 * r2c2_xdp_xmit_ok() - whether a netdev takes frames an XDP program in
 *	a driver redirects to it (ndo_xdp_xmit())
 * @dev: the netdev
 *
 * 6.3 on, the netdev says so (NETDEV_XDP_ACT_NDO_XMIT, which veth sets
 * while its peer has NAPI and virtio-net while it has an XDP program).
 * On 6.1: a veth whose peer is up with an XDP program in its driver or
 * GRO on (its NAPI), or a netdev with an XDP program in its own driver.
 *
 * Context: RCU read side.
 * Return: true when a redirect to @dev is not dropped for want of a ring.
 */
static inline bool r2c2_xdp_xmit_ok(struct net_device *dev)
{
#if defined(R2C2_HAVE_XDP_FEATURES)
	return READ_ONCE(dev->xdp_features) & NETDEV_XDP_ACT_NDO_XMIT;
#else
	struct net_device *peer;

	if (!dev->netdev_ops->ndo_xdp_xmit)
		return false;
	if (dev->netdev_ops->ndo_get_peer_dev) {	/* veth */
		peer = dev->netdev_ops->ndo_get_peer_dev(dev);
		return peer && (READ_ONCE(peer->flags) & IFF_UP) &&
		       (READ_ONCE(peer->xdp_state[XDP_MODE_DRV].prog) ||
			(READ_ONCE(peer->features) & NETIF_F_GRO));
	}
	return READ_ONCE(dev->xdp_state[XDP_MODE_DRV].prog);
#endif
}

/**
 * r2c2_genl_dump_family() - the generic netlink family a dump is of
 * @cb: the dump's callback state
 *
 * Lets a layer below the family's (netlink.c) fill dump messages.
 *
 * Return: the family.
 */
static inline const struct genl_family *
r2c2_genl_dump_family(struct netlink_callback *cb)
{
#ifdef R2C2_HAVE_GENL_INFO_DUMP
	return genl_info_dump(cb)->family;
#else
	return genl_dumpit_info(cb)->family;
#endif
}

#endif /* _R2C2_KCOMPAT_H */
