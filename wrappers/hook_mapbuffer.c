/* Mapped buffers: fake memcpy calls for what programs write through buffer maps (see
 * hook_mapbuffer.h for what is written when).
 *
 * How apitrace 11 does it (wrappers/gltrace.py, glmemshadow.cpp), which this follows
 * so that its glretrace replays our traces:
 *   - the map call's result is recorded as an opaque pointer; glretrace remembers the
 *     range [result, result + length) and maps it to its own mapping;
 *   - before glUnmapBuffer* (not after: the memory is gone then) a fake call
 *     memcpy(dest = the map pointer, src = blob of the mapped bytes, n = the length),
 *     flagged fake, with the reserved function id 0 ("memcpy": dest, src, n), when the
 *     map has GL_MAP_WRITE_BIT and neither GL_MAP_FLUSH_EXPLICIT_BIT nor
 *     GL_MAP_PERSISTENT_BIT (glMapBuffer: access other than GL_READ_ONLY);
 *   - before glFlushMappedBufferRange* memcpy(map pointer + offset, blob, length);
 *   - coherent persistent maps: apitrace hands the program a shadow mapping guarded
 *     with mprotect, and commits the dirty pages (as memcpy fakes whose dest is the
 *     shadow pointer it returned) before draws (gl*Draw[Range]{Arrays,Elements}*),
 *     dispatches and pixel transfers, at unmap, and inside glWaitSync, glClientWaitSync
 *     when signaled and glGetSynciv reading GL_SIGNALED. We commit at those points too,
 *     and also before the other calls through which the GL reads buffers (buffer
 *     copies, glDrawTransformFeedback*, vendor draws: specs/annotations.txt), where
 *     apitrace's trace replays stale bytes.
 *     Non-coherent persistent maps are left to explicit flushes.
 * Here persistent maps, coherent or not, are tracked with a plain shadow copy instead
 * of page protection: the program keeps the driver's pointer, and at each point where
 * the GL may read the buffer the mapped range is compared with the copy in page-sized
 * steps. Coherent maps are written as apitrace writes them: each run of differing
 * buffer pages, whole and clipped to the map, as one memcpy (hook_mapbuffer_pages.c);
 * other persistent maps (apitrace writes nothing for them but their explicit flushes)
 * as runs trimmed to their first and last differing byte. The cost: a copy of every persistently mapped range, and a
 * memcmp of all of them at every draw, dispatch, sync or swap while any is mapped —
 * linear in the mapped size, where page protection costs only for the pages written
 * (a fault per page and frame). There is no cost at all while no persistent map is
 * live (one atomic load per draw); while one is, add an msync() per map and commit
 * (see still_mapped), and at map time a read of the whole range through the map (slow
 * on write-combined memory of discrete GPUs).
 *
 * Maps are found by buffer name: at map time the name is read from the target's
 * binding (glGetIntegerv), as apitrace does; the thread that mapped is kept to tell
 * apart two contexts of one process that map buffers of the same name. The table is
 * small, guarded by one mutex, and only touched by map, unmap, flush, delete and (for
 * persistent maps) the commit points. */
#include "hook_mapbuffer.h"
#include "gl_enums.gen.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gltrace_runtime.h"
#include "gt_grow.h"
#include "hook_mapbuffer_pages.h"


/* apitrace reserves function ids 0-3 for memcpy, malloc, free and realloc. */
static const char *memcpy_args[] = {"dest", "src", "n"};
static const gt_func_sig memcpy_sig = {0, "memcpy", 3, memcpy_args, 0};

struct map {
    unsigned buffer;   /* GL name */
    uint32_t thread;   /* gltrace_thread_no() of the mapping thread */
    uint8_t *ptr;      /* what the map call returned (and the trace recorded) */
    size_t length;     /* bytes mapped from ptr */
    unsigned access;   /* GL_MAP_*_BIT flags (glMapBuffer's access translated) */
    uint8_t *shadow;   /* persistent write maps: the bytes last written to the trace */
    size_t offset;     /* the map's offset in the buffer */
    size_t buffer_pages; /* coherent maps: pages of the whole buffer, else 0 */
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct map *g_maps;       /* live maps, unordered */
static size_t g_nmaps, g_cap;
static atomic_size_t g_live;     /* g_nmaps, readable without the lock */
static atomic_size_t g_persistent; /* live maps with a shadow */

/* ---- real GL queries -------------------------------------------------------------- */

typedef void (*get_param_fn)(unsigned, unsigned, int *);

static int current_binding(unsigned target)
{
    unsigned binding;
    switch (target) {
    case 0x8892: binding = 0x8894; break; /* ARRAY_BUFFER */
    case 0x8893: binding = 0x8895; break; /* ELEMENT_ARRAY_BUFFER */
    case 0x88EB: binding = 0x88ED; break; /* PIXEL_PACK_BUFFER */
    case 0x88EC: binding = 0x88EF; break; /* PIXEL_UNPACK_BUFFER */
    case 0x8A11: binding = 0x8A28; break; /* UNIFORM_BUFFER */
    case 0x8C2A: binding = 0x8C2A; break; /* TEXTURE_BUFFER (its binding has its value) */
    case 0x8C8E: binding = 0x8C8F; break; /* TRANSFORM_FEEDBACK_BUFFER */
    case 0x8F36: binding = 0x8F36; break; /* COPY_READ_BUFFER */
    case 0x8F37: binding = 0x8F37; break; /* COPY_WRITE_BUFFER */
    case 0x8F3F: binding = 0x8F43; break; /* DRAW_INDIRECT_BUFFER */
    case 0x90D2: binding = 0x90D3; break; /* SHADER_STORAGE_BUFFER */
    case 0x90EE: binding = 0x90EF; break; /* DISPATCH_INDIRECT_BUFFER */
    case 0x9192: binding = 0x9193; break; /* QUERY_BUFFER */
    case 0x92C0: binding = 0x92C1; break; /* ATOMIC_COUNTER_BUFFER */
    case 0x80EE: binding = 0x80EF; break; /* PARAMETER_BUFFER */
    default: return 0;
    }
    return gltrace_real_geti(binding);
}

/* GL_BUFFER_SIZE of a buffer, through the target or (target 0) by name. */
static size_t buffer_size(unsigned target, unsigned buffer, const char *named_getter)
{
    int size = 0;
    if (target) {
        static get_param_fn get;
        if (!get)
            get = (get_param_fn)gltrace_real("glGetBufferParameteriv");
        if (get)
            get(target, GL_BUFFER_SIZE, &size);
    } else {
        get_param_fn get = (get_param_fn)gltrace_real(named_getter);
        if (get)
            get(buffer, GL_BUFFER_SIZE, &size);
    }
    return size > 0 ? (size_t)size : 0;
}

/* ---- the fake call ---------------------------------------------------------------- */

void gtw_fake_memcpy(at_writer *w, const void *dest, const void *src, size_t n)
{
    gltrace_begin_enter(w, &memcpy_sig, AT_WRITER_FAKE);
    at_writer_begin_arg(w, 0);
    at_writer_pointer(w, (uint64_t)(uintptr_t)dest);
    at_writer_begin_arg(w, 1);
    at_writer_blob(w, src, n);
    at_writer_begin_arg(w, 2);
    at_writer_uint(w, n);
    gltrace_begin_leave(w, gltrace_end_enter(w));
    gltrace_end_leave(w);
}

/* ---- the table (callers hold g_lock) ------------------------------------------------ */

/* The live map of buffer, preferring one made by this thread; NULL if none. */
static struct map *find(unsigned buffer)
{
    struct map *any = NULL;
    uint32_t self = gltrace_thread_no();
    for (size_t i = 0; i < g_nmaps; ++i)
        if (g_maps[i].buffer == buffer) {
            if (g_maps[i].thread == self)
                return &g_maps[i];
            if (!any)
                any = &g_maps[i];
        }
    return any;
}

static void forget(struct map *m)
{
    if (m->shadow) {
        free(m->shadow);
        atomic_fetch_sub(&g_persistent, 1);
    }
    *m = g_maps[--g_nmaps];
    atomic_store(&g_live, g_nmaps);
}

struct commit {
    at_writer *w;
    struct map *m;
};

static void commit_run(void *ctx, size_t off, size_t n)
{
    struct commit *c = ctx;
    memcpy(c->m->shadow + off, c->m->ptr + off, n);
    gtw_fake_memcpy(c->w, c->m->ptr + off, c->m->shadow + off, n);
}

/* Writes the runs of pages of m that differ from its shadow, and updates the shadow:
 * coherent maps in apitrace's runs of whole pages (hook_mapbuffer_pages.c), the others
 * (which apitrace leaves to explicit flushes) trimmed to the bytes that changed. */
static void commit_one(at_writer *w, struct map *m)
{
    if (m->buffer_pages) {
        struct map_pages pages = {m->ptr, m->shadow, m->offset, m->length, m->buffer_pages};
        struct commit c = {w, m};
        map_pages_commit(&pages, commit_run, &c);
        return;
    }
    static size_t page;
    if (!page) {
        long p = sysconf(_SC_PAGESIZE);
        page = p > 0 ? (size_t)p : 4096;
    }
    size_t off = 0;
    while (off < m->length) {
        size_t step = m->length - off < page ? m->length - off : page;
        if (!memcmp(m->ptr + off, m->shadow + off, step)) {
            off += step;
            continue;
        }
        size_t start = off, end = off + step; /* a run of differing pages */
        while (end < m->length) {
            size_t s = m->length - end < page ? m->length - end : page;
            if (!memcmp(m->ptr + end, m->shadow + end, s))
                break;
            end += s;
        }
        /* Trimmed to the first and last byte that differ. */
        size_t first = start, last = end;
        while (first + 1 < end && m->ptr[first] == m->shadow[first])
            ++first;
        while (m->ptr[last - 1] == m->shadow[last - 1] && last - 1 > first)
            --last;
        off = end;
        /* The program may still be writing: copy first, then write what was copied
         * (a byte changed meanwhile outside [first, last) shows at the next commit). */
        memcpy(m->shadow + first, m->ptr + first, last - first);
        gtw_fake_memcpy(w, m->ptr + first, m->shadow + first, last - first);
    }
}

/* Pages of a buffer of `bytes` bytes. */
static size_t pages_of(size_t bytes)
{
    long p = sysconf(_SC_PAGESIZE);
    size_t page = p > 0 ? (size_t)p : 4096;
    return (bytes + page - 1) / page;
}

static int coherent_write(unsigned access)
{
    const unsigned bits = GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
    return (access & bits) == bits;
}

/* A new map of buffer: `offset` bytes into it, `size` its size (coherent maps only);
 * `notify`: the program names what it writes (GL_MAP_NOTIFY_EXPLICIT_BIT_VMWX), so a map
 * that is not coherent gets no shadow (apitrace records only the notifications). */
static void add(at_writer *w, unsigned buffer, void *ptr, size_t offset, size_t length,
                unsigned access, size_t size, bool notify)
{
    (void)w;
    if (!ptr || !length)
        return;
    pthread_mutex_lock(&g_lock);
    struct map *old = find(buffer);
    if (old && old->thread == gltrace_thread_no())
        forget(old); /* mapped again: the old map ended without our seeing it */
    /* Memory is mapped once: a map that overlaps the new one ended unseen (its context
     * was destroyed, and the driver reuses the addresses). */
    for (size_t i = 0; i < g_nmaps; ++i)
        if (g_maps[i].ptr < (uint8_t *)ptr + length && (uint8_t *)ptr < g_maps[i].ptr + g_maps[i].length)
            forget(&g_maps[i--]);
    if (GT_GROW(g_maps, g_cap, g_nmaps + 1, 16) != 0) {
        pthread_mutex_unlock(&g_lock);
        return;
    }
    struct map *m = &g_maps[g_nmaps++];
    *m = (struct map){buffer, gltrace_thread_no(), ptr, length, access, NULL, offset,
                      coherent_write(access) ? pages_of(size > offset + length ? size
                                                                              : offset + length)
                                             : 0};
    if ((access & (GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT)) ==
            (GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT) &&
        (!notify || coherent_write(access))) {
        /* What the buffer holds now is in the trace already (its data, earlier
         * memcpys): only later changes need writing. */
        m->shadow = malloc(length);
        if (m->shadow) {
            memcpy(m->shadow, ptr, length);
            atomic_fetch_add(&g_persistent, 1);
        } else {
            fprintf(stderr, "gltrace: warning: no memory to follow the persistent map of "
                            "buffer %u (%zu bytes): writes through it are not recorded\n",
                    buffer, length);
        }
    }
    atomic_store(&g_live, g_nmaps);
    pthread_mutex_unlock(&g_lock);
}

/* ---- map -------------------------------------------------------------------------- */

/* glMapBuffer's access enum as GL_MAP_*_BIT flags. */
static unsigned access_bits(unsigned access)
{
    return access == GL_READ_ONLY ? 0x0001 : access == 0x88B9 ? GL_MAP_WRITE_BIT : 0x0003;
}

void gtw_hook_map_buffer(at_writer *w, unsigned target, unsigned access, void *ret)
{
    if (!ret)
        return;
    add(w, (unsigned)current_binding(target), ret, 0, buffer_size(target, 0, NULL),
        access_bits(access), 0, false);
}

void gtw_hook_map_buffer_range(at_writer *w, unsigned target, intptr_t offset, intptr_t length,
                               unsigned access, void *ret)
{
    bool notify = gtw_map_notify_explicit();
    if (!ret || length <= 0 || offset < 0)
        return;
    size_t size = coherent_write(access) ? buffer_size(target, 0, NULL) : 0;
    add(w, (unsigned)current_binding(target), ret, (size_t)offset, (size_t)length, access, size,
        notify);
}

void gtw_hook_map_named_buffer(at_writer *w, unsigned buffer, unsigned access, void *ret)
{
    if (!ret)
        return;
    add(w, buffer, ret, 0, buffer_size(0, buffer, "glGetNamedBufferParameteriv"),
        access_bits(access), 0, false);
}

void gtw_hook_map_named_buffer_ext(at_writer *w, unsigned buffer, unsigned access, void *ret)
{
    if (!ret)
        return;
    add(w, buffer, ret, 0, buffer_size(0, buffer, "glGetNamedBufferParameterivEXT"),
        access_bits(access), 0, false);
}

void gtw_hook_map_named_buffer_range(at_writer *w, unsigned buffer, intptr_t offset,
                                     intptr_t length, unsigned access, void *ret)
{
    bool notify = gtw_map_notify_explicit();
    if (!ret || length <= 0 || offset < 0)
        return;
    size_t size =
        coherent_write(access) ? buffer_size(0, buffer, "glGetNamedBufferParameteriv") : 0;
    add(w, buffer, ret, (size_t)offset, (size_t)length, access, size, notify);
}

int gtw_mapped_range_live(const void *p, size_t n)
{
    const uint8_t *b = p;
    int live = 0;
    pthread_mutex_lock(&g_lock);
    for (size_t i = 0; i < g_nmaps && !live; ++i)
        live = b >= g_maps[i].ptr && n <= g_maps[i].length &&
               (size_t)(b - g_maps[i].ptr) <= g_maps[i].length - n;
    pthread_mutex_unlock(&g_lock);
    return live;
}

/* ---- unmap and flush ---------------------------------------------------------------- */

static void unmap(at_writer *w, unsigned buffer)
{
    if (!buffer || !atomic_load_explicit(&g_live, memory_order_relaxed))
        return;
    pthread_mutex_lock(&g_lock);
    struct map *m = find(buffer);
    if (m) {
        if (m->shadow)
            commit_one(w, m);
        else if ((m->access & GL_MAP_WRITE_BIT) &&
                 !(m->access & (GL_MAP_FLUSH_EXPLICIT_BIT | GL_MAP_PERSISTENT_BIT)))
            gtw_fake_memcpy(w, m->ptr, m->ptr, m->length);
        forget(m);
    }
    pthread_mutex_unlock(&g_lock);
}

void gtw_prehook_unmap_buffer(at_writer *w, unsigned target)
{
    if (atomic_load_explicit(&g_live, memory_order_relaxed))
        unmap(w, (unsigned)current_binding(target));
}

void gtw_prehook_unmap_named_buffer(at_writer *w, unsigned buffer)
{
    unmap(w, buffer);
}

static void flush(at_writer *w, unsigned buffer, intptr_t offset, intptr_t length)
{
    if (!buffer || offset < 0 || length <= 0)
        return;
    pthread_mutex_lock(&g_lock);
    struct map *m = find(buffer);
    /* The range must lie inside the map (the GL refuses others with an error). */
    if (m && (m->access & GL_MAP_WRITE_BIT) && (size_t)offset <= m->length &&
        (size_t)length <= m->length - (size_t)offset) {
        if (m->shadow && !m->buffer_pages) {
            memcpy(m->shadow + offset, m->ptr + offset, (size_t)length);
            gtw_fake_memcpy(w, m->ptr + offset, m->shadow + offset, (size_t)length);
        } else {
            /* A coherent map's flushed bytes stay dirty: apitrace 11 writes their pages
             * again at the next commit (its explicit flush does not clean the shadow). */
            gtw_fake_memcpy(w, m->ptr + offset, m->ptr + offset, (size_t)length);
        }
    }
    pthread_mutex_unlock(&g_lock);
}

void gtw_prehook_flush_mapped_buffer_range(at_writer *w, unsigned target, intptr_t offset,
                                           intptr_t length)
{
    if (atomic_load_explicit(&g_live, memory_order_relaxed))
        flush(w, (unsigned)current_binding(target), offset, length);
}

void gtw_prehook_flush_mapped_named_buffer_range(at_writer *w, unsigned buffer,
                                                 intptr_t offset, intptr_t length)
{
    if (atomic_load_explicit(&g_live, memory_order_relaxed))
        flush(w, buffer, offset, length);
}

/* ---- implicit ends of a map ------------------------------------------------------- */

static void drop(unsigned buffer)
{
    struct map *m;
    while (buffer && (m = find(buffer)) != NULL)
        forget(m);
}

void gtw_prehook_delete_buffers(at_writer *w, int n, const unsigned *buffers)
{
    (void)w;
    if (!buffers || n <= 0 || !atomic_load_explicit(&g_live, memory_order_relaxed))
        return;
    pthread_mutex_lock(&g_lock);
    for (int i = 0; i < n; ++i)
        drop(buffers[i]);
    pthread_mutex_unlock(&g_lock);
}

void gtw_prehook_buffer_data(at_writer *w, unsigned target, ...)
{
    (void)w;
    if (!atomic_load_explicit(&g_live, memory_order_relaxed))
        return;
    unsigned buffer = (unsigned)current_binding(target);
    pthread_mutex_lock(&g_lock);
    drop(buffer);
    pthread_mutex_unlock(&g_lock);
}

void gtw_prehook_named_buffer_data(at_writer *w, unsigned buffer, ...)
{
    (void)w;
    if (!atomic_load_explicit(&g_live, memory_order_relaxed))
        return;
    pthread_mutex_lock(&g_lock);
    drop(buffer);
    pthread_mutex_unlock(&g_lock);
}

/* ---- persistent maps -------------------------------------------------------------- */

/* Whether m's memory is still mapped. A persistent map outlives its buffer when the
 * program destroys the context (not sharing it) without unmapping or deleting: the
 * driver may then have unmapped the memory, and reading it would crash the program.
 * msync() on a range that is not mapped fails with ENOMEM, and costs one system call. */
static int still_mapped(const struct map *m)
{
    static uintptr_t page_mask;
    if (!page_mask) {
        long p = sysconf(_SC_PAGESIZE);
        page_mask = (uintptr_t)(p > 0 ? p : 4096) - 1;
    }
    uintptr_t start = (uintptr_t)m->ptr & ~page_mask;
    size_t len = (size_t)((uintptr_t)m->ptr + m->length - start);
    return msync((void *)start, len, MS_ASYNC) == 0 || errno != ENOMEM;
}

/* Commits the persistent maps: all of them, or only those that are not coherent. */
static void commit_maps(at_writer *w, bool coherent_too)
{
    if (!atomic_load_explicit(&g_persistent, memory_order_relaxed))
        return;
    pthread_mutex_lock(&g_lock);
    for (size_t i = 0; i < g_nmaps; ++i) {
        if (!g_maps[i].shadow || (g_maps[i].buffer_pages && !coherent_too))
            continue;
        if (!still_mapped(&g_maps[i])) {
            fprintf(stderr, "gltrace: warning: the persistent map of buffer %u went away "
                            "without glUnmapBuffer or glDeleteBuffers; no longer followed\n",
                    g_maps[i].buffer);
            forget(&g_maps[i--]); /* the last entry moved into slot i */
            continue;
        }
        commit_one(w, &g_maps[i]);
    }
    pthread_mutex_unlock(&g_lock);
}

void gtw_mapped_commit(at_writer *w)
{
    commit_maps(w, true);
}

void gtw_prehook_mapped_commit(at_writer *w, ...)
{
    commit_maps(w, true);
}

void gtw_prehook_mapped_sync(at_writer *w, ...)
{
    commit_maps(w, false);
}

/* ---- syncs that tell the program the GL is done ----------------------------------- */
/* apitrace writes the coherent maps' changes there too (gltrace.py: commitAllWrites
 * after glWaitSync, after glClientWaitSync when it returns signaled, after glGetSynciv
 * when it reads GL_SIGNALED), from inside the call: its memcpy calls come between the
 * call's enter and leave, so a dump shows them just before it. These `invoke` functions
 * make the real call and then do the same. */

static void commit_after_sync(void)
{
    at_writer *w = gltrace_writer();
    if (w)
        commit_maps(w, true);
}

unsigned gtw_invoke_client_wait_sync(void (*real)(void), void *sync, unsigned flags,
                                     uint64_t timeout)
{
    unsigned r = ((unsigned (*)(void *, unsigned, uint64_t))real)(sync, flags, timeout);
    if (r == GL_ALREADY_SIGNALED || r == GL_CONDITION_SATISFIED)
        commit_after_sync();
    return r;
}

void gtw_invoke_wait_sync(void (*real)(void), void *sync, unsigned flags, uint64_t timeout)
{
    ((void (*)(void *, unsigned, uint64_t))real)(sync, flags, timeout);
    commit_after_sync();
}

void gtw_invoke_get_synciv(void (*real)(void), void *sync, unsigned pname, int count,
                           int *length, int *values)
{
    ((void (*)(void *, unsigned, int, int *, int *))real)(sync, pname, count, length, values);
    if (pname == GL_SYNC_STATUS && count > 0 && values && values[0] == GL_SIGNALED)
        commit_after_sync();
}
