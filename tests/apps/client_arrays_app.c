/* client_arrays_app: a deterministic OpenGL compatibility-profile program (Xlib + GLX,
 * glXCreateContext) whose vertex data lives in client memory, for the test suite.
 *
 * Each frame, after glClear:
 *   1. fixed function: glVertexPointer + glColorPointer (interleaved, stride 16) in
 *      client memory, a strip of quads drawn with glDrawElements(GL_TRIANGLE_STRIP,
 *      GL_UNSIGNED_SHORT) from client indices with primitive restart on (index 0xFFFF
 *      between the strips). The vertex array holds exactly the vertices the indices
 *      name: a recorder that counted the restart index as a vertex would read 64 KiB
 *      past it.
 *   2. a GLSL 1.20 program: generic attributes 0 (position) and 1 (colour, unsigned
 *      bytes, normalized) in client memory, attribute 2 (offset) from a VBO that stays
 *      bound to GL_ARRAY_BUFFER; glDrawArrays(GL_TRIANGLES) of a fan of triangles.
 *   3. the same program, its positions drawn with glDrawElements(GL_TRIANGLES,
 *      GL_UNSIGNED_BYTE) from an element buffer;
 *   4. glDrawArraysInstanced: 3 client vertices, 4 instances, a client attribute with
 *      divisor 1 (instance offsets);
 *   5. glDrawElementsBaseVertex from client GLuint indices, base vertex 2.
 * The client arrays are rewritten every frame (the animation depends on the frame index
 * only), so each draw must carry its own data.
 *
 * It also prints on stdout what the GL says about program binaries:
 *   program binary formats: N
 *   program binary length: N
 * (gltrace and apitrace hide them: 0 and 0). Options: see app_common.h (--frames,
 * --save, --warmup). Any GL error exits 1. */
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

#define STRIPS 3
#define STRIP_QUADS 4
#define STRIP_VERTS (2 * (STRIP_QUADS + 1))
#define FAN 12

static const char *vertex_src =
    "#version 120\n"
    "attribute vec2 a_pos;\n"
    "attribute vec4 a_color;\n"
    "attribute vec2 a_offset;\n"
    "attribute vec2 a_inst;\n"
    "varying vec4 v_color;\n"
    "void main() {\n"
    "    v_color = a_color;\n"
    "    gl_Position = vec4(a_pos + a_offset + a_inst, 0.0, 1.0);\n"
    "}\n";

static const char *fragment_src =
    "#version 120\n"
    "varying vec4 v_color;\n"
    "void main() {\n"
    "    gl_FragColor = v_color;\n"
    "}\n";

struct ff_vertex {
    float pos[2];
    unsigned char color[4];
    float pad[1]; /* stride 16: the array is not tightly packed */
};

/* The strips of quads for frame t, and their indices with restart indices between. */
static void build_strips(struct ff_vertex *v, GLushort *idx, size_t *nidx, unsigned frame)
{
    size_t k = 0;
    for (int s = 0; s < STRIPS; ++s) {
        float y0 = 0.35f + 0.18f * (float)s, wave = 0.05f * (float)((frame + (unsigned)s) % 4);
        for (int i = 0; i <= STRIP_QUADS; ++i) {
            for (int j = 0; j < 2; ++j) {
                struct ff_vertex *p = &v[s * STRIP_VERTS + 2 * i + j];
                p->pos[0] = -0.9f + 1.8f * (float)i / STRIP_QUADS;
                p->pos[1] = y0 + 0.12f * (float)j + (i % 2 ? wave : 0.0f);
                p->color[0] = (unsigned char)(60 * s + 40 * i);
                p->color[1] = (unsigned char)(200 - 30 * i + 20 * (int)(frame % 3));
                p->color[2] = (unsigned char)(100 + 70 * j);
                p->color[3] = 255;
                p->pad[0] = 0.0f;
            }
        }
        if (s)
            idx[k++] = 0xFFFF;
        for (int i = 0; i < STRIP_VERTS; ++i)
            idx[k++] = (GLushort)(s * STRIP_VERTS + i);
    }
    *nidx = k;
}

static int check_error(const char *what, unsigned frame)
{
    return app_check_gl_error("client_arrays_app", what, frame);
}

int main(int argc, char **argv)
{
    struct app_options opt;
    app_parse_options(argc, argv, &opt);

    Display *dpy = app_open_display("client_arrays_app");
    if (!dpy)
        return 1;
    int visual_attribs[] = {GLX_RGBA, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8,
                            GLX_DOUBLEBUFFER, None};
    XVisualInfo *vi = glXChooseVisual(dpy, DefaultScreen(dpy), visual_attribs);
    if (!vi) {
        fprintf(stderr, "client_arrays_app: no suitable visual\n");
        return 1;
    }
    Window win = app_create_window(dpy, vi, "client_arrays_app");
    GLXContext ctx = glXCreateContext(dpy, vi, NULL, True);
    XFree(vi);
    if (!win || !ctx) {
        fprintf(stderr, "client_arrays_app: cannot create the window or the context\n");
        return 1;
    }
    if (!glXMakeCurrent(dpy, win, ctx)) {
        fprintf(stderr, "client_arrays_app: glXMakeCurrent failed\n");
        return 1;
    }
    const char *version = (const char *)glGetString(GL_VERSION);
    int major = 0, minor = 0;
    if (!version || sscanf(version, "%d.%d", &major, &minor) != 2 ||
        major * 10 + minor < 33) {
        fprintf(stderr, "client_arrays_app: OpenGL 3.3 (compatibility) needed, got %s\n",
                version ? version : "nothing");
        return 1;
    }

    if (opt.warmup) {
        app_warmup_clear(GL_COLOR_BUFFER_BIT);
        glXSwapBuffers(dpy, win);
    }

    static const char *const attribs[] = {"a_pos", "a_color", "a_offset", "a_inst", NULL};
    GLuint prog = app_build_program("client_arrays_app", vertex_src, fragment_src, attribs);
    if (!prog)
        return 1;
    GLint formats = -1, length = -1;
    glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &formats);
    glGetProgramiv(prog, GL_PROGRAM_BINARY_LENGTH, &length);
    printf("program binary formats: %d\nprogram binary length: %d\n", formats, length);
    fflush(stdout);

    /* attribute 2 from a VBO: one offset per vertex of glDrawArrays' triangles */
    float offsets[FAN * 3 * 2];
    for (int i = 0; i < FAN * 3; ++i) {
        offsets[2 * i] = -0.45f;
        offsets[2 * i + 1] = -0.4f;
    }
    GLuint vbo = 0, ebo = 0;
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof offsets, offsets, GL_STATIC_DRAW);
    GLubyte tri_idx[FAN * 3];
    for (int i = 0; i < FAN; ++i) {
        tri_idx[3 * i] = 0;
        tri_idx[3 * i + 1] = (GLubyte)(1 + i);
        tri_idx[3 * i + 2] = (GLubyte)(2 + i);
    }
    glGenBuffers(1, &ebo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof tri_idx, tri_idx, GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);

    struct ff_vertex strips[STRIPS * STRIP_VERTS];
    GLushort strip_idx[STRIPS * (STRIP_VERTS + 1)];
    float fan_pos[(FAN + 2) * 2], tri_pos[(FAN + 2) * 2];
    GLubyte fan_color[(FAN + 2) * 4];
    uint8_t *pixels;
    if (app_frame_buffer("client_arrays_app", &opt, &pixels) != 0)
        return 1;
    int status = 0;

    glPrimitiveRestartIndex(0xFFFF);
    for (unsigned frame = 0; frame < opt.frames && status == 0; ++frame) {
        glClearColor(0.1f, 0.1f, 0.15f + 0.05f * (float)(frame % 4), 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);

        /* 1. fixed function, client indices with primitive restart */
        size_t nidx = 0;
        build_strips(strips, strip_idx, &nidx, frame);
        glUseProgram(0);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        glEnableClientState(GL_VERTEX_ARRAY);
        glEnableClientState(GL_COLOR_ARRAY);
        glVertexPointer(2, GL_FLOAT, sizeof strips[0], strips[0].pos);
        glColorPointer(4, GL_UNSIGNED_BYTE, sizeof strips[0], strips[0].color);
        glEnable(GL_PRIMITIVE_RESTART);
        glDrawElements(GL_TRIANGLE_STRIP, (GLsizei)nidx, GL_UNSIGNED_SHORT, strip_idx);
        glDisable(GL_PRIMITIVE_RESTART);
        glDisableClientState(GL_VERTEX_ARRAY);
        glDisableClientState(GL_COLOR_ARRAY);
        status |= check_error("the fixed-function draw", frame);

        /* 2. generic attributes, two in client memory and one from the bound VBO */
        float turn = 0.3f * (float)frame;
        fan_pos[0] = fan_pos[1] = 0.0f;
        for (int i = 0; i <= FAN; ++i) {
            float a = turn + 6.2831853f * (float)i / FAN, r = i % 2 ? 0.35f : 0.25f;
            fan_pos[2 * (i + 1)] = r * cosf(a);
            fan_pos[2 * (i + 1) + 1] = r * sinf(a) * (float)APP_WIDTH / APP_HEIGHT;
        }
        for (int i = 0; i < FAN + 2; ++i) {
            fan_color[4 * i] = (GLubyte)(255 - 15 * i);
            fan_color[4 * i + 1] = (GLubyte)(80 + 10 * i + 10 * (int)(frame % 5));
            fan_color[4 * i + 2] = (GLubyte)(20 * i);
            fan_color[4 * i + 3] = 255;
        }
        float tri_data[FAN * 3 * 2];
        for (int i = 0; i < FAN; ++i)
            for (int k = 0; k < 3; ++k) {
                int v = k == 0 ? 0 : i + k;
                tri_data[2 * (3 * i + k)] = fan_pos[2 * v];
                tri_data[2 * (3 * i + k) + 1] = fan_pos[2 * v + 1];
            }
        glUseProgram(prog);
        glBindBuffer(GL_ARRAY_BUFFER, vbo);
        glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, 0, (const void *)0);
        glEnableVertexAttribArray(2);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, tri_data);
        glEnableVertexAttribArray(0);
        glVertexAttrib4f(1, 0.9f, 0.8f, 0.2f, 1.0f); /* constant colour, no array */
        glBindBuffer(GL_ARRAY_BUFFER, vbo);          /* stays bound through the draw */
        glDrawArrays(GL_TRIANGLES, 0, 3 * FAN / 2);  /* half the fan */
        status |= check_error("glDrawArrays", frame);

        /* 3. the other half of the fan, per-vertex colours, indices from the EBO */
        for (int i = 0; i < (FAN + 2) * 2; ++i)
            tri_pos[i] = fan_pos[i] + (i % 2 ? 0.0f : 0.9f);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, tri_pos);
        glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, 0, fan_color);
        glEnableVertexAttribArray(1);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo);
        glDrawElements(GL_TRIANGLES, 3 * FAN / 2, GL_UNSIGNED_BYTE,
                       (const void *)(uintptr_t)(3 * FAN / 2));
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
        glDisableVertexAttribArray(0);
        glDisableVertexAttribArray(1);
        glDisableVertexAttribArray(2);
        status |= check_error("glDrawElements from the element buffer", frame);

        /* 4. instanced: 3 client vertices, 4 instance offsets (divisor 1) in client memory */
        float tri3[6] = {0.0f, 0.0f, 0.12f, 0.0f, 0.06f, 0.1f};
        float inst[8];
        for (int i = 0; i < 4; ++i) {
            inst[2 * i] = -0.9f + 0.25f * (float)i;
            inst[2 * i + 1] = -0.95f + 0.02f * (float)((frame + (unsigned)i) % 3);
        }
        glVertexAttrib4f(1, 0.3f, 0.9f, 0.9f, 1.0f);
        glVertexAttrib2f(2, 0.0f, 0.0f);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, tri3);
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(3, 2, GL_FLOAT, GL_FALSE, 0, inst);
        glVertexAttribDivisor(3, 1);
        glEnableVertexAttribArray(3);
        glDrawArraysInstanced(GL_TRIANGLES, 0, 3, 4);
        glVertexAttribDivisor(3, 0);
        glDisableVertexAttribArray(3);
        glVertexAttrib2f(3, 0.0f, 0.0f);
        status |= check_error("glDrawArraysInstanced", frame);

        /* 5. base vertex: client GLuint indices 0..3 + 2 name vertices 2..5 of 6 */
        float quad6[12] = {9.0f, 9.0f, 9.0f, 9.0f, /* vertices 0, 1: never drawn */
                           0.5f, -0.95f, 0.8f, -0.95f, 0.5f, -0.7f, 0.8f, -0.7f + 0.03f * (float)(frame % 4)};
        static const GLuint quad_idx[6] = {0, 1, 2, 1, 3, 2};
        glVertexAttrib4f(1, 0.9f, 0.3f, 0.6f, 1.0f);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad6);
        glDrawElementsBaseVertex(GL_TRIANGLES, 6, GL_UNSIGNED_INT, quad_idx, 2);
        glDisableVertexAttribArray(0);
        status |= check_error("glDrawElementsBaseVertex", frame);
        if (status)
            break;

        if (pixels && app_read_frame(opt.save_prefix, frame, pixels) != 0) {
            status = 1;
            break;
        }
        glXSwapBuffers(dpy, win);
    }

    free(pixels);
    glDeleteBuffers(1, &ebo);
    glDeleteBuffers(1, &vbo);
    glDeleteProgram(prog);
    app_glx_close(dpy, win, ctx);
    return status;
}
