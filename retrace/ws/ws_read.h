/* Separate read drawables on SDL2 windows (ws_read.c). */
#ifndef GLRETRACE_WS_READ_H
#define GLRETRACE_WS_READ_H

#include <SDL.h>

/* Makes ctx current to draw on window draw and read from window read, as
 * glXMakeContextCurrent(dpy, draw, read, ctx) or eglMakeCurrent(dpy, draw, read, ctx).
 * 1 on success; 0 with SDL's error set. */
int ws_read_bind(SDL_Window *draw, SDL_Window *read, SDL_GLContext ctx);

#endif
