/* Opening input files (gt_input.h). */
#define _GNU_SOURCE
#include "gt_input.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t m)
{
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISSOCK(m))
        return "a socket";
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    return "not a plain file";
}

int gt_input_open(const char *path, uint64_t *size, gt_error *err)
{
    /* O_NONBLOCK: opening a FIFO for reading waits for a writer otherwise. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        if (errno == ENXIO) /* a socket (or a FIFO that refuses) */
            gt_error_set(err, "%s: not a regular file", path);
        else
            gt_error_set(err, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        gt_error_set(err, "%s: cannot stat: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        gt_error_set(err, "%s: not a regular file (%s)", path, kind_of(st.st_mode));
        close(fd);
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        gt_error_set(err, "%s: cannot open: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (size)
        *size = (uint64_t)st.st_size;
    return fd;
}

FILE *gt_input_fopen(const char *path, uint64_t *size, gt_error *err)
{
    int fd = gt_input_open(path, size, err);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        gt_error_set(err, "%s: cannot open: %s", path, strerror(errno));
        close(fd);
    }
    return f;
}
