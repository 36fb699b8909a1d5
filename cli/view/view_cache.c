/* gltrace view's cache files (view.h): opened relative to the cache folder's descriptor,
 * never through a symbolic link, written to a temporary name and renamed over the final
 * one, so that a name planted in the cache (a link to another file) is replaced, never
 * written through, and another user's folder is never used. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "view.h"

int view_own_dir(int parent, const char *name, const char *shown, mode_t mode, gt_error *err)
{
    if (mkdirat(parent, name, mode) != 0 && errno != EEXIST) {
        gt_error_set(err, "cannot make %s: %s", shown, strerror(errno));
        return -1;
    }
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0) {
        int e = errno;
        if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
            gt_error_set(err, "%s is a symbolic link: not used as the cache", shown);
        else
            gt_error_set(err, "cannot open the folder %s: %s", shown, strerror(e));
        return -1;
    }
    if (fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode)) {
        gt_error_set(err, "%s is not a folder: not used as the cache", shown);
        close(fd);
        return -1;
    }
    if (st.st_uid != geteuid()) {
        gt_error_set(err, "%s belongs to another user (uid %ld): not used as the cache", shown,
                     (long)st.st_uid);
        close(fd);
        return -1;
    }
    /* ours: it takes the permissions asked for (an older cache may be more open than
     * the trace is now) */
    if ((st.st_mode & 07777) != (mode & 07777) && fchmod(fd, mode) != 0) {
        gt_error_set(err, "cannot set the mode of %s: %s", shown, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

int view_cache_create(int dirfd, const char *name, char *tmp, size_t size)
{
    for (unsigned n = 0; n < 1000; ++n) {
        if ((size_t)snprintf(tmp, size, ".%s.tmp-%ld-%u", name, (long)getpid(), n) >= size) {
            errno = ENAMETOOLONG;
            return -1;
        }
        int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

int view_cache_commit(int dirfd, const char *tmp, const char *name)
{
    if (renameat(dirfd, tmp, dirfd, name) == 0)
        return 0;
    int e = errno;
    unlinkat(dirfd, tmp, 0); /* ours: created exclusively */
    errno = e;
    return -1;
}

int view_cache_write(int dirfd, const char *name, const void *data, size_t len)
{
    char tmp[256];
    int fd = view_cache_create(dirfd, name, tmp, sizeof tmp);
    if (fd < 0)
        return -1;
    const char *p = data;
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int e = errno;
            close(fd);
            unlinkat(dirfd, tmp, 0);
            errno = e;
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    if (close(fd) != 0) {
        int e = errno;
        unlinkat(dirfd, tmp, 0);
        errno = e;
        return -1;
    }
    return view_cache_commit(dirfd, tmp, name);
}

int view_cache_open(int dirfd, const char *rel)
{
    if (dirfd < 0) {
        errno = ENOENT;
        return -1;
    }
    int fd = dup(dirfd);
    if (fd < 0)
        return -1;
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    const char *s = rel;
    for (;;) {
        size_t n = strcspn(s, "/");
        char seg[256];
        if (!n || n >= sizeof seg) {
            close(fd);
            errno = ENOENT;
            return -1;
        }
        memcpy(seg, s, n);
        seg[n] = '\0';
        bool last = !s[n];
        int flags = (last ? O_RDONLY : O_RDONLY | O_DIRECTORY) | O_NOFOLLOW | O_CLOEXEC;
        int next = openat(fd, seg, flags);
        int e = errno;
        close(fd);
        if (next < 0) {
            errno = e;
            return -1;
        }
        fd = next;
        if (last)
            break;
        s += n + 1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        errno = EISDIR;
        return -1;
    }
    return fd;
}

int view_cache_log(view_server *v, const char *name, char *path, size_t size)
{
    path[0] = '\0';
    if (v->cache_fd < 0)
        return -1;
    char tmp[256];
    int fd = view_cache_create(v->cache_fd, name, tmp, sizeof tmp);
    /* the log's name at once: it is read while the child runs */
    if (fd >= 0 && view_cache_commit(v->cache_fd, tmp, name) != 0) {
        close(fd);
        fd = -1;
    }
    if (fd >= 0)
        snprintf(path, size, "%s/%s", v->cache_dir, name);
    return fd;
}
