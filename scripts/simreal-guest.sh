#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# simreal-guest.sh - the real half of the paper's Figure 7 (the simulator
# against the real system), run inside the VM by `scripts/figures.sh data
# fig7`: the kernel data path (r2c2.ko, sch_r2c2 on every node's r2c0,
# r2c2d on every node) on a 3x3 torus of namespaces, time scaled by 1/1000:
#
#	every port p0..p3 of every node capped by tbf at CAP Mbit/s (10:
#	10 Gbit/s / 1000), r2c2d's rho RHO_US (500000: the paper's 500 us
#	x 1000) and link_capacity CAP; routing ROUTING (rps, the paper's;
#	or dor) on every node
#	FLOWS: long iperf3 TCP flows SRC:DST, all started together (the
#	default: 10 pairs drawn once with Python's random.seed(1), distinct,
#	SRC != DST)
#	DAEMONS: the nodes that run r2c2d (default all)
#
# It measures over WIN seconds after SETTLE each flow's goodput at the
# receiver (its iperf3 server's 1-s intervals in that window of the
# flow's own time: under TCG a process start may take seconds, so the
# guest's clock between two commands is no measure) and every port's
# deepest tbf backlog (a `tc -s qdisc show` of each node about every
# 0.2 s through one `tc -b -` a node). Prints a TSV:
#	# the settings ... matrix_flows N (in the first daemon's matrix,
#	  mid-window)
#	flow  I SRC DST GOODPUT_BPS ALLOC_BPS SECONDS_MEASURED
#	link  NODE PORT SAMPLES MAX_BACKLOG_BYTES
# (ALLOC_BPS: `r2c2ctl alloc` of the same flows, the max-min the
# simulator and r2c2d compute), handed to the host as a "simreal" block
# when R2C2_OUT is set (scripts/vm-run --out FILE).
# selftests/simreal_test.sh runs a smaller configuration.
set -u
cd "$(dirname "$0")/.." || exit 1
# shellcheck source=selftests/lib.sh
source selftests/lib.sh
# shellcheck source=selftests/torus.sh
source selftests/torus.sh

require_root
require_module veth
require_r2c2
modprobe -q sch_r2c2 2>/dev/null
TC=/usr/sbin/tc
CAP=${CAP:-10}
RHO_US=${RHO_US:-500000}
ROUTING=${ROUTING:-rps}
SETTLE=${SETTLE:-10}
WIN=${WIN:-15}
GSO=${GSO:-16384}
FLOWS=${FLOWS:-"2:1 4:1 7:6 3:1 7:0 0:7 4:3 1:5 0:8 0:6"}
DAEMONS=${DAEMONS:-all}
step() { printf '\n### %s\n' "$*" >&2; }
at() { local id=$1; shift; ip netns exec "$(torus_ns "$id")" "$@"; }
now() { date +%s.%N; }

read -ra F <<<"$FLOWS"
NF=${#F[@]}
TMP=$(mktemp -d)
cleanup_add "rm -rf $TMP"

step "3x3 torus, every port capped at ${CAP} Mbit/s, routing $ROUTING, rho ${RHO_US} us, $NF flows"
torus_create 3 3 || exit 1
torus_wait_converged 60 || exit 1
for id in $(torus_nodes); do
	for p in 0 1 2 3; do
		echo "qdisc add dev p$p root tbf rate ${CAP}mbit burst 16k latency 200ms"
	done >"$TMP/tbf"
	echo "qdisc add dev r2c0 root r2c2 idle 5s catchup 20ms" >>"$TMP/tbf"
	at "$id" "$TC" -b "$TMP/tbf" || exit 1
	at "$id" r2c2ctl node set routing "$ROUTING" || exit 1
	# sch_r2c2 paces whole packets: keep r2c0's GSO packets small
	((GSO)) && at "$id" ip link set dev r2c0 gso_max_size "$GSO"
done

DPIDS=()
[[ $DAEMONS = all ]] && DAEMONS=$(torus_nodes | tr '\n' ' ')
for id in $DAEMONS; do
	at "$id" r2c2d -o link_capacity="${CAP}M" -o ga_interval_ms=0 \
		-o rho_us="$RHO_US" -o demand_interval_ms=50 2>"$TMP/d$id.log" &
	DPIDS+=($!)
done
# shellcheck disable=SC2016  # expanded when the hooks run
cleanup_add 'kill "${DPIDS[@]}" 2>/dev/null'
answers() { at "${DAEMONS%% *}" r2c2ctl daemon show >/dev/null 2>&1; }
busywait 10000 answers || { echo "r2c2d does not answer" >&2; exit 1; }

: >"$TMP/flows.txt"
SRV=()
for i in "${!F[@]}"; do
	s=${F[$i]%:*} d=${F[$i]#*:}
	echo "$s $d routing=$ROUTING" >>"$TMP/flows.txt"
	at "$d" iperf3 -s -1 -p $((5201 + i)) -i 1 -f m --forceflush >"$TMP/s$i" 2>&1 &
	SRV+=($!)
done
# shellcheck disable=SC2016  # expanded when the hooks run
cleanup_add 'kill "${SRV[@]}" 2>/dev/null'
listening() { at "${F[-1]#*:}" ss -Hltn "sport = :$((5200 + NF))" | grep -q .; }
busywait 10000 listening

step "$NF flows; measuring from ${SETTLE} s for ${WIN} s"
CPIDS=()
for i in "${!F[@]}"; do
	s=${F[$i]%:*} d=${F[$i]#*:}
	at "$s" iperf3 -c "$(torus_addr4 "$d")" -p $((5201 + i)) \
		-t $((SETTLE + WIN + 5)) >"$TMP/c$i" 2>&1 &
	CPIDS+=($!)
done
# shellcheck disable=SC2016  # expanded when the hooks run
cleanup_add 'kill "${CPIDS[@]}" 2>/dev/null'
T0=$(now)
# sampler ID: node ID's tbfs, one `tc -s qdisc show` about every 0.2 s
# through a single `tc -b -` until $TMP/stop exists (no process start a
# sample)
sampler() {
	local fd

	exec {fd}<> <(:)
	while [[ ! -e $TMP/stop ]]; do
		echo "qdisc show"
		read -r -t 0.2 -u "$fd"
	done | "$TC" -n "$(torus_ns "$1")" -s -b - >"$TMP/q$1"
}

sleep "$(awk -v t0="$T0" -v n="$(now)" -v s="$SETTLE" 'BEGIN { d = t0 + s - n; print (d > 0 ? d : 0) }')"
SPIDS=()
for id in $(torus_nodes); do
	sampler "$id" &
	SPIDS+=($!)
done
cleanup_add "touch $TMP/stop"
# the first daemon's matrix in the middle of the window (after it, the
# flows may have ended: the guest's clock runs on while commands start)
sleep $((WIN / 2))
at "${DAEMONS%% *}" r2c2ctl matrix show >&2
at "${DAEMONS%% *}" r2c2ctl -j matrix show >"$TMP/m.json"
sleep $((WIN - WIN / 2))
# the samplers' loops end, their tc reads the end of its input and exits
touch "$TMP/stop"
wait "${SPIDS[@]}" "${CPIDS[@]}" 2>/dev/null
# goodput I: flow I's Mbit/s at its receiver over the intervals of its
# server's report (1 s, from the flow's start) within [SETTLE, SETTLE + WIN]
goodput() {
	awk -v a="$SETTLE" -v b="$((SETTLE + WIN))" '
		/receiver|sender/ { next }
		{ for (i = 1; i < NF; i++) if ($i == "sec") break
		  if (i >= NF || split($(i - 1), iv, "-") != 2) next
		  for (j = i; j <= NF; j++) if ($j == "Mbits/sec") break
		  if (j > NF) next
		  if (iv[1] + 0 >= a - 0.5 && iv[2] + 0 <= b + 0.5) {
			  t += iv[2] - iv[1]; x += (iv[2] - iv[1]) * $(j - 1) } }
		END { printf "%.0f %.2f\n", (t > 0 ? x / t * 1e6 : -1), t }' "$TMP/s$1"
}
r2c2ctl -j alloc topology torus:3x3 capacity "${CAP}M" flows "$TMP/flows.txt" >"$TMP/alloc.json" ||
	exit 1
{
	printf '# kernel %s date %s flows %d routing %s cap_mbit %s rho_us %s settle_s %s win_s %s gso %s matrix_flows %s\n' \
		"$(uname -r)" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$NF" "$ROUTING" "$CAP" \
		"$RHO_US" "$SETTLE" "$WIN" "$GSO" "$(jq '.flows | length' "$TMP/m.json")"
	for i in "${!F[@]}"; do
		read -r g t < <(goodput "$i")
		printf 'flow\t%d\t%d\t%d\t%s\t%s\t%s\n' "$i" "${F[$i]%:*}" "${F[$i]#*:}" "$g" \
			"$(jq ".flows[] | select(.index == $i) | .rate_bps" "$TMP/alloc.json")" "$t"
	done
	for id in $(torus_nodes); do
		awk -v id="$id" '
			$1 == "qdisc" && $2 == "tbf" { dev = $5 }
			dev != "" && /backlog/ { b = $2; sub("b$", "", b)
				n[dev]++; if (b + 0 > m[dev]) m[dev] = b + 0; dev = "" }
			END { for (p in n) printf "link\t%d\t%s\t%d\t%d\n", id, substr(p, 2), n[p], m[p] }' \
			"$TMP/q$id" | sort -k3n
	done
} >"$TMP/simreal.tsv"
cat "$TMP/simreal.tsv"
for id in $(torus_nodes); do
	grep -i 'error\|fail' "$TMP/d$id.log" | head -n 3 >&2
done
for i in "${!F[@]}"; do
	grep -q receiver "$TMP/s$i" && continue
	echo "flow $i (${F[$i]}): no receiver summary; its client's last lines:" >&2
	tail -n 3 "$TMP/c$i" >&2
done
CLOGS=()
for i in "${!F[@]}"; do CLOGS+=("c$i" "s$i"); done
if [[ -n ${R2C2_OUT:-} ]]; then
	{
		echo "r2c2-out-begin simreal"
		tar -C "$TMP" -cz simreal.tsv m.json "${CLOGS[@]}" | base64 -w 76
		echo "r2c2-out-end simreal"
	} >>"$R2C2_OUT"
fi
