#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# deb_rack.sh - r2c2's Debian packages install, build their modules with
# DKMS, bring up a 2x2 torus and come off again, with nothing of the
# build tree in use. Run by "make check-deb" (scripts/check-deb.sh),
# which builds the packages (make deb) and passes them to vm-run with
# --debs: they are in /r2c2-debs, next to dpkg (with a database of what
# the guest holds), dkms, gcc, make and the booted kernel's headers. Not
# in make check's list (no _test.sh suffix): without the packages there
# is nothing to test.
#
#	  deb-0 --p0/p1-- deb-1     2x2 torus: node x + 2y in namespace
#	    |               |       deb-<id>; port 2d to port 2d+1 of the
#	  p2/p3           p2/p3     next node along d (two cables a
#	    |               |       neighbour in a 2-wide dimension)
#	  deb-2 --p0/p1-- deb-3
#
# Every node comes up by the installed r2c2.service's ExecStart line with
# a configuration made from the installed example, /etc/r2c2/r2c2.conf;
# each runs r2c2d by r2c2d.service's lines.

# Unit command lines are split into words on purpose, as systemd does;
# torus_whole is called through busywait; cleanup_add evaluates later.
# shellcheck disable=SC2086,SC2317,SC2016
lib_dir=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"

require_root
DEBS=${R2C2_DEBS:-/r2c2-debs}
compgen -G "$DEBS/r2c2-dkms_*.deb" >/dev/null ||
	ksft_skip_all "no r2c2-dkms package in $DEBS (make check-deb passes them)"
ksft_plan 9

# Only installed programs from here on (lib.sh put the repository's
# build directories first in PATH).
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
UNITDIR=/lib/systemd/system
TCDIR=/usr/lib/x86_64-linux-gnu/tc
rel=$(uname -r)
N=4
D_PIDS=()

ns_of() { printf 'deb-%d\n' "$1"; }

cleanup_add 'stop_pids "${D_PIDS[@]}" 2>/dev/null; modprobe -r sch_r2c2 r2c2 2>/dev/null'

# 1. dpkg -i: dependencies met by the guest's packages, modules built by
# DKMS for the running kernel
RET=0
rm -f /usr/local/bin/r2c2* /usr/local/sbin/r2c2* "$TCDIR/q_r2c2.so" \
	/usr/lib/x86_64-linux-gnu/ip/link_r2c2.so
rm -rf "/lib/modules/$rel/updates/r2c2"
modinfo r2c2 >/dev/null 2>&1
check_fail $? "an r2c2 module is known before installing (vm-run without --modules none?)"
t0=$SECONDS
dpkg -i "$DEBS"/r2c2-tools_*.deb "$DEBS"/r2c2-dkms_*.deb >/tmp/dpkg.log 2>&1
check_err $? "dpkg -i failed: $(tail -20 /tmp/dpkg.log)"
if ((RET)); then
	for f in /var/lib/dkms/r2c2/*/build/make.log; do
		[[ -f $f ]] && log_info "$f: $(tail -25 "$f")"
	done
fi
log_info "dpkg -i of r2c2-tools and r2c2-dkms: $((SECONDS - t0)) s"
for p in r2c2-tools r2c2-dkms; do
	[[ $(dpkg-query -W -f '${Status}' "$p" 2>&1) == "install ok installed" ]]
	check_err $? "$p: $(dpkg-query -W -f '${Status}' "$p" 2>&1)"
done
st=$(dkms status r2c2 2>&1)
[[ $st == *"$rel"*installed* ]]
check_err $? "dkms status: '$st', not installed for $rel"
for m in r2c2 sch_r2c2; do
	f=$(modinfo -n "$m" 2>&1)
	[[ $f == /lib/modules/$rel/updates/dkms/$m.ko* ]]
	check_err $? "modinfo -n $m: '$f', not updates/dkms/$m.ko"
done
for f in /usr/sbin/r2c2ctl /usr/sbin/r2c2d /usr/sbin/r2c2-node "$TCDIR/q_r2c2.so" \
	"$UNITDIR/r2c2.service" "$UNITDIR/r2c2d.service" /etc/r2c2/r2c2.conf \
	/etc/r2c2/r2c2d.conf /usr/share/man/man8/r2c2ctl.8.gz /usr/share/man/man8/tc-r2c2.8.gz; do
	[[ -e $f ]] || { check_err 1 "$f not installed: $(dpkg -L r2c2-tools | tr '\n' ' ')"; break; }
done
log_test_or_exit "dpkg -i r2c2-tools r2c2-dkms: installed, DKMS built r2c2.ko and sch_r2c2.ko for $rel"

# 2. the 2x2 torus's cables
RET=0
for ((id = 0; id < N; id++)); do
	ns_create "$(ns_of "$id")"
	check_err $? "ip netns add $(ns_of "$id") failed"
done
# dimension 0: x -> x+1 (mod 2); dimension 1: y -> y+1 (mod 2)
for ((id = 0; id < N; id++)); do
	x=$((id % 2)) y=$((id / 2))
	nx=$(((x + 1) % 2 + 2 * y)) ny=$((x + 2 * ((y + 1) % 2)))
	ip link add p0 netns "$(ns_of "$id")" type veth peer name p1 netns "$(ns_of "$nx")" &&
	ip link add p2 netns "$(ns_of "$id")" type veth peer name p3 netns "$(ns_of "$ny")"
	check_err $? "veth of node $id failed"
done
log_test_or_exit "4 namespaces and 8 veth cables of a 2x2 torus"

# 3. each node by r2c2.service's ExecStart, its configuration made from
# the installed example
RET=0
conf_for()
{
	local addr=$1
	sed -e 's/^#\(node\|port\|class\|address\|mtu\|qdisc\)\b/\1/' \
	    -e "s/^node set addr 5 topology torus:8x8x8/node set addr $addr topology torus:2x2 hello 100/" \
	    -e 's/^port add 0 dev eth1/port add 0 dev p0\nport add 2 dev p2\nport add 3 dev p3/' \
	    -e 's/^port add 1 dev eth2/port add 1 dev p1/' \
	    -e "s,^address 10.42.0.5/16,address 10.42.0.$((addr + 1))/16," \
	    -e "s,^address fd42::5/64,address fd42::$((addr + 1))/64," \
	    /etc/r2c2/r2c2.conf
}
start=$(unit_lines r2c2.service ExecStart)
[[ $start == "/usr/sbin/r2c2-node -c /etc/r2c2/r2c2.conf up" ]]
check_err $? "r2c2.service ExecStart is '$start'"
for ((id = 0; id < N; id++)); do
	conf_for "$id" >"/etc/r2c2/node$id.conf"
done
for ((id = 0; id < N; id++)); do
	out=$(ip netns exec "$(ns_of "$id")" ${start//r2c2.conf/node$id.conf} 2>&1)
	check_err $? "node $id: ${start//r2c2.conf/node$id.conf}: $out"
done
[[ -d /sys/module/r2c2 && -d /sys/module/sch_r2c2 ]]
check_err $? "r2c2 or sch_r2c2 not loaded"
log_test_or_exit "4 nodes up by r2c2.service's ExecStart (modprobe from updates/dkms)"

# 4. the torus as declared, at every node
RET=0
torus_whole()
{
	local id
	for ((id = 0; id < N; id++)); do
		r2c2ctl -n "$(ns_of "$id")" -j node show |
			json_assert '.nodes == 4 and .links == 16 and .topology_ok == true' || return 1
	done
}
busywait 30000 torus_whole
check_err $? "not every node sees the 2x2 torus: $(for ((id = 0; id < N; id++)); do
	r2c2ctl -n "$(ns_of "$id")" -j node show; done 2>&1 | tr '\n' ' ')"
log_test_or_exit "every node: 4 nodes, 16 links, topology torus:2x2 as declared"

# 5. IPv4 and IPv6 between every pair over r2c0
RET=0
lost=
for ((s = 0; s < N; s++)); do
	for ((d = 0; d < N; d++)); do
		((s == d)) && continue
		ip netns exec "$(ns_of "$s")" ping -c 2 -i 0.2 -W 2 "10.42.0.$((d + 1))" >/dev/null ||
			lost+=" $s->$d"
		ip netns exec "$(ns_of "$s")" ping -6 -c 2 -i 0.2 -W 2 "fd42::$((d + 1))" >/dev/null ||
			lost+=" $s->$d(v6)"
	done
done
[[ -z $lost ]]
check_err $? "pairs without a reply:$lost"
log_test "12 pairs answer ping and ping -6 over r2c0"

# 6. sch_r2c2 with the example's options through the installed plugin
RET=0
for ((id = 0; id < N; id++)); do
	q=$(tc -n "$(ns_of "$id")" qdisc show dev r2c0)
	[[ $q == *"qdisc r2c2 "*"limit 10000"* ]]
	check_err $? "node $id: tc qdisc show dev r2c0: $q"
done
log_test "sch_r2c2 with limit 10000 on every r2c0 (q_r2c2.so from the package)"

# 7. r2c2d on every node by r2c2d.service's lines; a flow gets a rate
RET=0
pre=$(unit_lines r2c2d.service ExecStartPre)
dstart=$(unit_lines r2c2d.service ExecStart)
for ((id = 0; id < N; id++)); do
	ns=$(ns_of "$id")
	out=$(ip netns exec "$ns" $pre 2>&1)
	check_err $? "node $id: $pre: $out"
	ip netns exec "$ns" $dstart >"/tmp/r2c2d.$id.log" 2>&1 &
	D_PIDS+=($!)
done
for ((id = 0; id < N; id++)); do
	busywait 15000 ip netns exec "$(ns_of "$id")" r2c2ctl daemon show >/dev/null
	check_err $? "node $id: no answer from r2c2d: $(cat "/tmp/r2c2d.$id.log")"
done
log_test_or_exit "r2c2d.service on every node: r2c2ctl daemon show answers"

# 8. dpkg -r r2c2-dkms: the modules leave the kernel's tree
RET=0
stop=$(unit_lines r2c2.service ExecStop)
stop_pids "${D_PIDS[@]}"
D_PIDS=()
for ((id = 0; id < N; id++)); do
	out=$(ip netns exec "$(ns_of "$id")" ${stop//r2c2.conf/node$id.conf} 2>&1)
	check_err $? "node $id: ExecStop: $out"
done
modprobe -r sch_r2c2 r2c2
check_err $? "modprobe -r sch_r2c2 r2c2 failed"
dpkg -r r2c2-dkms >/tmp/dpkg-r.log 2>&1
check_err $? "dpkg -r r2c2-dkms: $(tail -5 /tmp/dpkg-r.log)"
modinfo r2c2 >/dev/null 2>&1
check_fail $? "r2c2 still known after dpkg -r: $(modinfo -n r2c2 2>&1)"
[[ -z $(dkms status r2c2 2>/dev/null) ]]
check_err $? "dkms status still lists r2c2: $(dkms status r2c2 2>&1)"
log_test "nodes down; dpkg -r r2c2-dkms removes both modules and the DKMS tree"

# 9. dpkg -P r2c2-tools: programs, plugin and configuration gone
RET=0
dpkg -P r2c2-tools >/tmp/dpkg-p.log 2>&1
check_err $? "dpkg -P r2c2-tools: $(tail -5 /tmp/dpkg-p.log)"
for f in /usr/sbin/r2c2ctl /usr/sbin/r2c2d "$TCDIR/q_r2c2.so" "$UNITDIR/r2c2.service" \
	/etc/r2c2/r2c2.conf /etc/r2c2/r2c2d.conf; do
	[[ ! -e $f ]] || check_err 1 "$f left after dpkg -P"
done
log_test "dpkg -P r2c2-tools removes programs, plugin, units and its configuration files"

ksft_exit
