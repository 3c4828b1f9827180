// SPDX-License-Identifier: GPL-2.0
/*
 * sch_api.c - the registry through which sch_r2c2 qdiscs receive rate
 * pushes (R2C2_CMD_RATE_SET) and flow dumps (R2C2_CMD_QFLOW_GET) of the
 * "r2c2" family, and announce their flows to the rack.
 *
 * A qdisc registers when it is created and unregisters when destroyed;
 * commands find it by device (default: the namespace's r2c0) under
 * r2c2_sch_mutex, which they hold while calling into it, so a qdisc is
 * never called after r2c2_sch_unregister() returned. A device may have
 * several: the children of an mq root (one per transmit queue, each
 * holding the flows hashed to its queue), or, for a moment, the old and
 * the new qdisc of a tc qdisc replace. A rate push goes to each of them
 * (a qdisc takes the rates of the flows it holds) and a flow dump walks
 * them in the order they registered.
 */
#include <linux/module.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include <r2c2/sch.h>

#include "r2c2.h"
#include "events.h"

static DEFINE_MUTEX(r2c2_sch_mutex);
static LIST_HEAD(r2c2_sch_list);
static u64 r2c2_sch_seq;	/* of the last registration */

/**
 * r2c2_sch_register() - make a qdisc reachable by RATE_SET and QFLOW_GET
 * @s: dev, ops and priv set
 *
 * Context: process.
 */
void r2c2_sch_register(struct r2c2_sch *s)
{
	mutex_lock(&r2c2_sch_mutex);
	s->seq = ++r2c2_sch_seq;
	list_add(&s->list, &r2c2_sch_list);
	mutex_unlock(&r2c2_sch_mutex);
}
EXPORT_SYMBOL_GPL(r2c2_sch_register);

/**
 * r2c2_sch_unregister() - forget a qdisc; no call into it follows
 * @s: a registered qdisc
 *
 * Context: process.
 */
void r2c2_sch_unregister(struct r2c2_sch *s)
{
	struct r2c2_node *node = r2c2_node_get(dev_net(s->dev));
	struct r2c2_sch *o;
	bool last = true;

	mutex_lock(&r2c2_sch_mutex);
	list_del(&s->list);
	list_for_each_entry(o, &r2c2_sch_list, list)
		if (o->dev == s->dev)
			last = false;
	mutex_unlock(&r2c2_sch_mutex);
	/* the flows it started will never finish: no longer held by it */
	if (last && node && READ_ONCE(node->dev) == s->dev)
		r2c2_flows_release(node, R2C2_FH_QDISC);
}
EXPORT_SYMBOL_GPL(r2c2_sch_unregister);

/**
 * r2c2_sch_flow_event() - announce a flow start or finish to the rack
 * @s: the qdisc
 * @type: R2C2_FE_START or R2C2_FE_FINISH
 * @id: flow identifier
 * @dst: destination node, or R2C2_ADDR_NONE
 * @weight: allocation weight (its traffic class's, or 1)
 * @prio: priority, 0..15 (its traffic class's, or 0)
 *
 * Only a qdisc on the node's r2c0 speaks for the node: the event is
 * broadcast over a tree and multicast to local listeners (FLOW_EVENT
 * with this node as FLOW_SRC). Others are ignored. A start holds the
 * sender flow (and a routing assignment it gets) until the finish,
 * which forgets it.
 *
 * Context: process (never with the qdisc lock held: it transmits).
 */
void r2c2_sch_flow_event(struct r2c2_sch *s, u8 type, u32 id, u16 dst,
			 u8 weight, u8 prio)
{
	struct r2c2_node *node = r2c2_node_get(dev_net(s->dev));
	struct r2c2_flow_evt evt = {};

	if (!node || !READ_ONCE(node->active) ||
	    READ_ONCE(node->dev) != s->dev || dst == R2C2_ADDR_NONE)
		return;
	evt.flow = htonl(id);
	evt.dst = htons(dst);
	evt.weight = weight ?: 1;
	evt.evt_prio = (u8)(type << 4 | (prio & 0xf));
	evt.rproto_demand = htonl((u32)READ_ONCE(node->rproto) << 30 |
				  R2C2_DEMAND_UNLIMITED);
	r2c2_flow_evt_send(node, &evt);
	r2c2_event_flow(node, READ_ONCE(node->addr), &evt, true);
	if (type == R2C2_FE_FINISH)
		r2c2_flow_forget(node, id);
	else
		r2c2_flow_hold(node, id, dst, R2C2_FH_QDISC);
}
EXPORT_SYMBOL_GPL(r2c2_sch_flow_event);

/*
 * The qdisc of @ifindex (0: of r2c0) in @net registered first among
 * those with @seq >= @from (0: the first of all); r2c2_sch_mutex held.
 * The extack names why there is none only for @from 0.
 */
static struct r2c2_sch *r2c2_sch_find(struct net *net, int ifindex, u64 from,
				      struct netlink_ext_ack *extack)
{
	struct r2c2_node *node = r2c2_node_get(net);
	struct net_device *r2c0 = NULL;
	struct r2c2_sch *s, *first = NULL;

	lockdep_assert_held(&r2c2_sch_mutex);
	if (!ifindex) {
		if (READ_ONCE(node->active))
			r2c0 = READ_ONCE(node->dev);
		if (!r2c0) {
			NL_SET_ERR_MSG(extack, "no r2c2 node in this namespace (give IFINDEX)");
			return NULL;
		}
	}
	list_for_each_entry(s, &r2c2_sch_list, list) {
		if (s->seq < from || (first && s->seq > first->seq))
			continue;
		if (r2c0 ? s->dev == r2c0 :
		    s->dev->ifindex == ifindex && net_eq(dev_net(s->dev), net))
			first = s;
	}
	if (!first && !from)
		NL_SET_ERR_MSG(extack, "no r2c2 qdisc on the device");
	return first;
}

/**
 * r2c2_nl_rate_set() - R2C2_CMD_RATE_SET: a batch of flow rates
 * @skb: the request
 * @info: its attributes: RATES (nested RATE_ENT {FLOW_ID, RATE}),
 *	optional IFINDEX
 *
 * Return: 0 or a negative errno; on a malformed batch nothing is set.
 */
int r2c2_nl_rate_set(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *tb[R2C2_A_MAX + 1];
	struct r2c2_rate_ent *ent;
	unsigned int i, n = 0;
	struct r2c2_sch *s;
	struct nlattr *e;
	int rem, err, ifindex = 0;

	if (!info->attrs[R2C2_A_RATES]) {
		NL_SET_ERR_MSG(extack, "RATES is required");
		return -EINVAL;
	}
	if (info->attrs[R2C2_A_IFINDEX])
		ifindex = (int)nla_get_u32(info->attrs[R2C2_A_IFINDEX]);
	ent = kvcalloc(R2C2_RATES_MAX, sizeof(*ent), GFP_KERNEL);
	if (!ent)
		return -ENOMEM;
	err = -EINVAL;
	nla_for_each_nested(e, info->attrs[R2C2_A_RATES], rem) {
		if (nla_type(e) != R2C2_A_RATE_ENT) {
			NL_SET_ERR_MSG_ATTR(extack, e, "RATES holds RATE_ENT only");
			goto out;
		}
		if (n == R2C2_RATES_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, e, "too many entries (max 4096)");
			goto out;
		}
		err = nla_parse_nested(tb, R2C2_A_MAX, e, r2c2_policy, extack);
		if (err)
			goto out;
		err = -EINVAL;
		if (!tb[R2C2_A_FLOW_ID] || !tb[R2C2_A_RATE]) {
			NL_SET_ERR_MSG_ATTR(extack, e, "RATE_ENT needs FLOW_ID and RATE");
			goto out;
		}
		ent[n].id = nla_get_u32(tb[R2C2_A_FLOW_ID]);
		ent[n].rate = nla_get_u64(tb[R2C2_A_RATE]);
		n++;
	}
	if (rem || !n) {
		NL_SET_ERR_MSG_ATTR(extack, info->attrs[R2C2_A_RATES],
				    "RATES needs 1..4096 well-formed entries");
		goto out;
	}
	err = -ENODEV;
	mutex_lock(&r2c2_sch_mutex);
	for (s = r2c2_sch_find(genl_info_net(info), ifindex, 0, extack); s;
	     s = r2c2_sch_find(genl_info_net(info), ifindex, s->seq + 1, NULL)) {
		s->ops->rate_set(s->priv, ent, n);
		err = 0;
	}
	mutex_unlock(&r2c2_sch_mutex);
	for (i = 0; !err && i < n; i++)
		if (!ent[i].applied) {
			NL_SET_ERR_MSG(extack, "rates of flows unknown to the qdisc were skipped");
			break;
		}
out:
	kvfree(ent);
	return err;
}

struct r2c2_qflow_dump {
	struct sk_buff *skb;
	struct netlink_callback *cb;
};

static int r2c2_qflow_fill(void *arg, const struct r2c2_qflow_info *fi)
{
	struct r2c2_qflow_dump *d = arg;
	struct sk_buff *skb = d->skb;
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(d->cb->skb).portid,
			  d->cb->nlh->nlmsg_seq, r2c2_genl_dump_family(d->cb),
			  NLM_F_MULTI, R2C2_CMD_QFLOW_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, R2C2_A_FLOW_ID, fi->id) ||
	    (fi->dst != R2C2_ADDR_NONE &&
	     nla_put_u16(skb, R2C2_A_DST, fi->dst)) ||
	    nla_put_u8(skb, R2C2_A_RATE_STATE, fi->state) ||
	    nla_put_u16(skb, R2C2_A_SPORT, fi->sport) ||
	    nla_put_u16(skb, R2C2_A_DPORT, fi->dport) ||
	    nla_put_u8(skb, R2C2_A_WEIGHT, fi->weight) ||
	    nla_put_u8(skb, R2C2_A_PRIO, fi->prio) ||
	    nla_put_u64_64bit(skb, R2C2_A_RATE, fi->rate, R2C2_A_PAD) ||
	    nla_put_u32(skb, R2C2_A_QLEN, fi->qlen) ||
	    nla_put_u32(skb, R2C2_A_BACKLOG, fi->backlog) ||
	    nla_put_u64_64bit(skb, R2C2_A_PACKETS, fi->packets, R2C2_A_PAD) ||
	    nla_put_u64_64bit(skb, R2C2_A_BYTES, fi->bytes, R2C2_A_PAD) ||
	    nla_put_u64_64bit(skb, R2C2_A_DROPS, fi->drops, R2C2_A_PAD) ||
	    nla_put_u32(skb, R2C2_A_AGE_MS, fi->age_ms) ||
	    nla_put_u32(skb, R2C2_A_LEASE_MS, fi->lease_ms)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* IFINDEX of a dump request, 0 when absent (parsed here: where the
 * parsed attributes of a dump live differs between 6.1 and 6.12)
 */
static int r2c2_dump_ifindex(struct netlink_callback *cb)
{
	struct nlattr *tb[R2C2_A_MAX + 1];

	if (nlmsg_parse(cb->nlh, GENL_HDRLEN, tb, R2C2_A_MAX, r2c2_policy,
			NULL) || !tb[R2C2_A_IFINDEX])
		return 0;
	return (int)nla_get_u32(tb[R2C2_A_IFINDEX]);
}

/**
 * r2c2_nl_qflow_dump() - R2C2_CMD_QFLOW_GET: the flows of the device's
 *	qdiscs, one after the other in the order they registered
 * @skb: the message to fill
 * @cb: cb->args[0] the current qdisc's cursor, args[1] the device's
 *	ifindex, args[2] done, args[3] the current qdisc's seq
 *
 * Return: bytes written, 0 at the end, or a negative errno.
 */
int r2c2_nl_qflow_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct r2c2_qflow_dump d = { .skb = skb, .cb = cb };
	struct net *net = sock_net(skb->sk);
	unsigned long cursor;
	struct r2c2_sch *s;
	int ifindex, err = 0;

	if (cb->args[2])
		return 0;
	ifindex = (int)cb->args[1];
	if (!ifindex)
		ifindex = r2c2_dump_ifindex(cb);
	mutex_lock(&r2c2_sch_mutex);
	s = r2c2_sch_find(net, ifindex, cb->args[3],
			  cb->args[1] ? NULL : cb->extack);
	if (!s && !cb->args[1]) {
		mutex_unlock(&r2c2_sch_mutex);
		return -ENODEV;
	}
	/* a qdisc that went away in the middle of a dump is skipped */
	for (; s; s = r2c2_sch_find(net, ifindex, s->seq + 1, NULL)) {
		if (s->seq != (u64)cb->args[3]) {
			cb->args[3] = s->seq;
			cb->args[0] = 0;
		}
		cb->args[1] = s->dev->ifindex;
		/* the walk takes the qdisc lock a bounded while at a time */
		do {
			cursor = cb->args[0];
			err = s->ops->qflow_walk(s->priv, &cursor,
						 r2c2_qflow_fill, &d);
			cb->args[0] = cursor;
			if (err == -EAGAIN)
				cond_resched();
		} while (err == -EAGAIN);
		if (err)
			break;
	}
	mutex_unlock(&r2c2_sch_mutex);
	if (!err)
		cb->args[2] = 1;
	else if (err != -EMSGSIZE)
		return err;
	return skb->len;
}
