/* SPDX-License-Identifier: GPL-2.0 */
/*
 * digest.h - recovery of lost flow events: every node that has flows of
 * its own broadcasts a digest of them (R2C2_FE_DIGEST) every digest_ms; a
 * node whose matrix disagrees with two digests of a source in a row asks
 * it for the whole set (R2C2_FE_RESYNC), and the source announces every
 * flow again (REFRESH) followed by a digest marked as the answer. Flows of
 * the source not announced again since the asker asked are then gone (a
 * lost FINISH). No netlink, no clock: the caller sends what these
 * functions decide (main.c), so tests/r2c2d_matrix_test.c drives them
 * with synthetic events.
 */
#ifndef _R2C2D_DIGEST_H
#define _R2C2D_DIGEST_H

#include <stdbool.h>
#include <stdint.h>

#include "matrix.h"

/**
 * struct dg_src - what a node knows of one source's digests
 * @asked_ns: when it last asked the source for its flows (0: not asked
 *	since its digest last matched)
 * @misses: digests in a row that did not match
 */
struct dg_src {
	uint64_t asked_ns;
	uint8_t misses;
};

/**
 * struct dg_stats - counters, in r2c2ctl daemon show
 * @sent: digests sent (the answers among them)
 * @heard: digests of other nodes heard
 * @matched: of them, those the matrix agreed with (after repairs)
 * @mismatched: those it did not
 * @asked: RESYNC requests sent
 * @asks_heard: RESYNC requests for this node heard
 * @answered: answers sent (every flow again, then a digest)
 * @removed: flows removed because an answer did not announce them
 * @refused: mismatches not asked about: this node refused the source's
 *	flows (max_flows, max_flows_per_src), so asking would not help
 */
struct dg_stats {
	uint64_t sent, heard, matched, mismatched;
	uint64_t asked, asks_heard, answered, removed, refused;
};

/**
 * struct dg - digest state of the daemon
 * @src: one entry per source address, allocated on first use
 * @period_ns: digest_ms
 * @answer_due: a RESYNC for this node was heard: answer at the next tick
 * @answered_ns: when the last answer was sent
 * @repaired_ns: when a source's digest last matched after it had not
 *	(0: never), for r2c2ctl daemon show
 * @st: counters
 */
struct dg {
	struct dg_src *src;
	uint64_t period_ns;
	bool answer_due;
	uint64_t answered_ns;
	uint64_t repaired_ns;
	struct dg_stats st;
};

/* how many digests in a row must disagree before a node asks */
#define DG_MISSES	2

enum dg_verdict {
	DG_MATCH,	/* the matrix agrees (perhaps after removing flows) */
	DG_WAIT,	/* it does not; ask later, if it still does not */
	DG_ASK,		/* it does not: send RESYNC to the source now */
};

void dg_fini(struct dg *g);
/*
 * A digest of source src heard at now (src is not this node): compares
 * it with m, removes src's flows an answer did not announce again, and
 * says whether to ask src for its flows. -ENOMEM as DG_WAIT.
 */
enum dg_verdict dg_heard(struct dg *g, struct mx *m, uint16_t src,
			 uint32_t digest, uint32_t count, uint8_t flags,
			 uint64_t now);
/*
 * A RESYNC for this node heard: an answer is due, at dg_answer_at() or
 * later (one per half period at most, however many nodes ask: the
 * answer is a broadcast, and what a hostile node's requests cost is
 * bounded).
 */
void dg_asked(struct dg *g);
uint64_t dg_answer_at(const struct dg *g);

#endif /* _R2C2D_DIGEST_H */
