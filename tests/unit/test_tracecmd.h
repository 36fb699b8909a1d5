/* Helpers and test cases shared by the trace-cmd unit tests: test_tracecmd.c (event
 * formats, pages, the writer read back) runs them all; test_tracecmd_corpus.c (real
 * files) and test_tracecmd_v6.c (hand-built v6 files) hold cases of their own. */
#ifndef TEST_TRACECMD_H
#define TEST_TRACECMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gt_error.h"
#include "gt_timeline.h"

/* A whole file in memory (p NULL when it could not be read). */
typedef struct bytes {
    uint8_t *p;
    size_t n;
} bytes;
bytes slurp(const char *path);

/* Warnings collected by a read: how many, the last one. */
typedef struct warns {
    int n;
    char last[GT_ERROR_MAX + 64];
} warns;

/* Reads data into a buffer; returns the reader's result, err filled. */
int read_mem(const uint8_t *p, size_t n, bool strict, gt_timeline *tl, gt_tl_buffer *buf, gt_error *err,
             warns *w);
/* A model string of tl as C text. */
const char *str(const gt_timeline *tl, gt_tl_str id);
/* v as n little-endian bytes at p. */
void put_le(uint8_t *p, uint64_t v, unsigned n);

/* test_tracecmd_corpus.c */
void test_corpus(void **state);
void test_corpus_sched_switch(void **state);
void test_corpus_damaged(void **state);
void test_zlib(void **state);
void test_converted_seeds(void **state);
void test_merged_fxt_chrome(void **state);

/* test_tracecmd_v6.c */
void test_v6_big_endian_instances(void **state);
void test_v6_function_events(void **state);

#endif
