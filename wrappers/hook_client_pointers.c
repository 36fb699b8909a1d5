/* The calls that hand the GL a vertex array in client memory, written by hand (each
 * listed with `override` in specs/annotations.txt): every gl*Pointer form, EXT, ARB
 * and NV variants included, and glInterleavedArrays.
 *
 * As apitrace (wrappers/gltrace.py, array_pointer_function_names): a call made while no
 * GL_ARRAY_BUFFER is bound names client memory, which means nothing to a replayer, so
 * it is not recorded; the fake pointer calls before each draw carry the arrays instead
 * (hook_client_arrays.c). With a buffer bound the call is recorded as the generated
 * wrapper would (the pointer is an offset). Either way the call then notes that client
 * memory is in use (gth_note_client_pointer).
 *
 * glInterleavedArrays sets up to four arrays and enables exactly those: unrecorded, it
 * is followed by apitrace's fake glEnableClientState / glDisableClientState calls for
 * the eight conventional arrays, so a replayer enables what the program's GL enabled. */
#include <stdint.h>

#include "gl_enums.gen.h"
#include "gltrace_runtime.h"
#include "hook_client_arrays.h"
#include "signatures.gen.h"
#include "wrappers.gen.h"




static int array_buffer_bound(void)
{
    return gltrace_real_geti(GL_ARRAY_BUFFER_BINDING) != 0;
}

/* One pointer call in flight: writer (NULL while not recording), w (the writer when
 * the call is recorded), no (its call number). */
typedef struct pcall {
    at_writer *writer, *w;
    uint32_t no;
} pcall;

/* Before the real call: its enter event when a GL_ARRAY_BUFFER is bound. kinds are
 * those of the arguments before the pointer ('u' uint, 's' sint, 'e' GLenum,
 * 'b' GLboolean, 'z' a size that may be GL_BGRA). */
static pcall pcall_begin(const gt_func_sig *sig, const char *kinds, const int64_t *vals,
                         const void *pointer)
{
    pcall c = {gltrace_writer(), NULL, 0};
    if (!c.writer || !array_buffer_bound())
        return c;
    c.w = c.writer;
    gltrace_begin_enter(c.w, sig, 0);
    uint32_t i = 0;
    for (; kinds[i]; ++i) {
        at_writer_begin_arg(c.w, i);
        switch (kinds[i]) {
        case 'u': at_writer_uint(c.w, (uint64_t)vals[i]); break;
        case 'e': at_writer_enum(c.w, &gtsig_GLenum, vals[i]); break;
        case 'b': at_writer_enum(c.w, &gtsig_GLboolean, vals[i]); break;
        case 'z': at_writer_enum(c.w, &gtal_enum_SizeBGRA, vals[i]); break;
        default: at_writer_sint(c.w, vals[i]); break;
        }
    }
    at_writer_begin_arg(c.w, i);
    at_writer_pointer(c.w, (uint64_t)(uintptr_t)pointer);
    gltrace_backtrace(c.w, sig->id, sig->name);
    c.no = gltrace_end_enter(c.w);
    return c;
}

/* After the real call: its leave event, and the note for the draws. */
static void pcall_end(const pcall *c, int generic, const void *pointer)
{
    if (c->w) {
        gltrace_begin_leave(c->w, c->no);
        gltrace_end_leave(c->w);
    }
    if (c->writer && !c->w)
        gth_note_client_pointer(generic, pointer);
}

/* NAME PARAMS: one wrapper. GENERIC: a generic attribute (else a conventional array);
 * KINDS and the values after ARGS: the arguments before the pointer, as pcall_begin. */
#define POINTER_CALL(NAME, GENERIC, KINDS, PARAMS, ARGS, ...)                          \
    GLTRACE_EXPORT void NAME PARAMS;                                                       \
    GLTRACE_EXPORT void NAME PARAMS                                                        \
    {                                                                                  \
        typedef void(*real_fn) PARAMS;                                                 \
        static real_fn real;                                                           \
        if (!real)                                                                     \
            real = (real_fn)gltrace_real(#NAME);                                       \
        const int64_t vals[] = {__VA_ARGS__};                                          \
        pcall c = pcall_begin(&gtfn_##NAME, KINDS, vals, pointer);                     \
        if (real && !gltrace_faking()) /* the snapshot's calls are only written */    \
            real ARGS;                                                                 \
        pcall_end(&c, GENERIC, pointer);                                               \
    }

#define ATTRIB(NAME, KINDS)                                                            \
    POINTER_CALL(NAME, 1, KINDS,                                                       \
                 (unsigned index, int size, unsigned type, unsigned char normalized,   \
                  int stride, const void *pointer),                                    \
                 (index, size, type, normalized, stride, pointer), index, size, type,  \
                 normalized, stride)
/* glVertexAttribIPointer, L and NV forms: (index, size, type, stride, pointer) */
#define ATTRIB_NO_NORM(NAME)                                                           \
    POINTER_CALL(NAME, 1, "uses",                                                      \
                 (unsigned index, int size, unsigned type, int stride, const void *pointer), \
                 (index, size, type, stride, pointer), index, size, type, stride)
#define SIZED(NAME, KINDS)                                                             \
    POINTER_CALL(NAME, 0, KINDS, (int size, unsigned type, int stride, const void *pointer), \
                 (size, type, stride, pointer), size, type, stride)
#define SIZED_COUNT(NAME)                                                              \
    POINTER_CALL(NAME, 0, "sess",                                                      \
                 (int size, unsigned type, int stride, int count, const void *pointer), \
                 (size, type, stride, count, pointer), size, type, stride, count)
#define UNSIZED(NAME)                                                                  \
    POINTER_CALL(NAME, 0, "es", (unsigned type, int stride, const void *pointer),      \
                 (type, stride, pointer), type, stride)
#define UNSIZED_COUNT(NAME)                                                            \
    POINTER_CALL(NAME, 0, "ess", (unsigned type, int stride, int count, const void *pointer), \
                 (type, stride, count, pointer), type, stride, count)

/* "z": the functions whose size apitrace writes as a number or GL_BGRA */
ATTRIB(glVertexAttribPointer, "uzebs")
ATTRIB(glVertexAttribPointerARB, "usebs")
ATTRIB_NO_NORM(glVertexAttribIPointer)
ATTRIB_NO_NORM(glVertexAttribIPointerEXT)
ATTRIB_NO_NORM(glVertexAttribLPointer)
ATTRIB_NO_NORM(glVertexAttribLPointerEXT)
ATTRIB_NO_NORM(glVertexAttribPointerNV)
SIZED(glVertexPointer, "ses")
SIZED(glColorPointer, "zes")
SIZED(glTexCoordPointer, "ses")
SIZED(glSecondaryColorPointer, "zes")
SIZED(glSecondaryColorPointerEXT, "ses")
SIZED_COUNT(glVertexPointerEXT)
SIZED_COUNT(glColorPointerEXT)
SIZED_COUNT(glTexCoordPointerEXT)
UNSIZED(glNormalPointer)
UNSIZED(glFogCoordPointer)
UNSIZED(glFogCoordPointerEXT)
UNSIZED(glIndexPointer)
UNSIZED_COUNT(glNormalPointerEXT)
UNSIZED_COUNT(glIndexPointerEXT)
POINTER_CALL(glEdgeFlagPointer, 0, "s", (int stride, const void *pointer), (stride, pointer),
             stride)
POINTER_CALL(glEdgeFlagPointerEXT, 0, "ss", (int stride, int count, const void *pointer),
             (stride, count, pointer), stride, count)
POINTER_CALL(glMultiTexCoordPointerEXT, 0, "eses",
             (unsigned texunit, int size, unsigned type, int stride, const void *pointer),
             (texunit, size, type, stride, pointer), texunit, size, type, stride)

/* ---- glInterleavedArrays ------------------------------------------------------------ */
enum { T = 8, C = 4, N = 2, V = 1 }; /* texture coordinates, colour, normal, vertex */

/* The arrays each format sets, GL_V2F (0x2A20) to GL_T4F_C4F_N3F_V4F (0x2A2D); 0 for a
 * format the GL refuses. */
static unsigned interleaved_arrays(unsigned format)
{
    static const unsigned char sets[14] = {
        V, V, C | V, C | V, C | V, N | V, C | N | V, T | V, T | V,
        T | C | V, T | C | V, T | N | V, T | C | N | V, T | C | N | V,
    };
    return format >= 0x2A20 && format <= 0x2A2D ? sets[format - 0x2A20] : 0;
}

static void fake_client_state(at_writer *w, unsigned array, int enable)
{
    const gt_func_sig *sig = enable ? &gtfn_glEnableClientState : &gtfn_glDisableClientState;
    gltrace_begin_enter(w, sig, AT_WRITER_FAKE);
    at_writer_begin_arg(w, 0);
    at_writer_enum(w, &gtsig_GLenum, array);
    gltrace_begin_leave(w, gltrace_end_enter(w));
    gltrace_end_leave(w);
}

/* apitrace's order: secondary colour, fog coordinate, edge flag, texture coordinates,
 * index, colour, normal, vertex (enable: the bit the format must have; 0 never). */
static void fake_client_states(at_writer *w, unsigned sets)
{
    static const struct { unsigned array, bit; } arrays[] = {
        {0x845E, 0}, {0x8457, 0}, {0x8079, 0}, {0x8078, T},
        {0x8077, 0}, {0x8076, C}, {0x8075, N}, {0x8074, V},
    };
    for (size_t i = 0; i < sizeof arrays / sizeof *arrays; ++i)
        fake_client_state(w, arrays[i].array, arrays[i].bit && (sets & arrays[i].bit));
}

GLTRACE_EXPORT void glInterleavedArrays(unsigned format, int stride, const void *pointer);
GLTRACE_EXPORT void glInterleavedArrays(unsigned format, int stride, const void *pointer)
{
    typedef void (*real_fn)(unsigned, int, const void *);
    static real_fn real;
    if (!real)
        real = (real_fn)gltrace_real("glInterleavedArrays");
    const int64_t vals[] = {format, stride};
    pcall c = pcall_begin(&gtfn_glInterleavedArrays, "es", vals, pointer);
    if (real && !gltrace_faking())
        real(format, stride, pointer);
    pcall_end(&c, 0, pointer);
    unsigned sets = interleaved_arrays(format);
    if (c.writer && !c.w && sets)
        fake_client_states(c.writer, sets);
}
