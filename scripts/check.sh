#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh - set up and run every r2c2 test; what `make check` and CI run.
#
#   1. setup        scripts/setup.sh (apt packages, kernels, sources)
#   2. build        make modules KVER=<abi> for each kernel (W=1, a warning
#                   fails); scripts/kmod-layers.sh; make checkpatch;
#                   make userspace;
#                   make -C tc, ip; make -C selftests/tools (when they exist)
#   3. userspace    make -C userspace test (TAP)
#   4. kunit        scripts/kunit.sh: the KUnit suites, one module each
#                   (kunit/Kbuild), loaded in a guest of the 6.1 debug
#                   kernel (KUnit, KASAN, lockdep, UBSAN); after step 7,
#                   which builds that kernel and the modules
#   5. vm-<kernel>  scripts/vm-run --kernel <abi> -- selftests/run.sh (TAP):
#                   each file on the stock kernels selftests/kernels gives
#                   it (both unless it names one), the files of
#                   selftests/icount-files in a guest of their own
#                   (vm-<kernel>-icount) on the kernels it gives them,
#                   those of selftests/tcg-single-files in one whose
#                   vCPUs share a host thread (vm-<kernel>-tcg1);
#                   then capture-<kernel>: tools/wireshark/capture-check.sh on
#                   the capture selftests/capture_test.sh handed out (--out)
#   5b. install     scripts/check-install.sh: make install DESTDIR=... for
#                   each kernel, systemd-analyze verify of the units, and
#                   selftests/install_rack.sh in a guest that has only the
#                   installed files (make check-install)
#   5c. rack-<kernel>
#                   scripts/rack-check.sh --quick: a 2x2 rack of guests, one
#                   a node, on virtio-net links, from the installed tree; a
#                   link cut and a daemon restart; on 6.12 (both kernels
#                   with R2C2_CHECK_FULL; make check-rack runs all of it:
#                   IPv6, a node crash and return)
#   6. vng          the files of selftests/vng-subset under virtme-ng
#                   (vng --run, Debian's generic 6.1 kernel, the host's file
#                   system over 9p): `make -C selftests run_tests`
#   7. vm-debug     the files of selftests/debug-subset on the debug kernel
#                   (KASAN, kmemleak, lockdep, UBSAN: scripts/debug-kernel.sh),
#                   and one kmemleak check after the last of them (a file
#                   "kmemleak" of its own: R2C2_KMEMLEAK_AT=end of
#                   selftests/run.sh; R2C2_DEBUG_KMEMLEAK_AT=file scans
#                   after each file, as make check-debug does). The kernel is
#                   built in the background from the end of setup on, at
#                   nice 5 as lane 2 (below), so that the stock guests
#                   come first: on a fresh machine the build and then this
#                   guest are the longest chain of the run; nothing when
#                   the kernel is cached. `make check-debug`
#                   runs every file on it. The 6.12 debug kernel only
#                   with R2C2_CHECK_DEBUG_KERNELS (step vm-debug-6.12;
#                   `make check-debug-6.12`).
#
# Steps 3 to 7 run in two lanes, side by side (a guest keeps about one of
# the host's two cores busy): lane 1 the stock guests of step 5, install
# and vng, lane 2 (nice 5) the icount guests, userspace, vm-debug and
# kunit (both on the debug kernel, which a fresh machine builds meanwhile);
# then the rack alone. R2C2_CHECK_LANES=1: one step after the other, in
# the order above but kunit after vm-debug.
#
# A step whose tests do not exist yet (no userspace test target, no
# kunit/*.c, no selftests/*_test.sh) is skipped; a step that exists and
# fails makes the whole run fail. Results are counted from TAP ("ok",
# "not ok", "# SKIP"), from kunit.py's summary, and one result per build;
# in the userspace step every check of every test program (the totals
# line of userspace/tests/run.sh, which fails the checks a program did
# not report).
# In the selftests every check counts: the nested "# ok N - ..." lines of
# each file (run.sh adds a failure for each check a file did not report),
# a whole-file skip as one skip, and, when the VM stopped during the run
# (panic, timeout), the unreported checks of the file it was in (its plan,
# or one) and one per file that never started, as failures.
# The last line is "N passed, N failed, N skipped".
#
# Under CI (CI set and not "false" or "0"; .ci/run sets CI=true) a skip is
# a failure unless selftests/expected-skips lists it, and so is a step or
# kernel that did not run: one left out by R2C2_CHECK_STEPS or
# R2C2_CHECK_KERNELS, one without tests, checkpatch without the kernel
# source.
#
# Environment:
#   R2C2_CHECK_STEPS    steps to run (default: "setup build userspace kunit vm
#                       install rack vng debug")
#   R2C2_CHECK_KERNELS  kernels for build and vm (default: "6.1 6.12")
#   R2C2_CHECK_DEBUG_KERNELS
#                       debug kernels of the debug step (default: "6.1";
#                       "6.1 6.12" or "6.12" add ~15 min of guest time and,
#                       uncached, the 6.12 debug kernel's build)
#   R2C2_VM_TIMEOUT     limit of each VM run in seconds (default: 2700; the
#                       6.1 suite took 890 s on an idle host and over 1800 s
#                       at load 5-6)
#   R2C2_VM_DEBUG_MEM   memory of the debug step's VM in MB (default: 1024)
#   R2C2_VM_DEBUG_TIMEOUT  limit of the debug step's VM in seconds
#                       (default: 3600)
#   R2C2_DEBUG_FILE_TIMEOUT  limit of each selftest file there in seconds
#                       (default: 1200; run.sh's own default is 600)
#   R2C2_DEBUG_KMEMLEAK_AT  end (default): one kmemleak check after the
#                       debug step's last file; file: after each file
#   R2C2_SELFTESTS      selftest files to run (default: all; under CI a
#                       subset is a failure)
#   R2C2_CHECK_LANES    2 (default): two lanes of steps side by side; 1: one
#                       step after the other
#   R2C2_CHECK_FULL     1: every selftest file and the rack on every kernel
#                       of R2C2_CHECK_KERNELS, selftests/kernels ignored
#                       (make check-full; what to run before a release)
set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$REPO" || exit 1
CACHE=${R2C2_CACHE:-/var/cache/r2c2}
STEPS=" ${R2C2_CHECK_STEPS:-setup build userspace kunit vm install rack vng debug} "
KERNELS=${R2C2_CHECK_KERNELS:-6.1 6.12}
FULL=${R2C2_CHECK_FULL:-0}
[[ $FULL == 1 ]] || FULL=0
DEBUG_KERNELS=${R2C2_CHECK_DEBUG_KERNELS:-6.1}
# set by step debug once make modules-debug built the 6.1 suites
debug_built_61=
LOGDIR=$REPO/build/check
mkdir -p "$LOGDIR"
case ${CI:-} in
""|0|false) CI_MODE=0 ;;
*) CI_MODE=1 ;;
esac
EXPECTED_SKIPS=$REPO/selftests/expected-skips

passed=0 failed=0 skipped=0
report=()
t_start=$SECONDS
# the failed checks by name, every step's (both lanes append), printed
# under the summary's table: what a run's last lines say went wrong
FAILED=$LOGDIR/failed-checks
: >"$FAILED"

section() {
	printf '\n'
	printf '=%.0s' {1..72}
	printf '\n== %s\n' "$*"
	printf '=%.0s' {1..72}
	printf '\n'
}

# note STEP P F S [DETAIL]: add to the totals and the final table.
# The summary gives each step's time (run_logged's, in STEP_S) beside
# its counts: where a run's time went, read off its last lines.
declare -A STEP_S=()
note() {
	local t=${STEP_S[$1]:+${STEP_S[$1]}s}

	passed=$((passed + $2)) failed=$((failed + $3)) skipped=$((skipped + $4))
	report+=("$(printf '%-22s %4d passed %4d failed %4d skipped %6s  %s' "$1" "$2" "$3" "$4" "$t" "${5:-}")")
}

want() { [[ $STEPS == *" $1 "* ]]; }

# expected_skip FILE CHECK KERNEL: is this skip listed in
# selftests/expected-skips ("FILE | CHECK-GLOB | KERNEL | REASON" lines,
# globs in the first three fields)? Prints the reason.
expected_skip()
{
	local f c k r

	[[ -f $EXPECTED_SKIPS ]] || return 1
	while IFS='|' read -r f c k r; do
		[[ -z $f || $f == '#'* ]] && continue
		# shellcheck disable=SC2053  # globs on purpose
		if [[ $1 == $f && $2 == $c && $3 == $k ]]; then
			echo "$r"
			return 0
		fi
	done < <(sed -E 's/[[:space:]]*\|[[:space:]]*/|/g; s/^[[:space:]]+//; s/[[:space:]]+$//' "$EXPECTED_SKIPS")
	return 1
}

# judge_skips STEP KERNEL: read "FILE<TAB>CHECK<TAB>REASON" skips on
# stdin, print each; under CI, an unexpected one moves from skipped to
# failed (adjusts $tp, $tf, $ts of the caller).
judge_skips()
{
	local file check reason why

	while IFS=$'\t' read -r file check reason; do
		if why=$(expected_skip "$file" "$check" "$2"); then
			printf 'skipped (expected: %s): %s: %s: %s\n' "$why" "$1" "$file" "$check"
		elif ((CI_MODE)); then
			printf 'FAILED (a skip not in selftests/expected-skips, under CI): %s: %s: %s: %s\n' \
				"$1" "$file" "$check" "$reason"
			ts=$((ts - 1)) tf=$((tf + 1))
		else
			printf 'skipped: %s: %s: %s: %s\n' "$1" "$file" "$check" "$reason"
		fi
	done
}

# not_run STEP DETAIL: a step that did not run: skipped, a failure under CI.
not_run()
{
	if ((CI_MODE)); then
		note "$1" 0 1 0 "did not run under CI: $2"
	else
		note "$1" 0 0 1 "$2"
	fi
}

# name_failures STEP LOG: the failed checks of a TAP log whose results
# each follow their own checks nested one level ("# not ok N - check",
# then "not ok N - FILE (...)": run.sh's, userspace/tests/run.sh's), as
# "STEP: FILE: check" lines appended to $FAILED
name_failures()
{
	tr -d '\r' <"$2" | awk -v step="$1" '
	/^# not ok [0-9]+/ {
		c = $0; sub(/^# not ok [0-9]+ *-? */, "", c); pend[++n] = c; next
	}
	/^ok [0-9]+ - / { n = 0; next }
	/^not ok [0-9]+ - / {
		f = $0; sub(/^not ok [0-9]+ - (selftests: r2c2: )?/, "", f)
		sub(/ \(.*/, "", f)
		if (!n)
			print step ": " f
		for (i = 1; i <= n; i++)
			print step ": " f ": " pend[i]
		n = 0
	}' >>"$FAILED"
}

# Count top-level TAP results of a log (the rack's, the capture check's):
# sets tp tf ts. As for a test file (selftests/tally.awk), each check of
# its plan (the first "1..N") not reported is a failure, and so is a log
# without a plan.
count_tap() {
	local log=$1 plan k

	read -r tp tf ts _ < <(tr -d '\r' <"$log" | awk -f selftests/tally.awk)
	# its first plan line (a guest's output may hold others)
	plan=$(grep -aEom1 '^1\.\.[0-9]+' "$log" | cut -c4-)
	plan=${plan:--1}
	k=$((tp + tf + ts))
	if ((plan < 0)); then
		echo "count_tap: $log: no TAP plan: 1 failed"
		tf=$((tf + 1))
	elif ((k < plan)); then
		echo "count_tap: $log: $((plan - k)) of its $plan checks not reported: failed"
		tf=$((tf + plan - k))
	fi
}

# Count the checks of a selftests/run.sh log (a VM's console): sets tp tf
# ts; writes the skips ("FILE<TAB>CHECK<TAB>REASON") to $LOGDIR/NAME.skips
# and prints what was lost (a file the VM stopped in, files never run).
count_selftests()
{
	local log=$1 name=$2 counts

	: >"$LOGDIR/$name.skips"

	counts=$(awk -v skips="$LOGDIR/$name.skips" '
	function skip(f, c, r) { s++; printf "%s\t%s\t%s\n", f, c, r > skips }
	{ sub(/\r$/, "") }
	/^1\.\.[0-9]+$/ && cur == "" && !files_seen { top = substr($0, 4) + 0; next }
	/^# run.sh: files: / { nfiles = split(substr($0, 18), files, " "); files_seen = 1 }
	/^# selftests: r2c2: [^ ]+$/ { cur = $4; started[cur] = 1; res = 0; plan = -1; next }
	cur == "" { next }
	/^# (not )?ok [0-9]+/ {
		res++
		if ($2 == "not") { f++; next }
		if (match($0, / # *(SKIP|skip)/)) {
			c = substr($0, 1, RSTART - 1); sub(/^# ok [0-9]+ *-? */, "", c)
			r = substr($0, RSTART + RLENGTH); sub(/^ */, "", r)
			skip(cur, c, r)
		} else
			p++
		next
	}
	/^# 1\.\.[0-9]+/ {
		plan = substr($2, 4) + 0
		if (plan == 0 && match($0, /# *(SKIP|skip)/)) {
			r = substr($0, RSTART + RLENGTH); sub(/^ */, "", r)
			skip(cur, "(file)", r)
		}
		next
	}
	/^(not )?ok [0-9]+ - selftests: r2c2: / { cur = ""; next }
	END {
		if (cur != "") {
			lost = plan > res ? plan - res : 1
			f += lost
			printf "lost: %s: the run stopped in it after %d checks of %s: %d failed\n", \
				cur, res, plan < 0 ? "an unknown number" : plan, lost
		}
		# run.sh plans one result a file (kmemleak included)
		if (files_seen && top != nfiles) {
			f++
			printf "lost: run.sh planned %s for %d files: 1 failed\n", \
				top == "" ? "nothing" : top, nfiles
		}
		for (i = 1; i <= nfiles; i++)
			if (!(files[i] in started)) {
				f++
				printf "lost: %s: never started: 1 failed\n", files[i]
			}
		printf "counts %d %d %d\n", p, f, s
	}' "$log")
	grep -v '^counts ' <<<"$counts"
	grep -v '^counts ' <<<"$counts" | sed "s/^/$name: /" >>"$FAILED"
	read -r _ tp tf ts < <(grep '^counts ' <<<"$counts")
	name_failures "$name" "$log"
}

# run_logged NAME CMD...: run a command, output to the terminal and to
# $LOGDIR/NAME.log; returns its exit status.
run_logged() {
	local name=$1; shift
	local t0=$SECONDS rc
	"$@" 2>&1 | tee "$LOGDIR/$name.log"
	rc=${PIPESTATUS[0]}
	STEP_S[$name]=$((SECONDS - t0))
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
		printf '%d passed, %d failed, %d skipped\n' "$passed" "$failed" "$skipped"
		exit 1
	fi
fi

# Every gcc and clang through ccache (setup installs it), its objects in
# $CACHE/ccache: on a warm machine the builds of unchanged sources are
# cache hits, in whatever directory the clone is (paths under the clone
# are hashed relative to it). Kbuild compiles from the kernel's tree with
# the clone's absolute paths, so the modules do not hit across clones.
# R2C2_CCACHE=0 turns it off.
if [ "${R2C2_CCACHE:-1}" = 1 ] && [ -d /usr/lib/ccache ]; then
	export PATH=/usr/lib/ccache:$PATH CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
	export CCACHE_BASEDIR=$REPO CCACHE_NOHASHDIR=1
fi

# The debug kernel builds in the background while the other steps run,
# at nice 5 (R2C2_DEBUG_NICE) as lane 2; the debug step waits for it.
# Names of the debug step for debug kernel $1: 6.1 keeps the plain ones.
dsuffix() { [ "$1" = 6.1 ] || printf -- '-%s' "$1"; }

# Several debug kernels build one after the other, each with its exit
# status in debug-kernel<suffix>.rc.
dk_pid=
if want debug; then
	for dk in $DEBUG_KERNELS; do
		case $dk in
		6.1|6.12) ;;
		*) echo "R2C2_CHECK_DEBUG_KERNELS: unknown debug kernel '$dk' (6.1, 6.12)" >&2; exit 2 ;;
		esac
		rm -f "$LOGDIR/debug-kernel$(dsuffix "$dk").rc"
	done
	(
		for dk in $DEBUG_KERNELS; do
			rc=0
			# a whole kernel, built once a machine: not worth a cache
			CCACHE_DISABLE=1 R2C2_DEBUG_NICE=${R2C2_DEBUG_NICE:-5} bash scripts/debug-kernel.sh "$dk" \
				>"$LOGDIR/debug-kernel$(dsuffix "$dk").log" 2>&1 || rc=$?
			echo "$rc" >"$LOGDIR/debug-kernel$(dsuffix "$dk").rc"
		done
	) &
	dk_pid=$!
	for dk in $DEBUG_KERNELS; do
		echo "debug kernel $dk: building in the background (pid $dk_pid, log build/check/debug-kernel$(dsuffix "$dk").log)"
	done
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
	# checkpatch.pl (perl, one core, about 20 s) runs beside the module
	# builds; its output is printed in its own section once it is done
	cp_pid=
	if [[ -d $CACHE/linux-source-6.1/scripts ]]; then
		(
			t0=$SECONDS
			make checkpatch >"$LOGDIR/checkpatch.log" 2>&1
			echo "$? $((SECONDS - t0))" >"$LOGDIR/checkpatch.rc"
		) &
		cp_pid=$!
	fi
	for k in $KERNELS; do
		abi=$(abi_of "$k")
		section "build: make modules KVER=${abi:-?} ($k)"
		if [[ -z $abi ]]; then
			note "build-$k" 0 1 0 "unknown kernel (run scripts/setup.sh)"
		elif run_logged "build-$k" make -j2 modules KVER="$abi"; then
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
	# the module's layers, on the first kernel's objects (they are the
	# same files on every kernel)
	for k in $KERNELS; do
		[[ -n ${built[$k]:-} ]] || continue
		section "build: scripts/kmod-layers.sh (r2c2.ko calls down its layers only)"
		if run_logged layers bash scripts/kmod-layers.sh "build/$(abi_of "$k")/kmod"; then
			note layers 1 0 0
		else
			note layers 0 1 0 "a call up r2c2.ko's layers (kmod/r2c2.h)"
		fi
		break
	done
	section "build: make checkpatch (checkpatch.pl --strict)"
	if [[ -z $cp_pid ]]; then
		echo "no $CACHE/linux-source-6.1: checkpatch did not run"
		not_run checkpatch "no kernel source for checkpatch.pl"
	else
		wait "$cp_pid"
		read -r cp_rc cp_s <"$LOGDIR/checkpatch.rc" || cp_rc=1 cp_s=0
		cat "$LOGDIR/checkpatch.log"
		STEP_S[checkpatch]=$cp_s
		printf -- '-- checkpatch: exit status %d after %ds (beside the module builds)\n' "$cp_rc" "$cp_s"
		if [[ $cp_rc == 0 ]]; then
			note checkpatch 1 0 0
		else
			note checkpatch 0 1 0 "checkpatch.pl --strict found problems"
		fi
	fi
	if [[ -f userspace/Makefile ]]; then
		section "build: make userspace"
		if run_logged build-userspace make -j2 userspace; then
			note build-userspace 1 0 0
		else
			note build-userspace 0 1 0 "userspace build failed"
		fi
	fi
	# The tc plugin and the selftests' helper programs, when present
	# (the VM runner copies them into the guest).
	for d in tc ip selftests/tools; do
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
step_userspace()
{
	section "userspace tests: make -C userspace test"
	if [[ ! -f userspace/Makefile ]] || ! grep -q '^test:' userspace/Makefile; then
		echo "no userspace test target: skipped"
		not_run userspace "no tests yet"
	else
		rc=0
		run_logged userspace make -C userspace test || rc=$?
		# every check of every test program (userspace/tests/run.sh
		# nests their TAP and ends with the totals of checks)
		read -r tp tf ts < <(sed -n 's/^userspace: checks: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped.*/\1 \2 \3/p' \
			"$LOGDIR/userspace.log" | tail -n 1)
		tp=${tp:-0} tf=${tf:-0} ts=${ts:-0}
		if ((rc != 0 && tf == 0)); then
			tf=1
		fi
		name_failures userspace "$LOGDIR/userspace.log"
		# skips: nested "# ok N - check # SKIP reason" lines, named
		# "PROGRAM: check" by the "ok N - PROGRAM (...)" line after them
		awk '
		/^# ok [0-9]+.*# *(SKIP|skip)/ {
			c = $0; sub(/^# ok [0-9]+ *-? */, "", c)
			r = c; sub(/ # *(SKIP|skip).*/, "", c); sub(/.*# *(SKIP|skip) */, "", r)
			pend[++n] = c "\t" r
			next
		}
		/^(not )?ok [0-9]+ - / {
			f = $0; sub(/^(not )?ok [0-9]+ - /, "", f); sub(/ \(.*/, "", f)
			for (i = 1; i <= n; i++)
				print "userspace\t" f ": " pend[i]
			n = 0
		}' "$LOGDIR/userspace.log" >"$LOGDIR/userspace.skips"
		judge_skips userspace host <"$LOGDIR/userspace.skips"
		note userspace "$tp" "$tf" "$ts" "$( ((rc == 0)) || echo "make exit $rc")"
	fi
}

# ---------------------------------------------------------------- kunit
step_kunit()
{
	section "kunit: scripts/kunit.sh (the suites as modules on the 6.1 debug kernel)"
	rc=0
	# the debug step built them (make modules-debug) unless it did not run
	run_logged kunit bash scripts/kunit.sh ${debug_built_61:+--no-build} || rc=$?
	line=$(grep -a '^kunit: [0-9]* passed' "$LOGDIR/kunit.log" | tail -n 1)
	kp=$(sed -n 's/^kunit: \([0-9]*\) passed.*/\1/p' <<<"$line")
	kf=$(sed -n 's/.* \([0-9]*\) failed.*/\1/p' <<<"$line")
	ks=$(sed -n 's/.* \([0-9]*\) skipped.*/\1/p' <<<"$line")
	kp=${kp:-0} kf=${kf:-0} ks=${ks:-0}
	if ((rc == 4)); then
		not_run kunit "no kunit/*.c suites"
	else
		((rc != 0 && kf == 0)) && kf=1
		# kunit.py names each skipped test: "[SKIPPED] name"
		tp=$kp tf=$kf ts=$ks
		judge_skips kunit 6.1 < <(grep -aoE '\[SKIPPED\] [^ ]+' "$LOGDIR/kunit.log" |
			awk -v n="$ks" '{ print "kunit\t" $2 "\t"; k++ }
				END { for (; k < n; k++) print "kunit\t(unnamed)\t" }' |
			head -n "$ks")
		# and each failed one, "[FAILED] name": named in the summary
		kfn=$(grep -aoE '\[FAILED\] [^ ]+' "$LOGDIR/kunit.log" |
			awk '{ print $2 }' | sort -u | head -n 4 | paste -sd ' ')
		note kunit "$tp" "$tf" "$ts" "$( ((rc == 0)) || echo "kunit.sh exit $rc${kfn:+: $kfn}")"
	fi
}

# ---------------------------------------------------------------- vm
# list_files LIST: the files named by selftests/LIST that exist
list_files()
{
	local f

	[[ -f selftests/$1 ]] || return 0
	while read -r f _; do
		[[ -z $f || $f == \#* ]] && continue
		[[ -f selftests/$f ]] && echo "$f"
	done <"selftests/$1"
}

# on_kernel FILE KERNEL: does make check run selftest FILE on KERNEL?
# selftests/kernels ("FILE KERNEL... # why") names the one kernel of a
# file that does not depend on the kernel's version; a file it does not
# list runs on both. R2C2_CHECK_FULL=1: every file on every kernel.
on_kernel()
{
	local ks

	((FULL)) && return 0
	ks=$(sed -E 's/#.*//' selftests/kernels 2>/dev/null |
		awk -v f="$1" '$1 == f { $1 = ""; print; exit }')
	[[ -z $ks || " $ks " == *" $2 "* ]]
}

# vm_selftests STEP KERNEL [vm-run options] -- FILES...: the files in one
# guest, counted (every check, skips judged) and noted as STEP
vm_selftests()
{
	local step=$1 k=$2 opts=() rc=0

	shift 2
	while (($#)) && [[ $1 != -- ]]; do opts+=("$1"); shift; done
	shift
	run_logged "$step" scripts/vm-run --kernel "$k" "${opts[@]}" \
		--timeout "${R2C2_VM_TIMEOUT:-2700}" -- selftests/run.sh "$@" || rc=$?
	count_selftests "$LOGDIR/$step.log" "$step"
	if ((rc != 0 && tf == 0)); then
		# Boot failure, panic, timeout: no TAP failure to show for it.
		tf=1
	fi
	judge_skips "$step" "$k" <"$LOGDIR/$step.skips"
	note "$step" "$tp" "$tf" "$ts" "$( ((rc == 0)) || echo "vm-run exit $rc")"
}

# one instruction = 2^ICOUNT_SHIFT ns of guest time in the icount guest
ICOUNT_SHIFT=${R2C2_ICOUNT_SHIFT:-2}

# vm_files KERNEL: the files make check runs on KERNEL, in the arrays
# main (the stock guest), ic (the icount guest) and st (the guest of
# single-threaded TCG)
vm_files()
{
	local t all_ic=() all_st=()

	ic=() st=() main=()
	if [[ -n ${R2C2_SELFTESTS:-} ]]; then
		read -r -a main <<<"$R2C2_SELFTESTS"
		return
	fi
	mapfile -t all_ic < <(list_files icount-files)
	mapfile -t all_st < <(list_files tcg-single-files)
	for t in "${all_ic[@]}"; do
		! on_kernel "$t" "$1" || ic+=("$t")
	done
	for t in "${all_st[@]}"; do
		[[ " ${all_ic[*]} " == *" $t "* ]] || ! on_kernel "$t" "$1" || st+=("$t")
	done
	for t in selftests/*_test.sh; do
		t=${t##*/}
		[[ " ${all_ic[*]} ${all_st[*]} " == *" $t "* ]] ||
			! on_kernel "$t" "$1" || main+=("$t")
	done
}

have_tests()
{
	local t

	for t in selftests/*_test.sh; do [[ -f $t ]] && return 0; done
	return 1
}

# step_vm KERNEL: the stock guest (vm-KERNEL), then the capture it handed
# out decoded on the host (capture-KERNEL)
step_vm()
{
	local k=$1 rc

	section "vm selftests on $k: scripts/vm-run --kernel $k -- selftests/run.sh"
	if ! have_tests; then
		echo "no selftests/*_test.sh: skipped"
		not_run "vm-$k" "no selftests yet"
		return
	fi
	if want build && [[ -z ${built[$k]:-} ]]; then
		echo "note: the module build for $k failed; tests needing r2c2.ko skip or fail"
	fi
	vm_files "$k"
	# --out: capture_test.sh hands its capture of a torus out on ttyS1
	vm_selftests "vm-$k" "$k" --out "$LOGDIR/vm-$k.out" -- "${main[@]}"
	# XDP attached under traffic: one host thread for both vCPUs
	# (selftests/tcg-single-files)
	if ((${#st[@]})); then
		section "vm selftests on $k, single-threaded TCG: ${st[*]}"
		R2C2_TCG_THREAD=single vm_selftests "vm-$k-tcg1" "$k" -- "${st[@]}"
	fi
	# The capture decoded on the host by tshark and the r2c2
	# dissector, checked against what its nodes reported.
	if grep -aq '^ok [0-9]* - selftests: r2c2: capture_test.sh' "$LOGDIR/vm-$k.log"; then
		section "capture of a torus on $k: tools/wireshark/capture-check.sh"
		rc=0
		run_logged "capture-$k" bash tools/wireshark/capture-check.sh \
			--vm-out "$LOGDIR/vm-$k.out" --save "$LOGDIR/capture-$k" || rc=$?
		count_tap "$LOGDIR/capture-$k.log"
		((rc == 0 || tf > 0)) || tf=1
		note "capture-$k" "$tp" "$tf" "$ts" "$( ((rc == 0)) || echo "exit $rc")"
	fi
}

# step_icount KERNEL: files that time rates or windows in guest time, in
# a guest of their own with deterministic time (selftests/icount-files):
# vm-KERNEL-icount
step_icount()
{
	local k=$1

	have_tests || return 0
	vm_files "$k"
	((${#ic[@]} == 0)) && return
	section "vm selftests on $k with deterministic guest time (-icount): ${ic[*]}"
	vm_selftests "vm-$k-icount" "$k" --cpus 1 --icount "$ICOUNT_SHIFT" -- "${ic[@]}"
}

# ---------------------------------------------------------------- install
step_install()
{
	section "the installed tree: scripts/check-install.sh (make check-install)"
	rc=0
	run_logged install env R2C2_CHECK_INSTALL_KERNELS="$KERNELS" \
		bash scripts/check-install.sh || rc=$?
	count_selftests "$LOGDIR/install.log" install
	# a step that failed before any guest ran (make install, units)
	((tp + tf + ts == 0 || (rc != 0 && tf == 0))) && tf=$((tf + 1))
	judge_skips install install <"$LOGDIR/install.skips"
	note install "$tp" "$tf" "$ts" "$( ((rc == 0)) || echo "check-install.sh exit $rc")"
}

# ---------------------------------------------------------------- rack
step_rack()
{
	local k rc

	for k in $KERNELS; do
		# one kernel is enough for the rack (all but the modules are
		# the same userspace); both with R2C2_CHECK_FULL
		((FULL)) || [[ $k == 6.12 || " $KERNELS " != *" 6.12 "* ]] || continue
		section "a rack of guests on $k: scripts/rack-check.sh --kernel $k --quick"
		rc=0
		run_logged "rack-$k" bash scripts/rack-check.sh --kernel "$k" --quick || rc=$?
		count_tap "$LOGDIR/rack-$k.log"
		# no TAP at all: a failure, not 0 checks
		((tp + tf + ts == 0 || (rc != 0 && tf == 0))) && tf=$((tf + 1))
		note "rack-$k" "$tp" "$tf" "$ts" "$( ((rc == 0)) || echo "rack-check.sh exit $rc")"
	done
}

# subset_of FILE: the file names a selftests/*-subset file lists.
subset_of() {
	sed -E 's/#.*//; s/[[:space:]]+//g; /^$/d' "$1"
}

# ---------------------------------------------------------------- vng
step_vng()
{
	vabi=$(cat "$CACHE/vng-kernel" 2>/dev/null)
	section "selftests under virtme-ng: vng --run ${vabi:-?} -- make -C selftests run_tests"
	mapfile -t vfiles < <(subset_of selftests/vng-subset)
	if ((${#vfiles[@]} == 0)); then
		# (an empty TEST_PROGS would run every file)
		not_run vng "selftests/vng-subset lists no file"
	elif ! command -v vng >/dev/null || [[ -z $vabi || ! -f /boot/vmlinuz-$vabi ]]; then
		echo "no vng or no generic kernel (scripts/setup.sh installs both)"
		not_run vng "no vng or no generic kernel"
	elif ! run_logged build-vng make -j2 modules KVER="$vabi"; then
		note vng 0 1 0 "make modules KVER=$vabi failed"
	else
		rc=0
		# vng hands its command to a shell in the guest: one string
		run_logged vng timeout -k 10 "${R2C2_VM_TIMEOUT:-1800}" \
			vng --run "/boot/vmlinuz-$vabi" --disable-kvm --user root \
			--cpus 2 --memory 2G -- \
			"make -C selftests run_tests TEST_PROGS='${vfiles[*]}'" || rc=$?
		count_selftests "$LOGDIR/vng.log" vng
		# no TAP at all (vng did not boot): a failure, not 0 checks
		((tp + tf + ts == 0 || (rc != 0 && tf == 0))) && tf=$((tf + 1))
		judge_skips vng vng <"$LOGDIR/vng.skips"
		note vng "$tp" "$tf" "$ts" "$( ((rc == 0)) || echo "vng exit $rc")"
	fi
}

# ---------------------------------------------------------------- debug
step_debug()
{
	local t0=$SECONDS dk sfx rc dfiles built

	mapfile -t dfiles < <(subset_of selftests/debug-subset)
	for dk in $DEBUG_KERNELS; do
		sfx=$(dsuffix "$dk")
		if [ "$dk" = 6.1 ]; then
			section "vm selftests on the debug kernel: selftests/debug-subset"
		else
			section "vm selftests on the $dk debug kernel: selftests/debug-subset"
		fi
		# the background build (a child of the main shell, which
		# this step may not be in): its status file, or its end
		while [[ ! -f $LOGDIR/debug-kernel$sfx.rc && -n $dk_pid ]] &&
			kill -0 "$dk_pid" 2>/dev/null; do
			sleep 5
		done
		rc=$(cat "$LOGDIR/debug-kernel$sfx.rc" 2>/dev/null) || rc=1
		cat "$LOGDIR/debug-kernel$sfx.log"
		printf -- '-- debug-kernel%s: exit status %d, waited %ds for it\n' "$sfx" "$rc" $((SECONDS - t0))
		# in the summary: a wait here is a debug kernel built during the run
		note "wait-debug-kernel$sfx" 0 0 0 "waited $((SECONDS - t0)) s for scripts/debug-kernel.sh $dk"
		# the modules, with KUnit's suites (step kunit loads those)
		built=0
		if ((rc == 0)) && run_logged "build-debug$sfx" make -j2 modules-debug KVER="$dk"; then
			built=1
			[ "$dk" != 6.1 ] || debug_built_61=1
		fi
		if ((rc != 0)); then
			note "vm-debug$sfx" 0 1 0 "scripts/debug-kernel.sh $dk failed (build/check/debug-kernel$sfx.log)"
		elif ((!built)); then
			note "vm-debug$sfx" 0 1 0 "make modules-debug KVER=$dk failed"
		elif ((${#dfiles[@]} == 0)); then
			not_run "vm-debug$sfx" "selftests/debug-subset lists no file"
		else
			rc=0
			# 1 GB: the subset's files leave 576 MB of it available
			# at their peak, and each kmemleak scan (two a file)
			# takes 6.2 s there against 10 s with 2 GB. Timeouts
			# for a slow hour beside lane 1's guests, when a file
			# takes twice what it does on a quiet machine: 1,200 s
			# a file (run.sh's 600 cut malformed_test.sh off at
			# 645 s), 3,600 s for the guest (the subset took
			# 1,382 s at a quiet hour, more than 2,400 at a slow one)
			run_logged "vm-debug$sfx" scripts/vm-run --kernel "debug$sfx" \
				--mem "${R2C2_VM_DEBUG_MEM:-1024}" \
				--timeout "${R2C2_VM_DEBUG_TIMEOUT:-3600}" -- \
				env R2C2_SELFTEST_TIMEOUT="${R2C2_DEBUG_FILE_TIMEOUT:-1200}" \
				R2C2_KMEMLEAK_AT="${R2C2_DEBUG_KMEMLEAK_AT:-end}" \
				selftests/run.sh "${dfiles[@]}" || rc=$?
			count_selftests "$LOGDIR/vm-debug$sfx.log" "vm-debug$sfx"
			((rc != 0 && tf == 0)) && tf=1
			judge_skips "vm-debug$sfx" "debug$sfx" <"$LOGDIR/vm-debug$sfx.skips"
			note "vm-debug$sfx" "$tp" "$tf" "$ts" "$( ((rc == 0)) || echo "vm-run exit $rc")"
		fi
	done
}

# ---------------------------------------------------------------- run
# Two lanes (R2C2_CHECK_LANES=2, the default). A guest keeps about one of
# the two cores busy, so two guests side by side take about the time of
# one: lane 1, in the foreground, runs the stock-kernel guests, whose
# checks time rates and windows in real time, the install step and
# virtme-ng; lane 2, in the background at nice 5, runs what does not
# depend on how fast the host is: the icount guests (guest time from
# instructions), the userspace tests, the debug kernel's guest (timeouts
# sized for KASAN) and KUnit. On a warm machine lane 1 took 2,448 s with
# the userspace tests (230 s) in it and lane 2 1,983 s without; on a fresh
# one lane 2 waits for the debug kernel's build after the userspace
# tests. Lane 2's output is shown after lane 1's. The rack (five guests)
# runs after both, alone. R2C2_CHECK_LANES=1: every step one after the
# other.
lane2()
{
	local k

	if want vm; then
		for k in $KERNELS; do step_icount "$k"; done
	fi
	want userspace && step_userspace
	want debug && step_debug
	want kunit && step_kunit
	return 0
}

lane1()
{
	local k

	if want vm; then
		for k in $KERNELS; do step_vm "$k"; done
	fi
	want install && step_install
	want vng && step_vng
	return 0
}

# shellcheck disable=SC2030,SC2031  # lane 2's totals, in a subshell on purpose
if [[ ${R2C2_CHECK_LANES:-2} == 1 ]]; then
	want userspace && step_userspace
	if want vm; then
		for k in $KERNELS; do step_vm "$k"; step_icount "$k"; done
	fi
	want install && step_install
	want rack && step_rack
	want vng && step_vng
	want debug && step_debug
	want kunit && step_kunit
else
	# lane 2 in a subshell: its totals and summary lines come back in
	# a file (lane2.result: "passed failed skipped", then the lines)
	rm -f "$LOGDIR/lane2.result"
	(
		# nice 5: the stock guests of lane 1 come first (and
		# every process of lane 2 inherits it)
		renice -n 5 -p "$BASHPID" >/dev/null 2>&1 || true
		passed=0 failed=0 skipped=0 report=()
		lane2
		{
			echo "$passed $failed $skipped"
			((${#report[@]} == 0)) || printf '%s\n' "${report[@]}"
		} >"$LOGDIR/lane2.result"
	) >"$LOGDIR/lane2.log" 2>&1 &
	lane2_pid=$!
	t_lanes=$SECONDS
	section "two lanes: lane 2 (icount guests, userspace, debug, kunit) in the background, its output in build/check/lane2.log and after lane 1's"
	lane1
	t_lane1=$((SECONDS - t_lanes))
	wait "$lane2_pid"
	section "lane 2's output (lane 1 took ${t_lane1}s, lane 2 $((SECONDS - t_lanes))s)"
	cat "$LOGDIR/lane2.log"
	if [[ -s $LOGDIR/lane2.result ]]; then
		{
			read -r p2 f2 s2
			passed=$((passed + p2)) failed=$((failed + f2)) skipped=$((skipped + s2))
			while IFS= read -r line; do report+=("$line"); done
		} <"$LOGDIR/lane2.result"
	else
		note lane2 0 1 0 "lane 2 ended without its results (build/check/lane2.log)"
	fi
	want rack && step_rack
fi

# ---------------------------------------------------------------- CI
# Under CI every step runs on every kernel: one left out did not run.
if ((CI_MODE)); then
	for s in setup build userspace kunit vm install rack vng debug; do
		want "$s" || note "$s" 0 1 0 "did not run under CI: not in R2C2_CHECK_STEPS"
	done
	for k in 6.1 6.12; do
		[[ " $KERNELS " == *" $k "* ]] ||
			note "kernel-$k" 0 1 0 "did not run under CI: not in R2C2_CHECK_KERNELS"
	done
	[[ -z ${R2C2_SELFTESTS:-} ]] ||
		note selftests 0 1 0 "did not all run under CI: R2C2_SELFTESTS=$R2C2_SELFTESTS"
fi

# ---------------------------------------------------------------- summary
section "summary ($((SECONDS - t_start))s; logs in build/check/)"
printf '%s\n' "${report[@]}"
# the first failed checks, named (all of them: build/check/failed-checks)
if [[ -s $FAILED ]]; then
	echo
	head -n 8 "$FAILED" | cut -c1-200 | sed 's/^/failed: /'
	n=$(wc -l <"$FAILED")
	((n <= 8)) || echo "failed: ... and $((n - 8)) more in build/check/failed-checks"
fi
echo
printf '%d passed, %d failed, %d skipped\n' "$passed" "$failed" "$skipped"
((failed == 0))
