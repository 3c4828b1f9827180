#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# reseq_hostile_test.sh - hostile input for the reorder buffer (issue 6):
# forged sequence numbers far ahead, gaps never filled, duplicates and a
# flood of distinct flow ids, injected at node H. Memory stays within the
# limits (packets held by the node <= reseq-limit, by one flow <=
# reseq-flow-limit, flows <= 4096), every injected frame is accounted for
# (received by r2c0 or freed as a copy, once the gaps time out),
# idle state is freed, the kernel does not warn and A still pings H.
#
#	 r2c2-ra (A, 1)            r2c2-rh (H, 2)
#	 | r2c0 10.42.0.1 |        | r2c0 10.42.0.2   |
#	 |           p0 --|--------|-- p0          p1 |-----  i0   r2c2-ri
#	                                                   (r2c2_rsqflood)
#
# H: reseq-timeout 1 s (the longest allowed: gaps stay open while a case
# injects; under TCG on a loaded host a few hundred frames can take that
# long), flow limit 8, node limit 64. Each case checks H's counters:
#   hold  20 flows x 12: a gap at 1, never filled -> limits release
#   ahead 5 flows x 100: each number ~2^31 from the last -> resyncs
#   dup   10 flows x 6, every held frame twice -> copies freed (dup)
#   flood 5000 flows x 2 (a gap each): at most 4096 get state, the rest
#	  pass through (nostate); at most 1024 rings; the node limit

# shellcheck disable=SC2317  # functions called through busywait
# shellcheck disable=SC2016  # the checks are expanded by eval
lib_dir=$(dirname "$0")
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"
# shellcheck source=selftests/fabric.sh
source "$lib_dir/fabric.sh"

require_root
require_cmd ip jq ping
require_module veth
require_r2c2
require_tools r2c2_snap r2c2_rsqflood
ksft_plan 6

A=r2c2-ra H=r2c2-rh INJ=r2c2-ri
FLOW_LIMIT=8
LIMIT=64
FLOWS_MAX=4096
# two CPUs may each pass the node-limit check before either adds its
# packet: the bound is the limit plus one packet per CPU
SLACK=$(nproc)

setup()
{
	local ns

	for ns in "$A" "$H" "$INJ"; do
		ns_create "$ns" || return 1
		# no IPv6 chatter: r2c0's receive counter counts only injections
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.default.disable_ipv6=1
	done
	veth_link "$A" p0 "$H" p0 &&
	veth_link "$H" p1 "$INJ" i0 || return 1
	ip netns exec "$A" r2c2ctl node set addr 1 &&
	ip netns exec "$A" r2c2ctl port add 0 dev p0 &&
	ip netns exec "$H" r2c2ctl node set addr 2 &&
	ip netns exec "$H" r2c2ctl port add 0 dev p0 &&
	ip netns exec "$H" r2c2ctl port add 1 dev p1 || return 1
	ip -n "$A" -b - <<-EOF || return 1
		link set r2c0 up
		addr add 10.42.0.1/16 dev r2c0
	EOF
	ip -n "$H" -b - <<-EOF || return 1
		link set r2c0 up
		addr add 10.42.0.2/16 dev r2c0
	EOF
	ip netns exec "$H" r2c2ctl node set reseq-timeout 1000000 \
		reseq-flow-limit "$FLOW_LIMIT" reseq-limit "$LIMIT"
}

H_P1_MAC=
RSQ=$FABRIC_TMP/rsq.json

# H's reorder-buffer summary (held, max_depth, flows, stats) into $RSQ
rsq() { ip netns exec "$H" r2c2ctl -j -s reseq show >"$RSQ"; }
# rsqv JQ: a value of the summary just read
rsqv() { jq -r ".node.$1 // 0" "$RSQ"; }

# data frames H handed to the reorder buffer: from port 1 (the injection
# port) and in all (A may send one now and then: an ARP probe)
delivered()
{
	snap "$FABRIC_TMP/p1" -p "$H" &&
	jq -r '"\(.ports | map(select(.port == 1))[0].stats.delivered // 0) \(.node.delivered // 0)"' \
		"$FABRIC_TMP/p1"
}

# frames the reorder buffer released to H's r2c0
r2c0_rx()
{
	ip -n "$H" -j -s link show dev r2c0 | jq -r '.[0].stats64.rx.packets'
}

# within_limits: held, depth and flows of H within the limits
within_limits()
{
	local held depth flows

	rsq || return 1
	held=$(rsqv held) depth=$(rsqv max_depth) flows=$(rsqv flows)
	if ((held > LIMIT + SLACK || depth > FLOW_LIMIT ||
	     flows > FLOWS_MAX)); then
		check_err 1 "held $held (limit $LIMIT), max depth $depth (flow limit $FLOW_LIMIT), flows $flows"
		return 1
	fi
}

# nothing_held: every gap has timed out
nothing_held() { rsq && (($(rsqv held) == 0)); }
# no_flows: GC has freed every flow's state
no_flows() { rsq && (($(rsqv flows) == 0)); }

# case_test NAME MODE FLOWS PER_FLOW CHECK: reset H's counters, inject,
# check the limits at once, wait for the gaps to time out, then require
# that every frame reached the buffer, that r2c0 received all of them but
# the copies freed (dup), and no more than H delivered in all (A may
# send a frame meanwhile): nothing lost, nothing duplicated; and the shell
# condition CHECK (over stat NAME, the growth of a reseq counter).
case_test()
{
	local name=$1 mode=$2 flows=$3 per=$4 check=$5 out sent d0 d1 n0 n1 r0 r1 dup

	RET=0
	busywait 15000 no_flows ||
		check_err 1 "state of earlier cases not freed: $(rsqv flows) flows"
	ip netns exec "$H" r2c2ctl stats reset
	read -r d0 n0 < <(delivered)
	r0=$(r2c0_rx)
	out=$(ip netns exec "$INJ" "$(tool r2c2_rsqflood)" -i i0 -m "$H_P1_MAC" \
		-s 9 -d 2 -r 0 -M "$mode" -F "$flows" -n "$per") ||
		check_err 1 "r2c2_rsqflood failed: $out"
	sent=${out#sent }
	within_limits
	busywait 15000 nothing_held || check_err 1 "still held: $(rsqv held)"
	within_limits
	read -r d1 n1 < <(delivered)
	r1=$(r2c0_rx)
	dup=$(rsqv stats.reseq_dup)
	# r2c0 may also get (or, for a frame of A's counted delivered but
	# not an r2c0 packet, not get) a frame from A, and once counted a
	# packet no port delivered (241 for 240): bound, not equality
	((d1 - d0 == sent && r1 - r0 + dup >= sent &&
	  r1 - r0 + dup <= n1 - n0 + 2)) ||
		check_err 1 "sent $sent, to the buffer $((d1 - d0)) (all ports $((n1 - n0))), to r2c0 $((r1 - r0)), dup $dup"
	stat() { rsqv "stats.reseq_$1"; }
	eval "$check" ||
		check_err 1 "$check failed: $(jq -c .node.stats "$RSQ"), sent $sent"
	log_test "reseq hostile: $name" "$sent frames, $(jq -r '.node.stats |
		[to_entries[] | select(.value > 0) | "\(.key | sub("reseq_"; "")) \(.value)"] |
		join(", ")' "$RSQ")"
}

RET=0
setup
check_err $? "setup"
H_P1_MAC=$(ip -n "$H" -j link show dev p1 | jq -r '.[0].address')
busywait 30000 ip netns exec "$A" ping -c1 -W1 10.42.0.2 >/dev/null
check_err $? "A cannot ping H"
log_test "reseq hostile: setup, A pings H"

# per flow: 1 in order, then held until a limit releases the oldest
case_test "gaps never filled" hold 20 12 \
	'(($(stat limit) > 0 && $(stat reordered) > 0 && $(stat inorder) >= 20))'
case_test "sequence numbers far ahead" ahead 5 100 \
	'(($(stat resync) == 500 && $(stat reordered) == 0))'
# a copy that arrives after its gap timed out (a 1-s stall) is late
case_test "duplicates" dup 10 6 \
	'(($(stat dup) > 0 && $(stat dup) + $(stat late) == 50 &&
	   $(stat reordered) == 50))'
# (GC may free the state of a flow whose second frame comes > 1 s later:
# fewer than 2 x 904 frames may find the table full)
case_test "flood of flow ids" hold 5000 2 \
	'(($(stat nostate) > 0 && $(stat limit) > 0))'

RET=0
busywait 15000 no_flows
check_err $? "idle flows not freed: $(rsqv flows)"
ip netns exec "$A" ping -c3 -i0.2 -W2 10.42.0.2 >/dev/null
check_err $? "A cannot ping H after the floods"
kernel_healthy
check_err $? "kernel warned"
log_test "reseq hostile: state freed, ping, kernel healthy"

ksft_exit
