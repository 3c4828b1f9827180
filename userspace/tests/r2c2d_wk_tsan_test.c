// SPDX-License-Identifier: GPL-2.0
/*
 * r2c2d_wk_tsan_test.c - the worker thread that route selection and
 * table builds share (r2c2d/worker.c), built with ThreadSanitizer (TAP).
 * A job that waits on a gate this thread opens makes every state
 * deterministic: running and not over, over and not joined, joined.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <time.h>

#include "../r2c2d/worker.c"
#include "alloc_tap.h"

struct job {
	sem_t gate;		/* the job waits for it */
	sem_t entered;		/* posted once the job runs */
	int result;		/* written by the job, read after the join */
	int runs;
};

static void job_fn(void *arg)
{
	struct job *j = arg;
	struct timespec until;

	sem_post(&j->entered);
	/* bounded: a broken worker fails the checks instead of hanging */
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 5;
	if (sem_timedwait(&j->gate, &until))
		return;
	j->result = 42;
	j->runs++;
}

/* the eventfd's readiness now (without waiting) */
static int readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

int main(void)
{
	struct job j = { 0 };
	struct wk w;
	int fd = -1;

	sem_init(&j.gate, 0, 0);
	sem_init(&j.entered, 0, 0);
	wk_init(&w);
	ok(!wk_running(&w) && !wk_over(&w) && wk_fd(&w) == -1 &&
	   wk_join(&w, false) == -ECHILD && wk_join(&w, true) == -ECHILD,
	   "idle: not running, no fd, nothing to join");

	ok(wk_start(&w, job_fn, &j) == 0 && wk_running(&w) &&
	   (fd = wk_fd(&w)) >= 0, "started: running, with an fd");
	sem_wait(&j.entered);
	ok(wk_start(&w, job_fn, &j) == -EBUSY, "a second start is refused");
	ok(!wk_over(&w) && !readable(fd) && wk_join(&w, false) == -EAGAIN &&
	   wk_running(&w), "the job holds: not over, fd quiet, join refuses");

	sem_post(&j.gate);
	{
		struct pollfd p = { .fd = fd, .events = POLLIN };

		ok(poll(&p, 1, 10000) == 1 && wk_over(&w) && wk_running(&w),
		   "the fd wakes the loop once the job is over");
	}
	ok(wk_join(&w, false) == 0 && !wk_running(&w) && !wk_over(&w) &&
	   wk_fd(&w) == -1 && j.result == 42 && j.runs == 1,
	   "joined: the job's result is the loop's, no fd");
	ok(!readable(fd), "the join consumed the wakeup");

	/* again: the eventfd is reused, and join(wait) waits */
	j.result = 0;
	ok(wk_start(&w, job_fn, &j) == 0 && wk_fd(&w) == fd,
	   "a second job reuses the eventfd");
	sem_wait(&j.entered);
	sem_post(&j.gate);
	ok(wk_join(&w, true) == 0 && j.result == 42 && j.runs == 2 &&
	   !readable(fd), "join(wait) waits for the job and consumes its wakeup");

	/* fini joins a running job */
	ok(wk_start(&w, job_fn, &j) == 0, "a third job");
	sem_post(&j.gate);
	wk_fini(&w);
	ok(!wk_running(&w) && w.efd == -1 && j.runs == 3,
	   "fini joins it and closes the eventfd");
	wk_fini(&w);
	ok(w.efd == -1, "fini twice is harmless");
	sem_destroy(&j.gate);
	sem_destroy(&j.entered);
	return tap_done();
}
