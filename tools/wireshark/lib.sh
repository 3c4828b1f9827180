# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# lib.sh - helpers for the tests of the r2c2 tshark dissector (sourced):
# userspace/tests/wireshark_test.sh (hand-made frames, frames.py) and
# tools/wireshark/capture-check.sh (a capture of a running torus).
#
#   ws_fields PCAP FILTER FIELD...   one line a matching frame, fields
#                                    separated by '|', repeated values by ','
#   ws_expect NAME ACTUAL EXPECTED   a TAP line; ACTUAL must equal EXPECTED
#   ws_done                          the plan; exit 1 if any check failed

WS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
WS_LUA=${WS_LUA:-$WS_DIR/r2c2.lua}
ws_n=0 ws_fail=0

ws_fields()
{
	local pcap=$1 filter=$2 f args=()

	shift 2
	for f in "$@"; do args+=(-e "$f"); done
	tshark -n -X "lua_script:$WS_LUA" -r "$pcap" -Y "$filter" -T fields \
		-E separator='|' -E occurrence=a -E aggregator=, "${args[@]}" 2>/dev/null
}

ws_expect()
{
	ws_n=$((ws_n + 1))
	if [[ $2 == "$3" ]]; then
		echo "ok $ws_n - $1"
	else
		echo "not ok $ws_n - $1"
		printf '# expected: %s\n# got:      %s\n' "$3" "$2" | head -n 20
		ws_fail=$((ws_fail + 1))
	fi
}

ws_done()
{
	echo "1..$ws_n"
	((ws_fail == 0)) || { echo "# $ws_fail of $ws_n failed"; exit 1; }
	exit 0
}
