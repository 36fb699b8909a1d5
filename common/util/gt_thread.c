#define _GNU_SOURCE
#include "gt_thread.h"

#include <signal.h>
#include <sys/mman.h>

enum { STACK_SIZE = 256 * 1024, GUARD = 4096 };

int gt_thread_start(gt_thread *t, void *(*fn)(void *), void *arg, int detached)
{
    t->size = STACK_SIZE + GUARD;
    t->stack = mmap(NULL, t->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK,
                    -1, 0);
    if (t->stack == MAP_FAILED)
        return -1;
    mprotect(t->stack, GUARD, PROT_NONE); /* stacks grow down: an overflow faults */
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstack(&attr, (char *)t->stack + GUARD, STACK_SIZE);
    if (detached)
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old); /* inherited by the new thread */
    int rc = pthread_create(&t->id, &attr, fn, arg);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        munmap(t->stack, t->size);
        return -1;
    }
    return 0;
}

void gt_thread_join(gt_thread *t)
{
    pthread_join(t->id, NULL);
    munmap(t->stack, t->size);
}
