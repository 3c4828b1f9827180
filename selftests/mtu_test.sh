#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# mtu_test.sh - r2c0 carries jumbo frames when the ports do, and a frame
# longer than the MTU of the port it is to leave by is dropped and counted
# as drop_too_big on that node and port (at the sender or at a forwarding
# node), never passed to the port driver to vanish there.
#
#	 r2c2-ua (A, 1)          r2c2-ub (B, 2)          r2c2-uc (C, 3)
#	 +-----------+           +-----------+           +-----------+
#	 |      p0 --|-----------|-- p1   p0 |-----------|-- p1      |
#	 | r2c0      |           |           |           | r2c0      |
#	 | 10.42.0.1 |           |           |           | 10.42.0.3 |
#	 +-----------+           +-----------+           +-----------+
#
# 1. r2c0 refuses an MTU above 65535 - 40 (the data header) and accepts
#    9000; by default it is 1460 (1500-byte ports).
# 2. All ports at MTU 9040, r2c0 at 9000: a 9000-byte ping (DF) from A
#    to C through B is answered.
# 3. B's p0 back to 1500: the same pings are dropped at B, each counted
#    once on B's drop_too_big and on its port 0; a 1400-byte ping still
#    passes.
# 4. A's p0 at 1500 too: A drops its own big frames (drop_too_big on A,
#    port 0), nothing reaches B.

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
require_tools r2c2_snap
ksft_plan 6

A=r2c2-ua B=r2c2-ub C=r2c2-uc
NODES=("$A" "$B" "$C")
BIG=8972			# + 28 bytes of IPv4 and ICMP = 9000
COUNT=5

setup()
{
	local ns

	for ns in "${NODES[@]}"; do
		ns_create "$ns" || return 1
	done
	veth_link "$A" p0 "$B" p1 &&
	veth_link "$B" p0 "$C" p1 || return 1
	ip netns exec "$A" r2c2ctl node set addr 1 &&
	ip netns exec "$A" r2c2ctl port add 0 dev p0 &&
	ip netns exec "$B" r2c2ctl node set addr 2 &&
	ip netns exec "$B" r2c2ctl port add 0 dev p0 &&
	ip netns exec "$B" r2c2ctl port add 1 dev p1 &&
	ip netns exec "$C" r2c2ctl node set addr 3 &&
	ip netns exec "$C" r2c2ctl port add 1 dev p1 || return 1
	ip -n "$A" -b - <<-EOF || return 1
		link set r2c0 up
		addr add 10.42.0.1/16 dev r2c0
	EOF
	ip -n "$C" -b - <<-EOF || return 1
		link set r2c0 up
		addr add 10.42.0.3/16 dev r2c0
	EOF
	ip -n "$B" link set r2c0 up
}

# every node knows the three nodes
converged()
{
	snap "$FABRIC_TMP/conv" "${NODES[@]}" 2>/dev/null &&
	[[ $(jq -s 'map(select(.nodes == 3)) | length' "$FABRIC_TMP/conv") == 3 ]]
}

# mtu NS DEV: the MTU of a device
mtu() { ip -n "$1" -j link show dev "$2" | jq -r '.[0].mtu'; }

# ping_ac SIZE: COUNT pings of SIZE bytes (DF) from A to C; prints the
# number of replies
ping_ac()
{
	ip netns exec "$A" ping -c "$COUNT" -i 0.2 -W 2 -M "do" -s "$1" 10.42.0.3 |
		sed -n 's/.* \([0-9]*\) received.*/\1/p'
}

# counter NS NAME [PORT]: a node counter, or a port's, from $FABRIC_TMP/s
counter()
{
	jq -r --arg ns "$1" --arg k "$2" --arg p "${3:-}" '
		select(.ns == $ns)
		| if $p == "" then .node[$k] // 0
		  else ((.ports // []) | map(select(.port == ($p | tonumber)))[0].stats[$k] // 0)
		  end' "$FABRIC_TMP/s"
}

RET=0
setup
check_err $? "namespaces, veth and r2c2 nodes"
wait_until 60 converged
check_err $? "the three nodes did not learn each other in 60 s"
log_test "setup: line A - B - C"

RET=0
m=$(mtu "$A" r2c0)
[[ $m == 1460 ]]
check_err $? "r2c0's default MTU is $m, not 1460"
ip -n "$A" link set r2c0 mtu 65496 2>/dev/null
check_fail $? "r2c0 took MTU 65496 (above 65535 - 40)"
ip -n "$A" link set r2c0 mtu 65495
check_err $? "r2c0 refused MTU 65495"
log_test "r2c0: MTU 1460 by default, at most 65495"

RET=0
for ns in "${NODES[@]}"; do
	for dev in p0 p1; do
		ip -n "$ns" link show dev "$dev" >/dev/null 2>&1 || continue
		ip -n "$ns" link set "$dev" mtu 9040 || check_err 1 "$ns $dev mtu 9040"
	done
	ip -n "$ns" link set r2c0 mtu 9000 || check_err 1 "$ns r2c0 mtu 9000"
done
got=$(ping_ac "$BIG")
[[ $got == "$COUNT" ]]
check_err $? "9000-byte pings A -> C: ${got:-no} replies of $COUNT"
log_test "jumbo ports: 9000-byte IP packets A -> B -> C"

RET=0
# From here on the frames counted must be the pings only: pin the ARP
# entries, or a unicast ARP probe of an entry gone stale meanwhile (seen
# under vng, where the checks above take longer) adds one frame that A
# originates and C delivers.
for pair in "$A 10.42.0.3 $C" "$C 10.42.0.1 $A"; do
	read -r ns ip peer <<<"$pair"
	mac=$(ip -n "$peer" -j link show r2c0 | jq -r '.[0].address')
	ip -n "$ns" neigh replace "$ip" lladdr "$mac" dev r2c0 nud permanent ||
		check_err 1 "pin the ARP entry of $ip in $ns"
done
ip -n "$B" link set p0 mtu 1500
snap_reset "${NODES[@]}"
got=$(ping_ac "$BIG")
[[ $got == 0 ]]
check_err $? "9000-byte pings through B's 1500-byte p0: $got replies"
snap "$FABRIC_TMP/s" -p "${NODES[@]}"
n=$(counter "$B" drop_too_big) np=$(counter "$B" drop_too_big 0)
((n == COUNT && np == COUNT))
check_err $? "B: drop_too_big $n, port 0 $np; want $COUNT each"
n=$(counter "$A" originated) nc=$(counter "$C" delivered)
((n == COUNT && nc == 0))
check_err $? "A originated $n (want $COUNT), C delivered $nc (want 0)"
log_info "B: drop_too_big $np on p0; A originated $n"
got=$(ping_ac 1400)
[[ $got == "$COUNT" ]]
check_err $? "1400-byte pings through B: ${got:-no} replies of $COUNT"
log_test "a forwarding node drops and counts frames above its port's MTU"

RET=0
ip -n "$A" link set p0 mtu 1500
snap_reset "${NODES[@]}"
got=$(ping_ac "$BIG")
[[ $got == 0 ]]
check_err $? "9000-byte pings through A's 1500-byte p0: $got replies"
snap "$FABRIC_TMP/s" -p "${NODES[@]}"
n=$(counter "$A" drop_too_big) np=$(counter "$A" drop_too_big 0)
((n == COUNT && np == COUNT))
check_err $? "A: drop_too_big $n, port 0 $np; want $COUNT each"
nb=$(counter "$B" rx_packets 1)
nbig=$(counter "$B" drop_too_big)
((nbig == 0))
check_err $? "B counted drop_too_big $nbig; A's frames must not reach it"
log_info "A: drop_too_big $np on p0 (B's p1 received $nb frames: hellos, LSAs)"
log_test "the sender drops and counts frames above its port's MTU"

RET=0
kernel_healthy
check_err $? "kernel warnings or oopses"
log_test "no kernel warning, oops or taint"

ksft_exit
