#define _GNU_SOURCE
#include "record_frames.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gt_capture_plan.h"
#include "gt_frameranges.h"

/* The variables the library reads stand for the options not given (as GLTRACE_OUTPUT
 * for -o): they are checked here like the options, then passed on. */
static void from_environment(record_frames *f)
{
    const char *frames = getenv("GLTRACE_FRAMES"), *trigger = getenv("GLTRACE_TRIGGER");
    const char *quit = getenv("GLTRACE_QUIT_AFTER");
    if (!f->frames && frames && *frames)
        f->frames = frames;
    if (!f->trigger && trigger && *trigger)
        f->trigger = trigger;
    if (!f->quit_after && quit && !strcmp(quit, "1"))
        f->quit_after = 1;
}

int record_frames_check(record_frames *f)
{
    from_environment(f);
    if (!f->frames && !f->trigger) {
        if (f->quit_after) {
            fprintf(stderr, "gltrace: --quit-after needs --frames\n");
            return -1;
        }
        return 0;
    }
    if (f->trigger) {
        f->trigger_sig = gt_capture_signal(f->trigger);
        if (!f->trigger_sig || f->trigger_sig == SIGKILL || f->trigger_sig == SIGSTOP) {
            fprintf(stderr, "gltrace: --trigger=%s: not a signal a program can take "
                            "(SIGUSR2, USR2 or a number)\n", f->trigger);
            return -1;
        }
    }
    gt_frameranges r = {0};
    gt_capture_plan plan;
    gt_error err;
    gt_error_clear(&err);
    if ((f->frames && gt_frameranges_parse(f->frames, &r, &err) != 0) ||
        gt_capture_init(&plan, &r, f->trigger != NULL, &err) != 0) {
        fprintf(stderr, "gltrace: --frames: %s\n", err.msg);
        return -1;
    }
    if (f->quit_after && f->trigger) {
        fprintf(stderr, "gltrace: --quit-after takes numbered --frames, not a trigger\n");
        return -1;
    }
    return 0;
}

int record_frames_env(const record_frames *f)
{
    if (!f->frames && !f->trigger)
        return unsetenv("GLTRACE_FRAMES") | unsetenv("GLTRACE_TRIGGER") |
               unsetenv("GLTRACE_QUIT_AFTER");
    char sig[16];
    snprintf(sig, sizeof sig, "%d", f->trigger_sig);
    return (f->frames ? setenv("GLTRACE_FRAMES", f->frames, 1) : unsetenv("GLTRACE_FRAMES")) |
           (f->trigger ? setenv("GLTRACE_TRIGGER", sig, 1) : unsetenv("GLTRACE_TRIGGER")) |
           (f->quit_after ? setenv("GLTRACE_QUIT_AFTER", "1", 1) : unsetenv("GLTRACE_QUIT_AFTER"));
}

void record_frames_announce(const record_frames *f, int program_pid)
{
    if (!f->trigger)
        return;
    fprintf(stderr, "gltrace: send SIG%s to %d (the program) or %d (gltrace) to start "
                    "recording at the next frame%s\n",
            sigabbrev_np(f->trigger_sig), program_pid, (int)getpid(),
            f->frames ? "" : ", and again to stop");
}
