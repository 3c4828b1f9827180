// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - r2c2ctl, the operator CLI of r2c2: global options and the
 * OBJECT COMMAND dispatch, in the manner of ip(8) and batctl(8).
 *
 * Exit status: 0 success, 1 the kernel or the system refused (message
 * on stderr, with the kernel's extack text when it gave one), 2 the
 * command line is wrong (nothing was sent).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "json.h"
#include "nl.h"
#include "r2c2ctl.h"

#ifndef R2C2CTL_VERSION
#define R2C2CTL_VERSION "0.1.0"
#endif

struct r2c2ctl_opts opts;

/*
 * The commands of each object, for prefix matching (match_word()): an
 * entry may hold aliases ("del delete"); the first name is the one the
 * object's function is given. NULL: the object takes no command word.
 * "s" is short for "show" where it would be ambiguous ("node s": set or
 * show), as "n" is for "node" (node or neigh): the read-only command.
 * tests/man_check.py compares this table with r2c2ctl(8).
 */
static const char *const node_cmds[] = { "set", "show s", "del", NULL };
static const char *const port_cmds[] = { "add", "del", "show s", NULL };
static const char *const show_cmds[] = { "show s", NULL };
static const char *const route_cmds[] = { "get", NULL };
static const char *const stats_cmds[] = { "show s", "reset", NULL };
static const char *const flow_cmds[] = { "show s", "set", NULL };
static const char *const send_cmds[] = { "send", NULL };
static const char *const set_cmds[] = { "set", NULL };
static const char *const class_cmds[] = { "add", "del delete", "show list s", NULL };
static const char *const key_cmds[] = { "set", "del delete", "show list s", NULL };
static const char *const path_cmds[] = { "weights", NULL };
static const char *const xdp_cmds[] = { "attach", "detach", "show s", NULL };

/**
 * struct object - one `r2c2ctl OBJECT`
 * @name: the keyword (a unique prefix will do: match_word())
 * @names: @name and its short aliases, for match_word()
 * @fn: entry point, see cmds.h
 * @cmds: its command words (NULL-terminated), or NULL
 * @synopsis: its commands, for `r2c2ctl help`
 */
struct object {
	const char *name;
	const char *names;
	int (*fn)(int argc, char **argv);
	const char *const *cmds;
	const char *synopsis;
};

static const struct object objects[] = {
	{ "node",	"node n",	cmd_node,	node_cmds,	"{ set | show | del }" },
	{ "port",	"port",	cmd_port,	port_cmds,	"{ add | del | show }" },
	{ "neigh",	"neigh",	cmd_neigh,	show_cmds,	"show" },
	{ "topo",	"topo",	cmd_topo,	show_cmds,	"show" },
	{ "tree",	"tree",	cmd_tree,	show_cmds,	"show [ src ADDR ]" },
	{ "route",	"route",	cmd_route,	route_cmds,	"get DST [ routing PROTO ] [ count N ]" },
	{ "traceroute",	"traceroute",	cmd_traceroute,	NULL,		"DST [ routing PROTO ] [ count N ]" },
	{ "ping",	"ping",	cmd_ping,	NULL,		"DST [ routing PROTO ] [ count N ] [ interval MS ]" },
	{ "stats",	"stats",	cmd_stats,	stats_cmds,	"{ show | reset }" },
	{ "flow",	"flow",	cmd_flow,	flow_cmds,	"{ show | set }" },
	{ "event",	"event",	cmd_event,	send_cmds,	"send flow FLOWID dst ADDR ..." },
	{ "routes",	"routes",	cmd_routes,	send_cmds,	"send SRC:FLOWID=PROTO ..." },
	{ "monitor",	"monitor",	cmd_monitor,	NULL,		"[ count N ] [ timeout S ]" },
	{ "rate",	"rate",	cmd_rate,	set_cmds,	"set [ dev IFNAME ] { FLOWID RATE ... | file FILE }" },
	{ "qflow",	"qflow",	cmd_qflow,	show_cmds,	"show [ dev IFNAME ]" },
	{ "class",	"class",	cmd_class,	class_cmds,	"{ add | del | show }" },
	{ "key",	"key",	cmd_key,	key_cmds,	"{ set | del | show }" },
	{ "xdp",	"xdp",	cmd_xdp,	xdp_cmds,	"{ attach | detach | show }" },
	{ "reseq",	"reseq",	cmd_reseq,	show_cmds,	"show" },
	{ "daemon",	"daemon",	cmd_daemon,	show_cmds,	"show [ socket PATH ]" },
	{ "matrix",	"matrix",	cmd_matrix,	show_cmds,	"show [ socket PATH ]" },
	{ "alloc",	"alloc",	cmd_alloc,	NULL,		"topology SPEC flows FILE [ policy maxmin|propfair ] ..." },
	{ "route-select", "route-select", cmd_route_select, NULL,	"topology SPEC flows FILE [ utility sum|min ] ..." },
	{ "path",	"path",	cmd_path,	path_cmds,	"weights topology SPEC [ routing PROTO ] SRC DST" },
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
	fputs("       r2c2ctl [ OPTIONS ] -b[atch] FILE\n"
	      "       OPTIONS := { -j[son] | -p[retty] | -s[tats] | -n[etns] NAME |\n"
	      "                    -C | --check | -h[elp] | -V[ersion] }\n"
	      "\n", f);
	for (i = 0; i < N_OBJECTS; i++)
		fprintf(f, "  %-13s %s\n", objects[i].name, objects[i].synopsis);
	fputs("\n"
	      "  -j, --json      print JSON\n"
	      "  -p, --pretty    indent JSON (with -j)\n"
	      "  -s, --stats     add counters (port show, node show)\n"
	      "  -n, --netns NAME  run in network namespace NAME (/run/netns/NAME,\n"
	      "                  or a path), like ip -n\n"
	      "  -b, --batch FILE  run the commands of FILE (\"-\": stdin), one a\n"
	      "                  line: [ -n NAME ] OBJECT COMMAND ...; stops at the\n"
	      "                  first that fails (\"Command failed FILE:LINE\")\n"
	      "  -C, --check     parse each command and build its request, but send\n"
	      "                  nothing and enter no namespace: checks a batch file\n"
	      "                  (r2c2-node check) on any host; daemon commands are\n"
	      "                  refused, shows print nothing\n"
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

/*
 * Look @tok up among the objects (names, short aliases, unique prefixes);
 * fails (a usage error, NULL) when it is
 * no object's name or prefix, or the prefix of several.
 */
static const struct object *find_object(const char *tok)
{
	const char *names[N_OBJECTS + 1];
	size_t i;
	int k;

	for (i = 0; i < N_OBJECTS; i++)
		names[i] = objects[i].names;
	names[N_OBJECTS] = NULL;
	k = match_word("object", tok, names);
	if (k < 0) {
		if (k == MATCH_NONE)
			usage_error("unknown object \"%s\"", tok);
		return NULL;
	}
	return &objects[k];
}

/*
 * The command word of @obj: a unique prefix of one of its commands (or of
 * "help") is replaced by the full name, as ip(8) takes "ip l s" for "ip
 * link set". A word no command starts with is left for the object to
 * refuse. Returns 0, or an exit status after a usage error.
 */
static int expand_command(const struct object *obj, char **argv)
{
	static char full[32];
	const char *names[16];
	char what[48];
	size_t n = 0;
	int k;

	if (!obj->cmds)
		return R2C2CTL_EXIT_OK;
	while (obj->cmds[n] && n < 14) {
		names[n] = obj->cmds[n];
		n++;
	}
	names[n++] = "help";
	names[n] = NULL;
	snprintf(what, sizeof(what), "%s command", obj->name);
	k = match_word(what, argv[0], names);
	if (k == MATCH_AMBIGUOUS)
		return R2C2CTL_EXIT_USAGE;
	if (k >= 0)
		argv[0] = match_name(names[k], full, sizeof(full));
	return R2C2CTL_EXIT_OK;
}

static int dispatch(int argc, char **argv)
{
	static char help[] = "help";
	char *help_argv[] = { help, NULL };
	const struct object *obj;
	int ret;

	if (!strcmp(argv[0], "help")) {
		if (argc == 1) {
			usage(stdout);
			return R2C2CTL_EXIT_OK;
		}
		if (argc > 2)
			return usage_error("unknown object \"%s\"", argv[2]);
		obj = find_object(argv[1]);
		if (!obj)
			return R2C2CTL_EXIT_USAGE;
		ctl_object = obj->name;
		return obj->fn(1, help_argv);
	}
	obj = find_object(argv[0]);
	if (!obj)
		return R2C2CTL_EXIT_USAGE;
	ctl_object = obj->name;
	/* the daemon's socket is not netlink: nothing to build, it would act */
	if (opts.check && !strcmp(obj->name, "daemon"))
		return usage_error("--check: daemon commands talk to r2c2d and cannot be checked");
	if (argc > 1) {
		ret = expand_command(obj, argv + 1);
		if (ret)
			return ret;
	}
	return obj->fn(argc - 1, argv + 1);
}

/* the namespace a command runs in (a copy): NULL = the one r2c2ctl started in */
static char *cur_netns;
static int orig_netns_fd = -1;

/*
 * Enter network namespace @name (NULL: the original one); the netlink
 * socket, bound to the namespace it was opened in, is reopened lazily.
 */
static int netns_switch(const char *name)
{
	char path[PATH_MAX], *copy = NULL;
	int fd, err;

	if (name == cur_netns ||
	    (name && cur_netns && !strcmp(name, cur_netns)))
		return R2C2CTL_EXIT_OK;
	if (orig_netns_fd < 0) {
		orig_netns_fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
		if (orig_netns_fd < 0) {
			fprintf(stderr, "r2c2ctl: /proc/self/ns/net: %s\n",
				strerror(errno));
			return R2C2CTL_EXIT_ERR;
		}
	}
	if (name) {
		copy = strdup(name);
		if (!copy) {
			fputs("r2c2ctl: out of memory\n", stderr);
			return R2C2CTL_EXIT_ERR;
		}
		if (strchr(name, '/'))
			snprintf(path, sizeof(path), "%s", name);
		else
			snprintf(path, sizeof(path), "/run/netns/%s", name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			fprintf(stderr,
				"r2c2ctl: cannot open network namespace \"%s\": %s\n",
				name, strerror(errno));
			free(copy);
			return R2C2CTL_EXIT_ERR;
		}
	} else {
		fd = orig_netns_fd;
	}
	err = setns(fd, CLONE_NEWNET);
	if (err)
		fprintf(stderr,
			"r2c2ctl: setting the network namespace to \"%s\" failed: %s\n",
			name ? name : "(initial)", strerror(errno));
	if (fd != orig_netns_fd)
		close(fd);
	if (err) {
		free(copy);
		return R2C2CTL_EXIT_ERR;
	}
	ctl_nl_close();
	free(cur_netns);
	cur_netns = copy;
	return R2C2CTL_EXIT_OK;
}

/* one command: in namespace @netns (NULL: the initial one) */
static int run_one(const char *netns, int argc, char **argv)
{
	int ret = opts.check ? R2C2CTL_EXIT_OK : netns_switch(netns);

	if (ret)
		return ret;
	print_init(opts.json, opts.pretty);
	ret = dispatch(argc, argv);
	print_fini();
	return ret;
}

#define BATCH_MAX_ARGS	256

/*
 * -b FILE: every line is [ -n NAME ] OBJECT COMMAND ..., words split at
 * blanks, "#" starts a comment. A line without -n runs in the namespace
 * of the command line's -n (or the initial one). One process for a whole
 * rack's configuration: under emulation every process start costs
 * 50-200 ms (selftests/torus.sh).
 */
static int batch(const char *file, const char *netns)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	char *line = NULL, *argv[BATCH_MAX_ARGS], *tok, *save;
	unsigned long lineno = 0;
	size_t cap = 0;
	int ret = R2C2CTL_EXIT_OK, argc;
	const char *ns;

	if (!f) {
		fprintf(stderr, "r2c2ctl: %s: %s\n", file, strerror(errno));
		return R2C2CTL_EXIT_ERR;
	}
	while (getline(&line, &cap, f) >= 0) {
		lineno++;
		tok = strchr(line, '#');
		if (tok)
			*tok = '\0';
		argc = 0;
		for (tok = strtok_r(line, " \t\r\n", &save); tok;
		     tok = strtok_r(NULL, " \t\r\n", &save)) {
			if (argc == BATCH_MAX_ARGS - 1) {
				ret = usage_error("batch line %lu: more than %d words",
						  lineno, BATCH_MAX_ARGS - 1);
				goto out;
			}
			argv[argc++] = tok;
		}
		argv[argc] = NULL;
		if (!argc)
			continue;
		ns = netns;
		if (!strcmp(argv[0], "-n") || !strcmp(argv[0], "--netns")) {
			if (argc < 3) {
				ret = usage_error("batch line %lu: \"%s\" needs NAME and a command",
						  lineno, argv[0]);
				goto out;
			}
			ns = argv[1];
			argc -= 2;
			memmove(argv, argv + 2, (argc + 1) * sizeof(*argv));
		}
		ret = run_one(ns, argc, argv);
		if (ret) {
			fprintf(stderr, "Command failed %s:%lu\n", file, lineno);
			break;
		}
	}
out:
	free(line);
	if (f != stdin)
		fclose(f);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json",	no_argument, NULL, 'j' },
		{ "pretty",	no_argument, NULL, 'p' },
		{ "stats",	no_argument, NULL, 's' },
		{ "help",	no_argument, NULL, 'h' },
		{ "version",	no_argument, NULL, 'V' },
		{ "netns",	required_argument, NULL, 'n' },
		{ "batch",	required_argument, NULL, 'b' },
		{ "check",	no_argument, NULL, 'C' },
		{ NULL, 0, NULL, 0 },
	};
	const char *netns = NULL, *batch_file = NULL;
	bool show_version = false;
	int c, ret;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+jpshVn:b:C", longopts, NULL)) != -1) {
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
		case 'n':
			netns = optarg;
			break;
		case 'b':
			batch_file = optarg;
			break;
		case 'C':
			opts.check = true;
			break;
		default:
			return usage_error("unknown option \"%s\"",
					   argv[optind - 1]);
		}
	}
	argc -= optind;
	argv += optind;

	if (show_version) {
		print_init(opts.json, opts.pretty);
		ret = version();
		print_fini();
	} else if (batch_file) {
		ret = argc ? usage_error("-b FILE takes no command: \"%s\"", argv[0])
			   : batch(batch_file, netns);
	} else if (argc == 0) {
		usage(stderr);
		ret = R2C2CTL_EXIT_USAGE;
	} else {
		ret = run_one(netns, argc, argv);
	}
	ctl_nl_close();
	free(cur_netns);
	cur_netns = NULL;
	if (orig_netns_fd >= 0)
		close(orig_netns_fd);
	orig_netns_fd = -1;
	return ret;
}
