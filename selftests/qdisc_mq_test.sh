#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# qdisc_mq_test.sh - sch_r2c2 as the children of mq on a device with 4
# transmit queues: a flow dump lists the flows of every child, and a rate
# push reaches every flow, whichever child holds it.
#
#	r2c2-mq0                                r2c2-mq1
#	+----------------------------+   veth   +-------------+
#	| m0 10.9.0.1/24 (4 tx queues)|---------| m1 10.9.0.2 |
#	|  root mq, :1..:4 r2c2 at 1 Mbit/s     |             |
#	|  r2c2_udpflood, 16 flows   |          |             |
#	+----------------------------+          +-------------+

lib_dir=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"

require_root
require_cmd ip jq
require_module veth
require_r2c2

require_qdisc_tools

ksft_plan 3

A=r2c2-mq0 B=r2c2-mq1
FPID=
stop_flood() { [[ -z $FPID ]] || stop_pids "$FPID"; FPID=; }
cleanup_add stop_flood

# children: flows per child, as "N N N N"
children()
{
	ip netns exec "$A" "$TC" -j -s qdisc show dev m0 |
		jq -r '[.[] | select(.kind == "r2c2") | .flows] | map(tostring) | join(" ")'
}

RET=0
ns_create "$A" && ns_create "$B" &&
	ip -n "$A" link add m0 numtxqueues 4 type veth peer name m1 numtxqueues 4 &&
	ip -n "$A" link set m1 netns "$B" &&
	ip -n "$A" addr add 10.9.0.1/24 dev m0 && ip -n "$A" link set m0 up &&
	ip -n "$B" addr add 10.9.0.2/24 dev m1 && ip -n "$B" link set m1 up
check_err $? "veth with 4 transmit queues"
ip netns exec "$A" "$TC" qdisc replace dev m0 root handle 1: mq
check_err $? "mq root"
for q in 1 2 3 4; do
	ip netns exec "$A" "$TC" qdisc add dev m0 parent "1:$q" r2c2 \
		initial_rate 1mbit safe_rate 1mbit nolease idle 60s
	check_err $? "r2c2 as child 1:$q"
done
ip netns exec "$A" ping -c 1 -W 5 10.9.0.2 >/dev/null
check_err $? "no ping over m0"
log_test_or_exit "setup: mq with four r2c2 children"

RET=0
ip netns exec "$A" "$FLOOD" -d 10.9.0.2 -b 30000 -n 16 -l 500 -t 600 >/dev/null &
FPID=$!
busywait 20000 bash -c "ip netns exec $A r2c2ctl -j qflow show dev m0 |
	json_assert '[.[] | select(.sport >= 30000 and .sport < 30016)] | length == 16'"
check_err $? "qflow show dev m0 does not list the 16 flows: $(ip netns exec "$A" r2c2ctl -j qflow show dev m0 | jq -c '[.[].sport]')"
log_info "flows per child: $(children)"
used=$(children | tr ' ' '\n' | awk '$1 > 0' | wc -l)
((used >= 2))
check_err $? "the flows all went to one child ($(children)): nothing to test"
log_test "qflow show lists the flows of every child" "$(children)"

RET=0
D=$(mktemp)
ip netns exec "$A" r2c2ctl -j qflow show dev m0 |
	jq -r '.[] | select(.sport >= 30000 and .sport < 30016) | "\(.flow) 3M"' >"$D"
out=$(ip netns exec "$A" r2c2ctl rate set dev m0 file "$D" 2>&1)
check_err $? "rate set dev m0: $out"
[[ $out != *"unknown to the qdisc"* ]]
check_err $? "rate set warned that flows were unknown: $out"
notset=$(ip netns exec "$A" r2c2ctl -j qflow show dev m0 |
	jq -c '[.[] | select(.sport >= 30000 and .sport < 30016) |
		select(.state != "set" or .rate != 3000000) | .sport]')
[[ $notset == "[]" ]]
check_err $? "flows without the pushed rate: $notset"
n=$(grep -c . "$D")
upd=$(ip netns exec "$A" "$TC" -j -s qdisc show dev m0 |
	jq '[.[] | select(.kind == "r2c2") | .rate_updates] | add')
((n == 16 && upd == 16))
check_err $? "rates pushed for $n flows, the children took $upd (want 16 and 16)"
rm -f "$D"
log_test "rate set reaches the flows of every child" "$upd rates taken"
stop_flood

ksft_exit
