// SPDX-License-Identifier: GPL-2.0
/*
 * topo.c - topologies of the allocation engine: tori and meshes (node
 * id = x + k1 * (y + k2 * z), ports as r2c2_torus_nbrs()), and arbitrary
 * graphs with per-link capacities read from a file.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "r2c2_alloc.h"

/* compat-user.h: r2c2_cond_resched() calls of common/ in this thread */
_Thread_local unsigned long r2c2_yields;

static void seterr(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

/* the paths from prev's where only a few links changed (r2c2_paths_update()) */
static int topo_finish(struct r2c2_topo *t, const struct r2c2_topo *prev)
{
	size_t i;
	int ret;

	t->nlinks = 0;
	for (i = 0; i < R2C2_NLINKS(t->n); i++) {
		if (t->nbr[i] == R2C2_IDX_NONE) {
			t->cap[i] = 0;
			continue;
		}
		if (!(t->cap[i] > 0) || !isfinite(t->cap[i]))
			return -EINVAL;
		t->nlinks++;
	}
	ret = -EAGAIN;
	if (prev && prev->n == t->n)
		ret = r2c2_paths_update(&t->paths, &prev->paths, t->nbr,
					t->nbr_port,
					R2C2_PATHS_UPDATE_BUDGET(t->n));
	if (ret == -EAGAIN)
		ret = r2c2_paths_build(&t->paths, t->n, t->nbr, t->nbr_port);
	return ret;
}

static struct r2c2_topo *topo_alloc(u16 n)
{
	struct r2c2_topo *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->n = n;
	t->nbr = malloc(R2C2_NLINKS(n) * sizeof(*t->nbr));
	t->nbr_port = calloc(R2C2_NLINKS(n), 1);
	t->cap = calloc(R2C2_NLINKS(n), sizeof(*t->cap));
	if (!t->nbr || !t->nbr_port || !t->cap) {
		r2c2_topo_free(t);
		return NULL;
	}
	return t;
}

/**
 * r2c2_topo_grid() - a torus (@wrap) or mesh with uniform capacity
 * @tp: out
 * @dims: radix per dimension (>= 2)
 * @ndims: 1..3
 * @wrap: torus when true
 * @cap: capacity of every directed link, > 0
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int r2c2_topo_grid(struct r2c2_topo **tp, const u8 *dims, unsigned int ndims,
		   bool wrap, double cap)
{
	unsigned int i, n = 1;
	struct r2c2_topo *t;
	size_t l;
	int ret;

	*tp = NULL;
	if (!ndims || ndims > R2C2_MAX_DIMS || !(cap > 0) || !isfinite(cap))
		return -EINVAL;
	for (i = 0; i < ndims; i++) {
		if (dims[i] < 2)
			return -EINVAL;
		n *= dims[i];
	}
	if (n > 0xfffe)
		return -EINVAL;
	t = topo_alloc((u16)n);
	if (!t)
		return -ENOMEM;
	t->kind = wrap ? R2C2_TOPO_TORUS : R2C2_TOPO_MESH;
	t->ndims = (u8)ndims;
	memcpy(t->dims, dims, ndims);
	ret = r2c2_torus_nbrs(dims, ndims, wrap, t->nbr, t->nbr_port);
	if (ret < 0)
		goto fail;
	for (l = 0; l < R2C2_NLINKS(n); l++)
		t->cap[l] = t->nbr[l] == R2C2_IDX_NONE ? 0 : cap;
	ret = topo_finish(t, NULL);
	if (ret)
		goto fail;
	*tp = t;
	return 0;
fail:
	r2c2_topo_free(t);
	return ret;
}

/* whether a port of u below p, to v too, already lands on v's port q */
static bool port_taken(const struct r2c2_topo *t, const u16 *nbr,
		       unsigned int u, unsigned int p, unsigned int v,
		       unsigned int q)
{
	unsigned int o;

	for (o = 0; o < p; o++)
		if (nbr[u * R2C2_MAX_PORTS + o] == v &&
		    t->nbr_port[u * R2C2_MAX_PORTS + o] == q)
			return true;
	return false;
}

/**
 * r2c2_topo_from_adj_ports() - an arbitrary graph, with its far-end ports
 * @tp: out
 * @n: nodes
 * @nbr: n * 8 neighbours (R2C2_IDX_NONE: no link)
 * @nbr_port: n * 8 far-end ports as the kernel knows them (the port of
 *	the neighbour each link lands on; R2C2_PORT_UNKNOWN, or a port that
 *	does not lead back, where unknown), or NULL: all unknown
 * @cap: n * 8 capacities, > 0 for every link
 *
 * A far-end port that is not given is guessed from the reverse links (0
 * if none): port p of u lands on port p ^ 1 of v when that port leads
 * back to u (the wiring of a torus, r2c2_torus_nbrs(), which DOR's ties
 * depend on: common/paths.c), else on v's lowest port back to u that no
 * lower port of u to v lands on (parallel links pair up one to one), else
 * on the lowest port back (more links u -> v than back). The guess can
 * be wrong where parallel links are wired otherwise (u's port 0 to v's
 * port 0, say): r2c2d gives the ports of r2c2.ko's graph.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int r2c2_topo_from_adj_ports(struct r2c2_topo **tp, u16 n, const u16 *nbr,
			     const u8 *nbr_port, const double *cap)
{
	return r2c2_topo_from_adj_prev(tp, n, nbr, nbr_port, cap, NULL);
}

/**
 * r2c2_topo_from_adj_prev() - a graph a few link changes away from another
 * @tp: out
 * @n: nodes
 * @nbr: as r2c2_topo_from_adj_ports()
 * @nbr_port: as r2c2_topo_from_adj_ports()
 * @cap: as r2c2_topo_from_adj_ports()
 * @prev: the graph before the change, or NULL; read only, for the paths
 *
 * r2c2_topo_from_adj_ports(), the same graph and tables, its paths found
 * from @prev's where links only failed or only came back
 * (r2c2_paths_update()), else searched in full.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int r2c2_topo_from_adj_prev(struct r2c2_topo **tp, u16 n, const u16 *nbr,
			    const u8 *nbr_port, const double *cap,
			    const struct r2c2_topo *prev)
{
	struct r2c2_topo *t;
	unsigned int u, p, q, f;
	int ret;

	*tp = NULL;
	if (!n || n > 0xfffe)
		return -EINVAL;
	t = topo_alloc(n);
	if (!t)
		return -ENOMEM;
	t->kind = R2C2_TOPO_GRAPH;
	memcpy(t->nbr, nbr, R2C2_NLINKS(n) * sizeof(*nbr));
	memcpy(t->cap, cap, R2C2_NLINKS(n) * sizeof(*cap));
	for (u = 0; u < n; u++)
		for (p = 0; p < R2C2_MAX_PORTS; p++) {
			u16 v = nbr[u * R2C2_MAX_PORTS + p];

			if (v == R2C2_IDX_NONE)
				continue;
			if (v >= n) {
				ret = -EINVAL;
				goto fail;
			}
			q = nbr_port ? nbr_port[u * R2C2_MAX_PORTS + p] :
				       R2C2_PORT_UNKNOWN;
			if (q < R2C2_MAX_PORTS &&
			    nbr[v * R2C2_MAX_PORTS + q] == u) {
				t->nbr_port[u * R2C2_MAX_PORTS + p] = (u8)q;
				continue;
			}
			if (nbr[v * R2C2_MAX_PORTS + (p ^ 1)] == u) {
				t->nbr_port[u * R2C2_MAX_PORTS + p] = (u8)(p ^ 1);
				continue;
			}
			for (q = 0; q < R2C2_MAX_PORTS; q++)
				if (nbr[v * R2C2_MAX_PORTS + q] == u &&
				    !port_taken(t, nbr, u, p, v, q))
					break;
			/* more links u -> v than back: share the first */
			for (f = 0; q == R2C2_MAX_PORTS && f < R2C2_MAX_PORTS; f++)
				if (nbr[v * R2C2_MAX_PORTS + f] == u)
					q = f;
			if (q < R2C2_MAX_PORTS)
				t->nbr_port[u * R2C2_MAX_PORTS + p] = (u8)q;
		}
	ret = topo_finish(t, prev);
	if (ret)
		goto fail;
	*tp = t;
	return 0;
fail:
	r2c2_topo_free(t);
	return ret;
}

/**
 * r2c2_topo_from_adj() - an arbitrary graph, its far-end ports guessed
 * @tp: out
 * @n: nodes
 * @nbr: n * 8 neighbours (R2C2_IDX_NONE: no link)
 * @cap: n * 8 capacities, > 0 for every link
 *
 * r2c2_topo_from_adj_ports() with no port known.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int r2c2_topo_from_adj(struct r2c2_topo **tp, u16 n, const u16 *nbr,
		       const double *cap)
{
	return r2c2_topo_from_adj_ports(tp, n, nbr, NULL, cap);
}

void r2c2_topo_free(struct r2c2_topo *t)
{
	if (!t)
		return;
	r2c2_paths_free(&t->paths);
	free(t->nbr);
	free(t->nbr_port);
	free(t->cap);
	free(t);
}

static const char *const rproto_names[__R2C2_RP_MAX] = {
	[R2C2_RP_RPS] = "rps",
	[R2C2_RP_DOR] = "dor",
	[R2C2_RP_VLB] = "vlb",
	[R2C2_RP_WLB] = "wlb",
};

int r2c2_parse_rproto(const char *s)
{
	int i;

	for (i = 0; i < __R2C2_RP_MAX; i++)
		if (!strcasecmp(s, rproto_names[i]))
			return i;
	return -EINVAL;
}

const char *r2c2_rproto_name(int rproto)
{
	return rproto >= 0 && rproto < __R2C2_RP_MAX ? rproto_names[rproto] : "?";
}

/**
 * r2c2_topo_parse() - build a topology from a command-line spec
 * @tp: out
 * @spec: "torus:K1[xK2[xK3]]", "mesh:K1[xK2[xK3]]", "file:PATH" or a path
 * @cap: capacity of grid links, default for file links
 * @err: message on failure
 * @errlen: size of @err
 *
 * Return: 0, -EINVAL, -ENOENT (file) or -ENOMEM.
 */
int r2c2_topo_parse(struct r2c2_topo **tp, const char *spec, double cap,
		    char *err, size_t errlen)
{
	unsigned int ndims, n, i;
	u8 dims[R2C2_MAX_DIMS];
	bool wrap;
	int ret;

	*tp = NULL;
	if (!strncmp(spec, "torus:", 6) || !strncmp(spec, "mesh:", 5)) {
		wrap = spec[0] == 't';
		if (r2c2_parse_dims(spec + (wrap ? 6 : 5), dims, &ndims)) {
			seterr(err, errlen,
			       "topology '%s': expected torus:K1[xK2[xK3]], mesh:K1[xK2[xK3]], file:PATH or PATH, each K in 2..255",
			       spec);
			return -EINVAL;
		}
		for (n = 1, i = 0; i < ndims; i++)
			n *= dims[i];
		if (n > R2C2_ALLOC_MAX_NODES) {
			seterr(err, errlen,
			       "topology '%s': %u nodes, more than the allocator takes (%u)",
			       spec, n, R2C2_ALLOC_MAX_NODES);
			return -E2BIG;
		}
		ret = r2c2_topo_grid(tp, dims, ndims, wrap, cap);
		if (ret == -EINVAL)
			seterr(err, errlen, "topology '%s': %s", spec,
			       !(cap > 0) ? "capacity must be positive" :
			       "too many nodes (max 65534)");
		else if (ret)
			seterr(err, errlen, "topology '%s': %s", spec, strerror(-ret));
		return ret;
	}
	if (!strncmp(spec, "file:", 5))
		spec += 5;
	return r2c2_topo_load(tp, spec, cap, err, errlen);
}

int r2c2_read_line(FILE *fp, char *buf, size_t size, const char *path,
		   unsigned int *lineno, char *err, size_t errlen)
{
	size_t len = 0;
	char *hash;
	int c;

	errno = 0;
	while ((c = getc(fp)) != EOF && c != '\n') {
		if (!c) {
			seterr(err, errlen, "%s:%u: NUL byte at column %zu",
			       path, *lineno + 1, len + 1);
			return -EILSEQ;
		}
		if (len + 1 >= size) {
			seterr(err, errlen, "%s:%u: line too long", path,
			       *lineno + 1);
			return -E2BIG;
		}
		buf[len++] = (char)c;
	}
	if (c == EOF && ferror(fp)) {
		seterr(err, errlen, "%s: read error: %s", path,
		       strerror(errno ? errno : EIO));
		return errno ? -errno : -EIO;
	}
	if (c == EOF && !len)
		return 0;
	buf[len] = 0;
	hash = strchr(buf, '#');
	if (hash)
		*hash = 0;
	(*lineno)++;
	return 1;
}

static int parse_node(const char *s, unsigned int n, unsigned int *out)
{
	uint64_t v;

	if (r2c2_parse_uint(s, false, 0, n - 1, &v))
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

/**
 * r2c2_topo_load() - read a topology file
 * @tp: out
 * @path: file; its format (one directive a line, '#' comments):
 *	nodes N                  first directive, 1..R2C2_ALLOC_MAX_NODES nodes
 *	capacity RATE            default capacity of the links that follow
 *	link U V [RATE]          directed link U -> V
 *	duplex U V [RATE]        links U -> V and V -> U
 *	Each link takes the next free port of its tail node (8 at most),
 *	in file order; at most 8 links may end at a node.
 * @cap: default capacity before any "capacity" line (0: links must name one)
 * @err: message naming the file and line on failure
 * @errlen: size of @err
 *
 * Return: 0, -ENOENT, -EINVAL or -ENOMEM.
 */
int r2c2_topo_load(struct r2c2_topo **tp, const char *path, double cap,
		   char *err, size_t errlen)
{
	FILE *fp = fopen(path, "r");
	char buf[1024], *w[8];
	u16 *nbr = NULL;
	double *caps = NULL;
	u8 *nports = NULL, *nin = NULL;
	unsigned int n = 0, lineno = 0, nlinks = 0;
	double dcap = cap;
	int ret = -EINVAL, nw;

	*tp = NULL;
	if (!fp) {
		seterr(err, errlen, "%s: %s", path, strerror(errno));
		return -ENOENT;
	}
	for (;;) {
		unsigned int u, v, k;
		double c;

		nw = r2c2_read_line(fp, buf, sizeof(buf), path, &lineno, err,
				    errlen);
		if (!nw)
			break;
		if (nw < 0)
			goto out;
		nw = r2c2_split_words(buf, w, 4);
		if (!nw)
			continue;
		if (!strcmp(w[0], "nodes")) {
			uint64_t v2;

			if (n) {
				seterr(err, errlen, "%s:%u: 'nodes' given twice", path, lineno);
				goto out;
			}
			if (nw != 2 || r2c2_parse_uint(w[1], false, 1, R2C2_ALLOC_MAX_NODES, &v2)) {
				seterr(err, errlen, "%s:%u: expected 'nodes N' with N in 1..%u (the allocator's limit)",
				       path, lineno, R2C2_ALLOC_MAX_NODES);
				goto out;
			}
			n = (unsigned int)v2;
			nbr = malloc(R2C2_NLINKS(n) * sizeof(*nbr));
			caps = calloc(R2C2_NLINKS(n), sizeof(*caps));
			nports = calloc(n, 1);
			nin = calloc(n, 1);
			if (!nbr || !caps || !nports || !nin) {
				ret = -ENOMEM;
				seterr(err, errlen, "%s: out of memory", path);
				goto out;
			}
			memset(nbr, 0xff, R2C2_NLINKS(n) * sizeof(*nbr));
			continue;
		}
		if (!strcmp(w[0], "capacity")) {
			if (nw != 2 || r2c2_parse_rate(w[1], &dcap) || !(dcap > 0)) {
				seterr(err, errlen, "%s:%u: expected 'capacity RATE' with 0 < RATE <= %g bit/s",
				       path, lineno, R2C2_PARSE_RATE_MAX);
				goto out;
			}
			continue;
		}
		if (strcmp(w[0], "link") && strcmp(w[0], "duplex")) {
			seterr(err, errlen, "%s:%u: unknown directive '%s' (nodes, capacity, link, duplex)",
			       path, lineno, w[0]);
			goto out;
		}
		if (!n) {
			seterr(err, errlen, "%s:%u: 'nodes N' must come first", path, lineno);
			goto out;
		}
		if (nw < 3 || nw > 4) {
			seterr(err, errlen, "%s:%u: expected '%s U V [RATE]'", path, lineno, w[0]);
			goto out;
		}
		if (parse_node(w[1], n, &u) || parse_node(w[2], n, &v)) {
			seterr(err, errlen, "%s:%u: unknown node '%s' (nodes are 0..%u)", path,
			       lineno, parse_node(w[1], n, &u) ? w[1] : w[2], n - 1);
			goto out;
		}
		if (u == v) {
			seterr(err, errlen, "%s:%u: link from node %u to itself", path, lineno, u);
			goto out;
		}
		c = dcap;
		if (nw == 4 && (r2c2_parse_rate(w[3], &c))) {
			seterr(err, errlen, "%s:%u: malformed rate '%s' (0 < RATE <= %g bit/s)",
			       path, lineno, w[3], R2C2_PARSE_RATE_MAX);
			goto out;
		}
		if (!(c > 0)) {
			seterr(err, errlen, "%s:%u: link %u -> %u has zero capacity%s", path,
			       lineno, u, v, nw == 4 ? "" : " (no 'capacity' line or --capacity)");
			goto out;
		}
		for (k = 0; k < (w[0][0] == 'd' ? 2u : 1u); k++) {
			unsigned int a = k ? v : u, b = k ? u : v;

			if (nports[a] >= R2C2_MAX_PORTS) {
				seterr(err, errlen, "%s:%u: node %u has more than %d links", path,
				       lineno, a, R2C2_MAX_PORTS);
				goto out;
			}
			/* r2c2_paths_build() refuses it too, without a line */
			if (nin[b] >= R2C2_MAX_PORTS) {
				seterr(err, errlen, "%s:%u: node %u has more than %d links into it",
				       path, lineno, b, R2C2_MAX_PORTS);
				goto out;
			}
			nin[b]++;
			nbr[a * R2C2_MAX_PORTS + nports[a]] = (u16)b;
			caps[a * R2C2_MAX_PORTS + nports[a]] = c;
			nports[a]++;
			nlinks++;
		}
	}
	if (!n) {
		seterr(err, errlen, "%s:%u: no 'nodes N' line", path, lineno);
		goto out;
	}
	if (!nlinks) {
		seterr(err, errlen, "%s:%u: no links", path, lineno);
		goto out;
	}
	ret = r2c2_topo_from_adj(tp, (u16)n, nbr, caps);
	if (ret)
		seterr(err, errlen, "%s: %s", path, strerror(-ret));
out:
	fclose(fp);
	free(nbr);
	free(caps);
	free(nports);
	free(nin);
	return ret;
}
