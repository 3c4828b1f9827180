/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bretry.h - the pure part of the local retry of broadcast copies whose
 * transmit failed (bcast.c): how long a copy waits before its next try,
 * and whether it may wait at all. No state: KUnit tests it directly
 * (kunit/bretry_test.c).
 *
 * A node whose dev_queue_xmit() of a FLOW or ROUTES copy reports a drop
 * keeps a copy and sends it again on the same port after 1, 2, 4, ...
 * ms, up to r2c2.bcast_retries times, holding at most R2C2_BRETRY_QLEN
 * copies a port. See Documentation/design.md, "Broadcast retry".
 */
#ifndef _R2C2_BRETRY_H
#define _R2C2_BRETRY_H

#include <linux/types.h>

#define R2C2_BRETRY_TRIES_DEFAULT	4	/* r2c2.bcast_retries */
#define R2C2_BRETRY_TRIES_MAX		8
#define R2C2_BRETRY_BASE_MS		1	/* wait before the first retry */
#define R2C2_BRETRY_QLEN		64	/* copies waiting on one port */

/**
 * enum r2c2_bretry_verdict - what becomes of a copy whose transmit failed
 * @R2C2_BR_QUEUE: hold it for another try
 * @R2C2_BR_OFF: retries are off (bcast_retries 0): drop it, as before
 * @R2C2_BR_TRIES: it had its last try: give up (counted)
 * @R2C2_BR_FULL: the port's retry queue is full: give up (counted)
 */
enum r2c2_bretry_verdict {
	R2C2_BR_QUEUE,
	R2C2_BR_OFF,
	R2C2_BR_TRIES,
	R2C2_BR_FULL,
};

/**
 * r2c2_bretry_verdict() - whether a copy whose transmit failed is held
 * @tries: retransmissions already made of it (0 after the first failure)
 * @max_tries: retransmissions allowed (bcast_retries), 0 = off
 * @qlen: copies already waiting on the port
 *
 * Return: enum r2c2_bretry_verdict.
 */
static inline enum r2c2_bretry_verdict
r2c2_bretry_verdict(unsigned int tries, unsigned int max_tries,
		    unsigned int qlen)
{
	if (!max_tries)
		return R2C2_BR_OFF;
	if (tries >= max_tries)
		return R2C2_BR_TRIES;
	if (qlen >= R2C2_BRETRY_QLEN)
		return R2C2_BR_FULL;
	return R2C2_BR_QUEUE;
}

/**
 * r2c2_bretry_delay_ms() - the wait before a copy's next try
 * @tries: retransmissions already made of it
 *
 * Doubles from R2C2_BRETRY_BASE_MS: 1, 2, 4, ... ms; @tries beyond
 * R2C2_BRETRY_TRIES_MAX - 1 waits as long as the last allowed try.
 *
 * Return: milliseconds.
 */
static inline unsigned int r2c2_bretry_delay_ms(unsigned int tries)
{
	if (tries > R2C2_BRETRY_TRIES_MAX - 1)
		tries = R2C2_BRETRY_TRIES_MAX - 1;
	return R2C2_BRETRY_BASE_MS << tries;
}

#endif /* _R2C2_BRETRY_H */
