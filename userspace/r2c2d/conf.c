// SPDX-License-Identifier: GPL-2.0
/*
 * conf.c - r2c2d configuration file (see conf.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/types.h>
#include <linux/r2c2.h>

#include "r2c2_alloc.h"
#include "conf.h"

void conf_defaults(struct r2c2d_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->rho_us = 500;
	c->policy = R2C2_POL_MAXMIN;
	c->headroom = R2C2_HEADROOM_DEFAULT;
	c->link_capacity = 10e9;
	c->push_threshold = 0.05;
	c->lease_refresh_ms = 1000;
	c->refresh_ms = 1000;
	c->warmup_ms = 1500;
	c->expire_ms = 3500;
	c->digest_ms = 250;
	c->demand_interval_ms = 10;
	c->demand_window_ms = 250;
	c->demand_windows = 3;
	c->demand_empty_bytes = 3000;
	c->demand_alpha = 0.5;
	c->demand_low = 0.8;
	c->demand_high = 0.95;
	c->demand_slack = 0.1;
	c->max_flows = 1u << 20;
	c->max_flows_per_src = 1u << 16;
	snprintf(c->control, sizeof(c->control), "@r2c2d");
	c->ga_interval_ms = 5000;
	c->ga_long_ms = 1000;
	c->ga_margin = 0.02;
	c->ga_budget_ms = 100;
	c->ga_threads = 1;
	c->ga_utility = R2C2_UTIL_SUM;
	c->ga_protos = 1u << R2C2_RP_RPS | 1u << R2C2_RP_DOR | 1u << R2C2_RP_VLB;
	c->table_cache_mb = 256;
	c->round_worker_us = 1000;
}

/* "rps,dor,vlb" (any non-empty subset) -> mask */
static int get_protos(const char *v, unsigned int *out)
{
	char buf[64], *save = NULL, *tok;
	unsigned int m = 0;
	int p;

	if (strlen(v) >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, v, strlen(v) + 1);
	for (tok = strtok_r(buf, ", ", &save); tok;
	     tok = strtok_r(NULL, ", ", &save)) {
		for (p = 0; p < __R2C2_RP_MAX; p++)
			if (!strcmp(tok, r2c2_rproto_name(p)))
				break;
		if (p == __R2C2_RP_MAX)
			return -EINVAL;
		m |= 1u << p;
	}
	if (!m)
		return -EINVAL;
	*out = m;
	return 0;
}

/* decimal only: "0500" is 500, not octal 320; "0x10" is junk */
static int get_u32(const char *v, uint32_t lo, uint32_t hi, uint32_t *out)
{
	uint64_t x;

	if (r2c2_parse_uint(v, false, lo, hi, &x))
		return -EINVAL;
	*out = (uint32_t)x;
	return 0;
}

static int get_dbl(const char *v, double lo, double hi, double *out)
{
	return r2c2_parse_double(v, lo, hi, out) ? -EINVAL : 0;
}

#define U32KEY(name, lo, hi) { #name, 'u', offsetof(struct r2c2d_conf, name), lo, hi }
#define DBLKEY(name, lo, hi) { #name, 'd', offsetof(struct r2c2d_conf, name), lo, hi }

static const struct {
	const char *key;
	char kind;
	size_t off;
	double lo, hi;
} keys[] = {
	U32KEY(rho_us, 50, 10000000),
	DBLKEY(headroom, 0, 0.5),
	DBLKEY(push_threshold, 0, 1),
	U32KEY(lease_refresh_ms, 0, 3600000),
	U32KEY(refresh_ms, 10, 3600000),
	U32KEY(warmup_ms, 0, 3600000),
	U32KEY(expire_ms, 20, 36000000),
	U32KEY(digest_ms, 0, 3600000),
	U32KEY(demand_interval_ms, 0, 60000),
	U32KEY(demand_window_ms, 1, 60000),
	U32KEY(demand_windows, 1, 1000),
	U32KEY(demand_empty_bytes, 0, 1u << 30),
	DBLKEY(demand_alpha, 0.001, 1),
	DBLKEY(demand_low, 0, 1),
	DBLKEY(demand_high, 0, 10),
	DBLKEY(demand_slack, 0, 10),
	U32KEY(ifindex, 0, 0x7fffffff),
	U32KEY(max_flows, 1, 16777216),
	U32KEY(max_flows_per_src, 1, 16777216),
	U32KEY(announce_delay_ms, 0, 3600000),
	U32KEY(ga_interval_ms, 0, 3600000),
	U32KEY(ga_long_ms, 0, 3600000),
	DBLKEY(ga_margin, 0, 10),
	U32KEY(ga_budget_ms, 0, 60000),
	U32KEY(ga_threads, 0, 256),
	DBLKEY(cpu_budget, 0, 100),
	U32KEY(table_cache_mb, 0, 1048576),
	U32KEY(round_worker_us, 0, ROUND_WORKER_NEVER),
};

/* keys whose value is one of two words: an int, or a bool (@is_bool) */
#define WORDKEY(key, field, is_bool, w0, v0, w1, v1) \
	{ key, offsetof(struct r2c2d_conf, field), is_bool, { w0, w1 }, { v0, v1 } }

static const struct {
	const char *key;
	size_t off;
	bool is_bool;
	const char *word[2];
	int val[2];
} word_keys[] = {
	WORDKEY("policy", policy, false, "maxmin", R2C2_POL_MAXMIN,
		"propfair", R2C2_POL_PROPFAIR),
	WORDKEY("rounds", rounds_always, true, "own", 0, "always", 1),
	WORDKEY("ga_utility", ga_utility, false, "sum", R2C2_UTIL_SUM,
		"min", R2C2_UTIL_MIN),
};

/* keys whose value is a string, stored in a char array of the conf */
#define STRKEY(name) \
	{ #name, offsetof(struct r2c2d_conf, name), \
	  sizeof(((struct r2c2d_conf *)0)->name) }

static const struct {
	const char *key;
	size_t off, size;
} str_keys[] = {
	STRKEY(topology),
	STRKEY(control),
	STRKEY(state_file),
};

int conf_set(struct r2c2d_conf *c, const char *key, const char *val,
	     char *err, size_t errlen)
{
	char buf[96];
	const char *range = "";
	size_t i, w;

	for (i = 0; i < sizeof(word_keys) / sizeof(word_keys[0]); i++) {
		void *p = (char *)c + word_keys[i].off;

		if (strcmp(key, word_keys[i].key))
			continue;
		for (w = 0; w < 2; w++)
			if (!strcmp(val, word_keys[i].word[w]))
				break;
		if (w == 2) {
			snprintf(buf, sizeof(buf), "%s or %s",
				 word_keys[i].word[0], word_keys[i].word[1]);
			range = buf;
			goto bad;
		}
		if (word_keys[i].is_bool)
			*(bool *)p = word_keys[i].val[w];
		else
			*(int *)p = word_keys[i].val[w];
		return 0;
	}
	if (!strcmp(key, "ga_protos")) {
		if (get_protos(val, &c->ga_protos)) {
			range = "a comma list of rps, dor, vlb, wlb";
			goto bad;
		}
		return 0;
	}
	if (!strcmp(key, "link_capacity")) {
		double cap;

		if (r2c2_parse_rate(val, &cap) || !(cap > 0)) {
			snprintf(buf, sizeof(buf),
				 "a rate such as 10G, 0 < RATE <= %g bit/s",
				 R2C2_PARSE_RATE_MAX);
			range = buf;
			goto bad;
		}
		c->link_capacity = cap;
		return 0;
	}
	for (i = 0; i < sizeof(str_keys) / sizeof(str_keys[0]); i++) {
		if (strcmp(key, str_keys[i].key))
			continue;
		if (strlen(val) >= str_keys[i].size) {
			snprintf(buf, sizeof(buf), "at most %zu characters",
				 str_keys[i].size - 1);
			range = buf;
			goto bad;
		}
		memcpy((char *)c + str_keys[i].off, val, strlen(val) + 1);
		return 0;
	}
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		void *p = (char *)c + keys[i].off;

		if (strcmp(key, keys[i].key))
			continue;
		if (keys[i].kind == 'u' ?
		    get_u32(val, (uint32_t)keys[i].lo, (uint32_t)keys[i].hi, p) :
		    get_dbl(val, keys[i].lo, keys[i].hi, p)) {
			snprintf(buf, sizeof(buf), "%s %.15g..%.15g",
				 keys[i].kind == 'u' ? "a decimal integer" :
				 "a number", keys[i].lo, keys[i].hi);
			range = buf;
			goto bad;
		}
		return 0;
	}
	snprintf(err, errlen, "unknown key '%s'", key);
	return -EINVAL;
bad:
	snprintf(err, errlen, "bad value '%s' for %s (%s)", val, key, range);
	return -EINVAL;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

int conf_load(struct r2c2d_conf *c, const char *path, char *err,
	      size_t errlen)
{
	char line[512], msg[256], *k, *v, *eq, *hash;
	unsigned int lineno = 0;
	FILE *f = fopen(path, "r");
	int e;

	if (!f) {
		e = errno;
		snprintf(err, errlen, "configuration file %s: %s", path,
			 strerror(e));
		return -e;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, errlen, "%s:%u: line too long", path,
				 lineno);
			goto fail;
		}
		hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		k = trim(line);
		if (!*k)
			continue;
		eq = strchr(k, '=');
		if (!eq) {
			snprintf(err, errlen, "%s:%u: expected 'key = value'",
				 path, lineno);
			goto fail;
		}
		*eq = 0;
		v = trim(eq + 1);
		k = trim(k);
		if (conf_set(c, k, v, msg, sizeof(msg))) {
			snprintf(err, errlen, "%s:%u: %s", path, lineno, msg);
			goto fail;
		}
	}
	/* a directory opens, and its first read fails (EISDIR) */
	if (ferror(f)) {
		e = errno ? errno : EIO;
		snprintf(err, errlen, "configuration file %s: %s", path,
			 strerror(e));
		fclose(f);
		return -e;
	}
	fclose(f);
	if (c->lease_refresh_ms && c->expire_ms <= c->refresh_ms) {
		snprintf(err, errlen, "%s: expire_ms must exceed refresh_ms",
			 path);
		return -EINVAL;
	}
	return 0;
fail:
	fclose(f);
	return -EINVAL;
}
