#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# capture-check.sh - decode a capture of selftests/capture_test.sh with
# tshark and the r2c2 dissector and compare the fields with what the
# nodes reported and what the test sent. Prints TAP; exits 1 on failure.
#
# usage: capture-check.sh [--prefix TEXT] [--start N] DIR
#        capture-check.sh [--prefix TEXT] [--start N] --vm-out FILE [--save DIR]
#
# DIR holds capture.pcap (tcpdump on node 1's p1 of a 3x3 torus, the link
# from node 0's p0), flows0.json (node 0's `r2c2ctl -j flow show`),
# topo1.json (node 1's `r2c2ctl -j topo show`) and sent (what was sent).
# --vm-out FILE takes them from the output of `scripts/vm-run --out FILE`
# (the "capture" block capture_test.sh wrote); --save DIR keeps them
# (tools/wireshark/testdata/ holds one such capture).
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tools/wireshark/lib.sh
source "$here/lib.sh"
prefix='' vmout='' save=''
while (($#)); do
	case $1 in
	--prefix) prefix=$2; shift 2 ;;
	--start) ws_n=$2; shift 2 ;;
	--vm-out) vmout=$2; shift 2 ;;
	--save) save=$2; shift 2 ;;
	*) break ;;
	esac
done
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
if [[ -n $vmout ]]; then
	D=${save:-$T/capture}
	mkdir -p "$D"
	tr -d '\r' <"$vmout" |
		sed -n '/^r2c2-out-begin capture$/,/^r2c2-out-end capture$/p' |
		sed '1d;$d' | base64 -d | tar -C "$D" -xz
	if [[ ! -s $D/capture.pcap ]]; then
		echo "not ok $((ws_n + 1)) - ${prefix}no capture in $vmout"
		exit 1
	fi
else
	D=${1:?usage: capture-check.sh DIR}
fi
P=$D/capture.pcap
c() { ws_expect "$prefix$1" "$2" "$3"; }

nframes=$(ws_fields "$P" r2c2 frame.number | wc -l)
c "every frame is r2c2 ($nframes frames)" "$(ws_fields "$P" '!r2c2' frame.number | wc -l)" 0
c "no expert info (no malformed frame, every checksum good)" \
	"$(ws_fields "$P" "_ws.expert || r2c2.csum.status == 0" frame.number | head -n 3)" ""

# HELLO: node 0 from its port 0 and node 1 from its port 1, both every
# 100 ms and with the same non-zero topology hash.
c "HELLOs: node 0 on port 0 and node 1 on port 1, 100 ms" \
	"$(ws_fields "$P" "r2c2.type == 2" r2c2.src r2c2.hello.port r2c2.hello.interval_ms | sort -u | tr '\n' ' ')" \
	"0|0|100 1|1|100 "
c "HELLOs: one topology hash, not zero" \
	"$(ws_fields "$P" "r2c2.type == 2" r2c2.hello.topo_hash | sort -u | grep -vc '^0x00000000$')" 1

# LSA: the links of each node's last LSA are the ones node 1 reports in
# topo show (port -> neighbour / neighbour port), for all 9 nodes.
ws_fields "$P" "r2c2.type == 3" r2c2.src r2c2.lsa.port r2c2.lsa.nbr r2c2.lsa.nbr_port |
	awk -F'|' '{ n = split($2, p, ","); split($3, a, ","); split($4, b, ",")
		s = ""; for (i = 1; i <= n; i++) s = s " " p[i] ":" a[i] "/" b[i]
		last[$1] = s } END { for (k in last) print k last[k] }' |
	sort -n >"$T/lsa"
jq -r '.[] | "\(.addr)" + ([.links[] | " \(.port):\(.neighbour)/\(.neighbour_port)"] | join(""))' \
	"$D/topo1.json" | sort -n >"$T/topo"
c "LSAs of all 9 nodes crossed the link" "$(wc -l <"$T/lsa")" 9
c "each node's LSA links = node 1's topo show" "$(diff "$T/topo" "$T/lsa" | head -n 6)" ""

# BCAST_ETH: node 0's ARP request for node 4, decoded by Wireshark's ARP.
c "BCAST_ETH from node 0: ARP who-has 10.42.0.4 tell 10.42.0.0" \
	"$(ws_fields "$P" "r2c2.type == 4 && arp" r2c2.src arp.opcode arp.src.proto_ipv4 arp.dst.proto_ipv4 | sort -u)" \
	"0|1|10.42.0.0|10.42.0.4"

# DATA: node 0's echo requests to node 4 by DOR: route [0 2], captured
# between hop 0 and hop 1 (ridx 1), the flow id node 0 reports, IPv4/ICMP
# inside. (Node 0's ARP replies to node 4 are DATA 0 -> 4 too, a flow of
# their own.)
# (node 0 may also hold the flow of its ARP replies to node 4: the ping's
# is the one with the 3 echo requests)
flow=$(jq -r '[.[] | select(.dst == 4 and .packets == 3)] | if length == 1 then .[0].flow else "none" end' "$D/flows0.json")
c "DATA 0 -> 4: DOR route [0 2], ridx 1, IPv4 echo requests" \
	"$(ws_fields "$P" "r2c2.type == 1 && r2c2.src == 0 && r2c2.dst == 4 && icmp" r2c2.hops r2c2.ridx r2c2.rlen r2c2.rproto r2c2.proto icmp.type | sort -u)" \
	"0 2|1|2|1|0x0800|8"
c "DATA 0 -> 4: flow id = node 0's flow show ($flow), seq 3 values in a row" \
	"$(ws_fields "$P" "r2c2.type == 1 && r2c2.src == 0 && r2c2.dst == 4 && icmp" r2c2.flow r2c2.seq |
		awk -F'|' '{ f[$1]; s[++n] = $2 } END { for (k in f) printf "%s ", k
			ok = n == 3; for (i = 2; i <= n; i++) if (s[i] != s[i - 1] + 1) ok = 0
			print n, ok ? "in a row" : "not in a row" }')" \
	"$flow 3 in a row"

# FLOW and ROUTES: what node 0 was told to send (sent).
c "FLOW from node 0 = $(sed -n 's/^event //p' "$D/sent")" \
	"$(ws_fields "$P" "r2c2.type == 5" r2c2.src r2c2.fe.flow r2c2.fe.dst r2c2.fe.event r2c2.fe.weight r2c2.fe.prio r2c2.fe.rproto r2c2.fe.demand_kbps | sort -u)" \
	"0|0x1234abcd|5|3|7|3|2|12000"
c "ROUTES from node 0 = $(sed -n 's/^routes //p' "$D/sent")" \
	"$(ws_fields "$P" "r2c2.type == 6" r2c2.src r2c2.routes.count r2c2.routes.src r2c2.routes.flow r2c2.routes.rproto | sort -u)" \
	"0|2|3,4|0x0000001a,0x00000002|2,0"

# The authentication trailer: with a rack key (sent: "key ID"), every
# HELLO, LSA, BCAST_ETH, FLOW and ROUTES frame carries one of that key,
# from one end of the link to the other, and every DATA frame holding ARP
# or ND one made by its source for its destination; other DATA frames
# none. Without a key no frame does. (Whether an ARP reply crosses the
# captured link depends on the route its sender samples: a capture may
# hold none. The committed keyed fixture holds two, so the check is made
# on real frames every time wireshark_test.sh runs.)
key=$(sed -n 's/^key //p' "$D/sent")
LLADDR="(arp || (icmpv6.type >= 133 && icmpv6.type <= 137))"
if [[ -n $key ]]; then
	# a HELLO sent while its port has no neighbour (before one is heard,
	# or after a stalled guest let it expire) is signed for none, 65535
	# (kmod/auth.c): counted as the other end's
	c "key $key: every HELLO, LSA, BCAST_ETH, FLOW and ROUTES frame signed with it, node 0 to 1 or 1 to 0" \
		"$(ws_fields "$P" "r2c2.type >= 2 && r2c2.type <= 6" r2c2.auth.key_id r2c2.auth.from r2c2.auth.to r2c2.type |
			awk -F'|' '$3 == 65535 && $4 == 2 && ($2 == 0 || $2 == 1) { $3 = 1 - $2 }
				{ print $1 "|" $2 "|" $3 }' | sort -u | tr '\n' ' ')" \
		"$key|0|1 $key|1|0 "
	c "key $key: DATA frames holding ARP or ND signed by their source for their destination" \
		"$(ws_fields "$P" "r2c2.type == 1 && $LLADDR" r2c2.auth.key_id r2c2.src r2c2.auth.from r2c2.dst r2c2.auth.to r2c2.proto r2c2.auth.proto |
			awk -F'|' -v k="$key" '{ n++; if ($1 != k || $2 != $3 || $4 != $5 || $6 != $7) bad++ }
				END { print (!bad ? "all" : "not all (" bad + 0 " of " n + 0 ")") }')" \
		"all"
	c "key $key: other DATA frames carry no trailer" \
		"$(ws_fields "$P" "r2c2.type == 1 && !$LLADDR && r2c2.auth" frame.number | wc -l)" 0
else
	c "no key: no frame carries a trailer" \
		"$(ws_fields "$P" "r2c2.auth" frame.number | wc -l)" 0
fi
ws_done
