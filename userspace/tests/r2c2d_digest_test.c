// SPDX-License-Identifier: GPL-2.0
/*
 * r2c2d_digest_test.c - recovery of lost flow events by digests
 * (r2c2d/digest.c): a source's matrix and a receiver's, events lost
 * between them on purpose, and what the receiver decides on each digest
 * it hears (TAP).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../r2c2d/matrix.c"
#include "../r2c2d/digest.c"
#include "../r2c2d/worker.c"
#include "../r2c2d/routesel.c"
#include "alloc_tap.h"

#define MS 1000000ull
#define PERIOD (250 * MS)

enum { SRC = 3, ME = 5 };

static struct mx_evt fe(uint8_t type, uint32_t id, uint16_t dst)
{
	struct mx_evt e = {
		.type = type, .src = SRC, .id = id, .dst = dst, .weight = 1,
		.demand_kbps = R2C2_DEMAND_UNLIMITED,
	};
	return e;
}

/* the source's digest: what its r2c2d sends, from its own matrix */
static enum dg_verdict hear(struct dg *g, struct mx *rx, const struct mx *sx,
			    uint8_t flags, uint64_t now)
{
	uint32_t n, h = mx_digest(sx, SRC, &n);

	return dg_heard(g, rx, SRC, h, n, flags | R2C2_DIGEST_F_PERIODIC,
			now);
}

/* both matrices hear e; only the source's when lost */
static void both(struct mx *sx, struct mx *rx, struct mx_evt e, bool lost,
		 uint64_t now)
{
	mx_apply(sx, &e, now);
	if (!lost)
		mx_apply(rx, &e, now);
}

/* the answer to a RESYNC: every flow of the source again, REFRESH */
static void answer(const struct mx *sx, struct mx *rx, uint32_t lose_id,
		   uint64_t now)
{
	uint32_t i;

	for (i = 0; i < sx->n; i++) {
		const struct mx_flow *f = &sx->f[i];
		struct mx_evt e = {
			.type = R2C2_FE_REFRESH, .src = f->src, .id = f->id,
			.dst = f->dst, .weight = f->weight, .prio = f->prio,
			.rproto = f->rproto, .demand_kbps = f->demand_kbps,
		};

		if (f->id != lose_id)
			mx_apply(rx, &e, now);
	}
}

/* the digest is a sum: order does not matter, every field counts */
static void digest__sum(void)
{
	struct mx a, b;
	struct mx_evt e;
	uint32_t na, nb, h0, h;
	int i, moved = 0;

	mx_init(&a, 0);
	mx_init(&b, 0);
	for (i = 0; i < 50; i++) {
		e = fe(R2C2_FE_START, (uint32_t)i * 2654435761u, 7);
		mx_apply(&a, &e, 1);
		e = fe(R2C2_FE_START, (uint32_t)(49 - i) * 2654435761u, 7);
		mx_apply(&b, &e, 1);
	}
	e = fe(R2C2_FE_START, 99, 8);
	e.src = SRC + 1;	/* another source's flow: not in SRC's digest */
	mx_apply(&b, &e, 1);
	h0 = mx_digest(&a, SRC, &na);
	ok(h0 == mx_digest(&b, SRC, &nb) && na == 50 && nb == 50 &&
	   mx_digest(&b, SRC + 1, &nb) && nb == 1,
	   "the same 50 flows heard in another order: the same digest (%08x, %u and %u flows)",
	   h0, na, nb);
	/* each field of one flow changed in turn moves the digest */
	for (i = 0; i < 5; i++) {
		e = fe(R2C2_FE_UPDATE, 0, 7);
		if (i == 0)
			e.dst = 9;
		if (i == 1)
			e.weight = 2;
		if (i == 2)
			e.prio = 3;
		if (i == 3)
			e.rproto = R2C2_RP_DOR;
		if (i == 4)
			e.demand_kbps = 1000;
		mx_apply(&a, &e, 2);
		h = mx_digest(&a, SRC, &na);
		moved += h != h0 && na == 50;
		e = fe(R2C2_FE_UPDATE, 0, 7);
		mx_apply(&a, &e, 3);
	}
	ok(moved == 5 && mx_digest(&a, SRC, &na) == h0,
	   "a change of dst, weight, prio, routing or demand moves it, and back (%d of 5)",
	   moved);
	/*
	 * pinned (and computed again apart, in Python, from the formula in
	 * <r2c2/wire.h>): another implementation must agree
	 */
	h = r2c2_flow_digest(0x12345678u, 3, 1, 0, R2C2_RP_RPS,
			     R2C2_DEMAND_UNLIMITED);
	ok(h == 0x2ae45e1eu, "r2c2_flow_digest() of a known flow: %08x", h);
	mx_fini(&a);
	mx_fini(&b);
}

/*
 * The per-source sums kept as flows come, change (events, ROUTES) and go
 * agree with a walk over the flows, after 20,000 random changes
 */
static void digest__kept(void)
{
	enum { S = 5, I = 40 };
	uint64_t seed = 7, now = 0;
	struct mx m;
	uint32_t n1, n2;
	int k, s, bad = 0;

	mx_init(&m, 0);
	for (k = 0; k < 20000; k++) {
		struct mx_evt e = fe((uint8_t)(1 + tbelow(&seed, 4)),
				     (uint32_t)tbelow(&seed, I),
				     (uint16_t)(S + tbelow(&seed, 3)));

		e.src = (uint16_t)tbelow(&seed, S);
		e.weight = (uint8_t)(1 + tbelow(&seed, 3));
		e.prio = (uint8_t)tbelow(&seed, 2);
		e.demand_kbps = tbelow(&seed, 2) ? R2C2_DEMAND_UNLIMITED :
			       tbelow(&seed, 5000);
		if (tbelow(&seed, 10) == 0) {
			struct rs_ent r = { .src = e.src, .id = e.id,
					    .rproto = (uint8_t)tbelow(&seed, 3) };

			rs_apply(&m, &r, 1);
		} else {
			mx_apply(&m, &e, ++now);
		}
		if (k % 5000 == 4999)
			mx_expire(&m, now, 3000, -1);
	}
	for (s = 0; s < S; s++)
		bad += mx_digest(&m, (uint16_t)s, &n1) !=
		       mx_digest_walk(&m, (uint16_t)s, &n2) || n1 != n2;
	ok(!bad && m.n > 0,
	   "20,000 random events, ROUTES and expiries: every source's kept digest is the walk's (%d of %d differ, %u flows)",
	   bad, S, m.n);
	mx_fini(&m);
}

/* a lost START: two digests that disagree, then a RESYNC; the answer heals */
static void digest__lost_start(void)
{
	struct dg g = { .period_ns = PERIOD };
	struct mx sx, rx;
	enum dg_verdict v1, v2, v3, v4;
	uint64_t t = 1000 * MS;

	mx_init(&sx, 0);
	mx_init(&rx, 0);
	both(&sx, &rx, fe(R2C2_FE_START, 1, 7), false, t);
	ok(hear(&g, &rx, &sx, 0, t) == DG_MATCH && g.st.matched == 1 &&
	   !g.repaired_ns,
	   "one flow heard by both: the digest matches");
	both(&sx, &rx, fe(R2C2_FE_START, 2, 7), true, t + 10 * MS);
	v1 = hear(&g, &rx, &sx, 0, t + PERIOD);
	v2 = hear(&g, &rx, &sx, 0, t + 2 * PERIOD);
	v3 = hear(&g, &rx, &sx, 0, t + 3 * PERIOD);
	ok(v1 == DG_WAIT && v2 == DG_ASK && v3 == DG_WAIT && g.st.asked == 1,
	   "its START lost: the first digest waits, the second asks, the next waits for the answer (%d %d %d)",
	   v1, v2, v3);
	answer(&sx, &rx, UINT32_MAX, t + 3 * PERIOD + MS);
	v4 = hear(&g, &rx, &sx, R2C2_DIGEST_F_ANSWER, t + 3 * PERIOD + 2 * MS);
	ok(v4 == DG_MATCH && rx.n == 2 && g.st.removed == 0 &&
	   !g.src[SRC].asked_ns && g.repaired_ns == t + 3 * PERIOD + 2 * MS,
	   "the answer brings it: the matrix matches, nothing removed (%u flows)",
	   rx.n);
	dg_fini(&g);
	mx_fini(&sx);
	mx_fini(&rx);
}

/* a lost FINISH: the flow the answer does not announce again is removed */
static void digest__lost_finish(void)
{
	struct dg g = { .period_ns = PERIOD };
	struct mx sx, rx;
	enum dg_verdict v;
	uint64_t t = 1000 * MS;
	uint32_t i;

	mx_init(&sx, 0);
	mx_init(&rx, 0);
	for (i = 1; i <= 3; i++)
		both(&sx, &rx, fe(R2C2_FE_START, i, 7), false, t);
	both(&sx, &rx, fe(R2C2_FE_FINISH, 2, 7), true, t + MS);
	hear(&g, &rx, &sx, 0, t + PERIOD);
	v = hear(&g, &rx, &sx, 0, t + 2 * PERIOD);
	ok(v == DG_ASK, "its FINISH lost: asked on the second digest");
	/* the rack's own refreshes do not remove anything */
	answer(&sx, &rx, UINT32_MAX, t + 2 * PERIOD + MS);
	v = hear(&g, &rx, &sx, R2C2_DIGEST_F_ANSWER, t + 2 * PERIOD + 2 * MS);
	ok(v == DG_MATCH && rx.n == 2 && mx_find(&rx, SRC, 2) == MX_NONE &&
	   g.st.removed == 1,
	   "the answer does not announce it: removed, the matrix matches (%u flows, removed %llu)",
	   rx.n, (unsigned long long)g.st.removed);
	dg_fini(&g);
	mx_fini(&sx);
	mx_fini(&rx);
}

/* an answer itself loses a frame: asked again, not before 2 periods */
static void digest__lossy_answer(void)
{
	struct dg g = { .period_ns = PERIOD };
	struct mx sx, rx;
	enum dg_verdict v1, v2, v3, v4;
	uint64_t t = 1000 * MS, a;

	mx_init(&sx, 0);
	mx_init(&rx, 0);
	both(&sx, &rx, fe(R2C2_FE_START, 1, 7), false, t);
	both(&sx, &rx, fe(R2C2_FE_START, 2, 7), true, t);
	hear(&g, &rx, &sx, 0, t + PERIOD);
	hear(&g, &rx, &sx, 0, t + 2 * PERIOD);
	a = g.src[SRC].asked_ns;
	/* flow 2's REFRESH in the answer lost too */
	answer(&sx, &rx, 2, t + 2 * PERIOD + MS);
	v1 = hear(&g, &rx, &sx, R2C2_DIGEST_F_ANSWER, t + 2 * PERIOD + 2 * MS);
	v2 = hear(&g, &rx, &sx, 0, t + 3 * PERIOD);
	ok(v1 == DG_WAIT && v2 == DG_WAIT && rx.n == 1 &&
	   g.src[SRC].asked_ns == a,
	   "the answer lost its frame too: flow 1 (announced again) kept, no new request within 2 periods (%d %d)",
	   v1, v2);
	v3 = hear(&g, &rx, &sx, 0, t + 4 * PERIOD);
	ok(v3 == DG_ASK && g.st.asked == 2 && g.src[SRC].asked_ns > a,
	   "asked again 2 periods after the first request (%d, asked %llu)",
	   v3, (unsigned long long)g.st.asked);
	answer(&sx, &rx, UINT32_MAX, t + 4 * PERIOD + MS);
	v4 = hear(&g, &rx, &sx, R2C2_DIGEST_F_ANSWER, t + 4 * PERIOD + 2 * MS);
	ok(v4 == DG_MATCH && rx.n == 2, "the second answer heals it");
	dg_fini(&g);
	mx_fini(&sx);
	mx_fini(&rx);
}

/* an answer to someone else: nothing removed unless this node asked */
static void digest__others_answer(void)
{
	struct dg g = { .period_ns = PERIOD };
	struct mx sx, rx;
	enum dg_verdict v;
	uint64_t t = 1000 * MS;

	mx_init(&sx, 0);
	mx_init(&rx, 0);
	both(&sx, &rx, fe(R2C2_FE_START, 1, 7), false, t);
	both(&sx, &rx, fe(R2C2_FE_START, 2, 7), false, t);
	both(&sx, &rx, fe(R2C2_FE_FINISH, 2, 7), true, t + MS);
	/* an answer this node did not ask for: it removes nothing */
	v = hear(&g, &rx, &sx, R2C2_DIGEST_F_ANSWER, t + 2 * MS);
	ok(v == DG_WAIT && rx.n == 2 && g.st.removed == 0,
	   "an answer to another node's request, not asked: nothing removed (%u flows)",
	   rx.n);
	v = hear(&g, &rx, &sx, 0, t + PERIOD);
	ok(v == DG_ASK, "two digests that disagree: asked");
	/* a match in between starts the count again */
	mx_apply(&rx, &(struct mx_evt){ .type = R2C2_FE_FINISH, .src = SRC,
					.id = 2, .dst = 7 }, t + PERIOD + MS);
	ok(hear(&g, &rx, &sx, 0, t + 2 * PERIOD) == DG_MATCH &&
	   !g.src[SRC].asked_ns && !g.src[SRC].misses,
	   "a later FINISH (a refresh, expiry) makes it match: the request is forgotten");
	dg_fini(&g);
	mx_fini(&sx);
	mx_fini(&rx);
}

/*
 * one digest that disagrees (an event on its way), then one that
 * matches: a repair noted, and the next miss counts from one again
 */
static void digest__one_miss(void)
{
	struct dg g = { .period_ns = PERIOD };
	struct mx sx, rx;
	enum dg_verdict v1, v2, v3;
	uint64_t t = 1000 * MS;

	mx_init(&sx, 0);
	mx_init(&rx, 0);
	both(&sx, &rx, fe(R2C2_FE_START, 1, 7), false, t);
	both(&sx, &rx, fe(R2C2_FE_START, 2, 7), true, t);
	v1 = hear(&g, &rx, &sx, 0, t + PERIOD);
	/* its REFRESH comes */
	mx_apply(&rx, &(struct mx_evt){ .type = R2C2_FE_REFRESH, .src = SRC,
					.id = 2, .dst = 7, .weight = 1,
					.demand_kbps = R2C2_DEMAND_UNLIMITED },
		 t + PERIOD + MS);
	v2 = hear(&g, &rx, &sx, 0, t + 2 * PERIOD);
	ok(v1 == DG_WAIT && v2 == DG_MATCH && g.repaired_ns == t + 2 * PERIOD &&
	   !g.src[SRC].misses && !g.st.asked,
	   "one digest off, the next matches: not asked, the repair noted (%d %d)",
	   v1, v2);
	both(&sx, &rx, fe(R2C2_FE_START, 3, 7), true, t + 2 * PERIOD + MS);
	v3 = hear(&g, &rx, &sx, 0, t + 3 * PERIOD);
	ok(v3 == DG_WAIT && g.src[SRC].misses == 1 && !g.st.asked,
	   "a new miss after the match counts from one: waits (%d)", v3);
	dg_fini(&g);
	mx_fini(&sx);
	mx_fini(&rx);
}

/* a source whose flows this node refused: never asked (it cannot help) */
static void digest__refused(void)
{
	struct dg g = { .period_ns = PERIOD };
	struct mx sx, rx;
	uint64_t t = 1000 * MS;
	uint32_t i;
	int asks = 0;

	mx_init(&sx, 0);
	mx_init(&rx, 0);
	rx.max_per_src = 4;
	for (i = 1; i <= 6; i++)
		both(&sx, &rx, fe(R2C2_FE_START, i, 7), false, t);
	for (i = 1; i <= 10; i++)
		asks += hear(&g, &rx, &sx, 0, t + i * PERIOD) == DG_ASK;
	ok(asks == 0 && rx.n == 4 && g.st.refused >= 4,
	   "6 flows of a source, 4 held (max_flows_per_src): 10 digests, no request (refused %llu)",
	   (unsigned long long)g.st.refused);
	dg_fini(&g);
	mx_fini(&sx);
	mx_fini(&rx);
}

/* the source's side: however many ask, one answer per half period */
static void digest__answers(void)
{
	struct dg g = { .period_ns = PERIOD };
	uint64_t t = 1000 * MS;
	int i;

	ok(dg_answer_at(&g) == 0, "never answered: an answer may go at once");
	for (i = 0; i < 10; i++)
		dg_asked(&g);
	ok(g.answer_due && g.st.asks_heard == 10,
	   "10 requests: one answer due");
	g.answer_due = false;
	g.answered_ns = t;
	dg_asked(&g);
	ok(g.answer_due && dg_answer_at(&g) == t + PERIOD / 2,
	   "a request just after an answer: the next one at half a period after it");
}

int main(void)
{
	digest__sum();
	digest__kept();
	digest__lost_start();
	digest__lost_finish();
	digest__lossy_answer();
	digest__others_answer();
	digest__one_miss();
	digest__refused();
	digest__answers();
	return tap_done();
}
