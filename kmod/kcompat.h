/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kcompat.h - the few kernel API differences between 6.1 and 6.12 that
 * r2c2.ko meets, in one place (as batman-adv keeps compat.h). Feature
 * tests rather than version tests where the API leaves a trace.
 */
#ifndef _R2C2_KCOMPAT_H
#define _R2C2_KCOMPAT_H

#include <linux/netdevice.h>

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

#endif /* _R2C2_KCOMPAT_H */
