#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# announce_test.sh - sch_r2c2's delayed flow announcement (announce_after,
# announce_bytes): short flows ride the headroom without a START or a
# FINISH broadcast, a long flow is announced once, at its threshold, and
# finishes normally; with both thresholds 0 a flow is announced at its
# first packet, as before.
#
#	r2c2-a0 (node 0)                 r2c2-a1 (node 1)
#	+---------------------+  veth   +---------------------+
#	| r2c0 10.44.0.0/16   |p0 -- p0|  r2c0 10.44.0.1/16   |
#	|  root r2c2 (sender) |         |  r2c2ctl monitor    |
#	+---------------------+         +---------------------+
#
# Events are counted where the rack hears them: node 1's monitor, each
# line stamped with node 1's clock ($EPOCHREALTIME). The sender's view
# (r2c2ctl qflow show: state "pending" until announced; tc -s xstats:
# announced, unannounced) is checked against them.

lib_dir=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"
# shellcheck source=selftests/fabric.sh
source "$lib_dir/fabric.sh"

require_root
require_cmd ip jq awk
require_module veth
require_r2c2
require_tools r2c2_udpflood

TC=/usr/sbin/tc
[[ -x $TC ]] || TC=$(command -v tc)
FLOOD=$(tool r2c2_udpflood)
[[ -d /sys/module/sch_r2c2 ]] || ksft_skip_all "sch_r2c2.ko not loaded"
$TC qdisc add dev lo root r2c2 help 2>&1 | grep -q announce_after ||
	ksft_skip_all "tc's r2c2 plugin has no announce_after (make -C tc install)"
ksft_plan 7

S=r2c2-a0
R=r2c2-a1
DST=10.44.0.1
PIDS=()

cleanup_flood()
{
	((${#PIDS[@]})) && stop_pids "${PIDS[@]}"
	PIDS=()
}
cleanup_add cleanup_flood

# flood ARGS...: r2c2_udpflood in the sender's namespace, in the background
flood()
{
	ip netns exec "$S" "$FLOOD" -d "$DST" "$@" >/dev/null &
	PIDS+=($!)
}

xstats() { ip netns exec "$S" "$TC" -j -s qdisc show dev r2c0 | jq '.[0]'; }
now_us() { local t=$EPOCHREALTIME; printf '%s\n' "${t/./}"; }

# events TYPE [FLOW]: flow events of node 0 heard at node 1 so far
events()
{
	local pat="flow $1 src 0 flow "

	[[ -z ${2:-} ]] || pat+="$2( |\$)"
	grep -cE "$pat" "$MON"
}

# heard TYPE ID: node 1's monitor printed a TYPE event of node 0's flow
# ID (not of one whose id merely starts with it); fails on an empty ID
heard()
{
	[[ $2 == 0x* ]] && grep -qE "flow $1 src 0 flow $2( |\$)" "$MON"
}

# marker: an UPDATE event of node 0 for a flow no test uses, sent after
# the events being waited for, then waited for at node 1. Node 0's flow
# events leave by the same port in order, so once node 1's monitor has
# printed the marker it has printed every event sent before it: a
# condition, where a fixed sleep passes when an event is merely late.
MARKS=0
marker()
{
	local m

	MARKS=$((MARKS + 1))
	m=$(printf '0xfe%06x' "$MARKS")
	ip netns exec "$S" r2c2ctl event send flow "$m" dst 1 type update || return 1
	busywait 10000 heard update "$m"
}

# watch_flow SPORT SECS: sample the flow of SPORT at the sender until
# SECS pass or it is no longer pending; one line "us state packets
# bytes flowid" a sample. One process a sample (r2c2ctl, parsed by bash
# in the namespace): under TCG each process start costs 50-200 ms.
watch_flow()
{
	# shellcheck disable=SC2016  # expanded by the inner bash
	ip netns exec "$S" bash -c '
		re="^flow (0x[0-9a-f]+) .* sport $1 .*\\(([a-z]+).* packets ([0-9]+) bytes ([0-9]+) "
		end=$((${EPOCHREALTIME/./} + $2 * 1000000))
		while ((${EPOCHREALTIME/./} < end)); do
			while read -r l; do
				[[ $l =~ $re ]] || continue
				echo "${EPOCHREALTIME/./} ${BASH_REMATCH[2]} ${BASH_REMATCH[3]} ${BASH_REMATCH[4]} ${BASH_REMATCH[1]}"
				[[ ${BASH_REMATCH[2]} == pending ]] || exit 0
			done < <(r2c2ctl qflow show)
		done' watch_flow "$1" "$2"
}

# ------------------------------------------------------------------ setup
RET=0
line2_create "$S" "$R"
check_err $? "two-node line: namespaces, veth, r2c2ctl node set / port add"
# no IPv6 on r2c0: its MLD reports and router solicitations, packets
# hundreds of ms apart, would make flows of their own that the 200 ms
# threshold announces (seen in CI: one such flow among the 50 short ones)
for ns in "$S" "$R"; do
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.r2c0.disable_ipv6=1
	ip -n "$ns" link set r2c0 up
	ip -n "$ns" addr add "10.44.0.${ns#r2c2-a}/16" dev r2c0
done
busywait 10000 bash -c "ip netns exec $S r2c2ctl -j node show | json_assert '.nodes == 2'"
check_err $? "the two nodes did not see each other"
busywait 5000 ip netns exec "$S" ping -c 1 -W 1 "$DST" >/dev/null
check_err $? "no ping over r2c0"
# the neighbour entry stays valid through the test: no ARP flows later
ip -n "$S" neigh replace "$DST" lladdr "$(ip -n "$R" -j link show r2c0 | jq -r '.[0].address')" \
	dev r2c0 nud permanent
log_test "two-node line up, ping over r2c0"

# node 1 hears node 0's flow events, each line stamped with its time (us)
MON=$(mktemp)
ip netns exec "$R" timeout 300 r2c2ctl monitor > >(
	while IFS= read -r l; do printf '%s %s\n' "${EPOCHREALTIME/./}" "$l"; done >"$MON") 2>&1 &
MON_PID=$!
cleanup_add "kill $MON_PID"
sleep 0.5

# ------------------------------------------------------------------ time threshold
RET=0
# idle 1 s: a starved guest stalls the sender for hundreds of ms, which
# must not end (and restart) the long flows below
ip netns exec "$S" "$TC" qdisc add dev r2c0 root r2c2 idle 1s announce_after 200ms
check_err $? "tc qdisc add ... announce_after 200ms"
ip netns exec "$S" "$TC" qdisc show dev r2c0 | grep -q "announce_after 200ms announce_bytes 0b"
check_err $? "tc qdisc show does not show announce_after"
log_test "tc qdisc add dev r2c0 root r2c2 announce_after 200ms"

RET=0
s0=$(events start) f0=$(events finish)
st0=$(xstats)
# 50 flows of two packets each, 50 sends apart (round robin), then idle:
# each lives well below 200 ms (a packet count, not a time: a starved
# guest may stall the sender for longer than a time window)
ip netns exec "$S" "$FLOOD" -d "$DST" -b 20000 -n 50 -c 100 -t 10 -l 100 >/dev/null
check_err $? "r2c2_udpflood (50 short flows)"
busywait 10000 bash -c "ip netns exec $S $TC -j -s qdisc show dev r2c0 | json_assert '.[0].flows_unannounced >= 50 and .[0].flows == 0'"
check_err $? "the 50 short flows were not collected as unannounced"
marker
check_err $? "node 1 did not hear the marker event sent after the short flows"
st=$(xstats)
log_info "$(jq -c '{flows_started, flows_announced, flows_finished, flows_unannounced, events_saved}' <<<"$st")"
[[ $(jq '.flows_announced' <<<"$st") -eq $(jq '.flows_announced' <<<"$st0") &&
   $(jq '.flows_finished' <<<"$st") -eq $(jq '.flows_finished' <<<"$st0") ]]
check_err $? "short flows were announced: $(jq -c '{flows_announced, flows_finished}' <<<"$st"), was $(jq -c '{flows_announced, flows_finished}' <<<"$st0")"
[[ $(jq '.events_saved' <<<"$st") -eq $((2 * $(jq '.flows_unannounced' <<<"$st"))) ]]
check_err $? "events_saved is not 2 x flows_unannounced"
s1=$(events start) f1=$(events finish)
((s1 == s0 && f1 == f0))
check_err $? "node 1 heard $((s1 - s0)) START and $((f1 - f0)) FINISH events of short flows"
log_test "50 flows of 2 packets: no START, no FINISH at node 1, counted as unannounced"

# A long flow, with the threshold raised live to 2 s (long against a
# starved TCG guest's process starts, so the samples see it pending and
# the launch-to-START time tells a delayed START from one at the first
# packet): 100 packets/s for 4 s. It must be seen pending at the sender,
# never past 260 packets (its sender paces from its start: p packets
# take >= (p - 1) x 10 ms; 30 % for a first packet held up in a stalled
# guest), then announced once, its START heard 2 .. 7 s after its launch,
# and finish once after it stops. When the sender's samples come too
# late to see it pending, try again (each try's flow is announced).
RET=0
ip netns exec "$S" "$TC" qdisc change dev r2c0 root r2c2 announce_after 2s
check_err $? "tc qdisc change announce_after 2s"
a0=$(xstats | jq '.flows_announced')
for try in 1 2 3; do
	sp=$((21000 + try))
	t0=$(now_us)
	flood -b $sp -n 1 -t 4 -l 500 -r 100
	W=$(watch_flow $sp 8)
	pend=$(grep -c " pending " <<<"$W")
	id=$(awk 'END { print $5 }' <<<"$W")
	[[ $pend -gt 0 ]] && break
	log_info "try $try: the flow was not sampled while pending (first sample: $(head -n 1 <<<"$W"))"
	cleanup_flood
done
log_info "flow $id: $pend samples pending (last: $(grep " pending " <<<"$W" | tail -n 1 | cut -d' ' -f3-4) packets bytes), then: $(tail -n 1 <<<"$W" | cut -d' ' -f2-4)"
[[ $pend -gt 0 ]]
check_err $? "the long flow was never pending at the sender"
bad=$(awk '$2 == "pending" && $3 > 260' <<<"$W")
[[ -z $bad ]]
check_err $? "pending after more than 260 packets (2.6 s): $bad"
busywait 8000 heard start "$id"
check_err $? "no START of $id at node 1"
ts=$(grep -E "flow start src 0 flow $id( |\$)" "$MON" | awk 'NR == 1 { print $1 }')
dt=$(((${ts:-0} - t0) / 1000))
log_info "START of $id at node 1 ${dt} ms after the flow was launched"
((dt >= 2000 && dt <= 7000))
check_err $? "START ${dt} ms after the launch, not within 2000..7000 ms"
cleanup_flood
busywait 8000 heard finish "$id"
check_err $? "no FINISH of $id at node 1"
marker
check_err $? "node 1 did not hear the marker event sent after the FINISH"
[[ $(events start "$id") -eq 1 && $(events finish "$id") -eq 1 ]]
check_err $? "node 1 heard $(events start "$id") START and $(events finish "$id") FINISH of $id, not 1 and 1"
st=$(xstats)
# one announced flow a try (a try's flow is announced before it is dropped)
[[ $(jq '.flows_announced' <<<"$st") -eq $((a0 + try)) ]]
check_err $? "xstats: $(jq -c '{flows_announced}' <<<"$st") after $try tries, was $a0"
log_test "a long flow is announced once, 2 s after its first packet, and finishes"

# ------------------------------------------------------------------ byte threshold
RET=0
ip netns exec "$S" "$TC" qdisc change dev r2c0 root r2c2 announce_after 0 announce_bytes 100000
check_err $? "tc qdisc change announce_after 0 announce_bytes 100000"
s0=$(events start) f0=$(events finish) u0=$(xstats | jq '.flows_unannounced')
ip netns exec "$S" "$FLOOD" -d "$DST" -b 22000 -n 50 -c 100 -t 10 -l 100 >/dev/null
check_err $? "r2c2_udpflood (50 small flows)"
busywait 10000 bash -c "ip netns exec $S $TC -j -s qdisc show dev r2c0 | json_assert '.[0].flows_unannounced >= $u0 + 50 and .[0].flows == 0'"
check_err $? "the 50 small flows were not collected as unannounced"
marker
check_err $? "node 1 did not hear the marker event sent after the small flows"
s1=$(events start) f1=$(events finish)
((s1 == s0 && f1 == f0))
check_err $? "node 1 heard $((s1 - s0)) START and $((f1 - f0)) FINISH events of small flows"
log_test "announce_bytes 100000: 50 flows of ~300 bytes raise no event"

# A flow of 1042-byte frames at 50 packets/s (~1.9 s to 100000 bytes):
# pending in every sample with less than 100000 bytes sent, announced
# (once) in every sample with that much.
RET=0
for try in 1 2 3; do
	sp=$((23000 + try))
	flood -b $sp -n 1 -t 4 -l 1000 -r 50
	W=$(watch_flow $sp 8)
	pend=$(grep -c " pending " <<<"$W")
	id=$(awk 'END { print $5 }' <<<"$W")
	[[ $pend -gt 0 ]] && break
	cleanup_flood
	sleep 0.5
done
log_info "flow $id: $pend samples pending, then: $(tail -n 1 <<<"$W" | cut -d' ' -f2-4)"
[[ $pend -gt 0 ]]
check_err $? "the flow was never pending at the sender"
bad=$(awk '($2 == "pending" && $4 >= 100000) || ($2 != "pending" && $4 < 100000)' <<<"$W")
[[ -z $bad ]]
check_err $? "state does not follow 100000 bytes sent: $bad"
tail -n 1 <<<"$W" | grep -qv " pending "
check_err $? "the flow was not announced within 8 s"
cleanup_flood
busywait 8000 heard finish "$id"
check_err $? "no FINISH of $id at node 1"
marker
check_err $? "node 1 did not hear the marker event sent after the FINISH"
[[ $(events start "$id") -eq 1 && $(events finish "$id") -eq 1 ]]
check_err $? "node 1 heard $(events start "$id") START and $(events finish "$id") FINISH of $id, not 1 and 1"
log_test "a flow is announced once when it has sent 100000 bytes, and finishes"

# ------------------------------------------------------------------ both 0
RET=0
ip netns exec "$S" "$TC" qdisc change dev r2c0 root r2c2 announce_after 0 announce_bytes 0
check_err $? "tc qdisc change announce_after 0 announce_bytes 0"
a0=$(xstats | jq '.flows_announced')
flood -b 24000 -n 1 -t 0.3 -l 100 -r 100
W=$(watch_flow 24000 3)
id=$(awk 'END { print $5 }' <<<"$W")
! grep -q " pending " <<<"$W"
check_err $? "with both thresholds 0 the flow was pending: $(head -n 1 <<<"$W")"
busywait 8000 heard start "$id"
check_err $? "no START of $id at node 1"
cleanup_flood
busywait 8000 heard finish "$id"
check_err $? "no FINISH of $id at node 1"
st=$(xstats)
[[ $(jq '.flows_announced' <<<"$st") -gt $a0 ]]
check_err $? "xstats: $(jq -c '{flows_announced}' <<<"$st"), was $a0"
log_test "both thresholds 0: a 300 ms flow is announced at its first packet and finishes"

ip netns exec "$S" "$TC" qdisc del dev r2c0 root
rm -f "$MON"
ksft_exit
