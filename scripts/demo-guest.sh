#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# demo-guest.sh - the README's demo, run inside the VM by scripts/demo.sh:
# a 3x3 torus of network namespaces joined by veth, one r2c2 node each,
# traffic across it, and the counters it leaves behind.
#
#	  6 ---- 7 ---- 8 --
#	  |      |      |       node id = x + 3y; ports p0/p1 = +x/-x,
#	  3 ---- 4 ---- 5 --    p2/p3 = +y/-y; the links wrap around.
#	  |      |      |       r2c0 of node i: 10.42.0.i/16, fd42::i/64
#	  0 ---- 1 ---- 2 --
#	  |      |      |
set -u
cd "$(dirname "$0")/.."
# shellcheck source=selftests/lib.sh
source selftests/lib.sh
# shellcheck source=selftests/torus.sh
source selftests/torus.sh

step() { printf '\n### %s\n' "$*"; }
at() { local id=$1; shift; ip netns exec "$(torus_ns "$id")" "$@"; }

require_root
require_module veth
require_r2c2

step "building a 3x3 torus: 9 namespaces, 18 veth links, r2c2 on each node"
torus_create 3 3 || exit 1
torus_wait_converged 60 || exit 1
at 0 "$R2C2CTL" node show
at 0 "$R2C2CTL" neigh show

step "the rack graph as node 0 discovered it (hello + link-state flooding)"
at 0 "$R2C2CTL" topo show

step "routes sampled by node 0 towards node 4 (two hops away, two minimal paths)"
for r in rps dor vlb; do
	printf '%s: ' "$r"
	at 0 "$R2C2CTL" route get 4 routing "$r"
done

step "ping over r2c0 from node 0 to every other node"
for id in $(seq 1 8); do
	at 0 ping -c 2 -W 2 -q "10.42.0.$id" | sed -n "s/^/node $id: /;/packets/p"
done
at 0 ping -6 -c 2 -W 2 -q fd42::8 | sed -n 's/^/node 8 (IPv6): /;/packets/p'

for id in $(torus_nodes); do at "$id" "$R2C2CTL" stats reset; done

step "iperf3 TCP from node 0 to node 4 for 5 s, sprayed over both minimal paths (RPS)"
at 4 iperf3 -s -D -1 >/dev/null 2>&1
sleep 0.5
at 0 iperf3 -c 10.42.0.4 -t 5 -f m | grep -E 'sender|receiver'

step "data frames each port sent (originated + forwarded), per node"
printf '%-6s' node
for p in 0 1 2 3; do printf '%12s' "p$p"; done
printf '%12s%12s\n' forwarded delivered
for id in $(torus_nodes); do
	printf '%-6s' "$id"
	js=$(at "$id" "$R2C2CTL" -j -s port show)
	for p in 0 1 2 3; do
		printf '%12s' "$(jq -r ".[] | select(.port == $p) | .stats.forwarded + .stats.originated" <<<"$js")"
	done
	st=$(at "$id" "$R2C2CTL" -j stats show)
	printf '%12s%12s\n' "$(jq -r .forwarded <<<"$st")" "$(jq -r .delivered <<<"$st")"
done
echo
echo "Node 0 sends on p0 (+x, to node 1) and p2 (+y, to node 3); nodes 1 and 3"
echo "forward to node 4 on p2 and p0: RPS splits the flow over both minimal"
echo "paths. The ACKs come back the same two ways."

step "node 0 counters"
at 0 "$R2C2CTL" stats show
torus_destroy
