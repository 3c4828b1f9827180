// SPDX-License-Identifier: GPL-2.0
/*
 * r2c2_inject - send hand-made R2C2 data frames on an interface with an
 * AF_PACKET socket, to test how nodes treat good and malformed frames.
 *
 *   r2c2_inject -i IFNAME [options]
 *     -m MAC     Ethernet destination (default ff:ff:ff:ff:ff:ff)
 *     -s ADDR    source node (default 0xfffe)
 *     -d ADDR    destination node (default 0)
 *     -r PORTS   route, comma-separated hop ports (default: empty)
 *     -l RLEN    rlen field (default: number of hops in -r)
 *     -x RIDX    ridx field (default 0)
 *     -p PLEN    payload bytes (default 46)
 *     -e TYPE    payload ethertype (default 0x88b6, which no stack takes)
 *     -b BYTE    byte 0 (version << 4 | type; default 0x11, data v1)
 *     -f FLOW    flow identifier (default 0x1c7a2c2)
 *     -q SEQ     sequence number (default 0)
 *     -c         corrupt the header checksum
 *     -T LEN     send only the first LEN bytes after the Ethernet header
 *     -n COUNT   frames to send (default 1)
 *     -t         IFNAME is a tap device (created if missing): the frames
 *                are written into it, so that the node owning it as a
 *                port receives them as from a wire (default destination
 *                MAC: the tap's own)
 *     -V KIND    with -t, prefix each frame with a virtio net header the
 *                tap applies: "gso" (a TCPv4 GSO packet of 100-byte
 *                segments, checksum partial) or "csum" (checksum partial
 *                only), as a VM's NIC or a vhost backend could hand over
 *
 * Built with the uapi and wire headers of this repository:
 *   cc -I include -I include/uapi -o r2c2_inject selftests/tools/r2c2_inject.c
 * Exit status: 0 when every frame was sent, 1 on a usage error, 2 on a
 * system error.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_tun.h>
#include <linux/virtio_net.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netpacket/packet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "r2c2_raw.h"

static void usage(void)
{
	fprintf(stderr,
		"usage: r2c2_inject -i IFNAME [-m MAC] [-s SRC] [-d DST] [-r P,P,..]\n"
		"       [-l RLEN] [-x RIDX] [-p PLEN] [-e TYPE] [-b BYTE0] [-f FLOW]\n"
		"       [-q SEQ] [-c]\n"
		"       [-T LEN] [-n COUNT] [-t [-V gso|csum]]\n");
	exit(1);
}

static unsigned long num(const char *s, unsigned long max)
{
	return raw_num("r2c2_inject", s, max);
}

/* attach to tap IFNAME (created if missing) with virtio net headers */
static int tap_open(const char *ifname)
{
	struct ifreq ifr = { 0 };
	int fd = open("/dev/net/tun", O_RDWR);

	if (fd < 0) {
		perror("r2c2_inject: /dev/net/tun");
		exit(2);
	}
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI | IFF_VNET_HDR;
	if (ioctl(fd, TUNSETIFF, &ifr) < 0) {
		perror("r2c2_inject: TUNSETIFF");
		exit(2);
	}
	return fd;
}

static void parse_mac(const char *s, unsigned char *mac)
{
	if (raw_mac(s, mac)) {
		fprintf(stderr, "r2c2_inject: bad MAC '%s'\n", s);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	unsigned char frame[ETH_FRAME_LEN + 64 + sizeof(struct virtio_net_hdr)] = { 0 };
	unsigned char mac[6];
	unsigned char dmac[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	unsigned int src = 0xfffe, dst = 0, plen = 46, etype = 0x88b6;
	unsigned int byte0 = R2C2_VERSION << 4 | R2C2_T_DATA;
	unsigned int nhops = 0, rlen = ~0u, ridx = 0, count = 1, trunc = ~0u;
	unsigned int flow = 0x1c7a2c2, seq = 0;
	u8 hops[R2C2_MAX_HOPS];
	struct r2c2_data_hdr *h = (void *)(frame + ETH_HLEN);
	struct sockaddr_ll sll = { 0 };
	const char *ifname = NULL;
	int corrupt = 0, tap = 0, opt, fd, tfd;
	struct virtio_net_hdr vh = { 0 };
	const char *vkind = NULL;
	int have_dmac = 0;
	size_t len;
	struct ifreq ifr;
	char *tok;

	while ((opt = getopt(argc, argv, "i:m:s:d:r:l:x:p:e:b:f:q:cT:n:tV:h")) != -1) {
		switch (opt) {
		case 'i': ifname = optarg; break;
		case 'm': parse_mac(optarg, dmac); have_dmac = 1; break;
		case 's': src = num(optarg, 0xffff); break;
		case 'd': dst = num(optarg, 0xffff); break;
		case 'r':
			for (tok = strtok(optarg, ","); tok; tok = strtok(NULL, ",")) {
				if (nhops == R2C2_MAX_HOPS)
					usage();
				hops[nhops++] = (u8)num(tok, 7);
			}
			break;
		case 'l': rlen = num(optarg, 255); break;
		case 'x': ridx = num(optarg, 255); break;
		case 'p': plen = num(optarg, ETH_DATA_LEN - R2C2_DATA_HLEN); break;
		case 'e': etype = num(optarg, 0xffff); break;
		case 'b': byte0 = num(optarg, 255); break;
		case 'f': flow = num(optarg, 0xffffffff); break;
		case 'q': seq = num(optarg, 0xffffffff); break;
		case 'c': corrupt = 1; break;
		case 'T': trunc = num(optarg, ETH_DATA_LEN); break;
		case 'n': count = num(optarg, 10000000); break;
		case 't': tap = 1; break;
		case 'V': vkind = optarg; break;
		default: usage();
		}
	}
	if (!ifname || optind != argc || (vkind && !tap))
		usage();
	if (vkind && strcmp(vkind, "gso") && strcmp(vkind, "csum"))
		usage();
	/* the tap exists (and has its MAC) once attached */
	tfd = tap ? tap_open(ifname) : -1;

	fd = socket(AF_PACKET, SOCK_RAW, htons(R2C2_ETH_P));
	if (fd < 0) {
		perror("r2c2_inject: socket");
		return 2;
	}
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0) {
		perror("r2c2_inject: SIOCGIFHWADDR");
		return 2;
	}
	memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	if (tap) {
		/* from a made-up neighbour to the tap's own MAC */
		if (!have_dmac)
			memcpy(dmac, mac, 6);
		memcpy(mac, (unsigned char[6]){ 0x02, 0, 0, 0, 0, 0xfe }, 6);
	}

	memcpy(frame, dmac, 6);
	memcpy(frame + 6, mac, 6);
	frame[12] = R2C2_ETH_P >> 8;
	frame[13] = R2C2_ETH_P & 0xff;
	h->ver_type = (u8)byte0;
	h->rlen = (u8)(rlen == ~0u ? nhops : rlen);
	h->ridx = (u8)ridx;
	h->rproto = R2C2_RP_RPS;
	h->flow = htonl(flow);
	h->src = htons((u16)src);
	h->dst = htons((u16)dst);
	h->seq = htonl(seq);
	h->plen = htons((u16)plen);
	h->proto = htons((u16)etype);
	r2c2_route_pack(h->route, hops, nhops);
	h->csum = (__sum16)r2c2_data_csum(h);
	if (corrupt)
		h->csum = (__sum16)(h->csum ^ 0x5a5a);
	len = ETH_HLEN + R2C2_DATA_HLEN + plen;
	if (trunc != ~0u)
		len = ETH_HLEN + trunc;

	if (tap) {
		if (vkind) {
			/* a TCPv4 header after a 20-byte IPv4 one, checksum
			 * left to the device: what virtio_net_hdr_to_skb()
			 * accepts
			 */
			vh.flags = VIRTIO_NET_HDR_F_NEEDS_CSUM;
			vh.csum_start = ETH_HLEN + R2C2_DATA_HLEN + 20;
			vh.csum_offset = 16;
			vh.hdr_len = vh.csum_start + 20;
			if (!strcmp(vkind, "gso")) {
				vh.gso_type = VIRTIO_NET_HDR_GSO_TCPV4;
				vh.gso_size = 100;
			}
			if (len < vh.hdr_len + (vh.gso_size ? vh.gso_size + 1u : 0u)) {
				fprintf(stderr, "r2c2_inject: -V %s needs -p %u or more\n",
					vkind, vh.hdr_len + vh.gso_size + 1u -
					ETH_HLEN - R2C2_DATA_HLEN);
				return 1;
			}
		}
		memmove(frame + sizeof(vh), frame, len);
		memcpy(frame, &vh, sizeof(vh));
		while (count--) {
			if (write(tfd, frame, len + sizeof(vh)) !=
			    (ssize_t)(len + sizeof(vh))) {
				perror("r2c2_inject: write to tap");
				return 2;
			}
		}
		close(tfd);
		close(fd);
		return 0;
	}

	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(R2C2_ETH_P);
	sll.sll_ifindex = (int)if_nametoindex(ifname);
	sll.sll_halen = 6;
	memcpy(sll.sll_addr, dmac, 6);
	while (count--) {
		if (sendto(fd, frame, len, 0, (struct sockaddr *)&sll,
			   sizeof(sll)) != (ssize_t)len) {
			perror("r2c2_inject: sendto");
			return 2;
		}
	}
	close(fd);
	return 0;
}
