/* es_ms_app: OpenGL ES 3.2 on EGL (an X11 window) with multisample objects made and
 * painted before frame 0, a value per sample (a fragment shader reading gl_SampleID): a
 * 2D multisample RGBA8 texture (immutable), a 2D multisample array RGBA8 of 2 layers, a
 * 2D multisample RGBA8UI texture and a multisample RGBA8 renderbuffer, 4 samples each.
 * Every frame reads one sample of each texel of the textures into the window (the
 * sample and layer chosen by the frame) and resolves the renderbuffer into it with
 * blits, drawing nothing into them: a frame range's trace replays to the same frames only
 * if its state snapshot writes every sample (GLES: read through a compute shader and a
 * read map; tests/integration/snapshot_objects.sh). Options as the other demo apps
 * (app_common.h; --save is not taken). */
#include <EGL/egl.h>
#include <GLES3/gl32.h>
#include <X11/Xutil.h>

#include <stdio.h>
#include <string.h>

#include "app_common.h"

#define TAG "es_ms_app"

static const char *const paint_vs =
    "#version 320 es\n"
    "void main() { int v = gl_VertexID;\n"
    "  gl_Position = vec4(v == 1 ? 3.0 : -1.0, v == 2 ? 3.0 : -1.0, 0.0, 1.0); }\n";

static const char *const paint_fs =
    "#version 320 es\n"
    "precision highp float;\n"
    "uniform int layer;\n"
    "out vec4 color;\n"
    "void main() {\n"
    "  vec2 p = floor(gl_FragCoord.xy); float s = float(gl_SampleID);\n"
    "  color = vec4(fract(p.x * 0.11 + s * 0.25), fract(p.y * 0.09 + float(layer) * 0.5),\n"
    "               fract((p.x + p.y) * 0.05 + s * 0.37), 1.0 - s * 0.2);\n"
    "}\n";

static const char *const paint_uint_fs =
    "#version 320 es\n"
    "precision highp int;\n"
    "out uvec4 color;\n"
    "void main() {\n"
    "  uvec2 p = uvec2(gl_FragCoord.xy);\n"
    "  color = uvec4(p.x * 7u + uint(gl_SampleID) * 60u, p.y * 5u, uint(gl_SampleID) * 80u, 200u);\n"
    "}\n";

static const char *const sample_vs =
    "#version 320 es\n"
    "out vec2 uv;\n"
    "void main() { int v = gl_VertexID;\n"
    "  uv = vec2(v & 1, v >> 1);\n"
    "  gl_Position = vec4(uv * 2.0 - 1.0, 0.0, 1.0); }\n";

static const char *const sample_fs =
    "#version 320 es\n"
    "precision highp float;\n"
    "in vec2 uv;\n"
    "out vec4 color;\n"
    "uniform highp sampler2DMS ms2d; uniform highp sampler2DMSArray msarr;\n"
    "uniform highp usampler2DMS msuint;\n"
    "uniform int which; uniform int frame;\n"
    "void main() {\n"
    "  int s = (frame + which) % 4;\n"
    "  if (which == 0) color = texelFetch(ms2d, ivec2(uv * 31.9), s);\n"
    "  else if (which == 1) color = texelFetch(msarr, ivec3(ivec2(uv * 15.9), frame % 2), s);\n"
    "  else color = vec4(texelFetch(msuint, ivec2(uv * 15.9), s)) / 255.0;\n"
    "}\n";

enum { MS_2D, MS_ARRAY, MS_UINT, MS_RB, MS_N };

static GLuint shader(GLenum type, const char *src)
{
    GLuint sh = glCreateShader(type);
    GLint ok = 0;
    glShaderSource(sh, 1, &src, NULL);
    glCompileShader(sh);
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[512] = "";
        glGetShaderInfoLog(sh, sizeof log, NULL, log);
        fprintf(stderr, TAG ": shader compile failed: %s\n", log);
    }
    return sh;
}

static GLuint program(const char *vs, const char *fs)
{
    GLuint p = glCreateProgram(), v = shader(GL_VERTEX_SHADER, vs),
           f = shader(GL_FRAGMENT_SHADER, fs);
    GLint ok = 0;
    glAttachShader(p, v);
    glAttachShader(p, f);
    glLinkProgram(p);
    glDeleteShader(v);
    glDeleteShader(f);
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        fprintf(stderr, TAG ": program link failed\n");
        glDeleteProgram(p);
        return 0;
    }
    return p;
}

static void draw_into(GLuint fb, GLenum textarget, GLuint tex, GLint layer, int size)
{
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    if (textarget == GL_RENDERBUFFER)
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, tex);
    else if (layer >= 0)
        glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex, 0, layer);
    else
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, textarget, tex, 0);
    glViewport(0, 0, size, size);
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

/* The objects, painted; 0 or -1. */
static int make(GLuint ms[MS_N])
{
    glGenTextures(3, ms);
    glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, ms[MS_2D]);
    glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, 4, GL_RGBA8, 32, 32, GL_TRUE);
    glBindTexture(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, ms[MS_ARRAY]);
    glTexStorage3DMultisample(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 4, GL_RGBA8, 16, 16, 2, GL_TRUE);
    glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, ms[MS_UINT]);
    glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, 4, GL_RGBA8UI, 16, 16, GL_TRUE);
    glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, 0);
    glBindTexture(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 0);
    glGenRenderbuffers(1, &ms[MS_RB]);
    glBindRenderbuffer(GL_RENDERBUFFER, ms[MS_RB]);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, 4, GL_RGBA8, 32, 32);
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    GLuint prog = program(paint_vs, paint_fs), uprog = program(paint_vs, paint_uint_fs);
    if (!prog || !uprog)
        return -1;
    GLuint vao, fb;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenFramebuffers(1, &fb);
    glUseProgram(prog);
    draw_into(fb, GL_TEXTURE_2D_MULTISAMPLE, ms[MS_2D], -1, 32);
    for (GLint l = 0; l < 2; l++) {
        glUniform1i(glGetUniformLocation(prog, "layer"), l);
        draw_into(fb, 0, ms[MS_ARRAY], l, 16);
    }
    draw_into(fb, GL_RENDERBUFFER, ms[MS_RB], -1, 32);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, 0);
    glUseProgram(uprog);
    draw_into(fb, GL_TEXTURE_2D_MULTISAMPLE, ms[MS_UINT], -1, 16);
    glUseProgram(0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fb);
    glBindVertexArray(0);
    glDeleteVertexArrays(1, &vao);
    glDeleteProgram(prog);
    glDeleteProgram(uprog);
    return 0;
}

/* The renderbuffer resolved into the window: through a single-sample RGBA8 texture, as
 * GLES resolves only between identical formats. */
static void resolve(unsigned frame, GLuint rb)
{
    GLuint fb[2], tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 32, 32);
    glGenFramebuffers(2, fb);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fb[0]);
    glFramebufferRenderbuffer(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fb[1]);
    glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    glBlitFramebuffer(0, 0, 32, 32, 0, 0, 32, 32, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fb[1]);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    int x = 16 + (int)(frame % 3) * 8;
    glBlitFramebuffer(0, 0, 32, 32, x, 180, x + 32, 212, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glDeleteFramebuffers(2, fb);
    glBindTexture(GL_TEXTURE_2D, 0);
    glDeleteTextures(1, &tex);
}

/* One frame: a program and vertex array made and deleted in it. */
static int draw_frame(unsigned frame, const GLuint ms[MS_N])
{
    static const GLenum targets[3] = {GL_TEXTURE_2D_MULTISAMPLE, GL_TEXTURE_2D_MULTISAMPLE_ARRAY,
                                      GL_TEXTURE_2D_MULTISAMPLE};
    static const char *const names[3] = {"ms2d", "msarr", "msuint"};
    GLuint prog = program(sample_vs, sample_fs), vao;
    if (!prog)
        return 1;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glUseProgram(prog);
    glViewport(0, 0, APP_WIDTH, APP_HEIGHT);
    glClearColor(0.1f, 0.1f, 0.12f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    for (int i = 0; i < 3; i++) {
        glActiveTexture(GL_TEXTURE0 + (GLenum)i);
        glBindTexture(targets[i], ms[i]);
        glUniform1i(glGetUniformLocation(prog, names[i]), i);
    }
    glUniform1i(glGetUniformLocation(prog, "frame"), (GLint)frame);
    for (int i = 0; i < 3; i++) {
        glViewport(16 + i * 96, 64 + (int)(frame % 2) * 8, 80, 80);
        glUniform1i(glGetUniformLocation(prog, "which"), i);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    }
    resolve(frame, ms[MS_RB]);
    glActiveTexture(GL_TEXTURE0);
    glUseProgram(0);
    glBindVertexArray(0);
    glDeleteVertexArrays(1, &vao);
    glDeleteProgram(prog);
    GLenum err = glGetError();
    if (err != GL_NO_ERROR)
        fprintf(stderr, TAG ": GL error 0x%04x in frame %u\n", err, frame);
    return err != GL_NO_ERROR;
}

/* The EGL window surface and a GLES 3.2 context current on it; 0 or -1. */
static int open_egl(Display *xdpy, EGLDisplay *dpy, EGLSurface *surface, EGLContext *ctx)
{
    static const EGLint config_attribs[] = {EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RENDERABLE_TYPE,
                                            EGL_OPENGL_ES3_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
                                            EGL_BLUE_SIZE, 8, EGL_NONE};
    static const EGLint ctx_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION,
                                         2, EGL_NONE};
    EGLConfig config;
    EGLint n = 0, visual_id = 0;
    *dpy = eglGetDisplay((EGLNativeDisplayType)xdpy);
    if (*dpy == EGL_NO_DISPLAY || !eglInitialize(*dpy, NULL, NULL) ||
        !eglBindAPI(EGL_OPENGL_ES_API) ||
        !eglChooseConfig(*dpy, config_attribs, &config, 1, &n) || n < 1)
        return -1;
    eglGetConfigAttrib(*dpy, config, EGL_NATIVE_VISUAL_ID, &visual_id);
    XVisualInfo tmpl;
    memset(&tmpl, 0, sizeof tmpl);
    tmpl.visualid = (VisualID)visual_id;
    int nv = 0;
    XVisualInfo *vi = XGetVisualInfo(xdpy, VisualIDMask, &tmpl, &nv);
    if (!vi || nv < 1)
        return -1;
    Window win = app_create_window(xdpy, vi, TAG);
    XFree(vi);
    if (!win)
        return -1;
    *surface = eglCreateWindowSurface(*dpy, config, (EGLNativeWindowType)win, NULL);
    *ctx = eglCreateContext(*dpy, config, EGL_NO_CONTEXT, ctx_attribs);
    if (*surface == EGL_NO_SURFACE || *ctx == EGL_NO_CONTEXT ||
        !eglMakeCurrent(*dpy, *surface, *surface, *ctx))
        return -1;
    return 0;
}

int main(int argc, char **argv)
{
    struct app_options opt;
    app_parse_options(argc, argv, &opt);
    Display *xdpy = app_open_display(TAG);
    EGLDisplay dpy;
    EGLSurface surface;
    EGLContext ctx;
    if (!xdpy || open_egl(xdpy, &dpy, &surface, &ctx) != 0) {
        fprintf(stderr, TAG ": no OpenGL ES 3.2 window (EGL error 0x%x)\n",
                (unsigned)eglGetError());
        return 1;
    }
    GLuint ms[MS_N];
    int status = make(ms) != 0;
    for (unsigned frame = 0; frame < opt.frames && !status; frame++) {
        status = draw_frame(frame, ms);
        if (!eglSwapBuffers(dpy, surface))
            status = 1;
    }
    glDeleteTextures(3, ms);
    glDeleteRenderbuffers(1, &ms[MS_RB]);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglDestroySurface(dpy, surface);
    eglTerminate(dpy);
    return status;
}
