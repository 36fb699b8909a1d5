/* trace_edit: writes a copy of a trace with calls left out, copied, added or with
 * arguments changed, to make the damaged traces of the replay robustness test
 * (tests/integration/replay_robust.sh). Calls are written whole (enter, then leave),
 * numbered anew in the order they are written.
 *
 *   usage: trace_edit IN OUT [--copy-from=TRACE] EDIT...
 *     --copy-from=TRACE     copy edits take their calls N..M from TRACE, not IN
 *     drop=N[-M]            leave out calls N..M
 *     copy=N-M@K            before call K, a copy of calls N..M
 *     insert@K=NAME(V,...)  before call K, a new call NAME (arguments named a0, a1, ...)
 *     set@K.I=V             argument I of call K becomes V
 *   values V: u:N i:N f:X p:N (pointer) n (NULL) s:TEXT b:N (N bytes of 0x7f)
 *     a:u:N:N... / a:i:... / a:f:... (arrays) e:N (an enum value: the argument's own
 *     enum signature when it has one) cut:N (the argument's blob or array cut to N
 *     bytes or items)
 * Numbers are C literals (0x.. too). K may be one past the last call (append). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "at_reader.h"
#include "at_writer.h"

#define MAX_EDITS 64
#define MAX_ARGS 16
#define NEW_SIG_ID 30000 /* beyond the signature ids of any trace we edit */

typedef struct edit {
    char op; /* 'd'rop, 'c'opy, 'i'nsert, 's'et */
    uint32_t a, b, at, arg;
    const char *name;         /* insert */
    const char *vals[MAX_ARGS]; /* insert: argument specs; set: vals[0] */
    unsigned nvals;
    gt_func_sig sig;          /* insert */
    const char *argnames[MAX_ARGS];
} edit;

static edit edits[MAX_EDITS];
static unsigned nedits;
static gt_call **copies[MAX_EDITS]; /* copy edits: the calls, read in a first pass */
static size_t ncopies[MAX_EDITS];
static gt_enum_sig bare_enum = {.id = NEW_SIG_ID};

static void die(const char *msg, const char *what)
{
    fprintf(stderr, "trace_edit: %s: %s\n", msg, what);
    exit(2);
}

static uint32_t num(const char **s)
{
    const char *start = *s;
    unsigned long v = strtoul(start, (char **)s, 0);
    if (*s == start)
        die("expected a number", start);
    return (uint32_t)v;
}

static void parse_edit(const char *arg)
{
    if (nedits == MAX_EDITS)
        die("too many edits", arg);
    edit *e = &edits[nedits++];
    const char *s = arg;
    if (!strncmp(s, "drop=", 5)) {
        s += 5;
        e->op = 'd';
        e->a = e->b = num(&s);
        if (*s == '-')
            ++s, e->b = num(&s);
    } else if (!strncmp(s, "copy=", 5)) {
        s += 5;
        e->op = 'c';
        e->a = num(&s);
        if (*s++ != '-')
            die("expected copy=N-M@K", arg);
        e->b = num(&s);
        if (*s++ != '@')
            die("expected copy=N-M@K", arg);
        e->at = num(&s);
    } else if (!strncmp(s, "insert@", 7)) {
        s += 7;
        e->op = 'i';
        e->at = num(&s);
        const char *open = strchr(s, '(');
        if (*s++ != '=' || !open || open[strlen(open) - 1] != ')')
            die("expected insert@K=NAME(V,...)", arg);
        e->name = strndup(s, (size_t)(open - s));
        char *list = strndup(open + 1, strlen(open + 1) - 1);
        for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
            if (e->nvals == MAX_ARGS)
                die("too many arguments", arg);
            char *n = malloc(8);
            snprintf(n, 8, "a%u", e->nvals);
            e->argnames[e->nvals] = n;
            e->vals[e->nvals++] = tok;
        }
        uint32_t id = NEW_SIG_ID + nedits; /* one signature a name, as in real traces */
        for (unsigned i = 0; i + 1 < nedits; ++i)
            if (edits[i].op == 'i' && !strcmp(edits[i].name, e->name))
                id = edits[i].sig.id;
        e->sig = (gt_func_sig){.id = id, .name = e->name, .num_args = e->nvals,
                               .arg_names = e->argnames};
    } else if (!strncmp(s, "set@", 4)) {
        s += 4;
        e->op = 's';
        e->at = num(&s);
        if (*s++ != '.')
            die("expected set@K.I=V", arg);
        e->arg = num(&s);
        if (*s++ != '=')
            die("expected set@K.I=V", arg);
        e->vals[0] = s;
        e->nvals = 1;
    } else {
        die("unknown edit", arg);
    }
}

/* Writes V (a value spec) for an argument whose traced value is OLD (or NULL). */
static void write_spec(at_writer *w, const char *v, const gt_value *old)
{
    const char *s = v + 2;
    if (!strcmp(v, "n")) {
        at_writer_null(w);
    } else if (!strncmp(v, "u:", 2)) {
        at_writer_uint(w, strtoull(s, NULL, 0));
    } else if (!strncmp(v, "i:", 2)) {
        at_writer_sint(w, strtoll(s, NULL, 0));
    } else if (!strncmp(v, "f:", 2)) {
        at_writer_float(w, strtof(s, NULL));
    } else if (!strncmp(v, "p:", 2)) {
        at_writer_pointer(w, strtoull(s, NULL, 0));
    } else if (!strncmp(v, "s:", 2)) {
        at_writer_cstring(w, s);
    } else if (!strncmp(v, "e:", 2)) {
        const gt_enum_sig *sig = old && old->kind == GT_ENUM ? old->en.sig : &bare_enum;
        at_writer_enum(w, sig, strtoll(s, NULL, 0));
    } else if (!strncmp(v, "b:", 2)) {
        size_t n = strtoull(s, NULL, 0);
        void *p = malloc(n ? n : 1);
        memset(p, 0x7f, n);
        at_writer_blob(w, p, n);
        free(p);
    } else if (!strncmp(v, "a:", 2) && v[2] && v[3] == ':') {
        char kind = v[2];
        size_t n = 0;
        for (const char *p = v + 3; *p; ++p)
            n += *p == ':';
        at_writer_begin_array(w, n);
        for (const char *p = v + 4; n--; p = strchr(p, ':') ? strchr(p, ':') + 1 : p) {
            if (kind == 'f')
                at_writer_float(w, strtof(p, NULL));
            else if (kind == 'i')
                at_writer_sint(w, strtoll(p, NULL, 0));
            else
                at_writer_uint(w, strtoull(p, NULL, 0));
        }
    } else if (!strncmp(v, "cut:", 4) && old) {
        size_t n = strtoull(v + 4, NULL, 0);
        gt_value c = *old;
        if (c.kind == GT_BLOB && c.blob.size > n)
            c.blob.size = n;
        else if (c.kind == GT_ARRAY && c.arr.n > n)
            c.arr.n = n;
        at_writer_value(w, &c);
    } else {
        die("bad value", v);
    }
}

static const char *set_spec(uint32_t no, uint32_t arg)
{
    for (unsigned i = 0; i < nedits; ++i)
        if (edits[i].op == 's' && edits[i].at == no && edits[i].arg == arg)
            return edits[i].vals[0];
    return NULL;
}

/* A whole call; SRC_NO is its number in the input (UINT32_MAX: a copy, unchanged). */
static void write_call(at_writer *w, const gt_call *c, uint32_t src_no)
{
    at_writer_begin_enter(w, c->sig, c->thread,
                          (c->flags & GT_CALL_FLAG_FAKE) ? AT_WRITER_FAKE : 0);
    for (int leave = 0; leave < 2; ++leave) {
        if (leave) {
            uint32_t no = at_writer_end_enter(w);
            at_writer_begin_leave(w, no);
        }
        for (uint32_t i = 0; i < c->num_args; ++i) {
            if (c->args[i].kind == GT_ABSENT || c->arg_at_leave[i] != leave)
                continue;
            const char *spec = src_no != UINT32_MAX ? set_spec(src_no, i) : NULL;
            at_writer_begin_arg(w, i);
            if (spec)
                write_spec(w, spec, &c->args[i]);
            else
                at_writer_value(w, &c->args[i]);
        }
    }
    if (c->ret) {
        at_writer_begin_return(w);
        at_writer_value(w, c->ret);
    }
    at_writer_end_leave(w);
}

static void write_new(at_writer *w, const edit *e)
{
    at_writer_begin_enter(w, &e->sig, 0, 0);
    for (unsigned i = 0; i < e->nvals; ++i) {
        at_writer_begin_arg(w, i);
        write_spec(w, e->vals[i], NULL);
    }
    uint32_t no = at_writer_end_enter(w);
    at_writer_begin_leave(w, no);
    at_writer_end_leave(w);
}

/* Everything that goes before input call NO (or at the end: NO past the last). */
static void write_before(at_writer *w, uint32_t no)
{
    for (unsigned i = 0; i < nedits; ++i) {
        if (edits[i].at != no)
            continue;
        if (edits[i].op == 'i')
            write_new(w, &edits[i]);
        for (size_t k = 0; edits[i].op == 'c' && k < ncopies[i]; ++k)
            write_call(w, copies[i][k], UINT32_MAX);
    }
}

static bool dropped(uint32_t no)
{
    for (unsigned i = 0; i < nedits; ++i)
        if (edits[i].op == 'd' && no >= edits[i].a && no <= edits[i].b)
            return true;
    return false;
}

/* First pass: the calls the copy edits need, kept with their reader. */
static at_reader *collect_copies(const char *in)
{
    gt_error err;
    gt_error_clear(&err);
    at_reader *r = at_reader_open(in, NULL, &err);
    if (!r)
        die(in, err.msg);
    gt_call *c;
    while ((c = at_reader_next(r))) {
        bool kept = false;
        for (unsigned i = 0; i < nedits; ++i) {
            if (edits[i].op != 'c' || c->no < edits[i].a || c->no > edits[i].b)
                continue;
            copies[i] = realloc(copies[i], (ncopies[i] + 1) * sizeof *copies[i]);
            copies[i][ncopies[i]++] = c;
            kept = true;
        }
        if (!kept)
            at_reader_release(r, c);
    }
    return r;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: trace_edit IN OUT [--copy-from=TRACE] EDIT...\n");
        return 2;
    }
    const char *copy_from = argv[1];
    int first_edit = 3;
    if (argc > 3 && !strncmp(argv[3], "--copy-from=", 12)) {
        copy_from = argv[3] + 12;
        first_edit = 4;
    }
    for (int i = first_edit; i < argc; ++i)
        parse_edit(argv[i]);
    at_reader *first = collect_copies(copy_from);
    gt_error err;
    gt_error_clear(&err);
    at_reader *r = at_reader_open(argv[1], NULL, &err);
    if (!r)
        die(argv[1], err.msg);
    at_writer_property props[64];
    unsigned np = at_reader_num_properties(r) < 64 ? at_reader_num_properties(r) : 64;
    for (unsigned i = 0; i < np; ++i)
        props[i] = (at_writer_property){at_reader_property(r, i)->name,
                                        at_reader_property(r, i)->value};
    at_writer *w = at_writer_open(argv[2], props, np, &err);
    if (!w)
        die(argv[2], err.msg);
    gt_call *c;
    uint32_t next = 0;
    while ((c = at_reader_next(r))) {
        write_before(w, c->no);
        if (!dropped(c->no))
            write_call(w, c, c->no);
        next = c->no + 1;
        at_reader_release(r, c);
    }
    write_before(w, next);
    if (!at_writer_close(w, &err))
        die(argv[2], err.msg);
    at_reader_close(r);
    at_reader_close(first); /* the copies go with it */
    return 0;
}
