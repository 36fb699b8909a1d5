/* Helpers of the FXT unit tests: timelines written to memory, FXT read back
 * into a buffer, hand-built records, collected warnings. */
#ifndef TEST_FXT_UTIL_H
#define TEST_FXT_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "gt_timeline.h"

/* Bytes of an FXT file in memory. */
typedef struct fxt_bytes {
    uint8_t *p;
    size_t n;
} fxt_bytes;

/* Writes every event of b (strings of tl) with the FXT writer; asserts success. */
fxt_bytes fxt_write_buffer(const gt_tl_buffer *b, const gt_timeline *tl);

/* Warnings collected by a read. */
typedef struct fxt_warns {
    int n;
    char last[512];
} fxt_warns;

/* Reads bytes into out (initialised here); returns the reader's result. */
int fxt_read_into(const uint8_t *p, size_t n, bool strict, gt_timeline *tl, gt_tl_buffer *out,
                  fxt_warns *w, gt_error *err);

/* A hand-built FXT stream, word by word. */
typedef struct fxt_words {
    uint64_t w[4096];
    size_t n;
} fxt_words;
void fxt_put(fxt_words *s, uint64_t w);
/* A string padded with zeros to whole words. */
void fxt_put_str(fxt_words *s, const char *str);
/* magic, initialization (1e9 ticks/s) */
void fxt_put_start(fxt_words *s);
/* string record */
void fxt_put_string(fxt_words *s, unsigned idx, const char *str);
/* thread record */
void fxt_put_thread(fxt_words *s, unsigned idx, uint64_t pid, uint64_t tid);

/* Equality of two events of the same timeline, args included. */
void fxt_assert_event_equal(const gt_tl_event *a, const gt_tl_event *b);
/* "s" as a model string of tl. */
const char *fxt_str(const gt_timeline *tl, gt_tl_str id);

/* The cases of test_fxt_bad.c and test_fxt_corpus.c, appended to t[*n...] for
 * test_fxt.c's main. */
struct CMUnitTest;
void test_fxt_bad_register(struct CMUnitTest *t, size_t *n);
void test_fxt_corpus_register(struct CMUnitTest *t, size_t *n);

#endif
