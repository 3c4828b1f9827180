#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# rack.sh - TCP throughput and ping latency over r2c0 on a rack of guests
# (scripts/vm-rack), across 1, 2 and 3 hops, with RPS and DOR. Runs on
# the host against a rack that is up; prints "bench rack ..." lines.
#
#   R2C2_RACK_DIR=/tmp/r2c2-rack scripts/vm-rack start --torus 2x2x2
#   bash bench/rack.sh [-t SECONDS] [-r REPS] [-x MODE] [-g on|off] [PAIR]...
#   scripts/vm-rack stop
#
# PAIR is SRC:DST (default, on a 2x2x2 torus: 0:1 0:3 0:7, one, two and
# three hops). For each pair and routing protocol (rps, dor) node SRC's
# default routing is set ("r2c2ctl node set routing"), then REPS times
# (default 3): "iperf3 -c DST -t SECONDS" (default 10) from SRC, whose
# receiver-side rate counts, and "ping -c 50 -i 0.02" (its median RTT
# from the 50 samples). Hops: "r2c2ctl route get DST" on SRC. Nothing
# else should run on the rack or the host meanwhile: TCG guests measure
# the emulator as much as r2c2.
# -x MODE (auto, native or generic): first attach the XDP transit program
# on every node ("r2c2ctl xdp attach mode MODE", each node's ports and
# modes printed); the lines then say "xdp". -x off: first detach it, so
# the kernel path forwards; the lines say "kernel-path". Either way each
# node is back to r2c2-node's default at the end (the program native on
# its virtio-net ports). Without -x the rack runs as configured: with the
# program, r2c2-node's default.
# -g off: switch GRO off on every node's r2c0 ("ethtool -K r2c0 gro
# off", back on at the end), so that each frame goes up the receiver's
# stack alone, as before r2c0 had GRO; the lines then say "gro-off".

set -u
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RACK=$REPO/scripts/vm-rack
T=10
REPS=3
XDP=
GRO=on
while getopts t:r:x:g:h o; do
	case $o in
	t) T=$OPTARG ;;
	r) REPS=$OPTARG ;;
	x) XDP=$OPTARG ;;
	g) GRO=$OPTARG ;;
	*) sed -n '3,25p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
PAIRS=("$@")
((${#PAIRS[@]})) || PAIRS=(0:1 0:3 0:7)
if ! [[ $T =~ ^[0-9]+$ ]] || ((T < 1 || T > 600)); then
	echo "rack.sh: -t $T: want seconds, 1..600" >&2; exit 2
fi
if ! [[ $REPS =~ ^[0-9]+$ ]] || ((REPS < 1 || REPS > 20)); then
	echo "rack.sh: -r $REPS: want 1..20" >&2; exit 2
fi
case $XDP in
''|auto|native|generic|off) ;;
*) echo "rack.sh: -x $XDP: want auto, native, generic or off" >&2; exit 2 ;;
esac
XTAG=
[[ -n $XDP ]] && XTAG=" xdp"
[[ $XDP == off ]] && XTAG=" kernel-path"
case $GRO in
on|off) ;;
*) echo "rack.sh: -g $GRO: want on or off" >&2; exit 2 ;;
esac
GROTAG=
[[ $GRO == off ]] && GROTAG=" gro-off"

x() { local n=$1; shift; "$RACK" exec "$n" --timeout $((T + 60)) -- "$*"; }
addr4() { echo "10.42.$(($1 / 256)).$(($1 % 256))"; }
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "bench rack: $(date -u +%Y-%m-%dT%H:%MZ) kernel $(x 0 uname -r) host $(nproc) cpus load $(cut -d' ' -f1 /proc/loadavg)${XDP:+ xdp $XDP}$GROTAG"
NODES=$("$RACK" status 2>/dev/null | awk '$1 == "node" && $3 == "up" { sub(":", "", $2); print $2 }')
for n in $NODES; do
	x "$n" "ethtool -K r2c0 gro $GRO" >/dev/null || exit 1
done
if [[ $XDP == off ]]; then
	for n in $NODES; do
		x "$n" "r2c2ctl xdp detach" >/dev/null || exit 1
	done
elif [[ -n $XDP ]]; then
	for n in $NODES; do
		echo "bench rack: node $n xdp: $(x "$n" "r2c2ctl xdp attach mode $XDP" | tr '\n' ' ')" ||
			exit 1
	done
fi
for p in "${PAIRS[@]}"; do
	s=${p%%:*}; d=${p##*:}
	[[ $s =~ ^[0-9]+$ && $d =~ ^[0-9]+$ && $s != "$d" ]] || { echo "rack.sh: $p: want SRC:DST, two node numbers" >&2; exit 2; }
	x "$d" "pkill -x iperf3; iperf3 -s -D -p 5500 && sleep 0.5" >/dev/null
	for proto in rps dor; do
		x "$s" "r2c2ctl node set routing $proto" >/dev/null || exit 1
		hops=$(x "$s" "r2c2ctl -j route get $d" | jq '.hops | length' 2>/dev/null)
		tput=()
		for ((i = 0; i < REPS; i++)); do
			tput+=("$(x "$s" "iperf3 -c $(addr4 "$d") -p 5500 -t $T -J" |
				jq '.end.sum_received.bits_per_second / 1e5 | round / 10')")
		done
		rtt=$(x "$s" "ping -q -n -c 50 -i 0.02 $(addr4 "$d") >/dev/null; ping -n -c 50 -i 0.02 $(addr4 "$d")" |
			sed -n 's/.*time=\([0-9.]*\) ms/\1/p' | median)
		echo "bench rack: $s -> $d hops ${hops:-?} $proto$XTAG$GROTAG tcp_mbps $(printf '%s\n' "${tput[@]}" | median) (runs: ${tput[*]}) ping_rtt_ms_median $rtt"
	done
	x "$s" "r2c2ctl node set routing rps" >/dev/null
done
if [[ -n $XDP ]]; then
	for n in $NODES; do
		[[ $XDP == off ]] ||
			echo "bench rack: node $n after: $(x "$n" "r2c2ctl -j xdp show" | jq -c '[.ports[] | {port, mode, forwarded}]')"
		x "$n" "r2c2ctl xdp attach mode native" >/dev/null
	done
fi
for n in $NODES; do
	x "$n" "ethtool -K r2c0 gro on" >/dev/null
done
