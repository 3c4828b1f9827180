#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# sim/r2c2-sim, the packet-level simulator on ns-3: it builds, refuses bad
# input naming the option or the line, and its runs keep the invariants
# R2C2 promises: every flow delivered whole, no drop, every broadcast
# reaching every other node exactly once and every node's matrix empty
# after the last FINISH, a lone flow at the link's usable capacity, two
# flows on one link at half of it each, the same seed the same run; and
# the TCP baselines complete, DCTCP marking ECN where NewReno does not;
# the centralised design (Figure 19) delivers every event to the
# controller and every rate back, and its control traffic per event grows
# with the flows a node sources where the broadcasts' stays the same;
# --window-out gives each flow's goodput and each link's deepest queue
# over the --measure-from-ms window (Figure 7).
# shellcheck disable=SC2317  # between() is called from check's eval'd conditions
set -u
cd "$(dirname "$0")/.." || exit 1
SIM=${R2C2_SIM:-../sim/r2c2-sim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
n=0 fail=0
check() { n=$((n+1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=$((fail+1)); fi; }
# field FILE NAME: the number after NAME in the summary
field() { awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }' "$1"; }
# goodput FILE ROW: Gbit/s of a flow of the CSV (size * 8 / fct)
goodput() { awk -F, -v r="$2" '!/^#/ && $1 == r { printf "%.3f", $4 * 8 / $6 / 1000 }' "$1"; }
between() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }'; }

echo "1..35"
if [ -z "${R2C2_SIM:-}" ] && ! pkg-config --exists ns3-core 2>/dev/null; then
	for i in $(seq 1 35); do echo "ok $i - sim # SKIP ns-3 not installed (libns3-dev)"; done
	exit 0
fi
[ -n "${R2C2_SIM:-}" ] || make -s -C ../sim >"$T/build" 2>&1
check "make -C sim builds r2c2-sim" "[ -x '$SIM' ]"

"$SIM" --proto=ecmp >"$T/o" 2>&1; rc=$?
check "--proto=ecmp: exit 2, the option named" "[ $rc -eq 2 ] && grep -q -- '--proto: rps, dor, vlb or wlb' '$T/o'"
"$SIM" --rho-us=0 >"$T/o" 2>&1; rc=$?
check "--rho-us=0: exit 2 with its range" "[ $rc -eq 2 ] && grep -q -- '--rho-us: 1 to 1000000' '$T/o'"
printf '# src dst size start\n0 1 1000 0\n0 9 1000 0\n' >"$T/bad.flows"
"$SIM" --topo=torus:2x2 --flows-file="$T/bad.flows" >"$T/o" 2>&1; rc=$?
check "a flow file naming node 9 of 4: exit 2, file and line 3 named" \
	"[ $rc -eq 2 ] && grep -q 'bad.flows:3: nodes 0..3' '$T/o'"
printf '0 1 1000\n' >"$T/short.flows"
"$SIM" --topo=torus:2x2 --flows-file="$T/short.flows" >"$T/o" 2>&1; rc=$?
check "a flow file line without its start: exit 2, line 1 named" \
	"[ $rc -eq 2 ] && grep -q 'short.flows:1: expected SRC DST SIZE START_US' '$T/o'"

# the paper's setting (512 nodes, 10 Gbit/s, 100 ns links, tau 1 us) for
# 5 ms of arrivals; with a flow's events on round-robin trees, as r2c2.ko
# sent them before, a FINISH overtook its START here (seed 1: node 100)
args=(--topo=torus:8x8x8 --flows=5000 --tau-us=1 --seed=1)
"$SIM" "${args[@]}" --out="$T/a.csv" >"$T/a" 2>&1; rc=$?
check "5,000 flows on 8x8x8 (RPS, rho 500 us): all delivered whole, exit 0 ($(field "$T/a" "done") done)" \
	"[ $rc -eq 0 ] && [ \"\$(field '$T/a' done)\" = 5000 ] && ! awk -F, '!/^#/ && NR > 2 && \$6 < 0' '$T/a.csv' | grep -q ."
check "no packet dropped, no frame refused ($(field "$T/a" drops) drops, $(field "$T/a" bad_frames) bad)" \
	"[ \"\$(field '$T/a' drops)\" = 0 ] && [ \"\$(field '$T/a' bad_frames)\" = 0 ]"
ann=$(field "$T/a" announced)
check "every START and FINISH of the $ann announced flows reached the 511 other nodes once ($(field "$T/a" ctl_hops) relays)" \
	"[ \"$ann\" -gt 0 ] && [ \"\$(field '$T/a' ctl_hops)\" = \$((2 * $ann * 511)) ]"
check "every node's matrix empty at the end, no FINISH before its START ($(field "$T/a" matrix_flows_left) left, $(field "$T/a" unknown_finishes) unknown)" \
	"[ \"\$(field '$T/a' matrix_flows_left)\" = 0 ] && [ \"\$(field '$T/a' unknown_finishes)\" = 0 ]"
check "rates were computed and pushed ($(field "$T/a" rounds) rounds, $(field "$T/a" pushes) pushes)" \
	"[ \"\$(field '$T/a' rounds)\" -gt 0 ] && [ \"\$(field '$T/a' pushes)\" -gt 0 ]"
"$SIM" "${args[@]}" --out="$T/b.csv" >/dev/null 2>&1
"$SIM" --topo=torus:8x8x8 --flows=5000 --tau-us=1 --seed=2 --out="$T/c.csv" >/dev/null 2>&1
check "the same seed gives the same flows and times; another seed other ones" \
	"cmp -s '$T/a.csv' '$T/b.csv' && ! cmp -s '$T/a.csv' '$T/c.csv'"

# one flow alone on 8x8: the link's rate less the headroom, once rated
printf '0 1 10000000 0 dor\n' >"$T/one.flows"
"$SIM" --topo=torus:8x8 --flows-file="$T/one.flows" --out="$T/one.csv" >"$T/one" 2>&1
g=$(goodput "$T/one.csv" 0)
check "a lone 10-MB flow: goodput $g Gbit/s, within 9.1..9.3 (9.5 Gbit/s less 54 B of every 1,514)" \
	"between '$g' 9.1 9.3"
# two DOR flows into node 0 through the link 1 -> 0: half of it each
printf '2 0 10000000 0 dor\n1 0 10000000 0 dor\n' >"$T/two.flows"
"$SIM" --topo=torus:8x8 --flows-file="$T/two.flows" --out="$T/two.csv" >"$T/two" 2>&1
g0=$(goodput "$T/two.csv" 0) g1=$(goodput "$T/two.csv" 1)
check "two flows on one link: $g0 and $g1 Gbit/s, equal within 3 %, together at most its 9.64 of payload" \
	"between '$g0' 4.5 4.85 && between '$g1' 4.5 4.85 && between \$(awk 'BEGIN { print $g0 / $g1 }') 0.97 1.03 && between \$(awk 'BEGIN { print $g0 + $g1 }') 9 9.64"
q=$(field "$T/two" max_queue_bytes)
check "their rates hold the link's queue to the first rho's burst: $q bytes < 1.25 MB (10 Gbit/s for 1 ms)" \
	"[ '$q' -gt 0 ] && [ '$q' -lt 1250000 ]"
check "single-path DOR: no packet held for reordering" "[ \"\$(field '$T/two' max_reseq_pkts)\" = 0 ]"

# the aggregate goodput over a window (Figure 18 at packet level)
"$SIM" --measure-from-ms=2 >"$T/o" 2>&1; rc=$?
check "--measure-from-ms without --stop-ms: exit 2, the range named" \
	"[ $rc -eq 2 ] && grep -q -- '--measure-from-ms: 0 to below --stop-ms (0)' '$T/o'"
printf '0 1 1000000000 0\n' >"$T/lone.flows"
"$SIM" --topo=torus:4x4 --flows-file="$T/lone.flows" --stop-ms=3 --measure-from-ms=1 >"$T/win" 2>&1
w=$(field "$T/win" window_gbps)
check "a lone endless flow's goodput from 1 to 3 ms: $w Gbit/s, within 9.1..9.3" "between '${w:-0}' 9.1 9.3"
"$SIM" --topo=torus:4x4 --flows-file="$T/lone.flows" --stop-ms=1.5 >"$T/frac" 2>&1
check "--stop-ms=1.5 stops at 1.5 ms, not 1 ($(field "$T/frac" sim_s) s)" "[ \"\$(field '$T/frac' sim_s)\" = 0.001500 ]"

# --window-out (Figure 7): each flow's goodput and each link's deepest
# queue over the window
"$SIM" --topo=torus:4x4 --flows-file="$T/lone.flows" --stop-ms=3 --window-out="$T/x.tsv" >"$T/o" 2>&1; rc=$?
check "--window-out without --measure-from-ms: exit 2, named" \
	"[ $rc -eq 2 ] && grep -q -- '--window-out needs --measure-from-ms' '$T/o'"
printf '0 1 1e15 0 dor\n0 1 1e15 0 dor\n' >"$T/wtwo.flows"
"$SIM" --topo=torus:4x4 --flows-file="$T/wtwo.flows" --stop-ms=3 --measure-from-ms=1 \
	--window-out="$T/w.tsv" >"$T/wtwo" 2>&1
w=$(field "$T/wtwo" window_gbps)
s=$(awk -F'\t' '$1 == "flow" { s += $5 } END { printf "%.3f", s / 1e9 }' "$T/w.tsv")
check "two endless flows on one link: their window goodputs add up to window_gbps ($s, $w Gbit/s) and are equal within 1 %" \
	"between '${s:-0}' \$(awk -v w='${w:-0}' 'BEGIN { print w - 0.002, w + 0.002 }') && awk -F'\t' '\$1 == \"flow\" { g[\$2] = \$5 } END { exit !(g[0] > 0 && g[1] > 0 && g[0] / g[1] > 0.99 && g[1] / g[0] > 0.99) }' '$T/w.tsv'"
read -r nl qn qp qv qb < <(awk -F'\t' '$1 == "link" { n++; if ($5 > m) { m = $5; at = $2 " " $3 " " $4 } }
	END { print n, at, m }' "$T/w.tsv")
check "a row for each of the $nl links (64), the deepest queue ($qb bytes) at node $qn's port $qp to node $qv (0, 0, 1), no deeper than the run's" \
	"[ '$nl $qn $qp $qv' = '64 0 0 1' ] && [ '${qb:-0}' -gt 0 ] && [ '${qb:-0}' -le \"\$(field '$T/wtwo' max_queue_bytes)\" ]"

# a mesh is a graph to the tables: every pair's weights made on first use
"$SIM" --topo=mesh:4x4x4 --flows=300 --tau-us=5 --announce-us=0 >"$T/mesh" 2>&1; rc=$?
check "a 4x4x4 mesh (pairs prepared as r2c2d does): 300 flows complete, every one rated and gone at the end" \
	"[ $rc -eq 0 ] && [ \"\$(field '$T/mesh' done)\" = 300 ] && [ \"\$(field '$T/mesh' pushes)\" -gt 0 ] && [ \"\$(field '$T/mesh' matrix_flows_left)\" = 0 ]"

# the baselines: PFQ, the ideal (per-flow queues, back-pressure)
"$SIM" --stack=pfq --topo=torus:4x4 --flows-file="$T/lone.flows" --stop-ms=3 --measure-from-ms=1 >"$T/pw" 2>&1
w=$(field "$T/pw" window_gbps)
check "PFQ: a lone endless flow at the link's rate, no headroom: $w Gbit/s, within 9.6..9.7 (10 less headers)" \
	"between '${w:-0}' 9.6 9.7"
printf '0 1 5000000 0 dor\n0 1 5000000 0 dor\n' >"$T/ptwo.flows"
"$SIM" --stack=pfq --topo=torus:4x4 --flows-file="$T/ptwo.flows" --out="$T/ptwo.csv" >"$T/ptwo" 2>&1
g0=$(goodput "$T/ptwo.csv" 0); g1=$(goodput "$T/ptwo.csv" 1)
check "PFQ: two flows on one link served in turn: $g0 and $g1 Gbit/s, equal within 1 %" \
	"awk -v a='${g0:-0}' -v b='${g1:-1}' 'BEGIN { exit !(a > 0 && b > 0 && a / b > 0.99 && b / a > 0.99) }'"
# a source sprays over the first ports that have room: flow 0 (RPS, 0 -> 5
# over node 1 or node 4) shares port 0 -> 1 with flow 1 (DOR, 0 -> 1) and
# has port 0 -> 4 alone: half of one link and all of the other, about
# 14.4 Gbit/s. A source waiting on the first port it drew got 9.9.
printf '0 5 5000000 0 rps\n0 1 5000000 0 dor\n' >"$T/phol.flows"
"$SIM" --stack=pfq --topo=torus:4x4 --flows-file="$T/phol.flows" --out="$T/phol.csv" >"$T/phol" 2>&1
g0=$(goodput "$T/phol.csv" 0)
check "PFQ: a flow with two first ports, one shared, gets $g0 Gbit/s, within 13.5..15" "between '${g0:-0}' 13.5 15"
"$SIM" --stack=pfq --topo=torus:8x8x8 --flows=2000 --tau-us=1 >"$T/pfq" 2>&1; rc=$?
check "PFQ: 2,000 flows on 8x8x8 all complete, none dropped, no queue above 100 packets ($(field "$T/pfq" max_queue_bytes) bytes)" \
	"[ $rc -eq 0 ] && [ \"\$(field '$T/pfq' drops)\" = 0 ] && [ \"\$(field '$T/pfq' max_queue_bytes)\" -lt 151400 ]"
"$SIM" --stack=tcp --topo=torus:4x4 --flows=300 --tau-us=5 >"$T/tcp" 2>&1; rc=$?
check "TCP NewReno: 300 flows on 4x4 all complete (exit $rc)" "[ $rc -eq 0 ] && [ \"\$(field '$T/tcp' done)\" = 300 ]"
printf '1 0 3000000 0\n2 0 3000000 0\n4 0 3000000 0\n8 0 3000000 0\n' >"$T/inc.flows"
"$SIM" --stack=dctcp --topo=torus:4x4 --flows-file="$T/inc.flows" >"$T/dc" 2>&1; rc1=$?
"$SIM" --stack=tcp --topo=torus:4x4 --flows-file="$T/inc.flows" >"$T/nr" 2>&1; rc2=$?
check "a 4-to-1 incast: DCTCP's queues mark ECN ($(field "$T/dc" ecn_marks)), NewReno's do not ($(field "$T/nr" ecn_marks))" \
	"[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ \"\$(field '$T/dc' ecn_marks)\" -gt 0 ] && [ \"\$(field '$T/nr' ecn_marks)\" = 0 ]"
check "and DCTCP's deepest queue is shallower than NewReno's ($(field "$T/dc" max_queue_bytes) < $(field "$T/nr" max_queue_bytes) bytes)" \
	"[ \"\$(field '$T/dc' max_queue_bytes)\" -lt \"\$(field '$T/nr' max_queue_bytes)\" ]"
# the centralised design: events to the controller, rates back (Figure 19)
"$SIM" --control=fastpass >"$T/o" 2>&1; rc=$?
check "--control=fastpass: exit 2, the option and its values named" \
	"[ $rc -eq 2 ] && grep -q -- \"--control: decentral or central, not 'fastpass'\" '$T/o'"
"$SIM" --topo=torus:4x4x4 --control=central --controller=64 >"$T/o" 2>&1; rc=$?
c2=$(grep -c -- '--controller: a node, 0 to 63' "$T/o")
"$SIM" --control=central --stack=tcp >"$T/o" 2>&1; rc2=$?
check "--controller=64 of 64 nodes, and central with TCP: exit 2, each named" \
	"[ $rc -eq 2 ] && [ $c2 = 1 ] && [ $rc2 -eq 2 ] && grep -q -- '--control=central: with --stack=r2c2 only' '$T/o'"
"$SIM" --topo=torus:4x4x4 --flows=500 --announce-us=0 --control=central --controller=21 \
	--out="$T/cen.csv" >"$T/cen" 2>&1; rc=$?
check "central: 500 flows on 4x4x4 complete, the controller heard all $(field "$T/cen" flow_events) events, no frame refused or dropped" \
	"[ $rc -eq 0 ] && [ \"\$(field '$T/cen' done)\" = 500 ] && [ \"\$(field '$T/cen' flow_events)\" = 1000 ] && [ \"\$(field '$T/cen' controller_heard)\" = 1000 ] && [ \"\$(field '$T/cen' bad_frames)\" = 0 ] && [ \"\$(field '$T/cen' drops)\" = 0 ]"
check "central: every message sent arrived whole (offered $(field "$T/cen" ctl_offered_bytes) = carried $(field "$T/cen" ctl_bytes) bytes), every flow of 100 KB or more rated" \
	"[ \"\$(field '$T/cen' ctl_offered_bytes)\" = \"\$(field '$T/cen' ctl_bytes)\" ] && [ -s '$T/cen.csv' ] && ! awk -F, '!/^#/ && NR > 2 && \$4 >= 100000 && \$8 != 1' '$T/cen.csv' | grep -q . && [ \"\$(field '$T/cen' pushes)\" -ge 500 ]"
"$SIM" --topo=torus:4x4 --flows-file="$T/lone.flows" --stop-ms=3 --measure-from-ms=1 --control=central \
	--controller=10 --initial-rate=1e9 >"$T/cw" 2>&1
w=$(field "$T/cw" window_gbps)
check "central: a lone endless flow starting at 1 Gbit/s gets its rate from node 10: $w Gbit/s, within 9.1..9.3" \
	"between '${w:-0}' 9.1 9.3"
# k endless flows a node (64 nodes) and a 20-KB flow every 5 us
longf() {
	awk -v k="$1" 'BEGIN { srand(1)
		for (s = 0; s < 64; s++) for (i = 0; i < k; i++) {
			do d = int(rand() * 64); while (d == s); printf "%d %d 1e15 %.3f\n", s, d, rand() * 200 }
		for (t = 0; t < 2000; t += 5) {
			s = int(rand() * 64); do d = int(rand() * 64); while (d == s); printf "%d %d 20000 %.3f\n", s, d, t } }' | sort -k4 -g
}
for k in 1 4; do
	longf "$k" >"$T/l$k.flows"
	for m in decentral central; do
		"$SIM" --topo=torus:4x4x4 --flows-file="$T/l$k.flows" --announce-us=0 --control=$m --stop-ms=2 \
			--measure-from-ms=0.5 --initial-rate=1e9 >"$T/$m$k" 2>&1
	done
done
bpe() { field "$1" bytes_per_event; }
check "control bytes per event: broadcasts 2016 (63 links x 32 B) with 1 and 4 flows a node ($(bpe "$T/decentral1"), $(bpe "$T/decentral4")); central more, and more with 4 ($(bpe "$T/central1") < $(bpe "$T/central4"))" \
	"[ \"\$(bpe '$T/decentral1')\" = 2016.0 ] && [ \"\$(bpe '$T/decentral4')\" = 2016.0 ] && awk -v a=\"\$(bpe '$T/central1')\" -v b=\"\$(bpe '$T/central4')\" 'BEGIN { exit !(a > 2016 && b > 1.2 * a) }'"
exit $((fail > 0))
