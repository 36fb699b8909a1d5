/* Writing multisample contents for the state snapshot (snap_multisample.h), as fake
 * calls both replayers run: the samples uploaded into a temporary GL_TEXTURE_2D_ARRAY
 * (RGBA32F, RGBA32I or RGBA32UI; layer layer * samples + sample), then for each layer of
 * the object a temporary draw framebuffer with it attached and an attributeless
 * triangle over it (a temporary vertex array; the vertex index tells the layer) whose
 * fragment shader reads gl_SampleID's layer at its pixel: using gl_SampleID shades each
 * sample apart. Depth is written as gl_FragDepth (depth test on, GL_ALWAYS); sRGB colour
 * with GL_FRAMEBUFFER_SRGB on (GL), as texelFetch decoded it.
 *
 * Written while the texture and renderbuffer parts run, before the context state (the
 * last part), which writes only values that differ from a new context's: everything the
 * draw changes is put back to what the replayed context had: the GL's defaults
 * (program, vertex array, draw framebuffer 0, depth test and function, dithering,
 * GL_FRAMEBUFFER_SRGB, active unit 0; the array target's binding on unit 0 is 0, which
 * the state part writes whatever its value) and the viewport the window-system part
 * wrote (snap_ws.c), set back while the temporary framebuffer is bound so that no
 * replayer takes it for the window's size. The temporaries take names above every name the program made, and are deleted. */
#include "snap_multisample.h"

#include <stdio.h>
#include <stdlib.h>

#include "gl_enums.gen.h"
#include "protos.gen.h"
#include "snapshot_contexts.h"

/* The GLSL version line(s) of the draw's shaders. */
static const char *glsl_header(snap *s)
{
    if (snap_api(s) == SNAP_API_GL)
        return "#version 400 core\n";
    return snap_version(s) >= 32 ? "#version 320 es\n"
                                 : "#version 310 es\n#extension GL_OES_sample_variables : require\n";
}

static void vertex_source(snap *s, char *out, size_t n)
{
    snprintf(out, n,
             "%s"
             "flat out int layer;\n"
             "void main() {\n"
             "  int v = gl_VertexID %% 3;\n"
             "  layer = gl_VertexID / 3;\n"
             "  gl_Position = vec4(v == 1 ? 3.0 : -1.0, v == 2 ? 3.0 : -1.0, 0.0, 1.0);\n"
             "}\n",
             glsl_header(s));
}

static void fragment_source(snap *s, const snap_ms *m, char *out, size_t n)
{
    static const char *const prefix[] = {"", "i", "u", ""};
    static const char *const vec[] = {"vec4", "ivec4", "uvec4", "vec4"};
    int depth = m->kind == SNAP_MS_DEPTH;
    char output[64] = "";
    if (!depth)
        snprintf(output, sizeof output, "out highp %s color;\n", vec[m->kind]);
    snprintf(out, n,
             "%s"
             "precision highp float;\nprecision highp int;\n"
             "flat in int layer;\n"
             "uniform highp %ssampler2DArray samples;\n"
             "%s"
             "void main() {\n"
             "  highp %s v = texelFetch(samples, ivec3(ivec2(gl_FragCoord.xy), "
             "layer * %d + gl_SampleID), 0);\n"
             "  %s\n"
             "}\n",
             glsl_header(s), prefix[m->kind], output, vec[m->kind], m->samples,
             depth ? "gl_FragDepth = v.r;" : "color = v;");
}

/* The upload into the temporary array texture, bound on unit 0. */
static void write_upload(GLuint tex, const snap_ms *m)
{
    static const unsigned internal[] = {GL_RGBA32F, GL_RGBA32I, GL_RGBA32UI, GL_RGBA32F};
    static const unsigned format[] = {GL_RGBA, GL_RGBA_INTEGER, GL_RGBA_INTEGER, GL_RGBA};
    static const unsigned type[] = {GL_FLOAT, GL_INT, GL_UNSIGNED_INT, GL_FLOAT};
    glGenTextures(1, &tex);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D_ARRAY, tex);
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, (GLint)internal[m->kind], m->width, m->height,
                 m->layers * m->samples, 0, format[m->kind], type[m->kind], m->texels);
}

/* The program (name, its shaders name + 1 and + 2, deleted once linked). */
static void write_program(snap *s, GLuint name, const snap_ms *m)
{
    char vs[512], fs[1024];
    const char *src[2] = {vs, fs};
    static const unsigned types[2] = {GL_VERTEX_SHADER, GL_FRAGMENT_SHADER};
    vertex_source(s, vs, sizeof vs);
    fragment_source(s, m, fs, sizeof fs);
    snap_ret(name);
    glCreateProgram();
    for (unsigned i = 0; i < 2; ++i) {
        snap_ret(name + 1 + i);
        glCreateShader(types[i]);
        glShaderSource(name + 1 + i, 1, &src[i], NULL);
        glCompileShader(name + 1 + i);
        glAttachShader(name, name + 1 + i);
    }
    glLinkProgram(name);
    glDeleteShader(name + 1);
    glDeleteShader(name + 2);
}

/* Attaches layer `layer` of the object to the draw framebuffer. */
static void attach(unsigned target, GLuint name, unsigned attachment, int layer)
{
    if (target == GL_RENDERBUFFER)
        glFramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, attachment, GL_RENDERBUFFER, name);
    else if (target == GL_TEXTURE_2D_MULTISAMPLE)
        glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, attachment, target, name, 0);
    else
        glFramebufferTextureLayer(GL_DRAW_FRAMEBUFFER, attachment, name, 0, layer);
}

/* The state the draw sets, and back (on 0). */
static void draw_state(snap *s, const snap_ms *m, int on)
{
    if (on) /* no dither may touch the values written (on by default) */
        glDisable(GL_DITHER);
    else
        glEnable(GL_DITHER);
    if (m->kind == SNAP_MS_DEPTH) {
        if (on) {
            glEnable(GL_DEPTH_TEST);
            glDepthFunc(GL_ALWAYS);
        } else {
            glDepthFunc(GL_LESS);
            glDisable(GL_DEPTH_TEST);
        }
    }
    if (m->srgb && snap_api(s) == SNAP_API_GL) {
        if (on)
            glEnable(GL_FRAMEBUFFER_SRGB);
        else
            glDisable(GL_FRAMEBUFFER_SRGB);
    }
}

void snap_ms_write(snap *s, unsigned target, unsigned name, const snap_ms *m)
{
    GLuint tex = snap_free_name("texture"), fb = snap_free_name("framebuffer");
    GLuint vao = snap_free_name("vertex array"), prog = snap_free_name("program");
    GLuint after_shaders = snap_free_name("shader");
    if (prog < after_shaders)
        prog = after_shaders; /* one namespace for both in the GL */
    const snap_format *f = snap_format_of(m->internal);
    unsigned attachment = m->kind != SNAP_MS_DEPTH ? GL_COLOR_ATTACHMENT0
                          : f->mask & GL_STENCIL_BUFFER_BIT ? GL_DEPTH_STENCIL_ATTACHMENT
                                                            : GL_DEPTH_ATTACHMENT;
    write_upload(tex, m);
    write_program(s, prog, m);
    glUseProgram(prog);
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fb);
    draw_state(s, m, 1);
    glViewport(0, 0, m->width, m->height);
    for (int layer = 0; layer < m->layers; ++layer) {
        attach(target, name, attachment, layer);
        glDrawArrays(GL_TRIANGLES, 3 * layer, 3);
    }
    int size[2];
    snap_frame_drawable_size(size);
    if (size[0] > 0 && size[1] > 0)
        glViewport(0, 0, size[0], size[1]);
    draw_state(s, m, 0);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fb);
    glBindVertexArray(0);
    glDeleteVertexArrays(1, &vao);
    glUseProgram(0);
    glDeleteProgram(prog);
    glBindTexture(GL_TEXTURE_2D_ARRAY, 0);
    glDeleteTextures(1, &tex);
}
