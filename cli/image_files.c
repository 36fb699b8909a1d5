/* See image_files.h. */
#include <dirent.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gt_grow.h"
#include "image_files.h"

enum { MAX_DEPTH = 16 };

static bool is_image(const char *name)
{
    size_t n = strlen(name);
    if (n < 4 || strcmp(name + n - 4, ".png"))
        return false;
    return !(n >= 9 && !strcmp(name + n - 9, ".diff.png")) &&
           !(n >= 10 && !strcmp(name + n - 10, ".thumb.png"));
}

static int add_name(image_list *l, const char *name)
{
    for (size_t i = 0; i < l->n; ++i)
        if (!strcmp(l->v[i], name))
            return 0;
    char *copy = strdup(name);
    if (!copy || GT_GROW(l->v, l->cap, l->n + 1, 64) != 0) {
        free(copy);
        fprintf(stderr, "gltrace diff-images: out of memory\n");
        return -1;
    }
    l->v[l->n++] = copy;
    return 0;
}

/* Walks DIR ("" the current folder, whose paths then have no folder part; depth levels
 * deep at most) for files whose path starts with PREFIX. */
static int walk(image_list *l, const char *dir, const char *prefix, int depth)
{
    DIR *d = opendir(*dir ? dir : ".");
    if (!d)
        return 0;
    int rc = 0;
    size_t plen = strlen(prefix), dlen = strlen(dir);
    bool sep = dlen && dir[dlen - 1] != '/';
    struct dirent *e;
    while (rc == 0 && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        size_t n = dlen + strlen(e->d_name) + 2;
        char *path = malloc(n);
        if (!path) {
            rc = -1;
            break;
        }
        snprintf(path, n, "%s%s%s", dir, sep ? "/" : "", e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            st.st_mode = 0;
        if (S_ISDIR(st.st_mode) && depth < MAX_DEPTH)
            rc = walk(l, path, prefix, depth + 1);
        else if (S_ISREG(st.st_mode) && is_image(e->d_name) && !strncmp(path, prefix, plen))
            rc = add_name(l, path + plen);
        free(path);
    }
    closedir(d);
    return rc;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int image_list_find(image_list *l, const char *prefix)
{
    struct stat st;
    char *dir;
    const char *slash = strrchr(prefix, '/');
    if (stat(prefix, &st) == 0 && S_ISDIR(st.st_mode))
        dir = strdup(prefix);
    else
        dir = slash ? strndup(prefix, (size_t)(slash - prefix) + 1) : strdup("");
    int rc = dir ? walk(l, dir, prefix, 0) : -1;
    free(dir);
    if (rc == 0 && l->n) /* qsort's array must not be NULL, even when empty */
        qsort(l->v, l->n, sizeof *l->v, cmp_names);
    else
        fprintf(stderr, "gltrace diff-images: out of memory\n");
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
