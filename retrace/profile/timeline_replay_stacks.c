/* See timeline_replay_stacks.h. */
#include "timeline_replay_stacks.h"

#include <stdio.h>
#include <stdlib.h>

static uint64_t node_hash(uint64_t parent, uint32_t frame)
{
    return (parent * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)frame * 0xc2b2ae3d27d4eb4full);
}

static int grow_nodes(tlr_stacks *s)
{
    size_t n = s->cap ? s->cap * 2 : 1024;
    tlr_stack_node *a = calloc(n, sizeof *a);
    if (!a)
        return 0;
    for (size_t i = 0; i < s->cap; ++i) {
        tlr_stack_node *o = &s->nodes[i];
        if (!o->id)
            continue;
        size_t k = node_hash(o->parent, o->frame_id) & (n - 1);
        while (a[k].id)
            k = (k + 1) & (n - 1);
        a[k] = *o;
    }
    free(s->nodes);
    s->nodes = a;
    s->cap = n;
    return 1;
}

static void emit_frame(const tlr_stack_out *out, uint32_t id, uint64_t parent, const gt_frame *f)
{
    char buf[512];
    const char *fn = f->function ? f->function : "?";
    if (f->filename && f->line >= 0)
        snprintf(buf, sizeof buf, "%s (%s:%lld)", fn, f->filename, (long long)f->line);
    else if (f->offset >= 0) /* as apitrace dump: function+0xoffset, or module+0xoffset */
        snprintf(buf, sizeof buf, "%s+0x%llx", f->function ? fn : f->module ? f->module : "?",
                 (unsigned long long)f->offset);
    else
        snprintf(buf, sizeof buf, "%s", fn);
    gt_tl_event ev = {.kind = GT_TL_STACK_FRAME, .id = id, .parent = parent,
                      .name = out->intern(buf), .cat = f->module ? out->intern(f->module) : 0};
    out->emit(&ev);
}

/* The node of frame f called from node parent, made (and emitted) once. */
static uint32_t node_of(tlr_stacks *s, uint64_t parent, const gt_frame *f, const tlr_stack_out *out)
{
    if ((s->n + 1) * 2 > s->cap && !grow_nodes(s))
        return 0;
    size_t k = node_hash(parent, f->id) & (s->cap - 1);
    while (s->nodes[k].id) {
        if (s->nodes[k].parent == parent && s->nodes[k].frame_id == f->id)
            return s->nodes[k].id;
        k = (k + 1) & (s->cap - 1);
    }
    tlr_stack_node *n = &s->nodes[k];
    n->parent = parent;
    n->frame_id = f->id;
    n->id = ++s->next_id;
    s->n++;
    emit_frame(out, n->id, parent, f);
    return n->id;
}

uint32_t tlr_stacks_of_call(tlr_stacks *s, const gt_call *c, const tlr_stack_out *out)
{
    uint64_t node = 0;
    for (uint32_t i = c->num_frames; i-- > 0;)
        if (c->frames[i])
            node = node_of(s, node, c->frames[i], out);
    return (uint32_t)node;
}

void tlr_stacks_free(tlr_stacks *s)
{
    free(s->nodes);
    *s = (tlr_stacks){0};
}
