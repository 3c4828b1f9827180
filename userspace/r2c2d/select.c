// SPDX-License-Identifier: GPL-2.0
/*
 * select.c - r2c2d's route selection glue (the search itself is
 * routesel.c's): whose turn, the search started in the worker, its
 * decision applied and sent as ROUTES, ROUTES heard applied.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include <linux/r2c2.h>

#include "r2c2d.h"

void on_routes(void *arg, uint16_t from, const struct rs_ent *e,
	       size_t n)
{
	struct r2c2d *d = arg;

	if (from != d->node.addr) {
		d->rs.heard++;
		d->rs.heard_ns = r2c2d_now();
		d->rs.heard_from = from;
		d->rs.heard_entries = (uint32_t)n;
		d->rs.entries_heard += n;
	}
	d->rs.entries_applied += rs_apply(&d->mx, e, n);
	if (d->verbose)
		fprintf(stderr, "r2c2d: ROUTES from %u, %zu entries\n", from, n);
}

/* one batch: broadcast (r2c2.ko applies our own flows), then our matrix */
static int send_routes(const struct rs_ent *e, size_t n, void *arg)
{
	struct r2c2d *d = arg;
	int r = dnl_routes_send(&d->nl, e, n);

	if (r) {
		d->rs.send_errors++;
		return r;
	}
	d->rs.batches++;
	d->rs.entries_sent += n;
	rs_apply(&d->mx, e, n);
	return 0;
}

/* the search is over (in the worker or at once): broadcast, record */
static void route_decided(struct r2c2d *d, int r, struct rs_decision *dec)
{
	if (r > 0) {
		r = rs_send_batches(d->rs.ent, d->rs.nent, R2C2_ROUTES_MAX,
				    send_routes, d);
		if (r < 0) {
			dec->err = r;
			dec->adopted = false;
		} else {
			d->rs.adopted++;
		}
	}
	d->rs.last = *dec;
	if (d->verbose)
		fprintf(stderr, "r2c2d: GA %u flows (%u long): %.4g -> %.4g bit/s, %u changed%s, %.1f ms\n",
			dec->flows, dec->long_flows, dec->before, dec->after,
			dec->changed, dec->adopted ? ", sent" : "",
			(double)dec->duration_ns / 1e6);
}

/*
 * collect a finished worker; wait: however long it takes (exit). A step
 * of its table work over with pairs left (-EINPROGRESS): the search is
 * paused, and route_resume() goes on with it.
 */
void route_collect(struct r2c2d *d, bool wait)
{
	struct rs_decision dec;
	int r = rs_finish(&d->rs, wait, &dec);

	if (r == -EAGAIN || r == -ECHILD || r == -EINPROGRESS)
		return;
	route_decided(d, r, &dec);
}

/*
 * A step of a route search's table work: as long as the last round's
 * solve took, 2 ms at least (RS_PAIRS_STEP_NS). Rounds and steps taking
 * turns, the search gets about half the time the tables are worked on,
 * and a round waits about one more round's time: at 10^5 flows on a
 * graph a solve takes 100-150 ms, and 2-ms steps, a round between two,
 * would stretch a search of 0.8 s to a minute.
 */
static uint64_t pairs_step(const struct r2c2d *d)
{
	return d->rd.ns > RS_PAIRS_STEP_NS ? d->rd.ns : RS_PAIRS_STEP_NS;
}

/*
 * A paused route search's next step of table work, in the worker. Not
 * while a round's worker runs (its solve prepares pairs in the same
 * tables) or new tables copy from them. A search whose worker cannot
 * start is given up (its error recorded as a decision's).
 */
void route_resume(struct r2c2d *d)
{
	struct rs_decision dec;
	int r;

	if (!rs_paused(&d->rs) || rd_busy(&d->rd) || tb_carrying(&d->tb))
		return;
	d->rs.pairs_step_ns = pairs_step(d);
	r = rs_resume(&d->rs);
	if (!r)
		return;
	rs_drop(&d->rs);
	dec = d->rs.dec;
	dec.err = r;
	route_decided(d, r, &dec);
}

/* the search's parameters from the configuration (the ga_* keys) */
struct rs_params route_params(const struct r2c2d *d)
{
	struct rs_params p = {
		.long_ns = (uint64_t)d->conf.ga_long_ms * MS,
		.margin = d->conf.ga_margin,
		.budget_ms = d->conf.ga_budget_ms,
		.threads = d->conf.ga_threads,
		.utility = d->conf.ga_utility,
		.policy = d->conf.policy,
		.headroom = d->conf.headroom,
		.protos = d->conf.ga_protos,
	};

	return p;
}

/*
 * This node's turn: snapshot the matrix here; prepare the tables for its
 * flows and search in a worker thread (neither the table work, 171 ms for
 * 10^4 flows on a graph's new tables in loop_bench -g -x, nor the
 * budget, ga_budget_ms, is spent in the loop), and broadcast the result when the worker is done
 * (route_collect()).
 */
void route_select(struct r2c2d *d, uint64_t now)
{
	uint64_t iv = (uint64_t)d->conf.ga_interval_ms * MS, wall;
	struct rs_params p = route_params(d);
	struct rs_decision dec;
	struct timespec ts;
	int r;

	/*
	 * the search prepares pairs in the tables, which a round reads and
	 * a new graph's tables copy from (tb_carrying())
	 */
	if (rs_busy(&d->rs) || rd_busy(&d->rd) || tb_carrying(&d->tb))
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	wall = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	/* a snapshot's copy under way goes on, its turn taken already */
	if (!rs_copying(&d->rs)) {
		if (!rs_my_turn(&d->rs, wall, now, iv, d->topo->n,
				d->node.addr))
			return;
		d->rs.runs++;
	}
	p.seed = wall / iv + 1;
	r = rs_prepare(&d->rs, &d->mx, d->topo->n, now, &p);
	if (r == -EAGAIN)
		return;		/* at most MX_COPY_STEP chunks a try */
	d->rs.dec.wall_ns = wall;
	d->rs.pairs_step_ns = pairs_step(d);
	if (r > 0 && rs_start(&d->rs, d->rt) == 0)
		return;
	if (r > 0) {	/* no thread: the tables and the search here, whole */
		d->rs.pairs_step_ns = 0;
		r = rs_work(&d->rs, d->rt);
	}
	dec = d->rs.dec;
	route_decided(d, r, &dec);
}
