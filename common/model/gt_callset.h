/* Call sets as apitrace understands them: "1,5-10,20-/2,frame,@file".
 *
 *   set      = '@' filename | range ((',' | space) range)*
 *   range    = ('*' | N | N '-' [M]) ['/' (step | freq)] | freq
 *   freq     = "frame" | "rendertarget" | "fbo" | "render" | "draw"
 */
#ifndef GT_CALLSET_H
#define GT_CALLSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gt_error.h"

#define GT_FREQ_ALL 0xffffffffu

typedef struct gt_callrange {
    uint32_t start, stop, step;
    uint32_t freq; /* GT_CALL_FLAG_* a call must have, or GT_FREQ_ALL */
} gt_callrange;

typedef struct gt_callset {
    gt_callrange *ranges;
    size_t n, cap;
    bool replaced; /* the first merge replaces the default "everything" */
} gt_callset;

/* A set holding every call: 0, or -1 when memory runs out. */
int gt_callset_init_all(gt_callset *s);
void gt_callset_free(gt_callset *s);
/* Adds the ranges of str (the first merge replaces the initial set): 0, or -1 with
 * err set. */
int gt_callset_merge(gt_callset *s, const char *str, gt_error *err);
bool gt_callset_contains(const gt_callset *s, uint32_t no, uint32_t flags);
/* The last call number the set can contain (to stop reading early). */
uint32_t gt_callset_last(const gt_callset *s);

#endif
