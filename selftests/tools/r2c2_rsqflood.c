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
#include <unistd.h>

#include "r2c2_raw.h"

#define PROG "r2c2_rsqflood"

static void usage(void)
{
	fprintf(stderr,
		"usage: r2c2_rsqflood -i IFNAME -m DSTMAC -s SRC -d DST -r PORT\n"
		"                     -M hold|ahead|dup [-F FLOWS] [-n PER_FLOW] [-f FLOW0]\n");
	exit(1);
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
		perror(PROG ": sendto");
		return -1;
	}
	sent++;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int src = ~0u, dst = ~0u, port = ~0u;
	unsigned long flows = 1, per = 100, k, f;
	u32 flow0 = 0x70000000, *last;
	const char *ifname = NULL, *mode = NULL;
	unsigned char dmac[6], smac[6];
	int have_mac = 0, opt;

	while ((opt = getopt(argc, argv, "i:m:s:d:r:M:F:n:f:h")) != -1) {
		switch (opt) {
		case 'i': ifname = optarg; break;
		case 'm':
			if (raw_mac(optarg, dmac))
				usage();
			have_mac = 1;
			break;
		case 's': src = (unsigned int)raw_num(PROG, optarg, 0xfffe); break;
		case 'd': dst = (unsigned int)raw_num(PROG, optarg, 0xfffe); break;
		case 'r': port = (unsigned int)raw_num(PROG, optarg, R2C2_MAX_PORTS - 1); break;
		case 'M': mode = optarg; break;
		case 'F': flows = raw_num(PROG, optarg, 1000000); break;
		case 'n': per = raw_num(PROG, optarg, 1000000); break;
		case 'f': flow0 = (u32)raw_num(PROG, optarg, 0xffffffffUL); break;
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
		perror(PROG ": calloc");
		return 2;
	}

	fd = raw_open(PROG, ifname, dmac, &sll, smac);
	len = raw_data_frame(frame, dmac, smac, (u16)src, (u16)dst, (u8)port, 0,
			     46);

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
