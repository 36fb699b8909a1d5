/* See app_common.h. */
#include "app_common.h"
#include "gt_png.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f, const char *argv0)
{
    fprintf(f,
            "usage: %s [--frames N] [--save PREFIX] [--warmup]\n"
            "  --frames N     render N frames (default %u), then exit\n"
            "  --save PREFIX  before each swap, write the back buffer to PREFIX%%010u.png,\n"
            "                 the number being the 0-based frame index (RGB, top-down rows)\n"
            "  --warmup       before frame 0, clear the window and swap once (not a numbered\n"
            "                 frame, never saved), so that glretrace on Mesa replays frame 0\n"
            "                 at the full window size (see README.md)\n",
            argv0, APP_DEFAULT_FRAMES);
    if (app_extra_usage)
        fputs(app_extra_usage, f);
}

const char *app_extra_usage = NULL;

int app_take_flag(int *argc, char **argv, const char *flag)
{
    int found = 0, out = 1;
    for (int i = 1; i < *argc; i++) {
        if (strcmp(argv[i], flag) == 0)
            found++;
        else
            argv[out++] = argv[i];
    }
    argv[out] = NULL;
    *argc = out;
    return found;
}

/* If argv[*i] is `name` or `name=VALUE`, returns the value (taking the next argument for the
 * first form, "" if there is none) and advances *i past what it used; otherwise NULL. */
static const char *option_value(const char *name, int argc, char **argv, int *i)
{
    size_t n = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, n) != 0)
        return NULL;
    if (a[n] == '=')
        return a + n + 1;
    if (a[n] != '\0')
        return NULL;
    if (*i + 1 >= argc)
        return "";
    return argv[++*i];
}

void app_parse_options(int argc, char **argv, struct app_options *opt)
{
    opt->frames = APP_DEFAULT_FRAMES;
    opt->save_prefix = NULL;
    opt->warmup = 0;
    for (int i = 1; i < argc; i++) {
        const char *val;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout, argv[0]);
            exit(0);
        } else if (strcmp(argv[i], "--warmup") == 0) {
            opt->warmup = 1;
        } else if ((val = option_value("--frames", argc, argv, &i))) {
            char *end = NULL;
            errno = 0;
            unsigned long v = strtoul(val, &end, 10);
            if (!*val || *end || errno || val[0] == '-' || v == 0 || v > 1000000) {
                fprintf(stderr, "%s: --frames needs a number from 1 to 1000000\n", argv[0]);
                usage(stderr, argv[0]);
                exit(2);
            }
            opt->frames = (unsigned)v;
        } else if ((val = option_value("--save", argc, argv, &i))) {
            if (!*val) {
                fprintf(stderr, "%s: --save needs a prefix\n", argv[0]);
                usage(stderr, argv[0]);
                exit(2);
            }
            opt->save_prefix = val;
        } else {
            fprintf(stderr, "%s: unknown argument '%s'\n", argv[0], argv[i]);
            usage(stderr, argv[0]);
            exit(2);
        }
    }
}

Display *app_open_display(const char *tag)
{
    Display *dpy = XOpenDisplay(NULL);
    if (!dpy)
        fprintf(stderr, "%s: cannot open X display (is DISPLAY set?)\n", tag);
    return dpy;
}

Window app_create_window(Display *dpy, const XVisualInfo *vi, const char *title)
{
    Window root = RootWindow(dpy, vi->screen);
    XSetWindowAttributes swa;
    memset(&swa, 0, sizeof swa);
    swa.colormap = XCreateColormap(dpy, root, vi->visual, AllocNone);
    swa.border_pixel = 0;
    swa.event_mask = StructureNotifyMask | ExposureMask;
    Window win = XCreateWindow(dpy, root, 0, 0, APP_WIDTH, APP_HEIGHT, 0, vi->depth, InputOutput,
                               vi->visual, CWColormap | CWBorderPixel | CWEventMask, &swa);
    if (!win) {
        fprintf(stderr, "cannot create an X window\n");
        return 0;
    }
    /* A fixed size, so that a window manager (if any) leaves it alone. */
    XSizeHints hints;
    memset(&hints, 0, sizeof hints);
    hints.flags = PSize | PMinSize | PMaxSize;
    hints.width = hints.min_width = hints.max_width = APP_WIDTH;
    hints.height = hints.min_height = hints.max_height = APP_HEIGHT;
    XSetWMNormalHints(dpy, win, &hints);
    XStoreName(dpy, win, title);
    XMapWindow(dpy, win);
    for (;;) {
        XEvent ev;
        XNextEvent(dpy, &ev);
        if (ev.type == MapNotify && ev.xmap.window == win)
            break;
    }
    return win;
}

void app_destroy_window(Display *dpy, Window win)
{
    XWindowAttributes wa;
    Colormap cmap = 0;
    if (XGetWindowAttributes(dpy, win, &wa))
        cmap = wa.colormap;
    XDestroyWindow(dpy, win);
    if (cmap)
        XFreeColormap(dpy, cmap);
}

int app_frame_buffer(const char *tag, const struct app_options *opt, uint8_t **pixels)
{
    *pixels = opt->save_prefix ? malloc((size_t)APP_WIDTH * APP_HEIGHT * 4) : NULL;
    if (opt->save_prefix && !*pixels) {
        fprintf(stderr, "%s: out of memory\n", tag);
        return -1;
    }
    return 0;
}

int app_save_frame(const char *prefix, unsigned frame, const uint8_t *rgba)
{
    size_t len = strlen(prefix) + 16;
    char *path = malloc(len);
    uint8_t *rgb = malloc((size_t)APP_WIDTH * APP_HEIGHT * 3);
    int rc = -1;
    if (!path || !rgb) {
        fprintf(stderr, "out of memory saving frame %u\n", frame);
        goto out;
    }
    snprintf(path, len, "%s%010u.png", prefix, frame);
    /* glReadPixels rows run bottom-up; PNG rows run top-down. Drop alpha. */
    for (unsigned y = 0; y < APP_HEIGHT; y++) {
        const uint8_t *src = rgba + (size_t)(APP_HEIGHT - 1 - y) * APP_WIDTH * 4;
        uint8_t *dst = rgb + (size_t)y * APP_WIDTH * 3;
        for (unsigned x = 0; x < APP_WIDTH; x++) {
            dst[3 * x + 0] = src[4 * x + 0];
            dst[3 * x + 1] = src[4 * x + 1];
            dst[3 * x + 2] = src[4 * x + 2];
        }
    }
    gt_error err;
    gt_error_clear(&err);
    if (gt_png_write(path, rgb, APP_WIDTH, APP_HEIGHT, 3, (size_t)APP_WIDTH * 3, false, &err) == 0) {
        rc = 0;
    } else {
        fprintf(stderr, "%s\n", err.msg);
        rc = -1;
    }
out:
    free(path);
    free(rgb);
    return rc;
}

void mat4_identity(float m[16])
{
    memset(m, 0, 16 * sizeof m[0]);
    m[0] = m[5] = m[10] = m[15] = 1.0f;
}

void mat4_mul(float out[16], const float a[16], const float b[16])
{
    float r[16];
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            float s = 0.0f;
            for (int k = 0; k < 4; k++)
                s += a[k * 4 + row] * b[c * 4 + k];
            r[c * 4 + row] = s;
        }
    memcpy(out, r, sizeof r);
}

void mat4_perspective(float m[16], float fovy_rad, float aspect, float znear, float zfar)
{
    float f = 1.0f / tanf(fovy_rad / 2.0f);
    memset(m, 0, 16 * sizeof m[0]);
    m[0] = f / aspect;
    m[5] = f;
    m[10] = (zfar + znear) / (znear - zfar);
    m[11] = -1.0f;
    m[14] = 2.0f * zfar * znear / (znear - zfar);
}

void mat4_translate(float m[16], float x, float y, float z)
{
    mat4_identity(m);
    m[12] = x;
    m[13] = y;
    m[14] = z;
}

void mat4_rotate_x(float m[16], float rad)
{
    float c = cosf(rad), s = sinf(rad);
    mat4_identity(m);
    m[5] = c;
    m[6] = s;
    m[9] = -s;
    m[10] = c;
}

void mat4_rotate_y(float m[16], float rad)
{
    float c = cosf(rad), s = sinf(rad);
    mat4_identity(m);
    m[0] = c;
    m[2] = -s;
    m[8] = s;
    m[10] = c;
}

void mat4_rotate_z(float m[16], float rad)
{
    float c = cosf(rad), s = sinf(rad);
    mat4_identity(m);
    m[0] = c;
    m[1] = s;
    m[4] = -s;
    m[5] = c;
}

void mat4_scale(float m[16], float x, float y, float z)
{
    mat4_identity(m);
    m[0] = x;
    m[5] = y;
    m[10] = z;
}
