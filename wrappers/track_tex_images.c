/* Texture images followed before a frame range on GLES contexts (hook_track_tex_images.h,
 * track_tex_images.h): GLES before 3.1 has no glGetTexLevelParameteriv and no GLES has
 * glGetCompressedTexImage, so the snapshot learns each image's size and format, and a
 * compressed image's contents, from the calls that made them. Only the calls that
 * specify images are hooked; each asks the driver which texture is bound to its target
 * on the active unit (one glGetIntegerv, next to an upload) and whether the context is
 * GLES (glGetString: desktop GL contexts are read back from the driver and followed not
 * at all). Compressed uploads are copied (the program's own bytes, kept until the
 * image is specified again or the texture deleted).
 *
 * One table for the process, sorted by name, under one lock: names of two share groups
 * that are not shared meet in it, as in track_objects.c. */
#include "track_tex_images.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gl_enums.gen.h"
#include "gltrace_runtime.h"
#include "gt_grow.h"
#include "hook_track_tex_images.h"

struct image {
    gtt_tex_image spec;
    unsigned char *data; /* spec.data_size bytes */
};

struct tex {
    uint32_t name;
    int immutable_levels;
    const char *why; /* its images are not followed */
    struct image image[GTT_TEX_LEVELS][GTT_TEX_FACES];
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tex **g_tex; /* sorted by name */
static size_t g_n, g_cap;

static const char *const not_kept_buffer = "uploaded from a pixel unpack buffer: not kept";
static const char *const not_kept_memory = "out of memory: its upload not kept";
static const char *const from_egl_image =
    "its images come from an EGLImage, which the recorder does not follow";
static const char *const not_kept_partial =
    "updated in part by glCompressedTexSubImage* in a way the recorder cannot patch";

/* ---- the table (callers hold g_lock) ----------------------------------------------- */

static size_t lower_bound(uint32_t name)
{
    size_t lo = 0, hi = g_n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (g_tex[mid]->name < name)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static struct tex *find(uint32_t name)
{
    size_t i = lower_bound(name);
    return i < g_n && g_tex[i]->name == name ? g_tex[i] : NULL;
}

static struct tex *find_or_add(uint32_t name)
{
    size_t i = lower_bound(name);
    if (i < g_n && g_tex[i]->name == name)
        return g_tex[i];
    struct tex *t = calloc(1, sizeof *t);
    if (!t || GT_GROW(g_tex, g_cap, g_n + 1, 64) != 0) {
        free(t);
        return NULL;
    }
    memmove(&g_tex[i + 1], &g_tex[i], (g_n - i) * sizeof *g_tex);
    g_tex[i] = t;
    g_n++;
    t->name = name;
    return t;
}

static void clear_image(struct image *im)
{
    free(im->data);
    memset(im, 0, sizeof *im);
}

static void clear_all(struct tex *t)
{
    for (int l = 0; l < GTT_TEX_LEVELS; ++l)
        for (int f = 0; f < GTT_TEX_FACES; ++f)
            clear_image(&t->image[l][f]);
}

/* ---- the context and the texture a call specifies ------------------------------------ */

/* The current context's GLES version (x10), 0 when it is not GLES or none is current. */
static int es_version(void)
{
    static const unsigned char *(*get)(unsigned);
    if (!get)
        get = (const unsigned char *(*)(unsigned))gltrace_real("glGetString");
    const char *v = get ? (const char *)get(GL_VERSION) : NULL;
    if (!v || strncmp(v, "OpenGL ES", 9) != 0)
        return 0;
    v += 9;
    while (*v && (*v < '0' || *v > '9'))
        ++v;
    if (!v[0] || v[1] != '.' || v[2] < '0' || v[2] > '9')
        return 10; /* GLES of a version not said: the oldest */
    return (v[0] - '0') * 10 + (v[2] - '0');
}

/* The binding that names the texture of target; *face: a cube map face's index. */
static unsigned binding_of(unsigned target, int *face)
{
    *face = 0;
    switch (target) {
    case GL_TEXTURE_2D: return GL_TEXTURE_BINDING_2D;
    case GL_TEXTURE_3D: return GL_TEXTURE_BINDING_3D;
    case GL_TEXTURE_2D_ARRAY: return GL_TEXTURE_BINDING_2D_ARRAY;
    case GL_TEXTURE_CUBE_MAP: return GL_TEXTURE_BINDING_CUBE_MAP;
    case GL_TEXTURE_CUBE_MAP_ARRAY: return GL_TEXTURE_BINDING_CUBE_MAP_ARRAY;
    default:
        if (target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z) {
            *face = (int)(target - GL_TEXTURE_CUBE_MAP_POSITIVE_X);
            return GL_TEXTURE_BINDING_CUBE_MAP;
        }
        return 0;
    }
}

/* The texture a call on target specifies in this GLES context (0: none followed);
 * *es: the context's version. */
static uint32_t texture_of(unsigned target, int *face, int *es)
{
    unsigned binding = binding_of(target, face);
    *es = binding ? es_version() : 0;
    return *es ? (uint32_t)gltrace_real_geti(binding) : 0;
}

/* Whether the call's pixels are an offset into a bound pixel unpack buffer. */
static int unpack_buffer_bound(int es)
{
    return es >= 30 && gltrace_real_geti(GL_PIXEL_UNPACK_BUFFER_BINDING) != 0;
}

/* ---- images --------------------------------------------------------------------------- */

/* Sets one image (the caller holds g_lock); data: a compressed upload kept (owned). */
static void set_image(struct image *im, const gtt_tex_image *spec, unsigned char *data)
{
    clear_image(im);
    im->spec = *spec;
    im->data = data;
    if (!data)
        im->spec.data_size = 0;
}

/* One mutable image specified by a call on target; data (owned) is its kept upload. */
static void specify(unsigned target, int level, const gtt_tex_image *spec, unsigned char *data)
{
    int face, es;
    uint32_t name = texture_of(target, &face, &es);
    if (!name || level < 0 || level >= GTT_TEX_LEVELS) {
        free(data);
        return;
    }
    pthread_mutex_lock(&g_lock);
    struct tex *t = find_or_add(name);
    if (t && !t->immutable_levels) { /* an immutable texture refuses the call */
        set_image(&t->image[level][face], spec, data);
        t->why = NULL;
    }
    else
        free(data);
    pthread_mutex_unlock(&g_lock);
}

void gtt_tex_image_2d(unsigned target, int level, int internal, int width, int height,
                      int border, unsigned format, unsigned type, const void *pixels)
{
    (void)border, (void)pixels;
    gtt_tex_image spec = {width > 0 ? width : 0, height, 1, (unsigned)internal, format, type,
                          0, 0, NULL};
    specify(target, level, &spec, NULL);
}

void gtt_tex_image_3d(unsigned target, int level, int internal, int width, int height,
                      int depth, int border, unsigned format, unsigned type,
                      const void *pixels)
{
    (void)border, (void)pixels;
    gtt_tex_image spec = {width > 0 ? width : 0, height, depth, (unsigned)internal, format,
                          type, 0, 0, NULL};
    specify(target, level, &spec, NULL);
}

void gtt_copy_tex_image_2d(unsigned target, int level, unsigned internal, int x, int y,
                           int width, int height, int border)
{
    (void)x, (void)y, (void)border;
    gtt_tex_image spec = {width > 0 ? width : 0, height, 1, internal, 0, 0, 0, 0, NULL};
    specify(target, level, &spec, NULL);
}

/* A copy of a compressed upload, or NULL with spec->why saying why not. */
static unsigned char *keep_upload(unsigned target, gtt_tex_image *spec, int size,
                                  const void *data)
{
    int face, es;
    if (!texture_of(target, &face, &es) || size <= 0 || !data)
        return NULL;
    if (unpack_buffer_bound(es)) {
        spec->why = not_kept_buffer;
        return NULL;
    }
    unsigned char *copy = malloc((size_t)size);
    if (!copy) {
        spec->why = not_kept_memory;
        return NULL;
    }
    memcpy(copy, data, (size_t)size);
    spec->data_size = (size_t)size;
    return copy;
}

void gtt_compressed_tex_image_2d(unsigned target, int level, unsigned internal, int width,
                                 int height, int border, int size, const void *data)
{
    (void)border;
    gtt_tex_image spec = {width > 0 ? width : 0, height, 1, internal, 0, 0, 1, 0, NULL};
    specify(target, level, &spec, keep_upload(target, &spec, size, data));
}

void gtt_compressed_tex_image_3d(unsigned target, int level, unsigned internal, int width,
                                 int height, int depth, int border, int size,
                                 const void *data)
{
    (void)border;
    gtt_tex_image spec = {width > 0 ? width : 0, height, depth, internal, 0, 0, 1, 0, NULL};
    specify(target, level, &spec, keep_upload(target, &spec, size, data));
}

/* The bytes of a region of w x h x d texels of a compressed format, 0 if not known. */
static size_t region_bytes(unsigned internal, int w, int h, int d)
{
    int bw, bh, bb;
    if (!gtt_tex_block(internal, &bw, &bh, &bb) || w <= 0 || h <= 0 || d <= 0)
        return 0;
    return (size_t)((w + bw - 1) / bw) * (size_t)((h + bh - 1) / bh) * (size_t)d * (size_t)bb;
}

/* Patches a region (texel offsets x, y, z; sizes w, h, d) of the image's kept upload
 * with src, block row by block row; returns 0 where the region is not whole blocks
 * inside the image. The caller holds g_lock. */
static int patch(struct image *im, int x, int y, int z, int w, int h, int d,
                 const unsigned char *src, size_t size)
{
    const gtt_tex_image *s = &im->spec;
    int bw, bh, bb;
    if (!gtt_tex_block(s->internal, &bw, &bh, &bb) || x % bw || y % bh || x < 0 || y < 0 ||
        z < 0 || x + w > s->width || y + h > s->height || z + d > s->depth ||
        (w % bw && x + w != s->width) || (h % bh && y + h != s->height) ||
        size != region_bytes(s->internal, w, h, d))
        return 0;
    size_t full = region_bytes(s->internal, s->width, s->height, s->depth);
    if (!im->data) { /* storage made by glTexStorage*: undefined texels until now */
        im->data = calloc(1, full);
        if (!im->data)
            return 0;
        im->spec.data_size = full;
    }
    if (im->spec.data_size != full)
        return 0;
    size_t row_blocks = (size_t)((s->width + bw - 1) / bw);
    size_t rows = (size_t)((s->height + bh - 1) / bh);
    size_t n = (size_t)((w + bw - 1) / bw), r = (size_t)((h + bh - 1) / bh);
    for (size_t zz = 0; zz < (size_t)d; ++zz)
        for (size_t k = 0; k < r; ++k) {
            size_t row = ((size_t)z + zz) * rows + (size_t)(y / bh) + k;
            memcpy(im->data + (row * row_blocks + (size_t)(x / bw)) * (size_t)bb,
                   src + ((zz * r + k) * n) * (size_t)bb, n * (size_t)bb);
        }
    return 1;
}

static unsigned char *copy_of(const void *data, size_t size)
{
    unsigned char *copy = malloc(size);
    if (copy)
        memcpy(copy, data, size);
    return copy;
}

/* Replaces the kept upload of im by data (owned, size bytes), or by none (why). */
static void replace(struct image *im, unsigned char *data, size_t size, const char *why)
{
    free(im->data);
    im->data = data;
    im->spec.data_size = data ? size : 0;
    im->spec.why = data ? NULL : why;
}

static void sub_image(unsigned target, int level, const int region[6], int size,
                      const void *data)
{
    int face, es;
    uint32_t name = texture_of(target, &face, &es);
    if (!name || level < 0 || level >= GTT_TEX_LEVELS)
        return;
    int buffer = unpack_buffer_bound(es);
    pthread_mutex_lock(&g_lock);
    struct tex *t = find(name);
    struct image *im = t ? &t->image[level][face] : NULL;
    if (im && im->spec.compressed && im->spec.width) {
        const gtt_tex_image *s = &im->spec;
        int whole = !region[0] && !region[1] && !region[2] && region[3] == s->width &&
                    region[4] == s->height && region[5] == s->depth;
        if (buffer || !data || size <= 0)
            replace(im, NULL, 0, buffer ? not_kept_buffer : not_kept_partial);
        else if (whole) /* kept whatever its format */
            replace(im, copy_of(data, (size_t)size), (size_t)size, not_kept_memory);
        else if (im->spec.why || !patch(im, region[0], region[1], region[2], region[3],
                                        region[4], region[5], data, (size_t)size))
            replace(im, NULL, 0, im->spec.why ? im->spec.why : not_kept_partial);
    }
    pthread_mutex_unlock(&g_lock);
}

void gtt_compressed_tex_sub_image_2d(unsigned target, int level, int x, int y, int width,
                                     int height, unsigned format, int size, const void *data)
{
    (void)format;
    const int region[6] = {x, y, 0, width, height, 1};
    sub_image(target, level, region, size, data);
}

void gtt_compressed_tex_sub_image_3d(unsigned target, int level, int x, int y, int z,
                                     int width, int height, int depth, unsigned format,
                                     int size, const void *data)
{
    (void)format;
    const int region[6] = {x, y, z, width, height, depth};
    sub_image(target, level, region, size, data);
}

/* ---- storage, mipmaps, deletion ---------------------------------------------------------- */

static int half(int v) { return v > 1 ? v / 2 : 1; }

static void storage(unsigned target, int levels, unsigned internal, int width, int height,
                    int depth)
{
    int face, es;
    uint32_t name = texture_of(target, &face, &es);
    if (!name || levels <= 0)
        return;
    int bw, bh, bb, faces = target == GL_TEXTURE_CUBE_MAP ? 6 : 1;
    gtt_tex_image spec = {width, height, depth, internal, 0, 0,
                          gtt_tex_block(internal, &bw, &bh, &bb), 0, NULL};
    pthread_mutex_lock(&g_lock);
    struct tex *t = find_or_add(name);
    if (t && !t->immutable_levels) {
        clear_all(t);
        t->immutable_levels = levels;
        t->why = NULL;
        for (int l = 0; l < levels && l < GTT_TEX_LEVELS; ++l) {
            for (int f = 0; f < faces; ++f)
                set_image(&t->image[l][f], &spec, NULL);
            spec.width = half(spec.width);
            spec.height = half(spec.height);
            if (target == GL_TEXTURE_3D)
                spec.depth = half(spec.depth);
        }
    }
    pthread_mutex_unlock(&g_lock);
}

void gtt_tex_storage_2d(unsigned target, int levels, unsigned internal, int width, int height)
{
    storage(target, levels, internal, width, height, 1);
}

void gtt_tex_storage_3d(unsigned target, int levels, unsigned internal, int width, int height,
                        int depth)
{
    storage(target, levels, internal, width, height, depth);
}

/* Levels base+1.. of one face, halved from the base image down to 1x1 (the caller
 * holds g_lock). */
static void mipmaps(struct tex *t, int face, int base, int max, int halve_depth)
{
    gtt_tex_image spec = t->image[base][face].spec;
    if (!spec.width || spec.compressed)
        return;
    spec.data_size = 0, spec.why = NULL;
    for (int l = base + 1; l <= max && l < GTT_TEX_LEVELS; ++l) {
        if (spec.width == 1 && spec.height == 1 && (!halve_depth || spec.depth == 1))
            break;
        spec.width = half(spec.width);
        spec.height = half(spec.height);
        if (halve_depth)
            spec.depth = half(spec.depth);
        set_image(&t->image[l][face], &spec, NULL);
    }
}

void gtt_generate_mipmap(unsigned target)
{
    int face, es;
    uint32_t name = texture_of(target, &face, &es);
    if (!name)
        return;
    int base = 0, max = GTT_TEX_LEVELS - 1;
    if (es >= 30) { /* GLES 2 has neither parameter: its levels start at 0 */
        static void (*get)(unsigned, unsigned, int *);
        if (!get)
            get = (void (*)(unsigned, unsigned, int *))gltrace_real("glGetTexParameteriv");
        if (get) {
            get(target, GL_TEXTURE_BASE_LEVEL, &base);
            get(target, GL_TEXTURE_MAX_LEVEL, &max);
        }
    }
    if (base < 0 || base >= GTT_TEX_LEVELS)
        return;
    pthread_mutex_lock(&g_lock);
    struct tex *t = find(name);
    for (int f = 0; t && !t->immutable_levels && f < (target == GL_TEXTURE_CUBE_MAP ? 6 : 1); ++f)
        mipmaps(t, f, base, max, target == GL_TEXTURE_3D);
    pthread_mutex_unlock(&g_lock);
}

static void from_image(unsigned target)
{
    int face, es;
    uint32_t name = texture_of(target, &face, &es);
    if (!name)
        return;
    pthread_mutex_lock(&g_lock);
    struct tex *t = find_or_add(name);
    if (t) {
        clear_all(t);
        t->immutable_levels = 0;
        t->why = from_egl_image;
    }
    pthread_mutex_unlock(&g_lock);
}

void gtt_egl_image_target_texture(unsigned target, void *image)
{
    (void)image;
    from_image(target);
}

void gtt_egl_image_target_tex_storage(unsigned target, void *image, const int *attribs)
{
    (void)image, (void)attribs;
    from_image(target);
}

void gtt_tex_images_delete(int n, const unsigned *textures)
{
    if (!textures || n <= 0)
        return;
    pthread_mutex_lock(&g_lock);
    for (int i = 0; g_n && i < n; ++i) {
        size_t k = lower_bound(textures[i]);
        if (k < g_n && g_tex[k]->name == textures[i]) {
            clear_all(g_tex[k]);
            free(g_tex[k]);
            memmove(&g_tex[k], &g_tex[k + 1], (g_n - k - 1) * sizeof *g_tex);
            g_n--;
        }
    }
    pthread_mutex_unlock(&g_lock);
}

/* ---- the snapshot's questions ------------------------------------------------------------- */

int gtt_tex_spec_of(uint32_t name, gtt_tex_spec *out)
{
    pthread_mutex_lock(&g_lock);
    const struct tex *t = find(name);
    if (t) {
        out->immutable_levels = t->immutable_levels;
        out->why = t->why;
        for (int l = 0; l < GTT_TEX_LEVELS; ++l)
            for (int f = 0; f < GTT_TEX_FACES; ++f)
                out->image[l][f] = t->image[l][f].spec;
    }
    pthread_mutex_unlock(&g_lock);
    return t != NULL;
}

int gtt_tex_data(uint32_t name, int level, int face, void *out, size_t size)
{
    if (level < 0 || level >= GTT_TEX_LEVELS || face < 0 || face >= GTT_TEX_FACES)
        return 0;
    pthread_mutex_lock(&g_lock);
    const struct tex *t = find(name);
    const struct image *im = t ? &t->image[level][face] : NULL;
    int ok = im && im->data && im->spec.data_size == size;
    if (ok)
        memcpy(out, im->data, size);
    pthread_mutex_unlock(&g_lock);
    return ok;
}
