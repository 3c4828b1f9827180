#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# r2c2d_restart_test.sh - a daemon restarted in a running rack pushes
# rack-aware rates from its first push on.
#
#	scripts/vm-run --kernel 6.1 -- selftests/run.sh r2c2d_restart_test.sh
#
#	  node 0  p0 ---- p1  node 1  p0 ---- p1  node 2
#	  r2c2d, sch_r2c2     r2c2d, sch_r2c2     iperf3 servers
#	  iperf3 -u 0 -> 2    iperf3 -u 1 -> 2
#
# Both flows cross link 1 -> 2 and send more than it carries: max-min
# gives each half of it. With node 0's flow leased its share, node 0's
# r2c2d is killed (-9) and started again. Until node 1's daemon refreshes
# its flow (every refresh_ms, 1 s), the new daemon knows only its own: a
# round then would push the whole link to node 0's flow. The daemon runs
# no round and pushes nothing for warmup_ms (1.5 s) after its start; its
# first pushed rate must be within 5 % of the rate it settled on before.

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

CAP=8			# Mbit/s, the daemons' link_capacity
TOL=0.05
TMP=$(mktemp -d)
NS=(r2c2rs-0 r2c2rs-1 r2c2rs-2)
DPIDS=()
CPIDS=()
cleanup_add "rm -rf $TMP"
cleanup_add 'stop_pids "${CPIDS[@]}" "${DPIDS[@]}"'
cleanup_add "ip netns exec ${NS[2]} pkill -x iperf3"
DOPTS=(-o "link_capacity=${CAP}M" -o ga_interval_ms=0 -o rho_us=5000
	-o demand_interval_ms=50)

# 1. the line, two flows into node 2, both daemons settled
RET=0
line_create "${NS[@]}"
check_err $? "the line of nodes 0-1-2"
for i in 0 1; do
	tc -n "${NS[i]}" qdisc add dev r2c0 root r2c2
	check_err $? "sch_r2c2 on node $i"
done
busywait 20000 ip netns exec "${NS[0]}" ping -c 1 -W 1 10.42.0.3 >/dev/null
check_err $? "node 2 does not answer node 0"
ip netns exec "${NS[2]}" iperf3 -s -D -p 5201 >/dev/null &&
	ip netns exec "${NS[2]}" iperf3 -s -D -p 5202 >/dev/null
check_err $? "iperf3 servers"
listening() { ip netns exec "${NS[2]}" ss -Hlun 'sport = :5202' | grep -q .; }
busywait 10000 listening
for i in 0 1; do
	ip netns exec "${NS[i]}" r2c2d "${DOPTS[@]}" 2>"$TMP/d$i.log" &
	DPIDS+=($!)
done
for i in 0 1; do
	ip netns exec "${NS[i]}" iperf3 -c 10.42.0.3 -p "520$((i + 1))" -u \
		-b 30M -l 1000 -t 120 >"$TMP/c$i.log" 2>&1 &
	CPIDS+=($!)
done

# settled: node 0's matrix holds both flows, its own pushed at its rate
settled()
{
	ip netns exec "${NS[0]}" r2c2ctl -j matrix show 2>/dev/null |
		json_assert '(.flows | length) == 2 and
			([.flows[] | select(.src == 1)] | length) == 1 and
			all(.flows[] | select(.src == 0); .pushed > 0 and
			    ((.pushed - .rate) | fabs) <= 0.01 * .rate)'
}
busywait 30000 settled
check_err $? "node 0's daemon did not settle: $(ip netns exec "${NS[0]}" r2c2ctl -j matrix show 2>&1 | jq -c '[.flows[] | {src, rate, pushed}]')"
rate0=$(ip netns exec "${NS[0]}" r2c2ctl -j matrix show |
	jq '.flows[] | select(.src == 0) | .rate')
log_info "node 0's flow settled at $rate0 bit/s (link_capacity ${CAP}M, shared with node 1's flow)"
log_test_or_exit "two flows into node 2 over link 1->2, node 0's daemon settled"

# 2. kill -9, start again: the first push is the rack-aware rate
RET=0
kill -9 "${DPIDS[0]}"
wait "${DPIDS[0]}" 2>/dev/null
ip netns exec "${NS[0]}" r2c2d "${DOPTS[@]}" -v 2>"$TMP/d0b.log" &
DPIDS[0]=$!
pushed() { grep -q 'push flow' "$TMP/d0b.log"; }
busywait 20000 pushed
check_err $? "the restarted daemon pushed nothing: $(tail -5 "$TMP/d0b.log")"
first=$(grep -m 1 'push flow' "$TMP/d0b.log" | awk '{print $5}')
log_info "first push after the restart: ${first:-none} bit/s; before: $rate0 bit/s"
awk -v a="${first:-0}" -v b="$rate0" -v t="$TOL" \
	'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= t * b) }'
check_err $? "first push $first bit/s, not within 5 % of $rate0"
log_test "kill -9 and restart of node 0's daemon: its first push is within 5 % of the rack-aware rate"

# 3. and it settles again on the same rate
RET=0
busywait 20000 settled
check_err $? "the restarted daemon did not settle"
log_test "the restarted daemon settles with both flows in its matrix"

ksft_exit
