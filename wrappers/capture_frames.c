/* Frame ranges and triggers at record time: GLTRACE_FRAMES ("A-B,C-D", "+N"; see
 * gt_frameranges.h), GLTRACE_TRIGGER (a signal, "SIGUSR2" or its number: the first
 * starts writing at the next frame boundary, the second stops it) and
 * GLTRACE_QUIT_AFTER=1 (the program exits once the last range is written), as the
 * launcher's --frames, --trigger and --quit-after set them.
 *
 * Frames are counted on the first thread that ends one (its swaps or frame
 * terminators: END_FRAME in specs/callflags.txt); the generated wrappers of those
 * functions call gltrace_frame_end after the real call, recorded or not. At each
 * boundary gt_capture_plan.h decides; runtime_writer.c ends the range's trace (after
 * its last swap) and opens the next one's ("<stem>.A-B.trace"). Frames of other
 * threads are written while a range is, not counted. */
#define _GNU_SOURCE
#include "capture_frames.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltrace_runtime.h"
#include "gt_capture_plan.h"
#include "runtime_private.h"

static int g_on;
static gt_capture_plan g_plan;
static int g_quit_after;
static _Atomic uint32_t g_frame_thread = UINT32_MAX;
static uint64_t g_frames;                  /* frames ended, on the frame thread */
static _Atomic unsigned g_triggers;        /* signals received */
static unsigned g_triggers_seen;

static void (*g_on_start)(unsigned long long first);
static int (*g_snapshot)(const char *range, unsigned long long first);

int gltrace_capture_on(void) { return g_on; }

void gltrace_capture_on_range_start(void (*fn)(unsigned long long first)) { g_on_start = fn; }

void gltrace_capture_set_snapshot(int (*fn)(const char *range, unsigned long long first))
{
    g_snapshot = fn;
}

static void range_name(char *name, size_t size)
{
    if (g_plan.last == GT_CAPTURE_OPEN_END)
        snprintf(name, size, "%llu-", (unsigned long long)g_plan.first);
    else
        snprintf(name, size, "%llu-%llu", (unsigned long long)g_plan.first,
                 (unsigned long long)g_plan.last);
}

int gltrace_capture_first(char *name, size_t size)
{
    if (!(gt_capture_begin(&g_plan) & GT_CAPTURE_START))
        return 0;
    range_name(name, size);
    return 1;
}

void gltrace_frame_end(void)
{
    if (__builtin_expect(!g_on, 1))
        return;
    uint32_t self = gltrace_thread_no(), none = UINT32_MAX;
    if (!atomic_compare_exchange_strong(&g_frame_thread, &none, self) && none != self)
        return;
    unsigned t = atomic_load(&g_triggers);
    int triggered = t != g_triggers_seen;
    g_triggers_seen = t;
    char name[64];
    range_name(name, sizeof name);
    uint64_t ended = g_frames++;
    unsigned act = gt_capture_frame_end(&g_plan, ended, triggered);
    if (act & GT_CAPTURE_STOP) {
        /* an open range ("A-") is named for the frame that ended it */
        char *dash = strchr(name, '-');
        if (dash && !dash[1])
            snprintf(dash + 1, sizeof name - (size_t)(dash + 1 - name), "%llu",
                     (unsigned long long)ended);
        gltrace_writer_end_range(name);
    }
    if (act & GT_CAPTURE_START) {
        if (g_on_start)
            g_on_start(g_plan.first);
        range_name(name, sizeof name);
        if (g_snapshot)
            g_snapshot(name, g_plan.first);
    }
    if (g_quit_after && (act & GT_CAPTURE_STOP) && gt_capture_done(&g_plan)) {
        fprintf(stderr, "gltrace: the last frame range is written: the program exits "
                        "(--quit-after)\n");
        exit(0);
    }
}

static void on_trigger(int sig)
{
    (void)sig;
    atomic_fetch_add(&g_triggers, 1);
}

static int install_trigger(const char *name)
{
    int sig = gt_capture_signal(name);
    if (!sig || sig == SIGKILL || sig == SIGSTOP) {
        fprintf(stderr, "gltrace: GLTRACE_TRIGGER=%s: not a signal a program can take; "
                        "recording nothing\n", name);
        return 0;
    }
    struct sigaction sa = {0};
    sa.sa_handler = on_trigger;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    return sigaction(sig, &sa, NULL) == 0;
}

/* before the other constructors (priority 101): the object tracker asks gltrace_capture_on */
__attribute__((constructor(101))) static void capture_init(void)
{
    const char *frames = getenv("GLTRACE_FRAMES"), *trigger = getenv("GLTRACE_TRIGGER");
    const char *quit = getenv("GLTRACE_QUIT_AFTER");
    if ((!frames || !*frames) && (!trigger || !*trigger))
        return;
    gt_frameranges ranges = {0};
    gt_error err;
    gt_error_clear(&err);
    if (frames && *frames && gt_frameranges_parse(frames, &ranges, &err) != 0) {
        fprintf(stderr, "gltrace: GLTRACE_FRAMES: %s; recording nothing\n", err.msg);
    } else if (gt_capture_init(&g_plan, &ranges, trigger && *trigger, &err) != 0) {
        fprintf(stderr, "gltrace: GLTRACE_FRAMES: %s; recording nothing\n", err.msg);
    } else if (!trigger || !*trigger || install_trigger(trigger)) {
        g_quit_after = quit && !strcmp(quit, "1");
        g_on = 1;
        return;
    }
    /* a bad request records nothing rather than everything: the program is not slowed
     * down for a trace the user did not ask for */
    g_plan = (gt_capture_plan){.by_trigger = 1};
    g_on = 1;
}
