/* What the state snapshot's vertex arrays part (snap_vertex_arrays.c) shares with its
 * fixed-function arrays (snap_ff_arrays.c). Internal to those files. */
#ifndef SNAP_ARRAYS_H
#define SNAP_ARRAYS_H

#include <stdint.h>

#include "snapshot.h"

/* Writes a gl*Pointer call as the recorder writes it with a buffer bound
 * (hook_client_pointers.c, whose wrappers ask the driver which buffer is bound and
 * call it even in fake mode, so the call is encoded here): kinds, one letter per
 * argument before the pointer, 'u' unsigned, 's' signed, 'e' GLenum, 'b' GLboolean,
 * 'z' a size that may be GL_BGRA. */
void snap_write_pointer_call(const gt_func_sig *sig, const char *kinds, const int64_t *vals,
                             uintptr_t pointer);

/* The conventional (fixed-function) arrays of one vertex array object. */
enum { SNAP_FF_MAX_TEXCOORDS = 8, SNAP_FF_ARRAYS = 7 + SNAP_FF_MAX_TEXCOORDS };

typedef struct snap_ff_array {
    int enabled, size, type, stride, buffer;
    uintptr_t pointer;
} snap_ff_array;

typedef struct snap_ff_arrays {
    int ntex; /* texture coordinate sets */
    snap_ff_array a[SNAP_FF_ARRAYS];
} snap_ff_arrays;

/* The number of texture coordinate sets and the client active texture unit now. */
void snap_ff_context(int *ntex, int *client_active);
/* Reads the bound vertex array's conventional arrays (the client active texture unit
 * changed to read, put back to client_active). */
void snap_ff_read(snap_ff_arrays *out, int ntex, int client_active);
/* Writes them (glBindBuffer(GL_ARRAY_BUFFER) + gl*Pointer, glEnableClientState) for
 * the vertex array bound in the replay; *array_buffer: what the written calls bound. */
void snap_ff_write(const snap_ff_arrays *in, int *array_buffer);

#endif
