// SPDX-License-Identifier: GPL-2.0
/*
 * auth_test.c - KUnit tests of kmod/auth.c: the trailer a control frame
 * gets on its way out, its check on the way in (MAC, key ids during a
 * rotation, replays), and the cost of the MAC and of a sign and check
 * per frame. One node signs and checks its own frames (its neighbour on
 * the port is itself). Names are function__case.
 */
#include <kunit/test.h>
#include <linux/bottom_half.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/skbuff.h>
#include <linux/slab.h>

#include "../kmod/r2c2.h"
#include "../kmod/auth.c"

/* ---------------------------------------------------------------- */
/* Stubs for the rest of r2c2.ko                                    */
/* ---------------------------------------------------------------- */

unsigned int r2c2_net_id;

/* core.c's; auth.c's netlink handlers are not run here */
struct r2c2_node *r2c2_genl_node(struct genl_info *info)
{
	return NULL;
}

/* ---------------------------------------------------------------- */
/* Fixtures                                                         */
/* ---------------------------------------------------------------- */

#define ADDR	5

struct au {
	struct r2c2_node *node;
	struct r2c2_port *port;
	struct r2c2_nbr *nbr;
};

static struct r2c2_auth *au_keys(u8 id, u8 fill, u8 prev_id, u8 prev_fill,
				 unsigned long prev_for)
{
	struct r2c2_auth *a = kzalloc(sizeof(*a), GFP_KERNEL);

	a->cur.id = id;
	memset(&a->cur.k, fill, sizeof(a->cur.k));
	if (prev_id) {
		a->prev.id = prev_id;
		memset(&a->prev.k, prev_fill, sizeof(a->prev.k));
		a->has_prev = true;
		a->prev_until = jiffies + prev_for;
	}
	return a;
}

/* Replace the node's keys (the test is the only writer). */
static void au_set(struct au *au, struct r2c2_auth *a)
{
	struct r2c2_auth *old = rcu_dereference_protected(au->node->auth, 1);

	rcu_assign_pointer(au->node->auth, a);
	if (old) {
		synchronize_rcu();
		kfree_sensitive(old);
	}
}

static int au_init(struct kunit *test)
{
	struct au *au = kunit_kzalloc(test, sizeof(*au), GFP_KERNEL);

	au->node = kunit_kzalloc(test, sizeof(*au->node), GFP_KERNEL);
	au->port = kunit_kzalloc(test, sizeof(*au->port), GFP_KERNEL);
	au->nbr = kunit_kzalloc(test, sizeof(*au->nbr), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, au->node && au->port && au->nbr);
	au->node->addr = ADDR;
	spin_lock_init(&au->node->auth_lock);
	xa_init(&au->node->auth_peers);
	au->port->node = au->node;
	au->nbr->addr = ADDR;
	RCU_INIT_POINTER(au->port->nbr, au->nbr);
	au_set(au, au_keys(1, 0x11, 0, 0, 0));
	test->priv = au;
	return 0;
}

static void au_exit(struct kunit *test)
{
	struct au *au = test->priv;

	au_set(au, NULL);
	r2c2_auth_peers_gc(au->node, true);
	xa_destroy(&au->node->auth_peers);
}

/* An LSA of @count entries, as r2c2_ctl_alloc() makes it. */
static struct sk_buff *au_lsa(unsigned int count)
{
	unsigned int len = R2C2_CTL_HLEN + sizeof(struct r2c2_lsa) +
			   count * sizeof(struct r2c2_lsa_ent);
	struct sk_buff *skb = alloc_skb(64 + len + R2C2_AUTH_LEN, GFP_KERNEL);
	struct r2c2_ctl_hdr *ch;
	struct r2c2_lsa *lsa;

	skb_reserve(skb, 64);
	ch = skb_put_zero(skb, len);
	lsa = (struct r2c2_lsa *)(ch + 1);
	ch->ver_type = r2c2_ver_type(R2C2_T_LSA);
	ch->src = htons(9);
	lsa->count = count;
	lsa->lsa_seq = htonl(7);
	return skb;
}

static enum r2c2_stat au_rcv(struct au *au, struct sk_buff *skb)
{
	enum r2c2_stat why;

	local_bh_disable();
	rcu_read_lock();
	why = r2c2_auth_rcv(au->port, skb);
	rcu_read_unlock();
	local_bh_enable();
	return why;
}

static unsigned int lsa_len(unsigned int count)
{
	return R2C2_CTL_HLEN + sizeof(struct r2c2_lsa) +
	       count * sizeof(struct r2c2_lsa_ent);
}

/* A BCAST_ETH frame: r2c0's Ethernet header and an ARP packet. */
#define BCAST_LEN	(R2C2_CTL_HLEN + ETH_HLEN + 28)

static struct sk_buff *au_bcast(void)
{
	struct sk_buff *skb = alloc_skb(64 + BCAST_LEN + R2C2_AUTH_LEN,
					GFP_KERNEL);
	struct r2c2_ctl_hdr *ch;
	u8 *eth;

	skb_reserve(skb, 64);
	ch = skb_put_zero(skb, BCAST_LEN);
	ch->ver_type = r2c2_ver_type(R2C2_T_BCAST_ETH);
	ch->src = htons(9);
	eth = (u8 *)(ch + 1);
	memset(eth, 0xff, ETH_ALEN);
	eth[12] = 0x08;
	eth[13] = 0x06;
	eth[ETH_HLEN + 7] = 1;		/* ARP request */
	return skb;
}

/* A data frame of node 7 for this node holding an ARP packet. */
#define DATA_PLEN	28

static struct sk_buff *au_data(void)
{
	struct sk_buff *skb = alloc_skb(64 + R2C2_DATA_HLEN + DATA_PLEN +
					R2C2_AUTH_LEN, GFP_KERNEL);
	struct r2c2_data_hdr *h;

	skb_reserve(skb, 64);
	h = skb_put_zero(skb, R2C2_DATA_HLEN + DATA_PLEN);
	h->ver_type = r2c2_ver_type(R2C2_T_DATA);
	h->src = htons(7);
	h->dst = htons(ADDR);
	h->plen = htons(DATA_PLEN);
	h->proto = htons(ETH_P_ARP);
	((u8 *)(h + 1))[7] = 2;		/* ARP reply */
	return skb;
}

static int au_data_sign(struct au *au, struct sk_buff *skb)
{
	int err;

	local_bh_disable();
	rcu_read_lock();
	err = r2c2_auth_data_sign(au->node, skb);
	rcu_read_unlock();
	local_bh_enable();
	return err;
}

static enum r2c2_stat au_data_rcv(struct au *au, struct sk_buff *skb)
{
	enum r2c2_stat why;

	local_bh_disable();
	rcu_read_lock();
	why = r2c2_auth_data_rcv(au->node, skb);
	rcu_read_unlock();
	local_bh_enable();
	return why;
}

/* ---------------------------------------------------------------- */
/* Tests                                                            */
/* ---------------------------------------------------------------- */

static void r2c2_auth_sign__appends_trailer(struct kunit *test)
{
	struct au *au = test->priv;
	struct sk_buff *skb = au_lsa(3);
	const struct r2c2_auth_trl *t;

	KUNIT_ASSERT_EQ(test, r2c2_auth_sign(au->port, skb), 0);
	KUNIT_ASSERT_EQ(test, skb->len, lsa_len(3) + R2C2_AUTH_LEN);
	t = (const void *)(skb->data + lsa_len(3));
	KUNIT_EXPECT_EQ(test, t->key_id, 1);
	KUNIT_EXPECT_EQ(test, t->newest_id, 1);
	KUNIT_EXPECT_EQ(test, ntohs(t->from), ADDR);
	KUNIT_EXPECT_EQ(test, ntohs(t->to), ADDR);
	KUNIT_EXPECT_EQ(test, t->resv, 0);
	kfree_skb(skb);
}

static void r2c2_auth_sign__data_untouched(struct kunit *test)
{
	struct au *au = test->priv;
	struct sk_buff *skb = alloc_skb(128, GFP_KERNEL);

	((u8 *)skb_put_zero(skb, R2C2_DATA_HLEN))[0] = r2c2_ver_type(R2C2_T_DATA);
	KUNIT_EXPECT_EQ(test, r2c2_auth_sign(au->port, skb), 0);
	KUNIT_EXPECT_EQ(test, skb->len, R2C2_DATA_HLEN);
	kfree_skb(skb);
}

/* r2c0's broadcasts (ARP, ND) are signed hop by hop like FLOW frames,
 * the trailer after the whole Ethernet frame, and trimmed on receipt.
 */
static void r2c2_auth_sign__bcast_eth(struct kunit *test)
{
	struct au *au = test->priv;
	struct sk_buff *skb = au_bcast(), *copy;
	const struct r2c2_auth_trl *t;

	KUNIT_ASSERT_EQ(test, r2c2_auth_sign(au->port, skb), 0);
	KUNIT_ASSERT_EQ(test, skb->len, BCAST_LEN + R2C2_AUTH_LEN);
	t = (const void *)(skb->data + BCAST_LEN);
	KUNIT_EXPECT_EQ(test, t->key_id, 1);
	KUNIT_EXPECT_EQ(test, ntohs(t->from), ADDR);
	copy = skb_copy(skb, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, au_rcv(au, skb), R2C2_S_UNSPEC);
	KUNIT_EXPECT_EQ(test, skb->len, BCAST_LEN);
	KUNIT_EXPECT_EQ(test, au_rcv(au, copy), R2C2_S_DROP_REPLAY);
	kfree_skb(skb);
	kfree_skb(copy);
}

/* Without a trailer, or with its Ethernet frame changed: refused. */
static void r2c2_auth_rcv__bcast_eth_forged(struct kunit *test)
{
	struct au *au = test->priv;
	struct sk_buff *skb = au_bcast(), *bare = au_bcast();
	struct sk_buff *tiny = au_bcast();

	KUNIT_EXPECT_EQ(test, au_rcv(au, bare), R2C2_S_DROP_AUTH);
	KUNIT_ASSERT_EQ(test, r2c2_auth_sign(au->port, skb), 0);
	skb->data[R2C2_CTL_HLEN + ETH_HLEN + 8] ^= 1;	/* the ARP sender */
	KUNIT_EXPECT_EQ(test, au_rcv(au, skb), R2C2_S_DROP_AUTH);
	/* shorter than an Ethernet header and a trailer */
	skb_trim(tiny, R2C2_CTL_HLEN + ETH_HLEN + R2C2_AUTH_LEN - 1);
	KUNIT_EXPECT_EQ(test, au_rcv(au, tiny), R2C2_S_DROP_AUTH);
	kfree_skb(skb);
	kfree_skb(bare);
	kfree_skb(tiny);
}

/* A data frame holding ARP: signed by its source for its destination,
 * accepted once, its trailer left after plen for the caller's trim.
 */
static void r2c2_auth_data__signed_once(struct kunit *test)
{
	struct au *au = test->priv;
	struct sk_buff *skb = au_data(), *copy;
	const struct r2c2_auth_trl *t;

	KUNIT_ASSERT_EQ(test, au_data_sign(au, skb), 0);
	KUNIT_ASSERT_EQ(test, skb->len,
			R2C2_DATA_HLEN + DATA_PLEN + R2C2_AUTH_LEN);
	t = (const void *)(skb->data + R2C2_DATA_HLEN + DATA_PLEN);
	KUNIT_EXPECT_EQ(test, ntohs(t->from), 7);
	KUNIT_EXPECT_EQ(test, ntohs(t->to), ADDR);
	KUNIT_EXPECT_EQ(test, ntohs(t->resv), ETH_P_ARP);
	copy = skb_copy(skb, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, au_data_rcv(au, skb), R2C2_S_UNSPEC);
	KUNIT_EXPECT_EQ(test, skb->len,
			R2C2_DATA_HLEN + DATA_PLEN + R2C2_AUTH_LEN);
	KUNIT_EXPECT_EQ(test, au_data_rcv(au, copy), R2C2_S_DROP_REPLAY);
	kfree_skb(skb);
	kfree_skb(copy);
}

/* What an attacker without the key can change, each refused. */
static void r2c2_auth_data__forged(struct kunit *test)
{
	struct au *au = test->priv;
	struct sk_buff *bare = au_data(), *body = au_data();
	struct sk_buff *src = au_data(), *proto = au_data(), *dst = au_data();
	struct r2c2_data_hdr *h;

	KUNIT_EXPECT_EQ(test, au_data_rcv(au, bare), R2C2_S_DROP_AUTH);
	KUNIT_ASSERT_EQ(test, au_data_sign(au, body), 0);
	body->data[R2C2_DATA_HLEN + 8] ^= 1;		/* the ARP sender */
	KUNIT_EXPECT_EQ(test, au_data_rcv(au, body), R2C2_S_DROP_AUTH);
	/* the header, outside the MAC, must agree with the trailer */
	KUNIT_ASSERT_EQ(test, au_data_sign(au, src), 0);
	h = (void *)src->data;
	h->src = htons(8);
	KUNIT_EXPECT_EQ(test, au_data_rcv(au, src), R2C2_S_DROP_AUTH);
	KUNIT_ASSERT_EQ(test, au_data_sign(au, proto), 0);
	h = (void *)proto->data;
	h->proto = htons(ETH_P_IPV6);
	KUNIT_EXPECT_EQ(test, au_data_rcv(au, proto), R2C2_S_DROP_AUTH);
	/* signed for another node: a replay here */
	h = (void *)dst->data;
	h->dst = htons(ADDR + 1);
	KUNIT_ASSERT_EQ(test, au_data_sign(au, dst), 0);
	KUNIT_EXPECT_EQ(test, au_data_rcv(au, dst), R2C2_S_DROP_REPLAY);
	kfree_skb(bare);
	kfree_skb(body);
	kfree_skb(src);
	kfree_skb(proto);
	kfree_skb(dst);
}

/* During a rotation's overlap a data frame carries two trailers, made
 * with the current and the previous key: a node that has not rotated yet
 * checks the second, one whose own overlap has ended the first.
 */
static void r2c2_auth_data__rotation(struct kunit *test)
{
	struct au *au = test->priv;
	struct sk_buff *skb = au_data(), *copy, *cut;
	const struct r2c2_auth_trl *t;

	au_set(au, au_keys(2, 0x22, 1, 0x11, 60 * HZ));
	KUNIT_ASSERT_EQ(test, au_data_sign(au, skb), 0);
	KUNIT_ASSERT_EQ(test, skb->len,
			R2C2_DATA_HLEN + DATA_PLEN + 2 * R2C2_AUTH_LEN);
	t = (const void *)(skb->data + R2C2_DATA_HLEN + DATA_PLEN);
	KUNIT_EXPECT_EQ(test, t[0].key_id, 2);
	KUNIT_EXPECT_EQ(test, t[1].key_id, 1);
	KUNIT_EXPECT_EQ(test, t[1].newest_id, 2);
	copy = skb_copy(skb, GFP_KERNEL);
	cut = skb_copy(skb, GFP_KERNEL);
	skb_trim(cut, cut->len - R2C2_AUTH_LEN);
	au_set(au, au_keys(1, 0x11, 0, 0, 0));	/* not rotated yet */
	KUNIT_EXPECT_EQ(test, au_data_rcv(au, skb), R2C2_S_UNSPEC);
	/* without the second trailer such a node holds no key of the frame */
	KUNIT_EXPECT_EQ(test, au_data_rcv(au, cut), R2C2_S_DROP_AUTH);
	r2c2_auth_peers_gc(au->node, true);
	au_set(au, au_keys(2, 0x22, 0, 0, 0));	/* rotated, overlap over */
	KUNIT_EXPECT_EQ(test, au_data_rcv(au, copy), R2C2_S_UNSPEC);
	kfree_skb(skb);
	kfree_skb(copy);
	kfree_skb(cut);
}

static void r2c2_auth_rcv__good_trimmed(struct kunit *test)
{
	struct au *au = test->priv;
	struct sk_buff *skb = au_lsa(2);

	KUNIT_ASSERT_EQ(test, r2c2_auth_sign(au->port, skb), 0);
	KUNIT_EXPECT_EQ(test, au_rcv(au, skb), R2C2_S_UNSPEC);
	KUNIT_EXPECT_EQ(test, skb->len, lsa_len(2));
	KUNIT_EXPECT_EQ(test, au->port->auth_kid, 1);
	kfree_skb(skb);
}

static void r2c2_auth_rcv__no_trailer(struct kunit *test)
{
	struct au *au = test->priv;
	struct sk_buff *skb = au_lsa(2);

	KUNIT_EXPECT_EQ(test, au_rcv(au, skb), R2C2_S_DROP_AUTH);
	kfree_skb(skb);
}

static void r2c2_auth_rcv__body_changed(struct kunit *test)
{
	struct au *au = test->priv;
	struct sk_buff *skb = au_lsa(2);

	KUNIT_ASSERT_EQ(test, r2c2_auth_sign(au->port, skb), 0);
	skb->data[R2C2_CTL_HLEN + 3] ^= 1;	/* lsa_seq */
	KUNIT_EXPECT_EQ(test, au_rcv(au, skb), R2C2_S_DROP_AUTH);
	kfree_skb(skb);
}

static void r2c2_auth_rcv__other_key(struct kunit *test)
{
	struct au *au = test->priv;
	struct sk_buff *skb = au_lsa(2);

	KUNIT_ASSERT_EQ(test, r2c2_auth_sign(au->port, skb), 0);
	au_set(au, au_keys(1, 0x22, 0, 0, 0));	/* id 1, other bytes */
	KUNIT_EXPECT_EQ(test, au_rcv(au, skb), R2C2_S_DROP_AUTH);
	kfree_skb(skb);
}

static void r2c2_auth_rcv__replay(struct kunit *test)
{
	struct au *au = test->priv;
	struct sk_buff *skb = au_lsa(2), *copy;

	KUNIT_ASSERT_EQ(test, r2c2_auth_sign(au->port, skb), 0);
	copy = skb_copy(skb, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, au_rcv(au, skb), R2C2_S_UNSPEC);
	KUNIT_EXPECT_EQ(test, au_rcv(au, copy), R2C2_S_DROP_REPLAY);
	kfree_skb(skb);
	kfree_skb(copy);
}

/* An old frame, below the R2C2_AUTH_SEEN newest accepted, is refused. */
static void r2c2_auth_rcv__too_old(struct kunit *test)
{
	struct au *au = test->priv;
	struct sk_buff *old = au_lsa(1), *skb;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, r2c2_auth_sign(au->port, old), 0);
	for (i = 0; i < R2C2_AUTH_SEEN; i++) {
		skb = au_lsa(1);
		KUNIT_ASSERT_EQ(test, r2c2_auth_sign(au->port, skb), 0);
		KUNIT_EXPECT_EQ(test, au_rcv(au, skb), R2C2_S_UNSPEC);
		kfree_skb(skb);
	}
	KUNIT_EXPECT_EQ(test, au_rcv(au, old), R2C2_S_DROP_REPLAY);
	kfree_skb(old);
}

/* Reordered by fewer than R2C2_AUTH_SEEN frames: accepted. */
static void r2c2_auth_rcv__reordered(struct kunit *test)
{
	struct au *au = test->priv;
	struct sk_buff *a = au_lsa(1), *b = au_lsa(1);

	KUNIT_ASSERT_EQ(test, r2c2_auth_sign(au->port, a), 0);
	KUNIT_ASSERT_EQ(test, r2c2_auth_sign(au->port, b), 0);
	KUNIT_EXPECT_EQ(test, au_rcv(au, b), R2C2_S_UNSPEC);
	KUNIT_EXPECT_EQ(test, au_rcv(au, a), R2C2_S_UNSPEC);
	kfree_skb(a);
	kfree_skb(b);
}

static void r2c2_auth_rcv__other_receiver(struct kunit *test)
{
	struct au *au = test->priv;
	struct sk_buff *skb = au_lsa(1);

	au->nbr->addr = ADDR + 1;	/* sent to another node */
	KUNIT_ASSERT_EQ(test, r2c2_auth_sign(au->port, skb), 0);
	KUNIT_EXPECT_EQ(test, au_rcv(au, skb), R2C2_S_DROP_REPLAY);
	kfree_skb(skb);
}

/* During the overlap, the previous key is accepted and sent with to a
 * neighbour that announced it as its newest; after it, refused.
 */
static void r2c2_auth_rcv__rotation(struct kunit *test)
{
	struct au *au = test->priv;
	struct sk_buff *old_key = au_lsa(1), *skb = au_lsa(1);
	const struct r2c2_auth_trl *t;

	KUNIT_ASSERT_EQ(test, r2c2_auth_sign(au->port, old_key), 0);
	au_set(au, au_keys(2, 0x22, 1, 0x11, HZ));
	KUNIT_EXPECT_EQ(test, au_rcv(au, old_key), R2C2_S_UNSPEC);
	/* the neighbour's newest is 1: sent with 1 */
	KUNIT_ASSERT_EQ(test, r2c2_auth_sign(au->port, skb), 0);
	t = (const void *)(skb->data + lsa_len(1));
	KUNIT_EXPECT_EQ(test, t->key_id, 1);
	KUNIT_EXPECT_EQ(test, t->newest_id, 2);
	KUNIT_EXPECT_EQ(test, au_rcv(au, skb), R2C2_S_UNSPEC);
	/* it announced 2 now: sent with 2 */
	KUNIT_EXPECT_EQ(test, au->port->auth_kid, 2);
	kfree_skb(skb);
	skb = au_lsa(1);
	KUNIT_ASSERT_EQ(test, r2c2_auth_sign(au->port, skb), 0);
	t = (const void *)(skb->data + lsa_len(1));
	KUNIT_EXPECT_EQ(test, t->key_id, 2);
	kfree_skb(skb);
	kfree_skb(old_key);

	/* overlap over: key 1 refused */
	old_key = au_lsa(1);
	au_set(au, au_keys(1, 0x11, 0, 0, 0));
	KUNIT_ASSERT_EQ(test, r2c2_auth_sign(au->port, old_key), 0);
	au_set(au, au_keys(2, 0x22, 1, 0x11, 0));
	KUNIT_EXPECT_EQ(test, au_rcv(au, old_key), R2C2_S_DROP_AUTH);
	kfree_skb(old_key);
}

/* A first frame far off the clock makes no state: refused. */
static void r2c2_auth_fresh__stale_first(struct kunit *test)
{
	struct au *au = test->priv;
	u64 now = ktime_get_real_ns();

	if (!READ_ONCE(r2c2_auth_window_s))
		kunit_skip(test, "r2c2.auth_window_s is 0");
	KUNIT_EXPECT_FALSE(test, r2c2_auth_fresh(au->node, 7, now -
			   2ULL * r2c2_auth_window_s * NSEC_PER_SEC));
	KUNIT_EXPECT_EQ(test, au->node->nauth_peers, 0U);
	KUNIT_EXPECT_TRUE(test, r2c2_auth_fresh(au->node, 7, now));
	KUNIT_EXPECT_EQ(test, au->node->nauth_peers, 1U);
}

/*
 * A frame more than R2C2_AUTH_REORDER_NS older than the newest accepted
 * from its transmitter is a replay, however few frames came before (the
 * state of a transmitter that was just made, after a key re-set, a
 * restart or an idle time, holds fewer than R2C2_AUTH_SEEN).
 */
static void r2c2_auth_fresh__older_than_newest(struct kunit *test)
{
	struct au *au = test->priv;
	u64 now = ktime_get_real_ns();

	KUNIT_EXPECT_TRUE(test, r2c2_auth_fresh(au->node, 7, now));
	KUNIT_EXPECT_FALSE(test, r2c2_auth_fresh(au->node, 7, now -
			   R2C2_AUTH_REORDER_NS - 1));
	KUNIT_EXPECT_FALSE(test, r2c2_auth_fresh(au->node, 7, now -
			   20 * R2C2_AUTH_REORDER_NS));
	/* reordered within the bound: accepted once */
	KUNIT_EXPECT_TRUE(test, r2c2_auth_fresh(au->node, 7, now -
			  R2C2_AUTH_REORDER_NS / 2));
	KUNIT_EXPECT_FALSE(test, r2c2_auth_fresh(au->node, 7, now -
			   R2C2_AUTH_REORDER_NS / 2));
	/* another transmitter has its own state */
	KUNIT_EXPECT_TRUE(test, r2c2_auth_fresh(au->node, 8, now -
			  20 * R2C2_AUTH_REORDER_NS));
}

/* Every frame off the clock by more than the window is refused, not
 * only a transmitter's first.
 */
static void r2c2_auth_fresh__every_frame_on_clock(struct kunit *test)
{
	struct au *au = test->priv;
	u64 now = ktime_get_real_ns(), w;

	if (!READ_ONCE(r2c2_auth_window_s))
		kunit_skip(test, "r2c2.auth_window_s is 0");
	w = (u64)r2c2_auth_window_s * NSEC_PER_SEC;
	KUNIT_EXPECT_TRUE(test, r2c2_auth_fresh(au->node, 7, now));
	KUNIT_EXPECT_FALSE(test, r2c2_auth_fresh(au->node, 7, now + 2 * w));
	KUNIT_EXPECT_TRUE(test, r2c2_auth_fresh(au->node, 7, now + 1));
}

/* A frame signed for this node with a transmitter other than the port's
 * neighbour came over another link: a replay.
 */
static void r2c2_auth_rcv__not_the_neighbour(struct kunit *test)
{
	struct au *au = test->priv;
	struct sk_buff *skb = au_lsa(1);

	KUNIT_ASSERT_EQ(test, r2c2_auth_sign(au->port, skb), 0);
	au->nbr->addr = ADDR + 1;	/* the port's neighbour is another */
	KUNIT_EXPECT_EQ(test, au_rcv(au, skb), R2C2_S_DROP_REPLAY);
	au->nbr->addr = ADDR;
	KUNIT_EXPECT_EQ(test, au_rcv(au, skb), R2C2_S_UNSPEC);
	kfree_skb(skb);
}

/* With auth_window_s 0 the state of an idle transmitter is forgotten
 * after R2C2_AUTH_IDLE_S: one whose clock went back is not locked out
 * for as long as the key stays.
 */
static void r2c2_auth_peers_gc__idle_without_window(struct kunit *test)
{
	unsigned int w0 = READ_ONCE(r2c2_auth_window_s);
	struct au *au = test->priv;
	u64 now = ktime_get_real_ns();
	struct r2c2_auth_peer *p;

	WRITE_ONCE(r2c2_auth_window_s, 0);
	KUNIT_EXPECT_TRUE(test, r2c2_auth_fresh(au->node, 7, now));
	/* its clock went back an hour: refused */
	KUNIT_EXPECT_FALSE(test, r2c2_auth_fresh(au->node, 7, now -
			   3600ULL * NSEC_PER_SEC));
	r2c2_auth_peers_gc(au->node, false);
	KUNIT_EXPECT_EQ(test, au->node->nauth_peers, 1U);
	p = xa_load(&au->node->auth_peers, 7);
	KUNIT_ASSERT_NOT_NULL(test, p);
	p->last = jiffies - R2C2_AUTH_IDLE_S * HZ - 1;
	r2c2_auth_peers_gc(au->node, false);
	KUNIT_EXPECT_EQ(test, au->node->nauth_peers, 0U);
	KUNIT_EXPECT_TRUE(test, r2c2_auth_fresh(au->node, 7, now -
			  3600ULL * NSEC_PER_SEC));
	WRITE_ONCE(r2c2_auth_window_s, w0);
}

/*
 * Cost: the MAC over a FLOW (20 bytes + 16 of trailer), an LSA of 6
 * entries (40 + 16) and a ROUTES of 209 (1,475 + 16), and one sign plus
 * one check of a FLOW frame (MAC twice, trailer, replay state). In UML
 * with KASAN and lockdep: an upper bound, not a stock kernel's cost.
 */
static void r2c2_auth_mac__cost(struct kunit *test)
{
	static const unsigned int lens[] = { 20, 40, 1475 };
	const unsigned int loops = 20000;
	struct au *au = test->priv;
	siphash_key_t k = { { 1, 2 } };
	volatile __le64 sink = 0;
	unsigned int i, j;
	struct sk_buff *skb;
	u8 *buf;
	u64 t0, ns;

	buf = kunit_kzalloc(test, 1500, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (j = 0; j < ARRAY_SIZE(lens); j++) {
		t0 = ktime_get_ns();
		for (i = 0; i < loops; i++) {
			buf[0] = (u8)i;
			sink = r2c2_auth_mac(buf, lens[j], &k);
		}
		ns = ktime_get_ns() - t0;
		kunit_info(test, "MAC over %u + 16 bytes: %llu ns\n", lens[j],
			   div_u64(ns, loops));
	}
	(void)sink;

	t0 = ktime_get_ns();
	for (i = 0; i < loops / 10; i++) {
		skb = alloc_skb(64 + R2C2_CTL_HLEN + R2C2_FLOW_EVT_LEN +
				R2C2_AUTH_LEN, GFP_KERNEL);
		skb_reserve(skb, 64);
		buf = skb_put_zero(skb, R2C2_CTL_HLEN + R2C2_FLOW_EVT_LEN);
		buf[0] = r2c2_ver_type(R2C2_T_FLOW);
		KUNIT_ASSERT_EQ(test, r2c2_auth_sign(au->port, skb), 0);
		KUNIT_ASSERT_EQ(test, au_rcv(au, skb), R2C2_S_UNSPEC);
		kfree_skb(skb);
	}
	ns = ktime_get_ns() - t0;
	kunit_info(test, "FLOW frame alloc + sign + check + free: %llu ns\n",
		   div_u64(ns, loops / 10));
}

static struct kunit_case r2c2_auth_cases[] = {
	KUNIT_CASE(r2c2_auth_sign__appends_trailer),
	KUNIT_CASE(r2c2_auth_sign__data_untouched),
	KUNIT_CASE(r2c2_auth_sign__bcast_eth),
	KUNIT_CASE(r2c2_auth_rcv__bcast_eth_forged),
	KUNIT_CASE(r2c2_auth_data__signed_once),
	KUNIT_CASE(r2c2_auth_data__forged),
	KUNIT_CASE(r2c2_auth_data__rotation),
	KUNIT_CASE(r2c2_auth_rcv__good_trimmed),
	KUNIT_CASE(r2c2_auth_rcv__no_trailer),
	KUNIT_CASE(r2c2_auth_rcv__body_changed),
	KUNIT_CASE(r2c2_auth_rcv__other_key),
	KUNIT_CASE(r2c2_auth_rcv__replay),
	KUNIT_CASE(r2c2_auth_rcv__too_old),
	KUNIT_CASE(r2c2_auth_rcv__reordered),
	KUNIT_CASE(r2c2_auth_rcv__other_receiver),
	KUNIT_CASE(r2c2_auth_rcv__rotation),
	KUNIT_CASE(r2c2_auth_fresh__stale_first),
	KUNIT_CASE(r2c2_auth_fresh__older_than_newest),
	KUNIT_CASE(r2c2_auth_fresh__every_frame_on_clock),
	KUNIT_CASE(r2c2_auth_rcv__not_the_neighbour),
	KUNIT_CASE(r2c2_auth_peers_gc__idle_without_window),
	KUNIT_CASE(r2c2_auth_mac__cost),
	{}
};

static struct kunit_suite r2c2_auth_suite = {
	.name = "r2c2_auth",
	.init = au_init,
	.exit = au_exit,
	.test_cases = r2c2_auth_cases,
};

kunit_test_suite(r2c2_auth_suite);

MODULE_DESCRIPTION("KUnit tests of r2c2 control-frame authentication and replay state");
MODULE_LICENSE("GPL");
