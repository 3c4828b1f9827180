#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# reseq.sh - receiver resequencing benchmark (run as root in a VM):
#
#	scripts/vm-run --kernel 6.12 --timeout 1800 -- bench/reseq.sh
#
# The 2x2 torus of selftests/reseq_test.sh: nodes 0 and 1 are joined by
# two links; node 0's p1 delays every frame by D. For each D, iperf3 TCP
# 0 -> 1 over RPS with resequencing, RPS without, and DOR (one path),
# REPS times each; then, with no delay at all, the same three to show
# the cost of the buffer when nothing is reordered. Prints one line per
# run, the reseq counters of node 1 (held, released by timeout or by
# limit, late; the timeout in force just after the run) and its
# reorder-buffer depth distribution (p50, p95,
# p99, max over arrivals that left packets held, and over all arrivals).
#
# Knobs: BENCH_DELAYS ("0.5ms 1ms 2ms"), BENCH_TIME (10 s), BENCH_REPS (2),
# BENCH_RATE (unset: links as fast as the guest; e.g. "100mbit": both of
# node 0's ports capped by netem at that rate with a BENCH_QLEN-packet
# queue (default 50), so two paths carry twice what one does).

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=selftests/lib.sh
source "$here/../selftests/lib.sh"
# shellcheck source=selftests/torus.sh
source "$here/../selftests/torus.sh"

DELAYS=${BENCH_DELAYS:-0.5ms 1ms 2ms}
TIME=${BENCH_TIME:-10}
REPS=${BENCH_REPS:-2}
RATE=${BENCH_RATE:-}
QLEN=${BENCH_QLEN:-50}

require_root
require_cmd ip tc jq iperf3
require_module veth
require_module sch_netem
require_r2c2

run()	# MODE DELAY REP
{
	local mode=$1 delay=$2 rep=$3 out bps retr

	case $mode in
	rps-reseq) torus_exec 1 r2c2ctl node set reseq on
		   torus_exec 0 r2c2ctl node set routing rps ;;
	rps-off)   torus_exec 1 r2c2ctl node set reseq off
		   torus_exec 0 r2c2ctl node set routing rps ;;
	dor)	   torus_exec 1 r2c2ctl node set reseq on
		   torus_exec 0 r2c2ctl node set routing dor ;;
	esac
	torus_exec 1 r2c2ctl stats reset
	out=$(torus_exec 0 iperf3 -c "$(torus_addr4 1)" -t "$TIME" -J) || return 1
	bps=$(jq '.end.sum_received.bits_per_second / 1e6 | floor' <<<"$out")
	retr=$(jq '.end.sum_sent.retransmits' <<<"$out")
	torus_exec 1 r2c2ctl -j -s reseq show >/tmp/reseq-bench.json
	printf '%-6s %-10s %3d %8d %8d %8d %8d %6d %6d %6d %5s %5s %5s %5s   %5s %5s\n' \
		"$delay" "$mode" "$rep" "$bps" "$retr" \
		"$(jq .node.stats.reseq_reordered /tmp/reseq-bench.json)" \
		"$(jq .node.stats.reseq_timeout /tmp/reseq-bench.json)" \
		"$(jq .node.stats.reseq_limit /tmp/reseq-bench.json)" \
		"$(jq .node.stats.reseq_late /tmp/reseq-bench.json)" \
		"$(jq '.node.timeout_eff_us // 0' /tmp/reseq-bench.json)" \
		"$(jq '.node.depth_held.p50 // "-"' /tmp/reseq-bench.json)" \
		"$(jq '.node.depth_held.p95 // "-"' /tmp/reseq-bench.json)" \
		"$(jq '.node.depth_held.p99 // "-"' /tmp/reseq-bench.json)" \
		"$(jq '.node.depth_held.max // "-"' /tmp/reseq-bench.json)" \
		"$(jq '.node.depth.p50 // "-"' /tmp/reseq-bench.json)" \
		"$(jq '.node.depth.p95 // "-"' /tmp/reseq-bench.json)"
}

torus_create 2 2 >/dev/null || { echo "cannot build the torus"; exit 1; }
torus_wait_converged 60 >/dev/null || { echo "no convergence"; exit 1; }
torus_exec 1 iperf3 -s -D --pidfile /tmp/reseq-bench-iperf3.pid
cleanup_add "kill \$(cat /tmp/reseq-bench-iperf3.pid) 2>/dev/null"
busywait 5000 torus_exec 0 ping -c1 -W1 "$(torus_addr4 1)" >/dev/null

echo "# $(uname -r), $(nproc) vCPU, iperf3 ${TIME}s, 2x2 torus, node 0 -> node 1${RATE:+, ports capped at $RATE (queue $QLEN)}"
echo "#                                          depth when held       all arrivals"
printf '%-6s %-10s %3s %8s %8s %8s %8s %6s %6s %6s %5s %5s %5s %5s   %5s %5s\n' \
	delay mode rep Mbit/s retrans reorder timeout limit late to_us \
	p50 p95 p99 max p50 p95
for delay in none $DELAYS; do
	torus_exec 0 tc qdisc del dev p0 root 2>/dev/null
	torus_exec 0 tc qdisc del dev p1 root 2>/dev/null
	if [[ -n $RATE ]]; then
		torus_exec 0 tc qdisc add dev p0 root netem rate "$RATE" limit "$QLEN"
		if [[ $delay == none ]]; then
			torus_exec 0 tc qdisc add dev p1 root netem rate "$RATE" limit "$QLEN"
		else
			torus_exec 0 tc qdisc add dev p1 root netem delay "$delay" \
				rate "$RATE" limit "$QLEN"
		fi
	elif [[ $delay != none ]]; then
		torus_exec 0 tc qdisc add dev p1 root netem delay "$delay" limit 10000
	fi
	for rep in $(seq 1 "$REPS"); do
		for mode in rps-reseq rps-off dor; do
			run "$mode" "$delay" "$rep"
		done
	done
done
