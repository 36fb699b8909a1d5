/* gltrace leaks: the GL objects a trace creates and never deletes, as `apitrace leaks`
 * (scripts/leaks.py) reports them: "CALL: error: KIND NAME was not destroyed until
 * CALL|<EOF>", per kind sorted by the creating call, when the last context is
 * destroyed and at the end of the trace. The functions followed come from the
 * registry and specs/leaks.txt (leaks_objects.h). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "at_reader.h"
#include "gltrace_cmds.h"
#include "gt_grow.h"
#include "leaks_objects.h"

static void usage(FILE *f)
{
    fputs("usage: gltrace leaks [OPTIONS] TRACE\n"
          "Report the GL objects (buffers, textures, framebuffers, programs, ...) a trace\n"
          "creates and never deletes, as `apitrace leaks` does (which follows buffers and\n"
          "textures only), on stdout.\n"
          "\n"
          "  -h, --help              show this help and exit\n"
          "  --contexts              say which context was current at each creation\n"
          "  --exit-code             exit with 1 when an object leaks (apitrace: 0)\n"
          "  -a, --apitrace=PROGRAM  accepted for apitrace's scripts, ignored\n",
          f);
}

enum { OPT_CONTEXTS = 256, OPT_EXIT_CODE };

static const struct option long_options[] = {
    {"help", no_argument, 0, 'h'},
    {"contexts", no_argument, 0, OPT_CONTEXTS},
    {"exit-code", no_argument, 0, OPT_EXIT_CODE},
    {"apitrace", required_argument, 0, 'a'},
    {0, 0, 0, 0},
};

typedef struct leaks {
    lk_state st;
    const lk_func **by_sig; /* per signature id: its row, or NULL; resolved once */
    uint8_t *resolved;
    size_t nsig;
    uint64_t ctx;       /* the context current on the last call (--contexts) */
    unsigned contexts;  /* created and not destroyed */
    int show_ctx, leaked, oom;
} leaks;

static const lk_func *row_of(leaks *l, const gt_call *c)
{
    uint32_t id = c->sig->id;
    if (id >= l->nsig) {
        size_t cap = l->nsig, cap2 = l->nsig;
        if (GT_GROW(l->by_sig, cap, (size_t)id + 1, 256) < 0 || GT_GROW(l->resolved, cap2, cap, 256) < 0) {
            l->oom = 1;
            return NULL;
        }
        memset(l->by_sig + l->nsig, 0, (cap - l->nsig) * sizeof *l->by_sig);
        memset(l->resolved + l->nsig, 0, (cap - l->nsig) * sizeof *l->resolved);
        l->nsig = cap;
    }
    if (!l->resolved[id]) {
        l->by_sig[id] = lk_lookup(c->sig->name);
        l->resolved[id] = 1;
    }
    return l->by_sig[id];
}

static const gt_value *arg_named(const gt_call *c, const char *name)
{
    for (uint32_t i = 0; i < c->sig->num_args && i < c->num_args; ++i)
        if (c->sig->arg_names[i] && !strcmp(c->sig->arg_names[i], name))
            return &c->args[i];
    return NULL;
}

static void report(leaks *l, const char *until)
{
    for (size_t i = 0; i < l->st.n; ++i) {
        lk_entry *e;
        size_t n;
        if (lk_take_alive(&l->st.kinds[i], &e, &n) < 0) {
            l->oom = 1;
            return;
        }
        for (size_t k = 0; k < n; ++k) {
            printf("%" PRIu32 ": error: %s %" PRIu64 " was not destroyed until %s", e[k].call_no,
                   l->st.kinds[i].kind, e[k].name, until);
            if (l->show_ctx)
                printf(" (created in context 0x%" PRIx64 ")", e[k].ctx);
            putchar('\n');
        }
        l->leaked |= n > 0;
        free(e);
    }
}

/* The names a creating or deleting call holds: the array `arg`, `count` items of it,
 * or the single value. */
static void each_name(leaks *l, const gt_call *c, const lk_func *f, lk_kind *k)
{
    const gt_value *v = f->op == LK_RET ? c->ret : arg_named(c, f->arg);
    if (!v)
        return;
    if (v->kind != GT_ARRAY) {
        uint64_t name = gt_value_uint(v);
        if (f->op == LK_DELETE)
            lk_delete(k, name);
        else if (name && lk_create(k, name, c->no, l->ctx) < 0)
            l->oom = 1;
        return;
    }
    const gt_value *cv = f->count[0] ? arg_named(c, f->count) : NULL;
    uint64_t n = cv ? gt_value_uint(cv) : v->arr.n;
    for (size_t i = 0; i < v->arr.n && i < n; ++i) {
        uint64_t name = gt_value_uint(&v->arr.items[i]);
        if (f->op == LK_DELETE)
            lk_delete(k, name);
        else if (lk_create(k, name, c->no, l->ctx) < 0)
            l->oom = 1;
    }
}

static void on_call(leaks *l, const gt_call *c)
{
    if (c->flags & GT_CALL_FLAG_NO_SIDE_EFFECTS)
        return; /* as apitrace */
    const lk_func *f = row_of(l, c);
    if (!f)
        return;
    if (f->op == LK_CTX_CREATE) {
        ++l->contexts;
    } else if (f->op == LK_CTX_DESTROY) {
        if (l->contexts && --l->contexts == 0) {
            char no[16];
            snprintf(no, sizeof no, "%" PRIu32, c->no);
            report(l, no);
        }
    } else if (f->op == LK_CURRENT) {
        const gt_value *v = arg_named(c, f->arg);
        l->ctx = v ? gt_value_uint(v) : 0;
    } else {
        lk_kind *k = lk_kind_get(&l->st, f->kind);
        if (!k)
            l->oom = 1;
        else
            each_name(l, c, f, k);
    }
}

int cmd_leaks(int argc, char **argv)
{
    leaks l = {0};
    int exit_code = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ha:", long_options, NULL)) != -1) {
        switch (c) {
        case 'h': usage(stdout); return 0;
        case OPT_CONTEXTS: l.show_ctx = 1; break;
        case OPT_EXIT_CODE: exit_code = 1; break;
        case 'a': break;
        default: usage(stderr); return 2;
        }
    }
    if (argc - optind != 1) {
        fprintf(stderr, "gltrace leaks: expected one trace (--help)\n");
        return 2;
    }
    gt_error err;
    gt_error_clear(&err);
    at_reader_options ropt = {.skip_blob_data = true};
    at_reader *r = at_reader_open(argv[optind], &ropt, &err);
    if (!r) {
        fprintf(stderr, "gltrace leaks: %s\n", err.msg);
        return 1;
    }
    gt_call *call;
    while (!l.oom && (call = at_reader_next(r))) {
        on_call(&l, call);
        at_reader_release(r, call);
    }
    int status = gltrace_report_end(r);
    if (!l.oom)
        report(&l, "<EOF>");
    if (l.oom) {
        fprintf(stderr, "gltrace leaks: %s: out of memory\n", argv[optind]);
        status = 1;
    } else if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "gltrace leaks: cannot write to stdout: %s\n", strerror(errno));
        status = 1;
    } else if (status == 0 && exit_code && l.leaked) {
        status = 1;
    }
    at_reader_close(r);
    free(l.by_sig);
    free(l.resolved);
    lk_state_free(&l.st);
    return status;
}
