// SPDX-License-Identifier: GPL-2.0
/*
 * tables.c - r2c2d's routing tables built off the loop (see tables.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tables.h"

void tb_init(struct tb *b)
{
	memset(b, 0, sizeof(*b));
	wk_init(&b->wk);
	wk_init(&b->reap);
}

void tb_out_free(struct tb_out *o, const struct r2c2_topo *ct)
{
	r2c2_pf_free(o->pf);
	r2c2_ws_free(o->ws);
	r2c2_rtab_free(o->rt);
	if (o->t != ct)
		r2c2_topo_free(o->t);
	memset(o, 0, sizeof(*o));
}

void tb_fini(struct tb *b)
{
	struct tb_out o;

	if (wk_running(&b->wk))
		tb_join(b, true);
	if (b->ready && !tb_take(b, &o))
		tb_out_free(&o, b->ct);
	wk_fini(&b->wk);
	wk_fini(&b->reap);	/* joins a free that runs */
	tb_init(b);
}

static void tb_reap_job(void *arg)
{
	tb_out_free(arg, NULL);
}

void tb_drop(struct tb *b, struct tb_out *o, const struct r2c2_topo *ct)
{
	if (wk_running(&b->reap))
		wk_join(&b->reap, true);
	b->old = *o;
	if (b->old.t == ct)
		b->old.t = NULL;
	memset(o, 0, sizeof(*o));
	if (!b->old.t && !b->old.rt && !b->old.ws && !b->old.pf)
		return;		/* the first tables: none to free */
	b->drops++;
	if (wk_start(&b->reap, tb_reap_job, &b->old))
		tb_out_free(&b->old, NULL);
}

void tb_reap(struct tb *b)
{
	if (wk_over(&b->reap))
		wk_join(&b->reap, false);
}

/* tb_build(), the graph's paths from prev's where they can be */
static int tb_build_prev(const struct r2c2_topo *ct, uint16_t *nbr,
			 uint8_t *nport, double *cap, uint32_t n, bool pf,
			 const struct r2c2_topo *prev, struct tb_out *out)
{
	struct r2c2_topo *t = (struct r2c2_topo *)ct;
	int r = 0;

	memset(out, 0, sizeof(*out));
	if (!ct)
		r = n > 0xfffe ? -EINVAL :
		    r2c2_topo_from_adj_prev(&t, (u16)n, nbr, nport, cap, prev);
	free(nbr);
	free(nport);
	free(cap);
	if (r)
		return r;
	out->t = t;
	r = r2c2_rtab_new(&out->rt, t);
	if (!r) {
		out->ws = r2c2_ws_new();
		out->pf = pf ? r2c2_pf_new(out->rt, NULL) : NULL;
		if (!out->ws || (pf && !out->pf))
			r = -ENOMEM;
	}
	if (r)
		tb_out_free(out, ct);
	return r;
}

int tb_build(const struct r2c2_topo *ct, uint16_t *nbr, uint8_t *nport,
	     double *cap, uint32_t n, bool pf, struct tb_out *out)
{
	return tb_build_prev(ct, nbr, nport, cap, n, pf, NULL, out);
}

static void tb_job(void *arg)
{
	struct tb *b = arg;
	uint64_t t0 = wk_clock_ns(CLOCK_MONOTONIC);

	b->ret = tb_build_prev(b->ct, b->nbr, b->nport, b->cap, b->n, b->pf,
			       b->prev, &b->out);
	/* a graph departing from the torus: what its legs need of it */
	if (!b->ret && b->torus)
		r2c2_rtab_carry(b->out.rt, b->torus);
	b->nbr = NULL;
	b->nport = NULL;
	b->cap = NULL;
	b->ns = wk_clock_ns(CLOCK_MONOTONIC) - t0;
}

int tb_start(struct tb *b, const struct r2c2_topo *ct, uint16_t *nbr,
	     uint8_t *nport, double *cap, uint32_t n, bool pf,
	     const struct r2c2_rtab *torus, const struct r2c2_topo *prev)
{
	int r;

	if (tb_busy(b)) {
		free(nbr);
		free(nport);
		free(cap);
		return -EBUSY;
	}
	b->ct = ct;
	b->nbr = nbr;
	b->nport = nport;
	b->cap = cap;
	b->n = n;
	b->pf = pf;
	b->torus = torus;
	b->prev = prev;
	b->ret = 0;
	r = wk_start(&b->wk, tb_job, b);
	if (r) {
		free(nbr);
		free(nport);
		free(cap);
		b->nbr = NULL;
		b->nport = NULL;
		b->cap = NULL;
	}
	return r;
}

int tb_fd(const struct tb *b)
{
	return wk_fd(&b->wk);
}

bool tb_busy(const struct tb *b)
{
	return wk_running(&b->wk) || b->ready;
}

bool tb_over(const struct tb *b)
{
	return b->ready || wk_over(&b->wk);
}

int tb_join(struct tb *b, bool wait)
{
	int r;

	if (b->ready)
		return 0;
	r = wk_join(&b->wk, wait);
	if (!r)
		b->ready = true;
	return r;
}

static void tb_carry_job(void *arg)
{
	struct tb *b = arg;
	uint64_t t0 = wk_clock_ns(CLOCK_MONOTONIC);

	b->kept = r2c2_rtab_carry(b->out.rt, b->from);
	b->keep_ns = wk_clock_ns(CLOCK_MONOTONIC) - t0;
}

int tb_carry_start(struct tb *b, const struct r2c2_rtab *from)
{
	int r;

	if (!b->ready)
		return -ECHILD;
	if (b->carrying)
		return -EALREADY;
	if (b->ret || !from || b->out.t->kind == R2C2_TOPO_TORUS)
		return -EINVAL;
	b->from = from;
	b->kept = 0;
	b->keep_ns = 0;
	b->ready = false;
	r = wk_start(&b->wk, tb_carry_job, b);
	if (r) {
		b->ready = true;
		return r;
	}
	b->carrying = true;
	return 0;
}

int tb_take(struct tb *b, struct tb_out *out)
{
	if (!b->ready)
		return -ECHILD;
	*out = b->out;
	memset(&b->out, 0, sizeof(b->out));
	b->ready = false;
	b->carrying = false;
	b->from = NULL;
	b->builds++;
	b->ns_last = b->ns;
	if (b->ns > b->ns_max)
		b->ns_max = b->ns;
	return b->ret;
}
