// SPDX-License-Identifier: GPL-2.0
/*
 * digest.c - what a node does with the digests and resync requests it
 * hears (digest.h).
 */
#include <stdlib.h>
#include <linux/types.h>
#include <linux/r2c2.h>

#include "digest.h"

void dg_fini(struct dg *g)
{
	free(g->src);
	g->src = NULL;
}

/* whether the matrix refused flows of src: then asking cannot help */
static bool refused(const struct mx *m, uint16_t src)
{
	return m->n >= m->max_flows || m->src_n[src] >= m->max_per_src;
}

enum dg_verdict dg_heard(struct dg *g, struct mx *m, uint16_t src,
			 uint32_t digest, uint32_t count, uint8_t flags,
			 uint64_t now)
{
	struct dg_src *s;
	uint32_t h, n;

	if (!g->src) {
		g->src = calloc(1u << 16, sizeof(*g->src));
		if (!g->src)
			return DG_WAIT;
	}
	s = &g->src[src];
	g->st.heard++;
	h = mx_digest(m, src, &n);
	/*
	 * The answer to a RESYNC (ours or another node's, sent after ours):
	 * the source announced every flow it has since we asked; the flows
	 * it did not were finished, their FINISH lost.
	 */
	if ((h != digest || n != count) && (flags & R2C2_DIGEST_F_ANSWER) &&
	    s->asked_ns) {
		n = mx_drop_stale(m, src, s->asked_ns);
		g->st.removed += n;
		h = mx_digest(m, src, &n);
	}
	if (h == digest && n == count) {
		if (s->misses || s->asked_ns)
			g->repaired_ns = now;
		s->misses = 0;
		s->asked_ns = 0;
		g->st.matched++;
		return DG_MATCH;
	}
	g->st.mismatched++;
	/*
	 * One digest may be older than an event on its way (the source's
	 * daemon learns its own flows from the qdisc a little later than
	 * the rack hears of them): ask when two in a row disagree, and not
	 * again before an answer had time to come.
	 */
	if (s->misses < DG_MISSES)
		s->misses++;
	if (s->misses < DG_MISSES ||
	    (s->asked_ns && now - s->asked_ns < 2 * g->period_ns))
		return DG_WAIT;
	if (refused(m, src)) {
		g->st.refused++;
		return DG_WAIT;
	}
	s->asked_ns = now;
	s->misses = 0;
	g->st.asked++;
	return DG_ASK;
}

void dg_asked(struct dg *g)
{
	g->st.asks_heard++;
	g->answer_due = true;
}

uint64_t dg_answer_at(const struct dg *g)
{
	return g->answered_ns ? g->answered_ns + g->period_ns / 2 : 0;
}
