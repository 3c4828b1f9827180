// SPDX-License-Identifier: GPL-2.0
/*
 * bcast.c - broadcasts over per-source shortest-path trees: origination,
 * relaying by the broadcast FIB, duplicate suppression, local delivery of
 * BCAST_ETH, FLOW and ROUTES frames.
 */
#include "r2c2.h"

/*
 * Send copies of skb on the ports of @mask (to their neighbours);
 * counts @stat per copy unless it is 0. The caller keeps skb.
 * Context: RCU read side.
 */
static void r2c2_send_mask(struct r2c2_node *node, struct sk_buff *skb,
			   u8 mask, enum r2c2_stat stat)
{
	struct r2c2_port *port;
	struct sk_buff *nskb;
	int i;

	for (i = 0; i < R2C2_MAX_PORTS; i++) {
		if (!(mask & BIT(i)))
			continue;
		port = rcu_dereference(node->ports[i]);
		if (!port) {
			r2c2_stat_add(node, NULL, R2C2_S_DROP_NO_PORT, 1);
			continue;
		}
		nskb = pskb_copy(skb, GFP_ATOMIC);
		if (!nskb) {
			r2c2_stat_add(node, port, R2C2_S_DROP_NOMEM, 1);
			continue;
		}
		if (!r2c2_port_xmit_nbr(port, nskb)) {
			r2c2_stat_add(node, port, R2C2_S_DROP_PORT_DOWN, 1);
			kfree_skb(nskb);
			continue;
		}
		if (stat)
			r2c2_stat_add(node, port, stat, 1);
	}
}

/**
 * r2c2_bcast_send() - originate a broadcast over one of our trees
 * @node: the node
 * @skb: control header (space for it) and body; consumed
 * @type: R2C2_T_BCAST_ETH, R2C2_T_FLOW or R2C2_T_ROUTES
 * @csum_len: bytes after the header the checksum covers
 *
 * Fills in the control header (tree round robin, next sequence number).
 *
 * Context: any; BHs may be enabled.
 */
void r2c2_bcast_send(struct r2c2_node *node, struct sk_buff *skb, u8 type,
		     unsigned int csum_len)
{
	struct r2c2_ctl_hdr *ch = (struct r2c2_ctl_hdr *)skb->data;
	const struct r2c2_tables *t;
	unsigned int trees = READ_ONCE(node->trees);
	u8 tree, mask = 0;

	tree = (u8)((unsigned int)atomic_inc_return(&node->bcast_rr) % trees);
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
	r2c2_send_mask(node, skb, mask, 0);
	rcu_read_unlock();
	consume_skb(skb);
}

/* Whether a broadcast of @src with @seq was seen; records it if not. */
static bool r2c2_dup_seen(struct r2c2_node *node, u16 src, u16 seq)
{
	struct r2c2_dup *d;
	bool seen = false;
	s16 diff;

	spin_lock_bh(&node->dup_lock);
	d = xa_load(&node->dups, src);
	if (!d) {
		/* beyond the bound, sources go unprotected (counted) */
		if (node->ndups >= R2C2_DUP_MAX)
			goto out;
		d = kzalloc(sizeof(*d), GFP_ATOMIC);
		if (!d)
			goto out;
		if (xa_is_err(xa_store(&node->dups, src, d, GFP_ATOMIC))) {
			kfree(d);
			goto out;
		}
		node->ndups++;
		d->top = seq;
		d->bits = 1;
		goto out;
	}
	diff = (s16)(seq - d->top);
	if (diff > 0) {
		d->bits = diff >= R2C2_DUP_WIN ? 0 : d->bits << diff;
		d->bits |= 1;
		d->top = seq;
	} else if (-diff >= R2C2_DUP_WIN) {
		/* far behind: a restarted source, or an ancient duplicate */
		if (time_after(jiffies, d->last + R2C2_DUP_RESET)) {
			d->top = seq;
			d->bits = 1;
		} else {
			seen = true;
		}
	} else if (d->bits & BIT_ULL(-diff)) {
		seen = true;
	} else {
		d->bits |= BIT_ULL(-diff);
	}
out:
	if (d && !seen)
		d->last = jiffies;
	spin_unlock_bh(&node->dup_lock);
	return seen;
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

/**
 * r2c2_routes_apply() - apply routing assignments naming this node
 * @node: the node
 * @ent: entries
 * @count: number of entries
 *
 * Context: RCU read side.
 */
void r2c2_routes_apply(struct r2c2_node *node,
		       const struct r2c2_route_ent *ent, unsigned int count)
{
	u16 me = READ_ONCE(node->addr);
	unsigned int i;

	for (i = 0; i < count; i++) {
		if (ntohs(ent[i].src) != me || ent[i].rproto >= __R2C2_RP_MAX)
			continue;
		if (!r2c2_flow_set(node, ntohl(ent[i].flow), R2C2_ADDR_NONE,
				   ent[i].rproto))
			r2c2_stat_add(node, NULL, R2C2_S_FLOW_TABLE_FULL, 1);
	}
}

/**
 * r2c2_rcv_bcast() - a BCAST_ETH, FLOW or ROUTES frame
 * @port: port it came on
 * @skb: the frame at its control header; consumed
 *
 * Relayed on the ports of the FIB entry (source, tree) and delivered
 * locally once.
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
	why = R2C2_S_DROP_DUP;
	if (r2c2_dup_seen(node, src, ntohs(ch->seq)))
		goto drop;
	why = R2C2_S_DROP_NOMEM;
	if (type != R2C2_T_BCAST_ETH && pskb_trim(skb, len))
		goto drop;
	r2c2_stat_add(node, port, R2C2_S_BCAST_RX, 1);

	t = rcu_dereference(node->tables);
	si = t ? r2c2_tables_idx(t, src) : -1;
	if (si >= 0 && t->me != R2C2_IDX_NONE)
		mask = t->fib_ports[(size_t)si * R2C2_MAX_TREES + tree];
	mask &= ~BIT(port->num);	/* never back where it came from */
	r2c2_send_mask(node, skb, mask, R2C2_S_BCAST_FWD);

	switch (type) {
	case R2C2_T_BCAST_ETH:
		skb_pull(skb, R2C2_CTL_HLEN);
		r2c2_deliver_eth(node, skb);
		return;
	case R2C2_T_FLOW:
		r2c2_genl_flow_event(node, src,
				     (const void *)(skb->data + R2C2_CTL_HLEN));
		break;
	case R2C2_T_ROUTES:
		r2c2_genl_routes_event(node, src, (const void *)(skb->data +
				       R2C2_CTL_HLEN + sizeof(struct r2c2_routes)),
				       count);
		r2c2_routes_apply(node, (const void *)(skb->data + R2C2_CTL_HLEN +
				  sizeof(struct r2c2_routes)), count);
		break;
	}
	consume_skb(skb);
	return;
drop:
	r2c2_stat_add(node, port, why, 1);
	kfree_skb(skb);
}

/**
 * r2c2_flow_evt_send() - broadcast a flow event to the rack
 * @node: the node
 * @evt: the event body (wire format)
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
	r2c2_bcast_send(node, skb, R2C2_T_FLOW, R2C2_FLOW_EVT_LEN);
	return 0;
}

/**
 * r2c2_routes_send() - broadcast routing assignments to the rack
 * @node: the node
 * @ent: entries (wire format)
 * @count: 1..R2C2_ROUTES_MAX
 *
 * Entries naming this node are applied locally as well.
 *
 * Return: 0 or -ENOMEM.
 */
int r2c2_routes_send(struct r2c2_node *node,
		     const struct r2c2_route_ent *ent, unsigned int count)
{
	unsigned int blen = sizeof(struct r2c2_routes) + count * sizeof(*ent);
	struct r2c2_routes *r;
	struct sk_buff *skb;

	skb = r2c2_ctl_alloc(node, R2C2_CTL_HLEN + blen);
	if (!skb)
		return -ENOMEM;
	r = (struct r2c2_routes *)(skb->data + R2C2_CTL_HLEN);
	r->count = htons((u16)count);
	memcpy(r + 1, ent, count * sizeof(*ent));
	r2c2_bcast_send(node, skb, R2C2_T_ROUTES, blen);
	rcu_read_lock();
	r2c2_routes_apply(node, ent, count);
	rcu_read_unlock();
	return 0;
}
