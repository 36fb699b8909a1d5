/* xray_game: a small GLX program built with clang -fxray-instrument, so one run
 * gives both an XRay FDR log of its own functions and (under gltrace) a GL trace
 * and live timeline: the merge test's input (tests/integration/timeline_merge.sh).
 * Game-like structure: update_world, render_scene -> draw_mesh per object.
 * Usage: xray_game [--frames N] [--fdr]
 *   --fdr: starts XRay's flight data recorder once the GL context is current and
 *          writes its log at exit (XRAY_OPTIONS="xray_logfile_base=..."). LLVM 14's
 *          FDR mode set up at start (xray_mode=xray-fdr in XRAY_OPTIONS) makes
 *          glvnd's first glXMakeCurrent fail an assertion, so the game starts it
 *          itself, as a game that traces a chosen stretch would.
 *   without it, XRAY_OPTIONS="patch_premain=true xray_mode=xray-basic" gives a
 *   basic-mode log. */
#include <GL/gl.h>
#include <GL/glx.h>
#include <X11/Xlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xray_runtime.h"

#define OBJECTS 4

static float angle[OBJECTS];

__attribute__((noinline)) static void update_world(int frame)
{
    for (int i = 0; i < OBJECTS; i++)
        angle[i] = (float)(frame * (i + 1) * 7 % 360);
}

__attribute__((noinline)) static void draw_mesh(int i)
{
    glPushMatrix();
    glRotatef(angle[i], 0.0f, 0.0f, 1.0f);
    glBegin(GL_TRIANGLES);
    glColor3f(1.0f, (float)i / OBJECTS, 0.0f);
    glVertex2f(-0.5f, -0.5f);
    glVertex2f(0.5f, -0.5f);
    glVertex2f(0.0f, 0.5f);
    glEnd();
    glPopMatrix();
}

__attribute__((noinline)) static void render_scene(void)
{
    glClearColor(0.1f, 0.1f, 0.2f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    for (int i = 0; i < OBJECTS; i++)
        draw_mesh(i);
}

static int start_fdr(void)
{
    /* statuses: select 0 = registered, init 2 = initialized, patch 1 = success; every
     * call kept (FDR drops calls under 5 us by default) */
    if (__xray_log_select_mode("xray-fdr") != 0 ||
        __xray_log_init_mode("xray-fdr", "func_duration_threshold_us=0") != 2 || __xray_patch() != 1) {
        fprintf(stderr, "xray_game: cannot start XRay FDR mode\n");
        return -1;
    }
    return 0;
}

static void flush_xray(void)
{
    /* FDR mode keeps its buffers until told: finalize, then write them out */
    __xray_log_finalize();
    __xray_log_flushLog();
}

int main(int argc, char **argv)
{
    int frames = 10, fdr = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--fdr") == 0)
            fdr = 1;
        else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc)
            frames = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: xray_game [--frames N] [--fdr]\n");
            return 2;
        }
    }
    Display *dpy = XOpenDisplay(NULL);
    if (!dpy) {
        fprintf(stderr, "xray_game: cannot open display\n");
        return 1;
    }
    int attribs[] = {GLX_RGBA, GLX_DOUBLEBUFFER, GLX_RED_SIZE, 1, None};
    XVisualInfo *vi = glXChooseVisual(dpy, DefaultScreen(dpy), attribs);
    if (!vi) {
        fprintf(stderr, "xray_game: no visual\n");
        return 1;
    }
    XSetWindowAttributes swa = {.colormap = XCreateColormap(dpy, RootWindow(dpy, vi->screen),
                                                            vi->visual, AllocNone)};
    Window win = XCreateWindow(dpy, RootWindow(dpy, vi->screen), 0, 0, 160, 120, 0, vi->depth,
                               InputOutput, vi->visual, CWColormap, &swa);
    XMapWindow(dpy, win);
    GLXContext ctx = glXCreateContext(dpy, vi, NULL, True);
    glXMakeCurrent(dpy, win, ctx);
    if (fdr && start_fdr() != 0)
        return 1;
    for (int f = 0; f < frames; f++) {
        update_world(f);
        render_scene();
        glXSwapBuffers(dpy, win);
    }
    glXMakeCurrent(dpy, None, NULL);
    glXDestroyContext(dpy, ctx);
    XDestroyWindow(dpy, win);
    XFree(vi);
    XCloseDisplay(dpy);
    if (fdr)
        flush_xray();
    return 0;
}
