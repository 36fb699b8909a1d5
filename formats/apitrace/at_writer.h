/* Writer of apitrace traces, version 6, in the Snappy container.
 *
 * The call sequence mirrors apitrace's own writer, which the recording wrappers use:
 *
 *   at_writer_begin_enter(w, &sig, thread, flags);
 *   at_writer_begin_arg(w, 0); at_writer_uint(w, 42);   ...one value per argument
 *   no = at_writer_end_enter(w);
 *   ...the real call...
 *   at_writer_begin_leave(w, no);
 *   at_writer_begin_return(w); at_writer_sint(w, -1);
 *   at_writer_end_leave(w);
 *
 * Threads may record concurrently: each encodes its event without a lock and
 * end_enter/end_leave place it into the stream under the writer's lock, held for a
 * copy (at_writer_internal.h), never across the traced call. The call number is
 * given when the enter event is placed (end_enter), in the stream's order. A late
 * call (AT_WRITER_LATE: the real call has already returned) writes its enter and
 * leave events together at end_leave, with one lock; end_enter then gives
 * AT_WRITER_NO_CALL. The stream's end of the last complete event is what a crash
 * writes without the lock (at_writer_flush_dying). Signatures (function, enum,
 * bitmask, struct, frame) are written in full the first time their id appears in the
 * stream and by id afterwards: one id must always mean the same signature. */
#ifndef AT_WRITER_H
#define AT_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gt_error.h"
#include "gt_model.h"

typedef struct at_writer at_writer;

typedef struct at_writer_property {
    const char *name, *value;
} at_writer_property;

/* Creates path and writes the header with the given properties. */
at_writer *at_writer_open(const char *path, const at_writer_property *props, unsigned nprops,
                          gt_error *err);
/* Flushes and closes; returns 0 when any write failed (err filled). */
int at_writer_close(at_writer *w, gt_error *err);
/* Ends the file (flushed and closed) without freeing w, which other threads may still
 * hold: what they write from now on is dropped. Returns 0 when any write failed. */
int at_writer_finish(at_writer *w, gt_error *err);
/* After at_writer_finish: w writes path from now on (a new trace: header with props,
 * calls numbered from 0, signatures defined anew), reusing its buffers. What threads
 * were writing when the previous file ended is dropped, not put in this one. Returns 0
 * with err set when path cannot be made (w stays finished). */
int at_writer_reopen(at_writer *w, const char *path, const at_writer_property *props,
                     unsigned nprops, gt_error *err);
/* Writes the pending stream bytes as a chunk now (exit paths, timers). */
int at_writer_flush(at_writer *w);
/* Same, but only if no thread is inside the writer: for timer threads, which must
 * not wait. Returns 1 when it flushed. */
int at_writer_try_flush(at_writer *w);
/* The same for signal handlers: the chunk is stored, not compressed, since Snappy
 * allocates and the signal may have interrupted malloc (a crash in the heap, or
 * SIGINT at the wrong moment, would deadlock there). */
int at_writer_try_flush_in_signal(at_writer *w);
/* For signal handlers after which the process may live on (a program's handler
 * follows): waits a bounded time (~0.5 s) for another thread to finish its event,
 * then flushes stored; 0 without flushing when the caller's own thread is inside
 * an event (interrupted by the signal) or the wait ran out. */
int at_writer_flush_in_signal(at_writer *w);
/* For a process that ends now (a default fatal action, _exit): as above, but the
 * lock is then kept to the end, and when it cannot be had the complete events are
 * written without it and the file is sealed (at_output_flush_dying): every call
 * that returned is in the file, and no half event. Nothing can be written after
 * it (flush a timeline, which flushes the trace first, before). Async-signal-safe. */
int at_writer_flush_dying(at_writer *w);
/* exec: flushes (stored) and keeps the lock, so that no thread adds an event the new
 * image would drop; at_writer_release after an exec that failed. 0 (lock not held,
 * nothing written) when the caller is inside an event or the wait ran out. */
int at_writer_hold_flushed(at_writer *w);
void at_writer_release(at_writer *w);

/* begin_enter flags: a fake call (apitrace's flag); a late call (see the top). */
enum { AT_WRITER_FAKE = 1, AT_WRITER_LATE = 2 };
#define AT_WRITER_NO_CALL UINT32_MAX

void at_writer_begin_enter(at_writer *w, const gt_func_sig *sig, uint32_t thread,
                           unsigned flags);
/* The call's number; AT_WRITER_NO_CALL for a late call (numbered at end_leave). */
uint32_t at_writer_end_enter(at_writer *w);
void at_writer_begin_leave(at_writer *w, uint32_t call_no);
void at_writer_end_leave(at_writer *w);

void at_writer_begin_arg(at_writer *w, uint32_t index);
void at_writer_begin_return(at_writer *w);
void at_writer_backtrace(at_writer *w, const gt_frame *const *frames, uint32_t n);

/* Values. */
void at_writer_null(at_writer *w);
void at_writer_bool(at_writer *w, bool v);
void at_writer_sint(at_writer *w, int64_t v);
void at_writer_uint(at_writer *w, uint64_t v);
void at_writer_float(at_writer *w, float v);
void at_writer_double(at_writer *w, double v);
void at_writer_string(at_writer *w, const char *s, size_t len); /* s NULL: NULL */
void at_writer_cstring(at_writer *w, const char *s);
void at_writer_wstring(at_writer *w, const uint32_t *s, size_t len);
void at_writer_blob(at_writer *w, const void *data, size_t size); /* data NULL: NULL */
void at_writer_enum(at_writer *w, const gt_enum_sig *sig, int64_t v);
void at_writer_bitmask(at_writer *w, const gt_bitmask_sig *sig, uint64_t v);
void at_writer_begin_array(at_writer *w, size_t n);          /* then n values */
void at_writer_begin_struct(at_writer *w, const gt_struct_sig *sig); /* then its members */
void at_writer_pointer(at_writer *w, uint64_t addr);
void at_writer_begin_repr(at_writer *w);                      /* then human, machine */
/* Any model value (a reader's output), recursively. */
void at_writer_value(at_writer *w, const gt_value *v);

/* The details of a call read from a trace (the reader's model) that its enter event
 * (at_leave false) or its leave event held: arguments, then at leave the return value;
 * the backtrace with the event that held it. Between begin_enter/end_enter or
 * begin_leave/end_leave. */
void at_writer_details(at_writer *w, const gt_call *c, bool at_leave);
/* A whole call read from a trace (the reader's model), written as the next call of
 * this trace, numbered by the writer, as apitrace's trim and sed write calls: its enter
 * event (arguments written at enter, the fake flag) and its leave event right after
 * (outputs, return value; a call that never returned gets one too, as apitrace writes
 * it), the backtrace with the event that held it. Returns the call's number here. */
uint32_t at_writer_call(at_writer *w, const gt_call *c);

/* Called once, the first time a caller waits for a free chunk buffer because the
 * compressor thread is behind (the disk or compression slower than the calls). */
void at_writer_on_stall(at_writer *w, void (*fn)(const char *path));

/* Bytes of stream written so far (before compression) and of file. */
uint64_t at_writer_stream_bytes(const at_writer *w);
/* Why writing failed ("PATH: write failed: REASON"), or NULL while all is well: a
 * failed write stops the file there (later flushes write nothing). */
const char *at_writer_error(const at_writer *w);

#endif
