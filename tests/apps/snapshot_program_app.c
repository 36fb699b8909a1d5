/* snapshot_program_app: a deterministic OpenGL 3.3 core program (Xlib + GLX) whose
 * programs, vertex arrays and framebuffer are made, and whose uniforms are set, only
 * before its first frame: a frame range's state snapshot must re-create all of them for
 * the range to draw the same pixels (tests/integration/snapshot_programs.sh).
 *
 * Setup: program "shade" (its shaders deleted once linked) with uniforms of many kinds
 * set once: float, int, uint, bool, vec2/3/4, ivec2, mat2, mat3, mat4 (a column-major
 * value that is not symmetric), a float[4] array set whole and a vec4[3] array set element
 * by element, and a uniform block at binding 2 (glUniformBlockBinding); program "blit"
 * sampling unit 1 (glUniform1i once). Two vertex arrays: one interleaved (position,
 * colour) with an element buffer, one with a per-instance offset attribute (divisor 1)
 * and the generic value of attribute 3 set with glVertexAttrib4f (not an array). One
 * framebuffer: a 64x64 colour texture and a depth renderbuffer.
 * Each frame: into the framebuffer, clear (colour from the frame number), draw the first
 * array; into the window, clear, blit the framebuffer's texture on a quad, then draw the
 * second array instanced (1 + frame % 3 instances). Per frame it binds what it draws with
 * and sets the viewport, clear colour and depth test, but sets no uniform.
 * --queries: also a ring of three GL_TIME_ELAPSED queries around each frame's draws, the
 * one of two frames before read back, and a GL_SAMPLES_PASSED query begun before each
 * swap and ended after it, so one is active at every frame boundary.
 * --pending-error: each frame ends with an error pending at its swap (GL_INVALID_ENUM,
 * GL_INVALID_VALUE, GL_INVALID_OPERATION in turn), which the next frame expects to find
 * (exit 1 if not): a recorder that reads the driver at a swap must leave the program's
 * error flag as it was. */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glx.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "app_common.h"
#include "gl_util.h"
#include "glx_util.h"

#define TAG "snapshot_program_app"
#define FBO_SIZE 64

static const char *shade_vs =
    "#version 330 core\n"
    "layout(location = 0) in vec2 a_pos;\n"
    "layout(location = 1) in vec3 a_color;\n"
    "layout(location = 2) in vec2 a_offset;\n"
    "layout(location = 3) in vec4 a_generic;\n"
    "uniform float u_scale;\n"
    "uniform vec2 u_shift;\n"
    "uniform mat2 u_rot;\n"
    "uniform mat4 u_mvp;\n"
    "uniform ivec2 u_ipair;\n"
    "out vec3 v_color;\n"
    "void main() {\n"
    "    v_color = a_color * a_generic.rgb;\n"
    "    vec2 p = u_rot * (a_pos * u_scale) + u_shift + a_offset + vec2(u_ipair) * 0.01;\n"
    "    gl_Position = u_mvp * vec4(p, 0.0, 1.0);\n"
    "}\n";

static const char *shade_fs =
    "#version 330 core\n"
    "in vec3 v_color;\n"
    "uniform int u_mode;\n"
    "uniform uint u_umask;\n"
    "uniform bool u_flag;\n"
    "uniform vec3 u_tint3;\n"
    "uniform vec4 u_tint4;\n"
    "uniform mat3 u_m3;\n"
    "uniform float u_weights[4];\n"
    "uniform vec4 u_colors[3];\n"
    "layout(std140) uniform Params { vec4 p_color; float p_gain; };\n"
    "out vec4 frag_color;\n"
    "void main() {\n"
    "    vec3 c = u_m3 * v_color * u_tint3;\n"
    "    float w = u_weights[0] + u_weights[1] + u_weights[2] + u_weights[3];\n"
    "    vec4 k = u_colors[u_mode % 3] + u_colors[(u_mode + 1) % 3] * 0.5;\n"
    "    if (u_flag) c = c.bgr;\n"
    "    if ((u_umask & 2u) != 0u) c *= 0.9;\n"
    "    frag_color = vec4(c * w, 1.0) * u_tint4 * k * p_color * p_gain;\n"
    "}\n";

static const char *blit_vs =
    "#version 330 core\n"
    "layout(location = 0) in vec2 a_pos;\n"
    "out vec2 v_uv;\n"
    "void main() {\n"
    "    v_uv = a_pos * 0.5 + 0.5;\n"
    "    gl_Position = vec4(a_pos * 0.6 - vec2(0.3, 0.0), 0.5, 1.0);\n"
    "}\n";

static const char *blit_fs =
    "#version 330 core\n"
    "in vec2 v_uv;\n"
    "uniform sampler2D u_tex;\n"
    "out vec4 frag_color;\n"
    "void main() { frag_color = texture(u_tex, v_uv); }\n";

/* The uniforms of "shade", set once. */
static void set_shade_uniforms(GLuint prog)
{
    static const GLfloat rot[4] = {0.8f, 0.6f, -0.6f, 0.8f};
    static const GLfloat m3[9] = {1.0f, 0.1f, 0.0f, 0.0f, 0.9f, 0.2f, 0.1f, 0.0f, 1.0f};
    static const GLfloat mvp[16] = {0.9f, 0.1f, 0.0f, 0.0f, -0.1f, 0.9f, 0.0f, 0.0f,
                                    0.0f, 0.0f, 1.0f, 0.0f, 0.05f, -0.05f, 0.0f, 1.0f};
    static const GLfloat weights[4] = {0.1f, 0.2f, 0.3f, 0.35f};
    glUseProgram(prog);
    glUniform1f(glGetUniformLocation(prog, "u_scale"), 0.7f);
    glUniform2f(glGetUniformLocation(prog, "u_shift"), -0.1f, 0.05f);
    glUniformMatrix2fv(glGetUniformLocation(prog, "u_rot"), 1, GL_FALSE, rot);
    glUniformMatrix4fv(glGetUniformLocation(prog, "u_mvp"), 1, GL_FALSE, mvp);
    glUniform2i(glGetUniformLocation(prog, "u_ipair"), 3, -2);
    glUniform1i(glGetUniformLocation(prog, "u_mode"), 4);
    glUniform1ui(glGetUniformLocation(prog, "u_umask"), 6u);
    glUniform1i(glGetUniformLocation(prog, "u_flag"), 1);
    glUniform3f(glGetUniformLocation(prog, "u_tint3"), 1.0f, 0.85f, 0.7f);
    glUniform4f(glGetUniformLocation(prog, "u_tint4"), 0.95f, 1.0f, 0.9f, 1.0f);
    glUniformMatrix3fv(glGetUniformLocation(prog, "u_m3"), 1, GL_FALSE, m3);
    glUniform1fv(glGetUniformLocation(prog, "u_weights"), 4, weights);
    glUniform4f(glGetUniformLocation(prog, "u_colors[0]"), 1.0f, 0.5f, 0.25f, 1.0f);
    glUniform4f(glGetUniformLocation(prog, "u_colors[1]"), 0.25f, 1.0f, 0.5f, 1.0f);
    glUniform4f(glGetUniformLocation(prog, "u_colors[2]"), 0.5f, 0.25f, 1.0f, 1.0f);
    glUniformBlockBinding(prog, glGetUniformBlockIndex(prog, "Params"), 2);
}

static GLuint make_buffer(GLenum target, GLsizeiptr size, const void *data)
{
    GLuint b;
    glGenBuffers(1, &b);
    glBindBuffer(target, b);
    glBufferData(target, size, data, GL_STATIC_DRAW);
    return b;
}

/* The first array: two triangles, interleaved position + colour, indexed. */
static GLuint make_shape_vao(void)
{
    static const GLfloat v[] = {-0.8f, -0.6f, 1.0f, 0.2f, 0.2f, 0.7f, -0.5f, 0.2f, 1.0f, 0.2f,
                                0.1f,  0.8f,  0.2f, 0.2f, 1.0f, -0.2f, 0.9f, 1.0f, 1.0f, 0.3f};
    static const GLushort idx[] = {0, 1, 2, 0, 2, 3};
    GLuint vao;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    make_buffer(GL_ARRAY_BUFFER, sizeof v, v);
    make_buffer(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, idx);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 5 * sizeof(GLfloat), (const void *)0);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 5 * sizeof(GLfloat),
                          (const void *)(2 * sizeof(GLfloat)));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glVertexAttrib2f(2, 0.0f, 0.0f); /* no per-instance offsets here */
    return vao;
}

/* The second array: a quad (also the blit's), colours as bytes, per-instance offsets. */
static GLuint make_quad_vao(void)
{
    static const GLfloat pos[] = {-0.3f, -0.3f, 0.3f, -0.3f, 0.3f, 0.3f, -0.3f, 0.3f};
    static const GLubyte col[] = {255, 128, 0, 0, 255, 128, 128, 0, 255, 255, 255, 255};
    static const GLfloat offs[] = {0.4f, -0.4f, 0.6f, 0.2f, 0.2f, 0.5f};
    GLuint vao;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    make_buffer(GL_ARRAY_BUFFER, sizeof pos, pos);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, (const void *)0);
    make_buffer(GL_ARRAY_BUFFER, sizeof col, col);
    glVertexAttribPointer(1, 3, GL_UNSIGNED_BYTE, GL_TRUE, 3, (const void *)0);
    make_buffer(GL_ARRAY_BUFFER, sizeof offs, offs);
    glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(GLfloat), (const void *)0);
    glVertexAttribDivisor(2, 1);
    for (GLuint i = 0; i < 3; i++)
        glEnableVertexAttribArray(i);
    return vao;
}

/* The framebuffer: colour texture (returned in *tex) and depth renderbuffer. */
static GLuint make_fbo(GLuint *tex)
{
    glGenTextures(1, tex);
    glBindTexture(GL_TEXTURE_2D, *tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, FBO_SIZE, FBO_SIZE, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    GLuint rb, fbo;
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, FBO_SIZE, FBO_SIZE);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, *tex, 0);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        fprintf(stderr, TAG ": framebuffer incomplete\n");
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return fbo;
}

typedef struct scene {
    GLuint shade, blit, shape, quad, fbo, tex, ubo;
} scene;

static void draw_frame(const scene *sc, unsigned frame)
{
    float t = (float)(frame % 7) / 7.0f;
    glEnable(GL_DEPTH_TEST);
    glBindBufferBase(GL_UNIFORM_BUFFER, 2, sc->ubo);
    glBindFramebuffer(GL_FRAMEBUFFER, sc->fbo);
    glViewport(0, 0, FBO_SIZE, FBO_SIZE);
    glClearColor(0.1f + 0.5f * t, 0.2f, 0.3f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glUseProgram(sc->shade);
    glBindVertexArray(sc->shape);
    glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, (const void *)0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, APP_WIDTH, APP_HEIGHT);
    glClearColor(0.15f, 0.15f, 0.2f + 0.4f * t, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glUseProgram(sc->blit);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, sc->tex);
    glBindVertexArray(sc->quad);
    glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
    glUseProgram(sc->shade);
    glDrawArraysInstanced(GL_TRIANGLE_FAN, 0, 4, 1 + (GLsizei)(frame % 3));
}

/* --queries: what a profiling program does around its frames; nothing drawn depends on it */
typedef struct queries {
    int on;
    GLuint elapsed[3], samples;
} queries;

static void queries_before(queries *q, unsigned frame)
{
    if (!q->on)
        return;
    if (frame > 0)
        glEndQuery(GL_SAMPLES_PASSED); /* begun before the last swap */
    glBeginQuery(GL_TIME_ELAPSED, q->elapsed[frame % 3]);
}

static void queries_after(queries *q, unsigned frame)
{
    if (!q->on)
        return;
    glEndQuery(GL_TIME_ELAPSED);
    if (frame >= 2) {
        GLuint64 ns = 0;
        glGetQueryObjectui64v(q->elapsed[(frame + 1) % 3], GL_QUERY_RESULT, &ns);
    }
    glBeginQuery(GL_SAMPLES_PASSED, q->samples);
}

/* --pending-error: the error frame f leaves pending at its swap, one kind a frame in
 * turn (Mesa, like many drivers, keeps one error flag: a second error would be lost) */
static const GLenum pending_kinds[3] = {GL_INVALID_ENUM, GL_INVALID_VALUE, GL_INVALID_OPERATION};

static void error_raise(unsigned frame)
{
    switch (pending_kinds[frame % 3]) {
    case GL_INVALID_ENUM: glEnable(0x1234); break;
    case GL_INVALID_VALUE: glLineWidth(-1.0f); break;
    default: glBindVertexArray(0x7fff0000); break; /* a name never generated */
    }
}

/* 0 if exactly the error frame - 1 raised is pending */
static int error_check(unsigned frame)
{
    GLenum want = pending_kinds[(frame - 1) % 3], got = glGetError(), then = glGetError();
    if (got == want && then == GL_NO_ERROR)
        return 0;
    fprintf(stderr, TAG ": frame %u: 0x%x then 0x%x pending after the last swap, not 0x%x\n",
            frame, got, then, want);
    return 1;
}

int main(int argc, char **argv)
{
    struct app_options opt;
    app_extra_usage = "  --queries      also timer and occlusion queries, one active at each swap\n"
                      "  --pending-error  a GL error pending at each swap, checked after it\n";
    queries q = {app_take_flag(&argc, argv, "--queries"), {0, 0, 0}, 0};
    int pending_error = app_take_flag(&argc, argv, "--pending-error");
    app_parse_options(argc, argv, &opt);
    int fb_attribs[] = {
        GLX_X_RENDERABLE, True, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT,
        GLX_RENDER_TYPE, GLX_RGBA_BIT, GLX_X_VISUAL_TYPE, GLX_TRUE_COLOR,
        GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8, GLX_DEPTH_SIZE, 24,
        GLX_DOUBLEBUFFER, True, None,
    };
    Display *dpy;
    GLXFBConfig config;
    Window win = app_glx_open(TAG, fb_attribs, &dpy, &config);
    if (!win)
        return 1;
    PFNGLXCREATECONTEXTATTRIBSARBPROC create;
    GLXContext ctx = app_glx_core33_context(dpy, win, config, TAG, &create);
    if (!ctx)
        return 1;

    scene sc;
    sc.shade = app_build_program(TAG, shade_vs, shade_fs, NULL); /* shaders deleted */
    sc.blit = app_build_program(TAG, blit_vs, blit_fs, NULL);
    if (!sc.shade || !sc.blit)
        return 1;
    set_shade_uniforms(sc.shade);
    glUseProgram(sc.blit);
    glUniform1i(glGetUniformLocation(sc.blit, "u_tex"), 1);
    glUseProgram(0);
    static const GLfloat params[8] = {1.0f, 0.9f, 0.8f, 1.0f, 1.25f, 0.0f, 0.0f, 0.0f};
    sc.ubo = make_buffer(GL_UNIFORM_BUFFER, sizeof params, params);
    sc.shape = make_shape_vao();
    sc.quad = make_quad_vao();
    glBindVertexArray(0);
    glVertexAttrib4f(3, 1.0f, 0.8f, 0.9f, 1.0f); /* a generic value, never an array */
    sc.fbo = make_fbo(&sc.tex);
    if (q.on) {
        glGenQueries(3, q.elapsed);
        glGenQueries(1, &q.samples);
    }

    int status = 0;
    uint8_t *pixels;
    if (app_frame_buffer(TAG, &opt, &pixels) != 0)
        return 1;
    for (unsigned frame = 0; frame < opt.frames; frame++) {
        if (pending_error && frame > 0 && error_check(frame))
            status = 1;
        queries_before(&q, frame);
        draw_frame(&sc, frame);
        queries_after(&q, frame);
        if (app_check_gl_error(TAG, NULL, frame) ||
            (pixels && app_read_frame(opt.save_prefix, frame, pixels) != 0))
            status = 1;
        if (pending_error)
            error_raise(frame);
        glXSwapBuffers(dpy, win);
    }
    if (q.on && opt.frames > 0)
        glEndQuery(GL_SAMPLES_PASSED);
    free(pixels);
    app_glx_close(dpy, win, ctx);
    return status;
}
