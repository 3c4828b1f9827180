#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# flowid_test.sh - a TCP connection keeps one R2C2 flow id through
# retransmission timeouts, with net.core.txrehash at its default (1): TCP
# then draws a new sk_txhash (skb->hash) on every RTO, which must not make
# the connection a new flow for r2c0 and sch_r2c2 (r2c2_flow_id()).
#
#	r2c2-h0                             r2c2-h1
#	+------------------------+  veth   +--------------------------+
#	| r2c0 10.42.0.0 fd42::0 |p0 -- p0| r2c0 10.42.0.1 fd42::1  |
#	|  root r2c2 4mbit, 60 s |         | monitor, blackhole routes|
#	|  A: connect, sends     |  --->   |  A: accept               |
#	|  B: accept, sends      |  --->   |  B: connect (IPv6)       |
#	+------------------------+         +--------------------------+
#
# A is an active open over IPv4 (ports 40001 -> 5301), B a passive open
# over IPv6 (5302 -> 40002), both iperf3 data connections; node 0 sends on
# both, through its qdisc. Three times, node 1 drops its ACKs for 1.5 s
# (blackhole routes to node 0), so node 0's connections go through RTOs (TcpExtTcpTimeoutRehash must grow). Checked:
# the qdisc's flows of each connection (r2c2ctl -j qflow show, by ports,
# sampled all along) carry one flow id only, and node 1 heard exactly one
# flow START for that id (r2c2ctl -j monitor). Before flow ids came from
# the socket, each RTO made a new flow id.

lib_dir=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"

require_root
require_cmd ip jq awk iperf3 ss nstat
require_module veth
require_r2c2

TC=/usr/sbin/tc
[[ -x $TC ]] || TC=$(command -v tc)
[[ -d /sys/module/sch_r2c2 ]] || ksft_skip_all "sch_r2c2.ko not loaded"
$TC qdisc add dev lo root r2c2 help 2>&1 | grep -q initial_rate ||
	ksft_skip_all "tc has no r2c2 plugin (q_r2c2.so: make -C tc install)"
ksft_plan 5

S=r2c2-h0
R=r2c2-h1
TMP=$(mktemp -d)
PIDS=()
SAMPLER=

# SIGTERM, then SIGKILL after 5 s (stop_pids): a CI run once hung here
# for the whole 600 s after every check had passed
stop_all()
{
	local all=("${PIDS[@]}")

	[[ -n $SAMPLER ]] && all+=("$SAMPLER")
	((${#all[@]})) && stop_pids "${all[@]}"
	PIDS=()
	SAMPLER=
}
cleanup_add "rm -rf $TMP"
cleanup_add stop_all

qflows() { ip netns exec "$S" r2c2ctl -j qflow show; }
started() { ip netns exec "$S" "$TC" -j -s qdisc show dev r2c0 | jq '.[0].flows_started'; }
rehashes()
{
	ip netns exec "$S" nstat -asz TcpExtTcpTimeoutRehash |
		awk '$1 == "TcpExtTcpTimeoutRehash" { n = $2 } END { print n + 0 }'
}
mac() { ip -n "$1" -j link show r2c0 | jq -r '.[0].address'; }

# ------------------------------------------------------------------ setup
RET=0
line2_create "$S" "$R"
check_err $? "two-node line: namespaces, veth, r2c2ctl node set / port add"
rehash=$(ip netns exec "$S" sysctl -n net.core.txrehash)
[[ $rehash == 1 ]]
check_err $? "net.core.txrehash is $rehash in node 0, not the default 1"
for i in 0 1; do
	ns=r2c2-h$i
	ip -n "$ns" link set r2c0 up
	ip -n "$ns" addr add "10.42.0.$i/16" dev r2c0
	ip -n "$ns" addr add "fd42::$i/64" dev r2c0 nodad
done
# no neighbour discovery through the qdisc while the test runs
ip -n "$S" neigh replace 10.42.0.1 lladdr "$(mac "$R")" dev r2c0 nud permanent &&
	ip -n "$S" neigh replace fd42::1 lladdr "$(mac "$R")" dev r2c0 nud permanent &&
	ip -n "$R" neigh replace 10.42.0.0 lladdr "$(mac "$S")" dev r2c0 nud permanent &&
	ip -n "$R" neigh replace fd42::0 lladdr "$(mac "$S")" dev r2c0 nud permanent
check_err $? "permanent neighbours"
busywait 10000 bash -c "ip netns exec $S r2c2ctl -j node show | json_assert '.nodes == 2'"
check_err $? "the two nodes did not see each other"
busywait 5000 ip netns exec "$S" ping -c 1 -W 1 10.42.0.1 >/dev/null
check_err $? "no ping over r2c0"
# idle 60 s: RTO backoffs grow past the default 3 s in a slow guest, and a
# flow idle that long would finish and start again (with the same id)
ip netns exec "$S" "$TC" qdisc add dev r2c0 root r2c2 initial_rate 4mbit idle 60s
check_err $? "tc qdisc add dev r2c0 root r2c2 initial_rate 4mbit idle 60s"
log_test_or_exit "two-node line up, sch_r2c2 on node 0's r2c0, txrehash $rehash"

# ------------------------------------------------------------------ traffic
RET=0
# the monitor outlives the checks (stop_all ends it): a START after an
# RTO must be heard however slow the guest
ip netns exec "$R" r2c2ctl -j monitor timeout 600 >"$TMP/mon" 2>&1 &
PIDS+=($!)
heard() { grep -q '"0xffff0000"' "$TMP/mon"; }
ok=0
for ((try = 0; try < 20 && !ok; try++)); do
	ip netns exec "$S" r2c2ctl event send flow 0xffff0000 dst 1 || break
	busywait 1000 heard && ok=1
done
((ok))
check_err $? "node 1's monitor heard no warm-up event"

# A: node 0 connects (IPv4) and sends; B: node 1 connects (IPv6) and node 0
# sends (iperf3 -R). --cport sets the client port of the data connection
# (iperf3's control connection has an ephemeral one). -t 600: they run
# until stop_all, however long the waits below take in a slow guest.
ip netns exec "$R" iperf3 -s -1 -p 5301 >/dev/null 2>&1 &
PIDS+=($!)
ip netns exec "$S" iperf3 -s -1 -p 5302 >/dev/null 2>&1 &
PIDS+=($!)
listening()
{
	ip netns exec "$R" ss -Hltn 'sport = :5301' | grep -q . &&
		ip netns exec "$S" ss -Hltn 'sport = :5302' | grep -q .
}
busywait 10000 listening
check_err $? "iperf3 servers"
ip netns exec "$S" iperf3 -c 10.42.0.1 -p 5301 --cport 40001 -t 600 >"$TMP/A" 2>&1 &
PIDS+=($!)
ip netns exec "$R" iperf3 -c fd42::0 -p 5302 --cport 40002 -R -t 600 >"$TMP/B" 2>&1 &
PIDS+=($!)

# ids PORTS JSON: the flow ids of the qdisc's flows with these ports
ids() { jq -r --arg p "$1" '.[] | select("\(.sport):\(.dport)" == $p) | .flow'; }
both_flow()
{
	local j

	j=$(qflows) && [[ -n $(ids 40001:5301 <<<"$j") ]] &&
		[[ -n $(ids 5302:40002 <<<"$j") ]]
}
busywait 15000 both_flow
check_err $? "the two connections did not show up in qflow show"
log_test_or_exit "connection A (IPv4, active open) and B (IPv6, passive open) through sch_r2c2"

# sample the qdisc's flows of the connections all along
(
	while true; do
		qflows | jq -r '.[] | "\(.sport):\(.dport) \(.flow)"' |
			grep -E '^(40001:5301|5302:40002) '
		sleep 0.1
	done
) >"$TMP/samples" 2>/dev/null &
SAMPLER=$!
# nsamples PORTS: the samples of one connection so far
nsamples() { grep -c "^$1 " "$TMP/samples"; }
# sampled_since A B: connections A and B sampled 3 times more than A
# and B times
sampled_since()
{
	(($(nsamples 40001:5301) >= $1 + 3 && $(nsamples 5302:40002) >= $2 + 3))
}

# ------------------------------------------------------------------ RTOs
RET=0
# each sample is an r2c2ctl and a jq: seconds apart in a loaded guest
busywait 60000 sampled_since 0 0
check_err $? "the sampler did not see both connections"
f0=$(started)
h0=$(rehashes)
backoff()
{
	ip netns exec "$S" ss -Htni state established '( sport = :40001 or dport = :40002 )' |
		grep -q 'backoff:'
}
recovered() { ! backoff; }
for cycle in 1 2 3; do
	ip -n "$R" route add blackhole 10.42.0.0/32 &&
		ip -n "$R" -6 route add blackhole fd42::0/128
	check_err $? "blackhole routes (cycle $cycle)"
	sleep 1.5
	ip -n "$R" route del blackhole 10.42.0.0/32
	ip -n "$R" -6 route del blackhole fd42::0/128
	# until both connections have recovered (no RTO backoff left)
	busywait 30000 recovered
	check_err $? "connections still backed off 30 s after cycle $cycle"
done
# samples of both after the last recovery
busywait 60000 sampled_since "$(nsamples 40001:5301)" "$(nsamples 5302:40002)"
check_err $? "the sampler stopped seeing the connections after the RTOs"
h1=$(rehashes)
f1=$(started)
stop_pids "$SAMPLER"
SAMPLER=
log_info "TcpExtTcpTimeoutRehash in node 0: $h0 -> $h1; qdisc flows_started: $f0 -> $f1"
((h1 > h0))
check_err $? "no RTO rehashed a connection's txhash: the test did not test anything"
log_test "3 x 1.5 s of lost ACKs: $((h1 - h0)) RTO rehashes of node 0's txhash"

# ------------------------------------------------------------------ checks
for c in "A 40001:5301" "B 5302:40002"; do
	RET=0
	read -r name ports <<<"$c"
	mapfile -t got < <(awk -v p="$ports" '$1 == p { print $2 }' "$TMP/samples" | sort -u)
	nsamp=$(awk -v p="$ports" '$1 == p' "$TMP/samples" | wc -l)
	((${#got[@]} == 1))
	check_err $? "connection $name (ports $ports) had ${#got[@]} flow ids in $nsamp samples: ${got[*]}"
	starts=0
	for id in "${got[@]}"; do
		n=$(jq -r --arg f "$id" 'select(.event == "flow" and .type == "start" and
			.src == 0 and .flow == $f) | .flow' "$TMP/mon" 2>/dev/null | wc -l)
		starts=$((starts + n))
	done
	log_info "connection $name: ${#got[@]} flow id(s) in $nsamp samples, $starts START(s) heard by node 1"
	((starts == 1))
	check_err $? "node 1 heard $starts flow STARTs for connection $name's id(s)"
	log_test "connection $name keeps one flow id (${got[*]}) and one START through the RTOs" \
		"$nsamp samples"
done

stop_all
ksft_exit
