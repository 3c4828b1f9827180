#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ynl-src.sh - print a directory holding the upstream YNL tooling
# (tools/net/ynl/) and spec schemas (Documentation/netlink/) of Linux
# 6.12, unpacking them once from Debian's linux-source-6.12 into
# $R2C2_CACHE/ynl-6.12 (about 10 s). R2C2_YNL_SRC overrides.
set -euo pipefail
if [[ -n ${R2C2_YNL_SRC:-} ]]; then
	echo "$R2C2_YNL_SRC"
	exit 0
fi
dir=${R2C2_CACHE:-/var/cache/r2c2}/ynl-6.12
src=$dir/linux-source-6.12
if [[ ! -f $src/tools/net/ynl/cli.py ]]; then
	tarball=/usr/src/linux-source-6.12.tar.xz
	if [[ ! -f $tarball ]]; then
		echo "ynl-src.sh: $tarball not found: apt-get install linux-source-6.12 (scripts/setup.sh)" >&2
		exit 1
	fi
	mkdir -p "$dir"
	tar -C "$dir" -xJf "$tarball" 'linux-source-6.12/tools/net/ynl' \
		'linux-source-6.12/Documentation/netlink'
fi
echo "$src"
