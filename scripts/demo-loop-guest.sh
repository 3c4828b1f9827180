#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# demo-loop-guest.sh - the README's rate-loop demo, run inside the VM by
# `scripts/demo.sh loop`: three iperf3 flows through a 10 Mbit/s link,
# first as plain TCP, then with sch_r2c2 and r2c2d, which compute their
# rates (max-min, weights from traffic classes, the host-limited flow's
# demand estimated) and push them into the qdisc.
#
#	 [0] p0 --tbf 10 Mbit/s--> p1 [1]      on a 3x3 torus
#	 flow A: dport 5201, weight 1, unlimited
#	 flow B: dport 5202, weight 2, unlimited
#	 flow C: dport 5203, weight 4, iperf3 -b 2M (host-limited)
set -u
cd "$(dirname "$0")/.."
# shellcheck source=selftests/lib.sh
source selftests/lib.sh
# shellcheck source=selftests/torus.sh
source selftests/torus.sh

require_root
require_module veth
require_r2c2
modprobe -q sch_r2c2 2>/dev/null
TC=/usr/sbin/tc
CAP=10
WIN=${WIN:-6}
GSO=${GSO:-16384}
step() { printf '\n### %s\n' "$*"; }
at() { local id=$1; shift; ip netns exec "$(torus_ns "$id")" "$@"; }

step "3x3 torus; node 0's port towards node 1 capped: tbf rate ${CAP}mbit"
torus_create 3 3 || exit 1
torus_wait_converged 60 || exit 1
DST=$(torus_addr4 1)
at 0 "$TC" qdisc add dev p0 root tbf rate ${CAP}mbit burst 16k latency 200ms
for p in 5201 5202 5203; do
	at 1 iperf3 -s -D -p $p >/dev/null
done
listening() { at 1 ss -Hltn 'sport = :5203' | grep -q .; }
busywait 10000 listening

CPIDS=()
clients() {	# SECONDS
	at 0 iperf3 -c "$DST" -p 5201 -t "$1" -f m >"$TMP/A" 2>&1 &
	CPIDS+=($!)
	at 0 iperf3 -c "$DST" -p 5202 -t "$1" -f m >"$TMP/B" 2>&1 &
	CPIDS+=($!)
	at 0 iperf3 -c "$DST" -p 5203 -t "$1" -f m -b 2M -l 16K >"$TMP/C" 2>&1 &
	CPIDS+=($!)
}
# backlog SECONDS: tbf backlog at p0 every 0.1 s: "max mean" in bytes
backlog() {
	local end=$((SECONDS + $1)) q n=0 sum=0 max=0

	while ((SECONDS < end)); do
		q=$(at 0 "$TC" -s qdisc show dev p0 |
			sed -n 's/.*backlog \([0-9]*\)b.*/\1/p' | head -n 1)
		q=${q:-0}
		((q > max)) && max=$q
		sum=$((sum + q)) n=$((n + 1))
		sleep 0.1
	done
	echo "$max $((sum / (n ? n : 1)))"
}
TMP=$(mktemp -d)
cleanup_add "rm -rf $TMP"
cleanup_add "at 1 pkill -x iperf3"

step "plain TCP (no sch_r2c2, no r2c2d): 3 flows for $((WIN + 4)) s"
clients $((WIN + 4))
sleep 3
read -r tmax tmean < <(backlog "$WIN")
wait "${CPIDS[@]}"
CPIDS=()
for f in A B C; do
	printf 'flow %s: %s Mbit/s (iperf3 sender, whole run)\n' $f \
		"$(awk '/sender/ { for (i = 2; i <= NF; i++)
			if ($i == "Mbits/sec") print $(i - 1) }' "$TMP/$f")"
done
echo "tbf backlog at p0: max $tmax B, mean $tmean B"
at 0 "$TC" -s qdisc show dev p0 | sed -n 's/^ *Sent/tbf: Sent/p'

step "r2c2: sch_r2c2 on r2c0 of node 0 (GSO packets of $GSO B at most), traffic classes, r2c2d on nodes 0, 1, 4"
at 0 "$TC" qdisc replace dev p0 root tbf rate ${CAP}mbit burst 16k latency 200ms
at 0 "$TC" qdisc add dev r2c0 root r2c2 idle 5s catchup 20ms
# sch_r2c2 paces whole packets: with TCP's 64 KB GSO packets a flow at
# 2 Mbit/s sends a 64 KB burst every 0.25 s, which the tbf has to queue.
# GSO=BYTES sets r2c0's largest GSO packet (16 KB; GSO=0: keep 64 KB)
((GSO)) && at 0 ip link set dev r2c0 gso_max_size "$GSO"
at 0 r2c2ctl class add 1 dport 5201 weight 1
at 0 r2c2ctl class add 2 dport 5202 weight 2
at 0 r2c2ctl class add 3 dport 5203 weight 4
at 0 r2c2ctl class show
DPIDS=()
for id in 0 1 4; do
	at "$id" r2c2d -o link_capacity=${CAP}M -o ga_interval_ms=0 \
		-o rho_us=5000 -o demand_interval_ms=50 2>"$TMP/d$id.log" &
	DPIDS+=($!)
done
cleanup_add 'kill "${DPIDS[@]}" "${CPIDS[@]}" 2>/dev/null'
answers() { at 0 r2c2ctl daemon show >/dev/null 2>&1; }
busywait 10000 answers

# node 0's daemon pushed the rates of its 3 flows, C's demand announced
settled() {
	local m q

	m=$(at 0 r2c2ctl -j matrix show) && q=$(at 0 r2c2ctl -j qflow show) ||
		return 1
	jq -en --argjson m "$m" --argjson q "$q" '
		[$m.flows[] | select(.src == 0)] as $own |
		($q | map({key: (.flow | ltrimstr("0x")), value: .rate}) |
		 from_entries) as $qr |
		($own | length) == 3 and
		([$own[] | select(.demand_kbps >= 0)] | length) == 1 and
		all($own[]; .pushed > 0 and
			((.pushed - .rate) | fabs) <= 0.05 * .rate and
			$qr[.flow] != null and
			(($qr[.flow] - .pushed) | fabs) <= 0.01 * .pushed)' >/dev/null
}
t0=$SECONDS
clients 60
busywait 40000 settled
echo "rates pushed $((SECONDS - t0)) s after the flows started"

step "node 0's traffic matrix (r2c2ctl matrix show)"
at 0 r2c2ctl matrix show

step "the same flows through r2c2ctl alloc, offline"
at 0 r2c2ctl -j matrix show >"$TMP/m.json"
jq -r '.flows[] | "\(.src) \(.dst) weight=\(.weight) prio=\(.prio)" +
	(if .demand_kbps >= 0 then " demand=\(.demand_kbps)k" else "" end)' \
	"$TMP/m.json" | tee "$TMP/flows.txt"
r2c2ctl alloc --topology torus:3x3 --capacity ${CAP}M --flows "$TMP/flows.txt"
r2c2ctl -j alloc --topology torus:3x3 --capacity ${CAP}M \
	--flows "$TMP/flows.txt" >"$TMP/alloc.json"

step "allocated vs achieved over $WIN s (achieved: bytes sch_r2c2 sent)"
# each dump is timed by the middle of its r2c2ctl call
a=$(date +%s.%N)
at 0 r2c2ctl -j qflow show >"$TMP/a.json"
a=$(awk -v a="$a" -v b="$(date +%s.%N)" 'BEGIN { printf "%.6f", (a + b) / 2 }')
read -r rmax rmean < <(backlog "$WIN")
b=$(date +%s.%N)
at 0 r2c2ctl -j qflow show >"$TMP/b.json"
b=$(awk -v a="$b" -v b="$(date +%s.%N)" 'BEGIN { printf "%.6f", (a + b) / 2 }')
printf '%-5s %-9s %5s %6s %12s %12s %12s %12s\n' flow id dport weight \
	demand alloc pushed achieved
jq -rn --slurpfile m "$TMP/m.json" --slurpfile al "$TMP/alloc.json" \
	--slurpfile qa "$TMP/a.json" --slurpfile qb "$TMP/b.json" \
	--argjson t "$(awk -v a="$a" -v b="$b" 'BEGIN { print b - a }')" '
	def mb: . / 1e6 * 1000 | round / 1000 | tostring + "M";
	($qa[0] | map({key: .flow, value: .}) | from_entries) as $A |
	$qb[0][] | select(.dport >= 5201 and .dport <= 5203) as $q |
	($m[0].flows | to_entries[] | select("0x" + .value.flow == $q.flow)) as $e |
	[(["A", "B", "C"][$q.dport - 5201]), $e.value.flow, $q.dport,
	 $e.value.weight,
	 (if $e.value.demand_kbps >= 0 then "\($e.value.demand_kbps)k" else "unlimited" end),
	 ($al[0].flows[] | select(.index == $e.key) | .rate_bps | mb), ($e.value.pushed | mb),
	 (($q.bytes - $A[$q.flow].bytes) * 8 / $t | mb)] | @tsv' |
	sort | while IFS=$'\t' read -r n id p w d al pu ac; do
		printf '%-5s %-9s %5s %6s %12s %12s %12s %12s\n' \
			"$n" "$id" "$p" "$w" "$d" "$al" "$pu" "$ac"
	done
echo "flow C offers 2.09 Mbit/s (iperf3 -b 2M with its headers)"

step "tbf backlog at p0 (bytes over ${WIN} s, sampled every 0.1 s)"
printf '%-12s %10s %10s\n' "" max mean
printf '%-12s %10s %10s\n' "plain TCP" "$tmax" "$tmean" r2c2d "$rmax" "$rmean"

step "r2c2d on node 0 (r2c2ctl daemon show)"
at 0 r2c2ctl daemon show | grep -E '^(flows|rounds|compute_us_mean|pushes|push_errors|announces) '
