// SPDX-License-Identifier: GPL-2.0
/*
 * reseq.c - r2c2ctl reseq show: receiver resequencing of this node
 * (RESEQ_GET dump: a node summary, then one message per flow). The
 * settings are changed with `r2c2ctl node set reseq ...` (node.c).
 */
#include <stdio.h>
#include <string.h>
#include <netlink/attr.h>

#include "json.h"
#include "nl.h"
#include "r2c2ctl.h"

#define HIST_LEN	257	/* depths 0..256, R2C2_RSQ_WIN + 1 */

static void usage(FILE *f)
{
	fputs("Usage: r2c2ctl [ -j ] [ -s ] reseq show\n"
	      "Receiver resequencing: settings, packets held now, the depth\n"
	      "distribution of the reorder buffers (p50, p95, p99, max over every\n"
	      "arrival, then over arrivals that left packets held) and, per flow\n"
	      "(source:flowid), the next expected sequence number and depth.\n"
	      "-s adds the counters. Settings: r2c2ctl node set reseq { on | off }\n"
	      "[ reseq-timeout US ] [ reseq-flow-limit N ] [ reseq-limit N ].\n",
	      f);
}

/* smallest depth d with at least q of the samples at or below it */
static unsigned int hist_quantile(const uint64_t *h, unsigned int from,
				  uint64_t total, double q)
{
	uint64_t want = (uint64_t)(q * (double)total + 0.999999), sum = 0;
	unsigned int d;

	if (!want)
		want = 1;
	for (d = from; d < HIST_LEN; d++) {
		sum += h[d];
		if (sum >= want)
			return d;
	}
	return HIST_LEN - 1;
}

static void print_depths(const char *key, const char *label,
			 const uint64_t *h, unsigned int from)
{
	uint64_t total = 0;
	unsigned int d, max = 0;

	for (d = from; d < HIST_LEN; d++) {
		total += h[d];
		if (h[d])
			max = d;
	}
	open_obj(key);
	print_text("%s", label);
	print_uint("samples", " samples %llu", total);
	if (total) {
		print_uint("p50", " p50 %llu", hist_quantile(h, from, total, 0.50));
		print_uint("p95", " p95 %llu", hist_quantile(h, from, total, 0.95));
		print_uint("p99", " p99 %llu", hist_quantile(h, from, total, 0.99));
		print_uint("max", " max %llu", max);
	}
	close_obj();
	print_nl();
}

static void print_summary(struct nlattr **tb)
{
	uint64_t h[HIST_LEN] = { 0 };
	unsigned int i, n;

	open_obj("node");
	if (tb[R2C2_A_NODE_ADDR])
		print_uint("addr", "node %llu", nla_get_u16(tb[R2C2_A_NODE_ADDR]));
	if (tb[R2C2_A_RESEQ]) {
		if (is_json())
			print_bool("enabled", NULL, nla_get_u8(tb[R2C2_A_RESEQ]));
		else
			print_text(" reseq %s",
				   nla_get_u8(tb[R2C2_A_RESEQ]) ? "on" : "off");
	}
	if (tb[R2C2_A_RESEQ_TIMEOUT_US])
		print_uint("timeout_us", " timeout %lluus",
			   nla_get_u32(tb[R2C2_A_RESEQ_TIMEOUT_US]));
	if (tb[R2C2_A_RESEQ_TIMEOUT_EFF_US])
		print_uint("timeout_eff_us", " (in force %lluus)",
			   nla_get_u32(tb[R2C2_A_RESEQ_TIMEOUT_EFF_US]));
	if (tb[R2C2_A_RESEQ_FLOW_LIMIT])
		print_uint("flow_limit", " flow-limit %llu",
			   nla_get_u32(tb[R2C2_A_RESEQ_FLOW_LIMIT]));
	if (tb[R2C2_A_RESEQ_LIMIT])
		print_uint("limit", " limit %llu",
			   nla_get_u32(tb[R2C2_A_RESEQ_LIMIT]));
	print_nl();
	print_text("    ");
	if (tb[R2C2_A_RESEQ_HELD])
		print_uint("held", "held %llu", nla_get_u32(tb[R2C2_A_RESEQ_HELD]));
	if (tb[R2C2_A_RESEQ_MAX_DEPTH])
		print_uint("max_depth", " max-depth %llu",
			   nla_get_u32(tb[R2C2_A_RESEQ_MAX_DEPTH]));
	if (tb[R2C2_A_RESEQ_FLOWS])
		print_uint("flows", " flows %llu",
			   nla_get_u32(tb[R2C2_A_RESEQ_FLOWS]));
	print_nl();
	if (tb[R2C2_A_RESEQ_HIST]) {
		n = (unsigned int)(nla_len(tb[R2C2_A_RESEQ_HIST]) / sizeof(uint64_t));
		if (n > HIST_LEN)
			n = HIST_LEN;
		memcpy(h, nla_data(tb[R2C2_A_RESEQ_HIST]), n * sizeof(uint64_t));
		print_depths("depth", "    depth", h, 0);
		print_depths("depth_held", "    depth when held", h, 1);
		if (is_json() && opts.stats) {
			open_arr("hist");
			for (i = 0; i < n; i++)
				print_uint(NULL, NULL, h[i]);
			close_arr();
		}
	}
	if (opts.stats && tb[R2C2_A_STATS])
		print_stats("stats", tb[R2C2_A_STATS], 3, 4);
	close_obj();
}

static void print_flow(struct nlattr **tb)
{
	char buf[32];

	open_obj(NULL);
	if (tb[R2C2_A_FLOW_SRC])
		print_uint("src", "flow %llu", nla_get_u16(tb[R2C2_A_FLOW_SRC]));
	format_flowid(nla_get_u32(tb[R2C2_A_FLOW_ID]), buf, sizeof(buf));
	print_str("flow", ":%s", buf);
	if (tb[R2C2_A_SEQ])
		print_uint("next_seq", " next %llu", nla_get_u32(tb[R2C2_A_SEQ]));
	if (tb[R2C2_A_RESEQ_HELD])
		print_uint("held", " held %llu", nla_get_u32(tb[R2C2_A_RESEQ_HELD]));
	if (tb[R2C2_A_RESEQ_MAX_DEPTH])
		print_uint("max_depth", " max-depth %llu",
			   nla_get_u32(tb[R2C2_A_RESEQ_MAX_DEPTH]));
	if (tb[R2C2_A_AGE_MS])
		print_uint("age_ms", " age %llums", nla_get_u32(tb[R2C2_A_AGE_MS]));
	print_nl();
	if (opts.stats && tb[R2C2_A_STATS])
		print_stats("stats", tb[R2C2_A_STATS], 4, 4);
	close_obj();
}

int parse_reseq_opt(int *argcp, char ***argvp, struct reseq_opts *rs)
{
	int argc = *argcp;
	char **argv = *argvp;
	int ret = -1;

	if (!strcmp(*argv, "reseq")) {
		NEXT_ARG();
		if (rs->have_on)
			return duplicate_arg("reseq");
		if (!strcmp(*argv, "on"))
			rs->on = 1;
		else if (!strcmp(*argv, "off"))
			rs->on = 0;
		else
			return invalid_arg("reseq", *argv, "expected on or off");
		rs->have_on = true;
		ret = 0;
	} else if (!strcmp(*argv, "reseq-timeout")) {
		NEXT_ARG();
		if (rs->have_timeout)
			return duplicate_arg("reseq-timeout");
		if (parse_u32("reseq timeout", *argv, 10, 1000000, &rs->timeout_us))
			return R2C2CTL_EXIT_USAGE;
		rs->have_timeout = true;
		ret = 0;
	} else if (!strcmp(*argv, "reseq-flow-limit")) {
		NEXT_ARG();
		if (rs->have_flow_limit)
			return duplicate_arg("reseq-flow-limit");
		if (parse_u32("reseq flow limit", *argv, 1, 255, &rs->flow_limit))
			return R2C2CTL_EXIT_USAGE;
		rs->have_flow_limit = true;
		ret = 0;
	} else if (!strcmp(*argv, "reseq-limit")) {
		NEXT_ARG();
		if (rs->have_limit)
			return duplicate_arg("reseq-limit");
		if (parse_u32("reseq limit", *argv, 1, 1048576, &rs->limit))
			return R2C2CTL_EXIT_USAGE;
		rs->have_limit = true;
		ret = 0;
	}
	if (!ret) {
		rs->have = true;
		*argcp = argc;
		*argvp = argv;
	}
	return ret;
}

int put_reseq_opts(struct nl_msg *msg, const struct reseq_opts *rs)
{
	if (rs->have_on)
		NLA_PUT_U8(msg, R2C2_A_RESEQ, rs->on);
	if (rs->have_timeout)
		NLA_PUT_U32(msg, R2C2_A_RESEQ_TIMEOUT_US, rs->timeout_us);
	if (rs->have_flow_limit)
		NLA_PUT_U32(msg, R2C2_A_RESEQ_FLOW_LIMIT, rs->flow_limit);
	if (rs->have_limit)
		NLA_PUT_U32(msg, R2C2_A_RESEQ_LIMIT, rs->limit);
	return 0;

nla_put_failure:
	return -1;
}

/* node show: "reseq on timeout 300us" (JSON reseq, reseq_timeout_us) */
void print_reseq_node(struct nlattr **tb)
{
	if (!tb[R2C2_A_RESEQ])
		return;
	if (is_json())
		print_bool("reseq", NULL, nla_get_u8(tb[R2C2_A_RESEQ]));
	else
		print_text(" reseq %s", nla_get_u8(tb[R2C2_A_RESEQ]) ? "on" : "off");
	if (tb[R2C2_A_RESEQ_TIMEOUT_US])
		print_uint("reseq_timeout_us", " timeout %lluus",
			   nla_get_u32(tb[R2C2_A_RESEQ_TIMEOUT_US]));
}

/* the summary comes first; flows go into one "flows" array */
struct reseq_state {
	bool summary;
	bool flows_open;
};

static int reseq_cb(struct nl_msg *msg, void *arg)
{
	struct reseq_state *st = arg;
	struct nlattr *tb[R2C2_A_MAX + 1];

	if (ctl_nl_parse(msg, tb, NULL))
		return -1;
	if (!tb[R2C2_A_FLOW_ID]) {
		if (st->summary || st->flows_open)
			return 0;	/* one summary only */
		print_summary(tb);
		st->summary = true;
		return 0;
	}
	if (!st->flows_open) {
		open_arr("flows");
		st->flows_open = true;
	}
	print_flow(tb);
	return 0;
}

static int reseq_show(int argc, char **argv)
{
	struct reseq_state st = { false, false };
	struct nl_msg *msg;
	int err;

	if (argc > 0)
		return extra_arg(argv[0], usage);
	err = ctl_nl_open();
	if (err)
		return err;
	msg = ctl_nl_msg(R2C2_CMD_RESEQ_GET, true);
	if (!msg)
		return R2C2CTL_EXIT_ERR;
	open_obj(NULL);
	err = ctl_nl_talk(msg, reseq_cb, &st);
	if (st.flows_open)
		close_arr();
	close_obj();
	return err;
}

int cmd_reseq(int argc, char **argv)
{
	const char *cmd = argc > 0 ? argv[0] : "show";

	if (is_help(cmd)) {
		usage(stdout);
		return R2C2CTL_EXIT_OK;
	}
	if (!strcmp(cmd, "show"))
		return reseq_show(argc - 1, argv + 1);
	return usage_error("unknown reseq command \"%s\"", cmd);
}
