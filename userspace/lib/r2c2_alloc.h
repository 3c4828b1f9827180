/* SPDX-License-Identifier: GPL-2.0 */
/*
 * r2c2_alloc.h - the R2C2 allocation engine (userspace, no kernel
 * dependency): topologies, per-link weights of the routing protocols,
 * weighted max-min water-filling (R2C2 §3.3), proportional fairness with
 * NED + F-NORM (Flowtune §3-4) and genetic route selection (R2C2 §3.4).
 *
 * No global state. Objects are either read-only after construction
 * (struct r2c2_topo, struct r2c2_rtab once prepared) and may be shared by
 * threads, or owned by one thread at a time (struct r2c2_ws, struct
 * r2c2_pf). Every function returns 0 or a negative errno.
 *
 * Rates and capacities are doubles in one unit of the caller's choice
 * (the CLI uses bit/s).
 */
#ifndef _R2C2_ALLOC_H
#define _R2C2_ALLOC_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <r2c2/paths.h>

#define R2C2_NLINKS(n)		((size_t)(n) * R2C2_MAX_PORTS)
#define R2C2_PRIO_LEVELS	16
#define R2C2_HEADROOM_DEFAULT	0.05
/* rates r2c2_parse_rate() accepts, bit/s (1,000,000T) */
#define R2C2_PARSE_RATE_MAX	1e18
/* weights flow files accept: what the wire carries (struct r2c2_flow_evt) */
#define R2C2_WEIGHT_MIN		1
#define R2C2_WEIGHT_MAX		255

/* ---------------------------------------------------------------- */
/* Topologies                                                        */
/* ---------------------------------------------------------------- */

enum r2c2_topo_kind {
	R2C2_TOPO_TORUS,
	R2C2_TOPO_MESH,
	R2C2_TOPO_GRAPH,
};

/**
 * struct r2c2_topo - a rack topology
 * @kind: enum r2c2_topo_kind
 * @n: number of nodes
 * @ndims: torus/mesh: number of dimensions
 * @dims: torus/mesh: radix of each dimension
 * @nbr: n * 8 neighbour indices (R2C2_IDX_NONE: no link)
 * @nbr_port: n * 8 ports on the neighbour side
 * @cap: n * 8 link capacities (0 where there is no link)
 * @nlinks: number of existing directed links
 * @paths: minimal-path tables (common/paths.c)
 */
struct r2c2_topo {
	int kind;
	u16 n;
	u8 ndims;
	u8 dims[R2C2_MAX_DIMS];
	u16 *nbr;
	u8 *nbr_port;
	double *cap;
	unsigned int nlinks;
	struct r2c2_paths paths;
};

/**
 * r2c2_topo_reaches() - whether a topology has a path between two nodes
 * @t: the topology
 * @src: source node, below @t->n
 * @dst: destination node, below @t->n
 *
 * Return: false when @dst cannot be reached from @src (a node gone, a
 * partition): neither the kernel nor the allocator can route the pair.
 */
static inline bool r2c2_topo_reaches(const struct r2c2_topo *t, u16 src,
				     u16 dst)
{
	return t->paths.dist[(size_t)dst * t->n + src] != R2C2_DIST_INF;
}

int r2c2_topo_grid(struct r2c2_topo **tp, const u8 *dims, unsigned int ndims,
		   bool wrap, double cap);
int r2c2_topo_from_adj(struct r2c2_topo **tp, u16 n, const u16 *nbr,
		       const double *cap);
/* a far-end port not known (r2c2_topo_from_adj_ports()) */
#define R2C2_PORT_UNKNOWN	0xff
int r2c2_topo_from_adj_ports(struct r2c2_topo **tp, u16 n, const u16 *nbr,
			     const u8 *nbr_port, const double *cap);
int r2c2_topo_from_adj_prev(struct r2c2_topo **tp, u16 n, const u16 *nbr,
			    const u8 *nbr_port, const double *cap,
			    const struct r2c2_topo *prev);
/*
 * Where r2c2_paths_update() searching again more (node, destination)
 * entries than this is slower than a full search: each costs about 1 / 12
 * of an entry of r2c2_paths_build() (8x8x8: one link cut both ways
 * searches 5.6 % of them again in 1.3 ms, against 2.1 ms for all; four
 * links 16.5 % in 4.1 ms)
 */
#define R2C2_PATHS_UPDATE_BUDGET(n)	((size_t)(n) * (n) / 12)
int r2c2_paths_update(struct r2c2_paths *p, const struct r2c2_paths *old,
		      const u16 *nbr, const u8 *nbr_port, size_t budget);
/*
 * spec: "torus:8x8x8", "mesh:4x4", "file:PATH" or a path. On error,
 * err receives a message naming the file and line where applicable.
 */
int r2c2_topo_parse(struct r2c2_topo **tp, const char *spec, double cap,
		    char *err, size_t errlen);
int r2c2_topo_load(struct r2c2_topo **tp, const char *path, double cap,
		   char *err, size_t errlen);
void r2c2_topo_free(struct r2c2_topo *t);

/*
 * The next line of topology or flow file path into buf (size bytes),
 * without its newline and its "#" comment; *lineno counts the lines.
 * Return: 1, 0 at the end of the file, or a negative errno with the
 * message, naming the file and line, in err: -E2BIG for a line of size
 * or more characters, -EILSEQ for a NUL byte (and its column), or that
 * of a read error.
 */
int r2c2_read_line(FILE *fp, char *buf, size_t size, const char *path,
		   unsigned int *lineno, char *err, size_t errlen);

/*
 * Numbers and radices, one set of rules for every program (parse.c):
 * the whole string, no sign or leading space, decimal (hexadecimal with
 * "0x" only where hex is set; never octal), within the range given.
 * 0, -EINVAL (malformed) or -ERANGE (out of range, overflow included).
 */
int r2c2_parse_uint(const char *s, bool hex, uint64_t min, uint64_t max,
		    uint64_t *out);
int r2c2_parse_double(const char *s, double lo, double hi, double *out);
/* "8x8x8": 1..R2C2_MAX_DIMS radices of 2..255 */
int r2c2_parse_dims(const char *s, u8 *dims, unsigned int *ndims);
/* the words of line (split in place) into w: their count, or max + 1 */
int r2c2_split_words(char *line, char **w, int max);

/* "10G", "2.5Gbit", "100M", "1e9", "40k": bit/s. -EINVAL if malformed. */
int r2c2_parse_rate(const char *s, double *out);
int r2c2_parse_rproto(const char *s);		/* enum r2c2_rproto or -EINVAL */
const char *r2c2_rproto_name(int rproto);

/* ---------------------------------------------------------------- */
/* Routing tables: a flow's weight on every link                    */
/* ---------------------------------------------------------------- */

/**
 * struct r2c2_vec - a sparse per-link weight vector
 * @link: link indices (relative to the source on a torus, see rtab.c)
 * @coef: expected crossings of one packet, > 0
 * @len: number of entries
 */
struct r2c2_vec {
	u32 *link;
	double *coef;
	u32 len;
};

struct r2c2_rtab;

/*
 * The allocators' node limit: 16x16x16 builds its tables in ~2.4 s and
 * ~250 MB (Documentation/performance.md); beyond, their n^2 translation
 * tables and masks grow past what a node's daemon should hold. The
 * kernel itself takes up to 16,384 nodes (r2c2.max_nodes).
 */
#define R2C2_ALLOC_MAX_NODES	4096

/* Return: 0, -ENOMEM, or -E2BIG past R2C2_ALLOC_MAX_NODES */
int r2c2_rtab_new(struct r2c2_rtab **rtp, const struct r2c2_topo *t);
/* what an error of r2c2_rtab_new() or r2c2_rtab_prepare() means */
const char *r2c2_rtab_strerror(int err);
void r2c2_rtab_free(struct r2c2_rtab *rt);
/*
 * Make sure the vectors of (src, dst, rproto) exist (arbitrary graphs
 * cache them per pair; tori have them all). With r2c2_rtab_reserve()
 * (room for more pairs about to be prepared, made once) the only calls
 * that modify a table but clearing it: make them before sharing the
 * table between threads.
 */
int r2c2_rtab_prepare(struct r2c2_rtab *rt, u16 src, u16 dst, u8 rproto);
int r2c2_rtab_reserve(struct r2c2_rtab *rt, size_t more);
/*
 * Whether the pair's weights are there (always on a torus): reads only,
 * so it may be asked while another thread uses the tables.
 */
bool r2c2_rtab_prepared(const struct r2c2_rtab *rt, u16 src, u16 dst,
			u8 rproto);
/* Add scale * weights of (src, dst, rproto) into dense w[n * 8]. */
int r2c2_rtab_weights_add(const struct r2c2_rtab *rt, u16 src, u16 dst,
			  u8 rproto, double scale, double *w);
/* Bytes of tables held for one protocol. */
size_t r2c2_rtab_memory(const struct r2c2_rtab *rt, u8 rproto);
/*
 * Drop a graph's cached pair weights (a torus's: its WLB pairs); returns the
 * bytes freed. Like prepare, only when no other thread reads the table.
 */
size_t r2c2_rtab_clear(struct r2c2_rtab *rt);
/*
 * After a graph change: copy into rt, a graph's new tables, the cached
 * pair weights and VLB groups of old (the tables they replace) that no
 * changed link touches, so that rt does not compute them again. Returns
 * how many were copied. old is only read (others may read it meanwhile,
 * none write it); no other thread may use rt.
 */
size_t r2c2_rtab_carry(struct r2c2_rtab *rt, const struct r2c2_rtab *old);
/*
 * Where old is a torus's tables, rt keeps the torus's minimal legs
 * instead, and every RPS or DOR leg that no link changed since the torus
 * is on is the torus's vector, translated (tables that follow keep that
 * torus); r2c2_rtab_from_torus() counts the pairs so prepared, and tells
 * whether rt has a torus to take them from (*has).
 */
size_t r2c2_rtab_from_torus(const struct r2c2_rtab *rt, bool *has);
const struct r2c2_topo *r2c2_rtab_topo(const struct r2c2_rtab *rt);

/* ---------------------------------------------------------------- */
/* Flows and allocation                                              */
/* ---------------------------------------------------------------- */

/**
 * struct r2c2_flow - one flow as the allocator sees it
 * @src: source node
 * @dst: destination node (!= @src)
 * @rproto: enum r2c2_rproto
 * @prio: 0 (highest) .. 15
 * @weight: > 0
 * @demand: maximum rate, or 0 for unlimited (network-limited)
 */
struct r2c2_flow {
	u16 src;
	u16 dst;
	u8 rproto;
	u8 prio;
	double weight;
	double demand;
};

enum r2c2_policy {
	R2C2_POL_MAXMIN,
	R2C2_POL_PROPFAIR,
};

/* Per-thread scratch space, grown on demand; reuse it across calls. */
struct r2c2_ws;
struct r2c2_ws *r2c2_ws_new(void);
void r2c2_ws_free(struct r2c2_ws *ws);

/*
 * Weighted max-min water-filling with priorities, demands and headroom
 * (capacity used: cap * (1 - headroom)). rate[i] receives flow i's rate.
 * ws may be NULL (a temporary one is used). Returns 0, -EINVAL (a flow or
 * the headroom out of range), -ENOENT/-EHOSTUNREACH (a pair without
 * vectors or path), -ENOMEM, or -ERANGE when a level cannot be computed
 * in double precision (a weight so small that capacity / weight
 * overflows); on an error no rate is to be used. Weights far apart also
 * cost precision: the parsers (flow files, the wire) keep them in 1..255.
 */
int r2c2_maxmin(const struct r2c2_rtab *rt, const struct r2c2_flow *f,
		size_t nf, double headroom, double *rate, struct r2c2_ws *ws);
/*
 * The paper's straightforward water-filling, O(rounds * N * path length):
 * each round rescans every flow. Vectors from r2c2_link_weights_add().
 * Kept as the baseline; must give the same rates as r2c2_maxmin().
 */
int r2c2_maxmin_baseline(const struct r2c2_topo *t, const struct r2c2_flow *f,
			 size_t nf, double headroom, double *rate);

/**
 * struct r2c2_check - result of r2c2_maxmin_check()
 * @max_over: largest (load - usable capacity) / usable capacity
 * @bad_flow: index of the first flow without a max-min certificate, or -1
 * @why: what failed, or NULL
 */
struct r2c2_check {
	double max_over;
	long bad_flow;
	const char *why;
};
/*
 * Verify feasibility and the max-min certificate: every flow is at its
 * demand or has a saturated link where its rate/weight is maximal among
 * flows of its priority. Returns 0 if it holds (tolerance tol), -EDOM.
 */
int r2c2_maxmin_check(const struct r2c2_rtab *rt, const struct r2c2_flow *f,
		      size_t nf, double headroom, const double *rate,
		      double tol, struct r2c2_check *res);

/* Per-link load of an allocation (n * 8 doubles). */
int r2c2_link_loads(const struct r2c2_rtab *rt, const struct r2c2_flow *f,
		    size_t nf, const double *rate, double *load);

/* ---------------------------------------------------------------- */
/* Proportional fairness: NED + F-NORM (Flowtune)                   */
/* ---------------------------------------------------------------- */

/**
 * struct r2c2_pf_opts - knobs of the price iterations
 * @gamma: step multiplier (default 1: a step of the excess demand over
 *	the row sum of the dual's Hessian); each link's step adapts between
 *	a small fraction of gamma and 8 * gamma
 * @tol: stop when the duality gap proves the rates within tol of the
 *	optimum: sum_s w_s log(x*_s / x_s) <= tol * sum_s w_s, per priority
 *	level (default 1e-3)
 * @max_iter: cap on the evaluations per priority level (default 2000)
 */
struct r2c2_pf_opts {
	double gamma;
	double tol;
	unsigned int max_iter;
};

/* Optimiser state: link prices kept warm across calls. One thread. */
struct r2c2_pf;
struct r2c2_pf *r2c2_pf_new(const struct r2c2_rtab *rt,
			    const struct r2c2_pf_opts *opts);
void r2c2_pf_free(struct r2c2_pf *pf);
/*
 * Iterate from the current prices until the duality gap is within tol,
 * with F-NORMed rates, so that no link exceeds cap * (1 - headroom).
 * Priorities are served level by level on the capacity left. *iters (may
 * be NULL) receives the evaluations summed over the levels.
 */
int r2c2_propfair(struct r2c2_pf *pf, const struct r2c2_flow *f, size_t nf,
		  double headroom, double *rate, unsigned int *iters);

/* Either policy; pf may be NULL (cold prices) for R2C2_POL_PROPFAIR. */
int r2c2_allocate(const struct r2c2_rtab *rt, int policy,
		  const struct r2c2_flow *f, size_t nf, double headroom,
		  double *rate, struct r2c2_ws *ws);

/* ---------------------------------------------------------------- */
/* Genetic route selection (R2C2 §3.4)                              */
/* ---------------------------------------------------------------- */

enum r2c2_utility {
	R2C2_UTIL_SUM,		/* aggregate throughput */
	R2C2_UTIL_MIN,		/* minimum (tail) throughput */
};

/**
 * struct r2c2_ga_opts - genetic search parameters
 * @population: genotypes per generation (100)
 * @mutation: per-gene mutation probability (0.01)
 * @elite: genotypes copied unchanged into the next generation (>= 1, so
 *	the best so far, initially the current assignment, is kept)
 * @max_gen: generation cap
 * @stall_gen: stop after this many generations without improvement
 * @time_budget_ms: no evaluation starts once this much time has passed
 *	since the call, except the current assignment's, which is always
 *	made; the search returns the best it evaluated (0: no budget; a
 *	budget makes runs time-dependent, hence not reproducible)
 * @threads: fitness evaluators (0: one per online CPU)
 * @seed: random seed; same seed, options and input give the same result
 *	when no time budget cuts the search
 * @utility: enum r2c2_utility
 * @policy: enum r2c2_policy used to compute fitness
 * @protos: bit mask of protocols a gene may take (1 << R2C2_RP_*)
 * @headroom: as for r2c2_maxmin()
 */
struct r2c2_ga_opts {
	unsigned int population;
	double mutation;
	unsigned int elite;
	unsigned int max_gen;
	unsigned int stall_gen;
	unsigned int time_budget_ms;
	unsigned int threads;
	uint64_t seed;
	int utility;
	int policy;
	unsigned int protos;
	double headroom;
};

/**
 * struct r2c2_ga_result - what the search found
 * @fitness: utility of the chosen assignment
 * @initial: utility of the assignment passed in
 * @generations: generations run
 * @evaluations: fitness evaluations
 */
struct r2c2_ga_result {
	double fitness;
	double initial;
	unsigned int generations;
	unsigned long evaluations;
};

void r2c2_ga_defaults(struct r2c2_ga_opts *o);
/*
 * Choose a protocol for every flow with is_long[i] set (NULL: all);
 * f[i].rproto is the current assignment and receives the chosen one.
 * The table must have every (src, dst, proto) allowed prepared.
 */
int r2c2_ga_select(const struct r2c2_rtab *rt, struct r2c2_flow *f,
		   size_t nf, const bool *is_long,
		   const struct r2c2_ga_opts *o, struct r2c2_ga_result *res);
/* Utility of an assignment (uses rate scratch of nf doubles if given). */
int r2c2_utility(const struct r2c2_rtab *rt, const struct r2c2_flow *f,
		 size_t nf, int policy, int utility, double headroom,
		 struct r2c2_ws *ws, double *out);

/* ---------------------------------------------------------------- */
/* Flow files                                                        */
/* ---------------------------------------------------------------- */

/*
 * Parse "SRC DST [weight=W] [prio=P] [routing=rps|dor|vlb|wlb] [demand=RATE]
 * [long]" lines ('#' comments) against topology t. *fp is malloc'd.
 * On error err names the file and line.
 */
int r2c2_flows_load(const char *path, const struct r2c2_topo *t,
		    struct r2c2_flow **fp, bool **longp, size_t *nfp,
		    char *err, size_t errlen);

#endif /* _R2C2_ALLOC_H */
