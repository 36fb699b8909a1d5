/* The metrics' shared state (metrics.h): metrics.c measures, metrics_select.c reads the
 * selection and writes the output. */
#ifndef RETRACE_METRICS_INTERNAL_H
#define RETRACE_METRICS_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "gt_callstate.h"
#include "metrics.h"
#include "metrics_ext.h"
#include "metrics_opengl.h"

#define BIT(m) (1u << (m))

/* How apitrace's replayer profiles a function. */
enum {
    K_UNKNOWN = 0,
    K_NONE,    /* not profiled: not GL, no side effects, GREMEDY markers */
    K_CALL,
    K_DRAW,
    K_BEGIN,   /* glBegin: a draw lasting until glEnd */
    K_END,
    K_NEWLIST,
    K_ENDLIST,
    K_PROGRAM, /* glUseProgram(ObjectARB): the program column */
    /* K_BEGIN and after move the call state (gt_callstate.h) */
};

typedef struct mrec {
    const char *name; /* NULL: frame_end (call lists) */
    uint32_t no, program;
    bool draw, committed;
    int64_t v[MO_COUNT];
} mrec;

typedef struct mlist {
    mrec *r;
    size_t n, cap;
    size_t cursor; /* passes after the first walk the records the first made */
} mlist;

typedef struct pending {
    bool frame; /* frames' list, else calls' */
    size_t idx;
    mo_span span;
} pending;

typedef struct ctx_state {
    void *key;
    gt_callstate cs; /* stepped at each profiled call's end */
} ctx_state;

typedef struct spec {
    metrics_boundary b;
    char *text;
} spec;

struct metrics {
    spec *specs;
    size_t nspecs, capspecs;
    bool list, gen_passes, done;
    bool setup;    /* the selection was resolved against the first context */
    bool acquired; /* this pass has begun (a context was current) */
    mo_caps caps;
    bool enabled[MO_COUNT][METRICS_BOUNDARIES];
    bool profiled[MO_COUNT][METRICS_BOUNDARIES];
    bool on[METRICS_BOUNDARIES]; /* boundaries with a metric enabled */
    bool two_passes, sync, queries_needed;
    unsigned pass, passes;
    int64_t base;
    mlist frames, calls;
    /* the frame measured now */
    bool frame_open;
    mo_span frame_span;
    size_t frame_idx;
    bool frame_has_rec;
    /* the call measured now (glBegin: until glEnd) */
    bool call_open, begin_open;
    mo_span call_span;
    size_t call_idx;
    bool call_has_rec;
    pending *pend;
    size_t npend, cappend;
    unsigned char *kinds; /* by signature id */
    char **names;         /* ... their names, kept past the replay that read them */
    size_t nkinds;
    ctx_state *ctxs;
    size_t nctx, capctx;
    /* the backends in apitrace's order (first named in --pcalls, --pframes, then
     * --pdrawcalls): MB_OPENGL or an ext[] index + 1; each takes its passes in turn */
    int order[3];
    size_t norder;
    mx_ext *ext[2]; /* GL_AMD_performance_monitor, GL_INTEL_performance_query */
    const mx_gl *gl; /* their GL: libepoxy's (a fake in tests/unit/test_metrics_ext.c) */
    unsigned gl_passes; /* the opengl backend's (1 or 2) */
    int cur;            /* the backend of this pass: MB_NONE, MB_OPENGL, or 1 + ext index */
    unsigned local;     /* the pass's number among its backend's */
    size_t ndraws;      /* draw calls seen in this pass (the ext backends' events) */
};

enum { MB_NONE = -1, MB_OPENGL = 0 };

/* The current pass's ext backend, or NULL. */
static inline mx_ext *metrics_cur_ext(const metrics *mx)
{
    return mx->cur > 0 ? mx->ext[mx->cur - 1] : NULL;
}

/* metrics_select.c: the selection against the first context (warnings, passes), and
 * --list-metrics; the blocks of the output. */
void metrics_select(metrics *mx);
void metrics_list(metrics *mx);

#endif
