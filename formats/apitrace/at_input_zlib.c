/* gzip container (apitrace before Snappy, and `apitrace repack -z`). */
#include "at_input.h"

#include <stdlib.h>
#include <zlib.h>

#define OUT_SIZE (1u << 20)

typedef struct {
    z_stream zs;
    uint8_t *buf;
} zlib_state;

static int zlib_refill(at_input *in)
{
    zlib_state *s = in->impl;
    in->block_offset += (uint64_t)(in->end - in->block);
    in->block = in->cur = in->end = s->buf;
    for (;;) {
        s->zs.next_out = s->buf;
        s->zs.avail_out = OUT_SIZE;
        int rc = inflate(&s->zs, Z_NO_FLUSH);
        in->src_pos = in->src_size - s->zs.avail_in;
        size_t got = OUT_SIZE - s->zs.avail_out;
        if (rc == Z_STREAM_END) {
            /* gzip files may hold several members back to back */
            if (s->zs.avail_in >= 2 && s->zs.next_in[0] == 0x1f && s->zs.next_in[1] == 0x8b)
                inflateReset(&s->zs);
            else
                in->status = AT_INPUT_END;
        } else if (rc == Z_BUF_ERROR || (rc == Z_OK && got == 0 && s->zs.avail_in == 0)) {
            in->status = AT_INPUT_TRUNCATED;
        } else if (rc != Z_OK) {
            gt_error_at(&in->err, in->path, in->src_pos, "corrupt gzip data (%s)",
                        s->zs.msg ? s->zs.msg : "inflate failed");
            in->status = AT_INPUT_ERROR;
        }
        if (got > 0) {
            in->end = s->buf + got;
            return 1;
        }
        if (in->status != AT_INPUT_OK)
            return 0;
    }
}

static void zlib_close(at_input *in)
{
    zlib_state *s = in->impl;
    if (!s)
        return;
    inflateEnd(&s->zs);
    free(s->buf);
    free(s);
}

int at_input_zlib_init(at_input *in)
{
    zlib_state *s = calloc(1, sizeof *s);
    if (!s || !(s->buf = malloc(OUT_SIZE))) {
        free(s);
        gt_error_at(&in->err, in->path, 0, "out of memory");
        return 0;
    }
    if (inflateInit2(&s->zs, 15 + 16) != Z_OK) {
        free(s->buf);
        free(s);
        gt_error_at(&in->err, in->path, 0, "cannot initialise zlib");
        return 0;
    }
    s->zs.next_in = (Bytef *)in->src;
    s->zs.avail_in = (uInt)in->src_size; /* traces over 4 GiB gzip: not supported */
    in->impl = s;
    in->close = zlib_close;
    in->refill = zlib_refill;
    in->container = "zlib";
    return 1;
}
