/* Names for numbers: kallsyms (function addresses) and saved cmdlines (pids). */
#include <stdlib.h>
#include <string.h>

#include "gt_grow.h"
#include "tc_internal.h"

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static int cmp_sym(const void *a, const void *b)
{
    const tc_ksym *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* "ADDR TYPE NAME[\t[MODULE]]" lines; only text symbols (t, T, w, W) are kept:
 * the addresses looked up are code addresses. */
static bool parse_sym(const char *s, size_t n, uint32_t base, tc_ksym *out)
{
    size_t i = 0;
    uint64_t addr = 0;
    int d, digits = 0;
    while (i < n && (d = hexval(s[i])) >= 0 && digits < 16)
        addr = addr << 4 | (uint64_t)d, i++, digits++;
    if (!digits || i + 3 > n || s[i] != ' ' || s[i + 2] != ' ')
        return false;
    char t = s[i + 1];
    if (t != 't' && t != 'T' && t != 'w' && t != 'W')
        return false;
    size_t start = i + 3, end = start;
    while (end < n && s[end] != '\t' && s[end] != ' ')
        end++;
    if (end == start)
        return false;
    *out = (tc_ksym){.addr = addr, .name = base + (uint32_t)start, .len = (uint32_t)(end - start)};
    return true;
}

typedef bool (*line_parser)(const char *s, size_t n, uint32_t base, tc_ksym *out);

/* Parses each line of text with parse; keeps what it takes, sorted by address. */
static int load_lines(tc_kallsyms *k, const char *text, size_t len, line_parser parse)
{
    k->loaded = true;
    if (len > UINT32_MAX)
        len = UINT32_MAX;
    size_t cap = 0;
    for (size_t pos = 0; pos < len;) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
        tc_ksym sym;
        if (parse(text + pos, n, (uint32_t)pos, &sym)) {
            if (GT_GROW(k->sym, cap, k->n + 1, 256) != 0)
                return -1;
            k->sym[k->n++] = sym;
        }
        pos += n + 1;
    }
    if (k->n)
        qsort(k->sym, k->n, sizeof *k->sym, cmp_sym);
    return 0;
}

int tc_kallsyms_load(tc_kallsyms *k, const char *text, size_t len)
{
    return load_lines(k, text, len, parse_sym);
}

const tc_ksym *tc_kallsyms_find(const tc_kallsyms *k, uint64_t addr)
{
    size_t lo = 0, hi = k->n; /* first symbol above addr */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (k->sym[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo && k->sym[lo - 1].addr ? &k->sym[lo - 1] : NULL;
}

void tc_kallsyms_free(tc_kallsyms *k)
{
    free(k->sym);
    memset(k, 0, sizeof *k);
}

/* "0xc03e53c4 : \"cluster=%d ...\"" (the format keeps its escapes, as printed). */
static bool parse_printk(const char *s, size_t n, uint32_t base, tc_ksym *out)
{
    size_t i = 0;
    uint64_t addr = 0;
    int d, digits = 0;
    if (n < 2 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
        return false;
    for (i = 2; i < n && (d = hexval(s[i])) >= 0 && digits < 16; i++, digits++)
        addr = addr << 4 | (uint64_t)d;
    while (i < n && (s[i] == ' ' || s[i] == ':'))
        i++;
    if (!digits || i >= n || s[i] != '"' || s[n - 1] != '"' || n - i < 2)
        return false;
    *out = (tc_ksym){.addr = addr, .name = base + (uint32_t)i + 1, .len = (uint32_t)(n - i - 2)};
    return true;
}

int tc_printk_load(tc_printk *p, const char *text, size_t len)
{
    return load_lines(p, text, len, parse_printk);
}

const tc_ksym *tc_printk_find(const tc_printk *p, uint64_t addr)
{
    const tc_ksym *s = tc_kallsyms_find(p, addr);
    return s && s->addr == addr ? s : NULL;
}

int tc_cmdlines_each(const char *text, size_t len, int (*fn)(void *ctx, int64_t pid, const char *comm, size_t n),
                     void *ctx)
{
    for (size_t pos = 0; pos < len;) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
        const char *s = text + pos;
        pos += n + 1;
        size_t i = 0;
        int64_t pid = 0;
        while (i < n && i < 10 && s[i] >= '0' && s[i] <= '9')
            pid = pid * 10 + (s[i++] - '0');
        if (!i || i >= n || s[i] != ' ')
            continue;
        size_t cn = n - i - 1;
        while (cn && (s[i + 1 + cn - 1] == '\0' || s[i + 1 + cn - 1] == '\r'))
            cn--;
        int rc = fn(ctx, pid, s + i + 1, cn);
        if (rc)
            return rc;
    }
    return 0;
}
