/* Mutexes from signal handlers: a dying process's handler must know whether its own
 * thread holds a lock (it interrupted that thread inside it: waiting would deadlock)
 * and otherwise wait a bounded time for the holder, which keeps such locks only for
 * microseconds or a chunk's write. Both are async-signal-safe (trylock, nanosleep,
 * clock_gettime, gettid). */
#ifndef GT_SIGLOCK_H
#define GT_SIGLOCK_H

#include <pthread.h>

/* 1 when the calling thread holds m. glibc keeps the holder's thread id in the mutex;
 * elsewhere we cannot tell (0), and a bounded wait simply runs out. */
int gt_mutex_held_by_caller(const pthread_mutex_t *m);
/* Calls try_once(arg) until it gives 1 (then 1), sleeping 0.1 ms between tries, for at
 * most about ms milliseconds (then 0). */
int gt_try_bounded(int (*try_once)(void *), void *arg, int ms);
/* Locks m, waiting at most about ms milliseconds; 1 when locked. */
int gt_mutex_lock_bounded(pthread_mutex_t *m, int ms);

#endif
