// SPDX-License-Identifier: GPL-2.0
/*
 * rtab.c - per-link weights of every (source, destination, protocol),
 * in a form the allocators can use thousands of times a second.
 *
 * Everything here is derived from r2c2_link_weights_add() in
 * common/paths.c - the very distribution the data plane samples routes
 * from - never from a second definition:
 *
 * - Tori are vertex-transitive and r2c2_next_hops() only looks at
 *   distances (the leg's length for DOR's ties among them), path counts
 *   and port numbers, all invariant under translation. So one sparse
 *   vector per relative offset r and protocol, r2c2_link_weights_add(0 ->
 *   r), serves every pair (s, s + r): its link (u, p) means (s + u, p).
 *   512 nodes: 511 vectors per protocol.
 * - VLB of (s, d) is, by r2c2_link_weights_add(), the sum over eligible
 *   intermediates m of RPS(s -> m) + RPS(m -> d), each scaled by
 *   1/count. When every node is eligible (count = n; true whenever twice
 *   the diameter fits R2C2_MAX_HOPS) this is (A_s + B_d) / n with
 *   A_s = sum_m RPS(s -> m) and B_d = sum_m RPS(m -> d), computed once
 *   per node (on a torus once: A_0, B_0, translated). The allocators
 *   keep VLB flows in 2n groups instead of touching ~2,300 links per
 *   flow. Pairs with fewer eligible intermediates get their exact vector:
 *   on a torus whose diameter is over half of R2C2_MAX_HOPS only the
 *   offsets that need one (16x16x16: 230 of 4,095; see vlb_grp).
 * - Arbitrary graphs (and meshes) cache a sparse vector per (protocol,
 *   source, destination) in use, filled by r2c2_rtab_prepare(). A graph
 *   that is a torus with links changed (after a link failure) keeps the
 *   torus's vectors, and every minimal leg no changed link is on is the
 *   torus's, translated, walked by the allocators as on the torus
 *   (struct rtab_base, r2c2_rtab_carry()).
 *
 * tests/rtab_test.c checks every pair against r2c2_link_weights_add().
 */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtab_int.h"

typedef double v2d __attribute__((vector_size(16)));

struct pair_ent {
	u64 key;		/* proto << 32 | s << 16 | d, +1; 0 = empty */
	struct r2c2_vec v;	/* empty where base: */
	bool base;		/* the leg is the base torus's (rtab_base) */
};

/* a link of the old graph or the new one that is not the same in both */
struct link_change {
	u16 a;		/* the node it leaves */
	u16 b_old;	/* where it led in the old graph (R2C2_IDX_NONE: none) */
	u16 b_new;	/* and in the new one */
};

/* a change of more links than this is not looked into */
#define CARRY_MAX_CHANGES	64

/*
 * The torus a graph departs from (r2c2_rtab_carry() from the torus's
 * tables), what its minimal legs need of it, copied (its vectors shared)
 * and never written: its hops (p.dist; p.nbr and p.nbr_port: its
 * links), its translations (tr, rel), its RPS and DOR offset vectors
 * (off[q], q the protocol) and the same as the allocators walk a torus's
 * (onode .. obhi: see struct r2c2_rtab). A leg the graph has as the
 * torus had it is the torus's vector, translated as on the torus
 * (r2c2_rtab_fv()), and the allocators walk it as a torus's. Shared by the graphs' tables that
 * follow one another (ref).
 */
struct rtab_base {
	atomic_uint ref;
	struct r2c2_paths p;
	u16 *tr, *rel;
	struct r2c2_vec *off[2];
	u16 *onode[2];
	u8 *oport[2];
	u32 *ostart[2];
	u16 *obyte[2];
	double *obcoef[2];
	u32 *obstart[2];
	u16 obhi;
};

struct r2c2_rtab {
	const struct r2c2_topo *t;
	u16 n;
	bool sym;		/* torus: translated offset vectors */
	bool vlb_split;		/* sym: VLB of every pair is split */
	bool vlb_all;		/* graph: every pair's VLB is split (diameter) */
	/*
	 * sym, VLB of some offsets split and not of others (twice the
	 * diameter beyond R2C2_MAX_HOPS: 16x16x16), else NULL: vlb_grp[r]
	 * says offset r is split (every node an eligible intermediate);
	 * off[VLB][r] is the exact vector of the others, empty for these
	 */
	u8 *vlb_grp;
	u16 *tr;		/* sym: tr[s * n + r] = s + r */
	u16 *rel;		/* sym: rel[s * n + d] = d - s */
	struct r2c2_vec *off[__R2C2_RP_MAX];	/* sym: n each */
	/*
	 * sym: the links of off[p][r] again, entry j at ostart[p][r] + j:
	 * relative node (link >> 3) and 16 * port (link & 7), for the
	 * water-filling's translations (r2c2_rtab_nodeport())
	 */
	u16 *onode[__R2C2_RP_MAX];
	u8 *oport[__R2C2_RP_MAX];
	u32 *ostart[__R2C2_RP_MAX];
	/*
	 * sym, n <= 512 and every radix a power of two: the same entries as
	 * byte offsets node * 128 + 16 * port, with their coefficients,
	 * each vector padded to a multiple of 8 entries (r2c2_rtab_obyte());
	 * vector r at obstart[p][r]; obhi: the top bit of every coordinate's
	 * field in such an offset
	 */
	u16 *obyte[__R2C2_RP_MAX];
	double *obcoef[__R2C2_RP_MAX];
	u32 *obstart[__R2C2_RP_MAX];
	u16 obhi;
	/*
	 * sym: lmask[p][port]: n rows of mw words; bit r of row u says that
	 * offset r's vector under protocol p has the relative link (u, port)
	 * (NULL: no vector has that port)
	 */
	u64 *lmask[__R2C2_RP_MAX][R2C2_MAX_PORTS];
	/*
	 * sym: smask[p][port]: n rows of mw words; bit s of row v says that
	 * lmask[p][port] row s - v is not empty (some flow from s may cross
	 * link (v, port))
	 */
	u64 *smask[__R2C2_RP_MAX][R2C2_MAX_PORTS];
	unsigned int mw;
	/* groups 0..n-1: A_s, n..2n-1: B_d (sym: only A_0, B_0 stored) */
	struct r2c2_vec *grp;
	double **gdense;	/* per group, n * 8 (sym: 2 of them) */
	/*
	 * sym && (vlb_split || vlb_grp): spectra of A_0 ([0]) and B_0 ([1]) per pair of
	 * ports p, p + 1: DFT over the torus group of A_0(p) + i A_0(p + 1),
	 * divided by n (NULL for pairs without links); the DFT twiddles per
	 * dimension and the index of -k
	 */
	double *pspec[2][R2C2_MAX_PORTS / 2];
	double *pspec2[2][R2C2_MAX_PORTS / 2];	/* the same of A_0^2, B_0^2 */
	double *tw[R2C2_MAX_DIMS];	/* K x K */
	double *tw2[R2C2_MAX_DIMS];	/* radix 2: K / 2 forward, K / 2 inverse */
	u8 *rev[R2C2_MAX_DIMS];		/* radix 2: bit reversal */
	double tw8[R2C2_MAX_DIMS][2][16];	/* K = 8: fft8_line() twiddles */
	u16 *negk;
	/*
	 * graphs: the torus the graph departs from (NULL: none) and the
	 * links changed since (bc, bnc); a minimal leg none of them is on
	 * (leg_kept()) is the torus's vector translated (from_base of them)
	 */
	struct rtab_base *base;
	struct link_change bc[CARRY_MAX_CHANGES];
	size_t bnc, from_base;
	/* graphs: pair cache */
	struct pair_ent *ht;
	size_t htcap, htcnt;
	size_t pair_bytes[__R2C2_RP_MAX];
	double *scratch;	/* a leg's dense weights, kept zeroed */
	/*
	 * graphs: from[s * n + u], the hops from s to u (the paths' dist
	 * transposed, so that what one source reaches is read in a row; the
	 * paths' dist itself where every link has as many back, from_own
	 * false: links_both_ways(); then npaths is its own transpose too);
	 * legn: n, the nodes on a leg's minimal paths
	 */
	u8 *from;
	u16 *legn;
	bool from_own;
	/* graphs: what group_to() and group_from() walk a group with */
	struct group_scratch {
		double *acc;	/* n: what reached a node (delta, or flow) */
		u16 *order;	/* n: the nodes by decreasing distance */
		double *sig;	/* n: group_from()'s path counts from s */
	} gs;
};

/*
 * A vector's coefficients and links are one block after this head, which
 * counts the tables that hold it: new tables take over what a change left
 * as it was from the old ones (r2c2_rtab_carry()) by sharing, not
 * copying, and the old ones may be freed in another thread (r2c2d frees
 * them in a worker). Never written once made. 16 bytes: the coefficients
 * stay as aligned as malloc() makes the block.
 */
struct vec_head {
	atomic_ulong refs;
	unsigned long pad;
};

/* room for c entries in v (at least one allocated) */
static int vec_alloc(struct r2c2_vec *v, size_t c)
{
	size_t k = c ? c : 1;
	struct vec_head *h = malloc(sizeof(*h) +
				    k * (sizeof(*v->coef) + sizeof(*v->link)));

	v->len = (u32)c;
	v->coef = NULL;
	v->link = NULL;
	if (!h)
		return -ENOMEM;
	atomic_init(&h->refs, 1);
	v->coef = (double *)(h + 1);
	v->link = (u32 *)(v->coef + k);
	return 0;
}

/* one more holder of the block whose data p is (after its vec_head) */
static void block_get(const void *p)
{
	atomic_fetch_add_explicit(&((struct vec_head *)p - 1)->refs, 1,
				  memory_order_relaxed);
}

/* one holder less of p's block (p may be NULL); freed by the last */
static void block_put(const void *p)
{
	struct vec_head *h = p ? (struct vec_head *)p - 1 : NULL;

	if (h && atomic_fetch_sub_explicit(&h->refs, 1,
					   memory_order_acq_rel) == 1)
		free(h);
}

/* c holds v too (a vector made by vec_alloc(), or an empty one) */
static void vec_share(struct r2c2_vec *c, const struct r2c2_vec *v)
{
	*c = *v;
	if (v->coef)
		block_get(v->coef);
}

static int vec_from_dense(struct r2c2_vec *v, const double *w, size_t nl)
{
	size_t i, c = 0;

	for (i = 0; i < nl; i++)
		c += w[i] != 0;
	if (vec_alloc(v, c))
		return -ENOMEM;
	c = 0;
	for (i = 0; i < nl; i++)
		if (w[i] != 0) {
			v->link[c] = (u32)i;
			v->coef[c++] = w[i];
		}
	return 0;
}

/*
 * The sparse vector of a minimal leg s -> d from its dense weights w: only
 * the links out of nodes on a minimal path can carry weight, so only
 * those are read (in link order, as vec_from_dense() gives them), and
 * zeroed after. from_s: the hops from s to every node; on: room for n
 * nodes.
 */
static int vec_from_leg(struct r2c2_vec *v, double *w,
			const struct r2c2_paths *p, const u8 *from_s, u16 *on,
			u16 s, u16 d)
{
	const u8 *to_d = p->dist + (size_t)d * p->n;
	unsigned int len = to_d[s], u, k, i, non = 0;
	size_t c = 0;

	for (u = 0; u < p->n; u++) {
		if (from_s[u] == R2C2_DIST_INF || to_d[u] == R2C2_DIST_INF ||
		    from_s[u] + to_d[u] != len || u == d)
			continue;
		on[non++] = (u16)u;
		for (k = 0; k < R2C2_MAX_PORTS; k++)
			c += w[(size_t)u * R2C2_MAX_PORTS + k] != 0;
	}
	if (vec_alloc(v, c))
		return -ENOMEM;
	c = 0;
	for (i = 0; i < non; i++) {
		size_t l = (size_t)on[i] * R2C2_MAX_PORTS;

		for (k = 0; k < R2C2_MAX_PORTS; k++, l++) {
			if (w[l] == 0)
				continue;
			v->link[c] = (u32)l;
			v->coef[c++] = w[l];
			w[l] = 0;
		}
	}
	return 0;
}

static void vec_free(struct r2c2_vec *v);

/*
 * The vector of a minimal leg s -> d from the paths' tables, with no
 * dense weights to fill and scan. DOR: its one path, in the order of the
 * hops (r2c2_next_hops() picks each port; every link's share is 1). RPS:
 * r2c2_next_hops() weighs each next hop by the minimal paths behind it,
 * so a route is uniform over the minimal paths and crosses a minimal link
 * u -> x with probability sigma(s, u) sigma(x, d) / sigma(s, d), sigma
 * counting minimal paths (none over sigma(s, d)); entered in link order.
 * Both equal r2c2_link_weights_add()'s to rounding (tests/rtab_test.c).
 * on: room for n nodes.
 *
 * Return: 0, -ENOMEM, -EHOSTUNREACH, or -EAGAIN where sigma(s, d)
 * saturated (R2C2_NPATHS_MAX): then r2c2_link_weights_add() must do.
 */
static int leg_vec(const struct r2c2_paths *p, const u8 *from_s, u16 *on,
		   u8 rproto, u16 s, u16 d, struct r2c2_vec *v)
{
	const u8 *to_d = p->dist + (size_t)d * p->n;
	const u32 *sig_d = p->npaths + (size_t)d * p->n;
	unsigned int len = to_d[s], u, k, i, non = 0;
	u8 ports[R2C2_MAX_PORTS];
	u32 wt[R2C2_MAX_PORTS];
	double sig_sd;
	size_t c = 0;

	if (rproto == R2C2_RP_DOR) {
		if (vec_alloc(v, len)) {
			vec_free(v);
			return -ENOMEM;
		}
		for (u = s; u != d; c++) {
			size_t l;

			if (r2c2_next_hops(p, rproto, s, (u16)u, d, ports, wt) < 1 ||
			    c >= len) {
				vec_free(v);
				return -EHOSTUNREACH;
			}
			l = (size_t)u * R2C2_MAX_PORTS + ports[0];
			u = p->nbr[l];
			v->link[c] = (u32)l;
			v->coef[c] = 1.0;
		}
		return 0;
	}
	if (sig_d[s] >= R2C2_NPATHS_MAX)
		return -EAGAIN;
	for (u = 0; u < p->n; u++) {
		on[non] = (u16)u;
		non += u != d && (unsigned int)from_s[u] + to_d[u] == len;
	}
	for (i = 0; i < non; i++)
		for (k = 0; k < R2C2_MAX_PORTS; k++) {
			u16 x = p->nbr[(size_t)on[i] * R2C2_MAX_PORTS + k];

			c += x != R2C2_IDX_NONE && to_d[x] + 1 == to_d[on[i]];
		}
	if (vec_alloc(v, c)) {
		vec_free(v);
		return -ENOMEM;
	}
	sig_sd = (double)sig_d[s];
	for (c = 0, i = 0; i < non; i++) {
		double sig_su = (double)p->npaths[(size_t)on[i] * p->n + s];
		size_t l = (size_t)on[i] * R2C2_MAX_PORTS;

		for (k = 0; k < R2C2_MAX_PORTS; k++, l++) {
			u16 x = p->nbr[l];

			if (x == R2C2_IDX_NONE || to_d[x] + 1 != to_d[on[i]])
				continue;
			v->link[c] = (u32)l;
			v->coef[c++] = sig_su * (double)sig_d[x] / sig_sd;
		}
	}
	return 0;
}

/*
 * bytes a VLB group counts for: its dense weights, and on a torus its
 * vector v too (a graph's group has only the dense weights: v NULL)
 */
static size_t group_bytes(size_t nl, const struct r2c2_vec *v)
{
	return sizeof(struct vec_head) + nl * sizeof(double) +
	       (v ? v->len * (sizeof(u32) + sizeof(double)) : 0);
}

/* bytes a cached pair counts for: its share of the hash table, vector v */
static size_t pair_ent_bytes(const struct r2c2_vec *v)
{
	return 2 * sizeof(struct pair_ent) +
	       v->len * (sizeof(u32) + sizeof(double));
}

/*
 * A group's dense weights: nl doubles, 16-byte aligned
 * (r2c2_rtab_group_axpy() loads pairs), after a count of the tables that
 * hold them (the vec_head of a vector), so that new tables share a group
 * the link changes left as it was (dense_get()). Freed by the last
 * dense_put(). Zeroed unless the caller writes every weight (!zero).
 */
static double *dense_new(size_t nl, bool zero)
{
	struct vec_head *h = aligned_alloc(16, sizeof(*h) +
					   ((nl * sizeof(double) + 15) & ~(size_t)15));

	if (!h)
		return NULL;
	atomic_init(&h->refs, 1);
	if (zero)
		memset(h + 1, 0, nl * sizeof(double));
	return (double *)(h + 1);
}

static double *dense_get(double *w)
{
	block_get(w);
	return w;
}

static void dense_put(double *w)
{
	block_put(w);
}

/* v no longer held here; its block freed by the last that held it */
static void vec_free(struct r2c2_vec *v)
{
	block_put(v->coef);
	memset(v, 0, sizeof(*v));
}

const struct r2c2_topo *r2c2_rtab_topo(const struct r2c2_rtab *rt)
{
	return rt->t;
}

/* node a + b (b relative) on a torus, by coordinates */
static u16 torus_add(const struct r2c2_topo *t, unsigned int a,
		     unsigned int b, bool sub)
{
	unsigned int d, id = 0, stride = 1;

	for (d = 0; d < t->ndims; d++) {
		unsigned int k = t->dims[d], ca = a % k, cb = b % k, c;

		a /= k;
		b /= k;
		c = sub ? (ca + k - cb) % k : (ca + cb) % k;
		id += c * stride;
		stride *= k;
	}
	return (u16)id;
}

static int build_spectra(struct r2c2_rtab *rt);

/* a minimal leg's protocol, whose vectors the base torus keeps (off[2]) */
static bool rp_leg(unsigned int rproto)
{
	return rproto == R2C2_RP_RPS || rproto == R2C2_RP_DOR;
}

/*
 * A WLB pair of a graph that is a torus (WLB's own routes), from
 * r2c2_link_weights_add() into dense weights
 */
static int wlb_pair(const struct r2c2_rtab *rt, u16 s, u16 d,
		    struct r2c2_vec *v)
{
	size_t nl = R2C2_NLINKS(rt->n);
	double *w = calloc(nl, sizeof(*w));
	int ret;

	if (!w)
		return -ENOMEM;
	ret = r2c2_link_weights_add(&rt->t->paths, R2C2_RP_WLB, s, d, 1.0, w);
	if (!ret)
		ret = vec_from_dense(v, w, nl);
	free(w);
	return ret;
}

/* onode, oport, ostart of protocol p (see struct r2c2_rtab) */
static int build_nodeport(struct r2c2_rtab *rt, unsigned int p)
{
	unsigned int n = rt->n, r;
	u32 tot = 0, j;

	rt->ostart[p] = malloc((n + 1) * sizeof(u32));
	if (!rt->ostart[p])
		return -ENOMEM;
	for (r = 0; r < n; r++) {
		rt->ostart[p][r] = tot;
		tot += rt->off[p][r].len;
	}
	rt->ostart[p][n] = tot;
	rt->onode[p] = malloc((tot + 1) * sizeof(u16));
	rt->oport[p] = malloc(tot + 1);
	if (!rt->onode[p] || !rt->oport[p])
		return -ENOMEM;
	for (r = 0; r < n; r++) {
		const struct r2c2_vec *v = &rt->off[p][r];

		for (j = 0; j < v->len; j++) {
			rt->onode[p][rt->ostart[p][r] + j] = (u16)(v->link[j] >> 3);
			rt->oport[p][rt->ostart[p][r] + j] = (u8)((v->link[j] & 7) * 16);
		}
	}
	if (!rt->obhi)
		return 0;
	rt->obstart[p] = malloc((n + 1) * sizeof(u32));
	if (!rt->obstart[p])
		return -ENOMEM;
	for (tot = r = 0; r < n; r++) {
		rt->obstart[p][r] = tot;
		tot += (rt->off[p][r].len + 7) & ~7u;
	}
	rt->obstart[p][n] = tot;
	/* + 8: r2c2_rtab_obyte() readers may load 8 entries at a time */
	rt->obyte[p] = calloc(tot + 8, sizeof(u16));
	rt->obcoef[p] = calloc(tot + 8, sizeof(double));
	if (!rt->obyte[p] || !rt->obcoef[p])
		return -ENOMEM;
	for (r = 0; r < n; r++) {
		const struct r2c2_vec *v = &rt->off[p][r];
		u32 o = rt->ostart[p][r], b = rt->obstart[p][r];

		for (j = 0; j < v->len; j++) {
			rt->obyte[p][b + j] = (u16)(rt->onode[p][o + j] * 128 +
						    rt->oport[p][o + j]);
			rt->obcoef[p][b + j] = v->coef[j];
		}
		/* the padding: the last entry again, coefficient 0 (calloc) */
		for (; j < rt->obstart[p][r + 1] - b; j++)
			rt->obyte[p][b + j] = rt->obyte[p][b + v->len - 1];
	}
	return 0;
}

/*
 * rt->obhi: with every radix a power of two, a coordinate is a bit field
 * of the node number, so node + offset (by coordinates, modulo the
 * radices) is a carry-less field-wise addition (see r2c2_rtab_obyte())
 */
static void set_obhi(struct r2c2_rtab *rt)
{
	const struct r2c2_topo *t = rt->t;
	unsigned int d, bit = 7, b;
	u32 hi = 0;

	rt->obhi = 0;
	if (rt->n > 512)
		return;
	for (d = 0; d < t->ndims; d++) {
		if (t->dims[d] < 2 || (t->dims[d] & (t->dims[d] - 1)))
			return;
		b = (unsigned int)__builtin_ctz(t->dims[d]);
		hi |= 1u << (bit + b - 1);
		bit += b;
	}
	if (bit > 16)
		return;
	rt->obhi = (u16)hi;
}

/* the inverse of the offset vectors, as bit masks (see lmask) */
static int build_lmasks(struct r2c2_rtab *rt)
{
	unsigned int n = rt->n, p, r;
	size_t i;

	rt->mw = (n + 63) / 64;
	if (n > R2C2_LMASK_MAXN)
		return 0;
	for (p = 0; p < __R2C2_RP_MAX; p++) {
		if (!rt->off[p])
			continue;
		for (r = 1; r < n; r++) {
			const struct r2c2_vec *v = &rt->off[p][r];

			for (i = 0; i < v->len; i++) {
				u64 **m = &rt->lmask[p][v->link[i] & 7];

				if (!*m) {
					*m = calloc((size_t)n * rt->mw, sizeof(u64));
					if (!*m)
						return -ENOMEM;
				}
				/* row of -u: see r2c2_rtab_lmask() */
				(*m)[(size_t)rt->rel[(size_t)(v->link[i] >> 3) * n] * rt->mw +
				     r / 64] |= 1ull << (r % 64);
			}
		}
	}
	return 0;
}

/* the sources that may cross a link (see smask) */
static int build_smasks(struct r2c2_rtab *rt)
{
	unsigned int n = rt->n, mw = rt->mw, p, port, v, s, w;

	for (p = 0; p < __R2C2_RP_MAX; p++)
		for (port = 0; port < R2C2_MAX_PORTS; port++) {
			const u64 *m = rt->lmask[p][port];
			u64 *sm;

			if (!m)
				continue;
			sm = calloc((size_t)n * mw, sizeof(u64));
			if (!sm)
				return -ENOMEM;
			rt->smask[p][port] = sm;
			for (v = 0; v < n; v++)
				for (s = 0; s < n; s++) {
					const u64 *row = m + (size_t)rt->rel[(size_t)v * n + s] * mw;
					u64 any = 0;

					for (w = 0; w < mw; w++)
						any |= row[w];
					if (any)
						sm[(size_t)v * mw + s / 64] |= 1ull << (s % 64);
				}
		}
	return 0;
}

/*
 * w += VLB(0 -> r) as r2c2_link_weights_add() defines it, the sum over the
 * eligible intermediates m of RPS(0 -> m) + RPS(m -> r), each scaled by
 * 1 / their count, from the RPS offset vectors (RPS(m -> r) is offset
 * r - m translated by m) instead of two propagations per m: 16x16x16
 * has 230 such offsets of 4,096 intermediates. cnt: how many are
 * eligible (build_sym() counted them).
 */
static int vlb_offset(const struct r2c2_rtab *rt, unsigned int r,
		      unsigned int cnt, double *w)
{
	const struct r2c2_paths *paths = &rt->t->paths;
	const struct r2c2_vec *rps = rt->off[R2C2_RP_RPS];
	unsigned int n = rt->n, m;
	size_t i;
	double sc;

	if (!cnt)	/* as r2c2_link_weights_add(): nothing */
		return 0;
	sc = 1.0 / cnt;
	for (m = 0; m < n; m++) {
		const u16 *row = rt->tr + (size_t)m * n;
		const struct r2c2_vec *a, *b;

		if (!r2c2_vlb_ok(paths, 0, (u16)m, (u16)r))
			continue;
		a = &rps[m];			/* 0 -> m (empty for m = 0) */
		b = &rps[rt->rel[(size_t)m * n + r]];	/* m -> r, from m */
		for (i = 0; i < a->len; i++)
			w[a->link[i]] += sc * a->coef[i];
		for (i = 0; i < b->len; i++)
			w[r2c2_fv_link(row, b->link[i])] += sc * b->coef[i];
	}
	return 0;
}

static int build_sym(struct r2c2_rtab *rt)
{
	const struct r2c2_topo *t = rt->t;
	unsigned int n = t->n, s, r, m, p, nsplit = 0;
	size_t nl = R2C2_NLINKS(n), i;
	double *w = malloc(nl * sizeof(*w));
	/* eligible VLB intermediates of each offset */
	unsigned int *vcnt = calloc(n, sizeof(*vcnt));
	int ret = -ENOMEM;

	rt->tr = malloc((size_t)n * n * sizeof(*rt->tr));
	rt->rel = malloc((size_t)n * n * sizeof(*rt->rel));
	if (!w || !vcnt || !rt->tr || !rt->rel)
		goto out;
	for (s = 0; s < n; s++)
		for (r = 0; r < n; r++) {
			rt->tr[(size_t)s * n + r] = torus_add(t, s, r, false);
			rt->rel[(size_t)s * n + r] = torus_add(t, r, s, true);
		}
	rt->vlb_grp = malloc(n);
	if (!rt->vlb_grp)
		goto out;
	for (r = 0; r < n; r++) {
		for (m = 0; r && m < n; m++)
			vcnt[r] += r2c2_vlb_ok(&t->paths, 0, (u16)m, (u16)r);
		/* offset 0 is no pair: counted as split */
		rt->vlb_grp[r] = !r || vcnt[r] == n;
		nsplit += rt->vlb_grp[r];
	}
	rt->vlb_split = nsplit == n;
	/* every offset split, or none (but 0): no mix */
	if (rt->vlb_split || nsplit == 1) {
		free(rt->vlb_grp);
		rt->vlb_grp = NULL;
	}
	set_obhi(rt);
	for (p = 0; p < __R2C2_RP_MAX; p++) {
		if (p == R2C2_RP_VLB && rt->vlb_split)
			continue;
		/* WLB's pairs as they are prepared (sym_wlb()) */
		if (p == R2C2_RP_WLB)
			continue;
		rt->off[p] = calloc(n, sizeof(struct r2c2_vec));
		if (!rt->off[p])
			goto out;
		for (r = 1; r < n; r++) {
			/* a split offset of a mixed torus: no vector */
			if (p == R2C2_RP_VLB && rt->vlb_grp && rt->vlb_grp[r])
				continue;
			memset(w, 0, nl * sizeof(*w));
			if (p == R2C2_RP_VLB)
				ret = vlb_offset(rt, r, vcnt[r], w);
			else
				ret = r2c2_link_weights_add(&t->paths, (u8)p, 0,
							    (u16)r, 1.0, w);
			if (ret)
				goto out;
			ret = vec_from_dense(&rt->off[p][r], w, nl);
			if (ret)
				goto out;
		}
		ret = build_nodeport(rt, p);
		if (ret)
			goto out;
	}
	ret = build_lmasks(rt);
	if (ret)
		goto out;
	ret = build_smasks(rt);
	if (ret)
		goto out;
	ret = -ENOMEM;
	if (rt->vlb_split || rt->vlb_grp) {
		rt->grp = calloc(2, sizeof(*rt->grp));
		rt->gdense = calloc(2, sizeof(*rt->gdense));
		if (!rt->grp || !rt->gdense)
			goto out;
		rt->gdense[0] = dense_new(nl, true);
		rt->gdense[1] = dense_new(nl, true);
		if (!rt->gdense[0] || !rt->gdense[1])
			goto out;
		/* A_0 = sum_m RPS(0 -> m); B_0 = sum_m RPS(m -> 0) */
		for (m = 1; m < n; m++) {
			const struct r2c2_vec *v = &rt->off[R2C2_RP_RPS][m];
			const struct r2c2_vec *vb =
				&rt->off[R2C2_RP_RPS][rt->rel[(size_t)m * n + 0]];
			const u16 *row = rt->tr + (size_t)m * n;

			for (i = 0; i < v->len; i++)
				rt->gdense[0][v->link[i]] += v->coef[i];
			for (i = 0; i < vb->len; i++)
				rt->gdense[1][r2c2_fv_link(row, vb->link[i])] += vb->coef[i];
		}
		if (vec_from_dense(&rt->grp[0], rt->gdense[0], nl) ||
		    vec_from_dense(&rt->grp[1], rt->gdense[1], nl) ||
		    build_spectra(rt))
			goto out;
	}
	ret = 0;
out:
	free(w);
	free(vcnt);
	return ret;
}

/*
 * ---- VLB groups by convolution ----
 * On a torus, sum_s w_s * A_s (A_s = A_0 translated by s) is, port by
 * port, the cyclic convolution of w with A_0 over Z_k1 x Z_k2 x Z_k3:
 * a DFT of w, a product with the DFT of A_0 and an inverse DFT. That
 * costs a few n * (k1 + k2 + k3) operations however many groups changed,
 * instead of ~n * 8 per group.
 */

/* butterfly x[i], x[j] <- x[i] + w x[j], x[i] - w x[j] */
#define BFW(x, i, j, c, s) do {						\
	double tr_ = (x)[2 * (j)] * (c) - (x)[2 * (j) + 1] * (s);		\
	double ti_ = (x)[2 * (j)] * (s) + (x)[2 * (j) + 1] * (c);		\
	(x)[2 * (j)] = (x)[2 * (i)] - tr_;					\
	(x)[2 * (j) + 1] = (x)[2 * (i) + 1] - ti_;				\
	(x)[2 * (i)] += tr_;							\
	(x)[2 * (i) + 1] += ti_;						\
} while (0)
#define BF1(x, i, j) do {						\
	double tr_ = (x)[2 * (j)], ti_ = (x)[2 * (j) + 1];			\
	(x)[2 * (j)] = (x)[2 * (i)] - tr_;					\
	(x)[2 * (j) + 1] = (x)[2 * (i) + 1] - ti_;				\
	(x)[2 * (i)] += tr_;							\
	(x)[2 * (i) + 1] += ti_;						\
} while (0)

static inline v2d ld2(const double *p)
{
	v2d v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

static inline void st2(double *p, v2d v)
{
	__builtin_memcpy(p, &v, sizeof(v));
}

/* x * w for complex x, w = (c, s); wr = (-s, c) */
static inline v2d cmul(v2d x, v2d w, v2d wr)
{
	v2d re = { x[0], x[0] }, im = { x[1], x[1] };

	return re * w + im * wr;
}

/*
 * 8-point FFT of a strided line in place (the 8x8x8 case), in vector
 * registers: gather in bit-reversed order, three radix-2 stages.
 * w: twiddles (c, s) for j = 0..3 then (-s, c) for j = 0..3.
 */
static void fft8_line(double *line, size_t st, const double *w)
{
	static const u8 rev[8] = { 0, 4, 2, 6, 1, 5, 3, 7 };
	v2d x[8], t, w1 = ld2(w + 2), w2 = ld2(w + 4), w3 = ld2(w + 6);
	v2d w1r = ld2(w + 10), w2r = ld2(w + 12), w3r = ld2(w + 14);
	int m;

#pragma GCC unroll 8
	for (m = 0; m < 8; m++)
		x[m] = ld2(line + 2 * rev[m] * st);
#define B1(i, j) do { t = x[j]; x[j] = x[i] - t; x[i] += t; } while (0)
#define BW(i, j, a, ar) do { t = cmul(x[j], a, ar); x[j] = x[i] - t; x[i] += t; } while (0)
	B1(0, 1); B1(2, 3); B1(4, 5); B1(6, 7);
	B1(0, 2); BW(1, 3, w2, w2r); B1(4, 6); BW(5, 7, w2, w2r);
	B1(0, 4); BW(1, 5, w1, w1r); BW(2, 6, w2, w2r); BW(3, 7, w3, w3r);
#undef B1
#undef BW
#pragma GCC unroll 8
	for (m = 0; m < 8; m++)
		st2(line + 2 * m * st, x[m]);
}

/* radix-2 FFT of K complex values in bit-reversed order; w: K / 2 twiddles */
static void fft_pow2(double *x, unsigned int K, const double *w)
{
	unsigned int i, j, len;

	for (len = 2; len <= K; len <<= 1) {
		unsigned int h = len >> 1, step = K / len;

		for (i = 0; i < K; i += len)
			for (j = 0; j < h; j++)
				BFW(x, i + j, i + j + h, w[2 * j * step],
				    w[2 * j * step + 1]);
	}
}

/* in-place DFT of n complex (re, im) values over the torus; tmp: 2 * kmax */
static void dft_torus(const struct r2c2_rtab *rt, double *z, double *tmp,
		      bool inverse)
{
	const struct r2c2_topo *t = rt->t;
	unsigned int n = rt->n, d, st = 1, K, lo, hi, j, m;
	double sg = inverse ? -1 : 1;

	for (d = 0; d < t->ndims; st *= K, d++) {
		const double *T = rt->tw[d], *w;
		bool pow2;

		K = t->dims[d];
		pow2 = !(K & (K - 1));
		/*
		 * radix 2: K / 2 forward twiddles, then K / 2 inverse ones;
		 * another radix has none (tw2[d] NULL)
		 */
		w = !pow2 ? NULL : inverse ? rt->tw2[d] + K : rt->tw2[d];
		for (hi = 0; hi < n; hi += st * K)
			for (lo = 0; lo < st; lo++) {
				double *line = z + 2 * ((size_t)hi + lo);

				if (K == 8) {
					fft8_line(line, st, rt->tw8[d][inverse]);
					continue;
				}
				if (pow2) {
					const u8 *rev = rt->rev[d];

					/* gather in bit-reversed order */
					for (m = 0; m < K; m++) {
						tmp[2 * m] = line[2 * (size_t)rev[m] * st];
						tmp[2 * m + 1] = line[2 * (size_t)rev[m] * st + 1];
					}
					fft_pow2(tmp, K, w);
					for (m = 0; m < K; m++) {
						line[2 * (size_t)m * st] = tmp[2 * m];
						line[2 * (size_t)m * st + 1] = tmp[2 * m + 1];
					}
					continue;
				}
				for (m = 0; m < K; m++) {
					tmp[2 * m] = line[2 * (size_t)m * st];
					tmp[2 * m + 1] = line[2 * (size_t)m * st + 1];
				}
				for (j = 0; j < K; j++) {
					const double *row = T + 2 * (size_t)j * K;
					double re = 0, im = 0;

					/* T = e^{-2 pi i jm/K}; conjugated if inverse */
					for (m = 0; m < K; m++) {
						double a = tmp[2 * m], b = tmp[2 * m + 1];
						double c = row[2 * m], sn = sg * row[2 * m + 1];

						re += a * c - b * sn;
						im += a * sn + b * c;
					}
					line[2 * (size_t)j * st] = re;
					line[2 * (size_t)j * st + 1] = im;
				}
			}
	}
}

static int build_spectra(struct r2c2_rtab *rt)
{
	const struct r2c2_topo *t = rt->t;
	unsigned int n = rt->n, d, j, m, p, u, kmax = 1;
	double *z = NULL, *tmp = NULL;
	int ret = -ENOMEM;

	for (d = 0; d < t->ndims; d++) {
		unsigned int K = t->dims[d];

		kmax = K > kmax ? K : kmax;
		rt->tw[d] = malloc(2 * (size_t)K * K * sizeof(double));
		if (!rt->tw[d])
			goto out;
		for (j = 0; j < K; j++)
			for (m = 0; m < K; m++) {
				double ang = -2 * M_PI * (double)((j * m) % K) / K;

				rt->tw[d][2 * (j * K + m)] = cos(ang);
				rt->tw[d][2 * (j * K + m) + 1] = sin(ang);
			}
		if (K & (K - 1))
			continue;
		rt->tw2[d] = malloc(2 * (size_t)K * sizeof(double));
		rt->rev[d] = malloc(K);
		if (!rt->tw2[d] || !rt->rev[d])
			goto out;
		for (j = 0; j < K / 2; j++) {
			/* e^{-2 pi i j / K} = row 1 of tw; inverse: conjugate */
			rt->tw2[d][2 * j] = rt->tw[d][2 * (K + j)];
			rt->tw2[d][2 * j + 1] = rt->tw[d][2 * (K + j) + 1];
			rt->tw2[d][K + 2 * j] = rt->tw[d][2 * (K + j)];
			rt->tw2[d][K + 2 * j + 1] = -rt->tw[d][2 * (K + j) + 1];
		}
		for (j = 0; K == 8 && j < 4; j++) {
			int inv;

			for (inv = 0; inv < 2; inv++) {
				double c = rt->tw2[d][inv * K + 2 * j];
				double sn = rt->tw2[d][inv * K + 2 * j + 1];

				rt->tw8[d][inv][2 * j] = c;
				rt->tw8[d][inv][2 * j + 1] = sn;
				rt->tw8[d][inv][8 + 2 * j] = -sn;
				rt->tw8[d][inv][8 + 2 * j + 1] = c;
			}
		}
		for (j = 0; j < K; j++) {
			unsigned int r = 0, b;

			for (b = 1; b < K; b <<= 1)
				r = (r << 1) | ((j & b) != 0);
			rt->rev[d][j] = (u8)r;
		}
	}
	rt->negk = malloc(n * sizeof(*rt->negk));
	z = malloc(2 * (size_t)n * sizeof(double));
	tmp = malloc(2 * (size_t)kmax * sizeof(double));
	if (!rt->negk || !z || !tmp)
		goto out;
	for (u = 0; u < n; u++)
		rt->negk[u] = torus_add(t, 0, u, true);
	for (p = 0; p < R2C2_MAX_PORTS; p += 2) {
		bool any = false;
		int ab;

		for (u = 0; u < n; u++)
			for (ab = 0; ab < 2; ab++)
				any |= rt->gdense[ab][u * R2C2_MAX_PORTS + p] != 0 ||
				       rt->gdense[ab][u * R2C2_MAX_PORTS + p + 1] != 0;
		if (!any)
			continue;
		for (ab = 0; ab < 4; ab++) {
			const double *g = rt->gdense[ab & 1];
			bool sq = ab >= 2;

			for (u = 0; u < n; u++) {
				double a = g[u * R2C2_MAX_PORTS + p];
				double b = g[u * R2C2_MAX_PORTS + p + 1];

				z[2 * u] = (sq ? a * a : a) / n;
				z[2 * u + 1] = (sq ? b * b : b) / n;
			}
			dft_torus(rt, z, tmp, false);
			if (sq)
				rt->pspec2[ab & 1][p / 2] = z;
			else
				rt->pspec[ab][p / 2] = z;
			z = malloc(2 * (size_t)n * sizeof(double));
			if (!z)
				goto out;
		}
	}
	ret = 0;
out:
	free(z);
	free(tmp);
	return ret;
}

size_t r2c2_rtab_conv_scratch(const struct r2c2_rtab *rt)
{
	return rt->negk ? 6 * (size_t)rt->n + 2 * 256 : 0;
}

/* y += sum_s wa[s] A_s + sum_d wb[d] B_d with A_0, B_0's spectra spec */
static void groups_conv(const struct r2c2_rtab *rt,
			double *const spec[2][R2C2_MAX_PORTS / 2],
			const double *wa, const double *wb, double *y,
			double *scratch)
{
	unsigned int n = rt->n, u, p;
	double *WA = scratch, *WB = scratch + 2 * n, *Y = scratch + 4 * n;
	double *tmp = scratch + 6 * n;

	/* both real inputs in one complex DFT, then split by symmetry */
	for (u = 0; u < n; u++) {
		Y[2 * u] = wa[u];
		Y[2 * u + 1] = wb[u];
	}
	dft_torus(rt, Y, tmp, false);
	for (u = 0; u < n; u++) {
		unsigned int v = rt->negk[u];
		double zr = Y[2 * u], zi = Y[2 * u + 1];
		double nr = Y[2 * v], ni = -Y[2 * v + 1];

		WA[2 * u] = (zr + nr) / 2;
		WA[2 * u + 1] = (zi + ni) / 2;
		WB[2 * u] = (zi - ni) / 2;
		WB[2 * u + 1] = (nr - zr) / 2;
	}
	/*
	 * two ports per inverse DFT: with PA = DFT(A_0(p) + i A_0(p + 1)),
	 * IDFT(PA WA + PB WB) = y(p) + i y(p + 1), both real
	 */
	for (p = 0; p < R2C2_MAX_PORTS; p += 2) {
		const double *pa = spec[0][p / 2], *pb = spec[1][p / 2];

		if (!pa)
			continue;
		for (u = 0; u < n; u++) {
			v2d a = ld2(pa + 2 * u), b = ld2(pb + 2 * u);
			v2d ar = { -a[1], a[0] }, br = { -b[1], b[0] };

			st2(Y + 2 * u, cmul(ld2(WA + 2 * u), a, ar) +
				       cmul(ld2(WB + 2 * u), b, br));
		}
		dft_torus(rt, Y, tmp, true);
		for (u = 0; u < n; u++) {
			y[(size_t)u * R2C2_MAX_PORTS + p] += Y[2 * u];
			y[(size_t)u * R2C2_MAX_PORTS + p + 1] += Y[2 * u + 1];
		}
	}
}

/**
 * r2c2_rtab_groups_conv() - y += sum_s wa[s] A_s + sum_d wb[d] B_d
 * @rt: tables
 * @wa: n weights of the source groups
 * @wb: n weights of the destination groups
 * @y: n * 8 links, added to
 * @scratch: r2c2_rtab_conv_scratch() doubles
 *
 * Equal to r2c2_rtab_group_axpy() over all 2n groups up to rounding
 * (~1e-16 of the largest term).
 *
 * Return: 0, or -EOPNOTSUPP when the tables have no spectra (not a torus,
 * or VLB not split).
 */
int r2c2_rtab_groups_conv(const struct r2c2_rtab *rt, const double *wa,
			  const double *wb, double *y, double *scratch)
{
	if (!rt->negk)
		return -EOPNOTSUPP;
	groups_conv(rt, rt->pspec, wa, wb, y, scratch);
	return 0;
}

/**
 * r2c2_rtab_groups_conv_sq() - y += sum_s wa[s] A_s^2 + sum_d wb[d] B_d^2
 * @rt: tables
 * @wa: n weights of the source groups
 * @wb: n weights of the destination groups
 * @y: n * 8 links, added to
 * @scratch: r2c2_rtab_conv_scratch() doubles
 *
 * As r2c2_rtab_groups_conv() with every group's coefficients squared.
 *
 * Return: 0, or -EOPNOTSUPP as r2c2_rtab_groups_conv().
 */
int r2c2_rtab_groups_conv_sq(const struct r2c2_rtab *rt, const double *wa,
			     const double *wb, double *y, double *scratch)
{
	if (!rt->negk)
		return -EOPNOTSUPP;
	groups_conv(rt, rt->pspec2, wa, wb, y, scratch);
	return 0;
}

/**
 * r2c2_rtab_groups_corr() - every group's dot product with y
 * @rt: tables
 * @y: n * 8 links
 * @ga: out, n: ga[s] = sum_l A_s(l) y(l)
 * @gb: out, n: gb[d] = sum_l B_d(l) y(l)
 * @scratch: r2c2_rtab_conv_scratch() doubles
 *
 * The adjoint of r2c2_rtab_groups_conv(): port by port, the cyclic
 * cross-correlation of y with A_0 (and B_0), whose DFT is the DFT of y
 * times the conjugate of A_0's. With Z = DFT(y(p) + i y(p + 1)) and
 * PA = DFT(A_0(p) + i A_0(p + 1)) (real parts packed in pairs, as the
 * spectra are kept), the sum over both ports of conj(DFT A_0) DFT y is
 * (Z(k) conj PA(k) + conj Z(-k) PA(-k)) / 2. Both results are real, so
 * one inverse DFT gives ga + i gb. 4 forward DFTs and one inverse: about
 * 0.1M instructions on 8x8x8, instead of 2n dot products of ~n * 4 terms.
 *
 * Return: 0, or -EOPNOTSUPP as r2c2_rtab_groups_conv().
 */
int r2c2_rtab_groups_corr(const struct r2c2_rtab *rt, const double *y,
			  double *ga, double *gb, double *scratch)
{
	unsigned int n = rt->n, u, p;
	double *Z = scratch, *S = scratch + 2 * n, *tmp = scratch + 6 * n;

	if (!rt->negk)
		return -EOPNOTSUPP;
	memset(S, 0, 2 * (size_t)n * sizeof(double));
	for (p = 0; p < R2C2_MAX_PORTS; p += 2) {
		const double *pa = rt->pspec[0][p / 2], *pb = rt->pspec[1][p / 2];

		if (!pa)
			continue;
		for (u = 0; u < n; u++) {
			Z[2 * u] = y[(size_t)u * R2C2_MAX_PORTS + p];
			Z[2 * u + 1] = y[(size_t)u * R2C2_MAX_PORTS + p + 1];
		}
		dft_torus(rt, Z, tmp, false);
		for (u = 0; u < n; u++) {
			unsigned int v = rt->negk[u];
			/* Z(k) = yr + i yi; conj Z(-k) = zr + i zi */
			double yr = Z[2 * u], yi = Z[2 * u + 1];
			double zr = Z[2 * v], zi = -Z[2 * v + 1];
			double sar, sai, sbr, sbi;

			sar = (yr * pa[2 * u] + yi * pa[2 * u + 1] +
			       zr * pa[2 * v] - zi * pa[2 * v + 1]) / 2;
			sai = (yi * pa[2 * u] - yr * pa[2 * u + 1] +
			       zr * pa[2 * v + 1] + zi * pa[2 * v]) / 2;
			sbr = (yr * pb[2 * u] + yi * pb[2 * u + 1] +
			       zr * pb[2 * v] - zi * pb[2 * v + 1]) / 2;
			sbi = (yi * pb[2 * u] - yr * pb[2 * u + 1] +
			       zr * pb[2 * v + 1] + zi * pb[2 * v]) / 2;
			/* S_A + i S_B */
			S[2 * u] += sar - sbi;
			S[2 * u + 1] += sai + sbr;
		}
	}
	dft_torus(rt, S, tmp, true);
	for (u = 0; u < n; u++) {
		ga[u] = S[2 * u];
		gb[u] = S[2 * u + 1];
	}
	return 0;
}

/* whether any of the n hop counts h is over max (R2C2_DIST_INF is) */
static bool any_hops_over(const u8 *h, size_t n, u8 max)
{
	typedef u8 v16u8 __attribute__((vector_size(16)));
	v16u8 over = { 0 }, x, lim;
	size_t i;
	u8 m = 0;

	memset(&lim, max, sizeof(lim));
	for (i = 0; i + 16 <= n; i += 16) {
		memcpy(&x, h + i, sizeof(x));
		over |= (v16u8)(x > lim);
	}
	for (; i < n; i++)
		m |= h[i] > max;
	for (i = 0; i < sizeof(over); i++)
		m |= over[i];
	return m;
}

/*
 * Whether every node u has as many links to each neighbour v as v has to
 * u: then the hops from u to v are the hops from v to u, and so is the
 * number of minimal paths (parallel links count apart), so that the
 * paths' dist is its own transpose and so is npaths.
 */
static bool links_both_ways(const struct r2c2_topo *t)
{
	const u16 *nbr = t->paths.nbr;
	size_t l;
	unsigned int k;

	for (l = 0; l < R2C2_NLINKS(t->n); l++) {
		size_t u = l / R2C2_MAX_PORTS, v = nbr[l];
		unsigned int there = 0, back = 0;

		if (v == R2C2_IDX_NONE)
			continue;
		for (k = 0; k < R2C2_MAX_PORTS; k++) {
			there += nbr[u * R2C2_MAX_PORTS + k] == v;
			back += nbr[v * R2C2_MAX_PORTS + k] == u;
		}
		if (there != back)
			return false;
	}
	return true;
}

/**
 * r2c2_rtab_new() - routing tables of a topology
 * @rtp: out
 * @t: topology; must outlive the tables
 *
 * A torus gets all its tables now; other topologies fill a cache in
 * r2c2_rtab_prepare().
 *
 * Return: 0, -ENOMEM, or -E2BIG for more than R2C2_ALLOC_MAX_NODES nodes.
 */
int r2c2_rtab_new(struct r2c2_rtab **rtp, const struct r2c2_topo *t)
{
	struct r2c2_rtab *rt = calloc(1, sizeof(*rt));
	int ret = 0;

	*rtp = NULL;
	if (t->n > R2C2_ALLOC_MAX_NODES) {
		free(rt);
		return -E2BIG;
	}
	if (!rt)
		return -ENOMEM;
	rt->t = t;
	rt->n = t->n;
	rt->sym = t->kind == R2C2_TOPO_TORUS;
	if (rt->sym) {
		ret = build_sym(rt);
	} else {
		size_t i, nn = (size_t)t->n * t->n;

		rt->gdense = calloc(2 * (size_t)t->n, sizeof(*rt->gdense));
		rt->from_own = !links_both_ways(t);
		rt->from = rt->from_own ? malloc(nn) : (u8 *)t->paths.dist;
		rt->legn = malloc(t->n * sizeof(*rt->legn));
		if (!rt->gdense || !rt->from || !rt->legn)
			ret = -ENOMEM;
		/* the transpose, in blocks of 64 x 64 to stay in the cache */
		for (i = 0; !ret && rt->from_own && i < t->n; i += 64) {
			size_t j, a, b;

			for (j = 0; j < t->n; j += 64)
				for (a = i; a < i + 64 && a < t->n; a++)
					for (b = j; b < j + 64 && b < t->n; b++)
						rt->from[b * t->n + a] =
							t->paths.dist[a * t->n + b];
		}
		/*
		 * every node reaches every other within half a route: then
		 * every intermediate of every pair is eligible, and
		 * graph_vlb_split() need not look at them pair by pair
		 */
		rt->vlb_all = !ret && !any_hops_over(t->paths.dist, nn,
						      R2C2_MAX_HOPS / 2);
	}
	if (ret) {
		r2c2_rtab_free(rt);
		return ret;
	}
	*rtp = rt;
	return 0;
}

#define STR_(x)	#x
#define STR(x)	STR_(x)

const char *r2c2_rtab_strerror(int err)
{
	if (err == -E2BIG)
		return "more nodes than the allocator takes (" STR(R2C2_ALLOC_MAX_NODES) ")";
	return strerror(-err);
}

static void base_put(struct rtab_base *b);

void r2c2_rtab_free(struct r2c2_rtab *rt)
{
	unsigned int p, i, ng;

	if (!rt)
		return;
	for (p = 0; p < __R2C2_RP_MAX; p++) {
		if (!rt->off[p])
			continue;
		for (i = 0; i < rt->n; i++)
			vec_free(&rt->off[p][i]);
		free(rt->off[p]);
		free(rt->onode[p]);
		free(rt->oport[p]);
		free(rt->obyte[p]);
		free(rt->obcoef[p]);
		free(rt->obstart[p]);
		free(rt->ostart[p]);
	}
	ng = rt->sym ? 2 : 2 * (unsigned int)rt->n;
	if (rt->grp)		/* a torus's A_0 and B_0 */
		for (i = 0; i < 2; i++)
			vec_free(&rt->grp[i]);
	if (rt->gdense)
		for (i = 0; i < ng; i++)
			dense_put(rt->gdense[i]);
	free(rt->grp);
	free(rt->gdense);
	free(rt->scratch);
	if (rt->from_own)
		free(rt->from);
	free(rt->legn);
	free(rt->gs.acc);
	free(rt->gs.order);
	free(rt->gs.sig);
	base_put(rt->base);
	for (i = 0; i < rt->htcap; i++)
		if (rt->ht[i].key)
			vec_free(&rt->ht[i].v);
	free(rt->ht);
	free(rt->tr);
	free(rt->rel);
	free(rt->vlb_grp);
	for (i = 0; i < R2C2_MAX_PORTS; i++) {
		if (i < R2C2_MAX_PORTS / 2) {
			free(rt->pspec[0][i]);
			free(rt->pspec[1][i]);
			free(rt->pspec2[0][i]);
			free(rt->pspec2[1][i]);
		}
	}
	for (i = 0; i < R2C2_MAX_DIMS; i++) {
		free(rt->tw[i]);
		free(rt->tw2[i]);
		free(rt->rev[i]);
	}
	free(rt->negk);
	for (p = 0; p < __R2C2_RP_MAX; p++)
		for (i = 0; i < R2C2_MAX_PORTS; i++) {
			free(rt->lmask[p][i]);
			free(rt->smask[p][i]);
		}
	free(rt);
}

/**
 * r2c2_rtab_clear() - drop a graph's cached pair weights
 * @rt: tables
 *
 * Frees every pair vector and VLB group r2c2_rtab_prepare() computed;
 * the next prepare of a pair computes it again. On a torus, its WLB pairs.
 * Not thread-safe: call when no other thread reads @rt.
 *
 * Return: bytes freed (as r2c2_rtab_memory() counted them).
 */
size_t r2c2_rtab_clear(struct r2c2_rtab *rt)
{
	size_t freed = 0, i;
	unsigned int p;

	/* a torus's tables: its WLB pairs only */
	for (i = 0; !rt->sym && i < 2 * (size_t)rt->n; i++) {
		dense_put(rt->gdense[i]);
		rt->gdense[i] = NULL;
	}
	for (i = 0; i < rt->htcap; i++)
		if (rt->ht[i].key)
			vec_free(&rt->ht[i].v);
	free(rt->ht);
	rt->ht = NULL;
	rt->htcap = rt->htcnt = 0;
	for (p = 0; p < __R2C2_RP_MAX; p++) {
		freed += rt->pair_bytes[p];
		rt->pair_bytes[p] = 0;
	}
	return freed;
}

const u64 *r2c2_rtab_lmask(const struct r2c2_rtab *rt, u8 rproto,
			   unsigned int port, unsigned int *mw, const u64 **smask)
{
	bool ok = rt->sym && rproto < __R2C2_RP_MAX && port < R2C2_MAX_PORTS;

	*mw = rt->mw;
	*smask = ok ? rt->smask[rproto][port] : NULL;
	return ok ? rt->lmask[rproto][port] : NULL;
}

const u16 *r2c2_rtab_rel(const struct r2c2_rtab *rt)
{
	return rt->sym ? rt->rel : NULL;
}

const struct r2c2_vec *r2c2_rtab_offvec(const struct r2c2_rtab *rt, u8 rproto,
					const u16 **tr)
{
	*tr = rt->tr;
	if (!rt->sym || rproto >= __R2C2_RP_MAX || rproto == R2C2_RP_WLB ||
	    (rproto == R2C2_RP_VLB && (rt->vlb_split || rt->vlb_grp)))
		return NULL;
	return rt->off[rproto];
}

static u64 pair_key(u8 p, u16 s, u16 d)
{
	return ((u64)p << 32 | (u64)s << 16 | d) + 1;
}

/* where key's probe starts in a table of cap (a power of two) slots */
static size_t pair_slot(u64 key, size_t cap)
{
	return (key * 0x9E3779B97F4A7C15ull >> 20) & (cap - 1);
}

static struct pair_ent *pair_find(const struct r2c2_rtab *rt, u64 key)
{
	size_t i;

	if (!rt->htcap)
		return NULL;
	i = pair_slot(key, rt->htcap);
	for (;; i = (i + 1) & (rt->htcap - 1)) {
		if (rt->ht[i].key == key)
			return &rt->ht[i];
		if (!rt->ht[i].key)
			return NULL;
	}
}

/* room for cnt pairs in all, the table at most half full; -ENOMEM */
static int pair_reserve(struct r2c2_rtab *rt, size_t cnt)
{
	size_t ncap = rt->htcap ? rt->htcap : 256, i, j;
	struct pair_ent *old = rt->ht, *nh;

	while (cnt * 2 > ncap)
		ncap *= 2;
	if (ncap == rt->htcap)
		return 0;
	nh = calloc(ncap, sizeof(*nh));
	if (!nh)
		return -ENOMEM;
	rt->ht = nh;
	for (j = 0; j < rt->htcap; j++) {
		if (!old[j].key)
			continue;
		i = pair_slot(old[j].key, ncap);
		while (nh[i].key)
			i = (i + 1) & (ncap - 1);
		nh[i] = old[j];
	}
	rt->htcap = ncap;
	free(old);
	return 0;
}

static int pair_insert(struct r2c2_rtab *rt, u64 key, struct r2c2_vec *v,
		       bool base)
{
	size_t i;

	if (pair_reserve(rt, rt->htcnt + 1))
		return -ENOMEM;
	i = pair_slot(key, rt->htcap);
	while (rt->ht[i].key)
		i = (i + 1) & (rt->htcap - 1);
	rt->ht[i].key = key;
	rt->ht[i].v = *v;
	rt->ht[i].base = base;
	rt->htcnt++;
	return 0;
}

static bool graph_vlb_split(const struct r2c2_rtab *rt, u16 s, u16 d)
{
	unsigned int m;

	if (rt->vlb_all)
		return true;
	for (m = 0; m < rt->n; m++)
		if (!r2c2_vlb_ok(&rt->t->paths, s, (u16)m, d))
			return false;
	return true;
}

/*
 * The nodes by decreasing distance (dist[u], R2C2_DIST_INF for none) into
 * order; -EHOSTUNREACH when one is not reached. A counting sort.
 */
static int by_distance(const u8 *dist, u16 n, u16 *order)
{
	unsigned int start[R2C2_DIST_INF + 1], u, k, sum = 0, far = 0;
	u8 m = 0;

	for (u = 0; u < n; u++)
		m = dist[u] > m ? dist[u] : m;
	if (m == R2C2_DIST_INF)
		return -EHOSTUNREACH;
	far = m + 1u;
	memset(start, 0, far * sizeof(*start));
	for (u = 0; u < n; u++)
		start[dist[u]]++;
	for (k = far; k-- > 0;) {
		unsigned int c = start[k];

		start[k] = sum;
		sum += c;
	}
	for (u = 0; u < n; u++)
		order[start[dist[u]]++] = (u16)u;
	return 0;
}

/*
 * The ports of u (nb: its row of the paths' nbr) whose neighbour is at
 * dist next, as a bit mask. Without branches: which ports those are is
 * as good as random, and a mispredicted branch per port cost more than
 * the groups' arithmetic.
 */
static inline unsigned int next_ports(const u16 *nb, const u8 *dist, u16 u,
				      u8 next)
{
	unsigned int k, m = 0;

	for (k = 0; k < R2C2_MAX_PORTS; k++) {
		u16 x = nb[k] == R2C2_IDX_NONE ? u : nb[k];

		m |= (unsigned int)(dist[x] == next) << k;
	}
	return m;
}

/*
 * B_d: the RPS legs of every other node to d, in one pass over the nodes
 * by decreasing distance to d. A leg's share at u goes on over u's next
 * hops in the proportions of r2c2_next_hops() (the path counts to d of
 * the minimal ones), whatever node it started from, so the legs' shares
 * can be added up as they go: each node puts its own 1 in, and what
 * reached it moves on. Every link's weight is written, 0 off the legs.
 * elig (NULL: every node): the legs only from the nodes u with elig[u].
 */
static int group_to(const struct r2c2_paths *p, u16 d, double *w,
		    const struct group_scratch *gs, const u8 *elig)
{
	const u8 *dist = p->dist + (size_t)d * p->n;
	const u32 *cnt = p->npaths + (size_t)d * p->n;
	double *flow = gs->acc;
	u16 *order = gs->order;
	unsigned int i;
	int ret;

	memset(flow, 0, p->n * sizeof(*flow));
	ret = by_distance(dist, p->n, order);
	for (i = 0; !ret && i < p->n; i++) {
		u16 u = order[i];
		const u16 *nb = p->nbr + (size_t)u * R2C2_MAX_PORTS;
		double *wu = w + (size_t)u * R2C2_MAX_PORTS;
		u8 next = dist[u] - 1;
		u64 total = 0;

		unsigned int m = u == d ? 0 : next_ports(nb, dist, u, next), b;
		double fu = flow[u] + (elig ? elig[u] : 1);

		memset(wu, 0, R2C2_MAX_PORTS * sizeof(*wu));
		for (b = m; b; b &= b - 1)
			total += cnt[nb[__builtin_ctz(b)]];
		for (b = m; b; b &= b - 1) {
			u16 v = nb[__builtin_ctz(b)];
			double f = fu * (double)cnt[v] / (double)total;

			wu[__builtin_ctz(b)] = f;
			flow[v] += f;
		}
	}
	return ret;
}

/*
 * A_s: the RPS legs of s to every other node, in one pass (Brandes'
 * accumulation): a leg to m crosses link u -> v, minimal from s, with
 * probability sigma(s, u) sigma(v, m) / sigma(s, m) (RPS is uniform over
 * minimal paths; sigma counts them), and the sum over m of these is
 * sigma(s, u) q(v), q(v) = (1 + delta(v)) / sigma(s, v), delta(v) being
 * the sum over v's own minimal links onwards, taken by decreasing
 * distance from s. Every link's weight is written, 0 off the legs.
 * elig (NULL: every node): the legs only to the nodes m with elig[m].
 * sym: the counts are their own transpose (links_both_ways()), so that
 * those from s are a row. -EAGAIN where a path count saturated
 * (R2C2_NPATHS_MAX): then the legs one by one.
 */
static int group_from(const struct r2c2_paths *p, u16 s, const u8 *from_s,
		      bool sym, double *w, const struct group_scratch *gs,
		      const u8 *elig)
{
	const u8 *dist = from_s;
	double *sig = gs->sig;
	double *q = gs->acc;
	u16 *order = gs->order;
	unsigned int i, u;
	u32 sat = 0;
	int ret;

	if (sym) {
		const u32 *row = p->npaths + (size_t)s * p->n;

		for (u = 0; u < p->n; u++) {
			sig[u] = row[u];
			sat |= row[u] >= R2C2_NPATHS_MAX;
		}
	} else {
		/* the counts from s are a column: read them into a row once */
		const u32 *col = p->npaths + s;

		for (u = 0; u < p->n; u++) {
			sig[u] = col[(size_t)u * p->n];
			sat |= col[(size_t)u * p->n] >= R2C2_NPATHS_MAX;
		}
	}
	if (sat)
		return -EAGAIN;
	/* q is read where it is not a next node's, then not used */
	memset(q, 0, p->n * sizeof(*q));
	ret = by_distance(dist, p->n, order);
	for (i = 0; !ret && i < p->n; i++) {
		u16 v = order[i];
		const u16 *nb = p->nbr + (size_t)v * R2C2_MAX_PORTS;
		double *wv = w + (size_t)v * R2C2_MAX_PORTS;
		double sv = sig[v], delta = 0;
		u8 next = dist[v] + 1;

		unsigned int b;

		memset(wv, 0, R2C2_MAX_PORTS * sizeof(*wv));
		for (b = next_ports(nb, dist, v, next); b; b &= b - 1) {
			/* x is farther: its q was set before */
			double c = sv * q[nb[__builtin_ctz(b)]];

			wv[__builtin_ctz(b)] = c;
			delta += c;
		}
		q[v] = ((elig ? elig[v] : 1) + delta) / sv;
	}
	return ret;
}

/* what group_from() and group_to() walk with, made once; -ENOMEM */
static int group_scratch(struct r2c2_rtab *rt)
{
	if (rt->gs.acc)
		return 0;
	rt->gs.acc = malloc(rt->n * sizeof(*rt->gs.acc));
	rt->gs.order = malloc(rt->n * sizeof(*rt->gs.order));
	rt->gs.sig = malloc(rt->n * sizeof(*rt->gs.sig));
	if (!rt->gs.acc || !rt->gs.order || !rt->gs.sig) {
		free(rt->gs.acc);
		free(rt->gs.order);
		free(rt->gs.sig);
		memset(&rt->gs, 0, sizeof(rt->gs));
		return -ENOMEM;
	}
	return 0;
}

/*
 * A graph's VLB pair s -> d that cannot be split (some intermediate's
 * route would pass R2C2_MAX_HOPS): its weights, as r2c2_link_weights_add()
 * gives them, in two passes instead of two legs per intermediate: s's legs
 * to the eligible intermediates (group_from() restricted to them) plus
 * their legs to d (group_to() restricted), over their number. At 4,096
 * nodes that is two passes over the links rather than 8,000 legs walked.
 * Saturated path counts, or a graph that does not reach every node from
 * s and d: the legs one by one.
 */
static int vlb_pair(struct r2c2_rtab *rt, u16 s, u16 d, struct r2c2_vec *v)
{
	const struct r2c2_paths *p = &rt->t->paths;
	size_t nl = R2C2_NLINKS(rt->n), l;
	double *wa = malloc(2 * nl * sizeof(*wa)), *wb = wa + nl;
	u8 *elig = malloc(rt->n);
	unsigned int m, cnt = 0;
	int ret = -ENOMEM;

	if (!wa || !elig || group_scratch(rt))
		goto out;
	for (m = 0; m < rt->n; m++) {
		elig[m] = r2c2_vlb_ok(p, s, (u16)m, d);
		cnt += elig[m];
	}
	/* none eligible: as r2c2_link_weights_add() says */
	ret = cnt ? group_from(p, s, rt->from + (size_t)s * rt->n,
			       !rt->from_own, wa, &rt->gs, elig) : -EAGAIN;
	if (!ret)
		ret = group_to(p, d, wb, &rt->gs, elig);
	/* saturated counts, or a node out of reach (by_distance()) */
	if (ret == -EAGAIN || ret == -EHOSTUNREACH) {
		memset(wa, 0, nl * sizeof(*wa));
		ret = r2c2_link_weights_add(p, R2C2_RP_VLB, s, d, 1.0, wa);
	} else if (!ret) {
		for (l = 0; l < nl; l++)
			wa[l] = (wa[l] + wb[l]) / cnt;
	}
	if (!ret)
		ret = vec_from_dense(v, wa, nl);
out:
	free(wa);
	free(elig);
	return ret;
}

/* graph: A_s (g < n) or B_d (g >= n) */
static int graph_group(struct r2c2_rtab *rt, u32 g)
{
	const struct r2c2_paths *p = &rt->t->paths;
	size_t nl = R2C2_NLINKS(rt->n);
	unsigned int m, x = g % rt->n;
	double *w;
	int ret;

	if (rt->gdense[g])
		return 0;
	if (group_scratch(rt))
		return -ENOMEM;
	w = dense_new(nl, false);	/* the groups write every weight */
	if (!w)
		return -ENOMEM;
	ret = g < rt->n ? group_from(p, (u16)x, rt->from + (size_t)x * rt->n,
				     !rt->from_own, w, &rt->gs, NULL) :
			  group_to(p, (u16)x, w, &rt->gs, NULL);
	if (ret == -EAGAIN) {	/* saturated path counts: leg by leg */
		memset(w, 0, nl * sizeof(*w));
		ret = 0;
		for (m = 0; !ret && m < rt->n; m++)
			if (m != x)
				ret = r2c2_link_weights_add(p, R2C2_RP_RPS, (u16)x,
							    (u16)m, 1.0, w);
	}
	if (ret) {
		dense_put(w);
		return ret;
	}
	rt->gdense[g] = w;
	rt->pair_bytes[R2C2_RP_VLB] += group_bytes(nl, NULL);
	return 0;
}

/*
 * A minimal leg walked hop by hop (r2c2_link_weights_add()) into the
 * scratch, zeroed again by vec_from_leg(): where its path counts
 * saturated, so that leg_vec() cannot read it off them.
 */
static int leg_walked(struct r2c2_rtab *rt, u8 rproto, u16 s, u16 d,
		      struct r2c2_vec *v)
{
	const struct r2c2_paths *p = &rt->t->paths;
	size_t nl = R2C2_NLINKS(rt->n);
	double *w;
	int ret;

	if (!rt->scratch && !(rt->scratch = calloc(nl, sizeof(double))))
		return -ENOMEM;
	w = rt->scratch;
	ret = r2c2_link_weights_add(p, rproto, s, d, 1.0, w);
	if (!ret)
		ret = vec_from_leg(v, w, p, rt->from + (size_t)s * rt->n,
				   rt->legn, s, d);
	if (ret)
		memset(w, 0, nl * sizeof(*w));
	return ret;
}

static bool leg_kept(const struct r2c2_paths *po, const struct r2c2_paths *pn,
		     const struct link_change *c, size_t nc, u16 s, u16 d);

/*
 * A torus's WLB pair, made when it is first wanted, into the cache a
 * graph's pairs go to: WLB's vectors span many links (all 511 offsets
 * of 8x8x8 take 10.7 MB, of 16x16x16 over 400 MB) and few flows use it.
 * Its links are the pair's own, not translated (its fv has no tr), as a
 * graph's are; r2c2_rtab_clear() frees them.
 */
static int sym_wlb(struct r2c2_rtab *rt, u16 s, u16 d)
{
	u64 key = pair_key(R2C2_RP_WLB, s, d);
	struct r2c2_vec v;
	int ret;

	if (pair_find(rt, key))
		return 0;
	ret = wlb_pair(rt, s, d, &v);
	if (ret)
		return ret;
	ret = pair_insert(rt, key, &v, false);
	if (ret)
		vec_free(&v);
	else
		rt->pair_bytes[R2C2_RP_WLB] += pair_ent_bytes(&v);
	return ret;
}

/**
 * r2c2_rtab_prepare() - make the weights of one pair available
 * @rt: tables
 * @s: source
 * @d: destination
 * @rproto: enum r2c2_rproto
 *
 * Not thread-safe: call before sharing @rt. A no-op on a torus, but for
 * WLB, whose pairs a torus's tables make as they are wanted.
 *
 * Return: 0, -EINVAL (bad node, protocol, or @s == @d), -EHOSTUNREACH
 * or -ENOMEM.
 */
int r2c2_rtab_prepare(struct r2c2_rtab *rt, u16 s, u16 d, u8 rproto)
{
	const struct r2c2_paths *p = &rt->t->paths;
	struct r2c2_vec v;
	bool torus;
	u64 key;
	int ret;

	if (s >= rt->n || d >= rt->n || s == d || rproto >= __R2C2_RP_MAX)
		return -EINVAL;
	if (p->dist[(size_t)d * rt->n + s] == R2C2_DIST_INF)
		return -EHOSTUNREACH;
	if (rt->sym)
		return rproto == R2C2_RP_WLB ? sym_wlb(rt, s, d) : 0;
	if (rproto == R2C2_RP_VLB && graph_vlb_split(rt, s, d)) {
		ret = graph_group(rt, s);
		return ret ? ret : graph_group(rt, rt->n + (u32)d);
	}
	key = pair_key(rproto, s, d);
	if (pair_find(rt, key))
		return 0;
	torus = rp_leg(rproto) && rt->base &&
		leg_kept(&rt->base->p, p, rt->bc, rt->bnc, s, d);
	if (torus) {
		/* a leg the graph has as the torus had it: the torus's, no vector */
		memset(&v, 0, sizeof(v));
		ret = 0;
	} else if (rproto == R2C2_RP_WLB && p->ndims) {
		ret = wlb_pair(rt, s, d, &v);
	} else if (rproto != R2C2_RP_VLB) {
		/*
		 * a minimal leg, off the path counts where none saturated;
		 * WLB where the graph is no torus is RPS (common/paths.c)
		 */
		u8 leg = rproto == R2C2_RP_WLB ? R2C2_RP_RPS : rproto;

		ret = leg_vec(p, rt->from + (size_t)s * rt->n, rt->legn,
			      leg, s, d, &v);
		if (ret == -EAGAIN)
			ret = leg_walked(rt, leg, s, d, &v);
	} else {
		ret = vlb_pair(rt, s, d, &v);
	}
	if (!ret) {
		ret = pair_insert(rt, key, &v, torus);
		if (ret) {
			vec_free(&v);
		} else {
			rt->pair_bytes[rproto] += pair_ent_bytes(&v);
			rt->from_base += torus;
		}
	}
	return ret;
}

/**
 * r2c2_rtab_reserve() - room in a graph's cache for more pairs at once
 * @rt: tables
 * @more: how many pairs are about to be prepared (at most)
 *
 * The cache's hash table grows once for all of them, not by doubling as
 * they come (r2c2d's round reserves for the pairs it prepares). A no-op
 * on a torus. Not thread-safe, as r2c2_rtab_prepare().
 *
 * Return: 0, or -ENOMEM (nothing changed: the pairs can still be
 * prepared).
 */
int r2c2_rtab_reserve(struct r2c2_rtab *rt, size_t more)
{
	return rt->sym ? 0 : pair_reserve(rt, rt->htcnt + more);
}

/* hops from x to y (R2C2_DIST_INF: none) */
static unsigned int hops(const struct r2c2_paths *p, u16 x, u16 y)
{
	return p->dist[(size_t)y * p->n + x];
}

/* whether link a -> b is on a minimal path from s to d in p's graph */
static bool on_minimal(const struct r2c2_paths *p, u16 s, u16 a, u16 b,
		       u16 d)
{
	unsigned int sa, bd, sd;

	if (b == R2C2_IDX_NONE || d == R2C2_IDX_NONE)
		return false;
	sa = hops(p, s, a);
	bd = hops(p, b, d);
	sd = hops(p, s, d);
	return sa != R2C2_DIST_INF && bd != R2C2_DIST_INF &&
	       sd != R2C2_DIST_INF && sa + 1 + bd == sd;
}

/*
 * Whether a minimal leg s -> d is the same in both graphs: no changed link
 * is on one of its minimal paths, in the graph that has the link. Then
 * both graphs have the same minimal paths from s to d (those of the links
 * they share), and the same path counts behind each: every minimal path
 * from a node of them to d is the tail of one from s.
 */
static bool leg_kept(const struct r2c2_paths *po, const struct r2c2_paths *pn,
		     const struct link_change *c, size_t nc, u16 s, u16 d)
{
	size_t i;

	if (hops(po, s, d) != hops(pn, s, d) || hops(po, s, d) == R2C2_DIST_INF)
		return false;
	for (i = 0; i < nc; i++)
		if (on_minimal(po, s, c[i].a, c[i].b_old, d) ||
		    on_minimal(pn, s, c[i].a, c[i].b_new, d))
			return false;
	return true;
}

/*
 * Whether VLB group g (A_s, s's legs to every node; B_d, every node's legs
 * to d) is the same in both graphs: no changed link a -> b is on a minimal
 * path from s (s reaches b one hop further than a: the leg s -> b) or to d
 * (a is one hop further from d than b: the leg a -> d), in the graph that
 * has it. A link whose far end changed port only (a link cut one way
 * leaves the way back without its partner) changes no group.
 */
static bool group_kept(const struct r2c2_paths *po,
		       const struct r2c2_paths *pn,
		       const struct link_change *c, size_t nc, u32 g)
{
	u16 x = (u16)(g % po->n);
	bool from = g < po->n;
	size_t i;

	for (i = 0; i < nc; i++) {
		const struct r2c2_paths *p[2] = { po, pn };
		const u16 b[2] = { c[i].b_old, c[i].b_new };
		unsigned int k;

		/* its far-end port alone: RPS legs do not depend on it */
		if (b[0] == b[1])
			continue;
		for (k = 0; k < 2; k++)
			if (from ? on_minimal(p[k], x, c[i].a, b[k], b[k]) :
				   on_minimal(p[k], c[i].a, c[i].a, b[k], x))
				return false;
	}
	return true;
}

/*
 * The links of pn's graph that are not those of po's (c, at most
 * CARRY_MAX_CHANGES); -1 when there are more.
 */
static long link_changes(const struct r2c2_paths *po,
			 const struct r2c2_paths *pn, struct link_change *c)
{
	size_t nl = R2C2_NLINKS(pn->n), nc = 0, i;

	for (i = 0; i < nl; i++) {
		if (po->nbr[i] == pn->nbr[i] &&
		    (po->nbr[i] == R2C2_IDX_NONE ||
		     po->nbr_port[i] == pn->nbr_port[i]))
			continue;
		if (nc == CARRY_MAX_CHANGES)
			return -1;
		c[nc].a = (u16)(i / R2C2_MAX_PORTS);
		c[nc].b_old = po->nbr[i];
		c[nc].b_new = pn->nbr[i];
		nc++;
	}
	return (long)nc;
}

/* a malloc'd copy of n bytes at p; NULL: no memory */
static void *dup_mem(const void *p, size_t n)
{
	void *c = malloc(n ? n : 1);

	if (c && n)
		memcpy(c, p, n);
	return c;
}

static void base_put(struct rtab_base *b)
{
	unsigned int q, r;

	if (!b || atomic_fetch_sub_explicit(&b->ref, 1, memory_order_acq_rel) != 1)
		return;
	for (q = 0; q < 2; q++) {
		for (r = 0; b->off[q] && r < b->p.n; r++)
			vec_free(&b->off[q][r]);
		free(b->off[q]);
		free(b->onode[q]);
		free(b->oport[q]);
		free(b->ostart[q]);
		free(b->obyte[q]);
		free(b->obcoef[q]);
		free(b->obstart[q]);
	}
	free(b->tr);
	free(b->rel);
	free(b->p.dist);
	free(b->p.nbr);
	free(b->p.nbr_port);
	free(b);
}

/* what a graph's tables keep of a torus's tables t; NULL: no memory */
static struct rtab_base *base_new(const struct r2c2_rtab *t)
{
	const struct r2c2_paths *tp = &t->t->paths;
	size_t n = t->n, nn = n * n, nl = R2C2_NLINKS(n);
	struct rtab_base *b = calloc(1, sizeof(*b));
	unsigned int q, r;

	if (!b)
		return NULL;
	atomic_init(&b->ref, 1);
	b->p.n = t->n;
	b->p.dist = malloc(nn);
	b->p.nbr = malloc(nl * sizeof(*b->p.nbr));
	b->p.nbr_port = malloc(nl);
	b->tr = malloc(nn * sizeof(*b->tr));
	b->rel = malloc(nn * sizeof(*b->rel));
	for (q = 0; q < 2; q++)
		b->off[q] = calloc(n, sizeof(*b->off[q]));
	if (!b->p.dist || !b->p.nbr || !b->p.nbr_port || !b->tr || !b->rel ||
	    !b->off[0] || !b->off[1])
		goto fail;
	memcpy(b->p.dist, tp->dist, nn);
	memcpy(b->p.nbr, tp->nbr, nl * sizeof(*b->p.nbr));
	memcpy(b->p.nbr_port, tp->nbr_port, nl);
	memcpy(b->tr, t->tr, nn * sizeof(*b->tr));
	memcpy(b->rel, t->rel, nn * sizeof(*b->rel));
	for (q = 0; q < 2; q++) {
		u32 tot = t->ostart[q][n], otot;

		for (r = 0; r < n; r++)
			vec_share(&b->off[q][r], &t->off[q][r]);
		b->ostart[q] = dup_mem(t->ostart[q], (n + 1) * sizeof(u32));
		b->onode[q] = dup_mem(t->onode[q], (tot + 1) * sizeof(u16));
		b->oport[q] = dup_mem(t->oport[q], tot + 1);
		if (!b->ostart[q] || !b->onode[q] || !b->oport[q])
			goto fail;
		if (!t->obyte[q])
			continue;
		otot = t->obstart[q][n] + 8;	/* build_nodeport()'s */
		b->obstart[q] = dup_mem(t->obstart[q], (n + 1) * sizeof(u32));
		b->obyte[q] = dup_mem(t->obyte[q], otot * sizeof(u16));
		b->obcoef[q] = dup_mem(t->obcoef[q], otot * sizeof(double));
		if (!b->obstart[q] || !b->obyte[q] || !b->obcoef[q])
			goto fail;
	}
	b->obhi = t->obhi;
	return b;
fail:
	base_put(b);
	return NULL;
}

/* rt, a graph's tables, departs from b's torus: false past CARRY_MAX_CHANGES */
static bool base_attach(struct r2c2_rtab *rt, struct rtab_base *b)
{
	long nc;

	if (b->p.n != rt->n)
		return false;
	nc = link_changes(&b->p, &rt->t->paths, rt->bc);
	if (nc < 0)
		return false;
	rt->bnc = (size_t)nc;
	atomic_fetch_add_explicit(&b->ref, 1, memory_order_relaxed);
	rt->base = b;
	return true;
}

/**
 * r2c2_rtab_carry() - take over what a graph change left as it was
 * @rt: a graph's new tables
 * @old: the tables they replace, of a graph of as many nodes
 *
 * Every pair of @old's cache whose minimal leg (RPS, DOR) no changed link
 * is on (leg_kept()), and every VLB group no changed link is in
 * (group_kept()), is taken into @rt, which does not compute it again: its
 * vector is shared (freed with the last tables that hold it), a group's
 * dense weights copied. A link changed when it leads to another node or
 * port, or is gone or new. The weights taken are those @rt would compute,
 * bit for bit: the same minimal paths and path counts, walked the same
 * way. VLB pairs that are not split are not taken.
 *
 * When @old is a torus's tables (the first change of a torus) there is no
 * cache to copy: @rt keeps what the torus's minimal legs need instead
 * (struct rtab_base), and r2c2_rtab_prepare() marks every RPS or DOR leg
 * no link changed since the torus is on as the torus's: no vector of its
 * own, r2c2_rtab_fv() gives the torus's with its translation, and the
 * allocators walk it as on the torus. Tables that follow tables with
 * such a torus keep it too, with the links changed since the torus (at
 * most CARRY_MAX_CHANGES of them). The two ways to a leg's weights, the
 * graph's and the torus's, give the same values up to rounding (the
 * order of a sum).
 *
 * @old is only read (but for its vectors' counts of holders, atomic):
 * other threads may read it meanwhile, none may write it (prepare,
 * clear); none may use @rt.
 *
 * Return: the pairs and groups taken (0 when @rt is a torus's, was
 * carried into already, @old is a torus's, the node counts differ, or
 * more than CARRY_MAX_CHANGES links changed).
 */
size_t r2c2_rtab_carry(struct r2c2_rtab *rt, const struct r2c2_rtab *old)
{
	const struct r2c2_paths *pn = &rt->t->paths, *po = &old->t->paths;
	struct link_change c[CARRY_MAX_CHANGES];
	size_t nl = R2C2_NLINKS(rt->n), nc, moved = 0, i;
	long r;

	if (rt->sym || rt->n != old->n || rt->base)
		return 0;
	if (old->sym) {		/* the torus's legs, when wanted */
		struct rtab_base *b = base_new(old);

		if (b)
			base_attach(rt, b);
		base_put(b);
		return 0;
	}
	if (old->base)
		base_attach(rt, old->base);
	r = link_changes(po, pn, c);
	if (r < 0)
		return 0;
	nc = (size_t)r;
	/* no memory: the rest is computed again when wanted */
	for (i = 0; i < 2 * (size_t)rt->n; i++) {
		if (!old->gdense[i] || rt->gdense[i] ||
		    !group_kept(po, pn, c, nc, (u32)i))
			continue;
		rt->gdense[i] = dense_get(old->gdense[i]);
		rt->pair_bytes[R2C2_RP_VLB] += group_bytes(nl, NULL);
		moved++;
	}
	/* room for all at once (else the table doubles as they come) */
	if (pair_reserve(rt, rt->htcnt + old->htcnt))
		return moved;
	for (i = 0; i < old->htcap; i++) {
		const struct pair_ent *e = &old->ht[i];
		u64 k = e->key - 1;
		u8 proto = (u8)(k >> 32);
		u16 s = (u16)(k >> 16), d = (u16)k;
		struct r2c2_vec v;
		bool leg;

		/*
		 * the torus's legs: rt has the torus too, and tells them
		 * again; WLB is RPS's leg where neither graph is a torus
		 */
		leg = rp_leg(proto) || (proto == R2C2_RP_WLB && !po->ndims &&
					!pn->ndims);
		if (!e->key || e->base || !leg ||
		    pair_find(rt, e->key) || !leg_kept(po, pn, c, nc, s, d))
			continue;
		vec_share(&v, &e->v);
		if (pair_insert(rt, e->key, &v, false)) {
			vec_free(&v);
			return moved;
		}
		rt->pair_bytes[proto] += pair_ent_bytes(&v);
		moved++;
	}
	return moved;
}

size_t r2c2_rtab_from_torus(const struct r2c2_rtab *rt, bool *has)
{
	if (has)
		*has = rt->base != NULL;
	return rt->from_base;
}

/**
 * r2c2_rtab_fv() - how to walk the weights of a flow
 * @rt: tables
 * @s: source
 * @d: destination
 * @rproto: protocol
 * @fv: out
 *
 * Return: 0, -EINVAL or -ENOENT (graph pair not prepared).
 */
int r2c2_rtab_fv(const struct r2c2_rtab *rt, u16 s, u16 d, u8 rproto,
		 struct r2c2_fv *fv)
{
	unsigned int n = rt->n;
	const struct pair_ent *e;

	memset(fv, 0, sizeof(*fv));
	if (s >= n || d >= n || s == d || rproto >= __R2C2_RP_MAX)
		return -EINVAL;
	if (rt->sym && rproto == R2C2_RP_WLB) {
		/* a pair of its own (sym_wlb()), not translated */
		e = pair_find(rt, pair_key(rproto, s, d));
		if (!e)
			return -ENOENT;
		fv->nv = 1;
		fv->scale[0] = 1.0;
		fv->v[0] = &e->v;
		return 0;
	}
	if (rt->sym) {
		if (rproto == R2C2_RP_VLB && (rt->vlb_split ||
		    (rt->vlb_grp && rt->vlb_grp[rt->rel[(size_t)s * n + d]]))) {
			fv->nv = 2;
			fv->split = true;
			fv->v[0] = &rt->grp[0];
			fv->v[1] = &rt->grp[1];
			fv->tr[0] = rt->tr + (size_t)s * n;
			fv->tr[1] = rt->tr + (size_t)d * n;
			fv->scale[0] = fv->scale[1] = 1.0 / n;
			fv->group[0] = s;
			fv->group[1] = n + d;
			return 0;
		}
		fv->nv = 1;
		fv->off = rt->rel[(size_t)s * n + d];
		fv->v[0] = &rt->off[rproto][fv->off];
		fv->tr[0] = rt->tr + (size_t)s * n;
		fv->scale[0] = 1.0;
		return 0;
	}
	if (rproto == R2C2_RP_VLB && rt->gdense[s] && rt->gdense[n + d] &&
	    graph_vlb_split(rt, s, d)) {
		fv->nv = 2;
		fv->split = true;
		fv->scale[0] = fv->scale[1] = 1.0 / n;
		fv->group[0] = s;
		fv->group[1] = n + d;
		return 0;
	}
	e = pair_find(rt, pair_key(rproto, s, d));
	if (!e)
		return -ENOENT;
	fv->nv = 1;
	fv->scale[0] = 1.0;
	if (e->base) {		/* the torus's vector, translated */
		fv->off = rt->base->rel[(size_t)s * n + d];
		fv->v[0] = &rt->base->off[rproto][fv->off];
		fv->tr[0] = rt->base->tr + (size_t)s * n;
		return 0;
	}
	fv->v[0] = &e->v;
	return 0;
}

/**
 * r2c2_rtab_prepared() - whether r2c2_rtab_prepare() was done for a pair
 * @rt: tables
 * @src: source
 * @dst: destination
 * @rproto: enum r2c2_rproto
 *
 * Return: true when the pair's weights are there (every valid pair of a
 * torus); false for an invalid pair.
 */
bool r2c2_rtab_prepared(const struct r2c2_rtab *rt, u16 src, u16 dst,
			u8 rproto)
{
	struct r2c2_fv fv;

	return !r2c2_rtab_fv(rt, src, dst, rproto, &fv);
}

void r2c2_rtab_nodeport(const struct r2c2_rtab *rt, u8 rproto,
			const u16 **node, const u8 **port16, const u32 **start)
{
	bool ok = rt->sym && rproto < __R2C2_RP_MAX;

	if (!rt->sym && rt->base && rp_leg(rproto)) {
		/* the legs of the base torus */
		*node = rt->base->onode[rproto];
		*port16 = rt->base->oport[rproto];
		*start = rt->base->ostart[rproto];
		return;
	}
	*node = ok ? rt->onode[rproto] : NULL;
	*port16 = ok ? rt->oport[rproto] : NULL;
	*start = ok ? rt->ostart[rproto] : NULL;
}

const u16 *r2c2_rtab_obyte(const struct r2c2_rtab *rt, u8 rproto, u16 *hi,
			   const double **coef, const u32 **start)
{
	bool ok = rt->sym && rproto < __R2C2_RP_MAX;

	if (!rt->sym && rt->base) {	/* the legs of the base torus */
		bool leg = rp_leg(rproto);

		*hi = rt->base->obhi;	/* whatever rproto: one hi */
		*coef = leg ? rt->base->obcoef[rproto] : NULL;
		*start = leg ? rt->base->obstart[rproto] : NULL;
		return leg ? rt->base->obyte[rproto] : NULL;
	}

	*hi = rt->obhi;
	*coef = ok ? rt->obcoef[rproto] : NULL;
	*start = ok ? rt->obstart[rproto] : NULL;
	return ok ? rt->obyte[rproto] : NULL;
}

const double *r2c2_rtab_group(const struct r2c2_rtab *rt, u32 g,
			      const struct r2c2_vec **v, const u16 **tr)
{
	unsigned int n = rt->n;

	if (rt->sym) {
		*v = &rt->grp[g >= n];
		*tr = rt->tr + (size_t)(g % n) * n;
		return NULL;
	}
	*v = NULL;
	*tr = NULL;
	return rt->gdense[g];
}

double r2c2_rtab_group_coef(const struct r2c2_rtab *rt, u32 g, u32 l)
{
	unsigned int n = rt->n;

	if (rt->sym) {
		u32 base = g % n;

		return rt->gdense[g >= n][(u32)rt->rel[(size_t)base * n + (l >> 3)] *
					  R2C2_MAX_PORTS + (l & 7)];
	}
	return rt->gdense[g] ? rt->gdense[g][l] : 0;
}

/* y[i] += a * x[i] over nblk blocks of one node's 8 links; both aligned */
static void axpy_blocks(double *restrict y, const double *restrict x,
			double a, size_t nblk)
{
	v2d *restrict vy = (v2d *)y;
	const v2d *restrict vx = (const v2d *)x;
	v2d va = { a, a };
	size_t b;

	for (b = 0; b < nblk; b++, vx += 4, vy += 4) {
		vy[0] += va * vx[0];
		vy[1] += va * vx[1];
		vy[2] += va * vx[2];
		vy[3] += va * vx[3];
	}
}

void r2c2_rtab_group_axpy(const struct r2c2_rtab *rt, u32 g, double a,
			  double *y)
{
	const struct r2c2_topo *t = rt->t;
	unsigned int n = rt->n, k1, bx, row, nrows;
	const double *x;
	const u16 *tr;

	if (!rt->sym) {
		axpy_blocks(y, rt->gdense[g], a, n);
		return;
	}
	/*
	 * relative node u = x' + k1 * r' of base b lands on node
	 * (bx + x') mod k1 + k1 * row(b + k1 * r'): per relative row, two
	 * contiguous runs of nodes
	 */
	x = rt->gdense[g >= n];
	tr = rt->tr + (size_t)(g % n) * n;
	k1 = t->dims[0];
	bx = (g % n) % k1;
	nrows = n / k1;
	for (row = 0; row < nrows; row++) {
		size_t src = (size_t)row * k1, dst = (size_t)tr[src] - bx;

		axpy_blocks(y + (dst + bx) * R2C2_MAX_PORTS,
			    x + src * R2C2_MAX_PORTS, a, k1 - bx);
		if (bx)
			axpy_blocks(y + dst * R2C2_MAX_PORTS,
				    x + (src + k1 - bx) * R2C2_MAX_PORTS, a, bx);
	}
}

/**
 * r2c2_rtab_weights_add() - dense weights of a flow from the tables
 * @rt: tables
 * @s: source
 * @d: destination
 * @rproto: protocol
 * @scale: multiplier
 * @w: n * 8 doubles, added to
 *
 * Must equal r2c2_link_weights_add() (tests/rtab_test.c).
 *
 * Return: 0 or as r2c2_rtab_fv().
 */
int r2c2_rtab_weights_add(const struct r2c2_rtab *rt, u16 s, u16 d,
			  u8 rproto, double scale, double *w)
{
	struct r2c2_fv fv;
	int ret = r2c2_rtab_fv(rt, s, d, rproto, &fv), i;
	u32 j;

	if (ret)
		return ret;
	for (i = 0; i < fv.nv; i++) {
		const double *g = fv.v[i] ? NULL : rt->gdense[fv.group[i]];
		size_t l;

		for (l = 0; g && l < R2C2_NLINKS(rt->n); l++)
			w[l] += scale * fv.scale[i] * g[l];
		for (j = 0; !g && j < fv.v[i]->len; j++)
			w[r2c2_fv_link(fv.tr[i], fv.v[i]->link[j])] +=
				scale * fv.scale[i] * fv.v[i]->coef[j];
	}
	return 0;
}

/**
 * r2c2_rtab_memory() - bytes held for one protocol
 * @rt: tables
 * @rproto: protocol
 *
 * Torus: offset vectors (and VLB's two group vectors, sparse and dense);
 * the translation tables (2 * n^2 * 2 bytes) are shared by all protocols
 * and counted with RPS. Graph: cache entries so far.
 *
 * Return: bytes.
 */
size_t r2c2_rtab_memory(const struct r2c2_rtab *rt, u8 rproto)
{
	size_t b = 0, nl = R2C2_NLINKS(rt->n);
	unsigned int i;

	if (rproto >= __R2C2_RP_MAX)
		return 0;
	if (!rt->sym || rproto == R2C2_RP_WLB)	/* WLB: the pairs made */
		return rt->pair_bytes[rproto];
	if (rt->off[rproto])
		for (i = 0; i < rt->n; i++)
			b += sizeof(struct r2c2_vec) + sizeof(u32) +
			     rt->off[rproto][i].len * (sizeof(u32) + sizeof(double) +
						       sizeof(u16) + sizeof(u8)) +
			     /* the padded copy (see obyte) */
			     (rt->obyte[rproto] ? sizeof(u32) +
			      ((rt->off[rproto][i].len + 7) & ~(size_t)7) *
			      (sizeof(u16) + sizeof(double)) : 0);
	for (i = 0; i < R2C2_MAX_PORTS; i++)
		if (rt->lmask[rproto][i])	/* and smask */
			b += 2 * (size_t)rt->n * rt->mw * sizeof(u64);
	if (rproto == R2C2_RP_VLB && (rt->vlb_split || rt->vlb_grp)) {
		b += rt->vlb_grp ? rt->n : 0;
		for (i = 0; i < 2; i++)
			b += group_bytes(nl, &rt->grp[i]);
		/* spectra of A_0, B_0 and of their squares: 2n complex each */
		for (i = 0; i < R2C2_MAX_PORTS / 2; i++)
			b += (rt->pspec[0][i] ? 8 : 0) * (size_t)rt->n * sizeof(double);
	}
	if (rproto == R2C2_RP_RPS)
		b += 2 * (size_t)rt->n * rt->n * sizeof(u16);
	return b;
}
