#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# ctl_test.sh - r2c2ctl traceroute and ping in a 3x3 torus, and command
# prefixes against a live node.
#
#	 6 ---- 7 ---- 8 --	one namespace r2c2-<id> per node,
#	 |      |      |	id = x + 3y; p0/p1 along x (+/-),
#	 3 ---- 4 ---- 5 --	p2/p3 along y; links wrap around.
#	 |      |      |
#	[0] --- 1 ---- 2 --	S = node 0, D = node 8: one hop along x
#	 |      |      |	(0 -p1-> 2, the wrap-around) and one along
#				y (2 -p3-> 8).
#
# traceroute S->D under DOR (deterministic: x first) must be exactly
# 0 -p1-> 2 -p3-> 8, the same for every sample, each hop's far end as
# `topo show` has it; under RPS every sampled path must reach D in 2
# hops. ping S->D answers (text and JSON), with "routing dor" the echo's
# flow takes DOR (flow show), and ping or traceroute to a node that does
# not exist fails with the kernel's reason and exit status 1.

lib_dir=$(dirname "$0")
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"
# shellcheck source=selftests/torus.sh
source "$lib_dir/torus.sh"

require_root
require_cmd ip jq
require_module veth
require_r2c2
ksft_plan 8

S=0
D=8
TMP=$(mktemp -d)
cleanup_add "rm -rf $TMP"

RET=0
torus_create 3 3
check_err $? "torus_create 3 3"
torus_wait_converged 30
check_err $? "torus did not converge"
log_test_or_exit "3x3 torus up"

# traceroute DOR: the exact path, the same for 20 samples
RET=0
torus_exec "$S" r2c2ctl -j traceroute "$D" routing dor count 20 >"$TMP/tr.json"
check_err $? "traceroute failed"
json_assert --argjson s "$S" --argjson d "$D" '
	.src == $s and .dst == $d and .routing == "dor" and .samples == 20
	and (.paths | length) == 1 and .paths[0].count == 20
	and .paths[0].reaches_dst
	and [.paths[0].hops[] | [.node, .port, .to]] == [[0, 1, 2], [2, 3, 8]]' \
	"$TMP/tr.json"
check_err $? "traceroute dor: not the dimension-order path 0 -p1-> 2 -p3-> 8: $(cat "$TMP/tr.json")"
log_test "traceroute $S -> $D routing dor: the dimension-order path"

# every hop as topo show has it (the graph independently of traceroute)
RET=0
torus_exec "$S" r2c2ctl -j topo show >"$TMP/topo.json"
check_err $? "topo show failed"
json_assert --slurpfile t "$TMP/topo.json" '
	([$t[0][] | .addr as $a | .links[] | {key: "\($a):\(.port)", value: .neighbour}]
	 | from_entries) as $g
	| [.paths[].hops[] | $g["\(.node):\(.port)"] == .to] | nonempty | all' \
	"$TMP/tr.json"
check_err $? "a hop's far end differs from topo show"
log_test "traceroute hops match topo show"

# traceroute RPS: every path minimal (2 hops) and reaching D
RET=0
torus_exec "$S" r2c2ctl -j trac "$D" r rps c 50 >"$TMP/rps.json"
check_err $? "traceroute (abbreviated) failed"
json_assert '.routing == "rps" and ([.paths[] | .length == 2 and .reaches_dst] | nonempty | all)
	and ([.paths[].count] | add) == 50' "$TMP/rps.json"
check_err $? "rps paths: $(cat "$TMP/rps.json")"
log_test "traceroute routing rps, abbreviated words: 50 samples, minimal paths"

# ping answers
RET=0
torus_exec "$S" r2c2ctl ping "$D" count 3 interval 100 >"$TMP/ping.txt" 2>&1
check_err $? "ping failed: $(cat "$TMP/ping.txt")"
grep -q '^3 echoes sent, 3 received, 0% loss$' "$TMP/ping.txt"
check_err $? "ping summary: $(cat "$TMP/ping.txt")"
grep -q '^rtt min/avg/max = [0-9.]*/[0-9.]*/[0-9.]* ms$' "$TMP/ping.txt"
check_err $? "ping rtt line: $(cat "$TMP/ping.txt")"
log_test "ping $S -> $D: 3 of 3 answered"

# ping routing dor: JSON, the echo's flow set to DOR
RET=0
torus_exec "$S" r2c2ctl -j ping "$D" routing dor count 3 interval 100 >"$TMP/ping.json"
check_err $? "ping routing dor failed: $(cat "$TMP/ping.json")"
json_assert '.routing == "dor" and .transmitted == 3 and .received == 3
	and .loss_pct == 0 and [.replies[].seq] == [1, 2, 3]
	and .rtt_min_ms <= .rtt_avg_ms and .rtt_avg_ms <= .rtt_max_ms
	and (.flow_id | type) == "string"' "$TMP/ping.json"
check_err $? "ping JSON: $(cat "$TMP/ping.json")"
fid=$(jq -r .flow_id "$TMP/ping.json")
torus_exec "$S" r2c2ctl -j flow show >"$TMP/flows.json"
json_assert --arg f "$fid" --argjson d "$D" \
	'[.[] | select(.flow == $f)] | nonempty | .[0].routing == "dor" and .[0].dst == $d and .[0].packets >= 3' \
	"$TMP/flows.json"
check_err $? "flow $fid is not DOR to $D: $(cat "$TMP/flows.json")"
log_test "ping routing dor: 3 of 3 answered, the echo's flow on DOR"

# a node that is not in the rack: a clear error, status 1, nothing sent
RET=0
torus_exec "$S" r2c2ctl ping 42 count 1 >"$TMP/out" 2>"$TMP/err"
rc=$?
((rc == 1))
check_err $? "ping 42: exit status $rc, want 1"
grep -q 'destination is not in the discovered graph' "$TMP/err"
check_err $? "ping 42: stderr: $(cat "$TMP/err")"
torus_exec "$S" r2c2ctl traceroute 42 >"$TMP/out" 2>"$TMP/err"
rc=$?
((rc == 1))
check_err $? "traceroute 42: exit status $rc, want 1"
grep -q 'destination is not in the discovered graph' "$TMP/err"
check_err $? "traceroute 42: stderr: $(cat "$TMP/err")"
log_test "ping and traceroute to a missing node fail with the reason"

# prefixes against a live node: "n s" is node show, "ne" neigh
RET=0
torus_exec "$S" r2c2ctl -j n s | json_assert --argjson s "$S" '.addr == $s'
check_err $? "r2c2ctl -j n s"
torus_exec "$S" r2c2ctl -j ne s | json_assert 'length == 4'
check_err $? "r2c2ctl -j ne s"
torus_exec "$S" r2c2ctl ro get "$D" >/dev/null 2>"$TMP/err"
rc=$?
((rc == 2)) && grep -q 'ambiguous object "ro": route, routes, route-select' "$TMP/err"
check_err $? "r2c2ctl ro: status $rc, $(cat "$TMP/err")"
log_test "abbreviated objects and commands on a live node"

ksft_exit
