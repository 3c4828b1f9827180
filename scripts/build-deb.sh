#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build-deb.sh - build the r2c2-dkms and r2c2-tools packages from this
# checkout's tracked files, in build/deb/ so that nothing lands next to
# the repository.
#
#   build-deb.sh            dpkg-buildpackage -b (unsigned) on this
#                           machine: needs debhelper, dh-dkms, libnl and
#                           pkg-config (make deb)
#   build-deb.sh --chroot   the source package (dpkg-buildpackage -S),
#                           then its binary packages in a clean Debian 12
#                           chroot made by mmdebstrap (buildd variant),
#                           with only what debian/control's Build-Depends
#                           bring (apt-get build-dep); then lintian on
#                           the result, which must report no error or
#                           warning (make deb-chroot; root, mmdebstrap and
#                           lintian; the mirror is apt's, as in
#                           scripts/setup.sh, or R2C2_DEBIAN_MIRROR)
#
# Neither reads anything from R2C2_CACHE: the tc and ip plugins compile
# against third_party/iproute2.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$REPO"
chroot=0
case ${1:-} in
'') ;;
--chroot) chroot=1 ;;
*) echo "usage: $0 [--chroot]" >&2; exit 2 ;;
esac
ver=$(dpkg-parsechangelog -S Version)
out=$REPO/build/deb
src=$out/r2c2-$ver
need=(debhelper dh-dkms libnl-3-dev libnl-genl-3-dev pkg-config)
((chroot)) && need=(dpkg-dev mmdebstrap lintian)
missing=()
for p in "${need[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
[ "${#missing[@]}" = 0 ] || { echo "build-deb: missing ${missing[*]}: apt-get install ${missing[*]}" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$src"
git ls-files -z | tar --null -T - -cf - | tar -C "$src" -xf -
if ((!chroot)); then
	(cd "$src" && dpkg-buildpackage -us -uc -b)
	ls -l "$out"/*.deb
	exit 0
fi

[ "$(id -u)" = 0 ] || { echo "build-deb: --chroot needs root (mmdebstrap's root mode)" >&2; exit 1; }
# the source package: what an archive's buildd would be given
(cd "$src" && dpkg-buildpackage -us -uc -S -d)
dsc=$out/r2c2_$ver.dsc
mirror=${R2C2_DEBIAN_MIRROR:-$(bash scripts/setup.sh --mirror)}
res=$out/chroot
mkdir -p "$res"
echo "### build-deb: $dsc in a clean bookworm chroot from $mirror"
# the hooks' $1 is the chroot (single quotes: mmdebstrap expands it);
# /dev/null: no image is kept
# shellcheck disable=SC2016
mmdebstrap --variant=buildd --quiet \
	--customize-hook="mkdir -p \"\$1/build\"" \
	--customize-hook="copy-in $dsc $out/r2c2_$ver.tar.xz /build" \
	--customize-hook='chroot "$1" sh -ec "cd /build && dpkg-source -x r2c2_*.dsc src >/dev/null && cd src && apt-get -q -y build-dep ./ >/dev/null && dpkg-buildpackage -us -uc -b"' \
	--customize-hook="chroot \"\$1\" sh -c 'mkdir /build/out && mv /build/*.deb /build/*.changes /build/*.buildinfo /build/out/'" \
	--customize-hook="sync-out /build/out $res" \
	bookworm /dev/null "deb $mirror bookworm main"
ls -l "$res"
echo "### build-deb: lintian"
lintian --fail-on error,warning --pedantic -I "$res"/*.changes "$dsc"
