#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# gro.sh - what GRO on r2c0 gives TCP (run as root in a VM):
#
#	scripts/vm-run --kernel 6.12 --timeout 1800 -- bench/gro.sh
#
# A line of BENCH_NODES namespaces (selftests/lib.sh's line_create: node
# 0's p0 joined to node 1's p1, and so on); iperf3 TCP from the first to
# the last, BENCH_REPS times with GRO on the last node's r2c0 and with it
# off ("ethtool -K r2c0 gro on|off"), alternating, so both see the same
# guest. Prints one line a run: the receiver's rate and its IP packets'
# segments (IpExtInNoECTPkts over IpInReceives: 1.00 when every frame
# goes up alone), then each setting's median.
#
# Knobs: BENCH_NODES (2 3: one and two hops), BENCH_TIME (5 s),
# BENCH_REPS (4).

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=selftests/lib.sh
source "$here/../selftests/lib.sh"

NODES=${BENCH_NODES:-2 3}
TIME=${BENCH_TIME:-5}
REPS=${BENCH_REPS:-4}

require_root
require_cmd ip jq iperf3 nstat ethtool awk
require_module veth
require_r2c2

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "bench gro: $(date -u +%Y-%m-%dT%H:%MZ) kernel $(uname -r) $(nproc) cpus"
for n in $NODES; do
	ns=()
	for ((i = 0; i < n; i++)); do
		ns+=("r2c2-gro$i")
	done
	last=${ns[n - 1]}
	line_create "${ns[@]}" || { echo "bench gro: line of $n nodes failed" >&2; exit 1; }
	busywait 20000 ip netns exec "${ns[0]}" ping -c 1 -W 1 "10.42.0.$n" >/dev/null ||
		{ echo "bench gro: node $((n - 1)) unreachable" >&2; exit 1; }
	pidf=$(mktemp)
	ip netns exec "$last" iperf3 -s -D -p 5500 -I "$pidf" >/dev/null
	sleep 0.5
	declare -A res=()
	for ((r = 1; r <= REPS; r++)); do
		for g in on off; do
			ip netns exec "$last" ethtool -K r2c0 gro "$g"
			ip netns exec "$last" nstat -n
			m=$(ip netns exec "${ns[0]}" iperf3 -c "10.42.0.$n" -p 5500 -t "$TIME" -J |
				jq '.end.sum_received.bits_per_second / 1e6 | floor')
			read -r _ _ s < <(nstat_segs "$last")
			echo "bench gro: hops $((n - 1)) gro $g run $r tcp_mbps $m segs_per_pkt $s"
			res[$g]+="$m "
		done
	done
	for g in on off; do
		echo "bench gro: hops $((n - 1)) gro $g tcp_mbps_median $(tr ' ' '\n' <<<"${res[$g]}" | grep . | median) (runs: ${res[$g]% })"
	done
	unset res
	kill "$(cat "$pidf")" 2>/dev/null
	rm -f "$pidf"
	ns_destroy_all
done
