// SPDX-License-Identifier: GPL-2.0
/*
 * reseq_blast - send R2C2 data frames of one flow, with consecutive
 * sequence numbers, as fast as they go, for bench/reseq_cost.sh.
 *
 *   reseq_blast -i IFNAME -m DSTMAC -s SRC -d DST -r PORT [-f FLOW]
 *               [-p PAYLOAD] [-b BATCH] [-T SECONDS]
 *
 * Every frame is a valid one-hop data frame (rlen = 1, ridx = 1, as the
 * sending node leaves it) from node SRC to node DST, routed RPS
 * (rproto 0) so that the receiver puts it through its reorder buffer,
 * flow FLOW (default 0x5e9), payload ethertype 0x88b6 (no stack takes
 * it: the receiver's r2c0 drops it after delivery). Sequence numbers
 * start at 0 and grow by one per frame sent, never reordered: frames are
 * sent BATCH (default 32) at a time with sendmmsg(), each batch numbered
 * before the call; a partial send resumes at the first frame not sent,
 * so no number is skipped.
 *
 * Runs until SIGTERM/SIGINT or SECONDS (0 = no limit, the default); then
 * prints "sent N" on stdout. Exit status: 0, 1 on a usage error, 2 on a
 * system error.
 *
 * Build: cc -O2 -I include -I include/uapi -o bench/reseq_blast bench/reseq_blast.c
 */
#define _GNU_SOURCE
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "../selftests/tools/r2c2_raw.h"

#define PROG "reseq_blast"
#define MAX_BATCH	256

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: reseq_blast -i IFNAME -m DSTMAC -s SRC -d DST -r PORT [-f FLOW]\n"
		"                   [-p PAYLOAD] [-b BATCH] [-T SECONDS]\n");
	exit(1);
}

static unsigned char frames[MAX_BATCH][ETH_FRAME_LEN];

int main(int argc, char **argv)
{
	unsigned int src = ~0u, dst = ~0u, port = ~0u, plen = 64, batch = 32;
	unsigned long secs = 0, sent = 0;
	u32 flow = 0x5e9, seq = 0;
	const char *ifname = NULL;
	struct mmsghdr msgs[MAX_BATCH];
	struct iovec iov[MAX_BATCH];
	struct sockaddr_ll sll;
	unsigned char dmac[6], smac[6];
	unsigned int i, have_mac = 0, done;
	struct timespec t0, t;
	size_t len = 0;
	int fd, opt, one = 1, bufsz = 4 << 20;

	while ((opt = getopt(argc, argv, "i:m:s:d:r:f:p:b:T:h")) != -1) {
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
		case 'f': flow = (u32)raw_num(PROG, optarg, 0xffffffffUL); break;
		case 'p': plen = (unsigned int)raw_num(PROG, optarg, 1400); break;
		case 'b': batch = (unsigned int)raw_num(PROG, optarg, MAX_BATCH); break;
		case 'T': secs = raw_num(PROG, optarg, 86400); break;
		default: usage();
		}
	}
	if (!ifname || !have_mac || src == ~0u || dst == ~0u || port == ~0u ||
	    !batch || optind != argc)
		usage();

	fd = raw_open(PROG, ifname, dmac, &sll, smac);
	for (i = 0; i < batch; i++) {
		len = raw_data_frame(frames[i], dmac, smac, (u16)src, (u16)dst,
				     (u8)port, flow, (u16)plen);
		iov[i].iov_base = frames[i];
		iov[i].iov_len = len;
	}
	if (setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one)))
		perror(PROG ": PACKET_QDISC_BYPASS (ignored)");
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bufsz, sizeof(bufsz));
	memset(msgs, 0, sizeof(msgs));
	for (i = 0; i < batch; i++) {
		msgs[i].msg_hdr.msg_name = &sll;
		msgs[i].msg_hdr.msg_namelen = sizeof(sll);
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	clock_gettime(CLOCK_MONOTONIC, &t0);

	while (!stop) {
		/* number the batch: frame i carries seq + i */
		for (i = 0; i < batch; i++) {
			struct r2c2_data_hdr *h =
				(struct r2c2_data_hdr *)(frames[i] + ETH_HLEN);

			h->seq = htonl(seq + i);
			h->csum = 0;
			h->csum = (__sum16)r2c2_data_csum(h);
		}
		done = 0;
		while (done < batch && !stop) {
			int r = sendmmsg(fd, msgs + done, batch - done, 0);

			if (r < 0) {
				if (errno == EINTR || errno == ENOBUFS ||
				    errno == EAGAIN)
					continue;
				perror(PROG ": sendmmsg");
				return 2;
			}
			done += (unsigned int)r;
		}
		seq += done;
		sent += done;
		if (secs) {
			clock_gettime(CLOCK_MONOTONIC, &t);
			if ((unsigned long)(t.tv_sec - t0.tv_sec) >= secs)
				break;
		}
	}
	printf("sent %lu\n", sent);
	return 0;
}
