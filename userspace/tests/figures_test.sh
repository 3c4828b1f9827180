#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# figures_test.sh - make figures (TAP): scripts/topo2dot turns the
# committed 2x2 torus (Documentation/figures/data/topo-2x2.json, node 0's
# `r2c2ctl -j topo show`) into one edge per link, with the ports at its
# ends, and nothing else; make figures stops with a message naming the
# missing tool and its Debian package; with gnuplot and Graphviz
# installed, it draws every figure (into a temporary directory).
#
#	  0 ==== 1        a 2x2 torus: port 2d of each node to port 2d+1
#	  ‖      ‖        of the next node along d, so each pair of
#	  2 ==== 3        neighbours is joined twice
# shellcheck disable=SC2016,SC2034  # check's conditions are eval'd
set -u
cd "$(dirname "$0")/.." || exit 1
TOP=$(cd .. && pwd)
CONV=$TOP/scripts/topo2dot
IN=$TOP/Documentation/figures/data/topo-2x2.json
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0

echo "1..12"
pass() { n=$((n + 1)); echo "ok $n - $1"; }
fail() {
	n=$((n + 1))
	echo "not ok $n - $1"
	[ -z "${2:-}" ] || echo "#   $2"
	sed 's/^/#   out: /' "$T/out" 2>/dev/null | head -n 20
	sed 's/^/#   err: /' "$T/err" 2>/dev/null | head -n 20
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
check() { if eval "$2"; then pass "$1"; else fail "$1" "failed: $2"; fi; }

# edges of DOT on stdin: "a:p-b:q" a line, sorted
edges() {
	sed -n 's/^\tn\([0-9]*\) -- n\([0-9]*\) \[taillabel="\([0-9]*\)", headlabel="\([0-9]*\)".*/\1:\3-\2:\4/p' | sort
}

"$CONV" "$IN" >"$T/out" 2>"$T/err"; rc=$?
check "topo2dot reads the committed 2x2 topology (its header line skipped)" '[ $rc -eq 0 ] && [ -s "$T/out" ]'
want='0:0-1:1
0:1-1:0
0:2-2:3
0:3-2:2
1:2-3:3
1:3-3:2
2:0-3:1
2:1-3:0'
got=$(edges <"$T/out")
check "one edge a link, with both ports: the 8 links of a 2x2 torus" '[ "$got" = "$want" ]'
[ "$got" = "$want" ] || diff <(echo "$want") <(echo "$got") | sed 's/^/#   /'
check "4 nodes, and no line but the graph, nodes and edges" \
	'[ "$(grep -c "^	n[0-9]* \[label=" "$T/out")" = 4 ] && [ "$(grep -c -- " -- " "$T/out")" = 8 ] &&
	 [ "$(head -n 1 "$T/out")" = "graph rack {" ] && [ "$(tail -n 1 "$T/out")" = "}" ]'
check "edges coloured by dimension: x (ports 0/1) and y (2/3) differ" \
	'[ "$(grep -c "taillabel=\"[01]\".*color=\"#1f77b4\"" "$T/out")" = 4 ] &&
	 [ "$(grep -c "taillabel=\"[23]\".*color=\"#d62728\"" "$T/out")" = 4 ]'

"$CONV" --grid 2x2 <"$IN" >"$T/out" 2>"$T/err"
check "--grid 2x2 pins node 3 at column 1, row 1 (stdin)" \
	'grep -q "^	n3 \[label=\"3\", pos=\"150,0\"\];" "$T/out" && grep -q "^	n0 \[label=\"0\", pos=\"0,150\"\];" "$T/out"'
"$CONV" --grid 2 "$IN" >"$T/out" 2>"$T/err"; rc=$?
check "--grid without KxL: exit 2, says what it wants" \
	'[ $rc -eq 2 ] && grep -q "wants KxL" "$T/err"'

if command -v dot >/dev/null; then
	"$CONV" --grid 2x2 "$IN" | dot -Tcanon >"$T/out" 2>"$T/err"; rc=$?
	check "Graphviz reads topo2dot's output" '[ $rc -eq 0 ] && [ ! -s "$T/err" ]'
else
	skip "Graphviz reads topo2dot's output" "no dot (apt-get install graphviz)"
fi

# make figures on a PATH without gnuplot, then with a gnuplot but no
# Graphviz: the basic tools only
mkdir -p "$T/bin"
for t in bash sh dirname uname cat jq awk sed grep tr sort mktemp rm mkdir; do
	p=$(command -v "$t") && ln -s "$p" "$T/bin/$t"
done
MAKE=$(command -v make)
PATH=$T/bin "$MAKE" -C "$TOP" --no-print-directory figures >"$T/out" 2>"$T/err"; rc=$?
check "make figures without gnuplot: fails, names gnuplot and its package" \
	'[ $rc -ne 0 ] && grep -q "gnuplot not found.*apt-get install gnuplot-nox" "$T/err"'
printf '#!/bin/sh\nexit 0\n' >"$T/bin/gnuplot"
chmod +x "$T/bin/gnuplot"
PATH=$T/bin "$MAKE" -C "$TOP" --no-print-directory figures >"$T/out" 2>"$T/err"; rc=$?
check "make figures without Graphviz: fails, names neato and graphviz" \
	'[ $rc -ne 0 ] && grep -q "neato not found.*apt-get install graphviz" "$T/err"'

# the simulator's data: every row as wide as its column line ("# a<TAB>b..."),
# so a value that printed as two lines cannot split a row
ragged() {
	awk -F'\t' 'FNR == 1 { w = 0 } /^# / && NF > 1 { w = NF; next } /^#/ { next }
		w && NF != w { print FILENAME ":" FNR ": " NF " fields, not " w }' "$@"
}
ragged "$TOP"/Documentation/figures/data/sim-*.tsv >"$T/ragged"
check "the simulator's data files: every row has its header's columns" '[ ! -s "$T/ragged" ]'

if command -v gnuplot >/dev/null && command -v neato >/dev/null; then
	FIGURES_OUT=$T/fig "$MAKE" -C "$TOP" --no-print-directory figures >"$T/out" 2>"$T/err"; rc=$?
	check "make figures (FIGURES_OUT) draws from the committed data" '[ $rc -eq 0 ]'
	png=0
	for f in demo-loop conv-cdf rack-3x3 routesel sim-short-fct sim-long-tput sim-tau sim-headroom sim-rate-error sim-cpu sim-bcast sim-routesel sim-control sim-vs-real; do
		[ "$(head -c 4 "$T/fig/$f.png" 2>/dev/null | tail -c 3)" = PNG ] && png=$((png + 1))
	done
	check "fourteen PNGs" '[ $png = 14 ]'
else
	skip "make figures draws from the committed data" "no gnuplot or Graphviz (apt-get install gnuplot-nox graphviz)"
	skip "fourteen PNGs" "no gnuplot or Graphviz"
fi
