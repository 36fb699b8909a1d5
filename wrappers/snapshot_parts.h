/* The parts of the state snapshot (snapshot.h), in the order snapshot.c writes them:
 * the window system first (contexts must exist), objects next (a vertex array needs
 * its buffers, a framebuffer its attachments), the context state last (it binds what
 * the program had bound, whatever the parts bound to write). */
#ifndef SNAPSHOT_PARTS_H
#define SNAPSHOT_PARTS_H

#include "snapshot.h"

extern const snap_part snap_part_ws;            /* snap_ws.c */
extern const snap_part snap_part_buffers;       /* snap_buffers.c */
extern const snap_part snap_part_textures;      /* snap_textures.c */
extern const snap_part snap_part_renderbuffers; /* snap_renderbuffers.c */
extern const snap_part snap_part_samplers;      /* snap_samplers.c */
extern const snap_part snap_part_programs;      /* snap_programs.c */
extern const snap_part snap_part_vertex_arrays; /* snap_vertex_arrays.c */
extern const snap_part snap_part_framebuffers;  /* snap_framebuffers.c */
extern const snap_part snap_part_queries;       /* snap_queries.c: queries, syncs, xfb */
extern const snap_part snap_part_default_fb;    /* snap_default_fb.c: the window's colour */
extern const snap_part snap_part_state;         /* snap_state.c */

#endif
