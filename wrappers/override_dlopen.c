/* dlopen interposition: programs that load GL themselves (SDL2, GLFW, libepoxy, games
 * with their own loader) dlopen libGL/libGLX/libOpenGL/libEGL/libGLES* and dlsym the
 * entry points from that handle, which would bypass our exported wrappers. For those
 * names we load the real library exactly as asked (so the call fails, or honours
 * RTLD_NOLOAD, exactly when it would have without us), hand its handle to the runtime
 * (gltrace_real looks up there first), and return a handle to libgltrace.so itself:
 * dlsym on it finds our wrappers. Every other dlopen goes straight to the real one.
 *
 * glibc 2.34+ (Debian 12: 2.36) has dlopen in libc.so.6 as dlopen@@GLIBC_2.34 plus
 * the compatibility dlopen@GLIBC_2.2.5 that programs linked against libdl.so.2 use;
 * libdl.so.2 is an empty stub. Our unversioned definition, preloaded, satisfies both
 * versioned references (the loader accepts an unversioned definition for a versioned
 * reference), and dlsym(RTLD_NEXT, "dlopen") gives the default version from libc.
 *
 * Known limit: glibc searches a relative name with the caller's DT_RPATH/DT_RUNPATH
 * ($ORIGIN...); calls forwarded from here search with libgltrace.so's (none), so a
 * program that dlopens a bundled library by bare name relying on its own RUNPATH
 * does not find it under tracing (apitrace has the same limit). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>

#include "gltrace_runtime.h"
#include "runtime_private.h"

typedef void *(*dlopen_fn)(const char *, int);

void *gltrace_real_dlopen(const char *file, int flags)
{
    static _Atomic(dlopen_fn) real;
    dlopen_fn f = atomic_load_explicit(&real, memory_order_acquire);
    if (!f) {
        f = (dlopen_fn)dlsym(RTLD_NEXT, "dlopen");
        if (!f) {
            fprintf(stderr, "gltrace: cannot find the real dlopen: %s\n", dlerror());
            return NULL;
        }
        atomic_store_explicit(&real, f, memory_order_release);
    }
    return f(file, flags);
}

static void anchor(void) {}

/* A new reference to libgltrace.so, with the program's RTLD_GLOBAL if it asked. */
static void *self_handle(int flags)
{
    static const char *_Atomic self_path;
    const char *path = atomic_load(&self_path);
    if (!path) {
        Dl_info info;
        if (!dladdr((const void *)&anchor, &info) || !info.dli_fname)
            return NULL;
        path = info.dli_fname; /* owned by the loader, lives as long as we do */
        atomic_store(&self_path, path);
    }
    return gltrace_real_dlopen(path, RTLD_LAZY | RTLD_NOLOAD | (flags & RTLD_GLOBAL));
}

GLTRACE_EXPORT void *dlopen(const char *file, int flags)
{
    int lib = file ? gltrace_gl_library(file) : -1;
    if (lib < 0)
        return gltrace_real_dlopen(file, flags);
    void *real = gltrace_real_dlopen(file, flags);
    if (!real)
        return NULL; /* as without us; dlerror() says why */
    void *self = self_handle(flags);
    if (!self) {
        if (gltrace_first_time("dlopen", file))
            fprintf(stderr, "gltrace: cannot redirect dlopen(\"%s\") to the tracer: "
                            "calls made through it will be missing from the trace\n", file);
        return real;
    }
    gltrace_note_library(lib, real);
    return self;
}
