/* The writer's lock (at_writer_internal.h): a spin lock that yields, then sleeps. */
#define _GNU_SOURCE
#include "at_writer_internal.h"
#include "gt_siglock.h"

#include <sched.h>
#include <time.h>

__thread const at_lock *at_t_holding __attribute__((tls_model("initial-exec")));

static void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ volatile("pause");
#endif
}

/* Holders keep it for a copy (nanoseconds), a large event (a memcpy) or while they
 * wait for a free chunk buffer (the compressor behind): spin briefly, then give the
 * core away. */
void at_lock_wait(at_lock *l)
{
    for (unsigned i = 0;; ++i) {
        if (atomic_load_explicit(&l->word, memory_order_relaxed) == 0 &&
            atomic_exchange_explicit(&l->word, 1, memory_order_acquire) == 0)
            return;
        if (i < 256) {
            relax();
        } else if (i < 512) {
            sched_yield();
        } else {
            struct timespec ts = {0, 50000};
            nanosleep(&ts, NULL);
        }
    }
}

int at_lock_try(at_lock *l)
{
    if (atomic_exchange_explicit(&l->word, 1, memory_order_acquire) != 0)
        return 0;
    at_t_holding = l;
    return 1;
}

static int lock_try(void *l) { return at_lock_try(l); }

int at_lock_bounded(at_lock *l, int ms) { return gt_try_bounded(lock_try, l, ms); }
