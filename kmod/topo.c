// SPDX-License-Identifier: GPL-2.0
/*
 * topo.c - topology discovery: hellos on every port, flooded link-state
 * advertisements, the graph of two-way links and the tables computed
 * from it (paths, broadcast FIB, declared-topology check).
 */
#include <linux/moduleparam.h>
#include <linux/sched/mm.h>
#include <linux/sort.h>

#include "r2c2.h"
#include "events.h"

/*
 * The most nodes a link-state database holds, this node included
 * (Documentation/design.md, "Fabric trust"). Frames are not
 * authenticated: without a bound, a neighbour forging LSAs of thousands
 * of addresses makes every node store and flood them and compute tables
 * of 5 * n^2 bytes. 1,024 is twice the paper's 512-node rack; its tables
 * take 5 MB a node.
 */
static unsigned int r2c2_max_nodes = R2C2_MAX_NODES_DEFAULT;

static int r2c2_max_nodes_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, R2C2_MAX_NODES_MIN,
				     R2C2_MAX_NODES_MAX);
}

static const struct kernel_param_ops r2c2_max_nodes_ops = {
	.set = r2c2_max_nodes_set,
	.get = param_get_uint,
};

module_param_cb(max_nodes, &r2c2_max_nodes_ops, &r2c2_max_nodes, 0644);
MODULE_PARM_DESC(max_nodes,
		 "nodes a link-state database holds, this one included, 2..16384 (default 1024); LSAs of further addresses are refused (drop_lsdb_full)");

/**
 * r2c2_lsa_refresh_ms() - period of our LSA's refresh
 * @node: the node
 *
 * min(30 hellos, 10 s), but at least 100 ms for every LSA in the
 * database. Flooding delivers each refresh to every node once per link
 * (6 copies on a 3D torus), so a node receives about n x degree LSA
 * frames a period: a period growing with n keeps that at degree / 100 ms
 * (60 frames a second on a 3D torus) whatever the rack's size, where a
 * fixed 10 s grows with n (512 nodes: 300 a node, 157,000 a second in a
 * test kernel that runs the whole rack). The refresh only renews soft
 * state: link changes are flooded when they happen, and a link to a
 * vanished node leaves the graph as soon as its other end stops
 * advertising it.
 *
 * Return: the period in ms.
 */
static u32 r2c2_lsa_refresh_ms(const struct r2c2_node *node)
{
	u32 ms = min_t(u32, READ_ONCE(node->hello_ms) * R2C2_LSA_REFRESH_HELLOS,
		       R2C2_LSA_REFRESH_MAX_MS);

	ms = max_t(u32, ms, READ_ONCE(node->nlsa) * R2C2_LSA_REFRESH_PER_NODE_MS);
	return min_t(u32, ms, R2C2_LSA_REFRESH_CAP_MS);
}

static u16 r2c2_lsa_max_age_s(const struct r2c2_node *node)
{
	return max_t(u16, DIV_ROUND_UP(4 * r2c2_lsa_refresh_ms(node), 1000), 2);
}

/**
 * r2c2_lsa_age_bound_s() - the longest an LSA is kept
 *
 * What a node with a full database (r2c2.max_nodes records) announces:
 * 4 refresh periods of 100 ms a node, at least 10 s, at most 900 s; 410 s
 * at the default 1,024 nodes. A longer max_age is clamped to it, so a
 * forged record outlives its forger by that much at most.
 *
 * Return: the bound in seconds.
 */
static u32 r2c2_lsa_age_bound_s(void)
{
	u32 ms = max_t(u32, R2C2_LSA_REFRESH_MAX_MS,
		       READ_ONCE(r2c2_max_nodes) * R2C2_LSA_REFRESH_PER_NODE_MS);

	return DIV_ROUND_UP(4 * min_t(u32, ms, R2C2_LSA_REFRESH_CAP_MS), 1000);
}

/*
 * Whether the database may take the LSA of one more address: the records
 * of other nodes stay below r2c2.max_nodes, leaving room for our own.
 * Context: @node->lock held.
 */
static bool r2c2_lsdb_room(struct r2c2_node *node)
{
	unsigned int others = node->nlsa;

	if (others && xa_load(&node->lsdb, node->addr))
		others--;
	return others + 1 < READ_ONCE(r2c2_max_nodes);
}

/*
 * Whether the @count links @back, advertised by the neighbour that link
 * @e of node @addr names, hold the link back: a link counts when both
 * its ends advertise it.
 */
static bool r2c2_lsa_link_back(const struct r2c2_lsa_ent *e, u16 addr,
			       const struct r2c2_lsa_ent *back,
			       unsigned int count)
{
	unsigned int j;

	for (j = 0; j < count; j++)
		if (back[j].port == e->nbr_port &&
		    back[j].nbr_port == e->port &&
		    ntohs(back[j].nbr) == addr)
			return true;
	return false;
}

/*
 * Whether @rec, the LSA of an address the database does not hold, joins
 * this node: one of its links is advertised back by a record joined to
 * us (or by our own). Context: @node->lock held.
 */
static bool r2c2_lsa_joins(struct r2c2_node *node,
			   const struct r2c2_lsa_rec *rec)
{
	const struct r2c2_lsa_rec *nb;
	unsigned int i;

	for (i = 0; i < rec->count; i++) {
		nb = xa_load(&node->lsdb, ntohs(rec->ent[i].nbr));
		if (nb && (nb->joined || nb->addr == node->addr) &&
		    r2c2_lsa_link_back(&rec->ent[i], rec->addr, nb->ent,
				       nb->count))
			return true;
	}
	return false;
}

/*
 * Make room in a full database for an LSA that joins us: forget the
 * record of a node with no two-way path to us (forged addresses, or a
 * part of the fabric cut off) that expires first, and count it
 * (LSDB_EVICTED). A forger's records then cannot keep real nodes out.
 * Context: @node->lock held.
 *
 * Return: whether a record was forgotten.
 */
static bool r2c2_lsdb_evict(struct r2c2_node *node, struct r2c2_port *port)
{
	struct r2c2_lsa_rec *rec, *victim = NULL;
	unsigned long idx;

	/* every record joined: no scan until that may have changed */
	if (node->lsdb_all_joined)
		return false;
	xa_for_each(&node->lsdb, idx, rec) {
		if (rec->joined || rec->addr == node->addr)
			continue;
		if (!victim || time_before(rec->expires, victim->expires))
			victim = rec;
	}
	if (!victim) {
		node->lsdb_all_joined = true;
		return false;
	}
	xa_erase(&node->lsdb, victim->addr);
	node->nlsa--;
	kfree_rcu(victim, rcu);
	r2c2_stat_add(node, port, R2C2_S_LSDB_EVICTED, 1);
	return true;
}

/*
 * After a computation: which records have a two-way path to us in @t.
 * A record newer than @t's snapshot keeps what it was given.
 */
static void r2c2_lsdb_mark_joined(struct r2c2_node *node,
				  const struct r2c2_tables *t)
{
	const u8 *dist = t->paths.dist + (size_t)t->me * t->n;
	struct r2c2_lsa_rec *rec;
	unsigned long idx;
	int u;

	spin_lock_bh(&node->lock);
	xa_for_each(&node->lsdb, idx, rec) {
		u = r2c2_tables_idx(t, rec->addr);
		if (u >= 0)
			rec->joined = dist[u] != R2C2_DIST_INF;
	}
	node->lsdb_all_joined = false;
	spin_unlock_bh(&node->lock);
}

/* serial number arithmetic: a is newer than b */
static bool r2c2_seq_after(u32 a, u32 b)
{
	return (s32)(a - b) > 0;
}

/**
 * r2c2_recompute_soon() - schedule a computation of the tables
 * @node: the node
 *
 * Throttled like OSPF's SPF hold time: it runs R2C2_RECOMPUTE_DELAY
 * after the change (coalescing a burst of LSAs), but no sooner than
 * @node->recompute_hold after the previous one. r2c2_recompute_work() doubles the hold, up to
 * R2C2_RECOMPUTE_HOLD_MAX, while changes keep coming and resets it after
 * a quiet spell, so an isolated change (a link failure) is still acted
 * on after 15 ms. Without the hold, every node of a rack being set up
 * recomputes its O(n^2) tables every 15 ms for as long as LSAs arrive:
 * O(n^3) in all while n nodes join. It runs on r2c2_tables_wq, a few
 * computations of different nodes at a time (r2c2_tables_wq_init()).
 *
 * Context: any.
 */
static void r2c2_recompute_soon(struct r2c2_node *node)
{
	unsigned long due, now = jiffies, delay = R2C2_RECOMPUTE_DELAY;

	if (!READ_ONCE(node->active))
		return;
	due = READ_ONCE(node->recompute_last) + READ_ONCE(node->recompute_hold);
	if (time_before(now + delay, due))
		delay = due - now;
	queue_delayed_work(r2c2_tables_wq, &node->recompute, delay);
}

/**
 * r2c2_topo_changed() - our links changed: re-originate our LSA
 * @node: the node
 *
 * Context: any.
 */
void r2c2_topo_changed(struct r2c2_node *node)
{
	if (READ_ONCE(node->active))
		queue_work(system_wq, &node->lsa_work);
}

/**
 * r2c2_nbr_clear() - forget the neighbour of a port
 * @port: the port
 *
 * Context: any but hard IRQ.
 */
void r2c2_nbr_clear(struct r2c2_port *port)
{
	struct r2c2_node *node = port->node;
	struct r2c2_nbr *old;

	spin_lock_bh(&node->lock);
	old = rcu_replace_pointer(port->nbr, NULL, lockdep_is_held(&node->lock));
	spin_unlock_bh(&node->lock);
	r2c2_xdp_sync(node, port->num);
	if (old) {
		kfree_rcu(old, rcu);
		r2c2_topo_changed(node);
	}
}

static void r2c2_hello_send(struct r2c2_node *node, struct r2c2_port *port)
{
	struct r2c2_ctl_hdr *ch;
	struct r2c2_hello *hello;
	struct sk_buff *skb;

	skb = r2c2_ctl_alloc(node, R2C2_CTL_HLEN + R2C2_HELLO_LEN);
	if (!skb)
		return;
	ch = (struct r2c2_ctl_hdr *)skb->data;
	hello = (struct r2c2_hello *)(ch + 1);
	ch->ver_type = r2c2_ver_type(R2C2_T_HELLO);
	ch->src = htons(READ_ONCE(node->addr));
	hello->port = port->num;
	hello->interval_ms = htons((u16)READ_ONCE(node->hello_ms));
	hello->topo_hash = htonl(READ_ONCE(node->topo_hash));
	ch->csum = (__force __sum16)r2c2_ctl_csum(ch, hello, R2C2_HELLO_LEN);
	r2c2_stat_add(node, port, R2C2_S_HELLO_TX, 1);
	r2c2_port_xmit(port, skb, port->dev->broadcast);
}

/**
 * r2c2_rcv_hello() - a neighbour's hello
 * @port: port it came on
 * @skb: the frame at its control header; consumed
 *
 * Context: softirq.
 */
void r2c2_rcv_hello(struct r2c2_port *port, struct sk_buff *skb)
{
	struct r2c2_node *node = port->node;
	const struct r2c2_ctl_hdr *ch;
	const struct r2c2_hello *hello;
	struct r2c2_nbr *old, *nbr;
	const u8 *mac;
	enum r2c2_stat why;
	bool changed;
	u16 src, ivl;

	why = R2C2_S_DROP_TRUNCATED;
	if (!pskb_may_pull(skb, R2C2_CTL_HLEN + R2C2_HELLO_LEN))
		goto drop;
	ch = (const struct r2c2_ctl_hdr *)skb->data;
	hello = (const struct r2c2_hello *)(ch + 1);
	mac = eth_hdr(skb)->h_source;
	why = R2C2_S_DROP_CSUM;
	if (r2c2_ctl_csum(ch, hello, R2C2_HELLO_LEN) != (__force u16)ch->csum)
		goto drop;
	r2c2_stat_add(node, port, R2C2_S_HELLO_RX, 1);
	src = ntohs(ch->src);
	ivl = ntohs(hello->interval_ms);
	why = R2C2_S_DROP_LOOP;
	if (src == READ_ONCE(node->addr))
		goto drop;
	why = R2C2_S_DROP_BAD_LSA;
	if (src == R2C2_ADDR_NONE || !ivl || hello->port >= R2C2_MAX_PORTS ||
	    !is_valid_ether_addr(mac))
		goto drop;

	WRITE_ONCE(port->last_heard, jiffies);
	old = rcu_dereference(port->nbr);
	if (old && old->addr == src && old->port == hello->port &&
	    ether_addr_equal(old->mac, mac) && old->interval_ms == ivl &&
	    old->topo_hash == ntohl(hello->topo_hash))
		goto done;
	why = R2C2_S_DROP_NOMEM;
	nbr = kzalloc(sizeof(*nbr), GFP_ATOMIC);
	if (!nbr)
		goto drop;
	nbr->addr = src;
	nbr->port = hello->port;
	ether_addr_copy(nbr->mac, mac);
	nbr->interval_ms = ivl;
	nbr->topo_hash = ntohl(hello->topo_hash);
	spin_lock(&node->lock);
	old = rcu_replace_pointer(port->nbr, nbr, lockdep_is_held(&node->lock));
	changed = !old || old->addr != src || old->port != hello->port;
	if (changed)
		port->sync = true;
	spin_unlock(&node->lock);
	r2c2_xdp_sync(node, port->num);
	if (old)
		kfree_rcu(old, rcu);
	if (changed)
		r2c2_topo_changed(node);
	else
		r2c2_recompute_soon(node);	/* topology hash may differ */
done:
	consume_skb(skb);
	return;
drop:
	r2c2_drop(node, why, port, skb);
}

/* An LSA frame of a record. Context: any; rec stable (lock or RCU). */
static struct sk_buff *r2c2_lsa_skb(struct r2c2_node *node,
				    const struct r2c2_lsa_rec *rec)
{
	unsigned int blen = sizeof(struct r2c2_lsa) +
			    rec->count * sizeof(struct r2c2_lsa_ent);
	struct r2c2_ctl_hdr *ch;
	struct r2c2_lsa *lsa;
	struct sk_buff *skb;

	skb = r2c2_ctl_alloc(node, R2C2_CTL_HLEN + blen);
	if (!skb)
		return NULL;
	ch = (struct r2c2_ctl_hdr *)skb->data;
	lsa = (struct r2c2_lsa *)(ch + 1);
	ch->ver_type = r2c2_ver_type(R2C2_T_LSA);
	ch->src = htons(rec->addr);
	ch->seq = htons((u16)rec->seq);
	lsa->lsa_seq = htonl(rec->seq);
	lsa->count = rec->count;
	lsa->max_age_s = htons(rec->max_age_s);
	memcpy(lsa + 1, rec->ent, rec->count * sizeof(struct r2c2_lsa_ent));
	ch->csum = (__force __sum16)r2c2_ctl_csum(ch, lsa, blen);
	return skb;
}

/*
 * Send copies of skb on every port with a neighbour but @except (a port
 * number or R2C2_PORT_NONE); counts @stat per copy unless it is 0.
 * The caller keeps skb. Context: RCU read side.
 */
static void r2c2_flood(struct r2c2_node *node, struct sk_buff *skb,
		       u8 except, enum r2c2_stat stat)
{
	struct r2c2_port *port;
	struct sk_buff *nskb;
	int i;

	for (i = 0; i < R2C2_MAX_PORTS; i++) {
		port = rcu_dereference(node->ports[i]);
		if (!port || i == except || !rcu_access_pointer(port->nbr))
			continue;
		nskb = pskb_copy(skb, GFP_ATOMIC);
		if (!nskb) {
			r2c2_drop(node, R2C2_S_DROP_NOMEM, port, NULL);
			continue;
		}
		if (r2c2_port_xmit_nbr(port, nskb) == -ENOTCONN) {
			kfree_skb(nskb);
			continue;
		}
		if (stat)
			r2c2_stat_add(node, port, stat, 1);
	}
}

static bool r2c2_lsa_same(const struct r2c2_lsa_rec *a,
			  const struct r2c2_lsa_rec *b)
{
	return a->count == b->count &&
	       !memcmp(a->ent, b->ent, a->count * sizeof(a->ent[0]));
}

/* Send every record of the database on a port (new neighbour). */
static void r2c2_lsdb_sync(struct r2c2_node *node, struct r2c2_port *port)
{
	struct r2c2_lsa_rec *rec;
	struct sk_buff *skb;
	unsigned long idx;

	xa_for_each(&node->lsdb, idx, rec) {
		skb = r2c2_lsa_skb(node, rec);
		if (!skb)
			break;
		if (r2c2_port_xmit_nbr(port, skb) == -ENOTCONN) {
			kfree_skb(skb);
			break;
		}
	}
}

/**
 * r2c2_lsa_work() - originate our LSA; send the database to new neighbours
 * @work: @node->lsa_work
 */
void r2c2_lsa_work(struct work_struct *work)
{
	struct r2c2_node *node = container_of(work, struct r2c2_node, lsa_work);
	struct r2c2_lsa_rec *rec, *old;
	struct r2c2_port *port;
	struct r2c2_nbr *nbr;
	struct sk_buff *skb;
	bool sync[R2C2_MAX_PORTS] = {};
	bool same;
	u32 refresh_ms;
	int i;

	if (!READ_ONCE(node->active))
		return;
	rec = kzalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec) {
		r2c2_drop(node, R2C2_S_DROP_NOMEM, NULL, NULL);
		return;
	}
	rcu_read_lock();
	for (i = 0; i < R2C2_MAX_PORTS; i++) {
		port = rcu_dereference(node->ports[i]);
		if (!port)
			continue;
		nbr = rcu_dereference(port->nbr);
		if (!nbr || !READ_ONCE(port->up))
			continue;
		rec->ent[rec->count].port = i;
		rec->ent[rec->count].nbr_port = nbr->port;
		rec->ent[rec->count].nbr = htons(nbr->addr);
		rec->count++;
	}

	spin_lock_bh(&node->lock);
	rec->addr = node->addr;
	rec->seq = ++node->lsa_seq;
	rec->max_age_s = r2c2_lsa_max_age_s(node);
	rec->expires = jiffies;		/* never checked for our own */
	rec->joined = true;
	old = xa_store(&node->lsdb, rec->addr, rec, GFP_ATOMIC);
	if (xa_is_err(old)) {
		spin_unlock_bh(&node->lock);
		rcu_read_unlock();
		kfree(rec);
		r2c2_drop(node, R2C2_S_DROP_NOMEM, NULL, NULL);
		return;
	}
	if (!old)
		node->nlsa++;
	/* a quarter of jitter: nodes that joined together drift apart */
	refresh_ms = r2c2_lsa_refresh_ms(node);
	refresh_ms -= get_random_u32() % (refresh_ms / 4 + 1);
	node->lsa_refresh = jiffies + msecs_to_jiffies(refresh_ms);
	skb = r2c2_lsa_skb(node, rec);
	for (i = 0; i < R2C2_MAX_PORTS; i++) {
		port = rcu_dereference(node->ports[i]);
		if (port && port->sync) {
			port->sync = false;
			sync[i] = true;
		}
	}
	spin_unlock_bh(&node->lock);
	same = old && r2c2_lsa_same(old, rec);
	if (old)
		kfree_rcu(old, rcu);

	if (skb) {
		r2c2_stat_add(node, NULL, R2C2_S_BCAST_TX, 1);
		r2c2_flood(node, skb, R2C2_PORT_NONE, 0);
		consume_skb(skb);
	}
	for (i = 0; i < R2C2_MAX_PORTS; i++) {
		port = rcu_dereference(node->ports[i]);
		if (sync[i] && port)
			r2c2_lsdb_sync(node, port);
	}
	rcu_read_unlock();
	/* a refresh with the same links changes no table (nor TOPO_EVENT) */
	if (!same)
		r2c2_recompute_soon(node);
}

/**
 * r2c2_rcv_lsa() - a flooded link-state advertisement
 * @port: port it came on
 * @skb: the frame at its control header; consumed
 *
 * A newer LSA is stored and flooded on every other port with a neighbour.
 * The LSA of an address the database does not hold is refused when it
 * holds r2c2.max_nodes already (DROP_LSDB_FULL), unless it joins us by a
 * two-way link and a record of a node without a path to us can go
 * (r2c2_lsdb_evict()); a max_age beyond what
 * any node announces is malformed, one beyond r2c2_lsa_age_bound_s() is
 * clamped. Everything is read from the frame before pskb_trim(), which
 * may give a cloned frame a new head.
 *
 * Context: softirq.
 */
void r2c2_rcv_lsa(struct r2c2_port *port, struct sk_buff *skb)
{
	struct r2c2_node *node = port->node;
	const struct r2c2_ctl_hdr *ch;
	const struct r2c2_lsa *lsa;
	const struct r2c2_lsa_ent *ent;
	struct r2c2_lsa_rec *rec, *old;
	unsigned int len, i, seen = 0;
	enum r2c2_stat why;
	bool bump = false, same;
	u16 src, max_age;
	u32 seq;
	u8 count;

	why = R2C2_S_DROP_TRUNCATED;
	if (!pskb_may_pull(skb, R2C2_CTL_HLEN + sizeof(*lsa)))
		goto drop;
	lsa = (const struct r2c2_lsa *)(skb->data + R2C2_CTL_HLEN);
	count = lsa->count;
	why = R2C2_S_DROP_BAD_LSA;
	if (count > R2C2_MAX_PORTS)
		goto drop;
	len = R2C2_CTL_HLEN + sizeof(*lsa) + count * sizeof(*ent);
	why = R2C2_S_DROP_TRUNCATED;
	if (!pskb_may_pull(skb, len))
		goto drop;
	/* the pull may have moved the head */
	ch = (const struct r2c2_ctl_hdr *)skb->data;
	lsa = (const struct r2c2_lsa *)(ch + 1);
	ent = (const struct r2c2_lsa_ent *)(lsa + 1);
	why = R2C2_S_DROP_CSUM;
	if (r2c2_ctl_csum(ch, lsa, len - R2C2_CTL_HLEN) != (__force u16)ch->csum)
		goto drop;
	src = ntohs(ch->src);
	seq = ntohl(lsa->lsa_seq);
	max_age = ntohs(lsa->max_age_s);
	why = R2C2_S_DROP_BAD_LSA;
	if (src == R2C2_ADDR_NONE || !max_age || max_age > R2C2_LSA_MAX_AGE_S)
		goto drop;
	for (i = 0; i < count; i++) {
		if (ent[i].port >= R2C2_MAX_PORTS ||
		    ent[i].nbr_port >= R2C2_MAX_PORTS ||
		    (seen & BIT(ent[i].port)))
			goto drop;
		seen |= BIT(ent[i].port);
	}

	why = R2C2_S_DROP_DUP;
	if (src == READ_ONCE(node->addr)) {
		/* ours from before a restart: continue above it */
		spin_lock(&node->lock);
		if (r2c2_seq_after(seq, node->lsa_seq)) {
			node->lsa_seq = seq;
			bump = true;
		}
		spin_unlock(&node->lock);
		if (bump)
			r2c2_topo_changed(node);
		goto drop;
	}

	why = R2C2_S_DROP_NOMEM;
	rec = kzalloc(sizeof(*rec), GFP_ATOMIC);
	if (!rec)
		goto drop;
	rec->addr = src;
	rec->seq = seq;
	rec->max_age_s = min_t(u32, max_age, r2c2_lsa_age_bound_s());
	rec->count = count;
	rec->expires = jiffies + rec->max_age_s * HZ;
	memcpy(rec->ent, ent, count * sizeof(*ent));
	/* ch, lsa and ent are not to be read from here on */
	if (pskb_trim(skb, len)) {
		kfree(rec);
		goto drop;
	}

	spin_lock(&node->lock);
	old = xa_load(&node->lsdb, src);
	if (old && !r2c2_seq_after(seq, old->seq)) {
		spin_unlock(&node->lock);
		kfree(rec);
		why = R2C2_S_DROP_DUP;
		goto drop;
	}
	if (old) {
		rec->joined = old->joined;
	} else if (r2c2_lsdb_room(node)) {
		node->lsdb_all_joined = false;
	} else if (r2c2_lsa_joins(node, rec) && r2c2_lsdb_evict(node, port)) {
		rec->joined = true;
	} else {
		spin_unlock(&node->lock);
		kfree(rec);
		why = R2C2_S_DROP_LSDB_FULL;
		goto drop;
	}
	old = xa_store(&node->lsdb, src, rec, GFP_ATOMIC);
	if (xa_is_err(old)) {
		spin_unlock(&node->lock);
		kfree(rec);
		goto drop;
	}
	if (!old)
		node->nlsa++;
	spin_unlock(&node->lock);
	same = old && r2c2_lsa_same(old, rec);
	if (old)
		kfree_rcu(old, rcu);

	r2c2_stat_add(node, port, R2C2_S_BCAST_RX, 1);
	r2c2_flood(node, skb, port->num, R2C2_S_BCAST_FWD);
	consume_skb(skb);
	if (!same)
		r2c2_recompute_soon(node);
	return;
drop:
	r2c2_drop(node, why, port, skb);
}

/**
 * r2c2_lsdb_flush() - forget every LSA, ours included
 * @node: the node
 */
void r2c2_lsdb_flush(struct r2c2_node *node)
{
	struct r2c2_lsa_rec *rec;
	unsigned long idx;

	spin_lock_bh(&node->lock);
	xa_for_each(&node->lsdb, idx, rec) {
		xa_erase(&node->lsdb, idx);
		kfree_rcu(rec, rcu);
	}
	node->nlsa = 0;
	spin_unlock_bh(&node->lock);
}

/* Forget LSAs not refreshed in time. */
static bool r2c2_lsdb_expire(struct r2c2_node *node)
{
	struct r2c2_lsa_rec *rec;
	unsigned long idx;
	bool gone = false;

	spin_lock_bh(&node->lock);
	xa_for_each(&node->lsdb, idx, rec) {
		if (rec->addr == node->addr || time_before(jiffies, rec->expires))
			continue;
		xa_erase(&node->lsdb, idx);
		node->nlsa--;
		kfree_rcu(rec, rcu);
		gone = true;
	}
	spin_unlock_bh(&node->lock);
	return gone;
}

/**
 * r2c2_tables_reap_idle() - free the retired tables of a node at rest
 * @node: the node
 *
 * Without a next computation the retired tables would stay: freed here,
 * once a second from the tick, when their grace period has ended. Skips
 * a turn when the table lock is busy (a long ROUTE_GET holds it; hellos
 * must not wait).
 */
static void r2c2_tables_reap_idle(struct r2c2_node *node)
{
	struct r2c2_tables *t = NULL;

	if (!READ_ONCE(node->tables_retired) ||
	    !mutex_trylock(&node->tbl_lock))
		return;
	if (node->tables_retired &&
	    poll_state_synchronize_rcu(node->tables_retired_gp)) {
		t = node->tables_retired;
		WRITE_ONCE(node->tables_retired, NULL);
	}
	mutex_unlock(&node->tbl_lock);
	r2c2_tables_free(t);
}

/**
 * r2c2_topo_tick() - periodic work: hellos, neighbour and LSA expiry,
 * LSA refresh, garbage collection of flows and duplicate suppression
 * @work: @node->tick
 */
void r2c2_topo_tick(struct work_struct *work)
{
	struct r2c2_node *node = container_of(to_delayed_work(work),
					      struct r2c2_node, tick);
	struct r2c2_port *port;
	struct r2c2_nbr *nbr;
	unsigned long dead;
	int i;

	if (!READ_ONCE(node->active))
		return;
	rcu_read_lock();
	for (i = 0; i < R2C2_MAX_PORTS; i++) {
		port = rcu_dereference(node->ports[i]);
		if (!port)
			continue;
		nbr = rcu_dereference(port->nbr);
		dead = READ_ONCE(port->last_heard) +
		       msecs_to_jiffies(nbr ? nbr->interval_ms * 7 / 2 : 0);
		if (nbr && time_after(jiffies, dead))
			r2c2_nbr_clear(port);
		if (READ_ONCE(port->up))
			r2c2_hello_send(node, port);
	}
	rcu_read_unlock();
	/* what no event tells: a neighbour's XDP (6.1), the ports' modes */
	r2c2_xdp_refresh(node);
	if (r2c2_lsdb_expire(node))
		r2c2_recompute_soon(node);
	if (time_after_eq(jiffies, READ_ONCE(node->lsa_refresh)))
		r2c2_topo_changed(node);
	if (time_after_eq(jiffies, node->flow_gc)) {
		node->flow_gc = jiffies + HZ;
		r2c2_flows_gc(node, false);
		r2c2_dups_gc(node);
		r2c2_auth_peers_gc(node, false);
		r2c2_tables_reap_idle(node);
	}
	queue_delayed_work(system_wq, &node->tick,
			   msecs_to_jiffies(READ_ONCE(node->hello_ms)));
}

/**
 * r2c2_tables_free() - free tables (after a grace period)
 * @t: tables or NULL
 */
void r2c2_tables_free(struct r2c2_tables *t)
{
	if (!t)
		return;
	r2c2_paths_free(&t->paths);
	kvfree(t->addrs);
	kvfree(t->fib_ports);
	kvfree(t->fib_parent);
	kfree(t);
}

/*
 * Allocations of the table computation: charged to the node's memory
 * cgroup (r2c2_recompute_work() makes it the active one), and failing
 * quietly: they grow as 5 * n^2 (the cap bounds n), a failure is counted
 * (drop_nomem) and retried.
 */
#define R2C2_TABLES_GFP	(GFP_KERNEL_ACCOUNT | __GFP_NOWARN)

/* what the graph computation needs of an LSA */
struct r2c2_snap {
	u16 addr;
	u8 count;
	struct r2c2_lsa_ent ent[R2C2_MAX_PORTS];
};

static int r2c2_snap_cmp(const void *a, const void *b)
{
	const struct r2c2_snap *x = a, *y = b;

	return (int)x->addr - (int)y->addr;
}

static int r2c2_snap_idx(const struct r2c2_snap *s, unsigned int n, u16 addr)
{
	int lo = 0, hi = (int)n - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (s[mid].addr == addr)
			return mid;
		if (s[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* Copy the database, sorted, with ourselves in it. */
static struct r2c2_snap *r2c2_lsdb_snapshot(struct r2c2_node *node,
					    unsigned int *np, u16 *me)
{
	struct r2c2_lsa_rec *rec;
	struct r2c2_snap *s;
	unsigned long idx;
	unsigned int cap, n;

again:
	cap = READ_ONCE(node->nlsa) + 8;
	s = kvcalloc(cap + 1, sizeof(*s), R2C2_TABLES_GFP);
	if (!s)
		return NULL;
	n = 0;
	spin_lock_bh(&node->lock);
	if (node->nlsa > cap) {
		spin_unlock_bh(&node->lock);
		kvfree(s);
		goto again;
	}
	*me = node->addr;
	xa_for_each(&node->lsdb, idx, rec) {
		if (n == cap)
			break;
		s[n].addr = rec->addr;
		s[n].count = rec->count;
		memcpy(s[n].ent, rec->ent, sizeof(rec->ent));
		n++;
	}
	spin_unlock_bh(&node->lock);
	if (r2c2_snap_idx(s, n, *me) < 0) {
		s[n].addr = *me;
		n++;
		sort(s, n, sizeof(*s), r2c2_snap_cmp, NULL);
	}
	*np = n;
	return s;
}

/* Whether any neighbour announces a declared topology other than ours. */
static bool r2c2_hash_mismatch(struct r2c2_node *node)
{
	u32 hash = READ_ONCE(node->topo_hash);
	struct r2c2_port *port;
	struct r2c2_nbr *nbr;
	bool bad = false;
	int i;

	rcu_read_lock();
	for (i = 0; i < R2C2_MAX_PORTS; i++) {
		port = rcu_dereference(node->ports[i]);
		nbr = port ? rcu_dereference(port->nbr) : NULL;
		if (nbr && nbr->topo_hash && nbr->topo_hash != hash)
			bad = true;
	}
	rcu_read_unlock();
	return bad;
}

static struct r2c2_tables *r2c2_tables_build(struct r2c2_node *node)
{
	struct r2c2_tables *t = NULL;
	struct r2c2_snap *s;
	unsigned int n, u, i;
	u8 *nbr_port = NULL;
	u16 *nbr = NULL, me;
	u8 dims[R2C2_MAX_DIMS], ndims;
	int err;

	s = r2c2_lsdb_snapshot(node, &n, &me);
	if (!s)
		return NULL;
	t = kzalloc(sizeof(*t), R2C2_TABLES_GFP);
	nbr = kvmalloc_array(n * R2C2_MAX_PORTS, sizeof(*nbr), R2C2_TABLES_GFP);
	nbr_port = kvzalloc(n * R2C2_MAX_PORTS, R2C2_TABLES_GFP);
	if (!t || !nbr || !nbr_port)
		goto err;
	t->addrs = kvmalloc_array(n, sizeof(*t->addrs), R2C2_TABLES_GFP);
	t->fib_ports = kvzalloc(n * R2C2_MAX_TREES, R2C2_TABLES_GFP);
	t->fib_parent = kvmalloc(n * R2C2_MAX_TREES, R2C2_TABLES_GFP);
	if (!t->addrs || !t->fib_ports || !t->fib_parent)
		goto err;
	memset(t->fib_parent, R2C2_PORT_NONE, n * R2C2_MAX_TREES);

	t->n = n;
	for (u = 0; u < n; u++) {
		t->addrs[u] = s[u].addr;
		for (i = 0; i < R2C2_MAX_PORTS; i++)
			nbr[u * R2C2_MAX_PORTS + i] = R2C2_IDX_NONE;
	}
	/* a link counts when both ends advertise it */
	for (u = 0; u < n; u++) {
		for (i = 0; i < s[u].count; i++) {
			const struct r2c2_lsa_ent *e = &s[u].ent[i];
			int v = r2c2_snap_idx(s, n, ntohs(e->nbr));

			if (v < 0 || v == (int)u ||
			    !r2c2_lsa_link_back(e, s[u].addr, s[v].ent,
						s[v].count))
				continue;
			nbr[u * R2C2_MAX_PORTS + e->port] = (u16)v;
			nbr_port[u * R2C2_MAX_PORTS + e->port] = e->nbr_port;
			t->links++;
		}
	}
	err = r2c2_paths_build(&t->paths, (u16)n, nbr, nbr_port);
	if (err)
		goto err;
	i = r2c2_snap_idx(s, n, me);
	t->me = (u16)i;
	r2c2_fib_build(&t->paths, t->me, R2C2_MAX_TREES, t->fib_ports,
		       t->fib_parent);

	spin_lock_bh(&node->lock);
	ndims = node->ndims;
	memcpy(dims, node->dims, sizeof(dims));
	spin_unlock_bh(&node->lock);
	t->topo_ok = -1;
	if (ndims) {
		err = r2c2_torus_match(&t->paths, t->addrs, dims, ndims);
		t->topo_ok = err > 0 && !r2c2_hash_mismatch(node);
	}
	kvfree(s);
	kvfree(nbr);
	kvfree(nbr_port);
	return t;
err:
	kvfree(s);
	kvfree(nbr);
	kvfree(nbr_port);
	r2c2_tables_free(t);
	return NULL;
}

/**
 * r2c2_tables_retire() - set aside tables a computation replaced
 * @node: the node
 * @old: the tables just unpublished, or NULL
 * @gp: set to the grace-period cookie of the tables returned
 *
 * @old waits for its readers in @node->tables_retired. The tables retired
 * before it are returned, for r2c2_tables_reap() once @tbl_lock is
 * released: one set of replaced tables a node at a time, whereas one
 * call_rcu() a computation let them pile up wherever grace periods are
 * slower than computations (seconds on a debug kernel under a flood of
 * LSAs: Slab + Vmalloc 142 MB above its start, where the bound of four
 * nodes' three sets each is 76 MB).
 *
 * Context: @node->tbl_lock held.
 * Return: the tables retired before, or NULL.
 */
struct r2c2_tables *r2c2_tables_retire(struct r2c2_node *node,
				       struct r2c2_tables *old,
				       unsigned long *gp)
{
	struct r2c2_tables *prev = node->tables_retired;

	lockdep_assert_held(&node->tbl_lock);
	*gp = node->tables_retired_gp;
	WRITE_ONCE(node->tables_retired, old);
	if (old)
		node->tables_retired_gp = start_poll_synchronize_rcu();
	return prev;
}

/**
 * r2c2_tables_reap() - free retired tables once readers are done
 * @t: tables r2c2_tables_retire() returned, or NULL
 * @gp: their grace-period cookie
 *
 * Waits only if that grace period has not ended yet.
 *
 * Context: process context, no lock held that a reader of tables takes.
 */
void r2c2_tables_reap(struct r2c2_tables *t, unsigned long gp)
{
	if (!t)
		return;
	cond_synchronize_rcu(gp);
	r2c2_tables_free(t);
}

/**
 * r2c2_recompute_work() - compute and publish the tables
 * @work: @node->recompute
 */
void r2c2_recompute_work(struct work_struct *work)
{
	struct r2c2_node *node = container_of(to_delayed_work(work),
					      struct r2c2_node, recompute);
	struct r2c2_tables *t, *old, *prev;
	struct mem_cgroup *memcg;
	unsigned long now = jiffies, hold, gp;

	mutex_lock(&node->tbl_lock);
	if (!READ_ONCE(node->active)) {
		mutex_unlock(&node->tbl_lock);
		return;
	}
	/* still busy (computed within hold + HOLD_MAX): double the hold */
	hold = node->recompute_hold;
	if (node->recompute_last && hold &&
	    time_before(now, node->recompute_last + hold + R2C2_RECOMPUTE_HOLD_MAX))
		hold = min_t(unsigned long, 2 * hold, R2C2_RECOMPUTE_HOLD_MAX);
	else
		hold = R2C2_RECOMPUTE_DELAY;
	WRITE_ONCE(node->recompute_hold, hold);
	WRITE_ONCE(node->recompute_last, now);
	memcg = set_active_memcg(node->memcg);
	t = r2c2_tables_build(node);
	set_active_memcg(memcg);
	if (!t) {
		mutex_unlock(&node->tbl_lock);
		r2c2_drop(node, R2C2_S_DROP_NOMEM, NULL, NULL);
		queue_delayed_work(r2c2_tables_wq, &node->recompute, HZ / 10);
		return;
	}
	r2c2_lsdb_mark_joined(node, t);
	t->gen = ++node->tables_gen;
	old = rcu_replace_pointer(node->tables, t,
				  lockdep_is_held(&node->tbl_lock));
	prev = r2c2_tables_retire(node, old, &gp);
	r2c2_event_topo(node, t);
	mutex_unlock(&node->tbl_lock);
	r2c2_tables_reap(prev, gp);
}

/*
 * Table computations of every node in this kernel. Each node has its own
 * work item, and a work item never runs twice at once, so with room for
 * two or more at a time one node's computation (long: O(n^2); or waiting
 * for its table lock behind a ROUTE_GET) cannot hold up another
 * namespace's. Few at a time all the same: a test rig runs hundreds of
 * nodes in one kernel, and hundreds of runnable kworkers (one per node,
 * as on system_unbound_wq) starved the nodes' hellos and userspace.
 */
struct workqueue_struct *r2c2_tables_wq;

/**
 * r2c2_tables_wq_init() - make r2c2_tables_wq
 *
 * Unbound, R2C2_TABLES_WQ_ACTIVE computations at a time (as many as
 * CPUs, at least 2, at most 8).
 *
 * Return: 0 or -ENOMEM.
 */
int r2c2_tables_wq_init(void)
{
	r2c2_tables_wq = alloc_workqueue("r2c2_tables", WQ_UNBOUND,
					 R2C2_TABLES_WQ_ACTIVE);
	return r2c2_tables_wq ? 0 : -ENOMEM;
}

/**
 * r2c2_topo_register() - take HELLO and LSA frames from the data plane
 *
 * Context: module init.
 */
void r2c2_topo_register(void)
{
	r2c2_rx_handler_set(R2C2_T_HELLO, r2c2_rcv_hello);
	r2c2_rx_handler_set(R2C2_T_LSA, r2c2_rcv_lsa);
}

/**
 * r2c2_tables_wq_fini() - destroy r2c2_tables_wq (no work may be queued)
 */
void r2c2_tables_wq_fini(void)
{
	destroy_workqueue(r2c2_tables_wq);
	r2c2_tables_wq = NULL;
}
