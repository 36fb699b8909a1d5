/* The one table of traced threads (replay_threads.h). Traces have a handful of threads,
 * so a linear search is enough; entries are allocated one by one so that pointers to
 * them stay valid as the table grows. */
#include <stdlib.h>

#include "gt_grow.h"
#include "replay_threads.h"

static struct {
    replay_thread **v;
    size_t n, cap;
    size_t last; /* the one found last */
} threads;

replay_thread *replay_thread_get(uint32_t id)
{
    if (threads.n && threads.v[threads.last]->id == id)
        return threads.v[threads.last]; /* a thread's calls mostly come in runs */
    for (size_t i = 0; i < threads.n; ++i)
        if (threads.v[i]->id == id) {
            threads.last = i;
            return threads.v[i];
        }
    if (GT_GROW(threads.v, threads.cap, threads.n + 1, 8) != 0)
        return NULL;
    replay_thread *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->id = id;
    threads.v[threads.n++] = t;
    return t;
}

size_t replay_thread_count(void) { return threads.n; }

replay_thread *replay_thread_at(size_t i) { return i < threads.n ? threads.v[i] : NULL; }

void replay_threads_free(void)
{
    for (size_t i = 0; i < threads.n; ++i)
        free(threads.v[i]);
    free(threads.v);
    threads.v = NULL;
    threads.n = threads.cap = threads.last = 0;
}
