/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - the small shim that lets common/ compile both into the
 * kernel modules, the userspace library (as Fastpass does) and the XDP
 * program (clang's BPF target).
 */
#ifndef _R2C2_COMPAT_H
#define _R2C2_COMPAT_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <asm/byteorder.h>

/* the table computation's: charged to the active memory cgroup, quiet */
#define r2c2_zalloc(size)	kvzalloc(size, GFP_KERNEL_ACCOUNT | __GFP_NOWARN)
/* long table work (O(n^2) at up to 65,535 nodes) offers the CPU */
#define r2c2_cond_resched()	cond_resched()
#define r2c2_free(ptr)		kvfree(ptr)
#define r2c2_htons(x)		((__force __u16)cpu_to_be16(x))
#define r2c2_ntohs(x)		be16_to_cpu((__force __be16)(x))
#elif defined(__bpf__)
#include "compat-bpf.h"
#else
#include "compat-user.h"
#endif

#endif /* _R2C2_COMPAT_H */
