// SPDX-License-Identifier: GPL-2.0
/*
 * r2c2_udpsink - receive UDP on a port and measure each source port's
 * rate, for sch_r2c2 tests and benchmarks (timestamps taken in-process,
 * so the window is exact).
 *
 *   r2c2_udpsink [-p PORT] [-w SECS] [-t SECS]
 *     -p PORT    UDP port to receive on (default 9)
 *     -w SECS    warm-up after the first packet, not measured (default 1)
 *     -t SECS    measuring window (default 3)
 *
 * Prints one line per source port seen in the window:
 *   "sport P packets N bytes B frame_bps R sent_bps S lost L"
 * where R counts each packet as its Ethernet frame (payload + 42 bytes
 * of Ethernet, IPv4 and UDP headers), the length tc and sch_r2c2 count.
 * With r2c2_udpflood's sequence numbers (the payload's first 4 bytes),
 * S is the same rate over the packets the sender's qdisc let through in
 * the window, lost ones included (last - first sequence + 1), and L the
 * packets lost on the way: S measures the rate limiter, R the delivery.
 * Exit status: 0, 1 on a usage error, 2 on a system error or when no
 * packet arrived within 10 s.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define FRAME_OVERHEAD	42

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned long long pkts[65536], bytes[65536];
static uint32_t seq0[65536], seq1[65536];

int main(int argc, char **argv)
{
	double warm = 1, win = 3, first = 0, start = 0, t;
	struct sockaddr_in sa = { .sin_family = AF_INET }, from;
	int fd, opt, rcvbuf = 32 << 20, port = 9;
	static char buf[65536];
	socklen_t fl;
	ssize_t n;
	char *end;
	int i;

	while ((opt = getopt(argc, argv, "p:w:t:")) != -1) {
		switch (opt) {
		case 'p':
			port = (int)strtol(optarg, &end, 0);
			if (*end || port <= 0 || port > 65535)
				goto usage;
			break;
		case 'w':
			warm = strtod(optarg, &end);
			if (*end || warm < 0)
				goto usage;
			break;
		case 't':
			win = strtod(optarg, &end);
			if (*end || win <= 0)
				goto usage;
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc)
		goto usage;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	sa.sin_port = htons((unsigned short)port);
	if (fd < 0 ||
	    (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)) &&
	     setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf))) ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		perror("r2c2_udpsink");
		return 2;
	}
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };

		if (poll(&pfd, 1, first ? 1000 : 10000) <= 0 && !first) {
			fputs("r2c2_udpsink: no packet within 10 s\n", stderr);
			return 2;
		}
		t = now_s();
		if (first && t >= start + win)
			break;
		if (!(pfd.revents & POLLIN))
			continue;
		fl = sizeof(from);
		n = recvfrom(fd, buf, sizeof(buf), MSG_DONTWAIT,
			     (struct sockaddr *)&from, &fl);
		if (n < 0)
			continue;
		t = now_s();
		if (!first) {
			first = t;
			start = t + warm;
		}
		if (t < start)
			continue;
		if (t >= start + win)
			break;
		i = ntohs(from.sin_port);
		if (n >= 4) {
			uint32_t sq = ntohl(*(uint32_t *)buf);

			if (!pkts[i])
				seq0[i] = sq;
			seq1[i] = sq;
		}
		pkts[i]++;
		bytes[i] += (unsigned long long)n;
	}
	for (i = 0; i < 65536; i++) {
		unsigned long long span;

		if (!pkts[i])
			continue;
		span = (unsigned long long)(seq1[i] - seq0[i]) + 1;
		if (span < pkts[i])	/* not r2c2_udpflood's numbering */
			span = pkts[i];
		printf("sport %d packets %llu bytes %llu frame_bps %.0f sent_bps %.0f lost %llu\n",
		       i, pkts[i], bytes[i],
		       (bytes[i] + FRAME_OVERHEAD * pkts[i]) * 8 / win,
		       (double)(bytes[i] / pkts[i] + FRAME_OVERHEAD) * span * 8 / win,
		       span - pkts[i]);
	}
	return 0;

usage:
	fputs("usage: r2c2_udpsink [-p PORT] [-w SECS] [-t SECS]\n", stderr);
	return 1;
}
