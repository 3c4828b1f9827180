// SPDX-License-Identifier: GPL-2.0
/*
 * conf_fuzz.c - r2c2d.conf under libFuzzer.
 *
 * Feeds: the input as a whole configuration file (a memfd, by path) to
 * conf_load() over conf_defaults(), as r2c2d -c FILE reads it.
 * Reaches: conf.c: the line reader, trim(), conf_set() with each kind of
 * key (decimal integers, numbers, the two-word keys, the protocol list,
 * the link rate through r2c2_parse_rate(), the string keys).
 * Checks: a file that loads leaves every key in the range r2c2d(8) gives
 * it; a file that does not leaves a message.
 * Work per input: one pass over the file (at most -max_len bytes).
 */
#include <math.h>
#include <string.h>
#include <linux/types.h>
#include <linux/r2c2.h>

#include "r2c2_alloc.h"
#include "conf.h"
#include "fuzz.h"

static void check(const struct r2c2d_conf *c)
{
	if (c->rho_us < 50 || c->rho_us > 10000000 ||
	    !(c->headroom >= 0 && c->headroom <= 0.5) ||
	    !(c->link_capacity > 0 && c->link_capacity <= R2C2_PARSE_RATE_MAX) ||
	    (c->policy != R2C2_POL_MAXMIN && c->policy != R2C2_POL_PROPFAIR) ||
	    (c->ga_utility != R2C2_UTIL_SUM && c->ga_utility != R2C2_UTIL_MIN) ||
	    !c->ga_protos || c->ga_protos >= 1u << __R2C2_RP_MAX ||
	    c->refresh_ms < 10 || c->expire_ms < 20 ||
	    (c->lease_refresh_ms && c->expire_ms <= c->refresh_ms) ||
	    !c->demand_window_ms || !c->demand_windows ||
	    !(c->demand_alpha >= 0.001 && c->demand_alpha <= 1) ||
	    !c->max_flows || !c->max_flows_per_src ||
	    c->max_flows > 16777216 || c->ga_threads > 256 ||
	    !(c->cpu_budget >= 0 && c->cpu_budget <= 100) ||
	    !memchr(c->topology, 0, sizeof(c->topology)) ||
	    !memchr(c->control, 0, sizeof(c->control)) ||
	    !memchr(c->state_file, 0, sizeof(c->state_file))) {
		fprintf(stderr, "conf_fuzz: conf_load() took a value out of range\n");
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	struct r2c2d_conf c;
	char err[512] = "";

	conf_defaults(&c);
	if (!conf_load(&c, path, err, sizeof(err)))
		check(&c);
	else if (!err[0])
		abort();	/* an error says what it is */
	return 0;
}
