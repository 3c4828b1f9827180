// SPDX-License-Identifier: GPL-2.0
/*
 * genl.c - what r2c2ctl and r2c2d share of talking to the "r2c2" generic
 * netlink family: see r2c2_genl.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/netlink.h>
#include <netlink/netlink.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>

#include "r2c2_genl.h"

#define U8	{ .type = NLA_U8 }
#define U16	{ .type = NLA_U16 }
#define U32	{ .type = NLA_U32 }
#define U64	{ .type = NLA_U64 }
#define S32	{ .type = NLA_S32 }
#define NEST	{ .type = NLA_NESTED }
#define BINARY	{ .type = NLA_UNSPEC }
/* a string of at most 15 characters (IFNAMSIZ with its NUL) */
#define IFNAME	{ .type = NLA_STRING, .maxlen = 16 }
#define EXACT(n) { .type = NLA_UNSPEC, .minlen = (n), .maxlen = (n) }
#define MAXLEN(n) { .type = NLA_UNSPEC, .maxlen = (n) }

struct nla_policy r2c2_genl_policy[R2C2_A_MAX + 1] = {
	[R2C2_A_NODE_ADDR]		= U16,
	[R2C2_A_IFNAME]			= IFNAME,
	[R2C2_A_IFINDEX]		= U32,
	[R2C2_A_PORT]			= U8,
	[R2C2_A_PORT_IFNAME]		= IFNAME,
	[R2C2_A_PORT_STATE]		= U8,
	[R2C2_A_NBR_ADDR]		= U16,
	[R2C2_A_NBR_PORT]		= U8,
	[R2C2_A_NBR_MAC]		= EXACT(6),
	[R2C2_A_HELLO_MS]		= U32,
	[R2C2_A_TREES]			= U8,
	[R2C2_A_RPROTO]			= U8,
	[R2C2_A_TOPO_DIMS]		= NEST,
	[R2C2_A_TOPO_DIM]		= U8,
	[R2C2_A_NODES]			= U32,
	[R2C2_A_LINKS]			= U32,
	[R2C2_A_TOPO_OK]		= U8,
	[R2C2_A_TABLES_GEN]		= U32,
	[R2C2_A_STATS]			= NEST,
	[R2C2_A_TOPO_NODE]		= NEST,
	[R2C2_A_TOPO_LINK]		= NEST,
	[R2C2_A_TREE_SRC]		= U16,
	[R2C2_A_TREE_ID]		= U8,
	[R2C2_A_TREE_PORTS]		= U8,
	[R2C2_A_TREE_PARENT]		= U8,
	[R2C2_A_DST]			= U16,
	[R2C2_A_ROUTE]			= MAXLEN(R2C2_MAX_HOPS),
	[R2C2_A_FLOW_ID]		= U32,
	[R2C2_A_FLOW_SRC]		= U16,
	[R2C2_A_WEIGHT]			= U8,
	[R2C2_A_PRIO]			= U8,
	[R2C2_A_DEMAND_KBPS]		= U32,
	[R2C2_A_FLOW_EVT]		= U8,
	[R2C2_A_PACKETS]		= U64,
	[R2C2_A_BYTES]			= U64,
	[R2C2_A_SEQ]			= U32,
	[R2C2_A_AGE_MS]			= U32,
	[R2C2_A_ROUTES]			= NEST,
	[R2C2_A_ROUTE_ENT]		= NEST,
	[R2C2_A_ETHERTYPE]		= U16,
	[R2C2_A_COUNT]			= U32,
	[R2C2_A_LINK_COUNTS]		= BINARY,
	[R2C2_A_RATE]			= U64,
	[R2C2_A_RATES]			= NEST,
	[R2C2_A_RATE_ENT]		= NEST,
	[R2C2_A_QLEN]			= U32,
	[R2C2_A_BACKLOG]		= U32,
	[R2C2_A_DROPS]			= U64,
	[R2C2_A_RATE_STATE]		= U8,
	[R2C2_A_SPORT]			= U16,
	[R2C2_A_DPORT]			= U16,
	[R2C2_A_LEASE_MS]		= U32,
	[R2C2_A_RESEQ]			= U8,
	[R2C2_A_RESEQ_TIMEOUT_US]	= U32,
	[R2C2_A_RESEQ_FLOW_LIMIT]	= U32,
	[R2C2_A_RESEQ_LIMIT]		= U32,
	[R2C2_A_RESEQ_HELD]		= U32,
	[R2C2_A_RESEQ_MAX_DEPTH]	= U32,
	[R2C2_A_RESEQ_FLOWS]		= U32,
	[R2C2_A_RESEQ_TIMEOUT_EFF_US]	= U32,
	[R2C2_A_RESEQ_HIST]		= BINARY,
	[R2C2_A_CLASS_ID]		= U8,
	[R2C2_A_DSCP]			= U8,
	[R2C2_A_SKB_PRIO]		= U32,
	[R2C2_A_SPORT_MAX]		= U16,
	[R2C2_A_DPORT_MAX]		= U16,
	[R2C2_A_CLASS_FLOWS]		= U64,
	[R2C2_A_KEY_ID]			= U8,
	[R2C2_A_KEY]			= EXACT(R2C2_AUTH_KEY_LEN),
	[R2C2_A_KEY_OVERLAP_MS]		= U32,
	[R2C2_A_KEY_PREV_ID]		= U8,
	[R2C2_A_KEY_PREV_MS]		= U32,
	[R2C2_A_XDP_PORTS_FD]		= S32,
	[R2C2_A_XDP_STATS_FD]		= S32,
	[R2C2_A_XDP]			= U8,
};

int r2c2_genl_parse(struct nl_msg *msg, struct nlattr **tb, uint8_t *cmd)
{
	struct nlmsghdr *h = nlmsg_hdr(msg);
	int err;

	if (!genlmsg_valid_hdr(h, 0))
		return -NLE_MSG_TOOSHORT;
	err = genlmsg_parse(h, 0, tb, R2C2_A_MAX, r2c2_genl_policy);
	if (err < 0)
		return err;
	if (cmd)
		*cmd = genlmsg_hdr(h)->cmd;
	return 0;
}

int r2c2_genl_parse_nested(struct nlattr **tb, const struct nlattr *nest)
{
	return nla_parse_nested(tb, R2C2_A_MAX, (struct nlattr *)nest,
				r2c2_genl_policy);
}

int r2c2_genl_errno(int e)
{
	if (e < -4095 || e > 4095)
		return EPROTO;
	return e < 0 ? -e : e;
}

void r2c2_genl_extack(struct nlmsghdr *h, size_t skip,
		      struct r2c2_genl_extack *x)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = { NULL };
	const struct nlmsgerr *e = NLMSG_DATA(h);
	size_t off = NLMSG_HDRLEN + skip;

	x->msg = NULL;
	x->miss_type = -1;
	/* an error echoes the request unless capped */
	if (h->nlmsg_type == NLMSG_ERROR && !(h->nlmsg_flags & NLM_F_CAPPED) &&
	    e->msg.nlmsg_len > NLMSG_HDRLEN)
		off += NLMSG_ALIGN(e->msg.nlmsg_len - NLMSG_HDRLEN);
	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS) || h->nlmsg_len <= off)
		return;
	nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)((char *)h + off),
		  (int)(h->nlmsg_len - off), NULL);
	if (tb[NLMSGERR_ATTR_MSG] && nla_len(tb[NLMSGERR_ATTR_MSG]) > 0) {
		char *s = nla_data(tb[NLMSGERR_ATTR_MSG]);

		s[nla_len(tb[NLMSGERR_ATTR_MSG]) - 1] = '\0';
		x->msg = s;
	}
	if (tb[NLMSGERR_ATTR_MISS_TYPE] &&
	    nla_len(tb[NLMSGERR_ATTR_MISS_TYPE]) >= 4)
		x->miss_type = nla_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE]);
}

int r2c2_genl_family(struct nl_sock *sk, const char *name, char *err,
		     size_t errlen)
{
	int id = genl_ctrl_resolve(sk, name);

	if (id == -NLE_OBJ_NOTFOUND)
		snprintf(err, errlen,
			 "the r2c2 kernel module is not loaded (generic netlink family \"%s\" not found); try: modprobe r2c2",
			 name);
	else if (id < 0)
		snprintf(err, errlen,
			 "cannot resolve generic netlink family \"%s\": %s",
			 name, nl_geterror(id));
	return id;
}

int r2c2_genl_group(struct nl_sock *sk, const char *family,
		    const char *group, char *err, size_t errlen)
{
	int id = genl_ctrl_resolve_grp(sk, family, group);

	if (id < 0)
		snprintf(err, errlen,
			 "generic netlink family \"%s\" has no multicast group \"%s\": %s",
			 family, group, nl_geterror(id));
	return id;
}
