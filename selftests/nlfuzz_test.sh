#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# nlfuzz_test.sh - random requests to the "r2c2" generic netlink family
# (selftests/tools/r2c2_nlfuzz): every command and unknown ones, with
# random, missing, oversized and out-of-range attributes, bad headers
# and flags; as nobody without capabilities (setpriv), as root of a user
# namespace that does not own the network namespace (unshare -Ur), in a
# namespace without a node, and as root. Every request is answered;
# every refusal carries an extack message (but those the genetlink core
# makes without one: EPERM for an admin command, EOPNOTSUPP for an
# unknown command, a do/dump mismatch or an event-only command); a
# refused request changes nothing (r2c2_nlfuzz compares the node's
# configuration, ports, classes, rack key and sender flows around each);
# the unprivileged runs get EPERM for every admin command (KEY_SET and
# KEY_DEL among them) and change nothing at all (node show, port show,
# topo show, class show, key show before and after); the kernel does
# not warn.
#
#	 r2c2-fa (node 1)                 r2c2-fb (node 2)
#	 +------------------+   veth     +------------------+
#	 | p0 (port 0)  ----|------------|---- p1 (port 1)  |
#	 | dummy0 (no port) |            |                  |
#	 | classes 1, 7     |            |                  |
#	 | rack key 3       |            | rack key 3       |
#	 +------------------+            +------------------+
#	 r2c2-fx: a namespace without an r2c2 node
#
# Knobs: NLFUZZ_COUNT (requests of the root run, default 3000; the
# unprivileged and node-less runs get a third each), NLFUZZ_SEED
# (default: from the clock; printed). The larger run
# (Documentation/reliability.md, "Netlink fuzzing"):
#   scripts/vm-run --kernel 6.1 --timeout 1800 -- \
#       'NLFUZZ_COUNT=100000 selftests/run.sh nlfuzz_test.sh'

# shellcheck disable=SC2317  # functions called through wait_until
lib_dir=$(dirname "$0")
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"
# shellcheck source=selftests/fabric.sh
source "$lib_dir/fabric.sh"

require_root
require_cmd ip jq setpriv unshare
require_module veth dummy
require_r2c2
require_tools r2c2_nlfuzz r2c2_snap

A=r2c2-fa B=r2c2-fb X=r2c2-fx
NLFUZZ=$(tool r2c2_nlfuzz)
COUNT=${NLFUZZ_COUNT:-3000}
SEED=${NLFUZZ_SEED:-$(( $(date +%s) % 1000000007 ))}
SMALL=$((COUNT / 3))

# node show but the tables' generation, port show but ages and
# counters, topo show, class show but the flows given each class, key
# show but the time the previous key has left
state()
{
	ip netns exec "$A" r2c2ctl -j node show | jq -c 'del(.tables_gen)' &&
	ip netns exec "$A" r2c2ctl -j port show |
		jq -c 'map(del(.neighbour.age_ms) | del(.stats))' &&
	ip netns exec "$A" r2c2ctl -j topo show | jq -c . &&
	ip netns exec "$A" r2c2ctl -j class show | jq -c 'map(del(.flows))' &&
	ip netns exec "$A" r2c2ctl -j key show | jq -c 'del(.prev_ms)'
}

pair_ok()
{
	snap "$FABRIC_TMP/p" "$A" "$B" 2>/dev/null &&
	[[ $(jq -s 'map(select(.nodes == 2)) | length' "$FABRIC_TMP/p") == 2 ]]
}

# fuzz NAME SEED COUNT WRAPPER...: r2c2_nlfuzz under WRAPPER (words
# before the tool) with the options in EXTRA, result in
# $FABRIC_TMP/NAME.json, failures in .log
EXTRA=()
fuzz()
{
	local name=$1 seed=$2 count=$3 rc

	shift 3
	"$@" "$NLFUZZ" "${EXTRA[@]}" -S "$seed" -c "$count" >"$FABRIC_TMP/$name.json" \
		2>"$FABRIC_TMP/$name.log"
	rc=$?
	log_info "$name: $(head -n 1 "$FABRIC_TMP/$name.log")"
	log_info "$name: $(cat "$FABRIC_TMP/$name.json")"
	if ((rc)); then
		# the first failures, each with its request in hex
		grep -v '^r2c2_nlfuzz: seed' "$FABRIC_TMP/$name.log" | head -n 5 |
			sed 's/^/# /'
	fi
	return "$rc"
}

# ---------------------------------------------------------------- setup
ksft_plan 6
RET=0
ns_create "$A" && ns_create "$B" && ns_create "$X" &&
veth_link "$A" p0 "$B" p1 &&
ip -n "$A" link add dummy0 type dummy && ip -n "$A" link set dummy0 up &&
ip netns exec "$A" r2c2ctl node set addr 1 topology torus:2x2 &&
ip netns exec "$A" r2c2ctl port add 0 dev p0 &&
ip netns exec "$A" r2c2ctl class add 1 dport 5001-5010 weight 4 prio 1 &&
ip netns exec "$A" r2c2ctl class add 7 dscp 10 weight 2 &&
ip netns exec "$B" r2c2ctl node set addr 2 &&
ip netns exec "$B" r2c2ctl port add 1 dev p1 &&
ip netns exec "$A" r2c2ctl key set 3 00112233445566778899aabbccddeeff &&
ip netns exec "$B" r2c2ctl key set 3 00112233445566778899aabbccddeeff
check_err $? "setup failed"
wait_until 30 pair_ok
check_err $? "nodes 1 and 2 do not find each other"
before=$(state)
check_err $? "r2c2ctl show failed"
log_info "seed $SEED; requests: root $COUNT, the others $SMALL each"
log_test_or_exit "setup: nodes 1 and 2 joined by a veth, two classes on node 1, a rack key"

# ---------------------------------------------------------------- unprivileged
# -U: every admin command (KEY_SET, KEY_DEL among them) must get EPERM
RET=0
EXTRA=(-U)
fuzz setpriv "$SEED" "$SMALL" ip netns exec "$A" setpriv --reuid 65534 \
	--regid 65534 --clear-groups --inh-caps=-all --bounding-set=-all
check_err $? "r2c2_nlfuzz as nobody found failures"
json_assert '.ok > 0 and .errors.EPERM > 0 and .not_eperm == 0 and
	.by_cmd.key_set > 0 and .by_cmd.key_del > 0 and .by_cmd.key_get > 0' \
	<"$FABRIC_TMP/setpriv.json"
check_err $? "as nobody: no request accepted, none refused with EPERM, or no KEY_* request"
after=$(state)
[[ $after == "$before" ]]
check_err $? "node 1 changed: before $before; after $after"
log_test "nobody without capabilities: every refusal with its extack, nothing changed"

RET=0
fuzz unshare "$((SEED + 1))" "$SMALL" ip netns exec "$A" unshare -Ur
check_err $? "r2c2_nlfuzz in a user namespace found failures"
after=$(state)
[[ $after == "$before" ]]
check_err $? "node 1 changed: before $before; after $after"
log_test "root of a user namespace: every refusal with its extack, nothing changed"

RET=0
EXTRA=()
fuzz nonode "$((SEED + 2))" "$SMALL" ip netns exec "$X"
check_err $? "r2c2_nlfuzz in a namespace without a node found failures"
log_test "a namespace without a node: every refusal with its extack"

# ---------------------------------------------------------------- root
# Accepted requests change node 1 (that is allowed); a refused one must
# not. A NODE_DEL that gets through is undone (node 1, port 0 on p0).
RET=0
EXTRA=(-a 1 -p 0:p0)
fuzz root "$((SEED + 3))" "$COUNT" ip netns exec "$A"
check_err $? "r2c2_nlfuzz as root found failures"
log_test "root: every request answered, every refusal with its extack and without effect"

RET=0
ip netns exec "$A" r2c2ctl node show >/dev/null
check_err $? "node 1 does not answer NODE_GET after the run"
kernel_healthy
check_err $? "kernel warnings or oopses"
log_test "no kernel warning, oops or taint"

ksft_exit
