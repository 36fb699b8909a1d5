/* Stack frames of the Chrome reader: frame ids, the stackFrames dictionary and
 * raw "stack" arrays, all to STACK_FRAME events with consistent ids
 * (chrome_reader.h says which). */
#include <string.h>

#include "chrome_reader_internal.h"

int cr_frame_id(cr_state *r, const cj_value *v, uint32_t *id)
{
    gt_tl_bytes key = v->s;
    if (v->type != CJ_STRING && v->type != CJ_NUMBER)
        return cj_fail(&r->lx, v->off, "stack frame id is not a string or a number");
    uint64_t mag;
    bool neg;
    if (cr_all_digits(&key) && cr_integer(&key, &mag, &neg) && mag > 0 && mag <= UINT32_MAX) {
        *id = (uint32_t)mag;
        return 0;
    }
    if (r->strict)
        return cj_fail(&r->lx, v->off, "stack frame id is not a decimal number from 1 to 2^32-1");
    /* dense ids from 2^31: only a file that mixes such ids with decimal ones
     * that large could see two frames share one */
    int added;
    cm_slot *s = chrome_map_get(&r->frames, key.p, key.len, &added);
    if (!s)
        return cj_fail(&r->lx, v->off, "out of memory");
    if (added) {
        if (r->next_frame == UINT32_MAX)
            return cj_fail(&r->lx, v->off, "too many stack frame ids");
        s->value = r->next_frame++;
    }
    *id = (uint32_t)s->value;
    return 0;
}

static int frame(cr_state *r, const cj_value *key, const cj_value *obj)
{
    gt_tl_event e = {.kind = GT_TL_STACK_FRAME};
    uint32_t id, parent = 0;
    if (cr_frame_id(r, key, &id) != 0)
        return -1;
    e.id = id;
    int added;
    if (!chrome_map_get(&r->defined, &id, sizeof id, &added))
        return cj_fail(&r->lx, key->off, "out of memory");
    if (!added && cr_deviation(r, CRW_DUP_FRAME, key->off, "stack frame defined twice: the later wins") != 0)
        return -1;
    if (obj->type != CJ_OBJECT)
        return cj_fail(&r->lx, obj->off, "stack frame is not an object");
    cj_lex sub;
    cj_sub(&sub, &r->lx, obj);
    sub.pos++;
    bool first = true;
    gt_tl_bytes k;
    int m;
    while ((m = cj_member(&sub, &first, &k)) == 1) {
        cj_value v;
        if (cj_value_read(&sub, &v) != 0)
            return -1;
        bool name = k.len == 4 && !memcmp(k.p, "name", 4), cat = k.len == 8 && !memcmp(k.p, "category", 8);
        if (name || cat) {
            if (v.type != CJ_STRING)
                return cj_fail(&r->lx, v.off, "stack frame name or category is not a string");
            gt_tl_str s = cr_intern(r, &v.s, v.off);
            if (s == (gt_tl_str)-1)
                return -1;
            *(name ? &e.name : &e.cat) = s;
        } else if (k.len == 6 && !memcmp(k.p, "parent", 6)) {
            if (cr_frame_id(r, &v, &parent) != 0)
                return -1;
        } else if (r->strict) {
            return cj_fail(&r->lx, v.off, "stack frame key our writer never writes");
        }
    }
    if (m < 0)
        return -1;
    e.parent = parent;
    r->st.frames++;
    return gt_tl_emit(r->sink, r->tl, &e, r->err);
}

int cr_stack_frames(cr_state *r)
{
    cj_lex *lx = &r->lx;
    if (cr_peek(r) != CJ_OBJECT)
        return cj_fail(lx, lx->pos, "stackFrames is not an object");
    lx->pos++;
    bool first = true;
    gt_tl_bytes k;
    int m;
    for (;;) {
        cr_compact(r);
        gt_arena_reset(&r->scratch);
        size_t key_at;
        if ((m = cr_member(r, &first, &k, &key_at, true)) != 1)
            return m;
        cj_value key = {.type = CJ_STRING, .s = k, .off = key_at}, obj;
        if (cj_value_read(lx, &obj) != 0 || frame(r, &key, &obj) != 0)
            return -1;
    }
}

int cr_raw_stack(cr_state *r, const cj_value *raw, uint32_t *leaf)
{
    if (raw->type != CJ_ARRAY)
        return cr_deviation(r, CRW_BAD_STACK, raw->off, "stack is not an array of strings: ignored");
    cj_lex sub;
    cj_sub(&sub, &r->lx, raw);
    sub.pos++;
    bool first = true;
    uint32_t parent = 0;
    int m;
    while ((m = cj_element(&sub, &first)) == 1) {
        cj_value v;
        if (cj_value_read(&sub, &v) != 0)
            return -1;
        if (v.type != CJ_STRING)
            return cr_deviation(r, CRW_BAD_STACK, v.off, "stack is not an array of strings: ignored");
        char key[4 + 256];
        size_t n = v.s.len < 256 ? v.s.len : 256; /* longer names: told apart by 256 bytes */
        memcpy(key, &parent, 4);
        memcpy(key + 4, v.s.p, n);
        int added;
        cm_slot *slot = chrome_map_get(&r->raw_frames, key, 4 + n, &added);
        if (!slot)
            return cj_fail(&r->lx, v.off, "out of memory");
        if (added) {
            if (r->next_frame == UINT32_MAX)
                return cj_fail(&r->lx, v.off, "too many stack frame ids");
            slot->value = r->next_frame++;
            gt_tl_event f = {.kind = GT_TL_STACK_FRAME, .id = slot->value, .parent = parent};
            if ((f.name = cr_intern(r, &v.s, v.off)) == (gt_tl_str)-1 ||
                gt_tl_emit(r->sink, r->tl, &f, r->err) != 0)
                return -1;
            r->st.frames++;
        }
        parent = (uint32_t)slot->value;
    }
    if (m < 0)
        return -1;
    *leaf = parent;
    return 0;
}
