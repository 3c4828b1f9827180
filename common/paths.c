// SPDX-License-Identifier: GPL-2.0
/*
 * paths.c - minimal-path tables, per-hop distributions of the routing
 * protocols, route sampling and (userspace) per-link weights.
 *
 * Compiled unchanged into r2c2.ko and into libr2c2 (see paths.h).
 */
#include <r2c2/paths.h>

/*
 * Distances and path counts towards the destinations d0..d0+nd-1 (nd at
 * most 64), one bit each in a word per node: reach[u] holds the bit of
 * d once u's distance to d is known, front[u] once it is the level's.
 * A level is one OR over each node's links for the 64 at once: u is at
 * distance L from d when a link u -> v leads to a v at L - 1; and u's
 * minimal paths to d are those of every such v (a parallel link counts
 * apart), added up in the order of the levels.
 */
static void paths_block(struct r2c2_paths *p, unsigned int d0,
			unsigned int nd, u64 *reach, u64 *front, u64 *next)
{
	unsigned int n = p->n, u, k, b, lvl;
	/* u's path counts to the level's destinations, by bit */
	u64 sum[64];
	u64 w, m, any, *t;

	memset(reach, 0, n * sizeof(*reach));
	memset(front, 0, n * sizeof(*front));
	for (b = 0; b < nd; b++) {
		reach[d0 + b] = 1ull << b;
		front[d0 + b] = 1ull << b;
		p->dist[(size_t)(d0 + b) * n + d0 + b] = 0;
		p->npaths[(size_t)(d0 + b) * n + d0 + b] = 1;
	}
	for (lvl = 1; lvl < R2C2_DIST_INF; lvl++) {
		/* a level is O(links): the kernel's build offers the CPU */
		r2c2_cond_resched();
		any = 0;
		for (u = 0; u < n; u++) {
			const u16 *nb = p->nbr + (size_t)u * R2C2_MAX_PORTS;

			w = 0;
			for (k = 0; k < R2C2_MAX_PORTS; k++)
				if (nb[k] != R2C2_IDX_NONE)
					w |= front[nb[k]];
			next[u] = w & ~reach[u];
			any |= next[u];
		}
		if (!any)
			break;
		for (u = 0; u < n; u++) {
			const u16 *nb = p->nbr + (size_t)u * R2C2_MAX_PORTS;

			w = next[u];
			if (!w)
				continue;
			reach[u] |= w;
			for (m = w; m; m &= m - 1)
				sum[__builtin_ctzll(m)] = 0;
			/* 8 counts of at most R2C2_NPATHS_MAX: no overflow */
			for (k = 0; k < R2C2_MAX_PORTS; k++) {
				if (nb[k] == R2C2_IDX_NONE)
					continue;
				for (m = w & front[nb[k]]; m; m &= m - 1) {
					b = __builtin_ctzll(m);
					sum[b] += p->npaths[(size_t)(d0 + b) * n + nb[k]];
				}
			}
			for (m = w; m; m &= m - 1) {
				size_t at;

				b = __builtin_ctzll(m);
				at = (size_t)(d0 + b) * n + u;
				p->npaths[at] = sum[b] > R2C2_NPATHS_MAX ?
						R2C2_NPATHS_MAX : (u32)sum[b];
				p->dist[at] = lvl;
			}
		}
		t = front;
		front = next;
		next = t;
	}
}

/*
 * WLB's view of the graph: whether it is a torus wired as
 * r2c2_torus_nbrs() wires one (see struct r2c2_paths), and if so each
 * node's coordinates and the node at each point. The dimensions are node
 * 0's linked even ports in a row from port 0, a radix the length of the
 * ring port 2i follows from node 0; a breadth-first walk from node 0 gives
 * every node its coordinates, and every link is checked against them.
 * Not a torus: p->ndims 0, no tables. Return: 0 or -ENOMEM.
 */
static int paths_coords(struct r2c2_paths *p)
{
	unsigned int n = p->n, nd, i, k, u, v, head = 0, tail = 1, prod = 1;
	u16 *queue = NULL;
	u8 *seen = NULL;
	int err = -ENOMEM;

	for (nd = 0; nd < R2C2_MAX_DIMS; nd++)
		if (p->nbr[2 * nd] == R2C2_IDX_NONE)
			break;
	if (!nd)
		return 0;
	for (i = 0; i < nd; i++) {
		u = 0;
		k = 0;
		do {
			u = p->nbr[(size_t)u * R2C2_MAX_PORTS + 2 * i];
			k++;
		} while (u != R2C2_IDX_NONE && u && k < 256);
		if (u || k > 255)
			return 0;
		p->radix[i] = (u8)k;
		prod *= k;
	}
	if (prod != n)
		return 0;
	p->coord = r2c2_zalloc((size_t)n * R2C2_MAX_DIMS);
	p->at = r2c2_zalloc((size_t)n * sizeof(*p->at));
	queue = r2c2_zalloc((size_t)n * sizeof(*queue));
	seen = r2c2_zalloc(n);
	if (!p->coord || !p->at || !queue || !seen)
		goto out;
	err = 0;
	for (u = 0; u < n; u++) {
		const u16 *nb = p->nbr + (size_t)u * R2C2_MAX_PORTS;
		const u8 *np = p->nbr_port + (size_t)u * R2C2_MAX_PORTS;

		/* the dimensions' ports linked, to the other way, no more */
		for (k = 0; k < R2C2_MAX_PORTS; k++) {
			bool want = k < 2 * nd;
			bool has = nb[k] != R2C2_IDX_NONE;

			if (want != has || (want && np[k] != (k ^ 1)))
				goto none;
		}
	}
	/* every node reached once, its coordinates from where it was reached */
	seen[0] = 1;
	while (head < tail) {
		const u8 *cu;

		u = queue[head++];
		cu = p->coord + (size_t)u * R2C2_MAX_DIMS;
		for (k = 0; k < 2 * nd; k++) {
			u8 *cv;

			v = p->nbr[(size_t)u * R2C2_MAX_PORTS + k];
			if (seen[v])
				continue;
			seen[v] = 1;
			queue[tail++] = (u16)v;
			cv = p->coord + (size_t)v * R2C2_MAX_DIMS;
			memcpy(cv, cu, R2C2_MAX_DIMS);
			i = k / 2;
			cv[i] = (u8)((cu[i] + (k & 1 ? p->radix[i] - 1 : 1)) %
				     p->radix[i]);
		}
	}
	if (tail != n)
		goto none;
	memset(seen, 0, n);
	for (u = 0; u < n; u++) {
		const u8 *cu = p->coord + (size_t)u * R2C2_MAX_DIMS;
		unsigned int at = 0;

		for (i = nd; i--;)
			at = at * p->radix[i] + cu[i];
		if (seen[at]++)
			goto none;
		p->at[at] = (u16)u;
		for (k = 0; k < 2 * nd; k++) {
			const u8 *cv;
			unsigned int j, want;

			v = p->nbr[(size_t)u * R2C2_MAX_PORTS + k];
			cv = p->coord + (size_t)v * R2C2_MAX_DIMS;
			for (j = 0; j < nd; j++) {
				want = cu[j];
				if (j == k / 2)
					want = (want + (k & 1 ? p->radix[j] - 1 : 1)) %
					       p->radix[j];
				if (cv[j] != want)
					goto none;
			}
		}
	}
	p->ndims = (u8)nd;
	goto out;
none:
	r2c2_free(p->coord);
	r2c2_free(p->at);
	p->coord = NULL;
	p->at = NULL;
out:
	r2c2_free(queue);
	r2c2_free(seen);
	return err;
}

/**
 * r2c2_paths_coords() - find WLB's torus in a graph's tables
 * @p: tables of r2c2_paths_build() or of an update of them; their
 *	@ndims, @radix, @coord and @at are set (see struct r2c2_paths)
 *
 * Return: 0 (also for a graph that is not a torus), or -ENOMEM.
 */
int r2c2_paths_coords(struct r2c2_paths *p)
{
	r2c2_free(p->coord);
	r2c2_free(p->at);
	p->coord = NULL;
	p->at = NULL;
	p->ndims = 0;
	memset(p->radix, 0, sizeof(p->radix));
	return p->n ? paths_coords(p) : 0;
}

/**
 * r2c2_paths_build() - compute distance and path-count tables of a graph
 * @p: filled in; free with r2c2_paths_free()
 * @n: number of nodes, 1..65535
 * @nbr: n * R2C2_MAX_PORTS neighbour indices (R2C2_IDX_NONE = no link);
 *	copied
 * @nbr_port: n * R2C2_MAX_PORTS ports on the neighbour side, or NULL;
 *	copied
 *
 * Breadth-first search towards 64 destinations at a time, one bit each
 * (paths_block()), the path counts level by level. O(n / 64 * diameter *
 * links) word operations, and O(n * n * minimal next hops) for the counts.
 * Then WLB's coordinates, where the graph is a torus (r2c2_paths_coords()).
 * May sleep (allocates with GFP_KERNEL in the kernel, and offers the CPU
 * once per level of each 64 destinations).
 *
 * Return: 0, -EINVAL for a link to a node >= @n or more than
 * R2C2_MAX_PORTS links into one node, or -ENOMEM.
 */
int r2c2_paths_build(struct r2c2_paths *p, u16 n, const u16 *nbr,
		     const u8 *nbr_port)
{
	size_t nn = (size_t)n * n, np = (size_t)n * R2C2_MAX_PORTS;
	u64 *reach = NULL, *front = NULL, *next = NULL;
	u16 *into = NULL;
	unsigned int d, i;
	int err = -ENOMEM;

	memset(p, 0, sizeof(*p));
	if (!n)
		return -EINVAL;
	for (i = 0; i < np; i++)
		if (nbr[i] != R2C2_IDX_NONE && nbr[i] >= n)
			return -EINVAL;

	p->n = n;
	p->nbr = r2c2_zalloc(np * sizeof(*p->nbr));
	p->nbr_port = r2c2_zalloc(np);
	p->dist = r2c2_zalloc(nn);
	p->npaths = r2c2_zalloc(nn * sizeof(*p->npaths));
	reach = r2c2_zalloc((size_t)n * sizeof(*reach));
	front = r2c2_zalloc((size_t)n * sizeof(*front));
	next = r2c2_zalloc((size_t)n * sizeof(*next));
	/* links into each node */
	into = r2c2_zalloc((size_t)n * sizeof(*into));
	if (!p->nbr || !p->nbr_port || !p->dist || !p->npaths || !reach ||
	    !front || !next || !into)
		goto fail;

	memcpy(p->nbr, nbr, np * sizeof(*p->nbr));
	if (nbr_port)
		memcpy(p->nbr_port, nbr_port, np);
	for (i = 0; i < np; i++) {
		if (nbr[i] == R2C2_IDX_NONE)
			continue;
		/* 8 ports a node: no more than 8 links may land on it */
		if (into[nbr[i]]++ >= R2C2_MAX_PORTS) {
			err = -EINVAL;
			goto fail;
		}
	}

	memset(p->dist, R2C2_DIST_INF, nn);
	for (d = 0; d < n; d += 64)
		paths_block(p, d, n - d < 64 ? n - d : 64, reach, front, next);
	err = paths_coords(p);
	if (err)
		goto fail;
	goto out;

fail:
	r2c2_paths_free(p);
out:
	r2c2_free(reach);
	r2c2_free(front);
	r2c2_free(next);
	r2c2_free(into);
	return err;
}

/**
 * r2c2_paths_free() - free the tables of r2c2_paths_build()
 * @p: tables; zeroed
 */
void r2c2_paths_free(struct r2c2_paths *p)
{
	r2c2_free(p->nbr);
	r2c2_free(p->nbr_port);
	r2c2_free(p->dist);
	r2c2_free(p->npaths);
	r2c2_free(p->coord);
	r2c2_free(p->at);
	memset(p, 0, sizeof(*p));
}

/**
 * r2c2_next_hops() - distribution of the next hop of a minimal protocol
 * @p: tables
 * @rproto: R2C2_RP_RPS or R2C2_RP_DOR (VLB is two RPS legs)
 * @s: source of the leg (DOR's ties depend on its length)
 * @u: current node, on a minimal path from @s to @d
 * @d: destination
 * @ports: out, up to R2C2_MAX_PORTS candidate ports of @u
 * @weights: out, relative weight of each candidate (non-zero)
 *
 * RPS: every port on a minimal path, weighted by the number of minimal
 * paths behind it, so that a whole route is uniform over all minimal
 * paths. DOR: one port, weight 1: the lowest-numbered port on a minimal
 * path, except that when it is an even port 2i, port 2i+1 is on a minimal
 * path too and the two are the two ways of one dimension (2i lands on
 * the neighbour's port 2i+1 and 2i+1 on port 2i, as r2c2_torus_nbrs()
 * wires them), port 2i+1 if the leg from @s to @d is an even number of
 * hops long. On a torus wired port 2i = +i, 2i+1 = -i this is
 * dimension-order routing, and the exception is its tie: an offset of
 * k/2 on a ring of even radix k, minimal both ways. A route stays one
 * path per (source, destination) - no reordering - and the tie depends
 * only on the offset, as every table of the allocator assumes; taking
 * the + way for odd lengths and the - way for even ones splits the ties
 * of a dimension evenly between its two directions when the offsets
 * along the other dimensions are uniform (an 8-ary 2-cube under uniform
 * traffic: the most loaded link carries 1, not the 1.25 of + always).
 *
 * Return: the number of candidates; 0 when @u == @d or @d is unreachable.
 */
int r2c2_next_hops(const struct r2c2_paths *p, u8 rproto, u16 s, u16 u,
		   u16 d, u8 *ports, u32 *weights)
{
	const u8 *dist = p->dist + (size_t)d * p->n;
	const u32 *cnt = p->npaths + (size_t)d * p->n;
	const u16 *nb = p->nbr + (size_t)u * R2C2_MAX_PORTS;
	const u8 *np = p->nbr_port + (size_t)u * R2C2_MAX_PORTS;
	unsigned int k;
	int c = 0;

	if (u == d || dist[u] == R2C2_DIST_INF)
		return 0;
	for (k = 0; k < R2C2_MAX_PORTS; k++) {
		u16 v = nb[k];

		if (v == R2C2_IDX_NONE || dist[v] + 1 != dist[u])
			continue;
		ports[c] = (u8)k;
		weights[c] = rproto == R2C2_RP_DOR ? 1 : cnt[v];
		c++;
		if (rproto == R2C2_RP_DOR) {
			v = nb[k | 1];
			if (!(k & 1) && v != R2C2_IDX_NONE &&
			    dist[v] + 1 == dist[u] && !(dist[s] & 1) &&
			    np[k] == (k | 1) && np[k | 1] == k)
				ports[0] = (u8)(k | 1);
			break;
		}
	}
	return c;
}

/**
 * r2c2_vlb_ok() - whether VLB may use @m as the intermediate of s -> d
 * @p: tables
 * @s: source
 * @m: candidate intermediate node
 * @d: destination
 *
 * VLB picks @m uniformly among the nodes for which both legs exist and
 * the whole route fits R2C2_MAX_HOPS.
 *
 * Return: true when @m is eligible.
 */
bool r2c2_vlb_ok(const struct r2c2_paths *p, u16 s, u16 m, u16 d)
{
	unsigned int a = p->dist[(size_t)m * p->n + s];
	unsigned int b = p->dist[(size_t)d * p->n + m];

	return a != R2C2_DIST_INF && b != R2C2_DIST_INF &&
	       a + b <= R2C2_MAX_HOPS;
}

/* Append a minimal leg u -> d sampled hop by hop; returns new length. */
static int r2c2_leg_sample(const struct r2c2_paths *p, u8 rproto, u16 s,
			   u16 d, r2c2_rand_fn rnd, void *ctx, u8 *hops,
			   int len)
{
	u8 ports[R2C2_MAX_PORTS];
	u32 w[R2C2_MAX_PORTS];
	u16 u = s;

	while (u != d) {
		int c = r2c2_next_hops(p, rproto, s, u, d, ports, w);
		int i = 0;

		if (c <= 0)
			return -EHOSTUNREACH;
		if (len >= R2C2_MAX_HOPS)
			return -E2BIG;
		if (c > 1) {
			u64 total = 0, r;
			u32 acc = 0;

			for (i = 0; i < c; i++)
				total += w[i];
			/* total < 2^31 (R2C2_NPATHS_MAX), so no overflow */
			r = ((u64)rnd(ctx) * total) >> 32;
			for (i = 0; i < c - 1; i++) {
				acc += w[i];
				if (r < acc)
					break;
			}
		}
		hops[len++] = ports[i];
		u = p->nbr[(size_t)u * R2C2_MAX_PORTS + ports[i]];
	}
	return len;
}

/*
 * WLB's quadrants of s -> d: bit i of a quadrant set when dimension i
 * goes the - way. off[i]: d's offset from s the + way; qw[q]: the
 * quadrant's weight, the product over the dimensions of k - off (+) or
 * off (-), 0 where its route would pass R2C2_MAX_HOPS. Returns their sum
 * (at most the node count).
 */
static u32 wlb_quads(const struct r2c2_paths *p, u16 s, u16 d, u8 *off,
		     u32 *qw)
{
	const u8 *cs = p->coord + (size_t)s * R2C2_MAX_DIMS;
	const u8 *cd = p->coord + (size_t)d * R2C2_MAX_DIMS;
	unsigned int nd = p->ndims, i, q, len;
	u32 total = 0, w;

	for (i = 0; i < nd; i++)
		off[i] = (u8)((cd[i] + p->radix[i] - cs[i]) % p->radix[i]);
	for (q = 0; q < 1u << nd; q++) {
		w = 1;
		len = 0;
		for (i = 0; i < nd; i++) {
			unsigned int k = p->radix[i];

			if (q >> i & 1) {
				w *= off[i];
				len += (k - off[i]) % k;
			} else {
				w *= k - off[i];
				len += off[i];
			}
		}
		qw[q] = len > R2C2_MAX_HOPS ? 0 : w;
		total += qw[q];
	}
	return total;
}

/* a WLB route of s -> d, on a torus (p->ndims); see enum r2c2_rproto */
static int wlb_sample(const struct r2c2_paths *p, u16 s, u16 d,
		      r2c2_rand_fn rnd, void *ctx, u8 *hops)
{
	u32 qw[1u << R2C2_MAX_DIMS], total, r, acc = 0;
	unsigned int nd = p->ndims, i, q, h, span[R2C2_MAX_DIMS];
	unsigned int a[R2C2_MAX_DIMS];
	u8 off[R2C2_MAX_DIMS];
	int len = 0;

	total = wlb_quads(p, s, d, off, qw);
	if (!total)
		return -E2BIG;
	r = (u32)(((u64)rnd(ctx) * total) >> 32);
	for (q = 0; q < (1u << nd) - 1; q++) {
		acc += qw[q];
		if (r < acc)
			break;
	}
	for (i = 0; i < nd; i++) {
		span[i] = q >> i & 1 ? (p->radix[i] - off[i]) % p->radix[i] :
				       off[i];
		a[i] = (unsigned int)(((u64)rnd(ctx) * (span[i] + 1)) >> 32);
	}
	/* to the intermediate, then from it, each in dimension order */
	for (i = 0; i < nd; i++)
		for (h = 0; h < a[i]; h++)
			hops[len++] = (u8)(2 * i + (q >> i & 1));
	for (i = 0; i < nd; i++)
		for (h = a[i]; h < span[i]; h++)
			hops[len++] = (u8)(2 * i + (q >> i & 1));
	return len;
}

/**
 * r2c2_route_sample() - draw one route from a protocol's distribution
 * @p: tables
 * @rproto: enum r2c2_rproto
 * @s: source
 * @d: destination
 * @rnd: uniform random numbers
 * @ctx: passed to @rnd
 * @hops: out, R2C2_MAX_HOPS ports, one a hop
 *
 * Return: the number of hops (0 when @s == @d), -EHOSTUNREACH when @d
 * cannot be reached, -E2BIG if the route would not fit, -EINVAL for an
 * unknown protocol or node.
 */
int r2c2_route_sample(const struct r2c2_paths *p, u8 rproto, u16 s, u16 d,
		      r2c2_rand_fn rnd, void *ctx, u8 *hops)
{
	unsigned int tries;
	int len;
	u16 m;

	if (s >= p->n || d >= p->n || rproto >= __R2C2_RP_MAX)
		return -EINVAL;
	if (p->dist[(size_t)d * p->n + s] == R2C2_DIST_INF)
		return -EHOSTUNREACH;
	if (rproto == R2C2_RP_WLB && p->ndims)
		return wlb_sample(p, s, d, rnd, ctx, hops);
	if (rproto == R2C2_RP_WLB)
		rproto = R2C2_RP_RPS;
	if (rproto != R2C2_RP_VLB)
		return r2c2_leg_sample(p, rproto, s, d, rnd, ctx, hops, 0);

	/* rejection sampling: uniform over eligible intermediates */
	for (tries = 0; tries < 64; tries++) {
		m = (u16)(((u64)rnd(ctx) * p->n) >> 32);
		if (r2c2_vlb_ok(p, s, m, d))
			goto found;
	}
	/* eligible intermediates are rare: take the first (s always is) */
	for (m = 0; m < p->n && !r2c2_vlb_ok(p, s, m, d); m++)
		;
	if (m == p->n)
		return -E2BIG;
found:
	len = r2c2_leg_sample(p, R2C2_RP_RPS, s, m, rnd, ctx, hops, 0);
	if (len < 0)
		return len;
	return r2c2_leg_sample(p, R2C2_RP_RPS, m, d, rnd, ctx, hops, len);
}

/**
 * r2c2_torus_nbrs() - adjacency of a k1 x k2 [x k3] torus or mesh
 * @dims: radix of each dimension, each >= 2
 * @ndims: 1..R2C2_MAX_DIMS
 * @wrap: true for a torus, false for a mesh
 * @nbr: out, n * R2C2_MAX_PORTS neighbour indices
 * @nbr_port: out, n * R2C2_MAX_PORTS neighbour ports, or NULL
 *
 * Node id = x + k1 * (y + k2 * z); port 2d goes +1 along dimension d and
 * lands on the neighbour's port 2d+1, port 2d+1 goes -1 and lands on
 * port 2d.
 *
 * Return: the number of nodes, or -EINVAL for bad dimensions.
 */
int r2c2_torus_nbrs(const u8 *dims, unsigned int ndims, bool wrap,
		    u16 *nbr, u8 *nbr_port)
{
	unsigned int coord[R2C2_MAX_DIMS], d, k, n = 1, id, stride;

	if (!ndims || ndims > R2C2_MAX_DIMS)
		return -EINVAL;
	for (d = 0; d < ndims; d++) {
		if (dims[d] < 2)
			return -EINVAL;
		n *= dims[d];
	}
	if (n > 0xfffe)
		return -EINVAL;
	for (id = 0; id < n; id++) {
		unsigned int rest = id;

		for (d = 0; d < ndims; d++) {
			coord[d] = rest % dims[d];
			rest /= dims[d];
		}
		for (k = 0; k < R2C2_MAX_PORTS; k++) {
			nbr[id * R2C2_MAX_PORTS + k] = R2C2_IDX_NONE;
			if (nbr_port)
				nbr_port[id * R2C2_MAX_PORTS + k] = 0;
		}
		stride = 1;
		for (d = 0; d < ndims; d++) {
			unsigned int c = coord[d], kd = dims[d];

			if (wrap || c + 1 < kd) {
				nbr[id * R2C2_MAX_PORTS + 2 * d] =
					id + ((c + 1) % kd - c) * stride;
				if (nbr_port)
					nbr_port[id * R2C2_MAX_PORTS + 2 * d] = 2 * d + 1;
			}
			if (wrap || c > 0) {
				nbr[id * R2C2_MAX_PORTS + 2 * d + 1] =
					id + ((c + kd - 1) % kd) * stride - c * stride;
				if (nbr_port)
					nbr_port[id * R2C2_MAX_PORTS + 2 * d + 1] = 2 * d;
			}
			stride *= kd;
		}
	}
	return (int)n;
}

#ifndef __KERNEL__
/*
 * Add scale * (expected link use of one packet on a minimal leg s -> d)
 * to w. Every next hop is one hop closer to d, so the nodes a leg can be
 * at after i hops form layer i; reach[] is the probability of being at a
 * node and listed[] says it is in the next layer (reach alone cannot: a
 * zero scale or weight leaves it at zero).
 */
static void r2c2_leg_weights(const struct r2c2_paths *p, u8 rproto, u16 s,
			     u16 d, double scale, double *w, double *reach,
			     u8 *listed, u16 *cur, u16 *next)
{
	unsigned int ncur = 1, i, j;
	u8 ports[R2C2_MAX_PORTS];
	u32 wt[R2C2_MAX_PORTS];

	if (s == d)
		return;
	cur[0] = s;
	reach[s] = scale;
	listed[s] = 1;
	while (ncur) {
		unsigned int nnext = 0;
		u16 *tmp;

		for (i = 0; i < ncur; i++) {
			u16 u = cur[i];
			double r = reach[u];
			u64 total = 0;
			int c;

			reach[u] = 0;
			listed[u] = 0;
			if (u == d)
				continue;
			c = r2c2_next_hops(p, rproto, s, u, d, ports, wt);
			for (j = 0; j < (unsigned int)c; j++)
				total += wt[j];
			for (j = 0; j < (unsigned int)c; j++) {
				u16 v = p->nbr[(size_t)u * R2C2_MAX_PORTS + ports[j]];
				double f = r * (double)wt[j] / (double)total;

				w[(size_t)u * R2C2_MAX_PORTS + ports[j]] += f;
				if (!listed[v]) {
					listed[v] = 1;
					next[nnext++] = v;
				}
				reach[v] += f;
			}
		}
		tmp = cur;
		cur = next;
		next = tmp;
		ncur = nnext;
	}
}

/* the point of coordinates c (of p->ndims, each in range) */
static u16 wlb_node(const struct r2c2_paths *p, const unsigned int *c)
{
	unsigned int i = p->ndims, at = 0;

	while (i--)
		at = at * p->radix[i] + c[i];
	return p->at[at];
}

/*
 * Add scale * WLB's link use of s -> d to w. A quadrant's route crosses
 * dimension i twice: to the intermediate (a[i] hops from where the
 * dimensions before it left it, a[j] along each, the later ones still at
 * s's) and from it (span[i] - a[i] hops to d's coordinate, the dimensions
 * before it at d's, the later ones at the intermediate's). Each a[i] is
 * uniform over 0..span[i], so the j-th link of a crossing is used with
 * probability (span[i] - j) / (span[i] + 1) for each value of the
 * coordinates it depends on.
 */
static void wlb_weights(const struct r2c2_paths *p, u16 s, u16 d,
			double scale, double *w)
{
	const u8 *cs = p->coord + (size_t)s * R2C2_MAX_DIMS;
	const u8 *cd = p->coord + (size_t)d * R2C2_MAX_DIMS;
	unsigned int nd = p->ndims, i, j, q, h, m, cnt, rest;
	unsigned int span[R2C2_MAX_DIMS], c[R2C2_MAX_DIMS];
	u32 qw[1u << R2C2_MAX_DIMS], total;
	u8 off[R2C2_MAX_DIMS];
	int sg[R2C2_MAX_DIMS];

	total = wlb_quads(p, s, d, off, qw);
	for (q = 0; total && q < 1u << nd; q++) {
		double f = scale * qw[q] / total;

		if (!qw[q])
			continue;
		for (i = 0; i < nd; i++) {
			sg[i] = q >> i & 1 ? -1 : 1;
			span[i] = q >> i & 1 ?
				  (p->radix[i] - off[i]) % p->radix[i] : off[i];
		}
		for (i = 0; i < nd; i++) {
			unsigned int port = 2 * i + (q >> i & 1), k = p->radix[i];
			double g;

			if (!span[i])
				continue;
			/* to the intermediate: the dimensions before i moved */
			for (cnt = 1, j = 0; j < i; j++)
				cnt *= span[j] + 1;
			g = f / cnt / (span[i] + 1);
			for (m = 0; m < cnt; m++) {
				for (rest = m, j = 0; j < nd; j++) {
					c[j] = cs[j];
					if (j < i) {
						c[j] = (c[j] + p->radix[j] +
							sg[j] * (int)(rest % (span[j] + 1))) %
						       p->radix[j];
						rest /= span[j] + 1;
					}
				}
				for (h = 0; h < span[i]; h++) {
					w[(size_t)wlb_node(p, c) * R2C2_MAX_PORTS + port] +=
						g * (span[i] - h);
					c[i] = (c[i] + k + sg[i]) % k;
				}
			}
			/* from it: the dimensions after i at the intermediate */
			for (cnt = 1, j = i + 1; j < nd; j++)
				cnt *= span[j] + 1;
			g = f / cnt / (span[i] + 1);
			for (m = 0; m < cnt; m++) {
				for (rest = m, j = 0; j < nd; j++) {
					c[j] = j < i ? cd[j] : cs[j];
					if (j > i) {
						c[j] = (c[j] + p->radix[j] +
							sg[j] * (int)(rest % (span[j] + 1))) %
						       p->radix[j];
						rest /= span[j] + 1;
					}
				}
				/* the h-th link back from d's coordinate */
				c[i] = (cd[i] + k - sg[i]) % k;
				for (h = 0; h < span[i]; h++) {
					w[(size_t)wlb_node(p, c) * R2C2_MAX_PORTS + port] +=
						g * (span[i] - h);
					c[i] = (c[i] + k - sg[i]) % k;
				}
			}
		}
	}
}

/**
 * r2c2_link_weights_add() - per-link share of a flow under a protocol
 * @p: tables
 * @rproto: enum r2c2_rproto
 * @s: source
 * @d: destination
 * @scale: multiplier (the flow's weight, or 1)
 * @w: n * R2C2_MAX_PORTS doubles; @w[u * 8 + port] += @scale times the
 *	expected number of times one packet crosses link (u, port)
 *
 * The exact distribution r2c2_route_sample() draws from, propagated hop
 * by hop with the same r2c2_next_hops(). Userspace only.
 *
 * Return: 0, -EHOSTUNREACH, -EINVAL or -ENOMEM.
 */
int r2c2_link_weights_add(const struct r2c2_paths *p, u8 rproto, u16 s,
			  u16 d, double scale, double *w)
{
	double *reach;
	u16 *layer;
	u8 *listed;
	unsigned int m, cnt = 0;

	if (s >= p->n || d >= p->n || rproto >= __R2C2_RP_MAX)
		return -EINVAL;
	if (p->dist[(size_t)d * p->n + s] == R2C2_DIST_INF)
		return -EHOSTUNREACH;
	if (rproto == R2C2_RP_WLB && p->ndims) {
		wlb_weights(p, s, d, scale, w);
		return 0;
	}
	if (rproto == R2C2_RP_WLB)
		rproto = R2C2_RP_RPS;
	reach = calloc(p->n, sizeof(*reach));
	listed = calloc(p->n, sizeof(*listed));
	/* two frontiers of at most n nodes each: layer and layer + n */
	layer = calloc(2 * (size_t)p->n, sizeof(*layer));
	if (!reach || !listed || !layer) {
		free(reach);
		free(listed);
		free(layer);
		return -ENOMEM;
	}
	if (rproto != R2C2_RP_VLB) {
		r2c2_leg_weights(p, rproto, s, d, scale, w, reach, listed,
				 layer, layer + p->n);
	} else {
		for (m = 0; m < p->n; m++)
			cnt += r2c2_vlb_ok(p, s, (u16)m, d);
		for (m = 0; m < p->n; m++) {
			if (!r2c2_vlb_ok(p, s, (u16)m, d))
				continue;
			r2c2_leg_weights(p, R2C2_RP_RPS, s, (u16)m,
					 scale / cnt, w, reach, listed,
					 layer, layer + p->n);
			r2c2_leg_weights(p, R2C2_RP_RPS, (u16)m, d,
					 scale / cnt, w, reach, listed,
					 layer, layer + p->n);
		}
	}
	free(reach);
	free(listed);
	free(layer);
	return 0;
}
#endif
