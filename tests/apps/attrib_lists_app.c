/* attrib_lists_app: calls the GLX (`glx`) or EGL (`egl`) functions that take attribute
 * lists with a non-empty, an empty and a NULL list each, for
 * tests/integration/attrib_lists.sh, which records it with gltrace and apitrace and
 * compares the lists in both dumps. Some calls fail (a list the driver refuses); only
 * how they are recorded matters. X errors are ignored for that reason. */
#define GL_GLEXT_PROTOTYPES
#define EGL_EGLEXT_PROTOTYPES
#include <stdio.h>
#include <string.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glx.h>
#include <X11/Xlib.h>

static int ignore_x_error(Display *dpy, XErrorEvent *e)
{
    (void)dpy, (void)e;
    return 0;
}

static Window small_window(Display *dpy)
{
    Window w = XCreateSimpleWindow(dpy, DefaultRootWindow(dpy), 0, 0, 32, 32, 0, 0, 0);
    XSync(dpy, False);
    return w;
}

/* ---- GLX ------------------------------------------------------------------------- */

static GLXFBConfig glx_lists_fbconfig(Display *dpy)
{
    const int choose[] = {GLX_RENDER_TYPE, GLX_RGBA_BIT, GLX_DRAWABLE_TYPE,
                          GLX_WINDOW_BIT | GLX_PBUFFER_BIT, GLX_DOUBLEBUFFER, True,
                          GLX_X_RENDERABLE, True, GLX_X_VISUAL_TYPE, GLX_TRUE_COLOR,
                          GLX_CONFIG_CAVEAT, GLX_DONT_CARE, GLX_RED_SIZE, 8, GLX_DEPTH_SIZE, 16,
                          None};
    const int empty[] = {None};
    int n = 0;
    GLXFBConfig *none = glXChooseFBConfig(dpy, DefaultScreen(dpy), NULL, &n);
    XFree(none);
    GLXFBConfig *any = glXChooseFBConfig(dpy, DefaultScreen(dpy), empty, &n);
    XFree(any);
    GLXFBConfig *configs = glXChooseFBConfig(dpy, DefaultScreen(dpy), choose, &n);
    GLXFBConfig config = n > 0 ? configs[0] : NULL;
    XFree(configs);
    return config;
}

static void glx_lists_visual(Display *dpy)
{
    /* GLX_RGBA and GLX_DOUBLEBUFFER take no value here */
    int rgba[] = {GLX_RGBA, GLX_DOUBLEBUFFER, GLX_RED_SIZE, 1, GLX_GREEN_SIZE, 1,
                  GLX_BLUE_SIZE, 1, GLX_DEPTH_SIZE, 16, GLX_X_VISUAL_TYPE, GLX_TRUE_COLOR, None};
    int empty[] = {None};
    XFree(glXChooseVisual(dpy, DefaultScreen(dpy), rgba));
    XFree(glXChooseVisual(dpy, DefaultScreen(dpy), empty));
}

static void glx_lists_context(Display *dpy, GLXFBConfig config)
{
    PFNGLXCREATECONTEXTATTRIBSARBPROC create = (PFNGLXCREATECONTEXTATTRIBSARBPROC)
        glXGetProcAddressARB((const GLubyte *)"glXCreateContextAttribsARB");
    const int core[] = {GLX_CONTEXT_MAJOR_VERSION_ARB, 3, GLX_CONTEXT_MINOR_VERSION_ARB, 3,
                        GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_CORE_PROFILE_BIT_ARB,
                        GLX_CONTEXT_FLAGS_ARB, GLX_CONTEXT_FORWARD_COMPATIBLE_BIT_ARB,
                        GLX_RENDER_TYPE, GLX_RGBA_TYPE, None};
    const int empty[] = {None};
    const int *lists[] = {core, empty, NULL};
    for (int i = 0; create && i < 3; ++i) {
        GLXContext ctx = create(dpy, config, NULL, True, lists[i]);
        XSync(dpy, False);
        if (ctx)
            glXDestroyContext(dpy, ctx);
    }
}

static void glx_lists_drawables(Display *dpy, GLXFBConfig config)
{
    const int pbuffer[] = {GLX_PBUFFER_WIDTH, 16, GLX_PBUFFER_HEIGHT, 16,
                           GLX_LARGEST_PBUFFER, False, GLX_PRESERVED_CONTENTS, True, None};
    const int empty[] = {None};
    const int *lists[] = {pbuffer, empty, NULL};
    for (int i = 0; i < 2; ++i) { /* Mesa's glXCreatePbuffer crashes on NULL */
        GLXPbuffer pb = glXCreatePbuffer(dpy, config, lists[i]);
        XSync(dpy, False);
        if (pb)
            glXDestroyPbuffer(dpy, pb);
    }
    for (int i = 1; i < 3; ++i) { /* glXCreateWindow takes no attributes yet */
        GLXWindow w = glXCreateWindow(dpy, config, small_window(dpy), lists[i]);
        XSync(dpy, False);
        if (w)
            glXDestroyWindow(dpy, w);
    }
}

static int run_glx(Display *dpy)
{
    glx_lists_visual(dpy);
    GLXFBConfig config = glx_lists_fbconfig(dpy);
    if (!config) {
        fprintf(stderr, "attrib_lists_app: no GLX config\n");
        return 1;
    }
    glx_lists_context(dpy, config);
    glx_lists_drawables(dpy, config);
    return 0;
}

/* ---- EGL ------------------------------------------------------------------------- */

static EGLDisplay egl_lists_display(Display *x)
{
    const EGLAttrib screen[] = {EGL_PLATFORM_X11_SCREEN_KHR, 0, EGL_NONE};
    const EGLint screen_ext[] = {EGL_PLATFORM_X11_SCREEN_EXT, 0, EGL_NONE};
    const EGLAttrib empty[] = {EGL_NONE};
    const EGLint empty_ext[] = {EGL_NONE};
    eglGetPlatformDisplay(EGL_PLATFORM_X11_KHR, x, NULL);
    eglGetPlatformDisplay(EGL_PLATFORM_X11_KHR, x, empty);
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_ext = (PFNEGLGETPLATFORMDISPLAYEXTPROC)
        eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (get_ext) {
        get_ext(EGL_PLATFORM_X11_EXT, x, NULL);
        get_ext(EGL_PLATFORM_X11_EXT, x, empty_ext);
        get_ext(EGL_PLATFORM_X11_EXT, x, screen_ext);
    }
    return eglGetPlatformDisplay(EGL_PLATFORM_X11_KHR, x, screen);
}

static EGLConfig egl_lists_config(EGLDisplay dpy)
{
    const EGLint choose[] = {EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8,
                             EGL_DEPTH_SIZE, 16, EGL_SURFACE_TYPE, EGL_WINDOW_BIT | EGL_PBUFFER_BIT,
                             EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_CONFIG_CAVEAT, EGL_NONE,
                             EGL_COLOR_BUFFER_TYPE, EGL_RGB_BUFFER, EGL_BIND_TO_TEXTURE_RGBA,
                             EGL_DONT_CARE, EGL_NONE};
    const EGLint empty[] = {EGL_NONE};
    EGLConfig config = NULL;
    EGLint n = 0;
    eglChooseConfig(dpy, NULL, &config, 1, &n);
    eglChooseConfig(dpy, empty, &config, 1, &n);
    if (!eglChooseConfig(dpy, choose, &config, 1, &n) || n < 1)
        return NULL;
    return config;
}

static EGLContext egl_lists_context(EGLDisplay dpy, EGLConfig config)
{
    const EGLint es2[] = {EGL_CONTEXT_MAJOR_VERSION, 2, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE};
    const EGLint empty[] = {EGL_NONE};
    eglBindAPI(EGL_OPENGL_ES_API);
    EGLContext a = eglCreateContext(dpy, config, EGL_NO_CONTEXT, NULL);
    EGLContext b = eglCreateContext(dpy, config, EGL_NO_CONTEXT, empty);
    if (a != EGL_NO_CONTEXT)
        eglDestroyContext(dpy, a);
    if (b != EGL_NO_CONTEXT)
        eglDestroyContext(dpy, b);
    return eglCreateContext(dpy, config, EGL_NO_CONTEXT, es2);
}

static void egl_lists_windows(EGLDisplay dpy, EGLConfig config, Display *x)
{
    const EGLint back[] = {EGL_RENDER_BUFFER, EGL_BACK_BUFFER, EGL_NONE};
    const EGLint empty[] = {EGL_NONE};
    const EGLAttrib back_attrib[] = {EGL_RENDER_BUFFER, EGL_BACK_BUFFER, EGL_NONE};
    const EGLAttrib empty_attrib[] = {EGL_NONE};
    const EGLint *lists[] = {back, empty, NULL};
    const EGLAttrib *attrib_lists[] = {back_attrib, empty_attrib, NULL};
    for (int i = 0; i < 3; ++i) {
        EGLSurface s = eglCreateWindowSurface(dpy, config, small_window(x), lists[i]);
        if (s != EGL_NO_SURFACE)
            eglDestroySurface(dpy, s);
        Window w = small_window(x);
        s = eglCreatePlatformWindowSurface(dpy, config, &w, attrib_lists[i]);
        if (s != EGL_NO_SURFACE)
            eglDestroySurface(dpy, s);
    }
}

static EGLSurface egl_lists_pbuffers(EGLDisplay dpy, EGLConfig config)
{
    const EGLint size[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_LARGEST_PBUFFER, EGL_TRUE,
                           EGL_TEXTURE_FORMAT, EGL_NO_TEXTURE, EGL_NONE};
    const EGLint empty[] = {EGL_NONE};
    EGLSurface a = eglCreatePbufferSurface(dpy, config, NULL);
    EGLSurface b = eglCreatePbufferSurface(dpy, config, empty);
    if (a != EGL_NO_SURFACE)
        eglDestroySurface(dpy, a);
    if (b != EGL_NO_SURFACE)
        eglDestroySurface(dpy, b);
    return eglCreatePbufferSurface(dpy, config, size);
}

/* Needs a current context: syncs and images of a texture. */
static void egl_lists_sync_image(EGLDisplay dpy, EGLContext ctx)
{
    const EGLAttrib bad[] = {EGL_SYNC_STATUS, EGL_SIGNALED, EGL_NONE}; /* refused: a fence takes none */
    const EGLAttrib empty[] = {EGL_NONE};
    const EGLAttrib *lists[] = {bad, empty, NULL};
    for (int i = 0; i < 3; ++i) {
        EGLSync s = eglCreateSync(dpy, EGL_SYNC_FENCE, lists[i]);
        if (s != EGL_NO_SYNC)
            eglDestroySync(dpy, s);
    }
    GLuint tex = 0;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    const EGLAttrib level[] = {EGL_GL_TEXTURE_LEVEL, 0, EGL_IMAGE_PRESERVED, EGL_TRUE, EGL_NONE};
    const EGLint level_khr[] = {EGL_GL_TEXTURE_LEVEL, 0, EGL_IMAGE_PRESERVED, EGL_TRUE, EGL_NONE};
    EGLClientBuffer buf = (EGLClientBuffer)(uintptr_t)tex;
    const EGLAttrib *image_lists[] = {level, empty, NULL};
    for (int i = 0; i < 3; ++i) {
        EGLImage img = eglCreateImage(dpy, ctx, EGL_GL_TEXTURE_2D, buf, image_lists[i]);
        if (img != EGL_NO_IMAGE)
            eglDestroyImage(dpy, img);
    }
    PFNEGLCREATEIMAGEKHRPROC create_khr =
        (PFNEGLCREATEIMAGEKHRPROC)eglGetProcAddress("eglCreateImageKHR");
    PFNEGLDESTROYIMAGEKHRPROC destroy_khr =
        (PFNEGLDESTROYIMAGEKHRPROC)eglGetProcAddress("eglDestroyImageKHR");
    if (create_khr && destroy_khr) {
        EGLImageKHR img = create_khr(dpy, ctx, EGL_GL_TEXTURE_2D_KHR, buf, level_khr);
        if (img != EGL_NO_IMAGE_KHR)
            destroy_khr(dpy, img);
    }
    glDeleteTextures(1, &tex);
}

static int run_egl(Display *x)
{
    EGLDisplay dpy = egl_lists_display(x);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL)) {
        fprintf(stderr, "attrib_lists_app: no EGL display\n");
        return 1;
    }
    EGLConfig config = egl_lists_config(dpy);
    if (!config) {
        fprintf(stderr, "attrib_lists_app: no EGL config\n");
        return 1;
    }
    EGLContext ctx = egl_lists_context(dpy, config);
    egl_lists_windows(dpy, config, x);
    EGLSurface pb = egl_lists_pbuffers(dpy, config);
    if (ctx != EGL_NO_CONTEXT && pb != EGL_NO_SURFACE && eglMakeCurrent(dpy, pb, pb, ctx))
        egl_lists_sync_image(dpy, ctx);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglTerminate(dpy);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2 || (strcmp(argv[1], "glx") && strcmp(argv[1], "egl"))) {
        fprintf(stderr, "usage: attrib_lists_app glx|egl\n");
        return 2;
    }
    Display *dpy = XOpenDisplay(NULL);
    if (!dpy) {
        fprintf(stderr, "attrib_lists_app: cannot open the X display\n");
        return 1;
    }
    XSetErrorHandler(ignore_x_error);
    int rc = strcmp(argv[1], "glx") ? run_egl(dpy) : run_glx(dpy);
    XCloseDisplay(dpy);
    return rc;
}
