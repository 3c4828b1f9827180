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
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "cmds.h"
#include "json.h"

static int ask(const char *path, const char *cmd, char **out)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t len = strlen(path), cap = 65536, n = 0;
	char *buf, line[64];
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
	/*
	 * the line in one send, and no SIGPIPE: a listener that answers
	 * before it reads the line and closes (not r2c2d) gets read
	 */
	snprintf(line, sizeof(line), "%s\n", cmd);
	if (send(fd, line, strlen(line), MSG_NOSIGNAL) < 0 && errno != EPIPE)
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
 * Objects and arrays nested deeper than this are refused (r2c2d's
 * answers nest 3 deep): the answer comes from whoever listens on the
 * socket, and each level is a call of json_check() and flat()
 */
#define FLAT_DEPTH_MAX	32

/* ---- a strict JSON reader (RFC 8259) for the answer ---- */

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static int hex4(const char *p, unsigned int *v)
{
	int i;

	*v = 0;
	for (i = 0; i < 4; i++) {
		if (!isxdigit((unsigned char)p[i]))
			return -1;
		*v = *v * 16 + (unsigned int)(isdigit((unsigned char)p[i]) ?
			p[i] - '0' : tolower((unsigned char)p[i]) - 'a' + 10);
	}
	return 0;
}

/*
 * The string at p (its opening quote): its end past the closing quote,
 * or NULL if malformed (a raw control character, a bad escape, a lone
 * surrogate, no end). If out is set, the decoded UTF-8 is written there
 * (at most as many bytes as the string's source).
 */
static const char *json_str(const char *p, char *out, size_t *outlen)
{
	size_t n = 0;

	for (p++; *p != '"'; p++) {
		unsigned int c, lo;

		if ((unsigned char)*p < 0x20)
			return NULL;	/* also the end of the answer */
		if (*p != '\\') {
			if (out)
				out[n] = *p;
			n++;
			continue;
		}
		p++;
		switch (*p) {
		case '"': case '\\': case '/':
			c = (unsigned char)*p;
			break;
		case 'b': c = '\b'; break;
		case 'f': c = '\f'; break;
		case 'n': c = '\n'; break;
		case 'r': c = '\r'; break;
		case 't': c = '\t'; break;
		case 'u':
			if (hex4(p + 1, &c))
				return NULL;
			p += 4;
			if (c >= 0xdc00 && c <= 0xdfff)
				return NULL;
			if (c >= 0xd800 && c <= 0xdbff) {
				if (p[1] != '\\' || p[2] != 'u' || hex4(p + 3, &lo) ||
				    lo < 0xdc00 || lo > 0xdfff)
					return NULL;
				c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
				p += 6;
			}
			break;
		default:
			return NULL;
		}
		if (out) {	/* UTF-8: never longer than its \u escape(s) */
			if (c < 0x80) {
				out[n++] = (char)c;
			} else if (c < 0x800) {
				out[n++] = (char)(0xc0 | c >> 6);
				out[n++] = (char)(0x80 | (c & 0x3f));
			} else if (c < 0x10000) {
				out[n++] = (char)(0xe0 | c >> 12);
				out[n++] = (char)(0x80 | ((c >> 6) & 0x3f));
				out[n++] = (char)(0x80 | (c & 0x3f));
			} else {
				out[n++] = (char)(0xf0 | c >> 18);
				out[n++] = (char)(0x80 | ((c >> 12) & 0x3f));
				out[n++] = (char)(0x80 | ((c >> 6) & 0x3f));
				out[n++] = (char)(0x80 | (c & 0x3f));
			}
		} else {
			n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
		}
	}
	if (outlen)
		*outlen = n;
	return p + 1;
}

static const char *json_num(const char *p)
{
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (isdigit((unsigned char)*p))
			p++;
	else
		return NULL;
	if (*p == '.') {
		if (!isdigit((unsigned char)*++p))
			return NULL;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!isdigit((unsigned char)*p))
			return NULL;
		while (isdigit((unsigned char)*p))
			p++;
	}
	return p;
}

/* the value at p checked: its end, or NULL (malformed, too deep) */
static const char *json_check(const char *p, int depth)
{
	p = skip_ws(p);
	if (*p == '{' || *p == '[') {
		char close = *p == '{' ? '}' : ']';

		if (depth >= FLAT_DEPTH_MAX)
			return NULL;
		p = skip_ws(p + 1);
		if (*p == close)
			return p + 1;
		for (;;) {
			if (close == '}') {
				if (*p != '"' || !(p = json_str(p, NULL, NULL)))
					return NULL;
				p = skip_ws(p);
				if (*p++ != ':')
					return NULL;
			}
			p = json_check(p, depth + 1);
			if (!p)
				return NULL;
			p = skip_ws(p);
			if (*p == close)
				return p + 1;
			if (*p++ != ',')
				return NULL;
			p = skip_ws(p);
		}
	}
	if (*p == '"')
		return json_str(p, NULL, NULL);
	if (!strncmp(p, "true", 4))
		return p + 4;
	if (!strncmp(p, "false", 5))
		return p + 5;
	if (!strncmp(p, "null", 4))
		return p + 4;
	return json_num(p);
}

/* whether the whole answer is one JSON value (and white space) */
bool json_valid(const char *ans)
{
	const char *p = json_check(ans, 0);

	return p && !*skip_ws(p);
}

/* a checked string printed decoded */
static const char *put_str(const char *p)
{
	size_t n;
	char *b = malloc(strlen(p) + 1);
	const char *e;

	if (!b)
		return json_str(p, NULL, NULL);
	e = json_str(p, b, &n);
	fwrite(b, 1, n, stdout);
	free(b);
	return e;
}

/*
 * print checked JSON as text: "key value" pairs; objects inside arrays
 * one a line
 */
static const char *flat(const char *p, int in_arr)
{
	char key[128];

	p = skip_ws(p);
	if (*p == '{' || *p == '[') {
		int arr = *p == '[', first = 1;

		p = skip_ws(p + 1);
		while (*p != '}' && *p != ']') {
			if (!arr) {
				size_t l;
				char *b = malloc(strlen(p) + 1);

				if (!b)
					return p + strlen(p);
				p = skip_ws(json_str(p, b, &l));
				if (l >= sizeof(key))
					l = sizeof(key) - 1;
				memcpy(key, b, l);
				key[l] = 0;
				free(b);
				p = skip_ws(p + 1);	/* the ':' */
				if (*p == '{')
					printf("%s%s:", first && in_arr ? "" : "\n", key);
				else if (*p == '[')
					printf("\n%s:", key);
				else
					printf("%s%s ", first && in_arr ? "" : (in_arr ? " " : "\n"), key);
				p = flat(p, 0);
			} else {
				printf("\n  ");
				p = flat(p, 1);
			}
			first = 0;
			p = skip_ws(p);
			if (*p == ',')
				p = skip_ws(p + 1);
		}
		return p + 1;
	}
	if (*p == '"')
		return put_str(p);
	while (*p && *p != ',' && *p != '}' && *p != ']' && !isspace((unsigned char)*p))
		putchar(*p++);
	return p;
}

/*
 * r2c2d's answer printed (as is with -j, else as text), or its error:
 * the exit status. The answer comes from whoever listens on the socket:
 * anything but one JSON value is refused, printing nothing.
 */
static int show_answer(const char *ans, bool json)
{
	const char *p = skip_ws(ans);

	if (!json_valid(ans)) {
		fputs("r2c2ctl: r2c2d: the answer is not one JSON value\n", stderr);
		return R2C2CTL_EXIT_ERR;
	}
	/* {"error":"..."}: the message, decoded */
	if (*p == '{' && (p = skip_ws(p + 1), *p == '"') &&
	    !strncmp(p, "\"error\"", 7) && (p = skip_ws(p + 7), *p == ':') &&
	    (p = skip_ws(p + 1), *p == '"')) {
		size_t n;
		char *b = malloc(strlen(p) + 1);

		fputs("r2c2ctl: r2c2d: ", stderr);
		if (b) {
			json_str(p, b, &n);
			fwrite(b, 1, n, stderr);
			free(b);
		}
		fputc('\n', stderr);
		return R2C2CTL_EXIT_ERR;
	}
	if (json) {
		fputs(ans, stdout);
	} else {
		flat(ans, 0);
		putchar('\n');
	}
	return R2C2CTL_EXIT_OK;
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
	err = show_answer(ans, opts.json);
	free(ans);
	return err;
}

int cmd_daemon(int argc, char **argv)
{
	return run(argc, argv, "daemon", "show");
}

int cmd_matrix(int argc, char **argv)
{
	return run(argc, argv, "matrix", "matrix");
}
