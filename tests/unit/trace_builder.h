/* Helpers shared by the unit tests: build raw apitrace event streams byte by byte,
 * wrap them in the three containers, and read, dump and compare what comes back.
 * Helpers that allocate fail the current cmocka test on error, so tests stay short. */
#ifndef TRACE_BUILDER_H
#define TRACE_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "at_dump.h"
#include "at_format.h"
#include "at_reader.h"
#include "gt_model.h"

/* ---- raw stream bytes ---- */

typedef struct tb_buf {
    uint8_t *data;
    size_t len, cap;
} tb_buf;

void tb_init(tb_buf *b);
void tb_free(tb_buf *b);
void tb_byte(tb_buf *b, uint8_t c);
void tb_bytes(tb_buf *b, const void *p, size_t n);
void tb_uint(tb_buf *b, uint64_t v);      /* varint */
void tb_sint(tb_buf *b, int64_t v);       /* tagged 0x03/0x04 + varint, as in enum sigs */
void tb_str(tb_buf *b, const char *s);    /* length + bytes */
void tb_float(tb_buf *b, float f);
void tb_double(tb_buf *b, double d);

/* Header: the version alone below 6; for 6 also semantic version 6 and no properties. */
void tb_header(tb_buf *b, unsigned version);
/* Enter event up to and including the signature id (thread only from version 4). */
void tb_enter(tb_buf *b, unsigned version, uint32_t thread, uint32_t sig_id);
/* The rest of a function signature on its first use. */
void tb_func_sig(tb_buf *b, const char *name, unsigned nargs, const char *const *args);
void tb_leave(tb_buf *b, uint32_t call_no);
/* A whole call "name()" with no details, signature sig_id (full when first), version 6. */
void tb_simple_call(tb_buf *b, uint32_t no, uint32_t sig_id, const char *name_if_first);

/* ---- containers (results are malloc'd) ---- */

/* 'a' 't' + chunks of at most chunk bytes of stream each. */
uint8_t *tb_snappy(const uint8_t *stream, size_t len, size_t chunk, size_t *out_len);
uint8_t *tb_gzip(const uint8_t *stream, size_t len, size_t *out_len);
uint8_t *tb_brotli(const uint8_t *stream, size_t len, size_t *out_len);
/* Decodes a Snappy container back into the stream; *nchunks and the largest
 * decompressed chunk are reported when non-NULL. */
uint8_t *tb_unsnappy(const uint8_t *file, size_t len, size_t *out_len, unsigned *nchunks,
                     size_t *max_chunk);

/* ---- files ---- */

char *tb_temp_path(void); /* a fresh empty file; unlink and free it */
void tb_write_file(const char *path, const void *data, size_t n);
uint8_t *tb_read_file(const char *path, size_t *n);

/* ---- reading ---- */

/* Opens an in-memory trace (data must outlive the reader); NULL with err set. */
at_reader *tb_open_mem(const void *data, size_t n, bool skip_blobs, gt_error *err);
/* Snappy-wraps a stream and opens it; *file receives the container to free later. */
at_reader *tb_open_stream(const tb_buf *stream, uint8_t **file, gt_error *err);
/* Reads every call and returns the dump text of all of them (call numbers, thread
 * ids, single-line); the error and warning at the end are copied when non-NULL. */
char *tb_dump_all(at_reader *r, char **error, char **warning);

/* ---- text and values ---- */

char *tb_dump_value(const gt_value *v, bool multiline);
char *tb_dump_call(const gt_call *c, const at_dump_options *o);
/* Deep comparison: signatures by content, floats by bits. Prints the difference. */
bool tb_value_equal(const gt_value *a, const gt_value *b);
bool tb_contains(const char *haystack, const char *needle);

#endif
