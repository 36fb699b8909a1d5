/* Reading side of the apitrace containers: a decompressed byte stream.
 *
 * The container is detected from the first bytes: Snappy ('a' 't' then chunks of
 * uint32 LE length + raw Snappy block), gzip/zlib (1f 8b), Zstandard (recognised and
 * refused), otherwise Brotli (apitrace's Brotli files have no magic). The parser
 * reads bytes straight from [cur, end) and calls at_input_refill() when it runs dry,
 * so the hot path is a pointer compare. */
#ifndef AT_INPUT_H
#define AT_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "gt_error.h"

typedef enum at_input_status {
    AT_INPUT_OK = 0,
    AT_INPUT_END,       /* the container ended cleanly */
    AT_INPUT_TRUNCATED, /* the file ends inside a chunk or compressed stream */
    AT_INPUT_ERROR,     /* corrupt or unreadable data; message in err */
} at_input_status;

typedef struct at_input at_input;
typedef int (*at_refill_fn)(at_input *in);

struct at_input {
    const uint8_t *cur, *end; /* unread decompressed bytes */
    const uint8_t *block;     /* start of the current decompressed block */
    uint64_t block_offset;    /* stream offset of block[0] */
    at_input_status status;
    const char *container;    /* "snappy", "zlib", "brotli" */
    const char *path;         /* for messages */
    gt_error err;
    /* Optional, for the frame index (at_index.c): told of every non-empty chunk as it
     * is decoded, with its file offset and the stream offset of its first byte. Only
     * the Snappy container has chunks to seek to. */
    void (*on_chunk)(void *ctx, uint64_t file_pos, uint64_t stream_off);
    void *on_chunk_ctx;
    /* private to the container implementation */
    at_refill_fn refill;
    int (*seek)(at_input *in, uint64_t file_pos, uint64_t stream_off, uint64_t skip);
    void (*close)(at_input *in);
    void *impl;
    const uint8_t *src;       /* whole file, mapped or in memory */
    size_t src_size, src_pos;
    int src_mapped;
};

/* Opens a trace file; NULL with err filled when it cannot be opened or its
 * container is not one we read. */
at_input *at_input_open(const char *path, gt_error *err);
/* Same over a caller-owned buffer (tests, fuzzing); name is used in messages. */
at_input *at_input_open_mem(const void *data, size_t size, const char *name, gt_error *err);
void at_input_close(at_input *in);

/* Restarts reading at the chunk that starts at file offset file_pos, whose first
 * decompressed byte is stream offset stream_off, skip bytes into that chunk (the
 * frame index gives all three). Snappy only: the other containers are one
 * compressed stream with no point to restart from. Returns 1, or 0 with in->err set
 * (the input is then unusable). */
int at_input_seek_chunk(at_input *in, uint64_t file_pos, uint64_t stream_off, uint64_t skip);

/* A plain input over n bytes already decompressed, numbered from stream offset off
 * (no container, nothing to close): how the index feeds stored signatures back to
 * the parser. */
void at_input_init_raw(at_input *in, const uint8_t *p, size_t n, uint64_t off, const char *name);

/* Makes more bytes available. Returns 1 when [cur, end) is non-empty, 0 when
 * no more data will come (see status). */
static inline int at_input_refill(at_input *in)
{
    if (in->cur < in->end)
        return 1;
    if (in->status != AT_INPUT_OK)
        return 0;
    return in->refill(in);
}

static inline uint64_t at_input_offset(const at_input *in)
{
    return in->block_offset + (uint64_t)(in->cur - in->block);
}

/* Compressed bytes consumed so far, and the file's size. */
static inline size_t at_input_file_pos(const at_input *in) { return in->src_pos; }
static inline size_t at_input_file_size(const at_input *in) { return in->src_size; }

/* Internal: one opener per container, over in->src. */
int at_input_snappy_init(at_input *in);
int at_input_zlib_init(at_input *in);
int at_input_brotli_init(at_input *in);

#endif
