/* glretrace's internal contract between the generated per-function replayers
 * (build/gen/retrace/retrace_gl_N.gen.c, from specs/gen_retrace.py) and the
 * hand-written replayer core in retrace/: window system, main loop, options, snapshots. */
#ifndef RETRACE_H
#define RETRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "gt_model.h"

/* Replays one call. Generated for every GL function with side effects; GLX/EGL
 * calls are hand-written (retrace/ws_*.c) and found through the same table. */
typedef void (*retrace_fn)(const gt_call *call);

/* The replayer of a function name, or NULL (unknown: warned once, skipped). */
retrace_fn retrace_lookup(const char *name);

/* Object names: traced name -> name in the replay, per namespace ("buffer",
 * "texture", "program", ... as gl.xml's class= attribute says). Unknown names map
 * to themselves (0 stays 0). */
uint64_t retrace_map_get(const char *ns, uint64_t traced);
void retrace_map_set(const char *ns, uint64_t traced, uint64_t replayed);
void retrace_map_del(const char *ns, uint64_t traced);

/* Pointers the trace recorded (mapped buffers, contexts, ...): traced address ->
 * address in the replay, for memcpy fakes into mapped buffers. */
void *retrace_ptr_get(uint64_t traced);
void retrace_ptr_set(uint64_t traced, void *replayed, uint64_t size);

/* Value conversions from the call model. */
int64_t retrace_sint(const gt_value *v);
uint64_t retrace_uint(const gt_value *v);
double retrace_float(const gt_value *v);
/* Blob data, string bytes, array items packed as TYPE, or NULL/offsets for pointers:
 * memory valid while the call is. elem_size is sizeof(TYPE); kind says how to
 * convert each item: 'i' signed, 'u' unsigned, 'f' float, 'd' double, 'p' pointer. */
const void *retrace_pointer(const gt_value *v, int kind, unsigned elem_size);

/* Reports a problem with a call, like apitrace: "N: glFoo: warning: ..." on stderr. */
void retrace_warning(const gt_call *call, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
