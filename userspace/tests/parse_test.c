// SPDX-License-Identifier: GPL-2.0
/*
 * parse_test.c - the one set of number rules (lib/parse.c): what
 * r2c2_parse_uint(), r2c2_parse_double() and r2c2_parse_dims() take, what
 * they refuse and with which error, and that a refusal writes nothing.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "r2c2_alloc.h"
#include "alloc_tap.h"

struct ucase {
	const char *s;
	bool hex;
	uint64_t min, max;
	int ret;
	uint64_t v;
};

static const struct ucase ucases[] = {
	{ "0", false, 0, 10, 0, 0 },
	{ "10", false, 0, 10, 0, 10 },
	{ "0500", false, 0, 1000, 0, 500 },		/* not octal */
	{ "11", false, 0, 10, -ERANGE, 0 },
	{ "4", false, 5, 10, -ERANGE, 0 },
	{ "18446744073709551615", false, 0, UINT64_MAX, 0, UINT64_MAX },
	{ "18446744073709551616", false, 0, UINT64_MAX, -ERANGE, 0 },
	{ "99999999999999999999999", false, 0, UINT64_MAX, -ERANGE, 0 },
	{ "4294967297", false, 0, UINT32_MAX, -ERANGE, 0 },	/* no wrap */
	{ "", false, 0, 10, -EINVAL, 0 },
	{ " 1", false, 0, 10, -EINVAL, 0 },
	{ "1 ", false, 0, 10, -EINVAL, 0 },
	{ "+1", false, 0, 10, -EINVAL, 0 },
	{ "-1", false, 0, UINT64_MAX, -EINVAL, 0 },
	{ "1e3", false, 0, 10000, -EINVAL, 0 },
	{ "1.0", false, 0, 10, -EINVAL, 0 },
	{ "0x10", false, 0, 100, -EINVAL, 0 },		/* hex not asked for */
	{ "0x10", true, 0, 100, 0, 16 },
	{ "0XfF", true, 0, 1000, 0, 255 },
	{ "10", true, 0, 100, 0, 10 },			/* decimal still */
	{ "ff", true, 0, 1000, -EINVAL, 0 },		/* hex needs 0x */
	{ "0x", true, 0, 100, -EINVAL, 0 },
	{ "0x0x1", true, 0, 100, -EINVAL, 0 },
	{ "0x-1", true, 0, UINT64_MAX, -EINVAL, 0 },
	{ "0x 1", true, 0, 100, -EINVAL, 0 },
	{ "0x100000000", true, 0, UINT32_MAX, -ERANGE, 0 },
};

struct dcase {
	const char *s;
	double lo, hi;
	int ret;
	double v;
};

static const struct dcase dcases[] = {
	{ "0.5", 0, 1, 0, 0.5 },
	{ ".25", 0, 1, 0, 0.25 },
	{ "1e-3", 0, 1, 0, 1e-3 },
	{ "-0.5", -1, 1, 0, -0.5 },
	{ "2", 0, 1, -ERANGE, 0 },
	{ "-0.5", 0, 1, -ERANGE, 0 },
	{ "1e400", 0, INFINITY, -ERANGE, 0 },		/* beyond a double */
	{ "inf", 0, INFINITY, -EINVAL, 0 },
	{ "-infinity", -INFINITY, 0, -EINVAL, 0 },
	{ "nan", 0, 1, -EINVAL, 0 },
	{ "0x1p-2", 0, 1, -EINVAL, 0 },
	{ "+0.5", 0, 1, -EINVAL, 0 },
	{ " 0.5", 0, 1, -EINVAL, 0 },
	{ "0.5 ", 0, 1, -EINVAL, 0 },
	{ "0.5x", 0, 1, -EINVAL, 0 },
	{ ".", 0, 1, -EINVAL, 0 },
	{ "", 0, 1, -EINVAL, 0 },
	{ "-", -1, 1, -EINVAL, 0 },
};

int main(void)
{
	u8 dims[R2C2_MAX_DIMS];
	unsigned int i, nd, bad = 0;
	uint64_t v;
	double d;
	int r;

	for (i = 0; i < sizeof(ucases) / sizeof(ucases[0]); i++) {
		const struct ucase *c = &ucases[i];

		v = 12345;
		r = r2c2_parse_uint(c->s, c->hex, c->min, c->max, &v);
		ok(r == c->ret && v == (r ? 12345 : c->v),
		   "uint '%s'%s in %llu..%llu: %d, %llu (want %d, %llu)", c->s,
		   c->hex ? " (hex)" : "", (unsigned long long)c->min,
		   (unsigned long long)c->max, r, (unsigned long long)v, c->ret,
		   (unsigned long long)(c->ret ? 12345 : c->v));
	}
	ok(r2c2_parse_uint(NULL, false, 0, 1, &v) == -EINVAL, "uint NULL: -EINVAL");
	for (i = 0; i < sizeof(dcases) / sizeof(dcases[0]); i++) {
		const struct dcase *c = &dcases[i];

		d = 42;
		r = r2c2_parse_double(c->s, c->lo, c->hi, &d);
		ok(r == c->ret && d == (r ? 42 : c->v),
		   "double '%s' in [%g, %g]: %d, %g (want %d)", c->s, c->lo,
		   c->hi, r, d, c->ret);
	}
	/* every double printed with %.17g reads back exactly */
	{
		uint64_t seed = 5;

		for (i = 0; i < 10000; i++) {
			char buf[40];
			double x = (tunif(&seed) - 0.5) * pow(10, (int)tbelow(&seed, 40) - 20);

			snprintf(buf, sizeof(buf), "%.17g", x);
			bad += r2c2_parse_double(buf, -INFINITY, INFINITY, &d) || d != x;
		}
		ok(!bad, "10,000 random doubles read back bit for bit (%u did not)", bad);
	}

	/* rates: the same number rules, then a unit */
	ok(!r2c2_parse_rate("10G", &d) && d == 1e10 &&
	   !r2c2_parse_rate("2.5Gbit", &d) && d == 2.5e9 &&
	   !r2c2_parse_rate("100M", &d) && d == 1e8 &&
	   !r2c2_parse_rate("1e9", &d) && d == 1e9 &&
	   !r2c2_parse_rate("40kbps", &d) && d == 4e4 &&
	   !r2c2_parse_rate(".5k", &d) && d == 500,
	   "rates 10G, 2.5Gbit, 100M, 1e9, 40kbps, .5k");
	ok(r2c2_parse_rate("+5M", &d) == -EINVAL && r2c2_parse_rate("-5M", &d) == -EINVAL &&
	   r2c2_parse_rate("0x10", &d) == -EINVAL && r2c2_parse_rate("inf", &d) == -EINVAL &&
	   r2c2_parse_rate(" 1M", &d) == -EINVAL && r2c2_parse_rate("1 M", &d) == -EINVAL &&
	   r2c2_parse_rate("1Mx", &d) == -EINVAL && r2c2_parse_rate("", &d) == -EINVAL,
	   "rates +5M, -5M, 0x10, inf, ' 1M', '1 M', 1Mx, '': -EINVAL");
	ok(r2c2_parse_rate("1e300T", &d) == -ERANGE, "rate 1e300T: -ERANGE");

	ok(!r2c2_parse_dims("8x8x8", dims, &nd) && nd == 3 && dims[0] == 8 &&
	   dims[2] == 8, "dims 8x8x8");
	ok(!r2c2_parse_dims("2X255", dims, &nd) && nd == 2 && dims[1] == 255,
	   "dims 2X255 (either x)");
	ok(!r2c2_parse_dims("16", dims, &nd) && nd == 1 && dims[0] == 16, "dims 16");
	ok(r2c2_parse_dims("1x4", dims, &nd) == -ERANGE &&
	   r2c2_parse_dims("4x256", dims, &nd) == -ERANGE &&
	   r2c2_parse_dims("99999999999999999999999", dims, &nd) == -ERANGE,
	   "dims 1x4, 4x256, a huge radix: -ERANGE");
	ok(r2c2_parse_dims("2x2x2x2", dims, &nd) == -EINVAL &&
	   r2c2_parse_dims("4x", dims, &nd) == -EINVAL &&
	   r2c2_parse_dims("x4", dims, &nd) == -EINVAL &&
	   r2c2_parse_dims("4x-4", dims, &nd) == -EINVAL &&
	   r2c2_parse_dims("4x 4", dims, &nd) == -EINVAL &&
	   r2c2_parse_dims("4*4", dims, &nd) == -EINVAL &&
	   r2c2_parse_dims("", dims, &nd) == -EINVAL,
	   "dims 2x2x2x2, 4x, x4, 4x-4, '4x 4', 4*4, '': -EINVAL");
	return tap_done();
}
