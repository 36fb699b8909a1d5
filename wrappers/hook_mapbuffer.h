/* Mapped buffers (hook_mapbuffer.c): the bytes a program writes through
 * glMapBuffer*, glMapBufferRange* and glMapNamedBuffer* pointers reach the trace as
 * fake `memcpy(dest, src, n)` calls, apitrace's way, so glretrace copies them into
 * its own mapping of the buffer:
 *   - dest is the pointer the map call returned (recorded as its return value) plus
 *     the offset inside the mapped range, src a blob of the n bytes now there;
 *   - written before glUnmapBuffer* (the whole mapped range; maps with
 *     GL_MAP_WRITE_BIT and without GL_MAP_FLUSH_EXPLICIT_BIT / GL_MAP_PERSISTENT_BIT,
 *     or glMapBuffer's access other than GL_READ_ONLY) and before
 *     glFlushMappedBufferRange* (the flushed range);
 *   - persistent write maps (GL_MAP_PERSISTENT_BIT, coherent or not) keep a shadow
 *     copy of the mapped range: before draws, dispatches, pixel transfers, copies,
 *     fences, waits, glFlush/glFinish, swaps and unmap, the ranges that differ from
 *     the shadow are written and the shadow brought up to date.
 *
 * Referenced from specs/annotations.txt (`hook` after the map call with its result,
 * `prehook` before the other calls). Parameters use plain C types: this header is
 * included by every generated wrapper file, GL's, GLX's and EGL's alike. */
#ifndef HOOK_MAPBUFFER_H
#define HOOK_MAPBUFFER_H

#include <stddef.h>
#include <stdint.h>

#include "at_writer.h"

/* After the map calls. */
void gtw_hook_map_buffer(at_writer *w, unsigned target, unsigned access, void *ret);
void gtw_hook_map_buffer_range(at_writer *w, unsigned target, intptr_t offset, intptr_t length,
                               unsigned access, void *ret);
void gtw_hook_map_named_buffer(at_writer *w, unsigned buffer, unsigned access, void *ret);
void gtw_hook_map_named_buffer_ext(at_writer *w, unsigned buffer, unsigned access, void *ret);
void gtw_hook_map_named_buffer_range(at_writer *w, unsigned buffer, intptr_t offset,
                                     intptr_t length, unsigned access, void *ret);

/* Before the unmap and flush calls: the fake memcpy calls. */
void gtw_prehook_unmap_buffer(at_writer *w, unsigned target);
void gtw_prehook_unmap_named_buffer(at_writer *w, unsigned buffer);
void gtw_prehook_flush_mapped_buffer_range(at_writer *w, unsigned target, intptr_t offset,
                                           intptr_t length);
void gtw_prehook_flush_mapped_named_buffer_range(at_writer *w, unsigned buffer,
                                                 intptr_t offset, intptr_t length);

/* Before calls that end a buffer's mapping implicitly: the map is forgotten. */
void gtw_prehook_delete_buffers(at_writer *w, int n, const unsigned *buffers);
void gtw_prehook_buffer_data(at_writer *w, unsigned target, ...);
void gtw_prehook_named_buffer_data(at_writer *w, unsigned buffer, ...);

/* Before any call through which the GL may read a persistently mapped buffer (draws,
 * dispatches, pixel transfers), whatever its arguments: the changes made through
 * persistent maps since the last time. One load of an atomic counter when there is no
 * persistent map. Other prehooks of such calls may call gtw_mapped_commit(w) themselves. */
void gtw_prehook_mapped_commit(at_writer *w, ...);
void gtw_mapped_commit(at_writer *w);
/* Before syncs, barriers and swaps, where a program's writes through a persistent map
 * that is not coherent become the GL's: those maps' changes. Coherent maps wait for the
 * next call that reads them, where apitrace writes them too. */
void gtw_prehook_mapped_sync(at_writer *w, ...);
/* glClientWaitSync (signaled), glWaitSync and glGetSynciv (GL_SIGNALED): the real call,
 * then the coherent maps' changes, inside the recorded call as apitrace writes them
 * (`invoke` annotations; the first argument is the real function). */
unsigned gtw_invoke_client_wait_sync(void (*real)(void), void *sync, unsigned flags,
                                     uint64_t timeout);
void gtw_invoke_wait_sync(void (*real)(void), void *sync, unsigned flags, uint64_t timeout);
void gtw_invoke_get_synciv(void (*real)(void), void *sync, unsigned pname, int count,
                           int *length, int *values);

/* GL_VMWX_map_buffer_debug (hook_mapbuffer_vmwx.c): `adjust` annotations take
 * GL_MAP_NOTIFY_EXPLICIT_BIT_VMWX out of glBufferStorage's flags and the maps' access. */
unsigned gtw_adjust_storage_flags(unsigned flags);
unsigned gtw_adjust_map_access(unsigned access);

/* Shared by hook_mapbuffer.c and hook_mapbuffer_vmwx.c. */
/* Whether this thread's last map range had GL_MAP_NOTIFY_EXPLICIT_BIT_VMWX (then cleared). */
_Bool gtw_map_notify_explicit(void);
/* Whether [p, p + n) lies inside one live map. */
int gtw_mapped_range_live(const void *p, size_t n);
/* The fake call memcpy(dest, blob of the n bytes at src, n). */
void gtw_fake_memcpy(at_writer *w, const void *dest, const void *src, size_t n);
/* glNotifyMappedBufferRangeVMWX (`tool` annotation): not exported, since no registry
 * holds it (the library exports exactly the registries' commands: wrapper_count
 * checks it); programs find it through GetProcAddress. */
void gtw_notify_mapped_buffer_range_vmwx(const void *start, intptr_t length);

#endif
