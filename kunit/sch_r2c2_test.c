// SPDX-License-Identifier: GPL-2.0
/*
 * sch_r2c2_test.c - KUnit tests of qdisc/sch_r2c2_core.h, the parts of
 * sch_r2c2 that need no netdev: rate arithmetic, the flow table, the
 * time-ordered tree, the idle list, leases and the announcement decision.
 * In the order of the header;
 * names are function__case.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "../qdisc/sch_r2c2_core.h"

#define MS	NSEC_PER_MSEC
#define SEC	NSEC_PER_SEC

struct core_fixture {
	struct r2c2q_core c;
	struct hlist_head *hash;
};

static struct r2c2q_core *core_new(struct kunit *test, u32 log)
{
	struct core_fixture *fx = kunit_kzalloc(test, sizeof(*fx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, fx);
	fx->hash = kunit_kcalloc(test, 1U << log, sizeof(*fx->hash), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fx->hash);
	r2c2q_core_init(&fx->c, fx->hash, log);
	fx->c.initial_rate = 10000000;	/* 10 Mbit/s */
	fx->c.safe_rate = 1000000;	/* 1 Mbit/s */
	fx->c.lease_ns = 1 * SEC;
	fx->c.idle_ns = 3 * SEC;
	fx->c.catchup_ns = 1 * MS;
	test->priv = fx;
	return &fx->c;
}

static struct r2c2q_flow *flow_new(struct kunit *test, struct r2c2q_core *c,
				   u32 id, u64 now)
{
	struct r2c2q_flow *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	r2c2q_insert(c, f, id, now);
	return f;
}

/* the flow is backlogged with one (pretend) packet */
static void flow_backlog(struct r2c2q_core *c, struct r2c2q_flow *f)
{
	f->qlen = 1;
	r2c2q_activate(c, f);
}

static void r2c2q_flow__fits_128_bytes(struct kunit *test)
{
	KUNIT_EXPECT_LE(test, sizeof(struct r2c2q_flow), (size_t)128);
}

static void r2c2q_tx_ns__100gbit(struct kunit *test)
{
	/* 1500 bytes = 12000 bits at 1e11 bit/s: 120 ns */
	KUNIT_EXPECT_EQ(test, r2c2q_tx_ns(1500, 100000000000ULL), 120ULL);
	/* a 64 KiB GSO packet: 5242.88 ns, rounded */
	KUNIT_EXPECT_EQ(test, r2c2q_tx_ns(65536, 100000000000ULL), 5243ULL);
}

static void r2c2q_tx_ns__1kbit(struct kunit *test)
{
	/* 1500 bytes at 1 kbit/s: 12 s */
	KUNIT_EXPECT_EQ(test, r2c2q_tx_ns(1500, R2C2_RATE_MIN), 12ULL * SEC);
	/* the largest skb (4 GiB - 1) at 1 kbit/s: no overflow */
	KUNIT_EXPECT_EQ(test, r2c2q_tx_ns(U32_MAX, R2C2_RATE_MIN),
			(u64)U32_MAX * 8 * 1000000ULL);
	/* just below the switch to mul_u64_u64_div_u64() */
	KUNIT_EXPECT_EQ(test, r2c2q_tx_ns((1U << 31) - 1, R2C2_RATE_MIN),
			(u64)((1U << 31) - 1) * 8 * 1000000ULL);
}

static void r2c2q_tx_ns__1tbit(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, r2c2q_tx_ns(1500, R2C2_RATE_MAX), 12ULL);
	/* 60 bytes at 1 Tbit/s is 0.48 ns: rounds to 0, never negative */
	KUNIT_EXPECT_EQ(test, r2c2q_tx_ns(60, R2C2_RATE_MAX), 0ULL);
}

static void r2c2q_tx_ns__rounding_error_bounded(struct kunit *test)
{
	/* 1e6 packets of 1538 bytes at an odd rate: the sum of rounded
	 * times stays within 0.5 ns a packet of the exact total
	 */
	u64 rate = 99999999937ULL, sum = 0, exact;
	unsigned int i;

	for (i = 0; i < 1000000; i++)
		sum += r2c2q_tx_ns(1538, rate);
	exact = div64_u64(1538ULL * 8 * SEC * 1000000ULL / 1000, rate) * 1000;
	KUNIT_EXPECT_LE(test, sum > exact ? sum - exact : exact - sum,
			500000ULL + 1000);
}

static void r2c2q_rate__by_state(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *f = flow_new(test, c, 7, 0);

	KUNIT_EXPECT_EQ(test, (u8)f->state, (u8)R2C2_RS_INITIAL);
	KUNIT_EXPECT_EQ(test, r2c2q_rate(c, f), 10000000ULL);
	c->initial_rate = 20000000;	/* tc qdisc change applies live */
	KUNIT_EXPECT_EQ(test, r2c2q_rate(c, f), 20000000ULL);
	r2c2q_rate_set(c, f, 5000000, 0);
	KUNIT_EXPECT_EQ(test, r2c2q_rate(c, f), 5000000ULL);
	f->state = R2C2_RS_SAFE;
	KUNIT_EXPECT_EQ(test, r2c2q_rate(c, f), 1000000ULL);
}

static void r2c2q_lease_start__lease_fixed_when_given(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *a = flow_new(test, c, 1, 0);
	struct r2c2q_flow *b;

	/* a's rate is given under a 1 s lease, b's under nolease */
	r2c2q_rate_set(c, a, 5000000, 0);
	c->lease_ns = 0;		/* tc qdisc change ... nolease */
	b = flow_new(test, c, 2, 0);
	r2c2q_rate_set(c, b, 5000000, 0);
	c->lease_ns = 1 * SEC;		/* ... lease 1s again */
	/* each keeps the lease it was given: a's ends, b's never */
	KUNIT_EXPECT_TRUE(test, r2c2q_lease_check(c, a, 1 * SEC));
	KUNIT_EXPECT_FALSE(test, r2c2q_lease_check(c, b, 3600 * SEC));
	KUNIT_EXPECT_EQ(test, (u8)b->state, (u8)R2C2_RS_SET);
	/* the next rate given has the lease of the time */
	r2c2q_rate_set(c, b, 5000000, 3600 * SEC);
	KUNIT_EXPECT_TRUE(test, r2c2q_lease_check(c, b, 3601 * SEC));
}

static void r2c2q_key__lease_end_first(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *f = flow_new(test, c, 1, 0);

	/* due before its lease ends: its send time */
	f->time_next = 300 * MS;
	KUNIT_EXPECT_EQ(test, r2c2q_key(f), 300 * MS);
	KUNIT_EXPECT_EQ(test, r2c2q_wake(c, f), 300 * MS);
	/* a 1500-byte packet at 1 kbit/s: due at 12 s, the lease ends at 1 s */
	f->time_next = 0;
	r2c2q_rate_set(c, f, R2C2_RATE_MIN, 0);
	r2c2q_charge(c, f, 1500, 0);
	KUNIT_ASSERT_EQ(test, f->time_next, 12 * SEC);
	KUNIT_EXPECT_EQ(test, r2c2q_key(f), 1 * SEC);
	KUNIT_EXPECT_EQ(test, r2c2q_wake(c, f), 1 * SEC);
	/* slots do not move the lease end */
	c->batch_ns = 100 * 1000;
	c->quantum = 3028;
	KUNIT_EXPECT_EQ(test, r2c2q_wake(c, f), 1 * SEC);
	/* at the lease end: safe rate, 11 s at 1 kbit/s are 11 ms at 1 Mbit/s */
	KUNIT_EXPECT_TRUE(test, r2c2q_lease_check(c, f, 1 * SEC));
	KUNIT_EXPECT_EQ(test, f->time_next, 1 * SEC + 11 * MS);
	KUNIT_EXPECT_EQ(test, r2c2q_key(f), 1 * SEC + 11 * MS);
	KUNIT_EXPECT_EQ(test, r2c2q_wake(c, f), 1 * SEC + 11 * MS);
	/* a pending flow has no lease: its send time */
	r2c2q_rate_set(c, f, R2C2_RATE_MIN, 2 * SEC);
	r2c2q_pend(f, 2 * SEC);
	f->time_next = 20 * SEC;
	KUNIT_EXPECT_EQ(test, r2c2q_key(f), 20 * SEC);
	/* announced, its lease (from 3 s) ends first */
	r2c2q_announce(c, f, 3 * SEC);
	KUNIT_EXPECT_EQ(test, r2c2q_key(f), 4 * SEC);
	/* under nolease a rate never lapses: its send time */
	c->lease_ns = 0;
	r2c2q_rate_set(c, f, R2C2_RATE_MIN, 3 * SEC);
	KUNIT_EXPECT_EQ(test, r2c2q_key(f), f->time_next);
	KUNIT_EXPECT_EQ(test, r2c2q_wake(c, f), f->time_next);
}

static void r2c2q_key__tree_order(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *a = flow_new(test, c, 1, 0);
	struct r2c2q_flow *b = flow_new(test, c, 2, 0);
	struct r2c2q_flow *d = flow_new(test, c, 3, 0);

	/*
	 * b and d, leased from 400 ms to 1.4 s, are due at 500 and 600 ms;
	 * a, held at 1 kbit/s, at 12 s, its lease ending at 1 s
	 */
	r2c2q_rate_set(c, a, R2C2_RATE_MIN, 0);
	r2c2q_charge(c, a, 1500, 0);
	r2c2q_rate_set(c, b, 10000000, 400 * MS);
	r2c2q_rate_set(c, d, 10000000, 400 * MS);
	b->time_next = 500 * MS;
	d->time_next = 600 * MS;
	flow_backlog(c, a);
	flow_backlog(c, b);
	flow_backlog(c, d);
	KUNIT_EXPECT_PTR_EQ(test, r2c2q_first(c), b);
	/* b is sent: due again at 1.5 s, after a's lease end (1 s) */
	b->time_next = 1500 * MS;
	r2c2q_requeue(c, b);
	KUNIT_EXPECT_PTR_EQ(test, r2c2q_first(c), d);
	d->time_next = 1600 * MS;
	r2c2q_requeue(c, d);
	/* a is looked at next, at its lease end, not at 12 s */
	KUNIT_EXPECT_PTR_EQ(test, r2c2q_first(c), a);
	/* a rate set renews its lease: to 2 s, a moves behind b and d */
	r2c2q_rate_set(c, a, R2C2_RATE_MIN, 1 * SEC);
	KUNIT_EXPECT_PTR_EQ(test, r2c2q_first(c), b);
}

static void r2c2q_lease_check__initial_expires(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *f = flow_new(test, c, 7, 5 * SEC);

	KUNIT_EXPECT_FALSE(test, r2c2q_lease_check(c, f, 5 * SEC + 999 * MS));
	KUNIT_EXPECT_EQ(test, (u8)f->state, (u8)R2C2_RS_INITIAL);
	KUNIT_EXPECT_TRUE(test, r2c2q_lease_check(c, f, 6 * SEC));
	KUNIT_EXPECT_EQ(test, (u8)f->state, (u8)R2C2_RS_SAFE);
	KUNIT_EXPECT_EQ(test, c->leases_expired, 1ULL);
	/* once safe, no second expiry */
	KUNIT_EXPECT_FALSE(test, r2c2q_lease_check(c, f, 100 * SEC));
	KUNIT_EXPECT_EQ(test, c->leases_expired, 1ULL);
}

static void r2c2q_lease_check__set_rate_renews(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *f = flow_new(test, c, 7, 0);

	r2c2q_lease_check(c, f, 2 * SEC);
	KUNIT_ASSERT_EQ(test, (u8)f->state, (u8)R2C2_RS_SAFE);
	r2c2q_rate_set(c, f, 3000000, 3 * SEC);	/* the daemon is back */
	KUNIT_EXPECT_EQ(test, (u8)f->state, (u8)R2C2_RS_SET);
	KUNIT_EXPECT_FALSE(test, r2c2q_lease_check(c, f, 3 * SEC + 500 * MS));
	r2c2q_rate_set(c, f, 3000000, 3 * SEC + 500 * MS);	/* renewed */
	KUNIT_EXPECT_FALSE(test, r2c2q_lease_check(c, f, 4 * SEC + 100 * MS));
	KUNIT_EXPECT_TRUE(test, r2c2q_lease_check(c, f, 4 * SEC + 500 * MS));
	KUNIT_EXPECT_EQ(test, r2c2q_rate(c, f), 1000000ULL);
	KUNIT_EXPECT_EQ(test, c->leases_expired, 2ULL);
}

static void r2c2q_lease_check__no_lease(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *f;

	c->lease_ns = 0;
	f = flow_new(test, c, 7, 0);
	KUNIT_EXPECT_FALSE(test, r2c2q_lease_check(c, f, 3600 * SEC));
	KUNIT_EXPECT_EQ(test, (u8)f->state, (u8)R2C2_RS_INITIAL);
}

static void r2c2q_lease_check__pending_has_none(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *f = flow_new(test, c, 1, 0);

	r2c2q_pend(f, 0);
	KUNIT_EXPECT_FALSE(test, r2c2q_lease_check(c, f, 3600 * SEC));
	KUNIT_EXPECT_EQ(test, (u8)f->state, (u8)R2C2_RS_PENDING);
	KUNIT_EXPECT_EQ(test, r2c2q_rate(c, f), 10000000ULL);
	/* announced at 10 s: one lease from then, at the initial rate */
	r2c2q_announce(c, f, 10 * SEC);
	KUNIT_EXPECT_EQ(test, (u8)f->state, (u8)R2C2_RS_INITIAL);
	KUNIT_EXPECT_FALSE(test, r2c2q_lease_check(c, f, 10 * SEC + 999 * MS));
	KUNIT_EXPECT_TRUE(test, r2c2q_lease_check(c, f, 11 * SEC));
	KUNIT_EXPECT_EQ(test, c->leases_expired, 1ULL);
}

static void r2c2q_lookup__many_flows(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 10);
	u32 i;

	for (i = 0; i < 10000; i++)
		flow_new(test, c, i * 2654435761U + 1, 0);
	KUNIT_EXPECT_EQ(test, c->flows, 10000U);
	for (i = 0; i < 10000; i++) {
		struct r2c2q_flow *f = r2c2q_lookup(c, i * 2654435761U + 1);

		KUNIT_ASSERT_NOT_NULL(test, f);
		KUNIT_EXPECT_EQ(test, f->id, i * 2654435761U + 1);
	}
	KUNIT_EXPECT_NULL(test, r2c2q_lookup(c, 0));
}

static void r2c2q_insert__initial_state(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *f = flow_new(test, c, 42, 7 * SEC);

	KUNIT_EXPECT_EQ(test, f->id, 42U);
	KUNIT_EXPECT_EQ(test, f->dst, (u16)0xffff);
	KUNIT_EXPECT_EQ(test, f->time_next, 7 * SEC);
	KUNIT_EXPECT_EQ(test, f->lease_end, 8 * SEC);
	KUNIT_EXPECT_EQ(test, c->active, 0U);
	KUNIT_EXPECT_PTR_EQ(test, list_first_entry(&c->idle_list,
						    struct r2c2q_flow, idle), f);
}

/* what a walk saw: each flow's visits (id = index), calls, refusals */
struct walk_seen {
	u8 *visits;
	unsigned int calls;	/* of fn in the current r2c2q_walk() */
	unsigned int refuse_every;	/* fn refuses every Nth call (0: never) */
	unsigned int total, refused;
};

static int walk_fn(struct r2c2q_flow *f, void *arg)
{
	struct walk_seen *w = arg;

	w->calls++;
	if (w->refuse_every && ++w->total % w->refuse_every == 0) {
		w->refused++;
		return -EMSGSIZE;
	}
	w->visits[f->id]++;
	return 0;
}

/*
 * Walk a table of 2^log buckets holding nflows flows (ids 0..nflows-1)
 * with a budget a call until it ends: every flow seen exactly once, no
 * call past the budget; returns the calls that ran out of budget.
 */
static unsigned int walk_all(struct kunit *test, u32 log, u32 nflows,
			     unsigned int budget, unsigned int refuse_every)
{
	struct r2c2q_core *c = core_new(test, log);
	struct walk_seen w = { .refuse_every = refuse_every };
	unsigned long cursor = 0;
	unsigned int again = 0, calls = 0, once = 0, i;
	int err;

	w.visits = kunit_kzalloc(test, nflows, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w.visits);
	for (i = 0; i < nflows; i++)
		flow_new(test, c, i, 0);
	do {
		w.calls = 0;
		err = r2c2q_walk(c, &cursor, budget, walk_fn, &w);
		KUNIT_EXPECT_LE(test, w.calls, budget);
		again += err == -EAGAIN;
		KUNIT_ASSERT_LT(test, ++calls, 100000U);
	} while (err == -EAGAIN || err == -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, err, 0);
	for (i = 0; i < nflows; i++)
		once += w.visits[i] == 1;
	KUNIT_EXPECT_EQ(test, once, nflows);
	KUNIT_EXPECT_EQ(test, w.refused, calls - again - 1);
	return again;
}

/* 4,096 buckets, 3,000 flows, 1,024 a call: at least 7 calls of work */
static void r2c2q_walk__budget_bounds_each_call(struct kunit *test)
{
	KUNIT_EXPECT_GE(test, walk_all(test, 12, 3000, 1024, 0), 6U);
}

/* 4 buckets of ~750 flows: the budget runs out inside chains */
static void r2c2q_walk__resumes_inside_a_chain(struct kunit *test)
{
	KUNIT_EXPECT_GE(test, walk_all(test, 2, 3000, 100, 0), 29U);
}

/* fn refuses (a full message) every 7th flow: the walk resumes there */
static void r2c2q_walk__resumes_at_a_refused_flow(struct kunit *test)
{
	walk_all(test, 4, 500, 64, 7);
}

/* the budget counts buckets too: an empty table of 2^20 takes 1,024 calls */
static void r2c2q_walk__empty_buckets_count(struct kunit *test)
{
	struct core_fixture *fx;
	struct r2c2q_core *c;
	unsigned long cursor = 0;
	unsigned int calls = 0;
	int err;

	fx = kunit_kzalloc(test, sizeof(*fx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fx);
	fx->hash = kvcalloc(1U << 20, sizeof(*fx->hash), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fx->hash);
	c = &fx->c;
	r2c2q_core_init(c, fx->hash, 20);
	do {
		err = r2c2q_walk(c, &cursor, 1024, walk_fn, NULL);
		calls++;
	} while (err == -EAGAIN && calls < 2000);
	kvfree(fx->hash);
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, calls, 1024U);
}

static void r2c2q_overflow_init__safe_rate_outside_the_table(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *o = kunit_kzalloc(test, sizeof(*o), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, o);
	r2c2q_overflow_init(c, o, 5 * SEC);
	KUNIT_EXPECT_PTR_EQ(test, c->overflow, o);
	KUNIT_EXPECT_EQ(test, r2c2q_rate(c, o), c->safe_rate);
	/* no lease to lapse, in no table, not counted */
	KUNIT_EXPECT_FALSE(test, r2c2q_lease_check(c, o, 100 * SEC));
	KUNIT_EXPECT_NULL(test, r2c2q_lookup(c, 0));
	KUNIT_EXPECT_EQ(test, c->flows, 0U);
	KUNIT_EXPECT_NULL(test, r2c2q_gc_pop(c, 100 * SEC, true));
}

static void r2c2q_announce_due__no_threshold_at_once(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *f = flow_new(test, c, 1, 5 * SEC);

	r2c2q_pend(f, 5 * SEC);
	KUNIT_EXPECT_TRUE(test, r2c2q_announce_due(c, f, 5 * SEC));
}

static void r2c2q_announce_due__time(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *f = flow_new(test, c, 1, 5 * SEC);

	c->announce_ns = 200 * MS;
	r2c2q_pend(f, 5 * SEC);
	KUNIT_EXPECT_FALSE(test, r2c2q_announce_due(c, f, 5 * SEC));
	KUNIT_EXPECT_FALSE(test, r2c2q_announce_due(c, f, 5 * SEC + 200 * MS - 1));
	KUNIT_EXPECT_TRUE(test, r2c2q_announce_due(c, f, 5 * SEC + 200 * MS));
	/* bytes do not count without a byte threshold */
	f->bytes = U64_MAX;
	KUNIT_EXPECT_FALSE(test, r2c2q_announce_due(c, f, 5 * SEC + 199 * MS));
}

static void r2c2q_announce_due__bytes(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *f = flow_new(test, c, 1, 0);

	c->announce_bytes = 10000;
	r2c2q_pend(f, 0);
	f->bytes = 9999;
	KUNIT_EXPECT_FALSE(test, r2c2q_announce_due(c, f, 0));
	/* age does not count without a time threshold */
	KUNIT_EXPECT_FALSE(test, r2c2q_announce_due(c, f, 3600 * SEC));
	f->bytes = 10000;
	KUNIT_EXPECT_TRUE(test, r2c2q_announce_due(c, f, 0));
	/* sent beyond 4 GB (u64 counter, u32 threshold) */
	f->bytes = (1ULL << 32) + 1;
	KUNIT_EXPECT_TRUE(test, r2c2q_announce_due(c, f, 0));
}

static void r2c2q_announce_due__both_first_wins(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *f = flow_new(test, c, 1, 0);

	c->announce_ns = 100 * MS;
	c->announce_bytes = 1500;
	r2c2q_pend(f, 1 * SEC);
	f->bytes = 1499;
	KUNIT_EXPECT_FALSE(test, r2c2q_announce_due(c, f, 1 * SEC + 99 * MS));
	/* bytes first */
	f->bytes = 1500;
	KUNIT_EXPECT_TRUE(test, r2c2q_announce_due(c, f, 1 * SEC + 1));
	/* time first */
	f->bytes = 0;
	KUNIT_EXPECT_TRUE(test, r2c2q_announce_due(c, f, 1 * SEC + 100 * MS));
}

static void r2c2q_announce_due__u64_edges(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *f = flow_new(test, c, 1, 0);

	/* the largest threshold (1 h) does not overflow in ns */
	c->announce_ns = (u64)R2C2_TIME_MS_MAX * MS;
	r2c2q_pend(f, 0);
	KUNIT_EXPECT_FALSE(test, r2c2q_announce_due(c, f, 3600 * SEC - 1));
	KUNIT_EXPECT_TRUE(test, r2c2q_announce_due(c, f, 3600 * SEC));
	/* the clock wrapping past 2^64 still counts the age */
	r2c2q_pend(f, U64_MAX - 50 * MS);
	KUNIT_EXPECT_FALSE(test, r2c2q_announce_due(c, f, U64_MAX));
	c->announce_ns = 100 * MS;
	KUNIT_EXPECT_FALSE(test, r2c2q_announce_due(c, f, 49 * MS));
	KUNIT_EXPECT_TRUE(test, r2c2q_announce_due(c, f, 50 * MS));
	/* a birth after now (not monotonic) is never due by age */
	r2c2q_pend(f, 10 * SEC);
	KUNIT_EXPECT_FALSE(test, r2c2q_announce_due(c, f, 9 * SEC));
	/* largest byte threshold */
	c->announce_ns = 0;
	c->announce_bytes = R2C2_ANNOUNCE_BYTES_MAX;
	f->bytes = R2C2_ANNOUNCE_BYTES_MAX - 1;
	KUNIT_EXPECT_FALSE(test, r2c2q_announce_due(c, f, 0));
	f->bytes = U64_MAX;
	KUNIT_EXPECT_TRUE(test, r2c2q_announce_due(c, f, 0));
}

static void r2c2q_announce__keeps_rate_and_born_apart(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *f = flow_new(test, c, 1, 0);

	/* @born shares @rate's storage: pending flows must read initial */
	r2c2q_pend(f, 7 * SEC);
	KUNIT_EXPECT_EQ(test, f->born, 7 * SEC);
	KUNIT_EXPECT_EQ(test, r2c2q_rate(c, f), c->initial_rate);
	f->time_next = 7 * SEC;
	r2c2q_charge(c, f, 1250, 7 * SEC);
	/* 1250 B at 10 Mbit/s = 1 ms, not at a rate of 7e9 */
	KUNIT_EXPECT_EQ(test, f->time_next, 7 * SEC + 1 * MS);
	r2c2q_announce(c, f, 8 * SEC);
	KUNIT_EXPECT_EQ(test, f->lease_end, 9 * SEC);
	r2c2q_rate_set(c, f, 5000000, 8 * SEC);
	KUNIT_EXPECT_EQ(test, r2c2q_rate(c, f), 5000000ULL);
}

static void r2c2q_first__time_order(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 8);
	struct r2c2q_flow *f;
	u64 last = 0;
	u32 i, n = 0;

	for (i = 0; i < 1000; i++) {
		f = flow_new(test, c, i + 1, 0);
		f->time_next = get_random_u32() % 1000000;
		flow_backlog(c, f);
	}
	KUNIT_EXPECT_EQ(test, c->active, 1000U);
	while ((f = r2c2q_first(c))) {
		KUNIT_EXPECT_GE(test, f->time_next, last);
		last = f->time_next;
		f->qlen = 0;
		r2c2q_deactivate(c, f, 0);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, 1000U);
	KUNIT_EXPECT_EQ(test, c->active, 0U);
}

static void r2c2q_first__equal_times_fifo(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *a = flow_new(test, c, 1, 0);
	struct r2c2q_flow *b = flow_new(test, c, 2, 0);

	a->time_next = 5;
	b->time_next = 5;
	flow_backlog(c, a);
	flow_backlog(c, b);
	KUNIT_EXPECT_PTR_EQ(test, r2c2q_first(c), a);
}

static void r2c2q_activate__lone_flow_is_solo(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *a = flow_new(test, c, 1, 0);
	struct r2c2q_flow *b = flow_new(test, c, 2, 0);

	flow_backlog(c, a);
	KUNIT_EXPECT_PTR_EQ(test, c->solo, a);
	KUNIT_EXPECT_TRUE(test, RB_EMPTY_ROOT(&c->time_tree.rb_root));
	KUNIT_EXPECT_PTR_EQ(test, r2c2q_first(c), a);
	/* its clock moves: it stays solo, nothing enters the tree */
	a->time_next = 7 * MS;
	r2c2q_requeue(c, a);
	KUNIT_EXPECT_PTR_EQ(test, c->solo, a);
	KUNIT_EXPECT_TRUE(test, RB_EMPTY_ROOT(&c->time_tree.rb_root));
	r2c2q_rate_set(c, a, 40000000, 1 * MS);
	KUNIT_EXPECT_PTR_EQ(test, r2c2q_first(c), a);
	/* empty again: to the idle list's tail, after b */
	a->qlen = 0;
	r2c2q_deactivate(c, a, 2 * SEC);
	KUNIT_EXPECT_NULL(test, c->solo);
	KUNIT_EXPECT_NULL(test, r2c2q_first(c));
	KUNIT_EXPECT_EQ(test, c->active, 0U);
	KUNIT_EXPECT_PTR_EQ(test, list_first_entry(&c->idle_list,
						    struct r2c2q_flow, idle), b);
	KUNIT_EXPECT_PTR_EQ(test, list_last_entry(&c->idle_list,
						   struct r2c2q_flow, idle), a);
	/* the next lone flow takes the slot */
	flow_backlog(c, b);
	KUNIT_EXPECT_PTR_EQ(test, c->solo, b);
}

static void r2c2q_activate__second_flow_ends_solo(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *a = flow_new(test, c, 1, 0);
	struct r2c2q_flow *b = flow_new(test, c, 2, 0);
	struct r2c2q_flow *d = flow_new(test, c, 3, 0);

	a->time_next = 10 * MS;
	b->time_next = 5 * MS;
	d->time_next = 1 * MS;
	flow_backlog(c, a);
	flow_backlog(c, b);
	/* both in the tree now, in time order */
	KUNIT_EXPECT_NULL(test, c->solo);
	KUNIT_EXPECT_EQ(test, c->active, 2U);
	KUNIT_EXPECT_PTR_EQ(test, r2c2q_first(c), b);
	b->qlen = 0;
	r2c2q_deactivate(c, b, 0);
	KUNIT_EXPECT_PTR_EQ(test, r2c2q_first(c), a);
	/* a left alone stays in the tree; a newcomer joins it there */
	flow_backlog(c, d);
	KUNIT_EXPECT_NULL(test, c->solo);
	KUNIT_EXPECT_PTR_EQ(test, r2c2q_first(c), d);
	d->qlen = 0;
	r2c2q_deactivate(c, d, 0);
	a->qlen = 0;
	r2c2q_deactivate(c, a, 0);
	KUNIT_EXPECT_TRUE(test, RB_EMPTY_ROOT(&c->time_tree.rb_root));
	KUNIT_EXPECT_EQ(test, c->active, 0U);
	KUNIT_EXPECT_EQ(test, list_count_nodes(&c->idle_list), (size_t)3);
}

static void r2c2q_charge__paces_at_rate(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *f = flow_new(test, c, 1, 0);
	u64 now = 0;
	unsigned int i;

	/* 1250 bytes at 10 Mbit/s: 1 ms each; sent exactly on time */
	for (i = 0; i < 1000; i++) {
		now = f->time_next;
		r2c2q_charge(c, f, 1250, now);
	}
	KUNIT_EXPECT_EQ(test, f->time_next, 1000 * MS);
	KUNIT_EXPECT_EQ(test, f->bytes, 1250000ULL);
	KUNIT_EXPECT_EQ(test, f->packets, 1000ULL);
}

static void r2c2q_charge__late_within_catchup(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *f = flow_new(test, c, 1, 0);
	unsigned int i;

	/* every wakeup 0.9 ms late: the schedule is kept (no rate loss) */
	for (i = 0; i < 1000; i++)
		r2c2q_charge(c, f, 1250, f->time_next + 900 * 1000);
	KUNIT_EXPECT_EQ(test, f->time_next, 1000 * MS);
}

static void r2c2q_charge__late_beyond_catchup(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *f = flow_new(test, c, 1, 0);

	/* 5 ms late: only catchup (1 ms) of the debt is kept */
	r2c2q_charge(c, f, 1250, 5 * MS);
	KUNIT_EXPECT_EQ(test, f->time_next, 4 * MS + 1 * MS);
}

static void r2c2q_due__slots(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *f = flow_new(test, c, 1, 0);

	f->time_next = 10 * MS + 50 * 1000;
	KUNIT_EXPECT_FALSE(test, r2c2q_due(c, f, 10 * MS + 50 * 1000 - 1));
	KUNIT_EXPECT_TRUE(test, r2c2q_due(c, f, 10 * MS + 50 * 1000));
	KUNIT_EXPECT_TRUE(test, r2c2q_due(c, f, 20 * MS));	/* late */
	KUNIT_EXPECT_EQ(test, r2c2q_wake(c, f), f->time_next);
	/* slots of 100 us (10 Mbit/s: a 3028-byte quantum takes 2.4 ms) */
	c->batch_ns = 100 * 1000;
	c->quantum = 3028;
	KUNIT_EXPECT_EQ(test, r2c2q_slot_ns(c, f), 100 * 1000ULL);
	KUNIT_EXPECT_EQ(test, r2c2q_wake(c, f), 10 * MS);
	KUNIT_EXPECT_FALSE(test, r2c2q_due(c, f, 10 * MS - 1));
	KUNIT_EXPECT_TRUE(test, r2c2q_due(c, f, 10 * MS));
	KUNIT_EXPECT_TRUE(test, r2c2q_due(c, f, 10 * MS + 49 * 1000));
	/* the end of a slot: due within 1 ns, not 2 */
	f->time_next = 10 * MS + 100 * 1000 - 1;
	KUNIT_EXPECT_TRUE(test, r2c2q_due(c, f, f->time_next - 99 * 1000 - 1));
	KUNIT_EXPECT_FALSE(test, r2c2q_due(c, f, 10 * MS - 1));
	/* the first ns of the next slot waits for that slot */
	f->time_next = 10 * MS + 100 * 1000;
	KUNIT_EXPECT_FALSE(test, r2c2q_due(c, f, 10 * MS + 99 * 1000));
	KUNIT_EXPECT_EQ(test, r2c2q_wake(c, f), f->time_next);
	/* no quantum (or batch 0): no slots */
	c->quantum = 0;
	KUNIT_EXPECT_EQ(test, r2c2q_slot_ns(c, f), 0ULL);
	KUNIT_EXPECT_FALSE(test, r2c2q_due(c, f, f->time_next - 1));
	/* across a wrap of the clock: late is due, 110 us ahead is not */
	c->quantum = 3028;
	f->time_next = (u64)-40 * 1000;
	KUNIT_EXPECT_TRUE(test, r2c2q_due(c, f, 50 * 1000));
	f->time_next = 50 * 1000;
	KUNIT_EXPECT_FALSE(test, r2c2q_due(c, f, (u64)-60 * 1000));
}

static void r2c2q_due__quantum_caps_slot(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *f = flow_new(test, c, 1, 0);

	c->batch_ns = 200 * 1000;
	c->quantum = 3028;
	/* 10 Mbit/s: 3028 bytes take 2.42 ms, the batch is shorter */
	KUNIT_EXPECT_EQ(test, r2c2q_slot_ns(c, f), 200 * 1000ULL);
	/* 1 Gbit/s: 24.224 us, the quantum is */
	r2c2q_rate_set(c, f, 1000000000ULL, 0);
	KUNIT_EXPECT_EQ(test, r2c2q_slot_ns(c, f), 24224ULL);
	f->time_next = 100 * 24224 + 1000;
	KUNIT_EXPECT_EQ(test, r2c2q_wake(c, f), 100 * 24224ULL);
	KUNIT_EXPECT_TRUE(test, r2c2q_due(c, f, 100 * 24224));
	KUNIT_EXPECT_FALSE(test, r2c2q_due(c, f, 100 * 24224 - 1));
}

static void r2c2q_due__batches_keep_rate(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *f = flow_new(test, c, 1, 0);
	unsigned int wakeups = 0;
	u64 now = 0;

	/*
	 * 1250 bytes at 10 Mbit/s (1 ms each), slots of 2.5 ms: each
	 * wakeup, at a slot's start, sends the two or three packets whose
	 * times fall in the slot; the flow's clock, and so its rate, stays
	 * exact.
	 */
	c->batch_ns = 2500 * 1000;
	c->quantum = 1U << 20;
	while (f->packets < 999) {
		now = r2c2q_wake(c, f);
		wakeups++;
		while (r2c2q_due(c, f, now))
			r2c2q_charge(c, f, 1250, now);
		/* never ahead of the rate by more than a slot + a packet */
		KUNIT_EXPECT_LE(test, f->packets * MS, now + c->batch_ns + MS);
	}
	KUNIT_EXPECT_EQ(test, f->packets, 1000ULL);
	KUNIT_EXPECT_EQ(test, f->time_next, 1000 * MS);
	KUNIT_EXPECT_EQ(test, wakeups, 400U);
}

static void r2c2q_rate_set__rescales_wait(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *a = flow_new(test, c, 1, 0);
	struct r2c2q_flow *b = flow_new(test, c, 2, 0);

	a->time_next = 10 * MS;	/* 10 ms left at 10 Mbit/s */
	b->time_next = 6 * MS;
	flow_backlog(c, a);
	flow_backlog(c, b);
	KUNIT_ASSERT_PTR_EQ(test, r2c2q_first(c), b);
	r2c2q_rate_set(c, a, 40000000, 2 * MS);	/* 4x faster at t = 2 ms */
	KUNIT_EXPECT_EQ(test, a->time_next, 2 * MS + 2 * MS);
	/* and it moved ahead of b in the tree */
	KUNIT_EXPECT_PTR_EQ(test, r2c2q_first(c), a);
	KUNIT_EXPECT_EQ(test, c->rate_updates, 1ULL);
}

static void r2c2q_rate_set__no_overflow(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *f = flow_new(test, c, 1, 0);

	/* 12 s left at 1 kbit/s; to 1 Tbit/s (12 ns left) and back:
	 * 12e9 * 1e12 would overflow u64 without mul_u64_u64_div_u64()
	 */
	r2c2q_rate_set(c, f, R2C2_RATE_MIN, 0);
	f->time_next = 12 * SEC;
	r2c2q_rate_set(c, f, R2C2_RATE_MAX, 0);
	KUNIT_EXPECT_EQ(test, f->time_next, 12ULL);
	r2c2q_rate_set(c, f, R2C2_RATE_MIN, 0);
	KUNIT_EXPECT_EQ(test, f->time_next, 12 * SEC);
}

static void r2c2q_rate_set__past_time_untouched(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *f = flow_new(test, c, 1, 0);

	f->time_next = 1 * MS;
	r2c2q_rate_set(c, f, 1000000, 5 * MS);
	KUNIT_EXPECT_EQ(test, f->time_next, 1 * MS);
	KUNIT_EXPECT_EQ(test, f->lease_end, 5 * MS + 1 * SEC);
}

static void r2c2q_rate_set__caps_wait(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *f = flow_new(test, c, 1, 0);
	u64 now = 50 * SEC;

	/*
	 * The wait that made RATE_SET divide by zero (6.12, r2c2d_test's
	 * scenario 3): 1.9e17 ns at 2,936,000 bit/s, then R2C2_RATE_MIN;
	 * wait * old / rate does not fit in 64 bits. Capped at 1 MiB at
	 * the new rate.
	 */
	r2c2q_rate_set(c, f, 2936000, now);
	f->time_next = now + 190000000000000000ULL;
	r2c2q_rate_set(c, f, R2C2_RATE_MIN, now);
	KUNIT_EXPECT_EQ(test, f->time_next,
			now + r2c2q_tx_ns(R2C2Q_WAIT_MAX_BYTES, R2C2_RATE_MIN));
	/* just below the cap: scaled exactly */
	f->time_next = now + r2c2q_tx_ns(R2C2Q_WAIT_MAX_BYTES, R2C2_RATE_MIN) - 1;
	r2c2q_rate_set(c, f, R2C2_RATE_MAX, now);
	KUNIT_EXPECT_EQ(test, f->time_next,
			now + r2c2q_tx_ns(R2C2Q_WAIT_MAX_BYTES, R2C2_RATE_MAX) - 1);
}

static void r2c2q_lease_check__rescales_to_safe(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *a = flow_new(test, c, 1, 0);
	struct r2c2q_flow *b = flow_new(test, c, 2, 0);

	/* a: held at 1 kbit/s, a 64 KiB packet sent at 0: 524.288 s */
	r2c2q_rate_set(c, a, R2C2_RATE_MIN, 0);
	r2c2q_charge(c, a, 65536, 0);
	KUNIT_ASSERT_EQ(test, a->time_next, r2c2q_tx_ns(65536, R2C2_RATE_MIN));
	/* b: due at 5 s, its lease (from 500 ms) ends at 1.5 s */
	r2c2q_rate_set(c, b, 5000000, 500 * MS);
	b->time_next = 5 * SEC;
	flow_backlog(c, a);
	flow_backlog(c, b);
	/* a's lease ends first, before either is due: a is looked at first */
	KUNIT_ASSERT_PTR_EQ(test, r2c2q_first(c), a);
	KUNIT_EXPECT_FALSE(test, r2c2q_lease_check(c, a, 1 * SEC - 1));
	/*
	 * The daemon is gone: at 1 s a's lease ends, the 523.288 s left
	 * at 1 kbit/s become 523.288 ms at the safe 1 Mbit/s
	 */
	KUNIT_EXPECT_TRUE(test, r2c2q_lease_check(c, a, 1 * SEC));
	KUNIT_EXPECT_EQ(test, a->time_next, 1 * SEC + 523288 * 1000ULL);
	r2c2q_requeue(c, a);		/* the caller's part */
	/* b's lease end (1.5 s) now comes before a's send (1.523 s) */
	KUNIT_EXPECT_PTR_EQ(test, r2c2q_first(c), b);
	/*
	 * A rate set later scales from the safe rate, the rate the wait
	 * now stands for: 423.288 ms left at 1 Mbit/s, 2.95 Mbit/s now.
	 * Scaled from the set 1 kbit/s it would be 177 s instead.
	 */
	r2c2q_rate_set(c, a, 2950000, 1100 * MS);
	KUNIT_EXPECT_EQ(test, a->time_next,
			1100 * MS + div64_u64(423288000ULL * 1000000, 2950000));
	KUNIT_EXPECT_LE(test, a->time_next - 1100 * MS,
			r2c2q_tx_ns(65536, 2950000));
	/* due at 1.243 s, before b's lease end: first again */
	KUNIT_EXPECT_PTR_EQ(test, r2c2q_first(c), a);
}

static void r2c2q_gc_pop__idle_order_and_age(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *a = flow_new(test, c, 1, 0);
	struct r2c2q_flow *b = flow_new(test, c, 2, 1 * SEC);
	struct r2c2q_flow *f;

	/* a was busy until 2 s: b is now the oldest idle flow */
	flow_backlog(c, a);
	a->qlen = 0;
	r2c2q_deactivate(c, a, 2 * SEC);
	KUNIT_EXPECT_NULL(test, r2c2q_gc_pop(c, 3 * SEC + 999, false));
	f = r2c2q_gc_pop(c, 4 * SEC, false);
	KUNIT_EXPECT_PTR_EQ(test, f, b);
	KUNIT_EXPECT_NULL(test, r2c2q_gc_pop(c, 4 * SEC, false));
	KUNIT_EXPECT_PTR_EQ(test, r2c2q_gc_pop(c, 5 * SEC, false), a);
	KUNIT_EXPECT_EQ(test, c->flows, 0U);
	KUNIT_EXPECT_NULL(test, r2c2q_lookup(c, 1));
}

/* the overflow flow runs empty and fills again: never collected */
static void r2c2q_gc_pop__overflow_never(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *a = flow_new(test, c, 1, 0);
	struct r2c2q_flow *o = kunit_kzalloc(test, sizeof(*o), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, o);
	r2c2q_overflow_init(c, o, 0);
	for (i = 0; i < 3; i++) {
		flow_backlog(c, o);
		flow_backlog(c, a);
		KUNIT_EXPECT_EQ(test, c->active, 2U);
		o->qlen = 0;
		r2c2q_deactivate(c, o, i * SEC);
		a->qlen = 0;
		r2c2q_deactivate(c, a, i * SEC);
		KUNIT_EXPECT_EQ(test, c->active, 0U);
	}
	/* only a, the tracked flow, is collected */
	KUNIT_EXPECT_PTR_EQ(test, r2c2q_gc_pop(c, 100 * SEC, true), a);
	KUNIT_EXPECT_NULL(test, r2c2q_gc_pop(c, 100 * SEC, true));
	KUNIT_EXPECT_EQ(test, c->flows, 0U);
}

static void r2c2q_gc_pop__backlogged_never(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct r2c2q_flow *a = flow_new(test, c, 1, 0);

	flow_backlog(c, a);
	KUNIT_EXPECT_NULL(test, r2c2q_gc_pop(c, 100 * SEC, true));
	KUNIT_EXPECT_EQ(test, c->flows, 1U);
}

static void r2c2q_rehash__keeps_every_flow(struct kunit *test)
{
	struct r2c2q_core *c = core_new(test, 4);
	struct hlist_head *h2 = kunit_kcalloc(test, 1U << 12, sizeof(*h2),
					      GFP_KERNEL);
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, h2);
	for (i = 1; i <= 500; i++)
		flow_new(test, c, i * 7919, 0);
	r2c2q_rehash(c, h2, 12);
	KUNIT_EXPECT_EQ(test, c->hash_log, 12U);
	for (i = 1; i <= 500; i++)
		KUNIT_EXPECT_NOT_NULL(test, r2c2q_lookup(c, i * 7919));
	KUNIT_EXPECT_EQ(test, c->flows, 500U);
}

static struct kunit_case r2c2q_cases[] = {
	KUNIT_CASE(r2c2q_flow__fits_128_bytes),
	KUNIT_CASE(r2c2q_tx_ns__100gbit),
	KUNIT_CASE(r2c2q_tx_ns__1kbit),
	KUNIT_CASE(r2c2q_tx_ns__1tbit),
	KUNIT_CASE(r2c2q_tx_ns__rounding_error_bounded),
	KUNIT_CASE(r2c2q_rate__by_state),
	KUNIT_CASE(r2c2q_lease_start__lease_fixed_when_given),
	KUNIT_CASE(r2c2q_key__lease_end_first),
	KUNIT_CASE(r2c2q_key__tree_order),
	KUNIT_CASE(r2c2q_lease_check__initial_expires),
	KUNIT_CASE(r2c2q_lease_check__set_rate_renews),
	KUNIT_CASE(r2c2q_lease_check__no_lease),
	KUNIT_CASE(r2c2q_lease_check__pending_has_none),
	KUNIT_CASE(r2c2q_lookup__many_flows),
	KUNIT_CASE(r2c2q_insert__initial_state),
	KUNIT_CASE(r2c2q_walk__budget_bounds_each_call),
	KUNIT_CASE(r2c2q_walk__resumes_inside_a_chain),
	KUNIT_CASE(r2c2q_walk__resumes_at_a_refused_flow),
	KUNIT_CASE(r2c2q_walk__empty_buckets_count),
	KUNIT_CASE(r2c2q_overflow_init__safe_rate_outside_the_table),
	KUNIT_CASE(r2c2q_announce_due__no_threshold_at_once),
	KUNIT_CASE(r2c2q_announce_due__time),
	KUNIT_CASE(r2c2q_announce_due__bytes),
	KUNIT_CASE(r2c2q_announce_due__both_first_wins),
	KUNIT_CASE(r2c2q_announce_due__u64_edges),
	KUNIT_CASE(r2c2q_announce__keeps_rate_and_born_apart),
	KUNIT_CASE(r2c2q_first__time_order),
	KUNIT_CASE(r2c2q_first__equal_times_fifo),
	KUNIT_CASE(r2c2q_activate__lone_flow_is_solo),
	KUNIT_CASE(r2c2q_activate__second_flow_ends_solo),
	KUNIT_CASE(r2c2q_charge__paces_at_rate),
	KUNIT_CASE(r2c2q_charge__late_within_catchup),
	KUNIT_CASE(r2c2q_charge__late_beyond_catchup),
	KUNIT_CASE(r2c2q_due__slots),
	KUNIT_CASE(r2c2q_due__quantum_caps_slot),
	KUNIT_CASE(r2c2q_due__batches_keep_rate),
	KUNIT_CASE(r2c2q_rate_set__rescales_wait),
	KUNIT_CASE(r2c2q_rate_set__no_overflow),
	KUNIT_CASE(r2c2q_rate_set__past_time_untouched),
	KUNIT_CASE(r2c2q_rate_set__caps_wait),
	KUNIT_CASE(r2c2q_lease_check__rescales_to_safe),
	KUNIT_CASE(r2c2q_gc_pop__idle_order_and_age),
	KUNIT_CASE(r2c2q_gc_pop__overflow_never),
	KUNIT_CASE(r2c2q_gc_pop__backlogged_never),
	KUNIT_CASE(r2c2q_rehash__keeps_every_flow),
	{}
};

static struct kunit_suite r2c2q_suite = {
	.name = "r2c2_sch",
	.test_cases = r2c2q_cases,
};

kunit_test_suite(r2c2q_suite);

MODULE_DESCRIPTION("KUnit tests of the sch_r2c2 core: rates, flow table, ordering, leases, announcement");
MODULE_LICENSE("GPL");
