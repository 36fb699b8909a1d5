/* `symbolic` parameters (specs/annotations.txt): glTexParameteri(pname, param) and its
 * kin take an enum in an integer or float parameter for some pnames. The value is
 * written as a GLenum when the pname's values are enums (specs/enum_pnames.txt) and the
 * value is a whole number an enum can hold, else as the number it is: the rule
 * apitrace's recorder follows, so that both write GL_NEAREST and 4 alike. */
#include <stdbool.h>
#include <stdlib.h>

#include "gtw_values.h"
#include "signatures.gen.h"

static int cmp_unsigned(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}

static bool enum_pname(unsigned pname)
{
    return bsearch(&pname, gtw_enum_pnames, gtw_num_enum_pnames, sizeof pname,
                   cmp_unsigned) != NULL;
}

void gtw_symbolic_int(at_writer *w, unsigned pname, int param)
{
    /* every int survives the round trip through GLenum: negative values too */
    if (enum_pname(pname))
        at_writer_enum(w, &gtsig_GLenum, (int64_t)(uint32_t)param);
    else
        at_writer_sint(w, param);
}

/* A float or double holding a whole number from 0 to 2^32 - 1. */
static bool whole_enum(double v)
{
    return v >= 0.0 && v <= 4294967295.0 && v == (double)(uint32_t)v;
}

void gtw_symbolic_float(at_writer *w, unsigned pname, float param)
{
    if (enum_pname(pname) && whole_enum(param))
        at_writer_enum(w, &gtsig_GLenum, (int64_t)(uint32_t)param);
    else
        at_writer_float(w, param);
}

void gtw_symbolic_double(at_writer *w, unsigned pname, double param)
{
    if (enum_pname(pname) && whole_enum(param))
        at_writer_enum(w, &gtsig_GLenum, (int64_t)(uint32_t)param);
    else
        at_writer_double(w, param);
}
