// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - r2c2d, the R2C2 control-plane daemon.
 *
 * Keeps the rack's traffic matrix from the flow events r2c2.ko hears
 * (soft state: refreshed by periodic re-announcements, expired when not),
 * and every rho, when the matrix changed, recomputes every flow's rate
 * with libr2c2 and pushes those of this node's own flows that changed
 * into sch_r2c2, in batches. Documentation/r2c2d.md explains it;
 * Documentation/r2c2d.8 lists the options and configuration keys.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/timerfd.h>
#include <linux/types.h>
#include <linux/r2c2.h>

#include "r2c2d.h"

static volatile sig_atomic_t stop, hup;

static void on_signal(int sig)
{
	if (sig == SIGHUP)
		hup = 1;
	else
		stop = 1;
}

/*
 * SIGINT, SIGTERM: stop; SIGHUP: reload (the loop, reload()); SIGPIPE
 * ignored (a control client gone). No SA_RESTART: poll() returns EINTR
 * and the loop sees the flag at once.
 */
static int signals_init(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_signal;
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL) ||
	    sigaction(SIGHUP, &sa, NULL))
		return -errno;
	sa.sa_handler = SIG_IGN;
	if (sigaction(SIGPIPE, &sa, NULL))
		return -errno;
	return 0;
}

uint64_t r2c2d_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* CPU time of the calling thread, ns (what the CPU budget is charged) */
static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void usage(FILE *f)
{
	fputs("Usage: r2c2d [ -c FILE ] [ -o KEY=VALUE ]... [ -v ] [ -n ]\n"
	      "  -c FILE       configuration file (key = value lines)\n"
	      "  -o KEY=VALUE  set one key, after the file\n"
	      "  -n            check the configuration and exit\n"
	      "  -v            log flow events and pushes to stderr\n"
	      "See r2c2d(8) for the keys.\n", f);
}

/* ---- events ---- */

static void send_resync(struct r2c2d *d, uint16_t src);

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

static void on_event(void *arg, const struct mx_evt *e)
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

static void send_resync(struct r2c2d *d, uint16_t src)
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
static void digest_step(struct r2c2d *d, uint64_t now)
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

/* ---- rates ---- */

/* bytes of a graph's cache of pair weights (0 on a torus: no cache) */
size_t r2c2d_cache_bytes(const struct r2c2d *d)
{
	size_t b = 0;
	unsigned int p;

	if (d->topo->kind == R2C2_TOPO_TORUS)
		return 0;
	for (p = 0; p < __R2C2_RP_MAX; p++)
		b += r2c2_rtab_memory(d->rt, (u8)p);
	return b;
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
static void cache_trim(struct r2c2d *d)
{
	size_t b = r2c2d_cache_bytes(d), lim = (size_t)d->conf.table_cache_mb << 20;

	if (!d->conf.table_cache_mb || b <= lim || b <= 2 * d->ts.cache_need ||
	    rs_busy(&d->rs))
		return;
	d->ts.cache_freed += r2c2_rtab_clear(d->rt);
	d->ts.cache_clears++;
	d->ts.cache_measure = true;
}

/*
 * A round's first step, in the loop: the matrix's flows into the snapshot
 * d->rd, their pairs prepared in the tables. Not while a solve runs in
 * the worker (it reads the tables and the snapshot). Returns 0, -ENOMEM,
 * or -EAGAIN while a route search reads the tables and a new pair's
 * weights are wanted (its end wakes the loop, and the round is taken
 * again).
 */
static int round_prepare(struct r2c2d *d)
{
	const struct r2c2_topo *t = d->topo;
	struct rd *rd = &d->rd;
	size_t n = 0;
	uint32_t i;

	if (rd_reserve(rd, d->mx.n))
		return -ENOMEM;
	cache_trim(d);
	d->t.skipped_flows = 0;
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
		    t->paths.dist[(size_t)f->dst * t->n + f->src] ==
		    R2C2_DIST_INF) {
			f->rate = 0;
			d->t.skipped_flows++;
			continue;
		}
		/*
		 * A graph's tables hold the link weights of the pairs met so
		 * far (a torus has all, and is not asked: the question costs
		 * a third of the snapshot): a new pair's are computed here,
		 * but not while a route search reads the tables.
		 */
		if (t->kind != R2C2_TOPO_TORUS &&
		    !r2c2_rtab_prepared(d->rt, f->src, f->dst, f->rproto)) {
			if (rs_busy(&d->rs))
				return -EAGAIN;
			if (r2c2_rtab_prepare(d->rt, f->src, f->dst,
					      f->rproto)) {
				f->rate = 0;
				d->t.skipped_flows++;
				continue;
			}
		}
		rd->idx[n] = i;
		rd->id[n++] = f->id;
	}
	rd->n = n;
	if (d->ts.cache_measure) {
		d->ts.cache_need = r2c2d_cache_bytes(d);
		d->ts.cache_measure = false;
	}
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
static int round_apply(struct r2c2d *d, uint64_t prep_ns)
{
	uint64_t t0 = r2c2d_now(), dt;

	if (d->rd.ret) {
		d->t.alloc_errors++;
		return d->rd.ret;
	}
	rd_apply_to(&d->rd, &d->mx);
	d->t.applied_gen = d->rd.gen;
	dt = prep_ns + d->rd.ns + (r2c2d_now() - t0);
	d->t.rounds++;
	d->t.round_flows_last = d->rd.n;
	d->t.compute_ns_last = dt;
	d->t.compute_ns_sum += dt;
	if (dt > d->t.compute_ns_max)
		d->t.compute_ns_max = dt;
	return 0;
}

/* a whole round in the loop's thread */
static int compute(struct r2c2d *d)
{
	uint64_t t0 = r2c2d_now();
	int r = round_prepare(d);

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
static bool round_off_loop(const struct r2c2d *d)
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
static bool round_due(const struct r2c2d *d)
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

static int flush_rates(const uint32_t *id, const uint64_t *rate, size_t n,
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
static void push(struct r2c2d *d)
{
	uint64_t refresh = (uint64_t)d->conf.lease_refresh_ms * MS;
	uint64_t b0 = d->batch.batches, e0 = d->batch.entries;
	uint64_t now = r2c2d_now();
	uint32_t i;

	for (i = 0; i < d->mx.n; i++) {
		struct mx_flow *f = &d->mx.f[i];

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

/* ---- route selection (routesel.c) ---- */

static void on_routes(void *arg, uint16_t from, const struct rs_ent *e,
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

/* collect a finished worker; wait: however long it takes (exit) */
static void route_collect(struct r2c2d *d, bool wait)
{
	struct rs_decision dec;
	int r = rs_finish(&d->rs, wait, &dec);

	if (r == -EAGAIN || r == -ECHILD)
		return;
	route_decided(d, r, &dec);
}

/*
 * This node's turn: snapshot the matrix here, search in a worker thread
 * (the budget, ga_budget_ms, is not spent in the loop), and broadcast
 * the result when the worker is done (route_collect()).
 */
/* the search's parameters from the configuration (the ga_* keys) */
static struct rs_params route_params(const struct r2c2d *d)
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

static void route_select(struct r2c2d *d, uint64_t now)
{
	uint64_t iv = (uint64_t)d->conf.ga_interval_ms * MS, wall;
	struct rs_params p = route_params(d);
	struct rs_decision dec;
	struct timespec ts;
	int r;

	/* the search prepares pairs in the tables, which a round reads */
	if (rs_busy(&d->rs) || rd_busy(&d->rd))
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	wall = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	if (!rs_my_turn(&d->rs, wall, now, iv, d->topo->n, d->node.addr))
		return;
	p.seed = wall / iv + 1;
	d->rs.runs++;
	r = rs_prepare(&d->rs, &d->mx, d->rt, d->topo->n, now, &p);
	d->rs.dec.wall_ns = wall;
	if (r > 0 && rs_start(&d->rs, d->rt) == 0)
		return;
	if (r > 0)	/* no thread: search here */
		r = rs_search(&d->rs, d->rt);
	dec = d->rs.dec;
	route_decided(d, r, &dec);
}

/* ---- setup ---- */

static int build_topo(struct r2c2d *d, char *err, size_t errlen)
{
	struct tb_out o;
	int r;

	r = conf_topo(d, err, errlen);
	if (r)
		return r;
	if (!d->ctopo) {
		/* the first tables: waited for, the loop needs them */
		r = topo_sync(d);
		if (r == 1) {
			tb_join(&d->tb, true);
			r = tb_take(&d->tb, &o);
			if (r)
				snprintf(d->ts.last_error,
					 sizeof(d->ts.last_error),
					 "routing tables for a graph of %u addresses: %s",
					 d->tb_nodes, strerror(-r));
		} else if (!r) {
			r = -ENOENT;	/* not reached: there were no tables */
		}
		if (r < 0) {
			snprintf(err, errlen,
				 "no topology: set 'topology' or let discovery finish (%s)",
				 r == -ENOENT ? "the kernel has no tables yet" :
				 d->ts.last_error);
			return r;
		}
		tables_swap(d, &o);
		memcpy(d->reach, d->tb_reach, sizeof(d->reach));
		return 0;
	}
	r = tb_build(d->ctopo, NULL, NULL, 0,
		     d->conf.policy == R2C2_POL_PROPFAIR, &o);
	if (!r)
		tables_swap(d, &o);
	if (r) {
		snprintf(err, errlen, "routing tables: %s", strerror(-r));
		return r;
	}
	/* the first tick compares it with the kernel's graph */
	d->topo_dirty = true;
	return 0;
}

/*
 * r2c2d -n: the configured topology built as the daemon would build it
 * (topology and routing tables), so a bad spec or file is reported now,
 * not at start; the summary goes to out. Without 'topology' the daemon
 * takes the node's torus or the kernel's graph at start: nothing to build.
 */
static int check_topo(struct r2c2d *d, FILE *out, char *err, size_t errlen)
{
	struct r2c2_rtab *rt = NULL;
	int r;

	if (!d->conf.topology[0]) {
		fprintf(out, "configuration ok (topology: the node's declared torus or the kernel's graph, read at start)\n");
		return 0;
	}
	r = conf_topo(d, err, errlen);
	if (r)
		return r;
	r = r2c2_rtab_new(&rt, d->ctopo);
	if (r) {
		snprintf(err, errlen, "topology '%s': routing tables: %s",
			 d->conf.topology, strerror(-r));
	} else {
		fprintf(out, "configuration ok (topology %s: %u nodes, %u links)\n",
			d->conf.topology, d->ctopo->n, d->ctopo->nlinks);
	}
	r2c2_rtab_free(rt);
	r2c2_topo_free(d->ctopo);
	d->ctopo = NULL;
	return r;
}

static void dem_conf(struct r2c2d *d)
{
	d->dem.window_ns = (uint64_t)d->conf.demand_window_ms * MS;
	d->dem.windows = d->conf.demand_windows;
	d->dem.alpha = d->conf.demand_alpha;
	d->dem.low = d->conf.demand_low;
	d->dem.high = d->conf.demand_high;
	d->dem.slack = d->conf.demand_slack;
	d->dem.qempty = d->conf.demand_empty_bytes;
	d->dg.period_ns = (uint64_t)d->conf.digest_ms * MS;
}

static void budget_conf(struct r2c2d *d, uint64_t now)
{
	/*
	 * The bucket holds one second's worth (a burst after a quiet spell),
	 * and rates are never more than a second old
	 */
	rc_budget_init(&d->budget, d->conf.cpu_budget / 100,
		       (uint64_t)(d->conf.cpu_budget / 100 * 1e9), 1000 * MS,
		       now);
}

/* the configuration as main() reads it: defaults, the file, then -o */
static int conf_read(const struct r2c2d *d, struct r2c2d_conf *c, char *err,
		     size_t errlen)
{
	char msg[256];
	int i, r;

	conf_defaults(c);
	if (d->conf_file) {
		r = conf_load(c, d->conf_file, err, errlen);
		if (r)
			return r;
	}
	for (i = 0; i < d->nov; i++) {
		r = conf_set(c, d->ov_key[i], d->ov_val[i], msg, sizeof(msg));
		if (r) {
			snprintf(err, errlen, "-o: %s", msg);
			return r;
		}
	}
	return 0;
}

/*
 * SIGHUP: read the file again (and apply the -o overrides after it) and
 * take the keys that can change while the daemon runs. What the daemon
 * built at start from topology, link_capacity, policy, ifindex and
 * control stays; a change of those is logged and waits for a restart.
 * A file with an error changes nothing. Log lines go to log.
 *
 * Return: 0, or the error of the file (the configuration is unchanged).
 */
static int reload(struct r2c2d *d, FILE *log)
{
	static const struct {
		const char *key;
		size_t off, len;
	} fixed[] = {
#define FIXED(k) { #k, offsetof(struct r2c2d_conf, k), \
		   sizeof(((struct r2c2d_conf *)0)->k) }
		FIXED(topology), FIXED(link_capacity), FIXED(policy),
		FIXED(ifindex), FIXED(control),
#undef FIXED
	};
	struct r2c2d_conf c, given;
	char err[512];
	bool round;
	size_t i;

	if (conf_read(d, &c, err, sizeof(err))) {
		fprintf(log, "r2c2d: SIGHUP: %s; configuration unchanged\n", err);
		return -EINVAL;
	}
	given = c;
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		size_t o = fixed[i].off, n = fixed[i].len;

		if (memcmp((char *)&c + o, (char *)&d->conf0 + o, n))
			fprintf(log, "r2c2d: SIGHUP: %s changed; it takes effect at restart\n",
				fixed[i].key);
		/* the running value ('topology' may hold the node's torus) */
		memcpy((char *)&c + o, (char *)&d->conf + o, n);
		/* and as given at start, to compare the next reload with */
		memcpy((char *)&given + o, (char *)&d->conf0 + o, n);
	}
	d->conf0 = given;
	round = c.headroom != d->conf.headroom ||
		c.rounds_always != d->conf.rounds_always;
	if (c.cpu_budget != d->conf.cpu_budget) {
		d->conf.cpu_budget = c.cpu_budget;
		budget_conf(d, r2c2d_now());
		d->budget_held = false;
	}
	d->conf = c;
	dem_conf(d);
	d->mx.max_flows = c.max_flows;
	d->mx.max_per_src = c.max_flows_per_src;
	if (round)
		d->mx.gen++;	/* rates for the new headroom */
	fprintf(log, "r2c2d: SIGHUP: configuration %s%s reloaded\n",
		d->conf_file ? "file " : "(-o only)",
		d->conf_file ? d->conf_file : "");
	return 0;
}

/*
 * Charge the budget the main thread's CPU time since the last charge:
 * rounds, pushes, events read, samples, control requests; all of it,
 * though only rounds can wait (the route search's thread is not counted;
 * a round solved in the worker is charged its thread's CPU time when it
 * is collected, round_collect())
 */
static void budget_account(struct r2c2d *d)
{
	uint64_t c;

	if (d->budget.share <= 0)
		return;
	c = thread_cpu_ns();
	rc_budget_charge(&d->budget, c - d->budget_cpu_ns);
	d->budget_cpu_ns = c;
}

/**
 * round_budget() - whether the CPU budget lets a due round start now
 * @d: the daemon
 * @now: CLOCK_MONOTONIC ns
 *
 * With cpu_budget set, a round waits while the budget's bucket is empty
 * (struct rc_budget), after the bucket was charged what the loop spent
 * since (budget_account()); rounds_deferred counts the rounds that
 * waited.
 *
 * Return: true if the round may start now.
 */
static bool round_budget(struct r2c2d *d, uint64_t now)
{
	budget_account(d);
	if (rc_budget_next(&d->budget, now) > now) {
		d->budget_held = true;
		return false;
	}
	if (d->budget_held)
		d->t.rounds_deferred++;
	d->budget_held = false;
	rc_budget_started(&d->budget, now);
	return true;
}

/**
 * node_set() - this node is @n from now on (NODE_GET)
 * @d: the daemon
 * @n: the node as the kernel has it (may be &d->node)
 *
 * At setup and when the module came back (family_back()), which may give
 * the node another address. Everything keyed by the address follows it
 * here: d->node; the matrix's own flows (mx_set_own(): what round_due()
 * counts, what expiry keeps); the flows held under the old address, which
 * were this node's and went with the qdisc that sent them (the rack
 * forgets them when they expire); the demands a previous daemon saved
 * for the old address; the state file, written again for the new one.
 * The graph's reach (reach_from()) follows at the next read of the
 * kernel's graph, which family_back() makes due.
 */
static void node_set(struct r2c2d *d, const struct dnl_node *n)
{
	struct dnl_node node = *n;
	int old = d->mx.own_src;
	uint32_t gone;

	d->node = node;
	if (old >= 0 && old != node.addr) {
		/* every flow of the old address: all announced before now */
		gone = mx_drop_stale(&d->mx, (uint16_t)old, UINT64_MAX);
		free(d->st);
		d->st = NULL;
		d->st_n = 0;
		d->st_dirty = true;
		fprintf(stderr, "r2c2d: this node's address is now %u (was %d); the %u flows of %d left the matrix\n",
			node.addr, old, gone, old);
	}
	mx_set_own(&d->mx, node.addr);
}

/*
 * The event socket's buffer as dnl_open() got it (dnl_rcvbuf()): logged
 * at start and when the module is back; less than asked for (no
 * CAP_NET_ADMIN, SO_RCVBUF capped at net.core.rmem_max) says why
 */
static void log_rcvbuf(const struct r2c2d *d)
{
	if (d->nl.ev_rcvbuf_forced || d->nl.ev_rcvbuf >= 2 * DNL_EV_RCVBUF)
		fprintf(stderr, "r2c2d: event socket buffer %d bytes (%s)\n",
			d->nl.ev_rcvbuf, d->nl.ev_rcvbuf_forced ?
			"SO_RCVBUFFORCE" : "SO_RCVBUF");
	else
		fprintf(stderr, "r2c2d: event socket buffer %d bytes, not %d: SO_RCVBUFFORCE refused (no CAP_NET_ADMIN?), SO_RCVBUF capped at net.core.rmem_max; bursts of flow events may overrun it\n",
			d->nl.ev_rcvbuf, 2 * DNL_EV_RCVBUF);
}

/* how often r2c2d looks for the r2c2 family while it is gone */
#define FAMILY_RETRY_MS 250

/*
 * The r2c2 module went away (the kernel unregistered its family, or the
 * family has another id now): nothing can be read or pushed until it is
 * back, and the qdisc, with every lease, went with it.
 */
static void family_lost(struct r2c2d *d, uint64_t now)
{
	d->fam_waiting = true;
	d->fam_losses++;
	d->fam_gone_ns = now;
	d->fam_retry_ns = now;
	fprintf(stderr, "r2c2d: the r2c2 module went away (generic netlink family \"%s\" unregistered); waiting for it\n",
		R2C2_GENL_NAME);
}

/*
 * Open the netlink handle again once the family is registered and this
 * namespace has a node (r2c2-node up after modprobe); then read
 * everything again as after an overrun, and announce our flows at once.
 * Return: true when it is back.
 */
static bool family_back(struct r2c2d *d, uint64_t now)
{
	struct dnl n;
	struct dnl_node node;
	char err[256];

	d->fam_retry_ns = now + FAMILY_RETRY_MS * MS;
	if (dnl_open(&n, d->conf.ifindex, err, sizeof(err)))
		return false;
	if (dnl_node_get(&n, &node, err, sizeof(err))) {
		dnl_close(&n);
		return false;
	}
	n.routes_cb = d->nl.routes_cb;
	n.routes_arg = d->nl.routes_arg;
	n.topo_cb = d->nl.topo_cb;
	n.topo_arg = d->nl.topo_arg;
	n.ev_msgs = d->nl.ev_msgs;
	n.ev_overruns = d->nl.ev_overruns;
	n.req_msgs = d->nl.req_msgs;
	n.req_errors = d->nl.req_errors;
	n.stale = d->nl.stale;
	dnl_close(&d->nl);
	d->nl = n;
	node_set(d, &node);
	d->fam_waiting = false;
	d->fam_returns++;
	d->fam_back_ms = (now - d->fam_gone_ns) / MS;
	d->need_resync = true;
	d->topo_dirty = true;
	d->topo_dirty_ns = now - TOPO_HOLDOFF_MS * MS;
	d->topo_retry_ns = 0;	/* another kernel: read it at once */
	d->last_refresh_ns = d->last_lease_ns = now - (1ull << 62);
	fprintf(stderr, "r2c2d: the r2c2 module is back (family id %d) after %llu ms; node %u: reading the kernel's state again\n",
		d->nl.family, (unsigned long long)d->fam_back_ms, d->node.addr);
	log_rcvbuf(d);
	return true;
}

/* the first round on rebuilt tables is over, its rates pushed */
static void round_followed(struct r2c2d *d)
{
	uint64_t dt;

	if (d->computed_gen != d->mx.gen || !d->ts.burst_ns ||
	    r2c2d_now() < d->warm_until_ns)
		return;
	dt = r2c2d_now() - d->ts.burst_ns;
	d->ts.follow_ns_last = dt;
	if (dt > d->ts.follow_ns_max)
		d->ts.follow_ns_max = dt;
	d->ts.follows++;
	d->ts.burst_ns = 0;
}

/*
 * A round whose solve goes to the worker (round_off_loop()): the snapshot
 * here, the solve there; round_collect() applies and pushes its rates.
 * Returns 1 when the worker has it, else as compute() (no thread: the
 * solve ran here).
 */
static int round_start(struct r2c2d *d)
{
	uint64_t t0 = r2c2d_now();
	int r = round_prepare(d);

	if (r)
		return r;
	d->rd_prep_ns = r2c2d_now() - t0;
	if (rd_start(&d->rd) == 0)
		return 1;
	rd_solve(&d->rd);
	return round_apply(d, d->rd_prep_ns);
}

/*
 * A solve in the worker is over (wait: join it whatever it takes): its
 * rates go to the flows still in the matrix, and out, as a round in
 * tick() does. The matrix may have changed meanwhile: round_due() then
 * holds, and the next round follows rho after this one began. The
 * worker's CPU time is charged to cpu_budget.
 */
static void round_collect(struct r2c2d *d, bool wait)
{
	int r;

	if (rd_join(&d->rd, wait))
		return;
	if (d->budget.share > 0)
		rc_budget_charge(&d->budget, d->rd.cpu_ns);
	r = round_apply(d, d->rd_prep_ns);
	if (!r && !d->fam_waiting)
		push(d);
	round_followed(d);
}

static void tick(struct r2c2d *d)
{
	uint64_t now = r2c2d_now(), t0 = now, dt;
	uint64_t si = (uint64_t)(d->conf.demand_interval_ms ?
				 d->conf.demand_interval_ms :
				 d->conf.refresh_ms) * MS;
	bool lease = false, round = false;
	bool warm = now < d->warm_until_ns;

	d->t.ticks++;
	if (d->need_resync || now - d->last_sample_ns >= si) {
		if (d->need_resync)
			d->t.resyncs++;
		d->need_resync = false;
		sample_own(d, now);
		d->last_sample_ns = now;
	}
	if (now - d->last_refresh_ns >= (uint64_t)d->conf.refresh_ms * MS) {
		refresh_own(d);
		d->last_refresh_ns = now;
	}
	if (now - d->last_expire_ns >= 100 * MS) {
		mx_expire(&d->mx, now, (uint64_t)d->conf.expire_ms * MS,
			  d->node.addr);
		d->last_expire_ns = now;
	}
	digest_step(d, now);
	if (d->conf.lease_refresh_ms &&
	    now - d->last_lease_ns >= (uint64_t)d->conf.lease_refresh_ms * MS / 4) {
		lease = true;
		d->last_lease_ns = now;
	}
	if (rs_busy(&d->rs))
		route_collect(d, false);
	if (rd_busy(&d->rd))
		round_collect(d, false);
	if (tb_busy(&d->tb))
		tables_collect(d, false);
	if (d->topo_dirty && !rs_busy(&d->rs) && !tb_busy(&d->tb) &&
	    now >= topo_due(d))
		topo_step(d, now);
	if (d->conf.ga_interval_ms)
		route_select(d, now);
	if (round_due(d) && !warm && !rd_busy(&d->rd) &&
	    now - d->last_round_ns >= (uint64_t)d->conf.rho_us * 1000 &&
	    round_budget(d, now)) {
		int r;

		d->computed_gen = d->mx.gen;
		d->last_round_ns = now;
		r = round_off_loop(d) ? round_start(d) : compute(d);
		round = r != 1;		/* 1: in the worker, collected later */
		if (r == 0)
			lease = true;
		else if (r == -EAGAIN)	/* after the route search */
			d->computed_gen--;
	}
	if (lease && !warm)
		push(d);
	if (round) {
		round_followed(d);
		budget_account(d);
	}
	dt = r2c2d_now() - t0;
	d->t.loop_ns_last = dt;
	d->t.loop_ns_sum += dt;
	if (dt > d->t.loop_ns_max)
		d->t.loop_ns_max = dt;
}

/* the matrix's gen moved since the last look: note when */
static void note_change(struct r2c2d *d)
{
	if (d->mx.gen != d->gen_seen) {
		d->gen_seen = d->mx.gen;
		d->mx_changed_ns = r2c2d_now();
	}
}

static uint64_t at_most(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/*
 * When the loop has work next (CLOCK_MONOTONIC ns): the timer is armed
 * for that only, so a daemon whose matrix does not change sleeps between
 * its periodic duties instead of waking every rho. Work due:
 * - the matrix changed (an event, an announcement, ROUTES heard): a
 *   round, at most one per rho (rho after the last round began), and
 *   with cpu_budget not before the budget allows (rc_budget_next());
 * - a resync (ENOBUFS, start): now;
 * - TOPO_EVENT: reading the kernel's graph, TOPO_HOLDOFF_MS after the
 *   first event of a burst (when no route search runs: its end wakes
 *   the loop; and no table build: its end too), or a failed read's
 *   retry (topo_due()); a table build that is over: now;
 * - sampling our own flows (demand_interval_ms, else refresh_ms), the
 *   REFRESH of our own flows (refresh_ms), expiry (every 100 ms), the
 *   lease check (lease_refresh_ms / 4);
 * - route selection: the start of every GA slot (ga_interval_ms), and
 *   now while this node's slot has not been tried and no search runs;
 * - a silent control client's timeout (ctl_deadline()).
 * tick() checks each of these against the time itself, so waking early
 * costs a tick, never a missed duty.
 */
static uint64_t next_deadline(struct r2c2d *d, uint64_t now)
{
	uint64_t rho = (uint64_t)d->conf.rho_us * 1000;
	uint64_t si = (uint64_t)(d->conf.demand_interval_ms ?
				 d->conf.demand_interval_ms :
				 d->conf.refresh_ms) * MS;
	uint64_t t;

	if (d->need_resync)
		return now;
	t = d->last_sample_ns + si;
	t = at_most(t, d->last_refresh_ns + (uint64_t)d->conf.refresh_ms * MS);
	t = at_most(t, d->last_expire_ns + 100 * MS);
	if (d->conf.digest_ms) {
		t = at_most(t, d->last_digest_ns +
			    (uint64_t)d->conf.digest_ms * MS);
		if (d->dg.answer_due)
			t = at_most(t, dg_answer_at(&d->dg));
	}
	if (d->conf.lease_refresh_ms)
		t = at_most(t, d->last_lease_ns +
			    (uint64_t)d->conf.lease_refresh_ms * MS / 4);
	/* a round waits for the worker's (whose end wakes the loop) */
	if (round_due(d) && !rd_busy(&d->rd)) {
		uint64_t r = d->last_round_ns + rho,
			 b = rc_budget_next(&d->budget, now);

		if (b > r)
			r = b;
		t = at_most(t, r > d->warm_until_ns ? r : d->warm_until_ns);
	}
	if (d->topo_dirty && !rs_busy(&d->rs) && !tb_busy(&d->tb))
		t = at_most(t, topo_due(d));
	/*
	 * new tables wait for a route search's and a round's end (which
	 * wake the loop)
	 */
	if (tb_over(&d->tb) && !rs_busy(&d->rs) && !rd_busy(&d->rd))
		return now;
	if (rd_over(&d->rd))
		return now;
	if (d->conf.ga_interval_ms && d->topo->n) {
		uint64_t iv = (uint64_t)d->conf.ga_interval_ms * MS, wall, slot;
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		wall = (uint64_t)ts.tv_sec * 1000000000ull +
		       (uint64_t)ts.tv_nsec;
		slot = wall / iv;
		if (slot % d->topo->n == d->node.addr &&
		    d->rs.last_slot != slot + 1 && !rs_busy(&d->rs) &&
		    !rd_busy(&d->rd))
			return now;
		t = at_most(t, now + (slot + 1) * iv - wall);
	}
	return at_most(t, ctl_deadline(d));
}

/* the matrix (max_flows) and the rate batch: before the netlink socket */
static int daemon_alloc(struct r2c2d *d)
{
	if (mx_init(&d->mx, d->conf.max_flows) ||
	    rc_batch_init(&d->batch, R2C2_RATES_MAX, flush_rates, d))
		return -ENOMEM;
	return 0;
}

/*
 * After NODE_GET filled d->node: the graph and the allocator (topology,
 * policy, link_capacity), the matrix's own node (node_set()) and
 * max_flows_per_src,
 * route selection, the demand estimator (demand_*)
 */
static int daemon_setup(struct r2c2d *d, char *err, size_t errlen)
{
	int r;

	tb_init(&d->tb);
	rd_init(&d->rd);
	r = build_topo(d, err, errlen);

	if (r)
		return r;
	d->mx.max_per_src = d->conf.max_flows_per_src;
	node_set(d, &d->node);
	rs_init(&d->rs);
	dem_conf(d);
	return 0;
}

int main(int argc, char **argv)
{
	static struct r2c2d d;
	char err[512], *eq;
	bool check = false;
	const char *file = NULL;
	struct itimerspec its = { 0 };
	uint64_t armed = 0;
	int opt, tfd;

	conf_defaults(&d.conf);
	d.ctl_fd = -1;
	d.ov_key = calloc((size_t)argc, sizeof(*d.ov_key));
	d.ov_val = calloc((size_t)argc, sizeof(*d.ov_val));
	if (!d.ov_key || !d.ov_val) {
		fputs("r2c2d: out of memory\n", stderr);
		return 1;
	}
	/* the options once; the keys after them, as a SIGHUP reads them */
	while ((opt = getopt(argc, argv, "c:o:nvh")) != -1) {
		switch (opt) {
		case 'c':
			file = optarg;
			break;
		case 'o':
			eq = strchr(optarg, '=');
			if (!eq) {
				fprintf(stderr, "r2c2d: -o %s: expected KEY=VALUE\n",
					optarg);
				return 2;
			}
			*eq = 0;
			d.ov_key[d.nov] = optarg;
			d.ov_val[d.nov++] = eq + 1;
			break;
		case 'n':
			check = true;
			break;
		case 'v':
			d.verbose++;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}
	/* the file (-c: the last one given) first, then -o in order */
	d.conf_file = file;
	if (conf_read(&d, &d.conf, err, sizeof(err))) {
		fprintf(stderr, "r2c2d: %s\n", err);
		return 2;
	}
	d.conf0 = d.conf;
	if (check) {
		if (check_topo(&d, stdout, err, sizeof(err))) {
			fprintf(stderr, "r2c2d: %s\n", err);
			return 2;
		}
		return 0;
	}
	if (daemon_alloc(&d)) {
		fputs("r2c2d: out of memory\n", stderr);
		return 1;
	}
	if (signals_init()) {
		perror("r2c2d: sigaction");
		return 1;
	}
	if (dnl_open(&d.nl, d.conf.ifindex, err, sizeof(err)) ||
	    dnl_node_get(&d.nl, &d.node, err, sizeof(err)) ||
	    daemon_setup(&d, err, sizeof(err))) {
		fprintf(stderr, "r2c2d: %s\n", err);
		return 1;
	}
	if (d.conf.state_file[0] &&
	    st_load(d.conf.state_file, d.node.addr, &d.st, &d.st_n, err,
		    sizeof(err)))
		fprintf(stderr, "r2c2d: state_file: %s; its demands are not used\n",
			err);
	d.nl.routes_cb = on_routes;
	d.nl.routes_arg = &d;
	d.nl.topo_cb = on_topo_event;
	d.nl.topo_arg = &d;
	if (ctl_open(&d))
		return 1;
	tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (tfd < 0) {
		perror("r2c2d: timerfd_create");
		return 1;
	}
	d.start_ns = r2c2d_now();
	/*
	 * A daemon (re)started in a running rack knows no other node's flows
	 * until their next refresh: a round before would give its own flows
	 * the whole rack. No round and no push before warm_until_ns; leases
	 * pushed by a previous daemon hold meanwhile, or the qdisc falls back
	 * to its safe rate.
	 */
	d.warm_until_ns = d.start_ns + (uint64_t)d.conf.warmup_ms * MS;
	budget_conf(&d, d.start_ns);
	d.budget_cpu_ns = thread_cpu_ns();
	d.need_resync = true;
	d.computed_gen = d.mx.gen - 1;
	d.topo_dirty_ns = d.start_ns - TOPO_HOLDOFF_MS * MS;
	/* every periodic duty is due at once */
	d.last_sample_ns = d.last_refresh_ns = d.last_expire_ns =
		d.last_lease_ns = d.last_round_ns = d.start_ns - (1ull << 62);
	fprintf(stderr, "r2c2d: node %u, topology %s (%u nodes; follows the kernel's graph), rho %u us, %s, cpu budget %g %%%s\n",
		d.node.addr, d.conf.topology[0] ? d.conf.topology : "discovered",
		d.topo->n, d.conf.rho_us,
		d.conf.policy == R2C2_POL_PROPFAIR ? "propfair" : "maxmin",
		d.conf.cpu_budget, d.conf.cpu_budget > 0 ? "" : " (none)");
	log_rcvbuf(&d);
	while (!stop) {
		struct pollfd p[6 + CTL_CLIENTS];
		uint64_t exp, now, next;
		int nc;

		if (hup) {
			hup = 0;
			reload(&d, stderr);
		}
		now = r2c2d_now();
		if (d.nl.gone && !d.fam_waiting)
			family_lost(&d, now);
		if (d.fam_waiting && now >= d.fam_retry_ns)
			family_back(&d, now);
		if (d.fam_waiting) {
			next = d.fam_retry_ns;
		} else {
			next = next_deadline(&d, now);
			if (next <= now) {
				tick(&d);
				note_change(&d);
				next = next_deadline(&d, r2c2d_now());
			}
		}
		if (next != armed) {
			/* one-shot, absolute; 0 would disarm it */
			its.it_value.tv_sec = (time_t)(next / 1000000000ull);
			its.it_value.tv_nsec = (long)(next % 1000000000ull);
			if (!its.it_value.tv_sec && !its.it_value.tv_nsec)
				its.it_value.tv_nsec = 1;
			timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);
			armed = next;
		}
		p[0] = (struct pollfd){ .fd = dnl_ev_fd(&d.nl), .events = POLLIN };
		p[1] = (struct pollfd){ .fd = tfd, .events = POLLIN };
		p[2] = (struct pollfd){ .fd = rs_fd(&d.rs), .events = POLLIN };
		p[3] = (struct pollfd){ .fd = tb_fd(&d.tb), .events = POLLIN };
		p[4] = (struct pollfd){ .fd = rd_fd(&d.rd), .events = POLLIN };
		nc = ctl_pollfds(&d, p + 5);
		if (poll(p, (nfds_t)(5 + nc), -1) < 0) {
			if (errno == EINTR)
				continue;
			perror("r2c2d: poll");
			break;
		}
		if (p[0].revents &&
		    dnl_ev_read(&d.nl, on_event, &d) == -ENOBUFS) {
			d.t.overruns++;
			d.need_resync = true;
			/* a CTRL_CMD_DELFAMILY may be among the lost */
			dnl_family_ok(&d.nl);
			/* a TOPO_EVENT may be among the lost */
			if (!d.topo_dirty) {
				d.topo_dirty = true;
				d.topo_dirty_ns = r2c2d_now();
			}
		}
		if (p[2].revents)
			route_collect(&d, false);
		if (p[4].revents)
			round_collect(&d, false);
		if (p[3].revents)
			tables_collect(&d, false);
		note_change(&d);
		ctl_serve(&d, p + 5, nc);
		if (p[1].revents && read(tfd, &exp, sizeof(exp)) > 0)
			armed = 0;	/* fired: tick at the top if due */
	}
	if (rs_busy(&d.rs))
		route_collect(&d, true);
	if (rd_busy(&d.rd))
		round_collect(&d, true);
	/* the last changes, however recent */
	d.st_saved_ns = 0;
	state_save(&d, UINT64_MAX / 2);
	fputs("r2c2d: exiting\n", stderr);
	ctl_close(&d);
	close(tfd);
	dnl_close(&d.nl);
	rc_batch_fini(&d.batch);
	rs_fini(&d.rs);
	/*
	 * a build still running is not waited for (it may take a minute
	 * on a large rack): exit ends it
	 */
	if (!wk_running(&d.tb.wk))
		tb_fini(&d.tb);
	mx_fini(&d.mx);
	dg_fini(&d.dg);
	r2c2_pf_free(d.pf);
	r2c2_ws_free(d.ws);
	r2c2_rtab_free(d.rt);
	if (d.topo != d.ctopo)
		r2c2_topo_free(d.topo);
	r2c2_topo_free(d.ctopo);
	rd_fini(&d.rd);
	free(d.ann_ids);
	free(d.st);
	free(d.ov_key);
	free(d.ov_val);
	return 0;
}
