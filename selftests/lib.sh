# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# lib.sh - helpers for r2c2 shell selftests, in the style of the kernel's
# tools/testing/selftests/net/forwarding/lib.sh, printing TAP.
#
# Source it at the top of a test (selftests/*_test.sh):
#
#	lib_dir=$(dirname "$0")
#	source "$lib_dir/lib.sh"
#
#	ns_create a; ns_create b
#	veth_link a va b vb
#	...
#	RET=0
#	ip netns exec a ping -c1 -W2 10.0.0.2 >/dev/null
#	check_err $? "no reply from b"
#	log_test "ping a -> b"
#	...
#	ksft_exit
#
# Do not use `set -e` in tests: a failing command is a result that
# check_err records, not a reason to stop. Exit codes follow kselftest:
# 0 pass, 1 fail, 4 skip.
#
# Namespaces created with ns_create are deleted on exit (trap on EXIT);
# add further cleanup with cleanup_add "command ...".

# shellcheck disable=SC2034  # some variables are for the tests

# ---------------------------------------------------------------- kselftest
ksft_pass=0
ksft_fail=0
ksft_skip=0
KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

R2C2_REPO=${R2C2_REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
TESTS_RUN=0
RET=0
retmsg=
EXIT_STATUS=0
VERBOSE=${VERBOSE:-0}

# The repo's own tools first on PATH, when built (outside the VM runner,
# which installs them in /usr/local/bin).
for _d in "$R2C2_REPO/userspace/r2c2ctl" "$R2C2_REPO/userspace/r2c2d"; do
	[ -d "$_d" ] && PATH=$_d:$PATH
done
unset _d
export PATH

# Record the first error of the current test: check_err STATUS MSG.
# A command's status 4 is a failure like any other: only log_test_skip
# (or RET=$KSFT_SKIP set on purpose) makes a check a SKIP.
check_err()
{
	local err=$1
	local msg=$2

	((err != KSFT_SKIP)) || err=$KSFT_FAIL
	if [[ $RET -eq 0 && $err -ne 0 ]]; then
		RET=$err
		retmsg=$msg
	fi
}

# Record an error if a command that must fail succeeded.
check_fail()
{
	local err=$1
	local msg=$2

	if [[ $RET -eq 0 && $err -eq 0 ]]; then
		RET=1
		retmsg=$msg
	fi
}

# json_assert: the one JSON check of the tests (json_assert.sh).
# shellcheck source=selftests/json_assert.sh
source "$(dirname "${BASH_SOURCE[0]}")/json_assert.sh"

# check_err or check_fail depending on $1 (0: expect success).
check_err_fail()
{
	local should_fail=$1; shift
	local err=$1
	local what=$2

	if ((should_fail)); then
		check_fail "$err" "$what succeeded, but should have failed"
	else
		check_err "$err" "$what failed"
	fi
}

# Print the TAP line of the current test and reset RET.
# log_test NAME [DETAIL]; a test that set RET=$KSFT_SKIP is reported as
# skipped with retmsg as the reason.
log_test()
{
	local name=$1
	local detail=${2:-}

	[[ -n $detail ]] && name="$name ($detail)"
	TESTS_RUN=$((TESTS_RUN + 1))
	if [[ $RET -eq 0 ]]; then
		ksft_pass=$((ksft_pass + 1))
		printf 'ok %d - %s\n' "$TESTS_RUN" "$name"
	elif [[ $RET -eq $KSFT_SKIP ]]; then
		ksft_skip=$((ksft_skip + 1))
		printf 'ok %d - %s # SKIP %s\n' "$TESTS_RUN" "$name" "$retmsg"
	else
		ksft_fail=$((ksft_fail + 1))
		EXIT_STATUS=1
		printf 'not ok %d - %s\n' "$TESTS_RUN" "$name"
		[[ -z $retmsg ]] || printf '# %s\n' "$retmsg"
	fi
	RET=0
	retmsg=
}

# Report a test as skipped: log_test_skip NAME REASON.
log_test_skip()
{
	RET=$KSFT_SKIP
	retmsg=$2
	log_test "$1"
}

# log_test_or_exit NAME [DETAIL]: log_test for a check the rest of the
# file depends on (a setup): when it failed (or was skipped), end the file
# with ksft_exit. log_test resets RET, so testing RET after it
# (`log_test ...; ((RET == 0)) || ksft_exit`) never ends anything.
log_test_or_exit()
{
	local ret=$RET

	log_test "$@"
	if ((ret != 0)); then
		printf '# "%s" did not pass: the checks after it cannot run\n' "$1"
		ksft_exit
	fi
}

log_info() { printf '# INFO: %s\n' "$*"; }

# unit_lines UNIT KEY: the command lines systemd unit UNIT (in $UNITDIR,
# default /lib/systemd/system) runs for KEY (ExecStart, ExecStop...),
# their leading "-"/"@"/"+"/"!" prefixes left out.
unit_lines()
{
	sed -n "s/^$2=[-@+!]*//p" "${UNITDIR:-/lib/systemd/system}/$1"
}

# ksft_plan N: announce N checks up front (TAP "1..N" first). Optional:
# without it ksft_exit prints the plan last, as TAP allows. With it a file
# that stops early (a bail-out, a timeout, a panic) has run.sh count each
# check it did not report as a failure; without it run.sh can only tell
# that the file ended without its plan (one failure).
KSFT_PLAN=
ksft_plan()
{
	KSFT_PLAN=$1
	printf '1..%d\n' "$KSFT_PLAN"
}

# Print the plan (unless ksft_plan did) and totals; exit 1 if anything
# failed or the number of checks is not the one planned, 4 if everything
# was skipped (or nothing ran), 0 otherwise.
ksft_exit()
{
	if [[ -z $KSFT_PLAN ]]; then
		printf '1..%d\n' "$TESTS_RUN"
	elif ((TESTS_RUN != KSFT_PLAN)); then
		printf '# planned %d checks, reported %d\n' "$KSFT_PLAN" "$TESTS_RUN"
		EXIT_STATUS=$KSFT_FAIL
	fi
	printf '# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:%d error:0\n' \
		"$ksft_pass" "$ksft_fail" "$ksft_skip"
	if ((ksft_fail > 0 || EXIT_STATUS != 0)); then
		exit "$KSFT_FAIL"
	elif ((ksft_pass == 0)); then
		exit "$KSFT_SKIP"
	fi
	exit "$KSFT_PASS"
}

# Skip the whole test file: ksft_skip_all REASON.
ksft_skip_all()
{
	printf '1..0 # SKIP %s\n' "$*"
	exit "$KSFT_SKIP"
}

require_root()
{
	[[ $(id -u) -eq 0 ]] || ksft_skip_all "needs root"
}

# require_cmd CMD...: skip the test if a command is missing.
require_cmd()
{
	local c

	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || ksft_skip_all "'$c' not found"
	done
}

# require_module MOD...: load in-tree kernel modules or skip the test.
require_module()
{
	local m

	for m in "$@"; do
		modprobe -q "$m" 2>/dev/null || [[ -d /sys/module/$m ]] ||
			ksft_skip_all "kernel module '$m' not available"
	done
}

# ---------------------------------------------------------------- r2c2 modules
# Load the r2c2 modules for the running kernel: modprobe (the VM runner
# installs build/<abi>/*.ko under /lib/modules/<abi>/updates), else insmod
# from build/$(uname -r)/ after loading their in-tree dependencies (vng
# on a workstation). Returns 4 if r2c2.ko is not available, 1 if loading
# failed.
r2c2_modules_load()
{
	local dir m ko d deps

	dir=$R2C2_REPO/build/$(uname -r)
	for m in r2c2 sch_r2c2; do
		[[ -d /sys/module/$m ]] && continue
		modprobe -q "$m" 2>/dev/null && continue
		ko=$dir/$m.ko
		if [[ ! -f $ko ]]; then
			[[ $m == r2c2 ]] && return "$KSFT_SKIP"
			continue
		fi
		deps=$(modinfo -F depends "$ko" 2>/dev/null)
		for d in ${deps//,/ }; do
			[[ -d /sys/module/$d ]] || modprobe -q "$d" || return 1
		done
		insmod "$ko" || return 1
	done
}

# require_qdisc_tools: the sch_r2c2 tests' tools, or skip the whole test:
# TC (the real tc, with the q_r2c2.so plugin) and FLOOD
# (selftests/tools/r2c2_udpflood); sch_r2c2.ko loaded.
require_qdisc_tools()
{
	TC=/usr/sbin/tc
	[[ -x $TC ]] || TC=$(command -v tc)
	FLOOD=$R2C2_REPO/selftests/tools/r2c2_udpflood
	[[ -x $FLOOD ]] || FLOOD=$(command -v r2c2_udpflood)
	[[ -x $FLOOD ]] ||
		ksft_skip_all "selftests/tools/r2c2_udpflood not built (make -C selftests/tools)"
	[[ -d /sys/module/sch_r2c2 ]] || ksft_skip_all "sch_r2c2.ko not loaded"
	$TC qdisc add dev lo root r2c2 help 2>&1 | grep -q initial_rate ||
		ksft_skip_all "tc has no r2c2 plugin (q_r2c2.so: make -C tc install)"
}

# Load the r2c2 modules or skip the whole test.
require_r2c2()
{
	local rc=0

	r2c2_modules_load || rc=$?
	case $rc in
	0) ;;
	4) ksft_skip_all "r2c2.ko not built for $(uname -r) (build/$(uname -r)/)" ;;
	*) printf '# could not load the r2c2 modules\n'; exit "$KSFT_FAIL" ;;
	esac
	require_cmd r2c2ctl
}

# ---------------------------------------------------------------- cleanup
CLEANUP_HOOKS=()
NS_LIST=()

# cleanup_add "command ...": run at exit, last added first.
cleanup_add()
{
	CLEANUP_HOOKS+=("$*")
}

lib_cleanup()
{
	local rc=$? i

	for ((i = ${#CLEANUP_HOOKS[@]} - 1; i >= 0; i--)); do
		eval "${CLEANUP_HOOKS[i]}" >/dev/null 2>&1 || true
	done
	CLEANUP_HOOKS=()
	ns_destroy_all
	return "$rc"
}
trap lib_cleanup EXIT

# stop_pids PID...: end background processes: SIGTERM, then SIGKILL
# after 5 s, reaping only those that are gone (a wait on a process stuck
# in the kernel would hang the test until run.sh's timeout).
stop_pids()
{
	local p alive=() i

	for p in "$@"; do
		kill "$p" 2>/dev/null && alive+=("$p")
	done
	for ((i = 0; i < 50; i++)); do
		local still=()

		for p in "${alive[@]}"; do
			# gone, or a zombie waiting for our wait
			[[ -e /proc/$p && $(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null) != Z ]] &&
				still+=("$p")
		done
		alive=("${still[@]}")
		((${#alive[@]} == 0)) && break
		((i == 25)) && kill -KILL "${alive[@]}" 2>/dev/null
		sleep 0.2
	done
	for p in "$@"; do
		if [[ " ${alive[*]} " == *" $p "* ]]; then
			log_info "process $p ($(tr '\0' ' ' </proc/"$p"/cmdline 2>/dev/null)) does not die; state $(awk '{ print $3 }' /proc/"$p"/stat 2>/dev/null)"
		else
			wait "$p" 2>/dev/null
		fi
	done
}

# ---------------------------------------------------------------- netns
# ns_create NAME: a fresh network namespace with lo up. A namespace of the
# same name left over by an aborted run is deleted first.
ns_create()
{
	local ns=$1

	if [[ -e /run/netns/$ns || -e /var/run/netns/$ns ]]; then
		ip netns del "$ns" 2>/dev/null
	fi
	ip netns add "$ns" || return 1
	NS_LIST+=("$ns")
	ip -n "$ns" link set lo up
}

# ns_del NAME: delete a namespace created by ns_create.
ns_del()
{
	local ns=$1 i

	ip netns del "$ns" 2>/dev/null
	for i in "${!NS_LIST[@]}"; do
		[[ ${NS_LIST[i]} == "$ns" ]] && unset 'NS_LIST[i]'
	done
	NS_LIST=("${NS_LIST[@]}")
}

ns_destroy_all()
{
	local ns

	for ns in "${NS_LIST[@]}"; do
		ip netns del "$ns" 2>/dev/null
	done
	NS_LIST=()
}

# ns_exec NS CMD...: run a command in a namespace.
ns_exec()
{
	local ns=$1; shift

	ip netns exec "$ns" "$@"
}

# veth_link NS1 IF1 NS2 IF2: a veth pair IF1 (in NS1) <-> IF2 (in NS2),
# both up. The devices are created directly in their namespaces, so names
# never clash in the current one.
veth_link()
{
	local ns1=$1 if1=$2 ns2=$3 if2=$4

	ip link add "$if1" netns "$ns1" type veth peer name "$if2" netns "$ns2" ||
		return 1
	ip -n "$ns1" link set "$if1" up && ip -n "$ns2" link set "$if2" up
}

# line2_create NS0 NS1: a two-node r2c2 line, NS0 node 0 and NS1 node 1
# (hellos every 100 ms), joined by a veth between their ports 0 (p0).
line2_create()
{
	ns_create "$1" && ns_create "$2" && veth_link "$1" p0 "$2" p0 &&
		ip netns exec "$1" r2c2ctl node set addr 0 hello 100 >/dev/null &&
		ip netns exec "$2" r2c2ctl node set addr 1 hello 100 >/dev/null &&
		ip netns exec "$1" r2c2ctl port add 0 dev p0 &&
		ip netns exec "$2" r2c2ctl port add 0 dev p0
}

# line_create NS...: an r2c2 line, one node a namespace: the Nth
# namespace is node N (hellos every 200 ms), its port 0 (p0) joined by a
# veth to the next one's port 1 (p1), r2c0 up with 10.42.0.<N+1>/16.
line_create()
{
	local ns=("$@") i

	for ((i = 0; i < ${#ns[@]}; i++)); do
		ns_create "${ns[i]}" || return 1
	done
	for ((i = 0; i + 1 < ${#ns[@]}; i++)); do
		veth_link "${ns[i]}" p0 "${ns[i + 1]}" p1 || return 1
	done
	for ((i = 0; i < ${#ns[@]}; i++)); do
		ip netns exec "${ns[i]}" bash -c "r2c2ctl node set addr $i hello 200 >/dev/null &&
			{ [[ ! -e /sys/class/net/p0 ]] || r2c2ctl port add 0 dev p0; } &&
			{ [[ ! -e /sys/class/net/p1 ]] || r2c2ctl port add 1 dev p1; }" &&
		ip -n "${ns[i]}" addr add "10.42.0.$((i + 1))/16" dev r2c0 &&
		ip -n "${ns[i]}" link set r2c0 up || return 1
	done
}

# ---------------------------------------------------------------- counters
# nstat_segs NS [COUNTER...]: namespace NS's IP counters since nstat's
# last call there (one nstat call, which starts the next interval), as
# "packets segments per_packet [value...]": the IP packets it received
# (IpInReceives), their segments (IpExtInNoECTPkts, which counts each
# segment of a GRO packet), segments per packet with two decimals (1.00
# when every frame goes up alone; 0.00 with no packets), then each
# COUNTER's increase.
nstat_segs()
{
	local netns=$1
	shift

	ip netns exec "$netns" nstat -z IpInReceives IpExtInNoECTPkts "$@" 2>/dev/null |
		awk -v names="$*" '
			{ v[$1] = $2 }
			END {
				r = v["IpInReceives"]; s = v["IpExtInNoECTPkts"]
				printf "%d %d %.2f", r, s, r ? s / r : 0
				n = split(names, c, " ")
				for (i = 1; i <= n; i++)
					printf " %d", v[c[i]]
				printf "\n"
			}'
}

# ---------------------------------------------------------------- waiting
# monitors_listen NS DST FILE...: wait (10 s at most) until each
# `r2c2ctl -j monitor` writing a FILE hears events: node NS sends a
# marker flow event (flow $MARKER_FLOW to DST) every half second until
# every FILE holds one. A monitor prints nothing until an event comes, so
# this is the only proof that it subscribed; checks that count events
# leave the marker's flow out.
MARKER_FLOW=0xfffffff0
monitors_listen()
{
	local ns=$1 dst=$2 try f heard
	shift 2

	for ((try = 0; try < 20; try++)); do
		ip netns exec "$ns" r2c2ctl event send flow "$MARKER_FLOW" dst "$dst" || return 1
		sleep 0.5
		heard=0
		for f in "$@"; do
			grep -q "\"$MARKER_FLOW\"" "$f" 2>/dev/null && heard=$((heard + 1))
		done
		((heard == $#)) && return 0
	done
	echo "# monitors_listen: $heard of $# monitors heard node $ns's marker"
	return 1
}

# busywait TIMEOUT_MS CMD...: retry CMD until it succeeds or TIMEOUT_MS
# passes; returns CMD's last status (and prints its last output).
busywait()
{
	local timeout_ms=$1; shift
	local start now out rc

	start=$(date +%s%3N)
	while true; do
		out=$("$@")
		rc=$?
		if ((rc == 0)); then
			[[ -z $out ]] || printf '%s\n' "$out"
			return 0
		fi
		now=$(date +%s%3N)
		if ((now - start > timeout_ms)); then
			[[ -z $out ]] || printf '%s\n' "$out"
			return "$rc"
		fi
		sleep 0.1
	done
}
