/* State shared by the FDR and basic-mode parsers (xray_fdr.c, xray_basic.c)
 * and the common part of the reader (xray_reader.c): threads, names, warnings,
 * time conversion and the events sent to the sink. */
#ifndef XRAY_READ_INTERNAL_H
#define XRAY_READ_INTERNAL_H

#include "xray_format.h"
#include "xray_instrmap.h"
#include "xray_map.h"
#include "xray_reader.h"

/* Arguments kept per entry; more are counted and dropped with a warning. */
#define XR_MAX_ARGS 16
/* Warnings sent before the reader goes quiet (a damaged log can have millions). */
#define XR_MAX_WARNINGS 64
/* Bytes read from a file at a time: the reader holds this window, not the file. */
#define XR_WINDOW (1u << 20)
/* Garbage the reader skips before it calls the log damaged beyond use: bytes
 * searched for a BufferExtents, records before any NewBuffer or with function
 * id 0 in a row (a zeroed or sparse file has a valid header and nothing else). */
#define XR_MAX_SKIP (1u << 20)
#define XR_MAX_BAD_RECORDS 65536

typedef struct xr_thread {
    uint64_t pid, tid;
    uint64_t depth; /* entries not yet exited */
} xr_thread;

/* An entry waits for the CallArgument records that may follow it. */
typedef struct xr_pending {
    int active;
    uint32_t fid;
    uint64_t tsc;
    size_t off;
    xr_thread *th;
    uint32_t nargs;
    uint64_t args[XR_MAX_ARGS];
} xr_pending;

typedef struct xr_reader {
    /* The log's bytes [win_off, win_off + win_len): all of it for memory
     * input, else a window over fd refilled by xr_fetch. */
    const uint8_t *win;
    size_t win_off, win_len;
    size_t size;
    int fd;        /* -1: memory input */
    uint8_t *buf;  /* the window's storage for file input */
    size_t buf_cap;
    uint64_t nevents, nbuffers; /* sent; NewBuffer records seen */
    uint64_t bad_run; /* records skipped in a row (XR_MAX_BAD_RECORDS) */
    const char *name;
    gt_timeline *tl;
    gt_tl_sink *sink;
    const gt_tl_read_opts *opts;
    gt_error *err;
    gt_xray_header h;
    gt_xray_instrmap *map;
    xray_map names;      /* function id -> gt_tl_str */
    xray_map thread_ix;  /* (pid, tid) -> index in threads */
    xr_thread **threads;
    size_t nthreads, cap;
    xr_pending pending;
    unsigned nwarn;
    int base_set;
    uint64_t base_tsc; /* subtracted from every TSC (see xr_ts) */
    gt_tl_str s_cat, s_custom, s_typed, s_data, s_type;
    gt_tl_str s_arg[XR_MAX_ARGS];
} xr_reader;

/* A forgiven deviation: a warning (0), or in strict mode an error (-1). */
int xr_deviation(xr_reader *r, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A fatal problem: sets err, returns -1. */
int xr_fail(xr_reader *r, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The window moved to hold [off, off + len): a pointer to it, or NULL with
 * err set (read error, out of memory, past the end). */
const uint8_t *xr_fetch(xr_reader *r, size_t off, size_t len);

/* len bytes of the log at off (the caller checked they are inside it). */
static inline const uint8_t *xr_at(xr_reader *r, size_t off, size_t len)
{
    if (off >= r->win_off && len <= r->win_len && off - r->win_off <= r->win_len - len)
        return r->win + (off - r->win_off);
    return xr_fetch(r, off, len);
}

/* A record skipped as garbage: fails once XR_MAX_BAD_RECORDS come in a row. */
int xr_bad_record(xr_reader *r, size_t off, const char *what);

int xr_ts(xr_reader *r, uint64_t tsc, size_t off, int64_t *ns);
xr_thread *xr_thread_get(xr_reader *r, uint64_t pid, uint64_t tid);

/* Entries go through the pending slot so arguments can attach to them. */
int xr_entry(xr_reader *r, xr_thread *th, uint32_t fid, uint64_t tsc, size_t off);
int xr_arg(xr_reader *r, uint64_t arg, size_t off);
int xr_flush_pending(xr_reader *r);
int xr_exit(xr_reader *r, xr_thread *th, uint32_t fid, uint64_t tsc, size_t off);
/* Custom (typed = 0) and typed events: an instant with the payload. */
int xr_event(xr_reader *r, xr_thread *th, int typed, uint32_t type, uint64_t tsc,
             const uint8_t *data, uint32_t len, size_t off);

int xr_read_fdr(xr_reader *r);
int xr_read_basic(xr_reader *r);

#endif
