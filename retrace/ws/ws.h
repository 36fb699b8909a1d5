/* The window system room (retrace/ws): GLX and EGL calls replayed on SDL2 windows and
 * GL contexts, the state a pixel read needs, and snapshots. What the rest of the
 * replayer calls; the room's own files share ws_private.h. The window system never
 * calls up into the main loop by name: the main loop hands it hooks at ws_init. */
#ifndef RETRACE_WS_H
#define RETRACE_WS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/replay_threads.h"
#include "gl/retrace_gl.h"
#include "gt_error.h"
#include "replay.h"

/* ---- GLX/EGL calls on SDL2 windows and contexts (ws_context.c, ws_window.c,
 * ws_glx.c, ws_egl.c) ---- */
/* What the main loop asks the window system to do at its events. */
typedef struct ws_hooks {
    /* around a SwapBuffers-class call: a snapshot before the swap, the frame count after */
    void (*before_swap)(const gt_call *call);
    void (*after_swap)(const gt_call *call);
    /* before an SDL GL context (a void * here) is deleted: --pgpu's queries of that
     * context are read or dropped (profile/timeline_replay.h) */
    void (*context_destroyed)(void *sdl_ctx);
} ws_hooks;
/* Starts SDL's video (offscreen driver with headless); single_buffer asks for
 * single-buffered visuals. 0, or -1 with err set. */
int ws_init(bool headless, bool single_buffer, const ws_hooks *hooks, gt_error *err);
/* After ws_init: windows with `samples` samples (> 1) whatever the trace's visuals ask
 * (--samples), and contexts created without a version made 3.2 core ones (--core). */
void ws_force(int samples, bool core);
/* -w: keeps the windows shown until the user closes one (or SIGINT/SIGTERM); returns
 * at once when headless. */
void ws_wait_closed(void);
void ws_shutdown(void);
/* The replayer of a GLX or EGL function (and of glViewport, which resizes windows), or NULL. */
retrace_fn ws_lookup(const char *name);
/* Makes the traced thread's current context (if any) current on the calling thread:
 * each traced thread keeps its own current context and drawable (in its
 * replay_thread); calls replay one at a time, on one OS thread or several. */
void ws_switch_thread(replay_thread *t);
/* On an OS thread that replayed calls, as it ends: leaves no context current there. */
void ws_thread_exit(void);
/* After the replay's threads ended: the next ws_switch_thread binds again. */
void ws_forget_current(void);
/* Whether a GL context is current for the replayed thread. */
bool ws_has_current(void);
/* The current context's cache of which functions it provides (gl/retrace_gl.h), made at
 * the first question (N: entries of the generated table); NULL when none is current. */
struct gl_avail *ws_current_avail(unsigned n);
/* Size of the current drawable in pixels; 0 when none is current. */
void ws_current_size(int *w, int *h);

/* ---- the state pixel reads need (ws_read_state.c) ---- */
/* What a snapshot or a state dump changes to read pixels and puts back: pack
 * parameters, the pixel pack buffer, the read framebuffer and its read buffer (where
 * the GL has them). */
typedef struct ws_read_state {
    bool has_fbo, has_pbo;
    int pack_align, row_len, skip_px, skip_rows, pbo, read_fbo, draw_fbo, read_buf; /* GLint */
} ws_read_state;
void ws_read_state_save(ws_read_state *s);
/* Tightly packed reads into client memory from FBO (0: the window's back buffer, or
 * its front buffer when FRONT). */
void ws_read_state_set(const ws_read_state *s, int fbo, bool front);
void ws_read_state_restore(const ws_read_state *s);

/* ---- snapshots (snapshot.c) ---- */
typedef struct snapshot_spec {
    const char *prefix;     /* "-": stdout, in format */
    snapshot_format format;
    bool alpha;             /* PNG files: RGBA */
    bool front;             /* read the window's front buffer (single-buffered visuals) */
    bool mrt;               /* PNG files: every colour buffer drawn to, depth, stencil */
    uint32_t max;           /* PNG files: scaled down to at most max x max (0: as read) */
} snapshot_spec;
/* Reads the current drawable (the window's back buffer, or the bound draw framebuffer
 * when from_draw_fbo) and writes snapshot NUMBER as SPEC says. 0, or -1 with err set. */
int snapshot_write(const snapshot_spec *spec, uint32_t number, bool from_draw_fbo, gt_error *err);

#endif
