/* read_drawable_app: a GLX context drawing to one window while reading another
 * (glXMakeContextCurrent(dpy, draw, read, ctx)), for tests/integration/qt_replay.sh.
 * Two 200x100 windows made with plain Xlib (no glXCreateWindow, as Qt makes them). A
 * warm-up frame clears both (the replayer sizes its windows); then each frame clears A
 * red, binds (draw B, read A), clears B blue and blits A's left half onto B: B shows red
 * on the left, blue on the right only when A is the read drawable. B is bound alone
 * again before its swap: a replayer's snapshot reads the read drawable. */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#include <GL/glx.h>
#include <stdio.h>

enum { W = 200, H = 100, FRAMES = 4 };

static void clear(float r, float g, float b)
{
    glViewport(0, 0, W, H);
    glClearColor(r, g, b, 1);
    glClear(GL_COLOR_BUFFER_BIT);
}

int main(void)
{
    Display *dpy = XOpenDisplay(NULL);
    if (!dpy) {
        fprintf(stderr, "read_drawable_app: no X display\n");
        return 1;
    }
    int att[] = {GLX_RGBA, GLX_DOUBLEBUFFER, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8,
                 GLX_BLUE_SIZE, 8, None};
    XVisualInfo *vi = glXChooseVisual(dpy, DefaultScreen(dpy), att);
    if (!vi) {
        fprintf(stderr, "read_drawable_app: no GLX visual\n");
        return 1;
    }
    XSetWindowAttributes swa = {0};
    swa.colormap = XCreateColormap(dpy, RootWindow(dpy, vi->screen), vi->visual, AllocNone);
    Window win[2];
    for (int i = 0; i < 2; ++i) {
        win[i] = XCreateWindow(dpy, RootWindow(dpy, vi->screen), 0, 0, W, H, 0, vi->depth,
                               InputOutput, vi->visual, CWColormap, &swa);
        XMapWindow(dpy, win[i]);
    }
    XSync(dpy, False);
    GLXContext ctx = glXCreateContext(dpy, vi, NULL, True);
    glXMakeCurrent(dpy, win[0], ctx);
    clear(0, 0, 0);
    glXMakeCurrent(dpy, win[1], ctx);
    clear(0, 0, 0);
    glXSwapBuffers(dpy, win[1]);
    for (int f = 0; f < FRAMES; ++f) {
        glXMakeCurrent(dpy, win[0], ctx);
        clear(1, 0, 0);
        glXMakeContextCurrent(dpy, win[1], win[0], ctx);
        clear(0, 0, 1);
        glBlitFramebuffer(0, 0, W / 2, H, 0, 0, W / 2, H, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        glXMakeCurrent(dpy, win[1], ctx); /* snapshots read the read drawable: B's */
        glXSwapBuffers(dpy, win[1]);
    }
    glXMakeCurrent(dpy, None, NULL);
    glXDestroyContext(dpy, ctx);
    XFree(vi);
    XCloseDisplay(dpy);
    return 0;
}
