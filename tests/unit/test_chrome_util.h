/* Helpers of the Chrome JSON unit tests: write events to text in memory, read
 * text back into a buffer, compare events, register the test groups. */
#ifndef TEST_CHROME_UTIL_H
#define TEST_CHROME_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "chrome_reader.h"
#include "chrome_writer.h"

#define S(tl, s) gt_tl_intern_cstr((tl), (s))

/* The whole document the writer makes of n events (malloc'd, NUL-terminated). */
char *tc_write(gt_timeline *tl, const gt_tl_event *ev, size_t n);
/* The one line the writer makes of one event (malloc'd). */
char *tc_line(gt_timeline *tl, const gt_tl_event *ev);

/* Warnings seen by the last tc_read (count and the last one). */
extern int tc_warnings;
extern char tc_last_warning[512];

/* Reads text (liberal or strict) into b (initialised here); 0 or -1 with err. */
int tc_read(gt_timeline *tl, const char *text, size_t len, bool strict, gt_tl_buffer *b,
            gt_chrome_read_stats *st, gt_error *err);
/* The error a read of text gives (liberal or strict), "" when it succeeds. */
const char *tc_read_error(const char *text, size_t len, bool strict);

/* Field by field; a message naming the first difference, or NULL when equal. */
const char *tc_diff(const gt_timeline *tl, const gt_tl_event *a, const gt_tl_event *b);

void test_chrome_bad_register(struct CMUnitTest *t, size_t *n);
void test_chrome_corpus_register(struct CMUnitTest *t, size_t *n);

#endif
