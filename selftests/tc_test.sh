#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tc_test.sh - run the tc-testing style JSON tests of selftests/tc-tests/
# (as tools/testing/selftests/tc-testing/tdc.py does, in bash and jq):
# each test's setup commands, cmdUnderTest (exit code expExitCode), then
# verifyCmd whose output must match the extended regex matchPattern
# matchCount times, then teardown. One TAP line per test.
#
#	+------------------+
#	| r2c2-tc          |    one namespace, one dummy device
#	|   dummy r2c2tc0  |    ($DUMMY), qdiscs added and removed on it
#	+------------------+
#
# usage: tc_test.sh [FILE.json ...]   (default: selftests/tc-tests/*.json)
# Variables in the commands: $TC, $IP, $DUMMY.

lib_dir=$(dirname "$0")
# shellcheck source=selftests/lib.sh
source "$lib_dir/lib.sh"

require_root
require_cmd jq ip
require_module dummy

TC_BIN=/usr/sbin/tc
[[ -x $TC_BIN ]] || TC_BIN=$(command -v tc)
NS=r2c2-tc
ns_create "$NS" || { echo "# cannot create namespace $NS"; exit "$KSFT_FAIL"; }
export TC="ip netns exec $NS $TC_BIN" IP="ip -n $NS" DUMMY=r2c2tc0

# the r2c2 tests need the module and the plugin
if ! modprobe -q sch_r2c2 2>/dev/null && [[ ! -d /sys/module/sch_r2c2 ]]; then
	r2c2_modules_load || true
fi

# expand $TC, $IP and $DUMMY in a command
expand() { local c=$1; c=${c//\$TC/$TC}; c=${c//\$IP/$IP}; printf '%s' "${c//\$DUMMY/$DUMMY}"; }

run_cmds() # CMD<US>CMD...: run each, ignoring failures
{
	local c cmds
	IFS=$'\x1f' read -r -a cmds <<<"$1"
	for c in "${cmds[@]}"; do
		[[ -n $c ]] && eval "$(expand "$c")" </dev/null >/dev/null 2>&1
	done
}

# one line per test, fields separated by RS (0x1e), command lists by US
JQ='.[] | [.id, .name, ((.category // []) | join(",")),
	((.setup // []) | map(if type == "array" then .[0] else . end) | join("\u001f")),
	.cmdUnderTest, .expExitCode, .verifyCmd, .matchPattern, .matchCount,
	((.teardown // []) | map(if type == "array" then .[0] else . end) | join("\u001f"))]
	| join("\u001e")'

files=("$@")
[[ ${#files[@]} -gt 0 ]] || files=("$lib_dir"/tc-tests/*.json)
# a check per test case (per file that is not JSON)
nplan=0
for f in "${files[@]}"; do
	nplan=$((nplan + $(jq 'length' "$f" 2>/dev/null || echo 1)))
done
ksft_plan "$nplan"
for f in "${files[@]}"; do
	tests=$(jq -r "$JQ" "$f") || { RET=1; retmsg="$f: not JSON"; log_test "$f"; continue; }
	while IFS=$'\x1e' read -r id name cat setup cmd want verify pattern count teardown; do
		if [[ ,$cat, == *,r2c2,* && ! -d /sys/module/sch_r2c2 ]]; then
			log_test_skip "$id: $name" "sch_r2c2 not loaded"
			continue
		fi
		RET=0
		run_cmds "$setup"
		out=$(eval "$(expand "$cmd")" </dev/null 2>&1)
		rc=$?
		[[ $rc -eq $want ]]
		check_err $? "exit code $rc, want $want: $out"
		vout=$(eval "$(expand "$verify")" </dev/null 2>&1)
		got=$(grep -cE -- "$pattern" <<<"$vout")
		[[ $got -eq $count ]]
		check_err $? "matchPattern found $got times, want $count: ${vout:0:400}"
		run_cmds "$teardown"
		log_test "$id: $name"
	done <<<"$tests"
done
ksft_exit
