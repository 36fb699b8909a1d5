/* Traced drawables (GLX XIDs, EGL surfaces) on SDL2 windows (SDL_CreateWindow), and
 * glViewport, which gives a window its size.
 *
 * Each drawable gets one window, made when the drawable is first bound to any context
 * (Qt binds windows made with plain Xlib/xcb that GLX never saw, and moves one context
 * between windows and pbuffers), 32x32 at first and grown when a glViewport reaches
 * past its size (the recorders' fake glViewport at a drawable's first MakeCurrent
 * gives the real size). Pbuffers (their size from the creating call) and
 * EGL_NO_SURFACE (surfaceless) are hidden windows. Windows are double-buffered (--sb:
 * single), as apitrace's glretrace makes them; --headless: hidden windows on X when
 * there is a display (as apitrace's --headless), else SDL's offscreen driver (EGL
 * pbuffers, single-buffered). A separate read drawable is bound through
 * ws_read_drawable.c. */
#include <SDL.h>
#include <epoxy/gl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "gt_grow.h"
#include "ws_private.h"

ws_drawable *ws_find_drawable(uint64_t traced)
{
    for (size_t i = 0; i < ws.ndraw; ++i)
        if (ws.draws[i]->traced == traced)
            return ws.draws[i];
    return NULL;
}

ws_drawable *ws_add_drawable(uint64_t traced, int w, int h, bool pbuffer)
{
    ws_drawable *d = NULL;
    if (GT_GROW(ws.draws, ws.capdraw, ws.ndraw + 1, 8) != 0 || !(d = calloc(1, sizeof *d)))
        return NULL;
    d->traced = traced;
    d->w = w > 0 ? w : WS_DEFAULT_SIZE;
    d->h = h > 0 ? h : WS_DEFAULT_SIZE;
    d->pbuffer = pbuffer;
    ws.draws[ws.ndraw++] = d;
    return d;
}

/* Whether any traced thread has D current (as draw or read drawable). */
static bool drawable_in_use(const ws_drawable *d)
{
    for (size_t i = 0; i < replay_thread_count(); ++i) {
        const replay_thread *t = replay_thread_at(i);
        if (t->draw == d || t->read == d)
            return true;
    }
    return false;
}

/* The drawable traced as id, made when first seen (Qt binds windows it made with
 * Xlib/xcb and never told GLX about); id 0 (EGL_NO_SURFACE: surfaceless) gets a hidden
 * stand-in. */
ws_drawable *ws_drawable_of(uint64_t id)
{
    ws_drawable *d = ws_find_drawable(id);
    if (d)
        return d;
    if (id)
        return ws_add_drawable(id, 0, 0, false);
    return ws_add_drawable(0, WS_DEFAULT_SIZE, WS_DEFAULT_SIZE, true);
}

int ws_ensure_window(ws_drawable *d, const ws_profile *p)
{
    if (d->win)
        return 1;
    ws_set_gl_attributes(p);
    Uint32 fl = SDL_WINDOW_OPENGL |
                (d->pbuffer || ws.headless ? SDL_WINDOW_HIDDEN : SDL_WINDOW_SHOWN);
    d->win = SDL_CreateWindow("glretrace", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED,
                              d->w, d->h, fl);
    if (!d->win) {
        fprintf(stderr, "glretrace: warning: cannot create a %dx%d window: %s\n", d->w, d->h,
                SDL_GetError());
        return 0;
    }
    return 1;
}

/* The hidden 1x1 window that anchors are current on, and that resized windows' contexts
 * visit (gl_viewport); NULL when it cannot be made. */
SDL_Window *ws_helper_window(const ws_profile *prof)
{
    if (!ws.helper) {
        ws_set_gl_attributes(prof);
        ws.helper = SDL_CreateWindow("glretrace", SDL_WINDOWPOS_UNDEFINED,
                                     SDL_WINDOWPOS_UNDEFINED, 1, 1,
                                     SDL_WINDOW_OPENGL | SDL_WINDOW_HIDDEN);
    }
    return ws.helper;
}

/* SDL's offscreen driver draws into single-buffered EGL pbuffers, whose framebuffers
 * start reading the front buffer while they draw the back one (Mesa): each reads the
 * back buffer from its first binding on, as the traced double-buffered program's did
 * (GL_READ_BUFFER GL_BACK, and glReadPixels reads what was drawn). The read buffer is
 * the drawable's state, so each new pbuffer gets it. GLES 2 has no glReadBuffer. */
void ws_offscreen_read_back(ws_drawable *d)
{
    if (!ws.offscreen || ws.single_buffer || d->read_back)
        return;
    d->read_back = true;
    if (!epoxy_is_desktop_gl() && epoxy_gl_version() < 30)
        return;
    glReadBuffer(GL_BACK); /* an error (a framebuffer object bound) changes nothing */
    while (glGetError() != GL_NO_ERROR)
        ;
}

static void destroy_drawable(uint64_t traced)
{
    for (size_t i = 0; i < ws.ndraw; ++i) {
        ws_drawable *d = ws.draws[i];
        if (d->traced != traced)
            continue;
        if (drawable_in_use(d))
            return; /* still current: EGL destroys it when released */
        if (d->win) {
            if (ws_bound.win == d->win)
                ws_sdl_make_current(d->win, NULL), ws_bound.win = NULL;
            ws_destroy_window(d->win);
        }
        free(d);
        ws.draws[i] = ws.draws[--ws.ndraw];
        return;
    }
}

/* eglDestroySurface(dpy, surface), glXDestroyPbuffer(dpy, pbuf), glXDestroyWindow(dpy, win) */
void ws_destroy_surface(const gt_call *call)
{
    destroy_drawable(ws_u64(ws_arg(call, 1)));
}

static void swap(const gt_call *call, uint64_t traced)
{
    ws_drawable *d = ws_find_drawable(traced);
    replay_thread *t = ws.cur;
    if (!d || !d->win) {
        /* a drawable never made current: swap what this thread draws to */
        d = t ? t->draw : NULL;
    }
    ws.hooks.before_swap(call);
    if (d && d->win) {
        SDL_GL_SwapWindow(d->win);
        d->swapped = true;
    }
    else
        retrace_warning(call, "no window to swap");
    ws.hooks.after_swap(call);
}

/* glXSwapBuffers(dpy, drawable), eglSwapBuffers(dpy, surface) and the WithDamage variants */
void ws_swap_buffers(const gt_call *call)
{
    swap(call, ws_u64(ws_arg(call, 1)));
}

/* Resizes d's window and waits (200 ms at most) until the window system says it has
 * the new size, as apitrace waits for X's ConfigureNotify: GL must not see the old
 * size at its next validation of the drawable. */
static void resize_window(ws_drawable *d)
{
    if (ws.offscreen || !d->swapped) {
        /* SDL's offscreen windows are EGL pbuffers, which keep their size; and Mesa's
         * software GLX keeps the size a context first saw a window at until a swap, even
         * after a rebind (a range trace's first frame, drawn by a context bound first to
         * this window, came out 32x32): the drawable moves to a new window of the new
         * size (a resize loses the contents anyway; nothing was shown in it yet) */
        ws_set_gl_attributes(&ws.cur->ctx->prof);
        Uint32 shown = ws.offscreen || ws.headless ? SDL_WINDOW_HIDDEN : SDL_WINDOW_SHOWN;
        SDL_Window *win = SDL_CreateWindow("glretrace", SDL_WINDOWPOS_UNDEFINED,
                                           SDL_WINDOWPOS_UNDEFINED, d->w, d->h,
                                           SDL_WINDOW_OPENGL | shown);
        if (!win)
            return;
        SDL_Window *old = d->win;
        d->win = win;
        d->read_back = false;
        if (ws_bound.win == old) {
            ws_bound.win = NULL; /* force the bind */
            if (ws_sdl_make_current(win, ws_bound.ctx))
                ws_offscreen_read_back(d);
        }
        ws_destroy_window(old);
        return;
    }
    SDL_SetWindowSize(d->win, d->w, d->h);
    Uint32 id = SDL_GetWindowID(d->win);
    Uint32 t0 = SDL_GetTicks();
    for (;;) {
        SDL_PumpEvents();
        SDL_Event ev[16];
        int n = SDL_PeepEvents(ev, 16, SDL_GETEVENT, SDL_WINDOWEVENT, SDL_WINDOWEVENT);
        for (int i = 0; i < n; ++i)
            if (ev[i].window.windowID == id && ev[i].window.event == SDL_WINDOWEVENT_SIZE_CHANGED &&
                ev[i].window.data1 >= d->w && ev[i].window.data2 >= d->h)
                return;
        if (SDL_GetTicks() - t0 > 200)
            return;
        SDL_Delay(1);
    }
}

/* Whether a framebuffer object is bound for drawing: a viewport into an FBO (glmark2's
 * terrain, refract and shadow render to 512x512 textures) says nothing of the window's
 * size, and apitrace's glretrace leaves the window alone then too. */
static bool fbo_bound(void)
{
    int ver = epoxy_gl_version();
    bool has_fbo = ver >= 30 || (!epoxy_is_desktop_gl() && ver >= 20) ||
                   epoxy_has_gl_extension("GL_ARB_framebuffer_object") ||
                   epoxy_has_gl_extension("GL_EXT_framebuffer_object");
    if (!has_fbo)
        return false;
    GLint fbo = 0;
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &fbo);
    return fbo != 0;
}

/* The scissor box starts as the size of the window a context is first bound to: the
 * traced program's window had its full size then, ours grows only now. A box still at
 * the old size (the default; a program rarely sets exactly that) grows with the window,
 * as in the traced program and in apitrace's replay. */
static void grow_default_scissor(int old_w, int old_h, int w, int h)
{
    GLint box[4] = {-1, -1, -1, -1};
    glGetIntegerv(GL_SCISSOR_BOX, box);
    if (box[0] == 0 && box[1] == 0 && box[2] == old_w && box[3] == old_h)
        glScissor(0, 0, w, h);
}

/* glViewport(x, y, width, height): grows the current window to hold the viewport
 * (the recorder's fake glViewport gives each drawable its size), then replays it. */
static void gl_viewport(const gt_call *call)
{
    int x = (int)ws_int(ws_arg(call, 0)), y = (int)ws_int(ws_arg(call, 1));
    int w = (int)ws_int(ws_arg(call, 2)), h = (int)ws_int(ws_arg(call, 3));
    if (!ws_has_current())
        return;
    ws_drawable *d = ws.cur->draw;
    if (d && d->win && !d->pbuffer && x >= 0 && y >= 0 && w > 0 && h > 0 && w <= 16384 &&
        h <= 16384 && (x + w > d->w || y + h > d->h) && !fbo_bound()) {
        int old_w = d->w, old_h = d->h;
        if (x + w > d->w)
            d->w = x + w;
        if (y + h > d->h)
            d->h = y + h;
        resize_window(d);
        grow_default_scissor(old_w, old_h, d->w, d->h);
        if (ws.offscreen)
            goto done;
        /* Mesa's software GLX reads a drawable's size again only after a swap or
         * when a context comes to it from another drawable (apitrace's glretrace
         * does neither: it draws the frame before the first swap at its old size):
         * bind a hidden helper window, then the resized one again. */
        if (ws_helper_window(&ws.cur->ctx->prof) &&
            SDL_GL_MakeCurrent(ws.helper, ws_bound.ctx) == 0) {
            SDL_GL_MakeCurrent(d->win, ws_bound.ctx);
            if (ws_bound.read_split) /* the helper's bind dropped the read drawable */
                ws_read_bind(d->win, ws.cur->read->win, ws_bound.ctx);
        }
    }
done:
    glViewport(x, y, w, h);
}

static const ws_entry gl_calls[] = {
    {"glViewport", gl_viewport},
};
const ws_table ws_gl_table = {gl_calls, sizeof gl_calls / sizeof gl_calls[0]};
