/* The context each container object was made in (hook_track_containers.h): vertex
 * arrays, framebuffers, transform feedback objects and program pipelines belong to one
 * context, and two contexts give the same names, so the process-wide name sets
 * (capture_track.c) cannot say whose a name is. The hooks note (context, kind, name)
 * at each glGen* / glCreate*, drop it at glDelete* (in the deleting context) and drop a
 * context's entries when it is destroyed; the current context is each thread's last
 * successful MakeCurrent. One lock: these calls are rare. The snapshot's own fake calls
 * are skipped. */
#include <pthread.h>
#include <stdlib.h>

#include "gltrace_runtime.h"
#include "gt_grow.h"
#include "hook_track_containers.h"
#include "track_containers.h"

typedef struct entry {
    void *ctx;
    unsigned kind, name;
} entry;

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static entry *g_entries;
static size_t g_n, g_cap;
static __thread void *t_current __attribute__((tls_model("initial-exec")));

static void made(unsigned kind, int n, const unsigned *names)
{
    if (gltrace_faking() || !names || n <= 0)
        return;
    pthread_mutex_lock(&g_lock);
    for (int i = 0; i < n; ++i)
        if (names[i] && !GT_GROW(g_entries, g_cap, g_n + 1, 64))
            g_entries[g_n++] = (entry){t_current, kind, names[i]};
    pthread_mutex_unlock(&g_lock);
}

static void deleted(unsigned kind, int n, const unsigned *names)
{
    if (gltrace_faking() || !names || n <= 0)
        return;
    pthread_mutex_lock(&g_lock);
    for (int i = 0; i < n; ++i)
        for (size_t j = g_n; j-- > 0;)
            if (g_entries[j].kind == kind && g_entries[j].name == names[i] &&
                g_entries[j].ctx == t_current) {
                g_entries[j] = g_entries[--g_n];
                break;
            }
    pthread_mutex_unlock(&g_lock);
}

void gtt_ctr_gen_vertex_arrays(int n, const unsigned *names)
{
    made(GTT_CTR_VERTEX_ARRAY, n, names);
}
void gtt_ctr_delete_vertex_arrays(int n, const unsigned *names)
{
    deleted(GTT_CTR_VERTEX_ARRAY, n, names);
}
void gtt_ctr_gen_framebuffers(int n, const unsigned *names)
{
    made(GTT_CTR_FRAMEBUFFER, n, names);
}
void gtt_ctr_delete_framebuffers(int n, const unsigned *names)
{
    deleted(GTT_CTR_FRAMEBUFFER, n, names);
}
void gtt_ctr_gen_transform_feedbacks(int n, const unsigned *names)
{
    made(GTT_CTR_XFB, n, names);
}
void gtt_ctr_delete_transform_feedbacks(int n, const unsigned *names)
{
    deleted(GTT_CTR_XFB, n, names);
}
void gtt_ctr_gen_program_pipelines(int n, const unsigned *names)
{
    made(GTT_CTR_PIPELINE, n, names);
}
void gtt_ctr_delete_program_pipelines(int n, const unsigned *names)
{
    deleted(GTT_CTR_PIPELINE, n, names);
}

static void current(void *ctx, int ok)
{
    if (ok && !gltrace_faking())
        t_current = ctx;
}

void gtt_ctr_glx_make_current(void *dpy, unsigned long drawable, void *ctx, int ret)
{
    (void)dpy;
    (void)drawable;
    current(ctx, ret != 0);
}

void gtt_ctr_glx_make_context_current(void *dpy, unsigned long draw, unsigned long read,
                                      void *ctx, int ret)
{
    (void)dpy;
    (void)draw;
    (void)read;
    current(ctx, ret != 0);
}

void gtt_ctr_egl_make_current(void *dpy, void *draw, void *read, void *ctx, unsigned ret)
{
    (void)dpy;
    (void)draw;
    (void)read;
    current(ctx, ret != 0);
}

/* A destroyed context's objects go with it (a context current somewhere lives on
 * until released: rare, its entries go now all the same). */
static void destroyed(void *ctx)
{
    if (gltrace_faking() || !ctx)
        return;
    pthread_mutex_lock(&g_lock);
    for (size_t j = g_n; j-- > 0;)
        if (g_entries[j].ctx == ctx)
            g_entries[j] = g_entries[--g_n];
    pthread_mutex_unlock(&g_lock);
}

void gtt_ctr_glx_destroy_context(void *dpy, void *ctx)
{
    (void)dpy;
    destroyed(ctx);
}

void gtt_ctr_egl_destroy_context(void *dpy, void *ctx, unsigned ret)
{
    (void)dpy;
    if (ret)
        destroyed(ctx);
}

void gtt_ctr_now_current(void *ctx) { t_current = ctx; }

void gtt_ctr_where(int kind, unsigned name, int *here, int *elsewhere)
{
    *here = *elsewhere = 0;
    pthread_mutex_lock(&g_lock);
    for (size_t j = 0; j < g_n; ++j)
        if (g_entries[j].kind == (unsigned)kind && g_entries[j].name == name) {
            if (g_entries[j].ctx == t_current)
                *here = 1;
            else
                *elsewhere = 1;
        }
    pthread_mutex_unlock(&g_lock);
}
