// SPDX-License-Identifier: GPL-2.0
/*
 * netlink_seeds.c - the seed corpus of netlink_fuzz: event messages as
 * r2c2.ko multicasts them (kmod/netlink.c: r2c2_genl_flow_event(),
 * r2c2_genl_routes_event(), r2c2_genl_topo_event(), the same attributes
 * in the same order) and nlctrl's CTRL_CMD_DELFAMILY, built with libnl
 * and written one file a datagram into the directory given.
 *
 *	make -C userspace fuzz-seeds	(writes fuzz/corpus/netlink/)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/types.h>
#include <linux/r2c2.h>
#include <netlink/netlink.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

/* netlink_fuzz's r2c2 family id, and the daemon's node */
#define FAMILY	0x1a
#define NODE	5

static unsigned char dgram[8192];
static size_t dlen;

static void add(struct nl_msg *m)
{
	struct nlmsghdr *h = nlmsg_hdr(m);

	if (dlen + NLMSG_ALIGN(h->nlmsg_len) > sizeof(dgram))
		abort();
	memcpy(dgram + dlen, h, h->nlmsg_len);
	dlen += NLMSG_ALIGN(h->nlmsg_len);
	nlmsg_free(m);
}

static void save(const char *dir, const char *name)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fwrite(dgram, 1, dlen, f) != dlen || fclose(f)) {
		perror(path);
		exit(1);
	}
	dlen = 0;
}

static struct nl_msg *event(int family, uint8_t cmd, uint8_t version)
{
	struct nl_msg *m = nlmsg_alloc();

	if (!m || !genlmsg_put(m, 0, 0, family, 0, 0, cmd, version))
		abort();
	return m;
}

/* r2c2_genl_flow_event() */
static void flow(uint8_t type, uint16_t src, uint32_t id, uint16_t dst,
		 uint8_t weight, uint8_t prio, uint8_t rproto, uint32_t demand)
{
	struct nl_msg *m = event(FAMILY, R2C2_CMD_FLOW_EVENT, R2C2_GENL_VERSION);

	if (nla_put_u16(m, R2C2_A_FLOW_SRC, src) ||
	    nla_put_u32(m, R2C2_A_FLOW_ID, id) ||
	    nla_put_u16(m, R2C2_A_DST, dst) ||
	    nla_put_u8(m, R2C2_A_WEIGHT, weight) ||
	    nla_put_u8(m, R2C2_A_PRIO, prio & 0xf) ||
	    nla_put_u32(m, R2C2_A_DEMAND_KBPS, demand & R2C2_DEMAND_UNLIMITED) ||
	    nla_put_u8(m, R2C2_A_RPROTO, rproto) ||
	    nla_put_u8(m, R2C2_A_FLOW_EVT, type))
		abort();
	add(m);
}

/* r2c2_genl_routes_event() */
static void routes(uint16_t from, const uint16_t *src, const uint32_t *id,
		   const uint8_t *rproto, unsigned int n)
{
	struct nl_msg *m = event(FAMILY, R2C2_CMD_ROUTES_EVENT, R2C2_GENL_VERSION);
	struct nlattr *list, *e;

	if (nla_put_u16(m, R2C2_A_NODE_ADDR, from))
		abort();
	list = nla_nest_start(m, R2C2_A_ROUTES);
	for (unsigned int i = 0; list && i < n; i++) {
		e = nla_nest_start(m, R2C2_A_ROUTE_ENT);
		if (!e || nla_put_u16(m, R2C2_A_FLOW_SRC, src[i]) ||
		    nla_put_u32(m, R2C2_A_FLOW_ID, id[i]) ||
		    nla_put_u8(m, R2C2_A_RPROTO, rproto[i]))
			abort();
		nla_nest_end(m, e);
	}
	if (!list)
		abort();
	nla_nest_end(m, list);
	add(m);
}

/* r2c2_genl_topo_event() */
static void topo(uint32_t nodes, uint32_t links, uint32_t gen, int ok)
{
	struct nl_msg *m = event(FAMILY, R2C2_CMD_TOPO_EVENT, R2C2_GENL_VERSION);

	if (nla_put_u16(m, R2C2_A_NODE_ADDR, NODE) ||
	    nla_put_u32(m, R2C2_A_NODES, nodes) ||
	    nla_put_u32(m, R2C2_A_LINKS, links) ||
	    nla_put_u32(m, R2C2_A_TABLES_GEN, gen) ||
	    (ok >= 0 && nla_put_u8(m, R2C2_A_TOPO_OK, (uint8_t)ok)))
		abort();
	add(m);
}

/* nlctrl's notify group: a family unregistered */
static void delfamily(const char *name, uint16_t id)
{
	struct nl_msg *m = event(GENL_ID_CTRL, CTRL_CMD_DELFAMILY, 2);

	if (nla_put_string(m, CTRL_ATTR_FAMILY_NAME, name) ||
	    nla_put_u16(m, CTRL_ATTR_FAMILY_ID, id))
		abort();
	add(m);
}

int main(int argc, char **argv)
{
	const uint32_t unl = R2C2_DEMAND_UNLIMITED;
	const char *dir = argc > 1 ? argv[1] : ".";

	flow(R2C2_FE_START, 1, 0x8f78c8c0, 3, 1, 0, R2C2_RP_RPS, unl);
	save(dir, "flow-start");

	flow(R2C2_FE_START, 2, 7, 9, 3, 1, R2C2_RP_DOR, 1100);
	flow(R2C2_FE_UPDATE, 2, 7, 9, 3, 1, R2C2_RP_DOR, 2200);
	flow(R2C2_FE_REFRESH, 2, 7, 9, 3, 1, R2C2_RP_DOR, 2200);
	flow(R2C2_FE_START, 2, 8, 12, 255, 15, R2C2_RP_VLB, 0);
	flow(R2C2_FE_FINISH, 2, 7, 9, 3, 1, R2C2_RP_DOR, 2200);
	save(dir, "flow-lifecycle");

	/* this node's own flows heard back */
	flow(R2C2_FE_START, NODE, 1, 6, 1, 0, R2C2_RP_RPS, unl);
	flow(R2C2_FE_REFRESH, NODE, 1, 6, 1, 0, R2C2_RP_RPS, 500);
	flow(R2C2_FE_START, NODE, 1, 6, 1, 0, R2C2_RP_RPS, 500);
	flow(R2C2_FE_FINISH, NODE, 1, 6, 1, 0, R2C2_RP_RPS, unl);
	save(dir, "own-echo");

	/* an update of a flow never started, a finish of one unknown */
	flow(R2C2_FE_UPDATE, 3, 0xffffffff, 0, 2, 0, R2C2_RP_RPS, 40);
	flow(R2C2_FE_FINISH, 4, 1, 0, 1, 0, R2C2_RP_RPS, unl);
	/* outside the 16 nodes: held, not allocated */
	flow(R2C2_FE_START, 40, 2, 3, 1, 0, R2C2_RP_RPS, unl);
	flow(R2C2_FE_START, 3, 3, 0xfffe, 1, 0, R2C2_RP_VLB, unl);
	save(dir, "flow-implicit");

	/* node 3 has one flow; its digests disagree twice: ask it */
	flow(R2C2_FE_START, 3, 11, 4, 1, 0, R2C2_RP_RPS, unl);
	flow(R2C2_FE_DIGEST, 3, 0x12345678, 3, R2C2_DIGEST_F_PERIODIC, 0, 0, 2);
	flow(R2C2_FE_DIGEST, 3, 0x12345678, 3, R2C2_DIGEST_F_PERIODIC, 0, 0, 2);
	flow(R2C2_FE_DIGEST, 3, 0x12345678, 3,
	     R2C2_DIGEST_F_PERIODIC | R2C2_DIGEST_F_ANSWER, 0, 0, 1);
	save(dir, "digest");

	/* node 7 asks this node for its flows */
	flow(R2C2_FE_RESYNC, 7, 0, NODE, 1, 0, 0, 0);
	flow(R2C2_FE_RESYNC, 7, 0, 9, 1, 0, 0, 0);
	save(dir, "resync");

	{
		static const uint16_t src[] = { 2, 2, 9, NODE };
		static const uint32_t id[] = { 1, 2, 1, 3 };
		static const uint8_t rp[] = { R2C2_RP_VLB, R2C2_RP_DOR,
					      R2C2_RP_RPS, R2C2_RP_VLB };

		flow(R2C2_FE_START, 2, 1, 14, 1, 0, R2C2_RP_RPS, unl);
		flow(R2C2_FE_START, 2, 2, 13, 1, 0, R2C2_RP_RPS, 300);
		routes(8, src, id, rp, 4);
		save(dir, "routes");
	}

	topo(16, 64, 3, 1);
	topo(15, 56, 4, 0);
	save(dir, "topo");

	delfamily("r2c2", FAMILY);
	save(dir, "delfamily");
	delfamily("batadv", 0x1b);
	flow(R2C2_FE_START, 1, 1, 2, 1, 0, R2C2_RP_RPS, unl);
	save(dir, "delfamily-other");

	for (unsigned int i = 0; i < 40; i++)
		flow(R2C2_FE_START, (uint16_t)(i % 17), i, (uint16_t)((i * 7 + 3) % 16),
		     (uint8_t)(1 + i % 4), (uint8_t)(i % 3), (uint8_t)(i % 3),
		     i % 5 ? unl : 1000 * i);
	save(dir, "many");
	return 0;
}
