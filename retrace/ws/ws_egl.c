/* The EGL calls of a trace: EGL 1.5 (https://registry.khronos.org/EGL/specs/eglspec.1.5.pdf),
 * EGL_KHR_create_context (the version, profile and debug flag of eglCreateContext),
 * EGL_EXT_platform_base (platform window surfaces) and
 * EGL_KHR/EXT_swap_buffers_with_damage (a swap).
 *
 * A context's API is eglBindAPI's last value (OpenGL ES unless EGL_OPENGL_API), its
 * version and profile its attribute list's. Windows have the samples of the last
 * eglChooseConfig before them, as apitrace's glretrace takes them. */
#include <SDL.h>
#include <stdint.h>

#include "ws_private.h"

/* eglBindAPI(api) */
static void egl_bind_api(const gt_call *call)
{
    int64_t api = ws_int(ws_arg(call, 0));
    ws.egl_api = api == 0x30A2 /* EGL_OPENGL_API */ ? 1 : 0;
}

/* eglCreateContext(dpy, config, share_context, attrib_list) */
static void egl_create_context(const gt_call *call)
{
    const gt_value *a = ws_arg(call, 3);
    ws_profile p = {0};
    const int64_t none = 0x3038; /* EGL_NONE */
    if (ws.egl_api == 1) {
        p.major = (int)ws_attrib(a, 0x3098 /* EGL_CONTEXT_MAJOR_VERSION */, none, 0);
        p.minor = (int)ws_attrib(a, 0x30FB /* EGL_CONTEXT_MINOR_VERSION */, none, 0);
        int64_t mask = ws_attrib(a, 0x30FD /* EGL_CONTEXT_OPENGL_PROFILE_MASK */, none, 1);
        if ((mask & 1) && (p.major > 3 || (p.major == 3 && p.minor >= 2)))
            p.profile_mask = SDL_GL_CONTEXT_PROFILE_CORE;
        else
            p.profile_mask = SDL_GL_CONTEXT_PROFILE_COMPATIBILITY;
        if (p.major < 2) {
            p.major = 0;
            p.minor = 0;
        }
    } else {
        p.api = 1;
        p.major = (int)ws_attrib(a, 0x3098 /* EGL_CONTEXT_CLIENT_VERSION */, none, 1);
        p.minor = (int)ws_attrib(a, 0x30FB, none, 0);
    }
    if (ws_attrib(a, 0x31B0 /* EGL_CONTEXT_OPENGL_DEBUG */, none, 0))
        p.flags |= SDL_GL_CONTEXT_DEBUG_FLAG;
    ws_new_context(call, &p, ws_u64(ws_arg(call, 2)));
}

/* eglChooseConfig(dpy, attrib_list, configs, config_size, num_config) */
static void egl_choose_config(const gt_call *call)
{
    const gt_value *a = ws_arg(call, 1);
    ws_note_samples(ws_attrib(a, 0x3032 /* EGL_SAMPLE_BUFFERS */, 0x3038, -1),
                    ws_attrib(a, 0x3031 /* EGL_SAMPLES */, 0x3038, -1));
}

/* eglCreateWindowSurface(dpy, config, win, attrib_list) and the platform variants */
static void egl_create_window_surface(const gt_call *call)
{
    uint64_t s = ws_u64(call->ret);
    if (s && !ws_find_drawable(s))
        ws_add_drawable(s, 0, 0, false);
}

/* eglCreatePbufferSurface(dpy, config, attrib_list) */
static void egl_create_pbuffer(const gt_call *call)
{
    uint64_t s = ws_u64(call->ret);
    const gt_value *a = ws_arg(call, 2);
    if (s && !ws_find_drawable(s))
        ws_add_drawable(s, (int)ws_attrib(a, 0x3057 /* EGL_WIDTH */, 0x3038, 0),
                        (int)ws_attrib(a, 0x3056 /* EGL_HEIGHT */, 0x3038, 0), true);
}

/* Sorted by name (strcmp) for bsearch. */
static const ws_entry egl_calls[] = {
    {"eglBindAPI", egl_bind_api},
    {"eglChooseConfig", egl_choose_config},
    {"eglCreateContext", egl_create_context},
    {"eglCreatePbufferSurface", egl_create_pbuffer},
    {"eglCreatePlatformWindowSurface", egl_create_window_surface},
    {"eglCreatePlatformWindowSurfaceEXT", egl_create_window_surface},
    {"eglCreateWindowSurface", egl_create_window_surface},
    {"eglDestroyContext", ws_destroy_context},
    {"eglDestroySurface", ws_destroy_surface},
    {"eglGetConfigAttrib", ws_ignore},
    {"eglGetConfigs", ws_ignore},
    {"eglGetCurrentContext", ws_ignore},
    {"eglGetCurrentDisplay", ws_ignore},
    {"eglGetCurrentSurface", ws_ignore},
    {"eglGetDisplay", ws_ignore},
    {"eglGetError", ws_ignore},
    {"eglGetPlatformDisplay", ws_ignore},
    {"eglGetPlatformDisplayEXT", ws_ignore},
    {"eglGetProcAddress", ws_ignore},
    {"eglInitialize", ws_ignore},
    {"eglMakeCurrent", ws_make_context_current},
    {"eglQueryAPI", ws_ignore},
    {"eglQueryContext", ws_ignore},
    {"eglQueryString", ws_ignore},
    {"eglQuerySurface", ws_ignore},
    {"eglReleaseThread", ws_ignore},
    {"eglSurfaceAttrib", ws_ignore},
    {"eglSwapBuffers", ws_swap_buffers},
    {"eglSwapBuffersWithDamageEXT", ws_swap_buffers},
    {"eglSwapBuffersWithDamageKHR", ws_swap_buffers},
    {"eglSwapInterval", ws_ignore},
    {"eglTerminate", ws_ignore},
    {"eglWaitClient", ws_ignore},
    {"eglWaitGL", ws_ignore},
    {"eglWaitNative", ws_ignore},
};
const ws_table ws_egl_table = {egl_calls, sizeof egl_calls / sizeof egl_calls[0]};
