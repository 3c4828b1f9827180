// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - r2c2ctl, the operator CLI of r2c2: global options and the
 * OBJECT COMMAND dispatch, in the manner of ip(8) and batctl(8).
 *
 * Exit status: 0 success, 1 the kernel or the system refused (message
 * on stderr, with the kernel's extack text when it gave one), 2 the
 * command line is wrong (nothing was sent).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmds.h"
#include "json.h"
#include "nl.h"
#include "r2c2ctl.h"

#ifndef R2C2CTL_VERSION
#define R2C2CTL_VERSION "0.1.0"
#endif

struct r2c2ctl_opts opts;

/**
 * struct object - one `r2c2ctl OBJECT`
 * @name: the keyword (matched exactly)
 * @fn: entry point, see cmds.h
 * @synopsis: its commands, for `r2c2ctl help`
 */
struct object {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *synopsis;
};

static const struct object objects[] = {
	{ "node",	cmd_node,	"{ set | show | del }" },
	{ "port",	cmd_port,	"{ add | del | show }" },
	{ "neigh",	cmd_neigh,	"show" },
	{ "topo",	cmd_topo,	"show" },
	{ "tree",	cmd_tree,	"show [ src ADDR ]" },
	{ "route",	cmd_route,	"get DST [ routing PROTO ] [ count N ]" },
	{ "stats",	cmd_stats,	"{ show | reset }" },
	{ "flow",	cmd_flow,	"{ show | set }" },
	{ "event",	cmd_event,	"send flow FLOWID dst ADDR ..." },
	{ "routes",	cmd_routes,	"send SRC:FLOWID=PROTO ..." },
	{ "monitor",	cmd_monitor,	"[ count N ] [ timeout S ]" },
	{ "rate",	cmd_rate,	"set [ dev IFNAME ] { FLOWID RATE ... | file FILE }" },
	{ "qflow",	cmd_qflow,	"show [ dev IFNAME ]" },
	{ "class",	cmd_class,	"{ add | del | show }" },
	{ "reseq",	cmd_reseq,	"show" },
	{ "daemon",	cmd_daemon,	"show [ socket PATH ]" },
	{ "matrix",	cmd_matrix,	"show [ socket PATH ]" },
	{ "alloc",	cmd_alloc,	"--topology SPEC --flows FILE [ --policy maxmin|propfair ] ..." },
	{ "route-select", cmd_route_select, "--topology SPEC --flows FILE [ --utility sum|min ] ..." },
	{ "path",	cmd_path,	"weights --topology SPEC [ --routing PROTO ] SRC DST" },
};

#define N_OBJECTS (sizeof(objects) / sizeof(objects[0]))

static void usage(FILE *f)
{
	size_t i;

	fputs("Usage: r2c2ctl [ OPTIONS ] OBJECT { COMMAND | help }\n"
	      "       r2c2ctl help [ OBJECT ]\n"
	      "       r2c2ctl -V\n"
	      "where  OBJECT  := {", f);
	for (i = 0; i < N_OBJECTS; i++)
		fprintf(f, " %s%s", objects[i].name,
			i + 1 < N_OBJECTS ? " |" : " }\n");
	fputs("       OPTIONS := { -j[son] | -p[retty] | -s[tats] | -h[elp] | -V[ersion] }\n"
	      "\n", f);
	for (i = 0; i < N_OBJECTS; i++)
		fprintf(f, "  %-13s %s\n", objects[i].name, objects[i].synopsis);
	fputs("\n"
	      "  -j, --json      print JSON\n"
	      "  -p, --pretty    indent JSON (with -j)\n"
	      "  -s, --stats     add counters (port show, node show)\n"
	      "  -h, --help      print this help\n"
	      "  -V, --version   print the version\n"
	      "\"r2c2ctl OBJECT help\" describes an object's commands.\n", f);
}

static int version(void)
{
	if (opts.json) {
		open_obj(NULL);
		print_str("version", NULL, R2C2CTL_VERSION);
		print_str("genl_family", NULL, R2C2_GENL_NAME);
		print_uint("genl_version", NULL, R2C2_GENL_VERSION);
		close_obj();
	} else {
		printf("r2c2ctl %s (generic netlink family \"%s\" version %d)\n",
		       R2C2CTL_VERSION, R2C2_GENL_NAME, R2C2_GENL_VERSION);
	}
	return R2C2CTL_EXIT_OK;
}

static const struct object *find_object(const char *name)
{
	size_t i;

	for (i = 0; i < N_OBJECTS; i++)
		if (!strcmp(objects[i].name, name))
			return &objects[i];
	return NULL;
}

static int dispatch(int argc, char **argv)
{
	static char help[] = "help";
	char *help_argv[] = { help, NULL };
	const struct object *obj;

	if (!strcmp(argv[0], "help")) {
		if (argc == 1) {
			usage(stdout);
			return R2C2CTL_EXIT_OK;
		}
		obj = find_object(argv[1]);
		if (!obj || argc > 2)
			return usage_error("unknown object \"%s\"",
					   obj ? argv[2] : argv[1]);
		ctl_object = obj->name;
		return obj->fn(1, help_argv);
	}
	obj = find_object(argv[0]);
	if (!obj)
		return usage_error("unknown object \"%s\"", argv[0]);
	ctl_object = obj->name;
	return obj->fn(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json",	no_argument, NULL, 'j' },
		{ "pretty",	no_argument, NULL, 'p' },
		{ "stats",	no_argument, NULL, 's' },
		{ "help",	no_argument, NULL, 'h' },
		{ "version",	no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	bool show_version = false;
	int c, ret;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+jpshV", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			opts.json = true;
			break;
		case 'p':
			opts.pretty = true;
			break;
		case 's':
			opts.stats = true;
			break;
		case 'h':
			usage(stdout);
			return R2C2CTL_EXIT_OK;
		case 'V':
			show_version = true;
			break;
		default:
			return usage_error("unknown option \"%s\"",
					   argv[optind - 1]);
		}
	}
	argc -= optind;
	argv += optind;

	print_init(opts.json, opts.pretty);
	if (show_version) {
		ret = version();
	} else if (argc == 0) {
		usage(stderr);
		ret = R2C2CTL_EXIT_USAGE;
	} else {
		ret = dispatch(argc, argv);
	}
	print_fini();
	ctl_nl_close();
	return ret;
}
