/* Helpers and test cases shared by the XRay unit tests: a log builder and reads into a
 * buffer (test_xray_util.c); test_xray.c (the reader) runs the cases of
 * test_xray_write.c (instrumentation maps, the writer) too. */
#ifndef TEST_XRAY_H
#define TEST_XRAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gt_error.h"
#include "gt_timeline.h"

/* A log built in memory, in either byte order. */
typedef struct lb {
    uint8_t d[8192];
    size_t n;
    int be;
    size_t ext; /* offset of the open BufferExtents, 0 = none */
} lb;

/* v as n bytes in the log's byte order */
void lb_put(lb *b, uint64_t v, unsigned n);
/* the file header */
void lb_header(lb *b, unsigned version, unsigned type, uint64_t freq, uint64_t bufsize);
/* A metadata record: kind, then up to 15 bytes of fields (value, size) pairs. */
void lb_meta(lb *b, unsigned kind, uint64_t a, unsigned an, uint64_t c, unsigned cn);
/* a function record: action, function id, TSC delta */
void lb_fn(lb *b, unsigned action, uint32_t id, uint32_t delta);
/* s's bytes, no terminator */
void lb_bytes(lb *b, const char *s);
/* v2+: opens a buffer (its size is patched by lb_end_buffer) with the preamble. */
void lb_begin_buffer(lb *b, unsigned version, uint32_t tid, uint32_t pid, uint16_t cpu,
                     uint64_t tsc);
void lb_end_buffer(lb *b);

/* A read's timeline, events, error, result and warnings. */
typedef struct result {
    gt_timeline tl;
    gt_tl_buffer buf;
    gt_error err;
    int rc, warnings;
    char last_warning[600];
} result;

/* Reads d (strict or liberal; instr_map: an instrumentation map or NULL). */
result *read_log(const uint8_t *d, size_t n, bool strict, const char *instr_map);
void free_result(result *r);
/* the name of event i */
const char *name_of(result *r, size_t i);

/* test_xray_write.c */
void header_over_zeros(void **state);
void instrmap_written_and_read(void **state);
void writer_round_trip(void **state);
void writer_many_buffers(void **state);
void writer_edge_cases(void **state);

#endif
