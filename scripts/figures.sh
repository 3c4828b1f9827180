#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# figures.sh - the figures of Documentation/figures/ (make figures,
# make figures-data).
#
#   scripts/figures.sh [draw]        redraw every PNG from the committed data
#                                    (Documentation/figures/data/), no VM;
#                                    needs gnuplot (gnuplot-nox), Graphviz
#                                    (graphviz) and jq. FIGURES_OUT=DIR
#                                    draws into DIR instead (relative to
#                                    the top of the tree)
#   scripts/figures.sh data [demo|conv|routesel|rs-sim|fct|sweep|bcast|ctl|fig7|all]
#                                    rerun the runs that produce the data
#                                    (all: the nine; demo ~2 min, conv ~10
#                                    min and fig7 ~2.5 min in VMs, routesel
#                                    ~5 min, rs-sim ~6 min, fct ~4 min,
#                                    sweep ~9 min, bcast ~2 min and ctl ~8
#                                    min on the host, on a quiet 2-core
#                                    host), then draw; the runs' output in
#                                    build/figures/
#
# The figures and where their data comes from:
#   demo-loop.png  the rate loop of `scripts/demo.sh loop`: each flow's rate
#                  and the tbf backlog over time, plain TCP and with
#                  sch_r2c2 + r2c2d (demo-loop-rates.tsv, demo-loop-queue.tsv,
#                  demo-loop-events.tsv, demo-loop-targets.tsv: r2c2ctl
#                  alloc on node 0's matrix, dashed; scripts/figures-guest.sh in a
#                  6.1 VM, R2C2_DEMO_KERNEL=6.12 for the other kernel)
#   conv-cdf.png   the CDF of r2c2d's convergence times after a flow start
#                  (conv.tsv: `bench/r2c2d.sh conv 3x3`, FIG_CONV_REPS
#                  repetitions, default 10, on 6.12 with --icount 0: the
#                  command of Documentation/performance.md, "r2c2d:
#                  convergence after a flow event")
#   routesel.png   the paper's Figure 18: the aggregate throughput of the
#                  genetic route selection (RPS or VLB a flow) over all-RPS,
#                  all-VLB and a random choice, on 8x8x8 with a fraction L
#                  of the nodes each sending one long flow to a distinct
#                  node (routesel.tsv: `r2c2ctl route-select`, no VM;
#                  FIG_RS_SEEDS workloads a load, default 5, ~5 minutes)
#   sim-routesel.png
#                  the paper's Figure 18 at packet level: the same
#                  workloads (seed 1, five loads) in the simulator, each
#                  flow on the protocol route-select chose, all on RPS,
#                  all on VLB, or each on one at random (awk srand(1));
#                  the goodput of all flows together from 1.5 to 4 ms,
#                  beside the allocator's figures (sim-routesel.tsv)
#   sim-short-fct.png, sim-long-tput.png
#                  the paper's Figures 10 and 11 from the simulator
#                  (sim/r2c2-sim, ns-3): the CDF of the FCT of short flows
#                  (< 100 KB) and of the goodput of long ones (>= 1 MB),
#                  R2C2 against PFQ, TCP NewReno and DCTCP, 8x8x8 torus, 10
#                  Gbit/s, 100 ns, tau 1 us (sim-fct.tsv: FIG_FCT_FLOWS
#                  flows, default 20000, seed 1; Documentation/simulator.md)
#   sim-tau.png, sim-headroom.png
#                  the paper's Figures 12-13 and 17 from the simulator:
#                  short flows' p99 FCT and long flows' mean goodput
#                  against tau (R2C2, PFQ and DCTCP over TCP NewReno) and
#                  against R2C2's headroom (tau 1 us) (sim-sweep.tsv:
#                  FIG_SWEEP_FLOWS flows a run, default 5000, seed 1)
#   sim-cpu.png    the paper's Figure 8 from the same runs: a round's CPU
#                  time (median, p99) as a share of rho, against rho
#   sim-rate-error.png
#                  the paper's Figures 15-16 from the simulator: the
#                  median and p95 over the flows of |x - x_ideal| / x_ideal,
#                  x a flow's average rate (size / FCT), against rho (tau
#                  1 us) and against tau (rho 500 us); the ideal run
#                  recomputes every 10 us and announces every flow at once
#                  (sim-rate-error.tsv: FIG_SWEEP_FLOWS flows a run)
#   sim-bcast.png  the paper's Figure 9 from the simulator: the share of
#                  the bytes on links that are broadcasts (flow START and
#                  FINISH) against the share of the bytes in small flows
#                  (10 KB; long ones 35 MB), uniform pairs, DOR, on a 3D
#                  torus, a 3D mesh and a 2D torus of 512 nodes; every
#                  flow announced at its start (the paper's design) and
#                  once rho old (r2c2's); also as on Ethernet, where a
#                  control frame takes 84 bytes of the wire (sim-bcast.tsv:
#                  FIG_BCAST_LONG long flows a run, default 2, seed 1)
#   sim-control.png
#                  the paper's Figure 19 from the simulator: control
#                  traffic on links with every flow event broadcast (R2C2)
#                  and with a controller (node 0) told every event, which
#                  rates the rack and sends every node sourcing a flow its
#                  rates, against the endless flows each node sources (1
#                  to 10), tau 1 us, 8x8x8; and the ratio, beside the
#                  paper's 6.2 and 19.9 (sim-ctl.tsv, ~8 minutes)
#   sim-vs-real.png
#                  the paper's Figure 7: the simulator against the real
#                  system, the CDFs of flow goodput and of each port's
#                  deepest queue; 10 long flows on a 3x3 torus, RPS,
#                  every link 10 Mbit/s, rho 500 ms (time scaled by
#                  1/1000): scripts/simreal-guest.sh in a 6.12 VM
#                  (r2c2.ko, sch_r2c2 and r2c2d on every node, iperf3
#                  TCP, tbf on every port), then sim/r2c2-sim on the
#                  same pairs with --window-out (sim-vs-real.tsv)
#   rack-3x3.png   the 3x3 torus the demo ran on, from node 0's
#                  `r2c2ctl -j topo show` (topo-3x3.json) through
#                  scripts/topo2dot and Graphviz's neato
# topo-2x2.json (the same of a 2x2 torus) is the input of the converter's
# test, userspace/tests/figures_test.sh. Every data file starts with a
# header line: the command, the date, the guest kernel and the commit.
set -euo pipefail
cd "$(dirname "$0")/.."
FIG=${FIGURES_OUT:-Documentation/figures}	# where the PNGs go
DATA=Documentation/figures/data
R2C2_CACHE=${R2C2_CACHE:-/var/cache/r2c2}

die() { echo "figures: $*" >&2; exit 1; }

# need TOOL PACKAGE: TOOL on PATH, or stop naming the Debian package
need() {
	command -v "$1" >/dev/null 2>&1 ||
		die "$1 not found: install it (Debian: apt-get install $2); make figures needs gnuplot, Graphviz and jq"
}

# have_data FILE [TARGET]: stop unless $DATA/FILE holds data, naming what
# makes it (scripts/figures.sh data TARGET, or make figures-data)
have_data() {
	local how="make figures-data"

	[[ -n ${2:-} ]] && how="scripts/figures.sh data $2"
	[[ -s $DATA/$1 ]] || die "$DATA/$1 missing ($how)"
}

draw_demo() {
	local ev
	for f in demo-loop-rates.tsv demo-loop-queue.tsv demo-loop-events.tsv \
		 demo-loop-targets.tsv; do
		have_data "$f"
	done
	# the runs' events as gnuplot variables: plain_window_start=3.1 ...
	ev=$(awk -F'\t' '!/^#/ && NF == 3 { printf "%s_%s=%s; ", $1, $2, $3 }' "$DATA/demo-loop-events.tsv")
	# each flow's allocation: target_A=2.467 ...
	ev+=$(awk -F'\t' '!/^#/ && NF == 4 { printf "target_%s=%s; ", $1, $4 }' "$DATA/demo-loop-targets.tsv")
	# both queue panels on the larger run's scale (KB)
	ev+=$(awk '!/^#/ && NF == 2 && $2 > m { m = $2 } END { printf "qmax=%.1f;", m * 1.05 / 1000 + 1 }' "$DATA/demo-loop-queue.tsv")
	gnuplot <<-EOF
	$ev
	set terminal pngcairo noenhanced size 1200,760 font "Helvetica,11"
	set output "$FIG/demo-loop.png"
	set datafile missing "NaN"
	# each run's panels on one time axis: its longest series
	R = "$DATA/demo-loop-rates.tsv"; Q = "$DATA/demo-loop-queue.tsv"
	stats R index 0 using 1 nooutput; x0 = STATS_max
	stats Q index 0 using 1 nooutput; x0 = (STATS_max > x0 ? STATS_max : x0)
	stats R index 1 using 1 nooutput; x1 = STATS_max
	stats Q index 1 using 1 nooutput; x1 = (STATS_max > x1 ? STATS_max : x1)
	# one time axis for both runs, so that they compare at a glance
	x0 = (x1 > x0 ? x1 : x0); x1 = x0
	set multiplot layout 2,2 title "Rate loop demo: 3 flows from node 0 to node 1 through a 10 Mbit/s tbf (3x3 torus; weights 1, 2, 4; C offers 2 Mbit/s)"
	set grid
	set key top right
	set xrange [0:x0]
	set ylabel "Mbit/s (iperf3, 0.5-s intervals)"
	set yrange [0:11]
	set title "plain TCP"
	set object 1 rect from plain_window_start, graph 0 to plain_window_end, graph 1 fc rgb "#e8e8e8" fs solid noborder behind
	# dashed: each flow's max-min rate (r2c2ctl alloc on node 0's matrix)
	plot "$DATA/demo-loop-rates.tsv" index 0 using 1:2 with linespoints pt 7 ps 0.5 lw 2 lc 1 title "A (weight 1)", \
	     "" index 0 using 1:3 with linespoints pt 7 ps 0.5 lw 2 lc 2 title "B (weight 2)", \
	     "" index 0 using 1:4 with linespoints pt 7 ps 0.5 lw 2 lc 3 title "C (weight 4, 2 Mbit/s)", \
	     target_A with lines dt 2 lw 1.5 lc 1 notitle, target_B with lines dt 2 lw 1.5 lc 2 notitle, \
	     target_C with lines dt 2 lw 1.5 lc 3 title "dashed: max-min allocation"
	unset object 1
	set title "sch_r2c2 + r2c2d"
	set xrange [0:x1]
	set object 1 rect from r2c2_window_start, graph 0 to r2c2_window_end, graph 1 fc rgb "#e8e8e8" fs solid noborder behind
	set arrow 1 from r2c2_pushed, graph 0 to r2c2_pushed, graph 1 nohead dt 2 lc rgb "black"
	set label 1 "rates pushed" at r2c2_pushed, graph 0.95 right offset -0.5,0
	plot "$DATA/demo-loop-rates.tsv" index 1 using 1:2 with linespoints pt 7 ps 0.5 lw 2 lc 1 title "A (weight 1)", \
	     "" index 1 using 1:3 with linespoints pt 7 ps 0.5 lw 2 lc 2 title "B (weight 2)", \
	     "" index 1 using 1:4 with linespoints pt 7 ps 0.5 lw 2 lc 3 title "C (weight 4, 2 Mbit/s)", \
	     target_A with lines dt 2 lw 1.5 lc 1 notitle, target_B with lines dt 2 lw 1.5 lc 2 notitle, \
	     target_C with lines dt 2 lw 1.5 lc 3 title "dashed: max-min allocation"
	unset object 1; unset arrow 1; unset label 1
	set xlabel "seconds after the flows started"
	set ylabel "tbf backlog at node 0's p0 (KB)"
	set yrange [0:qmax]
	set title "plain TCP: bottleneck queue (shaded: the window the demo measures)"
	set xrange [0:x0]
	set object 1 rect from plain_window_start, graph 0 to plain_window_end, graph 1 fc rgb "#e8e8e8" fs solid noborder behind
	plot "$DATA/demo-loop-queue.tsv" index 0 using 1:(\$2 / 1000) with lines lw 2 lc rgb "#444444" notitle
	unset object 1
	set title "sch_r2c2 + r2c2d: bottleneck queue"
	set xrange [0:x1]
	set object 1 rect from r2c2_window_start, graph 0 to r2c2_window_end, graph 1 fc rgb "#e8e8e8" fs solid noborder behind
	set arrow 1 from r2c2_pushed, graph 0 to r2c2_pushed, graph 1 nohead dt 2 lc rgb "black"
	plot "$DATA/demo-loop-queue.tsv" index 1 using 1:(\$2 / 1000) with lines lw 2 lc rgb "#444444" notitle
	unset multiplot
	EOF
}

draw_conv() {
	have_data conv.tsv
	local T n
	T=$(mktemp -d)
	# shellcheck disable=SC2064  # T is set now
	trap "rm -rf '$T'" RETURN
	cdf() {	# COLUMN...: the values of conv.tsv's COLUMNs, pooled, as a CDF
		local c
		for c in "$@"; do
			awk -F'\t' -v c="$c" '!/^#/ && NF >= 7 { print $c }' "$DATA/conv.tsv"
		done | grep -v -i nan | sort -g | awk '{ v[NR] = $1 } END {
			for (i = 1; i <= NR; i++) printf "%s %.4f\n", v[i], i / NR }'
	}
	cdf 4 5 >"$T/pushed"
	cdf 3 >"$T/bcast"
	cdf 2 >"$T/last"
	cdf 6 7 >"$T/qdisc"
	n=$(grep -vc '^#' "$DATA/conv.tsv")
	# what a panel cannot show, for the key: " (2 of 20 <= 0, not drawn)"
	off() {	# FILE TEST TEXT
		awk -v t="$3" "$2 { k++ } END { if (k) printf \" (%d of %d %s)\", k, NR, t }" "$1"
	}
	local xr=40
	# Left: the daemons' own intervals (always > 0; log scale). Right:
	# times from B's first qflow sample (sampled every 1 ms, so 0 is
	# "by the first sample" and a daemon's push may come out negative).
	gnuplot <<-EOF
	set terminal pngcairo noenhanced size 1400,660 font "Helvetica,11"
	set output "$FIG/conv-cdf.png"
	set multiplot layout 1,2 title "r2c2d convergence after flow B starts next to A (3x3 torus, rho 500 us, r2c2d on every node; $n runs; guest time under --icount 0)"
	set grid
	set ylabel "fraction of runs"
	set yrange [0:1.05]
	# the keys below the panels: inside, they covered the curves
	set key below vertical Left reverse
	set bmargin 8
	set title "inside the daemons (their own clocks)"
	set logscale x
	set format x "%g"
	set xlabel "ms (log scale)"
	plot "$T/pushed" using 1:2 with steps lw 2 title "START heard -> rate pushed (nodes 0, 3)$(off "$T/pushed" "\$1 <= 0" '<= 0, not drawn')", \\
	     "$T/bcast" using 1:2 with steps lw 2 title "broadcast: node 3 learnt -> node 0 heard$(off "$T/bcast" "\$1 <= 0" '<= 0, not drawn')"
	unset logscale x
	set title "after B's first packet (qdiscs sampled every 1 ms)"
	set xlabel "ms from B's first qdisc sample (< 0: the push came before that sample)"
	set xrange [*:$xr]
	plot "$T/last" using 1:2 with steps lw 2 lc 3 title "last push of both daemons$(off "$T/last" "\$1 > $xr" "beyond $xr ms")", \\
	     "$T/qdisc" using 1:2 with steps lw 2 lc 4 title "qdisc rate within 5 % of final (A, B)$(off "$T/qdisc" "\$1 > $xr" "beyond $xr ms")"
	unset multiplot
	EOF
}

draw_rack() {
	have_data topo-3x3.json
	scripts/topo2dot --grid 3x3 --title $'3x3 torus (node 0\'s r2c2ctl -j topo show)\nport numbers at each end of a link; blue: x (ports 0/1), red: y (ports 2/3)' \
		"$DATA/topo-3x3.json" |
		neato -n2 -Tpng -Gdpi=96 -o "$FIG/rack-3x3.png"
}

draw_routesel() {
	have_data routesel.tsv routesel
	local T
	T=$(mktemp -d)
	# shellcheck disable=SC2064  # T is set now
	trap "rm -rf '$T'" RETURN
	# per load: mean, min and max of selected / baseline over the seeds
	awk -F'\t' '!/^#/ && NF >= 8 {
		l = $1; n[l]++; o[l] = l
		for (c = 5; c <= 7; c++) {
			r = $4 / $c; s[l, c] += r
			if (!((l, c) in lo) || r < lo[l, c]) lo[l, c] = r
			if (!((l, c) in hi) || r > hi[l, c]) hi[l, c] = r
		}
	} END { for (l in o) { printf "%s", l
		for (c = 5; c <= 7; c++) printf "\t%.5f\t%.5f\t%.5f", s[l, c] / n[l], lo[l, c], hi[l, c]
		printf "\n" } }' "$DATA/routesel.tsv" | sort -g >"$T/r"
	gnuplot <<-EOF
	set terminal pngcairo noenhanced size 900,560 font "Helvetica,11"
	set output "$FIG/routesel.png"
	set title "Genetic route selection (RPS or VLB a flow) against three baselines\n8x8x8 torus, 10 Gbit/s links, a fraction L of nodes each with one long flow; mean, range of $(awk -F'\t' '!/^#/ { print $2 }' "$DATA/routesel.tsv" | sort -u | wc -l) workloads a load"
	set grid
	set key top right
	set xlabel "load L (fraction of nodes with a flow)"
	set ylabel "aggregate throughput: Adaptive / baseline"
	set xrange [0.05:1.05]
	set yrange [0.9:*]
	plot 1 with lines lc rgb "black" dt 2 notitle, \
	     "$T/r" using (\$1 - 0.01):2:3:4 with yerrorlines pt 7 lw 2 title "Adaptive / RPS", \
	     "" using 1:5:6:7 with yerrorlines pt 5 lw 2 title "Adaptive / VLB", \
	     "" using (\$1 + 0.01):8:9:10 with yerrorlines pt 9 lw 2 title "Adaptive / Random"
	EOF
}

# the paper's Figures 10 and 11, one PNG each, from sim-fct.tsv
draw_fct() {
	have_data sim-fct.tsv fct
	local T st
	T=$(mktemp -d)
	# shellcheck disable=SC2064  # T is set now
	trap "rm -rf '$T'" RETURN
	for st in r2c2 pfq tcp dctcp; do
		awk -F'\t' -v st="$st" '$1 == st && $2 == "short_fct_us" { print $4, $3 }' "$DATA/sim-fct.tsv" >"$T/s-$st"
		awk -F'\t' -v st="$st" '$1 == st && $2 == "long_gbps" { print $4, $3 }' "$DATA/sim-fct.tsv" >"$T/l-$st"
	done
	gnuplot <<-EOF
	set terminal pngcairo noenhanced size 900,560 font "Helvetica,11"
	set output "$FIG/sim-short-fct.png"
	set title "Flow completion time of short flows (< 100 KB), simulated (ns-3, r2c2's code)\n8x8x8 torus, 10 Gbit/s, 100 ns; Pareto sizes (mean 100 KB), tau 1 us; rho 500 us, 5 % headroom"
	set grid
	set key bottom right
	set logscale x
	set xlabel "flow completion time (us)"
	set ylabel "CDF"
	set yrange [0:1.01]
	plot "$T/s-r2c2" using 1:2 with lines lw 2 title "R2C2 (RPS)", \
	     "$T/s-pfq" using 1:2 with lines lw 2 dt 2 title "PFQ, the ideal (RPS)", \
	     "$T/s-tcp" using 1:2 with lines lw 2 title "TCP NewReno (ECMP)", \
	     "$T/s-dctcp" using 1:2 with lines lw 2 title "DCTCP (ECMP)"
	set output "$FIG/sim-long-tput.png"
	set title "Goodput of long flows (>= 1 MB), simulated (ns-3, r2c2's code)\nsame runs"
	unset logscale x
	set key top left
	set xlabel "goodput (Gbit/s): size / flow completion time"
	plot "$T/l-r2c2" using 1:2 with steps lw 2 title "R2C2 (RPS)", \
	     "$T/l-pfq" using 1:2 with steps lw 2 dt 2 title "PFQ, the ideal (RPS)", \
	     "$T/l-tcp" using 1:2 with steps lw 2 title "TCP NewReno (ECMP)", \
	     "$T/l-dctcp" using 1:2 with steps lw 2 title "DCTCP (ECMP)"
	EOF
}

# Figures 12-13 and 17 from sim-sweep.tsv
draw_sweep() {
	have_data sim-sweep.tsv sweep
	have_data sim-rate-error.tsv sweep
	local T
	T=$(mktemp -d)
	# shellcheck disable=SC2064  # T is set now
	trap "rm -rf '$T'" RETURN
	# tau, then p99 and long goodput of r2c2, dctcp and pfq over tcp's
	awk -F'\t' '!/^#/ && $1 == "tau" { p[$2, $3] = $7; g[$2, $3] = $9; t[$2] = 1 }
		END { for (x in t) if (p[x, "tcp"] > 0 && g[x, "tcp"] > 0)
			printf "%s %.4f %.4f %.4f %.4f %.4f %.4f\n", x, p[x, "r2c2"] / p[x, "tcp"], p[x, "dctcp"] / p[x, "tcp"],
				g[x, "r2c2"] / g[x, "tcp"], g[x, "dctcp"] / g[x, "tcp"],
				p[x, "pfq"] / p[x, "tcp"], g[x, "pfq"] / g[x, "tcp"] }' "$DATA/sim-sweep.tsv" | sort -g >"$T/tau"
	awk -F'\t' '!/^#/ && $1 == "headroom" && $3 == "r2c2" { print $2 * 100, $7, $9 }' "$DATA/sim-sweep.tsv" |
		sort -g >"$T/hr"
	gnuplot <<-EOF
	set terminal pngcairo noenhanced size 1000,480 font "Helvetica,11"
	set output "$FIG/sim-tau.png"
	set multiplot layout 1,2 title "Against the flow inter-arrival time tau, normalised to TCP NewReno (simulated, 8x8x8, 10 Gbit/s)"
	set grid
	set logscale x
	set xlabel "tau (us)"
	set key top left
	set ylabel "short flows' p99 FCT / TCP's"
	plot 1 with lines lc rgb "black" dt 2 notitle, \
	     "$T/tau" using 1:2 with linespoints pt 7 lw 2 title "R2C2", \
	     "" using 1:3 with linespoints pt 5 lw 2 title "DCTCP", \
	     "" using 1:6 with linespoints pt 9 lw 2 dt 2 title "PFQ (ideal)"
	set ylabel "long flows' mean goodput / TCP's"
	plot 1 with lines lc rgb "black" dt 2 notitle, \
	     "$T/tau" using 1:4 with linespoints pt 7 lw 2 title "R2C2", \
	     "" using 1:5 with linespoints pt 5 lw 2 title "DCTCP", \
	     "" using 1:7 with linespoints pt 9 lw 2 dt 2 title "PFQ (ideal)"
	unset multiplot
	set output "$FIG/sim-headroom.png"
	set multiplot layout 1,2 title "R2C2 against its headroom (simulated, 8x8x8, 10 Gbit/s, tau 1 us)"
	unset logscale x
	set xlabel "headroom (% of each link)"
	set key off
	set ylabel "short flows' p99 FCT (us)"
	plot "$T/hr" using 1:2 with linespoints pt 7 lw 2
	set ylabel "long flows' mean goodput (Gbit/s)"
	plot "$T/hr" using 1:3 with linespoints pt 7 lw 2
	unset multiplot
	EOF
	awk -F'\t' '!/^#/ && $1 == "rho" { print $2, $4 * 100, $5 * 100 }' "$DATA/sim-rate-error.tsv" | sort -g >"$T/rho"
	awk -F'\t' '!/^#/ && $1 == "tau" { print $2, $4 * 100, $5 * 100 }' "$DATA/sim-rate-error.tsv" | sort -g >"$T/etau"
	awk -F'\t' '!/^#/ && $1 == "rho" && $6 != "" { print $2, $6 / $2 * 100, $7 / $2 * 100 }' "$DATA/sim-rate-error.tsv" |
		sort -g >"$T/cpu"
	gnuplot <<-EOF
	set terminal pngcairo noenhanced size 1000,480 font "Helvetica,11"
	set output "$FIG/sim-rate-error.png"
	set multiplot layout 1,2 title "R2C2's rates against an ideal run (rho 10 us, every flow announced at once): |x - x_ideal| / x_ideal\nx = a flow's size / FCT, over all flows (simulated, 8x8x8, 10 Gbit/s)"
	set grid
	set logscale x
	set key center right
	set yrange [0:*]
	set ylabel "difference (%)"
	set xlabel "rho (us), tau = 1 us"
	plot "$T/rho" using 1:3 with linespoints pt 7 lw 2 title "p95", "" using 1:2 with linespoints pt 5 lw 2 title "median"
	set xlabel "tau (us), rho = 500 us"
	plot "$T/etau" using 1:3 with linespoints pt 7 lw 2 title "p95", "" using 1:2 with linespoints pt 5 lw 2 title "median"
	unset multiplot
	set terminal pngcairo noenhanced size 900,560 font "Helvetica,11"
	set output "$FIG/sim-cpu.png"
	set title "A round's CPU time as a share of rho (the paper's Figure 8; simulated, 8x8x8, tau 1 us)\neach node's round over its own matrix, libr2c2's max-min, one core of this host"
	set grid
	set logscale x
	set logscale y
	set key top right
	set xrange [70:3000]
	set yrange [0.5:200]
	set xlabel "rho (us)"
	set ylabel "CPU time / rho (%)"
	plot "$T/cpu" using 1:3 with linespoints pt 7 lw 2 title "p99", "" using 1:2 with linespoints pt 5 lw 2 title "median", \
	     100 with lines lc rgb "black" dt 2 title "100 %: no time left"
	EOF
}

# Figure 18 at packet level from sim-routesel.tsv
draw_rs_sim() {
	have_data sim-routesel.tsv rs-sim
	local T a
	T=$(mktemp -d)
	# shellcheck disable=SC2064  # T is set now
	trap "rm -rf '$T'" RETURN
	for a in selected rps vlb random; do
		awk -F'\t' -v a="$a" '!/^#/ && $3 == a { print $1, $4 / 1000, $5 / 1000 }' "$DATA/sim-routesel.tsv" |
			sort -g >"$T/$a"
	done
	gnuplot <<-EOF
	set terminal pngcairo noenhanced size 900,560 font "Helvetica,11"
	set output "$FIG/sim-routesel.png"
	set title "Route selection at packet level (the paper's Figure 18; simulated, 8x8x8, 10 Gbit/s)\na fraction L of the nodes each send one long flow to a distinct node; goodput of all flows, 1.5-4 ms\nsolid: simulated; dashed: the allocator's sum of rates (route-select)"
	set grid
	set key top left
	set xlabel "load L (fraction of the nodes sending)"
	set ylabel "aggregate goodput (Tbit/s)"
	set xrange [0:1.05]
	set yrange [0:*]
	plot "$T/selected" using 1:2 with linespoints pt 7 lw 2 lc 1 title "route selection (RPS or VLB a flow)", \
	     "" using 1:3 with lines dt 2 lw 1 lc 1 notitle, \
	     "$T/rps" using 1:2 with linespoints pt 5 lw 2 lc 2 title "all RPS", \
	     "" using 1:3 with lines dt 2 lw 1 lc 2 notitle, \
	     "$T/vlb" using 1:2 with linespoints pt 9 lw 2 lc 3 title "all VLB", \
	     "" using 1:3 with lines dt 2 lw 1 lc 3 notitle, \
	     "$T/random" using 1:2 with linespoints pt 11 lw 2 lc 4 title "random (RPS or VLB a flow)"
	EOF
}

# Figure 9 from sim-bcast.tsv
draw_bcast() {
	have_data sim-bcast.tsv bcast
	local T tp m
	T=$(mktemp -d)
	# shellcheck disable=SC2064  # T is set now
	trap "rm -rf '$T'" RETURN
	for tp in torus:8x8x8 mesh:8x8x8 torus:16x32; do
		for m in start rho; do
			awk -F'\t' -v tp="$tp" -v m="$m" '!/^#/ && $1 == tp && $2 == m { print $3 * 100, $10 * 100, $11 * 100 }' \
				"$DATA/sim-bcast.tsv" | sort -g >"$T/$tp-$m"
		done
	done
	gnuplot <<-EOF
	set terminal pngcairo noenhanced size 1000,520 font "Helvetica,11"
	set output "$FIG/sim-bcast.png"
	set multiplot layout 1,2 title "Broadcasts' share of the bytes on links against small flows' share of the bytes (simulated, 512 nodes, 10 Gbit/s)\nsmall flows 10 KB, long flows 35 MB, uniform pairs, DOR\nsolid: frames as long as their bytes; dashed: as on Ethernet (84-byte control frames)"
	set grid
	set key top left
	set xlabel "bytes in small flows (%)"
	set ylabel "broadcast bytes on links (%)"
	set title "every flow announced at its start (the paper's design)"
	plot "$T/torus:8x8x8-start" using 1:2 with linespoints pt 7 lw 2 lc 1 title "3D torus 8x8x8", \
	     "" using 1:3 with lines dt 2 lw 2 lc 1 notitle, \
	     "$T/mesh:8x8x8-start" using 1:2 with linespoints pt 5 lw 2 lc 2 title "3D mesh 8x8x8", \
	     "" using 1:3 with lines dt 2 lw 2 lc 2 notitle, \
	     "$T/torus:16x32-start" using 1:2 with linespoints pt 9 lw 2 lc 3 title "2D torus 16x32", \
	     "" using 1:3 with lines dt 2 lw 2 lc 3 notitle
	set title "flows announced once rho (500 us) old (r2c2's default)"
	plot "$T/torus:8x8x8-rho" using 1:2 with linespoints pt 7 lw 2 lc 1 title "3D torus 8x8x8", \
	     "" using 1:3 with lines dt 2 lw 2 lc 1 notitle, \
	     "$T/mesh:8x8x8-rho" using 1:2 with linespoints pt 5 lw 2 lc 2 title "3D mesh 8x8x8", \
	     "" using 1:3 with lines dt 2 lw 2 lc 2 notitle, \
	     "$T/torus:16x32-rho" using 1:2 with linespoints pt 9 lw 2 lc 3 title "2D torus 16x32", \
	     "" using 1:3 with lines dt 2 lw 2 lc 3 notitle
	unset multiplot
	EOF
}

# Figure 19 from sim-ctl.tsv
draw_ctl() {
	have_data sim-ctl.tsv ctl
	local T
	T=$(mktemp -d)
	awk -F'\t' '!/^#/ && $2 == "decentral"' "$DATA/sim-ctl.tsv" >"$T/d"
	awk -F'\t' '!/^#/ && $2 == "central"' "$DATA/sim-ctl.tsv" >"$T/c"
	# central over decentral, a row a K: bytes and as on Ethernet
	awk -F'\t' '!/^#/ { b[$1, $2] = $6; e[$1, $2] = $7; if (!($1 in seen)) { seen[$1]; k[++n] = $1 } }
		END { for (i = 1; i <= n; i++) printf "%s\t%.3f\t%.3f\n", k[i],
			b[k[i], "central"] / b[k[i], "decentral"], e[k[i], "central"] / e[k[i], "decentral"] }' \
		"$DATA/sim-ctl.tsv" >"$T/r"
	printf '1\t6.2\n10\t19.9\n' >"$T/paper"
	gnuplot <<-EOF
	set terminal pngcairo noenhanced size 1000,460 font "Helvetica,11"
	set output "$FIG/sim-control.png"
	set multiplot layout 1,2 title "Control traffic, decentralised (R2C2) against a centralised controller (simulated, 8x8x8 torus, 10 Gbit/s, tau = 1 us)\nsolid: as on Ethernet (frames of at least 64 bytes, + preamble and gap); dashed: the frames' bytes"
	set grid
	set key top left
	set xlabel "endless flows each node sources"
	set ylabel "control bytes on links per flow event (KB)"
	set xrange [0:11]
	set yrange [0:*]
	set title "per flow event (x 2 events/us: Gbit/s = 16 x KB)"
	plot "$T/c" using 1:(\$7 / 1000) with linespoints pt 7 lw 2 lc 1 title "central", \
	     "" using 1:(\$6 / 1000) with lines dt 2 lw 2 lc 1 notitle, \
	     "$T/d" using 1:(\$7 / 1000) with linespoints pt 5 lw 2 lc 2 title "decentral (R2C2)", \
	     "" using 1:(\$6 / 1000) with lines dt 2 lw 2 lc 2 notitle
	set title "central over decentral"
	set ylabel "ratio"
	plot "$T/r" using 1:3 with linespoints pt 7 lw 2 lc 1 title "r2c2-sim, as on Ethernet", \
	     "" using 1:2 with linespoints pt 6 dt 2 lw 2 lc 1 title "r2c2-sim, frames' bytes", \
	     "$T/paper" using 1:2 with points pt 9 ps 2 lc 3 title "paper (Figure 19)"
	unset multiplot
	EOF
	rm -rf "$T"
}

# Figure 7 from sim-vs-real.tsv: the CDFs of flow goodput and of the
# ports' deepest queue, the real system against the simulator
draw_fig7() {
	have_data sim-vs-real.tsv fig7
	local T r
	T=$(mktemp -d)
	# shellcheck disable=SC2064  # T is set now
	trap "rm -rf '$T'" RETURN
	# cdf KIND RUN COLUMN: a CDF of COLUMN of KIND's rows of RUN
	cdf() {
		awk -F'\t' -v k="$1" -v r="$2" -v c="$3" '!/^#/ && $1 == k && $2 == r { print $c }' \
			"$DATA/sim-vs-real.tsv" | sort -g | awk '{ v[NR] = $1 } END {
				for (i = 1; i <= NR; i++) printf "%s %.4f\n", v[i], i / NR }'
	}
	for r in real sim; do
		cdf flow "$r" 6 >"$T/g-$r"
		cdf queue "$r" 7 >"$T/q-$r"
	done
	cdf flow real 7 >"$T/g-alloc"
	gnuplot <<-EOF
	set terminal pngcairo noenhanced size 1200,520 font "Helvetica,11"
	set output "$FIG/sim-vs-real.png"
	set multiplot layout 1,2 title "The simulator against the real system (the paper's Figure 7): 3x3 torus, every link 10 Mbit/s (10 Gbit/s / 1000), rho 500 ms, long flows\nreal: r2c2.ko, sch_r2c2 and r2c2d in a TCG VM (iperf3 TCP, tbf on every port); sim: sim/r2c2-sim on the same flows"
	set grid
	set ylabel "CDF"
	set yrange [0:1.02]
	set key bottom right
	set title "flow goodput over the window"
	set xlabel "goodput (Mbit/s)"
	plot "$T/g-real" using 1:2 with steps lw 2 title "real (iperf3 receiver)", \
	     "$T/g-sim" using 1:2 with steps lw 2 title "simulator", \
	     "$T/g-alloc" using 1:2 with steps lw 1 dt 2 lc rgb "gray40" title "max-min allocation (r2c2ctl alloc)"
	set title "deepest queue of each port over the window"
	set xlabel "max queue (KB): tbf backlog (real, sampled ~0.2 s), link queue (sim)"
	set logscale x
	set xrange [0.1:*]
	plot "$T/q-real" using (\$1 < 0.1 ? 0.1 : \$1):2 with steps lw 2 title "real (ports at 0 drawn at 0.1)", \
	     "$T/q-sim" using (\$1 < 0.1 ? 0.1 : \$1):2 with steps lw 2 title "simulator"
	unset multiplot
	EOF
}

draw() {
	need gnuplot gnuplot-nox
	need neato graphviz
	need jq jq
	mkdir -p "$FIG"
	draw_demo
	draw_conv
	draw_rack
	draw_routesel
	draw_fct
	draw_sweep
	draw_bcast
	draw_rs_sim
	draw_ctl
	draw_fig7
	echo "figures: demo-loop.png conv-cdf.png rack-3x3.png routesel.png sim-routesel.png sim-short-fct.png sim-long-tput.png sim-tau.png sim-headroom.png sim-rate-error.png sim-cpu.png sim-bcast.png sim-control.png sim-vs-real.png in $FIG"
}

# header WHAT COMMAND KERNEL DATE: the first line of a data file
header() {
	printf '# %s. Command: %s; date %s; kernel %s; r2c2 %s; host load %s\n' \
		"$1" "$2" "$4" "$3" "$(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD -- . ':!Documentation' ':!README.md' 2>/dev/null || echo '+changes')" "$LOAD"
}

# block FILE NAME DIR: the files of vm-run --out FILE's block NAME into DIR
block() {
	mkdir -p "$3"
	tr -d '\r' <"$1" | sed -n "/^r2c2-out-begin $2\$/,/^r2c2-out-end $2\$/p" |
		sed '1d;$d' | base64 -d | tar -C "$3" -xz ||
		die "no $2 block in $1"
}

builds() {
	[[ -f $R2C2_CACHE/kernels ]] || die "run scripts/setup.sh first"
	make --no-print-directory modules-all >/dev/null
	make --no-print-directory userspace >/dev/null
	make --no-print-directory -C tc >/dev/null
	make --no-print-directory -C selftests/tools >/dev/null
	# shellcheck disable=SC2046  # pkg-config's words
	cc -O2 -std=gnu11 -D_GNU_SOURCE -I include -I include/uapi \
		$(pkg-config --cflags libnl-genl-3.0) -o bench/r2c2d_bench \
		bench/r2c2d_bench.c $(pkg-config --libs libnl-genl-3.0)
}

data_demo() {
	local k=${R2C2_DEMO_KERNEL:-6.1} T cmd kernel date
	T=$(mktemp -d)
	cmd="scripts/vm-run --kernel $k --out OUT -- scripts/figures-guest.sh"
	echo "figures: $cmd (the rate-loop demo, then a 2x2 torus; about 2 minutes)"
	scripts/vm-run --kernel "$k" --out "$T/out" -- scripts/figures-guest.sh 2>&1 | tee "$LOGS/demo.log"
	grep -q '^vm-run: exit status 0 ' "$LOGS/demo.log" || die "the VM run failed (log: $LOGS/demo.log)"
	block "$T/out" demo-loop "$T/d"
	block "$T/out" topo-2x2 "$T/d"
	kernel=$(awk '$1 == "kernel" { print $2 }' "$T/d/meta")
	date=$(awk '$1 == "date" { print $2 }' "$T/d/meta")
	{
		header "Rate-loop demo, each flow's rate in Mbit/s (iperf3 sender, 0.5-s intervals; t = the interval's end, seconds after the client started, to 0.1 s; NaN: that flow's interval ended at another time); block 0 plain TCP, block 1 sch_r2c2 + r2c2d" "$cmd" "$kernel" "$date"
		echo "# t_s	A_mbit	B_mbit	C_mbit"
		sort -g "$T/d/plain.rates"; printf '\n\n'
		sort -g "$T/d/r2c2.rates"
	} >"$DATA/demo-loop-rates.tsv"
	{
		header "Rate-loop demo, tbf backlog at node 0's p0 in bytes (a tc -s qdisc show, then 0.1 s of sleep, in a loop: as often as the guest manages; t = seconds after the flows started); block 0 plain TCP, block 1 sch_r2c2 + r2c2d" "$cmd" "$kernel" "$date"
		echo "# t_s	backlog_B"
		cat "$T/d/plain.q"; printf '\n\n'
		cat "$T/d/r2c2.q"
	} >"$DATA/demo-loop-queue.tsv"
	{
		header "Rate-loop demo, events (seconds after the flows started): the demo's measuring windows, and when r2c2d's rates were pushed and in the qdisc" "$cmd" "$kernel" "$date"
		echo "# run	event	t_s"
		cat "$T/d/events"
	} >"$DATA/demo-loop-events.tsv"
	{
		header "Rate-loop demo, the rate r2c2ctl alloc gives each flow on node 0's matrix after r2c2d settled (Mbit/s; demand -1: unlimited), the max-min allocation both runs are judged against" "$cmd" "$kernel" "$date"
		echo "# flow	weight	demand_kbps	target_mbit"
		cat "$T/d/targets"
	} >"$DATA/demo-loop-targets.tsv"
	{
		header "Node 0's r2c2ctl -j topo show of the demo's 3x3 torus" "$cmd" "$kernel" "$date"
		cat "$T/d/topo-3x3.json"
	} >"$DATA/topo-3x3.json"
	{
		header "Node 0's r2c2ctl -j topo show of a 2x2 torus (selftests/torus.sh)" "$cmd" "$kernel" "$date"
		cat "$T/d/topo-2x2.json"
	} >"$DATA/topo-2x2.json"
	rm -rf "$T"
}

data_conv() {
	local reps=${FIG_CONV_REPS:-10} T cmd kernel date
	T=$(mktemp -d)
	cmd="scripts/vm-run --kernel 6.12 --icount 0 --timeout 2400 -- 'BENCH_REPS=$reps bench/r2c2d.sh conv 3x3'"
	echo "figures: $cmd (about a minute a repetition)"
	scripts/vm-run --kernel 6.12 --icount 0 --timeout 2400 -- \
		"BENCH_REPS=$reps bench/r2c2d.sh conv 3x3" 2>&1 | tee "$LOGS/conv.log"
	grep -q '^vm-run: exit status 0 ' "$LOGS/conv.log" || die "the VM run failed (log: $LOGS/conv.log)"
	kernel=$(tr -d '\r' <"$LOGS/conv.log" | sed -n 's/^bench r2c2d conv: kernel \([^,]*\),.*/\1/p' | head -n 1)
	date=$(tr -d '\r' <"$LOGS/conv.log" | sed -n 's/^bench r2c2d conv: kernel [^,]*, [^,]*, [^,]*, \([^,]*\),.*/\1/p' | head -n 1)
	{
		header "r2c2d convergence after a flow start, one row a repetition, in ms (Documentation/performance.md, \"r2c2d: convergence after a flow event\"; bench/r2c2d.sh's RESULT lines)" "$cmd" "$kernel" "$date"
		echo "# rep	event_to_last_push	broadcast_3_to_0	heard_to_pushed_node0	heard_to_pushed_node3	qdisc_setrate_A	qdisc_setrate_B"
		tr -d '\r' <"$LOGS/conv.log" | awk '
		/RESULT set-rate convergence/ {
			match($0, /rep [0-9]+/); r = substr($0, RSTART + 4, RLENGTH - 4)
			for (i = 1; i <= NF; i++) { if ($i == "A") a[r] = $(i + 1); if ($i == "B") b[r] = $(i + 1) }
		}
		/RESULT rep [0-9]+: daemon convergence/ {
			match($0, /rep [0-9]+/); r = substr($0, RSTART + 4, RLENGTH - 4)
			s = $0; sub(/.*last push /, "", s); last[r] = s + 0
			s = $0; sub(/.*node 0 heard\) /, "", s); bc[r] = s + 0
			s = $0; sub(/.*pushed: node 0 /, "", s); p0[r] = s + 0
			s = $0; sub(/.*ms, node 3 /, "", s); p3[r] = s + 0
			order[++n] = r
		}
		END { for (k = 1; k <= n; k++) { r = order[k]
			printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r, last[r], bc[r], p0[r], p3[r], a[r], b[r] } }'
	} >"$T/conv.tsv"
	(($(grep -vc '^#' "$T/conv.tsv") == reps)) || die "fewer than $reps repetitions in $LOGS/conv.log"
	mv "$T/conv.tsv" "$DATA/conv.tsv"
	rm -rf "$T"
}

# partial_perm N K SEED: K flows "SRC DST long", K distinct sources and
# K distinct destinations among N nodes (K >= 2), none to itself: two
# random permutations of the nodes, their first K each, and a flow to
# itself swaps destinations with the next flow
partial_perm() {
	awk -v n="$1" -v k="$2" -v seed="$3" 'BEGIN {
		srand(seed)
		for (i = 0; i < n; i++) { a[i] = i; b[i] = i }
		for (i = n - 1; i > 0; i--) {
			j = int(rand() * (i + 1)); t = a[i]; a[i] = a[j]; a[j] = t
			j = int(rand() * (i + 1)); t = b[i]; b[i] = b[j]; b[j] = t
		}
		for (i = 0; i < k; i++)
			if (b[i] == a[i]) { j = (i + 1) % k; t = b[i]; b[i] = b[j]; b[j] = t }
		for (i = 0; i < k; i++) printf "%d %d long\n", a[i], b[i]
	}'
}

data_routesel() {
	local seeds=${FIG_RS_SEEDS:-5} T cmd l s k f t0 out
	T=$(mktemp -d)
	cmd="r2c2ctl -j route-select topology torus:8x8x8 flows F protos rps,vlb population 100 mutation 0.01 seed S threads 2"
	echo "figures: $cmd, 10 loads x $seeds workloads"
	{
		header "Figure 18: the genetic route selection's aggregate throughput (utility sum, max-min, 5 % headroom, 10 Gbit/s links) against all-RPS, all-VLB and a random choice; a fraction L of the 512 nodes each send one long flow to a distinct node (scripts/figures.sh partial_perm, seed = workload)" "$cmd" "$(uname -r) (host)" "$(date -u '+%Y-%m-%d %H:%M UTC')"
		echo "# load	seed	flows	selected_bps	all_rps_bps	all_vlb_bps	random_bps	generations	seconds"
		for l in 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1.0; do
			k=$(awk -v l="$l" 'BEGIN { printf "%d", l * 512 + 0.5 }')
			for ((s = 1; s <= seeds; s++)); do
				f=$T/f
				partial_perm 512 "$k" "$s" >"$f"
				t0=$(date +%s.%N)
				out=$(userspace/r2c2ctl/r2c2ctl -j route-select topology torus:8x8x8 \
					flows "$f" protos rps,vlb population 100 mutation 0.01 \
					seed "$s" threads 2) || die "route-select failed for load $l, seed $s"
				jq -r --arg l "$l" --arg s "$s" --arg k "$k" \
					--arg t "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')" \
					'[$l, $s, $k, .utilities.selected_bps, .utilities.all_rps_bps,
					  .utilities.all_vlb_bps, .utilities.random_bps, .generations, $t] | @tsv' \
					<<<"$out"
			done
		done
	} >"$T/routesel.tsv"
	mv "$T/routesel.tsv" "$DATA/routesel.tsv"
	rm -rf "$T"
}

# Figure 18 at packet level: route-select's choice, all RPS, all VLB and a
# random choice on the same workloads in the simulator
data_rs_sim() {
	local T l k a out rc
	make --no-print-directory userspace >/dev/null
	make --no-print-directory -C sim >/dev/null
	T=$(mktemp -d)
	echo "figures: route-select, then sim/r2c2-sim --stop-ms=4 --measure-from-ms=1.5 --initial-rate=1000000, 5 loads x 4 assignments"
	{
		header "Figure 18 at packet level: the goodput of all flows together from 1.5 to 4 ms (sim_gbps) against the allocator's sum of rates (alloc_gbps; none for random, route-select's own random draw is another); a fraction L of the 512 nodes each send one flow of 1 GB to a distinct node from 0 (partial_perm, seed 1); each flow on route-select's protocol, all on RPS, all on VLB, or at random (awk srand(1)); 8x8x8 torus, 10 Gbit/s, 100 ns, rho 500 us, 5 % headroom; a flow sends at 1 Mbit/s until rated, so that no first burst drains into the window" "r2c2ctl -j route-select topology torus:8x8x8 flows F protos rps,vlb population 100 mutation 0.01 seed 1 threads 2; sim/r2c2-sim --topo=torus:8x8x8 --flows-file=G --stop-ms=4 --measure-from-ms=1.5 --initial-rate=1000000" "$(uname -r) (host)" "$(date -u '+%Y-%m-%d %H:%M UTC')"
		echo "# load	flows	assignment	sim_gbps	alloc_gbps"
		for l in 0.1 0.3 0.5 0.7 1.0; do
			k=$(awk -v l="$l" 'BEGIN { printf "%d", l * 512 + 0.5 }')
			partial_perm 512 "$k" 1 >"$T/f"
			out=$(userspace/r2c2ctl/r2c2ctl -j route-select topology torus:8x8x8 \
				flows "$T/f" protos rps,vlb population 100 mutation 0.01 seed 1 threads 2) ||
				die "route-select failed for load $l"
			jq -r '.flows[] | "\(.src) \(.dst) 1000000000 0 \(.routing)"' <<<"$out" >"$T/selected"
			awk '{ print $1, $2, 1000000000, 0, "rps" }' "$T/f" >"$T/rps"
			awk '{ print $1, $2, 1000000000, 0, "vlb" }' "$T/f" >"$T/vlb"
			awk 'BEGIN { srand(1) } { print $1, $2, 1000000000, 0, rand() < 0.5 ? "rps" : "vlb" }' "$T/f" >"$T/random"
			for a in selected rps vlb random; do
				rc=0
				sim/r2c2-sim --topo=torus:8x8x8 --flows-file="$T/$a" --stop-ms=4 --measure-from-ms=1.5 \
					--initial-rate=1000000 >"$T/o" 2>&1 || rc=$?
				((rc <= 1)) || die "sim/r2c2-sim ($a, load $l) failed: $(cat "$T/o")"
				cp "$T/o" "$LOGS/sim-rs-$l-$a.out"
				printf '%s\t%s\t%s\t%s\t%s\n' "$l" "$k" "$a" "$(sim_val "$T/o" window_gbps)" \
					"$(jq -r --arg a "$a" '.utilities | if $a == "selected" then .selected_bps
						elif $a == "rps" then .all_rps_bps elif $a == "vlb" then .all_vlb_bps
						else null end | if . == null then "nan" else . / 1e9 | tostring end' <<<"$out")"
			done
		done
	} >"$T/sim-routesel.tsv"
	mv "$T/sim-routesel.tsv" "$DATA/sim-routesel.tsv"
	rm -rf "$T"
}

# sim_val OUT KEY [LINE]: the number after the first word KEY in a
# summary of sim/r2c2-sim (OUT), on the line that starts with LINE if given
sim_val() {
	awk -v k="$2" -v line="${3:-}" 'line == "" || $1 == line {
		for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }' "$1"
}

# the simulator at the paper's setting, R2C2 and the two TCPs: CDF points
# of the short flows' FCT (1,000 quantiles) and every long flow's goodput,
# and each run's figures (stat rows)
data_fct() {
	local flows=${FIG_FCT_FLOWS:-20000} T st cmd args rc
	make --no-print-directory -C sim >/dev/null
	T=$(mktemp -d)
	args="--topo=torus:8x8x8 --flows=$flows --tau-us=1 --seed=1"
	cmd="sim/r2c2-sim --stack=S $args --out=F"
	echo "figures: $cmd, S = r2c2, pfq, tcp, dctcp"
	{
		header "Figures 10 and 11 simulated: short flows' FCT and long flows' goodput, R2C2 (RPS, rho 500 us, 5 % headroom) against PFQ (per-flow queues with back-pressure, 8 packets a flow a port, RPS) and TCP NewReno and DCTCP over per-flow ECMP; 8x8x8 torus, 10 Gbit/s, 100 ns links; Pareto sizes (mean 100 KB, shape 1.05), Poisson arrivals tau = 1 us, uniform pairs" "$cmd" "$(uname -r) (host)" "$(date -u '+%Y-%m-%d %H:%M UTC')"
		echo "# stack	kind	q	value"
		for st in r2c2 pfq tcp dctcp; do
			rc=0
			# shellcheck disable=SC2086  # args are words
			sim/r2c2-sim --stack="$st" $args --out="$T/$st.csv" >"$T/$st.out" 2>&1 || rc=$?
			((rc <= 1)) || die "sim/r2c2-sim --stack=$st failed: $(cat "$T/$st.out")"
			cp "$T/$st.out" "$LOGS/sim-$st.out"
			awk -F, '!/^#/ && $1 != "flow" && $6 >= 0 && $4 < 100000 { print $6 }' "$T/$st.csv" |
				sort -g | awk -v st="$st" '{ v[NR] = $1 } END {
					for (i = 1; i <= 1000; i++) {
						k = int(i * NR / 1000); if (k * 1000 < i * NR) k++
						printf "%s\tshort_fct_us\t%.3f\t%s\n", st, i / 1000, v[k]
					} }'
			awk -F, '!/^#/ && $1 != "flow" && $6 > 0 && $4 >= 1000000 { printf "%.4f\n", $4 * 8 / $6 / 1000 }' "$T/$st.csv" |
				sort -g | awk -v st="$st" '{ v[NR] = $1 } END {
					for (i = 1; i <= NR; i++) printf "%s\tlong_gbps\t%.4f\t%s\n", st, i / NR, v[i] }'
			awk -F, -v st="$st" '!/^#/ && $1 != "flow" {
					n++; if ($6 < 0) { undone++; next }
					if ($4 >= 1000000) { nl++; g += $4 * 8 / $6 / 1000 } }
				END { printf "%s\tstat\tflows\t%d\n%s\tstat\tincomplete\t%d\n%s\tstat\tlong_mean_gbps\t%.4f\n",
					st, n, st, undone, st, nl ? g / nl : 0 }' "$T/$st.csv"
			for k in wall_s drops max_queue_bytes max_reseq_pkts ctl_share; do
				printf '%s\tstat\t%s\t%s\n' "$st" "$k" "$(sim_val "$T/$st.out" "$k")"
			done
		done
	} >"$T/sim-fct.tsv"
	mv "$T/sim-fct.tsv" "$DATA/sim-fct.tsv"
	rm -rf "$T"
}

# sim_row SWEEP VALUE STACK OUT CSV: one row of sim-sweep.tsv from a
# run's summary and its CSV
sim_row() {
	local sp sq qp rp
	sp=$(sim_val "$4" p50 short_fct_us)
	sq=$(sim_val "$4" p99 short_fct_us)
	qp=$(sim_val "$4" p99 queue_max_bytes)
	rp=$(sim_val "$4" p95 reseq_max_pkts)
	awk -F, -v sw="$1" -v v="$2" -v st="$3" -v sp="$sp" -v sq="$sq" -v qp="$qp" -v rp="$rp" '
		!/^#/ && $1 != "flow" { n++; if ($6 < 0) { u++; next }
			if ($4 >= 1000000) { nl++; g += $4 * 8 / $6 / 1000 } }
		END { printf "%s\t%s\t%s\t%d\t%d\t%s\t%s\t%d\t%.4f\t%s\t%s\n",
			sw, v, st, n, u, sp, sq, nl, nl ? g / nl : 0, qp, rp }' "$5"
}

# the simulator against tau (R2C2, TCP NewReno, DCTCP) and against R2C2's
# headroom (tau 1 us)
data_sweep() {
	local flows=${FIG_SWEEP_FLOWS:-5000} T st tau h rc base
	make --no-print-directory -C sim >/dev/null
	T=$(mktemp -d)
	base="--topo=torus:8x8x8 --flows=$flows --seed=1"
	echo "figures: sim/r2c2-sim $base, tau 0.2..100 us x 4 stacks, headroom 0..20 %"
	{
		header "Figures 12-13 and 17 simulated: short flows' FCT and long flows' goodput against tau (R2C2 with RPS, rho 500 us, 5 % headroom; PFQ with RPS, 8 packets a flow a port; TCP NewReno and DCTCP over per-flow ECMP) and against R2C2's headroom at tau = 1 us; 8x8x8 torus, 10 Gbit/s, 100 ns links, Pareto sizes (mean 100 KB, shape 1.05)" "sim/r2c2-sim --stack=S $base --tau-us=TAU [--headroom=H] --out=F" "$(uname -r) (host)" "$(date -u '+%Y-%m-%d %H:%M UTC')"
		echo "# sweep	value	stack	flows	incomplete	short_p50_us	short_p99_us	long_flows	long_mean_gbps	queue_p99_bytes	reseq_p95_pkts"
		for tau in 0.2 0.5 1 2 5 10 100; do
			for st in r2c2 pfq tcp dctcp; do
				rc=0
				# shellcheck disable=SC2086  # base is words
				sim/r2c2-sim --stack="$st" $base --tau-us="$tau" --out="$T/o.csv" >"$T/o" 2>&1 || rc=$?
				((rc <= 1)) || die "sim/r2c2-sim --stack=$st --tau-us=$tau failed: $(cat "$T/o")"
				cp "$T/o" "$LOGS/sim-tau-$tau-$st.out"
				sim_row tau "$tau" "$st" "$T/o" "$T/o.csv"
			done
		done
		for h in 0 0.02 0.05 0.1 0.2; do
			rc=0
			# shellcheck disable=SC2086  # base is words
			sim/r2c2-sim $base --tau-us=1 --headroom="$h" --out="$T/o.csv" >"$T/o" 2>&1 || rc=$?
			((rc <= 1)) || die "sim/r2c2-sim --headroom=$h failed: $(cat "$T/o")"
			cp "$T/o" "$LOGS/sim-headroom-$h.out"
			sim_row headroom "$h" r2c2 "$T/o" "$T/o.csv"
		done
	} >"$T/sim-sweep.tsv"
	# Figures 15-16: each run's per-flow average rates against an ideal
	# run of the same flows (rho 10 us, every flow announced at once)
	{
		header "Figures 15-16 simulated: the median and p95 over all flows of |x - x_ideal| / x_ideal, x = size / FCT, R2C2 with RPS and 5 % headroom against the same flows with rho = 10 us and every flow announced at once; against rho at tau = 1 us, against tau at rho = 500 us; and each run's rounds (Figure 8): a round's CPU time at the median and p99, the flows a round rates at the median; 8x8x8 torus, 10 Gbit/s, 100 ns links, Pareto sizes (mean 100 KB, shape 1.05)" "sim/r2c2-sim $base --tau-us=TAU --rho-us=RHO --out=F; ideal: --rho-us=10 --announce-us=0" "$(uname -r) (host)" "$(date -u '+%Y-%m-%d %H:%M UTC')"
		echo "# sweep	value	flows	median	p95	round_p50_us	round_p99_us	round_flows_p50"
		local r v
		for tau in 1 0.2 10 100; do
			# shellcheck disable=SC2086  # base is words
			sim/r2c2-sim $base --tau-us="$tau" --rho-us=10 --announce-us=0 --out="$T/ideal.csv" >"$T/o" 2>&1 ||
				die "the ideal run at tau $tau failed: $(cat "$T/o")"
			for r in 100 250 500 1000 2000; do
				[[ $tau = 1 || $r = 500 ]] || continue
				# shellcheck disable=SC2086  # base is words
				sim/r2c2-sim $base --tau-us="$tau" --rho-us="$r" --out="$T/o.csv" >"$T/o" 2>&1 ||
					die "sim/r2c2-sim --tau-us=$tau --rho-us=$r failed: $(cat "$T/o")"
				for v in rho tau; do
					[[ $v = rho && $tau != 1 ]] && continue
					[[ $v = tau && $r != 500 ]] && continue
					awk -F, -v sw="$v" -v val="$([[ $v = rho ]] && echo "$r" || echo "$tau")" '
						FNR == 1 { f++ } /^#/ || $1 == "flow" { next }
						f == 1 { if ($6 > 0) id[$1] = $4 / $6; next }
						($1 in id) && $6 > 0 { d = $4 / $6 - id[$1]; if (d < 0) d = -d; print sw, val, d / id[$1] }' \
						"$T/ideal.csv" "$T/o.csv" | sort -k3 -g | awk -v OFS='\t' \
						-v c50="$(sim_val "$T/o" p50 round_cpu_us)" -v c99="$(sim_val "$T/o" p99 round_cpu_us)" \
						-v nf="$(sim_val "$T/o" p50 round_flows)" '
						{ sw = $1; val = $2; e[NR] = $3 }
						END { m = e[int((NR + 1) / 2)]; k = int(0.95 * NR); if (k < 0.95 * NR) k++
							printf "%s\t%s\t%d\t%.5f\t%.5f\t%s\t%s\t%s\n", sw, val, NR, m, e[k], c50, c99, nf }'
				done
			done
		done
	} >"$T/sim-rate-error.tsv"
	mv "$T/sim-sweep.tsv" "$DATA/sim-sweep.tsv"
	mv "$T/sim-rate-error.tsv" "$DATA/sim-rate-error.tsv"
	rm -rf "$T"
}

# bcast_flows NODES FRACTION SEED: LONG flows of 35 MB at 0 and as many
# 10-KB flows as make FRACTION of the bytes, over 20 ms, uniform pairs
bcast_flows() {
	awk -v n="$1" -v f="$2" -v seed="$3" -v nl="${FIG_BCAST_LONG:-2}" 'BEGIN {
		srand(seed); L = 35000000; S = 10000
		ns = int(f / (1 - f) * nl * L / S + 0.5)
		for (i = 0; i < nl + ns; i++) {
			s = int(rand() * n); do d = int(rand() * n); while (d == s)
			if (i < nl) printf "%d %d %d 0\n", s, d, L
			else printf "%d %d %d %.3f\n", s, d, S, rand() * 20000
		} }' | sort -k4 -g
}

# ctl_flows N K MS TAU SEED: K endless flows a node starting in the first
# 500 us, and Pareto flows (shape 1.05, mean 100 KB) arriving every TAU us
# (Poisson) over MS ms, uniform pairs
ctl_flows() {
	awk -v n="$1" -v k="$2" -v ms="$3" -v tau="$4" -v seed="$5" 'BEGIN {
		srand(seed); sh = 1.05; sc = 100000 * (sh - 1) / sh
		for (s = 0; s < n; s++)
			for (i = 0; i < k; i++) {
				do d = int(rand() * n); while (d == s)
				printf "%d %d 1e15 %.3f\n", s, d, rand() * 500
			}
		for (t = -log(1 - rand()) * tau; t < ms * 1000; t += -log(1 - rand()) * tau) {
			s = int(rand() * n); do d = int(rand() * n); while (d == s)
			sz = int(sc / (1 - rand()) ^ (1 / sh)); if (sz < 1) sz = 1
			printf "%d %d %d %.3f\n", s, d, sz, t
		} }' | sort -k4 -g
}

# Figure 19: control traffic, decentralised against centralised, against
# the endless flows each node sources
data_ctl() {
	local T k m rc st
	make --no-print-directory -C sim >/dev/null
	T=$(mktemp -d)
	echo "figures: sim/r2c2-sim, 8x8x8, tau 1 us, 1 to 10 endless flows a node, decentral and central"
	{
		header "Figure 19 simulated: control traffic from 1.0 to 1.5 ms, every flow event broadcast to the rack (decentral) or sent to a controller (node 0) that rates the rack and sends every node sourcing a flow its rates (central); K endless flows a node starting in the first 500 us and Pareto flows (shape 1.05, mean 100 KB) every 1 us (ctl_flows in scripts/figures.sh: awk srand(1)), RPS, 10 Gbit/s, 100 ns links, every flow announced at its start and sent at 1 Gbit/s until rated; events: those the rating node heard in the window (decentral: sent); gbps and bytes_per_event: frames' bytes times hops, eth_: as on Ethernet (a frame at least 64 bytes, + 20 of preamble and gap)" "sim/r2c2-sim --topo=torus:8x8x8 --flows-file=F --announce-us=0 --initial-rate=1e9 --stop-ms=1.5 --measure-from-ms=1 --control=MODE" "$(uname -r) (host)" "$(date -u '+%Y-%m-%d %H:%M UTC')"
		echo "# flows_per_node	control	events	gbps	eth_gbps	bytes_per_event	eth_bytes_per_event	ctl_msgs	round_cpu_us_p50	drops	wall_s"
		for k in 1 2 4 6 8 10; do
			ctl_flows 512 "$k" 1.5 1 1 >"$T/f"
			for m in decentral central; do
				rc=0
				sim/r2c2-sim --topo=torus:8x8x8 --flows-file="$T/f" --announce-us=0 --initial-rate=1e9 \
					--stop-ms=1.5 --measure-from-ms=1 --control="$m" >"$T/o" 2>&1 || rc=$?
				((rc <= 1)) || die "sim/r2c2-sim ($m, $k flows a node) failed: $(cat "$T/o")"
				cp "$T/o" "$LOGS/sim-ctl-$k-$m.out"
				st=window_ctl
				printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$k" "$m" \
					"$(sim_val "$T/o" flow_events $st)" "$(sim_val "$T/o" offered_gbps $st)" \
					"$(sim_val "$T/o" eth_gbps $st)" "$(sim_val "$T/o" bytes_per_event $st)" \
					"$(sim_val "$T/o" eth_bytes_per_event $st)" "$(sim_val "$T/o" ctl_msgs)" \
					"$(sim_val "$T/o" p50 round_cpu_us)" "$(sim_val "$T/o" drops data_pkts)" \
					"$(sim_val "$T/o" wall_s flows)"
			done
		done
	} >"$T/sim-ctl.tsv"
	mv "$T/sim-ctl.tsv" "$DATA/sim-ctl.tsv"
	rm -rf "$T"
}

# Figure 9: broadcast bytes against the bytes in small flows, three
# topologies of 512 nodes, flows announced at start and once rho old
data_bcast() {
	local T tp m f rc ann
	make --no-print-directory -C sim >/dev/null
	T=$(mktemp -d)
	echo "figures: sim/r2c2-sim, 10-KB and 35-MB flows, 3 topologies x 2 announcement rules x 6 fractions"
	{
		header "Figure 9 simulated: broadcasts' share of the bytes on links against small flows' share of the bytes; ${FIG_BCAST_LONG:-2} flows of 35 MB at 0 and 10-KB flows over 20 ms (bcast_flows in scripts/figures.sh: awk srand(1)), uniform pairs, DOR, 10 Gbit/s, 100 ns links; share_eth: as on Ethernet, a control frame 84 bytes of the wire (64 + preamble and gap) and a data frame its bytes + 26 (PPP 2 + FCS 4 + preamble and gap 20); forwards: a data frame's sends after its first" "sim/r2c2-sim --topo=TOPO --flows-file=F --proto=dor [--announce-us=0]" "$(uname -r) (host)" "$(date -u '+%Y-%m-%d %H:%M UTC')"
		echo "# topo	announce	small_bytes_frac	flows	announced	ctl_hops	ctl_bytes	data_bytes	forwards	share	share_eth"
		for tp in torus:8x8x8 mesh:8x8x8 torus:16x32; do
			for m in start rho; do
				for f in 0 0.01 0.05 0.1 0.2 0.5; do
					bcast_flows 512 "$f" 1 >"$T/f"
					ann=()
					[[ $m = start ]] && ann=(--announce-us=0)
					rc=0
					sim/r2c2-sim --topo="$tp" --flows-file="$T/f" --proto=dor "${ann[@]}" >"$T/o" 2>&1 || rc=$?
					((rc == 0)) || die "sim/r2c2-sim --topo=$tp ($m, $f) failed: $(cat "$T/o")"
					cp "$T/o" "$LOGS/sim-bcast-$tp-$m-$f.out"
					awk -v tp="$tp" -v m="$m" -v f="$f" -v nf="$(wc -l <"$T/f")" \
						-v an="$(sim_val "$T/o" announced)" -v ch="$(sim_val "$T/o" ctl_hops)" \
						-v cb="$(sim_val "$T/o" ctl_bytes)" -v db="$(sim_val "$T/o" data_bytes)" \
						-v fw="$(sim_val "$T/o" forwards)" -v dp="$(sim_val "$T/o" data_pkts)" 'BEGIN {
						ce = ch * 84; de = db + (dp + fw) * 26
						printf "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%.6f\t%.6f\n", tp, m, f, nf, an, ch, cb, db, fw,
							cb / (cb + db), ce / (ce + de) }'
				done
			done
		done
	} >"$T/sim-bcast.tsv"
	mv "$T/sim-bcast.tsv" "$DATA/sim-bcast.tsv"
	rm -rf "$T"
}

# Figure 7: scripts/simreal-guest.sh in a 6.12 VM, then the simulator on
# the same flows and scale (10 Mbit/s links, 100 us, rho 500 ms)
data_fig7() {
	local T cmd kernel date rho set win routing rc flags
	make --no-print-directory -C sim >/dev/null
	T=$(mktemp -d)
	cmd="scripts/vm-run --kernel 6.12 --timeout 1500 --out OUT -- scripts/simreal-guest.sh"
	echo "figures: $cmd (a 3x3 torus of namespaces, 10 iperf3 flows; about 5 minutes)"
	scripts/vm-run --kernel 6.12 --timeout 1500 --out "$T/out" -- scripts/simreal-guest.sh 2>&1 |
		tee "$LOGS/fig7.log"
	grep -q '^vm-run: exit status 0 ' "$LOGS/fig7.log" || die "the VM run failed (log: $LOGS/fig7.log)"
	block "$T/out" simreal "$T/d"
	# the guest's settings: "# kernel K date D ... rho_us R settle_s S win_s W ..."
	flags=$(head -n 1 "$T/d/simreal.tsv")
	val() { awk -v k="$1" '{ for (i = 2; i < NF; i++) if ($i == k) { print $(i + 1); exit } }' <<<"$flags"; }
	kernel=$(val kernel); date=$(val date); rho=$(val rho_us); set=$(val settle_s)
	win=$(val win_s); routing=$(val routing)
	awk -F'\t' -v r="$routing" '$1 == "flow" { print $3, $4, "1e15 0", r }' "$T/d/simreal.tsv" >"$T/flows"
	local sim="sim/r2c2-sim --topo=torus:3x3 --link-rate=10Mbps --link-delay-ns=100000 --rho-us=$rho --stop-ms=$(((set + win) * 1000)) --measure-from-ms=$((set * 1000))"
	rc=0
	# shellcheck disable=SC2086  # sim is words
	$sim --flows-file="$T/flows" --window-out="$T/sim.tsv" >"$T/sim.out" 2>&1 || rc=$?
	((rc <= 1)) || die "sim/r2c2-sim failed: $(cat "$T/sim.out")"
	cp "$T/sim.out" "$LOGS/fig7-sim.out"
	{
		header "Figure 7: the simulator against the real system; 3x3 torus, 10 Mbit/s links, $routing, rho $rho us, long flows all started at 0, measured from ${set} s for ${win} s. real: $flags; goodput at the receiver (each iperf3 server's 1-s intervals in the window of the flow's own time), deepest tbf backlog of each port sampled ~0.2 s. sim: $sim --flows-file=F --window-out=W (the same pairs, endless)" "$cmd; $sim" "$kernel" "$date"
		echo "# flow	run	index	src	dst	goodput_mbit	alloc_mbit"
		echo "# queue	run	node	port	nbr	samples	max_kb"
		awk -F'\t' '$1 == "flow" { printf "flow\treal\t%d\t%d\t%d\t%.3f\t%.3f\n", $2, $3, $4, $5 / 1e6, $6 / 1e6 }' "$T/d/simreal.tsv"
		awk -F'\t' 'NR == FNR { if ($1 == "flow") al[$2] = $6; next }
			$1 == "flow" { printf "flow\tsim\t%d\t%d\t%d\t%.3f\t%.3f\n", $2, $3, $4, $5 / 1e6, al[$2] / 1e6 }' \
			"$T/d/simreal.tsv" "$T/sim.tsv"
		# torus.sh's ports: 2d goes + along d, 2d+1 - (3x3: node = x + 3y)
		awk -F'\t' '$1 == "link" { u = $2; p = $3; x = u % 3; y = int(u / 3)
			if (p == 0) x = (x + 1) % 3; else if (p == 1) x = (x + 2) % 3
			else if (p == 2) y = (y + 1) % 3; else y = (y + 2) % 3
			printf "queue\treal\t%d\t%d\t%d\t%d\t%.3f\n", u, p, x + 3 * y, $4, $5 / 1000 }' "$T/d/simreal.tsv"
		awk -F'\t' '$1 == "link" { printf "queue\tsim\t%d\t%d\t%d\t-\t%.3f\n", $2, $3, $4, $5 / 1000 }' "$T/sim.tsv"
	} >"$T/sim-vs-real.tsv"
	mv "$T/sim-vs-real.tsv" "$DATA/sim-vs-real.tsv"
	fig7_agree "$DATA/sim-vs-real.tsv"
	rm -rf "$T"
}

# fig7_agree TSV: how far the real flows are from the simulated ones
fig7_agree() {
	awk -F'\t' '!/^#/ && $1 == "flow" { g[$2, $3] = $6; n[$2]++; al[$3] = $7 }
		END {
			for (i = 0; i < n["real"]; i++) {
				e = (g["real", i] - g["sim", i]) / g["sim", i]; if (e < 0) e = -e
				if (e > emax) emax = e; es += e
				printf "fig7: flow %d real %.3f sim %.3f alloc %.3f Mbit/s: real/sim %.3f\n",
					i, g["real", i], g["sim", i], al[i], g["real", i] / g["sim", i]
				sr += g["real", i]; ss += g["sim", i]
			}
			printf "fig7: %d flows; sum real %.3f sim %.3f Mbit/s; |real - sim| / sim mean %.1f %% max %.1f %%\n",
				n["real"], sr, ss, 100 * es / n["real"], 100 * emax
		}' "$1"
	local r m q
	for r in real sim; do
		m=$(awk -F'\t' -v r="$r" '!/^#/ && $1 == "flow" && $2 == r { print $6 }' "$1" | sort -g |
			awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
		q=$(awk -F'\t' -v r="$r" '!/^#/ && $1 == "queue" && $2 == r { print $7 }' "$1" | sort -g |
			awk '{ v[NR] = $1 } END { printf "p50 %s p90 %s max %s", v[int((NR + 1) / 2)], v[int(NR * 0.9 + 0.5)], v[NR] }')
		echo "fig7: $r goodput median $m Mbit/s; ports' max queue $q KB"
	done
}

case ${1:-draw} in
draw) draw ;;
data)
	LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
	LOGS=build/figures	# the VM runs' whole output
	mkdir -p "$LOGS"
	case ${2:-all} in
	demo) builds; data_demo ;;
	conv) builds; data_conv ;;
	routesel) make --no-print-directory userspace >/dev/null; data_routesel ;;
	fct) data_fct ;;
	sweep) data_sweep ;;
	rs-sim) data_rs_sim ;;
	bcast) data_bcast ;;
	ctl) data_ctl ;;
	fig7) builds; data_fig7 ;;
	all) builds; data_demo; data_conv; data_routesel; data_rs_sim; data_fct; data_sweep; data_bcast; data_ctl; data_fig7 ;;
	*) die "usage: $0 data [demo|conv|routesel|rs-sim|fct|sweep|bcast|ctl|fig7|all]" ;;
	esac
	draw ;;
*) die "usage: $0 [draw] | data [demo|conv|routesel|rs-sim|fct|sweep|bcast|ctl|fig7|all]" ;;
esac
