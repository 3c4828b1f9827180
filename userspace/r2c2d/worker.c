// SPDX-License-Identifier: GPL-2.0
/*
 * worker.c - one job at a time in a thread beside r2c2d's loop (see
 * worker.h).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include "worker.h"

uint64_t wk_clock_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void wk_init(struct wk *w)
{
	memset(w, 0, sizeof(*w));
	w->efd = -1;
}

void wk_fini(struct wk *w)
{
	if (w->running)
		wk_join(w, true);
	if (w->efd >= 0)
		close(w->efd);
	wk_init(w);
}

static void *wk_thread(void *arg)
{
	struct wk *w = arg;
	uint64_t one = 1;

	w->fn(w->arg);
	/* publishes the job's result; the eventfd only wakes the loop */
	atomic_store_explicit(&w->done, true, memory_order_release);
	if (write(w->efd, &one, sizeof(one)) < 0)
		return NULL;	/* the loop finds done at its next tick */
	return NULL;
}

int wk_start(struct wk *w, void (*fn)(void *arg), void *arg)
{
	int r;

	if (w->running)
		return -EBUSY;
	if (w->efd < 0)
		w->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (w->efd < 0)
		return -errno;
	w->fn = fn;
	w->arg = arg;
	atomic_store(&w->done, false);
	r = pthread_create(&w->thr, NULL, wk_thread, w);
	if (r)
		return -r;
	w->running = true;
	return 0;
}

int wk_fd(const struct wk *w)
{
	return w->running ? w->efd : -1;
}

bool wk_running(const struct wk *w)
{
	return w->running;
}

bool wk_over(const struct wk *w)
{
	return w->running &&
	       atomic_load_explicit(&w->done, memory_order_acquire);
}

int wk_join(struct wk *w, bool wait)
{
	uint64_t v;

	if (!w->running)
		return -ECHILD;
	if (!wait && !atomic_load_explicit(&w->done, memory_order_acquire))
		return -EAGAIN;
	pthread_join(w->thr, NULL);
	/* consume the wakeup (it may not have been written yet: then 0) */
	if (read(w->efd, &v, sizeof(v)) < 0)
		v = 0;
	w->running = false;
	return 0;
}
