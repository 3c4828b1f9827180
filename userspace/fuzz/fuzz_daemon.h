/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_daemon.h - r2c2d's main.c (with events.c, rates.c, select.c,
 * own.c and follow.c, the other units that talk to the kernel) in a
 * harness, as tests/r2c2d_main_test.c
 * has it: main() renamed, the requests to the kernel answered by a fake
 * one (no netlink socket is opened), and a daemon set up as main() leaves
 * it (fuzz_daemon_init()). Include it once, after dnl.c if the harness
 * includes that too.
 */
#ifndef _R2C2_FUZZ_DAEMON_H
#define _R2C2_FUZZ_DAEMON_H

#include <stddef.h>
#include <stdint.h>

struct dnl;
struct dnl_node;
struct dnl_qflow;
struct mx_evt;
struct rs_ent;

int r2c2d_main(int argc, char **argv);
int fake_dnl_open(struct dnl *n, uint32_t ifindex, char *err, size_t errlen);
void fake_dnl_close(struct dnl *n);
int fake_dnl_node_get(struct dnl *n, struct dnl_node *node, char *err,
		      size_t errlen);
int fake_dnl_qflow_dump(struct dnl *n,
			void (*cb)(void *arg, const struct dnl_qflow *q),
			void *arg);
int fake_dnl_flow_event(struct dnl *n, const struct mx_evt *e);
int fake_dnl_rate_set(struct dnl *n, const uint32_t *id,
		      const uint64_t *rate, size_t k);
int fake_dnl_routes_send(struct dnl *n, const struct rs_ent *e, size_t k);
int fake_dnl_topo_dump(struct dnl *n, uint16_t *nbr, uint8_t *nport,
		       uint32_t max_n, uint32_t *nn, uint32_t *nodes);

#define dnl_open fake_dnl_open
#define dnl_close fake_dnl_close
#define dnl_node_get fake_dnl_node_get
#define dnl_qflow_dump fake_dnl_qflow_dump
#define dnl_flow_event fake_dnl_flow_event
#define dnl_rate_set fake_dnl_rate_set
#define dnl_routes_send fake_dnl_routes_send
#define dnl_topo_dump fake_dnl_topo_dump
#define main r2c2d_main
#include "../r2c2d/main.c"
#include "../r2c2d/events.c"
#include "../r2c2d/rates.c"
#include "../r2c2d/select.c"
#include "../r2c2d/own.c"
#include "../r2c2d/follow.c"
#undef main

/* the family id the fake kernel gives r2c2 (any id past nlctrl's) */
#define FUZZ_FAMILY	0x1a

/* the daemon the fake kernel answers for (its TOPO_GET: its own graph) */
static struct r2c2d *fuzz_d;
/* FLOW_EVENTs the daemon sent (announcements, digests, resyncs) */
static uint64_t fuzz_sent;

int fake_dnl_open(struct dnl *n, uint32_t ifindex, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	memset(n, 0, sizeof(*n));
	n->ifindex = ifindex;
	n->family = FUZZ_FAMILY;
	return 0;
}

void fake_dnl_close(struct dnl *n)
{
	(void)n;
}

int fake_dnl_node_get(struct dnl *n, struct dnl_node *node, char *err,
		      size_t errlen)
{
	(void)n;
	(void)err;
	(void)errlen;
	*node = fuzz_d->node;
	return 0;
}

/* the qdisc has no flows */
int fake_dnl_qflow_dump(struct dnl *n,
			void (*cb)(void *arg, const struct dnl_qflow *q),
			void *arg)
{
	(void)n;
	(void)cb;
	(void)arg;
	return 0;
}

int fake_dnl_flow_event(struct dnl *n, const struct mx_evt *e)
{
	(void)n;
	(void)e;
	fuzz_sent++;
	return 0;
}

int fake_dnl_rate_set(struct dnl *n, const uint32_t *id,
		      const uint64_t *rate, size_t k)
{
	(void)n;
	(void)id;
	(void)rate;
	(void)k;
	return 0;
}

int fake_dnl_routes_send(struct dnl *n, const struct rs_ent *e, size_t k)
{
	(void)n;
	(void)e;
	(void)k;
	return 0;
}

/* the kernel routes on the graph the daemon was configured with */
int fake_dnl_topo_dump(struct dnl *n, uint16_t *nbr, uint8_t *nport,
		       uint32_t max_n, uint32_t *nn, uint32_t *nodes)
{
	const struct r2c2_topo *t = fuzz_d->ctopo;

	(void)n;
	for (size_t i = 0; i < (size_t)max_n * R2C2_MAX_PORTS; i++) {
		nbr[i] = R2C2_ADDR_NONE;
		nport[i] = R2C2_PORT_UNKNOWN;
	}
	memcpy(nbr, t->nbr, R2C2_NLINKS(t->n) * sizeof(*nbr));
	memcpy(nport, t->nbr_port, R2C2_NLINKS(t->n));
	*nn = t->n;
	*nodes = t->n;
	return 0;
}

/*
 * A daemon as main() leaves it after setup (daemon_alloc(), NODE_GET,
 * daemon_setup(), the netlink handle's callbacks), node addr of the
 * topology spec topo, with the configuration keys of conf
 * ("key=value;..." or NULL) set first. Route selection is off and every
 * round stays in the loop (a worker thread and the wall clock would make
 * runs differ; conf may set round_worker_us again), and the matrix's
 * hash key is fixed for the same reason. Aborts on failure.
 */
static void fuzz_daemon_init(struct r2c2d *d, uint16_t addr, const char *topo,
			     const char *conf)
{
	static const uint64_t key[2] = { 0x0123456789abcdefull,
					 0xfedcba9876543210ull };
	char err[256] = "", buf[512], *save = NULL, *kv, *eq;

	memset(d, 0, sizeof(*d));
	fuzz_d = d;
	conf_defaults(&d->conf);
	d->conf.ga_interval_ms = 0;
	d->conf.round_worker_us = ROUND_WORKER_NEVER;
	snprintf(d->conf.topology, sizeof(d->conf.topology), "%s", topo);
	snprintf(buf, sizeof(buf), "%s", conf ? conf : "");
	for (kv = strtok_r(buf, ";", &save); kv;
	     kv = strtok_r(NULL, ";", &save)) {
		eq = strchr(kv, '=');
		if (!eq)
			abort();
		*eq = 0;
		if (conf_set(&d->conf, kv, eq + 1, err, sizeof(err))) {
			fprintf(stderr, "fuzz_daemon_init: %s\n", err);
			abort();
		}
	}
	d->conf0 = d->conf;
	d->ctl_fd = -1;
	d->node.addr = addr;
	if (daemon_alloc(d) || mx_set_key(&d->mx, key) ||
	    fake_dnl_open(&d->nl, 0, err, sizeof(err)) ||
	    daemon_setup(d, err, sizeof(err))) {
		fprintf(stderr, "fuzz_daemon_init: %s\n", err);
		abort();
	}
	d->nl.routes_cb = on_routes;
	d->nl.routes_arg = d;
	d->nl.topo_cb = on_topo_event;
	d->nl.topo_arg = d;
	d->start_ns = r2c2d_now();
	d->computed_gen = d->mx.gen - 1;
	d->topo_dirty = false;
}

#endif /* _R2C2_FUZZ_DAEMON_H */
