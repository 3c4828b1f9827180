#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# kunit.sh - run the project's KUnit suites (kunit/*.c).
#
#   scripts/kunit.sh [--no-build] [SUITE...]
#
# Debian kernels do not enable KUnit; the project's debug kernel
# (scripts/debug-kernel.sh 6.1: KASAN, kmemleak, lockdep, UBSAN) does.
# Each suite file kunit/<name>.c is a module, r2c2_<name>.ko (kunit/Kbuild;
# `make modules-debug KVER=6.1` builds them with r2c2.ko), whose suites run
# when it is loaded. This script builds the debug kernel unless it is
# cached, builds the modules (not with --no-build: make modules-debug ran
# already), boots the debug kernel (scripts/vm-run) and loads them one by
# one there (SUITE: only those files, e.g. auth_test), collects their KTAP
# from the kernel log and has the source's kunit.py parse it. A KASAN,
# lockdep or UBSAN report, or a WARN, panics the guest: a failure.
# R2C2_KUNIT_KVER=6.12 runs them on the 6.12 debug kernel instead.
#
#   scripts/kunit.sh --uml [kunit.py run options, e.g. a filter glob]
#
# runs them in a User Mode Linux kernel instead, which kunit.py builds from
# linux-source-6.1 (unpacked by scripts/setup.sh) with the suites placed in
# the tree (its first build takes about 11 minutes):
#
#   $R2C2_CACHE/kunit-src         writable copy of the source (hard links,
#                                 made once; files we change are replaced,
#                                 never edited in place)
#     net/r2c2_kunit/Kconfig      R2C2_KUNIT_TEST          (generated)
#     net/r2c2_kunit/Makefile     one object per suite     (generated)
#     net/r2c2_kunit/.kunitconfig copy of kunit/.kunitconfig
#     net/r2c2_kunit/{kunit,common,include,kmod} -> symlinks into this repo
#   $R2C2_CACHE/kunit-build       kunit.py --build_dir (incremental)
#
# Suites #include the code under test ("../common/paths.c") and headers
# (<r2c2/wire.h>, <linux/r2c2.h> from include/uapi). In UML each suite is
# linked with every symbol made local, so several suites may include the
# same source without clashing (as modules, nothing is shared anyway).
#
# Exit status: 0 all passed, 4 if there is no suite, else non-zero.
# The last line is "kunit: N passed, N failed, N skipped".
#
#        scripts/kunit.sh --hook-tree DIR
# only places the suites in the kernel tree DIR (step 2 of --uml: the
# net/r2c2_kunit directory and one line each in net/Kconfig and
# net/Makefile; nothing else of DIR changes) and exits. kunit.py has no
# option for an external module directory, so this is how a kernel tree
# of your own runs them, with the kunitconfig of this repository:
#   cd DIR && tools/testing/kunit/kunit.py run --kunitconfig=<repo>/kunit
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${R2C2_CACHE:-/var/cache/r2c2}
SRC=$CACHE/linux-source-6.1
WORK=${R2C2_KUNIT_SRC:-$CACHE/kunit-src}
BUILD=${R2C2_KUNIT_BUILD:-$CACHE/kunit-build}
JOBS=${R2C2_JOBS:-$(nproc)}
TREE=net/r2c2_kunit
# the debug kernel the suites run on: 6.1 (make check) or 6.12
KV=${R2C2_KUNIT_KVER:-6.1}
case $KV in 6.1|6.12) ;; *) echo "kunit.sh: R2C2_KUNIT_KVER is 6.1 or 6.12, not \"$KV\"" >&2; exit 2 ;; esac

MODE=vm
case ${1:-} in
--uml) MODE=uml; shift ;;
--guest) MODE=guest; shift ;;
-h|--help) sed -n '3,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
esac

HOOK_ONLY=0
if [ "${1:-}" = --hook-tree ]; then
	MODE=uml
	[ -f "${2:-}/tools/testing/kunit/kunit.py" ] ||
		{ echo "kunit.sh: --hook-tree DIR: DIR must be a kernel source tree with tools/testing/kunit" >&2; exit 2; }
	HOOK_ONLY=1 WORK=$(cd "$2" && pwd)
fi

log() { printf 'kunit.sh: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

shopt -s nullglob
suites=("$REPO"/kunit/*.c)
shopt -u nullglob
if [ "${#suites[@]}" -eq 0 ]; then
	log "no suites in kunit/*.c: nothing to run"
	echo "kunit: 0 passed, 0 failed, 0 skipped"
	exit 4
fi

# summarize LOG RC: kunit.py's summary in LOG ("Testing complete. Ran 87
# tests: passed: 85, failed: 1, skipped: 1") as the last line, "kunit: N
# passed, N failed, N skipped"; crashes and errors count as failures, and
# a non-zero RC with none (a build failure, a crash or a timeout before
# any result) as one.
summarize() {
	local summary passed failed skipped crashed errors

	summary=$(grep -a 'Testing complete' "$1" | tail -n 1) || true
	count() { sed -n "s/.*$1: \([0-9]*\).*/\1/p" <<<"$summary"; }
	passed=$(count passed) failed=$(count failed) skipped=$(count skipped)
	crashed=$(count crashed) errors=$(count errors)
	passed=${passed:-0} failed=$((${failed:-0} + ${crashed:-0} + ${errors:-0})) skipped=${skipped:-0}
	if [ "$2" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
	echo "kunit: $passed passed, $failed failed, $skipped skipped"
}

# ---------------------------------------------------------------- guest
# In the debug guest (scripts/vm-run --out: /dev/ttyS1 carries the KTAP
# to the host, the console only what goes wrong). Each module's kernel
# log, from a cleared ring buffer (128 KB, CONFIG_LOG_BUF_SHIFT 17), with
# printk's time and caller prefix cut off.
if [ "$MODE" = guest ]; then
	out=/dev/ttyS1
	[ -c "$out" ] || out=/dev/stdout
	tab=$(printf '\t')
	[ -d /sys/kernel/debug/kunit ] || [ -d /sys/module/kunit ] ||
		grep -q ' kunit_run_tests$' /proc/kallsyms 2>/dev/null ||
		die "$(uname -r) has no KUnit: boot the debug kernel (scripts/vm-run --kernel debug)"
	rc=0
	for m in "$@"; do
		dmesg -c >/dev/null
		if ! err=$(modprobe "$m" 2>&1); then
			log "$m: modprobe failed: $err"
			rc=1
		fi
		# "[   51.512778][   T85] msg": the message and its indent
		dmesg | sed -E 's/^\[ *[0-9]+\.[0-9]+\](\[ *[TC][0-9]+\])? //' |
			grep -vE '^r2c2_[a-z0-9_]+: loading out-of-tree module' |
			sed "s/^/$m$tab/" >"$out"
		modprobe -r "$m" 2>/dev/null || { log "$m: did not unload"; rc=1; }
	done
	echo "r2c2-kunit: end" >"$out"
	exit "$rc"
fi

[ "$MODE" = vm ] || [ -f "$REPO/kunit/.kunitconfig" ] || die "kunit/.kunitconfig is missing"
[ "$HOOK_ONLY" = 1 ] || [ -f "$SRC/tools/testing/kunit/kunit.py" ] ||
	die "$SRC not found: run scripts/setup.sh first (it unpacks linux-source-6.1)"
command -v python3 >/dev/null || die "python3 not found: run scripts/setup.sh"

# ---------------------------------------------------------------- vm
if [ "$MODE" = vm ]; then
	build=1
	if [ "${1:-}" = --no-build ]; then build=0; shift; fi
	mods=()
	for f in "${suites[@]}"; do mods+=("r2c2_$(basename "$f" .c)"); done
	if [ $# -gt 0 ]; then
		mods=()
		for a in "$@"; do
			a=${a%.c} a=${a#kunit/}
			[ -f "$REPO/kunit/$a.c" ] || die "no suite file kunit/$a.c (the files: $(cd "$REPO" && echo kunit/*.c))"
			mods+=("r2c2_$a")
		done
	fi
	[ -f "$SRC/tools/testing/kunit/kunit.py" ] ||
		die "$SRC not found: run scripts/setup.sh first (it unpacks linux-source-6.1)"
	start=$SECONDS
	if [ "$build" = 1 ]; then
		"$REPO/scripts/debug-kernel.sh" "$KV" || die "scripts/debug-kernel.sh $KV failed"
		make -C "$REPO" --no-print-directory modules-debug KVER=$KV >&2 ||
			die "make modules-debug KVER=$KV failed"
	fi
	rel=$("$REPO/scripts/debug-kernel.sh" "$KV" --release) ||
		die "no debug kernel: run scripts/debug-kernel.sh $KV"
	kdir=$REPO/build/$rel/kunit
	for m in "${mods[@]}"; do
		[ -f "$kdir/$m.ko" ] || die "no $kdir/$m.ko: make modules-debug KVER=$KV"
	done
	LOG=$(mktemp "${TMPDIR:-/tmp}/kunit.XXXXXX")
	trap 'rm -f "$LOG" "$LOG".*' EXIT
	log "${#mods[@]} suite module(s) on $rel: ${mods[*]}"
	rc=0
	# only the suites' modules in the guest (they hold the code they test)
	"$REPO/scripts/vm-run" --kernel "debug-$KV" --mem "${R2C2_KUNIT_MEM:-1024}" \
		--timeout "${R2C2_KUNIT_TIMEOUT:-1200}" --out "$LOG.ktap" \
		--modules "$kdir" -- scripts/kunit.sh --guest "${mods[@]}" >&2 || rc=$?
	# The modules' KTAP: a suite is a subtest, numbered by the kernel's
	# count of suites run so far; number them 1..N here and say N. A
	# module that printed no suite is a failed test of its own.
	tr -d '\r' <"$LOG.ktap" 2>/dev/null | awk -F'\t' -v want="${mods[*]}" '
		$0 == "r2c2-kunit: end" { ended = 1; next }
		NF < 2 { next }
		{
			m = $1; line = substr($0, length(m) + 2)
			if (!(m in seen)) { seen[m] = 1; order[++nm] = m }
			# the header and plan of a module (6.12 prints them at
			# the top level): this run has one of its own
			if (line ~ /^KTAP version [0-9]+$/ || line ~ /^1\.\.[0-9]+$/)
				next
			if (match(line, /^(not )?ok [0-9]+ /)) {
				n++; ok = (line ~ /^not /) ? "not ok" : "ok"
				sub(/^(not )?ok [0-9]+ /, ok " " n " ", line)
				suites[m]++
			}
			body[++nl] = line
		}
		END {
			split(want, w, " ")
			for (i in w) if (!(w[i] in suites)) missing[++nmiss] = w[i]
			print "KTAP version 1"
			print "1.." (n + nmiss)
			for (i = 1; i <= nl; i++) print body[i]
			for (i = 1; i <= nmiss; i++)
				print "not ok " (n + i) " " missing[i] " # the module ran no suite"
			if (!ended) print "# r2c2-kunit: the guest did not finish"
		}' >"$LOG.tap"
	python3 "$SRC/tools/testing/kunit/kunit.py" parse "$LOG.tap" | tee "$LOG" || rc=$((rc ? rc : 1))
	grep -q '^r2c2-kunit: end' "$LOG.ktap" 2>/dev/null || { log "the guest did not finish (vm-run exit $rc)"; rc=$((rc ? rc : 1)); }
	log "exit status $rc after $((SECONDS - start))s"
	summarize "$LOG" "$rc"
	exit "$rc"
fi

# Replace a file of the hard-linked tree with new content (new inode), so
# that the pristine source in $SRC is never modified.
replace_file() {
	local dst=$1 tmp
	tmp=$(mktemp "$dst.XXXXXX")
	cat >"$tmp"
	chmod 644 "$tmp"
	if cmp -s "$tmp" "$dst"; then rm -f "$tmp"; else mv -f "$tmp" "$dst"; fi
}

# 1. A writable copy of the kernel source, once.
if [ "$HOOK_ONLY" = 0 ] && [ ! -f "$WORK/.r2c2-kunit-src" ]; then
	log "copying $SRC to $WORK (once)"
	rm -rf "$WORK.tmp"
	mkdir -p "$(dirname "$WORK")"
	cp -al "$SRC" "$WORK.tmp" 2>/dev/null || { rm -rf "$WORK.tmp"; cp -a "$SRC" "$WORK.tmp"; }
	touch "$WORK.tmp/.r2c2-kunit-src"
	rm -rf "$WORK"
	mv "$WORK.tmp" "$WORK"
fi

# 2. The suites in the tree: hooks in net/Kconfig and net/Makefile.
mkdir -p "$WORK/$TREE"
# The build is incremental by file times: objects another checkout built
# can be newer than this checkout's sources and would be kept. The
# suites' objects go when the links move to another checkout.
if [ "$HOOK_ONLY" = 0 ] && [ -L "$WORK/$TREE/kunit" ] &&
	[ "$(readlink "$WORK/$TREE/kunit")" != "$REPO/kunit" ]; then
	log "suites built from $(readlink "$WORK/$TREE/kunit"): rebuilding them from $REPO"
	rm -rf "${BUILD:?}/$TREE"
fi
for d in kunit common include kmod; do
	[ -d "$REPO/$d" ] && ln -sfn "$REPO/$d" "$WORK/$TREE/$d"
done
grep -q '^source "net/r2c2_kunit/Kconfig"' "$WORK/net/Kconfig" ||
	{ cat "$WORK/net/Kconfig"; printf '\nsource "net/r2c2_kunit/Kconfig"\n'; } |
	replace_file "$WORK/net/Kconfig"
# shellcheck disable=SC2016  # make syntax, not shell
grep -q 'r2c2_kunit/' "$WORK/net/Makefile" ||
	{ cat "$WORK/net/Makefile"; printf 'obj-$(CONFIG_R2C2_KUNIT_TEST)\t+= r2c2_kunit/\n'; } |
	replace_file "$WORK/net/Makefile"

replace_file "$WORK/$TREE/Kconfig" <<'EOF'
# SPDX-License-Identifier: GPL-2.0
# Generated by r2c2 scripts/kunit.sh; do not edit.
config R2C2_KUNIT_TEST
	bool "KUnit tests of r2c2" if !KUNIT_ALL_TESTS
	depends on KUNIT && NET
	default KUNIT_ALL_TESTS
	help
	  The r2c2 project's KUnit suites (kunit/*.c of the r2c2 repository).
EOF

{
	cat <<'EOF'
# SPDX-License-Identifier: GPL-2.0
# Generated by r2c2 scripts/kunit.sh; do not edit.
ccflags-y += -I$(srctree)/$(src)/include -I$(srctree)/$(src)/include/uapi

# Each suite carries its own copy of the code under test: make all its
# symbols local so that copies in different suites cannot clash.
quiet_cmd_localize = LOCALIZE $@
      cmd_localize = $(OBJCOPY) -w --localize-symbol='*' $< $@
EOF
	# shellcheck disable=SC2016  # make syntax, not shell
	for f in "${suites[@]}"; do
		n=$(basename "$f" .c)
		printf '\nobj-$(CONFIG_R2C2_KUNIT_TEST) += r2c2_%s.o\n' "$n"
		printf 'targets += kunit/%s.o\n' "$n"
		printf '$(obj)/r2c2_%s.o: $(obj)/kunit/%s.o FORCE\n\t$(call if_changed,localize)\n' "$n" "$n"
	done
} | replace_file "$WORK/$TREE/Makefile"
cp "$REPO/kunit/.kunitconfig" "$WORK/$TREE/.kunitconfig.new"
if cmp -s "$WORK/$TREE/.kunitconfig.new" "$WORK/$TREE/.kunitconfig"; then
	rm -f "$WORK/$TREE/.kunitconfig.new"
else
	mv -f "$WORK/$TREE/.kunitconfig.new" "$WORK/$TREE/.kunitconfig"
fi

if [ "$HOOK_ONLY" = 1 ]; then
	log "suites placed in $WORK/$TREE; now run:"
	log "  cd $WORK && tools/testing/kunit/kunit.py run --kunitconfig=$REPO/kunit"
	exit 0
fi

# 3. Build and run.
mkdir -p "$BUILD"
LOG=$(mktemp "${TMPDIR:-/tmp}/kunit.XXXXXX")
trap 'rm -f "$LOG"' EXIT
log "${#suites[@]} suite file(s): $(cd "$REPO" && echo kunit/*.c)"
log "building UML in $BUILD with $JOBS jobs (first build takes minutes)"
start=$SECONDS
rc=0
(cd "$WORK" && python3 tools/testing/kunit/kunit.py run \
	--build_dir="$BUILD" --kunitconfig="$TREE/.kunitconfig" \
	--jobs="$JOBS" --timeout="${R2C2_KUNIT_TIMEOUT:-900}" "$@") 2>&1 |
	tee "$LOG" || rc=$?
log "kunit.py exit status $rc after $((SECONDS - start))s"

summarize "$LOG" "$rc"
exit "$rc"
