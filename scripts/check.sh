#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh - set up and run every r2c2 test; what `make check` and CI run.
#
#   1. setup        scripts/setup.sh (apt packages, kernels, sources)
#   2. build        make modules KVER=<abi> for each kernel (W=1, a warning
#                   fails); make checkpatch; make userspace;
#                   make -C tc; make -C selftests/tools (when they exist)
#   3. userspace    make -C userspace test (TAP)
#   4. kunit        scripts/kunit.sh (UML, KASAN, lockdep)
#   5. vm-<kernel>  scripts/vm-run --kernel <abi> -- selftests/run.sh (TAP)
#
# A step whose tests do not exist yet (no userspace test target, no
# kunit/*.c, no selftests/*_test.sh) is skipped; a step that exists and
# fails makes the whole run fail. Results are counted from TAP ("ok",
# "not ok", "# SKIP"), from kunit.py's summary, and one result per build.
# The last line is "N passed, N failed[, N skipped]".
#
# Environment:
#   R2C2_CHECK_STEPS    steps to run (default: "setup build userspace kunit vm")
#   R2C2_CHECK_KERNELS  kernels for build and vm (default: "6.1 6.12")
#   R2C2_VM_TIMEOUT     limit of each VM run in seconds (default: 1800)
set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$REPO" || exit 1
CACHE=${R2C2_CACHE:-/var/cache/r2c2}
STEPS=" ${R2C2_CHECK_STEPS:-setup build userspace kunit vm} "
KERNELS=${R2C2_CHECK_KERNELS:-6.1 6.12}
LOGDIR=$REPO/build/check
mkdir -p "$LOGDIR"

passed=0 failed=0 skipped=0
report=()
t_start=$SECONDS

section() {
	printf '\n'
	printf '=%.0s' {1..72}
	printf '\n== %s\n' "$*"
	printf '=%.0s' {1..72}
	printf '\n'
}

# note STEP P F S [DETAIL]: add to the totals and the final table.
note() {
	passed=$((passed + $2)) failed=$((failed + $3)) skipped=$((skipped + $4))
	report+=("$(printf '%-22s %4d passed %4d failed %4d skipped  %s' "$1" "$2" "$3" "$4" "${5:-}")")
}

want() { [[ $STEPS == *" $1 "* ]]; }

# Count top-level TAP results of a log: sets tp tf ts.
count_tap() {
	local log=$1
	tp=$(grep -aEc '^ok [0-9]+' "$log" | tr -d ' ')
	ts=$(grep -aEc '^ok [0-9]+.*# *(SKIP|skip)' "$log" | tr -d ' ')
	tf=$(grep -aEc '^not ok [0-9]+' "$log" | tr -d ' ')
	tp=$((tp - ts))
}

# run_logged NAME CMD...: run a command, output to the terminal and to
# $LOGDIR/NAME.log; returns its exit status.
run_logged() {
	local name=$1; shift
	local t0=$SECONDS rc
	"$@" 2>&1 | tee "$LOGDIR/$name.log"
	rc=${PIPESTATUS[0]}
	printf -- '-- %s: exit status %d after %ds\n' "$name" "$rc" $((SECONDS - t0))
	return "$rc"
}

# ---------------------------------------------------------------- setup
if want setup; then
	section "setup: scripts/setup.sh"
	if run_logged setup bash scripts/setup.sh; then
		note setup 1 0 0
	else
		note setup 0 1 0 "setup.sh failed: nothing else can run"
		section "summary"
		printf '%s\n' "${report[@]}"
		printf '%d passed, %d failed\n' "$passed" "$failed"
		exit 1
	fi
fi

# Kernel names (6.1, 6.12) to ABIs.
abi_of() {
	case $1 in
	6.1) sed -n 1p "$CACHE/kernels" 2>/dev/null ;;
	6.12) sed -n 2p "$CACHE/kernels" 2>/dev/null ;;
	*) echo "$1" ;;
	esac
}

# ---------------------------------------------------------------- build
declare -A built=()
if want build; then
	for k in $KERNELS; do
		abi=$(abi_of "$k")
		section "build: make modules KVER=${abi:-?} ($k)"
		if [[ -z $abi ]]; then
			note "build-$k" 0 1 0 "unknown kernel (run scripts/setup.sh)"
		elif run_logged "build-$k" make modules KVER="$abi"; then
			built[$k]=1
			# W=1 and no warnings: a warning fails the step
			if grep -aq 'warning:' "$LOGDIR/build-$k.log"; then
				note "build-$k" 0 1 0 "compiler warnings (W=1)"
			else
				note "build-$k" 1 0 0
			fi
		else
			note "build-$k" 0 1 0 "module build failed"
		fi
	done
	if [[ -d $CACHE/linux-source-6.1/scripts ]]; then
		section "build: make checkpatch (checkpatch.pl --strict)"
		if run_logged checkpatch make checkpatch; then
			note checkpatch 1 0 0
		else
			note checkpatch 0 1 0 "checkpatch.pl --strict found problems"
		fi
	fi
	if [[ -f userspace/Makefile ]]; then
		section "build: make userspace"
		if run_logged build-userspace make userspace; then
			note build-userspace 1 0 0
		else
			note build-userspace 0 1 0 "userspace build failed"
		fi
	fi
	# The tc plugin and the selftests' helper programs, when present
	# (the VM runner copies them into the guest).
	for d in tc selftests/tools; do
		[[ -f $d/Makefile ]] || continue
		name=build-${d//\//-}
		section "build: make -C $d"
		if run_logged "$name" make -C "$d"; then
			note "$name" 1 0 0
		else
			note "$name" 0 1 0 "build failed"
		fi
	done
fi

# ---------------------------------------------------------------- userspace
if want userspace; then
	section "userspace tests: make -C userspace test"
	if [[ ! -f userspace/Makefile ]] || ! grep -q '^test:' userspace/Makefile; then
		echo "no userspace test target: skipped"
		note userspace 0 0 1 "no tests yet"
	else
		rc=0
		run_logged userspace make -C userspace test || rc=$?
		count_tap "$LOGDIR/userspace.log"
		if ((rc != 0 && tf == 0)); then
			tf=1
		fi
		note userspace "$tp" "$tf" "$ts" "$( ((rc == 0)) || echo "make exit $rc")"
	fi
fi

# ---------------------------------------------------------------- kunit
if want kunit; then
	section "kunit: scripts/kunit.sh (UML, KASAN, PROVE_LOCKING)"
	rc=0
	run_logged kunit bash scripts/kunit.sh || rc=$?
	line=$(grep -a '^kunit: [0-9]* passed' "$LOGDIR/kunit.log" | tail -n 1)
	kp=$(sed -n 's/^kunit: \([0-9]*\) passed.*/\1/p' <<<"$line")
	kf=$(sed -n 's/.* \([0-9]*\) failed.*/\1/p' <<<"$line")
	ks=$(sed -n 's/.* \([0-9]*\) skipped.*/\1/p' <<<"$line")
	kp=${kp:-0} kf=${kf:-0} ks=${ks:-0}
	if ((rc == 4)); then
		note kunit 0 0 1 "no kunit/*.c suites"
	else
		((rc != 0 && kf == 0)) && kf=1
		note kunit "$kp" "$kf" "$ks" "$( ((rc == 0)) || echo "kunit.sh exit $rc")"
	fi
fi

# ---------------------------------------------------------------- vm
if want vm; then
	have_tests=0
	for t in selftests/*_test.sh; do [[ -f $t ]] && have_tests=1; done
	for k in $KERNELS; do
		section "vm selftests on $k: scripts/vm-run --kernel $k -- selftests/run.sh"
		if ((!have_tests)); then
			echo "no selftests/*_test.sh: skipped"
			note "vm-$k" 0 0 1 "no selftests yet"
			continue
		fi
		if want build && [[ -z ${built[$k]:-} ]]; then
			echo "note: the module build for $k failed; tests needing r2c2.ko skip or fail"
		fi
		rc=0
		run_logged "vm-$k" scripts/vm-run --kernel "$k" \
			--timeout "${R2C2_VM_TIMEOUT:-1800}" -- selftests/run.sh || rc=$?
		count_tap "$LOGDIR/vm-$k.log"
		if ((rc != 0 && tf == 0)); then
			# Boot failure, panic, timeout: no TAP failure to show for it.
			tf=1
		fi
		note "vm-$k" "$tp" "$tf" "$ts" "$( ((rc == 0)) || echo "vm-run exit $rc")"
	done
fi

# ---------------------------------------------------------------- summary
section "summary ($((SECONDS - t_start))s; logs in build/check/)"
printf '%s\n' "${report[@]}"
echo
if ((skipped > 0)); then
	printf '%d passed, %d failed, %d skipped\n' "$passed" "$failed" "$skipped"
else
	printf '%d passed, %d failed\n' "$passed" "$failed"
fi
((failed == 0))
