/* The fixed-function state of compatibility contexts in the state snapshot
 * (snap_state_ff.c): lights, materials, texture units' setters and matrices, the
 * modelview and projection matrices, the matrix mode. */
#ifndef SNAP_STATE_FF_H
#define SNAP_STATE_FF_H

#include "protos.gen.h"
#include "snap_state_set.h"

enum { SNAP_FF_UNITS = 32 };

typedef struct {
    int on; /* a compatibility context */
    GLint matrix_mode;
    GLfloat modelview[16], projection[16], texture[SNAP_FF_UNITS][16];
    int nunits, nlights, lights_written;
    unsigned lights_on; /* GL_LIGHTi enabled: bit i */
} snap_state_ff;

/* Reads it (the driver's active unit put back), adding the setters of the light,
 * material, unit and environment sections to set. 0, or -1 out of memory. */
int snap_state_ff_collect(snap *s, snap_state_ff *f, snap_set_list *set, int core);
/* Writes it, after the context's other setters and before the bindings. */
void snap_state_ff_write(const snap_state_ff *f, const snap_set_list *set);

#endif
