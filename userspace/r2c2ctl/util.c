// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - usage errors, strict parsing of numbers and keywords, and the
 * names of the enum values of <linux/r2c2.h> for r2c2ctl.
 *
 * Every parser names the bad token in its message, so that a script's
 * author sees which word was wrong; nothing reaches the kernel before
 * the whole command line has parsed.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "r2c2_alloc.h"
#include "r2c2ctl.h"

const char *ctl_object;

static void usage_hint(void)
{
	if (ctl_object)
		fprintf(stderr, "Try \"r2c2ctl %s help\".\n", ctl_object);
	else
		fputs("Try \"r2c2ctl help\".\n", stderr);
}

int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("r2c2ctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage_hint();
	return R2C2CTL_EXIT_USAGE;
}

/* does @tok name @name? a space-separated list of aliases */
static bool name_in(const char *tok, const char *names, bool prefix)
{
	size_t len = strlen(tok), n;

	while (*names) {
		n = strcspn(names, " ");
		if (prefix ? len <= n && !strncmp(tok, names, len) :
			     len == n && !strncmp(tok, names, n))
			return true;
		names += n;
		names += strspn(names, " ");
	}
	return false;
}

int match_word(const char *what, const char *tok, const char *const *names)
{
	int i, found = MATCH_NONE, count = 0;
	char list[256];
	size_t used = 0, n;

	if (!*tok)
		return MATCH_NONE;
	for (i = 0; names[i]; i++)
		if (name_in(tok, names[i], false))
			return i;
	list[0] = '\0';
	for (i = 0; names[i]; i++) {
		if (!name_in(tok, names[i], true))
			continue;
		found = i;
		count++;
		n = strcspn(names[i], " ");
		if (used + n + 3 < sizeof(list))
			used += (size_t)snprintf(list + used, sizeof(list) - used,
						 "%s%.*s", used ? ", " : "",
						 (int)n, names[i]);
	}
	if (count > 1) {
		usage_error("ambiguous %s \"%s\": %s", what, tok, list);
		return MATCH_AMBIGUOUS;
	}
	return found;
}

char *match_name(const char *names, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(names, " "), names);
	return buf;
}

bool matches(const char *tok, const char *keyword)
{
	size_t len = strlen(tok);

	return len && len <= strlen(keyword) && !strncmp(tok, keyword, len);
}

int invalid_arg(const char *what, const char *tok, const char *why)
{
	if (why)
		return usage_error("invalid %s \"%s\" (%s)", what, tok, why);
	return usage_error("invalid %s \"%s\"", what, tok);
}

int missing_arg(const char *keyword)
{
	return usage_error("missing value after \"%s\"", keyword);
}

int duplicate_arg(const char *keyword)
{
	return usage_error("\"%s\" given twice", keyword);
}

int unknown_arg(const char *tok)
{
	return usage_error("unknown argument \"%s\"", tok);
}

bool is_help(const char *tok)
{
	return !strcmp(tok, "help");
}

int extra_arg(const char *tok, void (*usage)(FILE *f))
{
	if (!is_help(tok))
		return unknown_arg(tok);
	usage(stdout);
	return R2C2CTL_EXIT_OK;
}

/* usage message, then -1: what the parsers return */
static int bad(const char *what, const char *tok, const char *why)
{
	invalid_arg(what, tok, why);
	return -1;
}

/* Decimal, or hex with 0x; no sign, no spaces, no octal (r2c2_parse_uint()) */
int parse_u32(const char *what, const char *s, uint32_t min, uint32_t max,
	      uint32_t *v)
{
	uint64_t x;
	char why[48];

	if (r2c2_parse_uint(s, true, min, max, &x)) {
		snprintf(why, sizeof(why), "expected %u..%u", min, max);
		return bad(what, s, why);
	}
	*v = (uint32_t)x;
	return 0;
}

int parse_addr(const char *what, const char *s, uint16_t *v)
{
	uint32_t x;

	if (parse_u32(what, s, 0, R2C2_ADDR_NONE - 1, &x))
		return -1;
	*v = (uint16_t)x;
	return 0;
}

int parse_port(const char *s, uint8_t *v)
{
	uint32_t x;

	if (parse_u32("port", s, 0, R2C2_MAX_PORTS - 1, &x))
		return -1;
	*v = (uint8_t)x;
	return 0;
}

int parse_flowid(const char *s, uint32_t *v)
{
	return parse_u32("flow id", s, 0, UINT32_MAX, v);
}

/* names indexed by enum value; NULL holes are unnamed values */
static const char *const port_state_names[] = {
	[R2C2_PS_DOWN] = "down",
	[R2C2_PS_UP] = "up",
	[R2C2_PS_NBR] = "neighbour",
};

static const char *const flow_evt_names[] = {
	[R2C2_FE_START] = "start",
	[R2C2_FE_FINISH] = "finish",
	[R2C2_FE_UPDATE] = "update",
	[R2C2_FE_REFRESH] = "refresh",
	[R2C2_FE_DIGEST] = "digest",
	[R2C2_FE_RESYNC] = "resync",
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *enum_name(const char *const *names, size_t n,
			     unsigned int v, char *buf, size_t len)
{
	if (v < n && names[v])
		return names[v];
	snprintf(buf, len, "%u", v);
	return buf;
}

static int enum_parse(const char *const *names, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], s))
			return (int)i;
	return -1;
}

/* routing protocols: libr2c2's names (flow files use the same) */
const char *rproto_name(unsigned int v, char *buf, size_t len)
{
	if (v < __R2C2_RP_MAX)
		return r2c2_rproto_name((int)v);
	snprintf(buf, len, "%u", v);
	return buf;
}

const char *port_state_name(unsigned int v, char *buf, size_t len)
{
	return enum_name(port_state_names, ARRAY_SIZE(port_state_names), v,
			 buf, len);
}

const char *flow_evt_name(unsigned int v, char *buf, size_t len)
{
	return enum_name(flow_evt_names, ARRAY_SIZE(flow_evt_names), v,
			 buf, len);
}

int parse_rproto(const char *s, uint8_t *v)
{
	int i = r2c2_parse_rproto(s);

	/* keywords are exact on the command line; files may say "RPS" */
	if (i < 0 || strcmp(r2c2_rproto_name(i), s))
		return bad("routing", s, "expected rps, dor, vlb or wlb");
	*v = (uint8_t)i;
	return 0;
}

int parse_flow_evt(const char *s, uint8_t *v)
{
	int i = enum_parse(flow_evt_names, ARRAY_SIZE(flow_evt_names), s);

	if (i < 0)
		return bad("event type", s,
			   "expected start, finish, update or refresh");
	*v = (uint8_t)i;
	return 0;
}

/*
 * A demand: the rates of flow files (r2c2_parse_rate(): bit/s with an
 * optional k, M, G or T and an optional "bit", "bps" or "b"), or
 * "unlimited"; sent in whole Kbit/s, rounded up.
 */
int parse_rate(const char *s, uint32_t *kbps)
{
	double bits, k;
	int r;

	if (!strcmp(s, "unlimited")) {
		*kbps = R2C2_DEMAND_UNLIMITED;
		return 0;
	}
	r = r2c2_parse_rate(s, &bits);
	if (r && r != -ERANGE)
		return bad("rate", s,
			   "expected e.g. 100M, 10G, 1500k or unlimited");
	/* decimal input such as 4.35M lands a hair above a whole Kbit/s */
	k = r ? INFINITY : ceil(bits / 1000 * (1 - 1e-12));
	if (k >= R2C2_DEMAND_UNLIMITED) {
		char lim[64];

		snprintf(lim, sizeof(lim), "at most %uk; use unlimited",
			 R2C2_DEMAND_UNLIMITED - 1);
		return bad("rate", s, lim);
	}
	*kbps = (uint32_t)k;
	return 0;
}

void format_rate(uint32_t kbps, char *buf, size_t len)
{
	if (kbps >= R2C2_DEMAND_UNLIMITED)
		snprintf(buf, len, "unlimited");
	else if (kbps && kbps % 1000000000u == 0)
		snprintf(buf, len, "%uTbit", kbps / 1000000000u);
	else if (kbps && kbps % 1000000u == 0)
		snprintf(buf, len, "%uGbit", kbps / 1000000u);
	else if (kbps && kbps % 1000u == 0)
		snprintf(buf, len, "%uMbit", kbps / 1000u);
	else
		snprintf(buf, len, "%ukbit", kbps);
}

/* "none", or "torus:" and 1..3 radices of 2..255 joined by 'x' */
int parse_topology(const char *s, uint8_t *dims, unsigned int *ndims)
{
	static const char why[] = "expected torus:K1[xK2[xK3]], each K in 2..255, or none";
	int r;

	if (!strcmp(s, "none")) {
		*ndims = 0;
		return 0;
	}
	if (strncmp(s, "torus:", 6))
		return bad("topology", s, why);
	r = r2c2_parse_dims(s + 6, dims, ndims);
	if (r == -ERANGE)
		return bad("topology", s, "a radix out of range 2..255");
	if (r)
		return bad("topology", s, why);
	return 0;
}

/* the kernel's dev_valid_name() */
int parse_ifname(const char *what, const char *s)
{
	if (!*s || strlen(s) >= IFNAMSIZ)
		return bad(what, s, "1 to 15 characters");
	if (!strcmp(s, ".") || !strcmp(s, ".."))
		return bad(what, s, NULL);
	if (strpbrk(s, "/: \t\n\v\f\r"))
		return bad(what, s, "no '/', ':' or spaces");
	return 0;
}

/* seconds, up to millisecond precision: "5", "0.25" */
int parse_seconds(const char *s, int *ms)
{
	static const char why[] = "expected seconds, e.g. 5 or 0.5, above 0";
	unsigned long long v = 0;
	unsigned int frac = 0, digits = 0;
	const char *p = s;

	if (!isdigit((unsigned char)*p))
		return bad("timeout", s, why);
	while (isdigit((unsigned char)*p)) {
		v = v * 10 + (unsigned long long)(*p++ - '0');
		if (v > 2000000)
			return bad("timeout", s, "at most 2000000 seconds");
	}
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return bad("timeout", s, why);
		for (; isdigit((unsigned char)*p); p++) {
			if (++digits > 3)
				return bad("timeout", s, "at most 3 decimals");
			frac = frac * 10 + (unsigned int)(*p - '0');
		}
		for (; digits < 3; digits++)
			frac *= 10;
	}
	if (*p || (v == 0 && frac == 0))
		return bad("timeout", s, why);
	*ms = (int)(v * 1000 + frac);
	return 0;
}

void print_demand(uint32_t kbps)
{
	char buf[32];

	format_rate(kbps, buf, sizeof(buf));
	print_text(" demand %s", buf);
	if (kbps >= R2C2_DEMAND_UNLIMITED)
		print_null("demand_kbps", NULL);
	else
		print_uint("demand_kbps", NULL, kbps);
}

void format_flowid(uint32_t id, char *buf, size_t len)
{
	snprintf(buf, len, "0x%08x", id);
}

void format_mac(const uint8_t *mac, char *buf, size_t len)
{
	snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x",
		 mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]);
}
