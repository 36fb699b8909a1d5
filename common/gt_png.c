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

static int write_chunk(FILE *f, const char type[4], const uint8_t *data, uint32_t len)
{
    uint8_t head[8], tail[4];
    put_be32(head, len);
    memcpy(head + 4, type, 4);
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32(crc, (const Bytef *)type, 4);
    if (len)
        crc = crc32(crc, data, len);
    put_be32(tail, (uint32_t)crc);
    if (fwrite(head, 1, 8, f) != 8)
        return 0;
    if (len && fwrite(data, 1, len, f) != len)
        return 0;
    return fwrite(tail, 1, 4, f) == 4;
}

int gt_png_write(const char *path, const uint8_t *pixels, unsigned width, unsigned height,
                 unsigned channels, size_t stride, bool bottom_up, gt_error *err)
{
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if ((channels != 3 && channels != 4) || width == 0 || height == 0 ||
        width > 0x7fffffffu / 4 || height > 0x7fffffffu) {
        gt_error_set(err, "%s: bad image shape %ux%u with %u channels", path, width, height, channels);
        return -1;
    }
    size_t line = (size_t)width * channels;
    if ((line + 1) > (size_t)0xffffffffu / height) {
        gt_error_set(err, "%s: image too large (%ux%u)", path, width, height);
        return -1;
    }
    size_t raw_len = (line + 1) * height;
    uint8_t *raw = malloc(raw_len);
    uLongf z_len = compressBound((uLong)raw_len);
    uint8_t *z = malloc(z_len);
    int ok = 0;
    FILE *f = NULL;
    gt_outfile out; /* a temporary file beside path, renamed over it once whole */
    bool began = false;
    if (!raw || !z) {
        gt_error_set(err, "%s: out of memory", path);
        goto out;
    }
    for (unsigned y = 0; y < height; y++) {
        unsigned src = bottom_up ? height - 1 - y : y;
        raw[y * (line + 1)] = 0; /* filter type None */
        memcpy(raw + y * (line + 1) + 1, pixels + (size_t)src * stride, line);
    }
    if (compress2(z, &z_len, raw, (uLong)raw_len, 6) != Z_OK) {
        gt_error_set(err, "%s: zlib compress2 failed", path);
        goto out;
    }
    uint8_t ihdr[13];
    put_be32(ihdr, width);
    put_be32(ihdr + 4, height);
    ihdr[8] = 8;                        /* bit depth */
    ihdr[9] = channels == 4 ? 6 : 2;    /* colour type: 2 = RGB, 6 = RGBA */
    ihdr[10] = ihdr[11] = ihdr[12] = 0; /* deflate, adaptive filtering, no interlace */
    if (gt_outfile_begin(&out, path, NULL, 0, err) != 0)
        goto out;
    began = true;
    f = fopen(out.path, "wb");
    if (!f) {
        gt_error_set(err, "%s: cannot open for writing: %s", path, strerror(errno));
        goto out;
    }
    if (fwrite(signature, 1, 8, f) != 8 || !write_chunk(f, "IHDR", ihdr, 13) ||
        !write_chunk(f, "IDAT", z, (uint32_t)z_len) || !write_chunk(f, "IEND", NULL, 0)) {
        gt_error_set(err, "%s: write failed: %s", path, strerror(errno));
        goto out;
    }
    ok = 1;
out:
    if (f && fclose(f) != 0 && ok) {
        gt_error_set(err, "%s: write failed: %s", path, strerror(errno));
        ok = 0;
    }
    if (began && ok)
        ok = gt_outfile_commit(&out, err) == 0;
    else if (began)
        gt_outfile_abort(&out);
    free(raw);
    free(z);
    return ok ? 0 : -1;
}
