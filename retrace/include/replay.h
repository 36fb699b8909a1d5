/* The replayer as a library (glretrace_core): replays an apitrace-format trace in this
 * process, on SDL2 windows and contexts with libepoxy's GL dispatch, with glretrace's
 * checks, snapshots and timings. glretrace (glretrace_main.c: its options), `gltrace
 * convert` (a .trace input timed into a timeline) and the unit tests call it.
 *
 * One replay at a time in a process: SDL, the GL contexts and the replayer's maps are
 * process-wide. replay_run starts from nothing and frees everything it made before it
 * returns, so replays may follow one another. */
#ifndef RETRACE_REPLAY_H
#define RETRACE_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

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
    bool threads; /* each traced thread's calls on a thread of its own (replay_workers.h) */
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
    /* timings (timeline_replay.h): the CPU and GPU time of each call, written as
     * timelines (FXT, Chrome JSON; either implies pcpu) or as apitrace's text profile on
     * stdout (text_profile; pcpu or pgpu without a timeline file imply it) */
    bool pcpu, pgpu, text_profile;
    bool pframe_times; /* the text profile with "rendering_finished NS" after each frame end */
    int64_t min_cpu_ns; /* text profile: calls faster than this are left out */
    const char *fxt_path, *chrome_path;
    /* -D: the GL state after the first call numbered dump_state_call or later that
     * leaves a context current, as apitrace's JSON on stdout; the replay stops there */
    bool dump_state;
    uint64_t dump_state_call;
    bool dump_state_frame; /* instead: after the first frame's last call (its swap) */
    /* --state-server (state_server.h): the state at each call number read from stdin */
    bool state_server;
    /* apitrace's metrics (--pframes, --pcalls, --pdrawcalls, --list-metrics,
     * --gen-passes: metrics.h); NULL: none. The caller runs one replay per pass and
     * writes them; the replay runs every traced thread on one thread with them. */
    struct metrics *metrics;
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
 * inside glBegin/glEnd (where GL state cannot be read), is an error. Warnings about calls go to stderr as apitrace words them (not
 * with benchmark). Returns 0, or -1 with err set when the trace cannot be opened or
 * read to its end, the window system cannot start, or a timeline output fails; res
 * (may be NULL) holds what was replayed either way. */
int replay_run(const replay_options *o, replay_result *res, gt_error *err);

/* The replayer as a loadable module (libgltrace_replay.so, replay_module.c): the gltrace
 * command loads it only when it replays (convert, dump-images), so its other commands do
 * not load SDL2, libepoxy and what they pull in (sound, Wayland, D-Bus...). */
#define REPLAY_API_VERSION 2
typedef struct replay_api {
    unsigned version; /* REPLAY_API_VERSION: the module and its user were built together */
    void (*options_init)(replay_options *o, const char *trace);
    int (*run)(const replay_options *o, replay_result *res, gt_error *err);
} replay_api;
#define REPLAY_API_SYMBOL "gltrace_replay_api"

#endif
