// SPDX-License-Identifier: GPL-2.0
/*
 * ctl.c - r2c2d's control channel: a UNIX stream socket (abstract by
 * default, "@r2c2d", hence one per network namespace). A client writes
 * one command line, "show" or "matrix", and reads one JSON object; the
 * daemon closes the connection. r2c2ctl daemon show / matrix show use it.
 */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
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

void ctl_close(struct r2c2d *d)
{
	if (d->ctl_fd >= 0)
		close(d->ctl_fd);
	if (d->conf.control[0] != '@')
		unlink(d->conf.control);
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
	fprintf(f, "\",\"runs\":%llu,\"adopted\":%llu,\"skipped\":%llu,"
		"\"batches_sent\":%llu,\"entries_sent\":%llu,"
		"\"send_errors\":%llu,\"routes_heard\":%llu,"
		"\"entries_heard\":%llu,\"entries_applied\":%llu",
		(unsigned long long)s->runs, (unsigned long long)s->adopted,
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

static void show(struct r2c2d *d, FILE *f)
{
	const struct r2c2d_conf *c = &d->conf;
	const struct r2c2d_timing *t = &d->t;
	const struct mx_stats *s = &d->mx.st;
	uint64_t up = r2c2d_now() - d->start_ns;
	uint32_t i, own = 0;

	for (i = 0; i < d->mx.n; i++)
		own += d->mx.f[i].src == d->node.addr;
	fprintf(f, "{\"node\":%u,\"pid\":%d,\"uptime_ms\":%llu,"
		"\"config\":{\"rho_us\":%u,\"policy\":\"%s\",\"headroom\":%g,"
		"\"link_capacity\":%.0f,\"topology\":\"%s\",\"nodes\":%u,"
		"\"push_threshold\":%g,\"lease_refresh_ms\":%u,"
		"\"refresh_ms\":%u,\"expire_ms\":%u,\"demand_interval_ms\":%u,"
		"\"demand_alpha\":%g,\"announce_delay_ms\":%u},",
		d->node.addr, (int)getpid(), (unsigned long long)(up / 1000000),
		c->rho_us, c->policy == R2C2_POL_PROPFAIR ? "propfair" : "maxmin",
		c->headroom, c->link_capacity, c->topology, d->topo->n,
		c->push_threshold, c->lease_refresh_ms, c->refresh_ms,
		c->expire_ms, c->demand_interval_ms, c->demand_alpha,
		c->announce_delay_ms);
	fprintf(f, "\"flows\":%u,\"own_flows\":%u,\"matrix_gen\":%llu,"
		"\"events\":{\"total\":%llu,\"starts\":%llu,\"finishes\":%llu,"
		"\"updates\":%llu,\"refreshes\":%llu,\"dup_starts\":%llu,"
		"\"unknown_finishes\":%llu,\"implicit_starts\":%llu,"
		"\"expired\":%llu,\"resync_removed\":%llu,\"invalid\":%llu,"
		"\"overruns\":%llu},",
		d->mx.n, own, (unsigned long long)d->mx.gen,
		(unsigned long long)s->events, (unsigned long long)s->starts,
		(unsigned long long)s->finishes, (unsigned long long)s->updates,
		(unsigned long long)s->refreshes,
		(unsigned long long)s->dup_starts,
		(unsigned long long)s->unknown_finishes,
		(unsigned long long)s->implicit_starts,
		(unsigned long long)s->expired,
		(unsigned long long)s->resync_removed,
		(unsigned long long)s->invalid,
		(unsigned long long)t->overruns);
	fprintf(f, "\"timings\":{\"ticks\":%llu,\"rounds\":%llu,"
		"\"compute_us_last\":%.1f,\"compute_us_max\":%.1f,"
		"\"compute_us_mean\":%.1f,\"loop_us_last\":%.1f,"
		"\"loop_us_max\":%.1f,\"loop_us_mean\":%.1f,"
		"\"sample_us_last\":%.1f,\"samples\":%llu,\"pushes\":%llu,"
		"\"push_batches\":%llu,\"push_errors\":%llu,"
		"\"announces\":%llu,\"refreshes_sent\":%llu,\"resyncs\":%llu,"
		"\"alloc_errors\":%llu,\"skipped_flows\":%llu}",
		(unsigned long long)t->ticks, (unsigned long long)t->rounds,
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
		(unsigned long long)t->skipped_flows);
	ga_show(d, f, r2c2d_now());
	fputs("}\n", f);
}

static void matrix(struct r2c2d *d, FILE *f)
{
	uint64_t now = r2c2d_now();
	uint32_t i;

	fprintf(f, "{\"node\":%u,\"gen\":%llu,\"flows\":[", d->node.addr,
		(unsigned long long)d->mx.gen);
	for (i = 0; i < d->mx.n; i++) {
		const struct mx_flow *x = &d->mx.f[i];

		fprintf(f, "%s{\"src\":%u,\"flow\":\"%08x\",\"dst\":%u,"
			"\"weight\":%u,\"prio\":%u,\"routing\":\"%s\","
			"\"demand_kbps\":%lld,\"rate\":%.0f,\"age_ms\":%llu,"
			"\"refresh_age_ms\":%llu",
			i ? "," : "", x->src, x->id, x->dst, x->weight, x->prio,
			r2c2_rproto_name(x->rproto),
			x->demand_kbps == R2C2_DEMAND_UNLIMITED ? -1LL :
			(long long)x->demand_kbps, x->rate,
			(unsigned long long)((now - x->born_ns) / 1000000),
			(unsigned long long)((now - x->refresh_ns) / 1000000));
		if (x->src == d->node.addr)
			fprintf(f, ",\"pushed\":%.0f,\"demand_est\":%.0f",
				x->pushed, x->est);
		fputc('}', f);
	}
	fputs("]}\n", f);
}

void ctl_serve(struct r2c2d *d)
{
	char buf[64] = "";
	struct pollfd p;
	ssize_t n;
	FILE *f;
	int fd;

	fd = accept4(d->ctl_fd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		return;
	/* the command comes with the connection; wait for it briefly */
	p.fd = fd;
	p.events = POLLIN;
	if (poll(&p, 1, 100) <= 0) {
		close(fd);
		return;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0) {
		close(fd);
		return;
	}
	buf[n] = 0;
	buf[strcspn(buf, "\r\n")] = 0;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return;
	}
	if (!strcmp(buf, "show"))
		show(d, f);
	else if (!strcmp(buf, "matrix"))
		matrix(d, f);
	else
		fprintf(f, "{\"error\":\"unknown command '%s' (show, matrix)\"}\n",
			buf);
	fclose(f);
}
