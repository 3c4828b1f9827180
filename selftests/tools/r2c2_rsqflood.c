// SPDX-License-Identifier: GPL-2.0
/*
 * r2c2_rsqflood - hostile input for a node's reorder buffer
 * (selftests/reseq_hostile_test.sh): valid one-hop data frames, routed
 * RPS so that the receiver resequences them, with forged sequence numbers
 * and flow identifiers.
 *
 *   r2c2_rsqflood -i IFNAME -m DSTMAC -s SRC -d DST -r PORT -M MODE
 *                 [-F FLOWS] [-n PER_FLOW] [-f FLOW0]
 *
 * For each of FLOWS flows (ids FLOW0, FLOW0 + 1, ...; default 1 flow,
 * id 0x70000000) the frames are, by MODE:
 *   hold   seq 0, then 2 .. PER_FLOW: a gap at 1 that is never filled,
 *          everything after it is held (limits, then timeouts, release it)
 *   ahead  seq 0, then PER_FLOW numbers each about 2^31 away from the
 *          previous one (forged: far ahead of what the flow expects)
 *   dup    seq 0, then 2 .. PER_FLOW, each sent twice
 * Flows are interleaved: frame k of every flow, then frame k + 1.
 * Prints "sent N" (frames) on stdout. Exit status: 0, 1 on a usage error,
 * 2 on a system error.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netpacket/packet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <r2c2/wire.h>

static void usage(void)
{
	fprintf(stderr,
		"usage: r2c2_rsqflood -i IFNAME -m DSTMAC -s SRC -d DST -r PORT\n"
		"                     -M hold|ahead|dup [-F FLOWS] [-n PER_FLOW] [-f FLOW0]\n");
	exit(1);
}

static unsigned long num(const char *s, unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || end == s || v > max) {
		fprintf(stderr, "r2c2_rsqflood: bad number '%s' (max %lu)\n", s, max);
		exit(1);
	}
	return v;
}

static int fd;
static struct sockaddr_ll sll;
static unsigned char frame[ETH_FRAME_LEN];
static size_t len;
static unsigned long sent;

static int send_one(u32 flow, u32 seq)
{
	struct r2c2_data_hdr *h = (struct r2c2_data_hdr *)(frame + ETH_HLEN);

	h->flow = htonl(flow);
	h->seq = htonl(seq);
	h->csum = 0;
	h->csum = (__sum16)r2c2_data_csum(h);
	for (;;) {
		if (sendto(fd, frame, len, 0, (struct sockaddr *)&sll,
			   sizeof(sll)) == (ssize_t)len)
			break;
		if (errno == ENOBUFS || errno == EAGAIN || errno == EINTR) {
			usleep(100);
			continue;
		}
		perror("r2c2_rsqflood: sendto");
		return -1;
	}
	sent++;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int src = ~0u, dst = ~0u, port = ~0u, b[6], i;
	unsigned long flows = 1, per = 100, k, f;
	u32 flow0 = 0x70000000, *last;
	const char *ifname = NULL, *mode = NULL;
	unsigned char dmac[6];
	int have_mac = 0, opt;
	struct ifreq ifr;
	u8 hop;
	struct r2c2_data_hdr *h = (struct r2c2_data_hdr *)(frame + ETH_HLEN);

	while ((opt = getopt(argc, argv, "i:m:s:d:r:M:F:n:f:h")) != -1) {
		switch (opt) {
		case 'i': ifname = optarg; break;
		case 'm':
			if (sscanf(optarg, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2],
				   &b[3], &b[4], &b[5]) != 6)
				usage();
			for (i = 0; i < 6; i++)
				dmac[i] = (unsigned char)b[i];
			have_mac = 1;
			break;
		case 's': src = (unsigned int)num(optarg, 0xfffe); break;
		case 'd': dst = (unsigned int)num(optarg, 0xfffe); break;
		case 'r': port = (unsigned int)num(optarg, R2C2_MAX_PORTS - 1); break;
		case 'M': mode = optarg; break;
		case 'F': flows = num(optarg, 1000000); break;
		case 'n': per = num(optarg, 1000000); break;
		case 'f': flow0 = (u32)num(optarg, 0xffffffffUL); break;
		default: usage();
		}
	}
	if (!ifname || !have_mac || src == ~0u || dst == ~0u || port == ~0u ||
	    !mode || !flows || optind != argc)
		usage();
	if (strcmp(mode, "hold") && strcmp(mode, "ahead") && strcmp(mode, "dup"))
		usage();
	last = calloc(flows, sizeof(*last));
	if (!last) {
		perror("r2c2_rsqflood: calloc");
		return 2;
	}

	fd = socket(AF_PACKET, SOCK_RAW, 0);	/* protocol 0: never receives */
	if (fd < 0) {
		perror("r2c2_rsqflood: socket");
		return 2;
	}
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0) {
		perror("r2c2_rsqflood: SIOCGIFHWADDR");
		return 2;
	}
	len = ETH_HLEN + R2C2_DATA_HLEN + 46;
	memcpy(frame, dmac, 6);
	memcpy(frame + 6, ifr.ifr_hwaddr.sa_data, 6);
	frame[12] = R2C2_ETH_P >> 8;
	frame[13] = R2C2_ETH_P & 0xff;
	h->ver_type = r2c2_ver_type(R2C2_T_DATA);
	h->rlen = 1;
	h->ridx = 1;
	h->rproto = R2C2_RP_RPS;
	h->src = htons((u16)src);
	h->dst = htons((u16)dst);
	h->plen = htons(46);
	h->proto = htons(0x88b6);	/* no stack takes it */
	hop = (u8)port;
	r2c2_route_pack(h->route, &hop, 1);
	if (ioctl(fd, SIOCGIFINDEX, &ifr) < 0) {
		perror("r2c2_rsqflood: SIOCGIFINDEX");
		return 2;
	}
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(R2C2_ETH_P);
	sll.sll_ifindex = ifr.ifr_ifindex;
	sll.sll_halen = 6;
	memcpy(sll.sll_addr, dmac, 6);

	for (k = 0; k <= per; k++) {
		for (f = 0; f < flows; f++) {
			u32 id = flow0 + (u32)f, seq;

			if (k == 0)
				seq = 0;
			else if (!strcmp(mode, "ahead"))
				seq = last[f] + 0x80000000u + (u32)(k * 7919);
			else if (k == 1)
				continue;	/* the gap */
			else
				seq = (u32)k;
			last[f] = seq;
			if (send_one(id, seq))
				return 2;
			if (k && !strcmp(mode, "dup") && send_one(id, seq))
				return 2;
		}
	}
	printf("sent %lu\n", sent);
	free(last);
	return 0;
}
