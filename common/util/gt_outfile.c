/* Output files that never destroy anything (gt_outfile.h). */
#define _GNU_SOURCE
#include "gt_outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int gt_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (!a || !b || stat(a, &sa) != 0 || stat(b, &sb) != 0)
        return 0;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int gt_outfile_check_inputs(const char *out, const char *const *inputs, size_t n,
                            const char *what, gt_error *err)
{
    for (size_t i = 0; i < n; i++) {
        if (!inputs[i] || !gt_same_file(out, inputs[i]))
            continue;
        if (!strcmp(out, inputs[i]))
            gt_error_set(err, "%s: refusing to write the %s over an input", out, what);
        else
            gt_error_set(err, "%s: refusing to write the %s over an input (the same file as %s)",
                         out, what, inputs[i]);
        return -1;
    }
    return 0;
}

/* The file a name stands for: an existing symlink is followed, so the link stays
 * and the file it points to is replaced (as writing through it would). */
static char *resolve(const char *path)
{
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && stat(path, &st) == 0) {
        char *real = realpath(path, NULL);
        if (real)
            return real;
    }
    return strdup(path);
}

/* Creates "DIR/.BASE.gltrace-PID-N" beside target exclusively (so the umask applies
 * as to any new file); an existing target's mode (and, best effort, owner) carry
 * over. Returns the malloc'd name, or NULL with err set. */
static char *create_beside(const char *target, const struct stat *old, gt_error *err)
{
    const char *slash = strrchr(target, '/');
    int dirlen = slash ? (int)(slash - target + 1) : 0;
    const char *base = slash ? slash + 1 : target;
    size_t size = strlen(target) + 48;
    char *tmp = malloc(size);
    if (!tmp) {
        gt_error_set(err, "%s: out of memory", target);
        return NULL;
    }
    for (unsigned n = 0; n < 1000; n++) {
        snprintf(tmp, size, "%.*s.%s.gltrace-%ld-%u", dirlen, target, base, (long)getpid(), n);
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno == EEXIST)
            continue;
        if (fd < 0)
            break;
        if (old) {
            if (fchown(fd, old->st_uid, old->st_gid) != 0) {
                /* not ours to give away: the new file keeps our ownership */
            }
            if (fchmod(fd, old->st_mode & 07777) != 0) {
                /* the umask's mode is still a usable file */
            }
        }
        close(fd);
        return tmp;
    }
    gt_error_set(err, "%s: cannot create a temporary file beside it (%s): %s", target, tmp,
                 strerror(errno));
    free(tmp);
    return NULL;
}

/* What kind of output path is. 0: regular or missing (*exists says which); 1: device
 * or FIFO; -1: refused, err set. */
static int classify(const char *path, struct stat *st, bool *exists, gt_error *err)
{
    *exists = false;
    if (stat(path, st) != 0) {
        if (errno == ENOENT)
            return 0;
        gt_error_set(err, "%s: %s", path, strerror(errno));
        return -1;
    }
    *exists = true;
    if (S_ISREG(st->st_mode))
        return 0;
    if (S_ISCHR(st->st_mode) || S_ISFIFO(st->st_mode))
        return 1;
    gt_error_set(err, "%s: %s; not writing there", path,
                 S_ISDIR(st->st_mode) ? "is a directory"
                                      : "not a regular file, character device or FIFO");
    return -1;
}

static void clear(gt_outfile *o)
{
    free(o->target);
    free(o->tmp);
    memset(o, 0, sizeof *o);
}

int gt_outfile_begin(gt_outfile *o, const char *path, const char *const *inputs, size_t n,
                     gt_error *err)
{
    memset(o, 0, sizeof *o);
    if (gt_outfile_check_inputs(path, inputs, n, "output", err) != 0)
        return -1;
    struct stat st;
    bool exists;
    int kind = classify(path, &st, &exists, err);
    if (kind < 0)
        return -1;
    if (!(o->target = resolve(path))) {
        gt_error_set(err, "%s: out of memory", path);
        return -1;
    }
    o->existed = exists;
    if (kind == 1) {
        o->direct = true;
        o->path = o->target;
        return 0;
    }
    if (!(o->tmp = create_beside(o->target, exists ? &st : NULL, err))) {
        clear(o);
        return -1;
    }
    o->path = o->tmp;
    return 0;
}

int gt_outfile_begin_name(gt_outfile *o, const char *path, gt_error *err)
{
    memset(o, 0, sizeof *o);
    struct stat st;
    bool exists = lstat(path, &st) == 0;
    if (!exists && errno != ENOENT) {
        gt_error_set(err, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (exists && S_ISDIR(st.st_mode)) {
        gt_error_set(err, "%s: is a directory; not writing there", path);
        return -1;
    }
    if (!(o->target = strdup(path))) {
        gt_error_set(err, "%s: out of memory", path);
        return -1;
    }
    o->existed = exists;
    if (exists && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
        o->direct = true;
        o->path = o->target;
        return 0;
    }
    /* a link's own mode means nothing: the new file gets the umask's */
    if (!(o->tmp = create_beside(o->target, exists && S_ISREG(st.st_mode) ? &st : NULL, err))) {
        clear(o);
        return -1;
    }
    o->path = o->tmp;
    return 0;
}

FILE *gt_outfile_open(const gt_outfile *o)
{
    if (!o->tmp)
        return fopen(o->path, "wb");
    int fd = open(o->path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!f && fd >= 0) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return f;
}

/* The temporary file's bytes on disk before it takes the target's name: a crash
 * right after the rename must not leave an empty or partial file there. */
static int sync_file(const char *path, gt_error *err)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 || fsync(fd) != 0) {
        gt_error_set(err, "%s: cannot sync the new file to disk: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    close(fd);
    return 0;
}

int gt_outfile_commit(gt_outfile *o, gt_error *err)
{
    int rc = 0;
    if (o->tmp) {
        rc = sync_file(o->tmp, err);
        if (rc == 0 && rename(o->tmp, o->target) != 0) {
            gt_error_set(err, "%s: cannot put the new file in place (rename from %s): %s",
                         o->target, o->tmp, strerror(errno));
            rc = -1;
        }
        if (rc != 0)
            unlink(o->tmp);
    }
    clear(o);
    return rc;
}

void gt_outfile_abort(gt_outfile *o)
{
    if (o->tmp)
        unlink(o->tmp); /* ours: created exclusively by gt_outfile_begin */
    clear(o);
}

const char *gt_outfile_left(const gt_outfile *o)
{
    if (o->direct)
        return "a device or FIFO: it got only what was written before the failure";
    return o->existed ? "not written, the existing file is left unchanged"
                      : "not written, no file was created";
}

/* ---- recording ---------------------------------------------------------------------- */

int gt_outfile_claim(const char *path, gt_claim *c, gt_error *err)
{
    memset(c, 0, sizeof *c);
    struct stat st;
    bool exists;
    int kind = classify(path, &st, &exists, err);
    if (kind < 0)
        return -1;
    if (kind == 1) {
        c->direct = true;
        return 0;
    }
    if (!exists) {
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 || fstat(fd, &st) != 0) {
            gt_error_set(err, "%s: cannot create: %s", path, strerror(errno));
            if (fd >= 0)
                close(fd);
            return -1;
        }
        close(fd);
    } else {
        char *target = resolve(path);
        char *tmp = target ? create_beside(target, &st, err) : NULL;
        int ok = tmp && stat(tmp, &st) == 0 && rename(tmp, target) == 0;
        if (!ok && tmp) {
            gt_error_set(err, "%s: cannot replace it with a new file: %s", path, strerror(errno));
            unlink(tmp);
        } else if (!target) {
            gt_error_set(err, "%s: out of memory", path);
        }
        free(tmp);
        free(target);
        if (!ok)
            return -1;
    }
    c->ours = true;
    c->existed = exists;
    c->dev = st.st_dev;
    c->ino = st.st_ino;
    return 0;
}

void gt_outfile_release_if_empty(const char *path, const gt_claim *c)
{
    struct stat st;
    if (c->ours && !c->existed && stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0 &&
        st.st_dev == c->dev && st.st_ino == c->ino)
        unlink(path);
}
