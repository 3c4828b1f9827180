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
 *
 * This file: options, start-up, the configuration and its reload, the
 * CPU budget, the node and the module's comings and goings, and the loop
 * (tick(), next_deadline(), main()). The loop's work is elsewhere:
 * events.c (flow events, digests), rates.c (rounds, pushes), select.c
 * (route selection), own.c (the node's own flows, the state file),
 * follow.c (the kernel's graph), ctl.c (the control socket).
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
					 d->tb_nodes, r2c2_rtab_strerror(r));
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
	r = tb_build(d->ctopo, NULL, NULL, NULL, 0,
		     d->conf.policy == R2C2_POL_PROPFAIR, &o);
	if (!r)
		tables_swap(d, &o);
	if (r) {
		snprintf(err, errlen, "routing tables: %s", r2c2_rtab_strerror(r));
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
			 d->conf.topology, r2c2_rtab_strerror(r));
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
	int r = round_prepare(d, true);

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
	bool lease = false, round = false, began = false;
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
		/* a bounded share: 10^5 flows in one go held the loop 3 ms */
		mx_expire_step(&d->mx, now, (uint64_t)d->conf.expire_ms * MS,
			       d->node.addr, EXPIRE_STEP);
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
	tb_reap(&d->tb);
	if (d->topo_dirty && !rs_busy(&d->rs) && !tb_busy(&d->tb) &&
	    now >= topo_due(d))
		topo_step(d, now);
	if (d->conf.ga_interval_ms)
		route_select(d, now);
	/*
	 * A route search paused between steps of its table work lets one
	 * round go first, then goes on (before another round can start:
	 * under churn rounds run back to back)
	 */
	if (rs_paused(&d->rs) && !d->rs.yielded)
		route_resume(d);
	if (round_due(d) && !warm && !rd_busy(&d->rd) &&
	    now - d->last_round_ns >= (uint64_t)d->conf.rho_us * 1000 &&
	    round_budget(d, now)) {
		int r;

		began = true;
		d->rs.yielded = false;
		d->computed_gen = d->mx.gen;
		d->last_round_ns = now;
		r = round_off_loop(d) ? round_start(d) : compute(d);
		round = r != 1;		/* 1: in the worker, collected later */
		if (r == 0)
			lease = true;
		else if (r == -EAGAIN)	/* after the route search, or the copy */
			d->computed_gen--;
	}
	if (rs_paused(&d->rs) && !began)	/* no round took its turn */
		route_resume(d);
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
	/* a paused route search's next step (a round's end wakes the loop) */
	if (rs_paused(&d->rs) && !rd_busy(&d->rd) && !tb_carrying(&d->tb))
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
	/* a build still running may read a torus's tables in use (tb.torus) */
	if (!wk_running(&d.tb.wk))
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
