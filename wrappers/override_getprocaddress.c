/* glXGetProcAddress, glXGetProcAddressARB and eglGetProcAddress: hand-written
 * wrappers (specs/annotations.txt `override`). Each is recorded like apitrace does
 * (one argument, the name as a string; the return value as an opaque pointer: the
 * pointer the program receives) and returns our wrapper for the name, so calls made
 * through the pointer are traced. When the real function returns NULL we return NULL
 * too (the program must see a missing extension as missing), except for the
 * functions we provide ourselves, as apitrace does (annotations `provide`), and
 * apitrace's own extension functions (`tool` annotations), never asked of the driver.
 * A name we have no wrapper for gets the real pointer and a loud one-time warning: its
 * calls will be a hole in the trace.
 *
 * Signatures: the generator (specs/emit_c.py) numbers every command, overridden ones
 * included, and emits their gt_func_sig as the non-static gtfn_NAME (argument names
 * from the registries: procName for GLX, procname for EGL); we write with those. */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gltrace_runtime.h"
#include "runtime_private.h"
#include "wrappers.gen.h" /* the signatures gtfn_NAME */

typedef void (*proc_fn)(void);
typedef proc_fn (*getproc_fn)(const char *);

GLTRACE_EXPORT proc_fn glXGetProcAddress(const unsigned char *procName);
GLTRACE_EXPORT proc_fn glXGetProcAddressARB(const unsigned char *procName);
GLTRACE_EXPORT proc_fn eglGetProcAddress(const char *procname);

/* Our own entry point for a name: the generated table, then the overrides here
 * (whether or not the generator lists them in its table). */
static proc_fn our_wrapper(const char *name)
{
    void *p = gltrace_wrapper(name);
    if (p)
        return (proc_fn)p;
    if (!strcmp(name, "glXGetProcAddress"))
        return (proc_fn)glXGetProcAddress;
    if (!strcmp(name, "glXGetProcAddressARB"))
        return (proc_fn)glXGetProcAddressARB;
    if (!strcmp(name, "eglGetProcAddress"))
        return (proc_fn)eglGetProcAddress;
    return NULL;
}

static proc_fn get_proc(const gt_func_sig *sig, _Atomic(getproc_fn) *real_slot,
                        const char *name)
{
    getproc_fn real = atomic_load_explicit(real_slot, memory_order_acquire);
    if (!real) {
        real = (getproc_fn)gltrace_real(sig->name);
        atomic_store_explicit(real_slot, real, memory_order_release);
    }
    at_writer *w = gltrace_writer();
    uint32_t no = 0;
    if (w) {
        gltrace_begin_enter(w, sig, 0);
        at_writer_begin_arg(w, 0);
        if (name)
            at_writer_cstring(w, name);
        else
            at_writer_null(w);
        no = gltrace_end_enter(w);
    }
    proc_fn tool = name ? gltrace_tool(name) : NULL;
    proc_fn result = tool ? tool : real ? real(name) : NULL;
    if (!result && name && gltrace_provided(name))
        result = our_wrapper(name); /* recorded, never passed to the driver */
    if (result && name && !tool) {
        proc_fn ours = our_wrapper(name);
        if (ours) {
            result = ours;
        } else if (gltrace_first_time("wrapper", name)) {
            fprintf(stderr, "gltrace: no wrapper for %s: its calls will be missing from the trace\n",
                    name);
        }
    }
    if (w) {
        gltrace_begin_leave(w, no);
        at_writer_begin_return(w);
        at_writer_pointer(w, (uint64_t)(uintptr_t)result);
        gltrace_end_leave(w);
    }
    return result;
}

proc_fn glXGetProcAddress(const unsigned char *procName)
{
    static _Atomic(getproc_fn) real;
    return get_proc(&gtfn_glXGetProcAddress, &real, (const char *)procName);
}

proc_fn glXGetProcAddressARB(const unsigned char *procName)
{
    static _Atomic(getproc_fn) real;
    return get_proc(&gtfn_glXGetProcAddressARB, &real, (const char *)procName);
}

proc_fn eglGetProcAddress(const char *procname)
{
    static _Atomic(getproc_fn) real;
    return get_proc(&gtfn_eglGetProcAddress, &real, procname);
}
