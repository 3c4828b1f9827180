// SPDX-License-Identifier: GPL-2.0
/*
 * flowid_test.c - KUnit tests of r2c2_flow_id() (include/r2c2/sch.h), the
 * flow id r2c0 and sch_r2c2 both key on. The UML kernel has no INET, so
 * the sockets are plain structures with the fields r2c2_flow_id() reads
 * (state, family, type, protocol, sk_hash, a request socket's listener);
 * that the kernel sets sk_hash at connect() and accept() and never
 * changes it is checked in a VM (selftests/flowid_test.sh).
 * Names are function__case.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/skbuff.h>
#include <linux/socket.h>
#include <net/request_sock.h>
#include <net/sock.h>
#include <net/tcp_states.h>

#include <r2c2/sch.h>

static struct sock *fake_sock(struct kunit *test, int state, int family,
			      int type, int protocol, u32 hash)
{
	struct sock *sk = kunit_kzalloc(test, sizeof(*sk), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, sk);
	sk->sk_state = state;
	sk->sk_family = family;
	sk->sk_type = type;
	sk->sk_protocol = protocol;
	sk->sk_hash = hash;
	return sk;
}

static struct sock *fake_tcp(struct kunit *test, int state, u32 hash)
{
	return fake_sock(test, state, AF_INET, SOCK_STREAM, IPPROTO_TCP, hash);
}

/* an skb "sent by" @sk (no destructor: put_skb() detaches it) */
static struct sk_buff *get_skb(struct kunit *test, struct sock *sk)
{
	struct sk_buff *skb = alloc_skb(0, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb->sk = sk;
	/* as in a qdisc: the flow dissector finds its netns from the device */
	skb->dev = init_net.loopback_dev;
	return skb;
}

static void put_skb(struct sk_buff *skb)
{
	skb->sk = NULL;
	kfree_skb(skb);
}

static void r2c2_flow_id__tcp_keeps_id_when_txhash_changes(struct kunit *test)
{
	static const int families[] = { AF_INET, AF_INET6 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(families); i++) {
		struct sock *sk = fake_sock(test, TCP_ESTABLISHED, families[i],
					    SOCK_STREAM, IPPROTO_TCP,
					    0x12345678);
		struct sk_buff *skb = get_skb(test, sk);

		/* what TCP does: skb->hash from sk_txhash, redrawn on RTO */
		skb_set_hash(skb, 0xaaaa0001, PKT_HASH_TYPE_L4);
		KUNIT_EXPECT_EQ(test, r2c2_flow_id(skb), 0x12345678U);
		skb_set_hash(skb, 0xbbbb0002, PKT_HASH_TYPE_L4);
		KUNIT_EXPECT_EQ(test, r2c2_flow_id(skb), 0x12345678U);
		skb_clear_hash(skb);
		KUNIT_EXPECT_EQ(test, r2c2_flow_id(skb), 0x12345678U);
		put_skb(skb);
	}
}

static void r2c2_flow_id__tcp_every_full_state(struct kunit *test)
{
	static const int states[] = {
		TCP_SYN_SENT, TCP_SYN_RECV, TCP_ESTABLISHED, TCP_FIN_WAIT1,
		TCP_FIN_WAIT2, TCP_CLOSE_WAIT, TCP_LAST_ACK, TCP_CLOSING,
		TCP_CLOSE,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(states); i++) {
		struct sk_buff *skb = get_skb(test, fake_tcp(test, states[i],
							     0x5000 + i));

		skb_set_hash(skb, 0xcafe, PKT_HASH_TYPE_L4);
		KUNIT_EXPECT_EQ_MSG(test, r2c2_flow_id(skb), 0x5000 + i,
				    "state %d", states[i]);
		put_skb(skb);
	}
}

static void r2c2_flow_id__tcp_never_0(struct kunit *test)
{
	struct sk_buff *skb = get_skb(test, fake_tcp(test, TCP_ESTABLISHED, 0));

	skb_set_hash(skb, 0xcafe, PKT_HASH_TYPE_L4);
	KUNIT_EXPECT_EQ(test, r2c2_flow_id(skb), 1U);
	put_skb(skb);
}

static void r2c2_flow_id__request_sock_of_tcp_listener(struct kunit *test)
{
	struct request_sock *req = kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);
	struct sock *rsk = req_to_sk(req);
	struct sk_buff *skb;

	KUNIT_ASSERT_NOT_NULL(test, req);
	rsk->sk_state = TCP_NEW_SYN_RECV;
	rsk->sk_hash = 0x600d;
	req->rsk_listener = fake_tcp(test, TCP_LISTEN, 0x1111);
	skb = get_skb(test, rsk);
	skb_set_hash(skb, 0xcafe, PKT_HASH_TYPE_L4);
	/* the SYN-ACK: the child socket will have the same sk_hash */
	KUNIT_EXPECT_EQ(test, r2c2_flow_id(skb), 0x600dU);

	/* no listener (SYN cookies) or not TCP's: the packet's hash */
	req->rsk_listener = NULL;
	KUNIT_EXPECT_EQ(test, r2c2_flow_id(skb), 0xcafeU);
	req->rsk_listener = fake_sock(test, TCP_LISTEN, AF_INET, SOCK_STREAM,
				      IPPROTO_SCTP, 0x2222);
	KUNIT_EXPECT_EQ(test, r2c2_flow_id(skb), 0xcafeU);
	put_skb(skb);
}

static void r2c2_flow_id__timewait_uses_skb_hash(struct kunit *test)
{
	struct sk_buff *skb = get_skb(test, fake_tcp(test, TCP_TIME_WAIT,
						     0x600d));

	skb_set_hash(skb, 0xcafe, PKT_HASH_TYPE_L4);
	KUNIT_EXPECT_EQ(test, r2c2_flow_id(skb), 0xcafeU);
	put_skb(skb);
}

static void r2c2_flow_id__not_tcp_uses_skb_hash(struct kunit *test)
{
	static const struct { int family, type, protocol; } socks[] = {
		{ AF_INET, SOCK_DGRAM, IPPROTO_UDP },
		{ AF_INET6, SOCK_DGRAM, IPPROTO_UDP },
		{ AF_INET, SOCK_RAW, IPPROTO_TCP },	/* TCP's control socket */
		{ AF_INET, SOCK_STREAM, IPPROTO_SCTP },
		{ AF_UNIX, SOCK_STREAM, 0 },
		{ AF_PACKET, SOCK_RAW, 0 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(socks); i++) {
		struct sk_buff *skb;

		skb = get_skb(test, fake_sock(test, TCP_ESTABLISHED,
					      socks[i].family, socks[i].type,
					      socks[i].protocol, 0x600d));
		skb_set_hash(skb, 0xaaaa0001, PKT_HASH_TYPE_L4);
		KUNIT_EXPECT_EQ_MSG(test, r2c2_flow_id(skb), 0xaaaa0001U,
				    "socket %u", i);
		skb_set_hash(skb, 0xbbbb0002, PKT_HASH_TYPE_L4);
		KUNIT_EXPECT_EQ_MSG(test, r2c2_flow_id(skb), 0xbbbb0002U,
				    "socket %u", i);
		put_skb(skb);
	}
}

static void r2c2_flow_id__no_socket_uses_skb_hash(struct kunit *test)
{
	struct sk_buff *skb = get_skb(test, NULL);

	skb_set_hash(skb, 0xaaaa0001, PKT_HASH_TYPE_L4);
	KUNIT_EXPECT_EQ(test, r2c2_flow_id(skb), 0xaaaa0001U);
	skb_set_hash(skb, 0, PKT_HASH_TYPE_L4);
	KUNIT_EXPECT_EQ(test, r2c2_flow_id(skb), 1U);
	/* no hash yet: the flow dissector's */
	skb_clear_hash(skb);
	KUNIT_EXPECT_EQ(test, r2c2_flow_id(skb), skb_get_hash(skb) ?: 1);
	put_skb(skb);
}

static struct kunit_case r2c2_flowid_cases[] = {
	KUNIT_CASE(r2c2_flow_id__tcp_keeps_id_when_txhash_changes),
	KUNIT_CASE(r2c2_flow_id__tcp_every_full_state),
	KUNIT_CASE(r2c2_flow_id__tcp_never_0),
	KUNIT_CASE(r2c2_flow_id__request_sock_of_tcp_listener),
	KUNIT_CASE(r2c2_flow_id__timewait_uses_skb_hash),
	KUNIT_CASE(r2c2_flow_id__not_tcp_uses_skb_hash),
	KUNIT_CASE(r2c2_flow_id__no_socket_uses_skb_hash),
	{}
};

static struct kunit_suite r2c2_flowid_suite = {
	.name = "r2c2_flowid",
	.test_cases = r2c2_flowid_cases,
};

kunit_test_suite(r2c2_flowid_suite);

MODULE_DESCRIPTION("KUnit tests of r2c2_flow_id()");
MODULE_LICENSE("GPL");
