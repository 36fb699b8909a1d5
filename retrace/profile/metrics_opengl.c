/* The `opengl` metrics backend (metrics_opengl.h), as apitrace's MetricBackend_opengl
 * measures: CPU times from CLOCK_MONOTONIC (or GL_TIMESTAMP when GPU times are asked
 * for), GPU start and end from GL_TIMESTAMP queries (GL_TIME_ELAPSED without them),
 * pixels from GL_SAMPLES_PASSED, VSIZE (bytes) and RSS (pages) from /proc/self/stat. */
#include <SDL.h>
#include <epoxy/gl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "metrics_opengl.h"
#include "pixels_mem.h"

const mo_metric mo_metrics[MO_COUNT] = {
    [MO_CPU_START] = {0, 0, "CPU Start", "CNT_TYPE_TIMESTAMP", "CNT_NUM_INT64"},
    [MO_CPU_DURATION] = {0, 1, "CPU Duration", "CNT_TYPE_DURATION", "CNT_NUM_INT64"},
    [MO_GPU_START] = {1, 0, "GPU Start", "CNT_TYPE_TIMESTAMP", "CNT_NUM_INT64"},
    [MO_GPU_DURATION] = {1, 1, "GPU Duration", "CNT_TYPE_DURATION", "CNT_NUM_INT64"},
    [MO_GPU_PIXELS] = {1, 2, "Pixels Drawn", "CNT_TYPE_GENERIC", "CNT_NUM_INT64"},
    [MO_VSIZE_START] = {0, 2, "VSIZE Start", "CNT_TYPE_GENERIC", "CNT_NUM_INT64"},
    [MO_VSIZE_DURATION] = {0, 3, "VSIZE Duration", "CNT_TYPE_GENERIC", "CNT_NUM_INT64"},
    [MO_RSS_START] = {0, 4, "RSS Start", "CNT_TYPE_GENERIC", "CNT_NUM_INT64"},
    [MO_RSS_DURATION] = {0, 5, "RSS Duration", "CNT_TYPE_GENERIC", "CNT_NUM_INT64"},
    [MO_GPU_DISJOINT] = {1, 3, "GPU Disjoint", "CNT_TYPE_GENERIC", "CNT_NUM_BOOL"},
};

const char *const mo_group_names[2] = {"CPU", "GPU"};

#define BIT(m) (1u << (m))

static void clear_gl_errors(void)
{
    for (int i = 0; i < 8 && glGetError() != GL_NO_ERROR; ++i)
        ;
}

bool mo_has_extension(const char *name)
{
    return SDL_GL_GetCurrentContext() && epoxy_has_gl_extension(name);
}

void mo_finish(void)
{
    if (SDL_GL_GetCurrentContext())
        glFinish();
}

void mo_caps_read(mo_caps *c)
{
    memset(c, 0, sizeof *c);
    c->desktop = epoxy_is_desktop_gl();
    int ver = epoxy_gl_version();
    c->disjoint = epoxy_has_gl_extension("GL_EXT_disjoint_timer_query");
    c->timestamp = (c->desktop && (ver >= 33 || epoxy_has_gl_extension("GL_ARB_timer_query"))) ||
                   c->disjoint;
    c->elapsed = (c->desktop && epoxy_has_gl_extension("GL_EXT_timer_query")) || c->timestamp;
    c->occlusion = c->desktop && ver >= 15;
    GLint bits = 0;
    if (c->timestamp) {
        if (c->disjoint && !c->desktop)
            glGetQueryivEXT(GL_TIMESTAMP_EXT, GL_QUERY_COUNTER_BITS_EXT, &bits);
        else
            glGetQueryiv(GL_TIMESTAMP, GL_QUERY_COUNTER_BITS, &bits);
    }
    c->timestamp_bits = bits >= 64 ? 0 : bits;
    for (int m = MO_CPU_START; m <= MO_RSS_DURATION; ++m)
        c->available[m] = m != MO_GPU_START && m != MO_GPU_DURATION && m != MO_GPU_PIXELS;
    c->available[MO_GPU_START] = c->timestamp;
    if (c->elapsed) {
        bits = 0;
        if (!c->desktop)
            glGetQueryivEXT(GL_TIME_ELAPSED_EXT, GL_QUERY_COUNTER_BITS_EXT, &bits);
        else
            glGetQueryiv(GL_TIME_ELAPSED, GL_QUERY_COUNTER_BITS, &bits);
        c->available[MO_GPU_DURATION] = bits != 0;
    }
    c->available[MO_GPU_DISJOINT] = c->disjoint;
    c->available[MO_GPU_PIXELS] = c->occlusion;
    clear_gl_errors();
}

static int64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t mo_now(const mo_caps *caps, bool sync)
{
    if (caps->timestamp && sync) { /* GL's clock without stalling, as apitrace */
        GLint64 t = 0;
        if (caps->desktop)
            glGetInteger64v(GL_TIMESTAMP, &t);
        else if (epoxy_gl_version() >= 30)
            glGetInteger64v(GL_TIMESTAMP_EXT, &t);
        else
            return cpu_ns();
        return t;
    }
    return cpu_ns();
}

static void query_timestamp(const mo_caps *caps, GLuint q)
{
    if (caps->disjoint && !caps->desktop)
        glQueryCounterEXT(q, GL_TIMESTAMP_EXT);
    else
        glQueryCounter(q, GL_TIMESTAMP);
}

static int64_t query_result(const mo_caps *caps, GLuint q)
{
    GLint64 r = 0;
    if (!caps->desktop)
        glGetQueryObjecti64vEXT(q, GL_QUERY_RESULT_EXT, &r);
    else if (caps->timestamp)
        glGetQueryObjecti64v(q, GL_QUERY_RESULT, &r);
    else if (caps->elapsed)
        glGetQueryObjecti64vEXT(q, GL_QUERY_RESULT, &r);
    else {
        GLuint r32 = 0;
        glGetQueryObjectuiv(q, GL_QUERY_RESULT, &r32);
        r = r32;
    }
    return r;
}

static int read_disjoint(void)
{
    GLint d = 0;
    glGetIntegerv(GL_GPU_DISJOINT_EXT, &d);
    return d;
}

void mo_span_begin(mo_span *s, unsigned mask, const mo_caps *caps, bool sync, int64_t base)
{
    (void)base;
    memset(s, 0, sizeof *s);
    s->mask = mask;
    s->ctx = SDL_GL_GetCurrentContext();
    bool gpu = (mask & (BIT(MO_GPU_START) | BIT(MO_GPU_DURATION) | BIT(MO_GPU_PIXELS))) != 0;
    if (gpu && s->ctx) {
        if (caps->desktop)
            glGenQueries(MO_Q_COUNT, s->queries);
        else
            glGenQueriesEXT(MO_Q_COUNT, s->queries);
        s->has_queries = true;
        if ((mask & BIT(MO_GPU_START)) || ((mask & BIT(MO_GPU_DURATION)) && caps->timestamp)) {
            if (mask & BIT(MO_GPU_DISJOINT))
                s->disjoint0 = read_disjoint();
            query_timestamp(caps, s->queries[MO_Q_START]);
        }
        if ((mask & BIT(MO_GPU_DURATION)) && !caps->timestamp)
            glBeginQuery(caps->desktop ? GL_TIME_ELAPSED : GL_TIME_ELAPSED_EXT,
                         s->queries[MO_Q_END]);
        if (mask & BIT(MO_GPU_PIXELS))
            glBeginQuery(GL_SAMPLES_PASSED, s->queries[MO_Q_PIXELS]);
    }
    if (mask & (BIT(MO_CPU_START) | BIT(MO_CPU_DURATION)))
        s->cpu0 = mo_now(caps, sync);
    if (mask & (BIT(MO_VSIZE_START) | BIT(MO_VSIZE_DURATION) | BIT(MO_RSS_START) |
                BIT(MO_RSS_DURATION)))
        mem_usage(&s->vsize0, &s->rss0);
}

void mo_span_end(mo_span *s, const mo_caps *caps, bool sync, int64_t v[MO_COUNT])
{
    unsigned m = s->mask;
    if (m & BIT(MO_CPU_START))
        v[MO_CPU_START] = s->cpu0; /* made relative by the caller */
    if (m & BIT(MO_CPU_DURATION))
        v[MO_CPU_DURATION] = mo_now(caps, sync) - s->cpu0;
    if (m & (BIT(MO_VSIZE_DURATION) | BIT(MO_RSS_DURATION))) {
        int64_t vs, rss;
        mem_usage(&vs, &rss);
        v[MO_VSIZE_DURATION] = vs - s->vsize0;
        v[MO_RSS_DURATION] = rss - s->rss0;
    }
    if (m & BIT(MO_VSIZE_START)) /* not otherwise: a later pass keeps the first's */
        v[MO_VSIZE_START] = s->vsize0;
    if (m & BIT(MO_RSS_START))
        v[MO_RSS_START] = s->rss0;
    if (!s->has_queries)
        return;
    if ((m & BIT(MO_GPU_DURATION)) && caps->timestamp) {
        query_timestamp(caps, s->queries[MO_Q_END]);
        if (m & BIT(MO_GPU_DISJOINT))
            v[MO_GPU_DISJOINT] = read_disjoint() != 0 || s->disjoint0 != 0;
    } else if (m & BIT(MO_GPU_DURATION)) {
        glEndQuery(caps->desktop ? GL_TIME_ELAPSED : GL_TIME_ELAPSED_EXT);
    }
    if (m & BIT(MO_GPU_PIXELS))
        glEndQuery(GL_SAMPLES_PASSED);
}

void mo_span_read(mo_span *s, const mo_caps *caps, int64_t base, int64_t v[MO_COUNT])
{
    if (!s->has_queries)
        return;
    unsigned m = s->mask;
    int64_t start = 0;
    bool wrap = caps->timestamp_bits > 0 && caps->timestamp_bits < 64;
    int64_t range = wrap ? (int64_t)((UINT64_C(2) << (caps->timestamp_bits - 1)) - 1) : 0;
    if ((m & BIT(MO_GPU_START)) || ((m & BIT(MO_GPU_DURATION)) && caps->timestamp))
        start = query_result(caps, s->queries[MO_Q_START]);
    if (m & BIT(MO_GPU_START))
        v[MO_GPU_START] = start - base;
    if (m & BIT(MO_GPU_DURATION)) {
        int64_t end = query_result(caps, s->queries[MO_Q_END]);
        if (caps->timestamp) {
            if (end < start && wrap)
                end += range; /* the counter rolled over */
            v[MO_GPU_DURATION] = end - start;
        } else {
            v[MO_GPU_DURATION] = end;
        }
    }
    if (m & BIT(MO_GPU_PIXELS))
        v[MO_GPU_PIXELS] = query_result(caps, s->queries[MO_Q_PIXELS]);
    if (caps->desktop)
        glDeleteQueries(MO_Q_COUNT, s->queries);
    else
        glDeleteQueriesEXT(MO_Q_COUNT, s->queries);
    s->has_queries = false;
    clear_gl_errors();
}

void mo_span_lose(mo_span *s, int64_t v[MO_COUNT])
{
    (void)v; /* the values stay 0 */
    s->has_queries = false;
}
