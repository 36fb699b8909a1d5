/* Shared pieces of the deterministic demo apps (gl33_demo, es2_demo): command-line options,
 * the X display and window, frame saving and a few column-major 4x4 matrix helpers. No GL calls here:
 * each app does its own glReadPixels and hands the pixels to app_save_frame. */
#ifndef GLTRACE_APPS_APP_COMMON_H
#define GLTRACE_APPS_APP_COMMON_H

#include <stdint.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>

#define APP_WIDTH 320
#define APP_HEIGHT 240
#define APP_DEFAULT_FRAMES 5u

struct app_options {
    unsigned frames;          /* --frames N (default APP_DEFAULT_FRAMES) */
    const char *save_prefix;  /* --save PREFIX, or NULL */
    int warmup;               /* --warmup: one cleared, unsaved swap before frame 0 */
};

/* Parses argv; on --help prints usage and exits 0, on a bad argument prints usage to stderr
 * and exits 2. */
void app_parse_options(int argc, char **argv, struct app_options *opt);

/* An app's own extra usage lines (each ending in a newline), printed after the common ones;
 * NULL (the default) for none. Set it before app_parse_options. */
extern const char *app_extra_usage;

/* An app's own flag: removes every argument equal to `flag` from argv (updating *argc, keeping
 * argv NULL-terminated) and returns how many there were. Call it before app_parse_options,
 * which rejects arguments it does not know. (A --save PREFIX spelled like the flag would be
 * taken too: use --save=PREFIX for such a prefix.) */
int app_take_flag(int *argc, char **argv, const char *flag);

/* XOpenDisplay(NULL); on failure prints "TAG: cannot open X display (is DISPLAY set?)" on
 * stderr and returns NULL. */
Display *app_open_display(const char *tag);

/* Creates, maps and waits for a fixed-size APP_WIDTH x APP_HEIGHT window with the given visual.
 * Returns 0 on failure (message on stderr). */
Window app_create_window(Display *dpy, const XVisualInfo *vi, const char *title);
void app_destroy_window(Display *dpy, Window win);

/* The pixels buffer of --save (APP_WIDTH x APP_HEIGHT x 4 bytes) into *pixels, or NULL
 * without --save. Returns 0, or -1 when out of memory ("TAG: out of memory" on stderr). */
int app_frame_buffer(const char *tag, const struct app_options *opt, uint8_t **pixels);

/* Writes `rgba` (APP_WIDTH x APP_HEIGHT, tightly packed RGBA8, bottom-up rows as glReadPixels
 * returns them) to PREFIX%010u.png (frame = the app's 0-based frame index) as an RGB PNG with
 * top-down rows, the format and orientation of `glretrace -s` snapshots. Returns 0 or -1. */
int app_save_frame(const char *prefix, unsigned frame, const uint8_t *rgba);

/* Column-major 4x4 matrices, as glUniformMatrix4fv(..., GL_FALSE, m) expects. */
void mat4_identity(float m[16]);
void mat4_mul(float out[16], const float a[16], const float b[16]); /* out = a * b */
void mat4_perspective(float m[16], float fovy_rad, float aspect, float znear, float zfar);
void mat4_translate(float m[16], float x, float y, float z);
void mat4_rotate_x(float m[16], float rad);
void mat4_rotate_y(float m[16], float rad);
void mat4_rotate_z(float m[16], float rad);
void mat4_scale(float m[16], float x, float y, float z);

#endif
