/* JSON text output shared by the writers of JSON (the Chrome trace writer,
 * `gltrace info`): strings escaped per RFC 8259 (quote, backslash, every control
 * byte and DEL as \u00XX), and bytes that are not valid UTF-8 written as U+FFFD,
 * so the output is always valid UTF-8 and valid JSON. */
#ifndef GT_JSON_H
#define GT_JSON_H

#include <stddef.h>

#include "gt_strbuf.h"

/* Length of the valid UTF-8 sequence at s (n > 0 bytes left: 1 for ASCII), or 0 for
 * an invalid one (a stray continuation byte, overlong, a surrogate, beyond U+10FFFF,
 * cut short). The one UTF-8 check of the project: JSON writers and the Chrome reader. */
size_t gt_utf8_len(const unsigned char *s, size_t n);

/* "..." with escapes */
void gt_json_string(gt_strbuf *b, const char *s, size_t n);
/* JSON text copied as it is, but for bytes that are not UTF-8 (inside its
 * strings: elsewhere JSON has none), which become U+FFFD. */
void gt_json_verbatim(gt_strbuf *b, const char *s, size_t n);

#endif
