/* es2_demo: a deterministic OpenGL ES 2.0 program (EGL on an X11 window) for the test suite.
 *
 * Each frame clears, draws a textured background quad with glDrawArrays (triangle strip) and
 * two rotating textured stars with glDrawElements (GL_UNSIGNED_SHORT indices from an element
 * buffer), all from one VBO, one shader program and one procedural mipmapped checkerboard
 * texture. Animation depends only on the frame index; there is no timing. See README.md.
 *
 * --textures adds textures made once before frame 0 and only sampled in frames (a
 * frame range's state snapshot must re-create them on GLES, which cannot query them): an
 * RGB texture whose 5 levels are each uploaded by glTexImage2D, an ETC1 texture
 * (glCompressedTexImage2D, GL_OES_compressed_ETC1_RGB8_texture) with 2 levels, an
 * RGBA cube map of one colour per face, updated in part by glTexSubImage2D; on GLES 3, an
 * ETC2 texture updated in part by glCompressedTexSubImage2D; RGB 5:6:5 and RGBA 4:4:4:4
 * textures; on GLES 3, immutable RGBA8 (3 levels) and ETC2 (uploaded in quarters)
 * textures; a BGRA texture (GL_EXT_texture_format_BGRA8888); and a luminance texture it
 * never samples. */
#include <EGL/egl.h>
#include <GLES2/gl2.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_common.h"
#include "gl_util.h"

#define CHECKER_SIZE 32
#define STAR_POINTS 5
#define QUAD_FIRST 0                       /* background quad: vertices 0..3 */
#define STAR_FIRST 4                       /* star: centre, then 2*STAR_POINTS rim vertices */
#define N_VERTS (STAR_FIRST + 1 + 2 * STAR_POINTS)
#define N_STAR_INDICES (3 * 2 * STAR_POINTS)

static const char *vertex_src =
    "#version 100\n"
    "attribute vec2 a_pos;\n"
    "attribute vec2 a_uv;\n"
    "uniform mat4 u_xform;\n"
    "uniform float u_uv_scale;\n"
    "varying vec2 v_uv;\n"
    "void main() {\n"
    "    v_uv = a_uv * u_uv_scale;\n"
    "    gl_Position = u_xform * vec4(a_pos, 0.0, 1.0);\n"
    "}\n";

static const char *fragment_src =
    "#version 100\n"
    "precision mediump float;\n"
    "varying vec2 v_uv;\n"
    "uniform sampler2D u_tex;\n"
    "uniform vec4 u_color;\n"
    "void main() {\n"
    "    gl_FragColor = texture2D(u_tex, v_uv) * u_color;\n"
    "}\n";

/* --textures: the fragment shader that samples all of them */
static const char *fragment_textures_src =
    "#version 100\n"
    "precision mediump float;\n"
    "varying vec2 v_uv;\n"
    "uniform sampler2D u_tex;\n"
    "uniform sampler2D u_levels;\n"
    "uniform sampler2D u_etc1;\n"
    "uniform samplerCube u_cube;\n"
    "uniform sampler2D u_etc2;\n"
    "uniform sampler2D u_565;\n"
    "uniform sampler2D u_4444;\n"
    "uniform sampler2D u_storage;\n"
    "uniform sampler2D u_storage_etc2;\n"
    "uniform sampler2D u_bgra;\n"
    "uniform vec4 u_color;\n"
    "void main() {\n"
    "    vec3 dir = vec3(fract(v_uv) * 2.0 - 1.0, 0.6);\n"
    "    vec4 c = texture2D(u_tex, v_uv) * 0.4 + texture2D(u_levels, v_uv, 2.0) * 0.3\n"
    "           + texture2D(u_etc1, v_uv) * 0.3 + textureCube(u_cube, dir.zxy) * 0.2\n"
    "           + textureCube(u_cube, -dir) * 0.1 + texture2D(u_etc2, v_uv * 0.5) * 0.2\n"
    "           + texture2D(u_565, v_uv) * 0.2 + texture2D(u_4444, v_uv.yx) * 0.2\n"
    "           + texture2D(u_storage, v_uv, 1.0) * 0.2 + texture2D(u_storage_etc2, v_uv) * 0.2\n"
    "           + texture2D(u_bgra, v_uv.yx * 2.0) * 0.2;\n"
    "    gl_FragColor = c * u_color;\n"
    "}\n";

#ifndef GL_ETC1_RGB8_OES
#define GL_ETC1_RGB8_OES 0x8D64
#endif
#ifndef GL_COMPRESSED_RGB8_ETC2
#define GL_COMPRESSED_RGB8_ETC2 0x9274
#endif


/* A new texture, bound to GL_TEXTURE_2D. */
static GLuint new_texture_2d(void)
{
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    return tex;
}

/* The bound 2D texture samples its nearest texel. */
static void nearest_2d(void)
{
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
}

/* An RGB texture of 16x16 texels whose levels are each uploaded, in colours of their own. */
static GLuint make_levels_texture(void)
{
    static GLubyte pixels[16 * 16 * 3];
    GLuint tex = new_texture_2d();
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    for (int level = 0, size = 16; size >= 1; ++level, size /= 2) {
        for (int i = 0; i < size * size; i++) {
            pixels[3 * i + 0] = (GLubyte)(40 * level + 7 * (i % size));
            pixels[3 * i + 1] = (GLubyte)(250 - 45 * level);
            pixels[3 * i + 2] = (GLubyte)(((i / size + i % size) & 1) ? 200 : 30 * level);
        }
        glTexImage2D(GL_TEXTURE_2D, level, GL_RGB, size, size, 0, GL_RGB, GL_UNSIGNED_BYTE,
                     pixels);
    }
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_MIRRORED_REPEAT);
    return tex;
}

/* ETC1 blocks of 8 bytes (4x4 texels), made of a counter: any bytes decode. */
static GLuint make_etc1_texture(void)
{
    const char *ext = (const char *)glGetString(GL_EXTENSIONS);
    if (!ext || !strstr(ext, "GL_OES_compressed_ETC1_RGB8_texture")) {
        fprintf(stderr, "es2_demo: --textures needs GL_OES_compressed_ETC1_RGB8_texture\n");
        return 0;
    }
    static GLubyte blocks[4 * 4 * 8];
    GLuint tex = new_texture_2d();
    for (int level = 0, size = 16; level < 2; ++level, size /= 2) {
        int n = (size / 4) * (size / 4) * 8;
        for (int i = 0; i < n; i++)
            blocks[i] = (GLubyte)(i * 37 + 11 * level + (i % 8 == 3 ? 0x40 : 0));
        glCompressedTexImage2D(GL_TEXTURE_2D, level, GL_ETC1_RGB8_OES, size, size, 0, n, blocks);
    }
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    return tex;
}

/* GLES 3 only: an ETC2 texture of 16x16 texels whose middle 8x8 is uploaded again by
 * glCompressedTexSubImage2D (the snapshot patches its kept upload by blocks). */
static GLuint make_etc2_texture(void)
{
    const char *version = (const char *)glGetString(GL_VERSION);
    if (!version || strncmp(version, "OpenGL ES 3", 11) != 0)
        return 0;
    static GLubyte blocks[4 * 4 * 8];
    for (int i = 0; i < 4 * 4 * 8; i++)
        blocks[i] = (GLubyte)(i * 53 + 5);
    GLuint tex = new_texture_2d();
    glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGB8_ETC2, 16, 16, 0, 128, blocks);
    for (int i = 0; i < 2 * 2 * 8; i++)
        blocks[i] = (GLubyte)(i * 29 + 200);
    glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 4, 4, 8, 8, GL_COMPRESSED_RGB8_ETC2, 32, blocks);
    nearest_2d();
    return tex;
}

#ifndef GL_RGBA8_OES
#define GL_RGBA8_OES 0x8058
#endif

/* GLES 3 only: immutable storage (glTexStorage2D, through eglGetProcAddress) filled by
 * sub-image uploads: RGBA8 with 3 levels each uploaded (etc2 0), or one ETC2 level of
 * 16x16 uploaded as four 8x8 quarters (etc2 1: the snapshot patches them in). */
static GLuint make_storage_texture(int etc2)
{
    typedef void (*storage_fn)(GLenum, GLsizei, GLenum, GLsizei, GLsizei);
    const char *version = (const char *)glGetString(GL_VERSION);
    storage_fn storage = (storage_fn)eglGetProcAddress("glTexStorage2D");
    if (!version || strncmp(version, "OpenGL ES 3", 11) != 0 || !storage)
        return 0;
    static GLubyte data[8 * 8 * 4];
    GLuint tex = new_texture_2d();
    int size = etc2 ? 16 : 8;
    storage(GL_TEXTURE_2D, etc2 ? 1 : 3, etc2 ? GL_COMPRESSED_RGB8_ETC2 : GL_RGBA8_OES, size,
            size);
    for (int part = 0; part < (etc2 ? 4 : 3); part++) {
        for (int i = 0; i < 8 * 8 * 4; i++)
            data[i] = (GLubyte)(i * (7 + 2 * part) + 60 * part);
        if (etc2)
            glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 8 * (part & 1), 8 * (part >> 1), 8, 8,
                                      GL_COMPRESSED_RGB8_ETC2, 32, data);
        else
            glTexSubImage2D(GL_TEXTURE_2D, part, 0, 0, 8 >> part, 8 >> part, GL_RGBA,
                            GL_UNSIGNED_BYTE, data);
    }
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER,
                    etc2 ? GL_NEAREST : GL_NEAREST_MIPMAP_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    return tex;
}

/* An 8x8 texture of a 16-bit packed type (every bit pattern is a texel), nearest. */
static GLuint make_packed_texture(GLenum format, GLenum type, unsigned seed)
{
    static GLushort texels[8 * 8];
    for (unsigned i = 0; i < 8 * 8; i++)
        texels[i] = (GLushort)(i * 2654u + seed);
    GLuint tex = new_texture_2d();
    glTexImage2D(GL_TEXTURE_2D, 0, (GLint)format, 8, 8, 0, format, type, texels);
    nearest_2d();
    return tex;
}

#ifndef GL_BGRA_EXT
#define GL_BGRA_EXT 0x80E1
#endif

/* A BGRA texture (GL_EXT_texture_format_BGRA8888, where the GLES has it; else 0). */
static GLuint make_bgra_texture(void)
{
    const char *ext = (const char *)glGetString(GL_EXTENSIONS);
    if (!ext || !strstr(ext, "GL_EXT_texture_format_BGRA8888"))
        return 0;
    static GLubyte texels[8 * 8 * 4];
    for (int i = 0; i < 8 * 8 * 4; i++)
        texels[i] = (GLubyte)(i % 4 == 3 ? 255 : i * 13 + 3 * (i % 4));
    GLuint tex = new_texture_2d();
    glTexImage2D(GL_TEXTURE_2D, 0, GL_BGRA_EXT, 8, 8, 0, GL_BGRA_EXT, GL_UNSIGNED_BYTE, texels);
    nearest_2d();
    return tex;
}

/* A luminance texture, never sampled: GLES cannot read it back (the snapshot says so). */
static GLuint make_luminance_texture(void)
{
    static const GLubyte texels[4 * 4] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    GLuint tex = new_texture_2d();
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_LUMINANCE, 4, 4, 0, GL_LUMINANCE, GL_UNSIGNED_BYTE, texels);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    return tex;
}

/* A cube map of 8x8 texels per face, one colour per face, a corner of +Y repainted. */
static GLuint make_cube_texture(void)
{
    static GLubyte pixels[8 * 8 * 4];
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_CUBE_MAP, tex);
    for (int face = 0; face < 6; face++) {
        for (int i = 0; i < 8 * 8; i++) {
            pixels[4 * i + 0] = (GLubyte)(face & 1 ? 230 : 40 + 8 * (i % 8));
            pixels[4 * i + 1] = (GLubyte)(face & 2 ? 210 : 60);
            pixels[4 * i + 2] = (GLubyte)(face & 4 ? 190 : 20 + 8 * (i / 8));
            pixels[4 * i + 3] = 255;
        }
        glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)face, 0, GL_RGBA, 8, 8, 0, GL_RGBA,
                     GL_UNSIGNED_BYTE, pixels);
    }
    memset(pixels, 255, 4 * 4 * 4);
    glTexSubImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_Y, 0, 2, 2, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE,
                    pixels);
    glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    return tex;
}

/* --textures: the textures on units 1 to 9 (the 4th, 7th and 8th on GLES 3 only, the
 * 9th where BGRA textures are), the program's samplers set, and a luminance texture
 * bound to none; 0 or -1. */
static int make_textures(GLuint prog, GLuint tex[10])
{
    static const char *const names[9] = {"u_levels",  "u_etc1",         "u_cube",
                                         "u_etc2",    "u_565",          "u_4444",
                                         "u_storage", "u_storage_etc2", "u_bgra"};
    tex[0] = make_levels_texture();
    tex[1] = make_etc1_texture();
    tex[2] = make_cube_texture();
    tex[3] = make_etc2_texture();
    tex[4] = make_packed_texture(GL_RGB, GL_UNSIGNED_SHORT_5_6_5, 17);
    tex[5] = make_packed_texture(GL_RGBA, GL_UNSIGNED_SHORT_4_4_4_4, 40000);
    tex[6] = make_storage_texture(0);
    tex[7] = make_storage_texture(1);
    tex[8] = make_bgra_texture();
    tex[9] = make_luminance_texture();
    if (!tex[1])
        return -1;
    glUseProgram(prog);
    for (int i = 0; i < 9; i++) {
        if (!tex[i])
            continue;
        glActiveTexture(GL_TEXTURE1 + (GLenum)i);
        glBindTexture(i == 2 ? GL_TEXTURE_CUBE_MAP : GL_TEXTURE_2D, tex[i]);
        glUniform1i(glGetUniformLocation(prog, names[i]), i + 1);
    }
    return 0;
}

static GLuint make_checker_texture(void)
{
    static GLubyte pixels[CHECKER_SIZE * CHECKER_SIZE * 4];
    for (int y = 0; y < CHECKER_SIZE; y++)
        for (int x = 0; x < CHECKER_SIZE; x++) {
            GLubyte *p = &pixels[(y * CHECKER_SIZE + x) * 4];
            int on = ((x / 4) + (y / 4)) & 1;
            p[0] = on ? 250 : (GLubyte)(60 + 4 * y);
            p[1] = on ? 250 : 70;
            p[2] = on ? 250 : (GLubyte)(200 - 4 * x);
            p[3] = 255;
        }
    return app_repeat_texture(GL_RGBA, CHECKER_SIZE, pixels);
}

/* Interleaved x, y, u, v: the full-screen quad, then the star (centre + alternating tips). */
static void build_geometry(GLfloat verts[N_VERTS][4], GLushort idx[N_STAR_INDICES])
{
    static const GLfloat quad[4][4] = {
        {-1, -1, 0, 0}, {1, -1, 1, 0}, {-1, 1, 0, 1}, {1, 1, 1, 1},
    };
    memcpy(verts[QUAD_FIRST], quad, sizeof quad);
    GLfloat *c = verts[STAR_FIRST];
    c[0] = c[1] = 0.0f;
    c[2] = c[3] = 0.5f;
    for (int i = 0; i < 2 * STAR_POINTS; i++) {
        double a = 3.14159265358979 * 2.0 * i / (2 * STAR_POINTS) + 3.14159265358979 / 2.0;
        double r = (i & 1) ? 0.4 : 1.0;
        GLfloat *v = verts[STAR_FIRST + 1 + i];
        v[0] = (GLfloat)(r * cos(a));
        v[1] = (GLfloat)(r * sin(a));
        v[2] = 0.5f + 0.5f * v[0];
        v[3] = 0.5f + 0.5f * v[1];
    }
    for (int i = 0; i < 2 * STAR_POINTS; i++) { /* a fan of triangles around the centre */
        idx[3 * i + 0] = STAR_FIRST;
        idx[3 * i + 1] = (GLushort)(STAR_FIRST + 1 + i);
        idx[3 * i + 2] = (GLushort)(STAR_FIRST + 1 + (i + 1) % (2 * STAR_POINTS));
    }
}

int main(int argc, char **argv)
{
    struct app_options opt;
    app_extra_usage = "  --textures     sample more textures made before frame 0\n";
    int textures = app_take_flag(&argc, argv, "--textures") > 0;
    app_parse_options(argc, argv, &opt);

    Display *xdpy = app_open_display("es2_demo");
    if (!xdpy)
        return 1;
    EGLDisplay dpy = eglGetDisplay((EGLNativeDisplayType)xdpy);
    EGLint egl_major = 0, egl_minor = 0;
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &egl_major, &egl_minor)) {
        fprintf(stderr, "es2_demo: cannot initialise EGL on the X display\n");
        return 1;
    }
    if (!eglBindAPI(EGL_OPENGL_ES_API)) {
        fprintf(stderr, "es2_demo: EGL has no OpenGL ES API\n");
        return 1;
    }
    static const EGLint config_attribs[] = {
        EGL_SURFACE_TYPE, EGL_WINDOW_BIT,
        EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
        EGL_RED_SIZE, 8,
        EGL_GREEN_SIZE, 8,
        EGL_BLUE_SIZE, 8,
        EGL_NONE,
    };
    EGLConfig config;
    EGLint n_configs = 0;
    if (!eglChooseConfig(dpy, config_attribs, &config, 1, &n_configs) || n_configs < 1) {
        fprintf(stderr, "es2_demo: no EGL config for an OpenGL ES 2 window\n");
        return 1;
    }
    EGLint visual_id = 0;
    eglGetConfigAttrib(dpy, config, EGL_NATIVE_VISUAL_ID, &visual_id);
    XVisualInfo tmpl;
    memset(&tmpl, 0, sizeof tmpl);
    tmpl.visualid = (VisualID)visual_id;
    int n_visuals = 0;
    XVisualInfo *vi = XGetVisualInfo(xdpy, VisualIDMask, &tmpl, &n_visuals);
    if (!vi || n_visuals < 1) {
        fprintf(stderr, "es2_demo: EGL config 0x%x has no X visual\n", (unsigned)visual_id);
        return 1;
    }
    Window win = app_create_window(xdpy, vi, "es2_demo");
    XFree(vi);
    if (!win)
        return 1;

    EGLSurface surface = eglCreateWindowSurface(dpy, config, (EGLNativeWindowType)win, NULL);
    if (surface == EGL_NO_SURFACE) {
        fprintf(stderr, "es2_demo: eglCreateWindowSurface failed (0x%x)\n", (unsigned)eglGetError());
        return 1;
    }
    static const EGLint ctx_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, ctx_attribs);
    if (ctx == EGL_NO_CONTEXT) {
        fprintf(stderr, "es2_demo: cannot create an OpenGL ES 2 context (0x%x)\n",
                (unsigned)eglGetError());
        return 1;
    }
    if (!eglMakeCurrent(dpy, surface, surface, ctx)) {
        fprintf(stderr, "es2_demo: eglMakeCurrent failed (0x%x)\n", (unsigned)eglGetError());
        return 1;
    }

    if (opt.warmup) {
        app_warmup_clear(GL_COLOR_BUFFER_BIT);
        eglSwapBuffers(dpy, surface);
    }

    static const char *const attribs[] = {"a_pos", "a_uv", NULL};
    GLuint prog = app_build_program("es2_demo", vertex_src,
                                    textures ? fragment_textures_src : fragment_src, attribs);
    if (!prog)
        return 1;
    GLint u_xform = glGetUniformLocation(prog, "u_xform");
    GLint u_uv_scale = glGetUniformLocation(prog, "u_uv_scale");
    GLint u_color = glGetUniformLocation(prog, "u_color");
    GLint u_tex = glGetUniformLocation(prog, "u_tex");

    GLfloat verts[N_VERTS][4];
    GLushort indices[N_STAR_INDICES];
    build_geometry(verts, indices);
    GLuint vbo, ebo;
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof verts, verts, GL_STATIC_DRAW);
    glGenBuffers(1, &ebo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof indices, indices, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 4 * sizeof(GLfloat), (const void *)0);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 4 * sizeof(GLfloat),
                          (const void *)(2 * sizeof(GLfloat)));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);

    GLuint tex = make_checker_texture(), more[10] = {0};
    if (textures && make_textures(prog, more) != 0)
        return 1;
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, tex);
    glUseProgram(prog);
    glUniform1i(u_tex, 0);
    glViewport(0, 0, APP_WIDTH, APP_HEIGHT);

    uint8_t *pixels;
    if (app_frame_buffer("es2_demo", &opt, &pixels) != 0)
        return 1;

    const float aspect = (float)APP_HEIGHT / APP_WIDTH; /* keeps the stars round */
    int status = 0;
    for (unsigned frame = 0; frame < opt.frames; frame++) {
        float t = (float)frame;
        float m[16], s[16], r[16], tr[16];

        glClearColor(0.1f, 0.1f, 0.12f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);

        /* Background: the checkerboard, repeated 3x, darkened. */
        mat4_identity(m);
        glUniformMatrix4fv(u_xform, 1, GL_FALSE, m);
        glUniform1f(u_uv_scale, 3.0f);
        glUniform4f(u_color, 0.45f, 0.5f, 0.55f, 1.0f);
        glDrawArrays(GL_TRIANGLE_STRIP, QUAD_FIRST, 4);

        /* Two stars turning in opposite directions. */
        for (int k = 0; k < 2; k++) {
            float dir = k ? -1.0f : 1.0f;
            mat4_translate(tr, k ? 0.45f : -0.4f, k ? -0.2f : 0.15f, 0.0f);
            mat4_scale(s, (k ? 0.45f : 0.6f) * aspect, k ? 0.45f : 0.6f, 1.0f);
            mat4_rotate_z(r, dir * (0.3f + 0.25f * t));
            mat4_mul(m, s, r);
            mat4_mul(m, tr, m);
            glUniformMatrix4fv(u_xform, 1, GL_FALSE, m);
            glUniform1f(u_uv_scale, 1.0f);
            if (k)
                glUniform4f(u_color, 0.4f, 0.8f, 1.0f, 1.0f);
            else
                glUniform4f(u_color, 1.0f, 0.75f - 0.05f * (float)(frame % 4), 0.3f, 1.0f);
            glDrawElements(GL_TRIANGLES, N_STAR_INDICES, GL_UNSIGNED_SHORT, (const void *)0);
        }

        if (app_check_gl_error("es2_demo", NULL, frame) ||
            (pixels && app_read_frame(opt.save_prefix, frame, pixels) != 0)) {
            status = 1;
            break;
        }
        if (!eglSwapBuffers(dpy, surface)) {
            fprintf(stderr, "es2_demo: eglSwapBuffers failed (0x%x)\n", (unsigned)eglGetError());
            status = 1;
            break;
        }
    }

    free(pixels);
    glDeleteTextures(1, &tex);
    if (textures)
        glDeleteTextures(10, more);
    glDeleteBuffers(1, &ebo);
    glDeleteBuffers(1, &vbo);
    glDeleteProgram(prog);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglDestroySurface(dpy, surface);
    eglTerminate(dpy);
    app_destroy_window(xdpy, win);
    XCloseDisplay(xdpy);
    return status;
}
