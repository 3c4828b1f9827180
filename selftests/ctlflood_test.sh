#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# ctlflood_test.sh - a neighbour forges control frames at line rate: LSAs
# of many sources, FLOW events and ROUTES frames, as fast as it can send
# them, for FLOOD_S seconds. The memory the rack's nodes keep stays under
# the bound Documentation/reliability.md states ("Control-plane flood"),
# the real nodes keep pinging every pair during and after the flood, and
# what the attacked node refuses is counted.
#
#	  2 ==== 3        a 2x2 torus (torus.sh); node 0 has a fifth port,
#	  ||     ||       p4, joined by a veth to fl0 in namespace r2c2-fl,
#	  0 ==== 1        where r2c2_ctlflood runs (mix mode, unpaced):
#	  |               rounds over FLOOD_NSRC forged sources (1000..),
#	 fl0              each an LSA (its link to a forged partner on and
#	                  off: the graph changes every round), a FLOW event
#	                  and a ROUTES frame of 212 entries for flows of
#	                  node 0 that do not exist
#
# With r2c2.max_nodes at its default (1024) node 0 keeps 1020 forged
# sources and refuses the LSAs of the others (drop_lsdb_full), drops
# their FLOW and ROUTES frames (drop_unknown_src), accepts those of the
# kept sources (bcast_rx; each round's sequence numbers are new) and
# refuses their ROUTES entries (routes_refused). Every node holds at
# most 1024 nodes. Memory: Slab + VmallocUsed, sampled every 0.5 s
# during the flood and after it, grows less than 4 nodes' bound plus the
# rack-wide allowance (mem_bound below); MemTotal - MemFree - Cached -
# Buffers (which also sees tables kvmalloc took from the page allocator)
# is logged against the same bound.
#
# With FLOOD_KEY=1 the four nodes hold a rack key and the injector does
# not: every frame it sends must be dropped as drop_auth on node 0's port
# 4 before anything else looks at it (no LSA kept or refused for room, no
# FLOW or ROUTES frame reaching a table), every node must keep exactly
# the torus's 4 nodes, and the pairs must ping as without the flood. The
# memory bound and the checks after the flood are the same.
#
# Knobs: FLOOD_S (default 20), FLOOD_NSRC (1500), FLOOD_GAP_US (0),
# FLOOD_KEY (0).

# shellcheck disable=SC2317  # functions called through wait_until
lib_dir=$(dirname "$0")
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"
# shellcheck source=selftests/torus.sh
source "$lib_dir/torus.sh"
# shellcheck source=selftests/fabric.sh
source "$lib_dir/fabric.sh"

require_root
require_cmd ip jq
require_module veth
require_r2c2
require_tools r2c2_snap r2c2_pingall r2c2_ctlflood
ksft_plan 6

FLOOD_S=${FLOOD_S:-20}
NSRC=${FLOOD_NSRC:-1500}
GAP=${FLOOD_GAP_US:-0}
KEYED=${FLOOD_KEY:-0}
if [[ $KEYED != [01] ]]; then
	echo "# FLOOD_KEY: '$KEYED' is not 0 or 1" >&2
	exit 1
fi
RACK_KEY=00112233445566778899aabbccddeeff
FIRST=1000
VICTIM=0
VNS=$(torus_ns $VICTIM)
FL=r2c2-fl
PARAM=/sys/module/r2c2/parameters/max_nodes
SAMPLER=
FLOODER=

stop_bg()
{
	local p

	for p in $SAMPLER $FLOODER; do
		stop_pids "$p"
	done
	SAMPLER=''
	FLOODER=''
}
cleanup_add stop_bg

# mem: Slab + VmallocUsed, kB
mem() { awk '/^(Slab|VmallocUsed):/ { s += $2 } END { print s }' /proc/meminfo; }
# used: MemTotal - MemFree - Cached - Buffers, kB
used()
{
	awk '/^MemTotal:/ { t = $2 } /^MemFree:/ { f = $2 } /^Cached:/ { c = $2 }
	     /^Buffers:/ { b = $2 } END { print t - f - c - b }' /proc/meminfo
}

# mem_bound NODES MAX_NODES: the bound of reliability.md, in kB: per
# node 3 tables (the published one, one awaiting its RCU grace period,
# one being built) of 5n^2 + 58n bytes, a computation's temporaries
# (80n), the LSA records (kmalloc-96) and duplicate-suppression entries
# (kmalloc-32, at most 4096) with their xarray nodes (576 bytes, at most
# min(n - 1, 1024) leaves + 17); plus 8 MiB for the whole guest: frames
# in the per-CPU backlogs and retry queues, records awaiting RCU.
mem_bound()
{
	awk -v k="$1" -v n="$2" 'BEGIN {
		x = ((n - 1 < 1024 ? n - 1 : 1024) + 17) * 576
		t = 5 * n * n + 58 * n
		d = (n - 1 < 4096 ? n - 1 : 4096)
		node = 3 * t + 80 * n + (n - 1) * 96 + x + d * 32 + x
		printf "%d %d\n", (k * node + 8 * 1048576) / 1024, node / 1024 }'
}

# sampler FILE: "SLAB_VMALLOC USED" every 0.5 s into FILE
sampler()
{
	while :; do
		echo "$(mem) $(used)" >>"$1"
		sleep 0.5
	done
}

# ---------------------------------------------------------------- setup
lap
RET=0
MAXN=$(cat "$PARAM" 2>/dev/null)
[[ -n $MAXN ]]
check_err $? "no module parameter r2c2.max_nodes"
torus_create 2 2
check_err $? "torus_create failed"
ns_create "$FL" && veth_link "$VNS" p4 "$FL" fl0
check_err $? "injector namespace failed"
ip netns exec "$FL" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
ip netns exec "$VNS" r2c2ctl port add 4 dev p4
check_err $? "port add 4 on node $VICTIM failed"
torus_wait_ready 60
check_err $? "the torus did not converge"
if ((KEYED)); then
	for ns in $(torus_namespaces); do
		ip netns exec "$ns" r2c2ctl key set 1 "$RACK_KEY" ||
			check_err 1 "$ns: key set 1 failed"
	done
	# every hello, LSA and flow event is signed from here on
	torus_wait_ready 60
	check_err $? "the torus did not converge with the key"
fi
P4MAC=$(ip -n "$VNS" -j link show p4 | jq -r '.[0].address')
read -r BOUND NODE_KB < <(mem_bound 4 "${MAXN:-1024}")
log_test_or_exit "setup: 2x2 torus$( ((KEYED)) && echo ' with a rack key (the injector has none)'), injector on node $VICTIM's port 4, r2c2.max_nodes $MAXN"
lap setup

# ---------------------------------------------------------------- flood
# shellcheck disable=SC2046  # one word per namespace
snap "$FABRIC_TMP/before" -p $(torus_namespaces)
sync; echo 3 >/proc/sys/vm/drop_caches
mem0=$(mem) used0=$(used)
sd0=$(softnet_drops)
log_info "before: Slab + VmallocUsed $mem0 kB, used $used0 kB; bound: $NODE_KB kB a node, $BOUND kB for 4 nodes and the guest"

sampler "$FABRIC_TMP/mem" &
SAMPLER=$!
ip netns exec "$FL" "$(tool r2c2_ctlflood)" -i fl0 -m "$P4MAC" -g "$GAP" \
	-d "$FLOOD_S" mix "$FIRST" "$NSRC" "$VICTIM" \
	>"$FABRIC_TMP/flood.json" 2>"$FABRIC_TMP/flood.log" &
FLOODER=$!
t0=$SECONDS

# every pair pings, again and again, while the flood goes on: from the
# moment node VICTIM's link-state database is full (it refuses LSAs), or
# with the key from its first frame refused as drop_auth
RET=0
rounds=0 bad=0 fails=
if ((KEYED)); then
	auth0=$(node_stat "$VNS" drop_auth)
	refusing() { (($(node_stat "$VNS" drop_auth) > auth0)); }
	wait_until 20 refusing
	check_err $? "node $VICTIM refused no frame as drop_auth: the flood did not reach it"
else
	lsdb0=$(node_stat "$VNS" drop_lsdb_full)
	lsdb_full() { (($(node_stat "$VNS" drop_lsdb_full) > lsdb0)); }
	wait_until 20 lsdb_full
	check_err $? "node $VICTIM refused no LSA: the flood did not fill its database"
fi
while [[ -e /proc/$FLOODER && $(awk '{ print $3 }' /proc/$FLOODER/stat 2>/dev/null) != Z ]]; do
	if ! out=$(torus_all_pairs 4); then
		bad=$((bad + 1))
		fails+="[$((SECONDS - t0)) s: $(tr '\n' ' ' <<<"$out")] "
	fi
	rounds=$((rounds + 1))
done
wait "$FLOODER"
check_err $? "r2c2_ctlflood failed: $(cat "$FABRIC_TMP/flood.log")"
FLOODER=
F=$(cat "$FABRIC_TMP/flood.json")
((rounds > 0 && bad == 0))
check_err $? "$bad of $rounds all-pairs rounds during the flood lost pairs: $fails"
log_info "flood: $F"
log_test "all 12 pairs ping during the flood ($rounds rounds)"
lap flood

stop_pids "$SAMPLER"
SAMPLER=
# shellcheck disable=SC2046  # one word per namespace
snap "$FABRIC_TMP/after" -p $(torus_namespaces)
sd1=$(softnet_drops)

# ---------------------------------------------------------------- counters
# D: node 0's port 4 and node counter deltas
D=$(jq -n -c --slurpfile b "$FABRIC_TMP/before" --slurpfile a "$FABRIC_TMP/after" \
	--arg ns "$VNS" '
	def p4: .ports | map(select(.port == 4))[0].stats;
	($b[] | select(.ns == $ns)) as $x | ($a[] | select(.ns == $ns)) as $y
	| ($y | p4) as $pa | ($x | p4) as $pb
	| (reduce ($pa | keys[]) as $k ({}; .[$k] = $pa[$k] - ($pb[$k] // 0))
	   | with_entries(select(.value != 0))) as $port
	| {port4: $port, routes_refused: ($y.node.routes_refused - $x.node.routes_refused),
	   nodes: [$a[] | .nodes]}')
log_info "node $VICTIM: $D; softnet drops +$((sd1 - sd0))"

RET=0
if ((KEYED)); then
	# the deltas leave out the counters that did not move
	json_assert '
		.port4.rx_packets > 0 and .port4.drop_auth == .port4.rx_packets and
		(.port4 | has("bcast_rx") or has("drop_lsdb_full") or
		 has("drop_unknown_src") | not) and
		.routes_refused == 0 and (.nodes | length == 4 and all(.[]; . == 4))' <<<"$D"
	check_err $? "with the key, not every forged frame was drop_auth, or one reached a table: $D"
	log_test "with the key: every frame of the injector drop_auth, none kept or refused further on; every node holds the 4 nodes of the torus"
else
	json_assert --argjson m "${MAXN:-1024}" '
		.port4.rx_packets > 0 and .port4.drop_lsdb_full > 0 and
		.port4.drop_unknown_src > 0 and .port4.bcast_rx > 0 and
		.routes_refused > 0 and (.routes_refused % 212) == 0 and
		all(.nodes[]; . <= $m)' <<<"$D"
	check_err $? "refusals not counted as expected: $D"
	log_test "refusals counted: drop_lsdb_full, drop_unknown_src, routes_refused; every node holds <= ${MAXN:-1024} nodes"
fi

# ---------------------------------------------------------------- memory
RET=0
peak=$(awk 'BEGIN { m = 0 } $1 > m { m = $1 } END { print m }' "$FABRIC_TMP/mem")
upeak=$(awk 'BEGIN { m = 0 } $2 > m { m = $2 } END { print m }' "$FABRIC_TMP/mem")
# after: once the last frames, recomputations and RCU callbacks brought
# it under the bound (a leak never does), 10 s at most
mem_under() { mem1=$(mem); ((mem1 - mem0 < BOUND)); }
wait_until 10 mem_under
used1=$(used)
log_info "Slab + VmallocUsed: before $mem0, peak $peak, after $mem1 kB; used: before $used0, peak $upeak, after $used1 kB"
((peak - mem0 < BOUND && mem1 - mem0 < BOUND))
check_err $? "Slab + VmallocUsed grew $((peak - mem0)) kB at the peak, $((mem1 - mem0)) kB after (bound $BOUND kB)"
log_test "memory bounded: Slab + Vmalloc +$((peak - mem0)) kB at the peak, +$((mem1 - mem0)) kB after (< $BOUND kB); used +$((upeak - used0)) / +$((used1 - used0)) kB"

# ---------------------------------------------------------------- after
RET=0
ports_whole()
{
	# shellcheck disable=SC2046  # one word per namespace
	snap "$FABRIC_TMP/real" -p $(torus_namespaces) 2>/dev/null &&
	json_assert -s 'length == 4 and all(.[]; ([.ports[] | select(.port < 4 and .state == 2)] | length) == 4)' \
		"$FABRIC_TMP/real" >/dev/null
}
wait_until 30 ports_whole
check_err $? "torus ports lost their neighbours: $(jq -c '{ns, nodes, links}' "$FABRIC_TMP/real" 2>/dev/null | tr '\n' ' ')"
out=$(torus_all_pairs 4)
check_err $? "pairs without an answer after the flood: $(tr '\n' ' ' <<<"$out")"
log_test "after the flood: every torus port has its neighbour, all 12 pairs ping"

RET=0
kernel_healthy
check_err $? "kernel warnings or oopses"
log_test "no kernel warning, oops or taint"

ksft_exit
