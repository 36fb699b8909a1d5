/* The window-system calls a frame range's snapshot writes again (track_ws.c follows
 * them, snap_ws.c writes them): the calls that made displays, configs, contexts and
 * drawables still alive, in the order they were made, with copies of what their
 * pointers pointed to, and what each thread last made current. */
#ifndef TRACK_WS_H
#define TRACK_WS_H

#include <stddef.h>
#include <stdint.h>

typedef enum ws_kind {
    WS_GLX_CHOOSE_VISUAL,          /* a: screen; blob: attribs; blob2: the XVisualInfo */
    WS_GLX_CHOOSE_FBCONFIG,        /* a: screen; blob: attribs; blob2: the configs */
    WS_GLX_CREATE_CONTEXT,         /* a: share, direct; blob2: the XVisualInfo */
    WS_GLX_CREATE_NEW_CONTEXT,     /* a: config, render_type, share, direct */
    WS_GLX_CREATE_CONTEXT_ATTRIBS, /* a: config, share, direct; blob: attribs */
    WS_GLX_CREATE_WINDOW,          /* a: config, window; blob: attribs */
    WS_GLX_CREATE_PBUFFER,         /* a: config; blob: attribs */
    WS_EGL_GET_DISPLAY,            /* a: native */
    WS_EGL_GET_PLATFORM_DISPLAY,   /* a: platform, native; blob: attribs (EGLAttrib) */
    WS_EGL_INITIALIZE,             /* a: major, minor */
    WS_EGL_CHOOSE_CONFIG,          /* a: config_size; blob: attribs; blob2: the configs */
    WS_EGL_CREATE_CONTEXT,         /* a: config, share; blob: attribs; api */
    WS_EGL_CREATE_WINDOW_SURFACE,  /* a: config, window; blob: attribs */
    WS_EGL_CREATE_PLATFORM_WINDOW_SURFACE, /* a: config, window; blob: attribs (EGLAttrib) */
    WS_EGL_CREATE_PBUFFER_SURFACE, /* a: config; blob: attribs */
} ws_kind;

typedef struct ws_rec {
    ws_kind kind;
    uint32_t thread;   /* the program's thread that made the call */
    unsigned api;      /* EGL contexts: the API bound on that thread then */
    void *dpy;
    uint64_t a[4];
    void *blob, *blob2; /* malloc'd copies; NULL for a NULL pointer */
    size_t blob_len, blob2_len; /* elements (attribs, configs) or bytes (visuals) */
    uint64_t ret;
} ws_rec;

typedef enum ws_mc { WS_MC_GLX, WS_MC_GLX_CONTEXT, WS_MC_EGL } ws_mc;

/* What a thread made current last (ctx may be NULL: it released its context). */
typedef struct ws_current {
    uint32_t thread;
    ws_mc kind;
    void *dpy, *ctx;
    uint64_t draw, read;
} ws_current;

typedef struct ws_setup {
    ws_rec *recs;
    size_t nrecs;
    ws_current *cur;
    size_t ncur;
    struct { uint32_t thread; unsigned api; } *apis; /* eglBindAPI per thread */
    size_t napis;
    ws_current *bound; /* per live context: the MakeCurrent that bound it last */
    size_t nbound;
} ws_setup;

/* A copy of what is followed now (0), or -1 when out of memory. */
int gltrace_ws_setup(ws_setup *out);
void gltrace_ws_setup_free(ws_setup *s);

#endif
