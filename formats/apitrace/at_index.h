/* The frame index of a trace: a side file TRACE.idx, never part of the trace
 * (apitrace must still read it), holding what `gltrace info` prints and where each
 * frame starts, so that info reads no stream at all and a dump of frame N reads only
 * the chunks of frame N.
 *
 * Reading from the middle of a stream needs the signatures defined before that point:
 * the index keeps each definition in the stream's own encoding with its stream offset,
 * and at_reader_seek feeds back exactly those defined before the start.
 *
 * An index is trusted only for the file it was built from: it records the trace's
 * size, modification time and the MD5 of its first 64 KiB, and the MD5 of its own
 * contents; anything else (stale, damaged, another version) is rejected with the
 * reason, and the tools then read the trace as if there were no index.
 *
 * Built by at_index_build (at_reader_index.c); written and loaded here (at_index.c). */
#ifndef AT_INDEX_H
#define AT_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "at_reader.h"
#include "gt_error.h"

/* A frame as `gltrace info --dump-frames` prints it, and where to read it from. */
typedef struct at_index_frame {
    uint32_t first_no, last_no; /* FirstCallId, LastCallId */
    uint64_t calls, size;       /* TotalCalls, SizeInBytes */
    /* The earliest enter event among this frame's calls and the call ending the frame
     * before: reading from there returns every call of this frame, in order, after the
     * previous frame's last call. */
    at_seek_point start;
    uint32_t complete; /* ended by a frame-ending call; the calls after the last one
                          make a final incomplete frame (info does not count it) */
} at_index_frame;

typedef struct at_index {
    /* what info prints */
    unsigned version, semantic_version;
    const char *container; /* "snappy", "zlib", "brotli" */
    const char *api;       /* at_index_api_name's answer for the first known call */
    uint64_t calls, incomplete, frames_count, data_size, container_size;
    uint32_t threads, functions;
    char *warning; /* the reader's end warning without "PATH: ", or NULL */
    at_property *props;
    uint32_t nprops;
    /* the frame at which calls left incomplete start coming out (UINT64_MAX: none):
     * a full read returns them last, so a seek cannot stand in for it from there */
    uint64_t first_incomplete_frame;
    at_index_frame *frames; /* complete frames, then the final incomplete one if any */
    size_t nframes, frames_cap;
    at_sig_def *sigs;       /* in stream order */
    size_t nsigs, sigs_cap;
    /* storage */
    uint8_t *sig_bytes;     /* built: the definitions, one after the other */
    size_t sig_len, sig_cap;
    uint8_t *file;          /* loaded: the index file, which defs and strings point into */
} at_index;

/* "TRACE.idx", malloc'd; NULL when memory runs out. */
char *at_index_path(const char *trace);

/* Reads the whole trace once and builds its index. progress_label: shown as progress
 * on a terminal (NULL: none). Returns the index, or NULL with err set: the trace's
 * error (as at_reader_error words it) or out of memory. */
at_index *at_index_build(const char *trace, const char *progress_label, gt_error *err);

/* Writes ix as TRACE.idx through gt_outfile (temporary file, then rename), stamped
 * with the trace as it is now: 0, or -1 with err set. Refuses a path that is the
 * trace itself. */
int at_index_write(const at_index *ix, const char *trace, gt_error *err);

/* Loads TRACE.idx when it describes TRACE as it is now. Returns 1 with *out set, 0
 * when there is no index file, -1 when there is one that cannot be used (stale,
 * damaged, another format version; err says why, naming the file and offset). */
int at_index_load(const char *trace, at_index **out, gt_error *err);

/* An index's contents after its head (no stamp, no checksum), for fuzzing what a
 * crafted index with a valid checksum could hold: 0 with *out set, or -1 with err. */
int at_index_parse_contents(const uint8_t *data, size_t n, at_index **out, gt_error *err);

void at_index_free(at_index *ix);

/* The warning line a full read would print ("PATH: offset ..."), or NULL. */
const char *at_index_warning(const at_index *ix, const char *path, char *buf, size_t size);

/* The API apitrace's info names from a trace's first function ("Unknown" when none). */
const char *at_index_api_name(const char *first_function);

/* Where to start reading to get every call of frames first..last (last clamped to the
 * index), and the call whose output starts frame first (the last call of the frame
 * before; *after_no is UINT32_MAX and nothing need be skipped when first is 0).
 * Returns 1, or 0 when the index cannot stand in for a full read: first is beyond
 * the frames, the container cannot seek, or the range reaches the calls left
 * incomplete. */
int at_index_frames_start(const at_index *ix, uint64_t first, uint64_t last, at_seek_point *p,
                          uint32_t *after_no);

#endif
