#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# xdp_fuzz_test.sh - fuzz_rack.sh, 10,000 frames, with the XDP transit
# program (xdp/r2c2_xdp.bpf.c) attached natively on every port of the
# torus and on the port the fuzzer sends into: every frame must be
# accounted for as without it.
FUZZ_FRAMES=${FUZZ_FRAMES:-10000} R2C2_TEST_XDP=native \
	exec bash "$(dirname "$0")/fuzz_rack.sh" "$@"
