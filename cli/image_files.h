/* The image files of a snapshot prefix, and what an HTML report needs of paths. */
#ifndef IMAGE_FILES_H
#define IMAGE_FILES_H

#include <stddef.h>
#include <stdio.h>

/* Names, sorted and unique. */
typedef struct image_list {
    char **v;
    size_t n, cap;
} image_list;

/* Adds the names of the images under PREFIX (a folder, or a path prefix such as
 * "out/game."), searched recursively as apitrace's snapdiff does: the rest of each path
 * after PREFIX, for .png files that are not .diff.png or .thumb.png. A prefix whose
 * folder cannot be read adds nothing. 0, or -1 after saying why (out of memory). */
int image_list_find(image_list *l, const char *prefix);
void image_list_free(image_list *l);

/* TEXT with &, <, > and " escaped. */
void image_html_text(FILE *f, const char *text);
/* The path of TO (absolute) relative to the folder FROM (absolute); NULL when out of
 * memory. */
char *image_relative_path(const char *from, const char *to);

#endif
