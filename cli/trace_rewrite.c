/* See trace_rewrite.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltrace_cmds.h"
#include "trace_rewrite.h"

enum { MAX_PROPERTIES = 64 };

/* The input's properties, those named in SET replaced, SET's new ones after them. */
static unsigned merge_properties(const at_reader *r, const trace_property *set, unsigned nset,
                                 at_writer_property *props)
{
    unsigned n = 0;
    for (unsigned i = 0; i < at_reader_num_properties(r) && n < MAX_PROPERTIES; ++i) {
        const at_property *p = at_reader_property(r, i);
        props[n].name = p->name;
        props[n].value = p->value;
        for (unsigned k = 0; k < nset; ++k)
            if (p->name && !strcmp(p->name, set[k].name))
                props[n].value = set[k].value;
        n++;
    }
    for (unsigned k = 0; k < nset && n < MAX_PROPERTIES; ++k) {
        bool found = false;
        for (unsigned i = 0; i < n; ++i)
            found = found || (props[i].name && !strcmp(props[i].name, set[k].name));
        if (!found) {
            props[n].name = set[k].name;
            props[n].value = set[k].value;
            n++;
        }
    }
    return n;
}

int trace_rewrite_open(trace_rewrite *t, const char *cmd, const char *in, const char *out,
                       const at_reader_options *ropt, const trace_property *set, unsigned nset)
{
    memset(t, 0, sizeof *t);
    t->cmd = cmd;
    t->out_path = out;
    gt_error err;
    gt_error_clear(&err);
    if (gt_outfile_begin(&t->out, out, &in, 1, &err) != 0) {
        fprintf(stderr, "%s: %s\n", cmd, err.msg);
        return -1;
    }
    t->began = true;
    t->r = at_reader_open(in, ropt, &err);
    if (t->r) {
        at_writer_property props[MAX_PROPERTIES];
        unsigned n = merge_properties(t->r, set, nset, props);
        t->w = at_writer_open(t->out.path, props, n, &err);
    }
    if (!t->w) {
        fprintf(stderr, "%s: %s\n", cmd, err.msg);
        trace_rewrite_close(t, 1);
        return -1;
    }
    return 0;
}

int trace_rewrite_close(trace_rewrite *t, int status)
{
    gt_error err;
    gt_error_clear(&err);
    const char *left = t->began ? gt_outfile_left(&t->out) : "";
    if (t->w && !at_writer_close(t->w, &err)) {
        fprintf(stderr, "%s: %s\n", t->cmd, err.msg);
        status = 1;
    }
    if (t->r)
        at_reader_close(t->r);
    if (t->began && status == 0 && gt_outfile_commit(&t->out, &err) != 0) {
        fprintf(stderr, "%s: %s\n", t->cmd, err.msg);
        status = 1;
    }
    if (t->began && status) {
        gt_outfile_abort(&t->out);
        fprintf(stderr, "%s: %s: %s\n", t->cmd, t->out_path, left);
    }
    memset(t, 0, sizeof *t);
    return status;
}

char *trace_default_output(const char *in, const char *suffix)
{
    size_t n = strlen(in), ns = strlen(suffix);
    if (n > 6 && !strcmp(in + n - 6, ".trace"))
        n -= 6;
    char *out = malloc(n + ns + 1);
    if (out) {
        memcpy(out, in, n);
        memcpy(out + n, suffix, ns + 1);
    }
    return out;
}
