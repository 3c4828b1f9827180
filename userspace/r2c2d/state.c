// SPDX-License-Identifier: GPL-2.0
/*
 * state.c - r2c2d's own flows' demands across a restart (state.h).
 *
 * The file, rewritten whole each time:
 *
 *	# r2c2d state_file: this node's flows with an estimated demand
 *	node 5
 *	flow 8f78c8c0 dst 3 demand 1100
 *
 * demand in kbit/s. Flows without a demand estimate (unlimited) are not
 * written: unlimited is what a new daemon assumes anyway.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <linux/types.h>
#include <linux/r2c2.h>

#include "r2c2_alloc.h"
#include "state.h"

/* one flow's line, if it is node's and has a demand */
static void st_line(FILE *f, uint16_t node, const struct mx_flow *x)
{
	if (x->src == node && x->demand_kbps != R2C2_DEMAND_UNLIMITED)
		fprintf(f, "flow %08x dst %u demand %u\n", x->id, x->dst,
			x->demand_kbps);
}

int st_save(const char *path, uint16_t node, const struct mx *mx)
{
	char tmp[4096];
	uint32_t i;
	FILE *f;
	int r = 0;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.new", path) >= sizeof(tmp))
		return -ENAMETOOLONG;
	f = fopen(tmp, "we");
	if (!f && errno == ENOENT) {
		/* its directory first (/run/r2c2d when not run by systemd) */
		char dir[4096], *s;

		memcpy(dir, path, strlen(path) + 1);
		s = strrchr(dir, '/');
		if (s && s != dir) {
			*s = 0;
			if (!mkdir(dir, 0755))
				f = fopen(tmp, "we");
		}
	}
	if (!f)
		return -errno;
	fprintf(f, "# r2c2d state_file: this node's flows with an estimated demand\nnode %u\n",
		node);
	/*
	 * The matrix lists node's flows when they are its own ones (the
	 * daemon's): the rack's are not walked, every 100 ms a demand moves
	 */
	if (mx->own_src == (int)node)
		for (i = 0; i < mx->own; i++)
			st_line(f, node, &mx->f[mx->own_ix[i]]);
	else
		for (i = 0; i < mx->n; i++)
			st_line(f, node, &mx->f[i]);
	if (fflush(f) || ferror(f))
		r = -errno ?: -EIO;
	if (fclose(f) && !r)
		r = -errno;
	if (!r && rename(tmp, path))
		r = -errno;
	if (r)
		unlink(tmp);
	return r;
}

/* a flow id as the file writes it: 1 to 8 hex digits, no 0x */
static int flow_id(const char *s, uint64_t *id)
{
	char hex[16];

	if (strlen(s) > 8 || !isxdigit((unsigned char)*s))
		return -EINVAL;
	snprintf(hex, sizeof(hex), "0x%s", s);
	return r2c2_parse_uint(hex, true, 0, UINT32_MAX, id);
}

static int cmp_ent(const void *a, const void *b)
{
	const struct st_ent *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

int st_load(const char *path, uint16_t node, struct st_ent **e, size_t *n,
	    char *err, size_t errlen)
{
	struct st_ent *v = NULL, *g;
	size_t nv = 0, cap = 0;
	uint64_t a, id, dst, dem;
	char line[256], *w[7];
	int nw;
	int lineno = 0, r = 0;
	bool mine = false, seen = false;
	FILE *f;

	*e = NULL;
	*n = 0;
	f = fopen(path, "re");
	if (!f) {
		if (errno == ENOENT)
			return 0;
		r = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return r;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		/* the words exactly as st_save() writes them */
		nw = r2c2_split_words(line, w, 6);
		if (nw == 2 && !strcmp(w[0], "node") && !seen &&
		    !r2c2_parse_uint(w[1], false, 0, R2C2_ADDR_NONE - 1, &a)) {
			seen = true;
			mine = a == node;
			continue;
		}
		if (seen && nw == 6 && !strcmp(w[0], "flow") && !flow_id(w[1], &id) &&
		    !strcmp(w[2], "dst") &&
		    !r2c2_parse_uint(w[3], false, 0, R2C2_ADDR_NONE - 1, &dst) &&
		    !strcmp(w[4], "demand") &&
		    !r2c2_parse_uint(w[5], false, 0, R2C2_DEMAND_UNLIMITED - 1, &dem)) {
			if (!mine)
				continue;
			if (nv == cap) {
				cap = cap ? 2 * cap : 64;
				g = realloc(v, cap * sizeof(*v));
				if (!g) {
					r = -ENOMEM;
					snprintf(err, errlen, "%s: out of memory",
						 path);
					goto out;
				}
				v = g;
			}
			v[nv++] = (struct st_ent){ (uint32_t)id, (uint16_t)dst, (uint32_t)dem };
			continue;
		}
		r = -EINVAL;
		snprintf(err, errlen, "%s:%d: want %s", path, lineno,
			 seen ? "\"flow HEXID dst ADDR demand KBPS\"" :
				"\"node ADDR\" first");
		goto out;
	}
	if (ferror(f)) {
		r = -EIO;
		snprintf(err, errlen, "%s: read error", path);
	}
out:
	fclose(f);
	if (r) {
		free(v);
		return r;
	}
	if (nv)
		qsort(v, nv, sizeof(*v), cmp_ent);
	*e = v;
	*n = nv;
	return 0;
}

uint32_t st_demand(const struct st_ent *e, size_t n, uint32_t id,
		   uint16_t dst)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;

		if (e[m].id < id)
			lo = m + 1;
		else
			hi = m;
	}
	/* ids are unique per source; a dst that differs is another flow */
	return lo < n && e[lo].id == id && e[lo].dst == dst ?
	       e[lo].demand_kbps : R2C2_DEMAND_UNLIMITED;
}
