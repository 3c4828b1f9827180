/* SPDX-License-Identifier: GPL-2.0 */
/*
 * r2c2_nl.h - a little generic netlink for the selftest tools, on libnl:
 * a socket in a given network namespace, the "r2c2" family, and one
 * request with its answers, the kernel's errno and its extended ack
 * message. Header-only (static functions): each tool is one .c file.
 *
 * Unlike r2c2ctl, nothing here checks what is sent: the tools exist to
 * send what r2c2ctl refuses to, and to read many namespaces at once.
 */
#ifndef _R2C2_SELFTEST_NL_H
#define _R2C2_SELFTEST_NL_H

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <netlink/netlink.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
#include <linux/r2c2.h>
#include <r2c2/stat_names.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/**
 * struct tnl - a generic netlink socket of one network namespace
 * @sk: the libnl socket
 * @family: id of the r2c2 family (negative: not resolved)
 */
struct tnl {
	struct nl_sock *sk;
	int family;
};

/**
 * struct tnl_reply - how the kernel answered a request
 * @error: 0 or a positive errno
 * @extack: the extended ack message ("" if none)
 * @msgs: messages of the family received
 */
struct tnl_reply {
	int error;
	char extack[256];
	unsigned int msgs;
};

/* a message of the family; return non-zero to report a parse error */
typedef int (*tnl_cb)(struct nlmsghdr *h, void *arg);

/*
 * Enter the network namespace NS: a name under /run/netns or, with a
 * '/', a path (/proc/PID/ns/net). Returns 0 or a negative errno.
 */
static inline int tnl_setns(const char *ns)
{
	char path[4096];
	int fd, err = 0;

	if (strchr(ns, '/'))
		snprintf(path, sizeof(path), "%s", ns);
	else
		snprintf(path, sizeof(path), "/run/netns/%s", ns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (setns(fd, CLONE_NEWNET) < 0)
		err = -errno;
	close(fd);
	return err;
}

/*
 * A socket in the current namespace with extended acks, and the family.
 * Returns 0, or -1 after a message on stderr.
 */
static inline int tnl_open(struct tnl *t, const char *who)
{
	int one = 1, err;

	t->family = -1;
	t->sk = nl_socket_alloc();
	if (!t->sk) {
		fprintf(stderr, "%s: out of memory\n", who);
		return -1;
	}
	err = genl_connect(t->sk);
	if (err < 0) {
		fprintf(stderr, "%s: generic netlink socket: %s\n", who,
			nl_geterror(err));
		return -1;
	}
	setsockopt(nl_socket_get_fd(t->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	setsockopt(nl_socket_get_fd(t->sk), SOL_NETLINK, NETLINK_CAP_ACK,
		   &one, sizeof(one));
	t->family = genl_ctrl_resolve(t->sk, R2C2_GENL_NAME);
	if (t->family < 0) {
		fprintf(stderr, "%s: generic netlink family \"%s\": %s (is r2c2.ko loaded?)\n",
			who, R2C2_GENL_NAME, nl_geterror(t->family));
		return -1;
	}
	return 0;
}

static inline void tnl_close(struct tnl *t)
{
	nl_socket_free(t->sk);
	t->sk = NULL;
}

/* A request of the family: NLM_F_ACK, or NLM_F_DUMP when @dump. */
static inline struct nl_msg *tnl_msg(struct tnl *t, int cmd, int dump)
{
	struct nl_msg *msg = nlmsg_alloc_size(65536);

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, t->family, 0,
			 dump ? NLM_F_DUMP : NLM_F_ACK, (uint8_t)cmd,
			 R2C2_GENL_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/* extended ack TLVs of an error or done message; @skip: bytes before */
static inline void tnl_extack(const struct nlmsghdr *h, size_t skip,
			      struct tnl_reply *r)
{
	const struct nlmsgerr *e = NLMSG_DATA(h);
	size_t off = NLMSG_HDRLEN + skip;
	const struct nlattr *a;
	int rem;

	if (h->nlmsg_type == NLMSG_ERROR && !(h->nlmsg_flags & NLM_F_CAPPED) &&
	    e->msg.nlmsg_len > NLMSG_HDRLEN)
		off += NLMSG_ALIGN(e->msg.nlmsg_len - NLMSG_HDRLEN);
	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS) || h->nlmsg_len <= off)
		return;
	nla_for_each_attr(a, (struct nlattr *)((char *)h + off),
			  (int)(h->nlmsg_len - off), rem) {
		if (nla_type(a) == NLMSGERR_ATTR_MSG && nla_len(a) > 0)
			snprintf(r->extack, sizeof(r->extack), "%.*s",
				 nla_len(a), (const char *)nla_data(a));
	}
}

/*
 * Send @msg (consumed) and read the answers until the ack, the error or
 * the end of the dump. Messages of the family go to @cb. Returns 0 when
 * the kernel answered (r->error tells how), -1 after a message on stderr.
 */
static inline int tnl_talk(struct tnl *t, struct nl_msg *msg, tnl_cb cb,
			   void *arg, struct tnl_reply *r, const char *who)
{
	unsigned int seq;
	int err;

	memset(r, 0, sizeof(*r));
	err = nl_send_auto(t->sk, msg);
	seq = nlmsg_hdr(msg)->nlmsg_seq;
	nlmsg_free(msg);
	if (err < 0) {
		fprintf(stderr, "%s: send: %s\n", who, nl_geterror(err));
		return -1;
	}
	for (;;) {
		struct sockaddr_nl peer;
		unsigned char *buf = NULL;
		struct nlmsghdr *h;
		int n, done = 0;

		n = nl_recv(t->sk, &peer, &buf, NULL);
		if (n <= 0) {
			fprintf(stderr, "%s: receive: %s\n", who,
				n ? nl_geterror(n) : "connection closed");
			free(buf);
			return -1;
		}
		for (h = (struct nlmsghdr *)buf; nlmsg_ok(h, n);
		     h = nlmsg_next(h, &n)) {
			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_DONE) {
				if (h->nlmsg_len >= NLMSG_HDRLEN + sizeof(int))
					r->error = -*(int *)NLMSG_DATA(h);
				tnl_extack(h, sizeof(int), r);
				done = 1;
			} else if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);

				r->error = -e->error;
				tnl_extack(h, sizeof(*e), r);
				done = 1;
			} else if (h->nlmsg_type == t->family) {
				r->msgs++;
				if (cb && cb(h, arg)) {
					fprintf(stderr, "%s: malformed answer\n", who);
					free(buf);
					return -1;
				}
			}
			if (done)
				break;
		}
		free(buf);
		if (done)
			return 0;
	}
}

/* names of enum r2c2_stat, by value (unknown ones print as s<N>) */
static const char *const tnl_stat_names[] = { R2C2_STAT_NAMES };

#endif /* _R2C2_SELFTEST_NL_H */
