#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# lifecycle_stress.sh - the whole life of the modules, again and again,
# under traffic: load, build a rack, configure it, send traffic, replace
# the qdisc, delete a node's namespace, remove the qdiscs and unload both
# modules while the traffic runs. Each cycle must leave nothing behind:
# no module, no r2c0, no namespace or veth of ours, and memory (Slab +
# VmallocUsed of /proc/meminfo) must not grow from cycle to cycle.
#
#	  2 ==== 3        a 2x2 torus (torus.sh, hellos 200 ms): each pair
#	  ||     ||       of neighbours joined twice (p0/p1 and p2/p3)
#	  0 ==== 1
#
# A cycle:
#  1. modprobe r2c2 and sch_r2c2 (or insmod from build/, as require_r2c2)
#  2. torus_create 2 2; every node knows 4 nodes and 16 links
#  3. configure: traffic class 1 (dport 5201, weight 2, prio 1) on nodes 0
#     and 3, `tc qdisc add dev r2c0 root r2c2` with options on nodes 0
#     and 3 (announce at once: every flow is broadcast)
#  4. traffic: ping -f 0 -> 3 and 2 -> 1, iperf3 UDP 3 -> 0 (20 Mbit/s,
#     dport 5201); r2c2 must deliver some of it (delivered grows at 0, 3)
#  5. `tc qdisc replace` on nodes 0 and 3 with other options, under it
#  6. `ip netns del` of node 1 (a relay of 0 -> 3 and a ping target)
#  7. `tc qdisc del` on 0 and 3, `rmmod sch_r2c2`, `rmmod r2c2` (60 s at
#     most), all with the traffic still running
#  8. checks: both modules gone, no r2c0 left in the rack's namespaces
#     (before they are deleted), then the namespaces deleted, none of
#     ours left, no veth in the initial namespace, the kernel's count of
#     network namespaces (net_namespace in /proc/slabinfo, when the cache
#     is not merged, counted after shrinking the cache: see netns_objs)
#     back to where it was, but for what the kernel frees late
#     (NETNS_LAG); Slab + VmallocUsed after `echo 3 > drop_caches` and
#     every slab cache shrunk (shrink_slabs), logged for every cycle
# At the end: memory after the last cycle within LIFECYCLE_MEM_KB of
# memory after the warm-up cycles (the first LIFECYCLE_WARMUP: the
# kernel's caches fill over them; on 6.1 Slab + Vmalloc rose ~400 kB a
# cycle for the first 7 cycles, then moved within 26.9-28.4 MB for the
# other 43), and the least-squares slope over the cycles from the
# warm-up's last on below LIFECYCLE_SLOPE_KB a cycle (skipped with fewer
# than LIFECYCLE_WARMUP + 5 cycles: too few points), both over the
# readings taken with the most common count of net_namespace objects
# (a namespace not freed yet still holds its devices' memory); the ten
# slab caches grown most are logged; no kernel warning. On a debug
# kernel (kmemleak on) the two memory checks are skipped with their
# figures: run.sh's kmemleak scan after the file is the leak check there.
#
# Not a *_test.sh: make check does not run it (~15-20 s a cycle under
# TCG), `make check-lifecycle` does, on both stock kernels. Knobs:
#   LIFECYCLE_CYCLES    cycles (default 50)
#   LIFECYCLE_WARMUP    cycles before the memory baseline (default 10)
#   LIFECYCLE_MEM_KB    bound on the growth after the warm-up (default 2048)
#   LIFECYCLE_SLOPE_KB  bound on the growth a cycle, slope (default 16)
#   LIFECYCLE_KEY       1: every node holds a rack key from step 2 on, so
#                       every hello, LSA and flow event is signed and the
#                       unload frees the keys' and replay state (default 0)
# On the debug kernel (KASAN, kmemleak; run.sh scans for leaks after the
# file), with fewer cycles:
#   scripts/debug-kernel.sh && make modules-debug && \
#   scripts/vm-run --kernel debug --timeout 3000 -- \
#       'LIFECYCLE_CYCLES=5 R2C2_SELFTEST_TIMEOUT=2700 selftests/run.sh lifecycle_stress.sh'

# shellcheck disable=SC2317  # functions called through wait_until
lib_dir=$(dirname "$0")
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"
# shellcheck source=selftests/torus.sh
source "$lib_dir/torus.sh"
# shellcheck source=selftests/fabric.sh
source "$lib_dir/fabric.sh"

require_root
require_cmd ip jq iperf3 ping
require_module veth
require_r2c2
require_tools r2c2_snap
require_qdisc_tools

CYCLES=${LIFECYCLE_CYCLES:-50}
WARMUP=${LIFECYCLE_WARMUP:-10}
MEM_KB=${LIFECYCLE_MEM_KB:-2048}
SLOPE_KB=${LIFECYCLE_SLOPE_KB:-16}
KEYED=${LIFECYCLE_KEY:-0}
if [[ $KEYED != [01] ]]; then
	echo "# LIFECYCLE_KEY: '$KEYED' is not 0 or 1" >&2
	exit 1
fi
RACK_KEY=00112233445566778899aabbccddeeff
((WARMUP >= 1)) || WARMUP=1
# one check a cycle, the memory checks and the kernel's health
ksft_plan $((CYCLES + 3))
export TORUS_HELLO_MS=200
BG_PIDS=()

stop_bg()
{
	((${#BG_PIDS[@]} == 0)) || stop_pids "${BG_PIDS[@]}"
	BG_PIDS=()
}
cleanup_add stop_bg

# shrink_slabs: every slab cache shrunk (/sys/kernel/slab/*/shrink, the
# aliases skipped): SLUB gives back its empty and per-CPU partial slabs,
# and under KASAN each cache's objects leave the quarantine, which
# otherwise keeps freed objects' slabs for as long as it has room (1/32
# of memory). Without it the debug kernel's Slab + Vmalloc moved by
# +-2 MB from one cycle to the next.
shrink_slabs()
{
	local f
	for f in /sys/kernel/slab/*/shrink; do
		[[ -L ${f%/shrink} || ! -w $f ]] || echo 1 >"$f" 2>/dev/null
	done
}

# meminfo: Slab + VmallocUsed in kB, reclaimable caches dropped and every
# slab cache shrunk first
meminfo()
{
	sync
	echo 3 >/proc/sys/vm/drop_caches
	shrink_slabs
	awk '/^(Slab|VmallocUsed):/ { s += $2 } END { print s }' /proc/meminfo
}

vmalloc_kb() { awk '/^VmallocUsed:/ { print $2 }' /proc/meminfo; }

# slab_kb: "cache kB" a line for every slab cache, the pages it holds
# (after meminfo's shrink); empty without /proc/slabinfo
slab_kb()
{
	awk '!/^(slabinfo|#)/ { for (i = 1; i <= NF; i++) if ($i == "slabdata") break;
		printf "%s %d\n", $1, $(i + 2) * $6 * 4 }' /proc/slabinfo 2>/dev/null
}

# netns_objs: objects of the net_namespace slab cache in use (empty when
# the kernel merged it into another cache or has no /proc/slabinfo).
# SLUB counts every object of a CPU's slab and partial slabs as active,
# and KASAN's quarantine holds freed ones for a while (the debug kernel
# went 0, 8, 16, 16, 24 over its first cycles): shrinking the cache
# first (/sys/kernel/slab/net_namespace/shrink) flushes both, so the
# count is exact. Without that file, two slabs a CPU of slack.
NETNS_SHRINK=/sys/kernel/slab/net_namespace/shrink
netns_objs()
{
	[[ ! -w $NETNS_SHRINK ]] || echo 1 >"$NETNS_SHRINK" 2>/dev/null
	awk '$1 == "net_namespace" { print $2 }' /proc/slabinfo 2>/dev/null
}
NETNS0=$(netns_objs)
NETNS_SLACK=0
[[ -w $NETNS_SHRINK ]] ||
	NETNS_SLACK=$(awk -v c="$(nproc)" '$1 == "net_namespace" { print 2 * c * $5 }' \
		/proc/slabinfo 2>/dev/null)
# The kernel frees some deleted namespaces late, r2c2 or not: on 6.1, 3
# made and deleted with nothing in them left 2 in use 37 s later, after
# drop_caches too; the cycles here left 3, 5, 5 (6.1) and 3, 5, 7, 5, 7,
# 5 (debug kernel). Three cycles' namespaces (12) are allowed: a
# namespace kept a cycle exceeds it by cycle 13, all four of a cycle by
# cycle 4 (one kept a cycle on 6.1 left 4, 7, 10: caught by cycle 3 at 8).
NETNS_LAG=12

# A debug kernel: kmemleak on (run.sh scans after the file), KASAN and
# debug objects beside it; the memory checks then only report.
DEBUG_KERNEL=
[[ -e /sys/kernel/debug/kmemleak ]] && DEBUG_KERNEL="debug kernel (kmemleak)"
NETNS_BOUND=$((NETNS0 + NETNS_LAG + NETNS_SLACK))
netns_back() { (($(netns_objs) <= NETNS_BOUND)); }

# delivered NS...: data frames r2c2 delivered up at these nodes, summed
delivered()
{
	snap "$FABRIC_TMP/d" "$@" 2>/dev/null &&
	jq -s 'map(.node.delivered) | add' "$FABRIC_TMP/d"
}

# busy MIN: nodes 0 and 3 delivered more than MIN frames since the start
busy() { (($(delivered r2c2-0 r2c2-3 || echo 0) > $1)); }

# ours_gone: no r2c2-* namespace left and no veth in this namespace
ours_gone()
{
	! ip netns list | grep -qE '^r2c2-' &&
	[[ -z $(ip -o link show type veth) ]]
}

QOPT1=(limit 2000 flow_limit 200 buckets 1024 announce_after 0 announce_bytes 0)
QOPT2=(limit 500 flow_limit 50 buckets 64 lease 300ms safe_rate 1mbit
       announce_after 0 announce_bytes 0)

# need STATUS MSG: check_err, and a status: 0 while nothing failed
need()
{
	check_err "$1" "$2"
	((RET == 0))
}

# cycle N: one life of the modules; RET and ERR_MSG say how it went
cycle()
{
	local c=$1 id left rc t0=$SECONDS

	r2c2_modules_load
	need $? "cycle $c: loading the modules failed" || return
	[[ -d /sys/module/sch_r2c2 ]]
	need $? "cycle $c: sch_r2c2 not loaded" || return

	torus_create 2 2
	need $? "cycle $c: torus_create failed" || return
	torus_wait_ready 60
	need $? "cycle $c: the 2x2 torus did not converge" || return
	if ((KEYED)); then
		for id in 0 1 2 3; do
			torus_exec "$id" r2c2ctl key set 1 "$RACK_KEY"
			need $? "cycle $c: node $id: key set 1 failed" || return
		done
		torus_wait_ready 60
		need $? "cycle $c: the 2x2 torus did not converge with the key" || return
	fi

	for id in 0 3; do
		torus_exec "$id" r2c2ctl class add 1 dport 5201 weight 2 prio 1 &&
		ip netns exec "$(torus_ns "$id")" "$TC" qdisc add dev r2c0 root r2c2 "${QOPT1[@]}"
		need $? "cycle $c: node $id: class or qdisc add failed" || return
	done

	ip netns exec r2c2-0 iperf3 -s -1 >/dev/null 2>&1 &
	BG_PIDS+=($!)
	ip netns exec r2c2-0 ping -n -q -f "$(torus_addr4 3)" >/dev/null 2>&1 &
	BG_PIDS+=($!)
	ip netns exec r2c2-2 ping -n -q -f "$(torus_addr4 1)" >/dev/null 2>&1 &
	BG_PIDS+=($!)
	listening() { torus_exec 0 ss -Huln 'sport = :5201' | grep -q .; }
	wait_until 10 listening
	ip netns exec r2c2-3 iperf3 -u -b 20M -l 1000 -t 120 -c "$(torus_addr4 0)" \
		>/dev/null 2>&1 &
	BG_PIDS+=($!)
	wait_until 30 busy 300
	need $? "cycle $c: no traffic through the rack (delivered $(delivered r2c2-0 r2c2-3))" || return

	for id in 0 3; do
		ip netns exec "$(torus_ns "$id")" "$TC" qdisc replace dev r2c0 root r2c2 "${QOPT2[@]}"
		need $? "cycle $c: node $id: qdisc replace failed" || return
	done
	ip netns exec r2c2-3 "$TC" -s qdisc show dev r2c0 | grep -q 'limit 500p'
	need $? "cycle $c: the replaced qdisc is not there" || return

	ns_del r2c2-1
	check_err $? "cycle $c: deleting node 1's namespace failed"
	sleep 1

	for id in 0 3; do
		ip netns exec "$(torus_ns "$id")" "$TC" qdisc del dev r2c0 root
		check_err $? "cycle $c: node $id: qdisc del failed"
	done
	rmmod sch_r2c2
	need $? "cycle $c: rmmod sch_r2c2 failed" || return
	timeout 60 rmmod r2c2
	rc=$?
	need "$rc" "cycle $c: rmmod r2c2 under traffic failed (status $rc)" || return
	[[ ! -d /sys/module/r2c2 && ! -d /sys/module/sch_r2c2 ]]
	need $? "cycle $c: a module is still loaded" || return
	left=$(for id in 0 2 3; do ip -n "$(torus_ns "$id")" -o link show r2c0 2>/dev/null; done)
	[[ -z $left ]]
	check_err $? "cycle $c: r2c0 left behind: $left"

	stop_bg
	torus_destroy
	wait_until 30 ours_gone
	check_err $? "cycle $c: left behind: namespaces $(ip netns list | grep -cE '^r2c2-'), veths $(ip -o link show type veth | wc -l)"
	# the namespaces themselves freed (cleanup_net runs from a workqueue):
	# a reference r2c2 kept would hold one for ever
	if [[ -n $NETNS0 ]]; then
		wait_until 30 netns_back
		check_err $? "cycle $c: net_namespace objects $(netns_objs), $NETNS0 before the first cycle (bound $NETNS_BOUND)"
	fi
	CYCLE_S=$((SECONDS - t0))
}

MEM=()
NSC=()
lap
mem_start=$(meminfo)
log_info "$CYCLES cycles$( ((KEYED)) && echo ', a rack key on every node'); Slab + VmallocUsed at the start: $mem_start kB; net_namespace objects: ${NETNS0:-not in /proc/slabinfo}${NETNS0:+ (bound after each cycle $NETNS_BOUND)}"
for ((c = 1; c <= CYCLES; c++)); do
	RET=0
	CYCLE_S=
	cycle "$c"
	if ((RET)); then
		# leave the next cycle a clean start
		stop_bg
		torus_destroy
		unload() { ! [[ -d /sys/module/$1 ]] || rmmod "$1" 2>/dev/null; }
		wait_until 30 unload sch_r2c2
		wait_until 30 unload r2c2
		wait_until 30 ours_gone
	fi
	MEM+=("$(meminfo)")
	NSC+=("$(netns_objs)")
	((c != WARMUP)) || { SLAB_WARM=$(slab_kb); VMALLOC_WARM=$(vmalloc_kb); }
	log_test "cycle $c: load, configure, traffic, qdisc replace, netns del, unload: nothing left (${CYCLE_S:-?} s, Slab + Vmalloc ${MEM[-1]} kB, net_namespace objects ${NSC[-1]})"
done
lap "$CYCLES cycles"

# ---------------------------------------------------------------- memory
log_info "Slab + VmallocUsed (kB) after each cycle: ${MEM[*]}"
# where it went, cache by cache: the ten that grew most since the warm-up
if [[ -n ${SLAB_WARM:-} ]]; then
	log_info "slab caches grown most from cycle $WARMUP to cycle $CYCLES (kB): $(
		awk 'NR == FNR { base[$1] = $2; next }
			$2 != base[$1] { print $2 - base[$1], $1 }' \
			<(printf '%s\n' "$SLAB_WARM") <(slab_kb) |
			sort -k1,1nr | head -n 10 | awk '{ printf "%s%s %+d", (NR > 1 ? ", " : ""), $2, $1 }')"
	log_info "VmallocUsed from cycle $WARMUP to cycle $CYCLES: $VMALLOC_WARM to $(vmalloc_kb) kB"
fi
if ((CYCLES < WARMUP + 5)); then
	why="$CYCLES cycles: fewer than the warm-up ($WARMUP) + 5"
	log_test_skip "memory after the last cycle within $MEM_KB kB of cycle $WARMUP" "$why"
	log_test_skip "memory slope after the warm-up" "$why"
else
	# The readings compared: from the warm-up's last on, those taken
	# with the most common count of net_namespace objects. A deleted
	# namespace the kernel has not freed yet still holds its devices (on
	# the 6.12 debug kernel ~0.7 MB each: 38.5 MB with 5 in flight,
	# 39.3-42.0 MB with 7 or 9), and how many are in flight at the
	# reading depends on how fast the cycle ran, not on r2c2.
	# "CYCLE KB" a line; all of them without counts, or when fewer than 5
	# share the most common count.
	mode=$(for ((i = WARMUP - 1; i < CYCLES; i++)); do echo "${NSC[i]:--}"; done |
		sort | uniq -c | sort -k1,1nr -k2,2 | awk 'NR == 1 { print $1 < 5 ? "all" : $2 }')
	cmp=$(for ((i = WARMUP - 1; i < CYCLES; i++)); do
		echo "$((i + 1)) ${MEM[i]} ${NSC[i]:--}"
	done | awk -v m="$mode" 'm == "all" || $3 == m { print $1, $2 }')
	ncmp=$(wc -l <<<"$cmp")
	log_info "compared: $ncmp readings of cycles $WARMUP..$CYCLES$([[ $mode == all || $mode == - ]] || echo ", those with $mode net_namespace objects (the most common count)"): $(tr '\n' ' ' <<<"$cmp")"
	read -r firstc base < <(head -n 1 <<<"$cmp")
	read -r lastc last < <(tail -n 1 <<<"$cmp")
	grow=$((last - base))
	# least squares over the readings compared: kB a cycle
	slope=$(awk '{ x = $1; y = $2; n++; sx += x; sy += y; sxx += x * x; sxy += x * y }
		END { printf "%.1f", (n * sxy - sx * sy) / (n * sxx - sx * sx) }' <<<"$cmp")
	if [[ -n $DEBUG_KERNEL ]]; then
		# With kmemleak the leak check is run.sh's scan after the
		# file. Slab here also holds KASAN's, kmemleak's and the
		# debug objects' own memory and the devices of namespaces
		# the debug kernel frees late: on 6.12 debug both 50-cycle
		# runs grew 23-38 kB a cycle, kmemleak clean, where stock
		# 6.12 ran flat (Documentation/reliability.md).
		why="$DEBUG_KERNEL: kmemleak decides (after the file); grew $grow kB, $slope kB a cycle"
		log_test_skip "memory after cycle $lastc within $MEM_KB kB of cycle $firstc" "$why"
		log_test_skip "memory slope over cycles $firstc..$lastc" "$why"
	else
		RET=0
		((grow <= MEM_KB))
		check_err $? "grew $grow kB from cycle $firstc to cycle $lastc (bound $MEM_KB kB)"
		log_test "memory after cycle $lastc within $MEM_KB kB of cycle $firstc: grew $grow kB (since the start: $((last - mem_start)) kB)"

		RET=0
		awk -v s="$slope" -v b="$SLOPE_KB" 'BEGIN { exit !(s < b) }'
		check_err $? "memory grows $slope kB a cycle (bound $SLOPE_KB)"
		log_test "memory slope over cycles $firstc..$lastc: $slope kB a cycle (< $SLOPE_KB)"
	fi
fi

RET=0
kernel_healthy
check_err $? "kernel warnings or oopses"
log_test "no kernel warning, oops or taint"

ksft_exit
