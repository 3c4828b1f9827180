#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tunnel_port_test.sh - r2c2 ports on tunnel devices that need more
# headroom than r2c0 reserves (gretap, vxlan): every frame r2c0 sends
# out of them has its head reallocated on the way (skb_cow_head()), and
# must still arrive whole. On a kernel with KASAN this also checks that
# nothing reads the old head after the reallocation.
#
#	r2c2-ta (1)                               r2c2-tb (2)
#	+-------------------------+   veth u0-u1   +-------------------------+
#	| r2c0 10.42.0.1          |  10.8.0.1/.2   |          r2c0 10.42.0.2 |
#	| port 0: gt0 (gretap) ---|================|--- gt0 (gretap): port 0 |
#	| port 1: vx0 (vxlan)  ---|================|--- vx0 (vxlan):  port 1 |
#	+-------------------------+                +-------------------------+

lib_dir=$(dirname "$0")
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"
# shellcheck source=selftests/fabric.sh
source "$lib_dir/fabric.sh"

require_root
require_cmd ip jq ping
require_module veth ip_gre vxlan
require_r2c2

ksft_plan 4

A=r2c2-ta B=r2c2-tb

# tunnel NS LOCAL REMOTE: gretap gt0 and vxlan vx0 over u0/u1, both up
tunnels()
{
	local dev

	dev=$(ip -n "$1" -o link show | awk -F': ' '$2 ~ /^u[01]/ { sub(/@.*/, "", $2); print $2 }')
	ip -n "$1" link set "$dev" mtu 1600 &&
		ip -n "$1" addr add "$2/24" dev "$dev" &&
		ip -n "$1" link set "$dev" up &&
		ip -n "$1" link add gt0 type gretap local "$2" remote "$3" &&
		ip -n "$1" link add vx0 type vxlan id 42 local "$2" remote "$3" dstport 4789 &&
		ip -n "$1" link set gt0 up && ip -n "$1" link set vx0 up
}

# knows NS N: the node knows N nodes
# shellcheck disable=SC2317  # called through busywait
knows() { [[ $(ip netns exec "$1" r2c2ctl -j node show | jq '.nodes') == "$2" ]]; }

RET=0
ns_create "$A" && ns_create "$B" && veth_link "$A" u0 "$B" u1 &&
	tunnels "$A" 10.8.0.1 10.8.0.2 && tunnels "$B" 10.8.0.2 10.8.0.1
check_err $? "underlay and tunnels"
for ns in "$A" "$B"; do
	n=${ns#r2c2-t}
	addr=$([[ $n == a ]] && echo 1 || echo 2)
	ip netns exec "$ns" r2c2ctl node set addr "$addr" hello 100 &&
		ip netns exec "$ns" r2c2ctl port add 0 dev gt0 &&
		ip netns exec "$ns" r2c2ctl port add 1 dev vx0 &&
		ip -n "$ns" link set r2c0 up &&
		ip -n "$ns" addr add "10.42.0.$addr/16" dev r2c0
	check_err $? "node $addr on $ns"
done
busywait 30000 knows "$A" 2 && busywait 30000 knows "$B" 2
check_err $? "the nodes do not find each other over the tunnels"
log_test_or_exit "setup: two nodes joined by a gretap and a vxlan port"

for rp in rps dor vlb; do
	RET=0
	ip netns exec "$A" r2c2ctl node set routing "$rp" >/dev/null
	check_err $? "routing $rp"
	o0=$(node_stat "$A" originated) && d0=$(node_stat "$B" delivered) &&
		n0=$(node_stat "$A" drop_nomem)
	check_err $? "counters could not be read"
	out=$(ip netns exec "$A" ping -c 20 -i 0.05 -s 1000 -W 2 10.42.0.2 2>&1)
	check_err $? "ping over r2c0: $(tail -n 2 <<<"$out" | tr '\n' ' ')"
	grep -q ' 0% packet loss' <<<"$out"
	check_err $? "loss: $(grep 'packet loss' <<<"$out")"
	o=$(($(node_stat "$A" originated) - o0)) d=$(($(node_stat "$B" delivered) - d0))
	n=$(($(node_stat "$A" drop_nomem) - n0))
	((o >= 20 && d >= 20 && n == 0))
	check_err $? "A originated +$o, B delivered +$d, A drop_nomem +$n"
	log_test "routing $rp: 20 pings of 1000 bytes over tunnel ports, none lost" "originated +$o, delivered +$d"
done

ksft_exit
