/* Attribute lists written as apitrace writes them (attrib_lists.h): the same walk
 * (a key, then its value unless the key takes none), so the element count said up
 * front is the number of values that follow. */
#include "attrib_lists.h"

/* Lists that run on without their terminator are cut here. */
#define GTAL_MAX 1024

static int64_t element(const void *p, size_t elem_size, size_t i)
{
    if (elem_size == sizeof(int64_t))
        return ((const int64_t *)p)[i];
    return ((const int32_t *)p)[i];
}

static const gtal_key *find_key(const gtal_list *l, int64_t key)
{
    for (size_t i = 0; i < l->num_keys; ++i)
        if (l->keys[i].key == key)
            return &l->keys[i];
    return NULL;
}

static int takes_value(const gtal_list *l, int64_t key)
{
    const gtal_key *k = find_key(l, key);
    return !k || k->kind != GTAL_NONE;
}

/* Entries up to and including the terminator (at most GTAL_MAX); 0 for NULL. */
static size_t count(const gtal_list *l, const void *p, size_t elem_size)
{
    if (!p)
        return 0;
    size_t n = 0;
    while (n < GTAL_MAX) {
        int64_t key = element(p, elem_size, n);
        if (key == l->term)
            return n + 1;
        n += takes_value(l, key) ? 2 : 1;
    }
    return GTAL_MAX;
}

static void write_key(at_writer *w, const gtal_list *l, int64_t key)
{
    if (l->key_sig)
        at_writer_enum(w, l->key_sig, key);
    else
        at_writer_sint(w, key);
}

static void write_value(at_writer *w, const gtal_key *k, int64_t v)
{
    switch (k ? k->kind : GTAL_SINT) {
    case GTAL_UINT: at_writer_uint(w, (uint64_t)v); break;
    case GTAL_ENUM: at_writer_enum(w, k->en, v); break;
    case GTAL_FLAGS: at_writer_bitmask(w, k->bm, (uint64_t)v); break;
    default: at_writer_sint(w, v); break;
    }
}

size_t gtal_length(const gtal_list *l, const void *p, size_t elem_size)
{
    return count(l, p, elem_size);
}

void gtw_attrib_list(at_writer *w, const gtal_list *l, const void *p, size_t elem_size)
{
    size_t n = count(l, p, elem_size);
    at_writer_begin_array(w, n);
    for (size_t i = 0; i < n; ++i) {
        int64_t key = element(p, elem_size, i);
        write_key(w, l, key);
        if (i + 1 >= n)
            break;
        const gtal_key *k = find_key(l, key);
        if (k && k->kind == GTAL_NONE)
            continue;
        ++i;
        write_value(w, k, element(p, elem_size, i));
    }
}
