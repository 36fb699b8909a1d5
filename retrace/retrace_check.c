/* Argument checks of the generated GL replayers (specs/gen_retrace.py): a damaged
 * trace must not make the driver read past what the trace holds (a glBufferData size
 * larger than its blob, a glUniform4fv count beyond its array, a glTexImage2D blob
 * shorter than its image) nor get an enum outside the closed groups the annotations
 * name. A failed check warns and the call is skipped, as apitrace goes on.
 *
 * Sizes come from the recorder's own size facts: the COMPSIZE helpers of
 * wrappers/size_helpers.c are compiled into glretrace, with gltrace_real() below
 * standing for the recorder's lookup of the real GL, and the pixel-store hook told
 * of each replayed glPixelStore*, so the unpack state is read exactly when the
 * recorder would read it. */
#include <stdio.h>
#include <string.h>

#include <epoxy/gl.h>

#include "retrace_gen.h"
#include "size_helpers.h"

static const char *arg_name(const gt_call *call, unsigned arg)
{
    const gt_func_sig *s = call->sig;
    return s && arg < s->num_args && s->arg_names[arg] ? s->arg_names[arg] : "?";
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
    gtw_hook_pixel_store(NULL, (unsigned)retrace_uint(&call->args[0]),
                         retrace_sint(&call->args[1]));
}

/* The size helpers' way to the GL (their only use: glGetIntegerv of counts and of the
 * unpack state), here through libepoxy. */
void *gltrace_real(const char *name)
{
    if (!strcmp(name, "glGetIntegerv"))
        return (void *)epoxy_glGetIntegerv;
    return NULL;
}

/* The counts the size helpers size lists with (wrappers/hook_answers.c's in the
 * recorder): the program was told GL_NUM_PROGRAM_BINARY_FORMATS = 0 (binaries hidden),
 * so the traced lists it counts are empty; the rest are the driver's. */
int gth_answer_count(unsigned pname)
{
    if (pname == GL_NUM_PROGRAM_BINARY_FORMATS)
        return 0;
    GLint v = 0;
    glGetIntegerv(pname, &v);
    return v;
}
