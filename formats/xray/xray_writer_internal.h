/* State of the FDR writer shared by the slice logic (xray_writer.c) and the
 * thread buffers and their records (xray_writer_records.c). */
#ifndef XRAY_WRITER_INTERNAL_H
#define XRAY_WRITER_INTERNAL_H

#include <stdio.h>

#include "xray_format.h"
#include "xray_map.h"
#include "xray_writer.h"

#define XW_PREAMBLE (4 * XRAY_METADATA_SIZE)
/* Call arguments written per entry; a payload is cut to what fits a buffer. */
#define XW_MAX_ARGS 64
#define XW_MAX_PAYLOAD (GT_XRAY_BUFFER_SIZE - XW_PREAMBLE - 2 * XRAY_METADATA_SIZE)

typedef struct xw_frame {
    uint32_t fid;
    int complete;
    int64_t end; /* complete slices */
} xw_frame;

typedef struct xw_thread {
    uint32_t xpid, xtid;
    uint8_t *buf; /* grows to GT_XRAY_BUFFER_SIZE: memory follows the events */
    size_t len;   /* 0: no buffer started */
    size_t bufcap;
    uint64_t last_tsc;
    int any;      /* a record was written: last_tsc is meaningful */
    xw_frame *stack;
    size_t depth, cap;
} xw_thread;

struct gt_xray_writer {
    FILE *f;
    char *path, *map_path;
    const gt_timeline *tl;
    xray_map fids; /* gt_tl_str -> function id */
    char **fnames; /* [id - 1] */
    uint32_t nfn, fcap;
    xray_map thread_ix; /* (pid, tid) -> index */
    xw_thread *threads;
    size_t nthreads, tcap;
    uint32_t synthetic; /* ids handed out for pid/tid beyond int32 */
    int header_done;
    int buffers; /* thread buffers written */
};

int xw_oom(gt_xray_writer *w, gt_error *err);
int xw_header(gt_xray_writer *w, gt_error *err);
/* Writes the thread's buffer (BufferExtents + records), if one is open. */
int xw_flush_thread(gt_xray_writer *w, xw_thread *t, gt_error *err);
/* An empty buffer (thread 0): llvm-xray-14 refuses a log of a header alone. */
int xw_empty_buffer(gt_xray_writer *w, gt_error *err);
/* A function record at tsc (>= the thread's last), then CallArgument records. */
int xw_function(gt_xray_writer *w, xw_thread *t, unsigned action, uint32_t fid, uint64_t tsc,
                const uint64_t *args, uint32_t nargs, gt_error *err);
/* A v5 custom event (typed = 0) or typed event with its payload. */
int xw_event(gt_xray_writer *w, xw_thread *t, int typed, uint16_t type, uint64_t tsc,
             const void *data, size_t len, gt_error *err);

#endif
