// SPDX-License-Identifier: GPL-2.0
/*
 * policy.c - the strict netlink policy of the "r2c2" generic netlink
 * family, shared by every command (kmod/netlink.c, kmod/sch_api.c). In a
 * file of its own so that KUnit (kunit/policy_test.c) can validate
 * crafted attributes against exactly what the family uses.
 */
#include <linux/if.h>
#include <linux/if_ether.h>
#include <net/netlink.h>

#include "r2c2.h"

static struct netlink_range_validation r2c2_addr_range __ro_after_init = {
	.min = 0, .max = R2C2_ADDR_NONE - 1,
};

static struct netlink_range_validation r2c2_hello_range __ro_after_init = {
	.min = 10, .max = 60000,
};

static struct netlink_range_validation r2c2_demand_range __ro_after_init = {
	.min = 0, .max = R2C2_DEMAND_UNLIMITED,
};

static struct netlink_range_validation r2c2_count_range __ro_after_init = {
	.min = 1, .max = R2C2_ROUTE_SAMPLES_MAX,
};

static struct netlink_range_validation r2c2_rsq_timeout_range __ro_after_init = {
	.min = R2C2_RSQ_TIMEOUT_US_MIN, .max = R2C2_RSQ_TIMEOUT_US_MAX,
};

static struct netlink_range_validation r2c2_rsq_flow_limit_range __ro_after_init = {
	.min = 1, .max = R2C2_RSQ_WIN - 1,
};

static struct netlink_range_validation r2c2_rsq_limit_range __ro_after_init = {
	.min = 1, .max = R2C2_RSQ_LIMIT_MAX,
};

static struct netlink_range_validation r2c2_overlap_range __ro_after_init = {
	.min = 0, .max = R2C2_TIME_MS_MAX,
};

static struct netlink_range_validation r2c2_rate_range __ro_after_init = {
	.min = R2C2_RATE_MIN, .max = R2C2_RATE_MAX,
};

const struct nla_policy r2c2_policy[R2C2_A_MAX + 1] = {
	[R2C2_A_NODE_ADDR] = NLA_POLICY_FULL_RANGE(NLA_U16, &r2c2_addr_range),
	[R2C2_A_IFNAME] = { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 },
	[R2C2_A_IFINDEX] = { .type = NLA_U32 },
	[R2C2_A_PORT] = NLA_POLICY_MAX(NLA_U8, R2C2_MAX_PORTS - 1),
	[R2C2_A_PORT_IFNAME] = { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 },
	[R2C2_A_PORT_STATE] = NLA_POLICY_MAX(NLA_U8, R2C2_PS_NBR),
	[R2C2_A_NBR_ADDR] = NLA_POLICY_FULL_RANGE(NLA_U16, &r2c2_addr_range),
	[R2C2_A_NBR_PORT] = NLA_POLICY_MAX(NLA_U8, R2C2_MAX_PORTS - 1),
	[R2C2_A_NBR_MAC] = NLA_POLICY_EXACT_LEN(ETH_ALEN),
	[R2C2_A_HELLO_MS] = NLA_POLICY_FULL_RANGE(NLA_U32, &r2c2_hello_range),
	[R2C2_A_TREES] = NLA_POLICY_RANGE(NLA_U8, 1, R2C2_MAX_TREES),
	[R2C2_A_RPROTO] = NLA_POLICY_MAX(NLA_U8, __R2C2_RP_MAX - 1),
	[R2C2_A_TOPO_DIMS] = { .type = NLA_NESTED },
	[R2C2_A_TOPO_DIM] = NLA_POLICY_MIN(NLA_U8, 2),
	[R2C2_A_NODES] = { .type = NLA_U32 },
	[R2C2_A_LINKS] = { .type = NLA_U32 },
	[R2C2_A_TOPO_OK] = NLA_POLICY_MAX(NLA_U8, 1),
	[R2C2_A_TABLES_GEN] = { .type = NLA_U32 },
	[R2C2_A_STATS] = { .type = NLA_NESTED },
	[R2C2_A_TOPO_NODE] = { .type = NLA_NESTED },
	[R2C2_A_TOPO_LINK] = { .type = NLA_NESTED },
	[R2C2_A_TREE_SRC] = NLA_POLICY_FULL_RANGE(NLA_U16, &r2c2_addr_range),
	[R2C2_A_TREE_ID] = NLA_POLICY_MAX(NLA_U8, R2C2_MAX_TREES - 1),
	[R2C2_A_TREE_PORTS] = { .type = NLA_U8 },
	[R2C2_A_TREE_PARENT] = { .type = NLA_U8 },
	[R2C2_A_DST] = NLA_POLICY_FULL_RANGE(NLA_U16, &r2c2_addr_range),
	[R2C2_A_ROUTE] = { .type = NLA_BINARY, .len = R2C2_MAX_HOPS },
	[R2C2_A_FLOW_ID] = { .type = NLA_U32 },
	[R2C2_A_FLOW_SRC] = NLA_POLICY_FULL_RANGE(NLA_U16, &r2c2_addr_range),
	[R2C2_A_WEIGHT] = NLA_POLICY_MIN(NLA_U8, 1),
	[R2C2_A_PRIO] = NLA_POLICY_MAX(NLA_U8, 15),
	[R2C2_A_DEMAND_KBPS] = NLA_POLICY_FULL_RANGE(NLA_U32, &r2c2_demand_range),
	[R2C2_A_FLOW_EVT] = NLA_POLICY_RANGE(NLA_U8, R2C2_FE_START,
					     R2C2_FE_RESYNC),
	[R2C2_A_PACKETS] = { .type = NLA_U64 },
	[R2C2_A_BYTES] = { .type = NLA_U64 },
	[R2C2_A_SEQ] = { .type = NLA_U32 },
	[R2C2_A_AGE_MS] = { .type = NLA_U32 },
	[R2C2_A_ROUTES] = { .type = NLA_NESTED },
	[R2C2_A_ROUTE_ENT] = { .type = NLA_NESTED },
	[R2C2_A_ETHERTYPE] = { .type = NLA_U16 },
	[R2C2_A_COUNT] = NLA_POLICY_FULL_RANGE(NLA_U32, &r2c2_count_range),
	[R2C2_A_LINK_COUNTS] = { .type = NLA_BINARY },
	[R2C2_A_RESEQ] = NLA_POLICY_MAX(NLA_U8, 1),
	[R2C2_A_RESEQ_TIMEOUT_US] = NLA_POLICY_FULL_RANGE(NLA_U32, &r2c2_rsq_timeout_range),
	[R2C2_A_RESEQ_FLOW_LIMIT] = NLA_POLICY_FULL_RANGE(NLA_U32, &r2c2_rsq_flow_limit_range),
	[R2C2_A_RESEQ_LIMIT] = NLA_POLICY_FULL_RANGE(NLA_U32, &r2c2_rsq_limit_range),
	[R2C2_A_RATE] = NLA_POLICY_FULL_RANGE(NLA_U64, &r2c2_rate_range),
	[R2C2_A_RATES] = { .type = NLA_NESTED },
	[R2C2_A_RATE_ENT] = { .type = NLA_NESTED },
	[R2C2_A_QLEN] = { .type = NLA_U32 },
	[R2C2_A_BACKLOG] = { .type = NLA_U32 },
	[R2C2_A_DROPS] = { .type = NLA_U64 },
	[R2C2_A_RATE_STATE] = NLA_POLICY_MAX(NLA_U8, R2C2_RS_PENDING),
	[R2C2_A_SPORT] = { .type = NLA_U16 },
	[R2C2_A_DPORT] = { .type = NLA_U16 },
	[R2C2_A_LEASE_MS] = { .type = NLA_U32 },
	[R2C2_A_CLASS_ID] = NLA_POLICY_RANGE(NLA_U8, 1, R2C2_CLASS_MAX),
	[R2C2_A_DSCP] = NLA_POLICY_MAX(NLA_U8, 63),
	[R2C2_A_SKB_PRIO] = { .type = NLA_U32 },
	[R2C2_A_SPORT_MAX] = { .type = NLA_U16 },
	[R2C2_A_DPORT_MAX] = { .type = NLA_U16 },
	[R2C2_A_KEY_ID] = NLA_POLICY_MIN(NLA_U8, 1),
	[R2C2_A_KEY] = NLA_POLICY_EXACT_LEN(R2C2_AUTH_KEY_LEN),
	[R2C2_A_KEY_OVERLAP_MS] = NLA_POLICY_FULL_RANGE(NLA_U32, &r2c2_overlap_range),
	[R2C2_A_KEY_PREV_ID] = NLA_POLICY_MIN(NLA_U8, 1),
	[R2C2_A_KEY_PREV_MS] = { .type = NLA_U32 },
	[R2C2_A_XDP_PORTS_FD] = NLA_POLICY_MIN(NLA_S32, 0),
	[R2C2_A_XDP_STATS_FD] = NLA_POLICY_MIN(NLA_S32, 0),
	[R2C2_A_XDP] = NLA_POLICY_MAX(NLA_U8, 1),
};
