// SPDX-License-Identifier: GPL-2.0
/*
 * r2c2_nlbad - send one hand-made request to the r2c2 generic netlink
 * family and check how the kernel answers: the errno and the extended
 * ack message. r2c2ctl validates everything before sending; this tool
 * sends what r2c2ctl refuses to, so that the kernel's own policies and
 * checks are tested.
 *
 *   r2c2_nlbad [-n NETNS] [-d] [-e ERR] [-m TEXT] [-M] CMD [ATTR...]
 *     CMD    a command: node_get, node_set, ..., routes_send (the
 *            R2C2_CMD_* names, lower case) or a number
 *     ATTR   NAME:TYPE:VALUE  an attribute; NAME is an R2C2_A_* name in
 *                             lower case (node_addr, port, ...) or a number;
 *                             TYPE u8 u16 u32 u64 str (NUL-terminated),
 *                             hex (bytes: "0a0b0c") or flag (no VALUE)
 *            NAME:{ ... }     a nested attribute holding the ATTRs up to
 *                             the matching "}"
 *     -n NETNS  send from this network namespace
 *     -d        as a dump request (NLM_F_DUMP) instead of NLM_F_ACK
 *     -e ERR    expected outcome: 0 (success), an errno name (EINVAL,
 *               ERANGE, EPERM, EOPNOTSUPP, ...) or a number
 *     -m TEXT   the extended ack message must contain TEXT
 *     -M        an extended ack message must be present
 *
 * Prints one line: "CMD: ERRNAME (strerror) extack \"...\"".
 * Exit status: 0 the answer was as expected (or nothing was expected),
 * 1 it was not, 2 usage or system error.
 */
#include <ctype.h>
#include <getopt.h>
#include <inttypes.h>

#include "r2c2_nl.h"

#define WHO	"r2c2_nlbad"

struct name {
	const char *name;
	int value;
};

#define C(x) { #x, R2C2_CMD_##x }
static const struct name cmds[] = {
	C(NODE_GET), C(NODE_SET), C(NODE_DEL), C(PORT_ADD), C(PORT_DEL),
	C(PORT_GET), C(TOPO_GET), C(TREE_GET), C(ROUTE_GET), C(STATS_GET),
	C(STATS_RESET), C(FLOW_GET), C(FLOW_SET), C(FLOW_EVENT),
	C(TOPO_EVENT), C(ROUTES_SEND), C(ROUTES_EVENT), C(RATE_SET),
	C(QFLOW_GET), C(RESEQ_GET), C(CLASS_SET), C(CLASS_DEL), C(CLASS_GET),
	C(KEY_SET), C(KEY_DEL), C(KEY_GET), C(XDP_SET),
};

#define A(x) { #x, R2C2_A_##x }
static const struct name attrs[] = {
	A(NODE_ADDR), A(IFNAME), A(IFINDEX), A(PORT), A(PORT_IFNAME),
	A(PORT_STATE), A(NBR_ADDR), A(NBR_PORT), A(NBR_MAC), A(HELLO_MS),
	A(TREES), A(RPROTO), A(TOPO_DIMS), A(TOPO_DIM), A(NODES), A(LINKS),
	A(TOPO_OK), A(TABLES_GEN), A(STATS), A(TOPO_NODE), A(TOPO_LINK),
	A(TREE_SRC), A(TREE_ID), A(TREE_PORTS), A(TREE_PARENT), A(DST),
	A(ROUTE), A(FLOW_ID), A(FLOW_SRC), A(WEIGHT), A(PRIO),
	A(DEMAND_KBPS), A(FLOW_EVT), A(PACKETS), A(BYTES), A(SEQ), A(AGE_MS),
	A(ROUTES), A(ROUTE_ENT), A(PAD), A(ETHERTYPE), A(COUNT),
	A(LINK_COUNTS), A(RATE), A(RATES), A(RATE_ENT), A(SPORT), A(DPORT),
	A(CLASS_ID), A(DSCP), A(SKB_PRIO), A(SPORT_MAX), A(DPORT_MAX),
	A(CLASS_FLOWS), A(KEY_ID), A(KEY), A(KEY_OVERLAP_MS), A(KEY_PREV_ID),
	A(KEY_PREV_MS), A(XDP_PORTS_FD), A(XDP_STATS_FD), A(XDP),
};

#define E(x) { #x, x }
static const struct name errnos[] = {
	E(EPERM), E(ENOENT), E(ESRCH), E(EINTR), E(EIO), E(E2BIG), E(EBADF),
	E(ENOMEM), E(EACCES), E(EFAULT), E(EBUSY), E(EEXIST), E(ENODEV),
	E(EINVAL), E(ENOSPC), E(ERANGE), E(EMSGSIZE), E(ENOPROTOOPT),
	E(EOPNOTSUPP), E(EADDRNOTAVAIL), E(ENETDOWN), E(EHOSTUNREACH),
	E(ENOTSUP), E(ENOBUFS), E(ENOTCONN), E(EALREADY),
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static int lookup(const struct name *t, size_t n, const char *s)
{
	char *end;
	long v;
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcasecmp(t[i].name, s))
			return t[i].value;
	v = strtol(s, &end, 0);
	if (*s && !*end && v >= 0 && v <= 65535)
		return (int)v;
	return -1;
}

static const char *errname(int e)
{
	size_t i;

	if (!e)
		return "0";
	for (i = 0; i < N(errnos); i++)
		if (errnos[i].value == e)
			return errnos[i].name;
	return "E?";
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static void die_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", WHO);
	fprintf(stderr, fmt, arg);
	fputs("\nusage: r2c2_nlbad [-n NETNS] [-d] [-e ERR] [-m TEXT] [-M] CMD [NAME:TYPE:VALUE | NAME:{ ... }]...\n",
	      stderr);
	exit(2);
}

/* Put the attributes of argv[*i..] into msg up to a "}" or the end. */
static void put_attrs(struct nl_msg *msg, int argc, char **argv, int *i,
		      int nested)
{
	for (; *i < argc; (*i)++) {
		char *spec = argv[*i], *name, *type, *val, *end;
		unsigned long long v = 0;
		int t, err = 0;

		if (!strcmp(spec, "}")) {
			if (!nested)
				die_usage("unbalanced \"%s\"", spec);
			return;
		}
		name = strtok(spec, ":");
		type = strtok(NULL, ":");
		val = strtok(NULL, "");
		if (!name || !type)
			die_usage("bad attribute \"%s\" (NAME:TYPE:VALUE)", spec);
		t = lookup(attrs, N(attrs), name);
		if (t < 0)
			die_usage("unknown attribute \"%s\"", name);
		if (!strcmp(type, "{")) {
			struct nlattr *nest = nla_nest_start(msg, t);

			if (!nest)
				die_usage("message too long at \"%s\"", name);
			(*i)++;
			put_attrs(msg, argc, argv, i, 1);
			if (*i >= argc)
				die_usage("\"%s:{\" is not closed", name);
			/* not nla_nest_end(): libnl drops an empty nest, and an
			 * empty nest is one of the things worth sending
			 */
			nest->nla_len = (uint16_t)((char *)nlmsg_tail(nlmsg_hdr(msg)) -
						   (char *)nest);
			continue;
		}
		if (!strcmp(type, "flag")) {
			err = nla_put_flag(msg, t);
		} else if (!strcmp(type, "str")) {
			err = nla_put_string(msg, t, val ? val : "");
		} else if (!strcmp(type, "hex")) {
			unsigned char b[4096];
			size_t k, len = val ? strlen(val) : 0;

			if (len % 2 || len / 2 > sizeof(b))
				die_usage("bad hex \"%s\"", val ? val : "");
			for (k = 0; k < len / 2; k++) {
				int hi = hexval(val[2 * k]), lo = hexval(val[2 * k + 1]);

				if (hi < 0 || lo < 0)
					die_usage("bad hex \"%s\"", val);
				b[k] = (unsigned char)(hi << 4 | lo);
			}
			err = nla_put(msg, t, (int)(len / 2), b);
		} else {
			if (!val)
				die_usage("attribute \"%s\" needs a value", name);
			errno = 0;
			v = strtoull(val, &end, 0);
			if (errno || *end)
				die_usage("bad number \"%s\"", val);
			if (!strcmp(type, "u8"))
				err = nla_put_u8(msg, t, (uint8_t)v);
			else if (!strcmp(type, "u16"))
				err = nla_put_u16(msg, t, (uint16_t)v);
			else if (!strcmp(type, "u32"))
				err = nla_put_u32(msg, t, (uint32_t)v);
			else if (!strcmp(type, "u64"))
				err = nla_put_u64(msg, t, (uint64_t)v);
			else
				die_usage("unknown type \"%s\"", type);
		}
		if (err < 0)
			die_usage("message too long at \"%s\"", name);
	}
}

int main(int argc, char **argv)
{
	const char *ns = NULL, *want_msg = NULL;
	int dump = 0, need_msg = 0, want_err = -1, opt, cmd, i, ok = 1;
	struct tnl t;
	struct tnl_reply r;
	struct nl_msg *msg;

	while ((opt = getopt(argc, argv, "+n:de:m:Mh")) != -1) {
		switch (opt) {
		case 'n': ns = optarg; break;
		case 'd': dump = 1; break;
		case 'e':
			want_err = lookup(errnos, N(errnos), optarg);
			if (want_err < 0)
				die_usage("unknown errno \"%s\"", optarg);
			break;
		case 'm': want_msg = optarg; break;
		case 'M': need_msg = 1; break;
		default: die_usage("%s", "bad option");
		}
	}
	if (optind >= argc)
		die_usage("%s", "no command");
	cmd = lookup(cmds, N(cmds), argv[optind]);
	if (cmd < 0 || cmd > 255)
		die_usage("unknown command \"%s\"", argv[optind]);
	if (ns) {
		int err = tnl_setns(ns);

		if (err) {
			fprintf(stderr, "%s: %s: %s\n", WHO, ns, strerror(-err));
			return 2;
		}
	}
	if (tnl_open(&t, WHO))
		return 2;
	msg = tnl_msg(&t, cmd, dump);
	if (!msg)
		return 2;
	i = optind + 1;
	put_attrs(msg, argc, argv, &i, 0);
	if (tnl_talk(&t, msg, NULL, NULL, &r, WHO))
		return 2;

	printf("%s: %s (%s) extack \"%s\"\n", argv[optind], errname(r.error),
	       r.error ? strerror(r.error) : "success", r.extack);
	if (want_err >= 0 && r.error != want_err) {
		fprintf(stderr, "%s: expected %s, got %s\n", WHO,
			errname(want_err), errname(r.error));
		ok = 0;
	}
	if (need_msg && !r.extack[0]) {
		fprintf(stderr, "%s: expected an extended ack message, got none\n", WHO);
		ok = 0;
	}
	if (want_msg && !strstr(r.extack, want_msg)) {
		fprintf(stderr, "%s: expected an extended ack message containing \"%s\"\n",
			WHO, want_msg);
		ok = 0;
	}
	tnl_close(&t);
	return ok ? 0 : 1;
}
