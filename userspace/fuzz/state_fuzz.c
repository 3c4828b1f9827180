// SPDX-License-Identifier: GPL-2.0
/*
 * state_fuzz.c - r2c2d's state_file under libFuzzer.
 *
 * Feeds: the input as the whole state file (a memfd, by path) to
 * st_load() for node 5, as a restarted r2c2d reads it; the seeds are
 * files st_save() wrote.
 * Reaches: state.c: st_load()'s line parser, its growth and sort, and
 * st_demand() over what it loaded.
 * Checks: what loads is sorted by flow id and holds only what a flow
 * event can carry (a destination, a demand below R2C2_DEMAND_UNLIMITED);
 * st_demand() finds every entry whose id is unique; an error leaves no
 * entries and a message.
 * Work per input: one pass over the file and a sort of its flows (at
 * most -max_len bytes).
 */
#include <string.h>
#include <linux/types.h>
#include <linux/r2c2.h>

#include "state.h"
#include "fuzz.h"

#define NODE	5

static void fail(const char *why)
{
	fprintf(stderr, "state_fuzz: %s\n", why);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	struct st_ent *e = (struct st_ent *)1;
	char err[512] = "";
	size_t n = 1, i;
	bool uniq;

	if (st_load(path, NODE, &e, &n, err, sizeof(err))) {
		if (e || n || !err[0])
			fail("an error left entries, or no message");
		return 0;
	}
	if (!n != !e)
		fail("entries without an array, or the reverse");
	for (i = 0; i < n; i++) {
		if (i && e[i - 1].id > e[i].id)
			fail("not sorted by id");
		if (e[i].dst == R2C2_ADDR_NONE ||
		    e[i].demand_kbps >= R2C2_DEMAND_UNLIMITED)
			fail("an entry no flow event can carry");
		uniq = (!i || e[i - 1].id != e[i].id) &&
		       (i + 1 == n || e[i + 1].id != e[i].id);
		if (uniq && st_demand(e, n, e[i].id, e[i].dst) != e[i].demand_kbps)
			fail("st_demand() misses a loaded flow");
		if (st_demand(e, n, e[i].id, (uint16_t)(e[i].dst + 1)) !=
		    R2C2_DEMAND_UNLIMITED && uniq)
			fail("st_demand() gives a flow of another destination");
	}
	free(e);
	return 0;
}
