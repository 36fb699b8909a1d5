/* Writing side of the Snappy container: the stream is cut into chunks of at most
 * 1 MiB, each written as uint32 LE compressed length + raw Snappy block.
 *
 * Compression off the callers' threads. A full chunk goes into a queue of
 * AT_OUTPUT_SLOTS buffers, which a compressor thread of the output's own compresses
 * and writes in order (at_output_queue.c); callers go on in the next buffer and wait
 * only when every buffer is queued (memory stays bounded: the program waits rather
 * than the trace grows). The compressor blocks every signal, so a handler always runs
 * on a caller's thread; flushes from handlers park it between chunks and write what
 * is queued themselves, with the signal-safe encoder.
 *
 * Records (events) and crashes. The writer marks the end of each complete record
 * (at_output_commit). A full buffer is queued only up to that mark, the record in
 * progress moving to the front of the next buffer, so the file always ends on a
 * record boundary (a record larger than the whole buffer, a big blob, is the
 * exception: it straddles chunks). at_output_flush_dying writes the complete records
 * without the caller's lock for a process about to die (see there). */
#ifndef AT_OUTPUT_H
#define AT_OUTPUT_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gt_error.h"
#include "gt_thread.h"

#define AT_OUTPUT_CHUNK (1u << 20)
#define AT_OUTPUT_SLOTS 6

typedef struct at_output {
    uint8_t *buf;    /* uncompressed chunk being filled: slot[tail % AT_OUTPUT_SLOTS] */
    size_t len;
    size_t mark;     /* end of the last complete record in buf (at_output_commit) */
    uint8_t *cbuf;   /* compressed chunk + its 4-byte length */
    size_t ccap;
    uint16_t *table; /* at_snappy_encode's hash table */
    int fd;
    int failed;
    uint64_t stream_bytes, file_bytes;
    gt_error err;
    const char *path;
    /* Crash state, shared with at_output_flush_dying (see at_output_snappy.c). */
    size_t chunk_len, chunk_sent; /* cbuf's chunk being written, bytes written */
    int64_t chunk_pos;            /* the file offset it starts at; -1: not a file */
    atomic_int writing;           /* 1 while a chunk goes out (cbuf, buf moving) */
    atomic_int sealed;            /* AT_SEAL_*: a dying flush has claimed the file */
    /* The queue (at_output_queue.c): [head, tail) full chunks, compressed and written
     * by the compressor thread (async), or at once by the caller when it could not
     * be started. */
    uint8_t *slot[AT_OUTPUT_SLOTS];
    size_t slot_len[AT_OUTPUT_SLOTS];
    _Atomic uint32_t head, tail;
    _Atomic uint32_t stop, parked, quit; /* a flush from a handler parks the compressor */
    int async;
    gt_thread thread;
    void (*on_stall)(const char *path);  /* the first time a caller waits for a buffer */
    int stalled;
} at_output;

enum { AT_SEAL_NONE, AT_SEAL_CLAIMED, AT_SEAL_WROTE, AT_SEAL_SKIPPED };

/* Creates (truncates) path and writes the container magic. */
int at_output_open(at_output *o, const char *path, gt_error *err);
/* Same over an open descriptor, which the output then owns. */
int at_output_open_fd(at_output *o, int fd, const char *name, gt_error *err);
void at_output_write_slow(at_output *o, const void *p, size_t n);
/* Compresses and writes the pending bytes as one chunk (no-op when empty), and waits
 * until every queued chunk is in the file. */
int at_output_flush(at_output *o);
/* The same in two steps: under the lock guarding o, the pending bytes are queued
 * (returns a ticket); then, without it, the wait for the chunks queued so far. */
uint32_t at_output_queue_pending(at_output *o);
int at_output_wait(at_output *o, uint32_t ticket);
/* The same without libsnappy, which allocates (at_snappy_encode.h), nor anything a
 * signal may have interrupted: for signal handlers and exit paths that hold the lock
 * guarding o, so a trace cut by a signal is compressed like the rest. 0 when the
 * compressor could not be parked within about half a second. */
int at_output_flush_signal_safe(at_output *o);
/* For a process about to die, from a signal handler, without the lock that guards
 * o: writes the complete records (up to the mark) as a chunk (compressed when the
 * lock's holder is the caller's own thread, else stored), or finishes
 * the chunk the caller's own thread was writing when owner_is_caller, then seals
 * the file (every later flush writes nothing). Async-signal-safe: write(2) only, no
 * allocation. Returns 1 when the file holds every complete record. */
int at_output_flush_dying(at_output *o, int owner_is_caller);
/* Under the lock, for a process about to die, after the last flush: every later
 * flush writes nothing. Returns 1. */
int at_output_seal(at_output *o);
/* After at_output_finish: the same buffers write path (created or truncated) from now
 * on, from its container magic; 0 with err set when it cannot be made. */
int at_output_reopen(at_output *o, const char *path, gt_error *err);
/* Flushes, closes the file; 0 when anything failed (message in o->err). */
int at_output_close(at_output *o);
/* Flushes, ends the compressor thread and closes the file, keeping the buffers: for an
 * output other threads may still write into, which from now on writes nothing. */
int at_output_finish(at_output *o);

static inline void at_output_write(at_output *o, const void *p, size_t n)
{
    size_t len = o->len; /* read once: byte stores may alias o */
    if (AT_OUTPUT_CHUNK - len >= n) {
        memcpy(o->buf + len, p, n);
        o->len = len + n;
    } else {
        at_output_write_slow(o, p, n);
    }
}

/* The buffer is full: writes it up to the mark (keeping the record in progress). */
void at_output_spill(at_output *o);

static inline void at_output_byte(at_output *o, uint8_t b)
{
    if (o->len == AT_OUTPUT_CHUNK)
        at_output_spill(o);
    o->buf[o->len++] = b;
}

/* The bytes so far end a record: a crash may write up to here. */
static inline void at_output_commit(at_output *o) { o->mark = o->len; }

#endif
