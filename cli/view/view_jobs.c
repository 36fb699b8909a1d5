/* gltrace view's replays: glretrace subprocesses, each watched by a thread of its own.
 *   thumbnails  one replay at startup, niced, snapshotting every frame's end into
 *               the cache (thumbs/NNNNNNNNNN.png, the swap's call number)
 *   timeline    a timed replay writing Chrome JSON into the cache: started niced once
 *               the thumbnails are made (for the frames' CPU and GPU times, read from
 *               it), or earlier on request; kept for the same trace (timeline.done)
 *   state       `glretrace --state-server`, kept warm: call numbers in, -D JSON out;
 *               asked in order from a queue, restarted when asked for a call behind it
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
    pthread_t thumbs_thread, timeline_thread, state_thread;
    bool thumbs_started, timeline_started, state_started;
    unsigned timeline_job; /* the timeline job's id, 0 when none */
    int timeline_nice;     /* the niceness the timeline job's replay runs at */
    unsigned thumbs_job;
    int has_state_server; /* -1 not known yet */
};

/* ---- processes ------------------------------------------------------------------------- */

/* Forks argv[0] with stdin/stdout/stderr from the fds (-1: /dev/null) at the given
 * niceness, in a process group of its own, in the folder cwd (NULL: ours). Returns the
 * pid, or -1 with err. */
static pid_t spawn_in(char *const argv[], const char *cwd, int in, int out, int errfd,
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
        if (cwd && chdir(cwd) != 0)
            _exit(127);
        execv(argv[0], argv);
        _exit(127);
    }
    setpgid(pid, pid); /* also here: either may run first */
    close(devnull);
    return pid;
}

static pid_t spawn(char *const argv[], int in, int out, int errfd, int niceness, gt_error *err)
{
    return spawn_in(argv, NULL, in, out, errfd, niceness, err);
}

/* Waits for the child *slot names, clears the slot (under the lock) before reaping it,
 * and returns its wait status. */
static int reap(view_server *v, pid_t *slot, pid_t pid)
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

static void describe_exit(char *buf, size_t size, const char *what, int st, const char *log)
{
    if (WIFEXITED(st))
        snprintf(buf, size, "%s exited with status %d%s%.400s", what, WEXITSTATUS(st),
                 log ? "; see " : "", log ? log : "");
    else
        snprintf(buf, size, "%s was killed by signal %d%s%.400s", what, WTERMSIG(st),
                 log ? "; see " : "", log ? log : "");
}

static void describe_status(char *buf, size_t size, int st, const char *log)
{
    describe_exit(buf, size, "glretrace", st, log);
}

/* A log file in the cache for a child's messages; -1 (then /dev/null) without a cache. */
static int open_log(view_server *v, const char *name, char *path, size_t size)
{
    path[0] = '\0';
    if (!v->cache_dir)
        return -1;
    snprintf(path, size, "%s/%s", v->cache_dir, name);
    return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
}

/* ---- the job table ---------------------------------------------------------------------- */

/* A new job (under the lock); NULL when memory runs out. */
static view_job *new_job(view_jobs *j, job_kind kind)
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

static view_job *find_job(view_jobs *j, unsigned id)
{
    return id >= 1 && id <= j->njobs ? j->jobs[id - 1] : NULL;
}

static void fail_job(view_server *v, view_job *job, const char *msg)
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

/* ---- thumbnails ------------------------------------------------------------------------- */

bool view_thumb_exists(view_server *v, uint32_t last_no)
{
    if (!v->thumbs_dir)
        return false;
    char p[4096];
    snprintf(p, sizeof p, "%s%010u.png", v->thumbs_dir, last_no);
    struct stat st;
    /* made before the trace was last written: another recording's frame */
    return stat(p, &st) == 0 && (st.st_mtim.tv_sec > v->trace_mtime.tv_sec ||
                                 (st.st_mtim.tv_sec == v->trace_mtime.tv_sec &&
                                  st.st_mtim.tv_nsec >= v->trace_mtime.tv_nsec));
}

/* NAME.done in the cache (thumbs.done, timeline.done): the trace (size, mtime) whose
 * replay's output is all there, so that a second start does not replay again. */
static void trace_stamp(view_server *v, char *buf, size_t size)
{
    snprintf(buf, size, "%llu %lld.%09ld\n", (unsigned long long)v->trace_size,
             (long long)v->trace_mtime.tv_sec, v->trace_mtime.tv_nsec);
}

static bool stamp_ok(view_server *v, const char *name)
{
    char path[4096], want[96], got[96] = "";
    snprintf(path, sizeof path, "%s/%s.done", v->cache_dir, name);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    bool same = fgets(got, sizeof got, f) != NULL;
    fclose(f);
    trace_stamp(v, want, sizeof want);
    return same && !strcmp(got, want);
}

static void stamp_write(view_server *v, const char *name)
{
    char path[4096], stamp[96];
    snprintf(path, sizeof path, "%s/%s.done", v->cache_dir, name);
    trace_stamp(v, stamp, sizeof stamp);
    FILE *f = fopen(path, "w");
    if (!f || fputs(stamp, f) < 0 || fclose(f) != 0) {
        if (f)
            fclose(f);
        fprintf(stderr, "gltrace view: note: cannot write %s: %s\n", path, strerror(errno));
    }
}

static void stamp_remove(view_server *v, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.done", v->cache_dir, name);
    unlink(path);
}

static int start_timeline(view_server *v, int niceness, gt_strbuf *out);

/* After the thumbnails (made or failed): the timeline, niced, for the frames' times. */
static void start_timeline_after_thumbs(view_server *v)
{
    if (atomic_load(&v->stopping) || !v->cache_dir)
        return;
    gt_strbuf b;
    gt_strbuf_init(&b);
    if (start_timeline(v, 10, &b) != 200)
        fprintf(stderr, "gltrace view: note: no frame times: %.*s", (int)b.len, b.data ? b.data : "");
    gt_strbuf_free(&b);
}

static void *thumbs_main(void *arg)
{
    view_server *v = arg;
    view_jobs *j = v->jobs;
    pthread_mutex_lock(&j->lock);
    view_job *job = find_job(j, j->thumbs_job);
    pthread_mutex_unlock(&j->lock);
    char log[4096];
    int logfd = open_log(v, "thumbs.log", log, sizeof log);
    char *argv[] = {v->glretrace, "--headless", "-s", v->thumbs_dir, "-S", "frame",
                    v->trace_abs, NULL};
    gt_error err;
    gt_error_clear(&err);
    pthread_mutex_lock(&j->lock);
    /* started under the lock: view_jobs_stop either sees the pid or stops us first */
    pid_t pid = atomic_load(&v->stopping) ? -1 : spawn(argv, -1, -1, logfd, 10, &err);
    if (pid > 0)
        j->thumbs_pid = pid;
    pthread_mutex_unlock(&j->lock);
    if (logfd >= 0)
        close(logfd);
    if (pid < 0) {
        fail_job(v, job, err.set ? err.msg : "stopped");
        return NULL;
    }
    int st = reap(v, &j->thumbs_pid, pid);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        stamp_write(v, "thumbs");
        pthread_mutex_lock(&j->lock);
        job->state = JOB_DONE;
        pthread_mutex_unlock(&j->lock);
    } else {
        char msg[GT_ERROR_MAX];
        describe_status(msg, sizeof msg, st, log[0] ? log : NULL);
        fail_job(v, job, atomic_load(&v->stopping) ? "stopped" : msg);
        if (!atomic_load(&v->stopping)) /* killed by us: nothing to report */
            fprintf(stderr, "gltrace view: thumbnails: %s\n", msg);
    }
    start_timeline_after_thumbs(v);
    return NULL;
}

void view_jobs_start_thumbs(view_server *v)
{
    view_jobs *j = v->jobs;
    if (!v->ix || !v->glretrace || !v->thumbs_dir)
        return;
    /* made by an earlier run for this very trace: nothing to replay */
    bool done = stamp_ok(v, "thumbs");
    pthread_mutex_lock(&j->lock);
    view_job *job = new_job(j, JOB_THUMBS);
    if (job) {
        j->thumbs_job = job->id;
        if (done)
            job->state = JOB_DONE;
        else if (pthread_create(&j->thumbs_thread, NULL, thumbs_main, v) == 0)
            j->thumbs_started = true;
        else {
            job->state = JOB_FAILED;
            snprintf(job->error, sizeof job->error, "cannot start a thread");
        }
    }
    pthread_mutex_unlock(&j->lock);
    if (!job || job->state != JOB_RUNNING)
        start_timeline_after_thumbs(v);
}

/* ---- timeline --------------------------------------------------------------------------- */

/* Reads the frames' times from the timeline (a failure is only a note: the download
 * is still good). */
static void read_profile(view_server *v, const char *json)
{
    gt_error err;
    gt_error_clear(&err);
    if (view_profile_read(v, json, &err) != 0 && !atomic_load(&v->stopping))
        fprintf(stderr, "gltrace view: note: no frame times: %s\n", err.msg);
}

static void *timeline_main(void *arg)
{
    view_server *v = arg;
    view_jobs *j = v->jobs;
    pthread_mutex_lock(&j->lock);
    view_job *job = find_job(j, j->timeline_job);
    int niceness = j->timeline_nice;
    pthread_mutex_unlock(&j->lock);
    char log[4096], out[4096];
    snprintf(out, sizeof out, "%s/timeline.json", v->cache_dir);
    /* made by an earlier run for this very trace */
    if (stamp_ok(v, "timeline") && access(out, R_OK) == 0) {
        read_profile(v, out);
        pthread_mutex_lock(&j->lock);
        job->state = JOB_DONE;
        pthread_mutex_unlock(&j->lock);
        return NULL;
    }
    stamp_remove(v, "timeline");
    int logfd = open_log(v, "timeline.log", log, sizeof log);
    char *argv[] = {v->glretrace, "--headless", "-b", "--pcpu", "--pgpu", "--chrome", out,
                    v->trace_abs, NULL};
    gt_error err;
    gt_error_clear(&err);
    pthread_mutex_lock(&j->lock);
    pid_t pid = atomic_load(&v->stopping) ? -1 : spawn(argv, -1, -1, logfd, niceness, &err);
    if (pid > 0)
        j->timeline_pid = pid;
    pthread_mutex_unlock(&j->lock);
    if (logfd >= 0)
        close(logfd);
    if (pid < 0) {
        fail_job(v, job, err.set ? err.msg : "stopped");
        return NULL;
    }
    int st = reap(v, &j->timeline_pid, pid);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && access(out, R_OK) == 0) {
        stamp_write(v, "timeline");
        read_profile(v, out); /* before done: a done job's frames have their times */
        pthread_mutex_lock(&j->lock);
        job->state = JOB_DONE;
        pthread_mutex_unlock(&j->lock);
    } else {
        char msg[GT_ERROR_MAX];
        describe_status(msg, sizeof msg, st, log[0] ? log : NULL);
        fail_job(v, job, atomic_load(&v->stopping) ? "stopped" : msg);
    }
    return NULL;
}

static int no_replay(view_server *v, gt_strbuf *out)
{
    char msg[GT_ERROR_MAX];
    snprintf(msg, sizeof msg, "%s", !v->ix ? (v->ix_error[0] ? v->ix_error : "no index")
                                  : !v->glretrace ? "glretrace was not found beside gltrace"
                                                  : "no cache folder for the replay's output");
    view_json_error(out, msg);
    return 500;
}

/* Starts the timeline job at the given niceness, or joins the one there. */
static int start_timeline(view_server *v, int niceness, gt_strbuf *out)
{
    view_jobs *j = v->jobs;
    if (!v->ix || !v->glretrace || !v->cache_dir)
        return no_replay(v, out);
    pthread_mutex_lock(&j->lock);
    view_job *job = find_job(j, j->timeline_job);
    if (!job || job->state == JOB_FAILED) { /* else join the one there */
        if (j->timeline_started) { /* the failed one's thread is over */
            pthread_join(j->timeline_thread, NULL);
            j->timeline_started = false;
        }
        if (atomic_load(&v->stopping) || !(job = new_job(j, JOB_TIMELINE))) {
            pthread_mutex_unlock(&j->lock);
            view_json_error(out, atomic_load(&v->stopping) ? "stopping" : "out of memory");
            return 500;
        }
        j->timeline_job = job->id;
        j->timeline_nice = niceness;
        if (pthread_create(&j->timeline_thread, NULL, timeline_main, v) == 0) {
            j->timeline_started = true;
        } else {
            job->state = JOB_FAILED;
            snprintf(job->error, sizeof job->error, "cannot start a thread");
        }
    }
    gt_strbuf_printf(out, "{\"job\": %u}\n", job->id);
    pthread_mutex_unlock(&j->lock);
    return 200;
}

int view_api_timeline(view_server *v, gt_strbuf *out)
{
    return start_timeline(v, 0, out);
}

const char *view_times_state(view_server *v)
{
    pthread_mutex_lock(&v->scan_lock);
    bool known = v->profile_known;
    pthread_mutex_unlock(&v->scan_lock);
    if (known)
        return "done";
    if (!v->ix || !v->glretrace || !v->cache_dir || !v->jobs)
        return "none";
    view_jobs *j = v->jobs;
    pthread_mutex_lock(&j->lock);
    view_job *job = find_job(j, j->timeline_job);
    /* a timeline done without times: its JSON could not be read; failed: none either
     * (until the timeline is asked for again) */
    bool over = job && job->state != JOB_RUNNING;
    pthread_mutex_unlock(&j->lock);
    if (!over)
        return "pending";
    pthread_mutex_lock(&v->scan_lock); /* read just before the job ended? */
    known = v->profile_known;
    pthread_mutex_unlock(&v->scan_lock);
    return known ? "done" : "none";
}

/* ---- state -------------------------------------------------------------------------------- */

typedef struct state_proc {
    pid_t pid;
    FILE *in, *out; /* its stdin, its stdout */
    uint32_t at;    /* the last call dumped: asking for one before it restarts */
    bool any;
} state_proc;

static void state_close(view_server *v, state_proc *p)
{
    if (p->in)
        fclose(p->in); /* EOF ends it */
    p->in = NULL;
    if (p->pid > 0) {
        pthread_mutex_lock(&v->jobs->lock);
        v->jobs->state_pid = 0;
        pthread_mutex_unlock(&v->jobs->lock);
        kill(-p->pid, SIGKILL);
        while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    if (p->out)
        fclose(p->out);
    p->out = NULL;
    p->pid = 0;
    p->any = false;
}

static int state_open(view_server *v, state_proc *p, gt_error *err)
{
    int to[2], from[2];
    if (pipe2(to, O_CLOEXEC) < 0) {
        gt_error_set(err, "pipe: %s", strerror(errno));
        return -1;
    }
    if (pipe2(from, O_CLOEXEC) < 0) {
        close(to[0]);
        close(to[1]);
        gt_error_set(err, "pipe: %s", strerror(errno));
        return -1;
    }
    char log[4096];
    int logfd = open_log(v, "state.log", log, sizeof log);
    char *argv[] = {v->glretrace, "--headless", "--state-server", v->trace_abs, NULL};
    pthread_mutex_lock(&v->jobs->lock);
    pid_t pid = atomic_load(&v->stopping) ? -1 : spawn(argv, to[0], from[1], logfd, 0, err);
    if (pid > 0)
        v->jobs->state_pid = pid;
    pthread_mutex_unlock(&v->jobs->lock);
    close(to[0]);
    close(from[1]);
    if (logfd >= 0)
        close(logfd);
    p->in = pid > 0 ? fdopen(to[1], "w") : NULL;
    p->out = pid > 0 ? fdopen(from[0], "r") : NULL;
    if (!p->in || !p->out) {
        if (!p->in)
            close(to[1]);
        if (!p->out)
            close(from[0]);
        p->pid = pid;
        state_close(v, p);
        if (!err->set)
            gt_error_set(err, pid < 0 ? "stopped" : "out of memory");
        return -1;
    }
    p->pid = pid;
    p->any = false;
    return 0;
}

/* Whether this glretrace has --state-server (the lead adds it): its --help says. */
static int probe_state_server(view_server *v)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) < 0)
        return 0;
    char *argv[] = {v->glretrace, "--help", NULL};
    gt_error err;
    gt_error_clear(&err);
    pid_t pid = spawn(argv, -1, fds[1], -1, 0, &err);
    close(fds[1]);
    int found = 0;
    if (pid > 0) {
        FILE *f = fdopen(fds[0], "r");
        char line[512];
        while (f && fgets(line, sizeof line, f))
            if (strstr(line, "--state-server"))
                found = 1;
        if (f)
            fclose(f);
        else
            close(fds[0]);
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
    } else {
        close(fds[0]);
    }
    return found;
}

/* Asks p for job->want. 1: done; 0: the replay is behind (restart and ask again); -1:
 * failed, with msg. */
static int state_ask(view_server *v, state_proc *p, view_job *job, char *msg, size_t size)
{
    if (fprintf(p->in, "%u\n", job->want) < 0 || fflush(p->in) != 0) {
        snprintf(msg, size, "the state server stopped taking calls");
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int rc = -1;
    snprintf(msg, size, "the state server exited before answering call %u", job->want);
    while ((n = getline(&line, &cap, p->out)) > 0) {
        if (line[n - 1] == '\n')
            line[--n] = '\0';
        unsigned long long a, b;
        if (sscanf(line, "progress %llu", &a) == 1) {
            pthread_mutex_lock(&v->jobs->lock);
            job->at = (uint32_t)a;
            pthread_mutex_unlock(&v->jobs->lock);
            continue;
        }
        if (sscanf(line, "state %llu %llu", &a, &b) == 2) {
            char *json = b < SIZE_MAX ? malloc((size_t)b + 1) : NULL;
            if (!json) {
                snprintf(msg, size, "out of memory for a state of %llu bytes", b);
                break;
            }
            if (fread(json, 1, (size_t)b, p->out) != (size_t)b) {
                free(json);
                snprintf(msg, size, "the state server's answer for call %u was cut short",
                         job->want);
                break;
            }
            json[b] = '\0';
            pthread_mutex_lock(&v->jobs->lock);
            job->result = json;
            job->result_len = (size_t)b;
            job->dumped = job->at = (uint32_t)a;
            job->state = JOB_DONE;
            pthread_mutex_unlock(&v->jobs->lock);
            p->at = (uint32_t)a;
            p->any = true;
            rc = 1;
            break;
        }
        if (!strncmp(line, "error behind", 12)) {
            rc = 0;
            break;
        }
        if (!strncmp(line, "error ", 6)) {
            snprintf(msg, size, "%s", line + 6);
            break;
        }
        /* anything else: a line we do not know, skipped */
    }
    free(line);
    return rc;
}

static void *state_main(void *arg)
{
    view_server *v = arg;
    view_jobs *j = v->jobs;
    state_proc p = {0};
    for (;;) {
        pthread_mutex_lock(&j->lock);
        view_job *job = NULL;
        while (!atomic_load(&v->stopping)) {
            for (size_t i = 0; i < j->njobs && !job; ++i)
                if (j->jobs[i]->kind == JOB_STATE && j->jobs[i]->state == JOB_RUNNING)
                    job = j->jobs[i];
            if (job)
                break;
            pthread_cond_wait(&j->cond, &j->lock);
        }
        pthread_mutex_unlock(&j->lock);
        if (!job)
            break;
        if (j->has_state_server < 0)
            j->has_state_server = probe_state_server(v);
        if (!j->has_state_server) {
            fail_job(v, job, "this glretrace has no --state-server mode");
            continue;
        }
        char msg[GT_ERROR_MAX];
        int rc = -1;
        for (int tries = 0; tries < 2 && rc != 1; ++tries) {
            if (p.pid && p.any && job->want < p.at) /* it only goes forward */
                state_close(v, &p);
            gt_error err;
            gt_error_clear(&err);
            if (!p.pid && state_open(v, &p, &err) < 0) {
                snprintf(msg, sizeof msg, "%s", err.msg);
                rc = -1;
                break;
            }
            rc = state_ask(v, &p, job, msg, sizeof msg);
            if (rc < 0) { /* a process that failed once is not trusted again */
                state_close(v, &p);
                break;
            }
            if (rc == 0)
                state_close(v, &p);
        }
        if (rc == 0)
            snprintf(msg, sizeof msg, "the state server stays behind call %u", job->want);
        if (rc != 1)
            fail_job(v, job, atomic_load(&v->stopping) ? "stopped" : msg);
    }
    state_close(v, &p);
    return NULL;
}

/* States are megabytes each: only the latest MAX_STATES stay in memory; older ones
 * become failed jobs saying so (under the lock). */
#define MAX_STATES 16

static void drop_old_states(view_jobs *j)
{
    size_t kept = 0;
    for (size_t i = j->njobs; i-- > 0;) {
        view_job *job = j->jobs[i];
        if (job->kind != JOB_STATE || !job->result || ++kept <= MAX_STATES)
            continue;
        free(job->result);
        job->result = NULL;
        job->state = JOB_FAILED;
        snprintf(job->error, sizeof job->error,
                 "dropped from memory (only the latest %d states are kept): ask again",
                 MAX_STATES);
    }
}

int view_api_state(view_server *v, const char *call_s, gt_strbuf *out)
{
    view_jobs *j = v->jobs;
    uint64_t call;
    if (!call_s) {
        view_json_error(out, "call= is missing");
        return 400;
    }
    if (!v->ix || !v->glretrace)
        return no_replay(v, out);
    if (view_arg_u64("call", call_s, 0, UINT32_MAX, &call, out) < 0)
        return 400;
    if (call > v->last_call) {
        char msg[GT_ERROR_MAX];
        snprintf(msg, sizeof msg, "call %llu is past the end of %s (last call %u)",
                 (unsigned long long)call, v->trace, v->last_call);
        view_json_error(out, msg);
        return 400;
    }
    pthread_mutex_lock(&j->lock);
    view_job *job = NULL;
    for (size_t i = 0; i < j->njobs && !job; ++i) /* join a job for the same call */
        if (j->jobs[i]->kind == JOB_STATE && j->jobs[i]->want == call &&
            j->jobs[i]->state != JOB_FAILED)
            job = j->jobs[i];
    if (!job) {
        if (!j->state_started) {
            if (pthread_create(&j->state_thread, NULL, state_main, v) != 0) {
                pthread_mutex_unlock(&j->lock);
                view_json_error(out, "cannot start a thread");
                return 500;
            }
            j->state_started = true;
        }
        if (!(job = new_job(j, JOB_STATE))) {
            pthread_mutex_unlock(&j->lock);
            view_json_error(out, "out of memory");
            return 500;
        }
        job->want = (uint32_t)call;
        drop_old_states(j);
        pthread_cond_broadcast(&j->cond);
    }
    gt_strbuf_printf(out, "{\"job\": %u}\n", job->id);
    pthread_mutex_unlock(&j->lock);
    return 200;
}

/* ---- image comparison (gltrace diff-images) ---------------------------------------------- */

#define MAX_DIFF_JOBS 64 /* running at once */

static int rm_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    return (type == FTW_DP ? rmdir(path) : unlink(path)) == 0 || errno == ENOENT ? 0 : -1;
}

/* mkdir -p of the folders above path's last '/'. */
static int make_parents(char *path)
{
    for (char *p = path + 1; *p; ++p)
        if (*p == '/') {
            *p = '\0';
            int rc = mkdir(path, 0777);
            *p = '/';
            if (rc != 0 && errno != EEXIST)
                return -1;
        }
    return 0;
}

/* A copy of the file from at to: a hard link where the file system allows, else its
 * bytes. 1: copied; 0: from is not a regular file; -1: failed, with msg. */
static int copy_file(const char *from, char *to, char *msg, size_t size)
{
    struct stat st;
    if (stat(from, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    if (make_parents(to) != 0) {
        snprintf(msg, size, "cannot make the folder of %.300s: %s", to, strerror(errno));
        return -1;
    }
    if (link(from, to) == 0)
        return 1;
    int in = open(from, O_RDONLY | O_CLOEXEC);
    if (in < 0) {
        snprintf(msg, size, "%.400s: %s", from, strerror(errno));
        return -1;
    }
    int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (out < 0) {
        snprintf(msg, size, "%.400s: %s", to, strerror(errno));
        close(in);
        return -1;
    }
    char buf[65536];
    ssize_t n;
    int rc = 1;
    while ((n = read(in, buf, sizeof buf)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 || write(out, buf, (size_t)n) != n) { /* a regular file: no short writes */
            snprintf(msg, size, "copying %.200s to %.200s: %s", from, to, strerror(errno));
            rc = -1;
            break;
        }
    }
    close(in);
    if (close(out) != 0 && rc == 1) {
        snprintf(msg, size, "%.400s: %s", to, strerror(errno));
        rc = -1;
    }
    return rc;
}

/* A name as a URL path: bytes other than unreserved ones and '/' as %XX. */
static void url_path(gt_strbuf *b, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            *p == '-' || *p == '_' || *p == '.' || *p == '~' || *p == '/')
            gt_strbuf_putc(b, (char)*p);
        else
            gt_strbuf_printf(b, "%%%02X", *p);
    }
}

/* "x.png" -> "x.diff.png", as diff-images names the difference image */
static void diff_name(char *out, size_t size, const char *name)
{
    const char *dot = strrchr(name, '.'), *slash = strrchr(name, '/');
    int n = dot && (!slash || dot > slash) ? (int)(dot - name) : (int)strlen(name);
    snprintf(out, size, "%.*s.diff.png", n, name);
}

static int cmp_name(const void *key, const void *elt)
{
    return strcmp(key, *(char *const *)elt);
}

/* The verdicts diff-images -v printed ("NAME: RESULT: detail", one line per image) as
 * the job's JSON. */
static void diff_result(view_server *v, view_job *job, const char *dir, const image_list *names,
                        const unsigned char *sides, gt_strbuf *b)
{
    static const char *const results[] = {"MISMATCH", "MATCH", "MISSING", "UNREADABLE"};
    char **verdict = calloc(names->n ? names->n : 1, sizeof *verdict);
    char **detail = calloc(names->n ? names->n : 1, sizeof *detail);
    char path[PATH_MAX * 2 + 16];
    snprintf(path, sizeof path, "%s/summary.txt", dir);
    FILE *f = verdict && detail ? fopen(path, "r") : NULL;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while (f && (len = getline(&line, &cap, f)) > 0) {
        if (line[len - 1] == '\n')
            line[--len] = '\0';
        /* the name ends at the first ": RESULT" followed by ':' or the end */
        for (char *p = strstr(line, ": "); p; p = strstr(p + 1, ": ")) {
            const char *r = NULL;
            size_t rl = 0;
            for (size_t k = 0; k < sizeof results / sizeof *results && !r; ++k) {
                rl = strlen(results[k]);
                if (!strncmp(p + 2, results[k], rl) && (p[2 + rl] == ':' || !p[2 + rl]))
                    r = results[k];
            }
            if (!r)
                continue;
            *p = '\0';
            char **hit = bsearch(line, names->v, names->n, sizeof *names->v, cmp_name);
            *p = ':';
            if (!hit)
                continue;
            size_t i = (size_t)(hit - names->v);
            free(verdict[i]);
            free(detail[i]);
            verdict[i] = strdup(r);
            detail[i] = strdup(p[2 + rl] ? p + 2 + rl + 1 + (p[3 + rl] == ' ') : "");
            break;
        }
    }
    free(line);
    if (f)
        fclose(f);
    unsigned counts[4] = {0};
    gt_strbuf_puts(b, "{\"ref\": ");
    gt_json_string(b, job->ref, strlen(job->ref));
    gt_strbuf_puts(b, ", \"src\": ");
    gt_json_string(b, job->src, strlen(job->src));
    gt_strbuf_printf(b, ", \"report\": \"diff/%u/index.html\", \"images\": [", job->id);
    for (size_t i = 0; i < names->n; ++i) {
        const char *r = verdict && verdict[i] ? verdict[i] : "MISSING";
        for (size_t k = 0; k < 4; ++k)
            if (!strcmp(r, results[k]))
                counts[k]++;
        gt_strbuf_printf(b, "%s\n{\"name\": ", i ? "," : "");
        gt_json_string(b, names->v[i], strlen(names->v[i]));
        char low[16];
        size_t k = 0;
        for (; r[k] && k < sizeof low - 1; ++k)
            low[k] = (char)(r[k] >= 'A' && r[k] <= 'Z' ? r[k] - 'A' + 'a' : r[k]);
        low[k] = '\0';
        gt_strbuf_printf(b, ", \"verdict\": \"%s\", \"detail\": ", low);
        const char *d = detail && detail[i] ? detail[i] : "";
        gt_json_string(b, d, strlen(d));
        for (int side = 0; side < 2; ++side) {
            gt_strbuf_printf(b, ", \"%s\": ", side ? "src" : "ref");
            if (sides[i] & (1u << side)) {
                gt_strbuf_printf(b, "\"diff/%u/%s/", job->id, side ? "src" : "ref");
                url_path(b, names->v[i]);
                gt_strbuf_putc(b, '"');
            } else {
                gt_strbuf_puts(b, "null");
            }
        }
        char dn[PATH_MAX];
        diff_name(dn, sizeof dn, names->v[i]);
        snprintf(path, sizeof path, "%s/src/%s", dir, dn);
        gt_strbuf_puts(b, ", \"diff\": ");
        if (access(path, R_OK) == 0) {
            gt_strbuf_printf(b, "\"diff/%u/src/", job->id);
            url_path(b, dn);
            gt_strbuf_putc(b, '"');
        } else {
            gt_strbuf_puts(b, "null");
        }
        gt_strbuf_putc(b, '}');
    }
    gt_strbuf_printf(b, "], \"counts\": {\"match\": %u, \"mismatch\": %u, \"missing\": %u, "
                     "\"unreadable\": %u}}\n", counts[1], counts[0], counts[2], counts[3]);
    for (size_t i = 0; i < names->n; ++i) {
        if (verdict)
            free(verdict[i]);
        if (detail)
            free(detail[i]);
    }
    free(verdict);
    free(detail);
    (void)v;
}

static void *diff_main(void *arg)
{
    view_job *job = arg;
    view_server *v = job->v;
    view_jobs *j = v->jobs;
    char dir[PATH_MAX], msg[GT_ERROR_MAX] = "";
    snprintf(dir, sizeof dir, "%s/diff-%u", v->cache_dir, job->id);
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS); /* a folder of an earlier run */
    image_list names = {0};
    unsigned char *sides = NULL;
    int rc = -1;
    if (mkdir(dir, 0777) != 0) {
        snprintf(msg, sizeof msg, "cannot make %.400s: %s", dir, strerror(errno));
    } else if (image_list_find(&names, job->ref) != 0 || image_list_find(&names, job->src) != 0) {
        snprintf(msg, sizeof msg, "out of memory");
    } else if (!names.n) {
        snprintf(msg, sizeof msg, "no images (.png) under %s or %s", job->ref, job->src);
    } else if (!(sides = calloc(names.n, 1))) {
        snprintf(msg, sizeof msg, "out of memory");
    } else {
        pthread_mutex_lock(&j->lock);
        job->want = (uint32_t)names.n;
        pthread_mutex_unlock(&j->lock);
        rc = 0;
        for (size_t i = 0; i < names.n && rc == 0; ++i) {
            for (int side = 0; side < 2 && rc == 0; ++side) {
                char from[PATH_MAX * 2], to[PATH_MAX * 2];
                snprintf(from, sizeof from, "%s%s", side ? job->src : job->ref, names.v[i]);
                snprintf(to, sizeof to, "%s/%s/%s", dir, side ? "src" : "ref", names.v[i]);
                int c = copy_file(from, to, msg, sizeof msg);
                if (c < 0)
                    rc = -1;
                else if (c > 0)
                    sides[i] |= (unsigned char)(1u << side);
            }
            if (atomic_load(&v->stopping)) {
                snprintf(msg, sizeof msg, "stopped");
                rc = -1;
            }
            pthread_mutex_lock(&j->lock);
            job->at = (uint32_t)i + 1;
            pthread_mutex_unlock(&j->lock);
        }
    }
    if (rc == 0) {
        /* in the folder, with relative prefixes: the report's links are relative */
        char out_path[PATH_MAX + 32], log[PATH_MAX + 32];
        snprintf(out_path, sizeof out_path, "%s/summary.txt", dir);
        snprintf(log, sizeof log, "%s/diff-images.log", dir);
        int outfd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        int logfd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        char *argv[] = {v->gltrace, "diff-images", "-v", "-o", "index.html", "ref/", "src/", NULL};
        gt_error err;
        gt_error_clear(&err);
        pthread_mutex_lock(&j->lock);
        pid_t pid = atomic_load(&v->stopping) || outfd < 0
                        ? -1
                        : spawn_in(argv, dir, -1, outfd, logfd, 10, &err);
        if (pid > 0)
            job->pid = pid;
        pthread_mutex_unlock(&j->lock);
        if (outfd >= 0)
            close(outfd);
        if (logfd >= 0)
            close(logfd);
        if (pid < 0) {
            snprintf(msg, sizeof msg, "%s", err.set ? err.msg
                                         : outfd < 0 ? "cannot write the summary" : "stopped");
            rc = -1;
        } else {
            int st = reap(v, &job->pid, pid);
            char report[PATH_MAX + 32];
            snprintf(report, sizeof report, "%s/index.html", dir);
            /* 1: some images differ; the report is there all the same */
            if (!WIFEXITED(st) || WEXITSTATUS(st) > 1 || access(report, R_OK) != 0) {
                describe_exit(msg, sizeof msg, "gltrace diff-images", st, log);
                rc = -1;
            }
        }
    }
    if (rc == 0) {
        gt_strbuf b;
        gt_strbuf_init(&b);
        diff_result(v, job, dir, &names, sides, &b);
        pthread_mutex_lock(&j->lock);
        if (b.oom) {
            job->state = JOB_FAILED;
            snprintf(job->error, sizeof job->error, "out of memory");
            gt_strbuf_free(&b);
        } else {
            job->result = b.data; /* the strbuf's bytes, kept */
            job->result_len = b.len;
            job->state = JOB_DONE;
        }
        pthread_mutex_unlock(&j->lock);
    } else {
        fail_job(v, job, atomic_load(&v->stopping) ? "stopped" : msg);
    }
    free(sides);
    image_list_free(&names);
    return NULL;
}

/* A prefix as given: absolute, or relative to the trace's folder; a folder gets its
 * '/' so that names are relative to it. NULL with msg. */
static char *resolve_prefix(view_server *v, const char *p, const char *what, char *msg, size_t size)
{
    if (!p || !*p) {
        snprintf(msg, size, "%s= is missing or empty", what);
        return NULL;
    }
    if (strlen(p) >= PATH_MAX - 2) {
        snprintf(msg, size, "%s= is too long", what);
        return NULL;
    }
    char path[PATH_MAX * 2];
    if (p[0] == '/') {
        snprintf(path, sizeof path, "%s", p);
    } else {
        const char *slash = strrchr(v->trace_abs, '/');
        int n = slash ? (int)(slash - v->trace_abs) : 0;
        snprintf(path, sizeof path, "%.*s/%s", n, v->trace_abs, p);
    }
    size_t n = strlen(path);
    struct stat st;
    if (path[n - 1] != '/' && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        path[n++] = '/', path[n] = '\0';
    char *s = strdup(path);
    if (!s)
        snprintf(msg, size, "out of memory");
    return s;
}

int view_api_diff(view_server *v, const char *ref_s, const char *src_s, gt_strbuf *out)
{
    view_jobs *j = v->jobs;
    char msg[GT_ERROR_MAX];
    if (!v->gltrace || !v->cache_dir) {
        view_json_error(out, !v->gltrace ? "gltrace's own path is not known"
                                         : "no cache folder for the comparison's output");
        return 500;
    }
    char *ref = resolve_prefix(v, ref_s, "ref", msg, sizeof msg);
    char *src = ref ? resolve_prefix(v, src_s, "src", msg, sizeof msg) : NULL;
    if (!src) {
        free(ref);
        view_json_error(out, msg);
        return !strcmp(msg, "out of memory") ? 500 : 400;
    }
    pthread_mutex_lock(&j->lock);
    view_job *job = NULL;
    size_t running = 0;
    for (size_t i = 0; i < j->njobs; ++i) /* the same pair still running: join it */
        if (j->jobs[i]->kind == JOB_DIFF && j->jobs[i]->state == JOB_RUNNING) {
            running++;
            if (!strcmp(j->jobs[i]->ref, ref) && !strcmp(j->jobs[i]->src, src))
                job = j->jobs[i];
        }
    if (job) {
        free(ref);
        free(src);
    } else if (running >= MAX_DIFF_JOBS || atomic_load(&v->stopping)) {
        pthread_mutex_unlock(&j->lock);
        free(ref);
        free(src);
        view_json_error(out, running >= MAX_DIFF_JOBS ? "too many comparisons running" : "stopping");
        return 503;
    } else if (!(job = new_job(j, JOB_DIFF))) {
        pthread_mutex_unlock(&j->lock);
        free(ref);
        free(src);
        view_json_error(out, "out of memory");
        return 500;
    } else {
        job->ref = ref;
        job->src = src;
        job->v = v;
        if (pthread_create(&job->thread, NULL, diff_main, job) == 0) {
            job->has_thread = true;
        } else {
            job->state = JOB_FAILED;
            snprintf(job->error, sizeof job->error, "cannot start a thread");
        }
    }
    gt_strbuf_printf(out, "{\"job\": %u}\n", job->id);
    pthread_mutex_unlock(&j->lock);
    return 200;
}

int view_diff_file(view_server *v, const char *rel, char **path, gt_strbuf *body)
{
    *path = NULL;
    char *end;
    errno = 0;
    unsigned long id = *rel >= '1' && *rel <= '9' ? strtoul(rel, &end, 10) : 0;
    if (!id || errno || *end != '/' || !end[1]) {
        view_json_error(body, "not found");
        return 404;
    }
    const char *rest = end + 1;
    /* segments of the job's folder: no empty ones, no "." or ".." */
    for (const char *s = rest; *s;) {
        size_t n = strcspn(s, "/");
        if (!n || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.')) {
            view_json_error(body, "not found");
            return 404;
        }
        s += n + (s[n] == '/');
    }
    view_jobs *j = v->jobs;
    pthread_mutex_lock(&j->lock);
    view_job *job = find_job(j, (unsigned)id);
    bool ok = job && job->kind == JOB_DIFF && id <= UINT32_MAX;
    pthread_mutex_unlock(&j->lock);
    if (!ok || !v->cache_dir) {
        view_json_error(body, "no such comparison");
        return 404;
    }
    size_t n = strlen(v->cache_dir) + strlen(rest) + 32;
    if (!(*path = malloc(n))) {
        view_json_error(body, "out of memory");
        return 500;
    }
    snprintf(*path, n, "%s/diff-%lu/%s", v->cache_dir, id, rest);
    return 200;
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
    view_job *job = find_job(v->jobs, (unsigned)id);
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
            gt_strbuf_printf(out, ", \"call\": %u", copy.dumped);
        gt_strbuf_puts(out, "}\n");
    } else {
        gt_strbuf_printf(out, "{\"state\": \"failed\", \"kind\": \"%s\", \"error\": ", kind);
        gt_json_string(out, copy.error, strlen(copy.error));
        gt_strbuf_puts(out, "}\n");
    }
    return 200;
}

int view_api_result(view_server *v, const char *id_s, char **path, gt_strbuf *body,
                    const char **ctype, const char **attachment)
{
    view_jobs *j = v->jobs;
    *path = NULL;
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
        size_t n = strlen(v->cache_dir) + sizeof "/timeline.json";
        if ((*path = malloc(n))) {
            snprintf(*path, n, "%s/timeline.json", v->cache_dir);
            *attachment = "timeline.json";
            status = 200;
        } else {
            view_json_error(body, "out of memory");
            status = 500;
        }
    } else if (job) {
        view_json_error(body, "this job has no result");
        status = 404;
    }
    pthread_mutex_unlock(&j->lock);
    return status;
}

int view_api_thumb(view_server *v, const char *frame_s, char **path, gt_strbuf *body)
{
    uint64_t f;
    *path = NULL;
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
        view_json_error(body, "no thumbnail for this frame yet");
        return 404;
    }
    size_t n = strlen(v->thumbs_dir) + 16;
    if (!(*path = malloc(n))) {
        view_json_error(body, "out of memory");
        return 500;
    }
    snprintf(*path, n, "%s%010u.png", v->thumbs_dir, no);
    return 200;
}

void view_jobs_stop(view_server *v)
{
    view_jobs *j = v->jobs;
    if (!j)
        return;
    atomic_store(&v->stopping, true);
    pthread_mutex_lock(&j->lock);
    pid_t pids[] = {j->thumbs_pid, j->timeline_pid, j->state_pid};
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
    pthread_mutex_destroy(&j->lock);
    pthread_cond_destroy(&j->cond);
    free(j);
    v->jobs = NULL;
}
