/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wire.h - encode and decode of the R2C2 headers, shared by the kernel
 * and userspace. The layouts themselves are in <linux/r2c2.h>.
 */
#ifndef _R2C2_WIRE_H
#define _R2C2_WIRE_H

#include "compat.h"
#include <linux/r2c2.h>

/**
 * r2c2_ver_type() - byte 0 of a header for a frame type
 * @type: enum r2c2_pkt_type
 *
 * Return: R2C2_VERSION in the high nibble, @type in the low nibble.
 */
static inline u8 r2c2_ver_type(u8 type)
{
	return (u8)(R2C2_VERSION << 4 | (type & 0xf));
}

/**
 * r2c2_hdr_version() - protocol version of a header's byte 0
 * @ver_type: byte 0 of a data or control header
 *
 * Return: the version (high nibble).
 */
static inline u8 r2c2_hdr_version(u8 ver_type)
{
	return ver_type >> 4;
}

/**
 * r2c2_hdr_type() - frame type of a header's byte 0
 * @ver_type: byte 0 of a data or control header
 *
 * Return: the type (low nibble), enum r2c2_pkt_type.
 */
static inline u8 r2c2_hdr_type(u8 ver_type)
{
	return ver_type & 0xf;
}

/**
 * r2c2_route_get() - output port of hop @i of a packed route
 * @route: R2C2_ROUTE_BYTES bytes, hop i in bits 3i..3i+2 (little endian)
 * @i: hop index, 0..R2C2_MAX_HOPS-1
 *
 * Return: the port number, 0..7.
 */
static inline u8 r2c2_route_get(const u8 *route, unsigned int i)
{
	unsigned int bit = 3 * i, byte = bit / 8, shift = bit % 8;
	unsigned int v = route[byte];

	if (shift > 5 && byte + 1 < R2C2_ROUTE_BYTES)
		v |= (unsigned int)route[byte + 1] << 8;
	return (v >> shift) & 7;
}

/**
 * r2c2_route_set() - store the output port of hop @i in a packed route
 * @route: R2C2_ROUTE_BYTES bytes
 * @i: hop index, 0..R2C2_MAX_HOPS-1
 * @port: port number, 0..7
 */
static inline void r2c2_route_set(u8 *route, unsigned int i, u8 port)
{
	unsigned int bit = 3 * i, byte = bit / 8, shift = bit % 8;
	unsigned int mask = 7u << shift, v = (unsigned int)(port & 7) << shift;

	route[byte] = (u8)((route[byte] & ~mask) | (v & 0xff));
	if (shift > 5 && byte + 1 < R2C2_ROUTE_BYTES)
		route[byte + 1] = (u8)((route[byte + 1] & ~(mask >> 8)) | (v >> 8));
}

/**
 * r2c2_route_pack() - pack an array of hop ports into a route field
 * @route: R2C2_ROUTE_BYTES bytes, overwritten
 * @hops: one port a hop
 * @n: number of hops, at most R2C2_MAX_HOPS
 */
static inline void r2c2_route_pack(u8 *route, const u8 *hops, unsigned int n)
{
	unsigned int i;

	memset(route, 0, R2C2_ROUTE_BYTES);
	for (i = 0; i < n && i < R2C2_MAX_HOPS; i++)
		r2c2_route_set(route, i, hops[i]);
}

/**
 * r2c2_flow_digest() - one flow's part of an R2C2_FE_DIGEST
 * @flow: flow identifier
 * @dst: destination node
 * @weight: allocation weight
 * @prio: priority level
 * @rproto: routing protocol
 * @demand_kbps: demand, R2C2_DEMAND_UNLIMITED for none
 *
 * A digest is the sum, modulo 2^32, of this over a source's flows: the
 * order of the flows does not matter, and a node can keep it as flows come
 * and go. Every field a flow event carries is mixed in (SplitMix64's
 * finaliser), so a lost START, FINISH, UPDATE or ROUTES shows.
 *
 * Return: the flow's 32-bit term.
 */
static inline u32 r2c2_flow_digest(u32 flow, u16 dst, u8 weight, u8 prio,
				   u8 rproto, u32 demand_kbps)
{
	u64 h = (u64)flow << 32 | (u32)dst << 16 | (u32)weight << 8 |
		(u32)(prio & 0xf) << 4 | (rproto & 0x3);

	h ^= (u64)(demand_kbps & R2C2_DEMAND_UNLIMITED) * 0x9e3779b97f4a7c15ull;
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebull;
	h ^= h >> 31;
	return (u32)h;
}

/**
 * r2c2_csum_add() - add bytes to a 32-bit ones-complement accumulator
 * @sum: accumulator
 * @buf: bytes, read as big-endian 16-bit words
 * @len: number of bytes (an odd last byte is padded with zero)
 *
 * Return: the new accumulator.
 */
static inline u32 r2c2_csum_add(u32 sum, const u8 *buf, unsigned int len)
{
	unsigned int i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (u32)buf[i] << 8 | buf[i + 1];
	if (len & 1)
		sum += (u32)buf[len - 1] << 8;
	return sum;
}

/**
 * r2c2_csum_fold() - fold an accumulator into an Internet checksum
 * @sum: accumulator from r2c2_csum_add()
 *
 * Return: the ones complement of the folded sum, in host order.
 */
static inline u16 r2c2_csum_fold(u32 sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (u16)~sum;
}

/**
 * r2c2_data_csum() - checksum of a data header
 * @h: the header; its @ridx and @csum are taken as zero
 *
 * Return: the value to store in @h->csum (network order, as __sum16 bits).
 */
static inline u16 r2c2_data_csum(const struct r2c2_data_hdr *h)
{
	const u8 *b = (const u8 *)h;
	u32 sum;

	sum = r2c2_csum_add(0, b, 2);			/* ver_type, rlen */
	sum += b[3];					/* ridx = 0, rproto */
	sum = r2c2_csum_add(sum, b + 4, 16);		/* flow .. proto */
	sum = r2c2_csum_add(sum, b + 22, R2C2_DATA_HLEN - 22);
	return r2c2_htons(r2c2_csum_fold(sum));
}

/**
 * r2c2_ctl_csum() - checksum of a control header and its body
 * @h: the header; its @csum is taken as zero
 * @body: bytes covered after the header
 * @len: number of bytes of @body
 *
 * Return: the value to store in @h->csum (network order, as __sum16 bits).
 */
static inline u16 r2c2_ctl_csum(const struct r2c2_ctl_hdr *h,
				const void *body, unsigned int len)
{
	u32 sum = r2c2_csum_add(0, (const u8 *)h, 6);

	sum = r2c2_csum_add(sum, (const u8 *)body, len);
	return r2c2_htons(r2c2_csum_fold(sum));
}

/**
 * r2c2_addr_to_mac() - MAC address of a node's soft interface
 * @addr: node address
 * @mac: 6 bytes, written: 02:52:32:43:hi:lo
 */
static inline void r2c2_addr_to_mac(u16 addr, u8 *mac)
{
	mac[0] = R2C2_MAC_B0;
	mac[1] = R2C2_MAC_B1;
	mac[2] = R2C2_MAC_B2;
	mac[3] = R2C2_MAC_B3;
	mac[4] = addr >> 8;
	mac[5] = addr & 0xff;
}

/**
 * r2c2_mac_to_addr() - node address behind a soft interface MAC
 * @mac: 6 bytes
 *
 * Return: the node address, or R2C2_ADDR_NONE if @mac is not an r2c0 MAC.
 */
static inline u16 r2c2_mac_to_addr(const u8 *mac)
{
	u16 addr;

	if (mac[0] != R2C2_MAC_B0 || mac[1] != R2C2_MAC_B1 ||
	    mac[2] != R2C2_MAC_B2 || mac[3] != R2C2_MAC_B3)
		return R2C2_ADDR_NONE;
	addr = (u16)(mac[4] << 8 | mac[5]);
	return addr;
}

/**
 * r2c2_topo_hash() - hash of a declared torus, carried in hellos
 * @dims: radix of each dimension
 * @ndims: number of dimensions (0 = none declared)
 *
 * Return: 0 when @ndims is 0, else a non-zero FNV-1a hash.
 */
static inline u32 r2c2_topo_hash(const u8 *dims, unsigned int ndims)
{
	u32 h = 2166136261u;
	unsigned int i;

	if (!ndims)
		return 0;
	for (i = 0; i < ndims; i++) {
		h ^= dims[i];
		h *= 16777619u;
	}
	return h ? h : 1;
}

#endif /* _R2C2_WIRE_H */
