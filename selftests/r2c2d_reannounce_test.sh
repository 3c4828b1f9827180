#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# r2c2d_reannounce_test.sh - after the graph changes, the flows of nodes
# that left it leave every matrix, and every daemon announces its own
# flows again, so a node that comes back holds the rack's flows at once.
#
#	scripts/vm-run --kernel 6.1 -- selftests/run.sh r2c2d_reannounce_test.sh
#
#	  node 0  p0 ---- p1  node 1  p0 ---- p1  node 2
#	  r2c2d, sch_r2c2     iperf3 server       r2c2d
#	  iperf3 -u 0 -> 1 (1 Mbit/s)
#
# The daemons refresh their flows only every 60 s (refresh_ms) and keep
# a silent flow 600 s (expire_ms). Node 0's flow does not cross link
# 1-2, and its demand is not announced for 600 s (announce_delay_ms): no
# UPDATE of it either. Link 1-2 goes down: node 2 is alone,
# and node 0's flow must leave its matrix (left_flows). The link comes
# back: node 2 must hold node 0's flow again within 15 s, which only node
# 0's announcement after the change can bring.

# functions called through busywait; cleanup_add evaluates later
# shellcheck disable=SC2317,SC2016
lib_dir=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"

require_root
require_cmd ip jq iperf3 ss
require_module veth
require_r2c2
require_cmd r2c2d
[[ -d /sys/module/sch_r2c2 ]] || modprobe -q sch_r2c2 2>/dev/null ||
	ksft_skip_all "sch_r2c2.ko not available"
ksft_plan 3

TMP=$(mktemp -d)
NS=(r2c2ra-0 r2c2ra-1 r2c2ra-2)
DPIDS=()
CPIDS=()
cleanup_add "rm -rf $TMP"
cleanup_add 'stop_pids "${CPIDS[@]}" "${DPIDS[@]}"'
cleanup_add "ip netns exec ${NS[1]} pkill -x iperf3"
# no digests either (digest_ms 0): they would bring the flow back too
DOPTS=(-o link_capacity=100M -o ga_interval_ms=0 -o refresh_ms=60000
	-o expire_ms=600000 -o announce_delay_ms=600000 -o warmup_ms=0
	-o digest_ms=0)

# flows NS: the sources of the flows in the daemon's matrix, sorted
flows() { ip netns exec "$1" r2c2ctl -j matrix show 2>/dev/null | jq -c '[.flows[].src] | sort'; }
holds() { [[ $(flows "${NS[2]}") == "$1" && $(flows "${NS[0]}") == "[0]" ]]; }
topo() { ip netns exec "${NS[$1]}" r2c2ctl -j daemon show | jq -c '.topology | {rebuilds, reannounces, left_flows}'; }
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

# 1. the line, node 0's flow to node 1, both daemons hold it
RET=0
line_create "${NS[@]}"
check_err $? "the line of nodes 0-1-2"
tc -n "${NS[0]}" qdisc add dev r2c0 root r2c2
check_err $? "sch_r2c2 on node 0"
busywait 20000 ip netns exec "${NS[0]}" ping -c 1 -W 1 10.42.0.3 >/dev/null
check_err $? "node 2 does not answer node 0"
ip netns exec "${NS[1]}" iperf3 -s -D -p 5201 >/dev/null
check_err $? "iperf3 server on node 1"
listening() { ip netns exec "${NS[1]}" ss -Hlun 'sport = :5201' | grep -q .; }
busywait 10000 listening
for i in 0 2; do
	ip netns exec "${NS[i]}" r2c2d "${DOPTS[@]}" -v 2>"$TMP/d$i.log" &
	DPIDS+=($!)
done
for i in 0 2; do
	busywait 10000 ip netns exec "${NS[i]}" r2c2ctl daemon show >/dev/null 2>&1
	check_err $? "r2c2d on node $i answers"
done
ip netns exec "${NS[0]}" iperf3 -c 10.42.0.2 -p 5201 -u -b 1M -l 1000 \
	-t 120 >"$TMP/c0.log" 2>&1 &
CPIDS+=($!)
busywait 20000 holds "[0]"
check_err $? "node 2's daemon does not hold node 0's flow: $(flows "${NS[2]}")"
log_test_or_exit "node 0's flow to node 1, node 2's daemon holds it (refresh_ms 60000)"

# 2. link 1-2 goes down: node 2 alone, node 0's flow leaves its matrix
RET=0
t0=$(date +%s%N)
ip -n "${NS[2]}" link set p1 down
busywait 10000 holds "[]"
check_err $? "10 s after the cut node 2 holds $(flows "${NS[2]}")"
t=$(ms "$t0")
ip netns exec "${NS[2]}" r2c2ctl -j daemon show | json_assert '.topology.left_flows >= 1'
check_err $? "node 2: left_flows does not count the flow that left: $(topo 2)"
log_test "link 1-2 down: node 0's flow left node 2's matrix ($t ms)"

# 3. the link comes back: node 0 announces its flow again at once
RET=0
r0=$(ip netns exec "${NS[0]}" r2c2ctl -j daemon show | jq .topology.reannounces)
t0=$(date +%s%N)
ip -n "${NS[2]}" link set p1 up
busywait 15000 holds "[0]"
check_err $? "15 s after the link came back node 2 holds $(flows "${NS[2]}")"
t=$(ms "$t0")
r1=$(ip netns exec "${NS[0]}" r2c2ctl -j daemon show | jq .topology.reannounces)
((r1 > r0))
check_err $? "node 0: reannounces $r0 -> $r1"
for i in 0 2; do log_info "node $i: $(topo "$i")"; done
log_test "link 1-2 back: node 2 holds node 0's flow again ($t ms, refresh_ms 60000)"

if ((ksft_fail)); then
	for i in 0 2; do
		grep -v 'push flow\|TOPO_EVENT' "$TMP/d$i.log" | tail -n 15 | sed "s/^/# r2c2d-$i: /"
	done
fi
ksft_exit
