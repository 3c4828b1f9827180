// SPDX-License-Identifier: GPL-2.0
/*
 * r2c2_replay - send control frames captured on a port of a running rack
 * (a classic pcap file) into a node's port, as a neighbour would: as they
 * were (a replay), or forged from them by a neighbour without the rack
 * key.
 *
 *   r2c2_replay -s FILE.pcap -l
 *	count the HELLO, LSA, FLOW and ROUTES frames of the file and those
 *	with an authentication trailer (24 bytes right after the body);
 *	bcast_seq is the broadcast sequence of the last FLOW or ROUTES
 *	frame (-1: none)
 *   r2c2_replay -i IFNAME -m MAC -s FILE.pcap [-a] [-g US] MODE TYPE...
 *	send every frame of the TYPEs (hello, lsa, flow, routes) once
 *     MODE asis   unchanged: a replay
 *          forge  changed as below, header checksum made right again; a
 *                 trailer the frame has is sent unchanged, so its MAC
 *                 no longer matches
 *          strip  changed as for forge, without the trailer
 *     The change: HELLO source 99; LSA source 77, its sequence + 1000;
 *     FLOW flow id ^ 0x5a5a5a5a and broadcast sequence + 1000; ROUTES
 *     broadcast sequence + 1000 (new broadcasts, not duplicates).
 *     -a: only frames with a trailer; -g: microseconds between frames
 *     (default 1000).
 *
 * Prints one JSON line: {"sent":N,"hello":N,"lsa":N,"flow":N,"routes":N,
 * "trailer":N}. Exit status: 0 when every frame was sent, 1 on a usage
 * error, 2 on a system error.
 */
#include <stdint.h>
#include <unistd.h>

#include "r2c2_raw.h"

#define PROG		"r2c2_replay"
#define MAX_FRAMES	4096
#define MAX_LEN		1514

struct frame {
	unsigned char b[MAX_LEN];
	size_t len;	/* after the Ethernet header */
};

static struct frame frames[MAX_FRAMES];
static unsigned int nframes;

static void usage(void)
{
	fprintf(stderr,
		"usage: " PROG " -s FILE.pcap -l\n"
		"       " PROG " -i IFNAME -m MAC -s FILE.pcap [-a] [-g US] {asis|forge|strip} TYPE...\n"
		"where  TYPE := { hello | lsa | flow | routes }\n");
	exit(1);
}

static void load(const char *path)
{
	unsigned char gh[24], rh[16], buf[65536];
	FILE *f = fopen(path, "rb");
	uint32_t magic, incl;
	int swap;

	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", PROG, path, strerror(errno));
		exit(2);
	}
	if (fread(gh, 1, sizeof(gh), f) != sizeof(gh)) {
		fprintf(stderr, "%s: %s: not a pcap file\n", PROG, path);
		exit(2);
	}
	memcpy(&magic, gh, 4);
	if (magic == 0xa1b2c3d4 || magic == 0xa1b23c4d) {
		swap = 0;
	} else if (magic == 0xd4c3b2a1 || magic == 0x4d3cb2a1) {
		swap = 1;
	} else {
		fprintf(stderr, "%s: %s: not a classic pcap file\n", PROG, path);
		exit(2);
	}
	while (fread(rh, 1, sizeof(rh), f) == sizeof(rh)) {
		memcpy(&incl, rh + 8, 4);
		if (swap)
			incl = __builtin_bswap32(incl);
		if (incl > sizeof(buf) || fread(buf, 1, incl, f) != incl)
			break;
		if (incl <= ETH_HLEN + R2C2_CTL_HLEN || incl > MAX_LEN ||
		    buf[12] != (R2C2_ETH_P >> 8) ||
		    buf[13] != (R2C2_ETH_P & 0xff) || nframes == MAX_FRAMES)
			continue;
		memcpy(frames[nframes].b, buf + ETH_HLEN, incl - ETH_HLEN);
		frames[nframes].len = incl - ETH_HLEN;
		nframes++;
	}
	fclose(f);
}

/* bytes of header and body, as the kernel counts them; 0 if malformed */
static size_t body_len(const struct frame *fr)
{
	const unsigned char *b = fr->b;
	size_t len;

	switch (r2c2_hdr_type(b[0])) {
	case R2C2_T_HELLO:
		len = R2C2_CTL_HLEN + R2C2_HELLO_LEN;
		break;
	case R2C2_T_FLOW:
		len = R2C2_CTL_HLEN + R2C2_FLOW_EVT_LEN;
		break;
	case R2C2_T_LSA:
		if (fr->len < R2C2_CTL_HLEN + sizeof(struct r2c2_lsa))
			return 0;
		len = R2C2_CTL_HLEN + sizeof(struct r2c2_lsa) +
		      b[R2C2_CTL_HLEN + 4] * sizeof(struct r2c2_lsa_ent);
		break;
	case R2C2_T_ROUTES:
		if (fr->len < R2C2_CTL_HLEN + sizeof(struct r2c2_routes))
			return 0;
		len = R2C2_CTL_HLEN + sizeof(struct r2c2_routes) +
		      (size_t)(b[R2C2_CTL_HLEN] << 8 | b[R2C2_CTL_HLEN + 1]) *
		      sizeof(struct r2c2_route_ent);
		break;
	default:
		return 0;
	}
	return len <= fr->len ? len : 0;
}

/* a trailer: its bytes after the body, key id and from set */
static int has_trailer(const struct frame *fr, size_t len)
{
	const struct r2c2_auth_trl *t = (const void *)(fr->b + len);

	return fr->len >= len + R2C2_AUTH_LEN && t->key_id && t->newest_id &&
	       t->from != 0xffff;
}

static void forge(struct frame *fr, size_t len)
{
	struct r2c2_ctl_hdr *ch = (struct r2c2_ctl_hdr *)fr->b;
	struct r2c2_lsa *lsa = (struct r2c2_lsa *)(ch + 1);
	struct r2c2_flow_evt *fe = (struct r2c2_flow_evt *)(ch + 1);

	switch (r2c2_hdr_type(fr->b[0])) {
	case R2C2_T_HELLO:
		ch->src = htons(99);
		break;
	case R2C2_T_LSA:
		ch->src = htons(77);
		lsa->lsa_seq = htonl(ntohl(lsa->lsa_seq) + 1000);
		ch->seq = htons((u16)ntohl(lsa->lsa_seq));
		break;
	case R2C2_T_FLOW:
		fe->flow ^= htonl(0x5a5a5a5a);
		ch->seq = htons(ntohs(ch->seq) + 1000);
		break;
	case R2C2_T_ROUTES:
		ch->seq = htons(ntohs(ch->seq) + 1000);
		break;
	}
	ch->csum = 0;
	ch->csum = r2c2_ctl_csum(ch, ch + 1, len - R2C2_CTL_HLEN);
}

int main(int argc, char **argv)
{
	unsigned int want = 0, n[16] = { 0 }, trl = 0, sent = 0, i;
	const char *ifname = NULL, *path = NULL, *mode;
	unsigned char dmac[6], smac[6], f[ETH_HLEN + MAX_LEN];
	int list = 0, only_trl = 0, have_mac = 0, fd = -1, c;
	unsigned long gap = 1000;
	struct sockaddr_ll sll;
	size_t len;

	while ((c = getopt(argc, argv, "i:m:s:lag:")) != -1) {
		switch (c) {
		case 'i':
			ifname = optarg;
			break;
		case 'm':
			if (raw_mac(optarg, dmac))
				usage();
			have_mac = 1;
			break;
		case 's':
			path = optarg;
			break;
		case 'l':
			list = 1;
			break;
		case 'a':
			only_trl = 1;
			break;
		case 'g':
			gap = raw_num(PROG, optarg, 1000000);
			break;
		default:
			usage();
		}
	}
	if (!path)
		usage();
	load(path);
	if (list) {
		int seq = -1;

		for (i = 0; i < nframes; i++) {
			u8 t = r2c2_hdr_type(frames[i].b[0]);

			len = body_len(&frames[i]);
			if (!len)
				continue;
			n[t]++;
			trl += has_trailer(&frames[i], len);
			if (t == R2C2_T_FLOW || t == R2C2_T_ROUTES)
				seq = frames[i].b[4] << 8 | frames[i].b[5];
		}
		printf("{\"frames\":%u,\"hello\":%u,\"lsa\":%u,\"flow\":%u,\"routes\":%u,\"trailer\":%u,\"bcast_seq\":%d}\n",
		       nframes, n[R2C2_T_HELLO], n[R2C2_T_LSA], n[R2C2_T_FLOW],
		       n[R2C2_T_ROUTES], trl, seq);
		return 0;
	}
	if (!ifname || !have_mac || optind + 2 > argc)
		usage();
	mode = argv[optind++];
	if (strcmp(mode, "asis") && strcmp(mode, "forge") && strcmp(mode, "strip"))
		usage();
	for (; optind < argc; optind++) {
		if (!strcmp(argv[optind], "hello"))
			want |= 1u << R2C2_T_HELLO;
		else if (!strcmp(argv[optind], "lsa"))
			want |= 1u << R2C2_T_LSA;
		else if (!strcmp(argv[optind], "flow"))
			want |= 1u << R2C2_T_FLOW;
		else if (!strcmp(argv[optind], "routes"))
			want |= 1u << R2C2_T_ROUTES;
		else
			usage();
	}
	fd = raw_open(PROG, ifname, dmac, &sll, smac);
	for (i = 0; i < nframes; i++) {
		struct frame *fr = &frames[i];
		u8 t = r2c2_hdr_type(fr->b[0]);
		size_t out;
		int has;

		len = body_len(fr);
		if (!len || !(want & (1u << t)))
			continue;
		has = has_trailer(fr, len);
		if (only_trl && !has)
			continue;
		out = fr->len;
		if (strcmp(mode, "asis"))
			forge(fr, len);
		if (!strcmp(mode, "strip"))
			out = len;
		memcpy(f, dmac, 6);
		memcpy(f + 6, smac, 6);
		f[12] = R2C2_ETH_P >> 8;
		f[13] = R2C2_ETH_P & 0xff;
		memcpy(f + ETH_HLEN, fr->b, out);
		if (sendto(fd, f, ETH_HLEN + out, 0, (struct sockaddr *)&sll,
			   sizeof(sll)) < 0) {
			fprintf(stderr, "%s: sendto: %s\n", PROG, strerror(errno));
			return 2;
		}
		n[t]++;
		trl += has;
		sent++;
		if (gap)
			usleep(gap);
	}
	printf("{\"sent\":%u,\"hello\":%u,\"lsa\":%u,\"flow\":%u,\"routes\":%u,\"trailer\":%u}\n",
	       sent, n[R2C2_T_HELLO], n[R2C2_T_LSA], n[R2C2_T_FLOW],
	       n[R2C2_T_ROUTES], trl);
	return 0;
}
