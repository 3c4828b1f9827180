// SPDX-License-Identifier: GPL-2.0
/*
 * xdp.c - r2c2ctl xdp { attach | detach | show }: the XDP transit program
 * (xdp/r2c2_xdp.bpf.c) on the node's ports.
 *
 * attach loads the program with libbpf, hands its two maps to r2c2.ko
 * (XDP_SET), which writes their entries from then on, and attaches it to
 * every port. The program stays attached when r2c2ctl exits; the maps
 * live as long as the program and the module's reference do. detach
 * takes it off every port, then lets the module give the maps up (their
 * counters move into the kernel's).
 */
#include <errno.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/if_link.h>
#include <netlink/attr.h>

#include <r2c2/xdp.h>

#include "json.h"
#include "nl.h"
#include "r2c2ctl.h"

#ifndef R2C2_XDP_OBJECT
#define R2C2_XDP_OBJECT "/usr/lib/r2c2/r2c2_xdp.bpf.o"
#endif

enum xdp_mode { MODE_AUTO, MODE_NATIVE, MODE_GENERIC };

static void usage(FILE *f)
{
	fputs("Usage: r2c2ctl xdp attach [ mode { auto | native | generic } ]\n"
	      "                          [ object FILE ]\n"
	      "       r2c2ctl xdp detach\n"
	      "       r2c2ctl [ -j ] xdp show\n"
	      "where  mode   native: in the port's driver (veth, virtio-net);\n"
	      "              generic: in the stack, for any netdev; auto (the\n"
	      "              default): native where the driver takes it, else\n"
	      "              generic\n"
	      "       FILE   the BPF object (default " R2C2_XDP_OBJECT ")\n"
	      "attach loads the transit program, gives its maps to r2c2.ko and\n"
	      "puts it on every port (again after a port is added). The program\n"
	      "forwards the data frames whose route goes on; everything else goes\n"
	      "to the kernel path as before. detach takes it off every port.\n",
	      f);
}

struct xdp_port {
	unsigned int ifindex;
	char dev[64];
	uint8_t num;
};

struct port_list {
	struct xdp_port p[R2C2_MAX_PORTS];
	unsigned int n;
};

static int ports_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[R2C2_A_MAX + 1];
	struct port_list *l = arg;
	struct port_info pi;

	if (ctl_nl_parse(msg, tb, NULL))
		return -1;
	port_info_parse(tb, &pi);
	if (!pi.has_port || !pi.has_ifindex || l->n == R2C2_MAX_PORTS)
		return 0;
	l->p[l->n].ifindex = pi.ifindex;
	l->p[l->n].num = pi.port;
	snprintf(l->p[l->n].dev, sizeof(l->p[l->n].dev), "%s", pi.dev);
	l->n++;
	return 0;
}

static int ports_get(struct port_list *l)
{
	struct nl_msg *msg = ctl_nl_msg(R2C2_CMD_PORT_GET, true);

	memset(l, 0, sizeof(*l));
	if (!msg)
		return R2C2CTL_EXIT_ERR;
	return ctl_nl_talk(msg, ports_cb, l);
}

/**
 * struct xdp_prog - the XDP program on a netdev, as the kernel gives it
 * @id: its id, 0 for none
 * @mode: XDP_ATTACHED_*
 * @name: its name (R2C2_XDP_PROG for r2c2's)
 * @run_cnt: its runs, counted while kernel.bpf_stats_enabled is 1
 * @run_time_ns: their time
 * @nr_map_ids: entries of @map_ids
 * @map_ids: the ids of its maps (r2c2's has two)
 */
struct xdp_prog {
	uint32_t id;
	uint8_t mode;
	char name[BPF_OBJ_NAME_LEN];
	unsigned long long run_cnt, run_time_ns;
	uint32_t nr_map_ids;
	uint32_t map_ids[8];
};

/* The family's socket opened, and the node's ports into @l. */
static int ports_open(struct port_list *l)
{
	int err = ctl_nl_open();

	return err ? err : ports_get(l);
}

/* The program attached to @ifindex, into @p: one query of the kernel. */
static int xdp_query(unsigned int ifindex, struct xdp_prog *p)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	struct bpf_prog_info info;
	uint32_t ilen = sizeof(info), nmaps = sizeof(p->map_ids) / sizeof(p->map_ids[0]);
	int fd, err;

	memset(p, 0, sizeof(*p));
	err = bpf_xdp_query((int)ifindex, 0, &q);
	if (err)
		return err;
	p->id = q.prog_id;
	p->mode = q.attach_mode;
	if (!p->id)
		return 0;
	fd = bpf_prog_get_fd_by_id(p->id);
	if (fd < 0)
		return -errno;
	memset(&info, 0, sizeof(info));
	info.nr_map_ids = nmaps;
	info.map_ids = (uint64_t)(uintptr_t)p->map_ids;
	err = bpf_obj_get_info_by_fd(fd, &info, &ilen);
	close(fd);
	if (err)
		return -errno;
	snprintf(p->name, sizeof(p->name), "%s", info.name);
	p->run_cnt = info.run_cnt;
	p->run_time_ns = info.run_time_ns;
	p->nr_map_ids = info.nr_map_ids < nmaps ? info.nr_map_ids : nmaps;
	return 0;
}

static bool is_r2c2(const struct xdp_prog *p)
{
	return p->id && !strcmp(p->name, R2C2_XDP_PROG);
}

/* Whether @dev runs another program than r2c2's (said on stderr). */
static bool foreign_prog(const char *dev, const struct xdp_prog *p)
{
	if (!p->id || is_r2c2(p))
		return false;
	fprintf(stderr,
		"r2c2ctl: xdp: %s already has XDP program %u (\"%s\"); detach it first\n",
		dev, p->id, p->name);
	return true;
}

static const char *mode_name(uint8_t mode)
{
	switch (mode) {
	case XDP_ATTACHED_DRV:
		return "native";
	case XDP_ATTACHED_SKB:
		return "generic";
	case XDP_ATTACHED_HW:
		return "offload";
	case XDP_ATTACHED_MULTI:
		return "multi";
	default:
		return "none";
	}
}

static uint32_t mode_flags(uint8_t mode)
{
	return mode == XDP_ATTACHED_SKB ? XDP_FLAGS_SKB_MODE :
	       mode == XDP_ATTACHED_DRV ? XDP_FLAGS_DRV_MODE : 0;
}

static int xdp_set(int ports_fd, int stats_fd)
{
	struct nl_msg *msg = ctl_nl_msg(R2C2_CMD_XDP_SET, false);

	if (!msg)
		return R2C2CTL_EXIT_ERR;
	if (ports_fd >= 0 &&
	    (nla_put_s32(msg, R2C2_A_XDP_PORTS_FD, ports_fd) ||
	     nla_put_s32(msg, R2C2_A_XDP_STATS_FD, stats_fd))) {
		nlmsg_free(msg);
		return ctl_nl_put_failed();
	}
	return ctl_nl_talk(msg, NULL, NULL);
}

/* xdp_query() of port @p, with the error printed */
static int port_query(const struct xdp_port *p, struct xdp_prog *prog)
{
	int err = xdp_query(p->ifindex, prog);

	if (err)
		fprintf(stderr, "r2c2ctl: xdp: %s: %s\n", p->dev, strerror(-err));
	return err;
}

/* Take our program off @p (another one is left alone). */
static int detach_port(const struct xdp_port *p)
{
	struct xdp_prog prog;
	int err;

	if (port_query(p, &prog))
		return R2C2CTL_EXIT_ERR;
	if (!is_r2c2(&prog))
		return R2C2CTL_EXIT_OK;
	err = bpf_xdp_detach((int)p->ifindex, mode_flags(prog.mode), NULL);
	if (err) {
		fprintf(stderr, "r2c2ctl: xdp: detaching from %s: %s\n", p->dev,
			strerror(-err));
		return R2C2CTL_EXIT_ERR;
	}
	return R2C2CTL_EXIT_OK;
}

static int attach_port(const struct xdp_port *p, int prog_fd,
		       enum xdp_mode want, const char **used)
{
	struct xdp_prog prog;
	int err;

	/* another one since xdp_attach() looked: still not replaced */
	if (port_query(p, &prog) || foreign_prog(p->dev, &prog))
		return R2C2CTL_EXIT_ERR;
	/* ours, loaded before: replaced, in whatever mode it was */
	if (prog.id &&
	    bpf_xdp_detach((int)p->ifindex, mode_flags(prog.mode), NULL)) {
		fprintf(stderr, "r2c2ctl: xdp: detaching the old program from %s: %s\n",
			p->dev, strerror(errno));
		return R2C2CTL_EXIT_ERR;
	}
	err = -EOPNOTSUPP;
	if (want != MODE_GENERIC) {
		err = bpf_xdp_attach((int)p->ifindex, prog_fd,
				     XDP_FLAGS_DRV_MODE, NULL);
		*used = "native";
	}
	if (err && want != MODE_NATIVE) {
		err = bpf_xdp_attach((int)p->ifindex, prog_fd,
				     XDP_FLAGS_SKB_MODE, NULL);
		*used = "generic";
	}
	if (err) {
		fprintf(stderr, "r2c2ctl: xdp: attaching to %s (%s): %s\n",
			p->dev, want == MODE_NATIVE ? "native" : "generic",
			strerror(-err));
		return R2C2CTL_EXIT_ERR;
	}
	return R2C2CTL_EXIT_OK;
}

static int libbpf_quiet(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static int xdp_attach(int argc, char **argv)
{
	const char *path = getenv("R2C2_XDP_OBJECT");
	enum xdp_mode want = MODE_AUTO;
	const char *used = "";
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct bpf_map *pm, *sm;
	bool have_mode = false, have_obj = false;
	struct port_list l;
	unsigned int i, done = 0;
	int err, prog_fd;

	if (!path || !*path)
		path = R2C2_XDP_OBJECT;
	for (; argc > 0; argc--, argv++) {
		if (matches(*argv, "mode")) {
			if (have_mode)
				return duplicate_arg("mode");
			NEXT_ARG();
			if (!strcmp(*argv, "auto"))
				want = MODE_AUTO;
			else if (!strcmp(*argv, "native"))
				want = MODE_NATIVE;
			else if (!strcmp(*argv, "generic"))
				want = MODE_GENERIC;
			else
				return invalid_arg("mode", *argv,
						   "auto, native or generic");
			have_mode = true;
		} else if (matches(*argv, "object")) {
			if (have_obj)
				return duplicate_arg("object");
			NEXT_ARG();
			path = *argv;
			have_obj = true;
		} else {
			return extra_arg(*argv, usage);
		}
	}
	if (opts.check)
		return R2C2CTL_EXIT_OK;
	err = ports_open(&l);
	if (err)
		return err;

	libbpf_set_print(libbpf_quiet);
	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		fprintf(stderr, "r2c2ctl: xdp: cannot open %s: %s\n", path,
			strerror(errno));
		return R2C2CTL_EXIT_ERR;
	}
	err = bpf_object__load(obj);
	if (err) {
		fprintf(stderr, "r2c2ctl: xdp: %s: the kernel refused the program: %s\n",
			path, strerror(-err));
		goto close;
	}
	prog = bpf_object__find_program_by_name(obj, R2C2_XDP_PROG);
	pm = bpf_object__find_map_by_name(obj, R2C2_XDP_PORTS_MAP);
	sm = bpf_object__find_map_by_name(obj, R2C2_XDP_STATS_MAP);
	if (!prog || !pm || !sm) {
		fprintf(stderr, "r2c2ctl: xdp: %s is not r2c2's XDP program\n",
			path);
		err = -EINVAL;
		goto close;
	}
	prog_fd = bpf_program__fd(prog);
	/* another program on a port: refused before anything changes */
	for (i = 0; i < l.n; i++) {
		struct xdp_prog p;

		if (!xdp_query(l.p[i].ifindex, &p) && foreign_prog(l.p[i].dev, &p)) {
			err = -EEXIST;
			goto close;
		}
	}
	err = xdp_set(bpf_map__fd(pm), bpf_map__fd(sm));
	if (err)
		goto close;
	/* the module writes the entries; nobody else through the syscall */
	if (bpf_map_freeze(bpf_map__fd(pm)))
		fprintf(stderr, "r2c2ctl: xdp: freezing the ports map: %s\n",
			strerror(errno));
	open_arr(NULL);
	for (i = 0; i < l.n; i++) {
		err = attach_port(&l.p[i], prog_fd, want, &used);
		if (err)
			break;
		done++;
		open_obj(NULL);
		print_str("dev", "%s", l.p[i].dev);
		print_uint("port", " port %llu", l.p[i].num);
		print_str("mode", " xdp %s", used);
		print_nl();
		close_obj();
	}
	close_arr();
	if (err) {	/* as it was: off the ports done, maps given up */
		for (i = 0; i < done; i++)
			detach_port(&l.p[i]);
		xdp_set(-1, -1);
	}
close:
	bpf_object__close(obj);	/* the attachments hold the program */
	return err ? R2C2CTL_EXIT_ERR : R2C2CTL_EXIT_OK;
}

static int xdp_detach(int argc, char **argv)
{
	struct port_list l;
	unsigned int i;
	int err, ret = R2C2CTL_EXIT_OK;

	if (argc > 0)
		return extra_arg(argv[0], usage);
	if (opts.check)
		return R2C2CTL_EXIT_OK;
	err = ports_open(&l);
	if (err)
		return err;
	for (i = 0; i < l.n; i++)
		if (detach_port(&l.p[i]))
			ret = R2C2CTL_EXIT_ERR;
	err = xdp_set(-1, -1);
	return err ? err : ret;
}

static int node_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[R2C2_A_MAX + 1];
	bool *bound = arg;

	if (ctl_nl_parse(msg, tb, NULL))
		return -1;
	*bound = tb[R2C2_A_XDP] && nla_get_u8(tb[R2C2_A_XDP]);
	return 0;
}

/* Whether the module holds an XDP program's maps (NODE_GET). */
static int node_bound(bool *bound)
{
	struct nl_msg *msg = ctl_nl_msg(R2C2_CMD_NODE_GET, false);

	*bound = false;
	if (!msg)
		return R2C2CTL_EXIT_ERR;
	return ctl_nl_talk(msg, node_cb, bound);
}

/* A map of program @p, by name: its fd, or -1. */
static int prog_map_fd(const struct xdp_prog *p, const char *name)
{
	struct bpf_map_info mi;
	uint32_t mlen, i;
	int mfd;

	for (i = 0; i < p->nr_map_ids; i++) {
		mfd = bpf_map_get_fd_by_id(p->map_ids[i]);
		if (mfd < 0)
			continue;
		memset(&mi, 0, sizeof(mi));
		mlen = sizeof(mi);
		if (!bpf_obj_get_info_by_fd(mfd, &mi, &mlen) &&
		    !strcmp(mi.name, name))
			return mfd;
		close(mfd);
	}
	return -1;
}

/*
 * What program @p knows of port @num: its entry in the ports map (what
 * r2c2.ko wrote) and its own counters of @stats (the module adds them to
 * the port's), summed over the CPUs.
 */
static int xdp_port_read(const struct xdp_prog *p, unsigned int num,
			 struct r2c2_xdp_port *e, const unsigned int *stats,
			 unsigned long long *out, unsigned int n)
{
	int cpus = libbpf_num_possible_cpus(), pfd, sfd, ret = -1, c;
	unsigned long long *v = NULL;
	unsigned int k;
	__u32 key = num;

	if (cpus <= 0)
		return -1;
	pfd = prog_map_fd(p, R2C2_XDP_PORTS_MAP);
	sfd = prog_map_fd(p, R2C2_XDP_STATS_MAP);
	if (pfd < 0 || sfd < 0 || bpf_map_lookup_elem(pfd, &key, e))
		goto out;
	v = calloc((size_t)cpus, sizeof(*v));
	if (!v)
		goto out;
	for (k = 0; k < n; k++) {
		out[k] = 0;
		key = r2c2_xdp_stat_key(num, stats[k]);
		if (bpf_map_lookup_elem(sfd, &key, v))
			goto out;
		for (c = 0; c < cpus; c++)
			out[k] += v[c];
	}
	ret = 0;
out:
	free(v);
	if (pfd >= 0)
		close(pfd);
	if (sfd >= 0)
		close(sfd);
	return ret;
}

static int xdp_show(int argc, char **argv)
{
	static const unsigned int counted[] = {
		R2C2_S_RX_PACKETS, R2C2_S_FORWARDED, R2C2_S_TX_PACKETS,
	};
	unsigned long long cnt[3];
	struct r2c2_xdp_port e;
	struct xdp_prog prog;
	struct port_list l;
	unsigned int i;
	bool bound;
	int err;

	if (argc > 0)
		return extra_arg(argv[0], usage);
	if (opts.check)
		return R2C2CTL_EXIT_OK;
	err = ports_open(&l);
	if (!err)
		err = node_bound(&bound);
	if (err)
		return err;
	open_obj(NULL);
	print_bool("bound", NULL, bound);
	print_text("xdp %s", bound ? "bound" : "none");
	print_nl();
	open_arr("ports");
	for (i = 0; i < l.n; i++) {
		if (xdp_query(l.p[i].ifindex, &prog))
			prog.id = 0;
		open_obj(NULL);
		print_str("dev", "  %s", l.p[i].dev);
		print_uint("port", " port %llu", l.p[i].num);
		print_str("mode", " xdp %s", prog.id ? mode_name(prog.mode) : "none");
		if (prog.id) {
			print_uint("prog_id", " id %llu", prog.id);
			print_str("prog", " prog %s", prog.name);
			print_bool("r2c2", NULL, is_r2c2(&prog));
		}
		/* counted while kernel.bpf_stats_enabled is 1 */
		if (prog.run_cnt) {
			print_uint("run_cnt", " runs %llu", prog.run_cnt);
			print_uint("run_time_ns", " run_ns %llu", prog.run_time_ns);
		}
		if (is_r2c2(&prog) &&
		    !xdp_port_read(&prog, l.p[i].num, &e, counted, cnt, 3)) {
			print_bool("forwarding", NULL,
				   e.flags & R2C2_XDP_F_FWD);
			print_bool("xmit", NULL, e.flags & R2C2_XDP_F_XMIT);
			print_bool("generic", NULL,
				   e.flags & R2C2_XDP_F_GENERIC);
			print_text(" %s%s", e.flags & R2C2_XDP_F_FWD ?
				   "forwarding" : "passing",
				   e.flags & R2C2_XDP_F_XMIT ? "" : " no-xmit");
			print_uint("rx_packets", " rx %llu", cnt[0]);
			print_uint("forwarded", " forwarded %llu", cnt[1]);
			print_uint("tx_packets", " tx %llu", cnt[2]);
			print_uint("entry_writes", " writes %llu", e.seq / 2);
		}
		print_nl();
		close_obj();
	}
	close_arr();
	close_obj();
	return R2C2CTL_EXIT_OK;
}

/**
 * xdp_port_added() - put the node's XDP program on a port just added
 * @dev: the port's netdev
 *
 * While the module holds an XDP program's maps, the program another
 * port runs goes on @dev too, in that port's mode (native falling back to
 * generic), so that `port add` keeps every port covered.
 *
 * Return: an R2C2CTL_EXIT_* status (an error message printed).
 */
int xdp_port_added(const char *dev)
{
	struct xdp_prog prog = { 0 };
	struct port_list l;
	unsigned int i, ifindex = if_nametoindex(dev);
	uint32_t id;
	uint8_t mode;
	bool bound;
	int fd, err;

	if (!ifindex)
		return R2C2CTL_EXIT_OK;		/* gone already */
	err = node_bound(&bound);
	if (err || !bound)
		return err;
	err = ports_get(&l);
	if (err)
		return err;
	for (i = 0; i < l.n && !is_r2c2(&prog); i++)
		if (l.p[i].ifindex == ifindex || xdp_query(l.p[i].ifindex, &prog))
			prog.id = 0;
	if (!is_r2c2(&prog))
		return R2C2CTL_EXIT_OK;
	id = prog.id;
	mode = prog.mode;
	fd = bpf_prog_get_fd_by_id(id);
	err = fd < 0 ? -errno : bpf_xdp_attach((int)ifindex, fd, mode_flags(mode), NULL);
	if (err && fd >= 0 && mode == XDP_ATTACHED_DRV)
		err = bpf_xdp_attach((int)ifindex, fd, XDP_FLAGS_SKB_MODE, NULL);
	if (fd >= 0)
		close(fd);
	if (err) {
		fprintf(stderr,
			"r2c2ctl: port add: %s is a port, but the node's XDP program (%u) is not on it: %s; \"xdp attach\" puts it there\n",
			dev, id, strerror(-err));
		return R2C2CTL_EXIT_ERR;
	}
	return R2C2CTL_EXIT_OK;
}

/**
 * xdp_port_ifindex() - the netdev of a port
 * @num: port number
 *
 * Return: its ifindex, 0 when the port does not exist or the dump fails.
 */
unsigned int xdp_port_ifindex(uint8_t num)
{
	struct port_list l;
	unsigned int i;

	if (ports_get(&l))
		return 0;
	for (i = 0; i < l.n; i++)
		if (l.p[i].num == num)
			return l.p[i].ifindex;
	return 0;
}

/**
 * xdp_port_removed() - take r2c2's XDP program off a netdev that left
 * @ifindex: the netdev that was a port
 *
 * Return: an R2C2CTL_EXIT_* status (an error message printed).
 */
int xdp_port_removed(unsigned int ifindex)
{
	struct xdp_port p = { .ifindex = ifindex };

	if (!if_indextoname(ifindex, p.dev))
		return R2C2CTL_EXIT_OK;		/* gone with its netdev */
	return detach_port(&p);
}

int cmd_xdp(int argc, char **argv)
{
	const char *cmd = argc > 0 ? argv[0] : "show";

	if (is_help(cmd)) {
		usage(stdout);
		return R2C2CTL_EXIT_OK;
	}
	if (!strcmp(cmd, "attach"))
		return xdp_attach(argc - 1, argv + 1);
	if (!strcmp(cmd, "detach"))
		return xdp_detach(argc - 1, argv + 1);
	if (!strcmp(cmd, "show") || !strcmp(cmd, "s"))
		return xdp_show(argc - 1, argv + 1);
	return usage_error("unknown xdp command \"%s\"", cmd);
}
