#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# lladdr_test.sh - a neighbour forges ARP packets that would point an IP
# address of the rack at a MAC r2c0 cannot send to. B must not believe
# them: its neighbour entry of A's address stays A's r2c0 MAC, each
# forgery is counted (drop_lladdr), and B still pings A afterwards. An
# ARP packet of a reachable node giving its own MAC is still believed.
#
#	 r2c2-la (A, 1)          r2c2-lb (B, 2)          r2c2-lc (C, 3)
#	 +-----------+           +-----------+           +-----------+
#	 |      p0 --|-----------|-- p1   p0 |-----------|-- p1      |
#	 | r2c0      |           | r2c0  p3  |           | r2c0      |
#	 | 10.42.0.1 |           | 10.42.0.2 |           | 10.42.0.3 |
#	 +-----------+           +-----|-----+           +-----------+
#	                         inj0 -+  r2c2-li (r2c2_ctlflood arp)
#
# The forgeries, each saying "10.42.0.1 is at MAC":
#  1. a broadcast (BCAST_ETH) ARP request of C for B's address, with the
#     MAC of node 0x77, which no node has;
#  2. an ARP reply of C in a data frame to B, with 02:80:32:43:00:00, not
#     an r2c0 MAC at all;
#  3. a broadcast ARP request of node 0x70, whose own MAC it gives, but
#     which only a forged LSA (no link) put in B's tables: unreachable;
#  4. an ARP reply in a data frame of B to itself, with B's own MAC (B
#     would send A's traffic to itself);
#  5. the first behind an 802.1Q tag, for B's VLAN device r2c0.5;
#  6. an IPv6 neighbour solicitation of C giving node 0x77's MAC, behind
#     a hop-by-hop options header.
# Before r2c2 checked them, the first alone left B's entry at node 0x77
# and B's pings to A dropped as drop_no_route (what the frame fuzzer hit
# on node 4 of its torus).

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
ksft_plan 9

A=r2c2-la B=r2c2-lb C=r2c2-lc INJ=r2c2-li
NODES=("$A" "$B" "$C")

setup()
{
	line_injector "$A" "$B" "$C" "$INJ" &&
	ip -n "$B" addr add 10.42.0.2/16 dev r2c0
}

# nodes_are N NS...: every NS's tables hold N nodes
nodes_are()
{
	local n=$1; shift

	snap "$FABRIC_TMP/conv" "$@" 2>/dev/null &&
	[[ $(jq -s --argjson n "$n" 'map(select(.nodes == $n)) | length' "$FABRIC_TMP/conv") == "$#" ]]
}

# flood ARGS...: r2c2_ctlflood from the injector into B's p3
flood() { ip netns exec "$INJ" "$(tool r2c2_ctlflood)" -i inj0 -m "$B_P3_MAC" "$@"; }
# arp, arp_v5 (behind an 802.1Q tag of VLAN 5), nd_h (behind a hop-by-hop
# options header) SRC SEQ ...: one forged frame each
arp() { flood arp "$@"; }
arp_v5() { flood -v 5 arp "$@"; }
nd_h() { flood -H nd "$@"; }

# forge_twice SEND SRC SEQ ARGS...: the broadcast forgery SEND (arp,
# arp_v5, nd_h) in SRC's name, at sequences SEQ and SEQ + 32768.
# SRC's broadcast sequence starts at a random number, and SRC broadcasts
# on its own (IPv6 neighbour discovery and MLD, ARP): a forgery with a
# fixed sequence may be behind SRC's and dropped as a duplicate before
# r2c0 sees it. Of two sequences half the space apart exactly one is
# ahead of whatever B last heard from SRC: at least one reaches r2c0.
forge_twice()
{
	local send=$1 src=$2 seq=$3

	shift 3
	"$send" "$src" "$seq" "$@" && "$send" "$src" $((seq + 32768)) "$@"
}

# lladdr IP: the MAC of B's neighbour entry of IP (empty if none)
lladdr() { ip -n "$B" -j neigh show dev r2c0 to "$1" | jq -r '.[0].lladdr // empty'; }

# stat NAME: B's node counter NAME (0 if the module has no such counter)
stat() { ip netns exec "$B" r2c2ctl -j stats show | jq --arg k "$1" '.[$k] // 0'; }

# lladdr_is IP MAC: B's entry of IP is MAC (for wait_until)
lladdr_is() { [[ $(lladdr "$1") == "$2" ]]; }

# stat_above NAME N: B's counter NAME is above N (for wait_until)
stat_above() { (($(stat "$1") > $2)); }

# ---------------------------------------------------------------- setup
RET=0
setup
check_err $? "setup failed"
wait_until 60 nodes_are 3 "${NODES[@]}"
check_err $? "A, B and C do not know each other"
B_P3_MAC=$(ip -n "$B" -j link show p3 | jq -r '.[0].address')
# B must reach C (a node known only by an LSA without the link is not
# reachable, and its ARP packets are not believed)
ip netns exec "$B" ping -n -q -c 2 -i 0.2 -W 2 10.42.0.1 >/dev/null 2>&1
check_err $? "B does not ping A"
ip netns exec "$B" ping -n -q -c 2 -i 0.2 -W 2 10.42.0.3 >/dev/null 2>&1
check_err $? "B does not ping C"
[[ $(lladdr 10.42.0.1) == "02:52:32:43:00:01" ]]
check_err $? "B's neighbour entry of 10.42.0.1 is '$(lladdr 10.42.0.1)'"
log_test_or_exit "setup: line A - B - C, injector on B's p3, B pings A and C"

# ------------------------------------------- an ARP packet to believe
# An ARP reply of C in a data frame, which arp_accept lets create an
# entry. Not a broadcast request: C's broadcast sequence starts at a
# random number, so a forged broadcast with a fixed sequence is behind it
# about half the time, and B drops it as a duplicate before r2c0 sees it.
RET=0
ip netns exec "$B" sysctl -qw net.ipv4.conf.r2c0.arp_accept=1
check_err $? "arp_accept on B's r2c0"
arp 3 100 10.42.0.33 02:52:32:43:00:03 10.42.0.2 2
check_err $? "r2c2_ctlflood arp failed"
wait_until 5 lladdr_is 10.42.0.33 02:52:32:43:00:03
check_err $? "B's entry of 10.42.0.33 is '$(lladdr 10.42.0.33)', want C's MAC"
ip netns exec "$B" sysctl -qw net.ipv4.conf.r2c0.arp_accept=0
log_test "an ARP reply of C giving its own MAC makes B's entry"

# ---------------------------------------------------------- forgeries
# forged WHAT: after one forgery, B's entry of 10.42.0.1 is still A's MAC
# and drop_lladdr grew by one. A second ARP packet for an entry within
# 1 s of the last update would not override it anyway (locktime).
forged()
{
	wait_until 3 stat_above drop_lladdr "$drop0"
	local counted=$?
	lladdr_is 10.42.0.1 02:52:32:43:00:01
	check_err $? "$1: B's entry of 10.42.0.1 is now '$(lladdr 10.42.0.1)'"
	check_err "$counted" "$1: drop_lladdr $(stat drop_lladdr), was $drop0"
	drop0=$(stat drop_lladdr)
	sleep 1.2
}

RET=0
sleep 1.2
drop0=$(stat drop_lladdr)
forge_twice arp 3 101 10.42.0.1 02:52:32:43:00:77 10.42.0.2
check_err $? "r2c2_ctlflood arp failed"
forged "broadcast ARP request of C with the MAC of node 0x77"
log_test "a broadcast ARP request giving the MAC of no node: not believed, counted"

RET=0
arp 3 102 10.42.0.1 02:80:32:43:00:00 10.42.0.2 2
forged "ARP reply of C to B (data frame) with a MAC not of r2c0"
log_test "an ARP reply giving a MAC that is not r2c0's: not believed, counted"

RET=0
flood lsa 0x70 1
wait_until 10 nodes_are 4 "$B"
check_err $? "B did not take the LSA of node 0x70"
arp 0x70 1 10.42.0.1 02:52:32:43:00:70 10.42.0.2
forged "broadcast ARP request of node 0x70 (no link) with its own MAC"
log_test "an ARP request of a node B cannot reach: not believed, counted"

RET=0
arp 2 103 10.42.0.1 02:52:32:43:00:02 10.42.0.2 2
forged "ARP reply in a data frame of B to itself, with B's own MAC"
log_test "an ARP reply in B's own name: not believed, counted"

# The same forgery behind an 802.1Q tag, which would take it to a VLAN
# device over r2c0: B's r2c0.5 must not believe it either.
RET=0
ip -n "$B" link add link r2c0 name r2c0.5 type vlan id 5 &&
ip -n "$B" addr add 10.43.0.2/16 dev r2c0.5 &&
ip -n "$B" link set r2c0.5 up
check_err $? "VLAN 5 over B's r2c0"
drop0=$(stat drop_lladdr)
forge_twice arp_v5 3 1201 10.43.0.1 02:52:32:43:00:77 10.43.0.2
check_err $? "r2c2_ctlflood -v 5 arp failed"
wait_until 3 stat_above drop_lladdr "$drop0"
check_err $? "tagged ARP request with the MAC of node 0x77: drop_lladdr $(stat drop_lladdr), was $drop0"
v5=$(ip -n "$B" -j neigh show dev r2c0.5 to 10.43.0.1 | jq -r '.[0].lladdr // empty')
[[ $v5 != "02:52:32:43:00:77" ]]
check_err $? "B's r2c0.5 believed it: 10.43.0.1 is at $v5"
log_test "the ARP forgery behind a VLAN tag: not believed, counted"

# An IPv6 neighbour solicitation of C with the MAC of node 0x77 behind a
# hop-by-hop options header, which ndisc_rcv() takes as well: B's entry
# of C's address must not become 0x77's MAC.
RET=0
ip -n "$B" addr add fd00:42::2/64 dev r2c0 nodad
check_err $? "an IPv6 address on B's r2c0"
drop0=$(stat drop_lladdr)
forge_twice nd_h 3 2201 fd00:42::3 02:52:32:43:00:77 fd00:42::2
check_err $? "r2c2_ctlflood -H nd failed"
wait_until 3 stat_above drop_lladdr "$drop0"
check_err $? "NS behind a hop-by-hop header with the MAC of node 0x77: drop_lladdr $(stat drop_lladdr), was $drop0"
n6=$(ip -n "$B" -j -6 neigh show dev r2c0 to fd00:42::3 | jq -r '.[0].lladdr // empty')
[[ $n6 != "02:52:32:43:00:77" ]]
check_err $? "B believed it: fd00:42::3 is at $n6"
log_test "an ND forgery behind a hop-by-hop header: not believed, counted"

RET=0
nr0=$(stat drop_no_route)
ip netns exec "$B" ping -n -q -c 1 -W 2 10.42.0.1 >/dev/null 2>&1
check_err $? "B does not ping A (entry '$(lladdr 10.42.0.1)', drop_no_route $nr0 -> $(stat drop_no_route))"
log_test "B still pings A"

ksft_exit
