#define _GNU_SOURCE
#include "at_writer.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "at_format.h"
#include "at_output.h"
#include "gt_grow.h"
#include "gt_siglock.h"

/* Which ids of one signature kind have been written in full. */
typedef struct id_set {
    uint8_t *bits;
    size_t nbytes;
} id_set;

struct at_writer {
    at_output out;
    pthread_mutex_t lock;
    uint32_t next_call_no;
    id_set funcs, enums, bitmasks, structs, frames;
};

/* Returns true the first time an id is seen (so the signature must be written). */
static bool first_use(at_writer *w, id_set *s, uint32_t id)
{
    size_t byte = id >> 3;
    if (byte >= s->nbytes) {
        size_t old = s->nbytes;
        if (GT_GROW(s->bits, s->nbytes, byte + 1, 64) != 0) {
            /* rewriting a signature in full is always valid, only larger */
            w->out.failed = 1;
            gt_error_set(&w->out.err, "%s: out of memory", w->out.path);
            return true;
        }
        memset(s->bits + old, 0, s->nbytes - old);
    }
    uint8_t mask = (uint8_t)(1u << (id & 7));
    if (s->bits[byte] & mask)
        return false;
    s->bits[byte] |= mask;
    return true;
}

static void put_uint(at_writer *w, uint64_t v)
{
    uint8_t tmp[10];
    size_t n = 0;
    do {
        uint8_t c = v & 0x7f;
        v >>= 7;
        tmp[n++] = v ? (c | 0x80) : c;
    } while (v);
    at_output_write(&w->out, tmp, n);
}

static void put_byte(at_writer *w, uint8_t b) { at_output_byte(&w->out, b); }

static void put_string(at_writer *w, const char *s, size_t len)
{
    put_uint(w, len);
    at_output_write(&w->out, s, len);
}

static void put_cstring(at_writer *w, const char *s) { put_string(w, s, strlen(s)); }

at_writer *at_writer_open(const char *path, const at_writer_property *props, unsigned nprops,
                          gt_error *err)
{
    at_writer *w = calloc(1, sizeof *w);
    if (!w) {
        gt_error_set(err, "%s: out of memory", path);
        return NULL;
    }
    if (!at_output_open(&w->out, path, err)) {
        free(w);
        return NULL;
    }
    pthread_mutex_init(&w->lock, NULL);
    put_uint(w, AT_VERSION_MAX); /* version */
    put_uint(w, AT_VERSION_MAX); /* semantic version */
    for (unsigned i = 0; i < nprops; ++i) {
        if (!props[i].name[0])
            continue; /* an empty name would end the list */
        put_cstring(w, props[i].name);
        put_cstring(w, props[i].value);
    }
    put_uint(w, 0);
    at_output_commit(&w->out);
    return w;
}

/* Whether the calling thread holds the lock: a signal handler (or an exit path
 * called from one) that interrupted its own thread inside an event. */
static int held_by_caller(at_writer *w) { return gt_mutex_held_by_caller(&w->lock); }

int at_writer_flush(at_writer *w)
{
    if (held_by_caller(w)) /* exit() from a signal handler that interrupted an event */
        return at_output_flush_dying(&w->out, 1);
    pthread_mutex_lock(&w->lock);
    int ok = at_output_flush(&w->out);
    pthread_mutex_unlock(&w->lock);
    return ok;
}

int at_writer_try_flush(at_writer *w)
{
    if (pthread_mutex_trylock(&w->lock) != 0)
        return 0;
    int ok = at_output_flush(&w->out);
    pthread_mutex_unlock(&w->lock);
    return ok;
}

int at_writer_try_flush_in_signal(at_writer *w)
{
    if (pthread_mutex_trylock(&w->lock) != 0)
        return 0;
    int ok = at_output_flush_signal_safe(&w->out);
    pthread_mutex_unlock(&w->lock);
    return ok;
}

/* The lock, waiting at most about LOCK_WAIT_MS. Its holder never keeps it across a
 * real GL call, only while encoding an event (microseconds) or writing a chunk; a
 * longer hold means it is stuck (on a malloc lock the interrupted thread holds, on
 * a full disk). */
enum { LOCK_WAIT_MS = 500 };

static int lock_bounded(at_writer *w) { return gt_mutex_lock_bounded(&w->lock, LOCK_WAIT_MS); }

int at_writer_flush_in_signal(at_writer *w)
{
    if (held_by_caller(w) || !lock_bounded(w))
        return 0;
    int ok = at_output_flush_signal_safe(&w->out);
    pthread_mutex_unlock(&w->lock);
    return ok;
}

/* The lock, once had, is kept: the process ends now, and a thread that finishes its
 * GL call meanwhile must block before its wrapper returns rather than record events
 * nobody writes (so every call that returned is in the file). */
int at_writer_flush_dying(at_writer *w)
{
    int mine = held_by_caller(w);
    if (!mine && lock_bounded(w))
        return at_output_flush_signal_safe(&w->out);
    return at_output_flush_dying(&w->out, mine);
}

int at_writer_hold_flushed(at_writer *w)
{
    if (held_by_caller(w) || !lock_bounded(w))
        return 0;
    at_output_flush_signal_safe(&w->out);
    return 1;
}

void at_writer_release(at_writer *w) { pthread_mutex_unlock(&w->lock); }

int at_writer_close(at_writer *w, gt_error *err)
{
    int ok = at_output_close(&w->out);
    if (!ok)
        gt_error_set(err, "%s", w->out.err.msg);
    id_set *sets[] = {&w->funcs, &w->enums, &w->bitmasks, &w->structs, &w->frames};
    for (size_t i = 0; i < sizeof sets / sizeof *sets; ++i)
        free(sets[i]->bits);
    pthread_mutex_destroy(&w->lock);
    free(w);
    return ok;
}

uint32_t at_writer_begin_enter(at_writer *w, const gt_func_sig *sig, uint32_t thread,
                               unsigned flags)
{
    pthread_mutex_lock(&w->lock);
    put_byte(w, AT_EVENT_ENTER);
    put_uint(w, thread);
    put_uint(w, sig->id);
    if (first_use(w, &w->funcs, sig->id)) {
        put_cstring(w, sig->name);
        put_uint(w, sig->num_args);
        for (uint32_t i = 0; i < sig->num_args; ++i)
            put_cstring(w, sig->arg_names[i]);
    }
    if (flags & AT_WRITER_FAKE) {
        put_byte(w, AT_DETAIL_FLAGS);
        put_uint(w, AT_FLAG_FAKE);
    }
    return w->next_call_no++;
}

void at_writer_end_enter(at_writer *w)
{
    put_byte(w, AT_DETAIL_END);
    at_output_commit(&w->out);
    pthread_mutex_unlock(&w->lock);
}

void at_writer_begin_leave(at_writer *w, uint32_t call_no)
{
    pthread_mutex_lock(&w->lock);
    put_byte(w, AT_EVENT_LEAVE);
    put_uint(w, call_no);
}

void at_writer_end_leave(at_writer *w)
{
    put_byte(w, AT_DETAIL_END);
    at_output_commit(&w->out);
    pthread_mutex_unlock(&w->lock);
}

void at_writer_begin_arg(at_writer *w, uint32_t index)
{
    put_byte(w, AT_DETAIL_ARG);
    put_uint(w, index);
}

void at_writer_begin_return(at_writer *w) { put_byte(w, AT_DETAIL_RET); }

static void put_frame(at_writer *w, const gt_frame *f)
{
    put_uint(w, f->id);
    if (!first_use(w, &w->frames, f->id))
        return;
    if (f->module) {
        put_byte(w, AT_FRAME_MODULE);
        put_cstring(w, f->module);
    }
    if (f->function) {
        put_byte(w, AT_FRAME_FUNCTION);
        put_cstring(w, f->function);
    }
    if (f->filename) {
        put_byte(w, AT_FRAME_FILENAME);
        put_cstring(w, f->filename);
    }
    if (f->line >= 0) {
        put_byte(w, AT_FRAME_LINE);
        put_uint(w, (uint64_t)f->line);
    }
    if (f->offset >= 0) {
        put_byte(w, AT_FRAME_OFFSET);
        put_uint(w, (uint64_t)f->offset);
    }
    put_byte(w, AT_FRAME_END);
}

void at_writer_backtrace(at_writer *w, const gt_frame *const *frames, uint32_t n)
{
    put_byte(w, AT_DETAIL_BACKTRACE);
    put_uint(w, n);
    for (uint32_t i = 0; i < n; ++i)
        put_frame(w, frames[i]);
}

void at_writer_null(at_writer *w) { put_byte(w, AT_TYPE_NULL); }
void at_writer_bool(at_writer *w, bool v) { put_byte(w, v ? AT_TYPE_TRUE : AT_TYPE_FALSE); }

static void put_sint(at_writer *w, int64_t v)
{
    if (v < 0) {
        put_byte(w, AT_TYPE_SINT);
        put_uint(w, (uint64_t)0 - (uint64_t)v);
    } else {
        put_byte(w, AT_TYPE_UINT);
        put_uint(w, (uint64_t)v);
    }
}

void at_writer_sint(at_writer *w, int64_t v) { put_sint(w, v); }

void at_writer_uint(at_writer *w, uint64_t v)
{
    put_byte(w, AT_TYPE_UINT);
    put_uint(w, v);
}

void at_writer_float(at_writer *w, float v)
{
    put_byte(w, AT_TYPE_FLOAT);
    at_output_write(&w->out, &v, sizeof v); /* little-endian hosts only, like apitrace */
}

void at_writer_double(at_writer *w, double v)
{
    put_byte(w, AT_TYPE_DOUBLE);
    at_output_write(&w->out, &v, sizeof v);
}

void at_writer_string(at_writer *w, const char *s, size_t len)
{
    if (!s) {
        at_writer_null(w);
        return;
    }
    put_byte(w, AT_TYPE_STRING);
    put_string(w, s, len);
}

void at_writer_cstring(at_writer *w, const char *s)
{
    at_writer_string(w, s, s ? strlen(s) : 0);
}

void at_writer_wstring(at_writer *w, const uint32_t *s, size_t len)
{
    if (!s) {
        at_writer_null(w);
        return;
    }
    put_byte(w, AT_TYPE_WSTRING);
    put_uint(w, len);
    for (size_t i = 0; i < len; ++i)
        put_uint(w, s[i]);
}

void at_writer_blob(at_writer *w, const void *data, size_t size)
{
    if (!data) {
        at_writer_null(w);
        return;
    }
    put_byte(w, AT_TYPE_BLOB);
    put_uint(w, size);
    at_output_write(&w->out, data, size);
}

void at_writer_enum(at_writer *w, const gt_enum_sig *sig, int64_t v)
{
    put_byte(w, AT_TYPE_ENUM);
    put_uint(w, sig->id);
    if (first_use(w, &w->enums, sig->id)) {
        put_uint(w, sig->num_values);
        for (uint32_t i = 0; i < sig->num_values; ++i) {
            put_cstring(w, sig->values[i].name);
            put_sint(w, sig->values[i].value);
        }
    }
    put_sint(w, v);
}

void at_writer_bitmask(at_writer *w, const gt_bitmask_sig *sig, uint64_t v)
{
    put_byte(w, AT_TYPE_BITMASK);
    put_uint(w, sig->id);
    if (first_use(w, &w->bitmasks, sig->id)) {
        put_uint(w, sig->num_flags);
        for (uint32_t i = 0; i < sig->num_flags; ++i) {
            put_cstring(w, sig->flags[i].name);
            put_uint(w, sig->flags[i].value);
        }
    }
    put_uint(w, v); /* raw, untagged: what apitrace writes and reads */
}

void at_writer_begin_array(at_writer *w, size_t n)
{
    put_byte(w, AT_TYPE_ARRAY);
    put_uint(w, n);
}

void at_writer_begin_struct(at_writer *w, const gt_struct_sig *sig)
{
    put_byte(w, AT_TYPE_STRUCT);
    put_uint(w, sig->id);
    if (first_use(w, &w->structs, sig->id)) {
        put_cstring(w, sig->name);
        put_uint(w, sig->num_members);
        for (uint32_t i = 0; i < sig->num_members; ++i)
            put_cstring(w, sig->member_names[i]);
    }
}

void at_writer_pointer(at_writer *w, uint64_t addr)
{
    if (!addr) {
        at_writer_null(w);
        return;
    }
    put_byte(w, AT_TYPE_OPAQUE);
    put_uint(w, addr);
}

void at_writer_begin_repr(at_writer *w) { put_byte(w, AT_TYPE_REPR); }

void at_writer_value(at_writer *w, const gt_value *v)
{
    switch (v->kind) {
    case GT_ABSENT:
    case GT_NULL: at_writer_null(w); break;
    case GT_BOOL: at_writer_bool(w, v->b); break;
    case GT_SINT: /* keep the tag the trace had: a negative zero stays 0x03 */
        put_byte(w, AT_TYPE_SINT);
        put_uint(w, (uint64_t)0 - (uint64_t)v->i);
        break;
    case GT_UINT: at_writer_uint(w, v->u); break;
    case GT_FLOAT: at_writer_float(w, v->f); break;
    case GT_DOUBLE: at_writer_double(w, v->d); break;
    case GT_STRING:
        put_byte(w, AT_TYPE_STRING);
        put_string(w, v->str.s, v->str.len);
        break;
    case GT_WSTRING:
        put_byte(w, AT_TYPE_WSTRING);
        put_uint(w, v->wstr.len);
        for (size_t i = 0; i < v->wstr.len; ++i)
            put_uint(w, v->wstr.w[i]);
        break;
    case GT_BLOB:
        put_byte(w, AT_TYPE_BLOB);
        put_uint(w, v->blob.size);
        if (v->blob.data) {
            at_output_write(&w->out, v->blob.data, v->blob.size);
        } else { /* read without its bytes: keep the size, zero-filled */
            static const uint8_t zeros[4096];
            for (size_t left = v->blob.size; left;) {
                size_t k = left < sizeof zeros ? left : sizeof zeros;
                at_output_write(&w->out, zeros, k);
                left -= k;
            }
        }
        break;
    case GT_ENUM: at_writer_enum(w, v->en.sig, v->en.v); break;
    case GT_BITMASK: at_writer_bitmask(w, v->bm.sig, v->bm.v); break;
    case GT_ARRAY:
        at_writer_begin_array(w, v->arr.n);
        for (size_t i = 0; i < v->arr.n; ++i)
            at_writer_value(w, &v->arr.items[i]);
        break;
    case GT_STRUCT:
        at_writer_begin_struct(w, v->st.sig);
        for (uint32_t i = 0; i < v->st.sig->num_members; ++i)
            at_writer_value(w, &v->st.members[i]);
        break;
    case GT_POINTER:
        put_byte(w, AT_TYPE_OPAQUE);
        put_uint(w, v->u);
        break;
    case GT_REPR:
        at_writer_begin_repr(w);
        at_writer_value(w, v->repr.human);
        at_writer_value(w, v->repr.machine);
        break;
    }
}

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
    uint32_t no = at_writer_begin_enter(w, c->sig, c->thread,
                                        (c->flags & GT_CALL_FLAG_FAKE) ? AT_WRITER_FAKE : 0);
    at_writer_details(w, c, false);
    at_writer_end_enter(w);
    at_writer_begin_leave(w, no);
    at_writer_details(w, c, true);
    at_writer_end_leave(w);
    return no;
}
