# SPDX-License-Identifier: GPL-2.0
#
# tally.awk - "passed failed skipped plan" of one TAP stream: a test
# file's own output (selftests/run.sh) or a userspace test program's
# (userspace/tests/run.sh). plan is -1 when the stream has none; a
# whole-file "1..0 # SKIP" counts as one skipped check.
/^ok [0-9]+/ { if ($0 ~ /# *(SKIP|skip)/) s++; else p++; next }
/^not ok [0-9]+/ { f++; next }
/^1\.\.[0-9]+/ {
	plan = substr($1, 4) + 0
	if (plan == 0 && $0 ~ /# *(SKIP|skip)/)
		s++
}
END { print p + 0, f + 0, s + 0, plan == "" ? -1 : plan }
