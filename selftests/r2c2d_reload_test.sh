#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# r2c2d_reload_test.sh - r2c2d survives its kernel module going away and
# coming back, under traffic, with no operator action on the daemon.
#
#	scripts/vm-run --kernel 6.1 -- selftests/run.sh r2c2d_reload_test.sh
#
#	  ns r2c2rl-0 (node 0)  p0 ---- p1  ns r2c2rl-1 (node 1)
#	  r2c0 10.42.0.1, sch_r2c2,         r2c0 10.42.0.2
#	  r2c2d, ping -f -> node 1
#
# With a flow from node 0 leased a rate by node 0's r2c2d, the qdisc and
# the nodes are removed and both modules unloaded (rmmod sch_r2c2 r2c2)
# while the ping runs. r2c2d must notice the "r2c2" generic netlink
# family going away (nlctrl's CTRL_CMD_DELFAMILY), keep running and say so
# (daemon show: kernel.family "gone"), and once the modules are loaded and
# the nodes configured again (a new family id, a new r2c0, a new qdisc)
# find the family under its new id by itself and push the flow's rate
# into the new qdisc. Before, r2c2d kept the old family id: every request
# failed with ENOENT and the new qdisc's flows never got a rate.

# functions called through busywait; cleanup_add evaluates later
# shellcheck disable=SC2317,SC2016
lib_dir=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"

require_root
require_cmd ip jq tc ping
require_module veth
require_r2c2
require_cmd r2c2d
ksft_plan 5

TMP=$(mktemp -d)
N0=r2c2rl-0
N1=r2c2rl-1
D_PID=
P_PID=
cleanup_add "rm -rf $TMP"
cleanup_add 'stop_pids $P_PID $D_PID'

# up: both nodes, their r2c0 addresses and node 0's qdisc
up()
{
	local i ns

	for i in 0 1; do
		ns=r2c2rl-$i
		ip netns exec "$ns" r2c2ctl node set addr "$i" hello 200 >/dev/null &&
		ip netns exec "$ns" r2c2ctl port add "$i" dev "p$i" &&
		ip -n "$ns" addr add "10.42.0.$((i + 1))/16" dev r2c0 &&
		ip -n "$ns" link set r2c0 up || return 1
	done
	tc -n "$N0" qdisc add dev r2c0 root r2c2
}

# unload MODULE: rmmod, retried for up to 5 s while the module is in use.
# A generic netlink dump holds a reference to its family's module until
# it ends, and r2c2d starts one every few milliseconds (QFLOW_GET, and
# NODE_GET while it waits): an rmmod that lands in one fails, "in use"
# when rmmod saw the reference itself, "Resource temporarily
# unavailable" (EWOULDBLOCK from delete_module()) when the dump began
# between rmmod's look at the module and its call. A reference that
# stays (a dump never finished) still fails the check.
unload()
{
	local i

	for ((i = 0; i < 50; i++)); do
		if rmmod "$1" 2>"$TMP/rmmod.err"; then
			((i == 0)) || log_info "rmmod $1: in use $i times, then unloaded"
			return 0
		fi
		grep -qE 'in use|Resource temporarily unavailable' \
			"$TMP/rmmod.err" || break
		sleep 0.1
	done
	echo "rmmod $1: $(cat "$TMP/rmmod.err"); refcnt $(cat "/sys/module/$1/refcnt" 2>&1)" >&2
	return 1
}

# down: the qdisc, the nodes (r2c0 with them), then both modules
down()
{
	tc -n "$N0" qdisc del dev r2c0 root &&
	ip netns exec "$N0" r2c2ctl node del &&
	ip netns exec "$N1" r2c2ctl node del &&
	unload sch_r2c2 && unload r2c2
}

daemon() { ip netns exec "$N0" r2c2ctl -j daemon show 2>/dev/null; }
# kernel_is JQ: node 0's daemon show, .kernel, satisfies JQ
kernel_is() { daemon | json_assert ".kernel | $1"; }

# leased: node 0's qdisc holds a flow with the rate r2c2d pushed for it
leased()
{
	local m q

	m=$(ip netns exec "$N0" r2c2ctl -j matrix show 2>/dev/null) &&
	q=$(ip netns exec "$N0" r2c2ctl -j qflow show 2>/dev/null) || return 1
	# shellcheck disable=SC2016  # a jq filter: $ is jq's
	json_assert -n --argjson m "$m" --argjson q "$q" '
		[$m.flows[] | select(.src == 0 and .pushed > 0)] as $own |
		($q | map({key: (.flow | ltrimstr("0x")), value: .rate}) |
		 from_entries) as $qr |
		($own | length) >= 1 and
		any($own[]; $qr[.flow] != null and
			(($qr[.flow] - .pushed) | fabs) <= 0.01 * .pushed)' \
		>/dev/null
}

# 1. a flow from node 0 with a rate from r2c2d
RET=0
modprobe r2c2 && modprobe sch_r2c2
check_err $? "modprobe r2c2 sch_r2c2"
# The namespaces of the tests run before this one die in the background
# (netns cleanup), their sch_r2c2 qdiscs with them; until then the module
# is in use. In a 6.12 TCG guest after r2c2d_reannounce_test, for more
# than 5 s. Wait for it, so that only this test's references count.
no_qdisc() { [[ $(cat /sys/module/sch_r2c2/refcnt) == 0 ]]; }
t0=$SECONDS
busywait 60000 no_qdisc
check_err $? "sch_r2c2 still in use (refcnt $(cat /sys/module/sch_r2c2/refcnt)) 60 s after the start"
((SECONDS - t0 < 1)) || log_info "sch_r2c2 in use by earlier tests' qdiscs for $((SECONDS - t0)) s"
ns_create "$N0" && ns_create "$N1" && veth_link "$N0" p0 "$N1" p1
check_err $? "namespaces and their veth"
up
check_err $? "configuring the nodes"
busywait 20000 ip netns exec "$N0" ping -c 1 -W 1 10.42.0.2 >/dev/null
check_err $? "node 1 does not answer over r2c0"
ip netns exec "$N0" r2c2d -o link_capacity=1G -o ga_interval_ms=0 -v \
	2>"$TMP/d.log" &
D_PID=$!
ip netns exec "$N0" ping -f -s 1000 10.42.0.2 >/dev/null 2>&1 &
P_PID=$!
busywait 20000 leased
check_err $? "no leased rate for node 0's flow: $(ip netns exec "$N0" r2c2ctl -j qflow show 2>&1)"
fam0=$(daemon | jq '.kernel.family_id')
log_test_or_exit "r2c2d on node 0 leases a rate to its flow (family id $fam0)"

# 2. both modules unloaded under the ping: r2c2d waits
RET=0
down
check_err $? "removing the qdisc, the nodes and the modules failed"
busywait 10000 kernel_is '.family == "gone"'
check_err $? "daemon show does not say the family is gone: $(daemon | jq -c .kernel)"
kill -0 "$D_PID" 2>/dev/null
check_err $? "r2c2d exited: $(tail -5 "$TMP/d.log")"
grep -q 'went away' "$TMP/d.log"
check_err $? "r2c2d did not log the module going away: $(tail -5 "$TMP/d.log")"
log_test "rmmod sch_r2c2 r2c2: r2c2d keeps running and reports the family gone"

# 3. loaded and configured again: r2c2d finds the new family by itself
RET=0
modprobe r2c2 && modprobe sch_r2c2 && up
check_err $? "loading and configuring again failed"
busywait 10000 kernel_is '.family == "up" and .returns == 1 and .losses == 1'
check_err $? "r2c2d did not find the family again: $(daemon | jq -c .kernel)"
fam1=$(daemon | jq '.kernel.family_id')
log_info "family id $fam0 before, $fam1 after; absent $(daemon | jq '.kernel.last_absence_ms') ms by r2c2d's count"
log_test "modprobe and the nodes again: r2c2d is back on the family (id $fam1)"

# 4. the ping's flow through the new qdisc gets its rate again
RET=0
busywait 20000 leased
check_err $? "no leased rate in the new qdisc: qflow $(ip netns exec "$N0" r2c2ctl -j qflow show 2>&1 | jq -c .); log $(tail -5 "$TMP/d.log")"
log_test "the flow in the new qdisc is leased the rate r2c2d pushed"

# 5. and unloading with r2c2d running is still clean
RET=0
stop_pids "$P_PID"
P_PID=
down
check_err $? "unloading again failed"
kill -0 "$D_PID" 2>/dev/null
check_err $? "r2c2d exited"
stop_pids "$D_PID"
D_PID=
log_test "unloaded again with r2c2d running"

ksft_exit
