/* Client-side vertex arrays: before a draw call that reads vertex attributes from
 * client memory (an enabled array whose pointer was given with no GL_ARRAY_BUFFER
 * bound), fake pointer calls carry the data the draw reads as blobs, apitrace's way
 * (wrappers/gltrace.py, _trace_user_arrays):
 *
 *   40 glBindBuffer(target = GL_ARRAY_BUFFER, buffer = 0) // fake     (only if one is bound)
 *   41 glVertexAttribPointer(index = 0, size = 2, type = GL_FLOAT, normalized = GL_FALSE,
 *        stride = 0, pointer = blob(48)) // fake
 *   42 glVertexPointer(size = 2, type = GL_FLOAT, stride = 16, pointer = blob(56)) // fake
 *   43 glBindBuffer(target = GL_ARRAY_BUFFER, buffer = 5) // fake
 *   44 glDrawElements(...)
 *
 * The arrays and their layout are read back from the GL (glGetVertexAttrib*,
 * glGetIntegerv, glGetPointerv), so VAO switches need no tracking here; the hooks on
 * the *Pointer calls only note that client memory is in use at all, so programs
 * that never use it pay one atomic load per draw. Order as apitrace: conventional
 * arrays (secondary colour, fog coordinate, edge flag, texture coordinates of every
 * unit with fake glClientActiveTexture around them, index, colour, normal, vertex),
 * then the generic
 * attributes.
 *
 * Sizes: a blob holds (n - 1) * stride + element bytes, n the number of vertices the
 * draw reads: the largest index used + 1. Indices are scanned in client memory or,
 * with an element buffer bound, read back from it (glGetBufferSubData; on OpenGL ES 3
 * glMapBufferRange); the base vertex is added; an index equal to the primitive
 * restart index (GL_PRIMITIVE_RESTART or GL_PRIMITIVE_RESTART_FIXED_INDEX) is not a
 * vertex and does not count (apitrace counts it). Attributes with a divisor (queried
 * where instancing is core) hold baseinstance + ceil(instancecount / divisor)
 * elements, one for a draw that is not instanced.
 *
 * After glLockArraysEXT(first, count), at least first + count vertices (apitrace's
 * lockedArrayCount, kept past glUnlockArraysEXT as apitrace 11 does).
 *
 * The pointer calls themselves are in hook_client_pointers.c.
 *
 * Not covered: indirect draws (apitrace warns and writes no arrays either),
 * GL_ARB_instanced_arrays divisors on contexts before GL 3.3 / ES 3.0, element buffers on OpenGL ES 2 (no way to read them back: a
 * warning, and no fake calls for that draw). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_enums.gen.h"
#include "gltrace_runtime.h"
#include "hook_client_arrays.h"
#include "signatures.gen.h"
#include "wrappers.gen.h"


/* ---- the real GL functions ------------------------------------------------------- */
typedef void (*get_iv_fn)(unsigned pname, int *v);
typedef unsigned char (*is_enabled_fn)(unsigned cap);
typedef const unsigned char *(*get_string_fn)(unsigned name);
typedef void (*get_pointerv_fn)(unsigned pname, void **v);
typedef void (*get_attrib_iv_fn)(unsigned index, unsigned pname, int *v);
typedef void (*get_attrib_pointerv_fn)(unsigned index, unsigned pname, void **v);
typedef void (*client_active_texture_fn)(unsigned texture);
typedef void (*get_buffer_iv_fn)(unsigned target, unsigned pname, int *v);
typedef void (*get_buffer_sub_data_fn)(unsigned target, intptr_t offset, intptr_t size, void *d);
typedef void *(*map_buffer_range_fn)(unsigned target, intptr_t offset, intptr_t len, unsigned a);
typedef unsigned char (*unmap_buffer_fn)(unsigned target);

static struct {
    int loaded;
    get_iv_fn get_iv;
    is_enabled_fn is_enabled;
    get_string_fn get_string;
    get_pointerv_fn get_pointerv;
    get_attrib_iv_fn get_attrib_iv;
    get_attrib_pointerv_fn get_attrib_pointerv;
    client_active_texture_fn client_active_texture;
    get_buffer_iv_fn get_buffer_iv;
    get_buffer_sub_data_fn get_buffer_sub_data;
    map_buffer_range_fn map_buffer_range;
    unmap_buffer_fn unmap_buffer;
} gl;

static void load(void)
{
    if (gl.loaded)
        return;
    gl.get_iv = (get_iv_fn)gltrace_real("glGetIntegerv");
    gl.is_enabled = (is_enabled_fn)gltrace_real("glIsEnabled");
    gl.get_string = (get_string_fn)gltrace_real("glGetString");
    gl.loaded = 1;
}

/* Resolved when first needed (not every GL has them: no warning for the missing). */
#define LAZY(field, type, name)                                                        \
    (gl.field ? gl.field : (gl.field = (type)gltrace_real(name)))

static int geti(unsigned pname)
{
    int v = 0;
    if (gl.get_iv)
        gl.get_iv(pname, &v);
    return v;
}

/* What the current context has, from its version. */
typedef struct caps {
    int es, major, minor;
    int fixed, generic, integer, divisor, restart, fixed_restart;
} caps;

static void read_caps(caps *c)
{
    memset(c, 0, sizeof *c);
    const char *v = gl.get_string ? (const char *)gl.get_string(GL_VERSION) : NULL;
    if (!v)
        return;
    c->es = strncmp(v, "OpenGL ES", 9) == 0;
    const char *p = v;
    while (*p && (*p < '0' || *p > '9'))
        ++p;
    if (sscanf(p, "%d.%d", &c->major, &c->minor) != 2)
        return;
    int ver = c->major * 10 + c->minor;
    if (c->es) {
        c->fixed = c->major == 1;
        c->generic = c->major >= 2;
        c->integer = c->divisor = c->fixed_restart = c->major >= 3;
    } else {
        c->fixed = 1;
        if (ver >= 32 && (geti(GL_CONTEXT_PROFILE_MASK) & 1)) /* core profile */
            c->fixed = 0;
        else if (ver >= 30 && ver < 32 && (geti(GL_CONTEXT_FLAGS) & 1)) /* forward-compatible */
            c->fixed = 0;
        c->generic = ver >= 20;
        c->integer = ver >= 30;
        c->divisor = ver >= 33;
        c->restart = ver >= 31;
        c->fixed_restart = ver >= 43;
    }
}

/* ---- which arrays are in client memory ------------------------------------------ */
static atomic_int generic_used, fixed_used;

static void note_pointer(atomic_int *flag, const void *pointer)
{
    if (!pointer || atomic_load_explicit(flag, memory_order_relaxed))
        return;
    load();
    if (geti(GL_ARRAY_BUFFER_BINDING) == 0)
        atomic_store(flag, 1);
}

void gth_note_client_pointer(int generic, const void *pointer)
{
    note_pointer(generic ? &generic_used : &fixed_used, pointer);
}

/* ---- compiled vertex arrays (EXT_compiled_vertex_array) ------------------------------ */
/* glLockArraysEXT(first, count): later draws read at least first + count vertices
 * (apitrace: lockedArrayCount; Quake 3 locks more than it draws, and the GL may read all
 * of them). apitrace 11 keeps the count past glUnlockArraysEXT (until the next lock), and
 * so does this: the same blobs, a few bytes more than a draw after the unlock reads. A
 * lock is context state; a context is current on one thread at a time, so the thread
 * keeps it. */
static _Thread_local uint64_t locked_vertices;

void gth_lock_arrays(struct at_writer *w, int first, int count)
{
    (void)w;
    locked_vertices = first >= 0 && count > 0 ? (uint64_t)first + (uint64_t)count : 0;
}

/* ---- sizes ------------------------------------------------------------------------ */
static size_t type_bytes(unsigned type)
{
    switch (type) {
    case 0x1400: case 0x1401: return 1;                     /* BYTE, UNSIGNED_BYTE */
    case 0x1402: case 0x1403: case 0x140B: case 0x8D61: return 2; /* SHORT, USHORT, HALF */
    case 0x1404: case 0x1405: case 0x1406: case 0x140C: return 4; /* INT, UINT, FLOAT, FIXED */
    case 0x140A: return 8;                                  /* DOUBLE */
    default: return 0;
    }
}

/* Bytes of n elements of `comps` components of `type` every `stride` bytes. */
static size_t array_bytes(int comps, unsigned type, int stride, uint64_t n)
{
    if (n == 0)
        return 0;
    size_t elem;
    if (type == 0x8368 || type == 0x8D9F || type == 0x8C3B) /* 2_10_10_10_REV, 10F_11F_11F */
        elem = 4;
    else
        elem = (size_t)(comps == GL_BGRA ? 4 : comps > 0 ? comps : 0) * type_bytes(type);
    size_t step = stride > 0 ? (size_t)stride : elem;
    return (size_t)(n - 1) * step + elem;
}

/* ---- the fake calls --------------------------------------------------------------- */
typedef struct draw {
    uint64_t vertices;            /* vertex elements read: largest index + 1 */
    uint64_t instances;           /* instancecount (1 when not instanced) */
    uint64_t baseinstance;
    int array_buffer;             /* GL_ARRAY_BUFFER_BINDING, unbound by a fake call */
    int unbound;
} draw;

static void fake_begin(at_writer *w, const gt_func_sig *sig)
{
    gltrace_begin_enter(w, sig, AT_WRITER_FAKE);
}

static void fake_end(at_writer *w)
{
    gltrace_begin_leave(w, gltrace_end_enter(w));
    gltrace_end_leave(w);
}

static void fake_bind_array_buffer(at_writer *w, int buffer)
{
    fake_begin(w, &gtfn_glBindBuffer);
    at_writer_begin_arg(w, 0);
    at_writer_enum(w, &gtsig_GLenum, GL_ARRAY_BUFFER);
    at_writer_begin_arg(w, 1);
    at_writer_uint(w, (uint64_t)buffer);
    fake_end(w);
}

/* Before the first fake pointer call: glretrace must read the pointer as memory. */
static void unbind(at_writer *w, draw *d)
{
    if (d->array_buffer && !d->unbound) {
        fake_bind_array_buffer(w, 0);
        d->unbound = 1;
    }
}

static void fake_client_active_texture(at_writer *w, int texture)
{
    fake_begin(w, &gtfn_glClientActiveTexture);
    at_writer_begin_arg(w, 0);
    at_writer_enum(w, &gtsig_GLenum, texture);
    fake_end(w);
}

/* A conventional array: glXPointer([size,] type, stride, pointer) // fake. */
typedef struct fixed_array {
    const gt_func_sig *sig;
    unsigned enable, binding, size, type, stride, pointer; /* size, type: 0 when none */
    int comps; /* components when the function has no size parameter */
    int bgra;  /* the size may be GL_BGRA: written as apitrace writes it (SizeBGRA) */
} fixed_array;

static void fake_fixed(at_writer *w, draw *d, const fixed_array *a)
{
    if (!gl.is_enabled(a->enable) || geti(a->binding) != 0)
        return;
    int size = a->size ? geti(a->size) : a->comps;
    /* glEdgeFlagPointer has no type: GLboolean, one byte */
    unsigned type = a->type ? (unsigned)geti(a->type) : GL_UNSIGNED_BYTE;
    int stride = geti(a->stride);
    void *pointer = NULL;
    gl.get_pointerv(a->pointer, &pointer);
    unbind(w, d);
    fake_begin(w, a->sig);
    uint32_t arg = 0;
    if (a->size) {
        at_writer_begin_arg(w, arg++);
        if (a->bgra)
            at_writer_enum(w, &gtal_enum_SizeBGRA, size);
        else
            at_writer_sint(w, size);
    }
    if (a->type) {
        at_writer_begin_arg(w, arg++);
        at_writer_enum(w, &gtsig_GLenum, type);
    }
    at_writer_begin_arg(w, arg++);
    at_writer_sint(w, stride);
    at_writer_begin_arg(w, arg);
    at_writer_blob(w, pointer, pointer ? array_bytes(size, type, stride, d->vertices) : 0);
    fake_end(w);
}

static void fake_fixed_arrays(at_writer *w, draw *d, const caps *c)
{
    if (!LAZY(get_pointerv, get_pointerv_fn, "glGetPointerv"))
        return;
    static const fixed_array secondary = {&gtfn_glSecondaryColorPointer, 0x845E, 0x889C,
                                          0x845A, 0x845B, 0x845C, 0x845D, 0, 1};
    static const fixed_array fog = {&gtfn_glFogCoordPointer, 0x8457, 0x889D,
                                    0, 0x8454, 0x8455, 0x8456, 1, 0};
    static const fixed_array edge = {&gtfn_glEdgeFlagPointer, 0x8079, 0x889B,
                                     0, 0, 0x808C, 0x8093, 1, 0};
    static const fixed_array index = {&gtfn_glIndexPointer, 0x8077, 0x8899,
                                      0, 0x8085, 0x8086, 0x8091, 1, 0};
    static const fixed_array texcoord = {&gtfn_glTexCoordPointer, 0x8078, 0x889A,
                                         0x8088, 0x8089, 0x808A, 0x8092, 0, 0};
    static const fixed_array color = {&gtfn_glColorPointer, 0x8076, 0x8898,
                                      0x8081, 0x8082, 0x8083, 0x8090, 0, 1};
    static const fixed_array normal = {&gtfn_glNormalPointer, 0x8075, 0x8897,
                                       0, 0x807E, 0x807F, 0x808F, 3, 0};
    static const fixed_array vertex = {&gtfn_glVertexPointer, 0x8074, 0x8896,
                                       0x807A, 0x807B, 0x807C, 0x808E, 0, 0};
    if (!c->es && (c->major * 10 + c->minor) >= 14) {
        fake_fixed(w, d, &secondary);
        fake_fixed(w, d, &fog);
    }
    if (!c->es)
        fake_fixed(w, d, &edge);
    /* texture coordinates, every unit */
    int units = geti(c->es ? GL_MAX_TEXTURE_UNITS : GL_MAX_TEXTURE_COORDS);
    client_active_texture_fn cat =
        LAZY(client_active_texture, client_active_texture_fn, "glClientActiveTexture");
    if (units <= 0 || !cat) {
        fake_fixed(w, d, &texcoord);
    } else {
        int active = geti(GL_CLIENT_ACTIVE_TEXTURE), dirty = 0;
        for (int unit = 0; unit < units; ++unit) {
            int texture = GL_TEXTURE0 + unit;
            cat((unsigned)texture);
            if (!gl.is_enabled(texcoord.enable) || geti(texcoord.binding) != 0)
                continue;
            if (texture != active || dirty) {
                dirty = 1;
                fake_client_active_texture(w, texture);
            }
            fake_fixed(w, d, &texcoord);
        }
        cat((unsigned)active);
        if (dirty)
            fake_client_active_texture(w, active);
    }
    if (!c->es)
        fake_fixed(w, d, &index);
    fake_fixed(w, d, &color);
    fake_fixed(w, d, &normal);
    fake_fixed(w, d, &vertex);
}

static void fake_generic_arrays(at_writer *w, draw *d, const caps *c)
{
    get_attrib_iv_fn giv = LAZY(get_attrib_iv, get_attrib_iv_fn, "glGetVertexAttribiv");
    get_attrib_pointerv_fn gpv =
        LAZY(get_attrib_pointerv, get_attrib_pointerv_fn, "glGetVertexAttribPointerv");
    if (!giv || !gpv)
        return;
    int max = geti(GL_MAX_VERTEX_ATTRIBS);
    for (int i = 0; i < max && i < 256; ++i) {
        unsigned index = (unsigned)i;
        int enabled = 0, binding = 0;
        giv(index, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &enabled);
        if (!enabled)
            continue;
        giv(index, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &binding);
        if (binding)
            continue;
        int divisor = 0, size = 0, type = 0, normalized = 0, stride = 0, integer = 0;
        if (c->divisor)
            giv(index, GL_VERTEX_ATTRIB_ARRAY_DIVISOR, &divisor);
        giv(index, GL_VERTEX_ATTRIB_ARRAY_SIZE, &size);
        giv(index, GL_VERTEX_ATTRIB_ARRAY_TYPE, &type);
        giv(index, GL_VERTEX_ATTRIB_ARRAY_NORMALIZED, &normalized);
        giv(index, GL_VERTEX_ATTRIB_ARRAY_STRIDE, &stride);
        if (c->integer)
            giv(index, GL_VERTEX_ATTRIB_ARRAY_INTEGER, &integer);
        void *pointer = NULL;
        gpv(index, GL_VERTEX_ATTRIB_ARRAY_POINTER, &pointer);
        uint64_t n = d->vertices;
        if (divisor > 0)
            n = d->instances ? d->baseinstance + (d->instances - 1) / (unsigned)divisor + 1 : 0;
        unbind(w, d);
        fake_begin(w, integer ? &gtfn_glVertexAttribIPointer : &gtfn_glVertexAttribPointer);
        uint32_t arg = 0;
        at_writer_begin_arg(w, arg++);
        at_writer_uint(w, index);
        at_writer_begin_arg(w, arg++);
        if (integer)
            at_writer_sint(w, size);
        else
            at_writer_enum(w, &gtal_enum_SizeBGRA, size);
        at_writer_begin_arg(w, arg++);
        at_writer_enum(w, &gtsig_GLenum, type);
        if (!integer) {
            at_writer_begin_arg(w, arg++);
            at_writer_enum(w, &gtsig_GLboolean, normalized != 0);
        }
        at_writer_begin_arg(w, arg++);
        at_writer_sint(w, stride);
        at_writer_begin_arg(w, arg);
        at_writer_blob(w, pointer,
                       pointer ? array_bytes(size, (unsigned)type, stride, n) : 0);
        fake_end(w);
    }
}

/* The draw reads d->vertices vertices (and instances): write the arrays. */
static void emit(at_writer *w, draw *d, const caps *c)
{
    if (d->vertices < locked_vertices)
        d->vertices = locked_vertices;
    d->array_buffer = geti(GL_ARRAY_BUFFER_BINDING);
    d->unbound = 0;
    if (c->fixed && atomic_load(&fixed_used))
        fake_fixed_arrays(w, d, c);
    if (c->generic && atomic_load(&generic_used))
        fake_generic_arrays(w, d, c);
    if (d->unbound)
        fake_bind_array_buffer(w, d->array_buffer);
}

/* Common start of every draw prehook: 0 when there is nothing to do. */
static int begin(at_writer *w, caps *c)
{
    (void)w; /* persistent maps were committed by their own prehook, listed first */
    if (!atomic_load_explicit(&generic_used, memory_order_relaxed) &&
        !atomic_load_explicit(&fixed_used, memory_order_relaxed))
        return 0;
    load();
    if (!gl.get_iv || !gl.is_enabled)
        return 0;
    read_caps(c);
    return c->fixed || c->generic;
}

/* ---- indices ---------------------------------------------------------------------- */
typedef struct restart {
    int on;
    uint32_t index;
} restart;

static restart read_restart(const caps *c, unsigned type)
{
    restart r = {0, 0};
    if (c->fixed_restart && gl.is_enabled(GL_PRIMITIVE_RESTART_FIXED_INDEX)) {
        r.on = 1;
        r.index = type == GL_UNSIGNED_BYTE ? 0xFFu : type == GL_UNSIGNED_SHORT ? 0xFFFFu
                                                                                : 0xFFFFFFFFu;
    } else if (c->restart && gl.is_enabled(GL_PRIMITIVE_RESTART)) {
        r.on = 1;
        r.index = (uint32_t)geti(GL_PRIMITIVE_RESTART_INDEX);
    }
    return r;
}

static int warned_es2_elements;

/* The largest index of count indices of `type` at `indices` (client memory or an
 * offset into the bound element buffer), restart indices left out. Returns 1 and
 * sets *max when there is one, 0 when none, -1 when they cannot be read. */
static int max_index(const caps *c, int count, unsigned type, const void *indices,
                     const restart *r, uint32_t *max)
{
    size_t tb = type == GL_UNSIGNED_BYTE ? 1 : type == GL_UNSIGNED_SHORT ? 2
              : type == GL_UNSIGNED_INT  ? 4 : 0;
    if (count <= 0 || tb == 0)
        return 0;
    size_t bytes = (size_t)count * tb;
    const void *data = indices;
    void *copy = NULL, *mapped = NULL;
    if (geti(GL_ELEMENT_ARRAY_BUFFER_BINDING) != 0) {
        get_buffer_iv_fn gbi = LAZY(get_buffer_iv, get_buffer_iv_fn, "glGetBufferParameteriv");
        int is_mapped = 0;
        if (gbi)
            gbi(GL_ELEMENT_ARRAY_BUFFER, GL_BUFFER_MAPPED, &is_mapped);
        if (is_mapped)
            return -1;
        if (!c->es) {
            get_buffer_sub_data_fn gsd =
                LAZY(get_buffer_sub_data, get_buffer_sub_data_fn, "glGetBufferSubData");
            copy = gsd ? malloc(bytes) : NULL;
            if (!copy)
                return -1;
            gsd(GL_ELEMENT_ARRAY_BUFFER, (intptr_t)indices, (intptr_t)bytes, copy);
            data = copy;
        } else if (c->major >= 3) {
            map_buffer_range_fn mbr =
                LAZY(map_buffer_range, map_buffer_range_fn, "glMapBufferRange");
            unmap_buffer_fn ub = LAZY(unmap_buffer, unmap_buffer_fn, "glUnmapBuffer");
            if (!mbr || !ub)
                return -1;
            mapped = mbr(GL_ELEMENT_ARRAY_BUFFER, (intptr_t)indices, (intptr_t)bytes,
                         GL_MAP_READ_BIT);
            if (!mapped)
                return -1;
            data = mapped;
        } else {
            if (!warned_es2_elements) {
                warned_es2_elements = 1;
                fprintf(stderr, "gltrace: warning: client vertex arrays drawn with an element "
                                "buffer on OpenGL ES 2: their data is not recorded\n");
            }
            return -1;
        }
    }
    int found = 0;
    uint32_t m = 0;
    if (data) {
        for (int i = 0; i < count; ++i) {
            uint32_t v = tb == 1 ? ((const uint8_t *)data)[i]
                       : tb == 2 ? ((const uint16_t *)data)[i]
                                 : ((const uint32_t *)data)[i];
            if (r->on && v == r->index)
                continue;
            if (!found || v > m)
                m = v;
            found = 1;
        }
    }
    free(copy);
    if (mapped)
        gl.unmap_buffer(GL_ELEMENT_ARRAY_BUFFER);
    *max = m;
    return found;
}

/* Vertices read by one glDrawElements-like call: 0 none, -1 unknown. */
static int64_t element_vertices(const caps *c, int count, unsigned type, const void *indices,
                                int basevertex)
{
    restart r = read_restart(c, type);
    uint32_t m = 0;
    int got = max_index(c, count, type, indices, &r, &m);
    if (got <= 0)
        return got;
    int64_t last = (int64_t)m + basevertex;
    return last < 0 ? 0 : last + 1;
}

static void elements(at_writer *w, int count, unsigned type, const void *indices,
                     int basevertex, int instanced, int instancecount, unsigned baseinstance)
{
    caps c;
    if (!begin(w, &c))
        return;
    int64_t n = element_vertices(&c, count, type, indices, basevertex);
    if (n < 0)
        return;
    draw d = {(uint64_t)n, instanced ? (uint64_t)(instancecount > 0 ? instancecount : 0) : 1,
              instanced ? baseinstance : 0, 0, 0};
    emit(w, &d, &c);
}

static void arrays(at_writer *w, int first, int count, int instanced, int instancecount,
                   unsigned baseinstance)
{
    caps c;
    if (!begin(w, &c))
        return;
    draw d = {count > 0 && first >= 0 ? (uint64_t)first + (uint64_t)count : 0,
              instanced ? (uint64_t)(instancecount > 0 ? instancecount : 0) : 1,
              instanced ? baseinstance : 0, 0, 0};
    emit(w, &d, &c);
}

/* ---- the draw prehooks ------------------------------------------------------------ */
void gth_draw_arrays(struct at_writer *w, unsigned mode, int first, int count)
{
    (void)mode;
    arrays(w, first, count, 0, 1, 0);
}

void gth_draw_arrays_instanced(struct at_writer *w, unsigned mode, int first, int count,
                               int instancecount)
{
    (void)mode;
    arrays(w, first, count, 1, instancecount, 0);
}

void gth_draw_arrays_instanced_base_instance(struct at_writer *w, unsigned mode, int first,
                                             int count, int instancecount,
                                             unsigned baseinstance)
{
    (void)mode;
    arrays(w, first, count, 1, instancecount, baseinstance);
}

void gth_draw_elements(struct at_writer *w, unsigned mode, int count, unsigned type,
                       const void *indices)
{
    (void)mode;
    elements(w, count, type, indices, 0, 0, 1, 0);
}

void gth_draw_elements_base_vertex(struct at_writer *w, unsigned mode, int count,
                                   unsigned type, const void *indices, int basevertex)
{
    (void)mode;
    elements(w, count, type, indices, basevertex, 0, 1, 0);
}

void gth_draw_range_elements(struct at_writer *w, unsigned mode, unsigned start, unsigned end,
                             int count, unsigned type, const void *indices)
{
    (void)mode, (void)start, (void)end;
    elements(w, count, type, indices, 0, 0, 1, 0);
}

void gth_draw_range_elements_base_vertex(struct at_writer *w, unsigned mode, unsigned start,
                                         unsigned end, int count, unsigned type,
                                         const void *indices, int basevertex)
{
    (void)mode, (void)start, (void)end;
    elements(w, count, type, indices, basevertex, 0, 1, 0);
}

void gth_draw_elements_instanced(struct at_writer *w, unsigned mode, int count, unsigned type,
                                 const void *indices, int instancecount)
{
    (void)mode;
    elements(w, count, type, indices, 0, 1, instancecount, 0);
}

void gth_draw_elements_instanced_base_vertex(struct at_writer *w, unsigned mode, int count,
                                             unsigned type, const void *indices,
                                             int instancecount, int basevertex)
{
    (void)mode;
    elements(w, count, type, indices, basevertex, 1, instancecount, 0);
}

void gth_draw_elements_instanced_base_instance(struct at_writer *w, unsigned mode, int count,
                                               unsigned type, const void *indices,
                                               int instancecount, unsigned baseinstance)
{
    (void)mode;
    elements(w, count, type, indices, 0, 1, instancecount, baseinstance);
}

void gth_draw_elements_instanced_base_vertex_base_instance(
    struct at_writer *w, unsigned mode, int count, unsigned type, const void *indices,
    int instancecount, int basevertex, unsigned baseinstance)
{
    (void)mode;
    elements(w, count, type, indices, basevertex, 1, instancecount, baseinstance);
}

/* Indirect draws: the command is read where it lies in client memory (none when a
 * GL_DRAW_INDIRECT_BUFFER is bound: apitrace writes no arrays for indirect draws at all). */
static int indirect_in_client_memory(const void *indirect)
{
    return indirect && geti(0x8F43 /* GL_DRAW_INDIRECT_BUFFER_BINDING */) == 0;
}

void gth_draw_arrays_indirect(struct at_writer *w, unsigned mode, const void *indirect)
{
    (void)mode;
    caps c;
    if (!begin(w, &c) || !indirect_in_client_memory(indirect))
        return;
    const uint32_t *cmd = indirect; /* count, instanceCount, first, baseInstance */
    draw d = {cmd[0] ? (uint64_t)cmd[2] + cmd[0] : 0, cmd[1], cmd[3], 0, 0};
    emit(w, &d, &c);
}

void gth_draw_elements_indirect(struct at_writer *w, unsigned mode, unsigned type,
                                const void *indirect)
{
    (void)mode;
    caps c;
    if (!begin(w, &c) || !indirect_in_client_memory(indirect))
        return;
    /* count, instanceCount, firstIndex, baseVertex, baseInstance; the indices are in
     * the element buffer (indirect draws take no client indices) */
    const uint32_t *cmd = indirect;
    size_t tb = type == GL_UNSIGNED_BYTE ? 1 : type == GL_UNSIGNED_SHORT ? 2 : 4;
    int64_t n = element_vertices(&c, (int)cmd[0], type, (const void *)(uintptr_t)(cmd[2] * tb),
                                 (int)cmd[3]);
    if (n < 0)
        return;
    draw d = {(uint64_t)n, cmd[1], cmd[4], 0, 0};
    emit(w, &d, &c);
}

void gth_multi_draw_arrays(struct at_writer *w, unsigned mode, const int *first,
                           const int *count, int drawcount)
{
    (void)mode;
    caps c;
    if (!begin(w, &c) || !first || !count)
        return;
    draw d = {0, 1, 0, 0, 0};
    for (int i = 0; i < drawcount; ++i)
        if (count[i] > 0 && first[i] >= 0 && (uint64_t)first[i] + (uint64_t)count[i] > d.vertices)
            d.vertices = (uint64_t)first[i] + (uint64_t)count[i];
    emit(w, &d, &c);
}

static void multi_elements(at_writer *w, const int *count, unsigned type,
                           const void *const *indices, int drawcount, const int *basevertex)
{
    caps c;
    if (!begin(w, &c) || !count || !indices)
        return;
    draw d = {0, 1, 0, 0, 0};
    for (int i = 0; i < drawcount; ++i) {
        int64_t n = element_vertices(&c, count[i], type, indices[i], basevertex ? basevertex[i] : 0);
        if (n < 0)
            return;
        if ((uint64_t)n > d.vertices)
            d.vertices = (uint64_t)n;
    }
    emit(w, &d, &c);
}

void gth_multi_draw_elements(struct at_writer *w, unsigned mode, const int *count,
                             unsigned type, const void *const *indices, int drawcount)
{
    (void)mode;
    multi_elements(w, count, type, indices, drawcount, NULL);
}

void gth_multi_draw_elements_base_vertex(struct at_writer *w, unsigned mode, const int *count,
                                         unsigned type, const void *const *indices,
                                         int drawcount, const int *basevertex)
{
    (void)mode;
    multi_elements(w, count, type, indices, drawcount, basevertex);
}
