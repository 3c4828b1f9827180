// SPDX-License-Identifier: GPL-2.0
/*
 * maxmin.c - weighted max-min water-filling (R2C2 §3.3.1) with every
 * extension of §3.3.2: per-flow weights, strict priority levels (one
 * round per level on the capacity left), demand caps and headroom.
 *
 * Every unfrozen flow of the current level runs at weight * lambda; a
 * link saturates at lambda_l = P_l / C_l, P_l = usable capacity - frozen
 * load, C_l = sum of weight * coefficient of its unfrozen flows. The
 * engine keeps P and C up to date incrementally and the links in a lazy
 * heap keyed by lambda_l, so a whole allocation costs two or three passes
 * over the flows' link entries instead of the paper's O(NL + N^2)
 * rescans:
 *
 *  1. add weight * coefficient into C (and count the entries of every
 *     link, for the inverse index);
 *  2. index which flows cross which link: on a torus, for protocols with
 *     many entries per flow (RPS), one bit per flow in a per-source
 *     bitmap of offsets, intersected with rtab's offset masks when a
 *     link saturates (freeze_sym()) until few of those flows are left,
 *     then an index of the rest (the late index, see LATE_DIV); else a
 *     counting sort of the entries into the inverse index link -> flows;
 *  3. when a link saturates, freeze the unfrozen flows crossing it:
 *     P -= rate * coefficient, C -= weight * coefficient over the flow's
 *     entries.
 *
 * Each pass reads the flow's shared per-offset vector (rtab.c, ~0.5 MB
 * on 8x8x8, stays in cache) and translates it again: cheaper than
 * materialising per-flow link arrays, which cost memory traffic at 10^5
 * flows. Flows are taken in source order, so consecutive flows touch
 * nearby links, merged into classes (same source, destination and
 * protocol) and known by their position in the level; what the passes
 * read of a class is stored in that order.
 *
 * A round of few flows (a node's matrix when only flows older than rho
 * count: 8 at the median in the paper's workload) is mostly the cost that
 * does not grow with the flows: with at most a quarter as many link
 * entries as links and no split flow (eng.sparse), a level lists the
 * links its flows cross as pass 1 first meets them, and every later walk
 * over links (P set where the call first has a link, the inverse index,
 * the private links, the counts cleared at the end) takes that list
 * instead of all of them. Such a round, as a daemon woken every rho
 * meets it, starts with cold caches: it keeps to as few arrays per link
 * as it can (C summed in (C, P) itself, no stamps where the call has one
 * priority level, no per-node counts to sort a few flows).
 *
 * A demand-capped flow freezes at its demand when lambda reaches
 * demand / weight. Split VLB flows live in per-node groups (rtab.c):
 * their contribution is updated per group, once per round, with dense
 * vectorised row updates (r2c2_rtab_group_axpy()).
 *
 * The vector helpers of the passes are in maxmin_simd.h, the heap of
 * links in maxmin_heap.h; maxmin_ref.c has the straightforward algorithm
 * to measure against (r2c2_maxmin_baseline()) and the max-min
 * certificate (r2c2_maxmin_check()).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maxmin_heap.h"
#include "maxmin_simd.h"
#include "rtab_int.h"

/*
 * from this many changed VLB groups on, update by convolution
 * (r2c2_rtab_groups_conv(), ~0.1M instructions on 8x8x8) rather than one
 * dense pass per group (~9K each)
 */
#define CONV_MIN	16
/*
 * On a torus, the flows of protocol q crossing a saturated link are
 * found by bit masks (freeze_sym(), ~n * n / 64 word operations per
 * saturated link, whatever the number of flows) rather than an inverse
 * index (a scattered write per link entry) when q's flows have at least
 * n * n / 64 * nl / SYM_DIV link entries in the level and SYM_SPREAD
 * per flow on average (RPS; not DOR, whose few entries per flow are
 * cheap to index and whose many bottlenecks would each cost a sweep)
 */
#define SYM_DIV		64
#define SYM_SPREAD	8
/*
 * pass 1: a source whose mask-indexed classes have at least REL_MIN * nl
 * link entries adds them up untranslated (relative links, no table
 * lookup) and translates the sum once (~nl additions)
 */
#define REL_MIN		2
/*
 * Late index: the sweeps of freeze_sym() cost about the same whatever
 * the number of unfrozen flows (every active source is visited), while
 * most flows freeze at the first few saturated links (RPS at 10^4: two
 * thirds at the first 68 of 677; the long ones first, they cross more
 * links). Once at most 1 / LATE_DIV of the link entries of the
 * mask-indexed classes of the level belong to unfrozen classes, index
 * those classes link -> classes (counting sort, as build_inverse(), ~15
 * instructions an entry) and stop sweeping. Built once: rebuilding it as
 * it fills with frozen classes cost more than scanning them. LATE_DIV
 * measured by callgrind (RPS and mix-1/3 at 10^4 and 10^5): 3 to 20 by
 * entries; 14-20 best. At most LATE_PER_LINK entries a link: at 10^5
 * RPS, 1/16 is ~530K entries (3 MB of index and buffer), which cost
 * more CPU time than the sweeps it saved although fewer instructions.
 */
#ifndef LATE_DIV
#define LATE_DIV	16
#endif
#ifndef LATE_PER_LINK
#define LATE_PER_LINK	16
#endif


/*
 * one class of the level being filled, at its position k in the level
 * (flows by source): what freeze() and pass 1 read, contiguous
 */
struct cls {
	const u32 *lk;
	const double *a;
	const u16 *tr;
	/*
	 * torus: r2c2_rtab_nodeport() (the entries' byte offsets in link_cp, less
	 * tr); or, where r2c2_rtab_obyte() has them, ob (node is NULL)
	 */
	union {
		const u16 *node;
		const u16 *ob;
	};
	const u8 *port16;	/* 16 * port: byte of the port's (C, P) in its node's 128 */
	double w;
	u32 len;
	u8 split;
	u8 sym;		/* found by freeze_sym(), not in the inverse index */
	u16 src_ob;	/* ob: byte offset of the source's node in link_cp */
};

/* what pass 1 needs of a class, by position (flows are read at random once) */
struct ckey {
	u16 src, dst;
	u8 q, dem;
	u16 r;		/* torus, not split: offset dst - src (r2c2_rtab_rel()), else 0 */
};

struct r2c2_ws {
	/* per link */
	size_t nl;
	/*
	 * (C, P) of each link: C = the sum of weight * coefficient of its
	 * unfrozen flows, P = its usable capacity less its frozen load
	 */
	v2d *link_cp;
	double *link_dc;	/* apply_groups(): change of C from the groups */
	struct hent *heap;
	u32 *cnt, *istart;
	u32 *lstart;		/* nl + 1: the late index (see LATE_DIV) */
	/*
	 * few flows (eng.sparse): the links of the level (ltouched, the
	 * links whose count is not 0), and, in a call of more than one
	 * priority level, the call that set each link's P (lstamp ==
	 * lepoch); cnt is then all 0 between levels (cntzero)
	 */
	u32 *ltouched, *lstamp, lepoch;
	bool cntzero;
	u32 *lcls;		/* LATE_PER_LINK * nl + 8: build_late() */
	/* per flow */
	size_t nf;
	u32 *lvl, *dem, *gmem, *rep;
	u32 *hit;		/* 2 nf, freeze_sym(): keys, classes found */
	double *wt;		/* weight of the flow, or of its class */
	struct hent *pbest;	/* by position: the class's lowest private link */
	u8 *frozen;		/* by position in the level */
	u16 *obuf;		/* nl + 8: ob_translate() */
	struct r2c2_fv *fv;	/* by position in ws->lvl; not torus-offset ones (eng.ovec) */
	double *wk;		/* class weight, by position in ws->lvl */
	struct ckey *key;	/* by position in ws->lvl */
	struct cls *cls;	/* by position in the level */
	/* per link entry of the non-split flows */
	size_t ninv;
	u32 *inv;
	/* per group (2n) */
	size_t ng;
	double *crel;		/* nl, zero between uses: see REL_MIN */
	double *grp_w;		/* unfrozen weight of each group */
	double *grp_dw;		/* its change since the last apply_groups() */
	u32 *gcnt, *gdn, *gstart, *gfill, *glist, *gact;
	u8 *gdirty;
	/* convolution scratch */
	size_t ncs;
	double *cs;
	/* per (destination, protocol): class of the current source */
	size_t nstamp;
	u32 *stamp, mrun;
	/*
	 * torus: bm[(q * n + s) * mw ..]: offsets r with an unfrozen class
	 * (s, s + r, protocol q); sact[q * mw ..]: sources with any;
	 * head[(q * n + s) * n + r]: a flow of that key (read only where
	 * the bit is set), nxt[]: the next one
	 */
	size_t nbm, nhead;
	u64 *bm, *sact;
	u32 *head, *nxt;
};

struct r2c2_ws *r2c2_ws_new(void)
{
	return calloc(1, sizeof(struct r2c2_ws));
}

void r2c2_ws_free(struct r2c2_ws *ws)
{
	if (!ws)
		return;
	free(ws->link_cp); free(ws->link_dc); free(ws->heap); free(ws->pbest);
	free(ws->cnt); free(ws->istart); free(ws->lstart); free(ws->lcls);
	free(ws->ltouched); free(ws->lstamp);
	free(ws->lvl); free(ws->dem); free(ws->gmem); free(ws->rep); free(ws->wt);
	free(ws->stamp);
	free(ws->frozen); free(ws->fv); free(ws->cls); free(ws->wk); free(ws->key);
	free(ws->inv);
	free(ws->crel); free(ws->grp_w); free(ws->grp_dw); free(ws->gcnt);
	free(ws->gdn); free(ws->gstart); free(ws->gfill); free(ws->glist);
	free(ws->gdirty); free(ws->gact); free(ws->cs);
	free(ws->bm); free(ws->head); free(ws->nxt); free(ws->obuf);
	free(ws->hit);
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

static int ws_reserve(struct r2c2_ws *ws, size_t nl, size_t nf, size_t ng,
		      size_t ncs)
{
	size_t nst = 2 * (ng / 2) * __R2C2_RP_MAX;

	if (nst > ws->nstamp) {
		if (!GROW(ws->stamp, nst))
			return -ENOMEM;
		ws->nstamp = nst;
		memset(ws->stamp, 0, nst * sizeof(*ws->stamp));
		ws->mrun = 0;
	}
	if (ncs > ws->ncs) {
		if (!GROW(ws->cs, ncs))
			return -ENOMEM;
		ws->ncs = ncs;
	}
	if (nl > ws->nl) {
		/* link_cp and link_dc: 16-byte aligned (vector loads) */
		free(ws->link_cp);
		free(ws->link_dc);
		ws->link_cp = aligned_alloc(16, nl * sizeof(*ws->link_cp));
		ws->link_dc = aligned_alloc(16, nl * sizeof(*ws->link_dc) + 16);
		free(ws->crel);
		ws->crel = calloc(nl, sizeof(*ws->crel));
		free(ws->lstamp);
		ws->lstamp = calloc(nl, sizeof(*ws->lstamp));
		ws->lepoch = 0;
		ws->cntzero = false;
		if (!ws->link_cp || !ws->link_dc || !ws->crel || !ws->lstamp ||
		    !GROW(ws->ltouched, nl) || !GROW(ws->heap, nl + 1) ||
		    !GROW(ws->cnt, nl) || !GROW(ws->istart, nl + 1) ||
		    !GROW(ws->lstart, nl + 1) ||
		    !GROW(ws->lcls, (size_t)LATE_PER_LINK * nl + 8) ||
		    !GROW(ws->obuf, nl + 8))
			return -ENOMEM;
		ws->nl = nl;
	}
	if (nf > ws->nf) {
		if (!GROW(ws->lvl, nf) || !GROW(ws->dem, nf) ||
		    !GROW(ws->gmem, 2 * nf) || !GROW(ws->rep, nf) || !GROW(ws->hit, 2 * nf) ||
		    !GROW(ws->wt, nf) || !GROW(ws->nxt, nf) || !GROW(ws->pbest, nf) ||
		    !GROW(ws->frozen, nf) || !GROW(ws->fv, nf) ||
		    !GROW(ws->cls, nf) || !GROW(ws->wk, nf) || !GROW(ws->key, nf))
			return -ENOMEM;
		ws->nf = nf;
	}
	if (ng > ws->ng) {
		if (!GROW(ws->grp_w, ng) || !GROW(ws->grp_dw, ng) ||
		    !GROW(ws->gcnt, ng) || !GROW(ws->gdn, ng) ||
		    !GROW(ws->gstart, ng + 1) || !GROW(ws->gfill, ng) ||
		    !GROW(ws->glist, ng) || !GROW(ws->gdirty, ng) ||
		    !GROW(ws->gact, ng))
			return -ENOMEM;
		ws->ng = ng;
	}
	return 0;
}

static inline double dmax(double a, double b)
{
	return a > b ? a : b;
}

/* ---- the engine ---- */

struct eng {
	const struct r2c2_rtab *rt;
	const struct r2c2_flow *f;
	double *rate;
	struct r2c2_ws *ws;
	u32 hn, nl;
	u32 nunfrozen, ngdirty, nact;
	/*
	 * few flows, none split, none mask-indexed (r2c2_maxmin()): a level
	 * walks only its nt links (ws->ltouched), not all nl, sums C
	 * straight into link_cp, and sets a link's P (cap * use) when a
	 * level first has it; stamped: only where the call has more than
	 * one level (lstamp)
	 */
	bool sparse, stamped;
	u32 nt;
	const double *cap;
	double use;
	/*
	 * link entries of the mask-indexed (sym) classes of the level, of
	 * the unfrozen ones; late: the late index is built (see LATE_DIV),
	 * in ws->inv after the inverse, and linvn u32 there are free
	 */
	size_t syment, symleft, linvn;
	u32 *linv;
	u32 nlv;
	bool late;
	/* inverse index of 16-bit positions in lv (levels below 2^16 flows) */
	const u32 *lv;
	/* the level's slices of ws->fv, ws->wk, ws->key */
	const struct r2c2_fv *fv;
	const double *wk;
	const struct ckey *key;
	bool inv16;
	/* torus: protocols whose flows are found by bit masks, not inverse */
	u8 symq;
	u8 qmask;
	u32 n, mw;
	const u16 *rel;
	/* symq protocols: link entries per class, on average */
	u32 avg[__R2C2_RP_MAX];
	/* torus: r2c2_rtab_rel(), r2c2_rtab_nodeport() */
	const u16 *rel0;
	const u16 *onode[__R2C2_RP_MAX];
	const u8 *oport[__R2C2_RP_MAX];
	const u32 *ostart[__R2C2_RP_MAX];
	/* r2c2_rtab_obyte() (NULL: use onode, oport) and its hi */
	const u16 *obyte[__R2C2_RP_MAX];
	const double *obcoef[__R2C2_RP_MAX];
	const u32 *obstart[__R2C2_RP_MAX];
	u16 obhi;
	bool sse3;		/* see cls_sub_sse3() */
	/*
	 * torus: r2c2_rtab_offvec() by protocol, and its tr: a class of a
	 * protocol with one is not split, its vector is ovec[q] + key.r and
	 * its tr otr + key.src * n, and set_class() leaves its fv unwritten
	 */
	const struct r2c2_vec *ovec[__R2C2_RP_MAX];
	const u16 *otr;
};

/*
 * The end of link l's entries in the inverse index (ws->inv from
 * ws->istart[l]): the next link's start, or where the index of a few
 * flows has only the level's links (sparse), the cursor that filled it
 */
static inline u32 inv_end(const struct eng *e, u32 l)
{
	return e->sparse ? e->ws->cnt[l] : e->ws->istart[l + 1];
}

/* the vector of the class whose key is ck and fv fv, NULL if split */
static inline const struct r2c2_vec *cls_vec(const struct eng *e,
					     const struct ckey *ck,
					     const struct r2c2_fv *fv)
{
	const struct r2c2_vec *ov = e->ovec[ck->q];

	if (ov)
		return ov + ck->r;
	return fv->split ? NULL : fv->v[0];
}

/* its tr (not split) */
static inline const u16 *cls_tr(const struct eng *e, const struct ckey *ck,
				const struct r2c2_fv *fv)
{
	return e->ovec[ck->q] ? e->otr + (size_t)ck->src * e->n : fv->tr[0];
}

/* (C, P) -= (w, x) * a over the link entries of the non-split class c */
static inline __attribute__((always_inline)) void
cls_sub(const struct cls *c, v2d *restrict link_cp, v2d wx, u16 obhi)
{
	const u32 *restrict lk = c->lk;
	const double *restrict a = c->a;
	const u16 *tr = c->tr;
	u32 j, len = c->len;

	if (c->port16 == NULL && tr) {
		ob_axpy((char *)link_cp, c->ob, a, len, obhi, c->src_ob, OB_PAIR, -wx,
			0);
	} else if (tr) {
		/* byte offsets: one shift and one add per entry */
		const u16 *restrict nd = c->node;
		const u8 *restrict port16 = c->port16;
		char *base = (char *)link_cp;

#pragma GCC unroll 4
		for (j = 0; j < len; j++)
			rmw_add2((v2d *)(base + ((size_t)tr[nd[j]] << 7) + port16[j]), -wx * a[j]);
	} else {
		for (j = 0; j < len; j++)
			link_cp[lk[j]] -= wx * a[j];
	}
}

/*
 * cls_sub() where SSE3 is known only at run time (the library is built
 * for baseline x86-64): MOVDDUP loads and broadcasts a[j] in one
 * instruction instead of MOVSD + UNPCKLPD, one of ~8 an entry less. The
 * same operations in the same order (no FMA): the same results.
 */
#if defined(__x86_64__) && !defined(__SSE3__)
#define CLS_SSE3	1
static __attribute__((target("sse3"), noinline)) void
cls_sub_sse3(const struct cls *c, v2d *restrict link_cp, v2d wx, u16 obhi)
{
	cls_sub(c, link_cp, wx, obhi);
}
#endif

/* freeze the class at position k of the level at rate x */
static void freeze(struct eng *e, u32 k, double x)
{
	struct r2c2_ws *ws = e->ws;
	const struct cls *c = &ws->cls[k];
	double w = c->w;
	int g;

	ws->frozen[k] = 1;
	e->rate[e->lv[k]] = x;
	e->nunfrozen--;
	if (c->split) {
		const struct r2c2_fv *fv = &e->fv[k];

		/* applied in apply_groups() at the end of the round */
		for (g = 0; g < 2; g++) {
			u32 gi = fv->group[g];

			ws->grp_dw[gi] += w * fv->scale[g];
			ws->gdn[gi]++;
			if (!ws->gdirty[gi]) {
				ws->gdirty[gi] = 1;
				ws->glist[e->ngdirty++] = gi;
			}
		}
		return;
	}
	if (c->sym)
		e->symleft -= c->len;
#ifdef CLS_SSE3
	if (e->sse3) {
		cls_sub_sse3(c, ws->link_cp, (v2d){ w, x }, e->obhi);
		return;
	}
#endif
	cls_sub(c, ws->link_cp, (v2d){ w, x }, e->obhi);
}

/*
 * y += sum over the groups g in list[0..cnt) of w[g] * group g; w[] is 0
 * for the groups not in the list
 */
static void add_groups(struct eng *e, const double *w, u32 cnt,
		       const u32 *list, double *y)
{
	u32 n = e->nl / R2C2_MAX_PORTS, k;

	if (cnt >= CONV_MIN &&
	    !r2c2_rtab_groups_conv(e->rt, w, w + n, y, e->ws->cs))
		return;
	for (k = 0; k < cnt; k++)
		r2c2_rtab_group_axpy(e->rt, list[k], w[list[k]], y);
}

/*
 * Subtract the split flows frozen this round, group by group, in one
 * dense pass each. Every flow frozen in a round has rate / weight =
 * lambda (the saturating level, or demand / weight = the level it was
 * frozen at), so the frozen load added is lambda times the weight
 * removed: accumulate the weight in link_dc, then one pass over the links.
 */
static void apply_groups(struct eng *e, double lambda)
{
	struct r2c2_ws *ws = e->ws;
	double *restrict link_dc = ws->link_dc;
	v2d *restrict link_cp = ws->link_cp, m1l = { -1, -lambda };
	u32 k, l;

	memset(link_dc, 0, e->nl * sizeof(*link_dc));
	add_groups(e, ws->grp_dw, e->ngdirty, ws->glist, link_dc);
	for (k = 0; k < e->ngdirty; k++) {
		u32 g = ws->glist[k];

		ws->grp_w[g] -= ws->grp_dw[g];
		ws->gcnt[g] -= ws->gdn[g];
		ws->grp_dw[g] = 0;
		ws->gdn[g] = 0;
		ws->gdirty[g] = 0;
	}
	e->ngdirty = 0;
	for (l = 0; l < e->nl; l++)
		link_cp[l] += m1l * link_dc[l];
}

/*
 * Lazy heap: a link's lambda only grows as flows freeze (removing a flow
 * whose share is at the current level from a link at or above it raises
 * the link's level), so stored keys are lower bounds - and so are keys
 * computed before this round's group updates are applied. Before using
 * the top, recompute its key; if it grew, sift it down and look again.
 * A link whose C reached zero (or rounding dust below) has no unfrozen
 * flow and leaves the heap; one with dust above zero leaves it when it
 * reaches the top and freezes nobody (see fill_level()).
 */
static bool top_fresh(struct eng *e, double floor, double *lam)
{
	struct hent *h = e->ws->heap;
	const v2d *link_cp = e->ws->link_cp;

	while (e->hn) {
		v2d cp = link_cp[h[0].l];
		double v;

		if (!(cp[0] > 0)) {
			h_pop(h, &e->hn);
			continue;
		}
		v = dmax(floor, cp[1] / cp[0]);
		if (v <= h[0].key) {
			*lam = h[0].key;
			return true;
		}
		h[0].key = v;
		h_sift(h, e->hn, 0);
	}
	return false;
}

/* fresh keys for the links in the heap (C <= 0: out), heapify */
static void heap_rebuild(struct eng *e, double floor)
{
	struct hent *h = e->ws->heap;
	const v2d *link_cp = e->ws->link_cp;
	u32 i, m = 0;

	for (i = 0; i < e->hn; i++) {
		v2d cp = link_cp[h[i].l];

		if (!(cp[0] > 0))
			continue;
		h[m].l = h[i].l;
		h[m++].key = dmax(floor, cp[1] / cp[0]);
	}
	e->hn = m;
	h_heapify(h, m);
}

/*
 * The links for the heap when every class of the level is in the
 * inverse index (no split or mask-indexed class). A link crossed by one
 * class only (private) keeps its key P / C until that class freezes, and
 * then has no unfrozen flow: of a class's private links only the lowest
 * can ever reach the top while the class is unfrozen, so only that one
 * goes in. With few flows most links are private (RPS: about 190 a flow
 * on 8x8x8, few shared), and the heap shrinks to the shared links plus
 * one a class. Ties: a private link at the same key as the kept one
 * would freeze the same class at the same level. Taken below nl /
 * PRIV_DIV classes: with more, links private and shared alternate and
 * the scan's branches cost more than the heap saves (DOR, 1,000 flows
 * on 8x8x8: 13 % slower).
 */
#define PRIV_DIV 8

/*
 * heap_private() for link l with c entries: shared (c > 1) into the
 * heap at h[m]; private, kept if its key is its class's lowest yet.
 * Returns the heap's new size.
 */
static inline __attribute__((always_inline)) u32
private_link(struct eng *e, u32 l, u32 c, u32 m)
{
	struct r2c2_ws *ws = e->ws;
	struct hent *pb = ws->pbest;
	const u16 *inv16 = (const u16 *)ws->inv;
	const u32 *is = ws->istart;
	v2d cp;
	double v;
	u32 k;

	if (!c)
		return m;
	if (c > 1) {
		ws->heap[m].l = l;
		return m + 1;
	}
	k = e->inv16 ? inv16[is[l]] : ws->inv[is[l]];
	cp = ws->link_cp[l];
	if (!(cp[0] > 0))
		return m;
	v = cp[1] / cp[0];
	if (v < pb[k].key) {
		pb[k].key = v;
		pb[k].l = l;
	}
	return m;
}

static void heap_private(struct eng *e, u32 nlv)
{
	struct r2c2_ws *ws = e->ws;
	struct hent *h = ws->heap, *pb = ws->pbest;
	const u32 *restrict is = ws->istart;
	u32 k, l, t, m = 0;

	for (k = 0; k < nlv; k++)
		pb[k].key = INFINITY;
	if (e->sparse) {
		for (t = 0; t < e->nt; t++) {
			l = ws->ltouched[t];
			m = private_link(e, l, ws->cnt[l] - is[l], m);
		}
	} else {
		for (l = 0; l < e->nl; l++)
			m = private_link(e, l, is[l + 1] - is[l], m);
	}
	for (k = 0; k < nlv; k++)
		if (pb[k].key < INFINITY)
			h[m++].l = pb[k].l;
	e->hn = m;
}

/*
 * freeze_sym(): the keys of the unfrozen classes of one source crossing
 * the link (bits of b & m, b the source's row, m the link's mask row;
 * kb: the row's first key) appended to hit[*nh..] in bit order, and
 * cleared in b; returns what is left in b. The first two hits of a word
 * are taken with no branch (a word has 0-2 hits nearly always: the
 * branch on the next hit was mispredicted ~8K times in 10^4 RPS flows),
 * written at hit[*nh] and counted only if there is one: hit[] has room
 * for one more than there are keys (ws->hit, 2 nf, the keys <= nf).
 */
static inline __attribute__((always_inline)) u64
sweep_keys(u64 *restrict b, const u64 *restrict m, u32 mw, u32 kb,
	   u32 *restrict hit, u32 *nh)
{
	u64 left = 0;
	u32 w, h = *nh;

#pragma GCC unroll 8
	for (w = 0; w < mw; w++) {
		u64 x = b[w] & m[w];
		u32 k0 = kb + w * 64;

		b[w] &= ~x;
		left |= b[w];
		hit[h] = k0 + (u32)__builtin_ctzll(x | 1ull << 63);
		h += x != 0;
		x &= x - 1;
		hit[h] = k0 + (u32)__builtin_ctzll(x | 1ull << 63);
		h += x != 0;
		x &= x - 1;
		while (x) {
			hit[h++] = k0 + (u32)__builtin_ctzll(x);
			x &= x - 1;
		}
	}
	*nh = h;
	return left;
}

/*
 * Torus: freeze the non-split flows crossing link l = (u, port): flow
 * (s, s + r) of protocol q crosses it when bit r of the mask row u - s
 * is set; intersect with the unfrozen keys of every active source whose
 * mask row is not empty (the smask row of u), one word of 64 offsets at a
 * time.
 */
static void freeze_sym(struct eng *e, u32 l, double lambda)
{
	struct r2c2_ws *ws = e->ws;
	const u32 n = e->n, mw = e->mw, u = l / R2C2_MAX_PORTS;
	const u16 *row = e->rel + (size_t)u * n;
	u32 *hit = ws->hit, *hc = ws->hit + ws->nf, nh = 0, k, nc, i;
	unsigned int q, mwd;

	/*
	 * Three steps, so that the scattered reads of each are in flight
	 * together (prefetched) rather than one after the other: the keys
	 * (q, s, r) hit, their classes (head, nxt), the freezes - in the
	 * order of a plain sweep. The keys: at most one per unfrozen class.
	 */
	for (q = 0; q < __R2C2_RP_MAX; q++) {
		const u64 *SM, *M = r2c2_rtab_lmask(e->rt, (u8)q, l % R2C2_MAX_PORTS,
						     &mwd, &SM);
		u64 *B = ws->bm + (size_t)q * n * mw, *SA = ws->sact + (size_t)q * mw;
		const u32 *head = ws->head + (size_t)q * n * n;
		u32 sw, w;

		if (!(e->qmask & (1u << q)) || !M)
			continue;
		for (sw = 0; sw < mw; sw++) {
			/* the active sources with flows that may cross l */
			u64 sx = SA[sw] & SM[(size_t)u * mw + sw];
			u32 hs[64], nhs = 0, t;

			/*
			 * first those with a hit, with no branch: at 10^4 RPS
			 * flows ~1 visit in 6 hits, and a branch on it was
			 * mispredicted at nearly every hit; with none, the
			 * visits' row loads overlap
			 */
			while (sx) {
				u32 src = sw * 64 + (u32)__builtin_ctzll(sx);
				const u64 *m = M + (size_t)row[src] * mw;
				const u64 *b = B + (size_t)src * mw;
				u64 hits = 0;

				sx &= sx - 1;
				if (mw == 8) {
					v2u h = (ld2u(b) & ld2u(m)) |
						(ld2u(b + 2) & ld2u(m + 2)) |
						(ld2u(b + 4) & ld2u(m + 4)) |
						(ld2u(b + 6) & ld2u(m + 6));

					hits = h[0] | h[1];
				} else {
					for (w = 0; w < mw; w++)
						hits |= b[w] & m[w];
				}
				hs[nhs] = src;
				nhs += hits != 0;
			}
			for (t = 0; t < nhs; t++) {
				u32 src = hs[t];
				const u64 *m = M + (size_t)row[src] * mw;
				u64 *b = B + (size_t)src * mw, left;
				const u32 kb = (u32)(head + (size_t)src * n - ws->head);

				if (mw == 8)
					left = sweep_keys(b, m, 8, kb, hit, &nh);
				else
					left = sweep_keys(b, m, mw, kb, hit, &nh);
				if (!left)
					SA[sw] &= ~(1ull << (src % 64));
			}
		}
	}
	/*
	 * the classes of the keys, in chain order; their heads (scattered in
	 * the 1 MB a protocol of ws->head) all prefetched first
	 */
	for (k = 0; k < nh; k++)
		__builtin_prefetch(&ws->head[hit[k]]);
	for (k = nc = 0; k < nh; k++)
		for (i = ws->head[hit[k]]; i != UINT32_MAX; i = ws->nxt[i]) {
			__builtin_prefetch(&ws->cls[i]);
			hc[nc++] = i;
		}
	for (k = 0; k < nc; k++) {
		i = hc[k];
		if (k + 1 < nc) {
			/* the next class's first entries */
			const struct cls *cn = &ws->cls[hc[k + 1]];

			__builtin_prefetch(cn->a);
			__builtin_prefetch(cn->ob);
		}
		if (!ws->frozen[i])
			freeze(e, i, ws->cls[i].w * lambda);
	}
}

/*
 * the late index (see LATE_DIV): link -> the unfrozen mask-indexed
 * classes crossing it, by position; counting sort as build_inverse(),
 * the entries translated once into a u16 buffer after the index (byte
 * offsets in link_cp, or link numbers where the class has no ob)
 */
static inline __attribute__((always_inline)) void
build_late_t(struct eng *e, bool k16)
{
	struct r2c2_ws *ws = e->ws;
	const size_t nle = e->symleft;
	u32 *restrict cnt = ws->cnt, *restrict ls = ws->lstart;
	u32 *restrict lst = ws->hit;
	u32 *restrict linv32 = e->linv;
	u16 *restrict linv16 = (u16 *)e->linv;
	u16 *restrict tmp = (u16 *)(e->linv + nle), *restrict o = tmp;
	u32 *restrict kk32 = ws->lcls;
	u16 *restrict kk16 = (u16 *)ws->lcls;
	u32 j, k, l, m, nk = 0, ne;

	memset(cnt, 0, e->nl * sizeof(*cnt));
	/*
	 * the unfrozen mask-indexed classes first, with no branch (which
	 * classes froze is data: a branch on it was mispredicted ~3K times
	 * in 10^4 RPS flows)
	 */
	for (k = 0; k < e->nlv; k++) {
		lst[nk] = k;
		nk += ws->cls[k].sym & !ws->frozen[k];
	}
	/*
	 * their entries translated into link numbers, with the class of
	 * each (kk): the two passes of the counting sort then run over all
	 * the entries in one loop each, with no loop exit a class (~4.6K
	 * mispredicted in 10^4 RPS flows)
	 */
	for (o = tmp, ne = 0, m = 0; m < nk; m++) {
		const struct cls *c;
		u32 len;

		k = lst[m];
		c = &ws->cls[k];
		len = c->len;
		if (c->port16) {
			for (j = 0; j < len; j++) {
				o[j] = (u16)(c->tr[c->node[j]] * R2C2_MAX_PORTS + c->port16[j] / 16);
				if (k16)
					kk16[ne + j] = (u16)k;
				else
					kk32[ne + j] = k;
			}
		} else {
			/* writes up to 7 past len: the next class's, or slack */
			ob_translate_k(c->ob, len, e->obhi, c->src_ob, o,
				       k16 ? (void *)(kk16 + ne) : (void *)(kk32 + ne), k, k16);
		}
		o += len;
		ne += len;
	}
#pragma GCC unroll 4
	for (j = 0; j < ne; j++)
		cnt[tmp[j]]++;
	ls[0] = 0;
	for (l = 0; l < e->nl; l++) {
		ls[l + 1] = ls[l] + cnt[l];
		cnt[l] = ls[l];
	}
	if (k16) {
#pragma GCC unroll 4
		for (j = 0; j < ne; j++)
			linv16[cnt[tmp[j]]++] = kk16[j];
	} else {
#pragma GCC unroll 4
		for (j = 0; j < ne; j++)
			linv32[cnt[tmp[j]]++] = kk32[j];
	}
	e->late = true;
}

/*
 * positions of 16 bits where the level has at most 2^16 classes
 * (e->inv16): half the bytes of scattered writes, and of reads in the
 * late freezes
 */
static void build_late(struct eng *e)
{
	if (e->inv16)
		build_late_t(e, true);
	else
		build_late_t(e, false);
}

/* freeze at weight * lambda every unfrozen flow crossing link l; how many */
static u32 freeze_link(struct eng *e, u32 l, double lambda, u32 nsplit)
{
	struct r2c2_ws *ws = e->ws;
	u32 j, m, k, i, end, before = e->nunfrozen;

	if (e->symq && e->symleft) {
		/* room for the index (u32) and the translated entries (u16) */
		if (!e->late && e->symleft * LATE_DIV <= e->syment &&
		    e->symleft <= (size_t)LATE_PER_LINK * e->nl &&
		    e->symleft + e->symleft / 2 + 8 <= e->linvn)
			build_late(e);
		if (!e->late) {
			freeze_sym(e, l, lambda);
		} else {
			/*
			 * the unfrozen classes first, with no branch (which
			 * froze is data), into ws->hit (free once the late
			 * index is built); freeze() of one changes no other's
			 * frozen[]: the same freezes in the same order
			 */
			u32 *hc = ws->hit, nc = 0;

			if (e->inv16) {
				const u16 *li = (const u16 *)e->linv;

				for (j = ws->lstart[l]; j < ws->lstart[l + 1]; j++) {
					hc[nc] = li[j];
					nc += !ws->frozen[hc[nc]];
				}
			} else {
				for (j = ws->lstart[l]; j < ws->lstart[l + 1]; j++) {
					hc[nc] = e->linv[j];
					nc += !ws->frozen[hc[nc]];
				}
			}
			for (j = 0; j < nc; j++) {
				i = hc[j];
				if (j + 1 < nc) {
					const struct cls *cn = &ws->cls[hc[j + 1]];

					__builtin_prefetch(cn->a);
					__builtin_prefetch(cn->ob);
				}
				freeze(e, i, ws->cls[i].w * lambda);
			}
		}
	}
	end = inv_end(e, l);
	if (e->inv16) {
		const u16 *inv = (const u16 *)ws->inv;

		for (j = ws->istart[l]; j < end; j++) {
			i = inv[j];
			if (!ws->frozen[i])
				freeze(e, i, ws->cls[i].w * lambda);
		}
	} else {
		for (j = ws->istart[l]; j < end; j++) {
			i = ws->inv[j];
			if (!ws->frozen[i])
				freeze(e, i, ws->cls[i].w * lambda);
		}
	}
	if (!nsplit)
		return before - e->nunfrozen;
	for (m = 0; m < e->nact; m++) {
		k = ws->gact[m];
		if (ws->gcnt[k] == ws->gdn[k] ||
		    r2c2_rtab_group_coef(e->rt, k, l) == 0)
			continue;
		for (j = ws->gstart[k]; j < ws->gstart[k + 1]; j++) {
			i = ws->gmem[j];
			if (!ws->frozen[i])
				freeze(e, i, ws->cls[i].w * lambda);
		}
	}
	return before - e->nunfrozen;
}

/* demand-capped classes by position: by demand / weight, then flow index */
static int cmp_dem(const void *a, const void *b, void *arg)
{
	const struct eng *e = arg;
	const struct r2c2_flow *f = e->f;
	u32 i = e->lv[*(const u32 *)a], j = e->lv[*(const u32 *)b];
	double x = f[i].demand / f[i].weight, y = f[j].demand / f[j].weight;

	return x < y ? -1 : x > y ? 1 : (i > j) - (i < j);
}

/* C += the relative sums of source row tr (see REL_MIN), and zero them */
static void flush_rel(struct eng *e, const u16 *tr)
{
	double *restrict C = e->ws->link_dc;
	double *restrict cr = e->ws->crel;
	u32 u, p;

	for (u = 0; u < e->n; u++) {
		double *restrict d = C + (size_t)tr[u] * R2C2_MAX_PORTS;

#pragma GCC unroll 8
		for (p = 0; p < R2C2_MAX_PORTS; p++) {
			d[p] += cr[p];
			cr[p] = 0;
		}
		cr += R2C2_MAX_PORTS;
	}
}

/*
 * are the mask-indexed classes of the source of position k worth summing
 * relative? (their entries estimated by their protocols' averages)
 */
static bool rel_worth(const struct eng *e, u32 k, u32 nlv)
{
	u32 src = e->key[k].src;
	size_t tot = 0;

	for (; k < nlv && e->key[k].src == src; k++)
		if (e->symq & (1u << e->key[k].q))
			tot += e->avg[e->key[k].q];
	return tot >= (size_t)REL_MIN * e->nl;
}

/*
 * one entry of pass 1 on link x: C += wa, one more entry; few flows
 * (sparse): C in link_cp (Cs), set at the level's first entry on x,
 * where x is also listed
 */
static inline __attribute__((always_inline)) void
add_c(double *restrict C, double *restrict Cs, u32 *restrict cnt,
      u32 *restrict lt, u32 *nt, u32 x, double wa, const bool sparse)
{
	if (sparse) {
		if (!cnt[x]) {
			lt[(*nt)++] = x;
			Cs[2 * (size_t)x] = 0;
		}
		Cs[2 * (size_t)x] += wa;
	} else {
		C[x] += wa;
	}
	cnt[x]++;
}

/*
 * pass 1: C and the number of entries of every link, non-split flows; C
 * into ws->link_dc (copied into link_cp by the caller): 32 KB on 8x8x8 rather than
 * the 64 KB of link_cp, which do not fit in L1 with the entries streaming by.
 * Few flows (sparse) sum C into link_cp itself, set where the level first
 * meets a link: a round that starts with cold caches then misses on one
 * array less per link
 */
static inline __attribute__((always_inline)) void
build_entries_t(struct eng *e, u32 nlv, u32 *ndem, u32 *nsplit,
		const bool sparse)
{
	struct r2c2_ws *ws = e->ws;
	double *restrict C = ws->link_dc;
	double *restrict Cs = (double *)ws->link_cp;	/* sparse: C at 2 l */
	u32 *restrict cnt = ws->cnt;
	double *restrict cr = ws->crel;
	const u16 *reltr = NULL;	/* source row being summed relative */
	/*
	 * what the loop reads of e and ws, in locals: its stores (u32, u64
	 * and pointers into ws) would make GCC load them again each class
	 */
	const struct ckey *restrict key = e->key;
	const struct r2c2_fv *restrict fv0 = e->fv;
	const double *restrict wk = e->wk;
	const size_t n = e->n, mw = e->mw;
	const u32 symq = e->symq;
	struct cls *restrict cls = ws->cls;
	u8 *restrict frozen = ws->frozen;
	u64 *restrict bm = ws->bm, *restrict sact = ws->sact;
	u32 *restrict head = ws->head, *restrict nxt = ws->nxt;
	size_t syment = 0;
	u32 *restrict lt = ws->ltouched, nt = 0;
	u32 j, k, qmask = 0;

	for (k = 0; k < nlv; k++) {
		const struct r2c2_fv *fv;
		const struct r2c2_vec *v;
		const u32 *restrict lk;
		const double *restrict a;
		const u16 *tr;
		double w;
		u32 len;

		struct cls *c = &cls[k];

		const struct ckey *ck = &key[k];
		u32 q = ck->q, r = 0;

		if (symq && (!k || ck->src != key[k - 1].src)) {
			if (reltr)
				flush_rel(e, reltr);
			/* every class of a source has its row as tr[0] */
			reltr = rel_worth(e, k, nlv) ? cls_tr(e, &key[k], &fv0[k]) : NULL;
		}
		fv = &fv0[k];
		v = cls_vec(e, ck, fv);
		frozen[k] = 0;
		c->w = w = wk[k];
		c->split = !v;
		c->sym = 0;
		if (ck->dem)
			ws->dem[(*ndem)++] = k;
		if (!v) {
			(*nsplit)++;
			continue;
		}
		c->lk = lk = v->link;
		c->a = a = v->coef;
		c->len = len = v->len;
		c->tr = tr = cls_tr(e, ck, fv);
		c->port16 = NULL;
		if (tr) {
			u32 o;

			/*
			 * a torus's class taken through fv (VLB where only
			 * some offsets are split) has its offset there
			 */
			r = e->ovec[q] ? ck->r : fv->off;
			/*
			 * short vectors (DOR): tr lookups cost less; but a
			 * mask-indexed protocol's (RPS) take the padded path
			 * whatever their length: the choice, by length, was
			 * a mispredicted branch in every pass over them
			 */
			if (e->obyte[q] && ((symq >> q & 1) || len >= 16)) {
				/* padded (see ob_axpy()), the same coefficients */
				o = e->obstart[q][r];
				c->ob = e->obyte[q] + o;
				c->a = a = e->obcoef[q] + o;
				c->src_ob = (u16)(ck->src * 128u);
			} else {
				o = e->ostart[q][r];
				c->node = e->onode[q] + o;
				c->port16 = e->oport[q] + o;
			}
		}
		/* the next class's coefficients, if it takes that path */
		if (k + 1 < nlv && (symq >> key[k + 1].q & 1) && e->ovec[key[k + 1].q] &&
		    e->obyte[key[k + 1].q]) {
			/* a mask-indexed class with offsets: the padded path */
			const u32 qn = key[k + 1].q, on = e->obstart[qn][key[k + 1].r];

			__builtin_prefetch(e->obcoef[qn] + on);
			__builtin_prefetch(e->obyte[qn] + on);
		} else if (k + 1 < nlv) {
			const struct r2c2_vec *vn = cls_vec(e, &key[k + 1], &fv[1]);

			if (vn) {
				const u32 qn = key[k + 1].q;
				const bool obn = ((symq >> qn & 1) || vn->len >= 16) &&
						 e->obyte[qn];
				const u32 rn = e->ovec[qn] ? key[k + 1].r : fv[1].off;
				const u32 on = obn ? e->obstart[qn][rn] : 0;

				__builtin_prefetch(obn ? e->obcoef[qn] + on : vn->coef);
				/* and its offsets */
				__builtin_prefetch(obn ? (const void *)(e->obyte[qn] + on) :
						   (const void *)vn->link);
			}
		}
		c->sym = !!(symq & (1u << q));
		if (c->sym) {
			/* no inverse index: key (q, s, d - s) (r: a torus) */
			const u16 *restrict nd = c->node;
			const u8 *restrict port16 = c->port16;
			char *base = (char *)C;
			u32 s = ck->src;
			u64 *b = bm + (q * n + s) * mw + r / 64;
			u32 *hd = head + (q * n + s) * n + r;

			syment += len;
			nxt[k] = *b & (1ull << (r % 64)) ? *hd : UINT32_MAX;
			*hd = k;
			*b |= 1ull << (r % 64);
			sact[q * mw + s / 64] |= 1ull << (s % 64);
			qmask |= 1u << q;
			if (reltr && w == 1) {
#pragma GCC unroll 4
				for (j = 0; j < len; j++)
					cr[lk[j]] += a[j];
				continue;
			}
			if (reltr) {
#pragma GCC unroll 4
				for (j = 0; j < len; j++)
					cr[lk[j]] += w * a[j];
				continue;
			}
			if (!port16) {
				if (w == 1)
					ob_axpy(base, c->ob, a, len, e->obhi, c->src_ob, OB_C1, (v2d){ 0 }, 1);
				else
					ob_axpy(base, c->ob, a, len, e->obhi, c->src_ob, OB_C, (v2d){ 0 }, w);
				continue;
			}
#pragma GCC unroll 4
			for (j = 0; j < len; j++)
				C[(size_t)tr[nd[j]] * R2C2_MAX_PORTS + port16[j] / 16] += w * a[j];
		} else if (tr && !c->port16) {
			u16 *restrict o = ws->obuf;

			ob_translate(c->ob, len, e->obhi, c->src_ob, o);
#pragma GCC unroll 4
			for (j = 0; j < len; j++) {
				u32 x = o[j] / sizeof(v2d);

				add_c(C, Cs, cnt, lt, &nt, x, w * a[j], sparse);
			}
		} else if (tr) {
			const u16 *restrict nd = c->node;
			const u8 *restrict port16 = c->port16;

#pragma GCC unroll 4
			for (j = 0; j < len; j++) {
				u32 o = (u32)tr[nd[j]] * R2C2_MAX_PORTS + port16[j] / 16;

				add_c(C, Cs, cnt, lt, &nt, o, w * a[j], sparse);
			}
		} else {
			for (j = 0; j < len; j++)
				add_c(C, Cs, cnt, lt, &nt, lk[j], w * a[j], sparse);
		}
	}
	if (reltr)
		flush_rel(e, reltr);
	e->syment += syment;
	e->qmask |= (u8)qmask;
	if (sparse)
		e->nt = nt;
}

/*
 * Few flows (e->sparse): the links the level's entries are on into
 * ws->ltouched as they are first counted, in the order met, instead of a
 * pass over all the links after
 */
static void build_entries(struct eng *e, u32 nlv, u32 *ndem, u32 *nsplit)
{
	if (e->sparse)
		build_entries_t(e, nlv, ndem, nsplit, true);
	else
		build_entries_t(e, nlv, ndem, nsplit, false);
}

/*
 * pass 2: C of every link from ws->link_dc into link_cp, and the inverse
 * index link -> flows (CSR), by counting sort
 */
static void build_inverse(struct eng *e, u32 nlv)
{
	struct r2c2_ws *ws = e->ws;
	u32 *restrict cnt = ws->cnt, *restrict inv = ws->inv;
	u32 *restrict is = ws->istart;
	v2d *restrict cp = ws->link_cp;
	const double *restrict dc = ws->link_dc;
	u32 j, k, l, t, acc = 0;

	if (e->sparse) {
		/* the level's links, in no order: l's end is cnt[l] after */
		for (t = 0; t < e->nt; t++) {
			u32 c;

			l = ws->ltouched[t];
			c = cnt[l];
			if (!e->stamped) {
				cp[l][1] = e->cap[l] * e->use;
			} else if (ws->lstamp[l] != ws->lepoch) {
				cp[l][1] = e->cap[l] * e->use;
				ws->lstamp[l] = ws->lepoch;
			}
			is[l] = acc;
			cnt[l] = acc;
			acc += c;
		}
	} else {
		/* one pass; the sum in a register (through is[]: a chain of store-loads) */
		for (l = 0; l < e->nl; l++) {
			u32 c = cnt[l];

			cp[l][0] = dc[l];
			is[l] = acc;
			cnt[l] = acc;
			acc += c;
		}
	}
	is[e->nl] = acc;
	for (k = 0; k < nlv; k++) {
		const struct cls *c = &ws->cls[k];
		const u16 *tr = c->tr;
		const u32 *restrict lk;
		u32 len;

		if (c->split || c->sym)
			continue;
		lk = c->lk;
		len = c->len;
		if (e->inv16) {
			/* half the bytes of scattered writes: position in lv */
			u16 *restrict inv16 = (u16 *)inv;

			if (tr && !c->port16) {
				u16 *restrict o = ws->obuf;

				ob_translate(c->ob, len, e->obhi, c->src_ob, o);
				for (j = 0; j < len; j++)
					inv16[cnt[o[j] / sizeof(v2d)]++] = (u16)k;
			} else if (tr) {
				const u16 *restrict nd = c->node;
				const u8 *restrict port16 = c->port16;

#pragma GCC unroll 4
				for (j = 0; j < len; j++)
					inv16[cnt[(u32)tr[nd[j]] * R2C2_MAX_PORTS + port16[j] / 16]++] = (u16)k;
			} else {
				for (j = 0; j < len; j++)
					inv16[cnt[lk[j]]++] = (u16)k;
			}
		} else if (tr && !c->port16) {
			u16 *restrict o = ws->obuf;

			ob_translate(c->ob, len, e->obhi, c->src_ob, o);
			for (j = 0; j < len; j++)
				inv[cnt[o[j] / sizeof(v2d)]++] = k;
		} else if (tr) {
			const u16 *restrict nd = c->node;
			const u8 *restrict port16 = c->port16;

#pragma GCC unroll 4
			for (j = 0; j < len; j++)
				inv[cnt[(u32)tr[nd[j]] * R2C2_MAX_PORTS + port16[j] / 16]++] = k;
		} else {
			for (j = 0; j < len; j++)
				inv[cnt[lk[j]]++] = k;
		}
	}
}

/* groups of split VLB flows: members (CSR), weights, and C += W_g * G_g */
static void build_groups(struct eng *e, u32 nlv, u32 ng)
{
	struct r2c2_ws *ws = e->ws;
	double *restrict link_dc = ws->link_dc;
	v2d *restrict link_cp = ws->link_cp;
	u32 i, j, k, l;

	memset(ws->grp_w, 0, ng * sizeof(*ws->grp_w));
	memset(ws->gcnt, 0, ng * sizeof(*ws->gcnt));
	for (k = 0; k < nlv; k++) {
		const struct r2c2_fv *fv = &e->fv[k];

		if (cls_vec(e, &e->key[k], fv))
			continue;
		for (j = 0; j < 2; j++) {
			ws->grp_w[fv->group[j]] += e->wk[k] * fv->scale[j];
			ws->gcnt[fv->group[j]]++;
		}
	}
	ws->gstart[0] = 0;
	for (i = 0; i < ng; i++) {
		ws->gstart[i + 1] = ws->gstart[i] + ws->gcnt[i];
		ws->gfill[i] = ws->gstart[i];
	}
	for (k = 0; k < nlv; k++) {
		const struct r2c2_fv *fv = &e->fv[k];

		if (!cls_vec(e, &e->key[k], fv))
			for (j = 0; j < 2; j++)
				ws->gmem[ws->gfill[fv->group[j]]++] = k;
	}
	memset(link_dc, 0, e->nl * sizeof(*link_dc));
	e->nact = 0;
	for (i = 0; i < ng; i++)
		if (ws->gcnt[i])
			ws->gact[e->nact++] = i;
	add_groups(e, ws->grp_w, e->nact, ws->gact, link_dc);
	for (l = 0; l < e->nl; l++)
		link_cp[l][0] += link_dc[l];
}

/*
 * water-fill the flows lv[0..nlv) of one priority level; -ERANGE when
 * flows are left that no link and no demand can freeze: every flow
 * crosses a link, so only an infinite level does that (a weight so small,
 * e.g. 1e-300, that capacity / weight overflows), and their rates would
 * be left unwritten
 */
static int fill_level_run(struct eng *e, const u32 *lv, u32 nlv)
{
	struct r2c2_ws *ws = e->ws;
	const struct r2c2_flow *f = e->f;
	struct hent *h = ws->heap;
	u32 k, l, m, ng, ndem = 0, di = 0, nsplit = 0;
	double lambda = 0;

	if (!e->sparse) {
		memset(ws->link_dc, 0, e->nl * sizeof(*ws->link_dc));
		memset(ws->cnt, 0, e->nl * sizeof(*ws->cnt));
	}
	/* masks (and the per-thread tables below) only up to LMASK_MAXN */
	e->rel = e->n <= R2C2_LMASK_MAXN ? r2c2_rtab_rel(e->rt) : NULL;
	e->symq = 0;
	if (e->rel) {
		size_t ent[__R2C2_RP_MAX] = { 0 }, cnt[__R2C2_RP_MAX] = { 0 };
		u32 q;

		for (k = 0; k < nlv; k++) {
			const struct r2c2_vec *v = cls_vec(e, &e->key[k], &e->fv[k]);

			if (v) {
				ent[e->key[k].q] += v->len;
				cnt[e->key[k].q]++;
			}
		}
		/*
		 * cnt[q]: below 64 links (torus:2) the first bound is 0 and
		 * holds for a protocol without classes too. WLB's classes
		 * are a torus's pairs of their own, not translated offsets:
		 * never mask-indexed.
		 */
		for (q = 0; q < __R2C2_RP_MAX; q++)
			if (cnt[q] && q != R2C2_RP_WLB &&
			    ent[q] >= (size_t)e->n * e->mw * e->nl / SYM_DIV &&
			    ent[q] >= SYM_SPREAD * cnt[q]) {
				e->symq |= 1u << q;
				e->avg[q] = (u32)(ent[q] / cnt[q]);
			}
	}
	e->qmask = 0;
	if (e->symq) {
		memset(ws->bm, 0, (size_t)__R2C2_RP_MAX * e->n * e->mw * sizeof(u64));
		memset(ws->sact, 0, (size_t)__R2C2_RP_MAX * e->mw * sizeof(u64));
	}
	e->lv = lv;
	e->nlv = nlv;
	e->syment = 0;
	build_entries(e, nlv, &ndem, &nsplit);
	e->symleft = e->syment;
	e->late = false;
	e->inv16 = nlv <= 0x10000;
	build_inverse(e, nlv);
	/*
	 * the late index: in ws->inv after the inverse (ninv counts every
	 * entry of every non-split class, so at least syment are free)
	 */
	{
		size_t used = e->inv16 ? (ws->istart[e->nl] + 1) / 2 : ws->istart[e->nl];

		/* no inverse at all (no class has one): ws->inv is NULL */
		e->linv = ws->inv ? ws->inv + used : NULL;
		e->linvn = ws->ninv - used;
	}
	if (nsplit)
		build_groups(e, nlv, 2 * (e->nl / R2C2_MAX_PORTS));
	/* heap of links carrying flows of this level */
	if (!nsplit && !e->symq && nlv <= e->nl / PRIV_DIV) {
		heap_private(e, nlv);
	} else {
		for (l = 0; l < e->nl; l++)
			h[l].l = l;
		e->hn = e->nl;
	}
	heap_rebuild(e, 0);
	if (ndem > 1)
		qsort_r(ws->dem, ndem, sizeof(*ws->dem), cmp_dem, e);

	e->nunfrozen = nlv;
	e->ngdirty = 0;
	while (e->nunfrozen) {
		double ll, ld, top, rl;

		ll = top_fresh(e, lambda, &top) ? top : INFINITY;

		while (di < ndem && ws->frozen[ws->dem[di]])
			di++;
		ld = di < ndem ? f[lv[ws->dem[di]]].demand / f[lv[ws->dem[di]]].weight :
			INFINITY;
		if (ll == INFINITY && ld == INFINITY)
			return -ERANGE;
		if (ld <= ll) {
			lambda = fmax(lambda, ld);
			freeze(e, ws->dem[di], f[lv[ws->dem[di]]].demand);
			rl = ld;
		} else {
			l = h[0].l;
			h_pop(h, &e->hn);
			/* only rounding dust left on it: not a bottleneck */
			if (!freeze_link(e, l, ll, nsplit))
				continue;
			rl = lambda = ll;
			while (top_fresh(e, lambda, &top) && top <= ll * (1 + TIE_EPS)) {
				l = h[0].l;
				h_pop(h, &e->hn);
				freeze_link(e, l, lambda, nsplit);
			}
		}
		if (e->ngdirty) {
			ng = e->ngdirty;
			apply_groups(e, rl);
			for (m = k = 0; k < e->nact; k++)
				if (ws->gcnt[ws->gact[k]])
					ws->gact[m++] = ws->gact[k];
			e->nact = m;
			/*
			 * VLB groups span most links: after a round that
			 * changed many, nearly every key is stale and
			 * refreshing them one by one at the top costs a sift
			 * each; recompute them all and heapify instead
			 */
			if (ng >= CONV_MIN)
				heap_rebuild(e, lambda);
		}
	}
	return 0;
}

/*
 * One level, and where it walked only its links (sparse) their counts
 * zeroed again, so that the next level and the next call find them 0
 * (ws->cntzero) however the level ended
 */
static int fill_level(struct eng *e, const u32 *lv, u32 nlv)
{
	struct r2c2_ws *ws = e->ws;
	u32 t;
	int ret;

	e->nt = 0;
	ret = fill_level_run(e, lv, nlv);
	for (t = 0; e->sparse && t < e->nt; t++)
		ws->cnt[ws->ltouched[t]] = 0;
	return ret;
}

/*
 * Up to this many flows, order_flows() sorts by insertion: at 32 that is
 * at most 496 comparisons, about what the counting sorts cost in
 * instructions on 8x8x8, without their per-node counts
 */
#define FEW_SORT 32

/* flow i before flow j in ws->lvl: by (priority, source, index) */
static inline bool flow_before(const struct r2c2_flow *f, u32 i, u32 j)
{
	if (f[i].prio != f[j].prio)
		return f[i].prio < f[j].prio;
	return f[i].src != f[j].src ? f[i].src < f[j].src : i < j;
}

/*
 * ws->lvl = flow indices by (priority, source, index): two counting
 * sorts, or for a few flows an insertion sort, which leaves the per-node
 * counts (2 KB on 8x8x8) out of a round that starts with cold caches
 */
static void order_flows(struct r2c2_ws *ws, const struct r2c2_flow *f, u32 nf,
			u32 n)
{
	u32 *b = ws->istart, *tmp = ws->dem, i, c, p;
	bool prios = false;

	if (nf <= FEW_SORT) {
		for (i = 0; i < nf; i++) {
			for (c = i; c > 0 && flow_before(f, i, ws->lvl[c - 1]); c--)
				ws->lvl[c] = ws->lvl[c - 1];
			ws->lvl[c] = i;
		}
		return;
	}
	memset(b, 0, (n + 1) * sizeof(*b));
	for (i = 0; i < nf; i++) {
		b[f[i].src + 1]++;
		prios |= f[i].prio != f[0].prio;
	}
	for (c = 0; c < n; c++)
		b[c + 1] += b[c];
	for (i = 0; i < nf; i++)
		(prios ? tmp : ws->lvl)[b[f[i].src]++] = i;
	if (!prios)
		return;
	memset(b, 0, (R2C2_PRIO_LEVELS + 1) * sizeof(*b));
	for (i = 0; i < nf; i++)
		b[f[i].prio + 1]++;
	for (p = 0; p < R2C2_PRIO_LEVELS; p++)
		b[p + 1] += b[p];
	for (i = 0; i < nf; i++)
		ws->lvl[b[f[tmp[i]].prio]++] = tmp[i];
}

static int validate(const struct r2c2_rtab *rt, const struct r2c2_flow *f,
		    size_t nf, double headroom)
{
	const u32 n = r2c2_rtab_topo(rt)->n;
	size_t i;

	if (!(headroom >= 0 && headroom < 1))
		return -EINVAL;
	for (i = 0; i < nf; i++)
		if (f[i].src >= n || f[i].dst >= n ||
		    f[i].src == f[i].dst || f[i].rproto >= __R2C2_RP_MAX ||
		    f[i].prio >= R2C2_PRIO_LEVELS || !(f[i].weight > 0) ||
		    !isfinite(f[i].weight) || !(f[i].demand >= 0) ||
		    !isfinite(f[i].demand))
			return -EINVAL;
	return 0;
}

/*
 * Flows of one level with the same source, destination and protocol and
 * no demand cross the same links with the same coefficients, so they
 * freeze together and their rates are proportional to their weights:
 * water-fill one flow per class, with the summed weight (ws->wt), and
 * share its rate afterwards. ws->lvl (ordered by priority and source)
 * keeps one flow per class; ws->rep[i] is flow i's class. Returns the
 * number of classes.
 */
/* torus: what set_class() needs to tell a class with offset vectors (no fv) */
struct offv {
	const struct r2c2_vec *v[__R2C2_RP_MAX];	/* r2c2_rtab_offvec() */
	const u16 *tr, *rel;
	u32 n;
};

/* class at position m is flow i: what the passes read, in position order */
static void set_class(struct r2c2_ws *ws, const struct r2c2_rtab *rt,
		      const struct offv *ov, const struct r2c2_flow *f, u32 m,
		      u32 i)
{
	const struct r2c2_vec *v = ov->v[f[i].rproto];

	ws->lvl[m] = i;
	ws->wk[m] = f[i].weight;
	ws->key[m].src = f[i].src;
	ws->key[m].dst = f[i].dst;
	ws->key[m].q = f[i].rproto;
	ws->key[m].dem = f[i].demand > 0;
	/*
	 * cannot fail: r2c2_maxmin() checked every flow. A torus's vector
	 * is known from the key (offset r, see cls_vec()): no fv and no
	 * r2c2_rtab_fv() call (~60 instructions a class)
	 */
	if (v) {
		const size_t so = (size_t)f[i].src * ov->n;
		const u16 r = ov->rel[so + f[i].dst];

		/* fv not written: see eng.ovec */
		ws->key[m].r = r;
		return;
	}
	/* r: read only for a vector translated by offset (a torus's v) */
	ws->key[m].r = 0;
	r2c2_rtab_fv(rt, f[i].src, f[i].dst, f[i].rproto, &ws->fv[m]);
}

static u32 merge_classes(struct r2c2_ws *ws, const struct r2c2_rtab *rt,
			 const struct r2c2_flow *f, u32 nf, u32 n)
{
	u32 *st = ws->stamp, k, m = 0, run, i;
	struct offv ov = { .rel = r2c2_rtab_rel(rt), .n = n };

	for (k = 0; k < __R2C2_RP_MAX; k++)
		ov.v[k] = r2c2_rtab_offvec(rt, (u8)k, &ov.tr);

	/*
	 * stamp[2 * key] = run id, stamp[2 * key + 1] = class position; the
	 * run ids go on from the last call's (ws->mrun), so that no stamp of
	 * an earlier call matches and none need clearing (but when they
	 * would wrap)
	 */
	if (ws->mrun > UINT32_MAX - nf - 1) {
		memset(st, 0, ws->nstamp * sizeof(*st));
		ws->mrun = 0;
	}
	run = ws->mrun;
	for (k = 0; k < nf; k++) {
		u32 key;

		i = ws->lvl[k];
		/*
		 * the flows are read in source order, at random in f: their
		 * records 16 ahead, and the offset (rel) of those 8 ahead
		 */
		if (k + 16 < nf)
			__builtin_prefetch(&f[ws->lvl[k + 16]]);
		if (k + 8 < nf && ov.rel) {
			const struct r2c2_flow *fn = &f[ws->lvl[k + 8]];

			__builtin_prefetch(&ov.rel[(size_t)fn->src * n + fn->dst]);
		}
		ws->rep[i] = i;
		ws->wt[i] = f[i].weight;
		if (!k || f[i].src != f[ws->lvl[k - 1]].src ||
		    f[i].prio != f[ws->lvl[k - 1]].prio)
			run++;
		if (f[i].demand > 0) {
			set_class(ws, rt, &ov, f, m++, i);
			continue;
		}
		key = 2 * ((u32)f[i].dst * __R2C2_RP_MAX + f[i].rproto);
		if (st[key] == run) {
			u32 pos = st[key + 1], r = ws->lvl[pos];

			ws->rep[i] = r;
			ws->wt[r] += f[i].weight;
			ws->wk[pos] += f[i].weight;
			continue;
		}
		st[key] = run;
		st[key + 1] = m;
		set_class(ws, rt, &ov, f, m++, i);
	}
	ws->mrun = run;
	return m;
}

/* rate of every member of a class: its share, by weight, of the class's */
static void split_classes(struct r2c2_ws *ws, const struct r2c2_flow *f,
			  u32 nf, double *rate)
{
	u32 i;

	for (i = 0; i < nf; i++)
		if (ws->rep[i] != i)
			rate[i] = rate[ws->rep[i]] * (f[i].weight / ws->wt[ws->rep[i]]);
	for (i = 0; i < nf; i++)
		if (ws->rep[i] == i && ws->wt[i] != f[i].weight)
			rate[i] *= f[i].weight / ws->wt[i];
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
 * prepared), -EHOSTUNREACH, -ENOMEM, or -ERANGE (a level with an
 * infinite water level: fill_level()).
 */
int r2c2_maxmin(const struct r2c2_rtab *rt, const struct r2c2_flow *f,
		size_t nf, double headroom, double *rate, struct r2c2_ws *ws)
{
	const struct r2c2_topo *t = r2c2_rtab_topo(rt);
	size_t nl = R2C2_NLINKS(t->n), ninv = 0, i, s, nc;
	size_t qent[__R2C2_RP_MAX] = { 0 };
	struct r2c2_ws *tmp = NULL;
	struct eng e = { 0 };
	int ret;

	ret = validate(rt, f, nf, headroom);
	if (ret)
		return ret;
	if (!ws) {
		ws = tmp = r2c2_ws_new();
		if (!ws)
			return -ENOMEM;
	}
	ret = ws_reserve(ws, nl, nf, 2 * (size_t)t->n, r2c2_rtab_conv_scratch(rt));
	if (ret)
		goto out;
	e.n = t->n;
	e.mw = (t->n + 63) / 64;
#ifdef CLS_SSE3
	e.sse3 = __builtin_cpu_supports("sse3");
#endif
	e.rel0 = r2c2_rtab_rel(rt);
	for (i = 0; i < __R2C2_RP_MAX; i++)
		e.ovec[i] = r2c2_rtab_offvec(rt, (u8)i, &e.otr);
	for (i = 0; i < __R2C2_RP_MAX; i++) {
		r2c2_rtab_nodeport(rt, (u8)i, &e.onode[i], &e.oport[i], &e.ostart[i]);
		e.obyte[i] = r2c2_rtab_obyte(rt, (u8)i, &e.obhi, &e.obcoef[i],
					     &e.obstart[i]);
	}
	if (r2c2_rtab_rel(rt) && t->n <= R2C2_LMASK_MAXN) {
		size_t nbm = (size_t)__R2C2_RP_MAX * t->n * e.mw + __R2C2_RP_MAX * e.mw;
		size_t nhead = (size_t)__R2C2_RP_MAX * t->n * t->n;

		if (nbm > ws->nbm) {
			free(ws->bm);
			ws->bm = malloc(nbm * sizeof(u64));
			ws->nbm = ws->bm ? nbm : 0;
		}
		if (nhead > ws->nhead) {
			free(ws->head);
			ws->head = malloc(nhead * sizeof(u32));
			ws->nhead = ws->head ? nhead : 0;
		}
		ret = -ENOMEM;
		if (!ws->bm || !ws->head)
			goto out;
		ret = 0;
		ws->sact = ws->bm + (size_t)__R2C2_RP_MAX * t->n * e.mw;
	}
	/*
	 * every pair must have its vectors (graphs: prepared) and a path;
	 * on a torus both hold for every valid flow and set_class() gets
	 * the vectors, in class order
	 */
	if (!r2c2_rtab_rel(rt)) {
		for (i = 0; i < nf; i++) {
			struct r2c2_fv fv;

			ret = r2c2_rtab_fv(rt, f[i].src, f[i].dst, f[i].rproto, &fv);
			if (ret)
				goto out;
			if (!r2c2_topo_reaches(t, f[i].src, f[i].dst)) {
				ret = -EHOSTUNREACH;
				goto out;
			}
		}
	}
	e.rt = rt;
	e.f = f;
	e.rate = rate;
	e.ws = ws;
	e.nl = (u32)nl;
	/*
	 * levels, highest priority (0) first; within a level by source, so
	 * that consecutive flows touch nearby links (cache locality of the
	 * inverse index and of (C, P))
	 */
	order_flows(ws, f, (u32)nf, t->n);
	nc = merge_classes(ws, rt, f, (u32)nf, t->n);
	e.sparse = nc <= nl / PRIV_DIV;
	for (i = 0; i < nc; i++) {
		const struct r2c2_vec *v = cls_vec(&e, &ws->key[i], &ws->fv[i]);

		if (v) {
			ninv += v->len;
			qent[ws->key[i].q] += v->len;
		}
		e.sparse &= v != NULL;
	}
	/*
	 * few flows (their link entries at most a quarter of the links, fewer
	 * classes than heap_private() takes, none split): each level walks
	 * only its links, and no pass over all of them sets their P. Not
	 * where a protocol could be mask-indexed (fill_level(): symq), as
	 * counted over all the levels.
	 */
	e.sparse &= ninv * 4 <= nl;
	for (i = 0; e.sparse && r2c2_rtab_rel(rt) && i < __R2C2_RP_MAX; i++)
		e.sparse = qent[i] < (size_t)e.n * e.mw * nl / SYM_DIV;
	e.cap = t->cap;
	e.use = 1 - headroom;
	if (e.sparse) {
		if (!ws->cntzero) {
			/* all of them: a later call may have more links */
			memset(ws->cnt, 0, ws->nl * sizeof(*ws->cnt));
			ws->cntzero = true;
		}
		/* ws->lvl is in priority order */
		e.stamped = nc && f[ws->lvl[0]].prio != f[ws->lvl[nc - 1]].prio;
		if (e.stamped && ++ws->lepoch == 0) {	/* wrapped: every stamp is old */
			memset(ws->lstamp, 0, ws->nl * sizeof(*ws->lstamp));
			ws->lepoch = 1;
		}
	} else {
		v2d *restrict cp = ws->link_cp;
		const double *restrict cap = t->cap;
		const double use = 1 - headroom;

		ws->cntzero = false;
		for (i = 0; i < nl; i++)
			cp[i][1] = cap[i] * use;
		memset(ws->grp_dw, 0, 2 * t->n * sizeof(double));
		memset(ws->gdn, 0, 2 * t->n * sizeof(u32));
		memset(ws->gdirty, 0, 2 * t->n);
	}
	if (ninv > ws->ninv) {
		if (!GROW(ws->inv, ninv)) {
			ret = -ENOMEM;
			goto out;
		}
		ws->ninv = ninv;
	}
	for (s = 0; s < nc; s = i) {
		for (i = s + 1; i < nc && f[ws->lvl[i]].prio == f[ws->lvl[s]].prio; i++)
			;
		e.fv = ws->fv + s;
		e.wk = ws->wk + s;
		e.key = ws->key + s;
		ret = fill_level(&e, ws->lvl + s, (u32)(i - s));
		if (ret)
			goto out;
	}
	if (nc < nf)
		split_classes(ws, f, (u32)nf, rate);
out:
	r2c2_ws_free(tmp);
	return ret;
}
