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
		echo "not ok $n - selftests: r2c2: $t # TIMEOUT ${limit}s" ;;
	*)	fail=$((fail + 1)); echo "not ok $n - selftests: r2c2: $t # exit=$rc" ;;
	esac
done
echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:$skip error:0"
((fail == 0))
