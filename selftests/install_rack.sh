#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# install_rack.sh - an installed r2c2 works from its installed files only.
# Run by "make check-install" (scripts/check-install.sh), which stages
# "make install DESTDIR=..." and passes it to vm-run as --install-tree: the
# tree is at /r2c2-install in the guest. Not in make check's list (no
# _test.sh suffix): without the tree there is nothing to test.
#
#	+-------------------------+          +-------------------------+
#	| ns inst-a   node 1      |          | ns inst-b   node 2      |
#	|  /etc/r2c2/r2c2.conf    |   veth   |  /etc/r2c2/b.conf       |
#	|  p0 (port 0) ---------------------------- p0 (port 0)        |
#	|  r2c0 10.42.0.1/16      |          |  r2c0 10.42.0.2/16      |
#	|  sch_r2c2 (q_r2c2.so)   |          |  sch_r2c2               |
#	|  r2c2d (r2c2d.service)  |          |                         |
#	+-------------------------+          +-------------------------+
#
# The tree is copied into / (as dpkg would unpack it) and depmod run; the
# repository's own builds are taken off PATH and out of tc's plugin
# directory first, and no module is loaded. The node configuration is the
# shipped example, /etc/r2c2/r2c2.conf, with its lines uncommented and
# the addresses and devices of this rack; each node comes up by the
# ExecStart line of the installed r2c2.service, r2c2d by r2c2d.service's
# ExecStartPre and ExecStart, reloads by ExecReload, stops by ExecStop.

# Unit command lines are split into words on purpose, as systemd does.
# shellcheck disable=SC2086,SC2016
lib_dir=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"

require_root
TREE=${R2C2_INSTALL_TREE:-/r2c2-install}
[[ -d $TREE ]] || ksft_skip_all "no installed tree at $TREE (make check-install stages one)"
ksft_plan 14

# Only installed programs from here on (lib.sh put the repository's
# build directories first in PATH).
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
UNITDIR=/lib/systemd/system
TCDIR=/usr/lib/x86_64-linux-gnu/tc
rel=$(uname -r)
A=inst-a
B=inst-b
D_PID=

cleanup_add 'stop_pids $D_PID 2>/dev/null; modprobe -r sch_r2c2 r2c2 2>/dev/null'

# 1. install
RET=0
rm -f /usr/local/bin/r2c2* /usr/local/sbin/r2c2* "$TCDIR/q_r2c2.so"
rm -rf "/lib/modules/$rel/updates/r2c2"
modinfo r2c2 >/dev/null 2>&1
check_fail $? "an r2c2 module is known before installing (vm-run without --modules none?)"
# File by file: /lib, /sbin are symlinks into /usr here (merged /usr),
# which cp -a of the tree's lib/ would refuse to overwrite; mkdir -p
# follows them (busybox tar has no --keep-directory-symlink).
(cd "$TREE" && find . ! -type d) | while read -r f; do
	mkdir -p "/$(dirname "$f")" && cp -a "$TREE/$f" "/$f" || exit 1
done
check_err $? "copying the tree into / failed"
depmod -a
check_err $? "depmod failed"
[[ $(modinfo -n r2c2 2>/dev/null) == */lib/modules/$rel/updates/r2c2/r2c2.ko ]]
check_err $? "modinfo -n r2c2: '$(modinfo -n r2c2 2>&1)', not updates/r2c2/r2c2.ko"
for f in /usr/sbin/r2c2ctl /usr/sbin/r2c2d /usr/sbin/r2c2-node "$TCDIR/q_r2c2.so" \
	"$UNITDIR/r2c2.service" "$UNITDIR/r2c2d.service" /etc/r2c2/r2c2.conf \
	/etc/r2c2/r2c2d.conf /etc/modprobe.d/r2c2.conf /usr/share/man/man8/r2c2-node.8 \
	/usr/share/man/man8/tc-r2c2.8; do
	[[ -e $f ]] || { check_err 1 "$f not installed"; break; }
done
[[ $(command -v r2c2ctl) == /usr/sbin/r2c2ctl ]]
check_err $? "r2c2ctl on PATH is $(command -v r2c2ctl), not /usr/sbin/r2c2ctl"
log_test_or_exit "installed tree: modules in updates/r2c2 with depmod, tools in /usr/sbin, plugin, units, configuration"

# 2. the shipped configuration as it is refuses to start, naming the fix
RET=0
start=$(unit_lines r2c2.service ExecStart)
[[ $start == "/usr/sbin/r2c2-node -c /etc/r2c2/r2c2.conf up" ]]
check_err $? "r2c2.service ExecStart is '$start'"
ns_create "$A" && ns_create "$B" && veth_link "$A" p0 "$B" p0
check_err $? "creating the namespaces and their veth failed"
out=$(ip netns exec "$A" $start 2>&1)
check_fail $? "the unedited example configuration brought a node up"
[[ $out == *'no "node set addr N ..." line'*examples/r2c2.conf* ]]
check_err $? "message does not name the fix: $out"
log_test "r2c2.service with the unedited /etc/r2c2/r2c2.conf fails and says what to add"

# 3. this rack's configuration from the example
RET=0
conf_for()
{
	local addr=$1
	sed -e 's/^#\(node\|port\|class\|address\|mtu\|qdisc\)\b/\1/' \
	    -e "s/^node set addr 5 topology torus:8x8x8/node set addr $addr hello 100/" \
	    -e 's/^port add 0 dev eth1/port add 0 dev p0/' \
	    -e '/^port add 1 dev eth2/d' \
	    -e "s,^address 10.42.0.5/16,address 10.42.0.$addr/16," \
	    -e "s,^address fd42::5/64,address fd42::$addr/64," \
	    "$TREE/etc/r2c2/r2c2.conf"
}
conf_for 1 >/etc/r2c2/r2c2.conf && conf_for 2 >/etc/r2c2/b.conf
check_err $? "writing the configurations failed"
grep -q '^qdisc announce_bytes 10kb limit' /etc/r2c2/r2c2.conf && grep -q '^node set addr 1 ' /etc/r2c2/r2c2.conf &&
	grep -q '^port add 0 dev p0' /etc/r2c2/r2c2.conf
check_err $? "the example's lines did not turn into this rack's: $(grep -v '^#' /etc/r2c2/r2c2.conf | grep .)"
out=$(r2c2-node -c /etc/r2c2/r2c2.conf check 2>&1)
check_err $? "r2c2-node check: $out"
log_test "the example configuration, uncommented, passes r2c2-node check"

# 3b. check refuses what up would refuse, naming the line, and changes
# nothing (no node appears)
RET=0
bad_check()
{
	local what=$1 line=$2 expr=$3 want=$4 out

	sed -e "$expr" /etc/r2c2/r2c2.conf >/etc/r2c2/bad.conf
	out=$(r2c2-node -c /etc/r2c2/bad.conf check 2>&1)
	check_fail $? "r2c2-node check passed $what"
	[[ $out == *"$want"* && $out == *"bad.conf"* ]]
	check_err $? "$what: the message does not name line $line or the reason: $out"
}
n=$(grep -n '^port add 0 dev p0' /etc/r2c2/r2c2.conf | cut -d: -f1)
bad_check "port add 9" "$n" 's/^port add 0 dev p0/port add 9 dev p0/' 'invalid port "9"'
n=$(grep -n '^qdisc ' /etc/r2c2/r2c2.conf | cut -d: -f1)
bad_check "safe_rate 10zz" "$n" 's/safe_rate [^ ]*/safe_rate 10zz/' "bad.conf:$n: qdisc"
n=$(grep -n '^address 10.42' /etc/r2c2/r2c2.conf | cut -d: -f1)
bad_check "address 10.42.0.300/16" "$n" 's,^address 10.42.0.1/16,address 10.42.0.300/16,' "bad.conf:$n: address"
n=$(grep -n '^mtu ' /etc/r2c2/r2c2.conf | cut -d: -f1)
bad_check "mtu 70000" "$n" 's/^mtu .*/mtu 70000/' "bad.conf:$n: mtu 70000"
! r2c2ctl node show >/dev/null 2>&1
check_err $? "r2c2-node check left a node behind"
rm -f /etc/r2c2/bad.conf
log_test "r2c2-node check refuses port 9, safe_rate 10zz, address 10.42.0.300/16, mtu 70000, each with its line"

# 3b. the XDP transit program's default, as "up" would apply it (-d
# prints the commands): attached natively after the r2c2ctl lines where
# no port is a veth, not with "xdp off", not on this rack's veth ports
RET=0
sed -e 's/^port add 0 dev p0/port add 0 dev lo/' /etc/r2c2/r2c2.conf >/etc/r2c2/lo.conf
out=$(r2c2-node -c /etc/r2c2/lo.conf -d up 2>&1)
check_err $? "r2c2-node -d up with port lo: $out"
[[ $out == *"r2c2ctl -b: port add 0 dev lo"*"r2c2ctl xdp attach mode native"* ]]
check_err $? "the default XDP attach is not after the port lines: $out"
echo "xdp off" >>/etc/r2c2/lo.conf
out=$(r2c2-node -c /etc/r2c2/lo.conf -d up 2>&1)
check_err $? "r2c2-node -d up with xdp off: $out"
[[ $out != *xdp* ]]
check_err $? "\"xdp off\" still attaches: $out"
out=$(ip netns exec "$A" r2c2-node -c /etc/r2c2/r2c2.conf -d up 2>&1)
[[ $out == *"not attached: port device p0 is a veth"* && $out != *"r2c2ctl xdp attach"* ]]
check_err $? "a veth port still gets the program: $out"
rm -f /etc/r2c2/lo.conf
log_test "r2c2-node: the XDP program natively after the ports by default, not with xdp off, not on a veth"

# 4. both nodes up by the unit's ExecStart (node b with its own file)
RET=0
out=$(ip netns exec "$A" $start 2>&1)
check_err $? "node a: $start: $out"
out=$(ip netns exec "$B" ${start//r2c2.conf/b.conf} 2>&1)
check_err $? "node b: ${start//r2c2.conf/b.conf}: $out"
[[ $(modinfo -n r2c2) == */updates/r2c2/r2c2.ko ]] && [[ -d /sys/module/r2c2 ]]
check_err $? "r2c2 not loaded from updates/r2c2"
log_test_or_exit "r2c2.service ExecStart brings nodes 1 and 2 up (modprobe r2c2 from updates/)"

# 5. the node, its port, neighbour and class as configured
RET=0
busywait 10000 bash -c "r2c2ctl -n $A -j node show | json_assert '.nodes == 2'" >/dev/null
check_err $? "node a does not see 2 nodes: $(r2c2ctl -n $A node show 2>&1)"
r2c2ctl -n "$A" -j node show | json_assert '.addr == 1'
check_err $? "node a's address: $(r2c2ctl -n $A -j node show 2>&1)"
r2c2ctl -n "$A" -j class show | json_assert '[.[] | select(.id == 1 and .weight == 4)] | length == 1'
check_err $? "class 1 of the configuration missing: $(r2c2ctl -n $A -j class show 2>&1)"
r2c2ctl -n "$A" -j xdp show | json_assert '.bound == false'
check_err $? "node a's veth port got the XDP program: $(r2c2ctl -n $A xdp show 2>&1)"
log_test "node 1 addr 1, its neighbour found (2 nodes), class 1 weight 4, no XDP on its veth port"

# 6. sch_r2c2 with the configured options through the installed plugin
RET=0
q=$(tc -n "$A" qdisc show dev r2c0)
[[ $q == *"qdisc r2c2 "*"limit 10000"*"announce_bytes 10Kb"* ]]
check_err $? "tc qdisc show dev r2c0: $q"
[[ $(modinfo -n sch_r2c2) == */updates/r2c2/sch_r2c2.ko ]] && [[ -d /sys/module/sch_r2c2 ]]
check_err $? "sch_r2c2 not loaded from updates/r2c2"
log_test "sch_r2c2 on r2c0 with limit 10000, announce_bytes 10Kb (q_r2c2.so from $TCDIR): $q"

# 7. IPv4 and IPv6 over r2c0
RET=0
ip netns exec "$A" ping -c 3 -i 0.2 -W 2 10.42.0.2 >/dev/null
check_err $? "no IPv4 reply from node 2"
ip netns exec "$A" ping -6 -c 3 -i 0.2 -W 2 fd42::2 >/dev/null
check_err $? "no IPv6 reply from node 2"
log_test "ping 10.42.0.2 and fd42::2 from node 1 over r2c0"

# 8. r2c2d by its unit's lines, with the shipped r2c2d.conf
RET=0
pre=$(unit_lines r2c2d.service ExecStartPre)
dstart=$(unit_lines r2c2d.service ExecStart)
out=$(ip netns exec "$A" $pre 2>&1)
check_err $? "$pre: $out"
ip netns exec "$A" $dstart >/tmp/r2c2d.log 2>&1 &
D_PID=$!
busywait 10000 ip netns exec "$A" r2c2ctl daemon show >/dev/null
check_err $? "r2c2ctl daemon show: no answer from r2c2d: $(ip netns exec "$A" r2c2ctl daemon show 2>&1; cat /tmp/r2c2d.log)"
log_test_or_exit "r2c2d.service: ExecStartPre ($pre) and ExecStart; r2c2ctl daemon show answers"

# 9. ExecReload: SIGHUP reloads the configuration
RET=0
reload=$(unit_lines r2c2d.service ExecReload)
[[ $reload == '/bin/kill -HUP $MAINPID' ]]
check_err $? "ExecReload is '$reload'"
MAINPID=$D_PID
eval "${reload//\$MAINPID/$MAINPID}"
check_err $? "$reload failed"
busywait 5000 grep -q 'SIGHUP: configuration .* reloaded' /tmp/r2c2d.log
check_err $? "r2c2d did not log the reload: $(cat /tmp/r2c2d.log)"
kill -0 "$D_PID" 2>/dev/null
check_err $? "r2c2d died on SIGHUP"
log_test "r2c2d.service ExecReload (SIGHUP): configuration reloaded, daemon running"

# 10. up again on a running node names the fix
RET=0
out=$(ip netns exec "$A" $start 2>&1)
check_fail $? "a second ExecStart succeeded on a running node"
[[ $out == *"already configured"*down* ]]
check_err $? "message: $out"
log_test "a second r2c2-node up refuses and names r2c2-node down"

# 11. ExecStop
RET=0
stop_pids "$D_PID"
D_PID=
stop=$(unit_lines r2c2.service ExecStop)
out=$(ip netns exec "$A" $stop 2>&1)
check_err $? "$stop: $out"
ip -n "$A" link show r2c0 >/dev/null 2>&1
check_fail $? "r2c0 still exists in node a after ExecStop"
out=$(ip netns exec "$A" $stop 2>&1)
check_err $? "a second ExecStop failed: $out"
log_test "r2c2.service ExecStop removes the node (twice is fine)"

# 12. the modules unload
RET=0
ip netns exec "$B" ${stop//r2c2.conf/b.conf} >/dev/null 2>&1
check_err $? "node b: ExecStop failed"
modprobe -r sch_r2c2 r2c2
check_err $? "modprobe -r sch_r2c2 r2c2 failed"
log_test "both nodes down, modprobe -r sch_r2c2 r2c2"

ksft_exit
