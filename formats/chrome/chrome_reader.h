/* Chrome Trace Event Format reader (JSON object or array form, optionally
 * gzip-compressed; ../shared/formats/chrome-trace-event-format.md). It streams:
 * the input passes through a window that holds one JSON value at a time (an
 * event, a stack frame; gzip is inflated as it goes), events go to the sink
 * one by one, and only the id tables are kept.
 *
 * Phases map to the model as X COMPLETE, B BEGIN, E END, i/I/R INSTANT, C
 * COUNTER, b/S ASYNC_BEGIN, n/T/p ASYNC_INSTANT, e/F ASYNC_END, s/t/f FLOW_*
 * ('f' without "bp":"e" gets scope GT_TL_FLOW_BIND_NEXT), N/O/D OBJECT, P
 * SAMPLE, M process_name/thread_name PROCESS_NAME/THREAD_NAME; v2 flows
 * (bind_id + flow_in/flow_out on X or B) become FLOW_* events right after
 * their slice. The other M events (sort indexes, labels) and phases the model
 * lacks (V, v, c, (, ), =) are counted in gt_chrome_read_stats, not sent. What
 * our writer encodes comes back: context switches (the "gltrace.context_switch"
 * instants) and the wall-clock anchor ("metadata": gltrace_wall_offset_ns).
 *
 * ts/dur: microseconds converted to integer ns from the decimal text
 * (rounded half away from zero below 1 ns). pid/tid: numbers, or strings: a
 * decimal string is that number (our writer's form for koids beyond 2^32), any
 * other string gets a synthetic koid 0x7374720000000000 | n ("str") and a
 * PROCESS_NAME/THREAD_NAME event with the string. ids: numbers, "0x..." or
 * bare hex strings as hex (Perfetto reads them so), other strings hashed.
 * Stack frame ids: decimal ids 1..2^32-1 keep their value, any other id
 * ("0", "0x1", names) gets a dense id from 2^31 (so our own output reads back
 * to the same ids), the same for "sf" on events and "parent" in stackFrames;
 * a frame defined twice: the later wins, as in a JSON object. Raw "stack"
 * arrays (rootmost first) become frames too, one per distinct path, named by
 * their strings, with dense ids.
 *
 * Liberal mode reads what real files do with one warning per kind (no closing
 * ']', trailing comma, string ts, unknown phases, systemTraceEvents, ...);
 * strict mode refuses anything our writer would not write. E without B and B
 * never ended are warned in both: they are the timeline's, which our writer
 * keeps as they come, not the format's. Offsets in errors count in the decompressed text for gzip input. */
#ifndef CHROME_READER_H
#define CHROME_READER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gt_timeline.h"

/* gzip input may inflate to at most this much, and to 1000x its size + 64 KiB */
#define GT_CHROME_MAX_INFLATED (4ull << 30)
/* ... and to at most this many times the compressed bytes read so far, past
 * the first GT_CHROME_RATIO_SLACK bytes: JSON compresses 5-50x, a bomb
 * ~1000x, and this refuses a bomb after reading a fraction of it. */
#define GT_CHROME_MAX_RATIO 256u
#define GT_CHROME_RATIO_SLACK (16ull << 20)
/* The largest single JSON value (an event, a frame, metadata) held whole. */
#define GT_CHROME_MAX_VALUE (256u << 20)

typedef struct gt_chrome_read_stats {
    uint64_t events;         /* objects in the traceEvents array */
    uint64_t metadata_other; /* M events other than process_name/thread_name */
    uint64_t skipped;        /* events of phases the model lacks */
    uint64_t v2_flows;       /* FLOW_* events made from bind_id/flow_in/flow_out */
    uint64_t frames;         /* STACK_FRAME events: stackFrames entries, raw stack paths */
    uint64_t synthetic_ids;  /* string pids/tids given synthetic koids */
    uint64_t window;         /* most input bytes held at once (memory input: all of it) */
} gt_chrome_read_stats;

int gt_chrome_read(const char *path, gt_timeline *tl, gt_tl_sink *sink,
                   const gt_tl_read_opts *opts, gt_error *err);
int gt_chrome_read_mem(const uint8_t *data, size_t size, const char *name, gt_timeline *tl,
                       gt_tl_sink *sink, const gt_tl_read_opts *opts, gt_error *err);
/* From an open stream the caller keeps (a pipe, stdin, fmemopen); fills stats
 * (may be NULL). Memory: the largest single JSON value, not the file. */
int gt_chrome_read_stream(FILE *f, const char *name, gt_timeline *tl, gt_tl_sink *sink,
                          const gt_tl_read_opts *opts, gt_chrome_read_stats *stats, gt_error *err);
/* Same as gt_chrome_read_mem, and fills stats (may be NULL). */
int gt_chrome_read_mem_stats(const uint8_t *data, size_t size, const char *name, gt_timeline *tl,
                             gt_tl_sink *sink, const gt_tl_read_opts *opts,
                             gt_chrome_read_stats *stats, gt_error *err);

#endif
