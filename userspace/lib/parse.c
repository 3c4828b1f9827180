// SPDX-License-Identifier: GPL-2.0
/*
 * parse.c - the number, rate and topology-spec parsers every r2c2
 * program uses, and the word splitter of its files, with one set of
 * rules: the whole string, no sign, no leading
 * space, decimal (hexadecimal only where asked, with "0x"; never octal),
 * and a range; -EINVAL for what is not such a number, -ERANGE for one
 * out of range (overflow included).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "r2c2_alloc.h"

/**
 * r2c2_parse_uint() - an unsigned integer in [min, max]
 * @s: the string: decimal digits, or with @hex "0x" (or "0X") and
 *	hexadecimal digits; nothing before or after
 * @hex: whether "0x..." is accepted
 * @min: least value accepted
 * @max: greatest value accepted
 * @out: the value, written only on success
 *
 * "0500" is 500. A value too large for 64 bits is -ERANGE, as one
 * outside [min, max].
 *
 * Return: 0, -EINVAL or -ERANGE.
 */
int r2c2_parse_uint(const char *s, bool hex, uint64_t min, uint64_t max,
		    uint64_t *out)
{
	unsigned long long v;
	int base = 10;
	char *end;

	if (!s)
		return -EINVAL;
	if (hex && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		base = 16;
	}
	/* digits only: strtoull() would take a sign, spaces, a second 0x */
	if (!*s || s[strspn(s, base == 16 ? "0123456789abcdefABCDEF" :
				 "0123456789")])
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, base);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/*
 * whether d starts a number as these rules write one: a digit, or '.'
 * and a digit; not "0x" (strtod() would read hexadecimal), "inf" or
 * "nan", a sign or a space
 */
static bool decimal_start(const char *d)
{
	if (d[0] == '0' && (d[1] == 'x' || d[1] == 'X'))
		return false;
	return isdigit((unsigned char)*d) ||
	       (*d == '.' && isdigit((unsigned char)d[1]));
}

/**
 * r2c2_parse_double() - a finite number in [lo, hi]
 * @s: the string: an optional '-', then a decimal number as strtod()
 *	reads it ("1e3", "-0.5", ".25"); nothing before or after, no '+',
 *	no "inf", "nan" or hexadecimal
 * @lo: least value accepted
 * @hi: greatest value accepted
 * @out: the value, written only on success
 *
 * Return: 0, -EINVAL or -ERANGE (outside [lo, hi], or beyond a double).
 */
int r2c2_parse_double(const char *s, double lo, double hi, double *out)
{
	const char *d;
	char *end;
	double v;

	if (!s)
		return -EINVAL;
	d = s + (*s == '-');
	if (!decimal_start(d))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || !isfinite(v) || !(v >= lo && v <= hi))
		return -ERANGE;
	*out = v;
	return 0;
}

/**
 * r2c2_parse_dims() - the radices of a torus or mesh: "8x8x8"
 * @s: 1..R2C2_MAX_DIMS decimal radices, each 2..255, joined by 'x' (or 'X')
 * @dims: out, R2C2_MAX_DIMS radices
 * @ndims: out, how many
 *
 * Return: 0, -EINVAL (malformed, too many dimensions) or -ERANGE (a
 * radix outside 2..255).
 */
int r2c2_parse_dims(const char *s, u8 *dims, unsigned int *ndims)
{
	unsigned int nd = 0;

	for (;;) {
		unsigned long long v;
		char *end;

		if (!isdigit((unsigned char)*s) || nd == R2C2_MAX_DIMS)
			return -EINVAL;
		errno = 0;
		v = strtoull(s, &end, 10);
		if (*end && *end != 'x' && *end != 'X')
			return -EINVAL;
		if (errno == ERANGE || v < 2 || v > 255)
			return -ERANGE;
		dims[nd++] = (u8)v;
		if (!*end)
			break;
		s = end + 1;
	}
	*ndims = nd;
	return 0;
}

/**
 * r2c2_parse_rate() - parse a rate with an optional SI suffix
 * @s: "10G", "2.5Gbit", "100Mbps", "40k", "1e9"; suffixes k, M, G, T
 *	(powers of 1000), optionally followed by "bit", "bps" or "b"
 * @out: bit/s
 *
 * Return: 0, -EINVAL when malformed, not finite or negative, or -ERANGE
 * above R2C2_PARSE_RATE_MAX (a finite number can overflow with its
 * suffix: 1e300T).
 */
int r2c2_parse_rate(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !decimal_start(s))
		return -EINVAL;
	v = strtod(s, &end);
	if (end == s || !isfinite(v) || v < 0)
		return -EINVAL;
	switch (*end) {
	case 'k': case 'K': v *= 1e3; end++; break;
	case 'm': case 'M': v *= 1e6; end++; break;
	case 'g': case 'G': v *= 1e9; end++; break;
	case 't': case 'T': v *= 1e12; end++; break;
	default: break;
	}
	if (!strcmp(end, "bit") || !strcmp(end, "bps") || !strcmp(end, "b"))
		end += strlen(end);
	if (*end)
		return -EINVAL;
	if (!(v <= R2C2_PARSE_RATE_MAX))
		return -ERANGE;
	*out = v;
	return 0;
}

/**
 * r2c2_split_words() - the words of a line, in place
 * @line: split at spaces, tabs, CR and LF (strtok_r())
 * @w: out, the words
 * @max: room in @w
 *
 * Return: how many words, or @max + 1 when there are more.
 */
int r2c2_split_words(char *line, char **w, int max)
{
	char *save = NULL, *tok;
	int c = 0;

	for (tok = strtok_r(line, " \t\r\n", &save); tok;
	     tok = strtok_r(NULL, " \t\r\n", &save)) {
		if (c == max)
			return max + 1;
		w[c++] = tok;
	}
	return c;
}
