/* The FXT reader's word, stream, reference and argument decoding, with the
 * strict/liberal handling of deviations, and the gltrace marker arguments. */
#include <stdarg.h>
#include <stdio.h>

#include "fxt_reader_internal.h"

static void warn_v(fxt_rd *r, uint64_t off, const char *fmt, va_list ap)
{
    if (!r->opts || !r->opts->warn)
        return;
    char msg[GT_ERROR_MAX];
    gt_format_at(msg, sizeof msg, r->name, off, fmt, ap);
    r->opts->warn(r->opts->warn_ctx, msg);
}

int fxt_rd_dev(fxt_rd *r, unsigned kind, uint64_t off, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (r->strict) {
        gt_error_vat(r->err, r->name, off, fmt, ap);
        va_end(ap);
        return -1;
    }
    if (!(r->warned & (1u << kind))) {
        r->warned |= 1u << kind;
        warn_v(r, off, fmt, ap);
    }
    va_end(ap);
    return 0;
}

void fxt_rd_note(fxt_rd *r, unsigned kind, uint64_t off, const char *fmt, ...)
{
    uint32_t bit = 1u << (16 + kind);
    if (r->warned & bit)
        return;
    r->warned |= bit;
    va_list ap;
    va_start(ap, fmt);
    warn_v(r, off, fmt, ap);
    va_end(ap);
}

int fxt_rd_short(fxt_rd *r, const char *what)
{
    if (fxt_rd_dev(r, FXT_W_SHORT, r->off,
                   "record of type %u, %u words, ends inside its %s (record skipped)",
                   FXT_HDR_TYPE(fxt_rd_word_at(r, 0)), r->nw, what) != 0)
        return -1;
    return FXT_SKIP;
}

int fxt_rd_reserved(fxt_rd *r, uint64_t word, uint64_t mask, uint64_t off)
{
    if (!(word & mask))
        return 0;
    return fxt_rd_dev(r, FXT_W_RESERVED, off, "reserved bits set (word %#018llx, mask %#018llx)",
                      (unsigned long long)word, (unsigned long long)mask);
}

int fxt_rd_word(fxt_rd *r, uint64_t *w)
{
    if (r->pos >= r->nw)
        return fxt_rd_short(r, "fields");
    *w = fxt_rd_word_at(r, r->pos++);
    return 0;
}

int fxt_rd_stream(fxt_rd *r, uint32_t len, const char **s)
{
    uint32_t words = (len + 7) / 8;
    if (words > r->nw - r->pos)
        return fxt_rd_short(r, "strings");
    const uint8_t *p = r->rec + (size_t)r->pos * 8;
    for (uint32_t i = len; i < words * 8; i++)
        if (p[i] && fxt_rd_dev(r, FXT_W_PADDING, fxt_rd_off(r) + i, "nonzero padding byte") != 0)
            return -1;
    *s = (const char *)p;
    r->pos += words;
    return 0;
}

int fxt_rd_strref(fxt_rd *r, uint16_t ref, gt_tl_str *id, gt_tl_bytes *b)
{
    gt_tl_bytes bytes = {"", 0};
    gt_tl_str sid = 0;
    if (ref & FXT_STRREF_INLINE) {
        uint32_t len = ref & 0x7fffu;
        int rc = fxt_rd_stream(r, len, &bytes.p);
        if (rc)
            return rc;
        bytes.len = len;
        if (id && (sid = gt_tl_intern(r->tl, bytes.p, len)) == (gt_tl_str)-1) {
            gt_error_set(r->err, "%s: out of memory interning strings", r->name);
            return -1;
        }
    } else if (ref) {
        if (!r->t->str[ref]) {
            if (fxt_rd_dev(r, FXT_W_UNDEF_STR, r->off, "string ref %u used before any string record defines it",
                           ref) != 0)
                return -1;
        } else {
            sid = r->t->str[ref] - 1;
            bytes.p = gt_tl_str_get(r->tl, sid, &bytes.len);
        }
    }
    if (id)
        *id = sid;
    if (b)
        *b = bytes;
    return 0;
}

int fxt_rd_thread(fxt_rd *r, uint8_t ref, uint64_t *pid, uint64_t *tid)
{
    if (ref == 0) {
        int rc = fxt_rd_word(r, pid);
        return rc ? rc : fxt_rd_word(r, tid);
    }
    *pid = r->t->tpid[ref];
    *tid = r->t->ttid[ref];
    if (!r->t->tdef[ref])
        return fxt_rd_dev(r, FXT_W_UNDEF_THREAD, r->off,
                          "thread ref %u used before any thread record defines it", ref);
    return 0;
}

/* ---- arguments ---- */

/* The value of one argument whose header is h; the name is read already. */
static int arg_value(fxt_rd *r, uint64_t h, uint64_t hoff, gt_tl_arg *a)
{
    unsigned type = FXT_HDR_TYPE(h);
    uint64_t v = 0;
    int rc = 0;
    switch (type) {
    case FXT_ARG_NULL: a->kind = GT_TL_ARG_NULL; return fxt_rd_reserved(r, h, ~0ull << 32, hoff);
    case FXT_ARG_I32: a->kind = GT_TL_ARG_I32; a->v.i = (int32_t)(uint32_t)(h >> 32); return 0;
    case FXT_ARG_U32: a->kind = GT_TL_ARG_U32; a->v.u = (uint32_t)(h >> 32); return 0;
    case FXT_ARG_BOOL: a->kind = GT_TL_ARG_BOOL; a->v.b = (h >> 32) & 1;
        return fxt_rd_reserved(r, h, ~0ull << 33, hoff);
    case FXT_ARG_STRING:
        a->kind = GT_TL_ARG_STRING;
        if ((rc = fxt_rd_reserved(r, h, ~0ull << 48, hoff)) != 0)
            return rc;
        return fxt_rd_strref(r, (uint16_t)(h >> 32), NULL, &a->v.s);
    default: break;
    }
    if ((rc = fxt_rd_reserved(r, h, ~0ull << 32, hoff)) != 0 || (rc = fxt_rd_word(r, &v)) != 0)
        return rc;
    switch (type) {
    case FXT_ARG_I64: a->kind = GT_TL_ARG_I64; a->v.i = (int64_t)v; break;
    case FXT_ARG_U64: a->kind = GT_TL_ARG_U64; a->v.u = v; break;
    case FXT_ARG_DOUBLE: a->kind = GT_TL_ARG_DOUBLE; memcpy(&a->v.d, &v, 8); break;
    case FXT_ARG_POINTER: a->kind = GT_TL_ARG_POINTER; a->v.u = v; break;
    default: a->kind = GT_TL_ARG_KOID; a->v.u = v; break;
    }
    return 0;
}

static bool known_arg_type(unsigned t) { return t <= FXT_ARG_BOOL; }

/* One argument; *keep is false when it is skipped (unknown type). */
static int one_arg(fxt_rd *r, gt_tl_arg *a, bool *keep)
{
    uint32_t start = r->pos;
    uint64_t hoff = fxt_rd_off(r), h;
    int rc = fxt_rd_word(r, &h);
    if (rc)
        return rc;
    unsigned size = FXT_HDR_SIZE(h), type = FXT_HDR_TYPE(h);
    if (size > r->nw - start) {
        if (fxt_rd_dev(r, FXT_W_ARG_SIZE, hoff, "argument of %u words overruns its record (%u left)",
                       size, r->nw - start) != 0)
            return -1;
        return FXT_SKIP;
    }
    *keep = known_arg_type(type);
    if (!*keep) {
        fxt_rd_note(r, FXT_N_ARG_TYPE, hoff, "argument type %u skipped", type);
        if (size == 0)
            return fxt_rd_short(r, "argument of unknown type and size 0");
        r->pos = start + size;
        return 0;
    }
    if (size == 0 && fxt_rd_dev(r, FXT_W_ARG_SIZE0, hoff, "argument of size 0") != 0)
        return -1;
    if ((rc = fxt_rd_strref(r, (uint16_t)(h >> 16), &a->name, NULL)) != 0 ||
        (rc = arg_value(r, h, hoff, a)) != 0)
        return rc;
    uint32_t used = r->pos - start;
    if (size == 0 || used == size)
        return 0;
    if (fxt_rd_dev(r, FXT_W_ARG_SIZE, hoff, "argument size %u words, its content %u words", size,
                   used) != 0)
        return -1;
    if (used > size) /* what follows cannot be found */
        return FXT_SKIP;
    r->pos = start + size;
    return 0;
}

int fxt_rd_args(fxt_rd *r, unsigned n)
{
    r->nargs = 0;
    for (unsigned i = 0; i < n; i++) {
        bool keep = true;
        int rc = one_arg(r, &r->args[r->nargs], &keep);
        if (rc)
            return rc;
        r->nargs += keep;
    }
    return 0;
}

void fxt_rd_drop_arg(fxt_rd *r, uint32_t i)
{
    memmove(&r->args[i], &r->args[i + 1], (r->nargs - i - 1) * sizeof r->args[0]);
    r->nargs--;
}

/* ---- markers (fxt_format.h) ---- */

typedef struct markers {
    int ph, id, parent, scope, stack; /* argument index, -1 absent */
} markers;

static bool is_char(const gt_tl_arg *a)
{
    return a->kind == GT_TL_ARG_STRING && a->v.s.len == 1;
}

static void find_markers(const fxt_rd *r, markers *m)
{
    m->ph = m->id = m->parent = m->scope = m->stack = -1;
    for (uint32_t i = 0; i < r->nargs; i++) {
        const gt_tl_arg *a = &r->args[i];
        if (a->name == r->m_ph && is_char(a))
            m->ph = (int)i;
        else if (a->name == r->m_id && a->kind == GT_TL_ARG_U64)
            m->id = (int)i;
        else if (a->name == r->m_parent && a->kind == GT_TL_ARG_U64)
            m->parent = (int)i;
        else if (a->name == r->m_scope && is_char(a))
            m->scope = (int)i;
        else if (a->name == r->m_stack && a->kind == GT_TL_ARG_U32)
            m->stack = (int)i;
    }
}

static void drop_marked(fxt_rd *r, const bool *drop)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < r->nargs; i++)
        if (!drop[i])
            r->args[n++] = r->args[i];
    r->nargs = n;
}

void fxt_rd_markers(fxt_rd *r, gt_tl_event *ev)
{
    if (!r->m_ph)
        return;
    markers m;
    find_markers(r, &m);
    bool drop[FXT_MAX_ARGS] = {false};
    if (m.stack >= 0) {
        ev->stack = (uint32_t)r->args[m.stack].v.u;
        drop[m.stack] = true;
    }
    if (ev->kind == GT_TL_INSTANT && m.ph >= 0) {
        char c = r->args[m.ph].v.s.p[0];
        if (c == 'P') {
            ev->kind = GT_TL_SAMPLE;
            drop[m.ph] = true;
        } else if (c == 'F' && m.id >= 0 && m.parent >= 0) {
            ev->kind = GT_TL_STACK_FRAME;
            ev->id = r->args[m.id].v.u;
            ev->parent = r->args[m.parent].v.u;
            drop[m.ph] = drop[m.id] = drop[m.parent] = true;
        } else if (c != 'F' && m.id >= 0) {
            ev->kind = GT_TL_OBJECT;
            ev->scope = (uint8_t)c;
            ev->id = r->args[m.id].v.u;
            drop[m.ph] = drop[m.id] = true;
        }
    } else if (ev->kind == GT_TL_INSTANT && m.scope >= 0) {
        char c = r->args[m.scope].v.s.p[0];
        ev->scope = c == 'p' ? GT_TL_SCOPE_PROCESS : c == 'g' ? GT_TL_SCOPE_GLOBAL : (uint8_t)c;
        drop[m.scope] = true;
    }
    drop_marked(r, drop);
}
