// SPDX-License-Identifier: GPL-2.0
/*
 * wire_test.c - KUnit tests of include/uapi/linux/r2c2.h (layout) and
 * include/r2c2/wire.h (encode and decode), in the order of the header.
 *
 * Test names are function__case; one case per branch where a function
 * has branches. Expected values come from the documented layout and from
 * independent reference computations (the checksum vectors were computed
 * with a plain RFC 1071 implementation, the topology hashes with FNV-1a).
 */
#include <kunit/test.h>
#include <linux/build_bug.h>
#include <linux/if_ether.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/stddef.h>
#include <r2c2/wire.h>

/* Reference encoding of a hop: bit b of the port in route bit 3i+b. */
static void ref_route_set(u8 *route, unsigned int i, u8 port)
{
	unsigned int b, bit;

	for (b = 0; b < 3; b++) {
		bit = 3 * i + b;
		if (port & (1u << b))
			route[bit / 8] |= (u8)(1u << (bit % 8));
		else
			route[bit / 8] &= (u8)~(1u << (bit % 8));
	}
}

/* A data header with every field set; csum left zero. */
static void fill_data_hdr(struct r2c2_data_hdr *h)
{
	memset(h, 0, sizeof(*h));
	h->ver_type = r2c2_ver_type(R2C2_T_DATA);
	h->rlen = 3;
	h->ridx = 0;
	h->rproto = R2C2_RP_DOR;
	h->flow = cpu_to_be32(0xdeadbeef);
	h->src = cpu_to_be16(1);
	h->dst = cpu_to_be16(8);
	h->seq = cpu_to_be32(7);
	h->plen = cpu_to_be16(1500);
	h->proto = cpu_to_be16(0x0800);
	/* hops 2, 0, 3 */
	h->route[0] = 0xc2;
}

/* ---------------------------------------------------------------- */
/* include/uapi/linux/r2c2.h: sizes and offsets of the wire structs  */
/* ---------------------------------------------------------------- */

static void r2c2_data_hdr__layout(struct kunit *test)
{
	BUILD_BUG_ON(sizeof(struct r2c2_data_hdr) != 40);
	BUILD_BUG_ON(sizeof(struct r2c2_data_hdr) != R2C2_DATA_HLEN);
	KUNIT_EXPECT_EQ(test, sizeof(struct r2c2_data_hdr), 40);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_data_hdr, ver_type), 0);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_data_hdr, rlen), 1);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_data_hdr, ridx), 2);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_data_hdr, rproto), 3);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_data_hdr, flow), 4);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_data_hdr, src), 8);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_data_hdr, dst), 10);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_data_hdr, seq), 12);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_data_hdr, plen), 16);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_data_hdr, proto), 18);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_data_hdr, csum), 20);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_data_hdr, resv), 22);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_data_hdr, route), 24);
	KUNIT_EXPECT_EQ(test, sizeof_field(struct r2c2_data_hdr, route),
			R2C2_ROUTE_BYTES);
}

static void r2c2_data_hdr__route_capacity(struct kunit *test)
{
	/* 42 hops of 3 bits fit the 128-bit route field, 43 would not */
	BUILD_BUG_ON(3 * R2C2_MAX_HOPS > 8 * R2C2_ROUTE_BYTES);
	BUILD_BUG_ON(3 * (R2C2_MAX_HOPS + 1) <= 8 * R2C2_ROUTE_BYTES);
	BUILD_BUG_ON(R2C2_MAX_PORTS != 8);
	KUNIT_EXPECT_EQ(test, R2C2_MAX_HOPS, 42);
	KUNIT_EXPECT_EQ(test, R2C2_ROUTE_BYTES, 16);
}

static void r2c2_ctl_hdr__layout(struct kunit *test)
{
	BUILD_BUG_ON(sizeof(struct r2c2_ctl_hdr) != 8);
	BUILD_BUG_ON(sizeof(struct r2c2_ctl_hdr) != R2C2_CTL_HLEN);
	KUNIT_EXPECT_EQ(test, sizeof(struct r2c2_ctl_hdr), 8);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_ctl_hdr, ver_type), 0);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_ctl_hdr, tree), 1);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_ctl_hdr, src), 2);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_ctl_hdr, seq), 4);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_ctl_hdr, csum), 6);
}

static void r2c2_hello__layout(struct kunit *test)
{
	BUILD_BUG_ON(sizeof(struct r2c2_hello) != 8);
	BUILD_BUG_ON(sizeof(struct r2c2_hello) != R2C2_HELLO_LEN);
	KUNIT_EXPECT_EQ(test, sizeof(struct r2c2_hello), 8);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_hello, port), 0);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_hello, flags), 1);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_hello, interval_ms), 2);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_hello, topo_hash), 4);
}

static void r2c2_lsa__layout(struct kunit *test)
{
	BUILD_BUG_ON(sizeof(struct r2c2_lsa) != 8);
	KUNIT_EXPECT_EQ(test, sizeof(struct r2c2_lsa), 8);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_lsa, lsa_seq), 0);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_lsa, count), 4);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_lsa, resv), 5);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_lsa, max_age_s), 6);
}

static void r2c2_lsa_ent__layout(struct kunit *test)
{
	BUILD_BUG_ON(sizeof(struct r2c2_lsa_ent) != 4);
	KUNIT_EXPECT_EQ(test, sizeof(struct r2c2_lsa_ent), 4);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_lsa_ent, port), 0);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_lsa_ent, nbr_port), 1);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_lsa_ent, nbr), 2);
}

static void r2c2_flow_evt__layout(struct kunit *test)
{
	BUILD_BUG_ON(sizeof(struct r2c2_flow_evt) != 12);
	BUILD_BUG_ON(sizeof(struct r2c2_flow_evt) != R2C2_FLOW_EVT_LEN);
	KUNIT_EXPECT_EQ(test, sizeof(struct r2c2_flow_evt), 12);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_flow_evt, flow), 0);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_flow_evt, dst), 4);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_flow_evt, weight), 6);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_flow_evt, evt_prio), 7);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_flow_evt, rproto_demand), 8);
	/* 20 bytes on the wire with the control header */
	KUNIT_EXPECT_EQ(test, R2C2_CTL_HLEN + R2C2_FLOW_EVT_LEN, 20);
	/* demand fills bits 0..29, rproto bits 30..31 */
	KUNIT_EXPECT_EQ(test, R2C2_DEMAND_UNLIMITED, (1u << 30) - 1);
	KUNIT_EXPECT_LE(test, __R2C2_RP_MAX, 4);
}

static void r2c2_routes__layout(struct kunit *test)
{
	BUILD_BUG_ON(sizeof(struct r2c2_routes) != 4);
	KUNIT_EXPECT_EQ(test, sizeof(struct r2c2_routes), 4);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_routes, count), 0);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_routes, resv), 2);
}

static void r2c2_route_ent__layout(struct kunit *test)
{
	BUILD_BUG_ON(sizeof(struct r2c2_route_ent) != 7);
	KUNIT_EXPECT_EQ(test, sizeof(struct r2c2_route_ent), 7);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_route_ent, src), 0);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_route_ent, flow), 2);
	KUNIT_EXPECT_EQ(test, offsetof(struct r2c2_route_ent, rproto), 6);
}

static void r2c2_route_ent__max_fits_1500(struct kunit *test)
{
	unsigned int hdr = R2C2_CTL_HLEN + sizeof(struct r2c2_routes);
	unsigned int ent = sizeof(struct r2c2_route_ent);

	KUNIT_EXPECT_LE(test, hdr + R2C2_ROUTES_MAX * ent, 1500);
	KUNIT_EXPECT_GT(test, hdr + (R2C2_ROUTES_MAX + 1) * ent, 1500);
}

/* ---------------------------------------------------------------- */
/* include/r2c2/wire.h                                               */
/* ---------------------------------------------------------------- */

static void r2c2_ver_type__all_types(struct kunit *test)
{
	u8 t;

	for (t = R2C2_T_DATA; t < __R2C2_T_MAX; t++) {
		u8 vt = r2c2_ver_type(t);

		KUNIT_EXPECT_EQ(test, vt, (u8)(R2C2_VERSION << 4 | t));
		KUNIT_EXPECT_EQ(test, r2c2_hdr_version(vt), R2C2_VERSION);
		KUNIT_EXPECT_EQ(test, r2c2_hdr_type(vt), t);
	}
	KUNIT_EXPECT_EQ(test, r2c2_ver_type(R2C2_T_DATA), 0x11);
	KUNIT_EXPECT_EQ(test, r2c2_ver_type(R2C2_T_ROUTES), 0x16);
}

static void r2c2_ver_type__masks_type(struct kunit *test)
{
	/* a type above 15 must not spill into the version nibble */
	KUNIT_EXPECT_EQ(test, r2c2_ver_type(0x25), 0x15);
	KUNIT_EXPECT_EQ(test, r2c2_ver_type(0xff), 0x1f);
}

static void r2c2_hdr_version__high_nibble(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, r2c2_hdr_version(0xa3), 0xa);
	KUNIT_EXPECT_EQ(test, r2c2_hdr_version(0x0f), 0);
	KUNIT_EXPECT_EQ(test, r2c2_hdr_version(0xff), 0xf);
}

static void r2c2_hdr_type__low_nibble(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, r2c2_hdr_type(0xa3), 3);
	KUNIT_EXPECT_EQ(test, r2c2_hdr_type(0xf0), 0);
	KUNIT_EXPECT_EQ(test, r2c2_hdr_type(0xff), 0xf);
}

static void r2c2_route_get__every_hop_every_port(struct kunit *test)
{
	u8 route[R2C2_ROUTE_BYTES];
	unsigned int i, j;
	u8 port;

	for (i = 0; i < R2C2_MAX_HOPS; i++) {
		for (port = 0; port < R2C2_MAX_PORTS; port++) {
			memset(route, 0, sizeof(route));
			ref_route_set(route, i, port);
			KUNIT_EXPECT_EQ_MSG(test, r2c2_route_get(route, i),
					    port, "hop %u", i);
			for (j = 0; j < R2C2_MAX_HOPS; j++)
				if (j != i)
					KUNIT_EXPECT_EQ_MSG(test,
							    r2c2_route_get(route, j),
							    0, "hop %u set %u", j, i);
		}
	}
}

static void r2c2_route_get__straddling_bytes(struct kunit *test)
{
	u8 route[R2C2_ROUTE_BYTES] = { 0 };

	/* hop 2 = bits 6..8: port 5 (101b) sets bit 6 and bit 8 */
	route[0] = 0x40;
	route[1] = 0x01;
	KUNIT_EXPECT_EQ(test, r2c2_route_get(route, 2), 5);
	KUNIT_EXPECT_EQ(test, r2c2_route_get(route, 1), 0);
	KUNIT_EXPECT_EQ(test, r2c2_route_get(route, 3), 0);

	/* hop 5 = bits 15..17: port 6 (110b) is bits 16 and 17 */
	memset(route, 0, sizeof(route));
	route[2] = 0x03;
	KUNIT_EXPECT_EQ(test, r2c2_route_get(route, 5), 6);
	/* port 1 is bit 15 alone, the top bit of byte 1 */
	memset(route, 0, sizeof(route));
	route[1] = 0x80;
	KUNIT_EXPECT_EQ(test, r2c2_route_get(route, 5), 1);
	KUNIT_EXPECT_EQ(test, r2c2_route_get(route, 4), 0);
	KUNIT_EXPECT_EQ(test, r2c2_route_get(route, 6), 0);
}

static void r2c2_route_get__last_hop(struct kunit *test)
{
	u8 route[R2C2_ROUTE_BYTES] = { 0 };

	/* hop 41 = bits 123..125 = bits 3..5 of byte 15 */
	route[15] = 0x38;
	KUNIT_EXPECT_EQ(test, r2c2_route_get(route, 41), 7);
	KUNIT_EXPECT_EQ(test, r2c2_route_get(route, 40), 0);
	/* the two spare bits 126, 127 belong to no hop */
	route[15] = 0xc0;
	KUNIT_EXPECT_EQ(test, r2c2_route_get(route, 41), 0);
}

static void r2c2_route_set__every_hop_every_port(struct kunit *test)
{
	u8 route[R2C2_ROUTE_BYTES], want[R2C2_ROUTE_BYTES];
	static const u8 fill[] = { 0x00, 0xff, 0x5a };
	unsigned int f, i, j;
	u8 port, before;

	for (f = 0; f < ARRAY_SIZE(fill); f++) {
		for (i = 0; i < R2C2_MAX_HOPS; i++) {
			for (port = 0; port < R2C2_MAX_PORTS; port++) {
				memset(route, fill[f], sizeof(route));
				memset(want, fill[f], sizeof(want));
				ref_route_set(want, i, port);
				r2c2_route_set(route, i, port);
				KUNIT_EXPECT_EQ_MSG(test, r2c2_route_get(route, i),
						    port, "hop %u", i);
				/* every other bit, spare bits included */
				for (j = 0; j < R2C2_ROUTE_BYTES; j++)
					KUNIT_EXPECT_EQ_MSG(test, route[j], want[j],
							    "fill %#x hop %u port %u byte %u",
							    fill[f], i, port, j);
			}
		}
	}
	/* neighbours of a straddling hop keep their ports */
	memset(route, 0, sizeof(route));
	for (i = 0; i < R2C2_MAX_HOPS; i++)
		r2c2_route_set(route, i, (u8)(i % 8));
	r2c2_route_set(route, 5, 7);
	for (i = 0; i < R2C2_MAX_HOPS; i++) {
		before = i == 5 ? 7 : (u8)(i % 8);
		KUNIT_EXPECT_EQ(test, r2c2_route_get(route, i), before);
	}
}

static void r2c2_route_set__masks_port(struct kunit *test)
{
	u8 route[R2C2_ROUTE_BYTES] = { 0 };

	/* only the low 3 bits of port are stored */
	r2c2_route_set(route, 2, 0xf9);
	KUNIT_EXPECT_EQ(test, r2c2_route_get(route, 2), 1);
	KUNIT_EXPECT_EQ(test, r2c2_route_get(route, 3), 0);
	KUNIT_EXPECT_EQ(test, route[0], 0x40);
	KUNIT_EXPECT_EQ(test, route[1], 0x00);
}

static void r2c2_route_pack__round_trip(struct kunit *test)
{
	u8 hops[R2C2_MAX_HOPS], *route;
	unsigned int n, i;

	/* heap buffer of exactly the field's size: KASAN sees overruns */
	route = kunit_kzalloc(test, R2C2_ROUTE_BYTES, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, route);
	for (n = 0; n <= R2C2_MAX_HOPS; n++) {
		for (i = 0; i < n; i++)
			hops[i] = (u8)((i * 5 + n) % 8);
		memset(route, 0xff, R2C2_ROUTE_BYTES);
		r2c2_route_pack(route, hops, n);
		for (i = 0; i < n; i++)
			KUNIT_EXPECT_EQ_MSG(test, r2c2_route_get(route, i),
					    hops[i], "n %u hop %u", n, i);
		/* hops after the last, and the spare bits, are zero */
		for (i = n; i < R2C2_MAX_HOPS; i++)
			KUNIT_EXPECT_EQ_MSG(test, r2c2_route_get(route, i), 0,
					    "n %u hop %u", n, i);
		KUNIT_EXPECT_EQ(test, route[15] & 0xc0, 0);
	}
}

static void r2c2_route_pack__clamps_to_max_hops(struct kunit *test)
{
	u8 hops[R2C2_MAX_HOPS + 8], *route;
	unsigned int i;

	route = kunit_kzalloc(test, R2C2_ROUTE_BYTES, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, route);
	memset(hops, 7, sizeof(hops));
	r2c2_route_pack(route, hops, ARRAY_SIZE(hops));
	for (i = 0; i < R2C2_MAX_HOPS; i++)
		KUNIT_EXPECT_EQ(test, r2c2_route_get(route, i), 7);
	KUNIT_EXPECT_EQ(test, route[15], 0x3f);
}

static void r2c2_csum_add__rfc1071_vector(struct kunit *test)
{
	/* RFC 1071 section 3 example */
	static const u8 buf[] = { 0x00, 0x01, 0xf2, 0x03,
				  0xf4, 0xf5, 0xf6, 0xf7 };
	u32 sum = r2c2_csum_add(0, buf, sizeof(buf));

	KUNIT_EXPECT_EQ(test, sum, 0x2ddf0);
	KUNIT_EXPECT_EQ(test, r2c2_csum_fold(sum), 0x220d);
}

static void r2c2_csum_add__odd_length(struct kunit *test)
{
	static const u8 buf[] = { 0x12, 0x34, 0x56 };

	/* the last byte is the high byte of a zero-padded word */
	KUNIT_EXPECT_EQ(test, r2c2_csum_add(0, buf, 3), 0x1234 + 0x5600);
	KUNIT_EXPECT_EQ(test, r2c2_csum_add(0, buf, 1), 0x1200);
	KUNIT_EXPECT_EQ(test, r2c2_csum_add(7, buf, 0), 7);
}

static void r2c2_csum_fold__carries(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, r2c2_csum_fold(0), 0xffff);
	KUNIT_EXPECT_EQ(test, r2c2_csum_fold(0xffff), 0);
	KUNIT_EXPECT_EQ(test, r2c2_csum_fold(0x1234), 0xedcb);
	/* 0x1ffff folds to 0x10000, which needs a second round */
	KUNIT_EXPECT_EQ(test, r2c2_csum_fold(0x1ffff), 0xfffe);
	KUNIT_EXPECT_EQ(test, r2c2_csum_fold(0xffffffff), 0);
}

static void r2c2_data_csum__known_vector(struct kunit *test)
{
	struct r2c2_data_hdr h;
	const u8 *b = (const u8 *)&h;

	fill_data_hdr(&h);
	h.csum = (__force __sum16)r2c2_data_csum(&h);
	/* stored in network order whatever the host's */
	KUNIT_EXPECT_EQ(test, b[20], 0x81);
	KUNIT_EXPECT_EQ(test, b[21], 0x71);
}

static void r2c2_data_csum__verifies_to_zero(struct kunit *test)
{
	struct r2c2_data_hdr h;

	fill_data_hdr(&h);
	h.csum = (__force __sum16)r2c2_data_csum(&h);
	/* the sum over the 40 bytes with ridx 0 folds to zero */
	KUNIT_EXPECT_EQ(test, r2c2_csum_fold(r2c2_csum_add(0, (u8 *)&h,
							   sizeof(h))), 0);
}

static void r2c2_data_csum__ignores_ridx(struct kunit *test)
{
	struct r2c2_data_hdr h;
	unsigned int ridx;
	u16 c0;

	fill_data_hdr(&h);
	c0 = r2c2_data_csum(&h);
	for (ridx = 0; ridx < 256; ridx++) {
		h.ridx = (u8)ridx;
		KUNIT_EXPECT_EQ_MSG(test, r2c2_data_csum(&h), c0,
				    "ridx %u", ridx);
	}
}

static void r2c2_data_csum__ignores_csum_field(struct kunit *test)
{
	struct r2c2_data_hdr h;
	u16 c0;

	fill_data_hdr(&h);
	c0 = r2c2_data_csum(&h);
	h.csum = (__force __sum16)c0;
	KUNIT_EXPECT_EQ(test, r2c2_data_csum(&h), c0);
	h.csum = (__force __sum16)0xa55a;
	KUNIT_EXPECT_EQ(test, r2c2_data_csum(&h), c0);
}

static void r2c2_data_csum__covers_every_other_byte(struct kunit *test)
{
	struct r2c2_data_hdr h;
	u8 *b = (u8 *)&h;
	unsigned int i, bit;
	u16 c0;

	fill_data_hdr(&h);
	c0 = r2c2_data_csum(&h);
	for (i = 0; i < R2C2_DATA_HLEN; i++) {
		if (i == offsetof(struct r2c2_data_hdr, ridx) ||
		    i == offsetof(struct r2c2_data_hdr, csum) ||
		    i == offsetof(struct r2c2_data_hdr, csum) + 1)
			continue;
		for (bit = 0; bit < 8; bit++) {
			b[i] ^= (u8)(1u << bit);
			KUNIT_EXPECT_NE_MSG(test, r2c2_data_csum(&h), c0,
					    "byte %u bit %u", i, bit);
			b[i] ^= (u8)(1u << bit);
		}
		b[i] ^= 0xff;
		KUNIT_EXPECT_NE_MSG(test, r2c2_data_csum(&h), c0, "byte %u", i);
		b[i] ^= 0xff;
	}
	KUNIT_EXPECT_EQ(test, r2c2_data_csum(&h), c0);
}

/* HELLO from node 5, seq 0x1234: port 3, 100 ms, topo hash 0x01020304 */
static void fill_hello(struct r2c2_ctl_hdr *h, struct r2c2_hello *hello)
{
	memset(h, 0, sizeof(*h));
	memset(hello, 0, sizeof(*hello));
	h->ver_type = r2c2_ver_type(R2C2_T_HELLO);
	h->tree = 0;
	h->src = cpu_to_be16(5);
	h->seq = cpu_to_be16(0x1234);
	hello->port = 3;
	hello->interval_ms = cpu_to_be16(100);
	hello->topo_hash = cpu_to_be32(0x01020304);
}

static void r2c2_ctl_csum__known_vector(struct kunit *test)
{
	struct r2c2_ctl_hdr h;
	struct r2c2_hello hello;
	const u8 *b = (const u8 *)&h;

	fill_hello(&h, &hello);
	h.csum = (__force __sum16)r2c2_ctl_csum(&h, &hello, sizeof(hello));
	KUNIT_EXPECT_EQ(test, b[6], 0xd4);
	KUNIT_EXPECT_EQ(test, b[7], 0x5c);
	/* header + body with the checksum in place sum to 0xffff */
	KUNIT_EXPECT_EQ(test,
			r2c2_csum_fold(r2c2_csum_add(r2c2_csum_add(0, b, 8),
						     (u8 *)&hello,
						     sizeof(hello))), 0);
}

static void r2c2_ctl_csum__ignores_csum_field(struct kunit *test)
{
	struct r2c2_ctl_hdr h;
	struct r2c2_hello hello;
	u16 c0;

	fill_hello(&h, &hello);
	c0 = r2c2_ctl_csum(&h, &hello, sizeof(hello));
	h.csum = (__force __sum16)0xffff;
	KUNIT_EXPECT_EQ(test, r2c2_ctl_csum(&h, &hello, sizeof(hello)), c0);
}

static void r2c2_ctl_csum__covers_header_and_body(struct kunit *test)
{
	struct r2c2_ctl_hdr h;
	struct r2c2_hello hello;
	u8 *b = (u8 *)&h, *body = (u8 *)&hello;
	unsigned int i, bit;
	u16 c0;

	fill_hello(&h, &hello);
	c0 = r2c2_ctl_csum(&h, &hello, sizeof(hello));
	for (i = 0; i < offsetof(struct r2c2_ctl_hdr, csum); i++) {
		for (bit = 0; bit < 8; bit++) {
			b[i] ^= (u8)(1u << bit);
			KUNIT_EXPECT_NE_MSG(test,
					    r2c2_ctl_csum(&h, &hello, sizeof(hello)),
					    c0, "hdr byte %u bit %u", i, bit);
			b[i] ^= (u8)(1u << bit);
		}
	}
	for (i = 0; i < sizeof(hello); i++) {
		for (bit = 0; bit < 8; bit++) {
			body[i] ^= (u8)(1u << bit);
			KUNIT_EXPECT_NE_MSG(test,
					    r2c2_ctl_csum(&h, &hello, sizeof(hello)),
					    c0, "body byte %u bit %u", i, bit);
			body[i] ^= (u8)(1u << bit);
		}
	}
	/* bytes beyond len are not covered */
	c0 = r2c2_ctl_csum(&h, &hello, 4);
	hello.topo_hash = 0;
	KUNIT_EXPECT_EQ(test, r2c2_ctl_csum(&h, &hello, 4), c0);
}

static void r2c2_ctl_csum__empty_body(struct kunit *test)
{
	struct r2c2_ctl_hdr h;
	struct r2c2_hello hello;
	const u8 *b = (const u8 *)&h;

	fill_hello(&h, &hello);
	/* 0x1200 + 0x0005 + 0x1234 = 0x2439 */
	KUNIT_EXPECT_EQ(test, r2c2_ctl_csum(&h, NULL, 0),
			r2c2_htons(0xffff - 0x2439));
	KUNIT_EXPECT_EQ(test, r2c2_ctl_csum(&h, NULL, 0),
			r2c2_htons(r2c2_csum_fold(r2c2_csum_add(0, b, 6))));
}

static void r2c2_ctl_csum__odd_body(struct kunit *test)
{
	struct r2c2_ctl_hdr h;
	struct r2c2_hello hello;
	u8 body3[3] = { 0xab, 0xcd, 0xef };
	u8 body4[4] = { 0xab, 0xcd, 0xef, 0x00 };

	fill_hello(&h, &hello);
	/* an odd body is padded with a zero byte */
	KUNIT_EXPECT_EQ(test, r2c2_ctl_csum(&h, body3, 3),
			r2c2_ctl_csum(&h, body4, 4));
	body4[3] = 1;
	KUNIT_EXPECT_NE(test, r2c2_ctl_csum(&h, body3, 3),
			r2c2_ctl_csum(&h, body4, 4));
}

static void r2c2_addr_to_mac__layout(struct kunit *test)
{
	u8 mac[ETH_ALEN];

	r2c2_addr_to_mac(0x1234, mac);
	KUNIT_EXPECT_EQ(test, mac[0], 0x02);
	KUNIT_EXPECT_EQ(test, mac[1], 0x52);
	KUNIT_EXPECT_EQ(test, mac[2], 0x32);
	KUNIT_EXPECT_EQ(test, mac[3], 0x43);
	KUNIT_EXPECT_EQ(test, mac[4], 0x12);
	KUNIT_EXPECT_EQ(test, mac[5], 0x34);
	/* locally administered unicast */
	KUNIT_EXPECT_EQ(test, mac[0] & 0x03, 0x02);
}

static void r2c2_mac_to_addr__round_trip(struct kunit *test)
{
	u8 mac[ETH_ALEN];
	unsigned int addr;

	for (addr = 0; addr < R2C2_ADDR_NONE; addr++) {
		r2c2_addr_to_mac((u16)addr, mac);
		KUNIT_EXPECT_EQ_MSG(test, r2c2_mac_to_addr(mac), addr,
				    "addr %#x", addr);
	}
}

static void r2c2_mac_to_addr__foreign(struct kunit *test)
{
	static const u8 bcast[ETH_ALEN] = { 0xff, 0xff, 0xff,
					    0xff, 0xff, 0xff };
	static const u8 mcast[ETH_ALEN] = { 0x33, 0x33, 0x00,
					    0x00, 0x00, 0x01 };
	static const u8 zero[ETH_ALEN];
	u8 mac[ETH_ALEN];
	unsigned int i, bit;

	/* any bit of the four fixed bytes wrong: not an r2c0 MAC */
	for (i = 0; i < 4; i++) {
		for (bit = 0; bit < 8; bit++) {
			r2c2_addr_to_mac(0x0102, mac);
			mac[i] ^= (u8)(1u << bit);
			KUNIT_EXPECT_EQ_MSG(test, r2c2_mac_to_addr(mac),
					    R2C2_ADDR_NONE, "byte %u bit %u",
					    i, bit);
		}
	}
	KUNIT_EXPECT_EQ(test, r2c2_mac_to_addr(bcast), R2C2_ADDR_NONE);
	KUNIT_EXPECT_EQ(test, r2c2_mac_to_addr(mcast), R2C2_ADDR_NONE);
	KUNIT_EXPECT_EQ(test, r2c2_mac_to_addr(zero), R2C2_ADDR_NONE);
}

static void r2c2_topo_hash__none(struct kunit *test)
{
	static const u8 dims[] = { 3, 3 };

	KUNIT_EXPECT_EQ(test, r2c2_topo_hash(NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, r2c2_topo_hash(dims, 0), 0);
}

static void r2c2_topo_hash__known_and_distinct(struct kunit *test)
{
	static const u8 d33[] = { 3, 3 }, d9[] = { 9 }, d333[] = { 3, 3, 3 };
	static const u8 d34[] = { 3, 4 }, d43[] = { 4, 3 };
	u32 h33 = r2c2_topo_hash(d33, 2), h9 = r2c2_topo_hash(d9, 1);
	u32 h333 = r2c2_topo_hash(d333, 3);

	/* reference FNV-1a values */
	KUNIT_EXPECT_EQ(test, h33, 0x367910a3);
	KUNIT_EXPECT_EQ(test, h9, 0x0c0c6824);
	KUNIT_EXPECT_EQ(test, h333, 0x60952be0);
	KUNIT_EXPECT_NE(test, h33, h9);
	KUNIT_EXPECT_NE(test, h33, h333);
	KUNIT_EXPECT_NE(test, h9, h333);
	/* same node count, different shape; and order matters */
	KUNIT_EXPECT_NE(test, r2c2_topo_hash(d34, 2), r2c2_topo_hash(d43, 2));
}

static void r2c2_topo_hash__never_zero(struct kunit *test)
{
	/* FNV-1a of these four bytes is 0, which would mean "none" */
	static const u8 dims[] = { 204, 36, 49, 196 };

	KUNIT_EXPECT_EQ(test, r2c2_topo_hash(dims, ARRAY_SIZE(dims)), 1);
}

static struct kunit_case r2c2_wire_cases[] = {
	KUNIT_CASE(r2c2_data_hdr__layout),
	KUNIT_CASE(r2c2_data_hdr__route_capacity),
	KUNIT_CASE(r2c2_ctl_hdr__layout),
	KUNIT_CASE(r2c2_hello__layout),
	KUNIT_CASE(r2c2_lsa__layout),
	KUNIT_CASE(r2c2_lsa_ent__layout),
	KUNIT_CASE(r2c2_flow_evt__layout),
	KUNIT_CASE(r2c2_routes__layout),
	KUNIT_CASE(r2c2_route_ent__layout),
	KUNIT_CASE(r2c2_route_ent__max_fits_1500),
	KUNIT_CASE(r2c2_ver_type__all_types),
	KUNIT_CASE(r2c2_ver_type__masks_type),
	KUNIT_CASE(r2c2_hdr_version__high_nibble),
	KUNIT_CASE(r2c2_hdr_type__low_nibble),
	KUNIT_CASE(r2c2_route_get__every_hop_every_port),
	KUNIT_CASE(r2c2_route_get__straddling_bytes),
	KUNIT_CASE(r2c2_route_get__last_hop),
	KUNIT_CASE(r2c2_route_set__every_hop_every_port),
	KUNIT_CASE(r2c2_route_set__masks_port),
	KUNIT_CASE(r2c2_route_pack__round_trip),
	KUNIT_CASE(r2c2_route_pack__clamps_to_max_hops),
	KUNIT_CASE(r2c2_csum_add__rfc1071_vector),
	KUNIT_CASE(r2c2_csum_add__odd_length),
	KUNIT_CASE(r2c2_csum_fold__carries),
	KUNIT_CASE(r2c2_data_csum__known_vector),
	KUNIT_CASE(r2c2_data_csum__verifies_to_zero),
	KUNIT_CASE(r2c2_data_csum__ignores_ridx),
	KUNIT_CASE(r2c2_data_csum__ignores_csum_field),
	KUNIT_CASE(r2c2_data_csum__covers_every_other_byte),
	KUNIT_CASE(r2c2_ctl_csum__known_vector),
	KUNIT_CASE(r2c2_ctl_csum__ignores_csum_field),
	KUNIT_CASE(r2c2_ctl_csum__covers_header_and_body),
	KUNIT_CASE(r2c2_ctl_csum__empty_body),
	KUNIT_CASE(r2c2_ctl_csum__odd_body),
	KUNIT_CASE(r2c2_addr_to_mac__layout),
	KUNIT_CASE(r2c2_mac_to_addr__round_trip),
	KUNIT_CASE(r2c2_mac_to_addr__foreign),
	KUNIT_CASE(r2c2_topo_hash__none),
	KUNIT_CASE(r2c2_topo_hash__known_and_distinct),
	KUNIT_CASE(r2c2_topo_hash__never_zero),
	{}
};

static struct kunit_suite r2c2_wire_suite = {
	.name = "r2c2_wire",
	.test_cases = r2c2_wire_cases,
};

kunit_test_suite(r2c2_wire_suite);

MODULE_DESCRIPTION("KUnit tests of the r2c2 wire format");
MODULE_LICENSE("GPL");
