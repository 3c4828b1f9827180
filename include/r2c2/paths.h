/* SPDX-License-Identifier: GPL-2.0 */
/*
 * paths.h - the one definition of the paths a routing protocol uses.
 *
 * common/paths.c is compiled into r2c2.ko, which samples a route per
 * packet from it, and into the userspace library, whose allocator turns
 * the same distribution into per-link weights. If the two disagreed,
 * computed rates would be wrong; they cannot, because both call
 * r2c2_next_hops() and r2c2_vlb_ok() below, and WLB's coordinates and
 * quadrants come from the graph by one function, r2c2_paths_build().
 *
 * Nodes are dense indices 0..n-1 (the kernel maps node addresses to
 * indices; on a torus the address is the index). A directed link is
 * (node, port); its index is node * R2C2_MAX_PORTS + port.
 */
#ifndef _R2C2_PATHS_H
#define _R2C2_PATHS_H

#include "compat.h"
#include <linux/r2c2.h>

#define R2C2_IDX_NONE		0xffff
#define R2C2_DIST_INF		0xff
/* path counts saturate here so that 8 of them sum below 2^32 */
#define R2C2_NPATHS_MAX		0x10000000u
#define R2C2_MAX_DIMS		3

/**
 * struct r2c2_paths - a graph and its minimal-path tables
 * @n: number of nodes
 * @nbr: n * R2C2_MAX_PORTS; @nbr[u * 8 + p] is the node port p of u
 *	leads to, or R2C2_IDX_NONE
 * @nbr_port: n * R2C2_MAX_PORTS; port of the neighbour the link lands on
 * @dist: n * n; @dist[d * n + u] is the hop count from u to d, or
 *	R2C2_DIST_INF when d cannot be reached
 * @npaths: n * n; @npaths[d * n + u] is the number of minimal paths from
 *	u to d (parallel links count apart), saturating at R2C2_NPATHS_MAX
 * @ndims: WLB: the dimensions of the torus the graph is, or 0 when it is
 *	not one (WLB then routes as RPS)
 * @radix: the ring length of each of the @ndims dimensions
 * @coord: n * R2C2_MAX_DIMS; @coord[u * 3 + i] is u's coordinate along
 *	dimension i, node 0 at the origin; NULL when @ndims is 0
 * @at: the node at each point of the torus, by x + k1 * (y + k2 * z); n
 *	entries, NULL when @ndims is 0
 *
 * The graph is a torus for WLB when it is wired as r2c2_torus_nbrs()
 * wires one: node 0's ports 0, 2, .. 2 * (ndims - 1) are linked and no
 * higher port; port 2i of every node leads one step + along dimension i,
 * to the neighbour's port 2i + 1, and port 2i + 1 one step - to its port
 * 2i; and the coordinates so found give every node a point of its own.
 */
struct r2c2_paths {
	u16 n;
	u16 *nbr;
	u8 *nbr_port;
	u8 *dist;
	u32 *npaths;
	u8 ndims;
	u8 radix[R2C2_MAX_DIMS];
	u8 *coord;
	u16 *at;
};

/**
 * typedef r2c2_rand_fn - source of uniform random 32-bit numbers
 * @ctx: caller's state
 */
typedef u32 (*r2c2_rand_fn)(void *ctx);

int r2c2_paths_build(struct r2c2_paths *p, u16 n, const u16 *nbr,
		     const u8 *nbr_port);
int r2c2_paths_coords(struct r2c2_paths *p);
void r2c2_paths_free(struct r2c2_paths *p);

int r2c2_next_hops(const struct r2c2_paths *p, u8 rproto, u16 s, u16 u,
		   u16 d, u8 *ports, u32 *weights);
bool r2c2_vlb_ok(const struct r2c2_paths *p, u16 s, u16 m, u16 d);
int r2c2_route_sample(const struct r2c2_paths *p, u8 rproto, u16 s, u16 d,
		      r2c2_rand_fn rnd, void *ctx, u8 *hops);

int r2c2_torus_nbrs(const u8 *dims, unsigned int ndims, bool wrap,
		    u16 *nbr, u8 *nbr_port);

#ifndef __KERNEL__
int r2c2_link_weights_add(const struct r2c2_paths *p, u8 rproto, u16 s,
			  u16 d, double scale, double *w);
#endif

#endif /* _R2C2_PATHS_H */
