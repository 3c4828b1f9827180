#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The tshark dissector (tools/wireshark/r2c2.lua) on hand-made frames
# (tools/wireshark/frames.py): every field of every frame type, the
# source route hop by hop, payloads handed to Wireshark's own dissectors,
# and expert info on each kind of malformed or truncated frame. Then the
# committed capture of a 3x3 torus (tools/wireshark/testdata/) against
# what its nodes reported when it was taken.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tools/wireshark/lib.sh
source tools/wireshark/lib.sh
if ! command -v tshark >/dev/null; then
	echo "not ok 1 - tshark not installed (scripts/setup.sh installs it)"
	exit 1
fi
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
P=$T/frames.pcap
python3 tools/wireshark/frames.py "$P" || { echo "not ok 1 - frames.py"; exit 1; }

f() { ws_fields "$P" "frame.number == $1" "${@:2}"; }

ws_expect "the dissector loads and claims ethertype 0x88b5" \
	"$(ws_fields "$P" r2c2 frame.number | wc -l)" 26
ws_expect "DATA: header fields" \
	"$(f 1 r2c2.version r2c2.type r2c2.rlen r2c2.ridx r2c2.rproto r2c2.flow r2c2.src r2c2.dst r2c2.seq r2c2.plen r2c2.proto r2c2.csum.status)" \
	"1|1|2|1|1|0x1234abcd|0|4|17|44|0x0800|1"
ws_expect "DATA: route hop by hop, the next hop, hops left" \
	"$(f 1 r2c2.hop r2c2.hops r2c2.next_port r2c2.hops_left)" "0,2|0 2|2|1"
ws_expect "DATA: the IPv4 payload goes to Wireshark's IP and ICMP dissectors" \
	"$(f 1 ip.src ip.dst icmp.type icmp.ident icmp.seq)" "10.42.0.0|10.42.0.4|8|119|3"
ws_expect "DATA: a 42-hop route (3 bits a hop across byte boundaries)" \
	"$(f 2 r2c2.hops r2c2.ridx r2c2.next_port r2c2.hops_left r2c2.rproto r2c2.dst r2c2.proto)" \
	"$(for i in $(seq 0 41); do printf '%d ' $((i % 8)); done | sed 's/ $//')|5|5|37|2|65534|0x86dd"
ws_expect "HELLO: control header and body" \
	"$(f 3 r2c2.type r2c2.tree r2c2.src r2c2.bseq r2c2.csum.status r2c2.hello.port r2c2.hello.flags r2c2.hello.interval_ms r2c2.hello.topo_hash)" \
	"2|0|3|0|1|5|0x00|1000|0xcafef00d"
ws_expect "LSA: sequence, count, max age, each link" \
	"$(f 4 r2c2.src r2c2.bseq r2c2.lsa.seq r2c2.lsa.count r2c2.lsa.max_age_s r2c2.lsa.port r2c2.lsa.nbr r2c2.lsa.nbr_port r2c2.csum.status)" \
	"4|12|9|4|40|0,1,2,3|5,3,7,1|1,0,3,2|1"
ws_expect "BCAST_ETH: the inner Ethernet frame (an ARP request) decoded" \
	"$(f 5 r2c2.type r2c2.src r2c2.tree r2c2.bseq r2c2.csum.status eth.type arp.opcode arp.src.proto_ipv4 arp.dst.proto_ipv4)" \
	"4|0|2|77|1|0x88b5,0x0806|1|10.42.0.0|10.42.0.4"
ws_expect "FLOW: update, weight, priority, routing, demand" \
	"$(f 6 r2c2.src r2c2.tree r2c2.fe.flow r2c2.fe.dst r2c2.fe.weight r2c2.fe.event r2c2.fe.prio r2c2.fe.rproto r2c2.fe.demand_kbps r2c2.fe.unlimited r2c2.csum.status)" \
	"0|1|0x1234abcd|5|7|3|3|2|12000|0|1"
ws_expect "FLOW: start with unlimited demand" \
	"$(f 7 r2c2.src r2c2.fe.flow r2c2.fe.dst r2c2.fe.event r2c2.fe.prio r2c2.fe.rproto r2c2.fe.unlimited)" \
	"6|0x0000001a|8|1|0|0|1"
ws_expect "ROUTES: entries" \
	"$(f 8 r2c2.src r2c2.tree r2c2.routes.count r2c2.routes.src r2c2.routes.flow r2c2.routes.rproto r2c2.csum.status)" \
	"0|3|2|3,4|0x0000001a,0x00000002|2,0|1"
ws_expect "FLOW: a digest, the answer to a resync" \
	"$(f 18 r2c2.src r2c2.fe.flow r2c2.fe.dst r2c2.fe.weight r2c2.fe.event r2c2.fe.demand_kbps _ws.col.Info)" \
	"2|0x89abcdef|2|3|5|3|FLOW digest src 2: 0x89abcdef over 3 flows (answer to a resync)"
ws_expect "FLOW: a resync request" \
	"$(f 19 r2c2.src r2c2.fe.flow r2c2.fe.dst r2c2.fe.event r2c2.fe.demand_kbps _ws.col.Info)" \
	"4|0x01234567|2|6|2|FLOW resync src 4 asks 2 for its flows (holds 2, digest 0x01234567)"
ws_expect "no expert info on the well-formed frames" \
	"$(ws_fields "$P" "(frame.number <= 8 || (frame.number >= 18 && frame.number <= 22)) && _ws.expert" frame.number)" ""
# The authentication trailer: each field where the kernel puts it, the
# MAC read little-endian (frames.py computes it with SipHash-2-4), found
# by the kernel's rule (n + 24 bytes, key id not 0), Ethernet padding
# after a keyless HELLO not taken for one
ws_expect "keyed HELLO: the trailer's fields, its sequence as time, the MAC" \
	"$(f 20 r2c2.auth.key_id r2c2.auth.newest_id r2c2.auth.from r2c2.auth.to r2c2.auth.resv r2c2.auth.seq r2c2.auth.time r2c2.auth.mac r2c2.hello.topo_hash)" \
	"1|2|3|65535|0x0000|1764000000123456789|Nov 24, 2025 16:00:00.123456789 UTC|0x51abdd8de8212994|0xcafef00d"
ws_expect "keyed LSA relayed: the transmitter and the neighbour it was sent to, not the source" \
	"$(f 21 r2c2.src r2c2.lsa.count r2c2.auth.key_id r2c2.auth.from r2c2.auth.to r2c2.auth.mac r2c2.csum.status _ws.col.Info)" \
	"4|2|2|7|5|0x59b17de295a6222f|1|LSA from 4 seq 10 links 0:5/1 1:3/0 [key 2 from 7]"
ws_expect "keyed FLOW: the trailer after the 12-byte body, Ethernet padding after it" \
	"$(f 22 r2c2.fe.flow r2c2.auth.key_id r2c2.auth.from r2c2.auth.to r2c2.auth.mac r2c2.padding)" \
	"0x0000001b|1|0|1|0x03d5d2d0163fa06f|0000"
ws_expect "keyed ROUTES: a reserved field not zero in the trailer is flagged" \
	"$(f 23 r2c2.routes.count r2c2.auth.resv _ws.expert.message)" "1|0x0005|Reserved field not zero"
ws_expect "keyed BCAST_ETH: the ARP request decoded, the trailer after it" \
	"$(f 24 r2c2.src arp.opcode arp.dst.proto_ipv4 r2c2.auth.key_id r2c2.auth.from r2c2.auth.to r2c2.auth.mac)" \
	"0|1|10.42.0.4|1|7|5|$(python3 -c 'import sys; sys.path.insert(0, "tools/wireshark"); import frames; print("0x%016x" % int.from_bytes(frames.frames()[23][-8:], "little"))')"
ws_expect "keyed DATA: an ARP reply signed end to end, the ethertype in the trailer" \
	"$(f 25 r2c2.src r2c2.dst r2c2.plen arp.opcode r2c2.auth.key_id r2c2.auth.from r2c2.auth.to r2c2.auth.proto r2c2.padding)" \
	"4|0|28|2|1|4|0|0x0806|"
ws_expect "keyed DATA in a rotation: two trailers, keys 2 and 1" \
	"$(f 26 r2c2.auth.key_id r2c2.auth.newest_id r2c2.auth.proto r2c2.padding)" \
	"2,1|2,2|0x0806,0x0806|"
ws_expect "no expert info on the keyed BCAST_ETH and DATA frames" \
	"$(ws_fields "$P" "frame.number >= 24 && _ws.expert" frame.number)" ""
ws_expect "keyless HELLO: its Ethernet padding is padding, not a trailer" \
	"$(f 3 r2c2.auth.key_id r2c2.padding)" "|000000000000000000000000000000000000000000000000000000000000"
# One fault each: the expert message names it.
ws_expect "truncated data header" "$(f 9 _ws.expert.message)" \
	"Truncated: data header needs 40 bytes, the frame has 30"
ws_expect "bad data header checksum" "$(f 10 r2c2.csum.status _ws.expert.message)" \
	"0|Bad header checksum 0x83a3, should be 0xd6f6"
ws_expect "rlen above 42" "$(f 11 _ws.expert.message)" "Route length 43 above 42"
ws_expect "ridx beyond rlen" "$(f 12 r2c2.hops_left _ws.expert.message)" \
	"|Route index 3 beyond route length 2"
ws_expect "unknown version" "$(f 13 _ws.expert.message)" "Unknown version 2 or type 1"
# (then IPv4's own complaint about the 20 zero bytes)
ws_expect "payload shorter than plen" "$(f 14 _ws.expert.message)" \
	"Truncated: payload length 100, the frame holds 20 after the header,Bogus IPv4 version"
ws_expect "LSA: too many links, bad max age, entries cut" "$(f 15 _ws.expert.message)" \
	"LSA with 9 links (at most 8),LSA max age 0 s outside 1..3600,Truncated: LSA with 9 links needs 52 bytes, the frame has 48"
ws_expect "ROUTES without entries" "$(f 16 _ws.expert.message)" "ROUTES with 0 entries (1..212)"
ws_expect "truncated HELLO" "$(f 17 _ws.expert.message)" \
	"Truncated: HELLO needs 16 bytes, the frame has 10"

# The capture of a real torus, checked against its nodes' own view.
for d in tools/wireshark/testdata/*/; do
	[[ -f $d/capture.pcap ]] || continue
	bash tools/wireshark/capture-check.sh --prefix "fixture $(basename "$d"): " \
		--start "$ws_n" "$d" >"$T/cap.out"
	grep -v '^1\.\.' "$T/cap.out"
	ws_n=$((ws_n + $(grep -c '^\(not \)\?ok ' "$T/cap.out")))
	ws_fail=$((ws_fail + $(grep -c '^not ok ' "$T/cap.out")))
done
ws_done
