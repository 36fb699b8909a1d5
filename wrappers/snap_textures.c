/* The state snapshot's textures (snapshot.h): every live texture of every target
 * (1D, 2D, 3D, 1D/2D arrays, cube maps and cube map arrays, rectangle, 2D multisample
 * and its arrays, buffer textures) re-created with each level and face, its internal
 * format and sizes, immutable storage as glTexStorage*, its sampling parameters, and
 * its contents read back (snap_texture_read.c, written by snap_texture_write.c);
 * multisample ones sample by sample (snap_multisample.h). GLES before 3.1 cannot be
 * asked a texture's images: they are the ones the program specified, followed while
 * recording (snap_texture_es.c, track_tex_images.c).
 *
 * The target: the first target each name was bound to or created with
 * (track_objects.c), else glGetTextureParameteriv(GL_TEXTURE_TARGET) where the context
 * has it (GL 4.5, GL_ARB_direct_state_access). Reading binds each texture to its
 * target on the active unit in the driver; the program's bindings are put back. */
#include "snap_texture.h"

#include <stdio.h>
#include <stdlib.h>

#include "gl_enums.gen.h"
#include "hook_track_objects.h"
#include "snap_multisample.h"
#include "protos.gen.h"

static const struct target {
    unsigned target, binding;
    int gl, es; /* versions x10 that have it, 0: none */
} targets[] = {
    {GL_TEXTURE_1D, GL_TEXTURE_BINDING_1D, 10, 0},
    {GL_TEXTURE_2D, GL_TEXTURE_BINDING_2D, 10, 20},
    {GL_TEXTURE_3D, GL_TEXTURE_BINDING_3D, 12, 30},
    {GL_TEXTURE_1D_ARRAY, GL_TEXTURE_BINDING_1D_ARRAY, 30, 0},
    {GL_TEXTURE_2D_ARRAY, GL_TEXTURE_BINDING_2D_ARRAY, 30, 30},
    {GL_TEXTURE_RECTANGLE, GL_TEXTURE_BINDING_RECTANGLE, 31, 0},
    {GL_TEXTURE_CUBE_MAP, GL_TEXTURE_BINDING_CUBE_MAP, 13, 20},
    {GL_TEXTURE_CUBE_MAP_ARRAY, GL_TEXTURE_BINDING_CUBE_MAP_ARRAY, 40, 32},
    {GL_TEXTURE_2D_MULTISAMPLE, GL_TEXTURE_BINDING_2D_MULTISAMPLE, 32, 31},
    {GL_TEXTURE_2D_MULTISAMPLE_ARRAY, GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY, 32, 32},
    {GL_TEXTURE_BUFFER, GL_TEXTURE_BINDING_BUFFER, 31, 32},
};
enum { NTARGETS = sizeof targets / sizeof *targets };

struct textures {
    size_t n;
    snap_texture *t;
};

/* The program's binding of each target on the active unit, while the snapshot binds. */
struct bindings {
    int saved[NTARGETS];
    unsigned char touched[NTARGETS];
};

static int target_index(unsigned target)
{
    for (int i = 0; i < NTARGETS; ++i)
        if (targets[i].target == target)
            return i;
    return -1;
}

static int target_known(snap *s, int i)
{
    int need = snap_api(s) == SNAP_API_GLES ? targets[i].es : targets[i].gl;
    return need && snap_version(s) >= need;
}

static void bind(struct bindings *b, int i, unsigned name)
{
    if (!b->touched[i]) {
        b->touched[i] = 1;
        b->saved[i] = 0;
        SNAP_REAL(glGetIntegerv)(targets[i].binding, &b->saved[i]);
    }
    SNAP_REAL(glBindTexture)(targets[i].target, name);
}

static void unbind_all(const struct bindings *b)
{
    for (int i = 0; i < NTARGETS; ++i)
        if (b->touched[i])
            SNAP_REAL(glBindTexture)(targets[i].target, (unsigned)b->saved[i]);
}

int snap_tex_multisample(unsigned target)
{
    return target == GL_TEXTURE_2D_MULTISAMPLE || target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
}

int snap_tex_dims(unsigned target)
{
    switch (target) {
    case GL_TEXTURE_1D: case GL_TEXTURE_BUFFER: return 1;
    case GL_TEXTURE_3D: case GL_TEXTURE_2D_ARRAY: case GL_TEXTURE_CUBE_MAP_ARRAY:
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY: return 3;
    default: return 2;
    }
}

unsigned snap_tex_face(const snap_texture *t, int face)
{
    return t->nfaces == 6 ? GL_TEXTURE_CUBE_MAP_POSITIVE_X + (unsigned)face : t->target;
}

static int level_param(unsigned target, int level, unsigned pname)
{
    int v = 0;
    SNAP_REAL(glGetTexLevelParameteriv)(target, level, pname, &v);
    return v;
}

/* How many levels a texture of target may have here. */
static int max_levels(unsigned target)
{
    if (target == GL_TEXTURE_RECTANGLE || target == GL_TEXTURE_BUFFER ||
        snap_tex_multisample(target))
        return 1;
    unsigned pname = target == GL_TEXTURE_3D ? GL_MAX_3D_TEXTURE_SIZE
                     : target == GL_TEXTURE_CUBE_MAP || target == GL_TEXTURE_CUBE_MAP_ARRAY
                         ? GL_MAX_CUBE_MAP_TEXTURE_SIZE
                         : GL_MAX_TEXTURE_SIZE;
    int size = 0, n = 0;
    SNAP_REAL(glGetIntegerv)(pname, &size);
    while (size > 0 && n < SNAP_TEX_LEVELS) {
        size >>= 1;
        ++n;
    }
    return n ? n : 1;
}

static void collect_image(snap *s, unsigned target, int level, snap_image *im)
{
    im->width = level_param(target, level, GL_TEXTURE_WIDTH);
    if (im->width <= 0) {
        im->width = 0;
        return;
    }
    im->height = level_param(target, level, GL_TEXTURE_HEIGHT);
    im->depth = level_param(target, level, GL_TEXTURE_DEPTH);
    im->internal = (unsigned)level_param(target, level, GL_TEXTURE_INTERNAL_FORMAT);
    im->compressed = level_param(target, level, GL_TEXTURE_COMPRESSED);
    /* GLES has no compressed size to ask: its kept upload's (snap_tex_followed_uploads) */
    if (im->compressed && snap_api(s) == SNAP_API_GL)
        im->compressed_size = level_param(target, level, GL_TEXTURE_COMPRESSED_IMAGE_SIZE);
    if (snap_tex_multisample(target)) {
        im->samples = level_param(target, level, GL_TEXTURE_SAMPLES);
        im->fixed_locations = level_param(target, level, GL_TEXTURE_FIXED_SAMPLE_LOCATIONS);
    }
}

static void collect_buffer_texture(snap_texture *t)
{
    t->buffer = (unsigned)level_param(GL_TEXTURE_BUFFER, 0, GL_TEXTURE_BUFFER_DATA_STORE_BINDING);
    t->buffer_format = (unsigned)level_param(GL_TEXTURE_BUFFER, 0, GL_TEXTURE_INTERNAL_FORMAT);
    t->buffer_offset = level_param(GL_TEXTURE_BUFFER, 0, GL_TEXTURE_BUFFER_OFFSET);
    t->buffer_size = level_param(GL_TEXTURE_BUFFER, 0, GL_TEXTURE_BUFFER_SIZE);
    if (!t->buffer)
        return;
    /* the buffer's own size tells glTexBuffer (all of it) from glTexBufferRange */
    int saved = 0, size = 0;
    SNAP_REAL(glGetIntegerv)(GL_TEXTURE_BUFFER_BINDING, &saved);
    SNAP_REAL(glBindBuffer)(GL_TEXTURE_BUFFER, t->buffer);
    SNAP_REAL(glGetBufferParameteriv)(GL_TEXTURE_BUFFER, GL_BUFFER_SIZE, &size);
    SNAP_REAL(glBindBuffer)(GL_TEXTURE_BUFFER, (unsigned)saved);
    t->buffer_whole = t->buffer_offset == 0 && t->buffer_size == size;
}

/* Whether t has immutable storage, and its levels. */
static void collect_immutable(snap *s, snap_texture *t)
{
    if (snap_version(s) >= (snap_api(s) == SNAP_API_GLES ? 30 : 42) ||
        snap_has_extension(s, "GL_ARB_texture_storage") ||
        snap_has_extension(s, "GL_EXT_texture_storage")) {
        t->immutable = 0;
        SNAP_REAL(glGetTexParameteriv)(t->target, GL_TEXTURE_IMMUTABLE_FORMAT, &t->immutable);
        /* GLES 2's GL_EXT_texture_storage has no such query: the followed levels */
        if (t->immutable && (snap_api(s) == SNAP_API_GL || snap_version(s) >= 30))
            SNAP_REAL(glGetTexParameteriv)(t->target, GL_TEXTURE_IMMUTABLE_LEVELS,
                                           &t->immutable_levels);
    }
    /* a view (written as a texture of its own) answers its original's levels there */
    int views = snap_api(s) == SNAP_API_GL ? snap_version(s) >= 43
                                           : snap_has_extension(s, "GL_OES_texture_view") ||
                                                 snap_has_extension(s, "GL_EXT_texture_view");
    if (t->immutable && (views || snap_has_extension(s, "GL_ARB_texture_view"))) {
        int levels = 0;
        SNAP_REAL(glGetTexParameteriv)(t->target, GL_TEXTURE_VIEW_NUM_LEVELS, &levels);
        if (levels > 0)
            t->immutable_levels = levels;
    }
}

/* Says what of t's images cannot be read back (GLES: asking the framebuffer). */
static void check_images(snap *s, snap_texture *t)
{
    static const char *const faces[] = {" face +X", " face -X", " face +Y",
                                        " face -Y", " face +Z", " face -Z"};
    for (int level = 0; level < t->nlevels; ++level)
        for (int f = 0; f < t->nfaces; ++f) {
            snap_image *im = &t->image[level][f];
            const char *why = im->width ? snap_tex_unreadable(s, t, im) : NULL;
            if (!why && im->width && !im->compressed && snap_api(s) == SNAP_API_GLES)
                why = snap_tex_es_probe(s, t, level, f);
            if (why)
                snap_unreadable(s, "texture %u level %d%s: %s", t->name, level,
                                t->nfaces == 6 ? faces[f] : "", why);
        }
}

/* The images and parameters of t, bound to its target. */
static void collect_one(snap *s, snap_texture *t)
{
    t->nfaces = t->target == GL_TEXTURE_CUBE_MAP ? 6 : 1;
    if (t->target == GL_TEXTURE_BUFFER) {
        collect_buffer_texture(t);
        return;
    }
    collect_immutable(s, t);
    if (!snap_real_has("glGetTexLevelParameteriv") ||
        (snap_api(s) == SNAP_API_GLES && snap_version(s) < 31)) {
        /* GLES before 3.1 cannot say its images: the ones the program specified */
        snap_tex_collect_followed(s, t);
    } else {
        t->nlevels = max_levels(t->target);
        if (t->immutable && t->immutable_levels < t->nlevels)
            t->nlevels = t->immutable_levels > 0 ? t->immutable_levels : 1;
        t->read = 1;
        for (int level = 0; level < t->nlevels; ++level)
            for (int f = 0; f < t->nfaces; ++f)
                collect_image(s, snap_tex_face(t, f), level, &t->image[level][f]);
        if (snap_api(s) == SNAP_API_GLES)
            snap_tex_followed_uploads(t);
    }
    check_images(s, t);
    if (!snap_tex_multisample(t->target))
        snap_sampling_read(s, &t->sampling, 1, t->target, 0,
                           t->target == GL_TEXTURE_RECTANGLE);
    else if (t->image[0][0].width && !snap_tex_unreadable(s, t, &t->image[0][0]))
        t->ms = snap_ms_read_texture(s, t->name, t->target, t->image[0][0].internal,
                                     t->image[0][0].width, t->image[0][0].height,
                                     t->image[0][0].depth, t->image[0][0].samples);
}

unsigned snap_tex_target(snap *s, uint32_t name)
{
    unsigned tracked = gth_texture_target(name);
    if (tracked)
        return tracked;
    if (snap_real_has("glGetTextureParameteriv") &&
        ((snap_api(s) == SNAP_API_GL && snap_version(s) >= 45) ||
         snap_has_extension(s, "GL_ARB_direct_state_access"))) {
        int target = 0;
        SNAP_REAL(glGetTextureParameteriv)(name, GL_TEXTURE_TARGET, &target);
        /* Mesa answers it in core profiles only: the error is the snapshot's to take
         * (the program's own are held meanwhile: snap_errors.h) */
        return SNAP_REAL(glGetError)() == GL_NO_ERROR ? (unsigned)target : 0;
    }
    return 0;
}

static void *collect(snap *s)
{
    uint32_t *names;
    size_t n = snap_live_names("texture", SNAP_REAL(glIsTexture), &names);
    if (!n)
        return NULL;
    struct textures *all = calloc(1, sizeof *all);
    snap_texture *t = calloc(n, sizeof *t);
    if (!all || !t) {
        snap_unreadable(s, "out of memory: %zu textures not written", n);
        free(all), free(t), free(names);
        return NULL;
    }
    all->t = t;
    struct bindings b = {{0}, {0}};
    for (size_t i = 0; i < n; ++i) {
        snap_texture *x = &t[all->n];
        x->name = names[i];
        x->target = snap_tex_target(s, names[i]);
        int ti = target_index(x->target);
        if (ti < 0 || !target_known(s, ti)) {
            snap_unreadable(s, "texture %u: target 0x%x %s: not written", x->name, x->target,
                            x->target ? "not handled" : "not known");
            continue;
        }
        bind(&b, ti, x->name);
        collect_one(s, x);
        all->n++;
    }
    unbind_all(&b);
    free(names);
    return all;
}

static void write_part(snap *s, void *data)
{
    struct textures *all = data;
    snap_store unpack, pack;
    snap_store_begin(s, &unpack, 0);
    snap_store_begin(s, &pack, 1);
    snap_store_write_unpack(&unpack);
    struct bindings b = {{0}, {0}};
    for (size_t i = 0; i < all->n; ++i) {
        bind(&b, target_index(all->t[i].target), all->t[i].name);
        snap_tex_write(s, &all->t[i]);
    }
    unbind_all(&b);
    snap_store_end(&pack);
    snap_store_end(&unpack);
}

static void free_part(void *data)
{
    struct textures *all = data;
    for (size_t i = 0; i < all->n; ++i)
        snap_ms_free(all->t[i].ms);
    free(all->t);
    free(all);
}

const snap_part snap_part_textures = {"textures", collect, write_part, free_part};
