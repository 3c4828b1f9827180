/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dnl.h - r2c2d's generic netlink: an event socket (non-blocking, no
 * sequence checks, subscribed to "events") and a command socket (dumps
 * and requests), both through libnl-genl-3.
 */
#ifndef _R2C2D_DNL_H
#define _R2C2D_DNL_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "matrix.h"
#include "routesel.h"

struct nl_sock;

/**
 * struct dnl_topo_ev - a TOPO_EVENT: the kernel installed new tables
 * @nodes: nodes in the discovered graph
 * @links: directed two-way links in it
 * @gen: generation of the tables
 */
struct dnl_topo_ev {
	uint32_t nodes, links, gen;
};

/*
 * @routes_cb: ROUTES_EVENT (assignments broadcast by node @from) go here
 *	when set (after dnl_open()), with @routes_arg
 * @topo_cb: TOPO_EVENT goes here when set, with @topo_arg
 */
struct dnl {
	struct nl_sock *ev;
	struct nl_sock *cmd;
	int family;
	uint32_t ifindex;
	uint64_t ev_msgs, ev_overruns, req_msgs, req_errors, stale;
	int ev_rcvbuf;		/* the event socket's buffer (dnl_rcvbuf()) */
	bool ev_rcvbuf_forced;	/* SO_RCVBUFFORCE took it */
	bool gone;		/* the family was unregistered (rmmod r2c2) */
	bool in_talk;		/* a request is in flight on cmd */
	void (*routes_cb)(void *arg, uint16_t from, const struct rs_ent *e,
			  size_t n);
	void *routes_arg;
	void (*topo_cb)(void *arg, const struct dnl_topo_ev *e);
	void *topo_arg;
};

/**
 * struct dnl_qflow - one flow of the sch_r2c2 qdisc (QFLOW_GET)
 */
struct dnl_qflow {
	uint32_t id;
	uint16_t dst;		/* R2C2_ADDR_NONE if unknown */
	uint8_t state;
	uint64_t rate;
	uint32_t backlog;
	uint64_t bytes;
	uint8_t weight;		/* of its traffic class (1: none) */
	uint8_t prio;		/* of its traffic class (0: none) */
};

/**
 * struct dnl_node - this node (NODE_GET)
 */
struct dnl_node {
	uint16_t addr;
	uint8_t rproto;
	uint8_t ndims;
	uint8_t dims[3];
};

/* the event socket's receive buffer that dnl_open() asks for */
#define DNL_EV_RCVBUF	(8 << 20)

/*
 * Ask for a receive buffer of want bytes on socket fd: SO_RCVBUFFORCE
 * first (CAP_NET_ADMIN: not capped at net.core.rmem_max), else SO_RCVBUF
 * (capped at rmem_max; what libnl's nl_socket_set_buffer_size() does).
 * *forced tells whether SO_RCVBUFFORCE took it. Returns the size the
 * socket has then (getsockopt(SO_RCVBUF): twice what was granted, the
 * kernel's bookkeeping included), or -errno.
 */
int dnl_rcvbuf(int fd, int want, bool *forced);
/*
 * 0, or -1 with a message in err (family missing: module not loaded).
 * The event socket's buffer is DNL_EV_RCVBUF (dnl_rcvbuf(); what it got
 * in @ev_rcvbuf). The event socket also hears nlctrl's "notify" group: when the r2c2
 * family is unregistered (its module unloaded), the next dnl_ev_read()
 * sets @gone; the caller then waits for the module with dnl_open() again.
 */
int dnl_open(struct dnl *d, uint32_t ifindex, char *err, size_t errlen);
/*
 * Whether the family this handle resolved is still registered under the
 * same id (a reload gives it another); sets @gone when it is not. For
 * when a CTRL_CMD_DELFAMILY may have been lost (an overrun).
 */
bool dnl_family_ok(struct dnl *d);
void dnl_close(struct dnl *d);
int dnl_ev_fd(const struct dnl *d);
/* message of a negative -NLE_* from dnl_*() */
const char *dnl_strerror(int err);
/*
 * Read every pending event; each flow event goes to cb. Returns 0, or
 * -ENOBUFS when the kernel dropped events (the caller resyncs).
 */
int dnl_ev_read(struct dnl *d, void (*cb)(void *arg, const struct mx_evt *e),
		void *arg);
int dnl_node_get(struct dnl *d, struct dnl_node *n, char *err, size_t errlen);
int dnl_qflow_dump(struct dnl *d,
		   void (*cb)(void *arg, const struct dnl_qflow *q), void *arg);
int dnl_rate_set(struct dnl *d, const uint32_t *id, const uint64_t *rate,
		 size_t n);
int dnl_flow_event(struct dnl *d, const struct mx_evt *e);
/* ROUTES_SEND: broadcast 1..R2C2_ROUTES_MAX assignments (applied locally too) */
int dnl_routes_send(struct dnl *d, const struct rs_ent *e, size_t n);
/*
 * The discovered graph (TOPO_GET): nbr[addr * 8 + port] = neighbour
 * address or R2C2_ADDR_NONE, and nport[addr * 8 + port] = the
 * neighbour's port the link lands on or R2C2_PORT_UNKNOWN, for
 * addresses below max_n; *n receives one past the highest address seen,
 * *nodes how many nodes. The graph of the kernel's current tables, the
 * one it routes on; a dump the kernel interrupted because new tables
 * came in the meantime fails (-NLE_DUMP_INTR): ask again.
 */
int dnl_topo_dump(struct dnl *d, uint16_t *nbr, uint8_t *nport,
		  uint32_t max_n, uint32_t *n, uint32_t *nodes);

#endif /* _R2C2D_DNL_H */
