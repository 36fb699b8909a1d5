/* Where gltrace view finds its page and glretrace, and where it keeps its cache. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gt_md5.h"
#include "lib_path.h"
#include "view.h"

#ifndef GLTRACE_VIEW_SRC_DIR
#define GLTRACE_VIEW_SRC_DIR ""
#endif

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static char *dup_or_err(const char *s, gt_error *err)
{
    char *d = strdup(s);
    if (!d)
        gt_error_set(err, "out of memory");
    return d;
}

char *view_static_dir(gt_error *err)
{
    const char *env = getenv("GLTRACE_VIEW_DIR");
    if (env && *env) {
        if (!is_dir(env)) {
            gt_error_set(err, "GLTRACE_VIEW_DIR=%s is not a folder", env);
            return NULL;
        }
        return dup_or_err(env, err);
    }
    char dir[PATH_MAX], p[PATH_MAX + 64];
    if (gltrace_exe_path(dir, sizeof dir, true, err) < 0)
        return NULL;
    snprintf(p, sizeof p, "%s/../share/gltrace/view", dir); /* installed */
    if (is_dir(p))
        return dup_or_err(p, err);
    if (*GLTRACE_VIEW_SRC_DIR && is_dir(GLTRACE_VIEW_SRC_DIR)) /* the build tree */
        return dup_or_err(GLTRACE_VIEW_SRC_DIR, err);
    gt_error_set(err, "cannot find the page (%s, or %s; set GLTRACE_VIEW_DIR)", p,
                 *GLTRACE_VIEW_SRC_DIR ? GLTRACE_VIEW_SRC_DIR : "no source tree");
    return NULL;
}

char *view_self_path(gt_error *err)
{
    char p[PATH_MAX];
    return gltrace_exe_path(p, sizeof p, false, err) < 0 ? NULL : dup_or_err(p, err);
}

char *view_glretrace_path(gt_error *err)
{
    char dir[PATH_MAX], p[PATH_MAX + 32];
    if (gltrace_exe_path(dir, sizeof dir, true, err) < 0)
        return NULL;
    /* the build tree and an installed prefix both put it beside gltrace */
    snprintf(p, sizeof p, "%s/glretrace", dir);
    if (access(p, X_OK) != 0) {
        gt_error_set(err, "cannot find glretrace beside gltrace (%s): %s", p, strerror(errno));
        return NULL;
    }
    return dup_or_err(p, err);
}

/* The cache's folder is open (fd): thumbs/ in it, and the names kept. */
static int set_cache(view_server *v, const char *dir, int fd, gt_error *err)
{
    size_t n = strlen(dir) + sizeof "/thumbs/";
    v->cache_dir = strdup(dir);
    v->thumbs_dir = malloc(n);
    v->cache_fd = fd;
    if (!v->cache_dir || !v->thumbs_dir) {
        gt_error_set(err, "out of memory");
        return -1;
    }
    snprintf(v->thumbs_dir, n, "%s/thumbs/", dir);
    v->thumbs_fd = view_own_dir(fd, "thumbs", v->thumbs_dir, v->cache_mode, err);
    return v->thumbs_fd < 0 ? -1 : 0;
}

int view_cache_dir(view_server *v, gt_error *err)
{
    char p[PATH_MAX + 16];
    snprintf(p, sizeof p, "%s.view", v->trace_abs);
    /* beside the trace first: it goes when the trace goes, and is found again. Made
     * here and opened without following links: a folder planted under that name (a
     * link, another user's folder) is refused, and the user's cache used instead */
    char folder[PATH_MAX];
    snprintf(folder, sizeof folder, "%s", v->trace_abs);
    char *slash = strrchr(folder, '/');
    const char *base = slash ? slash + 1 : folder;
    char name[PATH_MAX + 8];
    snprintf(name, sizeof name, "%s.view", base);
    if (slash)
        *(slash == folder ? slash + 1 : slash) = '\0';
    gt_error why;
    gt_error_clear(&why);
    if (access(folder, W_OK | X_OK) == 0) {
        int dfd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        int fd = dfd >= 0 ? view_own_dir(dfd, name, p, v->cache_mode, &why) : -1;
        if (dfd >= 0)
            close(dfd);
        if (fd >= 0)
            return set_cache(v, p, fd, err);
        if (why.set)
            fprintf(stderr, "gltrace view: warning: %s; using the user's cache instead\n",
                    why.msg);
    }
    /* else the user's cache, under a name that changes with the trace */
    struct stat st;
    if (stat(v->trace_abs, &st) != 0) {
        gt_error_set(err, "%s: %s", v->trace, strerror(errno));
        return -1;
    }
    char key[PATH_MAX + 64];
    int klen = snprintf(key, sizeof key, "%s\n%lld\n%lld.%09ld", v->trace_abs,
                        (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    gt_md5 m;
    uint8_t d[16];
    gt_md5_init(&m);
    gt_md5_update(&m, key, (size_t)klen);
    gt_md5_final(&m, d);
    char basedir[PATH_MAX];
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && *xdg)
        snprintf(basedir, sizeof basedir, "%s", xdg);
    else if (home && *home)
        snprintf(basedir, sizeof basedir, "%s/.cache", home);
    else {
        gt_error_set(err, "the trace's folder is not writable and neither XDG_CACHE_HOME "
                          "nor HOME is set: no cache");
        return -1;
    }
    char hash[33];
    for (int i = 0; i < 16; ++i)
        snprintf(hash + 2 * i, 3, "%02x", d[i]);
    snprintf(p, sizeof p, "%s/gltrace", basedir);
    /* the user's own folders: a missing one private, an existing one kept as it is */
    if (mkdir(basedir, 0700) != 0 && errno != EEXIST) {
        gt_error_set(err, "cannot make %s: %s", basedir, strerror(errno));
        return -1;
    }
    int bfd = open(basedir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (bfd < 0) {
        gt_error_set(err, "cannot open %s: %s", basedir, strerror(errno));
        return -1;
    }
    int gfd = view_own_dir(bfd, "gltrace", p, 0700, err);
    close(bfd);
    if (gfd < 0)
        return -1;
    size_t len = strlen(p);
    snprintf(p + len, sizeof p - len, "/%s", hash);
    int fd = view_own_dir(gfd, hash, p, v->cache_mode, err);
    close(gfd);
    if (fd < 0)
        return -1;
    return set_cache(v, p, fd, err);
}
