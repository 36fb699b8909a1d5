/* Binding SDL's GL contexts on the replay's hot path. Under X11, SDL_GL_MakeCurrent makes
 * an XSync round trip before each glXMakeCurrent (to tell the bind's X errors from
 * earlier ones): where traced threads share an OS thread, each switch between them
 * binds, and that round trip was most of a switch's cost (28-42 us against ~3 us for
 * the bind itself; Mesa's direct GLX binds without a request to the server). Contexts
 * SDL made with GLX are therefore bound straight with glXMakeCurrent on the window's X
 * id (SDL_GetWindowWMInfo), as apitrace's glretrace binds.
 *
 * SDL keeps the calling thread's current window and context in two thread-local slots
 * (SDL_TLSGet/SDL_TLSSet ids), which SDL_GL_GetCurrentContext, SDL_GL_SwapWindow,
 * SDL_GL_DeleteContext, SDL_GL_CreateContext (sharing) and the profilers read: a
 * straight bind writes them as SDL_GL_MakeCurrent would. Their ids are found once per
 * SDL session, after SDL itself made a context current (each slot must hold exactly
 * its value), and every straight bind checks that SDL's getters then return what was
 * bound; when either fails, binds go through SDL_GL_MakeCurrent again. SDL's one other
 * record, the last window it bound on any thread, makes SDL_DestroyWindow release the
 * calling thread's context when that window goes: ws_destroy_window binds it again. */
#include <SDL_syswm.h>
#include <epoxy/glx.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "gt_grow.h"
#include "ws_private.h"

/* The SDL session's slots (0: unknown) and its GLX contexts. */
static struct {
    SDL_TLSID win_slot, ctx_slot;
    bool off;  /* a check failed: SDL_GL_MakeCurrent only, until ws_bind_reset */
    SDL_GLContext *glx; /* the contexts SDL made with GLX */
    size_t nglx, capglx;
} sb;

void ws_bind_reset(void)
{
    free(sb.glx);
    memset(&sb, 0, sizeof sb);
}

static bool is_glx(SDL_GLContext ctx)
{
    for (size_t i = 0; i < sb.nglx; ++i)
        if (sb.glx[i] == ctx)
            return true;
    return false;
}

/* The TLS slot holding V on this thread, if exactly one does (SDL's ids are small). */
static SDL_TLSID slot_of(const void *v)
{
    SDL_TLSID found = 0;
    for (SDL_TLSID id = 1; id <= 64; ++id)
        if (SDL_TLSGet(id) == v) {
            if (found)
                return 0;
            found = id;
        }
    return found;
}

void ws_bind_note_context(SDL_Window *win, SDL_GLContext ctx)
{
    const char *drv = SDL_GetCurrentVideoDriver();
    if (!ctx || !drv || SDL_strcmp(drv, "x11") != 0 || glXGetCurrentContext() != (GLXContext)ctx)
        return; /* not a GLX context (EGL: eglMakeCurrent makes no round trip) */
    if (GT_GROW(sb.glx, sb.capglx, sb.nglx + 1, 8) != 0)
        return; /* out of memory: this one binds through SDL */
    sb.glx[sb.nglx++] = ctx;
    if (sb.win_slot || sb.off || SDL_GL_GetCurrentContext() != ctx ||
        SDL_GL_GetCurrentWindow() != win)
        return;
    sb.win_slot = slot_of(win);
    sb.ctx_slot = slot_of(ctx);
    if (!sb.win_slot || !sb.ctx_slot || sb.win_slot == sb.ctx_slot)
        sb.win_slot = sb.ctx_slot = 0;
}

void ws_bind_forget_context(SDL_GLContext ctx)
{
    for (size_t i = 0; i < sb.nglx; ++i)
        if (sb.glx[i] == ctx) {
            sb.glx[i] = sb.glx[--sb.nglx];
            return;
        }
}

static bool x11_window(SDL_Window *win, Display **dpy, Window *xid)
{
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!win || !SDL_GetWindowWMInfo(win, &info) || info.subsystem != SDL_SYSWM_X11)
        return false;
    *dpy = info.info.x11.display;
    *xid = info.info.x11.window;
    return true;
}

/* glXMakeCurrent(WIN's X window, CTX) and SDL told so: 1, 0 when it could not be tried
 * (SDL binds), -1 when GLX failed (SDL's error set). */
static int bind_straight(SDL_Window *win, SDL_GLContext ctx)
{
    SDL_GLContext old = SDL_GL_GetCurrentContext();
    Display *dpy;
    Window xid;
    if (!sb.win_slot || sb.off || !(ctx ? is_glx(ctx) : old && is_glx(old)) ||
        !x11_window(win, &dpy, &xid))
        return 0;
    if (!glXMakeCurrent(dpy, ctx ? xid : None, (GLXContext)ctx))
        return SDL_SetError("glXMakeCurrent failed"), -1;
    SDL_Window *sdl_win = ctx ? win : NULL; /* SDL records no window without a context */
    SDL_TLSSet(sb.win_slot, sdl_win, NULL);
    SDL_TLSSet(sb.ctx_slot, ctx, NULL);
    if (SDL_GL_GetCurrentWindow() == sdl_win && SDL_GL_GetCurrentContext() == ctx)
        return 1;
    sb.off = true; /* the slots were not SDL's: SDL binds from now on */
    return 0;
}

int ws_bind(SDL_Window *win, SDL_GLContext ctx)
{
    int r = bind_straight(win, ctx);
    if (r != 0)
        return r > 0 ? 0 : -1;
    return SDL_GL_MakeCurrent(win, ctx);
}

void ws_destroy_window(SDL_Window *win)
{
    SDL_GLContext had = SDL_GL_GetCurrentContext();
    SDL_DestroyWindow(win);
    if (!had || SDL_GL_GetCurrentContext() == had || ws_bound.win == win)
        return;
    /* SDL released this thread's context: SDL_DestroyWindow does when WIN was the
     * window SDL itself bound last, here or on another thread */
    memset(&ws_bound, 0, sizeof ws_bound);
    ws_rebind();
}
