#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# mutants.sh - mutation testing of the userspace unit tests, and with -K
# of the kernel modules against the selftests.
#
# Reads a list of mutants (default userspace/tests/mutants.list; its
# header gives the format), applies each one alone to a scratch copy of
# userspace/, include/ and common/ (the working tree is never touched),
# rebuilds the test programs the entry names (without sanitizers), runs
# them with a time limit and reports, as TAP:
#
#   killed      a test program failed, crashed or timed out: ok
#   equivalent  it survived and the entry says why no test can tell: ok
#   survived    it survived, unexplained: not ok
#   broken      the snippet is not in the file exactly once, the mutant
#               does not build, or an entry marked equivalent was killed:
#               not ok (so the list cannot rot silently)
#
# then a summary line. Exit status 0 when every mutant is killed or
# explained, 1 otherwise, 2 on a usage error or when the unmutated tests
# already fail.
#
#   scripts/mutants.sh [-K KERNEL] [-l LIST] [-t SECONDS] [-c] [-k] [NAME...]
#
#   -K KERNEL   the modules' mutants (default list
#               selftests/kernel-mutants.list) on KERNEL (6.1 or 6.12):
#               the scratch copy is the whole tree with its built tools,
#               a mutant's "tests:" are selftest files, run in a guest
#               (scripts/vm-run) after make modules; 2-4 min a mutant
#   -l LIST     the list (default userspace/tests/mutants.list)
#   -t SECONDS  time limit of each test program run (default 120;
#               MUTANTS_TIMEOUT)
#   -c          check only that every snippet matches exactly once (no
#               build, a second or two)
#   -k          keep the scratch directory (its path is printed)
#   NAME...     only these mutants
#
# Builds use MUTANTS_JOBS make jobs (default 2); test programs run one at
# a time.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
list=$top/userspace/tests/mutants.list
tlimit=${MUTANTS_TIMEOUT:-120}
jobs=${MUTANTS_JOBS:-2}
check_only=0 keep=0 kernel=

usage() {
	sed -n '/^#   scripts\/mutants.sh/,/^#   NAME/p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

while getopts "K:l:t:ckh" o; do
	case $o in
	K) kernel=$OPTARG ;;
	l) list=$OPTARG ;;
	t) tlimit=$OPTARG ;;
	c) check_only=1 ;;
	k) keep=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
if [ -n "$kernel" ]; then
	case $kernel in
	6.1) abi=$(sed -n 1p "${R2C2_CACHE:-/var/cache/r2c2}/kernels" 2>/dev/null) ;;
	6.12) abi=$(sed -n 2p "${R2C2_CACHE:-/var/cache/r2c2}/kernels" 2>/dev/null) ;;
	*) echo "mutants: -K '$kernel': 6.1 or 6.12" >&2; exit 2 ;;
	esac
	[ -n "$abi" ] || ((check_only)) || { echo "mutants: no kernels: run scripts/setup.sh" >&2; exit 2; }
	[ "$list" != "$top/userspace/tests/mutants.list" ] || list=$top/selftests/kernel-mutants.list
	tlimit=${MUTANTS_TIMEOUT:-1800}
fi
[ -r "$list" ] || { echo "mutants: cannot read $list" >&2; exit 2; }

# \n, \t and \\ in a snippet
unescape() {
	local s=${1//\\\\/$'\001'}

	s=${s//\\n/$'\n'}
	s=${s//\\t/$'\t'}
	printf '%s' "${s//$'\001'/\\}"
}

# ---- the list: "key: value" lines, an entry per "mutant:" line
names=() files=() tests=() froms=() tos=() equivs=()
lineno=0 bad_list=0
add_field() {
	local k=$1 v=$2 i=$((${#names[@]} - 1))

	if [ "$k" != mutant ] && ((i < 0)); then
		echo "mutants: $list:$lineno: '$k:' before the first 'mutant:'" >&2
		bad_list=1
		return
	fi
	case $k in
	mutant)
		local n
		for n in "${names[@]}"; do
			[ "$n" = "$v" ] && { echo "mutants: $list:$lineno: mutant '$v' twice" >&2; bad_list=1; }
		done
		names+=("$v") files+=("") tests+=("") froms+=("") tos+=("") equivs+=("")
		;;
	file) files[i]=$v ;;
	tests) tests[i]=$v ;;
	from) froms[i]=$(unescape "$v") ;;
	to) tos[i]=$(unescape "$v") ;;
	equivalent) equivs[i]=$v ;;
	why) ;;
	*) echo "mutants: $list:$lineno: unknown key '$k'" >&2; bad_list=1 ;;
	esac
}
while IFS= read -r line || [ -n "$line" ]; do
	lineno=$((lineno + 1))
	case $line in
	'' | '#'*) continue ;;
	esac
	if [[ $line =~ ^([a-z]+):\ ?(.*)$ ]]; then
		add_field "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"
	else
		echo "mutants: $list:$lineno: not 'key: value'" >&2
		bad_list=1
	fi
done <"$list"
for i in "${!names[@]}"; do
	for k in file tests from; do
		v=
		case $k in
		file) v=${files[i]} ;;
		tests) v=${tests[i]} ;;
		from) v=${froms[i]} ;;
		esac
		[ -n "$v" ] || { echo "mutants: ${names[i]}: no '$k:'" >&2; bad_list=1; }
	done
	for t in ${tests[i]}; do
		if [ -n "$kernel" ]; then
			[ -f "$top/selftests/$t" ] ||
				{ echo "mutants: ${names[i]}: no selftest file selftests/$t" >&2; bad_list=1; }
			continue
		fi
		[ -f "$top/userspace/tests/$t.c" ] ||
			grep -q "^build/tests/$t:" "$top/userspace/Makefile" ||
			{ echo "mutants: ${names[i]}: no test program $t (userspace/tests/$t.c)" >&2; bad_list=1; }
	done
	[ "${froms[i]}" != "${tos[i]}" ] ||
		{ echo "mutants: ${names[i]}: 'to:' is the same as 'from:'" >&2; bad_list=1; }
done
((bad_list)) && exit 2

# the selection
sel=()
if (($#)); then
	for want in "$@"; do
		found=0
		for i in "${!names[@]}"; do
			[ "${names[i]}" = "$want" ] && { sel+=("$i"); found=1; }
		done
		((found)) || { echo "mutants: no mutant '$want' in $list" >&2; exit 2; }
	done
else
	sel=("${!names[@]}")
fi

# ---- the scratch copy
scratch=$(mktemp -d "${TMPDIR:-/tmp}/r2c2-mutants.XXXXXX") || exit 2
cleanup() {
	if ((keep)); then
		echo "# scratch copy kept in $scratch"
	else
		rm -rf "$scratch"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if [ -n "$kernel" ]; then
	# the whole tree, its userspace and test tools as built (the guest
	# runs them), without .git and the module build trees
	tar -C "$top" -cf - --exclude=./.git --exclude=./build . |
		tar -C "$scratch" -xf - || exit 2
	# the XDP program as built (the guest's r2c2ctl xdp attach loads it)
	if [ -f "$top/build/xdp/r2c2_xdp.bpf.o" ]; then
		mkdir -p "$scratch/build/xdp" &&
			cp "$top/build/xdp/r2c2_xdp.bpf.o" "$scratch/build/xdp/" || exit 2
	fi
else
	cp -a "$top/userspace" "$top/include" "$top/common" "$scratch/" || exit 2
	# a clean build without sanitizers: faster, and nothing stale
	rm -rf "$scratch/userspace/build" "$scratch/userspace/libr2c2.a"
fi
us=$scratch/userspace

build() { # test programs...
	local targets=() t

	if [ -n "$kernel" ]; then
		make -s -C "$scratch" modules KVER="$abi" >"$scratch/build.log" 2>&1
		return
	fi
	for t in "$@"; do targets+=("build/tests/$t"); done
	make -s -C "$us" -j"$jobs" SAN= OPT=-O2 "${targets[@]}" >"$scratch/build.log" 2>&1
}

# run_tests TESTS...: 0 if all pass; else sets why (the first failure)
why=
run_tests() {
	local t rc log=$scratch/run.log

	if [ -n "$kernel" ]; then
		rc=0
		"$scratch/scripts/vm-run" --kernel "$kernel" --timeout "$tlimit" -- \
			selftests/run.sh "$@" >"$log" 2>&1 || rc=$?
		((rc == 0)) && return 0
		why=$(grep -a -m2 -E '^# not ok|^not ok' "$log" | tr '\n' ' ')
		why=${why:-"vm-run: $(grep -a '^vm-run:' "$log" | tail -n 1)"}
		return 1
	fi
	for t in "$@"; do
		rc=0
		(cd "$us" && timeout -k 5 "$tlimit" "build/tests/$t") >"$log" 2>&1 || rc=$?
		if ((rc == 124 || rc == 137)); then
			why="$t: timed out after ${tlimit}s"
			return 1
		elif ((rc != 0)) || grep -q '^not ok' "$log"; then
			why="$t: $(grep -m1 '^not ok' "$log" || echo "exit status $rc")"
			return 1
		fi
	done
	return 0
}

# the objects a mutant of file f may have left: gone before the next one
forget() { # file tests...
	local f=$1 t base

	shift
	[ -z "$kernel" ] || return 0	# kbuild rebuilds what changed
	case $f in
	userspace/lib/*.c | common/*.c)
		base=$(basename "$f" .c)
		rm -f "$us/build/san/$base.o" "$us/build/san/$base.d" "$us/build/libr2c2-san.a"
		;;
	esac
	for t in "$@"; do rm -f "$us/build/tests/$t"; done
}

start=$SECONDS
if ((!check_only)); then
	all=()
	for i in "${sel[@]}"; do all+=(${tests[i]}); done
	mapfile -t all < <(printf '%s\n' "${all[@]}" | sort -u)
	if [ -n "$kernel" ]; then
		echo "# building the modules for $abi in $scratch; unmutated: ${all[*]} in a guest"
	else
		echo "# building ${all[*]} (no sanitizers) in $scratch"
	fi
	if ! build "${all[@]}"; then
		echo "mutants: the unmutated tests do not build:" >&2
		tail -20 "$scratch/build.log" >&2
		exit 2
	fi
	if ! run_tests "${all[@]}"; then
		echo "mutants: the unmutated tests fail: $why" >&2
		exit 2
	fi
	echo "# unmutated: ${all[*]} pass ($((SECONDS - start)) s)"
fi

echo "1..${#sel[@]}"
n=0 killed=0 equiv=0 survived=0 broken=0
for i in "${sel[@]}"; do
	n=$((n + 1))
	name=${names[i]} f=${files[i]} from=${froms[i]} to=${tos[i]} eq=${equivs[i]}
	read -r -a ts <<<"${tests[i]}"
	path=$scratch/$f
	if [ ! -f "$path" ]; then
		echo "not ok $n - $name: broken: no file $f"
		broken=$((broken + 1))
		continue
	fi
	orig=
	IFS= read -r -d '' orig <"$path"
	rest=${orig//"$from"/}
	count=$(((${#orig} - ${#rest}) / ${#from}))
	if ((count != 1)); then
		echo "not ok $n - $name: broken: its snippet is in $f $count times, not once"
		broken=$((broken + 1))
		continue
	fi
	if ((check_only)); then
		echo "ok $n - $name: snippet found once in $f${eq:+ (equivalent)}"
		continue
	fi
	t0=$SECONDS
	printf '%s' "${orig/"$from"/"$to"}" >"$path"
	if ! build "${ts[@]}"; then
		printf '%s' "$orig" >"$path"
		forget "$f" "${ts[@]}"
		echo "not ok $n - $name: broken: the mutant does not build"
		sed -n '/error/{s/^/#   /;p;q}' "$scratch/build.log"
		broken=$((broken + 1))
		continue
	fi
	why=
	run_tests "${ts[@]}"
	rc=$?
	printf '%s' "$orig" >"$path"
	forget "$f" "${ts[@]}"
	dt=$((SECONDS - t0))
	if ((rc != 0)) && [ -n "$eq" ]; then
		echo "not ok $n - $name: broken: marked equivalent, but killed (${dt}s)"
		echo "#   $why"
		broken=$((broken + 1))
	elif ((rc != 0)); then
		echo "ok $n - $name: killed (${dt}s)"
		echo "#   $why"
		killed=$((killed + 1))
	elif [ -n "$eq" ]; then
		echo "ok $n - $name: equivalent (${dt}s): $eq"
		equiv=$((equiv + 1))
	else
		echo "not ok $n - $name: survived ${ts[*]} (${dt}s): $f"
		survived=$((survived + 1))
	fi
done

if ((check_only)); then
	echo "# mutants: ${#sel[@]} listed, $broken broken"
	((broken == 0))
	exit
fi
echo "# mutants: $killed killed, $equiv equivalent, $survived survived, $broken broken (of ${#sel[@]}) in $((SECONDS - start)) s"
((survived == 0 && broken == 0))
