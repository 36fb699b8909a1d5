/* For fuzz targets whose reader takes a path: the bytes as an anonymous in-memory file
 * (memfd), named "/proc/self/fd/N". */
#ifndef FUZZ_FILE_H
#define FUZZ_FILE_H

#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* The file's descriptor (path filled), or -1 when it could not be made. */
static inline int fuzz_file(const uint8_t *data, size_t size, char *path, size_t cap)
{
    int fd = memfd_create("fuzz", MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    for (size_t done = 0; done < size;) {
        ssize_t k = write(fd, data + done, size - done);
        if (k <= 0) {
            close(fd);
            return -1;
        }
        done += (size_t)k;
    }
    snprintf(path, cap, "/proc/self/fd/%d", fd);
    return fd;
}

#endif
