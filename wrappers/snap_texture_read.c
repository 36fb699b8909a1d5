/* Reading a texture's images back for the state snapshot (snap_texture.h): on GL with
 * glGetTexImage and glGetCompressedTexImage, whole levels at a time; on GLES, which has
 * neither, through a temporary framebuffer and glReadPixels, one layer at a time, for
 * the 8-bit colour formats every GLES reads as RGBA bytes (the 16-bit packed ones packed
 * again), and compressed images from the program's uploads kept while recording
 * (track_tex_images.c). Multisample images are read sample by sample while the part
 * collects (snap_multisample.h), not here. The caller has set the pack state to tight
 * rows with no pixel pack buffer (snap_store_begin). */
#include "snap_texture.h"

#include <stdlib.h>
#include <string.h>

#include "gl_enums.gen.h"
#include "snap_multisample.h"
#include "protos.gen.h"
#include "track_tex_images.h"

/* Components of an 8-bit format GLES reads as RGBA bytes, else 0. */
static int es_components(const snap_format *f)
{
    if (!f || f->type != GL_UNSIGNED_BYTE || f->mask != GL_COLOR_BUFFER_BIT)
        return 0;
    switch (f->format) {
    case GL_RGBA: case GL_BGRA_EXT: return 4; /* BGRA: swapped back (es_store) */
    case GL_RGB: return 3;
    case GL_RG: return 2;
    case GL_RED: return 1;
    default: return 0;
    }
}

/* Whether f is a 16-bit packed colour format (GLES 2's colour-renderable ones), read as
 * RGBA bytes and packed again: a channel of n bits read as 8 goes back exactly. */
static int es_packed(const snap_format *f)
{
    return f && f->mask == GL_COLOR_BUFFER_BIT &&
           ((f->format == GL_RGB && f->type == GL_UNSIGNED_SHORT_5_6_5) ||
            (f->format == GL_RGBA && (f->type == GL_UNSIGNED_SHORT_4_4_4_4 ||
                                      f->type == GL_UNSIGNED_SHORT_5_5_5_1)));
}

static unsigned es_bits(uint8_t c, unsigned n)
{
    unsigned max = (1u << n) - 1;
    return (c * max + 127) / 255;
}

/* texels RGBA bytes as f's texels into out. */
static void es_store(const snap_format *f, const uint8_t *rgba, size_t texels, uint8_t *out)
{
    int n = es_components(f);
    for (size_t i = 0; i < texels; ++i) {
        const uint8_t *p = rgba + i * 4;
        if (f->format == GL_BGRA_EXT) {
            const uint8_t bgra[4] = {p[2], p[1], p[0], p[3]};
            memcpy(out + i * 4, bgra, 4);
            continue;
        }
        if (n) {
            memcpy(out + i * (size_t)n, p, (size_t)n);
            continue;
        }
        unsigned v;
        if (f->type == GL_UNSIGNED_SHORT_5_6_5)
            v = es_bits(p[0], 5) << 11 | es_bits(p[1], 6) << 5 | es_bits(p[2], 5);
        else if (f->type == GL_UNSIGNED_SHORT_4_4_4_4)
            v = es_bits(p[0], 4) << 12 | es_bits(p[1], 4) << 8 | es_bits(p[2], 4) << 4 |
                es_bits(p[3], 4);
        else
            v = es_bits(p[0], 5) << 11 | es_bits(p[1], 5) << 6 | es_bits(p[2], 5) << 1 |
                es_bits(p[3], 1);
        uint16_t packed = (uint16_t)v;
        memcpy(out + i * 2, &packed, 2);
    }
}

/* Why GLES cannot read an uncompressed image of format f back here, or NULL. */
static const char *es_unreadable(const snap_format *f)
{
    if (es_components(f) || es_packed(f))
        return NULL;
    if (f->format == GL_LUMINANCE || f->format == GL_ALPHA || f->format == GL_LUMINANCE_ALPHA)
        return "luminance and alpha formats are not colour-renderable on GLES, contents not "
               "read";
    return "GLES reads back only 8-bit and 16-bit packed colour formats here, contents not "
           "read";
}

const char *snap_tex_unreadable(snap *s, const snap_texture *t, const snap_image *im)
{
    if (snap_tex_multisample(t->target)) /* read in collect: snap_multisample.h */
        return snap_ms_unreadable(s, im->internal);
    if (im->compressed && snap_api(s) == SNAP_API_GL)
        return snap_real_has("glGetCompressedTexImage")
                   ? NULL
                   : "compressed, no glGetCompressedTexImage to read it: not written";
    if (im->compressed) /* GLES: written from the program's upload, kept while recording */
        return im->compressed_size > 0 && !im->why ? NULL
               : im->why ? im->why
                         : "compressed, GLES cannot read it back: not written";
    snap_format own;
    const snap_format *f = snap_tex_format(im, &own);
    if (!f)
        return "internal format not known to the snapshot, contents not read";
    if (snap_api(s) == SNAP_API_GLES)
        return es_unreadable(f);
    return NULL;
}

size_t snap_tex_image_bytes(const snap_image *im)
{
    if (im->compressed)
        return im->compressed_size > 0 ? (size_t)im->compressed_size : 0;
    snap_format own;
    const snap_format *f = snap_tex_format(im, &own);
    if (!f || im->width <= 0)
        return 0;
    size_t h = im->height > 0 ? (size_t)im->height : 1, d = im->depth > 0 ? (size_t)im->depth : 1;
    return (size_t)im->width * h * d * f->bytes;
}

/* One layer (or the 2D image of a face) through a read framebuffer. */
static int es_read_layer(unsigned fb, const snap_texture *t, int level, int face, int layer,
                         const snap_format *f, int robust, uint8_t *rgba, uint8_t *out)
{
    const snap_image *im = &t->image[level][face];
    if (snap_tex_dims(t->target) == 3)
        SNAP_REAL(glFramebufferTextureLayer)(fb, GL_COLOR_ATTACHMENT0, t->name, level, layer);
    else
        SNAP_REAL(glFramebufferTexture2D)(fb, GL_COLOR_ATTACHMENT0, snap_tex_face(t, face),
                                          t->name, level);
    if (SNAP_REAL(glCheckFramebufferStatus)(fb) != GL_FRAMEBUFFER_COMPLETE)
        return 0;
    size_t texels = (size_t)im->width * (size_t)im->height;
    if (robust) /* refuses rather than write past rgba */
        SNAP_REAL(glReadnPixels)(0, 0, im->width, im->height, GL_RGBA, GL_UNSIGNED_BYTE,
                                 (GLsizei)(texels * 4), rgba);
    else
        SNAP_REAL(glReadPixels)(0, 0, im->width, im->height, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    es_store(f, rgba, texels, out);
    return 1;
}

static int es_read(snap *s, const snap_texture *t, int level, int face, uint8_t *out)
{
    int robust = snap_version(s) >= 32 && snap_real_has("glReadnPixels");
    const snap_image *im = &t->image[level][face];
    snap_format own;
    const snap_format *f = snap_tex_format(im, &own);
    size_t n = es_components(f) ? (size_t)es_components(f) : es_packed(f) ? 2 : 0;
    uint8_t *rgba = malloc((size_t)im->width * (size_t)im->height * 4);
    if (!n || !rgba) {
        free(rgba);
        return 0;
    }
    int saved = 0;
    unsigned fb = 0, binding, target = snap_tex_es_fb(s, &binding); /* GLES 2: no read FB */
    SNAP_REAL(glGetIntegerv)(binding, &saved);
    SNAP_REAL(glGenFramebuffers)(1, &fb);
    SNAP_REAL(glBindFramebuffer)(target, fb);
    int layers = snap_tex_dims(t->target) == 3 ? im->depth : 1, ok = 1;
    size_t layer_bytes = (size_t)im->width * (size_t)im->height * n;
    for (int z = 0; z < layers && ok; ++z)
        ok = es_read_layer(target, t, level, face, z, f, robust, rgba,
                           out + (size_t)z * layer_bytes);
    SNAP_REAL(glBindFramebuffer)(target, (unsigned)saved);
    SNAP_REAL(glDeleteFramebuffers)(1, &fb);
    free(rgba);
    return ok;
}

int snap_tex_read(snap *s, const snap_texture *t, int level, int face, void *out)
{
    const snap_image *im = &t->image[level][face];
    if (snap_tex_unreadable(s, t, im))
        return 0;
    if (snap_api(s) == SNAP_API_GLES && im->compressed) /* the program's upload */
        return gtt_tex_data(t->name, level, face, out, snap_tex_image_bytes(im));
    if (snap_api(s) == SNAP_API_GLES)
        return es_read(s, t, level, face, out);
    /* the sized reads (GL 4.5) refuse rather than write past out if a size is wrong */
    if (snap_version(s) >= 45 && snap_real_has("glGetTextureSubImage") &&
        snap_real_has("glGetCompressedTextureSubImage")) {
        GLsizei size = (GLsizei)snap_tex_image_bytes(im);
        int h = im->height > 0 ? im->height : 1, d = im->depth > 0 ? im->depth : 1;
        int z = t->nfaces == 6 ? face : 0; /* a cube map's faces are its layers here */
        if (im->compressed)
            SNAP_REAL(glGetCompressedTextureSubImage)(t->name, level, 0, 0, z, im->width, h, d,
                                                      size, out);
        else
            SNAP_REAL(glGetTextureSubImage)(t->name, level, 0, 0, z, im->width, h, d,
                                            snap_format_of(im->internal)->format,
                                            snap_format_of(im->internal)->type, size, out);
    } else if (im->compressed) {
        SNAP_REAL(glGetCompressedTexImage)(snap_tex_face(t, face), level, out);
    } else {
        const snap_format *f = snap_format_of(im->internal);
        SNAP_REAL(glGetTexImage)(snap_tex_face(t, face), level, f->format, f->type, out);
    }
    return 1;
}
