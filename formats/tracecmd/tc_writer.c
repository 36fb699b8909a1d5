/* The trace-cmd writer's sink: each timeline event becomes a gltrace:* record
 * on the ring-buffer "CPU" of its thread; full pages go to a spool file, and
 * finish assembles the .dat (tc_writer_layout.c). Within a CPU, a delta that
 * does not fit 27 bits gets a time extend, and a timestamp before the previous
 * one an absolute time stamp, so every event keeps its exact time. */
#include "tc_writer.h"

#include <stdint.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#include "gt_grow.h"
#include "tc_writer_internal.h"

#define DELTA_MASK ((1u << 27) - 1)
#define MAX_STR 1024u /* bytes kept of a name or category */

struct gt_tracecmd_writer {
    char *path;
    FILE *out;
    bool is_stdout, finished;
    tcw_state s;
    size_t cap_cpu, cap_cmd;
    uint32_t spooled;      /* pages in the spool */
    size_t last_cpu;       /* lookup cache */
    gt_tl_str s_call;
    gt_strbuf args;        /* the current event's "args" text */
    bool clock_set;        /* the clock is chosen at the first timed event */
    int64_t clock_off;     /* added to the model's times */
    uint64_t *big;         /* ids beyond int32, by their synthetic pid (kernel_pid) */
    size_t nbig, cap_big;
};

/* A timeline on the recording machine's CLOCK_MONOTONIC (gltrace's live timeline, an
 * XRay log) is written on that clock, as `trace-cmd record -C mono` writes kernel
 * events, so trace-cmd and KernelShark line the two files up. The ring buffer's clock
 * is unsigned: times before 0 become 0. */
static uint64_t out_ts(gt_tracecmd_writer *w, const gt_timeline *tl, int64_t ts)
{
    if (!w->clock_set) {
        w->clock_set = true;
        w->s.mono = tl->has_mono;
        w->clock_off = tl->has_mono ? tl->mono_offset_ns : 0;
    }
    int64_t t = (int64_t)((uint64_t)ts + (uint64_t)w->clock_off);
    return t > 0 ? (uint64_t)t : 0;
}

static bool grow_big(gt_tracecmd_writer *w)
{
    return GT_GROW(w->big, w->cap_big, w->cap_big + 1, 16) == 0;
}

static int fail(gt_tracecmd_writer *w, gt_error *err, const char *what)
{
    gt_error_set(err, "%s: %s", w->path, what);
    return -1;
}

/* The pages wait in a temporary file (tmpfile(), in $TMPDIR) until finish. */
static int spool_fail(gt_tracecmd_writer *w, gt_error *err)
{
    gt_error_set(err, "%s: cannot write the temporary page file: %s", w->path, strerror(errno));
    return -1;
}

gt_tracecmd_writer *gt_tracecmd_writer_open(const char *path, gt_error *err)
{
    gt_tracecmd_writer *w = calloc(1, sizeof *w);
    if (!w || !(w->path = strdup(path))) {
        free(w);
        gt_error_set(err, "%s: out of memory", path);
        return NULL;
    }
    w->is_stdout = strcmp(path, "-") == 0;
    w->out = w->is_stdout ? stdout : fopen(path, "wb");
    w->s.spool = tmpfile();
    if (!w->out || !w->s.spool) {
        gt_error_set(err, "%s: cannot open %s: %s", path,
                     w->out ? "a temporary page file" : "for writing", strerror(errno));
        gt_tracecmd_writer_free(w);
        return NULL;
    }
    w->s_call = (gt_tl_str)-1;
    gt_strbuf_init(&w->args);
    return w;
}

void gt_tracecmd_writer_free(gt_tracecmd_writer *w)
{
    if (!w)
        return;
    if (w->out && !w->is_stdout)
        fclose(w->out);
    if (w->s.spool)
        fclose(w->s.spool);
    for (size_t i = 0; i < w->s.ncpu; i++) {
        free(w->s.cpus[i]->pages);
        free(w->s.cpus[i]);
    }
    free(w->s.cpus);
    for (size_t i = 0; i < w->s.ncmd; i++)
        free(w->s.cmd[i].comm);
    free(w->s.cmd);
    gt_strbuf_free(&w->args);
    free(w->big);
    free(w->path);
    free(w);
}

/* ---- threads: CPUs and cmdlines --------------------------------------------------- */

/* The pid a record carries: the thread's id, else the process's. Ids beyond
 * int32 (the model's GPU and CPU tracks, other 64-bit koids) get pids of their
 * own from 1 << 30 up, above any Linux pid, so a GPU track never takes its
 * process's main-thread name. */
static int32_t kernel_pid(gt_tracecmd_writer *w, uint64_t pid, uint64_t tid)
{
    uint64_t id = tid ? tid : pid;
    if (id <= INT32_MAX)
        return (int32_t)id;
    for (size_t i = 0; i < w->nbig; i++)
        if (w->big[i] == id)
            return (int32_t)((1u << 30) + i);
    if (w->nbig == 1u << 20 || (w->nbig == w->cap_big && !grow_big(w)))
        return INT32_MAX; /* shared by what does not fit */
    w->big[w->nbig] = id;
    return (int32_t)((1u << 30) + w->nbig++);
}

static tcw_cpu *new_cpu(gt_tracecmd_writer *w)
{
    tcw_state *s = &w->s;
    if (GT_GROW(s->cpus, w->cap_cpu, s->ncpu + 1, 8) != 0)
        return NULL;
    tcw_cpu *c = calloc(1, sizeof *c);
    if (c)
        s->cpus[w->last_cpu = s->ncpu++] = c;
    return c;
}

static bool is_track(const tcw_cpu *c, uint64_t pid, uint64_t tid)
{
    return !c->kernel && c->pid == pid && c->tid == tid;
}

/* The stream of a thread track; NULL when out of memory. */
static tcw_cpu *cpu_for(gt_tracecmd_writer *w, uint64_t pid, uint64_t tid)
{
    tcw_state *s = &w->s;
    if (w->last_cpu < s->ncpu && is_track(s->cpus[w->last_cpu], pid, tid))
        return s->cpus[w->last_cpu];
    for (size_t i = 0; i < s->ncpu; i++)
        if (is_track(s->cpus[i], pid, tid))
            return s->cpus[w->last_cpu = i];
    if (s->ncpu >= TCW_MAX_CPUS) { /* more threads than CPUs: share the last track's */
        for (size_t i = s->ncpu; i-- > 0;)
            if (!s->cpus[i]->kernel)
                return s->cpus[w->last_cpu = i];
    }
    tcw_cpu *c = new_cpu(w);
    if (c) {
        c->pid = pid;
        c->tid = tid;
    }
    return c;
}

/* The stream of a real CPU's context switches. */
static tcw_cpu *kernel_cpu(gt_tracecmd_writer *w, uint32_t cpu)
{
    tcw_state *s = &w->s;
    for (size_t i = 0; i < s->ncpu; i++)
        if (s->cpus[i]->kernel && s->cpus[i]->id == cpu)
            return s->cpus[i];
    tcw_cpu *c = new_cpu(w);
    if (c) {
        c->kernel = true;
        c->id = cpu;
    }
    return c;
}

/* Real CPUs keep their numbers; thread tracks follow them, in order of appearance. */
static void number_cpus(tcw_state *s)
{
    uint32_t next = 0;
    for (size_t i = 0; i < s->ncpu; i++)
        if (s->cpus[i]->kernel && s->cpus[i]->id >= next)
            next = s->cpus[i]->id + 1;
    for (size_t i = 0; i < s->ncpu; i++)
        if (!s->cpus[i]->kernel)
            s->cpus[i]->id = next++;
    s->ncpu_ids = next;
}

/* A task's comm into dst[16]: the event's argument arg (prev_comm, next_comm) when
 * it has one, else the name the cmdlines have so far, else "". */
static void comm_of(const gt_tracecmd_writer *w, const gt_timeline *tl, const gt_tl_event *ev,
                    const char *arg, int32_t pid, uint8_t *dst)
{
    const gt_tl_arg *a = gt_tl_arg_find(tl, ev, arg);
    if (a && a->kind == GT_TL_ARG_STRING) {
        memcpy(dst, a->v.s.p, a->v.s.len < 15 ? a->v.s.len : 15);
        return;
    }
    for (size_t i = 0; i < w->s.ncmd; i++)
        if (w->s.cmd[i].pid == pid) {
            strncpy((char *)dst, w->s.cmd[i].comm, 15);
            return;
        }
}

static int set_cmdline(gt_tracecmd_writer *w, int32_t pid, const char *name, uint32_t len, bool weak)
{
    tcw_state *s = &w->s;
    size_t i = 0;
    while (i < s->ncmd && s->cmd[i].pid != pid)
        i++;
    if (i < s->ncmd && weak)
        return 0; /* a process name does not replace its main thread's name */
    char *comm = malloc(len + 1);
    if (!comm)
        return -1;
    for (uint32_t k = 0; k < len; k++) /* one line per entry: no newlines */
        comm[k] = name[k] == '\n' || name[k] == '\r' ? ' ' : name[k];
    comm[len] = 0;
    if (i == s->ncmd) {
        if (GT_GROW(s->cmd, w->cap_cmd, s->ncmd + 1, 16) != 0) {
            free(comm);
            return -1;
        }
        s->cmd[s->ncmd++] = (tcw_cmdline){.pid = pid};
    }
    free(s->cmd[i].comm);
    s->cmd[i].comm = comm;
    return 0;
}

/* ---- pages -------------------------------------------------------------------------- */

static int flush_page(gt_tracecmd_writer *w, tcw_cpu *c)
{
    if (!c->open)
        return 0;
    for (unsigned i = 0; i < 8; i++)
        c->page[8 + i] = (uint8_t)((uint64_t)c->used >> (8 * i));
    memset(c->page + TCW_HDR + c->used, 0, TCW_PAGE - TCW_HDR - c->used);
    if (GT_GROW(c->pages, c->cap, c->npages + 1, 64) != 0)
        return -1;
    if (fseeko(w->s.spool, (off_t)w->spooled * TCW_PAGE, SEEK_SET) != 0 ||
        fwrite(c->page, 1, TCW_PAGE, w->s.spool) != TCW_PAGE)
        return -1;
    c->pages[c->npages++] = w->spooled++;
    c->open = false;
    return 0;
}

static void put32(tcw_cpu *c, uint32_t v)
{
    for (unsigned i = 0; i < 4; i++)
        c->page[TCW_HDR + c->used + i] = (uint8_t)(v >> (8 * i));
    c->used += 4;
}

/* Appends one record of len bytes (a multiple of 4) at ts. */
static int add_record(gt_tracecmd_writer *w, tcw_cpu *c, uint64_t ts, const uint8_t *data, uint32_t len)
{
    uint32_t hdr = len <= 28 * 4 ? 4 : 8;
    bool back = c->open && ts < c->last_ts;
    uint64_t delta = c->open && !back ? ts - c->last_ts : 0;
    bool big = delta > DELTA_MASK;
    uint32_t extra = back || big ? 8 : 0;
    if (c->open && TCW_HDR + c->used + extra + hdr + len > TCW_PAGE) {
        if (flush_page(w, c) < 0)
            return -1;
    }
    if (!c->open) {
        for (unsigned i = 0; i < 8; i++)
            c->page[i] = (uint8_t)(ts >> (8 * i));
        c->used = 0;
        c->open = true;
        back = big = false;
        delta = 0;
    }
    if (back) { /* absolute: ts bits 0..26 in the delta, 27..58 in the word */
        put32(c, 31u | (uint32_t)(ts & DELTA_MASK) << 5);
        put32(c, (uint32_t)(ts >> 27));
        delta = 0;
    } else if (big) {
        put32(c, 30u | (uint32_t)(delta & DELTA_MASK) << 5);
        put32(c, (uint32_t)(delta >> 27));
        delta = 0;
    }
    if (hdr == 4) {
        put32(c, len / 4 | (uint32_t)delta << 5);
    } else {
        put32(c, (uint32_t)delta << 5);
        put32(c, len + 4);
    }
    if (len) /* data may be NULL when empty */
        memcpy(c->page + TCW_HDR + c->used, data, len);
    c->used += len;
    c->last_ts = ts;
    return 0;
}

/* ---- events ---------------------------------------------------------------------------- */

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* A __data_loc string: its (offset, length) word at loc, its bytes and NUL at *at. */
static void put_loc(uint8_t *rec, uint32_t loc, uint32_t *at, const char *s, uint32_t n)
{
    put_le(rec + loc, *at | (n + 1) << 16, 4);
    if (n) /* s may be NULL when empty */
        memcpy(rec + *at, s, n);
    rec[*at + n] = 0;
    *at += n + 1;
}

/* common header + fixed fields, then name, cat and args as __data_loc strings. */
static uint32_t encode(uint8_t *rec, uint16_t type, int32_t pid, uint32_t fixed, const gt_timeline *tl,
                       const gt_tl_event *ev, const gt_strbuf *args)
{
    uint32_t nlen, clen;
    const char *name = gt_tl_str_get(tl, ev->name, &nlen), *cat = gt_tl_str_get(tl, ev->cat, &clen);
    put_le(rec, type, 2);
    rec[2] = rec[3] = 0;
    put_le(rec + 4, (uint32_t)pid, 4);
    uint32_t at = fixed + 12;
    put_loc(rec, fixed, &at, name, nlen < MAX_STR ? nlen : MAX_STR);
    put_loc(rec, fixed + 4, &at, cat, clen < MAX_STR ? clen : MAX_STR);
    put_loc(rec, fixed + 8, &at, args->len ? args->data : "", (uint32_t)args->len);
    while (at % 4)
        rec[at++] = 0;
    return at;
}

static uint64_t call_number(gt_tracecmd_writer *w, const gt_timeline *tl, const gt_tl_event *ev)
{
    for (uint32_t i = 0; i < ev->nargs; i++) {
        const gt_tl_arg *a = &ev->args[i];
        if (w->s_call == (gt_tl_str)-1) {
            uint32_t n;
            const char *s = gt_tl_str_get(tl, a->name, &n);
            if (n != 4 || memcmp(s, "call", 4) != 0)
                continue;
            w->s_call = a->name;
        } else if (a->name != w->s_call) {
            continue;
        }
        if (a->kind == GT_TL_ARG_U32 || a->kind == GT_TL_ARG_U64)
            return a->v.u;
        if (a->kind == GT_TL_ARG_I32 || a->kind == GT_TL_ARG_I64)
            return (uint64_t)a->v.i;
    }
    return 0;
}

static bool is_name(const gt_timeline *tl, gt_tl_str id, const char *want)
{
    uint32_t n;
    const char *s = gt_tl_str_get(tl, id, &n);
    return n == strlen(want) && memcmp(s, want, n) == 0;
}

/* The arguments but "call" as "name=value ..." text, cut at MAX_STR bytes. */
static void args_text(gt_tracecmd_writer *w, const gt_timeline *tl, const gt_tl_event *ev)
{
    gt_strbuf *b = &w->args;
    b->len = 0;
    for (uint32_t i = 0; i < ev->nargs; i++) {
        const gt_tl_arg *a = &ev->args[i];
        if (ev->kind == GT_TL_COMPLETE && is_name(tl, a->name, "call"))
            continue;
        uint32_t n;
        const char *name = gt_tl_str_get(tl, a->name, &n);
        if (b->len)
            gt_strbuf_putc(b, ' ');
        gt_strbuf_put(b, name, n);
        gt_strbuf_putc(b, '=');
        switch (a->kind) {
        case GT_TL_ARG_I32: case GT_TL_ARG_I64: gt_strbuf_i64(b, a->v.i); break;
        case GT_TL_ARG_U32: case GT_TL_ARG_U64: case GT_TL_ARG_KOID: gt_strbuf_u64(b, a->v.u); break;
        case GT_TL_ARG_POINTER: gt_strbuf_puts(b, "0x"); gt_strbuf_hex(b, a->v.u); break;
        case GT_TL_ARG_DOUBLE: gt_strbuf_printf(b, "%.17g", a->v.d); break;
        case GT_TL_ARG_BOOL: gt_strbuf_puts(b, a->v.b ? "true" : "false"); break;
        case GT_TL_ARG_STRING: case GT_TL_ARG_JSON: /* one line: control bytes become spaces */
            for (uint32_t k = 0; k < a->v.s.len && b->len < MAX_STR; k++)
                gt_strbuf_putc(b, (unsigned char)a->v.s.p[k] < 0x20 ? ' ' : a->v.s.p[k]);
            break;
        default: gt_strbuf_puts(b, "null"); break;
        }
        if (b->len >= MAX_STR)
            break;
    }
    if (b->len > MAX_STR)
        b->len = MAX_STR;
}

static int record(gt_tracecmd_writer *w, const gt_timeline *tl, const gt_tl_event *ev, gt_error *err)
{
    static const uint16_t types[] = {[GT_TL_COMPLETE] = TCW_EV_CALL, [GT_TL_BEGIN] = TCW_EV_BEGIN,
                                     [GT_TL_END] = TCW_EV_END, [GT_TL_INSTANT] = TCW_EV_INSTANT};
    uint8_t rec[36 + 3 * (MAX_STR + 1) + 4]; /* fixed fields, three strings, padding */
    int32_t pid = kernel_pid(w, ev->pid, ev->tid);
    uint32_t len;
    args_text(w, tl, ev);
    if (w->args.oom)
        return fail(w, err, "out of memory");
    if (ev->kind == GT_TL_COMPLETE) {
        put_le(rec + 8, call_number(w, tl, ev), 8);
        put_le(rec + 16, ev->dur > 0 ? (uint64_t)ev->dur : 0, 8);
        len = encode(rec, types[ev->kind], pid, 24, tl, ev, &w->args);
    } else {
        len = encode(rec, types[ev->kind], pid, 8, tl, ev, &w->args);
    }
    tcw_cpu *c = cpu_for(w, ev->pid, ev->tid);
    if (!c)
        return fail(w, err, "out of memory");
    uint64_t ts = out_ts(w, tl, ev->ts);
    if (add_record(w, c, ts, rec, len) < 0)
        return spool_fail(w, err);
    return 0;
}

/* sched:sched_switch, as Linux lays it out (common fields, prev_comm[16],
 * prev_pid, prev_prio, long prev_state, next_comm[16], next_pid, next_prio). */
static int context_switch(gt_tracecmd_writer *w, const gt_timeline *tl, const gt_tl_event *ev, gt_error *err)
{
    const gt_tl_cswitch *cs = &ev->cs;
    if (cs->cpu >= TCW_MAX_CPUS)
        return fail(w, err, "context switch on a CPU beyond 1023");
    uint8_t rec[64] = {0};
    int32_t prev = kernel_pid(w, cs->out_pid, cs->out_tid), next = kernel_pid(w, cs->in_pid, cs->in_tid);
    put_le(rec, TCW_EV_SCHED_SWITCH, 2);
    put_le(rec + 4, (uint32_t)prev, 4);
    comm_of(w, tl, ev, "prev_comm", prev, rec + 8);
    put_le(rec + 24, (uint32_t)prev, 4);
    put_le(rec + 28, (uint32_t)cs->out_prio, 4);
    put_le(rec + 32, cs->out_state, 8);
    comm_of(w, tl, ev, "next_comm", next, rec + 40);
    put_le(rec + 56, (uint32_t)next, 4);
    put_le(rec + 60, (uint32_t)cs->in_prio, 4);
    tcw_cpu *c = kernel_cpu(w, cs->cpu);
    if (!c)
        return fail(w, err, "out of memory");
    if (add_record(w, c, out_ts(w, tl, ev->ts), rec, sizeof rec) < 0)
        return spool_fail(w, err);
    return 0;
}

static int writer_event(void *self, const gt_timeline *tl, const gt_tl_event *ev, gt_error *err)
{
    gt_tracecmd_writer *w = self;
    if (w->finished)
        return fail(w, err, "event after finish");
    uint32_t n;
    const char *name;
    switch (ev->kind) {
    case GT_TL_COMPLETE:
    case GT_TL_BEGIN:
    case GT_TL_END:
    case GT_TL_INSTANT:
        return record(w, tl, ev, err);
    case GT_TL_CONTEXT_SWITCH:
        return context_switch(w, tl, ev, err);
    case GT_TL_THREAD_NAME:
    case GT_TL_PROCESS_NAME:
        name = gt_tl_str_get(tl, ev->name, &n);
        if (set_cmdline(w, kernel_pid(w, ev->pid, ev->kind == GT_TL_THREAD_NAME ? ev->tid : 0), name,
                        n < MAX_STR ? n : MAX_STR, ev->kind == GT_TL_PROCESS_NAME) < 0)
            return fail(w, err, "out of memory");
        return 0;
    default:
        return 0; /* no trace-cmd form (see tc_writer.h) */
    }
}

static int writer_finish(void *self, const gt_timeline *tl, gt_error *err)
{
    gt_tracecmd_writer *w = self;
    (void)tl;
    if (w->finished)
        return 0;
    w->finished = true;
    for (size_t i = 0; i < w->s.ncpu; i++)
        if (flush_page(w, w->s.cpus[i]) < 0)
            return spool_fail(w, err);
    number_cpus(&w->s);
    return tcw_write_file(&w->s, w->out, w->path, err);
}

gt_tl_sink gt_tracecmd_writer_sink(gt_tracecmd_writer *w)
{
    return (gt_tl_sink){.self = w, .event = writer_event, .finish = writer_finish};
}
