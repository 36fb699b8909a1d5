#include "gt_progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void gt_progress_start(gt_progress *p, const char *label, uint64_t total, bool quiet_if_stdout_tty)
{
    p->enabled = isatty(STDERR_FILENO) && !(quiet_if_stdout_tty && isatty(STDOUT_FILENO));
    p->label = label;
    p->total = total;
    p->frames = 0;
    p->unit = "calls";
    p->started = p->last = p->enabled ? now() : 0;
}

void gt_progress_update(gt_progress *p, uint64_t done, uint64_t calls)
{
    if (!p->enabled || (calls & 1023))
        return; /* look at the clock once per 1024 calls */
    double t = now();
    if (t - p->last < 0.25)
        return;
    p->last = t;
    double pct = p->total ? 100.0 * (double)done / (double)p->total : 0;
    double rate = t > p->started ? (double)calls / (t - p->started) : 0;
    if (!p->total)
        fprintf(stderr, "\r%s: %llu %s  %.2f M %s/s ", p->label, (unsigned long long)calls, p->unit,
                rate / 1e6, p->unit);
    else if (p->frames)
        fprintf(stderr, "\r%s: %5.1f%%  %llu frames  %llu calls  %.2f M calls/s ", p->label, pct,
                (unsigned long long)p->frames, (unsigned long long)calls, rate / 1e6);
    else
        fprintf(stderr, "\r%s: %5.1f%%  %llu calls  %.2f M calls/s ", p->label, pct,
                (unsigned long long)calls, rate / 1e6);
}

void gt_progress_end(gt_progress *p)
{
    if (p->enabled && p->last > p->started)
        fputs("\r\033[K", stderr);
}
