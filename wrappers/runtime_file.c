/* Which file a process writes (runtime_private.h: gltrace_open_trace). Every process
 * that has libgltrace.so preloaded and makes a GL call writes its own trace, and no
 * process ever writes into another's:
 *   - GLTRACE_OUTPUT names the trace (the `gltrace` launcher always sets it; an empty
 *     value turns recording off). The launcher creates the file empty and sets
 *     GLTRACE_OUTPUT_READY=1. The first process to record CLAIMS it: under an
 *     exclusive flock(2) of the file, it is ours only while it is still empty (size
 *     0); opening it writes the container magic at once, so the next claimant sees a
 *     non-empty file. That keeps wrapper scripts working (`gltrace run.sh`: the shell
 *     makes no GL call, the GL program it starts takes the name) and keeps a second
 *     GL program (an exec'd child, a sibling) from truncating the first one's trace.
 *   - every other process writes a DERIVED name: "X.trace" -> "X.<pid>.trace" (a name
 *     without ".trace" gets ".<pid>" appended), created with O_EXCL, and
 *     "X.<pid>.<n>.trace" for the first n free when taken (pid reuse; a process that
 *     exec'd a second GL program into the same pid). The launcher lists them.
 *   - a forked child (fork() without exec: runtime_writer.c) always takes a derived
 *     name, even when its parent had not claimed the main name yet, so a program that
 *     forks before its first GL call leaves the main name to the parent.
 *   - without GLTRACE_OUTPUT: "<program>.trace" in the current directory, or
 *     "<program>.N.trace" for the first N that is free (apitrace's naming), created
 *     with O_EXCL; a forked child derives its name from its parent's file (or from
 *     "<program>.trace" when the parent had none yet).
 *   - GLTRACE_OUTPUT set by hand (LD_PRELOAD without the launcher, so no
 *     GLTRACE_OUTPUT_READY): our constructor does the launcher's part once, in the
 *     first process (creates/truncates the file, sets GLTRACE_OUTPUT_READY=1 for its
 *     descendants), before main and so before the program's threads. */
#define _GNU_SOURCE
#include "derived_file.h"
#include "gt_outfile.h"
#include "record_status.h"
#include "runtime_private.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

char *gltrace_read_proc(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        ssize_t k = read(fd, buf + n, cap - n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        n += (size_t)k;
        if (n == cap) { /* not gt_grow: one byte past cap is kept for the NUL */
            char *b = realloc(buf, cap * 2 + 1);
            if (!b) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = b;
            cap *= 2;
        }
    }
    close(fd);
    if (buf) {
        buf[n] = '\0';
        *len = n;
    }
    return buf;
}

/* This process cannot record: said on stderr and to the launcher (record_status.h),
 * which then exits non-zero. */
__attribute__((format(printf, 1, 2))) static void not_recording(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "gltrace: %s; not recording\n", msg);
    gltrace_status_report("trace: not recording: %s", msg);
}

/* Creates out exclusively; 1 when it is ours now, 0 when it exists, -1 (message
 * printed) on any other error. */
static int create_excl(const char *out)
{
    int fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
        close(fd); /* at_writer_open truncates and reopens the file we own now */
        return 1;
    }
    if (errno == EEXIST)
        return 0;
    not_recording("cannot create %s: %s", out, strerror(errno));
    return -1;
}

/* "<basename of the executable>[.N].trace" in the current directory, the first that
 * can be created exclusively. Returns 0 with a message when none can be. */
static int default_path(const char *exe, char *out, size_t size)
{
    const char *base = strrchr(exe, '/');
    base = base ? base + 1 : exe;
    if (!*base)
        base = "gltrace";
    for (unsigned n = 0; n < 10000; ++n) {
        int len = n ? snprintf(out, size, "%s.%u.trace", base, n)
                    : snprintf(out, size, "%s.trace", base);
        if (len < 0 || (size_t)len >= size)
            break;
        int r = create_excl(out);
        if (r)
            return r > 0;
    }
    not_recording("no free name for %s.trace", base);
    return 0;
}

/* The derived name of main for this process (derived_file.h), created; 1 on success. */
static int derived_path(const char *main_path, char *out, size_t size)
{
    int fd = gltrace_create_derived(main_path, ".trace", "trace", out, size);
    if (fd < 0)
        return 0;
    close(fd); /* at_writer_open truncates and reopens the file we own now */
    return 1;
}

/* The program waits for the trace's compressor (memory stays bounded): said once. */
static void compressor_behind(const char *path)
{
    fprintf(stderr, "gltrace: %s: compressing and writing the trace is slower than the calls: "
                    "the program waits for it\n", path);
}

/* extra: more properties after the process's (a frame range's snapshot: snapshot.c);
 * reuse: a finished writer to write path with (frame ranges), else a new one. */
static at_writer *open_with(const char *path, const char *exe, const at_writer_property *extra,
                            unsigned nextra, at_writer *reuse)
{
    size_t len = 0;
    char *cmdline = gltrace_read_proc("/proc/self/cmdline", &len);
    if (cmdline) { /* arguments are NUL-separated (and NUL-terminated): join with spaces */
        while (len && cmdline[len - 1] == '\0')
            --len;
        for (size_t i = 0; i < len; ++i)
            if (cmdline[i] == '\0')
                cmdline[i] = ' ';
        cmdline[len] = '\0';
    }
    at_writer_property props[8] = {
        {"process.commandLine", cmdline ? cmdline : exe},
        {"process.name", exe},
    };
    unsigned nprops = 2;
    for (unsigned i = 0; i < nextra && nprops < sizeof props / sizeof *props; ++i)
        props[nprops++] = extra[i];
    gt_error err;
    gt_error_clear(&err);
    at_writer *w = reuse ? (at_writer_reopen(reuse, path, props, nprops, &err) ? reuse : NULL)
                         : at_writer_open(path, props, nprops, &err);
    free(cmdline);
    if (!w)
        not_recording("%s", err.msg);
    else if (!reuse)
        at_writer_on_stall(w, compressor_behind);
    return w;
}

static at_writer *open_at(const char *path, const char *exe, const at_writer_property *extra,
                          unsigned nextra)
{
    return open_with(path, exe, extra, nextra, NULL);
}

/* Claims GLTRACE_OUTPUT (see the top of the file): opens the writer on it when it is
 * still empty. Returns the writer, or NULL with *taken set when another process has
 * it (then the caller takes a derived name), or NULL on an error (message printed). */
static at_writer *claim_main(const char *path, const char *exe, int *taken)
{
    *taken = 0;
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) {
        not_recording("cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    while (flock(fd, LOCK_EX) != 0 && errno == EINTR)
        ;
    struct stat st;
    at_writer *w = NULL;
    if (fstat(fd, &st) != 0 || st.st_size != 0)
        *taken = 1;
    else
        w = open_at(path, exe, NULL, 0); /* writes the magic before we let the lock go */
    close(fd);                  /* releases the flock */
    return w;
}

/* GLTRACE_OUTPUT: the main name when this process claims it, else a derived one. */
static at_writer *open_named(const char *env, int forked, const char *exe, char *path,
                             size_t size)
{
    if (strlen(env) >= size - 32) {
        not_recording("GLTRACE_OUTPUT is too long");
        return NULL;
    }
    int taken = 1;
    at_writer *w = NULL;
    if (!forked) {
        strcpy(path, env);
        w = claim_main(path, exe, &taken);
    }
    if (taken && derived_path(env, path, size))
        w = open_at(path, exe, NULL, 0);
    return w;
}

/* The executable's path, "unknown" when /proc does not say. */
static void exe_path(char *exe, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", exe, size - 1);
    exe[n > 0 ? n : 0] = '\0';
    if (!exe[0])
        snprintf(exe, size, "unknown");
}

at_writer *gltrace_open_trace(int forked, const char *parent_path, char *path, size_t size)
{
    const char *env = getenv("GLTRACE_OUTPUT");
    if (env && !*env)
        return NULL;
    char exe[PATH_MAX];
    exe_path(exe, sizeof exe);
    if (env)
        return open_named(env, forked, exe, path, size);
    if (forked) { /* beside the parent's trace, or its default name */
        const char *base = strrchr(exe, '/');
        char main_path[PATH_MAX + 8]; /* exe is under PATH_MAX */
        snprintf(main_path, sizeof main_path, "%s.trace", base ? base + 1 : exe);
        return derived_path(parent_path[0] ? parent_path : main_path, path, size)
                   ? open_at(path, exe, NULL, 0)
                   : NULL;
    }
    if (!default_path(exe, path, size))
        return NULL;
    fprintf(stderr, "gltrace: recording to %s\n", path);
    return open_at(path, exe, NULL, 0);
}

at_writer *gltrace_open_range_trace(const char *range, char *path, size_t size, size_t *stem_len,
                                     const at_writer_property *extra, unsigned nextra,
                                     at_writer *reuse)
{
    const char *env = getenv("GLTRACE_OUTPUT");
    char exe[PATH_MAX], stem[PATH_MAX];
    exe_path(exe, sizeof exe);
    if (env && *env) {
        size_t n = strlen(env);
        if (n > 6 && !strcmp(env + n - 6, ".trace"))
            n -= 6;
        snprintf(stem, sizeof stem, "%.*s", (int)n, env);
    } else {
        const char *base = strrchr(exe, '/');
        snprintf(stem, sizeof stem, "%s", base ? base + 1 : exe);
    }
    *stem_len = strlen(stem);
    for (unsigned k = 0; k < 10000; ++k) {
        int len = k ? snprintf(path, size, "%s.%s.%u.trace", stem, range, k)
                    : snprintf(path, size, "%s.%s.trace", stem, range);
        if (len < 0 || (size_t)len >= size)
            break;
        int r = create_excl(path);
        if (r < 0)
            return NULL;
        if (r > 0)
            return open_with(path, exe, extra, nextra, reuse);
    }
    not_recording("no free name for %s.%s.trace", stem, range);
    return NULL;
}

/* GLTRACE_OUTPUT set by hand: the first process prepares the file (see the top). */
__attribute__((constructor)) static void prepare_output(void)
{
    const char *env = getenv("GLTRACE_OUTPUT");
    if (!env || !*env || getenv("GLTRACE_OUTPUT_READY"))
        return;
    /* frame ranges write "<stem>.A-B.trace" files, made exclusively: GLTRACE_OUTPUT
     * names the stem only, and a file of that name is left as it is */
    const char *frames = getenv("GLTRACE_FRAMES"), *trigger = getenv("GLTRACE_TRIGGER");
    if ((frames && *frames) || (trigger && *trigger))
        return;
    /* as the launcher claims it (cmd_record.c): never truncated in place, a device
     * written directly; an error is reported when the first GL call opens it */
    gt_claim claim;
    gt_error err;
    gt_error_clear(&err);
    gt_outfile_claim(env, &claim, &err);
    setenv("GLTRACE_OUTPUT_READY", "1", 1);
}
