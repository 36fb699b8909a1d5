/* JSON text for the Chrome writer: exact, valid output for every value the
 * timeline model holds. Strings are escaped by common/util/gt_json.h. Times are
 * written in microseconds from integer nanoseconds, exactly (1234567 -> 1234.567). */
#ifndef CHROME_TEXT_H
#define CHROME_TEXT_H

#include <stdint.h>

#include "gt_json.h"
#include "gt_strbuf.h"

/* ns as a decimal number of microseconds, trailing zeros dropped */
void ct_us(gt_strbuf *b, int64_t ns);
/* The shortest text that reads back as the same double, always with a '.'
 * or an exponent so it reads back as a double; non-finite values, which JSON
 * lacks, as the strings "NaN", "Infinity", "-Infinity". */
void ct_double(gt_strbuf *b, double d);
/* A process or thread id: a number up to 2^32-1 (what Perfetto's importer
 * takes as a number), a decimal string beyond (our GPU and CPU tracks). */
void ct_koid(gt_strbuf *b, uint64_t v);
/* An id as Chrome writes them: the string "0x..." (exact beyond 2^53). */
void ct_id(gt_strbuf *b, uint64_t v);

#endif
