#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# netlink2_test.sh - r2c2 generic netlink commands that change a running
# rack, against the kernel: TREE_GET's trees are spanning trees of the
# real graph, TOPO_EVENT reports a link going down and up, PORT_ADD by
# IFINDEX, NODE_SET on a running node (address, hello interval, declared
# topology) and NODE_DEL followed by a new NODE_SET.
#
#	2x2 torus (torus.sh, hellos every 200 ms, r2c0 down), node ids
#	id = x + 2y, port 2d to port 2d+1 of the next node along d:
#
#	   r2c2-2 ==p0/p1== r2c2-3
#	     ||               ||
#	   p2/p3            p2/p3
#	     ||               ||
#	   r2c2-0 ==p0/p1== r2c2-1
#
#	(every pair of neighbours is joined twice: along d the next node
#	of the next node is the node itself)

# shellcheck disable=SC2317  # functions called through wait_until
lib_dir=$(dirname "$0")
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"
# shellcheck source=selftests/torus.sh
source "$lib_dir/torus.sh"
# shellcheck source=selftests/fabric.sh
source "$lib_dir/fabric.sh"

require_root
require_cmd ip jq setpriv
require_module veth
require_r2c2
require_tools r2c2_nlbad r2c2_snap

NLBAD=$(tool r2c2_nlbad)
T=$FABRIC_TMP

ksft_plan 11

# ---------------------------------------------------------------- setup
RET=0
TORUS_HELLO_MS=200 TORUS_R2C0=down torus_create 2 2
check_err $? "torus_create failed"
torus_wait_ready 60
check_err $? "the 2x2 torus did not converge"
log_test_or_exit "setup: 2x2 torus converged (4 nodes, 16 links)"

nx() { ip netns exec "r2c2-$1" "${@:2}"; }

# ---------------------------------------------------------------- TREE_GET
# Every node's broadcast FIB (tree show) with its ports' neighbours: for
# every source and tree, the root has no parent, every other node one
# parent port whose neighbour relays the tree to it (that neighbour's
# TREE_PORTS holds the port facing it), every node is relayed to by
# exactly one node, and the parents lead to the root.
RET=0
for id in 0 1 2 3; do
	nx "$id" r2c2ctl -j tree show >"$T/tree$id" &&
	nx "$id" r2c2ctl -j port show >"$T/port$id"
	check_err $? "tree show or port show failed on node $id"
done
json_assert -n --slurpfile t0 "$T/tree0" --slurpfile t1 "$T/tree1" \
	--slurpfile t2 "$T/tree2" --slurpfile t3 "$T/tree3" \
	--slurpfile p0 "$T/port0" --slurpfile p1 "$T/port1" \
	--slurpfile p2 "$T/port2" --slurpfile p3 "$T/port3" '
	[$t0[0], $t1[0], $t2[0], $t3[0]] as $t |
	[$p0[0], $p1[0], $p2[0], $p3[0]] as $p |
	# nbr(node; port): [neighbour, its port]
	def nbr($v; $q): $p[$v][] | select(.port == $q) |
		[.neighbour.addr, .neighbour.port];
	def entry($v; $s; $k): $t[$v][] | select(.src == $s and .tree == $k);
	def parent($v; $s; $k): entry($v; $s; $k).parent_port as $q |
		if $q == null then null else nbr($v; $q)[0] end;
	def reaches($v; $s; $k; $n):
		if $v == $s then true elif $n == 0 then false
		else reaches(parent($v; $s; $k); $s; $k; $n - 1) end;
	[range(4) as $v | $t[$v] | length] == [16, 16, 16, 16] and
	all(range(4) as $s | range(4) as $k | range(4) as $v |
		entry($v; $s; $k) as $e |
		if $v == $s then $e.parent_port == null
		else $e.parent_port != null and
			(nbr($v; $e.parent_port) as [$u, $uq] |
			 (entry($u; $s; $k).ports | index([$uq])) != null) and
			# relayed to by one node only
			([range(4) as $u | nbr($u; entry($u; $s; $k).ports[]) |
			  select(.[0] == $v)] | length) == 1 and
			reaches($v; $s; $k; 4)
		end; .)'
check_err $? "a tree is not a spanning tree of the torus"
out=$(jq -n --slurpfile t0 "$T/tree0" --slurpfile t1 "$T/tree1" \
	--slurpfile t2 "$T/tree2" --slurpfile t3 "$T/tree3" \
	--slurpfile p0 "$T/port0" --slurpfile p1 "$T/port1" \
	--slurpfile p2 "$T/port2" --slurpfile p3 "$T/port3" \
	'[$t0, $t1, $t2, $t3, $p0, $p1, $p2, $p3] | map(.[0])' |
	json_assert 'length == 8 and all(length > 0)')
check_err $? "$out"
if ((RET)); then
	for id in 0 1 2 3; do
		log_info "node $id trees: $(jq -c 'map([.src, .tree, .parent_port, .ports])' "$T/tree$id")"
	done
fi
log_test "TREE_GET: 4 sources x 4 trees, each a spanning tree of the real graph (one parent each, consistent with the relays' ports)"

# ---------------------------------------------------------------- TOPO_EVENT
MON=$T/mon
nx 0 r2c2ctl -j monitor timeout 60 >"$MON" 2>&1 &
mon=$!
gen0=$(nx 0 r2c2ctl -j node show | jq '.tables_gen')
topo_seen() # LINKS OK: a topo event of node 0 with these fields
{
	json_assert -s --argjson l "$1" --argjson ok "$2" --argjson g "$gen0" '
		map(select(.event == "topo" and .addr == 0 and .nodes == 4 and
			   .links == $l and .topology_ok == $ok and .tables_gen > $g)) |
		length > 0' "$MON" >/dev/null
}
RET=0
monitors_listen r2c2-0 1 "$MON"
check_err $? "node 0's monitor hears no event"
ip -n r2c2-0 link set p0 down
wait_until 10 topo_seen 14 false
check_err $? "no topo event with 14 links and topology_ok false after p0 of node 0 went down: $(grep topo "$MON" | tail -n 2)"
ip -n r2c2-0 link set p0 up
wait_until 10 topo_seen 16 true
check_err $? "no topo event with 16 links and topology_ok true after p0 came back: $(grep topo "$MON" | tail -n 2)"
stop_pids "$mon"
log_test "TOPO_EVENT: node 0's monitor hears links 14 (topology mismatch) after a link went down, 16 (ok) after it came back, new tables_gen"

# ---------------------------------------------------------------- PORT_ADD IFINDEX
RET=0
torus_wait_ready 30
check_err $? "not converged again"
nx 0 r2c2ctl port del 1
check_err $? "port del 1 failed"
idx=$(ip -n r2c2-0 -j link show p1 | jq '.[0].ifindex')
idx_lo=$(ip -n r2c2-0 -j link show lo | jq '.[0].ifindex')
out=$("$NLBAD" -n r2c2-0 -e EINVAL -m "IFINDEX and PORT_IFNAME disagree" \
	port_add port:u8:1 ifindex:u32:"$idx" port_ifname:str:p0 2>&1)
check_err $? "$out"
out=$("$NLBAD" -n r2c2-0 -e EINVAL -m "must be Ethernet" \
	port_add port:u8:1 ifindex:u32:"$idx_lo" 2>&1)
check_err $? "$out"
out=$("$NLBAD" -n r2c2-0 -e 0 port_add port:u8:1 ifindex:u32:"$idx" 2>&1)
check_err $? "$out"
port1_up()
{
	nx 0 r2c2ctl -j port show | json_assert --argjson i "$idx" '
		map(select(.port == 1)) | length == 1 and
		(.[0] | .dev == "p1" and .ifindex == $i and .neighbour.addr == 1)'
}
out=$(busywait 5000 port1_up)
check_err $? "port 1 added by ifindex $idx is not p1 with neighbour 1: $out"
torus_wait_ready 20
check_err $? "the torus did not converge with the port added by ifindex"
log_test "PORT_ADD by IFINDEX: the port is the device with that index and finds its neighbour (mismatched and non-Ethernet ifindex refused)"

# ---------------------------------------------------------------- NODE_SET hello
hello_tx() { nx 3 r2c2ctl -j stats show | jq '[.. | objects | .hello_tx? | numbers][0]'; }
hello_rate() # hellos node 3 sent in 2 s
{
	local h0 h1

	h0=$(hello_tx); sleep 2; h1=$(hello_tx)
	echo $((h1 - h0))
}
RET=0
torus_wait_ready 20
check_err $? "not converged before the hello change"
fast=$(hello_rate)
nx 3 r2c2ctl node set hello 1000
check_err $? "node set hello 1000 failed"
nx 3 r2c2ctl -j node show | json_assert '.hello_ms == 1000' >/dev/null
check_err $? "node show: hello_ms is not 1000"
sleep 0.5
slow=$(hello_rate)
# 4 ports: 40 hellos in 2 s at 200 ms, 8 at 1000 ms
((fast >= 24 && slow <= 14 && slow >= 4))
check_err $? "hellos of node 3 in 2 s: $fast at 200 ms, $slow at 1000 ms (want >= 24, then 4..14)"
log_info "hellos of node 3 in 2 s: $fast every 200 ms, $slow every 1000 ms"
nx 3 r2c2ctl node set hello 200
log_test "NODE_SET hello on a running node: node show has 1000 ms, hello_tx rate falls accordingly"

# ---------------------------------------------------------------- NODE_SET topology
node_topo() # NS TOPO OK
{
	nx "$1" r2c2ctl -j node show |
		json_assert --arg t "$2" --argjson ok "$3" \
			'.topology == $t and .topology_ok == $ok and .nodes == 4'
}
RET=0
nx 0 r2c2ctl node set topology torus:4
check_err $? "node set topology torus:4 failed"
out=$(busywait 5000 node_topo 0 torus:4 false)
check_err $? "node 0 declared torus:4: $out"
nx 0 r2c2ctl node set topology torus:2x2
out=$(busywait 5000 node_topo 0 torus:2x2 true)
check_err $? "node 0 declared torus:2x2 again: $out"
log_test "NODE_SET topology on a running node: torus:4 is a mismatch on the 2x2 graph, torus:2x2 matches again"

# ---------------------------------------------------------------- NODE_DEL
# node 3 deleted: r2c0 gone, node show ENODEV, its four veths no longer
# ports; nodes 1 and 2 lose it; a new NODE_SET makes a node without
# ports, and four PORT_ADDs rebuild the torus.
RET=0
torus_wait_ready 20
check_err $? "not converged before node del"
nx 3 r2c2ctl node del
check_err $? "node del failed"
[[ -z $(ip -n r2c2-3 -o link show r2c0 2>/dev/null) ]]
check_err $? "r2c0 still exists in r2c2-3 after node del"
out=$(nx 3 r2c2ctl node show 2>&1)
[[ $? -ne 0 && $out == *"no r2c2 node"* ]]
check_err $? "node show after node del: $out"
gone3()
{
	nx 0 r2c2ctl -j topo show | json_assert '(map(select(.links | length > 0) | .addr) | sort) == [0, 1, 2]' &&
	nx 1 r2c2ctl -j port show | json_assert '[.[] | .neighbour.addr] | index(3) == null'
}
out=$(busywait 10000 gone3)
check_err $? "node 3 is still in node 0's graph or node 1's neighbours: $out"
log_test "NODE_DEL: r2c0 gone, node show ENODEV, the other nodes lose node 3"

RET=0
nx 3 r2c2ctl node set addr 3 topology torus:2x2 hello 200
check_err $? "a new node set after node del failed"
nx 3 r2c2ctl -j port show | json_assert 'length == 0' >/dev/null
check_err $? "ports survived node del: $(nx 3 r2c2ctl -j port show)"
for p in 0 1 2 3; do
	nx 3 r2c2ctl port add "$p" dev "p$p"
	check_err $? "port add $p after node del failed"
done
ip -n r2c2-3 link set r2c0 down
torus_wait_ready 30
check_err $? "the torus did not converge with the new node 3"
log_test "NODE_DEL then NODE_SET: a new node without ports, its veths can be ports again, torus whole"

# ---------------------------------------------------------------- NODE_SET addr
# node 3 becomes node 7: its neighbours (1 and 2) hear 7 on the ports
# that heard 3, node 0's graph holds 7 with 4 links and no 3, r2c0 of
# node 7 takes the MAC of address 7. Then back to 3.
nbrs_are() # ADDR: every port of nodes 1 and 2 that faces the old node 3
{
	local id

	for id in 1 2; do
		nx "$id" r2c2ctl -j port show | json_assert --argjson a "$1" '
			[.[] | .neighbour.addr] | nonempty | all(. == 0 or . == $a)' ||
			return 1
	done
	nx 0 r2c2ctl -j topo show | json_assert --argjson a "$1" '
		# an old address may linger in the LSDB, with no link
		(map(select(.links | length > 0) | .addr) | sort) ==
			([0, 1, 2, $a] | sort) and
		(.[] | select(.addr == $a) | .links | length) == 4'
}
RET=0
mac0=$(ip -n r2c2-3 -j link show r2c0 | jq -r '.[0].address')
nx 3 r2c2ctl node set addr 7
check_err $? "node set addr 7 on the running node 3 failed"
out=$(wait_until 15 nbrs_are 7 && echo ok)
check_err $? "nodes 1 and 2 do not hear node 7 on the ports of node 3, or node 0's graph is not {0,1,2,7}: $(nbrs_are 7)"
mac=$(ip -n r2c2-3 -j link show r2c0 | jq -r '.[0].address')
[[ $mac0 == 02:52:32:43:00:03 && $mac == 02:52:32:43:00:07 ]]
check_err $? "r2c0's MAC $mac0 before, $mac after (want 02:52:32:43:00:03, then :07)"
nx 3 r2c2ctl -j node show | json_assert '.addr == 7' >/dev/null
check_err $? "node show does not say 7"
nx 3 r2c2ctl node set addr 3
out=$(wait_until 15 nbrs_are 3 && echo ok)
check_err $? "back to 3: $(nbrs_are 3)"
log_test "NODE_SET addr on a running node: neighbours and node 0's graph learn 7, r2c0's MAC follows, and back"

# ---------------------------------------------------------------- RATE_SET
# a qdisc on node 0's r2c0: malformed batches and the unprivileged are
# refused before any rate is set (more malformed ones in netlink_test.sh)
RET=0
tc -n r2c2-0 qdisc add dev r2c0 root r2c2
check_err $? "tc qdisc add r2c2 failed"
ok_ent='rates:{ rate_ent:{ flow_id:u32:1 rate:u64:1000000 } }'
for c in \
	"EPERM||setpriv|$ok_ent" \
	"EINVAL|RATES is required||ifindex:u32:1" \
	"EINVAL|RATES holds RATE_ENT only||rates:{ flow_id:u32:1 }" \
	"EINVAL|RATES needs 1..4096 well-formed entries||rates:{ }" \
	"EINVAL|RATE_ENT needs FLOW_ID and RATE||rates:{ rate_ent:{ rate:u64:1000000 } }" \
	"ERANGE|integer out of range||rates:{ rate_ent:{ flow_id:u32:1 rate:u64:999 } }" \
	"ENODEV|no r2c2 qdisc on the device||ifindex:u32:$idx $ok_ent" \
	"0|flows unknown to the qdisc were skipped||$ok_ent"; do
	IFS='|' read -r err msg how req <<<"$c"
	pre=()
	[[ $how == setpriv ]] && pre=(setpriv --reuid 65534 --regid 65534 \
		--clear-groups --inh-caps=-all --bounding-set=-all)
	# shellcheck disable=SC2086  # the request is words
	out=$(nx 0 "${pre[@]}" "$NLBAD" -e "$err" ${msg:+-m "$msg"} rate_set $req 2>&1)
	check_err $? "$out"
done
tc -n r2c2-0 -s qdisc show dev r2c0 | grep -q 'rate_updates 0 .*rates_unknown 1'
check_err $? "the qdisc's counters: $(tc -n r2c2-0 -s qdisc show dev r2c0 | grep rate_updates)"
log_test "RATE_SET: EPERM for nobody, malformed batches refused with their extack, a qdisc-less device ENODEV, an unknown flow skipped with a warning"

RET=0
kernel_healthy
check_err $? "kernel warnings or oopses"
log_test "no kernel warning, oops or taint"

ksft_exit
