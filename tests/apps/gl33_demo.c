/* gl33_demo: a deterministic OpenGL 3.3 core profile program (Xlib + GLX) for the test suite.
 *
 * Each frame has two passes drawing the same indexed, textured, vertex-coloured cube:
 *   1. into a 128x128 FBO (colour texture + depth renderbuffer), sampling a procedural
 *      checkerboard texture (mipmapped);
 *   2. into the 320x240 window, sampling the FBO's colour texture.
 * Animation depends only on the frame index; there is no timing. See README.md.
 *
 * With --thread, a second thread owns a second 3.3 core context sharing the first one's objects
 * (current on a 16x16 pbuffer). Before each frame it rewrites the checkerboard texture with a
 * pattern of the frame index (glTexSubImage2D, glGenerateMipmap, glFinish) while the main
 * thread waits; the two threads strictly alternate, so the calls' order is fixed too.
 *
 * GL entry points beyond 1.1 come from libGL's exports (GL_GLEXT_PROTOTYPES, Mesa/glvnd export
 * them); glXCreateContextAttribsARB is fetched with glXGetProcAddressARB. */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glx.h>

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_common.h"
#include "gl_util.h"
#include "glx_util.h"

#define FBO_SIZE 128
#define CHECKER_SIZE 64

static const char *vertex_src =
    "#version 330 core\n"
    "layout(location = 0) in vec3 a_pos;\n"
    "layout(location = 1) in vec3 a_color;\n"
    "layout(location = 2) in vec2 a_uv;\n"
    "uniform mat4 u_mvp;\n"
    "out vec3 v_color;\n"
    "out vec2 v_uv;\n"
    "void main() {\n"
    "    v_color = a_color;\n"
    "    v_uv = a_uv;\n"
    "    gl_Position = u_mvp * vec4(a_pos, 1.0);\n"
    "}\n";

static const char *fragment_src =
    "#version 330 core\n"
    "in vec3 v_color;\n"
    "in vec2 v_uv;\n"
    "uniform sampler2D u_tex;\n"
    "uniform vec4 u_tint;\n"
    "out vec4 frag_color;\n"
    "void main() {\n"
    "    vec3 t = texture(u_tex, v_uv).rgb;\n"
    "    frag_color = vec4(mix(t, t * v_color, 0.5), 1.0) * u_tint;\n"
    "}\n";

struct vertex {
    float pos[3];
    float color[3];
    float uv[2];
};

/* 24 vertices (4 per face, each face its own colour), 36 indices. */
static void build_cube(struct vertex v[24], GLushort idx[36])
{
    static const float face_color[6][3] = {
        {1.0f, 0.3f, 0.3f}, {0.3f, 1.0f, 0.3f}, {0.3f, 0.3f, 1.0f},
        {1.0f, 1.0f, 0.3f}, {0.3f, 1.0f, 1.0f}, {1.0f, 0.3f, 1.0f},
    };
    /* For each face: normal axis, sign; corners spread along the other two axes. */
    static const int axis[6] = {0, 0, 1, 1, 2, 2};
    static const float sign[6] = {1, -1, 1, -1, 1, -1};
    static const float corner[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (int f = 0; f < 6; f++) {
        int a = axis[f], b = (a + 1) % 3, c = (a + 2) % 3;
        for (int k = 0; k < 4; k++) {
            struct vertex *p = &v[f * 4 + k];
            p->pos[a] = 0.5f * sign[f];
            /* Swap the two spread axes on negative faces so all faces wind counter-clockwise. */
            p->pos[b] = 0.5f * corner[k][sign[f] > 0 ? 0 : 1];
            p->pos[c] = 0.5f * corner[k][sign[f] > 0 ? 1 : 0];
            memcpy(p->color, face_color[f], sizeof p->color);
            p->uv[0] = corner[k][0] > 0 ? 1.0f : 0.0f;
            p->uv[1] = corner[k][1] > 0 ? 1.0f : 0.0f;
        }
        static const GLushort quad[6] = {0, 1, 2, 0, 2, 3};
        for (int k = 0; k < 6; k++)
            idx[f * 6 + k] = (GLushort)(f * 4 + quad[k]);
    }
}

/* The texels of the checkerboard: frame < 0 gives the initial pattern (glTexImage2D), frame
 * >= 0 the pattern --thread's worker writes before that frame (squares shifting by 2 texels a
 * frame, colours cycling with the frame index). */
static void checker_pixels(uint8_t pixels[CHECKER_SIZE * CHECKER_SIZE * 4], int frame)
{
    for (int y = 0; y < CHECKER_SIZE; y++)
        for (int x = 0; x < CHECKER_SIZE; x++) {
            uint8_t *p = &pixels[(y * CHECKER_SIZE + x) * 4];
            if (frame < 0) {
                int on = ((x / 8) + (y / 8)) & 1;
                p[0] = on ? 240 : 40;
                p[1] = on ? 220 : 60;
                p[2] = on ? 180 : (uint8_t)(80 + 2 * x);
            } else {
                int on = (((x + 2 * frame) / 8) + (y / 8)) & 1;
                int k = frame % 6;
                p[0] = on ? (uint8_t)(250 - 30 * k) : (uint8_t)(20 + 3 * y);
                p[1] = on ? (uint8_t)(90 + 30 * k) : 40;
                p[2] = on ? 60 : (uint8_t)(200 - 20 * k);
            }
            p[3] = 255;
        }
}

static GLuint make_checker_texture(void)
{
    static uint8_t pixels[CHECKER_SIZE * CHECKER_SIZE * 4];
    checker_pixels(pixels, -1);
    return app_repeat_texture(GL_RGBA8, CHECKER_SIZE, pixels);
}

/* --thread: the second thread and its hand-over with the main one. `turn` says whose turn it
 * is; the main thread sets the command and turn = WORKER, the worker does it and sets
 * turn = MAIN. Only one of them makes GL or X calls at a time. */
enum worker_cmd { CMD_SETUP, CMD_FRAME, CMD_QUIT };
struct worker {
    Display *dpy;
    GLXFBConfig config;
    GLXContext share;
    PFNGLXCREATECONTEXTATTRIBSARBPROC create_context;
    GLuint texture; /* the checkerboard, set before the first CMD_FRAME */
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    enum { TURN_MAIN, TURN_WORKER } turn;
    enum worker_cmd cmd;
    unsigned frame;
    int failed; /* set by the worker (message on stderr); it then only answers CMD_QUIT */
};

static int worker_setup(struct worker *w, GLXContext *ctx, GLXPbuffer *pb)
{
    static const int pb_attribs[] = {GLX_PBUFFER_WIDTH, 16, GLX_PBUFFER_HEIGHT, 16, None};
    *pb = glXCreatePbuffer(w->dpy, w->config, pb_attribs);
    if (!*pb) {
        fprintf(stderr, "gl33_demo: worker: glXCreatePbuffer failed\n");
        return -1;
    }
    *ctx = app_glx_create_context(w->dpy, w->create_context, w->config, w->share,
                                  app_glx_core33_attribs);
    if (!*ctx) {
        fprintf(stderr, "gl33_demo: worker: cannot create a shared 3.3 core context\n");
        return -1;
    }
    if (!glXMakeContextCurrent(w->dpy, *pb, *pb, *ctx)) {
        fprintf(stderr, "gl33_demo: worker: glXMakeContextCurrent failed\n");
        return -1;
    }
    return 0;
}

static int worker_frame(struct worker *w)
{
    static uint8_t pixels[CHECKER_SIZE * CHECKER_SIZE * 4];
    checker_pixels(pixels, (int)w->frame);
    glBindTexture(GL_TEXTURE_2D, w->texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, CHECKER_SIZE, CHECKER_SIZE, GL_RGBA, GL_UNSIGNED_BYTE,
                    pixels);
    glGenerateMipmap(GL_TEXTURE_2D);
    glFinish(); /* the main context sees the new texels once it binds the texture again */
    GLenum err = glGetError();
    if (err != GL_NO_ERROR) {
        fprintf(stderr, "gl33_demo: worker: GL error 0x%04x before frame %u\n", err, w->frame);
        return -1;
    }
    return 0;
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    GLXContext ctx = NULL;
    GLXPbuffer pb = 0;
    for (;;) {
        pthread_mutex_lock(&w->lock);
        while (w->turn != TURN_WORKER)
            pthread_cond_wait(&w->cond, &w->lock);
        enum worker_cmd cmd = w->cmd;
        int failed = w->failed;
        pthread_mutex_unlock(&w->lock);

        if (cmd == CMD_QUIT)
            break;
        if (!failed)
            failed = (cmd == CMD_SETUP ? worker_setup(w, &ctx, &pb) : worker_frame(w)) != 0;

        pthread_mutex_lock(&w->lock);
        w->failed = failed;
        w->turn = TURN_MAIN;
        pthread_cond_broadcast(&w->cond);
        pthread_mutex_unlock(&w->lock);
    }
    if (ctx) {
        glXMakeContextCurrent(w->dpy, None, None, NULL);
        glXDestroyContext(w->dpy, ctx);
    }
    if (pb)
        glXDestroyPbuffer(w->dpy, pb);
    return NULL;
}

/* Hands `cmd` to the worker and waits until it is done (CMD_QUIT: until it has ended).
 * Returns 0, or -1 if the worker has failed. */
static int worker_do(struct worker *w, enum worker_cmd cmd, unsigned frame)
{
    pthread_mutex_lock(&w->lock);
    w->cmd = cmd;
    w->frame = frame;
    w->turn = TURN_WORKER;
    pthread_cond_broadcast(&w->cond);
    if (cmd != CMD_QUIT)
        while (w->turn != TURN_MAIN)
            pthread_cond_wait(&w->cond, &w->lock);
    int failed = w->failed;
    pthread_mutex_unlock(&w->lock);
    if (cmd == CMD_QUIT)
        pthread_join(w->thread, NULL);
    return failed ? -1 : 0;
}

/* --debug-groups: glPushDebugGroup/glPopDebugGroup around each frame and pass, for the
 * timeline tests (nested slices). */
static int groups;

static void push_group(const char *name)
{
    if (groups)
        glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 1, -1, name);
}

static void pop_group(void)
{
    if (groups)
        glPopDebugGroup();
}

int main(int argc, char **argv)
{
    struct app_options opt;
    app_extra_usage = "  --thread       a second thread with a shared context rewrites the checkerboard\n"
                      "                 texture before each frame (see README.md)\n"
                      "  --debug-groups each frame in a debug group \"frame\" holding groups \"pass 1\"\n"
                      "                 and \"pass 2\", and a debug message \"swap\" (KHR_debug)\n";
    int use_thread = app_take_flag(&argc, argv, "--thread") > 0;
    groups = app_take_flag(&argc, argv, "--debug-groups") > 0;
    app_parse_options(argc, argv, &opt);

    /* Both threads use the one Display. Without --thread, Xlib is left as it was. */
    if (use_thread && !XInitThreads()) {
        fprintf(stderr, "gl33_demo: XInitThreads failed\n");
        return 1;
    }
    Display *dpy = app_open_display("gl33_demo");
    if (!dpy)
        return 1;
    int glx_major = 0, glx_minor = 0;
    if (!glXQueryVersion(dpy, &glx_major, &glx_minor) || glx_major < 1 ||
        (glx_major == 1 && glx_minor < 3)) {
        fprintf(stderr, "gl33_demo: GLX 1.3 or later needed\n");
        return 1;
    }

    /* fb_attribs[3]: --thread's worker needs a pbuffer of the same config */
    int fb_attribs[] = {
        GLX_X_RENDERABLE, True,
        GLX_DRAWABLE_TYPE, use_thread ? GLX_WINDOW_BIT | GLX_PBUFFER_BIT : GLX_WINDOW_BIT,
        GLX_RENDER_TYPE, GLX_RGBA_BIT,
        GLX_X_VISUAL_TYPE, GLX_TRUE_COLOR,
        GLX_RED_SIZE, 8,
        GLX_GREEN_SIZE, 8,
        GLX_BLUE_SIZE, 8,
        GLX_DEPTH_SIZE, 24,
        GLX_DOUBLEBUFFER, True,
        None,
    };
    GLXFBConfig config;
    Window win = app_glx_window(dpy, fb_attribs, "gl33_demo", &config);
    if (!win)
        return 1;
    PFNGLXCREATECONTEXTATTRIBSARBPROC create_context;
    GLXContext ctx = app_glx_core33_context(dpy, win, config, "gl33_demo", &create_context);
    if (!ctx)
        return 1;

    if (opt.warmup) {
        app_warmup_clear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glXSwapBuffers(dpy, win);
    }

    GLuint prog = app_build_program("gl33_demo", vertex_src, fragment_src, NULL);
    if (!prog)
        return 1;
    GLint u_mvp = glGetUniformLocation(prog, "u_mvp");
    GLint u_tint = glGetUniformLocation(prog, "u_tint");
    GLint u_tex = glGetUniformLocation(prog, "u_tex");

    /* Geometry: VAO + interleaved VBO + EBO. */
    struct vertex verts[24];
    GLushort indices[36];
    build_cube(verts, indices);
    GLuint vao, vbo, ebo;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof verts, verts, GL_STATIC_DRAW);
    glGenBuffers(1, &ebo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof indices, indices, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(struct vertex),
                          (const void *)offsetof(struct vertex, pos));
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(struct vertex),
                          (const void *)offsetof(struct vertex, color));
    glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, sizeof(struct vertex),
                          (const void *)offsetof(struct vertex, uv));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glEnableVertexAttribArray(2);

    GLuint checker = make_checker_texture();

    struct worker worker;
    if (use_thread) {
        memset(&worker, 0, sizeof worker);
        worker.dpy = dpy;
        worker.config = config;
        worker.share = ctx;
        worker.create_context = create_context;
        worker.texture = checker;
        worker.turn = TURN_MAIN;
        pthread_mutex_init(&worker.lock, NULL);
        pthread_cond_init(&worker.cond, NULL);
        if (pthread_create(&worker.thread, NULL, worker_main, &worker) != 0) {
            fprintf(stderr, "gl33_demo: cannot start the second thread\n");
            return 1;
        }
        /* glFinish first: the worker's context must see the texture's initial contents */
        glFinish();
        if (worker_do(&worker, CMD_SETUP, 0) != 0) {
            worker_do(&worker, CMD_QUIT, 0);
            return 1;
        }
    }

    /* Offscreen target: colour texture + depth renderbuffer. */
    GLuint fbo_tex, depth_rb, fbo;
    glGenTextures(1, &fbo_tex);
    glBindTexture(GL_TEXTURE_2D, fbo_tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, FBO_SIZE, FBO_SIZE, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glGenRenderbuffers(1, &depth_rb);
    glBindRenderbuffer(GL_RENDERBUFFER, depth_rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, FBO_SIZE, FBO_SIZE);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, fbo_tex, 0);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth_rb);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "gl33_demo: framebuffer incomplete\n");
        return 1;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);

    glUseProgram(prog);
    glUniform1i(u_tex, 0);
    glActiveTexture(GL_TEXTURE0);
    glEnable(GL_DEPTH_TEST);
    glEnable(GL_CULL_FACE);

    uint8_t *pixels;
    if (app_frame_buffer("gl33_demo", &opt, &pixels) != 0)
        return 1;

    int status = 0;
    for (unsigned frame = 0; frame < opt.frames; frame++) {
        float t = (float)frame;
        float proj[16], view[16], rx[16], ry[16], model[16], mvp[16];

        if (use_thread && worker_do(&worker, CMD_FRAME, frame) != 0) {
            status = 1;
            break;
        }

        push_group("frame");
        /* Pass 1: checkerboard cube into the FBO. */
        push_group("pass 1");
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glViewport(0, 0, FBO_SIZE, FBO_SIZE);
        glClearColor(0.15f, 0.20f, 0.30f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glBindTexture(GL_TEXTURE_2D, checker);
        mat4_perspective(proj, 1.0f, 1.0f, 0.1f, 10.0f);
        mat4_translate(view, 0.0f, 0.0f, -1.7f);
        mat4_rotate_y(ry, 0.4f + 0.35f * t);
        mat4_rotate_x(rx, 0.5f + 0.20f * t);
        mat4_mul(model, ry, rx);
        mat4_mul(mvp, view, model);
        mat4_mul(mvp, proj, mvp);
        glUniformMatrix4fv(u_mvp, 1, GL_FALSE, mvp);
        glUniform4f(u_tint, 1.0f, 1.0f, 1.0f, 1.0f);
        glDrawElements(GL_TRIANGLES, 36, GL_UNSIGNED_SHORT, (const void *)0);
        pop_group();

        /* Pass 2: a cube textured with pass 1's image, into the window. */
        push_group("pass 2");
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(0, 0, APP_WIDTH, APP_HEIGHT);
        glClearColor(0.85f, 0.80f, 0.70f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glBindTexture(GL_TEXTURE_2D, fbo_tex);
        mat4_perspective(proj, 0.9f, (float)APP_WIDTH / APP_HEIGHT, 0.1f, 10.0f);
        mat4_translate(view, 0.0f, 0.0f, -2.0f);
        mat4_rotate_y(ry, -0.6f - 0.15f * t);
        mat4_rotate_x(rx, 0.45f);
        mat4_mul(model, rx, ry);
        mat4_mul(mvp, view, model);
        mat4_mul(mvp, proj, mvp);
        glUniformMatrix4fv(u_mvp, 1, GL_FALSE, mvp);
        glUniform4f(u_tint, 1.0f, 0.9f + 0.02f * (float)(frame % 5), 0.95f, 1.0f);
        glDrawElements(GL_TRIANGLES, 36, GL_UNSIGNED_SHORT, (const void *)0);
        pop_group();
        if (groups)
            glDebugMessageInsert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, 2,
                                 GL_DEBUG_SEVERITY_NOTIFICATION, -1, "swap");
        pop_group();

        if (app_check_gl_error("gl33_demo", NULL, frame) ||
            (pixels && app_read_frame(opt.save_prefix, frame, pixels) != 0)) {
            status = 1;
            break;
        }
        glXSwapBuffers(dpy, win);
    }

    if (use_thread) {
        worker_do(&worker, CMD_QUIT, 0);
        pthread_cond_destroy(&worker.cond);
        pthread_mutex_destroy(&worker.lock);
    }
    free(pixels);
    glDeleteFramebuffers(1, &fbo);
    glDeleteRenderbuffers(1, &depth_rb);
    glDeleteTextures(1, &fbo_tex);
    glDeleteTextures(1, &checker);
    glDeleteBuffers(1, &ebo);
    glDeleteBuffers(1, &vbo);
    glDeleteVertexArrays(1, &vao);
    glDeleteProgram(prog);
    app_glx_close(dpy, win, ctx);
    return status;
}
