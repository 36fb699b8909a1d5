/* The window system room's entry (ws.h): starts and stops SDL's video, finds the
 * replayer of a GLX, EGL or window-sizing call in the tables of ws_glx.c, ws_egl.c and
 * ws_window.c, and holds the state those files share (ws_private.h). */
#include <SDL.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws_private.h"

ws_room ws;
_Thread_local ws_binding ws_bound;

/* The value after key in a 0/None-terminated attribute list, or def. */
int64_t ws_attrib(const gt_value *list, int64_t key, int64_t terminator, int64_t def)
{
    if (!list || list->kind != GT_ARRAY)
        return def;
    for (size_t i = 0; i + 1 < list->arr.n; i += 2) {
        int64_t k = ws_int(&list->arr.items[i]);
        if (k == terminator)
            break;
        if (k == key)
            return ws_int(&list->arr.items[i + 1]);
    }
    return def;
}

void ws_ignore(const gt_call *call) { (void)call; }

/* The tables a name is looked up in; their names do not overlap. */
static const ws_table *const tables[] = {&ws_glx_table, &ws_egl_table, &ws_gl_table};

static int cmp_entry(const void *key, const void *e)
{
    return strcmp((const char *)key, ((const ws_entry *)e)->name);
}

retrace_fn ws_lookup(const char *name)
{
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; ++t) {
        const ws_entry *e = bsearch(name, tables[t]->entries, tables[t]->n, sizeof *e, cmp_entry);
        if (e)
            return e->fn;
    }
    return NULL;
}

/* Headless: hidden windows on the X server when there is one, as apitrace's
 * --headless (its windows are double-buffered and multisampled as the traced ones, and
 * the state dump shows so); else SDL's offscreen driver, whose EGL pbuffers are
 * single-buffered (GL_DOUBLEBUFFER GL_FALSE; they read GL_BACK: ws_offscreen_read_back). */
static int start_video(bool headless)
{
    ws.offscreen = false;
    /* a hint outlives SDL_Quit: a windowed replay after a headless one in the same
     * process must not stay offscreen */
    SDL_ResetHint(SDL_HINT_VIDEODRIVER);
    const char *display = getenv("DISPLAY");
    if (!headless || (display && *display)) {
        if (headless)
            SDL_SetHint(SDL_HINT_VIDEODRIVER, "x11");
        if (SDL_Init(SDL_INIT_VIDEO) == 0)
            return 0;
        if (!headless)
            return -1;
    }
    SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen");
    ws.offscreen = true;
    return SDL_Init(SDL_INIT_VIDEO);
}

int ws_init(bool headless, bool single_buffer, const ws_hooks *hooks, gt_error *err)
{
    ws.headless = headless;
    ws.single_buffer = single_buffer;
    ws.samples = 0;
    ws.hooks = *hooks;
    ws_bind_reset();
    SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0");
    if (start_video(headless) != 0) {
        gt_error_set(err, "cannot start SDL's video%s: %s",
                     ws.offscreen ? " (offscreen driver)" : "", SDL_GetError());
        return -1;
    }
    ws.inited = true;
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; ++t) {
        const ws_table *tb = tables[t];
        for (size_t i = 1; i < tb->n; ++i)
            if (strcmp(tb->entries[i - 1].name, tb->entries[i].name) >= 0) {
                gt_error_set(err, "internal: ws table not sorted at %s", tb->entries[i].name);
                return -1;
            }
    }
    return 0;
}

void ws_force(int samples, bool core)
{
    ws.force_samples = samples > 1 ? samples : 0;
    ws.core = core;
}

void ws_wait_closed(void)
{
    if (!ws.inited || ws.headless)
        return;
    fprintf(stderr, "glretrace: waiting for a window to be closed (-w)\n");
    SDL_Event ev;
    while (SDL_WaitEvent(&ev)) /* SDL turns SIGINT and SIGTERM into SDL_QUIT */
        if (ev.type == SDL_QUIT ||
            (ev.type == SDL_WINDOWEVENT && ev.window.event == SDL_WINDOWEVENT_CLOSE))
            return;
}

void ws_shutdown(void)
{
    if (!ws.inited)
        return;
    SDL_GL_MakeCurrent(NULL, NULL);
    for (size_t i = 0; i < ws.nctx; ++i) {
        if (ws.ctxs[i]->ctx)
            SDL_GL_DeleteContext(ws.ctxs[i]->ctx);
        if (ws.ctxs[i]->anchor)
            SDL_GL_DeleteContext(ws.ctxs[i]->anchor);
        gl_avail_free(ws.ctxs[i]->avail);
        free(ws.ctxs[i]);
    }
    for (size_t i = 0; i < ws.ndraw; ++i) {
        if (ws.draws[i]->win)
            SDL_DestroyWindow(ws.draws[i]->win);
        free(ws.draws[i]);
    }
    if (ws.helper)
        SDL_DestroyWindow(ws.helper);
    free(ws.ctxs);
    free(ws.draws);
    free(ws.configs);
    memset(&ws, 0, sizeof ws);
    memset(&ws_bound, 0, sizeof ws_bound);
    ws_bind_reset();
    SDL_Quit();
}
