// SPDX-License-Identifier: GPL-2.0
/*
 * r2c2d_matrix_test.c - r2c2d's traffic matrix, rate-loop arithmetic and
 * configuration file, driven by synthetic event sequences (TAP).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../r2c2d/matrix.c"
#include "../r2c2d/ratectl.c"
#include "../r2c2d/conf.c"
#include "alloc_tap.h"

#define MS 1000000ull

static struct mx_evt ev(uint8_t type, uint16_t src, uint32_t id, uint16_t dst)
{
	struct mx_evt e = {
		.type = type, .src = src, .id = id, .dst = dst, .weight = 1,
		.demand_kbps = R2C2_DEMAND_UNLIMITED,
	};
	return e;
}

/* the matrix agrees with a brute-force model after random events */
static void matrix__random_vs_model(void)
{
	enum { S = 4, I = 64 };
	static bool live[S][I];
	static uint16_t dst[S][I];
	uint64_t seed = 42, now = 0;
	struct mx m;
	int k, s, i, bad = 0, n;

	mx_init(&m, 0);
	for (k = 0; k < 20000; k++) {
		struct mx_evt e;
		uint8_t t = (uint8_t)(1 + tbelow(&seed, 4));

		s = (int)tbelow(&seed, S);
		i = (int)tbelow(&seed, I);
		e = ev(t, (uint16_t)s, (uint32_t)i * 7919u,
		       (uint16_t)(S + tbelow(&seed, 3)));
		mx_apply(&m, &e, ++now);
		if (t == R2C2_FE_FINISH) {
			live[s][i] = false;
		} else {
			live[s][i] = true;
			dst[s][i] = e.dst;
		}
	}
	n = 0;
	for (s = 0; s < S; s++)
		for (i = 0; i < I; i++) {
			uint32_t x = mx_find(&m, (uint16_t)s, (uint32_t)i * 7919u);

			if (live[s][i]) {
				n++;
				if (x == MX_NONE || m.f[x].dst != dst[s][i])
					bad++;
			} else if (x != MX_NONE) {
				bad++;
			}
		}
	ok(!bad && (uint32_t)n == m.n,
	   "matrix__random_vs_model: %u flows, %d mismatches", m.n, bad);
	mx_fini(&m);
}

static void matrix__start_finish(void)
{
	struct mx m;
	struct mx_evt e = ev(R2C2_FE_START, 1, 10, 2);
	uint64_t g;

	mx_init(&m, 0);
	ok(mx_apply(&m, &e, 1) == 1 && m.n == 1, "start adds a flow");
	g = m.gen;
	ok(mx_apply(&m, &e, 2) == 0 && m.n == 1 && m.gen == g &&
	   m.st.dup_starts == 1 && m.f[0].refresh_ns == 2,
	   "duplicate start: no change, counted, refreshed");
	e.type = R2C2_FE_FINISH;
	ok(mx_apply(&m, &e, 3) == 1 && m.n == 0, "finish removes it");
	ok(mx_apply(&m, &e, 4) == 0 && m.st.unknown_finishes == 1,
	   "finish of an unknown flow: no change, counted");
	mx_fini(&m);
}

static void matrix__update_refresh(void)
{
	struct mx m;
	struct mx_evt e = ev(R2C2_FE_REFRESH, 3, 99, 4);
	uint64_t g;

	mx_init(&m, 0);
	ok(mx_apply(&m, &e, 5) == 1 && m.n == 1 && m.st.implicit_starts == 1,
	   "refresh of an unknown flow learns it (lost start)");
	g = m.gen;
	ok(mx_apply(&m, &e, 6) == 0 && m.gen == g && m.f[0].refresh_ns == 6 &&
	   m.f[0].born_ns == 5, "refresh: no change, timestamp moves");
	e.type = R2C2_FE_UPDATE;
	e.weight = 4;
	e.demand_kbps = 1000;
	ok(mx_apply(&m, &e, 7) == 1 && m.gen != g && m.f[0].weight == 4 &&
	   m.f[0].demand_kbps == 1000, "update changes weight and demand");
	e.rproto = R2C2_RP_VLB;
	ok(mx_apply(&m, &e, 8) == 1 && m.f[0].rproto == R2C2_RP_VLB,
	   "update changes routing");
	mx_fini(&m);
}

static void matrix__invalid(void)
{
	struct mx m;
	struct mx_evt e = ev(R2C2_FE_START, 3, 1, 3);

	mx_init(&m, 0);
	ok(mx_apply(&m, &e, 1) == -EINVAL, "src == dst rejected");
	e.dst = 4;
	e.weight = 0;
	ok(mx_apply(&m, &e, 1) == -EINVAL, "weight 0 rejected");
	e.weight = 1;
	e.type = 9;
	ok(mx_apply(&m, &e, 1) == -EINVAL, "unknown event type rejected");
	e.type = R2C2_FE_START;
	e.rproto = 7;
	ok(mx_apply(&m, &e, 1) == -EINVAL && m.n == 0 && m.st.invalid == 4,
	   "bad rproto rejected, nothing learnt");
	mx_fini(&m);
	mx_init(&m, 2);
	e.rproto = 0;
	mx_apply(&m, &e, 1);
	e.id = 2;
	mx_apply(&m, &e, 1);
	e.id = 3;
	ok(mx_apply(&m, &e, 1) == -ENOSPC && m.n == 2, "max_flows enforced");
	mx_fini(&m);
}

static void matrix__expiry(void)
{
	struct mx m;
	struct mx_evt e;
	uint32_t i;

	mx_init(&m, 0);
	for (i = 0; i < 1000; i++) {
		e = ev(R2C2_FE_START, (uint16_t)(i % 7), i, 9);
		mx_apply(&m, &e, i % 2 ? 100 * MS : 1000 * MS);
	}
	ok(mx_expire(&m, 1100 * MS, 500 * MS, -1) == 500 && m.n == 500 &&
	   m.st.expired == 500, "stale half expires");
	for (i = 0; i < 1000; i++)
		if ((mx_find(&m, (uint16_t)(i % 7), i) != MX_NONE) != !(i % 2))
			break;
	ok(i == 1000, "exactly the refreshed flows remain, all findable");
	ok(mx_expire(&m, 1400 * MS, 500 * MS, -1) == 0, "fresh flows stay");
	ok(mx_expire(&m, 1600 * MS, 500 * MS, 3) == 500 - 71 && m.n == 71,
	   "the kept source's flows stay");
	ok(mx_expire(&m, 1600 * MS, 500 * MS, -1) == 71 && m.n == 0,
	   "a crashed node's flows go after the ttl");
	mx_fini(&m);
}

static void matrix__resync(void)
{
	struct mx m;
	struct mx_evt e;
	uint32_t i;

	mx_init(&m, 0);
	for (i = 0; i < 10; i++) {
		e = ev(R2C2_FE_START, 5, i, 6);
		mx_apply(&m, &e, 1);
		e.src = 7;
		mx_apply(&m, &e, 1);
	}
	/* a dump of node 5's flows lists 0..4 and a new one, 42 */
	mx_resync_begin(&m, 5);
	for (i = 0; i < 5; i++) {
		e = ev(R2C2_FE_REFRESH, 5, i, 6);
		mx_apply(&m, &e, 2);
	}
	e = ev(R2C2_FE_REFRESH, 5, 42, 6);
	mx_apply(&m, &e, 2);
	ok(mx_resync_end(&m, 5) == 5 && m.n == 16 &&
	   mx_find(&m, 5, 42) != MX_NONE && mx_find(&m, 5, 7) == MX_NONE &&
	   mx_find(&m, 7, 7) != MX_NONE,
	   "resync: unlisted own flows removed, new ones added, others kept");
	mx_fini(&m);
}

/* ---- rate loop ---- */

struct sent { size_t calls, total, biggest; };

static int flush_rec(const uint32_t *id, const uint64_t *rate, size_t n,
		     void *arg)
{
	struct sent *s = arg;

	(void)id;
	(void)rate;
	s->calls++;
	s->total += n;
	if (n > s->biggest)
		s->biggest = n;
	return 0;
}

static void rate__should_push(void)
{
	ok(rc_should_push(1e6, 0, 0, 10, 0.05, 0), "never pushed: push");
	ok(!rc_should_push(1.04e6, 1e6, 0, 10, 0.05, 0), "4%% change: keep");
	ok(rc_should_push(1.06e6, 1e6, 0, 10, 0.05, 0), "6%% change: push");
	ok(rc_should_push(0.94e6, 1e6, 0, 10, 0.05, 0), "-6%% change: push");
	ok(!rc_should_push(1e6, 1e6, 0, 999 * MS, 0.05, 1000 * MS) &&
	   rc_should_push(1e6, 1e6, 0, 1000 * MS, 0.05, 1000 * MS),
	   "unchanged rate re-pushed when the lease refresh is due");
}

static void rate__batch(void)
{
	struct sent s = { 0 };
	struct rc_batch b;
	uint32_t i;

	rc_batch_init(&b, 4096, flush_rec, &s);
	for (i = 0; i < 10000; i++)
		rc_batch_add(&b, i, 1e6);
	rc_batch_flush(&b);
	ok(s.calls == 3 && s.total == 10000 && s.biggest == 4096 &&
	   b.batches == 3 && b.entries == 10000,
	   "10000 rates go in 3 batches of at most 4096");
	rc_batch_flush(&b);
	ok(s.calls == 3, "empty flush sends nothing");
	rc_batch_add(&b, 1, 1);
	rc_batch_add(&b, 2, 1e15);
	ok(b.rate[0] == R2C2_RATE_MIN && b.rate[1] == R2C2_RATE_MAX,
	   "rates clamped to the ABI range");
	rc_batch_fini(&b);
}

static void rate__demand(void)
{
	struct rc_dem d = { 0 };
	double e;
	int i;

	ok(rc_demand_sample(&d, 0, 0, 1 * MS, 0.5) < 0, "first sample: none");
	/* 10 ms, 12500 bytes = 10 Mbit/s, no backlog */
	e = rc_demand_sample(&d, 12500, 0, 11 * MS, 0.5);
	ok(e > 9.99e6 && e < 10.01e6, "r alone: %.0f", e);
	/* now 10 Mbit/s plus 12500 bytes queued: d = 20 Mbit/s, EWMA 15 */
	e = rc_demand_sample(&d, 25000, 12500, 21 * MS, 0.5);
	ok(e > 14.99e6 && e < 15.01e6, "r + q/T smoothed: %.0f", e);
	for (i = 0; i < 40; i++)
		e = rc_demand_sample(&d, 25000 + (uint64_t)(i + 1) * 12500,
				     12500, (uint64_t)(31 + 10 * i) * MS, 0.5);
	ok(e > 19.9e6 && e < 20.1e6, "converges to r + q/T: %.0f", e);
	ok(rc_demand_sample(&d, 10, 0, 500 * MS, 0.5) < 0,
	   "counter went back: restart");
}

static void rate__announce(void)
{
	uint32_t U = R2C2_DEMAND_UNLIMITED, k;

	k = rc_demand_announce(5e6, 25e6, U, 0.8, 0.95, 0.1);
	ok(k == 5500, "host-limited flow announces est*1.1: %u", k);
	ok(rc_demand_announce(5.2e6, 25e6, 5500, 0.8, 0.95, 0.1) == 5500,
	   "small change: no new announcement");
	ok(rc_demand_announce(3e6, 25e6, 5500, 0.8, 0.95, 0.1) == 3300,
	   "big drop: announced");
	ok(rc_demand_announce(5.4e6, 5.5e6, 5500, 0.8, 0.95, 0.1) == U,
	   "using its whole allocation again: unlimited");
	ok(rc_demand_announce(22e6, 25e6, U, 0.8, 0.95, 0.1) == U,
	   "between the bounds: unchanged");
	ok(rc_demand_announce(-1, 25e6, 77, 0.8, 0.95, 0.1) == 77,
	   "no estimate: unchanged");
}

/* ---- configuration ---- */

static void conf__file(void)
{
	char path[] = "/tmp/r2c2d_conf_XXXXXX", err[256] = "";
	struct r2c2d_conf c;
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	fputs("# r2c2d\nrho_us = 250\n  policy=propfair  # comment\n"
	      "link_capacity = 50M\ntopology = torus:3x3\n", f);
	fclose(f);
	conf_defaults(&c);
	ok(!conf_load(&c, path, err, sizeof(err)) && c.rho_us == 250 &&
	   c.policy == R2C2_POL_PROPFAIR && c.link_capacity == 50e6 &&
	   !strcmp(c.topology, "torus:3x3"), "file parsed (%s)", err);
	f = fopen(path, "w");
	fputs("rho_us = 250\n\nbogus = 1\n", f);
	fclose(f);
	ok(conf_load(&c, path, err, sizeof(err)) == -EINVAL &&
	   strstr(err, ":3: unknown key 'bogus'"), "error names the line: %s",
	   err);
	f = fopen(path, "w");
	fputs("headroom = 0.9\n", f);
	fclose(f);
	ok(conf_load(&c, path, err, sizeof(err)) == -EINVAL &&
	   strstr(err, ":1: bad value '0.9' for headroom"), "range: %s", err);
	f = fopen(path, "w");
	fputs("rho_us 250\n", f);
	fclose(f);
	ok(conf_load(&c, path, err, sizeof(err)) == -EINVAL &&
	   strstr(err, ":1: expected"), "syntax: %s", err);
	unlink(path);
}

int main(void)
{
	matrix__start_finish();
	matrix__update_refresh();
	matrix__invalid();
	matrix__expiry();
	matrix__resync();
	matrix__random_vs_model();
	rate__should_push();
	rate__batch();
	rate__demand();
	rate__announce();
	conf__file();
	return tap_done();
}
