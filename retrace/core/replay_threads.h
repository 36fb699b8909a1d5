/* The traced threads of a replay: one table, one entry per thread index the trace
 * uses, made when the main loop first meets it. Each part of the replayer keeps its
 * per-thread state in its own fields here, so the thread ids are tracked once: the
 * window system what the thread has current (ws/ws_context.c), the timeline its open
 * debug groups (profile/timeline_replay.c). Entries never move while the replay runs. */
#ifndef RETRACE_REPLAY_THREADS_H
#define RETRACE_REPLAY_THREADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ws_context;
struct ws_drawable;

typedef struct replay_thread {
    uint32_t id; /* the trace's thread index */
    /* the window system's: the context and drawables current on this thread */
    struct ws_context *ctx;
    struct ws_drawable *draw;
    struct ws_drawable *read; /* NULL: draw's */
    /* the timeline's: its track named, debug groups open on it */
    bool named;
    uint32_t depth;
} replay_thread;

/* The entry of traced thread ID, made zeroed when new; NULL when out of memory. */
replay_thread *replay_thread_get(uint32_t id);
size_t replay_thread_count(void);
replay_thread *replay_thread_at(size_t i);
/* Frees the table (at the end of a replay). */
void replay_threads_free(void);

#endif
