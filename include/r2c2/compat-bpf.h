/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat-bpf.h - the BPF side of compat.h: kernel type names and byte
 * order for the XDP program (xdp/), which has no libc. Nothing here
 * allocates: the program uses only the header layouts and the inline
 * decoders of wire.h.
 */
#ifndef _R2C2_COMPAT_BPF_H
#define _R2C2_COMPAT_BPF_H

#include <linux/types.h>
#include <stdbool.h>
#include <bpf/bpf_endian.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;

#ifndef __force
#define __force
#endif

#define memset(p, c, n)		__builtin_memset(p, c, n)
/*
 * Every helper of wire.h inlined into its caller, so that the verifier
 * sees the bounds the caller checked (a BPF-to-BPF call loses them on 6.1)
 */
#define inline			inline __attribute__((always_inline))
#define r2c2_htons(x)		bpf_htons(x)
#define r2c2_ntohs(x)		bpf_ntohs(x)

#endif /* _R2C2_COMPAT_BPF_H */
