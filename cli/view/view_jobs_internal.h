/* The parts of gltrace view's replay jobs (view_jobs.c: processes, the job table, the
 * answers about jobs; view_replays.c: thumbnails and the timeline; view_state.c: the
 * warm state server; view_diff.c: image comparison) share these. Internal to cli/view. */
#ifndef VIEW_JOBS_INTERNAL_H
#define VIEW_JOBS_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <sys/types.h>

#include "view.h"

typedef struct state_held state_held; /* view_state.c */

typedef enum { JOB_THUMBS, JOB_TIMELINE, JOB_STATE, JOB_DIFF } job_kind;
typedef enum { JOB_RUNNING, JOB_DONE, JOB_FAILED } job_state;

typedef struct view_job {
    unsigned id;
    job_kind kind;
    job_state state;
    uint32_t want;     /* state: the call asked for */
    uint32_t at;       /* where the replay is */
    uint32_t dumped;   /* state: the call dumped */
    char *result;      /* state, diff: the JSON */
    size_t result_len;
    char error[GT_ERROR_MAX];
    /* diff: the prefixes (as resolved), its replay's pid (0: none), its thread;
     * want/at count the images to copy and copied */
    char *ref, *src;
    /* timeline of frames lo..hi (api/timeline?frames=): has_range; its file's name in
     * ref ("timeline-LO-HI.json") */
    bool has_range;
    uint32_t frame_lo, frame_hi;
    /* state: who asked (api/state's client=, "" when not given): a newer request of the
     * same client supersedes this one while it waits; superseded says so; taken: the
     * state thread works on it; asked_ns: when (CLOCK_MONOTONIC); from: where the replay
     * that answered started (0: a new process from the trace's start); how: "warm" (the
     * warm replay went forward), "held" (the replay held at a frame's start), "start" */
    char client[48];
    bool superseded, taken;
    int64_t asked_ns;
    uint32_t from;
    const char *how;
    view_server *v;
    pid_t pid;
    pthread_t thread;
    bool has_thread;
} view_job;

struct view_jobs {
    pthread_mutex_t lock;
    pthread_cond_t cond; /* the state queue grew, or stopping */
    view_job **jobs;
    size_t njobs, cap;
    /* children, 0 when none; cleared under lock before their reaping so that a kill
     * never reaches a reused pid */
    pid_t thumbs_pid, timeline_pid, state_pid;
    pid_t held_pid;        /* view_state.c's second replay, held at a frame's start */
    pthread_t thumbs_thread, timeline_thread, state_thread;
    bool thumbs_started, timeline_started, state_started;
    unsigned timeline_job; /* the timeline job's id, 0 when none */
    int timeline_nice;     /* the niceness the timeline job's replay runs at */
    unsigned thumbs_job;
    /* thumbnails asked for (api/thumb of a frame not made): frames want_lo..want_hi,
     * asked last at want_ns, want_gen counting the changes; one replay at a time makes
     * them (view_replays.c), frames run_lo..run_hi, its pid in asked_pid */
    uint32_t want_lo, want_hi, run_lo, run_hi;
    int64_t want_ns;
    unsigned want_gen;
    pid_t asked_pid;
    pthread_t asked_thread;
    bool asked_started;
    bool timeline_skipped; /* the trace is too long for a timeline of every frame */
    bool thumbs_full; /* the replay in order was stopped at the thumbnails' budget */
    int has_state_server; /* -1 not known yet */
    state_held *held;     /* view_state.c's held replay, made with the first state request */
};

/* Forks argv[0] with stdin/stdout/stderr from the fds (-1: /dev/null) at the given
 * niceness, in a process group of its own, in the folder cwd_fd (-1: ours). Returns the
 * pid, or -1 with err. vj_spawn: in our folder. */
pid_t vj_spawn_in(char *const argv[], int cwd_fd, int in, int out, int errfd,
                  int niceness, gt_error *err);
pid_t vj_spawn(char *const argv[], int in, int out, int errfd, int niceness, gt_error *err);
/* Waits for the child *slot names, clears the slot (under the lock) before reaping it,
 * and returns its wait status. */
int vj_reap(view_server *v, pid_t *slot, pid_t pid);
/* How a child ended, in words, naming its log; vj_describe_status: glretrace's. */
void vj_describe_exit(char *buf, size_t size, const char *what, int st, const char *log);
void vj_describe_status(char *buf, size_t size, int st, const char *log);
/* Runs argv for job in the cache's folder, its pid in *slot while it runs (started under the lock: the
 * server's stop either sees the pid or stops us first), stderr to logfd (closed here),
 * and waits for it: its wait status, or -1 when it could not start (the job failed). */
int vj_run_child(view_server *v, view_job *job, char *const argv[], int logfd, int niceness,
                 pid_t *slot);
/* A log file in the cache for a child's messages; -1 (then /dev/null) without a cache. */
int vj_open_log(view_server *v, const char *name, char *path, size_t size);
/* The job table (see view_jobs.c for the locking). */
view_job *vj_new_job(view_jobs *j, job_kind kind);
view_job *vj_find_job(view_jobs *j, unsigned id);
void vj_fail_job(view_server *v, view_job *job, const char *msg);
/* Under the lock: runs FN(ARG) on a new thread for JOB (THREAD gets its handle); a
 * thread that cannot start fails JOB. Whether it started. */
bool vj_start_thread(view_job *job, pthread_t *thread, void *(*fn)(void *), void *arg);
/* Under the lock: answers {"job": N} for JOB and unlocks; 200. */
int vj_reply_job(view_jobs *j, view_job *job, gt_strbuf *out);
/* api/thumb found no thumbnail for index frame f: it is made ahead of the others. */
void vj_thumb_wanted(view_server *v, uint32_t f);
/* view_thumbcache.c: the thumbnails' budget in bytes (256 MiB, or
 * $GLTRACE_VIEW_THUMBS_MAX), and the least recently used thumbnails removed while the
 * folder holds more than budget (down to 3/4 of it); *total: the bytes left. 1 when some
 * were removed, 0 when none, -1 when the folder could not be read. */
uint64_t vj_thumbs_budget(void);
int vj_thumbs_prune(view_server *v, uint64_t budget, uint64_t *total);
/* Where view_state.c's held replay stands, ready to be taken (under the lock): the
 * call asked of it, or -1 when it is moving or there is none. */
int64_t vj_held_at(view_jobs *j);
/* The answer when no glretrace was found to replay with. */
int vj_no_replay(view_server *v, gt_strbuf *out);

#endif
