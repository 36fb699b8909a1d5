/* JSON text output shared by the writers of JSON (the Chrome trace writer,
 * `gltrace info`): strings escaped per RFC 8259 (quote, backslash, every control
 * byte and DEL as \u00XX), and bytes that are not valid UTF-8 written as U+FFFD,
 * so the output is always valid UTF-8 and valid JSON. */
#ifndef GT_JSON_H
#define GT_JSON_H

#include <stddef.h>

#include "gt_strbuf.h"

/* "..." with escapes */
void gt_json_string(gt_strbuf *b, const char *s, size_t n);
/* JSON text copied as it is, but for bytes that are not UTF-8 (inside its
 * strings: elsewhere JSON has none), which become U+FFFD. */
void gt_json_verbatim(gt_strbuf *b, const char *s, size_t n);

#endif
