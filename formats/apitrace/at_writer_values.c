/* Values of a call's details, encoded into the calling thread's event
 * (at_writer_internal.h). */
#include "at_writer.h"

#include "at_format.h"
#include "at_writer_inline.h"

void at_writer_null(at_writer *w) { atw_null(w); }

void at_writer_bool(at_writer *w, bool v)
{
    (void)w;
    ev_byte(at_wevent_current(), v ? AT_TYPE_TRUE : AT_TYPE_FALSE);
}

void at_writer_sint(at_writer *w, int64_t v) { atw_sint(w, v); }

void at_writer_uint(at_writer *w, uint64_t v) { atw_uint(w, v); }

void at_writer_float(at_writer *w, float v) { atw_float(w, v); }

void at_writer_double(at_writer *w, double v) { atw_double(w, v); }

static void put_string(at_wevent *ev, const char *s, size_t len)
{
    ev_byte(ev, AT_TYPE_STRING);
    ev_string(ev, s, len);
}

void at_writer_string(at_writer *w, const char *s, size_t len)
{
    if (!s) {
        at_writer_null(w);
        return;
    }
    put_string(at_wevent_current(), s, len);
}

void at_writer_cstring(at_writer *w, const char *s)
{
    at_writer_string(w, s, s ? strlen(s) : 0);
}

static void put_wstring(at_wevent *ev, const uint32_t *s, size_t len)
{
    ev_byte_uint(ev, AT_TYPE_WSTRING, len);
    for (size_t i = 0; i < len; ++i)
        ev_uint(ev, s[i]);
}

void at_writer_wstring(at_writer *w, const uint32_t *s, size_t len)
{
    if (!s) {
        at_writer_null(w);
        return;
    }
    put_wstring(at_wevent_current(), s, len);
}

void at_writer_blob(at_writer *w, const void *data, size_t size)
{
    if (!data) {
        at_writer_null(w);
        return;
    }
    at_wevent *ev = at_wevent_current();
    ev_byte_uint(ev, AT_TYPE_BLOB, size);
    ev_write(ev, data, size);
}

/* A signature's id; its body follows in the stream on first use. */
static void put_sig(at_wevent *ev, at_writer *w, unsigned kind, uint32_t id, const void *sig)
{
    ev_uint(ev, id);
    if (!at_sig_known(w, kind, id))
        at_wevent_sig(ev, kind, id, sig);
}

void at_writer_enum(at_writer *w, const gt_enum_sig *sig, int64_t v) { atw_enum(w, sig, v); }

void at_writer_bitmask(at_writer *w, const gt_bitmask_sig *sig, uint64_t v)
{
    atw_bitmask(w, sig, v);
}

void at_writer_begin_array(at_writer *w, size_t n)
{
    (void)w;
    at_wevent *ev = at_wevent_current();
    ev_byte_uint(ev, AT_TYPE_ARRAY, n);
}

void at_writer_begin_struct(at_writer *w, const gt_struct_sig *sig)
{
    at_wevent *ev = at_wevent_current();
    ev_byte(ev, AT_TYPE_STRUCT);
    put_sig(ev, w, AT_SIG_STRUCT, sig->id, sig);
}

void at_writer_pointer(at_writer *w, uint64_t addr) { atw_pointer(w, addr); }

void at_writer_begin_repr(at_writer *w)
{
    (void)w;
    ev_byte(at_wevent_current(), AT_TYPE_REPR);
}

/* A blob read without its bytes keeps its size, zero-filled. */
static void put_blob_of(at_wevent *ev, const gt_value *v)
{
    ev_byte_uint(ev, AT_TYPE_BLOB, v->blob.size);
    if (v->blob.data) {
        ev_write(ev, v->blob.data, v->blob.size);
        return;
    }
    static const uint8_t zeros[4096];
    for (size_t left = v->blob.size; left;) {
        size_t k = left < sizeof zeros ? left : sizeof zeros;
        ev_write(ev, zeros, k);
        left -= k;
    }
}

void at_writer_value(at_writer *w, const gt_value *v)
{
    at_wevent *ev = at_wevent_current();
    switch (v->kind) {
    case GT_ABSENT:
    case GT_NULL: at_writer_null(w); break;
    case GT_BOOL: at_writer_bool(w, v->b); break;
    case GT_SINT: /* keep the tag the trace had: a negative zero stays 0x03 */
        ev_byte_uint(ev, AT_TYPE_SINT, (uint64_t)0 - (uint64_t)v->i);
        break;
    case GT_UINT: at_writer_uint(w, v->u); break;
    case GT_FLOAT: at_writer_float(w, v->f); break;
    case GT_DOUBLE: at_writer_double(w, v->d); break;
    case GT_STRING: put_string(ev, v->str.s, v->str.len); break;
    case GT_WSTRING: put_wstring(ev, v->wstr.w, v->wstr.len); break;
    case GT_BLOB: put_blob_of(ev, v); break;
    case GT_ENUM: at_writer_enum(w, v->en.sig, v->en.v); break;
    case GT_BITMASK: at_writer_bitmask(w, v->bm.sig, v->bm.v); break;
    case GT_ARRAY:
        at_writer_begin_array(w, v->arr.n);
        for (size_t i = 0; i < v->arr.n; ++i)
            at_writer_value(w, &v->arr.items[i]);
        break;
    case GT_STRUCT:
        at_writer_begin_struct(w, v->st.sig);
        for (uint32_t i = 0; i < v->st.sig->num_members; ++i)
            at_writer_value(w, &v->st.members[i]);
        break;
    case GT_POINTER:
        ev_byte_uint(ev, AT_TYPE_OPAQUE, v->u);
        break;
    case GT_REPR:
        at_writer_begin_repr(w);
        at_writer_value(w, v->repr.human);
        at_writer_value(w, v->repr.machine);
        break;
    }
}
