// SPDX-License-Identifier: GPL-2.0
/*
 * pattern_bench.c - throughput of each routing protocol under the
 * standard traffic patterns of a torus, as a fraction of its capacity:
 * the table of the R2C2 paper's Figure 2 (from Dally and Towles,
 * "Principles and Practices of Interconnection Networks", for an 8-ary
 * 2-cube), computed from the very link weights the allocator and the
 * kernel's route sampler use (r2c2_link_weights_add(), common/paths.c).
 *
 * usage: pattern_bench [-t KxK[xK]] [-p ORDER,ORDER] [-o FILE]
 *
 * At most 144 nodes: the link weights of every pair are kept.
 *
 * Every node injects traffic at rate 1 (in units of a link's capacity),
 * spread over destinations as the pattern says; a link's load is the
 * sum over pairs of rate x the pair's expected crossings of the link
 * under the protocol, and the throughput is 1 / the largest load: the
 * injection rate at which the busiest link saturates. It is divided by
 * the torus's capacity, the ideal throughput of uniform traffic:
 * links / (nodes x mean minimal hop count), 8/k for a k-ary n-cube of
 * even k (1 for 8x8).
 *
 * Patterns, with coordinates (x, y[, z]) and radix k along x:
 *   neighbour   to each of the 2n neighbours, a 1/(2n) share each
 *   uniform     to every node, itself included, 1/N each
 *   complement  to (k1-1-x, k2-1-y, ...): bit complement for radices
 *               that are powers of two
 *   transpose   (x, y, z...) to (y, x, z...): square in x and y only
 *   tornado     to (x + ceil(k1/2) - 1 mod k1, y, ...)
 *   worst       the permutation that loads some link most: for each
 *               link the assignment maximising the sum of the pairs'
 *               weights on it (Hungarian algorithm), the largest over
 *               the links (Towles and Dally, 2002); every traffic
 *               matrix is a mix of permutations, so it is the worst of
 *               all admissible traffic
 *
 * Besides r2c2's protocols, two reference columns that are not r2c2's:
 * ROMM (the table's randomized minimal protocol) and RLB (its
 * "weighted load balancing"), computed here on the torus's coordinates
 * by walking every intermediate's route: r2c2's WLB, the same algorithm
 * from common/paths.c, must give the RLB column's values with -p dor,dor.
 * -p sets the order in which their two phases (to the intermediate and
 * from it) cross the dimensions: dor (x, then y, then z: the default),
 * rev (z, y, x), any (every order equally likely) or box (uniform over
 * the minimal paths of the phase's box), e.g. -p dor,rev.
 *
 * Prints a table (pattern, then one column a protocol) and, with -o, the
 * same as TSV with a header line naming the command. Throughputs are
 * exact up to floating point; the run takes about a second at 8x8.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "r2c2_alloc.h"

#define NPROTO	6	/* r2c2's four, then ROMM and RLB (not r2c2's) */
#define ROMM	4
#define RLB	5
#define NPAT	6
#define PB_MAX_NODES	144

static const char *const proto_name[NPROTO] = {
	"rps", "dor", "vlb", "wlb", "romm", "rlb",
};
static const char *const pat_name[NPAT] = {
	"neighbour", "uniform", "complement", "transpose", "tornado", "worst",
};

static unsigned int coord(const struct r2c2_topo *t, unsigned int id,
			  unsigned int i)
{
	unsigned int j;

	for (j = 0; j < i; j++)
		id /= t->dims[j];
	return id % t->dims[i];
}

static unsigned int node_of(const struct r2c2_topo *t, const unsigned int *c)
{
	unsigned int id = 0, i = t->ndims;

	while (i--)
		id = id * t->dims[i] + c[i];
	return id;
}

/* the destination of s under a permutation pattern */
static unsigned int perm_dst(const struct r2c2_topo *t, int pat,
			     unsigned int s)
{
	unsigned int c[R2C2_MAX_DIMS], i, tmp;

	for (i = 0; i < t->ndims; i++)
		c[i] = coord(t, s, i);
	switch (pat) {
	case 2:
		for (i = 0; i < t->ndims; i++)
			c[i] = t->dims[i] - 1 - c[i];
		break;
	case 3:
		tmp = c[0];
		c[0] = c[1];
		c[1] = tmp;
		break;
	case 4:
		c[0] = (c[0] + (t->dims[0] + 1) / 2 - 1) % t->dims[0];
		break;
	}
	return node_of(t, c);
}

enum { ORD_DOR, ORD_REV, ORD_ANY, ORD_BOX, NORD };
static const char *const ord_name[NORD] = { "dor", "rev", "any", "box" };
/* the orders of ROMM's and RLB's two phases (-p) */
static int phase_ord[2];

/* n choose k, as a double */
static double choose(unsigned int n, unsigned int k)
{
	double r = 1;
	unsigned int j;

	for (j = 1; j <= k; j++)
		r = r * (n - k + j) / j;
	return r;
}

/* the number of minimal paths through a box of sides a[] */
static double box_paths(unsigned int nd, const unsigned int *a)
{
	unsigned int i, tot = 0;
	double r = 1;

	for (i = 0; i < nd; i++) {
		tot += a[i];
		r *= choose(tot, a[i]);
	}
	return r;
}

/* add f to the links of dimension order pm[0..nd) from u, len[i] hops along dir[i] */
static void walk(const struct r2c2_topo *t, unsigned int u, const u8 *pm,
		 const int *dir, const unsigned int *len, double f, double *w)
{
	unsigned int j, h;

	for (j = 0; j < t->ndims; j++) {
		unsigned int port = 2 * pm[j] + (dir[pm[j]] < 0);

		for (h = 0; h < len[pm[j]]; h++) {
			w[(size_t)u * R2C2_MAX_PORTS + port] += f;
			u = t->nbr[u * R2C2_MAX_PORTS + port];
		}
	}
}

/*
 * One phase from u: len[i] hops along dir[i] in each dimension i, the
 * dimensions crossed in the order ord; adds f times each link's share to
 * w and returns the node reached
 */
static unsigned int phase(const struct r2c2_topo *t, unsigned int u,
			  const int *dir, const unsigned int *len, int ord,
			  double f, double *w)
{
	/* the orders of 3 dimensions; of 1 or 2, those that start so */
	static const u8 perms[6][3] = { { 0, 1, 2 }, { 1, 0, 2 }, { 0, 2, 1 },
					{ 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 } };
	static const u8 rev[3][3] = { { 0 }, { 1, 0 }, { 2, 1, 0 } };
	unsigned int nd = t->ndims, i, j, h, m, k, np;
	unsigned int a[R2C2_MAX_DIMS], b[R2C2_MAX_DIMS], cells = 1, end = u;
	double all;

	for (i = 0; i < nd; i++)
		for (h = 0; h < len[i]; h++)
			end = t->nbr[end * R2C2_MAX_PORTS + 2 * i + (dir[i] < 0)];
	if (ord == ORD_DOR || ord == ORD_REV) {
		walk(t, u, ord == ORD_DOR ? perms[0] : rev[nd - 1], dir, len, f, w);
		return end;
	}
	if (ord == ORD_ANY) {
		np = nd == 3 ? 6 : nd;
		for (k = 0; k < np; k++)
			walk(t, u, perms[k], dir, len, f / np, w);
		return end;
	}
	/*
	 * uniform over the box's minimal paths: the link from the box's
	 * cell a onwards along i is on paths(a) * paths(rest after it)
	 */
	all = box_paths(nd, len);
	for (i = 0; i < nd; i++)
		cells *= len[i] + 1;
	for (m = 0; m < cells; m++) {
		unsigned int v = u, rest = m;

		for (i = 0; i < nd; i++) {
			a[i] = rest % (len[i] + 1);
			rest /= len[i] + 1;
			for (h = 0; h < a[i]; h++)
				v = t->nbr[v * R2C2_MAX_PORTS + 2 * i + (dir[i] < 0)];
		}
		for (i = 0; i < nd; i++) {
			if (a[i] == len[i])
				continue;
			for (j = 0; j < nd; j++)
				b[j] = len[j] - a[j];
			b[i]--;
			w[(size_t)v * R2C2_MAX_PORTS + 2 * i + (dir[i] < 0)] +=
				f * box_paths(nd, a) * box_paths(nd, b) / all;
		}
	}
	return end;
}

/*
 * Two-phase routing through a quadrant, on the torus's coordinates: in
 * each dimension a direction (+ or -) with a probability, then, in the
 * quadrant so chosen, an intermediate q uniform over the box between s
 * and d, and s -> q and q -> d inside the quadrant, each in dimension
 * order (or as -p says: phase()). The directions:
 *
 * RLB (Singh, Dally, Towles and Gupta, "Locality-preserving randomized
 * oblivious routing on torus networks", 2002): with D the offset the +
 * way, the + way with probability (k - D) / k and the - way with D / k.
 *
 * ROMM (Nesson and Johnsson's randomized minimal routing, the "minimal"
 * column of Dally and Towles's table): the minimal way, each of the two
 * with probability 1/2 where both are (an offset of k/2).
 */
static int quad_weights(const struct r2c2_topo *t, unsigned int s,
			unsigned int d, bool minimal, double *w)
{
	unsigned int nd = t->ndims, i, q, nq, span[R2C2_MAX_DIMS];
	unsigned int l1[R2C2_MAX_DIMS], l2[R2C2_MAX_DIMS], rest, m;
	int dir[R2C2_MAX_DIMS];
	double pq;

	for (q = 0; q < 1u << nd; q++) {
		pq = 1;
		nq = 1;
		for (i = 0; i < nd; i++) {
			unsigned int k = t->dims[i];
			unsigned int off = (coord(t, d, i) + k - coord(t, s, i)) % k;

			dir[i] = q >> i & 1 ? -1 : 1;
			span[i] = dir[i] > 0 ? off : (k - off) % k;
			if (!minimal)
				pq *= dir[i] > 0 ? (double)(k - off) / k :
						   (double)off / k;
			else if (2 * off == k)
				pq *= 0.5;
			else if (dir[i] != (2 * off < k ? 1 : -1))
				pq = 0;
			nq *= span[i] + 1;
		}
		if (pq == 0)
			continue;
		for (m = 0; m < nq; m++) {
			rest = m;
			for (i = 0; i < nd; i++) {
				l1[i] = rest % (span[i] + 1);
				l2[i] = span[i] - l1[i];
				rest /= span[i] + 1;
			}
			phase(t, phase(t, s, dir, l1, phase_ord[0], pq / nq, w),
			      dir, l2, phase_ord[1], pq / nq, w);
		}
	}
	return 0;
}

/*
 * Expected crossings of each link by one packet s -> d: r2c2's protocols
 * from r2c2_link_weights_add(), ROMM and RLB from quad_weights().
 */
static int pair_weights(const struct r2c2_topo *t, unsigned int pr,
			unsigned int s, unsigned int d, double *w)
{
	if (pr == ROMM || pr == RLB)
		return quad_weights(t, s, d, pr == ROMM, w);
	return r2c2_link_weights_add(&t->paths, (u8)pr, (u16)s, (u16)d, 1.0,
				     w);
}

/*
 * Largest sum of a[i][pi(i)] over permutations pi of n: the Hungarian
 * algorithm (shortest augmenting paths with potentials) on costs -a.
 * u, v, p, way, minv, used: scratch of n + 1 each.
 */
static double max_assignment(const double *a, unsigned int n, double *u,
			     double *v, unsigned int *p, unsigned int *way,
			     double *minv, char *used)
{
	unsigned int i, j, j0, j1;
	double sum = 0;

	for (j = 0; j <= n; j++) {
		u[j] = 0;
		v[j] = 0;
		p[j] = 0;
	}
	for (i = 1; i <= n; i++) {
		p[0] = i;
		j0 = 0;
		for (j = 0; j <= n; j++) {
			minv[j] = DBL_MAX;
			used[j] = 0;
		}
		do {
			unsigned int i0 = p[j0];
			double delta = DBL_MAX;

			used[j0] = 1;
			j1 = 0;
			for (j = 1; j <= n; j++) {
				double cur;

				if (used[j])
					continue;
				cur = -a[(size_t)(i0 - 1) * n + j - 1] - u[i0] - v[j];
				if (cur < minv[j]) {
					minv[j] = cur;
					way[j] = j0;
				}
				if (minv[j] < delta) {
					delta = minv[j];
					j1 = j;
				}
			}
			for (j = 0; j <= n; j++) {
				if (used[j]) {
					u[p[j]] += delta;
					v[j] -= delta;
				} else {
					minv[j] -= delta;
				}
			}
			j0 = j1;
		} while (p[j0]);
		do {
			j1 = way[j0];
			p[j0] = p[j1];
			j0 = j1;
		} while (j0);
	}
	for (j = 1; j <= n; j++)
		sum += a[(size_t)(p[j] - 1) * n + j - 1];
	return sum;
}

/* "A,B": the orders of the two phases (-p) */
static int parse_orders(const char *arg)
{
	const char *comma = strchr(arg, ',');
	int ph, o;

	if (!comma)
		return -1;
	for (ph = 0; ph < 2; ph++) {
		const char *p = ph ? comma + 1 : arg;
		size_t len = ph ? strlen(p) : (size_t)(comma - arg);

		for (o = 0; o < NORD; o++)
			if (strlen(ord_name[o]) == len && !strncmp(p, ord_name[o], len))
				break;
		if (o == NORD)
			return -1;
		phase_ord[ph] = o;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *spec = "torus:8x8", *out = NULL;
	double thr[NPAT][NPROTO], cap_ideal, hops = 0, *w, *load, *a;
	double *u, *v, *minv;
	unsigned int *pp, *way, n, nl, s, d, l, k, pr, pat;
	struct r2c2_topo *t;
	char err[256], specbuf[64], *used;
	FILE *f;
	int c;

	while ((c = getopt(argc, argv, "t:p:o:h")) != -1) {
		switch (c) {
		case 'p':
			if (parse_orders(optarg)) {
				fprintf(stderr, "pattern_bench: -p %s: want ORDER,ORDER, each dor, rev, any or box\n",
					optarg);
				return 2;
			}
			break;
		case 't':
			snprintf(specbuf, sizeof(specbuf), "torus:%s", optarg);
			spec = specbuf;
			break;
		case 'o':
			out = optarg;
			break;
		default:
			fprintf(stderr, "usage: %s [-t KxK[xK]] [-p ORDER,ORDER] [-o FILE]\n",
				argv[0]);
			return c == 'h' ? 0 : 2;
		}
	}
	if (r2c2_topo_parse(&t, spec, 1.0, err, sizeof(err))) {
		fprintf(stderr, "pattern_bench: %s\n", err);
		return 1;
	}
	/* every pair's weights are kept: n^3 x 64 bytes (144 MB at 12x12) */
	if (t->n > PB_MAX_NODES) {
		fprintf(stderr, "pattern_bench: %s: %u nodes, at most %u (every pair's link weights are kept)\n",
			spec, t->n, PB_MAX_NODES);
		return 1;
	}
	if (t->ndims < 2 || t->dims[0] != t->dims[1]) {
		fprintf(stderr, "pattern_bench: %s: transpose needs two dimensions of the same radix\n",
			spec);
		return 1;
	}
	n = t->n;
	nl = (unsigned int)n * R2C2_MAX_PORTS;
	/* w[(s * n + d) * nl + l]: the pair's expected crossings of link l */
	w = calloc((size_t)n * n * nl, sizeof(*w));
	load = calloc(nl, sizeof(*load));
	a = calloc((size_t)n * n, sizeof(*a));
	u = calloc(n + 1, sizeof(*u));
	v = calloc(n + 1, sizeof(*v));
	minv = calloc(n + 1, sizeof(*minv));
	pp = calloc(n + 1, sizeof(*pp));
	way = calloc(n + 1, sizeof(*way));
	used = calloc(n + 1, 1);
	if (!w || !load || !a || !u || !v || !minv || !pp || !way || !used) {
		fprintf(stderr, "pattern_bench: out of memory\n");
		return 1;
	}
	for (s = 0; s < n; s++)
		for (d = 0; d < n; d++)
			hops += t->paths.dist[(size_t)d * n + s];
	cap_ideal = t->nlinks / (hops / n);

	for (pr = 0; pr < NPROTO; pr++) {
		memset(w, 0, (size_t)n * n * nl * sizeof(*w));
		for (s = 0; s < n; s++)
			for (d = 0; d < n; d++)
				if (s != d && pair_weights(t, pr, s, d,
							   w + ((size_t)s * n + d) * nl)) {
					fprintf(stderr, "pattern_bench: no weights for %u -> %u\n",
						s, d);
					return 1;
				}
		for (pat = 0; pat < NPAT - 1; pat++) {
			double max = 0;

			memset(load, 0, nl * sizeof(*load));
			for (s = 0; s < n; s++) {
				const double *ws = w + (size_t)s * n * nl;

				if (pat == 0) {
					for (k = 0; k < 2u * t->ndims; k++) {
						d = t->nbr[s * R2C2_MAX_PORTS + k];
						for (l = 0; l < nl; l++)
							load[l] += ws[(size_t)d * nl + l] /
								   (2 * t->ndims);
					}
				} else if (pat == 1) {
					for (d = 0; d < n; d++)
						for (l = 0; l < nl; l++)
							load[l] += ws[(size_t)d * nl + l] / n;
				} else {
					d = perm_dst(t, (int)pat, s);
					for (l = 0; l < nl; l++)
						load[l] += ws[(size_t)d * nl + l];
				}
			}
			for (l = 0; l < nl; l++)
				max = fmax(max, load[l]);
			thr[pat][pr] = 1 / max / cap_ideal;
		}
		/* worst case: per link, the heaviest permutation */
		{
			double max = 0;

			for (l = 0; l < nl; l++) {
				if (t->nbr[l] == R2C2_IDX_NONE)
					continue;
				for (s = 0; s < n; s++)
					for (d = 0; d < n; d++)
						a[(size_t)s * n + d] =
							w[((size_t)s * n + d) * nl + l];
				max = fmax(max, max_assignment(a, n, u, v, pp,
							       way, minv, used));
			}
			thr[NPAT - 1][pr] = 1 / max / cap_ideal;
		}
	}

	printf("%s: capacity %.4g (links / (nodes x mean hops)); throughput as a fraction of it\n",
	       spec, cap_ideal);
	printf("%-11s", "pattern");
	for (pr = 0; pr < NPROTO; pr++)
		printf(" %7s", proto_name[pr]);
	printf("\n");
	for (pat = 0; pat < NPAT; pat++) {
		printf("%-11s", pat_name[pat]);
		for (pr = 0; pr < NPROTO; pr++)
			printf(" %7.4f", thr[pat][pr]);
		printf("\n");
	}
	if (out) {
		f = fopen(out, "w");
		if (!f) {
			perror(out);
			return 1;
		}
		fprintf(f, "# pattern_bench -t %s", spec + strlen("torus:"));
		if (phase_ord[0] != ORD_DOR || phase_ord[1] != ORD_DOR)
			fprintf(f, " -p %s,%s", ord_name[phase_ord[0]],
				ord_name[phase_ord[1]]);
		fprintf(f, " (userspace/bench/pattern_bench.c); capacity %.6g\n",
			cap_ideal);
		fprintf(f, "pattern");
		for (pr = 0; pr < NPROTO; pr++)
			fprintf(f, "\t%s", proto_name[pr]);
		fprintf(f, "\n");
		for (pat = 0; pat < NPAT; pat++) {
			fprintf(f, "%s", pat_name[pat]);
			for (pr = 0; pr < NPROTO; pr++)
				fprintf(f, "\t%.6f", thr[pat][pr]);
			fprintf(f, "\n");
		}
		if (fclose(f)) {
			perror(out);
			return 1;
		}
	}
	free(w);
	free(load);
	free(a);
	free(u);
	free(v);
	free(minv);
	free(pp);
	free(way);
	free(used);
	r2c2_topo_free(t);
	return 0;
}
