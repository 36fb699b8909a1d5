/* heavy_app: a call-heavy, deterministic GL program for the recording benchmark
 * (tests/bench/bench_record.sh). Xlib + GLX, compatibility context, 64x64 window.
 *
 * Per frame, on the main thread (about 7,000 GL calls):
 *   - glClear; immediate mode: glBegin(GL_TRIANGLES), IMM_VERTS x (glColor3f +
 *     glVertex3f), glEnd (small triangles, so the rasteriser has little to do);
 *   - uniforms: the frame's program, UNIFORMS x glUniform4f, UNIFORMS/4 x
 *     glUniformMatrix4fv, UNIFORMS/4 x glUniform1f;
 *   - buffer updates: SUBDATA x glBufferSubData of 64 bytes into a vertex buffer, then
 *     one glDrawArrays from it;
 * and on a second thread, with a context sharing the first one's objects (current on
 * a 16x16 pbuffer), its own program and buffer: UNIFORMS x glUniform4f and SUBDATA x
 * glBufferSubData, then glFlush. The two threads run their parts of a frame at the
 * same time (so they contend for the trace writer) and meet before glXSwapBuffers.
 *
 * Every value is a function of the frame and call index: two runs make the same
 * calls with the same arguments (only the interleaving of the two threads' calls
 * differs). Prints nothing; a failure prints a message on stderr and exits 1 (2 for a
 * bad argument).
 *
 * With --threads 1 the second thread is not started: the main thread's part alone
 * (the benchmark's one-thread case). With --interleave N the two threads take turns
 * while both do their parts of a frame, N uniform or buffer calls each (a trace that
 * switches threads about 200 times a frame with N = 8, for the replay benchmark,
 * whatever the scheduler does).
 *
 * usage: heavy_app [--frames N] [--threads 1|2] [--interleave N]
 *        (defaults: 100 frames, 2 threads, no turns) */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#include <GL/glx.h>
#include <X11/Xlib.h>

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_util.h"

enum { IMM_VERTS = 2400, UNIFORMS = 400, SUBDATA = 200, BUF_FLOATS = SUBDATA * 16 };

static Display *dpy;
static GLXFBConfig fbconfig;
static GLXContext main_ctx;
static unsigned frames = 100;
static unsigned nthreads = 2;

static pthread_mutex_t sync_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t sync_cond = PTHREAD_COND_INITIALIZER;
static unsigned work_frame, done_frame; /* frame the worker may do / has done (+1) */
static int worker_failed;

/* --interleave: whose turn it is (0 main, 1 worker) and who is inside its part of a
 * frame; a thread waits for its turn only while the other one is inside its part */
static unsigned interleave;
static int turn, busy[2];
static _Thread_local int self; /* 0 main, 1 worker */
static _Thread_local unsigned since_turn;

static void set_busy(int b)
{
    if (!interleave)
        return;
    pthread_mutex_lock(&sync_lock);
    busy[self] = b;
    pthread_cond_broadcast(&sync_cond);
    pthread_mutex_unlock(&sync_lock);
}

/* After each uniform or buffer call: every N of them, the other thread's turn. */
static void take_turns(void)
{
    if (!interleave || ++since_turn < interleave)
        return;
    since_turn = 0;
    pthread_mutex_lock(&sync_lock);
    turn = !self;
    pthread_cond_broadcast(&sync_cond);
    while (turn != self && busy[!self])
        pthread_cond_wait(&sync_cond, &sync_lock);
    pthread_mutex_unlock(&sync_lock);
}

static void die(const char *msg)
{
    fprintf(stderr, "heavy_app: %s\n", msg);
    exit(1);
}

static const char *vs_src = "#version 120\n"
                            "uniform vec4 u_offset;\n"
                            "uniform mat4 u_xform;\n"
                            "uniform float u_scale;\n"
                            "void main() {\n"
                            "    gl_FrontColor = gl_Color;\n"
                            "    gl_Position = u_xform * (gl_Vertex * u_scale + u_offset);\n"
                            "}\n";
static const char *fs_src = "#version 120\n"
                            "void main() { gl_FragColor = gl_Color; }\n";

static GLuint make_program(void)
{
    GLuint p = glCreateProgram();
    const char *srcs[2] = {vs_src, fs_src};
    GLenum types[2] = {GL_VERTEX_SHADER, GL_FRAGMENT_SHADER};
    for (int i = 0; i < 2; ++i) {
        GLuint s = app_compile_shader("heavy_app", types[i], srcs[i]);
        if (!s)
            die("shader compilation failed");
        glAttachShader(p, s);
        glDeleteShader(s);
    }
    glLinkProgram(p);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok)
        die("program link failed");
    return p;
}

/* 64 bytes of data for update i of frame f. */
static void subdata(float out[16], unsigned f, unsigned i, float base)
{
    for (int k = 0; k < 16; ++k)
        out[k] = base + (float)((f * 7 + i * 3 + (unsigned)k) % 64) / 64.0f - 0.5f;
}

static void uniforms(GLint loc_offset, GLint loc_xform, GLint loc_scale, unsigned f)
{
    for (unsigned i = 0; i < UNIFORMS; ++i) {
        float v = (float)((f + i) % 16) / 256.0f;
        glUniform4f(loc_offset, v, -v, 0.0f, 0.0f);
        take_turns();
        if (i % 4 == 0) {
            float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, v, v, 0, 1};
            if (loc_xform >= 0)
                glUniformMatrix4fv(loc_xform, 1, GL_FALSE, m);
            glUniform1f(loc_scale, 1.0f - v);
        }
    }
}

static void buffer_updates(unsigned f, float base)
{
    float data[16];
    for (unsigned i = 0; i < SUBDATA; ++i) {
        subdata(data, f, i, base);
        glBufferSubData(GL_ARRAY_BUFFER, (GLintptr)(i * sizeof data), sizeof data, data);
        take_turns();
    }
}

static void *worker(void *arg)
{
    (void)arg;
    self = 1;
    int pb_attrs[] = {GLX_PBUFFER_WIDTH, 16, GLX_PBUFFER_HEIGHT, 16, None};
    GLXPbuffer pb = glXCreatePbuffer(dpy, fbconfig, pb_attrs);
    GLXContext ctx = glXCreateNewContext(dpy, fbconfig, GLX_RGBA_TYPE, main_ctx, True);
    if (!pb || !ctx || !glXMakeContextCurrent(dpy, pb, pb, ctx)) {
        pthread_mutex_lock(&sync_lock);
        worker_failed = 1;
        pthread_cond_broadcast(&sync_cond);
        pthread_mutex_unlock(&sync_lock);
        return NULL;
    }
    GLuint prog = make_program();
    glUseProgram(prog);
    GLint loc_offset = glGetUniformLocation(prog, "u_offset");
    GLint loc_scale = glGetUniformLocation(prog, "u_scale");
    GLuint buf;
    glGenBuffers(1, &buf);
    glBindBuffer(GL_ARRAY_BUFFER, buf);
    glBufferData(GL_ARRAY_BUFFER, BUF_FLOATS * sizeof(float), NULL, GL_DYNAMIC_DRAW);
    for (unsigned f = 0;; ++f) {
        pthread_mutex_lock(&sync_lock);
        while (work_frame <= f)
            pthread_cond_wait(&sync_cond, &sync_lock);
        pthread_mutex_unlock(&sync_lock);
        if (f >= frames)
            break;
        set_busy(1);
        uniforms(loc_offset, -1, loc_scale, f + 1000);
        buffer_updates(f, 0.25f);
        set_busy(0);
        glFlush();
        pthread_mutex_lock(&sync_lock);
        done_frame = f + 1;
        pthread_cond_broadcast(&sync_cond);
        pthread_mutex_unlock(&sync_lock);
    }
    glDeleteBuffers(1, &buf);
    glDeleteProgram(prog);
    if (glGetError() != GL_NO_ERROR)
        worker_failed = 1;
    glXMakeContextCurrent(dpy, None, None, NULL);
    glXDestroyContext(dpy, ctx);
    glXDestroyPbuffer(dpy, pb);
    return NULL;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--frames") && i + 1 < argc) {
            char *end;
            unsigned long n = strtoul(argv[++i], &end, 10);
            if (*end || n == 0 || n > 1000000) {
                fprintf(stderr, "heavy_app: bad --frames %s\n", argv[i]);
                return 2;
            }
            frames = (unsigned)n;
        } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            const char *v = argv[++i];
            if (strcmp(v, "1") && strcmp(v, "2")) {
                fprintf(stderr, "heavy_app: bad --threads %s (1 or 2)\n", v);
                return 2;
            }
            nthreads = (unsigned)(v[0] - '0');
        } else if (!strcmp(argv[i], "--interleave") && i + 1 < argc) {
            char *end;
            unsigned long n = strtoul(argv[++i], &end, 10);
            if (*end || n == 0 || n > 1000000) {
                fprintf(stderr, "heavy_app: bad --interleave %s\n", argv[i]);
                return 2;
            }
            interleave = (unsigned)n;
        } else {
            fprintf(stderr, "usage: heavy_app [--frames N] [--threads 1|2] [--interleave N]\n");
            return 2;
        }
    }
    if (!XInitThreads())
        die("XInitThreads failed");
    dpy = XOpenDisplay(NULL);
    if (!dpy)
        die("cannot open the display");
    int attrs[] = {GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT | GLX_PBUFFER_BIT,
                   GLX_RENDER_TYPE, GLX_RGBA_BIT,
                   GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8,
                   GLX_DOUBLEBUFFER, True, None};
    int n = 0;
    GLXFBConfig *configs = glXChooseFBConfig(dpy, DefaultScreen(dpy), attrs, &n);
    if (!configs || n == 0)
        die("no suitable GLX framebuffer configuration");
    fbconfig = configs[0];
    XFree(configs);
    XVisualInfo *vi = glXGetVisualFromFBConfig(dpy, fbconfig);
    if (!vi)
        die("no visual for the framebuffer configuration");
    XSetWindowAttributes swa;
    memset(&swa, 0, sizeof swa);
    swa.colormap = XCreateColormap(dpy, RootWindow(dpy, vi->screen), vi->visual, AllocNone);
    Window win = XCreateWindow(dpy, RootWindow(dpy, vi->screen), 0, 0, 64, 64, 0, vi->depth,
                               InputOutput, vi->visual, CWColormap, &swa);
    XFree(vi);
    main_ctx = glXCreateNewContext(dpy, fbconfig, GLX_RGBA_TYPE, NULL, True);
    if (!main_ctx || !glXMakeContextCurrent(dpy, win, win, main_ctx))
        die("cannot create or bind a compatibility context");

    GLuint prog = make_program();
    GLint loc_offset = glGetUniformLocation(prog, "u_offset");
    GLint loc_xform = glGetUniformLocation(prog, "u_xform");
    GLint loc_scale = glGetUniformLocation(prog, "u_scale");
    GLuint buf;
    glGenBuffers(1, &buf);
    glBindBuffer(GL_ARRAY_BUFFER, buf);
    glBufferData(GL_ARRAY_BUFFER, BUF_FLOATS * sizeof(float), NULL, GL_DYNAMIC_DRAW);
    glVertexPointer(4, GL_FLOAT, 0, (const void *)0);
    glEnableClientState(GL_VERTEX_ARRAY);
    glViewport(0, 0, 64, 64);

    pthread_t thread;
    if (nthreads == 2 && pthread_create(&thread, NULL, worker, NULL) != 0)
        die("cannot start the second thread");
    if (nthreads == 1)
        done_frame = UINT_MAX; /* nobody to wait for */

    for (unsigned f = 0; f < frames; ++f) {
        pthread_mutex_lock(&sync_lock);
        work_frame = f + 1; /* the worker's part of frame f runs alongside ours */
        busy[0] = interleave != 0; /* before the worker starts: it takes turns with us */
        pthread_cond_broadcast(&sync_cond);
        /* --interleave: its wake-up can take longer than our part */
        while (interleave && !busy[1] && done_frame <= f && !worker_failed)
            pthread_cond_wait(&sync_cond, &sync_lock);
        pthread_mutex_unlock(&sync_lock);

        glUseProgram(0);
        glClearColor((float)(f % 8) / 8.0f, 0.25f, 0.5f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glBegin(GL_TRIANGLES);
        for (unsigned i = 0; i < IMM_VERTS; ++i) {
            float x = (float)((i * 13 + f) % 64) / 32.0f - 1.0f;
            float y = (float)((i * 29 + f * 3) % 64) / 32.0f - 1.0f;
            glColor3f((float)(i % 3) / 2.0f, (float)(i % 5) / 4.0f, (float)(f % 7) / 6.0f);
            glVertex3f(x + (float)(i % 3) * 0.03f, y + (float)((i + 1) % 3) * 0.03f, 0.0f);
        }
        glEnd();

        glUseProgram(prog);
        uniforms(loc_offset, loc_xform, loc_scale, f);
        buffer_updates(f, 0.0f);
        set_busy(0);
        glDrawArrays(GL_POINTS, 0, BUF_FLOATS / 4);

        pthread_mutex_lock(&sync_lock);
        while (done_frame <= f && !worker_failed)
            pthread_cond_wait(&sync_cond, &sync_lock);
        pthread_mutex_unlock(&sync_lock);
        if (worker_failed)
            die("the second thread could not create or bind its shared context");
        glXSwapBuffers(dpy, win);
    }
    pthread_mutex_lock(&sync_lock);
    work_frame = frames + 1; /* ends the worker */
    pthread_cond_broadcast(&sync_cond);
    pthread_mutex_unlock(&sync_lock);
    if (nthreads == 2)
        pthread_join(thread, NULL);
    if (worker_failed)
        die("GL error on the second thread");

    GLenum err = glGetError();
    if (err != GL_NO_ERROR) {
        fprintf(stderr, "heavy_app: GL error 0x%04x\n", err);
        return 1;
    }
    glDeleteBuffers(1, &buf);
    glDeleteProgram(prog);
    glXMakeContextCurrent(dpy, None, None, NULL);
    glXDestroyContext(dpy, main_ctx);
    XDestroyWindow(dpy, win);
    XCloseDisplay(dpy);
    return 0;
}
