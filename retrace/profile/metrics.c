/* apitrace's profiling metrics (metrics.h): the selection, the passes, the frame and
 * call records and apitrace's output. The measuring is metrics_opengl.c's. */
#include <SDL.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gt_callstate.h"
#include "gt_grow.h"
#include "gt_roles.h"
#include "metrics.h"
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
};

/* ---- selection ------------------------------------------------------------------- */

metrics *metrics_new(void)
{
    metrics *mx = calloc(1, sizeof *mx);
    if (!mx)
        return NULL;
    mx->passes = 1;
    return mx;
}

void metrics_free(metrics *mx)
{
    if (!mx)
        return;
    for (size_t i = 0; i < mx->nspecs; ++i)
        free(mx->specs[i].text);
    free(mx->specs);
    free(mx->frames.r);
    free(mx->calls.r);
    free(mx->pend);
    for (size_t i = 0; i < mx->nkinds; ++i)
        free(mx->names[i]);
    free(mx->kinds);
    free(mx->names);
    free(mx->ctxs);
    free(mx);
}

int metrics_add(metrics *mx, metrics_boundary b, const char *text, gt_error *err)
{
    if (GT_GROW(mx->specs, mx->capspecs, mx->nspecs + 1, 4) != 0) {
        gt_error_set(err, "out of memory");
        return -1;
    }
    char *copy = strdup(text);
    if (!copy) {
        gt_error_set(err, "out of memory");
        return -1;
    }
    mx->specs[mx->nspecs++] = (spec){b, copy};
    return 0;
}

void metrics_set_list(metrics *mx) { mx->list = true; }
void metrics_set_gen_passes(metrics *mx) { mx->gen_passes = true; }
unsigned metrics_passes(const metrics *mx) { return mx->passes; }
bool metrics_done(const metrics *mx) { return mx->done; }

static const char *const other_backends[] = {"GL_AMD_performance_monitor",
                                             "GL_INTEL_performance_query"};

static int metric_by_name(const char *name, size_t len)
{
    for (int m = 0; m < MO_COUNT; ++m)
        if (strlen(mo_metrics[m].name) == len && !memcmp(mo_metrics[m].name, name, len))
            return m;
    return -1;
}

static int metric_by_id(unsigned g, unsigned id)
{
    for (int m = 0; m < MO_COUNT; ++m)
        if (mo_metrics[m].group == g && mo_metrics[m].id == id)
            return m;
    return -1;
}

static void enable(metrics *mx, metrics_boundary b, int m, const char *shown, int shown_len)
{
    if (m < 0) {
        fprintf(stderr, "Warning: No metric \"%.*s\".\n", shown_len, shown);
        return;
    }
    if (!mx->caps.available[m]) {
        fprintf(stderr, "Warning: Metric %.*s not enabled (error 1).\n", shown_len, shown);
        return;
    }
    mx->enabled[m][b] = true;
    mx->on[b] = true;
}

/* The metrics of one backend block, `NAME,[G, ID],...` (apitrace's parseMetricsBlock). */
static void parse_metrics(metrics *mx, metrics_boundary b, const char *s, const char *end)
{
    while (s < end) {
        while (s < end && *s == ' ')
            ++s;
        const char *comma = memchr(s, ',', (size_t)(end - s));
        const char *e = comma ? comma : end;
        if (*s == '[' && s < e) {
            const char *close = memchr(s, ']', (size_t)(end - s));
            if (!close || !comma || comma > close) { /* "[G, ID]" needs its comma inside */
                fprintf(stderr, "Warning: No metric \"%.*s\".\n", (int)(e - s), s);
                s = comma ? comma + 1 : end;
                continue;
            }
            unsigned g = (unsigned)strtoul(s + 1, NULL, 10);
            unsigned id = (unsigned)strtoul(comma + 1, NULL, 10);
            char shown[128];
            int n = snprintf(shown, sizeof shown, "[%.*s, %.*s]", (int)(comma - s - 1), s + 1,
                             (int)(close - comma - 1), comma + 1);
            enable(mx, b, metric_by_id(g, id), shown, n < 0 ? 0 : n);
            const char *next = memchr(close, ',', (size_t)(end - close));
            s = next ? next + 1 : end;
            continue;
        }
        if (e > s)
            enable(mx, b, metric_by_name(s, (size_t)(e - s)), s, (int)(e - s));
        s = comma ? comma + 1 : end;
    }
}

/* `BACKEND:METRICS` blocks separated by `;` (apitrace's parseBackendBlock). */
static void parse_spec(metrics *mx, const spec *sp)
{
    const char *s = sp->text;
    while (*s) {
        const char *semi = strchr(s, ';');
        const char *end = semi ? semi : s + strlen(s);
        const char *colon = memchr(s, ':', (size_t)(end - s));
        if (colon) {
            const char *name = s + strspn(s, " ");
            int len = (int)(colon - name);
            bool other = false;
            for (size_t i = 0; i < 2; ++i)
                if ((size_t)len == strlen(other_backends[i]) &&
                    !memcmp(name, other_backends[i], (size_t)len)) {
                    other = true;
                    if (mo_has_extension(other_backends[i]))
                        fprintf(stderr, "Warning: Backend \"%.*s\": offered by this driver, not "
                                        "read by gltrace yet.\n", len, name);
                    else
                        fprintf(stderr, "Warning: Backend \"%.*s\" is not supported.\n", len, name);
                }
            if (!other && (len != 6 || memcmp(name, "opengl", 6)))
                fprintf(stderr, "Warning: No backend \"%.*s\".\n", len, name);
            else if (!other)
                parse_metrics(mx, sp->b, colon + 1, end);
        }
        if (!semi)
            break;
        s = semi + 1;
    }
}

/* apitrace's generatePasses */
static void gen_passes(metrics *mx)
{
    for (int m = 0; m < MO_COUNT; ++m)
        if (mx->enabled[m][METRICS_CALL])
            mx->enabled[m][METRICS_DRAWCALL] = false;
    for (int b = 0; b < METRICS_BOUNDARIES; ++b)
        if (mx->enabled[MO_GPU_DISJOINT][b] && !mx->enabled[MO_GPU_DURATION][b]) {
            fprintf(stderr, "Warning: Disjoint won't be queried for boundary %d as GPU duration "
                            "is not profiled.\n", b);
            mx->enabled[MO_GPU_DISJOINT][b] = false;
        }
    for (int b = 0; b < METRICS_BOUNDARIES; ++b) {
        if (mx->enabled[MO_GPU_START][b] || mx->enabled[MO_GPU_DURATION][b] ||
            mx->enabled[MO_GPU_PIXELS][b])
            mx->queries_needed = true;
        if (mx->enabled[MO_GPU_START][b] || mx->enabled[MO_GPU_DURATION][b])
            mx->sync = true;
    }
    bool (*e)[METRICS_BOUNDARIES] = mx->enabled;
    if (!mx->caps.timestamp && e[MO_GPU_DURATION][METRICS_FRAME] &&
        (e[MO_GPU_DURATION][METRICS_CALL] || e[MO_GPU_DURATION][METRICS_DRAWCALL]))
        mx->two_passes = true;
    if (e[MO_GPU_PIXELS][METRICS_FRAME] &&
        (e[MO_GPU_PIXELS][METRICS_CALL] || e[MO_GPU_PIXELS][METRICS_DRAWCALL]))
        mx->two_passes = true;
    mx->passes = mx->two_passes ? 2 : 1;
}

/* --list-metrics, as apitrace's listMetricsCLI prints it */
static void list_metrics(metrics *mx)
{
    printf("Available metrics: \n");
    for (size_t i = 0; i < 2; ++i)
        if (mo_has_extension(other_backends[i]))
            fprintf(stderr, "glretrace: %s: offered by this driver, not read by gltrace yet\n",
                    other_backends[i]);
    printf("\nBackend opengl:\n");
    for (unsigned g = 0; g < 2; ++g) {
        printf("\n  Group #%u: %s.\n", g, mo_group_names[g]);
        for (int m = 0; m < MO_COUNT; ++m)
            if (mo_metrics[m].group == g && mx->caps.available[m])
                printf("    Metric #%u: %s (type: %s, num. type: %s).\n"
                       "           Description: \n",
                       mo_metrics[m].id, mo_metrics[m].name, mo_metrics[m].type,
                       mo_metrics[m].num_type);
    }
    printf("\n");
    fflush(stdout);
}

/* ---- passes ---------------------------------------------------------------------- */

void metrics_begin_pass(metrics *mx, unsigned pass)
{
    mx->pass = pass;
    mx->acquired = false;
    mx->frame_open = mx->call_open = mx->begin_open = false;
    mx->frames.cursor = mx->calls.cursor = 0;
    mx->nctx = 0;
    mx->npend = 0; /* a failed pass's queries went with its contexts */
}

/* What this pass measures (apitrace's beginPass). */
static void set_profiled(metrics *mx)
{
    memset(mx->profiled, 0, sizeof mx->profiled);
    bool *dur = mx->profiled[MO_GPU_DURATION], *pix = mx->profiled[MO_GPU_PIXELS];
    if (mx->pass == 0) {
        memcpy(mx->profiled, mx->enabled, sizeof mx->profiled);
        if (mx->two_passes) {
            if (!mx->caps.timestamp)
                dur[METRICS_CALL] = dur[METRICS_DRAWCALL] = false;
            pix[METRICS_CALL] = pix[METRICS_DRAWCALL] = false;
        }
        return;
    }
    if (!mx->caps.timestamp) {
        dur[METRICS_CALL] = mx->enabled[MO_GPU_DURATION][METRICS_CALL];
        dur[METRICS_DRAWCALL] = mx->enabled[MO_GPU_DURATION][METRICS_DRAWCALL];
    }
    pix[METRICS_CALL] = mx->enabled[MO_GPU_PIXELS][METRICS_CALL];
    pix[METRICS_DRAWCALL] = mx->enabled[MO_GPU_PIXELS][METRICS_DRAWCALL];
}

static unsigned mask_of(const metrics *mx, metrics_boundary b)
{
    unsigned mask = 0;
    for (int m = 0; m < MO_COUNT; ++m)
        if (mx->profiled[m][b])
            mask |= BIT(m);
    return mask;
}

/* The record to fill: a new one in the first pass, the first pass's in order after. */
static mrec *next_rec(metrics *mx, mlist *l, size_t *idx)
{
    if (mx->pass == 0) {
        if (GT_GROW(l->r, l->cap, l->n + 1, 1024) != 0)
            return NULL;
        mrec *r = &l->r[l->n];
        memset(r, 0, sizeof *r);
        *idx = l->n++;
        return r;
    }
    if (l->cursor >= l->n)
        return NULL; /* this pass replayed more than the first: not recorded */
    *idx = l->cursor++;
    return &l->r[*idx];
}

static void add_pending(metrics *mx, bool frame, size_t idx, const mo_span *s)
{
    if (!s->has_queries)
        return;
    if (GT_GROW(mx->pend, mx->cappend, mx->npend + 1, 256) != 0) {
        mo_span lost = *s;
        mo_span_read(&lost, &mx->caps, mx->base, (frame ? &mx->frames : &mx->calls)->r[idx].v);
        return;
    }
    mx->pend[mx->npend++] = (pending){frame, idx, *s};
}

/* Reads the GPU results of the current context's spans (apitrace's processQueries). */
static void process_queries(metrics *mx)
{
    void *cur = SDL_GL_GetCurrentContext();
    size_t keep = 0;
    for (size_t i = 0; i < mx->npend; ++i) {
        pending *p = &mx->pend[i];
        if (cur && p->span.ctx == cur) {
            mlist *l = p->frame ? &mx->frames : &mx->calls;
            mo_span_read(&p->span, &mx->caps, mx->base, l->r[p->idx].v);
        } else {
            mx->pend[keep++] = *p;
        }
    }
    mx->npend = keep;
}

static void frame_begin(metrics *mx)
{
    unsigned mask = mask_of(mx, METRICS_FRAME);
    mx->frame_has_rec = false;
    if (mx->on[METRICS_FRAME]) {
        mrec *r = next_rec(mx, &mx->frames, &mx->frame_idx);
        mx->frame_has_rec = r != NULL;
    }
    mo_span_begin(&mx->frame_span, mask, &mx->caps, mx->sync, mx->base);
    mx->frame_open = true;
}

/* Ends a frame's or a call's span: into its record (queries read later), or, with no
 * record, its queries read at once into scratch so that none is left pending. */
static void span_stop(metrics *mx, mo_span *span, mlist *l, bool has_rec, size_t idx, bool frame)
{
    int64_t scratch[MO_COUNT] = {0};
    int64_t *v = has_rec ? l->r[idx].v : scratch;
    mo_span_end(span, &mx->caps, mx->sync, v);
    if (span->mask & BIT(MO_CPU_START))
        v[MO_CPU_START] -= mx->base;
    if (has_rec)
        add_pending(mx, frame, idx, span);
    else if (span->has_queries)
        mo_span_read(span, &mx->caps, mx->base, scratch);
}

static void frame_stop(metrics *mx)
{
    if (!mx->frame_open)
        return;
    mx->frame_open = false;
    span_stop(mx, &mx->frame_span, &mx->frames, mx->frame_has_rec, mx->frame_idx, true);
}

/* A frame's line: the frame measured since the last one ended (apitrace adds it at
 * each frame end, whether or not a context switch ended its measure earlier). */
static void frame_commit(metrics *mx)
{
    if (mx->frame_has_rec) {
        mx->frames.r[mx->frame_idx].committed = true;
        mx->frame_has_rec = false;
    }
}

/* The first context of a pass: resolve the selection (once), then begin measuring. */
static void acquire(metrics *mx)
{
    if (!SDL_GL_GetCurrentContext())
        return;
    if (!mx->setup) {
        mx->setup = true;
        mo_caps_read(&mx->caps);
        if (mx->list) {
            list_metrics(mx);
            mx->done = true;
            return;
        }
        for (size_t i = 0; i < mx->nspecs; ++i)
            parse_spec(mx, &mx->specs[i]);
        gen_passes(mx);
        if (mx->gen_passes) {
            printf("%u\n", mx->passes);
            fflush(stdout);
            mx->done = true;
            return;
        }
    }
    mx->acquired = true;
    set_profiled(mx);
    mx->base = mo_now(&mx->caps, mx->sync);
    frame_begin(mx);
}

void metrics_before_switch(metrics *mx)
{
    if (!mx->acquired || mx->done)
        return;
    frame_stop(mx); /* apitrace's pausePass */
    process_queries(mx);
}

void metrics_after_switch(metrics *mx)
{
    if (!mx->acquired && !mx->done)
        acquire(mx);
}

/* ---- calls ----------------------------------------------------------------------- */

/* The kind of a function, from its call flags and roles (specs/roles.txt). */
static unsigned char classify(const gt_func_sig *sig)
{
    uint32_t r = gt_roles_lookup(sig->name).bits;
    if (!(r & GT_ROLE_GL) || (r & GT_ROLE_UNLISTED) ||
        ((sig->flags & GT_CALL_FLAG_NO_SIDE_EFFECTS) && !(sig->flags & GT_CALL_FLAG_MARKER)))
        return K_NONE;
    return (r & GT_ROLE_BEGIN)     ? K_BEGIN
           : (r & GT_ROLE_END)     ? K_END
           : (r & GT_ROLE_NEWLIST) ? K_NEWLIST
           : (r & GT_ROLE_ENDLIST) ? K_ENDLIST
           : (r & GT_ROLE_PROGRAM) ? K_PROGRAM
           : (r & GT_ROLE_DRAW)    ? K_DRAW
                                   : K_CALL;
}

static unsigned char kind_of(metrics *mx, const gt_call *c)
{
    if (!c->sig)
        return K_NONE;
    uint32_t id = c->sig->id;
    if (id >= mx->nkinds) {
        size_t n = mx->nkinds, n2 = mx->nkinds;
        if (GT_GROW(mx->kinds, n, (size_t)id + 1, 256) != 0)
            return K_NONE;
        memset(mx->kinds + mx->nkinds, 0, n - mx->nkinds);
        if (GT_GROW(mx->names, n2, n, 256) != 0)
            return K_NONE;
        memset(mx->names + mx->nkinds, 0, (n2 - mx->nkinds) * sizeof *mx->names);
        mx->nkinds = n;
    }
    if (mx->kinds[id] == K_UNKNOWN)
        mx->kinds[id] = classify(c->sig);
    return mx->kinds[id];
}

static ctx_state *cur_ctx(metrics *mx)
{
    void *key = SDL_GL_GetCurrentContext();
    if (!key)
        return NULL;
    for (size_t i = 0; i < mx->nctx; ++i)
        if (mx->ctxs[i].key == key)
            return &mx->ctxs[i];
    if (GT_GROW(mx->ctxs, mx->capctx, mx->nctx + 1, 4) != 0)
        return NULL;
    ctx_state *s = &mx->ctxs[mx->nctx++];
    memset(s, 0, sizeof *s);
    s->key = key;
    return s;
}

static bool profiling_calls(const metrics *mx)
{
    return mx->acquired && !mx->done && (mx->on[METRICS_CALL] || mx->on[METRICS_DRAWCALL]);
}

/* The current context's state when call C is profiled (its kind in *K), else NULL. */
static ctx_state *profiled_call(metrics *mx, const gt_call *c, unsigned char *k)
{
    if (!profiling_calls(mx))
        return NULL;
    *k = kind_of(mx, c);
    return *k == K_NONE ? NULL : cur_ctx(mx);
}

void metrics_call_begin(metrics *mx, const gt_call *c)
{
    unsigned char k = K_NONE;
    ctx_state *cc = profiled_call(mx, c, &k);
    if (!cc)
        return;
    /* glNewList is not profiled, glEndList is: in the list as the call leaves it */
    bool in_list = k == K_NEWLIST || (cc->cs.in_list && k != K_ENDLIST);
    if (k == K_END || in_list || cc->cs.in_begin_end)
        return;
    bool draw = k == K_DRAW || k == K_BEGIN;
    unsigned mask = (mx->on[METRICS_CALL] ? mask_of(mx, METRICS_CALL) : 0) |
                    (draw && mx->on[METRICS_DRAWCALL] ? mask_of(mx, METRICS_DRAWCALL) : 0);
    if (k == K_ENDLIST) /* still compiling: GL would put the queries into the list (apitrace
                         * does); it does no GPU work, its GPU values are 0 */
        mask &= ~(BIT(MO_GPU_START) | BIT(MO_GPU_DURATION) | BIT(MO_GPU_PIXELS));
    mx->call_has_rec = false;
    if (mx->on[METRICS_CALL] || draw) {
        mrec *r = next_rec(mx, &mx->calls, &mx->call_idx);
        if (r && mx->pass == 0) {
            uint32_t id = c->sig->id;
            if (!mx->names[id])
                mx->names[id] = strdup(c->sig->name);
            r->name = mx->names[id] ? mx->names[id] : "?"; /* "?": out of memory */
            r->no = c->no;
            r->program = cc->cs.program;
            r->draw = draw;
            r->committed = true;
        }
        mx->call_has_rec = r != NULL;
    }
    mo_span_begin(&mx->call_span, mask, &mx->caps, mx->sync, mx->base);
    mx->call_open = true;
}

static void call_stop(metrics *mx)
{
    mx->call_open = mx->begin_open = false;
    span_stop(mx, &mx->call_span, &mx->calls, mx->call_has_rec, mx->call_idx, false);
}

void metrics_call_end(metrics *mx, const gt_call *c)
{
    unsigned char k = K_NONE;
    ctx_state *cc = profiled_call(mx, c, &k);
    if (!cc)
        return;
    if (k >= K_BEGIN) /* the kinds that move the call state (the enum's last ones) */
        gt_callstate_after(&cc->cs, gt_roles_lookup(c->sig->name), c);
    if (k == K_BEGIN && mx->call_open) { /* measured until glEnd */
        mx->begin_open = true;
        return;
    }
    if (k == K_END) {
        if (mx->begin_open)
            call_stop(mx);
        return;
    }
    if (mx->call_open && !mx->begin_open)
        call_stop(mx);
}

/* ---- frames and the end ---------------------------------------------------------- */

static void add_frame_end(metrics *mx)
{
    if (!mx->on[METRICS_CALL] && !mx->on[METRICS_DRAWCALL])
        return;
    size_t idx;
    mrec *r = next_rec(mx, &mx->calls, &idx);
    if (r && mx->pass == 0) {
        r->name = NULL;
        r->committed = true;
    }
}

void metrics_frame_end(metrics *mx)
{
    if (!mx->acquired || mx->done)
        return;
    add_frame_end(mx);
    frame_stop(mx);
    frame_commit(mx);
    if (mx->queries_needed)
        process_queries(mx);
    frame_begin(mx);
}

void metrics_context_destroyed(metrics *mx, void *sdl_ctx)
{
    if (sdl_ctx == SDL_GL_GetCurrentContext()) {
        if (mx->frame_open && mx->frame_span.ctx == sdl_ctx)
            frame_stop(mx);
        process_queries(mx);
        return;
    }
    size_t keep = 0;
    for (size_t i = 0; i < mx->npend; ++i) {
        pending *p = &mx->pend[i];
        if (p->span.ctx == sdl_ctx)
            mo_span_lose(&p->span, (p->frame ? &mx->frames : &mx->calls)->r[p->idx].v);
        else
            mx->pend[keep++] = *p;
    }
    mx->npend = keep;
    if (mx->frame_open && mx->frame_span.ctx == sdl_ctx) {
        mx->frame_open = false; /* its queries went with the context */
        mo_span_lose(&mx->frame_span, NULL);
    }
}

void metrics_end_pass(metrics *mx)
{
    if (!mx->acquired || mx->done)
        return;
    if (mx->call_open)
        call_stop(mx);
    frame_stop(mx); /* apitrace's finishRendering: the last frame, then glFinish */
    frame_commit(mx);
    mo_finish();
    process_queries(mx);
}

void metrics_drain_current(metrics *mx)
{
    process_queries(mx);
}

/* ---- output ---------------------------------------------------------------------- */

static void write_values(const metrics *mx, metrics_boundary b, const int64_t *v, FILE *out)
{
    for (int m = 0; m < MO_COUNT; ++m)
        if (mx->enabled[m][b])
            fprintf(out, "\t%" PRId64, v[m]);
    fputc('\n', out);
}

static void write_header(const metrics *mx, metrics_boundary b, FILE *out)
{
    fputs(b == METRICS_FRAME ? "#" : "#\tcall no\tprogram\tname", out);
    for (int m = 0; m < MO_COUNT; ++m)
        if (mx->enabled[m][b])
            fprintf(out, "\t%s", mo_metrics[m].name);
    fputc('\n', out);
}

static void write_calls(const metrics *mx, metrics_boundary b, FILE *out)
{
    write_header(mx, b, out);
    for (size_t i = 0; i < mx->calls.n; ++i) {
        const mrec *r = &mx->calls.r[i];
        if (!r->name) {
            fputs("frame_end\n", out);
            continue;
        }
        if (b == METRICS_DRAWCALL && !r->draw)
            continue;
        fprintf(out, "call\t%" PRIu32 "\t%" PRIu32 "\t%s", r->no, r->program, r->name);
        write_values(mx, b, r->v, out);
    }
    fputc('\n', out);
}

int metrics_write(metrics *mx, FILE *out)
{
    if (mx->done || !mx->setup)
        return 0;
    if (mx->on[METRICS_FRAME]) {
        write_header(mx, METRICS_FRAME, out);
        for (size_t i = 0; i < mx->frames.n; ++i)
            if (mx->frames.r[i].committed) {
                fputs("frame", out);
                write_values(mx, METRICS_FRAME, mx->frames.r[i].v, out);
            }
        fputc('\n', out);
    }
    if (mx->on[METRICS_CALL])
        write_calls(mx, METRICS_CALL, out);
    if (mx->on[METRICS_DRAWCALL])
        write_calls(mx, METRICS_DRAWCALL, out);
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
