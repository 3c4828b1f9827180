#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The test code's own lint (scripts/lint-tests.sh): no check that passes
# on empty input, a plan in every selftest file.
exec bash "$(dirname "$0")/../../scripts/lint-tests.sh"
