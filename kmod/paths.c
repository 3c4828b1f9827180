// SPDX-License-Identifier: GPL-2.0
/*
 * paths.c - the shared path tables and route sampling (common/paths.c),
 * compiled into r2c2.ko unchanged.
 */
#include "../common/paths.c"
