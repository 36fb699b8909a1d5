#include "size_helpers.h"

#include <stdatomic.h>

/* ---- pname counts --------------------------------------------------------------- */

/* gtsz_counts (pnames with more than one value, sorted) and gtsz_counted (lists whose
 * length is another pname's value), generated from specs/state.txt, whose values the
 * state dump writes with the same counts. */
#include "pname_counts.gen.h"

static const gtsz_gl *_Atomic g_gl;

void gtsz_use_gl(const gtsz_gl *gl)
{
    atomic_store_explicit(&g_gl, gl, memory_order_release);
}

/* The value as the program was told it, so a list is sized with the length the
 * program's buffer has. */
static int get_integer(unsigned pname)
{
    const gtsz_gl *gl = atomic_load_explicit(&g_gl, memory_order_acquire);
    return gl && gl->get_integer ? gl->get_integer(pname) : 0;
}

long long gtsz_pname(unsigned pname)
{
    unsigned lo = 0, hi = sizeof gtsz_counts / sizeof *gtsz_counts;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (gtsz_counts[mid].pname < pname)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < sizeof gtsz_counts / sizeof *gtsz_counts && gtsz_counts[lo].pname == pname)
        return gtsz_counts[lo].count;
    for (unsigned i = 0; i < sizeof gtsz_counted / sizeof *gtsz_counted; ++i)
        if (gtsz_counted[i][0] == pname) /* the program asked for the list: the count is valid */
            return get_integer(gtsz_counted[i][1]);
    return 1;
}

long long gtsz_clear_buffer(unsigned buffer)
{
    return buffer == 0x1800 /* GL_COLOR */ ? 4 : 1;
}

static int type_size(unsigned type)
{
    switch (type) {
    case 0x1400: case 0x1401: return 1; /* GL_BYTE, GL_UNSIGNED_BYTE */
    case 0x1402: case 0x1403: return 2; /* GL_SHORT, GL_UNSIGNED_SHORT */
    case 0x1404: case 0x1405: case 0x1406: return 4; /* GL_INT, GL_UNSIGNED_INT, GL_FLOAT */
    case 0x1407: return 2; /* GL_2_BYTES */
    case 0x1408: return 3; /* GL_3_BYTES */
    case 0x1409: return 4; /* GL_4_BYTES */
    case 0x140A: return 8; /* GL_DOUBLE */
    default: return 0;
    }
}

long long gtsz_count_type(long long count, unsigned type)
{
    return count > 0 ? count * type_size(type) : 0;
}

long long gtsz_bytes(long long size) { return size > 0 ? size : 0; }

long long gtsz_indirect(long long drawcount, long long stride, long long size)
{
    return drawcount > 0 ? (drawcount - 1) * (stride > 0 ? stride : size) + size : 0;
}

/* ---- pixel data ----------------------------------------------------------------- */

long long gtsz_unless_proxy(unsigned target, long long size)
{
    switch (target) {
    case 0x8063: /* GL_PROXY_TEXTURE_1D */
    case 0x8064: /* GL_PROXY_TEXTURE_2D */
    case 0x8070: /* GL_PROXY_TEXTURE_3D */
    case 0x8C19: /* GL_PROXY_TEXTURE_1D_ARRAY */
    case 0x8C1B: /* GL_PROXY_TEXTURE_2D_ARRAY */
    case 0x851B: /* GL_PROXY_TEXTURE_CUBE_MAP */
    case 0x900B: /* GL_PROXY_TEXTURE_CUBE_MAP_ARRAY */
    case 0x84F7: /* GL_PROXY_TEXTURE_RECTANGLE */
    case 0x80D3: /* GL_PROXY_COLOR_TABLE */
    case 0x80D4: /* GL_PROXY_POST_CONVOLUTION_COLOR_TABLE */
    case 0x80D5: /* GL_PROXY_POST_COLOR_MATRIX_COLOR_TABLE */
        return 0;
    default:
        return size;
    }
}

static int format_components(unsigned format)
{
    switch (format) {
    case 0x1907: case 0x80E0: case 0x8D98: case 0x8E9A: return 3; /* RGB, BGR, *_INTEGER */
    case 0x1908: case 0x80E1: case 0x8D99: case 0x8E9B: case 0x8000: return 4; /* RGBA, BGRA, ABGR */
    case 0x8227: case 0x8228: case 0x190A: case 0x84F9: return 2; /* RG, RG_INTEGER, LA, DEPTH_STENCIL */
    default: return 1; /* RED, ALPHA, LUMINANCE, DEPTH_COMPONENT, STENCIL_INDEX, ... */
    }
}

/* Bytes per pixel of (format, type); packed types hold a whole pixel. */
static int pixel_bytes(unsigned format, unsigned type)
{
    switch (type) {
    case 0x8032: case 0x8362: return 1;                         /* 3_3_2 */
    case 0x8363: case 0x8364: case 0x8033: case 0x8365:
    case 0x8034: case 0x8366: return 2;                         /* 5_6_5, 4_4_4_4, 5_5_5_1 */
    case 0x8035: case 0x8367: case 0x8036: case 0x8368:
    case 0x84FA: case 0x8C3B: case 0x8C3E: return 4;            /* 8_8_8_8, 10_10_10_2, 24_8, ... */
    case 0x8DAD: return 8;                                      /* FLOAT_32_UNSIGNED_INT_24_8_REV */
    case 0x140B: case 0x8D61: return 2 * format_components(format); /* HALF_FLOAT(_OES) */
    default: {
        int s = type_size(type);
        return (s ? s : 1) * format_components(format);
    }
    }
}

/* Which pixel-store parameters the program set: those at their defaults need no
 * query (and a GLES2 context would reject queries of most of them). */
static atomic_uint set_mask;

static int store_index(unsigned pname)
{
    switch (pname) {
    case 0x0CF2: return 0; /* GL_UNPACK_ROW_LENGTH */
    case 0x0CF3: return 1; /* GL_UNPACK_SKIP_ROWS */
    case 0x0CF4: return 2; /* GL_UNPACK_SKIP_PIXELS */
    case 0x0CF5: return 3; /* GL_UNPACK_ALIGNMENT */
    case 0x806D: return 4; /* GL_UNPACK_SKIP_IMAGES */
    case 0x806E: return 5; /* GL_UNPACK_IMAGE_HEIGHT */
    default: return -1;
    }
}

void gtsz_note_pixel_store(unsigned pname)
{
    int i = store_index(pname);
    if (i >= 0)
        atomic_fetch_or_explicit(&set_mask, 1u << i, memory_order_relaxed);
}

static long long store(unsigned pname, long long dflt)
{
    int i = store_index(pname);
    if (!(atomic_load_explicit(&set_mask, memory_order_relaxed) & (1u << i)))
        return dflt;
    return get_integer(pname);
}

static long long align_up(long long v, long long a) { return a > 1 ? (v + a - 1) / a * a : v; }

static long long image(unsigned format, unsigned type, long long w, long long h, long long d,
                       int bitmap)
{
    if (w <= 0 || h <= 0 || d <= 0)
        return 0;
    long long row_len = store(0x0CF2, 0), align = store(0x0CF5, 4);
    long long skip_rows = store(0x0CF3, 0), skip_px = store(0x0CF4, 0);
    long long img_h = d > 1 ? store(0x806E, 0) : 0, skip_img = d > 1 ? store(0x806D, 0) : 0;
    if (row_len <= 0)
        row_len = w;
    if (img_h <= 0)
        img_h = h;
    long long row, px = bitmap ? 0 : pixel_bytes(format, type);
    row = bitmap ? align_up((row_len + skip_px + 7) / 8, align) : align_up(row_len * px, align);
    long long slice = row * img_h;
    long long last_row = bitmap ? (w + skip_px + 7) / 8 : (skip_px + w) * px;
    return (skip_img + d - 1) * slice + (skip_rows + h - 1) * row + last_row;
}

long long gtsz_image_1d(unsigned format, unsigned type, long long width)
{
    return image(format, type, width, 1, 1, 0);
}

long long gtsz_image_2d(unsigned format, unsigned type, long long width, long long height)
{
    return image(format, type, width, height, 1, 0);
}

long long gtsz_image_3d(unsigned format, unsigned type, long long width, long long height,
                        long long depth)
{
    return image(format, type, width, height, depth, 0);
}

long long gtsz_bitmap(long long width, long long height)
{
    return image(0, 0, width, height, 1, 1);
}

/* One texel of (format, type): glClearTexImage, glClearBufferData. */
long long gtsz_texel(unsigned format, unsigned type) { return pixel_bytes(format, type); }

/* A colour table row of count entries. */
long long gtsz_image_count(unsigned format, unsigned type, long long count)
{
    return image(format, type, count, 1, 1, 0);
}

/* A separable filter's row or column. */
long long gtsz_filter(unsigned target, unsigned format, unsigned type, long long len)
{
    (void)target;
    return image(format, type, len, 1, 1, 0);
}

/* Values per control point of an evaluator map target. */
static int map_components(unsigned target)
{
    switch (target) {
    case 0x0D90: case 0x0DB0: return 4; /* MAP{1,2}_COLOR_4 */
    case 0x0D91: case 0x0DB1: return 1; /* INDEX */
    case 0x0D92: case 0x0DB2: return 3; /* NORMAL */
    case 0x0D93: case 0x0DB3: return 1; /* TEXTURE_COORD_1 */
    case 0x0D94: case 0x0DB4: return 2; /* TEXTURE_COORD_2 */
    case 0x0D95: case 0x0DB5: return 3; /* TEXTURE_COORD_3 */
    case 0x0D96: case 0x0DB6: return 4; /* TEXTURE_COORD_4 */
    case 0x0D97: case 0x0DB7: return 3; /* VERTEX_3 */
    case 0x0D98: case 0x0DB8: return 4; /* VERTEX_4 */
    default: return 0;
    }
}

long long gtsz_map1(unsigned target, long long stride, long long order)
{
    int k = map_components(target);
    return k && order > 0 && stride >= k ? (order - 1) * stride + k : 0;
}

long long gtsz_map2(unsigned target, long long ustride, long long uorder, long long vstride,
                    long long vorder)
{
    int k = map_components(target);
    if (!k || uorder <= 0 || vorder <= 0 || ustride < k || vstride < k)
        return 0;
    return (uorder - 1) * ustride + (vorder - 1) * vstride + k;
}

/* Entries of a pixel map: GL_PIXEL_MAP_I_TO_I_SIZE is GL_PIXEL_MAP_I_TO_I + 0x40. */
long long gtsz_pixel_map(unsigned map)
{
    return map >= 0x0C70 && map <= 0x0C79 ? get_integer(map + 0x40) : 0;
}
