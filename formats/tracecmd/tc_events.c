/* Ring-buffer records to timeline events: sched_switch to context switches,
 * funcgraph_entry/exit to begin/end slices named by the function, kernel_stack
 * to an instant with its stack, everything else to an instant carrying its
 * fields. Every event of a CPU carries that CPU as its first argument "cpu". */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc_internal.h"

#define MAX_FRAMES (1u << 20)

typedef struct frame_slot {
    uint64_t addr;
    uint32_t parent, id; /* id 0: empty */
} frame_slot;

struct tc_conv {
    tc_file *f;
    gt_tl_sink *sink;
    gt_timeline *tl;
    tc_kallsyms ks;
    tc_printk printk;
    gt_tl_arg *args;
    uint32_t args_cap;
    char *text;           /* formatted arrays of the current record */
    size_t text_cap, text_len;
    gt_tl_str s_cpu, s_kernel, s_call, s_format, s_args;
    uint64_t *named;      /* open-addressing set of pid + 1 with a thread name sent */
    size_t named_n, named_cap;
    frame_slot *frames;
    size_t frames_cap;
    uint32_t nframes;
    uint64_t unknown, cut_fields; /* warned once each */
};

tc_conv *tc_conv_new(tc_file *f, gt_tl_sink *sink)
{
    tc_conv *cv = calloc(1, sizeof *cv);
    if (!cv)
        return NULL;
    cv->f = f;
    cv->sink = sink;
    cv->tl = f->tl;
    cv->s_cpu = gt_tl_intern_cstr(f->tl, "cpu");
    cv->s_kernel = gt_tl_intern_cstr(f->tl, "kernel");
    if (cv->s_cpu == (gt_tl_str)-1 || cv->s_kernel == (gt_tl_str)-1) {
        free(cv);
        return NULL;
    }
    return cv;
}

void tc_conv_free(tc_conv *cv)
{
    if (!cv)
        return;
    tc_kallsyms_free(&cv->ks);
    tc_kallsyms_free(&cv->printk);
    free(cv->args);
    free(cv->text);
    free(cv->named);
    free(cv->frames);
    free(cv);
}

static int emit(tc_conv *cv, const gt_tl_event *ev)
{
    return gt_tl_emit(cv->sink, cv->tl, ev, cv->f->err);
}

static int oom(tc_conv *cv)
{
    return tc_fail(cv->f, 0, "out of memory");
}

/* ---- thread names ------------------------------------------------------------------ */

/* Adds pid to the named set; 1 if it was new, 0 if known, -1 out of memory. */
static int named_add(tc_conv *cv, int64_t pid)
{
    uint64_t key = (uint64_t)pid + 1;
    if (key == 0)
        key = 1ull << 63;
    if (cv->named_n * 2 >= cv->named_cap) {
        size_t cap = cv->named_cap ? cv->named_cap * 2 : 256;
        uint64_t *n = calloc(cap, sizeof *n);
        if (!n)
            return -1;
        for (size_t i = 0; i < cv->named_cap; i++) {
            if (!cv->named[i])
                continue;
            size_t j = (cv->named[i] * 0x9e3779b97f4a7c15ull) >> 7 & (cap - 1);
            while (n[j])
                j = (j + 1) & (cap - 1);
            n[j] = cv->named[i];
        }
        free(cv->named);
        cv->named = n;
        cv->named_cap = cap;
    }
    size_t j = (key * 0x9e3779b97f4a7c15ull) >> 7 & (cv->named_cap - 1);
    while (cv->named[j]) {
        if (cv->named[j] == key)
            return 0;
        j = (j + 1) & (cv->named_cap - 1);
    }
    cv->named[j] = key;
    cv->named_n++;
    return 1;
}

static int thread_name(tc_conv *cv, int64_t pid, const char *comm, size_t n)
{
    int fresh = named_add(cv, pid);
    if (fresh <= 0)
        return fresh < 0 ? oom(cv) : 0;
    gt_tl_str name = gt_tl_intern(cv->tl, comm, n);
    if (name == (gt_tl_str)-1)
        return oom(cv);
    gt_tl_event ev = {.kind = GT_TL_THREAD_NAME, .pid = (uint64_t)pid, .tid = (uint64_t)pid, .name = name};
    return emit(cv, &ev);
}

static int cmdline_cb(void *ctx, int64_t pid, const char *comm, size_t n)
{
    return thread_name(ctx, pid, comm, n) < 0 ? -1 : 0;
}

int tc_conv_names(tc_conv *cv)
{
    if (!cv->f->cmdlines)
        return 0;
    return tc_cmdlines_each(cv->f->cmdlines, cv->f->cmdlines_len, cmdline_cb, cv);
}

/* ---- fields ------------------------------------------------------------------------ */

static int64_t get_int(const tc_field *fd, const uint8_t *p, bool be)
{
    uint64_t v = tc_get_num(p, fd->size, be);
    if (fd->is_signed && fd->size < 8 && (v >> (fd->size * 8 - 1)) & 1)
        v |= ~0ull << (fd->size * 8);
    return (int64_t)v;
}

/* A field's bytes in the record: fixed place, the rest of the record, or the
 * dynamic area a __data_loc / __rel_loc word points at. */
static bool field_bytes(const tc_field *fd, const tc_rec *r, bool be, const uint8_t **p, uint32_t *n)
{
    if (fd->offset > r->len)
        return false;
    if (fd->kind == TC_F_LOC_STR || fd->kind == TC_F_LOC_ARRAY) {
        if (r->len - fd->offset < 4)
            return false;
        uint32_t w = (uint32_t)tc_get_num(r->data + fd->offset, 4, be);
        uint64_t off = w & 0xffff, len = w >> 16;
        if (fd->rel)
            off += (uint64_t)fd->offset + 4;
        if (off > r->len || len > r->len - off)
            return false;
        *p = r->data + off;
        *n = (uint32_t)len;
        return true;
    }
    if (fd->tail) {
        *p = r->data + fd->offset;
        *n = r->len - fd->offset;
        return true;
    }
    if (fd->size > r->len - fd->offset)
        return false;
    *p = r->data + fd->offset;
    *n = fd->size;
    return true;
}

/* "0x1,0x2,..." into the record's text scratch (reserved beforehand). */
static gt_tl_bytes format_array(tc_conv *cv, const uint8_t *p, uint32_t n, uint32_t elem)
{
    if (elem != 1 && elem != 2 && elem != 4 && elem != 8)
        elem = 1;
    char *out = cv->text + cv->text_len;
    size_t k = 0, room = cv->text_cap - cv->text_len;
    /* overlapping fields could outgrow the reservation: cut rather than overflow */
    for (uint32_t i = 0; i + elem <= n && k + 24 <= room; i += elem)
        k += (size_t)snprintf(out + k, room - k, "%s0x%" PRIx64, i ? "," : "", tc_get_num(p + i, elem, cv->f->be));
    cv->text_len += k;
    return (gt_tl_bytes){out, (uint32_t)k};
}

static gt_tl_bytes c_string(const uint8_t *p, uint32_t n)
{
    const uint8_t *z = memchr(p, 0, n);
    return (gt_tl_bytes){(const char *)p, z ? (uint32_t)(z - p) : n};
}

static void field_arg(tc_conv *cv, const tc_field *fd, const uint8_t *p, uint32_t n, gt_tl_arg *a)
{
    a->name = fd->arg;
    switch (fd->kind) {
    case TC_F_INT: {
        int64_t v = get_int(fd, p, cv->f->be);
        if (fd->is_signed)
            a->kind = fd->size == 8 ? GT_TL_ARG_I64 : GT_TL_ARG_I32, a->v.i = v;
        else
            a->kind = fd->size == 8 ? GT_TL_ARG_U64 : GT_TL_ARG_U32, a->v.u = (uint64_t)v;
        return;
    }
    case TC_F_CHARS:
    case TC_F_LOC_STR:
        a->kind = GT_TL_ARG_STRING;
        a->v.s = c_string(p, n);
        return;
    default:
        a->kind = GT_TL_ARG_STRING;
        a->v.s = format_array(cv, p, n, fd->kind == TC_F_BYTES ? 1 : fd->elem);
        return;
    }
}

static int reserve(tc_conv *cv, const tc_event *e, const tc_rec *r)
{
    uint32_t need = e->nfields + 3; /* cpu, fields, bprint's format or function names */
    if (need > cv->args_cap) {
        gt_tl_arg *a = realloc(cv->args, need * sizeof *a);
        if (!a)
            return oom(cv);
        cv->args = a;
        cv->args_cap = need;
    }
    /* worst case per byte of arrays: "0x" + 2 hex digits + "," */
    size_t text = (size_t)r->len * 5 + 64;
    if (text > cv->text_cap) {
        char *t = realloc(cv->text, text);
        if (!t)
            return oom(cv);
        cv->text = t;
        cv->text_cap = text;
    }
    cv->text_len = 0;
    return 0;
}

/* cpu, then every field but the common ones (and skip, when given). */
static int build_args(tc_conv *cv, const tc_event *e, const tc_rec *r, uint32_t cpu, const char *skip,
                      uint32_t *nargs)
{
    if (reserve(cv, e, r) < 0)
        return -1;
    uint32_t n = 0;
    cv->args[n++] = (gt_tl_arg){.name = cv->s_cpu, .kind = GT_TL_ARG_U32, .v.u = cpu};
    for (uint32_t i = 0; i < e->nfields; i++) {
        const tc_field *fd = &e->fields[i];
        const uint8_t *p;
        uint32_t len;
        if (fd->common || (skip && strcmp(fd->name, skip) == 0))
            continue;
        if (!field_bytes(fd, r, cv->f->be, &p, &len)) {
            if (!cv->cut_fields++)
                tc_warn(cv->f, 0, "event %s: field %s lies outside its record (not shown; warned once)",
                        e->name, fd->name);
            continue;
        }
        field_arg(cv, fd, p, len, &cv->args[n++]);
    }
    *nargs = n;
    return 0;
}

static bool int_field(const tc_event *e, const char *name, const tc_rec *r, bool be, int64_t *v)
{
    const tc_field *fd = tc_event_field(e, name);
    if (!fd || fd->kind != TC_F_INT || fd->offset > r->len || fd->size > r->len - fd->offset)
        return false;
    *v = get_int(fd, r->data + fd->offset, be);
    return true;
}

/* ---- special events ------------------------------------------------------------------ */

static int comm_name(tc_conv *cv, const tc_event *e, const tc_rec *r, const char *field, int64_t pid)
{
    const tc_field *fd = tc_event_field(e, field);
    const uint8_t *p;
    uint32_t n;
    if (!fd || (fd->kind != TC_F_CHARS && fd->kind != TC_F_LOC_STR) || !field_bytes(fd, r, cv->f->be, &p, &n))
        return 0;
    gt_tl_bytes s = c_string(p, n);
    return s.len ? thread_name(cv, pid, s.p, s.len) : 0;
}

static int sched_switch(tc_conv *cv, const tc_event *e, const tc_rec *r, uint32_t cpu, int64_t ts)
{
    int64_t prev = 0, next = 0, pprio = 0, nprio = 0, state = 0;
    bool be = cv->f->be;
    if (!int_field(e, "prev_pid", r, be, &prev) || !int_field(e, "next_pid", r, be, &next))
        return tc_deviation(cv->f, 0, "sched_switch record too short for its pids") < 0 ? -1 : 0;
    (void)int_field(e, "prev_prio", r, be, &pprio);
    (void)int_field(e, "next_prio", r, be, &nprio);
    (void)int_field(e, "prev_state", r, be, &state);
    if (comm_name(cv, e, r, "prev_comm", prev) < 0 || comm_name(cv, e, r, "next_comm", next) < 0)
        return -1;
    /* the comms as this record has them (a task's name changes at exec) */
    gt_tl_arg a[2];
    uint32_t n = 0;
    for (int i = 0; i < 2; i++) {
        const tc_field *fd = tc_event_field(e, i ? "next_comm" : "prev_comm");
        const uint8_t *p;
        uint32_t len;
        if (fd && (fd->kind == TC_F_CHARS || fd->kind == TC_F_LOC_STR) && field_bytes(fd, r, be, &p, &len))
            a[n++] = (gt_tl_arg){.name = fd->arg, .kind = GT_TL_ARG_STRING, .v.s = c_string(p, len)};
    }
    gt_tl_event ev = {.kind = GT_TL_CONTEXT_SWITCH, .ts = ts, .cat = e->cat, .name = e->ev_name,
                      .nargs = n, .args = a, .cs = {
        .cpu = cpu, .out_state = (uint32_t)state,
        .out_pid = (uint64_t)prev, .out_tid = (uint64_t)prev, .in_pid = (uint64_t)next, .in_tid = (uint64_t)next,
        .out_prio = (int32_t)pprio, .in_prio = (int32_t)nprio}};
    return emit(cv, &ev);
}

static gt_tl_str func_name(tc_conv *cv, uint64_t addr)
{
    if (!cv->ks.loaded && cv->f->kallsyms &&
        tc_kallsyms_load(&cv->ks, cv->f->kallsyms, cv->f->kallsyms_len) < 0)
        return (gt_tl_str)-1;
    const tc_ksym *s = tc_kallsyms_find(&cv->ks, addr);
    if (s)
        return gt_tl_intern(cv->tl, cv->f->kallsyms + s->name, s->len);
    char hex[24];
    int n = snprintf(hex, sizeof hex, "0x%" PRIx64, addr);
    return gt_tl_intern(cv->tl, hex, (size_t)n);
}

static int funcgraph(tc_conv *cv, const tc_event *e, const tc_rec *r, uint32_t cpu, int64_t ts, int64_t pid)
{
    int64_t func;
    uint32_t nargs;
    if (!int_field(e, "func", r, cv->f->be, &func))
        return tc_deviation(cv->f, 0, "%s record too short for its function", e->name) < 0 ? -1 : 0;
    gt_tl_str name = func_name(cv, (uint64_t)func);
    if (name == (gt_tl_str)-1 || build_args(cv, e, r, cpu, "func", &nargs) < 0)
        return name == (gt_tl_str)-1 ? oom(cv) : -1;
    gt_tl_event ev = {.kind = e->special == TC_EV_FGRAPH_ENTRY ? GT_TL_BEGIN : GT_TL_END, .ts = ts,
                      .pid = (uint64_t)pid, .tid = (uint64_t)pid, .cat = e->cat, .name = name,
                      .nargs = nargs, .args = cv->args};
    return emit(cv, &ev);
}

/* The id of frame (addr, parent), sending a STACK_FRAME event when new; 0 when
 * the table is full. */
static int frame_id(tc_conv *cv, uint64_t addr, uint32_t parent, uint32_t *id)
{
    if (cv->nframes * 2 >= cv->frames_cap) {
        if (cv->nframes >= MAX_FRAMES)
            return *id = 0, 0;
        size_t cap = cv->frames_cap ? cv->frames_cap * 2 : 1024;
        frame_slot *n = calloc(cap, sizeof *n);
        if (!n)
            return oom(cv);
        for (size_t i = 0; i < cv->frames_cap; i++) {
            frame_slot s = cv->frames[i];
            if (!s.id)
                continue;
            size_t j = ((s.addr ^ (uint64_t)s.parent << 40) * 0x9e3779b97f4a7c15ull) >> 9 & (cap - 1);
            while (n[j].id)
                j = (j + 1) & (cap - 1);
            n[j] = s;
        }
        free(cv->frames);
        cv->frames = n;
        cv->frames_cap = cap;
    }
    size_t j = ((addr ^ (uint64_t)parent << 40) * 0x9e3779b97f4a7c15ull) >> 9 & (cv->frames_cap - 1);
    for (; cv->frames[j].id; j = (j + 1) & (cv->frames_cap - 1))
        if (cv->frames[j].addr == addr && cv->frames[j].parent == parent)
            return *id = cv->frames[j].id, 0;
    gt_tl_str name = func_name(cv, addr);
    if (name == (gt_tl_str)-1)
        return oom(cv);
    cv->frames[j] = (frame_slot){.addr = addr, .parent = parent, .id = ++cv->nframes};
    *id = cv->nframes;
    gt_tl_event ev = {.kind = GT_TL_STACK_FRAME, .id = *id, .parent = parent, .name = name, .cat = cv->s_kernel};
    return emit(cv, &ev);
}

/* caller[] holds the innermost function first; frames are built from the root. */
static int kernel_stack(tc_conv *cv, const tc_event *e, const tc_rec *r, uint32_t *stack)
{
    const tc_field *fd = tc_event_field(e, "caller");
    *stack = 0;
    if (fd->offset > r->len || !fd->elem || fd->elem > 8)
        return 0;
    uint32_t avail = (r->len - fd->offset) / fd->elem, n = avail;
    int64_t size;
    if (int_field(e, "size", r, cv->f->be, &size) && size > 0 && size < avail)
        n = (uint32_t)size;
    const uint8_t *p = r->data + fd->offset;
    uint64_t end = fd->elem == 8 ? ~0ull : (1ull << (fd->elem * 8)) - 1;
    for (uint32_t i = 0; i < n; i++)
        if (tc_get_num(p + i * fd->elem, fd->elem, cv->f->be) == end) {
            n = i;
            break;
        }
    uint32_t parent = 0;
    for (uint32_t i = n; i-- > 0;) {
        if (frame_id(cv, tc_get_num(p + i * fd->elem, fd->elem, cv->f->be), parent, &parent) < 0)
            return -1;
        if (!parent)
            return 0; /* table full: no stack */
    }
    *stack = parent;
    return 0;
}

/* bprint's fmt points at a trace_printk format saved in the printk section: add
 * it as "format" (its values stay in buf, binary). 1 when added. */
static int bprint_format(tc_conv *cv, const tc_event *e, const tc_rec *r, gt_tl_arg *a)
{
    int64_t fmt;
    if (!cv->f->printk || !int_field(e, "fmt", r, cv->f->be, &fmt))
        return 0;
    if (!cv->printk.loaded && tc_printk_load(&cv->printk, cv->f->printk, cv->f->printk_len) < 0)
        return oom(cv);
    uint64_t addr = (uint64_t)fmt;
    const tc_field *fd = tc_event_field(e, "fmt");
    if (fd->size < 8)
        addr &= (1ull << (fd->size * 8)) - 1;
    const tc_ksym *s = tc_printk_find(&cv->printk, addr);
    if (!s)
        return 0;
    if (!cv->s_format && (cv->s_format = gt_tl_intern_cstr(cv->tl, "format")) == (gt_tl_str)-1)
        return oom(cv);
    *a = (gt_tl_arg){.name = cv->s_format, .kind = GT_TL_ARG_STRING,
                     .v.s = {cv->f->printk + s->name, s->len}};
    return 1;
}

/* ftrace:function: the function (ip) and its caller (parent_ip) by name, as
 * "func" and "parent" (trace-cmd report prints them so). Returns the count added. */
static int function_names(tc_conv *cv, const tc_event *e, const tc_rec *r, gt_tl_arg *a)
{
    static const char *const fields[2] = {"ip", "parent_ip"}, *const names[2] = {"func", "parent"};
    int n = 0;
    for (int i = 0; i < 2; i++) {
        int64_t addr;
        if (!cv->f->kallsyms || !int_field(e, fields[i], r, cv->f->be, &addr))
            continue;
        gt_tl_str fn = func_name(cv, (uint64_t)addr), an = gt_tl_intern_cstr(cv->tl, names[i]);
        if (fn == (gt_tl_str)-1 || an == (gt_tl_str)-1)
            return oom(cv);
        uint32_t len;
        const char *s = gt_tl_str_get(cv->tl, fn, &len);
        a[n++] = (gt_tl_arg){.name = an, .kind = GT_TL_ARG_STRING, .v.s = {s, len}};
    }
    return n;
}

static int instant(tc_conv *cv, const tc_event *e, const tc_rec *r, uint32_t cpu, int64_t ts, int64_t pid)
{
    uint32_t stack = 0, nargs;
    if (e->special == TC_EV_KSTACK && kernel_stack(cv, e, r, &stack) < 0)
        return -1;
    if (build_args(cv, e, r, cpu, e->special == TC_EV_KSTACK ? "caller" : NULL, &nargs) < 0)
        return -1;
    if (e->special == TC_EV_BPRINT && bprint_format(cv, e, r, &cv->args[nargs]) > 0)
        nargs++;
    if (e->special == TC_EV_FUNCTION) {
        int rc = function_names(cv, e, r, &cv->args[nargs]);
        if (rc < 0)
            return -1;
        nargs += (uint32_t)rc;
    }
    gt_tl_event ev = {.kind = GT_TL_INSTANT, .ts = ts, .pid = (uint64_t)pid, .tid = (uint64_t)pid,
                      .cat = e->cat, .name = e->ev_name, .stack = stack, .scope = GT_TL_SCOPE_THREAD,
                      .nargs = nargs, .args = cv->args};
    return emit(cv, &ev);
}

static gt_tl_str str_field(tc_conv *cv, const tc_event *e, const tc_rec *r, const char *name)
{
    const tc_field *fd = tc_event_field(e, name);
    const uint8_t *p;
    uint32_t n;
    if (!fd || !field_bytes(fd, r, cv->f->be, &p, &n))
        return 0;
    gt_tl_bytes s = c_string(p, n);
    return gt_tl_intern(cv->tl, s.p, s.len);
}

/* gltrace:* events (written by tc_writer.c) back to what they were. */
static int gl_event(tc_conv *cv, const tc_event *e, const tc_rec *r, int64_t ts, int64_t pid)
{
    static const gt_tl_kind kinds[] = {[TC_EV_GL_CALL] = GT_TL_COMPLETE, [TC_EV_GL_BEGIN] = GT_TL_BEGIN,
                                       [TC_EV_GL_END] = GT_TL_END, [TC_EV_GL_INSTANT] = GT_TL_INSTANT};
    gt_tl_event ev = {.kind = kinds[e->special], .ts = ts, .pid = (uint64_t)pid, .tid = (uint64_t)pid,
                      .name = str_field(cv, e, r, "name"), .cat = str_field(cv, e, r, "cat")};
    if (ev.name == (gt_tl_str)-1 || ev.cat == (gt_tl_str)-1)
        return oom(cv);
    int64_t call = 0, dur = 0;
    gt_tl_arg a[2];
    if (e->special == TC_EV_GL_CALL) {
        (void)int_field(e, "dur", r, cv->f->be, &dur);
        (void)int_field(e, "call", r, cv->f->be, &call);
        if (cv->s_call == 0 && (cv->s_call = gt_tl_intern_cstr(cv->tl, "call")) == (gt_tl_str)-1)
            return oom(cv);
        a[ev.nargs++] = (gt_tl_arg){.name = cv->s_call, .kind = GT_TL_ARG_U64, .v.u = (uint64_t)call};
        ev.dur = dur;
    }
    /* the other arguments, as the writer's "name=value ..." text */
    const tc_field *fd = tc_event_field(e, "args");
    const uint8_t *p;
    uint32_t n;
    if (fd && field_bytes(fd, r, cv->f->be, &p, &n) && c_string(p, n).len) {
        if (cv->s_args == 0 && (cv->s_args = gt_tl_intern_cstr(cv->tl, "args")) == (gt_tl_str)-1)
            return oom(cv);
        a[ev.nargs++] = (gt_tl_arg){.name = cv->s_args, .kind = GT_TL_ARG_STRING, .v.s = c_string(p, n)};
    }
    ev.args = a;
    return emit(cv, &ev);
}

int tc_conv_record(tc_conv *cv, uint32_t cpu, int64_t ts, const tc_rec *r, uint64_t file_off)
{
    if (r->len < 2)
        return tc_deviation(cv->f, file_off, "event record of %u bytes", r->len) < 0 ? -1 : 0;
    uint32_t type = (uint32_t)tc_get_num(r->data, 2, cv->f->be);
    const tc_event *e = tc_events_find(&cv->f->evs, type);
    if (!e) {
        if (cv->f->opts && cv->f->opts->strict)
            return tc_fail(cv->f, file_off, "event id %u has no format", type);
        if (!cv->unknown++)
            tc_warn(cv->f, file_off, "event id %u has no format: skipped (warned once)", type);
        return 0;
    }
    int64_t pid = 0;
    if (e->pid_field >= 0 && !int_field(e, "common_pid", r, cv->f->be, &pid))
        pid = 0;
    switch (e->special) {
    case TC_EV_SCHED_SWITCH:
        return sched_switch(cv, e, r, cpu, ts);
    case TC_EV_FGRAPH_ENTRY:
    case TC_EV_FGRAPH_EXIT:
        return funcgraph(cv, e, r, cpu, ts, pid);
    case TC_EV_GL_CALL:
    case TC_EV_GL_BEGIN:
    case TC_EV_GL_END:
    case TC_EV_GL_INSTANT:
        return gl_event(cv, e, r, ts, pid);
    default:
        return instant(cv, e, r, cpu, ts, pid);
    }
}
