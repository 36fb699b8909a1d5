/* gltrace check's replays: each trace in a child process of its own (so a replay that
 * crashes, hangs past the timeout or runs out of memory is that trace's failure and
 * the run goes on), up to `jobs` at a time. A child replays headless with the
 * replayer module (as dump-images) and snapshots the trace's last frame-ending call
 * (the call piglit finds with `apitrace dump --calls=frame`) or the calls asked for;
 * the parent computes the checksum of the image as piglit does: the MD5 of the decoded
 * pixels, RGB rows or RGBA rows as the PNG holds them (PIL's Image.tobytes()).
 * With profile, the child runs our glretrace with piglit's profiling command line
 * instead and the parent reads its frame times. */
#ifndef CHECK_RUN_H
#define CHECK_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "check_yaml.h"
#include "gt_error.h"

typedef enum check_verdict { CHECK_PASS, CHECK_FAIL, CHECK_SKIP } check_verdict;

typedef struct check_frames {
    size_t n;                      /* frame times read (the last `loops`) */
    double median, mean, min, max; /* ms */
} check_frames;

typedef struct check_result {
    check_verdict verdict;
    char *why;    /* fail or skip: why, one line; NULL on a pass */
    char *actual; /* the checksum computed; NULL when there is none */
    char *image;  /* the rendered image (kept for a failure or --keep-images), or NULL */
    char *log;    /* the replay's stdout and stderr, kept beside a failure, or NULL */
    double secs;  /* wall-clock time of the replay */
    bool sum_differs; /* failed only because the checksum differs (or is missing) */
    check_frames frames;
} check_result;

typedef struct check_opts {
    const char *device;
    const char *db_path;    /* trace paths are relative to it; NULL: as written */
    const char *out_dir;    /* images and logs: OUT/trace/DEVICE/PATH's folder/ */
    const char *calls;      /* --calls; NULL: the last frame-ending call */
    unsigned jobs;          /* at least 1 */
    unsigned timeout;       /* seconds per replay; 0: none */
    bool keep_images;
    bool profile;
    long loops;             /* --profile: --loop=N, and the last N frame times */
    bool progress;          /* a line per finished trace on stderr */
} check_opts;

/* Runs the n traces l->t[idx[i]] and fills res[i] (zeroed first). Returns 0, or -1
 * with err set when the run itself cannot go on (no child process can be made, out
 * of memory); a trace's own trouble is only its result. */
int check_run_all(const check_list *l, const size_t *idx, size_t n, const check_opts *o,
                  check_result *res, gt_error *err);
void check_result_free(check_result *r);

/* The checksum piglit computes of a PNG file: 32 lower-case hex digits into hex[33].
 * 0, or -1 with err set. */
int check_png_checksum(const char *png, char hex[33], gt_error *err);

#endif
