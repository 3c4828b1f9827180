/* SPDX-License-Identifier: GPL-2.0 */
/*
 * maxmin_heap.h - the max-min engine's min-heap of links keyed by the
 * level at which each saturates (maxmin.c).
 */
#ifndef _R2C2_MAXMIN_HEAP_H
#define _R2C2_MAXMIN_HEAP_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "rtab_int.h"

/*
 * Only the top is ever removed or re-keyed (see top_fresh()), so the
 * heap holds (key, link) pairs and no position index. h[n] is kept at
 * +inf so that the smaller child is picked without a bounds test (one
 * unpredictable branch less per level).
 */

struct hent {
	double key;
	u32 l;
};

/*
 * a key's bits as a signed integer: the keys are never negative, -0 or
 * NaN (dmax(floor >= +0, P / C) with C > 0; P is never -0: it starts at
 * a capacity >= +0 and only has products added, and x + -x is +0), and
 * for those (+inf included) the integers compare as the doubles do. One
 * integer comparison (1 cycle) instead of COMISD (3) on the path from one
 * level's loads to the next's.
 */
static inline int64_t hkey(const char *p)
{
	int64_t k;

	__builtin_memcpy(&k, p, sizeof(k));
	return k;
}

/*
 * the byte offset of the child of ib with the smaller key (the right one
 * on a tie), 2 ib + 16 or 2 ib + 32, with no branch: GCC branches on a
 * ?: and adds 16 to 2 ib with a LEA before the loads; here the loads
 * scale ib themselves, and the path from one level's loads to the next's
 * is CMP + CMOV
 */
static inline size_t h_child(const char *base, size_t ib)
{
#if defined(__x86_64__)
	size_t cb = 2 * ib + 16, c1 = 2 * ib + 32;
	int64_t k0, k1;

	__asm__("movq 16(%[b],%[i],2), %[k0]\n\t"
		"movq 32(%[b],%[i],2), %[k1]\n\t"
		"cmpq %[k0], %[k1]\n\t"
		"cmovl %[c1], %[cb]"
		: [cb] "+r"(cb), [k0] "=&r"(k0), [k1] "=&r"(k1)
		: [b] "r"(base), [i] "r"(ib), [c1] "r"(c1),
		  "m"(*(const char (*)[32])(base + 2 * ib + 16))
		: "cc");
	return cb;
#else
	size_t cb = 2 * ib + 16;

	return cb + ((size_t)(hkey(base + cb + 16) < hkey(base + cb)) << 4);
#endif
}

static void h_sift(struct hent *h, u32 n, u32 i)
{
	_Static_assert(sizeof(struct hent) == 16, "hent byte offsets");
	_Static_assert(offsetof(struct hent, key) == 0, "hent key first");
	char *base = (char *)h;
	const size_t nb = (size_t)n * 16;
	struct hent x = h[i];
	const int64_t xk = hkey((const char *)&x.key);
	size_t ib = (size_t)i * 16, cb;

	/*
	 * byte offsets (fewer instructions a level): child of ib at 2 ib +
	 * 16. The lower levels are out of L1 after the entry passes, and each
	 * level's loads wait for the level above: prefetch the grandchildren
	 * (4 ib + 48 .. 4 ib + 111, one or two lines) a level ahead.
	 */
	for (;;) {
		cb = 2 * ib + 16;
		if (cb >= nb)
			break;
		__builtin_prefetch(base + 4 * ib + 48);
		__builtin_prefetch(base + 4 * ib + 111);
		cb = h_child(base, ib);
		if (!(hkey(base + cb) < xk))
			break;
		*(struct hent *)(base + ib) = *(struct hent *)(base + cb);
		ib = cb;
	}
	*(struct hent *)(base + ib) = x;
}

static void h_heapify(struct hent *h, u32 n)
{
	u32 i;

	h[n].key = INFINITY;
	for (i = n / 2 + 1; i-- > 0;)
		h_sift(h, n, i);
}

static void h_pop(struct hent *h, u32 *n)
{
	if (--*n) {
		h[0] = h[*n];
		h[*n].key = INFINITY;
		h_sift(h, *n, 0);
	}
}

#endif
