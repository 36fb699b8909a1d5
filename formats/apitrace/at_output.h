/* Writing side of the Snappy container: the stream is cut into chunks of at most
 * 1 MiB, each written as uint32 LE compressed length + raw Snappy block. Events
 * straddle chunks freely, as in apitrace's own files. */
#ifndef AT_OUTPUT_H
#define AT_OUTPUT_H

#include <stddef.h>
#include <stdint.h>

#include "gt_error.h"

typedef struct at_output {
    uint8_t *buf;    /* uncompressed chunk being filled */
    size_t len;
    uint8_t *cbuf;   /* compressed chunk + its 4-byte length */
    size_t ccap;
    int fd;
    int failed;
    uint64_t stream_bytes, file_bytes;
    gt_error err;
    const char *path;
} at_output;

/* Creates (truncates) path and writes the container magic. */
int at_output_open(at_output *o, const char *path, gt_error *err);
/* Same over an open descriptor, which the output then owns. */
int at_output_open_fd(at_output *o, int fd, const char *name, gt_error *err);
void at_output_write_slow(at_output *o, const void *p, size_t n);
/* Compresses and writes the pending bytes as one chunk (no-op when empty). */
int at_output_flush(at_output *o);
/* The same as a stored (literal-only) Snappy block: no allocation, for signal
 * handlers. Snappy's worst case (n + n/6 + 32) leaves room for its 9-byte head. */
int at_output_flush_uncompressed(at_output *o);
/* Flushes, closes the file; 0 when anything failed (message in o->err). */
int at_output_close(at_output *o);

#define AT_OUTPUT_CHUNK (1u << 20)

static inline void at_output_write(at_output *o, const void *p, size_t n)
{
    if (AT_OUTPUT_CHUNK - o->len >= n) {
        for (size_t i = 0; i < n; ++i) /* small writes dominate: avoid a memcpy call */
            o->buf[o->len + i] = ((const uint8_t *)p)[i];
        o->len += n;
    } else {
        at_output_write_slow(o, p, n);
    }
}

static inline void at_output_byte(at_output *o, uint8_t b)
{
    if (o->len == AT_OUTPUT_CHUNK)
        at_output_flush(o);
    o->buf[o->len++] = b;
}

#endif
