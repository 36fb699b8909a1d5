/* The Chrome reader's input window (chrome_source.h). */
#include "chrome_source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chrome_reader.h"

size_t cr_source_chunk = 256u << 10;

static bool is_gzip(const uint8_t *p, size_t n) { return n >= 2 && p[0] == 0x1f && p[1] == 0x8b; }

static int fail(cr_source *s, const char *what)
{
    s->failed = true;
    gt_error_set(s->err, "%s: %s", s->name, what);
    return -1;
}

/* gzip errors name the compressed offset reached, as other readers' errors do. */
static int gz_fail(cr_source *s, const char *what)
{
    s->failed = true;
    gt_error_at(s->err, s->name, s->zfed - s->z.avail_in, "%s", what);
    return -1;
}

static void gz_limit(cr_source *s, uint64_t size)
{
    s->limit = size && size < GT_CHROME_MAX_INFLATED / 1000 ? size * 1000 + 65536 : GT_CHROME_MAX_INFLATED;
}

static int gz_start(cr_source *s)
{
    if (inflateInit2(&s->z, 15 + 16) != Z_OK)
        return fail(s, "cannot start gzip decompression");
    s->gz = true;
    return 0;
}

int cr_source_mem(cr_source *s, const uint8_t *data, size_t size, const char *name, gt_error *err)
{
    memset(s, 0, sizeof *s);
    s->name = name;
    s->err = err;
    if (!is_gzip(data, size)) {
        s->buf = (char *)data; /* read in place; never written */
        s->len = s->cap = size;
        s->eof = true;
        return 0;
    }
    s->owned = true;
    s->mem = data;
    s->memlen = size;
    s->z.next_in = (Bytef *)data;
    s->z.avail_in = size > UINT32_MAX ? UINT32_MAX : (uInt)size;
    s->zfed = s->z.avail_in;
    gz_limit(s, size);
    return gz_start(s);
}

int cr_source_file(cr_source *s, FILE *f, uint64_t size_hint, const char *name, gt_error *err)
{
    memset(s, 0, sizeof *s);
    s->name = name;
    s->err = err;
    s->f = f;
    s->owned = true;
    s->zin_cap = cr_source_chunk > 2 ? cr_source_chunk : 2;
    s->zin = malloc(s->zin_cap);
    if (!s->zin)
        return fail(s, "out of memory");
    size_t n = fread(s->zin, 1, 2, f);
    if (ferror(f))
        return fail(s, "read error");
    s->z.next_in = s->zin;
    s->z.avail_in = (uInt)n;
    s->zfed = n;
    if (!is_gzip(s->zin, n))
        return 0; /* plain: the bytes read go to the window on the first more() */
    gz_limit(s, size_hint);
    return gz_start(s);
}

/* Room for at least one chunk after len. */
static int room(cr_source *s)
{
    size_t chunk = cr_source_chunk ? cr_source_chunk : 1;
    if (s->cap - s->len >= chunk)
        return 0;
    /* not gt_grow: the value limit is checked between the doubling and the realloc, and
     * their failures have messages of their own */
    size_t cap = s->cap ? s->cap : chunk < 16 ? 16 : chunk;
    while (cap - s->len < chunk) {
        if (cap > SIZE_MAX / 2)
            return fail(s, "out of memory");
        cap *= 2;
    }
    if (s->len > GT_CHROME_MAX_VALUE) { /* the window holds one value and what follows it */
        char msg[96];
        snprintf(msg, sizeof msg, "offset %llu: one JSON value larger than %u MiB",
                 (unsigned long long)s->base, GT_CHROME_MAX_VALUE >> 20);
        return fail(s, msg);
    }
    char *b = realloc(s->buf, cap);
    if (!b)
        return fail(s, "out of memory: one JSON value too large to hold");
    s->buf = b;
    s->cap = cap;
    return 0;
}

/* Compressed bytes for inflate: 0, or 1 when the input has ended. */
static int feed(cr_source *s)
{
    if (s->z.avail_in)
        return 0;
    if (!s->f) {
        size_t used = (size_t)((const uint8_t *)s->z.next_in - s->mem), left = s->memlen - used;
        s->z.avail_in = left > UINT32_MAX ? UINT32_MAX : (uInt)left;
        s->zfed += s->z.avail_in;
        return left == 0;
    }
    size_t n = fread(s->zin, 1, s->zin_cap, s->f);
    if (ferror(s->f))
        return gz_fail(s, "read error");
    s->z.next_in = s->zin;
    s->z.avail_in = (uInt)n;
    s->zfed += n;
    return n == 0;
}

/* At a gzip member's end: another member, or the end (trailing bytes ignored). */
static int member_end(cr_source *s)
{
    int r = feed(s);
    if (r < 0)
        return -1;
    if (r == 0 && s->z.avail_in >= 2 && is_gzip(s->z.next_in, s->z.avail_in) && inflateReset(&s->z) == Z_OK)
        return 1;
    s->eof = true;
    return 0;
}

static int more_gz(cr_source *s)
{
    for (;;) {
        int ended = feed(s);
        if (ended < 0)
            return -1;
        size_t want = s->cap - s->len;
        if (want > cr_source_chunk)
            want = cr_source_chunk ? cr_source_chunk : 1;
        s->z.next_out = (Bytef *)s->buf + s->len;
        s->z.avail_out = (uInt)want;
        int zr = inflate(&s->z, Z_NO_FLUSH);
        size_t got = want - s->z.avail_out;
        s->len += got;
        s->inflated += got;
        uint64_t used = s->zfed - s->z.avail_in;
        if (s->inflated > s->limit) {
            char msg[96];
            snprintf(msg, sizeof msg, "gzip data inflates beyond %llu bytes", (unsigned long long)s->limit);
            return gz_fail(s, msg);
        }
        if (s->inflated > GT_CHROME_RATIO_SLACK && s->inflated / GT_CHROME_MAX_RATIO > used) {
            char msg[128];
            snprintf(msg, sizeof msg, "gzip data inflates more than %u times (%llu bytes from %llu): "
                     "a decompression bomb?", GT_CHROME_MAX_RATIO, (unsigned long long)s->inflated,
                     (unsigned long long)used);
            return gz_fail(s, msg);
        }
        if (zr == Z_STREAM_END) {
            int m = member_end(s);
            if (m < 0)
                return -1;
            if (m == 0)
                return got > 0;
            if (got)
                return 1;
            continue;
        }
        if (zr != Z_OK && zr != Z_BUF_ERROR)
            return gz_fail(s, "gzip data corrupt");
        if (got)
            return 1;
        if (ended)
            return gz_fail(s, "gzip data cut short");
    }
}

int cr_source_more(cr_source *s)
{
    if (s->failed)
        return -1;
    if (s->eof)
        return 0;
    if (room(s) != 0)
        return -1;
    if (s->gz)
        return more_gz(s);
    /* plain file: first the bytes read to look for gzip magic */
    size_t n = s->z.avail_in;
    memcpy(s->buf + s->len, s->z.next_in, n);
    s->z.avail_in = 0;
    size_t want = s->cap - s->len - n;
    n += fread(s->buf + s->len + n, 1, want < cr_source_chunk ? want : cr_source_chunk, s->f);
    if (ferror(s->f))
        return fail(s, "read error");
    s->len += n;
    if (n == 0)
        s->eof = true;
    return n > 0;
}

size_t cr_source_drop(cr_source *s, size_t n)
{
    if (!s->owned || n == 0)
        return 0; /* memory input stays whole: nothing to gain */
    memmove(s->buf, s->buf + n, s->len - n);
    s->len -= n;
    s->base += n;
    return n;
}

void cr_source_close(cr_source *s)
{
    if (s->gz)
        inflateEnd(&s->z);
    if (s->owned)
        free(s->buf);
    free(s->zin);
    memset(s, 0, sizeof *s);
}
