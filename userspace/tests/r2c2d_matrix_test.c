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
#include "../r2c2d/state.c"
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
	int k, s, i, bad = 0, n, own_bad = 0;

	mx_init(&m, 0);
	for (k = 0; k < 20000; k++) {
		struct mx_evt e;
		uint8_t t = (uint8_t)(1 + tbelow(&seed, 4));

		/* counted from the start for 1, then recounted for 2 */
		if (k == 0)
			mx_set_own(&m, 1);
		else if (k == 10000)
			mx_set_own(&m, 2);
		if (k % 997 == 0) {
			int src = k < 10000 ? 1 : 2, want = 0;

			for (i = 0; i < I; i++)
				want += live[src][i];
			own_bad += (uint32_t)want != m.own;
		}

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
	n = 0;
	for (i = 0; i < I; i++)
		n += live[2][i];
	ok(!own_bad && n > 0 && (uint32_t)n == m.own,
	   "matrix__random_vs_model: own flows %u of source 2 (model %d), %d wrong counts on the way",
	   m.own, n, own_bad);
	/* expiry removes all but source 3: own (source 2) back to 0 */
	mx_expire(&m, now + 1000 * MS, 1, 3);
	ok(m.own == 0 && m.n > 0, "matrix__random_vs_model: own %u after expiry, %u flows of source 3 left",
	   m.own, m.n);
	mx_fini(&m);
}

/*
 * What the matrix keeps beside its flows, checked against the flows
 * themselves: the allocator's view and the ids at each index, the count
 * of flows to leave out, the own list, the unseen list. Returns the
 * violations.
 */
static int view_check(const struct mx *m)
{
	struct r2c2_flow a;
	uint32_t i, own = 0, skip = 0, unseen = 0;
	int bad = 0;

	for (i = 0; i < m->n; i++) {
		const struct mx_flow *f = &m->f[i];
		const struct r2c2_flow *v = &m->view[i];

		if (!mx_alloc_flow(f, UINT16_MAX + 1u, &a) ||
		    a.src != v->src || a.dst != v->dst ||
		    a.rproto != v->rproto || a.prio != v->prio ||
		    a.weight != v->weight || a.demand != v->demand ||
		    m->fid[i] != f->id || m->born[i] != f->born_ns)
			bad++;
		skip += !f->demand_kbps || f->src >= m->view_nodes ||
			f->dst >= m->view_nodes;
		if ((int)f->src == m->own_src) {
			own++;
			if (f->own_pos >= m->own || m->own_ix[f->own_pos] != i)
				bad++;
		}
		if (m->unseen_at[i] != MX_NONE) {
			unseen++;
			bad += m->unseen_at[i] >= m->unseen ||
			       m->unseen_ix[m->unseen_at[i]] != i;
		}
	}
	for (i = 0; i < m->own; i++)
		bad += m->own_ix[i] >= m->n ||
		       (int)m->f[m->own_ix[i]].src != m->own_src;
	for (i = 0; i < m->unseen; i++)
		bad += m->unseen_ix[i] >= m->n ||
		       m->unseen_at[m->unseen_ix[i]] != i;
	return bad + (own != m->own) + (skip != m->view_skip) +
	       (unseen != m->unseen);
}

/*
 * A copy of the view, the ids and the births brought up to date as
 * r2c2d's snapshots do (mx_view_copy(): the chunks stamped since the
 * copy's stamp)
 */
struct view_copy {
	struct r2c2_flow *v;
	uint32_t *id;
	uint64_t *born;
	size_t cap;
	uint64_t stamp;
	size_t chunks, all;	/* copied, and in the views at the copies */
};

/* bring cp up to date; returns how many flows then differ from m's */
static int copy_check(const struct mx *m, struct view_copy *cp)
{
	size_t at;
	int bad = 0;

	if (m->n > cp->cap) {
		cp->cap = m->cap;
		cp->v = realloc(cp->v, cp->cap * sizeof(*cp->v));
		cp->id = realloc(cp->id, cp->cap * sizeof(*cp->id));
		cp->born = realloc(cp->born, cp->cap * sizeof(*cp->born));
	}
	cp->all += (m->n + MX_CHUNK - 1) / MX_CHUNK;
	cp->chunks += mx_view_copy(m, cp->v, cp->id, cp->born, &cp->stamp);
	for (at = 0; at < m->n; at++)
		bad += memcmp(&cp->v[at], &m->view[at], sizeof(*cp->v)) ||
		       cp->id[at] != m->fid[at] || cp->born[at] != m->born[at];
	return bad;
}

/*
 * The view, the ids, the own list and the unseen list follow every way
 * the matrix changes (a flow started or changed is unseen until marked
 * seen; mx_set_nodes() makes every flow unseen): starts past the capacity and removals down to a shrink,
 * updates of each field, a field changed between mx_term_out() and
 * mx_term_in() (as own.c does), expiry, another own source, another
 * node count
 */
static void matrix__view_follows(void)
{
	enum { S = 6, I = 400 };
	static const uint32_t dem[] = { 0, 1, 5000, R2C2_DEMAND_UNLIMITED };
	uint64_t seed = 7, now = 0;
	uint32_t peak = 0;
	int k, r, bad = 0, checks = 0, skipped = 0;
	uint32_t j, seen = 0;
	struct view_copy cp = { 0 };
	struct mx m;

	mx_init(&m, 0);
	mx_set_own(&m, 1);
	mx_set_nodes(&m, S);
	for (k = 0; k < 60000; k++) {
		/* a burst of starts, then mostly finishes: grow and shrink */
		bool fill = k % 20000 < 8000;
		struct mx_evt e = {
			.type = (uint8_t)(fill ? (tbelow(&seed, 4) ?
				R2C2_FE_START : R2C2_FE_UPDATE) :
				(tbelow(&seed, 5) ? R2C2_FE_FINISH :
				 R2C2_FE_REFRESH)),
			.src = (uint16_t)tbelow(&seed, S),
			.id = (uint32_t)tbelow(&seed, I),
			.weight = (uint8_t)(1 + tbelow(&seed, 255)),
			.prio = (uint8_t)tbelow(&seed, 16),
			.rproto = (uint8_t)tbelow(&seed, __R2C2_RP_MAX),
			.demand_kbps = dem[tbelow(&seed, 4)],
		};

		/* one in ten past the node count */
		e.dst = (uint16_t)((e.src + 1 + tbelow(&seed, S + 1)) %
				   (S + 2));
		if (e.dst == e.src)
			e.dst = (uint16_t)((e.src + 1) % S);
		r = mx_apply(&m, &e, ++now);
		if (r == 1 && e.type != R2C2_FE_FINISH) {
			j = mx_find(&m, e.src, e.id);
			bad += j == MX_NONE || m.unseen_at[j] == MX_NONE;
		}
		/* the last half of the unseen list seen, as a round does */
		if (k % 300 == 150)
			for (j = m.unseen; j-- > m.unseen / 2; seen++)
				mx_seen(&m, j);
		peak = m.n > peak ? m.n : peak;
		if (k % 1000 == 500 && m.n) {
			struct mx_flow *f = &m.f[tbelow(&seed, m.n)];

			mx_term_out(&m, f);
			f->demand_kbps = dem[tbelow(&seed, 4)];
			f->weight = (uint8_t)(1 + tbelow(&seed, 255));
			mx_term_in(&m, f);
		}
		if (k == 30000)
			mx_set_own(&m, 2);
		if (k == 45000) {
			mx_set_nodes(&m, S + 2);
			bad += m.unseen != m.n;
		}
		if (k == 52000)		/* fewer: some flows' ends are past it */
			mx_set_nodes(&m, S + 1);
		if (k % 7000 == 6999)
			mx_expire(&m, now, 3000, 1);
		if (k % 4 == 0)
			bad += copy_check(&m, &cp);
		if (k % 250 == 0) {
			bad += view_check(&m);
			checks++;
			skipped += m.view_skip > 0;
		}
	}
	bad += view_check(&m);
	bad += copy_check(&m, &cp);
	ok(!bad && checks > 200 && skipped > 100 && peak > 1000 &&
	   m.cap < peak && seen > 1000 && cp.chunks < cp.all / 2,
	   "matrix__view_follows: view, ids, skip count, own and unseen lists agree with the flows, and a copy kept by the chunks stamped since is the view, at %d checkpoints (%d disagree; peak %u flows, capacity %u at the end, %u marked seen; %zu of %zu chunks copied)",
	   checks + 1, bad, peak, m.cap, seen, cp.chunks, cp.all);
	free(cp.v);
	free(cp.id);
	free(cp.born);
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
	{
		uint32_t n, h = mx_digest(&m, 3, &n), n2;

		/* a priority change alone: it changes the allocation */
		g = m.gen;
		e.prio = 5;
		ok(mx_apply(&m, &e, 9) == 1 && m.gen == g + 1 &&
		   m.f[0].prio == 5 && m.f[0].changed_ns == 9 &&
		   m.f[0].refresh_ns == 9 && mx_digest(&m, 3, &n) != h &&
		   mx_digest(&m, 3, &n) == mx_digest_walk(&m, 3, &n2) &&
		   n == 1 && n2 == 1,
		   "update of the priority alone: a change (prio %u, gen +%llu, changed at %llu), the digest moves",
		   m.f[0].prio, (unsigned long long)(m.gen - g),
		   (unsigned long long)m.f[0].changed_ns);
		e.type = R2C2_FE_REFRESH;
		ok(mx_apply(&m, &e, 10) == 0 && m.f[0].changed_ns == 9 &&
		   m.f[0].refresh_ns == 10 && m.f[0].prio == 5,
		   "a refresh with the same fields: no change, refreshed");
	}
	mx_fini(&m);
}

/*
 * mx_drop_stale(): a source's flows last announced before the time
 * given go, those announced at that time or later stay, as do other
 * sources' flows however old
 */
static void matrix__drop_stale(void)
{
	static const uint64_t at[5] = { 10, 19, 20, 20, 30 };
	struct mx m;
	struct mx_evt e;
	uint32_t i, n, n2, left = 0;

	mx_init(&m, 0);
	for (i = 0; i < 5; i++) {
		e = ev(R2C2_FE_START, 5, i, 6);
		mx_apply(&m, &e, at[i]);
	}
	e = ev(R2C2_FE_START, 7, 0, 6);
	mx_apply(&m, &e, 1);
	ok(mx_drop_stale(&m, 5, 20) == 2 && m.n == 4,
	   "drop_stale(before 20): the flows of 10 and 19 go (%u left)", m.n);
	for (i = 0; i < 5; i++)
		left += mx_find(&m, 5, i) != MX_NONE;
	ok(left == 3 && mx_find(&m, 5, 0) == MX_NONE &&
	   mx_find(&m, 5, 1) == MX_NONE && mx_find(&m, 5, 2) != MX_NONE &&
	   mx_find(&m, 5, 3) != MX_NONE && mx_find(&m, 7, 0) != MX_NONE,
	   "those announced at 20 and later stay, another source's old one too");
	ok(mx_digest(&m, 5, &n) == mx_digest_walk(&m, 5, &n2) && n == 3 &&
	   n2 == 3, "the kept digest follows (%u flows)", n);
	ok(mx_drop_stale(&m, 5, 20) == 0 && mx_drop_stale(&m, 5, 31) == 3 &&
	   m.n == 1 && mx_find(&m, 7, 0) != MX_NONE,
	   "again: nothing; before 31: the other three");
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
	e.rproto = 0;
	e.prio = 16;
	ok(mx_apply(&m, &e, 1) == -EINVAL && m.n == 0, "priority 16 rejected");
	e.prio = 15;
	ok(mx_apply(&m, &e, 1) == 1 && m.n == 1 && m.f[0].prio == 15,
	   "priority 15 taken");
	e.prio = 0;
	e.type = R2C2_FE_FINISH;
	mx_apply(&m, &e, 1);
	e.type = R2C2_FE_START;
	mx_fini(&m);
	mx_init(&m, 2);
	e.rproto = 0;
	mx_apply(&m, &e, 1);
	e.id = 2;
	mx_apply(&m, &e, 1);
	e.id = 3;
	ok(mx_apply(&m, &e, 1) == -ENOSPC && m.n == 2, "max_flows enforced");
	ok(m.st.refused_full == 1, "refusal counted (refused_full %llu)",
	   (unsigned long long)m.st.refused_full);
	mx_fini(&m);
}

/*
 * One source could fill the whole matrix and leave every other node's
 * flows out; max_per_src (the daemon's max_flows_per_src) stops it
 */
static void matrix__quota(void)
{
	struct mx m;
	struct mx_evt e = { .type = R2C2_FE_START, .src = 7, .dst = 1,
			    .weight = 1, .demand_kbps = R2C2_DEMAND_UNLIMITED };
	uint32_t i, refused = 0, cap_peak, nb_peak;

	mx_init(&m, 1000);
	m.max_per_src = 100;
	for (i = 0; i < 1000; i++) {
		e.id = i;
		refused += mx_apply(&m, &e, 1) == -ENOSPC;
	}
	ok(m.n == 100 && refused == 900 && m.st.refused_quota == 900,
	   "a source flooding 1000 STARTs holds 100 (%u; refused %u, refused_quota %llu)",
	   m.n, refused, (unsigned long long)m.st.refused_quota);
	e.src = 8;
	e.id = 1;
	ok(mx_apply(&m, &e, 1) == 1 && m.n == 101,
	   "another source still gets in");
	e.src = 7;
	e.id = 5;
	e.type = R2C2_FE_FINISH;
	mx_apply(&m, &e, 1);
	e.type = R2C2_FE_REFRESH;
	e.id = 5000;
	ok(mx_apply(&m, &e, 1) == 1 && m.n == 101,
	   "a finished flow frees its source's place (implicit start taken)");
	mx_fini(&m);

	/* the memory of a burst comes back once its flows are gone */
	mx_init(&m, 0);
	e.type = R2C2_FE_START;
	for (i = 0; i < 20000; i++) {
		e.src = (uint16_t)(i % 50);
		e.id = i;
		mx_apply(&m, &e, 1);
	}
	cap_peak = m.cap;
	nb_peak = m.nb;
	e.type = R2C2_FE_FINISH;
	for (i = 0; i < 19990; i++) {
		e.src = (uint16_t)(i % 50);
		e.id = i;
		mx_apply(&m, &e, 1);
	}
	for (i = 19990; i < 20000; i++)
		if (mx_find(&m, (uint16_t)(i % 50), i) == MX_NONE)
			break;
	ok(m.n == 10 && i == 20000 && cap_peak >= 20000 && m.cap <= 64 &&
	   m.nb <= 64, "20000 flows then 10: flows %u -> %u, buckets %u -> %u, the 10 found",
	   cap_peak, m.cap, nb_peak, m.nb);
	mx_fini(&m);
}

/*
 * Expiry in bounded steps: each looks at no more than its share, goes
 * on where the last stopped, round the array, and together they remove
 * exactly what one mx_expire() would
 */
static void matrix__expiry_steps(void)
{
	struct mx m;
	struct mx_evt e;
	uint32_t i, gone, calls = 0, most = 0, left = 0, first;

	mx_init(&m, 0);
	for (i = 0; i < 1000; i++) {
		e = ev(R2C2_FE_START, (uint16_t)(i % 7), i, 9);
		mx_apply(&m, &e, i % 3 ? 1000 * MS : 100 * MS);
	}
	/* 334 stale, 48 of them of source 3, which stays */
	first = mx_expire_step(&m, 1100 * MS, 500 * MS, 3, 300);
	do {
		gone = mx_expire_step(&m, 1100 * MS, 500 * MS, 3, 300);
		most = gone > most ? gone : most;
		calls++;
	} while (gone && calls < 100);
	for (i = 0; i < 1000; i++)
		left += (mx_find(&m, (uint16_t)(i % 7), i) != MX_NONE) !=
			(i % 3 || i % 7 == 3);
	/* all 286 in one step would be a step over the whole matrix */
	ok(first <= 300 && first > 0 && first < 286 && most <= 300 &&
	   calls >= 2 && calls <= 4 &&
	   m.n == 1000 - 334 + 48 && !left && m.st.expired == 334 - 48,
	   "mx_expire_step(): at most 300 a step (%u first), the stale flows gone in %u more steps, %u flows left, %u wrong",
	   first, calls, m.n, left);
	/* from the middle: a step of the matrix's size sees every flow */
	e = ev(R2C2_FE_START, 1, 5000, 2);
	mx_apply(&m, &e, 1000 * MS);
	m.expire_at = m.n / 2;
	first = m.n;
	gone = mx_expire_step(&m, 1500 * MS + 1, 500 * MS, 3, m.n);
	ok(gone == first - m.src_n[3] && m.n == m.src_n[3] && m.n == 143,
	   "from the middle, a step as large as the matrix sees it whole (%u gone, %u left: source 3's)",
	   gone, m.n);
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
	e = ev(R2C2_FE_START, 1, 1, 2);
	mx_apply(&m, &e, 2000 * MS);
	ok(mx_expire(&m, 2500 * MS, 500 * MS, -1) == 0 && m.n == 1 &&
	   mx_expire(&m, 2500 * MS + 1, 500 * MS, -1) == 1 && m.n == 0,
	   "a flow refreshed exactly ttl ago stays, 1 ns later it goes");
	mx_fini(&m);
}

/* node 5's flows as another node's, or as this node's (the own list) */
static void resync_case(int own)
{
	struct mx m;
	struct mx_evt e;
	uint32_t i;

	mx_init(&m, 0);
	if (own)
		mx_set_own(&m, 5);
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
	   mx_find(&m, 7, 7) != MX_NONE && m.own == (own ? 6u : 0u) &&
	   !view_check(&m),
	   "resync%s: unlisted own flows removed, new ones added, others kept",
	   own ? " through the own list" : "");
	mx_fini(&m);
}

static void matrix__resync(void)
{
	resync_case(0);
	resync_case(1);
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
	ok(!rc_should_push(1.5e6, 1e6, 0, 10, 0.5, 0) &&
	   !rc_should_push(0.5e6, 1e6, 0, 10, 0.5, 0),
	   "a change of exactly the threshold (50 %% of 1e6): keep");
	ok(rc_should_push(0, 0, 0, 10, 0.05, 0), "never pushed, a target of 0: push");
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
	struct rc_dem_conf c;
	struct rc_dem d = { 0 };
	uint64_t t = 1 * MS, b = 0;
	int i, closed = 0;

	rc_dem_defaults(&c);
	ok(rc_demand_sample(&d, 0, 0, t, &c) == 0 && d.rate < 0,
	   "first sample: no window yet");
	/* 10 Mbit/s: 12500 bytes every 10 ms, no backlog */
	c.window_ns = 250 * MS;
	for (i = 0; i < 25; i++) {
		b += 12500;
		t += 10 * MS;
		closed += rc_demand_sample(&d, b, 0, t, &c);
	}
	ok(closed == 1 && d.rate > 9.99e6 && d.rate < 10.01e6 &&
	   d.est > 9.99e6 && d.est < 10.01e6,
	   "a 250 ms window closes: r = %.0f, d = %.0f", d.rate, d.est);
	/* 10 Mbit/s plus 312500 bytes queued at the window's end: d = r + q/T = 20 */
	for (i = 0; i < 25; i++) {
		b += 12500;
		t += 10 * MS;
		rc_demand_sample(&d, b, i == 24 ? 312500 : 0, t, &c);
	}
	ok(d.est > 14.99e6 && d.est < 15.01e6,
	   "r + q/T, EWMA 0.5: %.0f", d.est);
	ok(d.wqmin == 0, "smallest backlog of the window: %u", d.wqmin);
	for (i = 0; i < 500; i++) {
		b += 12500;
		t += 10 * MS;
		rc_demand_sample(&d, b, i % 25 == 24 ? 312500 : 0, t, &c);
	}
	ok(d.est > 19.9e6 && d.est < 20.1e6, "converges to r + q/T: %.0f", d.est);
	ok(rc_demand_sample(&d, 10, 0, t + 10 * MS, &c) == 0 && d.rate < 0,
	   "counter went back: restart");
	/* EWMA weight alpha on the new window: 10 then 20 Mbit/s at 0.25 */
	{
		struct rc_dem e = { 0 };

		c.alpha = 0.25;
		t = 1 * MS;
		b = 0;
		rc_demand_sample(&e, b, 0, t, &c);
		for (i = 0; i < 50; i++) {
			b += i < 25 ? 12500 : 25000;
			t += 10 * MS;
			rc_demand_sample(&e, b, 0, t, &c);
		}
		ok(e.rate > 19.99e6 && e.rate < 20.01e6 && e.est > 12.49e6 &&
		   e.est < 12.51e6,
		   "alpha 0.25: windows of 10 and 20 Mbit/s give 0.25 * 20 + 0.75 * 10 = 12.5 (%.0f)",
		   e.est);
	}
}

/*
 * A flow through its qdisc, every 10 ms: the application offers app(i)
 * bytes, the qdisc sends at most its allocation. The allocation is the
 * flow's fair share, or its announced demand when that is smaller (what
 * the rate loop computes for one host-limited flow). Returns how many
 * times the announcement changed over steps; *kbps the last one.
 */
typedef uint64_t (*app_fn)(int i, uint64_t *seed, uint64_t q);

static int sim_first, sim_last;		/* steps of the first/last change */
static double sim_rmin, sim_rmax;	/* window rates / share */

static int simulate(const struct rc_dem_conf *c, double share, app_fn app,
		    int steps, uint32_t *kbps, uint64_t seed)
{
	struct rc_dem d = { 0 };
	uint64_t t = 0, sent = 0, q = 0;
	uint32_t k = R2C2_DEMAND_UNLIMITED, n;
	int changes = 0;

	sim_first = -1;
	sim_rmin = 1e9;
	sim_rmax = 0;
	for (int i = 0; i < steps; i++) {
		double alloc = k == R2C2_DEMAND_UNLIMITED || k * 1e3 > share ?
			       share : k * 1e3;
		uint64_t can = (uint64_t)(alloc * 0.01 / 8), out;

		q += app(i, &seed, q);
		out = q < can ? q : can;
		q -= out;
		sent += out;
		t += 10 * MS;
		if (!rc_demand_sample(&d, sent, (uint32_t)q, t, c))
			continue;
		if (i > 100 && d.rate / share < sim_rmin)
			sim_rmin = d.rate / share;
		if (i > 100 && d.rate / share > sim_rmax)
			sim_rmax = d.rate / share;
		n = rc_demand_announce(&d, alloc, k, c);
		if (getenv("SIM_TRACE"))
			printf("# %d: rate %.0f qmin %u alloc %.0f -> %u\n",
			       i, d.rate, d.wqmin, alloc, n);
		if (n != k && sim_first < 0)
			sim_first = i;
		if (n != k)
			sim_last = i;
		changes += n != k;
		k = n;
	}
	*kbps = k;
	return changes;
}

/*
 * TCP under TCG: it keeps ~40 KB queued (cwnd), but its sender stalls for
 * 10-150 ms at random (a third of the steps fall in a stall), and the
 * queue runs dry in the long ones: its rate wobbles 60-110 % window to
 * window
 */
static uint64_t app_tcp_wobble(int i, uint64_t *seed, uint64_t q)
{
	static int stall;

	(void)i;
	if (stall > 0) {
		stall--;
		return 0;
	}
	if (tbelow(seed, 20) == 0)
		stall = 1 + (int)tbelow(seed, 15);
	return q < 40000 ? 40000 - q : 0;
}

/* the same without stalls, and its queue runs dry at one sample a window */
static uint64_t app_tcp_dry(int i, uint64_t *seed, uint64_t q)
{
	(void)seed;
	if (i % 50 == 3)
		return 0;
	return q < 8000 ? 8000 - q : 0;
}

/* iperf3 -b 2M: a 128 KB write every 0.5 s */
static uint64_t app_iperf_b2m(int i, uint64_t *seed, uint64_t q)
{
	(void)seed;
	(void)q;
	return i % 50 == 0 ? 131072 : 0;
}

/* 2 Mbit/s for 6 s, then as much as it can */
static uint64_t app_grows(int i, uint64_t *seed, uint64_t q)
{
	(void)seed;
	(void)q;
	return i < 600 ? 2500 : 100000;
}

/* 1 Mbit/s for 1 s, then a steady 3 Mbit/s */
static uint64_t app_ramp(int i, uint64_t *seed, uint64_t q)
{
	(void)seed;
	(void)q;
	return i < 100 ? 1250 : 3750;
}

/* a steady 1 Mbit/s */
static uint64_t app_1m(int i, uint64_t *seed, uint64_t q)
{
	(void)i;
	(void)seed;
	(void)q;
	return 1250;
}

static void rate__announce(void)
{
	struct rc_dem_conf c;
	uint32_t U = R2C2_DEMAND_UNLIMITED, k;
	int ch;

	rc_dem_defaults(&c);
	ch = simulate(&c, 6.3e6, app_tcp_wobble, 2000, &k, 1);
	ok(ch == 0 && k == U && sim_rmin < 0.8,
	   "TCP with sender stalls (window rates %.0f-%.0f %% of its 6.3 Mbit/s share): never announced (%d changes)",
	   100 * sim_rmin, 100 * sim_rmax, ch);
	ch = simulate(&c, 6.3e6, app_tcp_dry, 2000, &k, 1);
	ok(ch == 0 && k == U,
	   "queue dry once a window but sending its share: never announced (%d changes)",
	   ch);
	ch = simulate(&c, 8.13e6, app_iperf_b2m, 2000, &k, 1);
	ok(ch >= 1 && ch <= 2 && sim_last < 500 && k > 2000 && k < 2900,
	   "iperf3 -b 2M (128 KB bursts) at an 8.13 Mbit/s share: announced at %.1f s, refined (%d changes) to %u kbit/s by %.1f s, then stable for 15 s",
	   sim_first / 100.0, ch, k, sim_last / 100.0);
	ch = simulate(&c, 8.13e6, app_grows, 1200, &k, 1);
	ok(ch == 2 && k == U,
	   "host-limited, then wanting more: held at its demand, unlimited again (%d changes)",
	   ch);
	ch = simulate(&c, 9.5e6, app_ramp, 2000, &k, 1);
	ok(k >= 3000 && k <= 3700 && sim_last < 600,
	   "ramping 1 -> 3 Mbit/s during the run: announced %u kbit/s, not below what it offers (%d changes, last at %.1f s)",
	   k, ch, sim_last / 100.0);
	ch = simulate(&c, 8e6, app_1m, 400, &k, 1);
	ok(ch == 1 && sim_first == 150 && k == 1100,
	   "1 Mbit/s of 8: announced after 3 windows (step %d), r * 1.1 = %u kbit/s",
	   sim_first, k);
	{
		struct rc_dem d = { .rate = 2.5e6, .wqmin = 0 };

		/* at its allocation, its queue dry now and then (part of
		 * its window waits in a queue further on) */
		ok(rc_demand_announce(&d, 2.5e6, 2500, &c) == 2500 &&
		   rc_demand_announce(&d, 2.5e6, 2500, &c) == 2500 &&
		   rc_demand_announce(&d, 2.5e6, 2500, &c) == U,
		   "limited flow sending its whole allocation 3 windows, queue dry: unlimited");
		d.rate = 1e6;
		ok(rc_demand_announce(&d, 0, 1100, &c) == U,
		   "no allocation: unlimited");
		d.rate = -1;
		ok(rc_demand_announce(&d, 8e6, 77, &c) == 77,
		   "no window yet: unchanged");
	}
	{
		struct rc_dem d = { 0 };
		uint64_t t = 1000 * MS, b = 0;
		double alloc[3] = { 4.75e6, 4.75e6, 2.714e6 };
		double rate[3] = { 2.75e6, 3.0e6, 2.1e6 };
		uint32_t n = U;

		/* slow windows against the share it had alone, then others
		 * came: a demand of 3.3 Mbit/s > its 2.714 frees nothing */
		rc_demand_sample(&d, 0, 0, t, &c);
		for (int w = 0; w < 3; w++) {
			for (int i = 0; i < 50; i++) {
				t += 10 * MS;
				b += (uint64_t)(rate[w] * 0.01 / 8);
				if (rc_demand_sample(&d, b, 0, t, &c))
					n = rc_demand_announce(&d, alloc[w], n,
							       &c);
			}
		}
		ok(n == U && d.low_n == 3,
		   "3 slow windows, the allocation fell to below their estimate: unlimited (%u)",
		   n);
	}
	{
		struct rc_dem d = { 0 };
		uint64_t t = 1000 * MS, tnext = t + 100 * MS, b = 0, q = 70000;
		double alloc = 2.62e6;
		uint32_t n = 2620;
		int w = 0, at = 0;

		/* announced below what it offers (3.135 Mbit/s), sent in
		 * 64 KB GSO packets at 2.62: windows of 2 or 3 packets
		 * (2.1 or 3.1 Mbit/s) in turn, its queue never dry */
		rc_demand_sample(&d, 0, (uint32_t)q, t, &c);
		for (int i = 0; i < 500 && n != U; i++) {
			t += 10 * MS;
			q += 3919;
			while (q >= 65536 && t >= tnext) {
				q -= 65536;
				b += 65536;
				tnext += (uint64_t)(65536 * 8 / alloc * 1e9);
			}
			if (rc_demand_sample(&d, b, (uint32_t)q, t, &c)) {
				w++;
				n = rc_demand_announce(&d, alloc, n, &c);
				at = n == U ? w : at;
			}
		}
		ok(n == U && at == 3,
		   "limited below what it offers, its queue never dry, window rates 2.1 and 3.1 Mbit/s of 2.62: unlimited at window %d",
		   at);
	}
}

/* ---- configuration ---- */

/*
 * The loop of main.c against a budget: a round is wanted every rho from
 * from to to (ns), each costs cost(i) of CPU; rounds start at the later
 * of last + rho and rc_budget_next(). Every wakeup that finds the round
 * held costs check ns (counted in *wakes), and work that cannot wait
 * (events) other ns every ms. Fills start[] and spent[] (up to max) and
 * returns how many rounds ran.
 */
static size_t budget_run(struct rc_budget *b, uint64_t from, uint64_t to,
			 uint64_t rho, uint64_t (*cost)(size_t),
			 uint64_t other, uint64_t check, size_t *wakes,
			 uint64_t *start, uint64_t *spent, size_t max)
{
	uint64_t t = from, last = from - rho, n, ev = from + MS;
	size_t i = 0;

	*wakes = 0;
	while (i < max) {
		t = last + rho > t ? last + rho : t;
		n = rc_budget_next(b, t);
		if (other && ev <= (n > t ? n : t)) {
			/* the events of the next ms come first */
			t = ev > t ? ev : t;
			rc_budget_charge(b, other);
			ev += MS;
			continue;
		}
		if (n > t) {
			/* held: wake up at n and look again */
			t = n;
			if (t >= to)
				break;
			(*wakes)++;
			rc_budget_charge(b, check);
			continue;
		}
		if (t >= to)
			break;
		rc_budget_started(b, t);
		start[i] = t;
		spent[i] = cost(i);
		rc_budget_charge(b, spent[i]);
		last = t;
		i++;
	}
	return i;
}

static uint64_t cost_500us(size_t i)
{
	(void)i;
	return 500 * 1000;
}

/* 0.1..2.5 ms, deterministic */
static uint64_t cost_var(size_t i)
{
	return 100 * 1000 + (uint64_t)((i * 2654435761u) % 2400) * 1000;
}

static void rate__budget(void)
{
	static uint64_t st[200000], sp[200000];
	const uint64_t rho = 500 * 1000, s10 = 10000 * MS, sec = 1000 * MS;
	uint64_t worst = 0, depth = 17 * MS, sum, t0 = 1000 * MS, gap = 0;
	struct rc_budget b;
	size_t n, i, j, k, wakes;

	rc_budget_init(&b, 0, 0, sec, t0);
	n = budget_run(&b, t0, t0 + s10, rho, cost_500us, 0, 20000, &wakes,
		       st, sp, 200000);
	ok(n == 20000 && wakes == 0, "no budget: a round every rho (%zu in 10 s)", n);

	/*
	 * 1.7 % of a core, a second's worth in the bucket, 0.5-ms rounds,
	 * 20 us a wakeup that finds the round held
	 */
	rc_budget_init(&b, 0.017, depth, sec, t0);
	n = budget_run(&b, t0, t0 + s10, rho, cost_500us, 0, 20000, &wakes,
		       st, sp, 200000);
	for (i = 0; i < n && st[i] == t0 + i * rho; i++)
		;
	ok(i == 35, "a full bucket (17 ms) runs 35 rounds of 0.5 ms back to back, every rho (%zu)", i);
	sum = (uint64_t)n * 500 * 1000;
	ok(sum + wakes * 20000 <= 170 * MS + depth + 500 * 1000 &&
	   sum >= 170 * MS + depth - 1000 * 1000 - wakes * 20000,
	   "10 s: %.2f ms of rounds + %.2f ms of wakeups against 170 ms + the 17-ms bucket",
	   sum / 1e6, wakes * 0.02);
	ok(wakes <= n - i + 1,
	   "at most a wakeup a held round (%zu for %zu rounds): checks do not spend the budget",
	   wakes, n - i);
	for (j = i + 1; j < n; j++)
		if (st[j] - st[j - 1] > gap)
			gap = st[j] - st[j - 1];
	ok(gap <= 2 * 29412 * 1000 + 32 * MS,
	   "no round waits more than two rounds' worth (29.4 ms each) and 1/32 of the bucket's (%.1f ms)",
	   gap / 1e6);

	/* rounds of varying cost: every window of 1 s within share + bucket */
	rc_budget_init(&b, 0.017, depth, sec, t0);
	n = budget_run(&b, t0, t0 + s10, rho, cost_var, 0, 20000, &wakes,
		       st, sp, 200000);
	for (i = 0; i < n; i++) {
		sum = 0;
		for (k = i; k < n && st[k] < st[i] + sec; k++)
			sum += sp[k];
		if (sum > worst)
			worst = sum;
	}
	ok(worst <= 17 * MS + depth + 2500 * 1000,
	   "rounds of 0.1-2.5 ms: at most %.2f ms in any second (17 + bucket 17 + one round)",
	   worst / 1e6);
	sum = 0;
	for (i = 0; i < n; i++)
		sum += sp[i];
	ok(sum + wakes * 20000 >= 170 * MS,
	   "the budget is used: %.1f ms of rounds in 10 s (%zu wakeups)",
	   sum / 1e6, wakes);

	/* events take 1 % of the 1.7 %: the rounds get the rest */
	rc_budget_init(&b, 0.017, depth, sec, t0);
	n = budget_run(&b, t0, t0 + s10, rho, cost_500us, 10 * 1000, 20000,
		       &wakes, st, sp, 200000);
	sum = (uint64_t)n * 500 * 1000 + wakes * 20000;
	ok(sum >= 70 * MS + depth - 1500 * 1000 && sum <= 70 * MS + depth + 500 * 1000,
	   "with events taking 1 %% of a core, rounds take the other 0.7 %%: %.1f ms in 10 s",
	   sum / 1e6);

	/* events alone take 5 % of the 1.7 %: a round a second all the same */
	rc_budget_init(&b, 0.017, depth, sec, t0);
	n = budget_run(&b, t0, t0 + s10, rho, cost_500us, 50 * 1000, 20000,
		       &wakes, st, sp, 200000);
	for (i = 0; i < n && st[i] < t0 + sec; i++)
		;
	for (gap = 0, j = i ? i : 1; j < n; j++)
		if (st[j] - st[j - 1] > gap)
			gap = st[j] - st[j - 1];
	ok(n - i >= 8 && n - i <= 10 && gap <= sec + MS,
	   "events over the budget: after the bucket's burst (%zu rounds), %zu rounds in 9 s, none more than 1 s after the last (longest gap %.1f ms)",
	   i, n - i, gap / 1e6);
	ok(b.tokens_ns >= -(int64_t)depth,
	   "the debt stays within the bucket's depth (%lld ns)",
	   (long long)b.tokens_ns);

	/*
	 * an empty bucket: the next round when it holds 1/32 of its depth
	 * again, 1 ms of 32 at half a core: 2 ms (and 1 ns) later
	 */
	{
		struct rc_budget e;

		rc_budget_init(&e, 0.5, 32 * MS, 0, t0);
		rc_budget_started(&e, t0);
		rc_budget_charge(&e, 32 * MS);
		ok(e.tokens_ns == 0 && rc_budget_next(&e, t0) == t0 + 2 * MS + 1 &&
		   rc_budget_next(&e, t0 + 2 * MS + 1) == t0 + 2 * MS + 1,
		   "empty bucket, half a core: the next round when 1/32 of it is back (%.6f ms)",
		   (rc_budget_next(&e, t0) - t0) / 1e6);
	}
	/* a quiet minute fills the bucket to its depth, not beyond */
	rc_budget_next(&b, t0 + s10 + 60000 * MS);
	ok(b.tokens_ns == (int64_t)depth, "after a quiet minute: %lld ns in the bucket",
	   (long long)b.tokens_ns);
	rc_budget_started(&b, t0 + s10 + 60000 * MS);
	rc_budget_charge(&b, 10 * MS);
	ok(rc_budget_next(&b, t0 + s10 + 60000 * MS) == t0 + s10 + 60000 * MS,
	   "a 10-ms round leaves 7 ms: the next may start at once");
	rc_budget_charge(&b, 40 * MS);
	ok(b.tokens_ns == -(int64_t)depth &&
	   rc_budget_next(&b, t0 + s10 + 60000 * MS) == t0 + s10 + 61000 * MS,
	   "a 40-ms round more: 17 ms owed, not 33; the next waits 1 s (%lld ns)",
	   (long long)b.tokens_ns);
}

static void conf__file(void)
{
	char path[] = "/tmp/r2c2d_conf_XXXXXX", err[256] = "";
	struct r2c2d_conf c;
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	fputs("# r2c2d\nrho_us = 250\n  policy=propfair  # comment\n"
	      "link_capacity = 50M\ntopology = torus:3x3\nrounds = always\n", f);
	fclose(f);
	conf_defaults(&c);
	ok(!c.rounds_always, "rounds = own by default");
	ok(!conf_load(&c, path, err, sizeof(err)) && c.rho_us == 250 &&
	   c.policy == R2C2_POL_PROPFAIR && c.link_capacity == 50e6 &&
	   !strcmp(c.topology, "torus:3x3") && c.rounds_always,
	   "file parsed (%s)", err);
	f = fopen(path, "w");
	fputs("rounds = sometimes\n", f);
	fclose(f);
	ok(conf_load(&c, path, err, sizeof(err)) == -EINVAL &&
	   strstr(err, ":1: bad value 'sometimes' for rounds"), "rounds: %s",
	   err);
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
	conf_defaults(&c);
	ok(c.ga_utility == R2C2_UTIL_SUM &&
	   !conf_set(&c, "ga_utility", "min", err, sizeof(err)) &&
	   c.ga_utility == R2C2_UTIL_MIN &&
	   conf_set(&c, "ga_utility", "max", err, sizeof(err)) == -EINVAL &&
	   c.ga_utility == R2C2_UTIL_MIN &&
	   conf_set(&c, "rounds_always", "own", err, sizeof(err)) == -EINVAL &&
	   !conf_set(&c, "policy", "maxmin", err, sizeof(err)) &&
	   c.policy == R2C2_POL_MAXMIN,
	   "ga_utility sum | min, policy maxmin, bad words rejected");
	/* integers are decimal: strtoull(.., 0) read 0500 as octal 320 */
	f = fopen(path, "w");
	fputs("expire_ms = 05000\nrho_us = 0500\n", f);
	fclose(f);
	err[0] = 0;
	ok(!conf_load(&c, path, err, sizeof(err)) && c.rho_us == 500 &&
	   c.expire_ms == 5000, "rho_us = 0500 is 500 (got %u), expire_ms = 05000 is 5000 (%s)",
	   c.rho_us, err);
	f = fopen(path, "w");
	fputs("rho_us = 500\nrho_us = 0x1f4\n", f);
	fclose(f);
	ok(conf_load(&c, path, err, sizeof(err)) == -EINVAL &&
	   strstr(err, ":2: bad value '0x1f4' for rho_us (a decimal integer 50..10000000)"),
	   "rho_us = 0x1f4 is junk, with key, line and range: %s", err);
	ok(conf_set(&c, "rho_us", "500us", err, sizeof(err)) == -EINVAL &&
	   conf_set(&c, "rho_us", "+500", err, sizeof(err)) == -EINVAL &&
	   conf_set(&c, "rho_us", "", err, sizeof(err)) == -EINVAL,
	   "rho_us 500us, +500 and '' rejected: %s", err);
	ok(conf_set(&c, "headroom", "0.9", err, sizeof(err)) == -EINVAL &&
	   strstr(err, "bad value '0.9' for headroom (a number 0..0.5)"),
	   "the range of a number: %s", err);
	ok(conf_set(&c, "link_capacity", "1e300T", err, sizeof(err)) == -EINVAL &&
	   strstr(err, "for link_capacity (a rate"), "link_capacity 1e300T: %s", err);
	conf_defaults(&c);
	ok(c.cpu_budget == 0 && !conf_set(&c, "cpu_budget", "1.7", err, sizeof(err)) &&
	   c.cpu_budget == 1.7, "cpu_budget: off by default, 1.7 taken");
	ok(conf_set(&c, "cpu_budget", "101", err, sizeof(err)) == -EINVAL &&
	   conf_set(&c, "cpu_budget", "-1", err, sizeof(err)) == -EINVAL &&
	   c.cpu_budget == 1.7 && strstr(err, "bad value '-1' for cpu_budget"),
	   "cpu_budget outside 0..100 rejected, unchanged: %s", err);
	conf_defaults(&c);
	ok(!conf_set(&c, "state_file", "/run/r2c2d/state", err, sizeof(err)) &&
	   !strcmp(c.state_file, "/run/r2c2d/state") &&
	   !conf_set(&c, "control", "@r2c2d-b", err, sizeof(err)) &&
	   !strcmp(c.control, "@r2c2d-b") &&
	   !conf_set(&c, "topology", "torus:4x4", err, sizeof(err)) &&
	   !strcmp(c.topology, "torus:4x4"),
	   "string keys: state_file, control, topology taken");
	{
		char longv[1100], lerr[1300];

		memset(longv, 'a', sizeof(longv) - 1);
		longv[sizeof(longv) - 1] = 0;
		ok(conf_set(&c, "state_file", longv, lerr, sizeof(lerr)) == -EINVAL &&
		   strstr(lerr, "(at most 1023 characters)") &&
		   !strcmp(c.state_file, "/run/r2c2d/state"),
		   "state_file of 1099 characters rejected, unchanged: ...%s",
		   lerr + strlen(lerr) - 27);
		longv[108] = 0;
		ok(conf_set(&c, "control", longv, err, sizeof(err)) == -EINVAL &&
		   strstr(err, "(at most 107 characters)") &&
		   !strcmp(c.control, "@r2c2d-b"),
		   "control of 108 characters rejected, unchanged");
	}
	unlink(path);
}

/* state_file: own demands saved, read back by a new daemon of the node */
static void state__save_load(void)
{
	char path[] = "/tmp/r2c2d_state_XXXXXX", err[256] = "", sub[64];
	struct mx_evt e = ev(R2C2_FE_START, 5, 0x8f78c8c0, 3);
	struct st_ent *v = NULL;
	size_t n = 99;
	struct mx m;
	int fd = mkstemp(path);
	FILE *f;

	close(fd);
	unlink(path);
	ok(!st_load(path, 5, &v, &n, err, sizeof(err)) && !n && !v,
	   "no file: no entries, no error");
	mx_init(&m, 5);
	e.demand_kbps = 1100;
	mx_apply(&m, &e, 0);
	e = ev(R2C2_FE_START, 5, 0x10, 2);	/* unlimited: not saved */
	mx_apply(&m, &e, 0);
	e = ev(R2C2_FE_START, 7, 0x20, 3);	/* another node's */
	e.demand_kbps = 50;
	mx_apply(&m, &e, 0);
	e = ev(R2C2_FE_START, 5, 0x1, 4);
	e.demand_kbps = 1;
	mx_apply(&m, &e, 0);
	ok(!st_save(path, 5, &m), "saved");
	ok(!st_load(path, 5, &v, &n, err, sizeof(err)) && n == 2 &&
	   v[0].id == 0x1 && v[1].id == 0x8f78c8c0,
	   "read back: the two own flows with a demand, by id (%zu)", n);
	ok(st_demand(v, n, 0x8f78c8c0, 3) == 1100 &&
	   st_demand(v, n, 0x1, 4) == 1 &&
	   st_demand(v, n, 0x8f78c8c0, 2) == R2C2_DEMAND_UNLIMITED &&
	   st_demand(v, n, 0x10, 2) == R2C2_DEMAND_UNLIMITED &&
	   st_demand(v, n, 0x20, 3) == R2C2_DEMAND_UNLIMITED,
	   "lookup by id and destination; unknown or unlimited: unlimited");
	free(v);
	/* the same from the matrix's list of node 5's flows */
	mx_set_own(&m, 5);
	ok(m.own == 3 && !st_save(path, 5, &m) &&
	   !st_load(path, 5, &v, &n, err, sizeof(err)) && n == 2 &&
	   v[0].id == 0x1 && v[1].id == 0x8f78c8c0 && v[1].demand_kbps == 1100,
	   "saved from the own list (%u flows): the same two (%zu)", m.own, n);
	free(v);
	mx_set_own(&m, 7);
	ok(!st_save(path, 5, &m) &&
	   !st_load(path, 5, &v, &n, err, sizeof(err)) && n == 2,
	   "another node's list: node 5's flows found by the walk (%zu)", n);
	free(v);
	ok(!st_load(path, 6, &v, &n, err, sizeof(err)) && !n,
	   "another node's file: no entries");
	f = fopen(path, "w");
	fputs("node 5\nflow 8f78c8c0 dst 3 demand 1100\nflow zz dst 3\n", f);
	fclose(f);
	ok(st_load(path, 5, &v, &n, err, sizeof(err)) == -EINVAL && !n &&
	   !v && strstr(err, ":3: want \"flow HEXID dst ADDR demand KBPS\""),
	   "a bad line: an error naming it, no entries: %s", err);
	f = fopen(path, "w");
	fputs("flow 8f78c8c0 dst 3 demand 1100\n", f);
	fclose(f);
	ok(st_load(path, 5, &v, &n, err, sizeof(err)) == -EINVAL && !n &&
	   strstr(err, ":1: want \"node ADDR\" first"), "no node line: %s",
	   err);
	unlink(path);
	/* path as a directory: its last directory made, not two */
	ok(!mkdir(path, 0700), "a directory %s", path);
	snprintf(sub, sizeof(sub), "%s/a/b/state", path);
	ok(st_save(sub, 5, &m) == -ENOENT, "two directories missing: -ENOENT");
	snprintf(sub, sizeof(sub), "%s/a/state", path);
	ok(!st_save(sub, 5, &m) && !st_load(sub, 5, &v, &n, err, sizeof(err)) &&
	   n == 2, "the last directory missing: made, the file written");
	free(v);
	unlink(sub);
	snprintf(sub, sizeof(sub), "%s/a", path);
	rmdir(sub);
	rmdir(path);
	mx_fini(&m);
}

/*
 * st_refuses(PATH, LINE): a state file of node 5 whose second line is
 * LINE does not load: -EINVAL naming line 2, no entries; the message
 * in err
 */
static bool st_refuses(const char *path, const char *line, char *err,
		       size_t errlen)
{
	char buf[160];
	struct st_ent *v = NULL;
	size_t n = 99;
	bool r;
	FILE *f;

	snprintf(buf, sizeof(buf), "node 5\n%s\n", line);
	f = fopen(path, "w");
	fputs(buf, f);
	fclose(f);
	err[0] = 0;
	r = st_load(path, 5, &v, &n, err, errlen) == -EINVAL && !n && !v &&
	    strstr(err, ":2: want");
	free(v);
	return r;
}

/*
 * A demand above R2C2_DEMAND_UNLIMITED (state_fuzz: 3077141822, or -1
 * as sscanf's %u takes it) loaded as it was, though no flow event can
 * carry it: the daemon's START of that own flow, made with it, was
 * refused by mx_apply(), and the flow stayed out of the matrix until
 * the next sample. The line does not parse now, like an unlimited one.
 */
static void state__demand_range(void)
{
	static const char *const bad[] = { "3077141822", "-1", "1073741823" };
	char path[] = "/tmp/r2c2d_state_XXXXXX", err[256], line[128];
	struct st_ent *v = NULL;
	size_t n = 99, i;
	int fd = mkstemp(path);
	FILE *f;

	close(fd);
	f = fopen(path, "w");
	fputs("node 5\nflow 1 dst 3 demand 1073741822\n", f);
	fclose(f);
	ok(!st_load(path, 5, &v, &n, err, sizeof(err)) && n == 1 &&
	   v[0].demand_kbps == R2C2_DEMAND_UNLIMITED - 1,
	   "the largest demand a flow event carries loads");
	free(v);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(line, sizeof(line), "flow 1 dst 3 demand %s", bad[i]);
		ok(st_refuses(path, line, err, sizeof(err)),
		   "demand %s: a line that does not parse (%s)", bad[i], err);
	}
	/*
	 * numbers the parser once took for others (sscanf's %u and %x: a
	 * sign, 2^32 + 1 wrapping to 1, a leading 0x), and trailing words
	 */
	{
		static const char *const badl[] = {
			"flow 1 dst 4294967297 demand 5",
			"flow -1 dst 3 demand 5",
			"flow 1 dst +3 demand 5",
			"flow 1 dst 3 demand 4294967301",
			"flow 0x1 dst 3 demand 5",
			"flow 123456789 dst 3 demand 5",
			"flow 1 dst 3 demand 5 extra",
			"flow 1 dst 3 demand",
		};

		for (i = 0; i < sizeof(badl) / sizeof(badl[0]); i++)
			ok(st_refuses(path, badl[i], err, sizeof(err)),
			   "'%s': refused (%s)", badl[i], err);
		f = fopen(path, "w");
		fputs("node 5\n\tflow  00000001   dst 3 demand 5\t\n", f);
		fclose(f);
		ok(!st_load(path, 5, &v, &n, err, sizeof(err)) && n == 1 &&
		   v[0].id == 1 && v[0].dst == 3 && v[0].demand_kbps == 5,
		   "spaces and tabs between the words: read (%s)", err);
		free(v);
	}
	unlink(path);
}

/* the longest hash chain of m */
static uint32_t longest_chain(const struct mx *m)
{
	uint32_t b, i, n, max = 0;

	for (b = 0; b < m->nb; b++) {
		n = 0;
		for (i = m->bucket[b]; i != MX_NONE; i = m->f[i].next)
			n++;
		if (n > max)
			max = n;
	}
	return max;
}

/*
 * The bucket hash was (src << 32 | id) times a constant, unkeyed: one
 * source could pick flow ids that share a bucket at every table size up
 * to 4096 and chain its whole quota into one list, walked by every
 * lookup of its flows. N such ids of source 5, found as anyone could.
 */
static void matrix__hash_keyed(void)
{
	enum { N = 2000 };
	static uint32_t ids[N];
	const uint64_t key0[2] = { 0x0706050403020100ull, 0x0f0e0d0c0b0a0908ull };
	const uint64_t key1[2] = { 1, 2 }, key2[2] = { 3, 4 };
	uint64_t h, want = 0;
	uint32_t id, n = 0, i, moved = 0, lost = 0, *b1;
	struct mx m;

	for (id = 0; n < N; id++) {
		h = ((uint64_t)5 << 32 | id) * 0x9e3779b97f4a7c15ull >> 32 & 4095;
		if (!n)
			want = h;
		if (h == want)
			ids[n++] = id;
	}
	mx_init(&m, 0);
	for (i = 0; i < N; i++)
		mx_apply(&m, &(struct mx_evt){ .type = R2C2_FE_START, .src = 5,
					       .id = ids[i], .dst = 1,
					       .weight = 1 }, 1);
	ok(m.n == N && longest_chain(&m) <= 16,
	   "%u flow ids picked to collide under an unkeyed hash: longest chain %u in %u buckets",
	   m.n, longest_chain(&m), m.nb);
	/* SipHash-2-4's reference vector: key 00..0f, message 00..07 */
	ok(mx_siphash(key0, 0x0706050403020100ull) == 0x93f5f5799a932462ull,
	   "mx_siphash() is SipHash-2-4 (%016llx)",
	   (unsigned long long)mx_siphash(key0, 0x0706050403020100ull));
	/* the same flows under two keys: other buckets */
	mx_set_key(&m, key1);
	b1 = malloc(N * sizeof(*b1));
	for (i = 0; i < N; i++)
		b1[i] = mx_hash(&m, 5, ids[i]);
	mx_set_key(&m, key2);
	for (i = 0; i < N; i++) {
		moved += b1[i] != mx_hash(&m, 5, ids[i]);
		lost += mx_find(&m, 5, ids[i]) == MX_NONE;
	}
	ok(moved > N * 9 / 10 && !lost && longest_chain(&m) <= 16,
	   "another key places %u of the %u flows in other buckets; every flow found (%u lost)",
	   moved, N, lost);
	free(b1);
	mx_fini(&m);
}

int main(void)
{
	matrix__start_finish();
	matrix__update_refresh();
	matrix__invalid();
	matrix__quota();
	matrix__expiry();
	matrix__expiry_steps();
	matrix__resync();
	matrix__drop_stale();
	matrix__random_vs_model();
	matrix__view_follows();
	matrix__hash_keyed();
	rate__should_push();
	rate__batch();
	rate__demand();
	rate__announce();
	rate__budget();
	conf__file();
	state__save_load();
	state__demand_range();
	return tap_done();
}
