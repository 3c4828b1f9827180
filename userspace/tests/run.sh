#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run each userspace test binary (TAP producers) and the CLI tests
# (tests/*_test.sh); print one TAP stream and a closing summary line.
set -uo pipefail
cd "$(dirname "$0")/.."
pass=0 fail=0
run_one() {
	local name=$1; shift
	if "$@" >"build/tests/$name.log" 2>&1; then
		pass=$((pass + 1)); echo "ok $((pass + fail)) - $name"
	else
		fail=$((fail + 1)); echo "not ok $((pass + fail)) - $name"
		sed 's/^/# /' "build/tests/$name.log" | tail -n 40
	fi
}
mkdir -p build/tests
for t in "$@"; do run_one "$(basename "$t")" "$t"; done
for t in tests/*_test.sh; do
	[ -e "$t" ] || continue
	run_one "$(basename "$t")" bash "$t"
done
echo "1..$((pass + fail))"
echo "userspace: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
