/* The GLX calls of a trace: GLX 1.4 (https://registry.khronos.org/OpenGL/specs/gl/glx1.4.pdf),
 * GLX_ARB_create_context and GLX_ARB_create_context_profile (the version, profile and
 * flags of glXCreateContextAttribsARB), GLX_EXT_create_context_es2_profile (an OpenGL
 * ES context), GLX_MESA_query_renderer and the swap-control extensions (nothing to
 * replay).
 *
 * Contexts are created as the traced call asked (glXCreateContext and
 * glXCreateNewContext: compatibility; glXCreateContextAttribsARB: its attribute list).
 * Windows have the traced visual's samples: the last glXChooseFBConfig or
 * glXChooseVisual before them, or what glXGetFBConfigAttrib told of the config a context
 * is created on, as apitrace's glretrace takes them. */
#include <SDL.h>
#include <stdint.h>

#include "gt_grow.h"
#include "ws_private.h"

/* glXMakeCurrent(dpy, drawable, ctx): drawing and reading the same drawable */
static void glx_make_current(const gt_call *call)
{
    uint64_t draw = ws_u64(ws_arg(call, 1));
    ws_make_current(call, draw, draw, ws_u64(ws_arg(call, 2)));
}

/* glXGetFBConfigAttrib(dpy, config, GLX_SAMPLES, value): the samples of that config, as
 * the program was told them (GLFW picks its config so, among all of glXGetFBConfigs');
 * the context created on that config gets them, as in apitrace's glretrace */
static void glx_get_fbconfig_attrib(const gt_call *call)
{
    const gt_value *value = ws_arg(call, 3);
    if (ws_int(ws_arg(call, 2)) != 100001 /* GLX_SAMPLES */ || !value ||
        value->kind != GT_ARRAY || value->arr.n < 1)
        return;
    uint64_t config = ws_u64(ws_arg(call, 1));
    int64_t samples = ws_int(&value->arr.items[0]);
    if (samples < 0 || samples > 64)
        return;
    size_t i = 0;
    while (i < ws.nconfig && ws.configs[i].config != config)
        ++i;
    if (i == ws.nconfig) {
        if (GT_GROW(ws.configs, ws.capconfig, ws.nconfig + 1, 64) != 0)
            return; /* out of memory: the window keeps the last visual's samples */
        ws.nconfig++;
    }
    ws.configs[i].config = config;
    ws.configs[i].samples = (int)samples;
}

/* The samples glXGetFBConfigAttrib told for config, if it was asked. */
static void note_config_samples(uint64_t config)
{
    for (size_t i = 0; i < ws.nconfig; ++i)
        if (ws.configs[i].config == config) {
            ws.samples = ws.configs[i].samples > 1 ? ws.configs[i].samples : 0;
            return;
        }
}

/* A context the trace creates without a version: compatibility, or 3.2 core (--core,
 * apitrace's default profile then). */
static ws_profile legacy_profile(void)
{
    if (ws.core)
        return (ws_profile){.major = 3, .minor = 2, .profile_mask = SDL_GL_CONTEXT_PROFILE_CORE};
    return (ws_profile){.profile_mask = SDL_GL_CONTEXT_PROFILE_COMPATIBILITY};
}

/* glXCreateContext(dpy, vis, shareList, direct) */
static void glx_create_context(const gt_call *call)
{
    ws_profile p = legacy_profile();
    ws_new_context(call, &p, ws_u64(ws_arg(call, 2)));
}

/* glXCreateNewContext(dpy, config, renderType, shareList, direct) */
static void glx_create_new_context(const gt_call *call)
{
    note_config_samples(ws_u64(ws_arg(call, 1)));
    ws_profile p = legacy_profile();
    ws_new_context(call, &p, ws_u64(ws_arg(call, 3)));
}

/* glXCreateContextAttribsARB(dpy, config, share_context, direct, attrib_list) */
static void glx_create_context_attribs(const gt_call *call)
{
    note_config_samples(ws_u64(ws_arg(call, 1)));
    const gt_value *a = ws_arg(call, 4);
    ws_profile p = {0};
    p.major = (int)ws_attrib(a, 0x2091 /* GLX_CONTEXT_MAJOR_VERSION_ARB */, 0, 1);
    p.minor = (int)ws_attrib(a, 0x2092 /* GLX_CONTEXT_MINOR_VERSION_ARB */, 0, 0);
    int64_t mask = ws_attrib(a, 0x9126 /* GLX_CONTEXT_PROFILE_MASK_ARB */, 0, 1);
    int64_t flags = ws_attrib(a, 0x2094 /* GLX_CONTEXT_FLAGS_ARB */, 0, 0);
    if (mask & 0x4) { /* GLX_CONTEXT_ES2_PROFILE_BIT_EXT */
        p.api = 1;
    } else if ((mask & 0x1) && (p.major > 3 || (p.major == 3 && p.minor >= 2))) {
        p.profile_mask = SDL_GL_CONTEXT_PROFILE_CORE;
    } else {
        p.profile_mask = SDL_GL_CONTEXT_PROFILE_COMPATIBILITY;
    }
    if (p.major < 2 && !p.api) { /* 1.x: any compatibility context will do */
        p.major = 0;
        p.minor = 0;
    }
    if (flags & 0x1)
        p.flags |= SDL_GL_CONTEXT_DEBUG_FLAG;
    if (flags & 0x2)
        p.flags |= SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG;
    ws_new_context(call, &p, ws_u64(ws_arg(call, 2)));
}

/* glXChooseFBConfig(dpy, screen, attrib_list, nelements): key/value pairs, None-ended */
static void glx_choose_fbconfig(const gt_call *call)
{
    const gt_value *a = ws_arg(call, 2);
    ws_note_samples(ws_attrib(a, 100000 /* GLX_SAMPLE_BUFFERS */, 0, -1),
                    ws_attrib(a, 100001 /* GLX_SAMPLES */, 0, -1));
}

/* glXChooseVisual(dpy, screen, attrib_list): the boolean attributes (GLX_USE_GL,
 * GLX_RGBA, GLX_DOUBLEBUFFER, GLX_STEREO) stand alone, the others take a value */
static void glx_choose_visual(const gt_call *call)
{
    const gt_value *a = ws_arg(call, 2);
    if (!a || a->kind != GT_ARRAY)
        return;
    int64_t buffers = -1, samples = -1;
    for (size_t i = 0; i < a->arr.n; ++i) {
        int64_t k = ws_int(&a->arr.items[i]);
        if (k == 0)
            break;
        if (k == 1 || k == 4 || k == 5 || k == 6)
            continue;
        if (i + 1 >= a->arr.n)
            break;
        int64_t v = ws_int(&a->arr.items[++i]);
        if (k == 100000)
            buffers = v;
        else if (k == 100001)
            samples = v;
    }
    ws_note_samples(buffers, samples);
}

/* glXCreatePbuffer(dpy, config, attribList) */
static void glx_create_pbuffer(const gt_call *call)
{
    uint64_t s = ws_u64(call->ret);
    const gt_value *a = ws_arg(call, 2);
    if (s && !ws_find_drawable(s))
        ws_add_drawable(s, (int)ws_attrib(a, 0x8041 /* GLX_PBUFFER_WIDTH */, 0, 0),
                        (int)ws_attrib(a, 0x8040 /* GLX_PBUFFER_HEIGHT */, 0, 0), true);
}

/* glXCreateWindow(dpy, config, win, attribList): the GLXWindow is the drawable */
static void glx_create_window(const gt_call *call)
{
    uint64_t s = ws_u64(call->ret);
    if (s && !ws_find_drawable(s))
        ws_add_drawable(s, 0, 0, false);
}

/* Sorted by name (strcmp) for bsearch. */
static const ws_entry glx_calls[] = {
    {"glXChooseFBConfig", glx_choose_fbconfig},
    {"glXChooseVisual", glx_choose_visual},
    {"glXCreateContext", glx_create_context},
    {"glXCreateContextAttribsARB", glx_create_context_attribs},
    {"glXCreateNewContext", glx_create_new_context},
    {"glXCreatePbuffer", glx_create_pbuffer},
    {"glXCreateWindow", glx_create_window},
    {"glXDestroyContext", ws_destroy_context},
    {"glXDestroyPbuffer", ws_destroy_surface},
    {"glXDestroyWindow", ws_destroy_surface},
    {"glXGetClientString", ws_ignore},
    {"glXGetConfig", ws_ignore},
    {"glXGetCurrentContext", ws_ignore},
    {"glXGetCurrentDisplay", ws_ignore},
    {"glXGetCurrentDrawable", ws_ignore},
    {"glXGetCurrentReadDrawable", ws_ignore},
    {"glXGetFBConfigAttrib", glx_get_fbconfig_attrib},
    {"glXGetFBConfigs", ws_ignore},
    {"glXGetProcAddress", ws_ignore},
    {"glXGetProcAddressARB", ws_ignore},
    {"glXGetSelectedEvent", ws_ignore},
    {"glXGetVisualFromFBConfig", ws_ignore},
    {"glXIsDirect", ws_ignore},
    {"glXMakeContextCurrent", ws_make_context_current},
    {"glXMakeCurrent", glx_make_current},
    {"glXQueryContext", ws_ignore},
    {"glXQueryCurrentRendererIntegerMESA", ws_ignore},
    {"glXQueryCurrentRendererStringMESA", ws_ignore},
    {"glXQueryDrawable", ws_ignore},
    {"glXQueryExtension", ws_ignore},
    {"glXQueryExtensionsString", ws_ignore},
    {"glXQueryRendererIntegerMESA", ws_ignore},
    {"glXQueryRendererStringMESA", ws_ignore},
    {"glXQueryServerString", ws_ignore},
    {"glXQueryVersion", ws_ignore},
    {"glXSelectEvent", ws_ignore},
    {"glXSwapBuffers", ws_swap_buffers},
    {"glXSwapIntervalEXT", ws_ignore},
    {"glXSwapIntervalMESA", ws_ignore},
    {"glXSwapIntervalSGI", ws_ignore},
    {"glXWaitGL", ws_ignore},
    {"glXWaitX", ws_ignore},
};
const ws_table ws_glx_table = {glx_calls, sizeof glx_calls / sizeof glx_calls[0]};
