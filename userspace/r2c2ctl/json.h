/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json.h - an iproute2-style print layer on the JSON writer of
 * lib/r2c2_json.h, and the strict reader of r2c2d's answers.
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

#include "r2c2_json.h"

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
