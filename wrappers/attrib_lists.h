/* Attribute lists (EGL, GLX, a few GL ones) written as apitrace writes them: one array
 * of keys (enums, or plain integers for EGLAttrib lists), each followed by its value
 * written by the key's kind, the terminator last; NULL as an empty array. The tables
 * come from specs/attrib_lists.txt (attrib_lists.gen.c). */
#ifndef ATTRIB_LISTS_H
#define ATTRIB_LISTS_H

#include <stddef.h>
#include <stdint.h>

#include "at_writer.h"

typedef enum gtal_kind {
    GTAL_SINT,  /* the value as a signed integer */
    GTAL_UINT,  /* the value as an unsigned integer */
    GTAL_NONE,  /* the key takes no value (glXChooseVisual's GLX_RGBA) */
    GTAL_ENUM,  /* the value as an enum of signature en */
    GTAL_FLAGS, /* the value as a bitmask of signature bm */
} gtal_kind;

typedef struct gtal_key {
    int64_t key;
    gtal_kind kind;
    const gt_enum_sig *en;
    const gt_bitmask_sig *bm;
} gtal_key;

typedef struct gtal_list {
    const gt_enum_sig *key_sig; /* NULL: keys written as signed integers */
    int64_t term;
    size_t num_keys;
    const gtal_key *keys; /* a key not here takes one value, written as sint */
} gtal_list;

/* The list p of elements of elem_size bytes (4: EGLint, int; 8: EGLAttrib). */
void gtw_attrib_list(at_writer *w, const gtal_list *l, const void *p, size_t elem_size);

/* The number of elements of the list p up to and including its terminator, as
 * gtw_attrib_list walks it (0 for NULL): what a copy of it needs. */
size_t gtal_length(const gtal_list *l, const void *p, size_t elem_size);

#endif
