/* gltrace: the front end. `gltrace [-o FILE] [--] PROGRAM [ARGS]` records a program
 * (cmd_record.c); the trace tools are the commands of gltrace_cmds.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "at_reader.h"
#include "gltrace_cmds.h"

typedef struct command {
    const char *name, *args, *help;
    int (*run)(int argc, char **argv);
} command;

#define GLTRACE_CMD_ROW(fn, name, args, help) {name, args, help, fn},
static const command commands[] = {GLTRACE_COMMANDS(GLTRACE_CMD_ROW)};
#undef GLTRACE_CMD_ROW

static void list_commands(FILE *f)
{
    for (size_t i = 0; i < sizeof commands / sizeof *commands; ++i) {
        const command *c = &commands[i];
        /* "  name args" then the help from column 17, or on a line of its own */
        int n = fprintf(f, "  %s%s%s", c->name, *c->args ? " " : "", c->args);
        if (n > 0 && n < 17)
            fprintf(f, "%*s%s\n", 17 - n, "", c->help);
        else
            fprintf(f, "\n%17s%s\n", "", c->help);
    }
}

static void usage(FILE *f)
{
    fputs("usage: gltrace [-o FILE] [--timeline=FILE.fxt] [--backtrace=CALLSET]\n"
          "               [--frames=RANGES] [--trigger=SIGNAL] [--quit-after] [--] PROGRAM [ARGS...]\n"
          "       gltrace COMMAND [OPTIONS] ...\n"
          "\n"
          "The first form runs PROGRAM with its OpenGL/GLX/EGL calls recorded into FILE\n"
          "(default: $GLTRACE_OUTPUT, else PROGRAM.trace here, or PROGRAM.N.trace when\n"
          "taken) and exits with PROGRAM's status; `--` ends the options. --timeline also\n"
          "writes each call's CPU time as the program ran it (FXT, for Perfetto);\n"
          "--backtrace chooses the calls that carry a backtrace (globs, all, none);\n"
          "--frames records only some frames (A-B,C-D: a trace each), --trigger those\n"
          "between two signals, --quit-after ends the program after the last range.\n"
          "GLTRACE_PRELOAD names the recording library to use instead of\n"
          "../lib/gltrace/libgltrace.so (installed) or ../lib/libgltrace.so beside gltrace;\n"
          "GLTRACE_REPLAY the replayer (libgltrace_replay.so) convert and dump-images load,\n"
          "GLTRACE_VIEW_LIB the viewer's server (libgltrace_view.so) view loads.\n"
          "\n"
          "commands:\n",
          f);
    list_commands(f);
    fputs("\n`gltrace COMMAND --help` describes a command's options.\n", f);
}

int cmd_help(int argc, char **argv)
{
    (void)argc, (void)argv;
    usage(stdout);
    return 0;
}

int gltrace_report_end(const at_reader *r)
{
    if (at_reader_error(r)) {
        fprintf(stderr, "error: %s\n", at_reader_error(r));
        return 1;
    }
    if (at_reader_warning(r))
        fprintf(stderr, "warning: %s\n", at_reader_warning(r));
    return 0;
}

/* What went to stdout (data, or a command's --help) must have got there: a full disk
 * or /dev/full is a failure with its reason, not a silent exit 0. Every command ends
 * here, recording too (its own stdout is only its --help; the program's is its own). */
static int stdout_written(const char *cmd, int status)
{
    const char *sp = cmd ? " " : "";
    cmd = cmd ? cmd : "";
    if (fflush(stdout) != 0) {
        if (status == 0)
            fprintf(stderr, "gltrace%s%s: writing to stdout failed: %s\n", sp, cmd,
                    strerror(errno));
        return status ? status : 1;
    }
    if (ferror(stdout)) { /* an earlier write failed: its reason is gone by now */
        if (status == 0)
            fprintf(stderr, "gltrace%s%s: writing to stdout failed\n", sp, cmd);
        return status ? status : 1;
    }
    return status;
}

static const command *find_command(const char *name)
{
    if (!strcmp(name, "-h") || !strcmp(name, "--help"))
        name = "help";
    for (size_t i = 0; i < sizeof commands / sizeof *commands; ++i)
        if (!strcmp(commands[i].name, name))
            return &commands[i];
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const command *c = find_command(argv[1]);
    if (c)
        return stdout_written(c->name, c->run(argc - 1, argv + 1));
    /* Anything else is a program to record: `gltrace glxgears`, `gltrace -o x.trace
     * glxgears`, `gltrace -- dump` (a program named like a command). */
    return stdout_written(NULL, cmd_record(argc, argv));
}
