/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench.h - small helpers shared by the benchmarks in userspace/bench:
 * clocks in milliseconds, a qsort comparator of doubles, the flow
 * generator's random numbers and links cut out of a topology.
 */
#ifndef R2C2_BENCH_H
#define R2C2_BENCH_H

#include <stdint.h>
#include <string.h>
#include <time.h>

#include "r2c2_alloc.h"

/* wall-clock time (CLOCK_MONOTONIC), in ms */
static inline double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* CPU time of this thread, in ms: not inflated by time spent preempted */
static inline double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* qsort comparator: doubles in ascending order */
static inline int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * State of xr(), one per program; a bench's -S seed is assigned to it.
 * The default is the seed every published number used.
 */
static uint64_t xr_state = 88172645463325252ull;

/*
 * splitmix64: the xorshift64 used before drew correlated (src, dst)
 * pairs - 49 % of 10^5 flows repeated an earlier pair instead of the
 * ~17 % uniform pairs give
 */
static inline uint64_t xr(void)
{
	uint64_t z = (xr_state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* a copy of t's adjacency: R2C2_NLINKS(t->n) entries in each array */
static inline void adj_copy(const struct r2c2_topo *t, u16 *nbr, u8 *nport,
			    double *cap)
{
	size_t nl = R2C2_NLINKS(t->n);

	memcpy(nbr, t->nbr, nl * sizeof(*nbr));
	memcpy(nport, t->nbr_port, nl * sizeof(*nport));
	memcpy(cap, t->cap, nl * sizeof(*cap));
}

/* link l of such a copy (one that exists) cut both ways */
static inline void adj_cut(u16 *nbr, u8 *nport, double *cap, size_t l)
{
	size_t r = (size_t)nbr[l] * R2C2_MAX_PORTS + nport[l];

	nbr[l] = nbr[r] = R2C2_IDX_NONE;
	cap[l] = cap[r] = 0;
	nport[l] = nport[r] = 0;
}

#endif /* R2C2_BENCH_H */
