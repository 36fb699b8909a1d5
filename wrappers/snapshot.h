/* The state snapshot at a frame range's start (snapshot.c drives it): ordinary calls,
 * marked fake, that re-create what the range's calls need and the program made before
 * it was written: the window-system setup, every live object with its contents read
 * back from the driver, each context's state.
 *
 * It runs on the frame thread (capture_frames.c), right after the swap that ended the
 * frame before the range, with that thread's context current. Each part of the
 * snapshot (snap_part, table in snapshot.c) first collects (asks the driver which
 * objects exist and their parameters, never their contents) and says what it cannot
 * read back; the range's trace is then opened, with that list in its
 * gltrace.snapshot.unreadable property; then each part writes, in table order.
 *
 * Reading: the driver through the real functions, SNAP_REAL(glGetIntegerv)(...). A part
 * that changes the driver's state to read (a binding, the pack alignment) puts it back:
 * the program must see no difference.
 * Writing: by calling our own wrappers (protos.gen.h) in fake mode (gltrace_runtime.h):
 * glGenBuffers(1, &name) writes the call, marked fake, with the name given, and the
 * driver is not called; snap_ret(v) first gives the result a wrapper answers
 * (glCreateShader, glMapBufferRange, glXCreateContextAttribsARB). Hooks run as for
 * the program's calls, so the recorder's own bookkeeping (mapped buffers, bound pixel
 * buffers) follows the snapshot. Parts write in any binding order they like: the
 * context state (the last part) binds what the program had bound. */
#ifndef SNAPSHOT_H
#define SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#include "at_writer.h"
#include "gltrace_runtime.h"

typedef struct snap snap;

/* One part of the snapshot. collect returns what write needs (NULL: nothing to write);
 * free releases it (after write, or when the trace could not be opened). */
typedef struct snap_part {
    const char *name;
    void *(*collect)(snap *s);
    void (*write)(snap *s, void *data);
    void (*free)(void *data);
} snap_part;

/* The context the snapshot reads through (the frame thread's), its API. */
enum { SNAP_API_GL = 0, SNAP_API_GLES = 1 };
int snap_api(const snap *s);
/* The context's version as major * 10 + minor (33, 45, 20, 32). */
int snap_version(const snap *s);
/* Whether the context has the GL extension named (GL_ARB_direct_state_access). */
int snap_has_extension(const snap *s, const char *name);

/* Whether the context is GL of version >= gl or GLES of version >= es (0: no version
 * of that API), or has the extension ext (NULL: none). */
int snap_has(const snap *s, int gl, int es, const char *ext);

/* The real glGetIntegerv of one value (0 for pname 0). */
int snap_geti(unsigned pname);

/* Says on stderr, and in the trace's gltrace.snapshot.unreadable property, what the
 * snapshot cannot read back or re-create ("renderbuffer 5: multisample stencil,
 * contents not read"). Only while collecting (the property is written when the trace
 * opens). */
void snap_unreadable(snap *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The real function name (its driver's), or a function that does nothing and returns
 * 0 when the driver has none (check with snap_real_has where that matters). */
void *snap_real(const char *name);
int snap_real_has(const char *name);
#define SNAP_REAL(fn) ((__typeof__(&fn))snap_real(#fn))

/* The result the next wrapper called answers (fake mode). */
static inline void snap_ret(uint64_t v) { gltrace_t_fake_ret = v; }

/* Calls written after this are written as made on thread number thread (the traced
 * program's, gltrace_thread_no); returns the previous one for snap_as_thread_end. */
uint32_t snap_as_thread(uint32_t thread);
void snap_as_thread_end(uint32_t previous);

#endif
