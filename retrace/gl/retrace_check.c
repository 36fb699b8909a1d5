/* Argument checks of the generated GL replayers (specs/gen_retrace.py): a damaged
 * trace must not make the driver read past what the trace holds (a glBufferData size
 * larger than its blob, a glUniform4fv count beyond its array, a glTexImage2D blob
 * shorter than its image) nor get an enum outside the closed groups the annotations
 * name. A failed check warns and the call is skipped, as apitrace goes on.
 *
 * Sizes come from the GL facts the recorder sizes with (common/glfacts: the COMPSIZE
 * helpers), asking this process's GL through the query below, and told of each
 * replayed glPixelStore*, so the unpack state is read exactly when the recorder would
 * read it.
 *
 * Before any of that, each call must fit its function (retrace_call_fits): as many
 * arguments as it has parameters, each value of a kind the parameter takes (an enum
 * where an array belongs would have the GL read its value as an address). */
#include <stdint.h>
#include <stdio.h>

#include <epoxy/gl.h>

#include "retrace_gl.h"
#include "size_helpers.h"

static const char *arg_name(const gt_call *call, unsigned arg)
{
    const gt_func_sig *s = call->sig;
    return s && arg < s->num_args && s->arg_names[arg] ? s->arg_names[arg] : "?";
}

static const char *const kind_names[] = {
    [GT_ABSENT] = "absent", [GT_NULL] = "NULL", [GT_BOOL] = "a boolean",
    [GT_SINT] = "an integer", [GT_UINT] = "an integer", [GT_FLOAT] = "a float",
    [GT_DOUBLE] = "a double", [GT_STRING] = "a string", [GT_WSTRING] = "a wide string",
    [GT_BLOB] = "a blob", [GT_ENUM] = "an enum", [GT_BITMASK] = "a bitmask",
    [GT_ARRAY] = "an array", [GT_STRUCT] = "a struct", [GT_POINTER] = "a pointer",
    [GT_REPR] = "a repr",
};

static const char *kind_name(gt_kind k)
{
    return (unsigned)k < sizeof kind_names / sizeof *kind_names && kind_names[k] ? kind_names[k] : "?";
}

static const char *takes_name(uint32_t takes)
{
    switch (takes) {
    case RETRACE_TAKES_SCALAR: return "a number";
    case RETRACE_TAKES_DATA: return "data (an array, a blob, a string or NULL)";
    case RETRACE_TAKES_DATA_OR_OFFSET: return "data or a buffer offset";
    case RETRACE_TAKES_STRINGS: return "a list of strings";
    default: return "another kind";
    }
}

bool retrace_sig_fits(const gt_call *call, const retrace_shape *s, bool warn)
{
    if (call->sig && call->sig->num_args == s->n)
        return true;
    if (warn)
        retrace_warning(call, "the trace gives it %u arguments, the function takes %u: its calls "
                        "are skipped (warned once)", call->sig ? call->sig->num_args : 0, s->n);
    return false;
}

/* A repr stands for its machine value. */
static const gt_value *machine(const gt_value *v)
{
    return v->kind == GT_REPR && v->repr.machine ? v->repr.machine : v;
}

/* Whether V is of a kind TAKES names (item bits aside), with what the bit test alone
 * does not decide: a repr as its machine value, an integer 0 as NULL where NULL is
 * taken (a writer's way to say NULL). */
static bool kind_fits(const gt_value *v, uint32_t takes)
{
    v = machine(v);
    if (takes & RETRACE_KIND(v->kind) & 0xffffu)
        return true;
    return (v->kind == GT_SINT || v->kind == GT_UINT || v->kind == GT_POINTER) && v->u == 0 &&
           (takes & RETRACE_KIND(GT_NULL));
}

/* The index of the first item of the array A not of a kind ITEMS names, or -1. */
static long item_misfit(const gt_value *a, uint32_t items)
{
    for (size_t i = 0; i < a->arr.n; ++i)
        if (!kind_fits(&a->arr.items[i], items))
            return (long)i;
    return -1;
}

bool retrace_call_fits_slow(const gt_call *call, const retrace_shape *s, bool warn)
{
    if (call->num_args < s->n) { /* the reader gives none such; a call built by hand may */
        if (warn)
            retrace_warning(call, "%u arguments, the function takes %u: skipped (warned once)",
                            call->num_args, s->n);
        return false;
    }
    for (unsigned i = 0; i < s->n; ++i) {
        const gt_value *v = &call->args[i], *a = machine(v);
        uint32_t takes = s->takes[i];
        long item = -1;
        if (kind_fits(v, takes) &&
            (!(takes >> 16) || a->kind != GT_ARRAY || (item = item_misfit(a, takes >> 16)) < 0))
            continue;
        if (!warn)
            return false;
        if (item >= 0)
            retrace_warning(call, "%s[%ld] is %s, the function takes strings there: skipped "
                            "(warned once)", arg_name(call, i), item,
                            kind_name(machine(&a->arr.items[item])->kind));
        else
            retrace_warning(call, "%s is %s, the function takes %s there: skipped (warned once)",
                            arg_name(call, i), kind_name(a->kind), takes_name(takes));
        return false;
    }
    return true;
}

bool retrace_check_size(const gt_call *call, unsigned arg, int64_t n, size_t elem)
{
    if (n <= 0) /* the GL refuses a negative size itself, and reads nothing */
        return true;
    const gt_value *v = &call->args[arg];
    uint64_t need, have;
    const char *unit = "bytes";
    switch (v->kind) {
    case GT_BLOB:
        if (__builtin_mul_overflow((uint64_t)n, (uint64_t)elem, &need))
            need = UINT64_MAX;
        have = v->blob.size;
        break;
    case GT_STRING:
        if (__builtin_mul_overflow((uint64_t)n, (uint64_t)elem, &need))
            need = UINT64_MAX;
        have = v->str.len + 1; /* with its NUL */
        break;
    case GT_ARRAY:
        need = (uint64_t)n;
        have = v->arr.n;
        unit = "items";
        break;
    default:
        return true;
    }
    if (have >= need)
        return true;
    retrace_warning(call, "%s holds %llu %s, the call reads %llu: skipped", arg_name(call, arg),
                    (unsigned long long)have, unit, (unsigned long long)need);
    return false;
}

bool retrace_check_out(const gt_call *call, unsigned arg, int64_t n)
{
    if (n <= RETRACE_OUT_MAX || (uint64_t)n <= retrace_out_count(&call->args[arg], 0))
        return true;
    retrace_warning(call, "%s: the call would write %lld items, the trace recorded %zu: skipped",
                    arg_name(call, arg), (long long)n, retrace_out_count(&call->args[arg], 0));
    return false;
}

bool retrace_check_enum(const gt_call *call, unsigned arg, const retrace_enum_group *g)
{
    uint64_t v = retrace_uint(&call->args[arg]);
    size_t lo = 0, hi = g->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (g->values[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < g->n && g->values[lo] == v)
        return true;
    retrace_warning(call, "%s = 0x%llx is no %s value: skipped", arg_name(call, arg),
                    (unsigned long long)v, g->name);
    return false;
}

bool retrace_check_bound(const gt_call *call, unsigned arg, unsigned binding, bool null_ok)
{
    const gt_value *v = &call->args[arg];
    if (null_ok && retrace_uint(v) == 0)
        return true;
    GLint bound = 0;
    glGetIntegerv(binding, &bound);
    if (bound)
        return true;
    glGetError(); /* a context without that binding point raised an error: ours, not the trace's */
    retrace_warning(call, "%s is an offset (0x%llx) but no %s buffer is bound: skipped",
                    arg_name(call, arg), (unsigned long long)retrace_uint(v),
                    binding == GL_ELEMENT_ARRAY_BUFFER_BINDING ? "element array" : "pixel unpack");
    return false;
}

/* glPixelStore*(pname, param): the size helpers query only what the program set. */
void retrace_hook_pixel_store(const gt_call *call, void *ret)
{
    (void)ret;
    gtsz_note_pixel_store((unsigned)retrace_uint(&call->args[0]));
}

/* The size helpers' query, as the recorder's answers it (wrappers/hook_answers.c): the
 * program was told GL_NUM_PROGRAM_BINARY_FORMATS = 0 (binaries hidden), so the traced
 * lists it counts are empty; the rest are the driver's. */
static int told_integer(unsigned pname)
{
    if (pname == GL_NUM_PROGRAM_BINARY_FORMATS)
        return 0;
    GLint v = 0;
    glGetIntegerv(pname, &v);
    return v;
}

static const gtsz_gl replay_gl = {.get_integer = told_integer};

/* Before any call is replayed. */
__attribute__((constructor)) static void use_replay_gl(void)
{
    gtsz_use_gl(&replay_gl);
}
