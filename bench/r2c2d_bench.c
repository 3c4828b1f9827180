// SPDX-License-Identifier: GPL-2.0
/*
 * r2c2d_bench - the in-VM half of bench/r2c2d.sh (issue 5): inject flow
 * events into many namespaces of a torus and read many r2c2d at once.
 *
 *   r2c2d_bench events [-c COUNT] [-f FIRST] [-t TYPE] [-n NODES]
 *                      [-r PER_S] [-L LIVE] NS...
 *	COUNT events (default 1) per namespace, flow ids FIRST.. (FIRST +
 *	ns index * COUNT + i), sent through one generic netlink socket per
 *	namespace (FLOW_EVENT requests: r2c2.ko broadcasts them), the
 *	namespaces taken round robin. Source = the node of the namespace
 *	(from its name r2c2-ID), destination = a random other node of
 *	NODES (default 64). TYPE start|finish|update|refresh (start).
 *	-r paces the events (PER_S in all); -L LIVE (churn): event i starts
 *	flow FIRST + i and finishes flow FIRST + i - LIVE, so LIVE flows
 *	stay alive (two events each step; COUNT steps); with -F FFIRST the
 *	first LIVE steps finish FFIRST + ns index * LIVE + i instead (the
 *	flows of an earlier "events -c LIVE -f FFIRST" run).
 *	Prints: "events N errors E first_ns T0 last_ns T1 wall_ms W"
 *	(CLOCK_MONOTONIC, the same clock as the daemons' in one kernel).
 *
 *   r2c2d_bench matrix [-l LAST_NS] [-w TIMEOUT_S] [-e FLOWS] NS...
 *	Reads every namespace's r2c2d (control socket @r2c2d: "show" and
 *	"matrix") back to back. With -w, again every 50 ms until every
 *	daemon is complete or the timeout: a daemon is complete when its
 *	matrix holds every flow of the union of all matrices whose source
 *	is not its own node (own flows come from sch_r2c2, not from the
 *	daemon's echo: a daemon never holds the flows it injected itself)
 *	with the same fields (dst, weight, prio, routing, demand), and -e:
 *	the union has FLOWS flows. Per daemon: "learnt" = the time it
 *	created its newest flow (query time - age_ms, 1 ms resolution),
 *	RSS (VmRSS of the pid "show" gives), compute timings. Prints one
 *	line per daemon with -v and a summary:
 *	"daemons D complete C union U identical yes|no
 *	 learnt_max_ms_after_last X learnt_p50 .. rss_kb_median .."
 *	Exit status 0 when every daemon is complete.
 *
 *   r2c2d_bench qflow [-i INTERVAL_US] [-T SECONDS] NS...
 *	sch_r2c2's flows of every namespace every INTERVAL_US, one line per
 *	flow and sample: "t_ms ns flow rate_bps state bytes backlog".
 *
 * Build on the host before bench/r2c2d.sh (which runs in the guest):
 *   cc -O2 -std=gnu11 -D_GNU_SOURCE -I include -I include/uapi \
 *      $(pkg-config --cflags libnl-genl-3.0) -o bench/r2c2d_bench \
 *      bench/r2c2d_bench.c $(pkg-config --libs libnl-genl-3.0)
 */
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "../selftests/tools/r2c2_nl.h"

#define WHO	"r2c2d_bench"
#define MAXNS	1024

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	uint64_t z = (rnd_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned int ns_node(const char *ns)
{
	const char *p = strrchr(ns, '-');

	return p ? (unsigned int)strtoul(p + 1, NULL, 10) : 0;
}

static int ns_fd(const char *ns)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "/run/netns/%s", ns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, WHO ": %s: %s\n", path, strerror(errno));
		exit(2);
	}
	return fd;
}

/* ---------------------------------------------------------------- events */

static int send_evt(struct tnl *t, uint32_t id, uint16_t dst, uint8_t type)
{
	struct nl_msg *msg = tnl_msg(t, R2C2_CMD_FLOW_EVENT, 0);
	struct tnl_reply r;

	if (!msg || nla_put_u32(msg, R2C2_A_FLOW_ID, id) ||
	    nla_put_u16(msg, R2C2_A_DST, dst) ||
	    nla_put_u8(msg, R2C2_A_FLOW_EVT, type) ||
	    nla_put_u8(msg, R2C2_A_WEIGHT, 1)) {
		nlmsg_free(msg);
		return -1;
	}
	if (tnl_talk(t, msg, NULL, NULL, &r, WHO) || r.error)
		return -1;
	return 0;
}

static int cmd_events(int argc, char **argv)
{
	unsigned long count = 1, first = 0x10000, nodes = 64, live = 0;
	unsigned long ffirst = 0;
	double per_s = 0;
	uint8_t type = R2C2_FE_START;
	static struct tnl t[MAXNS];
	unsigned int src[MAXNS];
	uint64_t t0 = 0, t1 = 0, start;
	unsigned long sent = 0, errors = 0, i;
	int nns, opt, k, self;

	while ((opt = getopt(argc, argv, "c:f:t:n:r:L:F:")) != -1) {
		switch (opt) {
		case 'F': ffirst = strtoul(optarg, NULL, 0); break;
		case 'c': count = strtoul(optarg, NULL, 0); break;
		case 'f': first = strtoul(optarg, NULL, 0); break;
		case 'n': nodes = strtoul(optarg, NULL, 0); break;
		case 'r': per_s = atof(optarg); break;
		case 'L': live = strtoul(optarg, NULL, 0); break;
		case 't':
			type = !strcmp(optarg, "finish") ? R2C2_FE_FINISH :
			       !strcmp(optarg, "update") ? R2C2_FE_UPDATE :
			       !strcmp(optarg, "refresh") ? R2C2_FE_REFRESH :
			       R2C2_FE_START;
			break;
		default:
			return 2;
		}
	}
	nns = argc - optind;
	if (nns < 1 || nns > MAXNS || nodes < 2) {
		fprintf(stderr, WHO ": events: namespaces (1..%d) and -n >= 2 needed\n", MAXNS);
		return 2;
	}
	self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	for (k = 0; k < nns; k++) {
		int fd = ns_fd(argv[optind + k]);

		if (setns(fd, CLONE_NEWNET) || tnl_open(&t[k], WHO))
			return 2;
		close(fd);
		src[k] = ns_node(argv[optind + k]);
	}
	setns(self, CLONE_NEWNET);
	start = now_ns();
	for (i = 0; i < count; i++) {
		for (k = 0; k < nns; k++) {
			uint32_t id = (uint32_t)(first + (unsigned long)k * count + i);
			uint16_t dst;
			int r;

			do
				dst = (uint16_t)(rnd() % nodes);
			while (dst == src[k]);
			if (per_s > 0) {
				uint64_t due = start + (uint64_t)((double)sent / per_s * 1e9);

				while (now_ns() < due) {
					struct timespec ts = { 0, 100000 };

					nanosleep(&ts, NULL);
				}
			}
			if (live) {
				/* churn: finish the flow LIVE steps older */
				if (ffirst || i >= live) {
					uint32_t old = ffirst && i < live ?
						(uint32_t)(ffirst + (unsigned long)k * live + i) :
						id - (uint32_t)live;

					r = send_evt(&t[k], old, 1, R2C2_FE_FINISH);
					sent++;
					errors += r != 0;
				}
				r = send_evt(&t[k], id, dst, R2C2_FE_START);
			} else {
				r = send_evt(&t[k], id, dst, type);
			}
			if (!t0)
				t0 = now_ns();
			t1 = now_ns();
			sent++;
			errors += r != 0;
		}
	}
	printf("events %lu errors %lu first_ns %" PRIu64 " last_ns %" PRIu64
	       " wall_ms %.1f\n", sent, errors, t0, t1, (double)(t1 - start) / 1e6);
	return errors ? 1 : 0;
}

/* ---------------------------------------------------------------- matrix */

struct flow {
	uint32_t src, id, dst, weight, prio;
	char routing[8];
	long long demand;
	uint64_t born;		/* CLOCK_MONOTONIC, from age_ms */
};

struct dmn {
	const char *ns;
	int fd;
	unsigned int node;
	int pid;
	struct flow *f;
	size_t n;
	uint64_t learnt;	/* newest born */
	double compute_mean, compute_max, loop_mean;
	unsigned long long rounds, ticks, events, overruns;
	long rss_kb;
	bool ok, complete;
};

static char *ask(int nsfd, const char *cmd, size_t *len)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	int s;

	if (!buf || setns(nsfd, CLONE_NEWNET))
		goto fail;
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		goto fail;
	memcpy(sa.sun_path + 1, "r2c2d", 5);
	if (connect(s, (struct sockaddr *)&sa,
		    (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 6)) ||
	    send(s, cmd, strlen(cmd), MSG_NOSIGNAL) != (ssize_t)strlen(cmd)) {
		close(s);
		goto fail;
	}
	for (;;) {
		ssize_t r;

		if (n + 1 >= cap) {
			char *b = realloc(buf, cap *= 2);

			if (!b) {
				close(s);
				goto fail;
			}
			buf = b;
		}
		r = read(s, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(s);
	buf[n] = 0;
	*len = n;
	return buf;
fail:
	free(buf);
	return NULL;
}

static double jnum(const char *s, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(s, pat);
	return p ? atof(p + strlen(pat)) : -1;
}

static long rss_kb(int pid)
{
	char path[64], line[256];
	long kb = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

static int read_daemon(struct dmn *d)
{
	size_t len, cap = 0;
	char *s, *p;
	uint64_t q;

	d->ok = false;
	d->n = 0;
	/* the daemon waits 100 ms for the command: a loaded guest misses it */
	for (int i = 0; i < 5 && !(s = ask(d->fd, "show\n", &len)); i++)
		usleep(20000);
	if (!s)
		return -1;
	d->pid = (int)jnum(s, "pid");
	d->node = (unsigned int)jnum(s, "node");
	d->compute_mean = jnum(s, "compute_us_mean");
	d->compute_max = jnum(s, "compute_us_max");
	d->loop_mean = jnum(s, "loop_us_mean");
	d->rounds = (unsigned long long)jnum(s, "rounds");
	d->ticks = (unsigned long long)jnum(s, "ticks");
	d->events = (unsigned long long)jnum(s, "total");
	d->overruns = (unsigned long long)jnum(s, "overruns");
	free(s);
	d->rss_kb = rss_kb(d->pid);
	for (int i = 0; i < 5 && !(s = ask(d->fd, "matrix\n", &len)); i++)
		usleep(20000);
	q = now_ns();
	if (!s)
		return -1;
	d->learnt = 0;
	for (p = strstr(s, "{\"src\":"); p; p = strstr(p + 1, "{\"src\":")) {
		struct flow f = { 0 };
		unsigned long long age;
		double rate;

		if (sscanf(p, "{\"src\":%u,\"flow\":\"%x\",\"dst\":%u,\"weight\":%u,"
			   "\"prio\":%u,\"routing\":\"%7[a-z]\",\"demand_kbps\":%lld,"
			   "\"rate\":%lf,\"age_ms\":%llu",
			   &f.src, &f.id, &f.dst, &f.weight, &f.prio, f.routing,
			   &f.demand, &rate, &age) != 9)
			continue;
		f.born = q - age * 1000000ull;
		if (f.born > d->learnt)
			d->learnt = f.born;
		if (d->n == cap) {
			struct flow *x = realloc(d->f, (cap = cap ? cap * 2 : 256) * sizeof(*x));

			if (!x) {
				free(s);
				return -1;
			}
			d->f = x;
		}
		d->f[d->n++] = f;
	}
	free(s);
	d->ok = true;
	return 0;
}

static int fcmp(const void *a, const void *b)
{
	const struct flow *x = a, *y = b;
	int c;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	if (x->dst != y->dst)
		return x->dst < y->dst ? -1 : 1;
	if (x->weight != y->weight)
		return x->weight < y->weight ? -1 : 1;
	if (x->prio != y->prio)
		return x->prio < y->prio ? -1 : 1;
	if (x->demand != y->demand)
		return x->demand < y->demand ? -1 : 1;
	c = strcmp(x->routing, y->routing);
	return c;
}

static int dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double pct(double *v, size_t n, double p)
{
	if (!n)
		return -1;
	qsort(v, n, sizeof(*v), dcmp);
	return v[(size_t)(p * (double)(n - 1) + 0.5)];
}

/* union of every matrix (distinct tuples), then completeness of each */
static size_t check(struct dmn *d, int nd, bool *identical)
{
	size_t total = 0, u = 0, i;
	struct flow *all;
	int k;

	for (k = 0; k < nd; k++)
		total += d[k].n;
	all = malloc((total + 1) * sizeof(*all));
	for (k = 0; k < nd; k++) {
		memcpy(all + u, d[k].f, d[k].n * sizeof(*all));
		u += d[k].n;
	}
	qsort(all, u, sizeof(*all), fcmp);
	for (i = 0, total = 0; i < u; i++)
		if (!total || fcmp(&all[i], &all[total - 1]))
			all[total++] = all[i];
	/* two tuples with one (src, id): the daemons disagree on a field */
	*identical = true;
	for (i = 1; i < total; i++)
		if (all[i].src == all[i - 1].src && all[i].id == all[i - 1].id)
			*identical = false;
	for (k = 0; k < nd; k++) {
		size_t want = 0, j = 0;

		if (!d[k].ok) {
			d[k].complete = false;
			continue;
		}
		qsort(d[k].f, d[k].n, sizeof(*d[k].f), fcmp);
		d[k].complete = true;
		for (i = 0; i < total; i++) {
			if (all[i].src == d[k].node)
				continue;
			want++;
			while (j < d[k].n && fcmp(&d[k].f[j], &all[i]) < 0)
				j++;
			if (j >= d[k].n || fcmp(&d[k].f[j], &all[i]))
				d[k].complete = false;
		}
		/* no more than the union minus its own */
		if (d[k].complete) {
			size_t others = 0;

			for (j = 0; j < d[k].n; j++)
				others += d[k].f[j].src != d[k].node;
			d[k].complete = others == want;
		}
	}
	free(all);
	return total;
}

static int cmd_matrix(int argc, char **argv)
{
	static struct dmn d[MAXNS];
	double wait_s = 0, *v;
	uint64_t last = 0, deadline, q0, q1;
	long expect = -1;
	size_t uni = 0;
	bool ident = false, verbose = false;
	int nd, k, opt, complete, self, rounds = 0;

	while ((opt = getopt(argc, argv, "l:w:e:v")) != -1) {
		switch (opt) {
		case 'l': last = strtoull(optarg, NULL, 0); break;
		case 'w': wait_s = atof(optarg); break;
		case 'e': expect = atol(optarg); break;
		case 'v': verbose = true; break;
		default: return 2;
		}
	}
	nd = argc - optind;
	if (nd < 1 || nd > MAXNS)
		return 2;
	self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	for (k = 0; k < nd; k++) {
		d[k].ns = argv[optind + k];
		d[k].fd = ns_fd(d[k].ns);
	}
	deadline = now_ns() + (uint64_t)(wait_s * 1e9);
	for (;;) {
		q0 = now_ns();
		for (k = 0; k < nd; k++)
			read_daemon(&d[k]);
		q1 = now_ns();
		rounds++;
		uni = check(d, nd, &ident);
		complete = 0;
		for (k = 0; k < nd; k++)
			complete += d[k].complete;
		if ((complete == nd && ident && (expect < 0 || (long)uni == expect)) ||
		    now_ns() >= deadline)
			break;
		usleep(50000);
	}
	setns(self, CLONE_NEWNET);
	v = calloc((size_t)nd, sizeof(*v));
	if (verbose)
		for (k = 0; k < nd; k++)
			printf("daemon %s node %u ok %d flows %zu complete %d learnt_ms %.1f rss_kb %ld compute_us_mean %.1f max %.1f loop_us_mean %.1f rounds %llu ticks %llu events %llu overruns %llu\n",
			       d[k].ns, d[k].node, d[k].ok, d[k].n, d[k].complete,
			       last && d[k].learnt ? ((double)d[k].learnt - (double)last) / 1e6 : -1,
			       d[k].rss_kb, d[k].compute_mean, d[k].compute_max,
			       d[k].loop_mean, d[k].rounds, d[k].ticks, d[k].events,
			       d[k].overruns);
	printf("daemons %d complete %d union %zu identical %s polls %d read_all_ms %.1f",
	       nd, complete, uni, ident ? "yes" : "no", rounds,
	       (double)(q1 - q0) / 1e6);
	if (last) {
		int m = 0;

		for (k = 0; k < nd; k++)
			if (d[k].ok && d[k].learnt)
				v[m++] = ((double)d[k].learnt - (double)last) / 1e6;
		printf(" learnt_after_last_ms p50 %.1f p90 %.1f max %.1f",
		       pct(v, (size_t)m, 0.5), pct(v, (size_t)m, 0.9),
		       pct(v, (size_t)m, 1.0));
	}
	for (k = 0; k < nd; k++)
		v[k] = (double)d[k].rss_kb;
	printf(" rss_kb p50 %.0f max %.0f", pct(v, (size_t)nd, 0.5),
	       pct(v, (size_t)nd, 1.0));
	for (k = 0; k < nd; k++)
		v[k] = d[k].compute_mean;
	printf(" compute_us_mean p50 %.1f max %.1f\n", pct(v, (size_t)nd, 0.5),
	       pct(v, (size_t)nd, 1.0));
	return complete == nd && ident && (expect < 0 || (long)uni == expect) ? 0 : 1;
}

/* ---------------------------------------------------------------- qflow */

struct qf_arg {
	const char *ns;
	uint64_t t;
};

static int qflow_msg(struct nlmsghdr *h, void *arg)
{
	struct qf_arg *a = arg;
	struct nlattr *tb[R2C2_A_MAX + 1];

	if (nlmsg_parse(h, GENL_HDRLEN, tb, R2C2_A_MAX, NULL) < 0 ||
	    !tb[R2C2_A_FLOW_ID])
		return 0;
	printf("%.3f %s %08x %" PRIu64 " %u %" PRIu64 " %u\n", (double)a->t / 1e6,
	       a->ns, nla_get_u32(tb[R2C2_A_FLOW_ID]),
	       tb[R2C2_A_RATE] ? (uint64_t)nla_get_u64(tb[R2C2_A_RATE]) : 0,
	       tb[R2C2_A_RATE_STATE] ? nla_get_u8(tb[R2C2_A_RATE_STATE]) : 0,
	       tb[R2C2_A_BYTES] ? (uint64_t)nla_get_u64(tb[R2C2_A_BYTES]) : 0,
	       tb[R2C2_A_BACKLOG] ? nla_get_u32(tb[R2C2_A_BACKLOG]) : 0);
	return 0;
}

/*
 *   r2c2d_bench qflow [-i INTERVAL_US] [-T SECONDS] NS...
 *	Dumps sch_r2c2's flows (QFLOW_GET) of every namespace every
 *	INTERVAL_US (2000) for SECONDS (10): one line per flow and sample,
 *	"t_ms ns flow rate_bps state bytes backlog", t in ms of
 *	CLOCK_MONOTONIC.
 */
static int cmd_qflow(int argc, char **argv)
{
	static struct tnl t[MAXNS];
	double iv_us = 2000, secs = 10;
	uint64_t end, next;
	int nns, k, opt, self;

	while ((opt = getopt(argc, argv, "i:T:")) != -1) {
		switch (opt) {
		case 'i': iv_us = atof(optarg); break;
		case 'T': secs = atof(optarg); break;
		default: return 2;
		}
	}
	nns = argc - optind;
	if (nns < 1 || nns > MAXNS)
		return 2;
	self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	for (k = 0; k < nns; k++) {
		int fd = ns_fd(argv[optind + k]);

		if (setns(fd, CLONE_NEWNET) || tnl_open(&t[k], WHO))
			return 2;
		close(fd);
	}
	setns(self, CLONE_NEWNET);
	next = now_ns();
	end = next + (uint64_t)(secs * 1e9);
	while (now_ns() < end) {
		for (k = 0; k < nns; k++) {
			struct qf_arg a = { argv[optind + k], now_ns() };
			struct nl_msg *msg = tnl_msg(&t[k], R2C2_CMD_QFLOW_GET, 1);
			struct tnl_reply r;

			if (msg)
				tnl_talk(&t[k], msg, qflow_msg, &a, &r, WHO);
		}
		next += (uint64_t)(iv_us * 1e3);
		while (now_ns() < next) {
			struct timespec ts = { 0, 100000 };

			nanosleep(&ts, NULL);
		}
	}
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	signal(SIGPIPE, SIG_IGN);
	if (argc >= 2 && !strcmp(argv[1], "events"))
		return cmd_events(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "qflow"))
		return cmd_qflow(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "matrix"))
		return cmd_matrix(argc - 1, argv + 1);
	fprintf(stderr, "usage: " WHO " events|matrix [options] NS... (see the source's head)\n");
	return 2;
}
