// SPDX-License-Identifier: GPL-2.0
/*
 * routesel.c - r2c2d's route selection (see routesel.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "routesel.h"

void rs_init(struct rs *s)
{
	memset(s, 0, sizeof(*s));
	s->copy_step = MX_COPY_STEP;
	s->pairs_step_ns = RS_PAIRS_STEP_NS;
	wk_init(&s->wk);
}

void rs_fini(struct rs *s)
{
	struct rs_decision dec;

	if (wk_running(&s->wk))
		rs_finish(s, true, &dec);
	wk_fini(&s->wk);
	free(s->ent);
	free(s->f);
	free(s->is_long);
	free(s->key);
	free(s->vf);
	free(s->vid);
	free(s->vborn);
	memset(s, 0, sizeof(*s));
	wk_init(&s->wk);
}

bool rs_my_turn(struct rs *s, uint64_t wall_ns, uint64_t now_ns,
		uint64_t interval_ns, uint32_t nnodes, uint16_t me)
{
	uint64_t slot;

	if (!interval_ns || !nnodes)
		return false;
	slot = wall_ns / interval_ns;
	if (slot % nnodes != me || s->last_slot == slot + 1)
		return false;
	s->last_slot = slot + 1;
	if (s->heard_ns && now_ns - s->heard_ns < interval_ns / 2) {
		s->skipped++;
		return false;
	}
	return true;
}

/* each of s's arrays of a flow's size to n flows at least */
static int rs_grow(struct rs *s, size_t n)
{
	void **arr[] = { (void **)&s->f, (void **)&s->is_long,
			 (void **)&s->key, (void **)&s->ent, (void **)&s->vf,
			 (void **)&s->vid, (void **)&s->vborn };
	const size_t sz[] = { sizeof(*s->f), sizeof(*s->is_long),
			      sizeof(*s->key), sizeof(*s->ent), sizeof(*s->vf),
			      sizeof(*s->vid), sizeof(*s->vborn) };
	size_t cap = s->cap ? s->cap : 64, i;
	int r = 0;

	if (n <= s->cap)
		return 0;
	while (cap < n)
		cap *= 2;
	/* an array grown already is only larger than needed */
	for (i = 0; i < sizeof(sz) / sizeof(sz[0]); i++) {
		void *a = realloc(*arr[i], cap * sz[i]);

		if (a)
			*arr[i] = a;
		else
			r = -ENOMEM;
	}
	if (!r)
		s->cap = cap;
	return r;
}

int rs_prepare(struct rs *s, const struct mx *m, uint32_t nnodes,
	       uint64_t now, const struct rs_params *p)
{
	struct rs_decision *dec = &s->dec;
	uint64_t t0 = wk_clock_ns(CLOCK_MONOTONIC);
	uint64_t chunks = 0;
	bool over;
	int r;

	if (!mx_copying(&s->vc)) {
		memset(dec, 0, sizeof(*dec));
		s->p = *p;
	}
	dec->copy_steps++;
	/* a failed realloc() keeps the copies: vc.stamp still holds for them */
	if (rs_grow(s, m->n)) {
		mx_copy_stop(&s->vc);
		r = dec->err = -ENOMEM;
		goto out;
	}
	over = mx_copy_step(m, &s->vc, s->vf, s->vid, s->vborn, s->copy_step,
			    &chunks);
	dec->chunks += (uint32_t)chunks;
	if (!over) {
		r = -EAGAIN;
		goto out;
	}
	s->vn = m->n;
	s->nent = 0;
	s->nf = 0;
	s->pfirst = true;
	s->nnodes = nnodes;
	dec->mono_ns = now;
	r = (int)s->vn;
out:
	dec->duration_ns += wk_clock_ns(CLOCK_MONOTONIC) - t0;
	return r;
}

bool rs_copying(const struct rs *s)
{
	return mx_copying(&s->vc);
}

/*
 * The worker's first step: the search's flows from the copy of the
 * matrix's view, those with both ends in the topology and a known
 * protocol; the long ones are those born at least p.long_ns before the
 * snapshot. Returns the long flows.
 */
static size_t rs_flows(struct rs *s)
{
	struct rs_decision *dec = &s->dec;
	uint64_t now = dec->mono_ns;
	size_t k, n = 0, nl = 0;

	for (k = 0; k < s->vn; k++) {
		const struct r2c2_flow *x = &s->vf[k];

		if (x->rproto >= __R2C2_RP_MAX ||
		    !mx_in_topology(x->src, x->dst, s->nnodes))
			continue;
		s->f[n] = *x;
		s->is_long[n] = now - s->vborn[k] >= s->p.long_ns;
		nl += s->is_long[n];
		s->key[n].src = x->src;
		s->key[n].id = s->vid[k];
		s->key[n].rproto = x->rproto;
		n++;
	}
	s->nf = n;
	dec->flows = (uint32_t)n;
	dec->long_flows = (uint32_t)nl;
	return nl;
}

/* flows between two looks at the clock in rs_pairs() */
#define RS_PAIRS_CLOCK	32

int rs_pairs(struct rs *s, struct r2c2_rtab *rt)
{
	struct rs_decision *dec = &s->dec;
	uint64_t t0 = wk_clock_ns(CLOCK_MONOTONIC), t = t0;
	size_t i, n, nl;
	unsigned int q;
	int r;

	if (s->pfirst) {	/* a search's first step */
		s->pfirst = false;
		s->pi = s->pn = s->pnl = 0;
		if (!rs_flows(s)) {
			dec->duration_ns += wk_clock_ns(CLOCK_MONOTONIC) - t0;
			return 0;	/* no long flow: nothing to search */
		}
	}
	n = s->pn;
	nl = s->pnl;
	for (i = s->pi; i < s->nf; i++) {
		const struct r2c2_flow *a = &s->f[i];

		/* a step's time is up: the next one goes on from flow i */
		if (s->pairs_step_ns && i > s->pi &&
		    !((i - s->pi) % RS_PAIRS_CLOCK)) {
			t = wk_clock_ns(CLOCK_MONOTONIC);
			if (t - t0 >= s->pairs_step_ns) {
				s->pi = i;
				s->pn = n;
				s->pnl = nl;
				dec->pair_steps++;
				dec->duration_ns += t - t0;
				return -EINPROGRESS;
			}
		}
		r = r2c2_rtab_prepare(rt, a->src, a->dst, a->rproto);
		for (q = 0; !r && q < __R2C2_RP_MAX; q++)
			if (s->is_long[i] && (s->p.protos & 1u << q))
				r = r2c2_rtab_prepare(rt, a->src, a->dst, (u8)q);
		if (r)
			continue;	/* no path: leave it out */
		s->f[n] = s->f[i];
		s->is_long[n] = s->is_long[i];
		s->key[n] = s->key[i];
		nl += s->is_long[n++];
	}
	s->nf = n;
	dec->pair_steps++;
	dec->flows = (uint32_t)n;
	dec->long_flows = (uint32_t)nl;
	dec->duration_ns += wk_clock_ns(CLOCK_MONOTONIC) - t0;
	return (int)nl;
}

int rs_search(struct rs *s, const struct r2c2_rtab *rt)
{
	struct rs_decision *dec = &s->dec;
	const struct rs_params *p = &s->p;
	struct r2c2_ga_opts o;
	struct r2c2_ga_result res = { 0 };
	uint64_t t0 = wk_clock_ns(CLOCK_MONOTONIC);
	size_t n = s->nf, i;
	int r;

	s->nent = 0;
	if (!dec->long_flows)
		return 0;
	r2c2_ga_defaults(&o);
	o.time_budget_ms = p->budget_ms;
	o.threads = p->threads;
	o.seed = p->seed;
	o.utility = p->utility;
	o.policy = p->policy;
	o.protos = p->protos;
	o.headroom = p->headroom;
	r = r2c2_ga_select(rt, s->f, n, s->is_long, &o, &res);
	dec->duration_ns += wk_clock_ns(CLOCK_MONOTONIC) - t0;
	if (r)
		return dec->err = r;
	dec->before = res.initial;
	dec->after = res.fitness;
	dec->generations = res.generations;
	dec->evaluations = res.evaluations;
	dec->adopted = res.fitness > res.initial &&
		       res.fitness > res.initial * (1 + p->margin);
	for (i = 0; i < n; i++) {
		const struct rs_ent *x = &s->key[i];
		uint8_t rp = dec->adopted ? s->f[i].rproto : x->rproto;

		if (!s->is_long[i])
			continue;
		dec->count[rp]++;
		if (!dec->adopted || rp == x->rproto)
			continue;
		s->ent[s->nent].src = x->src;
		s->ent[s->nent].id = x->id;
		s->ent[s->nent].rproto = rp;
		s->nent++;
	}
	dec->changed = (uint32_t)s->nent;
	if (!s->nent)
		dec->adopted = false;
	return (int)s->nent;
}

int rs_select(struct rs *s, const struct mx *m, struct r2c2_rtab *rt,
	      uint32_t nnodes, uint64_t now, const struct rs_params *p,
	      struct rs_decision *dec)
{
	int r;

	while ((r = rs_prepare(s, m, nnodes, now, p)) == -EAGAIN)
		;
	if (r > 0)
		while ((r = rs_work(s, rt)) == -EINPROGRESS)
			;
	*dec = s->dec;
	return r;
}

/* ---- the search in a worker thread ---- */

int rs_work(struct rs *s, struct r2c2_rtab *rt)
{
	int r = rs_pairs(s, rt);

	/*
	 * the tables are only read from now on (rs_tables_busy()), or not
	 * touched until the next step (paused)
	 */
	atomic_store_explicit(&s->pairs_done, true, memory_order_release);
	return r < 0 ? r : rs_search(s, rt);
}

static void rs_job(void *arg)
{
	struct rs *s = arg;

	s->wret = rs_work(s, s->wrt);
}

int rs_start(struct rs *s, struct r2c2_rtab *rt)
{
	if (wk_running(&s->wk))
		return -EBUSY;
	s->paused = false;
	s->wrt = rt;
	s->wret = 0;
	atomic_store_explicit(&s->pairs_done, false, memory_order_relaxed);
	return wk_start(&s->wk, rs_job, s);
}

int rs_resume(struct rs *s)
{
	if (!s->paused || wk_running(&s->wk))
		return -EINVAL;
	s->paused = false;
	s->wret = 0;
	atomic_store_explicit(&s->pairs_done, false, memory_order_relaxed);
	return wk_start(&s->wk, rs_job, s);
}

void rs_drop(struct rs *s)
{
	s->paused = false;
}

bool rs_tables_busy(const struct rs *s)
{
	return wk_running(&s->wk) &&
	       !atomic_load_explicit(&s->pairs_done, memory_order_acquire);
}

bool rs_running(const struct rs *s)
{
	return wk_running(&s->wk);
}

bool rs_paused(const struct rs *s)
{
	return s->paused;
}

int rs_fd(const struct rs *s)
{
	return wk_fd(&s->wk);
}

bool rs_busy(const struct rs *s)
{
	return wk_running(&s->wk) || s->paused;
}

int rs_finish(struct rs *s, bool wait, struct rs_decision *dec)
{
	int r = wk_join(&s->wk, wait);

	if (r)
		return r;
	*dec = s->dec;
	s->paused = s->yielded = s->wret == -EINPROGRESS;
	return s->wret;
}

uint32_t rs_apply(struct mx *m, const struct rs_ent *e, size_t n)
{
	uint32_t changed = 0, k;
	size_t i;

	for (i = 0; i < n; i++) {
		if (e[i].rproto >= __R2C2_RP_MAX)
			continue;
		k = mx_find(m, e[i].src, e[i].id);
		if (k == MX_NONE || m->f[k].rproto == e[i].rproto)
			continue;
		mx_term_out(m, &m->f[k]);
		m->f[k].rproto = e[i].rproto;
		mx_term_in(m, &m->f[k]);
		changed++;
	}
	if (changed)
		m->gen++;
	return changed;
}

int rs_send_batches(const struct rs_ent *e, size_t n, size_t max,
		    int (*send)(const struct rs_ent *e, size_t n, void *arg),
		    void *arg)
{
	size_t off, cnt;
	int b = 0, r;

	if (!max)
		return -EINVAL;
	for (off = 0; off < n; off += cnt) {
		cnt = n - off < max ? n - off : max;
		r = send(e + off, cnt, arg);
		if (r)
			return r < 0 ? r : -EIO;
		b++;
	}
	return b;
}
