/* Threads a library starts inside someone else's program (the recorder's flusher,
 * the trace compressor): every signal blocked, so the program's signals reach only
 * its own threads, and a stack of their own. The stack matters in a forked child:
 * glibc hands a new thread a stack cached from the parent's threads, so its handle
 * equals one of theirs, and a library that joins its parent-era threads at exit
 * (Mesa's queues do, in a child) would wait for ours forever. */
#ifndef GT_THREAD_H
#define GT_THREAD_H

#include <pthread.h>
#include <stddef.h>

typedef struct gt_thread {
    pthread_t id;
    void *stack;
    size_t size;
} gt_thread;

/* 0 on success; detached threads never give their stack back. */
int gt_thread_start(gt_thread *t, void *(*fn)(void *), void *arg, int detached);
/* Joins a thread started undetached and frees its stack. */
void gt_thread_join(gt_thread *t);

#endif
