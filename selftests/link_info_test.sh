#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# link_info_test.sh - r2c0 as ip link and ethtool see it. r2c0 is a link
# of kind r2c2 whose info data (ip -d link, with ip's link_r2c2.so) is
# what r2c2ctl node show says; ip link add/del of it are refused, naming
# r2c2ctl; ethtool -i names the driver; ethtool -S r2c0 gives the node's
# counters, equal to r2c2ctl stats show, and a drop shows in them.
#
#	 r2c2-ka (node 0)              r2c2-kb (node 1)
#	 +----------------+            +----------------+
#	 | r2c0 10.43.0.1 |            | r2c0 10.43.0.2 |
#	 |        p0 -----|------------|----- p0        |
#	 +----------------+            +----------------+
#	 A: hello 100, routing dor, topology torus:2x2

# shellcheck disable=SC2016  # jq programs, not shell expansions
lib_dir=$(dirname "$0")
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"

require_root
require_cmd ip jq ping ethtool
require_module veth
require_r2c2
ksft_plan 7

A=r2c2-ka B=r2c2-kb
TMPD=$(mktemp -d)
cleanup_add "rm -rf $TMPD"

setup()
{
	line2_create "$A" "$B" &&
	ip netns exec "$A" r2c2ctl node set routing dor topology torus:2x2 >/dev/null &&
	ip -n "$A" link set r2c0 up && ip -n "$B" link set r2c0 up &&
	ip -n "$A" addr add 10.43.0.1/24 dev r2c0 &&
	ip -n "$B" addr add 10.43.0.2/24 dev r2c0
}

# ethtool_json NS FILE: ethtool -S r2c0 of NS as one JSON object
ethtool_json()
{
	ip netns exec "$1" ethtool -S r2c0 |
		awk -F': *' 'NR > 1 { gsub(/^ +/, "", $1); printf "%s\t%s\n", $1, $2 }' |
		jq -R -n '[inputs | split("\t") | {(.[0]): (.[1] | tonumber)}] | add' >"$2"
}

setup
check_err $? "setup failed"
log_test_or_exit "setup: two nodes, r2c0 up"

# 1. the info data r2c2ctl node show reports
ip netns exec "$A" r2c2ctl -j node show >"$TMPD/node.json"
ip -n "$A" -j -d link show r2c0 >"$TMPD/link.json"
json_assert --slurpfile n "$TMPD/node.json" '
	.[0].linkinfo.info_kind == "r2c2" and
	.[0].linkinfo.info_data as $d | ($n[0] | if type == "array" then .[0] else . end) as $n |
	$d.addr == $n.addr and $d.rproto == $n.routing and
	$d.hello_ms == $n.hello_ms and $d.topology == $n.topology and
	$d.addr == 0 and $d.rproto == "dor" and $d.hello_ms == 100 and
	$d.topology == "torus:2x2"' "$TMPD/link.json"
check_err $? "ip -j -d link show r2c0 differs from r2c2ctl -j node show: $(cat "$TMPD/link.json")"
out=$(ip -n "$A" -d link show r2c0)
[[ $out == *"r2c2 addr 0 topology torus 2x2 rproto dor hello 100ms"* ]]
check_err $? "ip -d link show r2c0: $out"
log_test "ip -d link show r2c0: kind r2c2, addr, topology, rproto, hello as r2c2ctl node show"

# 2. rtnetlink neither makes nor deletes r2c0
out=$(ip -n "$B" link add r2c9 type r2c2 2>&1)
rc=$?
[[ $rc -ne 0 && $out == *r2c2ctl* ]]
check_err $? "ip link add type r2c2: rc $rc: $out"
out=$(ip -n "$B" link del r2c0 2>&1)
rc=$?
[[ $rc -ne 0 ]] && ip -n "$B" link show r2c0 >/dev/null 2>&1
check_err $? "ip link del r2c0: rc $rc: $out"
log_test "ip link add type r2c2 refused naming r2c2ctl; ip link del r2c0 refused"

# 3. ethtool -i
out=$(ip netns exec "$A" ethtool -i r2c0 2>&1)
[[ $out == *"driver: r2c2"* && $out == *"version: "[0-9]* ]]
check_err $? "ethtool -i r2c0: $out"
log_test "ethtool -i r2c0: driver r2c2 and its version"

# 4. ethtool -S r2c0 == r2c2ctl stats show, after traffic; counters move
# under our feet (hellos), so the snapshot counts only when r2c2ctl's
# reads before and after it agree
ip netns exec "$A" ping -c 20 -i 0.05 -W 2 -q 10.43.0.2 >/dev/null
check_err $? "ping A -> B over r2c0"
ip netns exec "$A" r2c2ctl node set hello 60000 >/dev/null
ip netns exec "$B" r2c2ctl node set hello 60000 >/dev/null
sleep 0.3
same=1
for _ in 1 2 3 4 5 6 7 8; do
	ip netns exec "$A" r2c2ctl -j stats show >"$TMPD/s1.json"
	ethtool_json "$A" "$TMPD/eth.json"
	ip netns exec "$A" r2c2ctl -j stats show >"$TMPD/s2.json"
	cmp -s "$TMPD/s1.json" "$TMPD/s2.json" && { same=0; break; }
	sleep 0.2
done
check_err $same "r2c2ctl stats show never read the same counters twice in a row"
json_assert --slurpfile s "$TMPD/s1.json" '
	($s[0] | if has("stats") then .stats else . end) as $s |
	(keys == ($s | keys)) and (to_entries | all(.value == $s[.key])) and
	.originated >= 20 and .delivered >= 20' "$TMPD/eth.json"
check_err $? "ethtool -S r2c0 differs from r2c2ctl -j stats show: $(cat "$TMPD/eth.json") vs $(cat "$TMPD/s1.json")"
log_test "ethtool -S r2c0 equals r2c2ctl stats show after 20 pings"

# 5. a drop: a unicast MAC that is no node's is dropped as drop_no_route
ethtool_json "$A" "$TMPD/before.json"
ip -n "$A" neigh replace 10.43.0.9 lladdr 02:00:00:00:00:09 dev r2c0 nud permanent
ip netns exec "$A" ping -c 3 -i 0.1 -W 1 -q 10.43.0.9 >/dev/null 2>&1
ethtool_json "$A" "$TMPD/after.json"
json_assert --slurpfile b "$TMPD/before.json" \
	'.drop_no_route == $b[0].drop_no_route + 3' "$TMPD/after.json"
check_err $? "drop_no_route did not move by 3: $(jq -c .drop_no_route "$TMPD/before.json") -> $(jq -c .drop_no_route "$TMPD/after.json")"
log_test "ethtool -S r2c0: drop_no_route counts 3 frames to a MAC of no node"

# 6. the names: one per counter, none empty
json_assert 'length >= 40 and (keys | all(length > 0)) and has("rx_packets") and has("drop_lladdr")' "$TMPD/after.json"
check_err $? "ethtool -S r2c0 names: $(jq -c keys "$TMPD/after.json")"
log_test "ethtool -S r2c0 names every counter (rx_packets .. drop_lladdr)"

ksft_exit
