/* Snapshots as apitrace takes them: the current drawable read with glReadPixels
 * (GL_RGBA bytes, which every GL and GLES context can read) and written as a PNG named
 * PREFIX%010u.png (RGB, or RGBA with alpha; "Wrote PATH" on stdout), or to stdout with
 * the prefix "-": PNM (P6, a comment with the number), raw RGB rows, or the MD5 digest
 * of those rows in upper-case hex, byte for byte as apitrace's glretrace writes them.
 * The replayed program's pixel-pack state and read bindings are saved and restored
 * around the read (ws_read_state.c). */
#include <epoxy/gl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gt_md5.h"
#include "gt_png.h"
#include "ws.h"

/* The folders PREFIX names ("out/" or "out/game.") are made when missing, as apitrace
 * does. */
static void make_prefix_dir(const char *prefix)
{
    if (!strchr(prefix, '/'))
        return;
    char *p = strdup(prefix);
    if (!p)
        return;
    for (char *s = p + 1; *s; ++s)
        if (*s == '/') {
            *s = 0;
            mkdir(p, 0777);
            *s = '/';
        }
    free(p);
}

/* The RGB rows of an RGBA image read bottom-up (glReadPixels), top row first: what PNM,
 * raw RGB and MD5 hold. */
static void rgb_rows_top_down(const uint8_t *px, int w, int h, uint8_t *rgb)
{
    for (int y = 0; y < h; ++y) {
        const uint8_t *row = px + (size_t)(h - 1 - y) * (size_t)w * 4;
        uint8_t *out = rgb + (size_t)y * (size_t)w * 3;
        for (int x = 0; x < w; ++x)
            memcpy(out + 3 * x, row + 4 * x, 3);
    }
}

/* Writes the image to stdout in the stream format: 0, or -1 with err set. */
static int write_stream(const snapshot_spec *sp, uint32_t number, const uint8_t *px, int w, int h,
                        gt_error *err)
{
    size_t n = (size_t)w * (size_t)h * 3;
    uint8_t *rgb = malloc(n ? n : 1);
    if (!rgb) {
        gt_error_set(err, "out of memory for a %dx%d snapshot", w, h);
        return -1;
    }
    rgb_rows_top_down(px, w, h, rgb);
    int ok = 1;
    if (sp->format == SNAPSHOT_MD5) {
        gt_md5 m;
        uint8_t d[16];
        gt_md5_init(&m);
        gt_md5_update(&m, rgb, n);
        gt_md5_final(&m, d);
        for (int i = 0; i < 16; ++i)
            ok &= printf("%02X", d[i]) > 0;
        ok &= putchar('\n') != EOF;
    } else {
        if (sp->format == SNAPSHOT_PNM)
            ok &= printf("P6\n#%u\n%d %d\n255\n", number, w, h) > 0;
        ok &= fwrite(rgb, 1, n, stdout) == n;
    }
    free(rgb);
    if (!ok || fflush(stdout) != 0) {
        gt_error_set(err, "writing the snapshot to stdout failed: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* --snapshot-max: W x H pixels of CHANNELS bytes averaged in K x K blocks (K the whole
 * factor that brings both sides to at most max), in place; *w, *h the new size. */
static void shrink(uint8_t *px, int *w, int *h, unsigned channels, uint32_t max)
{
    int big = *w > *h ? *w : *h;
    if (!max || big <= (int)max)
        return;
    int k = (int)((big + (int)max - 1) / (int)max);
    int ow = *w / k > 0 ? *w / k : 1, oh = *h / k > 0 ? *h / k : 1;
    for (int y = 0; y < oh; ++y)
        for (int x = 0; x < ow; ++x)
            for (unsigned c = 0; c < channels; ++c) {
                unsigned sum = 0, n = 0;
                for (int dy = 0; dy < k && y * k + dy < *h; ++dy)
                    for (int dx = 0; dx < k && x * k + dx < *w; ++dx, ++n)
                        sum += px[((size_t)(y * k + dy) * (size_t)*w + (size_t)(x * k + dx)) *
                                      channels + c];
                /* the output pixel lies at or before every input one it reads: in place */
                px[((size_t)y * (size_t)ow + (size_t)x) * channels + c] = (uint8_t)(sum / n);
            }
    *w = ow;
    *h = oh;
}

/* Writes PREFIX%010uSUFFIX.png: RGB, or RGBA with alpha, from RGBA pixels (CHANNELS
 * 4), or grey (CHANNELS 1). 0, or -1 with err set. */
static int write_png(const snapshot_spec *sp, uint32_t number, const char *suffix, uint8_t *px,
                     int w, int h, unsigned channels, gt_error *err)
{
    shrink(px, &w, &h, channels, sp->max);
    if (channels == 4 && !sp->alpha) {
        gt_png_rgba_to_rgb(px, (size_t)w * (size_t)h);
        channels = 3;
    }
    size_t stride = (size_t)w * channels;
    char *path = malloc(strlen(sp->prefix) + strlen(suffix) + 16);
    if (!path) {
        gt_error_set(err, "out of memory");
        return -1;
    }
    make_prefix_dir(sp->prefix);
    sprintf(path, "%s%010u%s.png", sp->prefix, number, suffix);
    /* the name replaced, never a link followed: the prefix may be a folder others can
     * plant names in (gltrace view's cache) */
    int rc = gt_png_write_name(path, px, (unsigned)w, (unsigned)h, channels, stride, true, err);
    if (rc == 0) /* as apitrace's glretrace says it; scripts read these lines */
        printf("Wrote %s\n", path);
    free(path);
    return rc;
}

/* Reads W x H pixels from the read framebuffer and writes them as SP says (a PNG file
 * name ends with SUFFIX): 0, or -1 with err set. */
static int read_and_write(const snapshot_spec *sp, uint32_t number, const char *suffix, int w,
                          int h, gt_error *err)
{
    size_t stride = (size_t)w * 4;
    uint8_t *px = calloc((size_t)h, stride); /* what GL leaves unwritten reads as black */
    if (!px) {
        gt_error_set(err, "out of memory for a %dx%d snapshot", w, h);
        return -1;
    }
    int rc = -1;
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px);
    GLenum e = glGetError();
    if (e != GL_NO_ERROR)
        gt_error_set(err, "glReadPixels failed (0x%04x)", (unsigned)e);
    else if (!strcmp(sp->prefix, "-"))
        rc = write_stream(sp, number, px, w, h, err);
    else
        rc = write_png(sp, number, suffix, px, w, h, 4, err);
    free(px);
    return rc;
}

/* -m: the read framebuffer's depth (FORMAT GL_DEPTH_COMPONENT, "-z") or stencil
 * (GL_STENCIL_INDEX, "-s") as 8-bit grey, as apitrace writes them; nothing where the
 * framebuffer has none (the read fails). */
static void read_grey(const snapshot_spec *sp, uint32_t number, const char *suffix, GLenum format,
                      int w, int h)
{
    uint8_t *px = calloc((size_t)h, (size_t)w);
    if (!px)
        return;
    glReadPixels(0, 0, w, h, format, GL_UNSIGNED_BYTE, px);
    gt_error err;
    gt_error_clear(&err);
    if (glGetError() == GL_NO_ERROR && write_png(sp, number, suffix, px, w, h, 1, &err) != 0)
        fprintf(stderr, "warning: %s\n", err.msg);
    free(px);
}

/* -m: every colour buffer drawn to ("-mrtI", I the draw buffer's index; the window's
 * colour is mrt0), then depth and stencil. 0, or -1 with err set when no colour buffer
 * could be written. */
static int write_mrt(const snapshot_spec *sp, uint32_t number, GLint fbo, int w, int h,
                     gt_error *err)
{
    int rc = -1, written = 0;
    GLint n = 1;
    if (fbo)
        glGetIntegerv(GL_MAX_DRAW_BUFFERS, &n);
    for (GLint i = 0; i < n && i < 32; ++i) {
        GLint buf = GL_NONE;
        glGetIntegerv(GL_DRAW_BUFFER0 + (GLenum)i, &buf);
        if (fbo && (buf < GL_COLOR_ATTACHMENT0 || buf > GL_COLOR_ATTACHMENT0 + 31))
            continue;
        if (fbo)
            glReadBuffer((GLenum)buf);
        char suffix[16];
        snprintf(suffix, sizeof suffix, "-mrt%d", i);
        if (read_and_write(sp, number, suffix, w, h, err) == 0)
            written++;
    }
    if (written)
        rc = 0;
    while (glGetError() != GL_NO_ERROR)
        ;
    read_grey(sp, number, "-z", GL_DEPTH_COMPONENT, w, h);
    read_grey(sp, number, "-s", GL_STENCIL_INDEX, w, h);
    return rc;
}

int snapshot_write(const snapshot_spec *sp, uint32_t number, bool from_draw_fbo, gt_error *err)
{
    int w = 0, h = 0;
    ws_current_size(&w, &h);
    if (w <= 0 || h <= 0) {
        gt_error_set(err, "no current drawable to snapshot");
        return -1;
    }
    ws_read_state saved;
    ws_read_state_save(&saved);
    GLint target_fbo = from_draw_fbo ? saved.draw_fbo : 0;
    if (target_fbo) { /* an FBO: read what the viewport covers */
        GLint vp[4] = {0, 0, 0, 0};
        glGetIntegerv(GL_VIEWPORT, vp);
        if (vp[2] > 0 && vp[3] > 0) {
            w = vp[0] + vp[2];
            h = vp[1] + vp[3];
        }
    }
    ws_read_state_set(&saved, target_fbo, sp->front);
    while (glGetError() != GL_NO_ERROR) /* errors of the trace's calls were reported */
        ;
    int rc = sp->mrt && strcmp(sp->prefix, "-") ? write_mrt(sp, number, target_fbo, w, h, err)
                                               : read_and_write(sp, number, "", w, h, err);
    ws_read_state_restore(&saved);
    while (glGetError() != GL_NO_ERROR)
        ;
    return rc;
}
