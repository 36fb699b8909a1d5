/* Function roles: what gltrace's tools need to know of a function beyond its call flags
 * (gt_callflags.h, apitrace's classification), from specs/roles.txt, the one place a
 * function's special case is written (its header gives each role's meaning). Looked up
 * once per function signature, never per call. */
#ifndef GT_ROLES_H
#define GT_ROLES_H

#include <stdint.h>

#include "gt_model.h"

enum {
    GT_ROLE_GL = 1u << 0,        /* a GL function (not window system) */
    GT_ROLE_WS = 1u << 1,        /* a window-system function: GLX, EGL, WGL, CGL */
    GT_ROLE_CURRENT = 1u << 2,   /* arg: the context made current, arg2: its drawable */
    GT_ROLE_SWAP = 1u << 3,      /* arg: the drawable shown */
    GT_ROLE_BINDFB = 1u << 4,    /* arg: the target, arg2: the framebuffer */
    GT_ROLE_XFBON = 1u << 5,     /* transform feedback begins ... */
    GT_ROLE_XFBOFF = 1u << 6,    /* ... or ends */
    GT_ROLE_BEGIN = 1u << 7,     /* glBegin */
    GT_ROLE_END = 1u << 8,       /* glEnd */
    GT_ROLE_VERTEX = 1u << 9,    /* a vertex inside glBegin/glEnd */
    GT_ROLE_NEWLIST = 1u << 10,
    GT_ROLE_ENDLIST = 1u << 11,
    GT_ROLE_CALLLIST = 1u << 12,
    GT_ROLE_PROGRAM = 1u << 13,  /* arg: the program made current */
    GT_ROLE_GPU = 1u << 14,      /* GPU work besides RENDER and END_FRAME calls */
    GT_ROLE_UNLISTED = 1u << 15, /* not in apitrace's text profile */
    GT_ROLE_GETERROR = 1u << 16, /* glGetError */
    GT_ROLE_DRAW = 1u << 17,     /* a draw to --pdrawcalls (apitrace's list) */
    GT_ROLE_GLX = 1u << 18,      /* with WS: desktop GL's window system (GLX, WGL, CGL) */
    GT_ROLE_EGL = 1u << 19,      /* with WS: EGL */
    GT_ROLE_D3D = 1u << 20,      /* Direct3D (only named: traces of it are not ours) */
    GT_ROLE_WAITS = 1u << 21,    /* waits for the GPU or another context (glFinish*) */
};

typedef struct gt_roles {
    uint32_t bits;   /* GT_ROLE_* */
    int8_t arg, arg2; /* the registry's argument indices the role names, -1 none */
} gt_roles;

/* The roles of a function by name (bits 0 and no arguments when it has none).
 * Thread-safe. */
gt_roles gt_roles_lookup(const char *name);

/* The index of SIG's first argument (in SIG's order) named in NAMES (NULL-terminated),
 * -1 when none is. */
int gt_roles_find_arg(const gt_func_sig *sig, const char *const *names);

/* Argument-name lists (NULL-terminated) from specs/roles.txt's `args` lines. */
extern const char *const gt_roles_draw_args[];          /* GPU work's scalar arguments */
extern const char *const gt_roles_marker_text_args[];   /* a debug marker's text */
extern const char *const gt_roles_marker_length_args[]; /* ... and its length */

#endif
