// SPDX-License-Identifier: GPL-2.0
/*
 * auth.c - authenticated frames: the rack key, set over netlink, the
 * trailer every HELLO, LSA, BCAST_ETH, FLOW and ROUTES frame carries on
 * every hop while a key is set, the trailer a data frame holding ARP or
 * ND carries from its source to its destination, and the replay state of
 * the transmitters.
 *
 * The MAC is SipHash-2-4 (<linux/siphash.h>, a 128-bit key, a 64-bit
 * tag) over the control header, the body and the trailer's fields:
 * lib/siphash.c is in every kernel r2c2 builds for, needs no crypto API
 * transform and costs tens of nanoseconds for a control frame
 * (Documentation/design.md, "Fabric trust").
 *
 * Authentication is hop by hop: a node that relays a frame checks the
 * trailer it came with, strips it and appends its own, so the replay
 * state is per transmitter (a neighbour) and a new neighbour is sent the
 * link-state database with fresh trailers. A data frame is signed by its
 * source for its destination (relays do not look at data frames), and
 * only when it holds ARP or ND (r2c2_lladdr_frame()): what else r2c0
 * sends is the business of the protocols above it.
 */
#include <crypto/algapi.h>
#include <linux/moduleparam.h>
#include <linux/rtnetlink.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "r2c2.h"

/*
 * r2c2.auth_window_s: a frame is accepted only if its sequence (the
 * transmitter's real-time clock) is within this many seconds of ours,
 * and the replay state of a transmitter is forgotten after this long
 * without a frame. 0: no clock check, the state is forgotten after
 * R2C2_AUTH_IDLE_S.
 */
static unsigned int r2c2_auth_window_s = 300;

static int r2c2_auth_window_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 0, 86400);
}

static const struct kernel_param_ops r2c2_auth_window_ops = {
	.set = r2c2_auth_window_set,
	.get = param_get_uint,
};

module_param_cb(auth_window_s, &r2c2_auth_window_ops, &r2c2_auth_window_s,
		0644);
MODULE_PARM_DESC(auth_window_s,
		 "with a rack key: seconds a frame's sequence may be off our clock, and a transmitter's replay state is kept idle (0: no clock check, kept idle 300 s; default 300)");

/* Whether a frame of this type is authenticated. */
static bool r2c2_auth_type(u8 vt)
{
	u8 type = r2c2_hdr_type(vt);

	return r2c2_hdr_version(vt) == R2C2_VERSION &&
	       (type == R2C2_T_HELLO || type == R2C2_T_LSA ||
		type == R2C2_T_BCAST_ETH || type == R2C2_T_FLOW ||
		type == R2C2_T_ROUTES);
}

/*
 * Bytes of header and body of a HELLO, LSA, BCAST_ETH, FLOW or ROUTES
 * frame at skb->data, pulled into the linear part; 0 when they are not
 * all there or the entry count is out of range. A BCAST_ETH body (an
 * Ethernet frame) has no length of its own: it is the rest of the frame,
 * less the trailer when @rx. The shortest, an Ethernet header, already
 * makes 60 bytes on the wire with the port's header and the trailer, so
 * no link pads it and the trailer is always the frame's last 24 bytes.
 */
static unsigned int r2c2_auth_ctl_len(struct sk_buff *skb, bool rx)
{
	unsigned int len, count;

	switch (r2c2_hdr_type(skb->data[0])) {
	case R2C2_T_BCAST_ETH:
		len = skb->len - (rx ? R2C2_AUTH_LEN : 0);
		if (skb->len < R2C2_AUTH_LEN ||
		    len < R2C2_CTL_HLEN + ETH_HLEN)
			return 0;
		break;
	case R2C2_T_HELLO:
		len = R2C2_CTL_HLEN + R2C2_HELLO_LEN;
		break;
	case R2C2_T_FLOW:
		len = R2C2_CTL_HLEN + R2C2_FLOW_EVT_LEN;
		break;
	case R2C2_T_LSA:
		if (!pskb_may_pull(skb, R2C2_CTL_HLEN + sizeof(struct r2c2_lsa)))
			return 0;
		count = ((struct r2c2_lsa *)(skb->data + R2C2_CTL_HLEN))->count;
		if (count > R2C2_MAX_PORTS)
			return 0;
		len = R2C2_CTL_HLEN + sizeof(struct r2c2_lsa) +
		      count * sizeof(struct r2c2_lsa_ent);
		break;
	case R2C2_T_ROUTES:
		if (!pskb_may_pull(skb, R2C2_CTL_HLEN + sizeof(struct r2c2_routes)))
			return 0;
		count = ntohs(((struct r2c2_routes *)(skb->data +
						      R2C2_CTL_HLEN))->count);
		if (!count || count > R2C2_ROUTES_MAX)
			return 0;
		len = R2C2_CTL_HLEN + sizeof(struct r2c2_routes) +
		      count * sizeof(struct r2c2_route_ent);
		break;
	default:
		return 0;
	}
	return pskb_may_pull(skb, len) ? len : 0;
}

/*
 * MAC of the @len bytes at @frame (a control frame's header and body; a
 * data frame's payload and any trailer before this one) and the
 * trailer's fields, which follow them, as it is stored: a little-endian
 * u64.
 */
static __le64 r2c2_auth_mac(const u8 *frame, unsigned int len,
			    const siphash_key_t *k)
{
	return cpu_to_le64(siphash(frame, len +
				   offsetof(struct r2c2_auth_trl, mac), k));
}

/* The next authentication sequence: real-time ns, strictly increasing. */
static u64 r2c2_auth_next_seq(struct r2c2_node *node)
{
	s64 now = ktime_get_real_ns(), old, new;

	old = atomic64_read(&node->auth_seq);
	do {
		new = max(old + 1, now);
	} while (!atomic64_try_cmpxchg(&node->auth_seq, &old, new));
	return new;
}

/* Whether @a's previous key is still accepted. */
static bool r2c2_auth_prev_live(const struct r2c2_auth *a)
{
	return a->has_prev && time_before(jiffies, a->prev_until);
}

/**
 * r2c2_auth_sign() - append the trailer to a control frame being sent
 * @port: the port it leaves by
 * @skb: a frame at its R2C2 header; a HELLO, LSA, BCAST_ETH, FLOW or
 *	ROUTES frame gets a trailer while a key is set, others are left
 *	alone
 *
 * The key is the newest one the neighbour on @port announced, if the node
 * holds it (the previous key during a rotation the neighbour has not
 * made yet), else the node's newest.
 *
 * Context: any; BHs may be enabled.
 * Return: 0, or -ENOMEM (@skb is the caller's to free).
 */
int r2c2_auth_sign(struct r2c2_port *port, struct sk_buff *skb)
{
	struct r2c2_node *node = port->node;
	const struct r2c2_auth_key *key;
	const struct r2c2_auth *a;
	struct r2c2_auth_trl *trl;
	const struct r2c2_nbr *nbr;
	unsigned int len;
	__le64 mac;
	u8 kid;

	if (!rcu_access_pointer(node->auth) || !skb->len ||
	    !r2c2_auth_type(skb->data[0]))
		return 0;
	len = r2c2_auth_ctl_len(skb, false);
	if (!len)
		return 0;	/* malformed: dropped by the receiver anyway */
	if (pskb_trim(skb, len))
		return -ENOMEM;
	if (skb_cloned(skb) || skb_is_nonlinear(skb) ||
	    skb_tailroom(skb) < R2C2_AUTH_LEN) {
		if (skb_is_nonlinear(skb) && skb_linearize(skb))
			return -ENOMEM;
		if (pskb_expand_head(skb, 0, R2C2_AUTH_LEN, GFP_ATOMIC))
			return -ENOMEM;
	}
	trl = skb_put_zero(skb, R2C2_AUTH_LEN);

	rcu_read_lock();
	a = rcu_dereference(node->auth);
	if (!a) {	/* cleared meanwhile: send as without a key */
		skb_trim(skb, len);
		goto out;
	}
	key = &a->cur;
	kid = READ_ONCE(port->auth_kid);
	if (kid && kid != a->cur.id && r2c2_auth_prev_live(a) &&
	    kid == a->prev.id)
		key = &a->prev;
	nbr = rcu_dereference(port->nbr);
	trl->key_id = key->id;
	trl->newest_id = a->cur.id;
	trl->from = htons(READ_ONCE(node->addr));
	trl->to = htons(nbr ? nbr->addr : R2C2_ADDR_NONE);
	trl->seq = cpu_to_be64(r2c2_auth_next_seq(node));
	mac = r2c2_auth_mac(skb->data, len, &key->k);
	memcpy(trl->mac, &mac, sizeof(mac));
out:
	rcu_read_unlock();
	return 0;
}

/*
 * Whether @seq of transmitter @from is new; records it if so. @from is a
 * node address, or R2C2_AUTH_E2E | the address of the source of data
 * frames signed end to end (their sequences are a subsequence of the
 * source's and take paths of their own: state apart). A frame is
 * a replay when its sequence is off our clock by more than
 * r2c2.auth_window_s (when not 0), more than R2C2_AUTH_REORDER_NS older
 * than the newest accepted from @from, one of the R2C2_AUTH_SEEN largest
 * accepted, or below all of them. So once a transmitter's state exists,
 * nothing sent more than R2C2_AUTH_REORDER_NS before its newest frame is
 * taken again, however few frames came since. Context: softirq.
 */
static bool r2c2_auth_fresh(struct r2c2_node *node, unsigned long from,
			    u64 seq)
{
	u64 w = (u64)READ_ONCE(r2c2_auth_window_s) * NSEC_PER_SEC;
	struct r2c2_auth_peer *p;
	unsigned int i, min = 0;
	bool ok = false;

	if (w) {
		u64 now = ktime_get_real_ns();

		if (seq + w < now || seq > now + w)
			return false;
	}
	spin_lock(&node->auth_lock);
	p = xa_load(&node->auth_peers, from);
	if (!p) {
		if (node->nauth_peers >= R2C2_AUTH_PEERS_MAX)
			goto out;
		p = kzalloc(sizeof(*p), GFP_ATOMIC);
		if (!p)
			goto out;
		if (xa_is_err(xa_store(&node->auth_peers, from, p,
				       GFP_ATOMIC))) {
			kfree(p);
			goto out;
		}
		node->nauth_peers++;
	}
	if (p->n && seq + R2C2_AUTH_REORDER_NS < p->max)
		goto out;
	for (i = 0; i < p->n; i++) {
		if (p->seen[i] == seq)
			goto out;
		if (p->seen[i] < p->seen[min])
			min = i;
	}
	if (p->n < R2C2_AUTH_SEEN) {
		p->seen[p->n++] = seq;
	} else {
		if (seq < p->seen[min])
			goto out;
		p->seen[min] = seq;
	}
	p->max = max(p->max, seq);
	p->last = jiffies;
	ok = true;
out:
	spin_unlock(&node->auth_lock);
	return ok;
}

/*
 * Whether the trailer's transmitter @from may have sent a frame of type
 * @type that came on @port: the port's neighbour, when it has one; for
 * a HELLO (which makes neighbours) the source it names. A frame signed
 * for this node but sent on another link is a replay here.
 */
static bool r2c2_auth_from_ok(struct r2c2_port *port, const u8 *frame,
			      u16 from)
{
	const struct r2c2_ctl_hdr *ch = (const struct r2c2_ctl_hdr *)frame;
	const struct r2c2_nbr *nbr;

	if (r2c2_hdr_type(ch->ver_type) == R2C2_T_HELLO)
		return from == ntohs(ch->src);
	nbr = rcu_dereference(port->nbr);
	return !nbr || nbr->addr == from;
}

/* The key of @a with id @id that is accepted now, or NULL. */
static const struct r2c2_auth_key *r2c2_auth_key_of(const struct r2c2_auth *a,
						    u8 id)
{
	if (id == a->cur.id)
		return &a->cur;
	if (r2c2_auth_prev_live(a) && id == a->prev.id)
		return &a->prev;
	return NULL;
}

/**
 * r2c2_auth_rcv() - check and strip the trailer of a received frame
 * @port: the port it came on
 * @skb: a frame at its R2C2 header; a HELLO, LSA, BCAST_ETH, FLOW or
 *	ROUTES frame is checked while a key is set, and trimmed to its body
 *	when good
 *
 * Return: R2C2_S_UNSPEC when the frame may go on; else the drop reason
 * (R2C2_S_DROP_AUTH, R2C2_S_DROP_REPLAY or R2C2_S_DROP_NOMEM), the frame
 * left to the caller to drop.
 *
 * Context: softirq, RCU read side.
 */
enum r2c2_stat r2c2_auth_rcv(struct r2c2_port *port, struct sk_buff *skb)
{
	struct r2c2_node *node = port->node;
	const struct r2c2_auth_key *key;
	const struct r2c2_auth_trl *trl;
	const struct r2c2_auth *a;
	unsigned int len;
	__le64 mac;
	u16 to;
	u8 newest;

	a = rcu_dereference(node->auth);
	if (!a || !r2c2_auth_type(skb->data[0]))
		return R2C2_S_UNSPEC;
	len = r2c2_auth_ctl_len(skb, true);
	if (!len || !pskb_may_pull(skb, len + R2C2_AUTH_LEN))
		return R2C2_S_DROP_AUTH;
	trl = (const struct r2c2_auth_trl *)(skb->data + len);
	key = r2c2_auth_key_of(a, trl->key_id);
	if (!key)
		return R2C2_S_DROP_AUTH;
	mac = r2c2_auth_mac(skb->data, len, &key->k);
	if (crypto_memneq(&mac, trl->mac, sizeof(mac)))
		return R2C2_S_DROP_AUTH;
	/* good MAC: a frame of a key holder, maybe replayed */
	to = ntohs(trl->to);
	if (to != READ_ONCE(node->addr) &&
	    !(to == R2C2_ADDR_NONE &&
	      r2c2_hdr_type(skb->data[0]) == R2C2_T_HELLO))
		return R2C2_S_DROP_REPLAY;
	if (!r2c2_auth_from_ok(port, skb->data, ntohs(trl->from)) ||
	    !r2c2_auth_fresh(node, ntohs(trl->from), be64_to_cpu(trl->seq)))
		return R2C2_S_DROP_REPLAY;
	newest = trl->newest_id;
	if (READ_ONCE(port->auth_kid) != newest)
		WRITE_ONCE(port->auth_kid, newest);
	/* trl is not to be read from here on */
	if (pskb_trim(skb, len))
		return R2C2_S_DROP_NOMEM;
	return R2C2_S_UNSPEC;
}

/* Fill in the trailer at @trl of the data frame at @skb->data, its MAC
 * over everything after the data header up to the MAC.
 */
static void r2c2_auth_data_trl(struct sk_buff *skb, struct r2c2_auth_trl *trl,
			       const struct r2c2_auth_key *key, u8 newest,
			       u64 seq)
{
	const struct r2c2_data_hdr *h = (const void *)skb->data;
	__le64 mac;

	trl->key_id = key->id;
	trl->newest_id = newest;
	trl->from = h->src;
	trl->to = h->dst;
	trl->resv = h->proto;
	trl->seq = cpu_to_be64(seq);
	mac = r2c2_auth_mac(skb->data + R2C2_DATA_HLEN,
			    (u8 *)trl - skb->data - R2C2_DATA_HLEN, &key->k);
	memcpy(trl->mac, &mac, sizeof(mac));
}

/**
 * r2c2_auth_data_sign() - sign a data frame for its destination
 * @node: the node, its source
 * @skb: a data frame holding ARP or ND, at its R2C2 header, its header
 *	filled in; the trailer is appended after the @plen bytes of payload
 *
 * The MAC covers the payload and the trailer's fields, which name the
 * source, the destination and the ethertype (@resv): what the data
 * header says of them outside the MAC must agree. The source cannot know
 * which keys its destination holds during a rotation, so while its
 * previous key is accepted the frame carries two trailers: the first
 * made with the current key, the second with the previous one (its MAC
 * covering the first trailer too). Both carry one sequence.
 *
 * Context: RCU read side, BHs off (r2c0's transmit).
 * Return: 0, or -ENOMEM (@skb is the caller's to free).
 */
int r2c2_auth_data_sign(struct r2c2_node *node, struct sk_buff *skb)
{
	struct r2c2_auth_trl *trl;
	const struct r2c2_auth *a;
	unsigned int n, plen;
	u64 seq;

	a = rcu_dereference(node->auth);
	if (!a)
		return 0;
	n = r2c2_auth_prev_live(a) ? 2 : 1;
	plen = ntohs(((const struct r2c2_data_hdr *)skb->data)->plen);
	if (pskb_trim(skb, R2C2_DATA_HLEN + plen))
		return -ENOMEM;
	if (skb_cloned(skb) || skb_is_nonlinear(skb) ||
	    skb_tailroom(skb) < n * R2C2_AUTH_LEN) {
		if (skb_is_nonlinear(skb) && skb_linearize(skb))
			return -ENOMEM;
		if (pskb_expand_head(skb, 0, n * R2C2_AUTH_LEN, GFP_ATOMIC))
			return -ENOMEM;
	}
	seq = r2c2_auth_next_seq(node);
	trl = skb_put_zero(skb, R2C2_AUTH_LEN);
	r2c2_auth_data_trl(skb, trl, &a->cur, a->cur.id, seq);
	if (n == 2) {
		trl = skb_put_zero(skb, R2C2_AUTH_LEN);
		r2c2_auth_data_trl(skb, trl, &a->prev, a->cur.id, seq);
	}
	return 0;
}

/**
 * r2c2_auth_data_rcv() - check the trailer of a data frame for this node
 * @node: the node, its destination
 * @skb: a data frame holding ARP or ND, at its R2C2 header, whose @plen
 *	bytes of payload are there; the trailers are left for the caller's
 *	trim
 *
 * The first trailer whose key the node accepts is checked (the second is
 * there during its source's rotation only).
 *
 * Return: R2C2_S_UNSPEC when good; else R2C2_S_DROP_AUTH (no trailer, no
 * key accepted, a wrong MAC, or a header that disagrees with what the
 * MAC covers) or R2C2_S_DROP_REPLAY (signed for another node, seen
 * before, or too old).
 *
 * Context: softirq, RCU read side.
 */
enum r2c2_stat r2c2_auth_data_rcv(struct r2c2_node *node, struct sk_buff *skb)
{
	const struct r2c2_auth_key *key = NULL;
	const struct r2c2_auth_trl *trl;
	const struct r2c2_data_hdr *h;
	const struct r2c2_auth *a;
	unsigned int off, i;
	__le64 mac;

	a = rcu_dereference(node->auth);
	if (!a)
		return R2C2_S_UNSPEC;
	off = R2C2_DATA_HLEN +
	      ntohs(((const struct r2c2_data_hdr *)skb->data)->plen);
	for (i = 0; i < 2 && !key; i++, off += R2C2_AUTH_LEN) {
		if (!pskb_may_pull(skb, off + R2C2_AUTH_LEN))
			return R2C2_S_DROP_AUTH;
		trl = (const struct r2c2_auth_trl *)(skb->data + off);
		key = r2c2_auth_key_of(a, trl->key_id);
	}
	if (!key)
		return R2C2_S_DROP_AUTH;
	trl = (const struct r2c2_auth_trl *)(skb->data + off - R2C2_AUTH_LEN);
	h = (const struct r2c2_data_hdr *)skb->data;
	mac = r2c2_auth_mac(skb->data + R2C2_DATA_HLEN,
			    (const u8 *)trl - skb->data - R2C2_DATA_HLEN,
			    &key->k);
	if (crypto_memneq(&mac, trl->mac, sizeof(mac)))
		return R2C2_S_DROP_AUTH;
	if (trl->from != h->src || trl->resv != h->proto)
		return R2C2_S_DROP_AUTH;
	if (ntohs(trl->to) != READ_ONCE(node->addr) ||
	    !r2c2_auth_fresh(node, R2C2_AUTH_E2E | ntohs(trl->from),
			     be64_to_cpu(trl->seq)))
		return R2C2_S_DROP_REPLAY;
	return R2C2_S_UNSPEC;
}

/**
 * r2c2_auth_peers_gc() - forget replay state
 * @node: the node
 * @all: every entry; else those idle longer than r2c2.auth_window_s
 *	(R2C2_AUTH_IDLE_S when it is 0: a transmitter whose clock went
 *	back is locked out for that long, not until the key is removed)
 *
 * Context: process or softirq; takes @node->auth_lock.
 */
void r2c2_auth_peers_gc(struct r2c2_node *node, bool all)
{
	unsigned long idle = READ_ONCE(r2c2_auth_window_s) * HZ, idx;
	struct r2c2_auth_peer *p;

	if (!idle)
		idle = R2C2_AUTH_IDLE_S * HZ;
	spin_lock_bh(&node->auth_lock);
	xa_for_each(&node->auth_peers, idx, p) {
		if (!all && time_before(jiffies, p->last + idle))
			continue;
		xa_erase(&node->auth_peers, idx);
		node->nauth_peers--;
		kfree(p);
	}
	spin_unlock_bh(&node->auth_lock);
}

static void r2c2_auth_free_rcu(struct rcu_head *head)
{
	struct r2c2_auth *a = container_of(head, struct r2c2_auth, rcu);

	memzero_explicit(a, sizeof(*a));
	kfree(a);
}

/* Publish @a (or NULL) as the node's keys, free the old ones. RTNL held. */
static void r2c2_auth_publish(struct r2c2_node *node, struct r2c2_auth *a)
{
	struct r2c2_auth *old;
	int i;

	old = rcu_replace_pointer(node->auth, a, lockdep_rtnl_is_held());
	if (old)
		call_rcu(&old->rcu, r2c2_auth_free_rcu);
	if (!a) {
		r2c2_auth_peers_gc(node, true);
		for (i = 0; i < R2C2_MAX_PORTS; i++) {
			struct r2c2_port *port = rtnl_dereference(node->ports[i]);

			if (port)
				WRITE_ONCE(port->auth_kid, 0);
		}
	}
}

/**
 * r2c2_auth_clear() - forget the rack keys (node teardown)
 * @node: the node
 *
 * Context: RTNL held.
 */
void r2c2_auth_clear(struct r2c2_node *node)
{
	ASSERT_RTNL();
	r2c2_auth_publish(node, NULL);
}

/**
 * r2c2_nl_key_set() - KEY_SET: set or rotate the rack key
 * @skb: the request
 * @info: its attributes: KEY_ID, KEY, optional KEY_OVERLAP_MS
 *
 * Return: 0 or a negative errno, with extack.
 */
int r2c2_nl_key_set(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	const struct r2c2_auth *old;
	struct r2c2_node *node;
	struct r2c2_auth *a;
	const u8 *k;
	u8 id;
	int err;

	if (!info->attrs[R2C2_A_KEY_ID]) {
		NL_SET_ERR_MSG(extack, "KEY_ID is required");
		return -EINVAL;
	}
	if (!info->attrs[R2C2_A_KEY]) {
		NL_SET_ERR_MSG(extack, "KEY is required");
		return -EINVAL;
	}
	id = nla_get_u8(info->attrs[R2C2_A_KEY_ID]);
	k = nla_data(info->attrs[R2C2_A_KEY]);
	if (!memchr_inv(k, 0, R2C2_AUTH_KEY_LEN)) {
		NL_SET_ERR_MSG_ATTR(extack, info->attrs[R2C2_A_KEY],
				    "an all-zero key is refused");
		return -EINVAL;
	}
	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a)
		return -ENOMEM;
	a->cur.id = id;
	memcpy(&a->cur.k, k, R2C2_AUTH_KEY_LEN);
	a->overlap_ms = R2C2_AUTH_OVERLAP_MS_DEFAULT;

	rtnl_lock();
	err = -ENODEV;
	node = r2c2_genl_node(info);
	if (!node)
		goto fail;
	old = rtnl_dereference(node->auth);
	if (old)
		a->overlap_ms = old->overlap_ms;
	if (info->attrs[R2C2_A_KEY_OVERLAP_MS])
		a->overlap_ms = nla_get_u32(info->attrs[R2C2_A_KEY_OVERLAP_MS]);
	if (old && old->cur.id == id) {
		if (memcmp(&old->cur.k, &a->cur.k, sizeof(a->cur.k))) {
			err = -EEXIST;
			NL_SET_ERR_MSG_ATTR(extack, info->attrs[R2C2_A_KEY_ID],
					    "key id in use with another key: rotate to a new id");
			goto fail;
		}
		/* the same key again: only the overlap may change */
		a->prev = old->prev;
		a->has_prev = old->has_prev;
		a->prev_until = old->prev_until;
	} else if (old && r2c2_auth_prev_live(old) && old->prev.id == id) {
		err = -EEXIST;
		NL_SET_ERR_MSG_ATTR(extack, info->attrs[R2C2_A_KEY_ID],
				    "key id is the previous key's: rotate to a new id");
		goto fail;
	} else if (old) {
		a->prev = old->cur;
		a->has_prev = a->overlap_ms > 0;
		a->prev_until = jiffies + msecs_to_jiffies(a->overlap_ms);
	}
	if (!old)	/* sequences go on from the clock */
		atomic64_set(&node->auth_seq, ktime_get_real_ns());
	r2c2_auth_publish(node, a);
	rtnl_unlock();
	return 0;
fail:
	rtnl_unlock();
	kfree_sensitive(a);
	return err;
}

/**
 * r2c2_nl_key_del() - KEY_DEL: forget the keys, or end an overlap
 * @skb: the request
 * @info: its attributes: optional KEY_ID
 *
 * Return: 0 or a negative errno, with extack.
 */
int r2c2_nl_key_del(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	const struct r2c2_auth *old;
	struct r2c2_node *node;
	struct r2c2_auth *a;
	int err = 0;
	u8 id;

	rtnl_lock();
	node = r2c2_genl_node(info);
	if (!node) {
		err = -ENODEV;
		goto out;
	}
	old = rtnl_dereference(node->auth);
	if (!old) {
		err = -ENOENT;
		NL_SET_ERR_MSG(extack, "no key is set");
		goto out;
	}
	if (!info->attrs[R2C2_A_KEY_ID]) {
		r2c2_auth_publish(node, NULL);
		goto out;
	}
	id = nla_get_u8(info->attrs[R2C2_A_KEY_ID]);
	if (id == old->cur.id) {
		r2c2_auth_publish(node, NULL);
		goto out;
	}
	if (!r2c2_auth_prev_live(old) || id != old->prev.id) {
		err = -ENOENT;
		NL_SET_ERR_MSG_ATTR(extack, info->attrs[R2C2_A_KEY_ID],
				    "no key of this id");
		goto out;
	}
	a = kmemdup(old, sizeof(*old), GFP_KERNEL);
	if (!a) {
		err = -ENOMEM;
		goto out;
	}
	memzero_explicit(&a->prev, sizeof(a->prev));
	a->has_prev = false;
	r2c2_auth_publish(node, a);
out:
	rtnl_unlock();
	return err;
}

/**
 * r2c2_auth_fill() - the key ids and overlap of KEY_GET, never the keys
 * @node: the node
 * @msg: the reply
 *
 * Puts KEY_ID and KEY_OVERLAP_MS while a key is set, and KEY_PREV_ID with
 * KEY_PREV_MS while the previous key is accepted; no attribute without a
 * key.
 *
 * Context: RTNL held.
 * Return: 0 or -EMSGSIZE.
 */
int r2c2_auth_fill(struct r2c2_node *node, struct sk_buff *msg)
{
	const struct r2c2_auth *a = rtnl_dereference(node->auth);

	if (!a)
		return 0;
	if (nla_put_u8(msg, R2C2_A_KEY_ID, a->cur.id) ||
	    nla_put_u32(msg, R2C2_A_KEY_OVERLAP_MS, a->overlap_ms))
		return -EMSGSIZE;
	if (r2c2_auth_prev_live(a) &&
	    (nla_put_u8(msg, R2C2_A_KEY_PREV_ID, a->prev.id) ||
	     nla_put_u32(msg, R2C2_A_KEY_PREV_MS,
			 jiffies_to_msecs(a->prev_until - jiffies))))
		return -EMSGSIZE;
	return 0;
}
