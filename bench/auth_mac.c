// SPDX-License-Identifier: GPL-2.0
/*
 * auth_mac.c - cost of the MAC of an authenticated control frame
 * (kmod/auth.c): SipHash-2-4 with a 128-bit key over the control header,
 * the body and 16 bytes of trailer, for the sizes of a FLOW (20 + 16
 * bytes), an LSA of 6 links (40 + 16), a HELLO (16 + 16) and a ROUTES of
 * 209 entries (1,475 + 16). The algorithm as lib/siphash.c computes it
 * (the paper's reference: 8-byte words little-endian, the length in the
 * top byte of the last word), checked against the paper's test vector,
 * timed in userspace on the host: the kernel runs the same rounds, so
 * this is the MAC's cost on this CPU without the kernel around it (the
 * in-kernel cost, under KASAN, is in kunit/auth_test.c).
 *
 *   cc -O2 -o /tmp/auth_mac bench/auth_mac.c && /tmp/auth_mac [LOOPS]
 *
 * Prints one line a size: bytes, ns per MAC (median of 9 runs of LOOPS,
 * default 1,000,000).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND							\
	do {								\
		v0 += v1; v1 = ROTL(v1, 13); v1 ^= v0; v0 = ROTL(v0, 32); \
		v2 += v3; v3 = ROTL(v3, 16); v3 ^= v2;			\
		v0 += v3; v3 = ROTL(v3, 21); v3 ^= v0;			\
		v2 += v1; v1 = ROTL(v1, 17); v1 ^= v2; v2 = ROTL(v2, 32); \
	} while (0)

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint64_t siphash24(const uint8_t *in, size_t len, const uint8_t *key)
{
	uint64_t k0 = le64(key), k1 = le64(key + 8);
	uint64_t v0 = 0x736f6d6570736575ULL ^ k0;
	uint64_t v1 = 0x646f72616e646f6dULL ^ k1;
	uint64_t v2 = 0x6c7967656e657261ULL ^ k0;
	uint64_t v3 = 0x7465646279746573ULL ^ k1;
	uint64_t b = (uint64_t)len << 56, m;
	const uint8_t *end = in + len - (len % 8);
	size_t left = len & 7;

	for (; in != end; in += 8) {
		m = le64(in);
		v3 ^= m;
		SIPROUND;
		SIPROUND;
		v0 ^= m;
	}
	while (left--)
		b |= (uint64_t)in[left] << (8 * left);
	v3 ^= b;
	SIPROUND;
	SIPROUND;
	v0 ^= b;
	v2 ^= 0xff;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	return v0 ^ v1 ^ v2 ^ v3;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 16 + 16, 20 + 16, 40 + 16, 1475 + 16 };
	static const char *const what[] = { "HELLO", "FLOW", "LSA, 6 links",
					    "ROUTES, 209 entries" };
	unsigned long loops = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000;
	uint8_t key[16], buf[1500];
	volatile uint64_t sink = 0;
	double t[9], t0;
	unsigned long i;
	size_t s;
	int r;

	for (i = 0; i < 16; i++)
		key[i] = (uint8_t)i;
	for (i = 0; i < 15; i++)
		buf[i] = (uint8_t)i;
	if (siphash24(buf, 15, key) != 0xa129ca6149be45e5ULL) {
		fprintf(stderr, "auth_mac: SipHash-2-4 test vector failed\n");
		return 1;
	}
	memset(buf, 0x5a, sizeof(buf));
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		for (r = 0; r < 9; r++) {
			t0 = now_ns();
			for (i = 0; i < loops; i++) {
				buf[0] = (uint8_t)i;
				sink += siphash24(buf, sizes[s], key);
			}
			t[r] = (now_ns() - t0) / (double)loops;
		}
		qsort(t, 9, sizeof(t[0]), cmp);
		printf("%-20s %5zu bytes: %.1f ns per MAC (median of 9, min %.1f)\n",
		       what[s], sizes[s], t[4], t[0]);
	}
	(void)sink;
	return 0;
}
