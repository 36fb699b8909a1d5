/* The text form of timeline events (see gt_timeline_text.h). */
#include "gt_timeline_text.h"

#include <inttypes.h>
#include <errno.h>
#include <string.h>

static void put_escaped(FILE *f, const char *s, size_t n)
{
    putc('"', f);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c == '\t')
            fputs("\\t", f);
        else if (c < 0x20 || c == 0x7f)
            fprintf(f, "\\x%02x", c);
        else
            putc(c, f);
    }
    putc('"', f);
}

static void put_str(FILE *f, const gt_timeline *tl, gt_tl_str id)
{
    uint32_t len;
    const char *s = gt_tl_str_get(tl, id, &len);
    /* names are printed bare unless they would break the line's fields */
    if (len && !memchr(s, '\t', len) && !memchr(s, '\n', len) && !memchr(s, '"', len))
        fwrite(s, 1, len, f);
    else if (len)
        put_escaped(f, s, len);
}

static void put_arg(FILE *f, const gt_timeline *tl, const gt_tl_arg *a)
{
    uint32_t len;
    const char *name = gt_tl_str_get(tl, a->name, &len);
    fwrite(name, 1, len, f);
    putc('=', f);
    switch (a->kind) {
    case GT_TL_ARG_NULL: fputs("null", f); break;
    case GT_TL_ARG_I32:
    case GT_TL_ARG_I64: fprintf(f, "%" PRId64, a->v.i); break;
    case GT_TL_ARG_U32:
    case GT_TL_ARG_U64: fprintf(f, "%" PRIu64, a->v.u); break;
    case GT_TL_ARG_DOUBLE: fprintf(f, "%.17g", a->v.d); break;
    case GT_TL_ARG_STRING: put_escaped(f, a->v.s.p, a->v.s.len); break;
    case GT_TL_ARG_JSON: fputs("json:", f); put_escaped(f, a->v.s.p, a->v.s.len); break;
    case GT_TL_ARG_POINTER: fprintf(f, "0x%" PRIx64, a->v.u); break;
    case GT_TL_ARG_KOID: fprintf(f, "koid:%" PRIu64, a->v.u); break;
    case GT_TL_ARG_BOOL: fputs(a->v.b ? "true" : "false", f); break;
    default: fputs("?", f); break;
    }
}

static void put_cswitch(FILE *f, const gt_tl_cswitch *c)
{
    fprintf(f, "cpu=%u out_pid=%" PRIu64 " out_tid=%" PRIu64 " in_pid=%" PRIu64 " in_tid=%" PRIu64
               " out_state=%u out_prio=%d in_prio=%d",
            c->cpu, c->out_pid, c->out_tid, c->in_pid, c->in_tid, c->out_state, c->out_prio,
            c->in_prio);
}

static int text_event(void *self, const gt_timeline *tl, const gt_tl_event *ev, gt_error *err)
{
    gt_tl_text *t = self;
    FILE *f = t->out;
    bool cs = ev->kind == GT_TL_CONTEXT_SWITCH;
    fprintf(f, "%s\t%" PRId64 "\t%" PRId64 "\t%" PRIu64 "\t%" PRIu64 "\t", gt_tl_kind_name(ev->kind),
            ev->ts, ev->dur, cs ? ev->cs.in_pid : ev->pid, cs ? ev->cs.in_tid : ev->tid);
    put_str(f, tl, ev->cat);
    putc('\t', f);
    put_str(f, tl, ev->name);
    fprintf(f, "\t%" PRIu64 "\t%u\t", ev->kind == GT_TL_STACK_FRAME ? ev->parent : ev->id, ev->stack);
    if (ev->kind == GT_TL_STACK_FRAME)
        fprintf(f, "frame=%" PRIu64 "%s", ev->id, ev->nargs ? " " : "");
    if (ev->kind == GT_TL_INSTANT || ev->kind == GT_TL_OBJECT)
        fprintf(f, "scope=%u%s", ev->scope, ev->nargs ? " " : "");
    if (cs)
        put_cswitch(f, &ev->cs);
    for (uint32_t i = 0; i < ev->nargs; i++) {
        if (i || cs)
            putc(' ', f);
        put_arg(f, tl, &ev->args[i]);
    }
    if (putc('\n', f) == EOF) {
        gt_error_set(err, "%s: write error: %s", t->name ? t->name : "output", strerror(errno));
        return -1;
    }
    return 0;
}

static int text_finish(void *self, const gt_timeline *tl, gt_error *err)
{
    (void)tl;
    gt_tl_text *t = self;
    if (fflush(t->out) != 0 || ferror(t->out)) {
        gt_error_set(err, "%s: write error: %s", t->name ? t->name : "output", strerror(errno));
        return -1;
    }
    return 0;
}

gt_tl_sink gt_tl_text_sink(gt_tl_text *t)
{
    return (gt_tl_sink){.self = t, .event = text_event, .finish = text_finish};
}
