/* The commands of the gltrace front end, one row each: gltrace_main.c's dispatch, its
 * usage (`gltrace help`) and its stdout check all read these rows, and the prototypes
 * of the entry points below come from them too. A new command is a row here, its
 * cmd_NAME.c and that file in CMakeLists.txt.
 *
 *   X(entry point, name, arguments, one-line help)
 *
 * An entry point gets argv from the command's name on and returns the exit status. */
#ifndef GLTRACE_CMDS_H
#define GLTRACE_CMDS_H

#define GLTRACE_COMMANDS(X)                                                                     \
    X(cmd_dump, "dump", "FILE...",                                                              \
      "print the calls of apitrace-format traces (as `apitrace dump`)")                         \
    X(cmd_info, "info", "FILE...",                                                              \
      "print facts about traces as JSON (as `apitrace info`)")                                  \
    X(cmd_index, "index", "FILE...",                                                            \
      "write FILE.idx, a frame index for fast info and dump --frames")                          \
    X(cmd_repack, "repack", "IN OUT",                                                           \
      "rewrite a trace as a version 6 Snappy trace with our writer")                            \
    X(cmd_trim, "trim", "TRACE",                                                                \
      "a new trace of some calls or frames, and what they depend on")                           \
    X(cmd_sed, "sed", "TRACE",                                                                  \
      "a new trace with strings or enums replaced (s/SEARCH/REPLACE/)")                         \
    X(cmd_dump_images, "dump-images", "TRACE",                                                  \
      "replay (headless) and write an image per frame")                                         \
    X(cmd_diff_images, "diff-images", "REF_PREFIX SRC_PREFIX",                                  \
      "compare two sets of images: a summary and an HTML report")                               \
    X(cmd_check, "check", "TRACES.yml --device-name=NAME",                                      \
      "replay each trace's last frame, compare checksums as piglit (traces.yml)")               \
    X(cmd_diff, "diff", "REF_TRACE SRC_TRACE",                                                  \
      "compare the calls of two traces (as `apitrace diff`)")                                   \
    X(cmd_diff_state, "diff-state", "REF_JSON SRC_JSON",                                        \
      "what differs between two state dumps (as `apitrace diff-state`)")                        \
    X(cmd_leaks, "leaks", "TRACE",                                                              \
      "GL objects a trace creates and never deletes (as `apitrace leaks`)")                     \
    X(cmd_convert, "convert", "IN... -o OUT",                                                   \
      "convert and merge timelines (FXT, Chrome JSON, XRay, trace-cmd, .trace replayed)")       \
    X(cmd_view, "view", "TRACE",                                                                \
      "serve a viewer of the trace to a web browser (calls, GL state, timeline)")               \
    X(cmd_help, "help", "",                                                                     \
      "this list (also -h, --help)")

#define GLTRACE_CMD_PROTOTYPE(fn, name, args, help) int fn(int argc, char **argv);
GLTRACE_COMMANDS(GLTRACE_CMD_PROTOTYPE)
#undef GLTRACE_CMD_PROTOTYPE

/* Recording, what `gltrace [-o FILE] [--] PROGRAM [ARGS]` does when argv[1] names no
 * command: argv[0] is "gltrace" itself. */
int cmd_record(int argc, char **argv);

struct at_reader;
/* Prints why a reader stopped (error or warning) on stderr; returns the exit status
 * the trace deserves: 1 after an error, 0 otherwise. */
int gltrace_report_end(const struct at_reader *r);

#endif
