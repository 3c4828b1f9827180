#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# r2c2d_digest_test.sh - flow events lost on the wire are recovered by
# digests: a node whose matrix disagrees with a source's digest asks it
# for its flows, and the answer brings back a lost START and removes a
# flow whose FINISH was lost.
#
#	scripts/vm-run --kernel 6.1 -- selftests/run.sh r2c2d_digest_test.sh
#
#	  node 0  p0 ---- p1  node 1  p0 ---- p1  node 2
#	  r2c2d, sch_r2c2     drops FLOW frames   r2c2d
#	  iperf3 -u 0 -> 2    on p0 (tc u32)      iperf3 servers
#
# Node 0's flow A is in both matrices. Then node 1 drops every FLOW
# frame it sends to node 2 (a tc filter on the r2c2 header's type), while
# A stops and flow B starts: node 2 misses A's FINISH and B's START (and
# node 0's refreshes and digests). The filter goes: node 2's matrix must
# equal node 0's flows again within 3 s. The daemons refresh every
# second but keep a silent flow for 60 s (expire_ms), so without digests
# A would stay 60 s: R2C2_DIGEST_MS=0 runs the daemons without them, and
# check 3 then fails.

# functions called through busywait; cleanup_add evaluates later
# shellcheck disable=SC2317,SC2016
lib_dir=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"

require_root
require_cmd ip jq iperf3 ss tc
require_module veth
require_r2c2
require_cmd r2c2d
[[ -d /sys/module/sch_r2c2 ]] || modprobe -q sch_r2c2 2>/dev/null ||
	ksft_skip_all "sch_r2c2.ko not available"
require_qdisc_tools
modprobe -q cls_u32 2>/dev/null
modprobe -q sch_ingress 2>/dev/null
ksft_plan 3

DG=${R2C2_DIGEST_MS:-250}
LIMIT=3000		# ms from the end of the loss to equal matrices
TMP=$(mktemp -d)
NS=(r2c2dg-0 r2c2dg-1 r2c2dg-2)
DPIDS=()
CPIDS=()
cleanup_add "rm -rf $TMP"
cleanup_add 'stop_pids "${CPIDS[@]}" "${DPIDS[@]}"'
cleanup_add "ip netns exec ${NS[2]} pkill -x iperf3"
DOPTS=(-o link_capacity=100M -o ga_interval_ms=0 -o refresh_ms=1000
	-o expire_ms=60000 -o warmup_ms=0 -o "digest_ms=$DG")

# node 0's own flows, and node 0's flows in node 2's matrix (sorted ids)
own() { ip netns exec "${NS[0]}" r2c2ctl -j matrix show 2>/dev/null | jq -c '[.flows[] | select(.src == 0) | .flow] | sort'; }
seen() { ip netns exec "${NS[2]}" r2c2ctl -j matrix show 2>/dev/null | jq -c '[.flows[] | select(.src == 0) | .flow] | sort'; }
same() { local a; a=$(own); [[ -n $a && $a != "[]" && $a == "$(seen)" ]]; }
digest() { ip netns exec "${NS[$1]}" r2c2ctl -j daemon show | jq -c .digest; }
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
client() {
	ip netns exec "${NS[0]}" iperf3 -c 10.42.0.3 -p "$1" -u -b 1M -l 1000 \
		-t 120 >"$TMP/c$1.log" 2>&1 &
	CPIDS+=($!)
}

# 1. the line, node 0's flow A, node 2's daemon holds it
RET=0
line_create "${NS[@]}"
check_err $? "the line of nodes 0-1-2"
# ARP and iperf3's control connections stay out of the matrix; a flow
# silent 300 ms is finished
"$TC" -n "${NS[0]}" qdisc add dev r2c0 root r2c2 announce_bytes 10kb idle 300ms
check_err $? "sch_r2c2 on node 0"
busywait 20000 ip netns exec "${NS[0]}" ping -c 1 -W 1 10.42.0.3 >/dev/null
check_err $? "node 2 does not answer node 0"
for p in 5201 5202; do
	ip netns exec "${NS[2]}" iperf3 -s -D -p "$p" >/dev/null
	check_err $? "iperf3 server on port $p"
done
listening() { ip netns exec "${NS[2]}" ss -Hlun 'sport = :5202' | grep -q .; }
busywait 10000 listening
for i in 0 2; do
	ip netns exec "${NS[i]}" r2c2d "${DOPTS[@]}" -v 2>"$TMP/d$i.log" &
	DPIDS+=($!)
done
client 5201
busywait 20000 same
check_err $? "node 2 does not hold node 0's flow: node 0 $(own), node 2 $(seen)"
A=$(own)
# with nothing lost, node 0's digests (its flow's demand estimated and
# announced meanwhile) match node 2's matrix: it never asks, while it
# matches four of them
if ((DG)); then
	busywait 10000 bash -c "ip netns exec ${NS[2]} r2c2ctl -j daemon show |
		json_assert '.digest.matched >= 4'" >/dev/null
	ip netns exec "${NS[2]}" r2c2ctl -j daemon show |
		json_assert '.digest.matched >= 4 and .digest.asked == 0'
	check_err $? "node 2 with nothing lost: $(digest 2)"
fi
log_test_or_exit "node 0's flow A $A: node 2's daemon holds it, digests match (digest_ms $DG)"

# 2. node 1 drops the FLOW frames to node 2; A stops, B starts
RET=0
tc -n "${NS[1]}" qdisc add dev p0 clsact &&
	tc -n "${NS[1]}" filter add dev p0 egress protocol 0x88b5 prio 1 \
		u32 match u8 0x05 0x0f at 0 action drop
check_err $? "the filter dropping FLOW frames on node 1's p0"
kill "${CPIDS[0]}"
client 5202
# node 0: A finished (300 ms idle), B announced (10 kB at 1 Mbit/s)
moved() { local a; a=$(own); [[ $a != "[]" && $a != "$A" && $(jq length <<<"$a") == 1 ]]; }
busywait 10000 moved
check_err $? "node 0's flows did not move from A to B: $(own)"
B=$(own)
# a refresh and a digest of node 0 lost as well
sleep 1.2
[[ $(seen) == "$A" ]]
check_err $? "node 2 holds $(seen), not A $A (its FINISH and B's START not lost?)"
drops=$(tc -n "${NS[1]}" -s -j filter show dev p0 egress | jq '[.[].options.actions[]?.stats.packets // 0] | add')
((drops > 0))
check_err $? "the filter dropped nothing"
log_test_or_exit "FLOW frames to node 2 dropped ($drops): node 2 still holds A, not B $B"

# 3. the filter goes: node 2's matrix is node 0's flows again. The time
# is taken twice: host-side polling (each poll runs r2c2ctl twice), and
# node 2's daemon's own clock: its last repair (a digest matching again)
# against CLOCK_MONOTONIC before the filter went (/proc/uptime, 10 ms;
# the guest never sleeps, so boot time is monotonic time)
RET=0
read -r up _ </proc/uptime
m0=$(awk -v u="$up" 'BEGIN { printf "%.0f", u * 1e9 }')
t0=$(date +%s%N)
tc -n "${NS[1]}" qdisc del dev p0 clsact
check_err $? "removing the filter"
busywait "$LIMIT" same
check_err $? "$LIMIT ms after the loss ended node 2 holds $(seen), node 0 has $(own)"
t=$(ms "$t0")
rep=$(ip netns exec "${NS[2]}" r2c2ctl -j daemon show | jq .digest.last_repair_ns)
d=$(awk -v r="$rep" -v m="$m0" 'BEGIN { print (r > m) ? int((r - m) / 1e6) " ms" : "none" }')
for i in 0 2; do log_info "node $i digest: $(digest "$i")"; done
log_info "node 2's matrix repaired $d after the filter went (its daemon's clock)"
if ((RET == 0)); then
	ip netns exec "${NS[2]}" r2c2ctl -j daemon show |
		json_assert '.digest.asked >= 1 and .digest.removed >= 1'
	check_err $? "node 2 did not ask, or removed no flow: $(digest 2)"
	ip netns exec "${NS[0]}" r2c2ctl -j daemon show |
		json_assert '.digest.answered >= 1'
	check_err $? "node 0 did not answer: $(digest 0)"
fi
log_test "the loss ends: node 2 holds B and not A again after $t ms by polling, $d by node 2's clock (at most $LIMIT)"

if ((ksft_fail)); then
	for i in 0 2; do
		grep -E 'digest|asking|event' "$TMP/d$i.log" | tail -n 15 | sed "s/^/# r2c2d-$i: /"
	done
fi
ksft_exit
