#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# r2c2ctl_test.sh - r2c2ctl without the kernel module (TAP).
#
#   help of every object; usage errors exit 2 and name the bad token,
#   before anything is sent; a missing family says how to load the module
#   and exits 1; then, with the kernel's side replayed from fixtures
#   (tests/r2c2ctl_nl.py, R2C2CTL_REPLAY), the text and JSON of every
#   object, the kernel's errors and extack messages, and the exact
#   requests each command sends (R2C2CTL_SENT).
#
# Runs the ASan+UBSan build (make test builds it); R2C2CTL=path overrides.
set -u
cd "$(dirname "$0")/.." || exit 1

CTL=${R2C2CTL:-build/tests/r2c2ctl-san}
NL=tests/r2c2ctl_nl.py
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0
failed=0

pass() { n=$((n + 1)); echo "ok $n - $1"; }
fail() {
	n=$((n + 1)); failed=$((failed + 1))
	echo "not ok $n - $1"
	shift
	local l
	for l in "$@"; do echo "#   $l"; done
	sed 's/^/#   stdout: /' "$T/out" | head -n 20
	sed 's/^/#   stderr: /' "$T/err" | head -n 20
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }

# run ARGS...: stdout in $T/out, stderr in $T/err, status in $rc
run() {
	"$CTL" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}

# replay SCENARIO ARGS...: run with the kernel's side read from a fixture
replay() {
	local sc=$1
	shift
	python3 "$NL" build "$sc" "$T/$sc.bin" || { rc=99; return; }
	R2C2CTL_REPLAY="$T/$sc.bin" R2C2CTL_SENT="$T/sent.bin" run "$@"
}

expect_rc() { # DESC WANT
	if [ "$rc" -eq "$2" ]; then pass "$1"; else fail "$1" "exit $rc, want $2"; fi
}

expect_out() { # DESC WANT (exact stdout, status 0, empty stderr)
	local got
	got=$(cat "$T/out")
	if [ "$rc" -ne 0 ]; then
		fail "$1" "exit $rc, want 0"
	elif [ "$got" != "$2" ]; then
		fail "$1" "stdout differs; want:" "$2"
	elif [ -s "$T/err" ]; then
		fail "$1" "unexpected stderr"
	else
		pass "$1"
	fi
}

# the kernel's answer refused: exit 1, "malformed" on stderr
expect_malformed() { # DESC
	if [ "$rc" -eq 1 ] && grep -q 'malformed' "$T/err"; then
		pass "$1"
	else
		fail "$1" "exit $rc, want 1 and \"malformed\" on stderr"
	fi
}
expect_err() { # DESC RC WANT (exact stderr)
	local got
	got=$(cat "$T/err")
	if [ "$rc" -ne "$2" ]; then
		fail "$1" "exit $rc, want $2"
	elif [ "$got" != "$3" ]; then
		fail "$1" "stderr differs; want:" "$3"
	else
		pass "$1"
	fi
}

# json_check DESC PYTHON-EXPR: stdout is JSON (python3 -m json.tool) and
# EXPR holds for it, as d; S is the header's counter enum
json_check() {
	if ! python3 -m json.tool "$T/out" >/dev/null 2>&1; then
		fail "$1" "stdout is not valid JSON"
		return
	fi
	if python3 - "$T/out" "$2" <<'EOF'; then pass "$1"; else fail "$1" "false: $2"; fi
import json, sys
sys.path.insert(0, "tests")
from r2c2ctl_nl import S
names = [k[len("R2C2_S_"):].lower() for k in S
         if k.startswith("R2C2_S_") and k != "R2C2_S_UNSPEC"]
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)
EOF
}

# json_lines DESC N: stdout is N lines, each a JSON value
json_lines() {
	local lines bad=0 line
	lines=$(wc -l <"$T/out")
	while IFS= read -r line; do
		printf '%s' "$line" | python3 -m json.tool >/dev/null 2>&1 || bad=1
	done <"$T/out"
	if [ "$rc" -ne 0 ] || [ "$lines" -ne "$2" ] || [ "$bad" -ne 0 ]; then
		fail "$1" "exit $rc, $lines lines (want $2), invalid line: $bad"
	else
		pass "$1"
	fi
}

# expect_sent DESC WANT: the requests sent, decoded one a line
expect_sent() {
	local got
	got=$(python3 "$NL" decode "$T/sent.bin" 2>&1)
	if [ "$rc" -ne 0 ]; then
		fail "$1" "exit $rc"
	elif [ "$got" != "$2" ]; then
		fail "$1" "sent:" "$got" "want:" "$2"
	else
		pass "$1"
	fi
	rm -f "$T/sent.bin"
}

if [ ! -x "$CTL" ]; then
	echo "1..0 # SKIP $CTL not built (make -C userspace test builds it)"
	exit 0
fi

# ---- help ---------------------------------------------------------------
run help
expect_rc "help exits 0" 0
objects=$(sed -n 's/^where  OBJECT  := { \(.*\) }$/\1/p' "$T/out" | tr -d '|')
[ -n "$objects" ] && pass "help lists the objects" ||
	fail "help lists the objects" "no 'where OBJECT := { ... }' line"
for o in node port neigh topo tree route stats flow event routes monitor; do
	case " $objects " in
	*" $o "*) ;;
	*) fail "help lists $o" "missing from: $objects"; continue ;;
	esac
done
for flag in -h --help; do
	run "$flag"
	if [ "$rc" -eq 0 ] && grep -q '^Usage: r2c2ctl' "$T/out"; then
		pass "$flag prints usage"
	else
		fail "$flag prints usage"
	fi
done
for o in $objects; do
	run "$o" help
	cp "$T/out" "$T/help1"
	if [ "$rc" -eq 0 ] && [ ! -s "$T/err" ] && grep -q "r2c2ctl.* $o" "$T/out"; then
		pass "$o help"
	else
		fail "$o help" "want status 0 and a usage naming $o"
	fi
	run help "$o"
	if [ "$rc" -eq 0 ] && cmp -s "$T/out" "$T/help1"; then
		pass "help $o is $o help"
	else
		fail "help $o is $o help"
	fi
done
run node set addr 1 help
expect_rc "help inside a command line" 0
run
expect_rc "no object: usage, exit 2" 2

run -V
if [ "$rc" -eq 0 ] && grep -q '^r2c2ctl [0-9]' "$T/out"; then pass "-V"; else fail "-V"; fi
run -j -V
json_check "-j -V is JSON" 'd["genl_family"] == "r2c2" and d["genl_version"] == 1 and d["version"]'
run -j -p --version
json_check "-j -p --version is JSON" '"version" in d'

# ---- usage errors: exit 2, the bad token named, nothing sent --------------
python3 "$NL" build ack "$T/ack.bin"
usage() { # TOKEN ARGS...
	local tok=$1
	shift
	R2C2CTL_REPLAY="$T/ack.bin" R2C2CTL_SENT="$T/usage-sent.bin" run "$@"
	if [ "$rc" -ne 2 ]; then
		fail "usage error: $*" "exit $rc, want 2"
	elif ! grep -qF "\"$tok\"" "$T/err"; then
		fail "usage error: $*" "stderr does not name \"$tok\""
	elif [ -s "$T/out" ]; then
		fail "usage error: $*" "unexpected stdout"
	else
		pass "usage error: $*"
	fi
}
usage 9 port add 9 dev p0
usage 70000 node set addr 70000
usage foo route get 3 routing foo
usage 12X event send flow 1 dst 2 demand 12X
usage torus:1x3 node set topology torus:1x3
usage 65535 node set addr 65535
usage abc node set addr abc
usage maybe node set reseq maybe
usage 5 node set reseq-timeout 5
usage 256 node set reseq-flow-limit 256
usage -1 node set addr -1
usage " 5" node set addr " 5"
usage 5 node set hello 5
usage 60001 node set hello 60001
usage 0 node set trees 0
usage 17 node set trees 17
usage torus:3x3x3x3 node set topology torus:3x3x3x3
usage torus:256x2 node set topology torus:256x2
usage torus:3x node set topology torus:3x
usage ring:4 node set topology ring:4
usage 0x10 node set ethertype 0x10
usage a/b node set ifname a/b
usage thisnameistoolong port add 1 dev thisnameistoolong
usage p0 port add p0 dev p0
usage 8 port del 8
usage x port show x
usage 0x100000000 flow set 0x100000000 routing rps
usage bogus flow set 1 routing bogus
usage 256 event send flow 1 dst 2 weight 256
usage 0 event send flow 1 dst 2 weight 0
usage 16 event send flow 1 dst 2 prio 16
usage restart event send flow 1 dst 2 type restart
usage 2T event send flow 1 dst 2 demand 2T
usage M event send flow 1 dst 2 demand M
usage -5M event send flow 1 dst 2 demand -5M
usage 10Mbitz event send flow 1 dst 2 demand 10Mbitz
usage 3:0x1a routes send 3:0x1a
usage 70000 routes send 70000:1=rps
usage ecmp routes send 3:1=ecmp
usage 0 route get 3 count 0
usage 0 monitor count 0
usage -1 monitor timeout -1
usage 0 monitor timeout 0
usage 1.2345 monitor timeout 1.2345
usage frobnicate node frobnicate
usage bogus bogus show
usage --frob --frob node show
usage addr node set addr
usage addr node set addr 1 addr 2
usage extra node show extra
usage nope tree show src 1 nope
usage "dev IFNAME" port add 1
usage "dst ADDR" event send flow 1
usage "routing PROTO" flow set 1
R2C2CTL_REPLAY="$T/ack.bin" R2C2CTL_SENT="$T/usage-sent.bin" run node set
expect_rc "node set without options: exit 2" 2
R2C2CTL_REPLAY="$T/ack.bin" R2C2CTL_SENT="$T/usage-sent.bin" run route get
expect_rc "route get without DST: exit 2" 2
if [ -e "$T/usage-sent.bin" ]; then
	fail "usage errors send nothing" "a request was sent"
else
	pass "usage errors send nothing"
fi

# ---- -b FILE and -n NETNS -------------------------------------------------
printf '# comment\n\nhelp node\n  help port # more\n' >"$T/batch"
run -b "$T/batch"
if [ "$rc" -eq 0 ] && grep -q "port add" "$T/out" && grep -q "node set" "$T/out"; then
	pass "-b: every line runs (comments, blank lines)"
else
	fail "-b: every line runs (comments, blank lines)"
fi
printf 'help node\nnode frob\nhelp port\n' >"$T/batch"
run -b - <"$T/batch"
if [ "$rc" -eq 2 ] && grep -q "^Command failed -:2$" "$T/err" && ! grep -q "port add" "$T/out"; then
	pass "-b: stops at the first failing line, names it, its status"
else
	fail "-b: stops at the first failing line, names it, its status" "exit $rc"
fi
run -b "$T/batch" node show
expect_rc "-b with a command: exit 2" 2
run -n r2c2_test_absent_ns node show
expect_err "-n: a namespace that does not exist, exit 1" 1 \
	'r2c2ctl: cannot open network namespace "r2c2_test_absent_ns": No such file or directory'
printf 'help node\n-n r2c2_test_absent_ns help port\n' >"$T/batch"
run -b "$T/batch"
expect_err "-b: -n on a line, a namespace that does not exist, exit 1" 1 \
	"$(printf '%s\n' 'r2c2ctl: cannot open network namespace "r2c2_test_absent_ns": No such file or directory' "Command failed $T/batch:2")"

# ---- --check ---------------------------------------------------------------
# every line parsed and built, nothing sent, no namespace entered, on a
# host without the module (R2C2CTL_FAMILY names a family that is not there)
printf 'node set addr 3 hello 100\n-n r2c2_test_absent_ns port add 0 dev eth1\nclass add 1 weight 4\nnode show\n' >"$T/batch"
rm -f "$T/sent.bin"
R2C2CTL_FAMILY=r2c2_test_absent R2C2CTL_SENT="$T/sent.bin" run --check -b "$T/batch"
if [ "$rc" -eq 0 ] && [ ! -s "$T/out" ] && [ ! -s "$T/err" ] && [ ! -s "$T/sent.bin" ]; then
	pass "--check -b: a valid file (an absent namespace, no module): exit 0, nothing sent or printed"
else
	fail "--check -b: a valid file (an absent namespace, no module): exit 0, nothing sent or printed" "exit $rc" "$(cat "$T/err")"
fi
printf 'node set addr 3\nport add 0 dev eth1\nport add 9 dev eth2\n' >"$T/batch"
R2C2CTL_FAMILY=r2c2_test_absent run -C -b "$T/batch"
expect_err "-C -b: port 9 refused with its line, exit 2" 2 \
	"$(printf '%s\n' 'r2c2ctl: invalid port "9" (expected 0..7)' 'Try "r2c2ctl port help".' "Command failed $T/batch:3")"
run --check daemon show
expect_err "--check: daemon commands refused, exit 2" 2 \
	"$(printf '%s\n' 'r2c2ctl: --check: daemon commands talk to r2c2d and cannot be checked' 'Try "r2c2ctl daemon help".')"

# ---- the module is not loaded --------------------------------------------
absent() { # FAMILY: the message for a missing family
	echo "r2c2ctl: the r2c2 kernel module is not loaded (generic netlink family \"$1\" not found); try: modprobe r2c2"
}
R2C2CTL_FAMILY=r2c2_test_absent run node show
expect_err "missing family: message, exit 1" 1 "$(absent r2c2_test_absent)"
R2C2CTL_FAMILY=r2c2_test_absent run -j port show
if [ "$rc" -eq 1 ] && [ ! -s "$T/out" ]; then
	pass "missing family: no JSON on stdout"
else
	fail "missing family: no JSON on stdout"
fi
R2C2CTL_FAMILY=r2c2_test_absent run monitor timeout 0.1
expect_err "missing family: monitor, exit 1" 1 "$(absent r2c2_test_absent)"
if [ -d /sys/module/r2c2 ]; then
	skip "module not loaded: plain node show" "r2c2 is loaded here"
else
	run node show
	expect_err "module not loaded: plain node show" 1 "$(absent r2c2)"
fi

# ---- objects, through replayed kernel messages ---------------------------
replay node node show
expect_out "node show" "node 5 dev r2c0 routing rps trees 4 hello 1000ms topology torus:3x3 (ok) nodes 9 links 36 tables gen 7"
replay node -j node show
json_check "node show -j" 'd == {"addr": 5, "ifname": "r2c0", "ifindex": 7, "ethertype": 34997, "routing": "rps", "trees": 4, "hello_ms": 1000, "topology": "torus:3x3", "topology_ok": True, "nodes": 9, "links": 36, "tables_gen": 7}'
cp "$T/out" "$T/compact"
replay node -j -p node show
json_check "node show -j -p" "d == json.load(open('$T/compact'))"
[ "$(wc -l <"$T/out")" -gt 5 ] && pass "-p indents" || fail "-p indents"
replay node_none node show
expect_out "node show, no topology" "node 5 dev r2c0 routing rps trees 4 hello 1000ms topology none nodes 9 links 36 tables gen 7"
replay node_none -j node show
json_check "node show -j, no topology" 'd["topology"] == "none" and d["topology_ok"] is None'
replay node_mismatch node show
expect_out "node show, mismatch" "node 5 dev r2c0 ethertype 0x88b6 routing rps trees 4 hello 1000ms topology torus:4x2x2 (mismatch) nodes 9 links 36 tables gen 7"
replay node_evil -j node show
json_check "hostile interface name: valid JSON" 'd["ifname"] == "a\"b\\c\x01\x7f\ufffd\u20ac"'
replay node_malformed node show
expect_malformed "malformed attribute: exit 1"
replay keys key show
expect_out "key show" "key id 2 overlap 6000ms prev id 1 for 4500ms"
replay keys -j key show
json_check "key show -j" 'd == {"set": True, "id": 2, "overlap_ms": 6000, "prev_id": 1, "prev_ms": 4500}'
# every attribute is checked against its type (userspace/lib/genl.c), the
# key's too: a u32 of one byte is refused, not read past
replay keys_malformed key show
expect_malformed "key show, a u32 of one byte: malformed, exit 1"

replay ports port show
expect_out "port show" "port 0 dev p0 state neighbour node 1 port 1 mac 02:52:32:43:00:01 age 120ms
port 1 dev p1 state down
port 2 dev p2 state up
port 3 dev p3 state neighbour node 2 port 0 mac 02:52:32:43:00:02 age 120ms"
replay ports port show 3
expect_out "port show 3" "port 3 dev p3 state neighbour node 2 port 0 mac 02:52:32:43:00:02 age 120ms"
replay ports -s port show
if [ "$rc" -eq 0 ] && grep -q '^    rx_packets 1  rx_bytes 2  tx_packets 3  tx_bytes 4$' "$T/out" &&
	grep -q '^    .*drop_bad_lsa 326' "$T/out" && [ "$(grep -c '^port' "$T/out")" -eq 4 ]; then
	pass "port show -s"
else
	fail "port show -s"
fi
replay ports -j port show
json_check "port show -j" 'len(d) == 4 and d[0] == {"port": 0, "dev": "p0", "ifindex": 10, "state": "neighbour", "neighbour": {"addr": 1, "port": 1, "mac": "02:52:32:43:00:01", "age_ms": 120}} and d[1]["neighbour"] is None and d[2]["state"] == "up" and all("stats" not in p for p in d)'
replay ports -j -s port show
json_check "port show -j -s: every counter by name" 'list(d[0]["stats"]) == names and all(d[1]["stats"][k] == 100 + 1 + i for i, k in enumerate(names)) and "stats" not in d[2]'

replay ports neigh show
expect_out "neigh show" "node 1 port 1 mac 02:52:32:43:00:01 via port 0 dev p0 age 120ms
node 2 port 0 mac 02:52:32:43:00:02 via port 3 dev p3 age 120ms"
replay ports -j neigh show
json_check "neigh show -j" 'd == [{"addr": 1, "neighbour_port": 1, "mac": "02:52:32:43:00:01", "port": 0, "dev": "p0", "ifindex": 10, "age_ms": 120}, {"addr": 2, "neighbour_port": 0, "mac": "02:52:32:43:00:02", "port": 3, "dev": "p3", "ifindex": 13, "age_ms": 120}]'

replay topo topo show
expect_out "topo show" "node 0
    port 0 neighbour 1 port 1
    port 2 neighbour 3 port 3
node 1
    port 1 neighbour 0 port 0
node 4"
replay topo -j topo show
json_check "topo show -j" 'd == [{"addr": 0, "links": [{"port": 0, "neighbour": 1, "neighbour_port": 1}, {"port": 2, "neighbour": 3, "neighbour_port": 3}]}, {"addr": 1, "links": [{"port": 1, "neighbour": 0, "neighbour_port": 0}]}, {"addr": 4, "links": []}]'

replay trees tree show
expect_out "tree show" "src 0 tree 0 parent none ports 0 2
src 0 tree 1 parent none ports 1
src 3 tree 0 parent 2 ports none
src 3 tree 1 parent 1 ports 0 3"
replay trees -j tree show src 3
json_check "tree show -j src 3" 'd == [{"src": 3, "tree": 0, "parent_port": 2, "ports": []}, {"src": 3, "tree": 1, "parent_port": 1, "ports": [0, 3]}]'
replay trees -j tree show src 0
json_check "tree show -j: root's parent is null" '[t["parent_port"] for t in d] == [None, None] and d[0]["ports"] == [0, 2]'

replay route route get 8
expect_out "route get" "0 2 2"
replay route -j route get 8 routing dor
json_check "route get -j" 'd == {"dst": 8, "routing": "dor", "hops": [0, 2, 2]}'
replay route_count route get 8 count 1000
expect_out "route get count" "dst 8 routing rps samples 1000 nodes 9
node 0 port 0 count 500
node 0 port 2 count 500
node 1 port 2 count 250
node 4 port 1 count 7"
replay route_count -j route get 8 count 1000
json_check "route get count -j" 'd["nodes"] == 9 and d["samples"] == 1000 and d["links"] == [{"node": 0, "port": 0, "count": 500}, {"node": 0, "port": 2, "count": 500}, {"node": 1, "port": 2, "count": 250}, {"node": 4, "port": 1, "count": 7}]'

replay stats stats show
if [ "$rc" -eq 0 ] && [ "$(wc -l <"$T/out")" -eq "$(python3 "$NL" enum r2c2_stat | grep -vc -e UNSPEC -e __)" ] &&
	grep -q '^rx_packets  *1$' "$T/out"; then
	pass "stats show: a line a counter"
else
	fail "stats show: a line a counter"
fi
replay stats -j stats show
json_check "stats show -j" 'list(d) == names and all(d[k] == i + 1 for i, k in enumerate(names))'

replay flows flow show
expect_out "flow show" "flow 0x0000001a dst 5 routing vlb seq 10 packets 10 bytes 15000 age 12ms
flow 0xdeadbeef dst 2 routing rps demand unlimited seq 0 packets 18446744073709551615 bytes 0 age 0ms"
replay flows -j flow show
json_check "flow show -j" 'd[0] == {"flow": "0x0000001a", "dst": 5, "routing": "vlb", "seq": 10, "packets": 10, "bytes": 15000, "age_ms": 12} and d[1]["packets"] == 2**64 - 1 and d[1]["demand_kbps"] is None'

replay reseq reseq show
expect_out "reseq show" "node 1 reseq on timeout 300us (in force 2000us) flow-limit 128 limit 4096
    held 2 max-depth 51 flows 1
    depth samples 100 p50 0 p95 5 p99 5 max 51
    depth when held samples 30 p50 1 p95 5 p99 51 max 51
flow 3:0x0000001a next 1000 held 2 max-depth 51 age 4ms"
replay reseq -j -s reseq show
json_check "reseq show -j -s" 'd["node"]["enabled"] is True and d["node"]["timeout_eff_us"] == 2000 and d["node"]["depth_held"] == {"samples": 30, "p50": 1, "p95": 5, "p99": 51, "max": 51} and len(d["node"]["hist"]) == 257 and d["flows"] == [{"src": 3, "flow": "0x0000001a", "next_seq": 1000, "held": 2, "max_depth": 51, "age_ms": 4}]'
replay empty_dump reseq show
expect_out "reseq show: empty dump" ""

replay events monitor
expect_out "monitor" "flow start src 3 flow 0x0000001a dst 5 weight 2 prio 1 demand 100Mbit routing rps
topo node 5 nodes 9 links 36 tables gen 8 topology ok
routes from 0 3:0x0000001a=vlb 4:0x00000002=rps
flow finish src 4 flow 0x00000002 dst 1 weight 2 prio 1 demand unlimited routing dor"
replay events -j monitor
json_lines "monitor -j: a JSON object a line" 4
cp "$T/out" "$T/mon"
sed -n 1p "$T/mon" >"$T/out"
json_check "monitor -j: flow event" 'd == {"event": "flow", "type": "start", "src": 3, "flow": "0x0000001a", "dst": 5, "weight": 2, "prio": 1, "demand_kbps": 100000, "routing": "rps"}'
sed -n 2p "$T/mon" >"$T/out"
json_check "monitor -j: topo event" 'd == {"event": "topo", "addr": 5, "nodes": 9, "links": 36, "tables_gen": 8, "topology_ok": True}'
sed -n 3p "$T/mon" >"$T/out"
json_check "monitor -j: routes event" 'd == {"event": "routes", "from": 0, "routes": [{"src": 3, "flow": "0x0000001a", "routing": "vlb"}, {"src": 4, "flow": "0x00000002", "routing": "rps"}]}'
sed -n 4p "$T/mon" >"$T/out"
json_check "monitor -j: unlimited demand is null" 'd["type"] == "finish" and d["demand_kbps"] is None'
replay events -j -p monitor count 2
json_lines "monitor -j -p count 2: two compact lines" 2

# ---- kernel errors ------------------------------------------------------
replay error_extack port add 3 dev p3
expect_err "kernel error with extack: exit 1" 1 "r2c2ctl: port add: port 3 is already attached (Device or resource busy)"
replay error_plain node del
expect_err "kernel error without extack: exit 1" 1 "r2c2ctl: node del: No such device"
replay error_eperm stats reset
expect_err "EPERM: hint" 1 "r2c2ctl: stats reset: Operation not permitted
r2c2ctl: changing r2c2 needs CAP_NET_ADMIN (run as root)"
replay error_intmin node del
expect_err "error code INT_MIN: a protocol error, exit 1" 1 "r2c2ctl: node del: Protocol error"
replay dump_intmin port show
expect_err "dump ending in INT_MIN: a protocol error, exit 1" 1 "r2c2ctl: port show: Protocol error"
replay ack_warning node set hello 15
expect_err "extack warning on success: exit 0" 0 "r2c2ctl: node set: warning: hello interval rounded to 10 ms"
replay dump_error -j port show
if [ "$rc" -eq 1 ] && grep -qF "r2c2ctl: port show: dump interrupted: node deleted (Invalid argument)" "$T/err" &&
	python3 -m json.tool "$T/out" >/dev/null 2>&1; then
	pass "failed dump: exit 1, extack, stdout still JSON"
else
	fail "failed dump: exit 1, extack, stdout still JSON"
fi
replay empty_dump port show
expect_out "empty dump: nothing" ""
replay empty_dump -j flow show
json_check "empty dump -j: []" 'd == []'
: >"$T/nothing.bin"
R2C2CTL_REPLAY="$T/nothing.bin" run node show
if [ "$rc" -eq 1 ] && grep -q 'replay ended' "$T/err"; then
	pass "no answer: exit 1"
else
	fail "no answer: exit 1"
fi

# ---- what is sent -------------------------------------------------------
rm -f "$T/sent.bin"
replay ack node set addr 5 ifname r2c0 topology torus:3x3x2 hello 1000 trees 4 routing vlb ethertype 0x88b5
expect_sent "node set: every attribute" "NODE_SET ack NODE_ADDR=5 IFNAME=\"r2c0\" ETHERTYPE=34997 TOPO_DIMS{TOPO_DIM=3 TOPO_DIM=3 TOPO_DIM=2} HELLO_MS=1000 TREES=4 RPROTO=2"
replay ack node set reseq off reseq-timeout 500 reseq-flow-limit 64 reseq-limit 1000
expect_sent "node set: resequencing" "NODE_SET ack RESEQ=0 RESEQ_TIMEOUT_US=500 RESEQ_FLOW_LIMIT=64 RESEQ_LIMIT=1000"
replay ack node set topology none
expect_sent "node set topology none: empty nest" "NODE_SET ack TOPO_DIMS{}"
replay ack node del
expect_sent "node del" "NODE_DEL ack"
replay node node show
expect_sent "node show" "NODE_GET ack"
# a netdev this host lacks: no XDP program to follow the port onto it
replay ack port add 7 dev r2c2nodev7
expect_sent "port add" "PORT_ADD ack PORT=7 PORT_IFNAME=\"r2c2nodev7\""
replay port_del port del 0
expect_sent "port del" "PORT_GET dump
PORT_DEL ack PORT=0"
replay ports port show
expect_sent "port show is a dump" "PORT_GET dump"
replay trees tree show src 3
expect_sent "tree show src" "TREE_GET dump TREE_SRC=3"
replay route_count route get 8 routing vlb count 5
expect_sent "route get" "ROUTE_GET ack DST=8 RPROTO=2 COUNT=5"
replay ack stats reset
expect_sent "stats reset" "STATS_RESET ack"
replay ack flow set 0x1a routing dor
expect_sent "flow set" "FLOW_SET ack FLOW_ID=26 RPROTO=1"
replay ack event send flow 0xdeadbeef dst 5
expect_sent "event send: type start by default" "FLOW_EVENT ack FLOW_ID=3735928559 DST=5 FLOW_EVT=1"
replay ack event send dst 5 flow 26 type update weight 3 prio 15 demand 1500k routing rps
expect_sent "event send: every attribute" "FLOW_EVENT ack FLOW_ID=26 DST=5 FLOW_EVT=3 WEIGHT=3 PRIO=15 DEMAND_KBPS=1500 RPROTO=0"
for r in 100M:100000 10G:10000000 1500k:1500 1.5Gbit:1500000 1:1 0:0 \
	1000:1 1001:2 2.5k:3 1T:1000000000 unlimited:1073741823 1073741822k:1073741822 \
	10Mbps:10000 4.35M:4350 2.3M:2300 0.001k:1; do
	replay ack event send flow 1 dst 2 demand "${r%%:*}"
	expect_sent "demand ${r%%:*} is ${r#*:} Kbit/s" "FLOW_EVENT ack FLOW_ID=1 DST=2 FLOW_EVT=1 DEMAND_KBPS=${r#*:}"
done
usage 1073741823k event send flow 1 dst 2 demand 1073741823k
replay ack routes send 3:0x1a=vlb 4:2=rps
expect_sent "routes send" "ROUTES_SEND ack ROUTES{ROUTE_ENT{FLOW_SRC=3 FLOW_ID=26 RPROTO=2} ROUTE_ENT{FLOW_SRC=4 FLOW_ID=2 RPROTO=0}}"
routes=$(for i in $(seq 1 212); do printf '1:%d=rps ' "$i"; done)
# shellcheck disable=SC2086
replay ack routes send $routes
rc_212=$rc
rm -f "$T/sent.bin"
# shellcheck disable=SC2086
run routes send $routes 1:213=rps
if [ "$rc_212" -eq 0 ] && [ "$rc" -eq 2 ]; then
	pass "routes send: 212 fit, 213 do not"
else
	fail "routes send: 212 fit, 213 do not" "212: exit $rc_212, 213: exit $rc"
fi

# ---- prefixes of objects and commands (iproute2's matches()) ---------------
# a unique prefix is the word; "n" is node and "s" show (the read-only
# one) where they would be ambiguous; exact names win; an ambiguous
# prefix is a usage error naming every candidate, nothing sent
replay node n s
expect_sent "n s is node show" "NODE_GET ack"
replay node nod sh
expect_sent "nod sh is node show" "NODE_GET ack"
replay flows fl sh
expect_sent "fl sh is flow show" "FLOW_GET dump"
replay ports ne
expect_sent "ne is neigh (show)" "PORT_GET dump"
replay route route g 8 r dor
expect_sent "route g 8 r dor: keywords by prefix" "ROUTE_GET ack DST=8 RPROTO=1"
replay ack sta res
expect_sent "sta res is stats reset" "STATS_RESET ack"
replay ack k de
expect_sent "k de is key del(ete)" "KEY_DEL ack"
replay ack n se a 5 i r2c0 e 0x88b5 to torus:3x3x2 h 1000 tr 4 r vlb
expect_sent "n se: node set's keywords by prefix" "NODE_SET ack NODE_ADDR=5 IFNAME=\"r2c0\" ETHERTYPE=34997 TOPO_DIMS{TOPO_DIM=3 TOPO_DIM=3 TOPO_DIM=2} HELLO_MS=1000 TREES=4 RPROTO=2"
replay ack node set t torus:3x3
expect_sent "node set t: topology before trees (the first keyword wins)" "NODE_SET ack TOPO_DIMS{TOPO_DIM=3 TOPO_DIM=3}"
replay trees tree s s 3
expect_sent "tree s s 3 is tree show src 3" "TREE_GET dump TREE_SRC=3"
replay node n h
expect_rc "n h is node help" 0
grep -q '^Usage: r2c2ctl node set' "$T/out" && pass "n h prints node's usage" ||
	fail "n h prints node's usage"
ambiguous() { # WANT ARGS...: exit 2, WANT on stderr, nothing sent
	local want=$1
	shift
	R2C2CTL_REPLAY="$T/ack.bin" R2C2CTL_SENT="$T/amb-sent.bin" run "$@"
	if [ "$rc" -ne 2 ]; then
		fail "ambiguous: $*" "exit $rc, want 2"
	elif ! grep -qxF "r2c2ctl: $want" "$T/err"; then
		fail "ambiguous: $*" "stderr does not say: $want"
	elif [ -s "$T/amb-sent.bin" ]; then
		fail "ambiguous: $*" "a request was sent"
	else
		pass "ambiguous: $*"
	fi
}
ambiguous 'ambiguous object "ro": route, routes, route-select' ro get 8
ambiguous 'ambiguous object "r": route, routes, rate, reseq, route-select' r
ambiguous 'ambiguous object "tr": tree, traceroute' tr 8
ambiguous 'ambiguous object "p": port, ping, path' p s
run route sh
expect_err "a word no command starts with is the object's to refuse" 2 'r2c2ctl: unknown route command "sh"
Try "r2c2ctl route help".'
run help ro
expect_err "help ro: ambiguous" 2 'r2c2ctl: ambiguous object "ro": route, routes, route-select
Try "r2c2ctl help".'

# ---- traceroute -------------------------------------------------------------
usage 1001 traceroute 6 count 1001
usage x traceroute x
run traceroute
expect_rc "traceroute without DST" 2
replay traceroute trac 6 r rps c 3
expect_out "traceroute: two paths, hop by hop through topo" "traceroute from node 5 to node 6, routing rps, 3 samples
path drawn 2 of 3 times, 2 hops
  1  node 5 port 0 -> node 3 (port 1)
  2  node 3 port 2 -> node 6 (port 3)
path drawn 1 of 3 times, 2 hops
  1  node 5 port 2 -> node 8 (port 3)
  2  node 8 port 0 -> node 6 (port 1)"
expect_sent "traceroute: NODE_GET, TOPO_GET, ROUTE_GET per sample" "NODE_GET ack
TOPO_GET dump
ROUTE_GET ack DST=6 RPROTO=0
ROUTE_GET ack DST=6 RPROTO=0
ROUTE_GET ack DST=6 RPROTO=0"
replay traceroute -j traceroute 6 count 3
json_check "traceroute -j" 'd["src"] == 5 and d["dst"] == 6 and d["routing"] == "rps" and d["samples"] == 3 and [p["count"] for p in d["paths"]] == [2, 1] and d["paths"][1]["hops"] == [{"hop": 1, "node": 5, "port": 2, "to": 8, "to_port": 3}, {"hop": 2, "node": 8, "port": 0, "to": 6, "to_port": 1}] and all(p["reaches_dst"] for p in d["paths"])'
replay traceroute_bad traceroute 6 rproto dor
expect_err "traceroute: a hop off the graph exits 1" 1 'r2c2ctl: traceroute: 1 of the paths do not reach node 6 through the graph'
grep -q '^  2  node 3 port 2 -> ?$' "$T/out" && pass "traceroute: the unknown far end is ?" ||
	fail "traceroute: the unknown far end is ?"
replay error_extack traceroute 6
expect_rc "traceroute: kernel error exits 1" 1
rm -f "$T/sent.bin"

# ---- ping: the command line (the echo itself: selftests/ctl_test.sh) --------
usage 0 ping 6 count 0
usage 5 ping 6 interval 5
usage foo ping 6 routing foo
run ping
expect_rc "ping without DST" 2
replay error_extack ping 6
expect_err "ping: the kernel's refusal exits 1, before any echo" 1 'r2c2ctl: node show: port 3 is already attached (Device or resource busy)'
rm -f "$T/sent.bin"

# ---- sch_r2c2: rate set, qflow show -----------------------------------------
usage 0 rate set 1 0
usage 2T rate set 1 2T
usage 999 rate set 1 999
usage bogus qflow show bogus
run rate set 1
expect_rc "rate set: FLOWID without RATE" 2
replay ack rate set 0x1a 10M 2 1.5G
expect_sent "rate set" "RATE_SET ack RATES{RATE_ENT{FLOW_ID=26 RATE=10000000} RATE_ENT{FLOW_ID=2 RATE=1500000000}}"
printf '# comment\n0x1a 1k\n\n7 2M # trailing\n' >"$T/rates"
replay ack rate set file "$T/rates"
expect_sent "rate set file" "RATE_SET ack RATES{RATE_ENT{FLOW_ID=26 RATE=1000} RATE_ENT{FLOW_ID=7 RATE=2000000}}"
printf '0x1a 1k\n7 0\n' >"$T/rates"
run rate set file "$T/rates"
expect_rc "rate set file: a bad line sends nothing" 2
replay error_extack rate set 1 1M
expect_rc "rate set: kernel error exits 1" 1
replay qflows qflow show
expect_out "qflow show" "flow 0x0000001a dst 5 sport 20000 dport 9 rate 4Mbit (set, lease 1500ms) qlen 3 backlog 3126b packets 10 bytes 10420 drops 0 age 1ms
flow 0x00000007 rate 1500bit (safe) qlen 0 backlog 0b packets 1 bytes 70 drops 2 age 900ms"
replay qflows -j qflow show
json_check "qflow show -j" 'd[0] == {"flow": "0x0000001a", "dst": 5, "sport": 20000, "dport": 9, "rate": 4000000, "state": "set", "lease_ms": 1500, "qlen": 3, "backlog": 3126, "packets": 10, "bytes": 10420, "drops": 0, "age_ms": 1} and d[1]["state"] == "safe" and "sport" not in d[1]'

# ---- daemon show: r2c2d's answer, whoever sends it --------------------------
# serve_answer SOCKET FILE: answer one client on the abstract SOCKET with
# FILE, as r2c2d would (any local user may listen there when no r2c2d does)
serve_answer() {
	python3 - "$1" "$2" <<'PY' &
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind("\0" + sys.argv[1][1:])
s.listen(1)
s.settimeout(30)
open(sys.argv[2] + ".up", "w").close()
c, _ = s.accept()
c.recv(64)
c.sendall(open(sys.argv[2], "rb").read())
c.close()
PY
	srv=$!
	for _ in $(seq 100); do [ -e "$2.up" ] && break; sleep 0.05; done
}
# answer NAME FILE [ARGS]: daemon show (or ARGS) against FILE as the answer
answer() {
	local f=$2
	shift 2
	serve_answer "@r2c2ctl-test-$$" "$f"
	R2C2D_SOCKET="@r2c2ctl-test-$$" run "${@:-daemon show}"
	wait "$srv"
	rm -f "$f.up"
}
# an answer nested a million deep overflowed the stack of the text printer
printf '%*s\n' 1000000 '' | tr ' ' '[' >"$T/deep.json"
answer deep "$T/deep.json" daemon show
expect_rc "daemon show: an answer nested a million deep is refused, not a crash" 1
grep -q 'not one JSON value' "$T/err" && [ ! -s "$T/out" ]
rc=$?
expect_rc "daemon show: ... with a message and nothing printed" 0
# the text printer reads JSON strings as JSON: escapes decoded, an
# escaped quote inside a value, \u escapes (a surrogate pair too)
printf '%s\n' '{"config":{"flow_file":"/etc/a \"b\"\\c","name":"caf\u00e9 \ud83d\ude00"},"n":[1,-2.5e3,true,null]}' >"$T/esc.json"
answer esc "$T/esc.json" daemon show
expect_out "daemon show: escaped strings decoded" "
config:
flow_file /etc/a \"b\"\\c
name café 😀
n:
  1
  -2.5e3
  true
  null"
# what is not one JSON value is refused whole, printing nothing
for bad in '{"a":1' '{"a":1}x' '{"a" 1}' '{"a":01}' '{"a":"\q"}' '{"a":"\ud800"}' "{\"a\":\"$(printf '\t')\"}" '[1,]' ' '; do
	printf '%s' "$bad" >"$T/bad.json"
	answer bad "$T/bad.json" daemon show
	[ "$rc" = 1 ] && grep -q 'not one JSON value' "$T/err" && [ ! -s "$T/out" ]
	rc=$?
	expect_rc "daemon show: '$bad' refused, nothing printed" 0
done
# r2c2d's error: the message decoded, exit 1; an "error" key deeper is data
printf '%s\n' '{"error":"permission denied: \"uid 7\""}' >"$T/err.json"
answer err "$T/err.json" daemon show
[ "$rc" = 1 ] && grep -qx 'r2c2ctl: r2c2d: permission denied: "uid 7"' "$T/err"
rc=$?
expect_rc "daemon show: r2c2d's error message decoded, exit 1" 0
printf '%s\n' '{"flows":[{"error":"none"}]}' >"$T/nested.json"
answer nested "$T/nested.json" daemon show
expect_rc "daemon show: an \"error\" key inside the answer is not an error" 0

echo "1..$n"
[ "$failed" -eq 0 ]
