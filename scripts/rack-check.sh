#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# rack-check.sh - "make check-rack": a rack of guests (scripts/vm-rack),
# each node its own kernel on virtio-net NICs, brought up from the
# installed tree and configured as an operator would; TAP on stdout.
#
#	scripts/rack-check.sh [--kernel 6.1|6.12] [--torus 2x2]
#
# Checks: every node knows the whole rack; every node pings every other
# over r2c0 (IPv4 and IPv6); r2c2d runs on every node; the ports are the
# NICs in port order (each port's neighbour is the node and port the
# link table says); a crashed node leaves every survivor's graph and
# rejoins when it boots again, without a restart elsewhere.

set -u -o pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
RACK=$REPO/scripts/vm-rack
kernel=6.1 torus=2x2
while (($#)); do
	case $1 in
	--kernel) kernel=${2:?}; shift ;;
	--torus) torus=${2:?}; shift ;;
	*) echo "rack-check.sh: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
export R2C2_RACK_DIR=${R2C2_RACK_DIR:-$(mktemp -d /tmp/r2c2-rack.XXXXXX)}
trap '"$RACK" stop >/dev/null 2>&1' EXIT

n=0 fails=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
fail() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else fail "$what"; fi; }
PLAN=7
echo "TAP version 13"
echo "1..$PLAN"

t0=$SECONDS
if ! "$RACK" start --kernel "$kernel" --torus "$torus" --timeout 300 2>&1 | sed 's/^/# /'; then
	fail "rack of $torus up on $kernel"
	for ((i = n; i < PLAN; i++)); do fail "not run: the rack did not come up"; done
	exit 1
fi
ok "rack of $torus up on $kernel, every node knows every node ($((SECONDS - t0)) s)"
N=$(cat "$R2C2_RACK_DIR/nodes")

# neighbours: each port's neighbour is the one of the link table
neighbours_match() {
	local a pa b pb got bad=0

	while read -r a pa b pb; do
		got=$("$RACK" exec "$a" "r2c2ctl -j neigh show" | jq -r --argjson p "$pa" \
			'.[] | select(.port == $p) | "\(.addr) \(.neighbour_port)"')
		[[ $got == "$b $pb" ]] || { echo "# node $a port $pa: neighbour '$got', want '$b $pb'"; bad=1; }
		got=$("$RACK" exec "$b" "r2c2ctl -j neigh show" | jq -r --argjson p "$pb" \
			'.[] | select(.port == $p) | "\(.addr) \(.neighbour_port)"')
		[[ $got == "$a $pa" ]] || { echo "# node $b port $pb: neighbour '$got', want '$a $pa'"; bad=1; }
	done < <("$RACK" links)
	return $bad
}
check "every port's neighbour is the node and port of the link table" neighbours_match

# all_ping FAMILY: every node pings every other over r2c0
all_ping() {
	local fam=$1 a b addr bad=0 pairs=0 cmd out

	for ((a = 0; a < N; a++)); do
		cmd=
		for ((b = 0; b < N; b++)); do
			((a == b)) && continue
			if [[ $fam == 4 ]]; then addr=10.42.$((b / 256)).$((b % 256))
			else addr=$(printf 'fd42::%x' "$b"); fi
			cmd+="ping -$fam -c 3 -i 0.2 -W 2 $addr >/dev/null 2>&1 || echo miss $addr; "
			pairs=$((pairs + 1))
		done
		out=$("$RACK" exec "$a" --timeout 120 "$cmd")
		[[ -z $out ]] || { echo "# node $a: $out"; bad=1; }
	done
	echo "# IPv$fam: $pairs pairs"
	return $bad
}
check "every node pings every other over r2c0, IPv4" all_ping 4
check "every node pings every other over r2c0, IPv6" all_ping 6

daemons() {
	local out l

	out=$("$RACK" each "pgrep -x r2c2d >/dev/null && r2c2ctl -j daemon show >/dev/null && echo up")
	while IFS= read -r l; do echo "# $l"; done <<<"$out"
	[[ $(grep -c ': up$' <<<"$out") == "$N" ]]
}
check "r2c2d runs on every node and answers daemon show" daemons

# knows N WANT: node N's graph has WANT nodes
knows() { [[ $("$RACK" exec "$1" "r2c2ctl -j node show" 2>/dev/null | jq -r .nodes 2>/dev/null) == "$2" ]]; }
# survivors WANT S: every node but the last knows WANT nodes within S s
survivors() {
	local want=$1 end=$((SECONDS + $2)) a good

	while ((SECONDS < end)); do
		good=1
		for ((a = 0; a < N - 1; a++)); do knows "$a" "$want" || { good=0; break; }; done
		((good)) && return 0
		sleep 1
	done
	return 1
}
last=$((N - 1))
t0=$SECONDS
"$RACK" kill "$last"
if survivors $((N - 1)) 60; then
	ok "node $last crashed: every survivor's graph leaves it out within $((SECONDS - t0)) s"
else
	fail "node $last crashed: survivors still count it after 60 s"
	"$RACK" each "r2c2ctl node show" | sed 's/^/# /'
fi
t0=$SECONDS
if "$RACK" boot "$last" 2>&1 | sed 's/^/# /' && survivors "$N" 120 && knows "$last" "$N"; then
	ok "node $last booted again: the rack is whole within $((SECONDS - t0)) s, no restart elsewhere"
else
	fail "node $last booted again: the rack is not whole after 120 s"
	"$RACK" each "r2c2ctl node show" | sed 's/^/# /'
fi
echo "# rack-check: $((n - fails)) passed, $fails failed"
((fails == 0))
