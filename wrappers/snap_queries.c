/* The state snapshot's queries, sync objects and transform feedback objects
 * (snapshot.h).
 *
 * Queries: every name the program generated is generated again (glGenQueries), so the
 * range's calls find it; a query active at the range's start is begun again, so that
 * the range's glEndQuery finds it active, but its count so far is lost: said
 * unreadable. Results of earlier queries are not re-created (the replayers skip query
 * results by default).
 * Syncs (followed by track_programs.c): each one still alive is fenced again, the
 * trace saying the program's handle (glFenceSync answers it).
 * Transform feedback objects of the snapshot's context: bound in the driver to read
 * their buffer bindings (put back), written as glGenTransformFeedbacks,
 * glBindTransformFeedback and glBindBufferRange/Base. One active or paused at the
 * range's start cannot be resumed: said unreadable. */
#include <stdlib.h>

#include "capture_track.h"
#include "gl_enums.gen.h"
#include "protos.gen.h"
#include "snapshot_parts.h"
#include "track_containers.h"
#include "track_programs.h"

enum { MAX_XFB_BUFFERS = 8 };

typedef struct xfb {
    unsigned name;
    int buffer[MAX_XFB_BUFFERS];
    int64_t start[MAX_XFB_BUFFERS], size[MAX_XFB_BUFFERS];
} xfb;

enum { MAX_ACTIVE = 6 };

typedef struct queries {
    uint32_t *names;
    size_t nnames;
    unsigned active_target[MAX_ACTIVE], active_name[MAX_ACTIVE];
    int nactive;
    void **syncs;
    size_t nsyncs;
    xfb *x;
    size_t nx;
    int nxbuffers;
} queries;



/* Which queries are active now (GL 3.3 / GLES 3 targets the context has). */
static void collect_active(snap *s, queries *d)
{
    static const struct {
        unsigned target;
        int gl, es;
    } targets[] = {
        {GL_SAMPLES_PASSED, 15, 0},
        {GL_ANY_SAMPLES_PASSED, 33, 30},
        {GL_ANY_SAMPLES_PASSED_CONSERVATIVE, 43, 30},
        {GL_PRIMITIVES_GENERATED, 30, 32},
        {GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, 30, 30},
        {GL_TIME_ELAPSED, 33, 0},
    };
    for (size_t i = 0; i < sizeof targets / sizeof *targets; ++i) {
        int need = snap_api(s) == SNAP_API_GL ? targets[i].gl : targets[i].es;
        if (!need || snap_version(s) < need)
            continue;
        int q = 0;
        SNAP_REAL(glGetQueryiv)(targets[i].target, GL_CURRENT_QUERY, &q);
        if (!q || d->nactive == MAX_ACTIVE)
            continue;
        snap_unreadable(s, "query %d: active at the range's start: begun again there, its "
                        "result counts only the range's calls", q);
        d->active_target[d->nactive] = targets[i].target;
        d->active_name[d->nactive++] = (unsigned)q;
    }
}

static void read_xfb(queries *d, xfb *x)
{
    for (int i = 0; i < d->nxbuffers; ++i) {
        unsigned u = (unsigned)i;
        SNAP_REAL(glGetIntegeri_v)(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, u, &x->buffer[i]);
        SNAP_REAL(glGetInteger64i_v)(GL_TRANSFORM_FEEDBACK_BUFFER_START, u, &x->start[i]);
        SNAP_REAL(glGetInteger64i_v)(GL_TRANSFORM_FEEDBACK_BUFFER_SIZE, u, &x->size[i]);
    }
}

static void collect_xfb(snap *s, queries *d)
{
    uint32_t *names = NULL;
    size_t n = gltrace_tracked_names(gltrace_track_class("transform feedback"), &names);
    if (!n || !snap_has(s, 40, 30, NULL)) {
        free(names);
        return;
    }
    if (snap_geti(GL_TRANSFORM_FEEDBACK_ACTIVE)) { /* no other can be bound meanwhile */
        snap_unreadable(s, "transform feedback: active at the range's start, its objects "
                        "not re-created");
        free(names);
        return;
    }
    d->nxbuffers = snap_geti(snap_api(s) == SNAP_API_GL ? GL_MAX_TRANSFORM_FEEDBACK_BUFFERS
                                                   : GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS);
    if (d->nxbuffers > MAX_XFB_BUFFERS)
        d->nxbuffers = MAX_XFB_BUFFERS;
    d->x = calloc(n, sizeof *d->x);
    int saved = snap_geti(GL_TRANSFORM_FEEDBACK_BINDING);
    for (size_t i = 0; i < n && d->x; ++i) {
        int here = 0, elsewhere = 0;
        gtt_ctr_where(GTT_CTR_XFB, names[i], &here, &elsewhere);
        if (elsewhere)
            snap_unreadable(s, "transform feedback %u of another context: not re-created",
                            names[i]);
        if (elsewhere && !here)
            continue;
        if (!SNAP_REAL(glIsTransformFeedback)(names[i])) {
            snap_unreadable(s, "transform feedback %u: another context's (or never bound): "
                            "not re-created", names[i]);
            continue;
        }
        SNAP_REAL(glBindTransformFeedback)(GL_TRANSFORM_FEEDBACK, names[i]);
        d->x[d->nx].name = names[i];
        read_xfb(d, &d->x[d->nx++]);
    }
    SNAP_REAL(glBindTransformFeedback)(GL_TRANSFORM_FEEDBACK, (unsigned)saved);
    free(names);
}

static void *collect(snap *s)
{
    queries *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    if (snap_has(s, 15, 30, NULL)) {
        d->nnames = gltrace_tracked_names(gltrace_track_class("query"), &d->names);
        collect_active(s, d);
    }
    if (snap_has(s, 32, 30, NULL)) {
        void **syncs = NULL;
        size_t n = gtt_syncs(&syncs);
        for (size_t i = 0; i < n; ++i) /* alive: the driver knows it */
            if (SNAP_REAL(glIsSync)(syncs[i]))
                syncs[d->nsyncs++] = syncs[i];
        d->syncs = syncs;
    }
    collect_xfb(s, d);
    return d;
}

static void write_part(snap *s, void *data)
{
    (void)s;
    const queries *d = data;
    for (size_t i = 0; i < d->nnames; ++i) {
        GLuint name = d->names[i];
        glGenQueries(1, &name);
    }
    for (int i = 0; i < d->nactive; ++i)
        glBeginQuery(d->active_target[i], d->active_name[i]);
    for (size_t i = 0; i < d->nsyncs; ++i) {
        snap_ret((uint64_t)(uintptr_t)d->syncs[i]);
        glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    }
    for (size_t i = 0; i < d->nx; ++i) {
        const xfb *x = &d->x[i];
        GLuint name = x->name;
        glGenTransformFeedbacks(1, &name);
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, x->name);
        for (int j = 0; j < d->nxbuffers; ++j) {
            if (!x->buffer[j])
                continue;
            if (x->size[j])
                glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, (unsigned)j,
                                  (unsigned)x->buffer[j], (intptr_t)x->start[j],
                                  (intptr_t)x->size[j]);
            else
                glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, (unsigned)j,
                                 (unsigned)x->buffer[j]);
        }
    }
    if (d->nx) /* the state part binds the program's */
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
}

static void free_part(void *data)
{
    queries *d = data;
    free(d->names);
    free(d->syncs);
    free(d->x);
    free(d);
}

const snap_part snap_part_queries = {"queries", collect, write_part, free_part};
