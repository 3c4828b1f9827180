/* SPDX-License-Identifier: GPL-2.0 */
/*
 * r2c2_raw.h - what the AF_PACKET senders of hand-made R2C2 data frames
 * share (selftests/tools/r2c2_rsqflood.c, bench/reseq_blast.c): number
 * and MAC arguments, the packet socket, and a valid one-hop data frame.
 * Header-only: each tool is one .c file built with a plain cc line.
 */
#ifndef R2C2_RAW_H
#define R2C2_RAW_H

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

#include <r2c2/wire.h>

/* payload ethertype of the frames: no stack takes it */
#define R2C2_RAW_PROTO	0x88b6

/**
 * raw_num() - a number argument, or exit(1) naming it
 * @prog: the tool's name, for the message
 * @s: the argument (decimal, 0x hex or 0 octal)
 * @max: the largest value accepted
 */
static inline unsigned long raw_num(const char *prog, const char *s,
				    unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || end == s || v > max) {
		fprintf(stderr, "%s: bad number '%s' (max %lu)\n", prog, s, max);
		exit(1);
	}
	return v;
}

/**
 * raw_mac() - parse "aa:bb:cc:dd:ee:ff"
 * @s: the text
 * @mac: the 6 bytes
 *
 * Return: 0, or -1 when @s is not a MAC address.
 */
static inline int raw_mac(const char *s, unsigned char *mac)
{
	unsigned int b[6];
	int i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4],
		   &b[5]) != 6)
		return -1;
	for (i = 0; i < 6; i++)
		mac[i] = (unsigned char)b[i];
	return 0;
}

/**
 * raw_open() - a packet socket that sends on @ifname, or exit(2)
 * @prog: the tool's name, for messages
 * @ifname: the interface
 * @dmac: destination MAC, put into @sll
 * @sll: filled: the address to sendto() R2C2 frames on @ifname
 * @smac: filled: @ifname's MAC
 *
 * Protocol 0: the socket never receives.
 *
 * Return: the socket.
 */
static inline int raw_open(const char *prog, const char *ifname,
			   const unsigned char *dmac, struct sockaddr_ll *sll,
			   unsigned char *smac)
{
	struct ifreq ifr;
	int fd = socket(AF_PACKET, SOCK_RAW, 0);

	if (fd < 0) {
		fprintf(stderr, "%s: socket: %s\n", prog, strerror(errno));
		exit(2);
	}
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0) {
		fprintf(stderr, "%s: SIOCGIFHWADDR: %s\n", prog, strerror(errno));
		exit(2);
	}
	memcpy(smac, ifr.ifr_hwaddr.sa_data, 6);
	if (ioctl(fd, SIOCGIFINDEX, &ifr) < 0) {
		fprintf(stderr, "%s: SIOCGIFINDEX: %s\n", prog, strerror(errno));
		exit(2);
	}
	memset(sll, 0, sizeof(*sll));
	sll->sll_family = AF_PACKET;
	sll->sll_protocol = htons(R2C2_ETH_P);
	sll->sll_ifindex = ifr.ifr_ifindex;
	sll->sll_halen = 6;
	memcpy(sll->sll_addr, dmac, 6);
	return fd;
}

/**
 * raw_data_frame() - a valid one-hop data frame, sequence number and
 *	checksum left to the caller
 * @f: the frame (at least ETH_HLEN + R2C2_DATA_HLEN + @plen bytes)
 * @dmac: destination MAC
 * @smac: source MAC
 * @src: source node
 * @dst: destination node
 * @port: the one hop's output port
 * @flow: flow id
 * @plen: payload length (its bytes are left as they are)
 *
 * rlen = ridx = 1, as the sending node leaves it; routed RPS (so the
 * receiver resequences it); payload ethertype R2C2_RAW_PROTO.
 *
 * Return: the frame's length.
 */
static inline size_t raw_data_frame(unsigned char *f, const unsigned char *dmac,
				    const unsigned char *smac, u16 src, u16 dst,
				    u8 port, u32 flow, u16 plen)
{
	struct r2c2_data_hdr *h = (struct r2c2_data_hdr *)(f + ETH_HLEN);

	memcpy(f, dmac, 6);
	memcpy(f + 6, smac, 6);
	f[12] = R2C2_ETH_P >> 8;
	f[13] = R2C2_ETH_P & 0xff;
	h->ver_type = r2c2_ver_type(R2C2_T_DATA);
	h->rlen = 1;
	h->ridx = 1;
	h->rproto = R2C2_RP_RPS;
	h->flow = htonl(flow);
	h->src = htons(src);
	h->dst = htons(dst);
	h->plen = htons(plen);
	h->proto = htons(R2C2_RAW_PROTO);
	r2c2_route_pack(h->route, &port, 1);
	return ETH_HLEN + R2C2_DATA_HLEN + plen;
}

#endif /* R2C2_RAW_H */
