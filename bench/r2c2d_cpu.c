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
 *   r2c2d_cpu -e EVENTS_PER_S [-d SECONDS] [-b BUDGET_PCT] [-t ...] [-f ...]
 *	Replay instead: the loop of r2c2d/main.c on a simulated clock for
 *	SECONDS (10) of churn, EVENTS_PER_S flow events a second (Poisson
 *	arrivals of START + FINISH pairs, so the rack keeps FLOWS flows),
 *	a round at most every RHO_US after a change, with cpu_budget
 *	BUDGET_PCT (0: none; struct rc_budget of r2c2d/ratectl.c, linked
 *	in). Each round runs for real; its thread CPU time is what the
 *	clock advances by (the daemon is one thread: while it computes,
 *	events wait); the budget is charged it and the events' handling,
 *	as r2c2d charges all of its main thread's CPU time. Prints the rounds' and
 *	event handling's share of a core in each simulated second (median,
 *	max, mean), the share of the rho intervals in which a round ran
 *	(the paper's per-interval overhead is 0 in the others), and how
 *	long an event waited for the end of the round that included it
 *	(median, p99, max).
 *
 * Build:
 *   make -C userspace && cc -O2 -g -std=c11 -D_GNU_SOURCE -I include \
 *	-I include/uapi -I userspace/lib -I userspace/r2c2d \
 *	-o bench/r2c2d_cpu bench/r2c2d_cpu.c userspace/r2c2d/matrix.c \
 *	userspace/r2c2d/ratectl.c userspace/libr2c2.a -lm -lpthread
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/types.h>
#include <linux/r2c2.h>

#include "r2c2_alloc.h"
#include "matrix.h"
#include "ratectl.h"

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
static const char *spec_g = "torus:8x8x8", *pname_g = "rps";

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

/* what compute() of r2c2d/main.c does; returns its thread CPU time */
struct ctx {
	const struct r2c2_topo *topo;
	struct r2c2_rtab *rt;
	struct r2c2_ws *ws;
	struct r2c2_flow *af;
	uint32_t *ai;
	double *rate;
};

static uint64_t round_cpu(struct mx *m, struct ctx *c)
{
	uint64_t t0 = cpu_ns();
	size_t n = 0, j;

	for (j = 0; j < m->n; j++)
		if (mx_alloc_flow(&m->f[j], c->topo->n, &c->af[n]))
			c->ai[n++] = (uint32_t)j;
	if (r2c2_maxmin(c->rt, c->af, n, 0.05, c->rate, c->ws)) {
		fprintf(stderr, "r2c2d_cpu: r2c2_maxmin failed\n");
		exit(1);
	}
	for (j = 0; j < n; j++)
		m->f[c->ai[j]].rate = c->rate[j];
	return cpu_ns() - t0;
}

/* exponential inter-arrival with mean mean_ns */
static uint64_t expo(double mean_ns)
{
	double u = ((double)(rnd() >> 11) + 0.5) / 9007199254740992.0;

	return (uint64_t)(-log(u) * mean_ns) + 1;
}

/*
 * The replay (-e): r2c2d's loop on a simulated clock. Returns 0 or 1.
 * pending[] holds the arrival times of the events not yet in a round.
 */
static int replay(struct mx *m, struct ctx *c, uint32_t *next_id,
		  uint32_t *oldest, double evps, double secs, double rho_us,
		  double budget)
{
	const uint64_t rho = (uint64_t)(rho_us * 1000), end =
		(uint64_t)(secs * 1e9), sec = 1000000000ull;
	size_t nsec = (size_t)secs + 1, np = 0, cap = 1024, nw = 0, wcap = 1024;
	uint64_t now = 0, next_ev, last_round, rounds = 0, deferred = 0;
	uint64_t *pending = malloc(cap * sizeof(*pending));
	double *busy = calloc(nsec, sizeof(*busy)), *wait =
		malloc(wcap * sizeof(*wait)), tot = 0;
	bool changed = false, waited = false;
	struct rc_budget b;
	size_t i;

	if (!pending || !busy || !wait)
		return 1;
	rc_budget_init(&b, budget / 100, (uint64_t)(budget / 100 * 1e9),
		       1000000000ull, 0);
	last_round = 0 - rho;
	next_ev = expo(2e9 / evps);
	while (now < end) {
		uint64_t due = UINT64_MAX, t, r = 0, q = 0;

		if (changed) {
			r = last_round + rho;
			q = rc_budget_next(&b, now);
			due = r > q ? r : q;
			/* the budget, not rho, makes the round wait */
			if (q > now && q > r)
				waited = true;
		}
		if (next_ev <= due && next_ev < end) {
			/* a START + FINISH pair arrives (and is read at once) */
			struct mx_evt e = {
				.type = R2C2_FE_FINISH, .src = src_of[*oldest],
				.id = *oldest,
			};
			uint64_t c0 = cpu_ns(), dc;

			now = next_ev > now ? next_ev : now;
			(*oldest)++;
			mx_apply(m, &e, 2);
			start(m, c->topo->n, (*next_id)++);
			dc = cpu_ns() - c0;
			rc_budget_charge(&b, dc);	/* as r2c2d does */
			busy[now / sec < nsec ? now / sec : nsec - 1] += (double)dc;
			tot += (double)dc;
			if (np == cap) {
				cap *= 2;
				pending = realloc(pending, cap * sizeof(*pending));
				if (!pending)
					return 1;
			}
			pending[np++] = next_ev;
			changed = true;
			next_ev += expo(2e9 / evps);
			continue;
		}
		if (due >= end)
			break;
		now = due > now ? due : now;
		if (waited)
			deferred++;
		waited = false;
		rc_budget_started(&b, now);
		last_round = now;
		changed = false;
		t = round_cpu(m, c);
		rc_budget_charge(&b, t);
		rounds++;
		busy[now / sec < nsec ? now / sec : nsec - 1] += (double)t;
		tot += (double)t;
		now += t;
		if (nw + np > wcap) {
			while (nw + np > wcap)
				wcap *= 2;
			wait = realloc(wait, wcap * sizeof(*wait));
			if (!wait)
				return 1;
		}
		for (i = 0; i < np; i++)
			wait[nw++] = (double)(now - pending[i]) / 1e3;
		np = 0;
	}
	nsec = (size_t)secs;
	for (i = 0; i < nsec; i++)
		busy[i] = 100 * busy[i] / 1e9;
	qsort(busy, nsec, sizeof(*busy), dcmp);
	qsort(wait, nw, sizeof(*wait), dcmp);
	printf("r2c2d_cpu replay %s %zu flows %s: %.0f events/s for %.0f s, rho %.0f us, cpu_budget %g %%: "
	       "share of a core per second median %.2f %% max %.2f %% mean %.2f %%; rounds %llu (deferred by the budget %llu), in %.1f %% of the rho intervals; "
	       "event to its round's end, us: median %.0f p99 %.0f max %.0f (%zu events)\n",
	       spec_g, (size_t)m->n,
	       pname_g, evps, secs, rho_us, budget, busy[nsec / 2],
	       busy[nsec - 1], 100 * tot / 1e9 / secs,
	       (unsigned long long)rounds, (unsigned long long)deferred,
	       100.0 * (double)rounds * (double)rho / (double)end,
	       nw ? wait[nw / 2] : 0,
	       nw ? wait[(size_t)(0.99 * (double)(nw - 1))] : 0,
	       nw ? wait[nw - 1] : 0, nw);
	free(pending);
	free(busy);
	free(wait);
	return 0;
}

int main(int argc, char **argv)
{
	const char *spec = "torus:8x8x8", *pname = "rps";
	unsigned long flows = 1000, k = 1, rounds = 2000, warm = 50, i, j;
	double rho_us = 500, *t, *rate, sum = 0, evps = 0, secs = 10, budget = 0;
	struct r2c2_topo *topo;
	struct r2c2_rtab *rt;
	struct r2c2_ws *ws;
	struct r2c2_flow *af;
	uint32_t *ai, next_id = 1, oldest = 1;
	struct mx m;
	char err[256];
	int opt;

	while ((opt = getopt(argc, argv, "t:f:k:r:R:p:e:d:b:")) != -1) {
		switch (opt) {
		case 'e': evps = atof(optarg); break;
		case 'd': secs = atof(optarg); break;
		case 'b': budget = atof(optarg); break;
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
	if (evps < 0 || secs < 1 || secs > 3600 || budget < 0 || budget > 100 ||
	    (evps > 0 && evps * secs > 1e8)) {
		fprintf(stderr, "r2c2d_cpu: -e > 0, -d 1..3600, -b 0..100\n");
		return 2;
	}
	spec_g = spec;
	pname_g = pname;
	if (evps > 0) {	/* the replay's ids: 2 events a pair */
		warm = 5;
		rounds = (unsigned long)(evps * secs / 2 * 1.2 + 1000) / k;
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
	if (evps > 0) {
		struct ctx c = {
			.topo = topo, .rt = rt, .ws = ws, .af = af, .ai = ai,
			.rate = rate,
		};

		for (i = 0; i < warm; i++)
			round_cpu(&m, &c);
		return replay(&m, &c, &next_id, &oldest, evps, secs, rho_us,
			      budget);
	}
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
