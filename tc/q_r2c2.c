// SPDX-License-Identifier: GPL-2.0
/*
 * q_r2c2.c - tc support for sch_r2c2, the R2C2 per-flow rate limiter.
 *
 * A plugin tc loads from its TC_LIB_DIR as q_r2c2.so (symbol
 * r2c2_qdisc_util). Built against the iproute2 source of the installed
 * tc (tc/Makefile); rates on the command line follow tc's units, the
 * kernel takes bit/s.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

#include "utils.h"
#include "tc_util.h"

#include <linux/r2c2.h>

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... r2c2 [ limit PACKETS ] [ flow_limit PACKETS ]\n"
		"                [ initial_rate RATE ] [ safe_rate RATE ]\n"
		"                [ lease TIME | nolease ] [ idle TIME ]\n"
		"                [ buckets NUMBER ] [ maxflows NUMBER ]\n"
		"                [ catchup TIME ] [ batch TIME ]\n"
		"                [ announce_after TIME ] [ announce_bytes BYTES ]\n"
		"RATE: 1kbit..1Tbit; TIME: lease up to 1h, idle 1ms..1h,\n"
		"catchup up to 1s, batch up to 10ms, announce_after up to 1h;\n"
		"BYTES up to 1gb; buckets a power of 2 from 16 to 1048576.\n"
		"A flow is announced to the rack once it has lived announce_after\n"
		"or sent announce_bytes (0: no threshold; both 0: at once).\n");
}

static int r2c2_get_rate(__u64 *bits, const char *name, const char *arg)
{
	__u64 bytes;

	if (arg[0] == '-' || get_rate64(&bytes, arg)) {
		fprintf(stderr, "Illegal \"%s\"\n", name);
		return -1;
	}
	*bits = bytes * 8;
	return 0;
}

static int r2c2_get_ms(__u32 *ms, const char *name, const char *arg)
{
	unsigned int us;

	if (get_time(&us, arg)) {
		fprintf(stderr, "Illegal \"%s\"\n", name);
		return -1;
	}
	*ms = us / 1000;
	if (us && !*ms) {
		fprintf(stderr, "\"%s\" below 1ms\n", name);
		return -1;
	}
	return 0;
}

static int r2c2_parse_opt(struct qdisc_util *qu, int argc, char **argv,
			  struct nlmsghdr *n, const char *dev)
{
	__u32 limit, flow_limit, lease, idle, blog, maxflows, catchup, batch;
	__u32 ann_ms, ann_bytes;
	__u32 v;
	bool set_limit = false, set_flow_limit = false, set_lease = false;
	bool set_idle = false, set_buckets = false, set_maxflows = false;
	bool set_catchup = false, set_init = false, set_safe = false;
	bool set_batch = false, set_ann_ms = false, set_ann_bytes = false;
	__u64 init_rate = 0, safe_rate = 0;
	struct rtattr *tail;

	while (argc > 0) {
		if (strcmp(*argv, "limit") == 0) {
			NEXT_ARG();
			if (get_u32(&limit, *argv, 0)) {
				fprintf(stderr, "Illegal \"limit\"\n");
				return -1;
			}
			set_limit = true;
		} else if (strcmp(*argv, "flow_limit") == 0) {
			NEXT_ARG();
			if (get_u32(&flow_limit, *argv, 0)) {
				fprintf(stderr, "Illegal \"flow_limit\"\n");
				return -1;
			}
			set_flow_limit = true;
		} else if (strcmp(*argv, "initial_rate") == 0) {
			NEXT_ARG();
			if (r2c2_get_rate(&init_rate, "initial_rate", *argv))
				return -1;
			set_init = true;
		} else if (strcmp(*argv, "safe_rate") == 0) {
			NEXT_ARG();
			if (r2c2_get_rate(&safe_rate, "safe_rate", *argv))
				return -1;
			set_safe = true;
		} else if (strcmp(*argv, "lease") == 0) {
			NEXT_ARG();
			if (r2c2_get_ms(&lease, "lease", *argv))
				return -1;
			set_lease = true;
		} else if (strcmp(*argv, "nolease") == 0) {
			lease = 0;
			set_lease = true;
		} else if (strcmp(*argv, "idle") == 0) {
			NEXT_ARG();
			if (r2c2_get_ms(&idle, "idle", *argv))
				return -1;
			set_idle = true;
		} else if (strcmp(*argv, "buckets") == 0) {
			NEXT_ARG();
			if (get_u32(&v, *argv, 0) || !v || (v & (v - 1))) {
				fprintf(stderr, "Illegal \"buckets\": a power of 2\n");
				return -1;
			}
			for (blog = 0; (1U << blog) < v; blog++)
				;
			set_buckets = true;
		} else if (strcmp(*argv, "maxflows") == 0) {
			NEXT_ARG();
			if (get_u32(&maxflows, *argv, 0)) {
				fprintf(stderr, "Illegal \"maxflows\"\n");
				return -1;
			}
			set_maxflows = true;
		} else if (strcmp(*argv, "catchup") == 0) {
			NEXT_ARG();
			if (get_time(&catchup, *argv)) {
				fprintf(stderr, "Illegal \"catchup\"\n");
				return -1;
			}
			set_catchup = true;
		} else if (strcmp(*argv, "batch") == 0) {
			NEXT_ARG();
			if (get_time(&batch, *argv)) {
				fprintf(stderr, "Illegal \"batch\"\n");
				return -1;
			}
			set_batch = true;
		} else if (strcmp(*argv, "announce_after") == 0) {
			NEXT_ARG();
			if (r2c2_get_ms(&ann_ms, "announce_after", *argv))
				return -1;
			set_ann_ms = true;
		} else if (strcmp(*argv, "announce_bytes") == 0) {
			NEXT_ARG();
			if (*argv[0] == '-' || get_size(&ann_bytes, *argv)) {
				fprintf(stderr, "Illegal \"announce_bytes\"\n");
				return -1;
			}
			set_ann_bytes = true;
		} else if (strcmp(*argv, "help") == 0) {
			explain();
			return -1;
		} else {
			fprintf(stderr, "What is \"%s\"?\n", *argv);
			explain();
			return -1;
		}
		argc--;
		argv++;
	}

	tail = addattr_nest(n, 1024, TCA_OPTIONS | NLA_F_NESTED);
	if (set_limit)
		addattr32(n, 1024, TCA_R2C2_LIMIT, limit);
	if (set_flow_limit)
		addattr32(n, 1024, TCA_R2C2_FLOW_LIMIT, flow_limit);
	if (set_init)
		addattr64(n, 1024, TCA_R2C2_INITIAL_RATE, init_rate);
	if (set_safe)
		addattr64(n, 1024, TCA_R2C2_SAFE_RATE, safe_rate);
	if (set_lease)
		addattr32(n, 1024, TCA_R2C2_LEASE_MS, lease);
	if (set_idle)
		addattr32(n, 1024, TCA_R2C2_IDLE_MS, idle);
	if (set_buckets)
		addattr32(n, 1024, TCA_R2C2_BUCKETS_LOG, blog);
	if (set_maxflows)
		addattr32(n, 1024, TCA_R2C2_MAXFLOWS, maxflows);
	if (set_catchup)
		addattr32(n, 1024, TCA_R2C2_CATCHUP_US, catchup);
	if (set_batch)
		addattr32(n, 1024, TCA_R2C2_BATCH_US, batch);
	if (set_ann_ms)
		addattr32(n, 1024, TCA_R2C2_ANNOUNCE_MS, ann_ms);
	if (set_ann_bytes)
		addattr32(n, 1024, TCA_R2C2_ANNOUNCE_BYTES, ann_bytes);
	addattr_nest_end(n, tail);
	return 0;
}

static void r2c2_print_ms(const char *key, const char *fmt,
			  struct rtattr *a)
{
	__u32 ms;

	SPRINT_BUF(b1);

	if (!a || RTA_PAYLOAD(a) < sizeof(__u32))
		return;
	ms = rta_getattr_u32(a);
	print_uint(PRINT_JSON, key, NULL, ms);
	print_string(PRINT_FP, NULL, fmt, sprint_time(ms * 1000, b1));
}

static int r2c2_print_opt(struct qdisc_util *qu, FILE *f, struct rtattr *opt)
{
	struct rtattr *tb[TCA_R2C2_MAX + 1];
	__u32 v;

	SPRINT_BUF(b1);

	if (!opt)
		return 0;
	parse_rtattr_nested(tb, TCA_R2C2_MAX, opt);

	if (tb[TCA_R2C2_LIMIT] &&
	    RTA_PAYLOAD(tb[TCA_R2C2_LIMIT]) >= sizeof(__u32))
		print_uint(PRINT_ANY, "limit", "limit %up ",
			   rta_getattr_u32(tb[TCA_R2C2_LIMIT]));
	if (tb[TCA_R2C2_FLOW_LIMIT] &&
	    RTA_PAYLOAD(tb[TCA_R2C2_FLOW_LIMIT]) >= sizeof(__u32))
		print_uint(PRINT_ANY, "flow_limit", "flow_limit %up ",
			   rta_getattr_u32(tb[TCA_R2C2_FLOW_LIMIT]));
	if (tb[TCA_R2C2_INITIAL_RATE] &&
	    RTA_PAYLOAD(tb[TCA_R2C2_INITIAL_RATE]) >= sizeof(__u64))
		tc_print_rate(PRINT_ANY, "initial_rate", "initial_rate %s ",
			      rta_getattr_u64(tb[TCA_R2C2_INITIAL_RATE]) / 8);
	if (tb[TCA_R2C2_SAFE_RATE] &&
	    RTA_PAYLOAD(tb[TCA_R2C2_SAFE_RATE]) >= sizeof(__u64))
		tc_print_rate(PRINT_ANY, "safe_rate", "safe_rate %s ",
			      rta_getattr_u64(tb[TCA_R2C2_SAFE_RATE]) / 8);
	if (tb[TCA_R2C2_LEASE_MS] &&
	    RTA_PAYLOAD(tb[TCA_R2C2_LEASE_MS]) >= sizeof(__u32) &&
	    !rta_getattr_u32(tb[TCA_R2C2_LEASE_MS])) {
		print_uint(PRINT_JSON, "lease_ms", NULL, 0);
		print_string(PRINT_FP, NULL, "%s ", "nolease");
	} else {
		r2c2_print_ms("lease_ms", "lease %s ", tb[TCA_R2C2_LEASE_MS]);
	}
	r2c2_print_ms("idle_ms", "idle %s ", tb[TCA_R2C2_IDLE_MS]);
	if (tb[TCA_R2C2_BUCKETS_LOG] &&
	    RTA_PAYLOAD(tb[TCA_R2C2_BUCKETS_LOG]) >= sizeof(__u32)) {
		v = rta_getattr_u32(tb[TCA_R2C2_BUCKETS_LOG]);
		print_uint(PRINT_ANY, "buckets", "buckets %u ", 1U << v);
	}
	if (tb[TCA_R2C2_MAXFLOWS] &&
	    RTA_PAYLOAD(tb[TCA_R2C2_MAXFLOWS]) >= sizeof(__u32))
		print_uint(PRINT_ANY, "maxflows", "maxflows %u ",
			   rta_getattr_u32(tb[TCA_R2C2_MAXFLOWS]));
	if (tb[TCA_R2C2_CATCHUP_US] &&
	    RTA_PAYLOAD(tb[TCA_R2C2_CATCHUP_US]) >= sizeof(__u32)) {
		v = rta_getattr_u32(tb[TCA_R2C2_CATCHUP_US]);
		print_uint(PRINT_JSON, "catchup_us", NULL, v);
		print_string(PRINT_FP, NULL, "catchup %s ", sprint_time(v, b1));
	}
	if (tb[TCA_R2C2_BATCH_US] &&
	    RTA_PAYLOAD(tb[TCA_R2C2_BATCH_US]) >= sizeof(__u32)) {
		v = rta_getattr_u32(tb[TCA_R2C2_BATCH_US]);
		print_uint(PRINT_JSON, "batch_us", NULL, v);
		print_string(PRINT_FP, NULL, "batch %s ", sprint_time(v, b1));
	}
	r2c2_print_ms("announce_after_ms", "announce_after %s ",
		      tb[TCA_R2C2_ANNOUNCE_MS]);
	if (tb[TCA_R2C2_ANNOUNCE_BYTES] &&
	    RTA_PAYLOAD(tb[TCA_R2C2_ANNOUNCE_BYTES]) >= sizeof(__u32))
		print_size(PRINT_ANY, "announce_bytes", "announce_bytes %s ",
			   rta_getattr_u32(tb[TCA_R2C2_ANNOUNCE_BYTES]));
	return 0;
}

static int r2c2_print_xstats(struct qdisc_util *qu, FILE *f,
			     struct rtattr *xstats)
{
	struct tc_r2c2_xstats st = {};

	if (!xstats)
		return 0;
	memcpy(&st, RTA_DATA(xstats),
	       RTA_PAYLOAD(xstats) < sizeof(st) ? RTA_PAYLOAD(xstats) :
						   sizeof(st));
	print_uint(PRINT_ANY, "flows", "  flows %u", st.flows);
	print_uint(PRINT_ANY, "flows_active", " (active %u)", st.flows_active);
	print_lluint(PRINT_ANY, "flows_started", " started %llu",
		     st.flows_started);
	print_lluint(PRINT_ANY, "flows_finished", " finished %llu",
		     st.flows_finished);
	print_lluint(PRINT_ANY, "throttled", " throttled %llu", st.throttled);
	print_nl();
	print_lluint(PRINT_ANY, "drops_limit", "  drops: limit %llu",
		     st.drops_limit);
	print_lluint(PRINT_ANY, "drops_flow_limit", " flow_limit %llu",
		     st.drops_flow_limit);
	print_nl();
	print_lluint(PRINT_ANY, "overflow_maxflows",
		     "  overflow: maxflows %llu", st.overflow_maxflows);
	print_lluint(PRINT_ANY, "overflow_nomem", " nomem %llu",
		     st.overflow_nomem);
	print_nl();
	print_lluint(PRINT_ANY, "rate_updates", "  rate_updates %llu",
		     st.rate_updates);
	print_lluint(PRINT_ANY, "leases_expired", " leases_expired %llu",
		     st.leases_expired);
	print_lluint(PRINT_ANY, "events_lost", " events_lost %llu",
		     st.events_lost);
	print_lluint(PRINT_ANY, "rates_unknown", " rates_unknown %llu",
		     st.rates_unknown);
	print_nl();
	print_lluint(PRINT_ANY, "flows_announced", "  announced %llu",
		     st.flows_announced);
	print_lluint(PRINT_ANY, "flows_unannounced", " unannounced %llu",
		     st.flows_unannounced);
	print_lluint(PRINT_ANY, "events_saved", " events_saved %llu",
		     2 * st.flows_unannounced);
	print_lluint(PRINT_ANY, "work_runs", " work_runs %llu", st.work_runs);
	return 0;
}

struct qdisc_util r2c2_qdisc_util = {
	.id		= "r2c2",
	.parse_qopt	= r2c2_parse_opt,
	.print_qopt	= r2c2_print_opt,
	.print_xstats	= r2c2_print_xstats,
};
