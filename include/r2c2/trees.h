/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trees.h - broadcast trees and the declared-topology check, computed
 * from the path tables of paths.h. Compiled into r2c2.ko and userspace,
 * so every node and every test derive the same trees from one graph.
 */
#ifndef _R2C2_TREES_H
#define _R2C2_TREES_H

#include "compat.h"
#include "paths.h"

/* no port: the root of a tree, or a node the tree does not reach */
#define R2C2_PORT_NONE		0xff

u8 r2c2_tree_parent(const struct r2c2_paths *p, u16 s, unsigned int t,
		    u16 v);
u8 r2c2_tree_ports(const struct r2c2_paths *p, u16 s, unsigned int t,
		   u16 u);
void r2c2_fib_build(const struct r2c2_paths *p, u16 me, unsigned int trees,
		    u8 *ports, u8 *parent);
int r2c2_torus_match(const struct r2c2_paths *p, const u16 *addrs,
		     const u8 *dims, unsigned int ndims);

#endif /* _R2C2_TREES_H */
