/* JSON text output (gt_json.h). */
#include "gt_json.h"

size_t gt_utf8_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    size_t len = c < 0x80                 ? 1
                 : c >= 0xc2 && c <= 0xdf ? 2
                 : c >= 0xe0 && c <= 0xef ? 3
                 : c >= 0xf0 && c <= 0xf4 ? 4
                                          : 0;
    if (len == 0 || len > n)
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) || (c == 0xf0 && s[1] < 0x90) ||
        (c == 0xf4 && s[1] > 0x8f))
        return 0; /* overlong, surrogate or beyond U+10FFFF */
    return len;
}

void gt_json_string(gt_strbuf *b, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *u = (const unsigned char *)s;
    gt_strbuf_putc(b, '"');
    size_t run = 0; /* bytes copied as they are, written in one piece */
    for (size_t i = 0; i < n;) {
        unsigned char c = u[i];
        size_t len = c >= 0x20 && c < 0x7f && c != '"' && c != '\\' ? 1 : c >= 0x80 ? gt_utf8_len(u + i, n - i) : 0;
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

void gt_json_verbatim(gt_strbuf *b, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t run = 0;
    for (size_t i = 0; i < n;) {
        size_t len = u[i] < 0x80 ? 1 : gt_utf8_len(u + i, n - i);
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
