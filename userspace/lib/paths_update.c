// SPDX-License-Identifier: GPL-2.0
/*
 * paths_update.c - a graph's minimal-path tables after a few of its links
 * failed, or came back, from the tables before: the same distances and
 * path counts as r2c2_paths_build() on the new graph (common/paths.c,
 * which the kernel runs too), found by searching again only where a
 * changed link was on a minimal path.
 *
 * Towards one destination d a node's distance and path count depend only
 * on the minimal paths from it to d. When links fail, a node whose
 * minimal paths to d crossed none of them keeps both; the others (the
 * failed links' tails that were one hop further from d than their heads,
 * and every node with a minimal path through one of those) are searched
 * again, outwards from the nodes that kept theirs, in the order of their
 * new distances. When links come back, a node's distance can only fall:
 * the nodes it falls for are found outwards from the links that shorten
 * a path, and the counts are summed again for them and for every node
 * with a minimal path through them or through a link back on a minimal
 * path. A batch of changes that both removes and adds, or rewires a port,
 * is left to r2c2_paths_build().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "r2c2_alloc.h"

/* a batch larger than this is searched in full */
#define UPD_MAX_CHANGES	64
/* the destinations whose pace says whether to go on, and the step (a prime) */
#define UPD_SAMPLE	32
#define UPD_STRIDE	65521

/* what one update searches with */
struct upd {
	struct r2c2_paths *p;
	u16 n;
	/* links into each node, of the graph with more links: rin[u * 8 + j] */
	u16 *rin;
	u8 *rport;	/* the port of rin[] the link leaves by */
	u8 *rn;		/* how many */
	u8 *mark;	/* n: in the set being searched again */
	u8 *done;	/* n: the destinations done */
	u16 *set;	/* n: that set */
	u16 *order;	/* n: the set by increasing new distance */
	/*
	 * Dial's buckets: lists of entries (a node may be in two, or be in
	 * one twice), head[b] the first of distance b, U32_NONE for none
	 */
	u16 *enode;
	u32 *enext;
	u32 nent;
	u32 head[R2C2_DIST_INF + 1];
	size_t work;	/* the nodes searched again, all destinations */
};

#define U32_NONE	0xffffffffu

/* the link x -> u by x's port k is in the new graph */
static bool in_new(const struct upd *up, u16 x, u8 k, u16 u)
{
	return up->p->nbr[(size_t)x * R2C2_MAX_PORTS + k] == u;
}

/*
 * Add to set[] (ns, marked) every node with a minimal path through one of
 * its nodes, in the old graph (links removed) or the new one (new_only:
 * links added), by dist as it is now. Return: the set's new size.
 */
static unsigned int ancestors(struct upd *up, const u8 *dist,
			      unsigned int ns, bool new_only)
{
	unsigned int i, j;

	for (i = 0; i < ns; i++) {
		u16 u = up->set[i];

		for (j = 0; j < up->rn[u]; j++) {
			u16 x = up->rin[(size_t)u * R2C2_MAX_PORTS + j];

			if (up->mark[x] || dist[x] == R2C2_DIST_INF ||
			    dist[x] != dist[u] + 1 ||
			    (new_only &&
			     !in_new(up, x, up->rport[(size_t)u * R2C2_MAX_PORTS + j], u)))
				continue;
			up->mark[x] = 1;
			up->set[ns++] = x;
		}
	}
	return ns;
}

/* u's path count from its new next hops, saturated as paths_block() does */
static u32 count_of(const struct upd *up, const u8 *dist, const u32 *cnt,
		    u16 u)
{
	const u16 *nb = up->p->nbr + (size_t)u * R2C2_MAX_PORTS;
	unsigned int k;
	u64 sum = 0;

	for (k = 0; k < R2C2_MAX_PORTS; k++)
		if (nb[k] != R2C2_IDX_NONE && dist[nb[k]] + 1 == dist[u])
			sum += cnt[nb[k]];
	return sum > R2C2_NPATHS_MAX ? R2C2_NPATHS_MAX : (u32)sum;
}

static void bucket_push(struct upd *up, u16 u, unsigned int b)
{
	up->enode[up->nent] = u;
	up->enext[up->nent] = up->head[b];
	up->head[b] = up->nent++;
}

/* the next node of bucket b, which is not empty */
static u16 bucket_pop(struct upd *up, unsigned int b)
{
	u32 e = up->head[b];

	up->head[b] = up->enext[e];
	return up->enode[e];
}

/*
 * Links failed: the nodes of set[] (ns, marked) lost a minimal path to d
 * and are searched again from the nodes around them, which kept theirs.
 * Their distances by Dial's buckets, then their counts in that order.
 */
static void redo_removed(struct upd *up, u8 *dist, u32 *cnt,
			 unsigned int ns)
{
	unsigned int i, b, no = 0, lo = R2C2_DIST_INF;
	unsigned int k, j;

	up->nent = 0;
	for (i = 0; i < ns; i++) {
		u16 u = up->set[i];
		const u16 *nb = up->p->nbr + (size_t)u * R2C2_MAX_PORTS;
		unsigned int t = R2C2_DIST_INF;

		for (k = 0; k < R2C2_MAX_PORTS; k++)
			if (nb[k] != R2C2_IDX_NONE && !up->mark[nb[k]] &&
			    dist[nb[k]] + 1u < t)
				t = dist[nb[k]] + 1u;
		dist[u] = R2C2_DIST_INF;
		cnt[u] = 0;
		if (t < R2C2_DIST_INF) {
			dist[u] = (u8)t;
			bucket_push(up, u, t);
			lo = t < lo ? t : lo;
		}
	}
	for (b = lo; b < R2C2_DIST_INF; b++) {
		while (up->head[b] != U32_NONE) {
			u16 u = bucket_pop(up, b);

			if (dist[u] != b || up->mark[u] != 1)
				continue;	/* a stale entry, or done */
			up->mark[u] = 2;
			up->order[no++] = u;
			for (j = 0; j < up->rn[u]; j++) {
				u16 x = up->rin[(size_t)u * R2C2_MAX_PORTS + j];

				if (up->mark[x] != 1 || dist[x] <= b + 1 ||
				    !in_new(up, x, up->rport[(size_t)u * R2C2_MAX_PORTS + j], u))
					continue;
				dist[x] = (u8)(b + 1);
				if (b + 1 < R2C2_DIST_INF)
					bucket_push(up, x, b + 1);
			}
		}
	}
	for (i = 0; i < no; i++)
		cnt[up->order[i]] = count_of(up, dist, cnt, up->order[i]);
}

/*
 * Links came back: the distances that fall, outwards from the links that
 * shorten a path (seeds: set[0..ns)); then the counts of those nodes, of
 * the tails of links back on a minimal path and of every node with a
 * minimal path through them, by increasing distance. Return: how many
 * nodes were searched again.
 */
static unsigned int redo_added(struct upd *up, u8 *dist, u32 *cnt,
			       const u32 *added, unsigned int na)
{
	unsigned int i, j, b, ns = 0, no = 0, lo = R2C2_DIST_INF;

	up->nent = 0;
	for (i = 0; i < na; i++) {
		u16 a = (u16)(added[i] / R2C2_MAX_PORTS);
		u16 v = up->p->nbr[added[i]];

		if (dist[v] == R2C2_DIST_INF || dist[v] + 1u > dist[a])
			continue;
		if (dist[v] + 1u < dist[a]) {
			dist[a] = (u8)(dist[v] + 1);
			bucket_push(up, a, dist[a]);
			lo = dist[a] < lo ? dist[a] : lo;
		}
		if (!up->mark[a]) {
			up->mark[a] = 1;
			up->set[ns++] = a;
		}
	}
	for (b = lo; b < R2C2_DIST_INF; b++) {
		while (up->head[b] != U32_NONE) {
			u16 u = bucket_pop(up, b);

			if (dist[u] != b)
				continue;	/* fell further since */
			for (j = 0; j < up->rn[u]; j++) {
				u16 x = up->rin[(size_t)u * R2C2_MAX_PORTS + j];

				if (dist[x] <= b + 1 ||
				    !in_new(up, x, up->rport[(size_t)u * R2C2_MAX_PORTS + j], u))
					continue;
				dist[x] = (u8)(b + 1);
				bucket_push(up, x, b + 1);
				if (!up->mark[x]) {
					up->mark[x] = 1;
					up->set[ns++] = x;
				}
			}
		}
	}
	ns = ancestors(up, dist, ns, true);
	/* by increasing distance: a counting sort over the set */
	up->nent = 0;
	for (i = 0; i < ns; i++)
		bucket_push(up, up->set[i], dist[up->set[i]]);
	for (b = 0; b < R2C2_DIST_INF; b++)
		while (up->head[b] != U32_NONE)
			up->order[no++] = bucket_pop(up, b);
	for (i = 0; i < no; i++)
		cnt[up->order[i]] = count_of(up, dist, cnt, up->order[i]);
	for (i = 0; i < ns; i++)
		up->mark[up->set[i]] = 0;
	return ns;
}

static void upd_free(struct upd *up)
{
	free(up->rin);
	free(up->rport);
	free(up->rn);
	free(up->mark);
	free(up->done);
	free(up->set);
	free(up->order);
	free(up->enode);
	free(up->enext);
}

/*
 * Destination d's row of the new tables, from the old one: the nodes the
 * removed links (nr) or the added ones (na) change searched again.
 * Return: how many.
 */
static unsigned int one_dest(struct upd *up, const struct r2c2_paths *old,
			     unsigned int d, const u32 *removed,
			     unsigned int nr, const u32 *added,
			     unsigned int na)
{
	u16 n = up->n;
	u8 *dist = up->p->dist + (size_t)d * n;
	u32 *cnt = up->p->npaths + (size_t)d * n;
	unsigned int ns = 0, i;

	memcpy(dist, old->dist + (size_t)d * n, n);
	memcpy(cnt, old->npaths + (size_t)d * n, n * sizeof(*cnt));
	if (na)
		return redo_added(up, dist, cnt, added, na);
	for (i = 0; i < nr; i++) {
		u16 a = (u16)(removed[i] / R2C2_MAX_PORTS);
		u16 v = old->nbr[removed[i]];

		if (dist[a] != R2C2_DIST_INF && dist[v] + 1 == dist[a] &&
		    !up->mark[a]) {
			up->mark[a] = 1;
			up->set[ns++] = a;
		}
	}
	if (!ns)
		return 0;
	ns = ancestors(up, dist, ns, false);
	redo_removed(up, dist, cnt, ns);
	for (i = 0; i < ns; i++)
		up->mark[up->set[i]] = 0;
	return ns;
}

/**
 * r2c2_paths_update() - a graph's paths from those of the graph before
 * @p: filled in as r2c2_paths_build() would; free with r2c2_paths_free()
 * @old: the tables of the graph before (same node count)
 * @nbr: n * R2C2_MAX_PORTS neighbours of the new graph; copied
 * @nbr_port: n * R2C2_MAX_PORTS far-end ports, or NULL; copied
 * @budget: give up past this many (node, destination) entries searched
 *	again (R2C2_PATHS_UPDATE_BUDGET(n): where a full search would be
 *	faster), at the pace of the first destinations
 *
 * Exactly r2c2_paths_build()'s tables (tests/paths_test.c compares them
 * byte for byte), where the new graph is the old one with up to 64 links
 * removed, or up to 64 added, and nothing else changed but far-end ports.
 *
 * Return: 0; -EAGAIN for any other change, for one over @budget, and for
 * a graph that r2c2_paths_build() would refuse: build it in full; or
 * -ENOMEM.
 */
int r2c2_paths_update(struct r2c2_paths *p, const struct r2c2_paths *old,
		      const u16 *nbr, const u8 *nbr_port, size_t budget)
{
	u16 n = old->n;
	size_t nl = (size_t)n * R2C2_MAX_PORTS, nn = (size_t)n * n, l;
	u32 removed[UPD_MAX_CHANGES], added[UPD_MAX_CHANGES];
	unsigned int nr = 0, na = 0, j, d, b, ns, stride;
	struct upd up = { .p = p, .n = n };
	int ret = -ENOMEM;

	memset(p, 0, sizeof(*p));
	for (l = 0; l < nl; l++) {
		if (nbr[l] == old->nbr[l])
			continue;
		if (nbr[l] != R2C2_IDX_NONE && nbr[l] >= n)
			return -EAGAIN;
		if (old->nbr[l] != R2C2_IDX_NONE && nbr[l] != R2C2_IDX_NONE)
			return -EAGAIN;		/* rewired */
		if (nbr[l] == R2C2_IDX_NONE) {
			if (nr == UPD_MAX_CHANGES)
				return -EAGAIN;
			removed[nr++] = (u32)l;
		} else {
			if (na == UPD_MAX_CHANGES)
				return -EAGAIN;
			added[na++] = (u32)l;
		}
	}
	if (nr && na)
		return -EAGAIN;

	p->n = n;
	p->nbr = malloc(nl * sizeof(*p->nbr));
	p->nbr_port = calloc(nl, 1);
	p->dist = malloc(nn);
	p->npaths = malloc(nn * sizeof(*p->npaths));
	up.rin = malloc(nl * sizeof(*up.rin));
	up.rport = malloc(nl);
	up.rn = calloc(n, 1);
	up.mark = calloc(n, 1);
	up.done = calloc(n, 1);
	up.set = malloc(n * sizeof(*up.set));
	up.order = malloc(n * sizeof(*up.order));
	/* a node's entries: one, and one a fall (or an added link) */
	up.enode = malloc((2 * (size_t)n + UPD_MAX_CHANGES) * sizeof(*up.enode));
	up.enext = malloc((2 * (size_t)n + UPD_MAX_CHANGES) * sizeof(*up.enext));
	if (!p->nbr || !p->nbr_port || !p->dist || !p->npaths || !up.rin ||
	    !up.rport || !up.rn || !up.mark || !up.done || !up.set ||
	    !up.order ||
	    !up.enode || !up.enext)
		goto fail;
	memcpy(p->nbr, nbr, nl * sizeof(*p->nbr));
	if (nbr_port)
		memcpy(p->nbr_port, nbr_port, nl);
	/* the links into each node, of the old graph (removals) or the new */
	for (l = 0; l < nl; l++) {
		u16 v = nr ? old->nbr[l] : nbr[l];

		if (v == R2C2_IDX_NONE)
			continue;
		if (up.rn[v] == R2C2_MAX_PORTS) {
			ret = -EAGAIN;	/* r2c2_paths_build() says why */
			goto fail;
		}
		up.rin[(size_t)v * R2C2_MAX_PORTS + up.rn[v]] =
			(u16)(l / R2C2_MAX_PORTS);
		up.rport[(size_t)v * R2C2_MAX_PORTS + up.rn[v]++] =
			(u8)(l % R2C2_MAX_PORTS);
	}
	for (b = 0; b <= R2C2_DIST_INF; b++)
		up.head[b] = U32_NONE;
	/*
	 * First UPD_SAMPLE destinations spread over the graph (a prime
	 * stride), whose pace says whether searching again is worth it
	 * (near the changes or far from them, the first in order would not);
	 * then the others in order.
	 */
	stride = n % UPD_STRIDE ? UPD_STRIDE % n : 1;
	ns = n < UPD_SAMPLE ? n : UPD_SAMPLE;
	for (j = 0, d = 0; j < ns; j++, d = (d + stride) % n) {
		up.work += one_dest(&up, old, d, removed, nr, added, na);
		up.done[d] = 1;
	}
	if (ns < n && up.work * n > budget * ns) {
		ret = -EAGAIN;
		goto fail;
	}
	for (d = 0; d < n; d++)
		if (!up.done[d])
			up.work += one_dest(&up, old, d, removed, nr, added, na);
	upd_free(&up);
	/* WLB's torus: found again (a torus with a link less is none) */
	ret = r2c2_paths_coords(p);
	if (ret) {
		r2c2_paths_free(p);
		memset(p, 0, sizeof(*p));
	}
	return ret;
fail:
	upd_free(&up);
	r2c2_paths_free(p);
	memset(p, 0, sizeof(*p));
	return ret;
}
