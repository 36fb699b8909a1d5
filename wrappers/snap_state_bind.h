/* The context's bindings in the state snapshot (snap_state_bind.c): every texture
 * unit's textures and sampler, the buffer targets (indexed ones by start and size),
 * the program and pipeline, framebuffers (and the default one's draw and read
 * buffers), renderbuffer, transform feedback, vertex array, active texture unit. */
#ifndef SNAP_STATE_BIND_H
#define SNAP_STATE_BIND_H

#include <stddef.h>

#include "protos.gen.h"
#include "snap_state.h"

enum { SNAP_BIND_TEXTURE_MAX = 16, SNAP_BIND_BUFFER_MAX = 16 };

typedef struct {
    GLenum target;
    GLuint index, name;
    GLint64 start, size;
} snap_indexed;

typedef struct {
    int core;
    GLint active_texture;
    unsigned nunits, last_unit;
    GLint (*tex)[SNAP_BIND_TEXTURE_MAX]; /* per unit, per snap_bind_texture row */
    GLint *samplers;
    char tex_ok[SNAP_BIND_TEXTURE_MAX], buf_ok[SNAP_BIND_BUFFER_MAX];
    int samplers_ok, fbo, split_fbo, default_buffers, xfb_ok, vao_ok, element_ok, pipeline_ok,
        program_ok;
    GLint buffers[SNAP_BIND_BUFFER_MAX];
    snap_indexed *indexed;
    size_t nindexed, indexed_cap;
    GLint draw_fb, read_fb, renderbuffer, draw_buffer, read_buffer, xfb, vao, element, program,
        pipeline;
} snap_state_bind;

/* Reads the bindings (the driver's active texture unit put back). 0, or -1 out of
 * memory. */
int snap_state_bind_collect(snap *s, snap_state_bind *b, int core);
/* Writes them; the vertex array is bound last but one, the active unit last. */
void snap_state_bind_write(const snap_state_bind *b);
void snap_state_bind_free(snap_state_bind *b);

#endif
