#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# rack-agent.sh - what runs in each guest of scripts/vm-rack (as vm-run's
# command): make the guest a host of the rack, then run the commands the
# host sends until it says "quit".
#
#	rack-agent.sh NODE NPORTS
#
# The host of this guest:
#   - its hostname is node-NODE;
#   - the r2c2 tree vm-rack staged with "make install DESTDIR=" (vm-run
#     --install-tree puts it at /r2c2-install) is installed into /, as a
#     package would: modules in updates/r2c2 with depmod, r2c2ctl, r2c2d,
#     r2c2-node in /usr/sbin, q_r2c2.so in tc's directory, the units and
#     /etc/r2c2 examples. Nothing of /repo is used to run r2c2;
#   - its NICs are virtio-net, one a link, in port order: the Nth NIC
#     (eth<N>) is the node's Nth port, whose MAC ends in the port number
#     (vm-rack sets 52:54:00:<node hi>:<node lo>:<port>); a mismatch
#     stops the agent before anything is configured.
# vm-rack then writes /etc/r2c2/r2c2.conf and runs r2c2-node up, as an
# operator would.
#
# Protocol, on the guest's second serial port (/dev/ttyS1; vm-rack
# connects to it over TCP): the host sends one line a command,
# "<timeout seconds> <base64 of a bash command line>"; the agent runs it
# under timeout(1) with stdin from /dev/null and answers with two lines,
# "OUT <base64 of stdout and stderr>" and "RC <exit status>". A command
# line "quit" ends the agent (and vm-run powers the guest off). The
# first line the agent sends is "READY <node>".

set -u
node=${1:?usage: rack-agent.sh NODE NPORTS}
nports=${2:?usage: rack-agent.sh NODE NPORTS}
tty=/dev/ttyS1
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH

die() { echo "rack-agent: node $node: $*" >&2; exit 1; }

echo "node-$node" >/proc/sys/kernel/hostname
[ -c $tty ] || die "no $tty: vm-rack gives each guest a control port there"

# The installed tree, file by file (merged /usr: /lib and /sbin are
# symlinks that cp -a of the tree's lib/ would refuse to overwrite).
[ -d /r2c2-install ] || die "no /r2c2-install: vm-rack stages one (--install-tree)"
(cd /r2c2-install && find . ! -type d) | while read -r f; do
	mkdir -p "/$(dirname "$f")" && cp -a "/r2c2-install/$f" "/$f" || exit 1
done || die "installing /r2c2-install into / failed"
depmod -a || die "depmod failed"

# The NICs: virtio-net, in port order.
modprobe -q virtio_pci 2>/dev/null
modprobe -q virtio_net 2>/dev/null
for ((i = 0; i < 50; i++)); do
	[ -e /sys/class/net/eth$((nports - 1)) ] && break
	sleep 0.1
done
for ((p = 0; p < nports; p++)); do
	mac=$(cat /sys/class/net/eth$p/address 2>/dev/null) ||
		die "eth$p missing: $nports NICs expected"
	[ "${mac##*:}" = "$(printf '%02x' "$p")" ] ||
		die "eth$p has MAC $mac: not port $p (NIC order)"
	ip link set eth$p up || die "eth$p cannot be set up"
done

stty -F $tty raw -echo 2>/dev/null || die "stty $tty failed"
exec 3<>$tty
out=$(mktemp)
printf 'READY %s\n' "$node" >&3
while IFS=' ' read -r limit cmd <&3; do
	[ "$limit" = quit ] && break
	[[ $limit =~ ^[0-9]+$ ]] || { printf 'OUT \nRC 125\n' >&3; continue; }
	cmd=$(printf '%s' "$cmd" | base64 -d 2>/dev/null) ||
		{ printf 'OUT \nRC 125\n' >&3; continue; }
	timeout -k 5 "$limit" bash -c "$cmd" </dev/null >"$out" 2>&1
	rc=$?
	printf 'OUT %s\nRC %d\n' "$(base64 -w0 <"$out")" "$rc" >&3
done
exec 3>&-
rm -f "$out"
exit 0
