// SPDX-License-Identifier: GPL-2.0
/*
 * qdisc.c - r2c2ctl rate set and r2c2ctl qflow show: the sch_r2c2 rate
 * limiter's flows (QFLOW_GET dump) and their rates (RATE_SET, batched).
 */
#include <errno.h>
#include <math.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/attr.h>

#include "json.h"
#include "nl.h"
#include "r2c2ctl.h"
#include "r2c2_alloc.h"

/* entries one RATE_SET message carries (the kernel takes R2C2_RATES_MAX) */
#define RATE_BATCH	1024

static void rate_usage(FILE *f)
{
	fputs("Usage: r2c2ctl rate set [ dev IFNAME ] FLOWID RATE [ FLOWID RATE ... ]\n"
	      "       r2c2ctl rate set [ dev IFNAME ] file { FILE | - }\n"
	      "where  FLOWID := flow identifier, 0..0xffffffff (hex with 0x)\n"
	      "       RATE   := bit/s with an optional k, M, G or T (1k..1T)\n"
	      "       FILE   := lines \"FLOWID RATE\"; '#' starts a comment\n"
	      "       IFNAME := the device of the sch_r2c2 qdisc (default r2c0)\n",
	      f);
}

static void qflow_usage(FILE *f)
{
	fputs("Usage: r2c2ctl qflow show [ dev IFNAME ]\n"
	      "where  IFNAME := the device of the sch_r2c2 qdisc (default r2c0)\n",
	      f);
}

static int parse_bitrate(const char *s, uint64_t *bps)
{
	double bits;

	if (r2c2_parse_rate(s, &bits) || !isfinite(bits) ||
	    bits < (double)R2C2_RATE_MIN || bits > (double)R2C2_RATE_MAX)
		return invalid_arg("rate", s, "expected 1k..1T bit/s, e.g. 10M");
	*bps = (uint64_t)llround(bits);
	return 0;
}

static void format_bitrate(uint64_t bps, char *buf, size_t len)
{
	if (bps && bps % 1000000000000ULL == 0)
		snprintf(buf, len, "%lluTbit", (unsigned long long)(bps / 1000000000000ULL));
	else if (bps && bps % 1000000000ULL == 0)
		snprintf(buf, len, "%lluGbit", (unsigned long long)(bps / 1000000000ULL));
	else if (bps && bps % 1000000ULL == 0)
		snprintf(buf, len, "%lluMbit", (unsigned long long)(bps / 1000000ULL));
	else if (bps && bps % 1000ULL == 0)
		snprintf(buf, len, "%llukbit", (unsigned long long)(bps / 1000ULL));
	else
		snprintf(buf, len, "%llubit", (unsigned long long)bps);
}

static int parse_dev(const char *s, uint32_t *ifindex)
{
	if (parse_ifname("dev", s))
		return R2C2CTL_EXIT_USAGE;
	*ifindex = if_nametoindex(s);
	if (!*ifindex) {
		fprintf(stderr, "r2c2ctl: no device \"%s\"\n", s);
		return R2C2CTL_EXIT_ERR;
	}
	return 0;
}

struct rate_batch {
	uint32_t ifindex;
	unsigned int n;
	uint32_t id[RATE_BATCH];
	uint64_t rate[RATE_BATCH];
};

static int rate_flush(struct rate_batch *b)
{
	struct nlattr *rates, *ent;
	struct nl_msg *msg;
	unsigned int i;
	int err;

	if (!b->n)
		return 0;
	err = ctl_nl_open();
	if (err)
		return err;
	msg = ctl_nl_msg(R2C2_CMD_RATE_SET, false);
	if (!msg)
		return R2C2CTL_EXIT_ERR;
	if (b->ifindex)
		NLA_PUT_U32(msg, R2C2_A_IFINDEX, b->ifindex);
	rates = nla_nest_start(msg, R2C2_A_RATES);
	if (!rates)
		goto nla_put_failure;
	for (i = 0; i < b->n; i++) {
		ent = nla_nest_start(msg, R2C2_A_RATE_ENT);
		if (!ent)
			goto nla_put_failure;
		NLA_PUT_U32(msg, R2C2_A_FLOW_ID, b->id[i]);
		NLA_PUT_U64(msg, R2C2_A_RATE, b->rate[i]);
		nla_nest_end(msg, ent);
	}
	nla_nest_end(msg, rates);
	b->n = 0;
	return ctl_nl_talk(msg, NULL, NULL);

nla_put_failure:
	nlmsg_free(msg);
	return ctl_nl_put_failed();
}

static int rate_add(struct rate_batch *b, uint32_t id, uint64_t rate)
{
	b->id[b->n] = id;
	b->rate[b->n] = rate;
	if (++b->n == RATE_BATCH)
		return rate_flush(b);
	return 0;
}

/* Whole file first (usage errors send nothing), then the batches. */
static int rate_file(struct rate_batch *b, const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	uint64_t *rates = NULL;
	uint32_t *ids = NULL;
	size_t n = 0, cap = 0, i;
	char line[256], *p, *tok_id, *tok_rate, *save;
	unsigned int lineno = 0;
	int err = 0;

	if (!f) {
		fprintf(stderr, "r2c2ctl: %s: %s\n", path, strerror(errno));
		return R2C2CTL_EXIT_ERR;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		p = strchr(line, '#');
		if (p)
			*p = '\0';
		tok_id = strtok_r(line, " \t\r\n", &save);
		if (!tok_id)
			continue;
		tok_rate = strtok_r(NULL, " \t\r\n", &save);
		if (!tok_rate || strtok_r(NULL, " \t\r\n", &save)) {
			fprintf(stderr, "r2c2ctl: %s:%u: expected \"FLOWID RATE\"\n",
				path, lineno);
			err = R2C2CTL_EXIT_USAGE;
			goto out;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			ids = realloc(ids, cap * sizeof(*ids));
			rates = realloc(rates, cap * sizeof(*rates));
			if (!ids || !rates) {
				fputs("r2c2ctl: out of memory\n", stderr);
				err = R2C2CTL_EXIT_ERR;
				goto out;
			}
		}
		if (parse_flowid(tok_id, &ids[n]) ||
		    parse_bitrate(tok_rate, &rates[n])) {
			fprintf(stderr, "r2c2ctl: in %s line %u\n", path, lineno);
			err = R2C2CTL_EXIT_USAGE;
			goto out;
		}
		n++;
	}
	if (!n) {
		err = usage_error("rate set: %s holds no \"FLOWID RATE\" line", path);
		goto out;
	}
	for (i = 0; i < n && !err; i++)
		err = rate_add(b, ids[i], rates[i]);
	if (!err)
		err = rate_flush(b);
out:
	if (f != stdin)
		fclose(f);
	free(ids);
	free(rates);
	return err;
}

static int rate_set(int argc, char **argv)
{
	struct rate_batch *b = calloc(1, sizeof(*b));
	const char *file = NULL;
	uint32_t *ids = NULL;
	uint64_t *rates = NULL;
	int i, n = 0, err = 0;

	if (!b || !(ids = calloc((size_t)argc + 1, sizeof(*ids))) ||
	    !(rates = calloc((size_t)argc + 1, sizeof(*rates)))) {
		fputs("r2c2ctl: out of memory\n", stderr);
		err = R2C2CTL_EXIT_ERR;
		goto out;
	}
	for (; argc > 0; argc--, argv++) {
		if (!strcmp(*argv, "dev")) {
			if (argc < 2) {
				err = missing_arg("dev");
				goto out;
			}
			argc--;
			argv++;
			if (b->ifindex) {
				err = duplicate_arg("dev");
				goto out;
			}
			err = parse_dev(*argv, &b->ifindex);
			if (err)
				goto out;
		} else if (!strcmp(*argv, "file")) {
			if (argc < 2) {
				err = missing_arg("file");
				goto out;
			}
			argc--;
			argv++;
			if (file) {
				err = duplicate_arg("file");
				goto out;
			}
			file = *argv;
		} else if (is_help(*argv)) {
			err = extra_arg(*argv, rate_usage);
			goto out;
		} else {
			if (parse_flowid(*argv, &ids[n])) {
				err = R2C2CTL_EXIT_USAGE;
				goto out;
			}
			if (argc < 2) {
				err = usage_error("rate set: flow %s has no RATE", *argv);
				goto out;
			}
			argc--;
			argv++;
			if (parse_bitrate(*argv, &rates[n])) {
				err = R2C2CTL_EXIT_USAGE;
				goto out;
			}
			n++;
		}
	}
	if (file && n) {
		err = usage_error("rate set: either FLOWID RATE pairs or file, not both");
		goto out;
	}
	if (file) {
		err = rate_file(b, file);
		goto out;
	}
	if (!n) {
		err = usage_error("rate set: missing FLOWID RATE");
		goto out;
	}
	for (i = 0; i < n && !err; i++)
		err = rate_add(b, ids[i], rates[i]);
	if (!err)
		err = rate_flush(b);
out:
	free(b);
	free(ids);
	free(rates);
	return err;
}

static const char *rate_state_name(unsigned int v)
{
	switch (v) {
	case R2C2_RS_INITIAL:
		return "initial";
	case R2C2_RS_SET:
		return "set";
	case R2C2_RS_SAFE:
		return "safe";
	case R2C2_RS_PENDING:
		return "pending";
	default:
		return "unknown";
	}
}

static int qflow_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[R2C2_A_MAX + 1];
	char buf[32];

	(void)arg;
	if (ctl_nl_parse(msg, tb, NULL))
		return -1;
	open_obj(NULL);
	if (tb[R2C2_A_FLOW_ID]) {
		format_flowid(nla_get_u32(tb[R2C2_A_FLOW_ID]), buf, sizeof(buf));
		print_str("flow", "flow %s", buf);
	}
	if (tb[R2C2_A_DST])
		print_uint("dst", " dst %llu", nla_get_u16(tb[R2C2_A_DST]));
	if (tb[R2C2_A_SPORT] && tb[R2C2_A_DPORT] &&
	    (nla_get_u16(tb[R2C2_A_SPORT]) || nla_get_u16(tb[R2C2_A_DPORT]))) {
		print_uint("sport", " sport %llu", nla_get_u16(tb[R2C2_A_SPORT]));
		print_uint("dport", " dport %llu", nla_get_u16(tb[R2C2_A_DPORT]));
	}
	if (tb[R2C2_A_WEIGHT])
		print_uint("weight", " weight %llu",
			   nla_get_u8(tb[R2C2_A_WEIGHT]));
	if (tb[R2C2_A_PRIO])
		print_uint("prio", " prio %llu", nla_get_u8(tb[R2C2_A_PRIO]));
	if (tb[R2C2_A_RATE]) {
		format_bitrate(nla_get_u64(tb[R2C2_A_RATE]), buf, sizeof(buf));
		print_text(" rate %s", buf);
		print_uint("rate", NULL, nla_get_u64(tb[R2C2_A_RATE]));
	}
	if (tb[R2C2_A_RATE_STATE])
		print_str("state", " (%s",
			  rate_state_name(nla_get_u8(tb[R2C2_A_RATE_STATE])));
	if (tb[R2C2_A_LEASE_MS] && nla_get_u32(tb[R2C2_A_LEASE_MS]))
		print_uint("lease_ms", ", lease %llums",
			   nla_get_u32(tb[R2C2_A_LEASE_MS]));
	if (tb[R2C2_A_RATE_STATE])
		print_text(")");
	if (tb[R2C2_A_QLEN])
		print_uint("qlen", " qlen %llu", nla_get_u32(tb[R2C2_A_QLEN]));
	if (tb[R2C2_A_BACKLOG])
		print_uint("backlog", " backlog %llub",
			   nla_get_u32(tb[R2C2_A_BACKLOG]));
	if (tb[R2C2_A_PACKETS])
		print_uint("packets", " packets %llu",
			   nla_get_u64(tb[R2C2_A_PACKETS]));
	if (tb[R2C2_A_BYTES])
		print_uint("bytes", " bytes %llu", nla_get_u64(tb[R2C2_A_BYTES]));
	if (tb[R2C2_A_DROPS])
		print_uint("drops", " drops %llu", nla_get_u64(tb[R2C2_A_DROPS]));
	if (tb[R2C2_A_AGE_MS])
		print_uint("age_ms", " age %llums", nla_get_u32(tb[R2C2_A_AGE_MS]));
	print_nl();
	close_obj();
	return 0;
}

static int qflow_show(int argc, char **argv)
{
	uint32_t ifindex = 0;
	struct nl_msg *msg;
	int err;

	for (; argc > 0; argc--, argv++) {
		if (!strcmp(*argv, "dev")) {
			if (argc < 2)
				return missing_arg("dev");
			argc--;
			argv++;
			if (ifindex)
				return duplicate_arg("dev");
			err = parse_dev(*argv, &ifindex);
			if (err)
				return err;
		} else {
			return extra_arg(*argv, qflow_usage);
		}
	}
	err = ctl_nl_open();
	if (err)
		return err;
	msg = ctl_nl_msg(R2C2_CMD_QFLOW_GET, true);
	if (!msg)
		return R2C2CTL_EXIT_ERR;
	if (ifindex)
		NLA_PUT_U32(msg, R2C2_A_IFINDEX, ifindex);
	open_arr(NULL);
	err = ctl_nl_talk(msg, qflow_cb, NULL);
	close_arr();
	return err;

nla_put_failure:
	nlmsg_free(msg);
	return ctl_nl_put_failed();
}

int cmd_rate(int argc, char **argv)
{
	const char *cmd = argc > 0 ? argv[0] : "help";

	if (is_help(cmd)) {
		rate_usage(stdout);
		return R2C2CTL_EXIT_OK;
	}
	if (!strcmp(cmd, "set"))
		return rate_set(argc - 1, argv + 1);
	return usage_error("unknown rate command \"%s\"", cmd);
}

int cmd_qflow(int argc, char **argv)
{
	const char *cmd = argc > 0 ? argv[0] : "show";

	if (is_help(cmd)) {
		qflow_usage(stdout);
		return R2C2CTL_EXIT_OK;
	}
	if (!strcmp(cmd, "show"))
		return qflow_show(argc - 1, argv + 1);
	return usage_error("unknown qflow command \"%s\"", cmd);
}
