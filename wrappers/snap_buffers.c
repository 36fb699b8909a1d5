/* The state snapshot's buffers (snapshot.h): each live buffer re-created with
 * glGenBuffers, glBindBuffer and glBufferData (glBufferStorage with its flags when its
 * storage is immutable) holding its contents read back from the driver:
 * glGetBufferSubData on GL, a read map on GLES 3 (GLES 2: GL_EXT_map_buffer_range's, where
 * it has it; else reported).
 *
 * A buffer the program has mapped at the range's start (a persistent map kept across
 * frames, or a map that the range's first calls unmap) is written mapped again:
 * glMapBufferRange with the map's offset, length and access, answering the program's
 * own pointer, so that the recorder's mapped-buffer hooks (hook_mapbuffer.c) follow it
 * from then on as if the program had mapped it while recording. The hooks find the
 * buffer through the driver's binding of the target the call names: the buffer stays
 * bound there in the driver while it is written.
 *
 * All is written through one target, GL_COPY_READ_BUFFER where the context has it
 * (GL_ARRAY_BUFFER before GL 3.1 and GLES 3): the state part binds the program's
 * buffers afterwards. */
#include "snap_objects.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_enums.gen.h"
#include "protos.gen.h"

struct buffer {
    uint32_t name;
    int64_t size;
    int usage, immutable, flags;
    int mapped, access; /* access: GL_MAP_*_BIT */
    int64_t map_offset, map_length;
    void *map_ptr;
};

struct buffers {
    unsigned target;
    size_t n;
    struct buffer *b;
};


/* GLES 2 reads buffers through GL_EXT_map_buffer_range's read maps, where it has them. */
static int es2_readable(snap *s)
{
    return snap_has_extension(s, "GL_EXT_map_buffer_range") &&
           snap_real_has("glMapBufferRangeEXT") && snap_real_has("glUnmapBufferOES");
}

static unsigned target_of(snap *s)
{
    return snap_has(s, 31, 30, NULL) ? GL_COPY_READ_BUFFER : GL_ARRAY_BUFFER;
}

static int binding_of(unsigned target)
{
    return target == GL_COPY_READ_BUFFER ? GL_COPY_READ_BUFFER : GL_ARRAY_BUFFER_BINDING;
}

static int64_t param64(snap *s, unsigned target, unsigned pname)
{
    if (snap_has(s, 32, 30, NULL)) {
        int64_t v = 0;
        SNAP_REAL(glGetBufferParameteri64v)(target, pname, (GLint64 *)&v);
        return v;
    }
    int v = 0;
    SNAP_REAL(glGetBufferParameteriv)(target, pname, &v);
    return v;
}

static int param(unsigned target, unsigned pname)
{
    int v = 0;
    SNAP_REAL(glGetBufferParameteriv)(target, pname, &v);
    return v;
}

/* The map of the buffer bound to target, if the program has one. */
static void read_map(snap *s, unsigned target, struct buffer *b)
{
    int has_map = snap_api(s) == SNAP_API_GL ? snap_version(s) >= 15
                  : snap_version(s) >= 30 || snap_has_extension(s, "GL_OES_mapbuffer");
    b->mapped = has_map && param(target, GL_BUFFER_MAPPED);
    if (!b->mapped)
        return;
    SNAP_REAL(glGetBufferPointerv)(target, GL_BUFFER_MAP_POINTER, &b->map_ptr);
    if (snap_has(s, 30, 30, NULL)) {
        b->access = param(target, GL_BUFFER_ACCESS_FLAGS);
        b->map_offset = param64(s, target, GL_BUFFER_MAP_OFFSET);
        b->map_length = param64(s, target, GL_BUFFER_MAP_LENGTH);
    } else { /* glMapBuffer: the whole buffer */
        int access = param(target, GL_BUFFER_ACCESS);
        b->access = access == GL_READ_ONLY ? GL_MAP_READ_BIT
                    : access == GL_WRITE_ONLY ? GL_MAP_WRITE_BIT
                                              : GL_MAP_READ_BIT | GL_MAP_WRITE_BIT;
        b->map_offset = 0;
        b->map_length = b->size;
    }
}

/* Whether a mapped buffer is read only through its map: the driver refuses other reads
 * of a buffer mapped without GL_MAP_PERSISTENT_BIT, and GLES has no read but a map. */
static int map_only(snap *s, const struct buffer *b)
{
    return !(b->access & GL_MAP_PERSISTENT_BIT) || snap_api(s) == SNAP_API_GLES;
}

static void collect_one(snap *s, unsigned target, struct buffer *b)
{
    SNAP_REAL(glBindBuffer)(target, b->name);
    b->size = param64(s, target, GL_BUFFER_SIZE);
    b->usage = param(target, GL_BUFFER_USAGE);
    if ((snap_api(s) == SNAP_API_GL && snap_version(s) >= 44) ||
        snap_has_extension(s, "GL_ARB_buffer_storage") ||
        snap_has_extension(s, "GL_EXT_buffer_storage")) {
        b->immutable = param(target, GL_BUFFER_IMMUTABLE_STORAGE);
        b->flags = b->immutable ? param(target, GL_BUFFER_STORAGE_FLAGS) : 0;
    }
    read_map(s, target, b);
    if (b->size <= 0)
        return;
    if (snap_api(s) == SNAP_API_GLES && snap_version(s) < 30 && !es2_readable(s))
        snap_unreadable(s, "buffer %u: %lld bytes, contents not read (GLES 2 without "
                        "GL_EXT_map_buffer_range cannot read buffers back)", b->name,
                        (long long)b->size);
    else if (b->mapped && map_only(s, b) && (b->map_offset > 0 || b->map_length < b->size))
        snap_unreadable(s, "buffer %u: mapped over [%lld, %lld) of %lld bytes: the bytes "
                        "outside the map not read", b->name, (long long)b->map_offset,
                        (long long)(b->map_offset + b->map_length), (long long)b->size);
    if (b->mapped && snap_api(s) == SNAP_API_GLES && snap_version(s) < 30)
        snap_unreadable(s, "buffer %u: mapped (GL_OES_mapbuffer): not written mapped", b->name);
}

static void *collect(snap *s)
{
    if (!snap_real_has("glIsBuffer") || !snap_real_has("glGetBufferParameteriv"))
        return NULL;
    uint32_t *names;
    size_t n = snap_live_names("buffer", SNAP_REAL(glIsBuffer), &names);
    if (!n)
        return NULL;
    struct buffers *all = calloc(1, sizeof *all);
    struct buffer *b = calloc(n, sizeof *b);
    if (!all || !b) {
        snap_unreadable(s, "out of memory: %zu buffers not written", n);
        free(all), free(b), free(names);
        return NULL;
    }
    all->target = target_of(s);
    all->n = n;
    all->b = b;
    int saved = 0;
    SNAP_REAL(glGetIntegerv)(binding_of(all->target), &saved);
    for (size_t i = 0; i < n; ++i) {
        b[i].name = names[i];
        collect_one(s, all->target, &b[i]);
    }
    SNAP_REAL(glBindBuffer)(all->target, (unsigned)saved);
    free(names);
    return all;
}

/* The contents of the buffer bound to target into data (b->size bytes). */
static void read_contents(snap *s, unsigned target, const struct buffer *b, uint8_t *data)
{
    if (b->mapped && map_only(s, b)) {
        /* the driver refuses other reads of a mapped buffer: what the map shows */
        memset(data, 0, (size_t)b->size);
        if (b->map_ptr && b->map_offset >= 0 && b->map_offset + b->map_length <= b->size)
            memcpy(data + b->map_offset, b->map_ptr, (size_t)b->map_length);
    } else if (snap_api(s) == SNAP_API_GL) {
        SNAP_REAL(glGetBufferSubData)(target, 0, b->size, data);
    } else if (snap_version(s) >= 30) {
        const void *p = SNAP_REAL(glMapBufferRange)(target, 0, b->size, GL_MAP_READ_BIT);
        if (p)
            memcpy(data, p, (size_t)b->size);
        else
            memset(data, 0, (size_t)b->size);
        SNAP_REAL(glUnmapBuffer)(target);
    } else if (es2_readable(s)) {
        const void *p = SNAP_REAL(glMapBufferRangeEXT)(target, 0, b->size, GL_MAP_READ_BIT);
        if (p)
            memcpy(data, p, (size_t)b->size);
        else
            memset(data, 0, (size_t)b->size);
        SNAP_REAL(glUnmapBufferOES)(target);
    } else {
        memset(data, 0, (size_t)b->size);
    }
}

static void write_one(snap *s, unsigned target, const struct buffer *b)
{
    GLuint name = b->name;
    glGenBuffers(1, &name);
    SNAP_REAL(glBindBuffer)(target, b->name); /* the driver's, for reading and the hooks */
    glBindBuffer(target, b->name);
    if (b->size > 0 || b->immutable) {
        uint8_t *data = b->size > 0 ? malloc((size_t)b->size) : NULL;
        if (data)
            read_contents(s, target, b, data);
        else if (b->size > 0)
            fprintf(stderr, "gltrace: state snapshot: buffer %u: out of memory, contents "
                    "not written\n", b->name);
        if (b->immutable)
            glBufferStorage(target, b->size, data, (GLbitfield)b->flags);
        else
            glBufferData(target, b->size, data, (GLenum)b->usage);
        free(data);
    }
    if (b->mapped && !(snap_api(s) == SNAP_API_GLES && snap_version(s) < 30)) {
        snap_ret((uint64_t)(uintptr_t)b->map_ptr);
        glMapBufferRange(target, b->map_offset, b->map_length, (GLbitfield)b->access);
    }
}

static void write_part(snap *s, void *data)
{
    struct buffers *all = data;
    int saved = 0;
    SNAP_REAL(glGetIntegerv)(binding_of(all->target), &saved);
    for (size_t i = 0; i < all->n; ++i)
        write_one(s, all->target, &all->b[i]);
    SNAP_REAL(glBindBuffer)(all->target, (unsigned)saved);
}

static void free_part(void *data)
{
    struct buffers *all = data;
    free(all->b);
    free(all);
}

const snap_part snap_part_buffers = {"buffers", collect, write_part, free_part};
