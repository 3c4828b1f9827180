// SPDX-License-Identifier: GPL-2.0
/*
 * trees.c - the shared broadcast tree code (common/trees.c), compiled
 * into r2c2.ko unchanged.
 */
#include "../common/trees.c"
