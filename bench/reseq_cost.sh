#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# reseq_cost.sh - CPU cost per delivered packet of the receiver reorder
# buffer when nothing is reordered (issue 6). Run as root in a one-vCPU VM:
#
#	scripts/vm-run --kernel 6.12 --cpus 1 --timeout 1200 -- bench/reseq_cost.sh
#
#   ns rsa                          ns rsb (r2c2 node 2)
#   reseq_blast --> aB ==veth== bA [port 0] -> fwd.c deliver -> reseq -> r2c0 (dropped)
#
# rsa has no r2c2 node: bench/reseq_blast sends valid one-hop data frames
# of one flow, from node 1 to node 2, rproto RPS (so they go through the
# buffer when it is on), consecutive sequence numbers, 64-byte payload of
# ethertype 0x88b6 that no stack takes (r2c0 drops it after delivery).
# veth without GRO/XDP has no NAPI: the whole receive (r2c2_rcv_data ->
# r2c2_data_deliver -> r2c2_reseq_rcv -> netif_rx -> r2c0's drop) runs in
# NET_RX softirq on the sender's CPU. With one vCPU (--cpus 1) the sender
# keeps the CPU busy all the time and every cycle of the path is on it.
#
# One sender runs for the whole benchmark; the script switches node 2
# between `reseq on` (A) and `reseq off` (B) and measures phases of T
# seconds, A B A B ... (REPS of each). Per phase:
#
#   ns/pkt = (busy jiffies of /proc/stat, all but idle and iowait)
#            x 1e9/USER_HZ / (delta of node 2's `delivered` counter)
#
# i.e. guest CPU time per delivered packet, the sender's share included
# (equal in both modes). Reported: the median of each mode, the median
# of the pairwise differences A - B (phase k of A against phase k of B)
# and of the ratios A / B. Each phase also checks the counters: in A all
# delivered packets must be `reseq_inorder` (no reordered, late, resync),
# in B all `reseq_direct`.
#
# Under TCG the absolute numbers are emulated time (and the guest's clock
# counts time the host took its vCPU away): read the difference and ratio.
#
# Knobs: BENCH_TIME (phase length, 5 s), BENCH_REPS (7), BENCH_WARM (2 s),
# BENCH_BATCH (frames per sendmmsg, 32).

set -u

bench_dir=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=selftests/lib.sh
source "$bench_dir/../selftests/lib.sh"

T=${BENCH_TIME:-5}
REPS=${BENCH_REPS:-7}
WARM=${BENCH_WARM:-2}
BATCH=${BENCH_BATCH:-32}
BLAST=$bench_dir/reseq_blast
HZ=100		# USER_HZ, the unit of /proc/stat (100 on every Linux arch)

die() { echo "reseq_cost.sh: $*" >&2; exit 1; }

[[ $(id -u) -eq 0 ]] || die "needs root (run it in a VM: scripts/vm-run --cpus 1 -- bench/reseq_cost.sh)"
[[ -x $BLAST ]] || die "$BLAST not built (cc -O2 -I include -I include/uapi -o bench/reseq_blast bench/reseq_blast.c)"
(($(nproc) == 1)) || echo "# WARNING: $(nproc) CPUs; the method wants one (vm-run --cpus 1)"
for c in ip jq r2c2ctl; do
	command -v "$c" >/dev/null || die "'$c' not found"
done
modprobe -q veth 2>/dev/null || [[ -d /sys/module/veth ]] || die "no veth module"
r2c2_modules_load || die "cannot load r2c2.ko for $(uname -r)"

# ---------------------------------------------------------------- topology
ns_create rsa || die "netns"
ns_create rsb || die "netns"
for ns in rsa rsb; do
	ip netns exec $ns sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	ip netns exec $ns sysctl -qw net.ipv6.conf.default.disable_ipv6=1
done
veth_link rsa aB rsb bA || die "veth"
ip netns exec rsb r2c2ctl node set addr 2 || die "node set addr"
ip netns exec rsb r2c2ctl port add 0 dev bA || die "port add"
ip -n rsb link set r2c0 up || die "r2c0 up"
mac=$(ip -n rsb -j link show dev bA | jq -r '.[0].address')

# ---------------------------------------------------------------- counters
# busy: "busy_jiffies" from the aggregate cpu line (no fork)
busy()
{
	local cpu u n s idle iow irq sirq steal rest

	read -r cpu u n s idle iow irq sirq steal rest </proc/stat
	echo $((u + n + s + irq + sirq + steal))
}

# stats: "delivered inorder direct reordered late resync" of node 2
stats()
{
	ip netns exec rsb r2c2ctl -j stats show |
		jq -r '[.delivered, .reseq_inorder, .reseq_direct,
			.reseq_reordered, .reseq_late, .reseq_resync] |
		       map(. // 0) | @tsv'
}

# phase MODE: run one phase, print "ns_per_pkt delivered" or fail
phase()
{
	local mode=$1 b0 b1 s0 s1 d0 d1 dd

	ip netns exec rsb r2c2ctl node set reseq "$mode" || return 1
	sleep 0.3
	s0=$(stats); b0=$(busy)
	sleep "$T"
	b1=$(busy); s1=$(stats)
	read -r -a d0 <<<"$s0"
	read -r -a d1 <<<"$s1"
	for i in 0 1 2 3 4 5; do
		dd[i]=$((d1[i] - d0[i]))
	done
	((dd[0] > 0)) || { echo "no packets delivered" >&2; return 1; }
	if [[ $mode == on ]]; then
		# a phase may start with one resync (state from an earlier A phase)
		((dd[3] == 0 && dd[4] == 0 && dd[5] <= 1 &&
		  dd[1] + dd[5] >= dd[0] - 1)) ||
			{ echo "reseq on: unexpected counters ${dd[*]}" >&2; return 1; }
	else
		((dd[2] == dd[0])) ||
			{ echo "reseq off: unexpected counters ${dd[*]}" >&2; return 1; }
	fi
	awk -v b=$((b1 - b0)) -v hz="$HZ" -v n="${dd[0]}" \
		'BEGIN { printf "%.1f %d\n", b * 1e9 / hz / n, n }'
}

median()	# numbers on stdin
{
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# ---------------------------------------------------------------- run
ip netns exec rsa "$BLAST" -i aB -m "$mac" -s 1 -d 2 -r 0 -b "$BATCH" \
	>/tmp/reseq_blast.out 2>&1 &
blast=$!
cleanup_add "kill $blast 2>/dev/null"
sleep "$WARM"
kill -0 $blast 2>/dev/null || { cat /tmp/reseq_blast.out; die "sender died"; }

echo "# $(uname -r), $(nproc) vCPU, USER_HZ $HZ, phases of ${T}s, $REPS x (A = reseq on, B = reseq off)"
printf '%-4s %-4s %12s %12s\n' rep mode ns/pkt delivered
declare -a A=() B=()
for rep in $(seq 1 "$REPS"); do
	for mode in on off; do
		out=$(phase $mode) || die "phase $rep $mode failed"
		printf '%-4s %-4s %12s %12s\n' "$rep" "$mode" $out
		if [[ $mode == on ]]; then A+=("${out%% *}"); else B+=("${out%% *}"); fi
	done
done
kill $blast 2>/dev/null
wait $blast 2>/dev/null

ma=$(printf '%s\n' "${A[@]}" | median)
mb=$(printf '%s\n' "${B[@]}" | median)
md=$(for i in "${!A[@]}"; do awk -v a="${A[i]}" -v b="${B[i]}" 'BEGIN { print a - b }'; done | median)
mr=$(for i in "${!A[@]}"; do awk -v a="${A[i]}" -v b="${B[i]}" 'BEGIN { print a / b }'; done | median)
printf 'result kernel %s on_median_ns %.1f off_median_ns %.1f diff_median_ns %.1f ratio_median %.4f\n' \
	"$(uname -r)" "$ma" "$mb" "$md" "$mr"
