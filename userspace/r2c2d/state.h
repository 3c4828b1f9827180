/* SPDX-License-Identifier: GPL-2.0 */
/*
 * state.h - r2c2d's own flows' demand estimates, kept in a file
 * (state_file) so that a daemon restarted in a running rack starts from
 * them. The qdisc keeps the leased rates across a restart; the demands
 * the old daemon had estimated and announced only it knew. A new daemon
 * without them takes every own flow as unlimited until it has estimated
 * it again (three demand windows after its warm-up), and a flow that
 * wants little would take a full share from the others for that long.
 */
#ifndef _R2C2D_STATE_H
#define _R2C2D_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "matrix.h"

/**
 * struct st_ent - one own flow's demand, as saved
 * @id: flow identifier
 * @dst: its destination
 * @demand_kbps: its estimated demand (never R2C2_DEMAND_UNLIMITED: a flow
 *	without one is not saved)
 */
struct st_ent {
	uint32_t id;
	uint16_t dst;
	uint32_t demand_kbps;
};

/*
 * Write node's own flows that have a demand (mx) to path, atomically (a
 * temporary file beside it, renamed over it); a missing last directory
 * of path is created. Return: 0 or -errno.
 */
int st_save(const char *path, uint16_t node, const struct mx *mx);
/*
 * Read path into *e (sorted by id, malloc'ed) and *n. A file of another
 * node or none at all gives 0 entries; a line that does not parse (a
 * demand that is not below R2C2_DEMAND_UNLIMITED among them: no flow
 * event carries it) gives -EINVAL with the file and line in err, and no
 * entries.
 * Return: 0 (also when path does not exist) or -errno.
 */
int st_load(const char *path, uint16_t node, struct st_ent **e, size_t *n,
	    char *err, size_t errlen);
/* the saved demand of flow id to dst, or R2C2_DEMAND_UNLIMITED */
uint32_t st_demand(const struct st_ent *e, size_t n, uint32_t id,
		   uint16_t dst);

#endif /* _R2C2D_STATE_H */
