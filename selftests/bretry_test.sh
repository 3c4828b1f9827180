#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bretry_test.sh - a relay whose transmit of a broadcast copy fails sends
# it again on the same port (r2c2.bcast_retries): every node still hears
# every flow event, and without the retry the same setup loses some.
#
#	node 0 --------- node 1 ---------- node 2 --------- node 3
#	(source)   p1  p0  (relay) p1  p0             p1  p0
#	r2c2ctl -b:               tbf on p1:
#	100 flow events,          rate 200kbit burst 300 limit 2000
#	held by a tbf on p1,      (the burst overflows it: drops)
#	then let go at once
#
# Node 0 sends bursts of BURST flow events (one r2c2ctl process, one
# netlink request each) into a tbf on its p1 that holds them (1 kbit/s),
# then lets them all go at once (the same tbf changed to 1 Gbit/s, its
# queue kept): they reach node 1 back to back, however slowly the guest
# ran r2c2ctl. Node 1's port 1 takes ~2,300 bytes at once and then 200
# kbit/s, so about 45 of the 42-byte copies are dropped by its qdisc and
# dev_queue_xmit() says so. Hellos every second: node 0's wait in the
# tbf with the events. Nodes 1, 2 and 3 run `r2c2ctl -j monitor`.
# 1. bcast_retries=0 (off): nodes 2 and 3 miss events; node 1 counts
#    drop_tx_err and no bcast_retry. This shows the setup drops.
# 2. bcast_retries=4 (the default, 1+2+4+8 ms of waiting): 200 kbit/s
#    drains this burst in ~170 ms, longer than the default waits, so how
#    many copies are given up varies; what holds is the accounting:
#    node 1 retried (bcast_retry > 0) and heard all events, nobody heard
#    one twice, and every event node 2 (and node 3 behind it) missed is a
#    copy node 1 gave up (lost = bcast_retry_fail).
# 3. bcast_retries=8 (waits up to 255 ms): every node hears every event
#    exactly once; node 1 counts bcast_retry > 0 and no bcast_retry_fail.
# 4. pfifo limit 0 on node 1's p1 (every transmit fails), a burst, then
#    `port del 1` on node 1 in the same r2c2ctl batch: the copies still
#    waiting are dropped as drop_port_down, each copy is accounted once
#    (drop_port_down + bcast_retry_fail = BURST at node 1).
# 5. the same at node 2 (its p1 to node 3), then `rmmod r2c2` while the
#    copies wait: the module unloads, no kernel warning; the modules are
#    loaded again for the tests that follow.

# shellcheck disable=SC2317  # functions called through busywait
lib_dir=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"
# shellcheck source=selftests/fabric.sh
source "$lib_dir/fabric.sh"

require_root
require_cmd ip jq
require_module veth sch_tbf
require_r2c2
require_tools r2c2_snap

TC=/usr/sbin/tc
[[ -x $TC ]] || TC=$(command -v tc)
PARAM=/sys/module/r2c2/parameters/bcast_retries
[[ -w $PARAM ]] || ksft_skip_all "r2c2.ko has no bcast_retries parameter"
ksft_plan 7
RETRIES0=$(cat "$PARAM")

N=4
BURST=100
NSS=()
for ((i = 0; i < N; i++)); do NSS+=("r2c2-c$i"); done
MON_PIDS=()

stop_mons()
{
	((${#MON_PIDS[@]} == 0)) || stop_pids "${MON_PIDS[@]}"
	MON_PIDS=()
}
cleanup_add stop_mons
# shellcheck disable=SC2016  # expanded when the cleanup runs
cleanup_add '[[ -w $PARAM ]] && echo "$RETRIES0" >"$PARAM"'

# hold / release: node 0's p1 holds what it sends (a tbf at 1 kbit/s
# that queues 100,000 bytes), then sends it all at once (the tbf at 1
# Gbit/s: a change keeps its queue)
hold() { "$TC" -n "${NSS[0]}" qdisc replace dev p1 root tbf rate 1kbit burst 100 limit 100000; }
release() { "$TC" -n "${NSS[0]}" qdisc change dev p1 root tbf rate 1gbit burst 100000 limit 100000; }

# burst PHASE [EXTRA]: BURST flow events of node 0 (ids 0xbPPPnnnn), one
# r2c2ctl process; EXTRA is a batch line run right after them.
burst()
{
	local i

	{
		for ((i = 0; i < BURST; i++)); do
			printf -- '-n %s event send flow 0x%x dst 3\n' "${NSS[0]}" \
				$(((0xb000 + $1) << 16 | i))
		done
		[[ -z ${2:-} ]] || printf '%s\n' "$2"
	} | r2c2ctl -b -
}

# heard NODE PHASE: events of PHASE node NODE's monitor printed, distinct
# ids and lines ("distinct lines")
heard()
{
	local pre

	pre=$(printf '0xb%03x' "$2")
	jq -r --arg p "$pre" 'select(.event == "flow" and (.flow | startswith($p))) | .flow' \
		"$FABRIC_TMP/mon.$1" 2>/dev/null | sort | uniq -c |
		awk '{ n++; l += $1 } END { printf "%d %d\n", n, l }'
}

# heard_all NODE PHASE: NODE heard every event of PHASE, once each
heard_all() { [[ $(heard "$1" "$2") == "$BURST $BURST" ]]; }

# quiet NS: the retry counters of NS unchanged for 0.5 s (no copy waits
# any more: the last retry is at most 255 ms after the first failure)
quiet()
{
	local a b f='"\(.drop_tx_err) \(.bcast_retry) \(.bcast_retry_fail)"'

	a=$(ip netns exec "$1" r2c2ctl -j stats show | jq -r "$f")
	sleep 0.5
	b=$(ip netns exec "$1" r2c2ctl -j stats show | jq -r "$f")
	[[ -n $a && $a == "$b" ]]
}

# phase PHASE RETRIES: a burst with bcast_retries RETRIES; sets
# D_TXERR D_RETRY D_FAIL (node 1's deltas) and LOST2 LOST3 (events
# nodes 2 and 3 missed)
phase()
{
	local t0 r0 f0

	echo "$2" >"$PARAM"
	t0=$(node_stat "${NSS[1]}" drop_tx_err)
	r0=$(node_stat "${NSS[1]}" bcast_retry)
	f0=$(node_stat "${NSS[1]}" bcast_retry_fail)
	hold || return 1
	burst "$1" >/dev/null || return 1
	release || return 1
	# node 1 hears them all (it relays them); what it could send went
	# on once its retry counters stand still
	busywait 20000 heard_all 1 "$1" >/dev/null
	busywait 10000 quiet "${NSS[1]}" >/dev/null
	sleep 1			# room for late or duplicate copies
	D_TXERR=$(($(node_stat "${NSS[1]}" drop_tx_err) - t0))
	D_RETRY=$(($(node_stat "${NSS[1]}" bcast_retry) - r0))
	D_FAIL=$(($(node_stat "${NSS[1]}" bcast_retry_fail) - f0))
	read -r u2 l2 <<<"$(heard 2 "$1")"
	read -r u3 l3 <<<"$(heard 3 "$1")"
	read -r u1 l1 <<<"$(heard 1 "$1")"
	LOST2=$((BURST - u2)) LOST3=$((BURST - u3))
	DUPS=$((l1 - u1 + l2 - u2 + l3 - u3))
	log_info "bcast_retries=$2: node 1 drop_tx_err +$D_TXERR bcast_retry +$D_RETRY bcast_retry_fail +$D_FAIL; heard of $BURST: node 1 $u1, node 2 $u2, node 3 $u3 (duplicates $DUPS)"
}

# ---------------------------------------------------------------- setup
RET=0
for ns in "${NSS[@]}"; do ns_create "$ns" || check_err 1 "ns_create $ns"; done
for ((i = 0; i < N - 1; i++)); do
	veth_link "${NSS[i]}" p1 "${NSS[i + 1]}" p0 || check_err 1 "veth $i-$((i + 1))"
done
{
	for ((i = 0; i < N; i++)); do
		echo "-n ${NSS[i]} node set addr $i hello 1000"
		((i == 0)) || echo "-n ${NSS[i]} port add 0 dev p0"
		((i == N - 1)) || echo "-n ${NSS[i]} port add 1 dev p1"
	done
} | r2c2ctl -b - >/dev/null
check_err $? "r2c2ctl node set / port add"
for ns in "${NSS[@]}"; do
	busywait 30000 bash -c "ip netns exec $ns r2c2ctl -j node show | json_assert '.nodes == $N'" >/dev/null ||
		check_err 1 "$ns does not see $N nodes"
done
for id in 1 2 3; do
	ip netns exec "${NSS[id]}" r2c2ctl -j monitor timeout 600 >"$FABRIC_TMP/mon.$id" 2>&1 &
	MON_PIDS+=($!)
done
monitors_listen "${NSS[0]}" 3 "$FABRIC_TMP"/mon.{1,2,3}
check_err $? "the monitors of nodes 1, 2 and 3 do not hear node 0's events"
"$TC" -n "${NSS[1]}" qdisc replace dev p1 root tbf rate 200kbit burst 300 limit 2000
check_err $? "tc qdisc replace ... tbf on node 1's p1"
log_test_or_exit "setup: a line of $N nodes, monitors on nodes 1-3 listening, a tbf on node 1's p1"

# ---------------------------------------------------------------- 1. off
RET=0
phase 1 0 || check_err 1 "burst failed"
((LOST2 > 0 && LOST3 > 0))
check_err $? "with retries off, nodes 2 and 3 missed $LOST2 and $LOST3 events: the setup does not drop"
((D_TXERR > 0 && D_RETRY == 0 && D_FAIL == 0))
check_err $? "node 1: drop_tx_err +$D_TXERR (want > 0), bcast_retry +$D_RETRY and bcast_retry_fail +$D_FAIL (want 0)"
log_test "bcast_retries=0: the relay's qdisc drops copies, nodes behind it miss events"

# ---------------------------------------------------------------- 2. default
RET=0
phase 2 "$RETRIES0" || check_err 1 "burst failed"
((u1 == BURST && DUPS == 0))
check_err $? "node 1 heard $u1 of $BURST events, $DUPS duplicates"
((D_RETRY > 0))
check_err $? "node 1: bcast_retry +$D_RETRY, want > 0"
((LOST2 == D_FAIL && LOST3 == LOST2))
check_err $? "nodes 2 and 3 missed $LOST2 and $LOST3 events, node 1 gave up $D_FAIL copies (bcast_retry_fail): want all three equal"
log_test "bcast_retries=$RETRIES0 (default): node 1 retries, each event missed is a copy given up"

# ---------------------------------------------------------------- 3. eight
RET=0
phase 3 8 || check_err 1 "burst failed"
((LOST2 == 0 && LOST3 == 0 && DUPS == 0))
check_err $? "nodes 2 and 3 missed $LOST2 and $LOST3 events, $DUPS duplicates"
((D_RETRY > 0 && D_FAIL == 0))
check_err $? "node 1: bcast_retry +$D_RETRY (want > 0), bcast_retry_fail +$D_FAIL (want 0)"
log_test "bcast_retries=8: every node hears all $BURST events once, node 1 retried $D_RETRY times"
stop_mons

# ---------------------------------------------------------------- 4. port del
# pfifo limit 0 also drops node 1's hellos to node 2, which forgets node
# 1 after 3.5 hellos (3.5 s): the burst follows the tc at once.
RET=0
echo 8 >"$PARAM"
d0=$(node_stat "${NSS[1]}" drop_port_down)
f0=$(node_stat "${NSS[1]}" bcast_retry_fail)
n0=$(node_stat "${NSS[1]}" drop_no_port)
"$TC" -n "${NSS[1]}" qdisc replace dev p1 root pfifo limit 0 &&
	burst 4 "-n ${NSS[1]} port del 1" >/dev/null
check_err $? "pfifo limit 0 on node 1's p1, burst and port del"
busywait 10000 quiet "${NSS[1]}" >/dev/null
dd=$(($(node_stat "${NSS[1]}" drop_port_down) - d0))
df=$(($(node_stat "${NSS[1]}" bcast_retry_fail) - f0))
dn=$(($(node_stat "${NSS[1]}" drop_no_port) - n0))
# a copy reaching node 1 after the port went is drop_no_port
((dd > 0 && dd + df + dn == BURST))
check_err $? "node 1: drop_port_down +$dd, bcast_retry_fail +$df, drop_no_port +$dn; want > 0 and a sum of $BURST"
kernel_healthy
check_err $? "kernel warnings or oopses"
log_test "port removed with $dd copies waiting: dropped as drop_port_down, no warning"

# ---------------------------------------------------------------- 5. rmmod
# The line is 0-1 and 2-3 now. Node 2 sends; its p1 (to node 3) drops
# every transmit, so each event's copy waits there when r2c2 goes.
RET=0
f0=$(node_stat "${NSS[2]}" bcast_retry_fail)
"$TC" -n "${NSS[2]}" qdisc replace dev p1 root pfifo limit 0 && {
	for ((i = 0; i < BURST; i++)); do
		printf -- '-n %s event send flow 0x%x dst 3\n' "${NSS[2]}" $((0xb0050000 | i))
	done
	echo "-n ${NSS[2]} stats show"
} | r2c2ctl -j -b - >"$FABRIC_TMP/held" 2>&1
check_err $? "pfifo limit 0 on node 2's p1, burst of node 2"
for m in /sys/module/r2c2/holders/*; do
	[[ -e $m ]] || continue
	rmmod "${m##*/}" || check_err 1 "rmmod ${m##*/} (holds r2c2)"
done
timeout 60 rmmod r2c2
check_err $? "rmmod r2c2 with copies waiting"
held=$(jq -s -r --argjson b "$BURST" --argjson f0 "$f0" \
	'last | $b - (.bcast_retry_fail - $f0)' "$FABRIC_TMP/held" 2>/dev/null)
log_info "node 2 held ${held:-?} copies when its counters were last read, just before rmmod"
[[ ! -d /sys/module/r2c2 ]]
check_err $? "r2c2 is still loaded"
kernel_healthy
check_err $? "kernel warnings or oopses"
log_test "rmmod r2c2 with broadcast copies waiting for a retry: no warning"

# The files after this one need the modules.
RET=0
r2c2_modules_load
check_err $? "loading the r2c2 modules again"
log_test "the r2c2 modules load again"

ksft_exit
