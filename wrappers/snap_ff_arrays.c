/* The conventional (fixed-function) vertex arrays of compatibility contexts
 * (snap_arrays.h): glVertexPointer and its kind, each array's size, type, stride,
 * buffer, offset and enable, one texture coordinate array per client texture unit. Part
 * of a vertex array object's state, read with it bound (snap_vertex_arrays.c). Arrays in
 * client memory are not written: the range's draws carry them (hook_client_arrays.c). */
#include "gl_enums.gen.h"
#include "gltrace_runtime.h"
#include "protos.gen.h"
#include "signatures.gen.h"
#include "attrib_lists.gen.h"
#include "snap_arrays.h"
#include "wrappers.gen.h"

/* One kind of array: its enable, the queries of its parameters (0: it has none) and its
 * pointer call with the kinds of the arguments before the pointer (size, type, stride:
 * those it has). */
typedef struct ff_kind {
    unsigned cap, size, type, stride, buffer, pointer;
    const gt_func_sig *sig;
    const char *kinds;
} ff_kind;

static const ff_kind kinds[] = {
    {GL_VERTEX_ARRAY, GL_VERTEX_ARRAY_SIZE, GL_VERTEX_ARRAY_TYPE, GL_VERTEX_ARRAY_STRIDE,
     GL_VERTEX_ARRAY_BUFFER_BINDING, GL_VERTEX_ARRAY_POINTER, &gtfn_glVertexPointer, "ses"},
    {GL_NORMAL_ARRAY, 0, GL_NORMAL_ARRAY_TYPE, GL_NORMAL_ARRAY_STRIDE,
     GL_NORMAL_ARRAY_BUFFER_BINDING, GL_NORMAL_ARRAY_POINTER, &gtfn_glNormalPointer, "es"},
    {GL_COLOR_ARRAY, GL_COLOR_ARRAY_SIZE, GL_COLOR_ARRAY_TYPE, GL_COLOR_ARRAY_STRIDE,
     GL_COLOR_ARRAY_BUFFER_BINDING, GL_COLOR_ARRAY_POINTER, &gtfn_glColorPointer, "zes"},
    {GL_SECONDARY_COLOR_ARRAY, GL_SECONDARY_COLOR_ARRAY_SIZE, GL_SECONDARY_COLOR_ARRAY_TYPE,
     GL_SECONDARY_COLOR_ARRAY_STRIDE, GL_SECONDARY_COLOR_ARRAY_BUFFER_BINDING,
     GL_SECONDARY_COLOR_ARRAY_POINTER, &gtfn_glSecondaryColorPointer, "zes"},
    {GL_FOG_COORD_ARRAY, 0, GL_FOG_COORD_ARRAY_TYPE, GL_FOG_COORD_ARRAY_STRIDE,
     GL_FOG_COORD_ARRAY_BUFFER_BINDING, GL_FOG_COORD_ARRAY_POINTER, &gtfn_glFogCoordPointer,
     "es"},
    {GL_INDEX_ARRAY, 0, GL_INDEX_ARRAY_TYPE, GL_INDEX_ARRAY_STRIDE,
     GL_INDEX_ARRAY_BUFFER_BINDING, GL_INDEX_ARRAY_POINTER, &gtfn_glIndexPointer, "es"},
    {GL_EDGE_FLAG_ARRAY, 0, 0, GL_EDGE_FLAG_ARRAY_STRIDE, GL_EDGE_FLAG_ARRAY_BUFFER_BINDING,
     GL_EDGE_FLAG_ARRAY_POINTER, &gtfn_glEdgeFlagPointer, "s"},
};
enum { NFIXED = sizeof kinds / sizeof *kinds };
static const ff_kind texcoord = {
    GL_TEXTURE_COORD_ARRAY, GL_TEXTURE_COORD_ARRAY_SIZE, GL_TEXTURE_COORD_ARRAY_TYPE,
    GL_TEXTURE_COORD_ARRAY_STRIDE, GL_TEXTURE_COORD_ARRAY_BUFFER_BINDING,
    GL_TEXTURE_COORD_ARRAY_POINTER, &gtfn_glTexCoordPointer, "ses"};

void snap_write_pointer_call(const gt_func_sig *sig, const char *kinds_of, const int64_t *vals,
                             uintptr_t pointer)
{
    at_writer *w = gltrace_writer();
    if (!w)
        return;
    gltrace_begin_enter(w, sig, AT_WRITER_FAKE);
    uint32_t i = 0;
    for (; kinds_of[i]; ++i) {
        at_writer_begin_arg(w, i);
        switch (kinds_of[i]) {
        case 'u': at_writer_uint(w, (uint64_t)vals[i]); break;
        case 'e': at_writer_enum(w, &gtsig_GLenum, vals[i]); break;
        case 'b': at_writer_enum(w, &gtsig_GLboolean, vals[i]); break;
        case 'z': at_writer_enum(w, &gtal_enum_SizeBGRA, vals[i]); break;
        default: at_writer_sint(w, vals[i]); break;
        }
    }
    at_writer_begin_arg(w, i);
    at_writer_pointer(w, pointer);
    gltrace_begin_leave(w, gltrace_end_enter(w));
    gltrace_end_leave(w);
}


void snap_ff_context(int *ntex, int *client_active)
{
    *ntex = snap_geti(GL_MAX_TEXTURE_COORDS);
    if (*ntex > SNAP_FF_MAX_TEXCOORDS)
        *ntex = SNAP_FF_MAX_TEXCOORDS;
    *client_active = snap_geti(GL_CLIENT_ACTIVE_TEXTURE);
}

static void read_one(const ff_kind *k, snap_ff_array *a)
{
    a->enabled = SNAP_REAL(glIsEnabled)(k->cap) != 0;
    a->size = snap_geti(k->size);
    a->type = snap_geti(k->type);
    a->stride = snap_geti(k->stride);
    a->buffer = snap_geti(k->buffer);
    void *p = NULL;
    SNAP_REAL(glGetPointerv)(k->pointer, &p);
    a->pointer = (uintptr_t)p;
}

void snap_ff_read(snap_ff_arrays *out, int ntex, int client_active)
{
    out->ntex = ntex;
    for (int i = 0; i < NFIXED; ++i)
        read_one(&kinds[i], &out->a[i]);
    for (int t = 0; t < ntex; ++t) {
        SNAP_REAL(glClientActiveTexture)(GL_TEXTURE0 + (unsigned)t);
        read_one(&texcoord, &out->a[NFIXED + t]);
    }
    if (ntex)
        SNAP_REAL(glClientActiveTexture)((unsigned)client_active);
}

/* Whether write_one writes anything for a. */
static int worth(const snap_ff_array *a) { return a->enabled || a->buffer; }

static void write_one(const ff_kind *k, const snap_ff_array *a, int *array_buffer)
{
    if (a->buffer) {
        int64_t vals[3];
        int n = 0;
        if (k->size)
            vals[n++] = a->size;
        if (k->type)
            vals[n++] = a->type;
        vals[n++] = a->stride;
        if (a->buffer != *array_buffer)
            glBindBuffer(GL_ARRAY_BUFFER, (unsigned)a->buffer);
        *array_buffer = a->buffer;
        snap_write_pointer_call(k->sig, k->kinds, vals, a->pointer);
    }
    if (a->enabled)
        glEnableClientState(k->cap);
}

void snap_ff_write(const snap_ff_arrays *in, int *array_buffer)
{
    for (int i = 0; i < NFIXED; ++i)
        write_one(&kinds[i], &in->a[i], array_buffer);
    int unit = -1; /* the client active texture the written calls chose */
    for (int t = 0; t < in->ntex; ++t) {
        if (!worth(&in->a[NFIXED + t]))
            continue;
        glClientActiveTexture(GL_TEXTURE0 + (unsigned)t);
        unit = t;
        write_one(&texcoord, &in->a[NFIXED + t], array_buffer);
    }
    if (unit > 0) /* the state part sets the program's; this is the default */
        glClientActiveTexture(GL_TEXTURE0);
}
