#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# lifecycle_test.sh - an r2c2 torus under change: a running flow switched
# between routing protocols, a port detached and re-attached, a veth in
# use deleted, and the module unloaded under traffic and loaded again.
#
#	  6 ---- 7 ---- 8 --      3x3 torus (torus.sh): id = x + 3y,
#	  |      |      |         p0/p1 along x (+/-), p2/p3 along y.
#	  3 ---- 4 ---- 5 --      Flow: node 0 -> node 4, DOR path
#	  |     [D]     |         0 -p0-> 1 -p2-> 4; RPS also 0 -p2-> 3 -p0-> 4.
#	 [S] --- 1 ---- 2 --      Port 0 of node 4 (to 5) is detached and
#	  |      |      |         re-attached; the veth 1 p2 -- 4 p3 is
#	                          deleted while the flow runs over it.
#
# 1. One UDP socket on node 0 (one flow) sends bursts to node 4. `flow
#    set ID routing dor|rps` between bursts moves the flow: DOR bursts
#    load exactly the links of the DOR path, RPS bursts both minimal
#    paths, about half each (5 sigma).
# 2. `port del 0` on node 4: every node's graph loses the two directed
#    links (34 left, topology_ok false) and all pairs still ping; `port
#    add` brings the torus back.
# 3. The veth 1:p2 -- 4:p3 is deleted during a burst that uses it: both
#    ports go away, the graph loses the link, DOR from 0 to 4 then takes
#    0 -p2-> 3 -p0-> 4 and all pairs ping. A new veth, re-attached,
#    restores the torus.
# 4. `rmmod r2c2` (after sch_r2c2, which depends on it) while iperf3 and
#    ping run and node 0 broadcasts flow events that listeners on nodes 4
#    and 8 hear (notifications stop before the netlink family goes,
#    events.c): it returns, the module and every r2c0 are gone, nothing
#    warns; r2c2 loads again and two of the old namespaces form a node
#    pair that pings.

# shellcheck disable=SC2317  # functions called through wait_until
lib_dir=$(dirname "$0")
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"
# shellcheck source=selftests/torus.sh
source "$lib_dir/torus.sh"
# shellcheck source=selftests/fabric.sh
source "$lib_dir/fabric.sh"

require_root
require_cmd ip jq iperf3 ping
require_module veth
require_r2c2
require_tools r2c2_snap r2c2_pingall
ksft_plan 10

S=0
D=4
FAKE=10.42.200.4		# no node's address: node 4 drops the datagrams
BURST=300
SENDER_PID=
BG_PIDS=()

# ---------------------------------------------------------------- sender
# One bash in node S's namespace with one UDP socket: every number
# written to its FIFO is a paced burst of that many datagrams; it appends
# "done N" to $FABRIC_TMP/sent after each. Every 16 datagrams it waits
# 2 ms on its pacing FIFO (nobody writes to it), then ends the burst if
# $FABRIC_TMP/stop exists. A file, not a word on the FIFO: bash reads a
# pipe a byte at a time, and a slow guest (the debug kernel beside
# another) can let the 2-ms timeout cut "stop" in two: the burst ran on.
sender_start()
{
	ip -n "$(torus_ns "$S")" neigh replace "$FAKE" dev r2c0 nud permanent \
		lladdr "$(r2c2_mac "$D")" || return 1
	mkfifo "$FABRIC_TMP/cmd" "$FABRIC_TMP/pace2" || return 1
	: >"$FABRIC_TMP/sent"
	: >"$FABRIC_TMP/asked"
	exec 7<>"$FABRIC_TMP/cmd"
	# not through a function, so that $! is the sender itself; its
	# output goes to a file, or it would hold run.sh's pipe open
	# shellcheck disable=SC2016  # expanded by the inner bash
	ip netns exec "$(torus_ns "$S")" bash -c '
		exec 3>"/dev/udp/$1/9" || exit 1
		exec 4<>"$3"
		while read -r n; do
			# a stop that came after the last burst ended
			rm -f "$4"
			for ((i = 1; i <= n; i++)); do
				printf x >&3
				((i % 16)) && continue
				read -r -t 0.002 -u 4
				[[ ! -e $4 ]] || break
			done
			echo "done $n" >>"$2"
		done' _ "$FAKE" "$FABRIC_TMP/sent" "$FABRIC_TMP/pace2" "$FABRIC_TMP/stop" <&7 \
		>"$FABRIC_TMP/sender.log" 2>&1 &
	SENDER_PID=$!
}

sender_stop()
{
	[[ -n $SENDER_PID ]] || return 0
	stop_pids "$SENDER_PID"
	SENDER_PID=
	exec 7>&-
}
cleanup_add sender_stop

# every burst asked for has been sent. Counted in files, not a variable:
# measure runs in a command substitution, whose increments the caller
# never saw (its bursts_done waits passed at once).
bursts_done() { (($(grep -c '^done' "$FABRIC_TMP/sent") >= $(wc -l <"$FABRIC_TMP/asked"))); }


# send_burst N: ask the sender for a paced burst of N datagrams
send_burst() { echo "$1" >>"$FABRIC_TMP/asked" && echo "$1" >&7; }

# burst_stop: end the running burst early (see sender_start)
burst_stop() { : >"$FABRIC_TMP/stop"; }

# burst N: send N datagrams and wait until the sender has sent them
burst()
{
	send_burst "$1" || return 1
	wait_until 60 bursts_done
}

# the sender's flow: "ID ROUTING PACKETS" of the flow to D in S's table
flow_of_s()
{
	torus_exec "$S" r2c2ctl -j flow show |
		jq -r --argjson d "$D" 'map(select(.dst == $d))[0] | "\(.flow) \(.routing) \(.packets)"'
}

# ---------------------------------------------------------------- counters
mapfile -t NSS < <(for id in 0 1 2 3 4 5 6 7 8; do echo "r2c2-$id"; done)

# link counts "NODE:PORT=COUNT" (forwarded + originated) of a snapshot
# taken once D delivered $1 frames since the last reset
delivered_ok()
{
	snap "$FABRIC_TMP/snap" -p "${NSS[@]}" &&
	[[ $(jq -s --argjson d "$D" 'map(select(.addr == $d))[0].node.delivered' \
		"$FABRIC_TMP/snap") -ge $1 ]]
}

link_counts()
{
	# A link with fewer than 10 frames did not carry the burst: stray
	# frames of other traffic (a late ping reply, IPv6 ND/MLD) were seen
	# there once (7:0=1 8:1=1 after the veth loss).
	jq -s -r 'map(.addr as $a | .ports[]
		| select(.stats.forwarded + .stats.originated >= 10)
		| "\($a):\(.port)=\(.stats.forwarded + .stats.originated)") | join(" ")' \
		"$FABRIC_TMP/snap"
}

# dor_ok COUNTS N L1 L2: the burst of N took exactly links L1 and L2:
# those two carried N to N + 5 frames (a few frames of other traffic, e.g.
# an ARP probe, may share them) and no other link carried 10 or more.
dor_ok()
{
	local counts=$1 n=$2 l1=$3 l2=$4 kv k v seen=0

	for kv in $counts; do
		k=${kv%%=*} v=${kv#*=}
		[[ $k == "$l1" || $k == "$l2" ]] || return 1
		((v >= n && v <= n + 5)) || return 1
		seen=$((seen + 1))
	done
	((seen == 2))
}

# measure N [PROTO]: (flow set PROTO,) reset, burst of N, wait for D;
# prints the link counts. A sender flow idle for 10 s is forgotten with
# its routing (soft state, like the allocator's flow table), so the
# protocol is set again right before the burst.
measure()
{
	if [[ -n ${2:-} ]]; then
		torus_exec "$S" r2c2ctl flow set "$FLOW" routing "$2" || return 1
	fi
	snap_reset "${NSS[@]}" || return 1
	burst "$1" || { echo "burst not sent"; return 1; }
	wait_until 30 delivered_ok "$1" || {
		echo "node $D delivered $(jq -s --argjson d "$D" 'map(select(.addr == $d))[0].node.delivered' "$FABRIC_TMP/snap") of $1"
		return 1
	}
	# the snapshot that saw D's count read the earlier nodes before the
	# burst had left them all (seen: 0:0=289 with 300 delivered); now
	# that everything arrived, read every node again
	snap "$FABRIC_TMP/snap" -p "${NSS[@]}" || return 1
	link_counts
}

# torus_links L OK: every node's graph has L directed links and
# topology_ok OK (true/false), 9 nodes
torus_links()
{
	snap "$FABRIC_TMP/g" "${NSS[@]}" 2>/dev/null &&
	[[ $(jq -s --argjson l "$1" --argjson ok "$2" \
		'map(select(.nodes == 9 and .links == $l and .topology_ok == $ok)) | length' \
		"$FABRIC_TMP/g") == 9 ]]
}

graph_state()
{
	jq -s -c 'map({(.ns): "\(.nodes)/\(.links)/\(.topology_ok)"}) | add' "$FABRIC_TMP/g" 2>&1
}

all_pairs_ok()
{
	local fails

	fails=$(torus_all_pairs 4)
	check_err $? "no IPv4 reply for: $(head -n 10 <<<"$fails" | tr '\n' ' ')"
}

stop_bg()
{
	((${#BG_PIDS[@]} == 0)) || stop_pids "${BG_PIDS[@]}"
	BG_PIDS=()
}
cleanup_add stop_bg

# ---------------------------------------------------------------- setup
lap
RET=0
torus_create 3 3
check_err $? "torus_create 3 3"
torus_wait_ready 90
check_err $? "the torus did not converge"
sender_start
check_err $? "could not start the sender"
log_test_or_exit "setup: 3x3 torus, a UDP sender on node $S"
lap setup

# ---------------------------------------------------------------- 1. flow set
RET=0
burst 10
check_err $? "first burst not sent"
read -r FLOW routing _ <<<"$(flow_of_s)"
[[ $FLOW == 0x* && $routing == rps ]]
check_err $? "node $S has no RPS flow to node $D: $FLOW $routing"
log_test "the flow to node $D appears in node $S's flow table ($FLOW, rps)"

RET=0
if [[ $FLOW == 0x* ]]; then
	for proto in dor rps dor; do
		torus_exec "$S" r2c2ctl flow set "$FLOW" routing "$proto"
		check_err $? "flow set $FLOW routing $proto failed"
		# by its id: idle since the last burst longer than R2C2_FLOW_IDLE
		# (10 s; a debug guest's measure takes that long), the flow was
		# forgotten, and flow set made it again with no destination
		# until its next packet
		routing=$(torus_exec "$S" r2c2ctl -j flow show |
			jq -r --arg f "$FLOW" 'map(select(.flow == $f))[0].routing')
		[[ $routing == "$proto" ]]
		check_err $? "flow show says $routing after flow set $proto"
		counts=$(measure "$BURST")
		check_err $? "$counts"
		case $proto in
		dor)
			dor_ok "$counts" "$BURST" 0:0 1:2
			check_err $? "DOR burst: links $counts, expected 0:0=$BURST 1:2=$BURST" ;;
		rps)
			# two paths, 1/2 each: |c - N/2| <= 5 sqrt(N/4) + 1
			tol=$(awk -v n="$BURST" 'BEGIN { printf "%d", 5 * sqrt(n / 4) + 1 }')
			ok=$(awk -v c="$counts" -v n="$BURST" -v t="$tol" 'BEGIN {
				m = split(c, l, " "); tot = 0; bad = 0
				for (i = 1; i <= m; i++) {
					split(l[i], kv, "="); v[kv[1]] = kv[2]; tot += kv[2]
				}
				if (m != 4 || tot < 2 * n || tot > 2 * n + 10) bad = 1
				e = v["0:0"] - v["1:2"]; f = v["0:2"] - v["3:0"]
				if (e < -5 || e > 5 || f < -5 || f > 5) bad = 1
				d = v["0:0"] - n / 2; if (d < 0) d = -d
				if (d > t) bad = 1
				print bad ? "no" : "yes" }')
			[[ $ok == yes ]]
			check_err $? "RPS burst: links $counts, expected 0:0 = 1:2 and 0:2 = 3:0, $((BURST / 2)) +- $tol each" ;;
		esac
		log_info "after flow set $proto: $counts"
	done
	# the last count can take longer than R2C2_FLOW_IDLE too (a debug
	# guest beside other guests: the flow was gone, [0,false]): a few
	# packets more, so that the table is read while the flow is live
	burst 10
	check_err $? "a burst of 10 before reading node $S's flows not sent"
	n=$(torus_exec "$S" r2c2ctl -j flow show | jq --argjson d "$D" --arg f "$FLOW" \
		'map(select(.dst == $d)) | [length, (map(.flow) == [$f])]' -c)
	[[ $n == "[1,true]" ]]
	check_err $? "node $S's flows to node $D: $n, not one with id $FLOW"
else
	check_err 1 "node $S has no flow to node $D to move (flow show: '$FLOW')"
fi
log_test "flow set moves the running flow: dor -> rps -> dor, seen on the links"
lap "flow set"

# ---------------------------------------------------------------- 2. port del/add
RET=0
torus_exec 4 r2c2ctl port del 0
check_err $? "port del 0 on node 4"
wait_until 30 torus_links 34 false
check_err $? "graphs after port del: $(graph_state)"
[[ -z $(torus_exec 4 r2c2ctl -j port show | jq '.[] | select(.port == 0)') ]]
check_err $? "node 4 still lists port 0"
all_pairs_ok
log_test "port del: every node drops the link (34 links, topology_ok false), all pairs ping"

RET=0
torus_exec 4 r2c2ctl port add 0 dev p0
check_err $? "port add 0 dev p0 on node 4"
wait_until 30 torus_links 36 true
check_err $? "graphs after port add: $(graph_state)"
nbr=$(torus_exec 4 r2c2ctl -j neigh show | jq -r '.[] | select(.port == 0) | "\(.addr):\(.neighbour_port)"')
[[ $nbr == 5:1 ]]
check_err $? "node 4 port 0 neighbour $nbr, not 5:1"
log_test "port add: the torus is whole again (36 links, topology_ok), 4:p0 hears 5:p1"
lap "port del/add"

# ---------------------------------------------------------------- 3. veth deleted in use
# The delete must fall inside the burst: it waits until node 1's p2 has
# carried part of it (not a fixed time, which a slow guest outlasts or
# a fast one never reaches), and the sender must not have finished by
# the time the veth is gone.
RET=0
torus_exec "$S" r2c2ctl flow set "$FLOW" routing dor
check_err $? "flow set $FLOW routing dor"
snap_reset r2c2-1
# p2_busy N: node 1's p2 (to node 4) forwarded N or more frames
p2_busy()
{
	snap "$FABRIC_TMP/p2" -p r2c2-1 &&
	(($(jq '[.ports[] | select(.port == 2) | .stats.forwarded] | add // 0' "$FABRIC_TMP/p2") >= $1))
}
send_burst 20000		# a long DOR burst over 1:p2 -> 4:p3
wait_until 30 p2_busy 200
check_err $? "the burst did not reach node 1's p2"
ip -n r2c2-1 link del p2
check_err $? "ip link del p2 in node 1"
bursts_done
check_fail $? "the burst had ended before the veth was deleted: the delete did not overlap it"
log_info "veth deleted after node 1's p2 forwarded $(jq '[.ports[] | select(.port == 2) | .stats.forwarded] | add' "$FABRIC_TMP/p2") frames of a burst of 20000"
# the rest of the burst proves nothing more (and takes a minute on the
# debug kernel)
burst_stop
wait_until 60 bursts_done
check_err $? "the burst did not end"
wait_until 30 torus_links 34 false
check_err $? "graphs after the veth went: $(graph_state)"
ports1=$(torus_exec 1 r2c2ctl -j port show | jq -c 'map(.port)')
ports4=$(torus_exec 4 r2c2ctl -j port show | jq -c 'map(.port)')
[[ $ports1 == "[0,1,3]" && $ports4 == "[0,1,2]" ]]
check_err $? "ports left: node 1 $ports1 (want [0,1,3]), node 4 $ports4 (want [0,1,2])"
counts=$(measure "$BURST" dor)
check_err $? "$counts"
dor_ok "$counts" "$BURST" 0:2 3:0
check_err $? "DOR after the loss of 1-4: links $counts, expected 0:2=$BURST 3:0=$BURST"
all_pairs_ok
log_test "a veth in use deleted: both ports detached, DOR goes round, all pairs ping"

RET=0
ip link add p2 netns r2c2-1 type veth peer name p3 netns r2c2-4 &&
ip -n r2c2-1 link set p2 up && ip -n r2c2-4 link set p3 up
check_err $? "could not re-create the veth"
torus_exec 1 r2c2ctl port add 2 dev p2 && torus_exec 4 r2c2ctl port add 3 dev p3
check_err $? "port add on the new veth"
wait_until 30 torus_links 36 true
check_err $? "graphs after re-adding: $(graph_state)"
counts=$(measure "$BURST" dor)
check_err $? "$counts"
dor_ok "$counts" "$BURST" 0:0 1:2
check_err $? "DOR on the new veth: links $counts, expected 0:0=$BURST 1:2=$BURST"
log_test "a new veth attached as the same ports: torus whole, DOR back on 0 -> 1 -> 4"
sender_stop
lap "veth deleted"

# ---------------------------------------------------------------- 4. rmmod
RET=0
ip netns exec r2c2-8 iperf3 -s -1 >/dev/null 2>&1 &
BG_PIDS+=($!)
listening() { torus_exec 8 ss -Htln 'sport = :5201' | grep -q .; }
wait_until 10 listening
check_err $? "iperf3 server not listening"
ip netns exec r2c2-0 iperf3 -c "$(torus_addr4 8)" -t 30 >"$FABRIC_TMP/iperf3" 2>&1 &
BG_PIDS+=($!)
ip netns exec r2c2-2 ping -n -i 0.1 "$(torus_addr4 6)" >"$FABRIC_TMP/ping" 2>&1 &
BG_PIDS+=($!)
busy()
{
	snap "$FABRIC_TMP/b" r2c2-8 r2c2-6 &&
	[[ $(jq -s 'map(.node.delivered) | add' "$FABRIC_TMP/b") -gt 500 ]]
}
wait_until 30 busy
check_err $? "no traffic before rmmod"
# flow events broadcast from node 0 until its r2c2ctl fails, heard by
# event listeners on nodes 4 and 8: notifications run while the module
# goes
for id in 4 8; do
	ip netns exec "$(torus_ns "$id")" r2c2ctl monitor >"$FABRIC_TMP/mon$id" 2>&1 &
	BG_PIDS+=($!)
done
sleep 0.5
(
	f=$((0x40000))
	while ip netns exec r2c2-0 r2c2ctl event send flow $f dst 8 2>/dev/null; do
		f=$((f + 1))
	done
) &
BG_PIDS+=($!)
heard() { grep -q "flow" "$FABRIC_TMP/mon4" && grep -q "flow" "$FABRIC_TMP/mon8"; }
wait_until 10 heard
check_err $? "nodes 4 and 8 hear no flow events before rmmod"
holders=$(ls /sys/module/r2c2/holders 2>/dev/null)
for m in $holders; do
	rmmod "$m"
	check_err $? "rmmod $m (holds r2c2)"
done
timeout 60 rmmod r2c2
rc=$?
check_err $rc "rmmod r2c2 under traffic: status $rc"
[[ ! -d /sys/module/r2c2 ]] && ! lsmod | grep -qw '^r2c2'
check_err $? "r2c2 is still loaded"
left=$(for id in $(torus_nodes); do ip -n "$(torus_ns "$id")" -o link show r2c0 2>/dev/null; done)
[[ -z $left ]]
check_err $? "r2c0 left behind: $left"
stop_bg
kernel_healthy
check_err $? "kernel warnings or oopses"
log_info "iperf3 and ping were running: $(grep -c icmp_seq "$FABRIC_TMP/ping") ping replies before; nodes 4 and 8 heard $(cat "$FABRIC_TMP/mon4" "$FABRIC_TMP/mon8" | grep -c flow) flow events"
log_test "rmmod r2c2 while iperf3, ping and flow events run: module and every r2c0 gone, no warning"
lap rmmod

RET=0
r2c2_modules_load
check_err $? "loading r2c2 again failed"
for id in 0 1; do
	torus_exec "$id" r2c2ctl node set addr "$id" &&
	torus_exec "$id" r2c2ctl port add "$id" dev "p$id" &&
	ip -n "$(torus_ns "$id")" link set r2c0 up &&
	ip -n "$(torus_ns "$id")" addr add "$(torus_addr4 "$id")/16" dev r2c0
	check_err $? "node $id: configuring again failed"
done
pair_ok()
{
	snap "$FABRIC_TMP/p" r2c2-0 r2c2-1 2>/dev/null &&
	[[ $(jq -s 'map(select(.nodes == 2)) | length' "$FABRIC_TMP/p") == 2 ]]
}
wait_until 30 pair_ok
check_err $? "nodes 0 and 1 do not find each other after the reload"
out=$(pingall_from r2c2-0 4 "$(torus_addr4 1)")
check_err $? "no reply from node 1: $out"
log_test "r2c2 loads again; two old namespaces become nodes that ping"

RET=0
kernel_healthy
check_err $? "kernel warnings or oopses"
log_test "no kernel warning, oops or taint"

ksft_exit
