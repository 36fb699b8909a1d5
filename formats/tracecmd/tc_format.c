/* Event format files (events/<system>/<event>/format) and header_page: what
 * the generic event decoder needs of them — id, name, and for each field its
 * offset, size, signedness and kind (integer, char array, __data_loc string,
 * other arrays). The print fmt is not needed and not parsed. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "gt_grow.h"
#include "tc_internal.h"

typedef struct line {
    const char *s;
    size_t n;
} line;

static bool starts(line l, const char *p)
{
    size_t n = strlen(p);
    return l.n >= n && memcmp(l.s, p, n) == 0;
}

static line trim(line l)
{
    while (l.n && isspace((unsigned char)l.s[0]))
        l.s++, l.n--;
    while (l.n && isspace((unsigned char)l.s[l.n - 1]))
        l.n--;
    return l;
}

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        if (n) /* s may be NULL when n is 0 */
            memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

/* "key:NUMBER;" inside a field line; false if absent or not a number */
static bool attr_num(line l, const char *key, uint64_t *v)
{
    size_t k = strlen(key);
    for (size_t i = 0; i + k <= l.n; i++) {
        if (memcmp(l.s + i, key, k) != 0 || (i && l.s[i - 1] != '\t' && l.s[i - 1] != ' ' && l.s[i - 1] != ';'))
            continue;
        size_t j = i + k;
        uint64_t x = 0;
        size_t digits = 0;
        while (j < l.n && isdigit((unsigned char)l.s[j]) && digits < 19)
            x = x * 10 + (uint64_t)(l.s[j++] - '0'), digits++;
        if (!digits || (j < l.n && l.s[j] != ';'))
            return false;
        *v = x;
        return true;
    }
    return false;
}

static bool word_is(const char *s, size_t n, const char *w)
{
    return strlen(w) == n && memcmp(s, w, n) == 0;
}

/* Size of one element of a named C type, 0 if unknown. */
static uint32_t type_size(const char *t, size_t n, unsigned long_size)
{
    while (n && t[n - 1] == ' ')
        n--;
    if (n && t[n - 1] == '*')
        return long_size;
    static const struct { const char *name; uint32_t size; } known[] = {
        {"char", 1}, {"signed char", 1}, {"unsigned char", 1}, {"u8", 1}, {"s8", 1}, {"bool", 1},
        {"__u8", 1}, {"short", 2}, {"unsigned short", 2}, {"u16", 2}, {"s16", 2}, {"__u16", 2},
        {"int", 4}, {"unsigned int", 4}, {"unsigned", 4}, {"u32", 4}, {"s32", 4}, {"__u32", 4},
        {"pid_t", 4}, {"gfp_t", 4}, {"u64", 8}, {"s64", 8}, {"__u64", 8}, {"long long", 8},
        {"unsigned long long", 8}, {"dma_addr_t", 8},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (word_is(t, n, known[i].name))
            return known[i].size;
    if (word_is(t, n, "long") || word_is(t, n, "unsigned long"))
        return long_size;
    return 0;
}

static bool type_is_char(const char *t, size_t n)
{
    while (n && t[n - 1] == ' ')
        n--;
    if (n > 6 && memcmp(t, "const ", 6) == 0)
        t += 6, n -= 6;
    return word_is(t, n, "char") || word_is(t, n, "signed char");
}

static bool type_unsigned(const char *t, size_t n)
{
    return (n >= 8 && memcmp(t, "unsigned", 8) == 0) || (n >= 1 && t[0] == 'u' && n <= 3) ||
           (n >= 3 && memcmp(t, "__u", 3) == 0) || (n && t[n - 1] == '*') || word_is(t, n, "bool");
}

typedef struct decl {
    line type;
    bool loc, rel, array;
    uint64_t count; /* of a fixed array; 0 if not a number */
} decl;

/* Splits "TYPE NAME", "TYPE NAME[N]", "__data_loc TYPE[] NAME" into its parts;
 * the name goes to f->name. */
static int split_decl(line d, tc_field *f, decl *out, const char **why)
{
    *out = (decl){0};
    if (starts(d, "__data_loc ")) {
        out->loc = true;
        d.s += 11, d.n -= 11;
    } else if (starts(d, "__rel_loc ")) {
        out->loc = out->rel = true;
        d.s += 10, d.n -= 10;
    }
    d = trim(d);
    size_t end = d.n;
    if (!out->loc && end && d.s[end - 1] == ']') { /* TYPE NAME[N] */
        const char *o = memchr(d.s, '[', d.n);
        if (!o)
            return *why = "unbalanced [ in field", -1;
        end = (size_t)(o - d.s);
        out->array = true;
        for (size_t i = end + 1; i < d.n - 1 && isdigit((unsigned char)d.s[i]); i++)
            out->count = out->count * 10 + (uint64_t)(d.s[i] - '0');
    }
    size_t ns = end;
    while (ns && (isalnum((unsigned char)d.s[ns - 1]) || d.s[ns - 1] == '_'))
        ns--;
    if (ns == end)
        return *why = "field without a name", -1;
    out->type = trim((line){d.s, ns});
    if (out->loc) { /* "char[]" */
        const char *b = memchr(out->type.s, '[', out->type.n);
        if (b)
            out->type.n = (size_t)(b - out->type.s);
        out->type = trim(out->type);
    }
    if (!out->type.n)
        return *why = "field without a type", -1;
    if (!(f->name = dup_n(d.s + ns, end - ns)))
        return *why = "out of memory", -1;
    return 0;
}

/* The field's kind and element size from its declaration and size. */
static void field_kind(tc_field *f, const decl *d, unsigned long_size)
{
    const char *t = d->type.s;
    size_t n = d->type.n;
    bool chars = type_is_char(t, n);
    uint32_t esz = type_size(t, n, long_size);
    f->rel = d->rel;
    if (f->kind == 0xff) /* no signed: attribute (old kernels): from the type */
        f->is_signed = !type_unsigned(t, n);
    if (d->loc) {
        f->kind = chars ? TC_F_LOC_STR : TC_F_LOC_ARRAY;
        f->elem = esz ? esz : 1;
    } else if (d->array || f->size == 0) { /* size 0: "char buf; size:0", a flexible array */
        f->kind = chars ? TC_F_CHARS : TC_F_ARRAY;
        f->elem = chars ? 1 : esz ? esz : d->count ? (uint32_t)(f->size / d->count) : 1;
        if (!f->elem)
            f->elem = 1;
        f->tail = f->size == 0;
    } else {
        bool intsz = f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8;
        f->kind = intsz ? TC_F_INT : TC_F_BYTES;
        f->elem = f->size;
    }
}

static int parse_field(line l, tc_field *f, unsigned long_size, const char **why)
{
    /* "field:DECL;\toffset:N;\tsize:N;\tsigned:N;" */
    const char *c = memchr(l.s, ':', l.n);
    const char *semi = c ? memchr(c, ';', l.n - (size_t)(c - l.s)) : NULL;
    if (!semi)
        return *why = "field line without a declaration", -1;
    line rest = {semi + 1, l.n - (size_t)(semi + 1 - l.s)};
    uint64_t off, size, sgn;
    if (!attr_num(rest, "offset:", &off) || !attr_num(rest, "size:", &size))
        return *why = "field without offset or size", -1;
    if (off > UINT32_MAX || size > UINT32_MAX)
        return *why = "field offset or size out of range", -1;
    memset(f, 0, sizeof *f);
    f->offset = (uint32_t)off;
    f->size = (uint32_t)size;
    if (attr_num(rest, "signed:", &sgn))
        f->is_signed = sgn != 0;
    else
        f->kind = 0xff; /* old kernels: no signed: attribute */
    decl d;
    if (split_decl(trim((line){c + 1, (size_t)(semi - c - 1)}), f, &d, why) < 0)
        return -1;
    field_kind(f, &d, long_size);
    f->common = strncmp(f->name, "common_", 7) == 0;
    return 0;
}

/* Our own events (tc_writer.h) read back as the slices and instants they were. */
static uint8_t gl_kind(const tc_event *e)
{
    if (strcmp(e->name, "call") == 0 && tc_event_field(e, "dur") && tc_event_field(e, "call"))
        return TC_EV_GL_CALL;
    if (strcmp(e->name, "begin") == 0)
        return TC_EV_GL_BEGIN;
    if (strcmp(e->name, "end") == 0)
        return TC_EV_GL_END;
    if (strcmp(e->name, "instant") == 0)
        return TC_EV_GL_INSTANT;
    return TC_EV_PLAIN;
}

static void classify(tc_event *e)
{
    bool ftrace = strcmp(e->system, "ftrace") == 0;
    if (strcmp(e->system, "sched") == 0 && strcmp(e->name, "sched_switch") == 0 &&
        tc_event_field(e, "prev_pid") && tc_event_field(e, "next_pid"))
        e->special = TC_EV_SCHED_SWITCH;
    else if (ftrace && strcmp(e->name, "funcgraph_entry") == 0 && tc_event_field(e, "func"))
        e->special = TC_EV_FGRAPH_ENTRY;
    else if (ftrace && strcmp(e->name, "funcgraph_exit") == 0 && tc_event_field(e, "func"))
        e->special = TC_EV_FGRAPH_EXIT;
    else if (ftrace && strcmp(e->name, "kernel_stack") == 0 && tc_event_field(e, "caller"))
        e->special = TC_EV_KSTACK;
    else if (ftrace && strcmp(e->name, "bprint") == 0 && tc_event_field(e, "fmt"))
        e->special = TC_EV_BPRINT;
    else if (ftrace && strcmp(e->name, "function") == 0 && tc_event_field(e, "ip"))
        e->special = TC_EV_FUNCTION;
    else if (strcmp(e->system, "gltrace") == 0 && tc_event_field(e, "name") && tc_event_field(e, "cat"))
        e->special = gl_kind(e);
    e->pid_field = -1;
    for (uint32_t i = 0; i < e->nfields; i++)
        if (strcmp(e->fields[i].name, "common_pid") == 0 && e->fields[i].kind == TC_F_INT)
            e->pid_field = (int)i;
}

static void event_free(tc_event *e)
{
    for (uint32_t i = 0; i < e->nfields; i++)
        free(e->fields[i].name);
    free(e->fields);
    free(e->system);
    free(e->name);
}

static int add_field(tc_event *e, const tc_field *f)
{
    /* not gt_grow: tc_event keeps no capacity, it is implied by nfields */
    if ((e->nfields & (e->nfields - 1)) == 0 || e->nfields == 0) {
        uint32_t cap = e->nfields ? e->nfields * 2 : 8;
        tc_field *nf = realloc(e->fields, cap * sizeof *nf);
        if (!nf)
            return -1;
        e->fields = nf;
    }
    e->fields[e->nfields++] = *f;
    return 0;
}

static int parse_lines(tc_event *e, const char *text, size_t len, unsigned long_size,
                       const char **why, size_t *at)
{
    bool have_id = false;
    for (size_t pos = 0; pos < len;) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
        line l = trim((line){text + pos, n});
        *at = pos;
        pos += n + (nl ? 1 : 0);
        if (starts(l, "name:")) {
            line v = trim((line){l.s + 5, l.n - 5});
            free(e->name);
            if (!v.n || !(e->name = dup_n(v.s, v.n)))
                return *why = v.n ? "out of memory" : "empty event name", -1;
        } else if (starts(l, "ID:")) {
            char *endp;
            line v = trim((line){l.s + 3, l.n - 3});
            char buf[24];
            if (!v.n || v.n >= sizeof buf)
                return *why = "bad event ID", -1;
            memcpy(buf, v.s, v.n);
            buf[v.n] = 0;
            unsigned long long id = strtoull(buf, &endp, 10);
            if (*endp || id > UINT32_MAX)
                return *why = "bad event ID", -1;
            e->id = (uint32_t)id;
            have_id = true;
        } else if (starts(l, "field:")) {
            tc_field f;
            if (parse_field(l, &f, long_size, why) < 0)
                return -1;
            if (add_field(e, &f) < 0) {
                free(f.name);
                return *why = "out of memory", -1;
            }
        } else if (starts(l, "print fmt:")) {
            break;
        }
    }
    if (!e->name || !have_id)
        return *why = "format without name or ID", -1;
    return 0;
}

static int intern_names(tc_event *e, gt_timeline *tl)
{
    e->cat = gt_tl_intern_cstr(tl, e->system);
    e->ev_name = gt_tl_intern_cstr(tl, e->name);
    if (e->cat == (gt_tl_str)-1 || e->ev_name == (gt_tl_str)-1)
        return -1;
    for (uint32_t i = 0; i < e->nfields; i++)
        if ((e->fields[i].arg = gt_tl_intern_cstr(tl, e->fields[i].name)) == (gt_tl_str)-1)
            return -1;
    return 0;
}

int tc_format_parse(tc_events *evs, const char *system, size_t system_len, const char *text,
                    size_t len, unsigned long_size, gt_timeline *tl, const char **why, size_t *at)
{
    tc_event e = {0};
    *at = 0;
    if (!(e.system = dup_n(system, system_len)))
        return *why = "out of memory", -1;
    if (parse_lines(&e, text, len, long_size, why, at) < 0)
        goto fail;
    classify(&e);
    if (intern_names(&e, tl) < 0) {
        *why = "out of memory";
        goto fail;
    }
    if (GT_GROW(evs->ev, evs->cap, evs->n + 1, 64) != 0) {
        *why = "out of memory";
        goto fail;
    }
    evs->ev[evs->n++] = e;
    evs->sorted = false;
    return 0;
fail:
    event_free(&e);
    return -1;
}

static int cmp_id(const void *a, const void *b)
{
    const tc_event *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

const tc_event *tc_events_find(tc_events *evs, uint32_t id)
{
    if (!evs->sorted) {
        if (evs->n)
            qsort(evs->ev, evs->n, sizeof *evs->ev, cmp_id);
        evs->sorted = true;
    }
    size_t lo = 0, hi = evs->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (evs->ev[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < evs->n && evs->ev[lo].id == id ? &evs->ev[lo] : NULL;
}

const tc_field *tc_event_field(const tc_event *ev, const char *name)
{
    for (uint32_t i = 0; i < ev->nfields; i++)
        if (strcmp(ev->fields[i].name, name) == 0)
            return &ev->fields[i];
    return NULL;
}

void tc_events_free(tc_events *evs)
{
    for (size_t i = 0; i < evs->n; i++)
        event_free(&evs->ev[i]);
    free(evs->ev);
    memset(evs, 0, sizeof *evs);
}

/* header_page: "field: u64 timestamp; offset:0; size:8; signed:0;" ... */
int tc_header_page_parse(const char *text, size_t len, tc_page_hdr *h, const char **why)
{
    bool ts = false, commit = false, data = false;
    for (size_t pos = 0; pos < len;) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
        line l = trim((line){text + pos, n});
        pos += n + (nl ? 1 : 0);
        const char *semi = starts(l, "field:") ? memchr(l.s, ';', l.n) : NULL;
        if (!semi)
            continue;
        line decl = trim((line){l.s + 6, (size_t)(semi - l.s - 6)});
        line rest = {semi + 1, l.n - (size_t)(semi + 1 - l.s)};
        uint64_t off, size;
        if (!attr_num(rest, "offset:", &off) || !attr_num(rest, "size:", &size) || off > 65536 || size > 65536)
            return *why = "header_page: field without offset or size", -1;
        size_t ns = decl.n;
        while (ns && (isalnum((unsigned char)decl.s[ns - 1]) || decl.s[ns - 1] == '_'))
            ns--;
        const char *nm = decl.s + ns;
        size_t nn = decl.n - ns;
        if (word_is(nm, nn, "timestamp"))
            h->ts_off = (uint32_t)off, h->ts_size = (uint32_t)size, ts = true;
        else if (word_is(nm, nn, "commit"))
            h->commit_off = (uint32_t)off, h->commit_size = (uint32_t)size, commit = true;
        else if (word_is(nm, nn, "data"))
            h->data_off = (uint32_t)off, data = true;
    }
    if (!ts || !commit || !data)
        return *why = "header_page lacks timestamp, commit or data", -1;
    if (h->ts_size != 8 || (h->commit_size != 4 && h->commit_size != 8) ||
        h->ts_off + 8 > h->data_off || h->commit_off + h->commit_size > h->data_off)
        return *why = "header_page: unsupported timestamp or commit layout", -1;
    return 0;
}
