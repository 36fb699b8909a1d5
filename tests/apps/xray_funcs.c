/* A small program for tests/integration/xray_llvm.sh, built there with
 * clang -fxray-instrument: a few always-instrumented functions (nested calls, a
 * logged argument, a tail call). It starts FDR mode itself, as LLVM 14's
 * runtime writes an FDR log only when finalized and flushed (the log goes to
 * XRAY_OPTIONS=xray_logfile_base=...). Its log and its binary's instrumentation
 * map check our function ids and names against llvm-xray's. */
#include <stdio.h>
#include <stdlib.h>

#include "xray_runtime.h"

#define XI __attribute__((xray_always_instrument, noinline))

static volatile unsigned sink;

XI static unsigned leaf(unsigned x) { return x * 2654435761u; }

XI static unsigned middle(unsigned x) { return leaf(x) ^ leaf(x + 1); }

XI __attribute__((xray_log_args(1))) static unsigned with_arg(unsigned x) { return middle(x) + 1; }

XI static unsigned tail(unsigned x) { return with_arg(x + 3); }

XI static void run(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        sink += tail(i) + middle(i);
}


__attribute__((xray_never_instrument)) int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 20;
    if (__xray_log_select_mode("xray-fdr") != 0 ||
        __xray_log_init_mode("xray-fdr", "func_duration_threshold_us=0") != 2 ||
        __xray_patch() != 1) {
        fprintf(stderr, "xray_funcs: cannot start XRay FDR mode\n");
        return 1;
    }
    run(n);
    __xray_log_finalize();
    __xray_log_flushLog();
    printf("%u\n", sink);
    return 0;
}
