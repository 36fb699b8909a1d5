/* gltrace view's image comparison (view_jobs_internal.h): `gltrace diff-images` on
 * copies of two prefixes' images in the cache, served under the token. */
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
                        : vj_spawn_in(argv, dir, -1, outfd, logfd, 10, &err);
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
            int st = vj_reap(v, &job->pid, pid);
            char report[PATH_MAX + 32];
            snprintf(report, sizeof report, "%s/index.html", dir);
            /* 1: some images differ; the report is there all the same */
            if (!WIFEXITED(st) || WEXITSTATUS(st) > 1 || access(report, R_OK) != 0) {
                vj_describe_exit(msg, sizeof msg, "gltrace diff-images", st, log);
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
        vj_fail_job(v, job, atomic_load(&v->stopping) ? "stopped" : msg);
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
    } else if (!(job = vj_new_job(j, JOB_DIFF))) {
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
    view_job *job = vj_find_job(j, (unsigned)id);
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
