/* JSON text output helpers (chrome_text.h). */
#include "chrome_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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
