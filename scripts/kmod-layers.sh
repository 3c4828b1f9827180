#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# kmod-layers.sh - check that every file of r2c2.ko calls functions (and
# reads data) of its own layer and of the layers below only: the layers
# of kmod/r2c2.h's comment "The module's layers", read from there.
#
#   scripts/kmod-layers.sh [DIR]
#
# DIR: a build's kmod directory with the object files (default: the
# first of build/*/kmod that has r2c2.o). Every kmod/*.c must be in a
# layer and have its object file. Prints each call up the layers, "FILE
# (layer N) -> FILE (layer M): SYMBOL", and exits 1 when there is one;
# 2 on a usage or setup error. `make layers`; scripts/check.sh runs it
# after the module build.
set -u
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DIR=${1:-}
if [[ -z $DIR ]]; then
	for d in "$REPO"/build/*/kmod; do
		[[ -f $d/r2c2.o ]] && { DIR=$d; break; }
	done
fi
if [[ $DIR == -h || $DIR == --help ]]; then
	sed -n '3,16p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
fi
[[ -n $DIR && -d $DIR ]] || { echo "kmod-layers: no object directory (build the modules first, or give DIR)" >&2; exit 2; }
command -v nm >/dev/null || { echo "kmod-layers: nm not found (binutils)" >&2; exit 2; }

# "FILE LAYER" for each .c the comment names
layers=$(awk '
	/The module.s layers/ { on = 1; next }
	on && /\*\// { exit }
	on {
		if (match($0, /[0-9]\. /))
			n = substr($0, RSTART, 1)
		for (i = 1; i <= NF; i++)
			if ($i ~ /^[a-z_]+\.c,?$/) {
				f = $i; sub(/,$/, "", f); sub(/\.c$/, "", f)
				print f, n
			}
	}' "$REPO/kmod/r2c2.h")
[[ -n $layers ]] || { echo "kmod-layers: no layer list in kmod/r2c2.h" >&2; exit 2; }
declare -A layer=()
while read -r f n; do
	layer[$f]=$n
done <<<"$layers"

rc=0
for c in "$REPO"/kmod/*.c; do
	f=$(basename "$c" .c)
	if [[ -z ${layer[$f]:-} ]]; then
		echo "kmod-layers: kmod/$f.c is in no layer of kmod/r2c2.h"
		rc=1
	elif [[ ! -f $DIR/$f.o ]]; then
		echo "kmod-layers: no $DIR/$f.o" >&2
		exit 2
	fi
done

# symbols each file defines ("D SYM FILE") and uses ("U SYM FILE")
syms=$(for f in "${!layer[@]}"; do
	[[ -f $DIR/$f.o ]] || continue
	nm "$DIR/$f.o" | awk -v f="$f" '
		NF == 3 && $2 ~ /^[TDBRV]$/ { print "D", $3, f }
		NF == 2 && $1 == "U" { print "U", $2, f }'
done)
up=$(awk -v map="$layers" '
	BEGIN {
		n = split(map, l, "\n")
		for (i = 1; i <= n; i++) { split(l[i], p, " "); lay[p[1]] = p[2] }
	}
	$1 == "D" { def[$2] = $3; next }
	{ use[NR] = $2 " " $3 }
	END {
		for (i in use) {
			split(use[i], u, " ")
			g = def[u[1]]
			if (g != "" && g != u[2] && lay[g] > lay[u[2]])
				printf "%s (layer %d) -> %s (layer %d): %s\n", u[2], lay[u[2]], g, lay[g], u[1]
		}
	}' <<<"$syms" | sort)
if [[ -n $up ]]; then
	echo "kmod-layers: calls up the layers of kmod/r2c2.h:"
	echo "$up"
	rc=1
fi
((rc)) || echo "kmod-layers: ${#layer[@]} files in 4 layers, no call up the layers ($DIR)"
exit "$rc"
