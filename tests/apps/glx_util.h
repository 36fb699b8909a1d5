/* GLX set-up shared by the demo apps that draw through a GLXFBConfig (gl33_demo, map_app,
 * coherent_app, answers_app, markers_app, dsa_app, ...; client_arrays_app uses
 * app_glx_close): the display and the window on a chosen GLXFBConfig, and the core
 * profile context made with glXCreateContextAttribsARB, an X error during its creation
 * counting as a failure. */
#ifndef GLTRACE_APPS_GLX_UTIL_H
#define GLTRACE_APPS_GLX_UTIL_H

#include <GL/gl.h>
#include <GL/glx.h>

/* GLX_CONTEXT_MAJOR/MINOR_VERSION_ARB 3.3, GLX_CONTEXT_CORE_PROFILE_BIT_ARB, None. */
extern const int app_glx_core33_attribs[];

/* 1 if the space-separated extension list `list` (may be NULL) holds `name`. */
int app_has_extension(const char *list, const char *name);

/* Checks that GLX has GLX_ARB_create_context(_profile), takes the first GLXFBConfig that
 * glXChooseFBConfig gives for fb_attribs (into *config) and creates the app window (title
 * TAG) with its visual. Returns 0 on failure, with "TAG: ..." on stderr. */
Window app_glx_window(Display *dpy, const int *fb_attribs, const char *tag, GLXFBConfig *config);

/* The window config most apps ask for: RGBA8, true colour, double-buffered, no depth. */
extern const int app_glx_rgba8_attribs[];

/* app_open_display, then app_glx_window with fb_attribs (NULL: app_glx_rgba8_attribs):
 * the display into *dpy, the config into *config. Returns the mapped window, or 0 on
 * failure (message on stderr). */
Window app_glx_open(const char *tag, const int *fb_attribs, Display **dpy, GLXFBConfig *config);

/* create(dpy, config, share, True, attribs) with an X error handler in place and an XSync
 * after; returns NULL if it returned NULL or raised an X error. */
GLXContext app_glx_create_context(Display *dpy, PFNGLXCREATECONTEXTATTRIBSARBPROC create,
                                  GLXFBConfig config, GLXContext share, const int *attribs);

/* Fetches glXCreateContextAttribsARB (into *create), creates an unshared MAJOR.MINOR core
 * profile context on config and makes it current on win (glXMakeCurrent). Returns NULL on
 * failure, with "TAG: ..." on stderr. */
GLXContext app_glx_core_context(Display *dpy, Window win, GLXFBConfig config, const char *tag,
                                int major, int minor, PFNGLXCREATECONTEXTATTRIBSARBPROC *create);
/* app_glx_core_context for OpenGL 3.3 */
GLXContext app_glx_core33_context(Display *dpy, Window win, GLXFBConfig config, const char *tag,
                                  PFNGLXCREATECONTEXTATTRIBSARBPROC *create);

/* The end of a GLX app: glXMakeCurrent(dpy, None, NULL), glXDestroyContext(ctx),
 * app_destroy_window(win), XCloseDisplay. */
void app_glx_close(Display *dpy, Window win, GLXContext ctx);

#endif
