/* SPDX-License-Identifier: GPL-2.0 */
/*
 * class.h - traffic classes: what a flow is given (allocation weight and
 * priority, announced in its START) by what its first packet carries
 * (DSCP, socket priority, transport ports). The matching needs no netdev
 * and no namespace: kmod/class.c keeps the per-node table and the
 * netlink commands, kunit/class_test.c tests these inlines.
 */
#ifndef _R2C2_KMOD_CLASS_H
#define _R2C2_KMOD_CLASS_H

#include <linux/atomic.h>
#include <linux/rcupdate.h>
#include <linux/types.h>

#include <r2c2/sch.h>

/* struct r2c2_class.match: the criteria a class has (all must hold) */
#define R2C2_CM_DSCP		0x01
#define R2C2_CM_SKB_PRIO	0x02
#define R2C2_CM_SPORT		0x04
#define R2C2_CM_DPORT		0x08

/**
 * struct r2c2_class - one traffic class
 * @skb_prio: socket priority matched (R2C2_CM_SKB_PRIO)
 * @sport_lo: lowest source port matched (R2C2_CM_SPORT)
 * @sport_hi: highest source port matched
 * @dport_lo: lowest destination port matched (R2C2_CM_DPORT)
 * @dport_hi: highest destination port matched
 * @id: class id, 1..R2C2_CLASS_MAX (order of matching)
 * @match: R2C2_CM_* criteria; 0 matches every flow
 * @dscp: DSCP matched (R2C2_CM_DSCP), IPv4 or IPv6 only
 * @weight: allocation weight given, 1..255
 * @prio: priority given, 0 (highest)..15
 * @flows: flows given this class since it was set (approximate: a
 *	flow classified while the table is replaced may be missed)
 */
struct r2c2_class {
	u32 skb_prio;
	u16 sport_lo;
	u16 sport_hi;
	u16 dport_lo;
	u16 dport_hi;
	u8 id;
	u8 match;
	u8 dscp;
	u8 weight;
	u8 prio;
	atomic64_t flows;
};

/**
 * struct r2c2_class_tab - a node's classes (immutable but @c[].flows, RCU)
 * @rcu: for kfree_rcu()
 * @n: classes in @c
 * @c: the classes in ascending id order
 */
struct r2c2_class_tab {
	struct rcu_head rcu;
	unsigned int n;
	struct r2c2_class c[];
};

/**
 * r2c2_class_match() - whether a flow's first packet is of a class
 * @c: the class
 * @k: what the packet carries
 *
 * Every criterion of the class must hold. A DSCP criterion never holds
 * for a packet that is not IPv4 or IPv6, a port criterion never for one
 * without transport ports.
 *
 * Return: true when it matches.
 */
static inline bool r2c2_class_match(const struct r2c2_class *c,
				    const struct r2c2_class_key *k)
{
	if ((c->match & R2C2_CM_DSCP) &&
	    (!(k->has & R2C2_CK_IP) || k->dscp != c->dscp))
		return false;
	if ((c->match & R2C2_CM_SKB_PRIO) && k->skb_prio != c->skb_prio)
		return false;
	if ((c->match & R2C2_CM_SPORT) &&
	    (!(k->has & R2C2_CK_PORTS) || k->sport < c->sport_lo ||
	     k->sport > c->sport_hi))
		return false;
	if ((c->match & R2C2_CM_DPORT) &&
	    (!(k->has & R2C2_CK_PORTS) || k->dport < c->dport_lo ||
	     k->dport > c->dport_hi))
		return false;
	return true;
}

/**
 * r2c2_class_first() - the class of a flow: the lowest id that matches
 * @t: the table (may be NULL)
 * @k: what the flow's first packet carries
 *
 * Return: the class, or NULL when none matches.
 */
static inline struct r2c2_class *
r2c2_class_first(struct r2c2_class_tab *t, const struct r2c2_class_key *k)
{
	unsigned int i;

	for (i = 0; t && i < t->n; i++)
		if (r2c2_class_match(&t->c[i], k))
			return &t->c[i];
	return NULL;
}

#endif /* _R2C2_KMOD_CLASS_H */
