/* GL replayers written by hand, named by `retrace F override FILE` lines in
 * specs/annotations.txt: calls whose generated form would be wrong. */
#include <string.h>

#include <epoxy/gl.h>

#include "retrace_gen.h"

/* Whether the context has pixel buffer objects, so that GL_PIXEL_PACK_BUFFER_BINDING
 * may be asked without raising GL_INVALID_ENUM. */
static int have_pbo(void)
{
    if (epoxy_is_desktop_gl())
        return epoxy_gl_version() >= 21 || epoxy_has_gl_extension("GL_ARB_pixel_buffer_object");
    return epoxy_gl_version() >= 30 || epoxy_has_gl_extension("GL_NV_pixel_buffer_object");
}

/* Destination of a read-back: the traced offset when a pack buffer is bound, else
 * scratch large enough for any format with the pack state (the recording's client
 * address means nothing here, and nobody reads the pixels back). */
static void *pack_destination(const gt_call *call, const gt_value *pixels, int64_t w, int64_t h,
                              int64_t buf_size)
{
    GLint pbo = 0, row = 0, skip_rows = 0, skip_pixels = 0, align = 4;
    if (have_pbo())
        glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &pbo);
    if (pbo)
        return (void *)(uintptr_t)retrace_uint(pixels);
    if (buf_size >= 0)
        return retrace_scratch((size_t)buf_size);
    if (epoxy_is_desktop_gl() || epoxy_gl_version() >= 30) {
        glGetIntegerv(GL_PACK_ROW_LENGTH, &row);
        glGetIntegerv(GL_PACK_SKIP_ROWS, &skip_rows);
        glGetIntegerv(GL_PACK_SKIP_PIXELS, &skip_pixels);
    }
    glGetIntegerv(GL_PACK_ALIGNMENT, &align);
    if (w < 0 || h < 0 || w > 65536 || h > 65536) {
        retrace_warning(call, "implausible size %lldx%lld", (long long)w, (long long)h);
        return NULL;
    }
    uint64_t width = (uint64_t)(row > w ? row : w) + (uint64_t)(skip_pixels > 0 ? skip_pixels : 0);
    uint64_t rows = (uint64_t)h + (uint64_t)(skip_rows > 0 ? skip_rows : 0);
    /* 16 bytes: the largest pixel (4 x 32-bit float) */
    return retrace_scratch((size_t)(width * rows * 16 + rows * (uint64_t)(align > 0 ? align : 8) + 64));
}

/* glReadPixels(x, y, width, height, format, type, pixels) */
void retrace_glReadPixels(const gt_call *call)
{
    retrace_scratch_reset();
    if (call->num_args < 7) {
        retrace_warning(call, "expected 7 arguments");
        return;
    }
    const gt_value *a = call->args;
    void *dest = pack_destination(call, &a[6], retrace_sint(&a[2]), retrace_sint(&a[3]), -1);
    glReadPixels((GLint)retrace_sint(&a[0]), (GLint)retrace_sint(&a[1]), (GLsizei)retrace_sint(&a[2]),
                 (GLsizei)retrace_sint(&a[3]), (GLenum)retrace_uint(&a[4]), (GLenum)retrace_uint(&a[5]),
                 dest);
}

/* glReadnPixels*(x, y, width, height, format, type, bufSize, data) */
void retrace_glReadnPixels(const gt_call *call)
{
    retrace_scratch_reset();
    if (call->num_args < 8) {
        retrace_warning(call, "expected 8 arguments");
        return;
    }
    const gt_value *a = call->args;
    int64_t size = retrace_sint(&a[6]);
    void *dest = pack_destination(call, &a[7], retrace_sint(&a[2]), retrace_sint(&a[3]),
                                  size > 0 ? size : 0);
    GLint x = (GLint)retrace_sint(&a[0]), y = (GLint)retrace_sint(&a[1]);
    GLsizei w = (GLsizei)retrace_sint(&a[2]), h = (GLsizei)retrace_sint(&a[3]);
    GLenum format = (GLenum)retrace_uint(&a[4]), type = (GLenum)retrace_uint(&a[5]);
    const char *name = call->sig->name; /* the variant the program called: libepoxy aborts
                                            on one the context lacks */
    if (!strcmp(name, "glReadnPixelsARB"))
        glReadnPixelsARB(x, y, w, h, format, type, (GLsizei)size, dest);
    else if (!strcmp(name, "glReadnPixelsEXT"))
        glReadnPixelsEXT(x, y, w, h, format, type, (GLsizei)size, dest);
    else if (!strcmp(name, "glReadnPixelsKHR"))
        glReadnPixelsKHR(x, y, w, h, format, type, (GLsizei)size, dest);
    else
        glReadnPixels(x, y, w, h, format, type, (GLsizei)size, dest);
}
