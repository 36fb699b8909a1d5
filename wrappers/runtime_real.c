/* The real GL, GLX and EGL functions behind our wrappers (gltrace_runtime.h:
 * gltrace_real): looked up in the libraries the program opened through our dlopen
 * (override_dlopen.c hands them over), in those already loaded, or loaded here.
 * Slow, and done once per function: the callers cache what it finds. */
#define _GNU_SOURCE
#include "gltrace_runtime.h"
#include "gt_roles.h"
#include "runtime_private.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

enum { LIB_GL, LIB_GLX, LIB_OPENGL, LIB_EGL, LIB_GLESV2, LIB_GLESV1, NLIBS };

static const struct {
    const char *stem;   /* what a requested name starts with: "libGL.so" */
    const char *soname; /* what we load ourselves */
} g_libs[NLIBS] = {
    [LIB_GL] = {"libGL.so", "libGL.so.1"},
    [LIB_GLX] = {"libGLX.so", "libGLX.so.0"},
    [LIB_OPENGL] = {"libOpenGL.so", "libOpenGL.so.0"},
    [LIB_EGL] = {"libEGL.so", "libEGL.so.1"},
    [LIB_GLESV2] = {"libGLESv2.so", "libGLESv2.so.2"},
    [LIB_GLESV1] = {"libGLESv1_CM.so", "libGLESv1_CM.so.1"},
};

#define LIB_FAILED ((void *)1) /* we tried to load it and could not */

/* Real handles: the ones the program opened through our dlopen, else ours. */
static void *_Atomic g_handles[NLIBS];

int gltrace_gl_library(const char *file)
{
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    for (int i = 0; i < NLIBS; ++i) {
        size_t n = strlen(g_libs[i].stem);
        if (!strncmp(base, g_libs[i].stem, n) && (base[n] == '\0' || base[n] == '.'))
            return i;
    }
    return -1;
}

static int store_handle(int lib, void *h)
{
    void *expected = NULL;
    if (atomic_compare_exchange_strong(&g_handles[lib], &expected, h))
        return 1;
    if (expected == LIB_FAILED && atomic_compare_exchange_strong(&g_handles[lib], &expected, h))
        return 1;
    return 0;
}

void gltrace_note_library(int lib, void *real_handle)
{
    if (lib < 0 || lib >= NLIBS || !real_handle)
        return;
    if (!store_handle(lib, real_handle))
        dlclose(real_handle); /* we hold one already; keep the counts balanced */
}

/* The real library's handle: one we hold, else one already in the process
 * (RTLD_NOLOAD), else, when load is set, loaded now. NULL when none. */
static void *lib_handle(int lib, int load)
{
    void *h = atomic_load(&g_handles[lib]);
    if (h == LIB_FAILED)
        return NULL;
    if (h)
        return h;
    h = gltrace_real_dlopen(g_libs[lib].soname, RTLD_LAZY | RTLD_LOCAL | (load ? 0 : RTLD_NOLOAD));
    if (!h) {
        if (load) {
            void *expected = NULL;
            atomic_compare_exchange_strong(&g_handles[lib], &expected, LIB_FAILED);
        }
        return NULL;
    }
    if (!store_handle(lib, h)) {
        dlclose(h);
        h = atomic_load(&g_handles[lib]);
        if (h == LIB_FAILED)
            h = NULL;
    }
    return h;
}

/* Whether p lies inside libgltrace.so itself: returning one of our own functions as
 * the "real" one would make its wrapper call itself forever. */
static int own_address(const void *p)
{
    static const void *_Atomic self_base;
    const void *base = atomic_load(&self_base);
    Dl_info info;
    if (!base) {
        if (!dladdr((const void *)&own_address, &info) || !info.dli_fbase)
            return 0;
        base = info.dli_fbase;
        atomic_store(&self_base, base);
    }
    return dladdr(p, &info) && info.dli_fbase == base;
}

static void *sym_in(int lib, const char *name, int load)
{
    void *h = lib_handle(lib, load);
    if (!h)
        return NULL;
    void *p = dlsym(h, name);
    if (p && own_address(p))
        return NULL;
    return p;
}

typedef void (*proc_fn)(void);
typedef proc_fn (*getproc_fn)(const char *);

/* Through the real glXGetProcAddressARB (libGL or libGLX) or eglGetProcAddress, when
 * their library is loaded (or load is set). */
static void *via_glx(const char *name, int load)
{
    void *gpa = sym_in(LIB_GL, "glXGetProcAddressARB", load);
    if (!gpa)
        gpa = sym_in(LIB_GLX, "glXGetProcAddressARB", load);
    if (!gpa)
        return NULL;
    void *p = (void *)((getproc_fn)gpa)(name);
    return p && !own_address(p) ? p : NULL;
}

static void *via_egl(const char *name, int load)
{
    void *gpa = sym_in(LIB_EGL, "eglGetProcAddress", load);
    if (!gpa)
        return NULL;
    void *p = (void *)((getproc_fn)gpa)(name);
    return p && !own_address(p) ? p : NULL;
}

/* Lookup order:
 *   1. the exported symbol in a candidate library that is already loaded (linked by
 *      the program, or opened through our dlopen), so an EGL/GLES program does not
 *      get libGL and Xlib loaded into it;
 *   2. GetProcAddress of the window-system libraries already loaded (extensions are
 *      only reachable there, with glvnd in particular);
 *   3. the candidates loaded now, in the order egl*: libEGL; glX*: libGL, libGLX;
 *      gl*: libGL, libOpenGL, libGLESv2, libGLESv1_CM; then their GetProcAddress. */
void *gltrace_real(const char *name)
{
    if (!name)
        return NULL;
    int order[4], n = 0;
    uint32_t family = gt_roles_lookup(name).bits;
    int is_egl = (family & GT_ROLE_EGL) != 0, is_glx = (family & GT_ROLE_GLX) != 0;
    if (is_egl) {
        order[n++] = LIB_EGL;
    } else if (is_glx) {
        order[n++] = LIB_GL;
        order[n++] = LIB_GLX;
    } else {
        order[n++] = LIB_GL;
        order[n++] = LIB_OPENGL;
        order[n++] = LIB_GLESV2;
        order[n++] = LIB_GLESV1;
    }
    void *p = NULL;
    for (int load = 0; load <= 1 && !p; ++load) {
        for (int i = 0; i < n && !p; ++i)
            p = sym_in(order[i], name, load);
        if (!p && !is_egl)
            p = via_glx(name, load);
        if (!p && !is_glx)
            p = via_egl(name, load);
    }
    if (!p && gltrace_first_time("real", name))
        fprintf(stderr, "gltrace: %s not found in the GL, GLX or EGL libraries; "
                        "calls to it do nothing and return zero\n", name);
    return p;
}

int gltrace_real_geti(unsigned pname)
{
    typedef void (*get_integerv_fn)(unsigned, int *);
    static get_integerv_fn get; /* one address for every context: cached */
    if (!get)
        get = (get_integerv_fn)gltrace_real("glGetIntegerv");
    int v = 0;
    if (get)
        get(pname, &v);
    return v;
}
