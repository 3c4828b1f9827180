// SPDX-License-Identifier: GPL-2.0
/*
 * topo_fuzz.c - topology specs and topology files under libFuzzer.
 *
 * Feeds: an input that starts with "torus:" or "mesh:" as a spec string
 * (r2c2ctl --topology SPEC, r2c2d's topology key) to r2c2_topo_parse();
 * any other input as a topology file (a memfd) through "file:PATH",
 * first with no default capacity (r2c2ctl alloc without --capacity), and
 * again with 10G when that fails.
 * Reaches: topo.c: parse_dims(), r2c2_topo_grid(), r2c2_topo_load() with
 * r2c2_read_line(), split_words(), parse_node(), r2c2_parse_rate(), then
 * r2c2_topo_from_adj() and common/paths.c's r2c2_paths_build(); on what
 * loads, r2c2_link_weights_add() of each protocol for one pair.
 * Checks: a topology that loads is consistent (links within the graph,
 * a positive finite capacity exactly where there is a link, nlinks, the
 * ports of reverse links, distances of 0 to itself only).
 * Work per input: inputs that could name more than FUZZ_MAX_NODES nodes
 * are skipped (a "nodes N" with a larger N, or grid radixes whose
 * product is larger): r2c2_paths_build() is O(n * (n + links)) and a
 * 65534-node line would take seconds. 300 lets a line graph pass the
 * 254 hops that distances hold.
 */
#include <ctype.h>
#include <math.h>
#include <string.h>

#include "r2c2_alloc.h"
#include "fuzz.h"

#define FUZZ_MAX_NODES	300

/*
 * every "nodes" in the bytes, whitespace, then a number: at most
 * FUZZ_MAX_NODES (the parser takes N only so, as a word of its line)
 */
static bool file_small(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size, *k;
	unsigned long v;

	while ((k = memmem(p, (size_t)(end - p), "nodes", 5))) {
		p = k + 5;
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		for (v = 0; p < end && isdigit(*p) && v <= FUZZ_MAX_NODES; p++)
			v = v * 10 + (unsigned long)(*p - '0');
		if (v > FUZZ_MAX_NODES)
			return false;
	}
	return true;
}

/* the product of every number in the spec: at most FUZZ_MAX_NODES */
static bool grid_small(const char *s)
{
	unsigned long prod = 1, v;
	char *end;

	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			continue;
		errno = 0;
		v = strtoul(s, &end, 10);
		if (errno || (v && prod > FUZZ_MAX_NODES / v))
			return false;
		prod *= v ? v : 1;
		s = end - 1;
	}
	return true;
}

static void fail(const char *why)
{
	fprintf(stderr, "topo_fuzz: %s\n", why);
	abort();
}

static void check(const struct r2c2_topo *t)
{
	unsigned int u, p, q, nl = 0;
	double *w;

	if (!t->n || t->n > FUZZ_MAX_NODES || t->paths.n != t->n)
		fail("node count");
	for (u = 0; u < t->n; u++) {
		if (t->paths.dist[(size_t)u * t->n + u])
			fail("a node not at distance 0 from itself");
		for (p = 0; p < R2C2_MAX_PORTS; p++) {
			size_t l = (size_t)u * R2C2_MAX_PORTS + p;
			u16 v = t->nbr[l];

			if (v == R2C2_IDX_NONE) {
				if (t->cap[l] != 0)
					fail("capacity without a link");
				continue;
			}
			nl++;
			if (v >= t->n || !(t->cap[l] > 0) || !isfinite(t->cap[l]))
				fail("a link out of the graph or without capacity");
			if (t->paths.dist[(size_t)v * t->n + u] != 1 && v != u)
				fail("a link's ends not one hop apart");
			q = t->nbr_port[l];
			if (q >= R2C2_MAX_PORTS)
				fail("a neighbour port past 7");
			/* the reverse link, where there is one, is that port */
			for (unsigned int k = 0; k < R2C2_MAX_PORTS; k++)
				if (t->nbr[(size_t)v * R2C2_MAX_PORTS + k] == u &&
				    t->nbr[(size_t)v * R2C2_MAX_PORTS + q] != u)
					fail("nbr_port does not lead back");
		}
	}
	if (nl != t->nlinks)
		fail("nlinks");
	w = calloc(R2C2_NLINKS(t->n), sizeof(*w));
	if (!w)
		abort();
	for (p = 0; p < __R2C2_RP_MAX; p++)
		if (t->paths.dist[(size_t)(t->n - 1) * t->n] != R2C2_DIST_INF)
			r2c2_link_weights_add(&t->paths, (u8)p, 0,
					      (u16)(t->n - 1), 1, w);
	free(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size), spec[80], err[512];
	struct r2c2_topo *t = NULL;
	int r;

	if (!strncmp(s, "torus:", 6) || !strncmp(s, "mesh:", 5)) {
		if (grid_small(s)) {
			r = r2c2_topo_parse(&t, s, 10e9, err, sizeof(err));
			if (!r)
				check(t);
			r2c2_topo_free(t);
		}
		free(s);
		return 0;
	}
	free(s);
	if (!file_small(data, size))
		return 0;
	snprintf(spec, sizeof(spec), "file:%s", fuzz_file(data, size));
	r = r2c2_topo_parse(&t, spec, 0, err, sizeof(err));
	if (r)
		r = r2c2_topo_parse(&t, spec, 10e9, err, sizeof(err));
	if (!r)
		check(t);
	else if (!err[0] || t)
		fail("an error without a message, or with a topology");
	r2c2_topo_free(t);
	return 0;
}
