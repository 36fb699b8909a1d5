/* The timeline writers' thread (timeline_async.h). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "gt_grow.h"
#include "timeline_async.h"

/* Records start on multiples of 16, a header's size: a header always fits before the
 * ring's end, and every field in a record is aligned. */
static size_t tla_round(size_t n) { return (n + 15) & ~(size_t)15; }

/* Wakes the writer when it sleeps: with force, always looks (the producer is about to
 * wait, or closes); else once every TLA_WAKE bytes, as looking costs a fence. */
static void tla_wake_writer(tl_async *q, bool force)
{
    if (!force && q->phead - q->checked < TLA_WAKE)
        return;
    q->checked = q->phead;
    atomic_store(&q->head, q->phead); /* sequentially consistent: see tla_sleep */
    if (atomic_load(&q->sleeping)) {
        pthread_mutex_lock(&q->mu);
        pthread_cond_signal(&q->wake_writer);
        pthread_mutex_unlock(&q->mu);
    }
}

/* Waits on cv (q->mu held) until signalled or TLA_NAP_NS have passed: the callers
 * look again either way. */
static void tla_nap(tl_async *q, pthread_cond_t *cv)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts); /* cv's clock: see tla_start */
    ts.tv_nsec += TLA_NAP_NS;
    if (ts.tv_nsec >= 1000000000) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000;
    }
    pthread_cond_timedwait(cv, &q->mu, &ts);
}

/* Waits until the ring has room for need bytes; false when the writer failed. */
static bool tla_room(tl_async *q, size_t need)
{
    while (TLA_RING - (q->phead - atomic_load_explicit(&q->tail, memory_order_acquire)) < need) {
        if (atomic_load(&q->failed))
            return false;
        tla_wake_writer(q, true);
        pthread_mutex_lock(&q->mu);
        atomic_store(&q->waiting, true);
        if (TLA_RING - (q->phead - atomic_load(&q->tail)) < need && !atomic_load(&q->failed))
            tla_nap(q, &q->wake_producer);
        atomic_store(&q->waiting, false);
        pthread_mutex_unlock(&q->mu);
    }
    return true;
}

/* Contiguous room for a record of size bytes (a multiple of 16, at most TLA_BIG): one
 * that would cross the ring's end goes to its start, after a TLA_WRAP. NULL when the
 * writer failed. */
static unsigned char *tla_begin(tl_async *q, size_t size)
{
    size_t off = q->phead % TLA_RING, pad = off + size > TLA_RING ? TLA_RING - off : 0;
    if (!tla_room(q, pad + size))
        return NULL;
    if (pad) {
        tla_rec wrap = {.type = TLA_WRAP, .size = (uint32_t)pad};
        memcpy(q->ring + off, &wrap, sizeof wrap);
        q->phead += pad;
        off = 0;
    }
    return q->ring + off;
}

/* A record of size bytes to fill: in the ring, or (too big) a heap copy. */
static unsigned char *tla_record(tl_async *q, size_t size, bool *heap)
{
    *heap = size > TLA_BIG;
    return *heap ? malloc(size) : tla_begin(q, size);
}

/* Publishes the record tla_record gave. 0, or -1 (the writer failed). */
static int tla_push(tl_async *q, unsigned char *rec, size_t size, bool heap)
{
    if (heap) {
        unsigned char *slot = tla_begin(q, sizeof(tla_rec));
        if (!slot) {
            free(rec);
            return -1;
        }
        tla_rec r = {.type = TLA_HEAP, .size = sizeof r, .u.heap = rec};
        memcpy(slot, &r, sizeof r);
        size = sizeof r;
    }
    q->phead += size;
    atomic_store_explicit(&q->head, q->phead, memory_order_release);
    tla_wake_writer(q, false);
    return 0;
}

/* Sends the strings of tl interned since the last call. 0, or -1. */
static int tla_strings(tl_async *q, const gt_timeline *tl)
{
    for (uint32_t n = gt_tl_str_count(tl); q->shipped < n; q->shipped++) {
        uint32_t len;
        const char *s = gt_tl_str_get(tl, q->shipped, &len);
        size_t size = sizeof(tla_rec) + tla_round(len);
        bool heap;
        unsigned char *rec = size <= UINT32_MAX ? tla_record(q, size, &heap) : NULL;
        if (!rec)
            return -1;
        tla_rec h = {.type = TLA_STRING, .size = (uint32_t)size, .u.str = {q->shipped, len}};
        memcpy(rec, &h, sizeof h);
        memcpy(rec + sizeof h, s, len);
        if (tla_push(q, rec, size, heap) != 0)
            return -1;
    }
    return 0;
}

/* The bytes of an event worth sending: all but a context switch's fields, unless it
 * is one (they are a third of the struct). */
static size_t tla_event_bytes(gt_tl_kind kind)
{
    return kind == GT_TL_CONTEXT_SWITCH ? sizeof(gt_tl_event) : offsetof(gt_tl_event, cs);
}

static bool tla_bytes_arg(const gt_tl_arg *a)
{
    return a->kind == GT_TL_ARG_STRING || a->kind == GT_TL_ARG_JSON;
}

/* The sink's event: the event, its arguments and their bytes in one record. */
static int tla_event(void *self, const gt_timeline *tl, const gt_tl_event *ev, gt_error *err)
{
    tl_async *q = self;
    if (!atomic_load(&q->failed) && tla_strings(q, tl) == 0) {
        size_t evsize = tla_event_bytes(ev->kind);
        size_t size = sizeof(tla_rec) + tla_round(evsize) + tla_round(ev->nargs * sizeof *ev->args);
        for (uint32_t i = 0; i < ev->nargs; ++i)
            if (tla_bytes_arg(&ev->args[i]))
                size += tla_round(ev->args[i].v.s.len);
        bool heap;
        unsigned char *rec = size <= UINT32_MAX ? tla_record(q, size, &heap) : NULL;
        if (rec) {
            tla_rec h = {.type = TLA_EVENT, .size = (uint32_t)size};
            memcpy(rec, &h, sizeof h);
            unsigned char *p = rec + sizeof h;
            memcpy(p, ev, evsize);
            p += tla_round(evsize);
            if (ev->nargs)
                memcpy(p, ev->args, ev->nargs * sizeof *ev->args);
            p += tla_round(ev->nargs * sizeof *ev->args);
            for (uint32_t i = 0; i < ev->nargs; ++i)
                if (tla_bytes_arg(&ev->args[i])) {
                    if (ev->args[i].v.s.len)
                        memcpy(p, ev->args[i].v.s.p, ev->args[i].v.s.len);
                    p += tla_round(ev->args[i].v.s.len);
                }
            if (tla_push(q, rec, size, heap) == 0)
                return 0;
        }
    }
    if (atomic_load(&q->failed)) /* its err is set before failed, and no more after */
        *err = q->err;
    else
        gt_error_set(err, "out of memory");
    return -1;
}

/* The writer thread's side of a record: a string to intern, or an event, its
 * pointers made to point into the record, for the writers. */
static void tla_consume(tl_async *q, unsigned char *rec)
{
    tla_rec h;
    memcpy(&h, rec, sizeof h);
    if (atomic_load_explicit(&q->failed, memory_order_relaxed))
        return;
    if (h.type == TLA_STRING) {
        gt_tl_str id = gt_tl_intern(&q->tl, (const char *)rec + sizeof h, h.u.str.len);
        if (id != h.u.str.id) { /* cannot be but out of memory: each string is new */
            gt_error_set(&q->err, "out of memory");
            atomic_store(&q->failed, true);
        }
        return;
    }
    gt_tl_event ev;
    unsigned char *p = rec + sizeof h;
    memcpy(&ev, p, offsetof(gt_tl_event, cs));
    size_t evsize = tla_event_bytes(ev.kind);
    if (evsize > offsetof(gt_tl_event, cs))
        memcpy(&ev, p, evsize);
    else
        memset(&ev.cs, 0, sizeof ev.cs);
    p += tla_round(evsize);
    gt_tl_arg *args = (gt_tl_arg *)p;
    p += tla_round(ev.nargs * sizeof *args);
    for (uint32_t i = 0; i < ev.nargs; ++i)
        if (tla_bytes_arg(&args[i])) {
            args[i].v.s.p = (const char *)p;
            p += tla_round(args[i].v.s.len);
        }
    ev.args = ev.nargs ? args : NULL;
    if (gt_tl_emit(q->to, &q->tl, &ev, &q->err) != 0)
        atomic_store(&q->failed, true);
}

/* Frees the ring up to tail and wakes the producer if it waits for room. */
static void tla_release(tl_async *q, uint64_t tail)
{
    atomic_store(&q->tail, tail); /* sequentially consistent: see tla_room */
    if (atomic_load(&q->waiting)) {
        pthread_mutex_lock(&q->mu);
        pthread_cond_signal(&q->wake_producer);
        pthread_mutex_unlock(&q->mu);
    }
}

/* Sleeps until more than tail is published or the producer closes. */
static void tla_sleep(tl_async *q, uint64_t tail)
{
    pthread_mutex_lock(&q->mu);
    atomic_store(&q->sleeping, true);
    if (atomic_load(&q->head) == tail && !atomic_load(&q->closing))
        tla_nap(q, &q->wake_writer);
    atomic_store(&q->sleeping, false);
    pthread_mutex_unlock(&q->mu);
}

/* Whether h heads a whole record of the ring's unread avail bytes: it always does,
 * but were two threads ever to produce at once the writer fails instead of looping. */
static bool tla_valid(const tla_rec *h, uint64_t avail)
{
    return h->size >= sizeof *h && h->size % 16 == 0 && h->size <= avail &&
           h->type >= TLA_EVENT && h->type <= TLA_HEAP;
}

/* The writer thread gives way to the replay's threads where cores are short: the
 * timings should show the replay, not our encoding; it catches up while they wait
 * (and a full ring makes them wait). Not possible: it runs as it is. */
static void tla_give_way(void)
{
    (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
}

static void *tla_writer(void *arg)
{
    tl_async *q = arg;
    tla_give_way();
    uint64_t tail = 0, released = 0;
    for (;;) {
        uint64_t head = atomic_load_explicit(&q->head, memory_order_acquire);
        if (head == tail) {
            if (atomic_load(&q->closing) && atomic_load(&q->head) == tail)
                return NULL;
            tla_sleep(q, tail);
            continue;
        }
        while (tail != head) {
            unsigned char *rec = q->ring + tail % TLA_RING;
            tla_rec h;
            memcpy(&h, rec, sizeof h);
            if (!tla_valid(&h, head - tail)) {
                if (!atomic_load(&q->failed))
                    gt_error_set(&q->err, "timeline events queued from two threads at once");
                atomic_store(&q->failed, true);
                tail = head;
                break;
            }
            if (h.type == TLA_HEAP) {
                tla_consume(q, h.u.heap);
                free(h.u.heap);
            } else if (h.type != TLA_WRAP) {
                tla_consume(q, rec);
            }
            tail += h.size;
            if (tail - released >= TLA_BATCH)
                tla_release(q, released = tail);
        }
        tla_release(q, released = tail);
    }
}

/* Starts q's thread, which hands the events to `to`, their strings copied from src's
 * anchors on. 0, or -1 when it cannot (nothing is left to free). */
int tla_start(tl_async *q, gt_tl_sink *to, const gt_timeline *src)
{
    memset(q, 0, sizeof *q);
    if (gt_timeline_init(&q->tl) != 0)
        return -1;
    q->tl.has_wall = src->has_wall; /* the clock anchors, which the writers read too */
    q->tl.wall_offset_ns = src->wall_offset_ns;
    q->tl.has_mono = src->has_mono;
    q->tl.mono_offset_ns = src->mono_offset_ns;
    q->to = to;
    q->shipped = 1; /* id 0, "", is in every timeline */
    gt_error_clear(&q->err);
    q->ring = malloc(TLA_RING);
    pthread_mutex_init(&q->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC); /* naps immune to wall-clock steps */
    pthread_cond_init(&q->wake_writer, &ca);
    pthread_cond_init(&q->wake_producer, &ca);
    pthread_condattr_destroy(&ca);
    if (!q->ring || pthread_create(&q->th, NULL, tla_writer, q) != 0) {
        free(q->ring);
        gt_timeline_free(&q->tl);
        pthread_mutex_destroy(&q->mu);
        pthread_cond_destroy(&q->wake_writer);
        pthread_cond_destroy(&q->wake_producer);
        return -1;
    }
    q->running = true;
    return 0;
}

/* Lets the thread hand over what is queued, and ends it (again: nothing). 0, or -1
 * with err set when the writers failed. */
static int tla_stop(tl_async *q, gt_error *err)
{
    if (!q->running)
        return 0;
    q->running = false;
    atomic_store(&q->head, q->phead);
    atomic_store(&q->closing, true);
    pthread_mutex_lock(&q->mu);
    pthread_cond_signal(&q->wake_writer);
    pthread_mutex_unlock(&q->mu);
    pthread_join(q->th, NULL);
    free(q->ring);
    q->ring = NULL;
    pthread_mutex_destroy(&q->mu);
    pthread_cond_destroy(&q->wake_writer);
    pthread_cond_destroy(&q->wake_producer);
    if (!atomic_load(&q->failed))
        return 0;
    *err = q->err;
    return -1;
}

/* The sink's finish: the queue written, then the writers' own finish, with the
 * strings they know. */
static int tla_finish(void *self, const gt_timeline *tl, gt_error *err)
{
    (void)tl;
    tl_async *q = self;
    if (tla_stop(q, err) != 0)
        return -1;
    return gt_tl_finish(q->to, &q->tl, err);
}

gt_tl_sink tla_sink(tl_async *q)
{
    return (gt_tl_sink){.self = q, .event = tla_event, .finish = tla_finish};
}

/* Stops q if it runs and frees its timeline. */
void tla_free(tl_async *q)
{
    gt_error ignored;
    gt_error_clear(&ignored);
    tla_stop(q, &ignored);
    gt_timeline_free(&q->tl);
}
