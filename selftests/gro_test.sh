#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# gro_test.sh - frames r2c0 receives go up the stack through GRO: a TCP
# connection's segments that one softirq delivers are merged into large
# packets, whether they came straight off a port (DOR) or through the
# reorder buffer (RPS), and not merged once r2c0's GRO is switched off.
#
#	 r2c2-ga (node 0)        r2c2-gb (node 1)        r2c2-gc (node 2)
#	 +-----------+           +-----------+           +-----------+
#	 | r2c0      |p0 ----- p1|  forwards |p0 ----- p1| r2c0      |
#	 | 10.42.0.1 |           |           |           | 10.42.0.3 |
#	 +-----------+           +-----------+           +-----------+
#
# iperf3 sends from node 0 to node 2 for GRO_TIME seconds (default 2)
# three times: with node 0 routing by RPS (the default: frames pass node
# 2's reorder buffer, counted as reseq_inorder), by DOR (no buffer:
# reseq_direct), and by RPS with `ethtool -K r2c0 gro off` on node 2.
# Each run reads node 2's segments per IP packet, IpExtInNoECTPkts (which
# counts a GRO packet's segments) over IpInReceives (its packets): it
# must be at least 2 with GRO (each of r2c2's frames went up alone before
# r2c0 had GRO: exactly 1.00) and at most 1.05 without; the transfer's
# TCP segments arrive with no checksum error (TcpInCsumErrors).

lib_dir=$(dirname "$0")
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"
# shellcheck source=selftests/fabric.sh
source "$lib_dir/fabric.sh"

TIME=${GRO_TIME:-2}

require_root
require_cmd ip jq iperf3 nstat ethtool awk
require_module veth
require_r2c2
ksft_plan 4

NS=(r2c2-ga r2c2-gb r2c2-gc)
A=${NS[0]} C=${NS[2]}
PIDFILE=$(mktemp)
cleanup_add "kill \$(cat $PIDFILE) 2>/dev/null; rm -f $PIDFILE"

# run ROUTING STAT: one transfer from node 0, its routing set first; prints
# "mbps packets segments per_packet csum_errors stat_delta" (node 2's,
# lib.sh's nstat_segs), STAT a counter of node 2
run()
{
	local mbps s0 s1 cnt

	ip netns exec "$A" r2c2ctl node set routing "$1" || return 1
	s0=$(node_stat "$C" "$2") || return 1
	nstat_segs "$C" TcpInCsumErrors >/dev/null
	mbps=$(ip netns exec "$A" iperf3 -c 10.42.0.3 -p 5500 -t "$TIME" -J |
		jq -r '.end.sum_received.bits_per_second / 1e6 | floor') ||
		return 1
	cnt=$(nstat_segs "$C" TcpInCsumErrors)
	s1=$(node_stat "$C" "$2") || return 1
	echo "$mbps $cnt $((s1 - s0))"
}

# check_run NAME MIN MAX ROUTING STAT: segments per packet in [MIN, MAX]
check_run()
{
	local name=$1 min=$2 max=$3 out mbps pk seg per csum st

	RET=0
	out=$(run "$4" "$5")
	check_err $? "the transfer ($4)"
	read -r mbps pk seg per csum st <<<"$out"
	log_info "$name: ${mbps:-?} Mbit/s, ${seg:-?} segments in ${pk:-?} packets, $5 +${st:-?}"
	if ((RET == 0)); then
		((pk > 0 && seg >= 1000))
		check_err $? "node 2 received ${seg} segments in ${pk} packets: too few"
		awk -v s="$seg" -v p="$pk" -v lo="$min" -v hi="$max" \
			'BEGIN { exit !(s / p >= lo && s / p <= hi) }'
		check_err $? "$per segments a packet, not within [$min, $max]"
		((csum == 0))
		check_err $? "$csum TCP checksum errors"
		((st >= seg / 2))
		check_err $? "$5 grew by $st, not by about the $seg segments"
	fi
	log_test "$name"
}

RET=0
line_create "${NS[@]}"
check_err $? "the line of nodes 0-1-2"
busywait 20000 ip netns exec "$A" ping -c 1 -W 1 10.42.0.3 >/dev/null
check_err $? "node 2 does not answer node 0"
ip netns exec "$C" iperf3 -s -D -p 5500 -I "$PIDFILE" >/dev/null
check_err $? "iperf3 server"
busywait 5000 bash -c "ip netns exec $C ss -Hltn 'sport = :5500' | grep -q ."
check_err $? "iperf3 server not listening"
log_test_or_exit "setup: a line of three nodes, iperf3 on node 2"

check_run "GRO: RPS, through the reorder buffer" 2 1000 rps reseq_inorder
check_run "GRO: DOR, straight from the port" 2 1000 dor reseq_direct
ip netns exec "$C" ethtool -K r2c0 gro off
check_run "GRO off on r2c0: one packet a segment" 1 1.05 rps reseq_inorder

ksft_exit
