// SPDX-License-Identifier: GPL-2.0
/*
 * propfair.c - weighted proportional fairness (U_s(x) = w_s log x_s) by
 * Flowtune's Newton-Exact-Diagonal price updates, then F-NORM.
 *
 * A flow crosses link l a_sl times per packet (its per-link weight from
 * the routing tables), so it pays P_s = sum_l a_sl p_l per unit rate:
 *	rate update	x_s = min(demand_s, xmax_s, w_s / P_s)
 *	price update	p_l = max(0, p_l + gamma * G_l / |H_ll|)
 *			G_l = sum_s a_sl x_s - c_l,
 *			H_ll = -sum_s a_sl^2 x_s^2 / w_s (uncapped flows)
 * For split VLB flows (a = (A_s + B_d) / n) the group sums give P_s
 * exactly; H uses the bound (A + B)^2 <= 2 (A^2 + B^2), which only makes
 * steps more cautious. F-NORM then divides each flow by the largest
 * load / capacity ratio on its links, so no link is ever over-allocated.
 * Prices stay in struct r2c2_pf between calls ("warm"), one vector per
 * priority level; levels are served in order on the capacity left.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rtab_int.h"

struct r2c2_pf {
	const struct r2c2_rtab *rt;
	struct r2c2_pf_opts o;
	size_t nl, ng;
	double *price[R2C2_PRIO_LEVELS];
	/* scratch */
	double *load, *H, *cap, *used, *gp, *gx, *gh, *gr, *r;
	double *x, *xmax;
	size_t nf;
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
		pf->o.gamma = 0.3;
		pf->o.tol = 1e-4;
		pf->o.max_iter = 2000;
	}
	pf->load = calloc(pf->nl, sizeof(double));
	pf->H = calloc(pf->nl, sizeof(double));
	pf->cap = calloc(pf->nl, sizeof(double));
	pf->used = calloc(pf->nl, sizeof(double));
	pf->r = calloc(pf->nl, sizeof(double));
	pf->gp = calloc(pf->ng, sizeof(double));
	pf->gx = calloc(pf->ng, sizeof(double));
	pf->gh = calloc(pf->ng, sizeof(double));
	pf->gr = calloc(pf->ng, sizeof(double));
	if (!pf->load || !pf->H || !pf->cap || !pf->used || !pf->r || !pf->gp ||
	    !pf->gx || !pf->gh || !pf->gr) {
		r2c2_pf_free(pf);
		return NULL;
	}
	return pf;
}

void r2c2_pf_free(struct r2c2_pf *pf)
{
	int i;

	if (!pf)
		return;
	for (i = 0; i < R2C2_PRIO_LEVELS; i++)
		free(pf->price[i]);
	free(pf->load); free(pf->H); free(pf->cap); free(pf->used);
	free(pf->r); free(pf->gp); free(pf->gx); free(pf->gh); free(pf->gr);
	free(pf->x); free(pf->xmax); free(pf->fv);
	free(pf);
}

/* sum_l coef * val[l] over a vector part */
static double vdot(const struct r2c2_vec *v, const u16 *tr, const double *val)
{
	double s = 0;
	u32 j;

	for (j = 0; j < v->len; j++)
		s += v->coef[j] * val[r2c2_fv_link(tr, v->link[j])];
	return s;
}

static double vmaxr(const struct r2c2_vec *v, const u16 *tr, const double *val)
{
	double m = 0;
	u32 j;

	for (j = 0; j < v->len; j++)
		m = fmax(m, val[r2c2_fv_link(tr, v->link[j])]);
	return m;
}

/* one level: NED until converged, then F-NORM; adds to pf->used */
static unsigned int pf_level(struct r2c2_pf *pf, const struct r2c2_flow *f,
			     const u32 *lv, u32 nlv, double *rate)
{
	const struct r2c2_rtab *rt = pf->rt;
	double *p = pf->price[f[lv[0]].prio];
	size_t nl = pf->nl, l;
	unsigned int it;
	u32 k, j, g;
	int q;

	/* largest rate each flow could have alone on what is left */
	for (k = 0; k < nlv; k++) {
		const struct r2c2_fv *fv = &pf->fv[lv[k]];
		double xm = INFINITY;

		for (q = 0; q < fv->nv; q++)
			for (j = 0; j < fv->v[q]->len; j++) {
				l = r2c2_fv_link(fv->tr[q], fv->v[q]->link[j]);
				xm = fmin(xm, fmax(0, pf->cap[l]) /
					  (fv->v[q]->coef[j] * fv->scale[q]));
			}
		pf->xmax[lv[k]] = xm;
	}
	for (it = 0; it < pf->o.max_iter; it++) {
		double change = 0;

		/* group price sums */
		for (g = 0; g < pf->ng; g++)
			pf->gx[g] = pf->gh[g] = pf->gp[g] = -1;
		memset(pf->load, 0, nl * sizeof(double));
		memset(pf->H, 0, nl * sizeof(double));
		for (k = 0; k < nlv; k++) {
			u32 i = lv[k];
			const struct r2c2_fv *fv = &pf->fv[i];
			double P = 0, x;
			bool capped;

			for (q = 0; q < fv->nv; q++) {
				if (fv->split) {
					g = fv->group[q];
					if (pf->gp[g] < 0) {
						pf->gp[g] = vdot(fv->v[q], fv->tr[q], p);
						pf->gx[g] = pf->gh[g] = 0;
					}
					P += fv->scale[q] * pf->gp[g];
				} else {
					P += vdot(fv->v[q], fv->tr[q], p);
				}
			}
			x = P > 0 ? f[i].weight / P : INFINITY;
			capped = false;
			/* xmax only bounds the first steps: keep the derivative */
			if (x >= pf->xmax[i])
				x = pf->xmax[i];
			if (f[i].demand > 0 && x >= f[i].demand) {
				x = f[i].demand;
				capped = true;
			}
			if (pf->x[i] > 0)
				change = fmax(change, fabs(x - pf->x[i]) / pf->x[i]);
			else if (x > 0)
				change = INFINITY;
			pf->x[i] = x;
			for (q = 0; q < fv->nv; q++) {
				double h = capped ? 0 : x * x / f[i].weight;

				if (fv->split) {
					g = fv->group[q];
					pf->gx[g] += x * fv->scale[q];
					pf->gh[g] += 2 * h * fv->scale[q] * fv->scale[q];
					continue;
				}
				for (j = 0; j < fv->v[q]->len; j++) {
					double a = fv->v[q]->coef[j];

					l = r2c2_fv_link(fv->tr[q], fv->v[q]->link[j]);
					pf->load[l] += a * x;
					pf->H[l] += a * a * h;
				}
			}
		}
		for (g = 0; g < pf->ng; g++) {
			const struct r2c2_vec *v;
			const u16 *tr;

			if (pf->gp[g] < 0)
				continue;
			r2c2_rtab_group(rt, g, &v, &tr);
			for (j = 0; j < v->len; j++) {
				double a = v->coef[j];

				l = r2c2_fv_link(tr, v->link[j]);
				pf->load[l] += a * pf->gx[g];
				pf->H[l] += a * a * pf->gh[g];
			}
		}
		if (change <= pf->o.tol && it > 0)
			break;
		/* NED price update */
		for (l = 0; l < nl; l++) {
			double G = pf->load[l] - pf->cap[l];

			if (pf->H[l] > 0)
				p[l] = fmax(0, p[l] + pf->o.gamma * G / pf->H[l]);
			else if (G < 0)
				p[l] *= 0.5;
			else if (G > 0)
				p[l] = 2 * p[l] + 1 / fmax(pf->cap[l], 1e-300);
		}
	}
	/* F-NORM: divide each flow by the worst load/capacity on its path */
	for (l = 0; l < nl; l++)
		pf->r[l] = pf->load[l] <= 0 ? 0 :
			pf->cap[l] > 0 ? pf->load[l] / pf->cap[l] : INFINITY;
	for (g = 0; g < pf->ng; g++)
		pf->gr[g] = -1;
	for (k = 0; k < nlv; k++) {
		u32 i = lv[k];
		const struct r2c2_fv *fv = &pf->fv[i];
		double m = 0, x;

		for (q = 0; q < fv->nv; q++) {
			if (fv->split) {
				g = fv->group[q];
				if (pf->gr[g] < 0)
					pf->gr[g] = vmaxr(fv->v[q], fv->tr[q], pf->r);
				m = fmax(m, pf->gr[g]);
			} else {
				m = fmax(m, vmaxr(fv->v[q], fv->tr[q], pf->r));
			}
		}
		x = m > 0 ? pf->x[i] / m : pf->x[i];
		if (m == INFINITY)
			x = 0;
		x = fmin(x, pf->xmax[i]);
		if (f[i].demand > 0)
			x = fmin(x, f[i].demand);
		rate[i] = x;
		for (q = 0; q < fv->nv; q++)
			for (j = 0; j < fv->v[q]->len; j++) {
				l = r2c2_fv_link(fv->tr[q], fv->v[q]->link[j]);
				pf->used[l] += x * fv->scale[q] * fv->v[q]->coef[j];
			}
	}
	return it;
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
 * r2c2_propfair() - proportionally fair rates, NED + F-NORM
 * @pf: optimiser state (prices kept warm)
 * @f: flows
 * @nf: number of flows
 * @headroom: as r2c2_maxmin()
 * @rate: out
 * @iters: out, NED iterations summed over levels (may be NULL)
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
	if (nf > pf->nf) {
		void *a = realloc(pf->x, nf * sizeof(double));
		void *b = a ? realloc(pf->xmax, nf * sizeof(double)) : NULL;
		void *c = b ? realloc(pf->fv, nf * sizeof(struct r2c2_fv)) : NULL;

		if (a)
			pf->x = a;
		if (b)
			pf->xmax = b;
		if (c)
			pf->fv = c;
		if (!c)
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
	qsort_r(lv, nf, sizeof(*lv), cmp_prio, (void *)f);
	memset(pf->used, 0, pf->nl * sizeof(double));
	for (s = 0; s < nf; s = i) {
		int pr = f[lv[s]].prio;

		for (i = s + 1; i < nf && f[lv[i]].prio == pr; i++)
			;
		for (l = 0; l < pf->nl; l++)
			pf->cap[l] = t->cap[l] * (1 - headroom) - pf->used[l];
		if (!pf->price[pr]) {
			pf->price[pr] = malloc(pf->nl * sizeof(double));
			if (!pf->price[pr]) {
				ret = -ENOMEM;
				goto out;
			}
			for (l = 0; l < pf->nl; l++)
				pf->price[pr][l] = t->cap[l] > 0 ? 1 / t->cap[l] : 0;
		}
		/* warm start: remembered rates seed the convergence test */
		total += pf_level(pf, f, lv + s, (u32)(i - s), rate);
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
