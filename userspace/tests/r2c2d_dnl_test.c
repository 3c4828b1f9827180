// SPDX-License-Identifier: GPL-2.0
/*
 * r2c2d_dnl_test.c - r2c2d's netlink (r2c2d/dnl.c) offline (TAP): the
 * event socket's callback, ev_cb(), fed messages built by hand as libnl
 * hands them over (nlmsg_convert(): a copy of exactly nlmsg_len bytes);
 * dnl.c is included, no socket is opened.
 */
#include <stdio.h>
#include <string.h>

#include "../r2c2d/dnl.c"
#include "alloc_tap.h"

#define FAMILY	0x1a

static struct mx_evt got;
static int ngot;

static void on_flow(void *arg, const struct mx_evt *e)
{
	(void)arg;
	got = *e;
	ngot++;
}

/* msg's bytes (len, at least a header) through ev_cb() */
static void feed(struct dnl *d, const void *bytes, uint32_t len)
{
	struct ev_ctx c = { d, on_flow, NULL };
	unsigned char buf[256];
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	struct nl_msg *msg;

	memcpy(buf, bytes, len);
	h->nlmsg_len = len;
	msg = nlmsg_convert(h);
	ev_cb(msg, &c);
	nlmsg_free(msg);
}

static struct nl_msg *genl(int family, uint8_t cmd)
{
	struct nl_msg *m = nlmsg_alloc();

	genlmsg_put(m, 0, 0, family, 0, 0, cmd, 1);
	return m;
}

/* a FLOW_EVENT as r2c2.ko builds it reaches the callback */
static void ev_cb__flow_event(void)
{
	struct dnl d = { .family = FAMILY };
	struct nl_msg *m = genl(FAMILY, R2C2_CMD_FLOW_EVENT);

	nla_put_u16(m, R2C2_A_FLOW_SRC, 3);
	nla_put_u32(m, R2C2_A_FLOW_ID, 0x8f78c8c0);
	nla_put_u16(m, R2C2_A_DST, 9);
	nla_put_u8(m, R2C2_A_WEIGHT, 4);
	nla_put_u8(m, R2C2_A_PRIO, 2);
	nla_put_u32(m, R2C2_A_DEMAND_KBPS, 1100);
	nla_put_u8(m, R2C2_A_RPROTO, R2C2_RP_VLB);
	nla_put_u8(m, R2C2_A_FLOW_EVT, R2C2_FE_UPDATE);
	ngot = 0;
	feed(&d, nlmsg_hdr(m), nlmsg_hdr(m)->nlmsg_len);
	nlmsg_free(m);
	ok(ngot == 1 && got.type == R2C2_FE_UPDATE && got.src == 3 &&
	   got.id == 0x8f78c8c0 && got.dst == 9 && got.weight == 4 &&
	   got.prio == 2 && got.demand_kbps == 1100 &&
	   got.rproto == R2C2_RP_VLB && d.ev_msgs == 1,
	   "a FLOW_EVENT reaches the callback with its fields");
}

/*
 * A message of the family, or of nlctrl, with a header and no room for
 * the genl header after it: ev_cb() read the command past its end
 * (netlink_fuzz, ASan: heap-buffer-overflow in ctrl_ev())
 */
static void ev_cb__no_genl_header(void)
{
	struct dnl d = { .family = FAMILY };
	struct nlmsghdr h = { .nlmsg_len = NLMSG_HDRLEN };

	ngot = 0;
	h.nlmsg_type = FAMILY;
	feed(&d, &h, NLMSG_HDRLEN);
	h.nlmsg_type = GENL_ID_CTRL;
	feed(&d, &h, NLMSG_HDRLEN);
	ok(!ngot && !d.gone, "messages without a genl header are dropped");
}

/*
 * nlctrl's DELFAMILY of "r2c2" says the module went; its name compared
 * as a C string read past an attribute without its NUL
 */
static void ctrl_ev__delfamily(void)
{
	struct dnl d = { .family = FAMILY };
	struct nl_msg *m = genl(GENL_ID_CTRL, CTRL_CMD_DELFAMILY);

	nla_put_string(m, CTRL_ATTR_FAMILY_NAME, "batadv");
	feed(&d, nlmsg_hdr(m), nlmsg_hdr(m)->nlmsg_len);
	nlmsg_free(m);
	ok(!d.gone, "another family's DELFAMILY leaves the daemon be");

	m = genl(GENL_ID_CTRL, CTRL_CMD_DELFAMILY);
	nla_put_string(m, CTRL_ATTR_FAMILY_NAME, R2C2_GENL_NAME);
	feed(&d, nlmsg_hdr(m), nlmsg_hdr(m)->nlmsg_len);
	nlmsg_free(m);
	ok(d.gone, "the r2c2 family's DELFAMILY: gone");

	/* "r2c2" without its NUL, the last bytes of the message */
	d.gone = false;
	m = genl(GENL_ID_CTRL, CTRL_CMD_DELFAMILY);
	nla_put(m, CTRL_ATTR_FAMILY_NAME, 4, R2C2_GENL_NAME);
	feed(&d, nlmsg_hdr(m), nlmsg_hdr(m)->nlmsg_len);
	nlmsg_free(m);
	ok(!d.gone, "a family name without its NUL is no name (not read past)");
}

int main(void)
{
	ev_cb__flow_event();
	ev_cb__no_genl_header();
	ctrl_ev__delfamily();
	return tap_done();
}
