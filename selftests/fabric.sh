# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# fabric.sh - helpers shared by the r2c2 fabric selftests (torus, links,
# bcast, malformed, lifecycle, netlink): the helper programs of
# selftests/tools, counter snapshots, kernel health, traffic. Source it
# after lib.sh (and torus.sh when a torus is used):
#
#	source "$lib_dir/lib.sh"
#	source "$lib_dir/torus.sh"
#	source "$lib_dir/fabric.sh"
#	require_tools r2c2_snap r2c2_pingall
#
# Everything here keeps the number of processes low: under TCG every
# process start costs 50-200 ms, and the tests run on two kernels within
# CI's time budget.

TOOLS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/tools" && pwd)
FABRIC_TMP=$(mktemp -d)
cleanup_add "rm -rf $FABRIC_TMP"

# tool NAME: path of a helper program (selftests/tools/NAME, else PATH)
tool()
{
	if [[ -x $TOOLS_DIR/$1 ]]; then
		echo "$TOOLS_DIR/$1"
	else
		command -v "$1"
	fi
}

# require_tools NAME...: skip the test file when a helper is not built.
require_tools()
{
	local t

	for t in "$@"; do
		[[ -n $(tool "$t") ]] ||
			ksft_skip_all "selftests/tools/$t not built (make -C selftests/tools)"
	done
}

# ---------------------------------------------------------------- kernel
# Taint bits of a kernel warning (9), oops (7) and bad page (5).
KERNEL_BAD_TAINT=$(((1 << 5) | (1 << 7) | (1 << 9)))
KERNEL_TAINT0=$(cat /proc/sys/kernel/tainted)
KERNEL_DMESG0=$(dmesg 2>/dev/null | wc -l)

# kernel_healthy: no new WARN/oops taint and no WARNING/BUG/Oops line in
# the kernel log since the test started (the VM runs with panic_on_warn,
# so there this only fires without it, e.g. under vng). Prints the lines.
kernel_healthy()
{
	local t bad lines

	t=$(cat /proc/sys/kernel/tainted)
	bad=$(((t & ~KERNEL_TAINT0) & KERNEL_BAD_TAINT))
	lines=$(dmesg 2>/dev/null | tail -n +"$((KERNEL_DMESG0 + 1))" |
		grep -E 'WARNING:|BUG:|Oops|general protection|refcount_t:|UBSAN|KASAN|unregister_netdevice: waiting')
	if ((bad)) || [[ -n $lines ]]; then
		printf '# kernel: tainted %d (new bad bits %d)\n' "$t" "$bad"
		[[ -z $lines ]] || printf '# %s\n' "${lines//$'\n'/$'\n'# }"
		return 1
	fi
	return 0
}

# ---------------------------------------------------------------- counters
# snap FILE [-p] NS...: counters of the namespaces as JSON lines
# (r2c2_snap; -p adds the ports).
snap()
{
	local file=$1; shift

	"$(tool r2c2_snap)" "$@" >"$file"
}

# node_stat NS COUNTER: one node counter of namespace NS, live ("?" and
# false when the module has no such counter)
node_stat()
{
	local v

	v=$(ip netns exec "$1" r2c2ctl -j stats show | jq -r ".$2")
	[[ $v =~ ^[0-9]+$ ]] || { echo "?"; return 1; }
	echo "$v"
}

# snap_reset NS...: zero the counters of the namespaces.
snap_reset()
{
	"$(tool r2c2_snap)" -r "$@"
}

# torus_namespaces: the namespaces of the torus, in node order.
torus_namespaces()
{
	local id

	for id in $(torus_nodes); do
		torus_ns "$id"
	done
}

# torus_ready: one r2c2_snap of the whole torus says every node knows
# TORUS_N nodes and 2 * ndims * TORUS_N directed links, matches the
# declared torus and hears a neighbour on every port. Sets TORUS_LAGGARDS.
torus_ready()
{
	local links=$((2 * ${#TORUS_DIMS[@]} * TORUS_N))

	# shellcheck disable=SC2046  # one word per namespace
	snap "$FABRIC_TMP/ready" -p $(torus_namespaces) 2>/dev/null
	TORUS_LAGGARDS=$(jq -r --argjson n "$TORUS_N" --argjson l "$links" \
		--argjson p "$((2 * ${#TORUS_DIMS[@]}))" '
		select(.nodes != $n or .links != $l or .topology_ok != true or
		       ([.ports[] | select(.state == 2)] | length) != $p)
		| "\(.ns):nodes=\(.nodes),links=\(.links),ok=\(.topology_ok)"' \
		"$FABRIC_TMP/ready" 2>&1 | tr '\n' ' ')
	[[ -s $FABRIC_TMP/ready && -z $TORUS_LAGGARDS ]]
}

# torus_wait_ready TIMEOUT_S: wait for torus_ready. Used instead of
# torus.sh's torus_wait_converged, which starts r2c2ctl twice a node a
# round (seconds per round on a 3x3x3 under TCG): here a round is one
# process for the whole torus, and it checks links, topology_ok and the
# ports too.
torus_wait_ready()
{
	if ! wait_until "$1" torus_ready; then
		printf '# torus not ready after %ss: %s\n' "$1" "$TORUS_LAGGARDS"
		return 1
	fi
}

# link_data FILE: "NODE PORT COUNT" for every port of a snapshot taken
# with -p, COUNT = forwarded + originated: the data frames that left by
# the port, i.e. that the link (NODE, PORT) carried. NODE is the address.
link_data()
{
	jq -r '.addr as $a | .ports[] |
		"\($a) \(.port) \(.stats.forwarded + .stats.originated)"' "$1"
}

# ---------------------------------------------------------------- traffic
# udp_blast NS DST_NODE DST_IP COUNT [LEN]: send COUNT UDP datagrams of
# LEN bytes (default 64) from namespace NS to DST_IP, which is reached
# through a permanent neighbour entry pointing at node DST_NODE's r2c0
# MAC, so that no ARP precedes or follows them. One socket (bash's
# /dev/udp), hence one flow. Nothing comes back: pick a DST_IP the
# destination does not own and it drops the packets silently (forwarding
# is off in a new namespace), after r2c2 counted them delivered.
# Paced, 2 ms after every 16 datagrams: an unpaced sender outruns the
# softirqs under TCG and every hop's veth backlog (netdev_max_backlog)
# overflows, which is a test of veth, not of r2c2.
udp_blast()
{
	local ns=$1 node=$2 ip=$3 count=$4 len=${5:-64}

	ip -n "$ns" neigh replace "$ip" dev r2c0 nud permanent \
		lladdr "$(r2c2_mac "$node")" || return 1
	rm -f "$FABRIC_TMP/pace"
	mkfifo "$FABRIC_TMP/pace" || return 1
	# shellcheck disable=SC2016  # expanded by the inner bash
	ip netns exec "$ns" bash -c '
		payload=$(printf "%*s" "$3" "")
		exec 3>"/dev/udp/$1/9" || exit 1
		exec 4<>"$4"		# a FIFO nobody writes: read -t sleeps
		for ((i = 1; i <= $2; i++)); do
			printf "%s" "$payload" >&3 || exit 1
			((i % 16)) || read -r -t 0.002 -u 4
		done
		exit 0' _ "$ip" "$count" "$len" "$FABRIC_TMP/pace"
}

# r2c2_mac ADDR: the MAC of node ADDR's r2c0 (02:52:32:43:hi:lo).
r2c2_mac()
{
	printf '02:52:32:43:%02x:%02x\n' $(($1 >> 8)) $(($1 & 255))
}

# ---------------------------------------------------------------- reachability
# pingall_from NS FAMILY ADDR...: r2c2_pingall in NS (FAMILY 4 or 6);
# prints the addresses that never answered.
pingall_from()
{
	local ns=$1 fam=$2; shift 2
	local six=()

	[[ $fam == 6 ]] && six=(-6)
	ip netns exec "$ns" "$(tool r2c2_pingall)" "${six[@]}" -q -W 3000 -c 2 "$@"
}

# torus_all_pairs FAMILY: every node pings every other node (one
# r2c2_pingall per source, all sources at once); prints "SRC->ADDR" for
# every pair without an answer and returns 1 if there is one.
torus_all_pairs()
{
	local fam=$1 id d addrs=() pids=() rc=0 line

	for id in $(torus_nodes); do
		addrs=()
		for d in $(torus_nodes); do
			((d == id)) && continue
			if [[ $fam == 6 ]]; then
				addrs+=("$(torus_addr6 "$d")")
			else
				addrs+=("$(torus_addr4 "$d")")
			fi
		done
		pingall_from "$(torus_ns "$id")" "$fam" "${addrs[@]}" \
			>"$FABRIC_TMP/pingall.$id" 2>&1 &
		pids+=($!)
	done
	for id in "${!pids[@]}"; do
		wait "${pids[id]}" || rc=1
	done
	for id in $(torus_nodes); do
		while read -r line; do
			[[ -n $line ]] && printf '%s->%s\n' "$id" "$line"
		done <"$FABRIC_TMP/pingall.$id"
	done
	return "$rc"
}

# lap [WHAT]: log the seconds since the previous lap (durations in the
# test's output, for keeping CI time in check); without WHAT, start.
FABRIC_LAP=$SECONDS
lap()
{
	[[ -z ${1:-} ]] || log_info "$1 in $((SECONDS - FABRIC_LAP))s"
	FABRIC_LAP=$SECONDS
}

# wait_until TIMEOUT_S CMD...: run CMD every 0.2 s until it succeeds;
# returns its last status (like lib.sh's busywait, in seconds, quiet).
wait_until()
{
	local deadline=$((SECONDS + $1)); shift

	until "$@"; do
		((SECONDS >= deadline)) && return 1
		sleep 0.2
	done
}

# ---------------------------------------------------------------- XDP
# R2C2_TEST_XDP=MODE (native, generic or auto): a test that calls
# xdp_setup for its nodes runs with the XDP transit program
# (xdp/r2c2_xdp.bpf.c) on every port of them, attached in MODE; unset,
# xdp_setup does nothing and the kernel path forwards. The xdp_*_test.sh
# files run a test so.
xdp_setup()
{
	local ns

	[[ -n ${R2C2_TEST_XDP:-} ]] || return 0
	for ns in "$@"; do
		ip netns exec "$ns" r2c2ctl xdp attach mode "$R2C2_TEST_XDP" \
			>/dev/null || return 1
	done
}

# line_injector A B C INJ [NODE_OPTS]: the line of nodes 1, 2, 3 in the
# namespaces A, B, C (A's p0 to B's p1, B's p0 to C's p1) and an injector
# INJ, no node, whose inj0 is joined to B's port 3 (p3): what r2c2_inject,
# r2c2_ctlflood and r2c2_replay write into reaches B as from a neighbour.
# r2c0 is up on the three, with 10.42.0.1/16 on A and 10.42.0.3/16 on C.
# NODE_OPTS: more words of `r2c2ctl node set` ("hello 100").
line_injector()
{
	local a=$1 b=$2 c=$3 inj=$4 opts=${5:-} ns

	for ns in "$a" "$b" "$c" "$inj"; do
		ns_create "$ns" || return 1
	done
	veth_link "$a" p0 "$b" p1 &&
	veth_link "$b" p0 "$c" p1 &&
	veth_link "$b" p3 "$inj" inj0 || return 1
	# shellcheck disable=SC2086  # opts are words
	ip netns exec "$a" r2c2ctl node set addr 1 $opts >/dev/null &&
	ip netns exec "$a" r2c2ctl port add 0 dev p0 &&
	ip netns exec "$b" r2c2ctl node set addr 2 $opts >/dev/null &&
	ip netns exec "$b" r2c2ctl port add 0 dev p0 &&
	ip netns exec "$b" r2c2ctl port add 1 dev p1 &&
	ip netns exec "$b" r2c2ctl port add 3 dev p3 &&
	ip netns exec "$c" r2c2ctl node set addr 3 $opts >/dev/null &&
	ip netns exec "$c" r2c2ctl port add 1 dev p1 || return 1
	for ns in "$a" "$b" "$c"; do
		ip -n "$ns" link set r2c0 up || return 1
	done
	ip -n "$a" addr add 10.42.0.1/16 dev r2c0 &&
	ip -n "$c" addr add 10.42.0.3/16 dev r2c0
}

# xdp_forwarded NS...: the frames the XDP programs of the namespaces
# forwarded (their own counters, summed over ports and namespaces)
xdp_forwarded()
{
	local ns sum=0 n

	for ns in "$@"; do
		n=$(ip netns exec "$ns" r2c2ctl -j xdp show |
			jq '[.ports[].forwarded // 0] | add // 0') || return 1
		sum=$((sum + n))
	done
	echo "$sum"
}
