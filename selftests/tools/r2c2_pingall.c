// SPDX-License-Identifier: GPL-2.0
/*
 * r2c2_pingall - ICMP echo to many addresses from one process, for the
 * all-pairs reachability checks of the selftests (one `ping` per pair
 * costs hundreds of process starts, which is minutes under TCG).
 *
 *   r2c2_pingall [-6] [-W MS] [-c TRIES] [-q] ADDR...
 *     -6        IPv6 (ICMPv6); default IPv4
 *     -W MS     wait for the replies of one round this long (default 2000)
 *     -c TRIES  rounds, 1..15; each sends one echo request to every
 *               address that has not answered yet (default 2: the first
 *               requests may be spent on ARP or neighbour discovery)
 *     -q        print only the addresses that never answered
 *
 * Prints "ADDR ok TRY RTT_MS" or "ADDR timeout" a line. A reply counts
 * when it is an echo reply with our identifier, the sequence number of a
 * request to that address and that address as its source. Needs a raw
 * socket (root or CAP_NET_RAW).
 * Exit status: 0 every address answered, 1 some did not, 2 usage or
 * system error.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/icmp6.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define WHO	"r2c2_pingall"
#define MAX_DST	4096

#ifndef ICMP_FILTER
#define ICMP_FILTER	1	/* <linux/icmp.h>, which clashes with <netinet/ip_icmp.h> */
#endif

struct dst {
	union {
		struct sockaddr_in v4;
		struct sockaddr_in6 v6;
	} sa;
	const char *name;
	int ok;			/* try that answered, 0: none yet */
	int err;		/* errno of the last failed send */
	double sent_ms, rtt_ms;
};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static uint16_t csum(const void *p, size_t len)
{
	const uint8_t *b = p;
	uint32_t s = 0;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		s += (uint32_t)b[i] << 8 | b[i + 1];
	if (len & 1)
		s += (uint32_t)b[len - 1] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return htons((uint16_t)~s);
}

static int usage(void)
{
	fputs("usage: r2c2_pingall [-6] [-W MS] [-c TRIES] [-q] ADDR...\n", stderr);
	return 2;
}

int main(int argc, char **argv)
{
	static struct dst d[MAX_DST];
	int v6 = 0, quiet = 0, tries = 2, wait_ms = 2000, opt, fd, n, i, t;
	int missing, ret = 0;
	uint16_t id = (uint16_t)getpid();

	while ((opt = getopt(argc, argv, "6W:c:qh")) != -1) {
		switch (opt) {
		case '6': v6 = 1; break;
		case 'W': wait_ms = atoi(optarg); break;
		case 'c': tries = atoi(optarg); break;
		case 'q': quiet = 1; break;
		default: return usage();
		}
	}
	n = argc - optind;
	if (n <= 0 || n > MAX_DST || tries < 1 || tries > 15 || wait_ms < 1)
		return usage();
	for (i = 0; i < n; i++) {
		d[i].name = argv[optind + i];
		if (v6) {
			d[i].sa.v6.sin6_family = AF_INET6;
			if (inet_pton(AF_INET6, d[i].name, &d[i].sa.v6.sin6_addr) != 1)
				return fprintf(stderr, "%s: bad IPv6 address %s\n", WHO, d[i].name), 2;
		} else {
			d[i].sa.v4.sin_family = AF_INET;
			if (inet_pton(AF_INET, d[i].name, &d[i].sa.v4.sin_addr) != 1)
				return fprintf(stderr, "%s: bad IPv4 address %s\n", WHO, d[i].name), 2;
		}
	}

	fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_RAW | SOCK_CLOEXEC,
		    v6 ? IPPROTO_ICMPV6 : IPPROTO_ICMP);
	if (fd < 0) {
		perror(WHO ": raw socket");
		return 2;
	}
	if (v6) {
		struct icmp6_filter f;

		ICMP6_FILTER_SETBLOCKALL(&f);
		ICMP6_FILTER_SETPASS(ICMP6_ECHO_REPLY, &f);
		setsockopt(fd, IPPROTO_ICMPV6, ICMP6_FILTER, &f, sizeof(f));
	} else {
		uint32_t mask = ~(1u << ICMP_ECHOREPLY);

		setsockopt(fd, SOL_RAW, ICMP_FILTER, &mask, sizeof(mask));
	}

	for (t = 1; t <= tries; t++) {
		double deadline;

		for (i = 0; i < n; i++) {
			uint8_t pkt[64] = { 0 };
			struct icmphdr *h = (void *)pkt;
			uint16_t seq = (uint16_t)(t * MAX_DST + i);

			if (d[i].ok)
				continue;
			h->type = v6 ? ICMP6_ECHO_REQUEST : ICMP_ECHO;
			h->un.echo.id = htons(id);
			h->un.echo.sequence = htons(seq);
			memcpy(pkt + 8, "r2c2-pingall", 12);
			if (!v6)
				h->checksum = csum(pkt, sizeof(pkt));
			d[i].sent_ms = now_ms();
			/* a failed send is a round without an answer */
			if (sendto(fd, pkt, sizeof(pkt), 0, (struct sockaddr *)&d[i].sa,
				   v6 ? sizeof(d[i].sa.v6) : sizeof(d[i].sa.v4)) < 0)
				d[i].err = errno;
		}
		deadline = now_ms() + wait_ms;
		for (;;) {
			struct pollfd pfd = { .fd = fd, .events = POLLIN };
			union {
				struct sockaddr_in v4;
				struct sockaddr_in6 v6;
			} from;
			socklen_t flen = sizeof(from);
			uint8_t buf[1500];
			const struct icmphdr *h;
			double left = deadline - now_ms();
			ssize_t len;
			size_t off = 0;
			uint16_t seq;

			for (missing = 0, i = 0; i < n; i++)
				missing += !d[i].ok;
			if (!missing || left <= 0)
				break;
			if (poll(&pfd, 1, (int)left + 1) <= 0)
				continue;
			len = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &flen);
			if (len < 0)
				continue;
			if (!v6) {	/* raw IPv4 sockets see the IP header */
				const struct iphdr *ip = (const void *)buf;

				if ((size_t)len < sizeof(*ip))
					continue;
				off = ip->ihl * 4u;
			}
			if ((size_t)len < off + 8)
				continue;
			h = (const void *)(buf + off);
			if (h->type != (v6 ? ICMP6_ECHO_REPLY : ICMP_ECHOREPLY) ||
			    ntohs(h->un.echo.id) != id)
				continue;
			seq = ntohs(h->un.echo.sequence);
			i = seq % MAX_DST;
			if (seq / MAX_DST < 1 || seq / MAX_DST > t || i >= n || d[i].ok)
				continue;
			if (v6 ? memcmp(&from.v6.sin6_addr, &d[i].sa.v6.sin6_addr, 16) :
			    from.v4.sin_addr.s_addr != d[i].sa.v4.sin_addr.s_addr)
				continue;
			d[i].ok = seq / MAX_DST;
			d[i].rtt_ms = now_ms() - d[i].sent_ms;
		}
		if (!missing)
			break;
	}
	for (i = 0; i < n; i++) {
		if (!d[i].ok) {
			if (d[i].err)
				printf("%s timeout (send: %s)\n", d[i].name,
				       strerror(d[i].err));
			else
				printf("%s timeout\n", d[i].name);
			ret = 1;
		} else if (!quiet) {
			printf("%s ok %d %.3f\n", d[i].name, d[i].ok, d[i].rtt_ms);
		}
	}
	close(fd);
	return ret;
}
