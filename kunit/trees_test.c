// SPDX-License-Identifier: GPL-2.0
/*
 * trees_test.c - KUnit tests of common/trees.c, in the order of its
 * functions: r2c2_tree_parent, r2c2_tree_ports, r2c2_fib_build,
 * r2c2_torus_match.
 *
 * Like paths_test.c, this file compiles the code under test (and
 * common/paths.c, which it uses) with an allocator that fails on demand.
 *
 * The central property: on a 3x3, a 4x4 and a 3x3x3 torus, every tree of
 * every source is a spanning tree as deep as the source's eccentricity,
 * every other node has exactly one parent, the port masks of all nodes
 * agree with the parents, so a broadcast reaches every node once.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>

#include <r2c2/compat.h>

static void *tt_zalloc(size_t size);
static void tt_free(const void *ptr);

#undef r2c2_zalloc
#undef r2c2_free
#define r2c2_zalloc(size)	tt_zalloc(size)
#define r2c2_free(ptr)		tt_free(ptr)

#include "../common/paths.c"
#include "../common/trees.c"

/* ---------------------------------------------------------------- */
/* Test scaffolding                                                  */
/* ---------------------------------------------------------------- */

/**
 * struct tt_alloc - state of the allocator of the code under test
 * @calls: r2c2_zalloc() calls so far
 * @fail_nth: the call (1-based) that returns NULL; 0 = none
 * @live: allocations not freed yet
 */
static struct tt_alloc {
	unsigned int calls;
	unsigned int fail_nth;
	int live;
} tt_alloc;

static void *tt_zalloc(size_t size)
{
	void *ptr;

	if (++tt_alloc.calls == tt_alloc.fail_nth)
		return NULL;
	ptr = kvzalloc(size, GFP_KERNEL);
	if (ptr)
		tt_alloc.live++;
	return ptr;
}

static void tt_free(const void *ptr)
{
	if (ptr)
		tt_alloc.live--;
	kvfree(ptr);
}

#define TT_P	R2C2_MAX_PORTS

struct tt_ctx {
	struct r2c2_paths p;
};

static int trees_test_init(struct kunit *test)
{
	struct tt_ctx *ctx;

	memset(&tt_alloc, 0, sizeof(tt_alloc));
	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	test->priv = ctx;
	return 0;
}

static void trees_test_exit(struct kunit *test)
{
	struct tt_ctx *ctx = test->priv;

	r2c2_paths_free(&ctx->p);
	KUNIT_EXPECT_EQ_MSG(test, tt_alloc.live, 0, "leaked allocations");
}

static struct r2c2_paths *tt_paths(struct kunit *test)
{
	struct tt_ctx *ctx = test->priv;

	return &ctx->p;
}

static unsigned int tt_nodes(const u8 *dims, unsigned int nd)
{
	unsigned int i, n = 1;

	for (i = 0; i < nd; i++)
		n *= dims[i];
	return n;
}

static unsigned int tt_build_torus(struct kunit *test, const u8 *dims,
				   unsigned int nd, bool wrap)
{
	struct r2c2_paths *p = tt_paths(test);
	unsigned int n = tt_nodes(dims, nd);
	u16 *nbr;
	u8 *nbr_port;

	r2c2_paths_free(p);
	nbr = kunit_kmalloc_array(test, n * TT_P, sizeof(*nbr), GFP_KERNEL);
	nbr_port = kunit_kmalloc(test, n * TT_P, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, nbr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, nbr_port);
	KUNIT_ASSERT_EQ(test, r2c2_torus_nbrs(dims, nd, wrap, nbr, nbr_port),
			(int)n);
	KUNIT_ASSERT_EQ(test, r2c2_paths_build(p, (u16)n, nbr, nbr_port), 0);
	return n;
}

/* An adjacency of n nodes without links, nbr_port all zero. */
static void tt_graph_none(struct kunit *test, unsigned int n, u16 **nbr,
			  u8 **nbr_port)
{
	unsigned int i;

	*nbr = kunit_kmalloc_array(test, n * TT_P, sizeof(**nbr), GFP_KERNEL);
	*nbr_port = kunit_kzalloc(test, n * TT_P, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, *nbr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, *nbr_port);
	for (i = 0; i < n * TT_P; i++)
		(*nbr)[i] = R2C2_IDX_NONE;
}

static void tt_link(u16 *nbr, u8 *nbr_port, u16 u, u8 pu, u16 v, u8 pv)
{
	nbr[u * TT_P + pu] = v;
	nbr[v * TT_P + pv] = u;
	nbr_port[u * TT_P + pu] = pv;
	nbr_port[v * TT_P + pv] = pu;
}

/* hops from v to s, the way the trees of source s count depth */
static unsigned int tt_dist(const struct r2c2_paths *p, u16 v, u16 s)
{
	return p->dist[(size_t)s * p->n + v];
}

static const struct {
	u8 dims[R2C2_MAX_DIMS];
	u8 nd;
	bool wrap;
} tt_shapes[] = {
	{ { 3, 3 }, 2, true },
	{ { 4, 4 }, 2, true },
	{ { 3, 3, 3 }, 3, true },
	{ { 2, 3, 4 }, 3, true },
	{ { 4, 3 }, 2, false },
};

/* ---------------------------------------------------------------- */
/* r2c2_tree_parent()                                                */
/* ---------------------------------------------------------------- */

static void r2c2_tree_parent__root(struct kunit *test)
{
	static const u8 dims[] = { 3, 3 };
	unsigned int s, t;

	tt_build_torus(test, dims, 2, true);
	for (s = 0; s < 9; s++)
		for (t = 0; t < R2C2_MAX_TREES; t++)
			KUNIT_EXPECT_EQ(test, r2c2_tree_parent(tt_paths(test),
							       s, t, s),
					R2C2_PORT_NONE);
}

static void r2c2_tree_parent__out_of_range(struct kunit *test)
{
	static const u8 dims[] = { 3, 3 };
	struct r2c2_paths *p;

	tt_build_torus(test, dims, 2, true);
	p = tt_paths(test);
	KUNIT_EXPECT_EQ(test, r2c2_tree_parent(p, 9, 0, 1), R2C2_PORT_NONE);
	KUNIT_EXPECT_EQ(test, r2c2_tree_parent(p, 0, 0, 9), R2C2_PORT_NONE);
	KUNIT_EXPECT_EQ(test, r2c2_tree_parent(p, 0xffff, 0, 0xffff),
			R2C2_PORT_NONE);
}

static void r2c2_tree_parent__unreachable(struct kunit *test)
{
	struct r2c2_paths *p = tt_paths(test);
	u16 *nbr;
	u8 *nbr_port;

	/* 0 - 1, and 2 alone */
	tt_graph_none(test, 3, &nbr, &nbr_port);
	tt_link(nbr, nbr_port, 0, 0, 1, 1);
	KUNIT_ASSERT_EQ(test, r2c2_paths_build(p, 3, nbr, nbr_port), 0);
	KUNIT_EXPECT_EQ(test, r2c2_tree_parent(p, 0, 0, 2), R2C2_PORT_NONE);
	KUNIT_EXPECT_EQ(test, r2c2_tree_parent(p, 2, 0, 0), R2C2_PORT_NONE);
	KUNIT_EXPECT_EQ(test, r2c2_tree_parent(p, 0, 0, 1), 1);
}

static void r2c2_tree_parent__rotates_with_tree_and_node(struct kunit *test)
{
	static const u8 dims[] = { 3, 3 };
	struct r2c2_paths *p;

	tt_build_torus(test, dims, 2, true);
	p = tt_paths(test);
	/* (1,1) = 4 towards 0: -x (port 1) or -y (port 3); (t + 4) % 2 */
	KUNIT_EXPECT_EQ(test, r2c2_tree_parent(p, 0, 0, 4), 1);
	KUNIT_EXPECT_EQ(test, r2c2_tree_parent(p, 0, 1, 4), 3);
	KUNIT_EXPECT_EQ(test, r2c2_tree_parent(p, 0, 2, 4), 1);
	/* (2,1) = 5 towards 0: +x (port 0) or -y (port 3); (t + 5) % 2 */
	KUNIT_EXPECT_EQ(test, r2c2_tree_parent(p, 0, 0, 5), 3);
	KUNIT_EXPECT_EQ(test, r2c2_tree_parent(p, 0, 1, 5), 0);
	/* one candidate: every tree takes it */
	KUNIT_EXPECT_EQ(test, r2c2_tree_parent(p, 0, 0, 1), 1);
	KUNIT_EXPECT_EQ(test, r2c2_tree_parent(p, 0, 7, 1), 1);
}

static void r2c2_tree_parent__spanning_trees(struct kunit *test)
{
	struct r2c2_paths *p = tt_paths(test);
	unsigned int i, n, s, t, v, depth, ecc, steps;
	u16 u;
	u8 k;

	for (i = 0; i < ARRAY_SIZE(tt_shapes); i++) {
		n = tt_build_torus(test, tt_shapes[i].dims, tt_shapes[i].nd,
				   tt_shapes[i].wrap);
		for (s = 0; s < n; s++) {
			ecc = 0;
			for (v = 0; v < n; v++)
				ecc = max(ecc, tt_dist(p, v, s));
			for (t = 0; t < R2C2_MAX_TREES; t++) {
				depth = 0;
				for (v = 0; v < n; v++) {
					/* parents lead to s, one hop closer each */
					for (u = v, steps = 0; u != s; steps++) {
						k = r2c2_tree_parent(p, s, t, u);
						KUNIT_ASSERT_LT_MSG(test, k, TT_P,
								    "shape %u s %u t %u v %u",
								    i, s, t, u);
						KUNIT_ASSERT_LE(test, steps, n);
						u = p->nbr[u * TT_P + k];
					}
					KUNIT_EXPECT_EQ(test, steps, tt_dist(p, v, s));
					depth = max(depth, steps);
				}
				KUNIT_EXPECT_EQ_MSG(test, depth, ecc,
						    "shape %u s %u t %u", i, s, t);
			}
		}
	}
}

static void r2c2_tree_parent__trees_differ(struct kunit *test)
{
	static const u8 dims[] = { 4, 4 };
	struct r2c2_paths *p;
	unsigned int v, same = 0;

	/* trees 0 and 1 of a source pick different parents where they can */
	tt_build_torus(test, dims, 2, true);
	p = tt_paths(test);
	for (v = 1; v < 16; v++)
		same += r2c2_tree_parent(p, 0, 0, v) ==
			r2c2_tree_parent(p, 0, 1, v);
	/* only the 4 neighbours of the source have a single candidate */
	KUNIT_EXPECT_EQ(test, same, 4);
}

/* ---------------------------------------------------------------- */
/* r2c2_tree_ports()                                                 */
/* ---------------------------------------------------------------- */

static void r2c2_tree_ports__out_of_range(struct kunit *test)
{
	static const u8 dims[] = { 3, 3 };

	tt_build_torus(test, dims, 2, true);
	KUNIT_EXPECT_EQ(test, r2c2_tree_ports(tt_paths(test), 0, 0, 9), 0);
	KUNIT_EXPECT_EQ(test, r2c2_tree_ports(tt_paths(test), 0, 0, 0xffff), 0);
}

/* Port masks of tree t of source s at every node, checked. */
static void tt_check_masks(struct kunit *test, const struct r2c2_paths *p,
			   u16 s, unsigned int t, u8 *mask)
{
	unsigned int u, v, k, parents;
	bool fwd, child;

	for (u = 0; u < p->n; u++)
		mask[u] = r2c2_tree_ports(p, s, t, u);
	/* u forwards on k iff k's far end is v's parent port */
	for (u = 0; u < p->n; u++) {
		for (k = 0; k < TT_P; k++) {
			v = p->nbr[u * TT_P + k];
			fwd = mask[u] & BIT(k);
			child = v != R2C2_IDX_NONE &&
				r2c2_tree_parent(p, s, t, v) ==
				p->nbr_port[u * TT_P + k];
			KUNIT_EXPECT_EQ_MSG(test, fwd, child,
					    "s %u t %u u %u k %u", s, t, u, k);
		}
	}
	/* every node but s has exactly one parent */
	for (v = 0; v < p->n; v++) {
		parents = 0;
		for (u = 0; u < p->n * TT_P; u++)
			parents += (mask[u / TT_P] & BIT(u % TT_P)) &&
				   p->nbr[u] == v;
		KUNIT_EXPECT_EQ_MSG(test, parents, v == s ? 0 : 1,
				    "s %u t %u v %u", s, t, v);
	}
}

static void r2c2_tree_ports__consistent_with_parents(struct kunit *test)
{
	unsigned int i, n, s, t;
	u8 *mask;

	for (i = 0; i < ARRAY_SIZE(tt_shapes); i++) {
		n = tt_build_torus(test, tt_shapes[i].dims, tt_shapes[i].nd,
				   tt_shapes[i].wrap);
		mask = kunit_kmalloc(test, n, GFP_KERNEL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mask);
		for (s = 0; s < n; s++)
			for (t = 0; t < R2C2_MAX_TREES; t++)
				tt_check_masks(test, tt_paths(test), s, t, mask);
	}
}

/* Broadcast from s along tree t; counts copies received by each node. */
static unsigned int tt_broadcast(struct kunit *test,
				 const struct r2c2_paths *p, u16 s,
				 unsigned int t, u8 *copies, u16 *queue,
				 u8 *level)
{
	unsigned int head = 0, tail = 0, depth = 0, k;
	u16 u, v;
	u8 mask;

	memset(copies, 0, p->n);
	queue[tail++] = s;
	level[s] = 0;
	while (head < tail) {
		u = queue[head++];
		mask = r2c2_tree_ports(p, s, t, u);
		for (k = 0; k < TT_P; k++) {
			if (!(mask & BIT(k)))
				continue;
			v = p->nbr[u * TT_P + k];
			KUNIT_ASSERT_NE(test, v, R2C2_IDX_NONE);
			/* a copy that comes back is dropped, not forwarded */
			if (copies[v]++ || v == s)
				continue;
			KUNIT_ASSERT_LT(test, tail, p->n);
			level[v] = level[u] + 1;
			depth = max_t(unsigned int, depth, level[v]);
			queue[tail++] = v;
		}
	}
	return depth;
}

static void r2c2_tree_ports__broadcast_reaches_every_node_once(struct kunit *test)
{
	struct r2c2_paths *p = tt_paths(test);
	unsigned int i, n, s, t, v, ecc, depth;
	u8 *copies, *level;
	u16 *queue;

	for (i = 0; i < ARRAY_SIZE(tt_shapes); i++) {
		n = tt_build_torus(test, tt_shapes[i].dims, tt_shapes[i].nd,
				   tt_shapes[i].wrap);
		copies = kunit_kmalloc(test, n, GFP_KERNEL);
		level = kunit_kmalloc(test, n, GFP_KERNEL);
		queue = kunit_kmalloc_array(test, n, sizeof(*queue), GFP_KERNEL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, copies);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, level);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, queue);
		for (s = 0; s < n; s++) {
			ecc = 0;
			for (v = 0; v < n; v++)
				ecc = max(ecc, tt_dist(p, v, s));
			for (t = 0; t < R2C2_MAX_TREES; t++) {
				depth = tt_broadcast(test, p, s, t, copies, queue,
						     level);
				for (v = 0; v < n; v++)
					KUNIT_EXPECT_EQ_MSG(test, copies[v],
							    v == s ? 0 : 1,
							    "shape %u s %u t %u v %u",
							    i, s, t, v);
				KUNIT_EXPECT_EQ(test, depth, ecc);
			}
		}
	}
}

static void r2c2_tree_ports__skips_link_not_landing_back(struct kunit *test)
{
	struct r2c2_paths *p = tt_paths(test);
	u16 *nbr;
	u8 *nbr_port;

	/*
	 * 0 <-> 1 and 0 <-> 2; node 2 also claims a link on its port 0 to
	 * port 1 of node 1, which leads to node 0. Node 1 takes its port 1
	 * to its parent, but that is 0's link, not 2's: 2 must not forward.
	 */
	tt_graph_none(test, 3, &nbr, &nbr_port);
	tt_link(nbr, nbr_port, 0, 0, 1, 1);
	tt_link(nbr, nbr_port, 0, 2, 2, 3);
	nbr[2 * TT_P + 0] = 1;
	nbr_port[2 * TT_P + 0] = 1;
	KUNIT_ASSERT_EQ(test, r2c2_paths_build(p, 3, nbr, nbr_port), 0);
	KUNIT_ASSERT_EQ(test, r2c2_tree_parent(p, 0, 0, 1), 1);
	KUNIT_EXPECT_EQ(test, r2c2_tree_ports(p, 0, 0, 2), 0);
	KUNIT_EXPECT_EQ(test, r2c2_tree_ports(p, 0, 0, 0), BIT(0) | BIT(2));
}

static void r2c2_tree_ports__skips_bad_nbr_port(struct kunit *test)
{
	struct r2c2_paths *p = tt_paths(test);
	u16 *nbr;
	u8 *nbr_port;

	tt_graph_none(test, 2, &nbr, &nbr_port);
	tt_link(nbr, nbr_port, 0, 0, 1, 1);
	nbr_port[0 * TT_P + 0] = TT_P;	/* not a port */
	KUNIT_ASSERT_EQ(test, r2c2_paths_build(p, 2, nbr, nbr_port), 0);
	KUNIT_EXPECT_EQ(test, r2c2_tree_ports(p, 0, 0, 0), 0);
	nbr_port[0 * TT_P + 0] = 0xff;
	r2c2_paths_free(p);
	KUNIT_ASSERT_EQ(test, r2c2_paths_build(p, 2, nbr, nbr_port), 0);
	KUNIT_EXPECT_EQ(test, r2c2_tree_ports(p, 0, 0, 0), 0);
}

/* ---------------------------------------------------------------- */
/* r2c2_fib_build()                                                  */
/* ---------------------------------------------------------------- */

static void r2c2_fib_build__matches_trees(struct kunit *test)
{
	static const u8 dims[] = { 3, 3, 3 };
	static const unsigned int ntrees[] = { 1, 4, R2C2_MAX_TREES };
	struct r2c2_paths *p;
	unsigned int n, me, s, t, j, nt;
	u8 *ports, *parent;

	n = tt_build_torus(test, dims, 3, true);
	p = tt_paths(test);
	ports = kunit_kmalloc(test, n * R2C2_MAX_TREES, GFP_KERNEL);
	parent = kunit_kmalloc(test, n * R2C2_MAX_TREES, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ports);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, parent);
	for (j = 0; j < ARRAY_SIZE(ntrees); j++) {
		nt = ntrees[j];
		for (me = 0; me < n; me++) {
			memset(ports, 0xee, n * R2C2_MAX_TREES);
			memset(parent, 0xee, n * R2C2_MAX_TREES);
			r2c2_fib_build(p, me, nt, ports, parent);
			for (s = 0; s < n; s++)
				for (t = 0; t < nt; t++) {
					KUNIT_EXPECT_EQ(test, ports[s * nt + t],
							r2c2_tree_ports(p, s, t, me));
					KUNIT_EXPECT_EQ(test, parent[s * nt + t],
							r2c2_tree_parent(p, s, t, me));
				}
			/* nothing written past n * trees entries */
			if (nt < R2C2_MAX_TREES)
				KUNIT_EXPECT_EQ(test, ports[n * nt], 0xee);
		}
	}
}

static void r2c2_fib_build__no_parent_array(struct kunit *test)
{
	static const u8 dims[] = { 3, 3 };
	u8 ports[9 * 2], want[9 * 2], parent[9 * 2];

	tt_build_torus(test, dims, 2, true);
	r2c2_fib_build(tt_paths(test), 4, 2, want, parent);
	r2c2_fib_build(tt_paths(test), 4, 2, ports, NULL);
	KUNIT_EXPECT_EQ(test, memcmp(ports, want, sizeof(ports)), 0);
}

/* ---------------------------------------------------------------- */
/* r2c2_torus_match()                                                */
/* ---------------------------------------------------------------- */

static u16 *tt_identity(struct kunit *test, unsigned int n)
{
	u16 *addrs = kunit_kmalloc_array(test, n, sizeof(*addrs), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, addrs);
	for (i = 0; i < n; i++)
		addrs[i] = (u16)i;
	return addrs;
}

static void r2c2_torus_match__match(struct kunit *test)
{
	static const u8 d33[] = { 3, 3 }, d333[] = { 3, 3, 3 };

	tt_build_torus(test, d33, 2, true);
	KUNIT_EXPECT_EQ(test, r2c2_torus_match(tt_paths(test),
					       tt_identity(test, 9), d33, 2), 1);
	tt_build_torus(test, d333, 3, true);
	KUNIT_EXPECT_EQ(test, r2c2_torus_match(tt_paths(test),
					       tt_identity(test, 27), d333, 3),
			1);
	/* a torus's paths keep six tables: four, its coordinates and their index */
	KUNIT_EXPECT_EQ(test, tt_alloc.live, 6);
}

static void r2c2_torus_match__bad_dims(struct kunit *test)
{
	static const u8 d33[] = { 3, 3 }, d4[] = { 3, 3, 1, 1 };
	static const u8 big[] = { 255, 255, 2 };
	u16 *addrs;

	tt_build_torus(test, d33, 2, true);
	addrs = tt_identity(test, 9);
	KUNIT_EXPECT_EQ(test, r2c2_torus_match(tt_paths(test), addrs, d33, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, r2c2_torus_match(tt_paths(test), addrs, d4, 4),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, r2c2_torus_match(tt_paths(test), addrs, big, 3),
			-EINVAL);
}

static void r2c2_torus_match__radix_below_2(struct kunit *test)
{
	static const u8 d33[] = { 3, 3 }, d91[] = { 9, 1 };

	/* as many nodes as 9 x 1, which is no torus */
	tt_build_torus(test, d33, 2, true);
	KUNIT_EXPECT_EQ(test, r2c2_torus_match(tt_paths(test),
					       tt_identity(test, 9), d91, 2),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, tt_alloc.live, 6);
}

static void r2c2_torus_match__node_count_differs(struct kunit *test)
{
	static const u8 d33[] = { 3, 3 }, d44[] = { 4, 4 }, d9[] = { 9 };
	u16 *addrs;

	tt_build_torus(test, d33, 2, true);
	addrs = tt_identity(test, 9);
	KUNIT_EXPECT_EQ(test, r2c2_torus_match(tt_paths(test), addrs, d44, 2), 0);
	/* same count, other shape */
	KUNIT_EXPECT_EQ(test, r2c2_torus_match(tt_paths(test), addrs, d9, 1), 0);
}

static void r2c2_torus_match__addresses_differ(struct kunit *test)
{
	static const u8 d33[] = { 3, 3 };
	u16 *addrs;

	tt_build_torus(test, d33, 2, true);
	addrs = tt_identity(test, 9);
	addrs[3] = 4;
	addrs[4] = 3;
	KUNIT_EXPECT_EQ(test, r2c2_torus_match(tt_paths(test), addrs, d33, 2), 0);
	addrs[3] = 3;
	addrs[4] = 100;
	KUNIT_EXPECT_EQ(test, r2c2_torus_match(tt_paths(test), addrs, d33, 2), 0);
}

static void r2c2_torus_match__links_differ(struct kunit *test)
{
	static const u8 d33[] = { 3, 3 };
	struct r2c2_paths *p;
	u16 *addrs, saved;
	u8 port;

	tt_build_torus(test, d33, 2, true);
	p = tt_paths(test);
	addrs = tt_identity(test, 9);
	/* a link missing */
	saved = p->nbr[4 * TT_P + 2];
	p->nbr[4 * TT_P + 2] = R2C2_IDX_NONE;
	KUNIT_EXPECT_EQ(test, r2c2_torus_match(p, addrs, d33, 2), 0);
	/* a link to the wrong node */
	p->nbr[4 * TT_P + 2] = 0;
	KUNIT_EXPECT_EQ(test, r2c2_torus_match(p, addrs, d33, 2), 0);
	p->nbr[4 * TT_P + 2] = saved;
	/* a link landing on the wrong port */
	port = p->nbr_port[4 * TT_P + 2];
	p->nbr_port[4 * TT_P + 2] = port ^ 1;
	KUNIT_EXPECT_EQ(test, r2c2_torus_match(p, addrs, d33, 2), 0);
	p->nbr_port[4 * TT_P + 2] = port;
	/* an extra link on a port a torus leaves free */
	p->nbr[4 * TT_P + 6] = 0;
	KUNIT_EXPECT_EQ(test, r2c2_torus_match(p, addrs, d33, 2), 0);
	p->nbr[4 * TT_P + 6] = R2C2_IDX_NONE;
	KUNIT_EXPECT_EQ(test, r2c2_torus_match(p, addrs, d33, 2), 1);
	/* a free port's nbr_port is not looked at */
	p->nbr_port[4 * TT_P + 6] = 5;
	KUNIT_EXPECT_EQ(test, r2c2_torus_match(p, addrs, d33, 2), 1);
}

static void r2c2_torus_match__mesh_is_no_torus(struct kunit *test)
{
	static const u8 d33[] = { 3, 3 };

	tt_build_torus(test, d33, 2, false);
	KUNIT_EXPECT_EQ(test, r2c2_torus_match(tt_paths(test),
					       tt_identity(test, 9), d33, 2), 0);
}

static void r2c2_torus_match__nomem(struct kunit *test)
{
	static const u8 d33[] = { 3, 3 };
	u16 *addrs;
	unsigned int nth;

	tt_build_torus(test, d33, 2, true);
	addrs = tt_identity(test, 9);
	/* two allocations after the 7 of r2c2_paths_build() */
	for (nth = 1; nth <= 2; nth++) {
		tt_alloc.calls = 0;
		tt_alloc.fail_nth = nth;
		KUNIT_EXPECT_EQ(test, r2c2_torus_match(tt_paths(test), addrs,
						       d33, 2), -ENOMEM);
		KUNIT_EXPECT_EQ(test, tt_alloc.live, 6);
	}
	tt_alloc.calls = 0;
	tt_alloc.fail_nth = 3;
	KUNIT_EXPECT_EQ(test, r2c2_torus_match(tt_paths(test), addrs, d33, 2), 1);
	KUNIT_EXPECT_EQ(test, tt_alloc.calls, 2);
}

static struct kunit_case r2c2_trees_cases[] = {
	KUNIT_CASE(r2c2_tree_parent__root),
	KUNIT_CASE(r2c2_tree_parent__out_of_range),
	KUNIT_CASE(r2c2_tree_parent__unreachable),
	KUNIT_CASE(r2c2_tree_parent__rotates_with_tree_and_node),
	KUNIT_CASE(r2c2_tree_parent__spanning_trees),
	KUNIT_CASE(r2c2_tree_parent__trees_differ),
	KUNIT_CASE(r2c2_tree_ports__out_of_range),
	KUNIT_CASE(r2c2_tree_ports__consistent_with_parents),
	KUNIT_CASE(r2c2_tree_ports__broadcast_reaches_every_node_once),
	KUNIT_CASE(r2c2_tree_ports__skips_link_not_landing_back),
	KUNIT_CASE(r2c2_tree_ports__skips_bad_nbr_port),
	KUNIT_CASE(r2c2_fib_build__matches_trees),
	KUNIT_CASE(r2c2_fib_build__no_parent_array),
	KUNIT_CASE(r2c2_torus_match__match),
	KUNIT_CASE(r2c2_torus_match__bad_dims),
	KUNIT_CASE(r2c2_torus_match__radix_below_2),
	KUNIT_CASE(r2c2_torus_match__node_count_differs),
	KUNIT_CASE(r2c2_torus_match__addresses_differ),
	KUNIT_CASE(r2c2_torus_match__links_differ),
	KUNIT_CASE(r2c2_torus_match__mesh_is_no_torus),
	KUNIT_CASE(r2c2_torus_match__nomem),
	{}
};

static struct kunit_suite r2c2_trees_suite = {
	.name = "r2c2_trees",
	.init = trees_test_init,
	.exit = trees_test_exit,
	.test_cases = r2c2_trees_cases,
};

kunit_test_suite(r2c2_trees_suite);

MODULE_DESCRIPTION("KUnit tests of the r2c2 broadcast trees");
MODULE_LICENSE("GPL");
