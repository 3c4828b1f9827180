// SPDX-License-Identifier: GPL-2.0
/*
 * flowfile.c - read a flow list for the offline allocator.
 *
 * One flow a line, '#' starts a comment:
 *	SRC DST [weight=W] [prio=P] [routing=rps|dor|vlb|wlb] [demand=RATE] [long]
 * SRC and DST are node ids (0..n-1; on a torus id = x + k1 * (y + k2 * z)).
 * Defaults: weight 1 (1..255, as on the wire; fractions allowed), prio 0
 * (highest; 0..15), routing rps, no demand cap. "long" marks a flow whose protocol route-select may change (when
 * no line says "long", every flow may change).
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "r2c2_alloc.h"

static void seterr(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

/**
 * r2c2_flows_load() - read a flow file
 * @path: file ("-" for stdin)
 * @t: topology, to check node ids and reachability
 * @fp: out, malloc'd flows
 * @longp: out, malloc'd "long" flags (all true if no line says long)
 * @nfp: out, number of flows
 * @err: message naming the file and line on failure
 * @errlen: size of @err
 *
 * Return: 0, -ENOENT, -EINVAL or -ENOMEM.
 */
int r2c2_flows_load(const char *path, const struct r2c2_topo *t,
		    struct r2c2_flow **fp, bool **longp, size_t *nfp,
		    char *err, size_t errlen)
{
	FILE *in = strcmp(path, "-") ? fopen(path, "r") : stdin;
	struct r2c2_flow *f = NULL;
	bool *lg = NULL, anylong = false;
	size_t nf = 0, cap = 0, i;
	unsigned int lineno = 0;
	char buf[1024];
	int ret = -EINVAL;

	*fp = NULL;
	*longp = NULL;
	*nfp = 0;
	if (!in) {
		seterr(err, errlen, "%s: %s", path, strerror(errno));
		return -ENOENT;
	}
	for (;;) {
		struct r2c2_flow fl = { .weight = 1, .rproto = R2C2_RP_RPS };
		char *save = NULL, *tok;
		uint64_t v;
		int field = 0, rl;
		bool islong = false;

		rl = r2c2_read_line(in, buf, sizeof(buf), path, &lineno, err,
				    errlen);
		if (!rl)
			break;
		if (rl < 0)
			goto out;
		for (tok = strtok_r(buf, " \t\r\n", &save); tok;
		     tok = strtok_r(NULL, " \t\r\n", &save), field++) {
			char *eq = strchr(tok, '=');

			if (field < 2) {
				if (eq || r2c2_parse_uint(tok, false, 0, UINT64_MAX, &v)) {
					seterr(err, errlen, "%s:%u: expected node id, got '%s'",
					       path, lineno, tok);
					goto out;
				}
				if (v >= t->n) {
					seterr(err, errlen, "%s:%u: unknown node %s (nodes are 0..%u)",
					       path, lineno, tok, t->n - 1);
					goto out;
				}
				if (field == 0)
					fl.src = (u16)v;
				else
					fl.dst = (u16)v;
				continue;
			}
			if (!strcmp(tok, "long")) {
				islong = true;
				continue;
			}
			if (!eq) {
				seterr(err, errlen, "%s:%u: unexpected '%s' (weight=, prio=, routing=, demand=, long)",
				       path, lineno, tok);
				goto out;
			}
			*eq++ = 0;
			if (!strcmp(tok, "weight")) {
				/*
				 * The wire carries 1..255; weights far apart
				 * (1e16 : 1) cancel in the allocator's sums,
				 * and tiny or huge ones overflow
				 */
				if (r2c2_parse_double(eq, R2C2_WEIGHT_MIN,
						      R2C2_WEIGHT_MAX, &fl.weight)) {
					seterr(err, errlen, "%s:%u: weight must be a number in %d..%d, got '%s'",
					       path, lineno, R2C2_WEIGHT_MIN, R2C2_WEIGHT_MAX, eq);
					goto out;
				}
			} else if (!strcmp(tok, "prio")) {
				if (r2c2_parse_uint(eq, false, 0, R2C2_PRIO_LEVELS - 1, &v)) {
					seterr(err, errlen, "%s:%u: prio must be 0..%d, got '%s'",
					       path, lineno, R2C2_PRIO_LEVELS - 1, eq);
					goto out;
				}
				fl.prio = (u8)v;
			} else if (!strcmp(tok, "routing")) {
				int p = r2c2_parse_rproto(eq);

				if (p < 0) {
					seterr(err, errlen, "%s:%u: unknown routing protocol '%s' (rps, dor, vlb, wlb)",
					       path, lineno, eq);
					goto out;
				}
				fl.rproto = (u8)p;
			} else if (!strcmp(tok, "demand")) {
				if (r2c2_parse_rate(eq, &fl.demand) || !(fl.demand > 0)) {
					seterr(err, errlen, "%s:%u: demand must be a rate with 0 < RATE <= %g bit/s, got '%s'",
					       path, lineno, R2C2_PARSE_RATE_MAX, eq);
					goto out;
				}
			} else {
				seterr(err, errlen, "%s:%u: unknown attribute '%s' (weight, prio, routing, demand)",
				       path, lineno, tok);
				goto out;
			}
		}
		if (!field)
			continue;
		if (field < 2) {
			seterr(err, errlen, "%s:%u: expected 'SRC DST [attr=value...]'", path, lineno);
			goto out;
		}
		if (fl.src == fl.dst) {
			seterr(err, errlen, "%s:%u: source and destination are both %u", path,
			       lineno, fl.src);
			goto out;
		}
		if (!r2c2_topo_reaches(t, fl.src, fl.dst)) {
			seterr(err, errlen, "%s:%u: node %u cannot reach node %u", path, lineno,
			       fl.src, fl.dst);
			goto out;
		}
		if (nf == cap) {
			size_t nc = cap ? 2 * cap : 256;
			void *a = realloc(f, nc * sizeof(*f)), *b;

			if (!a) {
				ret = -ENOMEM;
				goto out;
			}
			f = a;
			b = realloc(lg, nc * sizeof(*lg));
			if (!b) {
				ret = -ENOMEM;
				goto out;
			}
			lg = b;
			cap = nc;
		}
		anylong |= islong;
		lg[nf] = islong;
		f[nf++] = fl;
	}
	if (!anylong)
		for (i = 0; i < nf; i++)
			lg[i] = true;
	*fp = f;
	*longp = lg;
	*nfp = nf;
	f = NULL;
	lg = NULL;
	ret = 0;
out:
	if (in != stdin)
		fclose(in);
	free(f);
	free(lg);
	return ret;
}
