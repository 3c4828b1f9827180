// SPDX-License-Identifier: GPL-2.0
/*
 * pktblast - send pre-built Ethernet frames with AF_PACKET sockets as fast
 * as they go, for the forwarding benchmark (bench/forward.sh). Two kinds
 * of frame:
 *
 *   r2c2  a valid R2C2 data frame (ethertype 0x88B5) with a source route,
 *         as a node's r2c0 would send it: the sender takes hop 0 itself,
 *         so the frame leaves with ridx = 1 (see Documentation/wire-format.md)
 *   ipv4  Ethernet + IPv4 + UDP (UDP checksum 0, IP header checksum valid)
 *
 * The payload size is the same notion for both: bytes after the
 * forwarding protocol's own headers (R2C2: the 40-byte data header;
 * IPv4: the IP and UDP headers).
 *
 *   pktblast [-T SECONDS] [-n COUNT] [-b BATCH] -- STREAM [-- STREAM ...]
 *   STREAM:  [-N NETNS] -i IFNAME -m DSTMAC -t r2c2|ipv4 [-p PAYLOAD]
 *            r2c2: -s SRC -d DST -r P,P,.. [-x RIDX]  (node addresses, route)
 *            ipv4: -S SRCIP -D DSTIP
 *
 * Several streams are sent in turn, one sendmmsg() of BATCH frames each,
 * round after round, and the time of each call is recorded. With veth
 * and no RPS the whole path of a frame -- transmit, and every receive and
 * forward it triggers -- runs in NET_RX softirq when the sender
 * re-enables BHs, inside that call; so a call's time is the CPU cost of
 * the whole path of its frames, measured side by side with the other
 * streams: slow drifts of the machine hit every stream alike. A stream's
 * cost is the median over its calls of the time a frame: a call during
 * which the CPU was taken away (an interrupt, another task, or under TCG
 * the host descheduling the vCPU thread) is an outlier the median
 * ignores; the mean is printed too.
 *
 * -N: the stream's socket is opened in network namespace NETNS
 * (/run/netns/NETNS). -T: stop after SECONDS (default 10), -n: after
 * COUNT rounds (0 = no limit); SIGTERM and SIGINT stop it too. -b: frames
 * a call (default 32). Sockets bypass the qdisc layer
 * (PACKET_QDISC_BYPASS; veth has noqueue anyway) and never receive
 * (protocol 0). On exit, one line per stream and a total, on stdout:
 *   stream K sent N busy_s S ns_per_frame MEDIAN mean_ns MEAN p10_ns P10 p90_ns P90
 *   total sent N seconds S pps R
 * Exit status: 0, 1 on a usage error, 2 on a system error.
 *
 * Build: cc -O2 -I include -I include/uapi -o bench/pktblast bench/pktblast.c
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <netpacket/packet.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../selftests/tools/r2c2_raw.h"

#define MAX_BATCH	256
#define MAX_STREAMS	16
#define MAX_CALLS	(1 << 20)	/* per-call samples kept per stream */

struct stream {
	int fd;
	unsigned char frame[ETH_FRAME_LEN];
	size_t len;
	struct sockaddr_ll sll;
	struct iovec iov;
	struct mmsghdr msgs[MAX_BATCH];
	unsigned long sent;
	double busy;
	float *per_frame;	/* ns a frame, one sample per call */
	unsigned int ncalls;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: pktblast [-T SECONDS] [-n COUNT] [-b BATCH] -- STREAM [-- STREAM ...]\n"
		"  STREAM: [-N NETNS] -i IFNAME -m DSTMAC -t r2c2|ipv4 [-p PAYLOAD]\n"
		"          r2c2: -s SRC -d DST -r P,P,.. [-x RIDX]\n"
		"          ipv4: -S SRCIP -D DSTIP\n");
	exit(1);
}

static unsigned long num(const char *s, unsigned long max)
{
	return raw_num("pktblast", s, max);
}

static void parse_mac(const char *s, unsigned char *mac)
{
	if (raw_mac(s, mac)) {
		fprintf(stderr, "pktblast: bad MAC '%s'\n", s);
		exit(1);
	}
}

static void parse_ip(const char *s, struct in_addr *a)
{
	if (inet_pton(AF_INET, s, a) != 1) {
		fprintf(stderr, "pktblast: bad IPv4 address '%s'\n", s);
		exit(1);
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Internet checksum of an IPv4 header (network order result) */
static uint16_t ip_csum(const void *hdr, unsigned int len)
{
	return htons(r2c2_csum_fold(r2c2_csum_add(0, hdr, len)));
}

static size_t build_r2c2(unsigned char *l3, unsigned int src, unsigned int dst,
			 const u8 *hops, unsigned int nhops, unsigned int ridx,
			 unsigned int plen)
{
	struct r2c2_data_hdr *h = (struct r2c2_data_hdr *)l3;

	h->ver_type = r2c2_ver_type(R2C2_T_DATA);
	h->rlen = (u8)nhops;
	h->ridx = (u8)ridx;
	h->rproto = R2C2_RP_RPS;
	h->flow = htonl(0xb1a57);
	h->src = htons((u16)src);
	h->dst = htons((u16)dst);
	h->seq = htonl(0);
	h->plen = htons((u16)plen);
	h->proto = htons(0x88b6);	/* no stack takes it */
	r2c2_route_pack(h->route, hops, nhops);
	h->csum = (__sum16)r2c2_data_csum(h);
	return R2C2_DATA_HLEN + plen;
}

static size_t build_ipv4(unsigned char *l3, struct in_addr saddr,
			 struct in_addr daddr, unsigned int plen)
{
	struct iphdr *ip = (struct iphdr *)l3;
	struct udphdr *udp = (struct udphdr *)(ip + 1);
	size_t len = sizeof(*ip) + sizeof(*udp) + plen;

	ip->version = 4;
	ip->ihl = 5;
	ip->ttl = 64;
	ip->protocol = IPPROTO_UDP;
	ip->tot_len = htons((uint16_t)len);
	ip->id = htons(1);
	ip->frag_off = htons(IP_DF);
	ip->saddr = saddr.s_addr;
	ip->daddr = daddr.s_addr;
	ip->check = 0;
	ip->check = ip_csum(ip, sizeof(*ip));
	udp->source = htons(9);
	udp->dest = htons(9);		/* discard */
	udp->len = htons((uint16_t)(sizeof(*udp) + plen));
	udp->check = 0;			/* none (allowed for IPv4) */
	return len;
}

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x > y) - (x < y);
}

/* the q-quantile of the sorted samples */
static double quantile(const float *v, unsigned int n, double q)
{
	return n ? v[(unsigned int)(q * (n - 1) + 0.5)] : 0;
}

static void enter_netns(const char *name)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWNET) < 0) {
		fprintf(stderr, "pktblast: netns %s: %s\n", name, strerror(errno));
		exit(2);
	}
	close(fd);
}

/* parse one stream's options (argv[0] is a placeholder) and open it */
static void stream_open(struct stream *st, int argc, char **argv,
			unsigned int batch, int home)
{
	unsigned int src = ~0u, dst = ~0u, ridx = 1, plen = 64, nhops = 0, i;
	int have_sip = 0, have_dip = 0, have_mac = 0, one = 1, opt;
	int bufsz = 4 << 20;
	struct in_addr sip = { 0 }, dip = { 0 };
	const char *ifname = NULL, *type = NULL, *ns = NULL;
	unsigned char dmac[6];
	u8 hops[R2C2_MAX_HOPS];
	unsigned short etype;
	struct ifreq ifr;
	char *tok;

	optind = 0;	/* glibc: restart getopt on a new vector */
	while ((opt = getopt(argc, argv, "+N:i:m:t:p:s:d:r:x:S:D:")) != -1) {
		switch (opt) {
		case 'N': ns = optarg; break;
		case 'i': ifname = optarg; break;
		case 'm': parse_mac(optarg, dmac); have_mac = 1; break;
		case 't': type = optarg; break;
		case 'p': plen = (unsigned int)num(optarg, 1400 + 60); break;
		case 's': src = (unsigned int)num(optarg, 0xfffe); break;
		case 'd': dst = (unsigned int)num(optarg, 0xfffe); break;
		case 'r':
			for (tok = strtok(optarg, ","); tok; tok = strtok(NULL, ",")) {
				if (nhops == R2C2_MAX_HOPS)
					usage();
				hops[nhops++] = (u8)num(tok, R2C2_MAX_PORTS - 1);
			}
			break;
		case 'x': ridx = (unsigned int)num(optarg, R2C2_MAX_HOPS); break;
		case 'S': parse_ip(optarg, &sip); have_sip = 1; break;
		case 'D': parse_ip(optarg, &dip); have_dip = 1; break;
		default: usage();
		}
	}
	if (!ifname || !type || !have_mac || optind != argc)
		usage();

	if (ns)
		enter_netns(ns);
	/* protocol 0: this socket never receives, so it adds no packet_type */
	st->fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (st->fd < 0) {
		perror("pktblast: socket");
		exit(2);
	}
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(st->fd, SIOCGIFHWADDR, &ifr) < 0) {
		perror("pktblast: SIOCGIFHWADDR");
		exit(2);
	}
	memcpy(st->frame, dmac, 6);
	memcpy(st->frame + 6, ifr.ifr_hwaddr.sa_data, 6);
	if (!strcmp(type, "r2c2")) {
		if (src == ~0u || dst == ~0u || !nhops || ridx > nhops)
			usage();
		etype = R2C2_ETH_P;
		st->len = build_r2c2(st->frame + ETH_HLEN, src, dst, hops, nhops,
				     ridx, plen);
	} else if (!strcmp(type, "ipv4")) {
		if (!have_sip || !have_dip)
			usage();
		etype = ETH_P_IP;
		st->len = build_ipv4(st->frame + ETH_HLEN, sip, dip, plen);
	} else {
		usage();
	}
	st->frame[12] = etype >> 8;
	st->frame[13] = etype & 0xff;
	st->len += ETH_HLEN;
	if (st->len > sizeof(st->frame)) {
		fprintf(stderr, "pktblast: frame of %zu bytes is too long\n", st->len);
		exit(1);
	}
	if (setsockopt(st->fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one)))
		perror("pktblast: PACKET_QDISC_BYPASS (ignored)");
	setsockopt(st->fd, SOL_SOCKET, SO_SNDBUF, &bufsz, sizeof(bufsz));
	st->sll.sll_family = AF_PACKET;
	st->sll.sll_protocol = htons(etype);
	if (ioctl(st->fd, SIOCGIFINDEX, &ifr) < 0) {
		perror("pktblast: SIOCGIFINDEX");
		exit(2);
	}
	st->sll.sll_ifindex = ifr.ifr_ifindex;
	st->sll.sll_halen = 6;
	memcpy(st->sll.sll_addr, dmac, 6);
	st->per_frame = calloc(MAX_CALLS, sizeof(*st->per_frame));
	if (!st->per_frame) {
		perror("pktblast: calloc");
		exit(2);
	}
	st->iov.iov_base = st->frame;
	st->iov.iov_len = st->len;
	for (i = 0; i < batch; i++) {
		st->msgs[i].msg_hdr.msg_name = &st->sll;
		st->msgs[i].msg_hdr.msg_namelen = sizeof(st->sll);
		st->msgs[i].msg_hdr.msg_iov = &st->iov;
		st->msgs[i].msg_hdr.msg_iovlen = 1;
	}
	if (ns && setns(home, CLONE_NEWNET) < 0) {
		perror("pktblast: setns back");
		exit(2);
	}
}

int main(int argc, char **argv)
{
	static struct stream streams[MAX_STREAMS];
	unsigned int batch = 32, nst = 0, i;
	unsigned long count = 0, rounds = 0, total = 0;
	double secs = 10, t0, t1, a, b;
	int opt, first, home;

	while ((opt = getopt(argc, argv, "+T:n:b:h")) != -1) {
		switch (opt) {
		case 'T': secs = (double)num(optarg, 86400); break;
		case 'n': count = num(optarg, ~0ul); break;
		case 'b': batch = (unsigned int)num(optarg, MAX_BATCH); break;
		default: usage();
		}
	}
	if (!batch || optind >= argc)
		usage();
	home = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (home < 0) {
		perror("pktblast: /proc/self/ns/net");
		return 2;
	}
	/* streams follow "--", separated by "--": each "--" is its argv[0] */
	first = optind - 1;
	if (strcmp(argv[first], "--"))
		usage();
	while (first < argc) {
		int end = first + 1;
		char *save;

		while (end < argc && strcmp(argv[end], "--"))
			end++;
		if (nst == MAX_STREAMS)
			usage();
		save = argv[first];
		argv[first] = argv[0];
		stream_open(&streams[nst++], end - first, argv + first, batch,
			    home);
		argv[first] = save;
		first = end;	/* at "--": it serves as the next argv[0] */
	}
	close(home);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);

	t0 = now();
	t1 = t0;
	while (!stop && (!count || rounds < count) && t1 - t0 < secs) {
		for (i = 0; i < nst; i++) {
			struct stream *st = &streams[i];
			int r;

			a = now();
			r = sendmmsg(st->fd, st->msgs, batch, 0);
			b = now();
			if (r < 0) {
				if (errno == EINTR || errno == ENOBUFS ||
				    errno == EAGAIN)
					continue;	/* try again next round */
				perror("pktblast: sendmmsg");
				return 2;
			}
			st->sent += (unsigned long)r;
			st->busy += b - a;
			if (r > 0 && st->ncalls < MAX_CALLS)
				st->per_frame[st->ncalls++] = (float)((b - a) * 1e9 / r);
		}
		rounds++;
		t1 = now();
	}
	t1 = now();
	for (i = 0; i < nst; i++) {
		struct stream *st = &streams[i];

		qsort(st->per_frame, st->ncalls, sizeof(*st->per_frame),
		      cmp_float);
		printf("stream %u sent %lu busy_s %.4f ns_per_frame %.1f mean_ns %.1f p10_ns %.1f p90_ns %.1f\n",
		       i, st->sent, st->busy,
		       quantile(st->per_frame, st->ncalls, 0.5),
		       st->sent ? st->busy * 1e9 / st->sent : 0,
		       quantile(st->per_frame, st->ncalls, 0.1),
		       quantile(st->per_frame, st->ncalls, 0.9));
		total += st->sent;
	}
	printf("total sent %lu seconds %.3f pps %.0f\n", total, t1 - t0,
	       t1 > t0 ? (double)total / (t1 - t0) : 0.0);
	return 0;
}
