#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# qdisc_purge_test.sh - packets queued in sch_r2c2 are freed whenever the
# qdisc lets go of them: tc qdisc del, tc qdisc replace, the device going
# down (qdisc reset) and r2c0 going away (node del). A packet that is not
# freed keeps its socket's send buffer charged for ever (and the socket,
# and its namespace, alive), which is what is checked here: the sender is
# stopped with packets queued, the qdisc is made to drop them, and the
# sender socket's charged bytes (tx_queue of /proc/net/raw, the socket's
# sk_wmem_alloc) must fall to 0.
#
#	r2c2-pq0                         r2c2-pq1
#	+---------------------+  veth   +---------------------+
#	| r2c0 10.42.0.0/16   |p0 -- p0|  r2c0 10.42.0.1/16   |
#	|  root r2c2 at 1kbit |         |  (receiver)         |
#	|  r2c2_udpflood (stopped)      |                     |
#	+---------------------+         +---------------------+

lib_dir=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"

require_root
require_cmd ip jq awk
require_module veth
require_r2c2

ksft_plan 5

require_qdisc_tools

S=r2c2-pq0
R=r2c2-pq1
DST=10.42.0.1
FPID=

cleanup_flood()
{
	[[ -n $FPID ]] || return 0
	kill -CONT "$FPID" 2>/dev/null
	stop_pids "$FPID"
	FPID=
}
cleanup_add cleanup_flood

node_up()
{
	local ns

	for ns in "$S" "$R"; do
		ip -n "$ns" link set r2c0 up &&
			ip -n "$ns" addr add "10.42.0.${ns#r2c2-pq}/16" dev r2c0 ||
			return 1
	done
	ip netns exec "$S" ping -c 1 -W 5 "$DST" >/dev/null
}

# wmem PID: bytes charged to the send buffer of PID's raw socket (fd 3),
# the tx_queue column of /proc/PID/net/raw for the socket's inode
wmem()
{
	local want ino q

	want=$(readlink "/proc/$1/fd/3") || return 1
	want=${want//[^0-9]/}
	# sl local rem st tx_queue:rx_queue tr:when retrnsmt uid timeout inode
	while read -r _ _ _ _ q _ _ _ _ ino _; do
		[[ $ino == "$want" ]] || continue
		echo $((16#${q%%:*}))
		return 0
	done <"/proc/$1/net/raw"
	return 1
}

# wmem_zero PID: prints the charge, true when it is 0 (for busywait)
# shellcheck disable=SC2317
wmem_zero()
{
	local b

	b=$(wmem "$1") || return 1
	echo "$b"
	((b == 0))
}

# backlog: packets the qdisc on r2c0 counts (qlen)
backlog() { ip netns exec "$S" "$TC" -j -s qdisc show dev r2c0 | jq -r '.[0].qlen // "?"'; }

# shellcheck disable=SC2317
backlog_ge() { local q; q=$(backlog) && ((q >= $1)); }

# queue_up: the qdisc on r2c0 at 1 kbit/s, a sender (FPID) stopped with
# at least 100 packets queued in it; QUEUED: the bytes its socket holds
# charged
QUEUED=
queue_up()
{
	local q

	ip netns exec "$S" "$TC" qdisc replace dev r2c0 root r2c2 \
		initial_rate 1kbit safe_rate 1kbit limit 10000 flow_limit 100 || return 1
	ip netns exec "$S" "$FLOOD" -d "$DST" -n 20 -l 1000 -t 600 >/dev/null &
	FPID=$!
	busywait 20000 backlog_ge 100 || return 1
	kill -STOP "$FPID" || return 1
	q=$(backlog)
	QUEUED=$(wmem "$FPID") || return 1
	log_info "sender stopped: $q packets queued, $QUEUED bytes charged to its socket"
	((QUEUED >= 100 * 1000))
}

# after_reset WHAT: the sender socket's charge falls to 0 within 5 s
after_reset()
{
	local b

	b=$(busywait 5000 wmem_zero "$FPID")
	check_err $? "$1: ${b:-?} bytes still charged to the sender's socket: queued packets were not freed"
}

RET=0
line2_create "$S" "$R" && node_up
check_err $? "two-node line with r2c0 up and reachable"
log_test_or_exit "setup"

# ------------------------------------------------------------------ del
RET=0
queue_up
check_err $? "could not queue 100 packets behind a 1 kbit/s qdisc"
ip netns exec "$S" "$TC" qdisc del dev r2c0 root
check_err $? "tc qdisc del"
after_reset "tc qdisc del"
log_test "tc qdisc del frees the queued packets" "$QUEUED bytes queued"
cleanup_flood

# ------------------------------------------------------------------ replace
RET=0
queue_up
check_err $? "could not queue 100 packets behind a 1 kbit/s qdisc"
ip netns exec "$S" "$TC" qdisc replace dev r2c0 root pfifo
check_err $? "tc qdisc replace with pfifo"
after_reset "tc qdisc replace"
log_test "tc qdisc replace frees the queued packets" "$QUEUED bytes queued"
cleanup_flood

# ------------------------------------------------------------------ link down
RET=0
queue_up
check_err $? "could not queue 100 packets behind a 1 kbit/s qdisc"
ip -n "$S" link set r2c0 down
check_err $? "ip link set r2c0 down"
after_reset "r2c0 down"
q=$(backlog)
[[ $q == 0 ]]
check_err $? "the qdisc still counts $q packets after the reset"
log_test "r2c0 down (qdisc reset) frees the queued packets and zeroes qlen" "$QUEUED bytes queued"
cleanup_flood
ip -n "$S" link set r2c0 up
ip netns exec "$S" ping -c 1 -W 5 "$DST" >/dev/null

# ------------------------------------------------------------------ node del
RET=0
queue_up
check_err $? "could not queue 100 packets behind a 1 kbit/s qdisc"
ip netns exec "$S" r2c2ctl node del
check_err $? "r2c2ctl node del (r2c0 unregistered)"
after_reset "node del"
log_test "r2c0 unregistered (node del) frees the queued packets" "$QUEUED bytes queued"
cleanup_flood

ksft_exit
