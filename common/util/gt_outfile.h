/* Output files that never destroy anything. Every command that writes a
 * file (gltrace convert and repack, glretrace's timelines and snapshots) goes
 * through here:
 *
 *   - an output that is the same file as an input (same st_dev and st_ino, so hard
 *     links and symlinks with other names count) is refused before anything is
 *     opened for writing;
 *   - a regular file (or a name that does not exist yet) is written to a new
 *     temporary file beside it, which replaces the target by rename() only once
 *     everything is written and synced: a failure at any point leaves the target as
 *     it was (missing, or its old contents);
 *   - a character device or FIFO (/dev/null, /dev/stdout, a pipe) is written in
 *     place: it is never replaced, truncated or removed;
 *   - abandoning an output removes the temporary file, and only that.
 *
 * Recording cannot use the temporary file (its trace must be readable at the final
 * path while the program runs); it uses gt_outfile_claim below. */
#ifndef GT_OUTFILE_H
#define GT_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "gt_error.h"

typedef struct gt_outfile {
    char *target;     /* the output as named (symlinks resolved when they exist) */
    char *tmp;        /* the temporary file beside it; NULL when written in place */
    const char *path; /* where the writer writes: tmp, or target for a device/FIFO */
    bool direct;      /* a character device or FIFO, written in place */
    bool existed;     /* the target was there before */
} gt_outfile;

/* 1 when a and b name the same file (both exist), else 0. */
int gt_same_file(const char *a, const char *b);

/* Refuses (-1, err set) an output that is the same file as one of the n inputs
 * (NULL entries skipped). what names the output in the message ("output"). */
int gt_outfile_check_inputs(const char *out, const char *const *inputs, size_t n,
                            const char *what, gt_error *err);

/* Prepares writing path after gt_outfile_check_inputs: creates the temporary file
 * (mode of the file it will replace, else 0666 less the umask) or, for a device or
 * FIFO, nothing. The writer then opens o->path (truncating it is fine: it is ours,
 * and O_TRUNC does nothing to devices and FIFOs). Returns 0, or -1 with err set. */
int gt_outfile_begin(gt_outfile *o, const char *path, const char *const *inputs, size_t n,
                     gt_error *err);

/* The same for a file in a folder others may plant names in (glretrace's snapshots in
 * gltrace view's cache): the name itself is replaced. A symbolic link there is never
 * followed: the new file takes the link's place; a device or FIFO is still written in
 * place, a folder refused. The writer must open o->path with O_NOFOLLOW when o->tmp
 * is set (gt_outfile_open_tmp). */
int gt_outfile_begin_name(gt_outfile *o, const char *path, gt_error *err);
/* Opens o->path for writing: the temporary file with O_NOFOLLOW (never a link), a
 * device or FIFO as it is. A stdio stream, or NULL with errno set. */
FILE *gt_outfile_open(const gt_outfile *o);

/* Makes the output final once the writer has closed o->path: syncs the temporary
 * file and renames it over the target. On failure the temporary file is removed
 * and the target is untouched. Frees o either way. */
int gt_outfile_commit(gt_outfile *o, gt_error *err);

/* Abandons the output: removes the temporary file (never the target). Frees o. */
void gt_outfile_abort(gt_outfile *o);

/* What a failed write leaves at the target ("not written, the existing file is
 * left unchanged", ...), for error messages. Call before gt_outfile_abort. */
const char *gt_outfile_left(const gt_outfile *o);

/* ---- recording ----------------------------------------------------------------------
 * The trace and timeline of a recorded program are written in place while it runs.
 * claim: a name that does not exist is created (exclusively) and marked ours; an
 * existing regular file is replaced by a new empty file (temporary file + rename, so
 * the old file is never truncated in place: a program binary or any other open file
 * under that name keeps its contents, and other hard links keep theirs), also ours;
 * a device or FIFO is left alone and written directly. release: removes the file
 * only when it is still the empty regular file claim made under a name that did
 * not exist before (a name the user had stays, even if nothing was recorded). */
typedef struct gt_claim {
    bool ours;    /* claim created the file now there */
    bool existed; /* and replaced one: the name stays, even empty */
    bool direct; /* a device or FIFO */
    dev_t dev;
    ino_t ino;
} gt_claim;

int gt_outfile_claim(const char *path, gt_claim *c, gt_error *err);
void gt_outfile_release_if_empty(const char *path, const gt_claim *c);

#endif
