/* gltrace view's replays: glretrace subprocesses, each watched by a thread of its own.
 *   thumbnails  one replay at startup, niced, snapshotting every frame's end into
 *               the cache (thumbs/NNNNNNNNNN.png, the swap's call number, at most
 *               640 px), resumed at the first frame missing; frames asked for by
 *               api/thumb made first by a replay of their own; the folder kept to a
 *               budget (view_thumbcache.c)
 *   timeline    a timed replay writing Chrome JSON into the cache: started niced once
 *               the thumbnails are made (for the frames' CPU and GPU times, read from
 *               it; traces up to 1M calls), or earlier on request; kept for the same
 *               trace (timeline.done); api/timeline?frames=A-B: of those frames only
 *   state       `glretrace --state-server`, kept warm: call numbers in, -D JSON out;
 *               a client's newer request supersedes its waiting ones; a second one
 *               held at the start of the last request's frame answers a call behind
 *   diff        on request: `gltrace diff-images` on copies of two prefixes' images in
 *               the cache (diff-N/ref/, diff-N/src/, the report diff-N/index.html), so
 *               that its difference images land there and the report's links stay
 *               inside the folder served
 * Every child runs in a process group of its own, so that stopping the server kills
 * whatever it started, and is reaped by the thread that started it. */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gt_grow.h"
#include "gt_json.h"
#include "image_files.h"
#include "view.h"
#include "view_jobs_internal.h"

/* ---- processes ------------------------------------------------------------------------- */

/* Forks argv[0] with stdin/stdout/stderr from the fds (-1: /dev/null) at the given
 * niceness, in a process group of its own, in the folder cwd_fd (-1: ours). Returns the
 * pid, or -1 with err. */
pid_t vj_spawn_in(char *const argv[], int cwd_fd, int in, int out, int errfd,
                  int niceness, gt_error *err)
{
    int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (devnull < 0) {
        gt_error_set(err, "cannot open /dev/null: %s", strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        gt_error_set(err, "cannot start %s: %s", argv[0], strerror(errno));
        close(devnull);
        return -1;
    }
    if (pid == 0) {
        /* only async-signal-safe calls until exec: we are a copy of a threaded process */
        setpgid(0, 0);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL); /* the server blocks SIGINT/SIGTERM */
        signal(SIGPIPE, SIG_DFL);
        dup2(in >= 0 ? in : devnull, 0);
        dup2(out >= 0 ? out : devnull, 1);
        dup2(errfd >= 0 ? errfd : devnull, 2);
        if (niceness)
            (void)!nice(niceness);
        if (cwd_fd >= 0 && fchdir(cwd_fd) != 0)
            _exit(127);
        execv(argv[0], argv);
        _exit(127);
    }
    setpgid(pid, pid); /* also here: either may run first */
    close(devnull);
    return pid;
}

pid_t vj_spawn(char *const argv[], int in, int out, int errfd, int niceness, gt_error *err)
{
    return vj_spawn_in(argv, -1, in, out, errfd, niceness, err);
}

/* Waits for the child *slot names, clears the slot (under the lock) before reaping it,
 * and returns its wait status. */
int vj_reap(view_server *v, pid_t *slot, pid_t pid)
{
    siginfo_t si;
    while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0 && errno == EINTR)
        ;
    pthread_mutex_lock(&v->jobs->lock);
    *slot = 0;
    pthread_mutex_unlock(&v->jobs->lock);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    return st;
}

void vj_describe_exit(char *buf, size_t size, const char *what, int st, const char *log)
{
    if (WIFEXITED(st))
        snprintf(buf, size, "%s exited with status %d%s%.400s", what, WEXITSTATUS(st),
                 log ? "; see " : "", log ? log : "");
    else
        snprintf(buf, size, "%s was killed by signal %d%s%.400s", what, WTERMSIG(st),
                 log ? "; see " : "", log ? log : "");
}

void vj_describe_status(char *buf, size_t size, int st, const char *log)
{
    vj_describe_exit(buf, size, "glretrace", st, log);
}

int vj_run_child(view_server *v, view_job *job, char *const argv[], int logfd, int niceness,
                 pid_t *slot)
{
    view_jobs *j = v->jobs;
    gt_error err;
    gt_error_clear(&err);
    pthread_mutex_lock(&j->lock);
    /* in the cache's folder: its outputs are named relative to it */
    pid_t pid = atomic_load(&v->stopping)
                    ? -1
                    : vj_spawn_in(argv, v->cache_fd, -1, -1, logfd, niceness, &err);
    if (pid > 0)
        *slot = pid;
    pthread_mutex_unlock(&j->lock);
    if (logfd >= 0)
        close(logfd);
    if (pid < 0) {
        vj_fail_job(v, job, err.set ? err.msg : "stopped");
        return -1;
    }
    return vj_reap(v, slot, pid);
}

/* A log file in the cache for a child's messages; -1 (then /dev/null) without a cache. */
int vj_open_log(view_server *v, const char *name, char *path, size_t size)
{
    return view_cache_log(v, name, path, size);
}

/* ---- the job table ---------------------------------------------------------------------- */

/* A new job (under the lock); NULL when memory runs out. */
view_job *vj_new_job(view_jobs *j, job_kind kind)
{
    if (GT_GROW(j->jobs, j->cap, j->njobs + 1, 16) < 0)
        return NULL;
    view_job *job = calloc(1, sizeof *job);
    if (!job)
        return NULL;
    job->id = (unsigned)j->njobs + 1;
    job->kind = kind;
    job->state = JOB_RUNNING;
    j->jobs[j->njobs++] = job;
    return job;
}

view_job *vj_find_job(view_jobs *j, unsigned id)
{
    return id >= 1 && id <= j->njobs ? j->jobs[id - 1] : NULL;
}

bool vj_start_thread(view_job *job, pthread_t *thread, void *(*fn)(void *), void *arg)
{
    if (pthread_create(thread, NULL, fn, arg) == 0)
        return true;
    job->state = JOB_FAILED;
    snprintf(job->error, sizeof job->error, "cannot start a thread");
    return false;
}

int vj_reply_job(view_jobs *j, view_job *job, gt_strbuf *out)
{
    gt_strbuf_printf(out, "{\"job\": %u}\n", job->id);
    pthread_mutex_unlock(&j->lock);
    return 200;
}

void vj_fail_job(view_server *v, view_job *job, const char *msg)
{
    pthread_mutex_lock(&v->jobs->lock);
    job->state = JOB_FAILED;
    snprintf(job->error, sizeof job->error, "%s", msg);
    pthread_mutex_unlock(&v->jobs->lock);
}

int view_jobs_init(view_server *v, gt_error *err)
{
    view_jobs *j = calloc(1, sizeof *j);
    if (!j) {
        gt_error_set(err, "out of memory");
        return -1;
    }
    pthread_mutex_init(&j->lock, NULL);
    pthread_cond_init(&j->cond, NULL);
    j->has_state_server = -1;
    v->jobs = j;
    return 0;
}


/* ---- job answers ------------------------------------------------------------------------ */

static size_t count_thumbs(view_server *v)
{
    size_t n = 0;
    for (size_t f = 0; f < v->ix->nframes; ++f)
        if (v->ix->frames[f].complete)
            n += view_thumb_exists(v, v->ix->frames[f].last_no);
    return n;
}

static view_job *lookup(view_server *v, const char *id_s, gt_strbuf *out)
{
    uint64_t id;
    if (!id_s) {
        view_json_error(out, "id= is missing");
        return NULL;
    }
    if (view_arg_u64("id", id_s, 0, UINT32_MAX, &id, out) < 0)
        return NULL;
    view_job *job = vj_find_job(v->jobs, (unsigned)id);
    if (!job) {
        char msg[128];
        snprintf(msg, sizeof msg, "no job %llu", (unsigned long long)id);
        view_json_error(out, msg);
    }
    return job;
}

int view_api_job(view_server *v, const char *id_s, gt_strbuf *out)
{
    view_jobs *j = v->jobs;
    pthread_mutex_lock(&j->lock);
    view_job *job = lookup(v, id_s, out);
    if (!job) {
        pthread_mutex_unlock(&j->lock);
        return 400;
    }
    view_job copy = *job;
    int64_t held = vj_held_at(j);
    pthread_mutex_unlock(&j->lock);
    static const char *const kinds[] = {"thumbs", "timeline", "state", "diff"};
    const char *kind = kinds[copy.kind];
    if (copy.state == JOB_RUNNING) {
        double progress = 0;
        if (copy.kind == JOB_STATE && copy.want)
            progress = (double)copy.at / copy.want;
        else if (copy.kind == JOB_THUMBS && v->ix->frames_count)
            progress = (double)count_thumbs(v) / (double)v->ix->frames_count;
        else if (copy.kind == JOB_DIFF && copy.want) /* copying, then diff-images */
            progress = copy.at < copy.want ? 0.5 * copy.at / copy.want : 0.5;
        if (progress > 1)
            progress = 1;
        gt_strbuf_printf(out, "{\"state\": \"running\", \"kind\": \"%s\", \"progress\": %.3f, "
                         "\"call\": %u}\n", kind, progress, copy.at);
    } else if (copy.state == JOB_DONE) {
        gt_strbuf_printf(out, "{\"state\": \"done\", \"kind\": \"%s\", \"result\": ", kind);
        if (copy.kind == JOB_THUMBS)
            gt_strbuf_puts(out, "null");
        else
            gt_strbuf_printf(out, "\"api/result?job=%u\"", copy.id);
        if (copy.kind == JOB_STATE)
            gt_strbuf_printf(out, ", \"call\": %u, \"from\": %u, \"replay\": \"%s\"",
                             copy.dumped, copy.from, copy.how ? copy.how : "warm");
        if (copy.kind == JOB_STATE && held >= 0)
            gt_strbuf_printf(out, ", \"held\": %lld", (long long)held);
        else if (copy.kind == JOB_STATE)
            gt_strbuf_puts(out, ", \"held\": null");
        gt_strbuf_puts(out, "}\n");
    } else {
        gt_strbuf_printf(out, "{\"state\": \"failed\", \"kind\": \"%s\", \"error\": ", kind);
        gt_json_string(out, copy.error, strlen(copy.error));
        gt_strbuf_puts(out, copy.superseded ? ", \"superseded\": true}\n" : "}\n");
    }
    return 200;
}

int view_api_result(view_server *v, const char *id_s, int *fd, gt_strbuf *body,
                    const char **ctype, const char **attachment)
{
    view_jobs *j = v->jobs;
    *fd = -1;
    *attachment = NULL;
    *ctype = "application/json";
    pthread_mutex_lock(&j->lock);
    view_job *job = lookup(v, id_s, body);
    int status = 400;
    if (job && job->state != JOB_DONE) {
        view_json_error(body, job->state == JOB_FAILED ? job->error : "the job is still running");
        status = job->state == JOB_FAILED ? 500 : 404;
    } else if (job && (job->kind == JOB_STATE || job->kind == JOB_DIFF)) {
        gt_json_verbatim(body, job->result, job->result_len);
        status = body->oom ? 500 : 200;
    } else if (job && job->kind == JOB_TIMELINE) {
        const char *name = job->ref ? job->ref : "timeline.json";
        if ((*fd = view_cache_open(v->cache_fd, name)) >= 0) {
            *attachment = name;
            status = 200;
        } else {
            view_json_error(body, "the timeline's file is gone from the cache");
            status = 404;
        }
    } else if (job) {
        view_json_error(body, "this job has no result");
        status = 404;
    }
    pthread_mutex_unlock(&j->lock);
    return status;
}

int view_api_thumb(view_server *v, const char *frame_s, int *fd, gt_strbuf *body)
{
    uint64_t f;
    *fd = -1;
    if (!v->ix) {
        view_json_error(body, v->ix_error);
        return 500;
    }
    if (!frame_s) {
        view_json_error(body, "frame= is missing");
        return 400;
    }
    if (view_arg_u64("frame", frame_s, 0, UINT64_MAX, &f, body) < 0)
        return 400;
    if (f >= v->ix->nframes) {
        char msg[GT_ERROR_MAX];
        snprintf(msg, sizeof msg, "frame %llu is past the end of %s (%zu frames)",
                 (unsigned long long)f, v->trace, v->ix->nframes);
        view_json_error(body, msg);
        return 400;
    }
    uint32_t no = v->ix->frames[f].last_no;
    if (!view_thumb_exists(v, no)) {
        if (v->ix->frames[f].complete)
            vj_thumb_wanted(v, (uint32_t)f);
        view_json_error(body, "no thumbnail for this frame yet");
        return 404;
    }
    char name[32];
    snprintf(name, sizeof name, "%010u.png", no);
    if ((*fd = view_cache_open(v->thumbs_fd, name)) < 0) {
        view_json_error(body, "no thumbnail for this frame yet");
        return 404;
    }
    futimens(*fd, NULL); /* used now: the last to go when the folder is over its budget */
    return 200;
}

void view_jobs_stop(view_server *v)
{
    view_jobs *j = v->jobs;
    if (!j)
        return;
    atomic_store(&v->stopping, true);
    pthread_mutex_lock(&j->lock);
    pid_t pids[] = {j->thumbs_pid, j->timeline_pid, j->state_pid, j->held_pid, j->asked_pid};
    for (size_t i = 0; i < sizeof pids / sizeof *pids; ++i)
        if (pids[i] > 0)
            kill(-pids[i], SIGKILL); /* the whole group: glretrace and anything it runs */
    for (size_t i = 0; i < j->njobs; ++i)
        if (j->jobs[i]->pid > 0)
            kill(-j->jobs[i]->pid, SIGKILL);
    pthread_cond_broadcast(&j->cond);
    pthread_mutex_unlock(&j->lock);
    /* each thread reaps its own child */
    if (j->thumbs_started)
        pthread_join(j->thumbs_thread, NULL);
    if (j->timeline_started)
        pthread_join(j->timeline_thread, NULL);
    if (j->state_started)
        pthread_join(j->state_thread, NULL);
    if (j->asked_started)
        pthread_join(j->asked_thread, NULL);
    /* no new diff job once stopping is set: the table's length is final */
    pthread_mutex_lock(&j->lock);
    size_t njobs = j->njobs;
    pthread_mutex_unlock(&j->lock);
    for (size_t i = 0; i < njobs; ++i)
        if (j->jobs[i]->has_thread)
            pthread_join(j->jobs[i]->thread, NULL);
    for (size_t i = 0; i < j->njobs; ++i) {
        free(j->jobs[i]->result);
        free(j->jobs[i]->ref);
        free(j->jobs[i]->src);
        free(j->jobs[i]);
    }
    free(j->jobs);
    free(j->held);
    pthread_mutex_destroy(&j->lock);
    pthread_cond_destroy(&j->cond);
    free(j);
    v->jobs = NULL;
}
