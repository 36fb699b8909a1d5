/* JSON text output helpers (chrome_text.h). */
#include "chrome_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if invalid. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    size_t len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (len == 0 || len > n)
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) || (c == 0xf0 && s[1] < 0x90) ||
        (c == 0xf4 && s[1] > 0x8f))
        return 0;
    return len;
}

void ct_string(gt_strbuf *b, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *u = (const unsigned char *)s;
    gt_strbuf_putc(b, '"');
    size_t run = 0; /* bytes copied as they are, written in one piece */
    for (size_t i = 0; i < n;) {
        unsigned char c = u[i];
        size_t len = c >= 0x20 && c < 0x7f && c != '"' && c != '\\' ? 1 : c >= 0x80 ? utf8_seq(u + i, n - i) : 0;
        if (len) {
            i += len;
            run += len;
            continue;
        }
        gt_strbuf_put(b, s + i - run, run);
        run = 0;
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            gt_strbuf_put(b, e, 2);
        } else if (c < 0x20 || c == 0x7f) {
            char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            gt_strbuf_put(b, e, 6);
        } else {
            gt_strbuf_put(b, "\xef\xbf\xbd", 3); /* U+FFFD for a byte that is not UTF-8 */
        }
        i++;
    }
    gt_strbuf_put(b, s + n - run, run);
    gt_strbuf_putc(b, '"');
}

void ct_verbatim(gt_strbuf *b, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t run = 0;
    for (size_t i = 0; i < n;) {
        size_t len = u[i] < 0x80 ? 1 : utf8_seq(u + i, n - i);
        if (len) {
            i += len;
            run += len;
            continue;
        }
        gt_strbuf_put(b, s + i - run, run);
        run = 0;
        gt_strbuf_put(b, "\xef\xbf\xbd", 3);
        i++;
    }
    gt_strbuf_put(b, s + n - run, run);
}

void ct_us(gt_strbuf *b, int64_t ns)
{
    uint64_t m = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    if (ns < 0)
        gt_strbuf_putc(b, '-');
    gt_strbuf_u64(b, m / 1000);
    unsigned frac = (unsigned)(m % 1000);
    if (frac) {
        char d[4] = {'.', (char)('0' + frac / 100), (char)('0' + frac / 10 % 10), (char)('0' + frac % 10)};
        size_t len = 4;
        while (d[len - 1] == '0')
            len--;
        gt_strbuf_put(b, d, len);
    }
}

void ct_double(gt_strbuf *b, double d)
{
    if (isnan(d)) {
        gt_strbuf_puts(b, "\"NaN\"");
        return;
    }
    if (isinf(d)) {
        gt_strbuf_puts(b, d < 0 ? "\"-Infinity\"" : "\"Infinity\"");
        return;
    }
    char t[40];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(t, sizeof t, "%.*g", prec, d);
        if (strtod(t, NULL) == d)
            break;
    }
    gt_strbuf_puts(b, t);
    for (const char *p = t; *p; p++)
        if (*p == '.' || *p == 'e')
            return;
    gt_strbuf_puts(b, ".0");
}

void ct_koid(gt_strbuf *b, uint64_t v)
{
    if (v <= UINT32_MAX) {
        gt_strbuf_u64(b, v);
        return;
    }
    gt_strbuf_putc(b, '"');
    gt_strbuf_u64(b, v);
    gt_strbuf_putc(b, '"');
}

void ct_id(gt_strbuf *b, uint64_t v)
{
    gt_strbuf_puts(b, "\"0x");
    gt_strbuf_hex(b, v);
    gt_strbuf_putc(b, '"');
}
