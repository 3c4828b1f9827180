/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * r2c2.h - R2C2 rack-scale network stack: wire format and netlink ABI.
 *
 * This is the one definition of everything the kernel (r2c2.ko,
 * sch_r2c2.ko) and userspace (r2c2d, r2c2ctl) must agree on: the frame
 * layouts on the fabric and the generic netlink family "r2c2".
 * Documentation/wire-format.rst and Documentation/netlink.rst describe
 * both byte by byte.
 */
#ifndef _UAPI_LINUX_R2C2_H
#define _UAPI_LINUX_R2C2_H

#include <linux/types.h>

/* ------------------------------------------------------------------ */
/* Wire format                                                         */
/* ------------------------------------------------------------------ */

/** R2C2_ETH_P - default ethertype (IEEE 802 local experimental 1) */
#define R2C2_ETH_P		0x88B5

/** R2C2_VERSION - protocol version carried in the high nibble of byte 0 */
#define R2C2_VERSION		1

/** R2C2_MAX_PORTS - ports a node has at most (3 bits a hop) */
#define R2C2_MAX_PORTS		8

/** R2C2_MAX_HOPS - hops a source route holds at most (3 * 42 <= 128) */
#define R2C2_MAX_HOPS		42

/** R2C2_ROUTE_BYTES - size of the packed route field */
#define R2C2_ROUTE_BYTES	16

/** R2C2_ADDR_NONE - no node; 0xffff is never a valid node address */
#define R2C2_ADDR_NONE		0xffff

/** R2C2_MAX_TREES - broadcast trees a source has at most */
#define R2C2_MAX_TREES		16

/** R2C2_MAC_OUI - first four bytes of an r2c0 MAC: 02:52:32:43 ("R2C") */
#define R2C2_MAC_B0		0x02
#define R2C2_MAC_B1		0x52
#define R2C2_MAC_B2		0x32
#define R2C2_MAC_B3		0x43

/**
 * enum r2c2_pkt_type - frame type, low nibble of byte 0 of every header
 * @R2C2_T_DATA: source-routed unicast data (struct r2c2_data_hdr)
 * @R2C2_T_HELLO: link-local neighbour hello (struct r2c2_ctl_hdr +
 *	struct r2c2_hello), never forwarded
 * @R2C2_T_LSA: link-state advertisement, flooded (struct r2c2_ctl_hdr +
 *	struct r2c2_lsa + entries)
 * @R2C2_T_BCAST_ETH: an Ethernet frame broadcast by r2c0 (ARP, ND, ...)
 *	over a broadcast tree (struct r2c2_ctl_hdr + the whole frame)
 * @R2C2_T_FLOW: flow event over a broadcast tree (struct r2c2_ctl_hdr +
 *	struct r2c2_flow_evt)
 * @R2C2_T_ROUTES: routing-protocol assignments over a broadcast tree
 *	(struct r2c2_ctl_hdr + struct r2c2_routes + entries)
 * @__R2C2_T_MAX: one past the last type
 */
enum r2c2_pkt_type {
	R2C2_T_DATA = 1,
	R2C2_T_HELLO = 2,
	R2C2_T_LSA = 3,
	R2C2_T_BCAST_ETH = 4,
	R2C2_T_FLOW = 5,
	R2C2_T_ROUTES = 6,
	__R2C2_T_MAX,
};

/**
 * enum r2c2_rproto - routing protocol of a flow
 * @R2C2_RP_RPS: random packet spraying, uniform over all minimal paths
 * @R2C2_RP_DOR: one minimal path: at each hop the lowest-numbered port
 *	that is on a minimal path (dimension order on a torus wired with
 *	port 2d = +d, 2d+1 = -d); where both ways of a dimension are
 *	minimal (offset k/2 of an even ring), the + way when the route is
 *	an odd number of hops long, else the - way
 * @R2C2_RP_VLB: Valiant: a uniformly random intermediate node, then
 *	RPS-minimal to it and RPS-minimal from it to the destination
 * @R2C2_RP_WLB: weighted load balancing on a torus (Singh, Dally, Towles
 *	and Gupta's RLB): along each dimension with offset D of radix k the
 *	+ way with probability (k - D) / k, else the - way; then an
 *	intermediate uniform over the box the chosen ways span, reached in
 *	dimension order and left in dimension order. Quadrants whose route
 *	would pass R2C2_MAX_HOPS are left out. On a graph that is not a
 *	whole torus, as RPS
 * @__R2C2_RP_MAX: number of protocols
 */
enum r2c2_rproto {
	R2C2_RP_RPS = 0,
	R2C2_RP_DOR = 1,
	R2C2_RP_VLB = 2,
	R2C2_RP_WLB = 3,
	__R2C2_RP_MAX,
};

/**
 * struct r2c2_data_hdr - header of a source-routed data frame (40 bytes)
 * @ver_type: R2C2_VERSION << 4 | R2C2_T_DATA
 * @rlen: number of hops in @route, 0..R2C2_MAX_HOPS
 * @ridx: index of the next hop to take: every node, the sender included,
 *	leaves by @route[@ridx] and increments @ridx, so a frame leaves its
 *	source with @ridx 1 and arrives with @ridx == @rlen
 * @rproto: routing protocol the sender used (enum r2c2_rproto)
 * @flow: flow identifier, unique per source node
 * @src: source node address
 * @dst: destination node address
 * @seq: per-flow sequence number, for resequencing at the receiver
 * @plen: payload length in bytes (the frame may be padded beyond it)
 * @proto: ethertype of the payload (the r2c0 frame's ethertype)
 * @csum: Internet checksum over the 40 header bytes computed with @ridx
 *	and @csum taken as zero, so forwarding does not change it
 * @resv: zero
 * @route: hop i's output port in bits 3i..3i+2 of the 128-bit
 *	little-endian number @route[0] | @route[1] << 8 | ...
 */
struct r2c2_data_hdr {
	__u8	ver_type;
	__u8	rlen;
	__u8	ridx;
	__u8	rproto;
	__be32	flow;
	__be16	src;
	__be16	dst;
	__be32	seq;
	__be16	plen;
	__be16	proto;
	__sum16	csum;
	__be16	resv;
	__u8	route[R2C2_ROUTE_BYTES];
} __attribute__((packed));

#define R2C2_DATA_HLEN	40

/**
 * struct r2c2_ctl_hdr - header of every control frame (8 bytes)
 * @ver_type: R2C2_VERSION << 4 | type (HELLO, LSA, BCAST_ETH, FLOW, ROUTES)
 * @tree: broadcast tree id chosen by the source (0 for HELLO and LSA)
 * @src: originating node address
 * @seq: per-source broadcast sequence number (duplicate suppression)
 * @csum: Internet checksum over this header (with @csum zero) and the
 *	type's fixed body; BCAST_ETH: over the header and the first 14 bytes
 *	of the frame; LSA and ROUTES: over header, body and all entries
 */
struct r2c2_ctl_hdr {
	__u8	ver_type;
	__u8	tree;
	__be16	src;
	__be16	seq;
	__sum16	csum;
} __attribute__((packed));

#define R2C2_CTL_HLEN	8

/**
 * struct r2c2_hello - body of a HELLO (8 bytes)
 * @port: the sender's port number the hello left by
 * @flags: R2C2_HELLO_F_*
 * @interval_ms: the sender's hello interval, for the neighbour's timeout
 * @topo_hash: hash of the sender's declared topology (0 = none declared)
 */
struct r2c2_hello {
	__u8	port;
	__u8	flags;
	__be16	interval_ms;
	__be32	topo_hash;
} __attribute__((packed));

#define R2C2_HELLO_LEN	8

/**
 * struct r2c2_lsa - body of a link-state advertisement (8 bytes)
 * @lsa_seq: sequence number of this node's LSA; a receiver keeps the
 *	newest (serial number arithmetic)
 * @count: number of struct r2c2_lsa_ent that follow, 0..R2C2_MAX_PORTS
 * @resv: zero
 * @max_age_s: seconds after which a receiver forgets this LSA unless
 *	refreshed
 */
struct r2c2_lsa {
	__be32	lsa_seq;
	__u8	count;
	__u8	resv;
	__be16	max_age_s;
} __attribute__((packed));

/**
 * struct r2c2_lsa_ent - one up link of the advertising node (4 bytes)
 * @port: port of the advertising node
 * @nbr_port: port of the neighbour the link lands on
 * @nbr: neighbour node address
 */
struct r2c2_lsa_ent {
	__u8	port;
	__u8	nbr_port;
	__be16	nbr;
} __attribute__((packed));

/**
 * enum r2c2_flow_evt_type - what a flow event announces
 * @R2C2_FE_START: a flow started
 * @R2C2_FE_FINISH: a flow finished
 * @R2C2_FE_UPDATE: a flow's demand, weight, priority or routing changed
 * @R2C2_FE_REFRESH: periodic re-announcement of a live flow (soft state)
 * @R2C2_FE_DIGEST: a summary of the source's own flows, sent periodically:
 *	@flow is the digest (r2c2_flow_digest() of each flow, summed),
 *	@dst the source itself, @weight R2C2_DIGEST_F_* flags, demand the
 *	number of flows. A receiver whose view of the source differs asks
 *	for the whole set with R2C2_FE_RESYNC.
 * @R2C2_FE_RESYNC: a request to the node @dst to announce all its flows
 *	again (each as R2C2_FE_REFRESH, then an R2C2_FE_DIGEST with
 *	R2C2_DIGEST_F_ANSWER): @flow is the asker's digest of @dst's flows,
 *	@weight 1, demand the number of them it holds
 *
 * R2C2_FE_DIGEST and R2C2_FE_RESYNC name no flow: the kernel broadcasts
 * them as any flow event and keeps no routing state for them.
 */
enum r2c2_flow_evt_type {
	R2C2_FE_START = 1,
	R2C2_FE_FINISH = 2,
	R2C2_FE_UPDATE = 3,
	R2C2_FE_REFRESH = 4,
	R2C2_FE_DIGEST = 5,
	R2C2_FE_RESYNC = 6,
};

/* R2C2_FE_DIGEST's @weight: always set (a weight is 1..255) */
#define R2C2_DIGEST_F_PERIODIC	0x01
/* sent after the REFRESH of every flow, to answer an R2C2_FE_RESYNC */
#define R2C2_DIGEST_F_ANSWER	0x02

/**
 * struct r2c2_flow_evt - body of a FLOW broadcast (12 bytes; 20 on the
 * wire with the control header)
 * @flow: flow identifier (unique per source node)
 * @dst: destination node address
 * @weight: allocation weight, 1..255
 * @evt_prio: event type (enum r2c2_flow_evt_type) in the high nibble,
 *	priority level in the low nibble (0 = highest, 15 = lowest)
 * @rproto_demand: routing protocol (enum r2c2_rproto) in bits 30..31,
 *	demand in Kbit/s in bits 0..29 (0x3fffffff = unlimited; 0 = the
 *	flow wants nothing now: r2c2d gives it no share, and its source
 *	the lowest rate, R2C2_RATE_MIN)
 */
struct r2c2_flow_evt {
	__be32	flow;
	__be16	dst;
	__u8	weight;
	__u8	evt_prio;
	__be32	rproto_demand;
} __attribute__((packed));

#define R2C2_FLOW_EVT_LEN	12
#define R2C2_DEMAND_UNLIMITED	0x3fffffff

/**
 * struct r2c2_routes - body of a ROUTES broadcast (4 bytes), followed by
 * @count struct r2c2_route_ent
 * @count: number of entries, 1..R2C2_ROUTES_MAX
 * @resv: zero
 */
struct r2c2_routes {
	__be16	count;
	__be16	resv;
} __attribute__((packed));

/**
 * struct r2c2_route_ent - one routing assignment (7 bytes)
 * @src: the flow's source node
 * @flow: flow identifier (unique per source node, hence @src)
 * @rproto: enum r2c2_rproto the source must use from now on
 *
 * Flow identifiers are chosen by each source without coordination, so an
 * entry names the source too: 212 entries fit a 1,500-byte frame (the
 * paper's 5-byte entries, 300 a frame, assume rack-unique identifiers).
 */
struct r2c2_route_ent {
	__be16	src;
	__be32	flow;
	__u8	rproto;
} __attribute__((packed));

#define R2C2_ROUTES_MAX		212

/** R2C2_AUTH_KEY_LEN - bytes of a rack key (a 128-bit SipHash key) */
#define R2C2_AUTH_KEY_LEN	16

/** R2C2_AUTH_MAC_LEN - bytes of the MAC of an authenticated frame */
#define R2C2_AUTH_MAC_LEN	8

/**
 * struct r2c2_auth_trl - trailer of an authenticated frame (24 bytes):
 * with a rack key set, every HELLO, LSA, BCAST_ETH, FLOW and ROUTES frame
 * carries one right after its body (the LSA or ROUTES entries; a
 * BCAST_ETH frame's whole Ethernet frame, so its trailer is the frame's
 * last 24 bytes), on every hop: a node that relays a frame strips the
 * trailer it came with and appends its own. A data frame holding ARP or
 * IPv6 neighbour discovery carries one after its @plen bytes of payload,
 * made by its source for its destination (relays leave data frames
 * alone), and a second one while its source's previous key is accepted
 * (a rotation): the first made with the current key, the second with the
 * previous. Without a key nothing is appended; a node without a key reads
 * the trailer as padding.
 * @key_id: id of the rack key the MAC was made with (1..255)
 * @newest_id: id of the newest key the transmitter holds (key rotation:
 *	a neighbour that holds it too sends with it)
 * @from: the transmitting node (for a relayed frame not the source; for
 *	a data frame its source)
 * @to: the neighbour the frame was sent to, R2C2_ADDR_NONE for a HELLO
 *	on a port without a neighbour yet; for a data frame its destination
 * @resv: zero; for a data frame the ethertype of its payload
 * @seq: the transmitter's authentication sequence: nanoseconds of its
 *	real-time clock, made strictly increasing (replay protection)
 * @mac: SipHash-2-4 (little-endian u64) with the key @key_id over the
 *	control header, the body and the first 16 bytes of this trailer; for
 *	a data frame over the payload, the trailers before this one and the
 *	first 16 bytes of this one (not the data header, which changes on
 *	every hop: its source, destination and ethertype must equal @from,
 *	@to and @resv)
 */
struct r2c2_auth_trl {
	__u8	key_id;
	__u8	newest_id;
	__be16	from;
	__be16	to;
	__be16	resv;
	__be64	seq;
	__u8	mac[R2C2_AUTH_MAC_LEN];
} __attribute__((packed));

#define R2C2_AUTH_LEN		24

/**
 * R2C2_ROUTES_MAX_AUTH - entries of a ROUTES frame with a rack key set:
 * the trailer must fit a 1,500-byte frame too
 */
#define R2C2_ROUTES_MAX_AUTH	209

/* ------------------------------------------------------------------ */
/* Generic netlink family "r2c2"                                       */
/* ------------------------------------------------------------------ */

#define R2C2_GENL_NAME		"r2c2"
#define R2C2_GENL_VERSION	1
#define R2C2_GENL_MCGRP_EVENTS	"events"

/**
 * enum r2c2_cmd - generic netlink commands
 * @R2C2_CMD_UNSPEC: unused
 * @R2C2_CMD_NODE_GET: get this netns's node (doit)
 * @R2C2_CMD_NODE_SET: create or configure this netns's node (admin)
 * @R2C2_CMD_NODE_DEL: remove the node, its ports and r2c0 (admin)
 * @R2C2_CMD_PORT_ADD: attach a netdev as a port (admin)
 * @R2C2_CMD_PORT_DEL: detach a port (admin)
 * @R2C2_CMD_PORT_GET: ports with neighbour and counters (dump)
 * @R2C2_CMD_TOPO_GET: the discovered rack graph, one node a message (dump)
 * @R2C2_CMD_TREE_GET: broadcast FIB entries of this node (dump)
 * @R2C2_CMD_ROUTE_GET: sample a source route to a destination (doit)
 * @R2C2_CMD_STATS_GET: node counters (doit)
 * @R2C2_CMD_STATS_RESET: zero node and port counters (admin)
 * @R2C2_CMD_FLOW_GET: this node's sending flows (dump)
 * @R2C2_CMD_FLOW_SET: set a sending flow's routing protocol (admin)
 * @R2C2_CMD_FLOW_EVENT: broadcast a flow event to the rack (admin,
 *	request) / a flow event heard from the rack (multicast)
 * @R2C2_CMD_TOPO_EVENT: the topology or the tables changed (multicast)
 * @R2C2_CMD_ROUTES_SEND: broadcast routing assignments (admin)
 * @R2C2_CMD_ROUTES_EVENT: routing assignments heard (multicast)
 * @R2C2_CMD_RATE_SET: set sending rates of sch_r2c2 flows, a batch of
 *	R2C2_A_RATE_ENT in R2C2_A_RATES; R2C2_A_IFINDEX picks the qdisc's
 *	device (default r2c0) (admin)
 * @R2C2_CMD_QFLOW_GET: flows of the sch_r2c2 qdisc with rate, backlog,
 *	bytes sent and drops (dump; R2C2_A_IFINDEX as for RATE_SET)
 * @R2C2_CMD_RESEQ_GET: receiver resequencing: a node summary, then one
 *	message per flow being resequenced (dump)
 * @R2C2_CMD_CLASS_SET: create or replace a traffic class: R2C2_A_CLASS_ID,
 *	match (R2C2_A_DSCP, R2C2_A_SKB_PRIO, R2C2_A_SPORT[_MAX],
 *	R2C2_A_DPORT[_MAX]) and what it gives (R2C2_A_WEIGHT, R2C2_A_PRIO)
 *	(admin)
 * @R2C2_CMD_CLASS_DEL: delete a traffic class by R2C2_A_CLASS_ID (admin)
 * @R2C2_CMD_CLASS_GET: the traffic classes, by id (dump)
 * @R2C2_CMD_KEY_SET: set the rack key: R2C2_A_KEY_ID, R2C2_A_KEY and
 *	optionally R2C2_A_KEY_OVERLAP_MS; a new id while a key is set
 *	rotates: the old key stays accepted for the overlap (admin)
 * @R2C2_CMD_KEY_DEL: without R2C2_A_KEY_ID, or with the current key's,
 *	forget every key (authentication off); with the previous key's id,
 *	end the overlap now (admin)
 * @R2C2_CMD_KEY_GET: key ids and overlap, never key material (doit)
 * @R2C2_CMD_XDP_SET: with R2C2_A_XDP_PORTS_FD and R2C2_A_XDP_STATS_FD,
 *	bind the maps of an XDP transit program loaded for this node (the
 *	module keeps their entries from then on: <r2c2/xdp.h>); with
 *	neither, let the bound maps go (admin)
 * @__R2C2_CMD_MAX: one past the last command
 */
enum r2c2_cmd {
	R2C2_CMD_UNSPEC,
	R2C2_CMD_NODE_GET,
	R2C2_CMD_NODE_SET,
	R2C2_CMD_NODE_DEL,
	R2C2_CMD_PORT_ADD,
	R2C2_CMD_PORT_DEL,
	R2C2_CMD_PORT_GET,
	R2C2_CMD_TOPO_GET,
	R2C2_CMD_TREE_GET,
	R2C2_CMD_ROUTE_GET,
	R2C2_CMD_STATS_GET,
	R2C2_CMD_STATS_RESET,
	R2C2_CMD_FLOW_GET,
	R2C2_CMD_FLOW_SET,
	R2C2_CMD_FLOW_EVENT,
	R2C2_CMD_TOPO_EVENT,
	R2C2_CMD_ROUTES_SEND,
	R2C2_CMD_ROUTES_EVENT,
	R2C2_CMD_RATE_SET,
	R2C2_CMD_QFLOW_GET,
	R2C2_CMD_RESEQ_GET,
	R2C2_CMD_CLASS_SET,
	R2C2_CMD_CLASS_DEL,
	R2C2_CMD_CLASS_GET,
	R2C2_CMD_KEY_SET,
	R2C2_CMD_KEY_DEL,
	R2C2_CMD_KEY_GET,
	R2C2_CMD_XDP_SET,
	__R2C2_CMD_MAX,
};

#define R2C2_CMD_MAX (__R2C2_CMD_MAX - 1)

/**
 * enum r2c2_attr - top-level attributes
 * @R2C2_A_UNSPEC: unused
 * @R2C2_A_NODE_ADDR: u16, this node's address (0..0xfffe)
 * @R2C2_A_IFNAME: string, name of the node's soft interface (NODE_SET
 *	on creation only; default "r2c0")
 * @R2C2_A_IFINDEX: u32, ifindex of the soft interface or of a port's netdev
 * @R2C2_A_PORT: u8, port number 0..7
 * @R2C2_A_PORT_IFNAME: string, a port's netdev by name (PORT_ADD)
 * @R2C2_A_PORT_STATE: u8, enum r2c2_port_state
 * @R2C2_A_NBR_ADDR: u16, neighbour node on a port
 * @R2C2_A_NBR_PORT: u8, neighbour's port number
 * @R2C2_A_NBR_MAC: binary (6), neighbour port's MAC
 * @R2C2_A_HELLO_MS: u32, hello interval in ms (10..60000)
 * @R2C2_A_TREES: u8, broadcast trees per source (1..R2C2_MAX_TREES)
 * @R2C2_A_RPROTO: u8, enum r2c2_rproto
 * @R2C2_A_TOPO_DIMS: nested: u8 R2C2_A_TOPO_DIM per dimension (1..3 of
 *	them, each 2..255); empty nest = no declared topology
 * @R2C2_A_TOPO_DIM: u8, radix of one torus dimension
 * @R2C2_A_NODES: u32, nodes in the discovered graph
 * @R2C2_A_LINKS: u32, directed links in the discovered graph
 * @R2C2_A_TOPO_OK: u8, 1 when the discovered graph matches the
 *	declared topology (absent when none is declared)
 * @R2C2_A_TABLES_GEN: u32, generation of the path/FIB tables
 * @R2C2_A_STATS: nested, enum r2c2_stat_attr
 * @R2C2_A_TOPO_NODE: nested in TOPO_GET: u16 NODE_ADDR, nested LINK list
 * @R2C2_A_TOPO_LINK: nested: PORT, NBR_ADDR, NBR_PORT
 * @R2C2_A_TREE_SRC: u16, source of a broadcast tree
 * @R2C2_A_TREE_ID: u8, tree id
 * @R2C2_A_TREE_PORTS: u8, bitmask of ports this node forwards to
 * @R2C2_A_TREE_PARENT: u8, port the tree reaches this node on (0xff at root)
 * @R2C2_A_DST: u16, destination node address
 * @R2C2_A_ROUTE: binary, hop ports (one byte a hop)
 * @R2C2_A_FLOW_ID: u32, flow identifier
 * @R2C2_A_FLOW_SRC: u16, flow's source node (events)
 * @R2C2_A_WEIGHT: u8, flow weight (1..255)
 * @R2C2_A_PRIO: u8, flow priority (0..15)
 * @R2C2_A_DEMAND_KBPS: u32, flow demand in Kbit/s (0..R2C2_DEMAND_UNLIMITED;
 *	0 wants nothing, R2C2_DEMAND_UNLIMITED has no limit)
 * @R2C2_A_FLOW_EVT: u8, enum r2c2_flow_evt_type
 * @R2C2_A_PACKETS: u64, packets
 * @R2C2_A_BYTES: u64, bytes
 * @R2C2_A_SEQ: u32, next sequence number of a flow
 * @R2C2_A_AGE_MS: u32, ms since a flow or neighbour was last seen
 * @R2C2_A_ROUTES: nested list of R2C2_A_ROUTE_ENT
 * @R2C2_A_ROUTE_ENT: nested: FLOW_SRC, FLOW_ID, RPROTO
 * @R2C2_A_PAD: padding for u64
 * @R2C2_A_ETHERTYPE: u16, ethertype of the fabric (NODE_SET before ports;
 *	only R2C2_ETH_P is accepted)
 * @R2C2_A_COUNT: u32, a count (samples for ROUTE_GET)
 * @R2C2_A_LINK_COUNTS: binary, u32 per directed link (node index * 8 +
 *	port) counting hops of ROUTE_GET samples
 * @R2C2_A_RATE: u64, a flow's rate in bit/s (R2C2_RATE_MIN..R2C2_RATE_MAX)
 * @R2C2_A_RATES: nested list of R2C2_A_RATE_ENT (1..R2C2_RATES_MAX)
 * @R2C2_A_RATE_ENT: nested: FLOW_ID, RATE
 * @R2C2_A_QLEN: u32, packets queued
 * @R2C2_A_BACKLOG: u32, bytes queued
 * @R2C2_A_DROPS: u64, packets dropped
 * @R2C2_A_RATE_STATE: u8, enum r2c2_rate_state
 * @R2C2_A_SPORT: u16, transport source port of a flow's first packet
 * @R2C2_A_DPORT: u16, transport destination port of a flow's first packet
 * @R2C2_A_LEASE_MS: u32, ms left of a flow's rate lease
 * @R2C2_A_RESEQ: u8, 1 resequence received flows (default), 0 do not
 * @R2C2_A_RESEQ_TIMEOUT_US: u32, give a sequence gap up after this many
 *	microseconds (10..1000000; the floor of the adapted timeout)
 * @R2C2_A_RESEQ_FLOW_LIMIT: u32, packets one flow may hold (1..255)
 * @R2C2_A_RESEQ_LIMIT: u32, packets the node may hold (1..1048576)
 * @R2C2_A_RESEQ_HELD: u32, packets held now (node or flow)
 * @R2C2_A_RESEQ_MAX_DEPTH: u32, most packets held at once by one flow
 * @R2C2_A_RESEQ_FLOWS: u32, flows with resequencing state
 * @R2C2_A_RESEQ_TIMEOUT_EFF_US: u32, gap timeout in force (adapted to
 *	the observed path-delay spread)
 * @R2C2_A_RESEQ_HIST: binary, 257 u64, one per depth 0..256 (the ring of
 *	256 slots plus one): packets after whose arrival their flow held
 *	that many packets; readers take as many as the attribute holds
 * @R2C2_A_CLASS_ID: u8, traffic class id (1..R2C2_CLASS_MAX); classes
 *	are tried in ascending id order, the first that matches wins
 * @R2C2_A_DSCP: u8, DSCP a class matches (0..63, IPv4 or IPv6)
 * @R2C2_A_SKB_PRIO: u32, socket priority (skb->priority) a class matches
 * @R2C2_A_SPORT_MAX: u16, top of a class's source port range (the bottom
 *	is R2C2_A_SPORT; default: R2C2_A_SPORT)
 * @R2C2_A_DPORT_MAX: u16, top of a class's destination port range (the
 *	bottom is R2C2_A_DPORT; default: R2C2_A_DPORT)
 * @R2C2_A_CLASS_FLOWS: u64, flows the class was given to (CLASS_GET)
 * @R2C2_A_KEY_ID: u8, id of a rack key (1..255)
 * @R2C2_A_KEY: binary (R2C2_AUTH_KEY_LEN), a rack key (KEY_SET only;
 *	never sent by the kernel)
 * @R2C2_A_KEY_OVERLAP_MS: u32, how long the previous key stays accepted
 *	after a rotation (0..R2C2_TIME_MS_MAX; default 60000)
 * @R2C2_A_KEY_PREV_ID: u8, id of the previous key while it is accepted
 * @R2C2_A_KEY_PREV_MS: u32, ms left of the previous key's overlap
 * @R2C2_A_XDP_PORTS_FD: s32, file descriptor of the XDP program's ports
 *	map (XDP_SET only)
 * @R2C2_A_XDP_STATS_FD: s32, file descriptor of its stats map (XDP_SET
 *	only)
 * @R2C2_A_XDP: u8, 1 while an XDP program's maps are bound (NODE_GET)
 * @__R2C2_A_MAX: one past the last attribute
 */
enum r2c2_attr {
	R2C2_A_UNSPEC,
	R2C2_A_NODE_ADDR,
	R2C2_A_IFNAME,
	R2C2_A_IFINDEX,
	R2C2_A_PORT,
	R2C2_A_PORT_IFNAME,
	R2C2_A_PORT_STATE,
	R2C2_A_NBR_ADDR,
	R2C2_A_NBR_PORT,
	R2C2_A_NBR_MAC,
	R2C2_A_HELLO_MS,
	R2C2_A_TREES,
	R2C2_A_RPROTO,
	R2C2_A_TOPO_DIMS,
	R2C2_A_TOPO_DIM,
	R2C2_A_NODES,
	R2C2_A_LINKS,
	R2C2_A_TOPO_OK,
	R2C2_A_TABLES_GEN,
	R2C2_A_STATS,
	R2C2_A_TOPO_NODE,
	R2C2_A_TOPO_LINK,
	R2C2_A_TREE_SRC,
	R2C2_A_TREE_ID,
	R2C2_A_TREE_PORTS,
	R2C2_A_TREE_PARENT,
	R2C2_A_DST,
	R2C2_A_ROUTE,
	R2C2_A_FLOW_ID,
	R2C2_A_FLOW_SRC,
	R2C2_A_WEIGHT,
	R2C2_A_PRIO,
	R2C2_A_DEMAND_KBPS,
	R2C2_A_FLOW_EVT,
	R2C2_A_PACKETS,
	R2C2_A_BYTES,
	R2C2_A_SEQ,
	R2C2_A_AGE_MS,
	R2C2_A_ROUTES,
	R2C2_A_ROUTE_ENT,
	R2C2_A_PAD,
	R2C2_A_ETHERTYPE,
	R2C2_A_COUNT,
	R2C2_A_LINK_COUNTS,
	R2C2_A_RATE,
	R2C2_A_RATES,
	R2C2_A_RATE_ENT,
	R2C2_A_QLEN,
	R2C2_A_BACKLOG,
	R2C2_A_DROPS,
	R2C2_A_RATE_STATE,
	R2C2_A_SPORT,
	R2C2_A_DPORT,
	R2C2_A_LEASE_MS,
	R2C2_A_RESEQ,
	R2C2_A_RESEQ_TIMEOUT_US,
	R2C2_A_RESEQ_FLOW_LIMIT,
	R2C2_A_RESEQ_LIMIT,
	R2C2_A_RESEQ_HELD,
	R2C2_A_RESEQ_MAX_DEPTH,
	R2C2_A_RESEQ_FLOWS,
	R2C2_A_RESEQ_TIMEOUT_EFF_US,
	R2C2_A_RESEQ_HIST,
	R2C2_A_CLASS_ID,
	R2C2_A_DSCP,
	R2C2_A_SKB_PRIO,
	R2C2_A_SPORT_MAX,
	R2C2_A_DPORT_MAX,
	R2C2_A_CLASS_FLOWS,
	R2C2_A_KEY_ID,
	R2C2_A_KEY,
	R2C2_A_KEY_OVERLAP_MS,
	R2C2_A_KEY_PREV_ID,
	R2C2_A_KEY_PREV_MS,
	R2C2_A_XDP_PORTS_FD,
	R2C2_A_XDP_STATS_FD,
	R2C2_A_XDP,
	__R2C2_A_MAX,
};

#define R2C2_A_MAX (__R2C2_A_MAX - 1)

/** R2C2_CLASS_MAX - traffic classes a node has at most (ids 1..64) */
#define R2C2_CLASS_MAX		64

/**
 * enum r2c2_port_state - state of a port
 * @R2C2_PS_DOWN: netdev admin down or no carrier
 * @R2C2_PS_UP: carrier up, no neighbour heard yet
 * @R2C2_PS_NBR: a neighbour is heard on the port (usable)
 */
enum r2c2_port_state {
	R2C2_PS_DOWN,
	R2C2_PS_UP,
	R2C2_PS_NBR,
};

/**
 * enum r2c2_stat - counters, per node (sum of all ports and r2c0) and per
 * port. Each is a u64 attribute of the same number inside R2C2_A_STATS.
 * A port counts what arrived on it (rx, drops) and what left by it (tx,
 * forwarded, originated, hellos).
 * @R2C2_S_UNSPEC: no counter; the pad attribute inside R2C2_A_STATS (see
 *	R2C2_S_PAD)
 * @R2C2_S_RX_PACKETS: frames of our ethertype received on ports
 * @R2C2_S_RX_BYTES: their bytes
 * @R2C2_S_TX_PACKETS: frames sent on ports (originated, forwarded, control)
 * @R2C2_S_TX_BYTES: their bytes
 * @R2C2_S_FORWARDED: data frames forwarded to another node (per port: the
 *	port they left by, so forwarded + originated of a port is the data
 *	the link carried)
 * @R2C2_S_DELIVERED: data frames delivered up through r2c0
 * @R2C2_S_ORIGINATED: data frames sent by r2c0 of this node (per port: the
 *	first hop's port)
 * @R2C2_S_BCAST_TX: broadcast frames originated (BCAST_ETH, FLOW, ROUTES, LSA)
 * @R2C2_S_BCAST_FWD: broadcast frames relayed along a tree or flood
 * @R2C2_S_BCAST_RX: broadcast frames accepted (delivered locally once)
 * @R2C2_S_HELLO_TX: hellos sent
 * @R2C2_S_HELLO_RX: hellos received
 * @R2C2_S_DROP_TRUNCATED: frame shorter than its headers
 * @R2C2_S_DROP_VERSION: unknown version or type
 * @R2C2_S_DROP_CSUM: header checksum failed
 * @R2C2_S_DROP_RLEN: route length above R2C2_MAX_HOPS
 * @R2C2_S_DROP_RIDX: route index beyond route length
 * @R2C2_S_DROP_NO_PORT: route names a port that is not attached
 * @R2C2_S_DROP_PORT_DOWN: route names a port that is down or has no neighbour
 * @R2C2_S_DROP_LOOP: route ends at a node that is not the destination
 *	(a frame passing its destination with hops left goes on), or a
 *	broadcast came back
 *	to its source
 * @R2C2_S_DROP_DUP: broadcast already seen (duplicate suppression)
 * @R2C2_S_DROP_NO_ROUTE: sender has no path to the destination or the
 *	frame's destination MAC is not an r2c0 MAC
 * @R2C2_S_DROP_NO_NODE: frame received before the node has an address
 * @R2C2_S_DROP_TX_ERR: the port's transmit failed (per attempt: FLOW and
 *	ROUTES copies are then retried, see R2C2_S_BCAST_RETRY)
 * @R2C2_S_DROP_NOMEM: allocation failed
 * @R2C2_S_DROP_BAD_LSA: malformed LSA, hello or flow event body
 * @R2C2_S_FLOW_TABLE_FULL: data frames sent without a sender flow entry
 *	(table full or no memory; sequence number 0, node default routing)
 * @R2C2_S_RESEQ_INORDER: data frames delivered that arrived in sequence
 * @R2C2_S_RESEQ_REORDERED: data frames that arrived ahead of a gap and
 *	were held in the reorder buffer
 * @R2C2_S_RESEQ_TIMEOUT: held frames released because their gap timed out
 * @R2C2_S_RESEQ_LIMIT: frames released early (or not held) because the
 *	flow's or the node's reorder-buffer limit was reached
 * @R2C2_S_RESEQ_LATE: frames behind their flow's sequence (gap already
 *	given up, or a duplicate of a delivered frame): delivered at once
 * @R2C2_S_RESEQ_DUP: copies of a held frame: dropped
 * @R2C2_S_RESEQ_RESYNC: frames a whole window ahead of or behind their
 *	flow (sender restart, forged header): the flow restarted there
 * @R2C2_S_RESEQ_DIRECT: frames delivered without resequencing state
 *	(DOR flows, resequencing off)
 * @R2C2_S_RESEQ_NOSTATE: frames delivered unordered because the node's
 *	flow limit was reached or memory was short
 * @R2C2_S_DROP_TOO_BIG: frame longer than the MTU of the port it was to
 *	leave by (r2c0's MTU above a port's, or ports of different MTUs)
 * @R2C2_S_BCAST_RETRY: retransmissions of FLOW and ROUTES copies whose
 *	transmit on a port failed (the node keeps a copy and sends it again
 *	on that port after a backoff; the failed attempts count under
 *	R2C2_S_DROP_TX_ERR)
 * @R2C2_S_BCAST_RETRY_FAIL: such copies given up: their last try failed
 *	too, or the port's retry queue was full
 * @R2C2_S_DROP_OFFLOAD: frame received on a port as a GSO packet or with
 *	a checksum left to offload (CHECKSUM_PARTIAL): r2c2 frames are sent
 *	whole and checksummed, so only a tap or packet socket with a virtio
 *	net header makes these
 * @R2C2_S_DROP_LSDB_FULL: LSA of an address not in the link-state database
 *	refused: the database holds the most nodes allowed (r2c2.max_nodes)
 * @R2C2_S_DROP_UNKNOWN_SRC: BCAST_ETH, FLOW or ROUTES frame whose source is
 *	not in the node's tables (no LSA of it): dropped before any
 *	duplicate-suppression state is made for it
 * @R2C2_S_ROUTES_REFUSED: entries of a received ROUTES frame naming this
 *	node for a flow it does not have: not applied (no flow is made)
 * @R2C2_S_DROP_AUTH: with a rack key set, a HELLO, LSA, FLOW or ROUTES
 *	frame without a trailer, with an unknown key id or a wrong MAC
 * @R2C2_S_DROP_REPLAY: with a rack key set, an authenticated frame seen
 *	before (its transmitter's sequence), too old, off the clock, sent to
 *	another node, or by a transmitter that is not the port's neighbour
 * @R2C2_S_DROP_LLADDR: ARP or IPv6 neighbour discovery packet from the
 *	fabric not handed to r2c0: it gives a link-layer address other than
 *	the r2c0 MAC of the node it comes from, or that node is not
 *	reachable (its frame was counted delivered or received before)
 * @R2C2_S_BCAST_UNCHECKED: broadcasts accepted without duplicate
 *	suppression: their source found the duplicate table full
 *	(R2C2_DUP_MAX sources) or no memory for an entry
 * @R2C2_S_LSDB_EVICTED: records of the link-state database forgotten
 *	to make room, in a full database (r2c2.max_nodes), for the LSA of
 *	a node joined to this one by a two-way link: each was of a node
 *	with no path of two-way links to this one
 * @__R2C2_S_MAX: one past the last counter
 */
enum r2c2_stat {
	R2C2_S_UNSPEC,
	R2C2_S_RX_PACKETS,
	R2C2_S_RX_BYTES,
	R2C2_S_TX_PACKETS,
	R2C2_S_TX_BYTES,
	R2C2_S_FORWARDED,
	R2C2_S_DELIVERED,
	R2C2_S_ORIGINATED,
	R2C2_S_BCAST_TX,
	R2C2_S_BCAST_FWD,
	R2C2_S_BCAST_RX,
	R2C2_S_HELLO_TX,
	R2C2_S_HELLO_RX,
	R2C2_S_DROP_TRUNCATED,
	R2C2_S_DROP_VERSION,
	R2C2_S_DROP_CSUM,
	R2C2_S_DROP_RLEN,
	R2C2_S_DROP_RIDX,
	R2C2_S_DROP_NO_PORT,
	R2C2_S_DROP_PORT_DOWN,
	R2C2_S_DROP_LOOP,
	R2C2_S_DROP_DUP,
	R2C2_S_DROP_NO_ROUTE,
	R2C2_S_DROP_NO_NODE,
	R2C2_S_DROP_TX_ERR,
	R2C2_S_DROP_NOMEM,
	R2C2_S_DROP_BAD_LSA,
	R2C2_S_FLOW_TABLE_FULL,
	R2C2_S_RESEQ_INORDER,
	R2C2_S_RESEQ_REORDERED,
	R2C2_S_RESEQ_TIMEOUT,
	R2C2_S_RESEQ_LIMIT,
	R2C2_S_RESEQ_LATE,
	R2C2_S_RESEQ_DUP,
	R2C2_S_RESEQ_RESYNC,
	R2C2_S_RESEQ_DIRECT,
	R2C2_S_RESEQ_NOSTATE,
	R2C2_S_DROP_TOO_BIG,
	R2C2_S_BCAST_RETRY,
	R2C2_S_BCAST_RETRY_FAIL,
	R2C2_S_DROP_OFFLOAD,
	R2C2_S_DROP_LSDB_FULL,
	R2C2_S_DROP_UNKNOWN_SRC,
	R2C2_S_ROUTES_REFUSED,
	R2C2_S_DROP_AUTH,
	R2C2_S_DROP_REPLAY,
	R2C2_S_DROP_LLADDR,
	R2C2_S_BCAST_UNCHECKED,
	R2C2_S_LSDB_EVICTED,
	__R2C2_S_MAX,
};

#define R2C2_S_MAX (__R2C2_S_MAX - 1)

/*
 * Pad attribute type for nla_put_u64_64bit() inside R2C2_A_STATS: the
 * nest's type space is the counters', so the pad must not be R2C2_A_PAD
 * (a counter could take its number). Readers skip type 0.
 */
#define R2C2_S_PAD R2C2_S_UNSPEC

/* ------------------------------------------------------------------ */
/* sch_r2c2: the per-flow rate-limiting qdisc                          */
/* ------------------------------------------------------------------ */

/** R2C2_RATE_MIN - lowest rate a flow may be given, bit/s (1 Kbit/s) */
#define R2C2_RATE_MIN		1000ULL
/** R2C2_RATE_MAX - highest rate a flow may be given, bit/s (1 Tbit/s) */
#define R2C2_RATE_MAX		1000000000000ULL
/** R2C2_RATES_MAX - entries one RATE_SET message carries at most */
#define R2C2_RATES_MAX		4096

/**
 * enum r2c2_rate_state - where a sch_r2c2 flow's rate comes from
 * @R2C2_RS_INITIAL: the qdisc's initial rate (no rate set yet)
 * @R2C2_RS_SET: a rate set through R2C2_CMD_RATE_SET, lease running
 * @R2C2_RS_SAFE: the safe rate: the lease ran out
 * @R2C2_RS_PENDING: not announced yet (TCA_R2C2_ANNOUNCE_MS,
 *	TCA_R2C2_ANNOUNCE_BYTES): the initial rate without a lease; the rack
 *	does not know the flow, so no rate is set for it (RATE_SET skips it)
 */
enum r2c2_rate_state {
	R2C2_RS_INITIAL,
	R2C2_RS_SET,
	R2C2_RS_SAFE,
	R2C2_RS_PENDING,
};

/**
 * enum tca_r2c2_attr - sch_r2c2 options (TCA_OPTIONS)
 * @TCA_R2C2_UNSPEC: unused
 * @TCA_R2C2_LIMIT: u32, packets queued at most (1..R2C2_LIMIT_MAX)
 * @TCA_R2C2_FLOW_LIMIT: u32, packets queued per flow at most
 *	(1..R2C2_LIMIT_MAX, at most LIMIT)
 * @TCA_R2C2_INITIAL_RATE: u64, bit/s of a new flow until a rate is set
 * @TCA_R2C2_SAFE_RATE: u64, bit/s of a flow whose lease ran out
 * @TCA_R2C2_LEASE_MS: u32, lifetime of a rate (and of the initial rate);
 *	0 = no lease (1..R2C2_TIME_MS_MAX otherwise)
 * @TCA_R2C2_IDLE_MS: u32, a flow without packets for this long finishes
 *	and is forgotten (1..R2C2_TIME_MS_MAX)
 * @TCA_R2C2_BUCKETS_LOG: u32, log2 of the flow hash buckets (4..20)
 * @TCA_R2C2_MAXFLOWS: u32, flows tracked at most (1..R2C2_MAXFLOWS_MAX)
 * @TCA_R2C2_CATCHUP_US: u32, how far a late flow may catch up, in us
 *	(0..R2C2_CATCHUP_US_MAX): the largest burst after a late wakeup
 * @TCA_R2C2_PAD: padding for u64
 * @TCA_R2C2_BATCH_US: u32, send times are grouped in slots of this many
 *	us (0..R2C2_BATCH_US_MAX; shorter where two MTU-sized packets take
 *	less at the flow's rate) whose packets leave together at the slot's
 *	start, one wakeup a slot; the flow's clock still advances from its
 *	send time (the long-run rate is unchanged)
 * @TCA_R2C2_ANNOUNCE_MS: u32, announce a flow (raise its START) only once
 *	it has lived this long since its first packet (0..R2C2_TIME_MS_MAX;
 *	0 = no time threshold)
 * @TCA_R2C2_ANNOUNCE_BYTES: u32, announce a flow only once it has sent
 *	this many bytes (0..R2C2_ANNOUNCE_BYTES_MAX; 0 = no byte threshold).
 *	With either threshold set, a flow is announced when the first set
 *	one is reached; one that finishes before raises neither START nor
 *	FINISH. With both 0 (the default) a flow is announced at its first
 *	packet.
 * @__TCA_R2C2_MAX: one past the last attribute
 */
enum tca_r2c2_attr {
	TCA_R2C2_UNSPEC,
	TCA_R2C2_LIMIT,
	TCA_R2C2_FLOW_LIMIT,
	TCA_R2C2_INITIAL_RATE,
	TCA_R2C2_SAFE_RATE,
	TCA_R2C2_LEASE_MS,
	TCA_R2C2_IDLE_MS,
	TCA_R2C2_BUCKETS_LOG,
	TCA_R2C2_MAXFLOWS,
	TCA_R2C2_CATCHUP_US,
	TCA_R2C2_PAD,
	TCA_R2C2_BATCH_US,
	TCA_R2C2_ANNOUNCE_MS,
	TCA_R2C2_ANNOUNCE_BYTES,
	__TCA_R2C2_MAX,
};

#define TCA_R2C2_MAX (__TCA_R2C2_MAX - 1)

#define R2C2_LIMIT_MAX		1000000
#define R2C2_TIME_MS_MAX	3600000
#define R2C2_BUCKETS_LOG_MIN	4
#define R2C2_BUCKETS_LOG_MAX	20
#define R2C2_MAXFLOWS_MAX	1000000
#define R2C2_CATCHUP_US_MAX	1000000
#define R2C2_BATCH_US_MAX	10000
#define R2C2_ANNOUNCE_BYTES_MAX	1073741824	/* 1 GiB */

/** TC_R2C2_XSTATS_VERSION - version of struct tc_r2c2_xstats */
#define TC_R2C2_XSTATS_VERSION	1

/**
 * struct tc_r2c2_xstats - sch_r2c2 statistics (tc -s qdisc show)
 * @version: TC_R2C2_XSTATS_VERSION
 * @flows: flows tracked
 * @flows_active: flows with packets queued
 * @flows_started: flows seen for the first time
 * @flows_finished: announced flows idle longer than idle_ms (flow-finish
 *	events)
 * @throttled: dequeues that found the earliest flow not yet due
 * @drops_limit: packets dropped because the qdisc held limit packets
 * @drops_flow_limit: packets dropped because their flow held flow_limit
 * @overflow_maxflows: packets of a new flow that would exceed maxflows:
 *	queued in the qdisc's shared overflow flow (one FIFO at the safe
 *	rate, never announced, bounded by limit only) instead of dropped
 * @overflow_nomem: packets of a new flow whose entry could not be
 *	allocated: queued in the overflow flow too
 * @rate_updates: flow rates set through R2C2_CMD_RATE_SET
 * @leases_expired: flows that fell back to the safe rate
 * @events_lost: flow start/finish events lost (event queue full)
 * @rates_unknown: RATE_SET entries skipped: the flow was unknown to the
 *	qdisc (finished, or never started) or not announced yet
 *	(R2C2_RS_PENDING); appended later, so readers
 *	take what the attribute's length holds
 * @flows_announced: flows announced (flow-start events); appended later
 * @flows_unannounced: flows idle longer than idle_ms before they were
 *	announced: neither START nor FINISH was raised (two events saved
 *	each); appended later
 * @work_runs: runs of the qdisc's work item (flow collection, lease
 *	expiry, event delivery); it does not run while the qdisc tracks no
 *	flow and has no event to deliver; appended later
 * @resv: zero
 */
struct tc_r2c2_xstats {
	__u32	version;
	__u32	flows;
	__u32	flows_active;
	__u32	resv;
	__u64	flows_started;
	__u64	flows_finished;
	__u64	throttled;
	__u64	drops_limit;
	__u64	drops_flow_limit;
	__u64	overflow_maxflows;
	__u64	overflow_nomem;
	__u64	rate_updates;
	__u64	leases_expired;
	__u64	events_lost;
	__u64	rates_unknown;
	__u64	flows_announced;
	__u64	flows_unannounced;
	__u64	work_runs;
};

/* ------------------------------------------------------------------ */
/* rtnetlink: r2c0 as a link of kind "r2c2" (ip -d link show r2c0)     */

#define R2C2_LINK_KIND		"r2c2"

/**
 * enum r2c2_link_attr - IFLA_INFO_DATA of r2c0 (IFLA_INFO_KIND "r2c2"),
 *	read-only: a node is created and configured with r2c2ctl, not with
 *	ip link add or set
 * @IFLA_R2C2_UNSPEC: unused
 * @IFLA_R2C2_ADDR: u16, the node's address
 * @IFLA_R2C2_RPROTO: u8, the default routing protocol (enum r2c2_rproto)
 * @IFLA_R2C2_HELLO_MS: u32, the hello interval in milliseconds
 * @IFLA_R2C2_TOPO_DIMS: binary, one u8 radix per declared torus
 *	dimension; absent when no topology is declared
 * @__IFLA_R2C2_MAX: one past the last attribute
 */
enum r2c2_link_attr {
	IFLA_R2C2_UNSPEC,
	IFLA_R2C2_ADDR,
	IFLA_R2C2_RPROTO,
	IFLA_R2C2_HELLO_MS,
	IFLA_R2C2_TOPO_DIMS,
	__IFLA_R2C2_MAX,
};

#define IFLA_R2C2_MAX (__IFLA_R2C2_MAX - 1)

#endif /* _UAPI_LINUX_R2C2_H */
