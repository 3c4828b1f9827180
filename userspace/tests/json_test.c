// SPDX-License-Identifier: GPL-2.0
/*
 * json_test.c - TAP tests of the JSON writer r2c2ctl and r2c2d share
 * (lib/json.c) and r2c2ctl's print layer (r2c2ctl/json.c, built into this
 * test directly): string escaping, UTF-8 validation, numbers (doubles in
 * their shortest exact form), nesting, compact and pretty layouts,
 * newline-delimited streams.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../r2c2ctl/json.c"

static int tests, failures;

static void check(const char *name, const char *got, const char *want)
{
	tests++;
	if (!strcmp(got, want)) {
		printf("ok %d - %s\n", tests, name);
		return;
	}
	failures++;
	printf("not ok %d - %s\n#   got:  '%s'\n#   want: '%s'\n", tests, name,
	       got, want);
}

/* a writer on a memory buffer */
struct mem {
	char *buf;
	size_t len;
	FILE *f;
	struct json_writer *jw;
};

static struct json_writer *mem_open(struct mem *m, bool pretty)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	if (!m->f) {
		perror("open_memstream");
		exit(1);
	}
	m->jw = jw_new(m->f, pretty);
	if (!m->jw) {
		perror("jw_new");
		exit(1);
	}
	return m->jw;
}

static void mem_check(struct mem *m, const char *name, const char *want)
{
	jw_destroy(m->jw);
	fclose(m->f);
	check(name, m->buf, want);
	free(m->buf);
}

/* one top-level string of @len bytes */
static void string_case(const char *name, const char *s, size_t len,
			const char *want)
{
	struct mem m;

	jw_string_len(mem_open(&m, false), s, len);
	mem_check(&m, name, want);
}

#define STR(name, lit, want) string_case(name, lit, sizeof(lit) - 1, want)

static void test_strings(void)
{
	STR("plain ascii", "r2c0", "\"r2c0\"\n");
	STR("empty string", "", "\"\"\n");
	STR("quote and backslash", "a\"b\\c", "\"a\\\"b\\\\c\"\n");
	STR("short escapes", "\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\"\n");
	STR("other controls as \\u", "\x01\x1f", "\"\\u0001\\u001f\"\n");
	STR("DEL as \\u", "\x7f", "\"\\u007f\"\n");
	STR("slash not escaped", "a/b", "\"a/b\"\n");
	STR("NUL inside a counted string", "a\0b", "\"a\\u0000b\"\n");
	STR("2-byte UTF-8 kept", "\xc3\xa9", "\"\xc3\xa9\"\n");
	STR("3-byte UTF-8 kept", "\xe2\x82\xac", "\"\xe2\x82\xac\"\n");
	STR("4-byte UTF-8 kept", "\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"\n");
	STR("lone 0xff replaced", "a\xff" "b", "\"a\\ufffdb\"\n");
	STR("lone continuation replaced", "\x80", "\"\\ufffd\"\n");
	STR("truncated sequence replaced byte by byte", "\xe2\x82",
	    "\"\\ufffd\\ufffd\"\n");
	STR("overlong '/' replaced", "\xc0\xaf", "\"\\ufffd\\ufffd\"\n");
	STR("overlong 3-byte replaced", "\xe0\x80\xaf",
	    "\"\\ufffd\\ufffd\\ufffd\"\n");
	STR("surrogate replaced", "\xed\xa0\x80",
	    "\"\\ufffd\\ufffd\\ufffd\"\n");
	STR("above U+10FFFF replaced", "\xf4\x90\x80\x80",
	    "\"\\ufffd\\ufffd\\ufffd\\ufffd\"\n");
	STR("U+10FFFF kept", "\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"\n");
}

static void test_values(void)
{
	struct json_writer *jw;
	struct mem m;

	jw = mem_open(&m, false);
	jw_obj_open(jw);
	jw_name(jw, "max");
	jw_u64(jw, UINT64_MAX);
	jw_name(jw, "zero");
	jw_u64(jw, 0);
	jw_name(jw, "t");
	jw_bool(jw, true);
	jw_name(jw, "f");
	jw_bool(jw, false);
	jw_name(jw, "n");
	jw_null(jw);
	jw_name(jw, "key \"quoted\"");
	jw_string(jw, "v");
	jw_obj_close(jw);
	mem_check(&m, "scalars and an escaped key",
		  "{\"max\":18446744073709551615,\"zero\":0,\"t\":true,"
		  "\"f\":false,\"n\":null,\"key \\\"quoted\\\"\":\"v\"}\n");
}

static void build_nested(struct json_writer *jw)
{
	jw_arr_open(jw);
	jw_obj_open(jw);
	jw_name(jw, "port");
	jw_u64(jw, 0);
	jw_name(jw, "ports");
	jw_arr_open(jw);
	jw_u64(jw, 1);
	jw_u64(jw, 2);
	jw_arr_close(jw);
	jw_name(jw, "empty");
	jw_obj_open(jw);
	jw_obj_close(jw);
	jw_name(jw, "none");
	jw_arr_open(jw);
	jw_arr_close(jw);
	jw_obj_close(jw);
	jw_obj_open(jw);
	jw_obj_close(jw);
	jw_arr_close(jw);
}

static void test_nesting(void)
{
	struct mem m;

	build_nested(mem_open(&m, false));
	mem_check(&m, "nested compact",
		  "[{\"port\":0,\"ports\":[1,2],\"empty\":{},\"none\":[]},{}]\n");

	build_nested(mem_open(&m, true));
	mem_check(&m, "nested pretty",
		  "[\n"
		  "    {\n"
		  "        \"port\": 0,\n"
		  "        \"ports\": [\n"
		  "            1,\n"
		  "            2\n"
		  "        ],\n"
		  "        \"empty\": {},\n"
		  "        \"none\": []\n"
		  "    },\n"
		  "    {}\n"
		  "]\n");
}

static void test_stream(void)
{
	struct json_writer *jw;
	struct mem m;

	jw = mem_open(&m, false);
	jw_obj_open(jw);
	jw_name(jw, "event");
	jw_string(jw, "flow");
	jw_obj_close(jw);
	jw_obj_open(jw);
	jw_name(jw, "event");
	jw_string(jw, "topo");
	jw_obj_close(jw);
	mem_check(&m, "one top-level value a line",
		  "{\"event\":\"flow\"}\n{\"event\":\"topo\"}\n");

	jw = mem_open(&m, false);
	jw_u64(jw, 7);
	jw_null(jw);
	mem_check(&m, "top-level scalars end their lines", "7\nnull\n");
}

static void double_case(const char *name, double v, const char *want)
{
	struct mem m;

	jw_double(mem_open(&m, false), v);
	mem_check(&m, name, want);
}

static void test_numbers(void)
{
	struct mem m;
	uint64_t x = 0x9e3779b97f4a7c15ull;
	unsigned int i, bad = 0, longer = 0;
	char want[40];

	double_case("0.1 as written, not 0.10000000000000001", 0.1, "0.1\n");
	double_case("a third in 16 digits", 1.0 / 3, "0.3333333333333333\n");
	double_case("0.1 + 0.2 needs 17", 0.1 + 0.2, "0.30000000000000004\n");
	double_case("integral double", 1e9, "1000000000\n");
	double_case("small", 2.5e-7, "2.5e-07\n");
	double_case("large", 1e300, "1e+300\n");
	double_case("negative zero", -0.0, "-0\n");
	double_case("NaN is null", NAN, "null\n");
	double_case("infinity is null", -INFINITY, "null\n");

	/*
	 * 10^5 doubles of random bits: each reads back exactly, in at most
	 * 24 characters ("-1.2345678901234567e-308")
	 */
	for (i = 0; i < 100000; i++) {
		double v, back;
		char *buf = NULL;
		size_t len = 0;
		FILE *f;
		struct json_writer *jw;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		memcpy(&v, &x, sizeof(v));
		if (!isfinite(v))
			continue;
		f = open_memstream(&buf, &len);
		jw = f ? jw_new(f, false) : NULL;
		if (!jw)
			exit(1);
		jw_double(jw, v);
		jw_destroy(jw);
		fclose(f);
		back = strtod(buf, NULL);
		if (memcmp(&back, &v, sizeof(v)))
			bad++;
		if (strlen(buf) > 24 + 1)
			longer++;
		free(buf);
	}
	snprintf(want, sizeof(want), "%u %u", bad, longer);
	check("10^5 random doubles read back exactly, none over 24 characters",
	      want, "0 0");

	jw_i64(mem_open(&m, false), INT64_MIN);
	mem_check(&m, "i64 minimum", "-9223372036854775808\n");
	jw_i64(mem_open(&m, false), -1);
	mem_check(&m, "i64 -1", "-1\n");
	jw_fixed(mem_open(&m, false), 12.345, 1);
	mem_check(&m, "fixed: one decimal", "12.3\n");
	jw_fixed(mem_open(&m, false), 2.5e6, 0);
	mem_check(&m, "fixed: no decimals", "2500000\n");
	jw_fixed(mem_open(&m, false), NAN, 1);
	mem_check(&m, "fixed: NaN is null", "null\n");
}

int main(void)
{
	test_strings();
	test_values();
	test_numbers();
	test_nesting();
	test_stream();
	printf("1..%d\n", tests);
	if (failures)
		printf("# %d of %d failed\n", failures, tests);
	return failures ? 1 : 0;
}
