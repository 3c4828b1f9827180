// SPDX-License-Identifier: GPL-2.0
/*
 * r2c2_fuzz - a mutation fuzzer for the R2C2 wire format. It reads real
 * frames (a pcap file captured on a port of a running rack: hellos, LSAs,
 * data, BCAST_ETH, FLOW, ROUTES), mutates them and sends them with an
 * AF_PACKET socket into the port of the attacked node, as a neighbour
 * would.
 *
 *   r2c2_fuzz -i IFNAME -m MAC -s SEEDS.pcap [options]
 *     -i IFNAME  interface to send on (the veth peer of the attacked port)
 *     -m MAC     Ethernet destination: the attacked port's MAC
 *     -s FILE    seed frames: a classic pcap file of Ethernet frames; only
 *                frames of ethertype 0x88b5 are used (duplicates dropped)
 *     -S SEED    PRNG seed (default: from the clock; always printed). The
 *                same seeds file, SEED, -c and -n give the same frames
 *     -n COUNT   frames to send (default 10000)
 *     -f FIRST   generate frames 0..FIRST-1 but send from FIRST on (to
 *                replay the tail of a run, or one frame with -n 1)
 *     -c PCT     percent of frames whose checksum is recomputed after the
 *                mutations, so that they pass the checksum check and reach
 *                the code behind it (default 50)
 *     -A ADDR    address of the attacked node (default 0xffff: none)
 *     -P MASK    ports of the attacked node that have a neighbour (data
 *                frames routed there are forwarded; default 0x0f)
 *     -Q MASK    ports attached to the attacked node (default 0x1f); a
 *                port in -Q but not in -P (the attacked port itself) may
 *                forward or drop (drop_port_down)
 *     -K         the attacked node holds a rack key (Documentation/
 *                design.md, "Fabric trust"), this tool does not: every
 *                HELLO, LSA, BCAST_ETH, FLOW and ROUTES frame, and every
 *                data frame for it holding ARP or ND, is predicted
 *                drop_auth, or drop_replay when it still carries its
 *                seed's trailer and the bytes that trailer's MAC covers
 *                unchanged (seeds captured in a keyed rack)
 *     -u PCT     percent of frames sent as their seed, unmutated
 *                (replays; default 0)
 *     -r RATE    at most RATE frames a second (default 0: unpaced)
 *     -w FILE    also write the frames sent to a pcap file
 *     -l         list the seeds (count per type) and exit
 *     -v         one line per frame sent: index, seed type, mutations,
 *                whether the checksum was fixed, predicted outcome, hex
 *
 * Mutations (1 to 4 a frame): bit flips; bytes set to 0, 0xff, 0x7f,
 * 0x80, 0x01, 0xfe; random bytes; truncation (random or at a header
 * boundary); extension by random bytes; and header-field-aware changes
 * of the frame's current type: version and type nibbles, rlen, ridx,
 * plen, route, source, destination, sequence numbers, tree, LSA count,
 * max age and entries, hello port and interval, ROUTES count and
 * entries, flow event fields, the inner Ethernet header of BCAST_ETH.
 * The Ethernet header is never mutated: every frame reaches the port.
 *
 * The prediction: the receive path's checks that depend on the frame
 * alone (and on -A, -P, -Q) are modelled from Documentation/
 * wire-format.md and kmod/fwd.c, topo.c, bcast.c, so the tool predicts
 * exactly how many frames the attacked port must count under
 * drop_version, drop_truncated, drop_csum, drop_rlen, drop_ridx,
 * drop_bad_lsa, drop_loop, drop_no_port, hello_rx and delivered. What
 * depends on state (duplicate suppression, newer LSAs, the sources in
 * the tables, room in the link-state database, whether the attacked
 * port has a neighbour) is summed by class: "state" frames end in
 * bcast_rx, drop_dup, drop_unknown_src or drop_lsdb_full, "fwd" frames
 * are forwarded, "fwd_maybe" ones forwarded or drop_port_down.
 * With -K the authentication check comes right after the version: the
 * tool predicts drop_auth and drop_replay exactly instead, and no
 * HELLO, LSA, BCAST_ETH, FLOW or ROUTES frame reaches the checks behind
 * it; a data frame for the attacked node holding ARP or ND (found as
 * kmod/fwd.c's r2c2_lladdr_frame() finds it) is checked where it would
 * be delivered.
 *
 * A frame the netdev could not take (sendto() fails with ENOBUFS: a
 * veth whose peer's XDP ring is full drops it, and counts it in its
 * tx_dropped) is sent again after 1 ms, up to 1,000 times; "busy"
 * counts those refusals.
 *
 * At the end one JSON line on stdout: {"seed":..,"sent":..,"busy":..,
 * "secs":..,"rate":..,"csum_fixed":..,"keyed":..,"unmutated":..,
 * "by_type":{..},"by_op":{..},"predict":{..}}.
 * Exit status: 0 every frame was sent, 1 usage error, 2 system error.
 */
#include <errno.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "r2c2_raw.h"

#define WHO		"r2c2_fuzz"
#define MAX_SEEDS	4096
#define MAX_LEN		1500	/* bytes after the Ethernet header */

struct seed {
	u8 *b;
	size_t len;
};

static struct seed seeds[MAX_SEEDS];
static unsigned int nseeds;
/* seeds by type (low nibble of byte 0; 0 holds the unknown ones) */
static unsigned int by_type[16][MAX_SEEDS], nby_type[16];

static const char *const type_names[16] = {
	"other", "data", "hello", "lsa", "bcast_eth", "flow", "routes",
};

/* ------------------------------------------------------------------ */
/* PRNG: xorshift64*, deterministic for a given seed                   */

static uint64_t rng_state;

static uint64_t rnd64(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

/* uniform in [0, n); n > 0 */
static uint32_t rnd(uint32_t n)
{
	return (uint32_t)((rnd64() >> 32) % n);
}

/* ------------------------------------------------------------------ */
/* seeds: a classic pcap reader                                        */

static void seeds_load(const char *path)
{
	unsigned char gh[24], rh[16], buf[65536];
	FILE *f = fopen(path, "rb");
	uint32_t magic, incl;
	int swap;
	unsigned int i, t;

	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", WHO, path, strerror(errno));
		exit(2);
	}
	if (fread(gh, 1, sizeof(gh), f) != sizeof(gh)) {
		fprintf(stderr, "%s: %s: not a pcap file\n", WHO, path);
		exit(2);
	}
	memcpy(&magic, gh, 4);
	if (magic == 0xa1b2c3d4 || magic == 0xa1b23c4d)
		swap = 0;
	else if (magic == 0xd4c3b2a1 || magic == 0x4d3cb2a1)
		swap = 1;
	else {
		fprintf(stderr, "%s: %s: not a classic pcap file\n", WHO, path);
		exit(2);
	}
	while (fread(rh, 1, sizeof(rh), f) == sizeof(rh)) {
		memcpy(&incl, rh + 8, 4);
		if (swap)
			incl = __builtin_bswap32(incl);
		if (incl > sizeof(buf) || fread(buf, 1, incl, f) != incl)
			break;
		if (incl <= ETH_HLEN || buf[12] != (R2C2_ETH_P >> 8) ||
		    buf[13] != (R2C2_ETH_P & 0xff) || nseeds == MAX_SEEDS)
			continue;
		incl -= ETH_HLEN;
		if (incl > MAX_LEN)
			incl = MAX_LEN;
		for (i = 0; i < nseeds; i++)
			if (seeds[i].len == incl &&
			    !memcmp(seeds[i].b, buf + ETH_HLEN, incl))
				break;
		if (i < nseeds)
			continue;
		seeds[nseeds].b = malloc(incl);
		if (!seeds[nseeds].b)
			exit(2);
		memcpy(seeds[nseeds].b, buf + ETH_HLEN, incl);
		seeds[nseeds].len = incl;
		t = r2c2_hdr_type(buf[ETH_HLEN]);
		if (t >= __R2C2_T_MAX || !t)
			t = 0;
		by_type[t][nby_type[t]++] = nseeds;
		nseeds++;
	}
	fclose(f);
	if (!nseeds) {
		fprintf(stderr, "%s: %s: no R2C2 frames\n", WHO, path);
		exit(2);
	}
}

/* ------------------------------------------------------------------ */
/* the model of the receive path                                       */

enum outcome {
	O_VERSION, O_TRUNC, O_CSUM, O_RLEN, O_RIDX, O_BAD, O_LOOP,
	O_HELLO_OK, O_HELLO_BAD, O_HELLO_LOOP, O_DELIVER, O_NO_PORT,
	O_FWD, O_FWD_MAYBE, O_STATE, O_AUTH, O_REPLAY, O_MAX
};

static const char *const outcome_names[O_MAX] = {
	"version", "truncated", "csum", "rlen", "ridx", "bad", "loop",
	"hello_ok", "hello_bad", "hello_loop", "delivered", "no_port",
	"fwd", "fwd_maybe", "state", "auth", "replay",
};

/* the longest max_age an LSA may state (R2C2_LSA_MAX_AGE_S, kmod/r2c2.h) */
#define LSA_MAX_AGE_S	3600

static u16 me = R2C2_ADDR_NONE;
static unsigned int nbr_mask = 0x0f, port_mask = 0x1f;
static int keyed;	/* -K: the attacked node holds a rack key */

static u16 get16(const u8 *p) { return (u16)(p[0] << 8 | p[1]); }
static void put16(u8 *p, u16 v) { p[0] = (u8)(v >> 8); p[1] = (u8)v; }
static u32 get32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static void put32(u8 *p, u32 v)
{
	put16(p, (u16)(v >> 16));
	put16(p + 2, (u16)v);
}

/*
 * Bytes a control frame of type @t needs and its checksum covers, from
 * what the frame says (LSA and ROUTES counts); 0 when the count itself
 * is refused before the length is checked; -1 when even the part that
 * holds the count is missing.
 */
static long ctl_need(const u8 *p, size_t len, unsigned int t)
{
	unsigned int c;

	switch (t) {
	case R2C2_T_HELLO:
		return R2C2_CTL_HLEN + R2C2_HELLO_LEN;
	case R2C2_T_LSA:
		if (len < R2C2_CTL_HLEN + sizeof(struct r2c2_lsa))
			return -1;
		c = p[12];
		if (c > R2C2_MAX_PORTS)
			return 0;
		return R2C2_CTL_HLEN + sizeof(struct r2c2_lsa) +
		       c * sizeof(struct r2c2_lsa_ent);
	case R2C2_T_BCAST_ETH:
		return R2C2_CTL_HLEN + ETH_HLEN;
	case R2C2_T_FLOW:
		return R2C2_CTL_HLEN + R2C2_FLOW_EVT_LEN;
	case R2C2_T_ROUTES:
		if (len < R2C2_CTL_HLEN + sizeof(struct r2c2_routes))
			return -1;
		c = get16(p + 8);
		if (!c || c > R2C2_ROUTES_MAX)
			return 0;
		return R2C2_CTL_HLEN + sizeof(struct r2c2_routes) +
		       c * sizeof(struct r2c2_route_ent);
	}
	return -1;
}

static int auth_type(unsigned int t)
{
	return t == R2C2_T_HELLO || t == R2C2_T_LSA || t == R2C2_T_FLOW ||
	       t == R2C2_T_ROUTES || t == R2C2_T_BCAST_ETH;
}

/*
 * kmod/fwd.c, r2c2_lladdr_frame(): whether the @len bytes at @p, an
 * Ethernet payload of ethertype @proto, hold ARP or ND (behind up to 8
 * VLAN tags, more count as such; ND behind IPv6 extension headers,
 * skipped as ipv6_skip_exthdr() skips them).
 */
static int lladdr_frame(const u8 *p, size_t len, u16 proto)
{
	unsigned int tags, hdrlen;
	size_t off = 0;
	u16 frag = 0;
	u8 nh;

	for (tags = 0; proto == 0x8100 || proto == 0x88a8; tags++) {
		if (tags == 8)
			return 1;
		if (off + 4 > len)
			return 0;
		proto = get16(p + off + 2);
		off += 4;
	}
	if (proto == 0x0806)
		return 1;
	if (proto != 0x86dd || off + 40 > len)
		return 0;
	nh = p[off + 6];
	off += 40;
	while (nh == 0 || nh == 43 || nh == 44 || nh == 51 || nh == 59 ||
	       nh == 60) {
		if (nh == 59 || off + 2 > len)
			return 0;
		if (nh == 44) {
			if (off + 4 > len)
				return 0;
			frag = get16(p + off + 2);
			if (frag & ~0x7)
				break;
			hdrlen = 8;
		} else if (nh == 51) {
			hdrlen = (p[off + 1] + 2u) << 2;
		} else {
			hdrlen = (p[off + 1] + 1u) << 3;
		}
		nh = p[off];
		off += hdrlen;
	}
	if (nh != 58 || frag || off + 1 > len)
		return 0;
	return p[off] >= 133 && p[off] <= 137;
}

/*
 * Bytes of the seed @b of @len bytes that a trailer's MAC covers, the
 * trailer included, when it has one (a frame of an authenticated type
 * with at least R2C2_AUTH_LEN bytes after its body); else 0.
 */
static size_t signed_len(const u8 *b, size_t len)
{
	long need;

	if (!len || r2c2_hdr_version(b[0]) != R2C2_VERSION ||
	    !auth_type(r2c2_hdr_type(b[0])))
		return 0;
	/* the trailer is a BCAST_ETH frame's last 24 bytes */
	if (r2c2_hdr_type(b[0]) == R2C2_T_BCAST_ETH)
		return len >= R2C2_CTL_HLEN + ETH_HLEN + R2C2_AUTH_LEN ? len : 0;
	need = ctl_need(b, len, r2c2_hdr_type(b[0]));
	if (need <= 0 || len < (size_t)need + R2C2_AUTH_LEN)
		return 0;
	return (size_t)need + R2C2_AUTH_LEN;
}

/*
 * What the attacked port does with the frame @p of @len bytes, made
 * from the seed @sb of @slen bytes.
 */
static enum outcome predict(const u8 *p, size_t len, const u8 *sb,
			    size_t slen)
{
	unsigned int t, i, seen = 0;
	long need;
	u16 src;

	if (len < 1)
		return O_TRUNC;
	t = r2c2_hdr_type(p[0]);
	if (r2c2_hdr_version(p[0]) != R2C2_VERSION || !t || t >= __R2C2_T_MAX)
		return O_VERSION;
	if (keyed && auth_type(t)) {
		/*
		 * kmod/auth.c, r2c2_auth_rcv(): without the key only a
		 * trailer made by a key holder passes, over the same bytes:
		 * a captured frame, replayed (its sequence seen, or sent to
		 * the other end of the link)
		 */
		size_t sl = signed_len(sb, slen);

		if (t == R2C2_T_BCAST_ETH && len != sl)
			return O_AUTH;	/* its trailer is elsewhere */
		if (sl && len >= sl && !memcmp(p, sb, sl))
			return O_REPLAY;
		return O_AUTH;
	}
	if (t == R2C2_T_DATA) {
		const struct r2c2_data_hdr *h = (const void *)p;
		u8 num;

		if (len < R2C2_DATA_HLEN ||
		    len < (size_t)R2C2_DATA_HLEN + ntohs(h->plen))
			return O_TRUNC;
		if (r2c2_data_csum(h) != h->csum)
			return O_CSUM;
		if (h->rlen > R2C2_MAX_HOPS)
			return O_RLEN;
		if (h->ridx > h->rlen)
			return O_RIDX;
		if (h->ridx == h->rlen && ntohs(h->dst) != me)
			return O_LOOP;
		if (h->ridx == h->rlen && keyed &&
		    lladdr_frame(p + R2C2_DATA_HLEN, len - R2C2_DATA_HLEN,
				 ntohs(h->proto))) {
			/*
			 * r2c2_auth_data_rcv(): signed by its source for its
			 * destination; with the seed's payload, trailer, source
			 * and ethertype a replay (its sequence seen or its
			 * destination another), else refused
			 */
			const struct r2c2_data_hdr *sh = (const void *)sb;
			size_t end = R2C2_DATA_HLEN + ntohs(h->plen) +
				     R2C2_AUTH_LEN;

			if (slen >= end && len >= end &&
			    r2c2_hdr_type(sb[0]) == R2C2_T_DATA &&
			    sh->plen == h->plen && sh->src == h->src &&
			    sh->proto == h->proto && sb[end - R2C2_AUTH_LEN] &&
			    !memcmp(p + R2C2_DATA_HLEN, sb + R2C2_DATA_HLEN,
				    end - R2C2_DATA_HLEN))
				return O_REPLAY;
			return O_AUTH;
		}
		if (h->ridx == h->rlen)
			return O_DELIVER;
		num = r2c2_route_get(h->route, h->ridx);
		if (!(port_mask & (1u << num)))
			return O_NO_PORT;
		return nbr_mask & (1u << num) ? O_FWD : O_FWD_MAYBE;
	}
	/* control frames */
	need = ctl_need(p, len, t);
	if (need < 0)
		return O_TRUNC;
	if (need == 0)
		return O_BAD;	/* LSA count > 8, ROUTES count 0 or > 212 */
	if (len < (size_t)need)
		return O_TRUNC;
	{
		/* both in wire order, as the kernel compares them */
		u16 c = r2c2_ctl_csum((const void *)p, p + R2C2_CTL_HLEN,
				      (unsigned int)need - R2C2_CTL_HLEN), w;

		memcpy(&w, p + 6, 2);
		if (c != w)
			return O_CSUM;
	}
	src = get16(p + 2);
	switch (t) {
	case R2C2_T_HELLO:
		if (src == me)
			return O_HELLO_LOOP;
		if (src == R2C2_ADDR_NONE || !get16(p + 10) ||
		    p[8] >= R2C2_MAX_PORTS)
			return O_HELLO_BAD;
		return O_HELLO_OK;
	case R2C2_T_LSA:
		/* max_age: 1..3600 s (4 x the longest refresh period) */
		if (src == R2C2_ADDR_NONE || !get16(p + 14) ||
		    get16(p + 14) > LSA_MAX_AGE_S)
			return O_BAD;
		for (i = 0; i < p[12]; i++) {
			const u8 *e = p + 16 + 4 * i;

			if (e[0] >= R2C2_MAX_PORTS || e[1] >= R2C2_MAX_PORTS ||
			    (seen & (1u << e[0])))
				return O_BAD;
			seen |= 1u << e[0];
		}
		return O_STATE;	/* drop_dup (ours, or not newer), drop_lsdb_full
				 * (a new address, the database full) or accepted
				 */
	default:		/* BCAST_ETH, FLOW, ROUTES */
		if (src == me)
			return O_LOOP;
		if (p[1] >= R2C2_MAX_TREES || src == R2C2_ADDR_NONE)
			return O_BAD;
		return O_STATE;	/* drop_unknown_src (not in the tables),
				 * drop_dup or accepted
				 */
	}
}

/* Recompute the checksum of the frame's current type, if it can have one. */
static int fix_csum(u8 *p, size_t len)
{
	unsigned int t;
	long need;
	u16 c;

	if (len < 1 || r2c2_hdr_version(p[0]) != R2C2_VERSION)
		return 0;
	t = r2c2_hdr_type(p[0]);
	if (t == R2C2_T_DATA) {
		struct r2c2_data_hdr *h = (void *)p;

		if (len < R2C2_DATA_HLEN)
			return 0;
		h->csum = r2c2_data_csum(h);
		return 1;
	}
	if (!t || t >= __R2C2_T_MAX)
		return 0;
	need = ctl_need(p, len, t);
	if (need <= 0 || len < (size_t)need)
		return 0;
	p[6] = p[7] = 0;
	c = r2c2_ctl_csum((const void *)p, p + R2C2_CTL_HLEN,
			  (unsigned int)need - R2C2_CTL_HLEN);
	memcpy(p + 6, &c, 2);
	return 1;
}

/* ------------------------------------------------------------------ */
/* mutations                                                           */

enum op { OP_BITFLIP, OP_INTERESTING, OP_RANDOM, OP_TRUNCATE, OP_EXTEND,
	  OP_FIELD, OP_MAX };
static const char *const op_names[OP_MAX] = {
	"bitflip", "interesting", "random", "truncate", "extend", "field",
};
/* weights of the operations, out of 100 */
static const unsigned int op_weight[OP_MAX] = { 25, 15, 10, 8, 7, 35 };

static const u8 interesting8[] = { 0, 0xff, 0x7f, 0x80, 0x01, 0xfe };

/* an interesting value for a field of @size bytes that holds @old */
static u32 interesting(unsigned int size, u32 old)
{
	u32 max = size == 1 ? 0xff : size == 2 ? 0xffff : 0xffffffff;

	switch (rnd(10)) {
	case 0: return 0;
	case 1: return 1;
	case 2: return max;
	case 3: return max >> 1;		/* 0x7f.. */
	case 4: return (max >> 1) + 1;		/* 0x80.. */
	case 5: return max - 1;
	case 6: return (old + 1) & max;
	case 7: return (old - 1) & max;
	case 8: return rnd(16);			/* small: real addresses, ports */
	default: return (u32)rnd64() & max;
	}
}

static void set_field(u8 *p, size_t len, unsigned int off, unsigned int size,
		      u32 v)
{
	if (off + size > len)
		return;
	if (size == 1)
		p[off] = (u8)v;
	else if (size == 2)
		put16(p + off, (u16)v);
	else
		put32(p + off, v);
}

static u32 get_field(const u8 *p, size_t len, unsigned int off,
		     unsigned int size)
{
	if (off + size > len)
		return 0;
	return size == 1 ? p[off] : size == 2 ? get16(p + off) : get32(p + off);
}

struct field {
	unsigned char off, size;
};

/* the fields of each type (offsets from the R2C2 header) */
static const struct field data_fields[] = {
	{ 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 4 }, { 8, 2 }, { 10, 2 },
	{ 12, 4 }, { 16, 2 }, { 18, 2 }, { 20, 2 }, { 22, 2 },
};
static const struct field ctl_fields[] = {	/* header: tree, src, seq, csum */
	{ 1, 1 }, { 2, 2 }, { 4, 2 }, { 6, 2 },
};
static const struct field hello_fields[] = {
	{ 8, 1 }, { 9, 1 }, { 10, 2 }, { 12, 4 },
};
static const struct field lsa_fields[] = {
	{ 8, 4 }, { 12, 1 }, { 13, 1 }, { 14, 2 },
};
static const struct field flow_fields[] = {
	{ 8, 4 }, { 12, 2 }, { 14, 1 }, { 15, 1 }, { 16, 4 },
};
static const struct field routes_fields[] = {
	{ 8, 2 }, { 10, 2 },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* A header-field-aware mutation of the frame's current type. */
static void mutate_field(u8 *p, size_t *lenp)
{
	size_t len = *lenp;
	unsigned int t, k, off;
	const struct field *f = NULL;
	u32 v;

	if (!len)
		return;
	t = r2c2_hdr_type(p[0]);
	if (!rnd(8)) {			/* the version or the type nibble */
		if (rnd(2))
			p[0] = (u8)((p[0] & 0x0f) | interesting(1, 0) << 4);
		else
			p[0] = (u8)((p[0] & 0xf0) | rnd(16));
		return;
	}
	if (t == R2C2_T_DATA) {
		switch (rnd(6)) {
		case 0:		/* rlen: anything, at or beyond the limit */
			v = (u32[]){ 0, 1, R2C2_MAX_HOPS, R2C2_MAX_HOPS + 1,
				     0xff, rnd(R2C2_MAX_HOPS + 1) }[rnd(6)];
			set_field(p, len, 1, 1, v);
			return;
		case 1:		/* ridx around rlen */
			if (len > 2)
				p[2] = (u8)(p[1] + rnd(3) - 1);
			return;
		case 2:		/* plen around what is there */
			v = len >= R2C2_DATA_HLEN ? (u32)(len - R2C2_DATA_HLEN) : 0;
			set_field(p, len, 16, 2, v + rnd(3) - 1);
			return;
		case 3:		/* one hop of the route */
			if (len >= R2C2_DATA_HLEN)
				r2c2_route_set(((struct r2c2_data_hdr *)p)->route,
					       rnd(R2C2_MAX_HOPS), (u8)rnd(8));
			return;
		default:
			f = &data_fields[rnd(N(data_fields))];
			break;
		}
	} else if (t >= R2C2_T_HELLO && t < __R2C2_T_MAX && rnd(3) == 0) {
		f = &ctl_fields[rnd(N(ctl_fields))];
	} else if (t == R2C2_T_HELLO) {
		f = &hello_fields[rnd(N(hello_fields))];
	} else if (t == R2C2_T_LSA) {
		if (rnd(2)) {
			f = &lsa_fields[rnd(N(lsa_fields))];
		} else if (len > 12 && rnd(2)) {	/* count around the entries */
			v = len > 16 ? (u32)(len - 16) / 4 : 0;
			p[12] = (u8)(v + rnd(3) - 1);
			return;
		} else {				/* an entry's field */
			k = rnd(R2C2_MAX_PORTS);
			off = 16 + 4 * k + rnd(3);
			set_field(p, len, off, off == 16 + 4 * k + 2 ? 2 : 1,
				  interesting(off == 16 + 4 * k + 2 ? 2 : 1,
					      get_field(p, len, off, 1)));
			return;
		}
	} else if (t == R2C2_T_FLOW) {
		f = &flow_fields[rnd(N(flow_fields))];
	} else if (t == R2C2_T_ROUTES) {
		if (rnd(2)) {
			f = &routes_fields[rnd(N(routes_fields))];
		} else if (rnd(2)) {			/* count around the entries */
			v = len > 12 ? (u32)(len - 12) / 7 : 0;
			v = (u32[]){ 0, 1, R2C2_ROUTES_MAX, R2C2_ROUTES_MAX + 1,
				     v, v + 1, v - 1 }[rnd(7)];
			set_field(p, len, 8, 2, v);
			return;
		} else {				/* an entry's rproto or src */
			unsigned int size = rnd(2) ? 1 : 2;

			k = rnd(R2C2_ROUTES_MAX);
			off = 12 + 7 * k + (size == 1 ? 6 : 0);
			set_field(p, len, off, size,
				  interesting(size, get_field(p, len, off, size)));
			return;
		}
	} else if (t == R2C2_T_BCAST_ETH) {
		/* the inner Ethernet header: destination, source, ethertype */
		off = 8 + rnd(ETH_HLEN);
		if (off < len)
			p[off] = (u8)interesting(1, p[off]);
		return;
	}
	if (!f) {
		if (len > 1)
			p[1 + rnd((uint32_t)len - 1)] ^= (u8)(1u << rnd(8));
		return;
	}
	set_field(p, len, f->off, f->size,
		  interesting(f->size, get_field(p, len, f->off, f->size)));
}

/* boundaries worth truncating at */
static const unsigned int cuts[] = { 0, 1, 2, 7, 8, 11, 12, 15, 16, 19, 20,
				     21, 22, 23, 39, 40, 41 };

static enum op mutate(u8 *p, size_t *len)
{
	unsigned int w = rnd(100), o, n;

	for (o = 0; o < OP_MAX - 1 && w >= op_weight[o]; o++)
		w -= op_weight[o];
	switch (o) {
	case OP_BITFLIP:
		if (*len)
			p[rnd((uint32_t)*len)] ^= (u8)(1u << rnd(8));
		break;
	case OP_INTERESTING:
		if (*len)
			p[rnd((uint32_t)*len)] = interesting8[rnd(N(interesting8))];
		break;
	case OP_RANDOM:
		if (*len)
			p[rnd((uint32_t)*len)] = (u8)rnd(256);
		break;
	case OP_TRUNCATE:
		if (!*len)
			break;
		n = rnd(2) ? cuts[rnd(N(cuts))] : rnd((uint32_t)*len);
		if (n < *len)
			*len = n;
		break;
	case OP_EXTEND:
		n = 1 + rnd(64);
		if (rnd(4) == 0)	/* sometimes up to the MTU */
			n = MAX_LEN - (unsigned int)*len;
		if (*len + n > MAX_LEN)
			n = MAX_LEN - (unsigned int)*len;
		while (n--)
			p[(*len)++] = rnd(2) ? (u8)rnd(256) : 0;
		break;
	default:
		mutate_field(p, len);
		break;
	}
	return (enum op)o;
}

/* ------------------------------------------------------------------ */

static void pcap_header(FILE *f)
{
	uint32_t gh[6] = { 0xa1b2c3d4, 0x00040002, 0, 0, 65535, 1 };

	fwrite(gh, sizeof(gh), 1, f);
}

static void pcap_frame(FILE *f, const u8 *b, size_t len, unsigned long i)
{
	uint32_t rh[4] = { (uint32_t)(i / 1000000), (uint32_t)(i % 1000000),
			   (uint32_t)len, (uint32_t)len };

	fwrite(rh, sizeof(rh), 1, f);
	fwrite(b, len, 1, f);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: r2c2_fuzz -i IFNAME -m MAC -s SEEDS.pcap [-S SEED] [-n COUNT]\n"
		"       [-f FIRST] [-c PCT] [-A ADDR] [-P MASK] [-Q MASK] [-K] [-u PCT]\n"
		"       [-r RATE] [-w OUT.pcap] [-v]\n"
		"       r2c2_fuzz -s SEEDS.pcap -l\n");
	exit(1);
}

static unsigned long num(const char *s, unsigned long max)
{
	return raw_num(WHO, s, max);
}

int main(int argc, char **argv)
{
	unsigned long count = 10000, first = 0, i, sent = 0, fixed = 0, busy = 0;
	unsigned long unmutated = 0;
	unsigned long n_type[16] = { 0 }, n_op[OP_MAX] = { 0 }, n_out[O_MAX] = { 0 };
	unsigned int pct = 50, upct = 0, rate = 0, t, k, ntypes = 0, types[16];
	const char *ifname = NULL, *seeds_path = NULL, *out_path = NULL;
	unsigned char dmac[6], smac[6];
	int have_mac = 0, list = 0, verbose = 0, opt, fd = -1;
	u8 frame[ETH_HLEN + MAX_LEN], *p = frame + ETH_HLEN;
	uint64_t seed = 0;
	int have_seed = 0;
	struct sockaddr_ll sll;
	FILE *out = NULL;
	double t0, t1;

	while ((opt = getopt(argc, argv, "i:m:s:S:n:f:c:A:P:Q:Kr:u:w:lvh")) != -1) {
		switch (opt) {
		case 'i': ifname = optarg; break;
		case 'm':
			if (raw_mac(optarg, dmac))
				usage();
			have_mac = 1;
			break;
		case 's': seeds_path = optarg; break;
		case 'S': seed = strtoull(optarg, NULL, 0); have_seed = 1; break;
		case 'n': count = num(optarg, 1UL << 40); break;
		case 'f': first = num(optarg, 1UL << 40); break;
		case 'c': pct = (unsigned int)num(optarg, 100); break;
		case 'A': me = (u16)num(optarg, 0xffff); break;
		case 'P': nbr_mask = (unsigned int)num(optarg, 0xff); break;
		case 'Q': port_mask = (unsigned int)num(optarg, 0xff); break;
		case 'K': keyed = 1; break;
		case 'r': rate = (unsigned int)num(optarg, 100000000); break;
		case 'u': upct = (unsigned int)num(optarg, 100); break;
		case 'w': out_path = optarg; break;
		case 'l': list = 1; break;
		case 'v': verbose = 1; break;
		default: usage();
		}
	}
	if (!seeds_path || optind != argc || (!list && (!ifname || !have_mac)))
		usage();
	seeds_load(seeds_path);
	for (t = 0; t < 16; t++)
		if (nby_type[t])
			types[ntypes++] = t;
	if (list) {
		printf("{\"seeds\":%u", nseeds);
		for (k = 0; k < ntypes; k++)
			printf(",\"%s\":%u", type_names[types[k]], nby_type[types[k]]);
		printf("}\n");
		return 0;
	}
	if (!have_seed)
		seed = (uint64_t)time(NULL) * 1000003ULL ^ (uint64_t)getpid();
	rng_state = seed ? seed : 1;
	fprintf(stderr, "%s: seed %llu (replay: -S %llu -n %lu), %u seed frames\n",
		WHO, (unsigned long long)seed, (unsigned long long)seed,
		first + count, nseeds);

	fd = raw_open(WHO, ifname, dmac, &sll, smac);
	memcpy(frame, dmac, 6);
	memcpy(frame + 6, smac, 6);
	frame[12] = R2C2_ETH_P >> 8;
	frame[13] = R2C2_ETH_P & 0xff;
	if (out_path) {
		out = fopen(out_path, "wb");
		if (!out) {
			fprintf(stderr, "%s: %s: %s\n", WHO, out_path, strerror(errno));
			return 2;
		}
		pcap_header(out);
	}

	t0 = now_s();
	for (i = 0; i < first + count; i++) {
		/* a type first, so that rare types are not drowned by hellos */
		unsigned int st = types[rnd(ntypes)];
		const struct seed *s = &seeds[by_type[st][rnd(nby_type[st])]];
		unsigned int nops = 1 + rnd(4), ops = 0;
		int fix = rnd(100) < pct, did_fix = 0;
		/* no draw without -u: a PRNG seed gives the frames of before */
		int asis = upct && rnd(100) < upct;
		enum outcome o;
		size_t len = s->len;

		memcpy(p, s->b, len);
		for (k = 0; k < nops && !asis; k++)
			ops |= 1u << mutate(p, &len);
		if (fix && !asis)
			did_fix = fix_csum(p, len);
		if (i < first)
			continue;
		o = predict(p, len, s->b, s->len);
		for (k = 0;; k++) {
			if (sendto(fd, frame, ETH_HLEN + len, 0,
				   (struct sockaddr *)&sll, sizeof(sll)) ==
			    (ssize_t)(ETH_HLEN + len))
				break;
			if (errno != ENOBUFS || k == 1000) {
				fprintf(stderr, "%s: sendto (frame %lu): %s\n",
					WHO, i, strerror(errno));
				return 2;
			}
			busy++;
			usleep(1000);
		}
		sent++;
		fixed += did_fix;
		unmutated += asis;
		n_type[st]++;
		n_out[o]++;
		for (k = 0; k < OP_MAX; k++)
			n_op[k] += !!(ops & (1u << k));
		if (out)
			pcap_frame(out, frame, ETH_HLEN + len, i);
		if (verbose) {
			printf("%lu %s ops=%x fix=%d %s len=%zu ", i, type_names[st],
			       ops, did_fix, outcome_names[o], len);
			for (k = 0; k < len && k < 64; k++)
				printf("%02x", p[k]);
			printf("\n");
		}
		if (rate && !(sent % 16)) {
			double due = t0 + (double)sent / rate, d = due - now_s();

			if (d > 0)
				usleep((useconds_t)(d * 1e6));
		}
	}
	t1 = now_s();
	if (out)
		fclose(out);
	close(fd);

	printf("{\"seed\":%llu,\"sent\":%lu,\"busy\":%lu,\"secs\":%.3f,\"rate\":%.0f,\"csum_fixed\":%lu,\"keyed\":%s,\"unmutated\":%lu,\"by_type\":{",
	       (unsigned long long)seed, sent, busy, t1 - t0,
	       t1 > t0 ? (double)sent / (t1 - t0) : 0.0, fixed,
	       keyed ? "true" : "false", unmutated);
	for (k = 0; k < ntypes; k++)
		printf("%s\"%s\":%lu", k ? "," : "", type_names[types[k]],
		       n_type[types[k]]);
	printf("},\"by_op\":{");
	for (k = 0; k < OP_MAX; k++)
		printf("%s\"%s\":%lu", k ? "," : "", op_names[k], n_op[k]);
	printf("},\"predict\":{");
	for (k = 0; k < O_MAX; k++)
		printf("%s\"%s\":%lu", k ? "," : "", outcome_names[k], n_out[k]);
	printf("}}\n");
	return 0;
}
