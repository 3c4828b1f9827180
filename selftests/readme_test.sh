#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# readme_test.sh - the README's "Quick start on a rack", as a new
# operator copies it, gives a working two-node rack. The commands are
# read from README.md itself (the sh blocks of that section), not
# restated here, so a quick start that stops working fails this test.
#
#	+---------------------+              +---------------------+
#	| ns rdm-a  node 1    |     veth     | ns rdm-b  node 2    |
#	|  eth1 (port 0) -------------------------- eth2 (port 1)  |
#	|  eth2 (port 1): a   |              |  eth1 (port 0): a   |
#	|   veth to nowhere   |              |   veth to nowhere   |
#	|  r2c0 10.42.0.1/16  |              |  r2c0 10.42.0.2/16  |
#	+---------------------+              +---------------------+
#
# Nodes 1 and 2 of the README's torus:8x8x8 are neighbours along x, node
# 1's port 0 (+x) to node 2's port 1 (-x), so the topology check holds.
# Each line runs as written, in the node's namespace, with only the
# node's own values put in: "addr 5" and 10.42.0.5 become the node's
# address, eth1 and eth2 its two devices (each replacement must find its
# text: a README that no longer has it fails). Lines for the host once:
# "make" is make check's build step (skipped), insmod and the r2c2d.conf
# line run once, in the repository (the README's working directory).
# Then: the two nodes know each other, ping over r2c0, the qdisc carries
# the recommended announce_bytes, each r2c2d runs and hears the other's
# flow.

# shellcheck disable=SC2317,SC2016  # functions called through busywait; cleanup_add expands later
lib_dir=$(dirname "$0")
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"

require_root
require_cmd ip tc jq ping iperf3 awk
require_module veth
ksft_plan 6

README=$R2C2_REPO/README.md
T=$(mktemp -d)
D_PIDS=()
cleanup_add 'stop_pids "${D_PIDS[@]}" 2>/dev/null; rm -rf "$T"'

# the sh blocks of the quick start, one command line each
awk '/^## Quick start on a rack/ { in_s = 1; next }
     in_s && /^## / { exit }
     in_s && /^```sh/ { blk = 1; next }
     in_s && /^```/ { blk = 0; next }
     blk && NF { print }' "$README" >"$T/lines"
RET=0
n=$(wc -l <"$T/lines")
((n >= 10))
check_err $? "the quick start has $n command lines in README.md (want its two sh blocks)"
grep -q 'tc qdisc add dev r2c0 root r2c2' "$T/lines"
check_err $? "the quick start adds no sch_r2c2 qdisc"
log_test_or_exit "README.md's quick start: $n command lines"

# the modules as the quick start loads them: none loaded before
modprobe -r sch_r2c2 r2c2 2>/dev/null
ns_create rdm-a && ns_create rdm-b &&
	veth_link rdm-a eth1 rdm-b eth2 &&
	ip link add eth2 netns rdm-a type veth peer name x2 netns rdm-a &&
	ip link add eth1 netns rdm-b type veth peer name x1 netns rdm-b &&
	for d in rdm-a:eth2 rdm-a:x2 rdm-b:eth1 rdm-b:x1; do
		ip -n "${d%%:*}" link set "${d#*:}" up || exit 1
	done
RET=$?
log_test_or_exit "two namespaces, eth1 of one to eth2 of the other"

# subst LINE ADDR: the node's values put in; each replacement must match
subst()
{
	local l=$1 a=$2

	sed -e "s/\baddr 5\b/addr $a/; s/10\.42\.0\.5\//10.42.0.$a\//" <<<"$l"
}

RET=0
once=0 pernode=0 bg=0 skipped=0
: >"$T/out"
while IFS= read -r line; do
	case $line in
	make|make\ *)
		skipped=$((skipped + 1)); continue ;;
	insmod\ *|mkdir\ -p\ /etc/r2c2*)
		once=$((once + 1))
		(cd "$R2C2_REPO" && bash -c "$line") >>"$T/out" 2>&1
		check_err $? "'$line' (once, in the repository) failed: $(tail -n 3 "$T/out")"
		continue ;;
	esac
	for node in a:1 b:2; do
		nsn=rdm-${node%%:*} a=${node#*:}
		l=$(subst "$line" "$a")
		cmd=${l%%#*}
		cmd=${cmd%"${cmd##*[![:space:]]}"}
		if [[ $cmd == *'&' ]]; then
			# a daemon (r2c2d): in the background, its output kept;
			# the lines after it talk to it, as the operator's would
			# once it is up
			bg=$((bg + 1))
			ip netns exec "$nsn" bash -c "cd '$R2C2_REPO' && exec ${cmd%&}" \
				>"$T/d-$a.log" 2>&1 &
			D_PIDS+=($!)
			busywait 10000 ip netns exec "$nsn" r2c2ctl daemon show >/dev/null
			check_err $? "node $a: '$cmd': the daemon never answered: $(tail -n 3 "$T/d-$a.log")"
			continue
		fi
		pernode=$((pernode + 1))
		ip netns exec "$nsn" bash -c "cd '$R2C2_REPO' && $l" >>"$T/out" 2>&1
		check_err $? "node $a: '$l' failed: $(tail -n 3 "$T/out")"
	done
done <"$T/lines"
# the node's values were found to replace
grep -q '\baddr 5\b' "$T/lines" && grep -q '10\.42\.0\.5/' "$T/lines" &&
	grep -q 'dev eth1' "$T/lines" && grep -q 'dev eth2' "$T/lines"
check_err $? "the quick start no longer has 'addr 5', 10.42.0.5/, eth1 and eth2 to fill in"
log_test_or_exit "every line ran: $once once, $((pernode / 2)) in each node's namespace, $((bg / 2)) daemon(s) a node, $skipped skipped (make)"

RET=0
both() { [[ $(ip netns exec "$1" r2c2ctl -j topo show 2>/dev/null | jq 'length') == 2 ]]; }
busywait 20000 both rdm-a && busywait 20000 both rdm-b
check_err $? "the nodes did not learn each other: $(ip netns exec rdm-a r2c2ctl neigh show 2>&1 | head -n 3)"
ip netns exec rdm-a ping -c 3 -i 0.2 -W 2 10.42.0.2 >"$T/ping" 2>&1
check_err $? "ping 10.42.0.1 -> 10.42.0.2 over r2c0: $(tail -n 2 "$T/ping")"
log_test "nodes 1 and 2 know each other and ping over r2c0"

RET=0
for ns in rdm-a rdm-b; do
	ip netns exec "$ns" tc -j qdisc show dev r2c0 >"$T/q" 2>&1
	json_assert '.[0].kind == "r2c2" and .[0].options.announce_bytes == 10240' "$T/q"
	check_err $? "$ns: qdisc: $(head -c 300 "$T/q")"
	ip netns exec "$ns" r2c2ctl -j class show >"$T/c" 2>&1
	json_assert 'length == 1 and .[0].id == 1 and .[0].weight == 4' "$T/c"
	check_err $? "$ns: classes: $(head -c 300 "$T/c")"
done
log_test "each node: sch_r2c2 with announce_bytes 10kb (the recommended option), class 1 weight 4"

RET=0
for p in "${D_PIDS[@]}"; do
	kill -0 "$p" 2>/dev/null
	check_err $? "an r2c2d of the quick start exited: $(cat "$T"/d-*.log | tail -n 5)"
done
# a flow of more than announce_bytes from node 1 to node 2: node 2's
# daemon hears of it
ip netns exec rdm-b iperf3 -s -1 -p 5001 >/dev/null 2>&1 &
srv=$!
sleep 1
ip netns exec rdm-a iperf3 -c 10.42.0.2 -p 5001 -t 8 >"$T/iperf" 2>&1 &
cli=$!
heard() { ip netns exec rdm-b r2c2ctl -j matrix show 2>/dev/null | json_assert '[.flows[]? | select(.src == 1 and .dst == 2)] | length > 0' >/dev/null; }
busywait 6000 heard
check_err $? "node 2's r2c2d has no flow 1 -> 2: $(ip netns exec rdm-b r2c2ctl -j matrix show 2>&1 | head -c 400)"
wait "$cli"
check_err $? "iperf3 10.42.0.1 -> 10.42.0.2: $(tail -n 2 "$T/iperf")"
stop_pids "$srv" 2>/dev/null
log_test "both r2c2d run; node 2's matrix holds node 1's flow"

ksft_exit
