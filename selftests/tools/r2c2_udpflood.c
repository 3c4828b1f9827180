// SPDX-License-Identifier: GPL-2.0
/*
 * r2c2_udpflood - many UDP flows from one raw socket, for sch_r2c2 tests
 * and benchmarks: flow i has source port SPORT + i, so the stack's flow
 * hash (and with it the R2C2 flow id) differs per flow.
 *
 *   r2c2_udpflood -d DST [options]
 *     -s SRC     source IPv4 address (default: chosen by the kernel, 0)
 *     -d DST     destination IPv4 address
 *     -p PORT    destination port (default 9)
 *     -b SPORT   first source port (default 10000)
 *     -n FLOWS   flows (default 1, at most 60000)
 *     -l LEN     UDP payload bytes (default 1000)
 *     -t SECS    seconds to send (default 1; fractions allowed)
 *     -B BYTES   socket send buffer (default 64 MiB: enough for one
 *                packet queued per flow in a rate limiter)
 *     -r PPS     send at most PPS packets a second (default: no limit)
 *     -c COUNT   stop after COUNT send attempts (default: no limit), e.g.
 *                -n 50 -c 100: 50 flows of exactly two packets each
 *
 * Sends round robin over the flows as fast as the socket takes them
 * (blocking: a rate limiter below holds the sender back through the
 * socket's send buffer; packets it drops, ENOBUFS, are counted apart) and
 * prints "packets N bytes N drops N seconds S pps P". One socket serves
 * all flows: for flows of different rates run one process per flow.
 * Each payload starts with the flow's packet sequence number (u32,
 * network order), so a receiver can count packets lost after the qdisc.
 * Exit status: 0, 1 on a usage error, 2 on a system error.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int usage(void)
{
	fputs("usage: r2c2_udpflood -d DST [-s SRC] [-p PORT] [-b SPORT] [-n FLOWS]\n"
	      "                     [-l LEN] [-t SECS] [-B SNDBUF] [-r PPS] [-c COUNT]\n",
	      stderr);
	return 1;
}

int main(int argc, char **argv)
{
	unsigned long flows = 1, len = 1000, sport = 10000, dport = 9;
	unsigned long long packets = 0, bytes = 0, drops = 0, tries = 0, count = 0;
	double pps = 0;
	struct in_addr src = { 0 }, dst = { 0 };
	int sndbuf = 64 << 20, one = 1, fd, opt;
	double secs = 1, start, t;
	struct sockaddr_in sa = { .sin_family = AF_INET };
	unsigned char *pkt;
	struct iphdr *ip;
	struct udphdr *udp;
	unsigned long i = 0;
	uint32_t *seq;
	char *end;

	while ((opt = getopt(argc, argv, "s:d:p:b:n:l:t:B:r:c:")) != -1) {
		switch (opt) {
		case 's':
			if (inet_pton(AF_INET, optarg, &src) != 1)
				return usage();
			break;
		case 'd':
			if (inet_pton(AF_INET, optarg, &dst) != 1)
				return usage();
			break;
		case 'p':
			dport = strtoul(optarg, &end, 0);
			if (*end || dport > 65535)
				return usage();
			break;
		case 'b':
			sport = strtoul(optarg, &end, 0);
			if (*end || sport > 65535)
				return usage();
			break;
		case 'n':
			flows = strtoul(optarg, &end, 0);
			if (*end || !flows || flows > 60000)
				return usage();
			break;
		case 'l':
			len = strtoul(optarg, &end, 0);
			if (*end || len < 4 || len > 1400)
				return usage();
			break;
		case 't':
			secs = strtod(optarg, &end);
			if (*end || secs <= 0)
				return usage();
			break;
		case 'r':
			pps = strtod(optarg, &end);
			if (*end || pps <= 0)
				return usage();
			break;
		case 'c':
			count = strtoull(optarg, &end, 0);
			if (*end || !count)
				return usage();
			break;
		case 'B':
			sndbuf = (int)strtol(optarg, &end, 0);
			if (*end || sndbuf <= 0)
				return usage();
			break;
		default:
			return usage();
		}
	}
	if (!dst.s_addr || optind != argc)
		return usage();
	if (sport + flows > 65536) {
		fputs("r2c2_udpflood: SPORT + FLOWS beyond port 65535\n", stderr);
		return 1;
	}

	fd = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	if (fd < 0 ||
	    setsockopt(fd, IPPROTO_IP, IP_HDRINCL, &one, sizeof(one)) ||
	    (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf, sizeof(sndbuf)) &&
	     setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf)))) {
		perror("r2c2_udpflood: socket");
		return 2;
	}
	pkt = calloc(1, sizeof(*ip) + sizeof(*udp) + len);
	seq = calloc(flows, sizeof(*seq));
	if (!pkt || !seq)
		return 2;
	ip = (struct iphdr *)pkt;
	udp = (struct udphdr *)(ip + 1);
	ip->version = 4;
	ip->ihl = 5;
	ip->ttl = 64;
	ip->protocol = IPPROTO_UDP;
	ip->saddr = src.s_addr;
	ip->daddr = dst.s_addr;
	ip->tot_len = htons((uint16_t)(sizeof(*ip) + sizeof(*udp) + len));
	udp->dest = htons((uint16_t)dport);
	udp->len = htons((uint16_t)(sizeof(*udp) + len));
	sa.sin_addr = dst;

	start = now_s();
	for (;;) {
		t = now_s() - start;
		if (t >= secs || (count && tries >= count))
			break;
		if (pps && tries >= t * pps) {
			struct timespec ts = { 0, 200000 };

			nanosleep(&ts, NULL);
			continue;
		}
		tries++;
		udp->source = htons((uint16_t)(sport + i));
		*(uint32_t *)(udp + 1) = htonl(seq[i]);
		if (sendto(fd, pkt, sizeof(*ip) + sizeof(*udp) + len, 0,
			   (struct sockaddr *)&sa, sizeof(sa)) < 0) {
			if (errno == ENOBUFS) {
				drops++;
				if (++i == flows)
					i = 0;
				continue;
			}
			if (errno == EINTR)
				continue;
			perror("r2c2_udpflood: sendto");
			return 2;
		}
		seq[i]++;
		if (++i == flows)
			i = 0;
		packets++;
		bytes += sizeof(*ip) + sizeof(*udp) + len;
	}
	t = now_s() - start;
	printf("packets %llu bytes %llu drops %llu seconds %.3f pps %.0f\n",
	       packets, bytes, drops, t, packets / t);
	close(fd);
	free(pkt);
	free(seq);
	return 0;
}
