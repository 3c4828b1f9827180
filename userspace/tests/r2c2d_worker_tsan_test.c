// SPDX-License-Identifier: GPL-2.0
/*
 * r2c2d_worker_tsan_test.c - r2c2d's route search in a worker thread
 * (routesel.c: rs_prepare, rs_start, rs_finish), built with
 * ThreadSanitizer (TAP). While the worker searches, this thread does what
 * the rate loop does meanwhile: flow events change (and reallocate) the
 * matrix, max-min runs on the same routing tables, ROUTES are heard and
 * turns checked. TSan reports any access the two threads share without
 * synchronisation; the result must be the synchronous search's. On a
 * graph the worker prepares the pairs first, and this thread reads the
 * tables only once it has (rs_tables_busy()).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../r2c2d/matrix.c"
#include "../r2c2d/worker.c"
#include "../r2c2d/routesel.c"
#include "alloc_tap.h"

#define MS 1000000ull
#define SEC 1000000000ull

static struct mx_evt ev(uint8_t type, uint16_t src, uint32_t id, uint16_t dst,
			uint8_t rproto)
{
	struct mx_evt e = {
		.type = type, .src = src, .id = id, .dst = dst,
		.weight = 1, .rproto = rproto,
		.demand_kbps = R2C2_DEMAND_UNLIMITED,
	};
	return e;
}

static void params(struct rs_params *p)
{
	memset(p, 0, sizeof(*p));
	p->long_ns = 1 * SEC;
	p->margin = 0.02;
	p->threads = 2;		/* the GA's own evaluators too */
	p->seed = 11;
	p->budget_ms = 0;	/* no budget: the same result every time */
	p->utility = R2C2_UTIL_SUM;
	p->policy = R2C2_POL_MAXMIN;
	p->headroom = 0.05;
	p->protos = 1u << R2C2_RP_RPS | 1u << R2C2_RP_DOR | 1u << R2C2_RP_VLB;
}

/* 16 flows on DOR into a few hot destinations of a 4x4 torus */
static void fill(struct mx *m)
{
	uint64_t seed = 5;

	for (uint32_t i = 0; i < 16; i++) {
		uint16_t src = (uint16_t)tbelow(&seed, 16);
		uint16_t dst = (uint16_t)((src + 1 + tbelow(&seed, 3)) % 16);
		struct mx_evt e = ev(R2C2_FE_START, src, 100 + i, dst,
				     R2C2_RP_DOR);

		mx_apply(m, &e, 0);
	}
}

static void worker__vs_sync(void)
{
	struct r2c2_topo *t = NULL;
	struct r2c2_rtab *rt = NULL;
	struct r2c2_ws *ws = r2c2_ws_new();
	struct rs_decision sync_dec, dec;
	static struct rs_ent sync_ent[64];
	struct rs_params p;
	struct mx m, ref;
	struct rs s, s2;
	size_t sync_n;
	int r, rounds = 0, same = 1, readable = 0;
	uint64_t seed = 9, now = 2 * SEC;
	char err[128];

	ok(r2c2_topo_parse(&t, "torus:4x4", 100e6, err, sizeof(err)) == 0 &&
	   r2c2_rtab_new(&rt, t) == 0 && ws, "4x4 torus, 100 Mbit/s links");
	mx_init(&m, 0);
	mx_init(&ref, 0);
	fill(&m);
	fill(&ref);
	params(&p);

	/* the reference: the same search, synchronously */
	rs_init(&s2);
	r = rs_select(&s2, &ref, rt, t->n, now, &p, &sync_dec);
	sync_n = s2.nent;
	memcpy(sync_ent, s2.ent, sync_n * sizeof(*sync_ent));
	ok(r > 0 && sync_dec.adopted, "synchronous search changes %d flows", r);

	rs_init(&s);
	ok(rs_finish(&s, false, &dec) == -ECHILD && rs_fd(&s) == -1 &&
	   !rs_busy(&s), "no worker: nothing to collect, no fd");
	r = rs_prepare(&s, &m, t->n, now, &p);
	ok(r == 16 && s.vn == 16, "snapshot of 16 flows (%d)", r);
	ok(rs_start(&s, rt) == 0 && rs_busy(&s) && rs_fd(&s) >= 0,
	   "worker started");
	ok(rs_start(&s, rt) == -EBUSY, "a second start while it runs: EBUSY");

	/* the loop goes on meanwhile */
	while ((r = rs_finish(&s, false, &dec)) == -EAGAIN) {
		struct pollfd pf = { .fd = rs_fd(&s), .events = POLLIN };
		uint32_t id = 1000 + (uint32_t)tbelow(&seed, 400);
		uint16_t src = (uint16_t)tbelow(&seed, 16);
		struct mx_evt e = ev(R2C2_FE_START, src, id,
				     (uint16_t)((src + 5) % 16), R2C2_RP_RPS);
		double rate[512];
		struct r2c2_flow f[512];
		uint32_t k;

		mx_apply(&m, &e, now);		/* grows, rehashes */
		if (m.n > 40) {			/* and shrinks */
			e.type = R2C2_FE_FINISH;
			e.id = m.f[m.n - 1].id;
			e.src = m.f[m.n - 1].src;
			mx_apply(&m, &e, now);
		}
		if (tbelow(&seed, 4) == 0) {
			/* one of the snapshot's flows finishes */
			e = ev(R2C2_FE_FINISH, m.f[0].src, m.f[0].id, 0, 0);
			mx_apply(&m, &e, now);
		}
		for (k = 0; k < m.n && k < 512; k++) {
			memset(&f[k], 0, sizeof(f[k]));
			f[k].src = m.f[k].src;
			f[k].dst = m.f[k].dst;
			f[k].rproto = m.f[k].rproto;
			f[k].weight = 1;
		}
		r2c2_maxmin(rt, f, k, 0.05, rate, ws);
		s.heard++;
		s.heard_ns = now;
		rs_my_turn(&s, now, now, SEC, 16, 3);
		readable += poll(&pf, 1, 0) == 1;
		rounds++;
		now += MS;
	}
	ok(r == (int)sync_n && dec.adopted == sync_dec.adopted &&
	   dec.changed == sync_dec.changed && dec.after == sync_dec.after &&
	   dec.before == sync_dec.before,
	   "worker's result is the synchronous one: %d changed, %.4g -> %.4g (%d loop rounds meanwhile)",
	   r, dec.before, dec.after, rounds);
	for (size_t i = 0; i < sync_n && same; i++)
		same = s.ent[i].src == sync_ent[i].src &&
		       s.ent[i].id == sync_ent[i].id &&
		       s.ent[i].rproto == sync_ent[i].rproto;
	ok(same, "same entries, keyed by (src, flow)");
	ok(!rs_busy(&s) && rs_fd(&s) == -1, "collected: no worker left");
	{
		uint32_t c = rs_apply(&m, s.ent, s.nent), want = 0;

		for (size_t i = 0; i < s.nent; i++)
			want += mx_find(&m, s.ent[i].src, s.ent[i].id) != MX_NONE;
		ok(c == want, "applied to the changed matrix: %u of %zu entries (flows gone meanwhile skipped)",
		   c, s.nent);
	}
	(void)readable;

	/* a worker still running at exit is joined by rs_fini */
	r = rs_prepare(&s, &ref, t->n, now, &p);
	ok(r > 0 && rs_start(&s, rt) == 0, "another search started");
	rs_fini(&s);
	ok(!rs_busy(&s) && s.wk.efd == -1, "rs_fini joins it");

	/* wait = true collects whatever it takes */
	rs_init(&s);
	rs_prepare(&s, &ref, t->n, now, &p);
	rs_start(&s, rt);
	r = rs_finish(&s, true, &dec);
	ok(r == (int)sync_n && dec.after == sync_dec.after,
	   "rs_finish(wait) joins and returns the result");
	rs_fini(&s);

	rs_fini(&s2);
	mx_fini(&m);
	mx_fini(&ref);
	r2c2_ws_free(ws);
	r2c2_rtab_free(rt);
	r2c2_topo_free(t);
}

/*
 * On a graph (a 4x4 mesh) the search's pairs, every protocol of its long
 * flows, are prepared by the worker, not by rs_prepare(); this thread
 * solves on the tables once rs_tables_busy() says the worker only reads
 * them
 */
static void worker__graph_pairs(void)
{
	const u8 dims[2] = { 4, 4 };
	struct r2c2_topo *t = NULL;
	struct r2c2_rtab *rt = NULL;
	struct r2c2_ws *ws = r2c2_ws_new();
	struct r2c2_flow f[16];
	struct rs_decision dec;
	struct rs_params p;
	struct rs s;
	struct mx m;
	double rate[16];
	uint64_t now = 2 * SEC;
	unsigned int waits = 0, solves = 0, k;
	bool before = false, after = true;
	int r;

	r2c2_topo_grid(&t, dims, 2, false, 100e6);
	ok(t && t->kind != R2C2_TOPO_TORUS && r2c2_rtab_new(&rt, t) == 0 && ws,
	   "a 4x4 mesh: a graph's tables, pairs computed when asked");
	mx_init(&m, 0);
	fill(&m);
	params(&p);
	rs_init(&s);
	r = rs_prepare(&s, &m, t->n, now, &p);
	for (k = 0; k < s.vn; k++)
		before |= r2c2_rtab_prepared(rt, s.vf[k].src, s.vf[k].dst,
					     R2C2_RP_VLB);
	ok(r == 16 && s.vn == 16 && !before,
	   "rs_prepare(): a snapshot of 16 flows, no pair prepared in this thread");
	for (k = 0; k < 16; k++)	/* the worker's from its start */
		f[k] = s.vf[k];
	ok(rs_start(&s, rt) == 0, "the worker prepares the pairs, then searches");
	while (rs_tables_busy(&s))
		waits++;
	do
		solves += r2c2_maxmin(rt, f, 16, 0.05, rate, ws) == 0;
	while ((r = rs_finish(&s, false, &dec)) == -EAGAIN);
	for (k = 0; k < 16; k++)
		after &= r2c2_rtab_prepared(rt, f[k].src, f[k].dst, R2C2_RP_VLB) &&
			 r2c2_rtab_prepared(rt, f[k].src, f[k].dst, R2C2_RP_RPS) &&
			 r2c2_rtab_prepared(rt, f[k].src, f[k].dst, R2C2_RP_DOR);
	ok(r >= 0 && after && solves > 0,
	   "every protocol's pair of the long flows prepared by the worker; %u max-min rounds on the tables while it searched (%u polls while it prepared)",
	   solves, waits);
	rs_fini(&s);
	mx_fini(&m);
	r2c2_ws_free(ws);
	r2c2_rtab_free(rt);
	r2c2_topo_free(t);
}

/*
 * The same search's table work in steps (a step's budget of 1 ns: 32
 * flows a step): between two, the search paused, this thread prepares a
 * pair of its own in the same tables and solves its flow on them, as a
 * round in the loop's worker may; the worker then goes on from where it
 * stopped. The pairs and the search's flows (96, the first 4 long)
 * are those of a search in one go.
 */
static void worker__pairs_in_steps(void)
{
	const u8 dims[2] = { 6, 6 };
	struct r2c2_topo *t = NULL;
	struct r2c2_rtab *rt = NULL, *rt1 = NULL;
	struct r2c2_ws *ws = r2c2_ws_new();
	struct r2c2_flow f[70], x = { .weight = 1 };
	struct rs_decision dec = { 0 }, one;
	struct rs_params p;
	struct rs s, s1;
	struct mx m;
	double rate[1];
	uint64_t now = 2 * SEC, seed = 9;
	unsigned int pauses = 0, solves = 0, k, q;
	bool after = true;
	int r;

	r2c2_topo_grid(&t, dims, 2, false, 100e6);
	ok(t && r2c2_rtab_new(&rt, t) == 0 && r2c2_rtab_new(&rt1, t) == 0 && ws,
	   "a 6x6 mesh: two graph tables");
	mx_init(&m, 0);
	for (k = 0; k < 70; k++) {
		struct mx_evt e = {
			.type = R2C2_FE_START, .id = 100 + k, .weight = 1,
			.demand_kbps = R2C2_DEMAND_UNLIMITED,
			.rproto = (u8)(k % 3),
		};

		e.src = (u16)tbelow(&seed, 36);
		e.dst = (u16)((e.src + 1 + tbelow(&seed, 35)) % 36);
		mx_apply(&m, &e, k < 4 ? 0 : SEC + SEC / 2);	/* 4 long */
	}
	params(&p);
	rs_init(&s1);
	s1.pairs_step_ns = 0;
	r = rs_select(&s1, &m, rt1, t->n, now, &p, &one);
	rs_init(&s);
	s.pairs_step_ns = 1;
	ok(r >= 0 && one.pair_steps == 1 &&
	   rs_prepare(&s, &m, t->n, now, &p) == 70 && rs_start(&s, rt) == 0,
	   "a search in one go (%d, %u step); the same search started in steps",
	   r, one.pair_steps);
	for (k = 0; k < 70; k++)
		f[k] = s.vf[k];
	x.src = 0;
	x.dst = 35;
	for (;;) {
		while ((r = rs_finish(&s, false, &dec)) == -EAGAIN)
			;
		if (r != -EINPROGRESS)
			break;
		pauses++;
		/* paused: the tables are this thread's until the next step */
		if (!rs_paused(&s) || !rs_busy(&s) || rs_running(&s))
			break;
		x.rproto = (u8)(pauses % 3);
		if (r2c2_rtab_prepare(rt, x.src, x.dst, x.rproto) == 0)
			solves += r2c2_maxmin(rt, &x, 1, 0.05, rate, ws) == 0;
		if (pauses > 10 || rs_resume(&s))
			break;
	}
	for (k = 0; k < 70; k++)
		for (q = 0; q < __R2C2_RP_MAX; q++)
			/* a long flow's: those the search may assign (all but WLB) */
			if (q == f[k].rproto || (k < 4 && q != R2C2_RP_WLB))
				after &= r2c2_rtab_prepared(rt, f[k].src,
							    f[k].dst, (u8)q);
	ok(r >= 0 && !rs_busy(&s) && pauses >= 1 && solves == pauses &&
	   dec.pair_steps == pauses + 1 && after &&
	   dec.flows == one.flows && dec.long_flows == one.long_flows &&
	   dec.evaluations == one.evaluations && dec.after == one.after,
	   "%u pauses (%u solves, %u steps, %d), a pair prepared and a max-min solved in each; each flow's pair prepared, every protocol's the search may give of a long one; the search's flows (%u), long flows (%u), evaluations (%lu) and result as in one go",
	   pauses, solves, dec.pair_steps, after, dec.flows, dec.long_flows, dec.evaluations);
	rs_fini(&s);
	rs_fini(&s1);
	mx_fini(&m);
	r2c2_ws_free(ws);
	r2c2_rtab_free(rt);
	r2c2_rtab_free(rt1);
	r2c2_topo_free(t);
}

int main(void)
{
	worker__vs_sync();
	worker__graph_pairs();
	worker__pairs_in_steps();
	return tap_done();
}
