/* Streaming reader of apitrace traces, versions 0 to 6.
 *
 * Calls come out in the order they complete (their leave event), as apitrace's
 * parser yields them; calls still open when the stream ends come last, flagged
 * GT_CALL_FLAG_INCOMPLETE. Memory is bounded by the signatures and the calls in
 * flight, not by the trace's length. */
#ifndef AT_READER_H
#define AT_READER_H

#include <stdbool.h>
#include <stdint.h>

#include "at_input.h"
#include "gt_error.h"
#include "gt_model.h"

typedef struct at_reader at_reader;

typedef struct at_reader_options {
    bool skip_blob_data; /* keep blob sizes only (dump does not need the bytes) */
} at_reader_options;

typedef struct at_property {
    const char *name, *value;
} at_property;

/* Opens PATH and reads the header. NULL with err filled on failure. */
at_reader *at_reader_open(const char *path, const at_reader_options *opt, gt_error *err);
/* Same over an opened input, which the reader then owns (closed on failure too). */
at_reader *at_reader_open_input(at_input *in, const at_reader_options *opt, gt_error *err);
void at_reader_close(at_reader *r);

unsigned at_reader_version(const at_reader *r);
unsigned at_reader_semantic_version(const at_reader *r);
unsigned at_reader_num_properties(const at_reader *r);
const at_property *at_reader_property(const at_reader *r, unsigned i);
const at_input *at_reader_input(const at_reader *r);

/* The next call, or NULL at the end or on error (see at_reader_error). The call
 * stays valid until it is handed back with at_reader_release. */
gt_call *at_reader_next(at_reader *r);
void at_reader_release(at_reader *r, gt_call *call);

/* Event-level reading, for tools that rewrite traces: also returns each call right
 * after its enter event (AT_EV_ENTER; the call stays owned by the reader and must not
 * be released), then again when it completes (AT_EV_LEAVE, or AT_EV_INCOMPLETE at the
 * end for calls that never returned; release those). */
typedef enum at_event_kind { AT_EV_ENTER, AT_EV_LEAVE, AT_EV_INCOMPLETE } at_event_kind;
gt_call *at_reader_next_event(at_reader *r, at_event_kind *kind);

/* After NULL from at_reader_next: the error that stopped reading, or NULL when the
 * trace simply ended. */
const char *at_reader_error(const at_reader *r);
/* A warning about the end of the trace (file truncated, calls left open), or NULL. */
const char *at_reader_warning(const at_reader *r);

/* Counts of what has been read so far. */
typedef struct at_reader_stats {
    uint64_t calls, incomplete, dropped;
    unsigned threads; /* distinct thread numbers seen */
    unsigned functions, enums, bitmasks, structs, frames;
} at_reader_stats;
void at_reader_get_stats(const at_reader *r, at_reader_stats *st);

/* ---- the frame index (at_index.c) ----------------------------------------------------
 * A signature is written in full at its first use and by id afterwards, so reading
 * from the middle of a stream needs the definitions that came before. */
typedef enum at_sig_kind {
    AT_SIG_FUNCTION, AT_SIG_ENUM, AT_SIG_BITMASK, AT_SIG_STRUCT, AT_SIG_FRAME, AT_SIG_KINDS
} at_sig_kind;

/* Called once per signature as it is defined, with the stream offset of its id and the
 * gt_func_sig, gt_enum_sig, gt_bitmask_sig, gt_struct_sig or gt_frame it became. */
typedef void (*at_sig_hook)(void *ctx, at_sig_kind kind, const void *sig, uint64_t off);
void at_reader_set_sig_hook(at_reader *r, at_sig_hook fn, void *ctx);

/* One signature definition in the stream's own encoding (id first), as the index
 * stores it, defined at stream offset off. */
typedef struct at_sig_def {
    at_sig_kind kind;
    uint64_t off;
    const uint8_t *bytes;
    uint32_t len;
} at_sig_def;

/* Where to start reading: the enter event of call call_no at stream offset stream_off,
 * skip bytes into the Snappy chunk at file offset chunk_pos (stream offset
 * chunk_off = stream_off - skip). */
typedef struct at_seek_point {
    uint64_t stream_off, chunk_pos, chunk_off;
    uint32_t call_no;
} at_seek_point;

/* Restarts a reader that has returned no call yet at p: defines the signatures of
 * defs (in stream order) that come before p, then reads on from p. Calls that entered
 * before p and leave after it are not returned. Snappy containers only. Returns 1, or
 * 0 with err set; after 0 the reader is unusable (close it and reopen). */
int at_reader_seek(at_reader *r, const at_sig_def *defs, size_t ndefs, const at_seek_point *p,
                   gt_error *err);

#endif
