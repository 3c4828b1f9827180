#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# capture_test.sh - capture the r2c2 frames on one link of a running 3x3
# torus for the tshark dissector (tools/wireshark/r2c2.lua), with what the
# nodes themselves report, so that the host can check the decoded fields
# against them (tools/wireshark/capture-check.sh; the guest has no tshark).
#
#	  6 ---- 7 ---- 8 --      hellos every 100 ms (LSA refreshes every
#	  |      |      |         2.25-3 s); tcpdump on node 1's p1, the
#	  3 ---- 4 ---- 5 --      link from node 0's p0 (+x); node 0 routes
#	  |      |      |         by DOR, so its pings to node 4 take
#	  0 ==== 1 ---- 2 --      route [0 2] and cross the link with ridx 1
#	  |  ^   |      |
#	     tcpdump -i p1 in r2c2-1
#
# Every node holds a rack key (id 7): the control frames carry the
# authentication trailer.
#
# Traffic: node 0 pings node 4 (its ARP request is a BCAST_ETH, the echo
# requests DATA frames), sends a FLOW update and a ROUTES frame; hellos
# and LSA refreshes come by themselves. The guest checks that every frame
# type was captured (tcpdump byte filters). With R2C2_OUT set (vm-run
# --out FILE) it writes the capture and the nodes' view there (base64 of
# a tar between "r2c2-out-begin capture" and "r2c2-out-end capture"
# lines), which scripts/check.sh hands to capture-check.sh.

lib_dir=$(dirname "$0")
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"
# shellcheck source=selftests/torus.sh
source "$lib_dir/torus.sh"

require_root
require_cmd ip ping jq tcpdump tar base64
require_module veth
require_r2c2
ksft_plan 5

OUT=$(mktemp -d)
cleanup_add "rm -rf $OUT"
FLOW_EVT="flow 0x1234abcd dst 5 type update weight 7 prio 3 demand 12M routing vlb"
ROUTES="3:0x1a=vlb 4:0x2=rps"
KEY_ID=7
KEY=00112233445566778899aabbccddeeff

RET=0
TORUS_HELLO_MS=100 torus_create 3 3
check_err $? "torus_create failed"
# every node holds rack key KEY_ID: HELLO, LSA, FLOW and ROUTES frames
# carry its trailer (DATA and BCAST_ETH none), for the dissector to show
for ((i = 0; i < 9; i++)); do
	torus_exec "$i" r2c2ctl key set "$KEY_ID" "$KEY"
	check_err $? "node $i: key set $KEY_ID refused"
done
((RET == 0)) && { torus_wait_converged 60; check_err $? "torus did not converge"; }
torus_exec 0 r2c2ctl node set routing dor
check_err $? "node 0: routing dor refused"
log_test_or_exit "3x3 torus up with rack key $KEY_ID, node 0 routes by DOR"

RET=0
torus_exec 1 tcpdump -n -i p1 -s 512 -U -w "$OUT/capture.pcap" \
	ether proto 0x88b5 2>"$OUT/tcpdump.err" &
tcpdump_pid=$!
cleanup_add "kill $tcpdump_pid 2>/dev/null"
busywait 10000 grep -q "listening on" "$OUT/tcpdump.err"
check_err $? "tcpdump did not start: $(cat "$OUT/tcpdump.err")"
log_test_or_exit "tcpdump on node 1's p1"

RET=0
ip -n "$(torus_ns 0)" neigh flush dev r2c0
torus_exec 0 ping -c 3 -i 0.2 -W 2 "$(torus_addr4 4)" >"$OUT/ping.out" 2>&1
check_err $? "ping 0 -> 4 failed: $(tail -n 2 "$OUT/ping.out")"
# shellcheck disable=SC2086  # words of the command
torus_exec 0 r2c2ctl event send $FLOW_EVT
check_err $? "event send failed"
# shellcheck disable=SC2086
torus_exec 0 r2c2ctl routes send $ROUTES
check_err $? "routes send failed"
# Every node's LSA refresh crosses the link at least once (capture-check
# compares each node's last LSA with node 1's view): the capture, which
# tcpdump -U writes a frame at a time, holds LSAs of all 9 sources (the
# two bytes after the type and tree bytes, in -x's first line).
# shellcheck disable=SC2317  # called through busywait
lsa_sources()
{
	tcpdump -n -x -r "$OUT/capture.pcap" 'ether[14] = 0x13' 2>/dev/null |
		awk '$1 == "0x0000:" { print $3 }' | sort -u | wc -l
}
# shellcheck disable=SC2317
all_lsas() { (($(lsa_sources) >= 9)); }
busywait 20000 all_lsas
check_err $? "LSAs of $(lsa_sources) of the 9 nodes captured"
torus_exec 0 r2c2ctl -j flow show >"$OUT/flows0.json"
check_err $? "flow show on node 0 failed"
torus_exec 1 r2c2ctl -j topo show >"$OUT/topo1.json"
check_err $? "topo show on node 1 failed"
log_test "traffic: ping, flow event, routes; the nodes' view recorded"
stop_pids "$tcpdump_pid"

RET=0
missing=
for t in 1:DATA 2:HELLO 3:LSA 4:BCAST_ETH 5:FLOW 6:ROUTES; do
	# one line a frame, hex dump lines (unknown ethertype) indented
	n=$(tcpdump -n -r "$OUT/capture.pcap" "ether[14] = 0x1${t%%:*}" 2>/dev/null |
		grep -vc "^[[:space:]]")
	log_info "${t#*:}: $n frames"
	((n > 0)) || missing+=" ${t#*:}"
done
[[ -z $missing ]]
check_err $? "no frame of type:$missing"
log_test "every frame type captured ($(stat -c %s "$OUT/capture.pcap") bytes)"

RET=0
cat >"$OUT/sent" <<EOS
hello_ms 100
capture node 1 port 1 peer node 0 port 0
ping 0 $(torus_addr4 0) -> 4 $(torus_addr4 4) routing dor
event $FLOW_EVT
routes $ROUTES
key $KEY_ID
EOS
if [[ -z ${R2C2_OUT:-} ]]; then
	log_test_skip "capture handed to the host" "no R2C2_OUT (vm-run --out FILE)"
else
	tar -C "$OUT" -czf "$OUT/capture.tgz" capture.pcap flows0.json topo1.json sent
	check_err $? "tar failed"
	{
		echo "r2c2-out-begin capture"
		base64 -w 76 "$OUT/capture.tgz"
		echo "r2c2-out-end capture"
	} >"$OUT/block"
	cat "$OUT/block" >>"$R2C2_OUT"
	check_err $? "writing to $R2C2_OUT failed"
	log_test "capture handed to the host through $R2C2_OUT"
fi

ksft_exit
