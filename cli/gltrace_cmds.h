/* Subcommands of the gltrace front end. Each returns the process exit status. */
#ifndef GLTRACE_CMDS_H
#define GLTRACE_CMDS_H

int cmd_dump(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_index(int argc, char **argv);
int cmd_repack(int argc, char **argv);
int cmd_trim(int argc, char **argv);
int cmd_sed(int argc, char **argv);
int cmd_dump_images(int argc, char **argv);
int cmd_diff_images(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_view(int argc, char **argv); /* view_loader.c: runs libgltrace_view.so */
/* `gltrace [-o FILE] [--] PROGRAM [ARGS]`: argv[0] is "gltrace" itself. */
int cmd_record(int argc, char **argv);

struct at_reader;
/* Prints why a reader stopped (error or warning) on stderr; returns the exit status
 * the trace deserves: 1 after an error, 0 otherwise. */
int gltrace_report_end(const struct at_reader *r);


#endif
