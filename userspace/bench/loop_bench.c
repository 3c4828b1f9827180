// SPDX-License-Identifier: GPL-2.0
/*
 * loop_bench.c - r2c2d's loop under churn, natively: how long the loop
 * is held (its longest iteration), how long a flow event waits for the
 * round that includes it, and the daemon's CPU, with rounds solved in
 * the loop or in its worker (round_worker_us).
 *
 * usage: loop_bench [-t TOPO] [-f FLOWS] [-e EVENTS_PER_S] [-d SECONDS]
 *                   [-w ROUND_WORKER_US] [-p rps|dor|vlb|mix] [-P POLICY]
 *                   [-S SEED] [-x] [-g] [-G]
 *
 * The daemon is r2c2d's own main.c, with the kernel faked as in
 * tests/r2c2d_main_test.c (fuzz/fuzz_daemon.h): node 0 of TOPO
 * (torus:8x8x8), rho 500 us, rounds = always (every change computed,
 * as on a node that sends), no digests, refreshes or expiry in the
 * window, round_worker_us as given (1000; 0: every round in the worker;
 * 60000000: every round in the loop), policy POLICY (maxmin; propfair).
 * FLOWS (10^4) flows of uniform
 * random pairs, weight 1, routing PROTO (rps), are in the matrix; then
 * for SECONDS (10) of real time, flow events arrive at EVENTS_PER_S
 * (200; Poisson; FINISH of a random flow and START of a new one,
 * alternately) and are applied as the daemon's event socket would
 * (on_event()). Between events this program does what r2c2d's main()
 * does: tick() when next_deadline() is due, poll() on the worker's
 * eventfd and round_collect() when it is readable.
 *
 * Prints the loop's iterations (an event applied, a tick, a collect:
 * each one the loop is busy with and cannot hear anything else) as
 * median, p99 and max in ms, and the longest of each kind; each event's wait until the rates of a
 * matrix that includes it were applied (median, p99, max, ms); the
 * rounds (in the loop, in the worker); and the process's CPU time
 * (getrusage: every thread's) as a share of one core.
 *
 * -x: a link fails before the window: after the first round, one link
 * of TOPO is cut both ways and the graph's tables are swapped in as
 * r2c2d's topology following does (tables_swap(), in the loop: its time
 * is printed), so the window's first round prepares every flow's pair
 * again (its snapshot is in the first "snapshot" and the loop's longest
 * iteration).
 *
 * -g: a route search's turn before the window and another after it
 * (select.c's route_select(), every flow long): prints how long the
 * loop's part took (the search's snapshot: every chunk of the view the
 * first time, those the window's events changed the second) and the
 * worker's (its pairs and the search, waited for).
 *
 * -G: a route search's turn at the window's start, every flow long, left
 * to its worker as r2c2d leaves it: the loop polls the search's eventfd
 * too and collects it (route_collect()), and rounds go on meanwhile as
 * the daemon lets them. Prints when the search ended; the events' waits
 * above include what it held them. With -x every pair is new to the
 * window's first round and to the search alike.
 */
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "../fuzz/fuzz_daemon.h"
#include "bench.h"

/*
 * The tables of d's topology without its first link (both ways), built
 * as r2c2d's topology following builds them and swapped in; the matrix
 * changes with them (a round is due). 0 or -1.
 */
static int cut_one(struct r2c2d *d)
{
	const struct r2c2_topo *t = d->topo;
	size_t nl = R2C2_NLINKS(t->n), l;
	u16 *nbr = malloc(nl * sizeof(*nbr));
	u8 *nport = malloc(nl * sizeof(*nport));
	double *cap = malloc(nl * sizeof(*cap));
	struct tb_out o;
	double t0;

	if (!nbr || !nport || !cap) {
		free(nbr);
		free(nport);
		free(cap);
		return -1;
	}
	adj_copy(t, nbr, nport, cap);
	for (l = 0; l < nl && nbr[l] == R2C2_IDX_NONE; l++)
		;
	if (l == nl) {
		free(nbr);
		free(nport);
		free(cap);
		return -1;
	}
	adj_cut(nbr, nport, cap, l);
	/* tb_build() frees the three arrays */
	if (tb_build(NULL, nbr, nport, cap, t->n,
		     d->conf.policy == R2C2_POL_PROPFAIR, &o))
		return -1;
	/* what the torus's legs need, as the build's worker takes it (tb_start()) */
	r2c2_rtab_carry(o.rt, d->rt);
	t0 = now_ms();
	tables_swap(d, &o);
	printf("  table swap (in the loop, before the window): %.3f ms\n",
	       now_ms() - t0);
	d->mx.gen++;
	return 0;
}

/* -g: one route search, as route_select() starts it on its turn */
static void search_once(struct r2c2d *d, const char *when)
{
	struct rs_params p = route_params(d);
	struct rs_decision dec = { 0 };
	double t0, t1, part, loop = 0, worst = 0;
	int r;

	p.long_ns = 0;		/* every flow may change protocol */
	/* one call a loop iteration, MX_COPY_STEP chunks at most each */
	do {
		t0 = now_ms();
		r = rs_prepare(&d->rs, &d->mx, d->topo->n, r2c2d_now(), &p);
		part = now_ms() - t0;
		loop += part;
		worst = part > worst ? part : worst;
	} while (r == -EAGAIN);
	t1 = now_ms();
	if (r > 0 && rs_start(&d->rs, d->rt) == 0)
		rs_finish(&d->rs, true, &dec);
	printf("  route search %s: the loop's part %.3f ms in %u calls, the longest %.3f ms (%u chunks of %d copied), the worker's %.3f ms (%u long flows, %u generations, %lu evaluations)\n",
	       when, loop, d->rs.dec.copy_steps, worst, dec.chunks, MX_CHUNK,
	       now_ms() - t1, dec.long_flows, dec.generations,
	       dec.evaluations);
}

/*
 * -G: a route search's turn, started as route_select() starts it and
 * left to its worker. 0 or -1.
 */
static int search_start(struct r2c2d *d)
{
	struct rs_params p = route_params(d);
	int r;

	p.long_ns = 0;		/* every flow may change protocol */
	while ((r = rs_prepare(&d->rs, &d->mx, d->topo->n, r2c2d_now(),
			       &p)) == -EAGAIN)
		;
	if (r <= 0 || rs_start(&d->rs, d->rt)) {
		fprintf(stderr, "loop_bench: -G: no search (%d)\n", r);
		return -1;
	}
	return 0;
}

static double proc_cpu_ms(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

static double pct(double *v, size_t n, double q)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmpd);
	return v[(size_t)(q * (double)(n - 1))];
}

struct ev {
	uint64_t gen;	/* the matrix gen after it was applied */
	double at;	/* when it arrived, ms */
};

static uint8_t proto(const char *p)
{
	if (!strcmp(p, "mix"))
		return (uint8_t)(xr() % 3);
	return !strcmp(p, "dor") ? R2C2_RP_DOR :
	       !strcmp(p, "vlb") ? R2C2_RP_VLB : R2C2_RP_RPS;
}

int main(int argc, char **argv)
{
	static struct r2c2d d;
	const char *topo = "torus:8x8x8", *pr = "rps", *pol = "maxmin";
	double rate = 200, secs = 10, t0, tend, next_ev, c0, c1;
	double *it, *wait;
	size_t nit = 0, nwait = 0, cap_it = 1 << 20, head = 0, nev = 0;
	unsigned long flows = 10000, worker_us = 1000;
	uint32_t next_id = 1, n;
	uint64_t rounds0, off0;
	struct ev *evs;
	char conf[320];
	bool finish = true, cut = false, search = false, during = false;
	double search_end = NAN;
	double kmax[3] = { 0 };	/* longest event, tick, collect */
	double cmax = 0, cs;	/* longest iteration in the loop's CPU time */
	double *prep;		/* each snapshot of a round in the worker */
	size_t nprep = 0;
	int opt;

	while ((opt = getopt(argc, argv, "t:f:e:d:w:p:P:S:xgG")) != -1) {
		switch (opt) {
		case 't': topo = optarg; break;
		case 'f': flows = strtoul(optarg, NULL, 0); break;
		case 'e': rate = atof(optarg); break;
		case 'd': secs = atof(optarg); break;
		case 'w': worker_us = strtoul(optarg, NULL, 0); break;
		case 'p': pr = optarg; break;
		case 'P': pol = optarg; break;
		case 'S': xr_state = strtoull(optarg, NULL, 0); break;
		case 'x': cut = true; break;
		case 'g': search = true; break;
		case 'G': during = true; break;
		default:
			fprintf(stderr, "usage: loop_bench [-t TOPO] [-f FLOWS] [-e EVENTS_PER_S] [-d SECONDS] [-w ROUND_WORKER_US] [-p rps|dor|vlb|mix] [-P maxmin|propfair] [-S SEED] [-x] [-g] [-G]\n");
			return 2;
		}
	}
	snprintf(conf, sizeof(conf),
		 "warmup_ms=0;digest_ms=0;rounds=always;round_worker_us=%lu;"
		 "refresh_ms=3600000;expire_ms=36000000;lease_refresh_ms=0;"
		 "demand_interval_ms=60000;max_flows=16777216;"
		 "max_flows_per_src=16777216;policy=%s", worker_us, pol);
	fuzz_daemon_init(&d, 0, topo, conf);
	n = d.topo->n;
	for (unsigned long i = 0; i < flows; i++) {
		struct mx_evt e = {
			.type = R2C2_FE_START, .id = next_id++, .weight = 1,
			.demand_kbps = R2C2_DEMAND_UNLIMITED,
		};

		e.src = (uint16_t)(1 + xr() % (n - 1));
		do
			e.dst = (uint16_t)(xr() % n);
		while (e.dst == e.src);
		e.rproto = proto(pr);
		mx_apply(&d.mx, &e, r2c2d_now());
	}
	compute(&d);	/* the first round, in the loop; tables warm */
	d.computed_gen = d.mx.gen;
	if (cut && cut_one(&d)) {
		fprintf(stderr, "loop_bench: -x: no graph without a link of %s\n",
			topo);
		return 1;
	}
	if (search)
		search_once(&d, "before the window");
	it = malloc(cap_it * sizeof(*it));
	wait = malloc(cap_it * sizeof(*wait));
	evs = malloc(cap_it * sizeof(*evs));
	prep = malloc(cap_it * sizeof(*prep));
	rounds0 = d.t.rounds;
	off0 = d.rd.off_loop;
	c0 = proc_cpu_ms();
	t0 = now_ms();
	tend = t0 + secs * 1e3;
	next_ev = t0 - log(1 - (double)(xr() % 1000000) / 1e6) * 1e3 / rate;
	if (during && search_start(&d))
		return 1;
	while (now_ms() < tend && nit < cap_it && nev < cap_it) {
		uint64_t now = r2c2d_now(), dl = next_deadline(&d, now);
		double t = now_ms(), start, until;
		struct pollfd p[2] = {
			{ .fd = rd_fd(&d.rd), .events = POLLIN },
			{ .fd = rs_fd(&d.rs), .events = POLLIN },
		};
		int to;

		if (t >= next_ev) {
			struct mx_evt e = {
				.weight = 1,
				.demand_kbps = R2C2_DEMAND_UNLIMITED,
			};
			struct mx_flow *f;

			start = now_ms();
			cs = cpu_ms();
			if (finish && d.mx.n) {
				f = &d.mx.f[xr() % d.mx.n];
				e.type = R2C2_FE_FINISH;
				e.src = f->src;
				e.id = f->id;
				e.dst = f->dst;
			} else {
				e.type = R2C2_FE_START;
				e.id = next_id++;
				e.src = (uint16_t)(1 + xr() % (n - 1));
				do
					e.dst = (uint16_t)(xr() % n);
				while (e.dst == e.src);
				e.rproto = proto(pr);
			}
			finish = !finish;
			on_event(&d, &e);
			evs[nev].gen = d.mx.gen;
			evs[nev++].at = next_ev;
			it[nit] = now_ms() - start;
			kmax[0] = fmax(kmax[0], it[nit++]);
			cmax = fmax(cmax, cpu_ms() - cs);
			next_ev -= log(1 - (double)(xr() % 1000000) / 1e6) *
				   1e3 / rate;
			continue;
		}
		if (dl <= now) {
			uint64_t started = d.rd.off_loop;

			start = now_ms();
			cs = cpu_ms();
			tick(&d);
			it[nit] = now_ms() - start;
			/* a round this tick sent to the worker */
			if (d.rd.off_loop != started && nprep < cap_it)
				prep[nprep++] = (double)d.rd_prep_ns / 1e6;
			kmax[1] = fmax(kmax[1], it[nit++]);
			cmax = fmax(cmax, cpu_ms() - cs);
		} else {
			until = fmin(next_ev, t + (double)(dl - now) / 1e6);
			to = (int)ceil(until - t);
			if (poll(p, 2, to) > 0) {
				start = now_ms();
				cs = cpu_ms();
				if (p[1].revents)
					route_collect(&d, false);
				if (p[0].revents)
					round_collect(&d, false);
				it[nit] = now_ms() - start;
				kmax[2] = fmax(kmax[2], it[nit++]);
				cmax = fmax(cmax, cpu_ms() - cs);
				if (p[1].revents && isnan(search_end) &&
				    !rs_busy(&d.rs))
					search_end = now_ms() - t0;
			}
		}
		/* the events whose matrix has its rates now */
		while (head < nev && evs[head].gen <= d.t.applied_gen)
			wait[nwait++] = now_ms() - evs[head++].at;
	}
	c1 = proc_cpu_ms();
	tend = now_ms();
	if (rd_busy(&d.rd))
		round_collect(&d, true);
	if (rs_busy(&d.rs))
		route_collect(&d, true);
	printf("loop_bench %s flows %lu events/s %.0f seconds %.1f round_worker_us %lu proto %s policy %s\n",
	       topo, flows, rate, (tend - t0) / 1e3, worker_us, pr, pol);
	printf("  events %zu, rounds %llu (in the worker %llu), solve last %.2f ms\n",
	       nev, (unsigned long long)(d.t.rounds - rounds0),
	       (unsigned long long)(d.rd.off_loop - off0),
	       (double)d.rd.ns / 1e6);
	printf("  loop iteration ms: median %.3f p99 %.3f max %.3f (%zu)\n",
	       pct(it, nit, 0.5), pct(it, nit, 0.99), pct(it, nit, 1), nit);
	printf("  longest: event %.3f tick %.3f collect %.3f ms; in the loop's CPU time %.3f ms\n",
	       kmax[0], kmax[1], kmax[2], cmax);
	printf("  snapshot ms: median %.3f p99 %.3f max %.3f (%zu)\n",
	       pct(prep, nprep, 0.5), pct(prep, nprep, 0.99),
	       pct(prep, nprep, 1), nprep);
	printf("  event -> its rates applied ms: median %.3f p99 %.3f max %.3f (%zu of %zu)\n",
	       pct(wait, nwait, 0.5), pct(wait, nwait, 0.99),
	       pct(wait, nwait, 1), nwait, nev);
	printf("  cpu: %.1f %% of a core (every thread)\n",
	       100 * (c1 - c0) / (tend - t0));
	if (during)
		printf("  route search in the window: over at %.1f ms, the worker's %.1f ms (%u long flows, %lu evaluations)\n",
		       search_end, (double)d.rs.last.duration_ns / 1e6,
		       d.rs.last.long_flows, d.rs.last.evaluations);
	if (search)
		search_once(&d, "after the window");
	free(it);
	free(wait);
	free(prep);
	free(evs);
	rd_fini(&d.rd);
	return 0;
}
