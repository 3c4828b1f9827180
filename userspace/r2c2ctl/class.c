// SPDX-License-Identifier: GPL-2.0
/*
 * class.c - r2c2ctl class { add | del | show }: the node's traffic
 * classes (CLASS_SET, CLASS_DEL, CLASS_GET), which give a flow the
 * allocation weight and priority its START announces (sch_r2c2 looks
 * the class up at the flow's first packet).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/attr.h>

#include "json.h"
#include "nl.h"
#include "r2c2ctl.h"

static void usage(FILE *f)
{
	fputs("Usage: r2c2ctl class add ID [ dscp DSCP ] [ priority SKBPRIO ]\n"
	      "                        [ sport PORT[-PORT] ] [ dport PORT[-PORT] ]\n"
	      "                        [ weight W ] [ prio P ]\n"
	      "       r2c2ctl class del ID\n"
	      "       r2c2ctl [ -j ] class show\n"
	      "where  ID      := 1..64: classes are tried in ascending ID order,\n"
	      "                  the first whose criteria all hold wins (none: every flow)\n"
	      "       DSCP    := 0..63 (IPv4 or IPv6)\n"
	      "       SKBPRIO := socket priority (SO_PRIORITY), 0..4294967295\n"
	      "       PORT    := transport port, 0..65535\n"
	      "       W       := allocation weight, 1..255 (default 1)\n"
	      "       P       := priority, 0 (highest)..15 (default 0)\n"
	      "add replaces a class of the same ID.\n", f);
}

/* "LO" or "LO-HI" */
static int parse_range(const char *what, const char *s, uint16_t *lo,
		       uint16_t *hi)
{
	char buf[32], *dash;
	uint32_t a, b;

	if (strlen(s) >= sizeof(buf))
		return parse_u32(what, s, 0, 65535, &a);
	strcpy(buf, s);
	dash = strchr(buf, '-');
	if (dash)
		*dash++ = '\0';
	if (parse_u32(what, buf, 0, 65535, &a))
		return -1;
	b = a;
	if (dash && parse_u32(what, dash, a, 65535, &b))
		return -1;
	*lo = (uint16_t)a;
	*hi = (uint16_t)b;
	return 0;
}

struct class_args {
	bool have_dscp, have_skbprio, have_sport, have_dport;
	bool have_weight, have_prio;
	uint32_t dscp, skbprio, weight, prio;
	uint16_t sport_lo, sport_hi, dport_lo, dport_hi;
};

static int class_add(int argc, char **argv)
{
	struct class_args c = { 0 };
	bool have_id = false;
	struct nl_msg *msg;
	uint32_t id = 0;
	int err;

	for (; argc > 0; argc--, argv++) {
		if (!strcmp(*argv, "dscp")) {
			NEXT_ARG();
			if (c.have_dscp)
				return duplicate_arg("dscp");
			if (parse_u32("dscp", *argv, 0, 63, &c.dscp))
				return R2C2CTL_EXIT_USAGE;
			c.have_dscp = true;
		} else if (!strcmp(*argv, "priority")) {
			NEXT_ARG();
			if (c.have_skbprio)
				return duplicate_arg("priority");
			if (parse_u32("priority", *argv, 0, UINT32_MAX, &c.skbprio))
				return R2C2CTL_EXIT_USAGE;
			c.have_skbprio = true;
		} else if (!strcmp(*argv, "sport")) {
			NEXT_ARG();
			if (c.have_sport)
				return duplicate_arg("sport");
			if (parse_range("sport", *argv, &c.sport_lo, &c.sport_hi))
				return R2C2CTL_EXIT_USAGE;
			c.have_sport = true;
		} else if (!strcmp(*argv, "dport")) {
			NEXT_ARG();
			if (c.have_dport)
				return duplicate_arg("dport");
			if (parse_range("dport", *argv, &c.dport_lo, &c.dport_hi))
				return R2C2CTL_EXIT_USAGE;
			c.have_dport = true;
		} else if (!strcmp(*argv, "weight")) {
			NEXT_ARG();
			if (c.have_weight)
				return duplicate_arg("weight");
			if (parse_u32("weight", *argv, 1, 255, &c.weight))
				return R2C2CTL_EXIT_USAGE;
			c.have_weight = true;
		} else if (!strcmp(*argv, "prio")) {
			NEXT_ARG();
			if (c.have_prio)
				return duplicate_arg("prio");
			if (parse_u32("prio", *argv, 0, 15, &c.prio))
				return R2C2CTL_EXIT_USAGE;
			c.have_prio = true;
		} else if (!have_id && !is_help(*argv)) {
			if (parse_u32("class id", *argv, 1, R2C2_CLASS_MAX, &id))
				return R2C2CTL_EXIT_USAGE;
			have_id = true;
		} else {
			return extra_arg(*argv, usage);
		}
	}
	if (!have_id)
		return usage_error("class add: missing ID");

	err = ctl_nl_open();
	if (err)
		return err;
	msg = ctl_nl_msg(R2C2_CMD_CLASS_SET, false);
	if (!msg)
		return R2C2CTL_EXIT_ERR;
	NLA_PUT_U8(msg, R2C2_A_CLASS_ID, (uint8_t)id);
	if (c.have_dscp)
		NLA_PUT_U8(msg, R2C2_A_DSCP, (uint8_t)c.dscp);
	if (c.have_skbprio)
		NLA_PUT_U32(msg, R2C2_A_SKB_PRIO, c.skbprio);
	if (c.have_sport) {
		NLA_PUT_U16(msg, R2C2_A_SPORT, c.sport_lo);
		NLA_PUT_U16(msg, R2C2_A_SPORT_MAX, c.sport_hi);
	}
	if (c.have_dport) {
		NLA_PUT_U16(msg, R2C2_A_DPORT, c.dport_lo);
		NLA_PUT_U16(msg, R2C2_A_DPORT_MAX, c.dport_hi);
	}
	if (c.have_weight)
		NLA_PUT_U8(msg, R2C2_A_WEIGHT, (uint8_t)c.weight);
	if (c.have_prio)
		NLA_PUT_U8(msg, R2C2_A_PRIO, (uint8_t)c.prio);
	return ctl_nl_talk(msg, NULL, NULL);

nla_put_failure:
	nlmsg_free(msg);
	return ctl_nl_put_failed();
}

static int class_del(int argc, char **argv)
{
	struct nl_msg *msg;
	uint32_t id;
	int err;

	if (argc == 0)
		return usage_error("class del: missing ID");
	if (argc > 1)
		return extra_arg(argv[1], usage);
	if (parse_u32("class id", argv[0], 1, R2C2_CLASS_MAX, &id))
		return R2C2CTL_EXIT_USAGE;
	err = ctl_nl_open();
	if (err)
		return err;
	msg = ctl_nl_msg(R2C2_CMD_CLASS_DEL, false);
	if (!msg)
		return R2C2CTL_EXIT_ERR;
	NLA_PUT_U8(msg, R2C2_A_CLASS_ID, (uint8_t)id);
	return ctl_nl_talk(msg, NULL, NULL);

nla_put_failure:
	nlmsg_free(msg);
	return ctl_nl_put_failed();
}

static void print_range(const char *key, struct nlattr *lo, struct nlattr *hi)
{
	unsigned int a = nla_get_u16(lo), b = hi ? nla_get_u16(hi) : a;
	char buf[16];

	if (a == b)
		snprintf(buf, sizeof(buf), "%u", a);
	else
		snprintf(buf, sizeof(buf), "%u-%u", a, b);
	print_text(" %s %s", key, buf);
	open_obj(key);
	print_uint("min", NULL, a);
	print_uint("max", NULL, b);
	close_obj();
}

static int class_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[R2C2_A_MAX + 1];

	(void)arg;
	if (ctl_nl_parse(msg, tb, NULL))
		return -1;
	open_obj(NULL);
	if (tb[R2C2_A_CLASS_ID])
		print_uint("id", "class %llu", nla_get_u8(tb[R2C2_A_CLASS_ID]));
	if (tb[R2C2_A_DSCP])
		print_uint("dscp", " dscp %llu", nla_get_u8(tb[R2C2_A_DSCP]));
	if (tb[R2C2_A_SKB_PRIO])
		print_uint("priority", " priority %llu",
			   nla_get_u32(tb[R2C2_A_SKB_PRIO]));
	if (tb[R2C2_A_SPORT])
		print_range("sport", tb[R2C2_A_SPORT], tb[R2C2_A_SPORT_MAX]);
	if (tb[R2C2_A_DPORT])
		print_range("dport", tb[R2C2_A_DPORT], tb[R2C2_A_DPORT_MAX]);
	if (tb[R2C2_A_WEIGHT])
		print_uint("weight", " weight %llu",
			   nla_get_u8(tb[R2C2_A_WEIGHT]));
	if (tb[R2C2_A_PRIO])
		print_uint("prio", " prio %llu", nla_get_u8(tb[R2C2_A_PRIO]));
	if (tb[R2C2_A_CLASS_FLOWS])
		print_uint("flows", " flows %llu",
			   nla_get_u64(tb[R2C2_A_CLASS_FLOWS]));
	print_nl();
	close_obj();
	return 0;
}

static int class_show(int argc, char **argv)
{
	if (argc > 0)
		return extra_arg(argv[0], usage);
	return ctl_nl_dump_arr(R2C2_CMD_CLASS_GET, class_cb, NULL);
}

int cmd_class(int argc, char **argv)
{
	const char *cmd = argc > 0 ? argv[0] : "show";

	if (is_help(cmd)) {
		usage(stdout);
		return R2C2CTL_EXIT_OK;
	}
	if (!strcmp(cmd, "add"))
		return class_add(argc - 1, argv + 1);
	if (!strcmp(cmd, "del") || !strcmp(cmd, "delete"))
		return class_del(argc - 1, argv + 1);
	if (!strcmp(cmd, "show") || !strcmp(cmd, "list"))
		return class_show(argc - 1, argv + 1);
	return usage_error("unknown class command \"%s\"", cmd);
}
