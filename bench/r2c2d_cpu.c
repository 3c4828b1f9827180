// SPDX-License-Identifier: GPL-2.0
/*
 * r2c2d_cpu - the compute part of r2c2d's rate round, natively (issue 5,
 * "r2c2d CPU at rho = 500 us with 1k and 10k flows in the rack").
 *
 * Does what r2c2d does when the matrix changed between two ticks: the
 * daemon's own matrix code (userspace/r2c2d/matrix.c, linked in) applies
 * the round's flow events, then compute() of main.c (mirrored: the
 * matrix into an r2c2_flow array by mx_alloc_flow(), r2c2_maxmin() with
 * 5 % headroom and the daemon's scratch space, the rates back into the
 * matrix). No netlink,
 * no pushes, no control socket: the in-VM daemon (bench/r2c2d.sh cpu)
 * gives the whole loop.
 *
 *   r2c2d_cpu [-t TOPO] [-f FLOWS] [-k K] [-r ROUNDS] [-R RHO_US] [-p PROTO]
 *	TOPO torus:8x8x8 (default; torus:4x4x4 is the VM's), 10 Gbit/s links;
 *	FLOWS flows in the rack (1000), uniform random pairs, routing PROTO
 *	(rps, r2c2d's default for new flows; dor; vlb; mix = 1/3 each);
 *	each round finishes K flows and starts K new ones (K = 1), so every
 *	round recomputes; ROUNDS (2000) rounds after 50 of warm-up.
 *   Prints per-round thread CPU time (CLOCK_THREAD_CPUTIME_ID: not
 *   inflated by other processes' load) median/p90/p99/mean, and:
 *	cpu_pct_every_round = median / rho: the share of a core when the
 *	    matrix changes between every two ticks (every round computes);
 *	rounds_per_s_at_1.7pct = 0.017 / median: how many recomputations a
 *	    second fit in the paper's 1.7 % of a core.
 *
 * Build (bench/r2c2d.sh native does it):
 *   make -C userspace && cc -O2 -g -std=c11 -D_GNU_SOURCE -I include \
 *	-I include/uapi -I userspace/lib -I userspace/r2c2d \
 *	-o bench/r2c2d_cpu bench/r2c2d_cpu.c userspace/r2c2d/matrix.c \
 *	userspace/libr2c2.a -lm -lpthread
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/types.h>
#include <linux/r2c2.h>

#include "r2c2_alloc.h"
#include "matrix.h"

static uint64_t rnd_state = 0x2545f4914f6cdd1dull;

static uint64_t rnd(void)
{
	uint64_t z = (rnd_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int proto = R2C2_RP_RPS;	/* -1: mix */

static uint16_t *src_of;	/* source of flow id, to finish it */

static void start(struct mx *m, unsigned int n, uint32_t id)
{
	struct mx_evt e = {
		.type = R2C2_FE_START, .id = id, .weight = 1,
		.demand_kbps = R2C2_DEMAND_UNLIMITED,
	};

	e.src = (uint16_t)(rnd() % n);
	do
		e.dst = (uint16_t)(rnd() % n);
	while (e.dst == e.src);
	e.rproto = (uint8_t)(proto < 0 ? rnd() % 3 : (uint64_t)proto);
	src_of[id] = e.src;
	mx_apply(m, &e, 1);
}

int main(int argc, char **argv)
{
	const char *spec = "torus:8x8x8", *pname = "rps";
	unsigned long flows = 1000, k = 1, rounds = 2000, warm = 50, i, j;
	double rho_us = 500, *t, *rate, sum = 0;
	struct r2c2_topo *topo;
	struct r2c2_rtab *rt;
	struct r2c2_ws *ws;
	struct r2c2_flow *af;
	uint32_t *ai, next_id = 1, oldest = 1;
	struct mx m;
	char err[256];
	int opt;

	while ((opt = getopt(argc, argv, "t:f:k:r:R:p:")) != -1) {
		switch (opt) {
		case 't': spec = optarg; break;
		case 'f': flows = strtoul(optarg, NULL, 0); break;
		case 'k': k = strtoul(optarg, NULL, 0); break;
		case 'r': rounds = strtoul(optarg, NULL, 0); break;
		case 'R': rho_us = atof(optarg); break;
		case 'p':
			pname = optarg;
			proto = !strcmp(optarg, "mix") ? -1 : r2c2_parse_rproto(optarg);
			if (proto < -1) {
				fprintf(stderr, "r2c2d_cpu: -p rps|dor|vlb|mix\n");
				return 2;
			}
			break;
		default:
			return 2;
		}
	}
	if (r2c2_topo_parse(&topo, spec, 10e9, err, sizeof(err))) {
		fprintf(stderr, "r2c2d_cpu: %s\n", err);
		return 2;
	}
	if (r2c2_rtab_new(&rt, topo) || !(ws = r2c2_ws_new()) ||
	    mx_init(&m, (uint32_t)(flows + k + 16))) {
		fprintf(stderr, "r2c2d_cpu: out of memory\n");
		return 1;
	}
	af = calloc(flows + k + 16, sizeof(*af));
	ai = calloc(flows + k + 16, sizeof(*ai));
	rate = calloc(flows + k + 16, sizeof(*rate));
	t = calloc(rounds, sizeof(*t));
	src_of = calloc(flows + (warm + rounds) * k + 2, sizeof(*src_of));
	if (!af || !ai || !rate || !t || !src_of)
		return 1;
	for (i = 0; i < flows; i++)
		start(&m, topo->n, next_id++);
	for (i = 0; i < warm + rounds; i++) {
		uint64_t t0 = cpu_ns();
		size_t n = 0;

		/* the round's events: K finishes of the oldest, K starts */
		for (j = 0; j < k; j++) {
			struct mx_evt e = {
				.type = R2C2_FE_FINISH, .src = src_of[oldest],
				.id = oldest,
			};

			oldest++;
			mx_apply(&m, &e, 2);
			start(&m, topo->n, next_id++);
		}
		/* compute() of r2c2d/main.c */
		for (j = 0; j < m.n; j++)
			if (mx_alloc_flow(&m.f[j], topo->n, &af[n]))
				ai[n++] = (uint32_t)j;
		if (r2c2_maxmin(rt, af, n, 0.05, rate, ws)) {
			fprintf(stderr, "r2c2d_cpu: r2c2_maxmin failed\n");
			return 1;
		}
		for (j = 0; j < n; j++)
			m.f[ai[j]].rate = rate[j];
		if (i >= warm)
			t[i - warm] = (double)(cpu_ns() - t0) / 1e3;
	}
	for (i = 0; i < rounds; i++)
		sum += t[i];
	qsort(t, rounds, sizeof(*t), dcmp);
	printf("r2c2d_cpu %s %lu flows %s k %lu rounds %lu: compute_us median %.1f p90 %.1f p99 %.1f mean %.1f; rho %.0f us: cpu_pct_every_round %.1f; rounds_per_s_at_1.7pct %.1f\n",
	       spec, flows, pname, k, rounds, t[rounds / 2],
	       t[(size_t)(0.9 * (double)(rounds - 1))],
	       t[(size_t)(0.99 * (double)(rounds - 1))], sum / (double)rounds,
	       rho_us, 100 * t[rounds / 2] / rho_us,
	       0.017 / (t[rounds / 2] / 1e6));
	mx_fini(&m);
	r2c2_ws_free(ws);
	r2c2_rtab_free(rt);
	r2c2_topo_free(topo);
	free(af);
	free(ai);
	free(rate);
	free(t);
	free(src_of);
	return 0;
}
