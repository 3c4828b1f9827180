/* SPDX-License-Identifier: GPL-2.0 */
/*
 * r2c2ctl.h - helpers shared by r2c2ctl's objects: usage errors, strict
 * number and keyword parsing, the names of enum values, counters.
 */
#ifndef _R2C2CTL_H
#define _R2C2CTL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/r2c2.h>

#include "cmds.h"

struct nlattr;

/* ---- usage errors (util.c) ------------------------------------------ */

/* the object being run, for "Try r2c2ctl OBJECT help" (set by main) */
extern const char *ctl_object;

int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Command words (iproute2's matches(), with ambiguity refused): the index
 * in NULL-terminated @names of the entry @tok names exactly, else of the
 * one entry it is a prefix of. An entry may list aliases separated by
 * spaces ("del delete"). MATCH_NONE when no entry fits; MATCH_AMBIGUOUS,
 * after a usage error naming every candidate ("ambiguous WHAT"), when
 * several do.
 */
#define MATCH_NONE	(-1)
#define MATCH_AMBIGUOUS	(-2)
int match_word(const char *what, const char *tok, const char *const *names);
/* the first name of entry @names (the canonical one), in @buf */
char *match_name(const char *names, char *buf, size_t len);
/*
 * A keyword after the command: @tok is a non-empty prefix of @keyword
 * (iproute2's matches(); the first keyword tested wins, so test them in
 * the order that keeps the short forms useful).
 */
bool matches(const char *tok, const char *keyword);
int invalid_arg(const char *what, const char *tok, const char *why);
int missing_arg(const char *keyword);
int duplicate_arg(const char *keyword);
int unknown_arg(const char *tok);
bool is_help(const char *tok);
/* a word nothing expects: "help" prints @usage (status 0), else an error */
int extra_arg(const char *tok, void (*usage)(FILE *f));

/*
 * Move to the value after a keyword, or fail with a usage error naming
 * the keyword (iproute2's NEXT_ARG).
 */
#define NEXT_ARG() do {					\
	if (argc < 2)					\
		return missing_arg(*argv);		\
	argc--, argv++;					\
} while (0)

/* ---- parsing (util.c): 0 or, after a usage message, -1 --------------- */

int parse_u32(const char *what, const char *s, uint32_t min, uint32_t max,
	      uint32_t *v);
int parse_addr(const char *what, const char *s, uint16_t *v);
int parse_port(const char *s, uint8_t *v);
int parse_rproto(const char *s, uint8_t *v);
int parse_flowid(const char *s, uint32_t *v);
int parse_rate(const char *s, uint32_t *kbps);
int parse_topology(const char *s, uint8_t *dims, unsigned int *ndims);
int parse_ifname(const char *what, const char *s);
int parse_seconds(const char *s, int *ms);

/* ---- names of enum values (util.c) ------------------------------------ */

const char *rproto_name(unsigned int v, char *buf, size_t len);
const char *port_state_name(unsigned int v, char *buf, size_t len);
const char *flow_evt_name(unsigned int v, char *buf, size_t len);
int parse_flow_evt(const char *s, uint8_t *v);
void format_rate(uint32_t kbps, char *buf, size_t len);
void format_flowid(uint32_t id, char *buf, size_t len);
void format_mac(const uint8_t *mac, char *buf, size_t len);
/* demand: text "demand 100Mbit", JSON demand_kbps (null when unlimited) */
void print_demand(uint32_t kbps);

/* ---- counters (stats.c) ------------------------------------------------ */

/* the one table of counter names, indexed by enum r2c2_stat */
extern const char *const r2c2_stat_names[__R2C2_S_MAX];

/*
 * Print a R2C2_A_STATS nest: JSON object @key with every known counter
 * by name; in text, @per_line counters a line, each line indented by
 * @indent spaces. Unknown (newer) counters are skipped.
 */
void print_stats(const char *key, const struct nlattr *nest,
		 unsigned int per_line, unsigned int indent);

/* ---- resequencing (reseq.c), shared with node.c ------------------------ */

struct nl_msg;

/**
 * struct reseq_opts - resequencing words of `node set` (reseq.c)
 * @have: any of them was given
 * @have_on: "reseq on|off" given, value in @on
 * @have_timeout: "reseq-timeout US" given, value in @timeout_us
 * @have_flow_limit: "reseq-flow-limit N" given, value in @flow_limit
 * @have_limit: "reseq-limit N" given, value in @limit
 */
struct reseq_opts {
	bool have, have_on, have_timeout, have_flow_limit, have_limit;
	uint8_t on;
	uint32_t timeout_us, flow_limit, limit;
};

/* a resequencing word at **argv: 0 taken (argv moved to its value),
 * -1 not one of ours, else an exit status after a usage message */
int parse_reseq_opt(int *argc, char ***argv, struct reseq_opts *rs);
int put_reseq_opts(struct nl_msg *msg, const struct reseq_opts *rs);
void print_reseq_node(struct nlattr **tb);

/* ---- ports (port.c), shared with neigh.c ------------------------------- */

struct port_info {
	bool has_port, has_ifindex, has_state, has_nbr, has_nbr_port;
	bool has_mac, has_age;
	uint8_t port, state, nbr_port;
	uint16_t nbr;
	uint32_t ifindex, age_ms;
	uint8_t mac[6];
	char dev[64];
	const struct nlattr *stats;
};

void port_info_parse(struct nlattr **tb, struct port_info *pi);

/* ---- the XDP program and the ports (xdp.c) ---------------------- */

int xdp_port_added(const char *dev);
unsigned int xdp_port_ifindex(uint8_t num);
int xdp_port_removed(unsigned int ifindex);

#endif /* _R2C2CTL_H */
