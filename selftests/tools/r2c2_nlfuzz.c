// SPDX-License-Identifier: GPL-2.0
/*
 * r2c2_nlfuzz - a fuzzer for the "r2c2" generic netlink family. It sends
 * many requests, every command (and unknown ones), with random, missing,
 * oversized and out-of-range attributes, and checks each answer:
 *
 *   - the kernel answers every request (an ack, an error, or a dump
 *     ending in NLMSG_DONE) within 5 s;
 *   - every error carries an extended ack message (NLMSGERR_ATTR_MSG),
 *     except those the genetlink core gives without one by design: EPERM
 *     for an admin command without CAP_NET_ADMIN, EOPNOTSUPP for an
 *     unknown command, a do/dump mismatch or an event-only command; and
 *     ENOMEM, ENOBUFS;
 *   - a refused request changed nothing: the node's configuration
 *     (NODE_GET but the graph's numbers), its ports (PORT_GET: number,
 *     device), the traffic classes (CLASS_GET but CLASS_FLOWS), the rack
 *     key (KEY_GET: id, overlap, the previous key's id, which may only
 *     have run out meanwhile) are the same before and after it, and no
 *     sender flow (FLOW_GET) was added or changed;
 *   - with -U (the caller lacks CAP_NET_ADMIN over the namespace), every
 *     admin command (NODE_SET, PORT_ADD, KEY_SET, KEY_DEL, ...) sent as
 *     the family defines it, with a clean header (no odd nlmsg_flags, a
 *     zero genlmsghdr.reserved: the core refuses those first, EINVAL),
 *     is refused with EPERM.
 *
 *   r2c2_nlfuzz [-n NETNS] [-S SEED] [-c COUNT] [-f FIRST] [-a ADDR]
 *               [-p PORT:IFNAME]... [-U] [-v]
 *     -n NETNS  send from this network namespace
 *     -S SEED   PRNG seed (default: from the clock; printed)
 *     -c COUNT  requests (default 2000)
 *     -f FIRST  generate requests 0..FIRST-1 but send from FIRST on
 *     -a ADDR   the node's address: if an accepted request deleted the
 *               node (NODE_DEL), it is set up again with this address
 *               and the -p ports, so that the rest of the run has a node
 *     -p P:DEV  a port to restore (with -a)
 *     -U        unprivileged: admin commands must get EPERM
 *     -v        one line per request: index, command, errno, extack, hex
 *
 * At the end one JSON line on stdout: {"seed":..,"sent":..,"ok":..,
 * "errors":{ERRNO:N,..},"no_extack":N,"exempt":N,"changed":N,
 * "timeouts":N,"restores":N,"not_eperm":N,"by_cmd":{..}}, and every
 * failure on stderr
 * with the request in hex (replay: -S SEED -f INDEX -c 1 -v).
 * Exit status: 0 no failure, 1 a failure, 2 usage or system error.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <net/if.h>
#include <sys/socket.h>
#include <linux/r2c2.h>

#define WHO		"r2c2_nlfuzz"
#define BUFSZ		(256 * 1024)
#define REQSZ		8192
#define MAX_PORTS_RESTORE 8

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

static int fd = -1;
static uint16_t family;
static uint32_t seqno = 1;
static unsigned char rbuf[BUFSZ];

/* ------------------------------------------------------------------ */
/* PRNG: xorshift64*                                                   */

static uint64_t rng_state;

static uint64_t rnd64(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

static uint32_t rnd(uint32_t n)
{
	return n ? (uint32_t)((rnd64() >> 32) % n) : 0;
}

/* ------------------------------------------------------------------ */
/* the request being built                                             */

struct req {
	unsigned char b[REQSZ];
	size_t len;
};

static struct nlattr *put_attr(struct req *r, uint16_t type, const void *data,
			       size_t dlen)
{
	struct nlattr *a;
	size_t tot = NLA_HDRLEN + dlen;

	if (r->len + NLA_ALIGN(tot) > sizeof(r->b))
		return NULL;
	a = (struct nlattr *)(r->b + r->len);
	a->nla_type = type;
	a->nla_len = (uint16_t)tot;
	if (dlen)
		memcpy(a + 1, data, dlen);
	memset(r->b + r->len + tot, 0, NLA_ALIGN(tot) - tot);
	r->len += NLA_ALIGN(tot);
	return a;
}

static void put_uint(struct req *r, uint16_t type, uint64_t v, int size)
{
	uint8_t u8 = (uint8_t)v;
	uint16_t u16 = (uint16_t)v;
	uint32_t u32 = (uint32_t)v;

	switch (size) {
	case 1: put_attr(r, type, &u8, 1); break;
	case 2: put_attr(r, type, &u16, 2); break;
	case 4: put_attr(r, type, &u32, 4); break;
	default: put_attr(r, type, &v, 8); break;
	}
}

static size_t nest_start(struct req *r, uint16_t type)
{
	size_t off = r->len;

	if (!put_attr(r, type, NULL, 0))
		return (size_t)-1;
	return off;
}

static void nest_end(struct req *r, size_t off)
{
	if (off != (size_t)-1)
		((struct nlattr *)(r->b + off))->nla_len = (uint16_t)(r->len - off);
}

/* ------------------------------------------------------------------ */
/* what the family accepts (kmod/policy.c), for valid and edge values  */

enum kind { K_NONE, K_U8, K_U16, K_U32, K_U64, K_STR, K_NEST, K_BIN };

struct apol {
	enum kind kind;
	uint64_t min, max;
};

static const struct apol pol[R2C2_A_MAX + 1] = {
	[R2C2_A_NODE_ADDR] = { K_U16, 0, 0xfffe },
	[R2C2_A_IFNAME] = { K_STR, 0, 15 },
	[R2C2_A_IFINDEX] = { K_U32, 0, 0xffffffff },
	[R2C2_A_PORT] = { K_U8, 0, 7 },
	[R2C2_A_PORT_IFNAME] = { K_STR, 0, 15 },
	[R2C2_A_PORT_STATE] = { K_U8, 0, 2 },
	[R2C2_A_NBR_ADDR] = { K_U16, 0, 0xfffe },
	[R2C2_A_NBR_PORT] = { K_U8, 0, 7 },
	[R2C2_A_NBR_MAC] = { K_BIN, 6, 6 },
	[R2C2_A_HELLO_MS] = { K_U32, 10, 60000 },
	[R2C2_A_TREES] = { K_U8, 1, 16 },
	[R2C2_A_RPROTO] = { K_U8, 0, 2 },
	[R2C2_A_TOPO_DIMS] = { K_NEST },
	[R2C2_A_TOPO_DIM] = { K_U8, 2, 255 },
	[R2C2_A_NODES] = { K_U32, 0, 0xffffffff },
	[R2C2_A_LINKS] = { K_U32, 0, 0xffffffff },
	[R2C2_A_TOPO_OK] = { K_U8, 0, 1 },
	[R2C2_A_TABLES_GEN] = { K_U32, 0, 0xffffffff },
	[R2C2_A_STATS] = { K_NEST },
	[R2C2_A_TOPO_NODE] = { K_NEST },
	[R2C2_A_TOPO_LINK] = { K_NEST },
	[R2C2_A_TREE_SRC] = { K_U16, 0, 0xfffe },
	[R2C2_A_TREE_ID] = { K_U8, 0, 15 },
	[R2C2_A_TREE_PORTS] = { K_U8, 0, 0xff },
	[R2C2_A_TREE_PARENT] = { K_U8, 0, 0xff },
	[R2C2_A_DST] = { K_U16, 0, 0xfffe },
	[R2C2_A_ROUTE] = { K_BIN, 0, 42 },
	[R2C2_A_FLOW_ID] = { K_U32, 0, 0xffffffff },
	[R2C2_A_FLOW_SRC] = { K_U16, 0, 0xfffe },
	[R2C2_A_WEIGHT] = { K_U8, 1, 255 },
	[R2C2_A_PRIO] = { K_U8, 0, 15 },
	[R2C2_A_DEMAND_KBPS] = { K_U32, 0, R2C2_DEMAND_UNLIMITED },
	[R2C2_A_FLOW_EVT] = { K_U8, 1, 4 },
	[R2C2_A_PACKETS] = { K_U64, 0, ~0ULL },
	[R2C2_A_BYTES] = { K_U64, 0, ~0ULL },
	[R2C2_A_SEQ] = { K_U32, 0, 0xffffffff },
	[R2C2_A_AGE_MS] = { K_U32, 0, 0xffffffff },
	[R2C2_A_ROUTES] = { K_NEST },
	[R2C2_A_ROUTE_ENT] = { K_NEST },
	[R2C2_A_ETHERTYPE] = { K_U16, R2C2_ETH_P, R2C2_ETH_P },
	[R2C2_A_COUNT] = { K_U32, 1, 2000 },	/* policy: 10^6; kept cheap */
	[R2C2_A_LINK_COUNTS] = { K_BIN, 0, 64 },
	[R2C2_A_RATE] = { K_U64, 1000, 1000000000000ULL },
	[R2C2_A_RATES] = { K_NEST },
	[R2C2_A_RATE_ENT] = { K_NEST },
	[R2C2_A_QLEN] = { K_U32, 0, 0xffffffff },
	[R2C2_A_BACKLOG] = { K_U32, 0, 0xffffffff },
	[R2C2_A_DROPS] = { K_U64, 0, ~0ULL },
	[R2C2_A_RATE_STATE] = { K_U8, 0, 3 },
	[R2C2_A_SPORT] = { K_U16, 0, 0xffff },
	[R2C2_A_DPORT] = { K_U16, 0, 0xffff },
	[R2C2_A_LEASE_MS] = { K_U32, 0, 0xffffffff },
	[R2C2_A_RESEQ] = { K_U8, 0, 1 },
	[R2C2_A_RESEQ_TIMEOUT_US] = { K_U32, 10, 1000000 },
	[R2C2_A_RESEQ_FLOW_LIMIT] = { K_U32, 1, 255 },
	[R2C2_A_RESEQ_LIMIT] = { K_U32, 1, 1048576 },
	[R2C2_A_RESEQ_HELD] = { K_U32, 0, 0xffffffff },
	[R2C2_A_RESEQ_MAX_DEPTH] = { K_U32, 0, 0xffffffff },
	[R2C2_A_RESEQ_FLOWS] = { K_U32, 0, 0xffffffff },
	[R2C2_A_RESEQ_TIMEOUT_EFF_US] = { K_U32, 0, 0xffffffff },
	[R2C2_A_RESEQ_HIST] = { K_BIN, 0, 64 },
	[R2C2_A_CLASS_ID] = { K_U8, 1, 64 },
	[R2C2_A_DSCP] = { K_U8, 0, 63 },
	[R2C2_A_SKB_PRIO] = { K_U32, 0, 0xffffffff },
	[R2C2_A_SPORT_MAX] = { K_U16, 0, 0xffff },
	[R2C2_A_DPORT_MAX] = { K_U16, 0, 0xffff },
	[R2C2_A_CLASS_FLOWS] = { K_U64, 0, ~0ULL },
	[R2C2_A_KEY_ID] = { K_U8, 1, 255 },
	[R2C2_A_KEY] = { K_BIN, R2C2_AUTH_KEY_LEN, R2C2_AUTH_KEY_LEN },
	[R2C2_A_KEY_OVERLAP_MS] = { K_U32, 0, R2C2_TIME_MS_MAX },
	[R2C2_A_KEY_PREV_ID] = { K_U8, 1, 255 },
	[R2C2_A_KEY_PREV_MS] = { K_U32, 0, 0xffffffff },
	[R2C2_A_XDP_PORTS_FD] = { K_U32, 0, 0x7fffffff },
	[R2C2_A_XDP_STATS_FD] = { K_U32, 0, 0x7fffffff },
	[R2C2_A_XDP] = { K_U8, 0, 1 },
};

static int ksize(enum kind k)
{
	return k == K_U8 ? 1 : k == K_U16 ? 2 : k == K_U32 ? 4 : 8;
}

static const char *const ifnames[] = {
	"p0", "p1", "dummy0", "lo", "r2c0", "nosuch0", "", "r2c%d",
	"averyveryverylongname",
};

static void put_random_attrs(struct req *r, int depth);

/*
 * One attribute of type @t: mostly a valid value of its policy, else an
 * edge: one past the range, a wrong size, empty, oversized, or garbage.
 */
static void put_value(struct req *r, uint16_t t)
{
	const struct apol *p = t <= R2C2_A_MAX ? &pol[t] : NULL;
	unsigned char junk[1024];
	uint64_t v, span;
	size_t off, n;
	unsigned int i, w = rnd(100);

	if (t == R2C2_A_KEY && w < 85) {
		/* a key: mostly random, else all zero, one short or long */
		n = w < 55 || w >= 75 ? R2C2_AUTH_KEY_LEN :
		    w < 65 ? R2C2_AUTH_KEY_LEN - 1 : R2C2_AUTH_KEY_LEN + 1;
		for (i = 0; i < n; i++)
			junk[i] = w >= 75 ? 0 : (unsigned char)rnd64();
		put_attr(r, t, junk, n);
		return;
	}
	if (!p || p->kind == K_NONE || w >= 85) {
		/* garbage of a random length: 0..8, or oversized */
		n = rnd(4) ? rnd(9) : 16 + rnd(sizeof(junk) - 16);
		for (i = 0; i < n; i++)
			junk[i] = (unsigned char)rnd64();
		put_attr(r, t, junk, n);
		return;
	}
	switch (p->kind) {
	case K_STR:
		if (w < 60) {
			const char *s = ifnames[rnd(sizeof(ifnames) / sizeof(ifnames[0]))];

			put_attr(r, t, s, strlen(s) + 1);
		} else if (w < 75) {	/* not NUL-terminated */
			put_attr(r, t, "p0", 2);
		} else {		/* too long */
			memset(junk, 'x', 40);
			junk[40] = 0;
			put_attr(r, t, junk, 41);
		}
		return;
	case K_NEST:
		off = nest_start(r, (uint16_t)(t | (rnd(8) ? NLA_F_NESTED : 0)));
		put_random_attrs(r, 1);
		nest_end(r, off);
		return;
	case K_BIN:
		n = w < 70 ? p->min + rnd((uint32_t)(p->max - p->min + 1)) :
			     p->max + 1 + rnd(64);
		for (i = 0; i < n && i < sizeof(junk); i++)
			junk[i] = (unsigned char)rnd(8);
		put_attr(r, t, junk, n);
		return;
	default:
		break;
	}
	span = p->max - p->min;
	if (w < 60)
		v = p->min + (span == ~0ULL ? rnd64() : rnd64() % (span + 1));
	else if (w < 66)
		v = p->min;
	else if (w < 72)
		v = p->max;
	else if (w < 78)
		v = p->min - 1;		/* out of range below (or wraps) */
	else
		v = p->max + 1;		/* out of range above */
	if (rnd(10) == 0) {		/* the wrong size */
		put_uint(r, t, v, (int[]){ 1, 2, 4, 8 }[rnd(4)]);
		return;
	}
	put_uint(r, t, v, ksize(p->kind));
}

/* 0..6 attributes of random types, some unknown, some nested */
static void put_random_attrs(struct req *r, int depth)
{
	unsigned int n = rnd(7), i;
	uint16_t t;

	for (i = 0; i < n; i++) {
		t = (uint16_t)(rnd(10) ? rnd(R2C2_A_MAX + 4) : rnd(0x4000));
		if (depth > 0 && rnd(2))	/* inside a nest: the usual members */
			t = (uint16_t[]){ R2C2_A_TOPO_DIM, R2C2_A_ROUTE_ENT,
					  R2C2_A_RATE_ENT, R2C2_A_FLOW_SRC,
					  R2C2_A_FLOW_ID, R2C2_A_RPROTO,
					  R2C2_A_RATE }[rnd(7)];
		if (depth < 2 && t <= R2C2_A_MAX && pol[t].kind == K_NEST) {
			size_t off = nest_start(r, (uint16_t)(t | (rnd(8) ? NLA_F_NESTED : 0)));

			put_random_attrs(r, depth + 1);
			nest_end(r, off);
		} else {
			put_value(r, t);
		}
	}
}

/* attributes a command takes (the first `nreq' are required) */
struct tmpl {
	uint8_t cmd;
	uint8_t dump;
	uint8_t admin;
	uint8_t nreq;
	uint16_t attrs[10];
};

static const struct tmpl tmpls[] = {
	{ R2C2_CMD_NODE_GET, 0, 0, 0, { 0 } },
	{ R2C2_CMD_NODE_SET, 0, 1, 0, { R2C2_A_NODE_ADDR, R2C2_A_HELLO_MS,
	  R2C2_A_TREES, R2C2_A_RPROTO, R2C2_A_TOPO_DIMS, R2C2_A_ETHERTYPE,
	  R2C2_A_RESEQ, R2C2_A_RESEQ_TIMEOUT_US, R2C2_A_RESEQ_LIMIT,
	  R2C2_A_IFNAME } },
	{ R2C2_CMD_NODE_DEL, 0, 1, 0, { 0 } },
	{ R2C2_CMD_PORT_ADD, 0, 1, 1, { R2C2_A_PORT, R2C2_A_PORT_IFNAME,
	  R2C2_A_IFINDEX } },
	{ R2C2_CMD_PORT_DEL, 0, 1, 1, { R2C2_A_PORT } },
	{ R2C2_CMD_PORT_GET, 1, 0, 0, { 0 } },
	{ R2C2_CMD_TOPO_GET, 1, 0, 0, { 0 } },
	{ R2C2_CMD_TREE_GET, 1, 0, 0, { 0 } },
	{ R2C2_CMD_ROUTE_GET, 0, 0, 1, { R2C2_A_DST, R2C2_A_RPROTO, R2C2_A_COUNT } },
	{ R2C2_CMD_STATS_GET, 0, 0, 0, { 0 } },
	{ R2C2_CMD_STATS_RESET, 0, 1, 0, { 0 } },
	{ R2C2_CMD_FLOW_GET, 1, 0, 0, { 0 } },
	{ R2C2_CMD_FLOW_SET, 0, 1, 2, { R2C2_A_FLOW_ID, R2C2_A_RPROTO, R2C2_A_DST } },
	{ R2C2_CMD_FLOW_EVENT, 0, 1, 2, { R2C2_A_FLOW_ID, R2C2_A_DST,
	  R2C2_A_FLOW_EVT, R2C2_A_WEIGHT, R2C2_A_PRIO, R2C2_A_DEMAND_KBPS,
	  R2C2_A_RPROTO } },
	{ R2C2_CMD_TOPO_EVENT, 0, 0, 0, { 0 } },
	{ R2C2_CMD_ROUTES_SEND, 0, 1, 1, { R2C2_A_ROUTES } },
	{ R2C2_CMD_ROUTES_EVENT, 0, 0, 0, { 0 } },
	{ R2C2_CMD_RATE_SET, 0, 1, 1, { R2C2_A_RATES, R2C2_A_IFINDEX } },
	{ R2C2_CMD_QFLOW_GET, 1, 0, 0, { R2C2_A_IFINDEX } },
	{ R2C2_CMD_RESEQ_GET, 1, 0, 0, { 0 } },
	{ R2C2_CMD_CLASS_SET, 0, 1, 1, { R2C2_A_CLASS_ID, R2C2_A_DSCP,
	  R2C2_A_SKB_PRIO, R2C2_A_SPORT, R2C2_A_SPORT_MAX, R2C2_A_DPORT,
	  R2C2_A_DPORT_MAX, R2C2_A_WEIGHT, R2C2_A_PRIO } },
	{ R2C2_CMD_CLASS_DEL, 0, 1, 1, { R2C2_A_CLASS_ID } },
	{ R2C2_CMD_CLASS_GET, 1, 0, 0, { 0 } },
	{ R2C2_CMD_KEY_SET, 0, 1, 2, { R2C2_A_KEY_ID, R2C2_A_KEY,
	  R2C2_A_KEY_OVERLAP_MS } },
	{ R2C2_CMD_KEY_DEL, 0, 1, 0, { R2C2_A_KEY_ID } },
	{ R2C2_CMD_KEY_GET, 0, 0, 0, { 0 } },
	{ R2C2_CMD_XDP_SET, 0, 1, 0, { R2C2_A_XDP_PORTS_FD,
	  R2C2_A_XDP_STATS_FD } },
};

#define NT (sizeof(tmpls) / sizeof(tmpls[0]))

static const struct tmpl *tmpl_of(unsigned int cmd)
{
	unsigned int i;

	for (i = 0; i < NT; i++)
		if (tmpls[i].cmd == cmd)
			return &tmpls[i];
	return NULL;
}

/* a well-formed nest of ROUTE_ENT, RATE_ENT or TOPO_DIM, maybe spoilt */
static void put_list(struct req *r, uint16_t t)
{
	size_t off = nest_start(r, t | NLA_F_NESTED), e;
	unsigned int n = rnd(5) ? 1 + rnd(4) : rnd(2) ? 0 : 200 + rnd(4200), i;

	if (t == R2C2_A_TOPO_DIMS)
		n = rnd(5);
	for (i = 0; i < n && r->len < REQSZ - 64; i++) {
		if (t == R2C2_A_TOPO_DIMS) {
			put_uint(r, R2C2_A_TOPO_DIM, rnd(6) ? 2 + rnd(6) : rnd(256), 1);
			continue;
		}
		e = nest_start(r, (t == R2C2_A_ROUTES ? R2C2_A_ROUTE_ENT :
				   R2C2_A_RATE_ENT) | (rnd(20) ? NLA_F_NESTED : 0));
		if (t == R2C2_A_ROUTES) {
			if (rnd(10)) put_uint(r, R2C2_A_FLOW_SRC, rnd(10), 2);
			if (rnd(10)) put_uint(r, R2C2_A_FLOW_ID, rnd64(), 4);
			if (rnd(10)) put_value(r, R2C2_A_RPROTO);
		} else {
			if (rnd(10)) put_uint(r, R2C2_A_FLOW_ID, rnd64(), 4);
			if (rnd(10)) put_value(r, R2C2_A_RATE);
		}
		if (!rnd(10))
			put_random_attrs(r, 2);
		nest_end(r, e);
	}
	nest_end(r, off);
}

static const char *cmd_name(unsigned int c);

/* whether the last make_req() set odd flags or a non-zero reserved */
static int hdr_spoilt;

/*
 * Request @i: the nlmsghdr and genlmsghdr, then attributes, either from
 * the command's template (valid values, some missing, some spoilt) or
 * at random. Returns the command.
 */
static unsigned int make_req(struct req *r, int *dump)
{
	struct nlmsghdr *h = (struct nlmsghdr *)r->b;
	struct genlmsghdr *g = (struct genlmsghdr *)(r->b + NLMSG_HDRLEN);
	unsigned int cmd, w = rnd(100), i, k;
	const struct tmpl *tp;
	uint16_t flags;

	memset(r->b, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	r->len = NLMSG_HDRLEN + GENL_HDRLEN;
	if (w < 92)
		cmd = tmpls[rnd(NT)].cmd;
	else if (w < 96)
		cmd = 0;
	else
		cmd = __R2C2_CMD_MAX + rnd(256 - __R2C2_CMD_MAX);
	tp = tmpl_of(cmd);
	*dump = tp ? tp->dump : (int)rnd(2);
	if (!rnd(20))
		*dump = !*dump;			/* do as dump and the reverse */
	flags = NLM_F_REQUEST | NLM_F_ACK | (*dump ? NLM_F_DUMP : 0);
	hdr_spoilt = 0;
	if (!rnd(40)) {
		flags |= (uint16_t)(1u << (5 + rnd(11)));	/* odd flags */
		hdr_spoilt = 1;
	}
	h->nlmsg_type = family;
	h->nlmsg_flags = flags;
	h->nlmsg_seq = ++seqno;
	g->cmd = (uint8_t)cmd;
	g->version = rnd(20) ? R2C2_GENL_VERSION : (uint8_t)rnd(256);
	g->reserved = rnd(40) ? 0 : (uint16_t)(1 + rnd(0xfffe));
	hdr_spoilt |= !!g->reserved;

	if (tp && rnd(3)) {
		/* the template: required ones mostly there, optional ones often */
		for (k = 0; k < 10 && tp->attrs[k]; k++) {
			uint16_t t = tp->attrs[k];

			if (rnd(100) >= (k < tp->nreq ? 90u : 40u))
				continue;
			if (t == R2C2_A_ROUTES || t == R2C2_A_RATES ||
			    t == R2C2_A_TOPO_DIMS)
				put_list(r, t);
			else
				put_value(r, t);
		}
		if (!rnd(5))
			put_random_attrs(r, 0);
	} else {
		put_random_attrs(r, 0);
	}
	/* sometimes a truncated last attribute or trailing bytes */
	if (!rnd(30) && r->len > NLMSG_HDRLEN + GENL_HDRLEN)
		r->len -= 1 + rnd(3);
	else if (!rnd(30))
		for (i = 1 + rnd(3); i; i--)
			r->b[r->len++] = (unsigned char)rnd64();
	h->nlmsg_len = (uint32_t)r->len;
	return cmd;
}

/* ------------------------------------------------------------------ */
/* sending, answers                                                    */

struct answer {
	int error;		/* 0 or a positive errno; -1: no answer */
	int has_msg;
	char msg[200];
	unsigned int msgs;	/* family messages */
};

static void parse_ack_tlvs(const struct nlmsghdr *h, size_t skip,
			   struct answer *a)
{
	const struct nlmsgerr *e = NLMSG_DATA(h);
	size_t off = NLMSG_HDRLEN + skip;
	const struct nlattr *at;

	if (h->nlmsg_type == NLMSG_ERROR && !(h->nlmsg_flags & NLM_F_CAPPED))
		off += NLMSG_ALIGN(e->msg.nlmsg_len) - NLMSG_HDRLEN;
	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	while (off + NLA_HDRLEN <= h->nlmsg_len) {
		at = (const struct nlattr *)((const char *)h + off);
		if (at->nla_len < NLA_HDRLEN || off + at->nla_len > h->nlmsg_len)
			break;
		if ((at->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG) {
			a->has_msg = 1;
			snprintf(a->msg, sizeof(a->msg), "%.*s",
				 (int)(at->nla_len - NLA_HDRLEN),
				 (const char *)(at + 1));
		}
		off += NLA_ALIGN(at->nla_len);
	}
}

/* Callback for each family message of an answer (NULL: none). */
typedef void (*msg_cb)(const struct nlmsghdr *h, void *arg);

/* Send @len bytes of @buf and read the answer to it. */
static int talk(const void *buf, size_t len, uint32_t seq, struct answer *a,
		msg_cb cb, void *arg)
{
	struct sockaddr_nl kern = { .nl_family = AF_NETLINK };
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	memset(a, 0, sizeof(*a));
	a->error = -1;
	if (sendto(fd, buf, len, 0, (struct sockaddr *)&kern, sizeof(kern)) < 0) {
		fprintf(stderr, "%s: sendto: %s\n", WHO, strerror(errno));
		return -1;
	}
	for (;;) {
		ssize_t n;
		struct nlmsghdr *h;
		size_t rem;

		if (poll(&pfd, 1, 5000) <= 0)
			return -1;		/* no answer within 5 s */
		n = recv(fd, rbuf, sizeof(rbuf), 0);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			fprintf(stderr, "%s: recv: %s\n", WHO, strerror(errno));
			return -1;
		}
		rem = (size_t)n;
		for (h = (struct nlmsghdr *)rbuf; NLMSG_OK(h, rem);
		     h = NLMSG_NEXT(h, rem)) {
			if (h->nlmsg_seq != seq)
				continue;	/* an earlier request's leftovers */
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);

				a->error = -e->error;
				parse_ack_tlvs(h, sizeof(*e), a);
				return 0;
			}
			if (h->nlmsg_type == NLMSG_DONE) {
				if (h->nlmsg_len >= NLMSG_HDRLEN + sizeof(int))
					a->error = -*(const int *)NLMSG_DATA(h);
				else
					a->error = 0;
				parse_ack_tlvs(h, sizeof(int), a);
				/* no acknowledgement follows a dump */
				return 0;
			}
			if (h->nlmsg_type == family) {
				a->msgs++;
				if (cb)
					cb(h, arg);
			}
		}
	}
}

/* ------------------------------------------------------------------ */
/* the state a refused request must not change                         */

struct fp {
	unsigned char b[64 * 1024];
	size_t len;
};

/* keep the attributes of a reply whose types are in @keep */
static void fp_add(struct fp *f, const struct nlmsghdr *h, const uint16_t *keep)
{
	const struct nlattr *at;
	size_t off = NLMSG_HDRLEN + GENL_HDRLEN;
	unsigned int k;

	while (off + NLA_HDRLEN <= h->nlmsg_len) {
		at = (const struct nlattr *)((const char *)h + off);
		if (at->nla_len < NLA_HDRLEN || off + at->nla_len > h->nlmsg_len)
			break;
		for (k = 0; keep[k]; k++)
			if ((at->nla_type & NLA_TYPE_MASK) == keep[k])
				break;
		if (keep[k] && f->len + at->nla_len <= sizeof(f->b)) {
			memcpy(f->b + f->len, at, at->nla_len);
			f->len += at->nla_len;
		}
		off += NLA_ALIGN(at->nla_len);
	}
}

static const uint16_t keep_node[] = {
	R2C2_A_NODE_ADDR, R2C2_A_IFNAME, R2C2_A_IFINDEX, R2C2_A_HELLO_MS,
	R2C2_A_TREES, R2C2_A_RPROTO, R2C2_A_TOPO_DIMS, R2C2_A_ETHERTYPE,
	R2C2_A_RESEQ, R2C2_A_RESEQ_TIMEOUT_US, R2C2_A_RESEQ_FLOW_LIMIT,
	R2C2_A_RESEQ_LIMIT, 0 };
static const uint16_t keep_port[] = { R2C2_A_PORT, R2C2_A_IFINDEX,
	R2C2_A_PORT_IFNAME, 0 };
static const uint16_t keep_class[] = { R2C2_A_CLASS_ID, R2C2_A_WEIGHT,
	R2C2_A_PRIO, R2C2_A_DSCP, R2C2_A_SKB_PRIO, R2C2_A_SPORT,
	R2C2_A_SPORT_MAX, R2C2_A_DPORT, R2C2_A_DPORT_MAX, 0 };
static const uint16_t keep_flow[] = { R2C2_A_FLOW_ID, R2C2_A_RPROTO,
	R2C2_A_DST, 0 };
static const uint16_t keep_key[] = { R2C2_A_KEY_ID, R2C2_A_KEY_OVERLAP_MS, 0 };

struct fpcb {
	struct fp *f;
	const uint16_t *keep;
	uint32_t sep;		/* a separator between messages */
};

static void fp_cb(const struct nlmsghdr *h, void *arg)
{
	struct fpcb *c = arg;

	fp_add(c->f, h, c->keep);
	if (c->f->len + 4 <= sizeof(c->f->b)) {
		memcpy(c->f->b + c->f->len, &c->sep, 4);
		c->f->len += 4;
	}
}

static int simple(unsigned int cmd, int dump, struct answer *a, msg_cb cb,
		  void *arg)
{
	struct req r;
	struct nlmsghdr *h = (struct nlmsghdr *)r.b;
	struct genlmsghdr *g = (struct genlmsghdr *)(r.b + NLMSG_HDRLEN);

	memset(r.b, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	r.len = NLMSG_HDRLEN + GENL_HDRLEN;
	h->nlmsg_type = family;
	h->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | (dump ? NLM_F_DUMP : 0);
	h->nlmsg_seq = ++seqno;
	h->nlmsg_len = (uint32_t)r.len;
	g->cmd = (uint8_t)cmd;
	g->version = R2C2_GENL_VERSION;
	return talk(r.b, r.len, h->nlmsg_seq, a, cb, arg);
}

/* whether NODE_GET found a node, at the last snapshot() */
static int node_present;

/* the previous rack key: its id (0: none) and when it runs out */
struct prev_key {
	unsigned int id;
	double until;		/* seconds, CLOCK_MONOTONIC */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void prev_cb(const struct nlmsghdr *h, void *arg)
{
	struct prev_key *p = arg;
	const struct nlattr *at;
	size_t off = NLMSG_HDRLEN + GENL_HDRLEN;
	uint32_t ms = 0;

	while (off + NLA_HDRLEN <= h->nlmsg_len) {
		at = (const struct nlattr *)((const char *)h + off);
		if (at->nla_len < NLA_HDRLEN || off + at->nla_len > h->nlmsg_len)
			break;
		if (at->nla_type == R2C2_A_KEY_PREV_ID && at->nla_len >= NLA_HDRLEN + 1)
			p->id = *(const uint8_t *)(at + 1);
		if (at->nla_type == R2C2_A_KEY_PREV_MS && at->nla_len >= NLA_HDRLEN + 4)
			memcpy(&ms, at + 1, 4);
		off += NLA_ALIGN(at->nla_len);
	}
	p->until = now_s() + ms / 1000.0;
}

/* the previous key of the last snapshot(): compared apart, it runs out */
static struct prev_key prev_snap;

/*
 * Whether the previous key @b (an earlier snapshot) may have become @a
 * without a request: the same, or run out (20 ms of slack).
 */
static int prev_same(const struct prev_key *b, const struct prev_key *a)
{
	return a->id == b->id || (!a->id && now_s() + 0.02 >= b->until);
}

/*
 * Configuration, ports, classes; flows separately. Returns -1 when the
 * kernel did not answer; errors (no node) make an empty part.
 */
static int snapshot(struct fp *cfg, struct fp *flows)
{
	struct answer a;
	struct fpcb c = { cfg, keep_node, 0xfeedf00d };

	cfg->len = 0;
	flows->len = 0;
	if (simple(R2C2_CMD_NODE_GET, 0, &a, fp_cb, &c))
		return -1;
	node_present = !a.error;
	c.keep = keep_port;
	if (simple(R2C2_CMD_PORT_GET, 1, &a, fp_cb, &c))
		return -1;
	c.keep = keep_class;
	if (simple(R2C2_CMD_CLASS_GET, 1, &a, fp_cb, &c))
		return -1;
	c.keep = keep_key;
	if (simple(R2C2_CMD_KEY_GET, 0, &a, fp_cb, &c))
		return -1;
	memset(&prev_snap, 0, sizeof(prev_snap));
	if (simple(R2C2_CMD_KEY_GET, 0, &a, prev_cb, &prev_snap))
		return -1;
	c.f = flows;
	c.keep = keep_flow;
	return simple(R2C2_CMD_FLOW_GET, 1, &a, fp_cb, &c);
}

/* every flow record of @after (separated by the 4-byte marker) is in @before */
static int flows_subset(const struct fp *after, const struct fp *before)
{
	size_t i = 0, j;

	while (i < after->len) {
		for (j = i; j + 4 <= after->len; j++)
			if (!memcmp(after->b + j, "\x0d\xf0\xed\xfe", 4))
				break;
		if (j + 4 > after->len)
			return 1;
		if (!memmem(before->b, before->len, after->b + i, j + 4 - i))
			return 0;
		i = j + 4;
	}
	return 1;
}

/* ------------------------------------------------------------------ */

static const char *const cmd_names[] = {
	"unspec", "node_get", "node_set", "node_del", "port_add", "port_del",
	"port_get", "topo_get", "tree_get", "route_get", "stats_get",
	"stats_reset", "flow_get", "flow_set", "flow_event", "topo_event",
	"routes_send", "routes_event", "rate_set", "qflow_get", "reseq_get",
	"class_set", "class_del", "class_get", "key_set", "key_del", "key_get",
};

static const char *cmd_name(unsigned int c)
{
	return c < sizeof(cmd_names) / sizeof(cmd_names[0]) ? cmd_names[c] : "unknown";
}

static int nl_open(void)
{
	struct sockaddr_nl me = { .nl_family = AF_NETLINK };
	int one = 1, bufsz = 1 << 20;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0 || bind(fd, (struct sockaddr *)&me, sizeof(me)) < 0)
		return -1;
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bufsz, sizeof(bufsz));
	return 0;
}

/* the family id, by CTRL_CMD_GETFAMILY */
static int resolve(void)
{
	struct req r;
	struct nlmsghdr *h = (struct nlmsghdr *)r.b;
	struct genlmsghdr *g = (struct genlmsghdr *)(r.b + NLMSG_HDRLEN);
	struct sockaddr_nl kern = { .nl_family = AF_NETLINK };
	ssize_t n;
	const struct nlattr *at;
	size_t off;

	memset(r.b, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	r.len = NLMSG_HDRLEN + GENL_HDRLEN;
	h->nlmsg_type = GENL_ID_CTRL;
	h->nlmsg_flags = NLM_F_REQUEST;
	h->nlmsg_seq = ++seqno;
	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = 1;
	put_attr(&r, CTRL_ATTR_FAMILY_NAME, R2C2_GENL_NAME, sizeof(R2C2_GENL_NAME));
	h->nlmsg_len = (uint32_t)r.len;
	if (sendto(fd, r.b, r.len, 0, (struct sockaddr *)&kern, sizeof(kern)) < 0)
		return -1;
	n = recv(fd, rbuf, sizeof(rbuf), 0);
	h = (struct nlmsghdr *)rbuf;
	if (n < (ssize_t)NLMSG_HDRLEN || h->nlmsg_type != GENL_ID_CTRL)
		return -1;
	for (off = NLMSG_HDRLEN + GENL_HDRLEN; off + NLA_HDRLEN <= h->nlmsg_len;
	     off += NLA_ALIGN(at->nla_len)) {
		at = (const struct nlattr *)(rbuf + off);
		if (at->nla_len < NLA_HDRLEN)
			break;
		if (at->nla_type == CTRL_ATTR_FAMILY_ID) {
			memcpy(&family, at + 1, 2);
			return 0;
		}
	}
	return -1;
}

static int enter_netns(const char *ns)
{
	char path[4096];
	int nfd, err = 0;

	if (strchr(ns, '/'))
		snprintf(path, sizeof(path), "%s", ns);
	else
		snprintf(path, sizeof(path), "/run/netns/%s", ns);
	nfd = open(path, O_RDONLY | O_CLOEXEC);
	if (nfd < 0)
		return -1;
	if (setns(nfd, CLONE_NEWNET) < 0)
		err = -1;
	close(nfd);
	return err;
}

/* the node is gone (an accepted NODE_DEL): set it up again */
static unsigned int nrestore;
static char restore_dev[MAX_PORTS_RESTORE][IFNAMSIZ];
static unsigned int restore_port[MAX_PORTS_RESTORE];
static long restore_addr = -1;

static void restore_node(void)
{
	struct req r;
	struct nlmsghdr *h = (struct nlmsghdr *)r.b;
	struct genlmsghdr *g = (struct genlmsghdr *)(r.b + NLMSG_HDRLEN);
	struct answer a;
	unsigned int i;

	for (i = 0; i <= nrestore; i++) {
		memset(r.b, 0, NLMSG_HDRLEN + GENL_HDRLEN);
		r.len = NLMSG_HDRLEN + GENL_HDRLEN;
		h->nlmsg_type = family;
		h->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
		h->nlmsg_seq = ++seqno;
		g->version = R2C2_GENL_VERSION;
		if (!i) {
			g->cmd = R2C2_CMD_NODE_SET;
			put_uint(&r, R2C2_A_NODE_ADDR, (uint64_t)restore_addr, 2);
		} else {
			g->cmd = R2C2_CMD_PORT_ADD;
			put_uint(&r, R2C2_A_PORT, restore_port[i - 1], 1);
			put_attr(&r, R2C2_A_PORT_IFNAME, restore_dev[i - 1],
				 strlen(restore_dev[i - 1]) + 1);
		}
		h->nlmsg_len = (uint32_t)r.len;
		talk(r.b, r.len, h->nlmsg_seq, &a, NULL, NULL);
	}
}

static void hex(FILE *f, const unsigned char *b, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		fprintf(f, "%02x", b[i]);
}

/* an error the core gives without a message by design (see the top) */
static int exempt(unsigned int cmd, int dump, int err)
{
	const struct tmpl *tp = tmpl_of(cmd);

	if (err == ENOMEM || err == ENOBUFS)
		return 1;
	if (err == EPERM && tp && tp->admin)
		return 1;
	if (err == EOPNOTSUPP &&
	    (!tp || tp->dump != dump || cmd == R2C2_CMD_TOPO_EVENT ||
	     cmd == R2C2_CMD_ROUTES_EVENT || cmd == R2C2_CMD_UNSPEC))
		return 1;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long count = 2000, first = 0, i, sent = 0, ok = 0;
	unsigned long no_extack = 0, exempted = 0, changed = 0, timeouts = 0;
	unsigned long restores = 0, errs[4096] = { 0 }, by_cmd[256] = { 0 };
	unsigned long not_eperm = 0;
	struct prev_key prev0 = { 0 };
	int unpriv = 0;
	static struct fp cfg0, cfg1, fl0, fl1;
	const char *ns = NULL;
	uint64_t seed = 0;
	int have_seed = 0, verbose = 0, opt, dump, fails = 0;
	struct answer a;
	unsigned int cmd, k;
	struct req r;
	char *colon;

	while ((opt = getopt(argc, argv, "n:S:c:f:a:p:Uvh")) != -1) {
		switch (opt) {
		case 'n': ns = optarg; break;
		case 'S': seed = strtoull(optarg, NULL, 0); have_seed = 1; break;
		case 'c': count = strtoul(optarg, NULL, 0); break;
		case 'f': first = strtoul(optarg, NULL, 0); break;
		case 'a': restore_addr = strtol(optarg, NULL, 0); break;
		case 'p':
			colon = strchr(optarg, ':');
			if (!colon || nrestore == MAX_PORTS_RESTORE)
				goto usage;
			restore_port[nrestore] = (unsigned int)strtoul(optarg, NULL, 0);
			snprintf(restore_dev[nrestore], IFNAMSIZ, "%s", colon + 1);
			nrestore++;
			break;
		case 'U': unpriv = 1; break;
		case 'v': verbose = 1; break;
		default:
			goto usage;
		}
	}
	if (optind != argc)
		goto usage;
	if (ns && enter_netns(ns)) {
		fprintf(stderr, "%s: %s: %s\n", WHO, ns, strerror(errno));
		return 2;
	}
	if (nl_open() || resolve()) {
		fprintf(stderr, "%s: generic netlink family \"r2c2\": %s\n", WHO,
			strerror(errno));
		return 2;
	}
	if (!have_seed)
		seed = (uint64_t)time(NULL) * 1000003ULL ^ (uint64_t)getpid();
	rng_state = seed ? seed : 1;
	fprintf(stderr, "%s: seed %llu (replay: -S %llu -c %lu)\n", WHO,
		(unsigned long long)seed, (unsigned long long)seed, first + count);

	if (snapshot(&cfg0, &fl0)) {
		fprintf(stderr, "%s: cannot read the node's state\n", WHO);
		return 2;
	}
	prev0 = prev_snap;
	for (i = 0; i < first + count; i++) {
		cmd = make_req(&r, &dump);
		if (i < first)
			continue;
		sent++;
		by_cmd[cmd & 0xff]++;
		if (talk(r.b, r.len, ((struct nlmsghdr *)r.b)->nlmsg_seq, &a,
			 NULL, NULL)) {
			timeouts++;
			fails++;
			fprintf(stderr, "%s: request %lu (%s): no answer: ", WHO, i,
				cmd_name(cmd));
			hex(stderr, r.b, r.len);
			fputc('\n', stderr);
			continue;
		}
		if (verbose) {
			printf("%lu %s%s err %d \"%s\" ", i, cmd_name(cmd),
			       dump ? " (dump)" : "", a.error, a.msg);
			hex(stdout, r.b, r.len);
			printf("\n");
		}
		if (unpriv && tmpl_of(cmd) && tmpl_of(cmd)->admin &&
		    dump == tmpl_of(cmd)->dump && !hdr_spoilt && a.error != EPERM) {
			not_eperm++;
			fails++;
			fprintf(stderr, "%s: request %lu (%s) of an unprivileged caller answered %d (%s), not EPERM: ",
				WHO, i, cmd_name(cmd), a.error,
				a.error ? strerror(a.error) : "accepted");
			hex(stderr, r.b, r.len);
			fputc('\n', stderr);
		}
		if (!a.error) {
			ok++;
			/* accepted: the state may have changed; a new baseline */
			if (!snapshot(&cfg0, &fl0) && !node_present &&
			    restore_addr >= 0) {
				restore_node();
				restores++;
				snapshot(&cfg0, &fl0);
			}
			prev0 = prev_snap;
			continue;
		}
		errs[a.error < 4096 ? a.error : 4095]++;
		if (!a.has_msg) {
			if (exempt(cmd, dump, a.error)) {
				exempted++;
			} else {
				no_extack++;
				fails++;
				fprintf(stderr, "%s: request %lu (%s%s): error %d (%s) without an extack message: ",
					WHO, i, cmd_name(cmd), dump ? ", dump" : "",
					a.error, strerror(a.error));
				hex(stderr, r.b, r.len);
				fputc('\n', stderr);
			}
		}
		/* refused: nothing may have changed */
		if (snapshot(&cfg1, &fl1) ||
		    cfg1.len != cfg0.len || memcmp(cfg1.b, cfg0.b, cfg0.len) ||
		    !flows_subset(&fl1, &fl0) || !prev_same(&prev0, &prev_snap)) {
			changed++;
			fails++;
			fprintf(stderr, "%s: request %lu (%s) refused with %d \"%s\" but the state changed: ",
				WHO, i, cmd_name(cmd), a.error, a.msg);
			hex(stderr, r.b, r.len);
			fputc('\n', stderr);
			cfg0 = cfg1;
		}
		fl0 = fl1;
		prev0 = prev_snap;
	}

	printf("{\"seed\":%llu,\"sent\":%lu,\"ok\":%lu,\"errors\":{",
	       (unsigned long long)seed, sent, ok);
	for (k = 1, opt = 0; k < 4096; k++) {
		if (!errs[k])
			continue;
		/* kernel-internal values (ENOTSUPP 524 ...) have no name here */
		if (strerrorname_np((int)k))
			printf("%s\"%s\":%lu", opt++ ? "," : "",
			       strerrorname_np((int)k), errs[k]);
		else
			printf("%s\"E%u\":%lu", opt++ ? "," : "", k, errs[k]);
	}
	printf("},\"no_extack\":%lu,\"exempt\":%lu,\"changed\":%lu,\"timeouts\":%lu,\"restores\":%lu,\"not_eperm\":%lu,\"by_cmd\":{",
	       no_extack, exempted, changed, timeouts, restores, not_eperm);
	for (k = 0, opt = 0; k < 256; k++) {
		if (!by_cmd[k])
			continue;
		if (k < sizeof(cmd_names) / sizeof(cmd_names[0]))
			printf("%s\"%s\":%lu", opt++ ? "," : "", cmd_names[k],
			       by_cmd[k]);
		else
			printf("%s\"%u\":%lu", opt++ ? "," : "", k, by_cmd[k]);
	}
	printf("}}\n");
	return fails ? 1 : 0;

usage:
	fprintf(stderr, "usage: r2c2_nlfuzz [-n NETNS] [-S SEED] [-c COUNT] [-f FIRST] [-a ADDR] [-p PORT:IFNAME]... [-U] [-v]\n");
	return 2;
}
