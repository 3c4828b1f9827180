#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# torus_test.sh - a 3x3 r2c2 torus of namespaces converges and carries
# IPv4 and IPv6 between every node and node 0.
#
#	  6 ---- 7 ---- 8 --      one namespace r2c2-<id> per node,
#	  |      |      |         id = x + 3y; p0/p1 along x (+/-),
#	  3 ---- 4 ---- 5 --      p2/p3 along y; links wrap around.
#	  |      |      |         r2c0: 10.42.0.<id>/16, fd42::<id>/64
#	  0 ---- 1 ---- 2 --
#	  |      |      |

lib_dir=$(dirname "$0")
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"
# shellcheck source=selftests/torus.sh
source "$lib_dir/torus.sh"

require_root
require_cmd ip ping
require_module veth
require_r2c2

# ping_ok NS ADDR: one echo reply within a few tries (the first packets
# may be spent on neighbour resolution).
ping_ok()
{
	local ns=$1 addr=$2 i

	for i in 1 2 3; do
		ip netns exec "$ns" ping -c 1 -W 1 "$addr" >/dev/null 2>&1 && return 0
	done
	return 1
}

RET=0
torus_create 3 3
check_err $? "torus_create 3 3"
log_test "create a 3x3 torus (9 namespaces, 18 veth links)"

RET=0
torus_wait_converged 30
check_err $? "not every node learned the 9 nodes"
log_test "every node knows the whole torus"

for fam in 4 6; do
	RET=0
	failed=()
	for id in $(torus_nodes); do
		((id == 0)) && continue
		if [[ $fam == 4 ]]; then addr=$(torus_addr4 "$id"); else addr=$(torus_addr6 "$id"); fi
		ping_ok "$(torus_ns 0)" "$addr" || failed+=("$id")
		if [[ $fam == 4 ]]; then addr=$(torus_addr4 0); else addr=$(torus_addr6 0); fi
		ping_ok "$(torus_ns "$id")" "$addr" || failed+=("$id->0")
	done
	((${#failed[@]} == 0))
	check_err $? "no IPv$fam reply: ${failed[*]}"
	log_test "IPv$fam ping between node 0 and every node"
done

RET=0
torus_destroy
[[ ! -e /run/netns/r2c2-0 ]]
check_err $? "namespaces left after torus_destroy"
log_test "torus_destroy removes the namespaces"

ksft_exit
