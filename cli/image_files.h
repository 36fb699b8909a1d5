/* The image files of a snapshot prefix, and what an HTML report needs of paths. */
#ifndef IMAGE_FILES_H
#define IMAGE_FILES_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>

#include "gt_error.h"

/* Names, sorted and unique. */
typedef struct image_list {
    char **v;
    size_t n, cap;
} image_list;

/* Adds the names of the images under PREFIX (a folder, or a path prefix such as
 * "out/game."), searched recursively as apitrace's snapdiff does: the rest of each path
 * after PREFIX, for .png files that are not .diff.png or .thumb.png. Only the prefix's
 * own folder is read, and of its subfolders those whose paths can still match PREFIX,
 * never through a symbolic link to a folder, at most IMAGE_MAX_DEPTH deep and
 * IMAGE_MAX_ENTRIES entries in all: a prefix such as "/" or a link loop ends. stop
 * (may be NULL), once set, ends the walk. 0; 1 when the prefix's folder does not
 * exist (err says "no such folder"); -1 with err set (out of memory, too many
 * entries, stopped, a folder that cannot be read). */
enum { IMAGE_MAX_DEPTH = 16, IMAGE_MAX_ENTRIES = 200000 };
int image_list_find(image_list *l, const char *prefix, const atomic_bool *stop, gt_error *err);
void image_list_free(image_list *l);

/* TEXT with &, <, > and " escaped. */
void image_html_text(FILE *f, const char *text);
/* The path of TO (absolute) relative to the folder FROM (absolute); NULL when out of
 * memory. */
char *image_relative_path(const char *from, const char *to);

#endif
