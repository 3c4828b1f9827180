// SPDX-License-Identifier: GPL-2.0
/*
 * paths_test.c - KUnit tests of common/paths.c, in the order of its
 * functions: r2c2_paths_build, r2c2_paths_free, r2c2_next_hops,
 * r2c2_vlb_ok, r2c2_leg_sample (through r2c2_route_sample),
 * r2c2_route_sample, r2c2_torus_nbrs.
 *
 * As in HomaModule's unit tests, the code under test is compiled into
 * this file, with an allocator that fails the n-th call on demand and
 * counts what is still allocated. scripts/kunit.sh makes every symbol of
 * a suite's object local, so another suite (or r2c2.ko built in) may
 * carry its own copy of common/paths.c.
 *
 * The key test, r2c2_route_sample__matches_predicted_weights, draws
 * 20,000 routes with a seeded generator and compares how often each link
 * is used with the expected use computed in fixed point from the same
 * per-hop distribution (r2c2_next_hops()), 5 standard deviations apart
 * at most; r2c2_route_sample__detects_uniform_over_next_hops shows that
 * this tolerance rejects a plausible wrong distribution.
 */
#include <kunit/test.h>
#include <linux/math.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/slab.h>

#include <r2c2/compat.h>

static void *ut_zalloc(size_t size);
static void ut_free(const void *ptr);

#undef r2c2_zalloc
#undef r2c2_free
#define r2c2_zalloc(size)	ut_zalloc(size)
#define r2c2_free(ptr)		ut_free(ptr)

#include "../common/paths.c"

/* ---------------------------------------------------------------- */
/* Test scaffolding                                                  */
/* ---------------------------------------------------------------- */

/**
 * struct ut_alloc - state of the allocator of the code under test
 * @calls: r2c2_zalloc() calls so far
 * @fail_nth: the call (1-based) that returns NULL; 0 = none
 * @live: allocations not freed yet
 */
static struct ut_alloc {
	unsigned int calls;
	unsigned int fail_nth;
	int live;
} ut_alloc;

static void *ut_zalloc(size_t size)
{
	void *ptr;

	if (++ut_alloc.calls == ut_alloc.fail_nth)
		return NULL;
	ptr = kvzalloc(size, GFP_KERNEL);
	if (ptr)
		ut_alloc.live++;
	return ptr;
}

static void ut_free(const void *ptr)
{
	if (ptr)
		ut_alloc.live--;
	kvfree(ptr);
}

#define UT_P	8	/* R2C2_MAX_PORTS, short for the tables below */
#define UT_NPATHS	3

/* tables built by a test; freed (and checked for leaks) after it */
struct ut_ctx {
	struct r2c2_paths p[UT_NPATHS];
};

static int paths_test_init(struct kunit *test)
{
	struct ut_ctx *ctx;

	memset(&ut_alloc, 0, sizeof(ut_alloc));
	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	test->priv = ctx;
	return 0;
}

static void paths_test_exit(struct kunit *test)
{
	struct ut_ctx *ctx = test->priv;
	unsigned int i;

	for (i = 0; i < UT_NPATHS; i++)
		r2c2_paths_free(&ctx->p[i]);
	KUNIT_EXPECT_EQ_MSG(test, ut_alloc.live, 0, "leaked allocations");
}

static struct r2c2_paths *ut_paths(struct kunit *test, unsigned int i)
{
	struct ut_ctx *ctx = test->priv;

	return &ctx->p[i];
}

/* Generator of reproducible random numbers (splitmix64). */
struct ut_rng {
	u64 state;
	unsigned int calls;
};

static u32 ut_rand(void *ctx)
{
	struct ut_rng *r = ctx;
	u64 z;

	r->calls++;
	z = (r->state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (u32)((z ^ (z >> 31)) >> 32);
}

/* Scripted random numbers: vals in order, then the last one again. */
struct ut_script {
	const u32 *vals;
	unsigned int nvals;
	unsigned int calls;
};

static u32 ut_script_rand(void *ctx)
{
	struct ut_script *sc = ctx;
	u32 v = sc->vals[min(sc->calls, sc->nvals - 1)];

	sc->calls++;
	return v;
}

static unsigned int ut_nodes(const u8 *dims, unsigned int nd)
{
	unsigned int i, n = 1;

	for (i = 0; i < nd; i++)
		n *= dims[i];
	return n;
}

/* An adjacency of n nodes without links. */
static u16 *ut_nbr_none(struct kunit *test, unsigned int n)
{
	u16 *nbr = kunit_kmalloc_array(test, n * UT_P, sizeof(*nbr),
				       GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, nbr);
	for (i = 0; i < n * UT_P; i++)
		nbr[i] = R2C2_IDX_NONE;
	return nbr;
}

/* A link both ways: u port pu <-> v port pv. */
static void ut_link(u16 *nbr, u8 *nbr_port, u16 u, u8 pu, u16 v, u8 pv)
{
	nbr[u * UT_P + pu] = v;
	nbr[v * UT_P + pv] = u;
	if (nbr_port) {
		nbr_port[u * UT_P + pu] = pv;
		nbr_port[v * UT_P + pv] = pu;
	}
}

/* Tables of a torus (wrap) or mesh, in p; returns the node count. */
static unsigned int ut_build_torus(struct kunit *test, struct r2c2_paths *p,
				   const u8 *dims, unsigned int nd, bool wrap)
{
	unsigned int n = ut_nodes(dims, nd);
	u16 *nbr;
	u8 *nbr_port;

	nbr = kunit_kmalloc_array(test, n * UT_P, sizeof(*nbr), GFP_KERNEL);
	nbr_port = kunit_kmalloc(test, n * UT_P, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, nbr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, nbr_port);
	KUNIT_ASSERT_EQ(test, r2c2_torus_nbrs(dims, nd, wrap, nbr, nbr_port),
			(int)n);
	KUNIT_ASSERT_EQ(test, r2c2_paths_build(p, (u16)n, nbr, nbr_port), 0);
	return n;
}

static void ut_coords(unsigned int id, const u8 *dims, unsigned int nd,
		      unsigned int *c)
{
	unsigned int i;

	for (i = 0; i < nd; i++) {
		c[i] = id % dims[i];
		id /= dims[i];
	}
}

/* Minimal hops from a to b along one dimension of radix k. */
static unsigned int ut_offset(unsigned int a, unsigned int b, unsigned int k,
			      bool wrap, bool *tie)
{
	unsigned int fwd = (b + k - a) % k, back = (a + k - b) % k;

	*tie = false;
	if (!wrap)
		return a > b ? a - b : b - a;
	*tie = fwd && fwd == back;
	return min(fwd, back);
}

static u64 ut_binom(unsigned int m, unsigned int k)
{
	unsigned int j;
	u64 r = 1;

	/* r = C(m - k + j, j) after step j: exact at every step */
	for (j = 1; j <= k; j++)
		r = r * (m - k + j) / j;
	return r;
}

/*
 * Hop count and number of minimal paths s -> d on a torus or mesh: the
 * multinomial coefficient of the per-dimension offsets, doubled for each
 * dimension where both ways are minimal (even radix, offset k/2).
 */
static unsigned int ut_torus_dist(const u8 *dims, unsigned int nd, bool wrap,
				  unsigned int s, unsigned int d, u64 *npaths)
{
	unsigned int cs[R2C2_MAX_DIMS], cd[R2C2_MAX_DIMS], i, a, tot = 0;
	u64 np = 1;
	bool tie;

	ut_coords(s, dims, nd, cs);
	ut_coords(d, dims, nd, cd);
	for (i = 0; i < nd; i++) {
		a = ut_offset(cs[i], cd[i], dims[i], wrap, &tie);
		tot += a;
		np *= ut_binom(tot, a);
		if (tie)
			np *= 2;
	}
	if (npaths)
		*npaths = np;
	return tot;
}

/*
 * Port dimension-order routing takes at u on its way from s to d: the
 * first dimension that differs, the shorter way; both ways minimal
 * (offset k/2), the + way when the route s -> d is an odd number of hops
 * long.
 */
static u8 ut_dor_port(const u8 *dims, unsigned int nd, bool wrap,
		      unsigned int s, unsigned int u, unsigned int d)
{
	unsigned int cu[R2C2_MAX_DIMS], cd[R2C2_MAX_DIMS], i, k, fwd, len;

	len = ut_torus_dist(dims, nd, wrap, s, d, NULL);
	ut_coords(u, dims, nd, cu);
	ut_coords(d, dims, nd, cd);
	for (i = 0; i < nd; i++) {
		if (cu[i] == cd[i])
			continue;
		k = dims[i];
		if (!wrap)
			return (u8)(cd[i] > cu[i] ? 2 * i : 2 * i + 1);
		fwd = (cd[i] + k - cu[i]) % k;
		if (fwd == k - fwd)
			return (u8)(len & 1 ? 2 * i : 2 * i + 1);
		return (u8)(fwd < k - fwd ? 2 * i : 2 * i + 1);
	}
	return R2C2_MAX_PORTS;
}

static u64 ut_absdiff(u64 a, u64 b)
{
	return a > b ? a - b : b - a;
}

static unsigned int ut_dist(const struct r2c2_paths *p, u16 from, u16 to)
{
	return p->dist[(size_t)to * p->n + from];
}

static u32 ut_npaths(const struct r2c2_paths *p, u16 from, u16 to)
{
	return p->npaths[(size_t)to * p->n + from];
}

/* Node reached by @len hops from @s (nodes on the way in @via). */
static u16 ut_walk(const struct r2c2_paths *p, u16 s, const u8 *hops,
		   int len, u16 *via)
{
	u16 u = s;
	int i;

	for (i = 0; i < len; i++) {
		if (via)
			via[i] = u;
		if (hops[i] >= R2C2_MAX_PORTS)
			return R2C2_IDX_NONE;
		u = p->nbr[(size_t)u * UT_P + hops[i]];
		if (u == R2C2_IDX_NONE)
			return R2C2_IDX_NONE;
	}
	if (via)
		via[len] = u;
	return u;
}

/*
 * A sampled route must be a walk from s to d over existing links, no
 * longer than R2C2_MAX_HOPS; minimal for RPS and DOR; for VLB two
 * minimal legs: some node m on it is dist(s, m) hops from s and
 * dist(m, d) hops from d.
 */
static void ut_check_route(struct kunit *test, const struct r2c2_paths *p,
			   u8 rproto, u16 s, u16 d, const u8 *hops, int len)
{
	u16 via[R2C2_MAX_HOPS + 1];
	int i;

	KUNIT_ASSERT_GE_MSG(test, len, 0, "%u -> %u", s, d);
	KUNIT_ASSERT_LE(test, len, R2C2_MAX_HOPS);
	KUNIT_ASSERT_EQ_MSG(test, ut_walk(p, s, hops, len, via), d,
			    "%u -> %u", s, d);
	if (rproto == R2C2_RP_WLB && p->ndims) {
		/*
		 * each dimension one way; the dimensions in order to the
		 * intermediate, then in order again from it
		 */
		unsigned int runs = 1, way[R2C2_MAX_DIMS] = { 0 };

		for (i = 0; i < len; i++) {
			KUNIT_EXPECT_LT(test, hops[i], 2 * p->ndims);
			way[hops[i] / 2] |= 1u << (hops[i] & 1);
			runs += i && hops[i] / 2 < hops[i - 1] / 2;
		}
		for (i = 0; i < R2C2_MAX_DIMS; i++)
			KUNIT_EXPECT_NE_MSG(test, way[i], 3u,
					    "WLB %u -> %u: both ways along %d", s, d, i);
		KUNIT_EXPECT_LE_MSG(test, runs, 2u, "WLB %u -> %u", s, d);
		return;
	}
	if (rproto != R2C2_RP_VLB) {
		KUNIT_EXPECT_EQ_MSG(test, len, (int)ut_dist(p, s, d),
				    "%u -> %u", s, d);
		return;
	}
	for (i = 0; i <= len; i++)
		if (ut_dist(p, s, via[i]) == i &&
		    ut_dist(p, via[i], d) == len - i)
			break;
	KUNIT_EXPECT_LE_MSG(test, i, len, "VLB %u -> %u: no intermediate", s, d);
}

/* ---------------------------------------------------------------- */
/* r2c2_paths_build()                                                */
/* ---------------------------------------------------------------- */

static void r2c2_paths_build__zero_nodes(struct kunit *test)
{
	struct r2c2_paths *p = ut_paths(test, 0);
	u16 nbr[UT_P];

	memset(p, 0xa5, sizeof(*p));
	KUNIT_EXPECT_EQ(test, r2c2_paths_build(p, 0, nbr, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, p->n, 0);
	KUNIT_EXPECT_PTR_EQ(test, p->nbr, NULL);
	KUNIT_EXPECT_PTR_EQ(test, p->dist, NULL);
	KUNIT_EXPECT_EQ(test, ut_alloc.calls, 0);
}

static void r2c2_paths_build__nbr_out_of_range(struct kunit *test)
{
	struct r2c2_paths *p = ut_paths(test, 0);
	u16 *nbr = ut_nbr_none(test, 3);

	ut_link(nbr, NULL, 0, 0, 1, 1);
	nbr[2 * UT_P + 7] = 3;		/* node 3 of 3 */
	KUNIT_EXPECT_EQ(test, r2c2_paths_build(p, 3, nbr, NULL), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, p->nbr, NULL);
	nbr[2 * UT_P + 7] = 0xfffe;
	KUNIT_EXPECT_EQ(test, r2c2_paths_build(p, 3, nbr, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ut_alloc.calls, 0);
	/* the largest index is fine */
	nbr[2 * UT_P + 7] = 2;
	KUNIT_EXPECT_EQ(test, r2c2_paths_build(p, 3, nbr, NULL), 0);
}

static void r2c2_paths_build__nomem(struct kunit *test)
{
	static const u8 dims[] = { 3, 3 };
	struct r2c2_paths *p = ut_paths(test, 0);
	u16 *nbr = ut_nbr_none(test, 9);
	u8 nbr_port[9 * UT_P];
	unsigned int nth;

	KUNIT_ASSERT_EQ(test, r2c2_torus_nbrs(dims, 2, true, nbr, nbr_port), 9);
	/*
	 * eight allocations, and four for WLB's coordinates; each failing
	 * alone leaves nothing behind
	 */
	for (nth = 1; nth <= 12; nth++) {
		ut_alloc.calls = 0;
		ut_alloc.fail_nth = nth;
		KUNIT_EXPECT_EQ_MSG(test, r2c2_paths_build(p, 9, nbr, nbr_port),
				    -ENOMEM, "allocation %u", nth);
		KUNIT_EXPECT_EQ_MSG(test, ut_alloc.live, 0, "allocation %u", nth);
		KUNIT_EXPECT_EQ(test, p->n, 0);
		KUNIT_EXPECT_PTR_EQ(test, p->nbr, NULL);
		KUNIT_EXPECT_PTR_EQ(test, p->nbr_port, NULL);
		KUNIT_EXPECT_PTR_EQ(test, p->dist, NULL);
		KUNIT_EXPECT_PTR_EQ(test, p->npaths, NULL);
		KUNIT_EXPECT_PTR_EQ(test, p->coord, NULL);
		KUNIT_EXPECT_PTR_EQ(test, p->at, NULL);
	}
	ut_alloc.calls = 0;
	ut_alloc.fail_nth = 13;
	KUNIT_EXPECT_EQ(test, r2c2_paths_build(p, 9, nbr, nbr_port), 0);
	KUNIT_EXPECT_EQ(test, ut_alloc.calls, 12);
	/* the scratch arrays are freed, the six tables kept */
	KUNIT_EXPECT_EQ(test, ut_alloc.live, 6);
	KUNIT_EXPECT_EQ(test, p->ndims, 2);
}

static void r2c2_paths_build__copies_inputs(struct kunit *test)
{
	struct r2c2_paths *p = ut_paths(test, 0), *q = ut_paths(test, 1);
	u16 *nbr = ut_nbr_none(test, 2);
	u8 nbr_port[2 * UT_P] = { 0 };
	unsigned int i;

	ut_link(nbr, nbr_port, 0, 3, 1, 5);
	KUNIT_ASSERT_EQ(test, r2c2_paths_build(p, 2, nbr, nbr_port), 0);
	KUNIT_ASSERT_EQ(test, r2c2_paths_build(q, 2, nbr, NULL), 0);
	nbr[0 * UT_P + 3] = R2C2_IDX_NONE;
	nbr_port[0 * UT_P + 3] = 7;
	KUNIT_EXPECT_EQ(test, p->nbr[0 * UT_P + 3], 1);
	KUNIT_EXPECT_EQ(test, p->nbr_port[0 * UT_P + 3], 5);
	KUNIT_EXPECT_EQ(test, p->nbr[1 * UT_P + 5], 0);
	KUNIT_EXPECT_EQ(test, p->nbr_port[1 * UT_P + 5], 3);
	/* without nbr_port the table is there, all zero */
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, q->nbr_port);
	for (i = 0; i < 2 * UT_P; i++)
		KUNIT_EXPECT_EQ(test, q->nbr_port[i], 0);
	KUNIT_EXPECT_EQ(test, q->nbr[0 * UT_P + 3], 1);
}

static void r2c2_paths_build__no_links(struct kunit *test)
{
	struct r2c2_paths *p = ut_paths(test, 0);
	u16 *nbr = ut_nbr_none(test, 3);
	unsigned int u, d;

	KUNIT_ASSERT_EQ(test, r2c2_paths_build(p, 3, nbr, NULL), 0);
	KUNIT_EXPECT_EQ(test, p->n, 3);
	for (d = 0; d < 3; d++)
		for (u = 0; u < 3; u++) {
			KUNIT_EXPECT_EQ(test, ut_dist(p, u, d),
					u == d ? 0 : R2C2_DIST_INF);
			KUNIT_EXPECT_EQ(test, ut_npaths(p, u, d), u == d ? 1 : 0);
		}
}

static const struct {
	u8 dims[R2C2_MAX_DIMS];
	u8 nd;
	bool wrap;
} ut_shapes[] = {
	{ { 3, 3 }, 2, true },
	{ { 4, 4 }, 2, true },
	{ { 5, 5 }, 2, true },
	{ { 6, 6 }, 2, true },
	{ { 3, 3, 3 }, 3, true },
	{ { 4, 4, 4 }, 3, true },
	{ { 2, 3, 4 }, 3, true },
	{ { 2, 2, 2 }, 3, true },
	{ { 7 }, 1, true },
	{ { 3, 3 }, 2, false },
	{ { 4, 3 }, 2, false },
	{ { 3, 3, 3 }, 3, false },
	{ { 6 }, 1, false },
};

static void r2c2_paths_build__dist_and_npaths_match_formula(struct kunit *test)
{
	struct r2c2_paths *p = ut_paths(test, 0);
	unsigned int i, n, s, d, dist;
	u64 np;

	for (i = 0; i < ARRAY_SIZE(ut_shapes); i++) {
		n = ut_build_torus(test, p, ut_shapes[i].dims, ut_shapes[i].nd,
				   ut_shapes[i].wrap);
		for (s = 0; s < n; s++)
			for (d = 0; d < n; d++) {
				dist = ut_torus_dist(ut_shapes[i].dims,
						     ut_shapes[i].nd,
						     ut_shapes[i].wrap, s, d, &np);
				KUNIT_EXPECT_EQ_MSG(test, ut_dist(p, s, d), dist,
						    "shape %u %u -> %u", i, s, d);
				KUNIT_EXPECT_EQ_MSG(test, ut_npaths(p, s, d), np,
						    "shape %u %u -> %u", i, s, d);
			}
		r2c2_paths_free(p);
	}
}

static void r2c2_paths_build__known_counts(struct kunit *test)
{
	static const u8 d44[] = { 4, 4 }, d66[] = { 6, 6 }, d222[] = { 2, 2, 2 };
	struct r2c2_paths *p = ut_paths(test, 0);

	/* 4x4 (0,0) -> (2,1): 3 arrangements of x,x,y, x either way */
	ut_build_torus(test, p, d44, 2, true);
	KUNIT_EXPECT_EQ(test, ut_npaths(p, 0, 6), 6);
	KUNIT_EXPECT_EQ(test, ut_npaths(p, 0, 10), 24);
	r2c2_paths_free(p);
	/* 6x6 (0,0) -> (3,3): C(6,3) * 2 * 2 */
	ut_build_torus(test, p, d66, 2, true);
	KUNIT_EXPECT_EQ(test, ut_npaths(p, 0, 21), 80);
	KUNIT_EXPECT_EQ(test, ut_dist(p, 0, 21), 6);
	r2c2_paths_free(p);
	/* 2x2x2: two parallel links a dimension, 3! orders * 2^3 */
	ut_build_torus(test, p, d222, 3, true);
	KUNIT_EXPECT_EQ(test, ut_npaths(p, 0, 7), 48);
}

static void r2c2_paths_build__disconnected(struct kunit *test)
{
	static const u8 dims[] = { 3, 3 };
	struct r2c2_paths *p = ut_paths(test, 0);
	u16 *nbr = ut_nbr_none(test, 18);
	unsigned int s, d, i;

	/* two 3x3 tori, nodes 0..8 and 9..17 */
	KUNIT_ASSERT_EQ(test, r2c2_torus_nbrs(dims, 2, true, nbr, NULL), 9);
	for (i = 0; i < 9 * UT_P; i++)
		nbr[9 * UT_P + i] = nbr[i] == R2C2_IDX_NONE ?
				    R2C2_IDX_NONE : nbr[i] + 9;
	KUNIT_ASSERT_EQ(test, r2c2_paths_build(p, 18, nbr, NULL), 0);
	for (s = 0; s < 18; s++)
		for (d = 0; d < 18; d++) {
			if (s / 9 == d / 9) {
				KUNIT_EXPECT_LE(test, ut_dist(p, s, d), 2);
				continue;
			}
			KUNIT_EXPECT_EQ(test, ut_dist(p, s, d), R2C2_DIST_INF);
			KUNIT_EXPECT_EQ(test, ut_npaths(p, s, d), 0);
		}
}

static void r2c2_paths_build__one_way_link(struct kunit *test)
{
	struct r2c2_paths *p = ut_paths(test, 0);
	u16 *nbr = ut_nbr_none(test, 3);

	/* 0 -> 1 -> 2, no way back: distances follow link direction */
	nbr[0 * UT_P + 0] = 1;
	nbr[1 * UT_P + 0] = 2;
	KUNIT_ASSERT_EQ(test, r2c2_paths_build(p, 3, nbr, NULL), 0);
	KUNIT_EXPECT_EQ(test, ut_dist(p, 0, 1), 1);
	KUNIT_EXPECT_EQ(test, ut_dist(p, 0, 2), 2);
	KUNIT_EXPECT_EQ(test, ut_dist(p, 1, 2), 1);
	KUNIT_EXPECT_EQ(test, ut_dist(p, 1, 0), R2C2_DIST_INF);
	KUNIT_EXPECT_EQ(test, ut_dist(p, 2, 0), R2C2_DIST_INF);
	KUNIT_EXPECT_EQ(test, ut_npaths(p, 0, 2), 1);
	KUNIT_EXPECT_EQ(test, ut_npaths(p, 2, 0), 0);
}

static void r2c2_paths_build__parallel_links(struct kunit *test)
{
	static const u8 dims[] = { 2 };
	struct r2c2_paths *p = ut_paths(test, 0);
	u16 *nbr = ut_nbr_none(test, 2);

	/* a ring of two: ports 0 and 1 both lead to the other node */
	KUNIT_ASSERT_EQ(test, r2c2_torus_nbrs(dims, 1, true, nbr, NULL), 2);
	KUNIT_ASSERT_EQ(test, r2c2_paths_build(p, 2, nbr, NULL), 0);
	KUNIT_EXPECT_EQ(test, ut_dist(p, 0, 1), 1);
	KUNIT_EXPECT_EQ(test, ut_npaths(p, 0, 1), 2);
	KUNIT_EXPECT_EQ(test, ut_npaths(p, 1, 0), 2);
}

static void r2c2_paths_build__dist_saturates(struct kunit *test)
{
	struct r2c2_paths *p = ut_paths(test, 0);
	u16 *nbr = ut_nbr_none(test, 300);
	unsigned int u;

	/* a one-way chain 0 -> 1 -> ... -> 299 */
	for (u = 0; u + 1 < 300; u++)
		nbr[u * UT_P] = (u16)(u + 1);
	KUNIT_ASSERT_EQ(test, r2c2_paths_build(p, 300, nbr, NULL), 0);
	/* 254 hops is the longest distance; 255 is R2C2_DIST_INF */
	KUNIT_EXPECT_EQ(test, ut_dist(p, 299 - 254, 299), 254);
	KUNIT_EXPECT_EQ(test, ut_npaths(p, 299 - 254, 299), 1);
	KUNIT_EXPECT_EQ(test, ut_dist(p, 299 - 255, 299), R2C2_DIST_INF);
	KUNIT_EXPECT_EQ(test, ut_npaths(p, 299 - 255, 299), 0);
	KUNIT_EXPECT_EQ(test, ut_dist(p, 0, 299), R2C2_DIST_INF);
	KUNIT_EXPECT_EQ(test, ut_dist(p, 0, 254), 254);
}

static void r2c2_paths_build__npaths_saturate(struct kunit *test)
{
	struct r2c2_paths *p = ut_paths(test, 0);
	u16 *nbr = ut_nbr_none(test, 12);
	unsigned int u, k;

	/* a one-way chain of 12 nodes, 8 parallel links a hop: 8^hops */
	for (u = 0; u + 1 < 12; u++)
		for (k = 0; k < UT_P; k++)
			nbr[u * UT_P + k] = (u16)(u + 1);
	KUNIT_ASSERT_EQ(test, r2c2_paths_build(p, 12, nbr, NULL), 0);
	KUNIT_EXPECT_EQ(test, ut_npaths(p, 10, 11), 8);
	KUNIT_EXPECT_EQ(test, ut_npaths(p, 2, 11), 1u << 27);
	KUNIT_EXPECT_EQ(test, ut_npaths(p, 1, 11), R2C2_NPATHS_MAX);
	/* 8 saturated counts sum above 2^31: still saturated, not wrapped */
	KUNIT_EXPECT_EQ(test, ut_npaths(p, 0, 11), R2C2_NPATHS_MAX);
}

static void r2c2_paths_build__in_degree_above_8(struct kunit *test)
{
	struct r2c2_paths *p = ut_paths(test, 0);
	u16 *nbr = ut_nbr_none(test, 10);
	unsigned int u;
	int ret;

	/*
	 * Nodes 0..8 each have a link to node 9, which has one back to 0:
	 * nine links land on node 9. Nodes of 8 ports cannot be wired so,
	 * but the table comes from what the nodes advertise. Rejecting it
	 * and computing it right are both fine; overrunning the reversed
	 * adjacency (8 slots a node) is not, and KASAN fails the test.
	 */
	for (u = 0; u < 9; u++)
		nbr[u * UT_P] = 9;
	nbr[9 * UT_P] = 0;
	ret = r2c2_paths_build(p, 10, nbr, NULL);
	if (ret == -EINVAL) {
		KUNIT_EXPECT_PTR_EQ(test, p->nbr, NULL);
		return;
	}
	KUNIT_ASSERT_EQ(test, ret, 0);
	for (u = 0; u < 9; u++) {
		KUNIT_EXPECT_EQ(test, ut_dist(p, u, 9), 1);
		KUNIT_EXPECT_EQ(test, ut_dist(p, 9, u), u ? 2 : 1);
	}
}

/* ---------------------------------------------------------------- */
/* r2c2_paths_free()                                                 */
/* ---------------------------------------------------------------- */

static void r2c2_paths_free__frees_and_zeroes(struct kunit *test)
{
	static const u8 dims[] = { 3, 3 };
	struct r2c2_paths *p = ut_paths(test, 0);

	ut_build_torus(test, p, dims, 2, true);
	/* four tables, and a torus's coordinates and their index */
	KUNIT_EXPECT_EQ(test, ut_alloc.live, 6);
	r2c2_paths_free(p);
	KUNIT_EXPECT_EQ(test, ut_alloc.live, 0);
	KUNIT_EXPECT_EQ(test, p->n, 0);
	KUNIT_EXPECT_PTR_EQ(test, p->nbr, NULL);
	KUNIT_EXPECT_PTR_EQ(test, p->nbr_port, NULL);
	KUNIT_EXPECT_PTR_EQ(test, p->dist, NULL);
	KUNIT_EXPECT_PTR_EQ(test, p->npaths, NULL);
	KUNIT_EXPECT_PTR_EQ(test, p->coord, NULL);
	KUNIT_EXPECT_PTR_EQ(test, p->at, NULL);
	KUNIT_EXPECT_EQ(test, p->ndims, 0);
	/* freeing again, or freeing tables never built, is harmless */
	r2c2_paths_free(p);
	KUNIT_EXPECT_EQ(test, ut_alloc.live, 0);
}

/* ---------------------------------------------------------------- */
/* r2c2_next_hops()                                                  */
/* ---------------------------------------------------------------- */

static void r2c2_next_hops__at_destination(struct kunit *test)
{
	static const u8 dims[] = { 3, 3 };
	struct r2c2_paths *p = ut_paths(test, 0);
	u8 ports[R2C2_MAX_PORTS];
	u32 w[R2C2_MAX_PORTS];

	ut_build_torus(test, p, dims, 2, true);
	KUNIT_EXPECT_EQ(test, r2c2_next_hops(p, R2C2_RP_RPS, 4, 4, 4, ports, w), 0);
	KUNIT_EXPECT_EQ(test, r2c2_next_hops(p, R2C2_RP_DOR, 4, 4, 4, ports, w), 0);
}

static void r2c2_next_hops__unreachable(struct kunit *test)
{
	struct r2c2_paths *p = ut_paths(test, 0);
	u16 *nbr = ut_nbr_none(test, 3);
	u8 ports[R2C2_MAX_PORTS];
	u32 w[R2C2_MAX_PORTS];

	ut_link(nbr, NULL, 0, 0, 1, 1);
	KUNIT_ASSERT_EQ(test, r2c2_paths_build(p, 3, nbr, NULL), 0);
	KUNIT_EXPECT_EQ(test, r2c2_next_hops(p, R2C2_RP_RPS, 0, 0, 2, ports, w), 0);
	KUNIT_EXPECT_EQ(test, r2c2_next_hops(p, R2C2_RP_DOR, 2, 2, 0, ports, w), 0);
	KUNIT_EXPECT_EQ(test, r2c2_next_hops(p, R2C2_RP_RPS, 0, 0, 1, ports, w), 1);
}

static void r2c2_next_hops__rps_weights_are_path_counts(struct kunit *test)
{
	struct r2c2_paths *p = ut_paths(test, 0);
	u8 ports[R2C2_MAX_PORTS];
	u32 w[R2C2_MAX_PORTS];
	unsigned int i, n, u, d, k;
	int c, j;
	u64 sum;

	for (i = 0; i < ARRAY_SIZE(ut_shapes); i++) {
		n = ut_build_torus(test, p, ut_shapes[i].dims, ut_shapes[i].nd,
				   ut_shapes[i].wrap);
		for (u = 0; u < n; u++)
			for (d = 0; d < n; d++) {
				if (u == d)
					continue;
				c = r2c2_next_hops(p, R2C2_RP_RPS, u, u, d, ports, w);
				/* exactly the minimal ports, in port order */
				j = 0;
				for (k = 0; k < R2C2_MAX_PORTS; k++) {
					u16 v = p->nbr[u * UT_P + k];

					if (v == R2C2_IDX_NONE ||
					    ut_dist(p, v, d) + 1 != ut_dist(p, u, d))
						continue;
					KUNIT_ASSERT_LT(test, j, c);
					KUNIT_EXPECT_EQ(test, ports[j], k);
					KUNIT_EXPECT_EQ(test, w[j], ut_npaths(p, v, d));
					j++;
				}
				KUNIT_EXPECT_EQ(test, c, j);
				sum = 0;
				for (j = 0; j < c; j++)
					sum += w[j];
				KUNIT_EXPECT_EQ_MSG(test, sum, ut_npaths(p, u, d),
						    "shape %u %u -> %u", i, u, d);
			}
		r2c2_paths_free(p);
	}
}

/* Walk every minimal path u -> d; each must have probability 1/npaths. */
static void ut_paths_dfs(struct kunit *test, const struct r2c2_paths *p,
			 u16 u, u16 d, u64 num, u64 den, u64 np,
			 unsigned int *seen)
{
	u8 ports[R2C2_MAX_PORTS];
	u32 w[R2C2_MAX_PORTS];
	u64 total = 0;
	int c, j;

	if (u == d) {
		KUNIT_EXPECT_EQ(test, num * np, den);
		(*seen)++;
		return;
	}
	c = r2c2_next_hops(p, R2C2_RP_RPS, u, u, d, ports, w);
	KUNIT_ASSERT_GT(test, c, 0);
	for (j = 0; j < c; j++)
		total += w[j];
	for (j = 0; j < c; j++)
		ut_paths_dfs(test, p, p->nbr[u * UT_P + ports[j]], d,
			     num * w[j], den * total, np, seen);
}

static void r2c2_next_hops__rps_paths_equally_likely(struct kunit *test)
{
	struct r2c2_paths *p = ut_paths(test, 0);
	unsigned int i, n, s, d, seen;

	/* all shapes but 4x4x4, whose path tree is large for UML */
	for (i = 0; i < ARRAY_SIZE(ut_shapes); i++) {
		if (ut_nodes(ut_shapes[i].dims, ut_shapes[i].nd) > 36)
			continue;
		n = ut_build_torus(test, p, ut_shapes[i].dims, ut_shapes[i].nd,
				   ut_shapes[i].wrap);
		for (s = 0; s < n; s++)
			for (d = 0; d < n; d++) {
				seen = 0;
				ut_paths_dfs(test, p, s, d, 1, 1,
					     ut_npaths(p, s, d), &seen);
				KUNIT_EXPECT_EQ(test, seen, ut_npaths(p, s, d));
			}
		r2c2_paths_free(p);
	}
}

static void r2c2_next_hops__dor_lowest_minimal_port(struct kunit *test)
{
	struct r2c2_paths *p = ut_paths(test, 0);
	u8 ports[R2C2_MAX_PORTS], rports[R2C2_MAX_PORTS];
	u32 w[R2C2_MAX_PORTS], rw[R2C2_MAX_PORTS];
	unsigned int i, n, u, d;
	int c, rc;

	for (i = 0; i < ARRAY_SIZE(ut_shapes); i++) {
		n = ut_build_torus(test, p, ut_shapes[i].dims, ut_shapes[i].nd,
				   ut_shapes[i].wrap);
		for (u = 0; u < n; u++)
			for (d = 0; d < n; d++) {
				if (u == d)
					continue;
				c = r2c2_next_hops(p, R2C2_RP_DOR, u, u, d, ports, w);
				KUNIT_ASSERT_EQ(test, c, 1);
				KUNIT_EXPECT_EQ(test, w[0], 1);
				rc = r2c2_next_hops(p, R2C2_RP_RPS, u, u, d, rports, rw);
				/* RPS's first port, or its second in a tie */
				KUNIT_EXPECT_TRUE(test, ports[0] == rports[0] ||
						  (rc > 1 && ports[0] == rports[1] &&
						   ports[0] == (rports[0] | 1)));
				/* dimension order, ties by the route's length */
				KUNIT_EXPECT_EQ_MSG(test, ports[0],
						    ut_dor_port(ut_shapes[i].dims,
								ut_shapes[i].nd,
								ut_shapes[i].wrap,
								u, u, d),
						    "shape %u %u -> %u", i, u, d);
			}
		r2c2_paths_free(p);
	}
}

static void r2c2_next_hops__dor_tie_by_length(struct kunit *test)
{
	static const u8 d44[] = { 4, 4 };
	struct r2c2_paths *p = ut_paths(test, 0);
	u8 ports[R2C2_MAX_PORTS], hops[R2C2_MAX_HOPS];
	struct ut_rng rng = { .state = 1 };
	u32 w[R2C2_MAX_PORTS];

	ut_build_torus(test, p, d44, 2, true);
	/* (0,0) -> (2,0), 2 hops: +x and -x both minimal, DOR takes -x */
	KUNIT_ASSERT_EQ(test, r2c2_next_hops(p, R2C2_RP_DOR, 0, 0, 2, ports, w), 1);
	KUNIT_EXPECT_EQ(test, ports[0], 1);
	/* (0,0) -> (2,1), 3 hops: +x */
	KUNIT_ASSERT_EQ(test, r2c2_next_hops(p, R2C2_RP_DOR, 0, 0, 6, ports, w), 1);
	KUNIT_EXPECT_EQ(test, ports[0], 0);
	/* (0,0) -> (0,2), 2 hops: -y (port 3) */
	KUNIT_ASSERT_EQ(test, r2c2_next_hops(p, R2C2_RP_DOR, 0, 0, 8, ports, w), 1);
	KUNIT_EXPECT_EQ(test, ports[0], 3);
	/* (1,0) -> (1,2), 2 hops: -y too (the tie depends on the offset) */
	KUNIT_ASSERT_EQ(test, r2c2_next_hops(p, R2C2_RP_DOR, 1, 1, 9, ports, w), 1);
	KUNIT_EXPECT_EQ(test, ports[0], 3);
	/* (3,0) -> (0,0): one hop +x over the wrap link, no tie */
	KUNIT_ASSERT_EQ(test, r2c2_next_hops(p, R2C2_RP_DOR, 3, 3, 0, ports, w), 1);
	KUNIT_EXPECT_EQ(test, ports[0], 0);
	/* (1,0) -> (0,0): -x */
	KUNIT_ASSERT_EQ(test, r2c2_next_hops(p, R2C2_RP_DOR, 1, 1, 0, ports, w), 1);
	KUNIT_EXPECT_EQ(test, ports[0], 1);
	/* (0,0) -> (2,2), 4 hops: both ties the - way */
	KUNIT_ASSERT_EQ(test, r2c2_route_sample(p, R2C2_RP_DOR, 0, 10, ut_rand,
						&rng, hops), 4);
	KUNIT_EXPECT_EQ(test, hops[0], 1);
	KUNIT_EXPECT_EQ(test, hops[1], 1);
	KUNIT_EXPECT_EQ(test, hops[2], 3);
	KUNIT_EXPECT_EQ(test, hops[3], 3);
	/*
	 * at (1,0) on the way from (0,0) to (1,2) (3 hops) the y tie goes
	 * the + way: by the leg's length, not by what is left of it (2)
	 */
	KUNIT_ASSERT_EQ(test, r2c2_next_hops(p, R2C2_RP_DOR, 0, 1, 9, ports, w), 1);
	KUNIT_EXPECT_EQ(test, ports[0], 2);
	/* (0,0) -> (2,3), 3 hops: +x twice, then -y once */
	KUNIT_ASSERT_EQ(test, r2c2_route_sample(p, R2C2_RP_DOR, 0, 14, ut_rand,
						&rng, hops), 3);
	KUNIT_EXPECT_EQ(test, hops[0], 0);
	KUNIT_EXPECT_EQ(test, hops[1], 0);
	KUNIT_EXPECT_EQ(test, hops[2], 3);
	/* DOR makes no random choice */
	KUNIT_EXPECT_EQ(test, rng.calls, 0);
	/* RPS keeps both ways of the tie */
	KUNIT_EXPECT_EQ(test, r2c2_next_hops(p, R2C2_RP_RPS, 0, 0, 2, ports, w), 2);
}

/*
 * DOR's ties split evenly: the routes of every ordered pair of an even
 * torus load every link of a dimension alike, as minimal routing of
 * uniform traffic should. With every tie the + way, a + link of a 4 x 4
 * torus carried 12 routes and a - link 4.
 */
static void r2c2_route_sample__dor_all_pairs_balanced(struct kunit *test)
{
	static const u8 shapes[][3] = { { 4, 4, 0 }, { 6, 6, 0 }, { 4, 4, 4 },
					{ 2, 4, 0 } };
	struct r2c2_paths *p = ut_paths(test, 0);
	u8 hops[R2C2_MAX_HOPS];
	struct ut_rng rng = { .state = 7 };
	unsigned int i, k, n, s, d, l, nd, lo, hi;
	u32 *use;
	int len, h;
	u16 u;

	for (i = 0; i < ARRAY_SIZE(shapes); i++) {
		nd = shapes[i][2] ? 3 : 2;
		n = ut_build_torus(test, p, shapes[i], nd, true);
		use = kunit_kcalloc(test, n * UT_P, sizeof(*use), GFP_KERNEL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, use);
		for (s = 0; s < n; s++)
			for (d = 0; d < n; d++) {
				len = r2c2_route_sample(p, R2C2_RP_DOR, s, d,
							ut_rand, &rng, hops);
				KUNIT_ASSERT_GE(test, len, 0);
				for (u = s, h = 0; h < len; h++) {
					use[u * UT_P + hops[h]]++;
					u = p->nbr[u * UT_P + hops[h]];
				}
				KUNIT_EXPECT_EQ(test, u, d);
			}
		/* alike along a dimension: ports 2k and 2k + 1 */
		for (k = 0; k < nd; k++) {
			lo = U32_MAX;
			hi = 0;
			for (l = 0; l < n * UT_P; l++) {
				if (l % UT_P / 2 != k)
					continue;
				lo = min(lo, use[l]);
				hi = max(hi, use[l]);
			}
			KUNIT_EXPECT_EQ_MSG(test, lo, hi,
					    "shape %u, dimension %u: links carry %u..%u routes",
					    i, k, lo, hi);
			KUNIT_EXPECT_GT(test, hi, 0);
		}
		r2c2_paths_free(p);
	}
}

static void r2c2_next_hops__other_rproto_is_rps(struct kunit *test)
{
	static const u8 dims[] = { 5, 5 };
	struct r2c2_paths *p = ut_paths(test, 0);
	u8 ports[R2C2_MAX_PORTS], vports[R2C2_MAX_PORTS];
	u32 w[R2C2_MAX_PORTS], vw[R2C2_MAX_PORTS];
	int c, j;

	ut_build_torus(test, p, dims, 2, true);
	/* (0,0) -> (2,1): +x leads to 2 paths, +y to 1 */
	c = r2c2_next_hops(p, R2C2_RP_RPS, 0, 0, 7, ports, w);
	KUNIT_ASSERT_EQ(test, c, 2);
	KUNIT_EXPECT_EQ(test, ports[0], 0);
	KUNIT_EXPECT_EQ(test, w[0], 2);
	KUNIT_EXPECT_EQ(test, ports[1], 2);
	KUNIT_EXPECT_EQ(test, w[1], 1);
	/* VLB's legs are RPS legs */
	KUNIT_ASSERT_EQ(test, r2c2_next_hops(p, R2C2_RP_VLB, 0, 0, 7, vports, vw), c);
	for (j = 0; j < c; j++) {
		KUNIT_EXPECT_EQ(test, vports[j], ports[j]);
		KUNIT_EXPECT_EQ(test, vw[j], w[j]);
	}
}

/* ---------------------------------------------------------------- */
/* r2c2_vlb_ok()                                                     */
/* ---------------------------------------------------------------- */

static void r2c2_vlb_ok__torus_all_eligible(struct kunit *test)
{
	static const u8 dims[] = { 4, 4 };
	struct r2c2_paths *p = ut_paths(test, 0);
	unsigned int m;

	ut_build_torus(test, p, dims, 2, true);
	for (m = 0; m < 16; m++) {
		KUNIT_EXPECT_TRUE(test, r2c2_vlb_ok(p, 0, m, 6));
		KUNIT_EXPECT_TRUE(test, r2c2_vlb_ok(p, 5, m, 5));
	}
}

static void r2c2_vlb_ok__first_leg_unreachable(struct kunit *test)
{
	struct r2c2_paths *p = ut_paths(test, 0);
	u16 *nbr = ut_nbr_none(test, 3);

	/* one way 0 -> 1 -> 2 */
	nbr[0 * UT_P] = 1;
	nbr[1 * UT_P] = 2;
	KUNIT_ASSERT_EQ(test, r2c2_paths_build(p, 3, nbr, NULL), 0);
	KUNIT_EXPECT_FALSE(test, r2c2_vlb_ok(p, 1, 0, 2));
	KUNIT_EXPECT_TRUE(test, r2c2_vlb_ok(p, 1, 1, 2));
	KUNIT_EXPECT_TRUE(test, r2c2_vlb_ok(p, 0, 1, 2));
}

static void r2c2_vlb_ok__second_leg_unreachable(struct kunit *test)
{
	struct r2c2_paths *p = ut_paths(test, 0);
	u16 *nbr = ut_nbr_none(test, 3);

	nbr[0 * UT_P] = 1;
	nbr[1 * UT_P] = 2;
	KUNIT_ASSERT_EQ(test, r2c2_paths_build(p, 3, nbr, NULL), 0);
	KUNIT_EXPECT_FALSE(test, r2c2_vlb_ok(p, 0, 2, 1));
	KUNIT_EXPECT_TRUE(test, r2c2_vlb_ok(p, 0, 0, 1));
	KUNIT_EXPECT_TRUE(test, r2c2_vlb_ok(p, 0, 1, 1));
}

static void r2c2_vlb_ok__max_hops(struct kunit *test)
{
	static const u8 dims[] = { 50 };
	struct r2c2_paths *p = ut_paths(test, 0);

	/* a line of 50: 0 -> m -> 0 takes 2m hops */
	ut_build_torus(test, p, dims, 1, false);
	KUNIT_EXPECT_TRUE(test, r2c2_vlb_ok(p, 0, 21, 0));
	KUNIT_EXPECT_FALSE(test, r2c2_vlb_ok(p, 0, 22, 0));
	/* 0 -> 21 -> 1 is 41 hops, 0 -> 22 -> 1 is 43 */
	KUNIT_EXPECT_TRUE(test, r2c2_vlb_ok(p, 0, 21, 1));
	KUNIT_EXPECT_FALSE(test, r2c2_vlb_ok(p, 0, 22, 1));
}

/* ---------------------------------------------------------------- */
/* r2c2_leg_sample(), through r2c2_route_sample()                    */
/* ---------------------------------------------------------------- */

static void r2c2_leg_sample__picks_by_weight(struct kunit *test)
{
	static const u8 dims[] = { 5, 5 };
	static const struct {
		u32 rnd;
		u8 port;
	} cases[] = {
		/* candidates: port 0 weight 2, port 2 weight 1 */
		{ 0x00000000, 0 },
		{ 0xaaaaaaaa, 0 },	/* (rnd * 3) >> 32 = 1 < 2 */
		{ 0xaaaaaaab, 2 },	/* (rnd * 3) >> 32 = 2 */
		{ 0xffffffff, 2 },
	};
	struct r2c2_paths *p = ut_paths(test, 0);
	struct ut_script sc = { .nvals = 1 };
	u8 hops[R2C2_MAX_HOPS];
	unsigned int i;
	int len;

	ut_build_torus(test, p, dims, 2, true);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		sc.vals = &cases[i].rnd;
		sc.calls = 0;
		len = r2c2_route_sample(p, R2C2_RP_RPS, 0, 7, ut_script_rand,
					&sc, hops);
		ut_check_route(test, p, R2C2_RP_RPS, 0, 7, hops, len);
		KUNIT_EXPECT_EQ_MSG(test, hops[0], cases[i].port,
				    "rnd %#x", cases[i].rnd);
	}
}

static void r2c2_leg_sample__single_candidate_draws_nothing(struct kunit *test)
{
	static const u8 dims[] = { 5, 5 };
	struct r2c2_paths *p = ut_paths(test, 0);
	struct ut_rng rng = { .state = 1 };
	u8 hops[R2C2_MAX_HOPS];
	int len;

	ut_build_torus(test, p, dims, 2, true);
	/* DOR has one candidate a hop */
	len = r2c2_route_sample(p, R2C2_RP_DOR, 0, 12, ut_rand, &rng, hops);
	ut_check_route(test, p, R2C2_RP_DOR, 0, 12, hops, len);
	KUNIT_EXPECT_EQ(test, rng.calls, 0);
	/* so has RPS along a straight line without a tie */
	len = r2c2_route_sample(p, R2C2_RP_RPS, 0, 2, ut_rand, &rng, hops);
	ut_check_route(test, p, R2C2_RP_RPS, 0, 2, hops, len);
	KUNIT_EXPECT_EQ(test, rng.calls, 0);
	/* (0,0) -> (2,2): 6 paths, 2 draws (2 then 2 candidates, then 1) */
	len = r2c2_route_sample(p, R2C2_RP_RPS, 0, 12, ut_rand, &rng, hops);
	ut_check_route(test, p, R2C2_RP_RPS, 0, 12, hops, len);
	KUNIT_EXPECT_GE(test, rng.calls, 2);
	KUNIT_EXPECT_LE(test, rng.calls, 3);
}

static void r2c2_leg_sample__too_long(struct kunit *test)
{
	static const u8 dims[] = { 50 };
	struct r2c2_paths *p = ut_paths(test, 0);
	struct ut_rng rng = { .state = 2 };
	u8 *hops;
	int len;

	/* exactly R2C2_MAX_HOPS bytes: KASAN sees a hop written beyond */
	hops = kunit_kmalloc(test, R2C2_MAX_HOPS, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hops);
	ut_build_torus(test, p, dims, 1, false);
	len = r2c2_route_sample(p, R2C2_RP_RPS, 0, 42, ut_rand, &rng, hops);
	KUNIT_EXPECT_EQ(test, len, 42);
	ut_check_route(test, p, R2C2_RP_RPS, 0, 42, hops, len);
	KUNIT_EXPECT_EQ(test, r2c2_route_sample(p, R2C2_RP_RPS, 0, 43, ut_rand,
						&rng, hops), -E2BIG);
	KUNIT_EXPECT_EQ(test, r2c2_route_sample(p, R2C2_RP_DOR, 49, 0, ut_rand,
						&rng, hops), -E2BIG);
}

/* ---------------------------------------------------------------- */
/* r2c2_route_sample()                                               */
/* ---------------------------------------------------------------- */

static void r2c2_route_sample__bad_node(struct kunit *test)
{
	static const u8 dims[] = { 3, 3 };
	struct r2c2_paths *p = ut_paths(test, 0);
	struct ut_rng rng = { .state = 3 };
	u8 hops[R2C2_MAX_HOPS];

	ut_build_torus(test, p, dims, 2, true);
	KUNIT_EXPECT_EQ(test, r2c2_route_sample(p, R2C2_RP_RPS, 9, 0, ut_rand,
						&rng, hops), -EINVAL);
	KUNIT_EXPECT_EQ(test, r2c2_route_sample(p, R2C2_RP_RPS, 0, 9, ut_rand,
						&rng, hops), -EINVAL);
	KUNIT_EXPECT_EQ(test, r2c2_route_sample(p, R2C2_RP_VLB, 0, 0xffff,
						ut_rand, &rng, hops), -EINVAL);
	KUNIT_EXPECT_EQ(test, rng.calls, 0);
}

static void r2c2_route_sample__bad_rproto(struct kunit *test)
{
	static const u8 dims[] = { 3, 3 };
	struct r2c2_paths *p = ut_paths(test, 0);
	struct ut_rng rng = { .state = 4 };
	u8 hops[R2C2_MAX_HOPS];

	ut_build_torus(test, p, dims, 2, true);
	KUNIT_EXPECT_EQ(test, r2c2_route_sample(p, __R2C2_RP_MAX, 0, 4, ut_rand,
						&rng, hops), -EINVAL);
	KUNIT_EXPECT_EQ(test, r2c2_route_sample(p, 0xff, 0, 4, ut_rand, &rng,
						hops), -EINVAL);
}

static void r2c2_route_sample__unreachable(struct kunit *test)
{
	struct r2c2_paths *p = ut_paths(test, 0);
	u16 *nbr = ut_nbr_none(test, 3);
	struct ut_rng rng = { .state = 5 };
	u8 hops[R2C2_MAX_HOPS];
	u8 rp;

	ut_link(nbr, NULL, 0, 0, 1, 1);
	KUNIT_ASSERT_EQ(test, r2c2_paths_build(p, 3, nbr, NULL), 0);
	for (rp = 0; rp < __R2C2_RP_MAX; rp++) {
		KUNIT_EXPECT_EQ(test, r2c2_route_sample(p, rp, 0, 2, ut_rand,
							&rng, hops),
				-EHOSTUNREACH);
		KUNIT_EXPECT_EQ(test, r2c2_route_sample(p, rp, 2, 1, ut_rand,
							&rng, hops),
				-EHOSTUNREACH);
	}
}

static void r2c2_route_sample__to_self(struct kunit *test)
{
	static const u8 dims[] = { 3, 3 };
	static const u32 mid = 0x80000000;	/* VLB: m = 9 / 2 = 4 */
	struct r2c2_paths *p = ut_paths(test, 0);
	struct ut_script sc = { .vals = &mid, .nvals = 1 };
	u8 hops[R2C2_MAX_HOPS];
	int len;

	ut_build_torus(test, p, dims, 2, true);
	KUNIT_EXPECT_EQ(test, r2c2_route_sample(p, R2C2_RP_RPS, 4, 4,
						ut_script_rand, &sc, hops), 0);
	KUNIT_EXPECT_EQ(test, r2c2_route_sample(p, R2C2_RP_DOR, 4, 4,
						ut_script_rand, &sc, hops), 0);
	KUNIT_EXPECT_EQ(test, sc.calls, 0);
	/* VLB goes to the intermediate and back */
	len = r2c2_route_sample(p, R2C2_RP_VLB, 0, 0, ut_script_rand, &sc, hops);
	KUNIT_EXPECT_EQ(test, len, 4);
	ut_check_route(test, p, R2C2_RP_VLB, 0, 0, hops, len);
}

static void r2c2_route_sample__valid_walks(struct kunit *test)
{
	struct r2c2_paths *p = ut_paths(test, 0);
	struct ut_rng rng = { .state = 6 };
	u8 hops[R2C2_MAX_HOPS];
	unsigned int i, n, s, d, k;
	int len;
	u8 rp;

	for (i = 0; i < ARRAY_SIZE(ut_shapes); i++) {
		n = ut_build_torus(test, p, ut_shapes[i].dims, ut_shapes[i].nd,
				   ut_shapes[i].wrap);
		for (s = 0; s < n; s++)
			for (d = 0; d < n; d++)
				for (rp = 0; rp < __R2C2_RP_MAX; rp++)
					for (k = 0; k < 4; k++) {
						len = r2c2_route_sample(p, rp, s, d,
									ut_rand,
									&rng, hops);
						ut_check_route(test, p, rp, s, d,
							       hops, len);
					}
		r2c2_paths_free(p);
	}
}

/*
 * WLB on an 8x8 torus: the torus found (node x + 8y at (x, y)); 0 -> 1
 * goes the + way (1 hop) with probability 7/8, the - way (7 hops) with
 * 1/8; on a mesh, no torus, WLB routes as RPS (minimal)
 */
static void r2c2_route_sample__wlb_directions(struct kunit *test)
{
	static const u8 dims[] = { 8, 8 };
	struct r2c2_paths *p = ut_paths(test, 0);
	struct ut_rng rng = { .state = 11 };
	u8 hops[R2C2_MAX_HOPS];
	unsigned int i, plus = 0, tries = 8000;
	int len;

	ut_build_torus(test, p, dims, 2, true);
	KUNIT_ASSERT_EQ(test, p->ndims, 2);
	KUNIT_EXPECT_EQ(test, p->radix[0], 8);
	KUNIT_EXPECT_EQ(test, p->radix[1], 8);
	KUNIT_EXPECT_EQ(test, p->coord[19 * R2C2_MAX_DIMS], 3);
	KUNIT_EXPECT_EQ(test, p->coord[19 * R2C2_MAX_DIMS + 1], 2);
	KUNIT_EXPECT_EQ(test, p->at[19], 19);
	for (i = 0; i < tries; i++) {
		len = r2c2_route_sample(p, R2C2_RP_WLB, 0, 1, ut_rand, &rng,
					hops);
		ut_check_route(test, p, R2C2_RP_WLB, 0, 1, hops, len);
		KUNIT_EXPECT_TRUE(test, len == 1 || len == 7);
		plus += len == 1;
	}
	/* 7000 expected, sd sqrt(8000 * 7/8 * 1/8) = 29.6: 5 sd is 148 */
	KUNIT_EXPECT_LE(test, abs((int)plus - 7000), 148);
	r2c2_paths_free(p);

	ut_build_torus(test, p, dims, 2, false);
	KUNIT_EXPECT_EQ(test, p->ndims, 0);
	KUNIT_EXPECT_PTR_EQ(test, p->coord, NULL);
	len = r2c2_route_sample(p, R2C2_RP_WLB, 0, 63, ut_rand, &rng, hops);
	KUNIT_EXPECT_EQ(test, len, 14);
	ut_check_route(test, p, R2C2_RP_WLB, 0, 63, hops, len);
}

static void r2c2_route_sample__dor_is_dimension_order(struct kunit *test)
{
	static const u8 dims[] = { 4, 3, 5 };
	struct r2c2_paths *p = ut_paths(test, 0);
	struct ut_rng rng = { .state = 7 };
	u8 hops[R2C2_MAX_HOPS];
	unsigned int n, s, d, u;
	int len, h;

	n = ut_build_torus(test, p, dims, 3, true);
	for (s = 0; s < n; s++)
		for (d = 0; d < n; d++) {
			len = r2c2_route_sample(p, R2C2_RP_DOR, s, d, ut_rand,
						&rng, hops);
			ut_check_route(test, p, R2C2_RP_DOR, s, d, hops, len);
			u = s;
			for (h = 0; h < len; h++) {
				KUNIT_EXPECT_EQ(test, hops[h],
						ut_dor_port(dims, 3, true, s, u, d));
				u = p->nbr[u * UT_P + hops[h]];
			}
		}
}

static void r2c2_route_sample__vlb_resamples_ineligible(struct kunit *test)
{
	/* m = 3 (isolated), then m = 2 */
	static const u32 vals[] = { 0xc0000000, 0x80000000 };
	struct r2c2_paths *p = ut_paths(test, 0);
	struct ut_script sc = { .vals = vals, .nvals = 2 };
	u16 *nbr = ut_nbr_none(test, 4);
	u8 hops[R2C2_MAX_HOPS];
	int len;

	/* a line 0 - 1 - 2 and node 3 alone */
	ut_link(nbr, NULL, 0, 0, 1, 1);
	ut_link(nbr, NULL, 1, 0, 2, 1);
	KUNIT_ASSERT_EQ(test, r2c2_paths_build(p, 4, nbr, NULL), 0);
	len = r2c2_route_sample(p, R2C2_RP_VLB, 0, 1, ut_script_rand, &sc,
				hops);
	/* 0 -> 1 -> 2, then back to 1 */
	KUNIT_ASSERT_EQ(test, len, 3);
	KUNIT_EXPECT_EQ(test, hops[0], 0);
	KUNIT_EXPECT_EQ(test, hops[1], 0);
	KUNIT_EXPECT_EQ(test, hops[2], 1);
	KUNIT_EXPECT_EQ(test, sc.calls, 2);
}

static void r2c2_route_sample__vlb_falls_back_to_first_eligible(struct kunit *test)
{
	static const u32 last = 0xffffffff;	/* m = n - 1 every time */
	struct r2c2_paths *p = ut_paths(test, 0);
	struct ut_script sc = { .vals = &last, .nvals = 1 };
	u16 *nbr = ut_nbr_none(test, 4);
	u8 hops[R2C2_MAX_HOPS];
	int len;

	ut_link(nbr, NULL, 0, 0, 1, 1);
	ut_link(nbr, NULL, 1, 0, 2, 1);
	KUNIT_ASSERT_EQ(test, r2c2_paths_build(p, 4, nbr, NULL), 0);
	/* 64 draws of node 3, then the first eligible node: 0 = s */
	len = r2c2_route_sample(p, R2C2_RP_VLB, 0, 2, ut_script_rand, &sc,
				hops);
	KUNIT_EXPECT_EQ(test, sc.calls, 64);
	KUNIT_ASSERT_EQ(test, len, 2);
	KUNIT_EXPECT_EQ(test, hops[0], 0);
	KUNIT_EXPECT_EQ(test, hops[1], 0);
}

static void r2c2_route_sample__vlb_none_eligible(struct kunit *test)
{
	static const u8 dims[] = { 50 };
	struct r2c2_paths *p = ut_paths(test, 0);
	struct ut_rng rng = { .state = 8 };
	u8 hops[R2C2_MAX_HOPS];

	/* 0 -> 45 on a line: every intermediate makes it 45 hops or more */
	ut_build_torus(test, p, dims, 1, false);
	KUNIT_EXPECT_EQ(test, r2c2_route_sample(p, R2C2_RP_VLB, 0, 45, ut_rand,
						&rng, hops), -E2BIG);
	KUNIT_EXPECT_EQ(test, rng.calls, 64);
}

/*
 * The key test. Expected crossings of each link by one route, in units
 * of 2^-40, propagated hop by hop with r2c2_next_hops() in integer
 * arithmetic the way r2c2_link_weights_add() does in floating point;
 * @uniform gives every candidate the same weight instead (the wrong
 * distribution of the negative control).
 */
#define UT_ONE		BIT_ULL(40)
#define UT_SAMPLES	20000

static void ut_leg_predict(const struct r2c2_paths *p, u8 rproto, u16 s,
			   u16 d, u64 scale, bool uniform, u64 *w, u64 *reach)
{
	const u8 *dist = p->dist + (size_t)d * p->n;
	u8 ports[R2C2_MAX_PORTS];
	u32 wt[R2C2_MAX_PORTS];
	unsigned int level, u;
	u64 total, f;
	int c, j;
	u16 v;

	if (s == d)
		return;
	memset(reach, 0, p->n * sizeof(*reach));
	reach[s] = scale;
	/* every next hop is one closer to d: go down by levels */
	for (level = dist[s]; level > 0; level--) {
		for (u = 0; u < p->n; u++) {
			if (dist[u] != level || !reach[u])
				continue;
			c = r2c2_next_hops(p, rproto, s, u, d, ports, wt);
			total = 0;
			for (j = 0; j < c; j++) {
				if (uniform)
					wt[j] = 1;
				total += wt[j];
			}
			for (j = 0; j < c; j++) {
				f = mul_u64_u64_div_u64(reach[u], wt[j], total);
				v = p->nbr[u * UT_P + ports[j]];
				w[u * UT_P + ports[j]] += f;
				reach[v] += f;
			}
		}
	}
}

static void ut_predict(const struct r2c2_paths *p, u8 rproto, u16 s, u16 d,
		       bool uniform, u64 *w, u64 *reach)
{
	unsigned int m, cnt = 0;

	memset(w, 0, p->n * UT_P * sizeof(*w));
	if (rproto != R2C2_RP_VLB) {
		ut_leg_predict(p, rproto, s, d, UT_ONE, uniform, w, reach);
		return;
	}
	for (m = 0; m < p->n; m++)
		cnt += r2c2_vlb_ok(p, s, m, d);
	for (m = 0; m < p->n; m++) {
		if (!r2c2_vlb_ok(p, s, m, d))
			continue;
		ut_leg_predict(p, R2C2_RP_RPS, s, m, UT_ONE / cnt, uniform, w,
			       reach);
		ut_leg_predict(p, R2C2_RP_RPS, m, d, UT_ONE / cnt, uniform, w,
			       reach);
	}
}

/* Link use counts of @nsamples routes drawn with @rnd, each checked. */
static void ut_sample(struct kunit *test, const struct r2c2_paths *p,
		      u8 rproto, u16 s, u16 d, r2c2_rand_fn rnd, void *ctx,
		      u32 *counts)
{
	u8 hops[R2C2_MAX_HOPS];
	unsigned int i;
	int len, h;
	u16 u;

	memset(counts, 0, p->n * UT_P * sizeof(*counts));
	for (i = 0; i < UT_SAMPLES; i++) {
		len = r2c2_route_sample(p, rproto, s, d, rnd, ctx, hops);
		ut_check_route(test, p, rproto, s, d, hops, len);
		for (u = s, h = 0; h < len; h++) {
			counts[u * UT_P + hops[h]]++;
			u = p->nbr[u * UT_P + hops[h]];
		}
	}
}

/*
 * Links whose count is off the prediction: a link never expected must
 * never be used; any other must be within 5 standard deviations, plus
 * one for rounding. A minimal route crosses a link at most once, so the
 * count is binomial, var = N p (1 - p); a VLB route may cross it once a
 * leg, and var <= E[X^2] <= 2 N p bounds it. Fixed point: counts in
 * units of 2^-20, variances of 2^-40. With @report each is a failure.
 */
static unsigned int ut_mismatches(struct kunit *test,
				  const struct r2c2_paths *p,
				  const u32 *counts, const u64 *w, bool vlb,
				  bool report, unsigned int *max_z100)
{
	u64 exp20, got20, var40, sd20, tol20, diff;
	unsigned int i, bad = 0;

	for (i = 0; i < p->n * UT_P; i++) {
		if (!w[i]) {
			if (!counts[i])
				continue;
			bad++;
			if (report)
				KUNIT_FAIL(test, "link %u:%u used %u times, never expected",
					   i / UT_P, i % UT_P, counts[i]);
			continue;
		}
		exp20 = (UT_SAMPLES * w[i]) >> 20;
		got20 = (u64)counts[i] << 20;
		if (vlb)
			var40 = 2 * UT_SAMPLES * w[i];
		else
			var40 = UT_SAMPLES * (w[i] >> 20) *
				((UT_ONE - min(w[i], UT_ONE)) >> 20);
		sd20 = int_sqrt64(var40);
		tol20 = 5 * sd20 + BIT_ULL(20);
		diff = ut_absdiff(got20, exp20);
		if (max_z100 && sd20)
			*max_z100 = max_t(unsigned int, *max_z100,
					  div64_u64(diff * 100, sd20));
		if (diff <= tol20)
			continue;
		bad++;
		if (report)
			KUNIT_FAIL(test, "link %u:%u used %u times, expected %llu +- %llu",
				   i / UT_P, i % UT_P, counts[i], exp20 >> 20,
				   tol20 >> 20);
	}
	return bad;
}

struct ut_sample_case {
	u8 dims[R2C2_MAX_DIMS];
	u8 nd;
	bool wrap;
	u16 s, d;
	u8 rproto;
};

/* (s, d) pairs of a few tori and a mesh, each with every protocol */
static const struct ut_sample_case ut_sample_cases[] = {
	{ { 3, 3 }, 2, true, 0, 4, R2C2_RP_RPS },
	{ { 3, 3 }, 2, true, 0, 4, R2C2_RP_DOR },
	{ { 3, 3 }, 2, true, 0, 4, R2C2_RP_VLB },
	{ { 3, 3 }, 2, true, 0, 8, R2C2_RP_RPS },
	{ { 3, 3 }, 2, true, 0, 8, R2C2_RP_DOR },
	{ { 3, 3 }, 2, true, 0, 8, R2C2_RP_VLB },
	{ { 3, 3 }, 2, true, 0, 1, R2C2_RP_RPS },
	{ { 3, 3 }, 2, true, 0, 1, R2C2_RP_DOR },
	{ { 3, 3 }, 2, true, 0, 1, R2C2_RP_VLB },
	{ { 3, 3 }, 2, true, 5, 3, R2C2_RP_RPS },
	{ { 3, 3 }, 2, true, 5, 3, R2C2_RP_DOR },
	{ { 3, 3 }, 2, true, 5, 3, R2C2_RP_VLB },
	{ { 4, 4 }, 2, true, 0, 5, R2C2_RP_RPS },
	{ { 4, 4 }, 2, true, 0, 5, R2C2_RP_DOR },
	{ { 4, 4 }, 2, true, 0, 5, R2C2_RP_VLB },
	{ { 4, 4 }, 2, true, 0, 6, R2C2_RP_RPS },
	{ { 4, 4 }, 2, true, 0, 6, R2C2_RP_DOR },
	{ { 4, 4 }, 2, true, 0, 6, R2C2_RP_VLB },
	{ { 4, 4 }, 2, true, 0, 10, R2C2_RP_RPS },
	{ { 4, 4 }, 2, true, 0, 10, R2C2_RP_DOR },
	{ { 4, 4 }, 2, true, 0, 10, R2C2_RP_VLB },
	{ { 4, 4 }, 2, true, 0, 2, R2C2_RP_RPS },
	{ { 4, 4 }, 2, true, 0, 2, R2C2_RP_DOR },
	{ { 4, 4 }, 2, true, 0, 2, R2C2_RP_VLB },
	{ { 4, 4 }, 2, true, 7, 8, R2C2_RP_RPS },
	{ { 4, 4 }, 2, true, 7, 8, R2C2_RP_DOR },
	{ { 4, 4 }, 2, true, 7, 8, R2C2_RP_VLB },
	{ { 5, 5 }, 2, true, 0, 7, R2C2_RP_RPS },
	{ { 5, 5 }, 2, true, 0, 7, R2C2_RP_DOR },
	{ { 5, 5 }, 2, true, 0, 7, R2C2_RP_VLB },
	{ { 5, 5 }, 2, true, 0, 12, R2C2_RP_RPS },
	{ { 5, 5 }, 2, true, 0, 12, R2C2_RP_DOR },
	{ { 5, 5 }, 2, true, 0, 12, R2C2_RP_VLB },
	{ { 5, 5 }, 2, true, 24, 6, R2C2_RP_RPS },
	{ { 5, 5 }, 2, true, 24, 6, R2C2_RP_DOR },
	{ { 5, 5 }, 2, true, 24, 6, R2C2_RP_VLB },
	{ { 3, 3, 3 }, 3, true, 0, 13, R2C2_RP_RPS },
	{ { 3, 3, 3 }, 3, true, 0, 13, R2C2_RP_DOR },
	{ { 3, 3, 3 }, 3, true, 0, 13, R2C2_RP_VLB },
	{ { 3, 3 }, 2, false, 0, 8, R2C2_RP_RPS },
	{ { 3, 3 }, 2, false, 0, 8, R2C2_RP_DOR },
	{ { 3, 3 }, 2, false, 0, 8, R2C2_RP_VLB },
};

static const char * const ut_rproto_name[] = { "RPS", "DOR", "VLB" };

static void ut_sample_case_desc(const struct ut_sample_case *c, char *desc)
{
	char shape[16];

	if (c->nd == 2)
		snprintf(shape, sizeof(shape), "%ux%u", c->dims[0], c->dims[1]);
	else
		snprintf(shape, sizeof(shape), "%ux%ux%u", c->dims[0], c->dims[1],
			 c->dims[2]);
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s %s %u->%u %s", shape,
		 c->wrap ? "torus" : "mesh", c->s, c->d,
		 ut_rproto_name[c->rproto]);
}

KUNIT_ARRAY_PARAM(ut_sample, ut_sample_cases, ut_sample_case_desc);

static void r2c2_route_sample__matches_predicted_weights(struct kunit *test)
{
	const struct ut_sample_case *c = test->param_value;
	struct r2c2_paths *p = ut_paths(test, 0);
	char desc[KUNIT_PARAM_DESC_SIZE];
	struct ut_rng rng;
	unsigned int n, z100 = 0;
	u64 *w, *reach;
	u32 *counts;

	n = ut_build_torus(test, p, c->dims, c->nd, c->wrap);
	w = kunit_kcalloc(test, n * UT_P, sizeof(*w), GFP_KERNEL);
	reach = kunit_kcalloc(test, n, sizeof(*reach), GFP_KERNEL);
	counts = kunit_kcalloc(test, n * UT_P, sizeof(*counts), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, w);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, reach);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, counts);

	ut_predict(p, c->rproto, c->s, c->d, false, w, reach);
	rng.state = 0x52324332ULL + (c - ut_sample_cases);
	rng.calls = 0;
	ut_sample(test, p, c->rproto, c->s, c->d, ut_rand, &rng, counts);
	KUNIT_EXPECT_EQ(test, ut_mismatches(test, p, counts, w,
					    c->rproto == R2C2_RP_VLB, true,
					    &z100), 0);
	ut_sample_case_desc(c, desc);
	kunit_info(test, "%s: %u routes, largest deviation %u.%02u sd\n",
		   desc, UT_SAMPLES, z100 / 100, z100 % 100);
}

/* A sampler of the wrong distribution: uniform over the next hops. */
struct ut_wrong {
	const struct r2c2_paths *p;
	struct ut_rng rng;
};

static int ut_wrong_sample(struct ut_wrong *ws, u16 s, u16 d, u8 *hops)
{
	u8 ports[R2C2_MAX_PORTS];
	u32 w[R2C2_MAX_PORTS];
	int len = 0, c;
	u16 u = s;

	while (u != d) {
		c = r2c2_next_hops(ws->p, R2C2_RP_RPS, s, u, d, ports, w);
		if (c <= 0 || len >= R2C2_MAX_HOPS)
			return -EINVAL;
		c = (int)(((u64)ut_rand(&ws->rng) * c) >> 32);
		hops[len++] = ports[c];
		u = ws->p->nbr[u * UT_P + ports[c]];
	}
	return len;
}

static void r2c2_route_sample__detects_uniform_over_next_hops(struct kunit *test)
{
	static const u8 d55[] = { 5, 5 }, d44[] = { 4, 4 };
	struct r2c2_paths *p = ut_paths(test, 0), *q = ut_paths(test, 1);
	struct ut_rng rng = { .state = 9 };
	struct ut_wrong ws = { .rng = { .state = 10 } };
	u8 hops[R2C2_MAX_HOPS];
	u64 *w, *wu, *reach;
	unsigned int i, s, d;
	u32 *counts;
	int len, h;
	u16 u;

	w = kunit_kcalloc(test, 25 * UT_P, sizeof(*w), GFP_KERNEL);
	wu = kunit_kcalloc(test, 25 * UT_P, sizeof(*wu), GFP_KERNEL);
	reach = kunit_kcalloc(test, 25, sizeof(*reach), GFP_KERNEL);
	counts = kunit_kcalloc(test, 25 * UT_P, sizeof(*counts), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, w);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, wu);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, reach);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, counts);

	/*
	 * On 3x3 and 4x4 tori the two distributions are the same for every
	 * pair: every per-dimension offset is 1 or a tie of 2, and then
	 * every minimal next hop leads to equally many paths.
	 */
	ut_build_torus(test, q, d44, 2, true);
	for (s = 0; s < 16; s++)
		for (d = 0; d < 16; d++) {
			ut_predict(q, R2C2_RP_RPS, s, d, false, w, reach);
			ut_predict(q, R2C2_RP_RPS, s, d, true, wu, reach);
			for (i = 0; i < 16 * UT_P; i++)
				KUNIT_EXPECT_LE(test, ut_absdiff(w[i], wu[i]), 64);
		}

	/* 5x5 (0,0) -> (2,1): RPS goes +x first with 2/3, not 1/2 */
	ut_build_torus(test, p, d55, 2, true);
	ut_predict(p, R2C2_RP_RPS, 0, 7, false, w, reach);
	ut_predict(p, R2C2_RP_RPS, 0, 7, true, wu, reach);
	KUNIT_EXPECT_EQ(test, w[0 * UT_P + 0], div64_u64(2 * UT_ONE, 3));
	KUNIT_EXPECT_EQ(test, wu[0 * UT_P + 0], UT_ONE / 2);

	/* RPS samples match RPS and are rejected as per-hop uniform */
	ut_sample(test, p, R2C2_RP_RPS, 0, 7, ut_rand, &rng, counts);
	KUNIT_EXPECT_EQ(test, ut_mismatches(test, p, counts, w, false, true,
					    NULL), 0);
	KUNIT_EXPECT_GT(test, ut_mismatches(test, p, counts, wu, false, false,
					    NULL), 0);

	/* samples of the wrong sampler match it and are rejected as RPS */
	ws.p = p;
	memset(counts, 0, 25 * UT_P * sizeof(*counts));
	for (i = 0; i < UT_SAMPLES; i++) {
		len = ut_wrong_sample(&ws, 0, 7, hops);
		KUNIT_ASSERT_EQ(test, len, 3);
		for (u = 0, h = 0; h < len; h++) {
			counts[u * UT_P + hops[h]]++;
			u = p->nbr[u * UT_P + hops[h]];
		}
	}
	KUNIT_EXPECT_EQ(test, ut_mismatches(test, p, counts, wu, false, true,
					    NULL), 0);
	KUNIT_EXPECT_GT(test, ut_mismatches(test, p, counts, w, false, false,
					    NULL), 0);
}

/* ---------------------------------------------------------------- */
/* r2c2_torus_nbrs()                                                 */
/* ---------------------------------------------------------------- */

/* u -p-> v implies v -nbr_port-> u, and port 2i pairs with 2i+1. */
static void ut_check_symmetric(struct kunit *test, unsigned int n,
			       const u16 *nbr, const u8 *nbr_port)
{
	unsigned int u, k, q;
	u16 v;

	for (u = 0; u < n; u++)
		for (k = 0; k < UT_P; k++) {
			v = nbr[u * UT_P + k];
			if (v == R2C2_IDX_NONE)
				continue;
			q = nbr_port[u * UT_P + k];
			KUNIT_ASSERT_LT(test, v, n);
			KUNIT_ASSERT_LT(test, q, UT_P);
			KUNIT_EXPECT_EQ_MSG(test, nbr[v * UT_P + q], u,
					    "%u:%u -> %u:%u", u, k, v, q);
			KUNIT_EXPECT_EQ(test, nbr_port[v * UT_P + q], k);
			KUNIT_EXPECT_EQ(test, q, k ^ 1);
		}
}

/* Port 2i goes +1 along dimension i, port 2i+1 goes -1. */
static void ut_check_geometry(struct kunit *test, const u8 *dims,
			      unsigned int nd, bool wrap, const u16 *nbr)
{
	unsigned int c[R2C2_MAX_DIMS], n = ut_nodes(dims, nd), u, k, i, kd;
	unsigned int want, stride;

	for (u = 0; u < n; u++) {
		ut_coords(u, dims, nd, c);
		for (k = 0; k < UT_P; k++) {
			i = k / 2;
			want = R2C2_IDX_NONE;
			if (i < nd) {
				kd = dims[i];
				stride = ut_nodes(dims, i);
				if (!(k & 1) && (wrap || c[i] + 1 < kd))
					want = u - c[i] * stride +
					       ((c[i] + 1) % kd) * stride;
				if ((k & 1) && (wrap || c[i] > 0))
					want = u - c[i] * stride +
					       ((c[i] + kd - 1) % kd) * stride;
			}
			KUNIT_EXPECT_EQ_MSG(test, nbr[u * UT_P + k], want,
					    "node %u port %u", u, k);
		}
	}
}

static void ut_check_shape(struct kunit *test, const u8 *dims,
			   unsigned int nd, bool wrap)
{
	unsigned int n = ut_nodes(dims, nd);
	u16 *nbr = kunit_kmalloc_array(test, n * UT_P, sizeof(*nbr), GFP_KERNEL);
	u8 *nbr_port = kunit_kmalloc(test, n * UT_P, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, nbr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, nbr_port);
	memset(nbr_port, 0xee, n * UT_P);
	KUNIT_ASSERT_EQ(test, r2c2_torus_nbrs(dims, nd, wrap, nbr, nbr_port),
			(int)n);
	ut_check_symmetric(test, n, nbr, nbr_port);
	ut_check_geometry(test, dims, nd, wrap, nbr);
}

static void r2c2_torus_nbrs__3x3(struct kunit *test)
{
	static const u8 dims[] = { 3, 3 };
	u16 nbr[9 * UT_P];
	u8 nbr_port[9 * UT_P];

	ut_check_shape(test, dims, 2, true);
	KUNIT_ASSERT_EQ(test, r2c2_torus_nbrs(dims, 2, true, nbr, nbr_port), 9);
	/* node 0 = (0,0): +x 1, -x 2, +y 3, -y 6; ports 4..7 unused */
	KUNIT_EXPECT_EQ(test, nbr[0], 1);
	KUNIT_EXPECT_EQ(test, nbr[1], 2);
	KUNIT_EXPECT_EQ(test, nbr[2], 3);
	KUNIT_EXPECT_EQ(test, nbr[3], 6);
	KUNIT_EXPECT_EQ(test, nbr[4], R2C2_IDX_NONE);
	KUNIT_EXPECT_EQ(test, nbr[7], R2C2_IDX_NONE);
	KUNIT_EXPECT_EQ(test, nbr_port[0], 1);
	KUNIT_EXPECT_EQ(test, nbr_port[3], 2);
	KUNIT_EXPECT_EQ(test, nbr_port[4], 0);
}

static void r2c2_torus_nbrs__4x4(struct kunit *test)
{
	static const u8 dims[] = { 4, 4 };

	ut_check_shape(test, dims, 2, true);
}

static void r2c2_torus_nbrs__3x3x3(struct kunit *test)
{
	static const u8 dims[] = { 3, 3, 3 };
	u16 nbr[27 * UT_P];

	ut_check_shape(test, dims, 3, true);
	KUNIT_ASSERT_EQ(test, r2c2_torus_nbrs(dims, 3, true, nbr, NULL), 27);
	/* the centre (1,1,1) = 13 */
	KUNIT_EXPECT_EQ(test, nbr[13 * UT_P + 0], 14);
	KUNIT_EXPECT_EQ(test, nbr[13 * UT_P + 1], 12);
	KUNIT_EXPECT_EQ(test, nbr[13 * UT_P + 2], 16);
	KUNIT_EXPECT_EQ(test, nbr[13 * UT_P + 3], 10);
	KUNIT_EXPECT_EQ(test, nbr[13 * UT_P + 4], 22);
	KUNIT_EXPECT_EQ(test, nbr[13 * UT_P + 5], 4);
	KUNIT_EXPECT_EQ(test, nbr[13 * UT_P + 6], R2C2_IDX_NONE);
}

static void r2c2_torus_nbrs__mesh(struct kunit *test)
{
	static const u8 d33[] = { 3, 3 }, d432[] = { 4, 3, 2 };
	u16 nbr[9 * UT_P];
	u8 nbr_port[9 * UT_P];
	unsigned int u, k, links;

	ut_check_shape(test, d33, 2, false);
	ut_check_shape(test, d432, 3, false);
	KUNIT_ASSERT_EQ(test, r2c2_torus_nbrs(d33, 2, false, nbr, nbr_port), 9);
	/* corners have 2 links, edges 3, the centre 4 */
	for (u = 0; u < 9; u++) {
		links = 0;
		for (k = 0; k < UT_P; k++)
			links += nbr[u * UT_P + k] != R2C2_IDX_NONE;
		KUNIT_EXPECT_EQ_MSG(test, links, u == 4 ? 4 : u % 2 ? 3 : 2,
				    "node %u", u);
	}
	KUNIT_EXPECT_EQ(test, nbr[0 * UT_P + 1], R2C2_IDX_NONE);
	KUNIT_EXPECT_EQ(test, nbr[8 * UT_P + 0], R2C2_IDX_NONE);
	KUNIT_EXPECT_EQ(test, nbr_port[8 * UT_P + 0], 0);
}

static void r2c2_torus_nbrs__radix_2(struct kunit *test)
{
	static const u8 d2[] = { 2 }, d222[] = { 2, 2, 2 };
	u16 nbr[2 * UT_P];
	u8 nbr_port[2 * UT_P];

	ut_check_shape(test, d222, 3, true);
	/* both ports lead to the other node, landing on the paired port */
	KUNIT_ASSERT_EQ(test, r2c2_torus_nbrs(d2, 1, true, nbr, nbr_port), 2);
	KUNIT_EXPECT_EQ(test, nbr[0], 1);
	KUNIT_EXPECT_EQ(test, nbr[1], 1);
	KUNIT_EXPECT_EQ(test, nbr_port[0], 1);
	KUNIT_EXPECT_EQ(test, nbr_port[1], 0);
	KUNIT_EXPECT_EQ(test, nbr[UT_P + 0], 0);
	/* a mesh of two has one link */
	KUNIT_ASSERT_EQ(test, r2c2_torus_nbrs(d2, 1, false, nbr, nbr_port), 2);
	KUNIT_EXPECT_EQ(test, nbr[0], 1);
	KUNIT_EXPECT_EQ(test, nbr[1], R2C2_IDX_NONE);
}

static void r2c2_torus_nbrs__bad_ndims(struct kunit *test)
{
	static const u8 dims[] = { 3, 3, 3, 3 };
	u16 nbr[UT_P] = { 0x1234 };

	KUNIT_EXPECT_EQ(test, r2c2_torus_nbrs(dims, 0, true, nbr, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, r2c2_torus_nbrs(dims, 4, true, nbr, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, r2c2_torus_nbrs(dims, 4, false, nbr, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, nbr[0], 0x1234);
}

static void r2c2_torus_nbrs__radix_below_2(struct kunit *test)
{
	static const u8 d1[] = { 3, 1 }, d0[] = { 0, 3, 3 }, d31[] = { 3, 3, 1 };
	u16 nbr[UT_P] = { 0x1234 };

	KUNIT_EXPECT_EQ(test, r2c2_torus_nbrs(d1, 2, true, nbr, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, r2c2_torus_nbrs(d0, 3, true, nbr, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, r2c2_torus_nbrs(d31, 3, false, nbr, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, nbr[0], 0x1234);
}

static void r2c2_torus_nbrs__too_many_nodes(struct kunit *test)
{
	static const u8 big[] = { 255, 255, 2 };
	/* 2 * 217 * 151 = 65534 = 0xfffe, the most there can be */
	static const u8 most[] = { 2, 217, 151 };
	u16 small[UT_P] = { 0x1234 }, *nbr;
	u8 *nbr_port;

	/* rejected before a single entry is written */
	KUNIT_EXPECT_EQ(test, r2c2_torus_nbrs(big, 3, true, small, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, small[0], 0x1234);

	nbr = kvcalloc(65534 * UT_P, sizeof(*nbr), GFP_KERNEL);
	nbr_port = kvcalloc(65534, UT_P, GFP_KERNEL);
	if (nbr && nbr_port) {
		KUNIT_EXPECT_EQ(test, r2c2_torus_nbrs(most, 3, true, nbr,
						      nbr_port), 65534);
		ut_check_symmetric(test, 65534, nbr, nbr_port);
	}
	kvfree(nbr);
	kvfree(nbr_port);
}

static struct kunit_case r2c2_paths_cases[] = {
	KUNIT_CASE(r2c2_paths_build__zero_nodes),
	KUNIT_CASE(r2c2_paths_build__nbr_out_of_range),
	KUNIT_CASE(r2c2_paths_build__nomem),
	KUNIT_CASE(r2c2_paths_build__copies_inputs),
	KUNIT_CASE(r2c2_paths_build__no_links),
	KUNIT_CASE(r2c2_paths_build__dist_and_npaths_match_formula),
	KUNIT_CASE(r2c2_paths_build__known_counts),
	KUNIT_CASE(r2c2_paths_build__disconnected),
	KUNIT_CASE(r2c2_paths_build__one_way_link),
	KUNIT_CASE(r2c2_paths_build__parallel_links),
	KUNIT_CASE(r2c2_paths_build__dist_saturates),
	KUNIT_CASE(r2c2_paths_build__npaths_saturate),
	KUNIT_CASE(r2c2_paths_build__in_degree_above_8),
	KUNIT_CASE(r2c2_paths_free__frees_and_zeroes),
	KUNIT_CASE(r2c2_next_hops__at_destination),
	KUNIT_CASE(r2c2_next_hops__unreachable),
	KUNIT_CASE(r2c2_next_hops__rps_weights_are_path_counts),
	KUNIT_CASE(r2c2_next_hops__rps_paths_equally_likely),
	KUNIT_CASE(r2c2_next_hops__dor_lowest_minimal_port),
	KUNIT_CASE(r2c2_next_hops__dor_tie_by_length),
	KUNIT_CASE(r2c2_next_hops__other_rproto_is_rps),
	KUNIT_CASE(r2c2_vlb_ok__torus_all_eligible),
	KUNIT_CASE(r2c2_vlb_ok__first_leg_unreachable),
	KUNIT_CASE(r2c2_vlb_ok__second_leg_unreachable),
	KUNIT_CASE(r2c2_vlb_ok__max_hops),
	KUNIT_CASE(r2c2_leg_sample__picks_by_weight),
	KUNIT_CASE(r2c2_leg_sample__single_candidate_draws_nothing),
	KUNIT_CASE(r2c2_leg_sample__too_long),
	KUNIT_CASE(r2c2_route_sample__bad_node),
	KUNIT_CASE(r2c2_route_sample__bad_rproto),
	KUNIT_CASE(r2c2_route_sample__unreachable),
	KUNIT_CASE(r2c2_route_sample__to_self),
	KUNIT_CASE(r2c2_route_sample__valid_walks),
	KUNIT_CASE(r2c2_route_sample__wlb_directions),
	KUNIT_CASE(r2c2_route_sample__dor_is_dimension_order),
	KUNIT_CASE(r2c2_route_sample__dor_all_pairs_balanced),
	KUNIT_CASE(r2c2_route_sample__vlb_resamples_ineligible),
	KUNIT_CASE(r2c2_route_sample__vlb_falls_back_to_first_eligible),
	KUNIT_CASE(r2c2_route_sample__vlb_none_eligible),
	KUNIT_CASE_PARAM(r2c2_route_sample__matches_predicted_weights,
			 ut_sample_gen_params),
	KUNIT_CASE(r2c2_route_sample__detects_uniform_over_next_hops),
	KUNIT_CASE(r2c2_torus_nbrs__3x3),
	KUNIT_CASE(r2c2_torus_nbrs__4x4),
	KUNIT_CASE(r2c2_torus_nbrs__3x3x3),
	KUNIT_CASE(r2c2_torus_nbrs__mesh),
	KUNIT_CASE(r2c2_torus_nbrs__radix_2),
	KUNIT_CASE(r2c2_torus_nbrs__bad_ndims),
	KUNIT_CASE(r2c2_torus_nbrs__radix_below_2),
	KUNIT_CASE(r2c2_torus_nbrs__too_many_nodes),
	{}
};

static struct kunit_suite r2c2_paths_suite = {
	.name = "r2c2_paths",
	.init = paths_test_init,
	.exit = paths_test_exit,
	.test_cases = r2c2_paths_cases,
};

kunit_test_suite(r2c2_paths_suite);

MODULE_DESCRIPTION("KUnit tests of the r2c2 path distributions");
MODULE_LICENSE("GPL");
