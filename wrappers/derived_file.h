/* The files other processes of a recorded run write (forked children, programs a
 * wrapper script starts): beside the run's main file, with the process id. */
#ifndef DERIVED_FILE_H
#define DERIVED_FILE_H

#include <stddef.h>

/* Creates exclusively "X.<pid><ext>" for main_path "X<ext>" ("X.<pid>.<n><ext>" for
 * the first n free; main_path + ".<pid>" when it does not end in ext) and puts its
 * name in out. Returns the descriptor, or -1 with a message naming `what` printed;
 * always -1 when main_path is a device or FIFO (nothing is made beside it). */
int gltrace_create_derived(const char *main_path, const char *ext, const char *what, char *out,
                           size_t size);

#endif
