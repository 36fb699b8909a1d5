/* Streaming parser of the apitrace event grammar, versions 0 to 6: events, calls in
 * flight, opening and closing. A stream that stops inside an event is the normal
 * state of a trace whose program crashed: that event's call is dropped (as apitrace
 * does) and the calls still open are returned flagged incomplete. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "at_format.h"
#include "at_reader_internal.h"
#include "gt_grow.h"

/* A call as the reader allocates it: the first arguments and the return value live
 * beside it, so that most calls take no arena memory for them, and stay with it while
 * the pool reuses it. */
enum { INLINE_ARGS = 8 };
typedef struct reader_call {
    gt_call call; /* first: a gt_call pointer is the reader_call's */
    gt_value args[INLINE_ARGS];
    uint8_t at_leave[INLINE_ARGS];
    gt_value ret;
} reader_call;

/* No arguments, with the inline ones as room for the first. */
static void call_clear_args(gt_call *c)
{
    reader_call *rc = (reader_call *)c;
    c->args = rc->args;
    c->arg_at_leave = rc->at_leave;
    c->args_cap = INLINE_ARGS;
    c->num_args = 0;
}

static gt_call *call_get(at_reader *r)
{
    gt_call *c = r->npool ? r->pool[--r->npool] : calloc(1, sizeof(reader_call));
    if (!c) {
        atr_fail(r, atr_pos(r), "out of memory");
        return NULL;
    }
    /* field by field: a memset of the whole call is a slow `rep stos` here */
    c->no = c->thread = c->flags = 0;
    c->sig = NULL;
    c->ret = NULL;
    c->num_frames = 0;
    c->frames = NULL;
    c->frames_at_leave = false;
    c->offset = 0;
    call_clear_args(c);
    return c;
}

void at_reader_release(at_reader *r, gt_call *c)
{
    if (!c)
        return;
    if (c->arena.head) /* most calls keep their values beside them and use none */
        gt_arena_reset(&c->arena);
    if (r->npool < POOL_MAX) {
        r->pool[r->npool++] = c;
    } else {
        gt_arena_free(&c->arena);
        free(c);
    }
}

/* Makes room for n arguments; unwritten ones stay GT_ABSENT. Growth past the
 * signature's count doubles, so a trace naming ever larger indices stays linear. */
static int set_args(at_reader *r, gt_call *c, uint32_t n)
{
    if (n > c->args_cap) {
        uint32_t cap = n < 2 * c->args_cap ? 2 * c->args_cap : n;
        gt_value *args = atr_alloc(r, &c->arena, (size_t)cap * sizeof *args);
        uint8_t *phase = args ? atr_alloc(r, &c->arena, cap) : NULL;
        if (!phase)
            return 0;
        if (c->num_args) {
            memcpy(args, c->args, c->num_args * sizeof *args);
            memcpy(phase, c->arg_at_leave, c->num_args);
        }
        c->args = args;
        c->arg_at_leave = phase;
        c->args_cap = cap;
    }
    /* the room is reused: what an earlier call left there is cleared (a value's kind
     * says what it holds, so GT_ABSENT is all an unwritten argument needs) */
    gt_value *args = c->args;
    uint8_t *phase = c->arg_at_leave;
    for (uint32_t i = c->num_args; i < n; ++i) {
        args[i].kind = GT_ABSENT;
        phase[i] = 0;
    }
    c->num_args = n;
    return 1;
}

static int parse_arg(at_reader *r, gt_call *c)
{
    uint64_t off = atr_pos(r), idx;
    if (!atr_rd_uint(r, &idx))
        return 0;
    if (idx >= MAX_ARGS)
        return atr_fail(r, off, "argument index %llu is out of range", (unsigned long long)idx);
    if (idx >= c->num_args && !set_args(r, c, (uint32_t)idx + 1))
        return 0;
    c->arg_at_leave[idx] = (uint8_t)r->in_leave;
    return atr_parse_value(r, &c->arena, &c->args[idx]);
}

static int parse_backtrace(at_reader *r, gt_call *c)
{
    uint64_t off = atr_pos(r);
    uint32_t n;
    if (!atr_rd_u32(r, &n, "backtrace frame count") || !atr_check_size(r, off, n, MAX_SIG_COUNT, "backtrace frame count"))
        return 0;
    size_t cap = 0;
    const gt_frame **frames = NULL;
    c->num_frames = 0;
    for (uint32_t i = 0; i < n; ++i) {
        if (i == cap && !(frames = atr_grow(r, &c->arena, frames, sizeof *frames, &cap, n)))
            return 0;
        if (!atr_parse_frame(r, &frames[i]))
            return 0;
    }
    c->frames = frames;
    c->num_frames = n;
    c->frames_at_leave = r->in_leave;
    return 1;
}

static int parse_details(at_reader *r, gt_call *c)
{
    for (;;) {
        if (atr_fast_details(r, c))
            return 1;
        uint64_t off = atr_pos(r), u;
        int d = 0;
        if (!atr_rd_byte(r, &d))
            return 0;
        switch (d) {
        case AT_DETAIL_END:
            return 1;
        case AT_DETAIL_ARG:
            if (!parse_arg(r, c))
                return 0;
            break;
        case AT_DETAIL_RET:
            c->ret = &((reader_call *)c)->ret;
            memset(c->ret, 0, sizeof *c->ret);
            if (!atr_parse_value(r, &c->arena, c->ret))
                return 0;
            break;
        case AT_DETAIL_THREAD:
            if (r->version >= 4)
                return atr_fail(r, off, "thread detail in a version %u trace", r->version);
            if (!atr_rd_uint(r, &u))
                return 0;
            c->thread = (uint32_t)u;
            break;
        case AT_DETAIL_BACKTRACE:
            if (!parse_backtrace(r, c))
                return 0;
            break;
        case AT_DETAIL_FLAGS:
            if (!atr_rd_uint(r, &u))
                return 0;
            if (u & AT_FLAG_FAKE)
                c->flags |= GT_CALL_FLAG_FAKE;
            break;
        default:
            return atr_fail(r, off, "unknown call detail 0x%02x in %s", d,
                        c->sig ? c->sig->name : "a call");
        }
    }
}

static int push_pending(at_reader *r, gt_call *c)
{
    if (r->npending == r->pending_cap) {
        size_t ncap = r->pending_cap; /* an unsigned */
        if (GT_GROW(r->pending, ncap, ncap + 1, 16) != 0)
            return atr_fail(r, c->offset, "out of memory");
        r->pending_cap = (unsigned)ncap;
    }
    r->pending[r->npending++] = c;
    return 1;
}

/* The pending calls are numbered as they entered, so in increasing order: a binary
 * search finds a leave's call in O(log n) however many calls a killed or damaged trace
 * leaves open (a leave that names no open call too), and calls mostly leave in the
 * reverse order they entered, so the removal moves little. */
static gt_call *take_pending(at_reader *r, uint64_t no)
{
    if (r->npending > r->pending_head && r->pending[r->npending - 1]->no == no)
        return r->pending[--r->npending]; /* the usual case: the call that entered last */
    unsigned lo = r->pending_head, hi = r->npending;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (r->pending[mid]->no < no)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == r->npending || r->pending[lo]->no != no)
        return NULL;
    gt_call *c = r->pending[lo];
    memmove(&r->pending[lo], &r->pending[lo + 1], (r->npending - lo - 1) * sizeof c);
    r->npending--;
    return c;
}

static void note_thread(at_reader *r, uint32_t t)
{
    if (t >= THREAD_BITS)
        return;
    if (!(r->thread_seen[t >> 3] & (1u << (t & 7)))) {
        r->thread_seen[t >> 3] |= (uint8_t)(1u << (t & 7));
        r->stats.threads++;
    }
}

static int parse_enter(at_reader *r, uint64_t off)
{
    uint64_t thread = 0;
    const gt_func_sig *sig = NULL;
    if ((r->version >= 4 && !atr_rd_uint(r, &thread)) || !atr_func_sig(r, &sig))
        return 0;
    gt_call *c = call_get(r);
    if (!c)
        return 0;
    c->no = r->next_call_no++;
    c->thread = (uint32_t)thread;
    c->sig = sig;
    c->flags = sig->flags;
    c->offset = off;
    if (!set_args(r, c, sig->num_args) || !parse_details(r, c) || !push_pending(r, c)) {
        at_reader_release(r, c);
        r->stats.dropped++;
        return 0;
    }
    r->entered = c;
    return 1;
}

/* Returns 1 with *out set to the finished call, or to NULL for a leave event whose
 * enter the trace does not hold. */
static int parse_leave(at_reader *r, gt_call **out)
{
    uint64_t no;
    *out = NULL;
    if (!atr_rd_uint(r, &no))
        return 0;
    gt_call *c = take_pending(r, no);
    r->in_leave = 1;
    if (!c) {
        if (!r->scratch && !(r->scratch = call_get(r)))
            return 0;
        int ok = parse_details(r, r->scratch);
        r->in_leave = 0;
        gt_arena_reset(&r->scratch->arena);
        call_clear_args(r->scratch);
        r->scratch->ret = NULL;
        r->scratch->frames = NULL;
        r->scratch->num_frames = 0;
        return ok;
    }
    int ok = parse_details(r, c);
    r->in_leave = 0;
    if (!ok) {
        at_reader_release(r, c);
        r->stats.dropped++;
        return 0;
    }
    *out = c;
    return 1;
}

static int64_t value_as_int(const gt_value *v)
{
    switch (v->kind) {
    case GT_SINT: return v->i;
    case GT_UINT: return (int64_t)v->u;
    case GT_ENUM: return v->en.v;
    case GT_BOOL: return v->b;
    default: return -1;
    }
}

static gt_call *finish(at_reader *r, gt_call *c)
{
    /* apitrace hides glGetError() = GL_NO_ERROR unless asked for verbose output */
    if (c->sig == r->get_error_sig && c->ret && value_as_int(c->ret) == 0)
        c->flags |= GT_CALL_FLAG_VERBOSE;
    r->stats.calls++;
    note_thread(r, c->thread);
    return c;
}

static void set_end_warning(at_reader *r)
{
    if (r->has_warning)
        return;
    const char *why = NULL;
    char cut[128];
    uint64_t off = atr_pos(r);
    if (r->in->status == AT_INPUT_TRUNCATED) {
        /* off counts decompressed bytes; the file's own offset helps too */
        snprintf(cut, sizeof cut, "file is truncated (its last compressed block is incomplete, "
                 "at byte %zu of the %s file)", at_input_file_pos(r->in), r->in->container);
        why = cut;
    }
    else if (r->cut) {
        why = r->cut_reason[0] ? r->cut_reason : "trace ends inside an event";
        off = r->cut_offset;
    }
    if (!why && !r->stats.incomplete)
        return;
    snprintf(r->warning, sizeof r->warning, "%s: offset %llu: %s%s%llu call(s) left incomplete",
             r->in->path, (unsigned long long)off, why ? why : "", why ? "; " : "",
             (unsigned long long)r->stats.incomplete);
    r->has_warning = 1;
}

gt_call *at_reader_next_event(at_reader *r, at_event_kind *kind)
{
    r->report_enter = 1;
    gt_call *c = at_reader_next(r);
    r->report_enter = 0;
    if (c)
        *kind = r->entered ? AT_EV_ENTER
                : (c->flags & GT_CALL_FLAG_INCOMPLETE) ? AT_EV_INCOMPLETE : AT_EV_LEAVE;
    r->entered = NULL;
    return c;
}

gt_call *at_reader_next(at_reader *r)
{
    r->entered = NULL;
    while (!r->done && !r->failed) {
        at_input *in = r->in;
        if (in->cur == in->end && !at_input_refill(in)) {
            if (in->status == AT_INPUT_ERROR)
                atr_ran_out(r);
            r->done = 1;
            break;
        }
        uint64_t off = atr_pos(r);
        int ev = *in->cur++;
        gt_call *c = NULL;
        int ok;
        if (ev == AT_EVENT_ENTER)
            ok = parse_enter(r, off);
        else if (ev == AT_EVENT_LEAVE)
            ok = parse_leave(r, &c);
        else
            ok = atr_fail(r, off, "unknown event 0x%02x", ev);
        if (!ok) {
            r->done = 1;
            break;
        }
        if (c)
            return finish(r, c);
        if (r->entered && r->report_enter)
            return r->entered;
        r->entered = NULL;
    }
    if (r->failed)
        return NULL;
    if (r->pending_head < r->npending) { /* the calls never left, oldest first */
        gt_call *c = r->pending[r->pending_head++];
        c->flags |= GT_CALL_FLAG_INCOMPLETE;
        r->stats.incomplete++;
        return finish(r, c);
    }
    set_end_warning(r);
    return NULL;
}

/* ---- opening --------------------------------------------------------------------- */

/* The data ended inside the header: what a program killed in its first
 * moments leaves. apitrace dumps such a file as an empty trace and exits 0;
 * so does this reader, with the end warning (set_end_warning) saying why. */
static int header_cut(at_reader *r, uint64_t off, const char *what)
{
    if (r->failed)
        return 0;
    r->cut = 1;
    r->cut_offset = off;
    snprintf(r->cut_reason, sizeof r->cut_reason, "%s", what);
    r->done = 1;
    return 1;
}

static int parse_header(at_reader *r)
{
    uint64_t v;
    if (!atr_rd_uint(r, &v))
        return header_cut(r, 0, "file ends before the trace header");
    if (v > AT_VERSION_MAX)
        return atr_fail(r, 0, "unsupported trace version %llu (this reader knows 0 to %d)",
                    (unsigned long long)v, AT_VERSION_MAX);
    r->version = r->semantic_version = (unsigned)v;
    if (r->version < 6)
        return 1;
    uint64_t off = atr_pos(r);
    if (!atr_rd_uint(r, &v))
        return header_cut(r, off, "file ends inside the trace header");
    if (v > r->version)
        return atr_fail(r, off, "semantic version %llu is newer than the format version %u",
                    (unsigned long long)v, r->version);
    r->semantic_version = (unsigned)v;
    for (;;) {
        const char *name, *value;
        off = atr_pos(r);
        if (!atr_rd_string(r, &r->sigs, &name, NULL))
            return header_cut(r, off, "file ends inside the trace properties");
        if (!name[0])
            return 1;
        if (!atr_rd_string(r, &r->sigs, &value, NULL))
            return header_cut(r, off, "file ends inside the trace properties");
        if (r->nprops == r->props_cap) {
            size_t ncap = r->props_cap; /* an unsigned */
            if (GT_GROW(r->props, ncap, ncap + 1, 8) != 0)
                return atr_fail(r, off, "out of memory");
            r->props_cap = (unsigned)ncap;
        }
        r->props[r->nprops].name = name;
        r->props[r->nprops].value = value;
        r->nprops++;
    }
}

at_reader *at_reader_open_input(at_input *in, const at_reader_options *opt, gt_error *err)
{
    at_reader *r = calloc(1, sizeof *r);
    if (r)
        r->thread_seen = calloc(THREAD_BITS / 8, 1);
    if (!r || !r->thread_seen) {
        gt_error_set(err, "%s: out of memory", in->path);
        free(r);
        at_input_close(in);
        return NULL;
    }
    r->in = in;
    if (opt)
        r->opt = *opt;
    gt_arena_init(&r->sigs);
    gt_error_clear(&r->err);
    if (!parse_header(r)) {
        gt_error_set(err, "%s", r->err.msg);
        at_reader_close(r);
        return NULL;
    }
    return r;
}

at_reader *at_reader_open(const char *path, const at_reader_options *opt, gt_error *err)
{
    at_input *in = at_input_open(path, err);
    return in ? at_reader_open_input(in, opt, err) : NULL;
}

void at_reader_close(at_reader *r)
{
    if (!r)
        return;
    for (unsigned i = r->pending_head; i < r->npending; ++i)
        at_reader_release(r, r->pending[i]);
    if (r->scratch)
        at_reader_release(r, r->scratch);
    for (unsigned i = 0; i < r->npool; ++i) {
        gt_arena_free(&r->pool[i]->arena);
        free(r->pool[i]);
    }
    free(r->pending);
    free(r->funcs.items);
    free(r->enums.items);
    free(r->bitmasks.items);
    free(r->structs.items);
    free(r->frames.items);
    free(r->props);
    free(r->thread_seen);
    gt_arena_free(&r->sigs);
    at_input_close(r->in);
    free(r);
}

unsigned at_reader_version(const at_reader *r) { return r->version; }
unsigned at_reader_semantic_version(const at_reader *r) { return r->semantic_version; }
unsigned at_reader_num_properties(const at_reader *r) { return r->nprops; }
const at_property *at_reader_property(const at_reader *r, unsigned i)
{
    return i < r->nprops ? &r->props[i] : NULL;
}
const at_input *at_reader_input(const at_reader *r) { return r->in; }
const char *at_reader_error(const at_reader *r) { return r->failed ? r->err.msg : NULL; }
const char *at_reader_warning(const at_reader *r) { return r->has_warning ? r->warning : NULL; }

void at_reader_get_stats(const at_reader *r, at_reader_stats *st)
{
    *st = r->stats;
    st->functions = r->funcs.count;
    st->enums = r->enums.count;
    st->bitmasks = r->bitmasks.count;
    st->structs = r->structs.count;
    st->frames = r->frames.count;
}
