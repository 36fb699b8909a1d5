/* The compression algorithms trace-cmd writes (lib/trace-cmd/trace-compress-*.c):
 * "zlib" blocks are zlib streams (compress2), "zstd" blocks are zstd frames. */
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "tc_internal.h"

int tc_comp_from_name(const char *name, size_t n)
{
    if (n == 4 && memcmp(name, "none", 4) == 0)
        return TC_COMP_NONE;
    if (n == 4 && memcmp(name, "zlib", 4) == 0)
        return TC_COMP_ZLIB;
    if (n == 4 && memcmp(name, "zstd", 4) == 0)
        return TC_COMP_ZSTD;
    return -1;
}

static int inflate_zlib(const uint8_t *src, size_t n, uint8_t *dst, size_t cap, size_t *out,
                        const char **why)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK)
        return *why = "zlib: out of memory", -1;
    z.next_in = (Bytef *)(uintptr_t)src;
    z.avail_in = (uInt)n;
    z.next_out = dst;
    z.avail_out = (uInt)cap;
    int rc = inflate(&z, Z_FINISH);
    *out = cap - z.avail_out;
    inflateEnd(&z);
    if (rc != Z_STREAM_END) {
        bool small = rc == Z_BUF_ERROR && !z.avail_out;
        *why = small ? "zlib: data larger than declared" : "zlib: corrupt data";
        return -1;
    }
    return 0;
}

int tc_decompress(int algo, const uint8_t *src, size_t n, uint8_t *dst, size_t cap, size_t *out,
                  const char **why)
{
    *out = 0;
    if (n > UINT32_MAX || cap > UINT32_MAX)
        return *why = "compressed block too large", -1;
    if (algo == TC_COMP_ZLIB)
        return inflate_zlib(src, n, dst, cap, out, why);
    if (algo == TC_COMP_ZSTD) {
        size_t r = ZSTD_decompress(dst, cap, src, n);
        if (ZSTD_isError(r)) {
            bool small = ZSTD_getErrorCode(r) == ZSTD_error_dstSize_tooSmall;
            *why = small ? "zstd: data larger than declared" : "zstd: corrupt data";
            return -1;
        }
        *out = r;
        return 0;
    }
    return *why = "unknown compression", -1;
}
