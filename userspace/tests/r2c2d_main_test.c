// SPDX-License-Identifier: GPL-2.0
/*
 * r2c2d_main_test.c - r2c2d's main.c offline (TAP): the rate round as the
 * loop runs it (the node's torus, the matrix, compute()), with no kernel:
 * main.c is included with its main() renamed and linked with the other
 * daemon sources; nothing here opens a netlink socket.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int r2c2d_main(int argc, char **argv);
#define main r2c2d_main
#include "../r2c2d/main.c"
#undef main
#include "alloc_tap.h"

/* a daemon as main() leaves it after setup, on the node's declared torus */
static int daemon_on(struct r2c2d *d, uint16_t addr, const uint8_t *dims,
		     unsigned int ndims)
{
	char err[256] = "";
	int r;

	memset(d, 0, sizeof(*d));
	conf_defaults(&d->conf);
	d->ctl_fd = -1;
	d->node.addr = addr;
	d->node.ndims = (uint8_t)ndims;
	memcpy(d->node.dims, dims, ndims);
	if (mx_init(&d->mx, d->conf.max_flows))
		return -ENOMEM;
	r = build_topo(d, err, sizeof(err));
	if (r) {
		printf("# build_topo: %s\n", err);
		return r;
	}
	mx_set_own(&d->mx, d->node.addr);
	rs_init(&d->rs);
	return 0;
}

static void daemon_free(struct r2c2d *d)
{
	rs_fini(&d->rs);
	mx_fini(&d->mx);
	r2c2_pf_free(d->pf);
	r2c2_ws_free(d->ws);
	r2c2_rtab_free(d->rt);
	if (d->topo != d->ctopo)
		r2c2_topo_free(d->topo);
	r2c2_topo_free(d->ctopo);
	free(d->af);
	free(d->ai);
	free(d->ar);
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

static double rate_of(const struct r2c2d *d, uint16_t src, uint32_t id)
{
	uint32_t i = mx_find(&d->mx, src, id);

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

int main(void)
{
	signals__hup();
	signals__reload();
	round__two_node_ring();
	round__zero_demand();
	return tap_done();
}
