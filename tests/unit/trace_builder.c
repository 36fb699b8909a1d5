#include "trace_builder.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <brotli/encode.h>
#include <snappy-c.h>
#include <zlib.h>

/* ---- raw stream bytes ---- */

void tb_init(tb_buf *b) { memset(b, 0, sizeof *b); }

void tb_free(tb_buf *b)
{
    free(b->data);
    tb_init(b);
}

void tb_bytes(tb_buf *b, const void *p, size_t n)
{
    if (b->cap - b->len < n) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap - b->len < n)
            cap *= 2;
        b->data = realloc(b->data, cap);
        assert_non_null(b->data);
        b->cap = cap;
    }
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
}

void tb_byte(tb_buf *b, uint8_t c) { tb_bytes(b, &c, 1); }

void tb_uint(tb_buf *b, uint64_t v)
{
    do {
        uint8_t c = v & 0x7f;
        v >>= 7;
        tb_byte(b, v ? (uint8_t)(c | 0x80) : c);
    } while (v);
}

void tb_sint(tb_buf *b, int64_t v)
{
    tb_byte(b, v < 0 ? AT_TYPE_SINT : AT_TYPE_UINT);
    tb_uint(b, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v);
}

void tb_str(tb_buf *b, const char *s)
{
    tb_uint(b, strlen(s));
    tb_bytes(b, s, strlen(s));
}

void tb_float(tb_buf *b, float f) { tb_bytes(b, &f, sizeof f); }
void tb_double(tb_buf *b, double d) { tb_bytes(b, &d, sizeof d); }

void tb_header(tb_buf *b, unsigned version)
{
    tb_uint(b, version);
    if (version >= 6) {
        tb_uint(b, version);
        tb_uint(b, 0); /* empty property name: end of properties */
    }
}

void tb_enter(tb_buf *b, unsigned version, uint32_t thread, uint32_t sig_id)
{
    tb_byte(b, AT_EVENT_ENTER);
    if (version >= 4)
        tb_uint(b, thread);
    tb_uint(b, sig_id);
}

void tb_func_sig(tb_buf *b, const char *name, unsigned nargs, const char *const *args)
{
    tb_str(b, name);
    tb_uint(b, nargs);
    for (unsigned i = 0; i < nargs; ++i)
        tb_str(b, args[i]);
}

void tb_leave(tb_buf *b, uint32_t call_no)
{
    tb_byte(b, AT_EVENT_LEAVE);
    tb_uint(b, call_no);
}

void tb_simple_call(tb_buf *b, uint32_t no, uint32_t sig_id, const char *name_if_first)
{
    tb_enter(b, 6, 0, sig_id);
    if (name_if_first)
        tb_func_sig(b, name_if_first, 0, NULL);
    tb_byte(b, AT_DETAIL_END);
    tb_leave(b, no);
    tb_byte(b, AT_DETAIL_END);
}

/* ---- containers ---- */

uint8_t *tb_snappy(const uint8_t *stream, size_t len, size_t chunk, size_t *out_len)
{
    tb_buf out;
    tb_init(&out);
    tb_bytes(&out, "at", 2);
    size_t cmax = snappy_max_compressed_length(chunk);
    char *tmp = malloc(cmax);
    assert_non_null(tmp);
    for (size_t pos = 0; pos < len; pos += chunk) {
        size_t n = len - pos < chunk ? len - pos : chunk, clen = cmax;
        assert_int_equal(snappy_compress((const char *)stream + pos, n, tmp, &clen), SNAPPY_OK);
        uint8_t hdr[4] = {(uint8_t)clen, (uint8_t)(clen >> 8), (uint8_t)(clen >> 16),
                          (uint8_t)(clen >> 24)};
        tb_bytes(&out, hdr, 4);
        tb_bytes(&out, tmp, clen);
    }
    free(tmp);
    *out_len = out.len;
    return out.data;
}

uint8_t *tb_gzip(const uint8_t *stream, size_t len, size_t *out_len)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    assert_int_equal(deflateInit2(&zs, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY), Z_OK);
    size_t cap = deflateBound(&zs, (uLong)len) + 64;
    uint8_t *out = malloc(cap);
    assert_non_null(out);
    zs.next_in = (Bytef *)stream;
    zs.avail_in = (uInt)len;
    zs.next_out = out;
    zs.avail_out = (uInt)cap;
    assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
    *out_len = zs.total_out;
    deflateEnd(&zs);
    return out;
}

uint8_t *tb_brotli(const uint8_t *stream, size_t len, size_t *out_len)
{
    size_t cap = BrotliEncoderMaxCompressedSize(len);
    if (cap == 0)
        cap = len + 1024;
    uint8_t *out = malloc(cap);
    assert_non_null(out);
    *out_len = cap;
    assert_true(BrotliEncoderCompress(5, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, len, stream,
                                      out_len, out));
    return out;
}

uint8_t *tb_unsnappy(const uint8_t *file, size_t len, size_t *out_len, unsigned *nchunks,
                     size_t *max_chunk)
{
    assert_true(len >= 2 && file[0] == 'a' && file[1] == 't');
    tb_buf out;
    tb_init(&out);
    unsigned n = 0;
    size_t biggest = 0;
    for (size_t pos = 2; pos < len;) {
        assert_true(len - pos >= 4);
        size_t clen = (size_t)file[pos] | (size_t)file[pos + 1] << 8 |
                      (size_t)file[pos + 2] << 16 | (size_t)file[pos + 3] << 24;
        pos += 4;
        assert_true(clen <= len - pos);
        size_t ulen;
        assert_int_equal(snappy_uncompressed_length((const char *)file + pos, clen, &ulen),
                         SNAPPY_OK);
        char *tmp = malloc(ulen ? ulen : 1);
        assert_non_null(tmp);
        assert_int_equal(snappy_uncompress((const char *)file + pos, clen, tmp, &ulen), SNAPPY_OK);
        tb_bytes(&out, tmp, ulen);
        free(tmp);
        biggest = ulen > biggest ? ulen : biggest;
        pos += clen;
        n++;
    }
    if (nchunks)
        *nchunks = n;
    if (max_chunk)
        *max_chunk = biggest;
    *out_len = out.len;
    return out.data;
}

/* ---- files ---- */

char *tb_temp_path(void)
{
    const char *dir = getenv("TMPDIR");
    char tmpl[512];
    snprintf(tmpl, sizeof tmpl, "%s/gltrace_unit_XXXXXX", dir && dir[0] ? dir : "/tmp");
    int fd = mkstemp(tmpl);
    assert_true(fd >= 0);
    close(fd);
    char *p = strdup(tmpl);
    assert_non_null(p);
    return p;
}

void tb_write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

uint8_t *tb_read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    tb_buf b;
    tb_init(&b);
    uint8_t tmp[65536];
    size_t k;
    while ((k = fread(tmp, 1, sizeof tmp, f)) > 0)
        tb_bytes(&b, tmp, k);
    fclose(f);
    *n = b.len;
    return b.data;
}

/* ---- reading ---- */

at_reader *tb_open_mem(const void *data, size_t n, bool skip_blobs, gt_error *err)
{
    at_reader_options opt = {.skip_blob_data = skip_blobs};
    gt_error_clear(err);
    at_input *in = at_input_open_mem(data, n, "mem.trace", err);
    return in ? at_reader_open_input(in, &opt, err) : NULL;
}

at_reader *tb_open_stream(const tb_buf *stream, uint8_t **file, gt_error *err)
{
    size_t n;
    *file = tb_snappy(stream->data, stream->len, 1u << 20, &n);
    return tb_open_mem(*file, n, false, err);
}

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

char *tb_dump_all(at_reader *r, char **error, char **warning)
{
    at_dump_options o;
    at_dump_default_options(&o);
    o.thread_ids = true;
    o.multiline = false;
    gt_strbuf b;
    gt_strbuf_init(&b);
    gt_call *c;
    while ((c = at_reader_next(r))) {
        at_dump_call(&b, c, &o);
        gt_strbuf_putc(&b, '\n');
        at_reader_release(r, c);
    }
    gt_strbuf_putc(&b, '\0');
    assert_false(b.oom);
    if (error)
        *error = dup_or_null(at_reader_error(r));
    if (warning)
        *warning = dup_or_null(at_reader_warning(r));
    return b.data;
}

/* ---- text and values ---- */

char *tb_dump_value(const gt_value *v, bool multiline)
{
    at_dump_options o;
    at_dump_default_options(&o);
    o.multiline = multiline;
    gt_strbuf b;
    gt_strbuf_init(&b);
    at_dump_value(&b, v, &o);
    gt_strbuf_putc(&b, '\0');
    assert_false(b.oom);
    return b.data;
}

char *tb_dump_call(const gt_call *c, const at_dump_options *o)
{
    gt_strbuf b;
    gt_strbuf_init(&b);
    at_dump_call(&b, c, o);
    gt_strbuf_putc(&b, '\0');
    assert_false(b.oom);
    return b.data;
}

bool tb_contains(const char *haystack, const char *needle)
{
    return haystack && strstr(haystack, needle) != NULL;
}

static bool differ(const char *what)
{
    print_error("values differ: %s\n", what);
    return false;
}

static bool str_eq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

bool tb_value_equal(const gt_value *a, const gt_value *b)
{
    if (a->kind != b->kind)
        return differ("kind");
    switch (a->kind) {
    case GT_ABSENT:
    case GT_NULL: return true;
    case GT_BOOL: return a->b == b->b || differ("bool");
    case GT_SINT: return a->i == b->i || differ("sint");
    case GT_UINT:
    case GT_POINTER: return a->u == b->u || differ("uint/pointer");
    case GT_FLOAT: return memcmp(&a->f, &b->f, sizeof a->f) == 0 || differ("float bits");
    case GT_DOUBLE: return memcmp(&a->d, &b->d, sizeof a->d) == 0 || differ("double bits");
    case GT_STRING:
        if (a->str.len != b->str.len || memcmp(a->str.s, b->str.s, a->str.len) != 0)
            return differ("string bytes");
        return b->str.s[b->str.len] == '\0' || differ("string not NUL-terminated");
    case GT_WSTRING:
        return (a->wstr.len == b->wstr.len &&
                (a->wstr.len == 0 ||
                 memcmp(a->wstr.w, b->wstr.w, a->wstr.len * sizeof *a->wstr.w) == 0)) ||
               differ("wide string");
    case GT_BLOB:
        if (a->blob.size != b->blob.size)
            return differ("blob size");
        if (!a->blob.data || !b->blob.data)
            return (a->blob.data == b->blob.data) || differ("blob data presence");
        return a->blob.size == 0 || memcmp(a->blob.data, b->blob.data, a->blob.size) == 0 ||
               differ("blob bytes");
    case GT_ENUM: {
        const gt_enum_sig *x = a->en.sig, *y = b->en.sig;
        if (a->en.v != b->en.v || x->id != y->id || x->num_values != y->num_values)
            return differ("enum value or signature");
        for (uint32_t i = 0; i < x->num_values; ++i)
            if (!str_eq(x->values[i].name, y->values[i].name) ||
                x->values[i].value != y->values[i].value)
                return differ("enum signature values");
        return true;
    }
    case GT_BITMASK: {
        const gt_bitmask_sig *x = a->bm.sig, *y = b->bm.sig;
        if (a->bm.v != b->bm.v || x->id != y->id || x->num_flags != y->num_flags)
            return differ("bitmask value or signature");
        for (uint32_t i = 0; i < x->num_flags; ++i)
            if (!str_eq(x->flags[i].name, y->flags[i].name) ||
                x->flags[i].value != y->flags[i].value)
                return differ("bitmask flags");
        return true;
    }
    case GT_ARRAY:
        if (a->arr.n != b->arr.n)
            return differ("array length");
        for (size_t i = 0; i < a->arr.n; ++i)
            if (!tb_value_equal(&a->arr.items[i], &b->arr.items[i]))
                return false;
        return true;
    case GT_STRUCT: {
        const gt_struct_sig *x = a->st.sig, *y = b->st.sig;
        if (x->id != y->id || !str_eq(x->name, y->name) || x->num_members != y->num_members)
            return differ("struct signature");
        for (uint32_t i = 0; i < x->num_members; ++i)
            if (!str_eq(x->member_names[i], y->member_names[i]) ||
                !tb_value_equal(&a->st.members[i], &b->st.members[i]))
                return false;
        return true;
    }
    case GT_REPR:
        return tb_value_equal(a->repr.human, b->repr.human) &&
               tb_value_equal(a->repr.machine, b->repr.machine);
    }
    return differ("unknown kind");
}
