// SPDX-License-Identifier: GPL-2.0
/*
 * answer_fuzz.c - r2c2d's answer as r2c2ctl prints it, under libFuzzer.
 *
 * Feeds: the input as the answer r2c2ctl daemon show / matrix show
 * read from the control socket (ask(): up to its first NUL, as a C
 * string; whoever listens on @r2c2d writes it, r2c2d or not), to what
 * run() does with it in text mode: show_answer().
 * Reaches: r2c2ctl/daemon.c (included): the strict JSON reader
 * (json_check(), json_str()), the "error" answer, and flat(), the walk
 * that prints the JSON as "key value" lines.
 * Checks: none but the sanitizers' (the text goes to /dev/null).
 * Work per input: one pass over the answer (at most -max_len bytes).
 */
#include <fcntl.h>

#include "../r2c2ctl/daemon.c"
#include "fuzz.h"

struct r2c2ctl_opts opts;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd = open("/dev/null", O_WRONLY);

	(void)argc;
	(void)argv;
	/* stdout only: the sanitizers and libFuzzer write to stderr */
	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
		abort();
	close(fd);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *ans = fuzz_str(data, size);

	/* what is not JSON is refused on stderr, which is libFuzzer's */
	if (json_valid(ans))
		show_answer(ans, false);
	fflush(stdout);
	free(ans);
	return 0;
}
