// SPDX-License-Identifier: GPL-2.0
/*
 * trees.c - per-source broadcast trees (shortest-path trees, several a
 * source), the broadcast FIB of one node, and the check of a discovered
 * graph against a declared torus.
 *
 * Compiled unchanged into r2c2.ko and into libr2c2 (see trees.h).
 */
#include <r2c2/trees.h>

/**
 * r2c2_tree_parent() - port by which node @v reaches its parent in a tree
 * @p: tables of an undirected graph (every link also exists reversed)
 * @s: index of the tree's source (root)
 * @t: tree id, any value (0..R2C2_MAX_TREES-1 in practice)
 * @v: index of the node
 *
 * The candidates are the ports of @v, in port order, that lead to a node
 * one hop closer to @s; tree @t takes candidate (@t + @v) % count. Every
 * node computes the same choice for every other node, so all nodes agree
 * on the tree without exchanging it.
 *
 * Return: the port of @v towards its parent, or R2C2_PORT_NONE when @v is
 * the root, out of range or cannot reach @s.
 */
u8 r2c2_tree_parent(const struct r2c2_paths *p, u16 s, unsigned int t,
		    u16 v)
{
	const u8 *dist;
	const u16 *nb;
	u8 cand[R2C2_MAX_PORTS];
	unsigned int c = 0, k;

	if (s >= p->n || v >= p->n || v == s)
		return R2C2_PORT_NONE;
	dist = p->dist + (size_t)s * p->n;
	nb = p->nbr + (size_t)v * R2C2_MAX_PORTS;
	if (dist[v] == R2C2_DIST_INF)
		return R2C2_PORT_NONE;
	for (k = 0; k < R2C2_MAX_PORTS; k++)
		if (nb[k] != R2C2_IDX_NONE && dist[nb[k]] + 1 == dist[v])
			cand[c++] = (u8)k;
	if (!c)
		return R2C2_PORT_NONE;
	return cand[(t + v) % c];
}

/**
 * r2c2_tree_ports() - ports on which node @u forwards a tree's broadcasts
 * @p: tables (with @p->nbr_port filled in)
 * @s: index of the tree's source
 * @t: tree id
 * @u: index of the forwarding node
 *
 * Port k of @u is in the set when the node k leads to picks, as its
 * parent port, exactly the far end of link (@u, k).
 *
 * Return: bitmask of ports of @u (bit k = port k).
 */
u8 r2c2_tree_ports(const struct r2c2_paths *p, u16 s, unsigned int t, u16 u)
{
	unsigned int k;
	u8 mask = 0;

	if (u >= p->n)
		return 0;
	for (k = 0; k < R2C2_MAX_PORTS; k++) {
		u16 c = p->nbr[(size_t)u * R2C2_MAX_PORTS + k];
		u8 q = p->nbr_port[(size_t)u * R2C2_MAX_PORTS + k];

		if (c == R2C2_IDX_NONE || q >= R2C2_MAX_PORTS)
			continue;
		if (p->nbr[(size_t)c * R2C2_MAX_PORTS + q] != u)
			continue;
		if (r2c2_tree_parent(p, s, t, c) == q)
			mask |= (u8)(1u << k);
	}
	return mask;
}

/**
 * r2c2_fib_build() - broadcast FIB of one node
 * @p: tables
 * @me: index of the node
 * @trees: trees per source to compute, 1..R2C2_MAX_TREES
 * @ports: out, n * @trees bitmasks: @ports[s * @trees + t] is
 *	r2c2_tree_ports(@p, s, t, @me)
 * @parent: out, n * @trees: r2c2_tree_parent(@p, s, t, @me), or NULL
 */
void r2c2_fib_build(const struct r2c2_paths *p, u16 me, unsigned int trees,
		    u8 *ports, u8 *parent)
{
	unsigned int s, t;

	for (s = 0; s < p->n; s++)
		for (t = 0; t < trees; t++) {
			size_t i = (size_t)s * trees + t;

			ports[i] = r2c2_tree_ports(p, (u16)s, t, me);
			if (parent)
				parent[i] = r2c2_tree_parent(p, (u16)s, t, me);
		}
}

/**
 * r2c2_torus_match() - whether a discovered graph is a declared torus
 * @p: tables of the discovered graph
 * @addrs: node address of each index of @p
 * @dims: radix of each dimension
 * @ndims: 1..R2C2_MAX_DIMS
 *
 * Matches when the nodes are exactly the addresses 0..k1*k2*k3-1 and
 * every node's ports lead to the nodes and ports r2c2_torus_nbrs() says.
 *
 * Return: 1 on a match, 0 on a mismatch, -EINVAL or -ENOMEM.
 */
int r2c2_torus_match(const struct r2c2_paths *p, const u16 *addrs,
		     const u8 *dims, unsigned int ndims)
{
	unsigned int n = 1, i;
	u8 *eport;
	u16 *enbr;
	int ret = 1;

	for (i = 0; i < ndims && i < R2C2_MAX_DIMS; i++)
		n *= dims[i];
	if (!ndims || ndims > R2C2_MAX_DIMS || n > 0xfffe)
		return -EINVAL;
	if (p->n != n)
		return 0;
	for (i = 0; i < n; i++)
		if (addrs[i] != i)
			return 0;
	enbr = r2c2_zalloc((size_t)n * R2C2_MAX_PORTS * sizeof(*enbr));
	eport = r2c2_zalloc((size_t)n * R2C2_MAX_PORTS);
	if (!enbr || !eport) {
		ret = -ENOMEM;
		goto out;
	}
	if (r2c2_torus_nbrs(dims, ndims, true, enbr, eport) != (int)n) {
		ret = -EINVAL;
		goto out;
	}
	for (i = 0; i < n * R2C2_MAX_PORTS; i++) {
		if (p->nbr[i] != enbr[i] ||
		    (enbr[i] != R2C2_IDX_NONE && p->nbr_port[i] != eport[i])) {
			ret = 0;
			break;
		}
	}
out:
	r2c2_free(enbr);
	r2c2_free(eport);
	return ret;
}
