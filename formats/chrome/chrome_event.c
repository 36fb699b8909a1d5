/* One Chrome trace event object to timeline model events (chrome_reader.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chrome_reader_internal.h"

/* The keys read; the rest are skipped (strict: refused, the writer writes these only). */
enum { F_PH, F_TS, F_DUR, F_PID, F_TID, F_CAT, F_NAME, F_ID, F_S, F_BP, F_SF, F_ARGS,
       F_ID2, F_BIND_ID, F_FLOW_IN, F_FLOW_OUT, F_STACK, F_COUNT, F_STRICT_COUNT = F_ID2 };
static const char *const field_names[F_COUNT] = {
    "ph", "ts", "dur", "pid", "tid", "cat", "name", "id", "s", "bp", "sf", "args",
    "id2", "bind_id", "flow_in", "flow_out", "stack",
};

typedef struct cr_fields {
    cj_value f[F_COUNT]; /* type CJ_NONE: absent */
    size_t off;          /* the event's '{' */
} cr_fields;

static int read_fields(cr_state *r, cr_fields *ev)
{
    memset(ev, 0, sizeof *ev);
    ev->off = r->lx.pos;
    r->lx.pos++; /* '{' */
    bool first = true;
    gt_tl_bytes key;
    int m;
    while ((m = cj_member(&r->lx, &first, &key)) == 1) {
        int i = 0;
        while (i < F_COUNT && !(strlen(field_names[i]) == key.len && memcmp(field_names[i], key.p, key.len) == 0))
            i++;
        cj_value skipped, *v = i < F_COUNT ? &ev->f[i] : &skipped;
        cj_peek(&r->lx);
        size_t at = r->lx.pos;
        if (cj_value_read(&r->lx, v) != 0)
            return -1;
        if (r->strict && i >= F_STRICT_COUNT)
            return cj_fail(&r->lx, at, "event key our writer never writes");
    }
    return m;
}

static bool is(const cj_value *v, const char *s)
{
    return v->type == CJ_STRING && v->s.len == strlen(s) && memcmp(v->s.p, s, v->s.len) == 0;
}

/* ---- tracks ---- */

/* Names a synthetic koid once per (pid, tid). */
static int name_synthetic(cr_state *r, const cr_fields *ev, gt_tl_event *e, bool thread)
{
    uint64_t key[2] = {e->pid, thread ? e->tid : 0};
    int added;
    cm_slot *s = chrome_map_get(&r->named, key, sizeof key, &added);
    if (!s)
        return cj_fail(&r->lx, ev->off, "out of memory");
    if (!added)
        return 0;
    const cj_value *v = &ev->f[thread ? F_TID : F_PID];
    gt_tl_event n = {.kind = thread ? GT_TL_THREAD_NAME : GT_TL_PROCESS_NAME, .pid = e->pid,
                     .tid = thread ? e->tid : 0};
    if ((n.name = cr_intern(r, &v->s, v->off)) == (gt_tl_str)-1)
        return -1;
    return gt_tl_emit(r->sink, r->tl, &n, r->err);
}

static int track(cr_state *r, const cr_fields *ev, gt_tl_event *e)
{
    bool sp = false, st = false;
    if (ev->f[F_PID].type && cr_koid(r, &ev->f[F_PID], "pid", &e->pid, &sp) != 0)
        return -1;
    if (ev->f[F_TID].type && cr_koid(r, &ev->f[F_TID], "tid", &e->tid, &st) != 0)
        return -1;
    if (sp && name_synthetic(r, ev, e, false) != 0)
        return -1;
    return st ? name_synthetic(r, ev, e, true) : 0;
}

/* ---- B/E pairing: warnings only, events pass as they are ----
 * Even strict mode reads them: they are the timeline's, which our writer
 * writes as they come, not deviations of the format. */

static int pairing(cr_state *r, const cr_fields *ev, const gt_tl_event *e)
{
    uint64_t key[2] = {e->pid, e->tid};
    int added;
    cm_slot *s = chrome_map_get(&r->open, key, sizeof key, &added);
    if (!s)
        return cj_fail(&r->lx, ev->off, "out of memory");
    if (e->kind == GT_TL_BEGIN) {
        s->value++;
        r->open_total++;
        return 0;
    }
    if (s->value == 0) {
        cr_warn(r, CRW_UNMATCHED_E, "E event without a B on its thread");
        return 0;
    }
    s->value--;
    r->open_total--;
    return 0;
}

/* ---- phases ---- */

static int kind_of(cr_state *r, const cr_fields *ev, char ph, gt_tl_event *e)
{
    static const struct { char ph; gt_tl_kind kind; } map[] = {
        {'X', GT_TL_COMPLETE},     {'B', GT_TL_BEGIN},         {'E', GT_TL_END},
        {'i', GT_TL_INSTANT},      {'I', GT_TL_INSTANT},       {'R', GT_TL_INSTANT},
        {'C', GT_TL_COUNTER},      {'b', GT_TL_ASYNC_BEGIN},   {'S', GT_TL_ASYNC_BEGIN},
        {'n', GT_TL_ASYNC_INSTANT}, {'T', GT_TL_ASYNC_INSTANT}, {'p', GT_TL_ASYNC_INSTANT},
        {'e', GT_TL_ASYNC_END},    {'F', GT_TL_ASYNC_END},     {'s', GT_TL_FLOW_BEGIN},
        {'t', GT_TL_FLOW_STEP},    {'f', GT_TL_FLOW_END},      {'N', GT_TL_OBJECT},
        {'O', GT_TL_OBJECT},       {'D', GT_TL_OBJECT},        {'P', GT_TL_SAMPLE},
    };
    static const char legacy[] = "ISTpFR"; /* read, never written */
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (map[i].ph == ph) {
            if (r->strict && strchr(legacy, ph))
                return cj_fail(&r->lx, ev->f[F_PH].off, "phase our writer never writes");
            e->kind = map[i].kind;
            if (e->kind == GT_TL_OBJECT)
                e->scope = (uint8_t)ph;
            return 1;
        }
    char msg[64];
    snprintf(msg, sizeof msg, "events of phase '%c' skipped (the model has no such event)", ph);
    if (cr_deviation(r, CRW_UNKNOWN_PHASE, ev->f[F_PH].off, msg) != 0)
        return -1;
    r->st.skipped++;
    return 0;
}

static int scope_of(cr_state *r, const cr_fields *ev, gt_tl_event *e)
{
    const cj_value *s = &ev->f[F_S];
    e->scope = GT_TL_SCOPE_THREAD;
    if (s->type == CJ_NONE || is(s, "t"))
        return 0;
    if (is(s, "p"))
        e->scope = GT_TL_SCOPE_PROCESS;
    else if (is(s, "g"))
        e->scope = GT_TL_SCOPE_GLOBAL;
    else
        return cr_deviation(r, CRW_BAD_SCOPE, s->off, "instant scope is not \"t\", \"p\" or \"g\": thread");
    return 0;
}

static int ids(cr_state *r, const cr_fields *ev, gt_tl_event *e)
{
    const cj_value *id = &ev->f[F_ID];
    cj_value inner;
    if (id->type == CJ_NONE && ev->f[F_ID2].type == CJ_OBJECT) {
        /* {"local": id} or {"global": id} */
        cj_lex sub;
        cj_sub(&sub, &r->lx, &ev->f[F_ID2]);
        sub.pos++;
        bool first = true;
        gt_tl_bytes key;
        int m;
        while ((m = cj_member(&sub, &first, &key)) == 1)
            if (cj_value_read(&sub, &inner) != 0)
                return -1;
        if (m < 0)
            return -1;
        if (!first)
            id = &inner;
    }
    bool need = e->kind != GT_TL_COUNTER && e->kind != GT_TL_COMPLETE && e->kind != GT_TL_BEGIN &&
                e->kind != GT_TL_END && e->kind != GT_TL_INSTANT && e->kind != GT_TL_SAMPLE;
    if (id->type != CJ_NONE)
        return cr_id(r, id, &e->id);
    return need ? cr_deviation(r, CRW_NO_ID, ev->off, "event without the id its phase needs: id 0") : 0;
}

static int times(cr_state *r, const cr_fields *ev, gt_tl_event *e)
{
    if (ev->f[F_TS].type == CJ_NONE) {
        if (cr_deviation(r, CRW_NO_TS, ev->off, "event without ts: ts 0") != 0)
            return -1;
    } else if (cr_time_ns(r, &ev->f[F_TS], "ts", &e->ts) != 0) {
        return -1;
    }
    if (e->kind != GT_TL_COMPLETE)
        return 0;
    if (ev->f[F_DUR].type == CJ_NONE)
        return cr_deviation(r, CRW_NO_DUR, ev->off, "X event without dur: dur 0");
    return cr_time_ns(r, &ev->f[F_DUR], "dur", &e->dur);
}

/* Context switches our writer wrote as instants (chrome_writer.c). */
static void cswitch(cr_state *r, gt_tl_event *e, uint32_t nargs)
{
    e->kind = GT_TL_CONTEXT_SWITCH;
    for (uint32_t i = 0; i < nargs; i++) {
        const gt_tl_arg *a = &r->args[i];
        const char *n = gt_tl_str_get(r->tl, a->name, NULL);
        uint64_t v = a->kind == GT_TL_ARG_I64 ? (uint64_t)a->v.i : a->kind == GT_TL_ARG_U64 ? a->v.u : 0;
        if (!strcmp(n, "cpu")) e->cs.cpu = (uint32_t)v;
        else if (!strcmp(n, "out_state")) e->cs.out_state = (uint32_t)v;
        else if (!strcmp(n, "out_pid")) e->cs.out_pid = v;
        else if (!strcmp(n, "out_tid")) e->cs.out_tid = v;
        else if (!strcmp(n, "out_prio")) e->cs.out_prio = (int32_t)v;
        else if (!strcmp(n, "in_pid")) e->cs.in_pid = v;
        else if (!strcmp(n, "in_tid")) e->cs.in_tid = v;
        else if (!strcmp(n, "in_prio")) e->cs.in_prio = (int32_t)v;
    }
    e->pid = e->tid = 0;
    e->cat = e->name = 0;
    e->nargs = 0;
    e->args = NULL;
}

static int flag(cr_state *r, const cj_value *v, bool *out)
{
    *out = v->type == CJ_TRUE;
    if (v->type == CJ_NONE || v->type == CJ_TRUE || v->type == CJ_FALSE)
        return 0;
    return cr_deviation(r, CRW_BAD_FLAG, v->off, "flow_in/flow_out is not a boolean: false");
}

/* v2 flows: the slice's bind_id with flow_out (begin), flow_in (end) or both (step). */
static int v2_flow(cr_state *r, const cr_fields *ev, const gt_tl_event *slice)
{
    if (ev->f[F_BIND_ID].type == CJ_NONE)
        return 0;
    bool in, out;
    if (flag(r, &ev->f[F_FLOW_IN], &in) != 0 || flag(r, &ev->f[F_FLOW_OUT], &out) != 0)
        return -1;
    if (!in && !out)
        return 0;
    gt_tl_event f = {.kind = in && out ? GT_TL_FLOW_STEP : out ? GT_TL_FLOW_BEGIN : GT_TL_FLOW_END,
                     .ts = slice->ts, .pid = slice->pid, .tid = slice->tid,
                     .cat = slice->cat, .name = slice->name};
    if (cr_id(r, &ev->f[F_BIND_ID], &f.id) != 0)
        return -1;
    r->st.v2_flows++;
    return gt_tl_emit(r->sink, r->tl, &f, r->err);
}

static int strings(cr_state *r, const cr_fields *ev, gt_tl_event *e)
{
    for (int i = F_CAT; i <= F_NAME; i++) {
        const cj_value *v = &ev->f[i];
        gt_tl_str *dst = i == F_CAT ? &e->cat : &e->name;
        if (v->type == CJ_NONE || v->type == CJ_NULL)
            continue;
        if (v->type != CJ_STRING)
            return cj_fail(&r->lx, v->off, i == F_CAT ? "cat is not a string" : "name is not a string");
        if ((*dst = cr_intern(r, &v->s, v->off)) == (gt_tl_str)-1)
            return -1;
    }
    return 0;
}

static int metadata(cr_state *r, const cr_fields *ev, gt_tl_event *e)
{
    const cj_value *name = &ev->f[F_NAME];
    bool proc = is(name, "process_name"), thread = is(name, "thread_name");
    if (!proc && !thread) {
        r->st.metadata_other++;
        return cr_deviation(r, CRW_OTHER_META, ev->off,
                            "metadata events other than process_name/thread_name skipped");
    }
    cj_value value = {0};
    uint32_t nargs;
    if (cr_args(r, &ev->f[F_ARGS], &nargs, true, &value) != 0)
        return -1;
    if (value.type != CJ_STRING) {
        r->st.metadata_other++;
        return cr_deviation(r, CRW_NAMELESS_META, ev->off, "process_name/thread_name without a string args.name: skipped");
    }
    e->kind = proc ? GT_TL_PROCESS_NAME : GT_TL_THREAD_NAME;
    if (proc)
        e->tid = 0;
    if ((e->name = cr_intern(r, &value.s, value.off)) == (gt_tl_str)-1 ||
        (ev->f[F_CAT].type == CJ_STRING && (e->cat = cr_intern(r, &ev->f[F_CAT].s, ev->off)) == (gt_tl_str)-1))
        return -1;
    e->nargs = nargs;
    e->args = nargs ? r->args : NULL;
    return gt_tl_emit(r->sink, r->tl, e, r->err);
}

static int phase(cr_state *r, const cr_fields *ev, char *ph)
{
    const cj_value *v = &ev->f[F_PH];
    if (v->type == CJ_NONE)
        return cj_fail(&r->lx, ev->off, "event without ph");
    if (v->type != CJ_STRING || v->s.len != 1)
        return cj_fail(&r->lx, v->off, "ph is not a one-character string");
    *ph = v->s.p[0];
    return 0;
}

static int model_event(cr_state *r, const cr_fields *ev, char ph, gt_tl_event *e)
{
    int k = kind_of(r, ev, ph, e);
    if (k <= 0)
        return k;
    if (times(r, ev, e) != 0 || strings(r, ev, e) != 0 || ids(r, ev, e) != 0)
        return -1;
    if (e->kind == GT_TL_INSTANT && scope_of(r, ev, e) != 0)
        return -1;
    if (e->kind == GT_TL_FLOW_END && !is(&ev->f[F_BP], "e"))
        e->scope = GT_TL_FLOW_BIND_NEXT;
    if (ev->f[F_SF].type && cr_frame_id(r, &ev->f[F_SF], &e->stack) != 0)
        return -1;
    if (!ev->f[F_SF].type && ev->f[F_STACK].type && cr_raw_stack(r, &ev->f[F_STACK], &e->stack) != 0)
        return -1;
    uint32_t nargs;
    if (cr_args(r, &ev->f[F_ARGS], &nargs, false, NULL) != 0)
        return -1;
    e->nargs = nargs;
    e->args = nargs ? r->args : NULL;
    if (ph == 'i' && is(&ev->f[F_CAT], "gltrace.context_switch"))
        cswitch(r, e, nargs);
    if ((e->kind == GT_TL_BEGIN || e->kind == GT_TL_END) && pairing(r, ev, e) != 0)
        return -1;
    if (gt_tl_emit(r->sink, r->tl, e, r->err) != 0)
        return -1;
    return e->kind == GT_TL_COMPLETE || e->kind == GT_TL_BEGIN ? v2_flow(r, ev, e) : 0;
}

int cr_event(cr_state *r)
{
    cr_fields ev;
    gt_arena_reset(&r->scratch);
    if (read_fields(r, &ev) != 0)
        return -1;
    r->st.events++;
    char ph = 0;
    if (phase(r, &ev, &ph) != 0)
        return -1;
    gt_tl_event e = {0};
    if (track(r, &ev, &e) != 0)
        return -1;
    if (ph == 'M')
        return metadata(r, &ev, &e);
    return model_event(r, &ev, ph, &e);
}
