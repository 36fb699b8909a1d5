/* GL replayers written by hand, named by `retrace F override FILE` lines in
 * specs/annotations.txt: calls whose generated form would be wrong. */
#include <string.h>

#include <epoxy/gl.h>

#include "retrace_gl.h"

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

/* glReadnPixels*(x, y, width, height, format, type, bufSize, data): each variant is
 * replayed by its own entry point, since libepoxy aborts on one the context lacks. */
typedef void (*readn_fn)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, GLsizei, void *);

static void read_n_pixels(const gt_call *call, readn_fn readn)
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
    readn((GLint)retrace_sint(&a[0]), (GLint)retrace_sint(&a[1]), (GLsizei)retrace_sint(&a[2]),
          (GLsizei)retrace_sint(&a[3]), (GLenum)retrace_uint(&a[4]), (GLenum)retrace_uint(&a[5]),
          (GLsizei)size, dest);
}

void retrace_glReadnPixels(const gt_call *call) { read_n_pixels(call, epoxy_glReadnPixels); }
void retrace_glReadnPixelsARB(const gt_call *call) { read_n_pixels(call, epoxy_glReadnPixelsARB); }
void retrace_glReadnPixelsEXT(const gt_call *call) { read_n_pixels(call, epoxy_glReadnPixelsEXT); }
void retrace_glReadnPixelsKHR(const gt_call *call) { read_n_pixels(call, epoxy_glReadnPixelsKHR); }

/* The name map of the objects of a KHR_debug identifier (GL_BUFFER, GL_TEXTURE, ...);
 * kinds the replayer does not map keep their traced names (retrace_map_get). */
static const char *label_namespace(uint64_t identifier)
{
    switch (identifier) {
    case GL_BUFFER: return "buffer";
    case GL_SHADER: return "shader";
    case GL_PROGRAM: return "program";
    case GL_QUERY: return "query";
    case GL_SAMPLER: return "sampler";
    case GL_TEXTURE: return "texture";
    case GL_RENDERBUFFER: return "renderbuffer";
    case GL_FRAMEBUFFER: return "framebuffer";
    default: return "unmapped";
    }
}

/* The label argument: the traced bytes (NUL-terminated in the call model, so the
 * length is passed as traced only when it is within them). */
static void label_args(const gt_value *v, const gt_value *length, const char **s, GLsizei *len)
{
    *s = v->kind == GT_STRING ? v->str.s : NULL;
    int64_t n = retrace_sint(length);
    *len = *s && n >= 0 && (uint64_t)n <= v->str.len ? (GLsizei)n : -1;
}

/* glObjectLabel(identifier, name, length, label) and its KHR form: side-effect free
 * in apitrace's call flags, but the label is state the dump shows (GL_*_LABEL), and
 * apitrace's replay sets it; the object's name goes through its kind's map. */
void retrace_glObjectLabel(const gt_call *call)
{
    if (call->num_args < 4) {
        retrace_warning(call, "expected 4 arguments");
        return;
    }
    const gt_value *a = call->args;
    uint64_t identifier = retrace_uint(&a[0]);
    const char *s;
    GLsizei len;
    label_args(&a[3], &a[2], &s, &len);
    glObjectLabel((GLenum)identifier,
                  (GLuint)retrace_map_get(label_namespace(identifier), retrace_uint(&a[1])), len, s);
}

/* glObjectPtrLabel(ptr, length, label): ptr is a sync object */
void retrace_glObjectPtrLabel(const gt_call *call)
{
    if (call->num_args < 3) {
        retrace_warning(call, "expected 3 arguments");
        return;
    }
    const gt_value *a = call->args;
    void *sync = (void *)(uintptr_t)retrace_map_get("sync", retrace_uint(&a[0]));
    const char *s;
    GLsizei len;
    label_args(&a[2], &a[1], &s, &len);
    if (sync)
        glObjectPtrLabel(sync, len, s);
}
