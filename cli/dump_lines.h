/* The text of a trace's calls as lines, for `gltrace diff`: what `apitrace dump`
 * prints (properties first, calls as at_dump.h prints them, verbose calls left out),
 * split at newlines, each distinct line stored once and named by an id. */
#ifndef DUMP_LINES_H
#define DUMP_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "at_dump.h"
#include "at_reader.h"
#include "gt_callset.h"
#include "gt_error.h"
#include "gt_strbuf.h"

/* Distinct lines of any number of traces. */
typedef struct dl_pool {
    char *text;            /* the lines, one after the other */
    size_t text_len, text_cap;
    size_t *off;           /* per id: where its line starts in text */
    uint32_t *len;         /* per id: its length, without the newline */
    uint32_t n;            /* distinct lines */
    size_t off_cap, len_cap;
    uint32_t *table;       /* open addressing: id + 1, 0 when free */
    size_t table_size;     /* a power of two */
} dl_pool;

/* One trace's lines, as ids of a pool. */
typedef struct dl_lines {
    uint32_t *ids;
    size_t n, cap;
} dl_lines;

void dl_pool_free(dl_pool *p);
/* The id of line s (n bytes), added when new: 0, or -1 when memory runs out. */
int dl_intern(dl_pool *p, const char *s, size_t n, uint32_t *id);
void dl_lines_free(dl_lines *l);

/* Appends the dump of PATH's calls in `calls` to *out: 0, or -1 with err set (the
 * trace cannot be read, memory runs out, or more than max_lines lines). */
int dl_read_trace(dl_pool *p, dl_lines *out, const char *path, const gt_callset *calls,
                  const at_dump_options *o, size_t max_lines, gt_error *err);

/* The trace's properties as `apitrace dump` prints them: sorted by name, a repeated
 * name once with its last value. */
void dl_print_properties(const at_reader *r, gt_strbuf *out, const at_dump_options *o);

#endif
