#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The libFuzzer harnesses (fuzz/*_fuzz.c, built by make test through
# make fuzz) briefly, one check a harness: its seed corpus, then inputs
# of its own up to FUZZ_SMOKE_RUNS runs (10000) or FUZZ_SMOKE_SECS
# seconds (5), mutated from a fixed -seed so that a failure reproduces.
# A crash, a leak, a sanitizer report or a timeout fails the check and
# leaves the input in build/fuzz/artifacts/. Builds nothing: without
# clang and its libFuzzer runtime the file is skipped, saying so; with
# them, a harness not built fails. The long runs: make -C userspace
# fuzz-run (make check-fuzz-user).
set -u
cd "$(dirname "$0")/.." || exit 2
runs=${FUZZ_SMOKE_RUNS:-10000} secs=${FUZZ_SMOKE_SECS:-5}
cc=${FUZZ_CC:-clang}

if ! command -v "$cc" >/dev/null; then
	echo "1..0 # SKIP $cc not installed (apt-get install clang libclang-rt-14-dev)"
	exit 0
fi
if ! echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' |
	"$cc" -fsanitize=fuzzer -x c - -o /dev/null >/dev/null 2>&1; then
	echo "1..0 # SKIP $cc cannot link a fuzzer: no libFuzzer runtime (apt-get install libclang-rt-14-dev)"
	exit 0
fi
harnesses=()
for f in fuzz/*_fuzz.c; do
	[ -e "$f" ] && harnesses+=("$(basename "$f" .c)")
done
echo "1..${#harnesses[@]}"
mkdir -p build/fuzz/artifacts
n=0 fail=0
for h in "${harnesses[@]}"; do
	name=${h%_fuzz} bin=build/fuzz/$h log=build/fuzz/$name.smoke.log
	n=$((n + 1))
	if [ ! -x "$bin" ]; then
		echo "not ok $n - $name: $bin not built (make -C userspace fuzz)"
		fail=$((fail + 1))
		continue
	fi
	work=$(mktemp -d)
	start=$SECONDS
	"$bin" -runs="$runs" -max_total_time="$secs" -timeout=10 -seed=1 \
		-artifact_prefix=build/fuzz/artifacts/"$name"- \
		"$work" fuzz/corpus/"$name" >"$log" 2>&1
	rc=$?
	rm -rf "$work"
	done_=$(grep -a '^Done' "$log")
	if [ "$rc" -eq 0 ] && [ -n "$done_" ] &&
	   ! grep -aqE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:' "$log"; then
		seeds=$(find fuzz/corpus/"$name" -type f | wc -l)
		echo "ok $n - $name: ${done_#Done } over $seeds seeds and its own ($((SECONDS - start)) s)"
	else
		echo "not ok $n - $name: exit status $rc ($log)"
		grep -aE 'ERROR|SUMMARY|runtime error|_fuzz: |Test unit written' "$log" | head -6 | sed 's/^/# /'
		fail=$((fail + 1))
	fi
done
[ "$fail" -eq 0 ]
