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

# kmemleak, on a kernel that has it (scripts/vm-run --kernel debug): after
# each file two scans, then the file fails ("# kmemleak:" lines with the
# reports, then its "not ok" line) if a suspected leak was allocated by
# r2c2 code (a backtrace through r2c2_*, r2c2q_*, sch_r2c2 or our modules)
# or is an skb or a socket (the tests' packets and sockets go through
# r2c2); other suspects are only counted. The list is cleared after each
# file. R2C2_KMEMLEAK: auto (default; when /sys/kernel/debug/kmemleak
# exists), 1 (required), 0 (off).
kml=/sys/kernel/debug/kmemleak
case ${R2C2_KMEMLEAK:-auto} in
0)	kml= ;;
1)	[[ -w $kml ]] || { echo "run.sh: R2C2_KMEMLEAK=1 but no $kml" >&2; exit 2; } ;;
*)	[[ -w $kml ]] || kml= ;;
esac

# kmemleak_reset: forget the suspects so far (boot, the previous file)
kmemleak_reset()
{
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

echo "TAP version 13"
echo "1..${#tests[@]}"
pass=0 fail=0 skip=0 n=0
for t in "${tests[@]}"; do
	n=$((n + 1))
	echo "# selftests: r2c2: $t"
	start=$SECONDS
	timeout -k 10 "$limit" bash "$dir/$t" 2>&1 | sed -u 's/^/# /'
	rc=${PIPESTATUS[0]}
	kmemleak_check "$t"
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
