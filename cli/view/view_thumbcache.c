/* gltrace view's thumbnails folder kept to a size (view_jobs_internal.h): a trace of
 * 568k frames made 36k files and 170 MB in ten minutes, heading to 3 GB. Past the
 * budget the least recently used thumbnails go (their mtime: made, or last served),
 * down to three quarters of it. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gt_grow.h"
#include "view.h"
#include "view_jobs_internal.h"

typedef struct thumb_file {
    char name[16]; /* NNNNNNNNNN.png */
    uint64_t size;
    struct timespec mtime;
} thumb_file;

uint64_t vj_thumbs_budget(void)
{
    /* GLTRACE_VIEW_THUMBS_MAX: bytes, for tests and small disks */
    const char *e = getenv("GLTRACE_VIEW_THUMBS_MAX");
    char *end;
    unsigned long long n = e && *e ? strtoull(e, &end, 10) : 0;
    return n && !*end ? (uint64_t)n : (uint64_t)256 << 20;
}

/* Ours: ten digits and .png (a temporary file or anything else is left alone). */
static bool thumb_name(const char *s)
{
    for (int i = 0; i < 10; ++i)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return !strcmp(s + 10, ".png");
}

static int older(const void *a, const void *b)
{
    const thumb_file *x = a, *y = b;
    if (x->mtime.tv_sec != y->mtime.tv_sec)
        return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
    return (x->mtime.tv_nsec > y->mtime.tv_nsec) - (x->mtime.tv_nsec < y->mtime.tv_nsec);
}

int vj_thumbs_prune(view_server *v, uint64_t budget, uint64_t *total)
{
    *total = 0;
    if (v->thumbs_fd < 0)
        return 0;
    int fd = openat(v->thumbs_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    thumb_file *files = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) && !atomic_load(&v->stopping)) {
        struct stat st;
        if (!thumb_name(e->d_name) ||
            fstatat(v->thumbs_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(st.st_mode))
            continue;
        if (GT_GROW(files, cap, n + 1, 1024) < 0) {
            rc = -1;
            break;
        }
        memcpy(files[n].name, e->d_name, 15);
        files[n].size = (uint64_t)st.st_size;
        files[n].mtime = st.st_mtim;
        *total += files[n++].size;
    }
    closedir(d);
    int pruned = 0;
    if (rc == 0 && *total > budget) {
        qsort(files, n, sizeof *files, older);
        for (size_t i = 0; i < n && *total > budget / 4 * 3; ++i)
            if (unlinkat(v->thumbs_fd, files[i].name, 0) == 0) { /* the name, in our folder */
                *total -= files[i].size;
                pruned = 1;
            }
    }
    free(files);
    return rc < 0 ? -1 : pruned;
}
