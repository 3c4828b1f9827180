#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# r2c2d_test.sh - the R2C2 rate loop end to end (issue 5): r2c2d learns
# node 0's flows, computes max-min rates and pushes them into sch_r2c2,
# and the flows get those rates through a capped link.
#
# Not in CI yet (selftests/manual/): see Documentation/r2c2d.md, "Status".
# Run it by hand in the VM:
#	scripts/vm-run --kernel 6.1 -- bash selftests/manual/r2c2d_test.sh
# (R2C2D_VERBOSE=1: daemons log with -v; NO_TCP=1: skip the plain TCP runs)
#
#	 [0] p0 --tbf CAP--> p1 [1]      iperf3 flows 0 -> 1, 3x3 torus
#	 sch_r2c2 on r2c0 of node 0; r2c2d on nodes 0, 1 and 4
#
# Scenarios (issue 5's numbering), each also run without r2c2d (plain
# TCP, no sch_r2c2) for the queue at the bottleneck, printed side by side:
#   1. N flows through one bottleneck: equal shares;
#   4. a host-limited flow (iperf3 -b) keeps its rate, the others share
#      the rest;
#   5. a flow leaving hands its share back.
# "Achieved" is what sch_r2c2 let through a flow (QFLOW_GET byte counters
# between two samples: the bytes its rates count, r2c0 frames); every
# flow is checked within TOL (5 %) of `r2c2ctl alloc` run offline on the
# flows in node 0's matrix (host-limited flows: within TOL of what they
# offer). The largest tbf backlog at p0 (sampled every 0.2 s) is printed
# for both runs.
#
# The daemon's link_capacity is the tbf rate: the 5 % headroom covers the
# r2c2 header (40 B a frame on p0, 2.7 % of a full frame), so the tbf
# never has to queue once rates are set.

lib_dir=$(cd "$(dirname "$0")/.." && pwd)
source "$lib_dir/lib.sh"
source "$lib_dir/torus.sh"

require_root
require_cmd ip jq iperf3 awk
require_module veth
require_r2c2
require_cmd r2c2d
[[ -d /sys/module/sch_r2c2 ]] || modprobe -q sch_r2c2 2>/dev/null ||
	ksft_skip_all "sch_r2c2.ko not available"
TC=/usr/sbin/tc
[[ -x $TC ]] || TC=$(command -v tc)

CAP=${CAP:-20}			# Mbit/s at the bottleneck
TOL=${TOL:-0.05}
DUR=${DUR:-14}			# seconds of traffic a run
T1=${T1:-4}			# rates are measured between T1 and T2
T2=${T2:-7}
TCP_DUR=${TCP_DUR:-6}		# plain TCP runs: only the queue is measured
TMP=$(mktemp -d)
DPIDS=()
stop_daemons()
{
	local p

	for p in "${DPIDS[@]}"; do
		kill "$p" 2>/dev/null
	done
	for p in "${DPIDS[@]}"; do
		wait "$p" 2>/dev/null
	done
	DPIDS=()
}
cleanup_add "rm -rf $TMP"
cleanup_add stop_daemons

torus_create 3 3 || exit "$KSFT_FAIL"
torus_wait_converged 90
check_err $? "torus did not converge"
log_test "3x3 torus up"

N0=$(torus_ns 0)
N1=$(torus_ns 1)
DST=$(torus_addr4 1)
ip netns exec "$N0" "$TC" qdisc add dev p0 root tbf rate "${CAP}mbit" \
	burst 16k latency 200ms
ip netns exec "$N1" iperf3 -s -D -p 5201 >/dev/null
ip netns exec "$N1" iperf3 -s -D -p 5202 >/dev/null
cleanup_add "ip netns exec $N1 pkill -x iperf3"

# r2c2d options: no route search (it would move flows off p0)
# Demand: only a flow using less than half its share is host-limited (TCP
# under TCG wobbles by 10-20 %, which must not be taken for a demand).
DOPTS=(-o "link_capacity=${CAP}M" -o demand_low=0.5 -o demand_high=0.9)
r2c2d -n -o ga_interval_ms=0 >/dev/null 2>&1 && DOPTS+=(-o ga_interval_ms=0)
[[ -n ${R2C2D_VERBOSE:-} ]] && DOPTS+=(-v)

# sample_queue FILE: the tbf backlog of node 0's p0 (bytes) every 0.2 s
sample_queue()
{
	local out=$1

	while :; do
		ip netns exec "$N0" "$TC" -s qdisc show dev p0 |
			sed -n 's/.*backlog \([0-9]*\)b.*/\1/p' | head -n 1 >>"$out"
		sleep 0.2
	done
}

qflows() { ip netns exec "$N0" r2c2ctl -j qflow show 2>/dev/null; }

# run NAME SPEC...: one run; SPEC is "P" (P unlimited flows, one client),
# "P@RATE" (P flows of RATE each, host-limited), "P+S" (P flows for
# S seconds only). Leaves $TMP/NAME.{q,a,b,m} (queue samples, qflow at
# T1 and T2, node 0's matrix at T2).
run()
{
	local name=$1 spec port=5201 t p rate len qpid dur=$DUR
	local -a cl=()
	shift

	if [[ $name == *-tcp ]]; then
		dur=$TCP_DUR
		: >"$TMP/$name.q"
		sample_queue "$TMP/$name.q" &
		qpid=$!
		for spec in "$@"; do
			p=${spec%%[@+]*}
			rate= len=$dur
			[[ $spec == *@* ]] && rate=${spec#*@}
			[[ $spec == *+* ]] && len=${spec#*+}
			ip netns exec "$N0" iperf3 -c "$DST" -p "$port" -P "$p" \
				-t "$len" ${rate:+-b "$rate"} >/dev/null 2>&1 &
			cl+=($!)
			port=$((port + 1))
		done
		for p in "${cl[@]}"; do
			wait "$p"
		done
		kill "$qpid" 2>/dev/null
		wait "$qpid" 2>/dev/null
		return
	fi

	: >"$TMP/$name.q"
	sample_queue "$TMP/$name.q" &
	qpid=$!
	for spec in "$@"; do
		p=${spec%%[@+]*}
		rate= len=$dur
		[[ $spec == *@* ]] && rate=${spec#*@}
		[[ $spec == *+* ]] && len=${spec#*+}
		ip netns exec "$N0" iperf3 -c "$DST" -p "$port" -P "$p" -t "$len" \
			${rate:+-b "$rate"} >/dev/null 2>&1 &
		cl+=($!)
		port=$((port + 1))
	done
	sleep "$T1"
	qflows >"$TMP/$name.a"
	t=$(date +%s.%N)
	ip netns exec "$N0" r2c2ctl -j matrix show >"$TMP/$name.m" 2>/dev/null
	sleep $((T2 - T1))
	qflows >"$TMP/$name.b"
	t=$(awk -v a="$t" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
	echo "$t" >"$TMP/$name.t"
	for p in "${cl[@]}"; do
		wait "$p"
	done
	kill "$qpid" 2>/dev/null
	wait "$qpid" 2>/dev/null
	sleep 0.5
}

maxq() { sort -n "$TMP/$1.q" 2>/dev/null | tail -n 1; }

# achieved NAME: "flow bit/s" of flows that sent in [T1, T2]
achieved()
{
	jq -n --slurpfile a "$TMP/$1.a" --slurpfile b "$TMP/$1.b" \
		--argjson t "$(cat "$TMP/$1.t")" -r '
		($a[0] | map({key: .flow, value: .bytes}) | from_entries) as $s |
		$b[0][] | select($s[.flow] != null and .bytes >= $s[.flow]) |
		"\(.flow[2:]) \((.bytes - $s[.flow]) * 8 / $t)"'
}

# offline NAME: "flow bit/s" from r2c2ctl alloc over node 0's matrix
offline()
{
	local m=$TMP/$1.m

	jq -r '.flows[] | "\(.src) \(.dst) weight=\(.weight) prio=\(.prio)" +
		(if .demand_kbps >= 0 then " demand=\(.demand_kbps)k" else "" end)' \
		"$m" >"$TMP/$1.flows"
	r2c2ctl -j alloc --topology torus:3x3 --capacity "${CAP}M" \
		--flows "$TMP/$1.flows" >"$TMP/$1.alloc" || return 1
	jq -r --slurpfile m "$m" '
		[$m[0].flows[].flow] as $ids |
		.flows[] | "\($ids[.index]) \(.rate_bps)"' "$TMP/$1.alloc"
}

# check NAME MINFLOWS [LIMITED_RATE_BPS]: every flow that sent more than
# 1 % of CAP is within TOL of its offline rate; a flow whose announced
# demand is limited is checked against LIMITED instead. Prints a table.
check()
{
	local name=$1 min=$2 lim=${3:-0}

	achieved "$name" >"$TMP/$name.got"
	offline "$name" >"$TMP/$name.want" || return 1
	jq -r '.flows[] | select(.src == 0) |
		"\(.flow) \(.pushed // 0) \(.demand_kbps)"' "$TMP/$name.m" \
		>"$TMP/$name.pushed"
	awk -v cap="$CAP" -v tol="$TOL" -v min="$min" -v lim="$lim" '
		FILENAME ~ /want$/ { want[$1] = $2; next }
		FILENAME ~ /pushed$/ { pushed[$1] = $2; dem[$1] = $3; next }
		$2 > cap * 1e6 / 100 {
			n++; w = want[$1]; ref = w
			if (dem[$1] >= 0 && lim > 0) ref = lim
			err = ref > 0 ? ($2 - ref) / ref : 1
			printf "# flow %s: achieved %6.3f Mbit/s, alloc %6.3f, pushed %6.3f, demand %s, off %+.1f %%\n",
				$1, $2 / 1e6, w / 1e6, pushed[$1] / 1e6,
				dem[$1] < 0 ? "unlimited" : dem[$1] "k", 100 * err
			if (err > tol || err < -tol) bad++
		}
		END {
			if (n < min) { printf "# %d flows sent, want %d\n", n, min; exit 1 }
			exit bad > 0
		}' "$TMP/$name.want" "$TMP/$name.pushed" "$TMP/$name.got" && return 0
	for f in a b m got want; do
		head -c 600 "$TMP/$name.$f" | sed "s/^/# $name.$f: /"
	done
	return 1
}

# side NAME: the queue with and without r2c2d, side by side
side()
{
	log_info "$1: max tbf backlog at p0: r2c2d $(maxq "$1") B, plain TCP $(maxq "$1-tcp") B"
}

# ---- plain TCP (no sch_r2c2, no daemon) ----
if [[ -z ${NO_TCP:-} ]]; then
	run s1-tcp 3
	run s4-tcp 2 1@2M
	run s5-tcp 2 1+3
fi

# ---- with r2c2d ----
ip netns exec "$N0" "$TC" qdisc add dev r2c0 root r2c2 idle 500ms catchup 20ms
check_err $? "sch_r2c2 on r2c0 of node 0"
for id in 0 1 4; do
	ip netns exec "$(torus_ns "$id")" r2c2d "${DOPTS[@]}" 2>"$TMP/d$id.log" &
	DPIDS+=($!)
done
busywait 5000 ip netns exec "$N0" r2c2ctl daemon show >/dev/null
check_err $? "r2c2d answers on its control socket"
log_test "r2c2d on nodes 0, 1, 4 (${DOPTS[*]})"

run s1 3
n0=$(jq '[.flows[] | select(.src == 0 and .dst == 1)] | length' "$TMP/s1.m")
n4=$(ip netns exec "$(torus_ns 4)" r2c2ctl -j matrix show |
	jq '[.flows[] | select(.src == 0 and .dst == 1)] | length')
log_info "node 0 knows $n0 flows 0->1, node 4 knows $n4"
check s1 3
check_err $? "rates not within $TOL of r2c2ctl alloc"
side s1
log_test "1: 3 flows through one bottleneck get their max-min shares"

run s4 2 1@2M
check s4 3 2090000
check_err $? "rates not within $TOL of r2c2ctl alloc"
side s4
log_test "4: a host-limited flow's unused share goes to the others"

# the short flow runs 0..3 s; rates are measured from T1 = 4 s
run s5 2 1+3
check s5 2
check_err $? "rates not within $TOL of r2c2ctl alloc"
side s5
log_test "5: a flow leaving hands its share back"

ip netns exec "$N0" r2c2ctl daemon show | grep -E '^(flows|rounds|pushes|push_errors|announces|compute_us_mean|loop_us_mean) ' |
	tr '\n' ' ' | sed 's/^/# INFO: node 0: /; s/$/\n/'
stop_daemons
if ((ksft_fail)); then
	for id in 0 1 4; do
		grep -v 'push flow' "$TMP/d$id.log" | tail -n 12 |
			sed "s/^/# r2c2d-$id: /"
	done
fi
ksft_exit
