// SPDX-License-Identifier: GPL-2.0
/*
 * ctl_fuzz.c - r2c2d's control socket under libFuzzer.
 *
 * Feeds: a client of the daemon's real control socket (abstract,
 * "@r2c2d-fuzz-PID"): it connects, the daemon accepts (ctl_serve()),
 * then the client writes the input but its first byte in pieces, the
 * daemon serving after each piece, shuts its side down and reads the
 * answer. The first byte: bit 0 set, the client is another user than
 * root or the daemon's (refused); bits 1-7, the size of a piece (0:
 * all at once).
 * Reaches: ctl.c: ctl_serve() (accept, the partial reads of a line, the
 * end of the stream, the writes of the answer, the drop), answer() and
 * the answers it builds: show(), matrix() (with r2c2d_rates_fresh() and
 * compute() of main.c behind it), the refusal, the unknown command
 * echoed in a JSON string (json_str()).
 * The daemon: node 5 of torus:4x4 with a few flows in its matrix, its
 * own among them; built once.
 * Checks: every client that wrote something gets an answer, and the
 * answer is one JSON value (RFC 8259, UTF-8 included) and a newline;
 * no client is left with the daemon.
 * Work per input: one connection, at most -max_len bytes in pieces.
 */
#include <ctype.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "fuzz_daemon.h"
#include "fuzz.h"

static struct r2c2d d;

static void fail(const char *why, const char *ans, size_t len)
{
	fprintf(stderr, "ctl_fuzz: %s\n", why);
	if (ans)
		fprintf(stderr, "answer (%zu bytes): %.*s\n", len,
			(int)(len < 2048 ? len : 2048), ans);
	abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const struct mx_evt ev[] = {
		{ R2C2_FE_START, 5, 0x8f78c8c0, 3, 1, 0, R2C2_RP_RPS, 1100 },
		{ R2C2_FE_START, 5, 7, 10, 4, 1, R2C2_RP_VLB,
		  R2C2_DEMAND_UNLIMITED },
		{ R2C2_FE_START, 1, 7, 5, 255, 15, R2C2_RP_DOR, 0 },
		{ R2C2_FE_START, 2, 0xffffffff, 14, 1, 0, R2C2_RP_RPS,
		  R2C2_DEMAND_UNLIMITED },
		/* outside the topology: no rate */
		{ R2C2_FE_START, 40, 1, 2, 1, 0, R2C2_RP_RPS, 10 },
	};

	(void)argc;
	(void)argv;
	fuzz_daemon_init(&d, 5, "torus:4x4", NULL);
	snprintf(d.conf.control, sizeof(d.conf.control), "@r2c2d-fuzz-%d",
		 (int)getpid());
	if (ctl_open(&d))
		abort();
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		if (mx_apply(&d.mx, &ev[i], r2c2d_now()) != 1)
			abort();
	return 0;
}

/* ---- a JSON validator (RFC 8259), strict: what a client's parser takes ---- */

struct js {
	const unsigned char *p, *end;
	int depth;
};

static bool js_value(struct js *j);

static void js_ws(struct js *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' ||
				 *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static bool js_lit(struct js *j, const char *s)
{
	size_t n = strlen(s);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, s, n))
		return false;
	j->p += n;
	return true;
}

static bool js_digits(struct js *j)
{
	const unsigned char *s = j->p;

	while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
		j->p++;
	return j->p > s;
}

static bool js_number(struct js *j)
{
	if (j->p < j->end && *j->p == '-')
		j->p++;
	if (j->p < j->end && *j->p == '0')
		j->p++;
	else if (j->p >= j->end || *j->p < '1' || *j->p > '9' || !js_digits(j))
		return false;
	if (j->p < j->end && *j->p == '.' && (j->p++, !js_digits(j)))
		return false;
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		if (!js_digits(j))
			return false;
	}
	return true;
}

/* one UTF-8 sequence (RFC 3629: no overlong form, no surrogate) */
static bool js_utf8(struct js *j)
{
	const unsigned char *s = j->p;
	size_t left = (size_t)(j->end - s), n, i;
	uint32_t cp;

	if (s[0] < 0x80) {
		n = 1, cp = s[0];
	} else if ((s[0] & 0xe0) == 0xc0) {
		n = 2, cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3, cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4, cp = s[0] & 0x07;
	} else {
		return false;
	}
	if (n > left)
		return false;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return false;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return false;
	j->p += n;
	return true;
}

static bool js_string(struct js *j)
{
	if (j->p >= j->end || *j->p != '"')
		return false;
	j->p++;
	while (j->p < j->end && *j->p != '"') {
		if (*j->p < 0x20)
			return false;
		if (*j->p == '\\') {
			j->p++;
			if (j->p >= j->end)
				return false;
			if (*j->p == 'u') {
				for (int k = 1; k <= 4; k++)
					if (j->p + k >= j->end ||
					    !isxdigit(j->p[k]))
						return false;
				j->p += 5;
			} else if (strchr("\"\\/bfnrt", *j->p) && *j->p) {
				j->p++;
			} else {
				return false;
			}
			continue;
		}
		if (!js_utf8(j))
			return false;
	}
	if (j->p >= j->end)
		return false;
	j->p++;
	return true;
}

static bool js_members(struct js *j, bool obj)
{
	char close = obj ? '}' : ']';

	j->p++;
	js_ws(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		return true;
	}
	for (;;) {
		if (obj) {
			js_ws(j);
			if (!js_string(j))
				return false;
			js_ws(j);
			if (j->p >= j->end || *j->p++ != ':')
				return false;
		}
		if (!js_value(j))
			return false;
		js_ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == close) {
			j->p++;
			return true;
		}
		return false;
	}
}

static bool js_value(struct js *j)
{
	bool r;

	js_ws(j);
	if (j->p >= j->end)
		return false;
	switch (*j->p) {
	case '{':
	case '[':
		if (++j->depth > 32)
			return false;
		r = js_members(j, *j->p == '{');
		j->depth--;
		return r;
	case '"':
		return js_string(j);
	case 't':
		return js_lit(j, "true");
	case 'f':
		return js_lit(j, "false");
	case 'n':
		return js_lit(j, "null");
	default:
		return js_number(j);
	}
}

/* ---- one client ---- */

/* a turn of the loop: the listening socket and each client ready */
static void serve(bool accept_one)
{
	struct pollfd p[1 + CTL_CLIENTS];
	int np = ctl_pollfds(&d, p);

	p[0].revents = accept_one ? POLLIN : 0;
	for (int i = 1; i < np; i++)
		p[i].revents = p[i].events;
	ctl_serve(&d, p, np);
}

static int client(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t k = strlen(d.conf.control);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	memcpy(sa.sun_path, d.conf.control, k);
	sa.sun_path[0] = 0;
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa,
			      (socklen_t)(offsetof(struct sockaddr_un, sun_path) + k)))
		abort();
	return fd;
}

/* what the daemon wrote so far, after *len bytes of ans[cap] */
static void take(int fd, char **ans, size_t *len, size_t *cap)
{
	ssize_t r;

	for (;;) {
		if (*len == *cap) {
			*cap = *cap ? 2 * *cap : 65536;
			*ans = realloc(*ans, *cap);
			if (!*ans)
				abort();
		}
		r = read(fd, *ans + *len, *cap - *len);
		if (r <= 0)
			return;
		*len += (size_t)r;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t piece, off = 0, len = 0, cap = 0, n;
	char *ans = NULL;
	struct js j;
	int fd, turns;

	if (!size)
		return 0;
	piece = data[0] >> 1 ? data[0] >> 1 : size;
	fd = client();
	serve(true);
	if (d.nctl != 1)
		fail("the connection was not accepted", NULL, 0);
	if (data[0] & 1)
		d.ctl[0].uid = geteuid() == 65534 ? 65533 : 65534;
	data++;
	size--;
	while (off < size && d.nctl) {
		n = size - off < piece ? size - off : piece;
		if (write(fd, data + off, n) != (ssize_t)n)
			abort();
		off += n;
		serve(false);
	}
	shutdown(fd, SHUT_WR);
	for (turns = 0; d.nctl && turns < 10000; turns++) {
		serve(false);
		take(fd, &ans, &len, &cap);
	}
	take(fd, &ans, &len, &cap);
	close(fd);
	if (d.nctl)
		fail("a client left with the daemon", ans, len);
	if (!size) {
		if (len)
			fail("an answer to nothing", ans, len);
		free(ans);
		return 0;
	}
	if (!len)
		fail("no answer", NULL, 0);
	j = (struct js){ (const unsigned char *)ans,
			 (const unsigned char *)ans + len - 1, 0 };
	if (ans[len - 1] != '\n' || !js_value(&j) || (js_ws(&j), j.p != j.end))
		fail("the answer is not one JSON value and a newline", ans, len);
	free(ans);
	return 0;
}
