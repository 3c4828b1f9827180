// SPDX-License-Identifier: GPL-2.0
/*
 * ping.c - r2c2ctl ping DST [ routing P ] [ count N ] [ interval MS ]:
 * ICMPv6 echoes to node DST across the rack, with no kernel support
 * beyond what r2c0 already does.
 *
 * DST's r2c0 has MAC 02:52:32:43:hi:lo (hi, lo: its address), so its
 * IPv6 link-local address is the EUI-64 one, fe80::52:32ff:fe43:hilo;
 * the echo goes to it through this node's soft interface (a raw ICMPv6
 * socket: root). Neighbour discovery crosses the rack on a broadcast
 * tree as for any application. A DST missing from the discovered graph
 * is refused before anything is sent (ROUTE_GET's error).
 *
 * With "routing P": r2c0 gives a packet the routing protocol of its
 * sender flow, whose id is the kernel's hash of the packet and cannot be
 * computed here. The first echo therefore goes by the node's default;
 * the one flow to DST whose packet count it moved (FLOW_GET before and
 * after) is set to P (FLOW_SET), and every later echo goes by P. If
 * other traffic to DST moves more flows meanwhile, ping says so and
 * fails. Replies come back by DST's own choice of protocol.
 */
#include <errno.h>
#include <math.h>
#include <net/if.h>
#include <netinet/icmp6.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netlink/attr.h>

#include "json.h"
#include "nl.h"
#include "r2c2ctl.h"

#define PING_MAX_FLOWS	256

static void usage(FILE *f)
{
	fputs("Usage: r2c2ctl ping DST [ routing PROTO ] [ count N ] [ interval MS ]\n"
	      "where  DST   := destination node address, 0..65534\n"
	      "       PROTO := { rps | dor | vlb }: the echoes' routing protocol\n"
	      "                from the second on (default: the node's);\n"
	      "                \"rproto\" is taken for \"routing\"\n"
	      "       N     := echoes, 1..100000 (default 5)\n"
	      "       MS    := milliseconds between echoes, 10..60000 (default 1000)\n"
	      "ICMPv6 echo to DST's r2c0 link-local address fe80::52:32ff:fe43:XXXX.\n"
	      "Exit status 1 when no echo was answered.\n", f);
}

struct ping_flow {
	uint32_t id;
	uint64_t packets;
};

struct ping_ctx {
	uint16_t self, dst;
	bool have_self, have_rp;
	uint8_t rp;
	uint32_t count, interval_ms;
	char ifname[IF_NAMESIZE];
	struct ping_flow flows[PING_MAX_FLOWS];
	unsigned int nflows;
};

static int node_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[R2C2_A_MAX + 1];
	struct ping_ctx *c = arg;

	if (ctl_nl_parse(msg, tb, NULL))
		return -1;
	if (tb[R2C2_A_NODE_ADDR]) {
		c->self = nla_get_u16(tb[R2C2_A_NODE_ADDR]);
		c->have_self = c->self != R2C2_ADDR_NONE;
	}
	if (tb[R2C2_A_IFNAME])
		snprintf(c->ifname, sizeof(c->ifname), "%s",
			 nla_get_string(tb[R2C2_A_IFNAME]));
	return 0;
}

static int ignore_cb(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return 0;
}

static int flows_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[R2C2_A_MAX + 1];
	struct ping_ctx *c = arg;
	struct ping_flow *f;

	if (ctl_nl_parse(msg, tb, NULL))
		return -1;
	if (!tb[R2C2_A_FLOW_ID] || !tb[R2C2_A_DST] ||
	    nla_get_u16(tb[R2C2_A_DST]) != c->dst ||
	    c->nflows == PING_MAX_FLOWS)
		return 0;
	f = &c->flows[c->nflows++];
	f->id = nla_get_u32(tb[R2C2_A_FLOW_ID]);
	f->packets = tb[R2C2_A_PACKETS] ? nla_get_u64(tb[R2C2_A_PACKETS]) : 0;
	return 0;
}

static int flows_to_dst(struct ping_ctx *c)
{
	struct nl_msg *msg = ctl_nl_msg(R2C2_CMD_FLOW_GET, true);

	if (!msg)
		return R2C2CTL_EXIT_ERR;
	c->nflows = 0;
	return ctl_nl_talk(msg, flows_cb, c);
}

/*
 * The flow of the first echo: the one flow to DST that is new or sent
 * more since @before; FLOW_SET gives it the protocol asked for.
 */
static int set_echo_flow(struct ping_ctx *c, const struct ping_flow *before,
			 unsigned int nbefore, uint32_t *id)
{
	unsigned int i, j, moved = 0;
	struct nl_msg *msg;
	int err;

	err = flows_to_dst(c);
	if (err)
		return err;
	for (i = 0; i < c->nflows; i++) {
		for (j = 0; j < nbefore; j++)
			if (before[j].id == c->flows[i].id)
				break;
		if (j < nbefore && before[j].packets == c->flows[i].packets)
			continue;
		*id = c->flows[i].id;
		moved++;
	}
	if (moved != 1) {
		fprintf(stderr,
			"r2c2ctl: ping: cannot tell the echo's flow: %u flows to node %u sent meanwhile\n",
			moved, c->dst);
		return R2C2CTL_EXIT_ERR;
	}
	msg = ctl_nl_msg(R2C2_CMD_FLOW_SET, false);
	if (!msg)
		return R2C2CTL_EXIT_ERR;
	NLA_PUT_U32(msg, R2C2_A_FLOW_ID, *id);
	NLA_PUT_U8(msg, R2C2_A_RPROTO, c->rp);
	NLA_PUT_U16(msg, R2C2_A_DST, c->dst);
	return ctl_nl_talk(msg, ignore_cb, NULL);

nla_put_failure:
	nlmsg_free(msg);
	return ctl_nl_put_failed();
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int send_echo(int fd, const struct sockaddr_in6 *to, uint16_t id,
		     uint16_t seq)
{
	struct icmp6_hdr h = { 0 };
	unsigned char pkt[sizeof(h) + 16] = { 0 };

	h.icmp6_type = ICMP6_ECHO_REQUEST;
	h.icmp6_id = htons(id);
	h.icmp6_seq = htons(seq);
	memcpy(pkt, &h, sizeof(h));
	memcpy(pkt + sizeof(h), "r2c2ctl ping\0\0\0", 16);
	if (sendto(fd, pkt, sizeof(pkt), 0, (const struct sockaddr *)to,
		   sizeof(*to)) < 0) {
		fprintf(stderr, "r2c2ctl: ping: sendto: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/* wait until @deadline (ms) for the reply to (@id, @seq): 1 got, 0 not */
static int wait_reply(int fd, uint16_t id, uint16_t seq, double deadline)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	unsigned char buf[512];
	struct icmp6_hdr h;
	double left;
	ssize_t n;

	for (;;) {
		left = deadline - now_ms();
		if (left <= 0)
			return 0;
		if (poll(&p, 1, (int)ceil(left)) <= 0)
			continue;
		n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < (ssize_t)sizeof(h))
			continue;
		memcpy(&h, buf, sizeof(h));
		if (h.icmp6_type == ICMP6_ECHO_REPLY &&
		    ntohs(h.icmp6_id) == id && ntohs(h.icmp6_seq) == seq)
			return 1;
	}
}

static int ping_parse(struct ping_ctx *c, int argc, char **argv)
{
	bool have_dst = false, have_count = false, have_iv = false;

	c->count = 5;
	c->interval_ms = 1000;
	for (; argc > 0; argc--, argv++) {
		if (matches(*argv, "routing") || !strcmp(*argv, "rproto")) {
			NEXT_ARG();
			if (c->have_rp)
				return duplicate_arg("routing");
			if (parse_rproto(*argv, &c->rp))
				return R2C2CTL_EXIT_USAGE;
			c->have_rp = true;
		} else if (matches(*argv, "count")) {
			NEXT_ARG();
			if (have_count)
				return duplicate_arg("count");
			if (parse_u32("count", *argv, 1, 100000, &c->count))
				return R2C2CTL_EXIT_USAGE;
			have_count = true;
		} else if (matches(*argv, "interval")) {
			NEXT_ARG();
			if (have_iv)
				return duplicate_arg("interval");
			if (parse_u32("interval", *argv, 10, 60000,
				      &c->interval_ms))
				return R2C2CTL_EXIT_USAGE;
			have_iv = true;
		} else if (!have_dst && !is_help(*argv)) {
			if (parse_addr("destination", *argv, &c->dst))
				return R2C2CTL_EXIT_USAGE;
			have_dst = true;
		} else {
			return extra_arg(*argv, usage);
		}
	}
	if (!have_dst)
		return usage_error("ping: missing DST");
	return 0;
}

static int ping_prepare(struct ping_ctx *c)
{
	struct nl_msg *msg;
	int err;

	err = ctl_nl_open();
	if (err)
		return err;
	msg = ctl_nl_msg(R2C2_CMD_NODE_GET, false);
	if (!msg)
		return R2C2CTL_EXIT_ERR;
	err = ctl_nl_talk(msg, node_cb, c);
	if (err)
		return err;
	if (!c->have_self || !c->ifname[0]) {
		fputs("r2c2ctl: ping: this node has no address\n", stderr);
		return R2C2CTL_EXIT_ERR;
	}
	/* a destination outside the graph fails here, with the kernel's words */
	msg = ctl_nl_msg(R2C2_CMD_ROUTE_GET, false);
	if (!msg)
		return R2C2CTL_EXIT_ERR;
	NLA_PUT_U16(msg, R2C2_A_DST, c->dst);
	if (c->have_rp)
		NLA_PUT_U8(msg, R2C2_A_RPROTO, c->rp);
	return ctl_nl_talk(msg, ignore_cb, NULL);

nla_put_failure:
	nlmsg_free(msg);
	return ctl_nl_put_failed();
}

static int ping_run(struct ping_ctx *c)
{
	struct icmp6_filter filt;
	struct sockaddr_in6 to = { .sin6_family = AF_INET6 };
	struct ping_flow before[PING_MAX_FLOWS];
	unsigned int nbefore = 0, got = 0, sent = 0, seq;
	double min = 0, max = 0, sum = 0, t0, rtt;
	uint16_t id = (uint16_t)getpid();
	char addr[INET6_ADDRSTRLEN], buf[16];
	uint32_t flow = 0;
	bool flow_set = false;
	int fd, err;

	to.sin6_scope_id = if_nametoindex(c->ifname);
	if (!to.sin6_scope_id) {
		fprintf(stderr, "r2c2ctl: ping: %s: %s\n", c->ifname,
			strerror(errno));
		return R2C2CTL_EXIT_ERR;
	}
	to.sin6_addr.s6_addr[0] = 0xfe;
	to.sin6_addr.s6_addr[1] = 0x80;
	to.sin6_addr.s6_addr[9] = 0x52;
	to.sin6_addr.s6_addr[10] = 0x32;
	to.sin6_addr.s6_addr[11] = 0xff;
	to.sin6_addr.s6_addr[12] = 0xfe;
	to.sin6_addr.s6_addr[13] = 0x43;
	to.sin6_addr.s6_addr[14] = (uint8_t)(c->dst >> 8);
	to.sin6_addr.s6_addr[15] = (uint8_t)c->dst;
	inet_ntop(AF_INET6, &to.sin6_addr, addr, sizeof(addr));

	fd = socket(AF_INET6, SOCK_RAW, IPPROTO_ICMPV6);
	if (fd < 0) {
		fprintf(stderr, "r2c2ctl: ping: raw ICMPv6 socket: %s\n",
			strerror(errno));
		return R2C2CTL_EXIT_ERR;
	}
	ICMP6_FILTER_SETBLOCKALL(&filt);
	ICMP6_FILTER_SETPASS(ICMP6_ECHO_REPLY, &filt);
	setsockopt(fd, IPPROTO_ICMPV6, ICMP6_FILTER, &filt, sizeof(filt));

	if (c->have_rp) {
		err = flows_to_dst(c);
		if (err)
			goto out;
		nbefore = c->nflows;
		memcpy(before, c->flows, nbefore * sizeof(before[0]));
	}
	if (!is_json())
		printf("PING node %u (%s%%%s)%s%s\n", c->dst, addr, c->ifname,
		       c->have_rp ? ", routing " : "",
		       c->have_rp ? rproto_name(c->rp, buf, sizeof(buf)) : "");
	err = R2C2CTL_EXIT_ERR;
	open_obj(NULL);
	print_uint("src", NULL, c->self);
	print_uint("dst", NULL, c->dst);
	print_str("address", NULL, addr);
	if (c->have_rp)
		print_str("routing", NULL, rproto_name(c->rp, buf, sizeof(buf)));
	else
		print_null("routing", NULL);
	open_arr("replies");
	for (seq = 1; seq <= c->count; seq++) {
		t0 = now_ms();
		if (send_echo(fd, &to, id, (uint16_t)seq))
			goto out_arr;
		sent++;
		if (wait_reply(fd, id, (uint16_t)seq, t0 + 1000.0 +
			       (c->interval_ms > 1000 ? c->interval_ms - 1000 : 0))) {
			rtt = now_ms() - t0;
			if (!got || rtt < min)
				min = rtt;
			if (!got || rtt > max)
				max = rtt;
			sum += rtt;
			got++;
			open_obj(NULL);
			print_text("reply from node %u: ", c->dst);
			print_uint("seq", "seq=%llu ", seq);
			print_float("rtt_ms", "time=%.3f ms", rtt);
			print_nl();
			close_obj();
		} else {
			print_text("no reply to seq=%u\n", seq);
		}
		if (seq == 1 && c->have_rp) {
			err = set_echo_flow(c, before, nbefore, &flow);
			if (err)
				goto out_arr;
			flow_set = true;
		}
		if (seq < c->count) {
			rtt = t0 + c->interval_ms - now_ms();
			if (rtt > 0)
				usleep((useconds_t)(rtt * 1000));
		}
	}
	err = got ? R2C2CTL_EXIT_OK : R2C2CTL_EXIT_ERR;
out_arr:
	close_arr();
	if (flow_set) {
		format_flowid(flow, buf, sizeof(buf));
		print_str("flow_id", NULL, buf);
	}
	print_text("--- node %u ping statistics ---\n", c->dst);
	print_uint("transmitted", "%llu echoes sent, ", sent);
	print_uint("received", "%llu received, ", got);
	print_float("loss_pct", "%.0f%% loss\n",
		    sent ? 100.0 * (sent - got) / sent : 100.0);
	if (got) {
		print_float("rtt_min_ms", "rtt min/avg/max = %.3f/", min);
		print_float("rtt_avg_ms", "%.3f/", sum / got);
		print_float("rtt_max_ms", "%.3f ms\n", max);
	}
	close_obj();
	if (!got && !err)
		err = R2C2CTL_EXIT_ERR;
	if (!got)
		fprintf(stderr, "r2c2ctl: ping: no reply from node %u\n", c->dst);
out:
	close(fd);
	return err;
}

int cmd_ping(int argc, char **argv)
{
	struct ping_ctx c = { 0 };
	int err;

	if (argc > 0 && is_help(argv[0])) {
		usage(stdout);
		return R2C2CTL_EXIT_OK;
	}
	err = ping_parse(&c, argc, argv);
	if (!err)
		err = ping_prepare(&c);
	if (!err)
		err = ping_run(&c);
	return err;
}
