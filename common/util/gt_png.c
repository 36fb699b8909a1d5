/* PNG encoder; see gt_png.h.
 * Layout: 8-byte signature, IHDR, one IDAT (zlib stream of filter-0 scanlines), IEND.
 * Every chunk is length (big endian) + type + data + CRC-32 over type and data. */
#include "gt_png.h"
#include "gt_outfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static void put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static void put_chunk(gt_strbuf *b, const char type[4], const uint8_t *data, uint32_t len)
{
    uint8_t head[8], tail[4];
    put_be32(head, len);
    memcpy(head + 4, type, 4);
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32(crc, (const Bytef *)type, 4);
    if (len)
        crc = crc32(crc, data, len);
    put_be32(tail, (uint32_t)crc);
    gt_strbuf_put(b, (const char *)head, 8);
    gt_strbuf_put(b, (const char *)data, len);
    gt_strbuf_put(b, (const char *)tail, 4);
}

int gt_png_encode(gt_strbuf *out, const uint8_t *pixels, unsigned width, unsigned height,
                  unsigned channels, size_t stride, bool bottom_up, gt_error *err)
{
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if ((channels != 1 && channels != 3 && channels != 4) || width == 0 || height == 0 ||
        width > 0x7fffffffu / 4 || height > 0x7fffffffu) {
        gt_error_set(err, "bad image shape %ux%u with %u channels", width, height, channels);
        return -1;
    }
    size_t line = (size_t)width * channels;
    if ((line + 1) > (size_t)0xffffffffu / height) {
        gt_error_set(err, "image too large (%ux%u)", width, height);
        return -1;
    }
    size_t raw_len = (line + 1) * height;
    uint8_t *raw = malloc(raw_len);
    uLongf z_len = compressBound((uLong)raw_len);
    uint8_t *z = malloc(z_len);
    int rc = -1;
    if (!raw || !z) {
        gt_error_set(err, "out of memory for a %ux%u image", width, height);
        goto out;
    }
    for (unsigned y = 0; y < height; y++) {
        unsigned src = bottom_up ? height - 1 - y : y;
        raw[y * (line + 1)] = 0; /* filter type None */
        memcpy(raw + y * (line + 1) + 1, pixels + (size_t)src * stride, line);
    }
    if (compress2(z, &z_len, raw, (uLong)raw_len, 6) != Z_OK) {
        gt_error_set(err, "zlib compress2 failed");
        goto out;
    }
    uint8_t ihdr[13];
    put_be32(ihdr, width);
    put_be32(ihdr + 4, height);
    ihdr[8] = 8; /* bit depth */
    ihdr[9] = channels == 4 ? 6 : channels == 3 ? 2 : 0; /* RGBA, RGB, grey */
    ihdr[10] = ihdr[11] = ihdr[12] = 0; /* deflate, adaptive filtering, no interlace */
    gt_strbuf_put(out, (const char *)signature, 8);
    put_chunk(out, "IHDR", ihdr, 13);
    put_chunk(out, "IDAT", z, (uint32_t)z_len);
    put_chunk(out, "IEND", NULL, 0);
    if (out->oom)
        gt_error_set(err, "out of memory for a %ux%u image", width, height);
    else
        rc = 0;
out:
    free(raw);
    free(z);
    return rc;
}

void gt_png_rgba_to_rgb(uint8_t *px, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        px[3 * i] = px[4 * i];
        px[3 * i + 1] = px[4 * i + 1];
        px[3 * i + 2] = px[4 * i + 2];
    }
}

static int png_write(const char *path, const uint8_t *pixels, unsigned width, unsigned height,
                     unsigned channels, size_t stride, bool bottom_up, bool name, gt_error *err)
{
    gt_strbuf png;
    gt_strbuf_init(&png);
    gt_error why;
    gt_error_clear(&why);
    if (gt_png_encode(&png, pixels, width, height, channels, stride, bottom_up, &why) != 0) {
        gt_error_set(err, "%s: %s", path, why.msg);
        gt_strbuf_free(&png);
        return -1;
    }
    int ok = 0;
    FILE *f = NULL;
    gt_outfile out; /* a temporary file beside path, renamed over it once whole */
    int begun = name ? gt_outfile_begin_name(&out, path, err)
                     : gt_outfile_begin(&out, path, NULL, 0, err);
    if (begun != 0) {
        gt_strbuf_free(&png);
        return -1;
    }
    f = gt_outfile_open(&out);
    if (!f)
        gt_error_set(err, "%s: cannot open for writing: %s", path, strerror(errno));
    else if (fwrite(png.data, 1, png.len, f) != png.len)
        gt_error_set(err, "%s: write failed: %s", path, strerror(errno));
    else
        ok = 1;
    if (f && fclose(f) != 0 && ok) {
        gt_error_set(err, "%s: write failed: %s", path, strerror(errno));
        ok = 0;
    }
    if (ok)
        ok = gt_outfile_commit(&out, err) == 0;
    else
        gt_outfile_abort(&out);
    gt_strbuf_free(&png);
    return ok ? 0 : -1;
}

int gt_png_write(const char *path, const uint8_t *pixels, unsigned width, unsigned height,
                 unsigned channels, size_t stride, bool bottom_up, gt_error *err)
{
    return png_write(path, pixels, width, height, channels, stride, bottom_up, false, err);
}

int gt_png_write_name(const char *path, const uint8_t *pixels, unsigned width, unsigned height,
                      unsigned channels, size_t stride, bool bottom_up, gt_error *err)
{
    return png_write(path, pixels, width, height, channels, stride, bottom_up, true, err);
}
