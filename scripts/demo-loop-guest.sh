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
#
# Both runs also leave time series in $TMP/series: each flow's rate
# (iperf3's intervals of 0.5 s, sender side) and the tbf backlog at p0
# (sampled every 0.1 s) from the flows' start, with the runs' events, and
# the rate r2c2ctl alloc gives each flow on node 0's matrix (targets).
# With R2C2_OUT set (scripts/vm-run --out FILE) they are handed to the
# host as a "demo-loop" block, with node 0's `r2c2ctl -j topo show`;
# scripts/figures.sh data turns them into Documentation/figures/data/.
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
now() { date +%s.%N; }
# clients SECONDS RUN: the three flows; each iperf3 reports every 0.5 s
# into $TMP/RUN.A, .B, .C; T0 is when they were started
clients() {
	T0=$(now)
	at 0 iperf3 -c "$DST" -p 5201 -t "$1" -f m -i 0.5 --forceflush >"$TMP/$2.A" 2>&1 &
	CPIDS+=($!)
	at 0 iperf3 -c "$DST" -p 5202 -t "$1" -f m -i 0.5 --forceflush >"$TMP/$2.B" 2>&1 &
	CPIDS+=($!)
	at 0 iperf3 -c "$DST" -p 5203 -t "$1" -f m -i 0.5 --forceflush -b 2M -l 16K >"$TMP/$2.C" 2>&1 &
	CPIDS+=($!)
}
# sampler FILE: the tbf backlog at p0 every 0.1 s until killed, one
# "EPOCH_S BYTES" line a sample (the time taken after the dump)
sampler() {
	local q

	while :; do
		q=$(at 0 "$TC" -s qdisc show dev p0 |
			sed -n 's/.*backlog \([0-9]*\)b.*/\1/p' | head -n 1)
		echo "$(now) ${q:-0}"
		sleep 0.1
	done >"$1"
}
# backlog FILE FROM TO: "max mean" in bytes of FILE's samples in [FROM, TO]
backlog() {
	awk -v a="$2" -v b="$3" '$1 >= a && $1 <= b {
		n++; s += $2; if ($2 > m) m = $2 }
		END { printf "%d %d\n", m, n ? s / n : 0 }' "$1"
}
# event RUN NAME EPOCH_S: a line of the series' events, seconds after T0
event() {
	awk -v r="$1" -v e="$2" -v t="$3" -v t0="$T0" \
		'BEGIN { printf "%s\t%s\t%.3f\n", r, e, t - t0 }' >>"$TMP/events"
}
# series RUN: the run's samples, times in seconds after T0: RUN.q
# ("t_s backlog_B") and RUN.rates ("t_s A B C" in Mbit/s, at the end of
# each iperf3 interval, to 0.1 s; NaN where a flow's interval ended at
# another time: a late iperf3 shifts its intervals)
series() {
	awk -v t0="$T0" '{ printf "%.3f\t%d\n", $1 - t0, $2 }' "$TMP/$1.qraw" >"$TMP/series/$1.q"
	awk '
	FNR == 1 { f++ }
	!/sender|receiver/ && /Mbits\/sec/ {
		for (i = 1; i <= NF; i++) if ($i == "sec") break
		split($(i - 1), iv, "-")
		for (j = i; j <= NF; j++) if ($j == "Mbits/sec") break
		if (j > NF) next
		t = sprintf("%.1f", iv[2]); if (!(t in seen)) { seen[t] = 1; ts[++n] = t }
		v[t, f] = $(j - 1)
	}
	END { for (k = 1; k <= n; k++) { t = ts[k]; printf "%s", t
		for (g = 1; g <= 3; g++) printf "\t%s", ((t, g) in v) ? v[t, g] : "NaN"
		printf "\n" } }' "$TMP/$1.A" "$TMP/$1.B" "$TMP/$1.C" | sort -g >"$TMP/series/$1.rates"
}
TMP=$(mktemp -d)
mkdir -p "$TMP/series"
cleanup_add "rm -rf $TMP"
cleanup_add "at 1 pkill -x iperf3"

step "plain TCP (no sch_r2c2, no r2c2d): 3 flows for $((WIN + 4)) s"
clients $((WIN + 4)) plain
sampler "$TMP/plain.qraw" &
SPID=$!
cleanup_add 'kill $SPID 2>/dev/null'
sleep 3
w0=$(now)
sleep "$WIN"
w1=$(now)
read -r tmax tmean < <(backlog "$TMP/plain.qraw" "$w0" "$w1")
event plain window_start "$w0"
event plain window_end "$w1"
wait "${CPIDS[@]}"
kill "$SPID"
wait "$SPID" 2>/dev/null
CPIDS=()
series plain
for f in A B C; do
	printf 'flow %s: %s Mbit/s (iperf3 sender, whole run)\n' $f \
		"$(awk '/sender/ { for (i = 2; i <= NF; i++)
			if ($i == "Mbits/sec") print $(i - 1) }' "$TMP/plain.$f")"
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
	json_assert -n --argjson m "$m" --argjson q "$q" '
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
clients 60 r2c2
sampler "$TMP/r2c2.qraw" &
SPID=$!
busywait 40000 settled
event r2c2 pushed "$(now)"
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
sleep "$WIN"
b=$(date +%s.%N)
at 0 r2c2ctl -j qflow show >"$TMP/b.json"
b=$(awk -v a="$b" -v b="$(date +%s.%N)" 'BEGIN { printf "%.6f", (a + b) / 2 }')
read -r rmax rmean < <(backlog "$TMP/r2c2.qraw" "$a" "$b")
event r2c2 window_start "$a"
event r2c2 window_end "$b"
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
# the allocation each flow is to be judged against, for the figure:
# "flow weight demand_kbps target_mbit" (demand -1: unlimited)
jq -rn --slurpfile m "$TMP/m.json" --slurpfile al "$TMP/alloc.json" \
	--slurpfile qb "$TMP/b.json" '
	$qb[0][] | select(.dport >= 5201 and .dport <= 5203) as $q |
	($m[0].flows | to_entries[] | select("0x" + .value.flow == $q.flow)) as $e |
	[(["A", "B", "C"][$q.dport - 5201]), $e.value.weight,
	 $e.value.demand_kbps,
	 ($al[0].flows[] | select(.index == $e.key) | .rate_bps / 1e6)] | @tsv' |
	sort >"$TMP/series/targets"

step "tbf backlog at p0 (bytes over ${WIN} s, sampled every 0.1 s)"
printf '%-12s %10s %10s\n' "" max mean
printf '%-12s %10s %10s\n' "plain TCP" "$tmax" "$tmean" r2c2d "$rmax" "$rmean"

step "r2c2d on node 0 (r2c2ctl daemon show)"
at 0 r2c2ctl daemon show | grep -E '^(flows|rounds|compute_us_mean|pushes|push_errors|announces) '

# The time series up to here (the r2c2 flows keep running until the end)
kill "$SPID"
wait "$SPID" 2>/dev/null
series r2c2
if [[ -n ${R2C2_OUT:-} ]]; then
	cp "$TMP/events" "$TMP/series/events"
	at 0 r2c2ctl -j topo show >"$TMP/series/topo-3x3.json"
	printf 'kernel %s\ndate %s\n' "$(uname -r)" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$TMP/series/meta"
	{
		echo "r2c2-out-begin demo-loop"
		tar -C "$TMP/series" -cz . | base64 -w 76
		echo "r2c2-out-end demo-loop"
	} >>"$R2C2_OUT"
fi
