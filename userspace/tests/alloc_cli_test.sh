#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# r2c2ctl alloc / route-select: documented output, clear errors on bad input.
set -u
cd "$(dirname "$0")/.."
R=${R2C2CTL:-./r2c2ctl/r2c2ctl}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
n=0 fail=0
# shellcheck source=selftests/json_assert.sh
source ../selftests/json_assert.sh
# jt JSON FILTER [JQ_ARG...]: FILTER true on JSON (json_assert)
jt() { local in=$1 f=$2; shift 2
	json_assert "$@" "$f" <<<"$in" >/dev/null; }
check() { n=$((n+1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=$((fail+1)); fi; }
# expect failure: non-zero exit, message on stderr naming file:line, nothing on stdout
bad() { local what=$1 pat=$2; shift 2
	"$R" "$@" >"$T/out" 2>"$T/err"; local rc=$?
	n=$((n+1))
	if [ $rc -ne 0 ] && [ ! -s "$T/out" ] && grep -qF -- "$pat" "$T/err"; then
		echo "ok $n - $what"
	else
		echo "not ok $n - $what"; fail=$((fail+1)); sed 's/^/# /' "$T/err" "$T/out"
	fi; }

cat >"$T/fig4.topo" <<'E'
nodes 6
capacity 2G
link 1 5
link 5 4 1G   # 1->4 drawn as a two-hop path
link 1 3
link 3 4 1G
link 2 3
E
printf '1 4\n2 4 routing=rps\n' >"$T/fig4.flows"
out=$("$R" alloc --topology "file:$T/fig4.topo" --flows "$T/fig4.flows" --headroom 0)
check "Figure 4 via the CLI: both flows 666.7Mbit/s" "[ \$(grep -c 'rate 666.7Mbit/s' <<<\"\$out\") = 2 ] && [ \$(grep -c '^flow' <<<\"\$out\") = 2 ]"
out=$("$R" -j alloc --topology "file:$T/fig4.topo" --flows "$T/fig4.flows" --headroom 0)
check "-j prints JSON: rate_bps 666666667 for each of the two flows, total 1333333333" \
	"jt \"\$out\" '(.flows | map([.index, .src, .dst, .rate_bps])) == [[0, 1, 4, 666666667], [1, 2, 4, 666666667]] and .total_bps == 1333333333'"
# the same flows with f1 on DOR (the direct path alone): {1G, 1G}
printf '1 4 routing=dor\n2 4 routing=rps\n' >"$T/fig4dor.flows"
out=$("$R" -j alloc --topology "file:$T/fig4.topo" --flows "$T/fig4dor.flows" --headroom 0)
check "Figure 4 with f1 on DOR: both flows 1Gbit/s" \
	"jt \"\$out\" '(.flows | map(.rate_bps)) == [1000000000, 1000000000]'"
printf '0 511 routing=vlb\n1 2 weight=2 prio=1 demand=1G\n3 100 routing=dor long\n5 6 long\n' >"$T/t.flows"
out=$("$R" -j alloc --topology torus:8x8x8 --flows "$T/t.flows" --policy propfair --capacity 40G)
# the demand-capped flow gets its demand exactly, the DOR flow (one path)
# at most the 38G a link leaves after 5 % headroom; the rest near the
# optimum (solved to a 1e-6 duality gap: 216.70G 1G 37.05G 36.19G); the
# CLI's 1e-3 gap over three flows leaves each within 0.5 %; the total is
# the sum rounded once, so within 2 bit/s of the rounded rates' sum
check "propfair on torus:8x8x8: the 4 flows' rates (216.7G, 1G demand, 37.05G <= 38G, 36.19G), total their sum" \
	"jt \"\$out\" '[216.70e9, 1e9, 37.05e9, 36.19e9] as \$w | .flows as \$f | (\$f | length) == 4 and
		\$f[1].rate_bps == 1000000000 and \$f[2].rate_bps <= 38e9 and
		([range(4)] | all(. as \$i | ((\$f[\$i].rate_bps - \$w[\$i]) | fabs) <= 5e-3 * \$w[\$i])) and
		((.total_bps - (\$f | map(.rate_bps) | add)) | fabs) <= 2'"
for i in $(seq 0 40); do echo "$((i % 64)) $(((i * 7 + 13) % 64)) long"; done >"$T/t2.flows"
a=$("$R" route-select --topology torus:4x4x4 --flows "$T/t2.flows" --seed 5 --threads 2)
b=$("$R" route-select --topology torus:4x4x4 --flows "$T/t2.flows" --seed 5 --threads 1)
check "route-select reproducible for a seed (1 or 2 threads)" "[ \"\$a\" = \"\$b\" ]"
a=$("$R" -j route-select --topology torus:4x4x4 --flows "$T/t2.flows" --seed 5 --threads 2)
# the selection beats the current all-RPS assignment (392.4G -> 450.6G)
# and is at least as good as every baseline it prints
check "route-select: selected > current (all-RPS) and >= all-rps, all-vlb, all-dor, random" \
	"jt \"\$a\" '.utilities as \$u | \$u.selected_bps > \$u.current_bps and \$u.current_bps == \$u.all_rps_bps and
		([\$u.all_rps_bps, \$u.all_vlb_bps, \$u.all_dor_bps, \$u.random_bps] | all(. != null and \$u.selected_bps >= .))'"
# and its utility is what alloc computes for the routing it printed
jq -r '.flows[] | "\(.src) \(.dst) routing=\(.routing)"' <<<"$a" >"$T/sel.flows"
out=$("$R" -j alloc --topology torus:4x4x4 --flows "$T/sel.flows")
check "route-select: alloc of the selected routing gives the selected utility" \
	"jt \"\$out\" '((.total_bps - \$s) | fabs) <= 1e-6 * \$s' --argjson s \"\$(jq .utilities.selected_bps <<<\"\$a\")\""
printf '0 1\n1 0 weight=2\n0 1 routing=vlb\n' >"$T/ring2.flows"
out=$("$R" alloc --topology torus:2 --flows "$T/ring2.flows" --capacity 1G --headroom 0); rc=$?
check "alloc on torus:2 (two-node ring) exits 0 (got $rc)" "[ $rc = 0 ]"
# ports 0 and 1 of each node both lead to the other: two links each way
check "torus:2: two flows 0 -> 1 get 1Gbit/s each, 1 -> 0 alone 2Gbit/s" "grep -q '^flow 0: .*rate 1Gbit/s' <<<\"\$out\" && grep -q '^flow 1: .*rate 2Gbit/s' <<<\"\$out\" && grep -q '^flow 2: .*rate 1Gbit/s' <<<\"\$out\""
out=$("$R" route-select --topology torus:2 --flows "$T/ring2.flows" --seed 1); rc=$?
check "route-select on torus:2 exits 0 (got $rc)" "[ $rc = 0 ] && grep -q all-rps <<<\"\$out\""

# -j: a flow's weight is a JSON number, as rate_bps and prio are
printf '0 1 weight=2\n0 1 weight=1.5\n0 1\n' >"$T/jw.flows"
out=$("$R" -j alloc --topology torus:4x4 --flows "$T/jw.flows")
check "-j alloc: weights 2, 1.5 and 1 are JSON numbers" \
	"jt \"\$out\" '(.flows | map(.weight)) == [2, 1.5, 1]'"

printf '0 99\n' >"$T/unk.flows"
bad "unknown node names file and line" "unk.flows:1: unknown node 99" alloc --topology torus:4x4 --flows "$T/unk.flows"
printf '# c\n0 1\n0 1 weight=x\n' >"$T/mal.flows"
bad "malformed weight names line 3" "mal.flows:3: weight" alloc --topology torus:4x4 --flows "$T/mal.flows"
# weights: the wire's 1..255; tiny, huge or far-apart weights gave
# NaN, unwritten or overloading rates with exit 0
for w in 1e308 1e-320 0 0.5 256 1e16 inf nan; do
	printf '0 1\n0 1 weight=%s\n' "$w" >"$T/w.flows"
	bad "weight=$w rejected with the range" "w.flows:2: weight must be a number in 1..255, got '$w'" alloc --topology torus:4x4 --flows "$T/w.flows"
done
printf '0 1 weight=255\n0 1 weight=1.5\n0 1 weight=1\n' >"$T/w.flows"
out=$("$R" alloc --topology torus:4x4 --flows "$T/w.flows" --capacity 257.5 --headroom 0)
check "weights 255, 1.5 and 1 accepted, shared 255:1.5:1" "grep -q 'rate 255bit/s' <<<\"\$out\" && grep -q 'rate 1.5bit/s' <<<\"\$out\""
# a finite number overflows with its suffix (1e300T): an infinite demand
# or capacity reached the allocator ("allocation failed: Invalid argument")
printf '0 1\n0 1 demand=1e300T\n' >"$T/d.flows"
bad "demand=1e300T rejected with the range" "d.flows:2: demand must be a rate with 0 < RATE <= 1e+18 bit/s, got '1e300T'" alloc --topology torus:4x4 --flows "$T/d.flows"
printf '0 1 demand=1000000T\n' >"$T/d.flows"
out=$("$R" alloc --topology torus:4x4 --flows "$T/d.flows")
check "demand=1000000T (1e18 bit/s) accepted" "grep -q 'rate 9.5Gbit/s' <<<\"\$out\""
bad "--capacity 1e300T rejected with the range" '"1e300T" (expected a rate such as 10G, 0 < RATE <= 1e18 bit/s)' alloc --topology torus:4x4 --flows "$T/d.flows" --capacity 1e300T
printf 'nodes 2\ncapacity 1e300T\nlink 0 1\n' >"$T/cap.topo"
bad "topology capacity 1e300T names the line" "cap.topo:2: expected 'capacity RATE' with 0 < RATE <= 1e+18 bit/s" alloc --topology "$T/cap.topo" --flows "$T/d.flows"
printf 'nodes 2\nlink 0 1 1e300T\n' >"$T/cap.topo"
bad "link rate 1e300T names the line" "cap.topo:2: malformed rate '1e300T' (0 < RATE <= 1e+18 bit/s)" alloc --topology "$T/cap.topo" --flows "$T/d.flows"
# nine links into node 0 from nine nodes, each with one port used
{ echo "nodes 10"; for i in 1 2 3 4 5 6 7 8 9; do echo "link $i 0"; done; } >"$T/in9.topo"
bad "9 links into a node: file and line" "in9.topo:10: node 0 has more than 8 links into it" alloc --topology "$T/in9.topo" --flows "$T/d.flows"
printf '0 1 routing=ecmp\n' >"$T/proto.flows"
bad "unknown protocol" "proto.flows:1: unknown routing protocol 'ecmp'" alloc --topology torus:4x4 --flows "$T/proto.flows"
printf '0\n' >"$T/short.flows"
bad "missing destination" "short.flows:1: expected 'SRC DST" alloc --topology torus:4x4 --flows "$T/short.flows"
printf 'nodes 3\nlink 0 1 0\n' >"$T/zero.topo"
bad "zero capacity names topology line" "zero.topo:2: link 0 -> 1 has zero capacity" alloc --topology "$T/zero.topo" --flows "$T/short.flows"
printf 'nodes 3\nlink 0 7\n' >"$T/unk.topo"
bad "unknown node in topology" "unk.topo:2: unknown node '7'" alloc --topology "$T/unk.topo" --flows "$T/short.flows"
bad "zero --capacity rejected" "capacity" alloc --topology torus:4x4 --flows "$T/fig4.flows" --capacity 0
# the message lists every form the parser takes (one to three radices)
bad "bad torus spec: every accepted form" "topology 'torus:8x1': expected torus:K1[xK2[xK3]], mesh:K1[xK2[xK3]], file:PATH or PATH, each K in 2..255" alloc --topology torus:8x1 --flows "$T/fig4.flows"
bad "bad mesh spec: every accepted form" "topology 'mesh:2x2x2x2': expected torus:K1[xK2[xK3]], mesh:K1[xK2[xK3]], file:PATH or PATH, each K in 2..255" alloc --topology mesh:2x2x2x2 --flows "$T/fig4.flows"
# the allocator's node limit (R2C2_ALLOC_MAX_NODES), named, before any work
bad "torus:17x17x17: more nodes than the allocator takes" "topology 'torus:17x17x17': 4913 nodes, more than the allocator takes (4096)" alloc --topology torus:17x17x17 --flows "$T/fig4.flows"
printf 'nodes 4097\nlink 0 1\n' >"$T/big.topo"
bad "nodes 4097 in a file: its line and the limit" "big.topo:1: expected 'nodes N' with N in 1..4096 (the allocator's limit)" alloc --topology "$T/big.topo" --flows "$T/fig4.flows"
printf '0 1\n' >"$T/01.flows"
for spec in torus:2 mesh:2 torus:2x2 mesh:2x2x2; do
	"$R" alloc --topology $spec --flows "$T/01.flows" >/dev/null 2>&1; rc=$?
	check "$spec, a form the message names, accepted (got $rc)" "[ $rc = 0 ]"
done
bad "missing flow file" "nosuch.flows" alloc --topology torus:4x4 --flows "$T/nosuch.flows"
printf '1 2\n' >"$T/unreach.flows"
bad "unreachable pair" "unreach.flows:1: node 1 cannot reach node 2" alloc --topology "$T/fig4.topo" --flows "$T/unreach.flows"
# a missing option or value names the option and what it takes
bad "no --flows: the option and what it takes" 'alloc: flows FILE is required (the flow file, one flow a line)' alloc --topology torus:4x4
bad "--flows without a value: the option and what it takes" 'alloc: "flows" needs a value: FILE (the flow file, one flow a line)' alloc --topology torus:4x4 --flows
bad "route-select without --topology: the option and its forms" 'route-select: topology SPEC is required (torus:K1[xK2[xK3]], mesh:K1[xK2[xK3]], file:PATH or PATH)' route-select --flows "$T/jw.flows"
bad "--seed without a value: the option and its range" 'route-select: "seed" needs a value: N (0..18446744073709551615)' route-select --topology torus:4x4 --flows "$T/jw.flows" --seed
bad "an unknown option last is unknown, not missing a value" 'unknown argument "--bogus"' alloc --topology torus:4x4 --flows "$T/jw.flows" --bogus
# --protos: at most 63 characters; longer lists were cut there silently
p63=$(printf 'rps,dor,vlb,%.0s' 1 2 3 4 5)rps
"$R" route-select --topology torus:4x4 --flows "$T/jw.flows" --protos "$p63" >/dev/null 2>"$T/err"; rc=$?
check "--protos of 63 characters accepted (got $rc)" "[ $rc = 0 ]"
bad "--protos of 64 characters refused with the limit" "invalid protos \"$p63,\" (at most 63 characters, a comma list of rps, dor, vlb, wlb)" route-select --topology torus:4x4 --flows "$T/jw.flows" --protos "$p63,"
bad "--protos with an unknown protocol past character 63 refused" "invalid protos \"$p63,dor,bogus\" (at most 63 characters" route-select --topology torus:4x4 --flows "$T/jw.flows" --protos "$p63,dor,bogus"
# keywords as in the rest of r2c2ctl (iproute2's grammar); the long
# options stay as aliases and give the same answer
a=$("$R" -j alloc --topology torus:4x4 --flows "$T/jw.flows" --policy propfair --headroom 0.1 --capacity 1G 2>&1)
b=$("$R" -j alloc topology torus:4x4 flows "$T/jw.flows" policy propfair headroom 0.1 capacity 1G 2>&1)
check "alloc: keywords and long options give the same rates" "[ -n \"\$a\" ] && [ \"\$a\" = \"\$b\" ]"
a=$("$R" -j route-select --topology torus:4x4 --flows "$T/jw.flows" --seed 7 --protos rps,dor --generations 5 --threads 1 2>&1)
b=$("$R" -j route-select topology torus:4x4 flows "$T/jw.flows" seed 7 protos rps,dor generations 5 threads 1 2>&1)
check "route-select: keywords and long options give the same choice" "[ -n \"\$a\" ] && [ \"\$a\" = \"\$b\" ]"
bad "a keyword's value checked as the option's" 'invalid headroom "2" (out of range' alloc topology torus:4x4 flows "$T/jw.flows" headroom 2
bad "a route-select keyword is not an alloc one" 'unknown argument "seed"' alloc topology torus:4x4 flows "$T/jw.flows" seed 3
# a NUL byte: named with its line and column, not taken for a long line
printf '0 1\n0 1\0 weight=2\n' >"$T/nul.flows"
bad "NUL byte in a flow file: line and column" "nul.flows:2: NUL byte at column 4" alloc --topology torus:4x4 --flows "$T/nul.flows"
{ echo '0 1'; printf '0 1 %01100d\n' 0; } >"$T/long.flows"
bad "a line of 1100 characters: too long" "long.flows:2: line too long" alloc --topology torus:4x4 --flows "$T/long.flows"
printf '0 1\n1 0 weight=3' >"$T/nonl.flows"
out=$("$R" alloc --topology torus:4x4 --flows "$T/nonl.flows")
check "a last line without a newline is read" "grep -q '^flow 1: 1 -> 0 rps weight 3 ' <<<\"\$out\""
printf 'nodes 2\nlink 0\0 1\n' >"$T/nul.topo"
bad "NUL byte in a topology file: line and column" "nul.topo:2: NUL byte at column 7" alloc --topology "$T/nul.topo" --flows "$T/jw.flows"
# a directory where a file is expected: the file and the reason
mkdir "$T/dir"
bad "a directory as the flow file: read error with the reason" "dir: read error: Is a directory" alloc --topology torus:4x4 --flows "$T/dir"
bad "a directory as the topology file: read error with the reason" "dir: read error: Is a directory" alloc --topology "file:$T/dir" --flows "$T/jw.flows"
echo "1..$n"
[ $fail -eq 0 ]
