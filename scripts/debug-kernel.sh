#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# debug-kernel.sh - build the r2c2 debug kernel (KASAN, kmemleak, lockdep,
# UBSAN, ref trackers, debug objects) for `scripts/vm-run --kernel debug`
# (6.1) and `scripts/vm-run --kernel debug-6.12`.
#
#	scripts/debug-kernel.sh [6.1|6.12]            build it unless already built
#	scripts/debug-kernel.sh [6.1|6.12] --dir      print its cache directory (no build)
#	scripts/debug-kernel.sh [6.1|6.12] --release  print its kernel release (built only)
#
# The version defaults to 6.1 (also: R2C2_DEBUG_KVER).
# Source: Debian's linux-source-<version>, unpacked in
# $R2C2_CACHE/linux-source-<version> (by scripts/setup.sh for 6.1, here from
# /usr/src for 6.12), built out of tree (O=), never modified.
# Config: `make tinyconfig` + scripts/debug-kernel.config, then for 6.12
# scripts/debug-kernel-6.12.config on top of it (its lines override the
# base fragment's; `# removed CONFIG_X` drops the base's line of a symbol
# that version no longer has). Checked: an option of the fragment that
# olddefconfig dropped fails the build, naming the option.
#
# Output in $R2C2_CACHE/debug-kernel/<key>/, key = hash of the fragment(s),
# of the source package version and of RECIPE below (for 6.1 exactly the
# key of the days before 6.12 existed):
#	build/     the O= tree: also the KDIR to build r2c2 modules against
#	           (make modules KVER=$(cat release) KDIR=.../build, or
#	           make modules-debug)
#	vmlinuz    the bzImage
#	modules/   INSTALL_MOD_PATH of modules_install: lib/modules/<release>/
#	           with modules.builtin and modules.dep (everything is built in)
#	release    the kernel release, <version>.<n>-r2c2-debug-<key8>
#	build-info build time, load average, jobs
# A second run with the same key does nothing. The build runs under
# nice -n R2C2_DEBUG_NICE (default 19: it only takes idle CPU; ionice -c3
# then too) with R2C2_JOBS jobs (default: nproc).
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${R2C2_CACHE:-/var/cache/r2c2}
KVER=${R2C2_DEBUG_KVER:-6.1}
case ${1:-} in
6.1|6.12) KVER=$1; shift ;;
esac
case $KVER in
6.1|6.12) ;;
*) printf 'debug-kernel: error: unknown version %s (6.1 or 6.12)\n' "$KVER" >&2; exit 1 ;;
esac
SRC=${R2C2_DEBUG_KERNEL_SRC:-$CACHE/linux-source-$KVER}
FRAG=$REPO/scripts/debug-kernel.config
# per-version lines on top of FRAG (none for 6.1)
VFRAG=
[ "$KVER" = 6.1 ] || VFRAG=$REPO/scripts/debug-kernel-$KVER.config
JOBS=${R2C2_JOBS:-$(nproc)}
# Bump when the build steps below change what ends up in the cache.
RECIPE=1

log() { printf 'debug-kernel: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

src_version() {
	dpkg-query -W -f='${Version}' "linux-source-$KVER" 2>/dev/null || echo unknown
}

# For 6.1 the input is what it was before VFRAG existed: same key.
key() {
	{ cat "$FRAG"; src_version; echo "recipe $RECIPE"; [ -z "$VFRAG" ] || cat "$VFRAG"; } |
		sha256sum | cut -c1-16
}

# The fragment of this version: FRAG without the symbols VFRAG sets or
# removes, then VFRAG's settings.
fragment() {
	local syms
	if [ -z "$VFRAG" ]; then
		cat "$FRAG"
		return
	fi
	syms=$(grep -oE '^(# removed |# )?CONFIG_[A-Za-z0-9_]+' "$VFRAG" | grep -oE 'CONFIG_[A-Za-z0-9_]+' | sort -u)
	grep -vE "^(# )?($(echo "$syms" | paste -sd'|'))[= ]" "$FRAG"
	grep -vE '^# removed ' "$VFRAG"
}

DIR=$CACHE/debug-kernel/$(key)

case ${1:-} in
--dir) echo "$DIR"; exit 0 ;;
--release)
	[ -f "$DIR/.done" ] || die "not built yet: run scripts/debug-kernel.sh"
	cat "$DIR/release"; exit 0 ;;
"") ;;
-h|--help) sed -n '4,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
*) die "unknown argument '$1'" ;;
esac

if [ -f "$DIR/.done" ]; then
	log "up to date: $DIR ($(cat "$DIR/release"))"
	exit 0
fi
# scripts/setup.sh unpacks 6.1 only (and installs linux-source-6.12)
if [ ! -f "$SRC/Makefile" ] && [ -z "${R2C2_DEBUG_KERNEL_SRC:-}" ]; then
	tbs=(/usr/src/linux-source-"$KVER".tar.*)
	tb=${tbs[0]}
	if [ -f "$tb" ]; then
		log "unpacking $tb in $CACHE"
		mkdir -p "$CACHE"
		tar -C "$CACHE" -xf "$tb" || die "could not unpack $tb"
	fi
fi
[ -f "$SRC/Makefile" ] || die "no kernel source at $SRC: run scripts/setup.sh"
[ -z "$VFRAG" ] || [ -f "$VFRAG" ] || die "no $VFRAG"
mkdir -p "$DIR"
exec 9>"$DIR/.lock"
flock 9
[ ! -f "$DIR/.done" ] || { log "built meanwhile: $DIR"; exit 0; }

B=$DIR/build
LOG=$DIR/build.log
release="$(make -s -C "$SRC" kernelversion)-r2c2-debug-$(key | cut -c1-8)"
NICE=()
DNICE=${R2C2_DEBUG_NICE:-19}
if ! [[ $DNICE =~ ^[0-9]+$ ]] || ((DNICE > 19)); then
	die "R2C2_DEBUG_NICE: '$DNICE' is not a nice level from 0 to 19"
fi
command -v nice >/dev/null && NICE+=(nice -n "$DNICE")
((DNICE < 19)) || ! command -v ionice >/dev/null || NICE+=(ionice -c3)
KMAKE=(make -C "$SRC" O="$B" ARCH=x86_64)

# Config: tinyconfig, the fragment, our release string, olddefconfig.
mkdir -p "$B"
log "configuring in $B (tinyconfig + ${FRAG#"$REPO"/}${VFRAG:+ + ${VFRAG#"$REPO"/}})"
fragment >"$DIR/fragment.config"
"${KMAKE[@]}" -s tinyconfig >"$LOG" 2>&1 || { tail -n 20 "$LOG" >&2; die "tinyconfig failed"; }
"$SRC/scripts/kconfig/merge_config.sh" -m -O "$B" "$B/.config" "$DIR/fragment.config" >>"$LOG" 2>&1
"$SRC/scripts/config" --file "$B/.config" --set-str LOCALVERSION "-r2c2-debug-$(key | cut -c1-8)"
"${KMAKE[@]}" -s olddefconfig >>"$LOG" 2>&1 || { tail -n 20 "$LOG" >&2; die "olddefconfig failed"; }

# Every option of the fragment must have survived olddefconfig. A
# "not set" line of a symbol this kernel does not know does nothing: warn.
bad=0
while IFS= read -r line; do
	if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
		grep -qxF "$line" "$B/.config" || {
			log "fragment wants $line; .config has: $(grep -E "^(# )?${BASH_REMATCH[1]}[= ]" "$B/.config" || echo nothing)"
			bad=1
		}
	elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
		! grep -q "^${BASH_REMATCH[1]}=" "$B/.config" || {
			log "fragment wants $line; .config has: $(grep "^${BASH_REMATCH[1]}=" "$B/.config")"
			bad=1
		}
		grep -qE "^(# )?${BASH_REMATCH[1]}[= ]" "$B/.config" ||
			grep -rqxE --include='Kconfig*' "(menu)?config ${BASH_REMATCH[1]#CONFIG_}" "$SRC" ||
			log "warning: $KVER has no ${BASH_REMATCH[1]}: '$line' does nothing"
	fi
done <"$DIR/fragment.config"
[ "$bad" = 0 ] || die "the fragment does not apply to $KVER (missing dependency?): fix ${FRAG#"$REPO"/}${VFRAG:+ or ${VFRAG#"$REPO"/}}"

# Build. modules_install with no module still writes modules.builtin and
# runs depmod, so that `modprobe veth` succeeds in the guest.
log "building $release with $JOBS jobs (log: $LOG)"
t0=$(date +%s)
load0=$(cut -d' ' -f1-3 /proc/loadavg)
"${NICE[@]}" "${KMAKE[@]}" -j"$JOBS" bzImage modules >>"$LOG" 2>&1 ||
	{ tail -n 40 "$LOG" >&2; die "kernel build failed (log: $LOG)"; }
t1=$(date +%s)
load1=$(cut -d' ' -f1-3 /proc/loadavg)
[ "$("${KMAKE[@]}" -s kernelrelease)" = "$release" ] ||
	die "kernel release is $("${KMAKE[@]}" -s kernelrelease), expected $release"
rm -rf "$DIR/modules"
"${KMAKE[@]}" -s INSTALL_MOD_PATH="$DIR/modules" modules_install >>"$LOG" 2>&1 ||
	{ tail -n 20 "$LOG" >&2; die "modules_install failed"; }
rm -f "$DIR/modules/lib/modules/$release"/{build,source}
cp "$B/arch/x86/boot/bzImage" "$DIR/vmlinuz"
echo "$release" >"$DIR/release"
{
	echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "source: linux-source-$KVER $(src_version)"
	echo "seconds: $((t1 - t0))"
	echo "jobs: $JOBS (nproc $(nproc))"
	echo "loadavg before: $load0"
	echo "loadavg after: $load1"
} >"$DIR/build-info"
touch "$DIR/.done"
log "built $release in $((t1 - t0))s (load before: $load0, after: $load1): $DIR"
