#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check-deb.sh - "make check-deb": build r2c2's Debian packages (make deb)
# and, for each kernel, boot it with no r2c2 module of vm-run's own
# (--modules none) and the packages (--debs), and run
# selftests/deb_rack.sh there: dpkg -i of r2c2-tools and r2c2-dkms (DKMS
# builds the modules in the guest), a 2x2 torus brought up from the
# installed files, then dpkg -r and dpkg -P. About 6 minutes a kernel
# under TCG, most of it DKMS compiling; not in make check for that time.
#
# R2C2_CHECK_DEB_KERNELS="6.1 6.12" (default both). Needs the build
# dependencies of the packages and, for the guest, dkms and the kernels'
# headers on the host: installed with apt-get when missing (as root).
# Exit status 0 when every kernel passed.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${R2C2_CACHE:-/var/cache/r2c2}
cd "$REPO"
[ -r "$CACHE/kernels" ] || { echo "check-deb: $CACHE/kernels not found: run scripts/setup.sh" >&2; exit 1; }

kernels=${R2C2_CHECK_DEB_KERNELS:-6.1 6.12}
need=(debhelper dh-dkms dkms libnl-3-dev libnl-genl-3-dev pkg-config)
for k in $kernels; do
	case $k in
	6.1) need+=("linux-headers-$(sed -n 1p "$CACHE/kernels")") ;;
	6.12) need+=("linux-headers-$(sed -n 2p "$CACHE/kernels")") ;;
	*) echo "check-deb: unknown kernel '$k' in R2C2_CHECK_DEB_KERNELS (6.1 or 6.12)" >&2; exit 1 ;;
	esac
done
missing=()
for p in "${need[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
	[ "$(id -u)" = 0 ] || { echo "check-deb: missing ${missing[*]}: apt-get install ${missing[*]}" >&2; exit 1; }
	echo "### check-deb: apt-get install ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

echo "### check-deb: make deb"
t0=$SECONDS
make -s --no-print-directory deb >"$REPO/build/deb.log" 2>&1 ||
	{ tail -30 "$REPO/build/deb.log" >&2; echo "check-deb: make deb failed (build/deb.log)" >&2; exit 1; }
# The packages an operator installs (not the -dbgsym one).
debs=$REPO/build/deb/test
mkdir -p "$debs"
cp build/deb/r2c2-dkms_*_all.deb build/deb/r2c2-tools_*_amd64.deb "$debs/"
echo "### check-deb: $(cd "$debs" && echo *.deb) ($((SECONDS - t0)) s)"

fail=0
for k in $kernels; do
	t0=$SECONDS
	echo "### check-deb: the packages in a $k guest"
	if scripts/vm-run --kernel "$k" --mem 3072 --modules none --debs "$debs" \
		--timeout 1500 -- selftests/run.sh deb_rack.sh; then
		echo "### check-deb: $k passed ($((SECONDS - t0)) s)"
	else
		echo "### check-deb: $k FAILED ($((SECONDS - t0)) s)"
		fail=1
	fi
done
exit "$fail"
