// SPDX-License-Identifier: GPL-2.0
/*
 * class_test.c - KUnit suite "r2c2_class": traffic-class matching
 * (kmod/class.h): each criterion alone, their conjunction, port range
 * edges, packets without IP or ports, and first match in id order.
 * Names are function__case.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "../kmod/class.h"

static const struct r2c2_class_key udp_5001 = {
	.skb_prio = 0, .sport = 40000, .dport = 5001, .dscp = 0,
	.has = R2C2_CK_IP | R2C2_CK_PORTS,
};

static void r2c2_class_match__empty_matches_all(struct kunit *test)
{
	struct r2c2_class c = { .id = 1 };
	struct r2c2_class_key none = {};

	KUNIT_EXPECT_TRUE(test, r2c2_class_match(&c, &udp_5001));
	KUNIT_EXPECT_TRUE(test, r2c2_class_match(&c, &none));
}

static void r2c2_class_match__dscp(struct kunit *test)
{
	struct r2c2_class c = { .match = R2C2_CM_DSCP, .dscp = 46 };
	struct r2c2_class_key k = udp_5001;

	KUNIT_EXPECT_FALSE(test, r2c2_class_match(&c, &k));
	k.dscp = 46;
	KUNIT_EXPECT_TRUE(test, r2c2_class_match(&c, &k));
	k.dscp = 47;
	KUNIT_EXPECT_FALSE(test, r2c2_class_match(&c, &k));
	c.dscp = 0;
	k.dscp = 0;
	KUNIT_EXPECT_TRUE(test, r2c2_class_match(&c, &k));
}

static void r2c2_class_match__dscp_needs_ip(struct kunit *test)
{
	struct r2c2_class c = { .match = R2C2_CM_DSCP, .dscp = 0 };
	struct r2c2_class_key k = { .dscp = 0, .has = R2C2_CK_PORTS };

	/* a non-IP packet has no DSCP, not DSCP 0 */
	KUNIT_EXPECT_FALSE(test, r2c2_class_match(&c, &k));
}

static void r2c2_class_match__skb_prio(struct kunit *test)
{
	struct r2c2_class c = { .match = R2C2_CM_SKB_PRIO, .skb_prio = 6 };
	struct r2c2_class_key k = udp_5001;

	KUNIT_EXPECT_FALSE(test, r2c2_class_match(&c, &k));
	k.skb_prio = 6;
	KUNIT_EXPECT_TRUE(test, r2c2_class_match(&c, &k));
	k.has = 0;	/* no IP, no ports: priority still counts */
	KUNIT_EXPECT_TRUE(test, r2c2_class_match(&c, &k));
	k.skb_prio = 0x10006;
	KUNIT_EXPECT_FALSE(test, r2c2_class_match(&c, &k));
}

static void r2c2_class_match__dport_range_edges(struct kunit *test)
{
	struct r2c2_class c = {
		.match = R2C2_CM_DPORT, .dport_lo = 5000, .dport_hi = 5010,
	};
	struct r2c2_class_key k = udp_5001;
	static const struct {
		u16 port;
		bool in;
	} cases[] = {
		{ 0, false }, { 4999, false }, { 5000, true }, { 5005, true },
		{ 5010, true }, { 5011, false }, { 65535, false },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		k.dport = cases[i].port;
		KUNIT_EXPECT_EQ_MSG(test, r2c2_class_match(&c, &k), cases[i].in,
				    "dport %u", cases[i].port);
	}
	/* the source port is not looked at */
	k.dport = 80;
	k.sport = 5005;
	KUNIT_EXPECT_FALSE(test, r2c2_class_match(&c, &k));
}

static void r2c2_class_match__sport_single_port(struct kunit *test)
{
	struct r2c2_class c = {
		.match = R2C2_CM_SPORT, .sport_lo = 40000, .sport_hi = 40000,
	};
	struct r2c2_class_key k = udp_5001;

	KUNIT_EXPECT_TRUE(test, r2c2_class_match(&c, &k));
	k.sport = 40001;
	KUNIT_EXPECT_FALSE(test, r2c2_class_match(&c, &k));
}

static void r2c2_class_match__ports_need_ports(struct kunit *test)
{
	struct r2c2_class c = {
		.match = R2C2_CM_DPORT, .dport_lo = 0, .dport_hi = 65535,
	};
	struct r2c2_class_key icmp = { .has = R2C2_CK_IP };

	/* ICMP has no ports, not port 0 */
	KUNIT_EXPECT_FALSE(test, r2c2_class_match(&c, &icmp));
	c.match = R2C2_CM_SPORT;
	c.sport_hi = 65535;
	KUNIT_EXPECT_FALSE(test, r2c2_class_match(&c, &icmp));
}

static void r2c2_class_match__all_criteria_must_hold(struct kunit *test)
{
	struct r2c2_class c = {
		.match = R2C2_CM_DSCP | R2C2_CM_SKB_PRIO | R2C2_CM_SPORT |
			 R2C2_CM_DPORT,
		.dscp = 10, .skb_prio = 3, .sport_lo = 1, .sport_hi = 50000,
		.dport_lo = 5001, .dport_hi = 5001,
	};
	struct r2c2_class_key k = udp_5001;

	k.dscp = 10;
	k.skb_prio = 3;
	KUNIT_EXPECT_TRUE(test, r2c2_class_match(&c, &k));
	k.dscp = 11;
	KUNIT_EXPECT_FALSE(test, r2c2_class_match(&c, &k));
	k.dscp = 10;
	k.skb_prio = 4;
	KUNIT_EXPECT_FALSE(test, r2c2_class_match(&c, &k));
	k.skb_prio = 3;
	k.sport = 50001;
	KUNIT_EXPECT_FALSE(test, r2c2_class_match(&c, &k));
	k.sport = 50000;
	k.dport = 5002;
	KUNIT_EXPECT_FALSE(test, r2c2_class_match(&c, &k));
}

static struct r2c2_class_tab *tab_new(struct kunit *test, unsigned int n)
{
	struct r2c2_class_tab *t;

	t = kunit_kzalloc(test, struct_size(t, c, n), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	t->n = n;
	return t;
}

static void r2c2_class_first__lowest_id_wins(struct kunit *test)
{
	struct r2c2_class_tab *t = tab_new(test, 3);
	struct r2c2_class_key k = udp_5001;
	struct r2c2_class *c;

	t->c[0] = (struct r2c2_class){ .id = 2, .match = R2C2_CM_DPORT,
				       .dport_lo = 5001, .dport_hi = 5001,
				       .weight = 4, .prio = 2 };
	t->c[1] = (struct r2c2_class){ .id = 5, .match = R2C2_CM_DPORT,
				       .dport_lo = 1, .dport_hi = 65535,
				       .weight = 7, .prio = 1 };
	t->c[2] = (struct r2c2_class){ .id = 64, .weight = 9, .prio = 15 };

	c = r2c2_class_first(t, &k);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_EXPECT_EQ(test, c->id, 2);
	KUNIT_EXPECT_EQ(test, c->weight, 4);
	k.dport = 80;
	c = r2c2_class_first(t, &k);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_EXPECT_EQ(test, c->id, 5);
	k.has = R2C2_CK_IP;	/* no ports: only the catch-all */
	c = r2c2_class_first(t, &k);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_EXPECT_EQ(test, c->id, 64);
	KUNIT_EXPECT_EQ(test, c->prio, 15);
}

static void r2c2_class_first__none(struct kunit *test)
{
	struct r2c2_class_tab *t = tab_new(test, 1);

	t->c[0] = (struct r2c2_class){ .id = 1, .match = R2C2_CM_DSCP,
				       .dscp = 46, .weight = 3 };
	KUNIT_EXPECT_NULL(test, r2c2_class_first(t, &udp_5001));
	KUNIT_EXPECT_NULL(test, r2c2_class_first(NULL, &udp_5001));
	t->n = 0;
	KUNIT_EXPECT_NULL(test, r2c2_class_first(t, &udp_5001));
}

static struct kunit_case r2c2_class_cases[] = {
	KUNIT_CASE(r2c2_class_match__empty_matches_all),
	KUNIT_CASE(r2c2_class_match__dscp),
	KUNIT_CASE(r2c2_class_match__dscp_needs_ip),
	KUNIT_CASE(r2c2_class_match__skb_prio),
	KUNIT_CASE(r2c2_class_match__dport_range_edges),
	KUNIT_CASE(r2c2_class_match__sport_single_port),
	KUNIT_CASE(r2c2_class_match__ports_need_ports),
	KUNIT_CASE(r2c2_class_match__all_criteria_must_hold),
	KUNIT_CASE(r2c2_class_first__lowest_id_wins),
	KUNIT_CASE(r2c2_class_first__none),
	{}
};

static struct kunit_suite r2c2_class_suite = {
	.name = "r2c2_class",
	.test_cases = r2c2_class_cases,
};

kunit_test_suite(r2c2_class_suite);

MODULE_DESCRIPTION("KUnit tests of r2c2 traffic-class matching");
MODULE_LICENSE("GPL");
