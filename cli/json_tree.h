/* JSON read whole into a tree, as Python's json.loads(strict=False) reads it for
 * apitrace's jsondiff.py: NaN, Infinity and -Infinity accepted, control characters
 * allowed in strings, // comments outside strings skipped, numbers without a fraction
 * or exponent kept as integers, objects' members sorted by key (a repeated key keeps
 * its last value). Errors: "FILE: line L: what"; nesting deeper than JT_MAX_DEPTH is
 * refused. */
#ifndef JSON_TREE_H
#define JSON_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "gt_arena.h"
#include "gt_error.h"
#include "gt_strbuf.h"

#define JT_MAX_DEPTH 1000

typedef enum jt_type { JT_NULL, JT_FALSE, JT_TRUE, JT_INT, JT_FLOAT, JT_STRING, JT_ARRAY, JT_OBJECT } jt_type;

typedef struct jt_value jt_value;
typedef struct jt_member jt_member;

struct jt_value {
    jt_type type;
    int int_big;  /* JT_INT beyond 64 bits: compared and printed as its text */
    int64_t i;
    double d;     /* JT_FLOAT; and JT_INT's value as a double */
    const char *s; /* JT_STRING (UTF-8, may hold NUL) or a big JT_INT's text */
    size_t n;      /* its length, or the number of items or members */
    jt_value *items;
    jt_member *members;
};

struct jt_member {
    const char *key;
    size_t klen;
    size_t pos; /* its place in the file's object */
    jt_value v;
};

typedef struct jt_options {
    int strip_images; /* jsondiff.py's default: an object with "__class__" becomes
                         null, and members named __X__ are dropped */
} jt_options;

/* Reads the file at path into *root, its memory from arena: 0, or -1 with err set. */
int jt_load(const char *path, const jt_options *opt, gt_arena *arena, jt_value *root, gt_error *err);

/* A value as Python's json.dumps(v, allow_nan=True) writes a scalar (ensure_ascii). */
void jt_print_scalar(gt_strbuf *b, const jt_value *v);
/* A double as Python's repr(float). */
void jt_print_float(gt_strbuf *b, double d);

#endif
