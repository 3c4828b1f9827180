// SPDX-License-Identifier: GPL-2.0
/*
 * r2c2d_round_tsan_test.c - a rate round solved in r2c2d's worker
 * (round.c: rd_start, rd_join, rd_apply_to), built with ThreadSanitizer
 * (TAP). While the worker solves a snapshot of the matrix, this thread
 * does what the loop does meanwhile: it applies flow events to the
 * matrix (which moves flows between slots) and reads the tables. TSan
 * reports any access the two threads share without synchronisation;
 * the rates applied must be those of the same snapshot solved here, for
 * every flow still in the matrix.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../r2c2d/worker.c"
#include "../r2c2d/matrix.c"
#include "../r2c2d/round.c"
#include "alloc_tap.h"

#define NF	3000

/* the loop's snapshot of m into r (round_prepare() without the daemon) */
static void snapshot(struct rd *r, const struct mx *m, const struct r2c2_rtab *rt,
		     struct r2c2_ws *ws, uint32_t nnodes)
{
	size_t n = 0;

	rd_reserve(r, m->n);
	for (uint32_t i = 0; i < m->n; i++) {
		if (!mx_alloc_flow(&m->f[i], nnodes, &r->f[n]))
			continue;
		r->idx[n] = i;
		r->id[n++] = m->f[i].id;
	}
	r->n = n;
	r->rt = rt;
	r->ws = ws;
	r->pf = NULL;
	r->headroom = 0.05;
}

static void event(struct mx *m, uint8_t type, uint16_t src, uint32_t id,
		  uint16_t dst, uint8_t rproto)
{
	struct mx_evt e = {
		.type = type, .src = src, .id = id, .dst = dst, .weight = 1,
		.rproto = rproto, .demand_kbps = R2C2_DEMAND_UNLIMITED,
	};

	mx_apply(m, &e, 1);
}

int main(void)
{
	const u8 dims[3] = { 8, 8, 8 };
	struct r2c2_topo *t;
	struct r2c2_rtab *rt;
	struct r2c2_ws *ws, *ws2;
	struct mx m;
	struct rd r, ref;
	uint64_t s = 11;
	uint32_t i, k, events = 0, reads = 0, wrong = 0, missing = 0;
	size_t set;

	r2c2_topo_grid(&t, dims, 3, true, 10e9);
	r2c2_rtab_new(&rt, t);
	ws = r2c2_ws_new();
	ws2 = r2c2_ws_new();
	mx_init(&m, 1u << 20);
	for (i = 0; i < NF; i++) {
		uint16_t src = (uint16_t)(trand(&s) % 512);

		event(&m, R2C2_FE_START, src, i,
		      (uint16_t)((src + 1 + trand(&s) % 511) % 512),
		      (uint8_t)(i % 3));
	}
	rd_init(&r);
	rd_init(&ref);
	snapshot(&r, &m, rt, ws, t->n);
	snapshot(&ref, &m, rt, ws2, t->n);
	ok(r.n == NF && rd_start(&r) == 0 && rd_busy(&r) && rd_fd(&r) >= 0 &&
	   rd_reserve(&r, NF) == -EBUSY && rd_start(&r) == -EBUSY,
	   "a round of %u flows on 8x8x8 solves in the worker; the snapshot is its own (-EBUSY)",
	   NF);
	/* the loop meanwhile: events that move flows, reads of the tables */
	while (!rd_over(&r) || events < 200) {
		uint16_t src = (uint16_t)(trand(&s) % 512);

		if (events < 1000) {
			/* a FINISH: the last slot moves into the flow's */
			k = (uint32_t)(trand(&s) % m.n);
			event(&m, R2C2_FE_FINISH, m.f[k].src, m.f[k].id, 0, 0);
			event(&m, R2C2_FE_START, src, NF + events,
			      (uint16_t)((src + 1 + trand(&s) % 511) % 512), 1);
			events++;
		}
		reads += r2c2_rtab_prepared(rt, src, (u16)((src + 7) % 512),
					    R2C2_RP_DOR);
	}
	{
		struct pollfd p = { .fd = rd_fd(&r), .events = POLLIN };

		/* the worker marks itself done, then writes the eventfd */
		ok(poll(&p, 1, 10000) == 1 && rd_join(&r, false) == 0 &&
		   !rd_busy(&r) && rd_fd(&r) == -1 && r.ret == 0 &&
		   r.off_loop == 1 && r.ns > 0,
		   "joined: solved in %.1f ms (%.1f ms of its thread's CPU) while the loop applied %u event pairs and %u table reads",
		   (double)r.ns / 1e6, (double)r.cpu_ns / 1e6, events, reads);
	}
	ok(rd_solve(&ref) == 0, "the same snapshot solved in this thread");
	set = rd_apply_to(&r, &m);
	for (i = 0; i < r.n; i++) {
		k = mx_find(&m, r.f[i].src, r.id[i]);
		if (k == MX_NONE) {
			missing++;
			continue;
		}
		if (!(r.rate[i] > 0) || m.f[k].rate != ref.rate[i])
			wrong++;
	}
	ok(set + r.gone == NF && r.gone == missing && wrong == 0 && r.gone > 0,
	   "rd_apply_to(): %zu flows still in the matrix take exactly this thread's rates (%u differ), %llu that left are skipped",
	   set, wrong, (unsigned long long)r.gone);
	for (i = 0, k = 0; i < m.n; i++)
		k += m.f[i].id >= NF && m.f[i].rate != 0;
	ok(k == 0, "flows started during the solve keep no rate (%u have one)", k);
	rd_fini(&r);
	rd_fini(&ref);
	ok(!rd_busy(&r) && r.f == NULL && r.wk.efd == -1, "rd_fini()");
	mx_fini(&m);
	r2c2_ws_free(ws);
	r2c2_ws_free(ws2);
	r2c2_rtab_free(rt);
	r2c2_topo_free(t);
	return tap_done();
}
