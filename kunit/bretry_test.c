// SPDX-License-Identifier: GPL-2.0
/*
 * bretry_test.c - KUnit tests of the pure part of the broadcast retry
 * (kmod/bretry.h): whether a copy whose transmit failed is held, and how
 * long it waits. The queue and timer around them are checked in a VM
 * (selftests/bretry_test.sh). Names are function__case.
 */
#include <kunit/test.h>
#include <linux/module.h>

#include "../kmod/bretry.h"

static void r2c2_bretry_verdict__off(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, r2c2_bretry_verdict(0, 0, 0), R2C2_BR_OFF);
	/* off wins over a full queue and over spent tries */
	KUNIT_EXPECT_EQ(test, r2c2_bretry_verdict(5, 0, R2C2_BRETRY_QLEN),
			R2C2_BR_OFF);
}

static void r2c2_bretry_verdict__first_failure_held(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, r2c2_bretry_verdict(0, 1, 0), R2C2_BR_QUEUE);
	KUNIT_EXPECT_EQ(test,
			r2c2_bretry_verdict(0, R2C2_BRETRY_TRIES_DEFAULT, 0),
			R2C2_BR_QUEUE);
}

static void r2c2_bretry_verdict__tries_spent(struct kunit *test)
{
	unsigned int max, t;

	for (max = 1; max <= R2C2_BRETRY_TRIES_MAX; max++) {
		for (t = 0; t < max; t++)
			KUNIT_EXPECT_EQ(test, r2c2_bretry_verdict(t, max, 0),
					R2C2_BR_QUEUE);
		KUNIT_EXPECT_EQ(test, r2c2_bretry_verdict(max, max, 0),
				R2C2_BR_TRIES);
		KUNIT_EXPECT_EQ(test, r2c2_bretry_verdict(max + 1, max, 0),
				R2C2_BR_TRIES);
	}
}

static void r2c2_bretry_verdict__queue_cap(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, r2c2_bretry_verdict(0, 4, R2C2_BRETRY_QLEN - 1),
			R2C2_BR_QUEUE);
	KUNIT_EXPECT_EQ(test, r2c2_bretry_verdict(0, 4, R2C2_BRETRY_QLEN),
			R2C2_BR_FULL);
	KUNIT_EXPECT_EQ(test, r2c2_bretry_verdict(0, 4, R2C2_BRETRY_QLEN + 7),
			R2C2_BR_FULL);
}

static void r2c2_bretry_verdict__tries_before_cap(struct kunit *test)
{
	/* a spent copy is given up for its tries, whatever the queue */
	KUNIT_EXPECT_EQ(test, r2c2_bretry_verdict(4, 4, R2C2_BRETRY_QLEN),
			R2C2_BR_TRIES);
}

static void r2c2_bretry_delay_ms__doubles(struct kunit *test)
{
	unsigned int t;

	KUNIT_EXPECT_EQ(test, r2c2_bretry_delay_ms(0), R2C2_BRETRY_BASE_MS);
	for (t = 1; t < R2C2_BRETRY_TRIES_MAX; t++)
		KUNIT_EXPECT_EQ(test, r2c2_bretry_delay_ms(t),
				2 * r2c2_bretry_delay_ms(t - 1));
}

static void r2c2_bretry_delay_ms__default_schedule(struct kunit *test)
{
	unsigned int t, sum = 0;

	for (t = 0; t < R2C2_BRETRY_TRIES_DEFAULT; t++)
		sum += r2c2_bretry_delay_ms(t);
	/* 1 + 2 + 4 + 8 ms, as the module parameter's description says */
	KUNIT_EXPECT_EQ(test, sum, 15U);
	for (t = R2C2_BRETRY_TRIES_DEFAULT; t < R2C2_BRETRY_TRIES_MAX; t++)
		sum += r2c2_bretry_delay_ms(t);
	/* the most a copy can wait in all: 255 ms */
	KUNIT_EXPECT_EQ(test, sum, 255U);
}

static void r2c2_bretry_delay_ms__clamped(struct kunit *test)
{
	unsigned int last = r2c2_bretry_delay_ms(R2C2_BRETRY_TRIES_MAX - 1);

	KUNIT_EXPECT_EQ(test, r2c2_bretry_delay_ms(R2C2_BRETRY_TRIES_MAX), last);
	KUNIT_EXPECT_EQ(test, r2c2_bretry_delay_ms(1000), last);
	KUNIT_EXPECT_EQ(test, r2c2_bretry_delay_ms(~0U), last);
}

static struct kunit_case r2c2_bretry_cases[] = {
	KUNIT_CASE(r2c2_bretry_verdict__off),
	KUNIT_CASE(r2c2_bretry_verdict__first_failure_held),
	KUNIT_CASE(r2c2_bretry_verdict__tries_spent),
	KUNIT_CASE(r2c2_bretry_verdict__queue_cap),
	KUNIT_CASE(r2c2_bretry_verdict__tries_before_cap),
	KUNIT_CASE(r2c2_bretry_delay_ms__doubles),
	KUNIT_CASE(r2c2_bretry_delay_ms__default_schedule),
	KUNIT_CASE(r2c2_bretry_delay_ms__clamped),
	{}
};

static struct kunit_suite r2c2_bretry_suite = {
	.name = "r2c2_bretry",
	.test_cases = r2c2_bretry_cases,
};

kunit_test_suite(r2c2_bretry_suite);

MODULE_DESCRIPTION("KUnit tests of r2c2's broadcast retry decisions");
MODULE_LICENSE("GPL");
