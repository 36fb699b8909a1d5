/* See image_files.h. */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gt_grow.h"
#include "image_files.h"

typedef struct walk_state {
    image_list *l;
    const char *prefix;
    size_t plen;
    size_t entries; /* read so far, against IMAGE_MAX_ENTRIES */
    const atomic_bool *stop;
    gt_error *err;
} walk_state;

static bool is_image(const char *name)
{
    size_t n = strlen(name);
    if (n < 4 || strcmp(name + n - 4, ".png"))
        return false;
    return !(n >= 9 && !strcmp(name + n - 9, ".diff.png")) &&
           !(n >= 10 && !strcmp(name + n - 10, ".thumb.png"));
}

static int add_name(walk_state *w, const char *name)
{
    image_list *l = w->l;
    for (size_t i = 0; i < l->n; ++i)
        if (!strcmp(l->v[i], name))
            return 0;
    char *copy = strdup(name);
    if (!copy || GT_GROW(l->v, l->cap, l->n + 1, 64) != 0) {
        free(copy);
        gt_error_set(w->err, "out of memory");
        return -1;
    }
    l->v[l->n++] = copy;
    return 0;
}

/* Whether the folder path (without its '/') can hold paths that start with the prefix:
 * one of "path/" and the prefix starts the other. */
static bool may_match(const walk_state *w, const char *path)
{
    size_t n = strlen(path);
    size_t k = n < w->plen ? n : w->plen;
    if (strncmp(path, w->prefix, k) != 0)
        return false;
    return n >= w->plen || w->prefix[n] == '/';
}

/* Walks DIR ("" the current folder, whose paths then have no folder part; depth levels
 * deep at most) for files whose path starts with PREFIX. */
static int walk(walk_state *w, const char *dir, int depth)
{
    DIR *d = opendir(*dir ? dir : ".");
    if (!d) {
        if (depth == 0 && (errno == ENOENT || errno == ENOTDIR)) {
            gt_error_set(w->err, "no such folder: %s", *dir ? dir : ".");
            return 1;
        }
        if (depth == 0) {
            gt_error_set(w->err, "cannot read the folder %s: %s", *dir ? dir : ".", strerror(errno));
            return -1;
        }
        return 0; /* a subfolder we may not read: its images are not ours to compare */
    }
    int rc = 0;
    size_t dlen = strlen(dir);
    bool sep = dlen && dir[dlen - 1] != '/';
    struct dirent *e;
    while (rc == 0 && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (++w->entries > IMAGE_MAX_ENTRIES) {
            gt_error_set(w->err, "more than %d files and folders under %s: give a narrower "
                         "prefix", IMAGE_MAX_ENTRIES, w->prefix);
            rc = -1;
            break;
        }
        if (w->stop && atomic_load(w->stop)) {
            gt_error_set(w->err, "stopped");
            rc = -1;
            break;
        }
        size_t n = dlen + strlen(e->d_name) + 2;
        char *path = malloc(n);
        if (!path) {
            gt_error_set(w->err, "out of memory");
            rc = -1;
            break;
        }
        snprintf(path, n, "%s%s%s", dir, sep ? "/" : "", e->d_name);
        bool image = is_image(e->d_name) && !strncmp(path, w->prefix, w->plen);
        struct stat st;
        /* lstat: a link to a folder is never walked (loops, and folders elsewhere);
         * a link to a file counts as the file */
        if (lstat(path, &st) != 0)
            st.st_mode = 0;
        if (S_ISLNK(st.st_mode) && image && stat(path, &st) != 0)
            st.st_mode = 0;
        if (S_ISDIR(st.st_mode) && !S_ISLNK(st.st_mode)) {
            if (depth < IMAGE_MAX_DEPTH && may_match(w, path))
                rc = walk(w, path, depth + 1);
        } else if (S_ISREG(st.st_mode) && image) {
            rc = add_name(w, path + w->plen);
        }
        free(path);
    }
    closedir(d);
    return rc;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int image_list_find(image_list *l, const char *prefix, const atomic_bool *stop, gt_error *err)
{
    struct stat st;
    char *dir;
    const char *slash = strrchr(prefix, '/');
    if (stat(prefix, &st) == 0 && S_ISDIR(st.st_mode))
        dir = strdup(prefix);
    else
        dir = slash ? strndup(prefix, (size_t)(slash - prefix) + 1) : strdup("");
    if (!dir) {
        gt_error_set(err, "out of memory");
        return -1;
    }
    walk_state w = {.l = l, .prefix = prefix, .plen = strlen(prefix), .stop = stop, .err = err};
    int rc = walk(&w, dir, 0);
    free(dir);
    if (l->n) /* qsort's array must not be NULL, even when empty */
        qsort(l->v, l->n, sizeof *l->v, cmp_names);
    return rc;
}

void image_list_free(image_list *l)
{
    for (size_t i = 0; i < l->n; ++i)
        free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

void image_html_text(FILE *f, const char *text)
{
    for (const char *p = text; *p; ++p) {
        switch (*p) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*p, f); break;
        }
    }
}

/* The length of the path component at P (no leading '/'). */
static size_t component(const char *p)
{
    const char *e = strchr(p, '/');
    return e ? (size_t)(e - p) : strlen(p);
}

char *image_relative_path(const char *from, const char *to)
{
    const char *f = from, *t = to;
    for (;;) { /* past the folders both share */
        while (*f == '/')
            f++;
        while (*t == '/')
            t++;
        size_t nf = component(f), nt = component(t);
        if (!nf || !t[nt] || nf != nt || memcmp(f, t, nf)) /* t[nt] == 0: TO's file name */
            break;
        f += nf;
        t += nt;
    }
    size_t ups = 0;
    for (const char *p = f; *p;) { /* FROM's folders left: one "../" each */
        size_t n = component(p);
        ups += n > 0;
        p += n;
        while (*p == '/')
            p++;
    }
    char *r = malloc(ups * 3 + strlen(t) + 1);
    if (!r)
        return NULL;
    char *w = r;
    for (size_t i = 0; i < ups; ++i, w += 3)
        memcpy(w, "../", 3);
    strcpy(w, t);
    return r;
}
