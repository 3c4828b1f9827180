// SPDX-License-Identifier: GPL-2.0
/*
 * paths_test.c - edge cases of the userspace half of common/paths.c
 * (r2c2_link_weights_add) that the table tests do not reach, and
 * r2c2_paths_build() against a plain breadth-first search on graphs that
 * are no torus, and WLB: its torus found in the graph, and the routes
 * r2c2_route_sample() draws against r2c2_link_weights_add(). TAP output.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <r2c2/paths.h>
#include "r2c2_alloc.h"

static int n_test, n_fail;

static void ok(int cond, const char *what)
{
	n_test++;
	if (!cond)
		n_fail++;
	printf("%sok %d - %s\n", cond ? "" : "not ", n_test, what);
}

/* Sum of all link weights of one pair: the expected hop count. */
static double hops_of(const struct r2c2_paths *p, u8 rproto, u16 s, u16 d,
		      double scale)
{
	double w[64 * R2C2_MAX_PORTS] = { 0 }, t = 0;
	int i;

	if (r2c2_link_weights_add(p, rproto, s, d, scale, w))
		return NAN;
	for (i = 0; i < p->n * R2C2_MAX_PORTS; i++)
		t += w[i];
	return t;
}

/*
 * DOR's antipodal ties split evenly: all ordered pairs of an even torus
 * load every link of a dimension alike (with every tie the + way, a +
 * link of 4x4 carried 12 routes and a - link 4).
 */
static void dor_balance(void)
{
	static const u8 shapes[][2] = { { 4, 4 }, { 8, 8 }, { 2, 4 } };
	static double w[64 * R2C2_MAX_PORTS];
	static u16 nbr[64 * R2C2_MAX_PORTS];
	static u8 np[64 * R2C2_MAX_PORTS];
	struct r2c2_paths p;
	char what[160];
	int i, k, n, s, d, l;

	for (i = 0; i < 3; i++) {
		n = r2c2_torus_nbrs(shapes[i], 2, true, nbr, np);
		if (n <= 0 || r2c2_paths_build(&p, (u16)n, nbr, np)) {
			ok(0, "torus built");
			return;
		}
		for (l = 0; l < n * R2C2_MAX_PORTS; l++)
			w[l] = 0;
		for (s = 0; s < n; s++)
			for (d = 0; d < n; d++)
				if (s != d)
					r2c2_link_weights_add(&p, R2C2_RP_DOR, (u16)s,
							      (u16)d, 1, w);
		/* the same along a dimension: ports 0, 1 (x) and 2, 3 (y) */
		for (k = 0; k < 2; k++) {
			double lo = INFINITY, hi = 0;

			for (l = 0; l < n * R2C2_MAX_PORTS; l++) {
				if (l % R2C2_MAX_PORTS / 2 != k)
					continue;
				lo = fmin(lo, w[l]);
				hi = fmax(hi, w[l]);
			}
			snprintf(what, sizeof(what),
				 "DOR, every pair of %ux%u: every link along %c carries the same (%g..%g)",
				 shapes[i][0], shapes[i][1], "xy"[k], lo, hi);
			ok(lo == hi && hi > 0, what);
		}
		r2c2_paths_free(&p);
	}
}

/*
 * The tables by one breadth-first search per destination over reversed
 * links, then path counts in order of distance: what r2c2_paths_build()
 * computed before it took 64 destinations a pass. Returns how many
 * entries of @p differ.
 */
static size_t ref_diff(const struct r2c2_paths *p)
{
	unsigned int n = p->n, d, u, v, k, head, tail;
	u16 *queue = calloc(n, sizeof(*queue));
	u8 *dist = malloc(n);
	u32 *cnt = calloc(n, sizeof(*cnt));
	size_t bad = 0;

	for (d = 0; d < n; d++) {
		memset(dist, R2C2_DIST_INF, n);
		memset(cnt, 0, n * sizeof(*cnt));
		dist[d] = 0;
		cnt[d] = 1;
		head = tail = 0;
		queue[tail++] = (u16)d;
		while (head < tail) {
			v = queue[head++];
			for (u = 0; u < n; u++)
				for (k = 0; k < R2C2_MAX_PORTS; k++)
					if (p->nbr[u * R2C2_MAX_PORTS + k] == v &&
					    dist[u] == R2C2_DIST_INF) {
						dist[u] = (u8)(dist[v] + 1);
						queue[tail++] = (u16)u;
					}
		}
		for (head = 1; head < tail; head++) {
			unsigned long long sum = 0;

			u = queue[head];
			for (k = 0; k < R2C2_MAX_PORTS; k++) {
				v = p->nbr[u * R2C2_MAX_PORTS + k];
				if (v != R2C2_IDX_NONE && dist[v] + 1 == dist[u])
					sum += cnt[v];
			}
			cnt[u] = sum > R2C2_NPATHS_MAX ? R2C2_NPATHS_MAX : (u32)sum;
		}
		for (u = 0; u < n; u++)
			bad += dist[u] != p->dist[(size_t)d * n + u] ||
			       cnt[u] != p->npaths[(size_t)d * n + u];
	}
	free(queue);
	free(dist);
	free(cnt);
	return bad;
}

/*
 * Graphs the tori do not cover: more than 64 nodes and not a multiple
 * of 64 (destinations go 64 to a pass), parallel links, one-way links,
 * nodes no one reaches, and path counts that saturate.
 */
static void build_vs_reference(void)
{
	enum { L = 12, W = 8, NL = L * W, NR = 150 };
	static u16 nbr[NR * R2C2_MAX_PORTS];
	static u8 into[NR];
	struct r2c2_paths p;
	unsigned int u, k, v, sat = 0, inf = 0, seed = 12345;
	char what[128];
	size_t bad;
	int trial;

	/* 12 layers of 8 in a ring, each node linked to all 8 of the next */
	memset(nbr, 0xff, sizeof(nbr));
	for (u = 0; u < NL; u++)
		for (k = 0; k < W; k++)
			nbr[u * R2C2_MAX_PORTS + k] = (u16)((u / W + 1) % L * W + k);
	ok(r2c2_paths_build(&p, NL, nbr, NULL) == 0, "layered ring of 96 nodes builds");
	for (u = 0; u < (size_t)NL * NL; u++)
		sat += p.npaths[u] == R2C2_NPATHS_MAX;
	bad = ref_diff(&p);
	snprintf(what, sizeof(what),
		 "layered ring: distances and path counts as a plain BFS (%zu differ; %u saturated)",
		 bad, sat);
	ok(bad == 0 && sat > 0, what);
	r2c2_paths_free(&p);

	for (trial = 0; trial < 4; trial++) {
		memset(nbr, 0xff, sizeof(nbr));
		memset(into, 0, sizeof(into));
		/* about 3 links a node, some twice, node 0 and the last 5 unlinked to */
		for (u = 0; u < NR; u++)
			for (k = 0; k < 3; k++) {
				seed = seed * 1103515245u + 12345u;
				v = 1 + (seed >> 8) % (NR - 6);
				if (into[v] < R2C2_MAX_PORTS) {
					into[v]++;
					nbr[u * R2C2_MAX_PORTS + 2 * k] = (u16)v;
					if (!(seed & 0x30) && into[v] < R2C2_MAX_PORTS) {
						into[v]++;
						nbr[u * R2C2_MAX_PORTS + 2 * k + 1] = (u16)v;
					}
				}
			}
		ok(r2c2_paths_build(&p, NR, nbr, NULL) == 0, "random graph of 150 nodes builds");
		for (u = 0; u < (size_t)NR * NR; u++)
			inf += p.dist[u] == R2C2_DIST_INF;
		bad = ref_diff(&p);
		snprintf(what, sizeof(what),
			 "random graph %d: distances and path counts as a plain BFS (%zu differ)",
			 trial, bad);
		ok(bad == 0, what);
		r2c2_paths_free(&p);
	}
	snprintf(what, sizeof(what), "the random graphs have unreachable pairs (%u)", inf);
	ok(inf > 0, what);
}

static u32 xs_rand(void *ctx)
{
	u64 *x = ctx;

	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return (u32)(*x >> 32);
}

#define WLB_ROUTES	20000
#define WLB_MAXN	64

/*
 * Draw WLB_ROUTES routes s -> d and compare each link's share with
 * expected weights w (each link crossed at most once a route: a Bernoulli
 * share, within 5 standard deviations + 1e-3). Returns the number of
 * links outside; *bad counts routes that end elsewhere or are too long.
 */
static int sample_vs(const struct r2c2_paths *p, u8 rproto, u16 s, u16 d,
		     const double *w, u64 seed, int *bad)
{
	static unsigned int cnt[WLB_MAXN * R2C2_MAX_PORTS];
	unsigned int nl = p->n * R2C2_MAX_PORTS, l, r;
	u8 hops[R2C2_MAX_HOPS];
	int len, h, off = 0;

	memset(cnt, 0, sizeof(cnt));
	*bad = 0;
	for (r = 0; r < WLB_ROUTES; r++) {
		u16 u = s;

		len = r2c2_route_sample(p, rproto, s, d, xs_rand, &seed, hops);
		if (len < 0 || len > R2C2_MAX_HOPS) {
			(*bad)++;
			continue;
		}
		for (h = 0; h < len; h++) {
			cnt[u * R2C2_MAX_PORTS + hops[h]]++;
			u = p->nbr[u * R2C2_MAX_PORTS + hops[h]];
		}
		*bad += u != d;
	}
	for (l = 0; l < nl; l++) {
		double f = (double)cnt[l] / WLB_ROUTES;
		double sd = sqrt(w[l] * (1 - (w[l] < 1 ? w[l] : 1)) / WLB_ROUTES);

		off += fabs(f - w[l]) > 5 * sd + 1e-3;
	}
	return off;
}

static int build_torus(struct r2c2_paths *p, const u8 *dims, unsigned int nd,
		       bool wrap, u16 *nbr, u8 *np)
{
	int n = r2c2_torus_nbrs(dims, nd, wrap, nbr, np);

	return n <= 0 ? -1 : r2c2_paths_build(p, (u16)n, nbr, np);
}

/*
 * WLB: the torus r2c2_paths_build() finds in a graph, the sampler against
 * the weights, the mesh and the cut torus where it is RPS, and quadrants
 * longer than R2C2_MAX_HOPS left out
 */
static void wlb_tests(void)
{
	static const u8 shapes[][3] = { { 8, 8, 1 }, { 3, 4, 5 }, { 4, 4, 4 } };
	static const u8 nds[] = { 2, 3, 3 };
	static u16 nbr[64 * R2C2_MAX_PORTS], nbr2[64 * R2C2_MAX_PORTS];
	static u8 np[64 * R2C2_MAX_PORTS];
	static double w[64 * R2C2_MAX_PORTS], w2[64 * R2C2_MAX_PORTS];
	struct r2c2_paths p, q;
	unsigned int i, j, u, k, coords_ok, off_all = 0, bad_all = 0;
	unsigned int fit_ok = 1, same = 1, rps_off = 0;
	char what[200];
	u64 seed = 0x9e3779b97f4a7c15ull;
	int bad, r1, r2;

	for (i = 0; i < 3; i++) {
		if (build_torus(&p, shapes[i], nds[i], true, nbr, np)) {
			ok(0, "WLB: torus built");
			return;
		}
		coords_ok = p.ndims == nds[i] && p.coord && p.at;
		for (j = 0; coords_ok && j < nds[i]; j++)
			coords_ok = p.radix[j] == shapes[i][j];
		for (u = 0; coords_ok && u < p.n; u++) {
			unsigned int rest = u;

			for (j = 0; j < nds[i]; j++) {
				coords_ok &= p.coord[u * R2C2_MAX_DIMS + j] ==
					     rest % shapes[i][j];
				rest /= shapes[i][j];
			}
			coords_ok &= p.at[u] == u;
		}
		snprintf(what, sizeof(what),
			 "WLB: the %ux%ux%u torus found in the graph, every node at its coordinates",
			 shapes[i][0], shapes[i][1], nds[i] > 2 ? shapes[i][2] : 1);
		ok(coords_ok, what);
		/* every 37th pair: the sampler against the weights */
		for (u = 0; u < p.n * p.n; u += 37) {
			u16 s = (u16)(u / p.n), d = (u16)(u % p.n);

			memset(w, 0, sizeof(w));
			if (s == d ||
			    r2c2_link_weights_add(&p, R2C2_RP_WLB, s, d, 1, w)) {
				continue;
			}
			off_all += sample_vs(&p, R2C2_RP_WLB, s, d, w, seed++, &bad);
			bad_all += bad;
		}
		/* the tolerance tells WLB from RPS: sample WLB, expect RPS */
		memset(w, 0, sizeof(w));
		r2c2_link_weights_add(&p, R2C2_RP_RPS, 0, (u16)(p.n / 2 + 1), 1, w);
		rps_off += sample_vs(&p, R2C2_RP_WLB, 0, (u16)(p.n / 2 + 1), w,
				     seed++, &bad);
		r2c2_paths_free(&p);
	}
	snprintf(what, sizeof(what),
		 "WLB: %d routes of every 37th pair of 8x8, 3x4x5, 4x4x4 end at their destination (%u do not) and use each link as r2c2_link_weights_add() says (%u links outside 5 sd)",
		 WLB_ROUTES, bad_all, off_all);
	ok(off_all == 0 && bad_all == 0, what);
	snprintf(what, sizeof(what),
		 "WLB: the same check finds WLB's routes unlike RPS's weights (%u links outside)",
		 rps_off);
	ok(rps_off > 0, what);

	/* a mesh is no torus: WLB is RPS */
	if (build_torus(&p, shapes[0], 2, false, nbr, np)) {
		ok(0, "WLB: mesh built");
		return;
	}
	for (u = 0; u < p.n * p.n; u++) {
		memset(w, 0, sizeof(w));
		memset(w2, 0, sizeof(w2));
		r2c2_link_weights_add(&p, R2C2_RP_WLB, (u16)(u / p.n), (u16)(u % p.n), 1, w);
		r2c2_link_weights_add(&p, R2C2_RP_RPS, (u16)(u / p.n), (u16)(u % p.n), 1, w2);
		same &= !memcmp(w, w2, sizeof(w));
	}
	ok(p.ndims == 0 && !p.coord && same,
	   "WLB: an 8x8 mesh is no torus, and WLB's weights are RPS's for every pair");
	r2c2_paths_free(&p);

	/* a torus with a link cut both ways is none; restored, it is again */
	if (build_torus(&p, shapes[0], 2, true, nbr, np)) {
		ok(0, "WLB: torus built");
		return;
	}
	memcpy(nbr2, nbr, sizeof(nbr2));
	nbr2[0 * R2C2_MAX_PORTS + 0] = R2C2_IDX_NONE;
	nbr2[1 * R2C2_MAX_PORTS + 1] = R2C2_IDX_NONE;
	/* a budget of every entry: the update, never the full build */
	r1 = r2c2_paths_update(&q, &p, nbr2, np, 64 * 64);
	k = !r1 && q.ndims == 0 && !q.coord;
	r2c2_paths_free(&p);
	r2 = r2c2_paths_update(&p, &q, nbr, np, 64 * 64);
	k &= !r2 && p.ndims == 2 && p.coord && p.radix[0] == 8;
	snprintf(what, sizeof(what),
		 "WLB: r2c2_paths_update() finds no torus with a link cut, and the torus again once it is back (%d, %d)",
		 r1, r2);
	ok(k, what);
	r2c2_paths_free(&p);
	r2c2_paths_free(&q);

	/*
	 * a ring of 60: offset 10 never the - way (50 hops > R2C2_MAX_HOPS);
	 * offset 20 the - way (40 hops) with probability 20/60; offset 30
	 * either way, half each
	 */
	{
		u8 ring = 60;
		static const struct { u16 d; double hops; } want[] = {
			{ 10, 10 }, { 20, 40.0 / 60 * 20 + 20.0 / 60 * 40 },
			{ 30, 30 }, { 50, 10 },
		};
		double h;

		if (build_torus(&p, &ring, 1, true, nbr, np)) {
			ok(0, "WLB: ring built");
			return;
		}
		for (i = 0; i < 4; i++) {
			memset(w, 0, sizeof(w));
			r2c2_link_weights_add(&p, R2C2_RP_WLB, 0, want[i].d, 1, w);
			for (h = 0, u = 0; u < 60 * R2C2_MAX_PORTS; u++)
				h += w[u];
			fit_ok &= fabs(h - want[i].hops) < 1e-9;
			fit_ok &= !sample_vs(&p, R2C2_RP_WLB, 0, want[i].d, w, seed++, &bad) && !bad;
		}
		ok(fit_ok, "WLB: on a ring of 60 a quadrant over 42 hops is left out, in the weights and the sampler alike");
		r2c2_paths_free(&p);
	}
}

int main(void)
{
	u8 dims[2] = { 4, 4 };
	u16 nbr[16 * R2C2_MAX_PORTS];
	u8 np[16 * R2C2_MAX_PORTS];
	struct r2c2_paths p;
	int pr, s, d, zero_ok = 1, neg_ok = 1;
	unsigned long y0 = r2c2_yields;
	char what[96];

	r2c2_torus_nbrs(dims, 2, true, nbr, np);
	ok(r2c2_paths_build(&p, 16, nbr, np) == 0, "4x4 torus tables build");
	/*
	 * the kernel's build must not hold the CPU for O(n^2): 16,384 nodes;
	 * it offers it once per level of each 64 destinations (4x4: one
	 * pass, diameter 4, and the level that finds no one)
	 */
	snprintf(what, sizeof(what),
		 "the build offers the CPU once per level (%lu times for 4x4)",
		 r2c2_yields - y0);
	ok(r2c2_yields - y0 == 5, what);

	/* scale 0 used to overflow the frontier list (reach == 0 as marker) */
	for (pr = 0; pr < __R2C2_RP_MAX; pr++)
		for (s = 0; s < 16; s++)
			for (d = 0; d < 16; d++) {
				double z = hops_of(&p, (u8)pr, (u16)s, (u16)d, 0);
				double h = hops_of(&p, (u8)pr, (u16)s, (u16)d, 1);
				double m = hops_of(&p, (u8)pr, (u16)s, (u16)d, -2);

				zero_ok &= z == 0;
				neg_ok &= fabs(m + 2 * h) < 1e-12;
			}
	ok(zero_ok, "scale 0 adds nothing for every pair and protocol");
	ok(neg_ok, "scale -2 adds exactly -2 times scale 1");
	ok(fabs(hops_of(&p, R2C2_RP_RPS, 0, 10, 1) - 4) < 1e-12,
	   "RPS 0 -> 10 on 4x4 uses 4 hops in expectation");
	ok(fabs(hops_of(&p, R2C2_RP_DOR, 0, 0, 1)) == 0,
	   "a flow to itself uses no link");
	ok(r2c2_link_weights_add(&p, __R2C2_RP_MAX, 0, 1, 1, NULL) == -EINVAL,
	   "unknown protocol is rejected");
	r2c2_paths_free(&p);
	dor_balance();
	build_vs_reference();
	wlb_tests();
	printf("1..%d\n", n_test);
	return n_fail != 0;
}
