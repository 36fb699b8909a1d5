/* apitrace's profiling metrics (metrics.h): the passes, the frame and call records,
 * the replay's hooks. The selection and the output are metrics_select.c's; the
 * measuring metrics_opengl.c's and the ext backends' (metrics_ext.h). */
#include <SDL.h>
#include <stdlib.h>
#include <string.h>

#include "gt_grow.h"
#include "gt_roles.h"
#include "metrics_internal.h"

/* ---- passes ---------------------------------------------------------------------- */

void metrics_begin_pass(metrics *mx, unsigned pass)
{
    mx->pass = pass;
    mx->ndraws = 0;
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
    if (mx->cur != MB_OPENGL) /* another backend's pass: opengl measures nothing */
        return;
    if (mx->local == 0) {
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
    if (mx->frame_has_rec && metrics_cur_ext(mx))
        mx_ext_begin_query(metrics_cur_ext(mx), METRICS_FRAME, mx->frame_idx);
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
    if (metrics_cur_ext(mx))
        mx_ext_end_query(metrics_cur_ext(mx), METRICS_FRAME);
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

/* The backend whose pass this is (apitrace's: each backend's passes in turn). */
static void find_backend(metrics *mx)
{
    mx->cur = MB_NONE;
    unsigned first = 0;
    for (size_t i = 0; i < mx->norder; ++i) {
        int be = mx->order[i];
        unsigned n = be == MB_OPENGL ? mx->gl_passes : (unsigned)mx->ext[be - 1]->npasses;
        if (mx->pass < first + n) {
            mx->cur = be;
            mx->local = mx->pass - first;
            return;
        }
        first += n;
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
            metrics_list(mx);
            mx->done = true;
            return;
        }
        metrics_select(mx);
        if (mx->gen_passes) {
            printf("%u\n", mx->passes);
            fflush(stdout);
            mx->done = true;
            return;
        }
    }
    mx->acquired = true;
    find_backend(mx);
    set_profiled(mx);
    if (metrics_cur_ext(mx))
        mx_ext_begin_pass(metrics_cur_ext(mx), mx->local);
    mx->base = mo_now(&mx->caps, mx->sync);
    frame_begin(mx);
}

void metrics_before_switch(metrics *mx)
{
    if (!mx->acquired || mx->done)
        return;
    if (metrics_cur_ext(mx)) /* its frame in progress is dropped, as apitrace's */
        mx_ext_pause(metrics_cur_ext(mx));
    frame_stop(mx); /* apitrace's pausePass */
    process_queries(mx);
}

void metrics_after_switch(metrics *mx)
{
    if (mx->done)
        return;
    if (!mx->acquired)
        acquire(mx);
    else if (metrics_cur_ext(mx) && SDL_GL_GetCurrentContext())
        mx_ext_resume(metrics_cur_ext(mx)); /* apitrace's continuePass */
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
    if (draw && mx->call_has_rec && metrics_cur_ext(mx))
        mx_ext_begin_query(metrics_cur_ext(mx), METRICS_DRAWCALL, mx->ndraws++);
    mo_span_begin(&mx->call_span, mask, &mx->caps, mx->sync, mx->base);
    mx->call_open = true;
}

static void call_stop(metrics *mx)
{
    mx->call_open = mx->begin_open = false;
    span_stop(mx, &mx->call_span, &mx->calls, mx->call_has_rec, mx->call_idx, false);
    if (metrics_cur_ext(mx))
        mx_ext_end_query(metrics_cur_ext(mx), METRICS_DRAWCALL);
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
        if (mx->acquired && metrics_cur_ext(mx)) /* its objects go with the context */
            mx_ext_pause(metrics_cur_ext(mx));
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
    if (metrics_cur_ext(mx))
        mx_ext_end_pass(metrics_cur_ext(mx));
}

void metrics_drain_current(metrics *mx)
{
    process_queries(mx);
}
