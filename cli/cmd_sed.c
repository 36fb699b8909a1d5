/* gltrace sed: a new trace with symbols replaced, as `apitrace sed` writes it: each
 * `-e s/SEARCH/REPLACE/` replaces every string argument equal to SEARCH (whole
 * strings, also inside arrays and structs: glShaderSource's sources, uniform names) by
 * REPLACE, and every enum named SEARCH by the value its signature names REPLACE. SEARCH
 * or REPLACE written @file(PATH) is that file's contents (a shader to swap in). Calls
 * are renumbered from 0; --calls limits the replacing to some calls. Unlike apitrace,
 * an expression that replaces nothing, or an enum name its signature lacks, is an
 * error and no output is written. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltrace_cmds.h"
#include "gt_callset.h"
#include "gt_grow.h"
#include "gt_progress.h"
#include "trace_rewrite.h"

typedef struct subst {
    const char *expr; /* as given, for messages */
    char *search, *replace;
    size_t search_len, replace_len;
    uint64_t replaced;
    uint64_t unknown_enum; /* matches whose signature has no value named REPLACE */
    uint32_t unknown_call;
} subst;

typedef struct sed_job {
    subst *substs;
    size_t nsubsts, capsubsts;
    trace_property *props;
    size_t nprops, capprops;
    gt_callset calls;
    bool have_calls;
    const char *input, *output;
    char *default_output;
} sed_job;

static void usage(FILE *f)
{
    fputs("usage: gltrace sed [OPTIONS] TRACE\n"
          "Write a new trace with symbols replaced (numbered from 0), as `apitrace sed`.\n"
          "\n"
          "  -h, --help               show this help and exit\n"
          "  -e s/SEARCH/REPLACE/     replace string arguments equal to SEARCH, and enums\n"
          "                           named SEARCH, by REPLACE (repeatable). Any character\n"
          "                           may separate; @file(PATH) stands for PATH's contents\n"
          "      --calls=CALLSET      replace only in these calls; the others are copied\n"
          "      --property=NAME=VALUE  set a property of the trace (repeatable)\n"
          "  -o, --output=FILE        the output (default: TRACE without .trace, plus -sed.trace)\n"
          "\n"
          "An expression that replaces nothing is an error: no output is written.\n",
          f);
}

enum { OPT_CALLS = 256, OPT_PROPERTY };

static const struct option long_options[] = {
    {"help", no_argument, 0, 'h'},
    {"output", required_argument, 0, 'o'},
    {"calls", required_argument, 0, OPT_CALLS},
    {"property", required_argument, 0, OPT_PROPERTY},
    {0, 0, 0, 0},
};

/* The whole of PATH, NUL-terminated; NULL after saying why. */
static char *read_whole(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *data = NULL;
    size_t cap = 0, n = 0, got = 0;
    bool ok = f != NULL;
    while (ok) {
        ok = GT_GROW(data, cap, n + 65536 + 1, 65536) == 0;
        if (ok && (got = fread(data + n, 1, cap - n - 1, f)) == 0)
            break;
        n += got;
    }
    if (!ok || !f || ferror(f)) {
        fprintf(stderr, "gltrace sed: cannot read @file(%s)\n", path);
        free(data);
        data = NULL;
    } else {
        data[n] = '\0';
        *len = n;
    }
    if (f)
        fclose(f);
    return data;
}

/* TEXT (LEN bytes), or the contents of PATH when TEXT is @file(PATH). NULL after
 * saying why. */
static char *operand(const char *text, size_t len, size_t *out_len)
{
    char *r;
    if (len >= 7 && !strncmp(text, "@file(", 6) && text[len - 1] == ')') {
        char *path = strndup(text + 6, len - 7);
        r = path ? read_whole(path, out_len) : NULL;
        free(path);
        return r;
    }
    *out_len = len;
    if (!(r = strndup(text, len)))
        fprintf(stderr, "gltrace sed: out of memory\n");
    return r;
}

/* s/SEARCH/REPLACE/ with any separator after the s. 0, or -1 after saying why. */
static int parse_subst(sed_job *j, const char *expr)
{
    const char *p = expr;
    char sep = p[0] == 's' ? p[1] : 0;
    const char *s0 = sep ? p + 2 : NULL, *s1 = s0 ? strchr(s0, sep) : NULL;
    const char *r1 = s1 ? strchr(s1 + 1, sep) : NULL;
    if (!r1 || r1[1]) {
        fprintf(stderr, "gltrace sed: -e %s: expected s/SEARCH/REPLACE/\n", expr);
        return -1;
    }
    if (GT_GROW(j->substs, j->capsubsts, j->nsubsts + 1, 4) != 0) {
        fprintf(stderr, "gltrace sed: out of memory\n");
        return -1;
    }
    subst *s = &j->substs[j->nsubsts];
    memset(s, 0, sizeof *s);
    s->expr = expr;
    s->search = operand(s0, (size_t)(s1 - s0), &s->search_len);
    s->replace = s->search ? operand(s1 + 1, (size_t)(r1 - s1 - 1), &s->replace_len) : NULL;
    if (!s->search || !s->replace) {
        free(s->search);
        return -1;
    }
    j->nsubsts++;
    return 0;
}

static int parse_property(sed_job *j, char *arg)
{
    char *eq = strchr(arg, '=');
    if (!eq || eq == arg) {
        fprintf(stderr, "gltrace sed: --property %s: expected NAME=VALUE\n", arg);
        return -1;
    }
    if (GT_GROW(j->props, j->capprops, j->nprops + 1, 4) != 0) {
        fprintf(stderr, "gltrace sed: out of memory\n");
        return -1;
    }
    *eq = '\0'; /* argv is ours to cut */
    j->props[j->nprops++] = (trace_property){arg, eq + 1};
    return 0;
}

/* Returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, sed_job *j)
{
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:e:", long_options, NULL)) != -1) {
        gt_error err;
        gt_error_clear(&err);
        switch (c) {
        case 'h': usage(stdout); return 0;
        case 'e':
            if (parse_subst(j, optarg) != 0)
                return 2;
            break;
        case OPT_PROPERTY:
            if (parse_property(j, optarg) != 0)
                return 2;
            break;
        case OPT_CALLS:
            if (gt_callset_merge(&j->calls, optarg, &err) != 0) {
                fprintf(stderr, "gltrace sed: --calls: %s\n", err.msg);
                return 2;
            }
            j->have_calls = true;
            break;
        case 'o': j->output = optarg; break;
        default: usage(stderr); return 2;
        }
    }
    if (optind + 1 != argc) {
        fprintf(stderr, optind >= argc ? "gltrace sed: no trace file given\n"
                                       : "gltrace sed: one trace at a time\n");
        usage(stderr);
        return 2;
    }
    if (!j->nsubsts && !j->nprops) {
        fprintf(stderr, "gltrace sed: nothing to do: give -e s/SEARCH/REPLACE/ or --property\n");
        return 2;
    }
    j->input = argv[optind];
    if (!j->output) {
        if (!(j->default_output = trace_default_output(j->input, "-sed.trace"))) {
            fprintf(stderr, "gltrace sed: out of memory\n");
            return 1;
        }
        j->output = j->default_output;
    }
    return -1;
}

static void replace_enum(subst *s, gt_value *v, const gt_call *c)
{
    const char *name = gt_enum_name(v->en.sig, v->en.v);
    if (!name || strlen(name) != s->search_len || memcmp(name, s->search, s->search_len))
        return;
    for (uint32_t i = 0; i < v->en.sig->num_values; ++i) {
        const gt_enum_value *e = &v->en.sig->values[i];
        if (e->name && strlen(e->name) == s->replace_len &&
            !memcmp(e->name, s->replace, s->replace_len)) {
            v->en.v = e->value;
            s->replaced++;
            return;
        }
    }
    if (!s->unknown_enum++)
        s->unknown_call = c->no;
}

/* What apitrace's sed visits: strings and enums, inside arrays, structs and the human
 * side of a repr. */
static void replace_value(subst *s, gt_value *v, const gt_call *c)
{
    switch (v->kind) {
    case GT_STRING:
        if (v->str.s && v->str.len == s->search_len && !memcmp(v->str.s, s->search, s->search_len)) {
            v->str.s = s->replace;
            v->str.len = s->replace_len;
            s->replaced++;
        }
        break;
    case GT_ENUM:
        if (v->en.sig)
            replace_enum(s, v, c);
        break;
    case GT_ARRAY:
        for (size_t i = 0; i < v->arr.n; ++i)
            replace_value(s, &v->arr.items[i], c);
        break;
    case GT_STRUCT:
        for (uint32_t i = 0; v->st.sig && i < v->st.sig->num_members; ++i)
            replace_value(s, &v->st.members[i], c);
        break;
    case GT_REPR:
        if (v->repr.human)
            replace_value(s, v->repr.human, c);
        break;
    default: break;
    }
}

static void replace_call(sed_job *j, gt_call *c)
{
    if (j->have_calls && !gt_callset_contains(&j->calls, c->no, c->flags))
        return;
    for (size_t k = 0; k < j->nsubsts; ++k) {
        for (uint32_t i = 0; i < c->num_args; ++i)
            replace_value(&j->substs[k], &c->args[i], c);
        if (c->ret)
            replace_value(&j->substs[k], c->ret, c);
    }
}

static uint64_t edit_calls(sed_job *j, trace_rewrite *t)
{
    gt_progress prog;
    gt_progress_start(&prog, "sed", at_input_file_size(at_reader_input(t->r)), false);
    uint64_t n = 0;
    gt_call *c;
    while ((c = at_reader_next(t->r))) {
        gt_progress_update(&prog, at_input_file_pos(at_reader_input(t->r)), ++n);
        replace_call(j, c);
        at_writer_call(t->w, c);
        at_reader_release(t->r, c);
    }
    gt_progress_end(&prog);
    return n;
}

/* Every expression must have replaced something, and every enum it matched must have
 * had its new name: 0, or 1 after saying which did not. */
static int check_substs(const sed_job *j)
{
    int status = 0;
    for (size_t k = 0; k < j->nsubsts; ++k) {
        const subst *s = &j->substs[k];
        if (s->unknown_enum) {
            fprintf(stderr, "gltrace sed: -e %s: %" PRIu64 " enum(s) matched (first in call %u) "
                            "whose signature has no value named as the replacement\n",
                    s->expr, s->unknown_enum, s->unknown_call);
            status = 1;
        } else if (!s->replaced) {
            fprintf(stderr, "gltrace sed: -e %s: matches no string or enum of %s%s\n", s->expr,
                    j->input, j->have_calls ? " in the calls given" : "");
            status = 1;
        }
    }
    return status;
}

static void free_job(sed_job *j)
{
    for (size_t k = 0; k < j->nsubsts; ++k) {
        free(j->substs[k].search);
        free(j->substs[k].replace);
    }
    free(j->substs);
    free(j->props);
    gt_callset_free(&j->calls);
    free(j->default_output);
}

int cmd_sed(int argc, char **argv)
{
    sed_job j = {0};
    if (gt_callset_init_all(&j.calls) != 0) {
        fprintf(stderr, "gltrace sed: out of memory\n");
        return 1;
    }
    int status = parse_args(argc, argv, &j);
    if (status >= 0) {
        free_job(&j);
        return status;
    }
    trace_rewrite t;
    if (trace_rewrite_open(&t, "gltrace sed", j.input, j.output, NULL, j.props,
                           (unsigned)j.nprops) != 0) {
        free_job(&j);
        return 1;
    }
    uint64_t n = edit_calls(&j, &t);
    status = gltrace_report_end(t.r);
    if (status == 0)
        status = check_substs(&j);
    status = trace_rewrite_close(&t, status);
    if (status == 0)
        fprintf(stderr, "gltrace sed: %s: %" PRIu64 " calls; edited trace is %s\n", j.input, n,
                j.output);
    free_job(&j);
    return status;
}
