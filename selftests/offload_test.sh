#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# offload_test.sh - frames that arrive on a port as GSO packets or with a
# checksum left to offload (CHECKSUM_PARTIAL) are dropped and counted as
# drop_offload, neither delivered through r2c0 nor forwarded. r2c2 sends
# every frame whole and checksummed, so only a tap (a VM's NIC, a vhost
# backend) or a packet socket writing virtio net headers makes them.
#
#	         r2c2-ob (B, 2)               r2c2-oc (C, 3)
#	         +--------------+    veth     +--------------+
#	 tap0 ---|- port 1      |p0 ------- p1| r2c0         |
#	(r2c2_inject -t writes  |             | 10.42.0.3    |
#	 frames into it)        |             |              |
#	         +--------------+             +--------------+

lib_dir=$(dirname "$0")
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"
# shellcheck source=selftests/fabric.sh
source "$lib_dir/fabric.sh"

require_root
require_cmd ip jq
require_module veth
require_module tun
require_r2c2
require_tools r2c2_inject

ksft_plan 5

B=r2c2-ob C=r2c2-oc
COUNT=5

setup()
{
	ns_create "$B" && ns_create "$C" &&
		veth_link "$B" p0 "$C" p1 || return 1
	ip -n "$B" tuntap add dev tap0 mode tap &&
		ip -n "$B" link set tap0 up || return 1
	ip netns exec "$B" r2c2ctl node set addr 2 hello 100 &&
		ip netns exec "$B" r2c2ctl port add 0 dev p0 &&
		ip netns exec "$B" r2c2ctl port add 1 dev tap0 &&
		ip netns exec "$C" r2c2ctl node set addr 3 hello 100 &&
		ip netns exec "$C" r2c2ctl port add 1 dev p1 || return 1
	ip -n "$B" link set r2c0 up &&
		ip -n "$C" link set r2c0 up &&
		ip -n "$C" addr add 10.42.0.3/16 dev r2c0
}

# knows NS N: the node knows N nodes
# shellcheck disable=SC2317  # called through busywait
knows() { [[ $(ip netns exec "$1" r2c2ctl -j node show | jq '.nodes') == "$2" ]]; }

# counters: "B-forwarded B-delivered B-drop_offload C-delivered" now
counters()
{
	echo "$(node_stat "$B" forwarded) $(node_stat "$B" delivered)" \
		"$(node_stat "$B" drop_offload) $(node_stat "$C" delivered)"
}

# grew_by N "BEFORE" "FIELD...": each FIELD (1-based) of counters grew
# by N since BEFORE
# shellcheck disable=SC2317  # called through busywait
grew_by()
{
	local -a a b
	local f

	read -ra a <<<"$2"
	read -ra b <<<"$(counters)"
	for f in $3; do
		((b[f - 1] - a[f - 1] == $1)) || return 1
	done
}

# case_test NAME "FIELD..." INJECT_ARGS...: inject COUNT frames into
# tap0; the counters FIELD of counters (1 B forwarded, 2 B delivered, 3
# B drop_offload, 4 C delivered) grow by COUNT and no other one moves
case_test()
{
	local name=$1 fields=" $2 " before after i
	local -a a b
	shift 2

	RET=0
	before=$(counters)
	[[ $before != *"?"* ]]
	check_err $? "counters could not be read: $before"
	ip netns exec "$B" "$(tool r2c2_inject)" -i tap0 -t -n "$COUNT" "$@"
	check_err $? "r2c2_inject -t $* failed"
	busywait 10000 grew_by "$COUNT" "$before" "$fields"
	check_err $? "counters $fields did not grow by $COUNT: $before -> $(counters)"
	# anything else they cause would show up by now: the one counter
	# moved in the same softirq as the others would
	after=$(counters)
	read -ra a <<<"$before"
	read -ra b <<<"$after"
	for i in 1 2 3 4; do
		[[ $fields == *" $i "* ]] && continue
		[[ ${b[i - 1]} == "${a[i - 1]}" && ${b[i - 1]} != "?" ]]
		check_err $? "counter $i moved too: $before -> $after (B forwarded, B delivered, B drop_offload, C delivered)"
	done
	log_test "$name" "$before -> $after"
}

RET=0
setup
check_err $? "setup failed"
busywait 30000 knows "$B" 2 && busywait 30000 knows "$C" 2
check_err $? "B and C do not know each other"
log_test_or_exit "setup: B with a tap port, C behind B's port 0"

# r2c2_inject's frames carry payload type 0x88b6, which no stack takes:
# C counts them delivered and drops them quietly.
case_test "a plain frame written into the tap is forwarded to C" "1 4" \
	-s 0xfffe -d 3 -r 0 -p 400
case_test "a GSO frame (virtio net header) to be forwarded is dropped as drop_offload" 3 \
	-s 0xfffe -d 3 -r 0 -p 400 -V gso
case_test "a CHECKSUM_PARTIAL frame to be forwarded is dropped as drop_offload" 3 \
	-s 0xfffe -d 3 -r 0 -p 400 -V csum
case_test "a GSO frame addressed to B is dropped as drop_offload, not delivered" 3 \
	-s 0xfffe -d 2 -p 400 -V gso

ksft_exit
