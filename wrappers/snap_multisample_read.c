/* Reading multisample contents back for the state snapshot (snap_multisample.h): a
 * compute shader texelFetches each sample of the texture (bound on unit 0) into a shader
 * storage buffer, a band of rows at a time (the buffer stays under the storage block
 * limit), read with glGetBufferSubData (GL) or a read map (GLES). Integer formats through
 * isampler/usampler, depth through the red component. A renderbuffer is first copied
 * (glCopyImageSubData) into a temporary multisample texture of its format and samples.
 *
 * In the program's context, which must see no difference: its program, active unit,
 * unit 0's binding and sampler, the texture's swizzle and depth-stencil mode, the shader
 * storage buffer's generic and first indexed binding are put back, and every temporary
 * object deleted. Not while transform feedback is active and not paused (glUseProgram would be
 * an error). A shader that does not compile is said unreadable, with its log. */
#include "snap_multisample.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_enums.gen.h"
#include "protos.gen.h"

enum { BAND_BYTES = 64 << 20 }; /* at most this much storage buffer at a time */

static int is_srgb(unsigned internal)
{
    return internal == GL_SRGB8 || internal == GL_SRGB8_ALPHA8 || internal == GL_SRGB ||
           internal == GL_SRGB_ALPHA;
}

static int kind_of(const snap_format *f)
{
    if (f->mask & GL_DEPTH_BUFFER_BIT)
        return SNAP_MS_DEPTH;
    if (f->format == GL_RED_INTEGER || f->format == GL_RG_INTEGER ||
        f->format == GL_RGB_INTEGER || f->format == GL_RGBA_INTEGER)
        return f->type == GL_BYTE || f->type == GL_SHORT || f->type == GL_INT ? SNAP_MS_INT
                                                                               : SNAP_MS_UINT;
    return SNAP_MS_FLOAT;
}

const char *snap_ms_unreadable(snap *s, unsigned internal)
{
    if (!snap_has(s, 43, 31, NULL) || !snap_real_has("glDispatchCompute"))
        return "multisample: no compute shader (GL 4.3, GLES 3.1) to read it, contents not read";
    if (!snap_has(s, 40, 32, "GL_OES_sample_variables"))
        return "multisample: no gl_SampleID (GLES 3.2, GL_OES_sample_variables) to write it "
               "with, contents not read";
    const snap_format *f = snap_format_of(internal);
    if (!f)
        return "multisample: internal format not known to the snapshot, contents not read";
    if (f->mask == GL_STENCIL_BUFFER_BIT)
        return "multisample stencil, contents not read";
    return NULL;
}

/* The compute shader's source for m (target: the texture's). */
static void shader_source(snap *s, const snap_ms *m, unsigned target, char *out, size_t n)
{
    static const char *const prefix[] = {"", "i", "u", ""};
    static const char *const vec[] = {"vec4", "ivec4", "uvec4", "vec4"};
    int array = target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY, es = snap_api(s) == SNAP_API_GLES;
    const char *coord = array ? "ivec3(p.x, p.y + area.z, layer)" : "ivec2(p.x, p.y + area.z)";
    char fetch[128];
    snprintf(fetch, sizeof fetch, m->kind == SNAP_MS_DEPTH ? "vec4(texelFetch(tex, %s, i).r)"
                                                           : "texelFetch(tex, %s, i)", coord);
    snprintf(out, n,
             "%s%s"
             "precision highp float;\nprecision highp int;\n"
             "layout(local_size_x = 8, local_size_y = 8) in;\n"
             "layout(binding = 0) uniform highp %ssampler2DMS%s tex;\n"
             "layout(std430, binding = 0) writeonly buffer samples { highp %s v[]; } o;\n"
             "uniform ivec3 area; /* width, rows, first row */\n"
             "uniform int layer;\n"
             "void main() {\n"
             "  ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n"
             "  if (p.x >= area.x || p.y >= area.y) return;\n"
             "  for (int i = 0; i < %d; ++i)\n"
             "    o.v[(i * area.y + p.y) * area.x + p.x] = %s;\n"
             "}\n",
             !es ? "#version 430 core\n" : snap_version(s) >= 32 ? "#version 320 es\n"
                                                                  : "#version 310 es\n",
             es && array && snap_version(s) < 32
                 ? "#extension GL_OES_texture_storage_multisample_2d_array : require\n"
                 : "",
             prefix[m->kind], array ? "Array" : "", vec[m->kind], m->samples, fetch);
}

/* The linked program, or 0 with the reason said unreadable. */
static unsigned build_program(snap *s, const char *what, const char *src)
{
    char log[256] = "";
    unsigned sh = SNAP_REAL(glCreateShader)(GL_COMPUTE_SHADER), prog = 0;
    int ok = 0;
    SNAP_REAL(glShaderSource)(sh, 1, &src, NULL);
    SNAP_REAL(glCompileShader)(sh);
    SNAP_REAL(glGetShaderiv)(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        SNAP_REAL(glGetShaderInfoLog)(sh, sizeof log, NULL, log);
    } else {
        prog = SNAP_REAL(glCreateProgram)();
        SNAP_REAL(glAttachShader)(prog, sh);
        SNAP_REAL(glLinkProgram)(prog);
        SNAP_REAL(glGetProgramiv)(prog, GL_LINK_STATUS, &ok);
        if (!ok)
            SNAP_REAL(glGetProgramInfoLog)(prog, sizeof log, NULL, log);
    }
    SNAP_REAL(glDeleteShader)(sh);
    if (!ok) {
        if (prog)
            SNAP_REAL(glDeleteProgram)(prog);
        log[strcspn(log, "\n")] = '\0';
        snap_unreadable(s, "%s: multisample: its reading shader fails (%s), contents not read",
                        what, log);
        return 0;
    }
    return prog;
}

/* What the read changes in the program's context. */
typedef struct saved {
    int program, active, bound, sampler, ssbo, ssbo0, swizzle[4], ds_mode;
    GLint64 start, size;
    unsigned target;
} saved;

static void save(saved *v, unsigned target)
{
    memset(v, 0, sizeof *v);
    v->target = target;
    v->program = snap_geti(GL_CURRENT_PROGRAM);
    v->active = snap_geti(GL_ACTIVE_TEXTURE);
    SNAP_REAL(glActiveTexture)(GL_TEXTURE0);
    v->bound = snap_geti(target == GL_TEXTURE_2D_MULTISAMPLE ? GL_TEXTURE_BINDING_2D_MULTISAMPLE
                                                             : GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY);
    v->sampler = snap_geti(GL_SAMPLER_BINDING); /* its sRGB decoding would apply */
    v->ssbo = snap_geti(GL_SHADER_STORAGE_BUFFER_BINDING);
    SNAP_REAL(glGetIntegeri_v)(GL_SHADER_STORAGE_BUFFER_BINDING, 0, &v->ssbo0);
    SNAP_REAL(glGetInteger64i_v)(GL_SHADER_STORAGE_BUFFER_START, 0, &v->start);
    SNAP_REAL(glGetInteger64i_v)(GL_SHADER_STORAGE_BUFFER_SIZE, 0, &v->size);
    v->ds_mode = -1;
}

static void restore(const saved *v)
{
    if (v->ssbo0 && (v->start || v->size))
        SNAP_REAL(glBindBufferRange)(GL_SHADER_STORAGE_BUFFER, 0, (unsigned)v->ssbo0, v->start,
                                     v->size);
    else
        SNAP_REAL(glBindBufferBase)(GL_SHADER_STORAGE_BUFFER, 0, (unsigned)v->ssbo0);
    SNAP_REAL(glBindBuffer)(GL_SHADER_STORAGE_BUFFER, (unsigned)v->ssbo);
    SNAP_REAL(glBindTexture)(v->target, (unsigned)v->bound);
    if (v->sampler)
        SNAP_REAL(glBindSampler)(0, (unsigned)v->sampler);
    SNAP_REAL(glActiveTexture)((unsigned)v->active);
    SNAP_REAL(glUseProgram)((unsigned)v->program);
}

/* Sets the program's texture bound on unit 0 to read as stored (identity swizzle, the
 * depth of a depth-stencil format), saving what it had; back 1: puts that back. */
static void texture_mode(saved *v, const snap_ms *m, int back)
{
    static const unsigned pname[4] = {GL_TEXTURE_SWIZZLE_R, GL_TEXTURE_SWIZZLE_G,
                                       GL_TEXTURE_SWIZZLE_B, GL_TEXTURE_SWIZZLE_A};
    static const int identity[4] = {GL_RED, GL_GREEN, GL_BLUE, GL_ALPHA};
    for (int i = 0; i < 4; ++i) {
        if (!back)
            SNAP_REAL(glGetTexParameteriv)(v->target, pname[i], &v->swizzle[i]);
        if (v->swizzle[i] != identity[i])
            SNAP_REAL(glTexParameteri)(v->target, pname[i], back ? v->swizzle[i] : identity[i]);
    }
    if (snap_format_of(m->internal)->mask != (GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT))
        return;
    if (!back) {
        SNAP_REAL(glGetTexParameteriv)(v->target, GL_DEPTH_STENCIL_TEXTURE_MODE, &v->ds_mode);
        if (v->ds_mode == GL_DEPTH_COMPONENT)
            v->ds_mode = -1;
        else
            SNAP_REAL(glTexParameteri)(v->target, GL_DEPTH_STENCIL_TEXTURE_MODE,
                                       GL_DEPTH_COMPONENT);
    } else if (v->ds_mode >= 0) {
        SNAP_REAL(glTexParameteri)(v->target, GL_DEPTH_STENCIL_TEXTURE_MODE, v->ds_mode);
    }
}

/* One band of rows of one layer into m->texels; 0 when the map failed. */
static int read_band(snap *s, snap_ms *m, int loc_area, int loc_layer, int layer, int y0,
                     int rows, unsigned char *band)
{
    size_t row = (size_t)m->width * 16, bytes = row * (size_t)rows * (size_t)m->samples;
    SNAP_REAL(glUniform3i)(loc_area, m->width, rows, y0);
    SNAP_REAL(glUniform1i)(loc_layer, layer);
    SNAP_REAL(glDispatchCompute)((unsigned)(m->width + 7) / 8, (unsigned)(rows + 7) / 8, 1);
    SNAP_REAL(glMemoryBarrier)(GL_BUFFER_UPDATE_BARRIER_BIT);
    if (snap_api(s) == SNAP_API_GL) {
        SNAP_REAL(glGetBufferSubData)(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)bytes, band);
    } else {
        const void *p = SNAP_REAL(glMapBufferRange)(GL_SHADER_STORAGE_BUFFER, 0,
                                                    (GLsizeiptr)bytes, GL_MAP_READ_BIT);
        if (!p)
            return 0;
        memcpy(band, p, bytes);
        SNAP_REAL(glUnmapBuffer)(GL_SHADER_STORAGE_BUFFER);
    }
    unsigned char *out = m->texels;
    for (int i = 0; i < m->samples; ++i)
        memcpy(out + (((size_t)layer * (size_t)m->samples + (size_t)i) * (size_t)m->height +
                      (size_t)y0) * row,
               band + (size_t)i * (size_t)rows * row, row * (size_t)rows);
    return 1;
}

/* Every sample of the texture bound on unit 0, through prog, a band of rows at a time. */
static int read_all(snap *s, snap_ms *m, unsigned prog, int band_rows)
{
    size_t band_bytes = (size_t)m->width * 16 * (size_t)band_rows * (size_t)m->samples;
    unsigned char *band = malloc(band_bytes);
    unsigned buf = 0;
    if (!band)
        return 0;
    SNAP_REAL(glUseProgram)(prog);
    int loc_area = SNAP_REAL(glGetUniformLocation)(prog, "area");
    int loc_layer = SNAP_REAL(glGetUniformLocation)(prog, "layer");
    SNAP_REAL(glGenBuffers)(1, &buf);
    SNAP_REAL(glBindBuffer)(GL_SHADER_STORAGE_BUFFER, buf);
    SNAP_REAL(glBufferData)(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)band_bytes, NULL,
                            GL_STREAM_READ);
    SNAP_REAL(glBindBufferBase)(GL_SHADER_STORAGE_BUFFER, 0, buf);
    int ok = 1;
    for (int layer = 0; layer < m->layers && ok; ++layer)
        for (int y = 0; y < m->height && ok; y += band_rows) {
            int rows = m->height - y < band_rows ? m->height - y : band_rows;
            ok = read_band(s, m, loc_area, loc_layer, layer, y, rows, band);
        }
    SNAP_REAL(glBindBufferBase)(GL_SHADER_STORAGE_BUFFER, 0, 0);
    SNAP_REAL(glDeleteBuffers)(1, &buf);
    free(band);
    return ok;
}

/* Rows per band: within the storage block limit; 0 when one row is over it. */
static int band_rows(const snap_ms *m)
{
    GLint64 max = 0;
    SNAP_REAL(glGetInteger64v)(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &max);
    if (max > BAND_BYTES)
        max = BAND_BYTES;
    long long row = (long long)m->width * 16 * m->samples;
    long long rows = row > 0 ? max / row : 0;
    return rows > m->height ? m->height : (int)rows;
}

static snap_ms *new_ms(unsigned internal, int width, int height, int layers, int samples)
{
    snap_ms *m = calloc(1, sizeof *m);
    size_t bytes = (size_t)width * (size_t)height * (size_t)layers * (size_t)samples * 16;
    void *texels = width > 0 && height > 0 && layers > 0 && samples > 0 ? malloc(bytes) : NULL;
    if (!m || !texels) {
        free(m);
        free(texels);
        return NULL;
    }
    const snap_format *f = snap_format_of(internal);
    *m = (snap_ms){internal, kind_of(f), is_srgb(internal), width, height, layers, samples,
                   texels};
    return m;
}

/* Reads the texture `name` of target; program_texture: the program's (else our copy). */
static snap_ms *read_texture(snap *s, const char *what, unsigned name, unsigned target,
                             int program_texture, unsigned internal, int width, int height,
                             int layers, int samples)
{
    const char *why = snap_ms_unreadable(s, internal);
    if (!why && snap_has(s, 40, 30, "GL_ARB_transform_feedback2")) {
        unsigned char active = 0, paused = 0;
        SNAP_REAL(glGetBooleanv)(GL_TRANSFORM_FEEDBACK_ACTIVE, &active);
        SNAP_REAL(glGetBooleanv)(GL_TRANSFORM_FEEDBACK_PAUSED, &paused);
        if (active && !paused)
            why = "multisample: transform feedback is active, contents not read";
    }
    snap_ms *m = why ? NULL : new_ms(internal, width, height, layers, samples);
    int rows = m ? band_rows(m) : 0;
    if (why || !m || !rows) {
        snap_unreadable(s, "%s: %s", what,
                        why ? why : !m ? "multisample: out of memory, contents not read"
                                       : "multisample: a row is over the storage block limit, "
                                         "contents not read");
        snap_ms_free(m);
        return NULL;
    }
    char src[2048];
    shader_source(s, m, target, src, sizeof src);
    unsigned prog = build_program(s, what, src);
    if (!prog) {
        snap_ms_free(m);
        return NULL;
    }
    saved v;
    save(&v, target);
    SNAP_REAL(glBindTexture)(target, name);
    if (v.sampler)
        SNAP_REAL(glBindSampler)(0, 0);
    if (program_texture)
        texture_mode(&v, m, 0);
    int ok = read_all(s, m, prog, rows);
    if (program_texture)
        texture_mode(&v, m, 1);
    restore(&v);
    SNAP_REAL(glDeleteProgram)(prog);
    if (!ok) {
        snap_unreadable(s, "%s: multisample: the samples could not be mapped, contents not read",
                        what);
        snap_ms_free(m);
        return NULL;
    }
    if (snap_format_of(internal)->mask & GL_STENCIL_BUFFER_BIT)
        snap_unreadable(s, "%s: multisample depth and stencil: the depth is written, the "
                        "stencil not read", what);
    return m;
}

snap_ms *snap_ms_read_texture(snap *s, unsigned name, unsigned target, unsigned internal,
                              int width, int height, int layers, int samples)
{
    char what[32];
    snprintf(what, sizeof what, "texture %u", name);
    return read_texture(s, what, name, target, 1, internal, width, height,
                        target == GL_TEXTURE_2D_MULTISAMPLE ? 1 : layers, samples);
}

snap_ms *snap_ms_read_renderbuffer(snap *s, unsigned name, unsigned internal, int width,
                                   int height, int samples)
{
    char what[32];
    snprintf(what, sizeof what, "renderbuffer %u", name);
    const char *why = snap_ms_unreadable(s, internal);
    if (!why && (!snap_has(s, 43, 32, "GL_ARB_copy_image") ||
                 !snap_real_has("glCopyImageSubData")))
        why = "multisample: no glCopyImageSubData (GL 4.3, GLES 3.2) to read it, contents "
              "not read";
    if (why) {
        snap_unreadable(s, "%s: %s", what, why);
        return NULL;
    }
    /* a multisample texture of its format and samples, a copy of it */
    unsigned tex = 0;
    int active = snap_geti(GL_ACTIVE_TEXTURE);
    SNAP_REAL(glActiveTexture)(GL_TEXTURE0);
    int bound = snap_geti(GL_TEXTURE_BINDING_2D_MULTISAMPLE);
    SNAP_REAL(glGenTextures)(1, &tex);
    SNAP_REAL(glBindTexture)(GL_TEXTURE_2D_MULTISAMPLE, tex);
    SNAP_REAL(glTexStorage2DMultisample)(GL_TEXTURE_2D_MULTISAMPLE, samples, internal, width,
                                         height, GL_TRUE);
    SNAP_REAL(glCopyImageSubData)(name, GL_RENDERBUFFER, 0, 0, 0, 0, tex,
                                  GL_TEXTURE_2D_MULTISAMPLE, 0, 0, 0, 0, width, height, 1);
    SNAP_REAL(glBindTexture)(GL_TEXTURE_2D_MULTISAMPLE, (unsigned)bound);
    SNAP_REAL(glActiveTexture)((unsigned)active);
    snap_ms *m = read_texture(s, what, tex, GL_TEXTURE_2D_MULTISAMPLE, 0, internal, width,
                              height, 1, samples);
    SNAP_REAL(glDeleteTextures)(1, &tex);
    return m;
}

void snap_ms_free(snap_ms *m)
{
    if (m)
        free(m->texels);
    free(m);
}
