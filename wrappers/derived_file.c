/* Names of the files of a run's other processes (derived_file.h). */
#include "derived_file.h"
#include "record_status.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int gltrace_create_derived(const char *main_path, const char *ext, const char *what, char *out,
                           size_t size)
{
    struct stat st;
    if (stat(main_path, &st) == 0 && !S_ISREG(st.st_mode)) {
        /* /dev/null, a pipe: no file is ever made beside a device (/dev/null.<pid>) */
        fprintf(stderr, "gltrace: %s is not a regular file: the %s of process %u is not written\n",
                main_path, what, (unsigned)getpid());
        return -1;
    }
    size_t len = strlen(main_path), elen = strlen(ext), stem = len;
    if (len > elen && !strcmp(main_path + len - elen, ext))
        stem = len - elen;
    else
        ext = "";
    unsigned pid = (unsigned)getpid();
    for (unsigned n = 0; n < 10000; ++n) {
        int k = n ? snprintf(out, size, "%.*s.%u.%u%s", (int)stem, main_path, pid, n, ext)
                  : snprintf(out, size, "%.*s.%u%s", (int)stem, main_path, pid, ext);
        if (k < 0 || (size_t)k >= size)
            break;
        int fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0)
            return fd;
        if (errno != EEXIST) {
            fprintf(stderr, "gltrace: cannot create the %s %s: %s\n", what, out, strerror(errno));
            gltrace_status_report("%s: cannot create %s: %s", what, out, strerror(errno));
            return -1;
        }
    }
    fprintf(stderr, "gltrace: no free name for the %s of process %u beside %s\n", what, pid,
            main_path);
    return -1;
}
