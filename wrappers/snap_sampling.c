/* The sampling parameters textures and samplers share, and the texture's own (levels,
 * swizzle, depth-stencil mode), read back and written as glTexParameter* or
 * glSamplerParameter* calls (snap_objects.h). Only what differs from a new object's
 * value is written: a new object starts at the defaults, and a parameter the replaying
 * context lacks is then never written. */
#include "snap_objects.h"

#include "gl_enums.gen.h"
#include "protos.gen.h"

struct param {
    unsigned pname;
    int is_float, count;
    float dflt;      /* the default (an enum's value as a float is exact) */
    int gl, es;      /* the versions that have it (x10), 0: none (extensions: has()) */
    int texture;     /* textures only */
};

static const struct param params[] = {
    {GL_TEXTURE_MIN_FILTER, 0, 1, GL_NEAREST_MIPMAP_LINEAR, 10, 20, 0},
    {GL_TEXTURE_MAG_FILTER, 0, 1, GL_LINEAR, 10, 20, 0},
    {GL_TEXTURE_WRAP_S, 0, 1, GL_REPEAT, 10, 20, 0},
    {GL_TEXTURE_WRAP_T, 0, 1, GL_REPEAT, 10, 20, 0},
    {GL_TEXTURE_WRAP_R, 0, 1, GL_REPEAT, 12, 30, 0},
    {GL_TEXTURE_MIN_LOD, 1, 1, -1000.0f, 12, 30, 0},
    {GL_TEXTURE_MAX_LOD, 1, 1, 1000.0f, 12, 30, 0},
    {GL_TEXTURE_LOD_BIAS, 1, 1, 0.0f, 14, 0, 0},
    {GL_TEXTURE_COMPARE_MODE, 0, 1, GL_NONE, 14, 30, 0},
    {GL_TEXTURE_COMPARE_FUNC, 0, 1, GL_LEQUAL, 14, 30, 0},
    {GL_TEXTURE_BORDER_COLOR, 1, 4, 0.0f, 10, 32, 0},
    {GL_TEXTURE_MAX_ANISOTROPY, 1, 1, 1.0f, 46, 0, 0},
    {GL_TEXTURE_SRGB_DECODE_EXT, 0, 1, GL_DECODE_EXT, 0, 0, 0},
    {GL_TEXTURE_BASE_LEVEL, 0, 1, 0, 12, 30, 1},
    {GL_TEXTURE_MAX_LEVEL, 0, 1, 1000, 12, 30, 1},
    {GL_TEXTURE_SWIZZLE_R, 0, 1, GL_RED, 33, 30, 1},
    {GL_TEXTURE_SWIZZLE_G, 0, 1, GL_GREEN, 33, 30, 1},
    {GL_TEXTURE_SWIZZLE_B, 0, 1, GL_BLUE, 33, 30, 1},
    {GL_TEXTURE_SWIZZLE_A, 0, 1, GL_ALPHA, 33, 30, 1},
    {GL_DEPTH_STENCIL_TEXTURE_MODE, 0, 1, GL_DEPTH_COMPONENT, 43, 31, 1},
};

static int has(snap *s, const struct param *p)
{
    if (p->pname == GL_TEXTURE_MAX_ANISOTROPY &&
        (snap_has_extension(s, "GL_EXT_texture_filter_anisotropic") ||
         snap_has_extension(s, "GL_ARB_texture_filter_anisotropic")))
        return 1;
    if (p->pname == GL_TEXTURE_SRGB_DECODE_EXT)
        return snap_has_extension(s, "GL_EXT_texture_sRGB_decode");
    int need = snap_api(s) == SNAP_API_GLES ? p->es : p->gl;
    return need && snap_version(s) >= need;
}

/* The default of p for this object: rectangle textures clamp and do not mipmap. */
static float default_of(const struct param *p, int rectangle)
{
    if (!rectangle)
        return p->dflt;
    switch (p->pname) {
    case GL_TEXTURE_MIN_FILTER: return GL_LINEAR;
    case GL_TEXTURE_WRAP_S: case GL_TEXTURE_WRAP_T: case GL_TEXTURE_WRAP_R:
        return GL_CLAMP_TO_EDGE;
    default: return p->dflt;
    }
}

void snap_sampling_read(snap *s, snap_sampling *out, int is_texture, unsigned target,
                        unsigned sampler, int rectangle)
{
    out->n = 0;
    for (size_t i = 0; i < sizeof params / sizeof *params; ++i) {
        const struct param *p = &params[i];
        if ((p->texture && !is_texture) || !has(s, p))
            continue;
        snap_param v = {p->pname, p->is_float, p->count, {{0}}};
        if (p->is_float && is_texture)
            SNAP_REAL(glGetTexParameterfv)(target, p->pname, v.v.f);
        else if (p->is_float)
            SNAP_REAL(glGetSamplerParameterfv)(sampler, p->pname, v.v.f);
        else if (is_texture)
            SNAP_REAL(glGetTexParameteriv)(target, p->pname, v.v.i);
        else
            SNAP_REAL(glGetSamplerParameteriv)(sampler, p->pname, v.v.i);
        float dflt = default_of(p, rectangle);
        int same = 1;
        for (int k = 0; k < p->count; ++k)
            same &= p->is_float ? v.v.f[k] == dflt : v.v.i[k] == (int)dflt;
        if (!same)
            out->p[out->n++] = v;
    }
}

void snap_sampling_write(const snap_sampling *in, int is_texture, unsigned target,
                         unsigned sampler)
{
    for (unsigned i = 0; i < in->n; ++i) {
        const snap_param *v = &in->p[i];
        if (v->count > 1 && is_texture)
            glTexParameterfv(target, v->pname, v->v.f);
        else if (v->count > 1)
            glSamplerParameterfv(sampler, v->pname, v->v.f);
        else if (v->is_float && is_texture)
            glTexParameterf(target, v->pname, v->v.f[0]);
        else if (v->is_float)
            glSamplerParameterf(sampler, v->pname, v->v.f[0]);
        else if (is_texture)
            glTexParameteri(target, v->pname, v->v.i[0]);
        else
            glSamplerParameteri(sampler, v->pname, v->v.i[0]);
    }
}
