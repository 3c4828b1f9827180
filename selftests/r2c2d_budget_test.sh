#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# r2c2d_budget_test.sh - r2c2d's CPU budget (key cpu_budget): under churn
# a daemon with a budget runs fewer rounds and takes less CPU than one
# without, never leaves its rates more than a second old, and once the
# churn ends computes the same rates as the daemon without a budget.
#
#	scripts/vm-run --kernel 6.12 -- selftests/run.sh r2c2d_budget_test.sh
#
# A 2x2 torus (selftests/torus.sh), r2c2d on node 2 (no budget) and on
# node 3 (cpu_budget). Nodes 0 and 1 announce PER (6000) flows each with
# r2c2ctl event (r2c2ctl -b), so the daemons on nodes 2 and 3 hold the
# same matrix of 12000 flows without traffic (enough that the rounds, not
# reading events, are most of the daemon's CPU time); both run a round for
# every change (rounds = always) at rho 500 us. Then node 1 replaces its
# flows, a FINISH and a START at a time (batches of 10 pairs, ~0.1 s
# apart), for at least CHURN_S seconds. Each daemon's CPU time, every
# thread's (daemon show: cpu_us, from getrusage(); a round may be solved
# in a worker thread, round_worker_us) and its rounds' compute time
# (rounds x compute_us_mean) are read before and after. The budget is
# charged all of the daemon's CPU time (reading events too), and only
# rounds can wait, so what the test can require of the daemon with the
# budget is: its rounds within the budget (or, when reading the events
# takes all of it, only the rounds it cannot hold back: one a second),
# less CPU than the other, and a round at least every second.

lib_dir=$(cd "$(dirname "$0")" && pwd)
source "$lib_dir/lib.sh"
source "$lib_dir/torus.sh"

require_root
require_cmd ip jq awk
require_module veth
require_r2c2
require_cmd r2c2d
ksft_plan 4

BUDGET=0.3	# % of a core
CHURN_S=6
PER=6000	# flows each of nodes 0 and 1 announces
ALL=$((2 * PER))
TMP=$(mktemp -d)
NS=(r2c2-0 r2c2-1 r2c2-2 r2c2-3)
DPIDS=()
stop_daemons() { stop_pids "${DPIDS[@]}"; DPIDS=(); }
cleanup_add "rm -rf $TMP"
cleanup_add stop_daemons

TORUS_R2C0=down torus_create 2 2 && torus_wait_converged 30
check_err $? "the 2x2 torus did not converge"
log_test "2x2 torus up"

RET=0
for i in 2 3; do
	opts=(-o link_capacity=1G -o rounds=always
	      -o ga_interval_ms=0 -o expire_ms=600000 -o demand_interval_ms=0)
	((i == 3)) && opts+=(-o "cpu_budget=$BUDGET")
	ip netns exec "${NS[i]}" r2c2d "${opts[@]}" 2>"$TMP/d$i.log" &
	DPIDS+=($!)
done
for i in 2 3; do
	busywait 10000 ip netns exec "${NS[i]}" r2c2ctl daemon show >/dev/null 2>&1
	check_err $? "r2c2d on node $i answers"
done
# starts N FIRST SRC: N flow starts from SRC to the other nodes in turn
starts()
{
	local i

	for ((i = 0; i < $1; i++)); do
		echo "event send flow $(($2 + i)) dst $(( ($3 + 1 + i % 3) % 4 ))"
	done
}
starts "$PER" $((0x10000)) 0 >"$TMP/s0"
starts "$PER" $((0x20000)) 1 >"$TMP/s1"
ip netns exec "${NS[0]}" r2c2ctl -b "$TMP/s0" >/dev/null &&
	ip netns exec "${NS[1]}" r2c2ctl -b "$TMP/s1" >/dev/null
check_err $? "r2c2ctl -b: $ALL flow starts"
# shellcheck disable=SC2016  # a jq filter: $ is jq's
nflows() { ip netns exec "$1" r2c2ctl -j daemon show | json_assert --argjson n "$2" '.flows == $n'; }
for i in 2 3; do
	busywait 30000 nflows "${NS[i]}" "$ALL"
	check_err $? "node $i's daemon does not hold the $ALL flows"
done
show3=$(ip netns exec "${NS[3]}" r2c2ctl -j daemon show)
# shellcheck disable=SC2016  # a jq filter: $ is jq's
json_assert --argjson b "$BUDGET" '.config.cpu_budget == $b' <<<"$show3"
check_err $? "daemon show: config.cpu_budget is not $BUDGET: $(jq -c .config <<<"$show3")"
log_test "r2c2d on node 2 (no budget) and node 3 (cpu_budget $BUDGET %), $ALL flows"

# ------------------------------------------------------------------ churn
RET=0
counter() { ip netns exec "$1" r2c2ctl -j daemon show | jq ".timings.$2"; }
# cpu_ns NS: the daemon's CPU time, every thread's
cpu_ns() { ip netns exec "$1" r2c2ctl -j daemon show | jq '.timings.cpu_us * 1000'; }
# compute_ms NS: rounds x mean compute time, ms
compute_ms() { ip netns exec "$1" r2c2ctl -j daemon show | jq '.timings | .rounds * .compute_us_mean / 1000'; }
ra0=$(counter "${NS[2]}" rounds); rb0=$(counter "${NS[3]}" rounds)
ka0=$(compute_ms "${NS[2]}"); kb0=$(compute_ms "${NS[3]}")
ca0=$(cpu_ns "${NS[2]}"); cb0=$(cpu_ns "${NS[3]}"); t0=$(date +%s%N)
# node 1's flows replaced, 10 at a time: FINISH old, START new
j=0; pairs=0
while (($(date +%s%N) - t0 < CHURN_S * 1000000000)); do
	for ((i = j; i < j + 10; i++)); do
		echo "event send flow $((0x20000 + i)) type finish dst $(( (2 + i % 3) % 4 ))"
		echo "event send flow $((0x30000 + i)) dst $(( (2 + i % 3) % 4 ))"
	done >"$TMP/churn"
	ip netns exec "${NS[1]}" r2c2ctl -b "$TMP/churn" >/dev/null ||
		{ check_err 1 "r2c2ctl -b: churn"; break; }
	j=$((j + 10)); pairs=$((pairs + 10))
	((j < PER)) || { check_err 1 "the churn ran out of flows"; break; }
	sleep 0.1
done
ca1=$(cpu_ns "${NS[2]}"); cb1=$(cpu_ns "${NS[3]}"); t1=$(date +%s%N)
ra1=$(counter "${NS[2]}" rounds); rb1=$(counter "${NS[3]}" rounds)
ka1=$(compute_ms "${NS[2]}"); kb1=$(compute_ms "${NS[3]}")
x=$(awk -v a="$ca0" -v b="$ca1" -v s="$t0" -v e="$t1" 'BEGIN { printf "%.2f", 100 * (b - a) / (e - s) }')
y=$(awk -v a="$cb0" -v b="$cb1" -v s="$t0" -v e="$t1" 'BEGIN { printf "%.2f", 100 * (b - a) / (e - s) }')
secs=$(awk -v s="$t0" -v e="$t1" 'BEGIN { printf "%.1f", (e - s) / 1e9 }')
# the rounds' share of a core
ra=$(awk -v a="$ka0" -v b="$ka1" -v s="$secs" 'BEGIN { printf "%.2f", (b - a) / 10 / s }')
rb=$(awk -v a="$kb0" -v b="$kb1" -v s="$secs" 'BEGIN { printf "%.2f", (b - a) / 10 / s }')
log_info "$((pairs * 2)) events in $secs s; no budget: $x % of a core, rounds $((ra1 - ra0)) taking $ra %; cpu_budget $BUDGET: $y %, rounds $((rb1 - rb0)) taking $rb %, $(counter "${NS[3]}" rounds_deferred) deferred"
# the rounds must cost more than the budget, or nothing is tested
awk -v r="$ra" -v b="$BUDGET" 'BEGIN { exit !(r >= 3 * b) }'
check_err $? "without a budget the rounds took only $ra % of a core (< 3 x $BUDGET %): too light to test"
# within the budget, give or take the bucket (a second's worth: b / s %)
# and one round (m us: m / 10^4 / s %); or, where reading the events
# takes all of the budget (under TCG it does), no more rounds than the
# one a second that the budget cannot hold back, and the first burst's
# (with 12000 flows seven such rounds took 0.83 % of 7.1 s)
m=$(counter "${NS[3]}" compute_us_max)
awk -v r="$rb" -v b="$BUDGET" -v s="$secs" -v m="$m" -v n="$((rb1 - rb0))" \
	'BEGIN { exit !(r <= b + (b + m / 10000) / s || n <= s + 1) }'
check_err $? "with a budget the rounds took $rb % of a core in $((rb1 - rb0)) rounds (the longest $m us)"
awk -v x="$x" -v y="$y" 'BEGIN { exit !(y < x) }'
check_err $? "with a budget $y % of a core against $x % without"
(($(counter "${NS[3]}" rounds_deferred) > 0 && $(counter "${NS[2]}" rounds_deferred) == 0))
check_err $? "rounds_deferred: $(counter "${NS[3]}" rounds_deferred) with the budget, $(counter "${NS[2]}" rounds_deferred) without"
# a round at least every second (and the first burst): a round starts at
# most 1 s after the one before it started, but a guest its host starves
# wakes late (make check's 6.1 guest on a slow host: 7 rounds in 8.2 s),
# so one second of slack: rounds >= secs - 2. Without the cap (r2c2d's
# max_wait 0) the budget ran no round at all in 7.3 s
awk -v r="$((rb1 - rb0))" -v s="$secs" -v a="$((ra1 - ra0))" \
	'BEGIN { exit !(r >= s - 2 && r < a / 2) }'
check_err $? "with a budget $((rb1 - rb0)) rounds in $secs s (want at least $secs - 2: one a second), without $((ra1 - ra0)) (want over twice as many)"
log_test "churn: the budget holds rounds back ($y % of a core against $x %), a round at least every second"

# ------------------------------------------------------------------ after
RET=0
rates() { ip netns exec "$1" r2c2ctl -j matrix show | jq -r '.flows[] | "\(.src) \(.flow) \(.rate)"' | sort; }
same()
{
	rates "${NS[2]}" >"$TMP/a" && rates "${NS[3]}" >"$TMP/b" &&
		awk -v all="$ALL" 'NR == FNR { r[$1 " " $2] = $3; n++; next }
		     { m++; k = $1 " " $2
		       if (!(k in r) || ($3 - r[k]) ^ 2 > (1e-6 * $3) ^ 2) bad = 1 }
		     END { exit bad || n != m || n != all }' "$TMP/a" "$TMP/b"
}
t0=$SECONDS
busywait 15000 same
check_err $? "the two daemons' rates differ after the churn ($(wc -l <"$TMP/b") flows)"
log_test "after the churn both daemons hold the same $ALL rates ($((SECONDS - t0)) s)"

ksft_exit
