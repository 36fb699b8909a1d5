/* The frame index file (at_index.h): writing, loading with every length checked, and
 * choosing where to start reading a range of frames.
 *
 * Layout, little-endian, fixed widths:
 *   0  "GLTRIDX\n"  magic                    40 MD5 of the trace's first 64 KiB
 *   8  u32 format version (1), u32 zero      56 MD5 of the body (all that follows)
 *  16  u64 trace size                        72 body:
 *  24  i64 trace mtime s, i64 mtime ns
 * body: u32 version, semantic version, container, api; u64 calls, incomplete,
 *       frames_count, data_size, first_incomplete_frame; u32 threads, functions;
 *       u32 has_warning [str warning]; u32 nprops (str name, str value)*;
 *       u64 nframes (frame: u32 first_no, last_no, complete, start.call_no;
 *                    u64 calls, size, start.stream_off, start.chunk_pos, start.chunk_off)*;
 *       u64 nsigs (u32 kind, u32 len, u64 off, len bytes)*
 * str = u32 length, bytes. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "at_index.h"
#include "gt_roles.h"
#include "gt_input.h"
#include "gt_md5.h"
#include "gt_outfile.h"
#include "gt_strbuf.h"

#define MAGIC "GLTRIDX\n"
#define FORMAT_VERSION 1u
#define HEAD_SIZE 72u
#define STAMP_BYTES (64u * 1024u)
#define FRAME_BYTES 56u
#define MAX_INDEX (UINT64_C(1) << 34) /* no index of a real trace comes near */

static const char *const containers[] = {"snappy", "zlib", "brotli"};
static const char *const apis[] = {"Unknown", "OpenGL + GLX/WGL/CGL",
                                   "OpenGL/GLES1/GLES2/VG + EGL", "DirectX"};

const char *at_index_api_name(const char *n)
{
    uint32_t family = n ? gt_roles_lookup(n).bits : 0;
    if (family & GT_ROLE_GLX)
        return apis[1];
    if (family & GT_ROLE_EGL)
        return apis[2];
    if (family & GT_ROLE_D3D)
        return apis[3];
    return apis[0];
}

static unsigned code_of(const char *s, const char *const *names, unsigned n)
{
    for (unsigned i = 0; i < n; ++i)
        if (s && !strcmp(s, names[i]))
            return i;
    return 0;
}

char *at_index_path(const char *trace)
{
    size_t n = strlen(trace);
    char *p = malloc(n + 5);
    if (p)
        memcpy(p, trace, n), memcpy(p + n, ".idx", 5);
    return p;
}

void at_index_free(at_index *ix)
{
    if (!ix)
        return;
    if (!ix->file) { /* built: the strings are ours */
        for (uint32_t i = 0; i < ix->nprops; ++i)
            free((char *)ix->props[i].name), free((char *)ix->props[i].value);
        free(ix->warning);
    }
    free(ix->props);
    free(ix->frames);
    free(ix->sigs);
    free(ix->sig_bytes);
    free(ix->file);
    free(ix);
}

const char *at_index_warning(const at_index *ix, const char *path, char *buf, size_t size)
{
    if (!ix->warning)
        return NULL;
    snprintf(buf, size, "%s: %s", path, ix->warning);
    return buf;
}

/* ---- the trace's stamp -------------------------------------------------------------- */

typedef struct stamp {
    uint64_t size;
    int64_t sec, nsec;
    uint8_t md5[16];
} stamp;

static int take_stamp(const char *trace, stamp *s, gt_error *err)
{
    uint64_t size;
    FILE *f = gt_input_fopen(trace, &size, err);
    if (!f)
        return -1;
    struct stat st;
    uint8_t *buf = malloc(STAMP_BYTES);
    size_t n = buf ? fread(buf, 1, STAMP_BYTES, f) : 0;
    int bad = !buf || ferror(f) || fstat(fileno(f), &st) != 0;
    fclose(f);
    if (bad) {
        gt_error_set(err, "%s: cannot read: %s", trace, buf ? strerror(errno) : "out of memory");
        free(buf);
        return -1;
    }
    s->size = size;
    s->sec = (int64_t)st.st_mtim.tv_sec;
    s->nsec = (int64_t)st.st_mtim.tv_nsec;
    gt_md5 m;
    gt_md5_init(&m);
    gt_md5_update(&m, buf, n);
    gt_md5_final(&m, s->md5);
    free(buf);
    return 0;
}

/* ---- writing ------------------------------------------------------------------------ */

static void put_u32(gt_strbuf *b, uint32_t v)
{
    char t[4];
    for (unsigned i = 0; i < 4; ++i)
        t[i] = (char)(v >> (8 * i));
    gt_strbuf_put(b, t, 4);
}

static void put_u64(gt_strbuf *b, uint64_t v)
{
    put_u32(b, (uint32_t)v);
    put_u32(b, (uint32_t)(v >> 32));
}

static void put_str(gt_strbuf *b, const char *s)
{
    size_t n = strlen(s);
    put_u32(b, (uint32_t)n);
    gt_strbuf_put(b, s, n);
}

static void put_totals(gt_strbuf *b, const at_index *ix)
{
    put_u32(b, ix->version);
    put_u32(b, ix->semantic_version);
    put_u32(b, code_of(ix->container, containers, 3));
    put_u32(b, code_of(ix->api, apis, 4));
    put_u64(b, ix->calls);
    put_u64(b, ix->incomplete);
    put_u64(b, ix->frames_count);
    put_u64(b, ix->data_size);
    put_u64(b, ix->first_incomplete_frame);
    put_u32(b, ix->threads);
    put_u32(b, ix->functions);
    put_u32(b, ix->warning != NULL);
    if (ix->warning)
        put_str(b, ix->warning);
    put_u32(b, ix->nprops);
    for (uint32_t i = 0; i < ix->nprops; ++i)
        put_str(b, ix->props[i].name), put_str(b, ix->props[i].value);
}

static void put_frames_and_sigs(gt_strbuf *b, const at_index *ix)
{
    put_u64(b, ix->nframes);
    for (size_t i = 0; i < ix->nframes; ++i) {
        const at_index_frame *f = &ix->frames[i];
        put_u32(b, f->first_no), put_u32(b, f->last_no), put_u32(b, f->complete);
        put_u32(b, f->start.call_no);
        put_u64(b, f->calls), put_u64(b, f->size), put_u64(b, f->start.stream_off);
        put_u64(b, f->start.chunk_pos), put_u64(b, f->start.chunk_off);
    }
    put_u64(b, ix->nsigs);
    for (size_t i = 0; i < ix->nsigs; ++i) {
        const at_sig_def *d = &ix->sigs[i];
        put_u32(b, d->kind), put_u32(b, d->len), put_u64(b, d->off);
        gt_strbuf_put(b, (const char *)d->bytes, d->len);
    }
}

static void put_head(gt_strbuf *b, const stamp *s, const uint8_t body_md5[16])
{
    gt_strbuf_put(b, MAGIC, 8);
    put_u32(b, FORMAT_VERSION);
    put_u32(b, 0);
    put_u64(b, s->size);
    put_u64(b, (uint64_t)s->sec);
    put_u64(b, (uint64_t)s->nsec);
    gt_strbuf_put(b, (const char *)s->md5, 16);
    gt_strbuf_put(b, (const char *)body_md5, 16);
}

/* Only an index is ever replaced: a file of another kind under the name (a trace, or
 * a link to one) and any link are left alone. */
static int replaceable(const char *path, gt_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 1;
    char m[8];
    size_t n = fread(m, 1, sizeof m, f);
    fclose(f);
    if (n != 0 && !(n == 8 && !memcmp(m, MAGIC, 8))) {
        gt_error_set(err, "%s: exists and is not a gltrace index: not replaced", path);
        return 0;
    }
    /* a link, even to an index: in a folder others write to, one may be planted to make
     * us replace a file of ours elsewhere */
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        gt_error_set(err, "%s: is a symbolic link: not replaced (an index is written only as a "
                     "file of its own)", path);
        return 0;
    }
    return 1;
}

static int write_file(const char *path, const gt_strbuf *head, const gt_strbuf *body,
                      const char *trace, gt_error *err)
{
    gt_outfile o;
    if (!replaceable(path, err) || gt_outfile_begin(&o, path, &trace, 1, err) < 0)
        return -1;
    /* the index tells what the trace holds: readable by whom the trace is, no more */
    struct stat tst;
    if (o.tmp && stat(trace, &tst) == 0 && chmod(o.tmp, tst.st_mode & 0644) != 0) {
        /* the umask's mode is still a usable index */
    }
    FILE *f = fopen(o.path, "wb");
    int ok = f && fwrite(head->data, 1, head->len, f) == head->len &&
             fwrite(body->data, 1, body->len, f) == body->len;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok) {
        gt_error_set(err, "%s: cannot write: %s (%s)", path, strerror(errno), gt_outfile_left(&o));
        gt_outfile_abort(&o);
        return -1;
    }
    return gt_outfile_commit(&o, err) < 0 ? -1 : 0;
}

int at_index_write(const at_index *ix, const char *trace, gt_error *err)
{
    stamp s;
    char *path = at_index_path(trace);
    if (!path) {
        gt_error_set(err, "%s: out of memory", trace);
        return -1;
    }
    gt_strbuf head, body;
    gt_strbuf_init(&head);
    gt_strbuf_init(&body);
    int rc = take_stamp(trace, &s, err);
    if (rc == 0 && s.size != ix->container_size) {
        gt_error_set(err, "%s: the trace changed while it was indexed", trace);
        rc = -1;
    }
    if (rc == 0) {
        put_totals(&body, ix);
        put_frames_and_sigs(&body, ix);
        uint8_t md5[16];
        gt_md5 m;
        gt_md5_init(&m);
        gt_md5_update(&m, body.data, body.len);
        gt_md5_final(&m, md5);
        put_head(&head, &s, md5);
        if (head.oom || body.oom) {
            gt_error_set(err, "%s: out of memory", path);
            rc = -1;
        }
    }
    if (rc == 0)
        rc = write_file(path, &head, &body, trace, err);
    gt_strbuf_free(&head);
    gt_strbuf_free(&body);
    free(path);
    return rc;
}

/* ---- loading: a cursor that checks every length against what is left ------------- */

typedef struct cursor {
    uint8_t *p;
    size_t n, pos;
    const char *path;
    gt_error *err;
    int bad;
} cursor;

static int bad(cursor *c, const char *what)
{
    if (!c->bad)
        gt_error_at(c->err, c->path, c->pos, "%s; index ignored", what);
    c->bad = 1;
    return 0;
}

static const uint8_t *take(cursor *c, uint64_t n, const char *what)
{
    if (c->bad)
        return NULL;
    if (n > c->n - c->pos) {
        bad(c, what);
        return NULL;
    }
    const uint8_t *p = c->p + c->pos;
    c->pos += (size_t)n;
    return p;
}

static uint32_t get_u32(cursor *c, const char *what)
{
    const uint8_t *p = take(c, 4, what);
    return p ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24
             : 0;
}

static uint64_t get_u64(cursor *c, const char *what)
{
    uint64_t lo = get_u32(c, what);
    return lo | (uint64_t)get_u32(c, what) << 32;
}

/* Strings are made NUL-terminated in place: the byte after one is the next field's
 * first byte, already read, so the terminator goes where the length was. */
static const char *get_str(cursor *c, const char *what)
{
    uint32_t n = get_u32(c, what);
    uint8_t *p = (uint8_t *)take(c, n, what);
    if (!p)
        return NULL;
    if (memchr(p, 0, n)) {
        bad(c, "string holds a NUL byte");
        return NULL;
    }
    memmove(p - 4, p, n);
    p[(ptrdiff_t)n - 4] = 0;
    return (const char *)(p - 4);
}

static int get_totals(cursor *c, at_index *ix)
{
    ix->version = get_u32(c, "index ends in its totals");
    ix->semantic_version = get_u32(c, "index ends in its totals");
    uint32_t container = get_u32(c, "index ends in its totals");
    uint32_t api = get_u32(c, "index ends in its totals");
    if (!c->bad && (container >= 3 || api >= 4))
        return bad(c, "unknown container or API code");
    ix->container = containers[container < 3 ? container : 0];
    ix->api = apis[api < 4 ? api : 0];
    ix->calls = get_u64(c, "index ends in its totals");
    ix->incomplete = get_u64(c, "index ends in its totals");
    ix->frames_count = get_u64(c, "index ends in its totals");
    ix->data_size = get_u64(c, "index ends in its totals");
    ix->first_incomplete_frame = get_u64(c, "index ends in its totals");
    ix->threads = get_u32(c, "index ends in its totals");
    ix->functions = get_u32(c, "index ends in its totals");
    if (get_u32(c, "index ends in its totals"))
        ix->warning = (char *)get_str(c, "index ends in its warning");
    return !c->bad;
}

static int get_props(cursor *c, at_index *ix)
{
    uint32_t n = get_u32(c, "index ends in its properties");
    if (c->bad || n > (c->n - c->pos) / 8)
        return bad(c, "impossible property count");
    if (n && !(ix->props = calloc(n, sizeof *ix->props)))
        return bad(c, "out of memory");
    for (ix->nprops = 0; ix->nprops < n && !c->bad; ix->nprops++) {
        ix->props[ix->nprops].name = get_str(c, "index ends in its properties");
        ix->props[ix->nprops].value = get_str(c, "index ends in its properties");
    }
    return !c->bad;
}

/* A frame whose start lies outside the stream, or after the frame's own first call,
 * would send a seek astray: rejected here, before anything reads the trace. */
static int check_frame(cursor *c, const at_index *ix, const at_index_frame *f, size_t i)
{
    const at_seek_point *p = &f->start;
    if (f->first_no > f->last_no || p->call_no > f->first_no || p->chunk_off > p->stream_off ||
        p->stream_off >= ix->data_size || p->chunk_pos >= ix->container_size)
        return bad(c, "frame entry out of range");
    if (f->complete != (i < ix->frames_count) || (i && f->first_no <= ix->frames[i - 1].last_no))
        return bad(c, "frame entries out of order");
    return 1;
}

static int get_frames(cursor *c, at_index *ix)
{
    uint64_t n = get_u64(c, "index ends before its frames");
    if (c->bad || n > (c->n - c->pos) / FRAME_BYTES || n < ix->frames_count ||
        n > ix->frames_count + 1)
        return bad(c, "impossible frame count");
    if (n && !(ix->frames = calloc((size_t)n, sizeof *ix->frames)))
        return bad(c, "out of memory");
    for (ix->nframes = 0; ix->nframes < n; ix->nframes++) {
        at_index_frame *f = &ix->frames[ix->nframes];
        size_t at = c->pos;
        f->first_no = get_u32(c, "index ends in a frame");
        f->last_no = get_u32(c, "index ends in a frame");
        f->complete = get_u32(c, "index ends in a frame");
        f->start.call_no = get_u32(c, "index ends in a frame");
        f->calls = get_u64(c, "index ends in a frame");
        f->size = get_u64(c, "index ends in a frame");
        f->start.stream_off = get_u64(c, "index ends in a frame");
        f->start.chunk_pos = get_u64(c, "index ends in a frame");
        f->start.chunk_off = get_u64(c, "index ends in a frame");
        c->pos = c->bad ? c->pos : at; /* errors name the entry's first byte */
        if (c->bad || !check_frame(c, ix, f, ix->nframes))
            return 0;
        c->pos = at + FRAME_BYTES;
    }
    return 1;
}

static int get_sigs(cursor *c, at_index *ix)
{
    uint64_t n = get_u64(c, "index ends before its signatures");
    if (c->bad || n > (c->n - c->pos) / 16)
        return bad(c, "impossible signature count");
    if (n && !(ix->sigs = calloc((size_t)n, sizeof *ix->sigs)))
        return bad(c, "out of memory");
    for (ix->nsigs = 0; ix->nsigs < n; ix->nsigs++) {
        at_sig_def *d = &ix->sigs[ix->nsigs];
        size_t at = c->pos;
        uint32_t kind = get_u32(c, "index ends in a signature");
        d->len = get_u32(c, "index ends in a signature");
        d->off = get_u64(c, "index ends in a signature");
        d->bytes = take(c, d->len, "signature runs past the end of the index");
        if (c->bad)
            return 0;
        d->kind = (at_sig_kind)kind;
        if (kind >= AT_SIG_KINDS || d->len == 0 || d->off >= ix->data_size ||
            (ix->nsigs && d->off <= d[-1].off)) {
            c->pos = at;
            return bad(c, "signature entry out of range or out of order");
        }
    }
    if (c->pos != c->n)
        return bad(c, "bytes after the last signature");
    return 1;
}

static int check_head(cursor *c, const stamp *s)
{
    const uint8_t *m = take(c, 8, "too short for an index");
    if (!m || memcmp(m, MAGIC, 8))
        return c->bad ? 0 : (c->pos = 0, bad(c, "not a gltrace index (bad magic)"));
    if (get_u32(c, "too short for an index") != FORMAT_VERSION)
        return c->bad ? 0 : (c->pos -= 4, bad(c, "unknown index format version"));
    get_u32(c, "too short for an index");
    uint64_t size = get_u64(c, "too short for an index");
    int64_t sec = (int64_t)get_u64(c, "too short for an index");
    int64_t nsec = (int64_t)get_u64(c, "too short for an index");
    const uint8_t *md5 = take(c, 16, "too short for an index");
    if (c->bad)
        return 0;
    if (size != s->size || sec != s->sec || nsec != s->nsec || memcmp(md5, s->md5, 16)) {
        c->pos = 16;
        return bad(c, "stale: the trace changed since the index was written "
                      "(run `gltrace index` again)");
    }
    const uint8_t *want = take(c, 16, "too short for an index");
    if (!want)
        return 0;
    uint8_t got[16];
    gt_md5 m5;
    gt_md5_init(&m5);
    gt_md5_update(&m5, c->p + c->pos, c->n - c->pos);
    gt_md5_final(&m5, got);
    if (memcmp(got, want, 16))
        return bad(c, "damaged: its contents do not match their checksum");
    return 1;
}

/* 1 with the file's bytes, 0 when it does not exist, -1 on error. */
static int read_index(const char *path, uint8_t **out, size_t *len, gt_error *err)
{
    struct stat st;
    if (stat(path, &st) != 0 && errno == ENOENT)
        return 0;
    uint64_t size;
    FILE *f = gt_input_fopen(path, &size, err);
    if (!f)
        return -1;
    if (size > MAX_INDEX || size < HEAD_SIZE) {
        fclose(f);
        gt_error_at(err, path, 0, "%s; index ignored",
                    size < HEAD_SIZE ? "too short for an index" : "too large for an index");
        return -1;
    }
    uint8_t *p = malloc((size_t)size);
    size_t got = p ? fread(p, 1, (size_t)size, f) : 0;
    fclose(f);
    if (got != size) {
        gt_error_set(err, "%s: %s; index ignored", path, p ? "cannot read" : "out of memory");
        free(p);
        return -1;
    }
    *out = p;
    *len = (size_t)size;
    return 1;
}

static int parse_contents(cursor *c, at_index *ix)
{
    return get_totals(c, ix) && get_props(c, ix) && get_frames(c, ix) && get_sigs(c, ix);
}

static int parse(cursor *c, at_index *ix, const stamp *s)
{
    ix->container_size = s->size;
    return check_head(c, s) && parse_contents(c, ix);
}

int at_index_parse_contents(const uint8_t *data, size_t n, at_index **out, gt_error *err)
{
    *out = NULL;
    at_index *ix = calloc(1, sizeof *ix);
    if (!ix || !(ix->file = malloc(n ? n : 1))) {
        free(ix);
        gt_error_set(err, "out of memory");
        return -1;
    }
    memcpy(ix->file, data, n);
    cursor c = {ix->file, n, 0, "index", err, 0};
    if (!parse_contents(&c, ix)) {
        at_index_free(ix);
        return -1;
    }
    *out = ix;
    return 0;
}

int at_index_load(const char *trace, at_index **out, gt_error *err)
{
    *out = NULL;
    char *path = at_index_path(trace);
    if (!path) {
        gt_error_set(err, "%s: out of memory", trace);
        return -1;
    }
    uint8_t *bytes = NULL;
    size_t len = 0;
    int rc = read_index(path, &bytes, &len, err);
    stamp s;
    if (rc > 0 && take_stamp(trace, &s, err) < 0)
        rc = -1;
    at_index *ix = rc > 0 ? calloc(1, sizeof *ix) : NULL;
    if (rc > 0 && !ix) {
        gt_error_set(err, "%s: out of memory", path);
        rc = -1;
    }
    if (ix) {
        ix->file = bytes;
        bytes = NULL;
        cursor c = {ix->file, len, 0, path, err, 0};
        if (!parse(&c, ix, &s)) {
            at_index_free(ix);
            ix = NULL;
            rc = -1;
        }
    }
    free(bytes);
    free(path);
    *out = ix;
    return rc;
}

/* ---- choosing where to read ---------------------------------------------------------- */

int at_index_frames_start(const at_index *ix, uint64_t first, uint64_t last, at_seek_point *p,
                          uint32_t *after_no)
{
    if (last >= ix->nframes)
        last = ix->nframes - 1;
    if (first >= ix->nframes || first > last || strcmp(ix->container, "snappy") ||
        last >= ix->first_incomplete_frame)
        return 0;
    *p = ix->frames[first].start;
    for (uint64_t f = first + 1; f <= last; ++f)
        if (ix->frames[f].start.stream_off < p->stream_off)
            *p = ix->frames[f].start;
    *after_no = first ? ix->frames[first - 1].last_no : UINT32_MAX;
    return 1;
}
