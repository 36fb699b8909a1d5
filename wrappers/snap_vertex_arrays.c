/* The state snapshot's vertex arrays (snapshot.h): each vertex array object of the
 * snapshot's context, bound in the driver to read its attributes (the binding put
 * back), written as glGenVertexArrays, glBindVertexArray, then per attribute
 * glBindBuffer(GL_ARRAY_BUFFER) + glVertexAttrib[I|L]Pointer (or, where attributes
 * share buffer bindings, GL 4.3's glVertexAttribFormat / glVertexAttribBinding /
 * glBindVertexBuffer), glEnableVertexAttribArray, glVertexAttribDivisor, and the
 * element buffer; in compatibility contexts also the conventional arrays
 * (glVertexPointer and its kind: snap_ff_arrays.c). Where the context has a default
 * vertex array (compatibility profiles, GLES) its state is written first, before
 * anything binds another. The
 * generic attribute values (glVertexAttrib4f) are the context's: written here too.
 *
 * Vertex arrays are not shared between contexts: one another context made
 * (track_containers.c) is said unreadable; one generated here but never bound is
 * generated again. Client-memory arrays are
 * not written: the range's draws carry them (hook_client_arrays.c). */
#include <stdlib.h>
#include <string.h>

#include "capture_track.h"
#include "gl_enums.gen.h"
#include "protos.gen.h"
#include "snap_arrays.h"
#include "snapshot_parts.h"
#include "track_containers.h"
#include "wrappers.gen.h"

enum { MAX_ATTRIBS = 32 };

typedef struct attrib {
    int enabled, size, type, normalized, integer, longs, stride, buffer, divisor;
    int binding, reloffset;
    uintptr_t pointer;
} attrib;

typedef struct vbinding {
    int buffer, stride, divisor;
    int64_t offset;
} vbinding;

typedef struct vao {
    unsigned name;
    int element_buffer, separate; /* separate: written in GL 4.3's form */
    attrib a[MAX_ATTRIBS];
    vbinding b[MAX_ATTRIBS];
    snap_ff_arrays ff; /* compatibility contexts */
} vao;

typedef struct vaos {
    vao *v;
    size_t n;
    uint32_t *gen_only; /* generated here, never bound: glGenVertexArrays alone */
    size_t ngen_only;
    int nattribs, has_default;
    int ff, ntex, client_active; /* ff: conventional arrays (compatibility contexts) */
    float current[MAX_ATTRIBS][4];
} vaos;


static int attrib_iv(unsigned index, unsigned pname)
{
    int v = 0;
    SNAP_REAL(glGetVertexAttribiv)(index, pname, &v);
    return v;
}


/* The bound vertex array's attributes and bindings into v. */
static void read_vao(snap *s, const vaos *d, vao *v)
{
    int vab = snap_api(s) == SNAP_API_GL && snap_version(s) >= 43;
    v->element_buffer = snap_geti(GL_ELEMENT_ARRAY_BUFFER_BINDING);
    if (d->ff)
        snap_ff_read(&v->ff, d->ntex, d->client_active);
    for (int i = 0; i < d->nattribs; ++i) {
        attrib *a = &v->a[i];
        unsigned u = (unsigned)i;
        a->enabled = attrib_iv(u, GL_VERTEX_ATTRIB_ARRAY_ENABLED);
        a->size = attrib_iv(u, GL_VERTEX_ATTRIB_ARRAY_SIZE);
        a->type = attrib_iv(u, GL_VERTEX_ATTRIB_ARRAY_TYPE);
        a->normalized = attrib_iv(u, GL_VERTEX_ATTRIB_ARRAY_NORMALIZED);
        a->stride = attrib_iv(u, GL_VERTEX_ATTRIB_ARRAY_STRIDE);
        a->buffer = attrib_iv(u, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING);
        if (snap_has(s, 30, 30, NULL))
            a->integer = attrib_iv(u, GL_VERTEX_ATTRIB_ARRAY_INTEGER);
        if (snap_has(s, 33, 30, NULL))
            a->divisor = attrib_iv(u, GL_VERTEX_ATTRIB_ARRAY_DIVISOR);
        if (snap_api(s) == SNAP_API_GL && snap_version(s) >= 41)
            a->longs = attrib_iv(u, GL_VERTEX_ATTRIB_ARRAY_LONG);
        void *p = NULL;
        SNAP_REAL(glGetVertexAttribPointerv)(u, GL_VERTEX_ATTRIB_ARRAY_POINTER, &p);
        a->pointer = (uintptr_t)p;
        a->binding = i;
        if (!vab)
            continue;
        a->binding = attrib_iv(u, GL_VERTEX_ATTRIB_BINDING);
        a->reloffset = attrib_iv(u, GL_VERTEX_ATTRIB_RELATIVE_OFFSET);
        vbinding *b = &v->b[i];
        SNAP_REAL(glGetIntegeri_v)(GL_VERTEX_BINDING_BUFFER, u, &b->buffer);
        SNAP_REAL(glGetIntegeri_v)(GL_VERTEX_BINDING_STRIDE, u, &b->stride);
        SNAP_REAL(glGetIntegeri_v)(GL_VERTEX_BINDING_DIVISOR, u, &b->divisor);
        SNAP_REAL(glGetInteger64i_v)(GL_VERTEX_BINDING_OFFSET, u, &b->offset);
        if (a->binding != i || a->reloffset != 0)
            v->separate = 1;
    }
}

static int default_vao(const snap *s)
{
    if (snap_api(s) == SNAP_API_GLES || snap_version(s) < 32)
        return 1;
    return !(snap_geti(GL_CONTEXT_PROFILE_MASK) & GL_CONTEXT_CORE_PROFILE_BIT);
}

/* The generic attribute values (attribute 0 of a compatibility context is the
 * current vertex: not queryable). */
static void read_current(snap *s, vaos *d)
{
    int first = snap_api(s) == SNAP_API_GL && d->has_default ? 1 : 0;
    for (int i = 0; i < d->nattribs; ++i) {
        float *c = d->current[i];
        c[0] = c[1] = c[2] = 0.0f;
        c[3] = 1.0f;
        if (i >= first)
            SNAP_REAL(glGetVertexAttribfv)((unsigned)i, GL_CURRENT_VERTEX_ATTRIB, c);
    }
}

static void *collect(snap *s)
{
    vaos *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->nattribs = snap_geti(GL_MAX_VERTEX_ATTRIBS);
    if (d->nattribs > MAX_ATTRIBS)
        d->nattribs = MAX_ATTRIBS;
    d->has_default = default_vao(s);
    d->ff = snap_api(s) == SNAP_API_GL && d->has_default;
    if (d->ff)
        snap_ff_context(&d->ntex, &d->client_active);
    read_current(s, d);
    uint32_t *names = NULL;
    size_t n = gltrace_tracked_names(gltrace_track_class("vertex array"), &names);
    d->v = calloc(n + 1, sizeof *d->v);
    int has_vaos = snap_has(s, 30, 30, NULL) && snap_real_has("glBindVertexArray");
    int saved = has_vaos ? snap_geti(GL_VERTEX_ARRAY_BINDING) : 0;
    if (d->v && d->has_default) {
        if (has_vaos)
            SNAP_REAL(glBindVertexArray)(0);
        read_vao(s, d, &d->v[d->n++]);
    }
    d->gen_only = n ? calloc(n, sizeof *d->gen_only) : NULL;
    for (size_t i = 0; i < n && d->v && has_vaos; ++i) {
        int here = 0, elsewhere = 0;
        gtt_ctr_where(GTT_CTR_VERTEX_ARRAY, names[i], &here, &elsewhere);
        /* another context's are written with that context (snapshot_contexts.h) */
        if (!SNAP_REAL(glIsVertexArray)(names[i])) {
            if (here && d->gen_only)
                d->gen_only[d->ngen_only++] = names[i];
            else if (!elsewhere)
                snap_unreadable(s, "vertex array %u: another context's (or never bound): not "
                                "re-created", names[i]);
            continue;
        }
        SNAP_REAL(glBindVertexArray)(names[i]);
        d->v[d->n].name = names[i];
        read_vao(s, d, &d->v[d->n++]);
    }
    if (has_vaos)
        SNAP_REAL(glBindVertexArray)((unsigned)saved);
    else if (n) /* GL_OES_vertex_array_object's, GL_APPLE_vertex_array_object's */
        snap_unreadable(s, "%zu vertex array objects of an extension: not re-created", n);
    free(names);
    return d;
}

/* glVertexAttrib[I|L]Pointer, as the recorder writes it with a buffer bound. */
static void write_pointer(unsigned index, const attrib *a)
{
    const int64_t vals[] = {index, a->size, a->type, a->normalized ? 1 : 0, a->stride};
    const int64_t no_norm[] = {index, a->size, a->type, a->stride};
    if (a->integer)
        snap_write_pointer_call(&gtfn_glVertexAttribIPointer, "uses", no_norm, a->pointer);
    else if (a->longs)
        snap_write_pointer_call(&gtfn_glVertexAttribLPointer, "uses", no_norm, a->pointer);
    else
        snap_write_pointer_call(&gtfn_glVertexAttribPointer, "uzebs", vals, a->pointer);
}

/* GL 4.3's form: formats, attribute bindings, then buffer bindings. */
static void write_separate(const vaos *d, const vao *v)
{
    for (int i = 0; i < d->nattribs; ++i) {
        const attrib *a = &v->a[i];
        unsigned u = (unsigned)i;
        if (a->size == 4 && a->type == GL_FLOAT && !a->normalized && !a->integer &&
            !a->longs && !a->reloffset && a->binding == i)
            continue; /* as a new vertex array has it */
        if (a->integer)
            glVertexAttribIFormat(u, a->size, (unsigned)a->type, (unsigned)a->reloffset);
        else if (a->longs)
            glVertexAttribLFormat(u, a->size, (unsigned)a->type, (unsigned)a->reloffset);
        else
            glVertexAttribFormat(u, a->size, (unsigned)a->type, (unsigned char)a->normalized,
                                 (unsigned)a->reloffset);
        if (a->binding != i)
            glVertexAttribBinding(u, (unsigned)a->binding);
    }
    for (int i = 0; i < d->nattribs; ++i) {
        const vbinding *b = &v->b[i];
        if (b->buffer || b->offset || b->stride != 16)
            glBindVertexBuffer((unsigned)i, (unsigned)b->buffer, (intptr_t)b->offset, b->stride);
        if (b->divisor)
            glVertexBindingDivisor((unsigned)i, (unsigned)b->divisor);
    }
}

static void write_vao(const vaos *d, const vao *v)
{
    if (v->name) {
        GLuint name = v->name;
        glGenVertexArrays(1, &name);
        glBindVertexArray(v->name);
    }
    if (v->separate)
        write_separate(d, v);
    int array_buffer = -1; /* what the written calls bound */
    for (int i = 0; i < d->nattribs; ++i) {
        const attrib *a = &v->a[i];
        if (!v->separate && a->buffer) {
            if (a->buffer != array_buffer)
                glBindBuffer(GL_ARRAY_BUFFER, (unsigned)a->buffer);
            array_buffer = a->buffer;
            write_pointer((unsigned)i, a);
        }
        if (a->enabled)
            glEnableVertexAttribArray((unsigned)i);
        if (!v->separate && a->divisor)
            glVertexAttribDivisor((unsigned)i, (unsigned)a->divisor);
    }
    if (d->ff)
        snap_ff_write(&v->ff, &array_buffer);
    if (v->element_buffer)
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, (unsigned)v->element_buffer);
}

static void write_part(snap *s, void *data)
{
    (void)s;
    const vaos *d = data;
    for (int i = 0; i < d->nattribs; ++i) {
        const float *c = d->current[i];
        if (c[0] != 0.0f || c[1] != 0.0f || c[2] != 0.0f || c[3] != 1.0f)
            glVertexAttrib4f((unsigned)i, c[0], c[1], c[2], c[3]);
    }
    for (size_t i = 0; i < d->ngen_only; ++i) {
        GLuint name = d->gen_only[i];
        glGenVertexArrays(1, &name);
    }
    int bound = 0;
    for (size_t i = 0; i < d->n; ++i) {
        write_vao(d, &d->v[i]);
        bound |= d->v[i].name != 0;
    }
    if (bound) /* the state part binds the program's */
        glBindVertexArray(0);
}

static void free_part(void *data)
{
    vaos *d = data;
    free(d->v);
    free(d->gen_only);
    free(d);
}

const snap_part snap_part_vertex_arrays = {"vertex_arrays", collect, write_part, free_part};
