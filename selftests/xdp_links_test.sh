#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# xdp_links_test.sh - links_test.sh with the XDP transit program
# (xdp/r2c2_xdp.bpf.c) attached natively on every port: the same checks
# must pass, and every forwarded frame must have gone through the program.
R2C2_TEST_XDP=native exec bash "$(dirname "$0")/links_test.sh" "$@"
