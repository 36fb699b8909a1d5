/* The window of the small GLX programs the integration scripts build themselves
 * (backtrace.sh, backtrace_compressed.sh: `cc -I tests/integration`): a SIZExSIZE
 * double-buffered RGBA window with a legacy context, current. */
#ifndef GLTRACE_GLX_WINDOW_H
#define GLTRACE_GLX_WINDOW_H

#include <GL/glx.h>
#include <stdio.h>

/* 0 on success (*dpy, *win, *ctx set), else 1 with a message on stderr. */
static int glxw_open(int size, Display **dpy, Window *win, GLXContext *ctx)
{
    *dpy = XOpenDisplay(NULL);
    if (!*dpy) {
        fprintf(stderr, "bt_prog: cannot open the display\n");
        return 1;
    }
    int attr[] = {GLX_RGBA, GLX_DOUBLEBUFFER, None};
    XVisualInfo *vi = glXChooseVisual(*dpy, DefaultScreen(*dpy), attr);
    if (!vi)
        return 1;
    XSetWindowAttributes swa = {0};
    swa.colormap = XCreateColormap(*dpy, RootWindow(*dpy, vi->screen), vi->visual, AllocNone);
    *win = XCreateWindow(*dpy, RootWindow(*dpy, vi->screen), 0, 0, size, size, 0, vi->depth,
                         InputOutput, vi->visual, CWColormap, &swa);
    *ctx = glXCreateContext(*dpy, vi, NULL, True);
    XFree(vi);
    glXMakeCurrent(*dpy, *win, *ctx);
    return 0;
}

/* Unbinds and destroys the context, closes the display. */
static void glxw_close(Display *dpy, GLXContext ctx)
{
    glXMakeCurrent(dpy, None, NULL);
    glXDestroyContext(dpy, ctx);
    XCloseDisplay(dpy);
}

#endif
