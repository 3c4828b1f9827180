#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# auth_test.sh - authenticated control frames: with a rack key, a
# neighbour without it cannot change any node's view, a captured frame
# cannot be replayed, and the key rotates without losing an adjacency;
# without a key the same forgeries are accepted.
#
#	 r2c2-ka (A, 1)          r2c2-kb (B, 2)          r2c2-kc (C, 3)
#	 +-----------+           +-----------+           +-----------+
#	 |      p0 --|-----------|-- p1   p0 |-----------|-- p1      |
#	 | r2c0      |  tcpdump  | r2c0  p3  |           | r2c0      |
#	 | 10.42.0.1 |  on A p0  | 10.42.0.2 |           | 10.42.0.3 |
#	 | fd42::1   |           | fd42::2|  |           | fd42::3   |
#	 +-----------+           +--------|--+           +-----------+
#	                        inj0 -+  r2c2-km (M: no node, no key;
#	                                 r2c2_replay, r2c2_ctlflood)
#
#  1. A, B and C get key 1 (overlap 6 s): they converge, A pings C, no
#     drop_auth once all three hold it. 11 s of A's p0 are captured
#     (hellos, LSAs, a FLOW and a ROUTES frame of A), every frame with a
#     trailer; `key show` prints ids only.
#  2. M forges HELLO (source 99), LSA (source 77), FLOW and ROUTES frames
#     from the capture, with their old trailer and without one, and
#     r2c2_ctlflood's LSA, FLOW and ROUTES frames: every one is drop_auth
#     at B's p3, none is accepted (hello_rx, bcast_rx of p3 unchanged),
#     no node learns 77, B hears no neighbour on p3.
#  3. M replays the captured frames unchanged: every one is drop_replay.
#     M's ARP broadcasts forged in A's name far ahead of A's sequence are
#     drop_auth and do not silence A's FLOW events.
#  3c. ARP and ND: M forges, in C's name and with C's MAC, an ARP request
#     and an ND solicitation (BCAST_ETH) and an ARP reply (a data frame
#     for B) that say A's addresses are at C's MAC: all drop_auth, B's
#     entries of A still hold A's MAC. With emptied neighbour tables A
#     pings C over IPv4 and IPv6 (ARP and ND signed, relayed by B).
#  4. Rotation to key 2 on A, B, C one by one: no drop_auth anywhere, no
#     neighbour lost, C resolves and pings A while only A has key 2, A
#     pings C; once the overlap ends (key 1 forgotten) still none.
#  5. Keys deleted: the forgeries of 2 are accepted (B hears 99 on p3,
#     B learns 77, hello_rx and bcast_rx of p3 grow, no drop_auth), and
#     so are 3b's (taken, A's events still heard) and 3c's (they reach B's r2c0; the ARP reply and the ND
#     solicitation leave B's entries of A at C's MAC).
#  6. Mixed: only A has a key: A drops B's frames (drop_auth), nothing
#     crashes, B still hears A.

# shellcheck disable=SC2317  # functions called through wait_until
lib_dir=$(dirname "$0")
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"
# shellcheck source=selftests/fabric.sh
source "$lib_dir/fabric.sh"

require_root
require_cmd ip jq ping tcpdump
require_module veth
require_r2c2
require_tools r2c2_snap r2c2_replay r2c2_ctlflood
ksft_plan 15

A=r2c2-ka B=r2c2-kb C=r2c2-kc M=r2c2-km
NODES=("$A" "$B" "$C")
KEY1=00112233445566778899aabbccddeeff
KEY2=f0e1d2c3b4a5968778695a4b3c2d1e0f
PCAP=$FABRIC_TMP/a_p0.pcap

setup()
{
	local i

	line_injector "$A" "$B" "$C" "$M" &&
	ip -n "$B" addr add 10.42.0.2/16 dev r2c0 || return 1
	for i in 1 2 3; do
		ip -n "${NODES[i - 1]}" addr add "fd42::$i/64" dev r2c0 nodad ||
			return 1
	done
}

# converged: A, B and C know 3 nodes and 4 links, B has its 2 neighbours
converged()
{
	snap "$FABRIC_TMP/conv" -p "${NODES[@]}" 2>/dev/null &&
	[[ $(jq -s 'map(select(.nodes == 3 and .links == 4)) | length' \
		"$FABRIC_TMP/conv") == 3 ]] &&
	[[ $(jq -s 'map(select(.ns == "'"$B"'") | .ports[] |
		select(.state == 2)) | length' "$FABRIC_TMP/conv") == 2 ]]
}

keys()
{
	local ns

	for ns in "${NODES[@]}"; do
		ip netns exec "$ns" r2c2ctl key "$@" || return 1
	done
}

before() { snap "$FABRIC_TMP/before" -p "${NODES[@]}"; }
after() { snap "$FABRIC_TMP/after" -p "${NODES[@]}"; }

# d NS COUNTER: growth of a node counter between before and after
d()
{
	jq -n -r --slurpfile b "$FABRIC_TMP/before" --slurpfile a "$FABRIC_TMP/after" \
		--arg ns "$1" --arg k "$2" '
		def c($s): [$s[] | select(.ns == $ns) | .node[$k]] | .[0] //
			error("no counter \($k) of \($ns)");
		c($a) - c($b)'
}

# p3 COUNTER: growth of a counter of B's port 3
p3()
{
	jq -n -r --slurpfile b "$FABRIC_TMP/before" --slurpfile a "$FABRIC_TMP/after" \
		--arg ns "$B" --arg k "$1" '
		def c($s): [$s[] | select(.ns == $ns) | .ports[] |
			select(.port == 3) | .stats[$k]] | .[0] //
			error("no counter \($k) of port 3 of \($ns)");
		c($a) - c($b)'
}

# sum_d COUNTER: growth of a node counter over A, B and C
sum_d() { echo $(($(d "$A" "$1") + $(d "$B" "$1") + $(d "$C" "$1"))); }

# B's neighbour on p3 (empty: none)
p3_nbr() { ip netns exec "$B" r2c2ctl -j neigh show | jq -r '.[] | select(.port == 3) | .addr'; }

knows77() { [[ $(ip netns exec "$B" r2c2ctl -j topo show | jq 'any(.[]; .addr == 77)') == true ]]; }

# after_until T COND...: take the "after" snapshot until COND (on it)
# holds, T seconds at most: a counter reaching its value, not a sleep
after_then() { after && "$@"; }
after_until() { local t=$1; shift; wait_until "$t" after_then "$@"; }

# forge_all MODE...: the capture's frames forged in each MODE, then
# r2c2_ctlflood's; sets FORGED to the number of frames sent
forge_all()
{
	local mode out n

	FORGED=0
	for mode in "$@"; do
		out=$(ip netns exec "$M" "$(tool r2c2_replay)" -i inj0 -m "$B_P3_MAC" \
			-s "$PCAP" -a "$mode" hello lsa flow routes) || return 1
		n=$(jq -r .sent <<<"$out")
		log_info "$mode: $out"
		FORGED=$((FORGED + n))
	done
	ip netns exec "$M" "$(tool r2c2_ctlflood)" -i inj0 -m "$B_P3_MAC" lsa 500 5 &&
	ip netns exec "$M" "$(tool r2c2_ctlflood)" -i inj0 -m "$B_P3_MAC" flow 1 3 &&
	ip netns exec "$M" "$(tool r2c2_ctlflood)" -i inj0 -m "$B_P3_MAC" routes 1 2 2 || return 1
	FORGED=$((FORGED + 5 + 3 + 2))
}

# flood ARGS...: r2c2_ctlflood from M into B's p3
flood() { ip netns exec "$M" "$(tool r2c2_ctlflood)" -i inj0 -m "$B_P3_MAC" "$@"; }

# lladdr IP: the MAC of B's neighbour entry of IP (empty if none)
lladdr() { ip -n "$B" -j neigh show dev r2c0 to "$1" | jq -r '.[0].lladdr // empty'; }
lladdr_is() { [[ $(lladdr "$1") == "$2" ]]; }

# b_knows_a: B's entries of A's two addresses hold A's MAC (B pings A)
b_knows_a()
{
	ip netns exec "$B" ping -n -q -c 1 -W 2 10.42.0.1 >/dev/null 2>&1 &&
	ip netns exec "$B" ping -6 -n -q -c 1 -W 2 fd42::1 >/dev/null 2>&1 &&
	lladdr_is 10.42.0.1 "$A_MAC" && lladdr_is fd42::1 "$A_MAC"
}

# forge_nbr WHAT: one of the three forgeries of 3c in C's name, each
# saying that one of A's addresses is at C's MAC. A broadcast is sent at
# two sequences half the space apart, so that without a key one of them
# is ahead of C's own and not a duplicate.
forge_nbr()
{
	local s

	case $1 in
	arp_req)
		for s in 101 32869; do
			flood arp 3 $s 10.42.0.1 "$C_MAC" 10.42.0.2 || return 1
		done ;;
	arp_rep) flood arp 3 102 10.42.0.1 "$C_MAC" 10.42.0.2 2 ;;
	nd)
		for s in 103 32871; do
			flood nd 3 $s fd42::1 "$C_MAC" fd42::2 || return 1
		done ;;
	esac
}

# ---------------------------------------------------------------- setup
RET=0
setup
check_err $? "setup failed"
wait_until 30 converged
check_err $? "A, B and C did not converge without a key"
B_P3_MAC=$(ip -n "$B" -j link show p3 | jq -r '.[0].address')
A_MAC=$(ip -n "$A" -j link show r2c0 | jq -r '.[0].address')
C_MAC=$(ip -n "$C" -j link show r2c0 | jq -r '.[0].address')
log_test_or_exit "setup: three nodes converge without a key"

# ---------------------------------------------------------------- 1
RET=0
keys set 1 "$KEY1" overlap 6
check_err $? "key set 1 failed"
sleep 4
wait_until 30 converged
check_err $? "not converged with key 1"
ip netns exec "$A" tcpdump -i p0 -U -w "$PCAP" -s 1600 ether proto 0x88b5 2>/dev/null &
tdpid=$!
cleanup_add "kill $tdpid 2>/dev/null"
before
busywait 10000 test -s "$PCAP" >/dev/null
ip netns exec "$A" r2c2ctl event send flow 0x1234 dst 3 &&
ip netns exec "$A" r2c2ctl routes send 3:0x77=vlb 1:0x1234=dor
check_err $? "A: event or routes send failed"
# until the capture holds each control type (an LSA refresh comes every
# 10 s at most) and B heard 4 hellos
captured()
{
	"$(tool r2c2_replay)" -s "$PCAP" -l 2>/dev/null |
		json_assert '.hello > 0 and .lsa > 0 and .flow > 0 and .routes > 0' >/dev/null &&
	(($(d "$B" hello_rx) >= 4))
}
after_until 30 captured
check_err $? "the capture lacks a control type after 30 s: $("$(tool r2c2_replay)" -s "$PCAP" -l 2>&1)"
kill "$tdpid"; wait "$tdpid" 2>/dev/null
after
[[ $(sum_d drop_auth) == 0 && $(sum_d drop_replay) == 0 && $(d "$B" hello_rx) -ge 4 ]]
check_err $? "drop_auth +$(sum_d drop_auth), drop_replay +$(sum_d drop_replay), B hello_rx +$(d "$B" hello_rx) with key 1 on all"
converged
check_err $? "not converged with key 1 once the capture was whole"
ip netns exec "$A" ping -c 2 -W 2 10.42.0.3 >/dev/null
check_err $? "A cannot ping C with key 1"
CAP=$("$(tool r2c2_replay)" -s "$PCAP" -l)
log_info "capture: $CAP"
json_assert '.hello > 0 and .lsa > 0 and .flow > 0 and .routes > 0 and
	.trailer == .hello + .lsa + .flow + .routes' <<<"$CAP"
check_err $? "the capture lacks a type or a frame lacks its trailer"
log_test "keyed nodes converge, ping, and every control frame carries a trailer"

RET=0
out=$(ip netns exec "$B" r2c2ctl -j key show)
json_assert '.set == true and .id == 1 and (keys | sort) == ["id", "overlap_ms", "set"]' <<<"$out"
check_err $? "key show -j: $out"
! grep -qi -e "$KEY1" -e "${KEY1:0:8}" <<<"$(ip netns exec "$B" r2c2ctl key show; dmesg)"
check_err $? "key material in key show or the kernel log"
ip netns exec "$B" r2c2ctl key set 1 "$KEY2" 2>"$FABRIC_TMP/err"
check_fail $? "key set of id 1 with another key accepted"
grep -q "key id in use" "$FABRIC_TMP/err"
check_err $? "no extack for a reused key id: $(cat "$FABRIC_TMP/err")"
log_test "key show prints ids only; a reused id is refused with its reason"

# ---------------------------------------------------------------- 2
RET=0
before
forge_all forge strip
check_err $? "forging failed"
all_refused() { [[ $(p3 drop_auth) == "$FORGED" ]]; }
after_until 10 all_refused
log_info "forged $FORGED: B p3 drop_auth +$(p3 drop_auth) hello_rx +$(p3 hello_rx) bcast_rx +$(p3 bcast_rx)"
[[ $(p3 drop_auth) == "$FORGED" && $(p3 hello_rx) == 0 && $(p3 bcast_rx) == 0 ]]
check_err $? "want drop_auth $FORGED and nothing accepted on B's p3"
[[ -z $(p3_nbr) ]]
check_err $? "B hears a neighbour on p3: $(p3_nbr)"
! knows77 && converged
check_err $? "the rack's view changed"
[[ $(sum_d drop_auth) == "$FORGED" ]]
check_err $? "drop_auth +$(sum_d drop_auth) over the rack, want $FORGED (B's p3 only)"
log_test "forged HELLO, LSA, FLOW, ROUTES without the key: all drop_auth, no state changed"

# ---------------------------------------------------------------- 3
RET=0
before
out=$(ip netns exec "$M" "$(tool r2c2_replay)" -i inj0 -m "$B_P3_MAC" -s "$PCAP" \
	-a asis hello lsa flow routes)
check_err $? "replay failed"
n=$(jq -r .sent <<<"$out")
all_replays() { [[ $(p3 drop_replay) == "$n" ]]; }
after_until 10 all_replays
log_info "replayed $out: B p3 drop_replay +$(p3 drop_replay) drop_auth +$(p3 drop_auth)"
[[ $n -gt 0 && $(p3 drop_replay) == "$n" && $(p3 drop_auth) == 0 &&
   $(p3 hello_rx) == 0 && $(p3 bcast_rx) == 0 ]]
check_err $? "want drop_replay $n, nothing else"
log_test "captured frames replayed: all drop_replay"

# ---------------------------------------------------------------- 3b
# M forges ARP requests in A's name 2,000 broadcasts ahead of A's
# sequence (the capture's last FLOW or ROUTES frame), right before each
# of three flow events of A: B refuses them (drop_auth: BCAST_ETH frames
# are authenticated too), and A's events must reach C. When BCAST_ETH was
# not authenticated, the forgeries reached B as new broadcasts; and when
# it also shared one duplicate window with FLOW and ROUTES, B took each
# event, 2,000 behind the forgeries, for a duplicate and C heard none.
# eth_ahead AHEAD BASE: M forges two ARP requests in A's name AHEAD
# broadcasts past A's captured sequence before each of three flow events
# of A (flow BASE+1..3); C's monitor must hear all three. The caller
# checks what B's p3 made of the six forgeries (before/after around it).
eth_ahead()
{
	local ahead=$1 base=$2 r k mon

	ip netns exec "$C" r2c2ctl -j monitor timeout 120 >"$FABRIC_TMP/mon_c" 2>&1 &
	mon=$!
	cleanup_add "kill $mon 2>/dev/null"
	monitors_listen "$A" 3 "$FABRIC_TMP/mon_c"
	check_err $? "C's monitor does not hear A's events"
	before
	for r in 1 2 3; do
		for k in 0 1; do
			ip netns exec "$M" "$(tool r2c2_ctlflood)" -i inj0 -m "$B_P3_MAC" \
				arp 1 $(((seq + ahead + 2 * r + k) % 65536)) 10.42.0.1 \
				02:52:32:43:00:01 10.42.0.3 || check_err 1 "r2c2_ctlflood arp failed"
		done
		ip netns exec "$A" r2c2ctl event send flow $((base + r)) dst 3 ||
			check_err 1 "A: event send failed"
	done
	pat=$(printf '"0x%08x"|' $((base + 1)) $((base + 2)) $((base + 3)))
	pat=${pat%|}
	heard() { [[ $(grep -c -E "$pat" "$FABRIC_TMP/mon_c") == 3 ]]; }
	wait_until 5 heard
	check_err $? "C heard $(grep -c -E "$pat" "$FABRIC_TMP/mon_c") of A's 3 flow events"
	after
	log_info "B: bcast_rx +$(d "$B" bcast_rx), drop_dup +$(d "$B" drop_dup), p3 drop_auth +$(p3 drop_auth); C heard $(grep -c -E "$pat" "$FABRIC_TMP/mon_c") events"
	kill "$mon" 2>/dev/null
}

RET=0
seq=$(jq -r .bcast_seq <<<"$CAP")
((seq >= 0))
check_err $? "no broadcast sequence of A in the capture: $CAP"
eth_ahead 2000 $((0xa0a00000))
(($(p3 bcast_rx) == 0 && $(p3 drop_auth) == 6))
check_err $? "B's p3 took $(p3 bcast_rx) of the 6 forged broadcasts, refused $(p3 drop_auth)"
log_test "BCAST_ETH forged in A's name ahead of A's sequence: drop_auth, A's flow events still heard"

# ---------------------------------------------------------------- 3c
# ARP and ND with a key. The forgeries give C's own MAC in C's name, so
# that r2c2_lladdr_ok() alone would believe them (case 5 shows it does
# without a key); with a key each is drop_auth at B's p3: the two
# broadcasts hop by hop, the ARP reply (a data frame signed end to end
# by its source) at B, its destination.
RET=0
wait_until 20 b_knows_a
check_err $? "B's entries of A: $(lladdr 10.42.0.1), $(lladdr fd42::1); want $A_MAC"
sleep 1.2	# past the ARP locktime: a reply may override the entry again
before
for what in arp_req arp_rep nd; do
	forge_nbr "$what" || check_err 1 "r2c2_ctlflood: $what failed"
done
refused5() { (($(p3 drop_auth) == 5)); }
after_until 10 refused5
log_info "B p3: drop_auth +$(p3 drop_auth) bcast_rx +$(p3 bcast_rx); B: drop_lladdr +$(d "$B" drop_lladdr); entries $(lladdr 10.42.0.1) $(lladdr fd42::1)"
(($(p3 drop_auth) == 5 && $(p3 bcast_rx) == 0 && $(d "$B" drop_lladdr) == 0))
check_err $? "want the 5 forged frames drop_auth at B's p3, none relayed or seen by r2c0"
lladdr_is 10.42.0.1 "$A_MAC" && lladdr_is fd42::1 "$A_MAC"
check_err $? "B believed a forgery: 10.42.0.1 at $(lladdr 10.42.0.1), fd42::1 at $(lladdr fd42::1)"
log_test "ARP and ND forged in C's name with C's MAC: drop_auth, B's entries of A unchanged"

# Signed ARP and ND work: A and C, their neighbour tables emptied, find
# each other across B (BCAST_ETH requests re-signed by B, replies signed
# by their source for their destination) and nothing is refused.
RET=0
ip -n "$A" neigh flush dev r2c0 && ip -n "$C" neigh flush dev r2c0
check_err $? "neigh flush failed"
before
ip netns exec "$A" ping -n -q -c 2 -i 0.2 -W 2 10.42.0.3 >/dev/null 2>&1
check_err $? "A does not ping C over IPv4 with a key"
ip netns exec "$A" ping -6 -n -q -c 2 -i 0.2 -W 2 fd42::3 >/dev/null 2>&1
check_err $? "A does not ping C over IPv6 with a key"
after
[[ $(sum_d drop_auth) == 0 && $(sum_d drop_replay) == 0 ]]
check_err $? "drop_auth +$(sum_d drop_auth), drop_replay +$(sum_d drop_replay) while A and C resolve each other"
log_test "with a key, A and C resolve each other (ARP, ND) across B and ping; nothing refused"

# ---------------------------------------------------------------- 4
RET=0
wait_until 10 converged
before
for ns in "${NODES[@]}"; do
	ip netns exec "$ns" r2c2ctl key set 2 "$KEY2" || check_err 1 "$ns: key set 2 failed"
	if [[ $ns == "$A" ]]; then
		# A holds key 2, C only key 1: C must still resolve A, whose ARP
		# reply (signed end to end) carries a trailer of each key
		ip -n "$A" neigh flush dev r2c0 && ip -n "$C" neigh flush dev r2c0 &&
		ip netns exec "$C" ping -n -q -c 1 -W 2 10.42.0.1 >/dev/null 2>&1
		check_err $? "C (key 1) cannot resolve and ping A (key 2) during the rotation"
	else
		sleep 1
	fi
done
ip netns exec "$B" r2c2ctl -j key show | json_assert '.id == 2 and .prev_id == 1'
check_err $? "B: key 1 not kept for the overlap"
ip netns exec "$A" ping -c 2 -W 2 10.42.0.3 >/dev/null
check_err $? "A cannot ping C during the rotation"
after
[[ $(sum_d drop_auth) == 0 && $(sum_d drop_replay) == 0 ]] && converged
check_err $? "during the rotation: drop_auth +$(sum_d drop_auth), drop_replay +$(sum_d drop_replay)"
log_test "rotation one node at a time: no frame refused, no adjacency lost"

RET=0
# shellcheck disable=SC2016
wait_until 15 bash -c 'for ns in '"${NODES[*]}"'; do
	ip netns exec $ns r2c2ctl -j key show | json_assert "has(\"prev_id\") | not" 2>/dev/null || exit 1
done'
check_err $? "key 1 still accepted after the overlap"
sleep 3
after
[[ $(sum_d drop_auth) == 0 ]] && converged
check_err $? "after the overlap: drop_auth +$(sum_d drop_auth)"
ip netns exec "$A" ping -c 2 -W 2 10.42.0.3 >/dev/null
check_err $? "A cannot ping C after the overlap"
log_test "after the overlap every node sends with key 2"

# ---------------------------------------------------------------- 5
RET=0
keys del
check_err $? "key del failed"
sleep 2
wait_until 20 converged
before
forge_all forge
# the forged neighbour times out 3.5 hello intervals after its last hello
nbr=$(p3_nbr)
accepted() { (($(p3 hello_rx) > 0 && $(p3 bcast_rx) > 0)); }
after_until 10 accepted
log_info "forged $FORGED: B p3 hello_rx +$(p3 hello_rx) bcast_rx +$(p3 bcast_rx) drop_auth +$(p3 drop_auth); p3 neighbour $nbr"
[[ $(p3 drop_auth) == 0 && $(p3 hello_rx) -gt 0 && $(p3 bcast_rx) -gt 0 ]]
check_err $? "forgeries not accepted without a key"
[[ $nbr == 99 ]]
check_err $? "B does not hear the forged neighbour 99 on p3"
knows77
check_err $? "B did not learn the forged node 77"
log_test "without a key the same forgeries are accepted"

# The forgeries of 3c without a key reach r2c0: the two broadcasts are
# taken on B's p3 (one of each pair may be behind C's sequence, a
# duplicate) and the ARP reply is delivered, none refused by the address
# check. The ARP reply and the ND solicitation then leave B's entry of
# one of A's addresses at C's MAC. (The forged ARP request reaches r2c0
# too and moves the entry, but not for long: B's ping made A's entry of
# B, and 5 s later (delay_first_probe_time) A probes B with a unicast
# request of its own, which puts A's MAC back. Watched with `ip monitor
# neigh` on 6.12: moved 0.1 s after the forgery, back 2.3 s later, 70 ms
# before the log line read it; the line saw C's MAC in one run of four.
# Its entry is logged, not checked.) So 3c's refusals are the key's.
RET=0
for what in arp_req arp_rep nd; do
	ip=10.42.0.1
	[[ $what == nd ]] && ip=fd42::1
	ip -n "$B" neigh flush dev r2c0
	wait_until 20 b_knows_a
	check_err $? "$what: B's entries of A: $(lladdr 10.42.0.1), $(lladdr fd42::1)"
	sleep 1.2
	before
	forge_nbr "$what" || check_err 1 "r2c2_ctlflood: $what failed"
	if [[ $what == arp_req ]]; then
		taken() { (($(p3 bcast_rx) >= 1)); }
		after_until 5 taken
		check_err $? "arp_req without a key not taken on B's p3: bcast_rx +$(p3 bcast_rx), drop_dup +$(p3 drop_dup)"
	else
		wait_until 5 lladdr_is "$ip" "$C_MAC"
		check_err $? "$what without a key not believed: $ip at $(lladdr "$ip"), want $C_MAC"
		after
	fi
	[[ $(d "$B" drop_lladdr) == 0 && $(d "$B" drop_auth) == 0 ]]
	check_err $? "$what: drop_lladdr +$(d "$B" drop_lladdr), drop_auth +$(d "$B" drop_auth) without a key"
	log_info "$what: B p3 bcast_rx +$(p3 bcast_rx) drop_dup +$(p3 drop_dup); B delivered +$(d "$B" delivered); $ip at $(lladdr "$ip")"
done
log_test "without a key ARP and ND forged in C's name reach r2c0 and are believed"

# 3b without a key: B takes the six forged broadcasts, 4,000 ahead of A's
# captured sequence, and A's next flow events must still reach C: the
# forged BCAST_ETH frames move only the window of A's BCAST_ETH. With one
# window for both kinds (the code before it had its own), B took each
# event for a duplicate and C heard none.
RET=0
eth_ahead 4000 $((0xa0a10000))
(($(p3 bcast_rx) == 6 && $(p3 drop_auth) == 0))
check_err $? "without a key B's p3 took $(p3 bcast_rx) of the 6 forged broadcasts, refused $(p3 drop_auth)"
log_test "without a key BCAST_ETH forged ahead of A's sequence is taken, A's flow events still heard"

# Without a key a replay meets duplicate suppression alone: two FLOW
# frames of A, captured as they leave A's p0 and sent unchanged into B's
# p3 right after B had them from A, are duplicates (the older inside the
# window, the newer its top): drop_dup, none accepted.
RET=0
DPCAP=$FABRIC_TMP/a_flow.pcap
ip netns exec "$A" tcpdump -i p0 -U -w "$DPCAP" -s 1600 \
	'ether proto 0x88b5 and ether[14] = 0x15' 2>"$FABRIC_TMP/dup.err" &
dpid=$!
cleanup_add "kill $dpid 2>/dev/null"
busywait 10000 grep -q 'listening on' "$FABRIC_TMP/dup.err" >/dev/null
check_err $? "tcpdump on A's p0 did not start: $(cat "$FABRIC_TMP/dup.err")"
ip netns exec "$A" r2c2ctl event send flow 0x2001 dst 3 &&
	ip netns exec "$A" r2c2ctl event send flow 0x2002 dst 3
check_err $? "A: event send failed"
two_flows() { "$(tool r2c2_replay)" -s "$DPCAP" -l 2>/dev/null | json_assert '.flow == 2' >/dev/null; }
wait_until 10 two_flows
check_err $? "A's two FLOW frames not captured: $("$(tool r2c2_replay)" -s "$DPCAP" -l 2>&1)"
kill "$dpid"; wait "$dpid" 2>/dev/null
before
out=$(ip netns exec "$M" "$(tool r2c2_replay)" -i inj0 -m "$B_P3_MAC" -s "$DPCAP" asis flow)
check_err $? "replay failed"
n=$(jq -r .sent <<<"$out")
all_dups() { [[ $(p3 drop_dup) == "$n" ]]; }
after_until 10 all_dups
log_info "replayed $out: B p3 drop_dup +$(p3 drop_dup) bcast_rx +$(p3 bcast_rx)"
[[ $n == 2 && $(p3 drop_dup) == 2 && $(p3 bcast_rx) == 0 ]]
check_err $? "want 2 frames replayed, drop_dup 2 and nothing accepted on B's p3"
log_test "without a key A's FLOW frames replayed: both duplicates, none accepted"

# ---------------------------------------------------------------- 6
RET=0
before
ip netns exec "$A" r2c2ctl key set 5 "$KEY1"
check_err $? "key set on A failed"
a_refuses() { (($(d "$A" drop_auth) > 0)); }
after_until 10 a_refuses
[[ $(d "$A" drop_auth) -gt 0 ]]
check_err $? "A (keyed) did not drop B's frames: drop_auth +$(d "$A" drop_auth)"
ip netns exec "$B" r2c2ctl -j neigh show | json_assert 'any(.[]; .addr == 1)'
check_err $? "B (no key) no longer hears A"
kernel_healthy
check_err $? "kernel unhealthy"
log_test "mixed: the keyed node drops the other's frames, nothing breaks"

ksft_exit
