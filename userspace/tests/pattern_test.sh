#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# pattern_bench: the throughput of each routing protocol under the
# standard traffic patterns of an 8-ary 2-cube, from the link weights
# the allocator and the kernel use, against the values of Dally and
# Towles's table (the R2C2 paper's Figure 2) where the protocols are the
# same: dimension order (DOR), Valiant (VLB) and randomized minimal
# (ROMM, the bench's reference column). r2c2's RPS, uniform over the
# minimal paths, is not ROMM: only the patterns where every minimal
# protocol is alike are checked for it. r2c2's WLB (common/paths.c) must
# equal the bench's own RLB, computed apart by walking every route.
set -u
cd "$(dirname "$0")/.."
B=${PATTERN_BENCH:-./build/bench/pattern_bench}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
n=0 fail=0
check() { n=$((n+1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=$((fail+1)); fi; }
# near PATTERN PROTO WANT: the table's value within 5e-4 of WANT
near() {
	awk -v p="$1" -v c="$2" -v want="$3" -F'\t' '
		NR == 2 { for (i = 1; i <= NF; i++) col[$i] = i }
		NR > 2 && $1 == p { v = $col[c]; found = 1 }
		END { if (!found) exit 1; d = v - want; exit !(d < 5e-4 && d > -5e-4) }' "$T/t.tsv"
}
val() { awk -v p="$1" -v c="$2" -F'\t' 'NR == 2 { for (i = 1; i <= NF; i++) col[$i] = i }
	NR > 2 && $1 == p { print $col[c] }' "$T/t.tsv"; }

"$B" -t 8x8 -o "$T/t.tsv" >"$T/out" 2>"$T/err"; rc=$?
check "pattern_bench -t 8x8 runs and writes its TSV (header naming the command)" \
	"[ $rc -eq 0 ] && head -n 1 '$T/t.tsv' | grep -q '^# pattern_bench -t 8x8' && [ \$(wc -l <'$T/t.tsv') -eq 8 ]"
check "uniform: DOR splits its antipodal ties, throughput 1 ($(val uniform dor); 0.8 with every tie the + way)" \
	"near uniform dor 1"
check "uniform: RPS 1 ($(val uniform rps))" "near uniform rps 1"
check "uniform: ROMM 1, its antipodal ties split between the two quadrants ($(val uniform romm))" \
	"near uniform romm 1"
check "uniform: VLB 0.5 x 64/63, a node's traffic to itself not sent ($(val uniform vlb))" \
	"near uniform vlb 0.507937"
check "neighbour: RPS, DOR and ROMM 4, VLB 0.5" \
	"near neighbour rps 4 && near neighbour dor 4 && near neighbour romm 4 && near neighbour vlb 0.5"
check "complement: DOR 0.5, VLB 0.5, ROMM 0.4 ($(val complement romm))" \
	"near complement dor 0.5 && near complement vlb 0.5 && near complement romm 0.4"
check "transpose: DOR 0.25" "near transpose dor 0.25"
check "tornado: RPS, DOR and ROMM 1/3, VLB 0.5" \
	"near tornado rps 0.333333 && near tornado dor 0.333333 && near tornado romm 0.333333 && near tornado vlb 0.5"
check "worst case: DOR 0.25, VLB 0.5, ROMM 5/24 (the table: 0.21; $(val worst romm))" \
	"near worst dor 0.25 && near worst vlb 0.5 && near worst romm 0.208333"
# the table's WLB is RLB; its neighbour (2.33) and transpose (0.57) differ
check "RLB: uniform 0.76, complement 0.42, tornado 0.53, worst case 0.31, as the table's WLB" \
	"near uniform rlb 0.761905 && near complement rlb 0.421053 && near tornado rlb 0.533333 && near worst rlb 0.310884"
# same: r2c2's WLB column equals the RLB column to 1e-9 in every row
same_wlb() {
	awk -F'\t' 'NR == 2 { for (i = 1; i <= NF; i++) col[$i] = i }
		NR > 2 { n++; d = $col["wlb"] - $col["rlb"]; if (d > 1e-9 || d < -1e-9) bad++ }
		END { exit !(n == 6 && !bad) }' "$1"
}
check "WLB (common/paths.c) is the reference RLB in every row of 8x8 (neighbour $(val neighbour wlb), transpose $(val transpose wlb))" \
	"same_wlb '$T/t.tsv'"
check "worst case is the lowest of every protocol's column" \
	"awk -F'\t' 'NR == 2 { nc = NF } NR > 2 { for (i = 2; i <= NF; i++) { if (\$1 == \"worst\") w[i] = \$i; else if (!(i in lo) || \$i < lo[i]) lo[i] = \$i } }
		END { for (i = 2; i <= nc; i++) if (w[i] > lo[i] + 1e-9) exit 1 }' '$T/t.tsv'"
check "the committed table (Documentation/figures/data/patterns-8x8.tsv) is today's" \
	"diff <(tail -n +2 ../Documentation/figures/data/patterns-8x8.tsv) <(tail -n +2 '$T/t.tsv') >&2"
# the phases' order: with the second phase in reversed dimension order
# RLB's transpose is the table's 0.57, but its complement and worst case
# move away from it (0.42 and 0.31): no order tried matches every row
"$B" -t 8x8 -p dor,rev -o "$T/t.tsv" >"$T/out" 2>"$T/err"; rc=$?
check "-p dor,rev: RLB transpose 0.575 as the table's WLB ($(val transpose rlb)), complement 0.364 and worst 0.244 not ($(val complement rlb), $(val worst rlb)); DOR unchanged" \
	"[ $rc -eq 0 ] && head -n 1 '$T/t.tsv' | grep -q '^# pattern_bench -t 8x8 -p dor,rev ' && near transpose rlb 0.574468 && near complement rlb 0.363636 && near worst rlb 0.244444 && near transpose dor 0.25"
"$B" -t 4x4x4 -o "$T/t3.tsv" >"$T/out" 2>"$T/err"; rc=$?
check "WLB is the reference RLB in every row of 4x4x4 too" "[ $rc -eq 0 ] && same_wlb '$T/t3.tsv'"
"$B" -t 8x8 -p dor,up >"$T/out" 2>"$T/err"; rc=$?
check "a bad phase order refused, naming the option and its values" \
	"[ $rc -eq 2 ] && grep -q -- '-p dor,up: want ORDER,ORDER, each dor, rev, any or box' '$T/err'"
"$B" -t 5x3 >"$T/out" 2>"$T/err"; rc=$?
check "a torus without two equal radices refused, naming it" \
	"[ $rc -ne 0 ] && grep -q 'torus:5x3: transpose needs two dimensions of the same radix' '$T/err'"
"$B" -t 8x8x8 >"$T/out" 2>"$T/err"; rc=$?
check "a torus over 144 nodes refused, naming the limit" \
	"[ $rc -ne 0 ] && grep -q 'torus:8x8x8: 512 nodes, at most 144' '$T/err'"
echo "1..$n"
exit $((fail > 0))
