/* SPDX-License-Identifier: GPL-2.0 */
/*
 * conf.h - r2c2d configuration: "key = value" lines, '#' comments.
 * Documentation/r2c2d.8 lists the keys.
 */
#ifndef _R2C2D_CONF_H
#define _R2C2D_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/**
 * struct r2c2d_conf - settings (defaults from conf_defaults())
 * @rho_us: rate-loop period (500)
 * @policy: enum r2c2_policy (maxmin)
 * @rounds_always: run rounds with no flow of our own too (false: measurement)
 * @headroom: fraction of every link left unallocated (0.05)
 * @link_capacity: bit/s of every link (10G)
 * @topology: torus/mesh/file spec, or "" to build it from TOPO_GET
 * @push_threshold: push a rate that changed by more than this (0.05)
 * @lease_refresh_ms: re-push unchanged rates this often (1000; keep it
 *	below the qdisc's lease_ms)
 * @refresh_ms: re-announce own flows this often (1000)
 * @warmup_ms: after the start, no round and no push for this long, so
 *	that the rack's refreshes fill the matrix first (1500; 0: none)
 * @expire_ms: forget flows not announced for this long (3500)
 * @digest_ms: broadcast a digest of own flows this often, and ask a
 *	source whose digests disagree with the matrix for its flows
 *	(250; 0: off, lost events wait for refresh_ms and expire_ms)
 * @demand_interval_ms: sample the qdisc's flows this often (10)
 * @demand_window_ms, @demand_windows, @demand_empty_bytes, @demand_alpha,
 * @demand_low, @demand_high, @demand_slack: the demand estimator,
 *	struct rc_dem_conf (250, 3, 3000, 0.5, 0.8, 0.95, 0.1)
 * @ifindex: device of the qdisc (0: r2c0)
 * @max_flows: flows the matrix holds at most (1048576)
 * @max_flows_per_src: flows of one source the matrix holds at most
 *	(65536), so one node cannot fill it
 * @control: control socket path; leading '@' = abstract (per netns)
 * @announce_delay_ms: announce own flows' updates only once they have
 *	been this long in the matrix (0: off); a flow enters it when
 *	sch_r2c2 announces it (announce_after/announce_bytes), so the two
 *	delays add up
 * @ga_interval_ms: route selection slot: one node searches per slot, in
 *	turn (5000; 0: off). routesel.h explains the turn.
 * @ga_long_ms: flows at least this old are long: the search may change
 *	their protocol (1000)
 * @ga_margin: adopt a search's result only when the utility gains more
 *	than this fraction (0.02)
 * @ga_budget_ms: time budget of one search (100)
 * @ga_threads: fitness evaluators of the search (1)
 * @ga_utility: enum r2c2_utility (sum)
 * @ga_protos: protocols the search may assign, 1 << R2C2_RP_* (all)
 * @cpu_budget: percent of one core the rate rounds may take on average
 *	(0: no limit), struct rc_budget
 * @table_cache_mb: a graph's cache of per-pair link weights is cleared
 *	when it holds more than this many MB and twice what the flows
 *	needed after its last clear (256; 0: never cleared)
 * @round_worker_us: a round whose solve is expected to take at least this
 *	long (the last round's time, scaled by the flows) is solved in a
 *	worker thread while the loop goes on (1000; 0: every round;
 *	ROUND_WORKER_NEVER: none, every round in the loop)
 */
struct r2c2d_conf {
	uint32_t rho_us;
	int policy;
	bool rounds_always;
	double headroom;
	double link_capacity;
	char topology[256];
	double push_threshold;
	uint32_t lease_refresh_ms;
	uint32_t refresh_ms;
	uint32_t warmup_ms;
	uint32_t expire_ms;
	uint32_t digest_ms;
	uint32_t demand_interval_ms;
	uint32_t demand_window_ms;
	uint32_t demand_windows;
	uint32_t demand_empty_bytes;
	double demand_alpha;
	double demand_low;
	double demand_high;
	double demand_slack;
	uint32_t ifindex;
	uint32_t max_flows;
	uint32_t max_flows_per_src;
	char control[108];
	char state_file[1024];
	uint32_t announce_delay_ms;
	uint32_t ga_interval_ms;
	uint32_t ga_long_ms;
	double ga_margin;
	uint32_t ga_budget_ms;
	uint32_t ga_threads;
	int ga_utility;
	unsigned int ga_protos;
	double cpu_budget;
	uint32_t table_cache_mb;
	uint32_t round_worker_us;
};

/* round_worker_us's largest value: no round goes to the worker */
#define ROUND_WORKER_NEVER	60000000u

void conf_defaults(struct r2c2d_conf *c);
/* one "key = value"; 0 or -EINVAL with a message in err */
int conf_set(struct r2c2d_conf *c, const char *key, const char *val,
	     char *err, size_t errlen);
/* a whole file; errors name the file and line */
int conf_load(struct r2c2d_conf *c, const char *path, char *err,
	      size_t errlen);

#endif /* _R2C2D_CONF_H */
