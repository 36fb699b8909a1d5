#include "gtw_values.h"
#include "gl_enums.gen.h"

#include <stdatomic.h>
#include <string.h>

#include "gltrace_runtime.h"
#include "size_helpers.h"


void gtw_string_n(at_writer *w, const char *s, long long n)
{
    if (!s)
        at_writer_null(w);
    else if (n < 0)
        at_writer_cstring(w, s);
    else
        at_writer_string(w, s, (size_t)n);
}

void gtw_out_string(at_writer *w, const char *s, long long max)
{
    if (!s || max <= 0)
        at_writer_null(w);
    else
        at_writer_string(w, s, strnlen(s, (size_t)max));
}

void gtw_strings(at_writer *w, const char *const *s, long long count, const int *lengths)
{
    if (!s) {
        at_writer_null(w);
        return;
    }
    size_t n = gtw_count(count);
    at_writer_begin_array(w, n);
    for (size_t i = 0; i < n; ++i)
        gtw_string_n(w, s[i], lengths ? lengths[i] : -1);
}

void gtw_pointers(at_writer *w, const void *const *p, size_t n)
{
    if (!p) {
        at_writer_null(w);
        return;
    }
    at_writer_begin_array(w, n);
    for (size_t i = 0; i < n; ++i)
        at_writer_pointer(w, (uint64_t)(uintptr_t)p[i]);
}

/* Whether the program ever bound a buffer to these targets. Until it has, pointers
 * are client memory, and we never query GL state the context may not support (a
 * failed query would leave an error for the program's glGetError to find). */
static atomic_int used_unpack, used_pack, used_elements, used_indirect;

void gtw_hook_bind_buffer(at_writer *w, unsigned target, unsigned buffer)
{
    (void)w;
    if (!buffer)
        return;
    if (target == GL_PIXEL_UNPACK_BUFFER)
        atomic_store_explicit(&used_unpack, 1, memory_order_relaxed);
    else if (target == GL_PIXEL_PACK_BUFFER)
        atomic_store_explicit(&used_pack, 1, memory_order_relaxed);
    else if (target == GL_ELEMENT_ARRAY_BUFFER)
        atomic_store_explicit(&used_elements, 1, memory_order_relaxed);
    else if (target == GL_DRAW_INDIRECT_BUFFER)
        atomic_store_explicit(&used_indirect, 1, memory_order_relaxed);
}

static int bound(atomic_int *used, unsigned binding)
{
    if (!atomic_load_explicit(used, memory_order_relaxed))
        return 0;
    return gltrace_real_geti(binding) != 0;
}

static void blob_or_offset(at_writer *w, const void *p, size_t n, int is_offset)
{
    if (is_offset)
        at_writer_pointer(w, (uint64_t)(uintptr_t)p);
    else
        at_writer_blob(w, p, n);
}

void gtw_blob_unpack(at_writer *w, const void *p, size_t n)
{
    blob_or_offset(w, p, n, bound(&used_unpack, GL_PIXEL_UNPACK_BUFFER_BINDING));
}

int gtw_pack_bound(void)
{
    return bound(&used_pack, GL_PIXEL_PACK_BUFFER_BINDING);
}

void gtw_blob_elements(at_writer *w, const void *p, size_t n)
{
    blob_or_offset(w, p, n, bound(&used_elements, GL_ELEMENT_ARRAY_BUFFER_BINDING));
}

void gtw_blob_indirect(at_writer *w, const void *p, size_t n)
{
    blob_or_offset(w, p, n, bound(&used_indirect, GL_DRAW_INDIRECT_BUFFER_BINDING));
}

void gtw_element_lists(at_writer *w, const void *const *p, const int *count, unsigned type,
                       size_t n)
{
    if (!p || !count) {
        at_writer_null(w);
        return;
    }
    int offsets = bound(&used_elements, GL_ELEMENT_ARRAY_BUFFER_BINDING);
    at_writer_begin_array(w, n);
    for (size_t i = 0; i < n; ++i)
        blob_or_offset(w, p[i], gtw_count(gtsz_count_type(count[i], type)), offsets);
}
