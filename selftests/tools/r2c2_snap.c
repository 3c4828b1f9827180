// SPDX-License-Identifier: GPL-2.0
/*
 * r2c2_snap - read (or reset) the r2c2 counters of many network
 * namespaces in one go, for the selftests.
 *
 *   r2c2_snap [-p] NETNS...     one JSON line per namespace:
 *     {"ns":"r2c2-0","addr":0,"nodes":9,"links":36,"topology_ok":true,
 *      "tables_gen":7,"node":{"rx_packets":N,...},
 *      "ports":[{"port":0,"state":2,"nbr":1,"nbr_port":1,
 *                "stats":{...}},...]}          ("ports" with -p)
 *   r2c2_snap -r NETNS...       STATS_RESET in every namespace
 *
 * The node fields are those of NODE_GET ("topology_ok" null when no
 * topology is declared; the fields are absent when the namespace has no
 * node), a port's "state" is enum r2c2_port_state, "nbr" and "nbr_port"
 * are there when a neighbour is heard.
 *
 * NETNS is a name under /run/netns or a path. A socket is opened in every
 * namespace first; then all of them are read (or reset) back to back, so
 * that the snapshot is close to a consistent cut of the rack: a test that
 * adds up counters over all nodes (every broadcast accepted n - 1 times)
 * cannot do that from one `ip netns exec ... r2c2ctl` per node, which
 * takes seconds under TCG while link-state floods go on.
 *
 * Counters are printed by name (unknown, newer ones as "s<N>").
 * Exit status: 0, 1 when a namespace has no node or a request failed,
 * 2 on a usage or system error.
 */
#include <getopt.h>
#include <stdarg.h>
#include <inttypes.h>

#include "r2c2_nl.h"

#define WHO	"r2c2_snap"
#define MAX_NS	1024

struct buf {
	char *s;
	size_t len, cap;
};

static void put(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < b->cap - b->len) {
			b->len += (size_t)n;
			return;
		}
		b->cap = b->cap * 2 + 4096;
		b->s = realloc(b->s, b->cap);
		if (!b->s) {
			perror(WHO);
			exit(2);
		}
	}
}

static void put_stats(struct buf *b, const struct nlattr *nest)
{
	const struct nlattr *a;
	const char *sep = "";
	int rem;

	put(b, "{");
	nla_for_each_nested(a, (struct nlattr *)nest, rem) {
		unsigned int i = nla_type(a);
		uint64_t v;

		if (nla_len(a) == 8)
			v = nla_get_u64((struct nlattr *)a);
		else if (nla_len(a) == 4)
			v = nla_get_u32((struct nlattr *)a);
		else
			continue;
		if (i < sizeof(tnl_stat_names) / sizeof(tnl_stat_names[0]) &&
		    tnl_stat_names[i])
			put(b, "%s\"%s\":%" PRIu64, sep, tnl_stat_names[i], v);
		else
			put(b, "%s\"s%u\":%" PRIu64, sep, i, v);
		sep = ",";
	}
	put(b, "}");
}

static struct nlattr *attr(struct nlmsghdr *h, int type)
{
	return nla_find(genlmsg_attrdata(nlmsg_data(h), 0),
			genlmsg_attrlen(nlmsg_data(h), 0), type);
}

static void put_u32(struct buf *b, struct nlmsghdr *h, const char *key,
		    int type)
{
	struct nlattr *a = attr(h, type);

	if (a)
		put(b, ",\"%s\":%u", key, nla_get_u32(a));
}

static int info_cb(struct nlmsghdr *h, void *arg)
{
	struct buf *b = arg;
	struct nlattr *a = attr(h, R2C2_A_NODE_ADDR), *ok = attr(h, R2C2_A_TOPO_OK);

	if (!a)
		return 1;
	put(b, ",\"addr\":%u", nla_get_u16(a));
	put_u32(b, h, "nodes", R2C2_A_NODES);
	put_u32(b, h, "links", R2C2_A_LINKS);
	put(b, ",\"topology_ok\":%s", !ok ? "null" : nla_get_u8(ok) ? "true" : "false");
	put_u32(b, h, "tables_gen", R2C2_A_TABLES_GEN);
	return 0;
}

static int stats_cb(struct nlmsghdr *h, void *arg)
{
	struct buf *b = arg;
	struct nlattr *st = attr(h, R2C2_A_STATS);

	if (!st)
		return 1;
	put(b, ",\"node\":");
	put_stats(b, st);
	return 0;
}

struct ports {
	struct buf *b;
	int n;
};

static int port_cb(struct nlmsghdr *h, void *arg)
{
	struct ports *p = arg;
	struct nlattr *a = attr(h, R2C2_A_PORT), *st = attr(h, R2C2_A_STATS);
	struct nlattr *state = attr(h, R2C2_A_PORT_STATE);
	struct nlattr *nbr = attr(h, R2C2_A_NBR_ADDR), *np = attr(h, R2C2_A_NBR_PORT);

	if (!a || !st)
		return 1;
	put(p->b, "%s{\"port\":%u", p->n++ ? "," : "", nla_get_u8(a));
	if (state)
		put(p->b, ",\"state\":%u", nla_get_u8(state));
	if (nbr)
		put(p->b, ",\"nbr\":%u", nla_get_u16(nbr));
	if (np)
		put(p->b, ",\"nbr_port\":%u", nla_get_u8(np));
	put(p->b, ",\"stats\":");
	put_stats(p->b, st);
	put(p->b, "}");
	return 0;
}

int main(int argc, char **argv)
{
	static struct tnl socks[MAX_NS];
	struct tnl_reply r;
	struct buf out = { 0 };
	int ports = 0, reset = 0, opt, i, n, ret = 0;

	while ((opt = getopt(argc, argv, "prh")) != -1) {
		switch (opt) {
		case 'p': ports = 1; break;
		case 'r': reset = 1; break;
		default:
			fputs("usage: r2c2_snap [-p] NETNS...   (counters as JSON lines)\n"
			      "       r2c2_snap -r NETNS...     (reset them)\n", stderr);
			return 2;
		}
	}
	n = argc - optind;
	if (n <= 0 || n > MAX_NS) {
		fprintf(stderr, "%s: give 1..%d namespaces\n", WHO, MAX_NS);
		return 2;
	}
	/* sockets first: entering a namespace is the slow part */
	for (i = 0; i < n; i++) {
		int err = tnl_setns(argv[optind + i]);

		if (err) {
			fprintf(stderr, "%s: %s: %s\n", WHO, argv[optind + i],
				strerror(-err));
			return 2;
		}
		if (tnl_open(&socks[i], WHO))
			return 2;
	}
	for (i = 0; i < n; i++) {
		const char *ns = argv[optind + i];
		struct nl_msg *msg;
		struct ports p = { &out, 0 };

		msg = tnl_msg(&socks[i], reset ? R2C2_CMD_STATS_RESET :
			      R2C2_CMD_STATS_GET, 0);
		if (!msg) {
			fprintf(stderr, "%s: out of memory\n", WHO);
			return 2;
		}
		if (!reset) {
			struct nl_msg *info = tnl_msg(&socks[i], R2C2_CMD_NODE_GET, 0);

			if (!info) {
				fprintf(stderr, "%s: out of memory\n", WHO);
				return 2;
			}
			put(&out, "{\"ns\":\"%s\"", ns);
			/* no node in the namespace: ENODEV, no fields */
			if (tnl_talk(&socks[i], info, info_cb, &out, &r, WHO))
				return 2;
		}
		if (tnl_talk(&socks[i], msg, reset ? NULL : stats_cb, &out, &r, WHO))
			return 2;
		if (r.error) {
			fprintf(stderr, "%s: %s: %s: %s\n", WHO, ns,
				reset ? "stats reset" : "stats", r.extack[0] ?
				r.extack : strerror(r.error));
			ret = 1;
		}
		if (reset)
			continue;
		if (ports) {
			msg = tnl_msg(&socks[i], R2C2_CMD_PORT_GET, 1);
			if (!msg)
				return 2;
			put(&out, ",\"ports\":[");
			if (tnl_talk(&socks[i], msg, port_cb, &p, &r, WHO))
				return 2;
			if (r.error) {
				fprintf(stderr, "%s: %s: port show: %s\n", WHO, ns,
					r.extack[0] ? r.extack : strerror(r.error));
				ret = 1;
			}
			put(&out, "]");
		}
		put(&out, "}\n");
	}
	/* printed at the end, so that reading is not slowed by the output */
	if (out.len)
		fwrite(out.s, 1, out.len, stdout);
	for (i = 0; i < n; i++)
		tnl_close(&socks[i]);
	free(out.s);
	return ret;
}
