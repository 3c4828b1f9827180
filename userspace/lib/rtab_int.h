/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtab_int.h - internals of the routing tables shared by the allocators.
 */
#ifndef _R2C2_RTAB_INT_H
#define _R2C2_RTAB_INT_H

#include "r2c2_alloc.h"

/*
 * relative slack when grouping links that saturate "together" (the
 * engine, maxmin.c, and its reference, maxmin_ref.c)
 */
#define TIE_EPS		1e-12

/*
 * A flow's per-link weights are the sum of nv parts; part i is vector
 * v[i] scaled by scale[i], whose link l means absolute link
 *	tr[i] ? tr[i][l >> 3] * 8 + (l & 7) : l
 * (tr[i] is the translation row of a torus: relative node -> node).
 * Split VLB flows (VLB = RPS to every node, then RPS from every node,
 * each leg weighted 1/n) have two parts: group[0] = source group (the
 * source node's index), group[1] = n + destination.
 */
struct r2c2_fv {
	const struct r2c2_vec *v[2];
	const u16 *tr[2];
	double scale[2];
	u32 group[2];
	int nv;
	bool split;
	u16 off;	/* torus, not split: the offset d - s of v[0]; else 0 */
};

static inline u32 r2c2_fv_link(const u16 *tr, u32 l)
{
	return tr ? (u32)tr[l >> 3] * R2C2_MAX_PORTS + (l & 7) : l;
}

int r2c2_rtab_fv(const struct r2c2_rtab *rt, u16 s, u16 d, u8 rproto,
		 struct r2c2_fv *fv);
/*
 * Torus: the entries of every offset vector under rproto (the v[0] of
 * the pairs that are not split) again, as relative node and 16 * port;
 * offset r's entry j is node[start[r] + j], port16[start[r] + j], at byte
 * tr[node] * 128 + port16 of an array of 16-byte per-link records. A
 * graph that departs from a torus (struct rtab_base): the torus's, for
 * the RPS and DOR legs its r2c2_rtab_fv() gives as the torus's (v[0],
 * tr[0] and off from the torus). NULLs on other graphs and for split VLB.
 */
void r2c2_rtab_nodeport(const struct r2c2_rtab *rt, u8 rproto,
			const u16 **node, const u8 **port16, const u32 **start);
/*
 * Torus of at most 512 nodes whose radices are powers of two (else NULL):
 * the same entries as byte offsets node * 128 + 16 * port, and their
 * coefficients in *coef, offset r's at (*start)[r]: each vector padded
 * to a multiple of 8 entries with its last entry again, coefficient 0
 * (adding 0 * x to a link changes nothing: see maxmin.c). Entry o of
 * source s is at byte
 *	((o & ~hi) + (s * 128 & ~hi)) ^ ((o ^ s * 128) & hi)
 * (coordinates are bit fields; hi has the top bit of each: a field-wise
 * addition modulo the radices, no table lookup).
 */
const u16 *r2c2_rtab_obyte(const struct r2c2_rtab *rt, u8 rproto, u16 *hi,
			   const double **coef, const u32 **start);
/*
 * group g (0..2n-1): on a torus its vector and translation row (returns
 * NULL); on a graph its weights on every link, dense (v, tr NULL; the
 * split flows' r2c2_fv has no vectors either, only the group numbers)
 */
const double *r2c2_rtab_group(const struct r2c2_rtab *rt, u32 g,
			      const struct r2c2_vec **v, const u16 **tr);
/* coefficient of group g on absolute link l (0 if absent) */
double r2c2_rtab_group_coef(const struct r2c2_rtab *rt, u32 g, u32 l);
/*
 * y += a * group g over all n * 8 links (y 16-byte aligned): dense, in
 * contiguous runs of whole nodes (a torus translation moves whole rows of
 * nodes), vectorised.
 */
void r2c2_rtab_group_axpy(const struct r2c2_rtab *rt, u32 g, double a,
			  double *y);
/*
 * y += sum_s wa[s] * group s + sum_d wb[d] * group n + d, all groups at
 * once by DFT (torus with split VLB only, else -EOPNOTSUPP); scratch of
 * r2c2_rtab_conv_scratch() doubles (0: not supported).
 */
int r2c2_rtab_groups_conv(const struct r2c2_rtab *rt, const double *wa,
			  const double *wb, double *y, double *scratch);
/* the same with every group's coefficients squared */
int r2c2_rtab_groups_conv_sq(const struct r2c2_rtab *rt, const double *wa,
			     const double *wb, double *y, double *scratch);
/*
 * the adjoint: ga[s] = sum_l A_s(l) y[l], gb[d] = sum_l B_d(l) y[l], all
 * groups at once by DFT (torus with split VLB only, else -EOPNOTSUPP)
 */
int r2c2_rtab_groups_corr(const struct r2c2_rtab *rt, const double *y,
			  double *ga, double *gb, double *scratch);
size_t r2c2_rtab_conv_scratch(const struct r2c2_rtab *rt);
/*
 * Torus (else NULL): which offsets cross a relative link. Row -u (*mw
 * words) of the result has bit r set when the vector of offset r under
 * rproto has the link (u, port); so flow (s, s + r) crosses link
 * (v, port) when row s - v = rel[v * n + s] has bit r. NULL also when no
 * vector uses the port.
 */
/* masks are built for tori of at most this many nodes (n^2 bytes a port) */
#define R2C2_LMASK_MAXN	1024
/*
 * *smask (n rows of *mw words): bit s of row v is set when row s - v of
 * the result is not empty, i.e. when a flow from s may cross (v, port)
 */
const u64 *r2c2_rtab_lmask(const struct r2c2_rtab *rt, u8 rproto,
			   unsigned int port, unsigned int *mw, const u64 **smask);
/* torus (else NULL): rel[s * n + d] = d - s */
const u16 *r2c2_rtab_rel(const struct r2c2_rtab *rt);
/*
 * torus, where the flows of rproto are not split (else NULL): the n
 * offset vectors, flow (s, d)'s is [rel[s * n + d]], walked with tr =
 * *tr + s * n, which is what r2c2_rtab_fv() gives it (v[0], tr[0])
 */
const struct r2c2_vec *r2c2_rtab_offvec(const struct r2c2_rtab *rt, u8 rproto,
					const u16 **tr);

#endif
