#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - run the r2c2 selftests (selftests/*_test.sh), kselftest style.
#
#	selftests/run.sh                 every *_test.sh, sorted
#	selftests/run.sh torus_test.sh   only these
#
# Prints TAP 13: one "ok N - name" / "not ok N - name" / "ok N - name #
# SKIP" line per test file (exit 4 = skip), the test's own output
# indented as "# " comments. Runs as root (in the VM, or under vng).
# R2C2_SELFTEST_TIMEOUT (default 600) limits each test file, in seconds.
# Exit status: 0 if nothing failed.
set -uo pipefail

dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
limit=${R2C2_SELFTEST_TIMEOUT:-600}

tests=()
if (($# > 0)); then
	for t in "$@"; do
		t=${t##*/}
		[[ -f $dir/$t ]] || { echo "run.sh: no such test: $t" >&2; exit 2; }
		tests+=("$t")
	done
else
	for t in "$dir"/*_test.sh; do
		[[ -f $t ]] && tests+=("${t##*/}")
	done
fi

# after a test killed by the timeout: show what was still running (the
# cause), then kill every process left in a namespace and delete the
# namespaces, so that its leftovers (a qdisc holding sch_r2c2, ports)
# do not fail the tests after it
reap_timeout()
{
	local ns

	echo "# run.sh: $1 timed out; processes left:"
	ps -eo pid,stat,wchan:32,args --sort=pid | awk 'NR == 1 || $2 ~ /D/ ||
		/iperf3|r2c2ctl|r2c2d|r2c2_|socat|ping|nc / && !/awk|ps -eo/' |
		sed 's/^/#   /'
	for ns in $(ip netns list 2>/dev/null | awk '{ print $1 }'); do
		ip netns pids "$ns" 2>/dev/null | xargs -r kill -KILL 2>/dev/null
		ip netns delete "$ns" 2>/dev/null
	done
}

echo "TAP version 13"
echo "1..${#tests[@]}"
pass=0 fail=0 skip=0 n=0
for t in "${tests[@]}"; do
	n=$((n + 1))
	echo "# selftests: r2c2: $t"
	start=$SECONDS
	timeout -k 10 "$limit" bash "$dir/$t" 2>&1 | sed -u 's/^/# /'
	rc=${PIPESTATUS[0]}
	took=$((SECONDS - start))
	case $rc in
	0)	pass=$((pass + 1)); echo "ok $n - selftests: r2c2: $t (${took}s)" ;;
	4)	skip=$((skip + 1)); echo "ok $n - selftests: r2c2: $t # SKIP" ;;
	124|137) fail=$((fail + 1))
		reap_timeout "$t"
		echo "not ok $n - selftests: r2c2: $t # TIMEOUT ${limit}s" ;;
	*)	fail=$((fail + 1)); echo "not ok $n - selftests: r2c2: $t # exit=$rc" ;;
	esac
done
echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:$skip error:0"
((fail == 0))
