/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stat_names.h - the names of enum r2c2_stat, one table for the kernel
 * (ethtool -S r2c0) and userspace (r2c2ctl stats, the selftest tools):
 * the counter lowercased without its R2C2_S_ prefix.
 *
 * R2C2_STAT_NAMES is a list of designated initializers, so that each
 * user picks its element type:
 *	static const char names[][ETH_GSTRING_LEN] = { R2C2_STAT_NAMES };
 *	const char *const names[__R2C2_S_MAX] = { R2C2_STAT_NAMES };
 * A counter appended to enum r2c2_stat needs its name here; the users
 * check that with R2C2_STAT_NAMES_LAST.
 */
#ifndef _R2C2_STAT_NAMES_H
#define _R2C2_STAT_NAMES_H

#include <linux/r2c2.h>

#define R2C2_STAT_NAMES \
	[R2C2_S_RX_PACKETS]		= "rx_packets",			\
	[R2C2_S_RX_BYTES]		= "rx_bytes",			\
	[R2C2_S_TX_PACKETS]		= "tx_packets",			\
	[R2C2_S_TX_BYTES]		= "tx_bytes",			\
	[R2C2_S_FORWARDED]		= "forwarded",			\
	[R2C2_S_DELIVERED]		= "delivered",			\
	[R2C2_S_ORIGINATED]		= "originated",			\
	[R2C2_S_BCAST_TX]		= "bcast_tx",			\
	[R2C2_S_BCAST_FWD]		= "bcast_fwd",			\
	[R2C2_S_BCAST_RX]		= "bcast_rx",			\
	[R2C2_S_HELLO_TX]		= "hello_tx",			\
	[R2C2_S_HELLO_RX]		= "hello_rx",			\
	[R2C2_S_DROP_TRUNCATED]		= "drop_truncated",		\
	[R2C2_S_DROP_VERSION]		= "drop_version",		\
	[R2C2_S_DROP_CSUM]		= "drop_csum",			\
	[R2C2_S_DROP_RLEN]		= "drop_rlen",			\
	[R2C2_S_DROP_RIDX]		= "drop_ridx",			\
	[R2C2_S_DROP_NO_PORT]		= "drop_no_port",		\
	[R2C2_S_DROP_PORT_DOWN]		= "drop_port_down",		\
	[R2C2_S_DROP_LOOP]		= "drop_loop",			\
	[R2C2_S_DROP_DUP]		= "drop_dup",			\
	[R2C2_S_DROP_NO_ROUTE]		= "drop_no_route",		\
	[R2C2_S_DROP_NO_NODE]		= "drop_no_node",		\
	[R2C2_S_DROP_TX_ERR]		= "drop_tx_err",		\
	[R2C2_S_DROP_NOMEM]		= "drop_nomem",			\
	[R2C2_S_DROP_BAD_LSA]		= "drop_bad_lsa",		\
	[R2C2_S_FLOW_TABLE_FULL]	= "flow_table_full",		\
	[R2C2_S_RESEQ_INORDER]		= "reseq_inorder",		\
	[R2C2_S_RESEQ_REORDERED]	= "reseq_reordered",		\
	[R2C2_S_RESEQ_TIMEOUT]		= "reseq_timeout",		\
	[R2C2_S_RESEQ_LIMIT]		= "reseq_limit",		\
	[R2C2_S_RESEQ_LATE]		= "reseq_late",			\
	[R2C2_S_RESEQ_DUP]		= "reseq_dup",			\
	[R2C2_S_RESEQ_RESYNC]		= "reseq_resync",		\
	[R2C2_S_RESEQ_DIRECT]		= "reseq_direct",		\
	[R2C2_S_RESEQ_NOSTATE]		= "reseq_nostate",		\
	[R2C2_S_DROP_TOO_BIG]		= "drop_too_big",		\
	[R2C2_S_BCAST_RETRY]		= "bcast_retry",		\
	[R2C2_S_BCAST_RETRY_FAIL]	= "bcast_retry_fail",		\
	[R2C2_S_DROP_OFFLOAD]		= "drop_offload",		\
	[R2C2_S_DROP_LSDB_FULL]		= "drop_lsdb_full",		\
	[R2C2_S_DROP_UNKNOWN_SRC]	= "drop_unknown_src",		\
	[R2C2_S_ROUTES_REFUSED]		= "routes_refused",		\
	[R2C2_S_DROP_AUTH]		= "drop_auth",			\
	[R2C2_S_DROP_REPLAY]		= "drop_replay",		\
	[R2C2_S_DROP_LLADDR]		= "drop_lladdr",		\
	[R2C2_S_BCAST_UNCHECKED]	= "bcast_unchecked",		\
	[R2C2_S_LSDB_EVICTED]		= "lsdb_evicted"

/* the last counter R2C2_STAT_NAMES names: must be R2C2_S_MAX */
#define R2C2_STAT_NAMES_LAST R2C2_S_LSDB_EVICTED

#endif /* _R2C2_STAT_NAMES_H */
