/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz.h - what the libFuzzer harnesses share: an input handed to a
 * parser that takes a path, as the file it would read.
 */
#ifndef _R2C2_FUZZ_H
#define _R2C2_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The input as a file: one memfd for the whole run, emptied and written
 * again for each input; the parser opens "/proc/self/fd/N" as it would
 * any path (its own open file, at offset 0). Aborts when it cannot: a
 * harness that silently parsed nothing would look like a clean run.
 */
static inline const char *fuzz_file(const uint8_t *data, size_t size)
{
	static char path[64];
	static int fd = -1;
	size_t off = 0;
	ssize_t n;

	if (fd < 0) {
		fd = memfd_create("r2c2-fuzz", MFD_CLOEXEC);
		if (fd < 0) {
			perror("memfd_create");
			abort();
		}
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0)) {
		perror("ftruncate");
		abort();
	}
	while (off < size) {
		n = pwrite(fd, data + off, size - off, (off_t)off);
		if (n <= 0) {
			perror("pwrite");
			abort();
		}
		off += (size_t)n;
	}
	return path;
}

/* the input as a C string (malloc'ed; NULs inside end it early) */
static inline char *fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	for (size_t i = 0; i < size; i++)
		s[i] = (char)data[i];
	s[size] = 0;
	return s;
}

#endif /* _R2C2_FUZZ_H */
