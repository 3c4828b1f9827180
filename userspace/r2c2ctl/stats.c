// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - the counter names (one table for every printer of counters)
 * and r2c2ctl stats { show | reset } (STATS_GET, STATS_RESET).
 */
#include <stdio.h>
#include <string.h>
#include <netlink/attr.h>

#include <r2c2/stat_names.h>

#include "json.h"
#include "nl.h"
#include "r2c2ctl.h"

/* enum r2c2_stat, lowercased without the R2C2_S_ prefix (the kernel's
 * ethtool -S r2c0 names come from the same list)
 */
const char *const r2c2_stat_names[__R2C2_S_MAX] = { R2C2_STAT_NAMES };

/* a counter appended to enum r2c2_stat needs its name in stat_names.h */
_Static_assert(R2C2_S_MAX == R2C2_STAT_NAMES_LAST,
	       "r2c2_stat_names[] must name every enum r2c2_stat counter");

void print_stats(const char *key, const struct nlattr *nest,
		 unsigned int per_line, unsigned int indent)
{
	uint64_t val[__R2C2_S_MAX];
	bool have[__R2C2_S_MAX] = { false };
	const struct nlattr *a;
	unsigned int i, n = 0;
	int rem;

	nla_for_each_nested(a, nest, rem) {
		int t = nla_type(a);

		/* newer counters and odd sizes are skipped, not fatal */
		if (t <= R2C2_S_UNSPEC || t > R2C2_S_MAX ||
		    nla_len(a) < (int)sizeof(uint64_t) || !r2c2_stat_names[t])
			continue;
		val[t] = nla_get_u64((struct nlattr *)a);
		have[t] = true;
	}

	open_obj(key);
	for (i = 1; i < __R2C2_S_MAX; i++) {
		if (!have[i])
			continue;
		if (is_json()) {
			print_uint(r2c2_stat_names[i], NULL, val[i]);
			continue;
		}
		if (n % per_line == 0)
			print_text("%*s", (int)indent, "");
		else
			print_text("  ");
		if (per_line == 1)
			print_text("%-16s %llu", r2c2_stat_names[i],
				   (unsigned long long)val[i]);
		else
			print_text("%s %llu", r2c2_stat_names[i],
				   (unsigned long long)val[i]);
		if (++n % per_line == 0)
			print_nl();
	}
	if (n % per_line)
		print_nl();
	close_obj();
}

static void usage(FILE *f)
{
	fputs("Usage: r2c2ctl stats show\n"
	      "       r2c2ctl stats reset\n"
	      "Node counters are the sums over all ports and the soft interface;\n"
	      "reset zeroes node and port counters.\n", f);
}

static int stats_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[R2C2_A_MAX + 1];

	(void)arg;
	if (ctl_nl_parse(msg, tb, NULL))
		return -1;
	if (!tb[R2C2_A_STATS]) {
		fputs("r2c2ctl: stats show: the kernel sent no counters\n",
		      stderr);
		return -1;
	}
	print_stats(NULL, tb[R2C2_A_STATS], 1, 0);
	return 0;
}

int cmd_stats(int argc, char **argv)
{
	const char *cmd = argc > 0 ? argv[0] : "show";
	struct nl_msg *msg;
	bool show;
	int err;

	if (is_help(cmd)) {
		usage(stdout);
		return R2C2CTL_EXIT_OK;
	}
	if (strcmp(cmd, "show") && strcmp(cmd, "reset"))
		return usage_error("unknown stats command \"%s\"", cmd);
	if (argc > 1)
		return extra_arg(argv[1], usage);
	show = !strcmp(cmd, "show");
	err = ctl_nl_open();
	if (err)
		return err;
	msg = ctl_nl_msg(show ? R2C2_CMD_STATS_GET : R2C2_CMD_STATS_RESET,
			 false);
	if (!msg)
		return R2C2CTL_EXIT_ERR;
	return ctl_nl_talk(msg, show ? stats_cb : NULL, NULL);
}
