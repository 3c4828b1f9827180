// SPDX-License-Identifier: GPL-2.0
/*
 * propfair.c - weighted proportional fairness (maximise sum_s w_s log x_s)
 * by Flowtune's Newton-like price updates, then F-NORM.
 *
 * A flow crosses link l a_sl times per packet (its per-link weight from
 * the routing tables), so it pays P_s = sum_l a_sl p_l per unit rate:
 *	rate update	x_s = min(demand_s, xmax_s, w_s / P_s)
 *	price update	p_l = max(0, p_l + gamma_l * G_l / H_l)
 *			G_l = sum_s a_sl x_s - c_l,
 *			H_l = sum_s a_sl h_s x_s^2 / w_s (flows below demand)
 * where h_s = sum_m a_sm over the priced links of the flow's path: H_l is
 * a row sum of the dual's Hessian, not its diagonal (see pf_rates()). Each
 * link's gamma_l adapts (grows while G_l keeps its sign, halves when it
 * flips), and a step that raises the dual objective is taken back with
 * every gamma halved, so the dual falls at every accepted step. For split
 * VLB flows (a = (A_s + B_d) / n) group sums give P_s exactly and bound H;
 * on a torus all 2n groups are priced and loaded at once by DFT.
 * F-NORM divides each flow by the largest load / capacity ratio on its
 * links, so no link is ever over-allocated; the iterations stop when the
 * duality gap certifies the F-NORMed rates (pf_level()). Prices and
 * steps stay in struct r2c2_pf between calls ("warm"), one vector per
 * priority level; levels are served in order on the capacity left.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rtab_int.h"

/*
 * A link's step (times gamma) grows by STEP_GROW while its excess demand
 * keeps its sign, up to STEP_MAX, and halves when the sign flips
 */
#define STEP_GROW	1.5
#define STEP_MAX	8.0
/*
 * F-NORM looks for a VLB group's most loaded link among the network's
 * TOPK most loaded links first, and walks the group only when none of
 * them is the group's
 */
#define TOPK		16

struct r2c2_pf {
	const struct r2c2_rtab *rt;
	struct r2c2_pf_opts o;
	size_t nl, ng;
	double *price[R2C2_PRIO_LEVELS];
	double *gam[R2C2_PRIO_LEVELS], *lastg[R2C2_PRIO_LEVELS];
	/* scratch */
	double *load, *H, *cap, *used, *gp, *gx, *gh, *gr, *r, *pold;
	double *ga, *gq;
	/*
	 * per level: each group's largest coef / capacity (-1: not yet), for
	 * the capacities in gmcap; kept across calls while they stay (the
	 * first level's always do)
	 */
	double *gm[R2C2_PRIO_LEVELS], *gmcap[R2C2_PRIO_LEVELS];
	/*
	 * torus with split VLB (cs != NULL): every group's price and load
	 * by DFT (r2c2_rtab_groups_corr(), _conv()); ind: [p_l > 0], sq:
	 * the squared groups' term of H
	 */
	double *cs, *ind, *sq, *tmp;
	/* F-NORM: the TOPK most loaded links, by decreasing load / capacity */
	u32 top[TOPK];
	unsigned int ntop;
	double *x, *xmax;
	size_t nf;
	/*
	 * the link weights of the flows that are not split, flat: flow i's
	 * absolute links fl[fs[i]..fs[i + 1]) and their coefficients fc
	 * (times the part's scale); fcap entries allocated
	 */
	u32 *fl;
	double *fc;
	size_t *fs, fcap;
	struct r2c2_fv *fv;
};

struct r2c2_pf *r2c2_pf_new(const struct r2c2_rtab *rt,
			    const struct r2c2_pf_opts *opts)
{
	const struct r2c2_topo *t = r2c2_rtab_topo(rt);
	struct r2c2_pf *pf = calloc(1, sizeof(*pf));

	if (!pf)
		return NULL;
	pf->rt = rt;
	pf->nl = R2C2_NLINKS(t->n);
	pf->ng = 2 * (size_t)t->n;
	if (opts) {
		pf->o = *opts;
	} else {
		pf->o.gamma = 1;
		pf->o.tol = 1e-3;
		pf->o.max_iter = 2000;
	}
	pf->load = calloc(pf->nl, sizeof(double));
	pf->H = calloc(pf->nl, sizeof(double));
	pf->cap = calloc(pf->nl, sizeof(double));
	pf->used = calloc(pf->nl, sizeof(double));
	pf->r = calloc(pf->nl, sizeof(double));
	pf->pold = calloc(pf->nl, sizeof(double));
	pf->ga = calloc(pf->ng, sizeof(double));
	pf->gq = calloc(pf->ng, sizeof(double));
	pf->gp = calloc(pf->ng, sizeof(double));
	pf->gx = calloc(pf->ng, sizeof(double));
	pf->gh = calloc(pf->ng, sizeof(double));
	pf->gr = calloc(pf->ng, sizeof(double));
	if (!pf->load || !pf->H || !pf->cap || !pf->used || !pf->r || !pf->pold ||
	    !pf->ga || !pf->gq || !pf->gp ||
	    !pf->gx || !pf->gh || !pf->gr) {
		r2c2_pf_free(pf);
		return NULL;
	}
	if (r2c2_rtab_conv_scratch(rt)) {
		pf->cs = calloc(r2c2_rtab_conv_scratch(rt), sizeof(double));
		pf->ind = calloc(pf->nl, sizeof(double));
		pf->sq = calloc(pf->nl, sizeof(double));
		pf->tmp = calloc(pf->nl, sizeof(double));
		if (!pf->cs || !pf->ind || !pf->sq || !pf->tmp) {
			r2c2_pf_free(pf);
			return NULL;
		}
	}
	return pf;
}

void r2c2_pf_free(struct r2c2_pf *pf)
{
	int i;

	if (!pf)
		return;
	for (i = 0; i < R2C2_PRIO_LEVELS; i++) {
		free(pf->price[i]);
		free(pf->gam[i]);
		free(pf->lastg[i]);
		free(pf->gm[i]);
		free(pf->gmcap[i]);
	}
	free(pf->load); free(pf->H); free(pf->cap); free(pf->used);
	free(pf->r); free(pf->pold); free(pf->ga); free(pf->gq); free(pf->gp); free(pf->gx); free(pf->gh); free(pf->gr);
	free(pf->cs); free(pf->ind); free(pf->sq); free(pf->tmp);
	free(pf->x); free(pf->xmax); free(pf->fv);
	free(pf->fl); free(pf->fc); free(pf->fs);
	free(pf);
}

/* not fmin() / fmax(): libm calls at -O2; no NaN reaches them */
static inline double dmin(double a, double b)
{
	return b < a ? b : a;
}

static inline double dmax(double a, double b)
{
	return b > a ? b : a;
}

/*
 * A DFT leaves rounding noise of ~1e-16 of the largest value where the
 * exact result is 0 (a link no priced group crosses): a load or H of
 * 1e-18 instead of 0 would send a price step to infinity. Values within
 * NOISE of the largest are set to 0; they change no rate that matters
 * (1e-12 of the largest load).
 */
#define NOISE		1e-12

static void denoise(double *y, size_t len)
{
	double m = 0;
	size_t i;

	for (i = 0; i < len; i++)
		m = dmax(m, fabs(y[i]));
	for (i = 0; i < len; i++)
		if (fabs(y[i]) <= NOISE * m)
			y[i] = 0;
}

/* y += the groups weighted by wa (sources) and wb (destinations), squared if sq */
static void pf_groups_add(struct r2c2_pf *pf, const double *wa, const double *wb,
			  bool sq, double *y)
{
	size_t l;

	memset(pf->tmp, 0, pf->nl * sizeof(double));
	if (sq)
		r2c2_rtab_groups_conv_sq(pf->rt, wa, wb, pf->tmp, pf->cs);
	else
		r2c2_rtab_groups_conv(pf->rt, wa, wb, pf->tmp, pf->cs);
	denoise(pf->tmp, pf->nl);
	for (l = 0; l < pf->nl; l++)
		y[l] += pf->tmp[l];
}

/* sum_l coef * p[l], and the sum of coef over links with p[l] > 0 to *ha */
static double vdot2(const struct r2c2_vec *v, const u16 *tr, const double *p,
		    double *ha)
{
	double s = 0, h = 0;
	u32 j;

	for (j = 0; j < v->len; j++) {
		double pl = p[r2c2_fv_link(tr, v->link[j])];

		s += v->coef[j] * pl;
		h += pl > 0 ? v->coef[j] : 0;
	}
	*ha += h;
	return s;
}

/* the largest val[l] (times coef when by_coef) over v's links, or 0 */
static double vmaxr(const struct r2c2_vec *v, const u16 *tr, const double *val,
		    bool by_coef)
{
	double m = 0;
	u32 j;

	if (by_coef) {
		for (j = 0; j < v->len; j++)
			m = dmax(m, v->coef[j] * val[r2c2_fv_link(tr, v->link[j])]);
		return m;
	}
	for (j = 0; j < v->len; j++)
		m = dmax(m, val[r2c2_fv_link(tr, v->link[j])]);
	return m;
}

/*
 * Group g's sum of p over its links (its weights times p), and into *ha
 * the sum of its weights on the links with p > 0: on a torus over its
 * vector, on a graph over its dense weights
 */
static double group_dot(const struct r2c2_pf *pf, u32 g, const double *p,
			double *ha)
{
	const struct r2c2_vec *v;
	const u16 *tr;
	const double *w = r2c2_rtab_group(pf->rt, g, &v, &tr);
	double s = 0, h = 0;
	size_t l;

	if (!w)
		return vdot2(v, tr, p, ha);
	for (l = 0; l < pf->nl; l++) {
		s += w[l] * p[l];
		h += p[l] > 0 ? w[l] : 0;
	}
	*ha += h;
	return s;
}

/* vmaxr() over group g's links */
static double group_max(const struct r2c2_pf *pf, u32 g, const double *val,
			bool by_coef)
{
	const struct r2c2_vec *v;
	const u16 *tr;
	const double *w = r2c2_rtab_group(pf->rt, g, &v, &tr);
	double m = 0;
	size_t l;

	if (!w)
		return vmaxr(v, tr, val, by_coef);
	for (l = 0; l < pf->nl; l++)
		if (w[l] != 0)
			m = dmax(m, by_coef ? w[l] * val[l] : val[l]);
	return m;
}

/*
 * Rates from prices: x_s = min(w_s / P_s, xmax_s, demand_s), each link's
 * load and the scale of its price step. The dual's Hessian is
 * A diag(x^2 / w) A^T (A: the flows' link weights). A step scaled by its
 * diagonal alone (Flowtune's NED) overshoots by up to a flow's hop count
 * over its weight on the link, as every priced link of a path moves at
 * once: that made NED diverge on 6x6x6 and larger tori. The row sums
 * bound the Hessian from above (their difference is diagonally
 * dominant), so a step of G_l / H_l does not overshoot a quadratic model
 * of the dual. Links at price 0 stay there while they have spare
 * capacity, so only priced links count, and l itself:
 *	H_l = sum_s a_sl (h_s + [p_l = 0] a_sl) x_s^2 / w_s,
 *	h_s = sum of a_sm over the links m with p_m > 0
 * (split VLB flows: the square of a sum of two parts is bounded by twice
 * the sum of the squares). Flows at their demand do not respond to
 * prices and add nothing; flows at xmax keep their derivative (xmax only
 * bounds the first steps). Returns sum_s w_s log x_s over the flows that
 * can have a rate (xmax > 0).
 */
static double pf_rates(struct r2c2_pf *pf, const struct r2c2_flow *f,
		       const u32 *lv, u32 nlv, const double *p)
{
	const struct r2c2_rtab *rt = pf->rt;
	double u = 0;
	size_t l;
	u32 k, g;
	size_t j;
	int q;

	for (g = 0; g < pf->ng; g++)
		pf->gp[g] = -1;
	memset(pf->load, 0, pf->nl * sizeof(double));
	memset(pf->H, 0, pf->nl * sizeof(double));
	if (pf->cs) {
		u32 n = (u32)(pf->ng / 2);

		/* every group's P and h at once; their sums start at 0 */
		for (l = 0; l < pf->nl; l++)
			pf->ind[l] = p[l] > 0;
		r2c2_rtab_groups_corr(rt, p, pf->gp, pf->gp + n, pf->cs);
		r2c2_rtab_groups_corr(rt, pf->ind, pf->ga, pf->ga + n, pf->cs);
		denoise(pf->gp, pf->ng);
		denoise(pf->ga, pf->ng);
		memset(pf->gx, 0, pf->ng * sizeof(double));
		memset(pf->gh, 0, pf->ng * sizeof(double));
		memset(pf->gq, 0, pf->ng * sizeof(double));
	}
	for (k = 0; k < nlv; k++) {
		u32 i = lv[k];
		const struct r2c2_fv *fv = &pf->fv[i];
		double P = 0, ha = 0, x, d;

		for (q = 0; fv->split && q < fv->nv; q++) {
			g = fv->group[q];
			if (!pf->cs && pf->gp[g] < 0) {
				pf->ga[g] = 0;
				pf->gp[g] = group_dot(pf, g, p, &pf->ga[g]);
				pf->gx[g] = pf->gh[g] = pf->gq[g] = 0;
			}
			P += fv->scale[q] * pf->gp[g];
			ha += fv->scale[q] * pf->ga[g];
		}
		for (j = pf->fs[i]; j < pf->fs[i + 1]; j++) {
			double pl = p[pf->fl[j]];

			P += pf->fc[j] * pl;
			ha += pl > 0 ? pf->fc[j] : 0;
		}
		x = dmin(P > 0 ? f[i].weight / P : INFINITY, pf->xmax[i]);
		d = x * x / f[i].weight;
		if (f[i].demand > 0 && x >= f[i].demand) {
			x = f[i].demand;
			d = 0;
		}
		pf->x[i] = x;
		if (x > 0)
			u += f[i].weight * log(x);
		for (q = 0; fv->split && q < fv->nv; q++) {
			g = fv->group[q];
			pf->gx[g] += x * fv->scale[q];
			pf->gh[g] += ha * d * fv->scale[q];
			pf->gq[g] += 2 * d * fv->scale[q] * fv->scale[q];
		}
		for (j = pf->fs[i]; j < pf->fs[i + 1]; j++) {
			double a = pf->fc[j];

			l = pf->fl[j];
			pf->load[l] += a * x;
			pf->H[l] += a * (p[l] > 0 ? ha : ha + a) * d;
		}
	}
	if (pf->cs) {
		u32 n = (u32)(pf->ng / 2);

		pf_groups_add(pf, pf->gx, pf->gx + n, false, pf->load);
		pf_groups_add(pf, pf->gh, pf->gh + n, false, pf->H);
		memset(pf->sq, 0, pf->nl * sizeof(double));
		pf_groups_add(pf, pf->gq, pf->gq + n, true, pf->sq);
		for (l = 0; l < pf->nl; l++)
			if (!(p[l] > 0))
				pf->H[l] += pf->sq[l];
		return u;
	}
	for (g = 0; g < pf->ng; g++) {
		const struct r2c2_vec *v;
		const u16 *tr;
		const double *w;

		if (pf->gp[g] < 0)
			continue;
		w = r2c2_rtab_group(rt, g, &v, &tr);
		for (l = 0; w && l < pf->nl; l++) {
			pf->load[l] += w[l] * pf->gx[g];
			pf->H[l] += w[l] * pf->gh[g];
			if (!(p[l] > 0))
				pf->H[l] += w[l] * w[l] * pf->gq[g];
		}
		for (j = 0; !w && j < v->len; j++) {
			double a = v->coef[j];

			l = r2c2_fv_link(tr, v->link[j]);
			pf->load[l] += a * pf->gx[g];
			pf->H[l] += a * pf->gh[g];
			if (!(p[l] > 0))
				pf->H[l] += a * a * pf->gq[g];
		}
	}
	return u;
}

/*
 * The largest load / capacity on group g's links: the first of the
 * network's most loaded links that is the group's (a VLB group has about
 * half the links), else a walk of the group. Links below the TOPK have a
 * ratio at most that of the last one, so when the TOPK are all there
 * were (ntop < TOPK) and none is the group's, its links are all at 0.
 */
static double group_maxr(const struct r2c2_pf *pf, u32 g)
{
	unsigned int j;

	for (j = 0; j < pf->ntop; j++)
		if (r2c2_rtab_group_coef(pf->rt, g, pf->top[j]) != 0)
			return pf->r[pf->top[j]];
	if (pf->ntop < TOPK)
		return 0;
	return group_max(pf, g, pf->r, false);
}

/*
 * F-NORM: each flow's rate divided by the largest load / capacity on its
 * links, so that no link is over-allocated, into out. Returns
 * sum_s w_s log out_s over the flows that can have a rate.
 */
static double pf_fnorm(struct r2c2_pf *pf, const struct r2c2_flow *f,
		       const u32 *lv, u32 nlv, double *out)
{
	double u = 0;
	size_t l;
	u32 k, g;
	int q;

	pf->ntop = 0;
	for (l = 0; l < pf->nl; l++) {
		double r = pf->load[l] <= 0 ? 0 :
			pf->cap[l] > 0 ? pf->load[l] / pf->cap[l] : INFINITY;
		unsigned int j;

		pf->r[l] = r;
		if (!(r > 0) ||
		    (pf->ntop == TOPK && !(r > pf->r[pf->top[TOPK - 1]])))
			continue;
		/* insert into the TOPK largest, in decreasing order */
		j = pf->ntop < TOPK ? pf->ntop++ : TOPK - 1;
		for (; j > 0 && pf->r[pf->top[j - 1]] < r; j--)
			pf->top[j] = pf->top[j - 1];
		pf->top[j] = (u32)l;
	}
	for (g = 0; g < pf->ng; g++)
		pf->gr[g] = -1;
	for (k = 0; k < nlv; k++) {
		size_t j;
		u32 i = lv[k];
		const struct r2c2_fv *fv = &pf->fv[i];
		double m = 0, x;

		for (q = 0; fv->split && q < fv->nv; q++) {
			g = fv->group[q];
			if (pf->gr[g] < 0)
				pf->gr[g] = group_maxr(pf, g);
			m = dmax(m, pf->gr[g]);
		}
		for (j = pf->fs[i]; j < pf->fs[i + 1]; j++)
			m = dmax(m, pf->r[pf->fl[j]]);
		x = m > 0 ? pf->x[i] / m : pf->x[i];
		if (m == INFINITY)
			x = 0;
		x = dmin(x, pf->xmax[i]);
		if (f[i].demand > 0)
			x = dmin(x, f[i].demand);
		out[i] = x;
		if (pf->x[i] > 0)
			u += f[i].weight * log(x);
	}
	return u;
}

/*
 * One level: price steps until the duality gap certifies the F-NORMed
 * rates, then add them to pf->used (not after the last level: no level
 * below needs it). With x(p) the rates the prices give
 * and y = F-NORM(x) (feasible), U(y) <= U* <= D(p), where
 * D(p) = sum_s (w_s log x_s - x_s P_s) + sum_l p_l c_l is the dual of
 * the problem with each rate in [0, min(xmax_s, demand_s)] (the same
 * optimum: capacity already bounds rates by xmax). So
 * D(p) - U(y) = sum_s w_s log(x_s / y_s) + sum_l p_l (c_l - load_l)
 * bounds how far y is from the optimum; we stop when it is at most tol
 * times the level's sum of weights. Returns the number of evaluations.
 */
static unsigned int pf_level(struct r2c2_pf *pf, const struct r2c2_flow *f,
			     const u32 *lv, u32 nlv, bool last, double *rate)
{
	int pr = f[lv[0]].prio;
	double *p = pf->price[pr], *gam = pf->gam[pr], *lastg = pf->lastg[pr];
	double *gm = pf->gm[pr];
	double W = 0, dprev = 0;
	size_t nl = pf->nl, l;
	unsigned int it;
	u32 k;
	size_t j;
	int q;

	/*
	 * largest rate each flow could have alone on what is left: 1 / the
	 * largest coef / capacity on its links (pf->r holds 1 / capacity for
	 * now; a split flow's groups are walked once a group)
	 */
	for (l = 0; l < nl; l++)
		pf->r[l] = pf->cap[l] > 0 ? 1 / pf->cap[l] : INFINITY;
	if (memcmp(pf->gmcap[pr], pf->cap, nl * sizeof(double))) {
		memcpy(pf->gmcap[pr], pf->cap, nl * sizeof(double));
		for (k = 0; k < pf->ng; k++)
			gm[k] = -1;
	}
	for (k = 0; k < nlv; k++) {
		const struct r2c2_fv *fv = &pf->fv[lv[k]];
		double m = 0, xm;

		for (q = 0; fv->split && q < fv->nv; q++) {
			u32 g = fv->group[q];

			if (gm[g] < 0)
				gm[g] = group_max(pf, g, pf->r, true);
			m = dmax(m, gm[g] * fv->scale[q]);
		}
		for (j = pf->fs[lv[k]]; j < pf->fs[lv[k] + 1]; j++)
			m = dmax(m, pf->fc[j] * pf->r[pf->fl[j]]);
		xm = 1 / m;
		pf->xmax[lv[k]] = xm;
		if (xm > 0)
			W += f[lv[k]].weight;
	}
	if (!(W > 0)) {
		/* nothing left on any flow's path */
		for (k = 0; k < nlv; k++)
			rate[lv[k]] = 0;
		return 0;
	}
	for (it = 1;; it++) {
		double ux = pf_rates(pf, f, lv, nlv, p), uy, dual = ux;

		uy = pf_fnorm(pf, f, lv, nlv, rate);
		for (l = 0; l < nl; l++)
			dual += p[l] * (dmax(0, pf->cap[l]) - pf->load[l]);
		if (dual - uy <= pf->o.tol * W || it >= pf->o.max_iter)
			break;
		if (it > 1 && dual > dprev + 1e-10 * W) {
			/* the dual went up: back to the last prices, shorter steps */
			memcpy(p, pf->pold, nl * sizeof(double));
			for (l = 0; l < nl; l++) {
				gam[l] *= 0.5;
				lastg[l] = 0;
			}
			continue;
		}
		dprev = dual;
		memcpy(pf->pold, p, nl * sizeof(double));
		/* scaled price step; each link's step grows while G keeps its sign */
		for (l = 0; l < nl; l++) {
			double G = pf->load[l] - pf->cap[l];

			if (G * lastg[l] < 0)
				gam[l] *= 0.5;
			else if (G * lastg[l] > 0 && p[l] > 0)
				gam[l] = dmin(gam[l] * STEP_GROW, pf->o.gamma * STEP_MAX);
			lastg[l] = G;
			if (pf->H[l] > 0)
				p[l] = dmax(0, p[l] + gam[l] * G / pf->H[l]);
			else if (G < 0)
				p[l] *= 0.5;
			else if (G > 0)
				p[l] = 2 * p[l] + 1 / dmax(pf->cap[l], 1e-300);
		}
	}
	/* what the level uses, for the levels below: split flows' by group */
	if (last)
		return it;
	memset(pf->gx, 0, pf->ng * sizeof(double));
	for (k = 0; k < nlv; k++) {
		u32 i = lv[k];
		const struct r2c2_fv *fv = &pf->fv[i];

		for (q = 0; fv->split && q < fv->nv; q++)
			pf->gx[fv->group[q]] += rate[i] * fv->scale[q];
		for (j = pf->fs[i]; j < pf->fs[i + 1]; j++)
			pf->used[pf->fl[j]] += rate[i] * pf->fc[j];
	}
	if (pf->cs) {
		pf_groups_add(pf, pf->gx, pf->gx + pf->ng / 2, false, pf->used);
		return it;
	}
	for (k = 0; k < pf->ng; k++)
		if (pf->gx[k] != 0)
			r2c2_rtab_group_axpy(pf->rt, k, pf->gx[k], pf->used);
	return it;
}

/*
 * The link weights of the flows that are not split, as absolute links in
 * one array (pf->fl, fc, fs): every evaluation walks them three times,
 * and a flat array is walked without the torus's translation rows
 */
static int pf_flatten(struct r2c2_pf *pf, size_t nf)
{
	size_t i, c = 0;
	u32 j;
	int q;

	for (i = 0; i < nf; i++)
		for (q = 0; !pf->fv[i].split && q < pf->fv[i].nv; q++)
			c += pf->fv[i].v[q]->len;
	if (c > pf->fcap || !pf->fl) {
		u32 *a = realloc(pf->fl, (c ? c : 1) * sizeof(*pf->fl));
		double *b = a ? realloc(pf->fc, (c ? c : 1) * sizeof(*pf->fc)) : NULL;

		if (a)
			pf->fl = a;
		if (b)
			pf->fc = b;
		if (!b)
			return -ENOMEM;
		pf->fcap = c;
	}
	/* pf->fs has room for pf->nf + 1 (r2c2_propfair() grew it) */
	c = 0;
	for (i = 0; i < nf; i++) {
		const struct r2c2_fv *fv = &pf->fv[i];

		pf->fs[i] = c;
		for (q = 0; !fv->split && q < fv->nv; q++)
			for (j = 0; j < fv->v[q]->len; j++) {
				pf->fl[c] = r2c2_fv_link(fv->tr[q], fv->v[q]->link[j]);
				pf->fc[c++] = fv->v[q]->coef[j] * fv->scale[q];
			}
	}
	pf->fs[nf] = c;
	return 0;
}

static int cmp_prio(const void *a, const void *b, void *arg)
{
	const struct r2c2_flow *f = arg;
	u32 i = *(const u32 *)a, j = *(const u32 *)b;

	if (f[i].prio != f[j].prio)
		return f[i].prio < f[j].prio ? -1 : 1;
	return (i > j) - (i < j);
}

/**
 * r2c2_propfair() - proportionally fair rates: link prices, then F-NORM
 * @pf: optimiser state (prices kept warm)
 * @f: flows
 * @nf: number of flows
 * @headroom: as r2c2_maxmin()
 * @rate: out
 * @iters: out, evaluations summed over the levels (may be NULL)
 *
 * Return: 0, -EINVAL, -ENOENT or -ENOMEM.
 */
int r2c2_propfair(struct r2c2_pf *pf, const struct r2c2_flow *f, size_t nf,
		  double headroom, double *rate, unsigned int *iters)
{
	const struct r2c2_topo *t = r2c2_rtab_topo(pf->rt);
	unsigned int total = 0;
	u32 *lv;
	size_t i, s, l;
	int ret;

	if (!(headroom >= 0 && headroom < 1))
		return -EINVAL;
	if (nf > pf->nf || !pf->fs) {
		/* at least one of each: realloc() of 0 may return NULL */
		size_t m = nf ? nf : 1;
		void *a = realloc(pf->x, m * sizeof(double));
		void *b = a ? realloc(pf->xmax, m * sizeof(double)) : NULL;
		void *c = b ? realloc(pf->fv, m * sizeof(struct r2c2_fv)) : NULL;
		void *d = c ? realloc(pf->fs, (nf + 1) * sizeof(*pf->fs)) : NULL;

		if (a)
			pf->x = a;
		if (b)
			pf->xmax = b;
		if (c)
			pf->fv = c;
		if (d)
			pf->fs = d;
		if (!d)
			return -ENOMEM;
		pf->nf = nf;
	}
	lv = malloc((nf ? nf : 1) * sizeof(*lv));
	if (!lv)
		return -ENOMEM;
	for (i = 0; i < nf; i++) {
		if (!(f[i].weight > 0) || !(f[i].demand >= 0) ||
		    f[i].prio >= R2C2_PRIO_LEVELS) {
			ret = -EINVAL;
			goto out;
		}
		ret = r2c2_rtab_fv(pf->rt, f[i].src, f[i].dst, f[i].rproto, &pf->fv[i]);
		if (ret)
			goto out;
		pf->x[i] = 0;
		lv[i] = (u32)i;
	}
	ret = pf_flatten(pf, nf);
	if (ret)
		goto out;
	qsort_r(lv, nf, sizeof(*lv), cmp_prio, (void *)f);
	memset(pf->used, 0, pf->nl * sizeof(double));
	for (s = 0; s < nf; s = i) {
		int pr = f[lv[s]].prio;

		for (i = s + 1; i < nf && f[lv[i]].prio == pr; i++)
			;
		/* what a full link leaves is rounding: none */
		for (l = 0; l < pf->nl; l++) {
			pf->cap[l] = t->cap[l] * (1 - headroom) - pf->used[l];
			if (pf->cap[l] <= 1e-9 * t->cap[l])
				pf->cap[l] = 0;
		}
		if (!pf->price[pr]) {
			pf->price[pr] = malloc(pf->nl * sizeof(double));
			pf->gam[pr] = malloc(pf->nl * sizeof(double));
			pf->lastg[pr] = calloc(pf->nl, sizeof(double));
			pf->gm[pr] = malloc(pf->ng * sizeof(double));
			/* NaN: equal to no capacity, so the first call fills gm */
			pf->gmcap[pr] = malloc(pf->nl * sizeof(double));
			if (!pf->price[pr] || !pf->gam[pr] || !pf->lastg[pr] ||
			    !pf->gm[pr] || !pf->gmcap[pr]) {
				free(pf->price[pr]);
				free(pf->gam[pr]);
				free(pf->lastg[pr]);
				free(pf->gm[pr]);
				free(pf->gmcap[pr]);
				pf->price[pr] = pf->gam[pr] = pf->lastg[pr] = NULL;
				pf->gm[pr] = pf->gmcap[pr] = NULL;
				ret = -ENOMEM;
				goto out;
			}
			for (l = 0; l < pf->nl; l++) {
				pf->gmcap[pr][l] = NAN;
				pf->price[pr][l] = t->cap[l] > 0 ? 1 / t->cap[l] : 0;
				pf->gam[pr][l] = pf->o.gamma;
			}
		}
		/* warm: the level keeps its prices and steps from the last call */
		total += pf_level(pf, f, lv + s, (u32)(i - s), i == nf, rate);
	}
	ret = 0;
	if (iters)
		*iters = total;
out:
	free(lv);
	return ret;
}

/**
 * r2c2_allocate() - rates under either policy
 * @rt: tables
 * @policy: enum r2c2_policy
 * @f: flows
 * @nf: number of flows
 * @headroom: as r2c2_maxmin()
 * @rate: out
 * @ws: scratch for max-min (may be NULL)
 *
 * Proportional fairness starts from cold prices here; keep a struct
 * r2c2_pf to reuse them.
 *
 * Return: as r2c2_maxmin() / r2c2_propfair().
 */
int r2c2_allocate(const struct r2c2_rtab *rt, int policy,
		  const struct r2c2_flow *f, size_t nf, double headroom,
		  double *rate, struct r2c2_ws *ws)
{
	struct r2c2_pf *pf;
	int ret;

	if (policy == R2C2_POL_MAXMIN)
		return r2c2_maxmin(rt, f, nf, headroom, rate, ws);
	if (policy != R2C2_POL_PROPFAIR)
		return -EINVAL;
	pf = r2c2_pf_new(rt, NULL);
	if (!pf)
		return -ENOMEM;
	ret = r2c2_propfair(pf, f, nf, headroom, rate, NULL);
	r2c2_pf_free(pf);
	return ret;
}
