/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nl.h - r2c2ctl's generic netlink layer (libnl-3 / libnl-genl-3): the
 * socket, the family, requests, dumps, multicast events and the
 * kernel's extended ack messages.
 *
 * Two environment variables serve the tests, which cannot load the
 * module on the build host:
 *   R2C2CTL_FAMILY=NAME   resolve NAME instead of "r2c2" (a family that
 *                         does not exist exercises the missing-module path)
 *   R2C2CTL_REPLAY=FILE   talk to no kernel: read the kernel's messages
 *                         from FILE (netlink messages back to back, family
 *                         id R2C2CTL_REPLAY_FAMILY), and append every
 *                         request to the file named by R2C2CTL_SENT if set
 */
#ifndef _R2C2CTL_NL_H
#define _R2C2CTL_NL_H

#include <stdbool.h>
#include <stdint.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <linux/r2c2.h>

#define R2C2CTL_REPLAY_FAMILY	0x1f

/*
 * Called for every message of the family. Return 0 to go on, 1 to stop
 * (monitor: enough events), or -1 after printing an error.
 */
typedef int (*ctl_msg_cb)(struct nl_msg *msg, void *arg);

int ctl_nl_open(void);
void ctl_nl_close(void);

struct nl_msg *ctl_nl_msg(uint8_t cmd, bool dump);
int ctl_nl_talk(struct nl_msg *msg, ctl_msg_cb cb, void *arg);
/*
 * A whole "show" of a dump command without attributes: open the socket,
 * dump cmd, cb prints each entry, inside one JSON array. Returns an
 * R2C2CTL_EXIT_* status.
 */
int ctl_nl_dump_arr(uint8_t cmd, ctl_msg_cb cb, void *arg);
int ctl_nl_listen(int timeout_ms, ctl_msg_cb cb, void *arg);

int ctl_nl_parse(struct nl_msg *msg, struct nlattr **tb, uint8_t *cmd);
int ctl_nl_parse_nested(struct nlattr **tb, const struct nlattr *nest);
int ctl_nl_put_failed(void);

#endif /* _R2C2CTL_NL_H */
