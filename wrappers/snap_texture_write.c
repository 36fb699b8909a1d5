/* Writing a texture for the state snapshot (snap_texture.h), as a program makes one:
 * glGenTextures and glBindTexture; immutable storage as glTexStorage* then each image
 * as glTexSubImage* (glCompressedTexSubImage*); mutable images as glTexImage*
 * (glCompressedTexImage*), level by level and face by face; multisample storage,
 * then its samples drawn into it (snap_multisample_write.c); buffer textures as glTexBuffer[Range]; then the sampling
 * parameters that differ from a new texture's. Uploads are tightly packed rows, the
 * unpack state the texture part wrote before them. */
#include "snap_texture.h"

#include <stdio.h>
#include <stdlib.h>

#include "gl_enums.gen.h"
#include "snap_multisample.h"
#include "protos.gen.h"

static void write_storage(const snap_texture *t)
{
    const snap_image *im = &t->image[0][0];
    int levels = t->immutable_levels > 0 ? t->immutable_levels : 1;
    if (t->target == GL_TEXTURE_2D_MULTISAMPLE)
        glTexStorage2DMultisample(t->target, im->samples, im->internal, im->width, im->height,
                                  (GLboolean)im->fixed_locations);
    else if (t->target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY)
        glTexStorage3DMultisample(t->target, im->samples, im->internal, im->width, im->height,
                                  im->depth, (GLboolean)im->fixed_locations);
    else if (snap_tex_dims(t->target) == 1)
        glTexStorage1D(t->target, levels, im->internal, im->width);
    else if (snap_tex_dims(t->target) == 2)
        glTexStorage2D(t->target, levels, im->internal, im->width, im->height);
    else
        glTexStorage3D(t->target, levels, im->internal, im->width, im->height, im->depth);
}

static void write_multisample(const snap_texture *t, const snap_image *im)
{
    if (t->target == GL_TEXTURE_2D_MULTISAMPLE)
        glTexImage2DMultisample(t->target, im->samples, im->internal, im->width, im->height,
                                (GLboolean)im->fixed_locations);
    else
        glTexImage3DMultisample(t->target, im->samples, im->internal, im->width, im->height,
                                im->depth, (GLboolean)im->fixed_locations);
}

/* Into immutable storage: only where the contents were read. */
static void write_sub_image(const snap_texture *t, int level, unsigned target,
                            const snap_image *im, const void *data, size_t size)
{
    snap_format own;
    const snap_format *f = snap_tex_format(im, &own);
    int dims = snap_tex_dims(t->target);
    if (im->compressed) {
        GLsizei n = (GLsizei)size;
        if (dims == 1)
            glCompressedTexSubImage1D(target, level, 0, im->width, im->internal, n, data);
        else if (dims == 2)
            glCompressedTexSubImage2D(target, level, 0, 0, im->width, im->height, im->internal,
                                      n, data);
        else
            glCompressedTexSubImage3D(target, level, 0, 0, 0, im->width, im->height, im->depth,
                                      im->internal, n, data);
    } else if (f) {
        if (dims == 1)
            glTexSubImage1D(target, level, 0, im->width, f->format, f->type, data);
        else if (dims == 2)
            glTexSubImage2D(target, level, 0, 0, im->width, im->height, f->format, f->type,
                            data);
        else
            glTexSubImage3D(target, level, 0, 0, 0, im->width, im->height, im->depth,
                            f->format, f->type, data);
    }
}

/* A mutable image, with its contents or without (data NULL). */
static void write_image(const snap_texture *t, int level, unsigned target, const snap_image *im,
                        const void *data, size_t size)
{
    snap_format own; /* GLES 2: the program's own unsized format and type */
    const snap_format *f = snap_tex_format(im, &own);
    unsigned format = f ? f->format : GL_RGBA, type = f ? f->type : GL_UNSIGNED_BYTE;
    int dims = snap_tex_dims(t->target);
    GLint internal = (GLint)im->internal;
    if (im->compressed) {
        GLsizei n = (GLsizei)size;
        if (dims == 1)
            glCompressedTexImage1D(target, level, im->internal, im->width, 0, n, data);
        else if (dims == 2)
            glCompressedTexImage2D(target, level, im->internal, im->width, im->height, 0, n,
                                   data);
        else
            glCompressedTexImage3D(target, level, im->internal, im->width, im->height,
                                   im->depth, 0, n, data);
    } else if (dims == 1) {
        glTexImage1D(target, level, internal, im->width, 0, format, type, data);
    } else if (dims == 2) {
        glTexImage2D(target, level, internal, im->width, im->height, 0, format, type, data);
    } else {
        glTexImage3D(target, level, internal, im->width, im->height, im->depth, 0, format,
                     type, data);
    }
}

static void write_level_face(snap *s, const snap_texture *t, int level, int face)
{
    const snap_image *im = &t->image[level][face];
    if (!im->width)
        return;
    if (snap_tex_multisample(t->target)) {
        if (!t->immutable)
            write_multisample(t, im);
        if (t->ms)
            snap_ms_write(s, t->target, t->name, t->ms);
        return;
    }
    size_t size = t->read ? snap_tex_image_bytes(im) : 0;
    void *data = size ? malloc(size) : NULL;
    if (size && !data)
        fprintf(stderr, "gltrace: state snapshot: texture %u level %d: out of memory, "
                "contents not written\n", t->name, level);
    if (data && !snap_tex_read(s, t, level, face, data)) {
        free(data);
        data = NULL;
    }
    unsigned target = snap_tex_face(t, face);
    if (t->immutable) {
        if (data)
            write_sub_image(t, level, target, im, data, size);
    } else if (!im->compressed || data) {
        write_image(t, level, target, im, data, size);
    }
    free(data);
}

void snap_tex_write(snap *s, const snap_texture *t)
{
    GLuint name = t->name;
    glGenTextures(1, &name);
    glBindTexture(t->target, t->name);
    if (t->target == GL_TEXTURE_BUFFER) {
        if (t->buffer && t->buffer_whole)
            glTexBuffer(t->target, t->buffer_format, t->buffer);
        else if (t->buffer)
            glTexBufferRange(t->target, t->buffer_format, t->buffer, t->buffer_offset,
                             t->buffer_size);
        return;
    }
    if (t->immutable && t->image[0][0].width)
        write_storage(t);
    for (int level = 0; level < t->nlevels; ++level)
        for (int face = 0; face < t->nfaces; ++face)
            write_level_face(s, t, level, face);
    snap_sampling_write(&t->sampling, 1, t->target, 0);
}
