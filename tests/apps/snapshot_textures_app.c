/* snapshot_textures_app: data objects made once, before frame 0, and sampled in every
 * frame, so that a frame range's trace replays only if its state snapshot re-creates
 * them with their contents (tests/integration/snapshot_objects.sh):
 *   textures  1D (swizzled), 2D array with 4 mipmap levels, cube map (a colour per face),
 *             3D (immutable, glTexStorage3D), 2D RGTC1 (compressed), 2D immutable with 3
 *             levels, rectangle, cube map array (immutable, 2 layers), buffer texture
 *             (R32F), 2D RGBA32F with a border colour, 2D DEPTH_COMPONENT24, a view
 *             (glTextureView) of two levels of the immutable 2D texture;
 *   a sampler (NEAREST, CLAMP_TO_EDGE) on the immutable 2D texture's unit;
 *   a colour renderbuffer painted with scissored clears, blitted into the window;
 *   a vertex buffer with immutable storage mapped once, persistent and coherent, that
 *             each frame writes its quad through;
 *   between frames, a pixel pack and unpack buffer bound and pack/unpack alignments,
 *             row lengths and skips away from their defaults, which the snapshot must
 *             neither read nor size its uploads by, and bindings it must put back
 *             after reading (each frame checks them, exiting 1 if one changed, then sets
 *             the defaults again).
 * Everything else (program, vertex array, framebuffer, bindings, uniforms, viewport) is
 * made again in each frame and deleted at its end: the range's frames depend on what the
 * snapshot's data-object parts write, and on nothing else made before them. Each frame
 * draws one cell per texture, sampling a level, layer or face chosen by the frame index.
 * With --multisample, also multisample textures (colour, array, depth, integer) and a
 * renderbuffer painted with a different value per sample before frame 0, each frame
 * reading one sample per texel of them into the window (ms_objects.h): the snapshot
 * must write their samples exactly.
 * GL 4.5 core (GLX). Options as the other demo apps (app_common.h). */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#include <GL/glx.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_common.h"
#include "ms_objects.h"
#include "gl_util.h"
#include "glx_util.h"

#define TAG "snapshot_textures_app"

enum { T_1D, T_ARRAY, T_CUBE, T_3D, T_RGTC, T_IMM, T_RECT, T_CUBE_ARRAY, T_BUF, T_FLOAT,
       T_DEPTH, T_VIEW, N_TEX };

static const char *const vs_src =
    "#version 400 core\n"
    "layout(location = 0) in vec2 pos;\n"
    "out vec2 uv;\n"
    "void main() { uv = pos; gl_Position = vec4(pos * 2.0 - 1.0, 0.0, 1.0); }\n";

static const char *const fs_src =
    "#version 400 core\n"
    "in vec2 uv;\n"
    "out vec4 color;\n"
    "uniform sampler1D s1d; uniform sampler2DArray sarr; uniform samplerCube scube;\n"
    "uniform sampler3D s3d; uniform sampler2D srgtc; uniform sampler2D simm;\n"
    "uniform sampler2DRect srect; uniform samplerCubeArray scarr; uniform samplerBuffer sbuf;\n"
    "uniform sampler2D sfloat; uniform sampler2D sdepth; uniform sampler2D sview;\n"
    "uniform int which; uniform int frame;\n"
    "vec3 dir() { vec2 p = uv * 2.0 - 1.0; int f = frame % 3;\n"
    "  return f == 0 ? vec3(1.0, p) : f == 1 ? vec3(p.x, -1.0, p.y) : vec3(p, 1.0); }\n"
    "void main() {\n"
    "  float f = float(frame);\n"
    "  if (which == 0) color = texture(s1d, uv.x);\n"
    "  else if (which == 1) color = textureLod(sarr, vec3(uv, float(frame % 3)), float(frame % 4));\n"
    "  else if (which == 2) color = texture(scube, dir());\n"
    "  else if (which == 3) color = texture(s3d, vec3(uv, (float(frame % 4) + 0.5) / 4.0));\n"
    "  else if (which == 4) color = texture(srgtc, uv).rrra;\n"
    "  else if (which == 5) color = textureLod(simm, uv, float(frame % 3));\n"
    "  else if (which == 6) color = texture(srect, uv * vec2(12.0, 10.0));\n"
    "  else if (which == 7) color = texture(scarr, vec4(-dir(), float(frame % 2)));\n"
    "  else if (which == 8) color = vec4(texelFetch(sbuf, int(uv.x * 16.0) + frame % 4).r, uv, 1.0);\n"
    "  else if (which == 9) color = texture(sfloat, uv * 1.5 - 0.25);\n"
    "  else if (which == 10) color = vec4(texture(sdepth, uv).r, 0.0, 1.0 - texture(sdepth, uv.yx).r, 1.0);\n"
    "  else color = textureLod(sview, uv, float(frame % 2)).gbra;\n"
    "}\n";

static const char *const sampler_names[N_TEX] = {"s1d", "sarr", "scube", "s3d", "srgtc", "simm",
                                                 "srect", "scarr", "sbuf", "sfloat", "sdepth",
                                                 "sview"};
static const GLenum targets[N_TEX] = {
    GL_TEXTURE_1D, GL_TEXTURE_2D_ARRAY, GL_TEXTURE_CUBE_MAP, GL_TEXTURE_3D, GL_TEXTURE_2D,
    GL_TEXTURE_2D, GL_TEXTURE_RECTANGLE, GL_TEXTURE_CUBE_MAP_ARRAY, GL_TEXTURE_BUFFER,
    GL_TEXTURE_2D, GL_TEXTURE_2D, GL_TEXTURE_2D};

/* Deterministic texels: n RGBA8 texels of pattern `seed`. */
static void texels(uint8_t *out, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) {
        unsigned v = (unsigned)i * 2654435761u ^ seed * 40503u;
        out[4 * i] = (uint8_t)(v >> 3);
        out[4 * i + 1] = (uint8_t)(seed * 37u + i * 5u);
        out[4 * i + 2] = (uint8_t)(v >> 17);
        out[4 * i + 3] = 255;
    }
}

static void make_textures(GLuint *tex, GLuint buf_for_texture)
{
    static uint8_t px[16 * 16 * 16 * 4];
    glGenTextures(N_TEX, tex);
    glBindTexture(GL_TEXTURE_1D, tex[T_1D]);
    texels(px, 16, 1);
    glTexImage1D(GL_TEXTURE_1D, 0, GL_RGBA8, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
    glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MAX_LEVEL, 0);
    glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_SWIZZLE_R, GL_BLUE);
    glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_SWIZZLE_B, GL_RED);

    glBindTexture(GL_TEXTURE_2D_ARRAY, tex[T_ARRAY]);
    for (int level = 0; level < 4; level++) {
        texels(px, (size_t)(64 >> (2 * level)) * 3, 10u + (unsigned)level);
        glTexImage3D(GL_TEXTURE_2D_ARRAY, level, GL_RGBA8, 8 >> level, 8 >> level, 3, 0, GL_RGBA,
                     GL_UNSIGNED_BYTE, px);
    }
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAG_FILTER, GL_NEAREST);

    glBindTexture(GL_TEXTURE_CUBE_MAP, tex[T_CUBE]);
    for (unsigned face = 0; face < 6; face++) {
        texels(px, 8 * 8, 20u + face);
        glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, 0, GL_RGBA8, 8, 8, 0, GL_RGBA,
                     GL_UNSIGNED_BYTE, px);
    }
    glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MIN_FILTER, GL_LINEAR);

    glBindTexture(GL_TEXTURE_3D, tex[T_3D]);
    glTexStorage3D(GL_TEXTURE_3D, 1, GL_RGBA8, 4, 4, 4);
    texels(px, 64, 30);
    glTexSubImage3D(GL_TEXTURE_3D, 0, 0, 0, 0, 4, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, px);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);

    glBindTexture(GL_TEXTURE_2D, tex[T_RGTC]);
    texels(px, 8, 40); /* 32 bytes: 2x2 blocks of 8 bytes */
    glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 8, 8, 0, 32, px);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);

    glBindTexture(GL_TEXTURE_2D, tex[T_IMM]);
    glTexStorage2D(GL_TEXTURE_2D, 3, GL_RGBA8, 8, 8);
    for (int level = 0; level < 3; level++) {
        texels(px, (size_t)(64 >> (2 * level)), 50u + (unsigned)level);
        glTexSubImage2D(GL_TEXTURE_2D, level, 0, 0, 8 >> level, 8 >> level, GL_RGBA,
                        GL_UNSIGNED_BYTE, px);
    }

    /* a view of its levels 1-2, never bound before the frames bind it */
    glTextureView(tex[T_VIEW], GL_TEXTURE_2D, tex[T_IMM], GL_RGBA8, 1, 2, 0, 1);

    glBindTexture(GL_TEXTURE_RECTANGLE, tex[T_RECT]);
    texels(px, 12 * 10, 60);
    glTexImage2D(GL_TEXTURE_RECTANGLE, 0, GL_RGBA8, 12, 10, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
    glTexParameteri(GL_TEXTURE_RECTANGLE, GL_TEXTURE_MAG_FILTER, GL_NEAREST);

    glBindTexture(GL_TEXTURE_CUBE_MAP_ARRAY, tex[T_CUBE_ARRAY]);
    glTexStorage3D(GL_TEXTURE_CUBE_MAP_ARRAY, 1, GL_RGBA8, 4, 4, 12);
    texels(px, 4 * 4 * 12, 70);
    glTexSubImage3D(GL_TEXTURE_CUBE_MAP_ARRAY, 0, 0, 0, 0, 4, 4, 12, GL_RGBA, GL_UNSIGNED_BYTE, px);
    glTexParameteri(GL_TEXTURE_CUBE_MAP_ARRAY, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_CUBE_MAP_ARRAY, GL_TEXTURE_MAG_FILTER, GL_NEAREST);

    glBindTexture(GL_TEXTURE_BUFFER, tex[T_BUF]);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_R32F, buf_for_texture);

    glBindTexture(GL_TEXTURE_2D, tex[T_FLOAT]);
    float fpx[8 * 8 * 4];
    for (int i = 0; i < 8 * 8 * 4; i++)
        fpx[i] = (float)((i * 7) % 23) / 11.0f;
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, 8, 8, 0, GL_RGBA, GL_FLOAT, fpx);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_BORDER);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_BORDER);
    static const float border[4] = {0.25f, 0.5f, 0.75f, 1.0f};
    glTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, border);

    glBindTexture(GL_TEXTURE_2D, tex[T_DEPTH]);
    GLuint dpx[16 * 16];
    for (unsigned i = 0; i < 16 * 16; i++)
        dpx[i] = i * 16777619u;
    glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, 16, 16, 0, GL_DEPTH_COMPONENT,
                 GL_UNSIGNED_INT, dpx);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindTexture(GL_TEXTURE_2D, 0);
}

/* A 64x64 renderbuffer painted with scissored clears through a framebuffer deleted after. */
static GLuint make_renderbuffer(void)
{
    GLuint rb, fb;
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 64, 64);
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    glEnable(GL_SCISSOR_TEST);
    for (int i = 0; i < 8; i++) {
        glScissor(i * 8, i * 4, 64 - i * 8, 20);
        glClearColor((float)i / 8.0f, 1.0f - (float)i / 8.0f, (float)(i % 3) / 2.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
    }
    glDisable(GL_SCISSOR_TEST);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fb);
    return rb;
}

/* State left between frames (so that a range's snapshot finds it), checked at the next
 * frame's start and set back to the defaults there: pixel pack and unpack buffers bound
 * with odd pack and unpack parameters, which the snapshot must neither read nor size its
 * uploads by, and bindings the snapshot changes while it reads (textures on the active
 * unit and unit 0's multisample one, buffers, the shader storage buffer's generic and
 * first indexed binding, the renderbuffer), which it must put back. */
struct between {
    GLuint pixel_buffer, copy_buffer, array_buffer, rb;
    const GLuint *tex;
    GLuint ms2d; /* --multisample: bound on unit 0, else 0 */
};

static const struct { GLenum pname; GLint value; } odd_store[] = {
    {GL_PACK_ALIGNMENT, 8}, {GL_PACK_ROW_LENGTH, 7}, {GL_PACK_SKIP_ROWS, 1},
    {GL_UNPACK_ALIGNMENT, 2}, {GL_UNPACK_ROW_LENGTH, 5}, {GL_UNPACK_SKIP_PIXELS, 1},
};
enum { N_ODD = sizeof odd_store / sizeof *odd_store };
static const GLenum bindings[N_TEX] = {
    GL_TEXTURE_BINDING_1D, GL_TEXTURE_BINDING_2D_ARRAY, GL_TEXTURE_BINDING_CUBE_MAP,
    GL_TEXTURE_BINDING_3D, 0, GL_TEXTURE_BINDING_2D, GL_TEXTURE_BINDING_RECTANGLE,
    GL_TEXTURE_BINDING_CUBE_MAP_ARRAY, GL_TEXTURE_BINDING_BUFFER, 0, 0, 0};

static void leave_state(const struct between *b)
{
    glBindBuffer(GL_PIXEL_PACK_BUFFER, b->pixel_buffer);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, b->pixel_buffer);
    glBindBuffer(GL_COPY_READ_BUFFER, b->copy_buffer);
    glBindBuffer(GL_ARRAY_BUFFER, b->array_buffer);
    glBindRenderbuffer(GL_RENDERBUFFER, b->rb);
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 0, b->copy_buffer, 0, 32);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, b->array_buffer);
    for (unsigned i = 0; i < N_ODD; i++)
        glPixelStorei(odd_store[i].pname, odd_store[i].value);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, b->ms2d);
    glActiveTexture(GL_TEXTURE3);
    for (int i = 0; i < N_TEX; i++)
        if (bindings[i])
            glBindTexture(targets[i], b->tex[i]);
}

/* 0 when unit 0's multisample binding and the first indexed shader storage binding are
 * still what leave_state left. */
static int check_unit0_ssbo0(const struct between *b, unsigned frame)
{
    GLint ms = -1, ssbo = -1;
    GLint64 start = -1, size = -1;
    glActiveTexture(GL_TEXTURE0);
    glGetIntegerv(GL_TEXTURE_BINDING_2D_MULTISAMPLE, &ms);
    glActiveTexture(GL_TEXTURE3);
    glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, 0, &ssbo);
    glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_START, 0, &start);
    glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_SIZE, 0, &size);
    if (ms == (GLint)b->ms2d && ssbo == (GLint)b->copy_buffer && start == 0 && size == 32)
        return 0;
    fprintf(stderr, TAG ": frame %u: unit 0's multisample texture %d (left %u), storage "
            "buffer 0: %d at %lld, %lld bytes (left %u at 0, 32)\n", frame, ms, b->ms2d, ssbo,
            (long long)start, (long long)size, b->copy_buffer);
    return 1;
}

/* 0 when the state leave_state left is still there. */
static int check_state(const struct between *b, unsigned frame)
{
    struct { GLenum pname; GLint want; } all[N_ODD + N_TEX + 7];
    unsigned n = 0;
    for (unsigned i = 0; i < N_ODD; i++)
        all[n].pname = odd_store[i].pname, all[n++].want = odd_store[i].value;
    for (int i = 0; i < N_TEX; i++)
        if (bindings[i])
            all[n].pname = bindings[i], all[n++].want = (GLint)b->tex[i];
    all[n].pname = GL_PIXEL_PACK_BUFFER_BINDING, all[n++].want = (GLint)b->pixel_buffer;
    all[n].pname = GL_PIXEL_UNPACK_BUFFER_BINDING, all[n++].want = (GLint)b->pixel_buffer;
    all[n].pname = GL_COPY_READ_BUFFER_BINDING, all[n++].want = (GLint)b->copy_buffer;
    all[n].pname = GL_ARRAY_BUFFER_BINDING, all[n++].want = (GLint)b->array_buffer;
    all[n].pname = GL_RENDERBUFFER_BINDING, all[n++].want = (GLint)b->rb;
    all[n].pname = GL_ACTIVE_TEXTURE, all[n++].want = GL_TEXTURE3;
    all[n].pname = GL_SHADER_STORAGE_BUFFER_BINDING, all[n++].want = (GLint)b->array_buffer;
    int bad = check_unit0_ssbo0(b, frame);
    for (unsigned i = 0; i < n; i++) {
        GLint v = -1;
        glGetIntegerv(all[i].pname, &v);
        if (v != all[i].want) {
            fprintf(stderr, TAG ": frame %u: state 0x%04x is %d, was left %d\n", frame,
                    all[i].pname, v, all[i].want);
            bad = 1;
        }
    }
    return bad;
}

static void default_state(void)
{
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glPixelStorei(GL_PACK_ROW_LENGTH, 0);
    glPixelStorei(GL_PACK_SKIP_ROWS, 0);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
}

/* One frame: everything but the data objects made and deleted here. */
static int draw_frame(unsigned frame, const GLuint *tex, GLuint sampler, GLuint vbo,
                      float *quad, GLuint rb, const GLuint *ms)
{
    default_state();
    GLuint prog = app_build_program(TAG, vs_src, fs_src, NULL);
    if (!prog)
        return 1;
    GLuint vao;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, (const void *)0);
    glEnableVertexAttribArray(0);
    glUseProgram(prog);
    for (int i = 0; i < N_TEX; i++) {
        glActiveTexture(GL_TEXTURE0 + (GLenum)i);
        glBindTexture(targets[i], tex[i]);
        glUniform1i(glGetUniformLocation(prog, sampler_names[i]), i);
    }
    glBindSampler(T_IMM, sampler);
    glUniform1i(glGetUniformLocation(prog, "frame"), (GLint)frame);
    glViewport(0, 0, APP_WIDTH, APP_HEIGHT);
    glClearColor(0.1f, 0.1f, 0.12f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    /* the quad through the coherent map: a margin that changes with the frame */
    float m = (float)(frame % 4) * 0.04f;
    const float q[8] = {m, m, 1.0f - m, m, m, 1.0f, 1.0f - m, 1.0f};
    memcpy(quad, q, sizeof q);
    for (int i = 0; i < N_TEX; i++) {
        glViewport((i % 5) * 64, (i / 5) * 64, 64, 64);
        glUniform1i(glGetUniformLocation(prog, "which"), i);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    }
    if (ms && ms_draw(TAG, frame, ms, vs_src) != 0)
        return 1;
    GLuint fb;
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fb);
    glFramebufferRenderbuffer(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    int x = 200 + (int)(frame % 3) * 4; /* above the cells, scaled down */
    glBlitFramebuffer(0, 0, 64, 64, x, 196, x + 40, 236, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fb);
    glBindSampler(T_IMM, 0);
    glActiveTexture(GL_TEXTURE0);
    glUseProgram(0);
    glBindVertexArray(0);
    glDeleteVertexArrays(1, &vao);
    glDeleteProgram(prog);
    return 0;
}

/* --mib=N: the value of N (0 when absent), the argument taken out of argv. */
static unsigned take_mib(int *argc, char **argv)
{
    unsigned mib = 0;
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        if (!strncmp(argv[i], "--mib=", 6))
            mib = (unsigned)strtoul(argv[i] + 6, NULL, 10);
        else
            argv[out++] = argv[i];
    }
    argv[out] = NULL;
    *argc = out;
    return mib;
}

/* --mib=N: N MiB more of textures (1024x1024 RGBA8, 4 MiB each), made once and never
 * sampled, for the snapshot's benchmark (tests/bench/bench_snapshot.sh). */
static int make_big_textures(unsigned mib, GLuint **out, unsigned *n)
{
    *n = mib / 4;
    *out = *n ? calloc(*n, sizeof **out) : NULL;
    uint32_t *texels = *n ? malloc(1024 * 1024 * 4) : NULL;
    if (*n && (!*out || !texels)) {
        free(texels);
        return -1;
    }
    glGenTextures((GLsizei)*n, *out);
    for (unsigned t = 0; t < *n; t++) {
        for (uint32_t i = 0; i < 1024 * 1024; i++)
            texels[i] = i * 2654435761u + t;
        glBindTexture(GL_TEXTURE_2D, (*out)[t]);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1024, 1024, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    }
    glBindTexture(GL_TEXTURE_2D, 0);
    free(texels);
    return 0;
}

int main(int argc, char **argv)
{
    app_extra_usage = "  --multisample  also multisample textures and a renderbuffer, read per sample\n"
                      "  --mib=N        N MiB more of 1024x1024 textures, never sampled\n";
    int multisample = app_take_flag(&argc, argv, "--multisample");
    unsigned mib = take_mib(&argc, argv), nbig = 0;
    GLuint *big = NULL;
    struct app_options opt;
    app_parse_options(argc, argv, &opt);
    Display *dpy;
    GLXFBConfig config;
    Window win = app_glx_open(TAG, NULL, &dpy, &config);
    if (!win)
        return 1;
    PFNGLXCREATECONTEXTATTRIBSARBPROC create_context;
    GLXContext ctx = app_glx_core_context(dpy, win, config, TAG, 4, 5, &create_context);
    if (!ctx)
        return 1;
    if (opt.warmup) {
        app_warmup_clear(GL_COLOR_BUFFER_BIT);
        glXSwapBuffers(dpy, win);
    }
    GLuint buf[3];
    glGenBuffers(3, buf);
    float values[20];
    for (int i = 0; i < 20; i++)
        values[i] = (float)((i * 5) % 17) / 16.0f;
    glBindBuffer(GL_TEXTURE_BUFFER, buf[0]);
    glBufferData(GL_TEXTURE_BUFFER, sizeof values, values, GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, buf[1]);
    const GLbitfield map = GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
    glBufferStorage(GL_ARRAY_BUFFER, 8 * sizeof(float), NULL, map);
    float *quad = glMapBufferRange(GL_ARRAY_BUFFER, 0, 8 * sizeof(float), map);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, buf[2]);
    glBufferData(GL_PIXEL_PACK_BUFFER, 4096, NULL, GL_STREAM_READ);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    GLuint tex[N_TEX], sampler;
    make_textures(tex, buf[0]);
    glGenSamplers(1, &sampler);
    glSamplerParameteri(sampler, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glSamplerParameteri(sampler, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glSamplerParameteri(sampler, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    GLuint rb = make_renderbuffer(), ms[MS_N] = {0};
    if (multisample && ms_make(TAG, ms) != 0)
        return 1;
    if (make_big_textures(mib, &big, &nbig) != 0) {
        fprintf(stderr, TAG ": out of memory for --mib=%u\n", mib);
        return 1;
    }
    const struct between between = {buf[2], buf[0], buf[1], rb, tex, ms[MS_2D]};
    uint8_t *pixels = NULL;
    int status = !quad || app_frame_buffer(TAG, &opt, &pixels) != 0 ||
                 app_check_gl_error(TAG, "set-up", 0);
    for (unsigned frame = 0; frame < opt.frames && !status; frame++) {
        status = (frame > 0 && check_state(&between, frame)) ||
                 draw_frame(frame, tex, sampler, buf[1], quad, rb, multisample ? ms : NULL) ||
                 app_check_gl_error(TAG, NULL, frame) ||
                 (pixels && app_read_frame(opt.save_prefix, frame, pixels) != 0);
        leave_state(&between);
        glXSwapBuffers(dpy, win);
    }
    free(pixels);
    glBindBuffer(GL_ARRAY_BUFFER, buf[1]);
    glUnmapBuffer(GL_ARRAY_BUFFER);
    default_state();
    glDeleteBuffers(3, buf);
    glDeleteTextures(N_TEX, tex);
    if (nbig)
        glDeleteTextures((GLsizei)nbig, big);
    free(big);
    glDeleteSamplers(1, &sampler);
    glDeleteRenderbuffers(1, &rb);
    if (multisample)
        ms_delete(ms);
    app_glx_close(dpy, win, ctx);
    return status;
}
