/* libFuzzer target: any bytes as a trace, every call through glretrace's generated GL
 * replayer (the check that the call fits its function, argument conversion, name and
 * location maps, the argument checks, the fake memcpy), with no GL context: libepoxy's dispatch pointers of every replayed
 * function are set to a stub that does nothing and returns 0, so what is tested is
 * the decoding up to the GL call. Nothing may crash, leak or read past the trace's
 * values, whatever the bytes. */
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "at_reader.h"
#include "gl/retrace_gl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The replayers' warnings: formatted (retrace_warn.c), not printed. */
static void drop_warning(const gt_call *call, const char *msg)
{
    (void)call;
    (void)msg;
}

/* Every GL function, whatever its parameters: x86-64 and AArch64 callers clean up
 * their own arguments, and 0 is a harmless result of any type. */
static uintptr_t stub_gl(void)
{
    return 0;
}

/* libepoxy's dispatch pointer of each function in the replayers' table (epoxy_glFoo,
 * a public variable) now points to the stub; the dispatch never resolves anything. */
static void stub_dispatch(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    char name[160];
    for (unsigned i = 0; i < retrace_gl_count; ++i) {
        snprintf(name, sizeof name, "epoxy_%s", retrace_gl_table[i].name);
        void **slot = dlsym(RTLD_DEFAULT, name);
        if (slot)
            *slot = (void *)stub_gl;
    }
    /* what the runtime calls itself (size helpers, offset checks) */
    static const char *const extra[] = {"epoxy_glGetIntegerv", "epoxy_glGetError"};
    for (size_t i = 0; i < sizeof extra / sizeof *extra; ++i) {
        void **slot = dlsym(RTLD_DEFAULT, extra[i]);
        if (slot)
            *slot = (void *)stub_gl;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    stub_dispatch();
    retrace_set_warn(drop_warning);
    gt_error err;
    gt_error_clear(&err);
    at_input *in = at_input_open_mem(data, size, "fuzz.trace", &err);
    if (!in)
        return 0;
    at_reader_options opt = {.skip_blob_data = false};
    at_reader *r = at_reader_open_input(in, &opt, &err);
    if (!r)
        return 0;
    retrace_map_context(0, 0);
    gt_call *c;
    while ((c = at_reader_next(r))) {
        /* as the replay's main loop: only calls that fit their function reach it */
        const retrace_entry *e = c->sig ? retrace_gl_entry(c->sig->name) : NULL;
        if (e && (!e->shape || (retrace_sig_fits(c, e->shape, true) &&
                                retrace_call_fits(c, e->shape, true))))
            e->fn(c);
        at_reader_release(r, c);
    }
    at_reader_close(r);
    return 0;
}
