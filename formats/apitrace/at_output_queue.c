/* The queue of full chunks and the compressor thread that writes them (at_output.h).
 * Waits use futexes, not condition variables: a signal handler (a flush before the
 * process dies) must be able to park and wake the compressor. */
#define _GNU_SOURCE
#include "at_output_internal.h"

#include <limits.h>
#include <linux/futex.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static __thread const at_output *t_compressor_of;

static void futex_wait(_Atomic uint32_t *addr, uint32_t val, const struct timespec *ts)
{
    syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, ts, NULL, 0);
}

static void futex_wake(_Atomic uint32_t *addr)
{
    syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

int at_queue_is_compressor(const at_output *o) { return t_compressor_of == o; }

/* Until a flush from a handler lets it go on. */
static void park(at_output *o)
{
    atomic_store(&o->parked, 1);
    futex_wake(&o->parked);
    while (atomic_load(&o->stop))
        futex_wait(&o->stop, 1, NULL);
    atomic_store(&o->parked, 0);
}

static void *compressor(void *arg)
{
    at_output *o = arg;
    t_compressor_of = o;
    for (;;) {
        if (atomic_load(&o->stop)) {
            park(o);
            continue;
        }
        uint32_t h = atomic_load(&o->head), t = atomic_load(&o->tail);
        if (h == t) {
            if (atomic_load(&o->quit))
                return NULL;
            futex_wait(&o->tail, t, NULL); /* tail, stop and quit all wake it */
            continue;
        }
        unsigned i = h % AT_OUTPUT_SLOTS;
        at_chunk_send(o, o->slot[i], o->slot_len[i], 1);
        atomic_store(&o->head, h + 1);
        futex_wake(&o->head);
    }
}

int at_queue_start(at_output *o)
{
    o->async = gt_thread_start(&o->thread, compressor, o, 0) == 0;
    return o->async;
}

/* A buffer for the next chunk: at most SLOTS - 1 queued besides the one filled. */
static void wait_for_room(at_output *o, uint32_t t)
{
    uint32_t h;
    while (t - (h = atomic_load(&o->head)) >= AT_OUTPUT_SLOTS - 1) {
        if (!o->stalled && o->on_stall) {
            o->stalled = 1;
            o->on_stall(o->path);
        }
        futex_wait(&o->head, h, NULL);
    }
}

void at_queue_push(at_output *o, size_t n)
{
    size_t rest = o->len - n, mark = o->mark > n ? o->mark - n : 0;
    o->stream_bytes += n;
    if (!o->async) { /* no thread: the caller compresses, the rest moves up */
        at_chunk_send(o, o->buf, n, 1);
        memmove(o->buf, o->buf + n, rest);
        o->len = rest;
        o->mark = mark;
        return;
    }
    uint32_t t = atomic_load(&o->tail);
    o->slot_len[t % AT_OUTPUT_SLOTS] = n;
    wait_for_room(o, t);
    uint8_t *next = o->slot[(t + 1) % AT_OUTPUT_SLOTS];
    memcpy(next, o->buf + n, rest);
    /* A dying flush may interrupt this thread anywhere here: until tail moves, buf is
     * the chunk being filled; after, buf is the last queued chunk (it skips it) until
     * buf moves, with len and mark already the next buffer's. */
    atomic_store(&o->tail, t + 1);
    o->len = rest;
    o->mark = mark;
    atomic_signal_fence(memory_order_seq_cst);
    o->buf = next;
    futex_wake(&o->tail);
}

void at_queue_wait(at_output *o, uint32_t ticket)
{
    uint32_t h;
    while (o->async && (int32_t)(ticket - (h = atomic_load(&o->head))) > 0)
        futex_wait(&o->head, h, NULL);
}

void at_queue_drain(at_output *o) { at_queue_wait(o, atomic_load(&o->tail)); }

int at_queue_park(at_output *o, int ms)
{
    if (!o->async)
        return 1;
    atomic_store(&o->stop, 1);
    futex_wake(&o->tail);
    for (int waited = 0; !atomic_load(&o->parked); ++waited) {
        if (waited == ms) {
            at_queue_resume(o);
            return 0; /* stuck in a write (a pipe nobody reads) */
        }
        struct timespec ts = {0, 1000000};
        futex_wait(&o->parked, 0, &ts);
    }
    return 1;
}

void at_queue_resume(at_output *o)
{
    if (!o->async)
        return;
    atomic_store(&o->stop, 0);
    futex_wake(&o->stop);
}

int at_queue_write_here(at_output *o, int lib)
{
    int ok = 1;
    for (uint32_t h = atomic_load(&o->head); h != atomic_load(&o->tail); ++h) {
        unsigned i = h % AT_OUTPUT_SLOTS;
        ok &= at_chunk_send(o, o->slot[i], o->slot_len[i], lib);
        atomic_store(&o->head, h + 1);
    }
    futex_wake(&o->head);
    return ok;
}

void at_queue_stop(at_output *o)
{
    if (!o->async)
        return;
    at_queue_drain(o);
    atomic_store(&o->quit, 1);
    futex_wake(&o->tail);
    gt_thread_join(&o->thread);
    o->async = 0;
}
