#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh - set up, build, boot a VM and run the 3x3 torus demo
# (scripts/demo-guest.sh) in it. `make demo` runs this.
#   R2C2_DEMO_KERNEL=6.12 make demo    to boot the 6.12 kernel instead
#   scripts/demo.sh loop               the rate loop instead: three flows
#                                      through a 10 Mbit/s link, plain TCP
#                                      and with r2c2d (scripts/demo-loop-guest.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
kernel=${R2C2_DEMO_KERNEL:-6.1}
bash scripts/setup.sh
abi=$(sed -n "$([ "$kernel" = 6.12 ] && echo 2 || echo 1)p" /var/cache/r2c2/kernels)
make --no-print-directory modules KVER="$abi" >/dev/null
make --no-print-directory userspace >/dev/null
case ${1:-} in
"")	guest=scripts/demo-guest.sh ;;
loop)	guest=scripts/demo-loop-guest.sh	# tc needs q_r2c2.so for the options
	make --no-print-directory -C tc >/dev/null ;;
*)	echo "usage: $0 [loop]" >&2; exit 2 ;;
esac
exec scripts/vm-run --kernel "$kernel" -- "$guest"
