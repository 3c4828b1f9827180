// SPDX-License-Identifier: GPL-2.0
/*
 * port.c - r2c2ctl port { add | del | show }: the netdevs attached to the
 * node as fabric ports (PORT_ADD, PORT_DEL, PORT_GET dump).
 */
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <netlink/attr.h>

#include "json.h"
#include "nl.h"
#include "r2c2ctl.h"

static void usage(FILE *f)
{
	fputs("Usage: r2c2ctl port add PORT dev IFNAME\n"
	      "       r2c2ctl port del PORT\n"
	      "       r2c2ctl [ -s ] port show [ PORT ]\n"
	      "where  PORT   := port number, 0..7\n"
	      "       IFNAME := the netdev that carries the port's link\n",
	      f);
}

void port_info_parse(struct nlattr **tb, struct port_info *pi)
{
	char ifn[IF_NAMESIZE];

	memset(pi, 0, sizeof(*pi));
	if (tb[R2C2_A_PORT]) {
		pi->has_port = true;
		pi->port = nla_get_u8(tb[R2C2_A_PORT]);
	}
	if (tb[R2C2_A_IFINDEX]) {
		pi->has_ifindex = true;
		pi->ifindex = nla_get_u32(tb[R2C2_A_IFINDEX]);
	}
	if (tb[R2C2_A_PORT_IFNAME])
		snprintf(pi->dev, sizeof(pi->dev), "%s",
			 nla_get_string(tb[R2C2_A_PORT_IFNAME]));
	else if (tb[R2C2_A_IFNAME])
		snprintf(pi->dev, sizeof(pi->dev), "%s",
			 nla_get_string(tb[R2C2_A_IFNAME]));
	else if (pi->has_ifindex && if_indextoname(pi->ifindex, ifn))
		snprintf(pi->dev, sizeof(pi->dev), "%s", ifn);
	if (tb[R2C2_A_PORT_STATE]) {
		pi->has_state = true;
		pi->state = nla_get_u8(tb[R2C2_A_PORT_STATE]);
	}
	if (tb[R2C2_A_NBR_ADDR]) {
		pi->has_nbr = true;
		pi->nbr = nla_get_u16(tb[R2C2_A_NBR_ADDR]);
	}
	if (tb[R2C2_A_NBR_PORT]) {
		pi->has_nbr_port = true;
		pi->nbr_port = nla_get_u8(tb[R2C2_A_NBR_PORT]);
	}
	if (tb[R2C2_A_NBR_MAC]) {
		pi->has_mac = true;
		memcpy(pi->mac, nla_data(tb[R2C2_A_NBR_MAC]), 6);
	}
	if (tb[R2C2_A_AGE_MS]) {
		pi->has_age = true;
		pi->age_ms = nla_get_u32(tb[R2C2_A_AGE_MS]);
	}
	pi->stats = tb[R2C2_A_STATS];
}

static int port_cb(struct nl_msg *msg, void *arg)
{
	const int *only = arg;
	struct nlattr *tb[R2C2_A_MAX + 1];
	struct port_info pi;
	char buf[32];

	if (ctl_nl_parse(msg, tb, NULL))
		return -1;
	port_info_parse(tb, &pi);
	if (*only >= 0 && (!pi.has_port || pi.port != *only))
		return 0;

	open_obj(NULL);
	if (pi.has_port)
		print_uint("port", "port %llu", pi.port);
	if (pi.dev[0])
		print_str("dev", " dev %s", pi.dev);
	if (pi.has_ifindex)
		print_uint("ifindex", NULL, pi.ifindex);
	if (pi.has_state)
		print_str("state", " state %s",
			  port_state_name(pi.state, buf, sizeof(buf)));
	if (pi.has_nbr) {
		open_obj("neighbour");
		print_uint("addr", " node %llu", pi.nbr);
		if (pi.has_nbr_port)
			print_uint("port", " port %llu", pi.nbr_port);
		if (pi.has_mac) {
			format_mac(pi.mac, buf, sizeof(buf));
			print_str("mac", " mac %s", buf);
		}
		if (pi.has_age)
			print_uint("age_ms", " age %llums", pi.age_ms);
		close_obj();
	} else {
		print_null("neighbour", NULL);
	}
	print_nl();
	if (opts.stats && pi.stats)
		print_stats("stats", pi.stats, 4, 4);
	close_obj();
	return 0;
}

static int port_show(int argc, char **argv)
{
	int only = -1;
	uint8_t p;

	for (; argc > 0; argc--, argv++) {
		if (only >= 0 || is_help(*argv))
			return extra_arg(*argv, usage);
		if (parse_port(*argv, &p))
			return R2C2CTL_EXIT_USAGE;
		only = p;
	}
	return ctl_nl_dump_arr(R2C2_CMD_PORT_GET, port_cb, &only);
}

static int port_add_del(bool add, int argc, char **argv)
{
	const char *dev = NULL;
	unsigned int ifindex = 0;
	struct nl_msg *msg;
	bool have_port = false;
	uint8_t port = 0;
	int err;

	for (; argc > 0; argc--, argv++) {
		if (add && !strcmp(*argv, "dev")) {
			NEXT_ARG();
			if (dev)
				return duplicate_arg("dev");
			if (parse_ifname("dev", *argv))
				return R2C2CTL_EXIT_USAGE;
			dev = *argv;
		} else if (!have_port && !is_help(*argv)) {
			if (parse_port(*argv, &port))
				return R2C2CTL_EXIT_USAGE;
			have_port = true;
		} else {
			return extra_arg(*argv, usage);
		}
	}
	if (!have_port)
		return usage_error("port %s: missing PORT", add ? "add" : "del");
	if (add && !dev)
		return usage_error("port add: missing \"dev IFNAME\"");

	err = ctl_nl_open();
	if (err)
		return err;
	/* the netdev that stops being a port: r2c2's XDP program leaves it */
	if (!add && !opts.check)
		ifindex = xdp_port_ifindex(port);
	msg = ctl_nl_msg(add ? R2C2_CMD_PORT_ADD : R2C2_CMD_PORT_DEL, false);
	if (!msg)
		return R2C2CTL_EXIT_ERR;
	NLA_PUT_U8(msg, R2C2_A_PORT, port);
	if (add)
		NLA_PUT_STRING(msg, R2C2_A_PORT_IFNAME, dev);
	err = ctl_nl_talk(msg, NULL, NULL);
	if (err || opts.check)
		return err;
	/* the node's XDP program follows its ports */
	if (add)
		return xdp_port_added(dev);
	return ifindex ? xdp_port_removed(ifindex) : R2C2CTL_EXIT_OK;

nla_put_failure:
	nlmsg_free(msg);
	return ctl_nl_put_failed();
}

int cmd_port(int argc, char **argv)
{
	const char *cmd = argc > 0 ? argv[0] : "show";

	if (is_help(cmd)) {
		usage(stdout);
		return R2C2CTL_EXIT_OK;
	}
	if (!strcmp(cmd, "show"))
		return port_show(argc - 1, argv + 1);
	if (!strcmp(cmd, "add"))
		return port_add_del(true, argc - 1, argv + 1);
	if (!strcmp(cmd, "del"))
		return port_add_del(false, argc - 1, argv + 1);
	return usage_error("unknown port command \"%s\"", cmd);
}
