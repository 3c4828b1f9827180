// SPDX-License-Identifier: GPL-2.0
/*
 * maxmin_ref.c - the references the max-min engine (maxmin.c) is
 * measured and checked against: the paper's straightforward
 * water-filling, per-link loads of an allocation and the max-min
 * certificate.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rtab_int.h"

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
/* entries of part k of fv: a split graph flow's group is dense */
static u32 fv_len(const struct r2c2_rtab *rt, const struct r2c2_fv *fv, int k)
{
	return fv->v[k] ? fv->v[k]->len : (u32)R2C2_NLINKS(r2c2_rtab_topo(rt)->n);
}

/* the link of entry j of part k of fv into *l; false if it has no weight */
static bool fv_entry(const struct r2c2_rtab *rt, const struct r2c2_fv *fv,
		     int k, u32 j, size_t *l)
{
	const struct r2c2_vec *v;
	const u16 *tr;

	if (fv->v[k]) {
		*l = r2c2_fv_link(fv->tr[k], fv->v[k]->link[j]);
		return true;
	}
	*l = j;
	return r2c2_rtab_group(rt, fv->group[k], &v, &tr)[j] != 0;
}

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
			for (j = 0; j < fv_len(rt, &fv, k); j++) {
				if (!fv_entry(rt, &fv, k, j, &l))
					continue;
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
			for (j = 0; j < fv_len(rt, &fv, k); j++) {
				double u;

				if (!fv_entry(rt, &fv, k, j, &l))
					continue;
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
