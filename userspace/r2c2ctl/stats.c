// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - the counter names (one table for every printer of counters)
 * and r2c2ctl stats { show | reset } (STATS_GET, STATS_RESET).
 */
#include <stdio.h>
#include <string.h>
#include <netlink/attr.h>

#include "json.h"
#include "nl.h"
#include "r2c2ctl.h"

/* enum r2c2_stat, lowercased without the R2C2_S_ prefix */
const char *const r2c2_stat_names[__R2C2_S_MAX] = {
	[R2C2_S_RX_PACKETS]	= "rx_packets",
	[R2C2_S_RX_BYTES]	= "rx_bytes",
	[R2C2_S_TX_PACKETS]	= "tx_packets",
	[R2C2_S_TX_BYTES]	= "tx_bytes",
	[R2C2_S_FORWARDED]	= "forwarded",
	[R2C2_S_DELIVERED]	= "delivered",
	[R2C2_S_ORIGINATED]	= "originated",
	[R2C2_S_BCAST_TX]	= "bcast_tx",
	[R2C2_S_BCAST_FWD]	= "bcast_fwd",
	[R2C2_S_BCAST_RX]	= "bcast_rx",
	[R2C2_S_HELLO_TX]	= "hello_tx",
	[R2C2_S_HELLO_RX]	= "hello_rx",
	[R2C2_S_DROP_TRUNCATED]	= "drop_truncated",
	[R2C2_S_DROP_VERSION]	= "drop_version",
	[R2C2_S_DROP_CSUM]	= "drop_csum",
	[R2C2_S_DROP_RLEN]	= "drop_rlen",
	[R2C2_S_DROP_RIDX]	= "drop_ridx",
	[R2C2_S_DROP_NO_PORT]	= "drop_no_port",
	[R2C2_S_DROP_PORT_DOWN]	= "drop_port_down",
	[R2C2_S_DROP_LOOP]	= "drop_loop",
	[R2C2_S_DROP_DUP]	= "drop_dup",
	[R2C2_S_DROP_NO_ROUTE]	= "drop_no_route",
	[R2C2_S_DROP_NO_NODE]	= "drop_no_node",
	[R2C2_S_DROP_TX_ERR]	= "drop_tx_err",
	[R2C2_S_DROP_NOMEM]	= "drop_nomem",
	[R2C2_S_DROP_BAD_LSA]	= "drop_bad_lsa",
	[R2C2_S_FLOW_TABLE_FULL] = "flow_table_full",
	[R2C2_S_RESEQ_INORDER]	= "reseq_inorder",
	[R2C2_S_RESEQ_REORDERED] = "reseq_reordered",
	[R2C2_S_RESEQ_TIMEOUT]	= "reseq_timeout",
	[R2C2_S_RESEQ_LIMIT]	= "reseq_limit",
	[R2C2_S_RESEQ_LATE]	= "reseq_late",
	[R2C2_S_RESEQ_DUP]	= "reseq_dup",
	[R2C2_S_RESEQ_RESYNC]	= "reseq_resync",
	[R2C2_S_RESEQ_DIRECT]	= "reseq_direct",
	[R2C2_S_RESEQ_NOSTATE]	= "reseq_nostate",
	[R2C2_S_DROP_TOO_BIG]	= "drop_too_big",
	[R2C2_S_BCAST_RETRY]	= "bcast_retry",
	[R2C2_S_BCAST_RETRY_FAIL] = "bcast_retry_fail",
	[R2C2_S_DROP_OFFLOAD]	= "drop_offload",
	[R2C2_S_DROP_LSDB_FULL] = "drop_lsdb_full",
	[R2C2_S_DROP_UNKNOWN_SRC] = "drop_unknown_src",
	[R2C2_S_ROUTES_REFUSED] = "routes_refused",
	[R2C2_S_DROP_AUTH]	= "drop_auth",
	[R2C2_S_DROP_REPLAY]	= "drop_replay",
	[R2C2_S_DROP_LLADDR]	= "drop_lladdr",
};

/* a counter appended to enum r2c2_stat needs its name above */
_Static_assert(R2C2_S_MAX == R2C2_S_DROP_LLADDR,
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
