# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# json_assert.sh - the one JSON assertion of r2c2's shell tests, sourced by
# selftests/lib.sh, scripts/rack-check.sh and the userspace shell tests.
# A raw `jq -e` (or --exit-status) anywhere in a test is refused by
# scripts/lint-tests.sh, which make check runs with the userspace tests.

# json_assert [JQ_OPTION...] FILTER [FILE...]: the check `jq -e FILTER`
# looks like. Status 0 only if the input (the FILEs, else stdin; none
# with -n) is not empty, parses, and FILTER's last output is neither
# false nor null; otherwise 1, never jq's 4 (which check_err would report
# as a SKIP), and one "# json_assert: ..." line on stdout saying why
# (busywait prints the last one when it gives up). jq 1.6 -e alone exits
# 0 on empty input, so `cmd | jq -e ...` passes when cmd prints nothing.
# FILTER may use `nonempty`, an error on an empty array or object, where
# elements are required: all() and any() of [] are true and false,
# `[.[] | .state] | nonempty | all(. == "set")` fails when no flow is
# listed. Exported, so `busywait T bash -c "... | json_assert ..."` works.
json_assert()
{
	local opts=() noinput=0 filter input err rc why
	local defs='def nonempty: if length > 0 then . else error("empty \(type) where elements are required") end;'

	while (($# > 0)); do
		case $1 in
		--arg|--argjson|--slurpfile|--rawfile)
			opts+=("$1" "$2" "$3"); shift 3 ;;
		--null-input) noinput=1; opts+=("$1"); shift ;;
		--) shift; break ;;
		--*) opts+=("$1"); shift ;;
		-*) [[ $1 == -*n* ]] && noinput=1; opts+=("$1"); shift ;;
		*) break ;;
		esac
	done
	filter=$1; shift
	if ((!noinput)); then
		if (($# > 0)); then
			input=$(cat -- "$@")
		else
			input=$(cat)
		fi
		if [[ $input != *[![:space:]]* ]]; then
			filter=$(tr -s ' \t\n' ' ' <<<"$filter")
			printf '# json_assert: empty input: %s\n' "${filter% }"
			return 1
		fi
	fi
	err=$(jq -e "${opts[@]}" "$defs $filter" 2>&1 >/dev/null <<<"${input:-}")
	rc=$?
	((rc == 0)) && return 0
	if [[ -n $err ]]; then
		why="jq status $rc, $(tr -s '\n' ' ' <<<"$err")"
	elif ((rc == 1)); then
		why="false or null"
	else
		why="no result"
	fi
	filter=$(tr -s ' \t\n' ' ' <<<"$filter")
	printf '# json_assert: %s: %s\n' "${why% }" "${filter% }"
	return 1
}
export -f json_assert
