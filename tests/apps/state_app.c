/* state_app: a deterministic OpenGL 3.3 core program (Xlib + GLX) whose configuration the
 * state dump test (tests/integration/state_dump.sh) varies: the window's visual (double or
 * single buffered, multisampled), object labels, and the formats of a framebuffer object's
 * colour, depth and stencil attachments.
 *
 * Each frame: with --fbo, a pass into a 64x64 FBO (clear, stencil written with the frame's
 * reference, one indexed triangle pair at two depths), then a pass into the 320x240 window
 * (clear, a textured quad sampling the FBO's colour, or a checkerboard without --fbo, and
 * a triangle with the stencil and depth tests on), then glXSwapBuffers (also single
 * buffered: a no-op there, and the frame boundary of every replayer). Nothing depends on
 * time. See README.md.
 *
 *   --single        the FBConfig asks GLX_DOUBLEBUFFER False (else True)
 *   --msaa=N        the FBConfig asks GLX_SAMPLE_BUFFERS 1, GLX_SAMPLES N
 *   --labels        glObjectLabel on every kind of object the program makes (textures,
 *                   buffers, shaders, the program, the VAO, the sampler, the FBO and its
 *                   renderbuffers, a transform feedback object), bound when dumped
 *   --textures      a cube map, a 3D texture, a 2D array and a 1D texture (all
 *                   mipmapped but the 1D one) bound to units 1 to 4, never sampled
 *   --fbo=C:D:S     the FBO's attachments: C colour texture (rgba8, rgb8, rgba16f, r8,
 *                   rgba), D depth renderbuffer (depth16, depth24, depth32f, depth24s8:
 *                   one depth-stencil renderbuffer on both points, none), S stencil
 *                   renderbuffer (stencil8, none); --fbo alone: rgba8:depth16:none (llvmpipe refuses
 *                   separate depth and stencil renderbuffers: GL_FRAMEBUFFER_UNSUPPORTED) */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_common.h"
#include "gl_util.h"
#include "glx_util.h"

#define TAG "state_app"
#define FBO_SIZE 64
#define CHECKER_SIZE 16

static const char *vertex_src =
    "#version 330 core\n"
    "layout(location = 0) in vec3 a_pos;\n"
    "layout(location = 1) in vec2 a_uv;\n"
    "uniform vec2 u_offset;\n"
    "out vec2 v_uv;\n"
    "void main() {\n"
    "    v_uv = a_uv;\n"
    "    gl_Position = vec4(a_pos.xy + u_offset, a_pos.z, 1.0);\n"
    "}\n";

static const char *fragment_src =
    "#version 330 core\n"
    "in vec2 v_uv;\n"
    "uniform sampler2D u_tex;\n"
    "uniform vec4 u_tint;\n"
    "out vec4 frag_color;\n"
    "void main() {\n"
    "    frag_color = texture(u_tex, v_uv) * u_tint;\n"
    "}\n";

/* x, y, z, u, v: a quad at depth 0.2 and a smaller one at depth -0.4 */
static const float vertices[] = {
    -0.8f, -0.8f, 0.2f, 0.0f, 0.0f, 0.8f, -0.8f, 0.2f, 1.0f, 0.0f,
    0.8f, 0.8f, 0.2f, 1.0f, 1.0f, -0.8f, 0.8f, 0.2f, 0.0f, 1.0f,
    -0.4f, -0.5f, -0.4f, 0.0f, 0.0f, 0.5f, -0.3f, -0.4f, 1.0f, 0.0f,
    0.1f, 0.6f, -0.4f, 0.5f, 1.0f, -0.6f, 0.4f, -0.4f, 0.0f, 1.0f,
};
static const GLushort indices[] = {0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7};

struct format {
    const char *name;
    GLenum internal, format, type;
};

static const struct format colors[] = {
    {"rgba8", GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE},
    {"rgb8", GL_RGB8, GL_RGB, GL_UNSIGNED_BYTE},
    {"rgba16f", GL_RGBA16F, GL_RGBA, GL_FLOAT},
    {"r8", GL_R8, GL_RED, GL_UNSIGNED_BYTE},
    {"rgba", GL_RGBA, GL_RGBA, GL_UNSIGNED_BYTE},
};
static const struct format depths[] = {
    {"depth16", GL_DEPTH_COMPONENT16, 0, 0},
    {"depth24", GL_DEPTH_COMPONENT24, 0, 0},
    {"depth32f", GL_DEPTH_COMPONENT32F, 0, 0},
    {"depth24s8", GL_DEPTH24_STENCIL8, 0, 0},
    {"none", GL_NONE, 0, 0},
};
static const struct format stencils[] = {
    {"stencil8", GL_STENCIL_INDEX8, 0, 0},
    {"none", GL_NONE, 0, 0},
};

static const struct format *find_format(const struct format *list, size_t n, const char *name,
                                        size_t len)
{
    for (size_t i = 0; i < n; ++i)
        if (strlen(list[i].name) == len && strncmp(list[i].name, name, len) == 0)
            return &list[i];
    return NULL;
}

/* Parses C:D:S into the three formats; 0, or -1 when a part names no format. */
static int parse_fbo(const char *spec, const struct format **c, const struct format **d,
                     const struct format **s)
{
    const char *a = strchr(spec, ':');
    const char *b = a ? strchr(a + 1, ':') : NULL;
    if (!a || !b)
        return -1;
    *c = find_format(colors, sizeof colors / sizeof *colors, spec, (size_t)(a - spec));
    *d = find_format(depths, sizeof depths / sizeof *depths, a + 1, (size_t)(b - a - 1));
    *s = find_format(stencils, sizeof stencils / sizeof *stencils, b + 1, strlen(b + 1));
    return *c && *d && *s ? 0 : -1;
}

/* Removes the first argument starting with PREFIX from argv and returns its rest, or
 * NULL when there is none (app_take_flag's, for options with a value). */
static const char *take_value(int *argc, char **argv, const char *prefix)
{
    size_t n = strlen(prefix);
    for (int i = 1; i < *argc; ++i) {
        if (strncmp(argv[i], prefix, n) != 0)
            continue;
        const char *v = argv[i] + n;
        for (int j = i; j < *argc; ++j)
            argv[j] = argv[j + 1];
        --*argc;
        return v;
    }
    return NULL;
}

static int labels;

static void label(GLenum kind, GLuint name, const char *text)
{
    if (labels)
        glObjectLabel(kind, name, -1, text);
}

struct fbo {
    GLuint fbo, color, depth, stencil;
};

/* The FBO of --fbo: colour texture, depth and stencil renderbuffers. 0 or -1. */
static int make_fbo(struct fbo *f, const struct format *c, const struct format *d,
                    const struct format *s)
{
    glGenTextures(1, &f->color);
    glBindTexture(GL_TEXTURE_2D, f->color);
    glTexImage2D(GL_TEXTURE_2D, 0, (GLint)c->internal, FBO_SIZE, FBO_SIZE, 0, c->format, c->type,
                 NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    label(GL_TEXTURE, f->color, "fbo colour");
    glGenFramebuffers(1, &f->fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, f->fbo);
    label(GL_FRAMEBUFFER, f->fbo, "offscreen");
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, f->color, 0);
    if (d->internal != GL_NONE) {
        glGenRenderbuffers(1, &f->depth);
        glBindRenderbuffer(GL_RENDERBUFFER, f->depth);
        glRenderbufferStorage(GL_RENDERBUFFER, d->internal, FBO_SIZE, FBO_SIZE);
        label(GL_RENDERBUFFER, f->depth, "depth");
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, d->internal == GL_DEPTH24_STENCIL8
                                                      ? GL_DEPTH_STENCIL_ATTACHMENT
                                                      : GL_DEPTH_ATTACHMENT,
                                  GL_RENDERBUFFER, f->depth);
    }
    if (s->internal != GL_NONE && d->internal != GL_DEPTH24_STENCIL8) {
        glGenRenderbuffers(1, &f->stencil);
        glBindRenderbuffer(GL_RENDERBUFFER, f->stencil);
        glRenderbufferStorage(GL_RENDERBUFFER, s->internal, FBO_SIZE, FBO_SIZE);
        label(GL_RENDERBUFFER, f->stencil, "stencil");
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, GL_RENDERBUFFER,
                                  f->stencil);
    }
    GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (status != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, TAG ": framebuffer incomplete (0x%04x) with %s:%s:%s\n", status, c->name,
                d->name, s->name);
        return -1;
    }
    return 0;
}

/* Texels of a small pattern: different in each of N slices or faces. */
static void fill_texels(uint8_t *px, int w, int h, int n)
{
    for (int k = 0; k < n; ++k)
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                uint8_t *p = &px[(((size_t)k * (size_t)h + (size_t)y) * (size_t)w + (size_t)x) * 4];
                p[0] = (uint8_t)(40 * k + 8 * x);
                p[1] = (uint8_t)(200 - 12 * y);
                p[2] = (uint8_t)((x + y + k) & 1 ? 220 : 30);
                p[3] = (uint8_t)(255 - 20 * k);
            }
}

/* --textures: one texture of each other target apitrace dumps, bound to units 1 to 4. */
static void bind_more_textures(void)
{
    static uint8_t px[8 * 8 * 6 * 4];
    GLuint t[4];
    glGenTextures(4, t);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_CUBE_MAP, t[0]);
    fill_texels(px, 8, 8, 6);
    for (int f = 0; f < 6; ++f)
        glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)f, 0, GL_RGBA8, 8, 8, 0, GL_RGBA,
                     GL_UNSIGNED_BYTE, px + (size_t)f * 8 * 8 * 4);
    glGenerateMipmap(GL_TEXTURE_CUBE_MAP);
    label(GL_TEXTURE, t[0], "cube");
    glActiveTexture(GL_TEXTURE2);
    glBindTexture(GL_TEXTURE_3D, t[1]);
    fill_texels(px, 8, 4, 4);
    glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA8, 8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
    glGenerateMipmap(GL_TEXTURE_3D);
    glActiveTexture(GL_TEXTURE3);
    glBindTexture(GL_TEXTURE_2D_ARRAY, t[2]);
    fill_texels(px, 4, 8, 3);
    glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_RGB8, 4, 8, 3, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
    glGenerateMipmap(GL_TEXTURE_2D_ARRAY);
    glActiveTexture(GL_TEXTURE4);
    glBindTexture(GL_TEXTURE_1D, t[3]);
    fill_texels(px, 16, 1, 1);
    glTexImage1D(GL_TEXTURE_1D, 0, GL_RGBA8, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
    glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MAX_LEVEL, 0);
    glActiveTexture(GL_TEXTURE0);
}

static GLuint make_checker(void)
{
    static uint8_t px[CHECKER_SIZE * CHECKER_SIZE * 4];
    for (int y = 0; y < CHECKER_SIZE; y++)
        for (int x = 0; x < CHECKER_SIZE; x++) {
            uint8_t *p = &px[(y * CHECKER_SIZE + x) * 4];
            int on = ((x / 4) + (y / 4)) & 1;
            p[0] = on ? 230 : 30;
            p[1] = on ? 200 : (uint8_t)(10 * x);
            p[2] = on ? 90 : (uint8_t)(12 * y);
            p[3] = 255;
        }
    return app_repeat_texture(GL_RGBA8, CHECKER_SIZE, px);
}

int main(int argc, char **argv)
{
    app_extra_usage = "  --single       a single-buffered visual\n"
                      "  --msaa=N       a visual with N samples\n"
                      "  --labels       glObjectLabel on each object\n"
                      "  --textures     cube map, 3D, 2D array and 1D textures bound to units 1-4\n"
                      "  --fbo[=C:D:S]  draw into an FBO first (see state_app.c)\n";
    int single = app_take_flag(&argc, argv, "--single") > 0;
    labels = app_take_flag(&argc, argv, "--labels") > 0;
    int textures = app_take_flag(&argc, argv, "--textures") > 0;
    const char *msaa = take_value(&argc, argv, "--msaa=");
    const char *fbo_spec = take_value(&argc, argv, "--fbo=");
    if (!fbo_spec && app_take_flag(&argc, argv, "--fbo") > 0)
        fbo_spec = "rgba8:depth16:none";
    int samples = msaa ? atoi(msaa) : 0;
    const struct format *cf = NULL, *df = NULL, *sf = NULL;
    if ((msaa && (samples < 1 || samples > 32)) ||
        (fbo_spec && parse_fbo(fbo_spec, &cf, &df, &sf) != 0)) {
        fprintf(stderr, TAG ": bad --msaa or --fbo value\n");
        return 2;
    }
    struct app_options opt;
    app_parse_options(argc, argv, &opt);

    int fb_attribs[] = {
        GLX_X_RENDERABLE, True,
        GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT,
        GLX_RENDER_TYPE, GLX_RGBA_BIT,
        GLX_X_VISUAL_TYPE, GLX_TRUE_COLOR,
        GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8,
        GLX_DEPTH_SIZE, 24, GLX_STENCIL_SIZE, 8,
        GLX_DOUBLEBUFFER, single ? False : True,
        GLX_SAMPLE_BUFFERS, samples ? 1 : 0,
        GLX_SAMPLES, samples,
        None,
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

    GLuint prog = app_build_program(TAG, vertex_src, fragment_src, NULL);
    if (!prog)
        return 1;
    label(GL_PROGRAM, prog, "textured");
    GLint u_offset = glGetUniformLocation(prog, "u_offset");
    GLint u_tint = glGetUniformLocation(prog, "u_tint");
    GLint u_tex = glGetUniformLocation(prog, "u_tex");

    GLuint vao, vbo, ebo, sampler, xfb;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    label(GL_VERTEX_ARRAY, vao, "quads");
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof vertices, vertices, GL_STATIC_DRAW);
    label(GL_BUFFER, vbo, "vertices");
    glGenBuffers(1, &ebo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof indices, indices, GL_STATIC_DRAW);
    label(GL_BUFFER, ebo, "indices");
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 5 * sizeof(float), (const void *)0);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 5 * sizeof(float),
                          (const void *)(3 * sizeof(float)));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glGenSamplers(1, &sampler);
    glSamplerParameteri(sampler, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glSamplerParameteri(sampler, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindSampler(0, sampler);
    label(GL_SAMPLER, sampler, "nearest");
    glGenTransformFeedbacks(1, &xfb);
    glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, xfb);
    label(GL_TRANSFORM_FEEDBACK, xfb, "unused feedback");

    GLuint checker = make_checker();
    label(GL_TEXTURE, checker, "checker");
    struct fbo fbo = {0};
    if (fbo_spec && make_fbo(&fbo, cf, df, sf) != 0)
        return 1;
    if (textures)
        bind_more_textures();

    glUseProgram(prog);
    glUniform1i(u_tex, 0);
    glEnable(GL_DEPTH_TEST);
    glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
    uint8_t *pixels;
    if (app_frame_buffer(TAG, &opt, &pixels) != 0)
        return 1;

    int status = 0;
    for (unsigned frame = 0; frame < opt.frames && !status; frame++) {
        float t = 0.05f * (float)frame;
        if (fbo_spec) { /* pass 1: the FBO, its stencil holding the frame's reference */
            glBindFramebuffer(GL_FRAMEBUFFER, fbo.fbo);
            glViewport(0, 0, FBO_SIZE, FBO_SIZE);
            glClearColor(0.1f, 0.3f + t, 0.5f, 1.0f);
            glClearDepth(1.0);
            glClearStencil(0);
            glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
            glEnable(GL_STENCIL_TEST);
            glStencilFunc(GL_ALWAYS, (GLint)(frame + 1), 0xff);
            glBindTexture(GL_TEXTURE_2D, checker);
            glUniform2f(u_offset, t, 0.0f);
            glUniform4f(u_tint, 1.0f, 0.8f, 0.6f, 1.0f);
            glDrawElements(GL_TRIANGLES, 12, GL_UNSIGNED_SHORT, (const void *)0);
            glDisable(GL_STENCIL_TEST);
            glBindFramebuffer(GL_FRAMEBUFFER, 0);
        }
        /* pass 2: the window */
        glViewport(0, 0, APP_WIDTH, APP_HEIGHT);
        glClearColor(0.2f, 0.2f, 0.25f + t, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
        glBindTexture(GL_TEXTURE_2D, fbo_spec ? fbo.color : checker);
        glUniform2f(u_offset, -t, 0.0f);
        glUniform4f(u_tint, 1.0f, 1.0f, 1.0f, 1.0f);
        glEnable(GL_STENCIL_TEST);
        glStencilFunc(GL_ALWAYS, 7, 0xff);
        glDrawElements(GL_TRIANGLES, 12, GL_UNSIGNED_SHORT, (const void *)0);
        glDisable(GL_STENCIL_TEST);
        if (app_check_gl_error(TAG, NULL, frame) ||
            (pixels && app_read_frame(opt.save_prefix, frame, pixels) != 0))
            status = 1;
        glXSwapBuffers(dpy, win);
    }
    free(pixels);
    app_glx_close(dpy, win, ctx);
    return status;
}
