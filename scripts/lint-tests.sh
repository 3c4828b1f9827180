#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# lint-tests.sh - refuse test code that can pass on nothing (TAP, one
# check a rule; userspace/tests/lint_test.sh runs it in make check).
#
#   1. No raw `jq -e` (or --exit-status) in the shell tests and the
#      scripts that check: under Debian's jq 1.6 it exits 0 on empty
#      input, so `cmd | jq -e FILTER` passes when cmd printed nothing.
#      Use json_assert (selftests/json_assert.sh), which fails on empty
#      input, or `jq FILTER | grep -qx true` where json_assert is not at
#      hand (a command run inside a guest).
#   2. Every selftests/*_test.sh and selftests/fuzz_rack.sh announces
#      its plan (ksft_plan N): a file that stops early then has each
#      check it did not report counted as a failure. A file that only
#      runs another one (exec bash "$(dirname "$0")/OTHER_test.sh") has
#      OTHER's plan.
#   3. The lists of selftest files make check reads (selftests/kernels,
#      icount-files, tcg-single-files, debug-subset, vng-subset) name
#      files that exist, and selftests/kernels only the kernels 6.1 and
#      6.12: a renamed file
#      would otherwise drop out of a step, or run on both kernels,
#      unnoticed.
#   4. Every mutant of userspace/tests/mutants.list and
#      selftests/kernel-mutants.list still applies: its snippet is in its
#      file exactly once (scripts/mutants.sh -c; make mutants and make
#      kernel-mutants are not in make check, their lists must not rot).
#
#	scripts/lint-tests.sh [DIR]	lint the tree at DIR (default: this one)
set -u
top=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 2
n=0 fail=0

result() {	# RESULT-LINES NAME
	n=$((n + 1))
	if [[ -z $1 ]]; then
		echo "ok $n - $2"
	else
		fail=$((fail + 1))
		echo "not ok $n - $2"
		sed 's/^/# /' <<<"$1"
	fi
}

echo "1..4"
mapfile -t files < <(ls selftests/*.sh scripts/*.sh userspace/tests/*.sh \
	tools/*/*.sh dist/r2c2-node 2>/dev/null | grep -vE '^(selftests/json_assert|scripts/lint-tests)\.sh$')
# a jq whose options (before its filter) hold -e, or --exit-status
raw=$(grep -nE "(^|[^[:alnum:]_-])jq(([[:space:]]+--?[[:alnum:]-]+)*[[:space:]]+-[[:alnum:]]*e[[:alnum:]]*([[:space:]]|$)|[^|;&]*--exit-status)" \
	"${files[@]}" | grep -vE '^[^:]+:[0-9]+:[[:space:]]*#')
result "$raw" "no raw jq -e in the tests: json_assert instead ($(wc -w <<<"${files[*]}") files)"

noplan=
for f in selftests/*_test.sh selftests/fuzz_rack.sh; do
	[[ -f $f ]] || continue
	# a variant that runs another file (xdp_links_test.sh) has that
	# file's plan
	# shellcheck disable=SC2016  # a literal $0 in the pattern
	t=$(sed -nE 's|^.*exec bash "\$\(dirname "\$0"\)/([a-z0-9_]+\.sh)".*$|selftests/\1|p' "$f")
	[[ -n $t && -f $t ]] && f=$t
	grep -qE '^[[:space:]]*ksft_plan[[:space:]]' "$f" || noplan+="$f: no ksft_plan"$'\n'
done
result "${noplan%$'\n'}" "every selftest file announces its plan (ksft_plan)"

stale=$(for l in kernels icount-files tcg-single-files debug-subset vng-subset; do
	[[ -f selftests/$l ]] || { echo "selftests/$l: missing"; continue; }
	sed -E 's/#.*//' "selftests/$l" | awk -v l="selftests/$l" '
		NF == 0 { next }
		{ print l ":" NR ": " $0 }' |
	while IFS= read -r line; do
		set -- ${line#*: }
		[[ -f selftests/$1 ]] || echo "$line: no selftests/$1"
		if [[ $l == kernels ]]; then
			(($# >= 2)) || echo "$line: no kernel named"
			shift
			for k in "$@"; do
				[[ $k == 6.1 || $k == 6.12 ]] || echo "$line: kernel '$k' (6.1, 6.12)"
			done
		fi
	done
done)
result "$stale" "selftests/kernels, icount-files, tcg-single-files, debug-subset, vng-subset name existing files and kernels"

rot=$( { bash scripts/mutants.sh -c; bash scripts/mutants.sh -K 6.12 -c; } 2>&1 |
	grep -E '^not ok|^mutants:')
result "$rot" "the mutants' snippets are each in their file once (scripts/mutants.sh -c, -K 6.12 -c)"
((fail == 0))
