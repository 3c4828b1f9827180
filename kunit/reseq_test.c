// SPDX-License-Identifier: GPL-2.0
/*
 * reseq_test.c - KUnit tests of receiver resequencing: the reorder core
 * (kmod/reseq.c) with injected time, then the node glue (kmod/reseqtab.c)
 * with stubs for delivery and counters, a real per-flow timer and the
 * flow table limits.
 *
 * Test names are function__case. Packets are empty skbs carrying their
 * sequence number in skb->mark, so the order of release can be checked.
 */
#include <kunit/test.h>
#include <linux/bottom_half.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/skbuff.h>
#include <linux/slab.h>

#include "../kmod/reseq.c"
#include "../kmod/reseqtab.c"

/* ---------------------------------------------------------------- */
/* Stubs for the rest of r2c2.ko used by reseqtab.c                  */
/* ---------------------------------------------------------------- */

unsigned int r2c2_net_id;
static atomic64_t stub_stats[__R2C2_S_MAX];
static struct sk_buff_head stub_delivered;

void r2c2_stat_add(struct r2c2_node *node, struct r2c2_port *port,
		   enum r2c2_stat s, u64 v)
{
	atomic64_add(v, &stub_stats[s]);
}

void r2c2_stats_read(struct r2c2_stats __percpu *stats, u64 *out)
{
	unsigned int i;

	for (i = 0; i < __R2C2_S_MAX; i++)
		out[i] = atomic64_read(&stub_stats[i]);
}

void r2c2_deliver_eth(struct r2c2_node *node, struct sk_buff *skb)
{
	skb_queue_tail(&stub_delivered, skb);
}

void r2c2_drop_n(struct r2c2_node *node, enum r2c2_stat why,
		 struct r2c2_port *port, unsigned int n)
{
	r2c2_stat_add(node, port, why, n);
}

void r2c2_event_reseq_timeout(struct r2c2_node *node, u16 src, u32 flow,
			      u32 skip_lo, u32 skip_hi, unsigned int released)
{
}

/* ---------------------------------------------------------------- */
/* Core fixture                                                     */
/* ---------------------------------------------------------------- */

#define US	1000ULL
#define T0	1000000000ULL

struct ctx {
	struct r2c2_rsq_flow f;
	struct r2c2_rsq_params p;
	struct sk_buff_head out;
	u32 cnt[__R2C2_RSQ_CNT];
	int held;
	u32 sample;
	unsigned int in;
};

static int rsq_init(struct kunit *test)
{
	struct ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	if (!c)
		return -ENOMEM;
	c->p.timeout_ns = 300 * US;
	c->p.flow_limit = 8;
	c->p.limit = 1000;
	c->f.ring = kcalloc(R2C2_RSQ_WIN, sizeof(*c->f.ring), GFP_KERNEL);
	if (!c->f.ring)
		return -ENOMEM;
	__skb_queue_head_init(&c->out);
	test->priv = c;
	return 0;
}

static void rsq_exit(struct kunit *test)
{
	struct ctx *c = test->priv;

	r2c2_rsq_free(&c->f);
	__skb_queue_purge(&c->out);
}

static struct sk_buff *mk(struct kunit *test, u32 seq)
{
	struct sk_buff *skb = alloc_skb(0, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb->mark = seq;
	return skb;
}

static void add_res(struct ctx *c, const struct r2c2_rsq_res *res)
{
	unsigned int i;

	for (i = 0; i < __R2C2_RSQ_CNT; i++)
		c->cnt[i] += res->cnt[i];
	c->held += res->held_delta;
	if (res->sample_ns)
		c->sample = res->sample_ns;
}

static void rcv(struct kunit *test, u32 seq, u64 now)
{
	struct ctx *c = test->priv;
	struct r2c2_rsq_res res = {};

	c->p.global_held = c->held;
	c->in++;
	r2c2_rsq_rcv(&c->f, mk(test, seq), seq, now, &c->p, &c->out, &res);
	add_res(c, &res);
	KUNIT_EXPECT_EQ(test, (int)c->f.nheld, c->held);
}

static void expire(struct kunit *test, u64 now)
{
	struct ctx *c = test->priv;
	struct r2c2_rsq_res res = {};

	r2c2_rsq_expire(&c->f, now, c->p.timeout_ns, &c->out, &res);
	add_res(c, &res);
}

/* the released packets are exactly @seqs, in this order */
static void expect_out(struct kunit *test, const u32 *seqs, unsigned int n)
{
	struct ctx *c = test->priv;
	struct sk_buff *skb;
	unsigned int i;

	KUNIT_EXPECT_EQ(test, skb_queue_len(&c->out), n);
	for (i = 0; i < n; i++) {
		skb = __skb_dequeue(&c->out);
		if (!skb)
			return;
		KUNIT_EXPECT_EQ_MSG(test, skb->mark, seqs[i], "position %u", i);
		kfree_skb(skb);
	}
	__skb_queue_purge(&c->out);
}

#define EXPECT_OUT(test, ...) do {					\
	static const u32 __s[] = { __VA_ARGS__ };			\
	expect_out(test, __s, ARRAY_SIZE(__s));				\
} while (0)

/* ---------------------------------------------------------------- */
/* reseq.c                                                          */
/* ---------------------------------------------------------------- */

static void r2c2_rsq_fast__in_order(struct kunit *test)
{
	struct ctx *c = test->priv;

	KUNIT_EXPECT_FALSE(test, r2c2_rsq_fast(&c->f, 0));	/* not synced */
	rcv(test, 10, T0);
	KUNIT_EXPECT_TRUE(test, r2c2_rsq_fast(&c->f, 11));
	KUNIT_EXPECT_FALSE(test, r2c2_rsq_fast(&c->f, 13));
	KUNIT_EXPECT_EQ(test, c->f.next, 12U);
	KUNIT_EXPECT_EQ(test, c->f.cnt[R2C2_RSQ_INORDER], 2ULL);
	EXPECT_OUT(test, 10);
}

static void r2c2_rsq_fast__not_with_held(struct kunit *test)
{
	struct ctx *c = test->priv;

	rcv(test, 0, T0);
	rcv(test, 2, T0);
	KUNIT_EXPECT_FALSE(test, r2c2_rsq_fast(&c->f, 1));
	EXPECT_OUT(test, 0);
}

static void r2c2_rsq_rcv__in_order(struct kunit *test)
{
	struct ctx *c = test->priv;
	u32 i;

	for (i = 100; i < 110; i++)
		rcv(test, i, T0 + i);
	EXPECT_OUT(test, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109);
	KUNIT_EXPECT_EQ(test, c->cnt[R2C2_RSQ_INORDER], 10U);
	KUNIT_EXPECT_EQ(test, c->cnt[R2C2_RSQ_REORDERED], 0U);
	KUNIT_EXPECT_EQ(test, c->held, 0);
	KUNIT_EXPECT_EQ(test, r2c2_rsq_deadline(&c->f, c->p.timeout_ns), 0ULL);
}

static void r2c2_rsq_rcv__single_gap_filled(struct kunit *test)
{
	struct ctx *c = test->priv;

	rcv(test, 0, T0);
	rcv(test, 2, T0 + 10 * US);
	rcv(test, 3, T0 + 20 * US);
	EXPECT_OUT(test, 0);
	KUNIT_EXPECT_EQ(test, c->held, 2);
	KUNIT_EXPECT_EQ(test, r2c2_rsq_deadline(&c->f, c->p.timeout_ns),
			T0 + 310 * US);
	rcv(test, 1, T0 + 50 * US);
	EXPECT_OUT(test, 1, 2, 3);
	KUNIT_EXPECT_EQ(test, c->held, 0);
	KUNIT_EXPECT_EQ(test, c->f.next, 4U);
	KUNIT_EXPECT_EQ(test, c->cnt[R2C2_RSQ_INORDER], 2U);
	KUNIT_EXPECT_EQ(test, c->cnt[R2C2_RSQ_REORDERED], 2U);
	KUNIT_EXPECT_EQ(test, (unsigned int)c->f.maxdepth, 2U);
	/* the gap's packet was 40 us later than the one after it */
	KUNIT_EXPECT_EQ(test, c->sample, (u32)(40 * US));
}

static void r2c2_rsq_rcv__two_gaps(struct kunit *test)
{
	struct ctx *c = test->priv;

	rcv(test, 0, T0);
	rcv(test, 4, T0 + 1 * US);
	rcv(test, 2, T0 + 2 * US);
	rcv(test, 1, T0 + 3 * US);
	EXPECT_OUT(test, 0, 1, 2);
	/* the remaining gap is dated by its first held packet */
	KUNIT_EXPECT_EQ(test, c->f.gap_since, T0 + 1 * US);
	rcv(test, 3, T0 + 4 * US);
	EXPECT_OUT(test, 3, 4);
	KUNIT_EXPECT_EQ(test, c->held, 0);
}

static void r2c2_rsq_expire__gap_timed_out(struct kunit *test)
{
	struct ctx *c = test->priv;

	rcv(test, 0, T0);
	rcv(test, 2, T0 + 10 * US);
	rcv(test, 3, T0 + 20 * US);
	EXPECT_OUT(test, 0);
	expire(test, T0 + 309 * US);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&c->out), 0U);
	expire(test, T0 + 310 * US);
	EXPECT_OUT(test, 2, 3);
	KUNIT_EXPECT_EQ(test, c->cnt[R2C2_RSQ_TIMEOUT], 2U);
	KUNIT_EXPECT_EQ(test, c->held, 0);
	KUNIT_EXPECT_EQ(test, r2c2_rsq_deadline(&c->f, c->p.timeout_ns), 0ULL);
	/* the lost packet turns up after all: delivered, late, measured */
	rcv(test, 1, T0 + 900 * US);
	EXPECT_OUT(test, 1);
	KUNIT_EXPECT_EQ(test, c->cnt[R2C2_RSQ_LATE], 1U);
	KUNIT_EXPECT_EQ(test, c->sample, (u32)(890 * US));
	rcv(test, 4, T0 + 901 * US);
	EXPECT_OUT(test, 4);
}

static void r2c2_rsq_rcv__late_from_older_gap(struct kunit *test)
{
	struct ctx *c = test->priv;

	rcv(test, 0, T0);
	rcv(test, 2, T0);
	expire(test, T0 + 300 * US);		/* gives 1 up */
	rcv(test, 4, T0 + 301 * US);
	expire(test, T0 + 601 * US);		/* gives 3 up */
	EXPECT_OUT(test, 0, 2, 4);
	/* 1 is not in the last gap: late by at least timeout + 99 us */
	rcv(test, 1, T0 + 700 * US);
	EXPECT_OUT(test, 1);
	KUNIT_EXPECT_EQ(test, c->sample, (u32)(399 * US));
	/* 3 is: its lateness is known */
	rcv(test, 3, T0 + 800 * US);
	EXPECT_OUT(test, 3);
	KUNIT_EXPECT_EQ(test, c->sample, (u32)(499 * US));
}

static void r2c2_rsq_expire__second_gap_later(struct kunit *test)
{
	struct ctx *c = test->priv;

	rcv(test, 0, T0);
	rcv(test, 2, T0);
	rcv(test, 5, T0 + 100 * US);
	expire(test, T0 + 300 * US);
	EXPECT_OUT(test, 0, 2);
	KUNIT_EXPECT_EQ(test, r2c2_rsq_deadline(&c->f, c->p.timeout_ns),
			T0 + 400 * US);
	expire(test, T0 + 400 * US);
	EXPECT_OUT(test, 5);
	KUNIT_EXPECT_EQ(test, c->cnt[R2C2_RSQ_TIMEOUT], 2U);
}

static void r2c2_rsq_rcv__duplicate_of_held(struct kunit *test)
{
	struct ctx *c = test->priv;

	rcv(test, 0, T0);
	rcv(test, 2, T0);
	rcv(test, 2, T0);
	KUNIT_EXPECT_EQ(test, c->cnt[R2C2_RSQ_DUP], 1U);
	KUNIT_EXPECT_EQ(test, c->held, 1);
	rcv(test, 1, T0);
	EXPECT_OUT(test, 0, 1, 2);
}

static void r2c2_rsq_rcv__duplicate_of_delivered(struct kunit *test)
{
	struct ctx *c = test->priv;

	rcv(test, 0, T0);
	rcv(test, 1, T0);
	rcv(test, 0, T0);
	EXPECT_OUT(test, 0, 1, 0);
	KUNIT_EXPECT_EQ(test, c->cnt[R2C2_RSQ_LATE], 1U);
	KUNIT_EXPECT_EQ(test, c->sample, 0U);
	KUNIT_EXPECT_EQ(test, c->f.next, 2U);
}

static void r2c2_rsq_rcv__wraparound(struct kunit *test)
{
	struct ctx *c = test->priv;

	rcv(test, 0xfffffffd, T0);
	rcv(test, 0xffffffff, T0);
	rcv(test, 1, T0);
	rcv(test, 0, T0);
	KUNIT_EXPECT_EQ(test, c->held, 3);
	rcv(test, 0xfffffffe, T0);
	EXPECT_OUT(test, 0xfffffffd, 0xfffffffe, 0xffffffff, 0, 1);
	KUNIT_EXPECT_EQ(test, c->f.next, 2U);
	KUNIT_EXPECT_EQ(test, c->cnt[R2C2_RSQ_RESYNC], 0U);
}

static void r2c2_rsq_rcv__flow_limit(struct kunit *test)
{
	struct ctx *c = test->priv;
	u32 i;

	c->p.flow_limit = 4;
	rcv(test, 0, T0);
	for (i = 2; i <= 5; i++)
		rcv(test, i, T0);
	KUNIT_EXPECT_EQ(test, c->held, 4);
	EXPECT_OUT(test, 0);
	/* a fifth would exceed the limit: the oldest go, in order */
	rcv(test, 7, T0);
	EXPECT_OUT(test, 2, 3, 4, 5);
	KUNIT_EXPECT_EQ(test, c->cnt[R2C2_RSQ_LIMIT], 4U);
	KUNIT_EXPECT_EQ(test, c->held, 1);
	KUNIT_EXPECT_EQ(test, c->f.next, 6U);
	rcv(test, 6, T0);
	EXPECT_OUT(test, 6, 7);
	KUNIT_EXPECT_EQ(test, c->held, 0);
}

static void r2c2_rsq_rcv__limit_new_is_oldest(struct kunit *test)
{
	struct ctx *c = test->priv;

	c->p.flow_limit = 2;
	rcv(test, 0, T0);
	rcv(test, 5, T0);
	rcv(test, 6, T0);
	/* 3 is older than everything held: it goes first, nothing waits */
	rcv(test, 3, T0);
	EXPECT_OUT(test, 0, 3);
	KUNIT_EXPECT_EQ(test, c->f.next, 4U);
	KUNIT_EXPECT_EQ(test, c->held, 2);
	KUNIT_EXPECT_EQ(test, c->cnt[R2C2_RSQ_LIMIT], 1U);
}

static void r2c2_rsq_rcv__limit_fills_gap(struct kunit *test)
{
	struct ctx *c = test->priv;

	c->p.flow_limit = 2;
	rcv(test, 0, T0);
	rcv(test, 2, T0);
	rcv(test, 4, T0);
	/* skipping gap 1 releases 2; then 3 is in order and frees 4 */
	rcv(test, 3, T0);
	EXPECT_OUT(test, 0, 2, 3, 4);
	KUNIT_EXPECT_EQ(test, c->held, 0);
	KUNIT_EXPECT_EQ(test, c->f.next, 5U);
}

static void r2c2_rsq_rcv__global_limit(struct kunit *test)
{
	struct ctx *c = test->priv;
	struct r2c2_rsq_res res = {};

	rcv(test, 0, T0);
	rcv(test, 2, T0);
	rcv(test, 3, T0);
	EXPECT_OUT(test, 0);
	/* the node is full: one run of this flow's oldest goes */
	c->p.global_held = c->p.limit;
	r2c2_rsq_rcv(&c->f, mk(test, 5), 5, T0, &c->p, &c->out, &res);
	add_res(c, &res);
	EXPECT_OUT(test, 2, 3);
	KUNIT_EXPECT_EQ(test, c->held, 1);
	/* full again with nothing held: passed on, not held */
	memset(&res, 0, sizeof(res));
	r2c2_rsq_flush(&c->f, &c->out, &res);
	add_res(c, &res);
	EXPECT_OUT(test, 5);
	memset(&res, 0, sizeof(res));
	r2c2_rsq_rcv(&c->f, mk(test, 9), 9, T0, &c->p, &c->out, &res);
	add_res(c, &res);
	EXPECT_OUT(test, 9);
	KUNIT_EXPECT_EQ(test, c->held, 0);
	KUNIT_EXPECT_EQ(test, c->f.next, 10U);
}

static void r2c2_rsq_rcv__far_ahead_resyncs(struct kunit *test)
{
	struct ctx *c = test->priv;

	rcv(test, 0, T0);
	rcv(test, 2, T0);
	rcv(test, 1000000, T0);		/* forged or a new incarnation */
	EXPECT_OUT(test, 0, 2, 1000000);
	KUNIT_EXPECT_EQ(test, c->cnt[R2C2_RSQ_RESYNC], 1U);
	KUNIT_EXPECT_EQ(test, c->held, 0);
	KUNIT_EXPECT_EQ(test, c->f.next, 1000001U);
	rcv(test, 1000001, T0);
	EXPECT_OUT(test, 1000001);
}

static void r2c2_rsq_rcv__window_edge(struct kunit *test)
{
	struct ctx *c = test->priv;

	rcv(test, 0, T0);
	rcv(test, R2C2_RSQ_WIN - 1, T0);	/* last slot: held */
	KUNIT_EXPECT_EQ(test, c->held, 1);
	rcv(test, R2C2_RSQ_WIN + 1, T0);	/* beyond: resync */
	KUNIT_EXPECT_EQ(test, c->cnt[R2C2_RSQ_RESYNC], 1U);
	EXPECT_OUT(test, 0, R2C2_RSQ_WIN - 1, R2C2_RSQ_WIN + 1);
}

static void r2c2_rsq_rcv__sender_restart(struct kunit *test)
{
	struct ctx *c = test->priv;

	rcv(test, 5000, T0);
	rcv(test, 5002, T0);
	rcv(test, 0, T0);		/* sender reset: seq from 0 again */
	EXPECT_OUT(test, 5000, 5002, 0);
	KUNIT_EXPECT_EQ(test, c->cnt[R2C2_RSQ_RESYNC], 1U);
	rcv(test, 2, T0);
	rcv(test, 1, T0);
	EXPECT_OUT(test, 1, 2);
}

static void r2c2_rsq_rcv__no_ring(struct kunit *test)
{
	struct ctx *c = test->priv;

	kfree(c->f.ring);
	c->f.ring = NULL;
	rcv(test, 0, T0);
	KUNIT_EXPECT_TRUE(test, r2c2_rsq_ahead(&c->f, 2));
	rcv(test, 2, T0);
	EXPECT_OUT(test, 0, 2);
	KUNIT_EXPECT_EQ(test, c->cnt[R2C2_RSQ_LIMIT], 1U);
	KUNIT_EXPECT_EQ(test, c->held, 0);
}

static void r2c2_rsq_ahead__window(struct kunit *test)
{
	struct ctx *c = test->priv;

	KUNIT_EXPECT_FALSE(test, r2c2_rsq_ahead(&c->f, 1));	/* not synced */
	rcv(test, 0xfffffff0, T0);
	KUNIT_EXPECT_FALSE(test, r2c2_rsq_ahead(&c->f, 0xfffffff1));
	KUNIT_EXPECT_TRUE(test, r2c2_rsq_ahead(&c->f, 0xfffffff2));
	KUNIT_EXPECT_TRUE(test, r2c2_rsq_ahead(&c->f, 0x10));
	KUNIT_EXPECT_FALSE(test, r2c2_rsq_ahead(&c->f, 0xfffffff1 + R2C2_RSQ_WIN));
	KUNIT_EXPECT_FALSE(test, r2c2_rsq_ahead(&c->f, 0xffffffe0));
	EXPECT_OUT(test, 0xfffffff0);
}

static void r2c2_rsq_flush__in_order(struct kunit *test)
{
	struct ctx *c = test->priv;
	struct r2c2_rsq_res res = {};

	rcv(test, 0, T0);
	rcv(test, 9, T0);
	rcv(test, 3, T0);
	rcv(test, 4, T0);
	r2c2_rsq_flush(&c->f, &c->out, &res);
	add_res(c, &res);
	EXPECT_OUT(test, 0, 3, 4, 9);
	KUNIT_EXPECT_EQ(test, c->held, 0);
	KUNIT_EXPECT_EQ(test, c->f.next, 10U);
}

/* Random arrivals, losses and duplicates: the invariants hold. */
static void r2c2_rsq_rcv__random_property(struct kunit *test)
{
	struct ctx *c = test->priv;
	struct r2c2_rsq_res res = {};
	u32 order[64], base = 0xffffff00, last = 0;
	unsigned int round, i, j, n, out = 0, dropped_dup = 0;
	bool have_last = false;
	u64 now = T0;
	struct sk_buff *skb;

	c->p.flow_limit = 16;
	for (round = 0; round < 200; round++) {
		for (i = 0; i < 64; i++)
			order[i] = base + i;
		/* displace each packet by up to 8 places */
		for (i = 0; i < 64; i++) {
			j = min(63U, i + get_random_u32_below(9));
			swap(order[i], order[j]);
		}
		for (i = 0; i < 64; i++) {
			now += get_random_u32_below(5 * US);
			if (get_random_u32_below(100) < 2)
				continue;		/* lost */
			n = c->cnt[R2C2_RSQ_DUP];
			rcv(test, order[i], now);
			if (get_random_u32_below(100) < 2)
				rcv(test, order[i], now);
			dropped_dup += c->cnt[R2C2_RSQ_DUP] - n;
			if (get_random_u32_below(10) == 0)
				expire(test, now);
			KUNIT_ASSERT_LE(test, c->f.nheld, c->p.flow_limit);
			/* released in increasing order, except late ones */
			while ((skb = __skb_dequeue(&c->out))) {
				s32 d = (s32)(skb->mark - last);

				/* late ones and duplicates may go back */
				if (!have_last || d > 0)
					last = skb->mark;
				have_last = true;
				out++;
				kfree_skb(skb);
			}
		}
		base += 64;
	}
	r2c2_rsq_flush(&c->f, &c->out, &res);
	add_res(c, &res);
	out += skb_queue_len(&c->out);
	__skb_queue_purge(&c->out);
	/* every packet came out exactly once, but dropped duplicates */
	KUNIT_EXPECT_EQ(test, out + dropped_dup, c->in);
	KUNIT_EXPECT_EQ(test, c->held, 0);
	KUNIT_EXPECT_EQ(test, c->cnt[R2C2_RSQ_RESYNC], 0U);
}

static void r2c2_rsq_spread_add__window_max(struct kunit *test)
{
	struct r2c2_rsq_spread sp = {};
	u64 t = 10 * NSEC_PER_SEC;

	r2c2_rsq_spread_add(&sp, t, 100);
	KUNIT_EXPECT_EQ(test, sp.cur, 100U);
	r2c2_rsq_spread_add(&sp, t + 1, 50);
	KUNIT_EXPECT_EQ(test, sp.cur, 100U);
	r2c2_rsq_spread_add(&sp, t + NSEC_PER_SEC / 2, 70);
	r2c2_rsq_spread_add(&sp, t + NSEC_PER_SEC + 1, 30);
	KUNIT_EXPECT_EQ(test, sp.prev, 100U);
	KUNIT_EXPECT_EQ(test, sp.cur, 30U);
	r2c2_rsq_spread_add(&sp, t + 5 * NSEC_PER_SEC, 10);
	KUNIT_EXPECT_EQ(test, sp.prev, 0U);
	KUNIT_EXPECT_EQ(test, sp.cur, 10U);
}

/* a CPU whose clock reading predates the window just opened elsewhere */
static void r2c2_rsq_spread__clock_behind_window(struct kunit *test)
{
	struct r2c2_rsq_spread sp = {};
	u64 t = 10 * NSEC_PER_SEC, cfg = 300 * US;

	r2c2_rsq_spread_add(&sp, t, 1000 * US);
	r2c2_rsq_spread_add(&sp, t + NSEC_PER_SEC, 800 * US);
	KUNIT_EXPECT_EQ(test, sp.prev, 1000 * US);
	/* read 1 us before the window opened: neither wipes nor ignores */
	r2c2_rsq_spread_add(&sp, t + NSEC_PER_SEC - US, 900 * US);
	KUNIT_EXPECT_EQ(test, sp.prev, 1000 * US);
	KUNIT_EXPECT_EQ(test, sp.cur, 900 * US);
	KUNIT_EXPECT_EQ(test, r2c2_rsq_timeout(&sp, t + NSEC_PER_SEC - US, cfg),
			2000 * US);
}

static void r2c2_rsq_timeout__floor_adapt_cap(struct kunit *test)
{
	struct r2c2_rsq_spread sp = {};
	u64 t = 10 * NSEC_PER_SEC, cfg = 300 * US;

	KUNIT_EXPECT_EQ(test, r2c2_rsq_timeout(&sp, t, cfg), cfg);
	r2c2_rsq_spread_add(&sp, t, 100 * US);
	KUNIT_EXPECT_EQ(test, r2c2_rsq_timeout(&sp, t, cfg), cfg);
	r2c2_rsq_spread_add(&sp, t, 1000 * US);
	KUNIT_EXPECT_EQ(test, r2c2_rsq_timeout(&sp, t, cfg), 2000 * US);
	r2c2_rsq_spread_add(&sp, t, 3 * NSEC_PER_SEC / 1000 * 3);
	KUNIT_EXPECT_EQ(test, r2c2_rsq_timeout(&sp, t, cfg),
			(u64)R2C2_RSQ_ADAPT_MAX_NS);
	/* a configured timeout above the cap wins */
	KUNIT_EXPECT_EQ(test, r2c2_rsq_timeout(&sp, t, 50 * NSEC_PER_MSEC),
			50 * NSEC_PER_MSEC);
	/* forgotten after two quiet windows */
	KUNIT_EXPECT_EQ(test, r2c2_rsq_timeout(&sp, t + 3 * NSEC_PER_SEC, cfg),
			cfg);
}

/* ---------------------------------------------------------------- */
/* reseqtab.c, with a node of our own                               */
/* ---------------------------------------------------------------- */

static struct r2c2_node *tnode;

static int tab_init(struct kunit *test)
{
	unsigned int i;
	int err;

	tnode = kzalloc(sizeof(*tnode), GFP_KERNEL);
	if (!tnode)
		return -ENOMEM;
	for (i = 0; i < __R2C2_S_MAX; i++)
		atomic64_set(&stub_stats[i], 0);
	skb_queue_head_init(&stub_delivered);
	err = r2c2_reseq_init(tnode);
	/*
	 * No gap is given up by the timer unless a test asks for it: on a
	 * loaded TCG guest with KASAN, two frames of a test may lie further
	 * apart than the default timeout (300 us).
	 */
	WRITE_ONCE(tnode->rsq.timeout_us, 60 * USEC_PER_SEC);
	return err;
}

static void tab_exit(struct kunit *test)
{
	r2c2_reseq_stop(tnode);
	r2c2_reseq_fini(tnode);
	skb_queue_purge(&stub_delivered);
	kfree(tnode);
	tnode = NULL;
}

/* the port netdev a received frame points at (never dereferenced here) */
static struct net_device *tdev;

/* a frame of sequence number @seq (in its mark) */
static struct sk_buff *tskb(struct kunit *test, u32 seq)
{
	struct sk_buff *skb = alloc_skb(0, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb->mark = seq;
	skb->dev = tdev;
	return skb;
}

static void trcv(struct kunit *test, u16 src, u32 id, u32 seq, u8 rproto)
{
	struct sk_buff *skb = tskb(test, seq);

	local_bh_disable();
	rcu_read_lock();
	r2c2_reseq_rcv(tnode, skb, src, id, seq, rproto);
	rcu_read_unlock();
	local_bh_enable();
}

static u64 stat(enum r2c2_stat s)
{
	return atomic64_read(&stub_stats[s]);
}

static void r2c2_reseq_rcv__dor_without_state(struct kunit *test)
{
	trcv(test, 1, 7, 0, R2C2_RP_DOR);
	trcv(test, 1, 7, 5, R2C2_RP_DOR);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&stub_delivered), 2U);
	KUNIT_EXPECT_EQ(test, atomic_read(&tnode->rsq.nflows), 0);
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_RESEQ_DIRECT), 2ULL);
}

static void r2c2_reseq_rcv__dor_does_not_overtake(struct kunit *test)
{
	struct sk_buff *skb;

	trcv(test, 1, 7, 0, R2C2_RP_RPS);
	trcv(test, 1, 7, 2, R2C2_RP_RPS);
	trcv(test, 1, 7, 3, R2C2_RP_DOR);	/* switched to DOR meanwhile */
	KUNIT_EXPECT_EQ(test, skb_queue_len(&stub_delivered), 1U);
	KUNIT_EXPECT_EQ(test, atomic_read(&tnode->rsq.held), 2);
	trcv(test, 1, 7, 1, R2C2_RP_RPS);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&stub_delivered), 4U);
	skb = skb_peek_tail(&stub_delivered);
	KUNIT_EXPECT_EQ(test, skb->mark, 3U);
}

/* A frame that was held does not point at the netdev of the port it
 * came by, which may be unregistered while the frame waits.
 */
static void r2c2_reseq_rcv__held_without_dev(struct kunit *test)
{
	struct sk_buff *skb;

	tdev = (struct net_device *)test;	/* any pointer: never read */
	trcv(test, 1, 7, 0, R2C2_RP_RPS);
	trcv(test, 1, 7, 2, R2C2_RP_RPS);
	KUNIT_EXPECT_EQ(test, atomic_read(&tnode->rsq.held), 1);
	trcv(test, 1, 7, 1, R2C2_RP_RPS);
	tdev = NULL;
	KUNIT_ASSERT_EQ(test, skb_queue_len(&stub_delivered), 3U);
	skb = skb_peek_tail(&stub_delivered);
	KUNIT_EXPECT_EQ(test, skb->mark, 2U);
	KUNIT_EXPECT_NULL(test, skb->dev);
}

static void r2c2_reseq_rcv__off_passes(struct kunit *test)
{
	WRITE_ONCE(tnode->rsq.enabled, false);
	trcv(test, 1, 7, 0, R2C2_RP_RPS);
	trcv(test, 1, 7, 2, R2C2_RP_RPS);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&stub_delivered), 2U);
	KUNIT_EXPECT_EQ(test, atomic_read(&tnode->rsq.nflows), 0);
}

static void r2c2_reseq_rcv__timer_gives_gap_up(struct kunit *test)
{
	static const u32 seq[] = { 0, 2, 3 };
	struct sk_buff *skb[ARRAY_SIZE(seq)];
	unsigned int i;
	int held;

	WRITE_ONCE(tnode->rsq.timeout_us, 100);
	for (i = 0; i < ARRAY_SIZE(seq); i++)
		skb[i] = tskb(test, seq[i]);
	/*
	 * BH off on this CPU (where the flow's soft timer is armed) until
	 * all three are in: a slow guest may take longer than 100 us from
	 * one frame to the next, and the timer would give the gap up
	 * before the third came.
	 */
	local_bh_disable();
	rcu_read_lock();
	for (i = 0; i < ARRAY_SIZE(seq); i++)
		r2c2_reseq_rcv(tnode, skb[i], 2, 9, seq[i], R2C2_RP_RPS);
	held = atomic_read(&tnode->rsq.held);
	rcu_read_unlock();
	local_bh_enable();
	KUNIT_EXPECT_EQ(test, held, 2);
	/* due after 100 us; a loaded TCG guest with KASAN may take long */
	for (i = 0; i < 1000 && atomic_read(&tnode->rsq.held); i++)
		msleep(10);
	KUNIT_EXPECT_EQ(test, atomic_read(&tnode->rsq.held), 0);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&stub_delivered), 3U);
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_RESEQ_TIMEOUT), 2ULL);
	KUNIT_EXPECT_EQ(test, READ_ONCE(tnode->rsq.maxdepth), 2U);
}

static void r2c2_reseq_rcv__flood_of_flows(struct kunit *test)
{
	unsigned int i, n = R2C2_RSQ_FLOWS_MAX + 500;

	/*
	 * No garbage collection during the flood: a flow idle for
	 * R2C2_RSQ_IDLE (1 s) would go and make room, and the loop takes
	 * longer than that on a debug kernel under TCG. The work put off
	 * an hour is not queued sooner (pending); tab_exit() cancels it.
	 */
	mod_delayed_work(system_wq, &tnode->rsq.gc_work, 3600 * HZ);
	for (i = 0; i < n; i++) {
		trcv(test, 3, i, 7, R2C2_RP_RPS);
		trcv(test, 3, i, 9, R2C2_RP_RPS);	/* held, a gap at 8 */
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&tnode->rsq.nflows),
			R2C2_RSQ_FLOWS_MAX);
	KUNIT_EXPECT_LE(test, atomic_read(&tnode->rsq.nrings),
			R2C2_RSQ_RINGS_MAX);
	KUNIT_EXPECT_LE(test, atomic_read(&tnode->rsq.held),
			R2C2_RSQ_RINGS_MAX);
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_RESEQ_NOSTATE), 2ULL * 500);
	/* every packet was delivered or is held: none lost */
	KUNIT_EXPECT_EQ(test, skb_queue_len(&stub_delivered) +
			atomic_read(&tnode->rsq.held), 2 * n);
}

static void r2c2_reseq_rcv__node_limit(struct kunit *test)
{
	unsigned int i;

	WRITE_ONCE(tnode->rsq.limit, 10);
	WRITE_ONCE(tnode->rsq.timeout_us, 1000000);
	for (i = 0; i < 50; i++) {
		trcv(test, 4, i, 0, R2C2_RP_RPS);
		trcv(test, 4, i, 2, R2C2_RP_RPS);
		trcv(test, 4, i, 3, R2C2_RP_RPS);
	}
	KUNIT_EXPECT_LE(test, atomic_read(&tnode->rsq.held), 11);
	KUNIT_EXPECT_GT(test, stat(R2C2_S_RESEQ_LIMIT), 0ULL);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&stub_delivered) +
			atomic_read(&tnode->rsq.held), 150U);
}

static void r2c2_reseq_stop__frees_held(struct kunit *test)
{
	WRITE_ONCE(tnode->rsq.timeout_us, 1000000);
	trcv(test, 5, 1, 0, R2C2_RP_RPS);
	trcv(test, 5, 1, 2, R2C2_RP_RPS);
	trcv(test, 5, 2, 0, R2C2_RP_VLB);
	trcv(test, 5, 2, 7, R2C2_RP_VLB);
	KUNIT_EXPECT_EQ(test, atomic_read(&tnode->rsq.held), 2);
	r2c2_reseq_stop(tnode);
	KUNIT_EXPECT_EQ(test, atomic_read(&tnode->rsq.held), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&tnode->rsq.nflows), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&tnode->rsq.nrings), 0);
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_DROP_NO_NODE), 2ULL);
	KUNIT_EXPECT_EQ(test, READ_ONCE(tnode->rsq.timeout_us),
			(u32)R2C2_RSQ_TIMEOUT_US_DEFAULT);
}

static void r2c2_reseq_nl_set__off_flushes(struct kunit *test)
{
	struct nlattr *a[R2C2_A_MAX + 1] = {};
	struct {
		struct nlattr hdr;
		u32 v;
	} on = { { NLA_HDRLEN + 1, R2C2_A_RESEQ }, 0 },
	  to = { { NLA_HDRLEN + 4, R2C2_A_RESEQ_TIMEOUT_US }, 5000 };

	a[R2C2_A_RESEQ_TIMEOUT_US] = &to.hdr;
	r2c2_reseq_nl_set(tnode, a);
	KUNIT_EXPECT_EQ(test, READ_ONCE(tnode->rsq.timeout_us), 5000U);
	trcv(test, 6, 1, 0, R2C2_RP_RPS);
	trcv(test, 6, 1, 2, R2C2_RP_RPS);
	KUNIT_EXPECT_EQ(test, atomic_read(&tnode->rsq.held), 1);
	a[R2C2_A_RESEQ] = &on.hdr;
	r2c2_reseq_nl_set(tnode, a);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(tnode->rsq.enabled));
	KUNIT_EXPECT_EQ(test, atomic_read(&tnode->rsq.held), 0);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&stub_delivered), 2U);
}

static void r2c2_rsq_gc__frees_idle(struct kunit *test)
{
	struct r2c2_rsq_ent *e;

	trcv(test, 7, 1, 0, R2C2_RP_RPS);
	KUNIT_EXPECT_EQ(test, atomic_read(&tnode->rsq.nflows), 1);
	/* pretend the flow has been idle for long */
	rcu_read_lock();
	e = r2c2_rsq_find(&tnode->rsq, 7, 1);
	if (e)
		e->last_used = jiffies - 2 * R2C2_RSQ_IDLE;
	rcu_read_unlock();
	KUNIT_ASSERT_NOT_NULL(test, e);
	cancel_delayed_work_sync(&tnode->rsq.gc_work);
	r2c2_rsq_gc(&tnode->rsq.gc_work.work);
	KUNIT_EXPECT_EQ(test, atomic_read(&tnode->rsq.nflows), 0);
	rcu_barrier();
}

static struct kunit_case r2c2_reseq_cases[] = {
	KUNIT_CASE(r2c2_rsq_fast__in_order),
	KUNIT_CASE(r2c2_rsq_fast__not_with_held),
	KUNIT_CASE(r2c2_rsq_rcv__in_order),
	KUNIT_CASE(r2c2_rsq_rcv__single_gap_filled),
	KUNIT_CASE(r2c2_rsq_rcv__two_gaps),
	KUNIT_CASE(r2c2_rsq_expire__gap_timed_out),
	KUNIT_CASE(r2c2_rsq_rcv__late_from_older_gap),
	KUNIT_CASE(r2c2_rsq_expire__second_gap_later),
	KUNIT_CASE(r2c2_rsq_rcv__duplicate_of_held),
	KUNIT_CASE(r2c2_rsq_rcv__duplicate_of_delivered),
	KUNIT_CASE(r2c2_rsq_rcv__wraparound),
	KUNIT_CASE(r2c2_rsq_rcv__flow_limit),
	KUNIT_CASE(r2c2_rsq_rcv__limit_new_is_oldest),
	KUNIT_CASE(r2c2_rsq_rcv__limit_fills_gap),
	KUNIT_CASE(r2c2_rsq_rcv__global_limit),
	KUNIT_CASE(r2c2_rsq_rcv__far_ahead_resyncs),
	KUNIT_CASE(r2c2_rsq_rcv__window_edge),
	KUNIT_CASE(r2c2_rsq_rcv__sender_restart),
	KUNIT_CASE(r2c2_rsq_rcv__no_ring),
	KUNIT_CASE(r2c2_rsq_ahead__window),
	KUNIT_CASE(r2c2_rsq_flush__in_order),
	KUNIT_CASE(r2c2_rsq_rcv__random_property),
	KUNIT_CASE(r2c2_rsq_spread_add__window_max),
	KUNIT_CASE(r2c2_rsq_timeout__floor_adapt_cap),
	KUNIT_CASE(r2c2_rsq_spread__clock_behind_window),
	{}
};

static struct kunit_suite r2c2_reseq_suite = {
	.name = "r2c2_reseq",
	.init = rsq_init,
	.exit = rsq_exit,
	.test_cases = r2c2_reseq_cases,
};

static struct kunit_case r2c2_reseqtab_cases[] = {
	KUNIT_CASE(r2c2_reseq_rcv__dor_without_state),
	KUNIT_CASE(r2c2_reseq_rcv__dor_does_not_overtake),
	KUNIT_CASE(r2c2_reseq_rcv__held_without_dev),
	KUNIT_CASE(r2c2_reseq_rcv__off_passes),
	KUNIT_CASE(r2c2_reseq_rcv__timer_gives_gap_up),
	KUNIT_CASE(r2c2_reseq_rcv__flood_of_flows),
	KUNIT_CASE(r2c2_reseq_rcv__node_limit),
	KUNIT_CASE(r2c2_reseq_stop__frees_held),
	KUNIT_CASE(r2c2_reseq_nl_set__off_flushes),
	KUNIT_CASE(r2c2_rsq_gc__frees_idle),
	{}
};

static struct kunit_suite r2c2_reseqtab_suite = {
	.name = "r2c2_reseqtab",
	.init = tab_init,
	.exit = tab_exit,
	.test_cases = r2c2_reseqtab_cases,
};

kunit_test_suites(&r2c2_reseq_suite, &r2c2_reseqtab_suite);

MODULE_DESCRIPTION("KUnit tests of r2c2 receiver resequencing");
MODULE_LICENSE("GPL");
