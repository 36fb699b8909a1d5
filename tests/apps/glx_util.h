/* GLX set-up shared by the demo apps that ask for an OpenGL 3.3 core profile context
 * (gl33_demo, map_app; client_arrays_app uses app_glx_close): the window on a chosen GLXFBConfig and the context made with
 * glXCreateContextAttribsARB, an X error during its creation counting as a failure. */
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

/* create(dpy, config, share, True, attribs) with an X error handler in place and an XSync
 * after; returns NULL if it returned NULL or raised an X error. */
GLXContext app_glx_create_context(Display *dpy, PFNGLXCREATECONTEXTATTRIBSARBPROC create,
                                  GLXFBConfig config, GLXContext share, const int *attribs);

/* Fetches glXCreateContextAttribsARB (into *create), creates an unshared 3.3 core profile
 * context on config and makes it current on win (glXMakeCurrent). Returns NULL on failure,
 * with "TAG: ..." on stderr. */
GLXContext app_glx_core33_context(Display *dpy, Window win, GLXFBConfig config, const char *tag,
                                  PFNGLXCREATECONTEXTATTRIBSARBPROC *create);

/* The end of a GLX app: glXMakeCurrent(dpy, None, NULL), glXDestroyContext(ctx),
 * app_destroy_window(win), XCloseDisplay. */
void app_glx_close(Display *dpy, Window win, GLXContext ctx);

#endif
