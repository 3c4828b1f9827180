// SPDX-License-Identifier: GPL-2.0
/*
 * fwd.c - receive path of the ports: dispatch by frame type, forwarding
 * of source-routed data frames and delivery through r2c0.
 */
#include <linux/if_arp.h>
#include <linux/if_vlan.h>
#include <linux/icmpv6.h>
#include <linux/ipv6.h>
#include <net/ipv6.h>
#include <net/ndisc.h>

#include "r2c2.h"
#include "events.h"

/*
 * Whether @addr is another node that can be reached from here (no frame
 * of ours comes back to us from the fabric). Context: RCU read side.
 */
static bool r2c2_node_reachable(struct r2c2_node *node, u16 addr)
{
	const struct r2c2_tables *t = rcu_dereference(node->tables);
	int i = t ? r2c2_tables_idx(t, addr) : -1;

	return addr != READ_ONCE(node->addr) && i >= 0 &&
	       t->me != R2C2_IDX_NONE &&
	       t->paths.dist[(size_t)i * t->n + t->me] != R2C2_DIST_INF;
}

/*
 * A link-layer address that an ARP or ND packet of node @src gives: its
 * own r2c0 MAC, or, as the target of an ICMPv6 redirect (@other), the
 * r2c0 MAC of a node we can reach.
 */
static bool r2c2_lladdr_claim_ok(struct r2c2_node *node, const u8 *mac,
				 u16 src, bool other)
{
	u16 addr = r2c2_mac_to_addr(mac);

	if (addr == R2C2_ADDR_NONE)
		return false;
	if (other)
		return r2c2_node_reachable(node, addr);
	return addr == src;
}

/* The link-layer address options of an ND message (from @off on). */
static bool r2c2_nd_ok(struct r2c2_node *node, const struct sk_buff *skb,
		       unsigned int off, unsigned int end, u8 type, u16 src)
{
	u8 opt[2 + ETH_ALEN];
	const u8 *o;

	while (off + 2 <= end) {
		o = skb_header_pointer(skb, off, sizeof(opt), opt);
		if (!o || !o[1])
			return true;	/* malformed: ndisc drops it */
		if ((o[0] == ND_OPT_SOURCE_LL_ADDR ||
		     o[0] == ND_OPT_TARGET_LL_ADDR) &&
		    !r2c2_lladdr_claim_ok(node, o + 2, src,
					  type == NDISC_REDIRECT &&
					  o[0] == ND_OPT_TARGET_LL_ADDR))
			return false;
		off += o[1] * 8;
	}
	return true;
}

/* What r2c2_lladdr_find() found. */
enum r2c2_lladdr_kind {
	R2C2_LL_NONE,		/* neither ARP nor ND */
	R2C2_LL_REFUSE,		/* more VLAN tags than it looks behind */
	R2C2_LL_ARP,		/* ARP at *off */
	R2C2_LL_ND,		/* ND message of type *type at *off, ending at *end */
};

/*
 * Find an ARP or ND packet in an Ethernet payload of ethertype @proto
 * that starts at *@off of @skb: behind up to R2C2_LLADDR_VLANS VLAN tags,
 * which would take it to a VLAN device over r2c0, and an ND message
 * behind IPv6 extension headers, which ndisc_rcv() accepts as well. A
 * packet cut short before it says what it holds is none (the stack drops
 * it). Context: any.
 */
static enum r2c2_lladdr_kind r2c2_lladdr_find(const struct sk_buff *skb,
					      __be16 proto, unsigned int *off,
					      unsigned int *end, u8 *type)
{
	const struct vlan_hdr *vh;
	struct vlan_hdr vbuf;
	struct ipv6hdr ibuf;
	const struct ipv6hdr *ip6;
	unsigned int tags;
	__be16 frag;
	u8 tbuf, nexthdr;
	const u8 *t;
	int noff;

	for (tags = 0; eth_type_vlan(proto); tags++) {
		if (tags == R2C2_LLADDR_VLANS)
			return R2C2_LL_REFUSE;
		vh = skb_header_pointer(skb, *off, sizeof(vbuf), &vbuf);
		if (!vh)
			return R2C2_LL_NONE;	/* cut short */
		proto = vh->h_vlan_encapsulated_proto;
		*off += VLAN_HLEN;
	}
	if (proto == htons(ETH_P_ARP))
		return R2C2_LL_ARP;
	if (proto != htons(ETH_P_IPV6))
		return R2C2_LL_NONE;
	ip6 = skb_header_pointer(skb, *off, sizeof(ibuf), &ibuf);
	if (!ip6)
		return R2C2_LL_NONE;
	*end = min_t(unsigned int, skb->len,
		     *off + sizeof(*ip6) + ntohs(ip6->payload_len));
	nexthdr = ip6->nexthdr;
	noff = ipv6_skip_exthdr(skb, *off + sizeof(*ip6), &nexthdr, &frag);
	/* not ICMPv6, or a fragment (ND is never fragmented: RFC 6980) */
	if (noff < 0 || nexthdr != IPPROTO_ICMPV6 || frag)
		return R2C2_LL_NONE;
	t = skb_header_pointer(skb, noff, 1, &tbuf);
	if (!t)
		return R2C2_LL_NONE;
	switch (*t) {
	case NDISC_ROUTER_SOLICITATION:
	case NDISC_ROUTER_ADVERTISEMENT:
	case NDISC_NEIGHBOUR_SOLICITATION:
	case NDISC_NEIGHBOUR_ADVERTISEMENT:
	case NDISC_REDIRECT:
		*type = *t;
		*off = noff;
		return R2C2_LL_ND;
	default:
		return R2C2_LL_NONE;
	}
}

/**
 * r2c2_lladdr_frame() - whether an Ethernet payload holds ARP or ND
 * @skb: the frame
 * @off: where the payload starts (behind the Ethernet or R2C2 header)
 * @proto: its ethertype
 *
 * These are what r2c2_lladdr_ok() checks, and what a rack key
 * authenticates end to end in a data frame (auth.c).
 *
 * Context: any.
 * Return: true for ARP, ND, and a frame with more VLAN tags than
 * r2c2_lladdr_ok() looks behind (which it refuses).
 */
bool r2c2_lladdr_frame(const struct sk_buff *skb, unsigned int off,
		       __be16 proto)
{
	unsigned int end;
	u8 type;

	return r2c2_lladdr_find(skb, proto, &off, &end, &type) != R2C2_LL_NONE;
}

/**
 * r2c2_lladdr_ok() - whether a frame of the fabric may reach r2c0's
 *	neighbour tables
 * @node: the node
 * @skb: the frame, at its Ethernet header
 * @src: the node it comes from (the R2C2 header's source)
 *
 * ARP and IPv6 neighbour discovery tell r2c0 at which MAC an IP address
 * is; r2c0 can send only to the r2c0 MAC of a node it can reach. A frame
 * of node @src may give no MAC but @src's own (an ICMPv6 redirect's
 * target: any other node we can reach), and only while @src is another
 * node we can reach.
 * Otherwise a forged ARP or ND packet, of an address no node has or
 * with a MAC that is none, leaves an IP address of the rack pointing at
 * a MAC r2c0 cannot send to (drop_no_route) until the neighbour entry
 * times out, long after the forger has gone. Other frames pass. The
 * packet is found by r2c2_lladdr_find(); a frame with more VLAN tags
 * than it looks behind is refused.
 *
 * Context: RCU read side; @skb->len >= ETH_HLEN.
 * Return: true when the frame may be handed to r2c0.
 */
bool r2c2_lladdr_ok(struct r2c2_node *node, const struct sk_buff *skb, u16 src)
{
	struct {
		struct arphdr h;
		u8 sha[ETH_ALEN];
	} __packed abuf;
	const typeof(abuf) *a;
	unsigned int off = ETH_HLEN, end = 0, fixed;
	u8 type = 0;

	switch (r2c2_lladdr_find(skb, ((const struct ethhdr *)skb->data)->h_proto,
				 &off, &end, &type)) {
	case R2C2_LL_NONE:
		return true;
	case R2C2_LL_REFUSE:
		return false;
	case R2C2_LL_ARP:
		a = skb_header_pointer(skb, off, sizeof(abuf), &abuf);
		if (!a || a->h.ar_hln != ETH_ALEN)
			return true;	/* arp_rcv() drops it */
		return r2c2_node_reachable(node, src) &&
		       r2c2_lladdr_claim_ok(node, a->sha, src, false);
	case R2C2_LL_ND:
		break;
	}
	switch (type) {
	case NDISC_ROUTER_SOLICITATION:
		fixed = 8;
		break;
	case NDISC_ROUTER_ADVERTISEMENT:
		fixed = 16;
		break;
	case NDISC_REDIRECT:
		fixed = 40;
		break;
	default:	/* neighbour solicitation and advertisement */
		fixed = 24;
		break;
	}
	return r2c2_node_reachable(node, src) &&
	       r2c2_nd_ok(node, skb, off + fixed, end, type, src);
}

/**
 * r2c2_deliver_eth() - hand an Ethernet frame to the stack through r2c0
 * @node: the node
 * @skb: the frame, starting at its Ethernet header; consumed
 *
 * The frame is queued to r2c0's NAPI context on this CPU, which runs GRO
 * over what a softirq delivered: a burst of one TCP connection's
 * segments goes up the stack as one packet. A cloned frame, or one on an
 * r2c0 with GRO off, goes to the backlog as netif_rx() queues it.
 *
 * The frame is orphaned first. It may still be charged to the sending
 * socket (veth keeps the owner; the sender can be a namespace on this
 * host), and not always in the same way: netem, for one, turns a TCP
 * segment's send-memory charge into a plain socket reference. GRO moves
 * a merged frame's truesize to the packet it joins, which is released
 * by that packet's destructor alone: segments owned in different ways
 * would leave the sender's send memory wrong, charged for good or
 * released twice.
 *
 * Context: softirq, or BH disabled.
 */
void r2c2_deliver_eth(struct r2c2_node *node, struct sk_buff *skb)
{
	struct net_device *dev = READ_ONCE(node->dev);
	struct r2c2_dev_priv *priv;

	if (!dev || !(dev->flags & IFF_UP) || skb->len < ETH_HLEN) {
		r2c2_drop(node, R2C2_S_DROP_NO_NODE, NULL, skb);
		return;
	}
	/* checksums were computed by the sender's stack, nothing to trust */
	skb->ip_summed = CHECKSUM_NONE;
	skb_clear_tstamp(skb);
	skb->protocol = eth_type_trans(skb, dev);
	skb_orphan(skb);
	dev_sw_netstats_rx_add(dev, skb->len + ETH_HLEN);
	priv = netdev_priv(dev);
	gro_cells_receive(&priv->gro, skb);
}

static void r2c2_data_deliver(struct r2c2_port *port, struct sk_buff *skb)
{
	struct r2c2_node *node = port->node;
	const struct r2c2_data_hdr *h = (void *)skb->data;
	struct net_device *dev = READ_ONCE(node->dev);
	unsigned int plen = ntohs(h->plen);
	u16 src = ntohs(h->src);
	u32 flow = ntohl(h->flow), seq = ntohl(h->seq);
	u8 rproto = h->rproto;
	__be16 proto = h->proto;
	enum r2c2_stat why;
	struct ethhdr *eth;

	if (skb->len < R2C2_DATA_HLEN + plen) {
		r2c2_drop(node, R2C2_S_DROP_TRUNCATED, port, skb);
		return;
	}
	if (!dev) {
		r2c2_drop(node, R2C2_S_DROP_NO_NODE, port, skb);
		return;
	}
	/* with a rack key: ARP and ND only as their source signed them */
	if (unlikely(r2c2_auth_on(node)) &&
	    r2c2_lladdr_frame(skb, R2C2_DATA_HLEN, proto)) {
		why = r2c2_auth_data_rcv(node, skb);
		if (why != R2C2_S_UNSPEC) {
			r2c2_drop(node, why, port, skb);
			return;
		}
	}
	skb_pull(skb, R2C2_DATA_HLEN);
	if (pskb_trim(skb, plen) || skb_cow_head(skb, ETH_HLEN)) {
		r2c2_drop(node, R2C2_S_DROP_NOMEM, port, skb);
		return;
	}
	eth = skb_push(skb, ETH_HLEN);
	ether_addr_copy(eth->h_dest, dev->dev_addr);
	r2c2_addr_to_mac(src, eth->h_source);
	eth->h_proto = proto;
	r2c2_stat_add(node, port, R2C2_S_DELIVERED, 1);
	if (!r2c2_lladdr_ok(node, skb, src)) {
		r2c2_drop(node, R2C2_S_DROP_LLADDR, NULL, skb);
		return;
	}
	r2c2_reseq_rcv(node, skb, src, flow, seq, rproto);
}

/* A source-routed data frame: deliver it, or forward it one hop. */
static void r2c2_rcv_data(struct r2c2_port *port, struct sk_buff *skb)
{
	struct r2c2_node *node = port->node;
	struct r2c2_data_hdr *h;
	struct r2c2_port *out;
	struct r2c2_nbr *nbr;
	u8 num;

	if (!pskb_may_pull(skb, R2C2_DATA_HLEN)) {
		r2c2_drop(node, R2C2_S_DROP_TRUNCATED, port, skb);
		return;
	}
	h = (struct r2c2_data_hdr *)skb->data;
	/* every node, not only the destination, drops a frame cut short */
	if (skb->len < R2C2_DATA_HLEN + ntohs(h->plen)) {
		r2c2_drop(node, R2C2_S_DROP_TRUNCATED, port, skb);
		return;
	}
	if (r2c2_data_csum(h) != (__force u16)h->csum) {
		r2c2_drop(node, R2C2_S_DROP_CSUM, port, skb);
		return;
	}
	if (h->rlen > R2C2_MAX_HOPS) {
		r2c2_drop(node, R2C2_S_DROP_RLEN, port, skb);
		return;
	}
	if (h->ridx > h->rlen) {
		r2c2_drop(node, R2C2_S_DROP_RIDX, port, skb);
		return;
	}
	/*
	 * The route is authoritative: a frame is delivered where its route
	 * ends. A VLB route may pass through its destination on the way to
	 * the intermediate node; it goes on and comes back, as the link
	 * weights of common/paths.c count it.
	 */
	if (h->ridx == h->rlen) {
		if (ntohs(h->dst) == READ_ONCE(node->addr))
			r2c2_data_deliver(port, skb);
		else
			r2c2_drop(node, R2C2_S_DROP_LOOP, port, skb);
		return;
	}
	num = r2c2_route_get(h->route, h->ridx);
	out = rcu_dereference(node->ports[num]);
	if (!out) {
		r2c2_drop(node, R2C2_S_DROP_NO_PORT, port, skb);
		return;
	}
	nbr = rcu_dereference(out->nbr);
	if (!nbr || !READ_ONCE(out->up)) {
		r2c2_drop(node, R2C2_S_DROP_PORT_DOWN, port, skb);
		return;
	}
	if (skb_ensure_writable(skb, R2C2_DATA_HLEN)) {
		r2c2_drop(node, R2C2_S_DROP_NOMEM, port, skb);
		return;
	}
	h = (struct r2c2_data_hdr *)skb->data;
	h->ridx++;		/* not covered by the checksum */
	r2c2_stat_add(node, out, R2C2_S_FORWARDED, 1);
	r2c2_port_xmit(out, skb, nbr->mac);
}

/*
 * The receive path of each frame type: the data plane's own, and HELLO
 * and LSA, which the topology (topo.c) registers at module init.
 */
static r2c2_rx_handler r2c2_rx_handlers[__R2C2_T_MAX] __ro_after_init = {
	[R2C2_T_DATA] = r2c2_rcv_data,
	[R2C2_T_BCAST_ETH] = r2c2_rcv_bcast,
	[R2C2_T_FLOW] = r2c2_rcv_bcast,
	[R2C2_T_ROUTES] = r2c2_rcv_bcast,
};

/**
 * r2c2_rx_handler_set() - take the frames of a type to a handler
 * @type: a frame type the data plane does not handle itself
 * @handler: called in softirq, RCU read side, with the frame (version
 *	checked, authenticated with a rack key); consumes it
 *
 * Context: module init, before any port exists.
 */
void r2c2_rx_handler_set(u8 type, r2c2_rx_handler handler)
{
	if (!WARN_ON_ONCE(type >= __R2C2_T_MAX || r2c2_rx_handlers[type]))
		r2c2_rx_handlers[type] = handler;
}

/**
 * r2c2_rcv() - packet_type handler of a port
 * @skb: a frame of our ethertype received on the port's netdev
 * @dev: the netdev
 * @pt: the port's packet_type
 * @orig_dev: the original netdev
 *
 * Context: softirq, RCU read side.
 * Return: NET_RX_SUCCESS or NET_RX_DROP.
 */
int r2c2_rcv(struct sk_buff *skb, struct net_device *dev,
	     struct packet_type *pt, struct net_device *orig_dev)
{
	struct r2c2_port *port = container_of(pt, struct r2c2_port, pt);
	struct r2c2_node *node = port->node;
	r2c2_rx_handler handler = NULL;
	enum r2c2_stat why;
	u8 vt;

	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb) {
		r2c2_drop(node, R2C2_S_DROP_NOMEM, port, NULL);
		return NET_RX_DROP;
	}
	if (skb->pkt_type == PACKET_OTHERHOST ||
	    skb->pkt_type == PACKET_LOOPBACK ||
	    skb->pkt_type == PACKET_OUTGOING) {
		kfree_skb(skb);
		return NET_RX_DROP;
	}
	r2c2_stat_add(node, port, R2C2_S_RX_PACKETS, 1);
	r2c2_stat_add(node, port, R2C2_S_RX_BYTES, skb->len);
	/*
	 * r2c2 sends every frame whole and checksummed (r2c0 offers no
	 * offloads). A GSO or CHECKSUM_PARTIAL frame comes from a tap or
	 * packet socket with a virtio net header: delivered, the stack
	 * would get a GSO packet without a partial checksum; forwarded, a
	 * port without TSO would be asked to segment an unknown ethertype.
	 */
	if (skb_is_gso(skb) || skb->ip_summed == CHECKSUM_PARTIAL) {
		r2c2_drop(node, R2C2_S_DROP_OFFLOAD, port, skb);
		return NET_RX_DROP;
	}
	if (!READ_ONCE(node->active)) {
		r2c2_drop(node, R2C2_S_DROP_NO_NODE, port, skb);
		return NET_RX_DROP;
	}
	if (!pskb_may_pull(skb, 1)) {
		r2c2_drop(node, R2C2_S_DROP_TRUNCATED, port, skb);
		return NET_RX_DROP;
	}
	vt = skb->data[0];
	if (r2c2_hdr_version(vt) == R2C2_VERSION &&
	    r2c2_hdr_type(vt) < __R2C2_T_MAX)
		handler = r2c2_rx_handlers[r2c2_hdr_type(vt)];
	if (!handler) {
		r2c2_drop(node, R2C2_S_DROP_VERSION, port, skb);
		return NET_RX_DROP;
	}
	/* with a rack key: HELLO, LSA, BCAST_ETH, FLOW, ROUTES checked and
	 * trimmed
	 */
	if (unlikely(r2c2_auth_on(node))) {
		why = r2c2_auth_rcv(port, skb);
		if (why != R2C2_S_UNSPEC) {
			r2c2_drop(node, why, port, skb);
			return NET_RX_DROP;
		}
	}
	handler(port, skb);
	return NET_RX_SUCCESS;
}
