/* gltrace view: a trace viewer served to a browser. The HTTP contract is API.md beside
 * this file. The pieces:
 *   view_main.c        the command: options, the index, signals, start and stop
 *   view_http.c        the libmicrohttpd daemon: token, routing, static files
 *   view_api.c         answers read from the trace through its frame index
 *   view_slices.c      the page's timeline of a frame range, the frame holding a call
 *   view_scan.c        a background pass over the trace: draws and group depth per
 *                      frame; CPU and GPU time per frame from the timeline's Chrome JSON;
 *                      where a frame range's state snapshot ends
 *   view_jobs.c        replays in glretrace subprocesses (view_jobs_internal.h), with
 *   view_replays.c     the background replays: thumbnails and the timeline,
 *   view_thumbcache.c  the thumbnails folder kept to a size,
 *   view_state.c       the GL state at a call (a glretrace kept warm), and
 *   view_diff.c        image comparisons in `gltrace diff-images` subprocesses
 *   view_paths.c       where the page, glretrace and the cache are
 *   view_cache.c       the cache's files: relative to its folder, never through a link */
#ifndef VIEW_H
#define VIEW_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "at_index.h"
#include "gt_error.h"
#include "gt_strbuf.h"

typedef struct view_jobs view_jobs;

typedef struct view_server {
    const char *trace;     /* as given */
    char *trace_abs;       /* absolute path, for glretrace and the cache hash */
    uint64_t trace_size;
    struct timespec trace_mtime; /* thumbnails older than the trace are stale */
    dev_t trace_dev;       /* with size and mtime: the trace served (view_trace_changed) */
    ino_t trace_ino;
    mode_t cache_mode;     /* the cache folders' mode: the trace's read bits, and x */
    at_index *ix;          /* NULL when the trace could not be indexed: ix_error says why */
    char ix_error[GT_ERROR_MAX];
    bool indexed;          /* TRACE.idx on disk describes the trace */
    uint32_t last_call;    /* the highest call number (0 when none) */
    /* A frame range's trace (view_snapshot_find, before serving, then read-only): the
     * program's frame number of index frame 0 (property gltrace.snapshot), -1 for any
     * other trace; whether its state snapshot's end marker was found at the start of
     * frame 0, its call number and how many calls, in the trace's order, lead to it and
     * itself (the snapshot: frame 0's first snap_calls calls). */
    long long snap_first;
    bool snap_found;
    uint32_t snap_end;
    uint64_t snap_calls;
    char token[33];
    char *static_dir;      /* the page */
    char *cache_dir;       /* TRACE.view/ or $XDG_CACHE_HOME/gltrace/HASH/; NULL: none */
    char *thumbs_dir;      /* cache_dir/thumbs/ */
    int cache_fd;          /* cache_dir, opened (-1: none): every cache file is opened
                            * relative to it (view_cache.c) */
    int thumbs_fd;         /* thumbs_dir, likewise */
    char *glretrace;       /* the replayer's path; NULL when not found (jobs fail) */
    char *gltrace;         /* this binary (for diff-images); NULL when not known */
    view_jobs *jobs;
    /* view_scan.c's results, published once complete (under scan_lock) */
    pthread_mutex_t scan_lock;
    uint32_t *frame_draws;   /* per index frame; NULL until the scan is done */
    uint32_t *frame_depth;   /* debug-group depth at each frame's start */
    bool scan_started;
    /* CPU and GPU ns per index frame from the timeline (view_profile_read), published
     * once read (under scan_lock); NULL until then; frame_gpu_ns NULL also when the
     * replay had no GPU timings */
    uint64_t *frame_cpu_ns;
    uint64_t *frame_gpu_ns;
    bool profile_known;
    atomic_bool stopping; /* set at exit: background work ends early */
    pthread_t scan_thread;
} view_server;

/* ---- view_paths.c ---- */
/* This executable's path (readlink /proc/self/exe), malloc'd, or NULL with err set. */
char *view_self_path(gt_error *err);
/* The page folder: $GLTRACE_VIEW_DIR, ../share/gltrace/view beside the binary, else the
 * source tree's cli/view/static. malloc'd, or NULL with err set. */
char *view_static_dir(gt_error *err);
/* glretrace beside this binary (build tree and installed bin/ alike). */
char *view_glretrace_path(gt_error *err);
/* Makes (or finds) the cache folder for the trace: TRACE.view/ when the trace's folder
 * is writable, else $XDG_CACHE_HOME/gltrace/MD5(path, size, mtime)/. 0, or -1. */
int view_cache_dir(view_server *v, gt_error *err);

/* ---- view_cache.c: files in the cache, never through a symbolic link ---- */
/* Opens (making it with mode when missing) the folder name in parent (a descriptor, or
 * AT_FDCWD); refuses a symbolic link, anything else than a folder and a folder of
 * another user; an own folder is given mode. Shown names it in messages. fd, or -1
 * with err. */
int view_own_dir(int parent, const char *name, const char *shown, mode_t mode, gt_error *err);
/* Creates a new temporary file for name in dirfd (O_EXCL, O_NOFOLLOW), its name in tmp:
 * fd, or -1 with errno. view_cache_commit renames it over name (a link there is
 * replaced) or removes it: 0, or -1 with errno. */
int view_cache_create(int dirfd, const char *name, char *tmp, size_t size);
int view_cache_commit(int dirfd, const char *tmp, const char *name);
/* A whole file: temporary file, then rename. 0, or -1 with errno. */
int view_cache_write(int dirfd, const char *name, const void *data, size_t len);
/* Opens the regular file rel ("a/b/c") under dirfd for reading, no segment a symbolic
 * link: fd, or -1 with errno. */
int view_cache_open(int dirfd, const char *rel);
/* A new log file name in the cache for a child's messages (path: its full name); -1
 * (then /dev/null) without a cache. */
int view_cache_log(view_server *v, const char *name, char *path, size_t size);

/* ---- view_main.c ---- */
/* Whether the trace on disk is still the one served (size, mtime, inode: one stat);
 * when not, msg says how it changed. */
bool view_trace_changed(view_server *v, char *msg, size_t size);

/* ---- view_api.c: each fills out with a JSON body and returns the HTTP status ---- */
int view_api_summary(view_server *v, gt_strbuf *out);
int view_api_frames(view_server *v, const char *first, const char *count, gt_strbuf *out);
int view_api_calls(view_server *v, const char *frame, const char *first, const char *count,
                   gt_strbuf *out);
/* A search in progress: view_search_next appends NDJSON lines to out, some at a time;
 * returns 1 while there is more, 0 once the final line is out. */
typedef struct view_search view_search;
int view_search_start(view_server *v, const char *q, const char *from, const char *limit,
                      view_search **out_s, gt_strbuf *err_body);
int view_search_next(view_search *s, gt_strbuf *out);
void view_search_free(view_search *s);
/* {"error": msg} */
void view_json_error(gt_strbuf *out, const char *msg);
/* A number from a query argument: 1 with *out set, 0 when absent (def used), -1 with
 * an error body when it is not a decimal number up to max. */
int view_arg_u64(const char *name, const char *s, uint64_t def, uint64_t max, uint64_t *out,
                 gt_strbuf *err_body);

/* ---- view_slices.c ---- */
/* api/slices?first=F&count=C: the timeline's slices of frames [F, F+C) read from the
 * timeline job's Chrome JSON (404 until it is done). */
int view_api_slices(view_server *v, const char *first, const char *count, gt_strbuf *out);
/* api/frame_of?call=N: {"call", "frame"}: the frame holding call N. */
int view_api_frame_of(view_server *v, const char *call, gt_strbuf *out);

/* ---- view_scan.c ---- */
/* A frame range's trace: fills v->snap_* (reads frame 0 up to the snapshot's end
 * marker; a trace without the property is not read). A trace with the property but no
 * marker is a note on stderr. */
void view_snapshot_find(view_server *v);
int view_scan_start(view_server *v);
void view_scan_join(view_server *v);
/* Reads glretrace's Chrome JSON (--pcpu --pgpu --chrome) and publishes per frame the
 * sum of its calls' CPU slices (category "gl") and of its GPU slices (category "gpu"),
 * by their "frame" argument. 0, or -1 with err set (nothing published). */
int view_profile_read(view_server *v, const char *json_path, gt_error *err);

/* ---- view_jobs.c ---- */
int view_jobs_init(view_server *v, gt_error *err);
/* Kills and reaps every replay, joins the job threads. */
void view_jobs_stop(view_server *v);
void view_jobs_start_thumbs(view_server *v);
/* api/state, api/timeline, api/job: JSON into out, HTTP status returned. */
/* client: who asks (NULL: ""); a client's newer request supersedes its waiting ones. */
int view_api_state(view_server *v, const char *call, const char *client, gt_strbuf *out);
/* frames: "A-B" (index frames), a timeline of those frames only; NULL: every frame. */
int view_api_timeline(view_server *v, const char *frames, gt_strbuf *out);
/* The frames' CPU/GPU times: "done" (read), "pending" (the timeline is to come or
 * running), "none" (no timeline, or it failed, or it could not be read). */
const char *view_times_state(view_server *v);
int view_api_job(view_server *v, const char *id, gt_strbuf *out);
/* api/diff: starts `gltrace diff-images` on copies of the two prefixes' images in
 * CACHE/diff-N/ (absolute prefixes, or relative to the trace's folder). */
int view_api_diff(view_server *v, const char *ref, const char *src, gt_strbuf *out);
/* diff/N/PATH: a file of diff job N's folder (its report, the copies, the difference
 * images): 200 with *fd open on it, else JSON in body. */
int view_diff_file(view_server *v, const char *rel, int *fd, gt_strbuf *body);
/* api/result: on success (200) *fd is open on the result file or *body holds it,
 * *ctype its type, *attachment the download name (or NULL). Errors: JSON in body. */
int view_api_result(view_server *v, const char *id, int *fd, gt_strbuf *body,
                    const char **ctype, const char **attachment);
/* The PNG of frame F: 200 with *fd open on it, else JSON in body. */
int view_api_thumb(view_server *v, const char *frame, int *fd, gt_strbuf *body);
bool view_thumb_exists(view_server *v, uint32_t last_no);

/* ---- view_http.c ---- */
typedef struct view_http view_http;
/* Starts the daemon on host:port (port 0: a free one); *bound_port is the port. */
view_http *view_http_start(view_server *v, const char *host, unsigned port,
                           unsigned *bound_port, gt_error *err);
void view_http_stop(view_http *h);

#endif
