#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# netlink_test.sh - the r2c2 generic netlink family refuses bad requests
# with the right errno and an extended ack message, and they change
# nothing. r2c2ctl checks every value before sending, so the requests are
# made by selftests/tools/r2c2_nlbad, which sends anything.
#
#	 r2c2-na (node 1)                 r2c2-nb (node 2)
#	 +------------------+   veth     +------------------+
#	 | p0 (port 0)  ----|------------|---- p1 (port 1)  |
#	 | dummy0 (no port) |            |                  |
#	 | r2c0             |            | r2c0             |
#	 +------------------+            +------------------+
#	 r2c2-nx: a namespace without an r2c2 node
#
# Every case is one request from r2c2-na (or r2c2-nx) with the errno and
# a piece of the extack text it must get. Then the unprivileged: the
# same tool as nobody without capabilities (setpriv), and as root of a
# new user namespace (unshare -Ur) that does not own the network
# namespace, gets EPERM for every changing command, while reading still
# works. A FLOW_EVENT and a ROUTES_SEND request of node 1 reach node 1's
# own event listeners exactly as node 2's. Afterwards `node show` and
# `port show` of r2c2-na are what they were before (but for the tables'
# generation and the neighbour's age).

# shellcheck disable=SC2317  # functions called through wait_until
lib_dir=$(dirname "$0")
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"
# shellcheck source=selftests/fabric.sh
source "$lib_dir/fabric.sh"

require_root
require_cmd ip jq setpriv unshare
require_module veth dummy
require_r2c2
require_tools r2c2_nlbad r2c2_snap

A=r2c2-na B=r2c2-nb X=r2c2-nx
NLBAD=$(tool r2c2_nlbad)

# The cases: ERRNO|EXTACK PIECE (empty: any or none)|COMMAND ATTRIBUTES
# (r2c2_nlbad syntax: NAME:TYPE:VALUE, NAME:{ ... }).
CASES=$(cat <<'EOF'
ERANGE|integer out of range|port_add port:u8:8 port_ifname:str:p0
ERANGE|integer out of range|port_del port:u8:8
ERANGE|integer out of range|node_set node_addr:u16:0xffff
EINVAL|invalid attribute length|node_set node_addr:u32:5
EINVAL|invalid attribute length|node_set trees:u16:2
ERANGE|integer out of range|node_set rproto:u8:7
ERANGE|integer out of range|node_set trees:u8:0
ERANGE|integer out of range|node_set trees:u8:17
ERANGE|integer out of range|node_set hello_ms:u32:9
ERANGE|integer out of range|node_set hello_ms:u32:60001
EINVAL|a dimension's radix must be 2..255|node_set topo_dims:{ topo_dim:u8:3 topo_dim:u8:1 }
EINVAL|at most 3 dimensions|node_set topo_dims:{ topo_dim:u8:2 topo_dim:u8:2 topo_dim:u8:2 topo_dim:u8:2 }
EINVAL|too many nodes|node_set topo_dims:{ topo_dim:u8:255 topo_dim:u8:255 topo_dim:u8:255 }
EINVAL|TOPO_DIMS holds u8 TOPO_DIM only|node_set topo_dims:{ topo_dim:u16:3 }
EOPNOTSUPP|only the default ethertype|node_set ethertype:u16:0x1234
EOPNOTSUPP|set at creation only|node_set ifname:str:r2c9
EINVAL|Unknown attribute type|node_set 250:u8:1
EINVAL|PORT is required|port_add port_ifname:str:p0
EINVAL|IFINDEX or PORT_IFNAME is required|port_add port:u8:1
ENODEV|no such interface|port_add port:u8:1 port_ifname:str:nosuch0
ENODEV|no such interface|port_add port:u8:1 ifindex:u32:99999
EINVAL|soft interface cannot be a port|port_add port:u8:1 port_ifname:str:r2c0
EINVAL|must be Ethernet|port_add port:u8:1 port_ifname:str:lo
EBUSY|port number already in use|port_add port:u8:0 port_ifname:str:dummy0
EBUSY|netdev is already a port|port_add port:u8:1 port_ifname:str:p0
EINVAL|PORT is required|port_del
ENOENT|no such port|port_del port:u8:5
EINVAL|DST is required|route_get
ERANGE|integer out of range|route_get dst:u16:2 count:u32:0
ERANGE|integer out of range|route_get dst:u16:2 count:u32:1000001
EHOSTUNREACH|not in the discovered graph|route_get dst:u16:99
EINVAL|FLOW_ID and RPROTO are required|flow_set flow_id:u32:1
ERANGE|integer out of range|flow_set flow_id:u32:1 rproto:u8:4
EINVAL|FLOW_ID and DST are required|flow_event flow_id:u32:1
ERANGE|integer out of range|flow_event flow_id:u32:1 dst:u16:2 demand_kbps:u32:0x40000000
ERANGE|integer out of range|flow_event flow_id:u32:1 dst:u16:2 flow_evt:u8:9
ERANGE|integer out of range|flow_event flow_id:u32:1 dst:u16:2 weight:u8:0
ERANGE|integer out of range|flow_event flow_id:u32:1 dst:u16:2 prio:u8:16
EINVAL|ROUTES is required|routes_send
EINVAL|1..212 well-formed entries|routes_send routes:{ }
EINVAL|ROUTES holds ROUTE_ENT only|routes_send routes:{ node_addr:u16:1 }
EINVAL|ROUTE_ENT needs FLOW_SRC, FLOW_ID and RPROTO|routes_send routes:{ route_ent:{ flow_src:u16:1 flow_id:u32:1 } }
ERANGE|integer out of range|routes_send routes:{ route_ent:{ flow_src:u16:1 flow_id:u32:1 rproto:u8:5 } }
EINVAL|KEY_ID is required|key_set key:hex:00112233445566778899aabbccddeeff
EINVAL|KEY is required|key_set key_id:u8:1
ERANGE|binary attribute size out of range|key_set key_id:u8:1 key:hex:0011
ERANGE|integer out of range|key_set key_id:u8:0 key:hex:00112233445566778899aabbccddeeff
ERANGE|integer out of range|key_set key_id:u8:1 key:hex:00112233445566778899aabbccddeeff key_overlap_ms:u32:3600001
EINVAL|an all-zero key is refused|key_set key_id:u8:1 key:hex:00000000000000000000000000000000
ENOENT|no key is set|key_del
EOPNOTSUPP||200
EOPNOTSUPP||topo_event
EOF
)

# Changing commands an unprivileged user must not run (all otherwise valid),
# and sampling more than 10000 routes (CPU time under the table lock).
PRIV_CASES=$(cat <<'EOF'
key_set key_id:u8:1 key:hex:00112233445566778899aabbccddeeff
key_del
node_set trees:u8:2
node_del
port_add port:u8:1 port_ifname:str:dummy0
port_del port:u8:0
stats_reset
flow_set flow_id:u32:1 rproto:u8:1
flow_event flow_id:u32:1 dst:u16:2
routes_send routes:{ route_ent:{ flow_src:u16:1 flow_id:u32:1 rproto:u8:1 } }
route_get dst:u16:2 count:u32:101
EOF
)
# a check per refused request, and one for each case below
ksft_plan $(($(grep -c . <<<"$CASES") + 10))

# the state that must not change: node show but tables_gen (the tables
# are recomputed at every refresh of the node's own link-state
# advertisement, every 10 s, changed or not), and port show without ages
state()
{
	ip netns exec "$A" r2c2ctl -j node show | jq -c 'del(.tables_gen)' &&
	ip netns exec "$A" r2c2ctl -j port show | jq -c 'map(del(.neighbour.age_ms))'
}

pair_ok()
{
	snap "$FABRIC_TMP/p" "$A" "$B" 2>/dev/null &&
	[[ $(jq -s 'map(select(.nodes == 2)) | length' "$FABRIC_TMP/p") == 2 ]]
}

# ---------------------------------------------------------------- setup
RET=0
ns_create "$A" && ns_create "$B" && ns_create "$X" &&
veth_link "$A" p0 "$B" p1 &&
ip -n "$A" link add dummy0 type dummy && ip -n "$A" link set dummy0 up &&
ip netns exec "$A" r2c2ctl node set addr 1 topology torus:2x2 &&
ip netns exec "$A" r2c2ctl port add 0 dev p0 &&
ip netns exec "$B" r2c2ctl node set addr 2 &&
ip netns exec "$B" r2c2ctl port add 1 dev p1
check_err $? "setup failed"
wait_until 30 pair_ok
check_err $? "nodes 1 and 2 do not find each other"
before=$(state)
check_err $? "r2c2ctl show failed"
log_test_or_exit "setup: nodes 1 and 2 joined by a veth"

# ---------------------------------------------------------------- cases
while IFS='|' read -r err msg req; do
	[[ -n $req ]] || continue
	RET=0
	want=(-e "$err")
	if [[ -n $msg ]]; then want+=(-m "$msg"); fi
	# shellcheck disable=SC2086  # the request is words
	out=$("$NLBAD" -n "$A" "${want[@]}" $req 2>&1)
	check_err $? "$out"
	log_test "$req: $err${msg:+, \"$msg\"}"
done <<<"$CASES"

RET=0
out=$("$NLBAD" -n "$X" -e ENODEV -m "no r2c2 node in this namespace" node_get 2>&1)
check_err $? "$out"
out=$("$NLBAD" -n "$X" -e EINVAL -m "NODE_ADDR is required" node_set trees:u8:2 2>&1)
check_err $? "$out"
out=$("$NLBAD" -n "$X" -e ENODEV -m "no r2c2 node in this namespace" port_add port:u8:0 port_ifname:str:lo 2>&1)
check_err $? "$out"
[[ -z $(ip -n "$X" -o link show r2c0 2>/dev/null) ]]
check_err $? "a refused request left an r2c0 in $X"
log_test "a namespace without a node: ENODEV, NODE_SET without NODE_ADDR refused"

# ---------------------------------------------------------------- privileges
for how in setpriv unshare; do
	RET=0
	fails=()
	while read -r req; do
		[[ -n $req ]] || continue
		if [[ $how == setpriv ]]; then
			# shellcheck disable=SC2086  # the request is words
			out=$(ip netns exec "$A" setpriv --reuid 65534 --regid 65534 \
				--clear-groups --inh-caps=-all --bounding-set=-all \
				"$NLBAD" -e EPERM $req 2>&1) || fails+=("$out")
		else
			# shellcheck disable=SC2086  # the request is words
			out=$(ip netns exec "$A" unshare -Ur "$NLBAD" -e EPERM $req 2>&1) ||
				fails+=("$out")
		fi
	done <<<"$PRIV_CASES"
	if [[ $how == setpriv ]]; then
		out=$(ip netns exec "$A" setpriv --reuid 65534 --regid 65534 \
			--clear-groups --inh-caps=-all --bounding-set=-all \
			"$NLBAD" -e 0 node_get 2>&1) || fails+=("reading: $out")
		out=$(ip netns exec "$A" setpriv --reuid 65534 --regid 65534 \
			--clear-groups --inh-caps=-all --bounding-set=-all \
			"$NLBAD" -e 0 route_get dst:u16:2 2>&1) || fails+=("reading: $out")
		out=$(ip netns exec "$A" setpriv --reuid 65534 --regid 65534 \
			--clear-groups --inh-caps=-all --bounding-set=-all \
			"$NLBAD" -e 0 route_get dst:u16:2 count:u32:100 2>&1) ||
			fails+=("sampling 100: $out")
		# the events group carries the rack's traffic matrix
		out=$(ip netns exec "$A" setpriv --reuid 65534 --regid 65534 \
			--clear-groups --inh-caps=-all --bounding-set=-all \
			r2c2ctl monitor timeout 1 2>&1)
		[[ $? -ne 0 && $out == *"cannot join group"* ]] ||
			fails+=("monitor as nobody: exit 0 or no refusal: $out")
	else
		out=$(ip netns exec "$A" unshare -Ur r2c2ctl monitor timeout 1 2>&1)
		[[ $? -ne 0 && $out == *"cannot join group"* ]] ||
			fails+=("monitor in a user namespace: exit 0 or no refusal: $out")
	fi
	((${#fails[@]} == 0))
	check_err $? "${fails[*]}"
	case $how in
	setpriv) log_test "nobody without capabilities: EPERM for $(grep -c . <<<"$PRIV_CASES") changing commands and the events group, reading allowed" ;;
	unshare) log_test "root of a user namespace that does not own the netns: EPERM for every changing command and the events group" ;;
	esac
done

# ---------------------------------------------------------------- local echo
# A FLOW_EVENT or ROUTES_SEND request is multicast to the requesting
# node's own listeners exactly as the other node hears it (FLOW_SRC and
# NODE_ADDR = node 1). The request is repeated until both monitors have
# it: a monitor subscribes some time after it starts.
MA=$FABRIC_TMP/mon-a MB=$FABRIC_TMP/mon-b
ip netns exec "$A" r2c2ctl -j monitor timeout 60 >"$MA" 2>&1 &
mon_a=$!
ip netns exec "$B" r2c2ctl -j monitor timeout 60 >"$MB" 2>&1 &
mon_b=$!

# heard FILE EVENT: the JSON line of the first EVENT ("flow"/"routes")
heard() { jq -c --arg e "$2" 'select(.event == $e)' "$1" 2>/dev/null | head -n 1; }

echo_sent()
{
	ip netns exec "$A" r2c2ctl event send flow 0x1a dst 2 weight 3 prio 2 \
		demand 100M routing dor &&
	ip netns exec "$A" r2c2ctl routes send 2:0x2b=vlb 1:0x1a=dor || return 1
	# both events in both monitors: a monitor that subscribed between the
	# two requests has the routes but not the flow event of this round
	wait_until 2 heard_all
}

# shellcheck disable=SC2317  # called through wait_until
heard_all()
{
	local f e

	for f in "$MA" "$MB"; do
		for e in flow routes; do
			[[ -n $(heard "$f" "$e") ]] || return 1
		done
	done
}

RET=0
wait_until 20 echo_sent
check_err $? "the monitors of node 1 and node 2 did not both hear the requests"
fa=$(heard "$MA" flow) fb=$(heard "$MB" flow)
want='{"event":"flow","type":"start","src":1,"flow":"0x0000001a","dst":2,"weight":3,"prio":2,"demand_kbps":100000,"routing":"dor"}'
[[ $fa == "$want" && $fb == "$want" ]]
check_err $? "flow event at node 1: $fa; at node 2: $fb; wanted $want"
log_test "FLOW_EVENT request: node 1's own listener hears it as node 2 does (src 1)"

RET=0
ra=$(heard "$MA" routes) rb=$(heard "$MB" routes)
[[ -n $ra && $ra == "$rb" && $(jq -r '.from' <<<"$ra") == 1 ]]
check_err $? "routes event at node 1: $ra; at node 2: $rb"
stop_pids "$mon_a" "$mon_b"
log_test "ROUTES_SEND request: node 1's own listener hears it as node 2 does (from 1)"

# ---------------------------------------------------------------- nothing changed
RET=0
after=$(state)
[[ $after == "$before" ]]
check_err $? "node 1 changed: before $before; after $after"
log_test "node show and port show unchanged after all the refused requests"

# ---------------------------------------------------------------- node set on a running node
# NODE_SET with TOPO_DIMS on a running node once returned the number of
# dimensions as its result: applied, but acknowledged as an error
RET=0
out=$(ip netns exec "$A" r2c2ctl node set topology torus:3x3 2>&1)
check_err $? "node set topology torus:3x3 on a running node: $out"
ip netns exec "$A" r2c2ctl -j node show | json_assert '.topology == "torus:3x3"'
check_err $? "node show does not say torus:3x3"
out=$(ip netns exec "$A" r2c2ctl node set topology torus:2x2 hello 100 2>&1)
check_err $? "node set topology torus:2x2 hello 100: $out"
ip netns exec "$A" r2c2ctl -j node show | json_assert '.topology == "torus:2x2" and .hello_ms == 100'
check_err $? "node show does not say torus:2x2, hello 100"
log_test "NODE_SET of a topology on a running node succeeds and takes effect"

# NODE_SET of the address on a running node: r2c0 takes the new address's
# MAC through the address-change notifiers (NETDEV_PRE_CHANGEADDR, which
# a stacked device may veto, then NETDEV_CHANGEADDR), so a bridge on r2c0
# follows it
RET=0
mac_of() { ip -n "$A" -j link show "$1" | jq -r '.[0].address'; }
ip -n "$A" link add nlbr0 type bridge &&
	ip -n "$A" link set r2c0 master nlbr0 &&
	ip -n "$A" link set nlbr0 up
check_err $? "a bridge on r2c0"
out=$(ip netns exec "$A" r2c2ctl node set addr 0x1234 2>&1)
check_err $? "node set addr 0x1234 on a running node: $out"
[[ $(mac_of r2c0) == *:12:34 && $(mac_of nlbr0) == "$(mac_of r2c0)" ]]
check_err $? "r2c0 $(mac_of r2c0), nlbr0 $(mac_of nlbr0): want both ..:12:34"
out=$(ip netns exec "$A" r2c2ctl node set addr 1 2>&1)
check_err $? "node set addr 1: $out"
[[ $(mac_of r2c0) == *:00:01 && $(mac_of nlbr0) == "$(mac_of r2c0)" ]]
check_err $? "r2c0 $(mac_of r2c0), nlbr0 $(mac_of nlbr0): want both ..:00:01"
ip -n "$A" link del nlbr0
log_test "NODE_SET of the address on a running node: r2c0's MAC and a bridge on it follow"

RET=0
kernel_healthy
check_err $? "kernel warnings or oopses"
log_test "no kernel warning, oops or taint"

ksft_exit
