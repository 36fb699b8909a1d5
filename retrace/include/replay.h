/* The replayer as a library (glretrace_core), its one public header: replays an
 * apitrace-format trace in this process, on SDL2 windows and contexts with libepoxy's
 * GL dispatch, with glretrace's checks, snapshots, timings and metrics. glretrace
 * (retrace/glretrace_main.c: its options), `gltrace convert` and `dump-images` (through
 * the module below) and the unit tests call it; the rooms behind it are retrace/core,
 * gl, ws, state and profile (retrace/README.md).
 *
 * One replay at a time in a process: SDL, the GL contexts and the replayer's maps are
 * process-wide. replay_run starts from nothing and frees everything it made before it
 * returns, so replays may follow one another. */
#ifndef RETRACE_REPLAY_H
#define RETRACE_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gt_callset.h"
#include "gt_error.h"

/* How snapshots go to stdout (snapshot prefix "-"), as apitrace's --snapshot-format. */
typedef enum snapshot_format {
    SNAPSHOT_PNM, /* P6, a comment with the snapshot's number, then RGB rows, top first */
    SNAPSHOT_RGB, /* the RGB rows alone */
    SNAPSHOT_MD5, /* the MD5 digest of the RGB rows, upper-case hex, one line */
} snapshot_format;

typedef struct replay_options {
    const char *trace;
    bool benchmark;  /* no glGetError checks, no warnings, no snapshots (apitrace's -b) */
    bool headless;   /* SDL's offscreen driver: no X server needed */
    bool single_buffer; /* single-buffered visuals; snapshots read the front buffer */
    bool wait;       /* keep the windows after the last call until one is closed */
    bool threads; /* each traced thread's calls on a thread of its own (core/replay_workers.h) */
    int verbose;     /* each call's dump text on stdout before it is replayed */
    const char *snapshot_prefix;      /* PREFIX%010u.png, "-" stdout; NULL: no snapshots */
    const gt_callset *snapshot_calls; /* which calls to snapshot; NULL: each frame's end */
    snapshot_format snapshot_format;  /* with the prefix "-" */
    bool snapshot_alpha;              /* PNG files keep the alpha channel */
    uint32_t snapshot_max;            /* PNG files at most this wide and high (0: as read) */
    bool snapshot_mrt; /* PNG files: PREFIXN-mrtI.png per colour buffer drawn to, -z.png
                        * (depth) and -s.png (stencil) as 8-bit grey, as apitrace's -m */
    bool snapshot_seq;                /* numbered 0, 1, 2... instead of by call number */
    uint32_t snapshot_interval;       /* frame ends: only every Nth frame's (0, N, 2N...) */
    const gt_callset *ignore_calls;   /* calls not replayed; NULL: none */
    uint64_t call_limit;              /* replay no call numbered above it; UINT64_MAX: all */
    uint64_t profile_from;            /* profile calls numbered from it (0: all) */
    long loop;       /* replay the last whole frame this many more times; < 0: forever */
    /* pacing, as apitrace: a frame lasts at least min_frame_us, then per_frame_delay_us
     * more pass before the next one starts */
    uint64_t min_frame_us, per_frame_delay_us;
    /* timings (profile/timeline_replay.h): the CPU and GPU time of each call, written as
     * timelines (FXT, Chrome JSON; either implies pcpu) or as apitrace's text profile on
     * stdout (text_profile; pcpu or pgpu without a timeline file imply it) */
    bool pcpu, pgpu, text_profile;
    bool pframe_times; /* the text profile with "rendering_finished NS" after each frame end */
    /* the text profile's pixels column (--ppd: GL_SAMPLES_PASSED of each draw call, -1
     * for other calls) and memory columns (--pmem: vsize and rss per call); either
     * implies the text profile */
    bool ppd, pmem;
    int64_t min_cpu_ns; /* text profile: calls faster than this are left out */
    const char *fxt_path, *chrome_path;
    /* -D: the GL state after the first call numbered dump_state_call or later that
     * leaves a context current, as apitrace's JSON on stdout; the replay stops there */
    bool dump_state;
    uint64_t dump_state_call;
    bool dump_state_frame; /* instead: after the first frame's last call (its swap) */
    /* --state-server (state/state.h): the state at each call number read from stdin */
    bool state_server;
    /* apitrace's metrics (--pframes, --pcalls, --pdrawcalls, --list-metrics,
     * --gen-passes: below); NULL: none. The caller runs one replay per pass and
     * writes them; the replay runs every traced thread on one thread with them. */
    struct metrics *metrics;
    /* --markers: before each GL call, its dump text as a KHR_debug marker
     * (glDebugMessageInsert, third party, marker type, id 0xAB1DE) in the command stream */
    bool markers;
    /* --core: contexts the trace creates without a version (glXCreateContext,
     * glXCreateNewContext) are 3.2 core profile ones, as apitrace's --core */
    bool core;
    /* --samples=N (> 1): windows have N samples, whatever the trace's visuals asked */
    int samples;
    /* glGetQueryObject* with no query buffer bound: not replayed (skip, the default),
     * replayed waiting for the result (run), or replayed and compared with the trace's
     * result, a difference above query_tolerance warned about (check) */
    enum { REPLAY_QUERY_SKIP, REPLAY_QUERY_RUN, REPLAY_QUERY_CHECK } query_handling;
    uint64_t query_tolerance;
} replay_options;

/* Defaults: no snapshots, no call limit, no loop, no timings, min_cpu_ns 1000. */
void replay_options_init(replay_options *o, const char *trace);

typedef struct replay_result {
    uint64_t frames; /* swaps replayed */
    uint64_t calls;  /* calls read from the trace */
    uint64_t snapshots, snapshot_failures; /* taken, and failed (warned about) */
    double secs;     /* wall-clock time of the replay itself */
    bool state_dumped; /* dump_state: the state was written */
} replay_result;

/* Replays o->trace. With dump_state, a trace that ends before the call, or a call
 * inside glBegin/glEnd (where GL state cannot be read), is an error. Warnings about
 * calls go to stderr as apitrace words them (not with benchmark). Returns 0, or -1 with
 * err set when the trace cannot be opened or read to its end, the window system cannot
 * start, or a timeline output fails; res (may be NULL) holds what was replayed either
 * way. */
int replay_run(const replay_options *o, replay_result *res, gt_error *err);

/* ---- apitrace's profiling metrics (glretrace --list-metrics, --pframes, --pcalls,
 * --pdrawcalls, --gen-passes; profile/metrics.c), with apitrace 11's names and output,
 * so piglit's replayer (`replayer.py profile`) and apitrace's scripts read ours.
 *
 * A selection is apitrace's syntax: `BACKEND:METRIC[,METRIC...][;BACKEND:...]`, a metric
 * by name (`GPU Duration`) or by `[GROUP, ID]`, for frames, calls or draw calls
 * (profile/metrics.h says what each backend measures and where a boundary lies). The
 * caller sets replay_options.metrics, replays once per pass, then writes them.
 *
 * Output (after the last pass), one block per boundary asked for, in the order
 * frames, calls, draw calls, each followed by an empty line:
 *   #<TAB>METRIC...                      frame boundary header
 *   frame<TAB>VALUE...
 *   #<TAB>call no<TAB>program<TAB>name<TAB>METRIC...   call and draw call headers
 *   call<TAB>NO<TAB>PROGRAM<TAB>NAME<TAB>VALUE...
 *   frame_end
 * Columns in the backend's metric order (apitrace's), times in ns from the pass start. */
typedef struct metrics metrics;
typedef enum metrics_boundary {
    METRICS_DRAWCALL = 0, /* apitrace's QUERY_BOUNDARY_DRAWCALL, FRAME, CALL */
    METRICS_FRAME,
    METRICS_CALL,
    METRICS_BOUNDARIES,
} metrics_boundary;

/* A new, empty selection; NULL when out of memory. */
metrics *metrics_new(void);
void metrics_free(metrics *mx);
/* Adds METRICS (apitrace's syntax) for boundary B; names are resolved against the
 * first context (warnings then, as apitrace's). 0, or -1 with err set (out of memory). */
int metrics_add(metrics *mx, metrics_boundary b, const char *spec, gt_error *err);
/* --list-metrics: at the first context, print the metrics it offers and stop. */
void metrics_set_list(metrics *mx);
/* --gen-passes: at the first context, print the number of passes and stop. */
void metrics_set_gen_passes(metrics *mx);

/* Passes over the trace (1 until the first context was seen). */
unsigned metrics_passes(const metrics *mx);
/* Before each replay of the trace: pass number, from 0. */
void metrics_begin_pass(metrics *mx, unsigned pass);
/* Whether the replay is to stop (list or passes printed). */
bool metrics_done(const metrics *mx);
/* After the last pass: the blocks above. 0, or -1 when writing failed. */
int metrics_write(metrics *mx, FILE *out);

/* The replayer as a loadable module (libgltrace_replay.so, retrace/replay_module.c):
 * the gltrace command loads it only when it replays (convert, dump-images), so its
 * other commands do not load SDL2, libepoxy and what they pull in (sound, Wayland,
 * D-Bus...). */
#define REPLAY_API_VERSION 3
typedef struct replay_api {
    unsigned version; /* REPLAY_API_VERSION: the module and its user were built together */
    void (*options_init)(replay_options *o, const char *trace);
    int (*run)(const replay_options *o, replay_result *res, gt_error *err);
} replay_api;
#define REPLAY_API_SYMBOL "gltrace_replay_api"

#endif
