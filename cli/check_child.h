/* One replay of gltrace check, in the child process check_run.c made for it. */
#ifndef CHECK_CHILD_H
#define CHECK_CHILD_H

/* What the child does; its stdout and stderr already go to the trace's log. */
typedef struct check_child_job {
    const char *trace;  /* the trace file */
    const char *prefix; /* snapshots are PREFIX%010u.png */
    const char *calls;  /* the calls to snapshot; NULL: the last frame-ending call */
    /* profile: run this glretrace with piglit's profiling command line instead */
    const char *glretrace;
    long loops;
} check_child_job;

/* Exit statuses of a snapshot child besides 0 (the images were written) */
enum { CHECK_CHILD_FAILED = 1, CHECK_CHILD_NO_FRAME = 3 };

/* Runs the job and exits the process with its status; never returns. */
void check_child_main(const check_child_job *j) __attribute__((noreturn));

#endif
