#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - run the r2c2 selftests (selftests/*_test.sh), kselftest style.
#
#	selftests/run.sh                 every *_test.sh, sorted
#	selftests/run.sh torus_test.sh   only these
#
# Prints TAP 13, nested as kselftest does: each file's own TAP (one
# "ok N - check" line per check, its "1..N" plan first or last) indented
# as "# " lines, then one "ok N - selftests: r2c2: FILE" / "not ok ..." /
# "ok ... # SKIP" line per file. Every check counts: after each file this
# compares its results with its plan and adds, in the nested stream, a
# "# not ok K - run.sh: FILE: ..." failure for each check the file did not
# report (a file killed by the timeout, a bail-out after a failed setup),
# one for a file that ended without a plan, and one for a non-zero exit
# status with no failed check. A whole-file skip ("1..0 # SKIP reason",
# exit 4) counts as one skipped check. The last lines are the totals of
# checks ("# Totals: pass:N fail:N ... skip:N") and of files.
# Runs as root (in the VM, or under vng).
# R2C2_SELFTEST_TIMEOUT limits each test file, in seconds (default: the
# "timeout=" of ./settings, kselftest's file, else 600).
# Exit status: 0 if no check failed.
set -uo pipefail

dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
limit=$(sed -n 's/^timeout=\([0-9][0-9]*\)$/\1/p' "$dir/settings" 2>/dev/null)
limit=${R2C2_SELFTEST_TIMEOUT:-${limit:-600}}

# kmemleak, on a kernel that has it (scripts/vm-run --kernel debug): after
# each file two scans, then the file fails ("# kmemleak:" lines with the
# reports, then its "not ok" line) if a suspected leak was allocated by
# r2c2 code (a backtrace through r2c2_*, r2c2q_*, sch_r2c2 or our modules)
# or is an skb or a socket (the tests' packets and sockets go through
# r2c2); other suspects are only counted. The list is cleared after each
# file. R2C2_KMEMLEAK: auto (default; when /sys/kernel/debug/kmemleak
# exists), 1 (required), 0 (off).
# R2C2_KMEMLEAK_AT=end: the two scans once, after the last file, reported
# as one more file "kmemleak" (its own TAP, counted like the others):
# make check's debug step, where per-file scans cost 17-73 s each; a
# report's backtrace still names what leaked. Default "file": after each.
kml=${R2C2_KMEMLEAK_FILE:-/sys/kernel/debug/kmemleak}
kml_at=${R2C2_KMEMLEAK_AT:-file}
case $kml_at in
file|end) ;;
*) echo "run.sh: R2C2_KMEMLEAK_AT must be file or end, not '$kml_at'" >&2; exit 2 ;;
esac
case ${R2C2_KMEMLEAK:-auto} in
0)	kml= ;;
1)	[[ -w $kml ]] || { echo "run.sh: R2C2_KMEMLEAK=1 but no $kml" >&2; exit 2; } ;;
*)	[[ -w $kml ]] || kml= ;;
esac

# kmemleak_reset: forget the suspects so far (boot, the previous file).
# The scans after each file are the only ones: kmemleak's own thread
# (every 10 minutes, each scan some 10 s of a debug guest's CPU) is
# stopped.
kmemleak_reset()
{
	echo scan=off >"$kml" 2>/dev/null
	echo scan >"$kml" 2>/dev/null && echo clear >"$kml" 2>/dev/null
}

# kmemleak_check FILE: sets rc=1 if FILE leaked (see above) and passed or
# skipped
kmemleak_check()
{
	local t0=$SECONDS out bad other

	[[ -n $kml ]] || return 0
	# kmemleak reports objects at least 5 s old: the second scan comes
	# 6 s after the file ended. An object still in flight at the first
	# scan is referenced again at the second and no longer listed.
	if echo scan >"$kml" 2>/dev/null; then
		((SECONDS - t0 >= 6)) || sleep $((6 - (SECONDS - t0)))
	fi
	if ! echo scan >"$kml" 2>/dev/null; then
		echo "# kmemleak: scan failed after $1: kmemleak turned itself off (see dmesg); no more leak checks"
		kml=''
		[[ $rc != 0 && $rc != 4 ]] || rc=1
		return
	fi
	out=$(awk -v max=5 '
		function flush() {
			if (rec == "")
				return
			if (why == "") {
				if (++other <= 3)
					print "kmemleak: not counted: " obj " from" frames
			} else if (++bad <= max) {
				print "kmemleak: " why ":"
				printf "%s", rec
			}
			rec = why = frames = ""
			nf = 0
		}
		/^unreferenced object/ { flush(); bt = 0; obj = $3 " " $4 " " $5 }
		{ rec = rec "kmemleak:   " $0 "\n" }
		/^ *backtrace:/ { bt = 1; next }
		bt && ++nf <= 4 { frames = frames " " $2 }
		bt && /\[(sch_)?r2c2\]|r2c2q?_|sch_r2c2/ { why = "allocated by r2c2" }
		bt && why == "" && /__alloc_skb|skb_clone|skb_copy|build_skb|alloc_skb|sk_prot_alloc/ {
			why = "skb or socket"
		}
		END {
			flush()
			if (bad > max)
				print "kmemleak: ... " bad - max " more"
			print bad + 0, other + 0
		}' "$kml")
	echo clear >"$kml"
	read -r bad other <<<"${out##*$'\n'}"
	sed '$d; s/^/# /' <<<"$out"
	if ((bad > 0)); then
		echo "# kmemleak: $1: $bad suspected leaks of r2c2 objects, skbs or sockets ($other others not counted; $((SECONDS - t0))s)"
		# a timeout or a failure keeps its own status
		[[ $rc != 0 && $rc != 4 ]] || rc=1
	else
		echo "# kmemleak: $1: no suspected leak of r2c2 objects, skbs or sockets ($other others; $((SECONDS - t0))s)"
	fi
}
[[ -z $kml ]] || kmemleak_reset || kml=

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

# tally FILE: "passed failed skipped plan" of a test's own TAP output
tally() { awk -f "$dir/tally.awk" "$1"; }

out=$(mktemp)
trap 'rm -f "$out"' EXIT

# the end-of-run scan, as one more file
kml_end=
[[ -z $kml || $kml_at != end ]] || kml_end=kmemleak

nplan=${#tests[@]}
[[ -z $kml_end ]] || nplan=$((nplan + 1))
echo "TAP version 13"
echo "1..$nplan"
echo "# run.sh: files: ${tests[*]}${kml_end:+ $kml_end}"
cpass=0 cfail=0 cskip=0
pass=0 fail=0 skip=0 n=0
for t in "${tests[@]}"; do
	n=$((n + 1))
	echo "# selftests: r2c2: $t"
	start=$SECONDS
	timeout -k 10 "$limit" bash "$dir/$t" 2>&1 | tee "$out" | sed -u 's/^/# /'
	rc=${PIPESTATUS[0]}
	[[ -n $kml_end ]] || kmemleak_check "$t"
	took=$((SECONDS - start))
	read -r p f s plan < <(tally "$out")
	case $rc in
	124|137) reap_timeout "$t"; why="timed out after ${limit}s" ;;
	*) why="exit status $rc" ;;
	esac
	# what the file did not report, as failed checks in its stream
	k=$((p + f + s))
	if ((plan < 0)); then
		k=$((k + 1)) f=$((f + 1))
		echo "# not ok $k - run.sh: $t: ended without a plan after $((k - 1)) checks ($why)"
	elif ((k < plan)); then
		while ((k < plan)); do
			k=$((k + 1)) f=$((f + 1))
			echo "# not ok $k - run.sh: $t: check $k of $plan not reported ($why)"
		done
	elif ((k == 0)); then
		# "1..0" without a SKIP reason, a ksft_exit before any check
		k=1 f=1
		echo "# not ok 1 - run.sh: $t: no check reported ($why)"
	elif ((k > plan && !(plan == 0 && s == 1 && k == 1))); then
		k=$((k + 1)) f=$((f + 1))
		echo "# not ok $k - run.sh: $t: $((k - 1)) checks for a plan of $plan"
	fi
	if ((rc != 0 && rc != 4 && f == 0)); then
		k=$((k + 1)) f=$((f + 1))
		echo "# not ok $k - run.sh: $t: $why and no failed check"
	fi
	cpass=$((cpass + p)) cfail=$((cfail + f)) cskip=$((cskip + s))
	sum="$p passed, $f failed, $s skipped, ${took}s"
	if ((f > 0)); then
		fail=$((fail + 1))
		echo "not ok $n - selftests: r2c2: $t ($sum) # $why"
	elif ((rc == 4)); then
		skip=$((skip + 1))
		echo "ok $n - selftests: r2c2: $t ($sum) # SKIP"
	else
		pass=$((pass + 1))
		echo "ok $n - selftests: r2c2: $t ($sum)"
	fi
done
# R2C2_KMEMLEAK_AT=end: every file's leaks, in one check
if [[ -n $kml_end ]]; then
	n=$((n + 1))
	echo "# selftests: r2c2: $kml_end"
	echo "# 1..1"
	start=$SECONDS rc=0
	kmemleak_check "after all ${#tests[@]} files"
	took=$((SECONDS - start))
	if ((rc == 0)); then
		echo "# ok 1 - no suspected leak of r2c2 objects, skbs or sockets"
		cpass=$((cpass + 1)) pass=$((pass + 1))
		echo "ok $n - selftests: r2c2: $kml_end (1 passed, 0 failed, 0 skipped, ${took}s)"
	else
		echo "# not ok 1 - kmemleak: suspected leaks after the files (above)"
		cfail=$((cfail + 1)) fail=$((fail + 1))
		echo "not ok $n - selftests: r2c2: $kml_end (0 passed, 1 failed, 0 skipped, ${took}s)"
	fi
fi
echo "# Totals: pass:$cpass fail:$cfail xfail:0 xpass:0 skip:$cskip error:0"
echo "# files: $pass passed, $fail failed, $skip skipped"
((cfail == 0))
