// SPDX-License-Identifier: GPL-2.0
/*
 * dnl.c - r2c2d's generic netlink through libnl-3 / libnl-genl-3.
 *
 * Two sockets: events arrive on a non-blocking socket with sequence
 * checks disabled and a large receive buffer (SO_RCVBUFFORCE: the daemon
 * has CAP_NET_ADMIN, and SO_RCVBUF stops at net.core.rmem_max); when the
 * kernel still overruns it (ENOBUFS, which libnl reports as NLE_NOMEM),
 * the caller is told so and resynchronises from dumps and the rack's
 * refreshes.
 * Requests and dumps use a second, blocking socket, so an event can never
 * be mistaken for a reply. The attribute policy, parsing and family and
 * group resolution are libr2c2's (r2c2_genl.h), shared with r2c2ctl.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <linux/netlink.h>
#include <linux/types.h>
#include <linux/r2c2.h>
#include <netlink/netlink.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>

#include "dnl.h"
#include "r2c2_genl.h"

/* nlctrl's notify messages: the family name, a NUL-terminated string */
static struct nla_policy ctrl_pol[CTRL_ATTR_MAX + 1] = {
	[CTRL_ATTR_FAMILY_NAME]	= { .type = NLA_STRING },
};

int dnl_rcvbuf(int fd, int want, bool *forced)
{
	socklen_t len = sizeof(want);
	int got = 0;

	*forced = !setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &want,
			      sizeof(want));
	if (!*forced)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &want, sizeof(want));
	if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &got, &len))
		return -errno;
	return got;
}

int dnl_open(struct dnl *d, uint32_t ifindex, char *err, size_t errlen)
{
	struct timeval tmo = { .tv_sec = 2 };
	int grp, one = 1, r;

	memset(d, 0, sizeof(*d));
	d->ifindex = ifindex;
	d->ev = nl_socket_alloc();
	d->cmd = nl_socket_alloc();
	if (!d->ev || !d->cmd) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (genl_connect(d->cmd) < 0 || genl_connect(d->ev) < 0) {
		snprintf(err, errlen, "cannot open a generic netlink socket");
		goto fail;
	}
	setsockopt(nl_socket_get_fd(d->cmd), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	/* a reply that never comes must not stop the loop for good */
	setsockopt(nl_socket_get_fd(d->cmd), SOL_SOCKET, SO_RCVTIMEO, &tmo,
		   sizeof(tmo));
	d->family = r2c2_genl_family(d->cmd, R2C2_GENL_NAME, err, errlen);
	if (d->family < 0)
		goto fail;
	grp = r2c2_genl_group(d->cmd, R2C2_GENL_NAME, R2C2_GENL_MCGRP_EVENTS,
			      err, errlen);
	if (grp < 0)
		goto fail;
	nl_socket_disable_seq_check(d->ev);
	/* not nl_socket_set_buffer_size(): SO_RCVBUF stops at rmem_max */
	r = dnl_rcvbuf(nl_socket_get_fd(d->ev), DNL_EV_RCVBUF,
		       &d->ev_rcvbuf_forced);
	d->ev_rcvbuf = r > 0 ? r : 0;
	/*
	 * One recvmsg() an event, not two: libnl peeks at every datagram
	 * for its size unless given a buffer (which it allocates for every
	 * datagram: 64 KB made malloc move the heap's top each time, and
	 * cost more than the peek). The kernel's events are a few KB at most
	 * (a ROUTES batch of R2C2_ROUTES_MAX: under 7 KB), so 16 KB always
	 * holds one.
	 */
	nl_socket_disable_msg_peek(d->ev);
	nl_socket_set_msg_buf_size(d->ev, 16 << 10);
	if (nl_socket_add_membership(d->ev, grp) < 0 ||
	    nl_socket_set_nonblocking(d->ev) < 0) {
		snprintf(err, errlen, "cannot subscribe to r2c2 events");
		goto fail;
	}
	/* family (un)registrations: the module going away */
	grp = r2c2_genl_group(d->cmd, "nlctrl", "notify", err, errlen);
	if (grp < 0)
		goto fail;
	if (nl_socket_add_membership(d->ev, grp) < 0) {
		snprintf(err, errlen, "cannot subscribe to nlctrl's notify group");
		goto fail;
	}
	return 0;
fail:
	dnl_close(d);
	return -1;
}

bool dnl_family_ok(struct dnl *d)
{
	int id = genl_ctrl_resolve(d->cmd, R2C2_GENL_NAME);

	/* an error other than "not found" says nothing about the family */
	if (id == -NLE_OBJ_NOTFOUND || (id >= 0 && id != d->family))
		d->gone = true;
	return !d->gone;
}

const char *dnl_strerror(int err)
{
	return nl_geterror(err);
}

void dnl_close(struct dnl *d)
{
	nl_socket_free(d->ev);
	nl_socket_free(d->cmd);
	d->ev = d->cmd = NULL;
}

int dnl_ev_fd(const struct dnl *d)
{
	return nl_socket_get_fd(d->ev);
}

struct ev_ctx {
	struct dnl *d;
	void (*cb)(void *arg, const struct mx_evt *e);
	void *arg;
};

/* ROUTES_EVENT: hand the entries to d->routes_cb */
static void routes_ev(struct dnl *d, struct nlattr **tb)
{
	struct rs_ent e[R2C2_ROUTES_MAX];
	struct nlattr *a, *etb[R2C2_A_MAX + 1];
	size_t n = 0;
	int rem;

	if (!d->routes_cb || !tb[R2C2_A_NODE_ADDR] || !tb[R2C2_A_ROUTES])
		return;
	nla_for_each_nested(a, tb[R2C2_A_ROUTES], rem) {
		if (n == R2C2_ROUTES_MAX || nla_type(a) != R2C2_A_ROUTE_ENT ||
		    r2c2_genl_parse_nested(etb, a) ||
		    !etb[R2C2_A_FLOW_SRC] || !etb[R2C2_A_FLOW_ID] ||
		    !etb[R2C2_A_RPROTO])
			continue;
		e[n].src = nla_get_u16(etb[R2C2_A_FLOW_SRC]);
		e[n].id = nla_get_u32(etb[R2C2_A_FLOW_ID]);
		e[n].rproto = nla_get_u8(etb[R2C2_A_RPROTO]);
		n++;
	}
	d->routes_cb(d->routes_arg, nla_get_u16(tb[R2C2_A_NODE_ADDR]), e, n);
}

/* nlctrl's notify group: CTRL_CMD_DELFAMILY of "r2c2" */
static void ctrl_ev(struct dnl *d, struct nl_msg *msg)
{
	struct nlattr *tb[CTRL_ATTR_MAX + 1];
	struct nlmsghdr *h = nlmsg_hdr(msg);

	if (!genlmsg_valid_hdr(h, 0) ||
	    genlmsg_hdr(h)->cmd != CTRL_CMD_DELFAMILY ||
	    genlmsg_parse(h, 0, tb, CTRL_ATTR_MAX, ctrl_pol) ||
	    !tb[CTRL_ATTR_FAMILY_NAME] ||
	    strcmp(nla_get_string(tb[CTRL_ATTR_FAMILY_NAME]), R2C2_GENL_NAME))
		return;
	d->gone = true;
}

static int ev_cb(struct nl_msg *msg, void *arg)
{
	struct ev_ctx *c = arg;
	struct nlattr *tb[R2C2_A_MAX + 1];
	struct mx_evt e = { 0 };
	uint16_t type = nlmsg_hdr(msg)->nlmsg_type;
	uint8_t cmd;

	if (type == GENL_ID_CTRL) {
		ctrl_ev(c->d, msg);
		return NL_OK;
	}
	if (type != c->d->family)
		return NL_OK;
	c->d->ev_msgs++;
	if (r2c2_genl_parse(msg, tb, &cmd))
		return NL_OK;
	if (cmd == R2C2_CMD_ROUTES_EVENT)
		routes_ev(c->d, tb);
	if (cmd == R2C2_CMD_TOPO_EVENT && c->d->topo_cb) {
		struct dnl_topo_ev t = {
			.nodes = tb[R2C2_A_NODES] ?
				 nla_get_u32(tb[R2C2_A_NODES]) : 0,
			.links = tb[R2C2_A_LINKS] ?
				 nla_get_u32(tb[R2C2_A_LINKS]) : 0,
			.gen = tb[R2C2_A_TABLES_GEN] ?
			       nla_get_u32(tb[R2C2_A_TABLES_GEN]) : 0,
		};

		c->d->topo_cb(c->d->topo_arg, &t);
	}
	if (cmd != R2C2_CMD_FLOW_EVENT)
		return NL_OK;
	if (!tb[R2C2_A_FLOW_SRC] || !tb[R2C2_A_FLOW_ID] || !tb[R2C2_A_DST] ||
	    !tb[R2C2_A_FLOW_EVT])
		return NL_OK;
	e.type = nla_get_u8(tb[R2C2_A_FLOW_EVT]);
	e.src = nla_get_u16(tb[R2C2_A_FLOW_SRC]);
	e.id = nla_get_u32(tb[R2C2_A_FLOW_ID]);
	e.dst = nla_get_u16(tb[R2C2_A_DST]);
	e.weight = tb[R2C2_A_WEIGHT] ? nla_get_u8(tb[R2C2_A_WEIGHT]) : 1;
	e.prio = tb[R2C2_A_PRIO] ? nla_get_u8(tb[R2C2_A_PRIO]) : 0;
	e.rproto = tb[R2C2_A_RPROTO] ? nla_get_u8(tb[R2C2_A_RPROTO]) : 0;
	e.demand_kbps = tb[R2C2_A_DEMAND_KBPS] ?
			nla_get_u32(tb[R2C2_A_DEMAND_KBPS]) :
			R2C2_DEMAND_UNLIMITED;
	c->cb(c->arg, &e);
	return NL_OK;
}

static int no_seq_check(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

int dnl_ev_read(struct dnl *d, void (*cb)(void *arg, const struct mx_evt *e),
		void *arg)
{
	struct ev_ctx c = { d, cb, arg };
	struct nl_cb *nc = nl_cb_alloc(NL_CB_DEFAULT);
	int i, r = 0;

	if (!nc)
		return -ENOMEM;
	/*
	 * A fresh callback set checks sequence numbers again (the socket's
	 * nl_socket_disable_seq_check() does not carry over), and every
	 * multicast event (seq 0) would be dropped as a mismatch.
	 */
	nl_cb_set(nc, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, no_seq_check, NULL);
	nl_cb_set(nc, NL_CB_VALID, NL_CB_CUSTOM, ev_cb, &c);
	/* bounded, so a flood cannot starve the rate loop */
	for (i = 0; i < 256; i++) {
		r = nl_recvmsgs_report(d->ev, nc);
		if (r <= 0)
			break;
	}
	nl_cb_put(nc);
	if (r == -NLE_NOMEM) {	/* ENOBUFS: events were dropped */
		d->ev_overruns++;
		return -ENOBUFS;
	}
	return 0;
}

/*
 * Read and drop whatever is left on the command socket: replies of a
 * request that failed half-way, or the rest of a dump the kernel kept
 * running (a new dump on the socket would fail with EBUSY until it is
 * read to its end). Returns how many datagrams were dropped.
 */
static int drain(struct dnl *d)
{
	char buf[8192];
	int fd = nl_socket_get_fd(d->cmd), n = 0;

	while (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) >= 0 || errno == EINTR ||
	       errno == ENOBUFS)
		if (++n >= 100000)
			break;
	d->stale += (uint64_t)n;
	return n;
}

struct talk_ctx {
	uint32_t seq;
	bool done;
};

/* only replies to the request in flight; anything else is stale */
static int talk_seq(struct nl_msg *msg, void *arg)
{
	struct talk_ctx *t = arg;

	return nlmsg_hdr(msg)->nlmsg_seq == t->seq ? NL_OK : NL_SKIP;
}

static int talk_end(struct nl_msg *msg, void *arg)
{
	struct talk_ctx *t = arg;

	(void)msg;
	t->done = true;
	return NL_STOP;
}

/*
 * Send msg on the command socket and feed the replies to cb until the
 * request is over: its ack (a do, sent with NLM_F_ACK) or NLMSG_DONE (a
 * dump, sent without). One nl_recvmsgs() returns after one datagram of a
 * reply that is not multipart, i.e. before the ack of a do that has a
 * reply message, so it is called until the end was seen. Messages of
 * another sequence number (left by a request that failed half-way) are
 * skipped, and libnl's own check, which counts on every reply being read
 * through it, is off.
 */
static int talk(struct dnl *d, struct nl_msg *msg,
		int (*cb)(struct nl_msg *, void *), void *arg)
{
	struct talk_ctx t = { 0 };
	struct nl_cb *nc;
	int err;

	/*
	 * Not from a callback of another request: the nested one would read
	 * the rest of the outer one's replies as stale and the outer would
	 * wait for its end until the socket's timeout
	 */
	if (d->in_talk) {
		d->req_errors++;
		nlmsg_free(msg);
		return -NLE_BUSY;
	}
	nc = nl_cb_alloc(NL_CB_DEFAULT);
	if (!nc) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	d->in_talk = true;
	nl_complete_msg(d->cmd, msg);
	t.seq = nlmsg_hdr(msg)->nlmsg_seq;
	nl_cb_set(nc, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, talk_seq, &t);
	nl_cb_set(nc, NL_CB_ACK, NL_CB_CUSTOM, talk_end, &t);
	nl_cb_set(nc, NL_CB_FINISH, NL_CB_CUSTOM, talk_end, &t);
	if (cb)
		nl_cb_set(nc, NL_CB_VALID, NL_CB_CUSTOM, cb, arg);
	d->req_msgs++;
	err = nl_send(d->cmd, msg);
	nlmsg_free(msg);
	while (err >= 0 && !t.done)
		err = nl_recvmsgs(d->cmd, nc);
	nl_cb_put(nc);
	d->in_talk = false;
	if (err < 0) {
		d->req_errors++;
		drain(d);
		return err;	/* -NLE_*: nl_geterror() names it */
	}
	return 0;
}

/*
 * A request: the genl header of cmd, with NLM_F_ACK unless it is a dump,
 * in a message of size bytes (0: libnl's default, a page).
 */
static struct nl_msg *req_size(struct dnl *d, uint8_t cmd, int flags,
			       size_t size)
{
	struct nl_msg *msg = size ? nlmsg_alloc_size(size) : nlmsg_alloc();

	if (!msg)
		return NULL;
	if (!(flags & NLM_F_DUMP))
		flags |= NLM_F_ACK;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, d->family, 0,
			 flags, cmd, R2C2_GENL_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static struct nl_msg *req(struct dnl *d, uint8_t cmd, int flags)
{
	return req_size(d, cmd, flags, 0);
}

static int node_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[R2C2_A_MAX + 1], *a;
	struct dnl_node *n = arg;
	uint8_t cmd;
	int rem;

	if (r2c2_genl_parse(msg, tb, &cmd) || !tb[R2C2_A_NODE_ADDR])
		return NL_SKIP;
	n->addr = nla_get_u16(tb[R2C2_A_NODE_ADDR]);
	if (tb[R2C2_A_RPROTO])
		n->rproto = nla_get_u8(tb[R2C2_A_RPROTO]);
	if (tb[R2C2_A_TOPO_DIMS])
		nla_for_each_nested(a, tb[R2C2_A_TOPO_DIMS], rem)
			if (n->ndims < 3)
				n->dims[n->ndims++] = nla_get_u8(a);
	return NL_OK;
}

int dnl_node_get(struct dnl *d, struct dnl_node *n, char *err, size_t errlen)
{
	struct nl_msg *msg = req(d, R2C2_CMD_NODE_GET, 0);
	int r;

	memset(n, 0, sizeof(*n));
	n->addr = R2C2_ADDR_NONE;
	if (!msg)
		return -ENOMEM;
	r = talk(d, msg, node_cb, n);
	if (r || n->addr == R2C2_ADDR_NONE) {
		snprintf(err, errlen,
			 "no r2c2 node in this network namespace (r2c2ctl node set addr ID): %s",
			 r ? nl_geterror(r) : "no address");
		return -ENODEV;
	}
	return 0;
}

struct qf_ctx {
	void (*cb)(void *arg, const struct dnl_qflow *q);
	void *arg;
};

static int qflow_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[R2C2_A_MAX + 1];
	struct qf_ctx *c = arg;
	struct dnl_qflow q = { 0 };
	uint8_t cmd;

	if (r2c2_genl_parse(msg, tb, &cmd) || !tb[R2C2_A_FLOW_ID])
		return NL_SKIP;
	q.id = nla_get_u32(tb[R2C2_A_FLOW_ID]);
	q.dst = tb[R2C2_A_DST] ? nla_get_u16(tb[R2C2_A_DST]) : R2C2_ADDR_NONE;
	q.state = tb[R2C2_A_RATE_STATE] ? nla_get_u8(tb[R2C2_A_RATE_STATE]) : 0;
	q.rate = tb[R2C2_A_RATE] ? nla_get_u64(tb[R2C2_A_RATE]) : 0;
	q.backlog = tb[R2C2_A_BACKLOG] ? nla_get_u32(tb[R2C2_A_BACKLOG]) : 0;
	q.bytes = tb[R2C2_A_BYTES] ? nla_get_u64(tb[R2C2_A_BYTES]) : 0;
	/* the flow's traffic class (r2c2ctl class); older modules: 1, 0 */
	q.weight = tb[R2C2_A_WEIGHT] ? nla_get_u8(tb[R2C2_A_WEIGHT]) : 1;
	q.prio = tb[R2C2_A_PRIO] ? nla_get_u8(tb[R2C2_A_PRIO]) : 0;
	if (!q.weight)
		q.weight = 1;
	c->cb(c->arg, &q);
	return NL_OK;
}

int dnl_qflow_dump(struct dnl *d,
		   void (*cb)(void *arg, const struct dnl_qflow *q), void *arg)
{
	struct nl_msg *msg = req(d, R2C2_CMD_QFLOW_GET, NLM_F_DUMP);
	struct qf_ctx c = { cb, arg };

	if (!msg)
		return -ENOMEM;
	if (d->ifindex)
		nla_put_u32(msg, R2C2_A_IFINDEX, d->ifindex);
	return talk(d, msg, qflow_cb, &c);
}

int dnl_rate_set(struct dnl *d, const uint32_t *id, const uint64_t *rate,
		 size_t n)
{
	struct nl_msg *msg = req_size(d, R2C2_CMD_RATE_SET, 0, 64 + n * 32);
	struct nlattr *list, *e;
	size_t i;

	if (!msg)
		return -ENOMEM;
	if (d->ifindex && nla_put_u32(msg, R2C2_A_IFINDEX, d->ifindex))
		goto full;
	list = nla_nest_start(msg, R2C2_A_RATES);
	if (!list)
		goto full;
	for (i = 0; i < n; i++) {
		e = nla_nest_start(msg, R2C2_A_RATE_ENT);
		if (!e || nla_put_u32(msg, R2C2_A_FLOW_ID, id[i]) ||
		    nla_put_u64(msg, R2C2_A_RATE, rate[i]))
			goto full;
		nla_nest_end(msg, e);
	}
	nla_nest_end(msg, list);
	return talk(d, msg, NULL, NULL);
full:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

int dnl_flow_event(struct dnl *d, const struct mx_evt *e)
{
	struct nl_msg *msg = req(d, R2C2_CMD_FLOW_EVENT, 0);

	if (!msg)
		return -ENOMEM;
	if (nla_put_u32(msg, R2C2_A_FLOW_ID, e->id) ||
	    nla_put_u16(msg, R2C2_A_DST, e->dst) ||
	    nla_put_u8(msg, R2C2_A_FLOW_EVT, e->type) ||
	    nla_put_u8(msg, R2C2_A_WEIGHT, e->weight) ||
	    nla_put_u8(msg, R2C2_A_PRIO, e->prio) ||
	    nla_put_u8(msg, R2C2_A_RPROTO, e->rproto) ||
	    nla_put_u32(msg, R2C2_A_DEMAND_KBPS, e->demand_kbps)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return talk(d, msg, NULL, NULL);
}

int dnl_routes_send(struct dnl *d, const struct rs_ent *e, size_t n)
{
	struct nl_msg *msg;
	struct nlattr *list, *a;
	size_t i;

	if (!n || n > R2C2_ROUTES_MAX)
		return -EINVAL;
	/* stale replies on the socket are skipped by talk()'s sequence check */
	msg = req_size(d, R2C2_CMD_ROUTES_SEND, 0, 64 + n * 40);
	if (!msg)
		return -ENOMEM;
	list = nla_nest_start(msg, R2C2_A_ROUTES);
	if (!list)
		goto full;
	for (i = 0; i < n; i++) {
		a = nla_nest_start(msg, R2C2_A_ROUTE_ENT);
		if (!a || nla_put_u16(msg, R2C2_A_FLOW_SRC, e[i].src) ||
		    nla_put_u32(msg, R2C2_A_FLOW_ID, e[i].id) ||
		    nla_put_u8(msg, R2C2_A_RPROTO, e[i].rproto))
			goto full;
		nla_nest_end(msg, a);
	}
	nla_nest_end(msg, list);
	return talk(d, msg, NULL, NULL);
full:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

struct topo_ctx {
	uint16_t *nbr;
	uint8_t *nport;
	uint32_t max_n, n, nodes;
};

static int topo_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[R2C2_A_MAX + 1], *ntb[R2C2_A_MAX + 1];
	struct nlattr *ltb[R2C2_A_MAX + 1], *a;
	struct topo_ctx *c = arg;
	uint16_t addr;
	uint8_t cmd;
	int rem;

	if (r2c2_genl_parse(msg, tb, &cmd) || !tb[R2C2_A_TOPO_NODE] ||
	    r2c2_genl_parse_nested(ntb, tb[R2C2_A_TOPO_NODE]) ||
	    !ntb[R2C2_A_NODE_ADDR])
		return NL_SKIP;
	addr = nla_get_u16(ntb[R2C2_A_NODE_ADDR]);
	c->nodes++;
	if (addr >= c->max_n)
		return NL_SKIP;
	if (addr + 1u > c->n)
		c->n = addr + 1u;
	nla_for_each_nested(a, tb[R2C2_A_TOPO_NODE], rem) {
		size_t l;

		if (nla_type(a) != R2C2_A_TOPO_LINK ||
		    r2c2_genl_parse_nested(ltb, a) ||
		    !ltb[R2C2_A_PORT] || !ltb[R2C2_A_NBR_ADDR] ||
		    nla_get_u8(ltb[R2C2_A_PORT]) >= R2C2_MAX_PORTS)
			continue;
		l = (size_t)addr * R2C2_MAX_PORTS + nla_get_u8(ltb[R2C2_A_PORT]);
		c->nbr[l] = nla_get_u16(ltb[R2C2_A_NBR_ADDR]);
		if (ltb[R2C2_A_NBR_PORT] &&
		    nla_get_u8(ltb[R2C2_A_NBR_PORT]) < R2C2_MAX_PORTS)
			c->nport[l] = nla_get_u8(ltb[R2C2_A_NBR_PORT]);
	}
	return NL_OK;
}

int dnl_topo_dump(struct dnl *d, uint16_t *nbr, uint8_t *nport,
		  uint32_t max_n, uint32_t *n, uint32_t *nodes)
{
	struct nl_msg *msg = req(d, R2C2_CMD_TOPO_GET, NLM_F_DUMP);
	struct topo_ctx c = { nbr, nport, max_n, 0, 0 };
	size_t i;
	int r;

	if (!msg)
		return -ENOMEM;
	for (i = 0; i < (size_t)max_n * R2C2_MAX_PORTS; i++) {
		nbr[i] = R2C2_ADDR_NONE;
		nport[i] = R2C2_PORT_UNKNOWN;
	}
	r = talk(d, msg, topo_cb, &c);
	*n = c.n;
	*nodes = c.nodes;
	return r;
}
