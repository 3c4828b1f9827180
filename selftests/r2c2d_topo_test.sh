#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# r2c2d_topo_test.sh - r2c2d follows the graph the kernel routes on
# (TOPO_EVENT): after a link goes down and after it comes back, its
# tables are rebuilt and its rates are those `r2c2ctl alloc` computes
# offline on the kernel's new graph (and no longer those of the old one).
#
#	scripts/vm-run --kernel 6.12 -- selftests/run.sh r2c2d_topo_test.sh
#
#	  .------------------------------------------------------.
#	  p1  [0]  p0 ---- p1  [1]  p0 ---- p1  [2]  p0 ---- p1  [3]  p0
#	       x: the link taken down (node 0's p0 <-> node 1's p1), then
#	          node 0's other link too (node 0 cut off), then both up
#
# A ring of four nodes wired as torus:4 (port 0 = +1, port 1 = -1),
# hellos every 200 ms (with 100 ms a starved TCG guest lets neighbours
# expire now and then: the kernels' graph flaps, and the daemons follow).
# r2c2d runs on node 2, whose kernel declares torus:4 (the daemon starts
# from the torus), and on node 3, which declares nothing (the daemon
# starts from the discovered graph). Flows 0->1, 0->2 and 1->3 (RPS) are
# announced with r2c2ctl event from nodes 0 and 1, so both daemons hold
# the same matrix without traffic. The rebuilds each daemon made are
# printed at the end (-v log).
#
# The kernel routes on the discovered graph whether or not a torus is
# declared: with the link down both daemons must allocate on the line
# 1-2-3-0 (6 directed links); with node 0 cut off on the line 1-2-3 (4),
# node 0's flows gone from the matrix (left_flows); with both links back
# on the ring (8). Node 0 runs no daemon: when it is back, the test sends
# its flow events again, as node 0's daemon would on the new tables
# (r2c2d_reannounce_test.sh tests the daemon's side).

lib_dir=$(cd "$(dirname "$0")" && pwd)
source "$lib_dir/lib.sh"

require_root
require_cmd ip jq
require_module veth
require_r2c2
require_cmd r2c2d
ksft_plan 6

CAP=1G
TMP=$(mktemp -d)
NS=(r2c2t-0 r2c2t-1 r2c2t-2 r2c2t-3)
DPIDS=()
stop_daemons() { stop_pids "${DPIDS[@]}"; DPIDS=(); }
cleanup_add "rm -rf $TMP"
cleanup_add stop_daemons

for i in 0 1 2 3; do
	ns_create "${NS[i]}" || exit "$KSFT_FAIL"
done
for i in 0 1 2 3; do
	veth_link "${NS[i]}" p0 "${NS[(i + 1) % 4]}" p1 || exit "$KSFT_FAIL"
done
for i in 0 1 2 3; do
	topo=torus:4
	((i == 3)) && topo=none
	ip netns exec "${NS[i]}" bash -c "r2c2ctl node set addr $i hello 200 topology $topo >/dev/null &&
		r2c2ctl port add 0 dev p0 && r2c2ctl port add 1 dev p1"
	check_err $? "node $i"
done

# links N: every node's kernel has N directed links in its graph
links()
{
	local i n

	for i in 0 1 2 3; do
		n=$(ip netns exec "${NS[i]}" r2c2ctl -j node show 2>/dev/null |
			jq -r 'if type == "array" then .[0].links else .links end')
		[[ $n == "$1" ]] || return 1
	done
}
busywait 20000 links 8
check_err $? "the ring did not converge (8 links everywhere)"
log_test "ring of 4 up"

for i in 2 3; do
	ip netns exec "${NS[i]}" r2c2d -o "link_capacity=$CAP" \
		-o ga_interval_ms=0 -o expire_ms=600000 -v 2>"$TMP/d$i.log" &
	DPIDS+=($!)
done
for i in 2 3; do
	busywait 10000 ip netns exec "${NS[i]}" r2c2ctl daemon show >/dev/null 2>&1
	check_err $? "r2c2d on node $i answers"
done
ip netns exec "${NS[0]}" bash -c 'r2c2ctl event send flow 1 dst 1 &&
	r2c2ctl event send flow 2 dst 2'
check_err $? "flow events from node 0"
ip netns exec "${NS[1]}" r2c2ctl event send flow 3 dst 3
check_err $? "flow event from node 1"
log_test "r2c2d on nodes 2 (torus:4) and 3 (discovered graph), 3 flows"

# topofile NS: the kernel's graph of a node as a topology file (links in
# port order; the flows are RPS, which does not depend on port numbers)
topofile()
{
	ip netns exec "$1" r2c2ctl -j topo show | jq -r '
		"nodes \(map(.addr) | max + 1)",
		(.[] | .addr as $u | .links | sort_by(.port)[] |
			"link \($u) \(.neighbour)")'
}

# offline NS SPEC GONE: "flow rate" of r2c2ctl alloc on SPEC ("kernel":
# the kernel's graph of NS) over the flows of the daemon's matrix that do
# not start or end at node GONE (the others: "flow 0")
offline()
{
	local m=$TMP/m.$1 spec=$2

	if [[ $spec == kernel ]]; then
		topofile "$1" >"$TMP/k.topo" || return 1
		spec=file:$TMP/k.topo
	fi
	ip netns exec "$1" r2c2ctl -j matrix show >"$m" || return 1
	jq -r --argjson g "$3" '.flows[] | select(.src != $g and .dst != $g) |
		"\(.src) \(.dst) weight=\(.weight) prio=\(.prio)"' \
		"$m" >"$TMP/flows" || return 1
	r2c2ctl -j alloc --topology "$spec" --capacity "$CAP" \
		--flows "$TMP/flows" >"$TMP/alloc" || return 1
	jq -r --argjson g "$3" --slurpfile m "$m" '
		[$m[0].flows[] | select(.src != $g and .dst != $g) | .flow] as $ids |
		(.flows[] | "\($ids[.index]) \(.rate_bps)"),
		($m[0].flows[] | select(.src == $g or .dst == $g) | "\(.flow) 0")' \
		"$TMP/alloc" | sort
}

# daemon_rates NS: "flow rate" of the daemon in NS
daemon_rates()
{
	ip netns exec "$1" r2c2ctl -j matrix show |
		jq -r '.flows[] | "\(.flow) \(.rate)"' | sort
}

# same A B [N]: two "flow rate" lists of N flows (3), rates within 0.1 %
same()
{
	awk -v want="${3:-3}" 'NR == FNR { r[$1] = $2; n++; next }
	     { m++; if (!($1 in r) || ($2 - r[$1]) ^ 2 > (1e-3 * $2) ^ 2) bad = 1 }
	     END { exit bad || n != m || n != want }' "$1" "$2"
}

# agrees NS SPEC KIND LINKS REBUILDS [GONE]: the daemon in NS has KIND
# tables of LINKS links, at least REBUILDS rebuilds, and its rates are
# those of r2c2ctl alloc on SPEC; with GONE, the flows of node GONE left
# its matrix (only the 1 flow of the others is left)
agrees()
{
	local s

	s=$(ip netns exec "$1" r2c2ctl -j daemon show) || return 1
	# shellcheck disable=SC2016  # a jq filter: $ is jq's
	json_assert --arg k "$3" --argjson l "$4" --argjson r "$5" \
		'.topology | .kind == $k and .links == $l and .rebuilds >= $r and
		 (.pending | not)' <<<"$s" >/dev/null || return 1
	offline "$1" "$2" "${6:-65535}" >"$TMP/want" &&
		daemon_rates "$1" >"$TMP/got" &&
		same "$TMP/want" "$TMP/got" "$( [[ -n ${6:-} ]] && echo 1 || echo 3)"
}

# show NS: what the daemon and the kernel say, when a check failed
show()
{
	ip netns exec "$1" r2c2ctl -j daemon show | jq -c .topology | sed "s/^/# $1: r2c2d: /"
	topofile "$1" | tr '\n' ';' | sed "s/^/# $1: kernel: /; s/$/\n/"
	paste "$TMP/want" "$TMP/got" 2>/dev/null | sed "s/^/# $1: want|got: /"
}

# expect MSG ARGS...: wait (20 s at most) for agrees ARGS
expect()
{
	local msg=$1 rc
	shift

	busywait 20000 agrees "$@"
	rc=$?
	check_err $rc "$msg"
	((rc)) && show "$1"
	return "$rc"
}

kind() { ((i == 2)) && echo torus || echo graph; }

for i in 2 3; do
	expect "node $i: rates on the ring are not r2c2ctl alloc's on torus:4" \
		"${NS[i]}" torus:4 "$(kind)" 8 0
done
cp "$TMP/got" "$TMP/ring"
r0=$(ip netns exec "${NS[2]}" r2c2ctl -j daemon show | jq .topology.rebuilds)
log_test "on the ring: both daemons agree with r2c2ctl alloc on torus:4"

# no wait for the kernels: a daemon's 6 links are its kernel's
t0=$SECONDS
ip -n "${NS[0]}" link set p0 down
for i in 2 3; do
	expect "node $i: rates after the link went down are not r2c2ctl alloc's on the kernel's graph" \
		"${NS[i]}" kernel graph 6 1
	# and they are not the ring's any more: the check can tell
	! same "$TMP/ring" "$TMP/got"
	check_err $? "node $i: rates did not change when the link went down"
done
r1=$(ip netns exec "${NS[2]}" r2c2ctl -j daemon show | jq .topology.rebuilds)
((r1 > r0))
check_err $? "node 2: rebuilds $r0 -> $r1"
log_test "link 0-1 down: both daemons rebuilt (6 links) and agree with r2c2ctl alloc on the kernel's graph ($((SECONDS - t0)) s)"

# node 0 cut off: its flows leave the matrix; 1->3 has the line 1-2-3
# to itself
t0=$SECONDS
ip -n "${NS[0]}" link set p1 down
for i in 2 3; do
	expect "node $i: with node 0 cut off, rates are not r2c2ctl alloc's on the kernel's graph, or node 0's flows stayed in the matrix" \
		"${NS[i]}" kernel graph 4 2 0
	ip netns exec "${NS[i]}" r2c2ctl -j daemon show |
		json_assert '.topology.left_flows >= 2 and .topology.reannounces >= 2'
	check_err $? "node $i: left_flows and reannounces do not count the change"
done
log_test "node 0 cut off: its flows left the matrix, the other has r2c2ctl alloc's rate ($((SECONDS - t0)) s)"

t0=$SECONDS
ip -n "${NS[0]}" link set p0 up
ip -n "${NS[0]}" link set p1 up
busywait 20000 links 8
check_err $? "the ring did not come back (8 links everywhere)"
ip netns exec "${NS[0]}" bash -c 'r2c2ctl event send flow 1 dst 1 &&
	r2c2ctl event send flow 2 dst 2'
check_err $? "flow events from node 0 again"
for i in 2 3; do
	expect "node $i: rates after the links came back are not r2c2ctl alloc's on torus:4" \
		"${NS[i]}" torus:4 "$(kind)" 8 3
done
ip netns exec "${NS[2]}" r2c2ctl -j daemon show | json_assert '.topology.configured == true'
check_err $? "node 2: the configured torus is not back in use"
log_test "node 0 back: the ring again, node 2 on its configured torus ($((SECONDS - t0)) s)"

for i in 2 3; do
	ip netns exec "${NS[i]}" r2c2ctl -j daemon show |
		jq -c '.topology + {skipped_flows: .timings.skipped_flows}' |
		sed "s/^/# INFO: node $i: /"
	sed -n 's/.*topology rebuilt: \(.*\) (1)$/\1/p' "$TMP/d$i.log" |
		tr '\n' ';' | sed "s/^/# INFO: node $i rebuilt: /; s/$/\n/"
done
stop_daemons
if ((ksft_fail)); then
	for i in 2 3; do
		grep -v 'push flow\|TOPO_EVENT\|topology unchanged' "$TMP/d$i.log" |
			tail -n 20 | sed "s/^/# r2c2d-$i: /"
	done
fi
ksft_exit
