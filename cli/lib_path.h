/* Where gltrace finds its installed files, all relative to its own executable: the
 * libraries it loads into other processes or into itself (the recording library
 * libgltrace.so, preloaded into the program; the replayer libgltrace_replay.so, loaded
 * by convert and dump-images; the viewer's server libgltrace_view.so, loaded by view),
 * and what the viewer finds (its page, glretrace). */
#ifndef LIB_PATH_H
#define LIB_PATH_H

#include <stdbool.h>
#include <stddef.h>

#include "gt_error.h"

/* $ENV_VAR when set, else NAME in ../lib/gltrace/ beside this executable (an installed
 * prefix or package), else in ../lib/ (the build tree): its real path into OUT. 0, or
 * -1 with err set ("cannot find ... (set ENV_VAR to its path)"). */
int gltrace_find_lib(const char *env_var, const char *name, char *out, size_t size, gt_error *err);

/* This executable's path (/proc/self/exe) into OUT, or with folder its folder. 0, or
 * -1 with err set. */
int gltrace_exe_path(char *out, size_t size, bool folder, gt_error *err);

#endif
