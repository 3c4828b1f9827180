#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# r2c2d.sh - benchmarks of r2c2d and of the flow-event broadcasts (issue 5),
# in the VM (root, r2c2.ko). Not a test: prints "bench r2c2d ..." lines.
#
#   scripts/vm-run --kernel 6.12 --timeout 1800 -- bench/r2c2d.sh ctrl 3x3
#   scripts/vm-run --kernel 6.12 --timeout 1800 -- bench/r2c2d.sh ctrl 4x4
#   scripts/vm-run --kernel 6.12 --mem 4096 --timeout 3000 -- bench/r2c2d.sh scale 4x4x4
#   scripts/vm-run --kernel 6.12 --timeout 3000 -- bench/r2c2d.sh cpu 4x4x4
#   scripts/vm-run --kernel 6.12 --timeout 1800 -- bench/r2c2d.sh announce 3x3
#
# ctrl DIMS: bytes on the wire for one flow event, summed over every link
#   of the torus: tx_bytes (Ethernet header included) of every port of
#   every node (r2c2_snap), over a window in which node 0 sends
#   BENCH_EVENTS flow events (r2c2d_bench events), minus an idle window of
#   the same length just before (hellos, link-state refreshes), / events.
#   r2c0 is down (no ARP/ND broadcasts), no daemon runs. BENCH_REPS pairs.
#   Compared with the paper's (n-1) x 16 bytes (§3.2) and with
#   (n-1) x 34 (our 20-byte control frame + 14-byte Ethernet header).
#
# scale DIMS: one r2c2d per node (rho BENCH_RHO_US, default 500; GA off,
#   expiry and refresh 10 min so that injected flows stay), then
#   BENCH_BATCHES batches of BENCH_SOURCES x BENCH_PER flow starts (from
#   nodes spread over the torus, fresh ids each batch); after each batch
#   `r2c2d_bench matrix -w` reads every daemon until all hold the same
#   matrix (each but its own injected flows: own flows come from
#   sch_r2c2) and prints when the last daemon had created its newest
#   flow, relative to the last event sent; RSS of every daemon.
#
# cpu DIMS: one r2c2d (node 0, rho 500 us) and BENCH_FLOWS flows
#   (default "1000 10000") in the rack, started from 8 other nodes
#   (r2c2d with rounds=always: it computes every change as a sender); its
#   utime+stime (/proc/PID/stat) over BENCH_WINDOW s (a) with the matrix
#   unchanged and (b) with churn (BENCH_CHURN events/s: each a start and
#   a finish, so the matrix changes in most rounds); with the daemon's own
#   compute timings. Under TCG this is emulated time; see
#   bench/r2c2d_cpu.c for the native compute part. The churn's share is
#   also sampled every second (/proc/PID/schedstat: CPU ns) and its
#   median and largest printed. BENCH_DOPTS: more daemon options, e.g.
#   "-o cpu_budget=1.7".
#
# conv 3x3: convergence after a flow start, at the qdiscs (see conv()).
#
# announce DIMS: control traffic of mixed short and long flows with
#   sch_r2c2's announce_after at each of BENCH_ANNOUNCE (default "0
#   100ms"): from node 0 to node 1, BENCH_LONG (20) flows of 2 s and
#   BENCH_SHORT (180) flows of 20 ms (two packets 20 ms apart; batches of
#   10, one after the other, while the long ones run); qdisc idle 1 s; r2c2d on node 0 (link_capacity
#   BENCH_CAP, 20M) sets the rates. Counts the flow events of node 0 that
#   node 4's monitor hears, by type, and the qdisc's xstats; bytes =
#   events x (n-1) x 34 (section "Control traffic per flow event" of
#   Documentation/performance.md: exact). The long flows' rates: the
#   qdisc's rate and state of each 1.5 s after they started, and what
#   each sent over its life (qflow show before it finished).
#
# Always prints uptime (guest) and the host's load is the caller's to
# print. Knobs: BENCH_EVENTS (1000), BENCH_REPS (5), BENCH_RHO_US (500),
# BENCH_BATCHES (3), BENCH_SOURCES (4), BENCH_PER (25), BENCH_FLOWS,
# BENCH_WINDOW (10), BENCH_CHURN (200), BENCH_SETTLE_S (scale: the longest
# wait for an idle guest before a batch), BENCH_READ_S (scale: how long a
# read of every daemon may wait for the whole matrix; 900 s above 100
# nodes, else 120).

set -u
bench_dir=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=selftests/lib.sh
source "$bench_dir/../selftests/lib.sh"
# shellcheck source=selftests/torus.sh
source "$bench_dir/../selftests/torus.sh"
# shellcheck source=selftests/fabric.sh
source "$bench_dir/../selftests/fabric.sh"

BENCH=$bench_dir/r2c2d_bench
R2C2D=${R2C2D:-$(command -v r2c2d || echo "$bench_dir/../userspace/r2c2d/r2c2d")}
EVENTS=${BENCH_EVENTS:-1000}
REPS=${BENCH_REPS:-5}
RHO=${BENCH_RHO_US:-500}
PIDS=()

die() { echo "r2c2d.sh: $*" >&2; exit 1; }
stop_all() { local p; for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; PIDS=(); }
cleanup_add stop_all

[[ $(id -u) -eq 0 ]] || die "needs root (in the VM: scripts/vm-run -- bench/r2c2d.sh ...)"
[[ -x $BENCH ]] || die "$BENCH not built (see its head)"
[[ -x $(tool r2c2_snap) ]] || die "selftests/tools/r2c2_snap not built"
modprobe -q veth 2>/dev/null
r2c2_modules_load || die "cannot load r2c2.ko for $(uname -r)"

mode=${1:?usage: r2c2d.sh ctrl|scale|cpu DIMS}
IFS=x read -r -a dims <<<"${2:?DIMS, e.g. 3x3 or 4x4x4}"

info() { echo "bench r2c2d $mode: $*"; }
info "kernel $(uname -r), $(nproc) vCPU, $(free -m | awk '/Mem:/ {print $2}') MB, $(date -u +%Y-%m-%dT%H:%M:%SZ), uptime: $(uptime)"

# ip -batch keeps a descriptor open per "netns NAME" it resolves: 8x8x8's
# 1,536 links need ~3,000 (the default limit of 1,024 fails at node 170)
ulimit -n 65536 2>/dev/null || ulimit -n 4096
# torus_ready, and every 30 s a progress line: how many nodes are not
# ready yet and why (fewer nodes, fewer links, topology not ok, a port
# without a neighbour)
READY_NEXT=0
ready_progress() {
	torus_ready && return 0
	# a snapshot of a large rack is work for the guest: not too often
	((TORUS_N <= 100)) || sleep $((TORUS_N / 100))
	if ((SECONDS >= READY_NEXT)); then
		READY_NEXT=$((SECONDS + 30))
		torus_progress "waiting: $(jq -s -r --argjson n "$TORUS_N" \
			--argjson l "$((2 * ${#TORUS_DIMS[@]} * TORUS_N))" \
			--argjson p "$((2 * ${#TORUS_DIMS[@]}))" '
			"\([.[] | select(.nodes != $n)] | length) nodes know fewer than \($n) (fewest \([.[].nodes] | min)), \([.[] | select(.links != $l)] | length) fewer than \($l) links, \([.[] | select(.topology_ok != true)] | length) topology not ok, \([.[] | select(([.ports[] | select(.state == 2)] | length) != $p)] | length) a port without neighbour"' \
			"$FABRIC_TMP/ready" 2>/dev/null)"
	fi
	return 1
}

SECONDS=0
export TORUS_PROGRESS=1
TORUS_R2C0=down		# no ARP/ND broadcasts (conv brings r2c0 up)
torus_create "${dims[@]}" || die "torus_create"
wait_until $((60 + TORUS_N * 2)) ready_progress || die "torus not ready: $TORUS_LAGGARDS"
torus_progress "ready: every node knows $TORUS_N nodes and its links; tables recomputed per node (tables_gen) $(jq -s -r \
	'[.[].tables_gen] | sort | "min \(.[0]) median \(.[length / 2 | floor]) max \(.[-1]) total \(add)"' "$FABRIC_TMP/ready")"
mapfile -t NSS < <(torus_namespaces)
info "torus ${2}: $TORUS_N nodes ready after ${SECONDS}s"

# sum of tx_bytes and tx_packets over every port of every node, hellos
sums() {
	"$(tool r2c2_snap)" -p "${NSS[@]}" |
		jq -s -r '[([.[].ports[].stats.tx_bytes] | add),
			   ([.[].ports[].stats.tx_packets] | add),
			   ([.[].ports[].stats.hello_tx] | add),
			   ([.[].node.bcast_tx] | add)] | map(tostring) | join(" ")'
}

calc() { awk "BEGIN { printf \"%.3f\", $* }"; }
median() { sort -g | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# Frames of the background: a hello is 30 bytes (14 Ethernet + 8 control
# header + 8 body); an LSA of a node with k ports is 30 + 4k bytes and is
# flooded over every link. LSA originations = bcast_tx - events.
HELLO_B=30
ctrl() {
	local n=$TORUS_N r a b c wall ev=() idle=()

	for ((r = 0; r < REPS; r++)); do
		# event window first (its length sets the idle window's)
		a=$(sums)
		e0=$(date +%s.%N)
		"$BENCH" events -n "$n" -c "$EVENTS" -f $((0x100000 + r * EVENTS)) "${NSS[0]}" >/dev/null ||
			info "event errors in rep $r"
		sleep 0.5	# the last frames reach the leaves
		b=$(sums)
		wall=$(calc "$(date +%s.%N) - $e0")
		sleep "$wall"
		c=$(sums)
		read -r ab ap ah ax <<<"$a"
		read -r bb bp bh bx <<<"$b"
		read -r cb cp ch cx <<<"$c"
		# bytes frames hellos bcast_tx of each window
		ev+=("$((bb - ab)) $((bp - ap)) $((bh - ah)) $((bx - ax))")
		idle+=("$((cb - bb)) $((cp - bp)) $((ch - bh)) $((cx - bx))")
		info "rep $r: ${wall}s windows: events: ${ev[r]}; idle: ${idle[r]} (bytes frames hellos bcast_tx)"
	done
	# LSA bytes and frames per origination, from all idle windows
	printf '%s\n' "${idle[@]}" >"$FABRIC_TMP/idle"
	read -r lsa_b lsa_f < <(awk -v h=$HELLO_B '{b += $1 - h * $3; f += $2 - $3; l += $4}
		END {if (l) printf "%.1f %.2f\n", b / l, f / l; else print "0 0"}' "$FABRIC_TMP/idle")
	info "background: per LSA origination $lsa_b bytes, $lsa_f frames over the rack"
	printf '%s\n' "${ev[@]}" | awk -v E="$EVENTS" -v h=$HELLO_B -v lb="$lsa_b" -v lf="$lsa_f" '
		{l = $4 - E; printf "%.2f %.3f\n", ($1 - h * $3 - l * lb) / E, ($2 - $3 - l * lf) / E}' \
		>"$FABRIC_TMP/per"
	paste -d' ' <(printf '%s\n' "${ev[@]}") <(printf '%s\n' "${idle[@]}") | awk -v E="$EVENTS" '
		{printf "%.2f\n", ($1 - $5) / E}' >"$FABRIC_TMP/naive"
	info "RESULT torus ${dims[*]} n=$n, $EVENTS events from node 0, $REPS reps: bytes on all links per flow event: median $(cut -d' ' -f1 "$FABRIC_TMP/per" | median) [$(cut -d' ' -f1 "$FABRIC_TMP/per" | sort -g | tr '\n' ' ')] (hellos and LSAs taken out); frames per event median $(cut -d' ' -f2 "$FABRIC_TMP/per" | median); minus the idle window instead: median $(median <"$FABRIC_TMP/naive") B; (n-1) x 34 = $(((n - 1) * 34)); paper (n-1) x 16 = $(((n - 1) * 16))"
}

# the rack's non-zero drop counters and bcast_rx, summed over the nodes
rack_counters() {
	"$(tool r2c2_snap)" "${NSS[@]}" | jq -s -c '[.[].node | to_entries[]
		| select((.key | test("^drop|bcast_r")) and .value > 0)] | group_by(.key)
		| map({(.[0].key): (map(.value) | add)}) | add'
}

# settle: wait until the guest is mostly idle (idle >= half of its CPU
# time over 5 s), at most BENCH_SETTLE_S (600 s above 100 nodes, else
# 60), so that a batch is not sent while 512 daemons still build their
# tables; prints how long it waited and the last idle share.
# guest_cpu: "idle total" jiffies of all vCPUs (idle + iowait, all)
guest_cpu() {
	awk '/^cpu / {print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9}' /proc/stat
}

settle() {
	local max=${BENCH_SETTLE_S:-$((TORUS_N > 100 ? 600 : 60))} t0=$SECONDS
	local a b idle=0

	while ((SECONDS - t0 < max)); do
		a=$(guest_cpu)
		sleep 5
		b=$(guest_cpu)
		idle=$(awk -v a="$a" -v b="$b" 'BEGIN {split(a, x); split(b, y);
			print (y[2] > x[2]) ? int(100 * (y[1] - x[1]) / (y[2] - x[2])) : 0}')
		((idle >= 50)) && break
	done
	info "settle: waited $((SECONDS - t0)) s, guest idle ${idle}% over the last 5 s"
}

start_daemons() {	# NS... with extra -o options in DOPTS
	local ns

	# no qdisc here: demand sampling off (QFLOW_GET dumps every 10 ms
	# would only load the guest), and no digests (r2c2d_bench's events
	# are no daemon's qdisc flows: a source's digests would drop them)
	for ns in "$@"; do
		# shellcheck disable=SC2086  # DOPTS: one word per option
		ip netns exec "$ns" "$R2C2D" -o rho_us="$RHO" -o ga_interval_ms=0 \
			-o expire_ms=3600000 -o refresh_ms=1800000 -o demand_interval_ms=0 \
			-o digest_ms=0 \
			${DOPTS:-} 2>"$FABRIC_TMP/r2c2d-$ns.log" &
		PIDS+=($!)
	done
}

scale() {
	local batches=${BENCH_BATCHES:-3} nsrc=${BENCH_SOURCES:-4} per=${BENCH_PER:-25}
	local srcs=() i b out last rhos=${BENCH_RHOS:-$RHO} ri=0

	for ((i = 0; i < nsrc; i++)); do
		srcs+=("${NSS[$(( (i * TORUS_N) / nsrc + i % 3))]}")
	done
	for RHO in $rhos; do
		stop_all
		start_daemons "${NSS[@]}"
		SECONDS=0
		# every daemon answers (and so holds its tables)
		torus_progress "$TORUS_N daemons started"
		# 512 daemons building their tables at once take 6-10 min of a
		# 2-vCPU TCG guest
		wait_until $((TORUS_N > 100 ? 1500 : 600)) "$BENCH" matrix "${NSS[@]}" >/dev/null ||
			die "not every daemon answers after $((TORUS_N > 100 ? 1500 : 600)) s"
		torus_progress "$TORUS_N daemons answer"
		# shellcheck disable=SC2016  # awk programs
		info "$TORUS_N daemons (rho $RHO us) answer after ${SECONDS}s; uptime: $(uptime); RSS per daemon (KB) $(printf '/proc/%s/status\n' "${PIDS[@]}" |
			xargs awk '/^VmRSS/ {print $2}' | sort -n | awk '{v[NR] = $1} END {print "min " v[1] " median " v[int((NR + 1) / 2)] " max " v[NR]}'); $(free -m | awk '/Mem:/ {print "guest memory used " $3 " MB of " $2}')"
		for ((b = 0; b < batches; b++)); do
			settle
			out=$("$BENCH" events -n "$TORUS_N" -c "$per" \
				-f $((0x200000 + ri * 0x100000 + b * 0x10000)) "${srcs[@]}")
			info "rho $RHO batch $b: ${srcs[*]}: $out"
			last=$(sed -n 's/.* last_ns \([0-9]*\).*/\1/p' <<<"$out")
			# one read of 512 daemons took 61-182 s in a saturated guest
			"$BENCH" matrix -v -w "${BENCH_READ_S:-$((TORUS_N > 100 ? 900 : 120))}" -e $(( (b + 1) * nsrc * per )) -l "$last" "${NSS[@]}" \
				>"$FABRIC_TMP/m.$b"
			info "RESULT ${dims[*]} rho $RHO batch $b ($((nsrc * per)) starts from $nsrc nodes): $(tail -n 1 "$FABRIC_TMP/m.$b")"
			info "after batch $b: rack counters $(rack_counters)"
		done
		info "rack counters: $(rack_counters)"
		if ((batches)); then
			info "per daemon (rho $RHO, last batch):"
			sed 's/^/# /' "$FABRIC_TMP/m.$((batches - 1))" | head -n "$TORUS_N"
		fi
		info "uptime: $(uptime)"
		ri=$((ri + 1))
	done
}

# conv: flow A 0 -> 1 runs alone (UDP flood, sch_r2c2 on r2c0 of the
# sources), then flow B 3 -> 1 starts; with RPS half of B crosses A's link
# 0 -> 1, so max-min moves A from 0.95 C to 0.95 C / 1.5 and gives B as
# much. r2c2d on every node (rho BENCH_RHO_US, link_capacity BENCH_CAP).
# `r2c2d_bench qflow` samples both qdiscs every 2 ms: the event is B's
# first sample (sch_r2c2 broadcasts START when it sees B's first packet);
# per flow, the time from it after which the rate set in the qdisc stays
# within 5 % of the flow's final one, and the same for the achieved rate
# (bytes over BENCH_WIN_MS windows). BENCH_REPS runs.
conv() {
	local cap=${BENCH_CAP:-20M} r flood sink dst
	flood=$(tool r2c2_udpflood); sink=$(tool r2c2_udpsink)
	[[ -x $flood && -x $sink ]] || die "r2c2_udpflood/udpsink not built"
	for ns in "${NSS[@]}"; do
		ip -n "$ns" link set r2c0 up
	done
	dst=$(torus_addr4 1)
	ip netns exec "${NSS[1]}" "$sink" -p 7000 -w 0.1 -t 600 >/dev/null 2>&1 &
	PIDS+=($!)
	for id in 0 3; do
		ip netns exec "${NSS[id]}" tc qdisc add dev r2c0 root r2c2 idle 500ms ||
			die "tc qdisc add r2c2 in ${NSS[id]}"
	done
	DOPTS="-o link_capacity=$cap"
	start_daemons "${NSS[@]}"
	wait_until 120 "$BENCH" matrix "${NSS[@]}" >/dev/null || die "daemons do not answer"
	ip netns exec "${NSS[1]}" ping -c 2 -W 2 "$dst" >/dev/null 2>&1
	ip netns exec "${NSS[0]}" ping -c 2 -W 2 "$dst" >/dev/null 2>&1
	ip netns exec "${NSS[3]}" ping -c 2 -W 2 "$dst" >/dev/null 2>&1
	for ((r = 0; r < REPS; r++)); do
		"$BENCH" qflow -i 1000 -T 9 "${NSS[0]}" "${NSS[3]}" >"$FABRIC_TMP/qf.$r" &
		local qp=$!
		ip netns exec "${NSS[0]}" "$flood" -d "$dst" -p 7000 -b $((20000 + r)) -t 8 -l 1000 >/dev/null 2>&1 &
		local fa=$!
		sleep 4
		ip netns exec "${NSS[3]}" "$flood" -d "$dst" -p 7000 -b $((30000 + r)) -t 4 -l 1000 >/dev/null 2>&1 &
		local fb=$!
		sleep "${BENCH_READ_S:-1.5}"	# B's rates pushed, before a 2nd move
		ip netns exec "${NSS[0]}" r2c2ctl -j matrix show >"$FABRIC_TMP/m0.$r"
		ip netns exec "${NSS[3]}" r2c2ctl -j matrix show >"$FABRIC_TMP/m3.$r"
		wait "$qp" "$fa" "$fb"
		awk -v win="${BENCH_WIN_MS:-50}" -v NA="${NSS[0]}" -v NB="${NSS[3]}" -f - "$FABRIC_TMP/qf.$r" <<-'EOF' | sed "s/^/bench r2c2d conv: rep $r: /"
			# t ns flow rate state bytes backlog
			{ key = $2 " " $3; if (!(key in first)) first[key] = $1
			  n[key]++; T[key, n[key]] = $1; R[key, n[key]] = $4; B[key, n[key]] = $6
			  g = $6 - B[key, 1]; if (g > best[$2]) { best[$2] = g; flow[$2] = key } }
			function conv(k, t0,    m, j, fin, ts, ta, j0, a, pre) {
			  m = n[k]; pre = -1
			  for (j = 1; j <= m && T[k, j] < t0 + 1500; j++) { fin = R[k, j]; if (T[k, j] < t0) pre = R[k, j] }
			  ts = t0; for (j = 1; j <= m && T[k, j] < t0 + 1500; j++)
			    if (T[k, j] >= t0 && (R[k, j] < 0.95 * fin || R[k, j] > 1.05 * fin)) ts = T[k, j + 1]
			  ta = t0; j0 = 0
			  for (j = 1; j <= m && T[k, j] < t0 + 1500; j++) {
			    if (T[k, j] < t0) continue
			    if (!j0) { j0 = j; continue }
			    if (T[k, j] - T[k, j0] >= win) {
			      a = (B[k, j] - B[k, j0]) * 8000 / (T[k, j] - T[k, j0])
			      if (a < 0.95 * fin || a > 1.05 * fin) ta = T[k, j]
			      j0 = j
			    }
			  }
			  printf "flow %s: rate before %.0f, final %.0f bit/s; set rate within 5%% from %.1f ms after the event, achieved (%d ms windows) from %.1f ms\n", k, pre, fin, ts - t0, win, ta - t0
			  tr = ""; last = -2
			  for (j = 1; j <= m && T[k, j] < t0 + 1500; j++)
			    if (R[k, j] != last) { tr = tr sprintf(" %.1f:%.0f", T[k, j] - t0, R[k, j]); last = R[k, j] }
			  printf "flow %s: set rate (ms after the event:bit/s):%s\n", k, tr
			  return ts - t0
			}
			END {
			  t0 = first[flow[NB]]
			  printf "event: first sample of %s at %.1f ms (sampling every %.1f ms)\n", flow[NB], t0, (T[flow[NB], n[flow[NB]]] - t0) / (n[flow[NB]] - 1)
			  x = conv(flow[NA], t0); y = conv(flow[NB], t0)
			  printf "RESULT set-rate convergence A %.1f ms, B %.1f ms\n", x, y
			}
		EOF
		daemon_conv "$r"
		sleep 4	# the flows finish (qdisc idle 500 ms) before the next rep
	done
}

# conv, from the daemons' own clocks (r2c2ctl -j matrix show, read 1.5 s
# after B started: now_ns - changed_age_us / pushed_age_us): when node 3's
# daemon learnt B (its own flow), when node 0's heard B's START, when
# node 0 last pushed a new rate for A and node 3 for B; relative to B's
# first qflow sample (the event, within the sampling interval).
daemon_conv() {
	local r=$1 bid tb3 pb3 tb0 pa0 t0

	read -r bid tb3 pb3 < <(jq -r '.now_ns as $n | .node as $me |
		[.flows[] | select(.src == $me and .pushed_age_us != null)] |
		min_by(.changed_age_us) |
		"\(.flow) \(($n - .changed_age_us * 1000) / 1e6) \(if .pushed_age_us >= 0 then ($n - .pushed_age_us * 1000) / 1e6 else "nan" end)"' \
		"$FABRIC_TMP/m3.$r")
	read -r tb0 pa0 < <(jq -r --arg b "$bid" '.now_ns as $n | .node as $me |
		([.flows[] | select(.flow == $b and .src != $me)][0] |
		 if . then ($n - .changed_age_us * 1000) / 1e6 else "nan" end) as $h |
		([.flows[] | select(.src == $me and .pushed_age_us >= 0)] |
		 min_by(.pushed_age_us) | if . then ($n - .pushed_age_us * 1000) / 1e6 else "nan" end) as $p |
		"\($h) \($p)"' "$FABRIC_TMP/m0.$r")
	t0=$(awk -v ns="${NSS[3]}" -v f="$bid" '$2 == ns && $3 == f {print $1; exit}' "$FABRIC_TMP/qf.$r")
	info "rep $r: node 0's matrix [src, dst, flow, demand_kbps, rate, changed_age_us]: $(jq -c '[.flows[] | [.src, .dst, .flow, .demand_kbps, .rate, .changed_age_us]]' "$FABRIC_TMP/m0.$r")"
	info "rep $r: daemons (ms after B's first qflow sample at ${t0:-?} ms): node 3 learnt B $(calc "$tb3 - ${t0:-0}"), pushed B $(calc "$pb3 - ${t0:-0}"); node 0 heard B $(calc "$tb0 - ${t0:-0}"), pushed A $(calc "$pa0 - ${t0:-0}")"
	info "RESULT rep $r: daemon convergence: event -> last push $(calc "($pb3 > $pa0 ? $pb3 : $pa0) - ${t0:-0}") ms; broadcast (node 3 learnt -> node 0 heard) $(calc "$tb0 - $tb3") ms; heard -> pushed: node 0 $(calc "$pa0 - $tb0") ms, node 3 $(calc "$pb3 - $tb3") ms (rho $RHO us)"
}

cpu_of() {	# PID: utime+stime in clock ticks
	awk '{print $14 + $15}' "/proc/$1/stat"
}

cpu_ns_of() {	# PID: CPU time in ns (sum_exec_runtime)
	awk '{print $1}' "/proc/$1/schedstat"
}

# sample_cpu PID OUT: every second, the share of a core PID took (%) in
# that second, a line each, until killed
sample_cpu() {
	local a b ta tb
	a=$(cpu_ns_of "$1"); ta=$(date +%s%N)
	while sleep 1; do
		b=$(cpu_ns_of "$1") || return; tb=$(date +%s%N)
		calc "100 * ($b - $a) / ($tb - $ta)" >>"$2"; echo >>"$2"
		a=$b; ta=$tb
	done
}

cpu() {
	local f pid w=${BENCH_WINDOW:-10} churn=${BENCH_CHURN:-200}
	local c0 c1 t0 t1 hz srcs=() i show sp samples d0

	hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
	for ((i = 1; i <= 8; i++)); do
		srcs+=("${NSS[$(( (i * TORUS_N) / 9))]}")
	done
	for f in ${BENCH_FLOWS:-1000 10000}; do
		stop_all
		# rounds=always: node 0 sends nothing (own flows would need a
		# qdisc and traffic), yet computes every change as a sender does
		DOPTS="-o rounds=always ${BENCH_DOPTS:-}" start_daemons "${NSS[0]}"
		pid=${PIDS[0]}
		wait_until 120 "$BENCH" matrix "${NSS[0]}" >/dev/null || die "r2c2d does not answer"
		"$BENCH" events -n "$TORUS_N" -c $((f / 8)) -f $((0x300000 + f * 16)) "${srcs[@]}" |
			sed "s/^/bench r2c2d cpu: $f flows injected: /"
		"$BENCH" matrix -w 120 -e "$f" "${NSS[0]}" | sed "s/^/bench r2c2d cpu: $f flows: /"
		info "$f flows: daemon events $(ip netns exec "${NSS[0]}" r2c2ctl -j daemon show | jq -c .events); rack $(rack_counters)"
		sleep 1
		show=$(ip netns exec "${NSS[0]}" r2c2ctl -j daemon show)
		r0=$(jq .timings.rounds <<<"$show"); k0=$(jq .timings.ticks <<<"$show")
		c0=$(cpu_of "$pid"); t0=$(date +%s.%N)
		sleep "$w"
		c1=$(cpu_of "$pid"); t1=$(date +%s.%N)
		show=$(ip netns exec "${NSS[0]}" r2c2ctl -j daemon show)
		info "RESULT $f flows, rho $RHO us, matrix unchanged: $(calc "100 * ($c1 - $c0) / $hz / ($t1 - $t0)") % of a core over ${w}s (ticks $(( $(jq .timings.ticks <<<"$show") - k0 )), rounds $(( $(jq .timings.rounds <<<"$show") - r0 ))); uptime: $(uptime)"
		# churn from one source: starts and finishes, LIVE = the
		# source's share, so the rack keeps f flows
		c0=$(cpu_of "$pid"); t0=$(date +%s.%N)
		r0=$(jq .timings.rounds <<<"$show")
		d0=$(jq .timings.rounds_deferred <<<"$show")
		samples=$FABRIC_TMP/cpu-$f; : >"$samples"
		sample_cpu "$pid" "$samples" &
		sp=$!
		"$BENCH" events -n "$TORUS_N" -c $((churn * w / 2)) -r "$churn" -L $((f / 8)) \
			-F $((0x300000 + f * 16)) -f $((0x300000 + f * 16 + 0x100000)) "${srcs[0]}" |
			sed "s/^/bench r2c2d cpu: churn: /"
		kill "$sp"; wait "$sp" 2>/dev/null
		c1=$(cpu_of "$pid"); t1=$(date +%s.%N)
		show=$(ip netns exec "${NSS[0]}" r2c2ctl -j daemon show)
		info "RESULT $f flows, churn: share of a core in each second: median $(sort -n "$samples" | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}') %, max $(sort -n "$samples" | tail -1) % ($(grep -c . "$samples") s: $(tr '\n' ' ' <"$samples")); rounds deferred by the budget $(( $(jq .timings.rounds_deferred <<<"$show") - d0 )); config $(jq -c '.config | {rho_us, cpu_budget}' <<<"$show")"
		info "RESULT $f flows, rho $RHO us, churn ~$churn events/s: $(calc "100 * ($c1 - $c0) / $hz / ($t1 - $t0)") % of a core over $(calc "$t1 - $t0")s (rounds $(( $(jq .timings.rounds <<<"$show") - r0 )), compute_us_mean $(jq .timings.compute_us_mean <<<"$show"), compute_us_max $(jq .timings.compute_us_max <<<"$show"), flows $(jq .flows <<<"$show")); share of the rho intervals with a round (the paper's per-interval overhead is 0 in the others) $(calc "100 * ($(jq .timings.rounds <<<"$show") - $r0) * $RHO / 1000000 / ($t1 - $t0)") %; uptime: $(uptime)"
	done
}

announce() {
	local flood x nl=${BENCH_LONG:-20} ns_=${BENCH_SHORT:-180} dst b mon q a
	local n=$TORUS_N
	flood=$(tool r2c2_udpflood)
	[[ -x $flood ]] || die "r2c2_udpflood not built"
	[[ -n ${NSS[4]:-} ]] || die "announce needs at least 5 nodes"
	for ns in "${NSS[@]}"; do
		ip -n "$ns" link set r2c0 up
	done
	dst=$(torus_addr4 1)
	ip netns exec "${NSS[0]}" ping -c 2 -W 2 "$dst" >/dev/null 2>&1
	ip -n "${NSS[0]}" neigh replace "$dst" lladdr \
		"$(ip -n "${NSS[1]}" -j link show r2c0 | jq -r '.[0].address')" dev r2c0 nud permanent
	# idle 1 s: a starved TCG guest stalls senders for hundreds of ms,
	# which must not end (and restart) the long flows
	ip netns exec "${NSS[0]}" tc qdisc add dev r2c0 root r2c2 idle 1s ||
		die "tc qdisc add r2c2"
	DOPTS="-o link_capacity=${BENCH_CAP:-20M}"
	start_daemons "${NSS[0]}"
	wait_until 120 "$BENCH" matrix "${NSS[0]}" >/dev/null || die "r2c2d does not answer"
	mon=$FABRIC_TMP/mon
	ip netns exec "${NSS[4]}" timeout 900 r2c2ctl monitor >"$mon" 2>&1 &
	PIDS+=($!)
	sleep 1
	for x in ${BENCH_ANNOUNCE:-0 100ms}; do
		ip netns exec "${NSS[0]}" tc qdisc change dev r2c0 root r2c2 announce_after "$x" ||
			die "tc qdisc change announce_after $x"
		sleep 1
		local m0 x0
		m0=$(wc -l <"$mon")
		x0=$(ip netns exec "${NSS[0]}" tc -s -j qdisc show dev r2c0 | jq -c '.[0]')
		local t0=$SECONDS us0=${EPOCHREALTIME/./}
		# the long flows, then the qdisc's view of them as their sender
		# stops (before idle GC)
		( ip netns exec "${NSS[0]}" "$flood" -d "$dst" -b 40000 -n "$nl" -t 2 -l 1000 >/dev/null
		  ip netns exec "${NSS[0]}" r2c2ctl -j qflow show >"$FABRIC_TMP/qe.$x" ) &
		a=$!
		# the long flows at node 0's qdisc, 4 samples: "ms-since-start json"
		( for i in 1 2 3 4; do
			sleep 0.3
			q=$(ip netns exec "${NSS[0]}" r2c2ctl -j qflow show)
			echo "$(( (${EPOCHREALTIME/./} - us0) / 1000 )) $(jq -c '[.[] | select(.sport >= 40000 and .sport < 40100)]' <<<"$q")"
		  done >"$FABRIC_TMP/q.$x" ) &
		local sp=$!
		for ((b = 0; b < ns_; b += 10)); do
			# 10 flows of 2 packets, 20 ms apart (500 packets/s)
			ip netns exec "${NSS[0]}" "$flood" -d "$dst" -b $((41000 + b)) -n 10 -c 20 -r 500 -t 5 -l 1000 >/dev/null
		done
		wait "$a" "$sp"
		sleep 4	# idle 1 s: every flow finishes; events reach node 4
		tail -n +$((m0 + 1)) "$mon" >"$mon.$x"
		q=$(ip netns exec "${NSS[0]}" tc -s -j qdisc show dev r2c0 | jq -c '.[0]')
		local st an fn un
		st=$(( $(jq .flows_started <<<"$q") - $(jq .flows_started <<<"$x0") ))
		an=$(( $(jq .flows_announced <<<"$q") - $(jq .flows_announced <<<"$x0") ))
		fn=$(( $(jq .flows_finished <<<"$q") - $(jq .flows_finished <<<"$x0") ))
		un=$(( $(jq .flows_unannounced <<<"$q") - $(jq .flows_unannounced <<<"$x0") ))
		local hs hf hu hr ev
		hs=$(grep -c "flow start src 0 " "$mon.$x")
		hf=$(grep -c "flow finish src 0 " "$mon.$x")
		hu=$(grep -c "flow update src 0 " "$mon.$x")
		hr=$(grep -c "flow refresh src 0 " "$mon.$x")
		ev=$((hs + hf + hu + hr))
		info "RESULT announce_after $x: ${nl} flows of 2 s + ${ns_} of 20 ms in $((SECONDS - t0)) s: qdisc: started $st announced $an finished $fn unannounced $un; heard at node 4: start $hs finish $hf update $hu refresh $hr = $ev events = $((ev * (n - 1) * 34)) bytes on the links ((n-1) x 34 = $(((n - 1) * 34)) B an event); uptime: $(uptime)"
		# the long flows, sample by sample: ms, flows, rate(state) counts, bytes sent
		awk '{ print $1, $2 }' "$FABRIC_TMP/q.$x" | while read -r ms j; do
			info "announce_after $x: long flows at ${ms} ms: $(jq -r '"\(length) flows: " + ([.[] | "\(.rate / 1e6)M \(.state)"] | group_by(.) | map("\(length) x \(.[0])") | join(", ")) + "; sent \([.[].bytes] | add // 0) B"' <<<"$j")"
		done
		info "RESULT announce_after $x: long flows as their sender stopped: $(jq -r '[.[] | select(.sport >= 40000 and .sport < 40100)] | "\(length) flows, states \([.[].state] | group_by(.) | map("\(length) \(.[0])") | join(", ")), rates \([.[].rate / 1e6] | group_by(.) | map("\(length) x \(.[0])M") | join(", ")), sent \([.[].bytes] | add // 0) B"' "$FABRIC_TMP/qe.$x")"
		# what they sent between the first two samples that hold them (a
		# sample's time is taken as its dump returns: +- one dump; packets
		# queued in the qdisc still drain after the sender stopped)
		info "RESULT announce_after $x: long flows sent $(awk '{ print $1, $2 }' "$FABRIC_TMP/q.$x" | while read -r ms j; do
			echo "$ms $(jq '[.[].bytes] | add // 0' <<<"$j") $(jq 'length' <<<"$j")"
		done | awk '$3 > 0 { t[++n] = $1; b[n] = $2 } END {
			if (n < 2) { print "(fewer than 2 samples)"; exit }
			printf "%d B at %d ms, %d B at %d ms: %.2f Mbit/s together in between", b[1], t[1], b[2], t[2], (b[2] - b[1]) * 8 / (t[2] - t[1]) / 1000 }')"
	done
}

case $mode in
announce) announce ;;
ctrl) ctrl ;;
scale) scale ;;
cpu) cpu ;;
conv) conv ;;
*) die "unknown mode $mode" ;;
esac
info "done after ${SECONDS}s; uptime: $(uptime)"
