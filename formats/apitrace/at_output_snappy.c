#include "at_output.h"

#include <errno.h>
#include <fcntl.h>
#include <snappy-c.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int write_all(at_output *o, const uint8_t *p, size_t n)
{
    while (n) {
        ssize_t k = write(o->fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            gt_error_set(&o->err, "%s: write failed: %s", o->path, k < 0 ? strerror(errno) : "no space");
            o->failed = 1;
            return 0;
        }
        p += k;
        n -= (size_t)k;
        o->file_bytes += (uint64_t)k;
    }
    return 1;
}

int at_output_open_fd(at_output *o, int fd, const char *name, gt_error *err)
{
    memset(o, 0, sizeof *o);
    o->fd = fd;
    o->path = name;
    gt_error_clear(&o->err);
    o->ccap = 4 + snappy_max_compressed_length(AT_OUTPUT_CHUNK);
    o->buf = malloc(AT_OUTPUT_CHUNK);
    o->cbuf = malloc(o->ccap);
    if (!o->buf || !o->cbuf) {
        free(o->buf);
        free(o->cbuf);
        close(fd);
        gt_error_set(err, "%s: out of memory", name);
        return 0;
    }
    static const uint8_t magic[2] = {'a', 't'};
    if (!write_all(o, magic, 2)) {
        gt_error_set(err, "%s", o->err.msg);
        at_output_close(o);
        return 0;
    }
    return 1;
}

int at_output_open(at_output *o, const char *path, gt_error *err)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
        gt_error_set(err, "%s: cannot create: %s", path, strerror(errno));
        return 0;
    }
    return at_output_open_fd(o, fd, path, err);
}

/* A Snappy block of one literal: the length as a varint, the literal tag with a
 * 4-byte length, the bytes. Valid for every Snappy decoder, and made without the
 * library, which allocates working memory: a signal handler may have interrupted
 * malloc itself. Returns the block's length. */
static size_t literal_block(uint8_t *dst, const uint8_t *src, size_t n)
{
    size_t k = 0;
    for (size_t v = n; ; v >>= 7) {
        dst[k++] = (uint8_t)(v < 0x80 ? v : (v & 0x7f) | 0x80);
        if (v < 0x80)
            break;
    }
    dst[k++] = 63 << 2; /* literal, length - 1 in the next 4 bytes */
    for (int i = 0; i < 4; i++)
        dst[k++] = (uint8_t)((n - 1) >> (8 * i));
    memcpy(dst + k, src, n);
    return k + n;
}

static int flush_chunk(at_output *o, int compress)
{
    if (o->len == 0 || o->failed) {
        o->len = 0;
        return !o->failed;
    }
    size_t clen = o->ccap - 4;
    if (!compress) {
        clen = literal_block(o->cbuf + 4, o->buf, o->len);
    } else if (snappy_compress((const char *)o->buf, o->len, (char *)o->cbuf + 4, &clen) != SNAPPY_OK) {
        gt_error_set(&o->err, "%s: Snappy compression failed", o->path);
        o->failed = 1;
        o->len = 0;
        return 0;
    }
    o->cbuf[0] = (uint8_t)clen;
    o->cbuf[1] = (uint8_t)(clen >> 8);
    o->cbuf[2] = (uint8_t)(clen >> 16);
    o->cbuf[3] = (uint8_t)(clen >> 24);
    o->stream_bytes += o->len;
    o->len = 0;
    return write_all(o, o->cbuf, clen + 4);
}

int at_output_flush(at_output *o) { return flush_chunk(o, 1); }

int at_output_flush_uncompressed(at_output *o) { return flush_chunk(o, 0); }

void at_output_write_slow(at_output *o, const void *p, size_t n)
{
    const uint8_t *s = p;
    while (n) {
        if (o->len == AT_OUTPUT_CHUNK)
            at_output_flush(o);
        size_t k = AT_OUTPUT_CHUNK - o->len;
        if (k > n)
            k = n;
        memcpy(o->buf + o->len, s, k);
        o->len += k;
        s += k;
        n -= k;
    }
}

int at_output_close(at_output *o)
{
    at_output_flush(o);
    if (o->fd >= 0 && close(o->fd) != 0 && !o->failed) {
        gt_error_set(&o->err, "%s: close failed: %s", o->path, strerror(errno));
        o->failed = 1;
    }
    o->fd = -1;
    free(o->buf);
    free(o->cbuf);
    o->buf = o->cbuf = NULL;
    return !o->failed;
}
