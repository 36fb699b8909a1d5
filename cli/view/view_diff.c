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
#include "gt_png.h"
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

/* The folder holding rel's last segment under dirfd, made when missing (none of it a
 * link): an fd, with *base the last segment, or -1 with errno. */
static int parent_at(int dirfd, const char *rel, const char **base)
{
    int fd = dup(dirfd);
    const char *s = rel;
    for (size_t n; fd >= 0 && s[n = strcspn(s, "/")] == '/'; s += n + 1) {
        char seg[256];
        if (!n || n >= sizeof seg) {
            close(fd);
            errno = EINVAL;
            return -1;
        }
        memcpy(seg, s, n);
        seg[n] = '\0';
        if (mkdirat(fd, seg, 0777) != 0 && errno != EEXIST) {
            close(fd);
            return -1;
        }
        int next = openat(fd, seg, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        int e = errno;
        close(fd);
        errno = e;
        fd = next;
    }
    *base = s;
    return fd;
}

enum { MAX_IMAGE_BYTES = 256 << 20 }; /* as gt_png_read */

/* Copies the image from into the job's folder (dirfd) as rel: only a regular file that
 * decodes as a PNG (read once, checked, and those very bytes written: what is served
 * is an image, never a file a link or a swap put there). 1: copied; 0: from is not
 * there or not a regular file; 2: not a PNG; -1: failed, with msg. */
static int copy_png(const char *from, int dirfd, const char *rel, char *msg, size_t size)
{
    int in = open(from, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat st;
    if (in < 0 || fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) {
        if (in >= 0)
            close(in);
        return 0;
    }
    if (st.st_size > MAX_IMAGE_BYTES || st.st_size < 8) {
        close(in);
        return 2;
    }
    size_t len = (size_t)st.st_size, got = 0;
    uint8_t *data = malloc(len);
    if (!data) {
        close(in);
        snprintf(msg, size, "out of memory");
        return -1;
    }
    while (got < len) {
        ssize_t n = read(in, data + got, len - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(in);
    gt_image img = {0};
    gt_error err;
    gt_error_clear(&err);
    if (got != len || gt_png_decode(data, len, from, &img, &err) != 0) {
        free(data);
        return 2;
    }
    gt_image_free(&img);
    const char *base;
    int pfd = parent_at(dirfd, rel, &base);
    int out = pfd >= 0 ? openat(pfd, base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                                0666)
                       : -1;
    int rc = 1;
    if (out < 0) {
        snprintf(msg, size, "cannot make %.300s in the comparison's folder: %s", rel,
                 strerror(errno));
        rc = -1;
    } else {
        for (size_t off = 0; off < len;) {
            ssize_t n = write(out, data + off, len - off);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                snprintf(msg, size, "writing %.300s: %s", rel, strerror(errno));
                rc = -1;
                break;
            }
            off += (size_t)n;
        }
        if (close(out) != 0 && rc == 1) {
            snprintf(msg, size, "writing %.300s: %s", rel, strerror(errno));
            rc = -1;
        }
    }
    if (pfd >= 0)
        close(pfd);
    free(data);
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
static void diff_result(view_server *v, view_job *job, int dfd, const image_list *names,
                        const unsigned char *sides, gt_strbuf *b)
{
    static const char *const results[] = {"MISMATCH", "MATCH", "MISSING", "UNREADABLE"};
    char **verdict = calloc(names->n ? names->n : 1, sizeof *verdict);
    char **detail = calloc(names->n ? names->n : 1, sizeof *detail);
    char path[PATH_MAX * 2 + 16];
    int sfd = verdict && detail ? view_cache_open(dfd, "summary.txt") : -1;
    FILE *f = sfd >= 0 ? fdopen(sfd, "r") : NULL;
    if (!f && sfd >= 0)
        close(sfd);
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
        /* a side's file that is not a PNG was not copied: unreadable, not missing */
        bool not_png = (sides[i] & 12) && !strcmp(r, "MISSING");
        if (not_png)
            r = "UNREADABLE";
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
        const char *d = not_png ? (sides[i] & 4 ? "ref: not a PNG file (not copied)"
                                                : "src: not a PNG file (not copied)")
                        : detail && detail[i] ? detail[i] : "";
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
        snprintf(path, sizeof path, "src/%s", dn);
        gt_strbuf_puts(b, ", \"diff\": ");
        int dif = view_cache_open(dfd, path);
        if (dif >= 0)
            close(dif);
        if (dif >= 0) {
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

/* A new file in the job's folder (fresh: made by this job), never through a link. */
static int create_in(int dfd, const char *name)
{
    return openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
}

static void *diff_main(void *arg)
{
    view_job *job = arg;
    view_server *v = job->v;
    view_jobs *j = v->jobs;
    char dir[PATH_MAX], name[32], msg[GT_ERROR_MAX] = "";
    snprintf(name, sizeof name, "diff-%u", job->id);
    snprintf(dir, sizeof dir, "%s/%s", v->cache_dir, name);
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS); /* a folder of an earlier run */
    image_list names = {0};
    unsigned char *sides = NULL;
    int rc = -1, dfd = -1;
    gt_error err, err2;
    gt_error_clear(&err);
    gt_error_clear(&err2);
    int found[2] = {0, 0};
    if (mkdirat(v->cache_fd, name, 0777) != 0 ||
        (dfd = openat(v->cache_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
        snprintf(msg, sizeof msg, "cannot make %.400s: %s", dir, strerror(errno));
    } else if ((found[0] = image_list_find(&names, job->ref, &v->stopping, &err)) < 0 ||
               (found[1] = image_list_find(&names, job->src, &v->stopping, &err2)) < 0) {
        snprintf(msg, sizeof msg, "%s", found[0] < 0 ? err.msg : err2.msg);
    } else if (!names.n) {
        if (found[0] || found[1]) /* a folder that is not there, said plainly */
            snprintf(msg, sizeof msg, "no images (.png): %.480s", found[0] ? err.msg : err2.msg);
        else
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
                snprintf(to, sizeof to, "%s/%s", side ? "src" : "ref", names.v[i]);
                int c = copy_png(from, dfd, to, msg, sizeof msg);
                if (c < 0)
                    rc = -1;
                else if (c > 0) /* 1: copied; 2: there, but not a PNG */
                    sides[i] |= (unsigned char)(c == 1 ? 1u << side : 4u << side);
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
        /* in the folder, with relative prefixes: the report's links are relative; both
         * sides' folders exist even when one side has no image */
        mkdirat(dfd, "ref", 0777);
        mkdirat(dfd, "src", 0777);
        char log[PATH_MAX + 32];
        snprintf(log, sizeof log, "%s/diff-images.log", dir);
        int outfd = create_in(dfd, "summary.txt");
        int logfd = create_in(dfd, "diff-images.log");
        char *argv[] = {v->gltrace, "diff-images", "-v", "-o", "index.html", "ref/", "src/", NULL};
        gt_error_clear(&err);
        pthread_mutex_lock(&j->lock);
        pid_t pid = atomic_load(&v->stopping) || outfd < 0
                        ? -1
                        : vj_spawn_in(argv, dfd, -1, outfd, logfd, 10, &err);
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
            int report = view_cache_open(dfd, "index.html");
            if (report >= 0)
                close(report);
            /* 1: some images differ; the report is there all the same */
            if (!WIFEXITED(st) || WEXITSTATUS(st) > 1 || report < 0) {
                vj_describe_exit(msg, sizeof msg, "gltrace diff-images", st, log);
                rc = -1;
            }
        }
    }
    if (rc == 0) {
        gt_strbuf b;
        gt_strbuf_init(&b);
        diff_result(v, job, dfd, &names, sides, &b);
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
    if (dfd >= 0)
        close(dfd);
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
    if (!v->gltrace || v->cache_fd < 0) {
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
        job->has_thread = vj_start_thread(job, &job->thread, diff_main, job);
    }
    return vj_reply_job(j, job, out);
}

int view_diff_file(view_server *v, const char *rel, int *fd, gt_strbuf *body)
{
    *fd = -1;
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
    if (!ok || v->cache_fd < 0) {
        view_json_error(body, "no such comparison");
        return 404;
    }
    /* opened under the cache's folder, no segment a link: only what the job put there */
    size_t n = strlen(rest) + 32;
    char *path = malloc(n);
    if (!path) {
        view_json_error(body, "out of memory");
        return 500;
    }
    snprintf(path, n, "diff-%lu/%s", id, rest);
    *fd = view_cache_open(v->cache_fd, path);
    free(path);
    if (*fd < 0) {
        view_json_error(body, "not found");
        return 404;
    }
    return 200;
}
