/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sch.h - the interface between r2c2.ko and sch_r2c2.ko (kernel only).
 *
 * r2c2.ko owns the "r2c2" generic netlink family and the fabric; the
 * qdisc registers itself here so that rate pushes (R2C2_CMD_RATE_SET)
 * and flow dumps (R2C2_CMD_QFLOW_GET) reach it, and calls back to
 * announce flow starts and finishes (FLOW broadcast + netlink event).
 */
#ifndef _R2C2_SCH_H
#define _R2C2_SCH_H

#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/netlink.h>
#include <net/request_sock.h>
#include <net/sock.h>
#include <net/tcp_states.h>

/**
 * r2c2_sk_is_tcp() - whether a packet's socket is a TCP connection's own
 * @sk: skb->sk, not NULL
 *
 * A full TCP socket, or the request socket of a connection being accepted
 * (it sends the SYN-ACK). Both are in the established hash under the
 * connection's 4-tuple, so their sk_hash is the same: the request socket's
 * is computed when it is hashed, before the SYN-ACK is sent, and the child
 * socket that replaces it is hashed to the same value.
 *
 * Return: true if @sk->sk_hash identifies the packet's TCP connection.
 */
static inline bool r2c2_sk_is_tcp(const struct sock *sk)
{
	const struct sock *l;

	/*
	 * sk_state is volatile: read it once. A full socket, the common
	 * case, is told from TCP by sk_type and sk_protocol (one word)
	 * before its family: a UDP or raw socket's packet pays one load of
	 * sk_state and one of that word (sk_is_tcp() tests the same three).
	 */
	switch (sk->sk_state) {
	case TCP_NEW_SYN_RECV:
		l = inet_reqsk(sk)->rsk_listener;
		return l && sk_is_tcp(l);
	case TCP_TIME_WAIT:
		return false;
	default:
		return sk->sk_type == SOCK_STREAM &&
		       sk->sk_protocol == IPPROTO_TCP && sk_is_inet(sk);
	}
}

/**
 * r2c2_flow_id() - the R2C2 flow identifier of a packet
 * @skb: the packet
 *
 * One definition for r2c0 (the data header's flow field) and sch_r2c2
 * (the rate limiter's key), so that a rate computed for (source node,
 * flow id) lands on the right rate limiter. 0 is never a flow id.
 *
 * A packet sent by a TCP connection's socket (r2c2_sk_is_tcp(): the full
 * socket, or the request socket for the SYN-ACK of a passive open) gets
 * the socket's established-hash value, sk_hash: the hash of the 4-tuple
 * (and the netns), set once when connect() or the SYN's arrival puts the
 * connection in the established hash, for IPv4 and IPv6 alike, and never
 * changed while the connection lives. skb_get_hash() is not stable: TCP's
 * packets carry sk_txhash, which TCP draws anew after a retransmission
 * timeout and on other negative advice (sysctl net.core.txrehash, on by
 * default), and the connection would become a new flow each time.
 *
 * Every other packet keeps skb_get_hash(): UDP and other protocols,
 * forwarded packets, packets without a socket, and the TCP packets that
 * are not sent by the connection's socket: resets and timewait ACKs (sent
 * by the per-netns control socket, with the connection's last txhash) and
 * SYN-ACKs sent as SYN cookies (no socket). Those few packets of a
 * connection get another flow id than its data.
 *
 * Cost: a packet without a socket pays one test of skb->sk; one from a
 * full socket that is not TCP reads sk_state and the word holding
 * sk_type and sk_protocol before it reaches skb_get_hash() (a TCP socket
 * also sk_family); no flow dissection is added.
 *
 * Return: the flow id.
 */
static inline u32 r2c2_flow_id(struct sk_buff *skb)
{
	const struct sock *sk = skb->sk;

	if (sk && r2c2_sk_is_tcp(sk))
		return READ_ONCE(sk->sk_hash) ?: 1;
	return skb_get_hash(skb) ?: 1;
}

/**
 * struct r2c2_rate_ent - one entry of a rate push
 * @id: flow identifier
 * @rate: bit/s, R2C2_RATE_MIN..R2C2_RATE_MAX
 * @applied: set by the qdisc that holds the flow and took the rate
 */
struct r2c2_rate_ent {
	u32 id;
	u64 rate;
	bool applied;
};

/**
 * struct r2c2_qflow_info - one flow of the qdisc, for QFLOW_GET
 * @id: flow identifier
 * @dst: destination node, R2C2_ADDR_NONE when unknown
 * @state: enum r2c2_rate_state
 * @sport: transport source port of the first packet (0 = none)
 * @dport: transport destination port of the first packet (0 = none)
 * @weight: allocation weight announced (its traffic class's, or 1)
 * @prio: priority announced (its traffic class's, or 0)
 * @rate: effective rate, bit/s
 * @qlen: packets queued
 * @backlog: bytes queued
 * @packets: packets sent
 * @bytes: bytes sent
 * @drops: packets dropped
 * @age_ms: ms since the flow last sent or queued a packet
 * @lease_ms: ms left of the lease (0: none or expired)
 */
struct r2c2_qflow_info {
	u32 id;
	u16 dst;
	u8 state;
	u16 sport;
	u16 dport;
	u8 weight;
	u8 prio;
	u64 rate;
	u32 qlen;
	u32 backlog;
	u64 packets;
	u64 bytes;
	u64 drops;
	u32 age_ms;
	u32 lease_ms;
};

/**
 * typedef r2c2_qflow_fill_t - put one flow into a dump message
 * @arg: the dump's context
 * @fi: the flow
 *
 * Return: 0, or -EMSGSIZE when the message is full.
 */
typedef int (*r2c2_qflow_fill_t)(void *arg, const struct r2c2_qflow_info *fi);

/**
 * struct r2c2_sch_ops - what a registered qdisc offers r2c2.ko
 * @rate_set: apply the rates of the flows it holds, marking those
 *	entries applied; the others are another qdisc's of the device (an
 *	mq child's) or unknown. Process context, may take the qdisc lock
 * @qflow_walk: call @fill for the flows from *@cursor on, until it
 *	returns an error (the cursor then names that flow), the flows run
 *	out (return 0) or the walk has done R2C2_SCH_WALK_BUDGET units of
 *	work, a bucket or a flow each, under the qdisc lock (-EAGAIN, the
 *	cursor naming where to go on: the caller may reschedule and call
 *	again); process context
 */
/*
 * Buckets and flows one call of qflow_walk visits under the qdisc's root
 * lock, with bottom halves off: at 2^20 buckets a walk in one hold kept
 * them off for the whole table
 */
#define R2C2_SCH_WALK_BUDGET	1024

struct r2c2_sch_ops {
	void (*rate_set)(void *priv, struct r2c2_rate_ent *ent, unsigned int n);
	int (*qflow_walk)(void *priv, unsigned long *cursor,
			  r2c2_qflow_fill_t fill, void *arg);
};

/**
 * struct r2c2_sch - a qdisc registered with r2c2.ko
 * @list: in the registry (r2c2.ko's)
 * @dev: the qdisc's device (the qdisc lives no longer than its device)
 * @ops: its operations
 * @priv: their argument
 * @seq: order of registration (set by r2c2_sch_register()): a dump walks
 *	the qdiscs of a device in this order
 */
struct r2c2_sch {
	struct list_head list;
	u64 seq;
	struct net_device *dev;
	const struct r2c2_sch_ops *ops;
	void *priv;
};

/* struct r2c2_class_key.has */
#define R2C2_CK_IP	0x01	/* @dscp is an IPv4 or IPv6 packet's */
#define R2C2_CK_PORTS	0x02	/* @sport and @dport are transport ports */

/**
 * struct r2c2_class_key - what a flow's first packet carries, for its
 *	traffic class
 * @skb_prio: skb->priority (the socket's SO_PRIORITY)
 * @sport: transport source port, host order
 * @dport: transport destination port, host order
 * @dscp: DSCP of the IPv4 or IPv6 header (0..63)
 * @has: R2C2_CK_* fields that are valid
 */
struct r2c2_class_key {
	u32 skb_prio;
	u16 sport;
	u16 dport;
	u8 dscp;
	u8 has;
};

bool r2c2_class_lookup(struct net *net, const struct r2c2_class_key *k,
		       u8 *weight, u8 *prio);
void r2c2_sch_register(struct r2c2_sch *s);
void r2c2_sch_unregister(struct r2c2_sch *s);
void r2c2_sch_flow_event(struct r2c2_sch *s, u8 type, u32 id, u16 dst,
			 u8 weight, u8 prio);

#endif /* _R2C2_SCH_H */
