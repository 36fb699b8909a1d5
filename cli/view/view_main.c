/* gltrace view TRACE: serves a trace viewer to a browser until SIGINT or SIGTERM. */
#define _GNU_SOURCE /* environ, from unistd.h */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "view.h"

static void usage(FILE *f)
{
    fputs("usage: gltrace view [OPTIONS] TRACE\n"
          "Serve a viewer of TRACE to a web browser: frames with thumbnails, calls, search,\n"
          "the GL state at a call, the replay's timeline. Prints the page's URL on stdout;\n"
          "the URL holds a random token, and any other path is refused. Stops on Ctrl-C.\n"
          "Writes TRACE.idx and TRACE.view/ (thumbnails, timeline) beside the trace, or\n"
          "in $XDG_CACHE_HOME/gltrace/ when the trace's folder is not writable.\n"
          "\n"
          "  -h, --help            show this help and exit\n"
          "  --listen HOST:PORT    where to listen (default 127.0.0.1:0, a free port)\n"
          "  --open                open the page with xdg-open\n",
          f);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* HOST:PORT, [V6]:PORT or PORT alone. 0, or -1. */
static int parse_listen(const char *s, char *host, size_t size, unsigned *port)
{
    const char *colon = strrchr(s, ':');
    const char *p = colon ? colon + 1 : s;
    size_t hl = colon ? (size_t)(colon - s) : 0;
    if (hl >= 2 && s[0] == '[' && s[hl - 1] == ']') {
        ++s;
        hl -= 2;
    }
    char *end;
    errno = 0;
    unsigned long n = strtoul(p, &end, 10);
    if (!*p || *end || *p == '-' || errno || n > 65535 || hl >= size)
        return -1;
    if (hl) {
        memcpy(host, s, hl);
        host[hl] = '\0';
    } else {
        snprintf(host, size, "127.0.0.1");
    }
    *port = (unsigned)n;
    return 0;
}

static int make_token(char token[33], gt_error *err)
{
    unsigned char r[16];
    size_t got = 0;
    while (got < sizeof r) {
        ssize_t n = getrandom(r + got, sizeof r - got, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            gt_error_set(err, "getrandom: %s", strerror(errno));
            return -1;
        }
        got += (size_t)n;
    }
    for (size_t i = 0; i < sizeof r; ++i)
        snprintf(token + 2 * i, 3, "%02x", r[i]);
    return 0;
}

/* The index: loaded when TRACE.idx is valid, else built now and written beside the
 * trace when it can be (a failure to write is only a note: it is kept in memory). */
static void load_index(view_server *v)
{
    gt_error err;
    gt_error_clear(&err);
    int rc = at_index_load(v->trace, &v->ix, &err);
    if (rc > 0) {
        v->indexed = true;
        return;
    }
    if (rc < 0)
        fprintf(stderr, "gltrace view: note: %s; building a new index\n", err.msg);
    fprintf(stderr, "gltrace view: indexing %s...\n", v->trace);
    double t0 = now();
    gt_error_clear(&err);
    if (!(v->ix = at_index_build(v->trace, "index", &err))) {
        snprintf(v->ix_error, sizeof v->ix_error, "%s", err.msg);
        fprintf(stderr, "gltrace view: error: %s\n", err.msg);
        return;
    }
    fprintf(stderr, "gltrace view: indexed %llu calls in %.2f s\n",
            (unsigned long long)v->ix->calls, now() - t0);
    gt_error_clear(&err);
    if (at_index_write(v->ix, v->trace, &err) == 0)
        v->indexed = true;
    else
        fprintf(stderr, "gltrace view: note: the index stays in memory: %s\n", err.msg);
}

static void free_server(view_server *v)
{
    if (v->cache_fd >= 0)
        close(v->cache_fd);
    if (v->thumbs_fd >= 0)
        close(v->thumbs_fd);
    at_index_free(v->ix);
    free(v->trace_abs);
    free(v->static_dir);
    free(v->cache_dir);
    free(v->thumbs_dir);
    free(v->glretrace);
    free(v->gltrace);
    free(v->frame_draws);
    free(v->frame_cpu_ns);
    free(v->frame_gpu_ns);
    free(v->frame_depth);
    pthread_mutex_destroy(&v->scan_lock);
}

bool view_trace_changed(view_server *v, char *msg, size_t size)
{
    struct stat st;
    if (stat(v->trace_abs, &st) != 0) {
        snprintf(msg, size, "%s changed on disk since the server started (%s): restart "
                 "gltrace view", v->trace, strerror(errno));
        return true;
    }
    if ((uint64_t)st.st_size == v->trace_size && st.st_mtim.tv_sec == v->trace_mtime.tv_sec &&
        st.st_mtim.tv_nsec == v->trace_mtime.tv_nsec && st.st_dev == v->trace_dev &&
        st.st_ino == v->trace_ino)
        return false;
    snprintf(msg, size, "%s changed on disk since the server started (%s; %llu bytes, "
             "was %llu): its answers would be wrong; restart gltrace view", v->trace,
             st.st_ino != v->trace_ino || st.st_dev != v->trace_dev ? "replaced"
             : (uint64_t)st.st_size < v->trace_size               ? "truncated"
                                                                  : "rewritten",
             (unsigned long long)st.st_size, (unsigned long long)v->trace_size);
    return true;
}

/* --open: a page that redirects to the URL, in a private folder (0700, the file 0600),
 * is what xdg-open is given, so that the token is not in any process's arguments
 * (as Jupyter does). Its folder's path into dir (removed at exit). */
static pid_t open_browser(const char *url, char *dir, size_t size)
{
    const char *tmp = getenv("TMPDIR");
    char page[PATH_MAX];
    snprintf(dir, size, "%s/gltrace-view-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        fprintf(stderr, "gltrace view: note: cannot make a folder for the page to open (%s): "
                "%s\n", dir, strerror(errno));
        dir[0] = '\0';
        return 0;
    }
    snprintf(page, sizeof page, "%s/open.html", dir);
    int fd = open(page, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    int ok = f && fprintf(f, "<!doctype html><meta charset=utf-8>"
                             "<meta http-equiv=\"refresh\" content=\"0;url=%s\">"
                             "<title>gltrace view</title><p><a href=\"%s\">gltrace view</a>\n",
                          url, url) > 0;
    if (f ? fclose(f) != 0 : (fd >= 0 && close(fd) != 0))
        ok = 0;
    if (!ok) {
        fprintf(stderr, "gltrace view: note: cannot write %s: %s\n", page, strerror(errno));
        return 0;
    }
    char *argv[] = {"xdg-open", page, NULL};
    pid_t pid;
    posix_spawnattr_t a;
    posix_spawnattr_init(&a);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&a, &none);
    posix_spawnattr_setflags(&a, POSIX_SPAWN_SETSIGMASK);
    int rc = posix_spawnp(&pid, "xdg-open", NULL, &a, argv, environ);
    posix_spawnattr_destroy(&a);
    if (rc != 0) {
        fprintf(stderr, "gltrace view: note: cannot run xdg-open: %s\n", strerror(rc));
        return 0;
    }
    return pid;
}

/* Removes what open_browser made (only that: its file, then its folder). */
static void remove_open_page(const char *dir)
{
    if (!dir[0])
        return;
    char page[PATH_MAX];
    snprintf(page, sizeof page, "%s/open.html", dir);
    unlink(page);
    rmdir(dir);
}

/* The module's entry point (view_loader.c finds it by this name). */
__attribute__((visibility("default"))) int gltrace_view_main(int argc, char **argv);

int gltrace_view_main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, 0, 'h'},
        {"listen", required_argument, 0, 'l'},
        {"open", no_argument, 0, 'o'},
        {0, 0, 0, 0},
    };
    char host[256] = "127.0.0.1";
    unsigned port = 0;
    int open_page = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h') {
            usage(stdout);
            return 0;
        } else if (c == 'l') {
            if (parse_listen(optarg, host, sizeof host, &port) < 0) {
                fprintf(stderr, "gltrace view: --listen: expected HOST:PORT, got \"%s\"\n", optarg);
                return 2;
            }
        } else if (c == 'o') {
            open_page = 1;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (optind + 1 != argc) {
        fprintf(stderr, "gltrace view: %s\n", optind >= argc ? "no trace file given"
                                                            : "one trace file at a time");
        return 2;
    }
    view_server v = {.trace = argv[optind], .cache_fd = -1, .thumbs_fd = -1};
    pthread_mutex_init(&v.scan_lock, NULL);
    atomic_init(&v.stopping, false);
    gt_error err;
    gt_error_clear(&err);
    struct stat st;
    char real[PATH_MAX];
    if (!realpath(v.trace, real) || stat(real, &st) != 0 || !S_ISREG(st.st_mode)) {
        fprintf(stderr, "gltrace view: %s: %s\n", v.trace,
                errno ? strerror(errno) : "not a regular file");
        free_server(&v);
        return 1;
    }
    v.trace_size = (uint64_t)st.st_size;
    v.trace_mtime = st.st_mtim;
    v.trace_dev = st.st_dev;
    v.trace_ino = st.st_ino;
    /* what is made from the trace (its index, the cache, glretrace's snapshots) is
     * readable by whom the trace is, no more: a umask without the read bits the trace
     * lacks (and their x), and only the owner may write */
    mode_t no_read = 0044 & ~st.st_mode;
    mode_t mask = umask(0);
    umask(mask | 0022 | no_read | (no_read >> 2));
    v.cache_mode = 0777 & ~(mask | 0022 | no_read | (no_read >> 2));
    if (!(v.trace_abs = strdup(real)) || make_token(v.token, &err) < 0) {
        fprintf(stderr, "gltrace view: %s\n", err.set ? err.msg : "out of memory");
        free_server(&v);
        return 1;
    }

    /* Signals: SIGINT/SIGTERM are taken by sigwait below, so every thread (the daemon's
     * too, created later) must have them blocked; a peer that hangs up is an error
     * return, not a SIGPIPE. */
    sigset_t stop_set;
    sigemptyset(&stop_set);
    sigaddset(&stop_set, SIGINT);
    sigaddset(&stop_set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_set, NULL);
    signal(SIGPIPE, SIG_IGN);

    double t0 = now();
    load_index(&v);
    if (v.ix)
        for (size_t i = 0; i < v.ix->nframes; ++i)
            if (v.ix->frames[i].last_no > v.last_call)
                v.last_call = v.ix->frames[i].last_no;
    view_snapshot_find(&v);
    if (!(v.static_dir = view_static_dir(&err)))
        fprintf(stderr, "gltrace view: note: %s: the page will not load\n", err.msg);
    gt_error_clear(&err);
    if (!(v.glretrace = view_glretrace_path(&err)))
        fprintf(stderr, "gltrace view: note: %s: no thumbnails, state or timeline\n", err.msg);
    gt_error_clear(&err);
    if (!(v.gltrace = view_self_path(&err)))
        fprintf(stderr, "gltrace view: note: %s: no image comparisons\n", err.msg);
    gt_error_clear(&err);
    if (view_cache_dir(&v, &err) < 0) {
        fprintf(stderr, "gltrace view: note: %s: no thumbnails or timeline\n", err.msg);
        free(v.cache_dir);
        free(v.thumbs_dir);
        v.cache_dir = v.thumbs_dir = NULL;
        if (v.cache_fd >= 0)
            close(v.cache_fd);
        if (v.thumbs_fd >= 0)
            close(v.thumbs_fd);
        v.cache_fd = v.thumbs_fd = -1;
    }
    gt_error_clear(&err);
    if (view_jobs_init(&v, &err) < 0) {
        fprintf(stderr, "gltrace view: %s\n", err.msg);
        free_server(&v);
        return 1;
    }
    unsigned bound = 0;
    view_http *h = view_http_start(&v, host, port, &bound, &err);
    if (!h) {
        fprintf(stderr, "gltrace view: %s\n", err.msg);
        view_jobs_stop(&v);
        free_server(&v);
        return 1;
    }
    char url[512];
    int v6 = strchr(host, ':') != NULL;
    snprintf(url, sizeof url, "http://%s%s%s:%u/%s/", v6 ? "[" : "", host, v6 ? "]" : "", bound,
             v.token);
    /* the URL holds the token: a server nobody can be told about serves nothing */
    if (printf("%s\n", url) < 0 || fflush(stdout) != 0) {
        fprintf(stderr, "gltrace view: cannot print the page's URL on stdout: %s\n",
                strerror(errno));
        atomic_store(&v.stopping, true);
        view_http_stop(h);
        view_jobs_stop(&v);
        free_server(&v);
        return 1;
    }
    fprintf(stderr, "gltrace view: serving %s (ready in %.2f s); Ctrl-C stops\n", v.trace,
            now() - t0);
    /* after the URL: the first page of frames needs neither */
    view_scan_start(&v);
    view_jobs_start_thumbs(&v);
    char open_dir[PATH_MAX] = "";
    pid_t browser = open_page ? open_browser(url, open_dir, sizeof open_dir) : 0;

    int sig = 0;
    while (sigwait(&stop_set, &sig) != 0)
        ;
    fprintf(stderr, "gltrace view: stopping (%s)\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
    atomic_store(&v.stopping, true);
    view_http_stop(h);
    view_jobs_stop(&v);
    view_scan_join(&v);
    if (browser > 0)
        waitpid(browser, NULL, WNOHANG); /* xdg-open returns at once; else it stays its own */
    remove_open_page(open_dir);
    free_server(&v);
    return 0;
}
