#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# malformed_test.sh - malformed frames injected on a port are dropped and
# counted by the right reason counter, while A keeps pinging C through B
# without loss and the kernel does not warn.
#
#	 r2c2-ma (A, 1)          r2c2-mb (B, 2)          r2c2-mc (C, 3)
#	 +-----------+           +-----------+           +-----------+
#	 |      p0 --|-----------|-- p1   p0 |-----------|-- p1      |
#	 | r2c0      |           |  p3   p2  |           | r2c0      |
#	 | 10.42.0.1 |           +--|-----|--+           | 10.42.0.3 |
#	 +-----------+              |     |              +-----------+
#	                      inj0 -+     +- dn0 (down: no carrier on p2)
#	                   r2c2-mi            r2c2-md
#	              (r2c2_inject sends       (no r2c2)
#	               hand-made frames)
#
# B's ports: 0 to C, 1 to A, 2 attached but down, 3 the injection port
# (no r2c2 node behind it); port 5 is not attached. Each case sends 5
# frames into p3 and expects exactly +5 on one drop counter of B (or, for
# the loop, of B after A sent the frames back), +5 received on p3, and
# no other drop anywhere (drop_dup aside: link-state flooding makes
# those).
# With R2C2_TEST_XDP (xdp_malformed_test.sh) every port of A, B and C
# runs the XDP transit program: the verdicts must be the same, and every
# frame B forwarded must have gone through the program.

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
ksft_plan $((25 + ${R2C2_TEST_XDP:+1}))

A=r2c2-ma B=r2c2-mb C=r2c2-mc INJ=r2c2-mi DN=r2c2-md
NODES=("$A" "$B" "$C")
COUNT=5
PING_PID=

setup()
{
	# B's r2c0 up too, or the broadcasts A and C send (ARP, IPv6) count
	# as drop_no_node; B's p2 has no carrier
	line_injector "$A" "$B" "$C" "$INJ" &&
	ns_create "$DN" &&
	veth_link "$B" p2 "$DN" dn0 &&
	ip -n "$DN" link set dn0 down &&
	ip netns exec "$B" r2c2ctl port add 2 dev p2 &&
	xdp_setup "${NODES[@]}"
}

# every node knows the three nodes
converged()
{
	snap "$FABRIC_TMP/conv" "${NODES[@]}" 2>/dev/null &&
	[[ $(jq -s 'map(select(.nodes == 3)) | length' "$FABRIC_TMP/conv") == 3 ]]
}

# inject ARGS...: COUNT frames from the injector into B's p3
inject()
{
	ip netns exec "$INJ" "$(tool r2c2_inject)" -i inj0 -m "$B_P3_MAC" \
		-n "$COUNT" "$@"
}

# deltas: "NS COUNTER DELTA" for every node counter that moved between
# the before and after snapshots, and "r2c2-mb p3_rx DELTA" for the
# frames B's p3 received; into the associative array DELTA.
declare -A DELTA
deltas()
{
	local ns key v

	DELTA=()
	while read -r ns key v; do
		DELTA["$ns $key"]=$v
	done < <(jq -n -r --slurpfile b "$FABRIC_TMP/before" --slurpfile a "$FABRIC_TMP/after" '
		def p3: (.ports // []) | map(select(.port == 3))[0].stats.rx_packets // 0;
		$a[] as $x | ($b[] | select(.ns == $x.ns)) as $y
		| ($x.node | to_entries[] | select(.value != $y.node[.key])
		   | "\($x.ns) \(.key) \(.value - $y.node[.key])"),
		  (($x | p3) - ($y | p3) | select(. != 0) | "\($x.ns) p3_rx \(.)")')
}

# d NS COUNTER: growth of a counter (0 if it did not move)
d() { echo "${DELTA["$1 $2"]:-0}"; }

# marker: one frame injected after a case's frames, routed B -> A -> B
# -> C and dropped there, at a port C does not have (drop_no_port, which
# nothing else moves on C). B takes the injected frames in order and the
# marker then crosses every node the cases' frames may reach, so once C
# counted it, whatever those frames caused has been counted: a
# condition, where a fixed sleep passes when a drop is merely late.
# Waits for it against the "before" snapshot; unmark then takes its own
# counts out of DELTA (B: p3_rx 1, forwarded 2; A: forwarded 1; C:
# drop_no_port 1).
marker()
{
	ip netns exec "$INJ" "$(tool r2c2_inject)" -i inj0 -m "$B_P3_MAC" \
		-n 1 -d 3 -r 1,0,0,5 || return 1
	wait_until 10 reached "$C" drop_no_port 1
}

unmark()
{
	local kv ns k v

	for kv in "$B p3_rx 1" "$B forwarded 2" "$A forwarded 1" "$C drop_no_port 1"; do
		read -r ns k v <<<"$kv"
		DELTA["$ns $k"]=$(($(d "$ns" "$k") - v))
		((DELTA["$ns $k"] != 0)) || unset 'DELTA[$ns $k]'
	done
}

# reached NS COUNTER N: the counter of NS grew by N since "before"
reached()
{
	snap "$FABRIC_TMP/after" -p "${NODES[@]}" && deltas &&
	(($(d "$1" "$2") >= $3))
}

# case_test NAME NS COUNTER EXTRA -- INJECT_ARGS...: inject, wait for
# the marker, then require: NS's COUNTER grew by COUNT; every drop counter of
# every node (drop_dup aside) unchanged but that one, +COUNT exactly; B's
# p3 received COUNT frames. EXTRA, a shell condition that may use
# "d NS COUNTER", adds one.
case_test()
{
	local name=$1 ns=$2 counter=$3 extra=$4 rc k moved=()
	shift 5			# NAME NS COUNTER EXTRA --

	RET=0
	snap "$FABRIC_TMP/before" -p "${NODES[@]}"
	check_err $? "r2c2_snap failed"
	inject "$@"
	check_err $? "r2c2_inject $* failed"
	# no wait for the counter itself: the marker comes after the
	# frames and crosses every node they reach, so once C counted it,
	# their drops are counted (one wait, not two, in a debug guest
	# where each snapshot takes seconds)
	marker
	check_err $? "the marker frame injected after them was not dropped at C"
	snap "$FABRIC_TMP/after" -p "${NODES[@]}" && deltas && unmark
	[[ $(d "$ns" "$counter") == "$COUNT" ]]
	rc=$?
	for k in "${!DELTA[@]}"; do
		[[ $k == *" drop_"* && $k != *" drop_dup" ]] || continue
		[[ $k == "$ns $counter" && ${DELTA[$k]} == "$COUNT" ]] && continue
		moved+=("${k#r2c2-m} +${DELTA[$k]}")
	done
	check_err $rc "$ns $counter did not grow by $COUNT; drop counters that moved: ${moved[*]:-none} (B forwarded +$(d "$B" forwarded), C delivered +$(d "$C" delivered), ping included)"
	((${#moved[@]} == 0))
	check_err $? "other drop counters moved: ${moved[*]}"
	rc=$(d "$B" p3_rx)
	[[ $rc == "$COUNT" ]]
	check_err $? "B's p3 received $rc frames, not $COUNT"
	if [[ -n $extra ]]; then
		eval "$extra"
		check_err $? "$extra"
	fi
	log_test "$name: dropped, +$COUNT $counter (${ns#r2c2-m})"
}

ping_gone()
{
	[[ ! -e /proc/$PING_PID || $(awk '{ print $3 }' "/proc/$PING_PID/stat" 2>/dev/null) == Z ]]
}

stop_ping()
{
	[[ -n $PING_PID ]] || return 0
	kill -INT "$PING_PID" 2>/dev/null	# ping prints its summary
	wait_until 10 ping_gone
	stop_pids "$PING_PID"
	PING_PID=
}
cleanup_add stop_ping

# ---------------------------------------------------------------- setup
lap
RET=0
setup
check_err $? "setup failed"
wait_until 60 converged
check_err $? "A, B and C do not know each other: $(jq -c '{ns, nodes}' "$FABRIC_TMP/conv" 2>/dev/null | tr '\n' ' ')"
B_P3_MAC=$(ip -n "$B" -j link show p3 | jq -r '.[0].address')
log_test_or_exit "setup: line A - B - C, injector on B's p3, p2 down"
lap setup

# A well-formed frame first, before any other traffic: forwarded by B,
# delivered by C (its payload type 0x88b6 no stack takes).
RET=0
snap "$FABRIC_TMP/before" -p "${NODES[@]}"
inject -s 0xfffe -d 3 -r 0 -p 46
check_err $? "r2c2_inject failed"
wait_until 10 reached "$C" delivered "$COUNT"
check_err $? "C did not deliver them"
marker
check_err $? "the marker frame injected after them was not dropped at C"
snap "$FABRIC_TMP/after" -p "${NODES[@]}"
deltas && unmark
for what in "$B forwarded" "$C delivered" "$B p3_rx"; do
	# shellcheck disable=SC2086  # NS and COUNTER
	got=$(d $what)
	[[ $got == "$COUNT" ]]
	check_err $? "${what#r2c2-m}: +$got, not +$COUNT"
done
log_test "a well-formed frame from the injector is forwarded by B and delivered by C"

# A pings C through B during all the cases below.
RET=0
if [[ -n ${R2C2_TEST_XDP:-} ]]; then
	snap "$FABRIC_TMP/xdp0" "$B"
	XDP0=$(xdp_forwarded "$B")
fi
ip netns exec "$A" ping -n -i 0.05 -W 1 10.42.0.3 >"$FABRIC_TMP/ping" 2>&1 &
PING_PID=$!
wait_until 20 grep -q 'icmp_seq=' "$FABRIC_TMP/ping"
check_err $? "A gets no reply from C"
log_test "A pings C through B"

case_test "truncated: 20 of the 40 header bytes" "$B" drop_truncated "" -- -d 3 -r 0 -T 20
case_test "truncated: 1 byte" "$B" drop_truncated "" -- -d 3 -r 0 -T 1
case_test "truncated: plen 200 with 20 payload bytes, for B" "$B" drop_truncated "" -- -d 2 -p 200 -T 60
# Documentation/wire-format.md, forwarding rule 1: any node drops a frame
# shorter than 40 + plen, not only its destination
case_test "truncated: plen 200 with 20 payload bytes, to forward" "$B" drop_truncated "" -- -d 3 -r 0 -p 200 -T 60
case_test "bad header checksum" "$B" drop_csum "" -- -d 3 -r 0 -c
case_test "rlen 50" "$B" drop_rlen "" -- -d 3 -r 0 -l 50
# the bound itself: 42 hops fit the 16-byte route, 43 do not
case_test "rlen 43, one past R2C2_MAX_HOPS" "$B" drop_rlen "" -- -d 3 -r 0 -l 43
case_test "ridx 2 > rlen 1" "$B" drop_ridx "" -- -d 3 -r 0 -x 2
case_test "route names port 5, not attached" "$B" drop_no_port "" -- -d 3 -r 5
case_test "route names port 2, down" "$B" drop_port_down "" -- -d 3 -r 2
case_test "route ends at B, short of C" "$B" drop_loop "" -- -d 3
# the route is authoritative: B, the destination, forwards a frame that
# has hops left (as a VLB route through its destination needs); it then
# ends at C, which is not the destination
# shellcheck disable=SC2016  # evaluated by case_test
case_test "passes its destination B with hops left, ends at C" "$C" drop_loop '(( $(d "$B" forwarded) >= COUNT ))' -- -d 2 -r 0
# shellcheck disable=SC2016  # evaluated by case_test
case_test "loop B -> A -> B, for C" "$B" drop_loop '[[ $(d "$A" forwarded) == "$COUNT" ]]' -- -d 3 -r 1,0
case_test "version 2" "$B" drop_version "" -- -b 0x21 -d 3 -r 0
case_test "version 0" "$B" drop_version "" -- -b 0x01 -d 3 -r 0
case_test "type 0" "$B" drop_version "" -- -b 0x10 -d 3 -r 0
case_test "type 7" "$B" drop_version "" -- -b 0x17 -d 3 -r 0
case_test "type 15" "$B" drop_version "" -- -b 0x1f -d 3 -r 0
case_test "hello cut to 10 bytes" "$B" drop_truncated "" -- -b 0x12 -T 10
case_test "flow event with a bad checksum" "$B" drop_csum "" -- -b 0x15 -d 3
lap "malformed frames"

RET=0
stop_ping
sent=$(sed -n 's/^\([0-9]*\) packets transmitted.*/\1/p' "$FABRIC_TMP/ping")
recv=$(sed -n 's/.* \([0-9]*\) received.*/\1/p' "$FABRIC_TMP/ping")
seqs=$(sed -n 's/.*icmp_seq=\([0-9]*\) .*/\1/p' "$FABRIC_TMP/ping" | sort -n | uniq)
nseq=$(wc -w <<<"$seqs")
last=$(tail -n 1 <<<"$seqs")
# every request but the one in flight when ping was stopped was answered
[[ -n $sent && -n $recv && -n $last ]] && ((sent >= 20 && recv >= sent - 1 && nseq == last))
check_err $? "ping A -> C: $sent sent, $recv received, replies to $nseq sequence numbers up to ${last:-none}"
grep -q 'Unreachable\|DUP!' "$FABRIC_TMP/ping" && check_err 1 "ping A -> C: $(grep -m1 'Unreachable\|DUP!' "$FABRIC_TMP/ping")"
log_info "ping A -> C during the cases: $sent sent, $recv received"
log_test "the ping through B lost nothing meanwhile"

# With the XDP program on: every frame B forwarded meanwhile (the
# well-formed cases, the markers, the ping) went through it, and the
# malformed ones went up to the kernel path, which counted them above.
# The reply to the ping's last request may still cross B after ping
# exits, between the two reads: read both again until they agree (a
# frame the kernel path forwarded keeps them apart for good).
# shellcheck disable=SC2317  # called through wait_until
xdp_all()
{
	snap "$FABRIC_TMP/xdp1" "$B" || return 1
	ALL=$(jq -n --slurpfile a "$FABRIC_TMP/xdp0" --slurpfile b "$FABRIC_TMP/xdp1" \
		'$b[0].node.forwarded - $a[0].node.forwarded')
	X=$(($(xdp_forwarded "$B") - XDP0))
	[[ $X == "$ALL" ]] && ((ALL > 0))
}
if [[ -n ${R2C2_TEST_XDP:-} ]]; then
	RET=0
	wait_until 5 xdp_all
	check_err $? "B forwarded $ALL frames meanwhile, its XDP program $X"
	log_info "B forwarded $ALL frames meanwhile, $X of them in XDP"
	log_test "XDP ($R2C2_TEST_XDP): every frame B forwarded went through its program"
fi

RET=0
kernel_healthy
check_err $? "kernel warnings or oopses"
log_test "no kernel warning, oops or taint"

ksft_exit
