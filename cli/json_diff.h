/* The difference of two JSON trees as apitrace's scripts/jsondiff.py prints it (the
 * text `apitrace diff-state` shows): only what differs, objects' members sorted, a
 * changed value as "old -> new", numbers equal within a relative 2^-24, a changed
 * multi-line string as difflib.Differ's lines (text_differ.h). */
#ifndef JSON_DIFF_H
#define JSON_DIFF_H

#include <stdio.h>

#include "gt_strbuf.h"
#include "json_tree.h"

typedef struct jd_options {
    int ignore_added; /* members only the second tree has are not differences */
} jd_options;

/* Appends the difference of a and b to out (nothing when they are equal); *differ is
 * set when they differ. 0, or -1 when memory runs out. */
int jd_diff(gt_strbuf *out, const jt_value *a, const jt_value *b, const jd_options *o, int *differ);

#endif
