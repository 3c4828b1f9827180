#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# trace_test.sh - the tracepoints of r2c2.ko and sch_r2c2.ko (trace
# system r2c2, Documentation/observe.md) fire with the right fields, and
# r2c0's rx_dropped (ip -s link) follows the node's drop counters.
#
#	 r2c2-ta (A, 1)                r2c2-tb (B, 2)
#	 +------------------+          +------------------+
#	 | r2c0 10.42.0.1   |p0 ---- p1| r2c0 10.42.0.2   |
#	 | root r2c2 qdisc  |          |        p3        |
#	 +------------------+          +--------|---------+
#	                                       inj0  r2c2-ti (r2c2_inject)
#
# Every event is provoked and looked for in /sys/kernel/tracing/trace
# (one buffer for all namespaces: the lines are told apart by their
# node address): new tables (r2c2_topo); frames with a bad checksum
# injected on B's port 3 (r2c2_drop reason=drop_csum port=3, as many
# lines as the counter grew) and a frame r2c0 cannot route
# (drop_no_route, port=255); the flow a ping from A starts in the qdisc
# (sch_r2c2_flow, then r2c2_flow sent by A and heard by B); a rate set
# and its lease lapsing; routing assignments sent, heard and applied; the
# flow's finish; a resequencing gap of injected frames timing out.

# shellcheck disable=SC2317  # functions called through wait_until
lib_dir=$(dirname "$0")
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"
# shellcheck source=selftests/fabric.sh
source "$lib_dir/fabric.sh"

require_root
require_cmd ip jq ping
require_module veth
require_r2c2
require_tools r2c2_snap r2c2_inject
require_qdisc_tools
ksft_plan 11

A=r2c2-ta B=r2c2-tb INJ=r2c2-ti
T=/sys/kernel/tracing
PING_PID=
EVENTS="r2c2_drop r2c2_flow r2c2_routes r2c2_route_apply r2c2_topo
r2c2_reseq_timeout sch_r2c2_rate_set sch_r2c2_lease_lapse sch_r2c2_flow"

# tracefs, or skip: the VM runner mounts it, vng and hosts may not
if [[ ! -e $T/trace ]]; then
	mount -t tracefs nodev "$T" 2>/dev/null ||
		ksft_skip_all "no tracefs at $T"
fi

trace_off()
{
	[[ -e $T/events/r2c2/enable ]] && echo 0 >"$T/events/r2c2/enable"
	echo >"$T/trace"
}
cleanup_add trace_off

stop_ping()
{
	[[ -n $PING_PID ]] || return 0
	stop_pids "$PING_PID"
	PING_PID=
}
cleanup_add stop_ping

# traced ERE: a line of the trace buffer matches
traced() { grep -qE -- "$1" "$T/trace"; }

# tcount ERE: lines of the trace buffer that match
tcount() { grep -cE -- "$1" "$T/trace"; }

# wait_traced NAME ERE: wait up to 10 s for a line, else fail the check
# naming what the buffer holds of the event NAME
wait_traced()
{
	wait_until 10 traced "$2"
	check_err $? "no line matches '$2'; $1 lines: $(grep -E " $1: " "$T/trace" | head -5 | sed 's/^ *//' | tr '\n' '|')"
}

trace_clear() { echo >"$T/trace"; }

# node_drops NS: the sum of a node's drop counters (every drop_* and
# reseq_dup), as r2c0's rx_dropped counts them
node_drops()
{
	snap "$FABRIC_TMP/d" "$1" &&
	jq '.node | to_entries | map(select((.key | startswith("drop_")) or .key == "reseq_dup") | .value) | add' \
		"$FABRIC_TMP/d"
}

# counter NS NAME: a node counter
counter()
{
	snap "$FABRIC_TMP/c" "$1" && jq ".node.$2" "$FABRIC_TMP/c"
}

# link_dropped NS DIR: r2c0's rx or tx dropped (ip -s link)
link_dropped()
{
	ip -n "$1" -j -s link show r2c0 | jq ".[0].stats64.$2.dropped"
}

# inject ARGS...: frames from the injector into B's p3
inject()
{
	ip netns exec "$INJ" "$(tool r2c2_inject)" -i inj0 -m "$B_P3_MAC" "$@"
}

converged()
{
	[[ $(ip netns exec "$A" r2c2ctl -j node show | jq .nodes) == 2 &&
	   $(ip netns exec "$B" r2c2ctl -j node show | jq .nodes) == 2 ]]
}

# ---------------------------------------------------------------- tracefs
RET=0
missing=()
for e in $EVENTS; do
	[[ -e $T/events/r2c2/$e/format ]] || missing+=("$e")
done
((${#missing[@]} == 0))
check_err $? "not in $T/events/r2c2: ${missing[*]}"
if ((${#missing[@]} == 0)); then
	grep -q 'field:u8 port;' "$T/events/r2c2/r2c2_drop/format" &&
		grep -q 'drop_csum' "$T/events/r2c2/r2c2_drop/format"
	check_err $? "r2c2_drop's format has no port field or no reason names"
	trace_clear
	# another file may have left the ring buffer off (tracing_on 0)
	if ! echo 1 >"$T/events/r2c2/enable" || ! echo 1 >"$T/tracing_on"; then
		check_err 1 "cannot enable events/r2c2 and tracing_on"
	fi
fi
log_test_or_exit "tracefs: events/r2c2 has the 9 tracepoints of r2c2.ko and sch_r2c2.ko"

# ---------------------------------------------------------------- setup
RET=0
for ns in "$A" "$B" "$INJ"; do
	ns_create "$ns"
	check_err $? "ns_create $ns"
done
veth_link "$A" p0 "$B" p1 && veth_link "$B" p3 "$INJ" inj0
check_err $? "veth"
ip netns exec "$A" r2c2ctl node set addr 1 hello 100 >/dev/null &&
	ip netns exec "$B" r2c2ctl node set addr 2 hello 100 >/dev/null &&
	ip netns exec "$A" r2c2ctl port add 0 dev p0 &&
	ip netns exec "$B" r2c2ctl port add 1 dev p1 &&
	ip netns exec "$B" r2c2ctl port add 3 dev p3
check_err $? "r2c2ctl node set / port add"
ip -n "$A" addr add 10.42.0.1/16 dev r2c0 && ip -n "$A" link set r2c0 up &&
	ip -n "$B" addr add 10.42.0.2/16 dev r2c0 && ip -n "$B" link set r2c0 up
check_err $? "r2c0 addresses"
wait_until 30 converged
check_err $? "A and B do not know each other"
B_P3_MAC=$(ip -n "$B" -j link show p3 | jq -r '.[0].address')
wait_traced r2c2_topo 'r2c2_topo: node=2 gen=[0-9]+ nodes=2 links=2 '
log_test_or_exit "setup; new tables traced (r2c2_topo node=2 nodes=2 links=2)"

# ---------------------------------------------------------------- drops
RET=0
trace_clear
c0=$(counter "$B" drop_csum)
rx0=$(link_dropped "$B" rx)
inject -d 2 -c -n 5
check_err $? "r2c2_inject failed"
wait_until 10 bash -c "[[ \$(grep -cE 'r2c2_drop: node=2 port=3 reason=drop_csum count=1 ' $T/trace) -ge 5 ]]"
check_err $? "fewer than 5 drop_csum lines for node 2 port 3: $(grep r2c2_drop: "$T/trace" | head -3 | tr '\n' '|')"
c1=$(counter "$B" drop_csum)
n=$(tcount 'r2c2_drop: node=2 port=3 reason=drop_csum count=1 ')
[[ $((c1 - c0)) == 5 && $n == 5 ]]
check_err $? "drop_csum +$((c1 - c0)), $n trace lines; 5 each expected"
rx1=$(link_dropped "$B" rx)
log_test "r2c2_drop: 5 bad checksums on port 3 of node 2, 5 lines reason=drop_csum port=3"

RET=0
trace_clear
# a node address no LSA announced: r2c0 has no route to it
ip -n "$B" neigh replace 10.42.0.9 lladdr 02:52:32:43:00:09 dev r2c0 nud permanent
check_err $? "neighbour entry for node 9"
ip netns exec "$B" ping -c 1 -W 1 10.42.0.9 >/dev/null 2>&1
wait_traced r2c2_drop 'r2c2_drop: node=2 port=255 reason=drop_no_route count=1 '
log_test "r2c2_drop: r2c0 of node 2 sends to an unknown node: drop_no_route, port=255"

RET=0
((rx1 - rx0 >= 5))
check_err $? "r2c0's rx_dropped of B moved by $((rx1 - rx0)) with 5 frames dropped"
s1=$(node_drops "$B")
rx=$(link_dropped "$B" rx)
tx=$(link_dropped "$B" tx)
s2=$(node_drops "$B")
((tx >= 1 && s1 - tx <= rx && rx <= s2 - tx))
check_err $? "B: rx_dropped $rx, tx_dropped $tx, node drops $s1..$s2: rx_dropped is not the node's drops less tx_dropped"
log_test "ip -s link: r2c0's rx_dropped follows the node's drop counters" \
	"+$((rx1 - rx0)) for 5 injected, rx_dropped $rx tx_dropped $tx node $s2"

# ---------------------------------------------------------------- qdisc
RET=0
trace_clear
ip netns exec "$A" "$TC" qdisc add dev r2c0 root r2c2 initial_rate 10mbit \
	safe_rate 2mbit lease 300ms idle 500ms
check_err $? "tc qdisc add dev r2c0 root r2c2"
ip netns exec "$A" ping -n -i 0.05 10.42.0.2 >/dev/null 2>&1 &
PING_PID=$!
wait_traced sch_r2c2_flow 'sch_r2c2_flow: dev=r2c0 type=start flow=0x[0-9a-f]{8} dst=2 '
F=$(grep -oE 'sch_r2c2_flow: dev=r2c0 type=start flow=0x[0-9a-f]{8} dst=2 ' "$T/trace" |
	head -1 | grep -oE '0x[0-9a-f]{8}')
wait_traced r2c2_flow "r2c2_flow: node=1 sent src=1 flow=$F dst=2 type=start "
wait_traced r2c2_flow "r2c2_flow: node=2 heard src=1 flow=$F dst=2 type=start "
log_test "flow start: sch_r2c2_flow on A's r2c0, r2c2_flow sent by A and heard by B" "flow $F"

RET=0
ip netns exec "$A" r2c2ctl rate set "$((F))" 5M
check_err $? "r2c2ctl rate set $F 5M"
wait_traced sch_r2c2_rate_set "sch_r2c2_rate_set: dev=r2c0 flow=$F rate=5000000 lease_ms=300$"
log_test "sch_r2c2_rate_set: flow $F rate=5000000 lease_ms=300"

RET=0
wait_traced sch_r2c2_lease_lapse "sch_r2c2_lease_lapse: dev=r2c0 flow=$F rate=5000000 safe_rate=2000000$"
log_test "sch_r2c2_lease_lapse: flow $F falls back to safe_rate=2000000 after 300 ms"

RET=0
trace_clear
ip netns exec "$A" r2c2ctl routes send "1:$F=dor"
check_err $? "r2c2ctl routes send 1:$F=dor"
wait_traced r2c2_routes 'r2c2_routes: node=1 sent src=1 count=1$'
wait_traced r2c2_route_apply "r2c2_route_apply: node=1 flow=$F rproto=dor remote=0 ok=1$"
wait_traced r2c2_routes 'r2c2_routes: node=2 heard src=1 count=1$'
log_test "routes: sent by A, applied to its flow (rproto=dor), heard by B"

RET=0
trace_clear
stop_ping
wait_traced sch_r2c2_flow "sch_r2c2_flow: dev=r2c0 type=finish flow=$F dst=2 "
wait_traced r2c2_flow "r2c2_flow: node=1 sent src=1 flow=$F dst=2 type=finish "
wait_traced r2c2_flow "r2c2_flow: node=2 heard src=1 flow=$F dst=2 type=finish "
log_test "flow finish after idle 500 ms: sch_r2c2_flow, r2c2_flow sent and heard"

# ---------------------------------------------------------------- reseq
RET=0
trace_clear
# sequence 0, then 2: the gap at 1 holds frame 2 until it times out
inject -s 0x77 -d 2 -f 0xabc -q 0 && inject -s 0x77 -d 2 -f 0xabc -q 2
check_err $? "r2c2_inject failed"
wait_traced r2c2_reseq_timeout 'r2c2_reseq_timeout: node=2 src=119 flow=0x00000abc skipped=1\.\.1 released=1$'
log_test "r2c2_reseq_timeout: node 2 gives sequence 1 of flow 0xabc up, releases 2"

ksft_exit
