#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run each userspace test binary and the CLI tests (tests/*_test.sh), all
# TAP producers, and print one TAP stream: each file's own TAP nested as
# "# " lines, then "ok N - FILE (P passed, F failed, S skipped)" or "not
# ok" for the file. Every check counts: a file that reports fewer checks
# than its plan (a crash, a sanitizer abort) gets one failure per missing
# check, one without a plan, one with none at all ("1..0" without a SKIP
# reason), one with more checks than its plan and a non-zero exit status
# with no failed check one failure each. The last line gives the totals of checks:
# "userspace: checks: P passed, F failed, S skipped (N files)".
set -uo pipefail
cd "$(dirname "$0")/.."
n=0 ffail=0 cpass=0 cfail=0 cskip=0

# tally LOG: "passed failed skipped plan" of a TAP log (plan -1: none),
# counted as selftests/run.sh counts a test file
tally() { awk -f ../selftests/tally.awk "$1"; }

run_one() {
	local name=$1 log=build/tests/$1.log rc=0 p f s plan k
	shift
	"$@" >"$log" 2>&1 || rc=$?
	read -r p f s plan < <(tally "$log")
	sed 's/^/# /' "$log"
	k=$((p + f + s))
	if ((plan < 0)); then
		f=$((f + 1))
		echo "# not ok $((k + 1)) - run.sh: $name: ended without a plan (exit status $rc)"
	elif ((k == 0)); then
		f=1
		echo "# not ok 1 - run.sh: $name: no check reported (exit status $rc)"
	elif ((k < plan)); then
		echo "# not ok $((k + 1)) - run.sh: $name: $((plan - k)) of its $plan checks not reported (exit status $rc)"
		f=$((f + plan - k))
	elif ((k > plan && !(plan == 0 && s == 1 && k == 1))); then
		f=$((f + 1))
		echo "# not ok $((k + 1)) - run.sh: $name: $k checks for a plan of $plan"
	elif ((rc != 0 && f == 0)); then
		f=1
		echo "# not ok $((k + 1)) - run.sh: $name: exit status $rc with no failed check"
	fi
	n=$((n + 1))
	cpass=$((cpass + p)) cfail=$((cfail + f)) cskip=$((cskip + s))
	if ((f == 0)); then
		echo "ok $n - $name ($p passed, 0 failed, $s skipped)"
	else
		ffail=$((ffail + 1))
		echo "not ok $n - $name ($p passed, $f failed, $s skipped)"
	fi
}

mkdir -p build/tests
for t in "$@"; do run_one "$(basename "$t")" "$t"; done
for t in tests/*_test.sh; do
	[ -e "$t" ] || continue
	run_one "$(basename "$t")" bash "$t"
done
echo "1..$n"
echo "userspace: checks: $cpass passed, $cfail failed, $cskip skipped ($n files, $ffail failed)"
[ "$cfail" -eq 0 ]
