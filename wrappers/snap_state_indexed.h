/* Indexed context state in the state snapshot (snap_state_indexed.c): blending and
 * colour masks per draw buffer (GL 4.0, ES 3.2), viewports, scissors and depth ranges
 * per viewport (GL 4.1, GL_ARB_viewport_array), where an index differs from the first;
 * the current values of generic vertex attributes that are not (0, 0, 0, 1); the sample
 * mask's words. */
#ifndef SNAP_STATE_INDEXED_H
#define SNAP_STATE_INDEXED_H

#include <stddef.h>

#include "protos.gen.h"
#include "snap_state.h"

typedef struct {
    GLuint index;
    GLboolean enabled; /* compared from here to the end */
    GLint v[6];        /* src/dst RGB, src/dst alpha, equations RGB, alpha */
    GLboolean mask[4];
} snap_blend;

typedef struct {
    GLuint index;
    GLfloat viewport[4]; /* compared from here to the end */
    GLint scissor[4];
    GLdouble depth[2];
    GLboolean scissor_test;
} snap_viewport;

typedef struct {
    GLuint index;
    GLfloat v[4];
} snap_attrib;

typedef struct {
    snap_blend *blend;
    size_t nblend, blend_cap;
    snap_viewport *viewports;
    size_t nviewports, viewport_cap;
    snap_attrib *attribs;
    size_t nattribs, attrib_cap;
    GLint sample_mask[4]; /* the words of GL_SAMPLE_MASK_VALUE not all ones */
    unsigned nsample_mask;
} snap_state_indexed;

/* 0, or -1 out of memory. */
int snap_state_indexed_collect(snap *s, snap_state_indexed *x, int core);
void snap_state_indexed_write(const snap_state_indexed *x);
void snap_state_indexed_free(snap_state_indexed *x);

#endif
