#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# qdisc_test.sh - sch_r2c2 on r2c0 of a two-node line: flow start and
# finish events, rates set through r2c2ctl enforced within 2 %, rates
# changed mid-flow, the lease falling back to the safe rate, 10,000
# concurrent flows, deleting the qdisc and unloading the module while
# traffic flows.
#
#	r2c2-q0                          r2c2-q1
#	+---------------------+  veth   +---------------------+
#	| r2c0 10.42.0.0/16   |p0 -- p0|  r2c0 10.42.0.1/16   |
#	|  root r2c2 (sender) |         |  (receiver, monitor)|
#	+---------------------+         +---------------------+
#
# Rates are measured where they are enforced: the bytes the qdisc
# dequeued for each flow (r2c2ctl -j qflow show, the length tc counts)
# over a window of 6 s or more, timed to the ms by the kernel (the
# difference of a leased flow's lease_ms between the two dumps). The qdisc
# must be the bottleneck throughout: each flow's queue is sampled three
# times in the window and must never be empty (a window in which a
# starved sender let a queue run dry is measured again, up to 3 times).
# An earlier version counted at the receiver and read 6-12 % low at host
# load ~9: a TCG guest's veth, receiver and its clock reads lag behind the
# qdisc; counted at the qdisc, the rates were within 0.05 % at load ~8
# (2026-11-21). The rates are low (0.5-3 Mbit/s) and catchup is 1 s, so
# that vCPU stalls of a TCG guest on a busy host (hundreds of ms at load
# ~10 on 2 cores) do not lower the long-run rate.

lib_dir=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"

require_root
require_cmd ip jq awk
require_module veth
require_r2c2

TC=/usr/sbin/tc
[[ -x $TC ]] || TC=$(command -v tc)
FLOOD=$lib_dir/tools/r2c2_udpflood
[[ -x $FLOOD ]] || FLOOD=$(command -v r2c2_udpflood)
SINK=$lib_dir/tools/r2c2_udpsink
[[ -x $SINK ]] || SINK=$(command -v r2c2_udpsink)
[[ -x $FLOOD && -x $SINK ]] ||
	ksft_skip_all "selftests/tools/r2c2_udp{flood,sink} not built (make -C selftests/tools)"
[[ -d /sys/module/sch_r2c2 ]] || ksft_skip_all "sch_r2c2.ko not loaded"
$TC qdisc add dev lo root r2c2 help 2>&1 | grep -q initial_rate ||
	ksft_skip_all "tc has no r2c2 plugin (q_r2c2.so: make -C tc install)"
ksft_plan 10

S=r2c2-q0
R=r2c2-q1
DST=10.42.0.1
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

qflows() { ip netns exec "$S" r2c2ctl -j qflow show; }
xstats() { ip netns exec "$S" "$TC" -j -s qdisc show dev r2c0 | jq '.[0]'; }

# id_of SPORT: flow id of the flow with that source port
id_of() { qflows | jq -r --argjson p "$1" '.[] | select(.sport == $p) | .flow'; }

# empty_flows JSON SPORTS: source ports (of SPORTS) whose queue is empty
empty_flows()
{
	jq -r --arg sp "$2" '($sp | split(" ") | map(tonumber)) as $w |
		.[] | select(.sport as $p | $w | index($p)) |
		select(.qlen == 0) | .sport' <<<"$1" | tr '\n' ' '
}

# within2 GOT WANT: |GOT - WANT| <= 2 % of WANT
within2() { awk -v g="$1" -v w="$2" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= 0.02 * w) }'; }

# measure "SPORT ..." SECONDS: "sport bit/s" of the given flows, from the
# bytes the qdisc dequeued over a window of SECONDS in which every one of
# them stayed backlogged; returns 1 when no such window came in 3 tries.
# The window is timed by the kernel: a flow's lease_ms is its lease end
# minus the time of the dump, so for a flow whose lease ran through the
# window (no rate set in between) the two dumps are lease_ms apart.
measure()
{
	local sports=$1 secs=$2 try j0 j1 dry

	for ((try = 1; try <= 3; try++)); do
		j0=$(qflows) || return 1
		dry=$(empty_flows "$j0" "$sports")
		# one sample within (each costs ~1-3 s in a loaded TCG guest)
		sleep "$(awk -v s="$secs" 'BEGIN { print s / 2 }')"
		dry+=$(empty_flows "$(qflows)" "$sports")
		sleep "$(awk -v s="$secs" 'BEGIN { print s / 2 }')"
		j1=$(qflows) || return 1
		dry+=$(empty_flows "$j1" "$sports")
		if [[ -n ${dry// /} ]]; then
			log_info "window $try: queue of sport(s) $dry ran dry (sender starved), measuring again" >&2
			continue
		fi
		jq -r -n --argjson a "$j0" --argjson b "$j1" --arg sp "$sports" '
			($sp | split(" ") | map(tonumber)) as $w |
			($a | map({key: (.flow | tostring), value: .}) | from_entries) as $f0 |
			([$b[] | select((.lease_ms // 0) > 0) |
			  select((($f0[.flow | tostring].lease_ms) // 0) > 0) |
			  $f0[.flow | tostring].lease_ms - .lease_ms] | max) as $ms |
			if $ms == null or $ms <= 0 then "none" else
			"window \($ms)",
			($b[] | select(.sport as $p | $w | index($p)) |
			 "\(.sport) \(((.bytes - $f0[.flow | tostring].bytes) * 8000 / $ms) | floor)")
			end'
		return 0
	done
	return 1
}

# check_rates SECONDS "SPORT:RATE ...": each flow within 2 % of its rate.
# A window with flows below is measured again (3 windows at most): the
# guest's vCPUs sometimes stall for longer than catchup (1 s, its
# maximum) on a busy host, and no rate limiter sends while its CPU does
# not run (seen once at load ~10, every flow -2.05 % alike in a 16 s
# window). The window after such a stall may be high: the flows make up
# for it by up to CATCHUP_S of their rate (seen at load ~12: -2.4 % in
# one window, +5.3 % alike in the next). A flow above what the qdisc may
# send in a window, rate x (window + catchup + batch) plus one packet,
# fails at once; one above 2 % but within that bound is measured again.
CATCHUP_S=1
check_rates()
{
	local secs=$1 spec=$2 sports=() e sp got want out try low high ms catch
	declare -A want_of

	for e in $spec; do
		sports+=("${e%%:*}")
		want_of[${e%%:*}]=${e##*:}
	done
	for ((try = 1; try <= 3; try++)); do
		if ! out=$(measure "${sports[*]}" "$secs"); then
			check_err 1 "no window of $secs s with every queue backlogged (or qflow show failed)"
			return
		fi
		if [[ $out == none ]]; then
			check_err 1 "no flow with a lease through the window to time it"
			return
		fi
		log_info "$(head -n 1 <<<"$out") ms (kernel time), every queue backlogged at 3 samples"
		ms=$(head -n 1 <<<"$out" | awk '{ print $2 }')
		low=() high=() catch=()
		declare -A seen=()
		while read -r sp got; do
			[[ -n ${want_of[$sp]:-} ]] || continue
			want=${want_of[$sp]}
			seen[$sp]=1
			log_info "flow sport $sp: $got bit/s dequeued, set $want ($(awk -v g="$got" -v w="$want" 'BEGIN { printf "%+.2f %%", (g - w) * 100 / w }'))"
			within2 "$got" "$want" && continue
			if ((got > want)); then
				# rate x (window + catchup + 200 us batch) + a 1500-byte packet
				if awk -v g="$got" -v w="$want" -v ms="$ms" -v c="$CATCHUP_S" \
					'BEGIN { exit !(g * ms / 1000 <= w * (ms / 1000 + c + 0.0002) + 12000) }'; then
					catch+=("sport $sp: $got bit/s")
				else
					high+=("sport $sp: $got bit/s is more than 2 % above $want and above what catchup allows")
				fi
			else
				low+=("sport $sp: $got bit/s is more than 2 % below $want")
			fi
		done <<<"$out"
		for sp in "${!want_of[@]}"; do
			[[ -n ${seen[$sp]:-} ]] || high+=("sport $sp: no such flow in qflow show")
		done
		unset seen
		if ((${#high[@]})); then
			check_err 1 "${high[*]}"
			return
		fi
		((${#low[@]} + ${#catch[@]})) || return
		((${#low[@]})) &&
			log_info "window $try: ${#low[@]} flow(s) more than 2 % low (a guest stall longer than catchup?), measuring again"
		((${#catch[@]})) &&
			log_info "window $try: ${#catch[@]} flow(s) more than 2 % high but within catchup (making up for a stall?), measuring again"
	done
	check_err 1 "${low[*]} ${catch[*]} (3 windows, none within 2 %)"
}

# ------------------------------------------------------------------ setup
RET=0
line2_create "$S" "$R"
check_err $? "two-node line: namespaces, veth, r2c2ctl node set / port add"
for ns in "$S" "$R"; do
	ip -n "$ns" link set r2c0 up
	ip -n "$ns" addr add "10.42.0.${ns#r2c2-q}/16" dev r2c0
done
busywait 10000 bash -c "ip netns exec $S r2c2ctl -j node show | json_assert '.nodes == 2'"
check_err $? "the two nodes did not see each other"
busywait 5000 ip netns exec "$S" ping -c 1 -W 1 "$DST" >/dev/null
check_err $? "no ping over r2c0"
log_test "two-node line up, ping over r2c0"

RET=0
ip netns exec "$S" "$TC" qdisc add dev r2c0 root r2c2 limit 100000 flow_limit 2000 \
	initial_rate 1mbit safe_rate 1500kbit lease 120s idle 500ms catchup 1s
check_err $? "tc qdisc add dev r2c0 root r2c2"
ip netns exec "$S" "$TC" qdisc show dev r2c0 | grep -q "qdisc r2c2 .*initial_rate 1Mbit"
check_err $? "tc qdisc show does not show the options"
log_test "tc qdisc add dev r2c0 root r2c2 with options"

# the receiver hears flow events from the whole test
MON=$(mktemp)
ip netns exec "$R" timeout 600 r2c2ctl monitor >"$MON" 2>&1 &
MON_PID=$!
cleanup_add "kill $MON_PID"
sleep 0.5

# ------------------------------------------------------------------ rates
RET=0
# one process (one socket) per flow: each is held back by its own queue;
# a send buffer of ~1700 packets keeps the flow backlogged through long
# stalls of a starved sender (below flow_limit, so nothing is dropped).
# The fourth flow's lease, 120 s from its rate set, times the windows of
# the lease test, where the other three run at the safe rate.
for sp in 20000 20001 20002 20003; do
	flood -b $sp -t 600 -l 1000 -B 2000000
done
busywait 10000 bash -c "ip netns exec $S r2c2ctl -j qflow show | json_assert '[.[] | select(.sport >= 20000 and .sport <= 20003)] | length == 4'"
check_err $? "the four flows are not in qflow show"
ids=()
for sp in 20000 20001 20002 20003; do
	ids+=("$(id_of $sp)")
done
log_info "flow ids: ${ids[*]}"
check_rates 6 "20000:1000000 20001:1000000 20002:1000000 20003:1000000"
log_test "new flows send at the initial rate (1 Mbit/s)"

RET=0
grep -q "flow start src 0 flow ${ids[0]} dst 1" "$MON"
check_err $? "no flow start event at the receiver: $(tr -d '\0' <"$MON" | head -c 300)"
log_test "a new flow raises a flow start at the other node"

RET=0
ip netns exec "$S" r2c2ctl rate set "${ids[0]}" 1M "${ids[1]}" 2M "${ids[2]}" 3M "${ids[3]}" 500k
check_err $? "r2c2ctl rate set"
check_rates 6 "20000:1000000 20001:2000000 20002:3000000 20003:500000"
qflows | json_assert '[.[] | select(.sport >= 20000 and .sport <= 20003) | .state] | length == 4 and all(. == "set")'
check_err $? "flows not in state set"
log_test "four flows at 1, 2, 3 and 0.5 Mbit/s, each within 2 %"

RET=0
ip netns exec "$S" r2c2ctl rate set "${ids[0]}" 3M "${ids[2]}" 1M
check_err $? "r2c2ctl rate set"
check_rates 6 "20000:3000000 20001:2000000 20002:1000000 20003:500000"
log_test "rates changed mid-flow take effect (1 and 3 Mbit/s swapped)"

# ------------------------------------------------------------------ lease
RET=0
ip netns exec "$S" "$TC" qdisc change dev r2c0 root r2c2 lease 3s
check_err $? "tc qdisc change lease 3s"
ip netns exec "$S" r2c2ctl rate set "${ids[0]}" 2M "${ids[1]}" 2M "${ids[2]}" 2M
qflows | json_assert '[.[] | select(.sport >= 20000 and .sport <= 20002) | .state] | length == 3 and all(. == "set")'
check_err $? "flows not in state set after rate set"
sleep 3.2
check_rates 6 "20000:1500000 20001:1500000 20002:1500000 20003:500000"
qflows | json_assert '[.[] | select(.sport >= 20000 and .sport <= 20002) | .state] | length == 3 and all(. == "safe")'
check_err $? "flows did not fall back to the safe rate"
exp=$(xstats | jq '.leases_expired')
[[ $exp -ge 3 ]]
check_err $? "leases_expired $exp < 3"
log_test "lease: no update for 3 s, flows fall back to the safe rate (1.5 Mbit/s)"

RET=0
cleanup_flood
# the queues (up to ~1700 packets a flow) drain first, fast at 100 Mbit/s,
# then idle 500 ms
ip netns exec "$S" r2c2ctl rate set "${ids[0]}" 100M "${ids[1]}" 100M \
	"${ids[2]}" 100M "${ids[3]}" 100M
busywait 20000 grep -q "flow finish src 0 flow ${ids[0]}" "$MON"
check_err $? "no flow finish event for ${ids[0]} at the receiver"
busywait 20000 bash -c "ip netns exec $S $TC -j -s qdisc show dev r2c0 | json_assert '.[0].flows_finished >= 3'"
check_err $? "flows_finished < 3"
st=$(xstats)
[[ $(jq '.backlog' <<<"$st") -eq 0 && $(jq '.qlen' <<<"$st") -eq 0 ]]
check_err $? "after the flows: $(jq -c '{flows_finished, backlog, qlen}' <<<"$st")"
log_test "idle flows finish: event at the receiver, backlog and qlen back to 0"

# ------------------------------------------------------------------ 10k flows
RET=0
ip netns exec "$S" "$TC" qdisc del dev r2c0 root &&
	ip netns exec "$S" "$TC" qdisc add dev r2c0 root r2c2 limit 200000 flow_limit 5 \
		initial_rate 1kbit safe_rate 1kbit nolease idle 60s maxflows 20000
check_err $? "tc qdisc del + add"
t0=$(date +%s.%N)
flood -b 30000 -n 10000 -t 600 -l 100 -r 4000 -B 67108864
# (9999: two of the ports may share a flow id, below)
busywait 60000 bash -c "ip netns exec $S $TC -j -s qdisc show dev r2c0 | json_assert '.[0].flows >= 9999'"
check_err $? "the qdisc never tracked 9999 flows"
D=$(mktemp)
# the flood's flows only (r2c0 carries a little other traffic, so the
# total may reach 10000 before the flood's last flow). A flow id is a
# 32-bit hash of the UDP 4-tuple (skb_get_hash(), seeded at boot), so two
# of the 10000 ports share one id, and one qdisc flow that keeps the
# first port, in C(10000, 2) / 2^32 = 1.2 % of the runs; two such pairs
# in 0.007 %. So one port may be missing: it is named in the log.
busywait 20000 bash -c "ip netns exec $S r2c2ctl -j qflow show |
	jq '[.[] | select(.sport >= 30000 and .sport < 40000)]' >$D &&
	json_assert 'length == 10000' $D"
el=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
n=$(jq 'length' "$D")
if ((n != 10000)); then
	log_info "qflow show lists $n of the 10000 ports; missing: $(jq -c '[.[].sport] as $s | [range(30000; 40000)] - $s' "$D")"
fi
[[ $n -ge 9999 && $(jq '[.[].flow] | unique | length' "$D") -eq $n ]]
check_err $? "qflow show lists $n flows (ids: $(jq '[.[].flow] | unique | length' "$D") distinct)"
# ... but a dump lists every flow the qdisc counts (none ends: idle 60s)
f1=$(xstats | jq '.flows')
all=$(qflows | jq 'length')
f2=$(xstats | jq '.flows')
[[ $all -ge $f1 && $all -le $f2 ]]
check_err $? "qflow show lists $all flows, the qdisc counts $f1..$f2"
# at 1 kbit/s a 142-byte frame takes 1.136 s: one at once, then one per
# 1.136 s (+1 for slack). (A TCG guest cannot offer 10000 flows more than
# that, so pacing itself is checked with the three flows above; this part
# checks scale: tracking, dump, batched rate pushes, events.)
over=$(jq --argjson el "$el" '[.[] | select(.packets > 2 + $el / 1.136)] | length' "$D")
[[ $over -eq 0 ]]
check_err $? "$over flows sent more than 1 kbit/s allows in $el s"
st=$(xstats)
log_info "after $el s: $(jq -c '{flows, flows_active, flows_started, throttled, drops_flow_limit, events_lost}' <<<"$st")"
[[ $(jq '.events_lost' <<<"$st") -eq 0 ]]
check_err $? "flow events lost"
jq -r '.[] | "\(.flow) 2k"' "$D" >"$D.rates"
ip netns exec "$S" r2c2ctl rate set file "$D.rates"
check_err $? "rate set file with 10000 flows"
upd=$(xstats | jq '.rate_updates')
[[ $upd -eq $n ]]
check_err $? "rate_updates $upd, not $n"
rm -f "$D" "$D.rates"
log_test "10000 concurrent flows, each rate-limited, rates set in one batch"
cleanup_flood

# ------------------------------------------------------------------ teardown under load
RET=0
flood -b 40000 -n 100 -t 4 -l 1000
sleep 1
ip netns exec "$S" "$TC" qdisc del dev r2c0 root
check_err $? "tc qdisc del under load"
ip netns exec "$S" "$TC" qdisc add dev r2c0 root r2c2
check_err $? "tc qdisc add again (no options)"
sleep 0.5
ip netns exec "$S" "$TC" qdisc del dev r2c0 root
rmmod sch_r2c2
check_err $? "rmmod sch_r2c2 while traffic flows"
modprobe sch_r2c2 || insmod "$R2C2_REPO/build/$(uname -r)/sch_r2c2.ko"
check_err $? "load sch_r2c2 again"
log_test "delete the qdisc and unload the module while traffic flows"
cleanup_flood
rm -f "$MON"

ksft_exit
