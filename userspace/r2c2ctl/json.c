// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - the print layer r2c2ctl's commands use to produce either text
 * or JSON from the same calls, on the writer of lib/json.c.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

/* ------------------------------------------------------------------ */
/* Print layer                                                         */
/* ------------------------------------------------------------------ */

static struct json_writer *out;

void print_init(bool json, bool pretty)
{
	if (json && !out) {
		out = jw_new(stdout, pretty);
		if (!out) {
			fputs("r2c2ctl: out of memory\n", stderr);
			exit(1);
		}
	}
}

void print_fini(void)
{
	jw_destroy(out);
	out = NULL;
	fflush(stdout);
}

bool is_json(void)
{
	return out != NULL;
}

static void json_key(const char *key)
{
	if (key)
		jw_name(out, key);
}

void open_obj(const char *key)
{
	if (out) {
		json_key(key);
		jw_obj_open(out);
	}
}

void close_obj(void)
{
	if (out)
		jw_obj_close(out);
}

void open_arr(const char *key)
{
	if (out) {
		json_key(key);
		jw_arr_open(out);
	}
}

void close_arr(void)
{
	if (out)
		jw_arr_close(out);
}

void print_str(const char *key, const char *fmt, const char *val)
{
	if (out) {
		json_key(key);
		jw_string(out, val);
	} else if (fmt) {
		printf(fmt, val);
	}
}

void print_uint(const char *key, const char *fmt, unsigned long long val)
{
	if (out) {
		json_key(key);
		jw_u64(out, val);
	} else if (fmt) {
		printf(fmt, val);
	}
}

void print_bool(const char *key, const char *fmt, bool val)
{
	if (out) {
		json_key(key);
		jw_bool(out, val);
	} else if (fmt) {
		printf(fmt, val ? "true" : "false");
	}
}

void print_float(const char *key, const char *fmt, double val)
{
	if (out) {
		json_key(key);
		jw_double(out, val);
	} else if (fmt) {
		printf(fmt, val);
	}
}

void print_null(const char *key, const char *text)
{
	if (out) {
		json_key(key);
		jw_null(out);
	} else if (text) {
		fputs(text, stdout);
	}
}

void print_text(const char *fmt, ...)
{
	va_list ap;

	if (out)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

void print_nl(void)
{
	if (!out)
		putchar('\n');
}
