/* The gl room (retrace/gl): the contract of the generated GL replayers
 * (build/gen/retrace/retrace_gl_N.gen.c and retrace_gl_table.gen.c, made by
 * specs/gen_retrace.py) and the hand-written runtime they call: values from the call
 * model and scratch memory, object name and pointer maps, uniform locations
 * (retrace_values.c), mapped buffers and the fake memcpy (retrace_memcpy.c), argument
 * checks (retrace_check.c), replayers written by hand (retrace_override.c) and the
 * shader sources kept for the state dump (retrace_programs.c), and which functions the
 * current context provides (gl_avail.c), and their warnings (retrace_warn.c). The
 * retrace_gl library. */
#ifndef RETRACE_GL_H
#define RETRACE_GL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gt_model.h"

/* Replays one call. Generated for every GL function with side effects; GLX/EGL
 * calls are hand-written (retrace/ws) and found through ws_lookup. */
typedef void (*retrace_fn)(const gt_call *call);

/* Object names: traced name -> name in the replay, per namespace ("buffer",
 * "texture", "program", ... as gl.xml's class= attribute says). Unknown names map
 * to themselves (0 stays 0). */
uint64_t retrace_map_get(const char *ns, uint64_t traced);
void retrace_map_set(const char *ns, uint64_t traced, uint64_t replayed);
void retrace_map_del(const char *ns, uint64_t traced);

/* Pointers the trace recorded (mapped buffers, contexts, ...): traced address ->
 * address in the replay, for memcpy fakes into mapped buffers. */
void *retrace_ptr_get(uint64_t traced);
void retrace_ptr_set(uint64_t traced, void *replayed, uint64_t size);

/* Value conversions from the call model: inline for the kind a trace usually holds
 * (each generated replayer converts every argument), out of line for the rest. */
int64_t retrace_sint_slow(const gt_value *v);
uint64_t retrace_uint_slow(const gt_value *v);
double retrace_float_slow(const gt_value *v);
static inline int64_t retrace_sint(const gt_value *v)
{
    if (v && v->kind == GT_SINT)
        return v->i;
    return v && v->kind == GT_UINT ? (int64_t)v->u : retrace_sint_slow(v); /* NULL: 0 */
}
static inline uint64_t retrace_uint(const gt_value *v)
{
    return v && v->kind == GT_UINT ? v->u : retrace_uint_slow(v); /* NULL: 0 */
}
static inline double retrace_float(const gt_value *v)
{
    return v->kind == GT_FLOAT ? v->f : retrace_float_slow(v);
}
/* Blob data, string bytes, array items packed as TYPE, or NULL/offsets for pointers:
 * memory valid while the call is. elem_size is sizeof(TYPE); kind says how to
 * convert each item: 'i' signed, 'u' unsigned, 'f' float, 'd' double, 'p' pointer. */
const void *retrace_pointer(const gt_value *v, int kind, unsigned elem_size);

/* Reports a problem with a call to the warning sink: by default as apitrace does,
 * "N: glFoo: warning: ..." on stderr. */
void retrace_warning(const gt_call *call, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Where warnings go: FN gets each one's text; NULL drops them (glretrace -b). */
typedef void (*retrace_warn_fn)(const gt_call *call, const char *msg);
void retrace_set_warn(retrace_warn_fn fn);
/* The default sink, apitrace's form on stderr. */
retrace_warn_fn retrace_warn_stderr(void);

/* The value kinds a parameter takes, as a set of (1u << gt_kind) (specs/gen_retrace.py's
 * value_kinds, from the parameter's plan): scalars (sync handles included) are any
 * single value; data is what the trace holds (an address there would have the GL read
 * the recording process's memory), or NULL; some data may be an offset into a bound
 * buffer instead; outputs, which the GL writes, may be anything. A GT_REPR value is
 * taken where its machine value is, an integer 0 where NULL is. The bits above 16
 * are the kinds of an array's items (0: any): the strings of a string list. */
#define RETRACE_KIND(k) (1u << (k))
#define RETRACE_TAKES_SCALAR                                                              \
    (RETRACE_KIND(GT_NULL) | RETRACE_KIND(GT_BOOL) | RETRACE_KIND(GT_SINT) |             \
     RETRACE_KIND(GT_UINT) | RETRACE_KIND(GT_FLOAT) | RETRACE_KIND(GT_DOUBLE) |          \
     RETRACE_KIND(GT_ENUM) | RETRACE_KIND(GT_BITMASK) | RETRACE_KIND(GT_POINTER))
#define RETRACE_TAKES_DATA                                                                \
    (RETRACE_KIND(GT_NULL) | RETRACE_KIND(GT_STRING) | RETRACE_KIND(GT_BLOB) |           \
     RETRACE_KIND(GT_ARRAY))
#define RETRACE_TAKES_DATA_OR_OFFSET                                                      \
    (RETRACE_TAKES_DATA | RETRACE_KIND(GT_SINT) | RETRACE_KIND(GT_UINT) |                \
     RETRACE_KIND(GT_POINTER))
#define RETRACE_TAKES_STRINGS                                                             \
    (RETRACE_TAKES_DATA |                                                                 \
     (RETRACE_KIND(GT_NULL) | RETRACE_KIND(GT_STRING) | RETRACE_KIND(GT_BLOB)) << 16)
#define RETRACE_TAKES_ANY 0xffffu

/* A function's prototype as the trace must fit it: its parameter count and the kinds
 * each parameter takes. */
typedef struct retrace_shape {
    unsigned n;
    const uint32_t *takes; /* n sets of RETRACE_TAKES_* */
    bool items;            /* some set says which kinds its array's items take */
} retrace_shape;

typedef struct retrace_entry {
    const char *name;
    retrace_fn fn;
    /* What provides the function (specs/providers.py: "GL1.5 ES2.0 GL_ARB_foo"), for
     * gl_avail.c; NULL where the replayer calls no GL function. */
    const char *providers;
    /* What its calls must fit (retrace_call_fits); NULL: not checked (the fake
     * memcpy checks its own arguments, the functions replayed as nothing read none). */
    const retrace_shape *shape;
} retrace_entry;

/* The generated sorted table: every replayed GL function, plus "memcpy" (the fake
 * call of mapped-buffer writes). NULL for names it lacks (GLX/EGL: the core's). */
retrace_fn retrace_gl_lookup(const char *name);
const retrace_entry *retrace_gl_entry(const char *name);
extern const retrace_entry retrace_gl_table[];
extern const unsigned retrace_gl_count;
/* Whether recorders offer the function whatever the driver has (markers, debug output;
 * specs/annotations.txt provide/nodriver): skipped silently where the context lacks it,
 * as apitrace's glretrace does. */
bool retrace_gl_offered(const char *name);
void retrace_memcpy(const gt_call *call);

/* Scratch memory of the calling thread, valid until the next generated replayer of
 * this thread starts (each starts with retrace_scratch_reset). Never NULL. */
void *retrace_scratch(size_t size);
void retrace_scratch_reset(void);
/* Frees this thread's scratch (a replay thread as it ends; retrace_values_free too). */
void retrace_scratch_free(void);

/* Client memory the GL reads after the call (vertex arrays given as blobs): a copy that
 * outlives the call, kept until enough later ones replace it (a draw's arrays are
 * re-sent before each draw that reads them). Other values as retrace_pointer. */
const void *retrace_pointer_keep(const gt_value *v);

/* Outputs: the number of elements the trace recorded for V, or N if larger (N < 0
 * counts as 0); and zeroed scratch that large (NULL where the trace has NULL). */
size_t retrace_out_count(const gt_value *v, int64_t n);
void *retrace_out(const gt_value *v, int64_t count, size_t elem_size);
/* An output the GL writes after the call (glSelectBuffer): zeroed memory of the same
 * size that stays valid while the next 15 such outputs are made. */
void *retrace_out_keep(const gt_value *v, int64_t count, size_t elem_size);

/* The traced context now current and the traced handle of its share group (the first
 * context of the group: the share list's own group, or the context itself), for the
 * name maps: objects shared between contexts are mapped per share group, container
 * objects (framebuffers, vertex arrays, transform feedbacks, program pipelines,
 * queries) per context. The replay core calls it at each MakeCurrent and each switch
 * of traced thread; without calls every name lives in one group (0, 0). */
void retrace_map_context(uint64_t context, uint64_t share_group);

/* Arrays of object names: remapped into scratch (elements of elem_size bytes); the
 * names GL created mapped from the traced ones; deleted names forgotten. */
const void *retrace_map_names(const char *ns, const gt_value *v, size_t elem_size);
void retrace_map_set_names(const char *ns, const gt_value *traced, const void *replayed,
                           size_t elem_size, size_t n);
void retrace_unmap_names(const char *ns, const gt_value *v);
/* Ranges of consecutive names (display lists). */
void retrace_map_range(const char *ns, const gt_value *traced, uint64_t replayed, int64_t range);
void retrace_unmap_range(const char *ns, uint64_t traced, int64_t range);

/* Uniform locations, per (replayed) program: unknown locations map to themselves. */
int64_t retrace_location_get(uint64_t program, int64_t traced);
void retrace_location_set(uint64_t program, int64_t traced, int64_t replayed);
uint64_t retrace_current_program(void);
/* The location in the current program (glUniform*): asks GL for it only once some
 * location differs between trace and replay. */
int64_t retrace_location_current(int64_t traced);

/* Mapped regions with the buffer they belong to (key), for unmapping; a lookup of any
 * address inside a region, with the bytes left in it. */
void retrace_ptr_set_key(uint64_t traced, void *replayed, uint64_t size, uint64_t key);
void retrace_ptr_del_key(uint64_t key);
void *retrace_ptr_lookup(uint64_t traced, uint64_t *room);

/* Argument checks (retrace_check.c), generated before the GL call: each warns
 * and returns false when the call must be skipped. */
typedef struct retrace_enum_group {
    const char *name;       /* gl.xml's group */
    unsigned n;
    const uint32_t *values; /* sorted */
} retrace_enum_group;
/* Whether V has a size to check: blobs, arrays and strings (NULL, offsets into bound
 * buffers and absent values have none). */
static inline bool retrace_has_size(const gt_value *v)
{
    return v->kind == GT_BLOB || v->kind == GT_ARRAY || v->kind == GT_STRING;
}
/* Argument ARG holds the N elements of ELEM bytes the call reads (arrays: N items). */
bool retrace_check_size(const gt_call *call, unsigned arg, int64_t n, size_t elem);
/* Argument ARG, an offset into the buffer bound at BINDING (GL_ELEMENT_ARRAY_BUFFER_BINDING,
 * GL_PIXEL_UNPACK_BUFFER_BINDING), has such a buffer bound (NULL_OK: or is NULL, which
 * reads nothing): else the GL would read client memory at that address. */
bool retrace_check_bound(const gt_call *call, unsigned arg, unsigned binding, bool null_ok);
/* Argument ARG is a value of the enum group G. */
bool retrace_check_enum(const gt_call *call, unsigned arg, const retrace_enum_group *g);
/* Output argument ARG has room for the N elements the call writes: a count beyond what
 * the trace recorded there, and beyond RETRACE_OUT_MAX elements, is damage (a real
 * call's outputs are recorded whole), so no scratch of that size is allocated. */
#define RETRACE_OUT_MAX ((int64_t)1 << 20)
bool retrace_check_out(const gt_call *call, unsigned arg, int64_t n);

/* Calls that fit their function (retrace_check.c), checked before the replayer runs:
 * the generated replayers read the arguments the shape names with no check of their
 * own. A signature fits when it has the function's parameter count (checked once per
 * signature); a call when each value is of a kind its parameter takes. On a misfit,
 * with WARN, one warning names the signature or the argument. */
bool retrace_sig_fits(const gt_call *call, const retrace_shape *s, bool warn);
bool retrace_call_fits_slow(const gt_call *call, const retrace_shape *s, bool warn);
/* Inline, as it runs before every GL call: one bit test per argument, the rest (reprs,
 * a writer's 0 for NULL, string lists' items, the warning) out of line. */
static inline bool retrace_call_fits(const gt_call *call, const retrace_shape *s, bool warn)
{
    if (call->num_args < s->n || s->items)
        return retrace_call_fits_slow(call, s, warn);
    for (unsigned i = 0; i < s->n; ++i)
        if (!(s->takes[i] & RETRACE_KIND(call->args[i].kind)))
            return retrace_call_fits_slow(call, s, warn);
    return true;
}

/* Frees every map, kept array and scratch block above and forgets the current
 * context: the end of a replay, so that another may follow in the same process. */
void retrace_values_free(void);

/* Hooks named in specs/annotations.txt (`retrace F hook FN`, `retrace F prehook FN`). */
void retrace_hook_map_buffer(const gt_call *call, void *ret);
void retrace_hook_map_buffer_range(const gt_call *call, void *ret);
void retrace_hook_map_named_buffer(const gt_call *call, void *ret);
void retrace_hook_map_named_buffer_ext(const gt_call *call, void *ret);
void retrace_hook_map_named_buffer_range(const gt_call *call, void *ret);
void retrace_hook_unmap_buffer(const gt_call *call, void *ret);
void retrace_hook_unmap_named_buffer(const gt_call *call, void *ret);
void retrace_hook_pixel_store(const gt_call *call, void *ret);
void retrace_hook_link_program(const gt_call *call, void *ret);
void retrace_hook_link_program_arb(const gt_call *call, void *ret);

/* Keeps the sources of PROGRAM's attached shaders (a replayed name), replacing what an
 * earlier link kept: the link hooks call it, and the state dump for a program the
 * replay did not link (retrace_programs.c). */
void retrace_program_keep(unsigned program);
/* The shader sources PROGRAM had when it was last kept: how many, with each one's
 * type (GL_VERTEX_SHADER...). */
size_t retrace_program_sources(unsigned program, const unsigned **types, char *const **sources);
void retrace_programs_free(void);

/* ---- which functions the current context provides (gl_avail.c) ----
 * Whether the current GL context provides a function, before glretrace calls it:
 * libepoxy aborts the process on a function no provider of the context offers
 * (glMakeTextureHandleResidentARB on llvmpipe). The providers of each function come
 * from the registry (specs/providers.py, in the generated table); the answers are
 * cached per context, so the check on the hot path is one byte load and a branch. */
typedef struct gl_avail {
    bool desktop;   /* desktop GL, else OpenGL ES */
    int version;    /* 10 * major + minor, as epoxy_gl_version() */
    unsigned n;     /* entries of known */
    uint8_t *known; /* by table index: 0 not asked yet, 1 provided, 2 not provided */
} gl_avail;

/* The cache of the context current now (reads its version and API); NULL when out
 * of memory (then every function counts as provided). n: the table's entries. */
gl_avail *gl_avail_new(unsigned n);
void gl_avail_free(gl_avail *a);

/* Whether a provider named in PROVIDERS ("GL1.5 ES2.0 GL_ARB_foo") is in A's context,
 * which must be current. Asks GL (the extension list), not the cache. */
bool gl_avail_check(const gl_avail *a, const char *providers);

/* Cached gl_avail_check of table entry I. PROVIDERS NULL: calls no GL, always true. */
static inline bool gl_avail_has(gl_avail *a, unsigned i, const char *providers)
{
    if (!a || !providers || i >= a->n)
        return true;
    if (!a->known[i])
        a->known[i] = gl_avail_check(a, providers) ? 1 : 2;
    return a->known[i] == 1;
}

#endif
