/* Python's difflib.Differ().compare() of two texts' lines, as jsondiff.py prints a
 * changed multi-line string: each line tagged '-', '+' or ' ', and "? " lines marking
 * the changed characters of similar lines (tag '?'). Lines as str.splitlines() gives
 * them for \n, \r\n and \r; characters are Unicode code points (the text is UTF-8). */
#ifndef TEXT_DIFFER_H
#define TEXT_DIFFER_H

#include <stddef.h>

/* Called once per output line: tag, and the line's text (no newline). */
typedef void (*td_emit)(void *ctx, char tag, const char *text, size_t len);

/* A replaced block of more than this many pairs of lines is printed plainly (its old
 * lines, then its new ones) rather than searched for similar pairs: difflib's search
 * takes time in the product, and Python itself takes minutes there. */
#define TD_MAX_PAIRS 1000000u

/* 0, or -1 when memory runs out. */
int td_compare(const char *a, size_t na, const char *b, size_t nb, td_emit emit, void *ctx);

#endif
