// SPDX-License-Identifier: GPL-2.0
/*
 * r2c2d_main_test.c - r2c2d's main.c offline (TAP): the rate round as the
 * loop runs it (the node's torus, the matrix, compute()), with no kernel:
 * main.c is included with its main() renamed, with the other units that
 * talk to the kernel (events.c, rates.c, select.c, own.c, follow.c), and
 * linked with the other daemon sources; nothing here opens a netlink
 * socket.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <linux/netlink.h>

int r2c2d_main(int argc, char **argv);
/*
 * The daemon's requests to the kernel go to the fake kernel below (its
 * declarations in dnl.h are renamed alike), so the loop's steps that
 * talk to r2c2.ko run here: family_back(), sample_own(), topo_step()
 */
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
#include "alloc_tap.h"

/* ---- the fake kernel ---- */

static struct dnl_node fake_node;	/* what NODE_GET answers */
static struct dnl_qflow fake_q[8];	/* the qdisc's flows */
static size_t fake_nq;
static size_t fake_sent;		/* FLOW_EVENTs sent */
/*
 * TOPO_GET: fake_topo_n addresses, fake_nbr[addr * 8 + port], the far
 * end's port in fake_nport[] when fake_nport_known (else unknown, as
 * from a kernel that does not say)
 */
static uint16_t fake_nbr[16 * R2C2_MAX_PORTS];
static uint8_t fake_nport[16 * R2C2_MAX_PORTS];
static bool fake_nport_known;
static uint32_t fake_topo_n;
static unsigned int fake_topo_dumps;

int fake_dnl_open(struct dnl *n, uint32_t ifindex, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	memset(n, 0, sizeof(*n));
	n->ifindex = ifindex;
	n->family = 42;
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
	*node = fake_node;
	return 0;
}

int fake_dnl_qflow_dump(struct dnl *n,
			void (*cb)(void *arg, const struct dnl_qflow *q),
			void *arg)
{
	(void)n;
	for (size_t i = 0; i < fake_nq; i++)
		cb(arg, &fake_q[i]);
	return 0;
}

int fake_dnl_flow_event(struct dnl *n, const struct mx_evt *e)
{
	(void)n;
	(void)e;
	fake_sent++;
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

int fake_dnl_topo_dump(struct dnl *n, uint16_t *nbr, uint8_t *nport,
		       uint32_t max_n, uint32_t *nn, uint32_t *nodes)
{
	(void)n;
	fake_topo_dumps++;
	for (size_t i = 0; i < (size_t)max_n * R2C2_MAX_PORTS; i++) {
		nbr[i] = R2C2_ADDR_NONE;
		nport[i] = R2C2_PORT_UNKNOWN;
	}
	memcpy(nbr, fake_nbr, (size_t)fake_topo_n * R2C2_MAX_PORTS *
	       sizeof(*nbr));
	if (fake_nport_known)
		memcpy(nport, fake_nport, (size_t)fake_topo_n * R2C2_MAX_PORTS);
	*nn = fake_topo_n;
	*nodes = fake_topo_n;
	return 0;
}

/*
 * a daemon as main() leaves it after setup (daemon_alloc(), NODE_GET,
 * daemon_setup()), on the node's declared torus, with the configuration
 * keys of 'conf' ("key=value;key=value", NULL: none) set first
 */
static int daemon_conf(struct r2c2d *d, uint16_t addr, const uint8_t *dims,
		       unsigned int ndims, const char *conf)
{
	char err[256] = "", buf[512], *save = NULL, *kv, *eq;
	int r;

	memset(d, 0, sizeof(*d));
	conf_defaults(&d->conf);
	if (conf) {
		snprintf(buf, sizeof(buf), "%s", conf);
		for (kv = strtok_r(buf, ";", &save); kv;
		     kv = strtok_r(NULL, ";", &save)) {
			eq = strchr(kv, '=');
			*eq = 0;
			if (conf_set(&d->conf, kv, eq + 1, err, sizeof(err))) {
				printf("# conf_set: %s\n", err);
				return -EINVAL;
			}
		}
	}
	d->ctl_fd = -1;
	d->node.addr = addr;
	d->node.ndims = (uint8_t)ndims;
	memcpy(d->node.dims, dims, ndims);
	if (daemon_alloc(d))
		return -ENOMEM;
	r = daemon_setup(d, err, sizeof(err));
	if (r) {
		printf("# daemon_setup: %s\n", err);
		return r;
	}
	return 0;
}

static int daemon_on(struct r2c2d *d, uint16_t addr, const uint8_t *dims,
		     unsigned int ndims)
{
	return daemon_conf(d, addr, dims, ndims, NULL);
}

static void daemon_free(struct r2c2d *d)
{
	rs_fini(&d->rs);
	rd_fini(&d->rd);
	tb_fini(&d->tb);
	mx_fini(&d->mx);
	rc_batch_fini(&d->batch);
	r2c2_pf_free(d->pf);
	r2c2_ws_free(d->ws);
	r2c2_rtab_free(d->rt);
	if (d->topo != d->ctopo)
		r2c2_topo_free(d->topo);
	r2c2_topo_free(d->ctopo);
	free(d->ann_ids);
}

static int add_flow(struct r2c2d *d, uint16_t src, uint32_t id, uint16_t dst,
		    uint8_t weight, uint8_t rproto, uint32_t demand_kbps)
{
	struct mx_evt e = {
		.type = R2C2_FE_START, .src = src, .id = id, .dst = dst,
		.weight = weight, .rproto = rproto, .demand_kbps = demand_kbps,
	};

	return mx_apply(&d->mx, &e, 1);
}

/*
 * n flows of uniform random pairs among the first nodes, ids from id on,
 * weights 1..wmax, any routing protocol, no demand limit
 */
static void add_random_flows(struct r2c2d *d, uint32_t n, uint16_t nodes,
			     uint32_t id, uint8_t wmax, uint64_t *seed)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		uint16_t src = (uint16_t)tbelow(seed, nodes);
		uint16_t dst = (uint16_t)((src + 1 + tbelow(seed, nodes - 1)) %
					  nodes);
		uint8_t w = (uint8_t)(1 + tbelow(seed, wmax));

		add_flow(d, src, id + i, dst, w, (uint8_t)tbelow(seed, 3),
			 R2C2_DEMAND_UNLIMITED);
	}
}

/* d's tables: a mesh of dims (a graph), built and swapped in; 0 or -1 */
static int mesh_tables(struct r2c2d *d, const uint8_t *dims,
		       unsigned int ndims)
{
	struct r2c2_topo *t;
	struct tb_out o;

	if (r2c2_topo_grid(&t, dims, ndims, false, d->conf.link_capacity) ||
	    tb_build(t, NULL, NULL, NULL, 0, false, &o))
		return -1;
	tables_swap(d, &o);
	return 0;
}

static double rate_of(struct r2c2d *d, uint16_t src, uint32_t id)
{
	uint32_t i;

	r2c2d_rates_sync(d);	/* a round applies only the node's own */
	i = mx_find(&d->mx, src, id);

	return i == MX_NONE ? -1 : d->mx.f[i].rate;
}

/*
 * A two-node ring declares the torus 2: r2c2d builds "torus:2" from
 * NODE_GET and the allocator divided by a zero class count in its
 * first round
 */
static void round__two_node_ring(void)
{
	static struct r2c2d d;
	uint8_t dims[1] = { 2 };
	int r;

	ok(daemon_on(&d, 0, dims, 1) == 0 && !strcmp(d.conf.topology, "torus:2"),
	   "a node of a two-node ring builds torus:2 ('%s')", d.conf.topology);
	add_flow(&d, 0, 1, 1, 1, R2C2_RP_RPS, R2C2_DEMAND_UNLIMITED);
	add_flow(&d, 1, 2, 0, 1, R2C2_RP_DOR, R2C2_DEMAND_UNLIMITED);
	add_flow(&d, 0, 3, 1, 3, R2C2_RP_VLB, R2C2_DEMAND_UNLIMITED);
	r = compute(&d);
	ok(r == 0, "the round on torus:2 computes (%d)", r);
	/* two links each way (ports 0 and 1 both lead to the other node) */
	ok(fabs(rate_of(&d, 0, 1) - 0.95 * 2 * 10e9 / 4) < 1 &&
	   fabs(rate_of(&d, 0, 3) - 0.95 * 2 * 10e9 * 3 / 4) < 1 &&
	   fabs(rate_of(&d, 1, 2) - 0.95 * 10e9) < 1,
	   "torus:2 rates: weights 1:3 share 19 Gbit/s, DOR 1 -> 0 one link (%g, %g, %g)",
	   rate_of(&d, 0, 1), rate_of(&d, 0, 3), rate_of(&d, 1, 2));
	daemon_free(&d);
}

/*
 * WLB on a torus: its pair is not in the tables until prepared; the
 * round prepares it (as a graph's pairs) and rates it as r2c2_maxmin()
 * on tables with the pair prepared
 */
static void round__wlb_on_torus(void)
{
	static struct r2c2d d;
	uint8_t dims[2] = { 4, 4 };
	struct r2c2_flow f[2] = {
		{ .src = 0, .dst = 5, .weight = 1, .rproto = R2C2_RP_RPS },
		{ .src = 0, .dst = 10, .weight = 2, .rproto = R2C2_RP_WLB },
	};
	struct r2c2_rtab *rt = NULL;
	double want[2] = { 0 }, a, b;
	bool before, after;
	int r, r2;

	ok(daemon_on(&d, 0, dims, 2) == 0, "a node of a 4x4 torus");
	add_flow(&d, 0, 1, 5, 1, R2C2_RP_RPS, R2C2_DEMAND_UNLIMITED);
	add_flow(&d, 0, 2, 10, 2, R2C2_RP_WLB, R2C2_DEMAND_UNLIMITED);
	before = r2c2_rtab_prepared(d.rt, 0, 10, R2C2_RP_WLB);
	r = compute(&d);
	if (!r2c2_rtab_prepared(d.rt, 0, 10, R2C2_RP_WLB))
		r = compute(&d);	/* prepared in one round, rated in the next */
	after = r2c2_rtab_prepared(d.rt, 0, 10, R2C2_RP_WLB);
	r2 = r2c2_rtab_new(&rt, d.topo) ||
	     r2c2_rtab_prepare(rt, 0, 10, R2C2_RP_WLB) ||
	     r2c2_maxmin(rt, f, 2, d.conf.headroom, want, NULL);
	a = rate_of(&d, 0, 1);
	b = rate_of(&d, 0, 2);
	ok(r == 0 && r2 == 0 && !before && after && b > 0 &&
	   fabs(a - want[0]) < 1 && fabs(b - want[1]) < 1,
	   "a WLB flow on a torus: its pair prepared by the round (before %d, after %d), rates as r2c2_maxmin()'s (%g, %g; want %g, %g)",
	   before, after, a, b, want[0], want[1]);
	r2c2_rtab_free(rt);
	daemon_free(&d);
}

/*
 * Flows whose source or destination is past the topology's nodes (a
 * peer's view of a larger rack, or a hostile one): the round leaves them
 * out with no rate and counts them; the others' rates are those of the
 * flows in it alone
 */
static void round__ends_outside(void)
{
	static struct r2c2d d;
	uint8_t dims[2] = { 3, 3 };
	double alone;
	int r;

	ok(daemon_on(&d, 0, dims, 2) == 0 && d.topo->n == 9,
	   "torus 3x3: 9 nodes");
	add_flow(&d, 0, 1, 4, 1, R2C2_RP_RPS, R2C2_DEMAND_UNLIMITED);
	r = compute(&d);
	alone = rate_of(&d, 0, 1);
	ok(r == 0 && alone > 0 && !d.t.skipped_flows,
	   "one flow 0 -> 4 alone: %g bit/s", alone);
	add_flow(&d, 0, 2, 12, 1, R2C2_RP_RPS, R2C2_DEMAND_UNLIMITED);
	add_flow(&d, 12, 3, 4, 1, R2C2_RP_DOR, R2C2_DEMAND_UNLIMITED);
	add_flow(&d, 0, 4, 9, 1, R2C2_RP_VLB, R2C2_DEMAND_UNLIMITED);
	r = compute(&d);
	ok(r == 0 && d.t.skipped_flows == 3 && rate_of(&d, 0, 2) == 0 &&
	   rate_of(&d, 12, 3) == 0 && rate_of(&d, 0, 4) == 0 &&
	   rate_of(&d, 0, 1) == alone,
	   "flows to 12 and 9 and from 12 on 9 nodes: no rate, %llu skipped; 0 -> 4 keeps %g bit/s",
	   (unsigned long long)d.t.skipped_flows, rate_of(&d, 0, 1));
	daemon_free(&d);
}

/*
 * On a torus with every flow in it, a round's snapshot is the matrix's
 * view copied whole; the round applies this node's rates at once and the
 * others' when read. A flow the allocator must not be given (a demand of
 * 0 kbit/s) sends the round back to the walk over the flows, with the
 * same rates for the others.
 */
static ssize_t ctl_ask(struct r2c2d *d, const char *cmd, size_t len,
		       char *buf, size_t size);

static void round__view_snapshot(void)
{
	static struct r2c2d d;
	static struct r2c2_flow in[300];
	static double want[300];
	uint8_t dims[2] = { 4, 4 };
	uint64_t seed = 11;
	uint32_t i, own = 0, own_set = 0, other_set = 0, differ = 0;
	int r;

	ok(daemon_on(&d, 0, dims, 2) == 0 && d.mx.view_nodes == 16,
	   "a node of a 4x4 torus: the matrix's view is for its 16 nodes (%u)",
	   d.mx.view_nodes);
	for (i = 0; i < 300; i++) {
		uint16_t src = (uint16_t)tbelow(&seed, 16);
		uint16_t dst = (uint16_t)((src + 1 + tbelow(&seed, 15)) % 16);

		add_flow(&d, src, 100 + i, dst, (uint8_t)(1 + tbelow(&seed, 4)),
			 (uint8_t)tbelow(&seed, 3),
			 tbelow(&seed, 5) ? R2C2_DEMAND_UNLIMITED :
			 (uint32_t)(1000 + tbelow(&seed, 900000)));
	}
	/* the reference: the allocator on the flows as the walk gives them */
	for (i = 0; i < d.mx.n; i++)
		mx_alloc_flow(&d.mx.f[i], 16, &in[i]);
	r = r2c2_maxmin(d.rt, in, d.mx.n, d.conf.headroom, want, NULL);
	ok(r == 0 && compute(&d) == 0 && d.t.view_snapshots == 1 &&
	   d.rd.done.n == 300,
	   "the round took the view whole (view_snapshots %llu, %zu flows)",
	   (unsigned long long)d.t.view_snapshots, d.rd.done.n);
	for (i = 0; i < d.mx.n; i++) {
		if (d.mx.f[i].src == 0) {
			own++;
			own_set += d.mx.f[i].rate == (want[i] > 0 ? want[i] :
					(double)R2C2_RATE_MIN);
		} else {
			other_set += d.mx.f[i].rate != 0;
		}
	}
	ok(own > 0 && own_set == own && other_set == 0,
	   "the round's end set this node's %u flows' rates (%u as the allocator gives them) and no other's (%u)",
	   own, own_set, other_set);
	{
		static char out[1 << 17];
		char key[16], *p = NULL;
		double got = -1;

		/* a control client reads another node's flow */
		for (i = 0; i < d.mx.n && d.mx.f[i].src == 0; i++)
			;
		snprintf(key, sizeof(key), "%08x\"", d.mx.f[i].id);
		if (ctl_ask(&d, "matrix\n", 7, out, sizeof(out)) > 0)
			p = strstr(out, key);
		p = p ? strstr(p, "\"rate\"") : NULL;
		if (p && (p = strchr(p, ':')))
			got = strtod(p + 1, NULL);
		ok(fabs(got - want[i]) < 1,
		   "a control client's matrix has the other flows' rates (flow %u:%08x %.0f, the allocator %.0f)",
		   d.mx.f[i].src, d.mx.f[i].id, got, want[i]);
	}
	r2c2d_rates_sync(&d);
	for (i = 0; i < d.mx.n; i++)
		differ += d.mx.f[i].rate != (want[i] > 0 ? want[i] :
					     (double)R2C2_RATE_MIN);
	ok(!differ && !d.rd.done_pending,
	   "read, every flow has the allocator's rate (%u differ)", differ);
	/* a flow that wants nothing: the walk leaves it out */
	add_flow(&d, 3, 99, 5, 1, R2C2_RP_RPS, 0);
	differ = 0;
	ok(d.mx.view_skip == 1 && compute(&d) == 0 &&
	   d.t.view_snapshots == 1 && d.rd.done.n == 300,
	   "a flow of demand 0: the round walks the flows (view_snapshots %llu, view_skip %u, %zu solved)",
	   (unsigned long long)d.t.view_snapshots, d.mx.view_skip,
	   d.rd.done.n);
	r2c2d_rates_sync(&d);
	for (i = 0; i < 300; i++)
		differ += d.mx.f[i].rate != (want[i] > 0 ? want[i] :
					     (double)R2C2_RATE_MIN);
	ok(!differ && rate_of(&d, 3, 99) == (double)R2C2_RATE_MIN,
	   "the others' rates are the same (%u differ), it has the lowest",
	   differ);
	daemon_free(&d);
}

/*
 * A demand of 0 kbit/s on the wire wants nothing; the allocator's 0 is
 * "no limit", so it took an unlimited share
 */
static void round__zero_demand(void)
{
	static struct r2c2d d;
	uint8_t dims[1] = { 3 };
	int r;

	ok(daemon_on(&d, 0, dims, 1) == 0, "a node of a three-node ring");
	/* both over the one link 0 -> 1 */
	add_flow(&d, 0, 1, 1, 1, R2C2_RP_RPS, R2C2_DEMAND_UNLIMITED);
	add_flow(&d, 0, 2, 1, 1, R2C2_RP_RPS, 0);
	add_flow(&d, 0, 3, 1, 1, R2C2_RP_RPS, 1000);
	r = compute(&d);
	ok(r == 0, "round (%d)", r);
	ok(rate_of(&d, 0, 2) == (double)R2C2_RATE_MIN,
	   "demand 0: no share, the lowest rate (%g)", rate_of(&d, 0, 2));
	ok(rate_of(&d, 0, 3) == 1e6 &&
	   fabs(rate_of(&d, 0, 1) - (0.95 * 10e9 - 1e6)) < 1,
	   "demand 1000 kbit/s: 1 Mbit/s; the unlimited flow the rest (%g)",
	   rate_of(&d, 0, 1));
	daemon_free(&d);
}

/* SIGHUP killed the daemon (signal() for INT and TERM only) */
static void signals__hup(void)
{
	ok(signals_init() == 0, "signal handlers installed (sigaction)");
	hup = stop = 0;
	raise(SIGHUP);
	ok(hup == 1 && stop == 0, "SIGHUP survived: a reload is due, not a stop");
	raise(SIGPIPE);
	ok(stop == 0, "SIGPIPE ignored");
	raise(SIGTERM);
	ok(stop == 1, "SIGTERM stops");
	hup = stop = 0;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
}

/* SIGHUP reads the file again: runtime keys change, the others wait */
static void signals__reload(void)
{
	static struct r2c2d d;
	char path[] = "/tmp/r2c2d_reload_XXXXXX", logbuf[2048] = "";
	const char *k[1] = { "refresh_ms" }, *v[1] = { "700" };
	uint8_t dims[1] = { 3 };
	uint64_t gen;
	FILE *log;
	int fd = mkstemp(path);

	close(fd);
	write_file(path, "rho_us = 500\nheadroom = 0.05\n");
	daemon_on(&d, 0, dims, 1);	/* topology from the node: torus:3 */
	d.conf_file = path;
	d.ov_key = k;
	d.ov_val = v;
	d.nov = 1;
	conf_read(&d, &d.conf0, logbuf, sizeof(logbuf));
	gen = d.mx.gen;
	write_file(path, "rho_us = 2000\nheadroom = 0.2\ndemand_low = 0.5\n"
		   "max_flows_per_src = 10\ncpu_budget = 2\nrefresh_ms = 900\n"
		   "policy = propfair\ntopology = torus:5\n");
	log = fmemopen(logbuf, sizeof(logbuf), "w");
	ok(reload(&d, log) == 0, "reload");
	fclose(log);
	ok(d.conf.rho_us == 2000 && d.conf.headroom == 0.2 &&
	   d.dem.low == 0.5 && d.mx.max_per_src == 10 &&
	   d.conf.cpu_budget == 2 && d.budget.share == 0.02,
	   "runtime keys taken: rho_us, headroom, demand_low (estimator), max_flows_per_src (matrix), cpu_budget (bucket)");
	ok(d.conf.refresh_ms == 700, "-o refresh_ms=700 still wins over the file (%u)",
	   d.conf.refresh_ms);
	ok(d.mx.gen != gen, "a new headroom makes a round due");
	ok(d.conf.policy == R2C2_POL_MAXMIN && !strcmp(d.conf.topology, "torus:3"),
	   "policy and topology kept ('%s')", d.conf.topology);
	ok(strstr(logbuf, "policy changed; it takes effect at restart") &&
	   strstr(logbuf, "topology changed; it takes effect at restart") &&
	   !strstr(logbuf, "link_capacity") && strstr(logbuf, "reloaded"),
	   "the log names what waits for a restart");
	write_file(path, "rho_us = 100\nrho_us = 0x10\n");
	log = fmemopen(logbuf, sizeof(logbuf), "w");
	ok(reload(&d, log) == -EINVAL && d.conf.rho_us == 2000,
	   "a file with an error changes nothing");
	fclose(log);
	logbuf[strcspn(logbuf, "\n")] = 0;
	ok(strstr(logbuf, ":2: bad value '0x10' for rho_us") &&
	   strstr(logbuf, "configuration unchanged"), "and says where: %s", logbuf);
	unlink(path);
	d.ov_key = d.ov_val = NULL;
	daemon_free(&d);
}

/* ---- configuration keys: each observed in what the daemon does ---- */

/*
 * A ring of 5, DOR: L 0 -> 2 (links 0->1, 1->2), S1 0 -> 1, S2 1 -> 2.
 * max-min gives all three half a link; proportional fairness gives L a
 * third and the short flows two thirds. 'policy' was parse-only:
 * propfair never ran in the daemon.
 */
static void conf__policy(void)
{
	static struct r2c2d d;
	uint8_t dims[1] = { 5 };
	const char *pol[2] = { "policy=maxmin", "policy=propfair" };
	double l[2], s1[2], s2[2], cap = 0.95 * 10e9;
	int i, r;

	for (i = 0; i < 2; i++) {
		ok(daemon_conf(&d, 0, dims, 1, pol[i]) == 0, "%s: setup", pol[i]);
		add_flow(&d, 0, 1, 2, 1, R2C2_RP_DOR, R2C2_DEMAND_UNLIMITED);
		add_flow(&d, 0, 2, 1, 1, R2C2_RP_DOR, R2C2_DEMAND_UNLIMITED);
		add_flow(&d, 1, 3, 2, 1, R2C2_RP_DOR, R2C2_DEMAND_UNLIMITED);
		r = compute(&d);
		l[i] = rate_of(&d, 0, 1);
		s1[i] = rate_of(&d, 0, 2);
		s2[i] = rate_of(&d, 1, 3);
		ok(r == 0, "%s: round (%d)", pol[i], r);
		daemon_free(&d);
	}
	ok(fabs(l[0] - cap / 2) < 1e3 && fabs(s1[0] - cap / 2) < 1e3 &&
	   fabs(s2[0] - cap / 2) < 1e3,
	   "maxmin: half a link each (%g %g %g)", l[0], s1[0], s2[0]);
	ok(fabs(l[1] - cap / 3) < 1e-3 * cap && fabs(s1[1] - 2 * cap / 3) < 1e-3 * cap &&
	   fabs(s2[1] - 2 * cap / 3) < 1e-3 * cap,
	   "propfair: the two-hop flow a third, the others two thirds (%g %g %g)",
	   l[1], s1[1], s2[1]);
}

/* headroom and link_capacity: one flow on one link gets (1 - h) * cap */
static void conf__headroom(void)
{
	static struct r2c2d d;
	uint8_t dims[1] = { 3 };

	ok(daemon_conf(&d, 0, dims, 1, "headroom=0.2;link_capacity=1G") == 0,
	   "headroom 0.2, link_capacity 1G: setup");
	add_flow(&d, 0, 1, 1, 1, R2C2_RP_DOR, R2C2_DEMAND_UNLIMITED);
	ok(compute(&d) == 0 && fabs(rate_of(&d, 0, 1) - 0.8e9) < 1,
	   "headroom 0.2 of 1 Gbit/s: the flow gets 800 Mbit/s (%g)",
	   rate_of(&d, 0, 1));
	daemon_free(&d);
}

/* topology: the configured torus wins over the node's (was parse-only) */
static void conf__topology(void)
{
	static struct r2c2d d;
	uint8_t dims[1] = { 3 };

	ok(daemon_conf(&d, 0, dims, 1, "topology=torus:5") == 0 &&
	   d.topo && d.topo->n == 5,
	   "topology torus:5 on a node that declares torus:3: the allocator's graph has %u nodes",
	   d.topo ? d.topo->n : 0);
	/* 0 -> 3 exists on torus:5 only */
	add_flow(&d, 0, 1, 3, 1, R2C2_RP_DOR, R2C2_DEMAND_UNLIMITED);
	ok(compute(&d) == 0 && rate_of(&d, 0, 1) > 0,
	   "a flow to node 3 gets a rate (%g)", rate_of(&d, 0, 1));
	daemon_free(&d);
}

/* max_flows (the matrix's size) and max_flows_per_src, set at startup */
static void conf__max_flows(void)
{
	static struct r2c2d d;
	uint8_t dims[1] = { 3 };

	ok(daemon_conf(&d, 0, dims, 1, "max_flows=3;max_flows_per_src=2") == 0,
	   "max_flows 3, max_flows_per_src 2: setup");
	ok(add_flow(&d, 1, 1, 2, 1, R2C2_RP_DOR, 0) == 1 &&
	   add_flow(&d, 1, 2, 2, 1, R2C2_RP_DOR, 0) == 1 &&
	   add_flow(&d, 1, 3, 2, 1, R2C2_RP_DOR, 0) != 1,
	   "a third flow of source 1 is refused");
	ok(add_flow(&d, 2, 4, 1, 1, R2C2_RP_DOR, 0) == 1 &&
	   add_flow(&d, 0, 5, 1, 1, R2C2_RP_DOR, 0) != 1 && d.mx.n == 3,
	   "a flow of source 2 is taken, a fourth flow of the rack is refused (%u flows)",
	   d.mx.n);
	daemon_free(&d);
}

/* the rates push() hands to RATE_SET, recorded instead of sent */
static size_t pushed_n;
static uint64_t pushed_rate[8];

static int record_flush(const uint32_t *id, const uint64_t *rate, size_t n,
			void *arg)
{
	(void)id;
	(void)arg;
	for (size_t i = 0; i < n && pushed_n < 8; i++)
		pushed_rate[pushed_n++] = rate[i];
	return 0;
}

/*
 * push_threshold: a rate that moved 10 % is pushed again at 0.05, not at
 * 0.5; lease_refresh_ms: an unchanged rate pushed 2 s ago is pushed again
 * at 1000, not at 10000
 */
static void conf__push(void)
{
	static struct r2c2d d;
	uint8_t dims[1] = { 3 };
	const char *c[2] = { "push_threshold=0.05;lease_refresh_ms=1000",
			     "push_threshold=0.5;lease_refresh_ms=10000" };
	size_t moved[2], refreshed[2];
	struct mx_flow *f;
	int i;

	for (i = 0; i < 2; i++) {
		daemon_conf(&d, 0, dims, 1, c[i]);
		d.batch.flush = record_flush;
		add_flow(&d, 0, 1, 1, 1, R2C2_RP_DOR, R2C2_DEMAND_UNLIMITED);
		f = &d.mx.f[mx_find(&d.mx, 0, 1)];
		f->rate = 1e9;
		pushed_n = 0;
		push(&d);
		ok(pushed_n == 1 && pushed_rate[0] == 1000000000,
		   "%s: a new rate is pushed", c[i]);
		pushed_n = 0;
		f->rate = 1.1e9;
		push(&d);
		moved[i] = pushed_n;
		pushed_n = 0;
		f->rate = f->pushed;
		f->pushed_ns -= 2000 * MS;
		push(&d);
		refreshed[i] = pushed_n;
		daemon_free(&d);
	}
	ok(moved[0] == 1 && moved[1] == 0,
	   "push_threshold: +10 %% pushed at 0.05 (%zu), not at 0.5 (%zu)",
	   moved[0], moved[1]);
	ok(refreshed[0] == 1 && refreshed[1] == 0,
	   "lease_refresh_ms: a 2 s old rate pushed again at 1000 (%zu), not at 10000 (%zu)",
	   refreshed[0], refreshed[1]);
}

/*
 * The demand estimator through on_qflow() (what the qdisc dump feeds):
 * an own flow allocated 10 Gbit/s that sends 1 Mbit/s with backlog B,
 * sampled every 10 ms for 1 s. Returns the demand it ends with.
 */
static uint32_t demand_after(const char *conf, uint32_t backlog)
{
	static struct r2c2d d;
	uint8_t dims[1] = { 3 };
	struct sample_ctx c = { &d, 0 };
	struct dnl_qflow q = {
		.id = 7, .dst = 1, .state = R2C2_RS_SET, .weight = 1,
		.backlog = backlog,
	};
	uint32_t k, i;

	if (daemon_conf(&d, 0, dims, 1, conf))
		return 0;
	for (i = 0; i <= 100; i++) {
		c.now = 1000 * MS + i * 10 * MS;
		q.bytes = i * 1250;
		on_qflow(&c, &q);
		d.mx.f[mx_find(&d.mx, 0, 7)].rate = 10e9;
	}
	k = d.mx.f[mx_find(&d.mx, 0, 7)].demand_kbps;
	daemon_free(&d);
	return k;
}

static void conf__demand(void)
{
	static struct r2c2d d;
	uint8_t dims[1] = { 3 };
	uint32_t k, k2;

	k = demand_after(NULL, 0);
	ok(k >= 1050 && k <= 1200,
	   "defaults: a flow sending 1 Mbit/s of 10 Gbit/s announces ~1.1 Mbit/s (%u kbit/s)", k);
	k = demand_after("demand_interval_ms=0", 0);
	ok(k == R2C2_DEMAND_UNLIMITED, "demand_interval_ms 0: no estimate (%u)", k);
	k = demand_after("announce_delay_ms=5000", 0);
	ok(k == R2C2_DEMAND_UNLIMITED,
	   "announce_delay_ms 5000: nothing announced in the flow's first second (%u)", k);
	k = demand_after("demand_slack=1", 0);
	ok(k >= 1900 && k <= 2100, "demand_slack 1: ~2 Mbit/s (%u)", k);
	k = demand_after("demand_low=0", 0);
	ok(k == R2C2_DEMAND_UNLIMITED,
	   "demand_low 0: never below low x allocation, unlimited (%u)", k);
	k = demand_after(NULL, 5000);
	k2 = demand_after("demand_empty_bytes=10000", 5000);
	ok(k == R2C2_DEMAND_UNLIMITED && k2 != R2C2_DEMAND_UNLIMITED,
	   "a 5000-byte backlog: a queue that never ran dry (%u), but dry below demand_empty_bytes 10000 (%u)",
	   k, k2);
	/* the knobs main() hands the estimator (dem_conf()) */
	ok(daemon_conf(&d, 0, dims, 1,
		       "demand_window_ms=40;demand_windows=7;demand_alpha=0.25;"
		       "demand_low=0.6;demand_high=0.9;demand_slack=0.3;"
		       "demand_empty_bytes=123") == 0 &&
	   d.dem.window_ns == 40 * MS && d.dem.windows == 7 &&
	   d.dem.alpha == 0.25 && d.dem.low == 0.6 && d.dem.high == 0.9 &&
	   d.dem.slack == 0.3 && d.dem.qempty == 123,
	   "demand_window_ms, _windows, _alpha, _low, _high, _slack, _empty_bytes reach the estimator");
	daemon_free(&d);
}

/* the route search's parameters: the ga_* keys, policy and headroom */
static void conf__ga(void)
{
	static struct r2c2d d;
	uint8_t dims[1] = { 3 };
	struct rs_params p;

	ok(daemon_conf(&d, 0, dims, 1,
		       "ga_margin=0.3;ga_budget_ms=77;ga_threads=3;ga_utility=min;"
		       "ga_protos=dor,vlb;ga_long_ms=450;policy=propfair;headroom=0.1") == 0,
	   "ga_* keys: setup");
	p = route_params(&d);
	ok(p.margin == 0.3 && p.budget_ms == 77 && p.threads == 3 &&
	   p.utility == R2C2_UTIL_MIN &&
	   p.protos == (1u << R2C2_RP_DOR | 1u << R2C2_RP_VLB) &&
	   p.long_ns == 450 * MS && p.policy == R2C2_POL_PROPFAIR &&
	   p.headroom == 0.1,
	   "the search gets ga_margin, ga_budget_ms, ga_threads, ga_utility, ga_protos, ga_long_ms, policy, headroom");
	daemon_free(&d);
}

/* control: the socket ctl_open() listens on, abstract or a path */
static void conf__control(void)
{
	static struct r2c2d d;
	uint8_t dims[1] = { 3 };
	char conf[128], path[64];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	socklen_t len;
	int fd, r;

	snprintf(conf, sizeof(conf), "control=@r2c2d-test-%d", (int)getpid());
	daemon_conf(&d, 0, dims, 1, conf);
	r = ctl_open(&d);
	len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(conf + 8));
	memcpy(sa.sun_path, conf + 8, strlen(conf + 8));
	sa.sun_path[0] = 0;
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	ok(r == 0 && connect(fd, (struct sockaddr *)&sa, len) == 0,
	   "control @r2c2d-test-PID: the daemon listens there (%s)", strerror(errno));
	close(fd);
	ctl_close(&d);
	daemon_free(&d);

	snprintf(path, sizeof(path), "/tmp/r2c2d-ctl-test-%d", (int)getpid());
	snprintf(conf, sizeof(conf), "control=%s", path);
	daemon_conf(&d, 0, dims, 1, conf);
	r = ctl_open(&d);
	ok(r == 0 && access(path, F_OK) == 0,
	   "control %s: a socket file there", path);
	ctl_close(&d);
	ok(access(path, F_OK) != 0, "and removed when the daemon closes it");
	daemon_free(&d);
}

/*
 * One request through the control socket as a client sends it: cmd
 * (len bytes, its newline included) to ctl_serve(), the answer into
 * buf. Returns the answer's length, or -1.
 */
static ssize_t ctl_ask(struct r2c2d *d, const char *cmd, size_t len,
		       char *buf, size_t size)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct pollfd p[1 + CTL_CLIENTS];
	size_t n = 0, k;
	bool accepted = false;
	ssize_t r;
	int fd, np, i;

	snprintf(d->conf.control, sizeof(d->conf.control), "@r2c2d-ask-%d",
		 (int)getpid());
	if (ctl_open(d))
		return -1;
	k = strlen(d->conf.control);
	memcpy(sa.sun_path, d->conf.control, k);
	sa.sun_path[0] = 0;
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa,
			      (socklen_t)(offsetof(struct sockaddr_un, sun_path) + k)) ||
	    write(fd, cmd, len) != (ssize_t)len) {
		if (fd >= 0)
			close(fd);
		ctl_close(d);
		return -1;
	}
	/* accept, read the line, write the answer, drop the client */
	for (i = 0; i < 100 && !(accepted && !d->nctl); i++) {
		np = ctl_pollfds(d, p);
		if (poll(p, (nfds_t)np, 100) < 0)
			break;
		ctl_serve(d, p, np);
		accepted |= d->nctl > 0;
	}
	while (n + 1 < size && (r = read(fd, buf + n, size - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = 0;
	close(fd);
	ctl_close(d);
	return (ssize_t)n;
}

/* the effective capabilities hold CAP_NET_ADMIN (12) */
static bool cap_net_admin(void)
{
	unsigned long long cap = 0;
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &cap) == 1)
			break;
	if (f)
		fclose(f);
	return cap >> 12 & 1;
}

static long rmem_max(void)
{
	long v = -1;
	FILE *f = fopen("/proc/sys/net/core/rmem_max", "r");

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/*
 * The event socket's 8 MB were asked for with SO_RCVBUF (libnl's
 * nl_socket_set_buffer_size()), which stops at net.core.rmem_max though
 * the daemon may force more; and nothing said what it got
 */
static void kernel__rcvbuf(void)
{
	static struct r2c2d d;
	uint8_t dims[1] = { 3 };
	char out[16384], want[96];
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	int got, cur = 0;
	socklen_t len = sizeof(cur);
	bool forced = false;
	long max = rmem_max();

	got = dnl_rcvbuf(fd, DNL_EV_RCVBUF, &forced);
	getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &cur, &len);
	close(fd);
	ok(got > 0 && got == cur,
	   "dnl_rcvbuf() returns the socket's buffer (%d; getsockopt %d)",
	   got, cur);
	if (cap_net_admin())
		ok(forced && got >= 2 * DNL_EV_RCVBUF,
		   "with CAP_NET_ADMIN: SO_RCVBUFFORCE, %d bytes (rmem_max %ld)",
		   got, max);
	else
		ok(!forced && max > 0 &&
		   got == 2 * (max < DNL_EV_RCVBUF ? (int)max : DNL_EV_RCVBUF),
		   "without CAP_NET_ADMIN: SO_RCVBUF, up to rmem_max %ld (%d)",
		   max, got);
	daemon_on(&d, 0, dims, 1);
	d.nl.ev_rcvbuf = got;
	d.nl.ev_rcvbuf_forced = forced;
	snprintf(want, sizeof(want),
		 "\"event_rcvbuf\":%d,\"event_rcvbuf_forced\":%s", got,
		 forced ? "true" : "false");
	ok(ctl_ask(&d, "show\n", 5, out, sizeof(out)) > 0 && strstr(out, want),
	   "daemon show: kernel.%s", want);
	daemon_free(&d);
}

/*
 * The module reloaded with another node address: family_back() took the
 * new address, but the matrix went on counting the old one's flows as
 * its own, so once they expired no flow was own and rounds stopped
 */
static void family__new_address(void)
{
	static struct r2c2d d;
	uint8_t dims[1] = { 3 };
	uint64_t now = 10000 * MS, ttl;

	ok(daemon_on(&d, 0, dims, 1) == 0, "node 0 of a three-node ring");
	ttl = (uint64_t)d.conf.expire_ms * MS;
	fake_q[0] = (struct dnl_qflow){
		.id = 7, .dst = 1, .state = R2C2_RS_SET, .weight = 1,
	};
	fake_nq = 1;
	sample_own(&d, now);
	ok(d.mx.own == 1, "the qdisc's flow is the node's own (%u)", d.mx.own);
	d.computed_gen = d.mx.gen;	/* its round ran */
	family_lost(&d, now);
	fake_node = (struct dnl_node){ .addr = 2, .ndims = 1, .dims = { 3 } };
	ok(family_back(&d, now + 300 * MS) && d.node.addr == 2,
	   "the module is back; the node is 2 now (%u)", d.node.addr);
	ok(d.mx.own_src == 2, "the matrix's own address is 2 (%d)",
	   d.mx.own_src);
	/* the qdisc after the reload has a flow to node 1 */
	fake_q[0].id = 9;
	sample_own(&d, now + 310 * MS);
	/* the loop's expiry, once nothing refreshed the old flows */
	mx_expire(&d.mx, now + 310 * MS + ttl + 1, ttl, d.node.addr);
	ok(mx_find(&d.mx, 2, 9) != MX_NONE && d.mx.own == 1 && round_due(&d),
	   "a flow of the new address is own and makes a round due (%u own)",
	   d.mx.own);
	ok(mx_find(&d.mx, 0, 7) == MX_NONE,
	   "the old address's flow is not in the matrix");
	fake_nq = 0;
	daemon_free(&d);
}

/* lines of file path holding s */
static int lines_with(const char *path, const char *s)
{
	char line[1024];
	int n = 0;
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f))
		n += strstr(line, s) != NULL;
	if (f)
		fclose(f);
	return n;
}

/*
 * A graph naming a neighbour past the addresses r2c2d takes (4096) made
 * every read fail (EINVAL), and a failed read was retried 20 ms later,
 * for good: TOPO_GET every 20 ms while the graph stays. The loop's
 * schedule run on a clock of its own: next_deadline() says when, the
 * read is taken then, for 10 s of failures, then the graph is fixed.
 */
static void topo__retry_backoff(void)
{
	static struct r2c2d d;
	uint8_t dims[1] = { 3 };
	uint64_t t0 = 1000000 * MS, now = t0, next, last = 0, gap, gmax = 0;
	uint64_t far = UINT64_MAX / 4;
	char logp[] = "/tmp/r2c2d_topo_log_XXXXXX", out[16384];
	unsigned int reads, i;
	int lfd, err2;

	daemon_conf(&d, 0, dims, 1, "digest_ms=0;ga_interval_ms=0");
	/* a ring 0-1-2 (ports 0 and 1); node 2's port 2 names node 5000 */
	memset(fake_nbr, 0xff, sizeof(fake_nbr));
	for (i = 0; i < 3; i++) {
		fake_nbr[i * R2C2_MAX_PORTS + 0] = (uint16_t)((i + 1) % 3);
		fake_nbr[i * R2C2_MAX_PORTS + 1] = (uint16_t)((i + 2) % 3);
	}
	fake_nbr[2 * R2C2_MAX_PORTS + 2] = 5000;
	fake_topo_n = 3;
	fake_topo_dumps = 0;
	/* nothing else due: no sample, refresh, expiry, lease or round */
	d.last_sample_ns = d.last_refresh_ns = d.last_expire_ns = far;
	d.last_lease_ns = d.last_digest_ns = far;
	d.computed_gen = d.mx.gen;
	d.topo_dirty = true;
	d.topo_dirty_ns = t0 - TOPO_HOLDOFF_MS * MS;
	fflush(stderr);
	err2 = dup(2);
	lfd = mkstemp(logp);
	dup2(lfd, 2);
	while (d.topo_dirty) {
		next = next_deadline(&d, now);
		if (next >= t0 + 10000 * MS)
			break;
		if (next > now)
			now = next;
		gap = last ? now - last : 0;
		if (gap > gmax)
			gmax = gap;
		last = now;
		topo_step(&d, now);
	}
	reads = fake_topo_dumps;
	ok(reads >= 5 && reads <= 16,
	   "a graph that cannot be taken: %u reads in 10 s, not one every 20 ms",
	   reads);
	ok(gmax >= 2000 * MS && gmax <= 5000 * MS,
	   "the retries back off to a few seconds (longest wait %llu ms)",
	   (unsigned long long)(gmax / MS));
	ok(ctl_ask(&d, "show\n", 5, out, sizeof(out)) > 0 &&
	   strstr(out, "\"retry_ms\":5000") && strstr(out, "\"failing\":") &&
	   strstr(out, "\"last_error\":\"node 2 port 2 names neighbour 5000,"),
	   "daemon show: topology.failing, retry_ms 5000, last_error");
	/* the graph fixed: the next read takes it and the backoff ends */
	fake_nbr[2 * R2C2_MAX_PORTS + 2] = R2C2_ADDR_NONE;
	now = next_deadline(&d, now) > now ? next_deadline(&d, now) : now;
	topo_step(&d, now);
	fflush(stderr);
	dup2(err2, 2);
	close(err2);
	close(lfd);
	ok(!d.topo_dirty && fake_topo_dumps == reads + 1,
	   "the fixed graph is read at the next retry and taken");
	ok(ctl_ask(&d, "show\n", 5, out, sizeof(out)) > 0 &&
	   strstr(out, "\"failing\":0,\"retry_ms\":0"),
	   "daemon show: failing 0, retry_ms 0 once a read works");
	ok(lines_with(logp, "graph cannot be taken") == 1 &&
	   lines_with(logp, "graph read again") == 1,
	   "logged once when reads began failing (%d) and once when they worked again (%d), not at every retry",
	   lines_with(logp, "graph cannot be taken"),
	   lines_with(logp, "graph read again"));
	unlink(logp);
	fake_topo_n = 0;
	daemon_free(&d);
}

/*
 * jq's reading of a JSON text: filter's output (-r: raw) into out, or
 * -1 when jq refuses the text; -2 when there is no jq
 */
static int jq_read(const char *json, const char *filter, char *out,
		   size_t size)
{
	char in[] = "/tmp/r2c2d_jq_XXXXXX", cmd[256];
	size_t n = 0;
	FILE *p;
	int fd, st;

	if (system("command -v jq >/dev/null 2>&1"))
		return -2;
	fd = mkstemp(in);
	if (fd < 0 || write(fd, json, strlen(json)) != (ssize_t)strlen(json)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	snprintf(cmd, sizeof(cmd), "jq -j '%s' %s 2>/dev/null", filter, in);
	p = popen(cmd, "r");
	if (p) {
		n = fread(out, 1, size - 1, p);
		st = pclose(p);
	} else {
		st = -1;
	}
	out[n] = 0;
	unlink(in);
	return st == 0 ? (int)n : -1;
}

/*
 * The unknown-command answer echoed the client's line into a JSON string
 * as is: a quote, a backslash or a control byte made it no JSON at all.
 * Same for a file: topology, whose path may hold them.
 */
static void ctl__json_escaping(void)
{
	static struct r2c2d d;
	uint8_t dims[1] = { 3 };
	/* everything but the newline that ends the line */
	static const char cmd[] = "sh\"ow\\ \x01\x1f\t\r\x7f }";
	char line[64], out[16384], got[256], want[256], dir[] = "/tmp/r2c2d_q_XXXXXX";
	char path[128], conf[192];
	int r;

	daemon_on(&d, 0, dims, 1);
	snprintf(line, sizeof(line), "%s\n", cmd);
	ok(ctl_ask(&d, line, strlen(line), out, sizeof(out)) > 0,
	   "an unknown command is answered");
	/* the line ends at \r (ctl.c cuts it there) */
	snprintf(want, sizeof(want), "unknown command '%.*s' (show, matrix)",
		 (int)strcspn(cmd, "\r"), cmd);
	r = jq_read(out, ".error", got, sizeof(got));
	if (r == -2)
		ok(1, "# SKIP no jq");
	else
		ok(r >= 0 && !strcmp(got, want),
		   "the answer is JSON, the command in its error as sent (%s)",
		   r < 0 ? out : "same");
	daemon_free(&d);

	if (!mkdtemp(dir))
		return;
	snprintf(path, sizeof(path), "%s/a\"b\\c\x02.topo", dir);
	write_file(path, "nodes 3\nduplex 0 1 1G\nduplex 1 2 1G\n");
	snprintf(conf, sizeof(conf), "topology=file:%s", path);
	ok(daemon_conf(&d, 0, dims, 1, conf) == 0, "a topology file whose name holds \", \\ and \\x02");
	r = ctl_ask(&d, "show\n", 5, out, sizeof(out));
	snprintf(want, sizeof(want), "file:%s", path);
	r = r > 0 ? jq_read(out, ".config.topology", got, sizeof(got)) : -1;
	if (r == -2)
		ok(1, "# SKIP no jq");
	else
		ok(r >= 0 && !strcmp(got, want),
		   "daemon show is JSON, config.topology the file's name as given");
	unlink(path);
	rmdir(dir);
	daemon_free(&d);
}

/*
 * r2c2d wrote its settings with %g: six digits, so demand_alpha
 * 0.123456789 read back as 0.123457. The writer r2c2ctl and r2c2d share
 * gives each double in the fewest digits that read back the same.
 */
static void ctl__json_settings_exact(void)
{
	static struct r2c2d d;
	uint8_t dims[1] = { 3 };
	char out[16384], got[64];
	int r;

	ok(daemon_conf(&d, 0, dims, 1, "demand_alpha=0.123456789;headroom=0.1") == 0,
	   "demand_alpha 0.123456789, headroom 0.1");
	r = ctl_ask(&d, "show\n", 5, out, sizeof(out));
	r = r > 0 ? jq_read(out, "[.config.demand_alpha, .config.headroom] | tostring",
			    got, sizeof(got)) : -1;
	if (r == -2)
		ok(1, "# SKIP no jq");
	else
		ok(r >= 0 && !strcmp(got, "[0.123456789,0.1]"),
		   "daemon show gives both as set (%s)", r >= 0 ? got : out);
	ok(strstr(out, "\"headroom\":0.1,") != NULL,
	   "headroom written as 0.1, not 0.10000000000000001");
	daemon_free(&d);
}

/*
 * Bytes that are not UTF-8 went into the unknown-command answer as they
 * came: no JSON (RFC 8259 wants UTF-8), and a strict client's parser
 * refuses the whole answer (ctl_fuzz). Each such byte is U+FFFD now, as
 * r2c2ctl's own JSON writer has it; UTF-8 passes as sent.
 */
static void ctl__json_utf8(void)
{
	static struct r2c2d d;
	uint8_t dims[1] = { 3 };
	/* a lone lead byte, an e acute, a surrogate, an overlong '/' */
	static const char cmd[] = "\xf1\xc3\xa9\xed\xa0\x80x\xc0\xaf\n";
	static const char want[] =
		"{\"error\":\"unknown command '\\ufffd\xc3\xa9\\ufffd\\ufffd\\ufffdx"
		"\\ufffd\\ufffd' (show, matrix)\"}\n";
	char out[1024];
	ssize_t r;

	daemon_on(&d, 0, dims, 1);
	r = ctl_ask(&d, cmd, strlen(cmd), out, sizeof(out));
	ok(r > 0 && !strcmp(out, want),
	   "bytes that are not UTF-8 are answered as U+FFFD, UTF-8 as sent (%s)",
	   r > 0 ? out : "no answer");
	daemon_free(&d);
}

static uint32_t demand_of(const struct r2c2d *d, uint16_t src, uint32_t id)
{
	uint32_t i = mx_find(&d->mx, src, id);

	return i == MX_NONE ? 0 : d->mx.f[i].demand_kbps;
}

/*
 * r2c2.ko multicasts every FLOW_EVENT back to the node's own listeners:
 * the daemon applied its own announcements when they came back, though
 * main.c said it did not, and a REFRESH sent before a demand changed put
 * the old demand back
 */
static void event__own_echo(void)
{
	static struct r2c2d d;
	uint8_t dims[1] = { 3 };
	char out[16384];
	struct mx_flow *f;
	uint64_t gen;
	struct mx_evt e = {
		.type = R2C2_FE_REFRESH, .src = 0, .id = 7, .dst = 1,
		.weight = 1, .demand_kbps = R2C2_DEMAND_UNLIMITED,
	};

	daemon_on(&d, 0, dims, 1);
	fake_q[0] = (struct dnl_qflow){
		.id = 7, .dst = 1, .state = R2C2_RS_SET, .weight = 1,
	};
	fake_nq = 1;
	sample_own(&d, 1000 * MS);
	fake_nq = 0;
	/* the estimator's new demand, as on_qflow() sets it */
	f = &d.mx.f[mx_find(&d.mx, 0, 7)];
	mx_term_out(&d.mx, f);
	f->demand_kbps = 1000;
	mx_term_in(&d.mx, f);
	d.mx.gen++;
	gen = d.mx.gen;
	/* the REFRESH sent before it comes back */
	on_event(&d, &e);
	ok(demand_of(&d, 0, 7) == 1000 && d.mx.gen == gen,
	   "a stale REFRESH of an own flow heard back leaves its demand (%u kbit/s)",
	   demand_of(&d, 0, 7));
	e.type = R2C2_FE_UPDATE;
	on_event(&d, &e);
	e.type = R2C2_FE_START;
	on_event(&d, &e);
	ok(demand_of(&d, 0, 7) == 1000 && d.mx.gen == gen,
	   "so do an UPDATE and a START of it heard back (%u kbit/s)",
	   demand_of(&d, 0, 7));
	/* another node's flow: applied */
	e = (struct mx_evt){ .type = R2C2_FE_REFRESH, .src = 1, .id = 8,
			     .dst = 2, .weight = 1, .demand_kbps = 500 };
	on_event(&d, &e);
	ok(demand_of(&d, 1, 8) == 500, "node 1's REFRESH is applied");
	/* the qdisc's START of a flow not held yet, and its FINISH */
	e = (struct mx_evt){ .type = R2C2_FE_START, .src = 0, .id = 9,
			     .dst = 2, .weight = 1,
			     .demand_kbps = R2C2_DEMAND_UNLIMITED };
	on_event(&d, &e);
	ok(mx_find(&d.mx, 0, 9) != MX_NONE && d.mx.own == 2,
	   "the qdisc's START of a new own flow is taken (%u own)", d.mx.own);
	e.type = R2C2_FE_FINISH;
	on_event(&d, &e);
	ok(mx_find(&d.mx, 0, 9) == MX_NONE, "and its FINISH");
	ok(ctl_ask(&d, "show\n", 5, out, sizeof(out)) > 0 &&
	   strstr(out, "\"own_echoes\":3"),
	   "daemon show: events.own_echoes 3");
	daemon_free(&d);
}

/*
 * The control socket is abstract (no file mode): any local user could
 * connect, and 16 clients could each have a matrix answer built in
 * memory. Now the peer's credentials decide (root and r2c2d's own user
 * are answered), and a matrix answer is refused while other answers wait
 * unread past ctl_pending_max.
 */
static int ctl_connect(const struct r2c2d *d)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t k = strlen(d->conf.control);
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	memcpy(sa.sun_path, d->conf.control, k);
	sa.sun_path[0] = 0;
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa,
			       (socklen_t)(offsetof(struct sockaddr_un, sun_path) + k))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

static void ctl_turn(struct r2c2d *d, int times)
{
	struct pollfd p[1 + CTL_CLIENTS];
	int np;

	while (times-- > 0) {
		np = ctl_pollfds(d, p);
		poll(p, (nfds_t)np, 20);
		ctl_serve(d, p, np);
	}
}

static void ctl__access(void)
{
	static struct r2c2d d;
	uint8_t dims[1] = { 3 };
	char out[4096] = "", big[65536];
	int fd, a, b, st, pfd[2], small = 4096;
	ssize_t n = 0, r;
	pid_t pid;
	uint32_t i;

	daemon_conf(&d, 0, dims, 1, NULL);
	snprintf(d.conf.control, sizeof(d.conf.control), "@r2c2d-acc-%d",
		 (int)getpid());
	ok(ctl_open(&d) == 0, "control socket open");
	if (geteuid() == 0 && pipe(pfd) == 0) {
		/* a client as user nobody (65534) asks for show */
		pid = fork();
		if (pid == 0) {
			close(pfd[0]);
			if (setgid(65534) || setuid(65534))
				_exit(3);
			fd = ctl_connect(&d);
			if (fd < 0 || write(fd, "show\n", 5) != 5)
				_exit(4);
			while ((r = read(fd, out + n, sizeof(out) - 1 - (size_t)n)) > 0)
				n += r;
			if (write(pfd[1], out, (size_t)n) != n)
				_exit(5);
			_exit(0);
		}
		close(pfd[1]);
		for (i = 0; i < 100 && waitpid(pid, &st, WNOHANG) == 0; i++)
			ctl_turn(&d, 1);
		n = read(pfd[0], out, sizeof(out) - 1);
		out[n > 0 ? n : 0] = 0;
		close(pfd[0]);
		ok(strstr(out, "\"error\":\"permission denied: uid 65534;") &&
		   !strstr(out, "\"node\":") && d.t.ctl_denied == 1,
		   "a client of uid 65534 is refused, named, counted (%s)", out);
	} else {	/* CI runs as root; a skip fails it there */
		ok(1, "a client of another user is refused # SKIP not root: no client can run as another user");
		d.t.ctl_denied = 1;	/* what the next check counts */
	}
	/* as root (or our own user): answered */
	fd = ctl_connect(&d);
	a = fd >= 0 && write(fd, "show\n", 5) == 5;
	ctl_turn(&d, 5);
	n = a ? read(fd, out, sizeof(out) - 1) : -1;
	out[n > 0 ? n : 0] = 0;
	close(fd);
	ok(n > 0 && strstr(out, "\"node\":0") && strstr(out, "\"ctl_denied\":1"),
	   "our own user is answered; daemon show counts ctl_denied");

	/*
	 * client a's matrix answer (300 flows, ~60 KB) stays mostly unsent
	 * (small buffers, a reads nothing); b's matrix is then refused with
	 * a 1,000-byte cap and answered without one
	 */
	for (i = 0; i < 300; i++)
		add_flow(&d, (uint16_t)(i % 9), 100 + i, (uint16_t)((i + 1) % 9), 1,
			 R2C2_RP_RPS, R2C2_DEMAND_UNLIMITED);
	a = ctl_connect(&d);
	setsockopt(a, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
	ctl_turn(&d, 2);
	if (d.nctl == 1)
		setsockopt(d.ctl[0].fd, SOL_SOCKET, SO_SNDBUF, &small, sizeof(small));
	if (write(a, "matrix\n", 7) != 7)
		a = -1;
	ctl_turn(&d, 3);
	d.ctl_pending_max = 1000;
	b = ctl_connect(&d);
	if (write(b, "matrix\n", 7) != 7)
		b = -1;
	ctl_turn(&d, 3);
	n = b >= 0 ? read(b, out, sizeof(out) - 1) : -1;
	out[n > 0 ? n : 0] = 0;
	close(b);
	ok(a >= 0 && strstr(out, "\"error\":\"busy: ") && d.t.ctl_busy == 1,
	   "a matrix asked while another's answer is unread past the cap: busy (%.60s)", out);
	d.ctl_pending_max = 0;
	b = ctl_connect(&d);
	if (write(b, "matrix\n", 7) != 7)
		b = -1;
	n = 0;
	for (i = 0; i < 50 && b >= 0; i++) {
		ctl_turn(&d, 1);
		while ((r = recv(b, big + n, sizeof(big) - 1 - (size_t)n, MSG_DONTWAIT)) > 0)
			n += r;
		if (r == 0)
			break;
	}
	big[n > 0 ? n : 0] = 0;
	close(b);
	close(a);
	ok(strstr(big, "\"flows\":[") && d.t.ctl_busy == 1,
	   "the same with the cap of 64 MB: answered (%zd bytes)", n);
	ctl_close(&d);
	daemon_free(&d);
}

/*
 * A graph's cache of pair weights held every pair ever met (~450 MB at
 * 512 nodes): with table_cache_mb it is cleared once past the limit and
 * twice what the flows needed after the last clear, and the rates stay
 * those of a daemon that never clears. 40 rounds on a 16x16 mesh, each
 * with 150 new random pairs (RPS or DOR), limit 1 MB, against the
 * same rounds with no limit; 20 flows stay throughout (a clear takes
 * their pairs too: they must be prepared again).
 */
static void tables__cache_bound(void)
{
	static struct r2c2d d[2];
	uint8_t dims[1] = { 3 }, mdims[2] = { 16, 16 };
	struct tb_out o;
	uint64_t seed = 7;
	size_t peak[2] = { 0, 0 }, b;
	double worst = 0;
	char out[16384];
	unsigned int k, r, i, bad = 0;
	uint32_t id;

	for (k = 0; k < 2; k++) {
		struct r2c2_topo *t;

		daemon_conf(&d[k], 0, dims, 1, k ? "table_cache_mb=0" :
			    "table_cache_mb=1");
		r2c2_topo_grid(&t, mdims, 2, false, d[k].conf.link_capacity);
		if (tb_build(t, NULL, NULL, NULL, 0, false, &o))
			bad++;
		else
			tables_swap(&d[k], &o);
		for (i = 0; i < 20; i++)
			add_flow(&d[k], (uint16_t)(i * 12), 1000000 + i,
				 (uint16_t)(255 - i * 7), 1, R2C2_RP_RPS,
				 R2C2_DEMAND_UNLIMITED);
	}
	for (r = 0, id = 1; r < 40; r++) {
		uint64_t s0 = seed;

		for (k = 0; k < 2; k++) {
			seed = s0;
			for (i = 0; i < d[k].mx.n;)	/* the others finish */
				if (d[k].mx.f[i].id >= 1000000 ||
				    mx_apply(&d[k].mx, &(struct mx_evt){
						.type = R2C2_FE_FINISH,
						.src = d[k].mx.f[i].src,
						.id = d[k].mx.f[i].id }, 1) <= 0)
					i++;
			for (i = 0; i < 150; i++) {
				uint16_t s = (uint16_t)tbelow(&seed, 256);
				uint16_t t = (uint16_t)((s + 1 + tbelow(&seed, 255)) % 256);

				add_flow(&d[k], s, id + i, t, 1,
					 (uint8_t)tbelow(&seed, 2),
					 R2C2_DEMAND_UNLIMITED);
			}
			bad += compute(&d[k]) != 0;
			b = r2c2d_cache_bytes(&d[k]);
			peak[k] = b > peak[k] ? b : peak[k];
		}
		r2c2d_rates_sync(&d[0]);
		for (i = 0; i < d[0].mx.n; i++) {
			const struct mx_flow *f = &d[0].mx.f[i];
			double c = rate_of(&d[1], f->src, f->id);

			worst = fmax(worst, fabs(f->rate - c) / (c > 0 ? c : 1));
		}
		id += 150;
	}
	ok(!bad && d[0].ts.cache_clears >= 1 && d[1].ts.cache_clears == 0 &&
	   peak[0] <= (1u << 20) + 3 * d[0].ts.cache_need && peak[1] > 2 * peak[0],
	   "16x16 mesh, 40 rounds of 150 new pairs: table_cache_mb=1 peaks at %zu bytes (%llu clears, %zu needed), no limit at %zu",
	   peak[0], (unsigned long long)d[0].ts.cache_clears,
	   d[0].ts.cache_need, peak[1]);
	ok(worst <= 1e-12,
	   "the rates with clears equal those without (largest relative difference %.2g)",
	   worst);
	ok(ctl_ask(&d[0], "show\n", 5, out, sizeof(out)) > 0 &&
	   strstr(out, "\"table_cache_mb\":1,") && strstr(out, "\"cache_clears\":") &&
	   strstr(out, "\"cache_limit_mb\":1,"),
	   "daemon show: config.table_cache_mb, topology.cache_bytes, cache_clears");
	daemon_free(&d[0]);
	daemon_free(&d[1]);
}

/* every periodic duty done just now: only a round can be due */
static void duties_done(struct r2c2d *d)
{
	uint64_t now = r2c2d_now();

	d->last_sample_ns = d->last_refresh_ns = d->last_expire_ns = now;
	d->last_lease_ns = d->last_digest_ns = now;
	d->need_resync = false;
}

/* a TOPO_EVENT a holdoff ago: the kernel's graph is to be read now */
static void topo_dirty_now(struct r2c2d *d)
{
	d->topo_dirty = true;
	d->topo_dirty_ns = r2c2d_now() - TOPO_HOLDOFF_MS * MS;
}

/*
 * the table build over (waited for, 10 s at most) and every duty of the
 * loop done just now, a round too: the next tick() only takes the tables
 */
static void build_over_nothing_due(struct r2c2d *d)
{
	unsigned int i;

	for (i = 0; i < 10000 && !tb_over(&d->tb); i++)
		usleep(1000);
	duties_done(d);
	d->last_round_ns = r2c2d_now();
	d->computed_gen = d->mx.gen;
}

/*
 * A new graph's tables are built by a worker thread: topo_step() reads
 * the graph, starts the build and returns with the old tables in place,
 * so the loop goes on (a round on them here); tables_collect() swaps the
 * new ones in, with the graph's consequences (rebuilds, a round due).
 * On the node's torus:3, the kernel's graph becomes the line 0-1-2.
 */
static void tables__off_the_loop(void)
{
	static struct r2c2d d;
	uint8_t dims[1] = { 3 };
	const struct r2c2_topo *old;
	char out[16384];
	uint64_t gen;
	unsigned int dumps, i;
	double before;

	daemon_conf(&d, 0, dims, 1, "digest_ms=0;ga_interval_ms=0");
	old = d.topo;
	/* 0 -> 2: one hop on the ring, two on the line (its other way) */
	add_flow(&d, 0, 1, 2, 1, R2C2_RP_DOR, R2C2_DEMAND_UNLIMITED);
	add_flow(&d, 1, 2, 2, 1, R2C2_RP_DOR, R2C2_DEMAND_UNLIMITED);
	ok(compute(&d) == 0, "a round on the ring");
	before = rate_of(&d, 0, 1);
	memset(fake_nbr, 0xff, sizeof(fake_nbr));
	for (i = 0; i < 2; i++) {
		fake_nbr[i * R2C2_MAX_PORTS + 0] = (uint16_t)(i + 1);
		fake_nbr[(i + 1) * R2C2_MAX_PORTS + 1] = (uint16_t)i;
	}
	fake_topo_n = 3;
	dumps = fake_topo_dumps;
	gen = d.mx.gen;
	topo_dirty_now(&d);
	topo_step(&d, r2c2d_now());
	ok(fake_topo_dumps == dumps + 1 && wk_running(&d.tb.wk) && d.topo == old &&
	   d.topo->kind == R2C2_TOPO_TORUS && !d.ts.rebuilds &&
	   d.mx.gen == gen,
	   "topo_step() read the graph and returned with a build running and the ring's tables in place");
	ok(ctl_ask(&d, "show\n", 5, out, sizeof(out)) > 0 &&
	   strstr(out, "\"building\":true,\"table_builds\":0,"),
	   "daemon show during the build: building true, table_builds 0");
	d.mx.gen++;
	ok(compute(&d) == 0 && rate_of(&d, 0, 1) == before,
	   "a round meanwhile runs on the old tables (%.0f bit/s)",
	   rate_of(&d, 0, 1));
	/*
	 * a TOPO_EVENT during the build; the loop's next tick, once the
	 * worker is over, takes the tables and then reads the graph again
	 * (nothing else is due)
	 */
	topo_dirty_now(&d);
	build_over_nothing_due(&d);
	d.rd.wk.running = true;	/* a round's solve reads the old tables */
	atomic_store(&d.rd.wk.done, false);
	tick(&d);
	ok(tb_over(&d.tb) && d.topo == old && !d.ts.rebuilds,
	   "while a round's solve reads the old tables, the new ones wait");
	d.rd.wk.running = false;
	ok(next_deadline(&d, r2c2d_now()) <= r2c2d_now(),
	   "the build is over: the loop is due at once");
	tick(&d);
	ok(!tb_busy(&d.tb) && d.topo != old &&
	   d.topo->kind == R2C2_TOPO_GRAPH && d.topo->nlinks == 4 &&
	   d.ts.rebuilds == 1 && d.mx.gen == gen + 2 && d.tb.builds == 1 &&
	   fake_topo_dumps == dumps + 2 && !d.topo_dirty,
	   "tick(): the line's graph (%u links) swapped in, %llu rebuild, a round due (gen +%llu), the graph read again (%u reads)",
	   d.topo->nlinks, (unsigned long long)d.ts.rebuilds,
	   (unsigned long long)(d.mx.gen - gen), fake_topo_dumps - dumps);
	ok(compute(&d) == 0 &&
	   fabs(rate_of(&d, 0, 1) - before / 2) <= 1e-9 * before,
	   "the next round is on the line: 0->2 and 1->2 share link 1->2 (%.0f = %.0f / 2)",
	   rate_of(&d, 0, 1), before);
	ok(ctl_ask(&d, "show\n", 5, out, sizeof(out)) > 0 &&
	   strstr(out, "\"building\":false,\"table_builds\":1,") &&
	   strstr(out, "\"rebuilds\":1,"),
	   "daemon show after: building false, table_builds 1, rebuilds 1");
	fake_topo_n = 0;
	daemon_free(&d);
}

/*
 * The kernel's graph has the links of the node's torus 2x2, but the two
 * parallel links of dimension 0 are crossed: port 0 of each node lands on
 * port 0 of its neighbour, port 1 on port 1 (a torus wires 0 to 1). Only
 * the far-end ports TOPO_GET gives tell it from the torus; r2c2d must
 * build the graph as it is (DOR breaks ties by the torus wiring only:
 * common/paths.c), with those ports, and then find it unchanged.
 */
static void tables__crossed_parallel_links(void)
{
	static struct r2c2d d;
	uint8_t dims[2] = { 2, 2 };
	const struct r2c2_topo *t;
	unsigned int u, p, i, dumps, bad = 0;

	daemon_conf(&d, 0, dims, 2, "digest_ms=0;ga_interval_ms=0");
	t = d.ctopo;
	memset(fake_nbr, 0xff, sizeof(fake_nbr));
	memcpy(fake_nbr, t->nbr, R2C2_NLINKS(t->n) * sizeof(*fake_nbr));
	memcpy(fake_nport, t->nbr_port, R2C2_NLINKS(t->n));
	for (u = 0; u < t->n; u++)
		for (p = 0; p < 2; p++)
			fake_nport[u * R2C2_MAX_PORTS + p] = (uint8_t)p;
	fake_topo_n = t->n;
	fake_nport_known = true;
	topo_dirty_now(&d);
	topo_step(&d, r2c2d_now());
	build_over_nothing_due(&d);
	tick(&d);
	ok(d.topo != d.ctopo && d.topo->kind == R2C2_TOPO_GRAPH &&
	   d.ts.rebuilds == 1,
	   "crossed parallel links: not the declared torus, the graph's tables built (%llu rebuild)",
	   (unsigned long long)d.ts.rebuilds);
	for (i = 0; i < R2C2_NLINKS(d.topo->n); i++)
		bad += d.topo->nbr[i] != R2C2_IDX_NONE &&
		       d.topo->nbr_port[i] != fake_nport[i];
	ok(d.topo->n == 4 && bad == 0,
	   "its links land on the ports TOPO_GET gave (%u differ; node 0 port 0 on port %u)",
	   bad, d.topo->nbr_port[0]);
	dumps = fake_topo_dumps;
	topo_dirty_now(&d);
	topo_step(&d, r2c2d_now());
	ok(fake_topo_dumps == dumps + 1 && !tb_busy(&d.tb) &&
	   d.ts.rebuilds == 1,
	   "read again, the same graph is the one in place: no build");
	fake_nport_known = false;
	fake_topo_n = 0;
	daemon_free(&d);
}

/* link l of fake_nbr cut both ways, t's wiring */
static void fake_cut(const struct r2c2_topo *t, size_t l)
{
	fake_nbr[(size_t)t->nbr[l] * R2C2_MAX_PORTS + t->nbr_port[l]] =
		R2C2_IDX_NONE;
	fake_nbr[l] = R2C2_IDX_NONE;
}

/*
 * A change of the kernel's graph keeps what it did not touch. The node's
 * torus 4x4 loses a link (its tables become a graph's: no pair to copy,
 * what the torus's legs need kept, and a round translates those),
 * a round prepares the flows' pairs, and a second link fails: the new
 * tables take over the pairs and VLB groups no changed link touches
 * (topology.kept_last), and the round after gives exactly the rates of
 * the same round once the cache is cleared (every pair computed afresh).
 */
static void tables__change_keeps_pairs(void)
{
	static const struct { uint16_t s, d; uint8_t p; } f[] = {
		{ 0, 1, R2C2_RP_RPS }, { 5, 6, R2C2_RP_DOR },
		{ 3, 12, R2C2_RP_RPS }, { 7, 13, R2C2_RP_DOR },
		{ 2, 8, R2C2_RP_VLB }, { 9, 14, R2C2_RP_RPS },
		{ 15, 4, R2C2_RP_DOR }, { 11, 1, R2C2_RP_VLB },
	};
	static struct r2c2d d;
	uint8_t dims[2] = { 4, 4 };
	const struct r2c2_topo *t;
	const size_t nf = sizeof(f) / sizeof(f[0]);
	double r1[sizeof(f) / sizeof(f[0])];
	char out[16384], want[64];
	unsigned int i, bad = 0;
	int c1, c2, wait_new;
	bool carrying;

	daemon_conf(&d, 0, dims, 2, "digest_ms=0;ga_interval_ms=0");
	t = d.ctopo;
	for (i = 0; i < nf; i++)
		add_flow(&d, f[i].s, i + 1, f[i].d, 1, f[i].p,
			 R2C2_DEMAND_UNLIMITED);
	memset(fake_nbr, 0xff, sizeof(fake_nbr));
	memcpy(fake_nbr, t->nbr, R2C2_NLINKS(t->n) * sizeof(*fake_nbr));
	fake_cut(t, 0 * R2C2_MAX_PORTS + 0);
	fake_topo_n = t->n;
	topo_dirty_now(&d);
	topo_step(&d, r2c2d_now());
	build_over_nothing_due(&d);
	tick(&d);
	ok(d.topo->kind == R2C2_TOPO_GRAPH && d.ts.rebuilds == 1 &&
	   d.ts.kept_last == 0 && d.ts.from_torus && compute(&d) == 0 &&
	   r2c2_rtab_from_torus(d.rt, NULL) > 0,
	   "torus 4x4 less a link: a graph's tables, no pair to copy (%llu), the torus's legs kept: the round on them translates %zu",
	   (unsigned long long)d.ts.kept_last, r2c2_rtab_from_torus(d.rt, NULL));
	fake_cut(t, 10 * R2C2_MAX_PORTS + 2);
	topo_dirty_now(&d);
	topo_step(&d, r2c2d_now());
	build_over_nothing_due(&d);
	tick(&d);
	carrying = tb_carrying(&d.tb) && d.ts.rebuilds == 1;
	/* meanwhile a round that wants a new pair waits */
	add_flow(&d, 6, 100, 9, 1, R2C2_RP_RPS, R2C2_DEMAND_UNLIMITED);
	wait_new = round_prepare(&d, false);
	mx_apply(&d.mx, &(struct mx_evt){ .type = R2C2_FE_FINISH, .src = 6,
		 .id = 100 }, 1);
	build_over_nothing_due(&d);
	tick(&d);
	c1 = compute(&d);
	for (i = 0; i < nf; i++)
		r1[i] = rate_of(&d, f[i].s, i + 1);
	r2c2_rtab_clear(d.rt);	/* as cache_trim() clears it */
	mx_unseen_all(&d.mx);
	d.mx.gen++;
	c2 = compute(&d);
	for (i = 0; i < nf; i++)
		bad += rate_of(&d, f[i].s, i + 1) != r1[i] || r1[i] <= 0;
	ok(carrying && wait_new == -EAGAIN,
	   "one more link fails: the new tables first copy from the old ones in the worker, and a round that wants a new pair waits (%d)",
	   wait_new);
	ok(d.ts.rebuilds == 2 && d.ts.kept_last > 0 &&
	   d.ts.kept == d.ts.kept_last && !c1 && !c2 && !bad,
	   "then they are swapped in with %llu pairs and groups kept, and the round on them gives every flow the rate tables built afresh give (%u differ; rebuilds %llu, rounds %d %d)",
	   (unsigned long long)d.ts.kept_last, bad,
	   (unsigned long long)d.ts.rebuilds, c1, c2);
	snprintf(want, sizeof(want),
		 "\"from_torus\":true,\"kept_last\":%llu,\"kept\":%llu,",
		 (unsigned long long)d.ts.kept_last,
		 (unsigned long long)d.ts.kept);
	ok(ctl_ask(&d, "show\n", 5, out, sizeof(out)) > 0 && strstr(out, want),
	   "daemon show: topology.from_torus, kept_last, kept (%s)", want);
	fake_topo_n = 0;
	daemon_free(&d);
}

static void flow_event(struct r2c2d *d, uint8_t type, uint16_t src,
		       uint32_t id, uint16_t dst)
{
	struct mx_evt e = {
		.type = type, .src = src, .id = id, .dst = dst, .weight = 1,
		.rproto = R2C2_RP_RPS, .demand_kbps = R2C2_DEMAND_UNLIMITED,
	};

	mx_apply(&d->mx, &e, 1);
}

/* the largest relative difference of d's rates from ref's, flow by flow */
static double rates_apart(struct r2c2d *d, struct r2c2d *ref)
{
	double worst = 0, a, b;
	uint32_t i;

	r2c2d_rates_sync(ref);
	for (i = 0; i < ref->mx.n; i++) {
		const struct mx_flow *f = &ref->mx.f[i];

		a = rate_of(d, f->src, f->id);
		b = f->rate;
		if (a < 0)
			return INFINITY;
		if (fabs(a - b) > worst * b)
			worst = fabs(a - b) / b;
	}
	return worst;
}

/*
 * round_worker_us: a round's solve in the worker while the loop goes on,
 * the matrix changing under its snapshot; the same rates as rounds in
 * the loop
 */
static void rounds__off_the_loop(void)
{
	static struct r2c2d d, ref;
	uint8_t dims[3] = { 4, 4, 4 };
	struct pollfd p;
	uint64_t pushes, gen, now;
	uint32_t i, set = 0;
	char out[16384];

	daemon_conf(&d, 0, dims, 3,
		    "digest_ms=0;ga_interval_ms=0;warmup_ms=0;round_worker_us=0;"
		    "demand_interval_ms=1000");
	daemon_conf(&ref, 0, dims, 3, "digest_ms=0;ga_interval_ms=0;warmup_ms=0");
	for (i = 0; i < 600; i++) {
		uint16_t src = (uint16_t)(i % 64),
			 dst = (uint16_t)((src + 1 + i * 7 % 63) % 64);

		add_flow(&d, src, 1000 + i, dst, (uint8_t)(1 + i % 3),
			 (uint8_t)(i % 3), R2C2_DEMAND_UNLIMITED);
		add_flow(&ref, src, 1000 + i, dst, (uint8_t)(1 + i % 3),
			 (uint8_t)(i % 3), R2C2_DEMAND_UNLIMITED);
	}
	ok(compute(&ref) == 0, "the reference: a round in the loop");
	duties_done(&d);
	d.last_round_ns = r2c2d_now() - 1000 * MS;
	gen = d.mx.gen;
	tick(&d);
	for (i = 0; i < d.mx.n; i++)
		set += d.mx.f[i].rate != 0;
	ok(rd_busy(&d.rd) && d.rd.off_loop == 1 && d.t.rounds == 0 &&
	   !set && d.computed_gen == gen && d.rd.n == 600,
	   "round_worker_us=0: tick() returned with the solve of 600 flows in the worker, no rate yet");
	/* the matrix changes during the solve: flow 0:1000 leaves, 5:1 comes */
	flow_event(&d, R2C2_FE_FINISH, 0, 1000, 1);
	flow_event(&d, R2C2_FE_START, 5, 1, 9);
	p = (struct pollfd){ .fd = rd_fd(&d.rd), .events = POLLIN };
	ok(poll(&p, 1, 60000) == 1 && rd_over(&d.rd) &&
	   next_deadline(&d, r2c2d_now()) <= r2c2d_now(),
	   "the worker's eventfd wakes the loop, which is due at once");
	pushes = d.t.pushes;
	round_collect(&d, false);
	ok(!rd_busy(&d.rd) && d.t.rounds == 1 && d.rd.gone == 1 &&
	   rate_of(&d, 5, 1) == 0 && d.t.pushes > pushes,
	   "collected: the rates applied and pushed (%llu), the flow that left skipped (gone %llu), the new one waits",
	   (unsigned long long)(d.t.pushes - pushes),
	   (unsigned long long)d.rd.gone);
	{
		double w = 0, a, b;

		r2c2d_rates_sync(&ref);
		for (i = 0; i < ref.mx.n; i++) {
			const struct mx_flow *f = &ref.mx.f[i];

			if (f->src == 0 && f->id == 1000)
				continue;
			a = rate_of(&d, f->src, f->id);
			b = f->rate;
			w = a < 0 ? INFINITY : fmax(w, fabs(a - b) / b);
		}
		ok(w <= 1e-12,
		   "each flow that stayed has the rate of the same round in the loop (largest relative difference %g)",
		   w);
	}
	/* the next round, rho after this one began, takes the changes */
	flow_event(&ref, R2C2_FE_FINISH, 0, 1000, 1);
	flow_event(&ref, R2C2_FE_START, 5, 1, 9);
	ok(compute(&ref) == 0 && round_due(&d), "the matrix changed: a round is due");
	duties_done(&d);
	d.last_round_ns = r2c2d_now() - 1000 * MS;
	tick(&d);
	ok(rd_busy(&d.rd) && d.rd.off_loop == 2, "the next tick starts it");
	round_collect(&d, true);
	ok(d.t.rounds == 2 && rate_of(&d, 5, 1) > 0 &&
	   rates_apart(&d, &ref) <= 1e-12 && !round_due(&d),
	   "and its rates are those of the loop's (largest relative difference %g)",
	   rates_apart(&d, &ref));
	/*
	 * while a solve runs (held here: the worker is marked running and
	 * not done, with no thread), a due round waits for it and the loop
	 * sleeps: the worker's end wakes it
	 */
	flow_event(&d, R2C2_FE_START, 6, 1, 9);
	duties_done(&d);
	d.last_round_ns = r2c2d_now() - 1000 * MS;
	d.rd.wk.running = true;
	atomic_store(&d.rd.wk.done, false);
	now = r2c2d_now();
	ok(round_due(&d) && next_deadline(&d, now) > now + 50 * MS,
	   "a round is due but a solve runs: the loop is not due");
	tick(&d);
	ok(d.rd.off_loop == 2 && d.t.rounds == 2 && rate_of(&d, 6, 1) == 0 &&
	   round_due(&d),
	   "tick() starts no second solve, and the round stays due");
	ok(r2c2d_rates_fresh(&d) == 0 && round_due(&d),
	   "nor does a control client");
	ok(ctl_ask(&d, "show\n", 5, out, sizeof(out)) > 0 &&
	   strstr(out, "\"rounds_off_loop\":2,\"solving\":true,\"round_flows_gone\":1,") &&
	   strstr(out, "\"round_worker_us\":0}"),
	   "daemon show: rounds_off_loop 2, solving true, round_flows_gone 1, round_worker_us 0");
	d.rd.wk.running = false;
	/* which rounds go: the last one's time, scaled by the flows */
	d.conf.round_worker_us = 1000;
	d.t.round_flows_last = d.mx.n;
	d.t.compute_ns_last = 1000 * 1000;
	ok(round_off_loop(&d), "round_worker_us=1000: after a round of 1 ms, to the worker");
	d.t.compute_ns_last = 999 * 1000;
	ok(!round_off_loop(&d), "after one of 0.999 ms, in the loop");
	d.t.round_flows_last = d.mx.n / 2;
	ok(round_off_loop(&d), "and to the worker when the flows doubled since");
	d.t.round_flows_last = 0;
	ok(round_off_loop(&d), "a first round, with nothing to go by, to the worker");
	d.conf.round_worker_us = ROUND_WORKER_NEVER;
	d.t.round_flows_last = d.mx.n;
	d.t.compute_ns_last = 60ull * 1000 * 1000 * 1000;
	ok(!round_off_loop(&d), "round_worker_us=%u: none, even after a round of a minute",
	   ROUND_WORKER_NEVER);
	daemon_free(&d);
	daemon_free(&ref);
}

/*
 * The allocator on the matrix's flows as the walk over them gives them
 * (those with no path left out, their rate 0), against the rates d's
 * last round gave; largest relative difference, or 1 if a rate is
 * missing
 */
static double rates_off_walk(struct r2c2d *d)
{
	static struct r2c2_flow in[4096];
	static double want[4096];
	static uint32_t at[4096];
	const struct r2c2_topo *t = d->topo;
	uint32_t i, n = 0;
	double worst = 0;

	r2c2d_rates_sync(d);
	for (i = 0; i < d->mx.n && n < 4096; i++) {
		const struct mx_flow *f = &d->mx.f[i];

		if (!r2c2_topo_reaches(t, f->src, f->dst)) {
			if (f->rate != 0)
				return 1;
			continue;
		}
		mx_alloc_flow(f, t->n, &in[n]);
		at[n++] = i;
	}
	if (r2c2_maxmin(d->rt, in, n, d->conf.headroom, want, NULL))
		return 1;
	for (i = 0; i < n; i++) {
		double r = d->mx.f[at[i]].rate;
		double e = fabs(r - want[i]) / (want[i] > 0 ? want[i] : 1);

		worst = e > worst ? e : worst;
	}
	return worst;
}

/*
 * On a graph too the snapshot copies the matrix's view: only the flows
 * new or changed since the tables last had their pairs (the unseen
 * list) are looked up, at most UNSEEN_STEP a round; the others go to the
 * solve's list unchecked, and a table swap makes every flow unseen. A
 * flow whose pair has no path goes to the solve's list failed: the solve
 * leaves it out. Every round gives the rates of the walk.
 */
static void rounds__unseen_flows(void)
{
	enum { N = 36, F = UNSEEN_STEP + 952 };
	static uint16_t nbr[R2C2_NLINKS(N)];
	static double cap[R2C2_NLINKS(N)];
	static struct r2c2d d;
	uint8_t dims[1] = { 3 }, mdims[2] = { 6, 6 };
	struct r2c2_topo *t = NULL, *g = NULL;
	uint64_t seed = 9, snaps;
	struct tb_out o;
	uint32_t l;
	int bad = 0, r;

	daemon_conf(&d, 0, dims, 1,
		    "digest_ms=0;ga_interval_ms=0;warmup_ms=0;round_worker_us=0");
	/* a 6x6 mesh whose node 35 has lost its links: no path to it */
	r2c2_topo_grid(&t, mdims, 2, false, d.conf.link_capacity);
	memcpy(nbr, t->nbr, sizeof(nbr));
	memcpy(cap, t->cap, sizeof(cap));
	for (l = 0; l < R2C2_NLINKS(N); l++)
		if (l / R2C2_MAX_PORTS == N - 1 || nbr[l] == N - 1) {
			nbr[l] = R2C2_IDX_NONE;
			cap[l] = 0;
		}
	r2c2_topo_free(t);
	if (r2c2_topo_from_adj(&g, N, nbr, cap) ||
	    tb_build(g, NULL, NULL, NULL, 0, false, &o))
		bad++;
	else
		tables_swap(&d, &o);
	add_random_flows(&d, F, N - 1, 100, 3, &seed);
	ok(!bad && d.topo->kind != R2C2_TOPO_TORUS && d.mx.unseen == F &&
	   compute(&d) == 0 && d.t.view_snapshots == 1 && d.rd.ntodo == F &&
	   d.mx.unseen == F && rates_off_walk(&d) < 1e-12,
	   "a graph, %u new flows: the round copied the view, %u checked and every pair to prepare in the solve (%zu); the walk's rates (%g apart)",
	   F, UNSEEN_STEP, d.rd.ntodo, rates_off_walk(&d));
	ok(compute(&d) == 0 && d.t.view_snapshots == 2 &&
	   d.rd.ntodo == F - UNSEEN_STEP && d.mx.unseen == F - UNSEEN_STEP &&
	   compute(&d) == 0 && d.t.view_snapshots == 3 && !d.rd.ntodo &&
	   !d.rd.prep && !d.mx.unseen && rates_off_walk(&d) < 1e-12,
	   "two more rounds: %u pairs found prepared, then the rest; nothing is left to check or prepare (%u), the same rates",
	   UNSEEN_STEP, d.mx.unseen);
	/* a flow changed, one to the node out of reach */
	add_flow(&d, 1, 100, 2, 1, R2C2_RP_VLB, R2C2_DEMAND_UNLIMITED);
	add_flow(&d, 3, 9, N - 1, 1, R2C2_RP_RPS, R2C2_DEMAND_UNLIMITED);
	snaps = d.t.view_snapshots;
	ok(d.mx.unseen == 2 && compute(&d) == 0 &&
	   d.t.view_snapshots == snaps + 1 && d.t.skipped_flows == 1 &&
	   d.rd.nfail == 1 && rate_of(&d, 3, 9) == 0 &&
	   rates_off_walk(&d) < 1e-12 && d.mx.unseen >= 1,
	   "a flow with no path: the solve left it out (skipped %llu), it stays unseen; the others' rates are the walk's",
	   (unsigned long long)d.t.skipped_flows);
	add_flow(&d, 3, 9, N - 2, 1, R2C2_RP_RPS, R2C2_DEMAND_UNLIMITED);
	ok(compute(&d) == 0 && d.t.view_snapshots == snaps + 2 &&
	   !d.rd.nfail && d.mx.unseen <= 1 && rate_of(&d, 3, 9) > 0 &&
	   rates_off_walk(&d) < 1e-12,
	   "its destination changed to one in reach: it has a rate (%u unseen)",
	   d.mx.unseen);
	/*
	 * The tables swapped: every flow is unseen, every pair new. The
	 * first flow now has no path: past the round's checks, its pair
	 * fails in the solve, whose list is not in order
	 */
	add_flow(&d, d.mx.f[0].src, d.mx.f[0].id, N - 1, 1, R2C2_RP_DOR,
		 R2C2_DEMAND_UNLIMITED);
	if (!r2c2_topo_from_adj(&g, N, nbr, cap) &&
	    !tb_build(g, NULL, NULL, NULL, 0, false, &o))
		tables_swap(&d, &o);
	ok(d.mx.unseen == d.mx.n && compute(&d) == 0 &&
	   d.rd.ntodo == d.mx.n && d.rd.nfail == 1 &&
	   d.mx.f[0].rate == 0 && rates_off_walk(&d) < 1e-12,
	   "new tables: all %u flows unseen, their pairs prepared by the solve (%zu), one without a path left out (%zu), the walk's rates",
	   d.mx.n, d.rd.ntodo, d.rd.nfail);
	ok(compute(&d) == 0 && rates_off_walk(&d) < 1e-12 &&
	   compute(&d) == 0 && d.rd.nfail == 1 && rates_off_walk(&d) < 1e-12,
	   "two rounds more: the set whose flows the failed one's removal moved is copied whole again, the walk's rates");
	/*
	 * A route search preparing its pairs writes the graph's tables: the
	 * round waits, whatever it would have to check (the search's worker
	 * made up: running, its pairs not done)
	 */
	d.rs.wk.running = true;
	atomic_store(&d.rs.pairs_done, false);
	r = round_prepare(&d, false);
	atomic_store(&d.rs.pairs_done, true);
	ok(r == -EAGAIN && round_prepare(&d, false) == 0,
	   "a route search's pair work: the round waits (%d); its search alone: the round goes on",
	   r);
	d.rs.wk.running = false;
	/* the old tables were freed in a thread, joined by a tick */
	while (wk_running(&d.tb.reap) && !wk_over(&d.tb.reap))
		;
	tick(&d);
	ok(d.tb.drops == 2 && !wk_running(&d.tb.reap),
	   "the tables swapped out twice were freed in a thread (%llu), the last joined by a tick",
	   (unsigned long long)d.tb.drops);
	daemon_free(&d);
}

/*
 * A snapshot copies only the chunks of the matrix's view changed since its
 * arrays last held it: the two sets that swap each round take 12 chunks
 * of 3,000 flows once each, then what changed since their own last copy;
 * a walk over the flows (a flow of demand 0) makes the next copy into the
 * arrays it wrote whole, with the matrix's places again.
 * Every round gives the walk's rates.
 */
static void round__view_chunks(void)
{
	static struct r2c2d d;
	uint8_t dims[3] = { 4, 4, 4 };
	uint64_t seed = 21, c[8];
	struct mx_flow f3;
	uint32_t i;
	int bad = 0;

	daemon_conf(&d, 0, dims, 3,
		    "digest_ms=0;ga_interval_ms=0;warmup_ms=0;round_worker_us=0");
	add_random_flows(&d, 3000, 64, 100, 3, &seed);
	bad += compute(&d) != 0 || rates_off_walk(&d) > 1e-12;
	c[0] = d.t.view_chunks;
	bad += compute(&d) != 0 || rates_off_walk(&d) > 1e-12;
	c[1] = d.t.view_chunks;
	ok(!bad && c[0] == 12 && c[1] == 24,
	   "3,000 flows: each set of arrays takes the 12 chunks once (%llu, %llu)",
	   (unsigned long long)c[0], (unsigned long long)c[1]);
	/* a change in chunk 0: the first set takes it */
	add_flow(&d, d.mx.f[5].src, d.mx.f[5].id, d.mx.f[5].dst, 7,
		 d.mx.f[5].rproto, R2C2_DEMAND_UNLIMITED);
	bad += compute(&d) != 0 || rates_off_walk(&d) > 1e-12;
	c[2] = d.t.view_chunks;
	/* a flow of chunk 2 leaves (the last flow moves into its place) */
	mx_apply(&d.mx, &(struct mx_evt){ .type = R2C2_FE_FINISH,
		 .src = d.mx.f[700].src, .id = d.mx.f[700].id }, 1);
	bad += compute(&d) != 0 || rates_off_walk(&d) > 1e-12;
	c[3] = d.t.view_chunks;
	bad += compute(&d) != 0 || rates_off_walk(&d) > 1e-12;
	c[4] = d.t.view_chunks;
	ok(!bad && c[2] - c[1] == 1 && c[3] - c[2] == 2 && c[4] - c[3] == 1,
	   "a change, a departure: each round copies what changed since its set's copy (%llu, %llu, %llu chunks), the walk's rates",
	   (unsigned long long)(c[2] - c[1]), (unsigned long long)(c[3] - c[2]),
	   (unsigned long long)(c[4] - c[3]));
	/*
	 * The fourth flow wants nothing: the walk leaves it out, the
	 * places after it move; then it wants again
	 */
	f3 = d.mx.f[3];
	add_flow(&d, f3.src, f3.id, f3.dst, f3.weight, f3.rproto, 0);
	bad += compute(&d) != 0;
	add_flow(&d, f3.src, f3.id, f3.dst, f3.weight, f3.rproto,
		 R2C2_DEMAND_UNLIMITED);
	c[5] = d.t.view_chunks;
	bad += compute(&d) != 0 || rates_off_walk(&d) > 1e-12;
	c[6] = d.t.view_chunks;
	bad += compute(&d) != 0 || rates_off_walk(&d) > 1e-12;
	c[7] = d.t.view_chunks;
	for (i = 0; i < d.rd.done.n; i++)
		bad += d.rd.done.idx[i] != i;
	ok(!bad && c[5] == c[4] && c[6] - c[5] == 1 && c[7] - c[6] == 12,
	   "after a walk, the other set copies what changed (%llu chunks), the set the walk wrote copies the view whole (%llu); the walk's rates",
	   (unsigned long long)(c[6] - c[5]), (unsigned long long)(c[7] - c[6]));
	daemon_free(&d);
}

/*
 * A round for the worker copies at most rd.copy_step chunks a try: 3,000
 * flows (12 chunks) at 5 a try take three tries, the first two -EAGAIN.
 * Flows changed between the tries, in a chunk copied already and in one
 * not reached yet, and a flow started, are in the round's snapshot all
 * the same: its rates are those of the matrix as of the last try.
 */
static void round__copy_steps(void)
{
	static struct r2c2d d;
	uint8_t dims[3] = { 4, 4, 4 };
	uint64_t seed = 23, c0, s0;
	struct mx_flow f;
	int r[3], bad = 0;

	daemon_conf(&d, 0, dims, 3,
		    "digest_ms=0;ga_interval_ms=0;warmup_ms=0;round_worker_us=0");
	add_random_flows(&d, 3000, 64, 100, 3, &seed);
	d.rd.copy_step = 5;
	c0 = d.t.view_chunks;
	s0 = d.t.view_copy_steps;
	r[0] = round_start(&d);
	ok(r[0] == -EAGAIN && d.t.view_chunks - c0 == 5 && !rd_busy(&d.rd),
	   "12 chunks to copy, 5 a try: the first try copies 5 and stops (%d, %llu chunks)",
	   r[0], (unsigned long long)(d.t.view_chunks - c0));
	/* chunk 0, copied already, and chunk 10, not reached, change */
	f = d.mx.f[3];
	add_flow(&d, f.src, f.id, f.dst, 9, f.rproto, R2C2_DEMAND_UNLIMITED);
	f = d.mx.f[2600];
	add_flow(&d, f.src, f.id, f.dst, 5, f.rproto, R2C2_DEMAND_UNLIMITED);
	r[1] = round_start(&d);
	add_flow(&d, 1, 90001, 2, 1, R2C2_RP_RPS, R2C2_DEMAND_UNLIMITED);
	r[2] = round_start(&d);
	if (r[2] == 1)
		round_collect(&d, true);
	ok(r[1] == -EAGAIN && r[2] == 1 && d.t.view_copy_steps - s0 == 2 &&
	   d.rd.done.n == d.mx.n && d.t.applied_gen == d.mx.gen,
	   "the second try copies 5 more, the third the rest and the chunks changed meanwhile; the worker solves it (%d, %d; %llu steps)",
	   r[1], r[2], (unsigned long long)(d.t.view_copy_steps - s0));
	bad = rates_off_walk(&d) > 1e-12;
	ok(!bad && d.mx.f[mx_find(&d.mx, 1, 90001)].rate > 0,
	   "its rates are those of the matrix as of the last try: the changes between tries and the new flow in");
	/*
	 * A pass under way when a flow comes to want nothing: the round
	 * walks the flows (a walk writes the arrays its way, and the sets
	 * swap); when it wants again, a copy starts over
	 */
	for (int k = 0; k < 2; k++) {	/* both sets hold the view */
		d.t.view_copy_steps = 0;
		while ((r[0] = round_start(&d)) == -EAGAIN && d.t.view_copy_steps < 9)
			;
		if (r[0] == 1)
			round_collect(&d, true);
	}
	f = d.mx.f[1000];
	add_flow(&d, f.src, f.id, f.dst, 4, f.rproto, R2C2_DEMAND_UNLIMITED);
	f = d.mx.f[2000];
	add_flow(&d, f.src, f.id, f.dst, 6, f.rproto, R2C2_DEMAND_UNLIMITED);
	d.rd.copy_step = 1;
	r[0] = round_start(&d);
	f = d.mx.f[7];
	add_flow(&d, f.src, f.id, f.dst, f.weight, f.rproto, 0);
	bad = compute(&d) != 0;
	add_flow(&d, f.src, f.id, f.dst, 3, f.rproto, R2C2_DEMAND_UNLIMITED);
	d.t.view_copy_steps = 0;
	while ((r[1] = round_start(&d)) == -EAGAIN && d.t.view_copy_steps < 40)
		;
	if (r[1] == 1)
		round_collect(&d, true);
	ok(r[0] == -EAGAIN && !bad && r[1] == 1 && rates_off_walk(&d) <= 1e-12,
	   "a walk in the middle of a copy's pass: the copy after it starts over, and its round has the matrix's rates (%d, %d)",
	   r[0], r[1]);
	daemon_free(&d);
}

/*
 * The snapshot's two sets of arrays swap every round, and grow apart:
 * after one grew to 2,048 flows and the other to 1,024 (the matrix
 * shrank in between), a round of 1,500 flows whose pairs are all new
 * lists 1,500 pairs to prepare: the list, which the sets share, must
 * not have shrunk with the second set's growth (ASan).
 */
static void rounds__arrays_grow_apart(void)
{
	static struct r2c2d d;
	uint8_t dims[1] = { 3 }, mdims[2] = { 6, 6 };
	uint64_t seed = 3;
	uint32_t i;
	int bad = 0;

	daemon_conf(&d, 0, dims, 1,
		    "digest_ms=0;ga_interval_ms=0;warmup_ms=0;round_worker_us=0");
	add_random_flows(&d, 1500, 36, 100, 1, &seed);
	bad += mesh_tables(&d, mdims, 2) != 0;
	bad += compute(&d) != 0;	/* one set grows to 2,048 */
	for (i = 0; i < 800; i++)
		mx_apply(&d.mx, &(struct mx_evt){ .type = R2C2_FE_FINISH,
			 .src = d.mx.f[0].src, .id = d.mx.f[0].id }, 1);
	bad += compute(&d) != 0;	/* the other to 1,024 */
	add_random_flows(&d, 800, 36, 5000, 1, &seed);
	bad += mesh_tables(&d, mdims, 2) != 0;
	bad += compute(&d) != 0;
	ok(!bad && d.rd.ntodo == 1500 && d.rd.done.n == 1500,
	   "the first set again, 1,500 flows, every pair new: %zu pairs prepared, %zu flows solved",
	   d.rd.ntodo, d.rd.done.n);
	daemon_free(&d);
}

/*
 * On a graph a new pair's weights are computed by the solve, in the
 * worker when the round is there: after the tables changed every pair
 * is new, and the loop held 63 ms preparing 10^4 of them. The rates are
 * those of the same round in the loop. A pair that cannot be prepared
 * takes its flow out of the snapshot (rd_solve() on a made-up one).
 */
static void rounds__pairs_in_the_solve(void)
{
	static struct r2c2d d, ref;
	static struct r2c2_flow only[2];
	static double want[2];
	uint8_t dims[1] = { 3 }, mdims[2] = { 6, 6 };
	struct r2c2d *dd[2] = { &d, &ref };
	uint64_t seed = 5;
	uint32_t i, k;
	struct rd r;
	int bad = 0;

	for (k = 0; k < 2; k++) {
		struct r2c2_topo *t;
		struct tb_out o;

		daemon_conf(dd[k], 0, dims, 1,
			    k ? "digest_ms=0;ga_interval_ms=0;warmup_ms=0" :
			    "digest_ms=0;ga_interval_ms=0;warmup_ms=0;round_worker_us=0");
		r2c2_topo_grid(&t, mdims, 2, false, dd[k]->conf.link_capacity);
		if (tb_build(t, NULL, NULL, NULL, 0, false, &o))
			bad++;
		else
			tables_swap(dd[k], &o);
		seed = 5;
		for (i = 0; i < 200; i++) {
			uint16_t src = (uint16_t)(i % 9 ? tbelow(&seed, 36) : 0);
			uint16_t dst = (uint16_t)((src + 1 + tbelow(&seed, 35)) % 36);

			add_flow(dd[k], src, 100 + i, dst, 1,
				 (uint8_t)tbelow(&seed, 3), R2C2_DEMAND_UNLIMITED);
		}
	}
	ok(!bad && compute(&ref) == 0 && d.topo->kind != R2C2_TOPO_TORUS,
	   "a 6x6 mesh's tables (a graph), 200 flows; the reference round in the loop");
	duties_done(&d);
	d.last_round_ns = r2c2d_now() - 1000 * MS;
	tick(&d);
	ok(rd_busy(&d.rd) && d.rd.ntodo == 200 && d.rd.prep == d.rt,
	   "the round went to the worker with its 200 pairs to prepare there (%zu)",
	   d.rd.ntodo);
	round_collect(&d, true);
	ok(d.t.rounds == 1 && rates_apart(&d, &ref) <= 1e-12 &&
	   r2c2_rtab_prepared(d.rt, d.mx.f[0].src, d.mx.f[0].dst,
			      d.mx.f[0].rproto),
	   "collected: the pairs are in the tables and the rates are the loop's (largest relative difference %g)",
	   rates_apart(&d, &ref));
	daemon_free(&d);
	daemon_free(&ref);

	/* three flows, the middle one's pair impossible (src == dst) */
	daemon_on(&d, 0, dims, 1);
	{
		struct r2c2_topo *t;
		struct tb_out o;

		r2c2_topo_grid(&t, mdims, 2, false, d.conf.link_capacity);
		if (!tb_build(t, NULL, NULL, NULL, 0, false, &o))
			tables_swap(&d, &o);
	}
	rd_init(&r);
	rd_reserve(&r, 3);
	r.n = 3;
	for (i = 0; i < 3; i++) {
		r.f[i] = (struct r2c2_flow){
			.src = (u16)(i == 1 ? 7 : i * 3), .dst = (u16)(i == 1 ? 7 : 20 + i),
			.rproto = R2C2_RP_RPS, .weight = 1,
		};
		r.idx[i] = i;
		r.id[i] = 50 + i;
		r.todo[i] = i;
	}
	r.ntodo = 3;
	r.own[0] = 0;
	r.own[1] = 2;
	r.nown = 2;
	r.rt = r.prep = d.rt;
	r.headroom = d.conf.headroom;
	only[0] = r.f[0];
	only[1] = r.f[2];
	ok(rd_solve(&r) == 0 && r.n == 2 && r.nfail == 1 &&
	   r.fail[0].id == 51 && r.fail[0].src == 7 && r.fail[0].idx == 1 &&
	   r.id[0] == 50 && r.id[1] == 52 && r.idx[1] == 2 && r.nown == 2 &&
	   r.own[0] == 0 && r.own[1] == 1 &&
	   r2c2_maxmin(d.rt, only, 2, d.conf.headroom, want, NULL) == 0 &&
	   r.rate[0] == want[0] && r.rate[1] == want[1],
	   "a pair that cannot be prepared: its flow leaves the snapshot for the failed list, the others keep their order, own places and rates");
	rd_fini(&r);
	daemon_free(&d);
}

/*
 * A route search's table work goes in steps, a round between two. On a
 * 6x6 mesh (a graph) with 200 flows whose own pairs are prepared, a
 * search of every flow (each one's every protocol) starts with steps of
 * 1 ns: 32 flows a step. Its first step over, the search is paused; a
 * START with a new pair makes a round due, and the tick lets the round
 * go first (to the worker, which prepares the pair), not the search.
 * With the round collected and another due, the next tick resumes the
 * search first, and that round waits. The search then ends as it would
 * have in one go: every flow in it, every protocol's pair prepared. A
 * search paused with no round due goes on at the next tick.
 */
static void route__pairs_in_steps(void)
{
	static struct r2c2d d;
	uint8_t dims[1] = { 3 }, mdims[2] = { 6, 6 };
	struct r2c2_topo *t;
	struct rs_params p;
	struct tb_out o;
	uint64_t seed = 3, rounds;
	uint32_t i, flows;
	bool first, second, all = true;
	int r;

	daemon_conf(&d, 0, dims, 1,
		    "digest_ms=0;ga_interval_ms=0;warmup_ms=0;round_worker_us=0;ga_budget_ms=10");
	r2c2_topo_grid(&t, mdims, 2, false, d.conf.link_capacity);
	if (!tb_build(t, NULL, NULL, NULL, 0, false, &o))
		tables_swap(&d, &o);
	for (i = 0; i < 200; i++) {
		uint16_t src = (uint16_t)(1 + tbelow(&seed, 34));
		uint16_t dst = (uint16_t)(src + 1 + tbelow(&seed, 35 - src));

		add_flow(&d, src, 100 + i, dst, 1, (uint8_t)tbelow(&seed, 3),
			 R2C2_DEMAND_UNLIMITED);
	}
	ok(d.topo->kind != R2C2_TOPO_TORUS && compute(&d) == 0,
	   "a 6x6 mesh's tables, 200 flows, their pairs prepared by a round");
	d.computed_gen = d.mx.gen;
	p = route_params(&d);
	p.long_ns = 0;		/* every flow long: every protocol's pair */
	while ((r = rs_prepare(&d.rs, &d.mx, d.topo->n, r2c2d_now(), &p)) ==
	       -EAGAIN)
		;
	flows = (uint32_t)r;
	d.rs.pairs_step_ns = 1;
	ok(r == 200 && rs_start(&d.rs, d.rt) == 0, "a search of them started");
	route_collect(&d, true);
	ok(rs_paused(&d.rs) && d.rs.yielded && rs_busy(&d.rs) &&
	   !rs_running(&d.rs),
	   "its first step over, the search is paused, not over");

	/* flows from node 0, in none of the pairs yet */
	add_flow(&d, 0, 900, 35, 1, R2C2_RP_VLB, R2C2_DEMAND_UNLIMITED);
	duties_done(&d);
	d.last_round_ns = r2c2d_now() - 1000 * MS;
	rounds = d.t.rounds;
	tick(&d);
	first = rd_busy(&d.rd) && !rs_running(&d.rs) && rs_paused(&d.rs);
	round_collect(&d, true);
	ok(first && d.t.rounds == rounds + 1 &&
	   r2c2_rtab_prepared(d.rt, 0, 35, R2C2_RP_VLB),
	   "a round due: the tick lets it go first, the search paused; collected, the new pair is in the tables");
	/* the same through the walk (a flow of demand 0 is left out) */
	add_flow(&d, 0, 902, 33, 1, R2C2_RP_RPS, 0);
	add_flow(&d, 0, 903, 32, 1, R2C2_RP_DOR, R2C2_DEMAND_UNLIMITED);
	ok(d.mx.view_skip && rs_paused(&d.rs) && round_prepare(&d, false) == 0 &&
	   d.rd.ntodo > 0,
	   "a snapshot that walks the flows while the search is paused: its new pairs go to the solve (%zu)",
	   d.rd.ntodo);
	add_flow(&d, 0, 901, 34, 1, R2C2_RP_DOR, R2C2_DEMAND_UNLIMITED);
	duties_done(&d);
	d.last_round_ns = r2c2d_now() - 1000 * MS;
	tick(&d);
	second = rs_running(&d.rs) && !rd_busy(&d.rd) && round_due(&d);
	for (i = 0; i < 1000 && rs_busy(&d.rs); i++) {
		route_collect(&d, true);
		route_resume(&d);
	}
	for (i = 0; i < d.mx.n; i++) {
		const struct mx_flow *f = &d.mx.f[i];
		uint8_t q;

		for (q = 0; f->id < 900 && q < __R2C2_RP_MAX; q++)
			if (d.conf.ga_protos & 1u << q)
				all &= r2c2_rtab_prepared(d.rt, f->src, f->dst, q);
	}
	ok(second && !rs_busy(&d.rs) && d.rs.last.err == 0 &&
	   d.rs.last.pair_steps >= 2 && d.rs.last.flows == flows &&
	   d.rs.last.long_flows == flows && all,
	   "another round due: the tick resumes the search first and the round waits; the search ends in %u steps with all %u flows long, the pair of each protocol of ga_protos prepared",
	   d.rs.last.pair_steps, d.rs.last.flows);

	/* a paused search and no round to let go: the tick resumes it */
	r2c2_rtab_clear(d.rt);
	mx_unseen_all(&d.mx);
	compute(&d);
	d.computed_gen = d.mx.gen;
	while ((r = rs_prepare(&d.rs, &d.mx, d.topo->n, r2c2d_now(), &p)) ==
	       -EAGAIN)
		;
	d.rs.pairs_step_ns = 1;
	if (r > 0 && rs_start(&d.rs, d.rt) == 0)
		route_collect(&d, true);
	duties_done(&d);
	first = rs_paused(&d.rs) && !round_due(&d);
	tick(&d);
	ok(first && rs_running(&d.rs) && !rd_busy(&d.rd),
	   "a search paused and no round due: the tick resumes it at once");
	route_collect(&d, true);
	daemon_free(&d);
}

int main(void)
{
	signals__hup();
	signals__reload();
	round__two_node_ring();
	round__wlb_on_torus();
	round__ends_outside();
	round__zero_demand();
	round__view_snapshot();
	conf__policy();
	conf__headroom();
	conf__topology();
	conf__max_flows();
	conf__push();
	conf__demand();
	conf__ga();
	conf__control();
	family__new_address();
	kernel__rcvbuf();
	topo__retry_backoff();
	ctl__json_escaping();
	ctl__json_settings_exact();
	ctl__json_utf8();
	event__own_echo();
	tables__cache_bound();
	tables__off_the_loop();
	tables__crossed_parallel_links();
	tables__change_keeps_pairs();
	rounds__off_the_loop();
	rounds__pairs_in_the_solve();
	rounds__unseen_flows();
	rounds__arrays_grow_apart();
	round__view_chunks();
	round__copy_steps();
	route__pairs_in_steps();
	ctl__access();
	return tap_done();
}
