// SPDX-License-Identifier: GPL-2.0
/*
 * bcast.c - broadcasts over per-source shortest-path trees: origination,
 * relaying by the broadcast FIB, duplicate suppression, local delivery of
 * BCAST_ETH, FLOW and ROUTES frames, and the local retry of FLOW and
 * ROUTES copies whose transmit failed; and the allocation of every
 * control frame (r2c2_ctl_alloc()).
 */
#include <linux/hash.h>
#include <linux/moduleparam.h>

#include "r2c2.h"
#include "events.h"

/**
 * r2c2_ctl_alloc() - allocate a control frame
 * @node: the node
 * @len: bytes of R2C2 header and body, zeroed
 *
 * Return: an skb with room for any link-layer header, or NULL.
 */
struct sk_buff *r2c2_ctl_alloc(struct r2c2_node *node, unsigned int len)
{
	struct sk_buff *skb;

	/* tailroom for the trailer of a rack key (auth.c) */
	skb = alloc_skb(LL_MAX_HEADER + len + R2C2_AUTH_LEN, GFP_ATOMIC);
	if (!skb) {
		r2c2_drop(node, R2C2_S_DROP_NOMEM, NULL, NULL);
		return NULL;
	}
	skb_reserve(skb, LL_MAX_HEADER);
	skb_put_zero(skb, len);
	skb->priority = TC_PRIO_CONTROL;
	return skb;
}

/*
 * Broadcast retry (Documentation/design.md, "Broadcast retry"). The paper
 * has the node that drops a broadcast tell the source, which sends it
 * again; here the node whose dev_queue_xmit() of a FLOW or ROUTES copy
 * reports a drop holds a copy and sends it again on that port: it reaches
 * exactly the subtree that missed it, with no reverse path to the source
 * and no duplicate anywhere else ((src, seq) suppression drops any that
 * does arrive twice). BCAST_ETH (r2c0's broadcasts: ARP, neighbour
 * discovery) is not retried: its protocols retransmit themselves, and its
 * volume is the application's, which must not crowd out control events
 * in a bounded queue when a port overflows.
 */
static unsigned int r2c2_bcast_retries = R2C2_BRETRY_TRIES_DEFAULT;

static int r2c2_bcast_retries_set(const char *val,
				  const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 0, R2C2_BRETRY_TRIES_MAX);
}

static const struct kernel_param_ops r2c2_bcast_retries_ops = {
	.set = r2c2_bcast_retries_set,
	.get = param_get_uint,
};

module_param_cb(bcast_retries, &r2c2_bcast_retries_ops, &r2c2_bcast_retries,
		0644);
MODULE_PARM_DESC(bcast_retries,
		 "retransmissions of a FLOW or ROUTES copy whose transmit on a port failed, 0..8 (0: off; default 4, after 1, 2, 4, 8 ms)");

/**
 * struct r2c2_bretry_cb - state of a copy waiting for a retry (skb->cb)
 * @due: jiffies of its next try
 * @tries: retransmissions already made of it
 */
struct r2c2_bretry_cb {
	unsigned long due;
	unsigned int tries;
};

static struct r2c2_bretry_cb *r2c2_bretry_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct r2c2_bretry_cb) > sizeof(skb->cb));
	return (struct r2c2_bretry_cb *)skb->cb;
}

/*
 * What a copy that is not held counts, given the verdict: BCAST_RETRY_FAIL
 * (a full queue, the frame's last try made, or retries turned off after
 * it was retried), or nothing (R2C2_S_UNSPEC) for a first failure with
 * retries off: DROP_TX_ERR has it already, as without the retry.
 */
static enum r2c2_stat r2c2_bretry_drop_stat(enum r2c2_bretry_verdict v,
					    unsigned int tries)
{
	return v == R2C2_BR_OFF && !tries ? R2C2_S_UNSPEC :
					    R2C2_S_BCAST_RETRY_FAIL;
}

/**
 * r2c2_bretry_hold() - hold a copy whose transmit failed, for another try
 * @port: the port the transmit failed on
 * @skb: an unsent copy of the frame, at its control header, or NULL when
 *	none could be made; consumed
 * @tries: retransmissions already made of the frame
 *
 * The copy waits r2c2_bretry_delay_ms(@tries) unless the port's queue is
 * full, the frame had its last try (both counted as BCAST_RETRY_FAIL),
 * retries are off (not counted for a first failure: only DROP_TX_ERR
 * then, as without the retry; BCAST_RETRY_FAIL for a copy already
 * retried), or the port is being removed (DROP_PORT_DOWN). With no copy
 * (@skb NULL), a frame that would have waited counts as DROP_NOMEM.
 *
 * Context: any; BHs may be enabled.
 */
static void r2c2_bretry_hold(struct r2c2_port *port, struct sk_buff *skb,
			     unsigned int tries)
{
	struct r2c2_node *node = port->node;
	enum r2c2_bretry_verdict v;
	struct r2c2_bretry_cb *cb;
	enum r2c2_stat why;
	unsigned long due;

	if (!skb) {
		v = r2c2_bretry_verdict(tries, READ_ONCE(r2c2_bcast_retries), 0);
		why = v == R2C2_BR_QUEUE ? R2C2_S_DROP_NOMEM :
					   r2c2_bretry_drop_stat(v, tries);
		goto count;
	}
	due = jiffies + max_t(unsigned long, 1,
			      msecs_to_jiffies(r2c2_bretry_delay_ms(tries)));
	spin_lock_bh(&port->bretry_q.lock);
	why = R2C2_S_DROP_PORT_DOWN;
	if (port->bretry_dead)
		goto drop;
	v = r2c2_bretry_verdict(tries, READ_ONCE(r2c2_bcast_retries),
				skb_queue_len(&port->bretry_q));
	why = r2c2_bretry_drop_stat(v, tries);
	if (v != R2C2_BR_QUEUE)
		goto drop;
	cb = r2c2_bretry_cb(skb);
	cb->due = due;
	cb->tries = tries;
	/* ours until sent: no stale receive device while it waits */
	skb->dev = port->dev;
	__skb_queue_tail(&port->bretry_q, skb);
	if (!timer_pending(&port->bretry_timer) ||
	    time_before(due, port->bretry_timer.expires))
		mod_timer(&port->bretry_timer, due);
	spin_unlock_bh(&port->bretry_q.lock);
	return;
drop:
	spin_unlock_bh(&port->bretry_q.lock);
	kfree_skb(skb);
count:
	if (why != R2C2_S_UNSPEC)
		r2c2_drop(node, why, port, NULL);
}

/* Whether a broadcast copy whose transmit failed may be held. */
static bool r2c2_bretry_on(void)
{
	return READ_ONCE(r2c2_bcast_retries) != 0;
}

/*
 * One retry of a held copy: sent on its port, a spare copy kept in case
 * this try fails too. Context: the port's timer, RCU read side.
 */
static void r2c2_bretry_send(struct r2c2_port *port, struct sk_buff *skb)
{
	struct r2c2_node *node = port->node;
	unsigned int tries = r2c2_bretry_cb(skb)->tries + 1;
	struct sk_buff *spare = NULL;
	int err;

	if (tries < READ_ONCE(r2c2_bcast_retries))
		spare = pskb_copy(skb, GFP_ATOMIC);
	err = r2c2_port_xmit_nbr(port, skb);
	if (err == -ENOTCONN) {
		/* went down or lost its neighbour while the copy waited */
		r2c2_drop(node, R2C2_S_DROP_PORT_DOWN, port, skb);
		kfree_skb(spare);
		return;
	}
	r2c2_stat_add(node, port, R2C2_S_BCAST_RETRY, 1);
	if (err != -ENOBUFS) {
		kfree_skb(spare);
		return;
	}
	r2c2_bretry_hold(port, spare, tries);
}

/* The port's retry timer: sends the copies that are due. */
static void r2c2_bretry_timer(struct timer_list *t)
{
	struct r2c2_port *port = from_timer(port, t, bretry_timer);
	struct sk_buff *skb, *tmp;
	struct sk_buff_head due;
	unsigned long next = 0;
	bool more = false;

	__skb_queue_head_init(&due);
	spin_lock_bh(&port->bretry_q.lock);
	skb_queue_walk_safe(&port->bretry_q, skb, tmp) {
		unsigned long when = r2c2_bretry_cb(skb)->due;

		if (time_after_eq(jiffies, when)) {
			__skb_unlink(skb, &port->bretry_q);
			__skb_queue_tail(&due, skb);
		} else if (!more || time_before(when, next)) {
			next = when;
			more = true;
		}
	}
	if (more && !port->bretry_dead)
		mod_timer(&port->bretry_timer, next);
	spin_unlock_bh(&port->bretry_q.lock);

	rcu_read_lock();
	while ((skb = __skb_dequeue(&due)))
		r2c2_bretry_send(port, skb);
	rcu_read_unlock();
}

/**
 * r2c2_bretry_init() - set up a new port's broadcast retry queue
 * @port: the port, not yet published
 */
void r2c2_bretry_init(struct r2c2_port *port)
{
	skb_queue_head_init(&port->bretry_q);
	timer_setup(&port->bretry_timer, r2c2_bretry_timer, 0);
	port->bretry_dead = false;
}

/**
 * r2c2_bretry_stop() - drop the copies waiting on a port being removed
 * @port: the port, unpublished (readers may still hold it)
 *
 * Readers that still see the port find it dead and drop what they would
 * hold; the timer is stopped and no longer re-armed. The copies dropped
 * count as DROP_PORT_DOWN.
 *
 * Context: process, may sleep (waits for a running timer).
 */
void r2c2_bretry_stop(struct r2c2_port *port)
{
	struct sk_buff_head list;
	unsigned int n;

	__skb_queue_head_init(&list);
	spin_lock_bh(&port->bretry_q.lock);
	port->bretry_dead = true;
	skb_queue_splice_init(&port->bretry_q, &list);
	spin_unlock_bh(&port->bretry_q.lock);
	timer_delete_sync(&port->bretry_timer);
	n = skb_queue_len(&list);
	if (n)
		r2c2_drop_n(port->node, R2C2_S_DROP_PORT_DOWN, port, n);
	__skb_queue_purge(&list);
}

/*
 * Send copies of skb on the ports of @mask (to their neighbours);
 * counts @stat per copy unless it is 0. With @retry, a copy whose
 * transmit fails is held for another try (r2c2_bretry_hold()). The
 * caller keeps skb. Context: RCU read side.
 */
static void r2c2_send_mask(struct r2c2_node *node, struct sk_buff *skb,
			   u8 mask, enum r2c2_stat stat, bool retry)
{
	struct r2c2_port *port;
	struct sk_buff *nskb;
	int i, err;

	for (i = 0; i < R2C2_MAX_PORTS; i++) {
		if (!(mask & BIT(i)))
			continue;
		port = rcu_dereference(node->ports[i]);
		if (!port) {
			r2c2_drop(node, R2C2_S_DROP_NO_PORT, NULL, NULL);
			continue;
		}
		nskb = pskb_copy(skb, GFP_ATOMIC);
		if (!nskb) {
			r2c2_drop(node, R2C2_S_DROP_NOMEM, port, NULL);
			continue;
		}
		err = r2c2_port_xmit_nbr(port, nskb);
		if (err == -ENOTCONN) {
			r2c2_drop(node, R2C2_S_DROP_PORT_DOWN, port, nskb);
			continue;
		}
		if (stat)
			r2c2_stat_add(node, port, stat, 1);
		/* the copy sent is gone: hold another of skb */
		if (err == -ENOBUFS && retry && r2c2_bretry_on())
			r2c2_bretry_hold(port, pskb_copy(skb, GFP_ATOMIC), 0);
	}
}

/**
 * r2c2_bcast_send_on() - originate a broadcast over a given tree
 * @node: the node
 * @skb: control header (space for it) and body; consumed
 * @type: R2C2_T_BCAST_ETH, R2C2_T_FLOW or R2C2_T_ROUTES
 * @csum_len: bytes after the header the checksum covers
 * @tree: tree id, below the node's number of trees
 *
 * Fills in the control header (next sequence number).
 *
 * Context: any; BHs may be enabled.
 */
static void r2c2_bcast_send_on(struct r2c2_node *node, struct sk_buff *skb,
			       u8 type, unsigned int csum_len, u8 tree)
{
	struct r2c2_ctl_hdr *ch = (struct r2c2_ctl_hdr *)skb->data;
	const struct r2c2_tables *t;
	u8 mask = 0;

	ch->ver_type = r2c2_ver_type(type);
	ch->tree = tree;
	ch->src = htons(READ_ONCE(node->addr));
	ch->seq = htons((u16)atomic_inc_return(&node->bcast_seq));
	ch->csum = 0;
	ch->csum = (__force __sum16)r2c2_ctl_csum(ch, ch + 1, csum_len);
	r2c2_stat_add(node, NULL, R2C2_S_BCAST_TX, 1);

	rcu_read_lock();
	t = rcu_dereference(node->tables);
	if (t && t->me != R2C2_IDX_NONE)
		mask = t->fib_ports[(size_t)t->me * R2C2_MAX_TREES + tree];
	r2c2_send_mask(node, skb, mask, 0, type != R2C2_T_BCAST_ETH);
	rcu_read_unlock();
	consume_skb(skb);
}

/**
 * r2c2_bcast_send() - originate a broadcast over one of our trees
 * @node: the node
 * @skb: control header (space for it) and body; consumed
 * @type: R2C2_T_BCAST_ETH, R2C2_T_FLOW or R2C2_T_ROUTES
 * @csum_len: bytes after the header the checksum covers
 *
 * The trees are taken in turn.
 *
 * Context: any; BHs may be enabled.
 */
void r2c2_bcast_send(struct r2c2_node *node, struct sk_buff *skb, u8 type,
		     unsigned int csum_len)
{
	unsigned int trees = READ_ONCE(node->trees);

	r2c2_bcast_send_on(node, skb, type, csum_len,
			   (u8)((unsigned int)atomic_inc_return(&node->bcast_rr) %
				trees));
}

/* Whether @seq was seen in @w; records it if not. */
static bool r2c2_dup_win_seen(struct r2c2_dup_win *w, u16 seq)
{
	int behind;
	s16 diff;

	if (!w->bits) {
		w->top = seq;
		w->bits = 1;
		return false;
	}
	diff = (s16)(seq - w->top);
	if (diff > 0) {
		w->bits = diff >= R2C2_DUP_WIN ? 0 : w->bits << diff;
		w->bits |= 1;
		w->top = seq;
		return false;
	}
	behind = -(int)diff;
	if (behind >= R2C2_DUP_WIN) {
		/* far behind: a restarted source, or an ancient duplicate */
		if (!time_after(jiffies, w->last + R2C2_DUP_RESET))
			return true;
		w->top = seq;
		w->bits = 1;
		return false;
	}
	if (w->bits & BIT_ULL(behind))
		return true;
	w->bits |= BIT_ULL(behind);
	return false;
}

/*
 * Whether a broadcast of @src with @seq was seen; records it if not.
 * BCAST_ETH (@eth) has a window of its own (struct r2c2_dup). The
 * caller has checked that @src is in the tables, so the entries made are
 * bounded by r2c2.max_nodes (and R2C2_DUP_MAX); r2c2_dups_gc() forgets
 * those idle for R2C2_DUP_AGE.
 */
static bool r2c2_dup_seen(struct r2c2_node *node, u16 src, u16 seq, bool eth)
{
	struct r2c2_dup_win *w;
	struct r2c2_dup *d;
	bool seen = false;

	spin_lock_bh(&node->dup_lock);
	d = xa_load(&node->dups, src);
	if (!d) {
		/* beyond the bound, sources go unprotected (counted) */
		if (node->ndups >= R2C2_DUP_MAX)
			goto unchecked;
		d = kzalloc(sizeof(*d), GFP_ATOMIC);
		if (!d)
			goto unchecked;
		if (xa_is_err(xa_store(&node->dups, src, d, GFP_ATOMIC))) {
			kfree(d);
			goto unchecked;
		}
		node->ndups++;
	}
	w = eth ? &d->eth : &d->ctl;
	seen = r2c2_dup_win_seen(w, seq);
	if (!seen) {
		w->last = jiffies;
		d->last = w->last;
	}
	spin_unlock_bh(&node->dup_lock);
	return seen;
unchecked:
	spin_unlock_bh(&node->dup_lock);
	r2c2_stat_add(node, NULL, R2C2_S_BCAST_UNCHECKED, 1);
	return false;
}

/**
 * r2c2_dups_gc() - forget duplicate-suppression entries idle for a while
 * @node: the node
 *
 * An entry idle for R2C2_DUP_AGE (10 s; a source silent for
 * R2C2_DUP_RESET may restart its sequence anyway) is forgotten: sources
 * that left the rack, or that were in the tables only for a while, do
 * not hold the table's room for good.
 *
 * Context: process or softirq; takes @node->dup_lock.
 */
void r2c2_dups_gc(struct r2c2_node *node)
{
	struct r2c2_dup *d;
	unsigned long idx;

	spin_lock_bh(&node->dup_lock);
	xa_for_each(&node->dups, idx, d) {
		if (time_before(jiffies, d->last + R2C2_DUP_AGE))
			continue;
		xa_erase(&node->dups, idx);
		node->ndups--;
		kfree(d);
	}
	spin_unlock_bh(&node->dup_lock);
}

/**
 * r2c2_dups_flush() - forget the duplicate-suppression state
 * @node: the node
 */
void r2c2_dups_flush(struct r2c2_node *node)
{
	struct r2c2_dup *d;
	unsigned long idx;

	spin_lock_bh(&node->dup_lock);
	xa_for_each(&node->dups, idx, d) {
		xa_erase(&node->dups, idx);
		kfree(d);
	}
	node->ndups = 0;
	spin_unlock_bh(&node->dup_lock);
}

/* Whether the sender flow table has flow @id. Context: RCU read side. */
static bool r2c2_flow_known(struct r2c2_node *node, u32 id)
{
	struct r2c2_flow *f;

	hlist_for_each_entry_rcu(f, &node->flows[hash_32(id, R2C2_FLOW_HBITS)],
				 hnode)
		if (f->id == id)
			return true;
	return false;
}

/**
 * r2c2_routes_apply() - apply routing assignments naming this node
 * @node: the node
 * @ent: entries
 * @count: number of entries
 * @remote: the entries came from the fabric (a ROUTES frame), not from a
 *	ROUTES_SEND request of this node
 *
 * A local request may assign a flow before its first packet. Entries from
 * the fabric only change flows this node has (ROUTES_REFUSED counts the
 * others): a flow is announced, and so assigned, only while its source
 * has it, and 212 entries a frame would otherwise fill the flow table.
 *
 * Context: RCU read side.
 */
void r2c2_routes_apply(struct r2c2_node *node,
		       const struct r2c2_route_ent *ent, unsigned int count,
		       bool remote)
{
	u16 me = READ_ONCE(node->addr);
	unsigned int i, refused = 0;
	bool ok;
	u32 id;

	for (i = 0; i < count; i++) {
		if (ntohs(ent[i].src) != me || ent[i].rproto >= __R2C2_RP_MAX)
			continue;
		id = ntohl(ent[i].flow);
		if (remote && !r2c2_flow_known(node, id)) {
			refused++;
			continue;
		}
		ok = r2c2_flow_set(node, id, R2C2_ADDR_NONE, ent[i].rproto);
		if (!ok)
			r2c2_stat_add(node, NULL, R2C2_S_FLOW_TABLE_FULL, 1);
		r2c2_event_route_apply(node, id, ent[i].rproto, remote, ok);
	}
	if (refused)
		r2c2_stat_add(node, NULL, R2C2_S_ROUTES_REFUSED, refused);
}

/**
 * r2c2_rcv_bcast() - a BCAST_ETH, FLOW or ROUTES frame
 * @port: port it came on
 * @skb: the frame at its control header; consumed
 *
 * Relayed on the ports of the FIB entry (source, tree) and delivered
 * locally once. A frame whose source is not in the tables is dropped
 * (DROP_UNKNOWN_SRC) before any duplicate-suppression state is made.
 *
 * Context: softirq.
 */
void r2c2_rcv_bcast(struct r2c2_port *port, struct sk_buff *skb)
{
	struct r2c2_node *node = port->node;
	const struct r2c2_tables *t;
	const struct r2c2_ctl_hdr *ch;
	unsigned int len, count = 0;
	enum r2c2_stat why;
	u8 type, tree, mask = 0;
	u16 src;
	int si;

	type = r2c2_hdr_type(skb->data[0]);
	switch (type) {
	case R2C2_T_BCAST_ETH:
		len = R2C2_CTL_HLEN + ETH_HLEN;
		break;
	case R2C2_T_FLOW:
		len = R2C2_CTL_HLEN + R2C2_FLOW_EVT_LEN;
		break;
	default:
		len = R2C2_CTL_HLEN + sizeof(struct r2c2_routes);
		break;
	}
	why = R2C2_S_DROP_TRUNCATED;
	if (!pskb_may_pull(skb, len))
		goto drop;
	if (type == R2C2_T_ROUTES) {
		const struct r2c2_routes *r = (void *)(skb->data + R2C2_CTL_HLEN);

		count = ntohs(r->count);
		why = R2C2_S_DROP_BAD_LSA;
		if (!count || count > R2C2_ROUTES_MAX)
			goto drop;
		len += count * sizeof(struct r2c2_route_ent);
		why = R2C2_S_DROP_TRUNCATED;
		if (!pskb_may_pull(skb, len))
			goto drop;
	}
	ch = (const struct r2c2_ctl_hdr *)skb->data;
	why = R2C2_S_DROP_CSUM;
	if (r2c2_ctl_csum(ch, ch + 1, len - R2C2_CTL_HLEN) != (__force u16)ch->csum)
		goto drop;
	src = ntohs(ch->src);
	tree = ch->tree;
	why = R2C2_S_DROP_LOOP;
	if (src == READ_ONCE(node->addr))
		goto drop;
	why = R2C2_S_DROP_BAD_LSA;
	if (tree >= R2C2_MAX_TREES || src == R2C2_ADDR_NONE)
		goto drop;
	t = rcu_dereference(node->tables);
	si = t ? r2c2_tables_idx(t, src) : -1;
	why = R2C2_S_DROP_UNKNOWN_SRC;
	if (si < 0)
		goto drop;
	why = R2C2_S_DROP_DUP;
	if (r2c2_dup_seen(node, src, ntohs(ch->seq),
			  type == R2C2_T_BCAST_ETH))
		goto drop;
	why = R2C2_S_DROP_NOMEM;
	if (type != R2C2_T_BCAST_ETH && pskb_trim(skb, len))
		goto drop;
	r2c2_stat_add(node, port, R2C2_S_BCAST_RX, 1);

	if (t->me != R2C2_IDX_NONE)
		mask = t->fib_ports[(size_t)si * R2C2_MAX_TREES + tree];
	mask &= ~BIT(port->num);	/* never back where it came from */
	r2c2_send_mask(node, skb, mask, R2C2_S_BCAST_FWD,
		       type != R2C2_T_BCAST_ETH);

	switch (type) {
	case R2C2_T_BCAST_ETH:
		skb_pull(skb, R2C2_CTL_HLEN);
		/* relayed, but ARP or ND giving a MAC src may not give is
		 * not believed here
		 */
		if (!r2c2_lladdr_ok(node, skb, src)) {
			r2c2_drop(node, R2C2_S_DROP_LLADDR, NULL, skb);
			return;
		}
		r2c2_deliver_eth(node, skb);
		return;
	case R2C2_T_FLOW:
		r2c2_event_flow(node, src,
				(const void *)(skb->data + R2C2_CTL_HLEN), false);
		break;
	case R2C2_T_ROUTES:
		r2c2_event_routes(node, src, (const void *)(skb->data +
				  R2C2_CTL_HLEN + sizeof(struct r2c2_routes)),
				  count, false);
		r2c2_routes_apply(node, (const void *)(skb->data + R2C2_CTL_HLEN +
				  sizeof(struct r2c2_routes)), count, true);
		break;
	}
	consume_skb(skb);
	return;
drop:
	r2c2_drop(node, why, port, skb);
}

/**
 * r2c2_flow_evt_send() - broadcast a flow event to the rack
 * @node: the node
 * @evt: the event body (wire format)
 *
 * The events of one flow (START, FINISH, UPDATE, REFRESH) take the tree
 * its id picks, so that every node hears them in the order they were
 * sent; DIGEST and RESYNC take the trees in turn.
 *
 * Return: 0 or -ENOMEM.
 */
int r2c2_flow_evt_send(struct r2c2_node *node,
		       const struct r2c2_flow_evt *evt)
{
	struct sk_buff *skb;

	skb = r2c2_ctl_alloc(node, R2C2_CTL_HLEN + R2C2_FLOW_EVT_LEN);
	if (!skb)
		return -ENOMEM;
	memcpy(skb->data + R2C2_CTL_HLEN, evt, R2C2_FLOW_EVT_LEN);
	switch (evt->evt_prio >> 4) {
	case R2C2_FE_START:
	case R2C2_FE_FINISH:
	case R2C2_FE_UPDATE:
	case R2C2_FE_REFRESH:
		/*
		 * A flow's events on one tree: trees take different paths,
		 * so a FINISH sent on another tree than its START could
		 * overtake it, and a node that hears them in that order
		 * would hold the finished flow until it expires.
		 */
		r2c2_bcast_send_on(node, skb, R2C2_T_FLOW, R2C2_FLOW_EVT_LEN,
				   (u8)(ntohl(evt->flow) %
					READ_ONCE(node->trees)));
		break;
	default:
		r2c2_bcast_send(node, skb, R2C2_T_FLOW, R2C2_FLOW_EVT_LEN);
	}
	return 0;
}

/**
 * r2c2_routes_send() - broadcast routing assignments to the rack
 * @node: the node
 * @ent: entries (wire format)
 * @count: 1..R2C2_ROUTES_MAX
 *
 * Entries naming this node are applied locally as well. With a rack key
 * set, more than R2C2_ROUTES_MAX_AUTH entries go in two frames.
 *
 * Return: 0 or -ENOMEM.
 */
int r2c2_routes_send(struct r2c2_node *node,
		     const struct r2c2_route_ent *ent, unsigned int count)
{
	unsigned int max = r2c2_auth_on(node) ? R2C2_ROUTES_MAX_AUTH :
						R2C2_ROUTES_MAX;
	unsigned int i, n, blen;
	struct r2c2_routes *r;
	struct sk_buff *skb;

	/* with a rack key the trailer takes the room of a few entries */
	for (i = 0; i < count; i += n) {
		n = min(count - i, max);
		blen = sizeof(struct r2c2_routes) + n * sizeof(*ent);
		skb = r2c2_ctl_alloc(node, R2C2_CTL_HLEN + blen);
		if (!skb)
			return -ENOMEM;
		r = (struct r2c2_routes *)(skb->data + R2C2_CTL_HLEN);
		r->count = htons((u16)n);
		memcpy(r + 1, ent + i, n * sizeof(*ent));
		r2c2_bcast_send(node, skb, R2C2_T_ROUTES, blen);
	}
	rcu_read_lock();
	r2c2_routes_apply(node, ent, count, false);
	rcu_read_unlock();
	return 0;
}
