#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# setup.sh - install everything r2c2 needs on a fresh Debian 12 machine,
# from apt only. Idempotent: a second run installs nothing new.
#
# Installs: the toolchain, libnl-3/libnl-genl-3, iproute2, iperf3, qemu,
# Debian's stock cloud kernels (6.1 from bookworm, 6.12 from
# bookworm-backports) with matching headers, linux-source-6.1 for KUnit,
# and, where third_party/iproute2 is not of the installed iproute2's
# version, its source for the tc plugin, which it builds and installs
# for the host's tc. Downloads stay in apt's own cache (/var/cache/apt)
# and in $R2C2_CACHE (default /var/cache/r2c2), never in the repository.
#
# For the selftests under virtme-ng (vng): Debian's generic 6.1 kernel of
# the same ABI (it has 9p, which vng needs to share the host's files) with
# its headers, and virtme-ng 1.35 from Debian trixie (not packaged for
# bookworm; its dependencies are): the .deb is fetched from the pool of
# the Debian mirror apt uses (--mirror prints it; R2C2_DEBIAN_MIRROR sets
# it) and checked against the SHA-256 below, then installed with apt, so
# no trixie source is added. The extra sources name that mirror too.
#
# --debug-kernel (or R2C2_DEBUG_KERNEL=1) also builds the debug kernel of
# scripts/debug-kernel.sh (KASAN, kmemleak, lockdep...; 20+ minutes on 2
# cores the first time, nothing when cached) for vm-run --kernel debug.
set -euo pipefail

# The Debian mirror this machine's apt takes bookworm from, so that a
# machine behind a mirror of its own keeps it for the extra sources and
# the virtme-ng .deb: R2C2_DEBIAN_MIRROR, else the source of bookworm's
# main Packages in apt's configuration (apt-get indextargets: deb822 and
# one-line sources alike, downloaded or not), else deb.debian.org.
debian_mirror() {
	local m=${R2C2_DEBIAN_MIRROR:-}

	# shellcheck disable=SC2016 # apt's $(FIELD) placeholders, not ours
	[ -n "$m" ] || m=$(apt-get indextargets --no-release-info \
		--format '$(REPO_URI) $(RELEASE) $(COMPONENT) $(CREATED_BY)' 2>/dev/null |
		awk '$2 == "bookworm" && $3 == "main" && $4 == "Packages" { print $1; exit }')
	[ -n "$m" ] || m=http://deb.debian.org/debian
	echo "${m%/}"
}

DEBUG_KERNEL=${R2C2_DEBUG_KERNEL:-0}
for arg in "$@"; do
	case $arg in
	--debug-kernel) DEBUG_KERNEL=1 ;;
	--mirror) debian_mirror; exit 0 ;;
	*) echo "usage: $0 [--debug-kernel] [--mirror]" >&2; exit 2 ;;
	esac
done
MIRROR=$(debian_mirror)

R2C2_CACHE=${R2C2_CACHE:-/var/cache/r2c2}
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive

log() { printf 'setup: %s\n' "$*" >&2; }

add_sources() {
	local f=/etc/apt/sources.list.d/r2c2.sources
	[ -f "$f" ] && return 0
	log "adding bookworm-backports and deb-src of $MIRROR to $f"
	$SUDO tee "$f" >/dev/null <<SRC
Types: deb
URIs: $MIRROR
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: $MIRROR
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
	rm -f "$R2C2_CACHE/.apt-updated"
}

apt_update() {
	$SUDO mkdir -p "$R2C2_CACHE"
	if [ ! -f "$R2C2_CACHE/.apt-updated" ] ||
	   [ -n "$(find "$R2C2_CACHE/.apt-updated" -mmin +1440)" ]; then
		log "apt-get update"
		$SUDO apt-get update -qq
		$SUDO touch "$R2C2_CACHE/.apt-updated"
	fi
}

# Packages needed to build and test, all from bookworm.
BASE_PKGS=(
	build-essential pkg-config bc bison flex libelf-dev libssl-dev
	libnl-3-dev libnl-genl-3-dev libnl-route-3-dev
	iproute2 iperf3 iputils-ping ethtool tcpdump busybox-static cpio kmod jq
	curl
	qemu-system-x86 qemu-utils
	python3 dwarves dpkg-dev
	shellcheck
	glpk-utils libglpk-dev
	linux-source-6.1
	# tools/wireshark (tshark loads the dissector), tools/ynl (the upstream
	# YNL schema and tooling of 6.12, its python dependencies)
	tshark python3-yaml python3-jsonschema linux-source-6.12
	# make figures (userspace/tests/figures_test.sh draws them)
	gnuplot-nox graphviz
	# the libFuzzer harnesses of userspace/fuzz (make test builds and
	# runs them briefly; make check-fuzz-user at length)
	clang libclang-rt-14-dev
	# the simulator (sim/: ns-3 3.37, and the libraries its .pc files name)
	libns3-dev libgsl-dev libsqlite3-dev libxml2-dev
	# the XDP transit program (xdp/: clang's BPF target) and r2c2ctl's
	# loader of it
	libbpf-dev
	# make check compiles through it (scripts/check.sh)
	ccache
)

pkg_missing() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || echo "$p"
	done
}

install_pkgs() {
	local missing
	mapfile -t missing < <(pkg_missing "$@")
	[ "${#missing[@]}" -eq 0 ] && return 0
	log "installing ${missing[*]}"
	$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" \
		>>"$R2C2_CACHE/apt.log" 2>&1 || { tail -n 30 "$R2C2_CACHE/apt.log" >&2; exit 1; }
}

# Versioned cloud kernel ABI (e.g. 6.1.0-56-cloud-amd64) that the
# linux-headers-cloud-amd64 metapackage of a kernel series depends on.
kernel_abi() {
	local series=$1
	apt-cache show linux-headers-cloud-amd64 |
		awk -v s="$series" '
			/^Version:/ { v = $2 }
			/^Depends:/ && index(v, s ".") == 1 {
				match($0, /linux-headers-[^ ,]*-cloud-amd64/)
				print v, substr($0, RSTART + 14, RLENGTH - 14)
			}' | sort -V | tail -n 1 | cut -d' ' -f2
}

install_kernels() {
	local abi61 abi612
	abi61=$(kernel_abi 6.1)
	abi612=$(kernel_abi 6.12)
	[ -n "$abi61" ] || { log "no 6.1 cloud kernel found in apt"; exit 1; }
	[ -n "$abi612" ] || { log "no 6.12 cloud kernel found in bookworm-backports"; exit 1; }
	install_pkgs "linux-image-$abi61" "linux-headers-$abi61"
	local missing
	mapfile -t missing < <(pkg_missing "linux-image-$abi612" "linux-headers-$abi612")
	if [ "${#missing[@]}" -gt 0 ]; then
		log "installing ${missing[*]} from bookworm-backports"
		$SUDO apt-get install -y -qq --no-install-recommends \
			-t bookworm-backports "${missing[@]}" \
			>>"$R2C2_CACHE/apt.log" 2>&1 || { tail -n 30 "$R2C2_CACHE/apt.log" >&2; exit 1; }
	fi
	printf '%s\n%s\n' "$abi61" "$abi612" | $SUDO tee "$R2C2_CACHE/kernels" >/dev/null
	log "kernels: $abi61 $abi612"
}

VNG_DEB=virtme-ng_1.35-1_all.deb
VNG_URL=$MIRROR/pool/main/v/virtme-ng/$VNG_DEB
VNG_SHA256=e7b9d2f28e34766446db5c40b7fdd9a09ed561af21e4aa580a660ff9a0a86f5a

# The generic kernel for vng (its ABI in $R2C2_CACHE/vng-kernel) and vng.
install_vng() {
	local abi deb=$R2C2_CACHE/$VNG_DEB

	abi=$(sed -n 1p "$R2C2_CACHE/kernels")
	abi=${abi/-cloud-/-}
	install_pkgs "linux-image-$abi" "linux-headers-$abi"
	echo "$abi" | $SUDO tee "$R2C2_CACHE/vng-kernel" >/dev/null
	[ -z "$(pkg_missing virtme-ng)" ] && return 0
	if ! echo "$VNG_SHA256  $deb" | sha256sum -c --status 2>/dev/null; then
		log "fetching $VNG_URL"
		$SUDO curl -fsSL -o "$deb.part" "$VNG_URL" ||
			{ log "could not fetch $VNG_URL"; exit 1; }
		echo "$VNG_SHA256  $deb.part" | sha256sum -c --status ||
			{ log "$VNG_DEB: SHA-256 mismatch (expected $VNG_SHA256)"; exit 1; }
		$SUDO mv "$deb.part" "$deb"
	fi
	log "installing virtme-ng ($VNG_DEB)"
	$SUDO apt-get install -y -qq --no-install-recommends "$deb" \
		>>"$R2C2_CACHE/apt.log" 2>&1 || { tail -n 30 "$R2C2_CACHE/apt.log" >&2; exit 1; }
}

# iproute2 source of the installed tc, for the tc and ip plugins, where
# third_party/iproute2 has the headers of another upstream version
fetch_iproute2_src() {
	local ver dir repo
	repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	ver=$(dpkg-query -W -f='${Version}' iproute2)
	dir="$R2C2_CACHE/iproute2-$ver"
	[ "$(echo "$ver" | sed -e 's/^[0-9]*://' -e 's/-[^-]*$//')" = \
	  "$(cat "$repo/third_party/iproute2/VERSION" 2>/dev/null)" ] && return 0
	[ -d "$dir/src" ] && return 0
	log "fetching iproute2 $ver source"
	$SUDO mkdir -p "$dir"
	(cd "$dir" && $SUDO apt-get source -qq "iproute2=$ver" >/dev/null &&
	 $SUDO sh -c 'mv iproute2-*/ src')
}

# q_r2c2.so built as the calling user (no root-owned files in the
# repository) and installed where the host's tc looks for it (Debian:
# /usr/lib/<multiarch>/tc, see tc/Makefile); the VM runner links the
# repository's copy into the guest itself. Skipped when identical.
install_tc_plugin() {
	local repo lib
	repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	[ -f "$repo/tc/Makefile" ] || return 0
	# a plugin that does not build fails the build step of make check,
	# not the setup
	make -s -C "$repo/tc" q_r2c2.so ||
		{ log "q_r2c2.so did not build: the host's tc has no r2c2"; return 0; }
	lib=$(make -s -C "$repo/tc" --no-print-directory print-libdir)
	cmp -s "$repo/tc/q_r2c2.so" "$lib/q_r2c2.so" && return 0
	log "installing q_r2c2.so in $lib"
	$SUDO make -s -C "$repo/tc" install
}

# linux-source tarball unpacked once, for kunit.py and checkpatch.pl.
unpack_linux_source() {
	local tb
	[ -d "$R2C2_CACHE/linux-source-6.1/tools/testing/kunit" ] && return 0
	tb=$(ls /usr/src/linux-source-6.1.tar.* | head -n 1)
	log "unpacking $tb"
	$SUDO mkdir -p "$R2C2_CACHE"
	$SUDO tar -C "$R2C2_CACHE" -xf "$tb"
}

add_sources
apt_update
install_pkgs "${BASE_PKGS[@]}"
install_kernels
install_vng
fetch_iproute2_src
install_tc_plugin
unpack_linux_source
if [ "$DEBUG_KERNEL" = 1 ]; then
	bash "$(dirname "${BASH_SOURCE[0]}")/debug-kernel.sh"
fi
log "done"
