/* Timing for glretrace --pcpu/--pgpu: the CPU clock, and GPU timer queries from a
 * pool per GL context, read back frames later.
 *
 * CPU: CLOCK_MONOTONIC in nanoseconds.
 *
 * GPU: around a call doing GPU work, timing_gpu_begin/timing_gpu_end put two
 * GL_TIMESTAMP queries (glQueryCounter; EXT_disjoint_timer_query on GLES) into the
 * current context's command stream, or, where timestamps are missing, one
 * GL_TIME_ELAPSED query (EXT_timer_query). Queries are grouped in batches, one per
 * frame and context; timing_gpu_poll closes the current context's batch and reads
 * the batches whose last query is available (GL_QUERY_RESULT_AVAILABLE), without
 * waiting, except when more than TIMING_MAX_BATCHES are pending (then the oldest is
 * waited for: memory stays bounded when the GPU lags far behind). Each result is
 * handed to the callback with the tag given at timing_gpu_end.
 *
 * Clock mapping: each batch is anchored when it opens by reading GL_TIMESTAMP
 * between two reads of the CPU clock (offset = midpoint - GL time), so GPU times
 * come out on the CPU clock; the error is half the anchor's read window plus the
 * driver's timestamp resolution plus the drift over one frame (Mesa: GL time is
 * CLOCK_MONOTONIC itself, the error is a few microseconds).
 *
 * Queries belong to the context that issued them: batches live per context (keyed by
 * the current SDL context) and only the current context's are read. A context's
 * pending results are read when it is current at a later poll (timeline_replay.c drains
 * a context before each MakeCurrent, so a switch leaves nothing behind); timing_gpu_finish
 * reads what the current context has left (waiting); a destroyed context's pending
 * queries are reported lost. */
#ifndef RETRACE_TIMING_H
#define RETRACE_TIMING_H

#include <stdbool.h>
#include <stdint.h>

#define TIMING_MAX_BATCHES 8

int64_t timing_now_ns(void);
/* When the current context has finished what was issued (glFinish, then the clock):
 * --pframe-times' "rendering_finished". */
int64_t timing_finished_ns(void);

typedef struct timing_gpu_result {
    uint64_t tag;
    bool valid;      /* false: lost (context destroyed, disjoint operation) */
    bool has_start;  /* false: GL_TIME_ELAPSED only, start unknown */
    int64_t start_ns; /* on the CPU clock (timing_now_ns) */
    int64_t dur_ns;
} timing_gpu_result;

typedef void (*timing_gpu_cb)(void *ctx, const timing_gpu_result *r);

/* Sets where results go. 0 when out of memory. */
int timing_gpu_init(timing_gpu_cb cb, void *cb_ctx);
/* Starts timing GPU work in the current context: returns a handle >= 0, or -1 when
 * there is no current context or it has no timer queries (warned once per context). */
int timing_gpu_begin(void);
/* Ends what timing_gpu_begin started; tag comes back in the result. */
void timing_gpu_end(int handle, uint64_t tag);
/* Closes the current context's batch and reads what is available (see above). */
void timing_gpu_poll(void);
/* The SDL context ctx is about to be deleted: its pending queries are lost (read
 * first when it is current). */
void timing_gpu_context_destroyed(void *ctx);
/* Reads (waiting) every pending query of the current context. */
void timing_gpu_drain_current(void);
/* Reports everything still pending as lost and frees the pools (contexts may be gone). */
void timing_gpu_finish(void);
/* Results delivered and lost so far, and the widest anchor read window (ns): half
 * of it bounds the mapping's error from our side. */
void timing_gpu_stats(uint64_t *done, uint64_t *lost, int64_t *max_window);

#endif
