// SPDX-License-Identifier: GPL-2.0
/*
 * rtab_test.c - the allocator's routing tables equal the shared
 * definition r2c2_link_weights_add() (common/paths.c) for every pair and
 * protocol on small tori, meshes and random graphs; Figure 3.
 */
#include <math.h>
#include <string.h>
#include "r2c2_alloc.h"
#include "rtab_int.h"
#include "alloc_tap.h"

/* random graph: each node gets 2..4 random out-links, plus a ring so it
 * is strongly connected; sometimes a sparse one where VLB cannot split */
static struct r2c2_topo *rand_graph(uint64_t *seed, unsigned int n, bool line)
{
	u16 nbr[64 * 8];
	double cap[64 * 8];
	u8 np[64] = { 0 };
	struct r2c2_topo *t;
	unsigned int u, k;

	memset(nbr, 0xff, sizeof(nbr));
	memset(cap, 0, sizeof(cap));
	for (u = 0; u < n; u++) {
		unsigned int v = (u + 1) % n;

		if (line && u + 1 == n)
			continue;
		nbr[u * 8 + np[u]] = (u16)v; cap[u * 8 + np[u]++] = 1;
		nbr[v * 8 + np[v]] = (u16)u; cap[v * 8 + np[v]++] = 1;
	}
	for (u = 0; u < n && !line; u++)
		for (k = tbelow(seed, 3); k > 0 && np[u] < 8; k--) {
			unsigned int v = tbelow(seed, n);

			if (v == u)
				continue;
			nbr[u * 8 + np[u]] = (u16)v;
			cap[u * 8 + np[u]++] = 1 + tbelow(seed, 3);
		}
	if (r2c2_topo_from_adj(&t, (u16)n, nbr, cap))
		return NULL;
	return t;
}

/* the tables against r2c2_link_weights_add() for every pair, protocols 0..np-1 */
static int compare_protos(struct r2c2_topo *t, const char *name, unsigned int np)
{
	size_t nl = R2C2_NLINKS(t->n);
	double *a = calloc(nl, sizeof(double)), *b = calloc(nl, sizeof(double));
	struct r2c2_rtab *rt;
	unsigned int s, d, p;
	double worst = 0;
	int ret = r2c2_rtab_new(&rt, t), bad = 0;
	size_t l;

	if (ret) {
		ok(0, "%s: rtab_new %d", name, ret);
		return 1;
	}
	/* room made first for some of the pairs: the weights the same */
	if (r2c2_rtab_reserve(rt, t->n)) {
		ok(0, "%s: r2c2_rtab_reserve", name);
		r2c2_rtab_free(rt);
		return 1;
	}
	for (p = 0; p < np; p++)
		for (s = 0; s < t->n; s++)
			for (d = 0; d < t->n; d++) {
				int r1, r2;

				if (s == d)
					continue;
				memset(a, 0, nl * sizeof(double));
				memset(b, 0, nl * sizeof(double));
				r1 = r2c2_link_weights_add(&t->paths, (u8)p, (u16)s, (u16)d, 1.0, a);
				r2 = r2c2_rtab_prepare(rt, (u16)s, (u16)d, (u8)p);
				if (!r2)
					r2 = r2c2_rtab_weights_add(rt, (u16)s, (u16)d, (u8)p, 1.0, b);
				if (r1 != r2) {
					bad++;
					continue;
				}
				for (l = 0; l < nl; l++) {
					worst = fmax(worst, fabs(a[l] - b[l]));
					if ((a[l] == 0) != (b[l] == 0) && fabs(a[l] - b[l]) > 1e-12)
						bad++;
				}
			}
	ok(!bad && worst <= 1e-12, "%s: tables == r2c2_link_weights_add for all pairs x {rps,dor%s} (max diff %.2g)",
	   name, np > R2C2_RP_WLB ? ",vlb,wlb" : np > R2C2_RP_VLB ? ",vlb" : "",
	   worst);
	r2c2_rtab_free(rt);
	free(a);
	free(b);
	return 0;
}

static int compare_all(struct r2c2_topo *t, const char *name)
{
	return compare_protos(t, name, __R2C2_RP_MAX);
}

/*
 * Path counts that saturate (R2C2_NPATHS_MAX), where a minimal leg's
 * weights cannot come from the counts: a ring of 12 layers of 8 nodes,
 * each linked one way to all 8 of the next layer (8^10 minimal paths
 * over 11 hops), its RPS and DOR legs against r2c2_link_weights_add()
 */
static void saturated_check(void)
{
	enum { L = 12, W = 8, N = L * W };
	static u16 nbr[N * 8];
	static double cap[N * 8];
	struct r2c2_topo *t;
	unsigned int u, k, sat = 0;

	for (u = 0; u < N; u++)
		for (k = 0; k < W; k++) {
			nbr[u * 8 + k] = (u16)((u / W + 1) % L * W + k);
			cap[u * 8 + k] = 1;
		}
	if (r2c2_topo_from_adj(&t, N, nbr, cap)) {
		ok(0, "layered ring of 96 nodes builds");
		return;
	}
	for (u = 0; u < (unsigned int)N * N; u++)
		sat += t->paths.npaths[u] >= R2C2_NPATHS_MAX;
	ok(sat > 0, "layered ring: %u pairs' path counts saturated", sat);
	compare_protos(t, "layered ring of 96 nodes, one-way links, path counts saturated",
		       R2C2_RP_VLB);
	r2c2_topo_free(t);
}

/*
 * VLB pairs that cannot be split, on saturated path counts: a ring of 24
 * layers of 8 nodes, each linked one way to all 8 of the next layer (23
 * hops across, so some intermediates' routes pass R2C2_MAX_HOPS). Pairs
 * from node 0 to one node of each layer, against
 * r2c2_link_weights_add() (every pair would take minutes)
 */
static void vlb_saturated_check(void)
{
	enum { L = 24, W = 8, N = L * W };
	static u16 nbr[N * 8];
	static double cap[N * 8];
	size_t nl = R2C2_NLINKS(N), l;
	double *a = calloc(nl, sizeof(double)), *b = calloc(nl, sizeof(double));
	struct r2c2_topo *t = NULL;
	struct r2c2_rtab *rt = NULL;
	unsigned int u, k, d, bad = 0, split = 0;
	double worst = 0;

	for (u = 0; u < N; u++)
		for (k = 0; k < W; k++) {
			nbr[u * 8 + k] = (u16)((u / W + 1) % L * W + k);
			cap[u * 8 + k] = 1;
		}
	if (!a || !b || r2c2_topo_from_adj(&t, N, nbr, cap) || r2c2_rtab_new(&rt, t)) {
		ok(0, "layered ring of 192 nodes: tables");
		goto out;
	}
	for (d = W + 3; d < N; d += W) {
		unsigned int m, ok_m = 0;

		for (m = 0; m < N; m++)
			ok_m += r2c2_vlb_ok(&t->paths, 0, (u16)m, (u16)d);
		split += ok_m == N;
		memset(a, 0, nl * sizeof(double));
		memset(b, 0, nl * sizeof(double));
		if (r2c2_link_weights_add(&t->paths, R2C2_RP_VLB, 0, (u16)d, 1.0, a) ||
		    r2c2_rtab_prepare(rt, 0, (u16)d, R2C2_RP_VLB) ||
		    r2c2_rtab_weights_add(rt, 0, (u16)d, R2C2_RP_VLB, 1.0, b)) {
			bad++;
			continue;
		}
		for (l = 0; l < nl; l++)
			worst = fmax(worst, fabs(a[l] - b[l]));
	}
	ok(!bad && worst <= 1e-12 && split < L - 1,
	   "layered ring of 192 nodes, path counts saturated: VLB from node 0 to a node of each layer (%u of %u split) == r2c2_link_weights_add (max diff %.2g, %u failed)",
	   split, L - 1, worst, bad);
out:
	r2c2_rtab_free(rt);
	r2c2_topo_free(t);
	free(a);
	free(b);
}

static size_t rtab_bytes(const struct r2c2_rtab *rt)
{
	size_t b = 0;
	unsigned int p;

	for (p = 0; p < __R2C2_RP_MAX; p++)
		b += r2c2_rtab_memory(rt, (u8)p);
	return b;
}

/*
 * r2c2_rtab_clear() on a graph: every pair prepared, cleared (the bytes
 * freed are those counted, none left, no pair prepared), then prepared
 * again: the same weights as r2c2_link_weights_add()
 */
static void clear_check(struct r2c2_topo *t, const char *name)
{
	size_t nl = R2C2_NLINKS(t->n), full, freed, l;
	double *a = calloc(nl, sizeof(double)), *b = calloc(nl, sizeof(double));
	struct r2c2_rtab *rt;
	unsigned int s, d, p, left = 0, bad = 0;
	int round;

	if (r2c2_rtab_new(&rt, t)) {
		ok(0, "%s: rtab_new", name);
		return;
	}
	full = freed = 0;
	for (round = 0; round < 2; round++) {
		for (p = 0; p < __R2C2_RP_MAX; p++)
			for (s = 0; s < t->n; s++)
				for (d = 0; d < t->n; d++) {
					if (s == d || r2c2_rtab_prepare(rt, (u16)s, (u16)d, (u8)p))
						continue;
					memset(a, 0, nl * sizeof(double));
					memset(b, 0, nl * sizeof(double));
					r2c2_link_weights_add(&t->paths, (u8)p, (u16)s, (u16)d, 1.0, a);
					r2c2_rtab_weights_add(rt, (u16)s, (u16)d, (u8)p, 1.0, b);
					for (l = 0; l < nl; l++)
						bad += fabs(a[l] - b[l]) > 1e-12;
				}
		if (round)
			break;
		full = rtab_bytes(rt);
		freed = r2c2_rtab_clear(rt);
		for (p = 0; p < __R2C2_RP_MAX; p++)
			for (s = 0; s < t->n; s++)
				for (d = 0; d < t->n; d++)
					left += s != d &&
						r2c2_rtab_prepared(rt, (u16)s, (u16)d, (u8)p);
		left += rtab_bytes(rt) != 0;
	}
	ok(full > 0 && freed == full && !left && !bad && rtab_bytes(rt) == full,
	   "%s: rtab_clear frees the %zu bytes of every pair (%zu), leaves none prepared (%u), the same weights again (%u wrong)",
	   name, full, freed, left, bad);
	r2c2_rtab_free(rt);
	free(a);
	free(b);
}

/*
 * The proportional-fair allocator prices all VLB groups at once by the
 * adjoint (r2c2_rtab_groups_corr(): ga[s] = sum_l A_s(l) y(l)) and bounds
 * its steps with the squared groups (r2c2_rtab_groups_conv_sq()): both
 * against the groups' coefficients link by link.
 */
static void corr_check(const struct r2c2_rtab *rt, const struct r2c2_topo *t,
		       const char *name, const double *wa, const double *wb,
		       double *sc, uint64_t *seed)
{
	size_t nl = R2C2_NLINKS(t->n), l;
	double *y = calloc(nl, sizeof(double)), *q = calloc(nl, sizeof(double));
	double *z = calloc(nl, sizeof(double));
	double *ga = calloc(t->n, sizeof(double)), *gb = calloc(t->n, sizeof(double));
	double worst = 0, big = 0, wq = 0, bq = 0;
	unsigned int s, n = t->n;
	int ret, ret2;

	for (l = 0; l < nl; l++)
		y[l] = tbelow(seed, 2) ? tunif(seed) : 0;
	ret = r2c2_rtab_groups_corr(rt, y, ga, gb, sc);
	ret2 = r2c2_rtab_groups_conv_sq(rt, wa, wb, z, sc);
	for (s = 0; s < 2 * n; s++) {
		double dot = 0, w = s < n ? wa[s] : wb[s - n];

		for (l = 0; l < nl; l++) {
			double a = r2c2_rtab_group_coef(rt, s, (u32)l);

			dot += a * y[l];
			q[l] += w * a * a;
		}
		worst = fmax(worst, fabs(dot - (s < n ? ga[s] : gb[s - n])));
		big = fmax(big, fabs(dot));
	}
	for (l = 0; l < nl; l++) {
		wq = fmax(wq, fabs(q[l] - z[l]));
		bq = fmax(bq, fabs(q[l]));
	}
	ok(!ret && big > 0 && worst <= 1e-12 * big,
	   "%s: every VLB group's dot product by DFT correlation == link by link (max diff %.2g of %.3g)",
	   name, worst, big);
	ok(!ret2 && bq > 0 && wq <= 1e-12 * bq,
	   "%s: squared VLB groups by DFT convolution == link by link (max diff %.2g of %.3g)",
	   name, wq, bq);
	free(y); free(q); free(z); free(ga); free(gb);
}

/*
 * The allocators update many VLB groups at once by a DFT convolution
 * (r2c2_rtab_groups_conv()): it must equal sum_s wa[s] * A_s +
 * sum_d wb[d] * B_d with A_s = sum_m RPS(s -> m), B_d = sum_m RPS(m -> d)
 * straight from r2c2_link_weights_add().
 */
static void conv_check(struct r2c2_topo *t, const char *name, uint64_t *seed)
{
	size_t nl = R2C2_NLINKS(t->n), l;
	double *a = calloc(nl, sizeof(double)), *b = calloc(nl, sizeof(double));
	double *wa = calloc(t->n, sizeof(double)), *wb = calloc(t->n, sizeof(double));
	struct r2c2_rtab *rt;
	double *sc, worst = 0, big = 0;
	unsigned int s, m;
	int ret;

	r2c2_rtab_new(&rt, t);
	if (!r2c2_rtab_conv_scratch(rt)) {
		ok(0, "%s: no convolution tables", name);
		goto out;
	}
	sc = calloc(r2c2_rtab_conv_scratch(rt), sizeof(double));
	for (s = 0; s < t->n; s++) {
		wa[s] = tbelow(seed, 3) ? tunif(seed) * 4 : 0;
		wb[s] = tbelow(seed, 3) ? tunif(seed) * 4 : 0;
	}
	/* (scale 0 is skipped: r2c2_link_weights_add() wants a nonzero one) */
	for (s = 0; s < t->n; s++)
		for (m = 0; m < t->n; m++) {
			if (m == s)
				continue;
			if (wa[s] != 0)
				r2c2_link_weights_add(&t->paths, R2C2_RP_RPS, (u16)s, (u16)m, wa[s], a);
			if (wb[s] != 0)
				r2c2_link_weights_add(&t->paths, R2C2_RP_RPS, (u16)m, (u16)s, wb[s], a);
		}
	ret = r2c2_rtab_groups_conv(rt, wa, wb, b, sc);
	for (l = 0; l < nl; l++) {
		worst = fmax(worst, fabs(a[l] - b[l]));
		big = fmax(big, fabs(a[l]));
	}
	ok(!ret && worst <= 1e-12 * big,
	   "%s: VLB groups by DFT convolution == sum of r2c2_link_weights_add (max diff %.2g of %.3g)",
	   name, worst, big);
	corr_check(rt, t, name, wa, wb, sc, seed);
	free(sc);
out:
	r2c2_rtab_free(rt);
	free(a); free(b); free(wa); free(wb);
}

/*
 * A torus given as a bare adjacency (what r2c2d builds from the kernel's
 * graph) gets the torus's neighbour ports back, parallel links of a
 * radix-2 dimension included, so DOR's ties (which need them) route as
 * on the torus: every pair's DOR weights equal.
 */
static void adj_ports_of_tori(void)
{
	static const u8 shapes[][3] = { { 2, 4, 0 }, { 4, 4, 0 }, { 2, 2, 2 },
					{ 6, 6, 0 } };
	unsigned int i, s, d, bad;
	size_t l, nl;

	for (i = 0; i < 4; i++) {
		unsigned int nd = shapes[i][2] ? 3 : 2;
		struct r2c2_topo *g, *a;
		double *wg, *wa;

		if (r2c2_topo_grid(&g, shapes[i], nd, true, 1) ||
		    r2c2_topo_from_adj(&a, g->n, g->nbr, g->cap)) {
			ok(0, "torus %u built", i);
			continue;
		}
		nl = R2C2_NLINKS(g->n);
		bad = 0;
		for (l = 0; l < nl; l++)
			bad += g->nbr[l] != R2C2_IDX_NONE &&
			       g->nbr_port[l] != a->nbr_port[l];
		wg = calloc(nl, sizeof(*wg));
		wa = calloc(nl, sizeof(*wa));
		for (s = 0; s < g->n && wg && wa; s++)
			for (d = 0; d < g->n; d++) {
				memset(wg, 0, nl * sizeof(*wg));
				memset(wa, 0, nl * sizeof(*wa));
				r2c2_link_weights_add(&g->paths, R2C2_RP_DOR, (u16)s,
						      (u16)d, 1, wg);
				r2c2_link_weights_add(&a->paths, R2C2_RP_DOR, (u16)s,
						      (u16)d, 1, wa);
				bad += memcmp(wg, wa, nl * sizeof(*wg)) != 0;
			}
		ok(wg && wa && bad == 0,
		   "torus %ux%u%s%.0u as an adjacency: its neighbour ports and every pair's DOR weights (%u differ)",
		   shapes[i][0], shapes[i][1], nd == 3 ? "x" : "", nd == 3 ? shapes[i][2] : 0, bad);
		free(wg);
		free(wa);
		r2c2_topo_free(g);
		r2c2_topo_free(a);
	}
}

/*
 * Far-end ports given (r2c2_topo_from_adj_ports(), as r2c2d has them from
 * the kernel) are taken where they lead back, and guessed where they do
 * not: on a 2x4 torus with dimension 0's parallel links crossed (port 0
 * to port 0, the guess would be port 1), and with one port that names a
 * port not back to the node. DOR then takes the lowest minimal port on a
 * tie (the rule by route length needs the torus wiring); on the guessed
 * ports it splits ties as on the torus.
 */
static void adj_ports_given(void)
{
	static const u8 dims[2] = { 2, 4 };
	struct r2c2_topo *g, *a = NULL, *b = NULL;
	unsigned int u, p, bad = 0;
	u8 *np = NULL;
	size_t l, nl;
	double *w;

	if (r2c2_topo_grid(&g, dims, 2, true, 1)) {
		ok(0, "2x4 torus built");
		return;
	}
	nl = R2C2_NLINKS(g->n);
	np = malloc(nl);
	w = calloc(nl, sizeof(*w));
	if (!np || !w)
		goto out;
	memcpy(np, g->nbr_port, nl);
	for (u = 0; u < g->n; u++)
		for (p = 0; p < 2; p++)
			np[u * R2C2_MAX_PORTS + p] = (u8)p;
	np[0 * R2C2_MAX_PORTS + 2] = 7;		/* no port 7 at the neighbour */
	if (r2c2_topo_from_adj_ports(&a, g->n, g->nbr, np, g->cap) ||
	    r2c2_topo_from_adj_ports(&b, g->n, g->nbr, NULL, g->cap))
		goto out;
	for (l = 0; l < nl; l++)
		bad += l != 2 && g->nbr[l] != R2C2_IDX_NONE &&
		       a->nbr_port[l] != np[l];
	ok(bad == 0 && a->nbr_port[2] == g->nbr_port[2] &&
	   b->nbr_port[0] == 1 && b->nbr_port[1] == 0,
	   "given far-end ports taken (%u differ), one that does not lead back guessed (%u, the torus's %u); none given: the torus's (%u %u)",
	   bad, a->nbr_port[2], g->nbr_port[2], b->nbr_port[0], b->nbr_port[1]);
	/* every DOR route from node 0 through node 0's ports 0 and 1 */
	for (u = 1; u < g->n; u++)
		r2c2_link_weights_add(&a->paths, R2C2_RP_DOR, 0, (u16)u, 1, w);
	ok(w[0] == 4 && w[1] == 0,
	   "crossed: DOR from node 0 crosses dimension 0 by its lowest port only (ports 0, 1: %.0f %.0f routes)",
	   w[0], w[1]);
	memset(w, 0, nl * sizeof(*w));
	for (u = 1; u < g->n; u++)
		r2c2_link_weights_add(&b->paths, R2C2_RP_DOR, 0, (u16)u, 1, w);
	ok(w[0] == 2 && w[1] == 2,
	   "torus wiring: the same ties split by route length (ports 0, 1: %.0f %.0f routes)",
	   w[0], w[1]);
out:
	if (!np || !w || !a || !b)
		ok(0, "2x4 torus with crossed ports built");
	free(np);
	free(w);
	r2c2_topo_free(a);
	r2c2_topo_free(b);
	r2c2_topo_free(g);
}

/* link l of an adjacency cut both ways */
static void cut_both(u16 *nbr, u8 *np, double *cap, size_t l)
{
	size_t r = (size_t)nbr[l] * R2C2_MAX_PORTS + np[l];

	nbr[l] = nbr[r] = R2C2_IDX_NONE;
	cap[l] = cap[r] = 0;
}

/* every pair and protocol prepared; returns how many could be */
static size_t prepare_all(struct r2c2_rtab *rt, u16 n)
{
	unsigned int s, d, p;
	size_t c = 0;

	for (p = 0; p < __R2C2_RP_MAX; p++)
		for (s = 0; s < n; s++)
			for (d = 0; d < n; d++)
				c += s != d && !r2c2_rtab_prepare(rt, (u16)s, (u16)d, (u8)p);
	return c;
}

/*
 * Every pair's weights on t's tables and on fresh tables of the same
 * graph, densified: the largest difference; *bad counts pairs prepared
 * on one and not the other
 */
static double apart_all(struct r2c2_rtab *rt, struct r2c2_rtab *fresh,
			u16 n, unsigned int *bad)
{
	size_t nl = R2C2_NLINKS(n), l;
	double *a = calloc(nl, sizeof(double)), *b = calloc(nl, sizeof(double));
	unsigned int s, d, p;
	double worst = a && b ? 0 : INFINITY;

	*bad = 0;
	for (p = 0; a && b && p < __R2C2_RP_MAX; p++)
		for (s = 0; s < n; s++)
			for (d = 0; d < n; d++) {
				int r1, r2;

				if (s == d)
					continue;
				r1 = r2c2_rtab_prepare(rt, (u16)s, (u16)d, (u8)p);
				r2 = r2c2_rtab_prepare(fresh, (u16)s, (u16)d, (u8)p);
				if (r1 != r2)
					(*bad)++;
				if (r1 || r2)
					continue;
				memset(a, 0, nl * sizeof(double));
				memset(b, 0, nl * sizeof(double));
				r2c2_rtab_weights_add(rt, (u16)s, (u16)d, (u8)p, 1.0, a);
				r2c2_rtab_weights_add(fresh, (u16)s, (u16)d, (u8)p, 1.0, b);
				for (l = 0; l < nl; l++)
					worst = fmax(worst, fabs(a[l] - b[l]));
			}
	free(a);
	free(b);
	return worst;
}

/*
 * r2c2_rtab_carry(): a graph's tables with every pair prepared, then the
 * graph after change: what the new tables copied and what they then
 * prepare themselves gives every pair exactly (bit for bit) the weights of
 * tables built afresh for the new graph. The change must leave most pairs
 * as they were (a change far from a leg keeps it) and not all (a change
 * on a leg does not).
 */
static size_t carry_check(u16 n, const u16 *nbr0, const u8 *np0,
			const double *cap0, const u16 *nbr1, const u8 *np1,
			const double *cap1, const char *name)
{
	size_t moved = 0, total = 0, bytes = 0;
	struct r2c2_topo *t0 = NULL, *t1 = NULL;
	struct r2c2_rtab *old = NULL, *rt = NULL, *fresh = NULL;
	unsigned int p, bad = 0;
	double worst;

	if (r2c2_topo_from_adj_ports(&t0, n, nbr0, np0, cap0) ||
	    r2c2_topo_from_adj_ports(&t1, n, nbr1, np1, cap1) ||
	    r2c2_rtab_new(&old, t0) || r2c2_rtab_new(&rt, t1) ||
	    r2c2_rtab_new(&fresh, t1)) {
		ok(0, "%s: tables", name);
		goto out;
	}
	total = prepare_all(old, n);
	moved = r2c2_rtab_carry(rt, old);
	for (p = 0; p < __R2C2_RP_MAX; p++)
		bytes += r2c2_rtab_memory(rt, (u8)p);
	r2c2_rtab_free(old);
	old = NULL;
	worst = apart_all(rt, fresh, n, &bad);
	ok(!bad && worst == 0 && moved * 2 > total && moved < total && bytes > 0,
	   "%s: %zu pairs and groups copied (of %zu pairs prepared), then every pair's weights those of new tables bit for bit (max diff %g, %u prepared otherwise)",
	   name, moved, total, worst, bad);
out:
	r2c2_rtab_free(old);
	r2c2_rtab_free(rt);
	r2c2_rtab_free(fresh);
	r2c2_topo_free(t0);
	r2c2_topo_free(t1);
	return moved;
}

/*
 * Max-min and proportional fairness over 600 random flows (every
 * protocol, weights 1-3, some with a demand) on tables a and on tables
 * b of the same graph: the largest relative difference of a rate (1 when
 * a solve failed)
 */
static double rates_apart_all(const struct r2c2_rtab *a,
			      const struct r2c2_rtab *b, u16 n)
{
	static struct r2c2_flow f[600];
	static double x[600], y[600];
	uint64_t seed = 17;
	double worst = 0;
	size_t i;
	int pol;

	for (i = 0; i < 600; i++) {
		f[i].src = (u16)tbelow(&seed, n);
		f[i].dst = (u16)((f[i].src + 1 + tbelow(&seed, n - 1)) % n);
		f[i].rproto = (u8)(i % 3);
		f[i].weight = 1 + (double)tbelow(&seed, 3);
		f[i].demand = i % 7 ? 0 : 0.01 + 0.1 * (double)tbelow(&seed, 5);
	}
	for (pol = 0; pol < 2; pol++) {
		struct r2c2_pf *pa = pol ? r2c2_pf_new(a, NULL) : NULL;
		struct r2c2_pf *pb = pol ? r2c2_pf_new(b, NULL) : NULL;

		if (pol ? !pa || !pb ||
			  r2c2_propfair(pa, f, 600, 0.05, x, NULL) ||
			  r2c2_propfair(pb, f, 600, 0.05, y, NULL) :
			  r2c2_maxmin(a, f, 600, 0.05, x, NULL) ||
			  r2c2_maxmin(b, f, 600, 0.05, y, NULL))
			worst = 1;
		for (i = 0; worst < 1 && i < 600; i++)
			worst = fmax(worst, fabs(x[i] - y[i]) / fmax(y[i], 1e-300));
		r2c2_pf_free(pa);
		r2c2_pf_free(pb);
	}
	return worst;
}

/*
 * r2c2_rtab_carry() from a torus's tables (the first link failure): the
 * graph's tables keep what the torus's minimal legs need (the torus's
 * tables are freed at once), and every pair they then prepare has the
 * weights of tables built afresh (to rounding: a translated vector sums
 * in another order), most RPS and DOR legs translated from the torus's,
 * not all. Tables carried from those (their cache cleared) keep the
 * torus, with the links changed since it: fewer legs translated.
 */
static void torus_carry_check(const struct r2c2_topo *tor, const u16 *nbr1,
			      const u8 *np1, const double *cap1,
			      const u16 *nbr2, const u8 *np2,
			      const double *cap2, const char *name)
{
	struct r2c2_topo *t1 = NULL, *t2 = NULL;
	struct r2c2_rtab *trt = NULL, *rt = NULL, *rt2 = NULL, *fresh = NULL,
			 *fresh2 = NULL;
	size_t legs = 2 * (size_t)tor->n * (tor->n - 1), from, from2, moved;
	unsigned int bad, bad2;
	double worst, worst2;
	bool has, has2;

	if (r2c2_topo_from_adj_ports(&t1, tor->n, nbr1, np1, cap1) ||
	    r2c2_topo_from_adj_ports(&t2, tor->n, nbr2, np2, cap2) ||
	    r2c2_rtab_new(&trt, tor) || r2c2_rtab_new(&rt, t1) ||
	    r2c2_rtab_new(&fresh, t1) || r2c2_rtab_new(&rt2, t2) ||
	    r2c2_rtab_new(&fresh2, t2)) {
		ok(0, "%s: tables", name);
		goto out;
	}
	moved = r2c2_rtab_carry(rt, trt);
	r2c2_rtab_free(trt);
	trt = NULL;
	worst = apart_all(rt, fresh, tor->n, &bad);
	from = r2c2_rtab_from_torus(rt, &has);
	ok(moved == 0 && has && !bad && worst <= 1e-12 && from * 2 > legs &&
	   from < legs,
	   "%s: carried from the torus's tables: %zu of %zu RPS and DOR legs translated from the torus, every pair's weights those of fresh tables (max diff %.2g, %u prepared otherwise)",
	   name, from, legs, worst, bad);
	worst = rates_apart_all(rt, fresh, tor->n);
	ok(worst <= 1e-9,
	   "%s: max-min and proportional fairness on those tables: the rates of fresh tables (largest relative difference %.2g)",
	   name, worst);
	r2c2_rtab_clear(rt);	/* nothing to copy: what rt2 takes is the torus */
	r2c2_rtab_carry(rt2, rt);
	r2c2_rtab_free(rt);
	rt = NULL;
	worst2 = apart_all(rt2, fresh2, tor->n, &bad2);
	from2 = r2c2_rtab_from_torus(rt2, &has2);
	ok(has2 && !bad2 && worst2 <= 1e-12 && from2 > 0 && from2 < from,
	   "%s: the next change's tables keep the torus: %zu legs translated, every pair as fresh tables' (max diff %.2g)",
	   name, from2, worst2);
out:
	r2c2_rtab_free(trt);
	r2c2_rtab_free(rt);
	r2c2_rtab_free(rt2);
	r2c2_rtab_free(fresh);
	r2c2_rtab_free(fresh2);
	r2c2_topo_free(t1);
	r2c2_topo_free(t2);
}

/*
 * The changes r2c2d meets on a 4x4x4 torus with a link cut: one more
 * cut, the cut link back, a port wired to another node, a cut and a
 * restore at once; and the same tables carried over a change of more
 * links than it looks into (nothing moves).
 */
static void carry_checks(void)
{
	u8 dims[3] = { 4, 4, 4 };
	struct r2c2_topo *t;
	size_t nl, l1 = 0, l2, one, both;
	u16 *nbr0, *nbr1;
	u8 *np0, *np1;
	double *cap0, *cap1;

	if (r2c2_topo_grid(&t, dims, 3, true, 1.0)) {
		ok(0, "carry: torus");
		return;
	}
	nl = R2C2_NLINKS(t->n);
	nbr0 = malloc(nl * sizeof(*nbr0));
	nbr1 = malloc(nl * sizeof(*nbr1));
	np0 = malloc(nl);
	np1 = malloc(nl);
	cap0 = malloc(nl * sizeof(*cap0));
	cap1 = malloc(nl * sizeof(*cap1));
	/* link 0 of node 0 cut: the old graph */
	memcpy(nbr0, t->nbr, nl * sizeof(*nbr0));
	memcpy(np0, t->nbr_port, nl);
	memcpy(cap0, t->cap, nl * sizeof(*cap0));
	cut_both(nbr0, np0, cap0, l1);
	/* another link, far from it: node 42's port 3 */
	l2 = 42 * R2C2_MAX_PORTS + 3;

	memcpy(nbr1, nbr0, nl * sizeof(*nbr1));
	memcpy(np1, np0, nl);
	memcpy(cap1, cap0, nl * sizeof(*cap1));
	cut_both(nbr1, np1, cap1, l2);
	both = carry_check(t->n, nbr0, np0, cap0, nbr1, np1, cap1,
			   "4x4x4 less a link, one more cut");
	/*
	 * the same link cut one way only: the VLB groups it is on no minimal
	 * path of (about half) are taken over and shared with the old tables,
	 * which are freed first
	 */
	memcpy(nbr1, nbr0, nl * sizeof(*nbr1));
	memcpy(np1, np0, nl);
	memcpy(cap1, cap0, nl * sizeof(*cap1));
	nbr1[l2] = R2C2_IDX_NONE;
	cap1[l2] = 0;
	one = carry_check(t->n, nbr0, np0, cap0, nbr1, np1, cap1,
			  "4x4x4 less a link, one more cut one way");
	ok(one >= both + t->n,
	   "a link cut one way: the VLB groups it is on no minimal path of copied too (%zu copied, %zu with the link cut both ways)",
	   one, both);
	torus_carry_check(t, nbr0, np0, cap0, nbr1, np1, cap1,
			  "4x4x4 less a link, then one more");
	/* the cut link back (old: two cut, new: one) */
	carry_check(t->n, nbr1, np1, cap1, nbr0, np0, cap0,
		    "4x4x4 less two links, one back");
	/* both at once: l1 back, l2 cut */
	memcpy(nbr0, t->nbr, nl * sizeof(*nbr0));
	memcpy(np0, t->nbr_port, nl);
	memcpy(cap0, t->cap, nl * sizeof(*cap0));
	cut_both(nbr0, np0, cap0, l2);
	memcpy(nbr1, t->nbr, nl * sizeof(*nbr1));
	memcpy(np1, t->nbr_port, nl);
	memcpy(cap1, t->cap, nl * sizeof(*cap1));
	cut_both(nbr1, np1, cap1, l1);
	carry_check(t->n, nbr1, np1, cap1, nbr0, np0, cap0,
		    "4x4x4: one link back, another cut");
	/*
	 * node 0's port 0 and node 21's port 1 wired to each other instead
	 * (a shortcut): the old graph is l2 cut (nbr0), the new one that and
	 * the shortcut
	 */
	memcpy(nbr1, nbr0, nl * sizeof(*nbr1));
	memcpy(np1, np0, nl);
	memcpy(cap1, cap0, nl * sizeof(*cap1));
	{
		size_t a = 0 * R2C2_MAX_PORTS + 0, b = 21 * R2C2_MAX_PORTS + 1;

		cut_both(nbr1, np1, cap1, a);
		cut_both(nbr1, np1, cap1, b);
		nbr1[a] = 21;
		np1[a] = 1;
		nbr1[b] = 0;
		np1[b] = 0;
		cap1[a] = cap1[b] = 1.0;
	}
	carry_check(t->n, nbr0, np0, cap0, nbr1, np1, cap1,
		    "4x4x4 less a link, two links rewired to a shortcut");
	torus_carry_check(t, nbr0, np0, cap0, nbr1, np1, cap1,
			  "4x4x4 less a link, then two links rewired to a shortcut");
	{
		struct r2c2_topo *a = NULL, *b = NULL;
		struct r2c2_rtab *ra = NULL, *rb = NULL;
		size_t moved = 1, i;

		/* every link of nodes 0..15 cut, some 100 links */
		memcpy(nbr1, nbr0, nl * sizeof(*nbr1));
		memcpy(np1, np0, nl);
		memcpy(cap1, cap0, nl * sizeof(*cap1));
		for (i = 0; i < 16 * R2C2_MAX_PORTS; i++)
			if (nbr1[i] != R2C2_IDX_NONE && i != 0 * R2C2_MAX_PORTS + 1)
				cut_both(nbr1, np1, cap1, i);
		if (!r2c2_topo_from_adj_ports(&a, t->n, nbr0, np0, cap0) &&
		    !r2c2_topo_from_adj_ports(&b, t->n, nbr1, np1, cap1) &&
		    !r2c2_rtab_new(&ra, a) && !r2c2_rtab_new(&rb, b)) {
			prepare_all(ra, t->n);
			moved = r2c2_rtab_carry(rb, ra);
		}
		ok(moved == 0, "a change of more links than looked into: nothing copied (%zu)",
		   moved);
		r2c2_rtab_free(ra);
		r2c2_rtab_free(rb);
		r2c2_topo_free(a);
		r2c2_topo_free(b);
	}
	free(nbr0);
	free(nbr1);
	free(np0);
	free(np1);
	free(cap0);
	free(cap1);
	r2c2_topo_free(t);
}

/*
 * A torus's WLB vectors are made as pairs want them: none before, the
 * pair's (not another of its offset) after r2c2_rtab_prepare(); a
 * max-min of an unprepared WLB flow refused, then solved once prepared;
 * r2c2_rtab_clear() frees them
 */
static void wlb_lazy_check(void)
{
	static const u8 dims[2] = { 4, 4 };
	struct r2c2_topo *t;
	struct r2c2_rtab *rt;
	struct r2c2_flow f = { .src = 0, .dst = 5, .weight = 1,
			       .rproto = R2C2_RP_WLB };
	struct r2c2_ws *ws = NULL;
	double rate = 0;
	size_t before, after;
	bool none, same_off, other, refused, solved, cleared;
	size_t freed;

	if (r2c2_topo_grid(&t, dims, 2, true, 1.0) || r2c2_rtab_new(&rt, t)) {
		ok(0, "WLB lazy: tables");
		return;
	}
	before = r2c2_rtab_memory(rt, R2C2_RP_WLB);
	none = !r2c2_rtab_prepared(rt, 0, 5, R2C2_RP_WLB) &&
	       r2c2_rtab_prepared(rt, 0, 5, R2C2_RP_RPS);
	refused = r2c2_maxmin(rt, &f, 1, 0.05, &rate, ws) != 0;
	r2c2_rtab_prepare(rt, 0, 5, R2C2_RP_WLB);
	after = r2c2_rtab_memory(rt, R2C2_RP_WLB);
	same_off = r2c2_rtab_prepared(rt, 0, 5, R2C2_RP_WLB);
	other = r2c2_rtab_prepared(rt, 10, 15, R2C2_RP_WLB);
	solved = r2c2_maxmin(rt, &f, 1, 0.05, &rate, ws) == 0 && rate > 0;
	freed = r2c2_rtab_clear(rt);
	cleared = freed == after && !r2c2_rtab_memory(rt, R2C2_RP_WLB) &&
		  !r2c2_rtab_prepared(rt, 0, 5, R2C2_RP_WLB) &&
		  r2c2_rtab_prepared(rt, 0, 5, R2C2_RP_RPS);
	ok(before == 0 && none && refused && after > 0 && same_off && !other &&
	   solved && cleared,
	   "torus 4x4: WLB's vector of a pair made when it is first wanted (%zu bytes before, %zu after; the pair prepared, another of its offset not; max-min refused before, rate %.3g after); r2c2_rtab_clear() frees them (%zu), RPS's kept",
	   before, after, rate, freed);
	r2c2_rtab_free(rt);
	r2c2_topo_free(t);
}

int main(void)
{
	static const struct { u8 dims[3]; unsigned int nd; bool wrap; } g[] = {
		{ { 2, 2 }, 2, true }, { { 3, 3 }, 2, true }, { { 4, 4 }, 2, true },
		{ { 5, 3 }, 2, true }, { { 3, 3, 3 }, 3, true }, { { 4, 4, 4 }, 3, true },
		{ { 4, 2, 3 }, 3, true }, { { 6 }, 1, true },
		{ { 3, 3 }, 2, false }, { { 4, 3, 2 }, 3, false }, { { 2, 2 }, 2, false },
	};
	uint64_t seed = 42;
	unsigned int i;
	char name[64];

	for (i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
		struct r2c2_topo *t;

		if (r2c2_topo_grid(&t, g[i].dims, g[i].nd, g[i].wrap, 1.0)) {
			ok(0, "grid %u", i);
			continue;
		}
		snprintf(name, sizeof(name), "%s %ux%ux%u", g[i].wrap ? "torus" : "mesh",
			 g[i].dims[0], g[i].nd > 1 ? g[i].dims[1] : 1,
			 g[i].nd > 2 ? g[i].dims[2] : 1);
		compare_all(t, name);
		if (g[i].wrap)
			conv_check(t, name, &seed);
		else
			clear_check(t, name);
		r2c2_topo_free(t);
	}
	wlb_lazy_check();
	for (i = 0; i < 8; i++) {
		struct r2c2_topo *t = rand_graph(&seed, 5 + tbelow(&seed, 12), false);

		snprintf(name, sizeof(name), "random graph %u (%u nodes)", i, t ? t->n : 0);
		if (!t) {
			ok(0, "%s", name);
			continue;
		}
		compare_all(t, name);
		r2c2_topo_free(t);
	}
	saturated_check();
	vlb_saturated_check();
	{
		/*
		 * a ring of 6 whose node 0 has two links to node 1 and node 1
		 * one back: every link has a way back, yet the path counts
		 * from 0 are not those to 0 (2 paths 0 -> 1, 1 back)
		 */
		static u16 nbr[6 * 8];
		static double cap[6 * 8];
		struct r2c2_topo *t;
		unsigned int u;

		memset(nbr, 0xff, sizeof(nbr));
		for (u = 0; u < 6; u++) {
			nbr[u * 8 + 0] = (u16)((u + 1) % 6);
			nbr[u * 8 + 1] = (u16)((u + 5) % 6);
			cap[u * 8 + 0] = cap[u * 8 + 1] = 1;
		}
		nbr[0 * 8 + 2] = 1;
		cap[0 * 8 + 2] = 1;
		if (r2c2_topo_from_adj(&t, 6, nbr, cap)) {
			ok(0, "ring of 6 with a doubled link builds");
		} else {
			compare_all(t, "ring of 6, node 0 linked twice to node 1, once back");
			r2c2_topo_free(t);
		}
	}
	{
		/* a 30-node line: VLB pairs have fewer eligible intermediates
		 * (routes > R2C2_MAX_HOPS) and must use exact per-pair vectors */
		struct r2c2_topo *t = rand_graph(&seed, 30, true);

		compare_all(t, "line of 30 nodes (VLB not splittable)");
		r2c2_topo_free(t);
	}
	{
		/* a 23x1 torus ring... 1D torus of 45: 2 * 22 > 42 hops */
		u8 dims[1] = { 45 };
		struct r2c2_topo *t;

		r2c2_topo_grid(&t, dims, 1, true, 1.0);
		compare_all(t, "ring of 45 (torus tables, VLB split for some offsets, exact for others)");
		r2c2_topo_free(t);
	}
	{
		/* the same mix with the byte-offset tables (64 nodes, radix 2^k) */
		u8 dims[1] = { 64 };
		struct r2c2_topo *t;

		r2c2_topo_grid(&t, dims, 1, true, 1.0);
		compare_all(t, "ring of 64 (VLB mixed, byte-offset tables)");
		r2c2_topo_free(t);
	}
	{
		/* past the allocator's node limit: refused, not built */
		u8 dims[2] = { 17, 241 };	/* 4,097 nodes */
		struct r2c2_topo *t;
		struct r2c2_rtab *rt = (struct r2c2_rtab *)&dims;

		r2c2_topo_grid(&t, dims, 2, false, 1.0);
		ok(t && r2c2_rtab_new(&rt, t) == -E2BIG && !rt &&
		   strstr(r2c2_rtab_strerror(-E2BIG), "(4096)"),
		   "a mesh of 4,097 nodes: r2c2_rtab_new() refuses it, -E2BIG (%s)",
		   r2c2_rtab_strerror(-E2BIG));
		r2c2_topo_free(t);
	}
	{
		/* Figure 3: 2x2 mesh, RPS 0 -> 3 puts w/2 on 0->1, 1->3, 0->2, 2->3 */
		u8 dims[2] = { 2, 2 };
		struct r2c2_topo *t;
		struct r2c2_rtab *rt;
		double w[32] = { 0 };
		int good;

		r2c2_topo_grid(&t, dims, 2, false, 1.0);
		r2c2_rtab_new(&rt, t);
		r2c2_rtab_prepare(rt, 0, 3, R2C2_RP_RPS);
		r2c2_rtab_weights_add(rt, 0, 3, R2C2_RP_RPS, 3.0, w);
		/* port 0 = +x (0->1, 2->3), port 2 = +y (0->2, 1->3) */
		good = w[0 * 8 + 0] == 1.5 && w[1 * 8 + 2] == 1.5 &&
		       w[0 * 8 + 2] == 1.5 && w[2 * 8 + 0] == 1.5;
		for (i = 0; i < 32; i++)
			if (w[i] != 0 && w[i] != 1.5)
				good = 0;
		w[0] = w[0 * 8 + 1];
		ok(good, "Figure 3: RPS 0->3 on a 2x2 mesh has weight w/2 on each of its 4 links, 0 elsewhere");
		r2c2_rtab_free(rt);
		r2c2_topo_free(t);
	}
	{
		/* r2c2_rtab_prepared(): a graph's pairs once prepared, a torus's all */
		u8 dims[2] = { 3, 3 };
		struct r2c2_topo *t, *tt;
		struct r2c2_rtab *rt, *rtt;
		bool before, after, other, bad;

		r2c2_topo_grid(&t, dims, 2, false, 1.0);
		r2c2_rtab_new(&rt, t);
		before = r2c2_rtab_prepared(rt, 0, 8, R2C2_RP_RPS);
		r2c2_rtab_prepare(rt, 0, 8, R2C2_RP_RPS);
		after = r2c2_rtab_prepared(rt, 0, 8, R2C2_RP_RPS);
		other = r2c2_rtab_prepared(rt, 0, 8, R2C2_RP_DOR) ||
			r2c2_rtab_prepared(rt, 8, 0, R2C2_RP_RPS);
		bad = r2c2_rtab_prepared(rt, 0, 0, R2C2_RP_RPS) ||
		      r2c2_rtab_prepared(rt, 0, 9, R2C2_RP_RPS);
		ok(!before && after && !other && !bad,
		   "rtab_prepared on a 3x3 mesh: only the prepared pair and protocol (before %d after %d other %d invalid %d)",
		   before, after, other, bad);
		r2c2_rtab_free(rt);
		r2c2_topo_free(t);
		r2c2_topo_grid(&tt, dims, 2, true, 1.0);
		r2c2_rtab_new(&rtt, tt);
		ok(r2c2_rtab_prepared(rtt, 0, 8, R2C2_RP_VLB) &&
		   r2c2_rtab_prepared(rtt, 4, 2, R2C2_RP_DOR),
		   "rtab_prepared on a 3x3 torus: every pair, unprepared");
		r2c2_rtab_free(rtt);
		r2c2_topo_free(tt);
	}
	adj_ports_of_tori();
	adj_ports_given();
	carry_checks();
	return tap_done();
}
