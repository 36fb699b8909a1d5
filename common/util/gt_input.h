/* Opening an input file: one helper for every reader and command.
 *
 * Inputs must be regular files. A FIFO, socket, directory or device is refused
 * with "FILE: not a regular file (a FIFO)" instead of blocking: the file is
 * opened with O_NONBLOCK (so a FIFO without a writer does not hang the open),
 * checked with fstat, and only then switched back to blocking reads. Readers
 * that take "-" read standard input as a stream; that is the one way to feed a
 * pipe (it ends when its writer closes it). */
#ifndef GT_INPUT_H
#define GT_INPUT_H

#include <stdint.h>
#include <stdio.h>

#include "gt_error.h"

/* A read-only descriptor of the regular file at path, its size in *size (may
 * be NULL); -1 with err set ("PATH: what"). */
int gt_input_open(const char *path, uint64_t *size, gt_error *err);

/* The same as a FILE (binary reads); NULL with err set. */
FILE *gt_input_fopen(const char *path, uint64_t *size, gt_error *err);

#endif
