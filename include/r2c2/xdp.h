/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xdp.h - the BPF maps that r2c2.ko shares with its XDP transit program
 * (xdp/r2c2_xdp.bpf.c), shared by the module, the program and r2c2ctl.
 *
 * The module owns what the maps say: r2c2ctl loads the program and hands
 * the two maps' file descriptors to the module (R2C2_CMD_XDP_SET), which
 * from then on rewrites a port's entry in the same code paths that change
 * the port's state for the kernel path (Documentation/xdp.md).
 */
#ifndef _R2C2_XDP_H
#define _R2C2_XDP_H

#include "compat.h"
#include <linux/r2c2.h>

/* names of the program and its maps in the BPF object */
#define R2C2_XDP_PROG		"r2c2_xdp"
#define R2C2_XDP_PORTS_MAP	"r2c2_ports"
#define R2C2_XDP_STATS_MAP	"r2c2_xstats"

/* struct r2c2_xdp_port's @flags */
#define R2C2_XDP_F_PORT		0x1	/* a port of the node */
#define R2C2_XDP_F_FWD		0x2	/* the node forwards out of it */
#define R2C2_XDP_F_XMIT		0x4	/* it takes frames redirected by a
					 * program in a driver
					 */
#define R2C2_XDP_F_GENERIC	0x8	/* its own program runs in generic
					 * mode (whose redirects any netdev
					 * takes)
					 */

/**
 * struct r2c2_xdp_port - one entry of the ports map (an array, key = port)
 * @seq: odd while the module rewrites the entry; a reader that sees it
 *	odd, or changed across its reads, leaves the frame to the kernel
 * @ifindex: the port's netdev
 * @mtu: its MTU, at most 0xffff
 * @flags: R2C2_XDP_F_*; R2C2_XDP_F_FWD while the node is active, the
 *	port up and a neighbour heard on it (the kernel path's own test);
 *	the program forwards out of a port with R2C2_XDP_F_FWD, and
 *	R2C2_XDP_F_XMIT unless the ingress port has R2C2_XDP_F_GENERIC (a
 *	redirect a netdev cannot take is lost, where the kernel path would
 *	have sent the frame)
 * @mac: the port netdev's MAC
 * @nbr_mac: the MAC of the neighbour's port
 */
struct r2c2_xdp_port {
	__u32 seq;
	__u32 ifindex;
	__u16 mtu;
	__u16 flags;
	__u8 mac[6];
	__u8 nbr_mac[6];
	__u8 pad[4];
};

/*
 * The stats map: a per-CPU array of u64, key = port * __R2C2_S_MAX + enum
 * r2c2_stat. The module adds it to the port's and the node's counters.
 */
#define R2C2_XDP_NSTATS		(R2C2_MAX_PORTS * __R2C2_S_MAX)

/**
 * r2c2_xdp_stat_key() - key of a port's counter in the stats map
 * @port: port number, 0..R2C2_MAX_PORTS-1
 * @stat: enum r2c2_stat
 *
 * Return: the key.
 */
static inline __u32 r2c2_xdp_stat_key(unsigned int port, unsigned int stat)
{
	return port * __R2C2_S_MAX + stat;
}

#endif /* _R2C2_XDP_H */
