/* SPDX-License-Identifier: GPL-2.0 */
/*
 * worker.h - one job at a time in a thread beside r2c2d's loop.
 *
 * The loop hands a job (a function and its argument) to a thread and
 * goes on; an eventfd in its poll set wakes it when the job is over, and
 * it joins the thread then. Route selection and table builds use it.
 */
#ifndef _R2C2D_WORKER_H
#define _R2C2D_WORKER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/**
 * struct wk - a worker thread
 * @fn: the job, called with @arg in the thread
 * @arg: the job's argument: the thread owns what it names until joined
 * @running: a thread was started and is not joined yet
 * @done: set by the thread (release) once @fn returned: what @fn wrote
 *	is then visible to the loop (acquire)
 * @efd: an eventfd, made at the first start, written when the job is over
 * @thr: the thread
 */
struct wk {
	void (*fn)(void *arg);
	void *arg;
	bool running;
	atomic_bool done;
	int efd;
	pthread_t thr;
};

/* clock c (CLOCK_MONOTONIC, CLOCK_THREAD_CPUTIME_ID, ...) in ns: how jobs time themselves */
uint64_t wk_clock_ns(clockid_t c);

void wk_init(struct wk *w);
/* joins a running job, closes the eventfd */
void wk_fini(struct wk *w);
/* start fn(arg) in a thread: -EBUSY while one runs, else 0 or -errno */
int wk_start(struct wk *w, void (*fn)(void *arg), void *arg);
/* the eventfd that becomes readable when the job is over; -1 when none runs */
int wk_fd(const struct wk *w);
bool wk_running(const struct wk *w);
/* a job runs and is over: wk_join() will not wait */
bool wk_over(const struct wk *w);
/*
 * Join the job once it is over (wait: whatever it takes) and consume its
 * wakeup: -EAGAIN while it runs, -ECHILD when none was started, else 0.
 */
int wk_join(struct wk *w, bool wait);

#endif /* _R2C2D_WORKER_H */
