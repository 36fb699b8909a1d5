/* Text form of calls, byte-identical to `apitrace dump` of apitrace 11.1. */
#ifndef AT_DUMP_H
#define AT_DUMP_H

#include <stdbool.h>

#include "gt_model.h"
#include "gt_strbuf.h"

typedef struct at_dump_options {
    bool color;       /* ANSI highlighting, as apitrace does on a terminal */
    bool call_nos;    /* "N " before each call */
    bool arg_names;   /* "name = " before each argument */
    bool thread_ids;  /* "@T " (hex) before each call */
    bool multiline;   /* newlines in strings printed as newlines, and the backtrace/frame lines */
} at_dump_options;

void at_dump_default_options(at_dump_options *o);
void at_dump_value(gt_strbuf *out, const gt_value *v, const at_dump_options *o);
void at_dump_call(gt_strbuf *out, const gt_call *c, const at_dump_options *o);
/* The header line for one trace property: // name = "value" */
void at_dump_property(gt_strbuf *out, const char *name, const char *value,
                      const at_dump_options *o);

#endif
