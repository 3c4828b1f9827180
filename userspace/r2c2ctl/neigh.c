// SPDX-License-Identifier: GPL-2.0
/*
 * neigh.c - r2c2ctl neigh show: the neighbour heard on each port (the
 * neighbour part of the PORT_GET dump), one line a port that has one.
 */
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "nl.h"
#include "r2c2ctl.h"

static void usage(FILE *f)
{
	fputs("Usage: r2c2ctl neigh show\n"
	      "Lists the neighbour node heard on each port: its address, the\n"
	      "port it answered from and its MAC.\n", f);
}

static int neigh_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[R2C2_A_MAX + 1];
	struct port_info pi;
	char buf[32];

	(void)arg;
	if (ctl_nl_parse(msg, tb, NULL))
		return -1;
	port_info_parse(tb, &pi);
	if (!pi.has_nbr)
		return 0;

	open_obj(NULL);
	print_uint("addr", "node %llu", pi.nbr);
	if (pi.has_nbr_port)
		print_uint("neighbour_port", " port %llu", pi.nbr_port);
	if (pi.has_mac) {
		format_mac(pi.mac, buf, sizeof(buf));
		print_str("mac", " mac %s", buf);
	}
	if (pi.has_port)
		print_uint("port", " via port %llu", pi.port);
	if (pi.dev[0])
		print_str("dev", " dev %s", pi.dev);
	if (pi.has_ifindex)
		print_uint("ifindex", NULL, pi.ifindex);
	if (pi.has_age)
		print_uint("age_ms", " age %llums", pi.age_ms);
	print_nl();
	close_obj();
	return 0;
}

int cmd_neigh(int argc, char **argv)
{
	const char *cmd = argc > 0 ? argv[0] : "show";

	if (is_help(cmd)) {
		usage(stdout);
		return R2C2CTL_EXIT_OK;
	}
	if (strcmp(cmd, "show"))
		return usage_error("unknown neigh command \"%s\"", cmd);
	if (argc > 1)
		return extra_arg(argv[1], usage);
	return ctl_nl_dump_arr(R2C2_CMD_PORT_GET, neigh_cb, NULL);
}
