#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# path_weights_test.sh - r2c2ctl path weights (TAP): the per-link weights
# of one packet under RPS, DOR and VLB on small tori and meshes, checked
# against hand-computed routes and against flow conservation; text and
# JSON output; usage errors.
#
# Runs the ASan+UBSan build (make test builds it); R2C2CTL=path overrides.
set -u
cd "$(dirname "$0")/.." || exit 1
# shellcheck source=selftests/json_assert.sh
source ../selftests/json_assert.sh

CTL=${R2C2CTL:-build/tests/r2c2ctl-san}
[ -x "$CTL" ] || CTL=r2c2ctl/r2c2ctl
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0
failed=0

pass() { n=$((n + 1)); echo "ok $n - $1"; }
fail() {
	n=$((n + 1)); failed=$((failed + 1))
	echo "not ok $n - $1"
	[ -z "${2:-}" ] || echo "#   $2"
	sed 's/^/#   stdout: /' "$T/out" | head -n 20
	sed 's/^/#   stderr: /' "$T/err" | head -n 20
}
check() { if eval "$2"; then pass "$1"; else fail "$1" "failed: $2"; fi; }

run() {
	"$CTL" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}

# links NODE:PORT=WEIGHT ... of the last text output, sorted
links() {
	awk '$1 == "node" { print $2 ":" $4 "=" $NF }' "$T/out" | sort | tr '\n' ' '
}

# --- text output, hand-computed routes ------------------------------------
# 3x3 torus, 0 = (0,0) -> 8 = (2,2): one hop back along x (port 1) and one
# back along y (port 3), in either order.
run path weights --topology torus:3x3 0 8
check "rps 0->8 on torus:3x3: the two minimal paths, 1/2 each" \
	'[ $rc = 0 ] && [ "$(links)" = "0:1=0.5 0:3=0.5 2:3=0.5 6:1=0.5 " ]'
check "rps header names the pair, protocol and expected hops" \
	'head -n 1 "$T/out" | grep -q "^path on torus:3x3 from 0 to 8 routing rps nodes 9 hops 2 links 4$"'
run path weights --topology torus:3x3 --routing dor 0 8
check "dor 0->8 on torus:3x3: x first (port 1), then y (port 3)" \
	'[ $rc = 0 ] && [ "$(links)" = "0:1=1 2:3=1 " ]'
# 4x4 torus, 0 -> 10 = (2,2): offset k/2 in both dimensions, a tie; the
# route is 4 hops long (even), so DOR takes the - way (ports 1 and 3);
# 0 -> 6 = (2,1), 3 hops, the + way; RPS all 24 minimal paths of 0 -> 10.
run path weights --topology torus:4x4 --routing dor 0 10
check "dor on a tie, 4 hops (torus:4x4 0->10): the - way in both dimensions" \
	'[ $rc = 0 ] && [ "$(links)" = "0:1=1 14:3=1 2:3=1 3:1=1 " ]'
run path weights --topology torus:4x4 --routing dor 0 6
check "dor on a tie, 3 hops (torus:4x4 0->6): the + way, then +y" \
	'[ $rc = 0 ] && [ "$(links)" = "0:0=1 1:0=1 2:2=1 " ]'
run path weights --topology torus:4x4 0 10
check "rps 0->10 on torus:4x4: 1/4 on each first and last hop" \
	'[ $rc = 0 ] && [ "$(awk '\''$1 == "node" && ($2 == 0 || $7 == 10)'\'' "$T/out" | grep -c "weight 0.25$")" = 8 ]'
# mesh 3x3, corner to corner: VLB through any node is still 4 hops
run path weights --topology mesh:3x3 --routing vlb 0 8
check "vlb on mesh:3x3 corner to corner: always 4 hops" \
	'[ $rc = 0 ] && grep -q " hops 4 links 12$" "$T/out"'
printf 'nodes 3\nlink 0 1\nlink 1 2\n' >"$T/line.topo"
run path weights --topology "file:$T/line.topo" 0 2
check "file topology: directed links 0->1->2, one port each" \
	'[ $rc = 0 ] && [ "$(links)" = "0:0=1 1:0=1 " ]'

# --- JSON and conservation -------------------------------------------------
if command -v jq >/dev/null 2>&1; then
	run -j path weights --topology torus:3x3 --routing vlb 0 8
	check "-j: one JSON object with the documented keys" \
		'[ $rc = 0 ] && json_assert '\''(keys == ["dst","hops","links","links_used","nodes","routing","src","topology"]) and .routing == "vlb" and (.links[0] | keys == ["neighbour","neighbour_port","node","port","weight"])'\'' "$T/out" >/dev/null'
	# VLB on a 3x3 torus: mean distance 12/9 on each leg
	check "vlb 0->8 on torus:3x3: hops 24/9, sum of weights = hops" \
		'json_assert '\''(.hops - 24/9 | fabs) < 1e-9 and (([.links[].weight] | add) - .hops | fabs) < 1e-9'\'' "$T/out" >/dev/null'
	for rp in rps dor vlb; do
		run -j path weights --topology torus:3x3x3 --routing $rp 0 13
		# one packet leaves 0 once and reaches 13 once; at every other
		# node, what comes in goes out
		check "$rp 0->13 on torus:3x3x3: flow conservation at every node" \
			'[ $rc = 0 ] && json_assert '\''
			  def out(n): [.links[] | select(.node == n) | .weight] | add // 0;
			  def in(n): [.links[] | select(.neighbour == n) | .weight] | add // 0;
			  . as $p | [range(0; .nodes) | . as $n |
			    (($p | out($n)) - ($p | in($n))) -
			    (if $n == 0 then 1 elif $n == 13 then -1 else 0 end) | fabs] |
			  max < 1e-9'\'' "$T/out" >/dev/null'
	done
	run -j path weights --topology torus:3x3x3 --routing dor 0 13
	check "dor 0->13 on torus:3x3x3: one path of 3 links, weight 1" \
		'json_assert '\''.links_used == 3 and ([.links[].weight] | all(. == 1)) and ([.links[] | "\(.node):\(.port)"] == ["0:0","1:2","4:4"])'\'' "$T/out" >/dev/null'
else
	for i in 1 2 3 4 5 6; do echo "ok $((n += 1)) - JSON checks # SKIP jq not installed"; done
fi

# keywords as in the rest of r2c2ctl; the long options are aliases
run -j path weights --topology torus:3x3x3 --routing vlb 0 13
cp "$T/out" "$T/long.json"
run -j path weights topology torus:3x3x3 routing vlb 0 13
check "keywords topology and routing: the same answer as --topology, --routing" \
	'[ $rc = 0 ] && [ -s "$T/out" ] && cmp -s "$T/out" "$T/long.json"'
run path weights topology torus:3x3 routing dor topology torus:4x4 0 1
check "a keyword given twice: usage error (2)" '[ $rc = 2 ] && grep -q "topology" "$T/err"'

# --- errors ----------------------------------------------------------------
run path weights 0 1
check "no --topology: usage error (2)" '[ $rc = 2 ] && grep -q "missing topology SPEC" "$T/err"'
run path weights --topology torus:3x3 0
check "no DST: usage error (2)" '[ $rc = 2 ] && grep -q "missing DST" "$T/err"'
run path weights --topology torus:3x3 0 9
check "node out of range names the node" '[ $rc = 2 ] && grep -q "invalid destination \"9\"" "$T/err" && [ ! -s "$T/out" ]'
# as alloc refuses a flow from a node to itself
run path weights --topology torus:3x3 --routing rps 4 4
check "src = dst: usage error (2) naming the node, nothing printed" \
	'[ $rc = 2 ] && grep -q "path weights: source and destination are both 4$" "$T/err" && [ ! -s "$T/out" ]'
run -j path weights --topology torus:3x3 0 0
check "src = dst with -j: usage error (2), no JSON" \
	'[ $rc = 2 ] && grep -q "source and destination are both 0$" "$T/err" && [ ! -s "$T/out" ]'
run path weights --topology torus:3x3 --routing ecmp 0 1
check "unknown protocol names the word" '[ $rc = 2 ] && grep -q "\"ecmp\"" "$T/err"'
run path weights --topology torus:3x3 --bogus 0 1
check "unknown option" '[ $rc = 2 ] && grep -q "\-\-bogus" "$T/err"'
run path weights --topology torus:3x1 0 1
check "bad torus spec: exit 1 with the spec's message" '[ $rc = 1 ] && grep -qF "expected torus:K1[xK2[xK3]], mesh:K1[xK2[xK3]], file:PATH or PATH, each K in 2..255" "$T/err"'
printf 'nodes 3\nlink 0 1\n' >"$T/cut.topo"
run path weights --topology "$T/cut.topo" 0 2
check "unreachable destination: exit 1, nothing printed" '[ $rc = 1 ] && grep -q "unreachable" "$T/err" && [ ! -s "$T/out" ]'
run path help
check "path help: usage on stdout, status 0" '[ $rc = 0 ] && grep -q "^Usage: r2c2ctl \[-j\] path weights" "$T/out"'

echo "1..$n"
[ "$failed" -eq 0 ]
