// SPDX-License-Identifier: GPL-2.0
/*
 * r2c2d_tables_tsan_test.c - r2c2d's table builds in a worker thread
 * (tables.c: tb_start, tb_join, tb_take), built with ThreadSanitizer
 * (TAP). While the worker builds the tables of a new graph, this thread
 * does what the rate loop does meanwhile: max-min rounds on the old
 * tables, and polls the worker's eventfd. TSan reports any access the
 * two threads share without synchronisation; the tables taken must give
 * the rates of tables built in this thread. Tables swapped out are freed
 * in a thread (tb_drop()) while this one solves on the new ones. New
 * tables copy what a change left as it was from the ones in use
 * (tb_carry_start()) while this thread solves on those.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../r2c2d/worker.c"
#include "../r2c2d/tables.c"
#include "alloc_tap.h"

/* the links of a dims torus as an adjacency: malloc'd, for tb_start() */
static void adjacency(const u8 *dims, unsigned int nd, uint16_t **nbr,
		      double **cap, uint32_t *n)
{
	struct r2c2_topo *t;
	size_t nl;

	r2c2_topo_grid(&t, dims, nd, true, 10e9);
	nl = R2C2_NLINKS(t->n);
	*n = t->n;
	*nbr = malloc(nl * sizeof(**nbr));
	*cap = malloc(nl * sizeof(**cap));
	memcpy(*nbr, t->nbr, nl * sizeof(**nbr));
	memcpy(*cap, t->cap, nl * sizeof(**cap));
	r2c2_topo_free(t);
}

/* nf flows of n nodes, their pairs prepared in the graph tables rt */
static void flows(struct r2c2_flow *f, size_t nf, uint32_t n,
		  struct r2c2_rtab *rt)
{
	uint64_t s = 5;

	for (size_t i = 0; i < nf; i++) {
		s = s * 6364136223846793005ull + 1442695040888963407ull;
		f[i].src = (u16)((s >> 33) % n);
		f[i].dst = (u16)((f[i].src + 1 + (s >> 13) % (n - 1)) % n);
		f[i].rproto = (u8)((s >> 7) % 3);
		f[i].weight = 1;
		r2c2_rtab_prepare(rt, f[i].src, f[i].dst, f[i].rproto);
	}
}

/*
 * max-min over the nf flows f on tables a and on tables b: the largest
 * relative difference of their rates (1 when either solve failed)
 */
static double rates_apart(const struct tb_out *a, const struct tb_out *b,
			  const struct r2c2_flow *f, size_t nf, double *x,
			  double *y)
{
	double worst = 0;

	if (r2c2_maxmin(a->rt, f, nf, 0.05, x, a->ws) ||
	    r2c2_maxmin(b->rt, f, nf, 0.05, y, b->ws))
		return 1;
	for (size_t i = 0; i < nf; i++)
		worst = fmax(worst, fabs(x[i] - y[i]) / y[i]);
	return worst;
}

int main(void)
{
	const u8 d4[2] = { 4, 4 }, d6[3] = { 6, 6, 6 };
	struct r2c2_flow f[300] = { 0 };
	double x[300], y[300], worst;
	struct tb_out cur, got, ref;
	struct r2c2_topo *keep;
	struct tb b;
	uint16_t *nbr;
	double *cap;
	uint32_t n;
	unsigned int rounds = 0, polls = 0;
	int r, busy;

	/* the tables the loop has: a 4x4 torus, with a round's flows */
	adjacency(d4, 2, &nbr, &cap, &n);
	ok(tb_build(NULL, nbr, NULL, cap, n, false, &cur) == 0 &&
	   cur.t->kind == R2C2_TOPO_GRAPH && cur.t->nlinks == 64,
	   "tb_build() in this thread: a 4x4 torus as a graph (64 links)");
	flows(f, 100, 16, cur.rt);

	tb_init(&b);
	ok(tb_take(&b, &got) == -ECHILD && tb_fd(&b) == -1 && !tb_busy(&b),
	   "no build: nothing to take, no fd, not busy");
	adjacency(d6, 3, &nbr, &cap, &n);
	r = tb_start(&b, NULL, nbr, NULL, cap, n, true, NULL, NULL);
	adjacency(d4, 2, &nbr, &cap, &n);
	busy = tb_start(&b, NULL, nbr, NULL, cap, n, false, NULL, NULL);
	ok(r == 0 && busy == -EBUSY && tb_busy(&b) && tb_fd(&b) >= 0,
	   "tb_start(): a 6x6x6 build runs; a second start is -EBUSY (%d)",
	   busy);
	/* the loop meanwhile: rounds on the old tables, polling the fd */
	while (!tb_over(&b)) {
		struct pollfd p = { .fd = tb_fd(&b), .events = POLLIN };

		rounds += r2c2_maxmin(cur.rt, f, 100, 0.05, x, cur.ws) == 0;
		polls += poll(&p, 1, 0) > 0;
	}
	ok(tb_join(&b, false) == 0 && tb_busy(&b) && tb_fd(&b) == -1 &&
	   rounds > 0,
	   "joined once over: still busy (not taken), no fd (%u rounds meanwhile, the eventfd readable at %u polls)",
	   rounds, polls);
	ok(tb_take(&b, &got) == 0 && !tb_busy(&b) && got.t && got.rt &&
	   got.ws && got.pf && got.t->n == 216 && got.t->nlinks == 1296 &&
	   b.builds == 1 && b.ns_last > 0 && b.ns_max == b.ns_last,
	   "tb_take(): the 6x6x6 graph (%u links) with tables, scratch and propfair state; one build of %.1f ms",
	   got.t ? got.t->nlinks : 0, (double)b.ns_last / 1e6);
	adjacency(d6, 3, &nbr, &cap, &n);
	tb_build(NULL, nbr, NULL, cap, n, false, &ref);
	flows(f, 300, 216, got.rt);
	flows(f, 300, 216, ref.rt);
	worst = rates_apart(&got, &ref, f, 300, x, y);
	ok(worst == 0, "max-min on the worker's tables and on this thread's: the same rates (largest relative difference %.2g)",
	   worst);
	tb_out_free(&ref, NULL);

	/*
	 * got swapped out: freed in a thread while rounds run on cur; a
	 * second drop waits for the first; the configured graph stays
	 */
	tb_drop(&b, &got, NULL);
	ok(!got.t && !got.rt && b.drops == 1 && wk_running(&b.reap),
	   "tb_drop(): the old tables are the reaper's, freed in a thread");
	rounds = 0;
	while (!wk_over(&b.reap))
		rounds += r2c2_maxmin(cur.rt, f, 100, 0.05, x, cur.ws) == 0;
	tb_reap(&b);
	ok(!wk_running(&b.reap) && !b.old.rt && !b.old.t,
	   "tb_reap(): the free over, joined (%u rounds on the new tables meanwhile)",
	   rounds);
	adjacency(d4, 2, &nbr, &cap, &n);
	tb_build(NULL, nbr, NULL, cap, n, false, &got);
	adjacency(d4, 2, &nbr, &cap, &n);
	tb_build(NULL, nbr, NULL, cap, n, false, &ref);
	keep = ref.t;
	tb_drop(&b, &got, NULL);
	tb_drop(&b, &ref, keep);
	ok(b.drops == 3 && wk_running(&b.reap),
	   "two drops in a row: the second waited for the first");
	wk_join(&b.reap, true);
	ok(keep->n == 16 && keep->nlinks == 64 && !b.old.rt,
	   "a configured graph is not the reaper's: it is whole after the free");
	r2c2_topo_free(keep);

	/*
	 * cur's graph less a link: built, then its carry copies from cur's
	 * cache in the worker while rounds run on cur here; the tables taken
	 * give the rates of tables built for that graph in this thread
	 */
	flows(f, 100, 16, cur.rt);
	for (int k = 0; k < 2; k++) {
		uint16_t u, v;

		adjacency(d4, 2, &nbr, &cap, &n);
		u = 0;
		v = nbr[0];
		nbr[0] = R2C2_IDX_NONE;
		cap[0] = 0;
		for (unsigned int q = 0; q < R2C2_MAX_PORTS; q++)
			if (nbr[v * R2C2_MAX_PORTS + q] == u) {
				nbr[v * R2C2_MAX_PORTS + q] = R2C2_IDX_NONE;
				cap[v * R2C2_MAX_PORTS + q] = 0;
				break;
			}
		if (k) {
			tb_build(NULL, nbr, NULL, cap, n, false, &ref);
			break;
		}
		r = tb_start(&b, NULL, nbr, NULL, cap, n, false, NULL, cur.t);
	}
	while (!tb_over(&b))
		r2c2_maxmin(cur.rt, f, 100, 0.05, x, cur.ws);
	busy = tb_join(&b, false);
	if (!busy)
		busy = tb_carry_start(&b, cur.rt);
	rounds = 0;
	while (!tb_over(&b))
		rounds += r2c2_maxmin(cur.rt, f, 100, 0.05, x, cur.ws) == 0;
	ok(r == 0 && busy == 0 && tb_carrying(&b) && tb_join(&b, false) == 0 &&
	   tb_carry_start(&b, cur.rt) == -EALREADY &&
	   tb_take(&b, &got) == 0 && !tb_carrying(&b) && b.kept > 0,
	   "tb_carry_start(): the worker copied %zu pairs and groups from the tables in use into a new graph's (%u rounds on the former meanwhile)",
	   b.kept, rounds);
	flows(f, 100, 16, got.rt);
	flows(f, 100, 16, ref.rt);
	worst = rates_apart(&got, &ref, f, 100, x, y);
	ok(worst == 0, "their rates are those of tables built afresh (largest relative difference %.2g)",
	   worst);
	tb_out_free(&ref, NULL);
	tb_drop(&b, &got, NULL);
	wk_join(&b.reap, true);

	/*
	 * The tables in use a torus's (a 6x6x6): the build of the torus less
	 * a link takes what its minimal legs need from them while rounds run
	 * on them here; the graph's tables then give the rates of tables
	 * built without the torus (to rounding)
	 */
	{
		struct r2c2_topo *tor = NULL;
		struct tb_out tt = { 0 };

		r2c2_topo_grid(&tor, d6, 3, true, 10e9);
		tt.t = tor;
		r2c2_rtab_new(&tt.rt, tor);
		tt.ws = r2c2_ws_new();
		flows(f, 300, 216, tt.rt);
		adjacency(d6, 3, &nbr, &cap, &n);
		nbr[tor->nbr[0] * R2C2_MAX_PORTS + tor->nbr_port[0]] = R2C2_IDX_NONE;
		nbr[0] = R2C2_IDX_NONE;
		r = tb_start(&b, NULL, nbr, NULL, cap, n, false, tt.rt, tor);
		rounds = 0;
		while (!tb_over(&b))
			rounds += r2c2_maxmin(tt.rt, f, 300, 0.05, x, tt.ws) == 0;
		adjacency(d6, 3, &nbr, &cap, &n);
		nbr[tor->nbr[0] * R2C2_MAX_PORTS + tor->nbr_port[0]] = R2C2_IDX_NONE;
		nbr[0] = R2C2_IDX_NONE;
		tb_build(NULL, nbr, NULL, cap, n, false, &ref);
		ok(r == 0 && tb_join(&b, true) == 0 && tb_take(&b, &got) == 0 &&
		   got.t->kind == R2C2_TOPO_GRAPH && ref.rt,
		   "a build of the 6x6x6 torus less a link from the torus's tables in use (%u rounds on them meanwhile)",
		   rounds);
		flows(f, 300, 216, got.rt);
		flows(f, 300, 216, ref.rt);
		worst = rates_apart(&got, &ref, f, 300, x, y);
		ok(!memcmp(got.t->paths.dist, ref.t->paths.dist, (size_t)n * n) &&
		   !memcmp(got.t->paths.npaths, ref.t->paths.npaths,
			   (size_t)n * n * sizeof(*got.t->paths.npaths)),
		   "its paths, found from the torus's, are those of the graph built afresh");
		ok(r2c2_rtab_from_torus(got.rt, NULL) > 0 &&
		   r2c2_rtab_from_torus(ref.rt, NULL) == 0 && worst <= 1e-12,
		   "its tables translated %zu of the flows' legs from the torus; their rates are those of tables built without it (largest relative difference %.2g)",
		   r2c2_rtab_from_torus(got.rt, NULL), worst);
		tb_out_free(&ref, NULL);
		tb_out_free(&got, NULL);
		tb_out_free(&tt, NULL);
	}

	/* a build of the configured topology; tb_fini() joins one running */
	r = tb_start(&b, cur.t, NULL, NULL, NULL, 0, false, NULL, NULL);
	tb_fini(&b);
	ok(r == 0 && !tb_busy(&b) && b.wk.efd == -1,
	   "tb_fini() joins a running build and frees what it made");
	tb_out_free(&cur, NULL);
	return tap_done();
}
