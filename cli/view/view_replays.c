/* gltrace view's background replays (view_jobs_internal.h): the thumbnails of every
 * frame and the timeline whose Chrome JSON gives each frame's CPU and GPU time. */
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

/* Thumbnails are scaled down by a whole factor to at most this wide and high: a
 * 1920x1080 frame's PNG is a ninth as large (640x360). */
#define THUMB_MAX "640"

/* ---- thumbnails ------------------------------------------------------------------------- */

bool view_thumb_exists(view_server *v, uint32_t last_no)
{
    if (v->thumbs_fd < 0)
        return false;
    char p[32];
    snprintf(p, sizeof p, "%010u.png", last_no);
    struct stat st;
    /* made before the trace was last written: another recording's frame; a link is
     * never one of ours */
    return fstatat(v->thumbs_fd, p, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
           (st.st_mtim.tv_sec > v->trace_mtime.tv_sec ||
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
    char path[256], want[96], got[96] = "";
    snprintf(path, sizeof path, "%s.done", name);
    int fd = view_cache_open(v->cache_fd, path);
    FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
    if (!f) {
        if (fd >= 0)
            close(fd);
        return false;
    }
    bool same = fgets(got, sizeof got, f) != NULL;
    fclose(f);
    trace_stamp(v, want, sizeof want);
    return same && !strcmp(got, want);
}

static void stamp_write(view_server *v, const char *name)
{
    char path[256], stamp[96];
    snprintf(path, sizeof path, "%s.done", name);
    trace_stamp(v, stamp, sizeof stamp);
    if (view_cache_write(v->cache_fd, path, stamp, strlen(stamp)) != 0)
        fprintf(stderr, "gltrace view: note: cannot write %s/%s: %s\n", v->cache_dir, path,
                strerror(errno));
}

static void stamp_remove(view_server *v, const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s.done", name);
    unlinkat(v->cache_fd, path, 0); /* in our own folder: the name only, never a target */
}

static int start_timeline(view_server *v, int niceness, gt_strbuf *out);
/* The timeline of every frame is made at start for traces up to this many calls: its
 * Chrome JSON takes ~150 bytes a call (a 12.5M-call trace's was 2.2 GB); longer traces
 * get timelines of the frames asked for only. */
#define TIMELINE_ALL_MAX 1000000u
static void *asked_main(void *arg);

/* After the thumbnails (made or failed): the timeline, niced, for the frames' times. */
static void start_timeline_after_thumbs(view_server *v)
{
    if (atomic_load(&v->stopping) || !v->cache_dir)
        return;
    if (v->ix->calls > TIMELINE_ALL_MAX) { /* its JSON would be gigabytes */
        pthread_mutex_lock(&v->jobs->lock);
        v->jobs->timeline_skipped = true;
        pthread_mutex_unlock(&v->jobs->lock);
        fprintf(stderr, "gltrace view: note: %llu calls: no timeline of every frame, hence no "
                "frame times (api/timeline?frames=A-B makes one of some frames)\n",
                (unsigned long long)v->ix->calls);
        return;
    }
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
    view_job *job = vj_find_job(j, j->thumbs_job);
    pthread_mutex_unlock(&j->lock);
    /* resumed at the first frame without a thumbnail: a restart made them all again
     * from frame 0 */
    const at_index *ix = v->ix;
    size_t f0 = 0;
    while (f0 < ix->nframes && !atomic_load(&v->stopping) &&
           (!ix->frames[f0].complete || view_thumb_exists(v, ix->frames[f0].last_no)))
        ++f0;
    uint64_t total = 0;
    uint64_t budget = vj_thumbs_budget();
    /* over the budget (pruned now, down to 3/4 of it), or nearly: the replay in order
     * would stop at it soon */
    int pruned = f0 < ix->nframes ? vj_thumbs_prune(v, budget, &total) : -1;
    bool full = pruned == 1 || (pruned == 0 && total >= budget / 4 * 3);
    if (full) { /* the frames asked for only */
        pthread_mutex_lock(&j->lock);
        j->thumbs_full = true;
        job->state = JOB_DONE;
        pthread_mutex_unlock(&j->lock);
        start_timeline_after_thumbs(v);
        return NULL;
    }
    if (f0 == ix->nframes && !atomic_load(&v->stopping)) {
        stamp_write(v, "thumbs");
        pthread_mutex_lock(&j->lock);
        job->state = JOB_DONE;
        pthread_mutex_unlock(&j->lock);
        start_timeline_after_thumbs(v);
        return NULL;
    }
    char from[32];
    snprintf(from, sizeof from, "%u-/frame", f0 < ix->nframes ? ix->frames[f0].first_no : 0);
    char log[4096];
    int logfd = vj_open_log(v, "thumbs.log", log, sizeof log);
    /* in the cache's folder (its descriptor), to a relative prefix: the folder served is
     * the one checked, whatever happens to the names above it */
    char *argv[] = {v->glretrace, "--headless", "-s", "thumbs/", "--snapshot-max", THUMB_MAX, "-S", from, v->trace_abs,
                    NULL};
    int st = vj_run_child(v, job, argv, logfd, 10, &j->thumbs_pid);
    if (st < 0)
        return NULL;
    pthread_mutex_lock(&j->lock);
    full = j->thumbs_full;
    pthread_mutex_unlock(&j->lock);
    if (full && !atomic_load(&v->stopping)) { /* stopped at the budget: done, unstamped */
        pthread_mutex_lock(&j->lock);
        job->state = JOB_DONE;
        pthread_mutex_unlock(&j->lock);
    } else if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        stamp_write(v, "thumbs");
        pthread_mutex_lock(&j->lock);
        job->state = JOB_DONE;
        pthread_mutex_unlock(&j->lock);
    } else {
        char msg[GT_ERROR_MAX];
        vj_describe_status(msg, sizeof msg, st, log[0] ? log : NULL);
        vj_fail_job(v, job, atomic_load(&v->stopping) ? "stopped" : msg);
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
    if (!j->asked_started && !atomic_load(&v->stopping))
        j->asked_started = pthread_create(&j->asked_thread, NULL, asked_main, v) == 0;
    view_job *job = vj_new_job(j, JOB_THUMBS);
    if (job) {
        j->thumbs_job = job->id;
        if (done)
            job->state = JOB_DONE;
        else
            j->thumbs_started = vj_start_thread(job, &j->thumbs_thread, thumbs_main, v);
    }
    pthread_mutex_unlock(&j->lock);
    if (!job || job->state != JOB_RUNNING)
        start_timeline_after_thumbs(v);
}

/* ---- thumbnails asked for ------------------------------------------------------------- */

/* The frames on screen first: api/thumb of a frame not made yet asks for it, and frames
 * asked for within ASKED_NS of each other, at most ASKED_SPAN apart, make one window;
 * a replay niced less than the one in order makes the window's missing thumbnails (to
 * its last call only), and a window elsewhere stops it. */
#define ASKED_SPAN 256
#define ASKED_NS 5000000000LL

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Keeps the thumbnails to their budget (under the lock, released while it reads the
 * folder): past it, the least recently used go and the replay in order stops. */
static void keep_budget(view_server *v)
{
    view_jobs *j = v->jobs;
    pthread_mutex_unlock(&j->lock);
    uint64_t total;
    int pruned = vj_thumbs_prune(v, vj_thumbs_budget(), &total);
    pthread_mutex_lock(&j->lock);
    if (pruned == 1 && j->thumbs_pid > 0) {
        j->thumbs_full = true;
        kill(-j->thumbs_pid, SIGKILL);
    }
}

/* The thread making the thumbnails asked for, and keeping the folder to its budget
 * (every KEEP_NS, and after each replay). */
#define KEEP_NS 2000000000LL

static void *asked_main(void *arg)
{
    view_server *v = arg;
    view_jobs *j = v->jobs;
    const at_index *ix = v->ix;
    unsigned handled = 0;
    pthread_mutex_lock(&j->lock);
    for (;;) {
        while (!atomic_load(&v->stopping) && j->want_gen == handled) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_sec += KEEP_NS / 1000000000;
            if (pthread_cond_timedwait(&j->cond, &j->lock, &ts) == ETIMEDOUT)
                keep_budget(v);
        }
        if (atomic_load(&v->stopping))
            break;
        handled = j->want_gen;
        uint32_t lo = j->want_lo, hi = j->want_hi;
        pthread_mutex_unlock(&j->lock);
        size_t a = SIZE_MAX, b = 0;
        for (size_t f = lo; f <= hi && f < ix->nframes; ++f)
            if (ix->frames[f].complete && !view_thumb_exists(v, ix->frames[f].last_no)) {
                if (a == SIZE_MAX)
                    a = f;
                b = f;
            }
        if (a != SIZE_MAX) {
            char set[64], limit[24], log[4096];
            snprintf(set, sizeof set, "%u-%u/frame", ix->frames[a].first_no,
                     ix->frames[b].last_no);
            snprintf(limit, sizeof limit, "%u", ix->frames[b].last_no);
            char *argv[] = {v->glretrace, "--headless", "-s", "thumbs/", "--snapshot-max", THUMB_MAX, "-S", set,
                            "--call-limit", limit, v->trace_abs, NULL};
            pthread_mutex_lock(&j->lock);
            j->run_lo = (uint32_t)a;
            j->run_hi = (uint32_t)b;
            pthread_mutex_unlock(&j->lock);
            view_job run = {.kind = JOB_THUMBS, .v = v}; /* not in the table */
            int logfd = vj_open_log(v, "thumbs-asked.log", log, sizeof log);
            vj_run_child(v, &run, argv, logfd, 5, &j->asked_pid);
        }
        pthread_mutex_lock(&j->lock);
        keep_budget(v);
    }
    pthread_mutex_unlock(&j->lock);
    return NULL;
}

void vj_thumb_wanted(view_server *v, uint32_t f)
{
    view_jobs *j = v->jobs;
    if (!v->glretrace || !v->thumbs_dir || !j)
        return;
    int64_t now = now_ns();
    pthread_mutex_lock(&j->lock);
    uint32_t lo = j->want_lo, hi = j->want_hi;
    bool near = j->want_ns && now - j->want_ns < ASKED_NS;
    if (near && f < lo && hi - f < ASKED_SPAN)
        lo = f;
    else if (near && f > hi && f - lo < ASKED_SPAN)
        hi = f;
    else if (f < lo || f > hi)
        lo = hi = f;
    /* a frame of the window last asked is not asked again: one its replay could not
     * make would be replayed for every time the page asks */
    if (lo != j->want_lo || hi != j->want_hi || !j->want_ns) {
        j->want_lo = lo;
        j->want_hi = hi;
        j->want_gen++;
        /* the replay running makes frames nobody looks at now */
        if (j->asked_pid > 0 && (j->run_hi < lo || j->run_lo > hi))
            kill(-j->asked_pid, SIGKILL);
        pthread_cond_broadcast(&j->cond);
    }
    j->want_ns = now;
    pthread_mutex_unlock(&j->lock);
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
    view_job *job = vj_find_job(j, j->timeline_job);
    int niceness = j->timeline_nice;
    pthread_mutex_unlock(&j->lock);
    char log[4096], out[4096], tmp[256];
    snprintf(out, sizeof out, "%s/timeline.json", v->cache_dir);
    int have = view_cache_open(v->cache_fd, "timeline.json");
    if (have >= 0)
        close(have);
    /* made by an earlier run for this very trace */
    if (stamp_ok(v, "timeline") && have >= 0) {
        read_profile(v, out);
        pthread_mutex_lock(&j->lock);
        job->state = JOB_DONE;
        pthread_mutex_unlock(&j->lock);
        return NULL;
    }
    stamp_remove(v, "timeline");
    /* glretrace writes a new file of ours (made here, exclusively), renamed to
     * timeline.json once whole: a link planted under either name is never followed */
    int tfd = view_cache_create(v->cache_fd, "timeline.json", tmp, sizeof tmp);
    if (tfd < 0) {
        char msg[GT_ERROR_MAX];
        snprintf(msg, sizeof msg, "cannot make a file in %s: %s", v->cache_dir, strerror(errno));
        vj_fail_job(v, job, msg);
        return NULL;
    }
    close(tfd);
    int logfd = vj_open_log(v, "timeline.log", log, sizeof log);
    char *argv[] = {v->glretrace, "--headless", "-b", "--pcpu", "--pgpu", "--chrome", tmp,
                    v->trace_abs, NULL};
    int st = vj_run_child(v, job, argv, logfd, niceness, &j->timeline_pid);
    bool made = st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 &&
                view_cache_commit(v->cache_fd, tmp, "timeline.json") == 0;
    if (!made)
        unlinkat(v->cache_fd, tmp, 0); /* ours */
    if (st < 0)
        return NULL;
    if (made) {
        stamp_write(v, "timeline");
        read_profile(v, out); /* before done: a done job's frames have their times */
        pthread_mutex_lock(&j->lock);
        job->state = JOB_DONE;
        pthread_mutex_unlock(&j->lock);
    } else {
        char msg[GT_ERROR_MAX];
        vj_describe_status(msg, sizeof msg, st, log[0] ? log : NULL);
        vj_fail_job(v, job, atomic_load(&v->stopping) ? "stopped" : msg);
    }
    return NULL;
}

/* A timeline of frames frame_lo..frame_hi: profiled from the first's first call to
 * the last's last call (glretrace --profile-from, --call-limit), cached for the same
 * trace (NAME.done), not read for the frames' times. */
static void *range_main(void *arg)
{
    view_job *job = arg;
    view_server *v = job->v;
    const at_index *ix = v->ix;
    char stamp[96], log[4096], tmp[256], from[24], limit[24];
    snprintf(stamp, sizeof stamp, "timeline-%u-%u", job->frame_lo, job->frame_hi);
    int have = view_cache_open(v->cache_fd, job->ref);
    if (have >= 0)
        close(have);
    if (have >= 0 && stamp_ok(v, stamp)) {
        pthread_mutex_lock(&v->jobs->lock);
        job->state = JOB_DONE;
        pthread_mutex_unlock(&v->jobs->lock);
        return NULL;
    }
    stamp_remove(v, stamp);
    int tfd = view_cache_create(v->cache_fd, job->ref, tmp, sizeof tmp);
    if (tfd < 0) {
        char msg[GT_ERROR_MAX];
        snprintf(msg, sizeof msg, "cannot make a file in %s: %s", v->cache_dir, strerror(errno));
        vj_fail_job(v, job, msg);
        return NULL;
    }
    close(tfd);
    snprintf(from, sizeof from, "%u", ix->frames[job->frame_lo].first_no);
    snprintf(limit, sizeof limit, "%u", ix->frames[job->frame_hi].last_no);
    int logfd = vj_open_log(v, "timeline.log", log, sizeof log);
    char *argv[] = {v->glretrace, "--headless", "-b", "--pcpu", "--pgpu", "--profile-from", from,
                    "--call-limit", limit, "--chrome", tmp, v->trace_abs, NULL};
    int st = vj_run_child(v, job, argv, logfd, 0, &job->pid);
    bool made = st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 &&
                view_cache_commit(v->cache_fd, tmp, job->ref) == 0;
    if (!made)
        unlinkat(v->cache_fd, tmp, 0); /* ours */
    if (st < 0)
        return NULL;
    if (made) {
        stamp_write(v, stamp);
        pthread_mutex_lock(&v->jobs->lock);
        job->state = JOB_DONE;
        pthread_mutex_unlock(&v->jobs->lock);
    } else {
        char msg[GT_ERROR_MAX];
        vj_describe_status(msg, sizeof msg, st, log[0] ? log : NULL);
        vj_fail_job(v, job, atomic_load(&v->stopping) ? "stopped" : msg);
    }
    return NULL;
}

/* api/timeline?frames=A-B: at most TIMELINE_FRAMES_MAX frames. */
#define TIMELINE_FRAMES_MAX 10000u

static int start_range(view_server *v, const char *frames, gt_strbuf *out)
{
    view_jobs *j = v->jobs;
    unsigned long long a = 0, b = 0;
    const char *dash = strchr(frames, '-');
    bool digits = dash && dash > frames && dash[1] && strspn(frames, "0123456789") ==
                  (size_t)(dash - frames) && strspn(dash + 1, "0123456789") == strlen(dash + 1) &&
                  dash - frames <= 10 && strlen(dash + 1) <= 10;
    if (digits) {
        a = strtoull(frames, NULL, 10);
        b = strtoull(dash + 1, NULL, 10);
    }
    if (!digits) {
        view_json_error(out, "frames= is FIRST-LAST, two frame numbers");
        return 400;
    }
    char msg[GT_ERROR_MAX];
    if (a > b || b >= v->ix->nframes || b - a >= TIMELINE_FRAMES_MAX) {
        snprintf(msg, sizeof msg, "frames=%llu-%llu: the first is at most the last, the last "
                 "below %zu (the frames of %s), at most %u frames", a, b, v->ix->nframes,
                 v->trace, TIMELINE_FRAMES_MAX);
        view_json_error(out, msg);
        return 400;
    }
    pthread_mutex_lock(&j->lock);
    view_job *job = NULL;
    for (size_t i = 0; i < j->njobs && !job; ++i) /* join the same range */
        if (j->jobs[i]->kind == JOB_TIMELINE && j->jobs[i]->has_range &&
            j->jobs[i]->frame_lo == a && j->jobs[i]->frame_hi == b &&
            j->jobs[i]->state != JOB_FAILED)
            job = j->jobs[i];
    if (!job) {
        char name[64];
        snprintf(name, sizeof name, "timeline-%llu-%llu.json", a, b);
        if (atomic_load(&v->stopping) || !(job = vj_new_job(j, JOB_TIMELINE)) ||
            !(job->ref = strdup(name))) {
            if (job)
                job->state = JOB_FAILED;
            pthread_mutex_unlock(&j->lock);
            view_json_error(out, atomic_load(&v->stopping) ? "stopping" : "out of memory");
            return 500;
        }
        job->has_range = true;
        job->frame_lo = (uint32_t)a;
        job->frame_hi = (uint32_t)b;
        job->v = v;
        job->has_thread = vj_start_thread(job, &job->thread, range_main, job);
    }
    return vj_reply_job(j, job, out);
}

int vj_no_replay(view_server *v, gt_strbuf *out)
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
        return vj_no_replay(v, out);
    pthread_mutex_lock(&j->lock);
    view_job *job = vj_find_job(j, j->timeline_job);
    if (!job || job->state == JOB_FAILED) { /* else join the one there */
        if (j->timeline_started) { /* the failed one's thread is over */
            pthread_join(j->timeline_thread, NULL);
            j->timeline_started = false;
        }
        if (atomic_load(&v->stopping) || !(job = vj_new_job(j, JOB_TIMELINE))) {
            pthread_mutex_unlock(&j->lock);
            view_json_error(out, atomic_load(&v->stopping) ? "stopping" : "out of memory");
            return 500;
        }
        j->timeline_job = job->id;
        j->timeline_nice = niceness;
        j->timeline_started = vj_start_thread(job, &j->timeline_thread, timeline_main, v);
    }
    return vj_reply_job(j, job, out);
}

int view_api_timeline(view_server *v, const char *frames, gt_strbuf *out)
{
    if (frames && v->ix && v->glretrace && v->cache_dir)
        return start_range(v, frames, out);
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
    view_job *job = vj_find_job(j, j->timeline_job);
    /* a timeline done without times: its JSON could not be read; failed: none either
     * (until the timeline is asked for again) */
    bool over = (job && job->state != JOB_RUNNING) || (!job && j->timeline_skipped);
    pthread_mutex_unlock(&j->lock);
    if (!over)
        return "pending";
    pthread_mutex_lock(&v->scan_lock); /* read just before the job ended? */
    known = v->profile_known;
    pthread_mutex_unlock(&v->scan_lock);
    return known ? "done" : "none";
}
