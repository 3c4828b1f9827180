// SPDX-License-Identifier: GPL-2.0
/*
 * nl.c - generic netlink for r2c2ctl, through libnl-3 and libnl-genl-3.
 *
 * One socket a process. A request is sent with NLM_F_ACK and answered by
 * zero or more messages of the family, then an ACK, an error or (dumps)
 * NLMSG_DONE; errors carry the kernel's extack message, which is what the
 * user sees. Event listening uses a non-blocking socket without sequence
 * checks, polled with a deadline. The attribute policy, parsing, extack
 * and family resolution are libr2c2's (r2c2_genl.h), shared with r2c2d.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <netlink/netlink.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/family.h>

#include "cmds.h"
#include "json.h"
#include "nl.h"
#include "r2c2ctl.h"
#include "r2c2_genl.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

static struct nl_sock *sk;
static int family_id;
static const char *family_name = R2C2_GENL_NAME;
static FILE *replay_in;		/* R2C2CTL_REPLAY */
static FILE *sent_out;		/* R2C2CTL_SENT */
static bool replay_eof;

/* what the user typed, for messages about a failed command */
static const char *const cmd_names[__R2C2_CMD_MAX] = {
	[R2C2_CMD_NODE_GET]	= "node show",
	[R2C2_CMD_NODE_SET]	= "node set",
	[R2C2_CMD_NODE_DEL]	= "node del",
	[R2C2_CMD_PORT_ADD]	= "port add",
	[R2C2_CMD_PORT_DEL]	= "port del",
	[R2C2_CMD_PORT_GET]	= "port show",
	[R2C2_CMD_TOPO_GET]	= "topo show",
	[R2C2_CMD_TREE_GET]	= "tree show",
	[R2C2_CMD_ROUTE_GET]	= "route get",
	[R2C2_CMD_STATS_GET]	= "stats show",
	[R2C2_CMD_STATS_RESET]	= "stats reset",
	[R2C2_CMD_FLOW_GET]	= "flow show",
	[R2C2_CMD_FLOW_SET]	= "flow set",
	[R2C2_CMD_FLOW_EVENT]	= "event send",
	[R2C2_CMD_ROUTES_SEND]	= "routes send",
	[R2C2_CMD_RATE_SET]	= "rate set",
	[R2C2_CMD_QFLOW_GET]	= "qflow show",
	[R2C2_CMD_RESEQ_GET]	= "reseq show",
	[R2C2_CMD_CLASS_SET]	= "class add",
	[R2C2_CMD_CLASS_DEL]	= "class del",
	[R2C2_CMD_CLASS_GET]	= "class show",
	[R2C2_CMD_KEY_SET]	= "key set",
	[R2C2_CMD_KEY_DEL]	= "key del",
	[R2C2_CMD_KEY_GET]	= "key show",
	[R2C2_CMD_XDP_SET]	= "xdp",
};

/* ------------------------------------------------------------------ */
/* Replay (tests): the kernel's side read from a file                   */
/* ------------------------------------------------------------------ */

static int replay_recv(struct nl_sock *s, struct sockaddr_nl *nla,
		       unsigned char **buf, struct ucred **creds)
{
	struct nlmsghdr h;
	unsigned char *b;
	size_t len;

	(void)s;
	(void)creds;
	if (fread(&h, sizeof(h), 1, replay_in) != 1) {
		replay_eof = true;
		return -NLE_FAILURE;
	}
	if (h.nlmsg_len < sizeof(h) || h.nlmsg_len > (1u << 20)) {
		fputs("r2c2ctl: replay: bad message length\n", stderr);
		replay_eof = true;
		return -NLE_MSG_TOOSHORT;
	}
	len = NLMSG_ALIGN(h.nlmsg_len);
	b = calloc(1, len);
	if (!b)
		return -NLE_NOMEM;
	memcpy(b, &h, sizeof(h));
	if (fread(b + sizeof(h), 1, len - sizeof(h), replay_in) !=
	    len - sizeof(h)) {
		/* the last message may lack its alignment padding */
		if (h.nlmsg_len > sizeof(h) && !feof(replay_in)) {
			free(b);
			replay_eof = true;
			return -NLE_MSG_TRUNC;
		}
	}
	memset(nla, 0, sizeof(*nla));
	nla->nl_family = AF_NETLINK;
	*buf = b;
	return (int)h.nlmsg_len;
}

static int log_send(struct nl_sock *s, struct nl_msg *msg)
{
	struct nlmsghdr *h = nlmsg_hdr(msg);
	struct iovec iov = { .iov_base = h, .iov_len = h->nlmsg_len };

	if (sent_out) {
		fwrite(h, 1, NLMSG_ALIGN(h->nlmsg_len), sent_out);
		fflush(sent_out);
	}
	if (replay_in)
		return (int)h->nlmsg_len;
	return nl_send_iovec(s, msg, &iov, 1);
}

/* ------------------------------------------------------------------ */
/* Socket and family                                                   */
/* ------------------------------------------------------------------ */

static int open_replay(const char *path)
{
	const char *sent = getenv("R2C2CTL_SENT");
	struct nl_cb *cb;

	replay_eof = false;
	replay_in = fopen(path, "rb");
	if (!replay_in) {
		fprintf(stderr, "r2c2ctl: R2C2CTL_REPLAY: %s: %s\n", path,
			strerror(errno));
		return R2C2CTL_EXIT_ERR;
	}
	if (sent && *sent) {
		sent_out = fopen(sent, "ab");
		if (!sent_out) {
			fprintf(stderr, "r2c2ctl: R2C2CTL_SENT: %s: %s\n",
				sent, strerror(errno));
			return R2C2CTL_EXIT_ERR;
		}
	}
	cb = nl_socket_get_cb(sk);
	nl_cb_overwrite_recv(cb, replay_recv);
	nl_cb_overwrite_send(cb, log_send);
	nl_cb_put(cb);
	nl_socket_disable_seq_check(sk);
	family_id = R2C2CTL_REPLAY_FAMILY;
	return R2C2CTL_EXIT_OK;
}

int ctl_nl_open(void)
{
	const char *env;
	int one = 1, err;
	char msg[256];

	if (sk || opts.check)
		return R2C2CTL_EXIT_OK;
	env = getenv("R2C2CTL_FAMILY");
	if (env && *env)
		family_name = env;
	sk = nl_socket_alloc();
	if (!sk) {
		fputs("r2c2ctl: out of memory\n", stderr);
		return R2C2CTL_EXIT_ERR;
	}
	env = getenv("R2C2CTL_REPLAY");
	if (env && *env)
		return open_replay(env);

	err = genl_connect(sk);
	if (err < 0) {
		fprintf(stderr,
			"r2c2ctl: cannot open a generic netlink socket: %s\n",
			nl_geterror(err));
		return R2C2CTL_EXIT_ERR;
	}
	/* extack messages, without the echo of our request (best effort) */
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_CAP_ACK,
		   &one, sizeof(one));

	family_id = r2c2_genl_family(sk, family_name, msg, sizeof(msg));
	if (family_id < 0) {
		fprintf(stderr, "r2c2ctl: %s\n", msg);
		return R2C2CTL_EXIT_ERR;
	}
	return R2C2CTL_EXIT_OK;
}

void ctl_nl_close(void)
{
	nl_socket_free(sk);
	sk = NULL;
	if (replay_in)
		fclose(replay_in);
	if (sent_out)
		fclose(sent_out);
	replay_in = sent_out = NULL;
}

/* ------------------------------------------------------------------ */
/* Messages                                                            */
/* ------------------------------------------------------------------ */

/* ROUTES_SEND with R2C2_ROUTES_MAX entries needs about 6 KiB */
#define CTL_MSG_SIZE	32768

struct nl_msg *ctl_nl_msg(uint8_t cmd, bool dump)
{
	struct nl_msg *msg = nlmsg_alloc_size(CTL_MSG_SIZE);

	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family_id, 0,
				 dump ? NLM_F_DUMP : NLM_F_ACK, cmd,
				 R2C2_GENL_VERSION)) {
		nlmsg_free(msg);
		fputs("r2c2ctl: out of memory\n", stderr);
		return NULL;
	}
	return msg;
}

int ctl_nl_put_failed(void)
{
	fputs("r2c2ctl: request does not fit in a netlink message\n", stderr);
	return R2C2CTL_EXIT_ERR;
}

int ctl_nl_parse(struct nl_msg *msg, struct nlattr **tb, uint8_t *cmd)
{
	int err = r2c2_genl_parse(msg, tb, cmd);

	if (err == -NLE_MSG_TOOSHORT) {
		fputs("r2c2ctl: malformed message from the kernel: short generic netlink header\n",
		      stderr);
		return -1;
	}
	if (err < 0) {
		fprintf(stderr,
			"r2c2ctl: malformed message from the kernel: %s\n",
			nl_geterror(err));
		return -1;
	}
	return 0;
}

int ctl_nl_parse_nested(struct nlattr **tb, const struct nlattr *nest)
{
	int err = r2c2_genl_parse_nested(tb, nest);

	if (err < 0) {
		fprintf(stderr,
			"r2c2ctl: malformed nested attribute from the kernel: %s\n",
			nl_geterror(err));
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Requests and their answers                                          */
/* ------------------------------------------------------------------ */

struct talk {
	uint8_t cmd;
	bool done;
	int error;		/* errno from the kernel, 0 */
	bool failed;		/* a callback printed an error */
	ctl_msg_cb cb;
	void *arg;
};

static const char *cmd_name(uint8_t cmd)
{
	if (cmd < __R2C2_CMD_MAX && cmd_names[cmd])
		return cmd_names[cmd];
	return "request";
}

/*
 * Extended ack TLVs of an error or ack message @h whose first @skip
 * payload bytes are struct nlmsgerr (or the int of NLMSG_DONE).
 */
static void report(const struct talk *t, struct nlmsghdr *h, int error,
		   size_t skip)
{
	struct r2c2_genl_extack x;
	const char *msg;
	char miss[48] = "";

	r2c2_genl_extack(h, skip, &x);
	msg = x.msg;
	if (x.miss_type >= 0)
		snprintf(miss, sizeof(miss), " (missing attribute %ld)",
			 x.miss_type);
	if (!error) {
		if (msg)
			fprintf(stderr, "r2c2ctl: %s: warning: %s\n",
				cmd_name(t->cmd), msg);
		return;
	}
	if (msg)
		fprintf(stderr, "r2c2ctl: %s: %s%s (%s)\n", cmd_name(t->cmd),
			msg, miss, strerror(error));
	else
		fprintf(stderr, "r2c2ctl: %s: %s%s\n", cmd_name(t->cmd),
			strerror(error), miss);
	if (error == EPERM)
		fputs("r2c2ctl: changing r2c2 needs CAP_NET_ADMIN (run as root)\n",
		      stderr);
}

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct talk *t = arg;
	int ret;

	if (nlmsg_hdr(msg)->nlmsg_type != family_id || !t->cb)
		return NL_SKIP;
	ret = t->cb(msg, t->arg);
	if (ret < 0) {
		t->failed = true;
		t->done = true;
		return NL_STOP;
	}
	if (ret > 0) {
		t->done = true;
		return NL_STOP;
	}
	return NL_OK;
}

static int on_error(struct sockaddr_nl *nla, struct nlmsgerr *err, void *arg)
{
	struct talk *t = arg;
	struct nlmsghdr *h = (struct nlmsghdr *)err - 1;

	(void)nla;
	t->done = true;
	t->error = r2c2_genl_errno(err->error);
	report(t, h, t->error, sizeof(*err));
	return NL_STOP;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	struct talk *t = arg;

	t->done = true;
	report(t, nlmsg_hdr(msg), 0, sizeof(struct nlmsgerr));
	return NL_STOP;
}

static int on_finish(struct nl_msg *msg, void *arg)
{
	struct talk *t = arg;
	struct nlmsghdr *h = nlmsg_hdr(msg);
	int err = 0;

	t->done = true;
	/* a dump that failed part way says so in NLMSG_DONE */
	if (nlmsg_datalen(h) >= (int)sizeof(int))
		memcpy(&err, nlmsg_data(h), sizeof(err));
	if (err < 0) {
		t->error = r2c2_genl_errno(err);
		report(t, h, t->error, sizeof(int));
	}
	return NL_STOP;
}

static struct nl_cb *talk_cb(struct talk *t)
{
	struct nl_cb *scb = nl_socket_get_cb(sk);
	struct nl_cb *cb = nl_cb_clone(scb);

	nl_cb_put(scb);
	if (!cb)
		return NULL;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, t);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, t);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, t);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, t);
	return cb;
}

static int talk_result(const struct talk *t)
{
	return t->error || t->failed ? R2C2CTL_EXIT_ERR : R2C2CTL_EXIT_OK;
}

int ctl_nl_talk(struct nl_msg *msg, ctl_msg_cb cb, void *arg)
{
	struct talk t = {
		.cmd = ((struct genlmsghdr *)nlmsg_data(nlmsg_hdr(msg)))->cmd,
		.cb = cb,
		.arg = arg,
	};
	struct nl_cb *c;
	int err;

	if (opts.check) {	/* built, and every attribute of its type */
		err = genlmsg_validate(nlmsg_hdr(msg), 0, R2C2_A_MAX,
				       r2c2_genl_policy);
		nlmsg_free(msg);
		if (err < 0) {
			fprintf(stderr, "r2c2ctl: %s: malformed request: %s\n",
				cmd_name(t.cmd), nl_geterror(err));
			return R2C2CTL_EXIT_ERR;
		}
		return R2C2CTL_EXIT_OK;
	}
	c = talk_cb(&t);
	if (!c) {
		nlmsg_free(msg);
		fputs("r2c2ctl: out of memory\n", stderr);
		return R2C2CTL_EXIT_ERR;
	}
	err = nl_send_auto(sk, msg);
	nlmsg_free(msg);
	if (err < 0) {
		fprintf(stderr, "r2c2ctl: %s: cannot send: %s\n",
			cmd_name(t.cmd), nl_geterror(err));
		nl_cb_put(c);
		return R2C2CTL_EXIT_ERR;
	}
	while (!t.done) {
		err = nl_recvmsgs(sk, c);
		if (err < 0 && !t.done) {
			if (replay_eof)
				fprintf(stderr,
					"r2c2ctl: %s: replay ended before the answer did\n",
					cmd_name(t.cmd));
			else
				fprintf(stderr, "r2c2ctl: %s: %s\n",
					cmd_name(t.cmd), nl_geterror(err));
			t.failed = true;
			break;
		}
	}
	nl_cb_put(c);
	return talk_result(&t);
}

/* ------------------------------------------------------------------ */
/* Events                                                              */
/* ------------------------------------------------------------------ */

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int subscribe(void)
{
	char msg[256];
	int grp, err;

	if (replay_in)
		return R2C2CTL_EXIT_OK;
	grp = r2c2_genl_group(sk, family_name, R2C2_GENL_MCGRP_EVENTS, msg,
			      sizeof(msg));
	if (grp < 0) {
		fprintf(stderr, "r2c2ctl: %s\n", msg);
		return R2C2CTL_EXIT_ERR;
	}
	err = nl_socket_add_membership(sk, grp);
	if (err < 0) {
		fprintf(stderr, "r2c2ctl: cannot join group \"%s\": %s\n",
			R2C2_GENL_MCGRP_EVENTS, nl_geterror(err));
		return R2C2CTL_EXIT_ERR;
	}
	nl_socket_disable_seq_check(sk);
	nl_socket_set_buffer_size(sk, 1 << 20, 0);
	err = nl_socket_set_nonblocking(sk);
	if (err < 0) {
		fprintf(stderr, "r2c2ctl: %s\n", nl_geterror(err));
		return R2C2CTL_EXIT_ERR;
	}
	return R2C2CTL_EXIT_OK;
}

int ctl_nl_dump_arr(uint8_t cmd, ctl_msg_cb cb, void *arg)
{
	struct nl_msg *msg;
	int err;

	err = ctl_nl_open();
	if (err)
		return err;
	msg = ctl_nl_msg(cmd, true);
	if (!msg)
		return R2C2CTL_EXIT_ERR;
	open_arr(NULL);
	err = ctl_nl_talk(msg, cb, arg);
	close_arr();
	return err;
}

int ctl_nl_listen(int timeout_ms, ctl_msg_cb cb, void *arg)
{
	struct talk t = { .cb = cb, .arg = arg };
	long long deadline = timeout_ms > 0 ? now_ms() + timeout_ms : 0;
	struct nl_cb *c;
	int err;

	if (opts.check)
		return R2C2CTL_EXIT_OK;
	err = subscribe();
	if (err)
		return err;
	c = talk_cb(&t);
	if (!c) {
		fputs("r2c2ctl: out of memory\n", stderr);
		return R2C2CTL_EXIT_ERR;
	}
	while (!t.done) {
		if (!replay_in) {
			struct pollfd pfd = {
				.fd = nl_socket_get_fd(sk),
				.events = POLLIN,
			};
			int wait = -1, n;

			if (deadline) {
				long long left = deadline - now_ms();

				if (left <= 0)
					break;
				wait = (int)left;
			}
			n = poll(&pfd, 1, wait);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				perror("r2c2ctl: poll");
				t.failed = true;
				break;
			}
			if (n == 0)
				break;
		}
		err = nl_recvmsgs(sk, c);
		if (err == -NLE_AGAIN)
			continue;
		if (err == -NLE_NOMEM && !replay_in) {
			/* ENOBUFS: the kernel dropped events for us */
			fputs("r2c2ctl: warning: events lost (receive buffer overrun)\n",
			      stderr);
			continue;
		}
		if (err < 0 && replay_eof)
			break;
		if (err < 0) {
			fprintf(stderr, "r2c2ctl: monitor: %s\n",
				nl_geterror(err));
			t.failed = true;
			break;
		}
	}
	nl_cb_put(c);
	return talk_result(&t);
}
