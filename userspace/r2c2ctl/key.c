// SPDX-License-Identifier: GPL-2.0
/*
 * key.c - r2c2ctl key { set | del | show }: the rack key that
 * authenticates control frames (KEY_SET, KEY_DEL, KEY_GET). The kernel
 * never gives a key back: show prints ids only.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/attr.h>

#include "json.h"
#include "nl.h"
#include "r2c2ctl.h"

static void usage(FILE *f)
{
	fputs("Usage: r2c2ctl key set ID { HEX | file FILE } [ overlap SECONDS ]\n"
	      "       r2c2ctl key del [ ID ]\n"
	      "       r2c2ctl [ -j ] key show\n"
	      "where  ID      := 1..255, carried in every authenticated frame\n"
	      "       HEX     := the 128-bit key, 32 hex digits (visible to ps:\n"
	      "                  prefer file)\n"
	      "       FILE    := a file holding the 32 hex digits (whitespace\n"
	      "                  ignored), \"-\" for standard input\n"
	      "       SECONDS := how long the previous key stays accepted after\n"
	      "                  a rotation, 0..3600 (default 60; kept for the\n"
	      "                  next rotation)\n"
	      "set with a new ID while a key is set rotates: frames are sent with\n"
	      "the new key (with the previous one to a neighbour that does not\n"
	      "hold the new one yet) and both are accepted for the overlap.\n"
	      "del without ID, or with the current key's, turns authentication\n"
	      "off; with the previous key's ID it ends the overlap now.\n", f);
}

/* 32 hex digits, whitespace ignored, into 16 bytes */
static int parse_key_hex(const char *s, uint8_t *key)
{
	unsigned int n = 0, v;

	for (; *s; s++) {
		if (isspace((unsigned char)*s))
			continue;
		if (!isxdigit((unsigned char)*s) || n >= 2 * R2C2_AUTH_KEY_LEN)
			return -1;
		v = isdigit((unsigned char)*s) ? (unsigned int)(*s - '0') :
			(unsigned int)(tolower((unsigned char)*s) - 'a' + 10);
		if (n % 2 == 0)
			key[n / 2] = (uint8_t)(v << 4);
		else
			key[n / 2] |= (uint8_t)v;
		n++;
	}
	return n == 2 * R2C2_AUTH_KEY_LEN ? 0 : -1;
}

static int read_key_file(const char *path, uint8_t *key)
{
	char buf[256];
	size_t len;
	FILE *f;
	int ret;

	f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!f) {
		fprintf(stderr, "r2c2ctl: %s: %s\n", path, strerror(errno));
		return R2C2CTL_EXIT_ERR;
	}
	len = fread(buf, 1, sizeof(buf) - 1, f);
	buf[len] = '\0';
	if (f != stdin)
		fclose(f);
	ret = parse_key_hex(buf, key);
	memset(buf, 0, sizeof(buf));
	if (ret)
		return invalid_arg("key file", path, "expected 32 hex digits");
	return 0;
}

static int key_set(int argc, char **argv)
{
	uint8_t key[R2C2_AUTH_KEY_LEN];
	bool have_key = false, have_overlap = false;
	uint32_t id, overlap = 0;
	struct nl_msg *msg;
	int err, ms;

	if (argc == 0)
		return usage_error("key set: missing ID");
	if (parse_u32("key id", argv[0], 1, 255, &id))
		return R2C2CTL_EXIT_USAGE;
	for (argc--, argv++; argc > 0; argc--, argv++) {
		if (!strcmp(*argv, "file")) {
			NEXT_ARG();
			if (have_key)
				return duplicate_arg("key");
			err = read_key_file(*argv, key);
			if (err)
				return err;
			have_key = true;
		} else if (!strcmp(*argv, "overlap")) {
			NEXT_ARG();
			if (have_overlap)
				return duplicate_arg("overlap");
			if (!strcmp(*argv, "0")) {
				overlap = 0;
			} else {
				if (parse_seconds(*argv, &ms))
					return R2C2CTL_EXIT_USAGE;
				if (ms > R2C2_TIME_MS_MAX)
					return invalid_arg("overlap", *argv,
							   "at most 3600 seconds");
				overlap = (uint32_t)ms;
			}
			have_overlap = true;
		} else if (!have_key && !is_help(*argv)) {
			if (parse_key_hex(*argv, key))
				return invalid_arg("key", "HEX",
						   "expected 32 hex digits");
			have_key = true;
		} else {
			return extra_arg(*argv, usage);
		}
	}
	if (!have_key)
		return usage_error("key set: missing HEX or file FILE");

	err = ctl_nl_open();
	if (err)
		goto out;
	err = R2C2CTL_EXIT_ERR;
	msg = ctl_nl_msg(R2C2_CMD_KEY_SET, false);
	if (!msg)
		goto out;
	NLA_PUT_U8(msg, R2C2_A_KEY_ID, (uint8_t)id);
	NLA_PUT(msg, R2C2_A_KEY, R2C2_AUTH_KEY_LEN, key);
	if (have_overlap)
		NLA_PUT_U32(msg, R2C2_A_KEY_OVERLAP_MS, overlap);
	err = ctl_nl_talk(msg, NULL, NULL);
	goto out;

nla_put_failure:
	nlmsg_free(msg);
	err = ctl_nl_put_failed();
out:
	memset(key, 0, sizeof(key));
	return err;
}

static int key_del(int argc, char **argv)
{
	struct nl_msg *msg;
	uint32_t id = 0;
	int err;

	if (argc > 1)
		return extra_arg(argv[1], usage);
	if (argc == 1 && parse_u32("key id", argv[0], 1, 255, &id))
		return R2C2CTL_EXIT_USAGE;
	err = ctl_nl_open();
	if (err)
		return err;
	msg = ctl_nl_msg(R2C2_CMD_KEY_DEL, false);
	if (!msg)
		return R2C2CTL_EXIT_ERR;
	if (id)
		NLA_PUT_U8(msg, R2C2_A_KEY_ID, (uint8_t)id);
	return ctl_nl_talk(msg, NULL, NULL);

nla_put_failure:
	nlmsg_free(msg);
	return ctl_nl_put_failed();
}

static int key_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[R2C2_A_MAX + 1];

	(void)arg;
	if (ctl_nl_parse(msg, tb, NULL))
		return -1;
	open_obj(NULL);
	if (tb[R2C2_A_KEY_ID]) {
		print_bool("set", NULL, true);
		print_uint("id", "key id %llu", nla_get_u8(tb[R2C2_A_KEY_ID]));
	} else {
		print_bool("set", NULL, false);
		print_text("key none");
	}
	if (tb[R2C2_A_KEY_OVERLAP_MS])
		print_uint("overlap_ms", " overlap %llums",
			   nla_get_u32(tb[R2C2_A_KEY_OVERLAP_MS]));
	if (tb[R2C2_A_KEY_PREV_ID]) {
		print_uint("prev_id", " prev id %llu",
			   nla_get_u8(tb[R2C2_A_KEY_PREV_ID]));
		if (tb[R2C2_A_KEY_PREV_MS])
			print_uint("prev_ms", " for %llums",
				   nla_get_u32(tb[R2C2_A_KEY_PREV_MS]));
	}
	print_nl();
	close_obj();
	return 0;
}

static int key_show(int argc, char **argv)
{
	struct nl_msg *msg;
	int err;

	if (argc > 0)
		return extra_arg(argv[0], usage);
	err = ctl_nl_open();
	if (err)
		return err;
	msg = ctl_nl_msg(R2C2_CMD_KEY_GET, false);
	if (!msg)
		return R2C2CTL_EXIT_ERR;
	return ctl_nl_talk(msg, key_cb, NULL);
}

int cmd_key(int argc, char **argv)
{
	const char *cmd = argc > 0 ? argv[0] : "show";

	if (is_help(cmd)) {
		usage(stdout);
		return R2C2CTL_EXIT_OK;
	}
	if (!strcmp(cmd, "set"))
		return key_set(argc - 1, argv + 1);
	if (!strcmp(cmd, "del") || !strcmp(cmd, "delete"))
		return key_del(argc - 1, argv + 1);
	if (!strcmp(cmd, "show") || !strcmp(cmd, "list"))
		return key_show(argc - 1, argv + 1);
	return usage_error("unknown key command \"%s\"", cmd);
}
