#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check-install.sh - "make check-install": stage "make install DESTDIR=..."
# for each kernel, check the staged systemd units with systemd-analyze
# verify, then boot the kernel with no r2c2 module of vm-run's own
# (--modules none) and the staged tree (--install-tree), and run
# selftests/install_rack.sh there: it installs the tree into the guest's
# / and brings two nodes up from the installed files only.
#
# R2C2_CHECK_INSTALL_KERNELS="6.1 6.12" (default both). Exit status 0 when
# every kernel passed.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${R2C2_CACHE:-/var/cache/r2c2}
cd "$REPO"
[ -r "$CACHE/kernels" ] || { echo "check-install: $CACHE/kernels not found: run scripts/setup.sh" >&2; exit 1; }

fail=0
for k in ${R2C2_CHECK_INSTALL_KERNELS:-6.1 6.12}; do
	case $k in
	6.1) abi=$(sed -n 1p "$CACHE/kernels") ;;
	6.12) abi=$(sed -n 2p "$CACHE/kernels") ;;
	*) abi=$k ;;
	esac
	stage=$REPO/build/install-root/$abi
	t0=$SECONDS
	echo "### check-install: make install DESTDIR=$stage KVER=$abi"
	rm -rf "$stage"
	make -s --no-print-directory install DESTDIR="$stage" KVER="$abi" >/dev/null ||
		{ echo "check-install: make install failed for $abi" >&2; fail=1; continue; }
	if command -v systemd-analyze >/dev/null; then
		# The units name /usr/sbin/...: point them at the staged programs.
		u=$REPO/build/install-root/units-$abi
		rm -rf "$u"; mkdir -p "$u"
		for f in "$stage"/lib/systemd/system/*.service; do
			sed "s,/usr/sbin/,$stage/usr/sbin/,g" "$f" >"$u/${f##*/}"
		done
		if systemd-analyze verify --man=no "$u"/*.service; then
			echo "### check-install: systemd-analyze verify: units ok"
		else
			echo "check-install: systemd-analyze verify failed" >&2; fail=1
		fi
	fi
	echo "### check-install: the installed tree in a $k guest"
	if scripts/vm-run --kernel "$k" --modules none --install-tree "$stage" \
		-- selftests/run.sh install_rack.sh; then
		echo "### check-install: $k passed ($((SECONDS - t0)) s)"
	else
		echo "### check-install: $k FAILED ($((SECONDS - t0)) s)"
		fail=1
	fi
done
exit "$fail"
