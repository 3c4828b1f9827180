// SPDX-License-Identifier: GPL-2.0
/*
 * rates.c - r2c2d's rate rounds: the matrix snapshot (round_prepare()),
 * the solve in the loop or the worker (round.c), the rates applied and
 * pushed to sch_r2c2 in batches (push()), the graph cache kept bounded.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include <linux/r2c2.h>

#include "r2c2d.h"

/*
 * bytes of a graph's cache of pair weights (a torus's: its WLB pairs); the
 * last count while a route search prepares pairs in it
 */
size_t r2c2d_cache_bytes(struct r2c2d *d)
{
	size_t b = 0;
	unsigned int p;

	if (rs_tables_busy(&d->rs))
		return d->ts.cache_bytes;
	/* a torus caches its WLB pairs only */
	for (p = 0; p < __R2C2_RP_MAX; p++)
		if (d->topo->kind != R2C2_TOPO_TORUS || p == R2C2_RP_WLB)
			b += r2c2_rtab_memory(d->rt, (u8)p);
	return d->ts.cache_bytes = b;
}

/*
 * A graph's tables cache the weights of every pair met so far, and flows
 * come and go: past table_cache_mb, and past twice what the flows needed
 * after the last clear (a working set above the limit is not cleared
 * every round, and a clear's cost, its pairs computed again, is paid at
 * most once per as many new pairs), the cache is cleared before a round,
 * which prepares its flows' pairs again. Not while a route search reads
 * the tables.
 */
void cache_trim(struct r2c2d *d)
{
	size_t b = r2c2d_cache_bytes(d), lim = (size_t)d->conf.table_cache_mb << 20;

	if (!d->conf.table_cache_mb || b <= lim || b <= 2 * d->ts.cache_need ||
	    rs_busy(&d->rs) || tb_carrying(&d->tb))
		return;
	d->ts.cache_freed += r2c2_rtab_clear(d->rt);
	mx_unseen_all(&d->mx);
	d->ts.cache_clears++;
	d->ts.cache_measure = true;
}

/* unseen flows a snapshot checks against the tables (about 0.2 ms) */
#define UNSEEN_STEP	2048

/*
 * The matrix's unseen flows (mx.unseen_ix) checked against the tables
 * for a snapshot that copies the matrix's view: a flow whose pair's
 * weights are in the tables is seen (on a torus, every flow but a WLB
 * one whose offset was never prepared: sym_wlb() of rtab.c); one whose
 * pair is new goes to the solve's list to prepare (d->rd.todo, places
 * in the view) and stays unseen until a round finds it prepared; one
 * with no path goes there failed (the solve takes it out, its rate is
 * 0) and stays unseen. At most UNSEEN_STEP are checked a round (after a
 * link change every flow is unseen, and a check is a lookup): the
 * others go to the solve's list unchecked, where a prepared pair costs
 * the worker one lookup and a pair with no path fails. Returns 0, or
 * -EAGAIN while a route search reads the tables, or a new graph's tables
 * copy from them (tb_carrying()), and a new pair's weights are wanted.
 */
static int snapshot_unseen(struct r2c2d *d)
{
	const struct r2c2_topo *t = d->topo;
	struct rd *rd = &d->rd;
	struct mx *m = &d->mx;
	uint32_t k, rest = m->unseen > UNSEEN_STEP ? m->unseen - UNSEEN_STEP : 0;
	size_t failed = 0;

	if (t->kind == R2C2_TOPO_TORUS) {
		/* every pair's weights, but WLB's as pairs want them */
		for (k = m->unseen; k--;) {
			uint32_t i = m->unseen_ix[k];
			const struct mx_flow *f = &m->f[i];

			if (f->rproto == R2C2_RP_WLB &&
			    !r2c2_rtab_prepared(d->rt, f->src, f->dst, f->rproto))
				rd->todo[rd->ntodo++] = i;
			else
				mx_seen(m, k);
		}
	} else {
		for (k = m->unseen; k-- > rest;) {
			uint32_t i = m->unseen_ix[k];
			const struct mx_flow *f = &m->f[i];

			if (!r2c2_topo_reaches(t, f->src, f->dst)) {
				rd->todo[rd->ntodo++] = i | TODO_FAILED;
				failed++;
			} else if (!r2c2_rtab_prepared(d->rt, f->src, f->dst,
						       f->rproto)) {
				rd->todo[rd->ntodo++] = i;
			} else {
				mx_seen(m, k);
			}
		}
		if (rest) {
			memcpy(rd->todo + rd->ntodo, m->unseen_ix,
			       rest * sizeof(*rd->todo));
			rd->ntodo += rest;
		}
	}
	if (!rd->ntodo)
		return 0;
	if (rd->ntodo > failed && (rs_running(&d->rs) || tb_carrying(&d->tb))) {
		rd->ntodo = 0;
		return -EAGAIN;
	}
	rd->prep = d->rt;
	return 0;
}

/*
 * The matrix's view and ids into the snapshot: the chunks changed since
 * the snapshot's arrays last held them (rd.vc), all of them the first
 * time; its places are the matrix's (idx[i] == i). At most max chunks a
 * call (0: no bound): a copy of more is a pass over several calls
 * (mx_copy_step(); false: not over yet).
 */
static bool snapshot_copy(struct r2c2d *d, size_t max)
{
	struct rd *rd = &d->rd;
	size_t n = d->mx.n, i;

	if (!mx_copy_step(&d->mx, &rd->vc, rd->f, rd->id, NULL, max,
			  &d->t.view_chunks)) {
		d->t.view_copy_steps++;
		return false;
	}
	if (!rd->vc.base)
		rd->vn = 0;
	for (i = rd->vn; i < n; i++)
		rd->idx[i] = (uint32_t)i;
	rd->vn = n > rd->vn ? n : rd->vn;
	return true;
}

/*
 * A round's first step, in the loop: the matrix's flows into the snapshot
 * d->rd, their pairs prepared in the tables. Not while a solve runs in
 * the worker (it reads the tables and the snapshot). step: copy at most
 * rd.copy_step chunks of the view in this call. Returns 0, -ENOMEM, or
 * -EAGAIN while a route search prepares a graph's tables, or reads them
 * and a new pair's weights are wanted, or a new graph's tables copy from
 * them and one is wanted (tb_carrying(); either end wakes the loop, and
 * the round is taken again), or while a stepped copy is not over (the
 * round is taken again rho later).
 */
int round_prepare(struct r2c2d *d, bool step)
{
	const struct r2c2_topo *t = d->topo;
	struct rd *rd = &d->rd;
	size_t n = 0;
	uint32_t i;

	/* a route search writes a graph's tables: not even read them */
	if (t->kind != R2C2_TOPO_TORUS && rs_tables_busy(&d->rs))
		return -EAGAIN;
	if (rd_reserve(rd, d->mx.n))
		return -ENOMEM;
	cache_trim(d);
	d->t.skipped_flows = 0;
	/*
	 * With no flow to leave out as it is (mx.view_skip), the snapshot
	 * is the matrix's own view, copied whole: no walk over the flows
	 * in the loop. A torus has every pair's weights and a path; on a
	 * graph only the flows new or changed since the tables were last
	 * checked (mx.unseen_ix) are.
	 */
	if (d->mx.view_nodes == t->n && !d->mx.view_skip) {
		int r;

		if (!snapshot_copy(d, step ? rd->copy_step : 0))
			return -EAGAIN;
		r = snapshot_unseen(d);
		if (r)
			return r;
		n = d->mx.n;
		for (i = 0; i < d->mx.own; i++)
			rd->own[i] = d->mx.own_ix[i];
		rd->nown = d->mx.own;
		d->t.view_snapshots++;
		goto done;
	}
	rd->vc.stamp = 0;	/* the walk writes f, idx and id its way */
	mx_copy_stop(&rd->vc);	/* and ends a stepped copy */
	for (i = 0; i < d->mx.n; i++) {
		struct mx_flow *f = &d->mx.f[i];

		/*
		 * A demand of 0 kbit/s wants nothing (the wire's unlimited is
		 * R2C2_DEMAND_UNLIMITED; to the allocator 0 is unlimited): no
		 * share, and the lowest rate, as a flow left nothing below
		 */
		if (!f->demand_kbps) {
			f->rate = (double)R2C2_RATE_MIN;
			continue;
		}
		/*
		 * Outside the graph, or no path (a node gone, a partition):
		 * the kernel cannot route it either; no rate until it can
		 */
		if (!mx_alloc_flow(f, t->n, &rd->f[n]) ||
		    !r2c2_topo_reaches(t, f->src, f->dst)) {
			f->rate = 0;
			d->t.skipped_flows++;
			continue;
		}
		/*
		 * A graph's tables hold the link weights of the pairs met so
		 * far (a torus has all but WLB's, and is asked only for
		 * those: the question costs a third of the snapshot): a new
		 * pair's are computed by the
		 * solve, in the worker when it runs there (rd_solve()), but
		 * not while a route search reads the tables.
		 */
		if ((t->kind != R2C2_TOPO_TORUS || f->rproto == R2C2_RP_WLB) &&
		    !r2c2_rtab_prepared(d->rt, f->src, f->dst, f->rproto)) {
			if (rs_running(&d->rs) || tb_carrying(&d->tb))
				return -EAGAIN;
			rd->todo[rd->ntodo++] = (uint32_t)n;
			rd->prep = d->rt;
		}
		if ((int)f->src == d->mx.own_src)
			rd->own[rd->nown++] = (uint32_t)n;
		rd->idx[n] = i;
		rd->id[n++] = f->id;
	}
done:
	rd->n = n;
	rd->gen = d->mx.gen;
	rd->rt = d->rt;
	rd->ws = d->ws;
	rd->pf = d->conf.policy == R2C2_POL_PROPFAIR ? d->pf : NULL;
	rd->headroom = d->conf.headroom;
	return 0;
}

/*
 * A round's last step, in the loop: the solve's rates into the matrix
 * (a flow left nothing, below an unlimited flow of higher priority, is
 * pushed the lowest rate: not pushing it would leave it at the qdisc's
 * initial rate). prep_ns: how long round_prepare() took; the round's
 * time is that, the solve's and this step's. Returns the allocator's 0
 * or errno.
 */
int round_apply(struct r2c2d *d, uint64_t prep_ns)
{
	uint64_t t0 = r2c2d_now(), dt;
	size_t i;

	if (d->rd.ret) {
		d->t.alloc_errors++;
		return d->rd.ret;
	}
	/* the pairs the solve prepared: what the flows need of the cache */
	if (d->ts.cache_measure) {
		d->ts.cache_need = r2c2d_cache_bytes(d);
		d->ts.cache_measure = false;
	}
	/* flows whose pair the solve could not prepare: no path, no rate */
	for (i = 0; i < d->rd.nfail; i++) {
		const struct rd_fail *x = &d->rd.fail[i];
		uint32_t k = mx_find_at(&d->mx, x->idx, x->src, x->id);

		if (k != MX_NONE)
			d->mx.f[k].rate = 0;
	}
	d->t.skipped_flows += d->rd.nfail;
	/*
	 * This node's flows take their rates now (they are pushed); the
	 * others' are applied when read (r2c2d_rates_sync()), so that a
	 * round costs the loop O(own flows) here
	 */
	rd_apply_own(&d->rd, &d->mx);
	d->t.round_flows_last = d->rd.n;
	rd_keep(&d->rd);
	d->t.applied_gen = d->rd.gen;
	dt = prep_ns + d->rd.ns + (r2c2d_now() - t0);
	d->t.rounds++;
	d->t.compute_ns_last = dt;
	d->t.compute_ns_sum += dt;
	if (dt > d->t.compute_ns_max)
		d->t.compute_ns_max = dt;
	return 0;
}

/* a whole round in the loop's thread */
int compute(struct r2c2d *d)
{
	uint64_t t0 = r2c2d_now();
	int r = round_prepare(d, false);

	if (r)
		return r;
	t0 = r2c2d_now() - t0;
	rd_solve(&d->rd);
	return round_apply(d, t0);
}

/*
 * Whether a due round's solve goes to the worker: when the last round,
 * scaled by the flows the matrix holds now, took at least
 * round_worker_us (0: every round; its largest value, never). A first
 * round has nothing to go by and goes to the worker too: it may be of
 * 10^5 flows, or a proportional-fair solve from cold prices, which takes
 * seconds.
 */
bool round_off_loop(const struct r2c2d *d)
{
	uint64_t lim = (uint64_t)d->conf.round_worker_us * 1000, last;

	if (!lim)
		return true;
	if (d->conf.round_worker_us >= ROUND_WORKER_NEVER)
		return false;
	if (!d->t.round_flows_last)
		return true;
	last = d->t.compute_ns_last;
	return (double)last * d->mx.n / d->t.round_flows_last >= (double)lim;
}

/**
 * round_due() - whether the loop owes a rate round
 * @d: the daemon
 *
 * A round is owed when the matrix changed since the last one and this node
 * has flows of its own in it: the rates are computed for the senders, and
 * a node with no flow of its own has nothing to enforce. Its matrix still
 * follows every event; r2c2d_rates_fresh() computes the other flows' rates
 * when a control client asks for them, and the first flow of its own
 * makes a round due at once (the matrix changed).
 *
 * With the key rounds = always (for measurements) every change is
 * computed, as on a node that sends.
 *
 * Return: true if tick() should run a round (at most one per rho).
 */
bool round_due(const struct r2c2d *d)
{
	return d->mx.gen != d->computed_gen &&
	       (d->mx.own || d->conf.rounds_always);
}

/**
 * r2c2d_rates_fresh() - bring the rates up to date for a reader
 * @d: the daemon
 *
 * For a control client about to print the matrix: when this node has no
 * flow of its own, rounds are not run (round_due()) and the rates may be
 * older than the matrix; compute them now. With flows of its own the loop
 * runs the round within rho and pushes its result, so nothing is done here
 * (computing here would leave those rates unpushed).
 *
 * Return: 0, or the allocator's error (the rates are then those of the
 * last round); -EAGAIN while a route search reads the tables.
 */
int r2c2d_rates_fresh(struct r2c2d *d)
{
	int r;

	if (d->mx.gen == d->computed_gen || round_due(d))
		return 0;
	if (rs_busy(&d->rs) || rd_busy(&d->rd))
		return -EAGAIN;
	d->computed_gen = d->mx.gen;
	d->last_round_ns = r2c2d_now();
	r = compute(d);
	if (r)
		d->computed_gen--;
	else
		d->t.rounds_on_demand++;
	return r;
}

/**
 * r2c2d_rates_sync() - every flow's rate of the last round, into the matrix
 * @d: the daemon
 *
 * A round applies only this node's rates (round_apply()); what reads the
 * other flows' rates (a control client's matrix) calls this first.
 */
void r2c2d_rates_sync(struct r2c2d *d)
{
	rd_apply_done(&d->rd, &d->mx);
}

int flush_rates(const uint32_t *id, const uint64_t *rate, size_t n,
		void *arg)
{
	struct r2c2d *d = arg;
	int r = dnl_rate_set(&d->nl, id, rate, n);

	if (r) {
		d->t.push_errors++;
		if (d->verbose)
			fprintf(stderr, "r2c2d: RATE_SET of %zu rates: %s\n",
				n, dnl_strerror(r));
	}
	return r;
}

/* now is taken after the round: when the rates go out */
void push(struct r2c2d *d)
{
	uint64_t refresh = (uint64_t)d->conf.lease_refresh_ms * MS;
	uint64_t b0 = d->batch.batches, e0 = d->batch.entries;
	uint64_t now = r2c2d_now();
	uint32_t i;

	for (i = 0; i < d->mx.own; i++) {
		struct mx_flow *f = &d->mx.f[d->mx.own_ix[i]];

		if (f->src != d->node.addr || f->rate <= 0)
			continue;
		if (!rc_should_push(f->rate, f->pushed, f->pushed_ns, now,
				    d->conf.push_threshold, refresh))
			continue;
		rc_batch_add(&d->batch, f->id, f->rate);
		if (f->pushed != f->rate)
			f->moved_ns = now;
		f->pushed = f->rate;
		f->pushed_ns = now;
		if (d->verbose)
			fprintf(stderr, "r2c2d: push flow %08x %.0f bit/s\n",
				f->id, f->rate);
	}
	rc_batch_flush(&d->batch);
	d->t.push_batches += d->batch.batches - b0;
	d->t.pushes += d->batch.entries - e0;
}
