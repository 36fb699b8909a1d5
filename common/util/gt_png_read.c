/* PNG decoder for gt_png_read (gt_png.h): what snapshot tools write. Chunks are checked
 * (lengths against the file, CRCs), IDAT is inflated into exactly the bytes IHDR's
 * shape needs, and every error names the file and byte offset. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "gt_input.h"
#include "gt_png.h"

#define MAX_FILE ((uint64_t)256 << 20)
#define MAX_PIXELS ((uint64_t)1 << 28)

typedef struct png_in {
    const char *path;
    const uint8_t *d;
    size_t n;
    uint32_t w, h;
    uint8_t depth, type;
    uint8_t palette[256][4];
    unsigned npalette;
    bool trns; /* palette alpha given */
    z_stream z;
    bool z_on;
    uint8_t *raw; /* filtered scanlines: h * (1 + w * bpp) */
    size_t raw_len, raw_got;
} png_in;

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static unsigned channels_of(uint8_t type)
{
    switch (type) {
    case 0: return 1; /* grey */
    case 2: return 3; /* RGB */
    case 3: return 1; /* palette index */
    case 4: return 2; /* grey + alpha */
    case 6: return 4; /* RGBA */
    default: return 0;
    }
}

static int read_ihdr(png_in *p, const uint8_t *c, uint32_t len, size_t at, gt_error *err)
{
    if (len != 13) {
        gt_error_set(err, "%s: offset %zu: IHDR of %u bytes, expected 13", p->path, at, len);
        return -1;
    }
    p->w = be32(c);
    p->h = be32(c + 4);
    p->depth = c[8];
    p->type = c[9];
    if (!p->w || !p->h || (uint64_t)p->w * p->h > MAX_PIXELS) {
        gt_error_set(err, "%s: offset %zu: image of %ux%u pixels (at most %llu)", p->path, at,
                     p->w, p->h, (unsigned long long)MAX_PIXELS);
        return -1;
    }
    if (p->depth != 8 || !channels_of(p->type) || c[10] || c[11] || c[12]) {
        gt_error_set(err, "%s: offset %zu: unsupported PNG (depth %u, colour type %u, "
                          "interlace %u): 8-bit, not interlaced is read", p->path, at, p->depth,
                     p->type, c[12]);
        return -1;
    }
    p->raw_len = (size_t)p->h * (1 + (size_t)p->w * channels_of(p->type));
    p->raw = malloc(p->raw_len);
    if (!p->raw || inflateInit(&p->z) != Z_OK) {
        gt_error_set(err, "%s: out of memory for %ux%u pixels", p->path, p->w, p->h);
        return -1;
    }
    p->z_on = true;
    return 0;
}

static int read_idat(png_in *p, const uint8_t *c, uint32_t len, size_t at, gt_error *err)
{
    if (!p->raw) {
        gt_error_set(err, "%s: offset %zu: IDAT before IHDR", p->path, at);
        return -1;
    }
    p->z.next_in = (Bytef *)c;
    p->z.avail_in = len;
    while (p->z.avail_in && p->raw_got < p->raw_len) {
        p->z.next_out = p->raw + p->raw_got;
        p->z.avail_out = (uInt)(p->raw_len - p->raw_got);
        int r = inflate(&p->z, Z_NO_FLUSH);
        p->raw_got = p->raw_len - p->z.avail_out;
        if (r == Z_STREAM_END)
            break;
        if (r != Z_OK) {
            gt_error_set(err, "%s: offset %zu: bad compressed image data (%s)", p->path, at,
                         p->z.msg ? p->z.msg : "zlib error");
            return -1;
        }
    }
    return 0;
}

static uint8_t paeth(uint8_t a, uint8_t b, uint8_t c)
{
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* Undoes the scanline filters in place. */
static int unfilter(png_in *p, gt_error *err)
{
    size_t bpp = channels_of(p->type), line = (size_t)p->w * bpp;
    for (uint32_t y = 0; y < p->h; ++y) {
        uint8_t *row = p->raw + (size_t)y * (line + 1), *cur = row + 1;
        const uint8_t *prev = y ? row - line : NULL; /* the previous row's bytes */
        for (size_t i = 0; i < line; ++i) {
            uint8_t a = i >= bpp ? cur[i - bpp] : 0, b = prev ? prev[i] : 0;
            uint8_t c = prev && i >= bpp ? prev[i - bpp] : 0;
            switch (row[0]) {
            case 0: break;
            case 1: cur[i] += a; break;
            case 2: cur[i] += b; break;
            case 3: cur[i] += (uint8_t)((a + b) / 2); break;
            case 4: cur[i] += paeth(a, b, c); break;
            default:
                gt_error_set(err, "%s: scanline %u has unknown filter type %u", p->path, y, row[0]);
                return -1;
            }
        }
    }
    return 0;
}

static void to_rgba(const png_in *p, uint8_t *out)
{
    size_t bpp = channels_of(p->type), line = (size_t)p->w * bpp;
    for (uint32_t y = 0; y < p->h; ++y) {
        const uint8_t *s = p->raw + (size_t)y * (line + 1) + 1;
        for (uint32_t x = 0; x < p->w; ++x, s += bpp, out += 4) {
            switch (p->type) {
            case 0: out[0] = out[1] = out[2] = s[0], out[3] = 255; break;
            case 2: memcpy(out, s, 3), out[3] = 255; break;
            case 3: memcpy(out, p->palette[s[0]], 4); break;
            case 4: out[0] = out[1] = out[2] = s[0], out[3] = s[1]; break;
            default: memcpy(out, s, 4); break;
            }
        }
    }
}

static int read_chunks(png_in *p, gt_error *err)
{
    size_t at = 8;
    bool end = false;
    while (!end) {
        if (p->n - at < 12) {
            gt_error_set(err, "%s: offset %zu: file ends inside a chunk (no IEND)", p->path, at);
            return -1;
        }
        uint32_t len = be32(p->d + at);
        const uint8_t *type = p->d + at + 4, *c = p->d + at + 8;
        if (len > p->n - at - 12) {
            gt_error_set(err, "%s: offset %zu: chunk of %u bytes goes past the end", p->path, at, len);
            return -1;
        }
        if ((uint32_t)crc32(crc32(0L, Z_NULL, 0), type, 4 + len) != be32(c + len)) {
            gt_error_set(err, "%s: offset %zu: chunk CRC mismatch", p->path, at);
            return -1;
        }
        int rc = 0;
        if (!memcmp(type, "IHDR", 4))
            rc = p->raw ? -1 : read_ihdr(p, c, len, at, err);
        else if (!memcmp(type, "IDAT", 4))
            rc = read_idat(p, c, len, at, err);
        else if (!memcmp(type, "PLTE", 4) && len % 3 == 0 && len <= 768) {
            for (p->npalette = 0; p->npalette < len / 3; ++p->npalette) {
                memcpy(p->palette[p->npalette], c + 3 * p->npalette, 3);
                p->palette[p->npalette][3] = 255;
            }
        } else if (!memcmp(type, "tRNS", 4) && p->type == 3) {
            for (uint32_t i = 0; i < len && i < 256; ++i)
                p->palette[i][3] = c[i];
            p->trns = true;
        } else if (!memcmp(type, "IEND", 4))
            end = true;
        if (rc != 0) {
            if (!err->set)
                gt_error_set(err, "%s: offset %zu: a second IHDR", p->path, at);
            return -1;
        }
        at += 12 + (size_t)len;
    }
    if (!p->raw || p->raw_got != p->raw_len) {
        gt_error_set(err, "%s: image data short: %zu of %zu bytes", p->path, p->raw_got, p->raw_len);
        return -1;
    }
    return 0;
}

int gt_png_decode(const uint8_t *data, size_t size, const char *name, gt_image *img, gt_error *err)
{
    memset(img, 0, sizeof *img);
    png_in p = {.path = name, .d = data, .n = size};
    int rc = -1;
    if (size < 8 || memcmp(data, "\x89PNG\r\n\x1a\n", 8))
        gt_error_set(err, "%s: offset 0: not a PNG file", name);
    else
        rc = read_chunks(&p, err);
    if (rc == 0)
        rc = unfilter(&p, err);
    if (rc == 0 && !(img->rgba = malloc((size_t)p.w * p.h * 4))) {
        gt_error_set(err, "%s: out of memory for %ux%u pixels", name, p.w, p.h);
        rc = -1;
    }
    if (rc == 0) {
        to_rgba(&p, img->rgba);
        img->width = p.w;
        img->height = p.h;
        img->has_alpha = p.type == 4 || p.type == 6 || (p.type == 3 && p.trns);
    }
    if (p.z_on)
        inflateEnd(&p.z);
    free(p.raw);
    return rc;
}

int gt_png_read(const char *path, gt_image *img, gt_error *err)
{
    memset(img, 0, sizeof *img);
    uint64_t size = 0;
    FILE *f = gt_input_fopen(path, &size, err);
    if (!f)
        return -1;
    uint8_t *data = size <= MAX_FILE ? malloc(size ? size : 1) : NULL;
    int rc = -1;
    if (!data)
        gt_error_set(err, "%s: %llu bytes: too large for an image", path, (unsigned long long)size);
    else if (fread(data, 1, size, f) != size)
        gt_error_set(err, "%s: read failed", path);
    else
        rc = gt_png_decode(data, (size_t)size, path, img, err);
    fclose(f);
    free(data);
    return rc;
}

void gt_image_free(gt_image *img)
{
    free(img->rgba);
    memset(img, 0, sizeof *img);
}
