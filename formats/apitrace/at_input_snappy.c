/* apitrace's Snappy container: 'a' 't', then chunks of uint32 LE compressed length
 * followed by one raw Snappy block. It predates the Snappy framing format. */
#include "at_input.h"

#include <snappy-c.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Snappy's best case expands 3 bytes into 64: anything claiming more is corrupt. */
#define MAX_RATIO 22
#define MAX_BLOCK (64u << 20)

/* Pages of the mapped file already decoded are handed back every so often: otherwise
 * they stay resident and a 2 GB trace read once costs 2 GB of RSS. */
#define RELEASE_STEP (8u << 20)

typedef struct {
    uint8_t *buf;
    size_t cap;
    size_t released; /* file bytes before this were given back (page aligned) */
} snappy_state;

static int fail(at_input *in, size_t at, const char *what)
{
    gt_error_at(&in->err, in->path, at, "%s", what);
    in->status = AT_INPUT_ERROR;
    return 0;
}

static int reserve(at_input *in, size_t n)
{
    snappy_state *s = in->impl;
    if (n <= s->cap)
        return 1;
    uint8_t *nb = realloc(s->buf, n);
    if (!nb)
        return 0;
    s->buf = nb;
    s->cap = n;
    return 1;
}

static size_t le(const uint8_t *p, unsigned n)
{
    size_t v = 0;
    for (unsigned i = 0; i < n; ++i)
        v |= (size_t)p[i] << (8 * i);
    return v;
}

/* Decodes as much of a raw Snappy block as the n bytes present allow: the last
 * chunk of a file cut short still yields the calls it holds, as with apitrace.
 * libsnappy only decodes whole blocks, hence this small decoder. */
static size_t decode_prefix(const uint8_t *src, size_t n, uint8_t *out, size_t cap)
{
    size_t i = 0, o = 0;
    while (i < n && (src[i] & 0x80)) /* the block's uncompressed length */
        i++;
    i++;
    while (i < n) {
        unsigned tag = src[i++], kind = tag & 3;
        size_t len, off;
        if (kind == 0) {
            len = (tag >> 2) + 1;
            if (len > 60) {
                unsigned nb = (unsigned)len - 60;
                if (n - i < nb)
                    break;
                len = le(src + i, nb) + 1;
                i += nb;
            }
            size_t k = len < n - i ? len : n - i;
            if (k > cap - o)
                k = cap - o;
            memcpy(out + o, src + i, k);
            o += k;
            i += k;
            continue;
        }
        unsigned nb = kind == 1 ? 1 : kind == 2 ? 2 : 4;
        if (n - i < nb)
            break;
        if (kind == 1) {
            len = ((tag >> 2) & 7) + 4;
            off = (size_t)(tag >> 5) << 8 | src[i];
        } else {
            len = (tag >> 2) + 1;
            off = le(src + i, nb);
        }
        i += nb;
        if (off == 0 || off > o || len > cap - o)
            break; /* corrupt: keep what was decoded */
        for (size_t j = 0; j < len; ++j, ++o)
            out[o] = out[o - off];
    }
    return o;
}

static void tell_chunk(at_input *in, size_t pos)
{
    if (in->on_chunk && in->end > in->block)
        in->on_chunk(in->on_chunk_ctx, pos, in->block_offset);
}

/* MADV_DONTNEED on a private read-only file mapping only drops pages: touching them
 * again (a seek back) reads them from the file anew. */
static void release_behind(at_input *in, snappy_state *s)
{
    if (!in->src_mapped || in->src_pos < s->released + RELEASE_STEP)
        return;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t end = in->src_pos / page * page;
    if (end > s->released)
        madvise((void *)(in->src + s->released), end - s->released, MADV_DONTNEED);
    s->released = end;
}

static int cut_chunk(at_input *in, size_t pos, const uint8_t *src, size_t n)
{
    snappy_state *s = in->impl;
    size_t ulen;
    in->status = AT_INPUT_TRUNCATED;
    in->src_pos = in->src_size;
    if (snappy_uncompressed_length((const char *)src, n, &ulen) != SNAPPY_OK || ulen > MAX_BLOCK)
        return 0;
    if (ulen > n * MAX_RATIO + 64) /* no more can come out of the n bytes present */
        ulen = n * MAX_RATIO + 64;
    if (!reserve(in, ulen))
        return 0;
    size_t got = decode_prefix(src, n, s->buf, ulen);
    in->block = in->cur = s->buf;
    in->end = s->buf + got;
    tell_chunk(in, pos);
    return got > 0;
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
    if (clen > left - 4)
        return cut_chunk(in, pos, p + 4, left - 4); /* the writer was cut off inside this chunk */
    size_t ulen;
    if (clen == 0 || snappy_uncompressed_length((const char *)p + 4, clen, &ulen) != SNAPPY_OK)
        return fail(in, pos, "corrupt Snappy chunk header");
    if (ulen > MAX_BLOCK || ulen > clen * MAX_RATIO + 64)
        return fail(in, pos, "Snappy chunk claims an impossible uncompressed size");
    if (!reserve(in, ulen))
        return fail(in, pos, "out of memory for a Snappy chunk");
    size_t out = ulen;
    if (snappy_uncompress((const char *)p + 4, clen, (char *)s->buf, &out) != SNAPPY_OK ||
        out != ulen)
        return fail(in, pos, "corrupt Snappy data");
    in->src_pos = pos + 4 + clen;
    release_behind(in, s);
    if (in->src_pos == in->src_size)
        in->status = AT_INPUT_END; /* known now, so the parser can bound lengths */
    in->block = in->cur = s->buf;
    in->end = s->buf + ulen;
    tell_chunk(in, pos);
    return ulen > 0 ? 1 : -1;
}

static int snappy_refill(at_input *in)
{
    int rc;
    while ((rc = next_chunk(in)) < 0)
        ;
    return rc;
}

/* Decodes the chunk at file_pos as if reading had just reached it. The position comes
 * from an index, so everything is checked: a chunk header out of the file, or a skip
 * beyond the chunk, is an error at that file offset. */
static int snappy_seek(at_input *in, uint64_t file_pos, uint64_t stream_off, uint64_t skip)
{
    snappy_state *s = in->impl;
    if (file_pos < 2 || file_pos >= in->src_size)
        return fail(in, file_pos, "index points beyond the Snappy chunks");
    in->status = AT_INPUT_OK;
    in->src_pos = (size_t)file_pos;
    s->released = in->src_pos / (size_t)sysconf(_SC_PAGESIZE) * (size_t)sysconf(_SC_PAGESIZE);
    in->block = in->cur = in->end = s->buf;
    in->block_offset = stream_off;
    if (!snappy_refill(in)) {
        if (in->status != AT_INPUT_ERROR)
            fail(in, file_pos, "index points at no Snappy chunk");
        return 0;
    }
    if (skip >= (uint64_t)(in->end - in->cur))
        return fail(in, file_pos, "index offset lies beyond its Snappy chunk");
    in->cur += skip;
    return 1;
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
    if (!reserve(in, 4096)) /* never NULL, even for chunks that hold nothing */
        return fail(in, 0, "out of memory");
    in->refill = snappy_refill;
    in->seek = snappy_seek;
    in->container = "snappy";
    in->src_pos = 2;
    return 1;
}
