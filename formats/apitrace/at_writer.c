/* The writer's lifecycle, its signatures and a call's events (at_writer.h); the
 * thread's event in at_writer_event.c, the values in at_writer_values.c. */
#define _GNU_SOURCE
#include "at_writer.h"

#include <stdlib.h>
#include <string.h>

#include "at_format.h"
#include "at_writer_inline.h"
#include "gt_grow.h"

void at_out_uint(at_output *o, uint64_t v)
{
    uint8_t tmp[10];
    size_t n = 0;
    do {
        uint8_t c = v & 0x7f;
        v >>= 7;
        tmp[n++] = v ? (c | 0x80) : c;
    } while (v);
    at_output_write(o, tmp, n);
}

void at_out_cstring(at_output *o, const char *s)
{
    size_t len = strlen(s);
    at_out_uint(o, len);
    at_output_write(o, s, len);
}

void at_out_sint(at_output *o, int64_t v)
{
    at_output_byte(o, v < 0 ? AT_TYPE_SINT : AT_TYPE_UINT);
    at_out_uint(o, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v);
}

bool at_sig_first_use(at_writer *w, unsigned kind, uint32_t id)
{
    at_id_set *s = &w->sigs[kind];
    uint8_t mask = (uint8_t)(1u << (id & 7));
    if (id < AT_FAST_IDS) {
        uint8_t *b = &s->fast[id >> 3];
        if (*b & mask)
            return false;
        __atomic_store_n(b, (uint8_t)(*b | mask), __ATOMIC_RELAXED);
        return true;
    }
    size_t byte = (id - AT_FAST_IDS) >> 3;
    if (byte >= s->nbytes) {
        size_t old = s->nbytes;
        if (GT_GROW(s->bits, s->nbytes, byte + 1, 64) != 0) {
            /* a signature cannot be written twice (readers would misparse): stop here */
            w->out.failed = 1;
            gt_error_set(&w->out.err, "%s: out of memory", w->out.path);
            return false;
        }
        memset(s->bits + old, 0, s->nbytes - old);
    }
    if (s->bits[byte] & mask)
        return false;
    s->bits[byte] |= mask;
    return true;
}

static void put_frame_body(at_output *o, const gt_frame *f)
{
    if (f->module) {
        at_output_byte(o, AT_FRAME_MODULE);
        at_out_cstring(o, f->module);
    }
    if (f->function) {
        at_output_byte(o, AT_FRAME_FUNCTION);
        at_out_cstring(o, f->function);
    }
    if (f->filename) {
        at_output_byte(o, AT_FRAME_FILENAME);
        at_out_cstring(o, f->filename);
    }
    if (f->line >= 0) {
        at_output_byte(o, AT_FRAME_LINE);
        at_out_uint(o, (uint64_t)f->line);
    }
    if (f->offset >= 0) {
        at_output_byte(o, AT_FRAME_OFFSET);
        at_out_uint(o, (uint64_t)f->offset);
    }
    at_output_byte(o, AT_FRAME_END);
}

void at_sig_put_body(at_writer *w, unsigned kind, const void *sig)
{
    at_output *o = &w->out;
    switch (kind) {
    case AT_SIG_FUNC: {
        const gt_func_sig *f = sig;
        at_out_cstring(o, f->name);
        at_out_uint(o, f->num_args);
        for (uint32_t i = 0; i < f->num_args; ++i)
            at_out_cstring(o, f->arg_names[i]);
        break;
    }
    case AT_SIG_ENUM: {
        const gt_enum_sig *e = sig;
        at_out_uint(o, e->num_values);
        for (uint32_t i = 0; i < e->num_values; ++i) {
            at_out_cstring(o, e->values[i].name);
            at_out_sint(o, e->values[i].value);
        }
        break;
    }
    case AT_SIG_BITMASK: {
        const gt_bitmask_sig *b = sig;
        at_out_uint(o, b->num_flags);
        for (uint32_t i = 0; i < b->num_flags; ++i) {
            at_out_cstring(o, b->flags[i].name);
            at_out_uint(o, b->flags[i].value);
        }
        break;
    }
    case AT_SIG_STRUCT: {
        const gt_struct_sig *s = sig;
        at_out_cstring(o, s->name);
        at_out_uint(o, s->num_members);
        for (uint32_t i = 0; i < s->num_members; ++i)
            at_out_cstring(o, s->member_names[i]);
        break;
    }
    default:
        put_frame_body(o, sig);
    }
}

static void free_sigs(at_writer *w)
{
    for (unsigned k = 0; k < AT_SIG_KINDS; ++k) {
        free(w->sigs[k].fast);
        free(w->sigs[k].bits);
    }
}

/* The header: versions, then the properties. */
static void put_header(at_writer *w, const at_writer_property *props, unsigned nprops)
{
    at_out_uint(&w->out, AT_VERSION_MAX); /* version */
    at_out_uint(&w->out, AT_VERSION_MAX); /* semantic version */
    for (unsigned i = 0; i < nprops; ++i) {
        if (!props[i].name[0])
            continue; /* an empty name would end the list */
        at_out_cstring(&w->out, props[i].name);
        at_out_cstring(&w->out, props[i].value);
    }
    at_out_uint(&w->out, 0);
    at_output_commit(&w->out);
}

at_writer *at_writer_open(const char *path, const at_writer_property *props, unsigned nprops,
                          gt_error *err)
{
    at_writer *w = calloc(1, sizeof *w);
    int ok = w != NULL;
    for (unsigned k = 0; ok && k < AT_SIG_KINDS; ++k)
        ok = (w->sigs[k].fast = calloc(AT_FAST_IDS / 8, 1)) != NULL;
    if (!ok) {
        if (w)
            free_sigs(w);
        free(w);
        gt_error_set(err, "%s: out of memory", path);
        return NULL;
    }
    if (!at_output_open(&w->out, path, err)) {
        free_sigs(w);
        free(w);
        return NULL;
    }
    put_header(w, props, nprops);
    return w;
}

/* The next epoch (at_writer_internal.h), under the lock. */
static void next_epoch(at_writer *w)
{
    uint32_t e = atomic_load_explicit(&w->epoch, memory_order_relaxed) + 1;
    atomic_store_explicit(&w->epoch, e == AT_NO_EPOCH ? 0 : e, memory_order_release);
}

int at_writer_reopen(at_writer *w, const char *path, const at_writer_property *props,
                     unsigned nprops, gt_error *err)
{
    at_lock_take(&w->lock);
    for (unsigned k = 0; k < AT_SIG_KINDS; ++k) { /* a new file defines them anew */
        memset(w->sigs[k].fast, 0, AT_FAST_IDS / 8);
        free(w->sigs[k].bits);
        w->sigs[k].bits = NULL;
        w->sigs[k].nbytes = 0;
    }
    w->next_call_no = 0;
    int ok = at_output_reopen(&w->out, path, err);
    if (ok)
        put_header(w, props, nprops);
    next_epoch(w); /* after the signatures are forgotten: events of the new epoch see that */
    at_lock_give(&w->lock);
    return ok;
}

/* Whether the calling thread holds the lock: a signal handler (or an exit path
 * called from one) that interrupted its own thread inside an event. */
static int held_by_caller(at_writer *w) { return at_lock_mine(&w->lock); }

int at_writer_flush(at_writer *w)
{
    if (held_by_caller(w)) /* exit() from a signal handler that interrupted an event */
        return at_output_flush_dying(&w->out, 1);
    at_lock_take(&w->lock);
    uint32_t ticket = at_output_queue_pending(&w->out);
    at_lock_give(&w->lock); /* recording goes on while the compressor catches up */
    return at_output_wait(&w->out, ticket);
}

int at_writer_try_flush(at_writer *w)
{
    if (!at_lock_try(&w->lock))
        return 0;
    uint32_t ticket = at_output_queue_pending(&w->out);
    at_lock_give(&w->lock);
    return at_output_wait(&w->out, ticket);
}

int at_writer_try_flush_in_signal(at_writer *w)
{
    if (!at_lock_try(&w->lock))
        return 0;
    int ok = at_output_flush_signal_safe(&w->out);
    at_lock_give(&w->lock);
    return ok;
}

/* The lock, waiting at most about LOCK_WAIT_MS. Its holder never keeps it across a
 * real GL call, only while placing an event (nanoseconds), writing a large one
 * straight into the stream or writing a chunk; a longer hold means it is stuck (on a
 * malloc lock the interrupted thread holds, on a full disk). */
enum { LOCK_WAIT_MS = 500 };

static int lock_bounded(at_writer *w) { return at_lock_bounded(&w->lock, LOCK_WAIT_MS); }

int at_writer_flush_in_signal(at_writer *w)
{
    if (held_by_caller(w) || !lock_bounded(w))
        return 0;
    int ok = at_output_flush_signal_safe(&w->out);
    at_lock_give(&w->lock);
    return ok;
}

/* The lock, once had, is kept: the process ends now, and a thread that finishes its
 * GL call meanwhile must block before its wrapper returns rather than record events
 * nobody writes (so every call that returned is in the file). */
int at_writer_flush_dying(at_writer *w)
{
    int mine = held_by_caller(w);
    if (!mine && lock_bounded(w))
        return at_output_flush_signal_safe(&w->out) && at_output_seal(&w->out);
    return at_output_flush_dying(&w->out, mine);
}

int at_writer_hold_flushed(at_writer *w)
{
    if (held_by_caller(w) || !lock_bounded(w))
        return 0;
    at_output_flush_signal_safe(&w->out);
    return 1;
}

void at_writer_release(at_writer *w) { at_lock_give(&w->lock); }

int at_writer_finish(at_writer *w, gt_error *err)
{
    at_lock_take(&w->lock);
    int ok = at_output_finish(&w->out);
    next_epoch(w); /* what threads still write into it is dropped */
    at_lock_give(&w->lock);
    if (!ok)
        gt_error_set(err, "%s", w->out.err.msg);
    return ok;
}

int at_writer_close(at_writer *w, gt_error *err)
{
    int ok = at_output_close(&w->out);
    if (!ok)
        gt_error_set(err, "%s", w->out.err.msg);
    free_sigs(w);
    free(w);
    return ok;
}

void at_writer_begin_enter(at_writer *w, const gt_func_sig *sig, uint32_t thread, unsigned flags)
{
    atw_begin_enter(w, sig, thread, flags);
}

uint32_t at_writer_end_enter(at_writer *w) { return atw_end_enter(w); }
void at_writer_begin_leave(at_writer *w, uint32_t call_no) { atw_begin_leave(w, call_no); }
void at_writer_end_leave(at_writer *w) { atw_end_leave(w); }
void at_writer_begin_arg(at_writer *w, uint32_t index) { atw_begin_arg(w, index); }
void at_writer_begin_return(at_writer *w) { atw_begin_return(w); }

void at_writer_backtrace(at_writer *w, const gt_frame *const *frames, uint32_t n)
{
    at_wevent *ev = at_wevent_current();
    ev_byte(ev, AT_DETAIL_BACKTRACE);
    ev_uint(ev, n);
    for (uint32_t i = 0; i < n; ++i) {
        ev_uint(ev, frames[i]->id);
        if (!at_sig_known(w, AT_SIG_FRAME, frames[i]->id))
            at_wevent_sig(ev, AT_SIG_FRAME, frames[i]->id, frames[i]);
    }
}

void at_writer_on_stall(at_writer *w, void (*fn)(const char *path)) { w->out.on_stall = fn; }

uint64_t at_writer_stream_bytes(const at_writer *w)
{
    return w->out.stream_bytes + w->out.len;
}

const char *at_writer_error(const at_writer *w)
{
    return w->out.failed ? w->out.err.msg : NULL;
}

void at_writer_details(at_writer *w, const gt_call *c, bool at_leave)
{
    for (uint32_t i = 0; i < c->num_args; ++i) {
        if (c->args[i].kind == GT_ABSENT || (c->arg_at_leave && c->arg_at_leave[i] != at_leave))
            continue;
        at_writer_begin_arg(w, i);
        at_writer_value(w, &c->args[i]);
    }
    if (at_leave && c->ret) {
        at_writer_begin_return(w);
        at_writer_value(w, c->ret);
    }
    if (c->frames && c->frames_at_leave == at_leave)
        at_writer_backtrace(w, c->frames, c->num_frames);
}

uint32_t at_writer_call(at_writer *w, const gt_call *c)
{
    at_writer_begin_enter(w, c->sig, c->thread,
                          (c->flags & GT_CALL_FLAG_FAKE) ? AT_WRITER_FAKE : 0);
    at_writer_details(w, c, false);
    uint32_t no = at_writer_end_enter(w);
    at_writer_begin_leave(w, no);
    at_writer_details(w, c, true);
    at_writer_end_leave(w);
    return no;
}
