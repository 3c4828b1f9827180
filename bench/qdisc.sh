#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# qdisc.sh - sch_r2c2 against sch_fq (per-flow maxrate) and htb, in one
# VM run: CPU cost per packet with many flows, and rate accuracy.
#
#	r2c2-ba (sender)  va ======= vb  r2c2-bb (receiver)
#	  qdisc under test on va          r2c2_udpsink / ingress drop
#
# Meant for a one-vCPU guest whose clock counts instructions (qemu
# -icount: guest time no longer depends on the host's load):
#
#   scripts/vm-run --kernel 6.12 --cpus 1 --icount 2 --timeout 1800 -- \
#	'BENCH_ICOUNT_SHIFT=2 bench/qdisc.sh [cost] [accuracy]'
#
# cost: N flows (64-byte UDP payload, one source port each, round robin
#   from one raw socket) through each qdisc, every flow rate-limited at
#   10 Gbit/s / N, far above what it gets: the limiters are set but do
#   not bind, the one vCPU is saturated, and what is measured is the
#   cost of a packet with N flows in the qdisc. The receiver drops every
#   packet at vb's ingress (matchall drop), so the path is the sender's
#   syscall, IP output, the qdisc, veth and that drop. Per phase of
#   BENCH_TIME s (BENCH_REPS phases after BENCH_WARM s + 1 s per 10,000
#   flows, so that every flow has started):
#
#	ns/pkt = busy jiffies of /proc/stat x 10 ms / packets dequeued
#
#   packets dequeued = delta of va's tx_packets (what the qdisc handed
#   to veth); and packets per second of guest time (the vCPU is
#   saturated: the inverse of the same cost, without the jiffy
#   granularity of busy time). pfifo is the baseline: (ns/pkt - pfifo's) is the cost of
#   the qdisc itself beyond a FIFO. Under -icount shift=S, ns/2^S is
#   instructions (printed when BENCH_ICOUNT_SHIFT=S is given).
#   N = BENCH_FLOWS (10 1000 10000 50000); htb (N classes, cls_flow on
#   the source port) up to BENCH_HTB_MAX flows (10000).
#
# accuracy: one UDP flow (1400-byte payload) at BENCH_RATES Mbit/s (1 10
#   100 1000) through each qdisc, BENCH_WINDOWS (5) consecutive 1-s
#   windows after 1 s of warm-up, measured
#     at the qdisc: bytes dequeued = delta of va's tx_bytes (frames, the
#       length the qdiscs count) over the guest clock, both read by bash
#       builtins (no fork between them: the window is exact to µs);
#     at the receiver: r2c2_udpsink, one 1-s window after another.
#   Error = achieved / set - 1. A 1-s window holds a whole number of
#   packets: at 1 Mbit/s (87 packets/s) that alone is +/-1.15 %; the
#   5-s mean is exact to 0.23 %. pfifo (no limit) shows what the VM
#   carries.
#
# BENCH_KINDS (pfifo r2c2 fq htb) picks the qdiscs; BENCH_R2C2_OPTS adds
# sch_r2c2 options (later ones win: "catchup 20ms", "batch 0");
# BENCH_STATS=1 prints, per accuracy measurement, the qdisc's statistics
# and what the guest did during the windows (jiffies by kind, local timer
# interrupts, NET_TX/NET_RX/HRTIMER softirqs, context switches);
# BENCH_SINK=0 runs accuracy without the receiving process (packets
# dropped at vb's ingress, as in cost): the one vCPU then carries the
# sender and the qdisc only.
# Prints lines "bench qdisc ..." and "result ...".

# The functions run in "ip netns exec $A bash -c" are exported to it.
# shellcheck disable=SC2317
cd "$(dirname "$0")/.." || exit 1
TC=/usr/sbin/tc
[[ -x "$TC" ]] || TC=$(command -v tc)
FLOOD=selftests/tools/r2c2_udpflood
SINK=selftests/tools/r2c2_udpsink
[[ -x "$FLOOD" ]] || FLOOD=$(command -v r2c2_udpflood)
[[ -x "$SINK" ]] || SINK=$(command -v r2c2_udpsink)
A=r2c2-ba
B=r2c2-bb
what=${*:-cost accuracy}
T=${BENCH_TIME:-1}
REPS=${BENCH_REPS:-5}
WARM=${BENCH_WARM:-1}
FLOWS=${BENCH_FLOWS:-10 1000 10000 50000}
KINDS=${BENCH_KINDS:-pfifo r2c2 fq htb}
HTB_MAX=${BENCH_HTB_MAX:-10000}
RATES=${BENCH_RATES:-1 10 100 1000}
WINDOWS=${BENCH_WINDOWS:-5}
SHIFT=${BENCH_ICOUNT_SHIFT:-}
STAT=/sys/class/net/va/statistics

modprobe -q sch_fq; modprobe -q sch_htb; modprobe -q cls_flow
modprobe -q cls_matchall; modprobe -q act_gact
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
# a permanent neighbour: the cost runs drop everything at vb's ingress,
# ARP replies included
ip -n $A neigh replace 10.77.0.2 dev va nud permanent \
	lladdr "$(ip -n $B -j link show dev vb | jq -r '.[0].address')"

echo "bench qdisc: kernel $(uname -r), $(nproc) vCPU, icount shift ${SHIFT:-?}, $(date -u +%Y-%m-%dT%H:%M:%SZ) (guest clock)"
(($(nproc) == 1)) || echo "# WARNING: $(nproc) vCPUs; the cost method wants one (vm-run --cpus 1)"

# setup KIND RATE_BPS FLOWS: the qdisc under test on va, every flow
# limited at RATE_BPS bit/s
setup()
{
	local kind=$1 rate=$2 flows=$3 i

	ip netns exec $A "$TC" qdisc del dev va root 2>/dev/null
	case $kind in
	pfifo)
		ip netns exec $A "$TC" qdisc add dev va root pfifo limit 10000 ;;
	r2c2)
		# idle 60s: flows are not collected between two visits of
		# the round robin
		# shellcheck disable=SC2086  # BENCH_R2C2_OPTS: split on purpose
		ip netns exec $A "$TC" qdisc add dev va root r2c2 limit 1000000 \
			flow_limit 100 initial_rate "${rate}bit" nolease \
			maxflows 100000 buckets 65536 catchup 2ms idle 60s \
			${BENCH_R2C2_OPTS:-} ;;
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
				printf 'class add dev va parent 1: classid 1:%x htb rate %sbit ceil %sbit quantum 1514\n' \
					"$i" "$rate" "$rate"
			done
			echo "filter add dev va parent 1: protocol ip prio 1 handle 1 flow hash keys proto-src divisor $flows baseclass 1:1"
		} >/tmp/htb.batch
		ip netns exec $A "$TC" -batch /tmp/htb.batch ;;
	esac
}

# busy jiffies (USER_HZ) of the aggregate cpu line, no fork
busy()
{
	local u n s irq sirq steal

	read -r _ u n s _ _ irq sirq steal _ </proc/stat
	echo $((u + n + s + irq + sirq + steal))
}

# va's counter $1 (tx_packets, tx_bytes), no fork (sysfs of a device
# is read in the reader's namespace: run under ip netns exec $A)
ctr() { local v; read -r v <"$STAT/$1"; echo "$v"; }

median()	# numbers on stdin
{
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# ------------------------------------------------------------------ cost
# cost_phases: REPS phases; prints "ns_per_pkt packets busy_fraction
# packets_per_s" per phase (run inside netns $A, for va's sysfs)
cost_phases()
{
	local r b0 b1 p0 p1 t0 t1

	for ((r = 1; r <= REPS; r++)); do
		t0=$EPOCHREALTIME; b0=$(busy); p0=$(ctr tx_packets)
		sleep "$T"
		b1=$(busy); p1=$(ctr tx_packets); t1=$EPOCHREALTIME
		awk -v b=$((b1 - b0)) -v p=$((p1 - p0)) -v t0="$t0" -v t1="$t1" \
			'BEGIN { printf "%.1f %d %.3f %.0f\n", p ? b * 1e7 / p : 0, p, b / 100 / (t1 - t0), p / (t1 - t0) }'
	done
}

if [[ $what == *cost* ]]; then
	export -f cost_phases busy ctr
	export REPS T STAT
	ip netns exec $B "$TC" qdisc add dev vb clsact
	ip netns exec $B "$TC" filter add dev vb ingress matchall action drop
	for flows in $FLOWS; do
		for kind in $KINDS; do
			[[ $kind == htb && $flows -gt $HTB_MAX ]] && continue
			t0=$EPOCHREALTIME
			setup "$kind" $((10000000000 / flows)) "$flows" || continue
			tsetup=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
			ip netns exec $A "$FLOOD" -d 10.77.0.2 -n "$flows" -l 64 \
				-t 100000 >/dev/null &
			pid=$!
			sleep $((WARM + flows / 10000))
			out=$(ip netns exec $A bash -c cost_phases)
			st=$(ip netns exec $A "$TC" -s -j qdisc show dev va |
				jq -c '.[0] | {drops, flows, throttled, flows_plimit}' 2>/dev/null)
			kill $pid 2>/dev/null; wait $pid 2>/dev/null
			ns=$(awk '{ print $1 }' <<<"$out" | median)
			pk=$(awk '{ print $2 }' <<<"$out" | median)
			bf=$(awk '{ print $3 }' <<<"$out" | median)
			pps=$(awk '{ print $4 }' <<<"$out" | median)
			ins=
			[[ -n $SHIFT ]] && ins=$(awk -v n="$ns" -v s="$SHIFT" 'BEGIN { printf " insn/pkt %.0f", n / 2 ^ s }')
			echo "bench qdisc cost $kind flows $flows ns/pkt $(tr '\n' ' ' <<<"$(awk '{ print $1 }' <<<"$out")")pps $(tr '\n' ' ' <<<"$(awk '{ print $4 }' <<<"$out")")"
			echo "result cost $kind flows $flows ns/pkt $ns$ins pkts/phase $pk pps $pps busy $bf setup ${tsetup}s $st"
		done
	done
	ip netns exec $A "$TC" qdisc del dev va root 2>/dev/null
	ip netns exec $B "$TC" qdisc del dev vb clsact
fi

# -------------------------------------------------------------- accuracy
# acc_windows: WINDOWS windows of 1 s at va; prints "bit/s" per window
acc_windows()
{
	local w b0 b1 t0 t1

	for ((w = 1; w <= WINDOWS; w++)); do
		read -r b0 <"$STAT/tx_bytes"; t0=$EPOCHREALTIME
		sleep 1
		read -r b1 <"$STAT/tx_bytes"; t1=$EPOCHREALTIME
		awk -v b=$((b1 - b0)) -v t0="$t0" -v t1="$t1" \
			'BEGIN { printf "%.0f %.6f\n", b * 8 / (t1 - t0), t1 - t0 }'
	done
}

if [[ $what == *accuracy* ]]; then
	export -f acc_windows
	export WINDOWS STAT
	if [[ ${BENCH_SINK:-1} == 0 ]]; then
		ip netns exec $B "$TC" qdisc add dev vb clsact
		ip netns exec $B "$TC" filter add dev vb ingress matchall action drop
	fi
	for rate in $RATES; do
		bps=$((rate * 1000000))
		for kind in $KINDS; do
			[[ $kind == pfifo && $rate != "${RATES%% *}" ]] && continue
			setup "$kind" "$bps" 1 || continue
			ip netns exec $A "$FLOOD" -d 10.77.0.2 -n 1 -l 1400 \
				-t $((WINDOWS + 30)) >/dev/null &
			pid=$!
			# receiver: one 1-s window after another
			if [[ ${BENCH_SINK:-1} == 0 ]]; then
				: >/tmp/sink.out; spid=
			else
				ip netns exec $B bash -c "for w in \$(seq $((WINDOWS + 1))); do $SINK -w 0 -t 1; done" \
					>/tmp/sink.out 2>/dev/null &
				spid=$!
			fi
			sleep 1
			[[ -n ${BENCH_STATS:-} ]] && { read -r -a cs0 </proc/stat; loc0=$(awk '/LOC:/ { print $2 }' /proc/interrupts); sq0=$(awk '/NET_TX|NET_RX|HRTIMER/ { printf "%s ", $2 }' /proc/softirqs); cx0=$(awk '/^ctxt/ { print $2 }' /proc/stat); }
			out=$(ip netns exec $A bash -c acc_windows)
			[[ -n ${BENCH_STATS:-} ]] && { read -r -a cs1 </proc/stat; loc1=$(awk '/LOC:/ { print $2 }' /proc/interrupts); sq1=$(awk '/NET_TX|NET_RX|HRTIMER/ { printf "%s ", $2 }' /proc/softirqs); cx1=$(awk '/^ctxt/ { print $2 }' /proc/stat)
				echo "bench qdisc accuracy $kind cpu(jiffies over the windows) user $((cs1[1] - cs0[1])) sys $((cs1[3] - cs0[3])) idle $((cs1[4] - cs0[4])) irq $((cs1[6] - cs0[6])) softirq $((cs1[7] - cs0[7])) local_timer_irqs $((loc1 - loc0)) softirqs(net_tx net_rx hrtimer) $(awk -v a="$sq0" -v b="$sq1" 'BEGIN { n = split(a, x, " "); split(b, y, " "); for (i = 1; i <= n; i++) printf "%d ", y[i] - x[i] }') ctxt $((cx1 - cx0))"; }
			[[ -n ${BENCH_STATS:-} ]] && echo "bench qdisc accuracy $kind stats $(ip netns exec $A "$TC" -s -j qdisc show dev va | jq -c '.[0] | del(.options)')"
			kill $pid 2>/dev/null; wait $pid 2>/dev/null
			[[ -n $spid ]] && wait $spid 2>/dev/null
			# the first receiver window overlaps the warm-up
			rx=$(awk 'NR > 1 { print $8 }' /tmp/sink.out | head -n "$WINDOWS")
			awk -v k="$kind" -v r="$bps" -v rx="$(tr '\n' ' ' <<<"$rx")" '
				{ q[NR] = $1; t += $2; b += $1 * $2 }
				END {
					n = split(rx, v, " ")
					printf "result accuracy %s set %gMbit", k, r / 1e6
					printf " qdisc_5s %.3fMbit %+.2f%%", b / t / 1e6, (b / t - r) * 100 / r
					lo = hi = 0
					for (i = 1; i <= NR; i++) {
						e = (q[i] - r) * 100 / r
						if (i == 1 || e < lo) lo = e
						if (i == 1 || e > hi) hi = e
					}
					printf " qdisc_1s [%+.2f%%, %+.2f%%]", lo, hi
					if (n) {
						s = 0; lo = hi = 0
						for (i = 1; i <= n; i++) {
							s += v[i]; e = (v[i] - r) * 100 / r
							if (i == 1 || e < lo) lo = e
							if (i == 1 || e > hi) hi = e
						}
						printf " rx_mean %.3fMbit %+.2f%% rx_1s [%+.2f%%, %+.2f%%] (%d windows)",
							s / n / 1e6, (s / n - r) * 100 / r, lo, hi, n
					}
					printf "\n"
				}' <<<"$out"
		done
	done
fi
ip netns exec $A "$TC" qdisc del dev va root 2>/dev/null
exit 0
