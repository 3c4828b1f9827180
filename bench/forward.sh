#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# forward.sh - forwarding benchmark: packets per second per core of the
# r2c2 source-routed path against Linux IPv4 forwarding, over the same
# veth chain, in the same VM run. Prints numbers; it is not a test.
#
#   ns <x>a (A)           ns <x>b (B, the forwarder)            ns <x>c (C)
#   pktblast --> aB ==veth== bA  [r2c2 | ip_forward]  bC ==veth== cB --> tc drop
#
# Ten such chains exist side by side for the whole run, one per case
# (x = its prefix); frames of a case only ever cross its own chain:
#   r2c2   (x = r) r2c2 nodes 1, 2, 3 (port 0 of A and B towards C, port 1
#          of B and C towards A). Once they converge, A asks its kernel
#          for a route to C (`r2c2ctl route get 3`: 0,0) and pktblast sends
#          valid data frames with that route to B's port MAC, with ridx = 1
#          as a sender leaves them (the sender takes hop 0). B forwards
#          them by route[1]: r2c2_rcv() -> r2c2_rcv_data() -> r2c2_port_xmit().
#   ipv4   (x = i) no r2c2 node; B has ip_forward=1, 10.1.0.1/24 on bA and
#          10.2.0.1/24 on bC (connected routes) and a permanent neighbour
#          entry for C; frames are Ethernet+IPv4+UDP 10.1.0.2 -> 10.2.0.2
#          to B's MAC: ip_rcv() -> ip_forward() -> ip_finish_output2().
#   drop, r2c2drop  (x = d, q) references: B drops every frame (IPv4,
#          resp. R2C2 frames) at bA's tc ingress. There is one per
#          protocol because the generator's cost differs: AF_PACKET runs
#          the flow dissector on every frame it sends
#          (packet_parse_headers()), which parses IPv4+UDP but stops at
#          once on ethertype 0x88B5.
#   r2c2x, ipv4x  (x = s, j) as r2c2 and ipv4, but B's own egress (bC, tc
#          clsact egress) drops the frames: the forwarding decision and
#          dev_queue_xmit() up to the qdisc layer, without veth and C.
#   xdp    (x = e) as r2c2, with the XDP transit program (r2c2ctl xdp
#          attach mode native) on B's ports and on C's: B forwards in
#          bA's NAPI poll, bpf_redirect() to bC, no skb; C's cB runs the
#          program too (a veth that takes redirected frames needs NAPI on
#          its peer) and passes the frames, which end at C, to the same
#          tc drop. Its ratios: IPv4 ns / XDP ns, kernel path ns / XDP ns.
#   r2c2h2, ipv4h2, xdph2  (x = t, k, f) as r2c2, ipv4 and xdp with a
#          second forwarder M between B and C (A - B - M - C; route
#          0,0,0; B routes 10.3.0.0/24 via M): minus the one-forwarder
#          chain, the cost of one hop. In xdph2 M gets what B's program
#          redirected, an XDP frame, as every hop after the first of an
#          XDP fabric does; B gets an skb from pktblast, which veth copies
#          into a page of its own before XDP sees it (skb headroom < 256).
# C drops every frame at cB's tc ingress (clsact + matchall drop), the
# same cheap end for both protocols. IPv6 is off in every namespace (no
# ND/MLD noise). Payload sizes (-s) count the bytes after the forwarding
# protocol's own headers: an R2C2 frame is 14+40+P bytes, an IPv4 one
# 14+20+8+P.
#
# Method ("chain", the default). veth has no NAPI unless GRO or XDP is on
# (both are off here): its transmit calls netif_rx(), which queues the
# frame on this CPU's backlog, and the receive runs in NET_RX softirq when
# the sender re-enables BHs -- inside the sender's sendmmsg() call. So
# with no RPS, one sendmmsg() of 16 frames on A carries them across B to
# C (or to the drop) before it returns, on one CPU: the time of the call
# is the CPU cost of the whole path. pktblast (pinned to cpu 1; this
# script stays on cpu 0) sends the cases in turn, one call each, round
# after round, and records every call's time: every case is measured
# side by side with the others, so slow drifts of the machine hit all
# alike, and a case's cost is the median over its calls of the time per
# frame, so that calls during which the CPU was taken away (interrupts,
# other tasks, under TCG the host descheduling the vCPU thread: on a
# loaded host, most of the noise) do not count. The mean is printed too.
#
#   ns/frame        a case's median time per frame (whole path, one core)
#   pps/core        1e9 / ns/frame: frames one core carries per second
#   marginal        ns/frame(case) - ns/frame(its drop reference): what
#                   forwarding adds to receiving a frame (protocol,
#                   transmit on bC, veth, C's receive and drop -- the
#                   last three the same for both)
#   protocol        ns/frame(casex) - ns/frame(its drop reference): the
#                   forwarding decision and transmit up to B's qdisc
#                   layer only
#   ratios          IPv4 / r2c2 of each (> 1: r2c2 is cheaper), per
#                   repetition; medians over -r repetitions are reported
#
# Every repetition checks that each case's frames went where they should
# (bC tx_packets, r2c2 `forwarded`, Ip ForwDatagrams, from
# /proc/<pid>/net of a process in B's namespace).
#
# Mode "split" (-m split, extra): B's work on a CPU of its own. bA's
# rps_cpus = cpu 0 and cB's = cpu 1, pktblast on cpu 1, one case at a
# time; cpu 0 then runs exactly B's receive, protocol, transmit and the
# enqueue towards C, and per-core rate = frames cpu 0's backlog processed
# (softnet_stat) / (cpu 0 busy fraction from /proc/stat * seconds). The
# generator is the bottleneck, so cpu 0 is not saturated and its time per
# frame includes waking up for small batches (IPIs, softirq entry): the
# drop case measures that part. In the xdp case B's work runs in bA's
# NAPI poll, which RPS does not move: bA's and cB's NAPI are made
# threaded, bA's thread pinned to cpu 0 and cB's to cpu 1, and frames =
# B's forwarded counter. Cases are measured one after the other,
# so host drift is not cancelled: expect noise.
#
# Under TCG absolute numbers are emulated (and the guest's clock counts
# time the host took its vCPU away): compare the cases of one run.
#
# Usage (inside a VM; see Documentation/performance.md):
#   scripts/vm-run --kernel 6.1 --timeout 3000 -- bench/forward.sh
#   bench/forward.sh [-T SECONDS] [-r REPS] [-s "64 1400"] [-m "chain split"]
#                    [-c "r2c2 ipv4 drop r2c2drop r2c2x ipv4x"] [-P] [-v]
# -P: instead of measuring, profile each case (one at a time) with perf
# (cpu-clock sampling, which works without a PMU, as under TCG) on the CPU
# the mode measures: needs a perf binary in the guest ($PERF, or perf on
# PATH); prints the top symbols in samples per 1,000 frames and the
# samples of protocol-specific functions (r2c2_*; ip_*, fib_*, neigh_*).
# `make bench-forward` builds everything and runs it on both kernels.
# Output: "run" lines (one per case and repetition), "result" lines
# (medians) and a Markdown table.

set -u

bench_dir=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=selftests/lib.sh
source "$bench_dir/../selftests/lib.sh"

T=5
WARM=1
REPS=5
SIZES="64 1400"
CASES="r2c2 ipv4 drop r2c2drop r2c2x ipv4x xdp r2c2h2 ipv4h2 xdph2"
MODES="chain"
VERB=0
PROFILE=0
PERF=${PERF:-perf}
BLAST=$bench_dir/pktblast

while getopts "T:w:r:s:c:m:Pvh" o; do
	case $o in
	T) T=$OPTARG ;;
	w) WARM=$OPTARG ;;
	r) REPS=$OPTARG ;;
	s) SIZES=$OPTARG ;;
	c) CASES=$OPTARG ;;
	m) MODES=$OPTARG ;;
	v) VERB=1 ;;
	P) PROFILE=1 ;;
	*) sed -n '2,80p' "$0"; exit 1 ;;
	esac
done

die() { echo "forward.sh: $*" >&2; exit 1; }
vlog() { ((VERB)) && echo "# $*"; return 0; }

[[ $(id -u) -eq 0 ]] || die "needs root (run it in a VM: scripts/vm-run -- bench/forward.sh)"
[[ -x $BLAST ]] || die "$BLAST not built (make bench-forward, or: cc -O2 -I include -I include/uapi -o bench/pktblast bench/pktblast.c)"
(($(nproc) >= 2)) || die "needs 2 CPUs (vm-run --cpus 2, the default)"
for c in ip tc jq taskset r2c2ctl; do
	command -v "$c" >/dev/null || die "'$c' not found"
done
for m in veth sch_ingress cls_matchall act_gact; do
	modprobe -q "$m" 2>/dev/null || [[ -d /sys/module/$m ]] ||
		die "kernel module $m not available"
done
r2c2_modules_load || die "cannot load r2c2.ko for $(uname -r)"

KERNEL=$(uname -r)
declare -A PFX=([r2c2]=r [ipv4]=i [drop]=d [r2c2drop]=q [r2c2x]=s [ipv4x]=j [xdp]=e
		[r2c2h2]=t [ipv4h2]=k [xdph2]=f)
declare -A ARGS=() PID=()

# ---------------------------------------------------------------- topology
mac_of() { ip -n "$1" -j link show dev "$2" | jq -r '.[0].address'; }

tc_drop()	# NS DEV [ingress|egress]: drop every frame there
{
	tc -n "$1" qdisc add dev "$2" clsact &&
		tc -n "$1" filter add dev "$2" "${3:-ingress}" matchall action drop
}

# the namespaces of a chain: A B C, or A B M C with a second forwarder
chain_ns() { [[ $2 == 2 ]] && echo "$1a $1b $1m $1c" || echo "$1a $1b $1c"; }

topo_base()	# PREFIX [FORWARDERS]
{
	local p=$1 n=${2:-1} ns

	for ns in $(chain_ns "$p" "$n"); do
		ns_create "$ns" || return 1
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.default.disable_ipv6=1
	done
	veth_link "${p}a" aB "${p}b" bA || return 1
	if ((n == 2)); then
		veth_link "${p}b" bC "${p}m" mB || return 1
		veth_link "${p}m" mC "${p}c" cB || return 1
	else
		veth_link "${p}b" bC "${p}c" cB || return 1
	fi
	# a process in B's namespace: its /proc/PID/net shows B's counters
	ip netns exec "${p}b" sleep 1d </dev/null >/dev/null 2>&1 &
	PID[$p]=$!
	cleanup_add "kill ${PID[$p]}"
}

# setup_r2c2 PREFIX [FORWARDERS]: build a chain; OUT = pktblast's stream
# options. Not run in a subshell: PID and lib.sh's namespace list must
# stay.
setup_r2c2()
{
	local p=$1 n=${2:-1} i route hops ns addr=1 want=0,0

	topo_base "$p" "$n" || return 1
	for ns in $(chain_ns "$p" "$n"); do
		ip netns exec "$ns" r2c2ctl node set addr $addr hello 200 || return 1
		addr=$((addr + 1))
	done
	ip netns exec "${p}a" r2c2ctl port add 0 dev aB || return 1
	ip netns exec "${p}b" r2c2ctl port add 1 dev bA || return 1
	ip netns exec "${p}b" r2c2ctl port add 0 dev bC || return 1
	if ((n == 2)); then
		ip netns exec "${p}m" r2c2ctl port add 1 dev mB || return 1
		ip netns exec "${p}m" r2c2ctl port add 0 dev mC || return 1
		want=0,0,0
	fi
	ip netns exec "${p}c" r2c2ctl port add 1 dev cB || return 1
	for i in $(seq 100); do
		route=$(ip netns exec "${p}a" r2c2ctl -j route get $((addr - 1)) 2>/dev/null) &&
			break
		sleep 0.2
	done
	hops=$(jq -r '.hops | map(tostring) | join(",")' <<<"$route" 2>/dev/null)
	[[ $hops == "$want" ]] || { echo "# r2c2: no route A->C (got '$route')" >&2; return 1; }
	# C's end: drop (C's hellos still reach B, so B keeps C as neighbour)
	tc_drop "${p}c" cB || return 1
	OUT="-N ${p}a -i aB -t r2c2 -s 1 -d $((addr - 1)) -r $hops -x 1 -m $(mac_of "${p}b" bA)"
}

setup_ipv4()	# PREFIX [FORWARDERS]
{
	local p=$1 n=${2:-1} dst=10.2.0.2

	topo_base "$p" "$n" || return 1
	ip -n "${p}a" addr add 10.1.0.2/24 dev aB
	ip -n "${p}b" addr add 10.1.0.1/24 dev bA
	ip -n "${p}b" addr add 10.2.0.1/24 dev bC
	ip netns exec "${p}b" sysctl -qw net.ipv4.ip_forward=1 || return 1
	if ((n == 2)); then
		# B routes 10.3.0.0/24 to M, M forwards to C
		dst=10.3.0.2
		ip -n "${p}m" addr add 10.2.0.2/24 dev mB
		ip -n "${p}m" addr add 10.3.0.1/24 dev mC
		ip -n "${p}c" addr add $dst/24 dev cB
		ip netns exec "${p}m" sysctl -qw net.ipv4.ip_forward=1 || return 1
		ip -n "${p}b" neigh replace 10.2.0.2 lladdr "$(mac_of "${p}m" mB)" \
			dev bC nud permanent || return 1
		ip -n "${p}b" route add 10.3.0.0/24 via 10.2.0.2 || return 1
		ip -n "${p}m" neigh replace $dst lladdr "$(mac_of "${p}c" cB)" \
			dev mC nud permanent || return 1
	else
		ip -n "${p}c" addr add $dst/24 dev cB
		ip -n "${p}b" neigh replace $dst lladdr "$(mac_of "${p}c" cB)" \
			dev bC nud permanent || return 1
	fi
	tc_drop "${p}c" cB || return 1
	OUT="-N ${p}a -i aB -t ipv4 -S 10.1.0.2 -D $dst -m $(mac_of "${p}b" bA)"
}

setup_case()	# CASE
{
	local c=$1 p=${PFX[$1]} ns n

	OUT=
	case $c in
	r2c2|r2c2x|r2c2drop|xdp) setup_r2c2 "$p" || return 1 ;;
	ipv4|ipv4x|drop) setup_ipv4 "$p" || return 1 ;;
	r2c2h2|xdph2) setup_r2c2 "$p" 2 || return 1 ;;
	ipv4h2) setup_ipv4 "$p" 2 || return 1 ;;
	esac
	case $c in
	drop|r2c2drop) tc_drop "${p}b" bA || return 1 ;;
	*x) tc_drop "${p}b" bC egress || return 1 ;;
	xdp|xdph2)	# every forwarder's ports and C's (cB's NAPI takes
			# the redirected frames)
		n=1
		[[ $c == *h2 ]] && n=2
		for ns in $(chain_ns "$p" "$n"); do
			[[ $ns == "${p}a" ]] && continue
			ip netns exec "$ns" r2c2ctl xdp attach mode native >/dev/null ||
				return 1
		done ;;
	esac
	ARGS[$c]=$OUT
}

set_rps()	# PREFIX MODE
{
	local a=0 c=0

	if [[ $2 == split ]]; then
		a=1 c=2
	fi
	ip netns exec "$1b" bash -c "echo $a > /sys/class/net/bA/queues/rx-0/rps_cpus" &&
		ip netns exec "$1c" bash -c "echo $c > /sys/class/net/cB/queues/rx-0/rps_cpus"
}

# ---------------------------------------------------------------- counters
# counters PREFIX: "bC_tx bA_rx ip_forwdatagrams r2c2_forwarded" of B
counters()
{
	local p=$1 rfwd=0

	if [[ -n $(ip netns exec "${p}b" r2c2ctl node show 2>/dev/null) ]]; then
		rfwd=$(ip netns exec "${p}b" r2c2ctl -j stats show | jq '.forwarded')
	fi
	awk -v rfwd="$rfwd" '
	FILENAME ~ /net\/dev$/ {
		sub(/^ */, ""); split($0, f, /[: ]+/)
		if (f[1] == "bC") tx = f[11]
		if (f[1] == "bA") rx = f[3]
	}
	FILENAME ~ /snmp$/ && $1 == "Ip:" {
		if ($2 !~ /^[0-9]+$/) {
			for (i = 2; i <= NF; i++) if ($i == "ForwDatagrams") col = i
		} else if (col) {
			fw = $col
		}
	}
	END { print tx + 0, rx + 0, fw + 0, rfwd + 0 }' \
		"/proc/${PID[$p]}/net/dev" "/proc/${PID[$p]}/net/snmp"
}

# sample PREFIX: "uptime c0busy c0idle c1busy c1idle sn0proc sn0drop" and
# counters, the kernel-wide ones read in one awk
sample()
{
	local k

	k=$(awk '
	function hex(s,   i, n) {
		n = 0; s = tolower(s)
		for (i = 1; i <= length(s); i++)
			n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return n
	}
	FILENAME == "/proc/uptime" { up = $1 }
	FILENAME == "/proc/stat" && ($1 == "cpu0" || $1 == "cpu1") {
		cpu = cpu sprintf(" %d %d", $2 + $3 + $4 + $7 + $8 + $9, $5 + $6)
	}
	FILENAME == "/proc/net/softnet_stat" && FNR == 1 {
		sn = sprintf(" %d %d", hex($1), hex($2))
	}
	END { print up cpu sn }' /proc/uptime /proc/stat /proc/net/softnet_stat)
	echo "$k $(counters "$1")"
}

# check_field CASE: the field of counters() that must grow by the number
# of frames sent (forwarding cases), or, negated, the one that must not
# grow at all (drop cases; B's own hellos leave by bC too, so the r2c2
# reference is checked on r2c2's `forwarded`)
check_field()
{
	case $1 in
	r2c2|ipv4) echo 1 ;;	# bC tx_packets
	ipv4x) echo 3 ;;	# Ip ForwDatagrams
	r2c2x|xdp|r2c2h2|xdph2) echo 4 ;;	# r2c2 forwarded (the XDP program's included)
	ipv4h2) echo 3 ;;	# Ip ForwDatagrams
	drop) echo -1 ;;	# bC tx_packets (no r2c2 node: no hellos)
	r2c2drop) echo -4 ;;	# r2c2 forwarded
	esac
}

check_path()	# CASE: 1000 frames must go where they should
{
	local c=$1 p=${PFX[$1]} f before after b a

	f=$(check_field "$c")
	before=$(counters "$p")
	# shellcheck disable=SC2086
	"$BLAST" -n 5 -b 200 -- ${ARGS[$c]} -p 64 >/dev/null || return 1
	sleep 0.2
	after=$(counters "$p")
	b=$(cut -d' ' -f"${f#-}" <<<"$before")
	a=$(cut -d' ' -f"${f#-}" <<<"$after")
	if ((f < 0)); then
		((a == b)) && return 0
		echo "# $c: $((a - b)) frames went on (counters $before -> $after)" >&2
		return 1
	fi
	((a - b >= 1000)) && return 0
	echo "# $c: only $((a - b)) of 1000 frames forwarded (counters $before -> $after)" >&2
	return 1
}

# interleaved REP SIZE: one pktblast run over every case; "run" lines
interleaved()
{
	local rep=$1 size=$2 c args=() out i n sent ns f b0 b1 ok
	local -A before=() after=()

	for c in $CASES; do
		set_rps "${PFX[$c]}" chain || return 1
		# shellcheck disable=SC2206
		args+=(-- ${ARGS[$c]} -p "$size")
	done
	taskset -pc 0 $$ >/dev/null
	for c in $CASES; do before[$c]=$(counters "${PFX[$c]}"); done
	out=$(taskset -c 1 "$BLAST" -T "$T" -b 16 "${args[@]}") || return 1
	sleep 0.2
	for c in $CASES; do after[$c]=$(counters "${PFX[$c]}"); done
	vlog "pktblast: $(tr '\n' ';' <<<"$out")"
	i=0
	for c in $CASES; do
		read -r _ _ _ sent _ _ _ ns _ mean _ p10 _ p90 <<<"$(grep "^stream $i " <<<"$out")"
		f=$(check_field "$c")
		b0=$(cut -d' ' -f"${f#-}" <<<"${before[$c]}")
		b1=$(cut -d' ' -f"${f#-}" <<<"${after[$c]}")
		n=$((b1 - b0))
		ok=yes
		if ((f > 0)); then
			((n >= sent)) || ok="no($n/$sent)"
		elif ((n != 0)); then
			ok="no($n)"
		fi
		printf 'run kernel=%s mode=chain size=%s case=%s rep=%s sent=%s ns_per_frame=%s mean_ns=%s p10_ns=%s p90_ns=%s per_core=%.0f forwarded_ok=%s\n' \
			"$KERNEL" "$size" "$c" "$rep" "$sent" "$ns" "$mean" "$p10" "$p90" \
			"$(awk -v n="$ns" 'BEGIN { print (n > 0 ? 1e9 / n : 0) }')" "$ok"
		i=$((i + 1))
	done
}

# xdp_threads PREFIX 1|0: bA's and cB's NAPI threaded, pinned to cpu 0
# and cpu 1 (1), or back in softirq (0)
xdp_threads()
{
	local p=$1 on=$2 t

	ip netns exec "${p}b" bash -c "echo $on > /sys/class/net/bA/threaded" &&
		ip netns exec "${p}c" bash -c "echo $on > /sys/class/net/cB/threaded" ||
		return 1
	((on)) || return 0
	for t in bA:0 cB:1; do
		pgrep "^napi/${t%:*}-" | while read -r pid; do
			taskset -pc "${t#*:}" "$pid" >/dev/null
		done
	done
}

# split CASE SIZE REP: one case with B on cpu 0; a "run" line
split_measure()
{
	local c=$1 size=$2 rep=$3 p=${PFX[$1]} s0 s1 bpid

	set_rps "$p" split || return 1
	[[ $c == xdp ]] && { xdp_threads "$p" 1 || return 1; }
	taskset -pc 1 $$ >/dev/null
	# shellcheck disable=SC2086
	taskset -c 1 "$BLAST" -T $((WARM + T + 60)) -- ${ARGS[$c]} -p "$size" >/dev/null &
	bpid=$!
	sleep "$WARM"
	s0=$(sample "$p")
	sleep "$T"
	s1=$(sample "$p")
	kill -TERM $bpid 2>/dev/null
	wait $bpid
	set_rps "$p" chain
	[[ $c == xdp ]] && xdp_threads "$p" 0
	vlog "$c split $size: $s0 | $s1"
	awk -v c="$c" -v size="$size" -v rep="$rep" -v s0="$s0" -v s1="$s1" \
	    -v k="$KERNEL" 'BEGIN {
		split(s0, a, " "); split(s1, b, " ");
		wall = b[1] - a[1];
		c0b = b[2] - a[2]; c0i = b[3] - a[3]; c1b = b[4] - a[4]; c1i = b[5] - a[5];
		p0 = b[6] - a[6]; d0 = b[7] - a[7]; fwd = b[8] - a[8];
		# xdp: no backlog, the frames B forwarded in its NAPI thread
		if (c == "xdp") { p0 = b[11] - a[11]; d0 = 0 }
		u0 = (c0b + c0i) ? c0b / (c0b + c0i) : 0;
		u1 = (c1b + c1i) ? c1b / (c1b + c1i) : 0;
		percore = u0 > 0 ? p0 / wall / u0 : 0;
		printf "run kernel=%s mode=split size=%s case=%s rep=%s secs=%.2f pps=%.0f " \
		       "cpu0=%.3f cpu1=%.3f cpu0_backlog_pps=%.0f cpu0_backlog_drop_pps=%.0f " \
		       "ns_per_frame=%.0f per_core=%.0f\n", k, size, c, rep, wall, p0 / wall,
		       u0, u1, p0 / wall, d0 / wall, (percore > 0 ? 1e9 / percore : 0), percore
	}'
}

# profile CASE MODE SIZE: perf profile of the measured CPU, one case
profile()
{
	local c=$1 mode=$2 size=$3 p=${PFX[$1]} bpid data=/tmp/fwd-perf.data
	local s0 s1 n cpu=1

	[[ $mode == split ]] && cpu=0
	set_rps "$p" "$mode" || return 1
	taskset -pc $((1 - cpu)) $$ >/dev/null
	# shellcheck disable=SC2086
	taskset -c 1 "$BLAST" -T $((WARM + T + 60)) -- ${ARGS[$c]} -p "$size" >/dev/null &
	bpid=$!
	sleep "$WARM"
	s0=$(sample "$p")
	"$PERF" record -q -e cpu-clock -C $cpu -o "$data" -- sleep "$T" >/dev/null 2>&1
	s1=$(sample "$p")
	kill -TERM $bpid 2>/dev/null
	wait $bpid
	set_rps "$p" chain
	# frames: B's backlog on cpu 0 (split), else what B received
	n=$(awk -v m="$mode" -v s0="$s0" -v s1="$s1" 'BEGIN {
		split(s0, a, " "); split(s1, b, " ")
		print (m == "split") ? b[6] - a[6] : b[9] - a[9] }')
	echo "# ---- profile: kernel $KERNEL case $c mode $mode payload $size (cpu $cpu): $n frames"
	"$PERF" report -i "$data" --stdio --no-children -n --sort sym 2>/dev/null |
		awk -v n="$n" '
		/^#/ || NF < 4 { next }
		{
			k = $2 * 1000 / n; tot += k
			if ($4 ~ /^r2c2_/) r += k
			if ($4 ~ /^(ip_|ip4_|ipv4_|__ip_|fib_|__fib|inet_|nf_hook|neigh_|__neigh)/) v += k
			if (++i <= 30) printf "#   %8.2f  %7s  %s\n", k, $1, $4
		}
		END {
			printf "#   samples/1k frames: total %.1f, r2c2_* %.1f, ip/fib/neigh %.1f\n", tot, r, v
		}'
}

# ---------------------------------------------------------------- main
echo "# forward.sh: kernel $KERNEL, $(nproc) CPUs, T=${T}s warm-up ${WARM}s, reps $REPS"
echo "# sizes: $SIZES; cases: $CASES; modes: $MODES"
for c in $CASES; do
	[[ -n ${PFX[$c]:-} ]] || die "unknown case $c"
	setup_case "$c" || die "setup of case $c failed"
	check_path "$c" || die "case $c: frames do not go where they should"
	echo "# $c: pktblast ${ARGS[$c]}; bA GRO $(ip netns exec "${PFX[$c]}b" ethtool -k bA 2>/dev/null |
		awk '/^generic-receive-offload/ { print $2 }')"
done

if ((PROFILE)); then
	command -v "$PERF" >/dev/null || die "no perf binary (set PERF=/path/to/perf)"
	for size in $SIZES; do
		for mode in $MODES; do
			for c in $CASES; do
				profile "$c" "$mode" "$size"
			done
		done
	done
	exit 0
fi

RUNS=/tmp/fwd-runs.txt
: >"$RUNS"
for rep in $(seq "$REPS"); do
	for size in $SIZES; do
		for mode in $MODES; do
			if [[ $mode == chain ]]; then
				interleaved "$rep" "$size" | tee -a "$RUNS"
				continue
			fi
			order=$CASES
			((rep % 2 == 0)) && order=$(tr ' ' '\n' <<<"$CASES" | tac | tr '\n' ' ')
			for c in $order; do
				[[ $c == *x || $c == r2c2drop || $c == *h2 ]] && continue
				split_measure "$c" "$size" "$rep" | tee -a "$RUNS"
			done
		done
	done
done
for c in $CASES; do
	[[ $c == r2c2* ]] || continue
	echo "# r2c2 node B of $c at the end: $(ip netns exec "${PFX[$c]}b" r2c2ctl -j stats show |
		jq -c '{forwarded, drop_no_port, drop_port_down, drop_csum, drop_tx_err, drop_nomem}')"
done

# medians over the repetitions, of values and of per-repetition ratios
awk '
function sort(v, n,   i, j, t) {
	for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
}
function med(key,   n, i, v) {
	n = cnt[key]
	if (!n) return 0
	for (i = 1; i <= n; i++) v[i] = val[key, i]
	sort(v, n)
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
function lo(key,   i, m) { m = 1e18; for (i = 1; i <= cnt[key]; i++) if (val[key, i] < m) m = val[key, i]; return m }
function hi(key,   i, m) { m = -1e18; for (i = 1; i <= cnt[key]; i++) if (val[key, i] > m) m = val[key, i]; return m }
function add(key, x) { val[key, ++cnt[key]] = x }
function rng(key) { return sprintf("%.2f× (%.2f–%.2f)", med(key), lo(key), hi(key)) }
function best(key) { return cnt[key] ? lo(key) : 0 }
/^run / {
	delete f
	for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	kern = f["kernel"]; m = f["mode"]; s = f["size"]; c = f["case"]; r = f["rep"]
	ns[m, s, c, r] = f["ns_per_frame"]
	add(m SUBSEP s SUBSEP c, f["ns_per_frame"])
	if (f["forwarded_ok"] != "" && f["forwarded_ok"] != "yes") bad++
	reps[r] = 1; seen[m, s, c] = 1; sizes[s] = 1; modes[m] = 1
}
END {
	n = 0
	for (s in sizes) order[++n] = s + 0
	sort(order, n)
	split("chain split", ml, " ")
	for (mi = 1; mi <= 2; mi++) for (i = 1; i <= n; i++) {
		m = ml[mi]; s = order[i]
		if (!((m, s, "r2c2") in seen) || !((m, s, "ipv4") in seen)) continue
		k = m SUBSEP s
		for (r in reps) {
			rn = ns[m, s, "r2c2", r]; in_ = ns[m, s, "ipv4", r]
			dn = ns[m, s, "drop", r]; qn = ns[m, s, "r2c2drop", r]
			# split mode has one reference (the generator is elsewhere)
			if (!qn) qn = dn
			if (rn > 0 && in_ > 0) add(k SUBSEP "ratio", in_ / rn)
			if (dn > 0 && qn > 0 && rn > qn && in_ > dn) {
				add(k SUBSEP "mr", rn - qn); add(k SUBSEP "mi", in_ - dn)
				add(k SUBSEP "mratio", (in_ - dn) / (rn - qn))
			}
			# one more forwarder: the cost of a hop (the second one
			# takes what the first sends: an XDP frame in the xdp case)
			hr = ns[m, s, "r2c2h2", r] - rn; hi_ = ns[m, s, "ipv4h2", r] - in_
			hx = ns[m, s, "xdph2", r] - ns[m, s, "xdp", r]
			if (ns[m, s, "r2c2h2", r] && ns[m, s, "ipv4h2", r] && ns[m, s, "xdph2", r] &&
			    hr > 0 && hi_ > 0 && hx > 0) {
				add(k SUBSEP "hr", hr); add(k SUBSEP "hi", hi_); add(k SUBSEP "hx", hx)
				add(k SUBSEP "hix", hi_ / hx); add(k SUBSEP "hrx", hr / hx)
				add(k SUBSEP "hir", hi_ / hr)
			}
			xn = ns[m, s, "xdp", r]
			if (xn > 0 && in_ > 0) add(k SUBSEP "xratio", in_ / xn)
			if (xn > 0 && rn > 0) add(k SUBSEP "xkratio", rn / xn)
			rx = ns[m, s, "r2c2x", r]; ix = ns[m, s, "ipv4x", r]
			if (dn > 0 && qn > 0 && rx > qn && ix > dn) {
				add(k SUBSEP "pr", rx - qn); add(k SUBSEP "pi", ix - dn)
				add(k SUBSEP "pratio", (ix - dn) / (rx - qn))
			}
		}
		# ns: the best repetition (least disturbed by the host)
		rn = best(m SUBSEP s SUBSEP "r2c2"); in_ = best(m SUBSEP s SUBSEP "ipv4")
		dn = best(m SUBSEP s SUBSEP "drop"); qn = best(m SUBSEP s SUBSEP "r2c2drop")
		if (!qn) qn = dn
		rx = best(m SUBSEP s SUBSEP "r2c2x"); ix = best(m SUBSEP s SUBSEP "ipv4x")
		xn = best(m SUBSEP s SUBSEP "xdp")
		xg = cnt[k SUBSEP "xratio"] ? sprintf("%.0f | %.0f | %s | %s", xn, 1e9 / xn, rng(k SUBSEP "xratio"), rng(k SUBSEP "xkratio")) : "- | - | - | -"
		mg = cnt[k SUBSEP "mratio"] ? sprintf("%.0f / %.0f | %s", rn - qn, in_ - dn, rng(k SUBSEP "mratio")) : "-"
		pg = cnt[k SUBSEP "pratio"] ? sprintf("%.0f / %.0f | %s", rx - qn, ix - dn, rng(k SUBSEP "pratio")) : "-"
		printf "result kernel=%s mode=%s size=%d r2c2_ns=%.0f ipv4_ns=%.0f drop_ns=%.0f r2c2drop_ns=%.0f r2c2_per_core=%.0f ipv4_per_core=%.0f ratio=%s marginal=%s protocol=%s xdp=%s\n",
			kern, m, s, rn, in_, dn, qn, 1e9 / rn, 1e9 / in_, rng(k SUBSEP "ratio"), mg, pg, xg
		row[++nr] = sprintf("| %s | %s | %d | %.0f | %.0f | %.0f | %.0f | **%s** | %s | %s | %s |",
			kern, m, s, rn, 1e9 / rn, in_, 1e9 / in_, rng(k SUBSEP "ratio"), mg, pg, xg)
		if (cnt[k SUBSEP "hix"]) {
			printf "result kernel=%s mode=%s size=%d hop_r2c2_ns=%.0f hop_ipv4_ns=%.0f hop_xdp_ns=%.0f hop_ipv4_over_xdp=%s hop_r2c2_over_xdp=%s hop_ipv4_over_r2c2=%s\n",
				kern, m, s, med(k SUBSEP "hr"), med(k SUBSEP "hi"), med(k SUBSEP "hx"),
				rng(k SUBSEP "hix"), rng(k SUBSEP "hrx"), rng(k SUBSEP "hir")
			hrow[++nh] = sprintf("| %s | %d | %.0f | %.0f | %.0f | **%s** | %s | %s |",
				kern, s, med(k SUBSEP "hr"), med(k SUBSEP "hi"), med(k SUBSEP "hx"),
				rng(k SUBSEP "hix"), rng(k SUBSEP "hrx"), rng(k SUBSEP "hir"))
		}
	}
	print ""
	print "ns/frame, pps/core, marginal and protocol ns: the best repetition of each case; ratios: medians (and range) over the repetitions of the ratio within a repetition"
	print ""
	print "| kernel | mode | payload B | r2c2 ns/frame | r2c2 pps/core | IPv4 ns/frame | IPv4 pps/core | per-core ratio IPv4/r2c2 (min–max) | marginal ns r2c2 / IPv4 \\| ratio | protocol ns r2c2 / IPv4 \\| ratio | XDP ns/frame | XDP pps/core | XDP/IPv4 per core | XDP/kernel path per core |"
	print "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	for (i = 1; i <= nr; i++) print row[i]
	if (nh) {
		print ""
		print "Per hop: ns/frame of the chain with two forwarders minus the chain with one (medians over the repetitions); ratios: per-core rates of a hop"
		print ""
		print "| kernel | payload B | r2c2 kernel path ns/hop | IPv4 ns/hop | XDP ns/hop | per-core ratio XDP/IPv4 | XDP/kernel path | kernel path/IPv4 |"
		print "|---|---|---|---|---|---|---|---|"
		for (i = 1; i <= nh; i++) print hrow[i]
	}
	if (bad) printf "\n# WARNING: %d runs where frames did not all reach their counter\n", bad
}' "$RUNS"
