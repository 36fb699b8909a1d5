/* The timeline model's shared context: string interning, and the small sinks
 * every pipeline needs (buffer, counts, tee, shift). */
#include "gt_timeline.h"

#include <stdlib.h>
#include <string.h>

#include "gt_grow.h"

struct gt_tl_strings {
    gt_arena bytes;      /* the strings, NUL-terminated */
    const char **str;    /* id -> string */
    uint32_t *len;       /* id -> length */
    uint32_t count, cap; /* ids in use (0 = "") */
    uint32_t *slots;     /* open-addressing hash table of ids, 0 = empty */
    uint32_t nslots;     /* power of two */
};

static uint32_t hash_bytes(const char *s, size_t n)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

int gt_timeline_init(gt_timeline *tl)
{
    memset(tl, 0, sizeof *tl);
    gt_tl_strings *st = calloc(1, sizeof *st);
    if (!st)
        return -1;
    gt_arena_init(&st->bytes);
    st->cap = 256;
    st->nslots = 512;
    st->str = malloc(st->cap * sizeof *st->str);
    st->len = malloc(st->cap * sizeof *st->len);
    st->slots = calloc(st->nslots, sizeof *st->slots);
    if (!st->str || !st->len || !st->slots) {
        free(st->str);
        free(st->len);
        free(st->slots);
        free(st);
        return -1;
    }
    st->str[0] = "";
    st->len[0] = 0;
    st->count = 1;
    tl->strings = st;
    return 0;
}

void gt_timeline_free(gt_timeline *tl)
{
    gt_tl_strings *st = tl->strings;
    if (!st)
        return;
    gt_arena_free(&st->bytes);
    free(st->str);
    free(st->len);
    free(st->slots);
    free(st);
    tl->strings = NULL;
}

static int grow_slots(gt_tl_strings *st)
{
    uint32_t n = st->nslots * 2;
    uint32_t *slots = calloc(n, sizeof *slots);
    if (!slots)
        return -1;
    for (uint32_t id = 1; id < st->count; id++) {
        uint32_t i = hash_bytes(st->str[id], st->len[id]) & (n - 1);
        while (slots[i])
            i = (i + 1) & (n - 1);
        slots[i] = id;
    }
    free(st->slots);
    st->slots = slots;
    st->nslots = n;
    return 0;
}

/* Doubles both id arrays; they share st->cap, a uint32_t as ids are: size_t copies
 * for gt_grow, and no capacity past UINT32_MAX. */
static int grow_ids(gt_tl_strings *st)
{
    size_t cap = st->cap, len_cap = st->cap;
    if (st->cap > UINT32_MAX / 2 || GT_GROW(st->str, cap, cap + 1, 256) != 0 ||
        GT_GROW(st->len, len_cap, len_cap + 1, 256) != 0)
        return -1;
    st->cap = (uint32_t)cap;
    return 0;
}

gt_tl_str gt_tl_intern(gt_timeline *tl, const char *s, size_t n)
{
    gt_tl_strings *st = tl->strings;
    if (n == 0)
        return 0;
    if (n > UINT32_MAX - 1)
        return (gt_tl_str)-1;
    uint32_t mask = st->nslots - 1, i = hash_bytes(s, n) & mask;
    for (uint32_t id; (id = st->slots[i]) != 0; i = (i + 1) & mask)
        if (st->len[id] == n && memcmp(st->str[id], s, n) == 0)
            return id;
    if (st->count == st->cap && grow_ids(st) != 0)
        return (gt_tl_str)-1;
    char *copy = gt_arena_alloc(&st->bytes, n + 1);
    if (!copy)
        return (gt_tl_str)-1;
    if (n) /* s may be NULL for the empty string */
        memcpy(copy, s, n);
    copy[n] = '\0';
    uint32_t id = st->count++;
    st->str[id] = copy;
    st->len[id] = (uint32_t)n;
    st->slots[i] = id;
    if ((uint64_t)st->count * 2 > st->nslots && grow_slots(st) != 0)
        return (gt_tl_str)-1;
    return id;
}

gt_tl_str gt_tl_intern_cstr(gt_timeline *tl, const char *s)
{
    return gt_tl_intern(tl, s, strlen(s));
}

const char *gt_tl_str_get(const gt_timeline *tl, gt_tl_str id, uint32_t *len)
{
    const gt_tl_strings *st = tl->strings;
    if (id >= st->count) {
        if (len)
            *len = 0;
        return "";
    }
    if (len)
        *len = st->len[id];
    return st->str[id];
}

uint32_t gt_tl_str_count(const gt_timeline *tl) { return tl->strings->count; }

const char *gt_tl_kind_name(gt_tl_kind k)
{
    static const char *const names[GT_TL_KIND_COUNT] = {
        [GT_TL_PROCESS_NAME] = "process_name", [GT_TL_THREAD_NAME] = "thread_name",
        [GT_TL_STACK_FRAME] = "stack_frame",   [GT_TL_COMPLETE] = "complete",
        [GT_TL_BEGIN] = "begin",               [GT_TL_END] = "end",
        [GT_TL_INSTANT] = "instant",           [GT_TL_COUNTER] = "counter",
        [GT_TL_ASYNC_BEGIN] = "async_begin",   [GT_TL_ASYNC_INSTANT] = "async_instant",
        [GT_TL_ASYNC_END] = "async_end",       [GT_TL_FLOW_BEGIN] = "flow_begin",
        [GT_TL_FLOW_STEP] = "flow_step",       [GT_TL_FLOW_END] = "flow_end",
        [GT_TL_OBJECT] = "object",             [GT_TL_SAMPLE] = "sample",
        [GT_TL_CONTEXT_SWITCH] = "context_switch",
    };
    return (unsigned)k < GT_TL_KIND_COUNT && names[k] ? names[k] : "?";
}

const gt_tl_arg *gt_tl_arg_find(const gt_timeline *tl, const gt_tl_event *ev, const char *name)
{
    size_t n = strlen(name);
    for (uint32_t i = 0; i < ev->nargs; i++) {
        uint32_t len;
        const char *s = gt_tl_str_get(tl, ev->args[i].name, &len);
        if (len == n && memcmp(s, name, n) == 0)
            return &ev->args[i];
    }
    return NULL;
}

/* ---- buffer ---- */

void gt_tl_buffer_init(gt_tl_buffer *b)
{
    memset(b, 0, sizeof *b);
    gt_arena_init(&b->arena);
}

void gt_tl_buffer_free(gt_tl_buffer *b)
{
    free(b->events);
    gt_arena_free(&b->arena);
    memset(b, 0, sizeof *b);
}

static int copy_bytes(gt_arena *a, gt_tl_bytes *s)
{
    char *p = gt_arena_alloc(a, (size_t)s->len + 1);
    if (!p)
        return -1;
    if (s->len)
        memcpy(p, s->p, s->len);
    p[s->len] = '\0';
    s->p = p;
    return 0;
}

static int buffer_event(void *self, const gt_timeline *tl, const gt_tl_event *ev, gt_error *err)
{
    (void)tl;
    gt_tl_buffer *b = self;
    if (GT_GROW(b->events, b->cap, b->count + 1, 256) != 0) {
        gt_error_set(err, "out of memory keeping %zu timeline events", b->count);
        return -1;
    }
    gt_tl_event copy = *ev;
    if (ev->nargs) {
        gt_tl_arg *args = gt_arena_alloc(&b->arena, ev->nargs * sizeof *args);
        if (!args) {
            gt_error_set(err, "out of memory keeping timeline arguments");
            return -1;
        }
        memcpy(args, ev->args, ev->nargs * sizeof *args);
        for (uint32_t i = 0; i < ev->nargs; i++)
            if ((args[i].kind == GT_TL_ARG_STRING || args[i].kind == GT_TL_ARG_JSON) &&
                copy_bytes(&b->arena, &args[i].v.s) != 0) {
                gt_error_set(err, "out of memory keeping timeline arguments");
                return -1;
            }
        copy.args = args;
    } else {
        copy.args = NULL;
    }
    b->events[b->count++] = copy;
    return 0;
}

gt_tl_sink gt_tl_buffer_sink(gt_tl_buffer *b)
{
    return (gt_tl_sink){.self = b, .event = buffer_event, .finish = NULL};
}

int gt_tl_buffer_replay(const gt_tl_buffer *b, const gt_timeline *tl, gt_tl_sink *to, gt_error *err)
{
    for (size_t i = 0; i < b->count; i++)
        if (gt_tl_emit(to, tl, &b->events[i], err) != 0)
            return -1;
    return 0;
}

/* ---- counts ---- */

static int counts_event(void *self, const gt_timeline *tl, const gt_tl_event *ev, gt_error *err)
{
    (void)tl;
    (void)err;
    gt_tl_counts *c = self;
    if ((unsigned)ev->kind < GT_TL_KIND_COUNT)
        c->n[ev->kind]++;
    return 0;
}

gt_tl_sink gt_tl_counts_sink(gt_tl_counts *c)
{
    return (gt_tl_sink){.self = c, .event = counts_event, .finish = NULL};
}

/* ---- tee ---- */

static int tee_event(void *self, const gt_timeline *tl, const gt_tl_event *ev, gt_error *err)
{
    gt_tl_tee *t = self;
    if (gt_tl_emit(t->a, tl, ev, err) != 0)
        return -1;
    return gt_tl_emit(t->b, tl, ev, err);
}

static int tee_finish(void *self, const gt_timeline *tl, gt_error *err)
{
    gt_tl_tee *t = self;
    int ra = gt_tl_finish(t->a, tl, err);
    int rb = gt_tl_finish(t->b, tl, err);
    return ra != 0 || rb != 0 ? -1 : 0;
}

gt_tl_sink gt_tl_tee_sink(gt_tl_tee *t)
{
    return (gt_tl_sink){.self = t, .event = tee_event, .finish = tee_finish};
}

/* ---- shift ---- */

static int shift_event(void *self, const gt_timeline *tl, const gt_tl_event *ev, gt_error *err)
{
    gt_tl_shift *s = self;
    if (s->ts_offset == 0)
        return gt_tl_emit(s->to, tl, ev, err);
    /* the anchor moves with the clock: wall time of each event stays the same */
    gt_timeline shifted = *tl;
    shifted.wall_offset_ns -= s->ts_offset;
    shifted.mono_offset_ns -= s->ts_offset;
    if (ev->kind == GT_TL_PROCESS_NAME || ev->kind == GT_TL_THREAD_NAME || ev->kind == GT_TL_STACK_FRAME)
        return gt_tl_emit(s->to, &shifted, ev, err);
    gt_tl_event e = *ev;
    e.ts += s->ts_offset;
    return gt_tl_emit(s->to, &shifted, &e, err);
}

static int shift_finish(void *self, const gt_timeline *tl, gt_error *err)
{
    gt_tl_shift *s = self;
    return gt_tl_finish(s->to, tl, err);
}

gt_tl_sink gt_tl_shift_sink(gt_tl_shift *s)
{
    return (gt_tl_sink){.self = s, .event = shift_event, .finish = shift_finish};
}
