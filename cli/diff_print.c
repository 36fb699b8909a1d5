/* diff_print.h: GNU diff's output, as tracediff.py asks for it. */
#include <errno.h>
#include <string.h>

#include "diff_print.h"

#define TAB 8u
#define GUTTER_MIN 3 /* GNU diff's GUTTER_WIDTH_MINIMUM */

static void put_line(const diff_out *d, uint32_t id, FILE *f)
{
    fwrite(d->pool->text + d->pool->off[id], 1, d->pool->len[id], f);
}

/* One line with the prefix and colours tracediff.py gives diff's line formats. */
static void line_fmt(const diff_out *d, char mark, uint32_t id, FILE *f)
{
    static const char *const start[] = {"", "\33[9m\33[31m", "\33[32m"};
    int kind = mark == '-' ? 1 : mark == '+' ? 2 : 0;
    if (d->color) {
        fputs(start[kind], f);
        put_line(d, id, f);
        fputs(kind ? "\33[0m\n" : "\n", f);
        return;
    }
    putc(mark, f);
    putc(' ', f);
    put_line(d, id, f);
    putc('\n', f);
}

static int finish(FILE *f)
{
    if (fflush(f) != 0 || ferror(f)) {
        fprintf(stderr, "gltrace diff: cannot write to stdout: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}

int diff_print_lines(const diff_out *d, const sm_opcode *ops, size_t nops, FILE *f, int *differ)
{
    *differ = 0;
    for (size_t n = 0; n < nops; ++n) {
        const sm_opcode *op = &ops[n];
        if (op->tag == SM_EQUAL) {
            for (size_t i = op->a0; i < op->a1 && !d->suppress; ++i)
                line_fmt(d, ' ', d->a[i], f);
            continue;
        }
        *differ = 1;
        for (size_t i = op->a0; i < op->a1; ++i)
            line_fmt(d, '-', d->a[i], f);
        for (size_t j = op->b0; j < op->b1; ++j)
            line_fmt(d, '+', d->b[j], f);
    }
    return finish(f);
}

/* ---- sdiff: GNU diff's side.c, with its default tab size and tabs kept ---------------- */

typedef struct side {
    long hw, c2o; /* half width; where the second column starts */
} side;

/* Pads from column `from` to `to` with tabs, then spaces: returns `to`. */
static long tab_from_to(long from, long to, FILE *f)
{
    for (long tab = from + TAB - from % TAB; tab <= to; tab += TAB) {
        putc('\t', f);
        from = tab;
    }
    while (from++ < to)
        putc(' ', f);
    return to;
}

/* The line cut to out_bound columns, tabs kept where they fit; in the C locale, as
 * tracediff.py runs diff there, a byte that is not printable ASCII takes no column.
 * Returns the last column written. */
static long half_line(const char *s, size_t n, long indent, long out_bound, FILE *f)
{
    long in = 0, out = 0;
    for (size_t k = 0; k < n; ++k) {
        unsigned char c = (unsigned char)s[k];
        if (c == '\t') {
            long spaces = TAB - in % TAB;
            if (in == out && out + spaces < out_bound) {
                out += spaces;
                putc(c, f);
            }
            in += spaces;
        } else if (c == '\r') {
            putc(c, f);
            tab_from_to(0, indent, f);
            in = out = 0;
        } else if (c == '\b') {
            if (in != 0 && --in < out_bound) {
                if (out <= in) {
                    for (; out < in; ++out)
                        putc(' ', f);
                } else {
                    out = in;
                    putc(c, f);
                }
            }
        } else if (c >= 0x20 && c < 0x7f) {
            if (++in <= out_bound) {
                out = in;
                putc(c, f);
            }
        } else if (c < 0x80 && c != '\f' && c != '\v') {
            if (in <= out_bound) /* a control: a character of no width */
                putc(c, f);
        } else {
            putc(c, f); /* not a character in the C locale, \f and \v: printed as they are */
        }
    }
    return out;
}

static void sdiff_line(const diff_out *d, const side *sd, const uint32_t *left, char sep,
                       const uint32_t *right, FILE *f)
{
    const dl_pool *p = d->pool;
    long col = 0;
    if (left)
        col = half_line(p->text + p->off[*left], p->len[*left], 0, sd->hw, f);
    if (sep != ' ') {
        col = tab_from_to(col, (sd->hw + sd->c2o - 1) / 2, f) + 1;
        putc(sep, f);
    }
    if (right && p->len[*right]) {
        col = tab_from_to(col, sd->c2o, f);
        half_line(p->text + p->off[*right], p->len[*right], col, sd->hw, f);
    }
    putc('\n', f);
}

int diff_print_sdiff(const diff_out *d, const sm_opcode *ops, size_t nops, FILE *f, int *differ)
{
    side sd;
    long off = (d->width + (long)TAB + GUTTER_MIN) / (2 * (long)TAB) * (long)TAB;
    sd.hw = off - GUTTER_MIN < d->width - off ? off - GUTTER_MIN : d->width - off;
    if (sd.hw < 0)
        sd.hw = 0;
    sd.c2o = sd.hw ? off : d->width;
    *differ = 0;
    for (size_t n = 0; n < nops; ++n) {
        const sm_opcode *op = &ops[n];
        size_t i = op->a0, j = op->b0;
        if (op->tag == SM_EQUAL) {
            for (; i < op->a1 && !d->suppress; ++i, ++j)
                sdiff_line(d, &sd, &d->a[i], ' ', &d->b[j], f);
            continue;
        }
        *differ = 1;
        for (; i < op->a1 && j < op->b1; ++i, ++j)
            sdiff_line(d, &sd, &d->a[i], '|', &d->b[j], f);
        for (; j < op->b1; ++j)
            sdiff_line(d, &sd, NULL, '>', &d->b[j], f);
        for (; i < op->a1; ++i)
            sdiff_line(d, &sd, &d->a[i], '<', NULL, f);
    }
    return finish(f);
}
