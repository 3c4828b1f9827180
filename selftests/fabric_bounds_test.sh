#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fabric_bounds_test.sh - a hostile neighbour on a port floods well-formed
# control frames from forged sources; the state the node keeps stays
# bounded, what it refuses is counted, and the real rack keeps working.
# Another rig checks that a node whose table computation is stuck does not
# hold up the computation of a node in another namespace.
#
#	 r2c2-fa (A, 1)          r2c2-fb (B, 2)          r2c2-fc (C, 3)
#	 +-----------+           +-----------+           +-----------+
#	 |      p0 --|-----------|-- p1   p0 |-----------|-- p1      |
#	 | r2c0      |           |    p3     |           | r2c0      |
#	 | 10.42.0.1 |           +----|------+           | 10.42.0.3 |
#	 +-----------+                |                  +-----------+
#	                       inj0 --+  r2c2-fi (r2c2_ctlflood)
#
#	 D (r2c2-fd, 4) joins behind C's p0 in check 4b
#
#	 X1 (31) -- X2 (32) -- ... -- X16 (46)      Y1 (21) -- Y2 (22)
#	 r2c2-x1 ... r2c2-x16, p0 to the next's p1    r2c2-y1, r2c2-y2
#
# r2c2.max_nodes is 64 for the whole test. With A, B and C known:
#  1. LSAs of 5,000 forged addresses into B's p3: B keeps 61 of them (64
#     nodes with A, B, C), refuses the other 4,939 (drop_lsdb_full) and
#     floods only what it kept; A and C hold 64 nodes too and refuse none;
#     A still pings C.
#  2. LSAs with max_age 65,535 s (no node can announce more than 3,600):
#     drop_bad_lsa.
#  3. FLOW events of 5,000 forged sources not in the tables: dropped and
#     counted (drop_unknown_src) before any duplicate-suppression state;
#     none delivered. A flow event of A still reaches C.
#  4. 50 ROUTES frames (10,600 entries) from a forged source B holds an
#     LSA of, for flows of B that do not exist: no flow is made at B
#     (routes_refused 10,600).
#  4b. With the injector refreshing LSAs of 80 forged sources (the
#     databases stay full), node D joins behind C: A, B and C each forget
#     a forged record for it (lsdb_evicted), and A pings D.
#  5. X1 holds its table lock for a long ROUTE_GET (10^6 VLB samples to
#     X16, seconds in a TCG guest) and then loses a link, so its
#     computation waits for the lock; Y1 loses its link meanwhile: Y1's
#     tables must change before X1's ROUTE_GET ends. Y1's change is seen
#     in its TOPO_EVENT (a monitor started before): every r2c2 netlink
#     request of every namespace waits for the ROUTE_GET (genl_mutex).

# shellcheck disable=SC2317  # functions called through wait_until
lib_dir=$(dirname "$0")
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"
# shellcheck source=selftests/fabric.sh
source "$lib_dir/fabric.sh"

require_root
require_cmd ip jq ping
require_module veth
require_r2c2
require_tools r2c2_snap r2c2_ctlflood
ksft_plan 8

A=r2c2-fa B=r2c2-fb C=r2c2-fc INJ=r2c2-fi
NODES=("$A" "$B" "$C")
CAP=64
NFORGED=5000
PARAM=/sys/module/r2c2/parameters/max_nodes

setup()
{
	line_injector "$A" "$B" "$C" "$INJ"
}

# nodes_are N NS...: every NS's tables hold N nodes
nodes_are()
{
	local n=$1; shift

	snap "$FABRIC_TMP/conv" "$@" 2>/dev/null &&
	[[ $(jq -s --argjson n "$n" 'map(select(.nodes == $n)) | length' "$FABRIC_TMP/conv") == "$#" ]]
}

# flood ARGS...: r2c2_ctlflood from the injector into B's p3
flood()
{
	ip netns exec "$INJ" "$(tool r2c2_ctlflood)" -i inj0 -m "$B_P3_MAC" "$@"
}

# deltas as in malformed_test.sh: "NS COUNTER DELTA" for every node
# counter that moved, "NS p3_rx DELTA" for B's p3; into DELTA
declare -A DELTA
deltas()
{
	local ns key v

	DELTA=()
	while read -r ns key v; do
		DELTA["$ns $key"]=$v
	done < <(jq -n -r --slurpfile b "$FABRIC_TMP/before" --slurpfile a "$FABRIC_TMP/after" '
		def p3: (.ports // []) | map(select(.port == 3))[0].stats.rx_packets // 0;
		$a[] as $x | ($b[] | select(.ns == $x.ns)) as $y
		| ($x.node | to_entries[] | select(.value != ($y.node[.key] // 0))
		   | "\($x.ns) \(.key) \(.value - ($y.node[.key] // 0))"),
		  (($x | p3) - ($y | p3) | select(. != 0) | "\($x.ns) p3_rx \(.)")')
}

# d NS COUNTER: growth of a counter (0 if it did not move)
d() { echo "${DELTA["$1 $2"]:-0}"; }

before() { snap "$FABRIC_TMP/before" -p "${NODES[@]}"; }

# p3_got N: B's p3 received N frames since "before"
p3_got()
{
	snap "$FABRIC_TMP/after" -p "${NODES[@]}" && deltas &&
	(($(d "$B" p3_rx) >= $1))
}

# ---------------------------------------------------------------- setup
lap
RET=0
if [[ -w $PARAM ]]; then
	if ! echo "$CAP" >"$PARAM"; then
		check_err 1 "cannot set r2c2.max_nodes"
	fi
	cleanup_add "echo 1024 >$PARAM"
else
	check_err 1 "no module parameter r2c2.max_nodes"
fi
setup
check_err $? "setup failed"
wait_until 60 nodes_are 3 "${NODES[@]}"
check_err $? "A, B and C do not know each other: $(jq -c '{ns, nodes}' "$FABRIC_TMP/conv" 2>/dev/null | tr '\n' ' ')"
B_P3_MAC=$(ip -n "$B" -j link show p3 | jq -r '.[0].address')
log_test_or_exit "setup: line A - B - C, injector on B's p3, r2c2.max_nodes $CAP"
lap setup

# mem: kB of slab and vmalloc in use (the tables are vmalloc'ed)
mem() { awk '/^(Slab|VmallocUsed):/ { s += $2 } END { print s }' /proc/meminfo; }

# ------------------------------------------------ 1. the LSA database
RET=0
mem0=$(mem)
before
flood lsa 1000 "$NFORGED"
check_err $? "r2c2_ctlflood lsa failed"
wait_until 60 p3_got "$NFORGED"
check_err $? "B's p3 received $(d "$B" p3_rx) of $NFORGED LSAs"
wait_until 30 nodes_are "$CAP" "${NODES[@]}"
check_err $? "nodes not $CAP everywhere: $(jq -c '{ns, nodes}' "$FABRIC_TMP/conv" 2>/dev/null | tr '\n' ' ')"
sleep 1
snap "$FABRIC_TMP/after" -p "${NODES[@]}" && deltas
jq -c '{ns, nodes, links}' "$FABRIC_TMP/after" | tr '\n' ' '
echo
kept=$((CAP - 3))
rx=$(d "$B" p3_rx)
[[ $(d "$B" drop_lsdb_full) == $((rx - kept)) && $rx == "$NFORGED" ]]
check_err $? "B: drop_lsdb_full +$(d "$B" drop_lsdb_full), want $((rx - kept)) (p3 received $rx, $kept kept)"
[[ $(d "$B" bcast_rx) -ge $kept && $(d "$B" bcast_rx) -le $((kept + 10)) ]]
check_err $? "B: bcast_rx +$(d "$B" bcast_rx), want $kept (and a few refreshes)"
[[ $(d "$A" drop_lsdb_full) == 0 && $(d "$C" drop_lsdb_full) == 0 ]]
check_err $? "A and C refused LSAs: +$(d "$A" drop_lsdb_full), +$(d "$C" drop_lsdb_full) (B flooded more than it kept?)"
nodes_are "$CAP" "${NODES[@]}"
check_err $? "a node holds more than $CAP nodes: $(jq -c '{ns, nodes}' "$FABRIC_TMP/conv" 2>/dev/null | tr '\n' ' ')"
log_info "B: p3 received $rx LSAs, kept $kept, drop_lsdb_full +$(d "$B" drop_lsdb_full); slab + vmalloc +$(($(mem) - mem0)) kB"
ip netns exec "$A" ping -n -c 3 -i 0.2 -W 2 10.42.0.3 >"$FABRIC_TMP/ping" 2>&1
check_err $? "A does not ping C: $(tail -n 2 "$FABRIC_TMP/ping" | tr '\n' ' ')"
log_test "LSAs of $NFORGED forged addresses: $CAP nodes at most, the rest refused and counted, A pings C"
lap "LSA flood"

# ------------------------------------------------ 2. LSA lifetimes
RET=0
before
flood -a 65535 lsa 7000 10
check_err $? "r2c2_ctlflood lsa failed"
wait_until 20 p3_got 10
sleep 0.3
snap "$FABRIC_TMP/after" -p "${NODES[@]}" && deltas
[[ $(d "$B" drop_bad_lsa) == 10 && $(d "$B" drop_lsdb_full) == 0 ]]
check_err $? "B: drop_bad_lsa +$(d "$B" drop_bad_lsa), drop_lsdb_full +$(d "$B" drop_lsdb_full); want 10 and 0"
log_test "LSAs with max_age 65535 s are malformed (drop_bad_lsa)"

# ------------------------------------------------ 3. duplicate suppression
RET=0
before
flood flow 20000 "$NFORGED"
check_err $? "r2c2_ctlflood flow failed"
wait_until 60 p3_got "$NFORGED"
check_err $? "B's p3 received $(d "$B" p3_rx) of $NFORGED flow events"
sleep 0.3
snap "$FABRIC_TMP/after" -p "${NODES[@]}" && deltas
# each frame is counted once, under one reason: all of them here (bcast_rx
# has LSA refreshes of A and C only)
[[ $(d "$B" drop_unknown_src) == "$NFORGED" && $(d "$B" bcast_rx) -le 6 ]]
check_err $? "B: drop_unknown_src +$(d "$B" drop_unknown_src), bcast_rx +$(d "$B" bcast_rx); want $NFORGED and LSA refreshes only (<= 6)"
[[ $(d "$A" drop_unknown_src) == 0 && $(d "$C" drop_unknown_src) == 0 ]]
check_err $? "B relayed some: A and C drop_unknown_src +$(d "$A" drop_unknown_src), +$(d "$C" drop_unknown_src)"
before
ip netns exec "$A" r2c2ctl event send flow 0x77 dst 3
check_err $? "event send"
c_heard() { snap "$FABRIC_TMP/after" -p "${NODES[@]}" && deltas && (($(d "$C" bcast_rx) >= 1)); }
wait_until 10 c_heard
check_err $? "C did not get A's flow event: bcast_rx +$(d "$C" bcast_rx)"
log_test "flow events of $NFORGED sources not in the tables: dropped and counted, no state; A's still reach C"

# ------------------------------------------------ 4. ROUTES
RET=0
flows_b() { ip netns exec "$B" r2c2ctl -j flow show | jq length; }
f0=$(flows_b)
before
flood routes 1000 50 2
check_err $? "r2c2_ctlflood routes failed"
wait_until 30 p3_got 50
check_err $? "B's p3 received $(d "$B" p3_rx) of 50 ROUTES frames"
sleep 0.3
snap "$FABRIC_TMP/after" -p "${NODES[@]}" && deltas
f1=$(flows_b)
[[ $f1 == "$f0" ]]
check_err $? "B's flow table grew from $f0 to $f1 flows"
[[ $(d "$B" routes_refused) == $((50 * 212)) && $(d "$B" bcast_rx) -ge 50 &&
   $(d "$B" bcast_rx) -le 56 ]]
check_err $? "B: routes_refused +$(d "$B" routes_refused), bcast_rx +$(d "$B" bcast_rx); want 10600 and 50 (and LSA refreshes)"
log_test "50 ROUTES frames for flows B does not have: no flow made, 10600 entries refused"
lap "broadcast floods"

# ------------------------------------------------ 4b. a node joins
# The injector keeps B's database full: LSAs of 80 forged sources (pairs
# linked to each other, none to a real node) refreshed every round
# (r2c2_ctlflood mix, a frame a millisecond), so that any room a record's
# expiry makes is taken again within the round. D (4) comes up behind C's
# port 0: A, B and C each forget a forged record for D's LSA, which C's
# advertises back (lsdb_evicted), and A pings D. Without the eviction D
# stayed out of every full database for as long as the forger refreshed.
RET=0
D=r2c2-fd
flood -g 1000 -d 90 mix 20000 80 2 >"$FABRIC_TMP/forger.json" 2>&1 &
FORGER=$!
cleanup_add "stop_pids $FORGER"
wait_until 30 nodes_are "$CAP" "${NODES[@]}"
check_err $? "A, B and C not full ($CAP nodes): $(jq -c '{ns, nodes}' "$FABRIC_TMP/conv" 2>/dev/null | tr '\n' ' ')"
ns_create "$D" && veth_link "$C" p0 "$D" p1 &&
	ip netns exec "$C" r2c2ctl port add 0 dev p0 &&
	ip netns exec "$D" r2c2ctl node set addr 4 &&
	ip netns exec "$D" r2c2ctl port add 1 dev p1 &&
	ip -n "$D" addr add 10.42.0.4/16 dev r2c0 &&
	ip -n "$D" link set r2c0 up
check_err $? "node D behind C's port 0"
pings_d() { ip netns exec "$A" ping -n -c 1 -W 1 10.42.0.4 >/dev/null 2>&1; }
wait_until 60 pings_d
check_err $? "A does not reach D; drop_lsdb_full: A $(node_stat "$A" drop_lsdb_full), B $(node_stat "$B" drop_lsdb_full), C $(node_stat "$C" drop_lsdb_full)"
for ns in "$A" "$B" "$C"; do
	ev=$(node_stat "$ns" lsdb_evicted)
	[[ $ev =~ ^[0-9]+$ ]] && ((ev > 0))
	check_err $? "$ns: lsdb_evicted $ev: D's LSA did not take a forged record's place"
done
stop_pids "$FORGER"
log_info "lsdb_evicted: A $(node_stat "$A" lsdb_evicted), B $(node_stat "$B" lsdb_evicted), C $(node_stat "$C" lsdb_evicted)"
log_test "a node joins databases a forger keeps full: A, B and C each forget a forged record for it, A pings it"
lap "a node joins"

RET=0
kernel_healthy
check_err $? "kernel warnings or oopses"
log_test "no kernel warning, oops or taint"

# ------------------------------------------------ 5. namespaces
RET=0
NX=16 X=() Y=(r2c2-y1 r2c2-y2)
for ((i = 1; i <= NX; i++)); do X+=("r2c2-x$i"); done
setup_xy()
{
	local i ns

	for ns in "${X[@]}" "${Y[@]}"; do
		ns_create "$ns" || return 1
	done
	for ((i = 0; i < NX - 1; i++)); do
		veth_link "${X[i]}" p0 "${X[i + 1]}" p1 || return 1
	done
	veth_link "${Y[0]}" p0 "${Y[1]}" p1 || return 1
	for ((i = 0; i < NX; i++)); do
		ip netns exec "${X[i]}" r2c2ctl node set addr $((31 + i)) || return 1
		if ((i < NX - 1)); then
			ip netns exec "${X[i]}" r2c2ctl port add 0 dev p0 || return 1
		fi
		if ((i > 0)); then
			ip netns exec "${X[i]}" r2c2ctl port add 1 dev p1 || return 1
		fi
	done
	ip netns exec "${Y[0]}" r2c2ctl node set addr 21 &&
	ip netns exec "${Y[0]}" r2c2ctl port add 0 dev p0 &&
	ip netns exec "${Y[1]}" r2c2ctl node set addr 22 &&
	ip netns exec "${Y[1]}" r2c2ctl port add 1 dev p1
}
setup_xy
check_err $? "setup of X and Y failed"
wait_until 90 nodes_are "$NX" "${X[@]}" && wait_until 30 nodes_are 2 "${Y[@]}"
check_err $? "X or Y did not converge"
# since T: seconds from t0 to T, two decimals
since() { awk -v a="$1" -v b="$t0" 'BEGIN { printf "%.2f", a - b }'; }
y_cut() { grep -Eq '"event": *"topo".*"links": *0[,}]' "$FABRIC_TMP/ymon"; }
((RET == 0)) && {
	ip netns exec "${Y[0]}" r2c2ctl -j monitor >"$FABRIC_TMP/ymon" 2>&1 &
	YMON=$!
	cleanup_add "stop_pids $YMON"
	# quiet for more than the longest hold (1 s): X1's computation starts
	# 15 ms after the link goes down, before Y1's is asked for
	sleep 2.5
	t0=$(date +%s.%N)
	ip netns exec "${X[0]}" r2c2ctl route get $((30 + NX)) routing vlb count 1000000 >/dev/null &
	RG=$!
	sleep 0.3
	ip -n "${X[0]}" link set p0 down	# X1 recomputes: waits for its lock
	sleep 0.3
	if [[ -e /proc/$RG ]]; then
		ip -n "${Y[0]}" link set p0 down
		t_trig=$(date +%s.%N)
		wait_until 20 y_cut
		check_err $? "no TOPO_EVENT of Y1 with links 0: $(tail -n 3 "$FABRIC_TMP/ymon" | tr '\n' ' ')"
		t_y=$(date +%s.%N)
		[[ -e /proc/$RG && $(awk '{ print $3 }' /proc/$RG/stat 2>/dev/null) != Z ]]
		check_err $? "Y1's tables changed only after X1's ROUTE_GET ended ($(since "$t_y") s after it began)"
		wait "$RG"
		t1=$(date +%s.%N)
		log_info "X1's ROUTE_GET took $(since "$t1") s; Y1's link went down $(since "$t_trig") s after it began, its tables changed by $(since "$t_y") s"
		log_test "a node whose computation waits does not hold up another namespace's"
	else
		wait "$RG"
		log_info "X1's ROUTE_GET took $(since "$(date +%s.%N)") s: too short to test with"
		log_test_skip "a node whose computation waits does not hold up another namespace's"
	fi
}
lap "namespaces"

ksft_exit
