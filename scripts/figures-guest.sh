#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# figures-guest.sh - the guest half of `scripts/figures.sh data` (make
# figures-data): run in a VM by `scripts/vm-run --out FILE`. Runs the
# rate-loop demo (scripts/demo-loop-guest.sh), which hands its time
# series and its 3x3 torus's `r2c2ctl -j topo show` out through
# R2C2_OUT, then builds a 2x2 torus and hands out node 0's
# `r2c2ctl -j topo show` of it (a "topo-2x2" block), the input of the
# DOT converter's test (userspace/tests/figures_test.sh).
#
#	  0 ==== 1        2x2: each pair of neighbours is joined twice
#	  ‖      ‖        (ports 0/1 along x, 2/3 along y)
#	  2 ==== 3
set -u
cd "$(dirname "$0")/.." || exit 1
[[ -n ${R2C2_OUT:-} ]] || { echo "figures-guest.sh: no R2C2_OUT (scripts/vm-run --out FILE)" >&2; exit 1; }
bash scripts/demo-loop-guest.sh || exit 1

# shellcheck source=selftests/lib.sh
source selftests/lib.sh
# shellcheck source=selftests/torus.sh
source selftests/torus.sh
require_root
require_r2c2
printf '\n### 2x2 torus for the DOT converter test\n'
torus_create 2 2 || exit 1
torus_wait_converged 60 || exit 1
# every node's links known at node 0: 4 nodes x 4 ports
links16() {
	[[ $(ip netns exec "$(torus_ns 0)" r2c2ctl -j topo show |
		jq '[.[].links | length] | add') == 16 ]]
}
busywait 30000 links16 || { echo "figures-guest.sh: node 0 does not know 16 links" >&2; exit 1; }
T=$(mktemp -d)
cleanup_add "rm -rf $T"
ip netns exec "$(torus_ns 0)" r2c2ctl -j topo show >"$T/topo-2x2.json"
jq -c . "$T/topo-2x2.json"
{
	echo "r2c2-out-begin topo-2x2"
	tar -C "$T" -cz topo-2x2.json | base64 -w 76
	echo "r2c2-out-end topo-2x2"
} >>"$R2C2_OUT"
