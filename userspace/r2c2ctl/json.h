/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json.h - a tiny JSON writer and an iproute2-style print layer on top.
 *
 * The writer (jw_*) emits one or more top-level values to a FILE, each
 * followed by a newline (so a stream of objects is newline-delimited
 * JSON). Strings are escaped; bytes that are not valid UTF-8 become
 * U+FFFD, so the output is always valid JSON whatever the kernel sent.
 *
 * The print layer (print_*, open_*, close_*) is what the commands use:
 * each call names a JSON key and a text format, and does whichever the
 * output mode asks for, like iproute2's json_print.
 */
#ifndef _R2C2CTL_JSON_H
#define _R2C2CTL_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct json_writer;

struct json_writer *jw_new(FILE *f, bool pretty);
void jw_destroy(struct json_writer *jw);
void jw_name(struct json_writer *jw, const char *name);
void jw_obj_open(struct json_writer *jw);
void jw_obj_close(struct json_writer *jw);
void jw_arr_open(struct json_writer *jw);
void jw_arr_close(struct json_writer *jw);
void jw_string(struct json_writer *jw, const char *s);
void jw_string_len(struct json_writer *jw, const char *s, size_t len);
void jw_u64(struct json_writer *jw, uint64_t v);
void jw_bool(struct json_writer *jw, bool v);
void jw_null(struct json_writer *jw);
void jw_double(struct json_writer *jw, double v);

/*
 * The strict reader (daemon.c, for r2c2d's answers): whether @s is one
 * JSON value (RFC 8259, nested at most 32 deep) and white space.
 */
bool json_valid(const char *s);

/* Print layer: one global output, stdout. */
void print_init(bool json, bool pretty);
void print_fini(void);
bool is_json(void);

/*
 * @key is the JSON member name (NULL inside an array); @fmt the text-mode
 * printf format with one conversion for the value (NULL: JSON only).
 */
void open_obj(const char *key);
void close_obj(void);
void open_arr(const char *key);
void close_arr(void);
void print_str(const char *key, const char *fmt, const char *val);
void print_uint(const char *key, const char *fmt, unsigned long long val);
void print_bool(const char *key, const char *fmt, bool val);
void print_null(const char *key, const char *text);
void print_float(const char *key, const char *fmt, double val);
void print_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void print_nl(void);

#endif /* _R2C2CTL_JSON_H */
