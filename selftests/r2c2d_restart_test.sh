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
#	  30 and 1 Mbit/s     30 Mbit/s
#
# The three flows cross link 1 -> 2. Node 0's 1-Mbit/s flow gets its
# demand (estimated by node 0's daemon); the two 30-Mbit/s flows send
# more than their shares and split the rest of the link. With them leased
# their shares, node 0's r2c2d is killed (-9) and started again:
# - until node 1's daemon refreshes its flow (every refresh_ms, 1 s), the
#   new daemon knows only node 0's flows: a round then would push most of
#   the link to node 0's big flow. The daemon runs no round and pushes
#   nothing for warmup_ms (1.5 s) after its start;
# - the small flow's demand only the old daemon knew: taken as unlimited,
#   it would get a third of the link and the big flow a third too. The
#   daemons keep their own flows' demands in state_file, read at start.
# The new daemon's first push of the big flow must be within 5 % of the
# rate it settled on before.

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
require_qdisc_tools
ksft_plan 3
STATE=${R2C2_RESTART_STATE:-1}	# 0: daemons without state_file

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

# 1. the line, three flows into node 2, both daemons settled
RET=0
line_create "${NS[@]}"
check_err $? "the line of nodes 0-1-2"
for i in 0 1; do
	# as multihost.md advises: ARP requests and iperf3's control
	# connections stay out of the matrix (a new one would take a full
	# share until its demand is known, about a second)
	"$TC" -n "${NS[i]}" qdisc add dev r2c0 root r2c2 announce_bytes 10kb
	check_err $? "sch_r2c2 on node $i"
done
busywait 20000 ip netns exec "${NS[0]}" ping -c 1 -W 1 10.42.0.3 >/dev/null
check_err $? "node 2 does not answer node 0"
ip netns exec "${NS[2]}" iperf3 -s -D -p 5201 >/dev/null &&
	ip netns exec "${NS[2]}" iperf3 -s -D -p 5202 >/dev/null &&
	ip netns exec "${NS[2]}" iperf3 -s -D -p 5203 >/dev/null
check_err $? "iperf3 servers"
listening() { ip netns exec "${NS[2]}" ss -Hlun 'sport = :5203' | grep -q .; }
busywait 10000 listening
sopt() { ((STATE)) && echo "-o state_file=$TMP/state$1"; }
for i in 0 1; do
	# shellcheck disable=SC2046  # no option, or one of two words
	ip netns exec "${NS[i]}" r2c2d "${DOPTS[@]}" $(sopt "$i") 2>"$TMP/d$i.log" &
	DPIDS+=($!)
done
for i in 0 1; do
	ip netns exec "${NS[i]}" iperf3 -c 10.42.0.3 -p "520$((i + 1))" -u \
		-b 30M -l 1000 -t 120 >"$TMP/c$i.log" 2>&1 &
	CPIDS+=($!)
done
ip netns exec "${NS[0]}" iperf3 -c 10.42.0.3 -p 5203 -u -b 1M -l 1000 \
	-t 120 >"$TMP/c2.log" 2>&1 &
CPIDS+=($!)

# settled: node 0's matrix (one read, kept in $TMP/mx.json) holds the
# three flows, its small one with a demand, its own pushed at their rates
settled()
{
	ip netns exec "${NS[0]}" r2c2ctl -j matrix show >"$TMP/mx.json" \
		2>/dev/null &&
	json_assert '(.flows | length) == 3 and
			([.flows[] | select(.src == 1)] | length) == 1 and
			([.flows[] | select(.src == 0 and .demand_kbps > 0 and
					    .demand_kbps < 2000)] | length) == 1 and
			all(.flows[] | select(.src == 0); .pushed > 0 and
			    ((.pushed - .rate) | fabs) <= 0.01 * .rate)' \
		<"$TMP/mx.json"
}
# node 0's big flow and its rate in the last settled read
big_flow()
{
	jq -r '.flows[] | select(.src == 0 and .demand_kbps < 0) |
		"\(.flow) \(.rate)"' "$TMP/mx.json"
}
busywait 60000 settled
check_err $? "node 0's daemon did not settle: $(jq -c '[.flows[] | {src, flow, demand_kbps, rate, pushed}]' "$TMP/mx.json" 2>&1)"
read -r id0 rate0 <<<"$(big_flow)"
log_info "node 0's flow $id0 settled at $rate0 bit/s (link_capacity ${CAP}M, shared with node 0's 1-Mbit/s flow and node 1's flow)"
log_test_or_exit "three flows into node 2 over link 1->2, node 0's daemon settled"

# 2. kill -9, start again: the first push is the rack-aware rate.
# The rate compared is the one of a settled read taken just before the
# kill: the estimator may call the small flow unlimited for a while when
# its sender bursts (a slow guest), and the rack-aware rate with it.
# Two such reads 300 ms apart with the same rate: the daemon writes
# state_file at most 100 ms after a demand changed, so the file holds
# the demand the rate was computed with.
still_settled()
{
	local a b

	settled || return 1
	a=$(big_flow)
	sleep 0.3
	settled || return 1
	b=$(big_flow)
	[[ $a == "$b" ]]
}
RET=0
busywait 60000 still_settled
check_err $? "node 0's daemon no longer settled before the kill"
read -r id0 rate0 <<<"$(big_flow)"
kill -9 "${DPIDS[0]}"
wait "${DPIDS[0]}" 2>/dev/null
# shellcheck disable=SC2046
ip netns exec "${NS[0]}" r2c2d "${DOPTS[@]}" $(sopt 0) -v 2>"$TMP/d0b.log" &
DPIDS[0]=$!
pushed() { grep -q "push flow $id0 " "$TMP/d0b.log"; }
busywait 20000 pushed
check_err $? "the restarted daemon pushed nothing: $(tail -5 "$TMP/d0b.log")"
first=$(grep -m 1 "push flow $id0 " "$TMP/d0b.log" | awk '{print $5}')
restored=$(ip netns exec "${NS[0]}" r2c2ctl -j daemon show | jq .state.restored)
log_info "first push of $id0 after the restart: ${first:-none} bit/s; before: $rate0 bit/s; demands restored from state_file: $restored"
awk -v a="${first:-0}" -v b="$rate0" -v t="$TOL" \
	'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= t * b) }'
check_err $? "first push $first bit/s, not within 5 % of $rate0; the new daemon's first lines: $(grep -m 12 -E 'push flow|demand|event' "$TMP/d0b.log" | tr '\n' ';')"
log_test "kill -9 and restart of node 0's daemon: its first push is within 5 % of the rack-aware rate"

# 3. and it settles again on the same rate
RET=0
busywait 60000 settled
check_err $? "the restarted daemon did not settle: $(jq -c '[.flows[] | {src, flow, demand_kbps, rate, pushed}]' "$TMP/mx.json" 2>&1)"
log_test "the restarted daemon settles with the three flows in its matrix"

ksft_exit
