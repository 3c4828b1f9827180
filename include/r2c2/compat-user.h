/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat-user.h - the userspace side of compat.h: kernel type names and
 * allocation over libc. Userspace C, so not subject to checkpatch (the
 * C99 fixed-width types keep printf's PRIu64 and friends right).
 */
#ifndef _R2C2_COMPAT_USER_H
#define _R2C2_COMPAT_USER_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <arpa/inet.h>
#include <linux/types.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;

#ifndef __force
#define __force
#endif

#define r2c2_zalloc(size)	calloc(1, size)
/*
 * Where the kernel's table work offers the CPU (cond_resched()):
 * counted per thread, for the tests (userspace/lib/topo.c)
 */
extern _Thread_local unsigned long r2c2_yields;
#define r2c2_cond_resched()	((void)r2c2_yields++)
#define r2c2_free(ptr)		free(ptr)
#define r2c2_htons(x)		htons(x)
#define r2c2_ntohs(x)		ntohs(x)

#endif /* _R2C2_COMPAT_USER_H */
