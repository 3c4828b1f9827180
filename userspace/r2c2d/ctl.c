// SPDX-License-Identifier: GPL-2.0
/*
 * ctl.c - r2c2d's control channel: a UNIX stream socket (abstract by
 * default, "@r2c2d", hence one per network namespace). A client writes
 * one command line, "show" or "matrix", and reads one JSON object; the
 * daemon closes the connection. r2c2ctl daemon show / matrix show use it.
 * Nothing here blocks: clients are polled with the loop's other sockets.
 * Only root and r2c2d's own user are answered (the peer's credentials:
 * an abstract socket has no file mode), and a matrix answer waits while
 * CTL_PENDING_MAX of answers are unread.
 */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <linux/types.h>
#include <linux/r2c2.h>

#include "r2c2_json.h"
#include "r2c2d.h"

static socklen_t ctl_addr(const char *path, struct sockaddr_un *sa)
{
	size_t len = strlen(path);

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (len >= sizeof(sa->sun_path))
		len = sizeof(sa->sun_path) - 1;
	memcpy(sa->sun_path, path, len);
	if (path[0] == '@')
		sa->sun_path[0] = 0;	/* abstract */
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len);
}

int ctl_open(struct r2c2d *d)
{
	struct sockaddr_un sa;
	socklen_t len = ctl_addr(d->conf.control, &sa);

	d->ctl_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
			   0);
	if (d->ctl_fd < 0) {
		perror("r2c2d: control socket");
		return -1;
	}
	if (d->conf.control[0] != '@')
		unlink(d->conf.control);
	if (bind(d->ctl_fd, (struct sockaddr *)&sa, len) ||
	    listen(d->ctl_fd, 8)) {
		fprintf(stderr, "r2c2d: control socket %s: %s%s\n",
			d->conf.control, strerror(errno),
			errno == EADDRINUSE ?
			" (another r2c2d runs in this namespace?)" : "");
		close(d->ctl_fd);
		d->ctl_fd = -1;
		return -1;
	}
	return 0;
}

static void drop(struct r2c2d *d, int i);

void ctl_close(struct r2c2d *d)
{
	while (d->nctl)
		drop(d, 0);
	if (d->ctl_fd >= 0)
		close(d->ctl_fd);
	if (d->conf.control[0] != '@')
		unlink(d->conf.control);
}

/* "key": value, for the members of the answers below */
static void j_u64(struct json_writer *jw, const char *k, uint64_t v)
{
	jw_name(jw, k);
	jw_u64(jw, v);
}

static void j_i64(struct json_writer *jw, const char *k, int64_t v)
{
	jw_name(jw, k);
	jw_i64(jw, v);
}

/* a setting: the double itself, as short as reads back the same */
static void j_dbl(struct json_writer *jw, const char *k, double v)
{
	jw_name(jw, k);
	jw_double(jw, v);
}

/* a measurement: @decimals digits after the point */
static void j_fix(struct json_writer *jw, const char *k, double v,
		  int decimals)
{
	jw_name(jw, k);
	jw_fixed(jw, v, decimals);
}

/* a string: escaped, each byte that is not UTF-8 U+FFFD */
static void j_str(struct json_writer *jw, const char *k, const char *v)
{
	jw_name(jw, k);
	jw_string(jw, v);
}

static void j_bool(struct json_writer *jw, const char *k, bool v)
{
	jw_name(jw, k);
	jw_bool(jw, v);
}

static void j_obj(struct json_writer *jw, const char *k)
{
	jw_name(jw, k);
	jw_obj_open(jw);
}

static double us(uint64_t ns)
{
	return (double)ns / 1000;
}

/* "YYYY-MM-DDTHH:MM:SSZ" of a wall-clock time in ns, or "" */
static void utc(char *buf, size_t len, uint64_t wall_ns)
{
	time_t sec = (time_t)(wall_ns / 1000000000ull);
	struct tm tm;

	buf[0] = 0;
	if (gmtime_r(&sec, &tm))
		strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* route selection: settings, counters, this node's last search */
static void ga_show(struct r2c2d *d, struct json_writer *jw, uint64_t now)
{
	const struct r2c2d_conf *c = &d->conf;
	const struct rs *s = &d->rs;
	const struct rs_decision *x = &s->last;
	char protos[128] = "", when[40];
	size_t len = 0;
	int p;

	j_obj(jw, "ga");
	j_u64(jw, "interval_ms", c->ga_interval_ms);
	j_u64(jw, "long_ms", c->ga_long_ms);
	j_dbl(jw, "margin", c->ga_margin);
	j_u64(jw, "budget_ms", c->ga_budget_ms);
	j_str(jw, "utility", c->ga_utility == R2C2_UTIL_MIN ? "min" : "sum");
	for (p = 0; p < __R2C2_RP_MAX && len < sizeof(protos); p++)
		if (c->ga_protos & 1u << p)
			len += (size_t)snprintf(protos + len, sizeof(protos) - len,
						"%s%s", len ? "," : "",
						r2c2_rproto_name(p));
	j_str(jw, "protos", protos);
	j_bool(jw, "searching", rs_busy(s));
	j_u64(jw, "runs", s->runs);
	j_u64(jw, "adopted", s->adopted);
	j_u64(jw, "skipped", s->skipped);
	j_u64(jw, "batches_sent", s->batches);
	j_u64(jw, "entries_sent", s->entries_sent);
	j_u64(jw, "send_errors", s->send_errors);
	j_u64(jw, "routes_heard", s->heard);
	j_u64(jw, "entries_heard", s->entries_heard);
	j_u64(jw, "entries_applied", s->entries_applied);
	if (s->heard_ns) {
		j_obj(jw, "last_heard");
		j_u64(jw, "from", s->heard_from);
		j_u64(jw, "entries", s->heard_entries);
		j_u64(jw, "age_ms", (now - s->heard_ns) / 1000000);
		jw_obj_close(jw);
	}
	if (s->runs) {
		utc(when, sizeof(when), x->wall_ns);
		j_obj(jw, "last");
		j_str(jw, "time", when);
		j_u64(jw, "age_ms", (now - x->mono_ns) / 1000000);
		j_u64(jw, "flows", x->flows);
		j_u64(jw, "long_flows", x->long_flows);
		j_u64(jw, "changed", x->changed);
		j_fix(jw, "utility_before", x->before, 0);
		j_fix(jw, "utility_after", x->after, 0);
		j_bool(jw, "adopted", x->adopted);
		j_u64(jw, "rps", x->count[R2C2_RP_RPS]);
		j_u64(jw, "dor", x->count[R2C2_RP_DOR]);
		j_u64(jw, "vlb", x->count[R2C2_RP_VLB]);
		j_u64(jw, "wlb", x->count[R2C2_RP_WLB]);
		j_fix(jw, "duration_ms", (double)x->duration_ns / 1e6, 2);
		j_u64(jw, "generations", x->generations);
		j_u64(jw, "evaluations", x->evaluations);
		j_u64(jw, "chunks_copied", x->chunks);
		j_u64(jw, "copy_steps", x->copy_steps);
		j_u64(jw, "pair_steps", x->pair_steps);
		j_i64(jw, "errno", x->err);
		jw_obj_close(jw);
	}
	jw_obj_close(jw);
}

/* the graph the allocator uses and how it follows the kernel's */
static void topo_show(struct r2c2d *d, struct json_writer *jw, uint64_t now)
{
	const struct r2c2d_topo_stats *s = &d->ts;
	const struct r2c2_topo *t = d->topo;
	char when[40];

	j_obj(jw, "topology");
	j_str(jw, "kind", t->kind == R2C2_TOPO_TORUS ? "torus" :
	      t->kind == R2C2_TOPO_MESH ? "mesh" : "graph");
	j_bool(jw, "configured", t == d->ctopo);
	j_u64(jw, "nodes", t->n);
	j_u64(jw, "kernel_nodes", s->nodes);
	j_u64(jw, "links", t->nlinks);
	j_u64(jw, "events", s->events);
	j_u64(jw, "tables_gen", s->last_gen);
	j_u64(jw, "syncs", s->syncs);
	j_u64(jw, "rebuilds", s->rebuilds);
	j_u64(jw, "errors", s->errors);
	j_bool(jw, "pending", d->topo_dirty);
	j_u64(jw, "reannounces", s->reannounces);
	j_u64(jw, "left_flows", s->left_flows);
	j_fix(jw, "sync_us_last", us(s->sync_ns_last), 1);
	j_u64(jw, "follows", s->follows);
	j_fix(jw, "follow_us_last", us(s->follow_ns_last), 1);
	j_fix(jw, "follow_us_max", us(s->follow_ns_max), 1);
	j_u64(jw, "failing", s->failing);
	j_u64(jw, "retry_ms", s->retry_ms);
	j_u64(jw, "cache_bytes", r2c2d_cache_bytes(d));
	j_u64(jw, "cache_need_bytes", s->cache_need);
	j_u64(jw, "cache_limit_mb", d->conf.table_cache_mb);
	j_u64(jw, "cache_clears", s->cache_clears);
	j_u64(jw, "cache_freed_bytes", s->cache_freed);
	j_bool(jw, "from_torus", s->from_torus);
	j_u64(jw, "kept_last", s->kept_last);
	j_u64(jw, "kept", s->kept);
	j_fix(jw, "keep_us_last", us(s->keep_ns_last), 1);
	j_bool(jw, "building", tb_busy(&d->tb));
	j_u64(jw, "table_builds", d->tb.builds);
	j_fix(jw, "build_us_last", us(d->tb.ns_last), 1);
	j_fix(jw, "build_us_max", us(d->tb.ns_max), 1);
	j_str(jw, "last_error", s->last_error);
	if (s->rebuilds) {
		utc(when, sizeof(when), s->rebuild_wall_ns);
		j_obj(jw, "last_rebuild");
		j_str(jw, "time", when);
		j_u64(jw, "age_ms", (now - s->rebuild_ns) / 1000000);
		jw_obj_close(jw);
	}
	jw_obj_close(jw);
}

/* CPU time of the whole process, every thread (the workers' too) */
static double process_cpu_us(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

static void config_show(struct r2c2d *d, struct json_writer *jw)
{
	const struct r2c2d_conf *c = &d->conf;

	j_obj(jw, "config");
	j_u64(jw, "rho_us", c->rho_us);
	j_str(jw, "policy", c->policy == R2C2_POL_PROPFAIR ? "propfair" : "maxmin");
	j_str(jw, "rounds", c->rounds_always ? "always" : "own");
	j_dbl(jw, "headroom", c->headroom);
	j_fix(jw, "link_capacity", c->link_capacity, 0);
	j_str(jw, "topology", c->topology);	/* file:PATH: a path may hold anything */
	j_u64(jw, "nodes", d->topo->n);
	j_dbl(jw, "push_threshold", c->push_threshold);
	j_u64(jw, "lease_refresh_ms", c->lease_refresh_ms);
	j_u64(jw, "refresh_ms", c->refresh_ms);
	j_u64(jw, "warmup_ms", c->warmup_ms);
	j_u64(jw, "expire_ms", c->expire_ms);
	j_u64(jw, "digest_ms", c->digest_ms);
	j_u64(jw, "demand_interval_ms", c->demand_interval_ms);
	j_dbl(jw, "demand_alpha", c->demand_alpha);
	j_u64(jw, "demand_window_ms", c->demand_window_ms);
	j_u64(jw, "demand_windows", c->demand_windows);
	j_dbl(jw, "demand_low", c->demand_low);
	j_dbl(jw, "demand_high", c->demand_high);
	j_dbl(jw, "demand_slack", c->demand_slack);
	j_u64(jw, "announce_delay_ms", c->announce_delay_ms);
	j_dbl(jw, "cpu_budget", c->cpu_budget);
	j_u64(jw, "max_flows", d->mx.max_flows);
	j_u64(jw, "max_flows_per_src", d->mx.max_per_src);
	j_u64(jw, "table_cache_mb", c->table_cache_mb);
	j_u64(jw, "round_worker_us", c->round_worker_us);
	jw_obj_close(jw);
}

static void events_show(struct r2c2d *d, struct json_writer *jw)
{
	const struct mx_stats *s = &d->mx.st;
	const struct r2c2d_timing *t = &d->t;

	j_obj(jw, "events");
	j_u64(jw, "total", s->events);
	j_u64(jw, "starts", s->starts);
	j_u64(jw, "finishes", s->finishes);
	j_u64(jw, "updates", s->updates);
	j_u64(jw, "refreshes", s->refreshes);
	j_u64(jw, "dup_starts", s->dup_starts);
	j_u64(jw, "unknown_finishes", s->unknown_finishes);
	j_u64(jw, "implicit_starts", s->implicit_starts);
	j_u64(jw, "expired", s->expired);
	j_u64(jw, "resync_removed", s->resync_removed);
	j_u64(jw, "invalid", s->invalid);
	j_u64(jw, "refused_full", s->refused_full);
	j_u64(jw, "refused_quota", s->refused_quota);
	j_u64(jw, "overruns", t->overruns);
	j_u64(jw, "own_echoes", t->own_echoes);
	jw_obj_close(jw);
}

static void timings_show(struct r2c2d *d, struct json_writer *jw)
{
	const struct r2c2d_timing *t = &d->t;

	j_obj(jw, "timings");
	j_u64(jw, "ticks", t->ticks);
	j_u64(jw, "rounds", t->rounds);
	j_u64(jw, "rounds_on_demand", t->rounds_on_demand);
	j_u64(jw, "rounds_deferred", t->rounds_deferred);
	j_fix(jw, "cpu_us", process_cpu_us(), 0);
	j_u64(jw, "rounds_off_loop", d->rd.off_loop);
	j_bool(jw, "solving", rd_busy(&d->rd));
	j_u64(jw, "round_flows_gone", d->rd.gone);
	j_fix(jw, "solve_us_last", us(d->rd.ns), 1);
	j_fix(jw, "budget_us", d->budget.share > 0 ?
	      (double)d->budget.tokens_ns / 1000 : 0, 1);
	j_fix(jw, "compute_us_last", us(t->compute_ns_last), 1);
	j_fix(jw, "compute_us_max", us(t->compute_ns_max), 1);
	j_fix(jw, "compute_us_mean", t->rounds ?
	      us(t->compute_ns_sum) / (double)t->rounds : 0, 1);
	j_fix(jw, "loop_us_last", us(t->loop_ns_last), 1);
	j_fix(jw, "loop_us_max", us(t->loop_ns_max), 1);
	j_fix(jw, "loop_us_mean", t->ticks ?
	      us(t->loop_ns_sum) / (double)t->ticks : 0, 1);
	j_fix(jw, "sample_us_last", us(t->sample_ns_last), 1);
	j_u64(jw, "samples", t->samples);
	j_u64(jw, "pushes", t->pushes);
	j_u64(jw, "push_batches", t->push_batches);
	j_u64(jw, "push_errors", t->push_errors);
	j_u64(jw, "announces", t->announces);
	j_u64(jw, "refreshes_sent", t->refreshes_sent);
	j_u64(jw, "resyncs", t->resyncs);
	j_u64(jw, "alloc_errors", t->alloc_errors);
	j_u64(jw, "skipped_flows", t->skipped_flows);
	j_u64(jw, "view_snapshots", t->view_snapshots);
	j_u64(jw, "view_chunks", t->view_chunks);
	j_u64(jw, "view_copy_steps", t->view_copy_steps);
	j_u64(jw, "ctl_requests", t->ctl_requests);
	j_u64(jw, "ctl_timeouts", t->ctl_timeouts);
	j_u64(jw, "ctl_denied", t->ctl_denied);
	j_u64(jw, "ctl_busy", t->ctl_busy);
	j_u64(jw, "nl_requests", d->nl.req_msgs);
	j_u64(jw, "nl_request_errors", d->nl.req_errors);
	jw_obj_close(jw);
}

static void show(struct r2c2d *d, struct json_writer *jw)
{
	const struct r2c2d_timing *t = &d->t;
	const struct dg_stats *g = &d->dg.st;
	uint64_t up = r2c2d_now() - d->start_ns;

	jw_obj_open(jw);
	j_u64(jw, "node", d->node.addr);
	j_i64(jw, "pid", getpid());
	j_u64(jw, "uptime_ms", up / 1000000);
	config_show(d, jw);
	j_bool(jw, "warming_up", r2c2d_now() < d->warm_until_ns);
	j_obj(jw, "kernel");
	j_str(jw, "family", d->fam_waiting ? "gone" : "up");
	j_i64(jw, "family_id", d->nl.family);
	j_u64(jw, "losses", d->fam_losses);
	j_u64(jw, "returns", d->fam_returns);
	j_u64(jw, "last_absence_ms", d->fam_back_ms);
	j_i64(jw, "event_rcvbuf", d->nl.ev_rcvbuf);
	j_bool(jw, "event_rcvbuf_forced", d->nl.ev_rcvbuf_forced);
	jw_obj_close(jw);
	j_u64(jw, "matrix_changed_ns", d->mx_changed_ns);
	j_u64(jw, "flows", d->mx.n);
	j_u64(jw, "own_flows", d->mx.own);
	j_u64(jw, "matrix_gen", d->mx.gen);
	events_show(d, jw);
	timings_show(d, jw);
	j_obj(jw, "state");
	j_str(jw, "file", d->conf.state_file);
	j_u64(jw, "saves", t->state_saves);
	j_u64(jw, "errors", t->state_errors);
	j_u64(jw, "restored", t->state_restored);
	jw_obj_close(jw);
	j_obj(jw, "digest");
	j_u64(jw, "interval_ms", d->conf.digest_ms);
	j_u64(jw, "sent", g->sent);
	j_u64(jw, "heard", g->heard);
	j_u64(jw, "matched", g->matched);
	j_u64(jw, "mismatched", g->mismatched);
	j_u64(jw, "asked", g->asked);
	j_u64(jw, "asks_heard", g->asks_heard);
	j_u64(jw, "answered", g->answered);
	j_u64(jw, "removed", g->removed);
	j_u64(jw, "refused", g->refused);
	j_u64(jw, "last_repair_ns", d->dg.repaired_ns);
	jw_obj_close(jw);
	topo_show(d, jw, r2c2d_now());
	ga_show(d, jw, r2c2d_now());
	jw_obj_close(jw);
}

static void matrix(struct r2c2d *d, struct json_writer *jw)
{
	char id[16];
	uint64_t now;
	uint32_t i;

	/* no flow of our own: no rounds; compute what is printed */
	r2c2d_rates_fresh(d);
	r2c2d_rates_sync(d);
	now = r2c2d_now();
	jw_obj_open(jw);
	j_u64(jw, "node", d->node.addr);
	j_u64(jw, "gen", d->mx.gen);
	j_u64(jw, "now_ns", now);
	j_i64(jw, "round_age_us", d->t.rounds ?
	      (int64_t)((now - d->last_round_ns) / 1000) : -1);
	jw_name(jw, "flows");
	jw_arr_open(jw);
	for (i = 0; i < d->mx.n; i++) {
		const struct mx_flow *x = &d->mx.f[i];

		jw_obj_open(jw);
		j_u64(jw, "src", x->src);
		snprintf(id, sizeof(id), "%08x", x->id);
		j_str(jw, "flow", id);
		j_u64(jw, "dst", x->dst);
		j_u64(jw, "weight", x->weight);
		j_u64(jw, "prio", x->prio);
		j_str(jw, "routing", r2c2_rproto_name(x->rproto));
		j_i64(jw, "demand_kbps", x->demand_kbps == R2C2_DEMAND_UNLIMITED ?
		      -1 : (int64_t)x->demand_kbps);
		j_fix(jw, "rate", x->rate, 0);
		j_u64(jw, "age_ms", (now - x->born_ns) / 1000000);
		j_u64(jw, "refresh_age_ms", (now - x->refresh_ns) / 1000000);
		j_u64(jw, "changed_age_us", (now - x->changed_ns) / 1000);
		if (x->src == d->node.addr) {
			j_fix(jw, "pushed", x->pushed, 0);
			j_i64(jw, "pushed_age_us", x->moved_ns ?
			      (int64_t)((now - x->moved_ns) / 1000) : -1);
			j_fix(jw, "demand_est", x->dem.est, 0);
			j_fix(jw, "sent_rate", x->dem.rate, 0);
			j_u64(jw, "backlog_min", x->dem.wqmin);
		}
		jw_obj_close(jw);
	}
	jw_arr_close(jw);
	jw_obj_close(jw);
}

/* the client's line, whatever it holds, as a JSON string */
static void error_answer(struct json_writer *jw, const char *msg)
{
	jw_obj_open(jw);
	j_str(jw, "error", msg);
	jw_obj_close(jw);
}

static void unknown(struct json_writer *jw, const char *cmd)
{
	char msg[sizeof(((struct ctl_client *)0)->buf) + 64];

	snprintf(msg, sizeof(msg), "unknown command '%s' (show, matrix)", cmd);
	error_answer(jw, msg);
}

/* bytes of the answers other clients have not read yet */
static size_t pending(const struct r2c2d *d, const struct ctl_client *self)
{
	size_t b = 0;
	int i;

	for (i = 0; i < d->nctl; i++)
		if (&d->ctl[i] != self && d->ctl[i].out)
			b += d->ctl[i].outlen - d->ctl[i].off;
	return b;
}

/* one answer, built in memory so that writing it never blocks the loop */
static void answer(struct r2c2d *d, struct ctl_client *c)
{
	size_t len = 0, want, wait;
	struct json_writer *jw;
	char msg[160];
	FILE *f;

	c->buf[strcspn(c->buf, "\r\n")] = 0;
	f = open_memstream(&c->out, &len);
	if (!f) {
		c->out = NULL;
		return;
	}
	jw = jw_new(f, false);
	if (!jw) {
		fclose(f);
		free(c->out);
		c->out = NULL;
		return;
	}
	if (c->uid != 0 && c->uid != geteuid()) {
		d->t.ctl_denied++;
		snprintf(msg, sizeof(msg),
			 "permission denied: uid %u; r2c2d answers root and its own user (uid %u)",
			 (unsigned int)c->uid, (unsigned int)geteuid());
		error_answer(jw, msg);
	} else if (!strcmp(c->buf, "show")) {
		show(d, jw);
	} else if (!strcmp(c->buf, "matrix")) {
		want = 256 + (size_t)d->mx.n * CTL_MATRIX_FLOW_BYTES;
		wait = pending(d, c);
		if (wait && wait + want > (d->ctl_pending_max ?
					   d->ctl_pending_max : CTL_PENDING_MAX)) {
			d->t.ctl_busy++;
			snprintf(msg, sizeof(msg),
				 "busy: %zu bytes of answers are not read yet; ask again",
				 wait);
			error_answer(jw, msg);
		} else {
			matrix(d, jw);
		}
	} else {
		unknown(jw, c->buf);
	}
	jw_destroy(jw);
	if (fclose(f)) {
		free(c->out);
		c->out = NULL;
		return;
	}
	c->outlen = len;
	c->off = 0;
}

static void drop(struct r2c2d *d, int i)
{
	struct ctl_client *c = &d->ctl[i];

	close(c->fd);
	free(c->out);
	*c = d->ctl[--d->nctl];
	memset(&d->ctl[d->nctl], 0, sizeof(d->ctl[d->nctl]));
}

int ctl_pollfds(struct r2c2d *d, struct pollfd *p)
{
	int i;

	p[0].fd = d->ctl_fd;
	/* full: leave new connections in the backlog (no busy poll) */
	p[0].events = d->nctl < CTL_CLIENTS ? POLLIN : 0;
	p[0].revents = 0;
	for (i = 0; i < d->nctl; i++) {
		p[1 + i].fd = d->ctl[i].fd;
		p[1 + i].events = d->ctl[i].out ? POLLOUT : POLLIN;
		p[1 + i].revents = 0;
	}
	return 1 + d->nctl;
}

uint64_t ctl_deadline(const struct r2c2d *d)
{
	uint64_t t = UINT64_MAX;
	int i;

	for (i = 0; i < d->nctl; i++)
		if (d->ctl[i].since_ns + CTL_TIMEOUT_MS * 1000000ull + 1 < t)
			t = d->ctl[i].since_ns + CTL_TIMEOUT_MS * 1000000ull + 1;
	return t;
}

/*
 * Serve the control socket without ever blocking the loop: connections
 * are accepted at once and kept (at most CTL_CLIENTS) until their command
 * line arrived, however slowly the client runs (a loaded machine can
 * take seconds to schedule r2c2ctl between connect() and write()); the
 * answer is written as the socket takes it. A client silent for
 * CTL_TIMEOUT_MS is dropped.
 */
void ctl_serve(struct r2c2d *d, const struct pollfd *p, int np)
{
	uint64_t now = r2c2d_now();
	int i, fd, nfd = np - 1;
	struct ucred cred;
	socklen_t clen;
	ssize_t n;

	/* clients first: p[1 + i] is d->ctl[i] as ctl_pollfds() left it */
	for (i = nfd - 1; i >= 0; i--) {
		struct ctl_client *c = &d->ctl[i];

		if (i >= d->nctl || p[1 + i].fd != c->fd)
			continue;
		if (!p[1 + i].revents) {
			if (now - c->since_ns > CTL_TIMEOUT_MS * 1000000ull) {
				d->t.ctl_timeouts++;
				drop(d, i);
			}
			continue;
		}
		if (!c->out) {
			n = read(c->fd, c->buf + c->len, sizeof(c->buf) - 1 - c->len);
			if (n < 0 && (errno == EAGAIN || errno == EINTR))
				continue;
			if (n > 0) {
				c->len += (size_t)n;
				c->buf[c->len] = 0;
			}
			if (n > 0 && !strchr(c->buf, '\n') &&
			    c->len < sizeof(c->buf) - 1)
				continue;	/* not the whole line yet */
			if (!c->len) {
				drop(d, i);
				continue;
			}
			answer(d, c);
			d->t.ctl_requests++;
			if (!c->out) {
				drop(d, i);
				continue;
			}
		}
		n = write(c->fd, c->out + c->off, c->outlen - c->off);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n > 0)
			c->off += (size_t)n;
		if (n <= 0 || c->off == c->outlen)
			drop(d, i);
	}
	if (!p[0].revents)
		return;
	while (d->nctl < CTL_CLIENTS) {
		fd = accept4(d->ctl_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0)
			break;
		clen = sizeof(cred);
		memset(&d->ctl[d->nctl], 0, sizeof(d->ctl[d->nctl]));
		d->ctl[d->nctl].fd = fd;
		d->ctl[d->nctl].since_ns = now;
		/* no credentials (cannot happen on AF_UNIX): nobody's */
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) ||
		    clen != sizeof(cred))
			cred.uid = (uid_t)-1;
		d->ctl[d->nctl].uid = cred.uid;
		d->nctl++;
	}
}
