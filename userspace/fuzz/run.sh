#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - make -C userspace fuzz-run: each harness RUNS times over its
# seed corpus (fuzz/corpus/NAME/, read only: what it adds goes to
# build/fuzz/corpus/NAME/, not committed), one after the other, then a
# line a harness: executions, seconds, exec/s, coverage (edges, features)
# and the corpus it ended with. Fails when any harness reports a crash, a
# leak, a sanitizer error or a timeout (its input is left in
# build/fuzz/artifacts/).
#
#	fuzz/run.sh RUNS NAME_fuzz...
set -u
cd "$(dirname "$0")/.." || exit 2
runs=$1
shift
mkdir -p build/fuzz/artifacts
fail=0
sum=()
for h in "$@"; do
	name=${h%_fuzz}
	work=build/fuzz/corpus/$name log=build/fuzz/$name.log
	mkdir -p "$work"
	echo "== $h: $runs runs over fuzz/corpus/$name/ ($(date -u +%FT%TZ))"
	t0=$(date +%s.%N)
	build/fuzz/"$h" -runs="$runs" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix=build/fuzz/artifacts/"$name"- \
		"$work" fuzz/corpus/"$name" >"$log" 2>&1
	rc=$?
	t1=$(date +%s.%N)
	grep -aE '^#[0-9]+[[:space:]]+(INITED|DONE)|^Done|^stat::' "$log" | sed 's/^/   /'
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	init=$(grep -aE '^#[0-9]+[[:space:]]+INITED' "$log" | sed -E 's/.*cov: ([0-9]+) ft: ([0-9]+).*/\1 \2/')
	done_=$(grep -aE '^#[0-9]+[[:space:]]+DONE' "$log" | sed -E 's/.*cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+).*/\1 \2 \3/')
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }')
	if [ "$rc" -ne 0 ] || ! grep -aq '^Done' "$log" ||
	   grep -aqE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|ALARM: working on' "$log"; then
		fail=$((fail + 1))
		echo "   FAILED (exit status $rc): $log"
		grep -aE 'ERROR|SUMMARY|runtime error|Test unit written' "$log" | head -5 | sed 's/^/   /'
		sum+=("$(printf '%-10s FAILED, see %s' "$name" "$log")")
		continue
	fi
	read -r c0 f0 <<<"$init"
	read -r c1 f1 n1 <<<"$done_"
	sum+=("$(printf '%-10s %9s runs %6s s %7s exec/s  edges %s -> %s  features %s -> %s  corpus %s' \
		"$name" "${execs:-?}" "$secs" "${rate:-?}" "${c0:-?}" "${c1:-?}" "${f0:-?}" "${f1:-?}" "${n1:-?}")")
done
echo "== clang: $(${FUZZ_CC:-clang} --version | head -1)"
printf '%s\n' "${sum[@]}"
[ "$fail" -eq 0 ]
