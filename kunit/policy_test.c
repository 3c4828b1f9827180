// SPDX-License-Identifier: GPL-2.0
/*
 * policy_test.c - KUnit suite "r2c2_policy": the "r2c2" family's strict
 * netlink policy (kmod/policy.c) accepts the edges of every range and
 * rejects what is out of range, of the wrong length or unknown, with an
 * extack message naming the attribute.
 */
#include <kunit/test.h>
#include <linux/netlink.h>
#include <linux/skbuff.h>
#include <net/netlink.h>

#include "../kmod/policy.c"

/* Parse one attribute as the family does (nla_parse: strict). */
static int parse_one(struct kunit *test, int type, const void *data,
		     int len, const char **msg)
{
	struct netlink_ext_ack extack = {};
	struct nlattr *tb[R2C2_A_MAX + 1];
	struct sk_buff *skb;
	int err;

	skb = alloc_skb(256, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_EQ(test, nla_put(skb, type, len, data), 0);
	err = nla_parse(tb, R2C2_A_MAX, (struct nlattr *)skb->data, skb->len,
			r2c2_policy, &extack);
	*msg = extack._msg;
	if (err)
		KUNIT_EXPECT_PTR_EQ(test, (const void *)extack.bad_attr,
				    (const void *)skb->data);
	kfree_skb(skb);
	return err;
}

static int parse_u8(struct kunit *test, int type, u8 v, const char **msg)
{
	return parse_one(test, type, &v, sizeof(v), msg);
}

static int parse_u16(struct kunit *test, int type, u16 v, const char **msg)
{
	return parse_one(test, type, &v, sizeof(v), msg);
}

static int parse_u32(struct kunit *test, int type, u32 v, const char **msg)
{
	return parse_one(test, type, &v, sizeof(v), msg);
}

static void policy__port_range(struct kunit *test)
{
	const char *msg;

	KUNIT_EXPECT_EQ(test, parse_u8(test, R2C2_A_PORT, 7, &msg), 0);
	KUNIT_EXPECT_EQ(test, parse_u8(test, R2C2_A_PORT, 8, &msg), -ERANGE);
	KUNIT_EXPECT_NOT_NULL(test, msg);
	KUNIT_EXPECT_EQ(test, parse_u8(test, R2C2_A_NBR_PORT, 8, &msg), -ERANGE);
}

static void policy__node_addr_range(struct kunit *test)
{
	const char *msg;

	KUNIT_EXPECT_EQ(test, parse_u16(test, R2C2_A_NODE_ADDR, 0, &msg), 0);
	KUNIT_EXPECT_EQ(test, parse_u16(test, R2C2_A_NODE_ADDR, 0xfffe, &msg), 0);
	KUNIT_EXPECT_EQ(test, parse_u16(test, R2C2_A_NODE_ADDR, 0xffff, &msg),
			-ERANGE);
	KUNIT_EXPECT_NOT_NULL(test, msg);
	KUNIT_EXPECT_EQ(test, parse_u16(test, R2C2_A_DST, 0xffff, &msg), -ERANGE);
	KUNIT_EXPECT_EQ(test, parse_u16(test, R2C2_A_FLOW_SRC, 0xffff, &msg),
			-ERANGE);
}

static void policy__rproto_range(struct kunit *test)
{
	const char *msg;
	u8 p;

	for (p = 0; p < __R2C2_RP_MAX; p++)
		KUNIT_EXPECT_EQ(test, parse_u8(test, R2C2_A_RPROTO, p, &msg), 0);
	KUNIT_EXPECT_EQ(test, parse_u8(test, R2C2_A_RPROTO, __R2C2_RP_MAX, &msg),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, parse_u8(test, R2C2_A_RPROTO, 7, &msg), -ERANGE);
}

static void policy__trees_hello_ranges(struct kunit *test)
{
	const char *msg;

	KUNIT_EXPECT_EQ(test, parse_u8(test, R2C2_A_TREES, 0, &msg), -ERANGE);
	KUNIT_EXPECT_EQ(test, parse_u8(test, R2C2_A_TREES, 1, &msg), 0);
	KUNIT_EXPECT_EQ(test, parse_u8(test, R2C2_A_TREES, R2C2_MAX_TREES, &msg), 0);
	KUNIT_EXPECT_EQ(test, parse_u8(test, R2C2_A_TREES, R2C2_MAX_TREES + 1, &msg),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, parse_u32(test, R2C2_A_HELLO_MS, 9, &msg), -ERANGE);
	KUNIT_EXPECT_EQ(test, parse_u32(test, R2C2_A_HELLO_MS, 10, &msg), 0);
	KUNIT_EXPECT_EQ(test, parse_u32(test, R2C2_A_HELLO_MS, 60000, &msg), 0);
	KUNIT_EXPECT_EQ(test, parse_u32(test, R2C2_A_HELLO_MS, 60001, &msg),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, parse_u8(test, R2C2_A_TOPO_DIM, 1, &msg), -ERANGE);
}

static void policy__flow_event_ranges(struct kunit *test)
{
	const char *msg;

	KUNIT_EXPECT_EQ(test, parse_u8(test, R2C2_A_WEIGHT, 0, &msg), -ERANGE);
	KUNIT_EXPECT_EQ(test, parse_u8(test, R2C2_A_WEIGHT, 255, &msg), 0);
	KUNIT_EXPECT_EQ(test, parse_u8(test, R2C2_A_PRIO, 16, &msg), -ERANGE);
	KUNIT_EXPECT_EQ(test, parse_u8(test, R2C2_A_FLOW_EVT, 0, &msg), -ERANGE);
	KUNIT_EXPECT_EQ(test, parse_u8(test, R2C2_A_FLOW_EVT, R2C2_FE_REFRESH,
				       &msg), 0);
	KUNIT_EXPECT_EQ(test, parse_u8(test, R2C2_A_FLOW_EVT, R2C2_FE_RESYNC,
				       &msg), 0);
	KUNIT_EXPECT_EQ(test, parse_u8(test, R2C2_A_FLOW_EVT,
				       R2C2_FE_RESYNC + 1, &msg), -ERANGE);
	KUNIT_EXPECT_EQ(test, parse_u32(test, R2C2_A_DEMAND_KBPS,
					R2C2_DEMAND_UNLIMITED, &msg), 0);
	KUNIT_EXPECT_EQ(test, parse_u32(test, R2C2_A_DEMAND_KBPS,
					R2C2_DEMAND_UNLIMITED + 1, &msg), -ERANGE);
}

static void policy__wrong_length(struct kunit *test)
{
	const char *msg;
	u32 v = 3;
	u8 mac[ETH_ALEN + 1] = {};

	/* a u32 where a u8 belongs: strict validation refuses it */
	KUNIT_EXPECT_LT(test, parse_one(test, R2C2_A_PORT, &v, sizeof(v), &msg), 0);
	KUNIT_EXPECT_NOT_NULL(test, msg);
	/* a u8 where a u16 belongs: too short */
	KUNIT_EXPECT_LT(test, parse_one(test, R2C2_A_NODE_ADDR, &v, 1, &msg), 0);
	KUNIT_EXPECT_EQ(test, parse_one(test, R2C2_A_NBR_MAC, mac, ETH_ALEN, &msg), 0);
	KUNIT_EXPECT_LT(test, parse_one(test, R2C2_A_NBR_MAC, mac, ETH_ALEN + 1,
					&msg), 0);
}

static void policy__ifname(struct kunit *test)
{
	const char *msg;
	char name[IFNAMSIZ + 1];

	memset(name, 'a', sizeof(name));
	name[IFNAMSIZ - 1] = '\0';	/* 15 characters: fits */
	KUNIT_EXPECT_EQ(test, parse_one(test, R2C2_A_IFNAME, name, IFNAMSIZ, &msg), 0);
	name[IFNAMSIZ - 1] = 'a';
	name[IFNAMSIZ] = '\0';		/* 16 characters: too long */
	KUNIT_EXPECT_LT(test, parse_one(test, R2C2_A_IFNAME, name, IFNAMSIZ + 1,
					&msg), 0);
	/* not NUL-terminated */
	KUNIT_EXPECT_LT(test, parse_one(test, R2C2_A_PORT_IFNAME, name, 4, &msg), 0);
}

static void policy__unknown_attribute(struct kunit *test)
{
	const char *msg;

	KUNIT_EXPECT_LT(test, parse_u8(test, R2C2_A_MAX + 1, 0, &msg), 0);
}

static struct kunit_case r2c2_policy_cases[] = {
	KUNIT_CASE(policy__port_range),
	KUNIT_CASE(policy__node_addr_range),
	KUNIT_CASE(policy__rproto_range),
	KUNIT_CASE(policy__trees_hello_ranges),
	KUNIT_CASE(policy__flow_event_ranges),
	KUNIT_CASE(policy__wrong_length),
	KUNIT_CASE(policy__ifname),
	KUNIT_CASE(policy__unknown_attribute),
	{}
};

static struct kunit_suite r2c2_policy_suite = {
	.name = "r2c2_policy",
	.test_cases = r2c2_policy_cases,
};

kunit_test_suite(r2c2_policy_suite);

MODULE_DESCRIPTION("KUnit tests of the r2c2 generic netlink policy");
MODULE_LICENSE("GPL");
