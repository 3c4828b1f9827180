/* SPDX-License-Identifier: GPL-2.0 */
/*
 * maxmin_simd.h - the vector types and scatter-adds of the max-min
 * engine's passes over link entries (maxmin.c): translating a torus
 * offset vector's byte offsets to a source's links eight at a time
 * and adding multiples of its coefficients into the per-link (C, P)
 * pairs. SSE2 on x86-64, GCC vector extensions elsewhere.
 */
#ifndef _R2C2_MAXMIN_SIMD_H
#define _R2C2_MAXMIN_SIMD_H

#include "rtab_int.h"

/* (C, P) of one link: unfrozen weight * coefficient, capacity left */
typedef double v2d __attribute__((vector_size(16)));
/* link l's (C, P) is at byte 128 * node + 16 * port of link_cp (cls.node, .port16) */
_Static_assert(R2C2_MAX_PORTS * sizeof(v2d) == 128, "link_cp byte offsets");
/* two mask words (SSE2 on x86-64) */
typedef u64 v2u __attribute__((vector_size(16)));

static inline v2u ld2u(const u64 *p)
{
	v2u v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

/* eight 16-bit byte offsets */
typedef u16 v8h __attribute__((vector_size(16)));
typedef u32 v4u __attribute__((vector_size(16)));

/*
 * out[0..len) = the byte offsets in link_cp of entries ob[0..len) of the
 * source whose node is at byte s (r2c2_rtab_obyte(): field-wise addition
 * modulo the radices); eight at a time, so ob and out are read and
 * written up to 7 entries past len
 */
static inline void ob_translate(const u16 *restrict ob, u32 len, u16 hi,
				u16 s, u16 *restrict out)
{
	const v8h vh = (v8h){ 0 } + hi, vl = (v8h){ 0 } + (u16)(s & ~hi);
	const v8h vs = (v8h){ 0 } + s;
	u32 j;

	for (j = 0; j < len; j += 8) {
		v8h x;

		__builtin_memcpy(&x, ob + j, sizeof(x));
		x = ((x & ~vh) + vl) ^ ((x ^ vs) & vh);
		__builtin_memcpy(out + j, &x, sizeof(x));
	}
}

/*
 * as ob_translate(), into link numbers (byte offset / 16), and kk[j] = k
 * for the same j (eight at a time too: up to 7 past len)
 */
static inline __attribute__((always_inline)) void
ob_translate_k(const u16 *restrict ob, u32 len, u16 hi, u16 s,
	       u16 *restrict out, void *restrict kk, u32 k, bool k16)
{
	const v8h vh = (v8h){ 0 } + hi, vl = (v8h){ 0 } + (u16)(s & ~hi);
	const v8h vs = (v8h){ 0 } + s;
	const v4u vk = (v4u){ 0 } + k;
	const v8h vk16 = (v8h){ 0 } + (u16)k;
	u32 j;

	for (j = 0; j < len; j += 8) {
		v8h x;

		__builtin_memcpy(&x, ob + j, sizeof(x));
		x = (((x & ~vh) + vl) ^ ((x ^ vs) & vh)) >> 4;
		__builtin_memcpy(out + j, &x, sizeof(x));
		if (k16) {
			__builtin_memcpy((u16 *)kk + j, &vk16, sizeof(vk16));
		} else {
			__builtin_memcpy((u32 *)kk + j, &vk, sizeof(vk));
			__builtin_memcpy((u32 *)kk + j + 4, &vk, sizeof(vk));
		}
	}
}

/*
 * lane i (0-3) of four 16-bit offsets in y: 32-bit halves, so that lanes
 * 1 and 3 need a shift and no MOVZX (GCC shifts the 64 bits and masks)
 */
static inline u32 lane16(u64 y, unsigned int i)
{
	u32 h;

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	i = 3 - i;	/* lane 0 (the lowest address) in the high bits */
#endif
	h = (u32)(y >> (i & 2 ? 32 : 0));

	return i & 1 ? h >> 16 : (u16)h;
}

/*
 * *p += t, in one read-modify-write whose address GCC forms once, as
 * base + index in both instructions: written in C, it adds base and
 * index into a register first (one instruction of ~7 an entry more in
 * the entry passes). t + *p: the same sum as *p + t.
 */
static inline void rmw_add2(v2d *p, v2d t)
{
#if defined(__x86_64__)
	__asm__("addpd %1, %0\n\tmovapd %0, %1" : "+x"(t), "+m"(*p));
#else
	*p += t;
#endif
}

/* as rmw_add2(), one double */
static inline void rmw_add1(double *p, double t)
{
#if defined(__x86_64__)
	__asm__("addsd %1, %0\n\tmovsd %0, %1" : "+x"(t), "+m"(*p));
#else
	*p += t;
#endif
}

/* what ob_axpy() adds to */
enum ob_kind {
	OB_PAIR,	/* (C, P) pairs: += m * a[j] */
	OB_C,		/* C alone (offsets halved): += w * a[j] */
	OB_C1,		/* C alone, w = 1: += a[j], one multiplication less */
};

/*
 * link_cp[entry j of the class] += m * a[j] (OB_PAIR) or C[entry j] += w *
 * a[j] (OB_C, OB_C1: the array of doubles at base, byte offsets in link_cp
 * halved) over the entries ob[0..len) of the source at byte s (base = link_cp
 * or C): translated eight at a time and used from the register. kind is
 * a constant at every call, so each call compiles to its own loop.
 * freeze() passes m = -(w, x): link_cp + -(w, x) * a is exactly link_cp - (w, x) *
 * a, with one load less.
 *
 * rtab pads every vector to a multiple of eight entries with its last
 * entry again and coefficient 0 (r2c2_rtab_obyte()), so the loop runs
 * to len rounded up and has no scalar tail (and one unpredictable loop
 * exit a class instead of two). The padding adds m * 0 = (-0, -0)
 * (w > 0, x >= 0): y + -0 is y, bit for bit, for every y (+0 included);
 * to C it adds w * 0 = +0, and C is never -0 in pass 1 (+0 plus
 * products of positive numbers): the same.
 */
static inline __attribute__((always_inline)) void
ob_axpy(char *base, const u16 *restrict ob, const double *restrict a, u32 len,
	u16 hi, u16 s, enum ob_kind kind, v2d m, double w)
{
	const v8h vh = (v8h){ 0 } + hi, vl = (v8h){ 0 } + (u16)(s & ~hi);
	const v8h vs = (v8h){ 0 } + s;
	u32 j;

	for (j = 0; j < len; j += 8) {
		const double *aj = a + j;
		unsigned int i, h;
		v8h y;

		__builtin_memcpy(&y, ob + j, sizeof(y));
		y = ((y & ~vh) + vl) ^ ((y ^ vs) & vh);
		if (kind != OB_PAIR)
			y >>= 1;
		/*
		 * the offsets out of the register four at a time (MOVQ, and
		 * MOVZX/SHR on the integer ports) rather than by PEXTRW (two
		 * vector uops an entry, beside MULPD and ADDPD); the
		 * translation itself stays in SSE2 (in a general register,
		 * four at a time, it was slower for pairs and the same time
		 * for 0.9M instructions more for C)
		 */
#pragma GCC unroll 2
		for (h = 0; h < 2; h++) {
			u64 y4 = ((v2u)y)[h];

#pragma GCC unroll 4
			for (i = 0; i < 4; i++) {
				char *p = base + lane16(y4, i);

				if (kind == OB_PAIR)
					rmw_add2((v2d *)p, m * aj[4 * h + i]);
				else
					rmw_add1((double *)p,
						 kind == OB_C1 ? aj[4 * h + i] :
						 w * aj[4 * h + i]);
			}
		}
	}
}

#endif
