// SPDX-License-Identifier: GPL-2.0
/*
 * fabric_test.c - KUnit tests of the state a neighbour on a port can
 * make a node keep (kmod/topo.c, kmod/bcast.c): the link-state
 * database's bound on nodes and on LSA lifetimes, LSA frames whose head
 * moves when they are trimmed, duplicate-suppression entries (only for
 * sources in the tables, aged), ROUTES entries (no flow made for them),
 * and table computations of two namespaces that must not wait for each
 * other. The rest of r2c2.ko is stubbed. Names are function__case.
 */
#include <kunit/test.h>
#include <linux/bottom_half.h>
#include <linux/delay.h>
#include <linux/hash.h>
#include <linux/module.h>
#include <linux/skbuff.h>
#include <linux/slab.h>

#include "../kmod/r2c2.h"

/*
 * pskb_trim() of the code under test goes through fab_pskb_trim(): when
 * a test left another clone of the frame in fab_other_clone, it is freed
 * right after the trim, as another holder of the clone (a packet tap on
 * another CPU) may do. If the trim moved the frame to a new head, the old
 * one is freed then, and KASAN reports any read of it.
 */
static int fab_pskb_trim(struct sk_buff *skb, unsigned int len);
#define pskb_trim fab_pskb_trim
#include "../kmod/topo.c"
#include "../kmod/bcast.c"
#undef pskb_trim
#include "../common/paths.c"
#include "../common/trees.c"

static struct sk_buff *fab_other_clone;

static int fab_pskb_trim(struct sk_buff *skb, unsigned int len)
{
	int err = pskb_trim(skb, len);

	kfree_skb(fab_other_clone);
	fab_other_clone = NULL;
	return err;
}

/* ---------------------------------------------------------------- */
/* Stubs for the rest of r2c2.ko                                    */
/* ---------------------------------------------------------------- */

static atomic64_t fab_stats[__R2C2_S_MAX];
static atomic_t fab_flow_sets, fab_flow_events, fab_topo_events;
static struct r2c2_flow fab_flow;

void r2c2_stat_add(struct r2c2_node *node, struct r2c2_port *port,
		   enum r2c2_stat s, u64 v)
{
	atomic64_add(v, &fab_stats[s]);
}

int r2c2_port_xmit(struct r2c2_port *port, struct sk_buff *skb,
		   const u8 *dst)
{
	consume_skb(skb);
	return 0;
}

/* the receive path is not in these tests: HELLO and LSA frames are handed
 * to r2c2_rcv_hello() and r2c2_rcv_lsa() directly
 */
void r2c2_rx_handler_set(u8 type, r2c2_rx_handler handler)
{
}

/* no XDP program in these tests: the maps' entries have nothing to do */
void r2c2_xdp_sync(struct r2c2_node *node, unsigned int num)
{
}

void r2c2_xdp_refresh(struct r2c2_node *node)
{
}

/* the tree byte of the last control frame sent to a neighbour */
static int fab_sent_tree = -1;

int r2c2_port_xmit_nbr(struct r2c2_port *port, struct sk_buff *skb)
{
	if (skb->len >= R2C2_CTL_HLEN)
		fab_sent_tree = ((struct r2c2_ctl_hdr *)skb->data)->tree;
	consume_skb(skb);
	return 0;
}

void r2c2_flows_gc(struct r2c2_node *node, bool all)
{
}

void r2c2_auth_peers_gc(struct r2c2_node *node, bool all)
{
}

struct r2c2_flow *r2c2_flow_set(struct r2c2_node *node, u32 id, u16 dst,
				u8 rproto)
{
	atomic_inc(&fab_flow_sets);
	return &fab_flow;
}

bool r2c2_lladdr_ok(struct r2c2_node *node, const struct sk_buff *skb, u16 src)
{
	return true;
}

void r2c2_deliver_eth(struct r2c2_node *node, struct sk_buff *skb)
{
	consume_skb(skb);
}

void r2c2_drop(struct r2c2_node *node, enum r2c2_stat why,
	       struct r2c2_port *port, struct sk_buff *skb)
{
	r2c2_stat_add(node, port, why, 1);
	kfree_skb(skb);
}

void r2c2_drop_n(struct r2c2_node *node, enum r2c2_stat why,
		 struct r2c2_port *port, unsigned int n)
{
	r2c2_stat_add(node, port, why, n);
}

void r2c2_event_topo(struct r2c2_node *node, const struct r2c2_tables *t)
{
	atomic_inc(&fab_topo_events);
}

void r2c2_event_flow(struct r2c2_node *node, u16 src,
		     const struct r2c2_flow_evt *evt, bool sent)
{
	atomic_inc(&fab_flow_events);
}

void r2c2_event_routes(struct r2c2_node *node, u16 src,
		       const struct r2c2_route_ent *ent, unsigned int count,
		       bool sent)
{
}

void r2c2_event_route_apply(struct r2c2_node *node, u32 flow, u8 rproto,
			    bool remote, bool ok)
{
}

static u64 stat(enum r2c2_stat s)
{
	return atomic64_read(&fab_stats[s]);
}

/* ---------------------------------------------------------------- */
/* Fixtures                                                         */
/* ---------------------------------------------------------------- */

struct fab {
	struct r2c2_node *node;
	struct r2c2_port *port;
};

static void fab_node_fini(struct r2c2_node *node)
{
	struct r2c2_flow *f;
	int i;

	cancel_delayed_work_sync(&node->recompute);
	r2c2_lsdb_flush(node);
	r2c2_dups_flush(node);
	xa_destroy(&node->lsdb);
	xa_destroy(&node->dups);
	r2c2_tables_free(rcu_dereference_protected(node->tables, 1));
	for (i = 0; i < ARRAY_SIZE(node->flows); i++)
		hlist_for_each_entry(f, &node->flows[i], hnode)
			kfree_rcu(f, rcu);
	rcu_barrier();		/* the records freed by kfree_rcu() */
}

/* the nodes of the running test, freed by fab_test_exit() */
static struct r2c2_node *fab_nodes[2];

/* An inactive node (nothing is scheduled) with address @addr. */
static struct r2c2_node *fab_node(struct kunit *test, u16 addr)
{
	struct r2c2_node *node = kzalloc(sizeof(*node), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, node);
	for (i = 0; i < ARRAY_SIZE(fab_nodes) && fab_nodes[i]; i++)
		;
	if (i == ARRAY_SIZE(fab_nodes))
		kfree(node);
	KUNIT_ASSERT_LT(test, i, ARRAY_SIZE(fab_nodes));
	fab_nodes[i] = node;
	node->addr = addr;
	node->hello_ms = R2C2_HELLO_MS_DEFAULT;
	node->trees = R2C2_TREES_DEFAULT;
	spin_lock_init(&node->lock);
	spin_lock_init(&node->dup_lock);
	spin_lock_init(&node->flow_lock);
	mutex_init(&node->tbl_lock);
	xa_init(&node->lsdb);
	xa_init(&node->dups);
	INIT_DELAYED_WORK(&node->recompute, r2c2_recompute_work);
	for (i = 0; i < ARRAY_SIZE(node->flows); i++)
		INIT_HLIST_HEAD(&node->flows[i]);
	return node;
}

static void fab_init_ctx(struct kunit *test, struct fab *f, u16 addr)
{
	f->node = fab_node(test, addr);
	f->port = kunit_kzalloc(test, sizeof(*f->port), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->port);
	f->port->node = f->node;
	f->port->num = 3;
}

/* Tables holding @addrs (ascending; @me among them), no relay anywhere. */
static void fab_tables(struct kunit *test, struct r2c2_node *node,
		       const u16 *addrs, unsigned int n, u16 me)
{
	struct r2c2_tables *t = kzalloc(sizeof(*t), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->n = n;
	t->me = R2C2_IDX_NONE;
	t->addrs = kvmalloc_array(n, sizeof(*t->addrs), GFP_KERNEL);
	t->fib_ports = kvzalloc(n * R2C2_MAX_TREES, GFP_KERNEL);
	t->fib_parent = kvzalloc(n * R2C2_MAX_TREES, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, t->addrs && t->fib_ports && t->fib_parent);
	for (i = 0; i < n; i++) {
		t->addrs[i] = addrs[i];
		if (addrs[i] == me)
			t->me = (u16)i;
	}
	rcu_assign_pointer(node->tables, t);
}

/*
 * An LSA of @src with the @count links @e, followed by @pad bytes in a
 * page fragment (a nonlinear frame longer than its LSA).
 */
static struct sk_buff *fab_lsa_ents(u16 src, u32 seq, u16 max_age,
				    const struct r2c2_lsa_ent *e, u8 count,
				    unsigned int pad)
{
	unsigned int blen = sizeof(struct r2c2_lsa) + count * sizeof(*e);
	struct r2c2_ctl_hdr *ch;
	struct r2c2_lsa *lsa;
	struct sk_buff *skb;
	struct page *page;

	skb = alloc_skb(R2C2_CTL_HLEN + blen, GFP_KERNEL);
	if (!skb)
		return NULL;
	ch = skb_put_zero(skb, R2C2_CTL_HLEN + blen);
	lsa = (struct r2c2_lsa *)(ch + 1);
	ch->ver_type = r2c2_ver_type(R2C2_T_LSA);
	ch->src = htons(src);
	ch->seq = htons((u16)seq);
	lsa->lsa_seq = htonl(seq);
	lsa->count = count;
	lsa->max_age_s = htons(max_age);
	memcpy(lsa + 1, e, count * sizeof(*e));
	ch->csum = (__force __sum16)r2c2_ctl_csum(ch, lsa, blen);
	if (pad) {
		page = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!page) {
			kfree_skb(skb);
			return NULL;
		}
		skb_fill_page_desc(skb, 0, page, 0, pad);
		skb->len += pad;
		skb->data_len += pad;
		skb->truesize += PAGE_SIZE;
	}
	return skb;
}

/* An LSA of @src with one link (port 0 to node 1's port 3), and @pad. */
static struct sk_buff *fab_lsa(u16 src, u32 seq, u16 max_age,
			       unsigned int pad)
{
	const struct r2c2_lsa_ent e = {
		.port = 0, .nbr_port = 3, .nbr = htons(1),
	};

	return fab_lsa_ents(src, seq, max_age, &e, 1, pad);
}

/* An LSA of @src with the @count links @e, lifetime 60 s. */
static struct sk_buff *fab_lsa_links(u16 src, u32 seq,
				     const struct r2c2_lsa_ent *e, u8 count)
{
	return fab_lsa_ents(src, seq, 60, e, count, 0);
}

/* A broadcast of @type from @src: a FLOW event, ROUTES with @count
 * entries naming flows @flow0.. of node @owner, or a BCAST_ETH of an
 * IPv4 packet's Ethernet header.
 */
static struct sk_buff *fab_bcast(u8 type, u16 src, u16 seq, u16 owner,
				 u32 flow0, unsigned int count)
{
	unsigned int blen = type == R2C2_T_FLOW ? R2C2_FLOW_EVT_LEN :
			    type == R2C2_T_BCAST_ETH ? ETH_HLEN :
			    sizeof(struct r2c2_routes) +
			    count * sizeof(struct r2c2_route_ent);
	struct r2c2_route_ent *ent;
	struct r2c2_ctl_hdr *ch;
	struct r2c2_routes *r;
	struct sk_buff *skb;
	unsigned int i;

	skb = alloc_skb(R2C2_CTL_HLEN + blen, GFP_KERNEL);
	if (!skb)
		return NULL;
	ch = skb_put_zero(skb, R2C2_CTL_HLEN + blen);
	ch->ver_type = r2c2_ver_type(type);
	ch->src = htons(src);
	ch->seq = htons(seq);
	if (type == R2C2_T_BCAST_ETH) {
		struct ethhdr *eth = (struct ethhdr *)(ch + 1);

		eth_broadcast_addr(eth->h_dest);
		r2c2_addr_to_mac(src, eth->h_source);
		eth->h_proto = htons(ETH_P_IP);
	}
	if (type == R2C2_T_ROUTES) {
		r = (struct r2c2_routes *)(ch + 1);
		r->count = htons((u16)count);
		ent = (struct r2c2_route_ent *)(r + 1);
		for (i = 0; i < count; i++) {
			ent[i].src = htons(owner);
			ent[i].flow = htonl(flow0 + i);
			ent[i].rproto = R2C2_RP_VLB;
		}
	}
	ch->csum = (__force __sum16)r2c2_ctl_csum(ch, ch + 1, blen);
	return skb;
}

/* Receive as the softirq does. */
static void fab_rcv_lsa(struct fab *f, struct sk_buff *skb)
{
	local_bh_disable();
	rcu_read_lock();
	r2c2_rcv_lsa(f->port, skb);
	rcu_read_unlock();
	local_bh_enable();
}

static void fab_rcv_bcast(struct fab *f, struct sk_buff *skb)
{
	local_bh_disable();
	rcu_read_lock();
	r2c2_rcv_bcast(f->port, skb);
	rcu_read_unlock();
	local_bh_enable();
}

static int fab_test_init(struct kunit *test)
{
	int i;

	for (i = 0; i < __R2C2_S_MAX; i++)
		atomic64_set(&fab_stats[i], 0);
	atomic_set(&fab_flow_sets, 0);
	atomic_set(&fab_flow_events, 0);
	atomic_set(&fab_topo_events, 0);
	fab_other_clone = NULL;
	return 0;
}

static void fab_test_exit(struct kunit *test)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(fab_nodes); i++) {
		if (!fab_nodes[i])
			continue;
		fab_node_fini(fab_nodes[i]);
		kfree(fab_nodes[i]);
		fab_nodes[i] = NULL;
	}
	kfree_skb(fab_other_clone);
	fab_other_clone = NULL;
}

/* ---------------------------------------------------------------- */
/* The link-state database                                          */
/* ---------------------------------------------------------------- */

/*
 * LSAs of more addresses than the bound: the database keeps the bound
 * (ourselves included), refuses and counts the rest, and still takes
 * newer LSAs of the addresses it holds.
 */
static void r2c2_rcv_lsa__node_cap(struct kunit *test)
{
	const unsigned int cap = R2C2_MAX_NODES_DEFAULT, extra = 500;
	struct fab f;
	unsigned int i;
	u64 rx;

	fab_init_ctx(test, &f, 1);
	for (i = 0; i < cap + extra; i++)
		fab_rcv_lsa(&f, fab_lsa(1000 + i, 1, 60, 0));
	/* room is left for our own LSA */
	KUNIT_EXPECT_EQ(test, f.node->nlsa, cap - 1);
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_DROP_LSDB_FULL), (u64)extra + 1);
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_BCAST_RX), (u64)cap - 1);
	KUNIT_EXPECT_NULL(test, xa_load(&f.node->lsdb, 1000 + cap + 10));

	/* a refresh of a held address is taken; a new one still is not */
	rx = stat(R2C2_S_BCAST_RX);
	fab_rcv_lsa(&f, fab_lsa(1000, 2, 60, 0));
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_BCAST_RX), rx + 1);
	fab_rcv_lsa(&f, fab_lsa(60000, 1, 60, 0));
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_DROP_LSDB_FULL), (u64)extra + 2);
	KUNIT_EXPECT_EQ(test, f.node->nlsa, cap - 1);
}

static bool fab_joined(struct fab *f, u16 addr)
{
	const struct r2c2_lsa_rec *rec = xa_load(&f->node->lsdb, addr);

	return rec && rec->joined;
}

/*
 * A database filled with a forger's LSAs (links to us that we do not
 * advertise back) still takes a node that joins: node 2, our neighbour
 * (joined in the tables), links to the newcomer node 3, which advertises
 * the link back. The forged record that expires first goes, counted
 * (lsdb_evicted); a forged newcomer is still refused; a refresh keeps a
 * record joined. Before the eviction node 3 was refused (drop_lsdb_full).
 */
static void r2c2_rcv_lsa__full_takes_joiner(struct kunit *test)
{
	const unsigned int cap = R2C2_MAX_NODES_DEFAULT;
	/* ours: port 3 to node 2's port 0 */
	const struct r2c2_lsa_ent one[] = {
		{ .port = 3, .nbr_port = 0, .nbr = htons(2) },
	};
	/* node 2: port 0 to us, port 1 to node 3's port 2 */
	const struct r2c2_lsa_ent two[] = {
		{ .port = 0, .nbr_port = 3, .nbr = htons(1) },
		{ .port = 1, .nbr_port = 2, .nbr = htons(3) },
	};
	const struct r2c2_lsa_ent three[] = {
		{ .port = 2, .nbr_port = 1, .nbr = htons(2) },
	};
	struct r2c2_lsa_rec *own;
	u64 full;
	struct fab f;
	unsigned int i;

	fab_init_ctx(test, &f, 1);
	own = kzalloc(sizeof(*own), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, own);
	own->addr = 1;
	own->seq = 1;
	own->count = 1;
	own->joined = true;
	own->ent[0] = one[0];
	KUNIT_ASSERT_FALSE(test, xa_is_err(xa_store(&f.node->lsdb, 1, own,
						    GFP_KERNEL)));
	f.node->nlsa = 1;
	fab_rcv_lsa(&f, fab_lsa_links(2, 1, two, 1));
	/* the tables: node 2 has a two-way link to us */
	WRITE_ONCE(f.node->active, true);
	r2c2_recompute_work(&f.node->recompute.work);
	WRITE_ONCE(f.node->active, false);
	KUNIT_EXPECT_TRUE(test, fab_joined(&f, 2));

	for (i = 0; i < cap; i++)
		fab_rcv_lsa(&f, fab_lsa(1000 + i, 1, 60, 0));
	KUNIT_ASSERT_EQ(test, f.node->nlsa, cap);
	KUNIT_EXPECT_FALSE(test, fab_joined(&f, 1000));
	full = stat(R2C2_S_DROP_LSDB_FULL);
	KUNIT_EXPECT_GT(test, full, 0ULL);

	/* node 2's refresh names node 3: still joined */
	fab_rcv_lsa(&f, fab_lsa_links(2, 2, two, 2));
	KUNIT_EXPECT_TRUE(test, fab_joined(&f, 2));
	fab_rcv_lsa(&f, fab_lsa_links(3, 1, three, 1));
	KUNIT_EXPECT_NOT_NULL(test, xa_load(&f.node->lsdb, 3));
	KUNIT_EXPECT_TRUE(test, fab_joined(&f, 3));
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_LSDB_EVICTED), 1ULL);
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_DROP_LSDB_FULL), full);
	KUNIT_EXPECT_NULL(test, xa_load(&f.node->lsdb, 1000));
	KUNIT_EXPECT_EQ(test, f.node->nlsa, cap);

	/* a forged newcomer: refused, nothing evicted for it */
	fab_rcv_lsa(&f, fab_lsa(60000, 1, 60, 0));
	KUNIT_EXPECT_NULL(test, xa_load(&f.node->lsdb, 60000));
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_DROP_LSDB_FULL), full + 1);
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_LSDB_EVICTED), 1ULL);
}

/*
 * A full database of joined records only: a joiner is refused, and the
 * search for a record to forget is not repeated for the next one.
 */
static void r2c2_rcv_lsa__full_all_joined(struct kunit *test)
{
	const unsigned int cap = R2C2_MAX_NODES_DEFAULT;
	const struct r2c2_lsa_ent two[] = {
		{ .port = 1, .nbr_port = 2, .nbr = htons(3) },
	};
	const struct r2c2_lsa_ent three[] = {
		{ .port = 2, .nbr_port = 1, .nbr = htons(2) },
	};
	struct r2c2_lsa_rec *rec;
	unsigned long idx;
	struct fab f;
	unsigned int i;

	fab_init_ctx(test, &f, 1);
	fab_rcv_lsa(&f, fab_lsa_links(2, 1, two, 1));
	for (i = 0; i < cap; i++)
		fab_rcv_lsa(&f, fab_lsa(1000 + i, 1, 60, 0));
	xa_for_each(&f.node->lsdb, idx, rec)
		rec->joined = true;
	fab_rcv_lsa(&f, fab_lsa_links(3, 1, three, 1));
	KUNIT_EXPECT_NULL(test, xa_load(&f.node->lsdb, 3));
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_LSDB_EVICTED), 0ULL);
	KUNIT_EXPECT_TRUE(test, f.node->lsdb_all_joined);
}

/*
 * An LSA lives no longer than a node with a full database would announce
 * (4 refresh periods at 100 ms a node): a longer max_age is clamped to
 * that, one beyond what any node may announce (4 x 900 s) is malformed.
 */
static void r2c2_rcv_lsa__max_age_bound(struct kunit *test)
{
	const struct r2c2_lsa_rec *rec;
	struct fab f;
	unsigned long now;

	fab_init_ctx(test, &f, 1);
	fab_rcv_lsa(&f, fab_lsa(7, 1, 65535, 0));
	KUNIT_EXPECT_NULL(test, xa_load(&f.node->lsdb, 7));
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_DROP_BAD_LSA), 1ULL);

	now = jiffies;
	fab_rcv_lsa(&f, fab_lsa(8, 1, 3600, 0));
	rec = xa_load(&f.node->lsdb, 8);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	/* 1,024 nodes: 4 x 102.4 s */
	KUNIT_EXPECT_LE(test, rec->expires,
			now + DIV_ROUND_UP(4 * R2C2_MAX_NODES_DEFAULT *
					   R2C2_LSA_REFRESH_PER_NODE_MS, 1000) * HZ + 1);

	/* a short one is kept as announced */
	now = jiffies;
	fab_rcv_lsa(&f, fab_lsa(9, 1, 5, 0));
	rec = xa_load(&f.node->lsdb, 9);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_EXPECT_GE(test, rec->expires, now + 5 * HZ);
	KUNIT_EXPECT_LE(test, rec->expires, jiffies + 5 * HZ);
}

/*
 * A cloned nonlinear LSA frame with padding: pskb_trim() gives it a new
 * head, and the other clone, freed meanwhile, frees the old one. The
 * record must come out right and nothing may read the old head (KASAN).
 */
static void r2c2_rcv_lsa__trim_moves_head(struct kunit *test)
{
	const struct r2c2_lsa_rec *rec;
	struct sk_buff *skb, *clone;
	struct fab f;

	fab_init_ctx(test, &f, 1);
	skb = fab_lsa(42, 5, 30, 64);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	clone = skb_clone(skb, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, clone);
	KUNIT_ASSERT_TRUE(test, skb_cloned(clone) && skb_is_nonlinear(clone));
	fab_other_clone = skb;
	fab_rcv_lsa(&f, clone);
	KUNIT_EXPECT_NULL(test, fab_other_clone);	/* the trim ran */
	rec = xa_load(&f.node->lsdb, 42);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_EXPECT_EQ(test, rec->seq, 5U);
	KUNIT_EXPECT_EQ(test, rec->count, 1);
	KUNIT_EXPECT_EQ(test, rec->ent[0].port, 0);
	KUNIT_EXPECT_EQ(test, rec->ent[0].nbr_port, 3);
	KUNIT_EXPECT_EQ(test, ntohs(rec->ent[0].nbr), 1);
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_BCAST_RX), 1ULL);
}

/* ---------------------------------------------------------------- */
/* Broadcasts                                                       */
/* ---------------------------------------------------------------- */

/*
 * Broadcasts of sources that are not in the tables are dropped and
 * counted before any duplicate-suppression entry is made: 5,000 forged
 * sources leave the table empty, and a real source is still protected.
 */
static void r2c2_rcv_bcast__unknown_sources(struct kunit *test)
{
	static const u16 addrs[] = { 1, 2 };
	struct fab f;
	unsigned int i;

	fab_init_ctx(test, &f, 1);
	fab_tables(test, f.node, addrs, ARRAY_SIZE(addrs), 1);
	for (i = 0; i < 5000; i++)
		fab_rcv_bcast(&f, fab_bcast(R2C2_T_FLOW, 3000 + i, 1, 0, 0, 0));
	KUNIT_EXPECT_EQ(test, f.node->ndups, 0U);
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_DROP_UNKNOWN_SRC), 5000ULL);
	KUNIT_EXPECT_EQ(test, atomic_read(&fab_flow_events), 0);
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_BCAST_RX), 0ULL);

	fab_rcv_bcast(&f, fab_bcast(R2C2_T_FLOW, 2, 7, 0, 0, 0));
	fab_rcv_bcast(&f, fab_bcast(R2C2_T_FLOW, 2, 7, 0, 0, 0));
	KUNIT_EXPECT_EQ(test, f.node->ndups, 1U);
	KUNIT_EXPECT_EQ(test, atomic_read(&fab_flow_events), 1);
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_DROP_DUP), 1ULL);
}

/*
 * BCAST_ETH frames, which a rack key does not authenticate, have a
 * duplicate window of their own: one far ahead of the source's FLOW
 * events (what a keyless neighbour forging them in the source's name
 * sends) does not make the next genuine FLOW event a duplicate. Each
 * window still drops its own duplicates.
 */
static void r2c2_rcv_bcast__eth_window_apart(struct kunit *test)
{
	static const u16 addrs[] = { 1, 2 };
	struct fab f;

	fab_init_ctx(test, &f, 1);
	fab_tables(test, f.node, addrs, ARRAY_SIZE(addrs), 1);
	fab_rcv_bcast(&f, fab_bcast(R2C2_T_FLOW, 2, 7, 0, 0, 0));
	fab_rcv_bcast(&f, fab_bcast(R2C2_T_BCAST_ETH, 2, 1007, 0, 0, 0));
	fab_rcv_bcast(&f, fab_bcast(R2C2_T_FLOW, 2, 8, 0, 0, 0));
	KUNIT_EXPECT_EQ(test, atomic_read(&fab_flow_events), 2);
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_BCAST_RX), 3ULL);
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_DROP_DUP), 0ULL);
	KUNIT_EXPECT_EQ(test, f.node->ndups, 1U);

	fab_rcv_bcast(&f, fab_bcast(R2C2_T_BCAST_ETH, 2, 1007, 0, 0, 0));
	fab_rcv_bcast(&f, fab_bcast(R2C2_T_FLOW, 2, 8, 0, 0, 0));
	KUNIT_EXPECT_EQ(test, atomic_read(&fab_flow_events), 2);
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_DROP_DUP), 2ULL);
}

/*
 * A source that finds the duplicate table full is accepted unchecked,
 * and counted: its duplicates get through, and bcast_unchecked says so.
 */
static void r2c2_rcv_bcast__table_full_counted(struct kunit *test)
{
	static const u16 addrs[] = { 1, 2, 3 };
	struct fab f;

	fab_init_ctx(test, &f, 1);
	fab_tables(test, f.node, addrs, ARRAY_SIZE(addrs), 1);
	fab_rcv_bcast(&f, fab_bcast(R2C2_T_FLOW, 2, 7, 0, 0, 0));
	KUNIT_ASSERT_EQ(test, f.node->ndups, 1U);
	f.node->ndups = R2C2_DUP_MAX;	/* as if 4,095 more sources held it */
	fab_rcv_bcast(&f, fab_bcast(R2C2_T_FLOW, 3, 7, 0, 0, 0));
	fab_rcv_bcast(&f, fab_bcast(R2C2_T_FLOW, 3, 7, 0, 0, 0));
	KUNIT_EXPECT_EQ(test, atomic_read(&fab_flow_events), 3);
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_BCAST_UNCHECKED), 2ULL);
	/* a source with an entry is still checked */
	fab_rcv_bcast(&f, fab_bcast(R2C2_T_FLOW, 2, 7, 0, 0, 0));
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_DROP_DUP), 1ULL);
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_BCAST_UNCHECKED), 2ULL);
	f.node->ndups = 1;
}

/*
 * An entry idle for R2C2_DUP_AGE is forgotten by the garbage collection
 * (the node's tick); one in use is kept.
 */
static void r2c2_dups_gc__ages(struct kunit *test)
{
	static const u16 addrs[] = { 1, 2, 3 };
	struct r2c2_dup *d;
	struct fab f;

	fab_init_ctx(test, &f, 1);
	fab_tables(test, f.node, addrs, ARRAY_SIZE(addrs), 1);
	fab_rcv_bcast(&f, fab_bcast(R2C2_T_FLOW, 2, 1, 0, 0, 0));
	fab_rcv_bcast(&f, fab_bcast(R2C2_T_FLOW, 3, 1, 0, 0, 0));
	KUNIT_ASSERT_EQ(test, f.node->ndups, 2U);
	d = xa_load(&f.node->dups, 2);
	KUNIT_ASSERT_NOT_NULL(test, d);
	d->last = jiffies - R2C2_DUP_AGE - 1;
	r2c2_dups_gc(f.node);
	KUNIT_EXPECT_EQ(test, f.node->ndups, 1U);
	KUNIT_EXPECT_NULL(test, xa_load(&f.node->dups, 2));
	KUNIT_EXPECT_NOT_NULL(test, xa_load(&f.node->dups, 3));
	/* 2 starts afresh: a broadcast far behind its old window is new */
	fab_rcv_bcast(&f, fab_bcast(R2C2_T_FLOW, 2, 30000, 0, 0, 0));
	KUNIT_EXPECT_EQ(test, atomic_read(&fab_flow_events), 3);
}

/*
 * ROUTES entries from the fabric set the routing of flows this node
 * has; they make no new flow (212 a frame could fill the flow table).
 */
static void r2c2_rcv_bcast__routes_make_no_flows(struct kunit *test)
{
	static const u16 addrs[] = { 1, 2 };
	struct r2c2_flow *fl;
	struct fab f;

	fab_init_ctx(test, &f, 1);
	fab_tables(test, f.node, addrs, ARRAY_SIZE(addrs), 1);
	fab_rcv_bcast(&f, fab_bcast(R2C2_T_ROUTES, 2, 1, 1, 0x100,
				    R2C2_ROUTES_MAX));
	KUNIT_EXPECT_EQ(test, atomic_read(&fab_flow_sets), 0);
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_ROUTES_REFUSED), (u64)R2C2_ROUTES_MAX);
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_BCAST_RX), 1ULL);

	/* entries for another node are none of ours: not counted */
	fab_rcv_bcast(&f, fab_bcast(R2C2_T_ROUTES, 2, 2, 2, 0x100, 5));
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_ROUTES_REFUSED), (u64)R2C2_ROUTES_MAX);

	/* a flow we have is set */
	fl = kzalloc(sizeof(*fl), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fl);
	fl->id = 0x105;
	hlist_add_head_rcu(&fl->hnode,
			   &f.node->flows[hash_32(fl->id, R2C2_FLOW_HBITS)]);
	fab_rcv_bcast(&f, fab_bcast(R2C2_T_ROUTES, 2, 3, 1, 0x100, 10));
	KUNIT_EXPECT_EQ(test, atomic_read(&fab_flow_sets), 1);
	KUNIT_EXPECT_EQ(test, stat(R2C2_S_ROUTES_REFUSED),
			(u64)R2C2_ROUTES_MAX + 9);
}

/* Broadcast of flow @id's event @type from @f's node: the tree it took */
static int fab_evt_tree(struct kunit *test, struct fab *f, u32 id, u8 type)
{
	struct r2c2_flow_evt evt = {
		.flow = htonl(id), .dst = htons(2), .weight = 1,
		.evt_prio = type << 4,
	};

	fab_sent_tree = -1;
	KUNIT_EXPECT_EQ(test, r2c2_flow_evt_send(f->node, &evt), 0);
	return fab_sent_tree;
}

/*
 * A flow's START, UPDATE, REFRESH and FINISH take one tree, whatever was
 * broadcast between them: trees take different paths, so a FINISH on
 * another tree than its START could overtake it. The flows spread over
 * every tree. Other broadcasts take the trees in turn.
 */
static void r2c2_flow_evt_send__one_tree_a_flow(struct kunit *test)
{
	static const u16 addrs[] = { 1, 2 };
	struct r2c2_tables *t;
	unsigned int seen = 0, rr = 0;
	struct fab f;
	int i, tree;
	u32 id;

	fab_init_ctx(test, &f, 1);
	fab_tables(test, f.node, addrs, 2, 1);
	t = rcu_dereference_protected(f.node->tables, 1);
	for (i = 0; i < R2C2_MAX_TREES; i++)
		t->fib_ports[(size_t)t->me * R2C2_MAX_TREES + i] = BIT(3);
	rcu_assign_pointer(f.node->ports[3], f.port);
	for (id = 0x1000; id < 0x1008; id++) {
		tree = fab_evt_tree(test, &f, id, R2C2_FE_START);
		KUNIT_ASSERT_GE(test, tree, 0);
		KUNIT_EXPECT_LT(test, tree, R2C2_TREES_DEFAULT);
		seen |= BIT(tree);
		/* a digest between: it moves the round robin */
		rr |= BIT(fab_evt_tree(test, &f, 0, R2C2_FE_DIGEST));
		KUNIT_EXPECT_EQ(test, fab_evt_tree(test, &f, id, R2C2_FE_UPDATE), tree);
		KUNIT_EXPECT_EQ(test, fab_evt_tree(test, &f, id, R2C2_FE_REFRESH), tree);
		rr |= BIT(fab_evt_tree(test, &f, 0, R2C2_FE_DIGEST));
		KUNIT_EXPECT_EQ_MSG(test, fab_evt_tree(test, &f, id, R2C2_FE_FINISH), tree,
				    "flow %#x: FINISH on another tree than its START", id);
	}
	KUNIT_EXPECT_EQ(test, seen, GENMASK(R2C2_TREES_DEFAULT - 1, 0));
	KUNIT_EXPECT_EQ(test, rr, GENMASK(R2C2_TREES_DEFAULT - 1, 0));
	RCU_INIT_POINTER(f.node->ports[3], NULL);
}

/* ---------------------------------------------------------------- */
/* Table computation of two namespaces                              */
/* ---------------------------------------------------------------- */

static bool fab_has_tables(struct r2c2_node *node)
{
	return rcu_access_pointer(node->tables);
}

/*
 * Node X's computation is stuck (its table lock is held, as a long
 * ROUTE_GET holds it); node Y's must still run.
 */
static void r2c2_recompute_work__namespaces_independent(struct kunit *test)
{
	struct r2c2_node *x = fab_node(test, 1), *y = fab_node(test, 2);
	int i;

	KUNIT_ASSERT_EQ(test, r2c2_tables_wq_init(), 0);
	WRITE_ONCE(x->active, true);
	WRITE_ONCE(y->active, true);
	mutex_lock(&x->tbl_lock);
	queue_delayed_work(r2c2_tables_wq, &x->recompute, 0);
	msleep(100);		/* X's work runs and waits for the lock */
	queue_delayed_work(r2c2_tables_wq, &y->recompute, 0);
	for (i = 0; i < 1500 && !fab_has_tables(y); i++)
		msleep(20);
	KUNIT_EXPECT_TRUE_MSG(test, fab_has_tables(y),
			      "Y's tables were not computed in 30 s while X's computation waited");
	KUNIT_EXPECT_FALSE(test, fab_has_tables(x));
	mutex_unlock(&x->tbl_lock);
	flush_delayed_work(&x->recompute);
	flush_delayed_work(&y->recompute);
	KUNIT_EXPECT_TRUE(test, fab_has_tables(x));
	KUNIT_EXPECT_TRUE(test, fab_has_tables(y));
	WRITE_ONCE(x->active, false);
	WRITE_ONCE(y->active, false);
	cancel_delayed_work_sync(&x->recompute);
	cancel_delayed_work_sync(&y->recompute);
	r2c2_tables_wq_fini();
}

static struct kunit_case fab_cases[] = {
	KUNIT_CASE(r2c2_rcv_lsa__node_cap),
	KUNIT_CASE(r2c2_rcv_lsa__full_takes_joiner),
	KUNIT_CASE(r2c2_rcv_lsa__full_all_joined),
	KUNIT_CASE(r2c2_rcv_lsa__max_age_bound),
	KUNIT_CASE(r2c2_rcv_lsa__trim_moves_head),
	KUNIT_CASE(r2c2_rcv_bcast__unknown_sources),
	KUNIT_CASE(r2c2_rcv_bcast__eth_window_apart),
	KUNIT_CASE(r2c2_rcv_bcast__table_full_counted),
	KUNIT_CASE(r2c2_dups_gc__ages),
	KUNIT_CASE(r2c2_rcv_bcast__routes_make_no_flows),
	KUNIT_CASE(r2c2_flow_evt_send__one_tree_a_flow),
	KUNIT_CASE(r2c2_recompute_work__namespaces_independent),
	{}
};

static struct kunit_suite fab_suite = {
	.name = "r2c2_fabric",
	.init = fab_test_init,
	.exit = fab_test_exit,
	.test_cases = fab_cases,
};

kunit_test_suite(fab_suite);

MODULE_DESCRIPTION("KUnit tests of r2c2 LSA, broadcast and table-work handling across nodes");
MODULE_LICENSE("GPL");
