#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bcast_test.sh - every broadcast reaches every other node exactly once,
# over every broadcast tree, on a 3x3 r2c2 torus.
#
#	  6 ---- 7 ---- [8] --     sources: nodes 0, 4 and 8; each sends
#	  |      |      |          16 flow events (r2c2ctl event send flow)
#	  3 ---- [4] --- 5 --      with 16 trees per source, so that the
#	  |      |      |          round robin over the trees uses each
#	 [0] --- 1 ---- 2 --       tree once; every node runs
#	  |      |      |          `r2c2ctl -j monitor` meanwhile.
#
# Checks:
# - every node hears every event of the other sources exactly once, with
#   the fields it was sent with (type, flow, dst, weight, prio, demand,
#   routing), and a source its own once too (r2c2.ko multicasts a
#   FLOW_EVENT request to the node's listeners as well, not from the
#   fabric: the frame that comes back is dropped);
# - the frames a source sends carry the tree ids 0..15 (tcpdump on one
#   of its ports);
# - counters summed over the rack: every broadcast originated (bcast_tx:
#   the events and the link-state refreshes that went on meanwhile) was
#   accepted by n - 1 = 8 nodes (bcast_rx), relayed by the tree's inner
#   nodes (bcast_fwd), and the only duplicates (drop_dup) are those of
#   link-state flooding, which sends an LSA over every link: per LSA,
#   deg + (n - 1)(deg - 2) = 20 of them; tree broadcasts make none.
# r2c0 is down on every node, so that no ARP or IPv6 neighbour discovery
# adds broadcasts of its own.

# shellcheck disable=SC2317  # functions called through wait_until
lib_dir=$(dirname "$0")
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"
# shellcheck source=selftests/torus.sh
source "$lib_dir/torus.sh"
# shellcheck source=selftests/fabric.sh
source "$lib_dir/fabric.sh"

require_root
require_cmd ip jq
require_module veth
require_r2c2
require_tools r2c2_snap
ksft_plan 7

SOURCES=(0 4 8)
TREES=16
EVENTS=16			# per source: each tree once
DEG=4				# ports of a 3x3 torus node
TYPES=(start finish update refresh)
PROTOS=(rps dor vlb wlb)
MON_PIDS=()
CAP_PIDS=()

# flow_id SRC I: identifier of event I of source SRC
flow_id() { printf '0x%04x%04x' "$1" "$(($2 + 1))"; }

# Expected monitor lines "NODE SRC FLOW DST TYPE WEIGHT PRIO DEMAND ROUTING"
# of every event, as the monitor prints them (demand_kbps; null: unlimited).
expected_events()
{
	local s i node demand

	for s in "${SOURCES[@]}"; do
		for ((i = 0; i < EVENTS; i++)); do
			if ((i == 0)); then demand=null; else demand=$((i * 1000)); fi
			for node in $(torus_nodes); do
				echo "$node $s $(flow_id "$s" "$i") $(((s + 1 + i % 8) % 9))" \
					"${TYPES[i % 4]} $((i + 1)) $((i % 16)) $demand ${PROTOS[i % 4]}"
			done
		done
	done | sort
}

# send_events SRC: the events of one source, one r2c2ctl each, in order.
send_events()
{
	local s=$1 i cmds=()

	for ((i = 0; i < EVENTS; i++)); do
		local demand="$((i))M"

		((i == 0)) && demand=unlimited
		cmds+=("r2c2ctl event send flow $(flow_id "$s" "$i") dst $(((s + 1 + i % 8) % 9))"
		       "type ${TYPES[i % 4]} weight $((i + 1)) prio $((i % 16))"
		       "demand $demand routing ${PROTOS[i % 4]} || exit 1;")
	done
	torus_exec "$s" bash -c "${cmds[*]}"
}

# Monitor lines "NODE SRC FLOW DST TYPE WEIGHT PRIO DEMAND ROUTING" heard so
# far (warm-up events left out).
heard_events()
{
	local files

	files=$(torus_nodes | sed 's/^/mon./')
	# shellcheck disable=SC2086  # one word per file
	(cd "$FABRIC_TMP" && jq -r '(input_filename | ltrimstr("mon.")) as $n
		| select(.event == "flow" and (.flow | startswith("0xffff") | not))
		| "\($n) \(.src) \(.flow) \(.dst) \(.type) \(.weight) \(.prio) \(.demand_kbps) \(.routing)"' \
		$files 2>/dev/null) | sort
}

all_heard()
{
	[[ $(heard_events | wc -l) -ge $1 ]]
}

# warm_heard: every monitor has heard a warm-up event (so all listen).
warm_heard()
{
	local id

	for id in $(torus_nodes); do
		grep -q '"flow":"0xffff' "$FABRIC_TMP/mon.$id" 2>/dev/null || return 1
	done
}

# Sums over the rack "bcast_tx bcast_rx bcast_fwd drop_dup" of a snapshot.
sums()
{
	jq -s -r '[map(.node.bcast_tx), map(.node.bcast_rx), map(.node.bcast_fwd),
		   map(.node.drop_dup)] | map(add) | map(tostring) | join(" ")' "$1"
}

# quiet_sums: sums of a snapshot taken when two snapshots 0.5 s apart
# agree (no flood in flight); prints them.
quiet_sums()
{
	local a b i

	snap "$FABRIC_TMP/q" "${NSS[@]}" || return 1
	a=$(sums "$FABRIC_TMP/q")
	for ((i = 0; i < 40; i++)); do
		sleep 0.5
		snap "$FABRIC_TMP/q" "${NSS[@]}" || return 1
		b=$(sums "$FABRIC_TMP/q")
		if [[ $a == "$b" ]]; then
			echo "$b"
			return 0
		fi
		a=$b
	done
	return 1
}

stop_bg()
{
	local pids=("${MON_PIDS[@]}" "${CAP_PIDS[@]}")

	((${#pids[@]} == 0)) || stop_pids "${pids[@]}"
	MON_PIDS=() CAP_PIDS=()
}
cleanup_add stop_bg

# ---------------------------------------------------------------- setup
lap
RET=0
torus_create 3 3
check_err $? "torus_create 3 3"
torus_wait_ready 90
check_err $? "the torus did not converge"
mapfile -t NSS < <(torus_namespaces)
for id in $(torus_nodes); do
	torus_exec "$id" r2c2ctl node set trees "$TREES" ||
		check_err 1 "node $id: node set trees $TREES"
	ip -n "$(torus_ns "$id")" link set r2c0 down
done
log_test_or_exit "setup: 3x3 torus, $TREES trees a source, r2c0 down"
lap "setup"

# Monitors on every node; warm-up events from nodes 0 and 1 tell when
# every monitor listens.
for id in $(torus_nodes); do
	# not through a function: $! must be the monitor itself
	ip netns exec "$(torus_ns "$id")" r2c2ctl -j monitor timeout 300 \
		>"$FABRIC_TMP/mon.$id" 2>&1 &
	MON_PIDS+=($!)
done
RET=0
ok=0
for ((try = 0; try < 20 && !ok; try++)); do
	if ! torus_exec 0 r2c2ctl event send flow 0xffff0000 dst 1 ||
	   ! torus_exec 1 r2c2ctl event send flow 0xffff0001 dst 0; then
		break
	fi
	wait_until 3 warm_heard && ok=1
done
((ok))
check_err $? "not every monitor heard the warm-up events"
log_test_or_exit "monitors on all 9 nodes listen"

# tcpdump on port 0 of each source: its own flow events leaving. The
# VM's base image has tcpdump: one missing or not listening is a failure
# of the tree-id check below, not a skip.
tcpdump_ok=1
for s in "${SOURCES[@]}"; do
	ip netns exec "$(torus_ns "$s")" tcpdump -i p0 -Q out -nn -l -x \
		"ether proto 0x88b5 and ether[14] = 0x15 and ether[16:2] = $s" \
		>"$FABRIC_TMP/cap.$s" 2>"$FABRIC_TMP/cap.$s.err" &
	CAP_PIDS+=($!)
done
for s in "${SOURCES[@]}"; do
	wait_until 20 grep -q "listening on" "$FABRIC_TMP/cap.$s.err" || tcpdump_ok=0
done

RET=0
before=$(quiet_sums)
check_err $? "counters never quiet for 0.5 s"
pids=()
for s in "${SOURCES[@]}"; do
	send_events "$s" &
	pids+=($!)
done
for p in "${pids[@]}"; do
	wait "$p" || check_err 1 "r2c2ctl event send failed"
done
log_test "${#SOURCES[@]} sources send $EVENTS flow events each"
lap "events sent"

# ---------------------------------------------------------------- delivery
RET=0
expected=$(expected_events)
nexp=$(wc -l <<<"$expected")
wait_until 60 all_heard "$nexp"
sleep 1				# room for duplicates to show
heard=$(heard_events)
[[ $heard == "$expected" ]]
check_err $? "monitors differ from the events sent ($(wc -l <<<"$heard") lines heard, $nexp expected): $(diff <(echo "$expected") <(echo "$heard") | grep '^[<>]' | head -n 6 | tr '\n' ';')"
log_test "every node heard every source's $EVENTS events exactly once, fields intact ($nexp deliveries)"
lap "delivery"

RET=0
((tcpdump_ok))
check_err $? "tcpdump did not start listening on every source's p0: $(cat "$FABRIC_TMP"/cap.*.err 2>/dev/null | head -n 4 | tr '\n' ' ')"
for s in "${SOURCES[@]}"; do
	# -x dumps from the R2C2 header: "0x0000:  15tt ssss ..."
	frames=$(grep -c '0x0000:' "$FABRIC_TMP/cap.$s")
	trees=$(awk '$1 == "0x0000:" { print substr($2, 3, 2) }' \
		"$FABRIC_TMP/cap.$s" | sort -u | tr '\n' ' ')
	[[ $frames == "$EVENTS" ]]
	check_err $? "source $s: $frames of its flow events left by port 0, not $EVENTS"
	[[ $trees == "$(printf '%02x ' $(seq 0 $((TREES - 1))))" ]]
	check_err $? "source $s: tree ids seen on its port 0: ${trees:-none}"
done
log_test "the events of each source went out on all $TREES trees"

stop_bg

# ---------------------------------------------------------------- counters
RET=0
n=$TORUS_N
events=$((${#SOURCES[@]} * EVENTS))
why=("the counters were never quiet for 0.5 s")
if [[ -n $before ]]; then
	for ((try = 0; try < 3; try++)); do
		after=$(quiet_sums) || break
		read -r t0 r0 f0 u0 <<<"$before"
		read -r t1 r1 f1 u1 <<<"$after"
		dt=$((t1 - t0)) dr=$((r1 - r0)) df=$((f1 - f0)) du=$((u1 - u0))
		lsas=$((dt - events))
		why=()
		((lsas >= 0)) || why+=("bcast_tx grew by $dt, fewer than the $events events")
		((dr == (n - 1) * dt)) || why+=("bcast_rx +$dr, expected $(((n - 1) * dt)) = (n-1) x $dt broadcasts")
		((df == events * (n - 1 - DEG) + lsas * (n - 1) * (DEG - 1))) ||
			why+=("bcast_fwd +$df, expected $((events * (n - 1 - DEG) + lsas * (n - 1) * (DEG - 1)))")
		((du == lsas * (DEG + (n - 1) * (DEG - 2)))) ||
			why+=("drop_dup +$du, expected $((lsas * (DEG + (n - 1) * (DEG - 2)))) from $lsas LSA floods")
		((${#why[@]} == 0)) && break
	done
	log_info "window: $events events + ${lsas:-?} link-state floods; bcast_rx +${dr:-?}, bcast_fwd +${df:-?}, drop_dup +${du:-?}"
fi
((${#why[@]} == 0))
check_err $? "${why[*]}"
log_test "rack counters: each broadcast accepted n-1 times, no duplicate but link-state flooding's"

RET=0
kernel_healthy
check_err $? "kernel warnings or oopses"
log_test "no kernel warning, oops or taint"

ksft_exit
