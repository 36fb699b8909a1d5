/* apitrace's dump format. Every quirk here is apitrace's own and is kept on purpose,
 * so that output compares byte for byte: floats with 7 (float) or 16 (double)
 * significant digits, one-element arrays as "&x", bitmask leftovers in hex, and
 * non-printable characters as a backslash and octal digits where the middle digit
 * is repeated (apitrace computes it twice). */
#include "at_dump.h"
#include "at_float.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ANSI attributes, used only with color on. */
#define A_NORMAL "\33[0m"
#define A_BOLD "\33[1m"
#define A_ITALIC "" /* apitrace's terminal highlighter has no italic */
#define A_STRIKE "\33[9m"
#define A_RED "\33[31m"
#define A_POINTER "\33[32m"
#define A_LITERAL "\33[34m"

static inline void attr(gt_strbuf *b, const at_dump_options *o, const char *a)
{
    if (o->color)
        gt_strbuf_puts(b, a);
}

void at_dump_default_options(at_dump_options *o)
{
    o->color = false;
    o->call_nos = true;
    o->arg_names = true;
    o->thread_ids = false;
    o->multiline = true;
}

static void dump_char(gt_strbuf *b, uint32_t c, const at_dump_options *o)
{
    if (c == '"') {
        gt_strbuf_put(b, "\\\"", 2);
    } else if (c == '\\') {
        gt_strbuf_put(b, "\\\\", 2);
    } else if (c >= 0x20 && c <= 0x7e) {
        gt_strbuf_putc(b, (char)c);
    } else if (c == '\t') {
        gt_strbuf_putc(b, '\t');
    } else if (c == '\r') {
        /* dropped, as apitrace does */
    } else if (c == '\n') {
        if (!o->multiline) {
            gt_strbuf_put(b, "\\n", 2);
        } else {
            attr(b, o, A_NORMAL);
            gt_strbuf_putc(b, '\n');
            attr(b, o, A_LITERAL);
        }
    } else {
        unsigned d0 = c & 7, d1 = (c >> 3) & 7;
        gt_strbuf_putc(b, '\\');
        if (d1) {
            gt_strbuf_putc(b, (char)('0' + d1));
            gt_strbuf_putc(b, (char)('0' + d1));
        }
        gt_strbuf_putc(b, (char)('0' + d0));
    }
}

static void dump_string(gt_strbuf *b, const gt_value *v, const at_dump_options *o)
{
    attr(b, o, A_LITERAL);
    gt_strbuf_putc(b, '"');
    const char *s = v->str.s;
    for (size_t i = 0; i < v->str.len && s[i]; ++i) {
        /* chars are signed in apitrace; only the low six bits reach the output */
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c <= 0x7e && c != '"' && c != '\\') {
            size_t j = i; /* copy runs of plain characters at once */
            while (j < v->str.len && (unsigned char)s[j] >= 0x20 && (unsigned char)s[j] <= 0x7e &&
                   s[j] != '"' && s[j] != '\\')
                ++j;
            gt_strbuf_put(b, s + i, j - i);
            i = j - 1;
            continue;
        }
        dump_char(b, c >= 0x80 ? 0xffffff00u | c : c, o);
    }
    gt_strbuf_putc(b, '"');
    attr(b, o, A_NORMAL);
}

static void dump_wstring(gt_strbuf *b, const gt_value *v, const at_dump_options *o)
{
    attr(b, o, A_LITERAL);
    gt_strbuf_put(b, "L", 1);
    attr(b, o, A_LITERAL);
    gt_strbuf_putc(b, '"');
    for (size_t i = 0; i < v->wstr.len && v->wstr.w[i]; ++i)
        dump_char(b, v->wstr.w[i], o);
    gt_strbuf_putc(b, '"');
    attr(b, o, A_NORMAL);
}

static void dump_bitmask(gt_strbuf *b, const gt_value *v, const at_dump_options *o)
{
    uint64_t value = v->bm.v;
    const gt_bitmask_sig *sig = v->bm.sig;
    int first = 1;
    for (uint32_t i = 0; i < sig->num_flags; ++i) {
        uint64_t f = sig->flags[i].value;
        if ((f && (value & f) == f) || (!f && value == 0)) {
            if (!first)
                gt_strbuf_put(b, " | ", 3);
            attr(b, o, A_LITERAL);
            gt_strbuf_puts(b, sig->flags[i].name);
            attr(b, o, A_NORMAL);
            value &= ~f;
            first = 0;
        }
        if (value == 0)
            break;
    }
    if (value || first) {
        if (!first)
            gt_strbuf_put(b, " | ", 3);
        attr(b, o, A_LITERAL);
        gt_strbuf_put(b, "0x", 2);
        gt_strbuf_hex(b, value);
        attr(b, o, A_NORMAL);
    }
}

static const char *dump_members(gt_strbuf *b, const gt_value *v, const char *sep,
                                const at_dump_options *o)
{
    const gt_struct_sig *sig = v->st.sig;
    for (uint32_t i = 0; i < sig->num_members; ++i) {
        const char *name = sig->member_names[i];
        const gt_value *m = &v->st.members[i];
        if (!name[0] && m->kind == GT_STRUCT) { /* anonymous member: flatten */
            sep = dump_members(b, m, sep, o);
            continue;
        }
        gt_strbuf_puts(b, sep);
        attr(b, o, A_ITALIC);
        gt_strbuf_puts(b, name);
        attr(b, o, A_NORMAL);
        gt_strbuf_put(b, " = ", 3);
        at_dump_value(b, m, o);
        sep = ", ";
    }
    return sep;
}

/* "%.*g" for float (7 digits) and double (16 digits). Whole numbers with fewer
 * digits than the precision print as plain integers in %g, and they are most of
 * what GL programs pass, so they skip printf. */
static void dump_float(gt_strbuf *b, double d, int digits)
{
    double limit = digits == 7 ? 1e7 : 1e16;
    if (d > -limit && d < limit && d == (double)(int64_t)d && (d != 0 || !signbit(d))) {
        gt_strbuf_i64(b, (int64_t)d);
        return;
    }
    char tmp[32];
    int n = digits == 7 ? at_format_float7(tmp, (float)d) : 0;
    if (n > 0)
        gt_strbuf_put(b, tmp, (size_t)n);
    else
        gt_strbuf_printf(b, "%.*g", digits, d);
}

void at_dump_value(gt_strbuf *b, const gt_value *v, const at_dump_options *o)
{
    switch (v->kind) {
    case GT_ABSENT:
        return;
    case GT_NULL:
        attr(b, o, A_LITERAL);
        gt_strbuf_put(b, "NULL", 4);
        break;
    case GT_BOOL:
        attr(b, o, A_LITERAL);
        gt_strbuf_puts(b, v->b ? "true" : "false");
        break;
    case GT_SINT:
        attr(b, o, A_LITERAL);
        gt_strbuf_i64(b, v->i);
        break;
    case GT_UINT:
        attr(b, o, A_LITERAL);
        gt_strbuf_u64(b, v->u);
        break;
    case GT_FLOAT:
        attr(b, o, A_LITERAL);
        dump_float(b, v->f, 7);
        break;
    case GT_DOUBLE:
        attr(b, o, A_LITERAL);
        dump_float(b, v->d, 16);
        break;
    case GT_STRING:
        dump_string(b, v, o);
        return;
    case GT_WSTRING:
        dump_wstring(b, v, o);
        return;
    case GT_ENUM: {
        const char *name = gt_enum_name(v->en.sig, v->en.v);
        attr(b, o, A_LITERAL);
        if (name)
            gt_strbuf_puts(b, name);
        else
            gt_strbuf_i64(b, v->en.v);
        break;
    }
    case GT_BITMASK:
        dump_bitmask(b, v, o);
        return;
    case GT_STRUCT:
        gt_strbuf_putc(b, '{');
        dump_members(b, v, "", o);
        gt_strbuf_putc(b, '}');
        return;
    case GT_ARRAY:
        if (v->arr.n == 1) {
            gt_strbuf_putc(b, '&');
            at_dump_value(b, &v->arr.items[0], o);
            return;
        }
        gt_strbuf_putc(b, '{');
        for (size_t i = 0; i < v->arr.n; ++i) {
            if (i)
                gt_strbuf_put(b, ", ", 2);
            at_dump_value(b, &v->arr.items[i], o);
        }
        gt_strbuf_putc(b, '}');
        return;
    case GT_BLOB:
        attr(b, o, A_POINTER);
        gt_strbuf_put(b, "blob(", 5);
        gt_strbuf_u64(b, v->blob.size);
        gt_strbuf_putc(b, ')');
        break;
    case GT_POINTER:
        attr(b, o, A_POINTER);
        gt_strbuf_put(b, "0x", 2);
        gt_strbuf_hex(b, v->u);
        break;
    case GT_REPR:
        at_dump_value(b, v->repr.human, o);
        return;
    }
    attr(b, o, A_NORMAL);
}

static void dump_frame(gt_strbuf *b, const gt_frame *f)
{
    gt_strbuf_puts(b, f->module ? f->module : "?");
    if (f->function) {
        gt_strbuf_put(b, ": ", 2);
        gt_strbuf_puts(b, f->function);
    }
    if (f->offset >= 0) {
        gt_strbuf_put(b, "+0x", 3);
        gt_strbuf_hex(b, (uint64_t)f->offset);
    }
    if (f->filename) {
        gt_strbuf_put(b, ": ", 2);
        gt_strbuf_puts(b, f->filename);
        if (f->line >= 0) {
            gt_strbuf_putc(b, ':');
            gt_strbuf_i64(b, f->line);
        }
    }
    gt_strbuf_putc(b, '\n');
}

void at_dump_call(gt_strbuf *b, const gt_call *c, const at_dump_options *o)
{
    if (o->call_nos) {
        gt_strbuf_u64(b, c->no);
        gt_strbuf_putc(b, ' ');
    }
    if (o->thread_ids) {
        gt_strbuf_putc(b, '@');
        gt_strbuf_hex(b, c->thread);
        gt_strbuf_putc(b, ' ');
    }
    attr(b, o, (c->flags & GT_CALL_FLAG_NO_SIDE_EFFECTS) ? A_NORMAL : A_BOLD);
    gt_strbuf_puts(b, c->sig->name);
    attr(b, o, A_NORMAL);
    gt_strbuf_putc(b, '(');
    for (uint32_t i = 0; i < c->num_args; ++i) {
        if (i)
            gt_strbuf_put(b, ", ", 2);
        if (o->arg_names) {
            attr(b, o, A_ITALIC);
            if (i < c->sig->num_args)
                gt_strbuf_puts(b, c->sig->arg_names[i]);
            else
                gt_strbuf_printf(b, "arg%u", i); /* beyond the signature: apitrace reads garbage */
            attr(b, o, A_NORMAL);
            gt_strbuf_put(b, " = ", 3);
        }
        if (c->args[i].kind == GT_ABSENT)
            gt_strbuf_putc(b, '?');
        else
            at_dump_value(b, &c->args[i], o);
    }
    gt_strbuf_putc(b, ')');
    if (c->ret) {
        gt_strbuf_put(b, " = ", 3);
        at_dump_value(b, c->ret, o);
    }
    if (c->flags & (GT_CALL_FLAG_FAKE | GT_CALL_FLAG_INCOMPLETE)) {
        gt_strbuf_put(b, " //", 3);
        if (c->flags & GT_CALL_FLAG_FAKE)
            gt_strbuf_put(b, " fake", 5);
        if (c->flags & GT_CALL_FLAG_INCOMPLETE) {
            gt_strbuf_putc(b, ' ');
            attr(b, o, A_RED);
            gt_strbuf_puts(b, "incomplete");
            attr(b, o, A_NORMAL);
        }
    }
    if (!o->multiline)
        return;
    gt_strbuf_putc(b, '\n');
    if (c->frames) {
        attr(b, o, A_BOLD);
        attr(b, o, A_RED);
        gt_strbuf_puts(b, "Backtrace:\n");
        attr(b, o, A_NORMAL);
        for (uint32_t i = 0; i < c->num_frames; ++i)
            dump_frame(b, c->frames[i]);
    }
    if (c->flags & GT_CALL_FLAG_END_FRAME)
        gt_strbuf_putc(b, '\n');
}

void at_dump_property(gt_strbuf *b, const char *name, const char *value, const at_dump_options *o)
{
    gt_value v = {.kind = GT_STRING, .str = {value, strlen(value)}};
    gt_strbuf_put(b, "// ", 3);
    gt_strbuf_puts(b, name);
    gt_strbuf_put(b, " = ", 3);
    dump_string(b, &v, o); /* apitrace prints the value as a string value */
    gt_strbuf_putc(b, '\n');
}
