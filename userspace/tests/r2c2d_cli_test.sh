#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# r2c2d -n (check the configuration, no kernel needed): what it builds and
# what it refuses, with the key, the file and the line.
set -u
cd "$(dirname "$0")/.."
D=./r2c2d/r2c2d
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
n=0 fail=0
# expect: exit status, a pattern on stdout (ok) or stderr (errors)
expect() { local what=$1 rc_want=$2 pat=$3; shift 3
	"$D" "$@" >"$T/out" 2>"$T/err"; local rc=$?
	n=$((n+1))
	if [ $rc -eq "$rc_want" ] && grep -qF -- "$pat" "$T/out" "$T/err"; then
		echo "ok $n - $what"
	else
		echo "not ok $n - $what (exit $rc, want $rc_want)"; fail=$((fail+1))
		sed 's/^/# /' "$T/out" "$T/err"
	fi; }

expect "-n builds the configured torus" 0 "configuration ok (topology torus:4x4: 16 nodes, 64 links)" -n -o topology=torus:4x4
expect "-n without topology: read at start" 0 "configuration ok (topology: the node's declared torus" -n
# it said "configuration ok" for a topology it never built
expect "-n refuses a bad torus spec" 2 "topology 'torus:8x1': expected torus:K1[xK2[xK3]], mesh:K1[xK2[xK3]], file:PATH or PATH, each K in 2..255" -n -o topology=torus:8x1
expect "-n refuses a missing topology file" 2 "$T/none.topo: No such file" -n -o "topology=file:$T/none.topo"
{ echo "nodes 10"; for i in 1 2 3 4 5 6 7 8 9; do echo "link $i 0"; done; } >"$T/in9.topo"
printf '# r2c2d\ntopology = file:%s\n' "$T/in9.topo" >"$T/r2c2d.conf"
expect "-n names the topology file's line" 2 "in9.topo:10: node 0 has more than 8 links into it" -n -c "$T/r2c2d.conf"
printf 'nodes 3\nduplex 0 1 1G\nduplex 1 2 1G\n' >"$T/line.topo"
expect "-n builds a topology file" 0 "configuration ok (topology file:$T/line.topo: 3 nodes, 4 links)" -n -o "topology=file:$T/line.topo"
# integers are decimal
printf 'rho_us = 0500\nrho_us = 0x1f4\n' >"$T/r2c2d.conf"
expect "-n: rho_us = 0x1f4 named with file, line and range" 2 "r2c2d.conf:2: bad value '0x1f4' for rho_us (a decimal integer 50..10000000)" -n -c "$T/r2c2d.conf"
# -c as getopt takes it: -cFILE, -nc FILE; a file that cannot be read is
# an error naming it (only a separate "-c FILE" used to be read at all)
expect "-n -cFILE reads the file" 2 "r2c2d.conf:2: bad value '0x1f4' for rho_us" -n -c"$T/r2c2d.conf"
expect "-nc FILE reads the file" 2 "r2c2d.conf:2: bad value '0x1f4' for rho_us" -nc "$T/r2c2d.conf"
expect "-n -c/missing: an error naming the file" 2 "configuration file $T/none.conf: No such file or directory" -n -c"$T/none.conf"
expect "-n -c DIR: an error naming it" 2 "configuration file $T: Is a directory" -n -c "$T"
printf 'rho_us = 250\n' >"$T/ok.conf"
printf 'topology = torus:8x1\n' >"$T/t81.conf"
expect "-o is applied after the file, wherever it is given" 0 "configuration ok (topology torus:4x4: 16 nodes" -n -o topology=torus:4x4 -c "$T/t81.conf"
expect "the last -c is read" 0 "configuration ok" -n -c "$T/r2c2d.conf" -c "$T/ok.conf"
echo "1..$n"
[ $fail -eq 0 ]
