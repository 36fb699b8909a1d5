/* gltrace check's traces file (check_yaml.h): libyaml's document tree, whose nodes
 * carry their positions, walked for one device. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "check_yaml.h"
#include "gt_grow.h"
#include "gt_outfile.h"

typedef struct walk {
    const char *file, *device;
    yaml_document_t *doc;
    check_list *out;
    int oom;
} walk;

static yaml_node_t *node(walk *w, int id) { return yaml_document_get_node(w->doc, id); }

static const char *scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* The value of KEY in mapping M, or NULL. */
static yaml_node_t *get(walk *w, yaml_node_t *m, const char *key)
{
    if (!m || m->type != YAML_MAPPING_NODE)
        return NULL;
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; ++p) {
        const char *k = scalar(node(w, p->key));
        if (k && !strcmp(k, key))
            return node(w, p->value);
    }
    return NULL;
}

static check_trace *add_trace(walk *w, const char *path, const yaml_node_t *at)
{
    check_list *l = w->out;
    if (GT_GROW(l->t, l->cap, l->n + 1, 16) != 0) {
        w->oom = 1;
        return NULL;
    }
    check_trace *t = &l->t[l->n];
    memset(t, 0, sizeof *t);
    t->line = at->start_mark.line + 1;
    if (!(t->path = strdup(path ? path : ""))) {
        w->oom = 1;
        return NULL;
    }
    l->n++;
    return t;
}

static void set_bad(walk *w, check_trace *t, const yaml_node_t *at, const char *why)
{
    size_t n = strlen(w->file) + strlen(why) + 32;
    if (!t->bad && (t->bad = malloc(n)))
        snprintf(t->bad, n, "%s:%zu: %s", w->file, (size_t)at->start_mark.line + 1, why);
    w->oom |= !t->bad;
}

/* Where libyaml's mark lies in the file's bytes: libyaml 0.2.5 counts characters, so
 * the code points are walked (after a UTF-8 byte order mark, which it does not count).
 * The result is trusted only when the bytes there are the scalar's. */
static size_t byte_of_char(const char *text, size_t len, size_t chars)
{
    size_t i = len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3) ? 3 : 0;
    for (; i < len && chars; --chars)
        for (++i; i < len && ((unsigned char)text[i] & 0xc0) == 0x80; ++i)
            ; /* the code point's continuation bytes */
    return i;
}

static bool sum_at(const check_list *l, const yaml_node_t *n, size_t start, size_t end)
{
    const char *v = (const char *)n->data.scalar.value;
    if (end > l->len || start >= end)
        return false;
    if (n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE)
        return end - start == strlen(v) && !memcmp(l->text + start, v, end - start);
    char q = n->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ? '\'' : '"';
    return l->text[start] == q && l->text[end - 1] == q;
}

static void note_sum_pos(walk *w, check_trace *t, const yaml_node_t *n)
{
    const check_list *l = w->out;
    int style = n->data.scalar.style;
    if (style != YAML_PLAIN_SCALAR_STYLE && style != YAML_SINGLE_QUOTED_SCALAR_STYLE &&
        style != YAML_DOUBLE_QUOTED_SCALAR_STYLE)
        return; /* block scalars are left alone by --update */
    size_t s = n->start_mark.index, e = n->end_mark.index;
    if (!sum_at(l, n, s, e)) {
        s = byte_of_char(l->text, l->len, n->start_mark.index);
        e = byte_of_char(l->text, l->len, n->end_mark.index);
        if (!sum_at(l, n, s, e))
            return;
    }
    t->sum_start = s;
    t->sum_end = e;
    t->sum_quote = style == YAML_PLAIN_SCALAR_STYLE ? 0
                   : style == YAML_SINGLE_QUOTED_SCALAR_STYLE ? '\'' : '"';
    t->has_sum_pos = true;
}

static void take_checksum(walk *w, check_trace *t, yaml_node_t *n)
{
    if (!n)
        return;
    const char *v = scalar(n);
    if (!v) {
        set_bad(w, t, n, "checksum is not a string");
        return;
    }
    if (!(t->checksum = strdup(v))) {
        w->oom = 1;
        return;
    }
    note_sum_pos(w, t, n);
}

static void add_label(walk *w, check_trace *t, const char *s)
{
    size_t old = t->labels ? strlen(t->labels) : 0;
    char *p = realloc(t->labels, old + strlen(s) + 3);
    if (!p) {
        w->oom = 1;
        return;
    }
    sprintf(p + old, "%s%s", old ? ", " : "", s);
    t->labels = p;
    /* the labels Mesa's CI skips a trace for (its traces.yml, piglit's replayer) */
    static const char *const skips[] = {"skip", "hang", "crash", "fail", "unsupported"};
    for (size_t i = 0; i < sizeof skips / sizeof *skips; ++i)
        if (!strcmp(s, skips[i]))
            t->label_bits |= CHECK_LABEL_SKIP;
    if (!strcmp(s, "no-perf"))
        t->label_bits |= CHECK_LABEL_NO_PERF;
}

/* `label: skip` or `label: [skip, flakes]` */
static void take_labels(walk *w, check_trace *t, yaml_node_t *n)
{
    if (!n)
        return;
    if (scalar(n)) {
        add_label(w, t, scalar(n));
        return;
    }
    if (n->type != YAML_SEQUENCE_NODE) {
        set_bad(w, t, n, "label is neither a string nor a list");
        return;
    }
    for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top; ++i) {
        const char *s = scalar(node(w, *i));
        if (s)
            add_label(w, t, s);
        else
            set_bad(w, t, node(w, *i), "a label is not a string");
    }
}

/* Mesa's form: path -> device -> {checksum, label, ...} */
static void walk_mapping(walk *w, yaml_node_t *traces)
{
    for (yaml_node_pair_t *p = traces->data.mapping.pairs.start;
         p < traces->data.mapping.pairs.top && !w->oom; ++p) {
        yaml_node_t *k = node(w, p->key), *v = node(w, p->value);
        yaml_node_t *dev = get(w, v, w->device);
        if (!dev && v && v->type == YAML_MAPPING_NODE)
            continue; /* another device's trace */
        check_trace *t = add_trace(w, scalar(k), k);
        if (!t)
            return;
        if (!scalar(k))
            set_bad(w, t, k, "a trace's path is not a string");
        else if (!v || v->type != YAML_MAPPING_NODE)
            set_bad(w, t, v ? v : k, "a trace's devices are not a mapping");
        else if (dev->type != YAML_MAPPING_NODE)
            set_bad(w, t, dev, "the device's entry is not a mapping");
        else {
            take_checksum(w, t, get(w, dev, "checksum"));
            take_labels(w, t, get(w, dev, "label"));
        }
    }
}

/* piglit's older form: [{path, expectations: [{device, checksum}]}] */
static void walk_list(walk *w, yaml_node_t *traces)
{
    for (yaml_node_item_t *i = traces->data.sequence.items.start;
         i < traces->data.sequence.items.top && !w->oom; ++i) {
        yaml_node_t *e = node(w, *i), *exps = get(w, e, "expectations"), *mine = NULL;
        if (exps && exps->type == YAML_SEQUENCE_NODE)
            for (yaml_node_item_t *x = exps->data.sequence.items.start;
                 x < exps->data.sequence.items.top && !mine; ++x) {
                const char *d = scalar(get(w, node(w, *x), "device"));
                if (d && !strcmp(d, w->device))
                    mine = node(w, *x);
            }
        if (!mine)
            continue; /* piglit lists only the traces that name the device */
        yaml_node_t *path = get(w, e, "path");
        check_trace *t = add_trace(w, scalar(path), path ? path : e);
        if (!t)
            return;
        if (!scalar(path))
            set_bad(w, t, path ? path : e, "a trace without a path");
        else
            take_checksum(w, t, get(w, mine, "checksum"));
    }
}

static int read_all(const char *path, check_list *l, gt_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        gt_error_set(err, "%s: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 0;
    int rc = 0;
    for (;;) {
        if (GT_GROW(l->text, cap, l->len + 65536 + 1, 65536) != 0) {
            gt_error_set(err, "%s: out of memory", path);
            rc = -1;
            break;
        }
        size_t n = fread(l->text + l->len, 1, 65536, f);
        l->len += n;
        if (n < 65536)
            break;
    }
    if (rc == 0 && ferror(f)) {
        gt_error_set(err, "%s: %s", path, strerror(errno));
        rc = -1;
    }
    fclose(f);
    if (rc == 0)
        l->text[l->len] = 0;
    return rc;
}

static int walk_doc(const char *path, const char *device, yaml_document_t *doc, check_list *out,
                    gt_error *err)
{
    walk w = {.file = path, .device = device, .doc = doc, .out = out};
    yaml_node_t *root = yaml_document_get_root_node(doc);
    if (!root || (root->type == YAML_SCALAR_NODE && !*scalar(root)))
        return 0; /* an empty file lists nothing, as piglit's */
    if (root->type != YAML_MAPPING_NODE) {
        gt_error_set(err, "%s:%zu:%zu: not a mapping (traces: ...)", path,
                     (size_t)root->start_mark.line + 1, (size_t)root->start_mark.column + 1);
        return -1;
    }
    yaml_node_t *traces = get(&w, root, "traces");
    if (!traces || (scalar(traces) && !*scalar(traces)))
        return 0;
    if (traces->type == YAML_MAPPING_NODE)
        walk_mapping(&w, traces);
    else if (traces->type == YAML_SEQUENCE_NODE) {
        out->list_form = true;
        walk_list(&w, traces);
    } else {
        gt_error_set(err, "%s:%zu:%zu: traces is neither a mapping nor a list", path,
                     (size_t)traces->start_mark.line + 1, (size_t)traces->start_mark.column + 1);
        return -1;
    }
    if (w.oom) {
        gt_error_set(err, "%s: out of memory", path);
        return -1;
    }
    return 0;
}

/* check_yaml_load without freeing what a failure leaves in out */
static int load(const char *path, const char *device, check_list *out, gt_error *err)
{
    if (read_all(path, out, err) != 0)
        return -1;
    yaml_parser_t parser;
    yaml_document_t doc;
    if (!yaml_parser_initialize(&parser)) {
        gt_error_set(err, "%s: out of memory", path);
        return -1;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)out->text, out->len);
    int rc = -1;
    if (!yaml_parser_load(&parser, &doc)) {
        gt_error_set(err, "%s:%zu:%zu: not YAML: %s%s%s", path,
                     (size_t)parser.problem_mark.line + 1, (size_t)parser.problem_mark.column + 1,
                     parser.problem ? parser.problem : "unreadable",
                     parser.context ? " " : "", parser.context ? parser.context : "");
    } else {
        rc = walk_doc(path, device, &doc, out, err);
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&parser);
    return rc;
}

int check_yaml_load(const char *path, const char *device, check_list *out, gt_error *err)
{
    memset(out, 0, sizeof *out);
    if (load(path, device, out, err) == 0)
        return 0;
    check_list_free(out); /* a failure leaves nothing to free */
    return -1;
}

void check_list_free(check_list *l)
{
    for (size_t i = 0; i < l->n; ++i) {
        free(l->t[i].path);
        free(l->t[i].checksum);
        free(l->t[i].labels);
        free(l->t[i].bad);
    }
    free(l->t);
    free(l->text);
    memset(l, 0, sizeof *l);
}

/* The checksums to rewrite, by position in the file (a trace may be listed twice). */
typedef struct sum_ref {
    size_t start, i;
} sum_ref;

static int cmp_pos(const void *a, const void *b)
{
    size_t x = ((const sum_ref *)a)->start, y = ((const sum_ref *)b)->start;
    return x < y ? -1 : x > y;
}

static int write_updated(FILE *f, const check_list *l, char *const *sums, const sum_ref *order,
                         size_t n)
{
    size_t at = 0;
    for (size_t k = 0; k < n; ++k) {
        const check_trace *t = &l->t[order[k].i];
        if (t->sum_start < at)
            continue; /* the same scalar twice (an alias): written once */
        fwrite(l->text + at, 1, t->sum_start - at, f);
        if (t->sum_quote)
            fprintf(f, "%c%s%c", t->sum_quote, sums[order[k].i], t->sum_quote);
        else
            fputs(sums[order[k].i], f);
        at = t->sum_end;
    }
    fwrite(l->text + at, 1, l->len - at, f);
    return ferror(f) ? -1 : 0;
}

int check_yaml_update(const char *path, const check_list *l, char *const *sums, size_t *changed,
                      gt_error *err)
{
    sum_ref *order = malloc((l->n ? l->n : 1) * sizeof *order);
    size_t n = 0;
    if (!order) {
        gt_error_set(err, "%s: out of memory", path);
        return -1;
    }
    for (size_t i = 0; i < l->n; ++i)
        if (sums[i] && l->t[i].has_sum_pos && strcmp(sums[i], l->t[i].checksum))
            order[n++] = (sum_ref){l->t[i].sum_start, i};
    *changed = n;
    int rc = 0;
    if (n) {
        qsort(order, n, sizeof *order, cmp_pos);
        gt_outfile o;
        FILE *f = NULL;
        rc = gt_outfile_begin(&o, path, NULL, 0, err);
        if (rc == 0 && !(f = gt_outfile_open(&o))) {
            gt_error_set(err, "%s: %s", o.path, strerror(errno));
            gt_outfile_abort(&o);
            rc = -1;
        } else if (rc == 0) {
            int wrc = write_updated(f, l, sums, order, n);
            if (fclose(f) != 0 || wrc != 0) {
                gt_error_set(err, "%s: writing failed: %s", path, strerror(errno));
                gt_outfile_abort(&o);
                rc = -1;
            } else
                rc = gt_outfile_commit(&o, err);
        }
    }
    free(order);
    return rc;
}
