// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - the JSON writer of r2c2ctl and r2c2d (r2c2_json.h): objects,
 * arrays, escaped strings, integers, doubles, bool and null, compact or
 * pretty, each top-level value on a line of its own.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "r2c2_json.h"

#define JW_MAX_DEPTH	32

struct json_writer {
	FILE *f;
	bool pretty;
	unsigned int depth;
	/* per level: values written so far, and whether a name is pending */
	unsigned int count[JW_MAX_DEPTH];
	bool named;
};

struct json_writer *jw_new(FILE *f, bool pretty)
{
	struct json_writer *jw = calloc(1, sizeof(*jw));

	if (!jw)
		return NULL;
	jw->f = f;
	jw->pretty = pretty;
	return jw;
}

void jw_destroy(struct json_writer *jw)
{
	free(jw);
}

static void jw_indent(struct json_writer *jw)
{
	unsigned int i;

	fputc('\n', jw->f);
	for (i = 0; i < jw->depth; i++)
		fputs("    ", jw->f);
}

/* Separator and indentation before a value or a name. */
static void jw_begin(struct json_writer *jw)
{
	if (jw->named) {
		jw->named = false;
		return;
	}
	if (jw->depth == 0)
		return;
	if (jw->count[jw->depth - 1]++)
		fputc(',', jw->f);
	if (jw->pretty)
		jw_indent(jw);
}

/* After a complete value: a top-level value ends its line. */
static void jw_end(struct json_writer *jw)
{
	if (jw->depth == 0) {
		fputc('\n', jw->f);
		fflush(jw->f);
	}
}

/*
 * Length of the valid UTF-8 sequence at @s (at most @len bytes), or 0
 * when it is not one: overlong forms, surrogates and code points above
 * U+10FFFF are rejected (RFC 3629).
 */
static size_t utf8_seq(const unsigned char *s, size_t len)
{
	size_t n, i;
	unsigned int cp, min;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2; cp = s[0] & 0x1f; min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3; cp = s[0] & 0x0f; min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4; cp = s[0] & 0x07; min = 0x10000;
	} else {
		return 0;
	}
	if (len < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

static void jw_quote(struct json_writer *jw, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, n;

	fputc('"', jw->f);
	while (i < len) {
		unsigned char c = s[i];

		switch (c) {
		case '"':  fputs("\\\"", jw->f); break;
		case '\\': fputs("\\\\", jw->f); break;
		case '\b': fputs("\\b", jw->f); break;
		case '\f': fputs("\\f", jw->f); break;
		case '\n': fputs("\\n", jw->f); break;
		case '\r': fputs("\\r", jw->f); break;
		case '\t': fputs("\\t", jw->f); break;
		default:
			if (c < 0x20 || c == 0x7f) {
				fprintf(jw->f, "\\u%04x", c);
			} else if (c >= 0x80) {
				n = utf8_seq(s + i, len - i);
				if (!n) {
					fputs("\\ufffd", jw->f);
					break;
				}
				fwrite(s + i, 1, n, jw->f);
				i += n;
				continue;
			} else {
				fputc(c, jw->f);
			}
		}
		i++;
	}
	fputc('"', jw->f);
}

void jw_name(struct json_writer *jw, const char *name)
{
	jw_begin(jw);
	jw_quote(jw, name, strlen(name));
	fputs(jw->pretty ? ": " : ":", jw->f);
	jw->named = true;
}

static void jw_open(struct json_writer *jw, char c)
{
	if (jw->depth == JW_MAX_DEPTH)
		abort();	/* its users nest a few levels, never this many */
	jw_begin(jw);
	fputc(c, jw->f);
	jw->count[jw->depth++] = 0;
}

static void jw_close(struct json_writer *jw, char c)
{
	if (!jw->depth)
		return;
	jw->depth--;
	if (jw->pretty && jw->count[jw->depth])
		jw_indent(jw);
	fputc(c, jw->f);
	jw_end(jw);
}

void jw_obj_open(struct json_writer *jw)
{
	jw_open(jw, '{');
}

void jw_obj_close(struct json_writer *jw)
{
	jw_close(jw, '}');
}

void jw_arr_open(struct json_writer *jw)
{
	jw_open(jw, '[');
}

void jw_arr_close(struct json_writer *jw)
{
	jw_close(jw, ']');
}

void jw_string_len(struct json_writer *jw, const char *s, size_t len)
{
	jw_begin(jw);
	jw_quote(jw, s, len);
	jw_end(jw);
}

void jw_string(struct json_writer *jw, const char *s)
{
	jw_string_len(jw, s, strlen(s));
}

void jw_u64(struct json_writer *jw, uint64_t v)
{
	jw_begin(jw);
	fprintf(jw->f, "%llu", (unsigned long long)v);
	jw_end(jw);
}

void jw_bool(struct json_writer *jw, bool v)
{
	jw_begin(jw);
	fputs(v ? "true" : "false", jw->f);
	jw_end(jw);
}

void jw_null(struct json_writer *jw)
{
	jw_begin(jw);
	fputs("null", jw->f);
	jw_end(jw);
}

void jw_i64(struct json_writer *jw, int64_t v)
{
	jw_begin(jw);
	fprintf(jw->f, "%lld", (long long)v);
	jw_end(jw);
}

/*
 * The shortest of %.15g, %.16g and %.17g that reads back to the same
 * double (%.17g always does): 0.1 is "0.1", not "0.10000000000000001".
 * JSON has no NaN or infinity: null.
 */
void jw_double(struct json_writer *jw, double v)
{
	char b[32];
	int prec;

	jw_begin(jw);
	if (isfinite(v)) {
		for (prec = 15; prec < 17; prec++) {
			snprintf(b, sizeof(b), "%.*g", prec, v);
			if (strtod(b, NULL) == v)
				break;
		}
		if (prec == 17)
			snprintf(b, sizeof(b), "%.17g", v);
		fputs(b, jw->f);
	} else {
		fputs("null", jw->f);
	}
	jw_end(jw);
}

/* v with @decimals digits after the point (%.*f), or null */
void jw_fixed(struct json_writer *jw, double v, int decimals)
{
	jw_begin(jw);
	if (isfinite(v))
		fprintf(jw->f, "%.*f", decimals, v);
	else
		fputs("null", jw->f);
	jw_end(jw);
}

