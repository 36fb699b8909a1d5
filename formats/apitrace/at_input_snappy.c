/* apitrace's Snappy container: 'a' 't', then chunks of uint32 LE compressed length
 * followed by one raw Snappy block. It predates the Snappy framing format. */
#include "at_input.h"

#include <snappy-c.h>
#include <stdlib.h>

/* Snappy's best case expands 3 bytes into 64: anything claiming more is corrupt. */
#define MAX_RATIO 22
#define MAX_BLOCK (64u << 20)

typedef struct {
    uint8_t *buf;
    size_t cap;
} snappy_state;

static int fail(at_input *in, size_t at, const char *what)
{
    gt_error_at(&in->err, in->path, at, "%s", what);
    in->status = AT_INPUT_ERROR;
    return 0;
}

/* Decodes the next chunk; 1 with data, 0 when none (status says why), -1 for an
 * empty chunk. */
static int next_chunk(at_input *in)
{
    snappy_state *s = in->impl;
    size_t pos = in->src_pos, left = in->src_size - pos;
    in->block_offset += (uint64_t)(in->end - in->block);
    in->block = in->cur = in->end = s->buf;
    if (left == 0) {
        in->status = AT_INPUT_END;
        return 0;
    }
    if (left < 4) {
        in->status = AT_INPUT_TRUNCATED;
        return 0;
    }
    const uint8_t *p = in->src + pos;
    size_t clen = (size_t)p[0] | (size_t)p[1] << 8 | (size_t)p[2] << 16 | (size_t)p[3] << 24;
    if (clen > left - 4) {
        in->status = AT_INPUT_TRUNCATED; /* the writer was cut off inside this chunk */
        return 0;
    }
    size_t ulen;
    if (clen == 0 || snappy_uncompressed_length((const char *)p + 4, clen, &ulen) != SNAPPY_OK)
        return fail(in, pos, "corrupt Snappy chunk header");
    if (ulen > MAX_BLOCK || ulen > clen * MAX_RATIO + 64)
        return fail(in, pos, "Snappy chunk claims an impossible uncompressed size");
    if (ulen > s->cap) {
        uint8_t *nb = realloc(s->buf, ulen);
        if (!nb)
            return fail(in, pos, "out of memory for a Snappy chunk");
        s->buf = nb;
        s->cap = ulen;
    }
    size_t out = ulen;
    if (snappy_uncompress((const char *)p + 4, clen, (char *)s->buf, &out) != SNAPPY_OK ||
        out != ulen)
        return fail(in, pos, "corrupt Snappy data");
    in->src_pos = pos + 4 + clen;
    if (in->src_pos == in->src_size)
        in->status = AT_INPUT_END; /* known now, so the parser can bound lengths */
    in->block = in->cur = s->buf;
    in->end = s->buf + ulen;
    return ulen > 0 ? 1 : -1;
}

static int snappy_refill(at_input *in)
{
    int rc;
    while ((rc = next_chunk(in)) < 0)
        ;
    return rc;
}

static void snappy_close(at_input *in)
{
    snappy_state *s = in->impl;
    if (s)
        free(s->buf);
    free(s);
}

int at_input_snappy_init(at_input *in)
{
    snappy_state *s = calloc(1, sizeof *s);
    if (!s)
        return fail(in, 0, "out of memory");
    in->impl = s;
    in->close = snappy_close;
    in->refill = snappy_refill;
    in->container = "snappy";
    in->src_pos = 2;
    return 1;
}
