/* SPDX-License-Identifier: GPL-2.0 */
/*
 * r2c2_genl.h - what r2c2ctl and r2c2d share of talking to the "r2c2"
 * generic netlink family (libnl-3, libnl-genl-3): the one policy of the
 * family's attributes, parsing a message or a nest with it, the errno
 * and extended ack of an error message, and resolving the family and a
 * multicast group with the errors an operator should read.
 */
#ifndef _R2C2_GENL_H
#define _R2C2_GENL_H

#include <stddef.h>
#include <stdint.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/socket.h>
#include <linux/r2c2.h>

/*
 * Every attribute of <linux/r2c2.h>, typed as
 * Documentation/netlink/specs/r2c2.yaml types it (tools/ynl/spec-check.py
 * compares the two). Nests reuse the top-level attribute space; an
 * attribute above R2C2_A_MAX, from a newer kernel, is ignored.
 */
extern struct nla_policy r2c2_genl_policy[R2C2_A_MAX + 1];

/*
 * Parse a message of the family: its generic netlink header (read only
 * when the message has room for it: libnl hands over exactly nlmsg_len
 * bytes and genlmsg_parse() checks the length only after reading the
 * command) and its attributes. @cmd may be NULL.
 * Return: 0 or -NLE_*.
 */
int r2c2_genl_parse(struct nl_msg *msg, struct nlattr **tb, uint8_t *cmd);
/* the attributes of a nest. Return: 0 or -NLE_* */
int r2c2_genl_parse_nested(struct nlattr **tb, const struct nlattr *nest);

/*
 * The errno of a kernel's error code @e (-errno; an ACK is 0): one no
 * kernel sends (beyond MAX_ERRNO, 4095, or INT_MIN, which has no
 * negation) is a protocol error, EPROTO.
 */
int r2c2_genl_errno(int e);

/* what an error or ack message's extended ack says */
struct r2c2_genl_extack {
	const char *msg;	/* NUL-terminated in the message, or NULL */
	long miss_type;		/* NLMSGERR_ATTR_MISS_TYPE, or -1 */
};

/*
 * Read the extended ack TLVs of @h, whose first @skip payload bytes are
 * struct nlmsgerr (an error or ack) or the int of NLMSG_DONE. The
 * message's text is terminated in place.
 */
void r2c2_genl_extack(struct nlmsghdr *h, size_t skip,
		      struct r2c2_genl_extack *x);

/*
 * The id of generic netlink family @name on the connected socket @sk,
 * or a negative -NLE_* with @err saying what to do (a missing family:
 * the module is not loaded, and how to load it).
 */
int r2c2_genl_family(struct nl_sock *sk, const char *name, char *err,
		     size_t errlen);
/* the id of multicast group @group of @family, or -NLE_* with @err */
int r2c2_genl_group(struct nl_sock *sk, const char *family,
		    const char *group, char *err, size_t errlen);

#endif /* _R2C2_GENL_H */
