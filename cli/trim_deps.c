/* See trim_deps.h. State setters form a graph: each knows the setters it read (the
 * current ones of the slots it depends on, when it was called). A setter replaced in its
 * slot is superseded; pinning the state (a kept call other than a setter, or a selected
 * call) keeps every setter made since the last pin that is still current, and,
 * transitively, what it read. */
#include <stdlib.h>
#include <string.h>

#include "gt_callstate.h"
#include "gt_grow.h"
#include "gt_roles.h"
#include "trim_deps.h"
#include "trim_rules.h"

#define GL_FRAMEBUFFER 0x8D40
#define GL_DRAW_FRAMEBUFFER 0x8CA9
#define NONE UINT32_MAX

typedef struct ctx_state {
    uint64_t ctx;     /* traced handle; 0: calls before any MakeCurrent */
    uint64_t draw_fb; /* bound draw framebuffer: 0 the window */
    bool xfb;         /* transform feedback active */
    uint64_t value[TRIM_VALUES]; /* tracked values (trim_rules.h) */
} ctx_state;

typedef struct thread_state {
    uint32_t id;
    uint64_t ctx, draw; /* the current context and the window or surface it draws into */
    gt_callstate cs;  /* display lists, glBegin/glEnd ... */
    bool block_drops; /* ... of a block drawn into the window, dropped whole */
} thread_state;

typedef struct setter {
    uint64_t call;
    uint32_t deps[2]; /* setters read, NONE */
    bool superseded, needed;
} setter;

typedef struct shown { /* a window's last swap before the first selected call */
    uint64_t drawable, swap;
} shown;

typedef struct sig_facts { /* what trim knows of a function, by signature id */
    bool known;            /* looked up */
    gt_roles roles;
    const trim_rule *rule; /* the state it sets, NULL none */
} sig_facts;

typedef struct slot_entry { /* open addressing; setter NONE: free */
    uint64_t ctx, k0, k1;
    uint32_t slot, setter;
} slot_entry;

struct trim_deps {
    bool exact;
    uint8_t *keep; /* bit per call index */
    size_t keep_bytes;
    uint64_t kept;
    ctx_state *ctxs;
    size_t nctx, capctx;
    thread_state *threads;
    size_t nthreads, capthreads;
    setter *setters;
    size_t nsetters, capsetters;
    slot_entry *slots;
    size_t nslots, capslots; /* capslots: a power of two */
    uint32_t *dirty; /* setters made since the last pin */
    size_t ndirty, capdirty;
    uint32_t *stack; /* for marking setters needed */
    size_t capstack;
    sig_facts *facts; /* by signature id */
    size_t capfacts;
    shown *shown; /* from trim_deps_scan */
    size_t nshown, capshown;
};

/* ---- lookups -------------------------------------------------------------------- */

static int cmp_rule(const void *key, const void *e)
{
    return strcmp(key, ((const trim_rule *)e)->name);
}

/* The roles and state rule of C's function (looked up once per signature); NULL when
 * out of memory. */
static const sig_facts *facts(trim_deps *d, const gt_call *c)
{
    uint32_t id = c->sig->id;
    if (id >= d->capfacts) {
        size_t old = d->capfacts;
        if (GT_GROW(d->facts, d->capfacts, (size_t)id + 1, 256) != 0)
            return NULL;
        memset(d->facts + old, 0, (d->capfacts - old) * sizeof *d->facts);
    }
    sig_facts *f = &d->facts[id];
    if (!f->known) {
        f->known = true;
        f->roles = gt_roles_lookup(c->sig->name);
        f->rule = bsearch(c->sig->name, trim_rules, trim_rule_count, sizeof *trim_rules, cmp_rule);
    }
    return f;
}

static uint64_t arg_u64(const gt_call *c, int i)
{
    return i >= 0 && (uint32_t)i < c->num_args ? gt_value_uint(&c->args[i]) : 0;
}

static thread_state *get_thread(trim_deps *d, uint32_t id)
{
    for (size_t i = 0; i < d->nthreads; ++i)
        if (d->threads[i].id == id)
            return &d->threads[i];
    if (GT_GROW(d->threads, d->capthreads, d->nthreads + 1, 4) != 0)
        return NULL;
    thread_state *t = &d->threads[d->nthreads++];
    memset(t, 0, sizeof *t);
    t->id = id;
    return t;
}

static ctx_state *get_ctx(trim_deps *d, uint64_t ctx)
{
    for (size_t i = 0; i < d->nctx; ++i)
        if (d->ctxs[i].ctx == ctx)
            return &d->ctxs[i];
    if (GT_GROW(d->ctxs, d->capctx, d->nctx + 1, 4) != 0)
        return NULL;
    ctx_state *s = &d->ctxs[d->nctx++];
    memset(s, 0, sizeof *s);
    s->ctx = ctx;
    return s;
}

/* ---- the slot table --------------------------------------------------------------- */

static size_t slot_hash(uint64_t ctx, uint32_t slot, uint64_t k0, uint64_t k1, size_t cap)
{
    uint64_t h = ctx * 0x9E3779B97F4A7C15ull ^ (slot + 1) * 0xC2B2AE3D27D4EB4Full;
    h ^= k0 * 0x165667B19E3779F9ull ^ k1 * 0x27D4EB2F165667C5ull;
    h ^= h >> 29;
    return (size_t)h & (cap - 1);
}

static slot_entry *slot_find(trim_deps *d, uint64_t ctx, uint32_t slot, uint64_t k0, uint64_t k1)
{
    if (!d->capslots)
        return NULL;
    for (size_t i = slot_hash(ctx, slot, k0, k1, d->capslots);; i = (i + 1) & (d->capslots - 1)) {
        slot_entry *e = &d->slots[i];
        if (e->setter == NONE)
            return e;
        if (e->ctx == ctx && e->slot == slot && e->k0 == k0 && e->k1 == k1)
            return e;
    }
}

static int slot_grow(trim_deps *d)
{
    size_t cap = d->capslots ? d->capslots * 2 : 256;
    slot_entry *old = d->slots, *grown = malloc(cap * sizeof *grown);
    if (!grown)
        return -1;
    for (size_t i = 0; i < cap; ++i)
        grown[i].setter = NONE;
    size_t oldcap = d->capslots;
    d->slots = grown;
    d->capslots = cap;
    for (size_t i = 0; i < oldcap; ++i)
        if (old[i].setter != NONE)
            *slot_find(d, old[i].ctx, old[i].slot, old[i].k0, old[i].k1) = old[i];
    free(old);
    return 0;
}

/* The setter current in a slot, NONE when none. */
static uint32_t current_setter(trim_deps *d, uint64_t ctx, uint32_t slot, uint64_t k0, uint64_t k1)
{
    slot_entry *e = slot_find(d, ctx, slot, k0, k1);
    return e ? e->setter : NONE;
}

/* ---- keeping -------------------------------------------------------------------------- */

static int mark(trim_deps *d, uint64_t index)
{
    size_t byte = (size_t)(index / 8);
    if (byte >= d->keep_bytes) {
        size_t old = d->keep_bytes;
        if (GT_GROW(d->keep, d->keep_bytes, byte + 1, 4096) != 0)
            return -1;
        memset(d->keep + old, 0, d->keep_bytes - old);
    }
    if (!(d->keep[byte] & (1u << (index % 8)))) {
        d->keep[byte] |= (uint8_t)(1u << (index % 8));
        d->kept++;
    }
    return 0;
}

/* Keeps setter S and, transitively, the setters it read. */
static int need(trim_deps *d, uint32_t s)
{
    size_t n = 0;
    if (GT_GROW(d->stack, d->capstack, 1, 64) != 0)
        return -1;
    d->stack[n++] = s;
    while (n) {
        setter *x = &d->setters[d->stack[--n]];
        if (x->needed)
            continue;
        x->needed = true;
        if (mark(d, x->call) != 0 || GT_GROW(d->stack, d->capstack, n + 2, 64) != 0)
            return -1;
        for (int i = 0; i < 2; ++i)
            if (x->deps[i] != NONE)
                d->stack[n++] = x->deps[i];
    }
    return 0;
}

/* A kept call that may read any state: the current setters made since the last pin. */
static int pin_all(trim_deps *d)
{
    for (size_t i = 0; i < d->ndirty; ++i)
        if (!d->setters[d->dirty[i]].superseded && need(d, d->dirty[i]) != 0)
            return -1;
    d->ndirty = 0;
    return 0;
}

/* ---- state setters ---------------------------------------------------------------------- */

/* The key of R's slot for call C in context S. */
static void setter_key(const trim_rule *r, const gt_call *c, const ctx_state *s, uint64_t *k0,
                       uint64_t *k1)
{
    *k0 = arg_u64(c, r->key_arg);
    bool keyed = r->key_value && (!r->key_value_if || *k0 == r->key_value_if);
    *k1 = keyed ? s->value[r->key_value] : 0;
}

/* Records C as the current setter of its slot; it reads the setter of the tracked value
 * keying it and the slot it names. */
static int add_setter(trim_deps *d, const trim_rule *r, const gt_call *c, uint64_t index,
                      ctx_state *s, bool selected)
{
    uint64_t k0, k1;
    setter_key(r, c, s, &k0, &k1);
    if ((d->nslots + 1) * 2 > d->capslots && slot_grow(d) != 0)
        return -1;
    if (GT_GROW(d->setters, d->capsetters, d->nsetters + 1, 1024) != 0 ||
        GT_GROW(d->dirty, d->capdirty, d->ndirty + 1, 256) != 0)
        return -1;
    uint32_t id = (uint32_t)d->nsetters++;
    setter *x = &d->setters[id];
    *x = (setter){.call = index, .deps = {NONE, NONE}};
    if (r->key_value && (!r->key_value_if || k0 == r->key_value_if))
        x->deps[0] = current_setter(d, s->ctx, r->key_value, 0, 0);
    if (r->read_slot)
        x->deps[1] = current_setter(d, s->ctx, r->read_slot, r->read_key,
                                    r->read_value ? s->value[r->read_value] : 0);
    slot_entry *e = slot_find(d, s->ctx, r->slot, k0, k1);
    if (e->setter == NONE)
        d->nslots++;
    else
        d->setters[e->setter].superseded = true;
    *e = (slot_entry){.ctx = s->ctx, .k0 = k0, .k1 = k1, .slot = r->slot, .setter = id};
    if (r->sets)
        s->value[r->sets] = arg_u64(c, r->arg);
    d->dirty[d->ndirty++] = id;
    return selected ? need(d, id) : 0;
}

/* ---- the calls ------------------------------------------------------------------------------ */

/* Whether drawing now on thread T reaches only the window. */
static bool draws_to_window(const ctx_state *s) { return s->draw_fb == 0 && !s->xfb; }

/* Follows what the call changes besides state slots. */
static int track(trim_deps *d, gt_roles r, const gt_call *c, thread_state *t, ctx_state *s)
{
    gt_callstate_after(&t->cs, r, c);
    if (r.bits & GT_ROLE_CURRENT) {
        t->ctx = arg_u64(c, r.arg);
        t->draw = arg_u64(c, r.arg2);
        return get_ctx(d, t->ctx) ? 0 : -1;
    }
    if (r.bits & GT_ROLE_BINDFB) {
        uint64_t target = arg_u64(c, r.arg);
        if (target == GL_FRAMEBUFFER || target == GL_DRAW_FRAMEBUFFER)
            s->draw_fb = arg_u64(c, r.arg2);
    }
    if (r.bits & (GT_ROLE_XFBON | GT_ROLE_XFBOFF))
        s->xfb = (r.bits & GT_ROLE_XFBON) != 0;
    return 0;
}

/* Whether what thread T draws now into the window is shown by a swap of that window
 * before the selection starts, which the selection's frames then draw over. */
static bool window_draw_shown(const trim_deps *d, const thread_state *t, const ctx_state *s,
                              uint64_t index)
{
    if (!draws_to_window(s))
        return false;
    for (size_t i = 0; i < d->nshown; ++i)
        if (d->shown[i].drawable == t->draw)
            return index < d->shown[i].swap;
    return false;
}

/* Whether a call that is not selected is dropped outright (it changes nothing the
 * selection can see). */
static bool dropped(const trim_deps *d, gt_roles r, const gt_call *c, const thread_state *t,
                    const ctx_state *s, uint64_t index)
{
    if (r.bits & GT_ROLE_BEGIN)
        return window_draw_shown(d, t, s, index);
    if (r.bits & (GT_ROLE_END | GT_ROLE_VERTEX))
        return t->cs.in_block && t->block_drops;
    if (r.bits & GT_ROLE_CALLLIST)
        return false;
    if (c->sig->flags & (GT_CALL_FLAG_NO_SIDE_EFFECTS | GT_CALL_FLAG_END_FRAME))
        return true;
    return (c->sig->flags & GT_CALL_FLAG_RENDER) && window_draw_shown(d, t, s, index);
}

int trim_deps_add(trim_deps *d, const gt_call *c, uint64_t index, bool selected)
{
    if (!c->sig)
        return 0;
    if (d->exact)
        return selected ? mark(d, index) : 0;
    thread_state *t = get_thread(d, c->thread);
    ctx_state *s = t ? get_ctx(d, t->ctx) : NULL;
    const sig_facts *f = s ? facts(d, c) : NULL;
    if (!f)
        return -1;
    int rc = 0;
    if (t->cs.in_list && !selected) {
        rc = mark(d, index); /* compiled into a list the selection may call */
    } else if (f->rule) {
        rc = add_setter(d, f->rule, c, index, s, selected);
        if (rc == 0 && selected)
            rc = pin_all(d);
    } else if (selected || !dropped(d, f->roles, c, t, s, index)) {
        rc = mark(d, index);
        if (rc == 0)
            rc = pin_all(d);
    }
    if (rc == 0 && (f->roles.bits & GT_ROLE_BEGIN) && !t->cs.in_list)
        t->block_drops = !selected && window_draw_shown(d, t, s, index);
    return rc == 0 ? track(d, f->roles, c, t, s) : rc;
}

int trim_deps_scan(trim_deps *d, const gt_call *c, uint64_t index, bool selected)
{
    if (d->exact || !c->sig)
        return selected;
    if (selected) { /* the next pass starts from nothing again */
        d->nthreads = 0;
        return 1;
    }
    thread_state *t = get_thread(d, c->thread);
    const sig_facts *f = t ? facts(d, c) : NULL;
    if (!f)
        return -1;
    if (f->roles.bits & GT_ROLE_CURRENT) {
        t->draw = arg_u64(c, f->roles.arg2);
        return 0;
    }
    if (!(c->sig->flags & GT_CALL_FLAG_END_FRAME))
        return 0;
    uint64_t drawable = f->roles.bits & GT_ROLE_SWAP ? arg_u64(c, f->roles.arg) : t->draw;
    for (size_t i = 0; i < d->nshown; ++i)
        if (d->shown[i].drawable == drawable) {
            d->shown[i].swap = index;
            return 0;
        }
    if (GT_GROW(d->shown, d->capshown, d->nshown + 1, 4) != 0)
        return -1;
    d->shown[d->nshown++] = (shown){drawable, index};
    return 0;
}

bool trim_deps_keep(const trim_deps *d, uint64_t index)
{
    size_t byte = (size_t)(index / 8);
    return byte < d->keep_bytes && (d->keep[byte] & (1u << (index % 8)));
}

uint64_t trim_deps_kept(const trim_deps *d) { return d->kept; }

trim_deps *trim_deps_new(bool exact)
{
    trim_deps *d = calloc(1, sizeof *d);
    if (d)
        d->exact = exact;
    return d;
}

void trim_deps_free(trim_deps *d)
{
    if (!d)
        return;
    free(d->keep);
    free(d->ctxs);
    free(d->threads);
    free(d->setters);
    free(d->slots);
    free(d->dirty);
    free(d->stack);
    free(d->facts);
    free(d->shown);
    free(d);
}
