// SPDX-License-Identifier: GPL-2.0
/*
 * alloc.c - offline allocation: r2c2ctl alloc and r2c2ctl route-select.
 *
 * Both read a topology spec and a flow file, run libr2c2's allocation
 * engine (no kernel needed) and print one line per flow (or JSON with -j).
 * Bad input names the file and line, exits 1 and prints no result.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "r2c2_alloc.h"
#include "json.h"
#include "r2c2ctl.h"

struct alloc_args {
	const char *topology;
	const char *flows;
	int policy;
	double headroom;
	double capacity;
	/* route-select */
	struct r2c2_ga_opts ga;
};

static void alloc_usage(FILE *f)
{
	fputs("Usage: r2c2ctl [-j] alloc topology SPEC flows FILE\n"
	      "                [ policy { maxmin | propfair } ] [ headroom H ] [ capacity RATE ]\n"
	      "SPEC := torus:K1[xK2[xK3]] | mesh:K1[xK2[xK3]] | file:PATH | PATH, K: 2..255\n"
	      "FILE: one flow a line, SRC DST [weight=W] [prio=P] [routing=rps|dor|vlb|wlb]\n"
	      "      [demand=RATE] [long]; '#' comments. W: 1..255. Rates take k/M/G/T\n"
	      "suffixes. Prints each flow's rate (bit/s). Defaults: maxmin, headroom 0.05,\n"
	      "capacity 10G per directed link. Each keyword may also be written as a long\n"
	      "option (--topology SPEC, --flows FILE, ...).\n", f);
}

static void rs_usage(FILE *f)
{
	fputs("Usage: r2c2ctl [-j] route-select topology SPEC flows FILE\n"
	      "                [ policy { maxmin | propfair } ] [ headroom H ] [ capacity RATE ]\n"
	      "                [ utility { sum | min } ] [ protos rps,vlb,dor ] [ seed N ]\n"
	      "                [ population N ] [ mutation P ] [ generations N ]\n"
	      "                [ stall N ] [ time-budget MS ] [ threads N ]\n"
	      "Chooses a routing protocol for every long flow (every flow if no\n"
	      "line says 'long') with the genetic search of R2C2 §3.4 and compares\n"
	      "its utility with all-RPS, all-VLB, all-DOR and a random assignment.\n"
	      "Each keyword may also be written as a long option (--topology SPEC, ...).\n", f);
}

static int parse_double(const char *opt, const char *s, double lo, double hi,
			double *out)
{
	if (r2c2_parse_double(s, lo, hi, out))
		return invalid_arg(opt, s, "out of range or not a number");
	return 0;
}

static int parse_ulong(const char *opt, const char *s, unsigned long max,
		       unsigned long *out)
{
	uint64_t v;
	int r = r2c2_parse_uint(s, false, 0, max, &v);

	if (r)
		return invalid_arg(opt, s, r == -ERANGE ? "out of range" : "not a number");
	*out = (unsigned long)v;
	return 0;
}

/*
 * the options alloc (and route-select) take, with what their value is:
 * each a keyword (the name without its "--", as iproute2 and the rest of
 * r2c2ctl write them) or the long option
 */
static const struct alloc_opt {
	const char *name, *arg, *what;
	bool rs;	/* route-select only */
} alloc_opts[] = {
	{ "--topology", "SPEC", "torus:K1[xK2[xK3]], mesh:K1[xK2[xK3]], file:PATH or PATH", false },
	{ "--flows", "FILE", "the flow file, one flow a line", false },
	{ "--policy", "POLICY", "maxmin or propfair", false },
	{ "--headroom", "H", "0..0.999999", false },
	{ "--capacity", "RATE", "such as 10G, 0 < RATE <= 1e18 bit/s", false },
	{ "--utility", "UTILITY", "sum or min", true },
	{ "--protos", "LIST", "a comma list of rps, dor, vlb, wlb, at most 63 characters", true },
	{ "--seed", "N", "0..18446744073709551615", true },
	{ "--population", "N", "2..100000", true },
	{ "--mutation", "P", "0..1", true },
	{ "--generations", "N", "0..10000000", true },
	{ "--stall", "N", "0..10000000", true },
	{ "--time-budget", "MS", "0..86400000", true },
	{ "--threads", "N", "0..1024", true },
};

static const struct alloc_opt *find_opt(const char *name, bool rs)
{
	size_t i;

	for (i = 0; i < sizeof(alloc_opts) / sizeof(alloc_opts[0]); i++)
		if ((!strcmp(name, alloc_opts[i].name) ||
		     !strcmp(name, alloc_opts[i].name + 2)) &&
		    (rs || !alloc_opts[i].rs))
			return &alloc_opts[i];
	return NULL;
}

/* a required option missing (!given) or given without its value */
static int opt_missing(const char *name, bool rs, bool given)
{
	const struct alloc_opt *d = find_opt(name, rs);
	const char *cmd = rs ? "route-select" : "alloc";

	if (given)
		return usage_error("%s: \"%s\" needs a value: %s (%s)", cmd, d->name + 2,
				   d->arg, d->what);
	return usage_error("%s: %s %s is required (%s)", cmd, d->name + 2, d->arg, d->what);
}

/* returns 0, or the exit status of a usage error; *help set on "help" */
static int parse_args(int argc, char **argv, struct alloc_args *a, bool rs,
		      bool *help)
{
	int i;

	memset(a, 0, sizeof(*a));
	a->policy = R2C2_POL_MAXMIN;
	a->headroom = R2C2_HEADROOM_DEFAULT;
	a->capacity = 10e9;
	r2c2_ga_defaults(&a->ga);
	*help = false;
	for (i = 0; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		const struct alloc_opt *d;
		unsigned long u = 0;
		bool has = true;

		if (is_help(o) || !strcmp(o, "--help") || !strcmp(o, "-h")) {
			*help = true;
			return 0;
		}
		if (!strcmp(o, "-j") || !strcmp(o, "--json")) {
			opts.json = true;
			print_init(true, opts.pretty);
			continue;
		}
		d = find_opt(o, rs);
		if (!d)
			return unknown_arg(o);
		if (!v)
			return opt_missing(d->name, rs, true);
		/* the keyword, whichever form was written */
		o = d->name + 2;
		if (!strcmp(o, "topology")) {
			a->topology = v;
		} else if (!strcmp(o, "flows")) {
			a->flows = v;
		} else if (!strcmp(o, "policy")) {
			if (!strcmp(v, "maxmin"))
				a->policy = R2C2_POL_MAXMIN;
			else if (!strcmp(v, "propfair"))
				a->policy = R2C2_POL_PROPFAIR;
			else
				return invalid_arg(o, v, "expected maxmin or propfair");
		} else if (!strcmp(o, "headroom")) {
			if (parse_double(o, v, 0, 0.999999, &a->headroom))
				return R2C2CTL_EXIT_USAGE;
		} else if (!strcmp(o, "capacity")) {
			if (r2c2_parse_rate(v, &a->capacity) || !(a->capacity > 0))
				return invalid_arg(o, v, "expected a rate such as 10G, 0 < RATE <= 1e18 bit/s");
		} else if (rs && !strcmp(o, "utility")) {
			if (!strcmp(v, "sum"))
				a->ga.utility = R2C2_UTIL_SUM;
			else if (!strcmp(v, "min"))
				a->ga.utility = R2C2_UTIL_MIN;
			else
				return invalid_arg(o, v, "expected sum or min");
		} else if (rs && !strcmp(o, "protos")) {
			/* 63 characters: the limit the messages and r2c2ctl.8 give */
			char buf[64], *save = NULL, *t;

			if (strlen(v) >= sizeof(buf))
				return invalid_arg(o, v, "at most 63 characters, a comma list of rps, dor, vlb, wlb");
			snprintf(buf, sizeof(buf), "%s", v);
			a->ga.protos = 0;
			for (t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
				int p = r2c2_parse_rproto(t);

				if (p < 0)
					return invalid_arg(o, t, "unknown protocol (rps, dor, vlb, wlb)");
				a->ga.protos |= 1u << p;
			}
			if (!a->ga.protos)
				return invalid_arg(o, v, "no protocol");
		} else if (rs && !strcmp(o, "seed")) {
			if (parse_ulong(o, v, ~0ul, &u))
				return R2C2CTL_EXIT_USAGE;
			a->ga.seed = u;
		} else if (rs && !strcmp(o, "population")) {
			if (parse_ulong(o, v, 100000, &u) || u < 2)
				return u < 2 ? invalid_arg(o, v, "at least 2") : R2C2CTL_EXIT_USAGE;
			a->ga.population = (unsigned int)u;
			if (a->ga.elite > u)
				a->ga.elite = (unsigned int)u;
		} else if (rs && !strcmp(o, "mutation")) {
			if (parse_double(o, v, 0, 1, &a->ga.mutation))
				return R2C2CTL_EXIT_USAGE;
		} else if (rs && !strcmp(o, "generations")) {
			if (parse_ulong(o, v, 10000000, &u))
				return R2C2CTL_EXIT_USAGE;
			a->ga.max_gen = (unsigned int)u;
		} else if (rs && !strcmp(o, "stall")) {
			if (parse_ulong(o, v, 10000000, &u))
				return R2C2CTL_EXIT_USAGE;
			a->ga.stall_gen = (unsigned int)u;
		} else if (rs && !strcmp(o, "time-budget")) {
			if (parse_ulong(o, v, 86400000, &u))
				return R2C2CTL_EXIT_USAGE;
			a->ga.time_budget_ms = (unsigned int)u;
		} else if (rs && !strcmp(o, "threads")) {
			if (parse_ulong(o, v, 1024, &u))
				return R2C2CTL_EXIT_USAGE;
			a->ga.threads = (unsigned int)u;
		} else {
			has = false;
		}
		if (!has)
			return unknown_arg(o);
		i++;
	}
	if (!a->topology)
		return opt_missing("--topology", rs, false);
	if (!a->flows)
		return opt_missing("--flows", rs, false);
	a->ga.policy = a->policy;
	a->ga.headroom = a->headroom;
	return 0;
}

struct loaded {
	struct r2c2_topo *t;
	struct r2c2_rtab *rt;
	struct r2c2_flow *f;
	bool *lg;
	size_t nf;
};

static void unload(struct loaded *l)
{
	r2c2_rtab_free(l->rt);
	r2c2_topo_free(l->t);
	free(l->f);
	free(l->lg);
}

/* topology, tables and flows; prepares (flow, protocol) for protos */
static int load(const struct alloc_args *a, unsigned int protos, struct loaded *l)
{
	char err[512];
	size_t i;
	int ret, p;

	memset(l, 0, sizeof(*l));
	ret = r2c2_topo_parse(&l->t, a->topology, a->capacity, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "r2c2ctl: %s\n", err);
		return R2C2CTL_EXIT_ERR;
	}
	ret = r2c2_flows_load(a->flows, l->t, &l->f, &l->lg, &l->nf, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "r2c2ctl: %s\n", err);
		return R2C2CTL_EXIT_ERR;
	}
	ret = r2c2_rtab_new(&l->rt, l->t);
	for (i = 0; !ret && i < l->nf; i++)
		for (p = 0; !ret && p < __R2C2_RP_MAX; p++)
			if (p == l->f[i].rproto || (protos & (1u << p)))
				ret = r2c2_rtab_prepare(l->rt, l->f[i].src, l->f[i].dst, (u8)p);
	if (ret) {
		fprintf(stderr, "r2c2ctl: %s: routing tables: %s\n", a->flows, r2c2_rtab_strerror(ret));
		return R2C2CTL_EXIT_ERR;
	}
	return 0;
}

static void fmt_rate(char *buf, size_t len, double r)
{
	static const char *const sfx[] = { "", "k", "M", "G", "T" };
	int i = 0;

	while (fabs(r) >= 1000 && i < 4) {
		r /= 1000;
		i++;
	}
	snprintf(buf, len, "%.4g%sbit/s", r, sfx[i]);
}

static void print_rate(const char *key, const char *label, double r)
{
	char buf[64];

	fmt_rate(buf, sizeof(buf), r);
	print_uint(key, NULL, (unsigned long long)llround(r));
	if (!is_json())
		print_text("%s%s", label, buf);
}

static void print_flow(size_t i, const struct r2c2_flow *f, double rate)
{
	open_obj(NULL);
	print_uint("index", "flow %llu:", i);
	print_uint("src", " %llu", f->src);
	print_uint("dst", " -> %llu", f->dst);
	print_str("routing", " %s", r2c2_rproto_name(f->rproto));
	if (is_json() || f->weight != 1)
		print_float("weight", " weight %g", f->weight);
	if (is_json() || f->prio)
		print_uint("prio", " prio %llu", f->prio);
	if (f->demand > 0)
		print_rate("demand_bps", " demand ", f->demand);
	print_rate("rate_bps", " rate ", rate);
	print_nl();
	close_obj();
}

int cmd_alloc(int argc, char **argv)
{
	struct alloc_args a;
	struct loaded l;
	unsigned int iters = 0;
	double *x, total = 0;
	bool help;
	size_t i;
	int ret;

	ret = parse_args(argc, argv, &a, false, &help);
	if (help) {
		alloc_usage(stdout);
		return R2C2CTL_EXIT_OK;
	}
	if (ret)
		return ret;
	ret = load(&a, 0, &l);
	if (ret) {
		unload(&l);
		return ret;
	}
	x = calloc(l.nf ? l.nf : 1, sizeof(*x));
	if (!x) {
		unload(&l);
		return R2C2CTL_EXIT_ERR;
	}
	if (a.policy == R2C2_POL_PROPFAIR) {
		struct r2c2_pf *pf = r2c2_pf_new(l.rt, NULL);

		ret = pf ? r2c2_propfair(pf, l.f, l.nf, a.headroom, x, &iters) : -ENOMEM;
		r2c2_pf_free(pf);
	} else {
		ret = r2c2_maxmin(l.rt, l.f, l.nf, a.headroom, x, NULL);
	}
	if (ret) {
		fprintf(stderr, "r2c2ctl: allocation failed: %s\n", strerror(-ret));
		free(x);
		unload(&l);
		return R2C2CTL_EXIT_ERR;
	}
	open_obj(NULL);
	print_str("policy", "# policy %s", a.policy == R2C2_POL_MAXMIN ? "maxmin" : "propfair");
	if (!is_json())
		print_text(" headroom %g, %u nodes, %u links, %zu flows", a.headroom,
			   l.t->n, l.t->nlinks, l.nf);
	if (a.policy == R2C2_POL_PROPFAIR)
		print_uint("iterations", ", %llu price iterations", iters);
	print_nl();
	open_arr("flows");
	for (i = 0; i < l.nf; i++) {
		print_flow(i, &l.f[i], x[i]);
		total += x[i];
	}
	close_arr();
	print_rate("total_bps", "# total ", total);
	print_nl();
	close_obj();
	free(x);
	unload(&l);
	return R2C2CTL_EXIT_OK;
}

static u64 splitmix(u64 *s)
{
	u64 z = (*s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

int cmd_route_select(int argc, char **argv)
{
	static const char *const names[__R2C2_RP_MAX] = {
		"all-rps", "all-dor", "all-vlb", "all-wlb",
	};
	struct r2c2_ga_result res;
	struct r2c2_flow *g = NULL;
	struct alloc_args a;
	struct loaded l;
	/* current, all-rps .. all-wlb, random */
	double u[__R2C2_RP_MAX + 2], *x = NULL;
	u8 allowed[__R2C2_RP_MAX];
	unsigned int nal = 0;
	u64 seed;
	bool help;
	size_t i;
	int ret, p;

	ret = parse_args(argc, argv, &a, true, &help);
	if (help) {
		rs_usage(stdout);
		return R2C2CTL_EXIT_OK;
	}
	if (ret)
		return ret;
	ret = load(&a, a.ga.protos | ((1u << __R2C2_RP_MAX) - 1), &l);
	if (ret)
		goto out;
	g = malloc((l.nf ? l.nf : 1) * sizeof(*g));
	x = calloc(l.nf ? l.nf : 1, sizeof(*x));
	ret = R2C2CTL_EXIT_ERR;
	if (!g || !x)
		goto out;
	/* baselines: current, all-RPS .. all-WLB, random (long flows) */
	for (p = 0; p < __R2C2_RP_MAX; p++)
		if (a.ga.protos & (1u << p))
			allowed[nal++] = (u8)p;
	if (r2c2_utility(l.rt, l.f, l.nf, a.policy, a.ga.utility, a.headroom, NULL, &u[0]))
		goto fail;
	for (p = 0; p < __R2C2_RP_MAX; p++) {
		memcpy(g, l.f, l.nf * sizeof(*g));
		for (i = 0; i < l.nf; i++)
			if (l.lg[i])
				g[i].rproto = (u8)p;
		if (r2c2_utility(l.rt, g, l.nf, a.policy, a.ga.utility, a.headroom, NULL,
				 &u[1 + p]))
			goto fail;
	}
	seed = a.ga.seed ^ 0x5eed;
	memcpy(g, l.f, l.nf * sizeof(*g));
	for (i = 0; i < l.nf; i++)
		if (l.lg[i])
			g[i].rproto = allowed[splitmix(&seed) % nal];
	if (r2c2_utility(l.rt, g, l.nf, a.policy, a.ga.utility, a.headroom, NULL,
			 &u[1 + __R2C2_RP_MAX]))
		goto fail;
	memcpy(g, l.f, l.nf * sizeof(*g));
	ret = r2c2_ga_select(l.rt, g, l.nf, l.lg, &a.ga, &res);
	if (ret) {
		fprintf(stderr, "r2c2ctl: route selection failed: %s\n", strerror(-ret));
		ret = R2C2CTL_EXIT_ERR;
		goto out;
	}
	if (r2c2_allocate(l.rt, a.policy, g, l.nf, a.headroom, x, NULL))
		goto fail;
	open_obj(NULL);
	print_str("utility", "# utility %s", a.ga.utility == R2C2_UTIL_SUM ? "sum" : "min");
	print_str("policy", ", policy %s", a.policy == R2C2_POL_MAXMIN ? "maxmin" : "propfair");
	print_uint("seed", ", seed %llu", (unsigned long long)a.ga.seed);
	print_uint("generations", ", %llu generations", res.generations);
	print_uint("evaluations", ", %llu evaluations", res.evaluations);
	print_nl();
	open_arr("flows");
	for (i = 0; i < l.nf; i++) {
		open_obj(NULL);
		print_uint("index", "flow %llu:", i);
		print_uint("src", " %llu", g[i].src);
		print_uint("dst", " -> %llu", g[i].dst);
		print_str("routing", " %s", r2c2_rproto_name(g[i].rproto));
		print_bool("long", NULL, l.lg[i]);
		if (!is_json() && g[i].rproto != l.f[i].rproto)
			print_text(" (was %s)", r2c2_rproto_name(l.f[i].rproto));
		print_rate("rate_bps", " rate ", x[i]);
		print_nl();
		close_obj();
	}
	close_arr();
	open_obj("utilities");
	print_rate("selected_bps", "# selected ", res.fitness);
	print_nl();
	print_rate("current_bps", "# current  ", u[0]);
	print_nl();
	for (p = 0; p < __R2C2_RP_MAX; p++) {
		char key[32], label[32];

		snprintf(key, sizeof(key), "%s_bps", names[p]);
		key[3] = '_';
		snprintf(label, sizeof(label), "# %-8s ", names[p]);
		print_rate(key, label, u[1 + p]);
		print_nl();
	}
	print_rate("random_bps", "# random   ", u[1 + __R2C2_RP_MAX]);
	print_nl();
	close_obj();
	close_obj();
	ret = R2C2CTL_EXIT_OK;
	goto out;
fail:
	fprintf(stderr, "r2c2ctl: allocation failed\n");
	ret = R2C2CTL_EXIT_ERR;
out:
	free(g);
	free(x);
	unload(&l);
	return ret;
}
