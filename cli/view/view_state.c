/* gltrace view's GL state (view_jobs_internal.h): one `glretrace --state-server`
 * kept warm, asked for calls in order from a queue, restarted when asked for a call
 * behind it. */
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
    int logfd = vj_open_log(v, "state.log", log, sizeof log);
    char *argv[] = {v->glretrace, "--headless", "--state-server", v->trace_abs, NULL};
    pthread_mutex_lock(&v->jobs->lock);
    pid_t pid = atomic_load(&v->stopping) ? -1 : vj_spawn(argv, to[0], from[1], logfd, 0, err);
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
            vj_fail_job(v, job, "this glretrace has no --state-server mode");
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
            vj_fail_job(v, job, atomic_load(&v->stopping) ? "stopped" : msg);
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
        if (!(job = vj_new_job(j, JOB_STATE))) {
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
