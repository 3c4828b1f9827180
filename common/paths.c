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
	err = 0;
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
