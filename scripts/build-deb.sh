#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build-deb.sh - build the r2c2-dkms and r2c2-tools packages
# (dpkg-buildpackage -b, unsigned) from this checkout's tracked files, in
# build/deb/r2c2-VERSION/ so that nothing lands next to the repository.
# The packages end up in build/deb/. Needs debhelper, dh-dkms, libnl
# and the iproute2 source of scripts/setup.sh (for q_r2c2.so).
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$REPO"
ver=$(dpkg-parsechangelog -S Version)
out=$REPO/build/deb
src=$out/r2c2-$ver
missing=()
for p in debhelper dh-dkms libnl-3-dev libnl-genl-3-dev pkg-config; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
[ "${#missing[@]}" = 0 ] || { echo "build-deb: missing ${missing[*]}: apt-get install ${missing[*]}" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$src"
git ls-files -z | tar --null -T - -cf - | tar -C "$src" -xf -
(cd "$src" && dpkg-buildpackage -us -uc -b)
ls -l "$out"/*.deb
