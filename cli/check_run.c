/* gltrace check's replays (check_run.h): child processes, at most o->jobs at a time,
 * polled so that a replay past its timeout is killed; their images and frame times
 * turned into verdicts. */
#define _GNU_SOURCE /* asprintf, vasprintf */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check_child.h"
#include "check_run.h"
#include "gt_md5.h"
#include "gt_png.h"
#include "lib_path.h"

typedef struct slot {
    pid_t pid;
    size_t i; /* the result's index */
    double start;
    bool killed;
} slot;

typedef struct files {
    char *dir, *base, *log; /* OUT/trace/DEVICE/FOLDER/, BASE, DIR/BASE.log */
} files;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    char *s = NULL;
    if (vasprintf(&s, f, ap) < 0)
        s = NULL;
    va_end(ap);
    return s;
}

static void mkdirs(const char *dir)
{
    char *p = strdup(dir);
    if (!p)
        return;
    for (char *s = p + 1; *s; ++s)
        if (*s == '/') {
            *s = 0;
            mkdir(p, 0777);
            *s = '/';
        }
    mkdir(p, 0777);
    free(p);
}

/* Where a trace's outputs go: piglit's layout, OUT/trace/DEVICE/ and the trace's folder */
static int trace_files(const check_opts *o, const char *path, files *f)
{
    const char *slash = strrchr(path, '/');
    f->base = strdup(slash ? slash + 1 : path);
    f->dir = slash ? fmt("%s/trace/%s/%.*s", o->out_dir, o->device, (int)(slash - path), path)
                   : fmt("%s/trace/%s", o->out_dir, o->device);
    if (!f->dir || !f->base)
        return -1;
    /* a path climbing out of the folder stays inside it */
    for (char *s = strstr(f->dir, ".."); s; s = strstr(s, ".."))
        s[0] = s[1] = '_';
    if (!(f->log = fmt("%s/%s.log", f->dir, f->base)))
        return -1;
    mkdirs(f->dir);
    return 0;
}

static void files_free(files *f)
{
    free(f->dir);
    free(f->base);
    free(f->log);
}

int check_png_checksum(const char *png, char hex[33], gt_error *err)
{
    gt_image img;
    if (gt_png_read(png, &img, err) != 0)
        return -1;
    size_t n = (size_t)img.width * img.height;
    if (!img.has_alpha) /* PIL's RGB image: three bytes a pixel */
        gt_png_rgba_to_rgb(img.rgba, n);
    gt_md5 m;
    uint8_t d[16];
    gt_md5_init(&m);
    gt_md5_update(&m, img.rgba, n * (img.has_alpha ? 4 : 3));
    gt_md5_final(&m, d);
    for (int i = 0; i < 16; ++i)
        sprintf(hex + 2 * i, "%02x", d[i]);
    gt_image_free(&img);
    return 0;
}

/* The last snapshot the child wrote (names sort by call number): malloc'd, or NULL */
static char *last_image(const files *f)
{
    DIR *d = opendir(f->dir);
    if (!d)
        return NULL;
    size_t bl = strlen(f->base);
    char *best = NULL;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n == bl + 15 && !strncmp(e->d_name, f->base, bl) && e->d_name[bl] == '-' &&
            !strcmp(e->d_name + n - 4, ".png") && (!best || strcmp(e->d_name, best) > 0)) {
            free(best);
            best = strdup(e->d_name);
        }
    }
    closedir(d);
    char *path = best ? fmt("%s/%s", f->dir, best) : NULL;
    free(best);
    return path;
}

/* Removes the snapshots an earlier run left for this trace, so that the image judged
 * is this replay's */
static void remove_old_images(const files *f)
{
    char *img;
    while ((img = last_image(f))) {
        int rc = unlink(img);
        free(img);
        if (rc != 0)
            return;
    }
}

/* The log's last non-empty line, for a one-line reason */
static char *log_tail(const char *log)
{
    FILE *fp = fopen(log, "r");
    if (!fp)
        return NULL;
    char line[512], last[512] = "";
    while (fgets(line, sizeof line, fp)) {
        line[strcspn(line, "\n")] = 0;
        if (*line)
            strcpy(last, line);
    }
    fclose(fp);
    return *last ? strdup(last) : NULL;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* piglit's frame times: the "frame\tNS" lines of --pframes, the last `loops` of them */
static int read_frames(const char *path, long loops, check_frames *fr)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return -1;
    double *v = NULL;
    size_t n = 0, cap = 0;
    char line[256];
    while (fgets(line, sizeof line, fp)) {
        if (strncmp(line, "frame\t", 6))
            continue;
        if (n == cap) {
            double *p = realloc(v, (cap = cap ? 2 * cap : 256) * sizeof *v);
            if (!p)
                break;
            v = p;
        }
        v[n++] = strtod(line + 6, NULL) / 1e6;
    }
    fclose(fp);
    size_t from = loops > 0 && (size_t)loops < n ? n - (size_t)loops : 0;
    memset(fr, 0, sizeof *fr);
    fr->n = n - from;
    if (fr->n) {
        double *w = v + from, sum = 0;
        qsort(w, fr->n, sizeof *w, cmp_double);
        for (size_t i = 0; i < fr->n; ++i)
            sum += w[i];
        fr->min = w[0];
        fr->max = w[fr->n - 1];
        fr->mean = sum / (double)fr->n;
        fr->median = fr->n % 2 ? w[fr->n / 2] : (w[fr->n / 2 - 1] + w[fr->n / 2]) / 2;
    }
    free(v);
    return fr->n ? 0 : -1;
}

static void fail(check_result *r, char *why)
{
    r->verdict = CHECK_FAIL;
    free(r->why);
    r->why = why ? why : strdup("failed (out of memory)");
}

/* How the child ended, as a failure; 0 when it exited 0 */
static int child_failed(check_result *r, int st, bool killed, const check_opts *o, const char *log)
{
    if (killed)
        fail(r, fmt("replay timed out after %u s (killed)", o->timeout));
    else if (WIFSIGNALED(st))
        fail(r, fmt("replay crashed: signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st))));
    else if (WIFEXITED(st) && WEXITSTATUS(st) == CHECK_CHILD_NO_FRAME)
        fail(r, strdup("the trace has no frame-ending call to snapshot"));
    else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        char *tail = log_tail(log);
        fail(r, fmt("replay failed (exit %d)%s%s", WIFEXITED(st) ? WEXITSTATUS(st) : -1,
                    tail ? ": " : "", tail ? tail : ""));
        free(tail);
    } else
        return 0;
    return -1;
}

static void judge_image(check_result *r, const check_trace *t, const files *f, const check_opts *o)
{
    char hex[33];
    gt_error err;
    gt_error_clear(&err);
    char *img = last_image(f);
    if (!img) {
        fail(r, fmt("the replay wrote no image (see %s)", f->log));
        return;
    }
    if (check_png_checksum(img, hex, &err) != 0) {
        fail(r, fmt("%s", err.msg));
        free(img);
        return;
    }
    r->actual = strdup(hex);
    if (t->checksum && !strcmp(t->checksum, hex)) {
        r->verdict = CHECK_PASS;
    } else {
        r->sum_differs = true;
        fail(r, t->checksum ? fmt("checksum differs: expected %s, got %s", t->checksum, hex)
                            : fmt("no checksum for this device (got %s)", hex));
    }
    if (r->verdict == CHECK_PASS && !o->keep_images) {
        unlink(img);
        free(img);
    } else
        r->image = img;
}

/* The child of trace i ended with status st */
static void finish(const check_list *l, const size_t *idx, const check_opts *o, check_result *r,
                   size_t i, int st, bool killed)
{
    const check_trace *t = &l->t[idx[i]];
    files f = {0};
    if (trace_files(o, t->path, &f) != 0) {
        fail(r, NULL);
        files_free(&f);
        return;
    }
    if (child_failed(r, st, killed, o, f.log) == 0) {
        if (!o->profile)
            judge_image(r, t, &f, o);
        else if (read_frames(f.log, o->loops, &r->frames) != 0)
            fail(r, fmt("no frame times in the replay's output (see %s)", f.log));
        else
            r->verdict = CHECK_PASS;
    }
    if (r->verdict == CHECK_PASS && !o->keep_images)
        unlink(f.log);
    else
        r->log = strdup(f.log);
    files_free(&f);
}

static char *trace_path(const check_opts *o, const char *path)
{
    if (o->db_path && path[0] != '/')
        return fmt("%s/%s", o->db_path, path);
    return strdup(path);
}

/* Starts the child of trace i: 0, or 1 when the trace was settled without one */
static int start(const check_list *l, const size_t *idx, const check_opts *o,
                 const char *glretrace, check_result *r, slot *s, size_t i)
{
    const check_trace *t = &l->t[idx[i]];
    if (t->bad) {
        fail(r, strdup(t->bad));
        return 1;
    }
    if ((t->label_bits & CHECK_LABEL_SKIP) || (o->profile && (t->label_bits & CHECK_LABEL_NO_PERF))) {
        r->verdict = CHECK_SKIP;
        r->why = fmt("label: %s", t->labels);
        return 1;
    }
    files f = {0};
    char *path = trace_path(o, t->path), *prefix = NULL;
    int rc = 1;
    if (!path || trace_files(o, t->path, &f) != 0 || !(prefix = fmt("%s/%s-", f.dir, f.base)))
        fail(r, NULL);
    else if (access(path, R_OK) != 0)
        fail(r, fmt("trace %s: %s", path, strerror(errno)));
    else {
        remove_old_images(&f);
        fflush(NULL);
        pid_t pid = fork();
        if (pid < 0)
            fail(r, fmt("cannot start a replay: %s", strerror(errno)));
        else if (pid == 0) {
            FILE *lf = freopen(f.log, "w", stdout);
            if (!lf || dup2(fileno(stdout), 2) < 0)
                _exit(CHECK_CHILD_FAILED);
            check_child_job j = {.trace = path, .prefix = prefix, .calls = o->calls,
                                 .glretrace = o->profile ? glretrace : NULL, .loops = o->loops};
            check_child_main(&j);
        } else {
            *s = (slot){.pid = pid, .i = i, .start = now()};
            rc = 0;
        }
    }
    free(path);
    free(prefix);
    files_free(&f);
    return rc;
}

static void progress(const check_list *l, const size_t *idx, const check_result *r, size_t i,
                     size_t done, size_t n)
{
    static const char *const names[] = {"pass", "fail", "skip"};
    fprintf(stderr, "[%zu/%zu] %s %s (%.1f s)\n", done, n, names[r->verdict],
            l->t[idx[i]].path, r->secs);
}

/* Waits for one child to end (killing any past the timeout): its slot's index */
static int reap(slot *s, unsigned nslots, const check_opts *o, int *st)
{
    for (;;) {
        for (unsigned k = 0; k < nslots; ++k) {
            if (!s[k].pid)
                continue;
            pid_t p = waitpid(s[k].pid, st, WNOHANG);
            if (p == s[k].pid)
                return (int)k;
            if (p < 0 && errno != EINTR) {
                *st = 0x7f00; /* lost: counted as a failed exit */
                return (int)k;
            }
            if (o->timeout && !s[k].killed && now() - s[k].start > o->timeout) {
                kill(s[k].pid, SIGKILL);
                s[k].killed = true;
            }
        }
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

int check_run_all(const check_list *l, const size_t *idx, size_t n, const check_opts *o,
                  check_result *res, gt_error *err)
{
    char glretrace[4096] = "";
    if (o->profile) {
        if (gltrace_exe_path(glretrace, sizeof glretrace - 16, true, err) != 0)
            return -1;
        strcat(glretrace, "/glretrace");
    }
    slot *s = calloc(o->jobs, sizeof *s);
    if (!s) {
        gt_error_set(err, "out of memory");
        return -1;
    }
    memset(res, 0, n * sizeof *res);
    size_t next = 0, done = 0, running = 0;
    while (done < n) {
        while (next < n && running < o->jobs) {
            unsigned k = 0;
            while (s[k].pid)
                k++;
            if (start(l, idx, o, glretrace, &res[next], &s[k], next) == 0)
                running++;
            else if (++done && o->progress) /* settled without a replay */
                progress(l, idx, &res[next], next, done, n);
            next++;
        }
        if (!running)
            break;
        int st = 0, k = reap(s, o->jobs, o, &st);
        check_result *r = &res[s[k].i];
        r->secs = now() - s[k].start;
        finish(l, idx, o, r, s[k].i, st, s[k].killed);
        s[k].pid = 0;
        running--;
        if (++done && o->progress)
            progress(l, idx, r, s[k].i, done, n);
    }
    free(s);
    return 0;
}

void check_result_free(check_result *r)
{
    free(r->why);
    free(r->actual);
    free(r->image);
    free(r->log);
}
