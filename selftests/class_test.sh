#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# class_test.sh - traffic classes (r2c2ctl class): sch_r2c2 gives a new
# flow the weight and priority of the first class its first packet
# matches, announces them in the flow's START (heard by the other node)
# and dumps them in qflow show; bad class requests are refused with an
# extack message and change nothing. Then lifetimes: a routing
# assignment lives as long as its flow (qdisc start to finish, or while
# announced), and a rate set for a finished flow does not recreate it.
#
#	r2c2-c0 (node 0)                 r2c2-c1 (node 1)
#	+----------------------+  veth  +----------------------+
#	| r2c0 10.43.0.0/16    |p0 -- p0| r2c0 10.43.0.1/16    |
#	|  root r2c2, classes: |        |  r2c2ctl monitor     |
#	|  1 dport 5001   w4 p2|        |                      |
#	|  2 dport 6000-6010 w7|        |                      |
#	|  3 dscp 46      w9 p3|        |                      |
#	+----------------------+        +----------------------+
#
# Flows from node 0: UDP to ports 5001, 6005 and 9 (no class: weight 1,
# prio 0) and a ping with DSCP 46 (ToS 184).

# shellcheck disable=SC2317  # functions called through wait_until
lib_dir=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"
# shellcheck source=selftests/fabric.sh
source "$lib_dir/fabric.sh"

require_root
require_cmd ip jq ping setpriv
require_module veth
require_r2c2
require_tools r2c2_nlbad r2c2_udpflood

TC=/usr/sbin/tc
[[ -x $TC ]] || TC=$(command -v tc)
[[ -d /sys/module/sch_r2c2 ]] || ksft_skip_all "sch_r2c2.ko not loaded"
ksft_plan 11
NLBAD=$(tool r2c2_nlbad)
FLOOD=$(tool r2c2_udpflood)

S=r2c2-c0
R=r2c2-c1
DST=10.43.0.1
PIDS=()
FLOODS=()
stop_all() { stop_pids "${PIDS[@]}"; }
cleanup_add stop_all

qflows() { ip netns exec "$S" r2c2ctl -j qflow show; }
classes() { ip netns exec "$S" r2c2ctl -j class show; }

# ------------------------------------------------------------------ setup
RET=0
line2_create "$S" "$R"
check_err $? "two-node line: namespaces, veth, r2c2ctl node set / port add"
for ns in "$S" "$R"; do
	ip -n "$ns" link set r2c0 up
	ip -n "$ns" addr add "10.43.0.${ns#r2c2-c}/16" dev r2c0
done
wait_until 20 bash -c "ip netns exec $S r2c2ctl -j node show | json_assert '.nodes == 2'"
check_err $? "the two nodes did not see each other"
wait_until 20 ip netns exec "$S" ping -c 1 -W 1 "$DST" >/dev/null
check_err $? "no ping over r2c0"
log_test_or_exit "two-node line up, ping over r2c0"

# ------------------------------------------------------------------ classes
RET=0
ip netns exec "$S" r2c2ctl class add 2 dport 6000-6010 weight 7 prio 1 &&
	ip netns exec "$S" r2c2ctl class add 1 dport 5001 weight 4 prio 2 &&
	ip netns exec "$S" r2c2ctl class add 3 dscp 46 weight 9 prio 3 &&
	ip netns exec "$S" r2c2ctl class add 4 dport 5001 weight 200 prio 15
check_err $? "r2c2ctl class add"
ip netns exec "$S" r2c2ctl class del 4
check_err $? "r2c2ctl class del"
want='[{"id":1,"dport":{"min":5001,"max":5001},"weight":4,"prio":2,"flows":0},{"id":2,"dport":{"min":6000,"max":6010},"weight":7,"prio":1,"flows":0},{"id":3,"dscp":46,"weight":9,"prio":3,"flows":0}]'
got=$(classes | jq -c .)
[[ $got == "$want" ]]
check_err $? "class show: $got; wanted $want"
log_test "class add (out of order), del, show -j: classes by id"

# ------------------------------------------------------------------ bad input
RET=0
CASES=$(cat <<'EOF2'
EINVAL|CLASS_ID is required|class_set weight:u8:3
ERANGE|integer out of range|class_set class_id:u8:0
ERANGE|integer out of range|class_set class_id:u8:65
ERANGE|integer out of range|class_set class_id:u8:1 dscp:u8:64
ERANGE|integer out of range|class_set class_id:u8:1 weight:u8:0
ERANGE|integer out of range|class_set class_id:u8:1 prio:u8:16
EINVAL|invalid attribute length|class_set class_id:u8:1 dport:u32:5
EINVAL|SPORT_MAX needs SPORT|class_set class_id:u8:1 sport_max:u16:10
EINVAL|DPORT_MAX needs DPORT|class_set class_id:u8:1 dport_max:u16:10
EINVAL|port range is empty|class_set class_id:u8:1 dport:u16:10 dport_max:u16:9
EINVAL|attribute|class_set class_id:u8:1 class_flows:u64:1
EINVAL|CLASS_ID is required|class_del
ENOENT|no such class|class_del class_id:u8:4
EOF2
)
fails=()
while IFS='|' read -r err msg req; do
	[[ -n $req ]] || continue
	# shellcheck disable=SC2086  # the request is words
	out=$("$NLBAD" -n "$S" -e "$err" -m "$msg" $req 2>&1) || fails+=("$req: $out")
done <<<"$CASES"
# shellcheck disable=SC2086  # the request is words
out=$(ip netns exec "$S" setpriv --reuid 65534 --regid 65534 --clear-groups \
	--inh-caps=-all --bounding-set=-all "$NLBAD" -e EPERM class_set class_id:u8:1 2>&1) ||
	fails+=("unprivileged class_set: $out")
out=$(ip netns exec "$S" setpriv --reuid 65534 --regid 65534 --clear-groups \
	--inh-caps=-all --bounding-set=-all "$NLBAD" -e EPERM class_del class_id:u8:1 2>&1) ||
	fails+=("unprivileged class_del: $out")
((${#fails[@]} == 0))
check_err $? "$(printf '%s; ' "${fails[@]}")"
got=$(classes | jq -c .)
[[ $got == "$want" ]]
check_err $? "classes changed: $got"
log_test "$(grep -c . <<<"$CASES") bad class requests and 2 unprivileged ones refused with their errno and message; classes unchanged"

# ------------------------------------------------------------------ flows
RET=0
MON=$FABRIC_TMP/mon
ip netns exec "$R" r2c2ctl -j monitor timeout 300 >"$MON" 2>&1 &
PIDS+=($!)
# the monitor listens once it hears a flow event of node 0
wait_until 20 bash -c "ip netns exec $S r2c2ctl event send flow 0xffff0000 dst 1 &&
	sleep 0.3 && grep -q 0xffff0000 $MON"
check_err $? "the monitor at node 1 does not hear node 0"
ip netns exec "$S" "$TC" qdisc add dev r2c0 root r2c2
check_err $? "tc qdisc add dev r2c0 root r2c2"
for p in 5001 6005 9; do
	ip netns exec "$S" "$FLOOD" -d "$DST" -p "$p" -b $((20000 + p % 1000)) \
		-t 600 -r 50 -l 100 >/dev/null &
	PIDS+=($!)
	FLOODS+=($!)
done
ip netns exec "$S" ping -Q 184 -c 120 -i 0.5 "$DST" >/dev/null 2>&1 &
PIDS+=($!)
wait_until 20 bash -c "ip netns exec $S r2c2ctl -j qflow show |
	json_assert '([.[] | select(.dport == 5001 or .dport == 6005 or .dport == 9)] | length == 3) and
		any(.[]; (.dport // 0) == 0 and .weight == 9)'"
check_err $? "the three UDP flows and the ping are not in qflow show"
Q=$(qflows)
log_info "qflow show: $(jq -c 'map({flow, sport, dport, weight, prio})' <<<"$Q")"
# flow_of DPORT: flow id; wp_of DPORT: "weight prio" in qflow show
flow_of() { jq -r --argjson p "$1" '.[] | select(.dport == $p) | .flow' <<<"$Q"; }
wp_of() { jq -r --argjson p "$1" '.[] | select(.dport == $p) | "\(.weight) \(.prio)"' <<<"$Q"; }
for e in 5001:"4 2" 6005:"7 1" 9:"1 0"; do
	got=$(wp_of "${e%%:*}")
	[[ $got == "${e#*:}" ]]
	check_err $? "qflow show: flow to port ${e%%:*} has weight/prio $got, not ${e#*:}"
done
json_assert 'any(.[]; .weight == 9 and .prio == 3 and (.dport // 0) == 0)' <<<"$Q"
check_err $? "no flow of class 3 (the DSCP 46 ping) in qflow show"
log_test "qflow show: each flow has its class's weight and prio (none: 1 and 0)"

RET=0
# mon: the monitor's complete lines (its output is block-buffered)
mon() { jq -cR 'fromjson? // empty' "$MON"; }
# start_wp FLOW: "weight prio" of the START of FLOW heard at node 1
start_wp()
{
	mon | jq -r --arg f "$1" 'select(.event == "flow" and .type == "start" and
		.src == 0 and .flow == $f) | "\(.weight) \(.prio)"' | head -n 1
}
heard_all()
{
	local p

	for p in 5001 6005 9; do
		[[ -n $(start_wp "$(flow_of "$p")") ]] || return 1
	done
	mon | json_assert -s 'any(.[]; .event == "flow" and .type == "start" and
		.src == 0 and .weight == 9 and .prio == 3)' >/dev/null
}
wait_until 20 heard_all
check_err $? "node 1 did not hear every START: $(mon | jq -c 'select(.event == "flow")' | head -n 8 | tr '\n' ' ')"
for e in 5001:"4 2" 6005:"7 1" 9:"1 0"; do
	got=$(start_wp "$(flow_of "${e%%:*}")")
	[[ $got == "${e#*:}" ]]
	check_err $? "START of the flow to port ${e%%:*} heard with weight/prio $got, not ${e#*:}"
done
log_test "node 1 hears each START with its class's weight and prio"

RET=0
got=$(classes | jq -c 'map({id, flows})')
json_assert 'nonempty | map(.flows >= 1) | all' <<<"$got"
check_err $? "class show flows: $got"
log_test "class show counts the flows given each class"

# ------------------------------------------------------------------ lifetimes
# A routing assignment lives as long as its flow: node 0's sender flow
# 0xa0 is assigned VLB and announced (START request), 0xb0 only
# assigned; the flow to port 5001 is assigned DOR while the qdisc holds
# it. 0xb0 is forgotten after 10 s idle, 0xa0 stays until its FINISH;
# the qdisc's flow is forgotten at its FINISH (idle 3 s), and a rate set
# for it afterwards does not bring it back into the qdisc.
RET=0
# routing_of FLOW [JSON]: its routing in node 0's flow show (empty: none)
routing_of()
{
	local j=${2:-$(ip netns exec "$S" r2c2ctl -j flow show)}

	jq -r --arg f "$1" '.[] | select(.flow == $f) | .routing' <<<"$j"
}
f5001=$(flow_of 5001)
ip netns exec "$S" r2c2ctl routes send 0:0xa0=vlb 0:0xb0=dor "0:$f5001=dor" &&
	ip netns exec "$S" r2c2ctl event send flow 0xa0 dst 1
check_err $? "routes send / event send"
t0=$SECONDS
j=$(ip netns exec "$S" r2c2ctl -j flow show)
[[ $(routing_of 0x000000a0 "$j") == vlb && $(routing_of 0x000000b0 "$j") == dor &&
   $(routing_of "$f5001" "$j") == dor ]]
check_err $? "assignments not applied: $(jq -c . <<<"$j")"
stop_pids "${FLOODS[@]}"
# shellcheck disable=SC2016  # a jq filter: $ is jq's
finished() { mon | json_assert -s --arg f "$f5001" 'any(.[]; .event == "flow" and .type == "finish" and .flow == $f)' >/dev/null; }
wait_until 30 finished
check_err $? "no FINISH of the flow to port 5001 at node 1"
# gone FLOW: node 0's flow table, as it answered, has no FLOW
gone() { ip netns exec "$S" r2c2ctl -j flow show | json_assert --arg f "$1" 'all(.[]; .flow != $f)'; }
wait_until 3 gone "$f5001"
check_err $? "node 0 still holds the finished flow $f5001 ($(routing_of "$f5001"))"
log_test "the qdisc's finish forgets the sender flow and its assignment at once"

RET=0
unknown() { ip netns exec "$S" "$TC" -s qdisc show dev r2c0 | grep -o 'rates_unknown [0-9]*' | cut -d' ' -f2; }
n0=$(unknown)
ip netns exec "$S" r2c2ctl rate set "$f5001" 2M 0x12345678 3M
check_err $? "rate set for flows the qdisc does not know"
got=$(qflows | jq -c --arg a "$f5001" '[.[] | select(.flow == $a or .flow == "0x12345678")]')
[[ $got == "[]" ]]
check_err $? "rate set created flows in the qdisc: $got"
n=$(unknown)
[[ $n0 =~ ^[0-9]+$ && $n =~ ^[0-9]+$ ]] && ((n - n0 == 2))
check_err $? "rates_unknown ${n0:-absent} -> ${n:-absent}, not 2 more"
log_test "a rate set for an unknown or finished flow creates no flow in the qdisc"

RET=0
sleep $((t0 + 12 - SECONDS > 0 ? t0 + 12 - SECONDS : 0))
a0=$(routing_of 0x000000a0) b0=$(routing_of 0x000000b0)
[[ $a0 == vlb && -z $b0 ]]
check_err $? "after 12 s idle: 0xa0 routing '$a0' (want vlb), 0xb0 '$b0' (want none)"
log_test "after 12 s idle an announced flow keeps its assignment, an unannounced one is forgotten"

RET=0
ip netns exec "$S" r2c2ctl event send flow 0xa0 dst 1 type finish
check_err $? "event send finish"
wait_until 3 gone 0x000000a0
check_err $? "0xa0 still in flow show after its FINISH"
log_test "a FINISH request forgets the announced flow at once"

RET=0
kernel_healthy
check_err $? "kernel warnings or oopses"
log_test "no kernel warning, oops or taint"

ksft_exit
