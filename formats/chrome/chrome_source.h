/* The Chrome reader's input: a window of JSON text over a file, a gzip stream
 * or memory. The reader frames one value (an event, a stack frame) at a time
 * in the window and drops what it has read, so memory holds the largest single
 * value, not the file. Plain memory input is used in place, without a copy. */
#ifndef CHROME_SOURCE_H
#define CHROME_SOURCE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <zlib.h>

#include "gt_error.h"

typedef struct cr_source {
    char *buf;       /* the window: text at offsets [base, base + len) */
    size_t len, cap;
    uint64_t base;
    bool owned;      /* buf is ours; false: the caller's memory */
    bool eof;        /* nothing more will come */
    bool failed;     /* a read or gzip error, in err */
    FILE *f;         /* NULL: compressed input in mem */
    const uint8_t *mem;
    size_t memlen;
    bool gz;
    z_stream z;
    uint8_t *zin;    /* compressed bytes read from f */
    size_t zin_cap;
    uint64_t inflated, limit;
    uint64_t zfed;   /* compressed bytes handed to inflate, for offsets and the ratio */
    const char *name;
    gt_error *err;
} cr_source;

/* Bytes read or inflated at a time (256 KiB); tests lower it to put a window
 * boundary everywhere. */
extern size_t cr_source_chunk;

/* Memory input, gzip or not (checked by magic bytes). */
int cr_source_mem(cr_source *s, const uint8_t *data, size_t size, const char *name, gt_error *err);
/* A file the caller keeps open; size_hint: its size when known (bounds gzip), else 0. */
int cr_source_file(cr_source *s, FILE *f, uint64_t size_hint, const char *name, gt_error *err);
/* Reads more text into the window (buf may move): 1 = more came, 0 = at the end,
 * -1 = error (in err; failed set). */
int cr_source_more(cr_source *s);
/* Forgets the first n bytes of the window; returns how many it dropped (0 for
 * memory input, which stays whole). */
size_t cr_source_drop(cr_source *s, size_t n);
void cr_source_close(cr_source *s);

#endif
