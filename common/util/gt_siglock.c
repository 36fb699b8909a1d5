#define _GNU_SOURCE
#include "gt_siglock.h"

#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int gt_mutex_held_by_caller(const pthread_mutex_t *m)
{
#ifdef __GLIBC__
    return m->__data.__owner == (int)syscall(SYS_gettid);
#else
    (void)m;
    return 0;
#endif
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int gt_try_bounded(int (*try_once)(void *), void *arg, int ms)
{
    for (int64_t end = now_ms() + ms;;) {
        if (try_once(arg))
            return 1;
        if (now_ms() > end)
            return 0;
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
    }
}

static int mutex_try(void *m) { return pthread_mutex_trylock(m) == 0; }

int gt_mutex_lock_bounded(pthread_mutex_t *m, int ms) { return gt_try_bounded(mutex_try, m, ms); }
