/* Mapped buffers in the replay: the buffer map calls register the regions the GL
 * returns (traced address -> replayed address, with the buffer they belong to), the
 * fake memcpy calls the recorder writes for what the program stored through a map
 * (`memcpy(dest = map pointer + offset, src = blob, n)`, wrappers/hook_mapbuffer.c)
 * copy into them, and unmapping forgets them. The hooks are named by `retrace ...
 * hook/prehook` lines in specs/annotations.txt. */
#include <stdio.h>
#include <string.h>

#include <epoxy/gl.h>

#include "retrace_gl.h"

void retrace_memcpy(const gt_call *call)
{
    if (call->num_args < 3) {
        retrace_warning(call, "memcpy: expected 3 arguments");
        return;
    }
    const gt_value *dest = &call->args[0], *src = &call->args[1];
    uint64_t n = retrace_uint(&call->args[2]);
    if (src->kind == GT_NULL || n == 0)
        return;
    if (src->kind != GT_BLOB || !src->blob.data) {
        retrace_warning(call, "memcpy: the source is not a blob");
        return;
    }
    uint64_t room = 0;
    void *to = retrace_ptr_lookup(retrace_uint(dest), &room);
    if (!to) {
        retrace_warning(call, "memcpy: destination 0x%llx is not in a mapped buffer",
                        (unsigned long long)retrace_uint(dest));
        return;
    }
    if (n > src->blob.size) {
        retrace_warning(call, "memcpy: %llu bytes, the blob holds %zu",
                        (unsigned long long)n, src->blob.size);
        n = src->blob.size;
    }
    if (n > room) {
        retrace_warning(call, "memcpy: %llu bytes past the end of the mapped range",
                        (unsigned long long)(n - room));
        n = room;
    }
    memcpy(to, src->blob.data, (size_t)n);
}

/* The binding query of a buffer target, 0 for targets this code does not know. */
static GLenum binding_of(GLenum target)
{
    switch (target) {
    case GL_ARRAY_BUFFER: return GL_ARRAY_BUFFER_BINDING;
    case GL_ELEMENT_ARRAY_BUFFER: return GL_ELEMENT_ARRAY_BUFFER_BINDING;
    case GL_PIXEL_PACK_BUFFER: return GL_PIXEL_PACK_BUFFER_BINDING;
    case GL_PIXEL_UNPACK_BUFFER: return GL_PIXEL_UNPACK_BUFFER_BINDING;
    case GL_UNIFORM_BUFFER: return GL_UNIFORM_BUFFER_BINDING;
    case GL_TEXTURE_BUFFER: return GL_TEXTURE_BUFFER; /* GL_TEXTURE_BUFFER_BINDING has its value */
    case GL_TRANSFORM_FEEDBACK_BUFFER: return GL_TRANSFORM_FEEDBACK_BUFFER_BINDING;
    case GL_COPY_READ_BUFFER: return GL_COPY_READ_BUFFER_BINDING;
    case GL_COPY_WRITE_BUFFER: return GL_COPY_WRITE_BUFFER_BINDING;
    case GL_DRAW_INDIRECT_BUFFER: return GL_DRAW_INDIRECT_BUFFER_BINDING;
    case GL_SHADER_STORAGE_BUFFER: return GL_SHADER_STORAGE_BUFFER_BINDING;
    case GL_DISPATCH_INDIRECT_BUFFER: return GL_DISPATCH_INDIRECT_BUFFER_BINDING;
    case GL_QUERY_BUFFER: return GL_QUERY_BUFFER_BINDING;
    case GL_ATOMIC_COUNTER_BUFFER: return GL_ATOMIC_COUNTER_BUFFER_BINDING;
    default: return 0;
    }
}

/* Key of the regions of a buffer: its replayed name, or the target (with the top bit
 * set) when the binding cannot be asked. */
static uint64_t bound_key(GLenum target)
{
    GLenum binding = binding_of(target);
    GLint name = 0;
    if (binding)
        glGetIntegerv(binding, &name);
    return name ? (uint64_t)(uint32_t)name : (UINT64_C(1) << 63 | target);
}

static void register_map(const gt_call *call, void *ret, uint64_t size, uint64_t key)
{
    if (!call->ret || retrace_uint(call->ret) == 0)
        return; /* the map failed while recording: nothing will be written through it */
    if (!ret) {
        retrace_warning(call, "the buffer could not be mapped; writes through it are dropped");
        return;
    }
    retrace_ptr_set_key(retrace_uint(call->ret), ret, size, key);
}

void retrace_hook_map_buffer(const gt_call *call, void *ret)
{
    GLenum target = (GLenum)retrace_uint(&call->args[0]);
    GLint size = 0;
    if (ret)
        glGetBufferParameteriv(target, GL_BUFFER_SIZE, &size);
    register_map(call, ret, (uint64_t)(size > 0 ? size : 0), bound_key(target));
}

void retrace_hook_map_buffer_range(const gt_call *call, void *ret)
{
    GLenum target = (GLenum)retrace_uint(&call->args[0]);
    int64_t length = retrace_sint(&call->args[2]);
    register_map(call, ret, (uint64_t)(length > 0 ? length : 0), bound_key(target));
}

static uint64_t named_buffer(const gt_call *call)
{
    return retrace_map_get("buffer", retrace_uint(&call->args[0]));
}

typedef void (*get_named_buffer_iv)(GLuint, GLenum, GLint *);

/* glMapNamedBuffer and its EXT form: the size comes from the same family's query, which
 * the context has when it has the map call */
static void map_named_buffer(const gt_call *call, void *ret, get_named_buffer_iv get)
{
    GLuint buffer = (GLuint)named_buffer(call);
    GLint size = 0;
    if (ret)
        get(buffer, GL_BUFFER_SIZE, &size);
    register_map(call, ret, (uint64_t)(size > 0 ? size : 0), buffer);
}

void retrace_hook_map_named_buffer(const gt_call *call, void *ret)
{
    map_named_buffer(call, ret, epoxy_glGetNamedBufferParameteriv);
}

void retrace_hook_map_named_buffer_ext(const gt_call *call, void *ret)
{
    map_named_buffer(call, ret, epoxy_glGetNamedBufferParameterivEXT);
}

void retrace_hook_map_named_buffer_range(const gt_call *call, void *ret)
{
    int64_t length = retrace_sint(&call->args[2]);
    register_map(call, ret, (uint64_t)(length > 0 ? length : 0), named_buffer(call));
}

void retrace_hook_unmap_buffer(const gt_call *call, void *ret)
{
    (void)ret;
    retrace_ptr_del_key(bound_key((GLenum)retrace_uint(&call->args[0])));
}

void retrace_hook_unmap_named_buffer(const gt_call *call, void *ret)
{
    (void)ret;
    retrace_ptr_del_key(named_buffer(call));
}
