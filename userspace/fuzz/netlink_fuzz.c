// SPDX-License-Identifier: GPL-2.0
/*
 * netlink_fuzz.c - what r2c2d hears from the kernel, under libFuzzer.
 *
 * Feeds: the input as the bytes of netlink datagrams on r2c2d's event
 * socket: a run of messages, each framed by its nlmsg_len as libnl's
 * recvmsgs() frames them (at least a header, no more than what is left,
 * the next one NLMSG_ALIGN()ed after it; the first that does not fit
 * ends the run). Each message is copied into a libnl message
 * (nlmsg_convert(), as recvmsgs() does) and handed to dnl.c's ev_cb(),
 * the event socket's NL_CB_VALID callback, with main.c's on_event() and
 * the daemon's ROUTES and TOPO callbacks behind it. The messages libnl
 * keeps for itself (NOOP, ERROR, DONE, OVERRUN) are skipped, and one
 * flagged NLM_F_DUMP_INTR ends the run, as it ends libnl's. The family
 * id of r2c2 is FUZZ_FAMILY (0x1a), nlctrl's is GENL_ID_CTRL (0x10).
 * Reaches: dnl.c: ev_cb(), the policy checks of genlmsg_parse(),
 * routes_ev(), ctrl_ev() (CTRL_CMD_DELFAMILY); main.c: on_event(),
 * own_echo(), on_digest_event(), on_routes(), on_topo_event() and,
 * after the run, topo_step() when a TOPO_EVENT came and one rate round,
 * compute(); matrix.c: mx_apply() and the rest of the matrix; digest.c:
 * dg_heard(), dg_asked(); routesel.c: rs_apply().
 * The daemon: node 5 of torus:4x4 (its own flows are those of source 5),
 * digests on, route selection off; built once, its matrix emptied after
 * each input.
 * Checks: after the run, the matrix's own invariants: every flow found
 * by its key at its index, fields within what mx_apply() admits, the
 * per-source counts and digests (mx_digest()) equal to the flows'
 * (mx_digest_walk()), the own count; every rate the round computed
 * finite and not negative; once every flow is removed, every source's
 * count and digest back at 0.
 * Work per input: the messages of -max_len bytes (a FLOW_EVENT takes 56
 * at least: some 70 flows), one round on 16 nodes.
 */
#include "../r2c2d/dnl.c"
#include "fuzz_daemon.h"
#include "fuzz.h"

static struct r2c2d d;

static void fail(const char *why, const struct mx_flow *f)
{
	fprintf(stderr, "netlink_fuzz: %s", why);
	if (f)
		fprintf(stderr, " (flow %u/%08x -> %u)", f->src, f->id, f->dst);
	fputc('\n', stderr);
	abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_daemon_init(&d, 5, "torus:4x4", NULL);
	return 0;
}

/* the matrix as matrix.h describes it */
static void mx_check(const struct mx *m)
{
	uint32_t i, j, own = 0, n, h;

	if (m->n > m->cap || m->n > m->max_flows)
		fail("more flows than room", NULL);
	for (i = 0; i < m->n; i++) {
		const struct mx_flow *f = &m->f[i];

		if (mx_find(m, f->src, f->id) != i)
			fail("a flow not found at its index", f);
		if (f->src == f->dst || f->dst == R2C2_ADDR_NONE ||
		    !f->weight || f->prio > 15 || f->rproto >= __R2C2_RP_MAX ||
		    f->demand_kbps > R2C2_DEMAND_UNLIMITED)
			fail("a flow mx_apply() would refuse", f);
		if (!(f->rate >= 0) || !isfinite(f->rate))
			fail("a rate not finite or negative", f);
		own += (int)f->src == m->own_src;
		/* each source once, at its first flow */
		for (j = 0; j < i && m->f[j].src != f->src; j++)
			;
		if (j < i)
			continue;
		h = mx_digest_walk(m, f->src, &n);
		if (m->src_n[f->src] != n || m->src_dg[f->src] != h)
			fail("a source's count or digest differs from its flows'", f);
	}
	if (own != m->own)
		fail("the own count", NULL);
}

/* empty the matrix for the next input; every source then holds nothing */
static void reset(void)
{
	static const uint32_t zero[UINT16_MAX + 1];

	while (d.mx.n)
		mx_remove(&d.mx, d.mx.n - 1);
	/* one memcmp, not 65536 traced comparisons */
	if (memcmp(d.mx.src_n, zero, sizeof(zero)) ||
	    memcmp(d.mx.src_dg, zero, sizeof(zero)))
		fail("a source's count or digest left with no flow", NULL);
	if (d.mx.own)
		fail("the own count left with no flow", NULL);
	memset(&d.mx.st, 0, sizeof(d.mx.st));
	dg_fini(&d.dg);
	d.dg.answer_due = false;
	d.dg.answered_ns = d.dg.repaired_ns = 0;
	memset(&d.dg.st, 0, sizeof(d.dg.st));
	memset(&d.t, 0, sizeof(d.t));
	memset(&d.ts, 0, sizeof(d.ts));
	d.topo_dirty = false;
	d.topo_retry_ns = 0;
	d.nl.gone = false;
	d.computed_gen = d.mx.gen - 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ev_ctx c = { &d.nl, on_event, &d };
	size_t off = 0;

	while (size - off >= NLMSG_HDRLEN) {
		struct nlmsghdr h;
		struct nl_msg *msg;

		memcpy(&h, data + off, sizeof(h));
		if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > size - off ||
		    h.nlmsg_flags & NLM_F_DUMP_INTR)
			break;
		if (h.nlmsg_type < NLMSG_NOOP || h.nlmsg_type > NLMSG_OVERRUN) {
			/* libnl reads it whole: what it holds, no more */
			msg = nlmsg_convert((struct nlmsghdr *)(uintptr_t)(data + off));
			if (!msg)
				abort();
			ev_cb(msg, &c);
			nlmsg_free(msg);
		}
		if (NLMSG_ALIGN(h.nlmsg_len) >= size - off)
			break;
		off += NLMSG_ALIGN(h.nlmsg_len);
	}
	if (d.topo_dirty)
		topo_step(&d, r2c2d_now());
	if (compute(&d))
		fail("the round failed", NULL);
	mx_check(&d.mx);
	reset();
	return 0;
}
