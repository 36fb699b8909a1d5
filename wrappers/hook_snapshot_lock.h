/* The program's MakeCurrent calls wait while a frame range's snapshot borrows contexts
 * (hook_snapshot_lock.c; `invoke` in specs/annotations.txt). Plain C types only: the
 * generated wrapper files include this header after their own type preludes. */
#ifndef HOOK_SNAPSHOT_LOCK_H
#define HOOK_SNAPSHOT_LOCK_H

#include "hook_answers.h" /* gth_proc */

int gth_invoke_glx_make_current(gth_proc real, void *dpy, unsigned long drawable, void *ctx);
int gth_invoke_glx_make_context_current(gth_proc real, void *dpy, unsigned long draw,
                                        unsigned long read, void *ctx);
unsigned gth_invoke_egl_make_current(gth_proc real, void *dpy, void *draw, void *read, void *ctx);

/* The snapshot's side (snapshot.c): no program thread makes a context current between
 * hold and let_go. */
void gltrace_contexts_hold(void);
void gltrace_contexts_let_go(void);

#endif
