/* The window-system setup a frame range's snapshot re-creates (track_ws.c), followed
 * after each call (`track` in specs/annotations.txt) with its arguments and result.
 *
 * Plain C types only: the generated wrapper files include this header after their
 * own GL/GLX/EGL type preludes, and the arguments convert implicitly (an X drawable
 * or an EGL native window is an unsigned long / uintptr_t, EGLAttrib an intptr_t). */
#ifndef HOOK_TRACK_WS_H
#define HOOK_TRACK_WS_H

#include <stdint.h>

void gtt_glx_choose_visual(void *dpy, int screen, int *attribs, void *ret);
void gtt_glx_choose_fbconfig(void *dpy, int screen, const int *attribs, int *nelements, void *ret);
void gtt_glx_create_context(void *dpy, void *vis, void *share, int direct, void *ret);
void gtt_glx_create_new_context(void *dpy, void *config, int render_type, void *share, int direct,
                                void *ret);
void gtt_glx_create_context_attribs(void *dpy, void *config, void *share, int direct,
                                    const int *attribs, void *ret);
void gtt_glx_destroy_context(void *dpy, void *ctx);
void gtt_glx_create_window(void *dpy, void *config, unsigned long win, const int *attribs,
                           unsigned long ret);
void gtt_glx_destroy_window(void *dpy, unsigned long win);
void gtt_glx_create_pbuffer(void *dpy, void *config, const int *attribs, unsigned long ret);
void gtt_glx_destroy_pbuffer(void *dpy, unsigned long pbuf);
void gtt_glx_make_current(void *dpy, unsigned long drawable, void *ctx, int ret);
void gtt_glx_make_context_current(void *dpy, unsigned long draw, unsigned long read, void *ctx,
                                  int ret);

void gtt_egl_get_display(void *native, void *ret);
void gtt_egl_get_platform_display(unsigned platform, void *native, const intptr_t *attribs,
                                  void *ret);
void gtt_egl_initialize(void *dpy, int *major, int *minor, unsigned ret);
void gtt_egl_bind_api(unsigned api, unsigned ret);
void gtt_egl_choose_config(void *dpy, const int *attribs, void **configs, int size, int *num,
                           unsigned ret);
void gtt_egl_create_context(void *dpy, void *config, void *share, const int *attribs, void *ret);
void gtt_egl_destroy_context(void *dpy, void *ctx, unsigned ret);
void gtt_egl_create_window_surface(void *dpy, void *config, uintptr_t win, const int *attribs,
                                   void *ret);
void gtt_egl_create_platform_window_surface(void *dpy, void *config, void *win,
                                            const intptr_t *attribs, void *ret);
void gtt_egl_create_pbuffer_surface(void *dpy, void *config, const int *attribs, void *ret);
void gtt_egl_destroy_surface(void *dpy, void *surface, unsigned ret);
void gtt_egl_make_current(void *dpy, void *draw, void *read, void *ctx, unsigned ret);

#endif
