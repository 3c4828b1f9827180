// SPDX-License-Identifier: GPL-2.0
/*
 * reply_fuzz.c - what r2c2ctl hears from the kernel, under libFuzzer.
 *
 * Feeds: byte 0 picks a command and its options (below); the rest is
 * the kernel's side of the conversation, read as R2C2CTL_REPLAY reads
 * it: netlink messages back to back (each framed by its nlmsg_len, the
 * next one NLMSG_ALIGN()ed after it), the family's id
 * R2C2CTL_REPLAY_FAMILY (0x1f). The whole of r2c2ctl runs, from its
 * main() (renamed r2c2ctl_main() for this build): the option parser,
 * the dispatch, the request, libnl's receive loop (nl_recvmsgs() over
 * the replay: sequence checks off, NLMSG_ERROR, DONE and the extack
 * TLVs as the kernel sends them), the command's callback and its text
 * or JSON printer.
 * Reaches: r2c2ctl/nl.c (report(), on_valid/on_error/on_ack/on_finish,
 * ctl_nl_parse() and its policy, the replay reader), and the callbacks
 * of node, port, neigh, topo, tree, route, traceroute, stats, flow,
 * qflow, reseq, class, key and monitor, with json.c's writer.
 * Checks: the exit status is 0 or 1 (the command line is always good,
 * so 2 would be a usage error from nowhere); with -j, every line of
 * standard output is one JSON value (json_valid(), the strict reader
 * r2c2ctl uses for r2c2d's answers): a reply, however malformed, must
 * never break the JSON r2c2ctl prints.
 * Work per input: one command over the messages of -max_len bytes.
 */
#include <fcntl.h>
#include <getopt.h>
#include <string.h>

#include "../r2c2ctl/json.h"
#include "../r2c2ctl/r2c2ctl.h"
#include "fuzz.h"

int r2c2ctl_main(int argc, char **argv);

/* byte 0: bits 0-3 the command (mod the table), bit 4 -j, bit 5 -s */
static const char *const cmds[][8] = {
	{ "node", "show" },
	{ "port", "show" },
	{ "neigh", "show" },
	{ "topo", "show" },
	{ "tree", "show" },
	{ "tree", "show", "src", "3" },
	{ "route", "get", "8", "count", "1000" },
	{ "route", "get", "8", "routing", "dor" },
	{ "traceroute", "6", "count", "3" },
	{ "stats", "show" },
	{ "flow", "show" },
	{ "qflow", "show" },
	{ "reseq", "show" },
	{ "class", "show" },
	{ "key", "show" },
	{ "monitor", "count", "8" },
};

#define N_CMDS	(sizeof(cmds) / sizeof(cmds[0]))

static int out_fd = -1;

static void fail(const char *why, const char *const *cmd, bool json)
{
	fprintf(stderr, "reply_fuzz: %s: r2c2ctl%s", why, json ? " -j" : "");
	for (; *cmd; cmd++)
		fprintf(stderr, " %s", *cmd);
	fputc('\n', stderr);
	abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* stdout to a memfd, read back after each command */
	out_fd = memfd_create("r2c2-reply-out", MFD_CLOEXEC);
	if (out_fd < 0 || dup2(out_fd, STDOUT_FILENO) < 0)
		abort();
	return 0;
}

/* stdout of the last command, as a C string (malloc'ed) */
static char *take_stdout(void)
{
	off_t len;
	char *s;

	fflush(stdout);
	len = lseek(out_fd, 0, SEEK_END);
	if (len < 0)
		abort();
	s = malloc((size_t)len + 1);
	if (!s || pread(out_fd, s, (size_t)len, 0) != len)
		abort();
	s[len] = '\0';
	if (ftruncate(out_fd, 0) || lseek(STDOUT_FILENO, 0, SEEK_SET) < 0)
		abort();
	return s;
}

/* each line one JSON value: the writer ends every top-level value with \n */
static bool lines_valid(char *s)
{
	char *line, *save;

	for (line = strtok_r(s, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (!json_valid(line))
			return false;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *const *cmd;
	char *argv[16], *out;
	bool json, stats;
	int argc = 0, ret;

	if (!size)
		return 0;
	cmd = cmds[(data[0] & 0xf) % N_CMDS];
	json = data[0] & 0x10;
	stats = data[0] & 0x20;
	setenv("R2C2CTL_REPLAY", fuzz_file(data + 1, size - 1), 1);
	argv[argc++] = (char *)"r2c2ctl";
	if (json)
		argv[argc++] = (char *)"-j";
	if (stats)
		argv[argc++] = (char *)"-s";
	for (const char *const *w = cmd; *w; w++)
		argv[argc++] = (char *)*w;
	argv[argc] = NULL;

	memset(&opts, 0, sizeof(opts));
	optind = 0;		/* glibc: start getopt again */
	ret = r2c2ctl_main(argc, argv);
	out = take_stdout();
	if (ret != R2C2CTL_EXIT_OK && ret != R2C2CTL_EXIT_ERR)
		fail("exit status neither 0 nor 1", cmd, json);
	if (json && !lines_valid(out))
		fail("-j printed a line that is not one JSON value", cmd, json);
	free(out);
	return 0;
}
