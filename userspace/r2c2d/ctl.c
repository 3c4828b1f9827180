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

/*
 * Length of the UTF-8 sequence at s (a lead byte >= 0x80), or 0 when it
 * is not one: overlong forms, surrogates and code points above U+10FFFF
 * are not (RFC 3629; r2c2ctl's json.c decides the same)
 */
static size_t utf8_len(const unsigned char *s)
{
	unsigned int cp, min;
	size_t n, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2; cp = s[0] & 0x1f; min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3; cp = s[0] & 0x0f; min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4; cp = s[0] & 0x07; min = 0x10000;
	} else {
		return 0;
	}
	/* a NUL is no continuation byte: the string's end stops it */
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/*
 * s as a JSON string: quotes, backslashes and control characters
 * escaped, each byte that is not UTF-8 U+FFFD (JSON is UTF-8)
 */
static void json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	fputc('"', f);
	while (*p) {
		unsigned char ch = *p;

		if (ch >= 0x80) {
			n = utf8_len(p);
			if (n)
				fwrite(p, 1, n, f);
			else
				fputs("\\ufffd", f);
			p += n ? n : 1;
			continue;
		}
		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
		p++;
	}
	fputc('"', f);
}

static double us(uint64_t ns)
{
	return (double)ns / 1000;
}

/* route selection: settings, counters, this node's last search */
static void ga_show(struct r2c2d *d, FILE *f, uint64_t now)
{
	const struct r2c2d_conf *c = &d->conf;
	const struct rs *s = &d->rs;
	const struct rs_decision *x = &s->last;
	char when[40] = "";
	struct tm tm;
	time_t sec;
	int p, k = 0;

	fprintf(f, ",\"ga\":{\"interval_ms\":%u,\"long_ms\":%u,\"margin\":%g,"
		"\"budget_ms\":%u,\"utility\":\"%s\",\"protos\":\"",
		c->ga_interval_ms, c->ga_long_ms, c->ga_margin, c->ga_budget_ms,
		c->ga_utility == R2C2_UTIL_MIN ? "min" : "sum");
	for (p = 0; p < __R2C2_RP_MAX; p++)
		if (c->ga_protos & 1u << p)
			fprintf(f, "%s%s", k++ ? "," : "", r2c2_rproto_name(p));
	fprintf(f, "\",\"searching\":%s,\"runs\":%llu,\"adopted\":%llu,\"skipped\":%llu,"
		"\"batches_sent\":%llu,\"entries_sent\":%llu,"
		"\"send_errors\":%llu,\"routes_heard\":%llu,"
		"\"entries_heard\":%llu,\"entries_applied\":%llu",
		rs_busy(s) ? "true" : "false", (unsigned long long)s->runs, (unsigned long long)s->adopted,
		(unsigned long long)s->skipped,
		(unsigned long long)s->batches,
		(unsigned long long)s->entries_sent,
		(unsigned long long)s->send_errors,
		(unsigned long long)s->heard,
		(unsigned long long)s->entries_heard,
		(unsigned long long)s->entries_applied);
	if (s->heard_ns)
		fprintf(f, ",\"last_heard\":{\"from\":%u,\"entries\":%u,"
			"\"age_ms\":%llu}", s->heard_from, s->heard_entries,
			(unsigned long long)((now - s->heard_ns) / 1000000));
	if (s->runs) {
		sec = (time_t)(x->wall_ns / 1000000000ull);
		if (gmtime_r(&sec, &tm))
			strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
		fprintf(f, ",\"last\":{\"time\":\"%s\",\"age_ms\":%llu,"
			"\"flows\":%u,\"long_flows\":%u,\"changed\":%u,"
			"\"utility_before\":%.0f,\"utility_after\":%.0f,"
			"\"adopted\":%s,\"rps\":%u,\"dor\":%u,\"vlb\":%u,"
			"\"duration_ms\":%.2f,\"generations\":%u,"
			"\"evaluations\":%lu,\"errno\":%d}",
			when, (unsigned long long)((now - x->mono_ns) / 1000000),
			x->flows, x->long_flows, x->changed, x->before, x->after,
			x->adopted ? "true" : "false", x->count[R2C2_RP_RPS],
			x->count[R2C2_RP_DOR], x->count[R2C2_RP_VLB],
			(double)x->duration_ns / 1e6, x->generations,
			x->evaluations, x->err);
	}
	fputc('}', f);
}

/* the graph the allocator uses and how it follows the kernel's */
static void topo_show(struct r2c2d *d, FILE *f, uint64_t now)
{
	const struct r2c2d_topo_stats *s = &d->ts;
	const struct r2c2_topo *t = d->topo;
	char when[40] = "";
	struct tm tm;
	time_t sec;

	fprintf(f, ",\"topology\":{\"kind\":\"%s\",\"configured\":%s,"
		"\"nodes\":%u,\"kernel_nodes\":%u,\"links\":%u,"
		"\"events\":%llu,\"tables_gen\":%u,\"syncs\":%llu,"
		"\"rebuilds\":%llu,\"errors\":%llu,\"pending\":%s,"
		"\"reannounces\":%llu,\"left_flows\":%llu,"
		"\"sync_us_last\":%.1f,\"follows\":%llu,"
		"\"follow_us_last\":%.1f,\"follow_us_max\":%.1f,"
		"\"failing\":%llu,\"retry_ms\":%u,"
		"\"cache_bytes\":%zu,\"cache_need_bytes\":%zu,"
		"\"cache_limit_mb\":%u,\"cache_clears\":%llu,"
		"\"cache_freed_bytes\":%llu,\"building\":%s,"
		"\"table_builds\":%llu,\"build_us_last\":%.1f,"
		"\"build_us_max\":%.1f",
		t->kind == R2C2_TOPO_TORUS ? "torus" :
		t->kind == R2C2_TOPO_MESH ? "mesh" : "graph",
		t == d->ctopo ? "true" : "false", t->n, s->nodes, t->nlinks,
		(unsigned long long)s->events, s->last_gen,
		(unsigned long long)s->syncs, (unsigned long long)s->rebuilds,
		(unsigned long long)s->errors, d->topo_dirty ? "true" : "false",
		(unsigned long long)s->reannounces,
		(unsigned long long)s->left_flows, us(s->sync_ns_last),
		(unsigned long long)s->follows, us(s->follow_ns_last),
		us(s->follow_ns_max), (unsigned long long)s->failing,
		s->retry_ms, r2c2d_cache_bytes(d), s->cache_need,
		d->conf.table_cache_mb, (unsigned long long)s->cache_clears,
		(unsigned long long)s->cache_freed,
		tb_busy(&d->tb) ? "true" : "false",
		(unsigned long long)d->tb.builds, us(d->tb.ns_last),
		us(d->tb.ns_max));
	fputs(",\"last_error\":", f);
	json_str(f, s->last_error);
	if (s->rebuilds) {
		sec = (time_t)(s->rebuild_wall_ns / 1000000000ull);
		if (gmtime_r(&sec, &tm))
			strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
		fprintf(f, ",\"last_rebuild\":{\"time\":\"%s\",\"age_ms\":%llu}",
			when, (unsigned long long)((now - s->rebuild_ns) / 1000000));
	}
	fputc('}', f);
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

static void show(struct r2c2d *d, FILE *f)
{
	const struct r2c2d_conf *c = &d->conf;
	const struct r2c2d_timing *t = &d->t;
	const struct mx_stats *s = &d->mx.st;
	uint64_t up = r2c2d_now() - d->start_ns;
	fprintf(f, "{\"node\":%u,\"pid\":%d,\"uptime_ms\":%llu,"
		"\"config\":{\"rho_us\":%u,\"policy\":\"%s\",\"rounds\":\"%s\","
		"\"headroom\":%g,\"link_capacity\":%.0f,\"topology\":",
		d->node.addr, (int)getpid(), (unsigned long long)(up / 1000000),
		c->rho_us, c->policy == R2C2_POL_PROPFAIR ? "propfair" : "maxmin",
		c->rounds_always ? "always" : "own", c->headroom,
		c->link_capacity);
	/* file:PATH: a path may hold anything */
	json_str(f, c->topology);
	fprintf(f, ",\"nodes\":%u,"
		"\"push_threshold\":%g,\"lease_refresh_ms\":%u,"
		"\"refresh_ms\":%u,\"warmup_ms\":%u,\"expire_ms\":%u,"
		"\"digest_ms\":%u,\"demand_interval_ms\":%u,"
		"\"demand_alpha\":%g,\"demand_window_ms\":%u,"
		"\"demand_windows\":%u,\"demand_low\":%g,\"demand_high\":%g,"
		"\"demand_slack\":%g,\"announce_delay_ms\":%u,"
		"\"cpu_budget\":%g,\"max_flows\":%u,"
		"\"max_flows_per_src\":%u,\"table_cache_mb\":%u,"
		"\"round_worker_us\":%u},",
		d->topo->n,
		c->push_threshold, c->lease_refresh_ms, c->refresh_ms,
		c->warmup_ms, c->expire_ms, c->digest_ms, c->demand_interval_ms,
		c->demand_alpha,
		c->demand_window_ms, c->demand_windows, c->demand_low,
		c->demand_high, c->demand_slack, c->announce_delay_ms,
		c->cpu_budget, d->mx.max_flows, d->mx.max_per_src,
		c->table_cache_mb, c->round_worker_us);
	fprintf(f, "\"warming_up\":%s,",
		r2c2d_now() < d->warm_until_ns ? "true" : "false");
	fprintf(f, "\"kernel\":{\"family\":\"%s\",\"family_id\":%d,"
		"\"losses\":%llu,\"returns\":%llu,\"last_absence_ms\":%llu,"
		"\"event_rcvbuf\":%d,\"event_rcvbuf_forced\":%s},",
		d->fam_waiting ? "gone" : "up", d->nl.family,
		(unsigned long long)d->fam_losses,
		(unsigned long long)d->fam_returns,
		(unsigned long long)d->fam_back_ms, d->nl.ev_rcvbuf,
		d->nl.ev_rcvbuf_forced ? "true" : "false");
	fprintf(f, "\"matrix_changed_ns\":%llu,",
		(unsigned long long)d->mx_changed_ns);
	fprintf(f, "\"flows\":%u,\"own_flows\":%u,\"matrix_gen\":%llu,"
		"\"events\":{\"total\":%llu,\"starts\":%llu,\"finishes\":%llu,"
		"\"updates\":%llu,\"refreshes\":%llu,\"dup_starts\":%llu,"
		"\"unknown_finishes\":%llu,\"implicit_starts\":%llu,"
		"\"expired\":%llu,\"resync_removed\":%llu,\"invalid\":%llu,"
		"\"refused_full\":%llu,\"refused_quota\":%llu,"
		"\"overruns\":%llu,\"own_echoes\":%llu},",
		d->mx.n, d->mx.own, (unsigned long long)d->mx.gen,
		(unsigned long long)s->events, (unsigned long long)s->starts,
		(unsigned long long)s->finishes, (unsigned long long)s->updates,
		(unsigned long long)s->refreshes,
		(unsigned long long)s->dup_starts,
		(unsigned long long)s->unknown_finishes,
		(unsigned long long)s->implicit_starts,
		(unsigned long long)s->expired,
		(unsigned long long)s->resync_removed,
		(unsigned long long)s->invalid,
		(unsigned long long)s->refused_full,
		(unsigned long long)s->refused_quota,
		(unsigned long long)t->overruns,
		(unsigned long long)t->own_echoes);
	fprintf(f, "\"timings\":{\"ticks\":%llu,\"rounds\":%llu,"
		"\"rounds_on_demand\":%llu,\"rounds_deferred\":%llu,"
		"\"cpu_us\":%.0f,"
		"\"rounds_off_loop\":%llu,\"solving\":%s,"
		"\"round_flows_gone\":%llu,\"solve_us_last\":%.1f,"
		"\"budget_us\":%.1f,"
		"\"compute_us_last\":%.1f,\"compute_us_max\":%.1f,"
		"\"compute_us_mean\":%.1f,\"loop_us_last\":%.1f,"
		"\"loop_us_max\":%.1f,\"loop_us_mean\":%.1f,"
		"\"sample_us_last\":%.1f,\"samples\":%llu,\"pushes\":%llu,"
		"\"push_batches\":%llu,\"push_errors\":%llu,"
		"\"announces\":%llu,\"refreshes_sent\":%llu,\"resyncs\":%llu,"
		"\"alloc_errors\":%llu,\"skipped_flows\":%llu,"
		"\"ctl_requests\":%llu,\"ctl_timeouts\":%llu,"
		"\"ctl_denied\":%llu,\"ctl_busy\":%llu,"
		"\"nl_requests\":%llu,\"nl_request_errors\":%llu}",
		(unsigned long long)t->ticks, (unsigned long long)t->rounds,
		(unsigned long long)t->rounds_on_demand,
		(unsigned long long)t->rounds_deferred,
		process_cpu_us(),
		(unsigned long long)d->rd.off_loop,
		rd_busy(&d->rd) ? "true" : "false",
		(unsigned long long)d->rd.gone, us(d->rd.ns),
		d->budget.share > 0 ? (double)d->budget.tokens_ns / 1000 : 0,
		us(t->compute_ns_last), us(t->compute_ns_max),
		t->rounds ? us(t->compute_ns_sum) / (double)t->rounds : 0,
		us(t->loop_ns_last), us(t->loop_ns_max),
		t->ticks ? us(t->loop_ns_sum) / (double)t->ticks : 0,
		us(t->sample_ns_last), (unsigned long long)t->samples,
		(unsigned long long)t->pushes,
		(unsigned long long)t->push_batches,
		(unsigned long long)t->push_errors,
		(unsigned long long)t->announces,
		(unsigned long long)t->refreshes_sent,
		(unsigned long long)t->resyncs,
		(unsigned long long)t->alloc_errors,
		(unsigned long long)t->skipped_flows,
		(unsigned long long)t->ctl_requests,
		(unsigned long long)t->ctl_timeouts,
		(unsigned long long)t->ctl_denied,
		(unsigned long long)t->ctl_busy,
		(unsigned long long)d->nl.req_msgs,
		(unsigned long long)d->nl.req_errors);
	fputs(",\"state\":{\"file\":", f);
	json_str(f, d->conf.state_file);
	fprintf(f, ",\"saves\":%llu,\"errors\":%llu,\"restored\":%llu}",
		(unsigned long long)t->state_saves,
		(unsigned long long)t->state_errors,
		(unsigned long long)t->state_restored);
	fprintf(f, ",\"digest\":{\"interval_ms\":%u,\"sent\":%llu,"
		"\"heard\":%llu,\"matched\":%llu,\"mismatched\":%llu,"
		"\"asked\":%llu,\"asks_heard\":%llu,\"answered\":%llu,"
		"\"removed\":%llu,\"refused\":%llu,"
		"\"last_repair_ns\":%llu}",
		d->conf.digest_ms, (unsigned long long)d->dg.st.sent,
		(unsigned long long)d->dg.st.heard,
		(unsigned long long)d->dg.st.matched,
		(unsigned long long)d->dg.st.mismatched,
		(unsigned long long)d->dg.st.asked,
		(unsigned long long)d->dg.st.asks_heard,
		(unsigned long long)d->dg.st.answered,
		(unsigned long long)d->dg.st.removed,
		(unsigned long long)d->dg.st.refused,
		(unsigned long long)d->dg.repaired_ns);
	topo_show(d, f, r2c2d_now());
	ga_show(d, f, r2c2d_now());
	fputs("}\n", f);
}

static void matrix(struct r2c2d *d, FILE *f)
{
	uint64_t now;
	uint32_t i;

	/* no flow of our own: no rounds; compute what is printed */
	r2c2d_rates_fresh(d);
	now = r2c2d_now();
	fprintf(f, "{\"node\":%u,\"gen\":%llu,\"now_ns\":%llu,"
		"\"round_age_us\":%lld,\"flows\":[", d->node.addr,
		(unsigned long long)d->mx.gen, (unsigned long long)now,
		d->t.rounds ? (long long)((now - d->last_round_ns) / 1000) :
		-1LL);
	for (i = 0; i < d->mx.n; i++) {
		const struct mx_flow *x = &d->mx.f[i];

		fprintf(f, "%s{\"src\":%u,\"flow\":\"%08x\",\"dst\":%u,"
			"\"weight\":%u,\"prio\":%u,\"routing\":\"%s\","
			"\"demand_kbps\":%lld,\"rate\":%.0f,\"age_ms\":%llu,"
			"\"refresh_age_ms\":%llu,\"changed_age_us\":%llu",
			i ? "," : "", x->src, x->id, x->dst, x->weight, x->prio,
			r2c2_rproto_name(x->rproto),
			x->demand_kbps == R2C2_DEMAND_UNLIMITED ? -1LL :
			(long long)x->demand_kbps, x->rate,
			(unsigned long long)((now - x->born_ns) / 1000000),
			(unsigned long long)((now - x->refresh_ns) / 1000000),
			(unsigned long long)((now - x->changed_ns) / 1000));
		if (x->src == d->node.addr)
			fprintf(f, ",\"pushed\":%.0f,\"pushed_age_us\":%lld,"
				"\"demand_est\":%.0f,"
				"\"sent_rate\":%.0f,\"backlog_min\":%u",
				x->pushed, x->moved_ns ?
				(long long)((now - x->moved_ns) / 1000) : -1LL,
				x->dem.est, x->dem.rate, x->dem.wqmin);
		fputc('}', f);
	}
	fputs("]}\n", f);
}

/* the client's line, whatever it holds, as a JSON string (json_str()) */
static void error_answer(FILE *f, const char *msg)
{
	fputs("{\"error\":", f);
	json_str(f, msg);
	fputs("}\n", f);
}

static void unknown(FILE *f, const char *cmd)
{
	char msg[sizeof(((struct ctl_client *)0)->buf) + 64];

	snprintf(msg, sizeof(msg), "unknown command '%s' (show, matrix)", cmd);
	error_answer(f, msg);
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
	char msg[160];
	FILE *f;

	c->buf[strcspn(c->buf, "\r\n")] = 0;
	f = open_memstream(&c->out, &len);
	if (!f) {
		c->out = NULL;
		return;
	}
	if (c->uid != 0 && c->uid != geteuid()) {
		d->t.ctl_denied++;
		snprintf(msg, sizeof(msg),
			 "permission denied: uid %u; r2c2d answers root and its own user (uid %u)",
			 (unsigned int)c->uid, (unsigned int)geteuid());
		error_answer(f, msg);
	} else if (!strcmp(c->buf, "show")) {
		show(d, f);
	} else if (!strcmp(c->buf, "matrix")) {
		want = 256 + (size_t)d->mx.n * CTL_MATRIX_FLOW_BYTES;
		wait = pending(d, c);
		if (wait && wait + want > (d->ctl_pending_max ?
					   d->ctl_pending_max : CTL_PENDING_MAX)) {
			d->t.ctl_busy++;
			snprintf(msg, sizeof(msg),
				 "busy: %zu bytes of answers are not read yet; ask again",
				 wait);
			error_answer(f, msg);
		} else {
			matrix(d, f);
		}
	} else {
		unknown(f, c->buf);
	}
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
