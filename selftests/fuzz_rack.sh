#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fuzz_rack.sh - mutated frames at scale into a running torus, from a
# neighbour's position. Seeds are real frames captured on a port of the
# torus (hello, LSA, data, BCAST_ETH, FLOW, ROUTES); r2c2_fuzz mutates
# them (bit flips, interesting bytes, truncation, extension, header
# fields; checksum recomputed for a share) and sends them into node 4's
# port 4. Then: no kernel report; every frame accounted for on that port
# (rx = frames sent; each drop reason the frame alone decides counted
# exactly as r2c2_fuzz predicts; the rest accepted, duplicate or
# forwarded); memory bounded; the torus whole again and every node
# reachable from every other.
#
#	  6 ---- 7 ---- 8 --      a 3x3 torus (torus.sh): node 4 has a
#	  |      |      |         fifth port, p4, joined by a veth to fz0
#	  3 ---- 4 ---- 5 --      in namespace r2c2-fz, where r2c2_fuzz
#	  |      |  \   |         runs; seeds are captured with tcpdump on
#	  0 ---- 1 ---\ 2 --      node 4's p1 (the link to node 3)
#	  |      |     \|
#	             fz0 (r2c2-fz, r2c2_fuzz)
#
# Knobs (environment):
#   FUZZ_FRAMES   frames to send (default 100000: a few seconds of
#                 injection, the test ~1 min in a TCG guest)
#   FUZZ_SEED     PRNG seed (default: from the clock); printed, so that a
#                 run can be replayed with the same seeds file
#   FUZZ_CSUM     percent of frames with a recomputed checksum (50)
#   FUZZ_RATE     frames a second at most (0: unpaced)
#   FUZZ_MEM_MB   bound on the growth of Slab + VmallocUsed (64)
#   FUZZ_KEEP     a directory to copy the seeds and the result into
#   FUZZ_HEAL_S   seconds in which every pair must answer ping after the
#                 fuzzing (120; ARP correcting forged entries, see below)
#   R2C2_TEST_XDP native, generic or auto: the XDP transit program on
#                 every port, p4 included (xdp_fuzz_test.sh)
#   FUZZ_KEY      1: every node of the torus holds a rack key (r2c2ctl
#                 key set), the fuzzer does not, and the seeds carry
#                 trailers. Every HELLO, LSA, BCAST_ETH, FLOW and ROUTES
#                 frame, and every data frame for node 4 holding ARP or
#                 ND, must then be drop_auth, or drop_replay when it
#                 still carries its seed's trailer over unchanged bytes
#                 (5 % of the frames are seeds sent as they are); none
#                 is accepted:
#                 no forged node in any graph, no FLOW or ROUTES event at
#                 any node, node 4's flows as before, no neighbour on p4
# The larger runs (Documentation/reliability.md, "Frame fuzzing"):
#   scripts/vm-run --kernel 6.1 --timeout 1500 -- \
#       'FUZZ_FRAMES=1000000 selftests/run.sh fuzz_rack.sh'
#   scripts/vm-run --kernel 6.1 -- 'FUZZ_KEY=1 selftests/run.sh fuzz_rack.sh'

# shellcheck disable=SC2317  # functions called through wait_until
lib_dir=$(dirname "$0")
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"
# shellcheck source=selftests/torus.sh
source "$lib_dir/torus.sh"
# shellcheck source=selftests/fabric.sh
source "$lib_dir/fabric.sh"

require_root
require_cmd ip jq tcpdump
require_module veth
require_r2c2
require_tools r2c2_snap r2c2_pingall r2c2_fuzz r2c2_replay

FRAMES=${FUZZ_FRAMES:-100000}
SEED=${FUZZ_SEED:-$(( $(date +%s) % 1000000007 ))}
CSUM=${FUZZ_CSUM:-50}
RATE=${FUZZ_RATE:-0}
MEM_MB=${FUZZ_MEM_MB:-64}
KEYED=${FUZZ_KEY:-0}
KEY=00112233445566778899aabbccddeeff
VICTIM=4
VNS=$(torus_ns $VICTIM)
FZ=r2c2-fz
SEEDS=$FABRIC_TMP/seeds.pcap
FUZZ=$(tool r2c2_fuzz)
TCPDUMP_PID=
MON_PIDS=()

stop_tcpdump()
{
	[[ -n $TCPDUMP_PID ]] || return 0
	stop_pids "$TCPDUMP_PID"
	TCPDUMP_PID=
}
cleanup_add stop_tcpdump

stop_monitors()
{
	((${#MON_PIDS[@]})) || return 0
	stop_pids "${MON_PIDS[@]}"
	MON_PIDS=()
}
cleanup_add stop_monitors

# meminfo: "Slab SUnreclaim VmallocUsed" in kB
meminfo()
{
	awk '/^(Slab|SUnreclaim|VmallocUsed):/ { v[$1] = $2 }
	     END { print v["Slab:"], v["SUnreclaim:"], v["VmallocUsed:"] }' /proc/meminfo
}

# victim_state: node 4's table sizes, as one JSON object
victim_state()
{
	local node flows

	node=$(ip netns exec "$VNS" r2c2ctl -j node show) || return 1
	flows=$(ip netns exec "$VNS" r2c2ctl -j flow show | jq 'length')
	jq -c --argjson f "${flows:-0}" \
		'{nodes, links, topology_ok, sender_flows: $f}' <<<"$node"
}

# seeds_ready: the capture holds every frame type
seeds_ready()
{
	local l

	l=$("$FUZZ" -s "$SEEDS" -l 2>/dev/null) || return 1
	json_assert 'has("data") and has("hello") and has("lsa") and
	       has("bcast_eth") and has("flow") and has("routes")' <<<"$l"
}

# make_traffic: what the seeds are made of, around node 4's p1
make_traffic()
{
	local id addrs=()

	for id in 0 1 2 5 6 7 8; do
		addrs+=("$(torus_addr4 "$id")")
	done
	# ARP requests (BCAST_ETH) of node 4 and node 3, data on 4 - 3
	ip netns exec "$VNS" "$(tool r2c2_pingall)" -q -W 2000 -c 1 \
		"$(torus_addr4 3)" "${addrs[@]}" >/dev/null 2>&1
	torus_exec 3 ping -n -q -c 3 -i 0.2 "$(torus_addr4 4)" >/dev/null 2>&1
	torus_exec 3 ping -n -q -c 1 -W 1 "$(torus_addr4 8)" >/dev/null 2>&1
	# FLOW and ROUTES broadcasts of both
	torus_exec 3 r2c2ctl -b - <<-EOF
		event send flow 0x31 dst 5 weight 3 prio 2 demand 100M routing dor
		event send flow 0x32 dst 1 type finish
		routes send 3:0x31=vlb 4:0x41=dor 5:0x51=rps
	EOF
	ip netns exec "$VNS" r2c2ctl -b - <<-EOF
		event send flow 0x41 dst 2 weight 7 prio 1 demand 5M routing vlb
		routes send 4:0x41=vlb 0:0x01=dor
	EOF
}

# ---------------------------------------------------------------- setup
# eleven checks, and the key's own with a key
ksft_plan $((11 + KEYED))
lap
RET=0
torus_create 3 3
check_err $? "torus_create failed"
ns_create "$FZ" && veth_link "$VNS" p4 "$FZ" fz0
check_err $? "injector namespace failed"
ip netns exec "$FZ" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
ip netns exec "$VNS" r2c2ctl port add 4 dev p4
check_err $? "port add 4 on node $VICTIM failed"
what="3x3 torus"
if [[ -n ${R2C2_TEST_XDP:-} ]]; then
	# torus_create put the XDP program on the torus' ports: again on
	# the victim, for p4
	xdp_setup "$VNS"
	check_err $? "xdp attach on node $VICTIM failed"
	what+=" with the XDP program ($R2C2_TEST_XDP) on every port"
fi
if ((KEYED)); then
	for ns in $(torus_namespaces); do
		ip netns exec "$ns" r2c2ctl key set 1 "$KEY" ||
			check_err 1 "$ns: key set failed"
	done
	what="3x3 torus, every node with rack key 1"
fi
torus_wait_ready 90
check_err $? "the torus did not converge"
P4MAC=$(ip -n "$VNS" -j link show p4 | jq -r '.[0].address')
log_test_or_exit "setup: $what, injector on node $VICTIM's port 4"
lap setup

# ---------------------------------------------------------------- seeds
RET=0
ip netns exec "$VNS" tcpdump -i p1 -U -w "$SEEDS" ether proto 0x88b5 \
	>"$FABRIC_TMP/tcpdump.log" 2>&1 &
TCPDUMP_PID=$!
wait_until 10 grep -q 'listening on' "$FABRIC_TMP/tcpdump.log"
# an LSA refresh comes every 10 s at most; traffic makes the rest
end=$((SECONDS + 25))
until seeds_ready || ((SECONDS >= end)); do
	make_traffic
	sleep 1
done
sleep 0.5
stop_tcpdump
seeds_ready
check_err $? "the capture lacks a frame type: $("$FUZZ" -s "$SEEDS" -l 2>&1)"
log_info "seeds: $("$FUZZ" -s "$SEEDS" -l 2>&1)"
if ((KEYED)); then
	# every HELLO, LSA, FLOW and ROUTES seed signed with the key
	cap=$("$(tool r2c2_replay)" -s "$SEEDS" -l)
	json_assert '.trailer > 0 and .trailer == .hello + .lsa + .flow + .routes' <<<"$cap"
	check_err $? "a control seed without its trailer: $cap"
	log_info "seeds with a trailer: $cap"
fi
log_test_or_exit "seeds captured on node $VICTIM's p1: every frame type"
lap seeds

# ---------------------------------------------------------------- fuzz
# shellcheck disable=SC2046  # one word per namespace
snap "$FABRIC_TMP/before" -p $(torus_namespaces)
mem0=$(meminfo)
state0=$(victim_state)
drop0=$(cat /sys/class/net/fz0/statistics/tx_dropped 2>/dev/null ||
	ip netns exec "$FZ" cat /sys/class/net/fz0/statistics/tx_dropped)
log_info "before: Slab SUnreclaim VmallocUsed (kB) $mem0; node $VICTIM $state0"
log_info "r2c2_fuzz: $FRAMES frames, seed $SEED, checksum fixed for $CSUM %"
keyargs=()
if ((KEYED)); then
	keyargs=(-K -u 5)
	flows0=$(ip netns exec "$VNS" r2c2ctl -j flow show | jq -c 'map({flow, routing}) | sort_by(.flow)')
	# the events every node hears while the fuzzer runs
	for ns in $(torus_namespaces); do
		ip netns exec "$ns" r2c2ctl -j monitor >"$FABRIC_TMP/mon.$ns" 2>&1 &
		MON_PIDS+=($!)
	done
	sleep 0.5
fi

RET=0
t0=$SECONDS
ip netns exec "$FZ" "$FUZZ" -i fz0 -m "$P4MAC" -s "$SEEDS" -S "$SEED" \
	-n "$FRAMES" -c "$CSUM" -r "$RATE" -A "$VICTIM" -P 0x0f -Q 0x1f \
	"${keyargs[@]}" >"$FABRIC_TMP/fuzz.json" 2>"$FABRIC_TMP/fuzz.log"
check_err $? "r2c2_fuzz failed: $(cat "$FABRIC_TMP/fuzz.log")"
took=$((SECONDS - t0))
drop1=$(ip netns exec "$FZ" cat /sys/class/net/fz0/statistics/tx_dropped)
sleep 1		# let anything the frames caused settle
# shellcheck disable=SC2046  # one word per namespace
snap "$FABRIC_TMP/after" -p $(torus_namespaces)
R=$(cat "$FABRIC_TMP/fuzz.json")
log_info "$(head -n 1 "$FABRIC_TMP/fuzz.log")"
log_info "result: $R"
log_test "r2c2_fuzz sent $(jq .sent <<<"$R") frames in ${took}s ($(jq .rate <<<"$R") a second)"
lap fuzz

RET=0
kernel_healthy
check_err $? "kernel warnings or oopses"
log_test "no kernel warning, oops or taint"

# ---------------------------------------------------------------- accounting
# D: the deltas of node 4's port 4 counters and of node 4's forwarded
D=$(jq -n -c --slurpfile b "$FABRIC_TMP/before" --slurpfile a "$FABRIC_TMP/after" \
	--arg ns "$VNS" '
	def p4: .ports | map(select(.port == 4))[0].stats;
	($b[] | select(.ns == $ns)) as $x | ($a[] | select(.ns == $ns)) as $y
	| ($y | p4) as $pa | ($x | p4) as $pb
	| reduce ($pa | keys[]) as $k ({}; .[$k] = $pa[$k] - ($pb[$k] // 0))
	| .node_forwarded = ($y.node.forwarded - $x.node.forwarded)')
log_info "node $VICTIM port 4 deltas: $(jq -c 'with_entries(select(.value != 0))' <<<"$D")"

RET=0
# the veth's drops r2c2_fuzz was not told of: it sends a refused frame
# (ENOBUFS, counted in tx_dropped and in its "busy") again
busy=$(jq '.busy // 0' <<<"$R")
vdrop=$((drop1 - drop0 - busy))
sent=$(jq .sent <<<"$R")
rx=$(jq .rx_packets <<<"$D")
((rx == sent - vdrop))
check_err $? "port 4 received $rx frames, r2c2_fuzz sent $sent ($vdrop dropped by the veth, $busy refused and sent again)"
log_test "every frame reached port 4: rx_packets $rx = $sent sent - $vdrop dropped by veth"

# expect COUNTER PREDICTION: one exact counter against the prediction
RET=0
bad=()
expect()
{
	local got want

	got=$(jq --arg k "$1" '.[$k] // 0' <<<"$D")
	want=$(jq "$2" <<<"$R")
	[[ $got == "$want" ]] || bad+=("$1 $got, predicted $want")
}
expect drop_version '.predict.version'
expect drop_truncated '.predict.truncated'
expect drop_csum '.predict.csum'
expect drop_rlen '.predict.rlen'
expect drop_ridx '.predict.ridx'
expect drop_bad_lsa '.predict.bad + .predict.hello_bad'
expect drop_loop '.predict.loop + .predict.hello_loop'
expect drop_no_port '.predict.no_port'
expect hello_rx '.predict.hello_ok + .predict.hello_bad + .predict.hello_loop'
expect delivered '.predict.delivered'
expect drop_auth '.predict.auth'
expect drop_replay '.predict.replay'
((${#bad[@]} == 0))
check_err $? "$(printf '%s; ' "${bad[@]}")"
log_test "drop reasons the frame alone decides: each counter as predicted"

# The rest depends on state: broadcasts and LSAs accepted, duplicate,
# of a source not in the tables or beyond a full link-state database;
# forwarded data. drop_nomem (none expected) may take a frame of any.
# drop_tx_err and drop_too_big are charged to the port a frame leaves
# by: node 4's frames to the fuzzer's forged neighbour on p4 (640 in a
# 10^6-frame run), not frames it received.
RET=0
acct=$(jq -n -c --argjson d "$D" --argjson r "$R" '
	($d | to_entries | map(select((.key | startswith("drop_")) and
		.key != "drop_tx_err" and .key != "drop_too_big"))
	 | map(.value) | add) as $drops
	| ($r.predict) as $p
	| ($p.fwd + $p.fwd_maybe - $d.drop_port_down) as $fwd
	| {rx: $d.rx_packets, drops: $drops, delivered: $d.delivered,
	   bcast_rx: $d.bcast_rx, hello_ok: $p.hello_ok, fwd: $fwd,
	   state: $p.state,
	   state_seen: ($d.bcast_rx + $d.drop_dup + ($d.drop_unknown_src // 0) +
			($d.drop_lsdb_full // 0)),
	   nomem: $d.drop_nomem, node_forwarded: $d.node_forwarded,
	   sum: ($drops + $d.delivered + $d.bcast_rx + $p.hello_ok + $fwd)}')
log_info "accounting: $acct"
json_assert '.sum == .rx and .state_seen <= .state and .state_seen + .nomem >= .state
       and .fwd >= 0 and .fwd <= .node_forwarded' <<<"$acct"
check_err $? "frames unaccounted for: $acct"
log_test "every frame dropped under a drop_* counter or handled (accepted, duplicate, forwarded)"
lap accounting

# ---------------------------------------------------------------- forgeries
# With the key nothing of a control frame the fuzzer made may be
# believed: the predictions above already hold hello_rx to 0 and the
# state class to BCAST_ETH frames; here what the rack shows.
if ((KEYED)); then
	RET=0
	# evidence that every monitor listened: node 0's marker event,
	# sent now, heard by all nine (a monitor that heard nothing of the
	# fuzzer would hear none of it either)
	monitors_listen "$(torus_ns 0)" 1 "$FABRIC_TMP"/mon.*
	check_err $? "not every monitor heard node 0's marker: $(grep -l "\"$MARKER_FLOW\"" "$FABRIC_TMP"/mon.* | wc -l) of 9"
	stop_monitors
	ev=$(cat "$FABRIC_TMP"/mon.* | jq -s -c '[.[] | select((.event == "flow" or .event == "routes") and .flow != $m)]' --arg m "$MARKER_FLOW")
	[[ $ev == "[]" ]]
	check_err $? "FLOW or ROUTES events heard: $(head -c 600 <<<"$ev")"
	json_assert -s 'length == 9 and all(.[]; .nodes == 9)' "$FABRIC_TMP/after"
	check_err $? "forged nodes in a graph: $(jq -c '{ns, nodes}' "$FABRIC_TMP/after" | tr '\n' ' ')"
	# flows of node 4 may end (idle) or start (its answers to forged
	# pings, routed as by default), and go to another node (forged ARP
	# in a real node's name, BCAST_ETH: not authenticated); none may
	# have changed its routing (ROUTES)
	flows1=$(ip netns exec "$VNS" r2c2ctl -j flow show | jq -c 'map({flow, routing}) | sort_by(.flow)')
	json_assert -n --argjson b "$flows0" --argjson a "$flows1" '
		all($a[]; . as $f | ($b | map(select(.flow == $f.flow))) as $o
		    | if ($o | length) > 0 then $o[0] == $f else $f.routing == "rps" end)' >/dev/null
	check_err $? "node $VICTIM's flows changed: $flows0 -> $flows1"
	nbr=$(ip netns exec "$VNS" r2c2ctl -j neigh show | jq -c '[.[] | select(.port == 4)]')
	[[ $nbr == "[]" ]]
	check_err $? "node $VICTIM hears a neighbour on p4: $nbr"
	log_info "auth: drop_auth $(jq .drop_auth <<<"$D"), drop_replay $(jq .drop_replay <<<"$D") (unmutated $(jq .unmutated <<<"$R"))"
	log_test "with the key: no forged node, flow, route or neighbour accepted"
fi

# ---------------------------------------------------------------- recovery
# The fuzzer's forged hellos can leave it posing, on p4, as a neighbour
# that is a real node (Documentation/design.md, "Fabric trust": a
# neighbour is who its hellos say), for 3.5 times the interval they
# announced: node 4 then sends some of its frames for that node into p4.
# Recovery is asked of the rack once the hostile neighbour is gone: its
# link is taken down, and node 4 drops it at once (carrier loss).
ip -n "$FZ" link set fz0 down
# Fake LSAs (a source no node has, with a valid checksum) are accepted
# by design (Documentation/design.md, "Fabric trust"), up to
# r2c2.max_nodes, and live for the max_age they state (bounded): they
# add isolated nodes to every graph until then.
# The real torus must be whole again: 36 links everywhere, every port
# of the torus with its neighbour, every node reachable.
real_torus()
{
	# shellcheck disable=SC2046  # one word per namespace
	snap "$FABRIC_TMP/real" -p $(torus_namespaces) 2>/dev/null &&
	json_assert -s 'length == 9 and all(.[]; .links == 36 and
		([.ports[] | select(.port < 4 and .state == 2)] | length) == 4)' \
		"$FABRIC_TMP/real" >/dev/null
}

RET=0
wait_until 90 real_torus
check_err $? "the torus is not whole again: $(jq -c '{ns, nodes, links}' "$FABRIC_TMP/real" 2>/dev/null | tr '\n' ' ')"
fake=$(jq -s 'map(.nodes - 9) | max' "$FABRIC_TMP/real")
log_info "nodes beyond the torus's 9 (fake LSAs still alive): up to $fake"
if ((KEYED)) && ((fake != 0)); then
	check_err 1 "forged nodes in the graphs with the key: up to $fake"
fi
log_test "the torus converged again: 36 links at every node"
lap converge

# Forged ARP packets (BCAST_ETH, or data frames to node 4) once left IP
# addresses of the rack pointing, in node 4's r2c0 neighbour table, at
# MACs of no reachable node, until the entries timed out (drop_no_route).
# r2c2 now hands r2c0 no ARP or ND packet giving a MAC other than its
# source node's own (drop_lladdr): every neighbour entry of every node
# must name the r2c0 MAC of a node of the torus.
# A forged ARP packet in the name of a real node (its source, its MAC)
# can still tie another node's address to that node's MAC: neither ARP
# nor BCAST_ETH frames are authenticated, with or without a rack key
# (Documentation/design.md, "Fabric trust"). Pings along such an entry go
# to the wrong node until ARP corrects it: the entry goes stale, is
# probed at the wrong MAC without an answer, fails, and the next packet
# asks by broadcast (30 s reachable time at most, 5 s delay, 3 probes).
# So all pairs must answer within FUZZ_HEAL_S (120) s; the pairs without
# an answer at first, the entries that explain them and the time to heal
# are logged.
neigh_macs_ok()
{
	local id wrong=

	for id in $(torus_nodes); do
		wrong+=$(ip -n "$(torus_ns "$id")" neigh show dev r2c0 | awk -v n="$id" '
			$2 == "lladdr" && $3 !~ /^02:52:32:43:00:0[0-8]$/ { printf "%s:%s->%s ", n, $1, $3 }')
	done
	[[ -z $wrong ]] || { echo "$wrong"; return 1; }
}

# poisoned_for SRC DST: SRC's entry for DST's address, or DST's for SRC's,
# naming another node's MAC ("S:ADDR->MAC"); nothing when neither does.
poisoned_for()
{
	local s=$1 d=$2 a b

	for a in "$s $d" "$d $s"; do
		read -r a b <<<"$a"
		ip -n "$(torus_ns "$a")" neigh show dev r2c0 "$(torus_addr4 "$b")" |
			awk -v a="$a" -v mac="$(r2c2_mac "$b")" '
				$2 == "lladdr" && $3 != mac { printf "%s:%s->%s(%s) ", a, $1, $3, $NF }'
	done
}

HEAL_S=${FUZZ_HEAL_S:-120}
RET=0
wrong=$(neigh_macs_ok)
check_err $? "neighbour entries naming a MAC of no node of the torus: $wrong"
t0=$SECONDS
if ! fails=$(torus_all_pairs 4); then
	log_info "pairs without an answer at first: $(tr '\n' ' ' <<<"$fails")"
	expl=
	while read -r pair; do
		[[ -n $pair ]] || continue
		src=${pair%%->*} dst=${pair#*->}
		dst=${dst%% *} dst=${dst##*.}
		expl+=$(poisoned_for "$src" "$dst")
	done <<<"$fails"
	log_info "entries naming another node's MAC on those pairs: ${expl:-none left}"
	healed=1
	until fails=$(torus_all_pairs 4); do
		((SECONDS - t0 < HEAL_S)) || { healed=0; break; }
		sleep 2
	done
	((healed))
	check_err $? "pairs without an answer after ${HEAL_S}s: $(tr '\n' ' ' <<<"$fails")"
	if ((RET)); then
		# shellcheck disable=SC2013  # node numbers, a word each
		for id in $(sed -n 's/->.*//p' <<<"$fails" | sort -u); do
			log_info "node $id: r2c0 neighbours: $(ip -n "$(torus_ns "$id")" neigh show dev r2c0 | tr '\n' ';'); counters: $(ip netns exec "$(torus_ns "$id")" r2c2ctl -j stats show | jq -c '{drop_no_route, drop_lladdr}')"
		done
	fi
fi
log_info "all pairs answered after $((SECONDS - t0))s; node $VICTIM: drop_lladdr $(ip netns exec "$VNS" r2c2ctl -j stats show | jq '.drop_lladdr')"
log_test "IPv4 all pairs (72) after the fuzzing, within ${HEAL_S}s; every neighbour entry names a node's MAC"
lap "all pairs"

# ---------------------------------------------------------------- memory
RET=0
state1=$(victim_state)
mem1=$(meminfo)
read -r s0 u0 v0 <<<"$mem0"
read -r s1 u1 v1 <<<"$mem1"
grow=$(((s1 - s0) + (v1 - v0)))
log_info "after: Slab SUnreclaim VmallocUsed (kB) $mem1 (Slab $((s1 - s0)), SUnreclaim $((u1 - u0)), Vmalloc $((v1 - v0)) kB); node $VICTIM $state1"
((grow < MEM_MB * 1024))
check_err $? "Slab + VmallocUsed grew by $grow kB (bound $MEM_MB MB)"
log_test "memory bounded: Slab + Vmalloc grew $grow kB (< $MEM_MB MB)"

if [[ -n ${FUZZ_KEEP:-} ]]; then
	mkdir -p "$FUZZ_KEEP" && cp "$SEEDS" "$FABRIC_TMP/fuzz.json" "$FUZZ_KEEP"/
fi

RET=0
kernel_healthy
check_err $? "kernel warnings or oopses"
log_test "no kernel warning, oops or taint at the end"

ksft_exit
