/* SPDX-License-Identifier: GPL-2.0 */
/*
 * r2c2_json.h - a small JSON writer (lib/json.c), r2c2ctl's and r2c2d's.
 *
 * The writer (jw_*) emits one or more top-level values to a FILE, each
 * followed by a newline (so a stream of objects is newline-delimited
 * JSON). Strings are escaped; bytes that are not valid UTF-8 become
 * U+FFFD, so the output is always valid JSON whatever the input held.
 * A value inside an object follows jw_name(); nesting is at most 32 deep.
 */
#ifndef _R2C2_JSON_H
#define _R2C2_JSON_H

#include <stdbool.h>
#include <stddef.h>
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
void jw_i64(struct json_writer *jw, int64_t v);
void jw_double(struct json_writer *jw, double v);
void jw_fixed(struct json_writer *jw, double v, int decimals);

#endif /* _R2C2_JSON_H */
