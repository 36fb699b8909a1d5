/* Shader programs while recording, as apitrace's tracer does them
 * (wrappers/gltrace.py, GlTracer.traceFunctionImplBody/doInvokeFunction):
 *
 * - glLinkProgram / glLinkProgramARB (hand-written wrappers, `override` in
 *   specs/annotations.txt): the real link runs first; then, for each active attribute
 *   of the linked program that is not a built-in (gl_*) and has a location, a fake
 *   glBindAttribLocation[ARB](program, location, name) is written; then the link call
 *   itself. In the trace the bindings come before the link, so a replayer links with
 *   the locations the recorded driver chose, whatever its own driver would pick:
 *
 *     20 glBindAttribLocation(program = 3, index = 0, name = "a_pos") // fake
 *     23 glLinkProgram(program = 3)
 *
 *   The fake calls are only written, never made: the program the application sees is
 *   the one it linked. The queries are made only on a program that exists and linked
 *   (glIsProgram, GL_LINK_STATUS), so they raise no GL error the application could see.
 *
 * Program binaries are hidden in hook_answers.c, with the other answers we change. */
#include <stdlib.h>

#include "gltrace_runtime.h"
#include "gl_enums.gen.h"
#include "hook_program.h"
#include "hook_track_programs.h"
#include "wrappers.gen.h"



typedef void (*link_fn)(unsigned program);
typedef unsigned char (*is_program_fn)(unsigned program);
typedef void (*get_iv_fn)(unsigned program, unsigned pname, int *params);
typedef void (*get_active_attrib_fn)(unsigned program, unsigned index, int bufsize, int *length,
                                     int *size, unsigned *type, char *name);
typedef int (*get_attrib_location_fn)(unsigned program, const char *name);

/* The real functions of one flavour (core or ARB). */
typedef struct attrib_api {
    const char *is_program, *get_iv, *get_active_attrib, *get_attrib_location;
    is_program_fn is_program_fp;
    get_iv_fn get_iv_fp;
    get_active_attrib_fn get_active_attrib_fp;
    get_attrib_location_fn get_attrib_location_fp;
} attrib_api;

static attrib_api core_api = {"glIsProgram", "glGetProgramiv", "glGetActiveAttrib",
                              "glGetAttribLocation", 0, 0, 0, 0};
static attrib_api arb_api = {"glIsProgram", "glGetObjectParameterivARB", "glGetActiveAttribARB",
                             "glGetAttribLocationARB", 0, 0, 0, 0};

static void write_bind(at_writer *w, const gt_func_sig *sig, unsigned program, int location,
                       const char *name)
{
    gltrace_begin_enter(w, sig, AT_WRITER_FAKE);
    at_writer_begin_arg(w, 0);
    at_writer_uint(w, program);
    at_writer_begin_arg(w, 1);
    at_writer_uint(w, (uint64_t)location);
    at_writer_begin_arg(w, 2);
    at_writer_cstring(w, name);
    gltrace_begin_leave(w, gltrace_end_enter(w));
    gltrace_end_leave(w);
}

/* The fake glBindAttribLocation[ARB] calls for the program just linked. */
static void fake_binds(at_writer *w, attrib_api *api, const gt_func_sig *bind_sig,
                       unsigned program)
{
    if (!api->get_iv_fp) {
        api->is_program_fp = (is_program_fn)gltrace_real(api->is_program);
        api->get_active_attrib_fp = (get_active_attrib_fn)gltrace_real(api->get_active_attrib);
        api->get_attrib_location_fp =
            (get_attrib_location_fn)gltrace_real(api->get_attrib_location);
        api->get_iv_fp = (get_iv_fn)gltrace_real(api->get_iv);
    }
    if (!api->get_iv_fp || !api->get_active_attrib_fp || !api->get_attrib_location_fp)
        return;
    /* glGetProgramiv of a name that is no program would raise GL_INVALID_VALUE. */
    if (program == 0 || (api->is_program_fp && !api->is_program_fp(program)))
        return;
    int linked = 0, count = 0, maxlen = 0;
    api->get_iv_fp(program, GL_LINK_STATUS, &linked);
    if (!linked) /* glGetAttribLocation would raise GL_INVALID_OPERATION */
        return;
    api->get_iv_fp(program, GL_ACTIVE_ATTRIBUTES, &count);
    if (count <= 0)
        return;
    api->get_iv_fp(program, GL_ACTIVE_ATTRIBUTE_MAX_LENGTH, &maxlen);
    if (maxlen < 256)
        maxlen = 256;
    char *name = malloc((size_t)maxlen + 1);
    if (!name)
        return;
    for (int i = 0; i < count; ++i) {
        int len = 0, size = 0;
        unsigned type = 0;
        name[0] = '\0';
        api->get_active_attrib_fp(program, (unsigned)i, maxlen, &len, &size, &type, name);
        name[len >= 0 && len <= maxlen ? len : maxlen] = '\0';
        if (!name[0] || (name[0] == 'g' && name[1] == 'l' && name[2] == '_'))
            continue; /* built-ins have no location to bind */
        int location = api->get_attrib_location_fp(program, name);
        if (location >= 0)
            write_bind(w, bind_sig, program, location, name);
    }
    free(name);
}

/* The link wrappers: real call, fake bindings, then the call's enter and leave. */
static void traced_link(const char *fname, link_fn *real, const gt_func_sig *sig,
                        attrib_api *api, const gt_func_sig *bind_sig, unsigned program)
{
    if (!*real)
        *real = (link_fn)gltrace_real(fname);
    at_writer *w = gltrace_writer();
    if (*real && !gltrace_faking()) /* the snapshot's relink is only written */
        (*real)(program);
    if (__builtin_expect(gltrace_tracking, 0)) /* frame ranges: what it linked */
        gtt_link_program(program);
    if (!w)
        return;
    fake_binds(w, api, bind_sig, program);
    gltrace_begin_enter(w, sig, 0);
    at_writer_begin_arg(w, 0);
    at_writer_uint(w, program);
    gltrace_backtrace(w, sig->id, fname);
    gltrace_begin_leave(w, gltrace_end_enter(w));
    gltrace_end_leave(w);
}

GLTRACE_EXPORT void glLinkProgram(unsigned program);
GLTRACE_EXPORT void glLinkProgramARB(unsigned programObj);

GLTRACE_EXPORT void glLinkProgram(unsigned program)
{
    static link_fn real;
    traced_link("glLinkProgram", &real, &gtfn_glLinkProgram, &core_api, &gtfn_glBindAttribLocation,
                program);
}

GLTRACE_EXPORT void glLinkProgramARB(unsigned programObj)
{
    static link_fn real;
    traced_link("glLinkProgramARB", &real, &gtfn_glLinkProgramARB, &arb_api,
                &gtfn_glBindAttribLocationARB, programObj);
}
