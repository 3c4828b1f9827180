#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# links_test.sh - the per-link counters of a 4x4 r2c2 torus agree with the
# routes the routing protocols promise.
#
#	 12 --- 13 --- 14 --- 15 --     one namespace r2c2-<id> per node,
#	  |      |      |      |        id = x + 4y; p0/p1 along x (+/-),
#	  8 ---- 9 ---- 10 --- 11 --    p2/p3 along y; links wrap around.
#	  |      |     [D]     |
#	  4 ---- [E] -- 6 ---- 7 --     S = node 0, D = node 10: two hops
#	  |      |      |      |        along x and two along y, a tie in
#	 [S] --- 1 ---- 2 ---- 3 --     both dimensions (24 minimal paths);
#	  |      |      |      |        E = node 5, one hop each way.
#
# S sends N UDP datagrams to D (DOR, RPS, WLB) or E (VLB: D is antipodal to S,
# every node lies on a minimal path to it, and VLB would look like RPS)
# over r2c0: one flow, a permanent neighbour entry so no ARP, nothing
# comes back. Every port counts the data
# frames that left by it (forwarded + originated): that is what the link
# (node, port) carried. The routes are predicted offline by
# `r2c2ctl path weights`, from the same C (common/paths.c) the kernel
# samples its routes from:
#   DOR  exactly the dimension-order path carries N, every other link 0;
#   RPS, VLB, WLB  each link carries N * weight within 5 binomial sigma,
#        links of weight 0 carry nothing, every packet is delivered (WLB:
#        the kernel finds the torus's coordinates in its own tables);
# and the kernel's own sampling (`route get D count M`) meets the same
# bounds for several pairs and all four protocols.
# With R2C2_TEST_XDP (xdp_links_test.sh) every port runs the XDP transit
# program, the counters include its own, and every forwarded frame must
# have gone through it.

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

K=4
TOPO=torus:${K}x$K
S=0
FAKE=10.42.200.1		# no node's address: the destination drops them
SAMPLES=100000			# route get count

# weights PROTO SRC DST: `path weights` as JSON into $FABRIC_TMP/w.json
weights()
{
	r2c2ctl -j path weights --topology "$TOPO" --routing "$1" "$2" "$3" \
		>"$FABRIC_TMP/w.json"
}

# compare COUNTS N MODE: COUNTS is a JSON object {"node:port": count} or
# the JSON of `route get ... count N`; the weights are in
# $FABRIC_TMP/w.json. MODE exact (DOR) or binomial (RPS; VLB, whose
# routes may cross a link twice, with the variance bound w(2 - w)).
# Prints every link outside its bound and, last, the largest deviation
# in sigma; returns 1 if any link is outside.
compare()
{
	local out

	out=$(jq -r --argjson n "$2" --arg mode "$3" --slurpfile w "$FABRIC_TMP/w.json" '
		(if has("links") then
			(if .samples != $n then "FAIL: \(.samples) samples, not \($n)" else empty end),
			(.links | map({key: "\(.node):\(.port)", value: .count}) | from_entries)
		 else . end)
		| if type == "string" then . else
		. as $c
		| ($w[0].links | map({key: "\(.node):\(.port)", value: .weight})
		   | from_entries) as $W
		| ($w[0].routing == "vlb") as $vlb
		| [($c | keys[]), ($W | keys[])] | unique
		| map(. as $k | ($c[$k] // 0) as $got | ($W[$k] // 0) as $wt
			| ($n * $wt) as $mu
			| (if $vlb then $n * $wt * (2 - $wt) else $n * $wt * (1 - $wt) end
			   | if . < 0 then 0 else . end | sqrt) as $sd
			| (if $mode == "exact" or $wt == 0 then 0 else 5 * $sd + 1 end) as $tol
			| {k: $k, got: $got, mu: $mu, tol: $tol,
			   z: (if $sd > 0 then (($got - $mu) / $sd | fabs) else 0 end),
			   bad: ((($got - $mu) | fabs) > $tol + 1e-6)})
		| (.[] | select(.bad) | "FAIL: link \(.k): \(.got), expected \(.mu * 1000 | round / 1000) +- \(.tol * 10 | round / 10)"),
		  (if $mode == "exact" then "exact on \(length) links"
		   else "max \(map(.z) | max * 100 | round / 100) sigma over \(length) links" end)
		end' "$1" 2>&1)
	printf '%s\n' "$out"
	[[ -n $out && $out != *FAIL* && $out != *error* ]]
}

# Counters of all nodes with their ports into $FABRIC_TMP/snap.
snap_all()
{
	snap "$FABRIC_TMP/snap" -p "${NSS[@]}"
}

# counter NODE NAME: a node counter of the last snapshot
counter()
{
	jq -s --argjson a "$1" --arg c "$2" 'map(select(.addr == $a))[0].node[$c]' \
		"$FABRIC_TMP/snap"
}

# delivered_at NODE N: NODE delivered N data frames, per a new snapshot.
delivered_at()
{
	snap_all && [[ $(counter "$1" delivered) == "$2" ]]
}

# send PROTO DST N: counters reset, S's default routing PROTO, N
# datagrams to DST. Leaves the snapshot taken once DST has them all in
# $FABRIC_TMP/snap.
send()
{
	local proto=$1 dst=$2 n=$3

	torus_exec "$S" r2c2ctl node set routing "$proto" || return 1
	snap_reset "${NSS[@]}" || return 1
	udp_blast "$(torus_ns "$S")" "$dst" "$FAKE" "$n" || return 1
	if ! wait_until 30 delivered_at "$dst" "$n"; then
		echo "node $dst delivered $(counter "$dst" delivered) of $n," \
			"node $S originated $(counter "$S" originated), drops: $(drops)"
		return 1
	fi
	# that snapshot may have read nodes on the way before the last
	# frames passed them; everything has arrived now: read again
	snap_all
}

# link counts {"node:port": forwarded + originated} of the snapshot
link_counts()
{
	jq -s 'map(.addr as $a | .ports[] |
		{key: "\($a):\(.port)", value: (.stats.forwarded + .stats.originated)})
		| from_entries' "$FABRIC_TMP/snap" >"$FABRIC_TMP/counts"
}

# Drop counters summed over all nodes, except drop_dup (link-state
# flooding delivers duplicates by design); prints the non-zero ones.
drops()
{
	jq -s -r 'map(.node | to_entries[] | select(.key | startswith("drop_"))
		| select(.key != "drop_dup"))
		| group_by(.key) | map({k: .[0].key, v: (map(.value) | add)})
		| map(select(.v != 0) | "\(.k)=\(.v)") | join(" ")' "$FABRIC_TMP/snap"
}

# xdp_carried: with R2C2_TEST_XDP, every frame a node forwarded since
# the counters were reset went through its XDP program (the node's
# forwarded counter, which includes the program's, equals the program's
# own); without, true. XDP_MSG says what differed.
xdp_carried()
{
	local all x

	[[ -n ${R2C2_TEST_XDP:-} ]] || return 0
	all=$(jq -s 'map(.node.forwarded) | add' "$FABRIC_TMP/snap")
	x=$(xdp_forwarded "${NSS[@]}")
	XDP_MSG="the nodes forwarded $all frames, their XDP programs $x"
	[[ -n $x && $x == "$all" && $all -gt 0 ]]
}

# link_test PROTO DST N MODE
link_test()
{
	local proto=$1 dst=$2 n=$3 mode=$4 out d

	RET=0
	weights "$proto" "$S" "$dst"
	check_err $? "r2c2ctl path weights failed"
	out=$(send "$proto" "$dst" "$n")
	check_err $? "sending: $out"
	if ((RET == 0)); then
		link_counts
		out=$(compare "$FABRIC_TMP/counts" "$n" "$mode")
		check_err $? "links off the prediction: ${out//$'\n'/; }"
		log_info "$proto $S -> $dst, $n packets: ${out##*$'\n'}"
		d=$(drops)
		[[ -z $d ]]
		check_err $? "frames dropped: $d"
		d=$(counter "$S" originated)
		[[ $d == "$n" ]]
		check_err $? "S originated $d frames, not $n"
		xdp_carried
		check_err $? "$XDP_MSG"
	fi
	case $proto in
	dor) log_test "DOR $S->$dst: exactly the dimension-order path carried the $n packets" ;;
	*) log_test "${proto^^} $S->$dst: per-link packet counts match the path weights (5 sigma)" ;;
	esac
}

# route_get_test PROTO SRC DST
route_get_test()
{
	local proto=$1 s=$2 d=$3 mode=binomial

	[[ $proto == dor ]] && mode=exact
	weights "$proto" "$s" "$d" || return 1
	torus_exec "$s" r2c2ctl -j route get "$d" routing "$proto" count "$SAMPLES" \
		>"$FABRIC_TMP/rg.json" || return 1
	compare "$FABRIC_TMP/rg.json" "$SAMPLES" "$mode"
}

# ---------------------------------------------------------------- main
lap
RET=0
torus_create "$K" "$K"
check_err $? "torus_create $K $K"
torus_wait_ready 90
check_err $? "the torus did not converge"
log_test_or_exit "setup: $TOPO torus converged"
mapfile -t NSS < <(torus_namespaces)
lap "setup"

link_test dor 10 500 exact
link_test rps 10 2000 binomial
link_test vlb 5 2000 binomial
link_test wlb 10 2000 binomial
lap "packet tests"

RET=0
fails=()
for pair in "0 10" "0 5" "3 14"; do
	for proto in dor rps vlb wlb; do
		# shellcheck disable=SC2086  # pair is two words
		out=$(route_get_test $proto $pair) ||
			fails+=("$proto ${pair/ /->}: ${out//$'\n'/; }")
		log_info "route get $proto ${pair/ /->} x$SAMPLES: ${out##*$'\n'}"
	done
done
((${#fails[@]} == 0))
check_err $? "${fails[*]}"
log_test "route get count $SAMPLES: kernel sampling matches the path weights (3 pairs x 4 protocols)"
lap "route get"

RET=0
kernel_healthy
check_err $? "kernel warnings or oopses"
log_test "no kernel warning, oops or taint"

ksft_exit
