/* gltrace: the front end. `gltrace [-o FILE] [--] PROGRAM [ARGS]` records a program
 * (cmd_record.c); the trace tools are subcommands. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "at_reader.h"
#include "gltrace_cmds.h"

static void usage(FILE *f)
{
    fputs("usage: gltrace [-o FILE] [--timeline=FILE.fxt] [--backtrace=CALLSET] [--] PROGRAM [ARGS...]\n"
          "       gltrace COMMAND [OPTIONS] ...\n"
          "\n"
          "The first form runs PROGRAM with its OpenGL/GLX/EGL calls recorded into FILE\n"
          "(default: $GLTRACE_OUTPUT, else PROGRAM.trace here, or PROGRAM.N.trace when\n"
          "taken) and exits with PROGRAM's status; `--` ends the options. --timeline also\n"
          "writes each call's CPU time as the program ran it (FXT, for Perfetto);\n"
          "--backtrace chooses the calls that carry a backtrace (globs, all, none).\n"
          "GLTRACE_PRELOAD names the recording library to use instead of\n"
          "../lib/gltrace/libgltrace.so (installed) or ../lib/libgltrace.so beside gltrace;\n"
          "GLTRACE_REPLAY the replayer (libgltrace_replay.so) convert and dump-images load,\n"
          "GLTRACE_VIEW_LIB the viewer's server (libgltrace_view.so) view loads.\n"
          "\n"
          "commands:\n"
          "  dump FILE...   print the calls of apitrace-format traces (as `apitrace dump`)\n"
          "  info FILE...   print facts about traces as JSON (as `apitrace info`)\n"
          "  index FILE...  write FILE.idx, a frame index for fast info and dump --frames\n"
          "  repack IN OUT  rewrite a trace as a version 6 Snappy trace with our writer\n"
          "  trim TRACE     a new trace of some calls or frames, and what they depend on\n"
          "  sed TRACE      a new trace with strings or enums replaced (s/SEARCH/REPLACE/)\n"
          "  dump-images TRACE\n"
          "                 replay (headless) and write an image per frame\n"
          "  diff-images REF_PREFIX SRC_PREFIX\n"
          "                 compare two sets of images: a summary and an HTML report\n"
          "  convert IN... -o OUT\n"
          "                 convert and merge timelines (FXT, Chrome JSON, XRay, trace-cmd\n"
          "                 .dat; .trace files replayed with timings)\n"
          "  view TRACE     serve a viewer of the trace to a web browser (frames,\n"
          "                 thumbnails, calls, search, GL state, timeline)\n"
          "\n"
          "`gltrace COMMAND --help` describes a command's options.\n",
          f);
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

/* What went to stdout (info's JSON, convert --counts, dump) must have got there: a
 * full disk or /dev/full is a failure with its reason, not a silent exit 0. */
static int stdout_written(int status)
{
    if ((fflush(stdout) != 0 || ferror(stdout)) && status == 0) {
        fprintf(stderr, "gltrace: writing to stdout failed: %s\n", strerror(errno));
        return 1;
    }
    return status;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "dump"))
        return stdout_written(cmd_dump(argc - 1, argv + 1));
    if (!strcmp(cmd, "info"))
        return stdout_written(cmd_info(argc - 1, argv + 1));
    if (!strcmp(cmd, "index"))
        return cmd_index(argc - 1, argv + 1);
    if (!strcmp(cmd, "repack"))
        return cmd_repack(argc - 1, argv + 1);
    if (!strcmp(cmd, "trim"))
        return cmd_trim(argc - 1, argv + 1);
    if (!strcmp(cmd, "sed"))
        return cmd_sed(argc - 1, argv + 1);
    if (!strcmp(cmd, "dump-images"))
        return stdout_written(cmd_dump_images(argc - 1, argv + 1));
    if (!strcmp(cmd, "diff-images"))
        return stdout_written(cmd_diff_images(argc - 1, argv + 1));
    if (!strcmp(cmd, "convert"))
        return stdout_written(cmd_convert(argc - 1, argv + 1));
    if (!strcmp(cmd, "view"))
        return cmd_view(argc - 1, argv + 1);
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    /* Anything else is a program to record: `gltrace glxgears`, `gltrace -o x.trace
     * glxgears`, `gltrace -- dump` (a program named like a command). */
    return cmd_record(argc, argv);
}
