# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# torus.sh - build an r2c2 torus out of network namespaces (one per node)
# joined by veth pairs. Source it after lib.sh:
#
#	source "$lib_dir/lib.sh"
#	source "$lib_dir/torus.sh"
#	require_r2c2
#	torus_create 3 3
#	torus_wait_converged 30 || ...
#	ip netns exec "$(torus_ns 0)" ping -c1 "$(torus_addr4 8)"
#	torus_destroy            # also done at exit
#
# Node id = x + k1 * (y + k2 * z); namespace r2c2-<id>. In every node and
# dimension d, port 2d (device p<2d>) goes in the + direction and is joined
# to port 2d+1 (p<2d+1>, the - direction) of the next node along d, with
# wrap-around:
#
#	 r2c2-0            r2c2-1            r2c2-2       (a 3x1 ring, d = 0)
#	 p1  [0]  p0 ---- p1  [1]  p0 ---- p1  [2]  p0 --.
#	  '----------------------------------------------'
#
# Each node is then configured with r2c2ctl:
#	r2c2ctl node set addr ID topology torus:K1[xK2[xK3]]
#	r2c2ctl port add P dev pP        (every port)
# and r2c0 gets 10.42.<id/256>.<id%256>/16 and fd42::<id in hex>/64 (and
# its EUI-64 link-local address), all without DAD.

TORUS_DIMS=()
TORUS_N=0
TORUS_NS=()
R2C2CTL=${R2C2CTL:-r2c2ctl}

torus_ns() { printf 'r2c2-%d\n' "$1"; }
torus_addr4() { printf '10.42.%d.%d\n' $(($1 / 256)) $(($1 % 256)); }
torus_addr6() { printf 'fd42::%x\n' "$1"; }
torus_nodes() { seq 0 $((TORUS_N - 1)); }

# torus_progress MSG: with TORUS_PROGRESS set, print MSG with the seconds
# since torus_create started and the guest CPU time (user, system,
# softirq, idle; all vCPUs) since the previous call, so that a large
# torus shows where its setup time goes.
TORUS_T0=
TORUS_CPU0=()
# softnet_drops: frames dropped at the per-CPU backlogs since boot
softnet_drops()
{
	local _p d _r sum=0

	while read -r _p d _r; do
		sum=$((sum + 16#$d))
	done </proc/net/softnet_stat
	echo "$sum"
}

torus_progress()
{
	local now cpu=() dt=() i hz

	[[ -n ${TORUS_PROGRESS:-} ]] || return 0
	hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
	now=${EPOCHREALTIME/,/.}
	read -r -a cpu < <(sed -n 's/^cpu  //p' /proc/stat)
	if ((${#TORUS_CPU0[@]})); then
		for i in 0 2 6 3; do	# user system softirq idle, in USER_HZ
			dt+=($(((cpu[i] - TORUS_CPU0[i]) * 100 / hz)))
		done
	fi
	TORUS_CPU0=("${cpu[@]}")
	printf '# torus %s: %s at %.1fs (cpu since the last mark: usr %s sys %s si %s idle %s cs; backlog drops %s)\n' \
		"$(IFS=x; echo "${TORUS_DIMS[*]}")" "$1" \
		"$(awk -v a="$now" -v b="${TORUS_T0:-$now}" 'BEGIN {print a - b}')" \
		"${dt[0]:-?}" "${dt[1]:-?}" "${dt[2]:-?}" "${dt[3]:-?}" \
		"$(softnet_drops)"
}

# torus_exec ID CMD...: run a command in node ID's namespace.
torus_exec()
{
	local id=$1; shift

	ip netns exec "$(torus_ns "$id")" "$@"
}

# torus_coord ID D: coordinate of node ID along dimension D.
torus_coord()
{
	local id=$1 d=$2 i

	for ((i = 0; i < d; i++)); do
		id=$((id / TORUS_DIMS[i]))
	done
	echo $((id % TORUS_DIMS[d]))
}

# torus_nbr ID D: the node after ID along dimension D (with wrap-around).
torus_nbr()
{
	local id=$1 d=$2 stride=1 i c

	for ((i = 0; i < d; i++)); do
		stride=$((stride * TORUS_DIMS[i]))
	done
	c=$(( (id / stride) % TORUS_DIMS[d] ))
	echo $((id - c * stride + ((c + 1) % TORUS_DIMS[d]) * stride))
}

# torus_create K1 K2 [K3]: namespaces, veth links and r2c2 configuration.
# Under TCG every process start costs 50-200 ms, so the work is done in
# batches: all namespaces in one `ip -batch`, all veth pairs in another,
# one `ip -n NS -batch` per node for its links and lo, every node's r2c2
# configuration in one `r2c2ctl -b`, and one `ip -n NS -batch` per node
# for r2c0 (two nodes at a time). TORUS_R2C0=down
# leaves r2c0 down (addresses still set). With TORUS_PROGRESS set, prints
# the time and guest CPU of every phase.
torus_create()
{
	local k topo id d nbr p ns cmds

	if (($# < 2 || $# > 3)); then
		echo "torus_create: usage: torus_create K1 K2 [K3]" >&2
		return 1
	fi
	for k in "$@"; do
		if ! [[ $k =~ ^[0-9]+$ ]] || ((k < 2)); then
			echo "torus_create: each dimension needs at least 2 nodes: $k" >&2
			return 1
		fi
	done
	TORUS_DIMS=("$@")
	TORUS_N=1
	for k in "$@"; do
		TORUS_N=$((TORUS_N * k))
	done
	topo=torus:$(IFS=x; echo "$*")
	TORUS_T0=${EPOCHREALTIME/,/.}
	TORUS_CPU0=()
	# Every node of the rack shares this kernel's per-CPU backlogs (a
	# real node has its own): one LSA flooded through 8x8x8 is 3,072
	# frames, and with the default 1,000 the floods of a large rack
	# drop hellos, neighbours expire and their LSAs flood again.
	if ((TORUS_N > 100)) &&
	   (($(sysctl -n net.core.netdev_max_backlog) < 50 * TORUS_N)); then
		sysctl -qw net.core.netdev_max_backlog=$((50 * TORUS_N))
	fi
	torus_progress "start, $TORUS_N nodes"

	# Namespaces (leftovers of an aborted run are deleted first).
	cmds=
	for id in $(torus_nodes); do
		ns=$(torus_ns "$id")
		[[ -e /run/netns/$ns || -e /var/run/netns/$ns ]] && ip netns del "$ns"
		cmds+="netns add $ns"$'\n'
		NS_LIST+=("$ns")
		TORUS_NS+=("$ns")
	done
	ip -batch - <<<"$cmds" ||
		{ echo "torus_create: creating the namespaces failed" >&2; return 1; }
	torus_progress "$TORUS_N namespaces"

	# Links: port 2d of each node to port 2d+1 of the next node along d
	# (up in torus_node_addrs: a veth cannot be created up, its peer
	# does not exist yet when it would be opened).
	cmds=
	for id in $(torus_nodes); do
		for ((d = 0; d < ${#TORUS_DIMS[@]}; d++)); do
			nbr=$(torus_nbr "$id" "$d")
			cmds+="link add p$((2 * d)) netns $(torus_ns "$id") type veth"
			cmds+=" peer name p$((2 * d + 1)) netns $(torus_ns "$nbr")"$'\n'
		done
	done
	ip -batch - <<<"$cmds" ||
		{ echo "torus_create: creating the veth links failed" >&2; return 1; }
	torus_progress "$((TORUS_N * ${#TORUS_DIMS[@]})) veth pairs"

	# Links and lo up: one ip a node, two at a time (the VM has two
	# vCPUs). Before r2c2 is configured, so that the nodes join the
	# rack (hellos, LSAs, every node recomputing its tables) within
	# the one r2c2ctl below rather than one by one.
	torus_each_node torus_node_up || return 1
	torus_progress "links up on $TORUS_N nodes"

	# r2c2 nodes and ports: one r2c2ctl for the whole torus (-b, a line
	# per command, each with its namespace). Under TCG every process
	# start costs 50-200 ms: a shell and 1 + 2 * ndims r2c2ctl a node
	# took 0.6 s a node on a 4x4x4.
	local nports=$((2 * ${#TORUS_DIMS[@]})) hello=${TORUS_HELLO_MS:-}
	# In a large test rack one kernel runs every node's hellos, floods
	# and tables: hellos every 3 s (a neighbour lost after 10.5 s of
	# silence) keep a busy guest from dropping neighbours it has.
	((TORUS_N <= 100)) || hello=${hello:-3000}
	cmds=
	for id in $(torus_nodes); do
		ns=$(torus_ns "$id")
		cmds+="-n $ns node set addr $id topology $topo${hello:+ hello $hello}"$'\n'
		for ((p = 0; p < nports; p++)); do
			cmds+="-n $ns port add $p dev p$p"$'\n'
		done
	done
	"$R2C2CTL" -b - <<<"$cmds" ||
		{ echo "torus_create: configuring r2c2 failed" >&2; return 1; }
	torus_progress "r2c2 configured on $TORUS_N nodes"
	# the XDP transit program on every port (fabric.sh: xdp_setup)
	if [[ -n ${R2C2_TEST_XDP:-} ]]; then
		cmds=
		for id in $(torus_nodes); do
			cmds+="-n $(torus_ns "$id") xdp attach mode $R2C2_TEST_XDP"$'\n'
		done
		"$R2C2CTL" -b - <<<"$cmds" >/dev/null ||
			{ echo "torus_create: attaching XDP ($R2C2_TEST_XDP) failed" >&2; return 1; }
		torus_progress "XDP ($R2C2_TEST_XDP) on $TORUS_N nodes"
	fi

	torus_each_node torus_node_addrs || return 1
	torus_progress "r2c0 addressed on $TORUS_N nodes"
}

# torus_each_node FN: FN ID for every node, two at a time.
torus_each_node()
{
	local id p pids=() rc=0

	for id in $(torus_nodes); do
		"$1" "$id" &
		pids+=($!)
		if ((${#pids[@]} == 2)); then
			wait "${pids[0]}" || rc=1
			wait "${pids[1]}" || rc=1
			pids=()
			(((id + 1) % 128)) || torus_progress "$1: $((id + 1)) nodes"
		fi
	done
	for p in "${pids[@]}"; do
		wait "$p" || rc=1
	done
	return "$rc"
}

# torus_node_up ID: links and lo up, of one node of torus_create.
torus_node_up()
{
	local id=$1 p cmds="link set lo up"$'\n'

	for ((p = 0; p < 2 * ${#TORUS_DIMS[@]}; p++)); do
		cmds+="link set p$p up"$'\n'
	done
	ip -n "$(torus_ns "$id")" -batch - <<<"$cmds" ||
		{ echo "torus_create: links of node $id failed" >&2; return 1; }
}

# torus_node_addrs ID: r2c0 up with its addresses, of one node of
# torus_create. The link-local address is r2c0's EUI-64 one (MAC
# 02:52:32:43:<id>), added without DAD like the others, so that every
# address is usable at once.
torus_node_addrs()
{
	local id=$1

	ip -n "$(torus_ns "$id")" -batch - <<-EOF ||
		link set r2c0 addrgenmode none
		addr add fe80::52:32ff:fe43:$(printf '%x' "$id")/64 dev r2c0 nodad
		link set r2c0 ${TORUS_R2C0:-up}
		addr add $(torus_addr4 "$id")/16 dev r2c0
		addr add $(torus_addr6 "$id")/64 dev r2c0 nodad
	EOF
		{ echo "torus_create: addresses of node $id failed" >&2; return 1; }
}

# Number of nodes the r2c2 instance in namespace $1 knows ("nodes" of
# `r2c2ctl -j node show`); empty if unknown.
torus_known_nodes()
{
	local out

	out=$(ip netns exec "$1" "$R2C2CTL" -j node show 2>/dev/null) || return 0
	if command -v jq >/dev/null 2>&1; then
		jq -r 'if type == "array" then .[0].nodes else .nodes end // empty' \
			<<<"$out" 2>/dev/null
	else
		sed -n 's/.*"nodes"[[:space:]]*:[[:space:]]*\([0-9][0-9]*\).*/\1/p' <<<"$out" |
			head -n 1
	fi
}

# torus_wait_converged TIMEOUT: wait until every node knows all TORUS_N
# nodes (hello + link-state flooding). Prints the laggards on timeout.
torus_wait_converged()
{
	local timeout=${1:-30} deadline ns n pending

	deadline=$((SECONDS + timeout))
	while true; do
		pending=()
		for ns in "${TORUS_NS[@]}"; do
			n=$(torus_known_nodes "$ns")
			[[ $n == "$TORUS_N" ]] || pending+=("$ns:${n:-?}")
		done
		((${#pending[@]} == 0)) && return 0
		if ((SECONDS >= deadline)); then
			printf '# torus not converged after %ss (want %d nodes): %s\n' \
				"$timeout" "$TORUS_N" "${pending[*]}"
			return 1
		fi
		sleep 0.2
	done
}

# torus_destroy: delete the torus namespaces (their veths go with them).
torus_destroy()
{
	local ns

	for ns in "${TORUS_NS[@]}"; do
		ns_del "$ns"
	done
	TORUS_NS=()
	TORUS_DIMS=()
	TORUS_N=0
}
