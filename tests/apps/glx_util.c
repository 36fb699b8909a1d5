/* See glx_util.h. */
#include "glx_util.h"
#include "app_common.h"

#include <stdio.h>
#include <string.h>

const int app_glx_core33_attribs[] = {
    GLX_CONTEXT_MAJOR_VERSION_ARB, 3,
    GLX_CONTEXT_MINOR_VERSION_ARB, 3,
    GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_CORE_PROFILE_BIT_ARB,
    None,
};

const int app_glx_rgba8_attribs[] = {
    GLX_X_RENDERABLE, True, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT, GLX_RENDER_TYPE, GLX_RGBA_BIT,
    GLX_X_VISUAL_TYPE, GLX_TRUE_COLOR, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8,
    GLX_DOUBLEBUFFER, True, None,
};

int app_has_extension(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && (p = strstr(p, name)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

Window app_glx_window(Display *dpy, const int *fb_attribs, const char *tag, GLXFBConfig *config)
{
    int screen = DefaultScreen(dpy);
    const char *glx_exts = glXQueryExtensionsString(dpy, screen);
    if (!app_has_extension(glx_exts, "GLX_ARB_create_context") ||
        !app_has_extension(glx_exts, "GLX_ARB_create_context_profile")) {
        fprintf(stderr, "%s: GLX_ARB_create_context(_profile) not supported\n", tag);
        return 0;
    }
    int n_configs = 0;
    GLXFBConfig *configs = glXChooseFBConfig(dpy, screen, fb_attribs, &n_configs);
    if (!configs || n_configs == 0) {
        fprintf(stderr, "%s: no suitable GLXFBConfig\n", tag);
        return 0;
    }
    *config = configs[0]; /* sorted best first; single-sampled ones come first */
    XFree(configs);
    XVisualInfo *vi = glXGetVisualFromFBConfig(dpy, *config);
    if (!vi) {
        fprintf(stderr, "%s: GLXFBConfig has no X visual\n", tag);
        return 0;
    }
    Window win = app_create_window(dpy, vi, tag);
    XFree(vi);
    return win;
}

Window app_glx_open(const char *tag, const int *fb_attribs, Display **dpy, GLXFBConfig *config)
{
    *dpy = app_open_display(tag);
    if (!*dpy)
        return 0;
    return app_glx_window(*dpy, fb_attribs ? fb_attribs : app_glx_rgba8_attribs, tag, config);
}

static int ctx_error;
static int on_x_error(Display *dpy, XErrorEvent *ev)
{
    (void)dpy;
    (void)ev;
    ctx_error = 1;
    return 0;
}

GLXContext app_glx_create_context(Display *dpy, PFNGLXCREATECONTEXTATTRIBSARBPROC create,
                                  GLXFBConfig config, GLXContext share, const int *attribs)
{
    ctx_error = 0;
    int (*old_handler)(Display *, XErrorEvent *) = XSetErrorHandler(on_x_error);
    GLXContext ctx = create(dpy, config, share, True, attribs);
    XSync(dpy, False);
    XSetErrorHandler(old_handler);
    return ctx_error ? NULL : ctx;
}

GLXContext app_glx_core_context(Display *dpy, Window win, GLXFBConfig config, const char *tag,
                                int major, int minor, PFNGLXCREATECONTEXTATTRIBSARBPROC *create)
{
    *create = (PFNGLXCREATECONTEXTATTRIBSARBPROC)glXGetProcAddressARB(
        (const GLubyte *)"glXCreateContextAttribsARB");
    if (!*create) {
        fprintf(stderr, "%s: glXCreateContextAttribsARB not available\n", tag);
        return NULL;
    }
    const int attribs[] = {
        GLX_CONTEXT_MAJOR_VERSION_ARB, major,
        GLX_CONTEXT_MINOR_VERSION_ARB, minor,
        GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_CORE_PROFILE_BIT_ARB,
        None,
    };
    GLXContext ctx = app_glx_create_context(dpy, *create, config, NULL, attribs);
    if (!ctx) {
        fprintf(stderr, "%s: cannot create an OpenGL %d.%d core profile context\n", tag, major, minor);
        return NULL;
    }
    if (!glXMakeCurrent(dpy, win, ctx)) {
        fprintf(stderr, "%s: glXMakeCurrent failed\n", tag);
        return NULL;
    }
    return ctx;
}

GLXContext app_glx_core33_context(Display *dpy, Window win, GLXFBConfig config, const char *tag,
                                  PFNGLXCREATECONTEXTATTRIBSARBPROC *create)
{
    return app_glx_core_context(dpy, win, config, tag, 3, 3, create);
}

void app_glx_close(Display *dpy, Window win, GLXContext ctx)
{
    glXMakeCurrent(dpy, None, NULL);
    glXDestroyContext(dpy, ctx);
    app_destroy_window(dpy, win);
    XCloseDisplay(dpy);
}
