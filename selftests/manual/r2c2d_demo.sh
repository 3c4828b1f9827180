#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# r2c2d_demo.sh - r2c2d end to end on a 3x3 torus (run by hand in the VM:
#	scripts/vm-run --kernel 6.1 -- bash selftests/manual/r2c2d_demo.sh
# not yet in CI: see Documentation/r2c2d.md, "Status").
#
#	 [0] p0 --tbf 50mbit--> p1 [1]      3 TCP flows 0 -> 1 (iperf3 -P 3)
#	 sch_r2c2 on r2c0 of node 0; r2c2d on all 9 nodes, link_capacity 50M
#
# Checks: every daemon learns the 3 flows; node 0's daemon pushes rates
# equal to `r2c2ctl alloc` for the same flows (within 5 %); the flows'
# achieved rates (iperf3) are within 5 % of each other (equal shares).
# Prints r2c2ctl daemon show of node 0 (timings).

lib_dir=$(cd "$(dirname "$0")/.." && pwd)
source "$lib_dir/lib.sh"
source "$lib_dir/torus.sh"

require_root
require_cmd ip jq iperf3
require_module veth
require_r2c2
R2C2D=${R2C2D:-$(command -v r2c2d || echo "$lib_dir/../userspace/r2c2d/r2c2d")}
[[ -x $R2C2D ]] || ksft_skip_all "r2c2d not built (make -C userspace)"
TC=/usr/sbin/tc
[[ -d /sys/module/sch_r2c2 ]] || ksft_skip_all "sch_r2c2.ko not loaded"

CAP=50M
DUR=${DUR:-12}
PIDS=()
stop_all() { local p; for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; }
cleanup_add stop_all

torus_create 3 3 || exit "$KSFT_FAIL"
torus_wait_converged 60
check_err $? "torus did not converge"
log_test "3x3 torus up"

N0=$(torus_ns 0)
N1=$(torus_ns 1)
ip netns exec "$N0" "$TC" qdisc add dev p0 root tbf rate 50mbit burst 32k latency 50ms
ip netns exec "$N0" "$TC" qdisc add dev r2c0 root r2c2
check_err $? "sch_r2c2 on r2c0 of node 0"
for id in $(torus_nodes); do
	ip netns exec "$(torus_ns "$id")" "$R2C2D" -o link_capacity=$CAP ${R2C2D_ARGS:-} \
		2>"/tmp/r2c2d-$id.log" &
	PIDS+=($!)
done
sleep 1
ip netns exec "$N0" r2c2ctl daemon show >/dev/null
check_err $? "r2c2d answers on its control socket"
log_test "r2c2d on every node"

ip netns exec "$N1" iperf3 -s -D -1 >/dev/null
sleep 0.5
ip netns exec "$N0" iperf3 -c "$(torus_addr4 1)" -P 3 -t "$DUR" -J \
	>/tmp/r2c2d-iperf.json &
IPERF=$!
sleep $((DUR / 2))
ip netns exec "$N0" r2c2ctl -j matrix show >/tmp/r2c2d-m0.json
ip netns exec "$(torus_ns 4)" r2c2ctl -j matrix show >/tmp/r2c2d-m4.json
ip netns exec "$N0" r2c2ctl -j qflow show >/tmp/r2c2d-q0.json
wait "$IPERF"

n0=$(jq '[.flows[] | select(.src == 0 and .dst == 1)] | length' /tmp/r2c2d-m0.json)
n4=$(jq '[.flows[] | select(.src == 0 and .dst == 1)] | length' /tmp/r2c2d-m4.json)
[[ $n0 -ge 3 && $n4 -eq $n0 ]]
check_err $? "node 0 sees $n0 flows 0->1, node 4 sees $n4"
log_test "every daemon keeps the same matrix"

# offline reference for the same flows
: >/tmp/r2c2d-flows.txt
for ((i = 0; i < n0; i++)); do echo "0 1" >>/tmp/r2c2d-flows.txt; done
want=$(r2c2ctl -j alloc --topology torus:3x3 --capacity $CAP \
	--flows /tmp/r2c2d-flows.txt | jq '[.. | .rate? // empty] | .[0]')
got=$(jq '[.flows[] | select(.src == 0 and .dst == 1) | .pushed] | min' /tmp/r2c2d-m0.json)
got_max=$(jq '[.flows[] | select(.src == 0 and .dst == 1) | .pushed] | max' /tmp/r2c2d-m0.json)
log_info "r2c2ctl alloc: $want bit/s a flow; r2c2d pushed $got .. $got_max"
awk -v w="$want" -v a="$got" -v b="$got_max" \
	'BEGIN { exit !(w > 0 && a > 0.95 * w && b < 1.05 * w) }'
check_err $? "pushed rates within 5 % of r2c2ctl alloc"
log_test "rates pushed = offline max-min"

jq -r '.end.streams[].sender.bits_per_second' /tmp/r2c2d-iperf.json >/tmp/r2c2d-bps
log_info "iperf3 per flow (bit/s): $(tr '\n' ' ' </tmp/r2c2d-bps)"
awk 'NR == 1 { lo = hi = $1 } { if ($1 < lo) lo = $1; if ($1 > hi) hi = $1; s += $1 }
     END { printf "# INFO: spread %.1f %%, total %.1f Mbit/s\n", 100 * (hi - lo) / hi, s / 1e6;
	   exit !(NR >= 3 && lo > 0.95 * hi) }' /tmp/r2c2d-bps
check_err $? "achieved rates within 5 % of each other"
log_test "equal shares through one bottleneck"

ip netns exec "$N0" r2c2ctl -j daemon show | sed 's/^/# /'
head -c 1500 /tmp/r2c2d-q0.json | sed 's/^/# qflow: /'
tail -n 20 /tmp/r2c2d-0.log | sed 's/^/# r2c2d-0: /'
ksft_exit
