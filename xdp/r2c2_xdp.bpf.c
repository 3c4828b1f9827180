// SPDX-License-Identifier: GPL-2.0
/*
 * r2c2_xdp.bpf.c - transit forwarding of source-routed data frames in
 * XDP: the twin of r2c2_rcv_data() in kmod/fwd.c, for the frames whose
 * route goes on from here.
 *
 * A data frame that passes the same checks as in the kernel path, and
 * that arrives at a port for its own MAC and leaves by a port that is up
 * with a neighbour heard on it, has its route index bumped and its
 * Ethernet addresses rewritten, and is redirected to the egress netdev.
 * Everything else goes up unchanged (XDP_PASS): frames for this node,
 * control and broadcast frames, and every frame the kernel path drops,
 * which it then counts under the reason it always has. The program
 * therefore never drops a frame itself.
 *
 * The ports map is written by r2c2.ko alone (kmod/xdp.c): an entry says
 * what the kernel path would do with the port at this moment. The stats
 * map holds this program's share of the counters, which the module adds
 * to the port's and the node's.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include <r2c2/wire.h>
#include <r2c2/xdp.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, R2C2_MAX_PORTS);
	__type(key, __u32);
	__type(value, struct r2c2_xdp_port);
} r2c2_ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, R2C2_XDP_NSTATS);
	__type(key, __u32);
	__type(value, __u64);
} r2c2_xstats SEC(".maps");

/*
 * A load the compiler makes once, where it is written (the kernel's
 * READ_ONCE(); clang 14's BPF target has no atomic load)
 */
#define READ_ONCE(x)	(*(const volatile typeof(x) *)&(x))

static __always_inline void r2c2_count(__u32 port, __u32 stat, __u64 n)
{
	__u32 key = r2c2_xdp_stat_key(port, stat);
	__u64 *v = bpf_map_lookup_elem(&r2c2_xstats, &key);

	if (v)
		*v += n;
}

/*
 * A consistent copy of port @num's entry: false while the module is
 * rewriting it (seq odd, or changed across the copy).
 */
static __always_inline bool r2c2_port_read(__u32 num,
					   struct r2c2_xdp_port *out)
{
	struct r2c2_xdp_port *e = bpf_map_lookup_elem(&r2c2_ports, &num);
	__u32 seq;

	if (!e)
		return false;
	seq = READ_ONCE(e->seq);
	if (seq & 1)
		return false;
	__builtin_memcpy(out, e, sizeof(*out));
	asm volatile("" ::: "memory");
	return READ_ONCE(e->seq) == seq;
}

static __always_inline bool r2c2_mac_eq(const __u8 *a, const __u8 *b)
{
	return *(const __u32 *)a == *(const __u32 *)b &&
	       *(const __u16 *)(a + 4) == *(const __u16 *)(b + 4);
}

SEC("xdp")
int r2c2_xdp(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct r2c2_xdp_port in, out;
	__u8 route[24] = {};
	struct r2c2_data_hdr *h;
	struct ethhdr *eth = data;
	__u32 i, inum, onum, ridx, len;

	if (data + ETH_HLEN + R2C2_DATA_HLEN > end)
		return XDP_PASS;
	if (eth->h_proto != bpf_htons(R2C2_ETH_P))
		return XDP_PASS;
	h = data + ETH_HLEN;
	len = (__u32)(end - data) - ETH_HLEN;
	/* fwd.c's checks; what fails one is the kernel path's to drop */
	if (h->ver_type != r2c2_ver_type(R2C2_T_DATA))
		return XDP_PASS;
	if (len < R2C2_DATA_HLEN + bpf_ntohs(h->plen))
		return XDP_PASS;
	if (r2c2_data_csum(h) != (__force __u16)h->csum)
		return XDP_PASS;
	ridx = h->ridx;
	/* the route ends here (delivery), or is bad: the kernel path's */
	if (h->rlen > R2C2_MAX_HOPS || ridx >= h->rlen ||
	    ridx >= R2C2_MAX_HOPS)
		return XDP_PASS;

	/* the ingress port: its ifindex alone first, then its whole entry */
	inum = R2C2_MAX_PORTS;
	for (i = 0; i < R2C2_MAX_PORTS; i++) {
		__u32 key = i;	/* not i's own slot: the verifier follows i */
		struct r2c2_xdp_port *e = bpf_map_lookup_elem(&r2c2_ports, &key);

		if (e && READ_ONCE(e->ifindex) == ctx->ingress_ifindex) {
			inum = i;
			break;
		}
	}
	/* not a port, or a frame not for its MAC (the stack's OTHERHOST) */
	if (inum == R2C2_MAX_PORTS || !r2c2_port_read(inum, &in) ||
	    !(in.flags & R2C2_XDP_F_PORT) ||
	    in.ifindex != ctx->ingress_ifindex ||
	    !r2c2_mac_eq(eth->h_dest, in.mac))
		return XDP_PASS;

	/*
	 * A copy: the verifier takes no variable offset into the packet.
	 * Room for any index of 6 bits (byte 3 * 63 / 8 = 23), masked where
	 * it sees it: 6.1's verifier loses the bound checked above when the
	 * index is spilled to the stack.
	 */
	__builtin_memcpy(route, h->route, R2C2_ROUTE_BYTES);
	asm volatile("%0 &= 63" : "+r"(ridx));
	onum = r2c2_route_get(route, ridx);
	if (!r2c2_port_read(onum, &out) || !(out.flags & R2C2_XDP_F_FWD) ||
	    len > out.mtu)
		return XDP_PASS;
	/* a redirect the egress netdev cannot take would be lost */
	if (!(in.flags & R2C2_XDP_F_GENERIC) && !(out.flags & R2C2_XDP_F_XMIT))
		return XDP_PASS;

	h->ridx = (__u8)(ridx + 1);	/* not covered by the checksum */
	__builtin_memcpy(eth->h_dest, out.nbr_mac, ETH_ALEN);
	__builtin_memcpy(eth->h_source, out.mac, ETH_ALEN);
	r2c2_count(inum, R2C2_S_RX_PACKETS, 1);
	r2c2_count(inum, R2C2_S_RX_BYTES, len);
	r2c2_count(onum, R2C2_S_FORWARDED, 1);
	r2c2_count(onum, R2C2_S_TX_PACKETS, 1);
	r2c2_count(onum, R2C2_S_TX_BYTES, len + ETH_HLEN);
	return bpf_redirect(out.ifindex, 0);
}

char _license[] SEC("license") = "GPL";
