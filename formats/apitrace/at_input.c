/* Opening a trace: map the file, detect the container, hand over to its reader. */
#include "at_input.h"

#include "gt_input.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static at_input *input_new(const char *name)
{
    at_input *in = calloc(1, sizeof *in);
    if (!in)
        return NULL;
    in->path = name;
    in->status = AT_INPUT_OK;
    gt_error_clear(&in->err);
    return in;
}

static int no_more(at_input *in)
{
    (void)in;
    return 0;
}

/* A file too short to show its container but the start of every trace (empty)
 * or of one container's magic: a trace cut before its first byte of data, read
 * as apitrace reads it (an empty trace; the reader warns). apitrace calls an
 * empty file Brotli, its fallback; so do we. */
static int cut_before_data(at_input *in, const char *container)
{
    in->container = container;
    in->refill = no_more;
    in->status = in->src_size ? AT_INPUT_TRUNCATED : AT_INPUT_END;
    in->src_pos = in->src_size;
    return 1;
}

static int detect(at_input *in, gt_error *err)
{
    const uint8_t *m = in->src;
    size_t n = in->src_size;
    int ok;
    if (n == 0)
        return cut_before_data(in, "brotli");
    if (n == 1 && (m[0] == 'a' || m[0] == 0x1f))
        return cut_before_data(in, m[0] == 'a' ? "snappy" : "zlib");
    if (n >= 2 && m[0] == 'a' && m[1] == 't')
        ok = at_input_snappy_init(in);
    else if (n >= 2 && m[0] == 0x1f && m[1] == 0x8b)
        ok = at_input_zlib_init(in);
    else if (n >= 4 && m[0] == 0x28 && m[1] == 0xb5 && m[2] == 0x2f && m[3] == 0xfd) {
        gt_error_at(err, in->path, 0,
                    "Zstandard-compressed trace: not supported; "
                    "convert it with `apitrace repack` (Snappy is the default)");
        return 0;
    } else
        ok = at_input_brotli_init(in); /* Brotli streams carry no magic */
    if (!ok) {
        gt_error_set(err, "%s", in->err.msg);
        return 0;
    }
    return 1;
}

at_input *at_input_open_mem(const void *data, size_t size, const char *name, gt_error *err)
{
    at_input *in = input_new(name);
    if (!in) {
        gt_error_set(err, "%s: out of memory", name);
        return NULL;
    }
    in->src = data;
    in->src_size = size;
    if (!detect(in, err)) {
        at_input_close(in);
        return NULL;
    }
    return in;
}

at_input *at_input_open(const char *path, gt_error *err)
{
    uint64_t size;
    int fd = gt_input_open(path, &size, err);
    if (fd < 0)
        return NULL;
    if (size > SIZE_MAX) {
        gt_error_set(err, "%s: too large to map", path);
        close(fd);
        return NULL;
    }
    at_input *in = input_new(path);
    if (!in) {
        close(fd);
        gt_error_set(err, "%s: out of memory", path);
        return NULL;
    }
    in->src_size = (size_t)size;
    if (in->src_size > 0) {
        void *m = mmap(NULL, in->src_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED) {
            gt_error_set(err, "%s: cannot map: %s", path, strerror(errno));
            close(fd);
            free(in);
            return NULL;
        }
        madvise(m, in->src_size, MADV_SEQUENTIAL);
        in->src = m;
        in->src_mapped = 1;
    }
    close(fd);
    if (!detect(in, err)) {
        at_input_close(in);
        return NULL;
    }
    return in;
}

int at_input_seek_chunk(at_input *in, uint64_t file_pos, uint64_t stream_off, uint64_t skip)
{
    if (!in->seek) {
        gt_error_at(&in->err, in->path, file_pos, "cannot seek in a %s container", in->container);
        return 0;
    }
    return in->seek(in, file_pos, stream_off, skip);
}

void at_input_init_raw(at_input *in, const uint8_t *p, size_t n, uint64_t off, const char *name)
{
    memset(in, 0, sizeof *in);
    in->cur = in->block = p;
    in->end = p + n;
    in->block_offset = off;
    in->status = AT_INPUT_END; /* all there is: the parser bounds lengths by it */
    in->container = "raw";
    in->path = name;
    in->refill = no_more;
    gt_error_clear(&in->err);
}

void at_input_close(at_input *in)
{
    if (!in)
        return;
    if (in->close)
        in->close(in);
    if (in->src_mapped)
        munmap((void *)in->src, in->src_size);
    free(in);
}
