// SPDX-License-Identifier: GPL-2.0
/*
 * events.c - r2c2d's flow events from the kernel's event socket: applied
 * to the matrix (own echoes aside), DIGEST and RESYNC answered, and this
 * node's digests sent (digest.h: recovery of lost flow events).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include <linux/r2c2.h>

#include "r2c2d.h"

/* a DIGEST or RESYNC heard (digest.h); our own echoes are not */
static void on_digest_event(struct r2c2d *d, const struct mx_evt *e)
{
	enum dg_verdict v;

	if (!d->conf.digest_ms || e->src == d->node.addr)
		return;
	if (e->type == R2C2_FE_RESYNC) {
		if (e->dst == d->node.addr)
			dg_asked(&d->dg);
		return;
	}
	v = dg_heard(&d->dg, &d->mx, e->src, e->id, e->demand_kbps,
		     e->weight, r2c2d_now());
	/* the ones that matter: a periodic match would be 4 lines a second */
	if (d->verbose && (v != DG_MATCH || e->weight & R2C2_DIGEST_F_ANSWER))
		fprintf(stderr, "r2c2d: digest of %u: %08x, %u flows%s: %s\n",
			e->src, e->id, e->demand_kbps,
			e->weight & R2C2_DIGEST_F_ANSWER ? " (answer)" : "",
			v == DG_MATCH ? "match" : v == DG_ASK ? "ask" : "differs");
	if (v == DG_ASK)
		send_resync(d, e->src);
}

/*
 * An event of this node's own flows that r2c2.ko multicast back to us
 * (every FLOW_EVENT sent is heard locally as the rack hears it): what
 * this daemon announced (UPDATE, REFRESH), no newer than the matrix,
 * which the qdisc's dumps keep; applied, a REFRESH sent before a demand
 * changed put the old demand back. The qdisc's own START of a flow the
 * matrix does not hold yet and its FINISH are news (sch_r2c2 announces
 * them; the next dump would say the same, later): taken. A START of a
 * flow held already only repeats what a dump said.
 */
static bool own_echo(const struct r2c2d *d, const struct mx_evt *e)
{
	if (e->src != d->node.addr || e->type == R2C2_FE_FINISH)
		return false;
	return e->type != R2C2_FE_START ||
	       mx_find(&d->mx, e->src, e->id) != MX_NONE;
}

void on_event(void *arg, const struct mx_evt *e)
{
	struct r2c2d *d = arg;
	int r;

	if (e->type == R2C2_FE_DIGEST || e->type == R2C2_FE_RESYNC) {
		on_digest_event(d, e);
		return;
	}
	/* our own flows are kept from the qdisc's dumps, not from echoes */
	if (own_echo(d, e)) {
		d->t.own_echoes++;
		return;
	}
	r = mx_apply(&d->mx, e, r2c2d_now());
	if (d->verbose)
		fprintf(stderr, "r2c2d: event %u src %u flow %08x dst %u w %u p %u demand %u: %d\n",
			e->type, e->src, e->id, e->dst, e->weight, e->prio,
			e->demand_kbps, r);
}

/* ---- digests: recovery of lost flow events (digest.h) ---- */

void send_resync(struct r2c2d *d, uint16_t src)
{
	struct mx_evt e = {
		.type = R2C2_FE_RESYNC, .src = d->node.addr, .dst = src,
		.weight = 1,
	};

	e.id = mx_digest(&d->mx, src, &e.demand_kbps);
	if (d->verbose)
		fprintf(stderr, "r2c2d: asking %u for its flows\n", src);
	if (dnl_flow_event(&d->nl, &e))
		d->dg.st.asked--;	/* not sent: asked again later */
}

static void send_digest(struct r2c2d *d, uint8_t flags)
{
	struct mx_evt e = {
		.type = R2C2_FE_DIGEST, .src = d->node.addr,
		.dst = d->node.addr, .weight = flags,
	};

	e.id = mx_digest(&d->mx, d->node.addr, &e.demand_kbps);
	if (dnl_flow_event(&d->nl, &e) == 0)
		d->dg.st.sent++;
}

/*
 * Every digest_ms while this node has flows of its own, and for
 * expire_ms after its last one left (until then the rack may still hold
 * one whose FINISH was lost); an answer to a RESYNC as soon as allowed:
 * every own flow again, then the digest that marks the end of them.
 */
void digest_step(struct r2c2d *d, uint64_t now)
{
	if (!d->conf.digest_ms)
		return;
	if (d->mx.own)
		d->last_own_ns = now;
	if (d->dg.answer_due && now >= dg_answer_at(&d->dg)) {
		d->dg.answer_due = false;
		d->dg.answered_ns = now;
		d->dg.st.answered++;
		refresh_own(d);
		send_digest(d, R2C2_DIGEST_F_PERIODIC | R2C2_DIGEST_F_ANSWER);
		d->last_digest_ns = now;
		return;
	}
	if (now - d->last_digest_ns < (uint64_t)d->conf.digest_ms * MS)
		return;
	d->last_digest_ns = now;
	if (d->last_own_ns &&
	    now - d->last_own_ns <= (uint64_t)d->conf.expire_ms * MS)
		send_digest(d, R2C2_DIGEST_F_PERIODIC);
}
