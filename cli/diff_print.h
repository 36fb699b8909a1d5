/* Printing the opcodes of two sequences of lines (seqmatch.h) as apitrace's
 * tracediff.py has GNU diffutils print them: `diff` with its line formats
 * ("  ", "- ", "+ " before each line; colours on a terminal) and `sdiff` (two columns,
 * GNU diff's side-by-side layout, tabs and all). */
#ifndef DIFF_PRINT_H
#define DIFF_PRINT_H

#include <stdio.h>

#include "dump_lines.h"
#include "seqmatch.h"

typedef struct diff_out {
    const dl_pool *pool;
    const uint32_t *a, *b; /* the two sequences' line ids */
    int suppress;          /* leave out the common lines */
    int color;             /* `diff` only: apitrace's ANSI colours */
    long width;            /* `sdiff` only: columns */
} diff_out;

/* 0, or 1 when stdout cannot be written (said on stderr); *differ: any line differs. */
int diff_print_lines(const diff_out *d, const sm_opcode *ops, size_t nops, FILE *f, int *differ);
int diff_print_sdiff(const diff_out *d, const sm_opcode *ops, size_t nops, FILE *f, int *differ);

#endif
