/* The state snapshot at a frame range's start (snapshot.h): collects each part, opens
 * the range's trace with what cannot be read back in its properties, writes each part
 * in fake mode, ends with a marker, and only then lets the other threads write (they
 * record nothing until then: their calls meanwhile are the snapshot's to capture).
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
#include "snapshot_parts.h"

struct snap {
    int api, version;
    char *extensions; /* " ext1 ext2 ... " */
    gt_strbuf unreadable; /* "; "-separated */
    unsigned nunreadable;
};

static const snap_part *const parts[] = {
    &snap_part_ws,        &snap_part_buffers,   &snap_part_textures, &snap_part_renderbuffers,
    &snap_part_samplers,  &snap_part_programs,  &snap_part_vertex_arrays,
    &snap_part_framebuffers, &snap_part_queries, &snap_part_state,
};
enum { NPARTS = sizeof parts / sizeof *parts };

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

void snap_unreadable(snap *s, const char *fmt, ...)
{
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

static int snapshot_write(const char *range, unsigned long long first)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    snap s = {0};
    gt_strbuf_init(&s.unreadable);
    read_context(&s);
    if (gltrace_tracking_lost())
        snap_unreadable(&s, "the recorder ran out of memory following objects: some are missing");
    void *data[NPARTS];
    for (unsigned i = 0; i < NPARTS; ++i)
        data[i] = parts[i]->collect(&s);

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
        for (unsigned i = 0; i < NPARTS; ++i)
            if (data[i])
                parts[i]->write(&s, data[i]);
        write_marker(first);
        gltrace_t_fake = 0;
        gltrace_writer_publish();
        fprintf(stderr, "gltrace: frame %llu: state snapshot written in %.2f s\n", first,
                seconds_since(&t0));
    }
    for (unsigned i = 0; i < NPARTS; ++i)
        if (data[i])
            parts[i]->free(data[i]);
    free(s.extensions);
    gt_strbuf_free(&s.unreadable);
    return w != NULL;
}

__attribute__((constructor)) static void snapshot_init(void)
{
    gltrace_capture_set_snapshot(snapshot_write);
}
