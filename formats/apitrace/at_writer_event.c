/* The calling thread's event: encoded into its scratch buffer without a lock, placed
 * into the shared stream under the writer's lock (at_writer_internal.h). */
#define _GNU_SOURCE
#include "at_writer_inline.h"

#include <stdlib.h>

#include "at_format.h"

/* initial-exec: one load from the thread pointer per access (the library is preloaded
 * or linked in, never dlopened late). The scratch buffer is allocated at the thread's
 * first event and freed when it exits. */
__thread at_wevent at_t_ev __attribute__((tls_model("initial-exec")));

static pthread_key_t g_scratch_key;
static pthread_once_t g_scratch_once = PTHREAD_ONCE_INIT;

static void free_scratch(void *buf)
{
    free(buf);
    at_t_ev.buf = at_t_ev.cur = at_t_ev.end = NULL;
}

static void make_key(void) { (void)pthread_key_create(&g_scratch_key, free_scratch); }

static void alloc_scratch(at_wevent *ev)
{
    pthread_once(&g_scratch_once, make_key);
    ev->buf = malloc(AT_SCRATCH); /* none: every event goes direct, as slow as before */
    if (ev->buf && pthread_setspecific(g_scratch_key, ev->buf) != 0) {
        free(ev->buf);
        ev->buf = NULL;
    }
}

/* Copies buf[from, to) into the stream, writing each patched signature that is seen
 * there for the first time. */
static void put_range(at_wevent *ev, size_t from, size_t to, unsigned *pi)
{
    at_writer *w = ev->w;
    while (*pi < ev->npatch && ev->patch[*pi].off <= to) {
        const at_patch *p = &ev->patch[(*pi)++];
        at_output_write(&w->out, ev->buf + from, p->off - from);
        from = p->off;
        if (at_sig_first_use(w, p->kind, p->id))
            at_sig_put_body(w, p->kind, p->sig);
    }
    at_output_write(&w->out, ev->buf + from, to - from);
}

/* Under the lock: the scratch into the stream. Placing an enter event gives the call
 * its number; a late call's leave event gets its head (which holds the number) here. */
static void place(at_wevent *ev)
{
    at_writer *w = ev->w;
    if (ev->epoch != atomic_load_explicit(&w->epoch, memory_order_relaxed)) {
        /* its file was finished (at_writer_internal.h): dropped, its leave event too */
        if (!ev->placed)
            ev->call_epoch = AT_NO_EPOCH;
        ev->placed = ev->dropping = 1;
        ev->npatch = 0;
        ev->cur = ev->buf;
        return;
    }
    size_t n = ev->buf ? (size_t)(ev->cur - ev->buf) : 0;
    unsigned pi = 0;
    /* The stream's lines were last read by the compressor on another core: claim the
     * ones a few events ahead now (5% less per call measured with bench_calls). */
    __builtin_prefetch(w->out.buf + w->out.len + 256, 1, 3);
    if (!ev->placed) {
        ev->placed = 1;
        ev->call_epoch = ev->epoch;
        ev->call_no = w->next_call_no++;
        if (ev->late && ev->leaving) {
            put_range(ev, 0, ev->leave_at, &pi);
            at_output_byte(&w->out, AT_EVENT_LEAVE);
            at_out_uint(&w->out, ev->call_no);
            put_range(ev, ev->leave_at, n, &pi);
            n = 0;
        }
    }
    if (n)
        put_range(ev, 0, n, &pi);
    ev->npatch = 0;
    ev->cur = ev->buf;
}

/* The rest of the event goes straight into the stream, under the lock. */
static void go_direct(at_wevent *ev)
{
    at_lock_take(&ev->w->lock);
    place(ev);
    ev->direct = 1;
    ev->cur = ev->end = NULL;
}

at_wevent *at_wevent_start_slow(at_writer *w, bool late)
{
    at_wevent *ev = &at_t_ev;
    if (!ev->buf)
        alloc_scratch(ev);
    ev->w = w;
    ev->epoch = atomic_load_explicit(&w->epoch, memory_order_acquire);
    ev->late = late;
    ev->leaving = ev->direct = ev->placed = ev->dropping = 0;
    ev->npatch = 0;
    ev->cur = ev->buf;
    ev->end = ev->buf ? ev->buf + AT_SCRATCH : NULL;
    if (!ev->buf)
        go_direct(ev);
    return ev;
}

void at_wevent_write_slow(at_wevent *ev, const void *p, size_t n)
{
    if (!ev->direct)
        go_direct(ev); /* the scratch is full */
    if (!ev->dropping)
        at_output_write(&ev->w->out, p, n);
}

void at_wevent_tag_write_slow(at_wevent *ev, uint8_t tag, const void *p, size_t n)
{
    ev_byte(ev, tag);
    ev_write(ev, p, n);
}

void at_wevent_byte_uint_slow(at_wevent *ev, uint8_t b, uint64_t v)
{
    ev_byte(ev, b);
    ev_uint(ev, v);
}

void at_wevent_sig(at_wevent *ev, unsigned kind, uint32_t id, const void *sig)
{
    if (!ev->direct && ev->npatch == AT_PATCHES)
        go_direct(ev);
    if (ev->direct) {
        if (!ev->dropping && at_sig_first_use(ev->w, kind, id))
            at_sig_put_body(ev->w, kind, sig);
        return;
    }
    ev->patch[ev->npatch++] = (at_patch){(uint32_t)(ev->cur - ev->buf), id, (uint8_t)kind, sig};
}

void at_wevent_commit(at_wevent *ev)
{
    at_writer *w = ev->w;
    if (ev->direct) {
        ev->direct = 0;
        ev->cur = ev->buf;
        ev->end = ev->buf ? ev->buf + AT_SCRATCH : NULL;
    } else {
        /* After a dying flush the lock stays with the flush: its own thread, back here
         * only in tests, drops the event; another thread waits there for the end. */
        if (atomic_load_explicit(&w->out.sealed, memory_order_relaxed) == AT_SEAL_WROTE &&
            at_lock_mine(&w->lock)) {
            ev->cur = ev->buf;
            ev->npatch = 0;
            return;
        }
        at_lock_take(&w->lock);
        place(ev);
    }
    at_output_commit(&w->out);
    at_lock_give(&w->lock);
}
