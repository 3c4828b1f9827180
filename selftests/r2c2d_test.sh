#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# r2c2d_test.sh - the R2C2 rate loop end to end (issue 5): r2c2d learns
# node 0's flows, computes max-min rates and pushes them into sch_r2c2,
# and the flows get those rates through a capped link.
#
#	scripts/vm-run --kernel 6.1 -- selftests/run.sh r2c2d_test.sh
# (R2C2D_VERBOSE=1: daemons log with -v; NO_TCP=1: skip the plain TCP
# runs; SCEN="4 3": only these scenarios)
#
#	 [0] p0 --tbf CAP--> p1 [1]      iperf3 flows 0 -> 1, 3x3 torus
#	 sch_r2c2 on r2c0 of node 0; r2c2d on nodes 0, 1 and 4
#
# Scenarios (issue 5's numbering), each also run without r2c2d (plain
# TCP, no sch_r2c2) for the queue at the bottleneck, printed side by side:
#   1. N flows through one bottleneck: equal shares;
#   2. weights 1:2:4 (traffic classes by destination port, r2c2ctl class)
#      give proportional shares;
#   3. a high-priority flow (class prio 0, host-limited at 6 Mbit/s, more
#      than its max-min share of a third) gets what it needs first, two of
#      prio 1 share the rest (without priorities all three would get a
#      third: the check also asserts that the allocation differs);
#   4. a host-limited flow (iperf3 -b) keeps its rate, the others share
#      the rest;
#   5. a flow leaving hands its share back.
#
# No fixed sleeps: a scenario waits until node 0's daemon pushed the rates
# of exactly its flows (r2c2ctl -j matrix show: pushed = rate; qflow show:
# the qdisc holds them), then measures a window of WIN seconds. The window
# counts only if the pushed rates did not change during it; "achieved" is
# what sch_r2c2 let through a flow in it (QFLOW_GET byte counters: the
# bytes its rates count, r2c0 frames). Every flow must be within TOL (5 %)
# of `r2c2ctl alloc` run offline on the flows of node 0's matrix
# (host-limited flows: within TOL of what they offer); a window that
# misses is measured again, up to TRIES windows, so a loaded machine
# costs time, not a wrong verdict. A window's length is known only to
# the time its two dumps took (u, relative): a flow passes within
# TOL + u, and a window with u > TOL is measured again. The largest tbf
# backlog at p0 (sampled every 0.2 s during the windows) is printed for
# both runs.
#
# The daemon's link_capacity is the tbf rate: the 5 % headroom covers the
# r2c2 header (40 B a frame on p0, 2.7 % of a full frame), so the tbf
# never has to queue once rates are set.

lib_dir=$(cd "$(dirname "$0")" && pwd)
source "$lib_dir/lib.sh"
source "$lib_dir/torus.sh"

require_root
require_cmd ip jq iperf3 awk ss
require_module veth
require_r2c2
require_cmd r2c2d
[[ -d /sys/module/sch_r2c2 ]] || modprobe -q sch_r2c2 2>/dev/null ||
	ksft_skip_all "sch_r2c2.ko not available"
TC=/usr/sbin/tc
[[ -x $TC ]] || TC=$(command -v tc)

# Mbit/s at the bottleneck: low enough that a TCG guest on a loaded host
# (load 15 on 2 cores: flows of 1-3 Mbit/s each at CAP 20) still fills it
CAP=${CAP:-10}
TOL=${TOL:-0.05}
WIN=${WIN:-5}			# seconds a measurement window
TRIES=${TRIES:-6}		# windows a scenario may take
SETTLE_MS=${SETTLE_MS:-30000}	# wait at most this long for the pushes
LEN=120				# seconds the clients send
LIM=${LIM:-2090000}		# iperf3 -b 2M in r2c0 frames, bit/s
SCEN=" ${SCEN:-1 4 5 2 3} "	# scenarios to run
want() { [[ $SCEN == *" $1 "* ]]; }
# 3 checks, and one per scenario run
nplan=3
for sc in 1 2 3 4 5; do want "$sc" && nplan=$((nplan + 1)); done
ksft_plan "$nplan"
TMP=$(mktemp -d)
DPIDS=()
CPIDS=()
stop_daemons() { stop_pids "${DPIDS[@]}"; DPIDS=(); }
stop_clients() { stop_pids "${CPIDS[@]}"; CPIDS=(); }
cleanup_add "rm -rf $TMP"
cleanup_add stop_daemons
cleanup_add stop_clients

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
ip netns exec "$N1" iperf3 -s -D -p 5203 >/dev/null
cleanup_add "ip netns exec $N1 pkill -x iperf3"
listening() { ip netns exec "$N1" ss -Hltn 'sport = :5203' | grep -q .; }
busywait 10000 listening
check_err $? "iperf3 servers on node 1"

# r2c2d options: no route search (it would move flows off p0). Under TCG
# on a loaded host a daemon ticking every 500 us with a qdisc dump every
# 10 ms takes a whole vCPU (loop 5 ms a tick) and starves the flows it
# controls, which then rightly look host-limited: rho 5 ms, dumps every
# 50 ms (10 samples a 500 ms demand window).
DOPTS=(-o "link_capacity=${CAP}M" -o ga_interval_ms=0 -o rho_us=5000
	-o demand_interval_ms=50)
[[ -n ${R2C2D_VERBOSE:-} ]] && DOPTS+=(-v)

# queue_max SECONDS: the largest tbf backlog of node 0's p0 (bytes),
# sampled every 0.2 s for that long
queue_max()
{
	local end=$((SECONDS + $1)) q max=0

	while ((SECONDS < end)); do
		q=$(ip netns exec "$N0" "$TC" -s qdisc show dev p0 |
			sed -n 's/.*backlog \([0-9]*\)b.*/\1/p' | head -n 1)
		((${q:-0} > max)) && max=$q
		sleep 0.2
	done
	echo "$max"
}

# clients SPEC...: start iperf3 clients 0 -> 1; SPEC is "P" (P unlimited
# flows), "P@RATE" (P flows of RATE each, host-limited), "P+S" (P flows
# for S seconds only; their pid goes to SHORT)
clients()
{
	local spec p rate len port=5201

	SHORT=
	CLIENTS_T0=$SECONDS
	for spec in "$@"; do
		p=${spec%%[@+]*}
		rate= len=$LEN
		[[ $spec == *@* ]] && rate=${spec#*@}
		[[ $spec == *+* ]] && len=${spec#*+}
		# -l 16K: iperf3 -b writes a block whenever it is behind,
		# 128 KB by default (a tenth of a window at 2 Mbit/s)
		ip netns exec "$N0" iperf3 -c "$DST" -p "$port" -P "$p" \
			-t "$len" ${rate:+-b "$rate" -l 16K} \
			>>"$TMP/client-$port.log" 2>&1 &
		CPIDS+=($!)
		[[ $spec == *+* ]] && SHORT=$!
		port=$((port + 1))
	done
}

qflows() { ip netns exec "$N0" r2c2ctl -j qflow show 2>/dev/null; }
matrix() { ip netns exec "$N0" r2c2ctl -j matrix show 2>/dev/null; }

# settled N LIMITED: node 0's matrix holds exactly N own flows, LIMITED of
# them with an announced demand, every one pushed at its computed rate,
# and the qdisc holds those rates
settled()
{
	local m q

	m=$(matrix) && q=$(qflows) || return 1
	# shellcheck disable=SC2016  # a jq filter: $ is jq's
	json_assert -n --argjson m "$m" --argjson q "$q" --argjson n "$1" \
		--argjson lim "$2" '
		[$m.flows[] | select(.src == 0)] as $own |
		($q | map({key: (.flow | ltrimstr("0x")), value: .rate}) |
		 from_entries) as $qr |
		($own | length) == $n and
		([$own[] | select(.demand_kbps >= 0)] | length) == $lim and
		all($own[]; .pushed > 0 and
			((.pushed - .rate) | fabs) <= 0.05 * .rate and
			$qr[.flow] != null and
			(($qr[.flow] - .pushed) | fabs) <= 0.01 * .pushed)' \
		>/dev/null
}

# window NAME: one measurement window; leaves $TMP/NAME.{m0,a,b,m,t,q}.
# Fails if the pushed rates changed during it.
window()
{
	local name=$1 a0 a1 b0 b1

	matrix >"$TMP/$name.m0"
	# a dump is taken somewhere inside its r2c2ctl call, which takes
	# 0.1-0.5 s under TCG: time it by the call's middle, not its ends
	# (bracketing both calls read every rate ~5 % low)
	a0=$(date +%s.%N)
	qflows >"$TMP/$name.a"
	a1=$(date +%s.%N)
	queue_max "$WIN" >"$TMP/$name.q"
	b0=$(date +%s.%N)
	qflows >"$TMP/$name.b"
	b1=$(date +%s.%N)
	matrix >"$TMP/$name.m"
	awk -v a0="$a0" -v a1="$a1" -v b0="$b0" -v b1="$b1" \
		'BEGIN { print (b0 + b1) / 2 - (a0 + a1) / 2 }' >"$TMP/$name.t"
	# the window's length is known to +-u (relative): each dump was
	# taken somewhere inside its call
	awk -v a0="$a0" -v a1="$a1" -v b0="$b0" -v b1="$b1" \
		'BEGIN { printf "%.4f\n", ((a1 - a0) + (b1 - b0)) / 2 / ((b0 + b1) / 2 - (a0 + a1) / 2) }' \
		>"$TMP/$name.u"
	# shellcheck disable=SC2016  # a jq filter: $ is jq's
	json_assert -n --slurpfile x "$TMP/$name.m0" --slurpfile y "$TMP/$name.m" '
		def p: [.flows[] | select(.src == 0 and .pushed > 1000) |
			{flow, pushed, demand_kbps}] | sort_by(.flow);
		# a new flow at the lowest rate (an iperf3 control
		# connection) moves the others by 0.01 %: not a change
		($x[0] | p) as $a | ($y[0] | p) as $b |
		($a | map(.flow)) == ($b | map(.flow)) and
		([range($a | length)] | all(. as $i |
			$a[$i].demand_kbps == $b[$i].demand_kbps and
			(($a[$i].pushed - $b[$i].pushed) | fabs) <= 0.01 * $a[$i].pushed))' >/dev/null
}

# achieved NAME: "flow bit/s" of flows that sent in the window
achieved()
{
	jq -n --slurpfile a "$TMP/$1.a" --slurpfile b "$TMP/$1.b" \
		--argjson t "$(cat "$TMP/$1.t")" -r '
		($a[0] | map({key: .flow, value: .bytes}) | from_entries) as $s |
		$b[0][] | select($s[.flow] != null and .bytes >= $s[.flow]) |
		"\(.flow | ltrimstr("0x")) \((.bytes - $s[.flow]) * 8 / $t)"'
}

# The traffic classes the test configured: destination port -> weight
# and prio (r2c2ctl class add, below). A flow of no class has weight 1,
# prio 0. The offline allocation takes them from here, not from the
# matrix: if class weights never reached the matrix, an allocation fed
# the matrix's own weights would agree with the daemon's wrong rates.
CLASSES='{}'

# offline NAME: "flow bit/s" from r2c2ctl alloc over node 0's matrix,
# with each flow's weight and prio those of the class configured for its
# destination port (qflow show of the window gives the port); a flow of
# node 0 whose port is unknown fails it
offline()
{
	local m=$TMP/$1.m

	# shellcheck disable=SC2016  # a jq filter: $ is jq's
	jq -r --slurpfile a "$TMP/$1.a" --slurpfile b "$TMP/$1.b" \
		--argjson cls "$CLASSES" '
		(($a[0] + $b[0]) | map({key: (.flow | ltrimstr("0x")),
			value: (.dport // 0)}) | from_entries) as $port |
		.flows[] |
		(if .src != 0 then {weight, prio}
		 elif $port[.flow] == null then {weight: "unknown-port", prio: 0}
		 else ($cls[$port[.flow] | tostring] // {weight: 1, prio: 0}) end) as $c |
		"\(.src) \(.dst) weight=\($c.weight) prio=\($c.prio)" +
		(if .demand_kbps >= 0 then " demand=\(.demand_kbps)k" else "" end)' \
		"$m" >"$TMP/$1.flows" || return 1
	r2c2ctl -j alloc --topology torus:3x3 --capacity "${CAP}M" \
		--flows "$TMP/$1.flows" >"$TMP/$1.alloc" || return 1
	jq -r --slurpfile m "$m" '
		[$m[0].flows[].flow] as $ids |
		.flows[] | "\($ids[.index]) \(.rate_bps)"' "$TMP/$1.alloc"
}

# check NAME MINFLOWS: every flow that sent more than 1 % of CAP is within
# TOL of its offline rate (a flow with an announced demand: between LIM,
# what it offers, and its offline rate).
# Prints a table; RESULT gets "flow achieved/alloc ..." for the summary.
check()
{
	local name=$1 min=$2

	achieved "$name" >"$TMP/$name.got"
	offline "$name" >"$TMP/$name.want" || return 1
	jq -r '.flows[] | select(.src == 0) |
		"\(.flow) \(.pushed // 0) \(.demand_kbps)"' "$TMP/$name.m" \
		>"$TMP/$name.pushed"
	awk -v cap="$CAP" -v tol="$TOL" -v min="$min" -v lim="$LIM" \
		-v u="$(cat "$TMP/$name.u")" '
		FILENAME ~ /want$/ { want[$1] = $2; next }
		FILENAME ~ /pushed$/ { pushed[$1] = $2; dem[$1] = $3; next }
		$2 > cap * 1e6 / 100 {
			n++; w = want[$1]; ref = w
			err = ref > 0 ? ($2 - ref) / ref : 1
			# a host-limited flow gets what it offers (LIM; iperf3 -b
			# catches up after a stall, so it may send more) up to
			# its allocation
			if (dem[$1] >= 0) {
				ref = lim
				if ($2 < lim)
					err = ($2 - lim) / lim
				else if ($2 > w)
					err = ($2 - w) / w
				else
					err = 0
			}
			printf "#   flow %s: achieved %6.3f Mbit/s, alloc %6.3f, pushed %6.3f, demand %s, off %+.1f %%\n",
				$1, $2 / 1e6, w / 1e6, pushed[$1] / 1e6,
				dem[$1] < 0 ? "unlimited" : dem[$1] "k", 100 * err
			# every rate of the window shares the uncertainty u
			# of its length: a flow is off only beyond TOL + u
			if (err > tol + u || err < -tol - u) bad++
		}
		END {
			if (n < min) { printf "#   %d flows sent, want %d\n", n, min; exit 1 }
			exit bad > 0
		}' "$TMP/$name.want" "$TMP/$name.pushed" "$TMP/$name.got"
}

# scenario NAME N LIMITED: wait for the pushes, then windows until one
# is stable and passes. A window whose pushed rates changed, or whose
# length is uncertain by more than TOL (the dumps took over TOL * WIN),
# is no verdict and is measured again; at most TRIES windows are judged,
# and none starts after the clients' LEN seconds are nearly over.
scenario()
{
	local name=$1 n=$2 lim=$3 try judged=0 ok=1 t0=$SECONDS rc u

	busywait "$SETTLE_MS" settled "$n" "$lim"
	rc=$?
	check_err $rc "node 0's rates not pushed within $((SETTLE_MS / 1000)) s"
	if ((rc)); then
		matrix | head -c 1500 | sed "s/^/# $name: matrix: /"
		qflows | head -c 1500 | sed "s/^/# $name: qflows: /"
	fi
	log_info "$name: rates pushed after $((SECONDS - t0)) s"
	# the clients send for LEN s: no window may start after LEN - WIN
	for ((try = 1; judged < TRIES && SECONDS - CLIENTS_T0 < LEN - WIN - 5; try++)); do
		if ! window "$name"; then
			log_info "$name: window $try: the pushed rates changed, again"
			for f in m0 m; do
				jq -c '[.flows[] | select(.src == 0) | [.flow, .pushed, .demand_kbps, .sent_rate, .backlog_min, .rate]]' \
					"$TMP/$name.$f" | sed "s/^/# $name.$f: /"
			done
			continue
		fi
		u=$(cat "$TMP/$name.u")
		if awk -v u="$u" -v tol="$TOL" 'BEGIN { exit !(u > tol) }'; then
			log_info "$name: window $try: its length is uncertain by $u, again"
			continue
		fi
		judged=$((judged + 1))
		log_info "$name: window $try ($(cat "$TMP/$name.t") s, +-$u):"
		check "$name" "$n" && { ok=0; break; }
	done
	check_err $ok "rates not within $TOL of r2c2ctl alloc in $judged judged windows of $((try - 1))"
	if ((ok)); then
		ip netns exec "$N0" "$TC" -s qdisc show dev r2c0 | sed "s/^/# $name: tc: /"
		for f in m a b got want; do
			head -c 600 "$TMP/$name.$f" | sed "s/^/# $name.$f: /"
		done
	fi
}

# tcp NAME SPEC...: the same clients without sch_r2c2 and r2c2d: the
# largest tbf backlog over a window, 2 s after they started
tcp()
{
	local name=$1
	shift

	clients "$@"
	sleep 2
	queue_max "$WIN" >"$TMP/$name-tcp.q"
	stop_clients
}

side()
{
	log_info "$1: max tbf backlog at p0: r2c2d $(cat "$TMP/$1.q") B, plain TCP $(cat "$TMP/$1-tcp.q" 2>/dev/null || echo -) B"
}

# the qdisc forgot the last scenario's flows (idle 500 ms), so did r2c2d
drained()
{
	busywait 10000 settled 0 0
}

# ---- plain TCP (no sch_r2c2, no daemon) ----
if [[ -z ${NO_TCP:-} ]]; then
	want 1 && tcp s1 3
	want 4 && tcp s4 2 1@2M
	want 5 && tcp s5 2
	want 2 && tcp s2 1 1 1
	want 3 && tcp s3 1@6M 2
fi

# ---- with r2c2d ----
# idle 5s: a flow the loaded guest starves for half a second must not be
# forgotten (and re-created, moving every rate) by the qdisc
ip netns exec "$N0" "$TC" qdisc add dev r2c0 root r2c2 idle 5s catchup 20ms
check_err $? "sch_r2c2 on r2c0 of node 0"
for id in 0 1 4; do
	ip netns exec "$(torus_ns "$id")" r2c2d "${DOPTS[@]}" 2>"$TMP/d$id.log" &
	DPIDS+=($!)
done
busywait 10000 ip netns exec "$N0" r2c2ctl daemon show >/dev/null
check_err $? "r2c2d answers on its control socket"
log_test "r2c2d on nodes 0, 1, 4 (${DOPTS[*]})"

if want 1; then
clients 3
scenario s1 3 0
n4=$(ip netns exec "$(torus_ns 4)" r2c2ctl -j matrix show |
	jq '[.flows[] | select(.src == 0 and .dst == 1)] | length')
log_info "node 4 knows $n4 flows 0->1"
side s1
stop_clients
log_test "1: 3 flows through one bottleneck get their max-min shares"
fi

if want 4; then
drained
clients 2 1@2M
scenario s4 3 1
side s4
stop_clients
log_test "4: a host-limited flow's unused share goes to the others"
fi

if want 5; then
drained
# the third flow lasts 20 s: long enough for its share to be pushed first
clients 2 1+20
busywait 20000 settled 3 0
check_err $? "3 flows not pushed"
wait "$SHORT" 2>/dev/null
scenario s5 2 0
side s5
stop_clients
log_test "5: a flow leaving hands its share back"
fi

# classes are taken by a flow's first packet: set before the clients
if want 2; then
drained
ip netns exec "$N0" bash -c 'r2c2ctl class add 1 dport 5201 weight 1 &&
	r2c2ctl class add 2 dport 5202 weight 2 &&
	r2c2ctl class add 3 dport 5203 weight 4'
check_err $? "r2c2ctl class add"
CLASSES='{"5201": {"weight": 1, "prio": 0}, "5202": {"weight": 2, "prio": 0},
	"5203": {"weight": 4, "prio": 0}}'
clients 1 1 1
scenario s2 3 0
side s2
stop_clients
log_test "2: weights 1:2:4 give proportional shares"
ip netns exec "$N0" bash -c 'for c in 1 2 3; do r2c2ctl class del $c; done'
CLASSES='{}'
fi

if want 3; then
drained
ip netns exec "$N0" bash -c 'r2c2ctl class add 1 dport 5201 prio 0 &&
	r2c2ctl class add 2 dport 5202 prio 1'
check_err $? "r2c2ctl class add"
CLASSES='{"5201": {"weight": 1, "prio": 0}, "5202": {"weight": 1, "prio": 1}}'
LIM=6270000
clients 1@6M 2
scenario s3 3 1
# the same matrix with every flow at prio 0: a scenario where priority
# changes nothing could not tell a daemon that ignores it
CLASSES='{"5201": {"weight": 1, "prio": 0}, "5202": {"weight": 1, "prio": 0}}' \
	offline s3 >"$TMP/s3.flat"
awk 'FILENAME ~ /flat$/ { flat[$1] = $2; next }
	$1 in flat && flat[$1] > 0 && ($2 - flat[$1]) / flat[$1] < -0.1 { low++ }
	END { exit !(low >= 2) }' "$TMP/s3.flat" "$TMP/s3.want"
check_err $? "priorities do not change the allocation: with $(tr '\n' ' ' <"$TMP/s3.want"), without $(tr '\n' ' ' <"$TMP/s3.flat" 2>/dev/null)"
side s3
stop_clients
ip netns exec "$N0" bash -c 'r2c2ctl class del 1; r2c2ctl class del 2'
CLASSES='{}'
log_test "3: a high-priority flow takes what it needs first"
fi

# every request the sending node's daemon made to the kernel completed:
# a request nested in another's callback (an announcement sent from the
# qdisc dump's) used to eat the dump's end and stall the loop for 2 s
RET=0
nlerr=$(ip netns exec "$N0" r2c2ctl -j daemon show | jq '.timings.nl_request_errors')
[[ $nlerr == 0 ]]
check_err $? "node 0's daemon: $nlerr netlink requests failed or timed out (nl_request_errors)"
log_test "node 0's daemon: every netlink request completed"

ip netns exec "$N0" r2c2ctl daemon show | grep -E '^(flows|rounds|pushes|push_errors|announces|compute_us_mean|loop_us_mean|loop_us_max|ctl_timeouts|nl_requests|nl_request_errors) ' |
	tr '\n' ' ' | sed 's/^/# INFO: node 0: /; s/$/\n/'
stop_daemons
if ((ksft_fail)); then
	tail -n 5 "$TMP"/client-*.log | sed 's/^/# iperf3: /'
	for id in 0 1 4; do
		grep -v 'push flow' "$TMP/d$id.log" | tail -n 12 |
			sed "s/^/# r2c2d-$id: /"
	done
fi
ksft_exit
