// SPDX-License-Identifier: GPL-2.0
/*
 * r2c2_ctlflood - send many well-formed R2C2 control frames from forged
 * sources on an interface (AF_PACKET), as a hostile or faulty neighbour
 * would: what state do they make the node behind the port keep?
 *
 *   r2c2_ctlflood -i IFNAME [-m MAC] [-g US] [-a MAX_AGE] lsa FIRST COUNT
 *	one LSA (sequence 1, no link) of each address FIRST..FIRST+COUNT-1,
 *	lifetime MAX_AGE s (default 600)
 *   r2c2_ctlflood -i IFNAME [-m MAC] [-g US] flow FIRST COUNT
 *	one FLOW event (sequence 1, tree 0) from each source FIRST..
 *   r2c2_ctlflood -i IFNAME [-m MAC] [-g US] routes SRC FRAMES OWNER
 *	FRAMES ROUTES frames from SRC (sequences 1..FRAMES, tree 0), each of
 *	212 entries setting VLB for flows of node OWNER, all ids distinct
 *   r2c2_ctlflood -i IFNAME [-m MAC] [-g US] -d SECONDS mix FIRST COUNT OWNER
 *	for SECONDS, rounds over the sources FIRST..FIRST+COUNT-1: each
 *	round sends every source's LSA (sequence = round, no link in even
 *	rounds, one to its partner FIRST + ((i ^ 1) % COUNT) in odd ones, so
 *	that the graph changes), a FLOW event and a ROUTES frame of 212
 *	entries for flows of node OWNER that do not exist (broadcast
 *	sequences 2 * round - 1 and 2 * round). Prints one JSON object:
 *	frames sent by type, sendto failures (ENOBUFS: the device's queue
 *	was full, not sent), rounds, seconds and frames a second.
 *   r2c2_ctlflood -i IFNAME [-m MAC] arp SRC SEQ SIP SHA TIP [DST]
 *	one ARP packet of node SRC saying that IPv4 address SIP is at MAC
 *	SHA: without DST a request for TIP broadcast by SRC (BCAST_ETH,
 *	sequence SEQ, tree 0), with DST a reply to TIP in a data frame
 *	delivered at the receiving node (whose address must be DST; DOR,
 *	flow SEQ, not resequenced); -v VID: the broadcast ARP packet behind
 *	an 802.1Q tag of VLAN VID
 *   r2c2_ctlflood -i IFNAME [-m MAC] [-H] nd SRC SEQ SIP6 SHA TIP6
 *	an IPv6 neighbour solicitation of node SRC for TIP6, from SIP6 to
 *	TIP6 with source link-layer address SHA, broadcast by SRC
 *	(BCAST_ETH, sequence SEQ, tree 0); -H: behind a hop-by-hop options
 *	header (PadN)
 *
 * -m: Ethernet destination (default broadcast); -g: microseconds between
 * frames (default 100: a receiver's backlog must not overflow, every
 * frame is to arrive; 0 sends as fast as the socket takes them). Exit
 * status: 0 when every frame was sent (mix: once the time is over), 1 on
 * a usage error, 2 on a system error.
 */
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "r2c2_raw.h"

#define PROG "r2c2_ctlflood"

static void usage(void)
{
	fprintf(stderr,
		"usage: " PROG " -i IFNAME [-m MAC] [-g US] [-a MAX_AGE] lsa FIRST COUNT\n"
		"       " PROG " -i IFNAME [-m MAC] [-g US] flow FIRST COUNT\n"
		"       " PROG " -i IFNAME [-m MAC] [-g US] routes SRC FRAMES OWNER\n"
		"       " PROG " -i IFNAME [-m MAC] [-g US] -d SECONDS mix FIRST COUNT OWNER\n"
		"       " PROG " -i IFNAME [-m MAC] [-v VID] arp SRC SEQ SIP SHA TIP [DST]\n"
		"       " PROG " -i IFNAME [-m MAC] [-H] nd SRC SEQ SIP6 SHA TIP6\n");
	exit(1);
}

static unsigned long num(const char *s, unsigned long max)
{
	return raw_num(PROG, s, max);
}

/* control header and the checksum over it and @blen body bytes */
static size_t ctl_frame(unsigned char *f, const unsigned char *dmac,
			const unsigned char *smac, u8 type, u16 src, u16 seq,
			size_t blen)
{
	struct r2c2_ctl_hdr *ch = (struct r2c2_ctl_hdr *)(f + ETH_HLEN);

	memcpy(f, dmac, 6);
	memcpy(f + 6, smac, 6);
	f[12] = R2C2_ETH_P >> 8;
	f[13] = R2C2_ETH_P & 0xff;
	ch->ver_type = r2c2_ver_type(type);
	ch->tree = 0;
	ch->src = htons(src);
	ch->seq = htons(seq);
	ch->csum = 0;
	ch->csum = (__sum16)r2c2_ctl_csum(ch, ch + 1, (unsigned int)blen);
	return ETH_HLEN + R2C2_CTL_HLEN + blen;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* one frame; returns 0, 1 when the device refused it (ENOBUFS), -1 */
static int send_frame(int fd, const unsigned char *f, size_t len,
		      const struct sockaddr_ll *sll)
{
	if (sendto(fd, f, len, 0, (const struct sockaddr *)sll,
		   sizeof(*sll)) == (ssize_t)len)
		return 0;
	if (errno == ENOBUFS || errno == EAGAIN)
		return 1;
	fprintf(stderr, PROG ": sendto: %s\n", strerror(errno));
	return -1;
}

/* mix: LSA, FLOW and ROUTES of COUNT forged sources, for @secs seconds */
static int mix(int fd, const struct sockaddr_ll *sll,
	       const unsigned char *dmac, const unsigned char *smac,
	       unsigned long first, unsigned long count, unsigned long owner,
	       unsigned long gap, unsigned long max_age, double secs)
{
	unsigned long n[3] = { 0 }, refused = 0, round = 0, i, e;
	unsigned char f[ETH_FRAME_LEN];
	unsigned char *body = f + ETH_HLEN + R2C2_CTL_HLEN;
	double t0 = now_s(), t = t0;
	size_t len;
	int k, r;

	while (t - t0 < secs) {
		round++;
		for (i = 0; i < count && t - t0 < secs; i++) {
			u16 src = (u16)(first + i);

			for (k = 0; k < 3; k++) {
				memset(f, 0, sizeof(f));
				if (k == 0) {
					struct r2c2_lsa *lsa = (struct r2c2_lsa *)body;
					struct r2c2_lsa_ent *le = (struct r2c2_lsa_ent *)(lsa + 1);

					lsa->lsa_seq = htonl((u32)round);
					lsa->max_age_s = htons((u16)max_age);
					if (round & 1) {
						lsa->count = 1;
						le->nbr = htons((u16)(first + ((i ^ 1) % count)));
					}
					len = ctl_frame(f, dmac, smac, R2C2_T_LSA, src, 1,
							sizeof(*lsa) + lsa->count * sizeof(*le));
				} else if (k == 1) {
					struct r2c2_flow_evt *evt = (struct r2c2_flow_evt *)body;

					evt->flow = htonl(0xf00d0000u + (u32)round);
					evt->dst = htons((u16)owner);
					evt->weight = 1;
					evt->evt_prio = R2C2_FE_START << 4;
					evt->rproto_demand = htonl(0x3fffffff);
					len = ctl_frame(f, dmac, smac, R2C2_T_FLOW, src,
							(u16)(2 * round - 1), R2C2_FLOW_EVT_LEN);
				} else {
					struct r2c2_routes *rt = (struct r2c2_routes *)body;
					struct r2c2_route_ent *ent = (struct r2c2_route_ent *)(rt + 1);

					rt->count = htons(R2C2_ROUTES_MAX);
					for (e = 0; e < R2C2_ROUTES_MAX; e++) {
						ent[e].src = htons((u16)owner);
						ent[e].flow = htonl(0xbad00000u + (u32)e);
						ent[e].rproto = R2C2_RP_VLB;
					}
					len = ctl_frame(f, dmac, smac, R2C2_T_ROUTES, src,
							(u16)(2 * round), sizeof(*rt) +
							R2C2_ROUTES_MAX * sizeof(*ent));
				}
				r = send_frame(fd, f, len, sll);
				if (r < 0)
					return 2;
				if (r)
					refused++;
				else
					n[k]++;
				if (gap)
					usleep((useconds_t)gap);
			}
			t = now_s();
		}
	}
	t -= t0;
	printf("{\"sent\":%lu,\"lsa\":%lu,\"flow\":%lu,\"routes\":%lu,"
	       "\"refused\":%lu,\"rounds\":%lu,\"seconds\":%.2f,\"rate\":%.0f}\n",
	       n[0] + n[1] + n[2], n[0], n[1], n[2], refused, round, t,
	       (double)(n[0] + n[1] + n[2]) / t);
	return 0;
}

/* ARP packet: SIP is at SHA (request for TIP, or reply to it) */
static size_t arp_body(unsigned char *b, int reply, const char *sip,
		       const char *sha, const char *tip, const unsigned char *tha)
{
	b[0] = 0; b[1] = 1;		/* Ethernet */
	b[2] = 0x08; b[3] = 0x00;	/* IPv4 */
	b[4] = 6; b[5] = 4;
	b[6] = 0; b[7] = reply ? 2 : 1;
	if (raw_mac(sha, b + 8) || inet_pton(AF_INET, sip, b + 14) != 1 ||
	    inet_pton(AF_INET, tip, b + 24) != 1)
		usage();
	memcpy(b + 18, tha, 6);
	return 28;
}

/* -v: the VLAN of the broadcast ARP packet (0: untagged); -H for nd */
static unsigned long vlan;
static int hbh;

/* 16-bit one's complement sum of @len bytes (even) into @sum */
static u32 sum16(const unsigned char *b, size_t len, u32 sum)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (u32)b[i] << 8 | b[i + 1];
	return sum;
}

/* the nd subcommand: one frame into f, its length returned */
static size_t nd_frame(unsigned char *f, const unsigned char *dmac,
		       const unsigned char *smac, char **arg)
{
	u16 src = (u16)num(arg[0], 0xfffe), seq = (u16)num(arg[1], 0xffff);
	unsigned char *inner = f + ETH_HLEN + R2C2_CTL_HLEN;
	unsigned char *ip6 = inner + ETH_HLEN, *icmp;
	size_t ext = hbh ? 8 : 0, mlen = 24 + 8;
	u32 sum;

	memset(inner, 0xff, 6);		/* all-nodes would do as well */
	r2c2_addr_to_mac(src, inner + 6);
	inner[12] = 0x86;
	inner[13] = 0xdd;
	ip6[0] = 0x60;
	ip6[4] = (unsigned char)((ext + mlen) >> 8);
	ip6[5] = (unsigned char)(ext + mlen);
	ip6[6] = hbh ? 0 : 58;		/* hop-by-hop options, or ICMPv6 */
	ip6[7] = 255;
	if (inet_pton(AF_INET6, arg[2], ip6 + 8) != 1 ||
	    inet_pton(AF_INET6, arg[4], ip6 + 24) != 1)
		usage();
	if (hbh) {
		ip6[40] = 58;		/* next: ICMPv6; length 0: 8 bytes */
		ip6[42] = 1;		/* PadN of 4 bytes */
		ip6[43] = 4;
	}
	icmp = ip6 + 40 + ext;
	icmp[0] = 135;			/* neighbour solicitation */
	memcpy(icmp + 8, ip6 + 24, 16);	/* target */
	icmp[24] = 1;			/* source link-layer address */
	icmp[25] = 1;
	if (raw_mac(arg[3], icmp + 26))
		usage();
	/* checksum over the pseudo-header and the message */
	sum = sum16(ip6 + 8, 32, 0) + (u32)mlen + 58;
	sum = sum16(icmp, mlen, sum);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	sum = ~sum & 0xffff;
	icmp[2] = (unsigned char)(sum >> 8);
	icmp[3] = (unsigned char)sum;
	return ctl_frame(f, dmac, smac, R2C2_T_BCAST_ETH, src, seq, ETH_HLEN) +
	       40 + ext + mlen;
}

/* the arp subcommand: one frame into f, its length returned */
static size_t arp_frame(unsigned char *f, const unsigned char *dmac,
			const unsigned char *smac, char **arg, int nargs)
{
	u16 src = (u16)num(arg[0], 0xfffe), seq = (u16)num(arg[1], 0xffff);
	unsigned char tha[6] = { 0 }, *inner;
	size_t len;

	if (nargs == 6) {
		struct r2c2_data_hdr *h = (struct r2c2_data_hdr *)(f + ETH_HLEN);
		u16 dst = (u16)num(arg[5], 0xfffe);

		r2c2_addr_to_mac(dst, tha);
		len = arp_body(f + ETH_HLEN + R2C2_DATA_HLEN, 1, arg[2],
			       arg[3], arg[4], tha);
		len = raw_data_frame(f, dmac, smac, src, dst, 0, seq,
				     (u16)len);
		h->rproto = R2C2_RP_DOR;
		h->proto = htons(0x0806);
		h->csum = (__sum16)r2c2_data_csum(h);
		return len;
	}
	/* BCAST_ETH: r2c0's Ethernet header, then the packet */
	inner = f + ETH_HLEN + R2C2_CTL_HLEN;
	memset(inner, 0xff, 6);
	r2c2_addr_to_mac(src, inner + 6);
	len = 0;
	if (vlan) {
		inner[12] = 0x81;
		inner[13] = 0x00;
		inner[14] = (unsigned char)(vlan >> 8);
		inner[15] = (unsigned char)vlan;
		inner += 4;	/* the tag sits before the ethertype */
		len = 4;
	}
	inner[12] = 0x08;
	inner[13] = 0x06;
	len += arp_body(inner + ETH_HLEN, 0, arg[2], arg[3], arg[4], tha);
	/* the checksum covers the Ethernet header */
	return ctl_frame(f, dmac, smac, R2C2_T_BCAST_ETH, src, seq, ETH_HLEN) +
	       len;
}

int main(int argc, char **argv)
{
	unsigned char dmac[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }, smac[6];
	unsigned char f[ETH_FRAME_LEN];
	unsigned long gap = 100, max_age = 600, first, count, owner = 0, i, e;
	unsigned long secs = 0;
	struct sockaddr_ll sll;
	const char *ifname = NULL, *what;
	unsigned char *body = f + ETH_HLEN + R2C2_CTL_HLEN;
	size_t len = 0;
	int opt, fd;

	while ((opt = getopt(argc, argv, "i:m:g:a:d:v:Hh")) != -1) {
		switch (opt) {
		case 'i': ifname = optarg; break;
		case 'm':
			if (raw_mac(optarg, dmac))
				usage();
			break;
		case 'g': gap = num(optarg, 1000000); break;
		case 'a': max_age = num(optarg, 0xffff); break;
		case 'd': secs = num(optarg, 86400); break;
		case 'v': vlan = num(optarg, 4094); break;
		case 'H': hbh = 1; break;
		default: usage();
		}
	}
	if (!ifname || argc - optind < 3)
		usage();
	what = argv[optind];
	if (!strcmp(what, "nd") || !strcmp(what, "arp")) {
		int nargs = argc - optind;

		/* SRC SEQ SIP SHA TIP, and arp's [DST] */
		if (nargs != 6 && (nargs != 7 || strcmp(what, "arp")))
			usage();
		fd = raw_open(PROG, ifname, dmac, &sll, smac);
		memset(f, 0, sizeof(f));
		if (!strcmp(what, "nd"))
			len = nd_frame(f, dmac, smac, argv + optind + 1);
		else
			len = arp_frame(f, dmac, smac, argv + optind + 1,
					nargs - 1);
		if (send_frame(fd, f, len, &sll)) {
			if (errno == ENOBUFS || errno == EAGAIN)
				fprintf(stderr, PROG ": sendto: %s\n", strerror(errno));
			return 2;
		}
		return 0;
	}
	first = num(argv[optind + 1], 0xfffe);
	count = num(argv[optind + 2], 1000000);
	if (!strcmp(what, "mix")) {
		if (argc - optind != 4 || !secs || !count || first + count > 0xffff)
			usage();
		owner = num(argv[optind + 3], 0xfffe);
		fd = raw_open(PROG, ifname, dmac, &sll, smac);
		return mix(fd, &sll, dmac, smac, first, count, owner, gap,
			   max_age, (double)secs);
	}
	if (!strcmp(what, "routes")) {
		if (argc - optind != 4)
			usage();
		owner = num(argv[optind + 3], 0xfffe);
		if (count > 0xffff)
			usage();
	} else if (argc - optind != 3 ||
		   (strcmp(what, "lsa") && strcmp(what, "flow")) ||
		   first + count > 0xffff) {
		usage();
	}

	fd = raw_open(PROG, ifname, dmac, &sll, smac);
	for (i = 0; i < count; i++) {
		memset(f, 0, sizeof(f));
		if (!strcmp(what, "lsa")) {
			struct r2c2_lsa *lsa = (struct r2c2_lsa *)body;

			lsa->lsa_seq = htonl(1);
			lsa->max_age_s = htons((u16)max_age);
			len = ctl_frame(f, dmac, smac, R2C2_T_LSA,
					(u16)(first + i), 1, sizeof(*lsa));
		} else if (!strcmp(what, "flow")) {
			struct r2c2_flow_evt *evt = (struct r2c2_flow_evt *)body;

			evt->flow = htonl(0xf00d0000u + (u32)i);
			evt->dst = htons(1);
			evt->weight = 1;
			evt->evt_prio = R2C2_FE_START << 4;
			evt->rproto_demand = htonl(0x3fffffff);
			len = ctl_frame(f, dmac, smac, R2C2_T_FLOW,
					(u16)(first + i), 1, R2C2_FLOW_EVT_LEN);
		} else {
			struct r2c2_routes *r = (struct r2c2_routes *)body;
			struct r2c2_route_ent *ent = (struct r2c2_route_ent *)(r + 1);

			r->count = htons(R2C2_ROUTES_MAX);
			for (e = 0; e < R2C2_ROUTES_MAX; e++) {
				ent[e].src = htons((u16)owner);
				ent[e].flow = htonl(0xbad00000u +
						    (u32)(i * R2C2_ROUTES_MAX + e));
				ent[e].rproto = R2C2_RP_VLB;
			}
			len = ctl_frame(f, dmac, smac, R2C2_T_ROUTES, (u16)first,
					(u16)(i + 1), sizeof(*r) +
					R2C2_ROUTES_MAX * sizeof(*ent));
		}
		if (sendto(fd, f, len, 0, (struct sockaddr *)&sll,
			   sizeof(sll)) != (ssize_t)len) {
			fprintf(stderr, PROG ": sendto: %s\n", strerror(errno));
			return 2;
		}
		if (gap)
			usleep((useconds_t)gap);
	}
	return 0;
}
