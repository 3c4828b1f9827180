#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# rack-check.sh - "make check-rack": a rack of guests (scripts/vm-rack),
# each node its own kernel on virtio-net NICs, brought up from the
# installed tree and configured as an operator would; TAP on stdout.
#
#	scripts/rack-check.sh [--kernel 6.1|6.12] [--torus 2x2] [--quick]
#	                      [--hello MS]
#
# The daemons run with link_capacity 4M, so that the rack's UDP flows
# are held to their max-min shares. Checks, each fault with its numbers:
#  - every node knows the whole rack; each port's neighbour is the node
#    and port of the link table (the NICs are in port order); every node
#    pings every other over r2c0 (IPv4; IPv6 too without --quick); r2c2d
#    runs on every node;
#  - the XDP transit program, on by default (r2c2-node up): native on
#    every port of every node, and the pings' transit frames forwarded
#    through it;
#  - link cut: node 0 drops every frame of its port 0 in both directions
#    (tc matchall on the NIC: the carrier stays up, as behind a broken
#    cable). Measured: node 0's detection (from the cut to its topo
#    event, on its own clock), the time until no node's graph has the
#    link (the host polls), what a ping every 10 ms from node 0 to its
#    neighbour lost, and a TCP connection (iperf3, 8 s) from node 0 to
#    the neighbour across the cut, which must survive. Then the link is
#    restored and must be back in every graph;
#  - one-way link: the same port only stops receiving; the far end still
#    hears node 0, yet the link must go from every graph (a link counts
#    when both ends advertise it) and node 0 must reach it around the link
#  - daemon restart: flows 0 -> 3 and 1 -> 3 (UDP, 10 Mbit/s offered)
#    share links; node 0's r2c2d is killed (-9): the qdisc's lease on
#    the flow holds (10 s for this check, 2 s by default; then it runs
#    out to the safe rate);
#    a new r2c2d's first pushed rate for it is within 5 % of the old
#    daemon's last push, the qdisc's rate at the kill (alone, the flow
#    would get 3 times that); the kill waits for node 0's pushes to hold
#    still for 2 s;
#  - lease end: node 0's daemon is killed while a flow of its sits at the
#    minimum rate (set to 1 kbit/s) with packets queued and its sender
#    stopped: the flow must fall to safe_rate at its lease end (2 s),
#    timed by the qdisc's tracepoints
#  - keyless forger: every node keyed, one node's NIC sends unsigned
#    BCAST_ETH frames in another node's name ahead of its sequence and a
#    mutation fuzzer's frames to its neighbour: all refused there, the
#    victim's flow events heard by every node, the rack whole
#  - without --quick, module reload: node 1, with a flow and a ping to
#    the last node running, unloads and loads both modules (r2c2-node
#    down, modprobe -r, r2c2-node up); its r2c2d, not restarted, must
#    push the new qdisc's flows their rates, and the rack be whole;
#  - without --quick, lossy control plane: each node starts a 2-s UDP
#    flow to the next every 3 s, for 20 s with netem loss (5 %,
#    R2C2_RACK_LOSS) on every port; then loss and flows stop (the
#    qdiscs' idle is 300 ms for it, so flows end at once), and the
#    daemons' matrices must be identical again. Twice: with the
#    daemons' digests (the time is the check's), then with digest_ms 0
#    (the time is printed beside it, for comparison);
#  - without --quick, node crash: the last node (with a flow of its own)
#    is killed. Measured from the kill (host polling): until no
#    survivor's graph has a link to it, until its flow left every
#    survivor's matrix, and until node show stops counting it (its LSA
#    ages out). It boots again and the rack is whole without a restart
#    elsewhere.
# --quick is what "make check" runs (a few minutes a kernel).

set -u -o pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
RACK=$REPO/scripts/vm-rack
# shellcheck source=selftests/json_assert.sh
source "$REPO/selftests/json_assert.sh"
kernel=6.1 torus=2x2 quick=0 hello=100
while (($#)); do
	case $1 in
	--kernel) kernel=${2:?}; shift ;;
	--torus) torus=${2:?}; shift ;;
	--hello) hello=${2:?}; shift ;;
	--quick) quick=1 ;;
	*) echo "rack-check.sh: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
own_dir=0
[[ -n ${R2C2_RACK_DIR:-} ]] || own_dir=1
export R2C2_RACK_DIR=${R2C2_RACK_DIR:-$(mktemp -d /tmp/r2c2-rack.XXXXXX)}
# the rack's logs stay when a check failed (or in a directory of one's own)
cleanup() {
	"$RACK" stop >/dev/null 2>&1
	if ((own_dir && fails == 0)); then rm -rf "$R2C2_RACK_DIR"
	else echo "# rack logs: $R2C2_RACK_DIR"; fi
}
trap cleanup EXIT

n=0 fails=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
fail() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else fail "$what"; fi; }
info() { echo "# $*"; }
x() { "$RACK" exec "$@"; }
PLAN=16
((quick)) && PLAN=11
echo "TAP version 13"
echo "1..$PLAN"

CAP=4M
t0=$SECONDS
if ! "$RACK" start --kernel "$kernel" --torus "$torus" --hello "$hello" --timeout 300 \
	--r2c2d link_capacity=$CAP --r2c2d ga_interval_ms=0 2>&1 | sed 's/^/# /'; then
	fail "rack of $torus up on $kernel"
	for ((i = n; i < PLAN; i++)); do fail "not run: the rack did not come up"; done
	exit 1
fi
ok "rack of $torus up on $kernel, every node knows every node ($((SECONDS - t0)) s)"
N=$(cat "$R2C2_RACK_DIR/nodes")
addr4() { echo "10.42.$(($1 / 256)).$(($1 % 256))"; }

# neighbours: each port's neighbour is the one of the link table
neighbours_match() {
	local a pa b pb got bad=0

	while read -r a pa b pb; do
		got=$(x "$a" "r2c2ctl -j neigh show" | jq -r --argjson p "$pa" \
			'.[] | select(.port == $p) | "\(.addr) \(.neighbour_port)"')
		[[ $got == "$b $pb" ]] || { info "node $a port $pa: neighbour '$got', want '$b $pb'"; bad=1; }
		got=$(x "$b" "r2c2ctl -j neigh show" | jq -r --argjson p "$pb" \
			'.[] | select(.port == $p) | "\(.addr) \(.neighbour_port)"')
		[[ $got == "$a $pa" ]] || { info "node $b port $pb: neighbour '$got', want '$a $pa'"; bad=1; }
	done < <("$RACK" links)
	return $bad
}
check "every port's neighbour is the node and port of the link table" neighbours_match

# all_ping FAMILY: every node pings every other over r2c0
all_ping() {
	local fam=$1 a b addr bad=0 pairs=0 cmd out

	for ((a = 0; a < N; a++)); do
		cmd=
		for ((b = 0; b < N; b++)); do
			((a == b)) && continue
			if [[ $fam == 4 ]]; then addr=$(addr4 "$b")
			else addr=$(printf 'fd42::%x' "$b"); fi
			cmd+="ping -$fam -c 3 -i 0.2 -W 2 $addr >/dev/null 2>&1 || echo miss $addr; "
			pairs=$((pairs + 1))
		done
		# "pinged" alone: every ping answered, and the node ran them all
		out=$(x "$a" --timeout 120 "${cmd}echo pinged")
		[[ $out == pinged ]] || { info "node $a: ${out:-no answer}"; bad=1; }
	done
	info "IPv$fam: $pairs pairs"
	return $bad
}
check "every node pings every other over r2c0, IPv4" all_ping 4

# xdp_default: r2c2-node put the XDP transit program natively on every
# port of every node (virtio-net: no "xdp off", no veth), and the pings
# between nodes two hops apart went through it where they crossed a node
xdp_default() {
	local a j bound modes f fwd=0 bad=0

	for ((a = 0; a < N; a++)); do
		j=$(x "$a" "r2c2ctl -j xdp show")
		read -r bound modes f < <(jq -r '"\(.bound) \([.ports[].mode] | unique | join(",")) \([.ports[].forwarded // 0] | add // 0)"' <<<"$j")
		if [[ $bound != true || $modes != native ]]; then
			info "node $a: xdp show: $(jq -c . <<<"$j")"; bad=1
		fi
		fwd=$((fwd + ${f:-0}))
	done
	info "frames the nodes' XDP programs forwarded: $fwd"
	((bad == 0 && fwd > 0))
}
check "the XDP transit program is on by default, native on every port, and forwards" xdp_default
((quick)) || check "every node pings every other over r2c0, IPv6" all_ping 6

daemons() {
	local out l

	out=$("$RACK" each "pgrep -x r2c2d >/dev/null && r2c2ctl -j daemon show >/dev/null && echo up")
	while IFS= read -r l; do info "$l"; done <<<"$out"
	[[ $(grep -c ': up$' <<<"$out") == "$N" ]]
}
check "r2c2d runs on every node and answers daemon show" daemons

# ---------------------------------------------------------------- link cut
# links_of NODE A PA B PB: how many of the two ends (A's port PA, B's
# port PB) have a link in NODE's graph (0..2; empty when NODE answered not)
links_of() {
	x "$1" "r2c2ctl -j topo show" 2>/dev/null | jq --argjson a "$2" --argjson pa "$3" \
		--argjson b "$4" --argjson pb "$5" '[.[] | select(.addr == $a or .addr == $b) |
		.addr as $u | .links[] | select(($u == $a and .port == $pa) or
		($u == $b and .port == $pb))] | length' 2>/dev/null
}
# link_everywhere WANT A PA B PB S [T0]: within S s, every node's graph
# has (WANT=1) or lacks (WANT=0) the link A:PA - B:PB at both ends;
# prints the seconds since T0 ($EPOCHREALTIME, default now)
link_everywhere() {
	local want=$(($1 * 2)) end=$((SECONDS + $6)) t0=${7:-$EPOCHREALTIME} m good

	while ((SECONDS < end)); do
		good=1
		for ((m = 0; m < N; m++)); do
			[[ $(links_of "$m" "$2" "$3" "$4" "$5") == "$want" ]] || { good=0; break; }
		done
		((good)) && { awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f\n", b - a }'; return 0; }
	done
	return 1
}

read -r A PA B PB < <("$RACK" links | head -n 1)
BADDR=$(addr4 "$B")
x "$B" "iperf3 -s -D -p 5301 >/dev/null && sleep 0.5" >/dev/null
# On node A, in the background: a topo monitor (its times on A's clock),
# a ping every 10 ms and an 8-s TCP connection to B. Then the cut.
x "$A" "modprobe -q sch_ingress; modprobe -q cls_matchall; modprobe -q act_gact
	rm -f /tmp/cut.*
	setsid bash -c 'r2c2ctl -j monitor timeout 10 | while IFS= read -r l; do echo \"\$EPOCHREALTIME \$l\"; done >/tmp/cut.mon' </dev/null >/dev/null 2>&1 &
	setsid ping -D -n -i 0.01 -c 800 -W 1 $BADDR </dev/null >/tmp/cut.ping 2>&1 &
	setsid bash -c 'iperf3 -c $BADDR -p 5301 -t 8 -b 2M -J >/tmp/cut.tcp 2>&1; echo \$? >/tmp/cut.tcprc' </dev/null >/dev/null 2>&1 &
	sleep 1" >/dev/null
h0=$EPOCHREALTIME
# the cut by one tc process; its times before and after (the drops begin
# in between: detection counts from after, a lower bound; the ping's
# window of losses is an upper bound of the outage)
read -r t_tc t_cut < <(x "$A" "tc qdisc add dev eth$PA clsact && t=\$EPOCHREALTIME &&
	printf '%s\n' 'filter add dev eth$PA ingress matchall action drop' \
		'filter add dev eth$PA egress matchall action drop' | tc -b - && echo \$t \$EPOCHREALTIME")
settle=$(link_everywhere 0 "$A" "$PA" "$B" "$PB" 30 "$h0")
out=$(x "$A" --timeout 30 "while [ ! -e /tmp/cut.tcprc ] || ! grep -q 'packets transmitted' /tmp/cut.ping; do sleep 0.2; done
	awk -v t=${t_tc:-0} '/\"event\":\"topo\"/ && \$1 > t { print \"topo\", \$1; exit }' /tmp/cut.mon
	echo tcp-rc \$(cat /tmp/cut.tcprc)
	grep -o '[0-9]* packets transmitted, [0-9]* received' /tmp/cut.ping
	sed -n 's/^\\[\\([0-9.]*\\)\\].*icmp_seq=\\([0-9]*\\) .*/\\2 \\1/p' /tmp/cut.ping |
		awk '{ if (NR > 1 && \$1 > ps + 1) { if (!fs) fs = pt; le = \$2 } ps = \$1; pt = \$2 }
			END { printf \"window %.0f\\n\", fs ? (le - fs) * 1000 : 0 }'
	jq -r '\"tcp-bytes \(.end.sum_received.bytes) retransmits \(.end.sum_sent.retransmits)\"' /tmp/cut.tcp 2>/dev/null
	r2c2ctl -j stats show | jq -r '\"drop_offload \([.. | .drop_offload? // empty] | add)\"'
	r2c2ctl -j daemon show | jq -r '.topology | \"rounds-on-new-tables \(.follows), last \(.follow_us_last) us, max \(.follow_us_max) us after the first topo event\"'")
info "$(tr '\n' ';' <<<"$out")"
t_topo=$(awk '$1 == "topo" { print $2 }' <<<"$out")
detect=$(awk -v a="$t_cut" -v b="$t_topo" 'BEGIN { if (a != "" && b != "") printf "%.0f", (b - a) * 1000 }')
read -r sent recv < <(sed -n 's/^\([0-9]*\) packets transmitted, \([0-9]*\) received/\1 \2/p' <<<"$out")
tcprc=$(awk '$1 == "tcp-rc" { print $2 }' <<<"$out")
window=$(awk '$1 == "window" { print $2 }' <<<"$out")
tcms=$(awk -v a="$t_tc" -v b="$t_cut" 'BEGIN { if (a != "" && b != "") printf "%.0f", (b - a) * 1000 }')
info "link cut: node $A port $PA - node $B port $PB (hello $hello ms): node $A's topo event ${detect:-?} ms" \
	"after tc returned (its clock; tc took ${tcms:-?} ms); no graph has it ${settle:-more than 30} s after the cut command (host polling);" \
	"ping every 10 ms: ${recv:-?}/${sent:-?} answered, the losses within ${window:-?} ms (from the last answer before the first loss to the first after the last);" \
	"TCP connection: exit ${tcprc:-?}"
[[ -n $t_cut && -n $detect && -n $settle && $tcprc == 0 && ${recv:-0} -gt 0 ]]
check "link cut at node $A port $PA, carrier up: detected (${detect:-?} ms), gone from every graph (${settle:-?} s), the TCP connection across it survives" test $? -eq 0
x "$A" "tc qdisc del dev eth$PA clsact" >/dev/null
back=$(link_everywhere 1 "$A" "$PA" "$B" "$PB" 60)
check "link restored: back in every graph (${back:-more than 60} s)" test -n "$back"
x "$B" "pkill -x iperf3" >/dev/null

# ---------------------------------------------------------------- one-way link
# The same link fails one way: A's port stops receiving (an ingress drop;
# carrier up, A's own frames still reach B). A stops hearing B's hellos
# and withdraws the link; B still hears A and keeps advertising it, but a
# link counts only when both ends advertise it: it must go from every
# graph while B still hears A, and A's packets to B go around it.
# hears NODE PORT NBR: NODE's port PORT heard node NBR in the last 3 hellos
hears() {
	x "$1" "r2c2ctl -j port show" 2>/dev/null | json_assert --argjson p "$2" \
		--argjson nb "$3" --argjson max $((3 * hello)) \
		'[.[] | select(.port == $p)] | nonempty | all(.neighbour.addr == $nb and .neighbour.age_ms <= $max)' >/dev/null
}
oneway_ok() {
	local gone still sent recv

	x "$A" "tc qdisc add dev eth$PA clsact &&
		tc filter add dev eth$PA ingress matchall action drop" >/dev/null ||
		{ info "one-way: the ingress drop on node $A's eth$PA failed"; return 1; }
	gone=$(link_everywhere 0 "$A" "$PA" "$B" "$PB" 30)
	hears "$B" "$PB" "$A" && still=yes
	read -r sent recv < <(x "$A" "ping -n -q -i 0.05 -c 40 -W 1 $BADDR" 2>/dev/null |
		sed -n 's/^\([0-9]*\) packets transmitted, \([0-9]*\) received.*/\1 \2/p')
	info "one-way: node $A port $PA receives nothing, node $B port $PB still hears node $A: ${still:-no};" \
		"the link gone from every graph after ${gone:-more than 30} s; then node $A pings node $B: ${recv:-?}/${sent:-?} answered"
	[[ -n $gone && $still == yes && ${sent:-0} -gt 0 && $recv == "$sent" ]]
}
check "link $A:$PA - $B:$PB fails one way (node $A hears nothing, node $B still hears node $A): gone from every graph, node $A reaches node $B around it" oneway_ok
x "$A" "tc qdisc del dev eth$PA clsact" >/dev/null
back=$(link_everywhere 1 "$A" "$PA" "$B" "$PB" 60)
[[ -n $back ]] || info "one-way: the link not back in every graph 60 s after the drop went"

# ---------------------------------------------------------------- daemon restart
D=$((N - 1))
x "$D" "iperf3 -s -D -p 5201 && iperf3 -s -D -p 5202 && sleep 0.5" >/dev/null
for s in 0 1; do
	x "$s" "{ setsid iperf3 -c $(addr4 "$D") -p 520$((s + 1)) -u -b 10M -l 1000 -t 600 >/dev/null 2>&1 & } ; sleep 0.2" >/dev/null
done
# settled: node 0's matrix holds node 1's flow into D, its own pushed at their rates
settled() {
	x 0 "r2c2ctl -j matrix show" 2>/dev/null | json_assert --argjson d "$D" '
		any(.flows[]; .src == 1 and .dst == $d) and
		all(.flows[] | select(.src == 0 and .dst == $d); .pushed > 0 and
		    ((.pushed - .rate) | fabs) <= 0.01 * .rate)' >/dev/null
}
wait_for() { local end=$((SECONDS + $1)); shift; while ((SECONDS < end)); do "$@" && return 0; sleep 1; done; return 1; }
# node 0's pushes to D, "flow:pushed" sorted
pushes() {
	x 0 "r2c2ctl -j matrix show" 2>/dev/null |
		jq -r --argjson d "$D" '[.flows[] | select(.src == 0 and .dst == $d) | "\(.flow):\(.pushed)"] | sort | join(" ")'
}
# settled, and node 0's pushes the same 2 s later: in a starved guest a
# sender stalls, its flow ends and starts again, and the rates move;
# the kill comes in a quiet moment
still_settled() {
	local a b

	settled && a=$(pushes) && sleep 2 && settled && b=$(pushes) &&
		[[ -n $a && $a == "$b" ]]
}
restart_ok() {
	local id pushed kept first last

	# A 10-s lease on node 0 for this check (2 s by default): the qdisc
	# is read after the kill by two processes, which in a starved guest
	# took longer than the 1-2 s a 2-s lease has left (it read "safe");
	# the daemon's refresh (every second) and the 2-s wait below give
	# every flow the new lease before the kill.
	x 0 "tc qdisc change dev r2c0 root r2c2 lease 10s" >/dev/null ||
		{ info "tc qdisc change dev r2c0 root r2c2 lease 10s failed"; return 1; }
	wait_for 90 still_settled || { info "node 0's daemon did not settle for 2 s: $(x 0 'r2c2ctl -j matrix show' | jq -c '[.flows[] | {src, dst, rate, pushed}]')"; return 1; }
	# The UDP flow: node 0's qdisc flow to D with the most bytes (iperf3's
	# control connection is a flow to D too). Its rate as last pushed,
	# the kill, the qdisc's rate for it, a new r2c2d, its first push of it.
	out=$(x 0 "id=\$(r2c2ctl -j qflow show dev r2c0 | jq -r '[.[] | select(.dst == $D)] | max_by(.bytes) | .flow | ltrimstr(\"0x\")')
		echo id \$id
		r2c2ctl -j matrix show | jq -r --arg id \$id '.flows[] | select(.flow == \$id) | \"pushed \(.pushed)\"'
		pkill -9 -x r2c2d
		r2c2ctl -j qflow show dev r2c0 | jq -r --arg id 0x\$id '.[] | select(.flow == \$id) | \"qdisc \(.rate) \(.state) \(.lease_ms)\"'
		setsid r2c2d -c /etc/r2c2/r2c2d.conf -v >/var/log/r2c2d-restart.log 2>&1 &
		for i in \$(seq 100); do grep -q \"push flow \$id \" /var/log/r2c2d-restart.log && break; sleep 0.1; done
		grep -m 1 \"push flow \$id \" /var/log/r2c2d-restart.log | awk '{ print \"first\", \$5 }'")
	info "$(tr '\n' ';' <<<"$out")"
	id=$(awk '$1 == "id" { print $2 }' <<<"$out")
	pushed=$(awk '$1 == "pushed" { print $2 }' <<<"$out")
	# the lease holds: the flow is still "set", with lease left; its rate
	# there is the killed daemon's last push, which the first push of the
	# new one is compared with (the matrix's "pushed", read a moment
	# before the kill, is printed beside it: a push between the two reads
	# makes it stale)
	kept=$(awk '$1 == "qdisc" && $3 == "set" && $4 > 0 { print "yes", $2 }' <<<"$out")
	last=$(awk '$1 == "qdisc" { print $2 }' <<<"$out")
	first=$(awk '$1 == "first" { print $2 }' <<<"$out")
	info "node 0's flow $id to node $D (link_capacity $CAP, shared with node 1's flow): pushed ${pushed:-?} bit/s before the kill;" \
		"the qdisc's lease held: ${kept:-no} bit/s; the new daemon's first push: ${first:-none} bit/s"
	[[ $kept == yes* ]] || return 1
	awk -v a="${first:-0}" -v b="${last:-0}" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 0.05 * b) }'
}
check "node 0's r2c2d killed (-9): the qdisc's lease holds; started again, its first push is within 5 % of the daemon's last push" restart_ok
x 0 "tc qdisc change dev r2c0 root r2c2 lease 2s" >/dev/null ||
	info "tc qdisc change dev r2c0 root r2c2 lease 2s (the default again) failed"

# ---------------------------------------------------------------- lease end
# Node 0's daemon dies while one of its flows sits at the minimum rate
# (1 kbit/s, what a demand of 0 gets: a 1,000-byte packet is due 8 s
# after the last) with packets queued: the flow must fall to safe_rate at
# the end of its lease (2 s), not when its next packet is due. Timed in
# the kernel's trace clock from the set's own sch_r2c2_rate_set event
# (after a trace_marker line) to the flow's next sch_r2c2_lease_lapse (a
# qflow dump would lapse the lease itself; the lease the dead daemon gave
# may lapse before the set, and the node's other flows lapse too). A UDP
# flow 0 -> 2 offers 2 Mbit/s until 0.3 s after the set, so that its
# packets stay queued and no later one comes to lapse the lease on its
# way in; it is started for longer than the wait for its rate can take
# (60 s), since a sender that ended before the set leaves nothing queued:
# an idle flow's lease is not checked, and it is collected 3 s later.
M=2
minrate_ok() {
	local out id ms after waited

	x "$M" "iperf3 -s -D -p 5311 && sleep 0.3" >/dev/null
	out=$(x 0 --timeout 150 "T=/sys/kernel/tracing
		[ -e \$T/trace_marker ] || mount -t tracefs nodev \$T
		setsid iperf3 -c $(addr4 "$M") -p 5311 -u -b 2M -l 1000 -t 90 </dev/null >/dev/null 2>&1 &
		# its flow once r2c2d set its rate (a restarted daemon warms up)
		for i in \$(seq 300); do
			id=\$(r2c2ctl -j qflow show dev r2c0 | jq -r '[.[] | select(.dst == $M and .state == \"set\" and .bytes > 20000)] | max_by(.bytes) | .flow // empty')
			[ -n \"\$id\" ] && break
			sleep 0.2
		done
		echo id \$id
		echo waited \$((i / 5)) s
		[ -n \"\$id\" ] || { r2c2ctl -j qflow show dev r2c0 | jq -c '[.[] | {flow, dst, state, bytes}]' | sed 's/^/qflows /'; exit 1; }
		echo 0 >\$T/tracing_on; echo >\$T/trace
		for e in sch_r2c2_rate_set sch_r2c2_lease_lapse; do
			echo 1 >\$T/events/r2c2/\$e/enable || echo trace-failed
		done
		echo 1 >\$T/tracing_on || echo trace-failed
		pkill -9 -x r2c2d
		echo r2c2-rack-set >\$T/trace_marker
		r2c2ctl rate set dev r2c0 \$id 1kbit >/dev/null || echo set-failed
		# the sender stops: packets stay queued, none is enqueued after,
		# so only the lease's own end (the qdisc's watchdog) can lapse it
		sleep 0.3
		pkill -x iperf3
		# ms from the set (its own event: the lease starts there) to the
		# flow's first lapse after it; the lease the dead daemon gave may
		# lapse before the set and does not count
		lapse() {
			awk -v id=\$id '{ for (i = 1; i <= NF; i++) if (\$i ~ /^[0-9]+\\.[0-9]+:\$/) { ts = \$i + 0; break } }
				/tracing_mark_write: r2c2-rack-set/ { m = 1 }
				m && !s && index(\$0, \"sch_r2c2_rate_set: dev=r2c0 flow=\" id \" rate=1000 \") { s = ts; next }
				s && !l && index(\$0, \"sch_r2c2_lease_lapse: dev=r2c0 flow=\" id \" \") { l = ts }
				END { printf \"%d\\n\", (s && l) ? (l - s) * 1000 : -1 }' \$T/trace
		}
		for i in \$(seq 150); do
			ms=\$(lapse)
			[ \"\$ms\" -ge 0 ] && break
			sleep 0.1
		done
		for e in sch_r2c2_rate_set sch_r2c2_lease_lapse; do
			echo 0 >\$T/events/r2c2/\$e/enable
		done
		echo lapse \$ms
		r2c2ctl -j qflow show dev r2c0 | jq -r --arg id \$id '.[] | select(.flow == \$id) | \"after \\(.state) \\(.rate)\"'
		setsid r2c2d -c /etc/r2c2/r2c2d.conf >/var/log/r2c2d-minrate.log 2>&1 </dev/null &
		true")
	x "$M" "pkill -x iperf3" >/dev/null
	id=$(awk '$1 == "id" { print $2 }' <<<"$out")
	ms=$(awk '$1 == "lapse" { print $2 }' <<<"$out")
	after=$(awk '$1 == "after" { print $2, $3 }' <<<"$out")
	waited=$(awk '$1 == "waited" { print $2 }' <<<"$out")
	[[ -n $id ]] || info "lease end: no flow to node $M set by r2c2d within 60 s: $(grep '^qflows ' <<<"$out")"
	info "lease end: node 0's flow ${id:-?} to node $M set by r2c2d after ${waited:-?} s, then to 1 kbit/s, its daemon killed: lapsed ${ms:-?} ms after the set (lease 2 s; -1: not within 15 s);" \
		"then the flow is ${after:-?} (state, bit/s)$(grep -qE 'set-failed|trace-failed' <<<"$out" && echo "; failed: $(grep -oE 'set-failed|trace-failed' <<<"$out" | tr '\n' ' ')")"
	[[ -n $id && -n $ms ]] && ((ms >= 1900 && ms <= 3500)) && [[ $after == safe* ]] &&
		! grep -qE 'set-failed|trace-failed' <<<"$out"
}
check "node 0's r2c2d killed while a flow sits at 1 kbit/s with packets queued: the flow falls to safe_rate at its lease end (2 s)" minrate_ok

# ---------------------------------------------------------------- keyless forger
# Every node holds the rack key; node B, on the link A:PA - B:PB, turns
# forger: it sends unsigned frames out of its eth$PB with a packet
# socket, as a neighbour without the key would. While the victim V (the
# last node) sends three flow events, BCAST_ETH frames (ARP requests)
# in V's name one after another (20 ms apart, and as fast as the guest
# starts r2c2_ctlflood: 15 in ~5 s in a loaded rack), each one ahead of
# the last, from 256 ahead of V's broadcast sequence on (read from a
# FLOW frame V sent just before). Unauthenticated, and sharing the duplicate window with FLOW
# and ROUTES, such frames once made V's events look old at A and below
# it: each moved V's window ahead again, and a frame far behind the
# window is taken for a restarted source only after 1 s without a new
# one (R2C2_DUP_RESET). A burst of forgeries before each event, and
# none during it, would leave the window idle for longer than that
# under TCG. Spread over the whole sequence space, they would also
# carry the window's top round to wherever the last one ended. Then
# 10,000 frames of a mutation fuzzer seeded with this link's keyed
# traffic (2,000 a second: unpaced, the virtio links lost a third), and
# three more events of V. Every frame must be refused at A's port
# (drop_auth, or drop_replay for unmutated seeds), every node other than
# V must hear all six events, and the rack must stay whole.
RACK_KEY=00112233445566778899aabbccddeeff
V=$((N - 1))
# knows N WANT: node N's graph has WANT nodes
knows() { [[ $(x "$1" "r2c2ctl -j node show" 2>/dev/null | jq -r .nodes 2>/dev/null) == "$2" ]]; }
# whole: every node knows the whole rack
whole() {
	local m

	for ((m = 0; m < N; m++)); do knows "$m" "$N" || return 1; done
}
# port_ctr NODE PORT NAME: a counter of NODE's port PORT
port_ctr() {
	x "$1" "r2c2ctl -j -s port show" 2>/dev/null |
		jq -r --argjson p "$2" --arg c "$3" '.[] | select(.port == $p) | .stats[$c] // 0'
}
forger_ok() {
	local m mac da0 dr0 da dr heard bad=0 out t pred want vseq nforged

	out=$("$RACK" each "r2c2ctl key set 1 $RACK_KEY && echo keyed")
	[[ $(grep -c ': keyed$' <<<"$out") == "$N" ]] || { info "forger: key set: $out"; return 1; }
	wait_for 60 whole || { info "forger: the keyed rack is not whole after 60 s"; return 1; }
	mac=$(x "$A" "cat /sys/class/net/eth$PA/address")
	# seeds: this link's traffic, keyed (hellos, LSAs, broadcasts)
	x "$B" "timeout 4 tcpdump -i eth$PB -w /tmp/forge.pcap ether proto 0x88b5 >/dev/null 2>&1; true" >/dev/null
	# V's broadcast sequence: a FLOW frame of V's own, captured as it
	# leaves V (by whichever ports its tree of the moment takes)
	vseq=$(x "$V" "for d in /sys/class/net/eth*; do d=\${d##*/}
			timeout 20 tcpdump -i \$d -Q out -c 1 -w /tmp/vseq.\$d.pcap \
				'ether proto 0x88b5 and ether[14] = 0x15 and ether[16:2] = $V' >/dev/null 2>&1 &
		done
		sleep 2; r2c2ctl event send flow $((0x5a5a0000)) dst 0 >/dev/null; sleep 2
		pkill -x tcpdump; wait
		for f in /tmp/vseq.*.pcap; do /repo/selftests/tools/r2c2_replay -s \$f -l; done" 2>/dev/null |
		jq -Rr 'fromjson? | select(.bcast_seq >= 0) | .bcast_seq' 2>/dev/null | head -n 1)
	[[ $vseq =~ ^[0-9]+$ ]] || { info "forger: no FLOW frame of node $V captured leaving it (bcast_seq '$vseq')"; vseq=0; bad=1; }
	da0=$(port_ctr "$A" "$PA" drop_auth)
	dr0=$(port_ctr "$A" "$PA" drop_replay)
	# monitors on every node but V
	for ((m = 0; m < N; m++)); do
		((m == V)) && continue
		x "$m" "rm -f /tmp/forge.mon; setsid sh -c 'r2c2ctl -j monitor timeout 300 >/tmp/forge.mon 2>&1' </dev/null >/dev/null 2>&1 &
			sleep 1" >/dev/null
	done
	# B forges ARP requests in V's name, 20 ms apart, each one ahead of
	# the last (from 256 ahead of V's sequence on), for as long as V
	# sends its first three events: where such frames count, each moves
	# V's window ahead again and V's events, far behind it and never 1 s
	# after the last forgery, are taken for duplicates
	x "$B" "rm -f /tmp/forge.stop /tmp/forge.n; setsid sh -c 'k=0
		while [ ! -e /tmp/forge.stop ] && [ \$k -lt 3000 ]; do
			/repo/selftests/tools/r2c2_ctlflood -i eth$PB -m $mac arp $V \$(( ($vseq + 256 + k) % 65536 )) \
				$(addr4 "$V") 02:52:32:43:00:$(printf %02x "$V") $(addr4 0) || echo forge-failed >>/tmp/forge.err
			k=\$((k + 1)); sleep 0.02
		done; echo \$k >/tmp/forge.n' </dev/null >/dev/null 2>&1 &" >/dev/null
	x "$V" "sleep 2; for r in 1 2 3; do r2c2ctl event send flow \$((0x5a5a0000 + r)) dst 0 || exit 1; sleep 1; done" >/dev/null || bad=1
	x "$B" "touch /tmp/forge.stop; for i in \$(seq 50); do [ -e /tmp/forge.n ] && break; sleep 0.2; done" >/dev/null
	nforged=$(x "$B" "cat /tmp/forge.n" 2>/dev/null | tr -dc 0-9)
	if [[ -z $nforged || $nforged == 0 ]]; then
		info "forger: the forging loop on node $B did not finish"
		nforged=0 bad=1
	fi
	out=$(x "$B" "cat /tmp/forge.err 2>/dev/null")
	out+=$'\n'$(x "$B" --timeout 200 "/repo/selftests/tools/r2c2_fuzz -i eth$PB -m $mac -s /tmp/forge.pcap -K -A $A -S 7 -n 10000 -r 2000 >/tmp/fuzz.out 2>&1 || echo fuzz-failed; tail -n 2 /tmp/fuzz.out")
	for r in 4 5 6; do
		x "$V" "r2c2ctl event send flow $((0x5a5a0000 + r)) dst 0" >/dev/null || bad=1
	done
	sleep 2
	heard=
	for ((m = 0; m < N; m++)); do
		((m == V)) && continue
		# V's STARTs only: V's r2c2d takes the flows it hears it
		# announced for its own until its next look at the qdisc,
		# and may send a REFRESH of one meanwhile
		t=$(x "$m" "cat /tmp/forge.mon" | jq -r --argjson v "$V" \
			'select(.event == "flow" and .type == "start" and .src == $v) | .flow' 2>/dev/null |
			grep -c '^0x5a5a000[1-6]$')
		heard+="node $m ${t:-0}/6, "
		[[ $t == 6 ]] || bad=1
	done
	da=$(( $(port_ctr "$A" "$PA" drop_auth) - da0 ))
	dr=$(( $(port_ctr "$A" "$PA" drop_replay) - dr0 ))
	whole || { info "forger: the rack is not whole after the forgeries"; bad=1; }
	# what the fuzzer predicts is refused for want of the key (its
	# frames mutated into data frames are not); the virtio links may
	# lose a few frames under load
	pred=$(grep '^{"seed"' <<<"$out" | jq '.predict.auth + .predict.replay' 2>/dev/null)
	want=$((nforged + ${pred:-0}))
	info "forger: node $B forged $nforged BCAST_ETH frames in node $V's name (from 256 ahead of its sequence $vseq on, while node $V sent 3 flow events) and sent 10,000 fuzzed frames" \
		"(${pred:-?} predicted drop_auth or drop_replay) to node $A's port $PA: there drop_auth +$da, drop_replay +$dr" \
		"(want $want, 2 % may be lost on the way); node $V's 6 flow events heard by ${heard%, }$(grep -oE 'forge-failed|fuzz-failed' <<<"$out" | sort -u | tr '\n' ' ' | sed 's/^./; &/')"
	grep -qE 'forge-failed|fuzz-failed' <<<"$out" && bad=1
	[[ -n $pred ]] && ((da + dr <= want && (da + dr) * 100 >= want * 98)) || bad=1
	out=$("$RACK" each "r2c2ctl key del && echo unkeyed")
	[[ $(grep -c ': unkeyed$' <<<"$out") == "$N" ]] || { info "forger: key del: $out"; bad=1; }
	# the checks after this one start from a whole rack without a key
	wait_for 60 whole
	return $bad
}
check "keyed rack, keyless forger at node $A port $PA: its forged broadcasts and fuzzed frames refused, node $V's flow events heard by every node" forger_ok

if ((quick)); then
	echo "# rack-check: $((n - fails)) passed, $fails failed"
	((fails == 0)); exit
fi

# ---------------------------------------------------------------- node crash
# all_know WANT S K: nodes 0..K-1 know WANT nodes within S s
all_know() {
	local want=$1 end=$((SECONDS + $2)) a good

	while ((SECONDS < end)); do
		good=1
		for ((a = 0; a < $3; a++)); do knows "$a" "$want" || { good=0; break; }; done
		((good)) && return 0
		sleep 1
	done
	return 1
}
# ---------------------------------------------------------------- module reload
# Node 1 (its flow to node D running, and a ping to D) unloads both
# modules and loads them again by r2c2-node down / up; its r2c2d is not
# restarted and must push the new qdisc's flows their rates again.
reload_ok() {
	local out pid0 pid1

	pid0=$(x 1 "pgrep -x r2c2d")
	x 1 "{ setsid ping -n -i 0.05 $(addr4 "$D") >/dev/null 2>&1 & } ; sleep 0.5" >/dev/null
	out=$(x 1 --timeout 120 "t0=\$EPOCHREALTIME
		r2c2-node -c /etc/r2c2/r2c2.conf down >/dev/null 2>&1
		for i in \$(seq 50); do modprobe -r sch_r2c2 r2c2 2>/dev/null && break; sleep 0.1; done
		[ ! -e /sys/module/r2c2 ] || { echo r2c2 still loaded; exit 1; }
		r2c2-node -c /etc/r2c2/r2c2.conf up >/dev/null || { echo r2c2-node up failed; exit 1; }
		for i in \$(seq 150); do
			r2c2ctl -j qflow show dev r2c0 2>/dev/null | jq 'any(.[]; .dst == $D and .state == \"set\")' | grep -qx true && break
			sleep 0.2
		done
		awk -v a=\$t0 -v b=\$EPOCHREALTIME 'BEGIN { printf \"rates-after %.1f\\n\", b - a }'
		r2c2ctl -j daemon show | jq -c '.kernel'
		r2c2ctl -j qflow show dev r2c0 | jq -c '[.[] | select(.dst == $D) | {rate, state}]'")
	pid1=$(x 1 "pgrep -x r2c2d")
	info "node 1 reloaded its modules: $(tr '\n' ' ' <<<"$out")(r2c2d pid $pid0 -> $pid1)"
	[[ -n $pid0 && $pid0 == "$pid1" ]] || return 1
	json_assert -s '.[0].returns >= 1 and .[0].family == "up" and any(.[1][]; .state == "set")' \
		<(sed -n 2,3p <<<"$out") >/dev/null || return 1
	all_know "$N" 60 "$N"
}
check "node 1 unloads and loads r2c2 and sch_r2c2 under traffic: its r2c2d, not restarted, pushes rates again, the rack is whole" reload_ok

# ---------------------------------------------------------------- lossy control plane
# Every node starts a 2-s UDP flow to the next node each 3 s, for 20 s
# with netem loss LOSS % on every port of every node, then loss and
# flows stop: the time until the daemons' matrices are identical. The
# qdiscs' idle is 300 ms meanwhile, so that the flows' end does not
# wait 3 s (their default) and the time measures lost events only. Run
# with the daemons' digests, then again with digest_ms = 0 (SIGHUP).
LOSS=${R2C2_RACK_LOSS:-5}
# matrices: how many distinct matrices the nodes hold (flows as src:id)
matrices() {
	local a
	for ((a = 0; a < N; a++)); do
		# a node that does not answer is a matrix of its own
		x "$a" "r2c2ctl -j matrix show | jq -c '[.flows[] | \"\(.src):\(.flow)\"] | sort'" | grep '^\[' ||
			echo "no answer from node $a"
	done | sort -u | wc -l
}
# digests: the rack's digest counters, summed
digests() {
	local a
	for ((a = 0; a < N; a++)); do
		x "$a" "r2c2ctl -j daemon show | jq -c .digest"
	done | jq -s -c '{asked: (map(.asked) | add), answered: (map(.answered) | add), removed: (map(.removed) | add)}'
}
# Each node also times its own matrix, on its own clock: the node notes
# when its loss stopped (its netem removed: /proc/uptime, which is
# CLOCK_MONOTONIC in a guest that never sleeps), and its daemon when its
# matrix last changed (daemon show's matrix_changed_ns); the difference,
# in ms, is the node's settle time. Host polling (one poll asks every
# daemon in turn, about a second each under TCG) only bounds it.
# settle_times: the nodes' settle times, "max ms (nodes: a b c d)"
settle_times() {
	"$RACK" each "r2c2ctl -j daemon show | jq -r --argjson s \$(cat /tmp/loss.stop) \
		'(.matrix_changed_ns / 1e9) - \$s | if . > 0 then . * 1000 | floor else 0 end'" 2>/dev/null |
		sed -E 's/^[^0-9]*[0-9]+: //' | grep -E '^[0-9]+$' | sort -n |
		awk '{ v[NR] = $1 } END { s = v[NR] " ms (nodes:"; for (i = 1; i <= NR; i++) s = s " " v[i]; print s ")" }'
}
# loss_round: prints the seconds until the matrices are identical (host
# polling), then the nodes' settle times
loss_round() {
	local a t0 el u

	for ((a = 0; a < N; a++)); do
		x "$a" "iperf3 -s -D -p 5400 >/dev/null; { setsid bash -c 'echo \$\$ >/tmp/loop.pid
			while :; do iperf3 -c $(addr4 $(((a + 1) % N))) -p 5400 -u -b 500k -t 2 >/dev/null 2>&1; sleep 1; done' \
			</dev/null >/dev/null 2>&1 & }; true" >/dev/null
	done
	"$RACK" each "for d in /sys/class/net/eth*; do tc qdisc add dev \${d##*/} root netem loss $LOSS% || exit 1; done" >/dev/null ||
		{ info "netem loss $LOSS% could not be set" >&2; return 1; }
	sleep 20
	"$RACK" each "kill \$(cat /tmp/loop.pid); pkill -x iperf3; for d in /sys/class/net/eth*; do tc qdisc del dev \${d##*/} root; done
		read -r u _ </proc/uptime; echo \$u >/tmp/loss.stop" >/dev/null
	t0=$EPOCHREALTIME
	while :; do
		u=$(matrices)
		el=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
		[[ $u == 1 ]] && break
		awk -v e="$el" 'BEGIN { exit !(e > 120) }' && { info "matrices still differ 120 s after the loss stopped" >&2; return 1; }
	done
	echo "$el s by host polling; by each node's clock, its matrix's last change after its loss stopped: $(settle_times)"
}
digest_ms() {
	"$RACK" each "sed -i '/^digest_ms/d' /etc/r2c2/r2c2d.conf && echo 'digest_ms = $1' >>/etc/r2c2/r2c2d.conf && pkill -HUP -x r2c2d" >/dev/null
}
loss_ok() {
	local with without

	"$RACK" each "tc qdisc change dev r2c0 root r2c2 idle 300ms" >/dev/null ||
		{ info "tc qdisc change ... idle 300ms failed"; return 1; }
	with=$(loss_round) || return 1
	info "$LOSS % loss on every port for 20 s of flows starting and stopping: matrices identical $with; digests: $(digests)"
	digest_ms 0
	without=$(loss_round) || without="more than 120 s"
	info "the same with digest_ms = 0: $without"
	digest_ms 250
	"$RACK" each "tc qdisc change dev r2c0 root r2c2 idle 3s" >/dev/null
}
check "control plane with $LOSS % loss on every port: the matrices are identical again once it stops" loss_ok

last=$((N - 1))
# gone A: "g" when node A's graph, as it answered, has no link to node
# $last, "m" when its matrix, as it answered, holds no flow of $last;
# nothing for a node that did not answer
gone() {
	json_assert --argjson l "$last" 'all(.[]; .addr == $l or all(.links[]; .neighbour != $l))' \
		< <(x "$1" "r2c2ctl -j topo show" 2>/dev/null) >/dev/null && printf g
	json_assert --argjson l "$last" 'all(.flows[]; .src != $l)' \
		< <(x "$1" "r2c2ctl -j matrix show" 2>/dev/null) >/dev/null && printf m
}
x 0 "iperf3 -s -D -p 5203" >/dev/null
x "$last" "{ setsid iperf3 -c 10.42.0.0 -p 5203 -u -b 1M -l 1000 -t 600 >/dev/null 2>&1 & } ; sleep 0.2" >/dev/null
# in_matrices: every other node's matrix, as it answered, holds $last's flow
in_matrices() {
	local a

	for ((a = 0; a < N - 1; a++)); do
		x "$a" "r2c2ctl -j matrix show" 2>/dev/null |
			json_assert --argjson l "$last" 'any(.flows[]; .src == $l)' >/dev/null || return 1
	done
}
# the flow must be everywhere first: else its leaving proves nothing
inm=0
wait_for 30 in_matrices && inm=1 || info "node $last's flow did not reach every matrix"
t0=$EPOCHREALTIME tg='' tm=''
"$RACK" kill "$last"
end=$((SECONDS + 60))
while ((SECONDS < end)) && [[ -z $tg || -z $tm ]]; do
	g=1 m=1
	for ((a = 0; a < N - 1; a++)); do
		r=$(gone "$a")
		[[ $r == *g* ]] || g=0
		[[ $r == *m* ]] || m=0
	done
	now=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	((g)) && [[ -z $tg ]] && tg=$now
	((m)) && [[ -z $tm ]] && tm=$now
done
tn=''
all_know $((N - 1)) 60 $((N - 1)) && tn=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
info "node $last killed: no survivor's graph has a link to it after ${tg:-?} s, its flow left every matrix after ${tm:-?} s," \
	"node show stops counting it after ${tn:-?} s (its LSA ages out), all from the kill (host polling)"
if ((inm)) && [[ -n $tg && -n $tm && -n $tn ]]; then
	ok "node $last crashed: it leaves every survivor's graph (${tg} s) and its flow every matrix (${tm} s)"
else
	fail "node $last crashed: its flow $( ((inm)) && echo "was" || echo "was not") in every matrix before; links ${tg:-kept}, flows ${tm:-kept}, node count ${tn:-kept} after 60 s"
	"$RACK" each "r2c2ctl node show; r2c2ctl -j matrix show | jq -c '[.flows[].src]'" | sed 's/^/# /'
fi
t0=$SECONDS
if "$RACK" boot "$last" 2>&1 | sed 's/^/# /' && all_know "$N" 120 "$N"; then
	ok "node $last booted again: the rack is whole within $((SECONDS - t0)) s, no restart elsewhere"
else
	fail "node $last booted again: the rack is not whole after 120 s"
	"$RACK" each "r2c2ctl node show" | sed 's/^/# /'
fi
echo "# rack-check: $((n - fails)) passed, $fails failed"
((fails == 0))
