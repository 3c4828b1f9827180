// SPDX-License-Identifier: GPL-2.0
/*
 * maxmin_test.c - exactness of the water-filling.
 *
 * Reference: the Max-min Programming method of the paper's [40], on
 * GLPK: for each priority level, repeatedly maximise the common level t
 * (x_f >= w_f t for unfixed flows, x_f <= demand, capacity left by higher
 * levels), then fix every flow whose rate cannot exceed w_f t* (one more
 * LP per flow). Link weights come straight from r2c2_link_weights_add().
 * Independent of the engine's data structures and event logic.
 *
 * Every engine result must also pass r2c2_maxmin_check() (feasibility +
 * max-min certificate) and equal r2c2_maxmin_baseline().
 */
#include <glpk.h>
#include <math.h>
#include <string.h>
#include "r2c2_alloc.h"
#include "alloc_tap.h"

#define NINST	1200

struct inst {
	struct r2c2_topo *t;
	struct r2c2_flow f[16];
	size_t nf;
	double headroom;
};

/* row of link l in the LP: sum_f a[f][l] x_f */
static int lp_solve(const struct inst *in, double **a, const bool *fixed,
		    const double *val, int level, double tstar, int maxflow,
		    double *obj)
{
	const struct r2c2_topo *t = in->t;
	size_t nl = R2C2_NLINKS(t->n), l, i;
	glp_prob *lp = glp_create_prob();
	int nf = (int)in->nf, col_t = nf + 1, row = 0, ret;
	int *ia = malloc(sizeof(int) * (nl * (nf + 1) + 4 * nf + 8));
	int *ja = malloc(sizeof(int) * (nl * (nf + 1) + 4 * nf + 8));
	double *ar = malloc(sizeof(double) * (nl * (nf + 1) + 4 * nf + 8));
	int k = 0;
	glp_smcp parm;

	glp_set_obj_dir(lp, GLP_MAX);
	glp_add_cols(lp, nf + 1);
	for (i = 0; i < in->nf; i++) {
		int c = (int)i + 1;

		if (in->f[i].prio != level)
			glp_set_col_bnds(lp, c, GLP_FX, 0, 0);	/* not in this LP */
		else if (fixed[i])
			glp_set_col_bnds(lp, c, GLP_FX, val[i], val[i]);
		else if (in->f[i].demand > 0)
			glp_set_col_bnds(lp, c, GLP_DB, 0, in->f[i].demand);
		else
			glp_set_col_bnds(lp, c, GLP_LO, 0, 0);
	}
	if (maxflow < 0) {
		glp_set_col_bnds(lp, col_t, GLP_LO, 0, 0);
		glp_set_obj_coef(lp, col_t, 1);
	} else {
		glp_set_col_bnds(lp, col_t, GLP_FX, tstar, tstar);
		glp_set_obj_coef(lp, maxflow + 1, 1);
	}
	for (l = 0; l < nl; l++) {
		double used = 0;
		bool any = false;

		if (t->cap[l] <= 0)
			continue;
		for (i = 0; i < in->nf; i++) {
			if (in->f[i].prio < level)
				used += val[i] * a[i][l];
			else if (in->f[i].prio == level && a[i][l] != 0)
				any = true;
		}
		if (!any)
			continue;
		glp_add_rows(lp, 1);
		row++;
		glp_set_row_bnds(lp, row, GLP_UP, 0,
				 t->cap[l] * (1 - in->headroom) - used);
		for (i = 0; i < in->nf; i++)
			if (in->f[i].prio == level && a[i][l] != 0) {
				k++;
				ia[k] = row; ja[k] = (int)i + 1; ar[k] = a[i][l];
			}
	}
	/* x_f - w_f t >= 0 for unfixed flows of the level */
	for (i = 0; i < in->nf; i++) {
		if (in->f[i].prio != level || fixed[i])
			continue;
		glp_add_rows(lp, 1);
		row++;
		glp_set_row_bnds(lp, row, GLP_LO, 0, 0);
		k++; ia[k] = row; ja[k] = (int)i + 1; ar[k] = 1;
		k++; ia[k] = row; ja[k] = col_t; ar[k] = -in->f[i].weight;
	}
	glp_load_matrix(lp, k, ia, ja, ar);
	glp_init_smcp(&parm);
	parm.msg_lev = GLP_MSG_OFF;
	ret = glp_simplex(lp, &parm);
	if (!ret && glp_get_status(lp) == GLP_OPT)
		*obj = glp_get_obj_val(lp);
	else
		ret = -1;
	glp_delete_prob(lp);
	free(ia); free(ja); free(ar);
	return ret;
}

static int reference(const struct inst *in, double **a, double *x)
{
	bool fixed[16] = { 0 };
	int level;
	size_t i;

	for (level = 0; level < R2C2_PRIO_LEVELS; level++) {
		for (;;) {
			double tstar, best;
			int nfixed = 0, left = 0;

			for (i = 0; i < in->nf; i++)
				left += in->f[i].prio == level && !fixed[i];
			if (!left)
				break;
			if (lp_solve(in, a, fixed, x, level, 0, -1, &tstar))
				return -1;
			for (i = 0; i < in->nf; i++) {
				if (in->f[i].prio != level || fixed[i])
					continue;
				if (in->f[i].demand > 0 &&
				    in->f[i].weight * tstar >= in->f[i].demand * (1 - 1e-9)) {
					x[i] = in->f[i].demand;
					fixed[i] = true;
					nfixed++;
					continue;
				}
				if (lp_solve(in, a, fixed, x, level, tstar, (int)i, &best))
					return -1;
				if (best <= in->f[i].weight * tstar * (1 + 1e-9) + 1e-12) {
					x[i] = in->f[i].weight * tstar;
					fixed[i] = true;
					nfixed++;
				}
			}
			if (!nfixed)
				return -1;
		}
	}
	return 0;
}

static struct r2c2_topo *rand_topo(uint64_t *seed)
{
	struct r2c2_topo *t = NULL;
	unsigned int kind = tbelow(seed, 4);

	if (kind < 3) {
		u8 dims[3];
		unsigned int nd = 2 + (kind == 2), d;

		for (d = 0; d < nd; d++)
			dims[d] = (u8)(2 + tbelow(seed, nd == 3 ? 2 : 4));
		r2c2_topo_grid(&t, dims, nd, kind != 1, 1 + tbelow(seed, 3));
	} else {
		u16 nbr[12 * 8];
		double cap[12 * 8];
		u8 np[12] = { 0 };
		unsigned int n = 4 + tbelow(seed, 8), u, k;

		memset(nbr, 0xff, sizeof(nbr));
		memset(cap, 0, sizeof(cap));
		for (u = 0; u < n; u++) {
			unsigned int v = (u + 1) % n;

			nbr[u * 8 + np[u]] = (u16)v; cap[u * 8 + np[u]++] = 1 + tbelow(seed, 4);
			nbr[v * 8 + np[v]] = (u16)u; cap[v * 8 + np[v]++] = 1 + tbelow(seed, 4);
		}
		for (u = 0; u < n; u++)
			for (k = tbelow(seed, 3); k > 0 && np[u] < 8; k--) {
				unsigned int v = tbelow(seed, n);

				if (v == u)
					continue;
				nbr[u * 8 + np[u]] = (u16)v;
				cap[u * 8 + np[u]++] = 0.5 + tunif(seed) * 3;
			}
		r2c2_topo_from_adj(&t, (u16)n, nbr, cap);
	}
	return t;
}

static void random_suite(void)
{
	uint64_t seed = 20150817;
	unsigned int it, agree = 0, cert = 0, base = 0, solved = 0;
	double worst = 0, worstb = 0;
	struct r2c2_ws *ws = r2c2_ws_new();

	for (it = 0; it < NINST; it++) {
		struct inst in = { 0 };
		double *a[16], x[16], ref[16], xb[16], maxcap = 0, err = 0, errb = 0;
		struct r2c2_rtab *rt;
		struct r2c2_check chk;
		size_t i, nl;
		bool hard = it % 3 == 0;	/* all extensions at once */

		in.t = rand_topo(&seed);
		nl = R2C2_NLINKS(in.t->n);
		in.nf = 1 + tbelow(&seed, 12);
		in.headroom = tbelow(&seed, 2) ? 0.05 : tunif(&seed) * 0.2;
		r2c2_rtab_new(&rt, in.t);
		for (i = 0; i < nl; i++)
			maxcap = fmax(maxcap, in.t->cap[i]);
		for (i = 0; i < in.nf; i++) {
			struct r2c2_flow *f = &in.f[i];

			f->src = (u16)tbelow(&seed, in.t->n);
			do
				f->dst = (u16)tbelow(&seed, in.t->n);
			while (f->dst == f->src);
			f->rproto = (u8)tbelow(&seed, __R2C2_RP_MAX);
			f->weight = tbelow(&seed, 2) ? 1 : 0.25 + tunif(&seed) * 4;
			f->prio = (u8)(hard || tbelow(&seed, 4) == 0 ? tbelow(&seed, 3) : 0);
			f->demand = (hard ? tbelow(&seed, 2) : tbelow(&seed, 4) == 0) ?
				tunif(&seed) * maxcap : 0;
			a[i] = calloc(nl, sizeof(double));
			r2c2_link_weights_add(&in.t->paths, f->rproto, f->src, f->dst, 1.0, a[i]);
			r2c2_rtab_prepare(rt, f->src, f->dst, f->rproto);
		}
		if (r2c2_maxmin(rt, in.f, in.nf, in.headroom, x, ws) == 0 &&
		    reference(&in, a, ref) == 0) {
			solved++;
			for (i = 0; i < in.nf; i++)
				err = fmax(err, fabs(x[i] - ref[i]) / maxcap);
			worst = fmax(worst, err);
			agree += err <= 1e-7;
			if (err > 1e-7 && agree + 5 > it)
				printf("# instance %u: engine vs LP differ by %.3g\n", it, err);
		}
		if (r2c2_maxmin_check(rt, in.f, in.nf, in.headroom, x, 1e-9, &chk) == 0)
			cert++;
		else
			printf("# instance %u: certificate fails: %s (flow %ld)\n", it,
			       chk.why, chk.bad_flow);
		if (r2c2_maxmin_baseline(in.t, in.f, in.nf, in.headroom, xb) == 0) {
			for (i = 0; i < in.nf; i++)
				errb = fmax(errb, fabs(x[i] - xb[i]) / maxcap);
			worstb = fmax(worstb, errb);
			base += errb <= 1e-9;
		}
		for (i = 0; i < in.nf; i++)
			free(a[i]);
		r2c2_rtab_free(rt);
		r2c2_topo_free(in.t);
	}
	ok(solved == NINST, "reference LP solved %u/%u random instances", solved, NINST);
	ok(agree == solved, "engine == GLPK max-min reference on %u/%u instances (max err %.2g of max capacity)",
	   agree, solved, worst);
	ok(cert == NINST, "max-min certificate holds on %u/%u results", cert, NINST);
	ok(base == NINST, "engine == baseline on %u/%u (max err %.2g)", base, NINST, worstb);
	r2c2_ws_free(ws);
}

static void figure4(void)
{
	/*
	 * Figure 4: f1 1 -> 4 over 1->4 and 1->3->4, equally; f2 2 -> 3 -> 4.
	 * Links 1->4 and 3->4 have capacity 1, the others 2. The direct link
	 * 1 -> 4 is drawn as 1 -> 5 -> 4 (capacities 2, 1) so that RPS, which
	 * sprays over minimal paths, splits f1 1:1 as the figure does.
	 */
	u16 nbr[6 * 8];
	double cap[6 * 8] = { 0 }, x[2];
	struct r2c2_topo *t;
	struct r2c2_rtab *rt;
	struct r2c2_flow f[2] = {
		{ .src = 1, .dst = 4, .rproto = R2C2_RP_RPS, .weight = 1 },
		{ .src = 2, .dst = 4, .rproto = R2C2_RP_RPS, .weight = 1 },
	};
	struct r2c2_check chk;

	memset(nbr, 0xff, sizeof(nbr));
	nbr[1 * 8 + 0] = 5; cap[1 * 8 + 0] = 2;
	nbr[5 * 8 + 0] = 4; cap[5 * 8 + 0] = 1;
	nbr[1 * 8 + 1] = 3; cap[1 * 8 + 1] = 2;
	nbr[3 * 8 + 0] = 4; cap[3 * 8 + 0] = 1;
	nbr[2 * 8 + 0] = 3; cap[2 * 8 + 0] = 2;
	r2c2_topo_from_adj(&t, 6, nbr, cap);
	r2c2_rtab_new(&rt, t);
	r2c2_rtab_prepare(rt, 1, 4, R2C2_RP_RPS);
	r2c2_rtab_prepare(rt, 2, 4, R2C2_RP_RPS);
	ok(r2c2_maxmin(rt, f, 2, 0, x, NULL) == 0 && fabs(x[0] - 2.0 / 3) < 1e-12 &&
	   fabs(x[1] - 2.0 / 3) < 1e-12, "Figure 4: split fixed by RPS gives {2/3, 2/3} (got %g, %g)",
	   x[0], x[1]);
	ok(r2c2_maxmin_check(rt, f, 2, 0, x, 1e-12, &chk) == 0, "Figure 4: certificate");
	ok(r2c2_maxmin(rt, f, 2, 0.05, x, NULL) == 0 && fabs(x[0] - 0.95 * 2 / 3) < 1e-12,
	   "Figure 4 with 5%% headroom: {0.633, 0.633} (got %g)", x[0]);
	r2c2_rtab_free(rt);
	r2c2_topo_free(t);
}

static void figure3_and_extensions(void)
{
	u8 dims[2] = { 2, 2 };
	struct r2c2_topo *t;
	struct r2c2_rtab *rt;
	struct r2c2_flow f[3] = {
		{ .src = 0, .dst = 3, .rproto = R2C2_RP_RPS, .weight = 1 },
	};
	u8 dims4[2] = { 4, 4 };
	double x[3];
	int r;
	u8 p;

	r2c2_topo_grid(&t, dims, 2, false, 10);
	r2c2_rtab_new(&rt, t);
	r2c2_rtab_prepare(rt, 0, 3, R2C2_RP_RPS);
	r2c2_rtab_prepare(rt, 0, 1, R2C2_RP_RPS);
	r2c2_rtab_prepare(rt, 0, 3, R2C2_RP_DOR);
	ok(r2c2_maxmin(rt, f, 1, 0, x, NULL) == 0 && x[0] == 20,
	   "Figure 3: RPS 0->3 alone gets both paths: 20 on 10-capacity links (got %g)", x[0]);
	/* weights: 0->1 weight 3 and 0->3 (uses 0->1 at 1/2) weight 1 */
	f[1] = (struct r2c2_flow){ .src = 0, .dst = 1, .rproto = R2C2_RP_RPS, .weight = 3 };
	r2c2_maxmin(rt, f, 2, 0, x, NULL);
	/* link 0->1: x1 + x0/2 = 10, x1 = 3 x0 -> x0 = 20/7; then x0 limited there */
	ok(fabs(x[1] - 60.0 / 7) < 1e-12 && fabs(x[0] - 20.0 / 7) < 1e-12,
	   "weights 1:3 share link 0->1 as 1:3 (%g, %g)", x[0], x[1]);
	/* priority: 0->1 at prio 0 takes the whole link; prio 1 flow gets 0 */
	f[1].prio = 0; f[0].prio = 1;
	r2c2_maxmin(rt, f, 2, 0, x, NULL);
	ok(x[1] == 10 && x[0] == 0, "strict priority: lower level gets what is left (%g, %g)", x[1], x[0]);
	/* demand: prio-0 flow capped at 4, the rest goes to the other */
	f[1].demand = 4;
	r2c2_maxmin(rt, f, 2, 0, x, NULL);
	ok(x[1] == 4 && fabs(x[0] - 12) < 1e-12, "demand cap frees capacity for others (%g, %g)", x[1], x[0]);
	/* headroom applies to every link */
	f[1].demand = 0; f[0].prio = 0;
	f[0].rproto = R2C2_RP_DOR; f[1].weight = 1;
	r2c2_maxmin(rt, f, 2, 0.05, x, NULL);
	ok(fabs(x[0] - 4.75) < 1e-12 && fabs(x[1] - 4.75) < 1e-12,
	   "headroom 5%%: two flows on one 10-link get 4.75 each (%g, %g)", x[0], x[1]);
	/* the certificate refuses what is not max-min fair */
	{
		struct r2c2_check chk;
		double over[2] = { 5, 5 }, unfair[2] = { 6.5, 3 };

		ok(r2c2_maxmin_check(rt, f, 2, 0.05, x, 1e-9, &chk) == 0,
		   "certificate of {4.75, 4.75}");
		ok(r2c2_maxmin_check(rt, f, 2, 0.05, over, 1e-9, &chk) == -EDOM &&
		   fabs(chk.max_over - (10 - 9.5) / 9.5) < 1e-12 &&
		   chk.why && strstr(chk.why, "above usable capacity"),
		   "certificate refused: {5, 5} puts 10 on a link of 9.5 usable (%s)",
		   chk.why ? chk.why : "accepted");
		ok(r2c2_maxmin_check(rt, f, 2, 0.05, unfair, 1e-9, &chk) == -EDOM &&
		   chk.bad_flow == 1 && chk.why && strstr(chk.why, "without a bottleneck"),
		   "certificate refused: {6.5, 3} fills the link, but flow 1 is not the fastest there (bad flow %ld: %s)",
		   chk.bad_flow, chk.why ? chk.why : "accepted");
	}
	/* errors */
	f[2] = (struct r2c2_flow){ .src = 1, .dst = 1, .weight = 1 };
	ok(r2c2_maxmin(rt, f, 3, 0.05, x, NULL) == -EINVAL, "src == dst rejected");
	f[2] = (struct r2c2_flow){ .src = 1, .dst = 2, .weight = 0 };
	ok(r2c2_maxmin(rt, f, 3, 0.05, x, NULL) == -EINVAL, "zero weight rejected");
	f[2] = (struct r2c2_flow){ .src = 1, .dst = 2, .weight = 1 };
	ok(r2c2_maxmin(rt, f, 3, 0.05, x, NULL) == -ENOENT, "unprepared pair on a mesh reported");
	ok(r2c2_maxmin(rt, f, 2, 1.0, x, NULL) == -EINVAL, "headroom 1 rejected");
	/*
	 * weight 1e-300: capacity / weight overflows, no link saturates at
	 * a finite level; the rate was left unwritten and 0 returned
	 */
	r2c2_rtab_free(rt);
	r2c2_topo_free(t);
	r2c2_topo_grid(&t, dims4, 2, true, 10e9);
	r2c2_rtab_new(&rt, t);
	for (p = 0; p < __R2C2_RP_MAX; p++) {
		f[0] = (struct r2c2_flow){ .src = 3, .dst = 3, .rproto = p, .weight = 1 };
		ok(r2c2_maxmin(rt, f, 1, 0.05, x, NULL) == -EINVAL,
		   "src == dst rejected on torus:4x4 too (%s)", r2c2_rproto_name(p));
	}
	for (p = 0; p < __R2C2_RP_MAX; p++) {
		f[0] = (struct r2c2_flow){ .src = 0, .dst = 5, .rproto = p, .weight = 1e-300 };
		x[0] = -1;
		r = r2c2_maxmin(rt, f, 1, 0.05, x, NULL);
		ok(r == -ERANGE || (r == 0 && x[0] >= 0),
		   "weight 1e-300, %s on torus:4x4: an error, not an unwritten rate (returned %d, rate %g)",
		   r2c2_rproto_name(p), r, x[0]);
	}
	/*
	 * a round of few flows sums C in (C, P) itself, from 0 on each of
	 * its links, not from what the last call left there: weights 1e16
	 * and 1 on link 0->1 sum to 1e16, and taking both off leaves -1
	 */
	{
		struct r2c2_ws *ws = r2c2_ws_new();
		double fresh = -1;
		int r2, r3;

		f[0] = (struct r2c2_flow){ .src = 0, .dst = 1, .rproto = R2C2_RP_DOR, .weight = 1e16 };
		f[1] = (struct r2c2_flow){ .src = 0, .dst = 1, .rproto = R2C2_RP_RPS, .weight = 1 };
		r = r2c2_maxmin(rt, f, 2, 0.05, x, ws);
		f[0].weight = 1;
		x[0] = -1;
		r2 = r2c2_maxmin(rt, f, 1, 0.05, x, ws);
		r3 = r2c2_maxmin(rt, f, 1, 0.05, &fresh, NULL);
		ok(r == 0 && r2 == 0 && r3 == 0 && x[0] == fresh && fresh > 0,
		   "a call after one that left C = -1 on its link: the rate of a fresh workspace (%d %d %d: %g, %g)",
		   r, r2, r3, x[0], fresh);
		r2c2_ws_free(ws);
	}
	r2c2_rtab_free(rt);
	r2c2_topo_free(t);
}

/*
 * a torus with many VLB flows mixed with the others: engine == baseline,
 * certificate. On 4x4x4 every VLB pair is split; on a ring of 45 or 64
 * (twice the diameter over R2C2_MAX_HOPS) only the offsets whose every
 * node is an eligible intermediate are, the others have exact vectors
 * (64: also rtab's byte-offset tables)
 */
static void torus_vlb_groups(const u8 *dims, unsigned int nd, const char *name)
{
	struct r2c2_topo *t;
	struct r2c2_rtab *rt;
	struct r2c2_flow f[300];
	double x[300], xb[300], err = 0;
	struct r2c2_check chk;
	uint64_t seed = 7;
	unsigned int i, rep, n;

	r2c2_topo_grid(&t, dims, nd, true, 10e9);
	r2c2_rtab_new(&rt, t);
	n = t->n;
	for (rep = 0; rep < 4; rep++) {
		for (i = 0; i < 300; i++) {
			f[i].src = (u16)tbelow(&seed, n);
			do
				f[i].dst = (u16)tbelow(&seed, n);
			while (f[i].dst == f[i].src);
			f[i].rproto = (u8)(rep == 0 ? R2C2_RP_VLB : tbelow(&seed, 3));
			f[i].weight = 1 + tbelow(&seed, 3);
			f[i].prio = (u8)(rep == 3 ? tbelow(&seed, 2) : 0);
			f[i].demand = rep >= 2 && tbelow(&seed, 3) == 0 ? tunif(&seed) * 2e9 : 0;
		}
		r2c2_maxmin(rt, f, 300, 0.05, x, NULL);
		r2c2_maxmin_baseline(t, f, 300, 0.05, xb);
		err = 0;
		for (i = 0; i < 300; i++)
			err = fmax(err, fabs(x[i] - xb[i]) / 10e9);
		ok(err < 1e-9, "%s, 300 flows, mix %u: engine == baseline (%.2g)", name, rep, err);
		ok(r2c2_maxmin_check(rt, f, 300, 0.05, x, 1e-9, &chk) == 0,
		   "%s, mix %u: certificate (%s)", name, rep, chk.why ? chk.why : "ok");
	}
	r2c2_rtab_free(rt);
	r2c2_topo_free(t);
}

static void duplicate_flows(void)
{
	/*
	 * many flows with the same (source, destination, protocol): the
	 * engine water-fills one per class and shares its rate by weight
	 */
	u8 dims[3] = { 3, 3, 3 };
	struct r2c2_topo *t;
	struct r2c2_rtab *rt;
	static struct r2c2_flow f[1500];
	static double x[1500], xb[1500];
	struct r2c2_check chk;
	uint64_t seed = 11;
	unsigned int i, rep;

	r2c2_topo_grid(&t, dims, 3, true, 10e9);
	r2c2_rtab_new(&rt, t);
	for (rep = 0; rep < 2; rep++) {
		double err = 0;

		for (i = 0; i < 1500; i++) {
			f[i].src = (u16)tbelow(&seed, 27);
			do
				f[i].dst = (u16)tbelow(&seed, 27);
			while (f[i].dst == f[i].src);
			f[i].rproto = (u8)tbelow(&seed, 3);
			f[i].weight = rep ? 0.25 + tunif(&seed) * 4 : 1;
			f[i].prio = (u8)(rep ? tbelow(&seed, 2) : 0);
			f[i].demand = rep && tbelow(&seed, 5) == 0 ? tunif(&seed) * 1e9 : 0;
		}
		r2c2_maxmin(rt, f, 1500, 0.05, x, NULL);
		r2c2_maxmin_baseline(t, f, 1500, 0.05, xb);
		for (i = 0; i < 1500; i++)
			err = fmax(err, fabs(x[i] - xb[i]) / 10e9);
		ok(err < 1e-9, "3x3x3 torus, 1500 flows on 702 pairs, mix %u: engine == baseline (%.2g)",
		   rep, err);
		ok(r2c2_maxmin_check(rt, f, 1500, 0.05, x, 1e-9, &chk) == 0,
		   "3x3x3 torus, 1500 flows, mix %u: certificate (%s)", rep,
		   chk.why ? chk.why : "ok");
	}
	r2c2_rtab_free(rt);
	r2c2_topo_free(t);
}

static void dense_torus(void)
{
	/*
	 * every ordered pair of a 4x4x4 torus: enough RPS link entries per
	 * source for the masks and for pass 1's untranslated per-source sums
	 * (maxmin.c, REL_MIN)
	 */
	u8 dims[3] = { 4, 4, 4 };
	struct r2c2_topo *t;
	struct r2c2_rtab *rt;
	static struct r2c2_flow f[64 * 63];
	static double x[64 * 63], xb[64 * 63];
	struct r2c2_check chk;
	uint64_t seed = 13;
	unsigned int i, s, d, rep;

	r2c2_topo_grid(&t, dims, 3, true, 10e9);
	r2c2_rtab_new(&rt, t);
	for (rep = 0; rep < 2; rep++) {
		double err = 0;

		i = 0;
		for (s = 0; s < 64; s++)
			for (d = 0; d < 64; d++) {
				if (d == s)
					continue;
				f[i].src = (u16)s;
				f[i].dst = (u16)d;
				f[i].rproto = (u8)(rep && tbelow(&seed, 10) == 0 ?
					1 + tbelow(&seed, 2) : R2C2_RP_RPS);
				f[i].weight = rep ? 0.25 + tunif(&seed) * 4 : 1;
				f[i].prio = (u8)(rep && tbelow(&seed, 10) == 0);
				f[i].demand = rep && tbelow(&seed, 8) == 0 ? tunif(&seed) * 1e8 : 0;
				i++;
			}
		r2c2_maxmin(rt, f, i, 0.05, x, NULL);
		r2c2_maxmin_baseline(t, f, i, 0.05, xb);
		for (i = 0; i < 64 * 63; i++)
			err = fmax(err, fabs(x[i] - xb[i]) / 10e9);
		ok(err < 1e-9, "4x4x4 torus, all 4032 pairs, mix %u: engine == baseline (%.2g)",
		   rep, err);
		ok(r2c2_maxmin_check(rt, f, 64 * 63, 0.05, x, 1e-9, &chk) == 0,
		   "4x4x4 torus, all pairs, mix %u: certificate (%s)", rep,
		   chk.why ? chk.why : "ok");
	}
	r2c2_rtab_free(rt);
	r2c2_topo_free(t);
}

/*
 * One VLB flow on a torus, as "r2c2ctl alloc --topology torus:4x4" gets
 * it from a flow file of one line (flowfile_fuzz): every class on the
 * torus's shared tables, no inverse index, and the late index was set
 * at NULL + 0 (UBSan under clang: "applying zero offset to null
 * pointer"; gcc's UBSan does not check it)
 */
static void one_vlb_flow(void)
{
	struct r2c2_topo *t = NULL;
	struct r2c2_rtab *rt = NULL;
	struct r2c2_flow f = { .src = 3, .dst = 12, .rproto = R2C2_RP_VLB,
			       .weight = 1 };
	struct r2c2_check chk;
	double x = 0, xb = 0;
	char err[128];

	ok(r2c2_topo_parse(&t, "torus:4x4", 10e9, err, sizeof(err)) == 0 &&
	   r2c2_rtab_new(&rt, t) == 0, "torus:4x4 and its tables");
	ok(r2c2_maxmin(rt, &f, 1, 0.05, &x, NULL) == 0 &&
	   r2c2_maxmin_baseline(t, &f, 1, 0.05, &xb) == 0 &&
	   fabs(x - xb) < 1e-9 * 10e9,
	   "one VLB flow: engine == baseline (%g, %g)", x, xb);
	ok(r2c2_maxmin_check(rt, &f, 1, 0.05, &x, 1e-9, &chk) == 0,
	   "one VLB flow: certificate (%s)", chk.why ? chk.why : "ok");
	r2c2_rtab_free(rt);
	r2c2_topo_free(t);
}

/*
 * torus:2, the ring of two nodes r2c2d builds for a two-node rack: with
 * so few links a protocol without classes met the threshold of the
 * offset masks, and its average entries per class divided by zero
 */
static void two_node_ring(void)
{
	struct r2c2_topo *t;
	struct r2c2_rtab *rt;
	struct r2c2_flow f[6];
	struct r2c2_check chk;
	double x[6], xb[6];
	char err[128];
	unsigned int i, q, nf;

	ok(r2c2_topo_parse(&t, "torus:2", 10e9, err, sizeof(err)) == 0,
	   "torus:2 builds");
	r2c2_rtab_new(&rt, t);
	for (q = 0; q <= __R2C2_RP_MAX; q++) {
		/* one protocol at a time, then all three (q == __R2C2_RP_MAX) */
		for (nf = i = 0; i < 6; i++) {
			u8 p = (u8)(i % __R2C2_RP_MAX);

			if (q < __R2C2_RP_MAX && p != q)
				continue;
			f[nf] = (struct r2c2_flow){ .src = (u16)(i & 1),
				.dst = (u16)!(i & 1), .rproto = p,
				.weight = 1 + i };
			/* a torus's WLB pairs are made as they are wanted */
			r2c2_rtab_prepare(rt, f[nf].src, f[nf].dst, p);
			nf++;
		}
		ok(r2c2_maxmin(rt, f, nf, 0.05, x, NULL) == 0,
		   "torus:2, %s: max-min returns 0", q < __R2C2_RP_MAX ?
		   r2c2_rproto_name((int)q) : "all protocols");
		r2c2_maxmin_baseline(t, f, nf, 0.05, xb);
		for (i = 0; i < nf && fabs(x[i] - xb[i]) < 1e-9 * 10e9; i++)
			;
		ok(i == nf, "torus:2, %s: engine == baseline",
		   q < __R2C2_RP_MAX ? r2c2_rproto_name((int)q) : "all");
		ok(r2c2_maxmin_check(rt, f, nf, 0.05, x, 1e-9, &chk) == 0,
		   "torus:2: certificate (%s)", chk.why ? chk.why : "ok");
	}
	r2c2_rtab_free(rt);
	r2c2_topo_free(t);
}

int main(void)
{
	one_vlb_flow();
	two_node_ring();
	figure3_and_extensions();
	figure4();
	{
		static const u8 d444[3] = { 4, 4, 4 }, d45[1] = { 45 }, d64[1] = { 64 };

		torus_vlb_groups(d444, 3, "4x4x4 torus");
		torus_vlb_groups(d45, 1, "ring of 45");
		torus_vlb_groups(d64, 1, "ring of 64");
	}
	duplicate_flows();
	dense_torus();
	random_suite();
	return tap_done();
}
