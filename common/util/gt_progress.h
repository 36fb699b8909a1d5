/* Progress on stderr for long jobs, only when stderr is a terminal (and, for tools
 * that write data to stdout, only when stdout is not the same terminal). */
#ifndef GT_PROGRESS_H
#define GT_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct gt_progress {
    bool enabled;
    const char *label;
    uint64_t total;    /* units of done (bytes of input) */
    uint64_t frames;   /* shown when nonzero: replays set it as frames end */
    const char *unit;  /* what `calls` counts: "calls" unless set after start */
    double started, last;
} gt_progress;

/* quiet_if_stdout_tty: true for tools whose data goes to stdout. */
void gt_progress_start(gt_progress *p, const char *label, uint64_t total, bool quiet_if_stdout_tty);
/* Cheap to call often: redraws at most four times a second. Without a total (0),
 * no percentage is shown. */
void gt_progress_update(gt_progress *p, uint64_t done, uint64_t calls);
/* Clears the line. */
void gt_progress_end(gt_progress *p);

#endif
