// SPDX-License-Identifier: GPL-2.0
/*
 * daemon.c - r2c2ctl daemon show / matrix show: ask r2c2d over its
 * control socket (default "@r2c2d", abstract, one per network namespace;
 * "socket PATH" or $R2C2D_SOCKET to change) and print its answer: the
 * JSON object as is with -j, else as "key value" text, one line per
 * object of an array (a flow of the matrix).
 */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "cmds.h"

static int ask(const char *path, const char *cmd, char **out)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t len = strlen(path), cap = 65536, n = 0;
	char *buf;
	ssize_t r;
	int fd;

	if (len >= sizeof(sa.sun_path))
		len = sizeof(sa.sun_path) - 1;
	memcpy(sa.sun_path, path, len);
	if (path[0] == '@')
		sa.sun_path[0] = 0;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 ||
	    connect(fd, (struct sockaddr *)&sa,
		    (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len))) {
		fprintf(stderr, "r2c2ctl: r2c2d is not running (control socket %s: %s)\n",
			path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return R2C2CTL_EXIT_ERR;
	}
	if (write(fd, cmd, strlen(cmd)) < 0 || write(fd, "\n", 1) < 0)
		goto io;
	buf = malloc(cap);
	while (buf && (r = read(fd, buf + n, cap - n - 1)) > 0) {
		n += (size_t)r;
		if (n + 1 == cap) {
			char *b = realloc(buf, cap * 2);

			if (!b) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = b;
			cap *= 2;
		}
	}
	close(fd);
	if (!buf || !n) {
		free(buf);
		fputs("r2c2ctl: no answer from r2c2d\n", stderr);
		return R2C2CTL_EXIT_ERR;
	}
	buf[n] = 0;
	*out = buf;
	return R2C2CTL_EXIT_OK;
io:
	fprintf(stderr, "r2c2ctl: r2c2d control socket: %s\n", strerror(errno));
	close(fd);
	return R2C2CTL_EXIT_ERR;
}

/*
 * Objects and arrays nested deeper than this are not printed (r2c2d's
 * answers nest 3 deep): the answer comes from whoever listens on the
 * socket, and each level is a call of flat()
 */
#define FLAT_DEPTH_MAX	32

/*
 * print JSON as text: "key value" pairs; objects inside arrays one a
 * line; depth: the objects and arrays p is inside
 */
static const char *flat(const char *p, const char *prefix, int in_arr,
			int depth)
{
	char key[128];

	while (isspace((unsigned char)*p))
		p++;
	if (*p == '{' || *p == '[') {
		int arr = *p == '[', first = 1;

		if (depth >= FLAT_DEPTH_MAX)
			return p + strlen(p);
		p++;
		for (;;) {
			while (isspace((unsigned char)*p) || *p == ',')
				p++;
			if (!*p || *p == '}' || *p == ']')
				break;
			if (!arr && *p == '"') {
				const char *e = strchr(p + 1, '"');
				size_t l = e ? (size_t)(e - p - 1) : 0;

				if (!e)
					return p + strlen(p);
				if (l >= sizeof(key))
					l = sizeof(key) - 1;
				memcpy(key, p + 1, l);
				key[l] = 0;
				p = e + 1;
				while (isspace((unsigned char)*p) || *p == ':')
					p++;
				if (*p == '{')
					printf("%s%s:", first && in_arr ? "" : "\n", key);
				else if (*p == '[')
					printf("\n%s:", key);
				else
					printf("%s%s ", first && in_arr ? "" : (in_arr ? " " : "\n"), key);
				p = flat(p, key, 0, depth + 1);
			} else {
				printf("\n  ");
				p = flat(p, prefix, 1, depth + 1);
			}
			first = 0;
		}
		if (*p)
			p++;
		return p;
	}
	if (*p == '"') {
		const char *e = strchr(p + 1, '"');

		if (!e)
			return p + strlen(p);
		printf("%.*s", (int)(e - p - 1), p + 1);
		return e + 1;
	}
	while (*p && *p != ',' && *p != '}' && *p != ']' && !isspace((unsigned char)*p))
		putchar(*p++);
	return p;
}

static int run(int argc, char **argv, const char *what, const char *cmd)
{
	const char *path = getenv("R2C2D_SOCKET");
	char *ans = NULL;
	int err;

	if (!path || !*path)
		path = "@r2c2d";
	if (argc > 0 && !strcmp(argv[0], "help")) {
		printf("Usage: r2c2ctl [ -j ] %s show [ socket PATH ]\n"
		       "PATH: r2c2d's control socket (default @r2c2d, abstract;\n"
		       "      also $R2C2D_SOCKET)\n", what);
		return R2C2CTL_EXIT_OK;
	}
	if (argc > 0 && strcmp(argv[0], "show")) {
		fprintf(stderr, "r2c2ctl: unknown command '%s' for %s (try help)\n",
			argv[0], what);
		return R2C2CTL_EXIT_USAGE;
	}
	if (argc > 2 && !strcmp(argv[1], "socket")) {
		path = argv[2];
		argc -= 2;
	}
	if (argc > 1) {
		fprintf(stderr, "r2c2ctl: unexpected '%s' (try %s help)\n",
			argv[1], what);
		return R2C2CTL_EXIT_USAGE;
	}
	err = ask(path, cmd, &ans);
	if (err)
		return err;
	if (strstr(ans, "\"error\"")) {
		fprintf(stderr, "r2c2ctl: r2c2d: %s", ans);
		free(ans);
		return R2C2CTL_EXIT_ERR;
	}
	if (opts.json) {
		fputs(ans, stdout);
	} else {
		flat(ans, "", 0, 0);
		putchar('\n');
	}
	free(ans);
	return R2C2CTL_EXIT_OK;
}

int cmd_daemon(int argc, char **argv)
{
	return run(argc, argv, "daemon", "show");
}

int cmd_matrix(int argc, char **argv)
{
	return run(argc, argv, "matrix", "matrix");
}
