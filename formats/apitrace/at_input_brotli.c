/* Brotli container (`apitrace repack --brotli`). Brotli has no magic number, so this
 * is the fallback for unrecognised files: failure on the first bytes means the file
 * is no trace at all, and the message says so. */
#include "at_input.h"

#include <brotli/decode.h>
#include <stdlib.h>

#define OUT_SIZE (1u << 20)
#define BROTLI_NOT_A_STREAM 64 /* bytes */

typedef struct {
    BrotliDecoderState *dec;
    uint8_t *buf;
    uint64_t produced;
} brotli_state;

#define NOT_A_TRACE                                                                    \
    "not an apitrace trace: unknown container (expected Snappy 'at', gzip 1f 8b, or "   \
    "Brotli data)"

static int brotli_refill(at_input *in)
{
    brotli_state *s = in->impl;
    in->block_offset += (uint64_t)(in->end - in->block);
    in->block = in->cur = in->end = s->buf;
    size_t avail_in = in->src_size - in->src_pos;
    const uint8_t *next_in = in->src + in->src_pos;
    size_t avail_out = OUT_SIZE;
    uint8_t *next_out = s->buf;
    BrotliDecoderResult r =
        BrotliDecoderDecompressStream(s->dec, &avail_in, &next_in, &avail_out, &next_out, NULL);
    in->src_pos = in->src_size - avail_in;
    size_t got = OUT_SIZE - avail_out;
    s->produced += got;
    if (r == BROTLI_DECODER_RESULT_SUCCESS && s->produced == 0 && avail_in > 0) {
        /* random bytes decode as an empty Brotli stream now and then (about one file in
         * thirteen): an empty stream followed by more data is no Brotli trace either */
        gt_error_at(&in->err, in->path, 0, NOT_A_TRACE);
        in->status = AT_INPUT_ERROR;
    } else if (r == BROTLI_DECODER_RESULT_SUCCESS)
        in->status = AT_INPUT_END;
    else if (r == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT)
        in->status = AT_INPUT_TRUNCATED;
    else if (r == BROTLI_DECODER_RESULT_ERROR) {
        /* Brotli has no magic: a stream that fails in its first bytes is no
         * Brotli at all; one that fails later is a damaged Brotli trace,
         * whether or not the decoder let out any bytes before the failure. */
        if (s->produced == 0 && in->src_pos <= BROTLI_NOT_A_STREAM)
            gt_error_at(&in->err, in->path, 0, NOT_A_TRACE);
        else
            gt_error_at(&in->err, in->path, in->src_pos, "corrupt Brotli data (%s)",
                        BrotliDecoderErrorString(BrotliDecoderGetErrorCode(s->dec)));
        in->status = AT_INPUT_ERROR;
    }
    if (got > 0) {
        in->end = s->buf + got;
        return 1;
    }
    return in->status == AT_INPUT_OK ? brotli_refill(in) : 0;
}

static void brotli_close(at_input *in)
{
    brotli_state *s = in->impl;
    if (!s)
        return;
    if (s->dec)
        BrotliDecoderDestroyInstance(s->dec);
    free(s->buf);
    free(s);
}

int at_input_brotli_init(at_input *in)
{
    brotli_state *s = calloc(1, sizeof *s);
    if (!s || !(s->buf = malloc(OUT_SIZE)) ||
        !(s->dec = BrotliDecoderCreateInstance(NULL, NULL, NULL))) {
        if (s)
            free(s->buf);
        free(s);
        gt_error_at(&in->err, in->path, 0, "out of memory");
        return 0;
    }
    in->impl = s;
    in->close = brotli_close;
    in->refill = brotli_refill;
    in->container = "brotli";
    /* Decode the first block now so a file that is no trace fails at open. */
    if (!brotli_refill(in) && in->status == AT_INPUT_ERROR)
        return 0;
    return 1;
}
