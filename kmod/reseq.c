// SPDX-License-Identifier: GPL-2.0
/*
 * reseq.c - the reorder buffer of one flow: a pure state machine.
 *
 * A flow expects sequence number @next. A packet with that number is
 * released at once, together with the run of held packets that follows
 * it. A packet less than a window ahead is held in the ring slot
 * seq % R2C2_RSQ_WIN. The gap at @next is given up when the packet after
 * it has waited the timeout, or early when a limit is reached: @next
 * jumps to the first held packet and the run from there is released.
 * Everything released is appended to a list in sequence order: the caller
 * delivers it. Time is an argument (ns), so tests control it.
 *
 * Serial arithmetic on u32 sequence numbers: the distance of @seq from
 * @next is (s32)(@seq - @next), so numbers wrap.
 */
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/skbuff.h>

#include "reseq.h"

#define R2C2_RSQ_MASK	(R2C2_RSQ_WIN - 1)

/* arrival time of a held packet, in its control buffer */
struct r2c2_rsq_cb {
	u64 arrival;
};

static inline struct r2c2_rsq_cb *r2c2_rsq_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct r2c2_rsq_cb) > sizeof(skb->cb));
	BUILD_BUG_ON(R2C2_RSQ_WIN & R2C2_RSQ_MASK);
	return (struct r2c2_rsq_cb *)skb->cb;
}

/**
 * r2c2_rsq_fast() - the common case: the expected packet, nothing held
 * @f: the flow
 * @seq: the packet's sequence number
 *
 * Return: true when the packet is in order and nothing is held (the
 * caller delivers it; the flow now expects @seq + 1 and counted it).
 */
bool r2c2_rsq_fast(struct r2c2_rsq_flow *f, u32 seq)
{
	if (!f->synced || seq != f->next || f->nheld)
		return false;
	f->next++;
	f->cnt[R2C2_RSQ_INORDER]++;
	return true;
}

/**
 * r2c2_rsq_ahead() - would the packet be held if it arrived now
 * @f: the flow
 * @seq: its sequence number
 *
 * Return: true when @seq is less than a window ahead of the expected
 * number (the caller then makes sure the flow has a ring).
 */
bool r2c2_rsq_ahead(const struct r2c2_rsq_flow *f, u32 seq)
{
	s32 d = (s32)(seq - f->next);

	return f->synced && d > 0 && d < R2C2_RSQ_WIN;
}

/* Distance from @next to the first held packet (1..WIN-1); 0 if none. */
static u32 r2c2_rsq_first(const struct r2c2_rsq_flow *f)
{
	u32 i;

	if (!f->nheld)
		return 0;
	for (i = 1; i < R2C2_RSQ_WIN; i++)
		if (f->ring[(f->next + i) & R2C2_RSQ_MASK])
			return i;
	return 0;	/* not reached: nheld counts ring entries */
}

/*
 * Release the run of held packets starting at @next, counting each under
 * @cnt (or not at all when @cnt is __R2C2_RSQ_CNT), then date the gap
 * that follows from its first held packet.
 */
static void r2c2_rsq_run(struct r2c2_rsq_flow *f, struct sk_buff_head *out,
			 struct r2c2_rsq_res *res, unsigned int cnt)
{
	struct sk_buff **slot;
	u32 first;

	while (f->nheld) {
		slot = &f->ring[f->next & R2C2_RSQ_MASK];
		if (!*slot)
			break;
		__skb_queue_tail(out, *slot);
		*slot = NULL;
		f->nheld--;
		res->held_delta--;
		f->next++;
		if (cnt < __R2C2_RSQ_CNT) {
			f->cnt[cnt]++;
			res->cnt[cnt]++;
		}
	}
	first = r2c2_rsq_first(f);
	f->gap_since = first ?
		r2c2_rsq_cb(f->ring[(f->next + first) & R2C2_RSQ_MASK])->arrival : 0;
}

/*
 * Give the gap at @next up at @now (0: not a timing decision): jump to the
 * first held packet, release.
 */
static void r2c2_rsq_skip(struct r2c2_rsq_flow *f, u64 now,
			  struct sk_buff_head *out, struct r2c2_rsq_res *res,
			  unsigned int cnt)
{
	u32 first = r2c2_rsq_first(f);

	f->skip_at = now;
	f->skip_lo = f->next;
	f->skip_hi = f->next + first;
	f->skip_since = f->gap_since;
	f->next += first;
	r2c2_rsq_run(f, out, res, cnt);
}

static void r2c2_rsq_count(struct r2c2_rsq_flow *f, struct r2c2_rsq_res *res,
			   unsigned int cnt)
{
	f->cnt[cnt]++;
	res->cnt[cnt]++;
}

/**
 * r2c2_rsq_flush() - release every held packet in sequence order
 * @f: the flow
 * @out: released packets are appended here
 * @res: what was done (no counter moves: the packets were counted as
 *	reordered when held)
 */
void r2c2_rsq_flush(struct r2c2_rsq_flow *f, struct sk_buff_head *out,
		    struct r2c2_rsq_res *res)
{
	while (f->nheld)
		r2c2_rsq_skip(f, 0, out, res, __R2C2_RSQ_CNT);
	f->gap_since = 0;
}

/* Restart the flow at @seq (delivered by the caller). */
static void r2c2_rsq_resync(struct r2c2_rsq_flow *f, u32 seq,
			    struct sk_buff_head *out, struct r2c2_rsq_res *res)
{
	r2c2_rsq_flush(f, out, res);
	f->next = seq + 1;
	f->skip_lo = 0;
	f->skip_hi = 0;
	f->skip_at = 0;
	r2c2_rsq_count(f, res, R2C2_RSQ_RESYNC);
}

/*
 * A limit is reached while @seq (ahead, not held) arrives: release the
 * oldest packets, counting the new one among them, until the flow is
 * under its limit. Return true when @seq was released (consumed).
 */
static bool r2c2_rsq_limit(struct r2c2_rsq_flow *f, struct sk_buff *skb,
			   u32 seq, u64 now, const struct r2c2_rsq_params *p,
			   struct sk_buff_head *out, struct r2c2_rsq_res *res)
{
	bool global = p->global_held >= p->limit;
	u32 first;

	do {
		first = r2c2_rsq_first(f);
		if (!first || (u32)(seq - f->next) < first) {
			/* the new packet is the oldest: it goes first */
			f->skip_lo = f->next;
			f->skip_hi = seq;
			f->skip_since = f->gap_since;
			f->skip_at = now;
			f->next = seq + 1;
			__skb_queue_tail(out, skb);
			r2c2_rsq_count(f, res, R2C2_RSQ_LIMIT);
			r2c2_rsq_run(f, out, res, R2C2_RSQ_LIMIT);
			return true;
		}
		r2c2_rsq_skip(f, now, out, res, R2C2_RSQ_LIMIT);
		if (seq == f->next)
			return false;	/* now in order */
	} while (!global && f->nheld >= p->flow_limit);
	return false;
}

/**
 * r2c2_rsq_rcv() - a packet of the flow arrives
 * @f: the flow (its ring allocated if r2c2_rsq_ahead() said so)
 * @skb: the packet, consumed: held, appended to @out or freed (a
 *	duplicate of a held packet)
 * @seq: its sequence number
 * @now: the time (ns)
 * @p: the node's limits and the current timeout
 * @out: released packets are appended here, in the order to deliver them
 * @res: what was done; zeroed by the caller
 */
void r2c2_rsq_rcv(struct r2c2_rsq_flow *f, struct sk_buff *skb, u32 seq,
		  u64 now, const struct r2c2_rsq_params *p,
		  struct sk_buff_head *out, struct r2c2_rsq_res *res)
{
	struct sk_buff **slot;
	s32 d;

	if (!f->synced) {
		f->synced = true;
		f->next = seq + 1;
		r2c2_rsq_count(f, res, R2C2_RSQ_INORDER);
		__skb_queue_tail(out, skb);
		return;
	}
	d = (s32)(seq - f->next);
	if (d == 0) {
		r2c2_rsq_count(f, res, R2C2_RSQ_INORDER);
		__skb_queue_tail(out, skb);
		f->next++;
		if (f->nheld) {
			/* a gap filled: how late its packet was */
			res->sample_ns = (u32)min_t(u64, now - f->gap_since,
						    U32_MAX);
			r2c2_rsq_run(f, out, res, __R2C2_RSQ_CNT);
		}
		return;
	}
	if (d <= -R2C2_RSQ_WIN || d >= R2C2_RSQ_WIN) {
		r2c2_rsq_resync(f, seq, out, res);
		__skb_queue_tail(out, skb);
		return;
	}
	if (d < 0) {
		/*
		 * Behind: its gap was given up, or a copy; never wait. In the
		 * last gap given up its lateness is known; in an older one it
		 * was at least the timeout plus the time since the last skip.
		 */
		if ((u32)(seq - f->skip_lo) < (u32)(f->skip_hi - f->skip_lo) &&
		    f->skip_since && now > f->skip_since)
			res->sample_ns = (u32)min_t(u64, now - f->skip_since,
						    U32_MAX);
		else if (f->skip_at && now >= f->skip_at &&
			 now - f->skip_at < R2C2_RSQ_ADAPT_MAX_NS)
			res->sample_ns = (u32)min_t(u64, p->timeout_ns + now -
						    f->skip_at, U32_MAX);
		r2c2_rsq_count(f, res, R2C2_RSQ_LATE);
		__skb_queue_tail(out, skb);
		return;
	}
	if (!f->ring) {
		/* no ring could be had: pass it on, as a limit would */
		r2c2_rsq_count(f, res, R2C2_RSQ_LIMIT);
		__skb_queue_tail(out, skb);
		return;
	}
	slot = &f->ring[seq & R2C2_RSQ_MASK];
	if (*slot) {
		r2c2_rsq_count(f, res, R2C2_RSQ_DUP);
		kfree_skb(skb);
		return;
	}
	if (f->nheld >= p->flow_limit || p->global_held >= p->limit) {
		if (r2c2_rsq_limit(f, skb, seq, now, p, out, res))
			return;
		if (seq == f->next) {
			r2c2_rsq_count(f, res, R2C2_RSQ_INORDER);
			__skb_queue_tail(out, skb);
			f->next++;
			r2c2_rsq_run(f, out, res, __R2C2_RSQ_CNT);
			return;
		}
		if (f->nheld >= p->flow_limit) {
			/* cannot happen: the flow was brought under its limit */
			r2c2_rsq_count(f, res, R2C2_RSQ_LIMIT);
			__skb_queue_tail(out, skb);
			return;
		}
	}
	r2c2_rsq_cb(skb)->arrival = now;
	*slot = skb;
	if (!f->nheld)
		f->gap_since = now;
	f->nheld++;
	res->held_delta++;
	if (f->nheld > f->maxdepth)
		f->maxdepth = f->nheld;
	r2c2_rsq_count(f, res, R2C2_RSQ_REORDERED);
}

/**
 * r2c2_rsq_expire() - give up gaps whose packet after waited too long
 * @f: the flow
 * @now: the time (ns)
 * @timeout_ns: the timeout
 * @out: released packets are appended here
 * @res: what was done; zeroed by the caller
 */
void r2c2_rsq_expire(struct r2c2_rsq_flow *f, u64 now, u64 timeout_ns,
		     struct sk_buff_head *out, struct r2c2_rsq_res *res)
{
	while (f->nheld && now >= f->gap_since + timeout_ns)
		r2c2_rsq_skip(f, now, out, res, R2C2_RSQ_TIMEOUT);
}

/**
 * r2c2_rsq_deadline() - when the gap at the head times out
 * @f: the flow
 * @timeout_ns: the timeout
 *
 * Return: the time (ns), or 0 when nothing is held.
 */
u64 r2c2_rsq_deadline(const struct r2c2_rsq_flow *f, u64 timeout_ns)
{
	return f->nheld ? f->gap_since + timeout_ns : 0;
}

/**
 * r2c2_rsq_free() - free held packets and the ring (the flow goes away)
 * @f: the flow
 */
void r2c2_rsq_free(struct r2c2_rsq_flow *f)
{
	unsigned int i;

	if (f->ring) {
		for (i = 0; i < R2C2_RSQ_WIN; i++)
			kfree_skb(f->ring[i]);
		kfree(f->ring);
	}
	f->ring = NULL;
	f->nheld = 0;
}

/**
 * r2c2_rsq_spread_add() - record an observed reorder delay
 * @sp: the estimate (updates from several CPUs may race: it is a hint)
 * @now: the time (ns)
 * @sample: the delay (ns)
 */
void r2c2_rsq_spread_add(struct r2c2_rsq_spread *sp, u64 now, u32 sample)
{
	s64 age = (s64)(now - READ_ONCE(sp->t));

	/*
	 * @now may predate a window another CPU just opened (it read the
	 * clock first): such a sample belongs to the current window.
	 */
	if (age >= (s64)R2C2_RSQ_SPREAD_WIN_NS) {
		WRITE_ONCE(sp->prev, age >= 2 * (s64)R2C2_RSQ_SPREAD_WIN_NS ?
			   0 : READ_ONCE(sp->cur));
		WRITE_ONCE(sp->cur, 0);
		WRITE_ONCE(sp->t, now);
	}
	if (sample > READ_ONCE(sp->cur))
		WRITE_ONCE(sp->cur, sample);
}

/**
 * r2c2_rsq_timeout() - the gap timeout adapted to the observed spread
 * @sp: the estimate
 * @now: the time (ns)
 * @cfg_ns: the configured timeout, a floor
 *
 * Return: twice the largest reorder delay seen in the last one to two
 * seconds, at least @cfg_ns and, unless @cfg_ns is larger, at most
 * R2C2_RSQ_ADAPT_MAX_NS.
 */
u64 r2c2_rsq_timeout(const struct r2c2_rsq_spread *sp, u64 now, u64 cfg_ns)
{
	s64 age = (s64)(now - READ_ONCE(sp->t));
	u64 m = 0;

	/* a clock read before another CPU opened the window: age 0 */
	if (age < (s64)R2C2_RSQ_SPREAD_WIN_NS)
		m = max(READ_ONCE(sp->cur), READ_ONCE(sp->prev));
	else if (age < 2 * (s64)R2C2_RSQ_SPREAD_WIN_NS)
		m = READ_ONCE(sp->cur);
	return max(cfg_ns, min_t(u64, 2 * m, R2C2_RSQ_ADAPT_MAX_NS));
}
