// SPDX-License-Identifier: GPL-2.0
/*
 * class.c - the node's traffic classes (R2C2_CMD_CLASS_SET, CLASS_DEL,
 * CLASS_GET) and their lookup by sch_r2c2 when a flow starts.
 *
 * The table is immutable and replaced as a whole under r2c2_class_mutex
 * (changes are rare, lookups one per new flow); sch_r2c2 reads it under
 * RCU from its enqueue path. Classes belong to the namespace's node but
 * not to its configuration: they may be set before NODE_SET and survive
 * NODE_DEL; they go with the namespace.
 */
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include "class.h"
#include "r2c2.h"

static DEFINE_MUTEX(r2c2_class_mutex);

/**
 * r2c2_class_lookup() - the traffic class of a new flow
 * @net: the namespace of the qdisc's device
 * @k: what the flow's first packet carries
 * @weight: set to the class's weight when one matches
 * @prio: set to the class's priority when one matches
 *
 * Context: any (RCU read side taken here).
 * Return: true when a class matched.
 */
bool r2c2_class_lookup(struct net *net, const struct r2c2_class_key *k,
		       u8 *weight, u8 *prio)
{
	struct r2c2_node *node = r2c2_node_get(net);
	struct r2c2_class *c = NULL;

	if (!node)
		return false;
	rcu_read_lock();
	c = r2c2_class_first(rcu_dereference(node->classes), k);
	if (c) {
		*weight = c->weight;
		*prio = c->prio;
		atomic64_inc(&c->flows);
	}
	rcu_read_unlock();
	return !!c;
}
EXPORT_SYMBOL_GPL(r2c2_class_lookup);

/* Publish @t (may be NULL) and free the old table; class mutex held. */
static void r2c2_class_publish(struct r2c2_node *node,
			       struct r2c2_class_tab *t)
{
	struct r2c2_class_tab *old;

	old = rcu_replace_pointer(node->classes, t,
				  lockdep_is_held(&r2c2_class_mutex));
	if (old)
		kfree_rcu(old, rcu);
}

/**
 * r2c2_classes_free() - forget every class (namespace exit)
 * @node: the node
 */
void r2c2_classes_free(struct r2c2_node *node)
{
	mutex_lock(&r2c2_class_mutex);
	r2c2_class_publish(node, NULL);
	mutex_unlock(&r2c2_class_mutex);
}

static struct r2c2_class_tab *r2c2_class_tab_alloc(unsigned int n)
{
	struct r2c2_class_tab *t;

	t = kzalloc(struct_size(t, c, n), GFP_KERNEL);
	if (t)
		t->n = n;
	return t;
}

static void r2c2_class_copy(struct r2c2_class *to, const struct r2c2_class *from)
{
	*to = *from;
	atomic64_set(&to->flows, atomic64_read(&from->flows));
}

/* a port range from LO (R) and HI (o, default LO) */
static int r2c2_class_ports(struct nlattr **a, int lo, int hi, u16 *plo,
			    u16 *phi, struct netlink_ext_ack *extack)
{
	if (!a[lo]) {
		if (a[hi] && lo == R2C2_A_SPORT) {
			NL_SET_ERR_MSG_ATTR(extack, a[hi], "SPORT_MAX needs SPORT");
			return -EINVAL;
		}
		if (a[hi]) {
			NL_SET_ERR_MSG_ATTR(extack, a[hi], "DPORT_MAX needs DPORT");
			return -EINVAL;
		}
		return 0;
	}
	*plo = nla_get_u16(a[lo]);
	*phi = a[hi] ? nla_get_u16(a[hi]) : *plo;
	if (*phi < *plo) {
		NL_SET_ERR_MSG_ATTR(extack, a[hi],
				    "port range is empty (its top is below its bottom)");
		return -EINVAL;
	}
	return 1;
}

/**
 * r2c2_nl_class_set() - R2C2_CMD_CLASS_SET: create or replace a class
 * @skb: the request
 * @info: CLASS_ID (R); DSCP, SKB_PRIO, SPORT [SPORT_MAX], DPORT
 *	[DPORT_MAX] (o: the criteria, none = every flow); WEIGHT (o, 1),
 *	PRIO (o, 0)
 *
 * Return: 0 or a negative errno; on error nothing changed.
 */
int r2c2_nl_class_set(struct sk_buff *skb, struct genl_info *info)
{
	struct r2c2_node *node = r2c2_node_get(genl_info_net(info));
	struct netlink_ext_ack *extack = info->extack;
	struct r2c2_class_tab *old, *t;
	struct nlattr **a = info->attrs;
	struct r2c2_class c = {};
	unsigned int i, j, n;
	bool replace = false;
	int err;

	if (!a[R2C2_A_CLASS_ID]) {
		NL_SET_ERR_MSG(extack, "CLASS_ID is required");
		return -EINVAL;
	}
	c.id = nla_get_u8(a[R2C2_A_CLASS_ID]);
	c.weight = a[R2C2_A_WEIGHT] ? nla_get_u8(a[R2C2_A_WEIGHT]) : 1;
	c.prio = a[R2C2_A_PRIO] ? nla_get_u8(a[R2C2_A_PRIO]) : 0;
	if (a[R2C2_A_DSCP]) {
		c.match |= R2C2_CM_DSCP;
		c.dscp = nla_get_u8(a[R2C2_A_DSCP]);
	}
	if (a[R2C2_A_SKB_PRIO]) {
		c.match |= R2C2_CM_SKB_PRIO;
		c.skb_prio = nla_get_u32(a[R2C2_A_SKB_PRIO]);
	}
	err = r2c2_class_ports(a, R2C2_A_SPORT, R2C2_A_SPORT_MAX, &c.sport_lo,
			       &c.sport_hi, extack);
	if (err < 0)
		return err;
	if (err)
		c.match |= R2C2_CM_SPORT;
	err = r2c2_class_ports(a, R2C2_A_DPORT, R2C2_A_DPORT_MAX, &c.dport_lo,
			       &c.dport_hi, extack);
	if (err < 0)
		return err;
	if (err)
		c.match |= R2C2_CM_DPORT;

	mutex_lock(&r2c2_class_mutex);
	old = rcu_dereference_protected(node->classes,
					lockdep_is_held(&r2c2_class_mutex));
	n = old ? old->n : 0;
	for (i = 0; i < n; i++)
		if (old->c[i].id == c.id)
			replace = true;
	err = -ENOMEM;
	t = r2c2_class_tab_alloc(replace ? n : n + 1);
	if (!t)
		goto out;
	/* ascending ids; the new class takes its id's place */
	for (i = 0, j = 0; i < n && old->c[i].id < c.id; i++)
		r2c2_class_copy(&t->c[j++], &old->c[i]);
	t->c[j++] = c;
	if (replace)
		i++;
	for (; i < n; i++)
		r2c2_class_copy(&t->c[j++], &old->c[i]);
	r2c2_class_publish(node, t);
	err = 0;
out:
	mutex_unlock(&r2c2_class_mutex);
	return err;
}

/**
 * r2c2_nl_class_del() - R2C2_CMD_CLASS_DEL: delete a class
 * @skb: the request
 * @info: CLASS_ID (R)
 *
 * Flows already given the class keep its weight and priority.
 *
 * Return: 0 or a negative errno.
 */
int r2c2_nl_class_del(struct sk_buff *skb, struct genl_info *info)
{
	struct r2c2_node *node = r2c2_node_get(genl_info_net(info));
	struct netlink_ext_ack *extack = info->extack;
	struct r2c2_class_tab *old, *t = NULL;
	unsigned int i, j, n;
	int err;
	u8 id;

	if (!info->attrs[R2C2_A_CLASS_ID]) {
		NL_SET_ERR_MSG(extack, "CLASS_ID is required");
		return -EINVAL;
	}
	id = nla_get_u8(info->attrs[R2C2_A_CLASS_ID]);
	mutex_lock(&r2c2_class_mutex);
	old = rcu_dereference_protected(node->classes,
					lockdep_is_held(&r2c2_class_mutex));
	n = old ? old->n : 0;
	for (i = 0; i < n && old->c[i].id != id; i++)
		;
	err = -ENOENT;
	if (i == n) {
		NL_SET_ERR_MSG_ATTR(extack, info->attrs[R2C2_A_CLASS_ID],
				    "no such class");
		goto out;
	}
	err = -ENOMEM;
	if (n > 1) {
		t = r2c2_class_tab_alloc(n - 1);
		if (!t)
			goto out;
		for (i = 0, j = 0; i < n; i++)
			if (old->c[i].id != id)
				r2c2_class_copy(&t->c[j++], &old->c[i]);
	}
	r2c2_class_publish(node, t);
	err = 0;
out:
	mutex_unlock(&r2c2_class_mutex);
	return err;
}

static int r2c2_class_fill(struct sk_buff *skb, const struct r2c2_class *c)
{
	if (nla_put_u8(skb, R2C2_A_CLASS_ID, c->id) ||
	    nla_put_u8(skb, R2C2_A_WEIGHT, c->weight) ||
	    nla_put_u8(skb, R2C2_A_PRIO, c->prio) ||
	    ((c->match & R2C2_CM_DSCP) &&
	     nla_put_u8(skb, R2C2_A_DSCP, c->dscp)) ||
	    ((c->match & R2C2_CM_SKB_PRIO) &&
	     nla_put_u32(skb, R2C2_A_SKB_PRIO, c->skb_prio)) ||
	    ((c->match & R2C2_CM_SPORT) &&
	     (nla_put_u16(skb, R2C2_A_SPORT, c->sport_lo) ||
	      nla_put_u16(skb, R2C2_A_SPORT_MAX, c->sport_hi))) ||
	    ((c->match & R2C2_CM_DPORT) &&
	     (nla_put_u16(skb, R2C2_A_DPORT, c->dport_lo) ||
	      nla_put_u16(skb, R2C2_A_DPORT_MAX, c->dport_hi))) ||
	    nla_put_u64_64bit(skb, R2C2_A_CLASS_FLOWS,
			      atomic64_read(&c->flows), R2C2_A_PAD))
		return -EMSGSIZE;
	return 0;
}

/**
 * r2c2_nl_class_dump() - R2C2_CMD_CLASS_GET: the classes by id
 * @skb: the message to fill
 * @cb: cb->args[0] the next class id
 *
 * Return: bytes written, 0 at the end.
 */
int r2c2_nl_class_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct r2c2_node *node = r2c2_node_get(sock_net(skb->sk));
	struct r2c2_class_tab *t;
	unsigned int i;
	void *hdr;

	rcu_read_lock();
	t = rcu_dereference(node->classes);
	for (i = 0; t && i < t->n; i++) {
		if (t->c[i].id < cb->args[0])
			continue;
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, r2c2_genl_dump_family(cb),
				  NLM_F_MULTI, R2C2_CMD_CLASS_GET);
		if (!hdr)
			break;
		if (r2c2_class_fill(skb, &t->c[i])) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		cb->args[0] = t->c[i].id + 1;
	}
	rcu_read_unlock();
	return skb->len;
}
