// SPDX-License-Identifier: GPL-2.0
/*
 * paths_update_test.c - r2c2_paths_update() against r2c2_paths_build():
 * after every batch of link changes in a random sequence the two give the
 * same distances and path counts, byte for byte; a batch it does not take
 * (links removed and added at once, a port rewired, too many changes)
 * says -EAGAIN and changes nothing. TAP output.
 */
#include <errno.h>
#include <string.h>
#include "r2c2_alloc.h"
#include "alloc_tap.h"

struct seq_stats {
	unsigned int batches, updated, again, differ, removed, added;
	unsigned int inf_pairs;		/* unreachable pairs met after a batch */
};

/* whether the two tables of n nodes hold the same distances and counts */
static bool same_paths(const struct r2c2_paths *a, const struct r2c2_paths *b)
{
	size_t nn = (size_t)a->n * a->n;

	return a->n == b->n && !memcmp(a->dist, b->dist, nn) &&
	       !memcmp(a->npaths, b->npaths, nn * sizeof(*a->npaths));
}

/*
 * A random sequence of batches on the graph nbr of n nodes: each removes
 * 1..3 links that are there (a link and its way back, where both_ways and
 * there is one) or adds back 1..3 of those removed; every few batches one
 * that does both, which must be refused. Each batch's tables, updated from
 * the last ones, against a full build.
 */
static void sequence(u16 n, u16 *nbr, unsigned int batches, bool both_ways,
		     uint64_t *seed, struct seq_stats *st)
{
	size_t nl = (size_t)n * R2C2_MAX_PORTS, l;
	u16 *gone_to = malloc(nl * sizeof(*gone_to));
	u32 *gone = malloc(nl * sizeof(*gone));
	unsigned int ngone = 0, b, i;
	struct r2c2_paths cur, full, upd;

	memset(st, 0, sizeof(*st));
	if (!gone_to || !gone || r2c2_paths_build(&cur, n, nbr, NULL)) {
		ok(0, "sequence: set up");
		free(gone_to);
		free(gone);
		return;
	}
	for (b = 0; b < batches; b++) {
		bool add = ngone && tbelow(seed, 2);
		/* every 7th batch also changes one link the other way */
		bool refuse = b % 7 == 6;
		unsigned int k = 1 + tbelow(seed, 3), before = ngone;
		u32 back_now[3];
		unsigned int nback = 0;
		int r;

		if (add && k > ngone)
			k = ngone;
		for (i = 0; i < k; i++) {
			if (add) {
				unsigned int j = tbelow(seed, ngone);

				nbr[gone[j]] = gone_to[gone[j]];
				back_now[nback++] = gone[j];
				gone[j] = gone[--ngone];
				st->added++;
				continue;
			}
			for (l = tbelow(seed, (unsigned int)nl); nbr[l] == R2C2_IDX_NONE;
			     l = (l + 1) % nl)
				;
			gone_to[l] = nbr[l];
			gone[ngone++] = (u32)l;
			if (both_ways) {
				u16 v = nbr[l], u = (u16)(l / R2C2_MAX_PORTS);
				unsigned int p;

				for (p = 0; p < R2C2_MAX_PORTS; p++)
					if (nbr[(size_t)v * R2C2_MAX_PORTS + p] == u)
						break;
				if (p < R2C2_MAX_PORTS) {
					size_t back = (size_t)v * R2C2_MAX_PORTS + p;

					gone_to[back] = u;
					gone[ngone++] = (u32)back;
					nbr[back] = R2C2_IDX_NONE;
					st->removed++;
				}
			}
			nbr[l] = R2C2_IDX_NONE;
			st->removed++;
		}
		if (refuse && add) {
			/* a link there before the batch removed too */
			bool now;

			do {
				l = tbelow(seed, (unsigned int)nl);
				for (now = false, i = 0; i < nback; i++)
					now |= back_now[i] == l;
			} while (nbr[l] == R2C2_IDX_NONE || now);
			gone_to[l] = nbr[l];
			gone[ngone++] = (u32)l;
			nbr[l] = R2C2_IDX_NONE;
		} else if (refuse && before) {
			/* a link gone before the batch added back too */
			unsigned int j = tbelow(seed, before);

			nbr[gone[j]] = gone_to[gone[j]];
			gone[j] = gone[--ngone];
		} else {
			refuse = false;
		}
		st->batches++;
		if (r2c2_paths_build(&full, n, nbr, NULL)) {
			st->differ++;
			continue;
		}
		for (l = 0; l < (size_t)n * n; l++)
			st->inf_pairs += full.dist[l] == R2C2_DIST_INF;
		r = r2c2_paths_update(&upd, &cur, nbr, NULL, SIZE_MAX);
		if (r == -EAGAIN) {
			st->again++;
			st->differ += !refuse || upd.dist;
			r2c2_paths_free(&cur);
			cur = full;
			continue;
		}
		st->updated++;
		st->differ += r != 0 || refuse || !same_paths(&upd, &full);
		r2c2_paths_free(&full);
		r2c2_paths_free(&cur);
		cur = upd;	/* the next batch starts from the update */
	}
	r2c2_paths_free(&cur);
	free(gone_to);
	free(gone);
}

static void report(const char *name, const struct seq_stats *st,
		   unsigned int min_updated)
{
	ok(st->differ == 0 && st->updated >= min_updated && st->again > 0,
	   "%s: %u batches (%u links removed, %u added): %u updated == built, %u refused as they should be, %u wrong (%u unreachable pairs met)",
	   name, st->batches, st->removed, st->added, st->updated, st->again,
	   st->differ, st->inf_pairs);
}

int main(void)
{
	enum { L = 12, W = 8, NL = L * W, NR = 120 };
	static u16 nbr[NR * R2C2_MAX_PORTS];
	static u8 np[NR * R2C2_MAX_PORTS];
	struct r2c2_paths a, b, c;
	struct seq_stats st;
	uint64_t seed = 0x5eed5eedull;
	u8 dims[3] = { 6, 6, 3 };
	unsigned int u, k, inf;
	size_t l;

	/* a torus, links cut both ways as r2c2d sees them fail */
	r2c2_torus_nbrs(dims, 3, true, nbr, np);
	sequence(108, nbr, 300, true, &seed, &st);
	report("6x6x3 torus, links cut both ways", &st, 200);

	/* one-way links, nodes cut off and found again */
	memset(nbr, 0xff, sizeof(nbr));
	for (u = 0; u < NR; u++)
		for (k = 0; k < 3; k++)
			if (tbelow(&seed, 4))
				nbr[u * R2C2_MAX_PORTS + k] = (u16)tbelow(&seed, NR);
	for (l = 0; l < (size_t)NR * R2C2_MAX_PORTS; l++)
		if (nbr[l] == l / R2C2_MAX_PORTS)
			nbr[l] = R2C2_IDX_NONE;	/* no loops */
	{
		/* at most 8 links into a node, as r2c2_paths_build() wants */
		unsigned int into[NR] = { 0 };

		for (l = 0; l < (size_t)NR * R2C2_MAX_PORTS; l++)
			if (nbr[l] != R2C2_IDX_NONE && ++into[nbr[l]] > R2C2_MAX_PORTS)
				nbr[l] = R2C2_IDX_NONE;
	}
	sequence(NR, nbr, 300, false, &seed, &st);
	report("random graph of 120 nodes, one-way links", &st, 200);
	ok(st.inf_pairs > 0, "the random graph's batches cut some pairs off (%u)",
	   st.inf_pairs);

	/* path counts that saturate: 12 layers of 8 in a ring, all to all */
	memset(nbr, 0xff, sizeof(nbr));
	for (u = 0; u < NL; u++)
		for (k = 0; k < W; k++)
			nbr[u * R2C2_MAX_PORTS + k] = (u16)((u / W + 1) % L * W + k);
	r2c2_paths_build(&a, NL, nbr, NULL);
	for (inf = 0, l = 0; l < (size_t)NL * NL; l++)
		inf += a.npaths[l] == R2C2_NPATHS_MAX;
	r2c2_paths_free(&a);
	sequence(NL, nbr, 200, false, &seed, &st);
	report("layered ring of 96 nodes, saturated path counts", &st, 130);
	ok(inf > 0, "the layered ring's path counts saturate (%u pairs)", inf);

	/* a line: a cut splits it, the link back joins it */
	memset(nbr, 0xff, sizeof(nbr));
	for (u = 0; u + 1 < 40; u++) {
		nbr[u * R2C2_MAX_PORTS] = (u16)(u + 1);
		nbr[(u + 1) * R2C2_MAX_PORTS + 1] = (u16)u;
	}
	r2c2_paths_build(&a, 40, nbr, NULL);
	nbr[20 * R2C2_MAX_PORTS] = R2C2_IDX_NONE;
	r2c2_paths_build(&b, 40, nbr, NULL);
	k = r2c2_paths_update(&c, &a, nbr, NULL, SIZE_MAX) == 0 && same_paths(&b, &c) &&
	    b.dist[21 * 40 + 0] == R2C2_DIST_INF;
	r2c2_paths_free(&c);
	nbr[20 * R2C2_MAX_PORTS] = 21;
	k &= r2c2_paths_update(&c, &b, nbr, NULL, SIZE_MAX) == 0 && same_paths(&a, &c);
	ok(k, "a line of 40: cut in two and joined again, the tables as built");
	r2c2_paths_free(&c);

	/* refused: a port rewired, too many changes; nothing allocated */
	nbr[20 * R2C2_MAX_PORTS] = 22;
	k = r2c2_paths_update(&c, &a, nbr, NULL, SIZE_MAX) == -EAGAIN && !c.dist;
	nbr[20 * R2C2_MAX_PORTS] = 21;
	for (u = 0; u + 1 < 40; u++)
		nbr[u * R2C2_MAX_PORTS + 4] = (u16)(39 - u);
	r2c2_paths_free(&b);
	r2c2_paths_build(&b, 40, nbr, NULL);
	k &= r2c2_paths_update(&c, &a, nbr, NULL, SIZE_MAX) == 0 && same_paths(&b, &c);
	r2c2_paths_free(&c);
	for (u = 0; u < 40; u++)
		nbr[u * R2C2_MAX_PORTS + 5] = (u16)((u + 7) % 40);
	k &= r2c2_paths_update(&c, &a, nbr, NULL, SIZE_MAX) == -EAGAIN && !c.dist;
	ok(k, "refused: a port rewired, and 79 links added at once (the bound is 64); 39 added at once as built");
	r2c2_paths_free(&a);
	r2c2_paths_free(&b);

	/*
	 * the budget: on 8x8x8 one link cut both ways searches 5.6 % of the
	 * entries again, eight links 26 %: past R2C2_PATHS_UPDATE_BUDGET
	 * (1 / 12), refused
	 */
	{
		u8 d8[3] = { 8, 8, 8 };
		static u16 big[512 * R2C2_MAX_PORTS];
		static u8 bp[512 * R2C2_MAX_PORTS];
		size_t cut[8] = { 0, 1100, 1333, 2047, 2600, 3001, 3500, 4090 };

		r2c2_torus_nbrs(d8, 3, true, big, bp);
		r2c2_paths_build(&a, 512, big, bp);
		for (u = 0; u < 8; u++) {
			for (l = cut[u]; big[l] == R2C2_IDX_NONE; l++)
				;
			big[(size_t)big[l] * R2C2_MAX_PORTS + bp[l]] = R2C2_IDX_NONE;
			big[l] = R2C2_IDX_NONE;
			if (!u) {
				r2c2_paths_build(&b, 512, big, bp);
				k = r2c2_paths_update(&c, &a, big, bp,
						      R2C2_PATHS_UPDATE_BUDGET(512)) == 0 &&
				    same_paths(&b, &c);
				r2c2_paths_free(&b);
				r2c2_paths_free(&c);
			}
		}
		k &= r2c2_paths_update(&c, &a, big, bp,
				       R2C2_PATHS_UPDATE_BUDGET(512)) == -EAGAIN && !c.dist;
		r2c2_paths_build(&b, 512, big, bp);
		k &= r2c2_paths_update(&c, &a, big, bp, SIZE_MAX) == 0 && same_paths(&b, &c);
		ok(k, "8x8x8: one link cut both ways within the budget; eight over it, refused (and as built without one)");
		r2c2_paths_free(&a);
		r2c2_paths_free(&b);
		r2c2_paths_free(&c);
	}
	return tap_done();
}
