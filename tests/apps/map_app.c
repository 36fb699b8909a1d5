/* map_app: a deterministic OpenGL program (Xlib + GLX, 3.3 core context plus
 * ARB_buffer_storage) whose vertex data reaches the GL only through buffer maps, for the
 * mapped-buffer recording test (tests/integration/mapped_buffers.sh).
 *
 * Eight objects in a 4x2 grid, each drawn from its own VBO, refilled every frame:
 *   A  glMapBufferRange(WRITE | INVALIDATE_BUFFER), written whole, glUnmapBuffer;
 *   B  glMapBufferRange(WRITE | FLUSH_EXPLICIT), written whole, flushed in two pieces
 *      with glFlushMappedBufferRange, glUnmapBuffer;
 *   C  glBufferStorage(MAP_WRITE | PERSISTENT | COHERENT), mapped once for the whole run;
 *      a ring of three slots of a 256-vertex strip (5 KiB each, so the slots straddle
 *      pages), frame i writes slot i % 3 and draws it;
 *   D  glBufferStorage(MAP_WRITE | PERSISTENT), mapped once with FLUSH_EXPLICIT; each
 *      frame writes the object and flushes the bytes it wrote;
 *   E  glMapBuffer(GL_WRITE_ONLY), written whole, glUnmapBuffer;
 *   F  glCreateBuffers + glNamedBufferStorage(MAP_WRITE | PERSISTENT), mapped once with
 *      glMapNamedBufferRange(WRITE | PERSISTENT): neither coherent nor explicitly flushed,
 *      the writes are made visible with glMemoryBarrier(CLIENT_MAPPED_BUFFER_BARRIER_BIT)
 *      (apitrace 11 records nothing for such maps: its replay shows F frozen);
 *   G  glMapNamedBufferRange(WRITE | FLUSH_EXPLICIT | INVALIDATE_BUFFER), written whole,
 *      glFlushMappedNamedBufferRange, glUnmapNamedBuffer;
 *   H  glMapNamedBuffer(GL_WRITE_ONLY), written whole, glUnmapNamedBuffer;
 *   and A's buffer is mapped again after the draws with READ_BIT only and checked (a
 *   read map must put no memcpy in a trace).
 * A fence after each frame's draws is waited for (glClientWaitSync) before the
 * persistent buffers are written again. Animation depends on the frame index only.
 * Options as the other demo apps (app_common.h): --frames N, --save PREFIX, --warmup. */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#include <GL/glx.h>

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_common.h"
#include "gl_util.h"
#include "glx_util.h"

#ifndef GL_MAP_PERSISTENT_BIT
#define GL_MAP_PERSISTENT_BIT 0x0040
#define GL_MAP_COHERENT_BIT 0x0080
#endif

typedef void (*buffer_storage_fn)(GLenum, GLsizeiptr, const void *, GLbitfield);
typedef void (*create_buffers_fn)(GLsizei, GLuint *);
typedef void (*named_buffer_storage_fn)(GLuint, GLsizeiptr, const void *, GLbitfield);
typedef void (*named_buffer_data_fn)(GLuint, GLsizeiptr, const void *, GLenum);
typedef void *(*map_named_buffer_range_fn)(GLuint, GLintptr, GLsizeiptr, GLbitfield);
typedef void *(*map_named_buffer_fn)(GLuint, GLenum);
typedef void (*flush_mapped_named_buffer_range_fn)(GLuint, GLintptr, GLsizeiptr);
typedef GLboolean (*unmap_named_buffer_fn)(GLuint);
typedef void (*memory_barrier_fn)(GLbitfield);

#ifndef GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT
#define GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT 0x00004000
#endif

static void (*proc(const char *name))(void)
{
    void (*p)(void) = glXGetProcAddressARB((const GLubyte *)name);
    if (!p)
        fprintf(stderr, "map_app: %s not available\n", name);
    return p;
}

static const char *vertex_src =
    "#version 330 core\n"
    "layout(location = 0) in vec2 a_pos;\n"
    "layout(location = 1) in vec3 a_color;\n"
    "out vec3 v_color;\n"
    "void main() {\n"
    "    v_color = a_color;\n"
    "    gl_Position = vec4(a_pos, 0.0, 1.0);\n"
    "}\n";

static const char *fragment_src =
    "#version 330 core\n"
    "in vec3 v_color;\n"
    "out vec4 frag_color;\n"
    "void main() { frag_color = vec4(v_color, 1.0); }\n";

struct vertex {
    float pos[2];
    float color[3];
};

#define HEX_VERTS 18    /* six triangles */
#define STRIP_VERTS 256 /* object C */
#define RING_SLOTS 3

/* Centre of grid cell k (4 columns, 2 rows) in NDC. */
static void cell(int k, float *cx, float *cy)
{
    *cx = -0.75f + (float)(k % 4) * 0.5f;
    *cy = k < 4 ? 0.5f : -0.5f;
}

/* A turning hexagon in cell k, coloured by object and frame. */
static void hexagon(struct vertex *v, int k, unsigned frame)
{
    float cx, cy;
    cell(k, &cx, &cy);
    float a0 = 0.3f * (float)frame + 0.5f * (float)k, r = 0.22f + 0.02f * (float)(frame % 3);
    for (int i = 0; i < 6; i++) {
        float a = a0 + (float)i * 1.0471976f, b = a + 1.0471976f;
        struct vertex *t = &v[i * 3];
        t[0] = (struct vertex){{cx, cy}, {1.0f, 1.0f, 1.0f}};
        t[1] = (struct vertex){{cx + r * cosf(a) * 0.6f, cy + r * sinf(a)},
                               {0.2f + 0.13f * (float)k, 0.1f * (float)i, 0.9f - 0.1f * (float)(frame % 4)}};
        t[2] = (struct vertex){{cx + r * cosf(b) * 0.6f, cy + r * sinf(b)},
                               {0.9f - 0.12f * (float)k, 0.5f + 0.08f * (float)i, 0.3f}};
    }
}

/* A waving band across cell k: STRIP_VERTS vertices of a triangle strip. */
static void wave(struct vertex *v, int k, unsigned frame)
{
    float cx, cy;
    cell(k, &cx, &cy);
    for (int i = 0; i < STRIP_VERTS / 2; i++) {
        float x = cx - 0.22f + 0.44f * (float)i / (float)(STRIP_VERTS / 2 - 1);
        float h = 0.08f + 0.12f * (0.5f + 0.5f * sinf(16.0f * x + 0.7f * (float)frame));
        float g = 0.3f + 0.6f * (float)i / (float)(STRIP_VERTS / 2);
        v[2 * i] = (struct vertex){{x, cy - h}, {0.9f, g, 0.2f + 0.1f * (float)(frame % 5)}};
        v[2 * i + 1] = (struct vertex){{x, cy + h}, {0.2f, g, 0.9f}};
    }
}

/* A VAO reading struct vertex from vbo. */
static GLuint make_vao(GLuint vbo)
{
    GLuint vao;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(struct vertex),
                          (const void *)offsetof(struct vertex, pos));
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(struct vertex),
                          (const void *)offsetof(struct vertex, color));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    return vao;
}

static int has_gl_extension(const char *name)
{
    GLint n = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &n);
    for (GLint i = 0; i < n; i++)
        if (strcmp((const char *)glGetStringi(GL_EXTENSIONS, (GLuint)i), name) == 0)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    struct app_options opt;
    app_parse_options(argc, argv, &opt);

    static const int fb_attribs[] = {
        GLX_X_RENDERABLE, True, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT, GLX_RENDER_TYPE, GLX_RGBA_BIT,
        GLX_X_VISUAL_TYPE, GLX_TRUE_COLOR, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8,
        GLX_DEPTH_SIZE, 24, GLX_DOUBLEBUFFER, True, None,
    };
    Display *dpy;
    GLXFBConfig config;
    Window win = app_glx_open("map_app", fb_attribs, &dpy, &config);
    if (!win)
        return 1;
    PFNGLXCREATECONTEXTATTRIBSARBPROC create_context;
    GLXContext ctx = app_glx_core33_context(dpy, win, config, "map_app", &create_context);
    if (!ctx)
        return 1;
    if (opt.warmup) {
        app_warmup_clear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glXSwapBuffers(dpy, win);
    }
    static const char *const needed[] = {"GL_ARB_buffer_storage", "GL_ARB_direct_state_access",
                                         "GL_ARB_shader_image_load_store"};
    for (size_t i = 0; i < sizeof needed / sizeof *needed; i++)
        if (!has_gl_extension(needed[i])) {
            fprintf(stderr, "map_app: %s not supported\n", needed[i]);
            return 1;
        }
    buffer_storage_fn buffer_storage = (buffer_storage_fn)proc("glBufferStorage");
    create_buffers_fn create_buffers = (create_buffers_fn)proc("glCreateBuffers");
    named_buffer_storage_fn named_buffer_storage =
        (named_buffer_storage_fn)proc("glNamedBufferStorage");
    named_buffer_data_fn named_buffer_data = (named_buffer_data_fn)proc("glNamedBufferData");
    map_named_buffer_range_fn map_named_buffer_range =
        (map_named_buffer_range_fn)proc("glMapNamedBufferRange");
    map_named_buffer_fn map_named_buffer = (map_named_buffer_fn)proc("glMapNamedBuffer");
    flush_mapped_named_buffer_range_fn flush_mapped_named_buffer_range =
        (flush_mapped_named_buffer_range_fn)proc("glFlushMappedNamedBufferRange");
    unmap_named_buffer_fn unmap_named_buffer = (unmap_named_buffer_fn)proc("glUnmapNamedBuffer");
    memory_barrier_fn memory_barrier = (memory_barrier_fn)proc("glMemoryBarrier");
    if (!buffer_storage || !create_buffers || !named_buffer_storage || !named_buffer_data ||
        !map_named_buffer_range || !map_named_buffer || !flush_mapped_named_buffer_range ||
        !unmap_named_buffer || !memory_barrier)
        return 1;

    GLuint prog = app_build_program("map_app", vertex_src, fragment_src, NULL);
    if (!prog)
        return 1;

    enum { A, B, C, D, E, F, G, H, N_OBJ };
    GLuint vbo[N_OBJ], vao[N_OBJ];
    glGenBuffers(F, vbo);
    create_buffers(N_OBJ - F, vbo + F);
    const GLsizeiptr hex_bytes = HEX_VERTS * sizeof(struct vertex);
    const GLsizeiptr slot_bytes = STRIP_VERTS * sizeof(struct vertex);
    glBindBuffer(GL_ARRAY_BUFFER, vbo[A]);
    glBufferData(GL_ARRAY_BUFFER, hex_bytes, NULL, GL_DYNAMIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, vbo[B]);
    glBufferData(GL_ARRAY_BUFFER, hex_bytes, NULL, GL_DYNAMIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, vbo[E]);
    glBufferData(GL_ARRAY_BUFFER, hex_bytes, NULL, GL_DYNAMIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, vbo[C]);
    buffer_storage(GL_ARRAY_BUFFER, RING_SLOTS * slot_bytes, NULL,
                   GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    struct vertex *ring = glMapBufferRange(GL_ARRAY_BUFFER, 0, RING_SLOTS * slot_bytes,
                                           GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT |
                                               GL_MAP_COHERENT_BIT);
    /* D: the object sits after 1000 bytes (50 vertices) of zeroes: its flushes have an offset. */
    const GLintptr d_offset = 1000;
    glBindBuffer(GL_ARRAY_BUFFER, vbo[D]);
    buffer_storage(GL_ARRAY_BUFFER, d_offset + hex_bytes, NULL,
                   GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT);
    uint8_t *d_map = glMapBufferRange(GL_ARRAY_BUFFER, 0, d_offset + hex_bytes,
                                      GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT |
                                          GL_MAP_FLUSH_EXPLICIT_BIT);
    named_buffer_storage(vbo[F], hex_bytes, NULL, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT);
    uint8_t *f_map = map_named_buffer_range(vbo[F], 0, hex_bytes,
                                            GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT);
    named_buffer_data(vbo[G], hex_bytes, NULL, GL_DYNAMIC_DRAW);
    named_buffer_data(vbo[H], hex_bytes, NULL, GL_DYNAMIC_DRAW);
    if (!ring || !d_map || !f_map) {
        fprintf(stderr, "map_app: persistent map failed (GL error 0x%04x)\n", glGetError());
        return 1;
    }
    for (int k = 0; k < N_OBJ; k++)
        vao[k] = make_vao(vbo[k]);

    uint8_t *pixels;
    if (app_frame_buffer("map_app", &opt, &pixels) != 0)
        return 1;
    glUseProgram(prog);
    glViewport(0, 0, APP_WIDTH, APP_HEIGHT);

    GLsync fence = NULL;
    int status = 0;
    struct vertex hex[HEX_VERTS];
    for (unsigned frame = 0; frame < opt.frames && !status; frame++) {
        if (fence) { /* the GL is done with the persistent buffers */
            glClientWaitSync(fence, GL_SYNC_FLUSH_COMMANDS_BIT, 10000000000ull);
            glDeleteSync(fence);
            fence = NULL;
        }
        glClearColor(0.10f, 0.12f + 0.02f * (float)(frame % 3), 0.16f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);

        /* A: write-only, invalidated, unmapped. */
        hexagon(hex, 0, frame);
        glBindBuffer(GL_ARRAY_BUFFER, vbo[A]);
        void *p = glMapBufferRange(GL_ARRAY_BUFFER, 0, hex_bytes,
                                   GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
        if (!p) {
            fprintf(stderr, "map_app: map of A failed\n");
            status = 1;
            break;
        }
        memcpy(p, hex, sizeof hex);
        glUnmapBuffer(GL_ARRAY_BUFFER);

        /* B: explicit flushes of two pieces. */
        hexagon(hex, 1, frame);
        glBindBuffer(GL_ARRAY_BUFFER, vbo[B]);
        p = glMapBufferRange(GL_ARRAY_BUFFER, 0, hex_bytes,
                             GL_MAP_WRITE_BIT | GL_MAP_FLUSH_EXPLICIT_BIT);
        if (!p) {
            fprintf(stderr, "map_app: map of B failed\n");
            status = 1;
            break;
        }
        memcpy(p, hex, sizeof hex);
        glFlushMappedBufferRange(GL_ARRAY_BUFFER, 0, hex_bytes / 2);
        glFlushMappedBufferRange(GL_ARRAY_BUFFER, hex_bytes / 2, hex_bytes - hex_bytes / 2);
        glUnmapBuffer(GL_ARRAY_BUFFER);

        /* C: persistent coherent ring, no flush at all. */
        unsigned slot = frame % RING_SLOTS;
        wave(ring + slot * STRIP_VERTS, 2, frame);

        /* D: persistent, explicitly flushed. */
        hexagon(hex, 3, frame);
        memcpy(d_map + d_offset, hex, sizeof hex);
        glBindBuffer(GL_ARRAY_BUFFER, vbo[D]);
        glFlushMappedBufferRange(GL_ARRAY_BUFFER, d_offset, hex_bytes);

        /* E: glMapBuffer. */
        hexagon(hex, 4, frame);
        glBindBuffer(GL_ARRAY_BUFFER, vbo[E]);
        p = glMapBuffer(GL_ARRAY_BUFFER, GL_WRITE_ONLY);
        if (!p) {
            fprintf(stderr, "map_app: map of E failed\n");
            status = 1;
            break;
        }
        memcpy(p, hex, sizeof hex);
        glUnmapBuffer(GL_ARRAY_BUFFER);

        /* F: persistent, neither coherent nor flushed: a barrier makes it visible. */
        hexagon(hex, 5, frame);
        memcpy(f_map, hex, sizeof hex);

        /* G: named, explicit flush. */
        hexagon(hex, 6, frame);
        p = map_named_buffer_range(vbo[G], 0, hex_bytes,
                                   GL_MAP_WRITE_BIT | GL_MAP_FLUSH_EXPLICIT_BIT |
                                       GL_MAP_INVALIDATE_BUFFER_BIT);
        if (!p) {
            fprintf(stderr, "map_app: map of G failed\n");
            status = 1;
            break;
        }
        memcpy(p, hex, sizeof hex);
        flush_mapped_named_buffer_range(vbo[G], 0, hex_bytes);
        unmap_named_buffer(vbo[G]);

        /* H: glMapNamedBuffer. */
        hexagon(hex, 7, frame);
        p = map_named_buffer(vbo[H], GL_WRITE_ONLY);
        if (!p) {
            fprintf(stderr, "map_app: map of H failed\n");
            status = 1;
            break;
        }
        memcpy(p, hex, sizeof hex);
        unmap_named_buffer(vbo[H]);

        memory_barrier(GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT);
        glBindVertexArray(vao[A]);
        glDrawArrays(GL_TRIANGLES, 0, HEX_VERTS);
        glBindVertexArray(vao[B]);
        glDrawArrays(GL_TRIANGLES, 0, HEX_VERTS);
        glBindVertexArray(vao[C]);
        glDrawArrays(GL_TRIANGLE_STRIP, (GLint)(slot * STRIP_VERTS), STRIP_VERTS);
        glBindVertexArray(vao[D]);
        glDrawArrays(GL_TRIANGLES, (GLint)(d_offset / (GLintptr)sizeof(struct vertex)), HEX_VERTS);
        for (int k = E; k < N_OBJ; k++) {
            glBindVertexArray(vao[k]);
            glDrawArrays(GL_TRIANGLES, 0, HEX_VERTS);
        }
        fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);

        /* A read back through a read-only map. */
        glBindBuffer(GL_ARRAY_BUFFER, vbo[A]);
        const struct vertex *r = glMapBufferRange(GL_ARRAY_BUFFER, 0, hex_bytes, GL_MAP_READ_BIT);
        hexagon(hex, 0, frame);
        if (!r || memcmp(r, hex, sizeof hex) != 0) {
            fprintf(stderr, "map_app: frame %u: A reads back wrong through a read map\n", frame);
            status = 1;
        }
        if (r)
            glUnmapBuffer(GL_ARRAY_BUFFER);

        if (app_check_gl_error("map_app", NULL, frame) ||
            (pixels && app_read_frame(opt.save_prefix, frame, pixels) != 0)) {
            status = 1;
            break;
        }
        glXSwapBuffers(dpy, win);
    }

    if (fence)
        glDeleteSync(fence);
    glBindBuffer(GL_ARRAY_BUFFER, vbo[C]);
    glUnmapBuffer(GL_ARRAY_BUFFER);
    glBindBuffer(GL_ARRAY_BUFFER, vbo[D]);
    glUnmapBuffer(GL_ARRAY_BUFFER);
    unmap_named_buffer(vbo[F]);
    free(pixels);
    glDeleteVertexArrays(N_OBJ, vao);
    glDeleteBuffers(N_OBJ, vbo);
    glDeleteProgram(prog);
    app_glx_close(dpy, win, ctx);
    return status;
}
