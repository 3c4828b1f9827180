/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmds.h - entry points of r2c2ctl's objects, one per `r2c2ctl OBJECT`.
 *
 * Each takes the words after the object name (argv[0] is the command,
 * e.g. "show"; argc may be 0) and returns the process exit status:
 * R2C2CTL_EXIT_OK, R2C2CTL_EXIT_ERR (the kernel or the system refused)
 * or R2C2CTL_EXIT_USAGE (bad command line; nothing was sent). Every
 * object answers "help" with its usage on stdout and status 0.
 *
 * To add an object: write its function in its own file, declare it here
 * and add one line to the objects[] table in main.c.
 */
#ifndef _R2C2CTL_CMDS_H
#define _R2C2CTL_CMDS_H

#include <stdbool.h>

#define R2C2CTL_EXIT_OK		0
#define R2C2CTL_EXIT_ERR	1
#define R2C2CTL_EXIT_USAGE	2

/**
 * struct r2c2ctl_opts - global options, set by main() before dispatch
 * @json: -j, print JSON (see json.h: use the print_* layer)
 * @pretty: -p, indent JSON
 * @stats: -s, add counters where an object has them
 * @check: --check, parse every command and build its request, send
 *	nothing (no netlink socket, no namespace switch; shows print nothing)
 */
struct r2c2ctl_opts {
	bool json;
	bool pretty;
	bool stats;
	bool check;
};

extern struct r2c2ctl_opts opts;

/* kernel objects (generic netlink family "r2c2") */
int cmd_node(int argc, char **argv);
int cmd_port(int argc, char **argv);
int cmd_neigh(int argc, char **argv);
int cmd_topo(int argc, char **argv);
int cmd_tree(int argc, char **argv);
int cmd_route(int argc, char **argv);
int cmd_traceroute(int argc, char **argv);
int cmd_ping(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_flow(int argc, char **argv);
int cmd_event(int argc, char **argv);
int cmd_routes(int argc, char **argv);
int cmd_monitor(int argc, char **argv);
int cmd_class(int argc, char **argv);
int cmd_key(int argc, char **argv);
int cmd_xdp(int argc, char **argv);
/* r2c2d, over its control socket (daemon.c) */
int cmd_daemon(int argc, char **argv);
int cmd_matrix(int argc, char **argv);
int cmd_rate(int argc, char **argv);
int cmd_qflow(int argc, char **argv);
int cmd_reseq(int argc, char **argv);

/* offline allocation, no kernel needed (alloc.c, libr2c2) */
int cmd_alloc(int argc, char **argv);
int cmd_route_select(int argc, char **argv);
int cmd_path(int argc, char **argv);

#endif /* _R2C2CTL_CMDS_H */
