// SPDX-License-Identifier: GPL-2.0
/*
 * own.c - r2c2d's own flows: the qdisc's flows sampled (demand, rate
 * state), announced to the rack (START, REFRESH, with the demand), and
 * the state file that keeps their demands across a restart.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include <linux/r2c2.h>

#include "r2c2d.h"

static void announce(struct r2c2d *d, struct mx_flow *f, uint8_t type)
{
	struct mx_evt e = {
		.type = type, .src = f->src, .id = f->id, .dst = f->dst,
		.weight = f->weight, .prio = f->prio, .rproto = f->rproto,
		.demand_kbps = f->demand_kbps,
	};

	if (dnl_flow_event(&d->nl, &e) == 0) {
		if (type == R2C2_FE_REFRESH)
			d->t.refreshes_sent++;
		else
			d->t.announces++;
	}
}

/*
 * An UPDATE of an own flow, sent once the qdisc dump is over
 * (announce_pending()): on_qflow() runs inside the dump, and a request
 * sent there would share the command socket with the dump's replies. If
 * the list cannot grow, the flow's next REFRESH carries the change.
 */
static void announce_later(struct r2c2d *d, const struct mx_flow *f)
{
	uint32_t *a;

	if (d->ann_n == d->ann_cap) {
		size_t cap = d->ann_cap ? 2 * d->ann_cap : 64;

		a = realloc(d->ann_ids, cap * sizeof(*a));
		if (!a)
			return;
		d->ann_ids = a;
		d->ann_cap = cap;
	}
	d->ann_ids[d->ann_n++] = f->id;
}

static void announce_pending(struct r2c2d *d)
{
	size_t i;
	uint32_t k;

	for (i = 0; i < d->ann_n; i++) {
		k = mx_find(&d->mx, d->node.addr, d->ann_ids[i]);
		if (k != MX_NONE)
			announce(d, &d->mx.f[k], R2C2_FE_UPDATE);
	}
	d->ann_n = 0;
}

void on_qflow(void *arg, const struct dnl_qflow *q)
{
	struct sample_ctx *c = arg;
	struct r2c2d *d = c->d;
	struct mx_flow *f;
	bool update = false;
	uint32_t i, k;

	if (q->dst == R2C2_ADDR_NONE || q->dst == d->node.addr)
		return;
	/*
	 * Not announced yet (the qdisc's announce_after/announce_bytes): the
	 * rack has not heard of it and it sends at the initial rate within
	 * the headroom. Taking it into the matrix would give it a share no
	 * other node accounts for and refresh it rack-wide; its START comes.
	 */
	if (q->state == R2C2_RS_PENDING)
		return;
	i = mx_find(&d->mx, d->node.addr, q->id);
	if (i == MX_NONE) {
		struct mx_evt e = {
			.type = R2C2_FE_START, .src = d->node.addr, .id = q->id,
			.dst = q->dst, .weight = q->weight, .prio = q->prio,
			.rproto = d->node.rproto,
			.demand_kbps = R2C2_DEMAND_UNLIMITED,
		};

		/* a flow of the qdisc a previous daemon estimated (state.h) */
		if (d->st_n) {
			e.demand_kbps = st_demand(d->st, d->st_n, q->id, q->dst);
			if (e.demand_kbps != R2C2_DEMAND_UNLIMITED)
				d->t.state_restored++;
		}
		if (mx_apply(&d->mx, &e, c->now) != 1)
			return;
		i = mx_find(&d->mx, d->node.addr, q->id);
	}
	f = &d->mx.f[i];
	f->mark = true;
	f->refresh_ns = c->now;
	if (f->weight != q->weight || f->prio != q->prio) {
		/* the qdisc's class is the truth for our own flows */
		mx_term_out(&d->mx, f);
		f->weight = q->weight;
		f->prio = q->prio;
		mx_term_in(&d->mx, f);
		f->changed_ns = c->now;
		d->mx.gen++;
		update = true;
	}
	if (q->state != R2C2_RS_SET)
		f->pushed = 0;	/* lease ran out or never set: push again */
	/*
	 * While warming up, and until the flow has a rate, there is no
	 * allocation to judge its demand against (the estimator would call
	 * it unlimited): windows are measured, demands kept, the saved ones
	 * among them. A first round can come after the warm-up (a guest
	 * whose clock counts instructions).
	 */
	if (d->conf.demand_interval_ms &&
	    rc_demand_sample(&f->dem, q->bytes, q->backlog, c->now,
			     &d->dem) &&
	    c->now >= d->warm_until_ns && f->rate > 0 &&
	    c->now - f->born_ns >= (uint64_t)d->conf.announce_delay_ms * MS)
		k = rc_demand_announce(&f->dem, f->rate, f->demand_kbps,
				       &d->dem);
	else
		k = f->demand_kbps;
	if (k != f->demand_kbps) {
		if (d->verbose)
			fprintf(stderr, "r2c2d: flow %08x sent %.0f bit/s (min backlog %u B, est %.0f) of %.0f: demand %s%u kbit/s\n",
				f->id, f->dem.rate, f->dem.wqmin, f->dem.est,
				f->rate, k == R2C2_DEMAND_UNLIMITED ?
				"unlimited " : "", k);
		mx_term_out(&d->mx, f);
		f->demand_kbps = k;
		mx_term_in(&d->mx, f);
		f->changed_ns = c->now;
		d->mx.gen++;
		d->st_dirty = true;
		update = true;
	}
	/* one UPDATE carries both changes */
	if (update)
		announce_later(d, f);
}

/*
 * state_file: the own flows' demands, written when one changed or an own
 * flow left, at most every STATE_SAVE_MS: a daemon killed within that
 * time of a change restarts from the demand before it.
 */
#define STATE_SAVE_MS	100

void state_save(struct r2c2d *d, uint64_t now)
{
	int r;

	if (!d->conf.state_file[0] || !d->st_dirty ||
	    now - d->st_saved_ns < STATE_SAVE_MS * MS)
		return;
	d->st_dirty = false;
	d->st_saved_ns = now;
	r = st_save(d->conf.state_file, d->node.addr, &d->mx);
	if (!r) {
		d->t.state_saves++;
		return;
	}
	/* once a run of errors, not every 100 ms */
	if (!d->t.state_errors++ || d->verbose)
		fprintf(stderr, "r2c2d: state_file %s: %s\n",
			d->conf.state_file, strerror(-r));
}

void sample_own(struct r2c2d *d, uint64_t now)
{
	struct sample_ctx c = { d, now };
	uint64_t t0 = r2c2d_now();

	mx_resync_begin(&d->mx, d->node.addr);
	if (dnl_qflow_dump(&d->nl, on_qflow, &c) == 0) {
		/* an own flow gone: not in the file any longer */
		if (mx_resync_end(&d->mx, d->node.addr))
			d->st_dirty = true;
		/* the qdisc's flows are in: the saved demands served */
		free(d->st);
		d->st = NULL;
		d->st_n = 0;
	}
	announce_pending(d);
	state_save(d, now);
	d->t.samples++;
	d->t.sample_ns_last = r2c2d_now() - t0;
}

void refresh_own(struct r2c2d *d)
{
	uint32_t i;

	for (i = 0; i < d->mx.own; i++)
		if (d->mx.f[d->mx.own_ix[i]].src == d->node.addr)
			announce(d, &d->mx.f[d->mx.own_ix[i]], R2C2_FE_REFRESH);
}
