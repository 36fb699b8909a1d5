/* Small per-process thread numbers (gltrace_runtime.h: gltrace_thread_no), 0 for the
 * first thread that made a GL call; a forked child numbers its threads from 0 again.
 * Hot path (gltrace_runtime.h): one TLS load once the thread has its number. */
#include "gltrace_runtime.h"

#include <pthread.h>
#include <stdatomic.h>

static _Atomic uint32_t g_next_thread;
/* initial-exec: libgltrace.so is preloaded, so its TLS is in the static block and a
 * thread's number is one load (no __tls_get_addr call). Stored plus one; 0: unset. */
__thread uint32_t gltrace_t_thread_no __attribute__((tls_model("initial-exec")));

/* In a forked child: the forking thread (the only one) becomes thread 0. */
static void restart_thread_numbers(void)
{
    atomic_store(&g_next_thread, 1);
    gltrace_t_thread_no = 1;
}

uint32_t gltrace_thread_no_slow(void)
{
    uint32_t n = atomic_fetch_add(&g_next_thread, 1);
    gltrace_t_thread_no = n + 1;
    return n;
}

__attribute__((constructor)) static void threads_init(void)
{
    pthread_atfork(NULL, NULL, restart_thread_numbers);
}
