// SPDX-License-Identifier: GPL-2.0
/*
 * r2c2d_routesel_test.c - r2c2d's route selection, offline (TAP): the
 * turn rotation and its robustness, the search over the matrix's long
 * flows, ROUTES batches, applying ROUTES to the matrix.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../r2c2d/matrix.c"
#include "../r2c2d/worker.c"
#include "../r2c2d/routesel.c"
#include "alloc_tap.h"

#define MS 1000000ull
#define SEC 1000000000ull

static struct mx_evt start(uint16_t src, uint32_t id, uint16_t dst,
			   uint8_t rproto)
{
	struct mx_evt e = {
		.type = R2C2_FE_START, .src = src, .id = id, .dst = dst,
		.weight = 1, .rproto = rproto,
		.demand_kbps = R2C2_DEMAND_UNLIMITED,
	};
	return e;
}

/* exactly one node runs in every slot; every node in turn */
static void turn__rotation(void)
{
	enum { N = 9, SLOTS = 40 };
	struct rs s[N];
	uint64_t iv = 5 * SEC, base = 1700000000ull * SEC;
	int runs[N] = { 0 }, bad = 0, twice = 0;

	for (int i = 0; i < N; i++)
		rs_init(&s[i]);
	for (int t = 0; t < SLOTS; t++) {
		int who = 0, last = -1;

		/* every node checks several times a slot */
		for (int q = 0; q < 5; q++) {
			uint64_t w = base + (uint64_t)t * iv + (uint64_t)q * iv / 5;

			for (int i = 0; i < N; i++)
				if (rs_my_turn(&s[i], w, w, iv, N, (uint16_t)i)) {
					who++;
					last = i;
					runs[i]++;
				}
		}
		if (who != 1)
			bad++;
		if (last >= 0 && (uint64_t)last != ((base / iv) + (uint64_t)t) % N)
			twice++;
	}
	ok(!bad, "one node runs in each of %d slots (%d slots wrong)", SLOTS, bad);
	ok(!twice, "the runner is the node slot mod n");
	bad = 0;
	for (int i = 0; i < N; i++)
		bad += runs[i] < SLOTS / N || runs[i] > SLOTS / N + 1;
	ok(!bad, "turns are shared evenly (%d..%d each)", SLOTS / N, SLOTS / N + 1);
	ok(!rs_my_turn(&s[0], base, base, 0, N, 0) &&
	   !rs_my_turn(&s[0], base, base, iv, 0, 0),
	   "interval 0 or no nodes: nobody runs");
}

/* a dead node leaves one empty slot; the next node runs in the next */
static void turn__node_loss(void)
{
	enum { N = 4 };
	struct rs s[N];
	uint64_t iv = 2 * SEC;
	int slots_run = 0, empty = 0;

	for (int i = 0; i < N; i++)
		rs_init(&s[i]);
	for (int t = 0; t < 4 * N; t++) {
		uint64_t w = (uint64_t)t * iv + iv / 3;
		int who = 0;

		for (int i = 0; i < N; i++)
			if (i != 2 && rs_my_turn(&s[i], w, w, iv, N, (uint16_t)i))
				who++;
		slots_run += who;
		empty += !who;
	}
	ok(empty == 4 && slots_run == 3 * N,
	   "node 2 dead: its 4 slots empty, the other 12 run (%d empty, %d run)",
	   empty, slots_run);
}

/* a node that just heard ROUTES skips its turn (clock skew guard) */
static void turn__heard_skip(void)
{
	struct rs s;
	uint64_t iv = 4 * SEC;

	rs_init(&s);
	s.heard_ns = 100 * SEC;
	ok(!rs_my_turn(&s, 1 * iv, 100 * SEC + iv / 4, iv, 4, 1) &&
	   s.skipped == 1, "ROUTES heard a quarter slot ago: turn skipped");
	ok(!rs_my_turn(&s, 1 * iv + 1, 100 * SEC + iv / 4 + 1, iv, 4, 1),
	   "and not retried in the same slot");
	ok(rs_my_turn(&s, 5 * iv, 100 * SEC + iv, iv, 4, 1),
	   "next turn, a slot later: runs");
}

static void params(struct rs_params *p)
{
	memset(p, 0, sizeof(*p));
	p->long_ns = 1 * SEC;
	p->margin = 0.02;
	p->threads = 1;
	p->seed = 7;
	p->utility = R2C2_UTIL_SUM;
	p->policy = R2C2_POL_MAXMIN;
	p->headroom = 0.05;
	p->protos = 1u << R2C2_RP_RPS | 1u << R2C2_RP_DOR | 1u << R2C2_RP_VLB;
}

/*
 * 3x3 torus, 0 -> 4 and 1 -> 4 both on DOR share the link 1 -> 4 (95
 * Mbit/s in all at 100 Mbit/s a link); spreading 0 -> 4 raises the sum.
 */
static void select__improves(void)
{
	struct r2c2_topo *t = NULL;
	struct r2c2_rtab *rt = NULL;
	struct rs_decision dec;
	struct rs_params p;
	struct mx m;
	struct rs s;
	struct mx_evt a = start(0, 0xa, 4, R2C2_RP_DOR);
	struct mx_evt b = start(1, 0xb, 4, R2C2_RP_DOR);
	char err[128];
	int r;

	ok(r2c2_topo_parse(&t, "torus:3x3", 100e6, err, sizeof(err)) == 0 &&
	   r2c2_rtab_new(&rt, t) == 0, "3x3 torus, 100 Mbit/s links");
	mx_init(&m, 0);
	rs_init(&s);
	params(&p);
	mx_apply(&m, &a, 0);
	mx_apply(&m, &b, 0);

	r = rs_select(&s, &m, rt, t->n, 500 * MS, &p, &dec);
	ok(r == 0 && dec.flows == 2 && dec.long_flows == 0 && !dec.adopted,
	   "flows younger than long_ms: no search (r %d, long %u)", r,
	   dec.long_flows);

	/* exactly long_ms old: long; a gain below the margin: kept */
	p.margin = 10;
	r = rs_select(&s, &m, rt, t->n, 1 * SEC, &p, &dec);
	ok(dec.long_flows == 2, "flows exactly long_ms old are long (%u)",
	   dec.long_flows);
	ok(r == 0 && !dec.adopted && dec.changed == 0 && !s.nent &&
	   dec.after > dec.before * 1.2,
	   "a gain (%.4g -> %.4g) below a margin of 1000 %%: not adopted, nothing sent",
	   dec.before, dec.after);
	p.margin = 0.02;
	r = rs_select(&s, &m, rt, t->n, 2 * SEC, &p, &dec);
	ok(r >= 1 && dec.adopted && dec.long_flows == 2,
	   "both long: the search changes %d flow(s)", r);
	ok(dec.before > 94e6 && dec.before < 96e6 && dec.after > dec.before * 1.2,
	   "utility %.4g -> %.4g bit/s", dec.before, dec.after);
	ok(dec.count[R2C2_RP_RPS] + dec.count[R2C2_RP_DOR] +
	   dec.count[R2C2_RP_VLB] == 2, "per-protocol counts add up to the long flows");
	ok(m.f[mx_find(&m, 0, 0xa)].rproto == R2C2_RP_DOR,
	   "the matrix is not touched by the search");
	{
		uint64_t g = m.gen;
		uint32_t c = rs_apply(&m, s.ent, s.nent);
		struct r2c2_flow f[2];
		double u;

		ok(c == s.nent && m.gen == g + 1, "applying the entries changes %u flows", c);
		for (int i = 0; i < 2; i++) {
			const struct mx_flow *x = &m.f[i];

			memset(&f[i], 0, sizeof(f[i]));
			f[i].src = x->src;
			f[i].dst = x->dst;
			f[i].rproto = x->rproto;
			f[i].weight = 1;
		}
		ok(r2c2_utility(rt, f, 2, R2C2_POL_MAXMIN, R2C2_UTIL_SUM, 0.05,
				NULL, &u) == 0 && u > dec.after * 0.999 &&
		   u < dec.after * 1.001,
		   "the matrix now has the utility found (%.4g)", u);
		g = m.gen;
		ok(rs_apply(&m, s.ent, s.nent) == 0 && m.gen == g,
		   "applying them again changes nothing");
	}
	r = rs_select(&s, &m, rt, t->n, 3 * SEC, &p, &dec);
	ok(r == 0 && !dec.adopted && dec.after <= dec.before * 1.02,
	   "searching again: no gain beyond the margin, nothing sent");

	rs_fini(&s);
	mx_fini(&m);
	r2c2_rtab_free(rt);
	r2c2_topo_free(t);
}

/* s's copy of m's view, ids and births is m's; the differences */
static int snapshot_differs(const struct rs *s, const struct mx *m)
{
	int bad = s->vn != m->n;
	uint32_t i;

	for (i = 0; !bad && i < m->n; i++)
		bad += memcmp(&s->vf[i], &m->view[i], sizeof(s->vf[i])) ||
		       s->vid[i] != m->fid[i] || s->vborn[i] != m->born[i];
	return bad;
}

/*
 * The loop's part of a search copies only the chunks of the matrix's
 * view changed since the last search's copy; the worker takes the
 * flows in the topology from it and tells the long ones by their birth
 */
static void select__snapshot_chunks(void)
{
	struct r2c2_topo *t = NULL;
	struct r2c2_rtab *rt = NULL;
	struct rs_params p;
	struct mx_evt e;
	struct mx m;
	struct rs s;
	char err[128];
	uint32_t i, k, found = 0;
	int r, bad = 0;

	ok(r2c2_topo_parse(&t, "torus:3x3", 100e6, err, sizeof(err)) == 0 &&
	   r2c2_rtab_new(&rt, t) == 0, "3x3 torus for the snapshot's chunks");
	mx_init(&m, 0);
	rs_init(&s);
	params(&p);
	p.long_ns = 1500 * MS;
	/* 1,000 flows: 4 chunks; the first 500 born at 0, the rest at 1 s */
	for (i = 0; i < 1000; i++) {
		e = start((uint16_t)(i % 9), i, (uint16_t)((i + 1 + i / 9) % 9),
			  R2C2_RP_RPS);
		if (e.dst == e.src)
			e.dst = (uint16_t)((e.src + 1) % 9);
		mx_apply(&m, &e, i < 500 ? 0 : 1 * SEC);
	}
	/* and one with an end outside the topology: not searched */
	e = start(2, 5000, 20, R2C2_RP_RPS);
	mx_apply(&m, &e, 0);

	r = rs_prepare(&s, &m, t->n, 2 * SEC, &p);
	ok(r == 1001 && s.dec.chunks == 4 && !snapshot_differs(&s, &m),
	   "the first search copies every chunk: %d flows, %u chunks (want 1001, 4)",
	   r, s.dec.chunks);
	r = rs_pairs(&s, rt);
	ok(r == 500 && s.dec.flows == 1000 && s.dec.long_flows == 500,
	   "the worker's flows: %u in the topology (want 1000), %u long (want 500: born 1.5 s or more before)",
	   s.dec.flows, s.dec.long_flows);
	for (k = 0; k < s.nf; k++) {
		uint32_t x = mx_find(&m, s.key[k].src, s.key[k].id);

		found += x != MX_NONE && m.f[x].dst == s.f[k].dst &&
			 m.f[x].rproto == s.key[k].rproto &&
			 s.is_long[k] == (m.f[x].born_ns == 0);
	}
	ok(found == s.nf, "each of them is keyed by its (src, id), with its birth (%u of %zu)",
	   found, s.nf);

	r = rs_prepare(&s, &m, t->n, 2 * SEC, &p);
	ok(r == 1001 && s.dec.chunks == 0 && !snapshot_differs(&s, &m),
	   "nothing changed since: no chunk copied (%u)", s.dec.chunks);

	/* flow 600 (chunk 2) changes protocol */
	e = start(600 % 9, 600, m.f[mx_find(&m, 600 % 9, 600)].dst, R2C2_RP_VLB);
	e.type = R2C2_FE_UPDATE;
	mx_apply(&m, &e, 3 * SEC);
	r = rs_prepare(&s, &m, t->n, 3 * SEC, &p);
	bad = snapshot_differs(&s, &m);
	ok(r == 1001 && s.dec.chunks == 1 && !bad &&
	   s.vf[mx_find(&m, 600 % 9, 600)].rproto == R2C2_RP_VLB,
	   "one flow updated: its chunk copied, and only it (%u chunks)",
	   s.dec.chunks);

	/*
	 * flow 10 (chunk 0) finishes: the last flow takes its place, and
	 * its own place is past the matrix's end
	 */
	e = start(10 % 9, 10, 0, 0);
	e.type = R2C2_FE_FINISH;
	mx_apply(&m, &e, 3 * SEC);
	r = rs_prepare(&s, &m, t->n, 3 * SEC, &p);
	ok(r == 1000 && s.dec.chunks == 1 && !snapshot_differs(&s, &m),
	   "one flow finished: the chunk of its place copied, where the last flow moved (%u)",
	   s.dec.chunks);

	/*
	 * A new search state copies one chunk a call: four calls for the
	 * four chunks. Flow 5 (chunk 0, copied) and flow 900 (chunk 3, not
	 * yet) change after the first: the pass ends with both chunks again
	 */
	rs_fini(&s);
	rs_init(&s);
	s.copy_step = 1;
	r = rs_prepare(&s, &m, t->n, 4 * SEC, &p);
	e = start(5, 5, m.f[mx_find(&m, 5, 5)].dst, R2C2_RP_DOR);
	e.type = R2C2_FE_UPDATE;
	mx_apply(&m, &e, 4 * SEC);
	e = start(900 % 9, 900, m.f[mx_find(&m, 900 % 9, 900)].dst,
		  R2C2_RP_VLB);
	e.type = R2C2_FE_UPDATE;
	mx_apply(&m, &e, 4 * SEC);
	k = 0;
	while (r == -EAGAIN && rs_copying(&s) && k++ < 10)
		r = rs_prepare(&s, &m, t->n, 5 * SEC, &p);
	ok(r == 1000 && k == 3 && !rs_copying(&s) && s.dec.copy_steps == 4 &&
	   s.dec.chunks == 4 + 2 && s.dec.mono_ns == 5 * SEC &&
	   !snapshot_differs(&s, &m) &&
	   s.vf[mx_find(&m, 5, 5)].rproto == R2C2_RP_DOR &&
	   s.vf[mx_find(&m, 900 % 9, 900)].rproto == R2C2_RP_VLB,
	   "one chunk a call: %d flows after %u calls (want 4), %u chunks copied (want 6: the two changed meanwhile again), the snapshot the matrix's",
	   r, s.dec.copy_steps, s.dec.chunks);
	r = rs_prepare(&s, &m, t->n, 5 * SEC, &p);
	ok(r == 1000 && s.dec.copy_steps == 1 && !s.dec.chunks,
	   "the next search: one call, no chunk (%u calls, %u chunks)",
	   s.dec.copy_steps, s.dec.chunks);

	rs_fini(&s);
	mx_fini(&m);
	r2c2_rtab_free(rt);
	r2c2_topo_free(t);
}

/*
 * one flow to a neighbour: RPS and DOR both take the one minimal path, so
 * with VLB (which spreads it over the rack) not allowed nothing changes
 */
static void select__margin(void)
{
	struct r2c2_topo *t = NULL;
	struct r2c2_rtab *rt = NULL;
	struct rs_decision dec;
	struct rs_params p;
	struct mx m;
	struct rs s;
	struct mx_evt a = start(0, 1, 1, R2C2_RP_DOR);
	struct mx_evt bad = start(0, 2, 40, R2C2_RP_DOR);
	char err[128];
	int r;

	r2c2_topo_parse(&t, "torus:3x3", 100e6, err, sizeof(err));
	r2c2_rtab_new(&rt, t);
	mx_init(&m, 0);
	rs_init(&s);
	params(&p);
	mx_apply(&m, &a, 0);
	mx_apply(&m, &bad, 0);	/* outside the topology: left out */
	p.protos = 1u << R2C2_RP_RPS | 1u << R2C2_RP_DOR;
	r = rs_select(&s, &m, rt, t->n, 2 * SEC, &p, &dec);
	ok(r == 0 && !dec.adopted && dec.flows == 1 && dec.changed == 0 &&
	   dec.count[R2C2_RP_DOR] == 1,
	   "RPS or DOR only: a lone neighbour flow keeps DOR; a flow outside the topology is left out (r %d adopted %d flows %u changed %u dor %u, %.4g -> %.4g)",
	   r, dec.adopted, dec.flows, dec.changed, dec.count[R2C2_RP_DOR], dec.before, dec.after);
	rs_fini(&s);
	mx_fini(&m);
	r2c2_rtab_free(rt);
	r2c2_topo_free(t);
}

struct sink {
	size_t calls, total, maxn;
	int fail_at;
	struct rs_ent seen[1000];
};

static int sink_send(const struct rs_ent *e, size_t n, void *arg)
{
	struct sink *k = arg;

	if ((int)k->calls == k->fail_at)
		return -ENOBUFS;
	memcpy(&k->seen[k->total], e, n * sizeof(*e));
	k->calls++;
	k->total += n;
	if (n > k->maxn)
		k->maxn = n;
	return 0;
}

/* a sender that reports a positive count: an error all the same */
static int sink_positive(const struct rs_ent *e, size_t n, void *arg)
{
	(void)e;
	(void)n;
	(void)arg;
	return 1;
}

static void batches(void)
{
	static struct rs_ent e[1000];
	static struct sink k;
	int r, same = 1;

	for (int i = 0; i < 1000; i++) {
		e[i].src = (uint16_t)(i % 7);
		e[i].id = 0x1000u + (uint32_t)i;
		e[i].rproto = (uint8_t)(i % 3);
	}
	k.fail_at = -1;
	r = rs_send_batches(e, 1000, R2C2_ROUTES_MAX, sink_send, &k);
	for (int i = 0; i < 1000; i++)
		same &= !memcmp(&k.seen[i], &e[i], sizeof(e[i]));
	ok(r == 5 && k.calls == 5 && k.total == 1000 && k.maxn == R2C2_ROUTES_MAX && same,
	   "1000 entries: 5 batches of at most %d, in order", R2C2_ROUTES_MAX);
	ok(R2C2_CTL_HLEN + sizeof(struct r2c2_routes) +
	   R2C2_ROUTES_MAX * sizeof(struct r2c2_route_ent) <= 1500,
	   "a full batch fits a 1,500-byte frame");
	memset(&k, 0, sizeof(k));
	k.fail_at = 1;
	ok(rs_send_batches(e, 1000, R2C2_ROUTES_MAX, sink_send, &k) == -ENOBUFS &&
	   k.calls == 1, "stops at the first failed batch");
	memset(&k, 0, sizeof(k));
	k.fail_at = -1;
	ok(rs_send_batches(e, 0, R2C2_ROUTES_MAX, sink_send, &k) == 0 && !k.calls,
	   "nothing to send: no batch");
	ok(rs_send_batches(e, 10, R2C2_ROUTES_MAX, sink_positive, NULL) == -EIO,
	   "a sender returning a positive value: -EIO");
	ok(rs_send_batches(e, 10, 0, sink_send, &k) == -EINVAL,
	   "batches of 0 entries: -EINVAL");
}

static void apply__unknown(void)
{
	struct mx m;
	struct mx_evt a = start(3, 9, 5, R2C2_RP_RPS);
	struct rs_ent e[3] = {
		{ .src = 3, .id = 9, .rproto = R2C2_RP_VLB },
		{ .src = 3, .id = 10, .rproto = R2C2_RP_DOR },	/* unknown */
		{ .src = 3, .id = 9, .rproto = 7 },		/* invalid */
	};
	uint64_t g;

	mx_init(&m, 0);
	mx_apply(&m, &a, 0);
	g = m.gen;
	ok(rs_apply(&m, e, 3) == 1 && m.f[0].rproto == R2C2_RP_VLB &&
	   m.n == 1 && m.gen == g + 1,
	   "known flow changed; unknown flow not created; invalid protocol ignored");
	mx_fini(&m);
}

int main(void)
{
	turn__rotation();
	turn__node_loss();
	turn__heard_skip();
	select__improves();
	select__margin();
	select__snapshot_chunks();
	batches();
	apply__unknown();
	return tap_done();
}
