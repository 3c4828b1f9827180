#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh - set up, build, boot a VM and run the 3x3 torus demo
# (scripts/demo-guest.sh) in it. `make demo` runs this.
#   R2C2_DEMO_KERNEL=6.12 make demo    to boot the 6.12 kernel instead
set -euo pipefail
cd "$(dirname "$0")/.."
kernel=${R2C2_DEMO_KERNEL:-6.1}
bash scripts/setup.sh
abi=$(sed -n "$([ "$kernel" = 6.12 ] && echo 2 || echo 1)p" /var/cache/r2c2/kernels)
make --no-print-directory modules KVER="$abi" >/dev/null
make --no-print-directory userspace >/dev/null
exec scripts/vm-run --kernel "$kernel" -- scripts/demo-guest.sh
