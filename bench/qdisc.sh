#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# qdisc.sh - sch_r2c2 against sch_fq (per-flow maxrate) and htb, in one
# VM run: rate accuracy and packets per second with many flows.
#
#	r2c2-ba (sender)  va ======= vb  r2c2-bb (receiver)
#	  qdisc under test on va          r2c2_udpsink
#
#   scripts/vm-run --kernel 6.12 -- bench/qdisc.sh [accuracy] [pps]
#
# accuracy: one UDP flow (1400-byte payload) at 1, 10, 100, 1000 Mbit/s
#   through each qdisc; achieved rate at the receiver over 1 s (after
#   1 s of warm-up) and over the next 3 s, against the set rate.
# pps: N flows (64-byte payload, one source port each) through each
#   qdisc with every flow rate-limited at 10 Gbit/s / N (the qdisc, not the
#   limit, is what is measured); packets per second at the receiver over
#   2 s. N = 10, 1000, 10000, 50000. htb gets N classes and a flow
#   classifier (hash of the source port) at 10 and 1000 flows only: htb
#   cannot build 10000 classes in reasonable time here.
# Prints one line per measurement: "bench qdisc KIND ... ".

cd "$(dirname "$0")/.." || exit 1
TC=/usr/sbin/tc
[[ -x "$TC" ]] || TC=$(command -v tc)
FLOOD=selftests/tools/r2c2_udpflood
SINK=selftests/tools/r2c2_udpsink
[[ -x "$FLOOD" ]] || FLOOD=$(command -v r2c2_udpflood)
[[ -x "$SINK" ]] || SINK=$(command -v r2c2_udpsink)
A=r2c2-ba
B=r2c2-bb
what=${*:-accuracy pps}

modprobe -q sch_fq; modprobe -q sch_htb; modprobe -q cls_flow
modprobe -q sch_r2c2 || { modprobe -q r2c2 && insmod "build/$(uname -r)/sch_r2c2.ko"; }
ip netns del $A 2>/dev/null; ip netns del $B 2>/dev/null
ip netns add $A && ip netns add $B || exit 1
trap 'ip netns del $A; ip netns del $B' EXIT
ip link add va netns $A type veth peer name vb netns $B
ip -n $A addr add 10.77.0.1/24 dev va
ip -n $B addr add 10.77.0.2/24 dev vb
ip -n $A link set va up; ip -n $B link set vb up
ip -n $A link set lo up; ip -n $B link set lo up
ip netns exec $A ping -c 1 -W 2 10.77.0.2 >/dev/null

echo "bench qdisc: kernel $(uname -r), $(nproc) vCPU, $(date -u +%Y-%m-%dT%H:%MZ)"

# setup KIND RATE_BPS FLOWS: the qdisc under test on va, every flow
# limited at RATE_BPS bit/s
setup()
{
	local kind=$1 rate=$2 flows=$3 i

	ip netns exec $A "$TC" qdisc del dev va root 2>/dev/null
	case $kind in
	r2c2)
		# idle 60s: a round robin over 50000 flows from a starved
		# sender revisits a flow after more than the default 3 s, and
		# a collected flow comes back as a new one (start and finish
		# events, broadcasts): churn, not the cost of a packet
		ip netns exec $A "$TC" qdisc add dev va root r2c2 limit 1000000 \
			flow_limit 100 initial_rate "${rate}bit" nolease \
			maxflows 100000 buckets 65536 catchup 2ms idle 60s ;;
	fq)
		# raw-socket packets are "orphans" to fq: hash them into
		# enough flows (the default orphan_mask folds them into 1024)
		ip netns exec $A "$TC" qdisc add dev va root fq limit 1000000 \
			flow_limit 100 maxrate "${rate}bit" buckets 65536 \
			orphan_mask 131071 ;;
	htb)
		{
			echo "qdisc add dev va root handle 1: htb default 1"
			for ((i = 1; i <= flows; i++)); do
				printf 'class add dev va parent 1: classid 1:%x htb rate %sbit ceil %sbit\n' \
					"$i" "$rate" "$rate"
			done
			echo "filter add dev va parent 1: protocol ip prio 1 handle 1 flow hash keys proto-src divisor $flows baseclass 1:1"
		} >/tmp/htb.batch
		ip netns exec $A "$TC" -batch /tmp/htb.batch ;;
	esac
}

# run FLOWS LEN WARM WIN [WIN2]: flood and measure; prints "pps bit/s"
# of the receiver's window, summed over flows (and "bit/s" of a second,
# following window of WIN2 s)
run()
{
	local flows=$1 len=$2 warm=$3 win=$4 win2=${5:-} pid out out2=

	ip netns exec $A "$FLOOD" -d 10.77.0.2 -n "$flows" -l "$len" \
		-t $((warm + win + ${win2:-0} + 30)) -B 67108864 >/dev/null &
	pid=$!
	out=$(ip netns exec $B "$SINK" -w "$warm" -t "$win")
	[[ -n $win2 ]] && out2=$(ip netns exec $B "$SINK" -w 0 -t "$win2")
	kill $pid 2>/dev/null; wait $pid 2>/dev/null
	awk -v win="$win" '{ p += $4; b += $8 } END { printf "%d %.0f ", p / win, b }' <<<"$out"
	awk '{ b += $8 } END { printf "%.0f\n", b }' <<<"$out2"
}

if [[ $what == *accuracy* ]]; then
	for rate in 1000000 10000000 100000000 1000000000; do
		for kind in r2c2 fq htb; do
			setup $kind $rate 1
			read -r pps got got3 < <(run 1 1400 1 1 3)
			awk -v k=$kind -v r="$rate" -v g="$got" -v g3="$got3" 'BEGIN {
				printf "bench qdisc %s accuracy rate %.0fMbit 1s %.3fMbit %+.2f%% 3s %.3fMbit %+.2f%%\n",
					k, r / 1e6, g / 1e6, (g - r) * 100 / r, g3 / 1e6, (g3 - r) * 100 / r }'
		done
	done
fi

if [[ $what == *pps* ]]; then
	for flows in 10 1000 10000 50000; do
		for kind in r2c2 fq htb; do
			if [[ $kind == htb && $flows -gt 1000 ]]; then
				continue
			fi
			setup $kind $((10000000000 / flows)) $flows
			# every flow must have started before the window
			read -r pps got _ < <(run $flows 64 $((2 + flows / 4000)) 2)
			st=$(ip netns exec $A "$TC" -s -j qdisc show dev va | jq -c '.[0] | {drops, flows}')
			echo "bench qdisc $kind pps flows $flows pps $pps $st"
		done
	done
fi
ip netns exec $A "$TC" qdisc del dev va root 2>/dev/null
