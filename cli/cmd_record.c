/* gltrace [-o FILE] [--] PROGRAM [ARGS...]: runs PROGRAM with libgltrace.so preloaded
 * and reports where its trace went.
 *
 *   - The library: $GLTRACE_PRELOAD when set (for development and tests), else
 *     ../lib/gltrace/libgltrace.so beside this executable (/proc/self/exe: an
 *     installed prefix or package, bin and lib/gltrace), else ../lib/libgltrace.so
 *     (the build tree: build/bin, build/lib). It is prepended to LD_PRELOAD.
 *   - The trace: -o FILE, else $GLTRACE_OUTPUT when set and not empty, else
 *     "<basename of PROGRAM>.trace" in the current directory, or
 *     "<basename>.N.trace" for the first N free (apitrace's naming). The file is
 *     claimed before the program starts (which checks it can be written, and keeps
 *     two runs from picking one name); the program gets its absolute path in
 *     GLTRACE_OUTPUT, and GLTRACE_OUTPUT_READY=1 says the file is prepared. The
 *     first process that records claims it while it is still empty; every other
 *     process (a forked child, an exec'd program, a sibling started by a script)
 *     writes its own "X.<pid>.trace" beside "X.trace" (wrappers/runtime_file.c). All the
 *     traces written are reported; when nothing was recorded into the main file the
 *     empty file is removed, but only when it is still the file we created.
 *   - Outputs are never destroyed. The trace must be readable at its final
 *     path while the program runs (a killed program leaves its trace there), so it
 *     cannot go through a temporary file renamed at the end as other outputs do
 *     (common/util/gt_outfile.h). Instead: a path that does not exist is created; an
 *     existing regular file is replaced by a new empty one (rename, never truncated
 *     in place: hard links and programs holding it open keep the old contents); a
 *     character device or FIFO (/dev/null, a pipe) is written directly and never
 *     removed; the program and the recording library are refused as outputs (same
 *     st_dev and st_ino); a file is removed only when it is still the empty file we
 *     made. A trace or timeline the runtime could not write (a full disk, EIO) is
 *     reported through a status pipe (wrappers/record_status.h): the reason, what
 *     the file kept, and a non-zero exit even when the program exited 0.
 *   - --timeline=FILE (or $GLTRACE_TIMELINE) also writes the CPU duration of each
 *     call as an FXT timeline (wrappers/timeline_live.c); FILE is claimed like the
 *     trace and passed as GLTRACE_TIMELINE (absolute) with GLTRACE_TIMELINE_READY=1;
 *     other processes write "X.<pid>.fxt" beside "X.fxt".
 *   - --backtrace=CALLSET sets GLTRACE_BACKTRACE for the program: the calls whose
 *     stack is recorded (globs, `all`, `none`, `default`; see wrappers/backtrace.c).
 *   - PROGRAM is found like execvp does (PATH search, scripts without #! run by
 *     /bin/sh). Not found: exit 127; found but not runnable: exit 126.
 *   - The exit status is the program's, or 128 + N when signal N ended it. While it
 *     runs, SIGINT and SIGQUIT (sent to the whole terminal process group) are left
 *     to the program; SIGTERM and SIGHUP sent to gltrace are passed on to it. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <dirent.h>
#include <time.h>
#include <unistd.h>

#include "backtrace_set.h"
#include "gltrace_cmds.h"
#include "lib_path.h"
#include "gt_outfile.h"
#include "record_frames.h"
#include "record_kept.h"
#include "record_status.h"

static void record_usage(FILE *f)
{
    fputs("usage: gltrace [-o FILE] [--timeline=FILE.fxt] [--backtrace=CALLSET]\n"
          "               [--frames=RANGES] [--trigger=SIGNAL] [--quit-after] [--] PROGRAM [ARGS...]\n"
          "\n"
          "Runs PROGRAM with its OpenGL, GLX and EGL calls recorded into an apitrace-format\n"
          "trace, and exits with PROGRAM's status.\n"
          "\n"
          "  -o, --output FILE  where the trace goes (default: $GLTRACE_OUTPUT, else\n"
          "                     PROGRAM.trace in the current directory, or PROGRAM.N.trace\n"
          "                     for the first N free)\n"
          "  --timeline=FILE    also write the CPU time of every call as the program ran\n"
          "                     it, as an FXT timeline (Perfetto): one slice per call\n"
          "                     (args: call number, thread), frame marks and a frame-time\n"
          "                     counter; other processes of the run write FILE.<pid>.fxt\n"
          "  --backtrace=CALLSET\n"
          "                     record the caller's stack with these calls: function name\n"
          "                     globs separated by commas (glDraw*,glClear,*SwapBuffers),\n"
          "                     'all', 'none', or 'default' (the default: draws, dispatches,\n"
          "                     clears, blits and swaps)\n"
          "  --frames=RANGES    record only these frames (from 0, as `gltrace dump` counts\n"
          "                     them): A-B,C-D... each into FILE's name with .A-B before\n"
          "                     .trace; the program runs untraced outside them\n"
          "  --trigger=SIGNAL   record from the frame after SIGNAL (SIGUSR2...) reaches the\n"
          "                     program or gltrace, to the frame the next one ends (or N\n"
          "                     frames with --frames=+N): FILE with .A-B before .trace\n"
          "  --quit-after       end the program after the last of --frames\n"
          "  --                 ends the options (a program named like a command: dump...)\n"
          "\n"
          "environment: GLTRACE_OUTPUT (the trace, as -o), GLTRACE_TIMELINE (as --timeline),\n"
          "GLTRACE_BACKTRACE (as --backtrace), GLTRACE_FRAMES (as --frames), GLTRACE_TRIGGER\n"
          "(as --trigger), GLTRACE_QUIT_AFTER=1 (as --quit-after), GLTRACE_PRELOAD (the recording library to preload instead of\n"
          "../lib/gltrace/libgltrace.so or ../lib/libgltrace.so beside gltrace)\n",
          f);
}

static volatile sig_atomic_t g_child;

static void forward_signal(int sig)
{
    if (g_child > 0)
        kill((pid_t)g_child, sig);
}

/* The recording library: $GLTRACE_PRELOAD or libgltrace.so beside us (lib_path.h). */
static int find_library(char *out, size_t size)
{
    char real[PATH_MAX];
    gt_error err;
    gt_error_clear(&err);
    if (gltrace_find_lib("GLTRACE_PRELOAD", "libgltrace.so", real, sizeof real, &err) != 0) {
        fprintf(stderr, "gltrace: the recording library: %s\n", err.msg);
        return 0;
    }
    if (strlen(real) >= size || strchr(real, ':') || strchr(real, ' ')) {
        fprintf(stderr, "gltrace: the recording library's path %s cannot go in LD_PRELOAD "
                        "(it holds a ':' or a space)\n", real);
        return 0;
    }
    strcpy(out, real);
    return 1;
}

/* LD_PRELOAD with lib first (once). */
static int set_preload(const char *lib)
{
    const char *old = getenv("LD_PRELOAD");
    if (!old || !*old)
        return setenv("LD_PRELOAD", lib, 1) == 0;
    size_t n = strlen(lib), m = strlen(old);
    const char *p = strstr(old, lib);
    if (p && (p == old || p[-1] == ':' || p[-1] == ' ') &&
        (p[n] == '\0' || p[n] == ':' || p[n] == ' '))
        return 1; /* already there (gltrace inside gltrace) */
    char *v = malloc(n + m + 2);
    if (!v)
        return 0;
    memcpy(v, lib, n);
    v[n] = ':';
    memcpy(v + n + 1, old, m + 1);
    int ok = setenv("LD_PRELOAD", v, 1) == 0;
    free(v);
    return ok;
}

/* The file execvp would run for program (PATH searched when it has no '/'), so it
 * can be refused as an output; "" when not found (exec reports that). */
static void program_file(const char *program, char *out, size_t size)
{
    out[0] = '\0';
    if (strchr(program, '/')) {
        snprintf(out, size, "%s", program);
        return;
    }
    const char *path = getenv("PATH");
    for (const char *p = path ? path : "/bin:/usr/bin"; *p;) {
        size_t n = strcspn(p, ":");
        if (snprintf(out, size, "%.*s%s%s", (int)n, p, n ? "/" : "", program) < (int)size &&
            access(out, X_OK) == 0)
            return;
        p += n + (p[n] == ':');
    }
    out[0] = '\0';
}

static void report_not_found(const char *program)
{
    if (strchr(program, '/'))
        fprintf(stderr, "gltrace: %s: program not found\n", program);
    else
        fprintf(stderr, "gltrace: %s: program not found in PATH "
                        "(gltrace's commands: dump, info, repack, convert)\n", program);
}

/* Refuses an output that is the program being recorded or the recording library. */
static int not_an_input(const char *path, const char *what, const char *program, const char *lib)
{
    const char *inputs[2] = {program[0] ? program : NULL, lib};
    gt_error err;
    gt_error_clear(&err);
    if (gt_outfile_check_inputs(path, inputs, 2, what, &err) == 0)
        return 1;
    fprintf(stderr, "gltrace: %s (the program or the recording library)\n", err.msg);
    return 0;
}

/* The trace's name without claiming it (frame ranges): -o FILE, else NAME.trace. */
static int name_output(const char *explicit_path, const char *program, char *out, size_t size,
                       gt_claim *claim)
{
    memset(claim, 0, sizeof *claim);
    const char *base = strrchr(program, '/');
    base = base ? base + 1 : program;
    int len = explicit_path ? snprintf(out, size, "%s", explicit_path)
                            : snprintf(out, size, "%s.trace", base);
    if (len < 0 || (size_t)len >= size) {
        fprintf(stderr, "gltrace: output path too long\n");
        return 0;
    }
    return 1;
}

/* Claims the trace file (see the top): an explicit path through gt_outfile_claim;
 * the default name takes the first of NAME.trace, NAME.1.trace, ... that does not
 * exist. */
static int claim_output(const char *explicit_path, const char *program, char *out, size_t size,
                        gt_claim *claim)
{
    memset(claim, 0, sizeof *claim);
    if (explicit_path) {
        if (strlen(explicit_path) >= size) {
            fprintf(stderr, "gltrace: output path too long\n");
            return 0;
        }
        strcpy(out, explicit_path);
        gt_error err;
        gt_error_clear(&err);
        if (gt_outfile_claim(out, claim, &err) != 0) {
            fprintf(stderr, "gltrace: cannot write the trace: %s\n", err.msg);
            return 0;
        }
        return 1;
    }
    const char *base = strrchr(program, '/');
    base = base ? base + 1 : program;
    for (unsigned n = 0; n < 100000; ++n) {
        int len = n ? snprintf(out, size, "%s.%u.trace", base, n)
                    : snprintf(out, size, "%s.trace", base);
        if (len < 0 || (size_t)len >= size) {
            fprintf(stderr, "gltrace: output path too long\n");
            return 0;
        }
        int fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        struct stat st;
        if (fd >= 0 && fstat(fd, &st) == 0) {
            close(fd);
            *claim = (gt_claim){.ours = true, .dev = st.st_dev, .ino = st.st_ino};
            return 1;
        }
        if (fd >= 0)
            close(fd);
        if (errno != EEXIST) {
            char cwd[PATH_MAX];
            fprintf(stderr, "gltrace: cannot write the trace %s in %s: %s (use -o FILE)\n", out,
                    getcwd(cwd, sizeof cwd) ? cwd : ".", strerror(errno));
            return 0;
        }
    }
    fprintf(stderr, "gltrace: no free name for %s.trace (use -o FILE)\n", base);
    return 0;
}

static int absolute(const char *path, char *out, size_t size)
{
    if (path[0] == '/')
        return snprintf(out, size, "%s", path) < (int)size;
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return 0;
    return snprintf(out, size, "%s/%s", cwd, path) < (int)size;
}

/* Digits at p, then what follows them; NULL when there are none. */
static const char *skip_digits(const char *p)
{
    if (*p < '0' || *p > '9')
        return NULL;
    while (*p >= '0' && *p <= '9')
        ++p;
    return p;
}

/* What name is beside main: 1 its derived name "STEM.<pid>[.<n>]EXT"
 * (wrappers/runtime_file.c, timeline_live.c: EXT is suffix when main ends so, else
 * none), 2 a frame range's trace "STEM.A-B[.<n>]EXT" or "STEM.A-[.<n>]EXT", else 0. */
static int derived_name(const char *name, const char *main_base, const char *suffix)
{
    size_t len = strlen(main_base), stem = len, slen = strlen(suffix);
    const char *ext = "";
    if (len > slen && !strcmp(main_base + len - slen, suffix)) {
        stem = len - slen;
        ext = suffix;
    }
    if (strncmp(name, main_base, stem) || name[stem] != '.')
        return 0;
    const char *p = skip_digits(name + stem + 1);
    int kind = 1;
    if (p && *p == '-') { /* a range: its last frame, none while a trigger had not ended it */
        kind = 2;
        p = skip_digits(p + 1) ? skip_digits(p + 1) : p + 1;
    }
    if (p && !strcmp(p, ext))
        return kind;
    if (!p || *p != '.')
        return 0;
    p = skip_digits(p + 1);
    return p && !strcmp(p, ext) ? kind : 0;
}

/* Reports the files (what: "trace", "timeline"; suffix: ".trace", ".fxt") other
 * processes of the run wrote beside main (modified since start). Returns how many. */
static int report_others(const char *main_path, const struct timespec *start, const char *what,
                         const char *suffix)
{
    const char *slash = strrchr(main_path, '/');
    const char *base = slash ? slash + 1 : main_path;
    int prefix = (int)(base - main_path); /* the folder with its '/', or nothing */
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%.*s", prefix ? prefix : 1, prefix ? main_path : ".");
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        int kind = derived_name(e->d_name, base, suffix);
        if (!kind)
            continue;
        char path[PATH_MAX];
        if (snprintf(path, sizeof path, "%.*s%s", prefix, main_path, e->d_name) >=
            (int)sizeof path)
            continue;
        struct stat st;
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
            st.st_mtim.tv_sec < start->tv_sec ||
            (st.st_mtim.tv_sec == start->tv_sec && st.st_mtim.tv_nsec < start->tv_nsec))
            continue;
        if (kind == 2)
            fprintf(stderr, "gltrace: %s of a frame range written to %s\n", what, path);
        else
            fprintf(stderr, "gltrace: %s of another process written to %s\n", what, path);
        ++count;
    }
    closedir(d);
    return count;
}

/* Claims the timeline file as the trace's (see the top); its absolute path goes to
 * abs. The trace is claimed already, so one file under two names is seen. */
static int claim_timeline(const char *path, const char *trace, char *abs, size_t size,
                          gt_claim *claim)
{
    char trace_abs[PATH_MAX];
    if (!absolute(path, abs, size) || !absolute(trace, trace_abs, sizeof trace_abs)) {
        fprintf(stderr, "gltrace: cannot make %s an absolute path\n", path);
        return 0;
    }
    if (!strcmp(abs, trace_abs) || gt_same_file(abs, trace_abs)) {
        fprintf(stderr, "gltrace: the timeline and the trace are the same file (%s)\n", path);
        return 0;
    }
    gt_error err;
    gt_error_clear(&err);
    if (gt_outfile_claim(abs, claim, &err) != 0) {
        fprintf(stderr, "gltrace: cannot write the timeline: %s\n", err.msg);
        return 0;
    }
    return 1;
}

/* Says where the timelines went; removes the main one when no process took it
 * and it is still the empty file we made. */
static void report_timeline(const char *path, const gt_claim *claim, const struct timespec *start,
                            int failed)
{
    struct stat st;
    const char *what = failed ? "incomplete timeline" : "timeline";
    if (claim->direct)
        fprintf(stderr, "gltrace: %s written to %s (not a regular file)\n", what, path);
    else if (stat(path, &st) == 0 && st.st_size > 0)
        fprintf(stderr, "gltrace: %s written to %s\n", what, path);
    else
        gt_outfile_release_if_empty(path, claim);
    report_others(path, start, "timeline", ".fxt");
}

/* Says where the main trace went; removes it when nothing was recorded into it and
 * it is still the empty file we made (a device or someone else's file stays). */
static void report_trace(const char *trace, const gt_claim *claim, const char *program,
                         int exec_errno, int others, int failed)
{
    struct stat st;
    const char *what = failed ? "incomplete trace" : "trace";
    if (claim->direct) {
        fprintf(stderr, "gltrace: %s written to %s (not a regular file)\n", what, trace);
    } else if (stat(trace, &st) == 0 && st.st_size > 2) {
        fprintf(stderr, "gltrace: %s written to %s\n", what, trace);
    } else if (stat(trace, &st) == 0 && st.st_size > 0) { /* the container magic alone */
        fprintf(stderr, "gltrace: %s holds no calls: %s ended before its trace was flushed\n",
                trace, program);
    } else if (stat(trace, &st) == 0) {
        gt_outfile_release_if_empty(trace, claim);
        if (!exec_errno && !others)
            fprintf(stderr, "gltrace: %s made no GL calls; no trace written\n", program);
    } else if (!exec_errno) {
        fprintf(stderr, "gltrace: no trace at %s\n", trace);
    }
}

/* Whether a status line (record_status.h) starts with tag. */
static int failed_line(const char *lines, const char *tag)
{
    size_t n = strlen(tag);
    for (const char *p = lines; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : "")
        if (!strncmp(p, tag, n))
            return 1;
    return 0;
}

/* Repeats what the recording processes could not write (record_status.h), with
 * what the main trace kept. Returns the exit status: the program's, or 1 when the
 * program exited 0 but a file is incomplete. */
static int report_failures(char *lines, const char *trace, const char *program, int rc)
{
    char kept[128];
    for (char *line = strtok(lines, "\n"); line; line = strtok(NULL, "\n"))
        fprintf(stderr, "gltrace: recording failed: %s\n", line);
    if (failed_line(lines, "trace:") && gltrace_trace_kept(trace, kept, sizeof kept))
        fprintf(stderr, "gltrace: %s keeps %s, up to the failure\n", trace, kept);
    fprintf(stderr, "gltrace: %s exited with status %d; gltrace exits with %d: the recording "
                    "is incomplete\n", program, rc, rc ? rc : 1);
    return rc ? rc : 1;
}

/* The command line: options, then the program (record_opts.prog_argv). */
typedef struct record_opts {
    const char *output, *backtrace, *timeline;
    record_frames frames;
    char **prog_argv;
} record_opts;

/* Reads the options; returns -1 to go on, else the exit status (help, a bad option). */
static int parse_options(int argc, char **argv, record_opts *o)
{
    int i = 1;
    for (; i < argc; ++i) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            ++i;
            break;
        }
        if (a[0] != '-' || !a[1])
            break;
        const char **value = !strcmp(a, "-o") || !strcmp(a, "--output") ? &o->output
                             : !strcmp(a, "--backtrace")                ? &o->backtrace
                             : !strcmp(a, "--timeline")                 ? &o->timeline
                             : !strcmp(a, "--frames")                   ? &o->frames.frames
                             : !strcmp(a, "--trigger")                  ? &o->frames.trigger
                                                                         : NULL;
        if (value) {
            if (++i >= argc) {
                fprintf(stderr, "gltrace: %s needs %s\n", a,
                        value == &o->backtrace        ? "a call set (globs, all or none)"
                        : value == &o->frames.frames  ? "frame ranges (A-B,C-D or +N)"
                        : value == &o->frames.trigger ? "a signal (SIGUSR2)"
                                                      : "a file name");
                return 2;
            }
            *value = argv[i];
        } else if (!strncmp(a, "--output=", 9)) {
            o->output = a + 9;
        } else if (!strncmp(a, "--timeline=", 11)) {
            o->timeline = a + 11;
        } else if (!strncmp(a, "--backtrace=", 12)) {
            o->backtrace = a + 12;
        } else if (!strncmp(a, "--frames=", 9)) {
            o->frames.frames = a + 9;
        } else if (!strncmp(a, "--trigger=", 10)) {
            o->frames.trigger = a + 10;
        } else if (!strcmp(a, "--quit-after")) {
            o->frames.quit_after = 1;
        } else if (!strncmp(a, "-o", 2)) {
            o->output = a + 2;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            record_usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "gltrace: unknown option %s\n", a);
            record_usage(stderr);
            return 2;
        }
    }
    if (i >= argc) {
        fprintf(stderr, "gltrace: no program to record\n");
        record_usage(stderr);
        return 2;
    }
    char bt_why[256];
    if (o->backtrace && gltrace_backtrace_set_check(o->backtrace, bt_why, sizeof bt_why) != 0) {
        fprintf(stderr, "gltrace: --backtrace: %s\n", bt_why);
        return 2;
    }
    if ((o->output && !*o->output) || (o->timeline && !*o->timeline)) {
        fprintf(stderr, "gltrace: empty output file name\n");
        return 2;
    }
    if (record_frames_check(&o->frames) != 0)
        return 2;
    o->prog_argv = argv + i;
    return -1;
}

/* What the recording library reads: LD_PRELOAD, the trace, the timeline, backtraces. */
static int set_environment(const char *lib, const char *trace_abs, const char *tl_abs,
                           const char *backtrace)
{
    if (!set_preload(lib) || setenv("GLTRACE_OUTPUT", trace_abs, 1) != 0 ||
        setenv("GLTRACE_OUTPUT_READY", "1", 1) != 0 ||
        (tl_abs ? setenv("GLTRACE_TIMELINE", tl_abs, 1) != 0 ||
                      setenv("GLTRACE_TIMELINE_READY", "1", 1) != 0
                : unsetenv("GLTRACE_TIMELINE") != 0) ||
        (backtrace && setenv("GLTRACE_BACKTRACE", *backtrace ? backtrace : "none", 1) != 0)) {
        fprintf(stderr, "gltrace: cannot set the environment: %s\n", strerror(errno));
        return 0;
    }
    return 1;
}

/* Runs the program and waits for it, passing SIGTERM and SIGHUP on (SIGINT and SIGQUIT
 * reach it from the terminal). Returns 0 with its wait status and the errno of a failed
 * exec (0: it ran), or -1 when it could not be started. */
static int run_program(char **prog_argv, const record_frames *frames, int status_w, int *status,
                       int *exec_errno)
{
    /* The child reports a failed exec through a close-on-exec pipe. */
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0) {
        fprintf(stderr, "gltrace: pipe: %s\n", strerror(errno));
        return -1;
    }
    struct sigaction ign = {0}, fwd = {0}, old_int, old_quit, old_term, old_hup, old_trig;
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    fwd.sa_handler = forward_signal;
    sigemptyset(&fwd.sa_mask);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "gltrace: fork: %s\n", strerror(errno));
        close(pipefd[0]);
        close(pipefd[1]);
        return -1;
    }
    if (pid == 0) {
        close(pipefd[0]);
        execvp(prog_argv[0], prog_argv);
        int e = errno;
        ssize_t k = write(pipefd[1], &e, sizeof e);
        (void)k;
        _exit(127);
    }
    g_child = pid;
    sigaction(SIGINT, &ign, &old_int);
    sigaction(SIGQUIT, &ign, &old_quit);
    sigaction(SIGTERM, &fwd, &old_term);
    sigaction(SIGHUP, &fwd, &old_hup);
    if (frames->trigger_sig) { /* the trigger may be sent to us too */
        sigaction(frames->trigger_sig, &fwd, &old_trig);
        record_frames_announce(frames, pid);
    }
    close(pipefd[1]);
    close(status_w); /* the program holds its own copy */
    *exec_errno = 0;
    ssize_t got;
    do
        got = read(pipefd[0], exec_errno, sizeof *exec_errno);
    while (got < 0 && errno == EINTR);
    close(pipefd[0]);
    if (got != (ssize_t)sizeof *exec_errno)
        *exec_errno = 0;
    *status = 0;
    while (waitpid(pid, status, 0) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "gltrace: waitpid: %s\n", strerror(errno));
            *status = 1 << 8;
            break;
        }
    }
    g_child = 0;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGHUP, &old_hup, NULL);
    if (frames->trigger_sig)
        sigaction(frames->trigger_sig, &old_trig, NULL);
    return 0;
}

/* gltrace's exit status: the program's (128 + signal when a signal ended it; 127 and
 * 126 as a shell's when it could not run). */
static int program_status(const char *program, int status, int exec_errno)
{
    if (exec_errno) {
        int not_found = exec_errno == ENOENT || exec_errno == ENOTDIR;
        if (not_found)
            report_not_found(program);
        else
            fprintf(stderr, "gltrace: cannot run %s: %s\n", program, strerror(exec_errno));
        return not_found ? 127 : 126;
    }
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) {
        fprintf(stderr, "gltrace: %s ended by signal %d (%s)\n", program, WTERMSIG(status),
                strsignal(WTERMSIG(status)));
        return 128 + WTERMSIG(status);
    }
    return 1;
}

int cmd_record(int argc, char **argv)
{
    record_opts o = {0};
    int early = parse_options(argc, argv, &o);
    if (early >= 0)
        return early;
    const char *program = o.prog_argv[0];
    if (!o.output) {
        const char *env = getenv("GLTRACE_OUTPUT");
        if (env && *env)
            o.output = env;
    }

    char lib[PATH_MAX], prog_file[PATH_MAX];
    /* The program first: a mistyped command is the likelier mistake, and its message
     * lists gltrace's own commands. */
    program_file(program, prog_file, sizeof prog_file);
    if (!prog_file[0] || access(prog_file, F_OK) != 0) {
        report_not_found(program);
        return 127;
    }
    if (!find_library(lib, sizeof lib))
        return 1;
    if (!o.timeline) {
        const char *env = getenv("GLTRACE_TIMELINE");
        if (env && *env)
            o.timeline = env;
    }
    if ((o.output && !not_an_input(o.output, "trace", prog_file, lib)) ||
        (o.timeline && !not_an_input(o.timeline, "timeline", prog_file, lib)))
        return 1;
    char trace[PATH_MAX], trace_abs[PATH_MAX];
    gt_claim trace_claim, tl_claim = {0};
    /* frame ranges write NAME.A-B.trace files (made exclusively by the library), never
     * NAME.trace itself: it is not claimed, so a file of that name is left as it is */
    int ranges = o.frames.frames || o.frames.trigger;
    if (ranges ? !name_output(o.output, program, trace, sizeof trace, &trace_claim)
               : !claim_output(o.output, program, trace, sizeof trace, &trace_claim))
        return 1;
    char tl_abs[PATH_MAX];
    if (o.timeline && !claim_timeline(o.timeline, trace, tl_abs, sizeof tl_abs, &tl_claim)) {
        gt_outfile_release_if_empty(trace, &trace_claim);
        return 1;
    }
    int status_w = -1, status_r = -1;
    if (!absolute(trace, trace_abs, sizeof trace_abs)) {
        fprintf(stderr, "gltrace: cannot make %s an absolute path\n", trace);
        goto fail;
    }
    if (!set_environment(lib, trace_abs, o.timeline ? tl_abs : NULL, o.backtrace))
        goto fail;
    if (record_frames_env(&o.frames) != 0) {
        fprintf(stderr, "gltrace: cannot set the environment: %s\n", strerror(errno));
        goto fail;
    }
    if ((status_r = gltrace_status_open(&status_w)) < 0)
        goto fail;
    /* File times come from the coarse clock: files made after this are not older. */
    struct timespec start;
    clock_gettime(CLOCK_REALTIME_COARSE, &start);
    int status, exec_errno;
    if (run_program(o.prog_argv, &o.frames, status_w, &status, &exec_errno) < 0)
        goto fail;
    int rc = program_status(program, status, exec_errno);

    char failures[8192];
    gltrace_status_read(status_r, failures, sizeof failures);
    close(status_r);
    if (o.timeline)
        report_timeline(o.timeline, &tl_claim, &start, failed_line(failures, "timeline:"));
    int others = report_others(trace, &start, "trace", ".trace");
    if (!ranges)
        report_trace(trace, &trace_claim, program, exec_errno, others,
                     failed_line(failures, "trace:"));
    else if (!others && !exec_errno)
        fprintf(stderr, "gltrace: %s reached no frame range: no trace written\n", program);
    return failures[0] ? report_failures(failures, trace, program, rc) : rc;

fail:
    if (status_r >= 0) {
        close(status_r);
        close(status_w);
    }
    gt_outfile_release_if_empty(trace, &trace_claim);
    if (o.timeline)
        gt_outfile_release_if_empty(tl_abs, &tl_claim);
    return 1;
}
