/* A small pull parser for JSON text (RFC 8259) held in memory: the Chrome
 * reader walks the document with it one value at a time, so memory stays
 * bounded by one event whatever the file's size. Strings are decoded into a
 * caller-owned arena (or point into the input when they hold no escapes);
 * objects and arrays can be skipped whole, their raw text kept for later.
 * Errors go to err as "FILE: offset N: what"; nesting is bounded. */
#ifndef CHROME_JSON_H
#define CHROME_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gt_arena.h"
#include "gt_error.h"
#include "gt_timeline.h"

/* Deeper nesting is refused: no input can exhaust the stack or the parser. */
#define CJ_MAX_DEPTH 512

typedef enum cj_type {
    CJ_NONE = 0, /* end of input */
    CJ_STRING,
    CJ_NUMBER,
    CJ_TRUE,
    CJ_FALSE,
    CJ_NULL,
    CJ_OBJECT,
    CJ_ARRAY,
    CJ_BAD, /* a byte that starts no value */
} cj_type;

typedef struct cj_lex {
    const char *p;
    size_t end, pos; /* end: one past the last byte this lexer may read */
    uint64_t base;   /* file offset of p[0], for messages */
    const char *name;
    gt_error *err;
    bool strict;   /* refuse lone surrogates and invalid UTF-8 in strings */
    gt_arena *arena; /* decoded strings */
} cj_lex;

/* A value read whole: strings decoded, numbers as their text, objects and
 * arrays as their raw text (validated). off is the value's first byte. */
typedef struct cj_value {
    cj_type type;
    gt_tl_bytes s;
    size_t off;
} cj_value;

void cj_init(cj_lex *lx, const char *data, size_t size, const char *name, gt_arena *arena,
             gt_error *err);
/* A lexer over raw text another lexer returned (offsets stay the file's). */
void cj_sub(cj_lex *sub, const cj_lex *parent, const cj_value *raw);

/* Skips whitespace; returns the type the next byte starts (CJ_NONE at end). */
cj_type cj_peek(cj_lex *lx);
/* Skips whitespace; if the next byte is c, consumes it and returns true. */
bool cj_accept(cj_lex *lx, char c);
/* Fails with "expected C" unless the next byte is c. */
int cj_expect(cj_lex *lx, char c, const char *what);

/* Reads any value; objects and arrays are checked and kept as raw text. */
int cj_value_read(cj_lex *lx, cj_value *v);
/* Reads a string (the next byte must be '"'). */
int cj_string(cj_lex *lx, gt_tl_bytes *out);

/* Object iteration: after '{' (cj_accept), call cj_member until it returns 0
 * (the closing '}'); 1 = a key and its ':' were read, the value follows;
 * -1 = error. */
int cj_member(cj_lex *lx, bool *first, gt_tl_bytes *key);
/* Array iteration likewise: 1 = an element follows, 0 = the closing ']'. */
int cj_element(cj_lex *lx, bool *first);

/* "FILE: offset N: what" for the window offset off; returns -1. */
int cj_fail(cj_lex *lx, size_t off, const char *what);

/* Whether raw bytes are one complete JSON value (the writer checks verbatim
 * args): syntax only; escaped lone surrogates and bytes that are not UTF-8 in
 * strings pass, as the liberal reader keeps them. */
bool cj_is_json(const char *p, size_t n);

#endif
