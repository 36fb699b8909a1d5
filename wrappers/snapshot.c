/* The state snapshot at a frame range's start (snapshot.h): collects each part (the
 * program's pending GL errors held meanwhile: snap_errors.h), opens the range's trace
 * with what cannot be read back in its properties, writes each part in fake mode, ends
 * with a marker, and only then lets the other threads write (they record nothing until
 * then: their calls meanwhile are the snapshot's to capture).
 *
 * The end of the snapshot is a fake glStringMarkerGREMEDY("gltrace: end of the state
 * snapshot ...") call: both replayers ignore that marker, `gltrace info` and the viewer
 * look for it (SNAPSHOT_END_MARKER in gt_snapshot_marker.h). */
#define _GNU_SOURCE
#include "snapshot.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gl_enums.gen.h"
#include "gt_snapshot_marker.h"
#include "capture_frames.h"
#include "capture_track.h"
#include "gt_strbuf.h"
#include "protos.gen.h"
#include "runtime_private.h"
#include "hook_snapshot_lock.h"
#include "snap_errors.h"
#include "snap_ws.h"
#include "snapshot_contexts.h"
#include "snapshot_parts.h"

struct snap {
    int api, version;
    char *extensions; /* " ext1 ext2 ... " */
    gt_strbuf unreadable; /* "; "-separated */
    unsigned nunreadable;
    snap *root; /* another context's: what it cannot read is said on the root */
};

static const snap_part *const parts[] = {
    &snap_part_ws,        &snap_part_buffers,   &snap_part_textures, &snap_part_renderbuffers,
    &snap_part_samplers,  &snap_part_programs,  &snap_part_vertex_arrays,
    &snap_part_framebuffers, &snap_part_queries, &snap_part_default_fb, &snap_part_state,
};
enum { NPARTS = sizeof parts / sizeof *parts };

/* The parts each context has of its own (not shared), written for the other contexts
 * too, before the frame context's state (the last part). */
static const snap_part *const context_parts[] = {
    &snap_part_vertex_arrays, &snap_part_framebuffers, &snap_part_state,
};
enum { NCTX_PARTS = sizeof context_parts / sizeof *context_parts };

/* Another context: how it was last bound, what its parts collected. */
typedef struct other_context {
    ws_current bound;
    int size[2];
    snap s;
    void *data[NCTX_PARTS];
} other_context;

int snap_api(const snap *s) { return s->api; }
int snap_version(const snap *s) { return s->version; }

int snap_has_extension(const snap *s, const char *name)
{
    if (!s->extensions)
        return 0;
    size_t n = strlen(name);
    for (const char *p = s->extensions; (p = strstr(p, name)) != NULL; p += n)
        if (p[-1] == ' ' && p[n] == ' ')
            return 1;
    return 0;
}

int snap_has(const snap *s, int gl, int es, const char *ext)
{
    if (s->api == SNAP_API_GL ? gl && s->version >= gl : es && s->version >= es)
        return 1;
    return ext && snap_has_extension(s, ext);
}

int snap_geti(unsigned pname)
{
    int v = 0;
    if (pname)
        SNAP_REAL(glGetIntegerv)(pname, &v);
    return v;
}

void snap_unreadable(snap *s, const char *fmt, ...)
{
    if (s->root)
        s = s->root;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "gltrace: state snapshot: %s\n", msg);
    if (s->nunreadable++)
        gt_strbuf_puts(&s->unreadable, "; ");
    gt_strbuf_puts(&s->unreadable, msg);
}

static long missing(void) { return 0; }

void *snap_real(const char *name)
{
    void *fn = gltrace_real(name);
    return fn ? fn : (void *)missing;
}

int snap_real_has(const char *name) { return gltrace_real(name) != NULL; }

uint32_t snap_as_thread(uint32_t thread)
{
    uint32_t previous = gltrace_thread_no();
    gltrace_t_thread_no = thread + 1;
    return previous;
}

void snap_as_thread_end(uint32_t previous) { gltrace_t_thread_no = previous + 1; }

/* The context's API, version and extensions. */
static void read_context(snap *s)
{
    const char *version = (const char *)SNAP_REAL(glGetString)(GL_VERSION);
    s->api = version && !strncmp(version, "OpenGL ES", 9) ? SNAP_API_GLES : SNAP_API_GL;
    int major = 0, minor = 0;
    if (version)
        sscanf(version + (s->api == SNAP_API_GLES ? 9 : 0), "%*[^0-9]%d.%d", &major, &minor);
    if (version && s->api == SNAP_API_GL)
        sscanf(version, "%d.%d", &major, &minor);
    s->version = major * 10 + minor;
    gt_strbuf ext;
    gt_strbuf_init(&ext);
    gt_strbuf_puts(&ext, " ");
    if (s->version >= 30) {
        int n = 0;
        SNAP_REAL(glGetIntegerv)(GL_NUM_EXTENSIONS, &n);
        for (int i = 0; i < n; ++i) {
            const char *e = (const char *)SNAP_REAL(glGetStringi)(GL_EXTENSIONS, (unsigned)i);
            if (e) {
                gt_strbuf_puts(&ext, e);
                gt_strbuf_puts(&ext, " ");
            }
        }
    } else {
        const char *e = (const char *)SNAP_REAL(glGetString)(GL_EXTENSIONS);
        gt_strbuf_puts(&ext, e ? e : "");
        gt_strbuf_puts(&ext, " ");
    }
    gt_strbuf_putc(&ext, '\0');
    s->extensions = ext.oom ? NULL : ext.data;
}

static void write_marker(unsigned long long first)
{
    char text[128];
    int n = snprintf(text, sizeof text, "%s (frame %llu follows)", GT_SNAPSHOT_END_MARKER, first);
    glStringMarkerGREMEDY(n, text);
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

/* The other contexts' parts, each read with the context current (and the frame
 * thread's context current again after). Returns the array (*n entries) or NULL. */
static other_context *collect_others(snap *root, snap_contexts *l, size_t *n)
{
    *n = 0;
    if (snap_contexts_find(root, l) != 0 || !l->n)
        return NULL;
    other_context *o = calloc(l->n, sizeof *o);
    if (!o) {
        snap_unreadable(root, "out of memory: the other contexts are not written");
        return NULL;
    }
    for (size_t i = 0; i < l->n; ++i) {
        other_context *c = &o[*n];
        c->bound = l->others[i];
        if (!snap_context_enter(&c->bound)) {
            snap_unreadable(root, "context %p cannot be made current to be read: its own "
                            "state is not written", c->bound.ctx);
            continue;
        }
        c->s.root = root;
        gt_strbuf_init(&c->s.unreadable);
        snap_errors errors;
        snap_errors_hold(&errors);
        read_context(&c->s);
        snap_errors_said(&c->s, "another context's version");
        snap_ws_drawable_size(&c->bound, c->size);
        for (unsigned k = 0; k < NCTX_PARTS; ++k) {
            c->data[k] = context_parts[k]->collect(&c->s);
            snap_errors_said(&c->s, context_parts[k]->name);
        }
        snap_errors_give_back(&errors);
        ++*n;
    }
    if (!snap_context_enter(&l->frame))
        snap_unreadable(root, "the frame thread's context could not be made current again");
    return o;
}

/* Writes each other context (made current in the driver and in the trace), then makes
 * the frame thread's context current again in both. */
static void write_others(other_context *o, size_t n, const snap_contexts *l)
{
    for (size_t i = 0; i < n; ++i) {
        if (!snap_context_enter(&o[i].bound))
            continue;
        snap_ws_write_current(&o[i].bound, o[i].size);
        for (unsigned k = 0; k < NCTX_PARTS; ++k)
            if (o[i].data[k])
                context_parts[k]->write(&o[i].s, o[i].data[k]);
    }
    if (n) {
        snap_context_enter(&l->frame);
        snap_ws_write_current(&l->frame, (int[2]){0, 0});
    }
}

static void free_others(other_context *o, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        for (unsigned k = 0; k < NCTX_PARTS; ++k)
            if (o[i].data[k])
                context_parts[k]->free(o[i].data[k]);
        free(o[i].s.extensions);
        gt_strbuf_free(&o[i].s.unreadable);
    }
    free(o);
}

static int snapshot_write(const char *range, unsigned long long first)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    snap s = {0};
    gt_strbuf_init(&s.unreadable);
    snap_errors errors;
    snap_errors_hold(&errors);
    read_context(&s);
    snap_errors_said(&s, "the context's version");
    if (gltrace_tracking_lost())
        snap_unreadable(&s, "the recorder ran out of memory following objects: some are missing");
    void *data[NPARTS];
    for (unsigned i = 0; i < NPARTS; ++i) {
        data[i] = parts[i]->collect(&s);
        snap_errors_said(&s, parts[i]->name);
    }
    snap_errors_give_back(&errors);
    snap_contexts contexts;
    size_t nothers;
    gltrace_contexts_hold(); /* until the other contexts are written */
    other_context *others = collect_others(&s, &contexts, &nothers);

    char first_text[32];
    snprintf(first_text, sizeof first_text, "%llu", first);
    at_writer_property props[] = {
        {GT_SNAPSHOT_PROPERTY, first_text},
        {GT_SNAPSHOT_UNREADABLE_PROPERTY, ""},
    };
    gt_strbuf_putc(&s.unreadable, '\0');
    if (!s.unreadable.oom)
        props[1].value = s.unreadable.data;
    at_writer *w = gltrace_writer_open_range(range, props, s.nunreadable ? 2 : 1);
    if (w) {
        gltrace_t_fake = AT_WRITER_FAKE;
        for (unsigned i = 0; i < NPARTS; ++i) {
            if (parts[i] == &snap_part_state)
                write_others(others, nothers, &contexts);
            if (data[i])
                parts[i]->write(&s, data[i]);
        }
        write_marker(first);
        gltrace_t_fake = 0;
        gltrace_contexts_let_go();
        gltrace_writer_publish();
        fprintf(stderr, "gltrace: frame %llu: state snapshot written in %.2f s\n", first,
                seconds_since(&t0));
    }
    if (!w)
        gltrace_contexts_let_go();
    for (unsigned i = 0; i < NPARTS; ++i)
        if (data[i])
            parts[i]->free(data[i]);
    free_others(others, nothers);
    snap_contexts_free(&contexts);
    free(s.extensions);
    gt_strbuf_free(&s.unreadable);
    return w != NULL;
}

__attribute__((constructor)) static void snapshot_init(void)
{
    gltrace_capture_set_snapshot(snapshot_write);
}
