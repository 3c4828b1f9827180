// SPDX-License-Identifier: GPL-2.0
/*
 * follow.c - r2c2d follows the graph the kernel routes on: topology
 * events read as bursts, the graph read and handed to the worker that
 * builds its tables (tables.c), the new tables swapped in, retries with
 * backoff.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include <linux/r2c2.h>

#include "r2c2d.h"

/*
 * A read that failed is retried TOPO_HOLDOFF_MS later, then after twice
 * as long each time it fails again, up to this: a graph the allocator
 * cannot take (a neighbour address past TOPO_MAX_NODES) fails every time
 */
#define TOPO_RETRY_MAX_MS	5000

/* the configured topology ('topology', else the node's torus), or none */
int conf_topo(struct r2c2d *d, char *err, size_t errlen)
{
	char spec[64];

	if (!d->conf.topology[0] && d->node.ndims) {
		int k = snprintf(spec, sizeof(spec), "torus:%u", d->node.dims[0]);

		for (unsigned int i = 1; i < d->node.ndims; i++)
			k += snprintf(spec + k, sizeof(spec) - (size_t)k, "x%u",
				      d->node.dims[i]);
		snprintf(d->conf.topology, sizeof(d->conf.topology), "%s", spec);
	}
	if (!d->conf.topology[0])
		return 0;
	return r2c2_topo_parse(&d->ctopo, d->conf.topology,
			       d->conf.link_capacity, err, errlen);
}

/*
 * Capacity of link (u, port p) -> v of the kernel's graph: the configured
 * topology's for that link (same port, else any port of u to v: a file's
 * ports are numbered in file order), else link_capacity.
 */
static double link_cap(const struct r2c2d *d, uint32_t u, uint32_t p,
		       uint16_t v)
{
	const struct r2c2_topo *c = d->ctopo;
	size_t b = (size_t)u * R2C2_MAX_PORTS;
	uint32_t q;

	if (!c || u >= c->n)
		return d->conf.link_capacity;
	if (c->nbr[b + p] == v)
		return c->cap[b + p];
	for (q = 0; q < R2C2_MAX_PORTS; q++)
		if (c->nbr[b + q] == v)
			return c->cap[b + q];
	return d->conf.link_capacity;
}

/*
 * Whether t is the graph nbr/nport/cap of n addresses (t may have more
 * nodes, without links): the same links on the same ports, landing on
 * the same far-end ports where the kernel said which, the same
 * capacities.
 */
static bool topo_is(const struct r2c2_topo *t, uint32_t n,
		    const uint16_t *nbr, const uint8_t *nport,
		    const double *cap)
{
	size_t i, nl = (size_t)n * R2C2_MAX_PORTS;

	if (!t || t->n < n)
		return false;
	for (i = 0; i < R2C2_NLINKS(t->n); i++) {
		uint16_t v = i < nl ? nbr[i] : R2C2_IDX_NONE;

		if (t->nbr[i] != v)
			return false;
		if (v != R2C2_IDX_NONE &&
		    (t->cap[i] != cap[i] ||
		     (nport[i] != R2C2_PORT_UNKNOWN &&
		      t->nbr_port[i] != nport[i])))
			return false;
	}
	return true;
}

/*
 * Tables a build made (tables.c) replace d's: the graph, its routing
 * tables and the allocator's state for them; the old ones are freed in a
 * thread (tb_drop()). Not while a route search reads the tables, nor
 * while a round solves with them.
 */
void tables_swap(struct r2c2d *d, struct tb_out *o)
{
	struct tb_out old = {
		.t = d->topo, .rt = d->rt, .ws = d->ws, .pf = d->pf,
	};

	tb_drop(&d->tb, &old, d->ctopo);	/* freed in a thread */
	d->topo = o->t;
	d->rt = o->rt;
	d->ws = o->ws;
	d->pf = o->pf;
	memset(o, 0, sizeof(*o));
	r2c2_rtab_from_torus(d->rt, &d->ts.from_torus);
	mx_set_nodes(&d->mx, d->topo->n);
	/*
	 * the next round prepares every flow's pair in the new tables: as a
	 * first round (round_off_loop()), it goes to the worker
	 */
	d->t.round_flows_last = 0;
	/* a new cache: what the flows need is measured again */
	d->ts.cache_need = 0;
	d->ts.cache_measure = true;
}

/*
 * reach[a] (TOPO_MAX_NODES entries): node a is in the graph the kernel
 * routes on, that is, a path of its links leads from this node to a
 * (breadth first over nbr, n addresses). Addresses the graph does not
 * name are not reachable.
 */
void reach_from(struct r2c2d *d, const uint16_t *nbr, uint32_t n,
		uint8_t *reach)
{
	uint16_t *q = d->reach_q;
	uint32_t head = 0, tail = 0, a, p;
	uint16_t b;

	memset(reach, 0, TOPO_MAX_NODES);
	if (d->node.addr >= n)
		return;
	reach[d->node.addr] = 1;
	q[tail++] = (uint16_t)d->node.addr;
	while (head < tail) {
		a = q[head++];
		for (p = 0; p < R2C2_MAX_PORTS; p++) {
			b = nbr[(size_t)a * R2C2_MAX_PORTS + p];
			if (b >= n || reach[b])
				continue;
			reach[b] = 1;
			q[tail++] = b;
		}
	}
}

/*
 * After new tables: the flows of nodes no longer in the graph leave the
 * matrix (they can send nothing this node routes), and this node
 * announces each of its own flows again (REFRESH), as the paper has
 * every node do after a failure: a node that came back, or that was cut
 * off, learns the rack's flows at once, not at their next refresh.
 */
static void topo_changed(struct r2c2d *d)
{
	uint32_t gone = mx_drop_unreached(&d->mx, d->reach, TOPO_MAX_NODES,
					  d->node.addr);

	d->ts.left_flows += gone;
	refresh_own(d);
	d->ts.reannounces++;
	if (d->verbose)
		fprintf(stderr, "r2c2d: topology changed: %u flows of nodes gone left the matrix, own flows announced again\n",
			gone);
}

/*
 * Read the graph the kernel routes on (TOPO_GET: its current tables) and,
 * when it is not the allocator's, start building tables for it (tables.c,
 * in a worker; tables_collect() swaps them in): for the configured
 * topology when the graph is exactly that (a torus keeps its symmetric
 * tables), else for the graph itself, with the configured capacities
 * (link_cap()). r2c2.ko routes on the discovered graph whether or not a
 * torus was declared, so the allocator does too. Not while a route
 * search runs (the worker reads the tables) or a build is under way.
 *
 * Return: 1 a build started, 0 unchanged, -ENOENT the kernel has no
 * tables, or another negative error (the old tables stay; -EIO: TOPO_GET
 * failed), with why in d->ts.last_error.
 */
int topo_sync(struct r2c2d *d)
{
	size_t i, nl = (size_t)TOPO_MAX_NODES * R2C2_MAX_PORTS;
	uint16_t *nbr = malloc(nl * sizeof(*nbr));
	uint8_t *nport = malloc(nl);
	double *cap = calloc(nl, sizeof(*cap));
	const struct r2c2_topo *ct = NULL;
	uint32_t n = 0, nodes = 0;
	int r = -ENOMEM;

	if (nbr && nport && cap) {
		r = dnl_topo_dump(&d->nl, nbr, nport, TOPO_MAX_NODES, &n,
				  &nodes);
		if (r) {
			/* -NLE_*: another number space than errno's */
			snprintf(d->ts.last_error, sizeof(d->ts.last_error),
				 "TOPO_GET: %s", dnl_strerror(r));
			r = -EIO;
			goto out;
		}
	}
	if (!r && !n)
		r = -ENOENT;
	if (r)
		goto out;
	nl = (size_t)n * R2C2_MAX_PORTS;
	for (i = 0; i < nl; i++)
		if (nbr[i] != R2C2_IDX_NONE)
			cap[i] = link_cap(d, (uint32_t)(i / R2C2_MAX_PORTS),
					  (uint32_t)(i % R2C2_MAX_PORTS), nbr[i]);
	d->ts.nodes = nodes;
	if (topo_is(d->topo, n, nbr, nport, cap)) {
		reach_from(d, nbr, n, d->reach);
		goto out;	/* r = 0 */
	}
	if (topo_is(d->ctopo, n, nbr, nport, cap)) {
		ct = d->ctopo;
	} else {
		/* say which link: a neighbour the dump did not name */
		for (i = 0; i < nl && (nbr[i] == R2C2_IDX_NONE || nbr[i] < n); i++)
			;
		if (i < nl) {
			snprintf(d->ts.last_error, sizeof(d->ts.last_error),
				 "node %zu port %zu names neighbour %u, not one of the graph's %u addresses (r2c2d takes 0..%u)",
				 i / R2C2_MAX_PORTS, i % R2C2_MAX_PORTS, nbr[i],
				 n, TOPO_MAX_NODES - 1);
			r = -EINVAL;
			goto out;
		}
	}
	/* applied when the tables are swapped in, with the flows' fate */
	reach_from(d, nbr, n, d->tb_reach);
	d->tb_nodes = n;
	d->tb_dirty_ns = d->topo_dirty_ns;
	r = tb_start(&d->tb, ct, ct ? NULL : nbr, ct ? NULL : nport,
		     ct ? NULL : cap, n, d->conf.policy == R2C2_POL_PROPFAIR,
		     d->topo && d->topo->kind == R2C2_TOPO_TORUS ? d->rt : NULL,
		     d->topo);
	if (!ct) {
		nbr = NULL;	/* the build's now */
		nport = NULL;
		cap = NULL;
	}
	if (r)
		snprintf(d->ts.last_error, sizeof(d->ts.last_error),
			 "routing tables for a graph of %u addresses: %s", n,
			 r2c2_rtab_strerror(r));
	else
		r = 1;
out:
	free(nbr);
	free(nport);
	free(cap);
	return r;
}

void on_topo_event(void *arg, const struct dnl_topo_ev *e)
{
	struct r2c2d *d = arg;

	d->ts.events++;
	d->ts.last_gen = e->gen;
	/* new tables: read them a holdoff from now, whatever failed before */
	if (!d->topo_dirty || d->topo_retry_ns) {
		d->topo_dirty = true;
		d->topo_dirty_ns = r2c2d_now();
		d->topo_retry_ns = 0;
	}
	if (d->verbose)
		fprintf(stderr, "r2c2d: TOPO_EVENT gen %u, %u nodes, %u links\n",
			e->gen, e->nodes, e->links);
}

/* when the kernel's graph is to be read (topo_dirty) */
uint64_t topo_due(const struct r2c2d *d)
{
	uint64_t t = d->topo_dirty_ns + TOPO_HOLDOFF_MS * MS;

	return t > d->topo_retry_ns ? t : d->topo_retry_ns;
}

/*
 * A read failed with r (not -ENOENT): again after ts.retry_ms, doubled
 * at each failure in a row up to TOPO_RETRY_MAX_MS (a graph that cannot
 * be taken was read every 20 ms for good). Logged at the first failure
 * of a run and when the reason changes (prev: the last one's), not at
 * every retry.
 */
static void topo_failed(struct r2c2d *d, uint64_t now, int r,
			const char *prev)
{
	uint32_t ms = d->ts.retry_ms;

	d->ts.failing++;
	ms = !ms ? TOPO_HOLDOFF_MS :
	     ms >= TOPO_RETRY_MAX_MS / 2 ? TOPO_RETRY_MAX_MS : 2 * ms;
	d->ts.retry_ms = ms;
	d->topo_dirty = true;
	d->topo_dirty_ns = now;
	d->topo_retry_ns = now + ms * MS;
	if (d->ts.failing == 1 || strcmp(prev, d->ts.last_error))
		fprintf(stderr, "r2c2d: the kernel's graph cannot be taken: %s (%d); the allocator keeps the graph it has; read again after %u ms, then twice as long each time up to %u ms\n",
			d->ts.last_error, r, ms, TOPO_RETRY_MAX_MS);
}

/* a read worked: no retry waits any longer */
static void topo_read_ok(struct r2c2d *d)
{
	if (d->ts.failing)
		fprintf(stderr, "r2c2d: the kernel's graph read again, after %llu failed reads\n",
			(unsigned long long)d->ts.failing);
	d->ts.failing = 0;
	d->ts.retry_ms = 0;
	d->topo_retry_ns = 0;
}

/*
 * A table build (topo_sync()) is over: its tables replace the old ones,
 * as the kernel's graph changed, once they have what the old ones had and
 * the change kept (tb_carry_start()); wait: join the worker whatever it
 * takes (else only once it is over). Not while a route search reads the old
 * tables: its end wakes the loop, which comes back here. A build that
 * failed leaves the old tables and is retried as a failed read.
 */
void tables_collect(struct r2c2d *d, bool wait)
{
	char prev[sizeof(d->ts.last_error)];
	struct tb_out o;
	struct timespec ts;
	uint64_t now;
	int r;

	if (tb_join(&d->tb, wait) || rs_busy(&d->rs) || rd_busy(&d->rd))
		return;
	/*
	 * First the worker copies into the new tables what the change left
	 * as it was in the cache of the tables in use (no round prepares a
	 * pair meanwhile, no route search starts): the first round on them
	 * prepares only the rest (from a torus's tables, which have no cache,
	 * the build took what the torus's minimal legs need: tb_start()).
	 * Its end wakes the loop, which comes back.
	 */
	if (!tb_carrying(&d->tb) && d->topo->kind != R2C2_TOPO_TORUS &&
	    tb_carry_start(&d->tb, d->rt) == 0 &&
	    tb_join(&d->tb, wait))
		return;
	memcpy(prev, d->ts.last_error, sizeof(prev));
	r = tb_take(&d->tb, &o);
	if (!r) {
		d->ts.kept_last = d->tb.kept;
		d->ts.kept += d->tb.kept;
		d->ts.keep_ns_last = d->tb.keep_ns;
	}
	now = r2c2d_now();
	if (r) {
		snprintf(d->ts.last_error, sizeof(d->ts.last_error),
			 "routing tables for a graph of %u addresses: %s",
			 d->tb_nodes, r2c2_rtab_strerror(r));
		d->ts.errors++;
		topo_failed(d, now, r, prev);
		return;
	}
	tables_swap(d, &o);
	memcpy(d->reach, d->tb_reach, sizeof(d->reach));
	clock_gettime(CLOCK_REALTIME, &ts);
	d->ts.rebuilds++;
	d->ts.rebuild_ns = now;
	d->ts.rebuild_wall_ns = (uint64_t)ts.tv_sec * 1000000000ull +
				(uint64_t)ts.tv_nsec;
	topo_changed(d);
	d->mx.gen++;	/* a round on the new tables */
	/*
	 * timed to the first round after it, from the first of the bursts
	 * since the last round; only with flows of our own (else the first
	 * round waits for a flow, not for the tables) and not at the start
	 * (it waits for warmup_ms)
	 */
	if (now < d->warm_until_ns || !d->mx.own)
		d->ts.burst_ns = 0;
	else if (!d->ts.burst_ns)
		d->ts.burst_ns = d->tb_dirty_ns;
	if (d->verbose)
		fprintf(stderr, "r2c2d: tables rebuilt in %.1f ms: %s, %u nodes, %u links\n",
			(double)d->tb.ns_last / 1e6,
			d->topo->kind == R2C2_TOPO_TORUS ? "torus" :
			d->topo->kind == R2C2_TOPO_MESH ? "mesh" : "graph",
			d->topo->n, d->topo->nlinks);
}

/* a burst of TOPO_EVENTs is over: follow the kernel */
void topo_step(struct r2c2d *d, uint64_t now)
{
	char prev[sizeof(d->ts.last_error)];
	int r;

	memcpy(prev, d->ts.last_error, sizeof(prev));
	r = topo_sync(d);
	d->ts.syncs++;
	d->ts.sync_ns_last = r2c2d_now() - now;
	d->topo_dirty = false;
	if (r < 0) {
		d->ts.errors++;
		/* no tables yet: their TOPO_EVENT will come; else retry */
		if (r != -ENOENT)
			topo_failed(d, now, r, prev);
	}
	if (r >= 0)
		topo_read_ok(d);
	if (d->verbose)
		fprintf(stderr, "r2c2d: topology %s: %s, %u nodes, %u links, tables gen %u (%d)\n",
			r == 1 ? "changed, tables being built" :
			r ? "not read" : "unchanged",
			d->topo->kind == R2C2_TOPO_TORUS ? "torus" :
			d->topo->kind == R2C2_TOPO_MESH ? "mesh" : "graph",
			d->topo->n, d->topo->nlinks, d->ts.last_gen, r);
}
