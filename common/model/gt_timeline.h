/* The timeline model (../shared/DESIGN.md): tracks, slices, instants, counters, flows,
 * context switches and stack frames, with interned strings.
 *
 * It streams. A producer (a format reader, glretrace's timer, the recorder)
 * calls a sink once per event; a consumer (a format writer, a merge filter, the
 * in-memory buffer below) implements the sink. Nothing is kept per event, so a
 * long trace converts in bounded memory; only strings, tracks and stack frames
 * are remembered, through the gt_timeline context every stage shares.
 *
 * Time is int64 nanoseconds on the producer's clock. Readers convert ticks,
 * microseconds or TSC cycles to nanoseconds; merges shift clocks by an offset.
 *
 * Tracks are addressed as FXT does: a process koid (pid) and a thread koid
 * (tid). tid 0 means the process itself (process-scoped counters, instants).
 * The GPU queue of a process is a thread with the tid GT_TL_GPU_TID and the
 * name "GPU"; a CPU (context switches, per-CPU kernel events) is pid
 * GT_TL_CPU_PID with tid = the CPU number. */
#ifndef GT_TIMELINE_H
#define GT_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gt_arena.h"
#include "gt_error.h"

/* "gpu"/"cpu" in the top bytes: never a real pid or tid */
#define GT_TL_GPU_TID(pid) (0x6770750000000000ull | ((uint64_t)(pid) & 0xffffffffffull))
#define GT_TL_CPU_PID 0x6370750000000000ull

/* ---- interned strings ------------------------------------------------------
 * An id names one distinct string for the life of the gt_timeline; 0 is the
 * empty string. Names, categories and argument names are interned; string
 * argument values are not (they are often unique), they travel inline. */
typedef uint32_t gt_tl_str;

typedef struct gt_tl_strings gt_tl_strings;

/* ---- arguments -------------------------------------------------------------- */
typedef enum gt_tl_arg_kind {
    GT_TL_ARG_NULL = 0,
    GT_TL_ARG_I32,
    GT_TL_ARG_U32,
    GT_TL_ARG_I64,
    GT_TL_ARG_U64,
    GT_TL_ARG_DOUBLE,
    GT_TL_ARG_STRING,  /* v.s: bytes, not necessarily NUL-terminated */
    GT_TL_ARG_POINTER,
    GT_TL_ARG_KOID,
    GT_TL_ARG_BOOL,
    GT_TL_ARG_JSON,    /* v.s: a JSON value kept verbatim (Chrome's nested args) */
} gt_tl_arg_kind;

typedef struct gt_tl_bytes {
    const char *p;
    uint32_t len;
} gt_tl_bytes;

typedef struct gt_tl_arg {
    gt_tl_str name;
    gt_tl_arg_kind kind;
    union {
        int64_t i;    /* I32, I64 */
        uint64_t u;   /* U32, U64, POINTER, KOID */
        double d;
        bool b;
        gt_tl_bytes s; /* STRING, JSON: valid only during the sink call */
    } v;
} gt_tl_arg;

/* ---- events ------------------------------------------------------------------ */
typedef enum gt_tl_kind {
    /* metadata */
    GT_TL_PROCESS_NAME = 1, /* pid, name */
    GT_TL_THREAD_NAME,      /* pid, tid, name */
    GT_TL_STACK_FRAME,      /* id = frame id (>0), parent = parent frame id or 0,
                             * name = function/location, cat = module */
    /* slices */
    GT_TL_COMPLETE,         /* ts, dur */
    GT_TL_BEGIN,
    GT_TL_END,              /* name may be 0: ends the innermost slice */
    /* points */
    GT_TL_INSTANT,          /* scope */
    GT_TL_COUNTER,          /* id (0: none); each numeric arg is one series */
    GT_TL_ASYNC_BEGIN,      /* id */
    GT_TL_ASYNC_INSTANT,
    GT_TL_ASYNC_END,
    GT_TL_FLOW_BEGIN,       /* id; binds to the enclosing slice on its track */
    GT_TL_FLOW_STEP,
    GT_TL_FLOW_END,
    GT_TL_OBJECT,           /* Chrome object events: phase 'N', 'O' or 'D' in scope, id */
    GT_TL_SAMPLE,           /* Chrome 'P': a stack sample (stack) */
    GT_TL_CONTEXT_SWITCH,   /* ts, cs.*; pid/tid unused */
    GT_TL_KIND_COUNT
} gt_tl_kind;

enum gt_tl_scope { GT_TL_SCOPE_THREAD = 0, GT_TL_SCOPE_PROCESS = 1, GT_TL_SCOPE_GLOBAL = 2 };
/* FLOW_END's scope: 0 binds to the enclosing slice; NEXT to the next slice to
 * begin on the track (Chrome's 'f' without "bp":"e"). */
enum { GT_TL_FLOW_BIND_NEXT = 1 };

typedef struct gt_tl_cswitch {
    uint32_t cpu;
    uint32_t out_state;          /* FXT thread state (0 new .. 5 dead), or a raw kernel state */
    uint64_t out_pid, out_tid;
    uint64_t in_pid, in_tid;
    int32_t out_prio, in_prio;
} gt_tl_cswitch;

typedef struct gt_tl_event {
    gt_tl_kind kind;
    int64_t ts;           /* ns */
    int64_t dur;          /* ns, GT_TL_COMPLETE only */
    uint64_t pid, tid;
    gt_tl_str cat, name;
    uint64_t id;          /* async/flow/counter/object id; frame id for STACK_FRAME */
    uint64_t parent;      /* STACK_FRAME: parent frame id */
    uint32_t stack;       /* frame id of the event's backtrace, 0 = none */
    uint8_t scope;        /* INSTANT: enum gt_tl_scope; OBJECT: 'N', 'O', 'D'; FLOW_END: binding */
    uint32_t nargs;
    const gt_tl_arg *args;
    gt_tl_cswitch cs;     /* CONTEXT_SWITCH */
} gt_tl_event;

/* ---- the shared context --------------------------------------------------------- */
typedef struct gt_timeline {
    gt_tl_strings *strings;
    /* Wall-clock anchor of the producer's clock, when the input carries one:
     * ts + wall_offset_ns = ns since the Unix epoch. Merges align on it. */
    bool has_wall;
    int64_t wall_offset_ns;
    /* The same for the recording machine's CLOCK_MONOTONIC: ts + mono_offset_ns =
     * its CLOCK_MONOTONIC ns. gltrace's live timeline runs on that clock, and
     * LLVM's XRay runtime stamps its buffers with it, so the two meet exactly. */
    bool has_mono;
    int64_t mono_offset_ns;
} gt_timeline;

int gt_timeline_init(gt_timeline *tl);
void gt_timeline_free(gt_timeline *tl);

/* Interns n bytes; returns the id, or (gt_tl_str)-1 when out of memory.
 * The empty string is always 0. */
gt_tl_str gt_tl_intern(gt_timeline *tl, const char *s, size_t n);
gt_tl_str gt_tl_intern_cstr(gt_timeline *tl, const char *s);
/* The string of an id (NUL-terminated), and its length. Unknown ids give "". */
const char *gt_tl_str_get(const gt_timeline *tl, gt_tl_str id, uint32_t *len);
uint32_t gt_tl_str_count(const gt_timeline *tl);

/* ---- sinks -------------------------------------------------------------------- */
typedef struct gt_tl_sink {
    void *self;
    /* 0 on success; on failure fills err and returns -1, and the producer stops. */
    int (*event)(void *self, const gt_timeline *tl, const gt_tl_event *ev, gt_error *err);
    /* Completes the output (flush, close brackets). May be NULL. */
    int (*finish)(void *self, const gt_timeline *tl, gt_error *err);
} gt_tl_sink;

static inline int gt_tl_emit(gt_tl_sink *s, const gt_timeline *tl, const gt_tl_event *ev, gt_error *err)
{
    return s->event(s->self, tl, ev, err);
}
static inline int gt_tl_finish(gt_tl_sink *s, const gt_timeline *tl, gt_error *err)
{
    return s->finish ? s->finish(s->self, tl, err) : 0;
}

const char *gt_tl_kind_name(gt_tl_kind k);

/* ---- an in-memory timeline: a sink that keeps every event ------------------------
 * For tests, round trips and small inputs; argument strings are copied. */
typedef struct gt_tl_buffer {
    gt_tl_event *events;
    size_t count, cap;
    gt_arena arena; /* args and string bytes */
} gt_tl_buffer;

void gt_tl_buffer_init(gt_tl_buffer *b);
void gt_tl_buffer_free(gt_tl_buffer *b);
gt_tl_sink gt_tl_buffer_sink(gt_tl_buffer *b);
/* Sends every kept event to another sink (without finishing it). */
int gt_tl_buffer_replay(const gt_tl_buffer *b, const gt_timeline *tl, gt_tl_sink *to, gt_error *err);

/* Counts of events per kind: what the conversion tests compare. */
typedef struct gt_tl_counts {
    uint64_t n[GT_TL_KIND_COUNT];
} gt_tl_counts;
gt_tl_sink gt_tl_counts_sink(gt_tl_counts *c);

/* ---- filters ----------------------------------------------------------------------
 * A tee sends each event to two sinks; a shift adds an offset to every timestamp,
 * to put an input on another input's clock (the wall-clock anchor the next sink
 * sees moves the other way, so every event keeps its wall time). */
typedef struct gt_tl_tee {
    gt_tl_sink *a, *b;
} gt_tl_tee;
gt_tl_sink gt_tl_tee_sink(gt_tl_tee *t);

typedef struct gt_tl_shift {
    gt_tl_sink *to;
    int64_t ts_offset;
} gt_tl_shift;
gt_tl_sink gt_tl_shift_sink(gt_tl_shift *s);

/* ---- readers and writers ----------------------------------------------------------
 * Every format reader has the same shape:
 *   int gt_<fmt>_read(const char *path, gt_timeline *tl, gt_tl_sink *sink,
 *                     const gt_tl_read_opts *opts, gt_error *err);
 *   int gt_<fmt>_read_mem(const uint8_t *data, size_t size, const char *name, ...same...);
 * returning 0, or -1 with "FILE: offset N: what" in err. Every writer:
 *   gt_<fmt>_writer *gt_<fmt>_writer_open(const char *path, gt_error *err); ("-" = stdout)
 *   gt_tl_sink gt_<fmt>_writer_sink(gt_<fmt>_writer *w);   (finish = complete the file)
 *   void gt_<fmt>_writer_free(gt_<fmt>_writer *w);          (closes; after finish or not) */
typedef struct gt_tl_read_opts {
    /* Refuse what real files get away with (nonzero padding, reserved bits,
     * unclosed slices): used to check files we wrote. */
    bool strict;
    /* Forgiven deviations are reported here, one message each; NULL: silent. */
    void (*warn)(void *ctx, const char *msg);
    void *warn_ctx;
    /* XRay: the instrumented binary whose xray_instr_map names function ids. */
    const char *instr_map;
} gt_tl_read_opts;

/* Finds an argument by name; NULL if absent. */
const gt_tl_arg *gt_tl_arg_find(const gt_timeline *tl, const gt_tl_event *ev, const char *name);

#endif
