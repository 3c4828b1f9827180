/* SPDX-License-Identifier: GPL-2.0 */
/* alloc_tap.h - minimal TAP output and helpers for the allocation tests */
#ifndef _ALLOC_TAP_H
#define _ALLOC_TAP_H
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>

static int tap_n, tap_fail;

#define ok(cond, ...) do {						\
	tap_n++;							\
	if (cond) {							\
		printf("ok %d - ", tap_n);				\
	} else {							\
		tap_fail++;						\
		printf("not ok %d - ", tap_n);				\
	}								\
	printf(__VA_ARGS__);						\
	printf("\n");							\
	fflush(stdout);							\
} while (0)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_fail ? 1 : 0;
}

/* xorshift64*: reproducible test randomness */
static inline uint64_t trand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

static inline double tunif(uint64_t *s)
{
	return (double)(trand(s) >> 11) / 9007199254740992.0;
}

static inline unsigned int tbelow(uint64_t *s, unsigned int n)
{
	return (unsigned int)(trand(s) % n);
}
#endif
