/* gltrace view's GL state (view_jobs_internal.h): one `glretrace --state-server`
 * kept warm and moved forward, a second one held before the first call of the last
 * request's frame for the calls behind it (below); a client's newer request supersedes
 * its waiting ones. */
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

/* ---- state -------------------------------------------------------------------------------- */

/* Two replays serve the states: the warm one, moved forward from request to request,
 * and a second one held just before the first call of the frame of the last request
 * (moved forward there in the background, or started again when it stands past it).
 * A request behind the warm replay takes the held one when it stands at or before the
 * call: one call back within a frame replays only that frame's calls, where a new
 * process replayed every call from the trace's start (8.7 s at call 46,802 of a
 * 66k-call glmark2 trace). */

#define HELD_NONE UINT32_MAX
/* A request that needs a replay other than the warm one waits this long for a newer
 * request of the same client (arrow keys held down, quick clicks): only the newest
 * one is replayed, and the held replay is not spent on a call nobody looks at. */
#define SETTLE_NS 120000000LL

typedef struct state_proc {
    pid_t pid;
    FILE *in, *out; /* its stdin, its stdout */
    uint32_t at;    /* the last call dumped: asking for one before it restarts */
    uint32_t asked; /* the last call asked for: calls asked..at have that state */
    bool any;
} state_proc;

/* The held replay, under the jobs' lock; p belongs to the held thread while moving. */
typedef struct state_held {
    state_proc p;
    uint32_t want;   /* where it is to stand (HELD_NONE: nowhere) */
    bool moving;     /* the held thread works on p */
    bool stop;       /* the state thread ends */
} state_held;

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Ends p's process; slot (the jobs' pid for it) is cleared under the lock first. */
static void state_close(view_server *v, state_proc *p, pid_t *slot)
{
    if (p->in)
        fclose(p->in); /* EOF ends it */
    p->in = NULL;
    if (p->pid > 0) {
        pthread_mutex_lock(&v->jobs->lock);
        *slot = 0;
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

static int state_open(view_server *v, state_proc *p, pid_t *slot, int niceness, gt_error *err)
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
    int logfd = vj_open_log(v, slot == &v->jobs->held_pid ? "state-held.log" : "state.log", log,
                            sizeof log);
    char *argv[] = {v->glretrace, "--headless", "--state-server", v->trace_abs, NULL};
    pthread_mutex_lock(&v->jobs->lock);
    pid_t pid = atomic_load(&v->stopping) ? -1
                                          : vj_spawn(argv, to[0], from[1], logfd, niceness, err);
    if (pid > 0)
        *slot = pid;
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
        state_close(v, p, slot);
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
    pid_t pid = vj_spawn(argv, -1, fds[1], -1, 0, &err);
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

/* Asks p for call want. 1: answered (*json: the state, malloc'd, or freed when json is
 * NULL; *dumped: the call dumped); 0: the replay is behind (restart and ask again); -1:
 * failed, with msg. job (or NULL) gets the progress. */
static int state_ask(view_server *v, state_proc *p, uint32_t want, view_job *job, char **json,
                     size_t *json_len, uint32_t *dumped, char *msg, size_t size)
{
    if (fprintf(p->in, "%u\n", want) < 0 || fflush(p->in) != 0) {
        snprintf(msg, size, "the state server stopped taking calls");
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int rc = -1;
    snprintf(msg, size, "the state server exited before answering call %u", want);
    while ((n = getline(&line, &cap, p->out)) > 0) {
        if (line[n - 1] == '\n')
            line[--n] = '\0';
        unsigned long long a, b;
        if (sscanf(line, "progress %llu", &a) == 1) {
            if (job) {
                pthread_mutex_lock(&v->jobs->lock);
                job->at = (uint32_t)a;
                pthread_mutex_unlock(&v->jobs->lock);
            }
            continue;
        }
        if (sscanf(line, "state %llu %llu", &a, &b) == 2) {
            char *buf = b < SIZE_MAX ? malloc((size_t)b + 1) : NULL;
            if (!buf) {
                snprintf(msg, size, "out of memory for a state of %llu bytes", b);
                break;
            }
            if (fread(buf, 1, (size_t)b, p->out) != (size_t)b) {
                free(buf);
                snprintf(msg, size, "the state server's answer for call %u was cut short", want);
                break;
            }
            buf[b] = '\0';
            if (json) {
                *json = buf;
                *json_len = (size_t)b;
            } else {
                free(buf);
            }
            *dumped = (uint32_t)a;
            p->at = (uint32_t)a;
            p->asked = want;
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

/* Whether p can answer want by going forward: calls asked..at have one state. */
static bool can_serve(const state_proc *p, uint32_t want)
{
    return p->pid && (!p->any || want >= p->asked);
}

/* Where the held replay stands for a request of call no: the call before the first
 * of its frame (HELD_NONE in the first frame: a new process is as near). */
static uint32_t held_point(view_server *v, uint32_t no)
{
    const at_index *ix = v->ix;
    size_t lo = 0, hi = ix->nframes;
    while (lo < hi) { /* the first frame whose last call is at or after no */
        size_t mid = lo + (hi - lo) / 2;
        if (ix->frames[mid].last_no < no)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo >= ix->nframes || ix->frames[lo].first_no == 0 || ix->frames[lo].first_no > no)
        return HELD_NONE;
    return ix->frames[lo].first_no - 1;
}

/* The held replay's thread: moves it to h->want whenever that changes (forward when it
 * can, else a new process), niced below the requests' replay. */
static void *held_main(void *arg)
{
    view_server *v = arg;
    view_jobs *j = v->jobs;
    state_held *h = j->held;
    pthread_mutex_lock(&j->lock);
    for (;;) {
        while (!h->stop && !atomic_load(&v->stopping) &&
               (h->want == HELD_NONE || (h->p.pid && h->p.any && h->p.asked == h->want)))
            pthread_cond_wait(&j->cond, &j->lock);
        if (h->stop || atomic_load(&v->stopping))
            break;
        uint32_t want = h->want;
        h->moving = true;
        pthread_mutex_unlock(&j->lock);
        if (h->p.pid && !can_serve(&h->p, want))
            state_close(v, &h->p, &j->held_pid);
        gt_error err;
        gt_error_clear(&err);
        char msg[GT_ERROR_MAX];
        uint32_t dumped;
        int rc = -1;
        if (h->p.pid || state_open(v, &h->p, &j->held_pid, 5, &err) == 0)
            rc = state_ask(v, &h->p, want, NULL, NULL, NULL, &dumped, msg, sizeof msg);
        if (rc != 1)
            state_close(v, &h->p, &j->held_pid);
        pthread_mutex_lock(&j->lock);
        h->moving = false;
        if (rc != 1 && h->want == want) /* no retrying the same point forever */
            h->want = HELD_NONE;
        pthread_cond_broadcast(&j->cond);
    }
    /* taken under the lock: the state thread may be taking it at this moment */
    state_proc mine = h->p;
    memset(&h->p, 0, sizeof h->p);
    pthread_mutex_unlock(&j->lock);
    state_close(v, &mine, &j->held_pid);
    return NULL;
}

/* Points the held replay at the frame of call no (under the lock). One moving to a
 * point past the new one is stopped (killed): it would only be started again. */
static void held_aim(view_server *v, uint32_t no)
{
    state_held *h = v->jobs->held;
    uint32_t point = held_point(v, no);
    if (h->want == point)
        return;
    if (h->moving && h->want != HELD_NONE && point < h->want && v->jobs->held_pid > 0)
        kill(-v->jobs->held_pid, SIGKILL);
    h->want = point;
    pthread_cond_broadcast(&v->jobs->cond);
}

int64_t vj_held_at(view_jobs *j)
{
    state_held *h = j->held;
    if (!h || h->moving || !h->p.pid || !h->p.any || h->p.asked != h->want)
        return -1;
    return h->want;
}

/* The oldest state request waiting (under the lock), or NULL. */
static view_job *next_request(view_jobs *j)
{
    for (size_t i = 0; i < j->njobs; ++i)
        if (j->jobs[i]->kind == JOB_STATE && j->jobs[i]->state == JOB_RUNNING &&
            !j->jobs[i]->taken)
            return j->jobs[i];
    return NULL;
}

/* Waits (under the lock) until no state request came for SETTLE_NS. */
static void settle(view_server *v)
{
    view_jobs *j = v->jobs;
    for (;;) {
        int64_t last = 0;
        for (size_t i = 0; i < j->njobs; ++i)
            if (j->jobs[i]->kind == JOB_STATE && j->jobs[i]->asked_ns > last)
                last = j->jobs[i]->asked_ns;
        int64_t wait = last + SETTLE_NS - now_ns();
        if (wait <= 0 || atomic_load(&v->stopping))
            return;
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        int64_t t = (int64_t)ts.tv_nsec + wait;
        ts.tv_sec += (time_t)(t / 1000000000);
        ts.tv_nsec = (long)(t % 1000000000);
        pthread_cond_timedwait(&j->cond, &j->lock, &ts);
    }
}

/* Takes the held replay as the warm one when it stands at or before want and after
 * where the warm one could start (under the lock; the warm one is closed by the caller
 * first). Whether it did. */
static bool held_usable(state_held *h, const state_proc *warm, uint32_t want)
{
    if (h->moving || !h->p.pid || !h->p.any || h->p.asked != h->want || !can_serve(&h->p, want))
        return false;
    return !can_serve(warm, want) || h->p.at > warm->at;
}

static void *state_main(void *arg)
{
    view_server *v = arg;
    view_jobs *j = v->jobs;
    state_held *h = j->held;
    state_proc p = {0};
    pthread_t held_thread;
    bool held_started = pthread_create(&held_thread, NULL, held_main, v) == 0;
    for (;;) {
        pthread_mutex_lock(&j->lock);
        view_job *job = NULL;
        while (!atomic_load(&v->stopping)) {
            job = next_request(j);
            /* another replay than the warm one: a newer request may come first */
            if (job && !can_serve(&p, job->want)) {
                settle(v);
                job = next_request(j); /* the newest of its client by now */
            }
            if (job)
                break;
            pthread_cond_wait(&j->cond, &j->lock);
        }
        if (!job) {
            pthread_mutex_unlock(&j->lock);
            break;
        }
        job->taken = true;
        uint32_t want = job->want;
        /* the held replay on its way to a point at or before want is ahead of a new one */
        while (held_started && h->moving && h->want != HELD_NONE && h->want <= want &&
               !can_serve(&p, want) && !atomic_load(&v->stopping))
            pthread_cond_wait(&j->cond, &j->lock);
        bool take_held = held_started && held_usable(h, &p, want);
        pthread_mutex_unlock(&j->lock);
        if (j->has_state_server < 0)
            j->has_state_server = probe_state_server(v);
        if (!j->has_state_server) {
            vj_fail_job(v, job, "this glretrace has no --state-server mode");
            continue;
        }
        const char *how = "warm";
        uint32_t from = p.any ? p.at : 0;
        if (take_held) {
            state_close(v, &p, &j->state_pid);
            pthread_mutex_lock(&j->lock);
            /* gone when the held thread ended meanwhile (stopping): a new one is refused */
            if (h->p.pid && !h->moving) {
                p = h->p;
                memset(&h->p, 0, sizeof h->p);
                j->state_pid = j->held_pid;
                j->held_pid = 0;
                how = "held";
                from = p.at;
            }
            pthread_mutex_unlock(&j->lock);
        }
        char msg[GT_ERROR_MAX];
        char *json = NULL;
        size_t len = 0;
        uint32_t dumped = 0;
        int rc = -1;
        for (int tries = 0; tries < 2 && rc != 1; ++tries) {
            if (p.pid && !can_serve(&p, want)) /* it only goes forward */
                state_close(v, &p, &j->state_pid);
            gt_error err;
            gt_error_clear(&err);
            if (!p.pid) {
                how = "start";
                from = 0;
                if (state_open(v, &p, &j->state_pid, 0, &err) < 0) {
                    snprintf(msg, sizeof msg, "%s", err.msg);
                    rc = -1;
                    break;
                }
            }
            rc = state_ask(v, &p, want, job, &json, &len, &dumped, msg, sizeof msg);
            if (rc < 0) { /* a process that failed once is not trusted again */
                state_close(v, &p, &j->state_pid);
                break;
            }
            if (rc == 0)
                state_close(v, &p, &j->state_pid);
        }
        if (rc == 0)
            snprintf(msg, sizeof msg, "the state server stays behind call %u", want);
        if (rc != 1) {
            vj_fail_job(v, job, atomic_load(&v->stopping) ? "stopped" : msg);
            continue;
        }
        pthread_mutex_lock(&j->lock);
        job->result = json;
        job->result_len = len;
        job->dumped = job->at = dumped;
        job->from = from;
        job->how = how;
        job->state = JOB_DONE;
        if (held_started)
            held_aim(v, want);
        pthread_mutex_unlock(&j->lock);
    }
    state_close(v, &p, &j->state_pid);
    if (held_started) {
        pthread_mutex_lock(&j->lock);
        h->stop = true;
        if (j->held_pid > 0)
            kill(-j->held_pid, SIGKILL);
        pthread_cond_broadcast(&j->cond);
        pthread_mutex_unlock(&j->lock);
        pthread_join(held_thread, NULL);
    }
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

/* Only the newest request of a client matters (under the lock): its older requests
 * still waiting answer "superseded" at once, and are never replayed (100 quick
 * requests used to queue 100 replays, ~90 s). */
static void supersede(view_jobs *j, view_job *newest, const char *client)
{
    for (size_t i = 0; i < j->njobs; ++i) {
        view_job *job = j->jobs[i];
        if (job == newest || job->kind != JOB_STATE || job->state != JOB_RUNNING ||
            job->taken || strcmp(job->client, client))
            continue;
        job->state = JOB_FAILED;
        job->superseded = true;
        snprintf(job->error, sizeof job->error,
                 "superseded: a later request of the same client (call %u) replaces it",
                 newest->want);
    }
}

int view_api_state(view_server *v, const char *call_s, const char *client,
                   gt_strbuf *out)
{
    view_jobs *j = v->jobs;
    uint64_t call;
    if (!call_s) {
        view_json_error(out, "call= is missing");
        return 400;
    }
    if (!v->ix || !v->glretrace)
        return vj_no_replay(v, out);
    if (view_arg_u64("call", call_s, 0, UINT32_MAX, &call, out) < 0)
        return 400;
    if (call > v->last_call) {
        char msg[GT_ERROR_MAX];
        snprintf(msg, sizeof msg, "call %llu is past the end of %s (last call %u)",
                 (unsigned long long)call, v->trace, v->last_call);
        view_json_error(out, msg);
        return 400;
    }
    if (!client)
        client = "";
    if (strlen(client) >= sizeof ((view_job *)0)->client) {
        view_json_error(out, "client= is longer than 47 characters");
        return 400;
    }
    pthread_mutex_lock(&j->lock);
    if (!j->held && !(j->held = calloc(1, sizeof *j->held))) {
        pthread_mutex_unlock(&j->lock);
        view_json_error(out, "out of memory");
        return 500;
    }
    if (!j->state_started)
        j->held->want = HELD_NONE;
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
        if (!(job = vj_new_job(j, JOB_STATE))) {
            pthread_mutex_unlock(&j->lock);
            view_json_error(out, "out of memory");
            return 500;
        }
        job->want = (uint32_t)call;
        snprintf(job->client, sizeof job->client, "%s", client);
        drop_old_states(j);
    }
    job->asked_ns = now_ns();
    supersede(j, job, client);
    pthread_cond_broadcast(&j->cond);
    return vj_reply_job(j, job, out);
}
