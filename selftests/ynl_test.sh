#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# ynl_test.sh - the upstream YNL cli (Linux 6.12's tools/net/ynl/cli.py,
# put in the guest by vm-run at /usr/local/lib/ynl) drives the r2c2
# family from Documentation/netlink/specs/r2c2.yaml alone: do and dump,
# set commands whose effect r2c2ctl then shows, nested attributes
# (stats, topology links), enums by name, and a policy range enforced
# by the kernel coming back as an extack error; and r2c0's link
# attributes and sch_r2c2's options and statistics through the upstream
# rt-link and tc specs with r2c2's fragments merged in.
#
#	  [ns ynl-a] p0 ---- p1 [ns ynl-b]     two nodes, one link; the cli
#	   node 7               node 8         runs in ynl-a (and ynl-b)

lib_dir=$(dirname "$0")
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"

CLI=/usr/local/lib/ynl/cli.py
SPEC=$R2C2_REPO/Documentation/netlink/specs/r2c2.yaml
require_root
require_cmd python3 jq ip
require_module veth
require_r2c2
[[ -f $CLI ]] || ksft_skip_all "no YNL cli at $CLI (vm-run copies it from linux-source-6.12)"
ksft_plan 9

T=$(mktemp -d)
cleanup_add "rm -rf $T"
# ynl NS ARGS...: the cli in namespace NS, JSON out
ynl() { local ns=$1; shift; ns_exec "$ns" python3 "$CLI" --spec "$SPEC" --no-schema --output-json "$@"; }

ns_create ynl-a
ns_create ynl-b
veth_link ynl-a p0 ynl-b p1

RET=0
ynl ynl-a --do node-set --json '{"node-addr": 7, "hello-ms": 100, "trees": 3, "rproto": 1}' >"$T/set" 2>&1
check_err $? "node-set failed: $(tail -n 3 "$T/set")"
ynl ynl-b --do node-set --json '{"node-addr": 8, "hello-ms": 100}' >>"$T/set" 2>&1
check_err $? "node-set on ynl-b failed: $(tail -n 3 "$T/set")"
ns_exec ynl-a r2c2ctl -j node show >"$T/show" 2>&1
json_assert '.addr == 7 and .hello_ms == 100 and .trees == 3 and .routing == "dor"' "$T/show"
check_err $? "r2c2ctl does not show what ynl set: $(cat "$T/show")"
log_test_or_exit "ynl --do node-set, seen by r2c2ctl node show"

RET=0
ynl ynl-a --do node-get >"$T/get" 2>&1
check_err $? "node-get failed: $(tail -n 3 "$T/get")"
json_assert '.["node-addr"] == 7 and .ifname == "r2c0" and .["hello-ms"] == 100 and .trees == 3 and .rproto == "dor"' "$T/get"
check_err $? "node-get: $(head -c 400 "$T/get")"
log_test "ynl --do node-get: attributes and the rproto enum by name"

RET=0
ynl ynl-a --do port-add --json '{"port": 0, "port-ifname": "p0"}' >"$T/port" 2>&1
check_err $? "port-add failed: $(tail -n 3 "$T/port")"
ns_exec ynl-b r2c2ctl port add 1 dev p1
check_err $? "r2c2ctl port add on ynl-b failed"
busywait 10000 bash -c "ip netns exec ynl-a python3 $CLI --spec $SPEC --no-schema --output-json --dump port-get |
	json_assert '.[0][\"port-state\"] == \"nbr\"'" >/dev/null
check_err $? "port 0 never heard its neighbour"
ynl ynl-a --dump port-get >"$T/ports" 2>&1
json_assert 'length == 1 and .[0].port == 0 and .[0]["port-ifname"] == "p0" and .[0]["nbr-addr"] == 8 and
	.[0]["nbr-port"] == 1 and (.[0]["nbr-mac"] | test("^([0-9a-f]{2}:){5}[0-9a-f]{2}$")) and
	.[0].stats["hello-rx"] > 0' "$T/ports"
check_err $? "port-get: $(head -c 600 "$T/ports")"
log_test "ynl --do port-add, --dump port-get: neighbour, MAC, nested stats"

RET=0
busywait 10000 bash -c "ip netns exec ynl-a python3 $CLI --spec $SPEC --no-schema --output-json --dump topo-get |
	json_assert 'length == 2'" >/dev/null
ynl ynl-a --dump topo-get >"$T/topo" 2>&1
json_assert '[.[]["topo-node"] | {a: .["node-addr"], l: [.["topo-link"][] | [.port, .["nbr-addr"], .["nbr-port"]]]}] |
	sort_by(.a) == [{a: 7, l: [[0, 8, 1]]}, {a: 8, l: [[1, 7, 0]]}]' "$T/topo"
check_err $? "topo-get: $(head -c 600 "$T/topo")"
log_test "ynl --dump topo-get: nested nodes and multi-attr links"

RET=0
ynl ynl-a --do class-set --json '{"class-id": 5, "dport": 5001, "dport-max": 5010, "weight": 4, "prio": 1}' >"$T/cls" 2>&1
check_err $? "class-set failed: $(tail -n 3 "$T/cls")"
ynl ynl-a --dump class-get >"$T/classes" 2>&1
json_assert 'length == 1 and .[0]["class-id"] == 5 and .[0].dport == 5001 and .[0]["dport-max"] == 5010 and
	.[0].weight == 4 and .[0].prio == 1' "$T/classes"
check_err $? "class-get: $(head -c 400 "$T/classes")"
ns_exec ynl-a r2c2ctl -j class show >"$T/cshow" 2>&1
json_assert 'length == 1 and .[0].id == 5 and .[0].weight == 4' "$T/cshow"
check_err $? "r2c2ctl class show: $(cat "$T/cshow")"
log_test "ynl --do class-set, --dump class-get and r2c2ctl class show agree"

RET=0
ynl ynl-a --do stats-get >"$T/stats" 2>&1
json_assert '.["node-addr"] == 7 and .stats["hello-tx"] > 0 and .stats["rx-packets"] > 0' "$T/stats"
check_err $? "stats-get: $(head -c 400 "$T/stats")"
log_test "ynl --do stats-get: the counters nest by name"

RET=0
ynl ynl-a --do node-set --json '{"trees": 17}' >"$T/bad" 2>&1
check_fail $? "trees 17 accepted (the policy range is 1..16)"
grep -q "Numerical result out of range\|out of range\|-34\|ERANGE" "$T/bad"
check_err $? "no range error from the kernel: $(tail -n 3 "$T/bad")"
log_test "ynl --do node-set trees 17: refused by the policy (range 1..16)"

# r2c0's link attributes and sch_r2c2's options and statistics through
# the upstream rt-link and tc specs, with r2c2's fragments merged in
# (tools/ynl/spec-merge.py; vm-run puts 6.12's specs beside the cli)
USPECS=/usr/local/lib/ynl/specs
merged()
{
	python3 "$R2C2_REPO/tools/ynl/spec-merge.py" "$USPECS/$1.yaml" \
		"$R2C2_REPO/Documentation/netlink/specs/$1-r2c2.yaml" -o "$T/$1.yaml" 2>"$T/merge"
}
RET=0
if [[ ! -f $USPECS/rt_link.yaml ]]; then
	log_test_skip "ynl getlink r2c0 with rt_link.yaml + rt_link-r2c2.yaml" "no $USPECS/rt_link.yaml"
else
	merged rt_link
	check_err $? "spec-merge: $(cat "$T/merge")"
	ns_exec ynl-a python3 "$CLI" --spec "$T/rt_link.yaml" --no-schema --output-json \
		--do getlink --json '{"ifname": "r2c0"}' >"$T/link" 2>&1
	json_assert '.linkinfo.kind == "r2c2" and .linkinfo.data.addr == 7 and
		.linkinfo.data.rproto == "dor" and .linkinfo.data["hello-ms"] == 100' "$T/link"
	check_err $? "getlink r2c0: $(head -c 600 "$T/link")"
	log_test "ynl --do getlink r2c0 with rt_link.yaml + rt_link-r2c2.yaml: addr, rproto by name, hello-ms"
fi

RET=0
if [[ ! -f $USPECS/tc.yaml ]]; then
	log_test_skip "ynl getqdisc with tc.yaml + tc-r2c2.yaml" "no $USPECS/tc.yaml"
else
	merged tc
	check_err $? "spec-merge: $(cat "$T/merge")"
	ns_exec ynl-a tc qdisc add dev r2c0 root r2c2 limit 777 lease 250ms announce_bytes 10kb
	check_err $? "tc qdisc add r2c2 failed"
	ns_exec ynl-a python3 "$CLI" --spec "$T/tc.yaml" --no-schema --output-json \
		--dump getqdisc --json '{"family": 0}' >"$T/qd" 2>&1
	json_assert '[.[] | select(.kind == "r2c2")] | length == 1 and
		(.[0].options | .limit == 777 and .["lease-ms"] == 250 and .["announce-bytes"] == 10240) and
		.[0].xstats.version == 1' "$T/qd"
	check_err $? "getqdisc: $(head -c 800 "$T/qd")"
	log_test "ynl --dump getqdisc with tc.yaml + tc-r2c2.yaml: r2c2's options and xstats by name"
fi

ksft_exit
