#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# xdp_test.sh - the XDP transit program (xdp/r2c2_xdp.bpf.c): attached,
# it forwards what the kernel path would, counted as the kernel path
# counts; the entries r2c2.ko keeps for it follow the ports' state (link
# down, a neighbour gone, a neighbour's new MAC, a neighbour whose port
# cannot take redirected frames); its counters survive
# detaching and re-attaching; it follows port del and port add; bad
# requests change nothing.
#
#	 r2c2-xa (A, 1)          r2c2-xb (B, 2)          r2c2-xc (C, 3)
#	 +-----------+           +-----------+           +-----------+
#	 |      p0 --|-----------|-- p1   p0 |-----------|-- p1      |
#	 | r2c0      |           |     p3    |           | r2c0      |
#	 | 10.42.0.1 |           +-----|-----+           | 10.42.0.3 |
#	 +-----------+                 |                 +-----------+
#	                        inj0 --+ r2c2-xi (r2c2_inject)
#
# The program runs on every port of A, B and C. Frames injected into B's
# p3 with the route [0] are B's to forward to C: the program must, or
# must leave them to the kernel path when that would drop them.

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
require_tools r2c2_snap r2c2_inject r2c2_nlbad
ksft_plan 18

A=r2c2-xa B=r2c2-xb C=r2c2-xc INJ=r2c2-xi
NODES=("$A" "$B" "$C")
COUNT=5

setup()
{
	line_injector "$A" "$B" "$C" "$INJ" "hello 100"
}

converged()
{
	snap "$FABRIC_TMP/conv" "${NODES[@]}" 2>/dev/null &&
	[[ $(jq -s 'map(select(.nodes == 3)) | length' "$FABRIC_TMP/conv") == 3 ]]
}

# show NS: `r2c2ctl -j xdp show` of NS into $FABRIC_TMP/show
show() { ip netns exec "$1" r2c2ctl -j xdp show >"$FABRIC_TMP/show"; }

# counters NAME: B's and C's node counters into $FABRIC_TMP/NAME; what
# B's program received on port 3 (the injector's port, nothing else
# sends there) into X[NAME], and what B counted received there (the
# program's included) into P3[NAME]
declare -A X P3
counters()
{
	snap "$FABRIC_TMP/$1" "$B" "$C" &&
	X[$1]=$(ip netns exec "$B" r2c2ctl -j xdp show |
		jq '[.ports[] | select(.port == 3) | .rx_packets // 0] | add // 0') &&
	P3[$1]=$(ip netns exec "$B" r2c2ctl -j -s port show 3 | jq '.[0].stats.rx_packets')
}

# d FROM TO NS COUNTER: growth of a node counter between two counters()
d()
{
	jq -n --slurpfile a "$FABRIC_TMP/$1" --slurpfile b "$FABRIC_TMP/$2" \
		--arg ns "$3" --arg k "$4" '
		($b[] | select(.ns == $ns) | .node[$k] // 0) -
		($a[] | select(.ns == $ns) | .node[$k] // 0)'
}

# C delivered N more frames than at counters() FROM
delivered() { counters now && (($(d "$1" now "$C" delivered) >= $2)); }
# B dropped N more frames as drop_port_down than at counters() FROM
port_down() { counters now && (($(d "$1" now "$B" drop_port_down) >= $2)); }

# inject: COUNT frames into B's p3, for C through B's port 0
inject()
{
	ip netns exec "$INJ" "$(tool r2c2_inject)" -i inj0 -m "$B_P3_MAC" \
		-n "$COUNT" -d 3 -r 0
}

# through_xdp NAME: inject; C delivers them all, and B's program took
# them all: it received COUNT on port 3, and so did B's port 3 counter
# (which adds the program's to the kernel path's own)
through_xdp()
{
	local x p3

	RET=0
	counters t0
	check_err $? "r2c2_snap or r2c2ctl failed"
	inject
	check_err $? "r2c2_inject failed"
	wait_until 10 delivered t0 "$COUNT"
	check_err $? "C delivered $(d t0 now "$C" delivered) of $COUNT"
	counters t1
	x=$((X[t1] - X[t0])) p3=$((P3[t1] - P3[t0]))
	[[ $x == "$COUNT" ]]
	check_err $? "B's program received $x of the $COUNT frames"
	[[ $p3 == "$COUNT" ]]
	check_err $? "B's port 3 counted $p3 received, the program $x: the kernel path took some"
	(($(d t0 t1 "$B" forwarded) >= COUNT))
	check_err $? "B's forwarded counter grew by $(d t0 t1 "$B" forwarded), not at least $COUNT"
	log_test "$1"
}

# to_kernel NAME: B's entry for port 0 stops the program; inject; the
# program takes none of them and the kernel path drops them all as
# drop_port_down.
to_kernel()
{
	RET=0
	xdp_fwd "$B" 0 false
	check_err $? "B's entry for port 0 still lets the program forward"
	counters t0
	inject
	check_err $? "r2c2_inject failed"
	wait_until 10 port_down t0 "$COUNT"
	check_err $? "B counted $(d t0 now "$B" drop_port_down) drop_port_down, not $COUNT"
	counters t1
	[[ $((X[t1] - X[t0])) == 0 ]]
	check_err $? "B's program took $((X[t1] - X[t0])) of them"
	[[ $(d t0 t1 "$C" delivered) == 0 ]]
	check_err $? "C delivered $(d t0 t1 "$C" delivered) of them"
	log_test "$1"
}

# xdp_fwd NS PORT BOOL: whether the entry r2c2.ko keeps for the port
# lets the program forward out of it (`xdp show`)
# shellcheck disable=SC2016  # jq's variables
xdp_fwd()
{
	ip netns exec "$1" r2c2ctl -j xdp show >"$FABRIC_TMP/fwd" &&
	json_assert --argjson p "$2" --argjson f "$3" \
		'.ports[] | select(.port == $p) | .forwarding == $f' "$FABRIC_TMP/fwd" >/dev/null
}

# xdp_flag NS PORT KEY BOOL: a flag of the port's entry in `xdp show`
# shellcheck disable=SC2016  # jq's variables
xdp_flag()
{
	ip netns exec "$1" r2c2ctl -j xdp show >"$FABRIC_TMP/flag" &&
	json_assert --argjson p "$2" --arg k "$3" --argjson f "$4" \
		'.ports[] | select(.port == $p) | .[$k] == $f' "$FABRIC_TMP/flag" >/dev/null
}

# nbr_mac NS PORT MAC: the neighbour's MAC in `port show`
nbr_mac()
{
	[[ $(ip netns exec "$1" r2c2ctl -j port show "$2" | jq -r '.[0].mac') == "$3" ]]
}

# nbr_state NS PORT STATE: the port's state in `port show`
nbr_state()
{
	[[ $(ip netns exec "$1" r2c2ctl -j port show "$2" | jq -r '.[0].state') == "$3" ]]
}

# ---------------------------------------------------------------- setup
lap
RET=0
setup
check_err $? "setup failed"
wait_until 60 converged
check_err $? "A, B and C do not know each other"
B_P3_MAC=$(ip -n "$B" -j link show p3 | jq -r '.[0].address')
log_test_or_exit "setup: line A - B - C, injector on B's p3"

RET=0
for ns in "${NODES[@]}"; do
	ip netns exec "$ns" r2c2ctl xdp attach >"$FABRIC_TMP/attach" 2>&1
	check_err $? "xdp attach in $ns: $(cat "$FABRIC_TMP/attach")"
done
show "$B"
json_assert '.bound == true' "$FABRIC_TMP/show"
check_err $? "B's maps are not bound"
json_assert '[.ports[] | select(.r2c2 and .mode == "native")] | length == 3' "$FABRIC_TMP/show"
check_err $? "not every port of B has the program natively"
log_test "attach: native on every veth port, the maps bound"

# C's program gives its p1 NAPI: B's entry learns it (6.1: at B's tick)
wait_until 10 xdp_flag "$B" 0 xmit true
through_xdp "a transit frame: forwarded by the program, counted as by the kernel path"

RET=0
ip netns exec "$A" ping -c 10 -i 0.05 -W 2 10.42.0.3 >"$FABRIC_TMP/ping" 2>&1
check_err $? "A does not reach C: $(tail -n 2 "$FABRIC_TMP/ping")"
show "$B"
json_assert '[.ports[] | .forwarded] | add >= 20 + 5' "$FABRIC_TMP/show"
check_err $? "B's program forwarded fewer than the pings and the injected frames"
log_test "ping A -> C through B's program"

# A hello that changes the neighbour but nothing the program reads (C's
# hello interval, 100 -> 150 -> 100 ms) must not rewrite B's entry for
# port 0: a rewrite sends the frames read meanwhile to the kernel path.
RET=0
writes() { ip netns exec "$B" r2c2ctl -j xdp show | jq -c '[.ports[] | select(.port < 2) | .entry_writes]'; }
w0=$(writes) h0=$(node_stat "$B" hello_rx)
ip netns exec "$C" r2c2ctl node set hello 150 >/dev/null &&
sleep 1 &&
ip netns exec "$C" r2c2ctl node set hello 100 >/dev/null &&
sleep 1
check_err $? "r2c2ctl node set hello failed in C"
w1=$(writes) h1=$(node_stat "$B" hello_rx)
[[ $w0 == "$w1" && $w0 =~ ^\[[0-9]+,[0-9]+\]$ ]]
check_err $? "B's entries for ports 0 and 1 written $w0 then $w1 times over $((h1 - h0)) hellos heard"
((h1 - h0 >= 20))
check_err $? "B heard $((h1 - h0)) hellos in two seconds at 100-150 ms on two ports"
log_info "B heard $((h1 - h0)) hellos; its entries' writes $w0 before, $w1 after"
log_test "a hello that changes nothing the program reads leaves the port's entry unwritten"

# ---------------------------------------------------------------- state
# C's p1 down: B's p0 loses its carrier; B's entry for it stops the
# program at once, the kernel path drops the frames (drop_port_down).
ip -n "$C" link set p1 down
wait_until 10 nbr_state "$B" 0 down
wait_until 10 xdp_fwd "$B" 0 false
to_kernel "B's egress without carrier: the kernel path drops, the program forwards nothing"
ip -n "$C" link set p1 up
wait_until 20 nbr_state "$B" 0 neighbour
wait_until 10 xdp_fwd "$B" 0 true
through_xdp "carrier back and neighbour heard: through the program again"

# A neighbour that leaves (C's port removed: one-way, B's p0 still has
# its carrier): once B forgets it (hellos missed), the program stops.
ip netns exec "$C" r2c2ctl port del 1
wait_until 20 nbr_state "$B" 0 up
wait_until 10 xdp_fwd "$B" 0 false
to_kernel "neighbour gone, link up: the kernel path drops, the program forwards nothing"

# It comes back with another MAC, and without the program (port del
# took it off C's p1, and C has no other port to take it from): C's p1
# has no NAPI, so a frame B's program redirected to B's p0 would be
# lost. B's entry says so (no xmit): the kernel path forwards.
ip -n "$C" link set p1 address 02:00:00:00:0c:01
ip netns exec "$C" r2c2ctl port add 1 dev p1
wait_until 20 nbr_state "$B" 0 neighbour
wait_until 10 xdp_fwd "$B" 0 true
RET=0
wait_until 10 xdp_flag "$B" 0 xmit false
check_err $? "B's entry for port 0 lets the program redirect to a veth whose peer has no NAPI"
counters t0
inject
check_err $? "r2c2_inject failed"
wait_until 10 delivered t0 "$COUNT"
check_err $? "C delivered $(d t0 now "$C" delivered) of $COUNT"
counters t1
[[ $((X[t1] - X[t0])) == 0 ]]
check_err $? "B's program took $((X[t1] - X[t0])) of them"
log_test "neighbour back without the program: the kernel path forwards, nothing lost"

# C attaches it: B's entry takes the new MAC, or C would not take the
# frames (another host's MAC)
ip netns exec "$C" r2c2ctl xdp attach >/dev/null
wait_until 10 xdp_flag "$B" 0 xmit true
through_xdp "neighbour with the program and a new MAC: the program sends to the new one"

# C's port takes another MAC, program and link kept: only C's hellos
# tell B, and B's entry must follow them.
ip -n "$C" link set p1 address 02:00:00:00:0c:02
wait_until 10 nbr_mac "$B" 0 02:00:00:00:0c:02
through_xdp "the neighbour's port changes its MAC: the program sends to the new one"

# ---------------------------------------------------------------- ports
# The program follows `port del` and `port add`: off the netdev that
# stops being a port, onto the one that becomes one.
RET=0
ip netns exec "$B" r2c2ctl port del 3
check_err $? "port del 3 failed"
[[ -z $(ip -n "$B" -j link show p3 | jq -r '.[0].xdp // empty') ]]
check_err $? "p3 keeps the XDP program after port del"
ip netns exec "$B" r2c2ctl port add 3 dev p3
check_err $? "port add 3 failed"
show "$B"
json_assert '[.ports[] | select(.port == 3 and .r2c2 and .mode == "native")] | length == 1' "$FABRIC_TMP/show"
check_err $? "p3 did not get the program back with port add"
log_test "port del takes the program off its netdev, port add puts it on"
through_xdp "a transit frame through the re-added port"

# ---------------------------------------------------------------- lifetime
RET=0
counters t0
ip netns exec "$B" r2c2ctl xdp attach mode generic >/dev/null
check_err $? "re-attaching in generic mode failed"
show "$B"
json_assert '[.ports[] | select(.r2c2 and .mode == "generic")] | length == 3' "$FABRIC_TMP/show"
check_err $? "B's ports are not all in generic mode"
counters t1
[[ $(d t0 t1 "$B" forwarded) == 0 ]]
check_err $? "B's forwarded counter moved by $(d t0 t1 "$B" forwarded) across the re-attach"
log_test "re-attach in generic mode: the old counters stay the node's"
through_xdp "generic mode forwards through the program too"

RET=0
counters t0
ip netns exec "$B" r2c2ctl xdp detach
check_err $? "xdp detach failed"
show "$B"
json_assert '.bound == false and ([.ports[] | select(.mode != "none")] | length == 0)' "$FABRIC_TMP/show"
check_err $? "B still has the program or its maps"
counters t1
[[ $(d t0 t1 "$B" forwarded) == 0 ]]
check_err $? "B's forwarded counter moved by $(d t0 t1 "$B" forwarded) across the detach"
log_test "detach: off every port, the program's counters kept by the node"

# bad requests: refused with a message, the state unchanged
RET=0
ip netns exec "$A" r2c2ctl -j xdp show >"$FABRIC_TMP/a0"
ip netns exec "$A" r2c2ctl xdp attach object /nonexistent.o 2>"$FABRIC_TMP/err"
check_fail $? "attach with a missing object succeeded"
grep -q '/nonexistent.o' "$FABRIC_TMP/err"
check_err $? "the error does not name the file: $(cat "$FABRIC_TMP/err")"
nlbad() { "$(tool r2c2_nlbad)" -n "$A" "$@" >/dev/null; }
nlbad -e EINVAL -m "not the ports map" xdp_set xdp_ports_fd:u32:0 xdp_stats_fd:u32:0
check_err $? "XDP_SET with a non-map fd was not refused as such"
nlbad -e EINVAL -m "go together" xdp_set xdp_ports_fd:u32:0
check_err $? "XDP_SET with one fd was not refused as such"
nlbad -e ERANGE -M xdp_set xdp_ports_fd:u32:4294967295 xdp_stats_fd:u32:0
check_err $? "XDP_SET with fd -1 was not refused by the policy"
ip netns exec "$A" r2c2ctl -j xdp show >"$FABRIC_TMP/a1"
cmp -s "$FABRIC_TMP/a0" "$FABRIC_TMP/a1"
check_err $? "A's XDP state changed: $(cat "$FABRIC_TMP/a0") -> $(cat "$FABRIC_TMP/a1")"
log_test "bad object, non-map fds, one fd, fd -1: refused, nothing changed"

RET=0
kernel_healthy
check_err $? "kernel warnings or oopses"
log_test "no kernel warning, oops or taint"
lap "xdp"

ksft_exit
