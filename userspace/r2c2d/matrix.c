// SPDX-License-Identifier: GPL-2.0
/*
 * matrix.c - r2c2d's traffic matrix (see matrix.h).
 *
 * Flows live in one dense array, so a rate round walks them without
 * pointer chasing; a chained hash of indices finds (src, id), keyed
 * (SipHash-2-4, a random key per matrix). Removal
 * moves the last flow into the hole and re-links it.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>
#include <linux/types.h>
#include <linux/r2c2.h>

#include "matrix.h"
#include "r2c2/wire.h"
#include "r2c2_alloc.h"

#define ROTL(x, b)	((x) << (b) | (x) >> (64 - (b)))
#define SIPROUND do {							\
	v0 += v1; v1 = ROTL(v1, 13); v1 ^= v0; v0 = ROTL(v0, 32);	\
	v2 += v3; v3 = ROTL(v3, 16); v3 ^= v2;				\
	v0 += v3; v3 = ROTL(v3, 21); v3 ^= v0;				\
	v2 += v1; v1 = ROTL(v1, 17); v1 ^= v2; v2 = ROTL(v2, 32);	\
} while (0)

uint64_t mx_siphash(const uint64_t key[2], uint64_t w)
{
	uint64_t v0 = 0x736f6d6570736575ull ^ key[0];
	uint64_t v1 = 0x646f72616e646f6dull ^ key[1];
	uint64_t v2 = 0x6c7967656e657261ull ^ key[0];
	uint64_t v3 = 0x7465646279746573ull ^ key[1];
	const uint64_t last = 8ull << 56;	/* the length, no tail */

	v3 ^= w;
	SIPROUND;
	SIPROUND;
	v0 ^= w;
	v3 ^= last;
	SIPROUND;
	SIPROUND;
	v0 ^= last;
	v2 ^= 0xff;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	return v0 ^ v1 ^ v2 ^ v3;
}

/*
 * Keyed: with the multiplicative hash it replaced, anyone could pick
 * flow ids of one source that share a bucket, and chain its whole quota
 * into one list that every lookup of those flows walked
 */
static uint32_t mx_hash(const struct mx *m, uint16_t src, uint32_t id)
{
	return (uint32_t)mx_siphash(m->key, (uint64_t)src << 32 | id) &
	       (m->nb - 1);
}

/* a key nobody outside knows: getrandom(), else what the clocks say */
static void mx_random_key(uint64_t key[2], const void *salt)
{
	struct timespec a, b;
	uint64_t x;

	if (getrandom(key, 2 * sizeof(*key), GRND_NONBLOCK) ==
	    (ssize_t)(2 * sizeof(*key)))
		return;
	/* no entropy yet (early boot): weaker, still unknown in advance */
	clock_gettime(CLOCK_REALTIME, &a);
	clock_gettime(CLOCK_MONOTONIC, &b);
	x = (uint64_t)a.tv_sec * 1000000000ull + (uint64_t)a.tv_nsec;
	key[0] = mx_siphash((uint64_t[2]){ x, (uint64_t)getpid() },
			    (uint64_t)(uintptr_t)salt);
	key[1] = mx_siphash((uint64_t[2]){ key[0], x },
			    (uint64_t)b.tv_sec * 1000000000ull +
			    (uint64_t)b.tv_nsec);
}

static int mx_rehash(struct mx *m, uint32_t nb)
{
	uint32_t *b = malloc(sizeof(*b) * nb), i, h;

	if (!b)
		return -ENOMEM;
	free(m->bucket);
	m->bucket = b;
	m->nb = nb;
	for (i = 0; i < nb; i++)
		b[i] = MX_NONE;
	for (i = 0; i < m->n; i++) {
		h = mx_hash(m, m->f[i].src, m->f[i].id);
		m->f[i].next = b[h];
		b[h] = i;
	}
	return 0;
}

#define MX_MIN_CAP	64	/* flows and buckets never shrink below */

int mx_init(struct mx *m, uint32_t max_flows)
{
	static _Atomic uint64_t made;

	memset(m, 0, sizeof(*m));
	/* a copy of an older matrix's view is older than any of this one's */
	m->vstamp = (atomic_fetch_add(&made, 1) + 1) << 40;
	m->max_flows = max_flows ? max_flows : 1u << 20;
	m->max_per_src = m->max_flows;
	m->own_src = -1;
	mx_random_key(m->key, m);
	m->src_n = calloc((size_t)UINT16_MAX + 1, sizeof(*m->src_n));
	m->src_dg = calloc((size_t)UINT16_MAX + 1, sizeof(*m->src_dg));
	m->end_all = calloc((size_t)UINT16_MAX + 1, sizeof(*m->end_all));
	m->end_dem0 = calloc((size_t)UINT16_MAX + 1, sizeof(*m->end_dem0));
	if (!m->src_n || !m->src_dg || !m->end_all || !m->end_dem0) {
		free(m->src_n);
		free(m->src_dg);
		free(m->end_all);
		free(m->end_dem0);
		m->src_n = NULL;
		m->src_dg = NULL;
		m->end_all = NULL;
		m->end_dem0 = NULL;
		return -ENOMEM;
	}
	return mx_rehash(m, MX_MIN_CAP);
}

int mx_set_key(struct mx *m, const uint64_t key[2])
{
	uint64_t old[2] = { m->key[0], m->key[1] };
	int r;

	m->key[0] = key[0];
	m->key[1] = key[1];
	r = mx_rehash(m, m->nb);
	if (r) {	/* the buckets are the old key's still */
		m->key[0] = old[0];
		m->key[1] = old[1];
	}
	return r;
}

void mx_set_own(struct mx *m, int src)
{
	uint32_t i;

	m->own_src = src;
	m->own = 0;
	for (i = 0; i < m->n; i++) {
		if ((int)m->f[i].src != src)
			continue;
		m->f[i].own_pos = m->own;
		m->own_ix[m->own++] = i;
	}
}

/* whether the allocator must not be given f as it is (mx_view_skip) */
static bool mx_skips(const struct mx *m, const struct mx_flow *f)
{
	return !f->demand_kbps || f->src >= m->view_nodes ||
	       f->dst >= m->view_nodes;
}

/* the higher of f's two ends (struct mx, @end_all) */
static uint16_t mx_end(const struct mx_flow *f)
{
	return f->src > f->dst ? f->src : f->dst;
}

void mx_set_nodes(struct mx *m, uint32_t n)
{
	uint32_t e;

	/* past n every flow, below n those of demand 0: no walk */
	m->view_nodes = n;
	m->view_skip = 0;
	for (e = 0; e <= UINT16_MAX; e++)
		m->view_skip += e >= n ? m->end_all[e] : m->end_dem0[e];
	mx_unseen_all(m);
}

void mx_unseen_all(struct mx *m)
{
	uint32_t i;

	for (i = 0; i < m->n; i++) {
		m->unseen_at[i] = i;
		m->unseen_ix[i] = i;
	}
	m->unseen = m->n;
}

void mx_seen(struct mx *m, uint32_t k)
{
	uint32_t last = m->unseen_ix[--m->unseen];

	m->unseen_at[m->unseen_ix[k]] = MX_NONE;
	if (k != m->unseen) {
		m->unseen_ix[k] = last;
		m->unseen_at[last] = k;
	}
}

/* f, new or changed, into @unseen_ix if not there already */
static void mx_unseen(struct mx *m, struct mx_flow *f)
{
	uint32_t i = (uint32_t)(f - m->f);

	if (m->unseen_at[i] != MX_NONE)
		return;
	m->unseen_at[i] = m->unseen;
	m->unseen_ix[m->unseen++] = i;
}

void mx_view_out(struct mx *m, const struct mx_flow *f)
{
	m->view_skip -= mx_skips(m, f);
	m->end_all[mx_end(f)]--;
	m->end_dem0[mx_end(f)] -= !f->demand_kbps;
}

/* the allocator's input for f (mx_alloc_flow(), without the bounds) */
static void mx_fill(const struct mx_flow *f, struct r2c2_flow *a)
{
	memset(a, 0, sizeof(*a));
	a->src = f->src;
	a->dst = f->dst;
	a->rproto = f->rproto;
	a->prio = f->prio;
	a->weight = f->weight;
	a->demand = f->demand_kbps == R2C2_DEMAND_UNLIMITED ? 0 :
		    (double)f->demand_kbps * 1000;
}

/* view[i], fid[i] or born[i] changed */
static void mx_view_stamp(struct mx *m, uint32_t i)
{
	m->vchunk[i / MX_CHUNK] = ++m->vstamp;
}

void mx_view_in(struct mx *m, struct mx_flow *f)
{
	mx_view_stamp(m, (uint32_t)(f - m->f));
	m->view_skip += mx_skips(m, f);
	m->end_all[mx_end(f)]++;
	m->end_dem0[mx_end(f)] += !f->demand_kbps;
	m->fid[f - m->f] = f->id;
	m->born[f - m->f] = f->born_ns;
	mx_fill(f, &m->view[f - m->f]);
	mx_unseen(m, f);
}

size_t mx_view_copy_step(const struct mx *m, struct r2c2_flow *v,
			 uint32_t *id, uint64_t *born, uint64_t since,
			 size_t *next, size_t max)
{
	size_t c, at, k, chunks = 0;

	for (c = *next, at = c * MX_CHUNK; at < m->n; c++, at += MX_CHUNK) {
		if (!mx_view_since(m, c, since))
			continue;
		if (max && chunks == max)
			break;
		k = m->n - at < MX_CHUNK ? m->n - at : MX_CHUNK;
		memcpy(v + at, m->view + at, k * sizeof(*v));
		memcpy(id + at, m->fid + at, k * sizeof(*id));
		if (born)
			memcpy(born + at, m->born + at, k * sizeof(*born));
		chunks++;
	}
	*next = c;
	return chunks;
}

size_t mx_view_copy(const struct mx *m, struct r2c2_flow *v, uint32_t *id,
		    uint64_t *born, uint64_t *stamp)
{
	size_t next = 0, chunks;

	chunks = mx_view_copy_step(m, v, id, born, *stamp, &next, 0);
	*stamp = m->vstamp;
	return chunks;
}

bool mx_copy_step(const struct mx *m, struct mx_copy *c, struct r2c2_flow *v,
		  uint32_t *id, uint64_t *born, size_t max, uint64_t *chunks)
{
	if (!c->pass) {
		c->pass = m->vstamp;
		c->base = c->stamp;
		c->next = 0;
	}
	*chunks += mx_view_copy_step(m, v, id, born, c->base, &c->next, max);
	if (c->next * MX_CHUNK < m->n)
		return false;
	c->stamp = c->pass;
	*chunks += mx_view_copy(m, v, id, born, &c->stamp);
	c->pass = 0;
	return true;
}

/*
 * The arrays indexed like @f to cap entries. Growing, @f goes last and a
 * failure leaves cap as it was (an array grown already is only larger
 * than needed); shrinking, @f goes first and a failure of another keeps
 * that one larger.
 */
static int mx_resize(struct mx *m, uint32_t cap)
{
	void **arr[] = { (void **)&m->own_ix, (void **)&m->view,
			 (void **)&m->fid, (void **)&m->born,
			 (void **)&m->unseen_ix, (void **)&m->unseen_at };
	const size_t sz[] = { sizeof(*m->own_ix), sizeof(*m->view),
			      sizeof(*m->fid), sizeof(*m->born),
			      sizeof(*m->unseen_ix), sizeof(*m->unseen_at) };
	size_t i, nc = (cap + MX_CHUNK - 1) / MX_CHUNK;
	size_t oc = (m->cap + MX_CHUNK - 1) / MX_CHUNK;
	struct mx_flow *f;
	void *p;

	p = realloc(m->vchunk, nc * sizeof(*m->vchunk));
	if (p) {
		m->vchunk = p;
		for (i = oc; i < nc; i++)
			m->vchunk[i] = m->vstamp;
	} else if (nc > oc) {
		return -ENOMEM;
	}
	if (cap < m->cap) {
		f = realloc(m->f, sizeof(*f) * cap);
		if (!f)
			return -ENOMEM;
		m->f = f;
	}
	for (i = 0; i < sizeof(sz) / sizeof(sz[0]); i++) {
		p = realloc(*arr[i], sz[i] * cap);
		if (p)
			*arr[i] = p;
		else if (cap > m->cap)
			return -ENOMEM;
	}
	if (cap > m->cap) {
		f = realloc(m->f, sizeof(*f) * cap);
		if (!f)
			return -ENOMEM;
		m->f = f;
	}
	m->cap = cap;
	return 0;
}

void mx_fini(struct mx *m)
{
	free(m->f);
	free(m->own_ix);
	free(m->view);
	free(m->fid);
	free(m->born);
	free(m->unseen_ix);
	free(m->unseen_at);
	free(m->vchunk);
	free(m->bucket);
	free(m->src_n);
	free(m->src_dg);
	free(m->end_all);
	free(m->end_dem0);
	memset(m, 0, sizeof(*m));
}

uint32_t mx_find(const struct mx *m, uint16_t src, uint32_t id)
{
	uint32_t i;

	for (i = m->bucket[mx_hash(m, src, id)]; i != MX_NONE; i = m->f[i].next)
		if (m->f[i].src == src && m->f[i].id == id)
			return i;
	return MX_NONE;
}

uint32_t mx_find_at(const struct mx *m, uint32_t hint, uint16_t src,
		    uint32_t id)
{
	if (hint < m->n && m->f[hint].src == src && m->f[hint].id == id)
		return hint;
	return mx_find(m, src, id);
}

/* unlink index idx from its chain */
static void mx_unlink(struct mx *m, uint32_t idx)
{
	uint32_t *p = &m->bucket[mx_hash(m, m->f[idx].src, m->f[idx].id)];

	while (*p != idx)
		p = &m->f[*p].next;
	*p = m->f[idx].next;
}

void mx_remove(struct mx *m, uint32_t idx)
{
	uint32_t last = m->n - 1, *p;

	if ((int)m->f[idx].src == m->own_src) {
		uint32_t k = m->own_ix[--m->own];

		/* the last of the own list takes the place of idx's */
		m->own_ix[m->f[idx].own_pos] = k;
		m->f[k].own_pos = m->f[idx].own_pos;
	}
	if (m->unseen_at[idx] != MX_NONE)
		mx_seen(m, m->unseen_at[idx]);
	m->src_n[m->f[idx].src]--;
	mx_term_out(m, &m->f[idx]);
	mx_unlink(m, idx);
	if (idx != last) {
		p = &m->bucket[mx_hash(m, m->f[last].src, m->f[last].id)];
		while (*p != last)
			p = &m->f[*p].next;
		*p = idx;
		m->f[idx] = m->f[last];
		m->view[idx] = m->view[last];
		m->fid[idx] = m->fid[last];
		m->born[idx] = m->born[last];
		mx_view_stamp(m, idx);
		if ((int)m->f[idx].src == m->own_src)
			m->own_ix[m->f[idx].own_pos] = idx;
		m->unseen_at[idx] = m->unseen_at[last];
		if (m->unseen_at[idx] != MX_NONE)
			m->unseen_ix[m->unseen_at[idx]] = idx;
	}
	m->n--;
	m->gen++;
	/* give back what a burst of flows took; a failure keeps the old */
	if (m->cap > MX_MIN_CAP && m->n <= m->cap / 4)
		mx_resize(m, m->cap / 2);
	if (m->nb > MX_MIN_CAP && m->n <= m->nb / 4)
		mx_rehash(m, m->nb / 2);
}

static int mx_insert(struct mx *m, const struct mx_evt *e, uint64_t now)
{
	struct mx_flow *f;
	uint32_t h;

	if (m->n >= m->max_flows) {
		m->st.refused_full++;
		return -ENOSPC;
	}
	/* one source cannot take the whole matrix */
	if (m->src_n[e->src] >= m->max_per_src) {
		m->st.refused_quota++;
		return -ENOSPC;
	}
	if (m->n == m->cap && mx_resize(m, m->cap ? m->cap * 2 : MX_MIN_CAP))
		return -ENOMEM;
	if (m->n >= m->nb && mx_rehash(m, m->nb * 2))
		return -ENOMEM;
	f = &m->f[m->n];
	memset(f, 0, sizeof(*f));
	f->src = e->src;
	f->id = e->id;
	f->dst = e->dst;
	f->weight = e->weight;
	f->prio = e->prio;
	f->rproto = e->rproto;
	f->demand_kbps = e->demand_kbps;
	f->born_ns = now;
	f->refresh_ns = now;
	f->changed_ns = now;
	f->mark = true;
	f->announced_kbps = R2C2_DEMAND_UNLIMITED;
	m->unseen_at[m->n] = MX_NONE;
	h = mx_hash(m, e->src, e->id);
	f->next = m->bucket[h];
	m->bucket[h] = m->n++;
	m->src_n[e->src]++;
	mx_term_in(m, f);
	if ((int)e->src == m->own_src) {
		f->own_pos = m->own;
		m->own_ix[m->own++] = (uint32_t)(f - m->f);
	}
	m->gen++;
	return 1;
}

/* copy the allocation-relevant fields; 1 if any changed */
static int mx_update(struct mx *m, struct mx_flow *f, const struct mx_evt *e,
		     uint64_t now)
{
	int changed = f->dst != e->dst || f->weight != e->weight ||
		      f->prio != e->prio || f->rproto != e->rproto ||
		      f->demand_kbps != e->demand_kbps;

	f->refresh_ns = now;
	f->mark = true;
	if (!changed)
		return 0;
	mx_term_out(m, f);
	f->dst = e->dst;
	f->weight = e->weight;
	f->prio = e->prio;
	f->rproto = e->rproto;
	f->demand_kbps = e->demand_kbps;
	mx_term_in(m, f);
	f->changed_ns = now;
	m->gen++;
	return 1;
}

int mx_apply(struct mx *m, const struct mx_evt *e, uint64_t now)
{
	uint32_t i;

	m->st.events++;
	if (e->type < R2C2_FE_START || e->type > R2C2_FE_REFRESH ||
	    (e->type != R2C2_FE_FINISH &&
	     (e->src == e->dst || e->dst == R2C2_ADDR_NONE || !e->weight ||
	      e->prio > 15 || e->rproto >= __R2C2_RP_MAX ||
	      e->demand_kbps > R2C2_DEMAND_UNLIMITED))) {
		m->st.invalid++;
		return -EINVAL;
	}
	i = mx_find(m, e->src, e->id);
	switch (e->type) {
	case R2C2_FE_FINISH:
		m->st.finishes++;
		if (i == MX_NONE) {
			m->st.unknown_finishes++;
			return 0;
		}
		mx_remove(m, i);
		return 1;
	case R2C2_FE_START:
		m->st.starts++;
		if (i != MX_NONE) {
			int r = mx_update(m, &m->f[i], e, now);

			if (!r)
				m->st.dup_starts++;
			return r;
		}
		return mx_insert(m, e, now);
	default:
		if (e->type == R2C2_FE_UPDATE)
			m->st.updates++;
		else
			m->st.refreshes++;
		if (i == MX_NONE) {
			/* its START was lost, or we restarted: learn it now */
			m->st.implicit_starts++;
			return mx_insert(m, e, now);
		}
		return mx_update(m, &m->f[i], e, now);
	}
}

uint32_t mx_expire(struct mx *m, uint64_t now, uint64_t ttl_ns, int keep)
{
	return mx_expire_step(m, now, ttl_ns, keep, UINT32_MAX);
}

/*
 * A matrix of at most max flows is looked at whole, from the start; a
 * larger one from @expire_at to the end or max flows on. A removal moves
 * the last flow into i, not looked at yet: i stays.
 */
uint32_t mx_expire_step(struct mx *m, uint64_t now, uint64_t ttl_ns,
			int keep, uint32_t max)
{
	uint32_t i = m->n <= max || m->expire_at >= m->n ? 0 : m->expire_at;
	uint32_t seen = 0, n = 0;

	while (seen < max && i < m->n) {
		if (m->f[i].src != keep && now - m->f[i].refresh_ns > ttl_ns) {
			mx_remove(m, i);	/* the last one moved into i */
			n++;
		} else {
			i++;
		}
		seen++;
	}
	m->expire_at = i < m->n ? i : 0;
	m->st.expired += n;
	return n;
}

uint32_t mx_drop_unreached(struct mx *m, const uint8_t *reach, uint32_t n,
			   int keep)
{
	uint32_t i = 0, gone = 0;
	uint16_t s;

	while (i < m->n) {
		s = m->f[i].src;
		if (s != keep && (s >= n || !reach[s])) {
			mx_remove(m, i);	/* the last one moved into i */
			gone++;
		} else {
			i++;
		}
	}
	return gone;
}

void mx_resync_begin(struct mx *m, uint16_t src)
{
	uint32_t i;

	/* the daemon's own flows, every sample: through the own list */
	if ((int)src == m->own_src) {
		for (i = 0; i < m->own; i++)
			m->f[m->own_ix[i]].mark = false;
		return;
	}
	for (i = 0; i < m->n; i++)
		if (m->f[i].src == src)
			m->f[i].mark = false;
}

uint32_t mx_resync_end(struct mx *m, uint16_t src)
{
	uint32_t i = 0, n = 0;

	if ((int)src == m->own_src) {
		while (i < m->own) {
			/* a removal puts the own list's last at i */
			if (!m->f[m->own_ix[i]].mark) {
				mx_remove(m, m->own_ix[i]);
				n++;
			} else {
				i++;
			}
		}
		m->st.resync_removed += n;
		return n;
	}
	while (i < m->n) {
		if (m->f[i].src == src && !m->f[i].mark) {
			mx_remove(m, i);
			n++;
		} else {
			i++;
		}
	}
	m->st.resync_removed += n;
	return n;
}

bool mx_alloc_flow(const struct mx_flow *f, uint32_t nnodes,
		   struct r2c2_flow *a)
{
	if (!mx_in_topology(f->src, f->dst, nnodes))
		return false;
	mx_fill(f, a);
	return true;
}

uint32_t mx_term(const struct mx_flow *f)
{
	return r2c2_flow_digest(f->id, f->dst, f->weight, f->prio, f->rproto,
				f->demand_kbps);
}

uint32_t mx_digest(const struct mx *m, uint16_t src, uint32_t *count)
{
	*count = m->src_n[src];
	return m->src_dg[src];
}

uint32_t mx_digest_walk(const struct mx *m, uint16_t src, uint32_t *count)
{
	uint32_t i, h = 0, n = 0;

	for (i = 0; i < m->n; i++) {
		if (m->f[i].src != src)
			continue;
		h += mx_term(&m->f[i]);
		n++;
	}
	*count = n;
	return h;
}

uint32_t mx_drop_stale(struct mx *m, uint16_t src, uint64_t before)
{
	uint32_t i = 0, n = 0;

	while (i < m->n) {
		if (m->f[i].src == src && m->f[i].refresh_ns < before) {
			mx_remove(m, i);	/* the last one moved into i */
			n++;
		} else {
			i++;
		}
	}
	return n;
}
