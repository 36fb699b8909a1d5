/* Separate read drawables: SDL binds one window for drawing and reading, so the binding
 * is made again through the window system SDL used (GLX or EGL) with the read window's
 * drawable. Under GLX the windows' X ids come from SDL and the context goes straight
 * from its drawable to (draw, read): Mesa's software GLX drops a window's back buffer
 * when a context leaves it, so no bind may come between the one that drew to the read
 * window and this one (apitrace's glretrace binds straight too). SDL hands out no EGL
 * surfaces: binding the read window through SDL and asking EGL finds its surface. */
#include <SDL_syswm.h>
#include <epoxy/egl.h>
#include <epoxy/glx.h>
#include <stdbool.h>

#include "ws_private.h"

/* Whether SDL's contexts are GLX contexts here (asked with one current): only its X11
 * driver uses GLX, and not for the ES contexts it makes with EGL. */
static bool current_is_glx(void)
{
    const char *drv = SDL_GetCurrentVideoDriver();
    return drv && SDL_strcmp(drv, "x11") == 0 && glXGetCurrentContext() != NULL;
}

static bool x11_info(SDL_Window *win, SDL_SysWMinfo *info)
{
    SDL_VERSION(&info->version);
    return SDL_GetWindowWMInfo(win, info) && info->subsystem == SDL_SYSWM_X11;
}

/* SDL's GL contexts under X11 are GLXContexts. */
static int bind_glx(SDL_Window *draw, SDL_Window *read, SDL_GLContext ctx)
{
    SDL_SysWMinfo d, r;
    if (!x11_info(draw, &d) || !x11_info(read, &r))
        return SDL_SetError("no X11 window for a GLX read drawable"), 0;
    if (!glXMakeContextCurrent(d.info.x11.display, d.info.x11.window, r.info.x11.window,
                               (GLXContext)ctx))
        return SDL_SetError("glXMakeContextCurrent failed"), 0;
    return 1;
}

static int rebind_egl(SDL_Window *draw, SDL_GLContext ctx)
{
    EGLSurface read = eglGetCurrentSurface(EGL_DRAW);
    if (SDL_GL_MakeCurrent(draw, ctx) != 0)
        return 0;
    if (!eglMakeCurrent(eglGetCurrentDisplay(), eglGetCurrentSurface(EGL_DRAW), read,
                        eglGetCurrentContext()))
        return SDL_SetError("eglMakeCurrent failed: 0x%x", (unsigned)eglGetError()), 0;
    return 1;
}

int ws_read_bind(SDL_Window *draw, SDL_Window *read, SDL_GLContext ctx)
{
    if (!SDL_GL_GetCurrentContext() && SDL_GL_MakeCurrent(read, ctx) != 0)
        return 0; /* nothing current: current_is_glx asks the current context */
    if (current_is_glx())
        return bind_glx(draw, read, ctx);
    if (SDL_GL_MakeCurrent(read, ctx) != 0)
        return 0;
    return rebind_egl(draw, ctx);
}
