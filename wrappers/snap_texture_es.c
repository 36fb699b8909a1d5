/* The snapshot's textures on GLES (snap_texture.h): where the driver cannot say a
 * texture's images (no glGetTexLevelParameteriv before GLES 3.1) they are the ones the
 * program specified, followed while recording (track_tex_images.c), with GLES 2's own
 * format and type pairs; compressed images are written from the program's kept uploads
 * (no GLES reads them back); a colour image is read through a framebuffer only where
 * the framebuffer is complete, which is asked while collecting so that what cannot be
 * read is said. */
#include "snap_texture.h"

#include <string.h>

#include "gl_enums.gen.h"
#include "protos.gen.h"
#include "track_tex_images.h"

static unsigned components(unsigned format)
{
    switch (format) {
    case GL_RGBA: case GL_BGRA_EXT: case GL_RGBA_INTEGER: return 4;
    case GL_RGB: case GL_RGB_INTEGER: return 3;
    case GL_RG: case GL_RG_INTEGER: case GL_LUMINANCE_ALPHA: case GL_DEPTH_STENCIL: return 2;
    case GL_RED: case GL_RED_INTEGER: case GL_ALPHA: case GL_LUMINANCE:
    case GL_DEPTH_COMPONENT: return 1;
    default: return 0;
    }
}

/* Bytes per texel of format and type (a packed type's are its own), 0 if not known. */
static unsigned texel_bytes(unsigned format, unsigned type)
{
    switch (type) {
    case GL_UNSIGNED_BYTE: case GL_BYTE: return components(format);
    case GL_UNSIGNED_SHORT: case GL_SHORT: case GL_HALF_FLOAT: case GL_HALF_FLOAT_OES:
        return 2 * components(format);
    case GL_UNSIGNED_INT: case GL_INT: case GL_FLOAT: return 4 * components(format);
    case GL_UNSIGNED_SHORT_5_6_5: case GL_UNSIGNED_SHORT_4_4_4_4:
    case GL_UNSIGNED_SHORT_5_5_5_1: return 2;
    case GL_UNSIGNED_INT_2_10_10_10_REV: case GL_UNSIGNED_INT_10F_11F_11F_REV:
    case GL_UNSIGNED_INT_5_9_9_9_REV: case GL_UNSIGNED_INT_24_8: return 4;
    case GL_FLOAT_32_UNSIGNED_INT_24_8_REV: return 8;
    default: return 0;
    }
}

const snap_format *snap_tex_format(const snap_image *im, snap_format *own)
{
    if (!im->format || !im->type)
        return snap_format_of(im->internal);
    unsigned bytes = texel_bytes(im->format, im->type);
    if (!bytes)
        return NULL;
    unsigned mask = im->format == GL_DEPTH_COMPONENT ? GL_DEPTH_BUFFER_BIT
                    : im->format == GL_DEPTH_STENCIL ? GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT
                                                     : GL_COLOR_BUFFER_BIT;
    *own = (snap_format){im->internal, im->format, im->type, bytes, mask};
    return own;
}

/* The compressed image's kept upload, where it is the image's (same sizes, format). */
static void take_upload(snap_image *im, const gtt_tex_image *g)
{
    im->compressed_size = 0;
    im->why = "compressed, and no upload of it was followed";
    if (g->width != im->width || g->height != im->height || g->internal != im->internal ||
        (g->depth > 1 && g->depth != im->depth))
        return;
    im->compressed_size = (int)g->data_size;
    im->why = g->data_size ? NULL : g->why ? g->why : "compressed, its upload not kept";
}

void snap_tex_followed_uploads(snap_texture *t)
{
    gtt_tex_spec spec;
    int followed = gtt_tex_spec_of(t->name, &spec);
    for (int l = 0; l < t->nlevels && l < GTT_TEX_LEVELS; ++l)
        for (int f = 0; f < t->nfaces; ++f) {
            snap_image *im = &t->image[l][f];
            if (!im->width || !im->compressed)
                continue;
            static const gtt_tex_image none;
            take_upload(im, followed ? &spec.image[l][f] : &none);
        }
}

void snap_tex_collect_followed(snap *s, snap_texture *t)
{
    gtt_tex_spec spec;
    t->nlevels = 0;
    if (!gtt_tex_spec_of(t->name, &spec)) /* never given an image */
        return;
    if (spec.why) {
        snap_unreadable(s, "texture %u: %s: written without images", t->name, spec.why);
        return;
    }
    if (spec.immutable_levels) {
        t->immutable = 1;
        t->immutable_levels = spec.immutable_levels;
    }
    for (int l = 0; l < GTT_TEX_LEVELS && l < SNAP_TEX_LEVELS; ++l)
        for (int f = 0; f < t->nfaces; ++f) {
            const gtt_tex_image *g = &spec.image[l][f];
            snap_image *im = &t->image[l][f];
            if (!g->width)
                continue;
            *im = (snap_image){g->width, g->height, g->depth, g->internal, g->compressed, 0,
                               0, 0, g->format, g->type, NULL};
            if (im->compressed)
                take_upload(im, g);
            t->nlevels = l + 1;
        }
    t->read = 1;
}

unsigned snap_tex_es_fb(snap *s, unsigned *binding)
{
    int es3 = snap_version(s) >= 30;
    *binding = es3 ? GL_READ_FRAMEBUFFER_BINDING : GL_FRAMEBUFFER_BINDING;
    return es3 ? GL_READ_FRAMEBUFFER : GL_FRAMEBUFFER;
}

const char *snap_tex_es_probe(snap *s, const snap_texture *t, int level, int face)
{
    if (level > 0 && snap_version(s) < 30 && !snap_has_extension(s, "GL_OES_fbo_render_mipmap"))
        return "GLES 2 without GL_OES_fbo_render_mipmap reads only level 0 through a "
               "framebuffer: contents not read";
    unsigned binding, target = snap_tex_es_fb(s, &binding), fb = 0;
    int saved = 0;
    SNAP_REAL(glGetIntegerv)(binding, &saved);
    SNAP_REAL(glGenFramebuffers)(1, &fb);
    SNAP_REAL(glBindFramebuffer)(target, fb);
    if (snap_tex_dims(t->target) == 3)
        SNAP_REAL(glFramebufferTextureLayer)(target, GL_COLOR_ATTACHMENT0, t->name, level, 0);
    else
        SNAP_REAL(glFramebufferTexture2D)(target, GL_COLOR_ATTACHMENT0, snap_tex_face(t, face),
                                          t->name, level);
    unsigned status = SNAP_REAL(glCheckFramebufferStatus)(target);
    SNAP_REAL(glBindFramebuffer)(target, (unsigned)saved);
    SNAP_REAL(glDeleteFramebuffers)(1, &fb);
    return status == GL_FRAMEBUFFER_COMPLETE
               ? NULL
               : "its format cannot be rendered to here (framebuffer incomplete), contents "
                 "not read";
}
