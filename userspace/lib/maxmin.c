// SPDX-License-Identifier: GPL-2.0
/*
 * maxmin.c - weighted max-min water-filling (R2C2 §3.3.1) with every
 * extension of §3.3.2: per-flow weights, strict priority levels (one
 * round per level on the capacity left), demand caps and headroom.
 *
 * Every unfrozen flow of the current level runs at weight * lambda; a
 * link saturates at lambda_l = (usable - frozen load) / (sum of the
 * weights * coefficients of its unfrozen flows). The engine keeps those
 * per-link sums up to date incrementally and the links in a heap keyed
 * by lambda_l, so a whole allocation costs O(sum of path lengths * log L)
 * instead of the paper's O(NL + N^2) rescans. A saturated link freezes
 * the flows crossing it (inverse index); a demand-capped flow freezes at
 * its demand when lambda reaches demand / weight. Split VLB flows live in
 * per-node groups (rtab.c): their per-link sums are updated per group,
 * once per round, not per flow.
 *
 * r2c2_maxmin_baseline() is the straightforward algorithm, kept to
 * measure against; r2c2_maxmin_check() verifies the max-min certificate.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtab_int.h"

/* relative slack when grouping links that saturate "together" */
#define TIE_EPS		1e-12

struct r2c2_ws {
	/* per link */
	size_t nl;
	double *C, *F, *ucap, *lam;
	u32 *cnt, *hpos, *heap, *istart, *ifill, *dlist;
	u8 *dirty;
	/* per flow */
	size_t nf;
	u32 *lvl, *dem, *inv, *gmem;
	u8 *frozen;
	struct r2c2_fv *fv;
	size_t ninv;
	/* per group (2n) */
	size_t ng;
	double *gW, *gdW, *gdX;
	u32 *gcnt, *gdn, *gstart, *gfill, *glist, *gact;
	u8 *gdirty;
};

struct r2c2_ws *r2c2_ws_new(void)
{
	return calloc(1, sizeof(struct r2c2_ws));
}

void r2c2_ws_free(struct r2c2_ws *ws)
{
	if (!ws)
		return;
	free(ws->C); free(ws->F); free(ws->ucap); free(ws->lam);
	free(ws->cnt); free(ws->hpos); free(ws->heap); free(ws->istart);
	free(ws->ifill); free(ws->dlist); free(ws->dirty);
	free(ws->lvl); free(ws->dem); free(ws->inv); free(ws->gmem);
	free(ws->frozen); free(ws->fv);
	free(ws->gW); free(ws->gdW); free(ws->gdX); free(ws->gcnt);
	free(ws->gdn); free(ws->gstart); free(ws->gfill); free(ws->glist);
	free(ws->gdirty); free(ws->gact);
	free(ws);
}

static bool grow(void **p, size_t bytes)
{
	void *q = realloc(*p, bytes + 1);

	if (q)
		*p = q;
	return q != NULL;
}

#define GROW(p, n)	grow((void **)&(p), (n) * sizeof(*(p)))

static int ws_reserve(struct r2c2_ws *ws, size_t nl, size_t nf, size_t ng)
{
	if (nl > ws->nl) {
		if (!GROW(ws->C, nl) || !GROW(ws->F, nl) || !GROW(ws->ucap, nl) ||
		    !GROW(ws->lam, nl) || !GROW(ws->cnt, nl) ||
		    !GROW(ws->hpos, nl) || !GROW(ws->heap, nl) ||
		    !GROW(ws->istart, nl + 1) || !GROW(ws->ifill, nl) ||
		    !GROW(ws->dlist, nl) || !GROW(ws->dirty, nl))
			return -ENOMEM;
		ws->nl = nl;
	}
	if (nf > ws->nf) {
		if (!GROW(ws->lvl, nf) || !GROW(ws->dem, nf) ||
		    !GROW(ws->gmem, 2 * nf) || !GROW(ws->frozen, nf) ||
		    !GROW(ws->fv, nf))
			return -ENOMEM;
		ws->nf = nf;
	}
	if (ng > ws->ng) {
		if (!GROW(ws->gW, ng) || !GROW(ws->gdW, ng) || !GROW(ws->gdX, ng) ||
		    !GROW(ws->gcnt, ng) || !GROW(ws->gdn, ng) ||
		    !GROW(ws->gstart, ng + 1) || !GROW(ws->gfill, ng) ||
		    !GROW(ws->glist, ng) || !GROW(ws->gdirty, ng) ||
		    !GROW(ws->gact, ng))
			return -ENOMEM;
		ws->ng = ng;
	}
	return 0;
}

/* ---- indexed min-heap of links keyed by lam[] ---- */

#define HNONE	0xffffffffu

struct heap {
	u32 *h, *pos;
	const double *key;
	u32 n;
};

static void h_swap(struct heap *hp, u32 i, u32 j)
{
	u32 a = hp->h[i], b = hp->h[j];

	hp->h[i] = b;
	hp->h[j] = a;
	hp->pos[b] = i;
	hp->pos[a] = j;
}

static void h_up(struct heap *hp, u32 i)
{
	while (i) {
		u32 p = (i - 1) / 2;

		if (hp->key[hp->h[p]] <= hp->key[hp->h[i]])
			break;
		h_swap(hp, i, p);
		i = p;
	}
}

static void h_down(struct heap *hp, u32 i)
{
	for (;;) {
		u32 l = 2 * i + 1, m = i;

		if (l < hp->n && hp->key[hp->h[l]] < hp->key[hp->h[m]])
			m = l;
		if (l + 1 < hp->n && hp->key[hp->h[l + 1]] < hp->key[hp->h[m]])
			m = l + 1;
		if (m == i)
			break;
		h_swap(hp, i, m);
		i = m;
	}
}

static void h_remove(struct heap *hp, u32 x)
{
	u32 i = hp->pos[x];

	if (i == HNONE)
		return;
	hp->n--;
	if (i != hp->n) {
		h_swap(hp, i, hp->n);
		h_up(hp, i);
		h_down(hp, hp->pos[hp->h[i]] == i ? i : hp->pos[hp->h[i]]);
	}
	hp->pos[x] = HNONE;
}

/* ---- the engine ---- */

struct eng {
	const struct r2c2_rtab *rt;
	const struct r2c2_flow *f;
	double *rate;
	struct r2c2_ws *ws;
	struct heap hp;
	u32 nunfrozen, ngdirty, nact;
	u32 *gdlist;
};

static void freeze(struct eng *e, u32 i, double x)
{
	struct r2c2_ws *ws = e->ws;
	const struct r2c2_fv *fv = &ws->fv[i];
	double w = e->f[i].weight;
	int k;

	ws->frozen[i] = 1;
	e->rate[i] = x;
	e->nunfrozen--;
	if (fv->split) {
		for (k = 0; k < 2; k++) {
			u32 g = fv->group[k];

			ws->gdW[g] += w * fv->scale[k];
			ws->gdX[g] += x * fv->scale[k];
			ws->gdn[g]++;
			if (!ws->gdirty[g]) {
				ws->gdirty[g] = 1;
				e->gdlist[e->ngdirty++] = g;
			}
		}
		return;
	}
	{
		const struct r2c2_vec *v = fv->v[0];
		const u16 *tr = fv->tr[0];
		u32 j;

		for (j = 0; j < v->len; j++) {
			u32 l = r2c2_fv_link(tr, v->link[j]);
			double a = v->coef[j];

			ws->F[l] += x * a;
			ws->C[l] -= w * a;
			if (--ws->cnt[l] == 0)
				ws->C[l] = 0;
		}
	}
}

static void apply_groups(struct eng *e)
{
	struct r2c2_ws *ws = e->ws;
	u32 k, j;

	for (k = 0; k < e->ngdirty; k++) {
		u32 g = e->gdlist[k];
		const struct r2c2_vec *v;
		const u16 *tr;
		double dW = ws->gdW[g], dX = ws->gdX[g];
		u32 dn = ws->gdn[g];

		r2c2_rtab_group(e->rt, g, &v, &tr);
		for (j = 0; j < v->len; j++) {
			u32 l = r2c2_fv_link(tr, v->link[j]);
			double a = v->coef[j];

			ws->F[l] += dX * a;
			ws->C[l] -= dW * a;
			ws->cnt[l] -= dn;
			if (!ws->cnt[l])
				ws->C[l] = 0;
		}
		ws->gW[g] -= dW;
		ws->gcnt[g] -= dn;
		ws->gdW[g] = ws->gdX[g] = 0;
		ws->gdn[g] = 0;
		ws->gdirty[g] = 0;
	}
	e->ngdirty = 0;
}

/*
 * Lazy heap: a link's lambda only grows as flows freeze (removing a flow
 * whose share is at the current level from a link at or above it raises
 * the link's level), so stored keys are lower bounds. Before using the
 * top, recompute its key; if it grew, sift it down and look again.
 * Links without unfrozen flows leave the heap.
 */
static bool top_fresh(struct eng *e, double floor, double *lam)
{
	struct r2c2_ws *ws = e->ws;

	while (e->hp.n) {
		u32 l = ws->heap[0];
		double v;

		if (!ws->cnt[l]) {
			h_remove(&e->hp, l);
			continue;
		}
		v = fmax(floor, (ws->ucap[l] - ws->F[l]) / ws->C[l]);
		if (v <= ws->lam[l]) {
			*lam = ws->lam[l];
			return true;
		}
		ws->lam[l] = v;
		h_down(&e->hp, 0);
	}
	return false;
}

static int cmp_dem(const void *a, const void *b, void *arg)
{
	const struct r2c2_flow *f = arg;
	u32 i = *(const u32 *)a, j = *(const u32 *)b;
	double x = f[i].demand / f[i].weight, y = f[j].demand / f[j].weight;

	return x < y ? -1 : x > y ? 1 : (i > j) - (i < j);
}

/* water-fill the flows lv[0..nlv) of one priority level */
static void fill_level(struct eng *e, const u32 *lv, u32 nlv)
{
	struct r2c2_ws *ws = e->ws;
	const struct r2c2_flow *f = e->f;
	u32 nl = (u32)R2C2_NLINKS(r2c2_rtab_topo(e->rt)->n), ng = 2 * (u32)r2c2_rtab_topo(e->rt)->n;
	u32 i, j, k, l, m, ndem = 0, di = 0, nsplit = 0;
	double lambda = 0;

	memset(ws->C, 0, nl * sizeof(*ws->C));
	memset(ws->cnt, 0, nl * sizeof(*ws->cnt));
	/* per-link sums and counts of the non-split flows */
	for (k = 0; k < nlv; k++) {
		const struct r2c2_fv *fv;
		const struct r2c2_vec *v;
		const u16 *tr;
		double w;

		i = lv[k];
		fv = &ws->fv[i];
		w = f[i].weight;
		ws->frozen[i] = 0;
		if (f[i].demand > 0)
			ws->dem[ndem++] = i;
		if (fv->split) {
			nsplit++;
			continue;
		}
		v = fv->v[0];
		tr = fv->tr[0];
		for (j = 0; j < v->len; j++) {
			l = r2c2_fv_link(tr, v->link[j]);
			ws->C[l] += w * v->coef[j];
			ws->cnt[l]++;
		}
	}
	/* inverse index: link -> flows (CSR) */
	ws->istart[0] = 0;
	for (l = 0; l < nl; l++) {
		ws->istart[l + 1] = ws->istart[l] + ws->cnt[l];
		ws->ifill[l] = ws->istart[l];
	}
	for (k = 0; k < nlv; k++) {
		const struct r2c2_fv *fv = &ws->fv[lv[k]];
		const struct r2c2_vec *v = fv->v[0];
		const u16 *tr = fv->tr[0];

		if (fv->split)
			continue;
		for (j = 0; j < v->len; j++)
			ws->inv[ws->ifill[r2c2_fv_link(tr, v->link[j])]++] = lv[k];
	}
	/* groups of split VLB flows */
	if (nsplit) {
		memset(ws->gW, 0, ng * sizeof(*ws->gW));
		memset(ws->gcnt, 0, ng * sizeof(*ws->gcnt));
		for (k = 0; k < nlv; k++) {
			const struct r2c2_fv *fv = &ws->fv[lv[k]];

			if (!fv->split)
				continue;
			for (j = 0; j < 2; j++) {
				ws->gW[fv->group[j]] += f[lv[k]].weight * fv->scale[j];
				ws->gcnt[fv->group[j]]++;
			}
		}
		ws->gstart[0] = 0;
		for (i = 0; i < ng; i++) {
			ws->gstart[i + 1] = ws->gstart[i] + ws->gcnt[i];
			ws->gfill[i] = ws->gstart[i];
		}
		for (k = 0; k < nlv; k++) {
			const struct r2c2_fv *fv = &ws->fv[lv[k]];

			if (fv->split)
				for (j = 0; j < 2; j++)
					ws->gmem[ws->gfill[fv->group[j]]++] = lv[k];
		}
		e->nact = 0;
		for (i = 0; i < ng; i++) {
			const struct r2c2_vec *v;
			const u16 *tr;

			if (!ws->gcnt[i])
				continue;
			ws->gact[e->nact++] = i;
			r2c2_rtab_group(e->rt, i, &v, &tr);
			for (j = 0; j < v->len; j++) {
				l = r2c2_fv_link(tr, v->link[j]);
				ws->C[l] += ws->gW[i] * v->coef[j];
				ws->cnt[l] += ws->gcnt[i];
			}
		}
	}
	/* heap of links carrying flows of this level */
	e->hp.n = 0;
	for (l = 0; l < nl; l++) {
		ws->hpos[l] = HNONE;
		if (!ws->cnt[l])
			continue;
		ws->lam[l] = fmax(0, (ws->ucap[l] - ws->F[l]) / ws->C[l]);
		ws->heap[e->hp.n] = l;
		ws->hpos[l] = e->hp.n++;
	}
	for (k = e->hp.n / 2 + 1; k-- > 0;)
		h_down(&e->hp, k);
	if (ndem > 1)
		qsort_r(ws->dem, ndem, sizeof(*ws->dem), cmp_dem, (void *)f);

	e->nunfrozen = nlv;
	e->ngdirty = 0;
	while (e->nunfrozen) {
		double ll, ld, top;

		ll = top_fresh(e, lambda, &top) ? top : INFINITY;

		while (di < ndem && ws->frozen[ws->dem[di]])
			di++;
		ld = di < ndem ? f[ws->dem[di]].demand / f[ws->dem[di]].weight :
			INFINITY;
		if (ll == INFINITY && ld == INFINITY)
			break;	/* cannot happen: every flow crosses a link */
		if (ld <= ll) {
			lambda = fmax(lambda, ld);
			freeze(e, ws->dem[di], f[ws->dem[di]].demand);
		} else {
			double lim;

			lambda = ll;
			lim = ll * (1 + TIE_EPS);
			while (top_fresh(e, lambda, &top) && top <= lim) {
				l = ws->heap[0];
				h_remove(&e->hp, l);
				for (j = ws->istart[l]; j < ws->istart[l + 1]; j++) {
					i = ws->inv[j];
					if (!ws->frozen[i])
						freeze(e, i, f[i].weight * lambda);
				}
				if (!nsplit)
					continue;
				for (m = 0; m < e->nact; m++) {
					k = ws->gact[m];
					if (ws->gcnt[k] == ws->gdn[k] ||
					    r2c2_rtab_group_coef(e->rt, k, l) == 0)
						continue;
					for (j = ws->gstart[k]; j < ws->gstart[k + 1]; j++) {
						i = ws->gmem[j];
						if (!ws->frozen[i])
							freeze(e, i, f[i].weight * lambda);
					}
				}
			}
		}
		if (e->ngdirty) {
			apply_groups(e);
			for (m = k = 0; k < e->nact; k++)
				if (ws->gcnt[ws->gact[k]])
					ws->gact[m++] = ws->gact[k];
			e->nact = m;
		}
	}
}

static int cmp_prio(const void *a, const void *b, void *arg)
{
	const struct r2c2_flow *f = arg;
	u32 i = *(const u32 *)a, j = *(const u32 *)b;

	if (f[i].prio != f[j].prio)
		return f[i].prio < f[j].prio ? -1 : 1;
	return (i > j) - (i < j);
}

static int validate(const struct r2c2_rtab *rt, const struct r2c2_flow *f,
		    size_t nf, double headroom)
{
	size_t i;

	if (!(headroom >= 0 && headroom < 1))
		return -EINVAL;
	for (i = 0; i < nf; i++)
		if (f[i].src >= r2c2_rtab_topo(rt)->n || f[i].dst >= r2c2_rtab_topo(rt)->n ||
		    f[i].src == f[i].dst || f[i].rproto >= __R2C2_RP_MAX ||
		    f[i].prio >= R2C2_PRIO_LEVELS || !(f[i].weight > 0) ||
		    !isfinite(f[i].weight) || !(f[i].demand >= 0) ||
		    !isfinite(f[i].demand))
			return -EINVAL;
	return 0;
}

/**
 * r2c2_maxmin() - weighted max-min fair rates
 * @rt: routing tables (prepared for every flow on graphs)
 * @f: flows
 * @nf: number of flows (< 2^32)
 * @headroom: fraction of every link's capacity left unallocated, [0, 1)
 * @rate: out, one per flow
 * @ws: scratch space or NULL
 *
 * Return: 0, -EINVAL (bad flow or headroom), -ENOENT (pair not
 * prepared), -EHOSTUNREACH or -ENOMEM.
 */
int r2c2_maxmin(const struct r2c2_rtab *rt, const struct r2c2_flow *f,
		size_t nf, double headroom, double *rate, struct r2c2_ws *ws)
{
	const struct r2c2_topo *t = r2c2_rtab_topo(rt);
	size_t nl = R2C2_NLINKS(t->n), ninv = 0, i, s;
	struct r2c2_ws *tmp = NULL;
	struct eng e;
	int ret;

	ret = validate(rt, f, nf, headroom);
	if (ret)
		return ret;
	if (!ws) {
		ws = tmp = r2c2_ws_new();
		if (!ws)
			return -ENOMEM;
	}
	ret = ws_reserve(ws, nl, nf, 2 * (size_t)t->n);
	if (ret)
		goto out;
	for (i = 0; i < nf; i++) {
		ret = r2c2_rtab_fv(rt, f[i].src, f[i].dst, f[i].rproto, &ws->fv[i]);
		if (ret)
			goto out;
		if (t->paths.dist[(size_t)f[i].dst * t->n + f[i].src] == R2C2_DIST_INF) {
			ret = -EHOSTUNREACH;
			goto out;
		}
		if (!ws->fv[i].split)
			ninv += ws->fv[i].v[0]->len;
		ws->lvl[i] = (u32)i;
	}
	if (ninv > ws->ninv) {
		if (!GROW(ws->inv, ninv)) {
			ret = -ENOMEM;
			goto out;
		}
		ws->ninv = ninv;
	}
	for (i = 0; i < nl; i++) {
		ws->ucap[i] = t->cap[i] * (1 - headroom);
		ws->F[i] = 0;
		ws->dirty[i] = 0;
	}
	memset(ws->gdW, 0, 2 * t->n * sizeof(double));
	memset(ws->gdX, 0, 2 * t->n * sizeof(double));
	memset(ws->gdn, 0, 2 * t->n * sizeof(u32));
	memset(ws->gdirty, 0, 2 * t->n);
	memset(&e, 0, sizeof(e));
	e.rt = rt;
	e.f = f;
	e.rate = rate;
	e.ws = ws;
	e.hp.h = ws->heap;
	e.hp.pos = ws->hpos;
	e.hp.key = ws->lam;
	e.gdlist = ws->glist;
	/* levels, highest priority (0) first */
	for (i = 1; i < nf; i++)
		if (f[i].prio != f[i - 1].prio)
			break;
	if (i < nf)
		qsort_r(ws->lvl, nf, sizeof(*ws->lvl), cmp_prio, (void *)f);
	for (s = 0; s < nf; s = i) {
		for (i = s + 1; i < nf && f[ws->lvl[i]].prio == f[ws->lvl[s]].prio; i++)
			;
		fill_level(&e, ws->lvl + s, (u32)(i - s));
	}
out:
	r2c2_ws_free(tmp);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Baseline: the paper's straightforward water-filling                */
/* ------------------------------------------------------------------ */

/**
 * r2c2_maxmin_baseline() - the straightforward algorithm
 * @t: topology
 * @f: flows
 * @nf: number of flows
 * @headroom: as r2c2_maxmin()
 * @rate: out
 *
 * Per-link weights straight from r2c2_link_weights_add(); then rounds
 * that recompute every link's residual capacity and unfrozen weight from
 * all flows, find the next bottleneck (link or demand) and freeze the
 * flows on it. O(rounds * N * path length), rounds <= N.
 *
 * Return: 0, -EINVAL, -EHOSTUNREACH or -ENOMEM.
 */
int r2c2_maxmin_baseline(const struct r2c2_topo *t, const struct r2c2_flow *f,
			 size_t nf, double headroom, double *rate)
{
	size_t nl = R2C2_NLINKS(t->n), i, j, l;
	double *w = calloc(nl, sizeof(*w));
	double *rem = calloc(nl, sizeof(*rem)), *C = calloc(nl, sizeof(*C));
	u32 **lk = calloc(nf ? nf : 1, sizeof(*lk));
	double **cf = calloc(nf ? nf : 1, sizeof(*cf));
	u32 *len = calloc(nf ? nf : 1, sizeof(*len));
	u8 *frozen = calloc(nf ? nf : 1, 1), *sat = calloc(nl, 1);
	int ret = -ENOMEM, prio;

	if (!w || !rem || !C || !lk || !cf || !len || !frozen || !sat)
		goto out;
	ret = -EINVAL;
	if (!(headroom >= 0 && headroom < 1))
		goto out;
	for (i = 0; i < nf; i++) {
		size_t c = 0;

		if (f[i].src == f[i].dst || f[i].prio >= R2C2_PRIO_LEVELS ||
		    !(f[i].weight > 0) || !(f[i].demand >= 0))
			goto out;
		memset(w, 0, nl * sizeof(*w));
		ret = r2c2_link_weights_add(&t->paths, f[i].rproto, f[i].src,
					    f[i].dst, 1.0, w);
		if (ret)
			goto out;
		ret = -ENOMEM;
		for (l = 0; l < nl; l++)
			c += w[l] != 0;
		lk[i] = malloc(c * sizeof(u32) + 1);
		cf[i] = malloc(c * sizeof(double) + 1);
		if (!lk[i] || !cf[i])
			goto out;
		for (l = 0; l < nl; l++)
			if (w[l] != 0) {
				lk[i][len[i]] = (u32)l;
				cf[i][len[i]++] = w[l];
			}
	}
	for (prio = 0; prio < R2C2_PRIO_LEVELS; prio++) {
		size_t left = 0;

		for (i = 0; i < nf; i++)
			left += f[i].prio == prio;
		while (left) {
			double lam = INFINITY;
			long dflow = -1;

			/* residual capacity and unfrozen weight, from scratch */
			for (l = 0; l < nl; l++) {
				rem[l] = t->cap[l] * (1 - headroom);
				C[l] = 0;
			}
			for (i = 0; i < nf; i++) {
				bool active = f[i].prio == prio && !frozen[i];

				if (f[i].prio > prio)
					continue;
				for (j = 0; j < len[i]; j++) {
					if (active)
						C[lk[i][j]] += f[i].weight * cf[i][j];
					else
						rem[lk[i][j]] -= rate[i] * cf[i][j];
				}
				if (active && f[i].demand > 0 &&
				    f[i].demand / f[i].weight < lam) {
					lam = f[i].demand / f[i].weight;
					dflow = (long)i;
				}
			}
			for (l = 0; l < nl; l++)
				if (C[l] > 0 && fmax(0, rem[l] / C[l]) < lam) {
					lam = fmax(0, rem[l] / C[l]);
					dflow = -1;
				}
			if (dflow >= 0) {
				rate[dflow] = f[dflow].demand;
				frozen[dflow] = 1;
				left--;
				continue;
			}
			if (lam == INFINITY)
				break;
			for (l = 0; l < nl; l++)
				sat[l] = C[l] > 0 &&
					 fmax(0, rem[l] / C[l]) <= lam * (1 + TIE_EPS);
			for (i = 0; i < nf; i++) {
				if (f[i].prio != prio || frozen[i])
					continue;
				for (j = 0; j < len[i]; j++)
					if (sat[lk[i][j]])
						break;
				if (j < len[i]) {
					rate[i] = f[i].weight * lam;
					frozen[i] = 1;
					left--;
				}
			}
		}
	}
	ret = 0;
out:
	if (lk)
		for (i = 0; i < nf; i++) {
			free(lk[i]);
			free(cf[i]);
		}
	free(lk); free(cf); free(len); free(frozen); free(sat);
	free(w); free(rem); free(C);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Loads and the max-min certificate                                   */
/* ------------------------------------------------------------------ */

int r2c2_link_loads(const struct r2c2_rtab *rt, const struct r2c2_flow *f,
		    size_t nf, const double *rate, double *load)
{
	size_t i;
	int ret;

	memset(load, 0, R2C2_NLINKS(r2c2_rtab_topo(rt)->n) * sizeof(*load));
	for (i = 0; i < nf; i++) {
		ret = r2c2_rtab_weights_add(rt, f[i].src, f[i].dst, f[i].rproto,
					    rate[i], load);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * r2c2_maxmin_check() - verify an allocation is max-min fair
 * @rt: tables
 * @f: flows
 * @nf: number of flows
 * @headroom: as r2c2_maxmin()
 * @rate: the allocation
 * @tol: relative tolerance (1e-9 is plenty for double arithmetic)
 * @res: details
 *
 * Checks (1) no link above its usable capacity, (2) no flow above its
 * demand, (3) every flow below its demand has a bottleneck: a saturated
 * link it crosses where its rate / weight is maximal among the flows of
 * its priority crossing it. (1) and (3) together are the max-min
 * certificate: raising any flow would need lowering one that is no
 * richer, on a link of equal or higher priority.
 *
 * Return: 0 if all hold, -EDOM if not, -ENOMEM.
 */
int r2c2_maxmin_check(const struct r2c2_rtab *rt, const struct r2c2_flow *f,
		      size_t nf, double headroom, const double *rate,
		      double tol, struct r2c2_check *res)
{
	const struct r2c2_topo *t = r2c2_rtab_topo(rt);
	size_t nl = R2C2_NLINKS(t->n), i, l;
	double *load = calloc(nl, sizeof(*load));
	double *mx = calloc(nl * R2C2_PRIO_LEVELS, sizeof(*mx));
	double *w = calloc(nl, sizeof(*w)), maxcap = 0;
	int ret = -ENOMEM, k;
	u32 j;

	res->max_over = -INFINITY;
	res->bad_flow = -1;
	res->why = NULL;
	if (!load || !mx || !w)
		goto out;
	ret = r2c2_link_loads(rt, f, nf, rate, load);
	if (ret)
		goto out;
	for (l = 0; l < nl; l++) {
		double u = t->cap[l] * (1 - headroom);

		maxcap = fmax(maxcap, t->cap[l]);
		if (t->cap[l] > 0)
			res->max_over = fmax(res->max_over, (load[l] - u) / u);
	}
	/* max normalised rate per link and priority */
	for (i = 0; i < nf; i++) {
		struct r2c2_fv fv;
		double nr = rate[i] / f[i].weight;

		r2c2_rtab_fv(rt, f[i].src, f[i].dst, f[i].rproto, &fv);
		for (k = 0; k < fv.nv; k++)
			for (j = 0; j < fv.v[k]->len; j++) {
				l = r2c2_fv_link(fv.tr[k], fv.v[k]->link[j]);
				double *m = &mx[l * R2C2_PRIO_LEVELS + f[i].prio];

				*m = fmax(*m, nr);
			}
	}
	ret = -EDOM;
	if (res->max_over > tol) {
		res->why = "link above usable capacity";
		goto out;
	}
	for (i = 0; i < nf; i++) {
		struct r2c2_fv fv;
		double nr = rate[i] / f[i].weight;
		bool ok = false;

		if (!(rate[i] >= 0) || (f[i].demand > 0 &&
					rate[i] > f[i].demand * (1 + tol))) {
			res->bad_flow = (long)i;
			res->why = "rate negative or above demand";
			goto out;
		}
		if (f[i].demand > 0 && rate[i] >= f[i].demand * (1 - tol))
			continue;
		r2c2_rtab_fv(rt, f[i].src, f[i].dst, f[i].rproto, &fv);
		for (k = 0; k < fv.nv && !ok; k++)
			for (j = 0; j < fv.v[k]->len; j++) {
				double u;

				l = r2c2_fv_link(fv.tr[k], fv.v[k]->link[j]);
				u = t->cap[l] * (1 - headroom);
				if (load[l] >= u - tol * fmax(u, 1e-300) &&
				    nr >= mx[l * R2C2_PRIO_LEVELS + f[i].prio] * (1 - tol)) {
					ok = true;
					break;
				}
			}
		if (!ok) {
			res->bad_flow = (long)i;
			res->why = "flow below demand without a bottleneck link";
			goto out;
		}
	}
	ret = 0;
out:
	free(load);
	free(mx);
	free(w);
	return ret;
}
