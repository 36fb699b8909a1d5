/* dsa_app: a deterministic OpenGL 4.5 core program (Xlib + GLX) that makes every object
 * through direct state access, so the recording tests see the DSA family's input pointers
 * (tests/integration/record_diff.sh): a recorder that writes one of them as an address
 * instead of its bytes gives a trace whose replay draws other pixels, or crashes.
 *
 * Set-up (all DSA: glCreate*, glTextureStorage*, glTexture*, glNamed*):
 *   textures of every kind, each uploaded once and checked by reading it back:
 *     1D (client memory), 2D mipmapped (client memory through UNPACK_ROW_LENGTH and
 *     SKIP_PIXELS/ROWS, glGenerateTextureMipmap), 3D (from a pixel unpack buffer at an
 *     offset), 1D array (two layers from client memory, two from the unpack buffer),
 *     2D array (GL_RGB rows padded by UNPACK_ALIGNMENT 4, slices spaced by
 *     UNPACK_IMAGE_HEIGHT), cube map (its faces as layers of glTextureSubImage3D),
 *     RGTC1 (glCompressedTextureSubImage2D from client memory), RGTC2 2D array
 *     (glCompressedTextureSubImage3D from an unpack buffer filled by glNamedBufferStorage),
 *     a cleared texture (glClearTexImage with NULL, then a colour), a buffer texture over a
 *     buffer written by glClearNamedBufferData/SubData and glNamedBufferSubData;
 *   an FBO with two colour textures and a depth renderbuffer (glNamedFramebuffer*);
 *   one VAO (glVertexArrayVertexBuffer(s), AttribFormat, AttribBinding, BindingDivisor,
 *   ElementBuffer) over a quad, its indices and a per-instance tint buffer.
 * Each frame (animation from the frame index only):
 *   the tints written through glMapNamedBufferRange; the dynamic texture rewritten from
 *   client memory, a 16x16 piece of it from the unpack buffer (checked by
 *   glGetTextureSubImage); a frame-coloured glClearTexSubImage and glClearNamedBufferSubData;
 *   uniforms set with glProgramUniform* (arrays of vectors and matrices);
 *   pass 1 into the FBO (both attachments, depth tested, cleared by glClearNamedFramebuffer*);
 *   pass 2 into the window: a 4x3 grid, one tile per texture (glBindTextureUnit), the FBO's
 *   first attachment among them, then the second attachment blitted by
 *   glBlitNamedFramebuffer into the window.
 * Any GL error, failed check or failed framebuffer makes it exit 1. Options as the other
 * demo apps (app_common.h): --frames N, --save PREFIX, --warmup. */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#include <GL/glx.h>

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_common.h"
#include "gl_util.h"
#include "glx_util.h"

#define TAG "dsa_app"
#define FBO_SIZE 128
#define N_TILES 12

/* The texture units (and the samplers' bindings). */
enum {
    U_1D, U_2D, U_3D, U_1DA, U_2DA, U_CUBE, U_RGTC1, U_RGTC2A, U_CLEAR, U_DYN, U_FBO, U_BUF,
    N_UNITS
};

static const char *tile_vs =
    "#version 450 core\n"
    "layout(location = 0) in vec2 a_pos;\n"
    "layout(location = 1) in vec2 a_uv;\n"
    "layout(location = 2) in vec4 a_tint;\n"
    "uniform vec4 u_tiles[12];\n"
    "uniform mat4 u_rot[2];\n"
    "out vec2 v_uv;\n"
    "out vec4 v_tint;\n"
    "flat out int v_tile;\n"
    "void main() {\n"
    "    vec4 r = u_tiles[gl_InstanceID];\n"
    "    v_uv = (u_rot[gl_InstanceID & 1] * vec4(a_uv - 0.5, 0.0, 1.0)).xy + 0.5;\n"
    "    v_tint = a_tint;\n"
    "    v_tile = gl_InstanceID;\n"
    "    gl_Position = vec4(r.xy + a_pos * r.zw, 0.0, 1.0);\n"
    "}\n";

static const char *tile_fs =
    "#version 450 core\n"
    "in vec2 v_uv;\n"
    "in vec4 v_tint;\n"
    "flat in int v_tile;\n"
    "uniform sampler1D t_1d;\n"
    "uniform sampler2D t_2d;\n"
    "uniform sampler3D t_3d;\n"
    "uniform sampler1DArray t_1da;\n"
    "uniform sampler2DArray t_2da;\n"
    "uniform samplerCube t_cube;\n"
    "uniform sampler2D t_rgtc1;\n"
    "uniform sampler2DArray t_rgtc2a;\n"
    "uniform sampler2D t_clear;\n"
    "uniform sampler2D t_dyn;\n"
    "uniform sampler2D t_fbo;\n"
    "uniform samplerBuffer t_buf;\n"
    "uniform mat3 u_cube;\n"
    "uniform float u_layer;\n"
    "out vec4 frag_color;\n"
    "void main() {\n"
    "    vec2 uv = v_uv;\n"
    "    vec2 q = clamp(floor(uv * 2.0), 0.0, 1.0);\n"
    "    vec4 c;\n"
    "    switch (v_tile) {\n"
    "    case 0: c = texture(t_1d, uv.x * 1.2 - 0.1); break;\n"
    "    case 1: c = texture(t_2d, uv * 3.0); break;\n"
    "    case 2: c = texture(t_3d, vec3(uv, u_layer)); break;\n"
    "    case 3: c = texture(t_1da, vec2(uv.x, floor(clamp(uv.y, 0.0, 0.999) * 4.0))); break;\n"
    "    case 4: c = texture(t_2da, vec3(fract(uv * 2.0), mod(q.x + 2.0 * q.y, 3.0))); break;\n"
    "    case 5: c = texture(t_cube, u_cube * vec3(uv * 2.0 - 1.0, 0.7)); break;\n"
    "    case 6: c = texture(t_rgtc1, uv); break;\n"
    "    case 7: c = vec4(texture(t_rgtc2a, vec3(uv, q.x)).rg, 0.4, 1.0); break;\n"
    "    case 8: c = texture(t_clear, uv); break;\n"
    "    case 9: c = texture(t_dyn, uv); break;\n"
    "    case 10: c = texture(t_fbo, uv); break;\n"
    "    default: c = texelFetch(t_buf, int(clamp(uv.x, 0.0, 0.999) * 8.0) +\n"
    "                                 8 * int(clamp(uv.y, 0.0, 0.999) * 8.0)); break;\n"
    "    }\n"
    "    frag_color = vec4(c.rgb * v_tint.rgb, 1.0);\n"
    "}\n";

/* Samplers of tile_fs, in unit order. */
static const char *const sampler_names[N_UNITS] = {
    "t_1d", "t_2d", "t_3d", "t_1da", "t_2da", "t_cube", "t_rgtc1", "t_rgtc2a", "t_clear",
    "t_dyn", "t_fbo", "t_buf",
};

static const char *fbo_vs =
    "#version 450 core\n"
    "layout(location = 0) in vec2 a_pos;\n"
    "layout(location = 1) in vec2 a_uv;\n"
    "uniform mat4 u_mvp[2];\n"
    "out vec2 v_uv;\n"
    "flat out int v_i;\n"
    "void main() {\n"
    "    v_uv = a_uv;\n"
    "    v_i = gl_InstanceID;\n"
    "    gl_Position = u_mvp[gl_InstanceID] * vec4(a_pos, 0.0, 1.0);\n"
    "}\n";

static const char *fbo_fs =
    "#version 450 core\n"
    "in vec2 v_uv;\n"
    "flat in int v_i;\n"
    "uniform sampler2D u_checker;\n"
    "uniform vec3 u_colors[2];\n"
    "layout(location = 0) out vec4 out0;\n"
    "layout(location = 1) out vec4 out1;\n"
    "void main() {\n"
    "    vec3 t = texture(u_checker, v_uv * 2.0).rgb;\n"
    "    out0 = vec4(t * u_colors[v_i], 1.0);\n"
    "    out1 = vec4((1.0 - t) * u_colors[1 - v_i], 1.0);\n"
    "}\n";

struct vertex {
    float pos[2];
    float uv[2];
};

/* The program's GL objects. */
struct scene {
    GLuint tex[N_UNITS];
    GLuint unpack;      /* pixel unpack buffer (3D, 1D array layers, the dynamic texture) */
    GLuint rgtc_src;    /* unpack buffer of the RGTC2 array, glNamedBufferStorage with data */
    GLuint texbuf;      /* the buffer texture's buffer */
    GLuint pack;        /* pixel pack buffer of a read-back */
    GLuint vbo, ebo, tints, vao;
    GLuint fbo, fbo_tex1, depth_rb;
    GLuint tile_prog, fbo_prog;
    GLint loc_rot, loc_cube, loc_layer, loc_mvp, loc_colors;
};

static int failed(const char *what)
{
    fprintf(stderr, TAG ": %s\n", what);
    return 1;
}

/* A byte of a texture's pattern: texel (x, y, z), channel c, pattern seed s. */
static uint8_t pat(int x, int y, int z, int c, unsigned s)
{
    unsigned v = (unsigned)(x * (7 + 5 * c) + y * (13 - 3 * c) + z * 41 + (int)s * 29 + c * 67);
    if (((x >> 2) + (y >> 2) + z + (int)s) & 1)
        v = ~v;
    return (uint8_t)(64 + (v & 191));
}

/* w x h x d RGBA8 texels of pattern s, tightly packed. */
static uint8_t *rgba_image(int w, int h, int d, unsigned s)
{
    uint8_t *p = malloc((size_t)w * h * d * 4), *q = p;
    if (!p)
        return NULL;
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                for (int c = 0; c < 4; c++)
                    *q++ = c == 3 ? 255 : pat(x, y, z, c, s);
    return p;
}

/* Compares n bytes read back with what was uploaded. */
static int check_bytes(const char *what, const uint8_t *got, const uint8_t *want, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            fprintf(stderr, TAG ": %s reads back wrong at byte %zu: %u, uploaded %u\n", what, i,
                    got[i], want[i]);
            return 1;
        }
    return 0;
}

/* n bytes of compressed blocks of pattern s (any bytes are valid RGTC blocks). */
static void rgtc_blocks(uint8_t *p, size_t n, unsigned s)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)((i % 8 < 2) ? 40 + ((i / 8) * 37 + s * 71 + (i % 8) * 150) % 200
                                     : (i * 89 + s * 13) ^ (i >> 3));
}

/* 1D, 2D (mipmapped, unpack sub-rectangle), 3D (from the unpack buffer), 1D array. */
static int make_basic_textures(struct scene *sc)
{
    int bad = 0;
    uint8_t out[16 * 16 * 8 * 4];

    /* 1D: 64 texels from client memory, clamped to a border colour. */
    uint8_t *img = rgba_image(64, 1, 1, 1);
    if (!img)
        return failed("out of memory");
    glCreateTextures(GL_TEXTURE_1D, 1, &sc->tex[U_1D]);
    glTextureStorage1D(sc->tex[U_1D], 1, GL_RGBA8, 64);
    glTextureSubImage1D(sc->tex[U_1D], 0, 0, 64, GL_RGBA, GL_UNSIGNED_BYTE, img);
    static const GLfloat border[4] = {0.9f, 0.8f, 0.1f, 1.0f};
    glTextureParameterfv(sc->tex[U_1D], GL_TEXTURE_BORDER_COLOR, border);
    glTextureParameteri(sc->tex[U_1D], GL_TEXTURE_WRAP_S, GL_CLAMP_TO_BORDER);
    glTextureParameteri(sc->tex[U_1D], GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(sc->tex[U_1D], GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGetTextureImage(sc->tex[U_1D], 0, GL_RGBA, GL_UNSIGNED_BYTE, 64 * 4, out);
    bad |= check_bytes("1D texture", out, img, 64 * 4);
    free(img);

    /* 2D: the 64x64 middle of an 80x70 client image, mipmapped. */
    enum { SRC_W = 80, SRC_H = 70, SKIP_X = 5, SKIP_Y = 3 };
    img = rgba_image(SRC_W, SRC_H, 1, 2);
    if (!img)
        return failed("out of memory");
    glCreateTextures(GL_TEXTURE_2D, 1, &sc->tex[U_2D]);
    glTextureStorage2D(sc->tex[U_2D], 7, GL_RGBA8, 64, 64);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, SRC_W);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, SKIP_X);
    glPixelStorei(GL_UNPACK_SKIP_ROWS, SKIP_Y);
    glTextureSubImage2D(sc->tex[U_2D], 0, 0, 0, 64, 64, GL_RGBA, GL_UNSIGNED_BYTE, img);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
    glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);
    glGenerateTextureMipmap(sc->tex[U_2D]);
    glTextureParameteri(sc->tex[U_2D], GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTextureParameteri(sc->tex[U_2D], GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTextureParameteri(sc->tex[U_2D], GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTextureParameteri(sc->tex[U_2D], GL_TEXTURE_WRAP_T, GL_MIRRORED_REPEAT);
    glTextureParameterf(sc->tex[U_2D], GL_TEXTURE_LOD_BIAS, 0.5f);
    /* a row of level 0: row 10 is source row 13, from column 5 */
    glGetTextureSubImage(sc->tex[U_2D], 0, 0, 10, 0, 64, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, 64 * 4,
                         out);
    bad |= check_bytes("2D texture row 10", out, img + ((SKIP_Y + 10) * SRC_W + SKIP_X) * 4,
                       64 * 4);
    free(img);

    /* 3D: 16x16x8 from the unpack buffer at offset 256. */
    img = rgba_image(16, 16, 8, 3);
    if (!img)
        return failed("out of memory");
    const GLsizeiptr bytes3d = 16 * 16 * 8 * 4;
    glCreateBuffers(1, &sc->unpack);
    glNamedBufferData(sc->unpack, 256 + bytes3d, NULL, GL_STREAM_DRAW);
    glNamedBufferSubData(sc->unpack, 256, bytes3d, img);
    glCreateTextures(GL_TEXTURE_3D, 1, &sc->tex[U_3D]);
    glTextureStorage3D(sc->tex[U_3D], 1, GL_RGBA8, 16, 16, 8);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, sc->unpack);
    glTextureSubImage3D(sc->tex[U_3D], 0, 0, 0, 0, 16, 16, 8, GL_RGBA, GL_UNSIGNED_BYTE,
                        (const void *)256);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    glTextureParameteri(sc->tex[U_3D], GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTextureParameteri(sc->tex[U_3D], GL_TEXTURE_WRAP_S, GL_MIRRORED_REPEAT);
    glTextureParameteri(sc->tex[U_3D], GL_TEXTURE_WRAP_T, GL_MIRRORED_REPEAT);
    glTextureParameteri(sc->tex[U_3D], GL_TEXTURE_WRAP_R, GL_CLAMP_TO_EDGE);
    glGetTextureSubImage(sc->tex[U_3D], 0, 0, 0, 5, 16, 16, 1, GL_RGBA, GL_UNSIGNED_BYTE,
                         16 * 16 * 4, out);
    bad |= check_bytes("3D texture slice 5", out, img + 5 * 16 * 16 * 4, 16 * 16 * 4);
    free(img);

    /* 1D array: 32 texels x 4 layers, layers 0-1 from client memory, 2-3 from the unpack
     * buffer (at offset 0); read back through a pixel pack buffer at offset 64. */
    img = rgba_image(32, 4, 1, 4);
    if (!img)
        return failed("out of memory");
    glCreateTextures(GL_TEXTURE_1D_ARRAY, 1, &sc->tex[U_1DA]);
    glTextureStorage2D(sc->tex[U_1DA], 1, GL_RGBA8, 32, 4);
    glTextureSubImage2D(sc->tex[U_1DA], 0, 0, 0, 32, 2, GL_RGBA, GL_UNSIGNED_BYTE, img);
    glNamedBufferSubData(sc->unpack, 0, 32 * 2 * 4, img + 32 * 2 * 4);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, sc->unpack);
    glTextureSubImage2D(sc->tex[U_1DA], 0, 0, 2, 32, 2, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    glTextureParameteri(sc->tex[U_1DA], GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(sc->tex[U_1DA], GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glCreateBuffers(1, &sc->pack);
    glNamedBufferData(sc->pack, 64 + 32 * 4 * 4, NULL, GL_STREAM_READ);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, sc->pack);
    glGetTextureImage(sc->tex[U_1DA], 0, GL_RGBA, GL_UNSIGNED_BYTE, 32 * 4 * 4, (void *)64);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glGetNamedBufferSubData(sc->pack, 64, 32 * 4 * 4, out);
    bad |= check_bytes("1D array texture", out, img, 32 * 4 * 4);
    free(img);
    return bad;
}

/* 2D array (GL_RGB, padded rows and slices), cube map, the two compressed textures. */
static int make_layered_textures(struct scene *sc)
{
    int bad = 0;
    uint8_t out[30 * 30 * 3 * 4];

    /* 2D array: 30x30x3 GL_RGB texels; rows of 90 bytes padded to 92 by UNPACK_ALIGNMENT 4,
     * slices 32 rows apart (UNPACK_IMAGE_HEIGHT 32). */
    enum { W = 30, H = 30, L = 3, ROW = 92, IMG_H = 32 };
    uint8_t *rgb = calloc(ROW * IMG_H * L, 1);
    if (!rgb)
        return failed("out of memory");
    for (int z = 0; z < L; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                for (int c = 0; c < 3; c++)
                    rgb[z * ROW * IMG_H + y * ROW + x * 3 + c] = pat(x, y, z, c, 5);
    glCreateTextures(GL_TEXTURE_2D_ARRAY, 1, &sc->tex[U_2DA]);
    glTextureStorage3D(sc->tex[U_2DA], 1, GL_RGBA8, W, H, L);
    glPixelStorei(GL_UNPACK_IMAGE_HEIGHT, IMG_H);
    glTextureSubImage3D(sc->tex[U_2DA], 0, 0, 0, 0, W, H, L, GL_RGB, GL_UNSIGNED_BYTE, rgb);
    glPixelStorei(GL_UNPACK_IMAGE_HEIGHT, 0);
    glTextureParameteri(sc->tex[U_2DA], GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(sc->tex[U_2DA], GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGetTextureImage(sc->tex[U_2DA], 0, GL_RGBA, GL_UNSIGNED_BYTE, sizeof out, out);
    for (int z = 0; z < L && !bad; z++)
        for (int y = 0; y < H && !bad; y++)
            for (int x = 0; x < W && !bad; x++) {
                const uint8_t *t = out + ((z * H + y) * W + x) * 4;
                const uint8_t *s = rgb + z * ROW * IMG_H + y * ROW + x * 3;
                if (t[0] != s[0] || t[1] != s[1] || t[2] != s[2] || t[3] != 255) {
                    fprintf(stderr, TAG ": 2D array texel (%d, %d, %d) reads back wrong\n", x,
                            y, z);
                    bad = 1;
                }
            }
    free(rgb);

    /* Cube map: 16x16 faces, each a layer of glTextureSubImage3D. */
    glCreateTextures(GL_TEXTURE_CUBE_MAP, 1, &sc->tex[U_CUBE]);
    glTextureStorage2D(sc->tex[U_CUBE], 1, GL_RGBA8, 16, 16);
    for (int face = 0; face < 6; face++) {
        uint8_t *img = rgba_image(16, 16, 1, 10u + (unsigned)face);
        if (!img)
            return failed("out of memory");
        glTextureSubImage3D(sc->tex[U_CUBE], 0, 0, 0, face, 16, 16, 1, GL_RGBA,
                            GL_UNSIGNED_BYTE, img);
        glGetTextureSubImage(sc->tex[U_CUBE], 0, 0, 0, face, 16, 16, 1, GL_RGBA,
                             GL_UNSIGNED_BYTE, 16 * 16 * 4, out);
        bad |= check_bytes("cube map face", out, img, 16 * 16 * 4);
        free(img);
    }
    glTextureParameteri(sc->tex[U_CUBE], GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTextureParameteri(sc->tex[U_CUBE], GL_TEXTURE_MAG_FILTER, GL_LINEAR);

    /* RGTC1: 32x32 (8x8 blocks of 8 bytes) from client memory, swizzled to grey. */
    uint8_t blocks[512], got[512];
    rgtc_blocks(blocks, sizeof blocks, 1);
    glCreateTextures(GL_TEXTURE_2D, 1, &sc->tex[U_RGTC1]);
    glTextureStorage2D(sc->tex[U_RGTC1], 1, GL_COMPRESSED_RED_RGTC1, 32, 32);
    glCompressedTextureSubImage2D(sc->tex[U_RGTC1], 0, 0, 0, 32, 32, GL_COMPRESSED_RED_RGTC1,
                                  sizeof blocks, blocks);
    static const GLint grey[4] = {GL_RED, GL_RED, GL_RED, GL_ONE};
    glTextureParameteriv(sc->tex[U_RGTC1], GL_TEXTURE_SWIZZLE_RGBA, grey);
    glTextureParameteri(sc->tex[U_RGTC1], GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(sc->tex[U_RGTC1], GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGetCompressedTextureImage(sc->tex[U_RGTC1], 0, sizeof got, got);
    bad |= check_bytes("RGTC1 texture", got, blocks, sizeof blocks);

    /* RGTC2 2D array: 16x16x2 (16 blocks of 16 bytes a layer) from an unpack buffer made
     * with its data by glNamedBufferStorage. */
    rgtc_blocks(blocks, sizeof blocks, 2);
    glCreateBuffers(1, &sc->rgtc_src);
    glNamedBufferStorage(sc->rgtc_src, sizeof blocks, blocks, 0);
    glCreateTextures(GL_TEXTURE_2D_ARRAY, 1, &sc->tex[U_RGTC2A]);
    glTextureStorage3D(sc->tex[U_RGTC2A], 1, GL_COMPRESSED_RG_RGTC2, 16, 16, 2);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, sc->rgtc_src);
    glCompressedTextureSubImage3D(sc->tex[U_RGTC2A], 0, 0, 0, 0, 16, 16, 2,
                                  GL_COMPRESSED_RG_RGTC2, sizeof blocks, NULL);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    glTextureParameteri(sc->tex[U_RGTC2A], GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glGetCompressedTextureImage(sc->tex[U_RGTC2A], 0, sizeof got, got);
    bad |= check_bytes("RGTC2 array texture", got, blocks, sizeof blocks);
    return bad;
}

/* The cleared texture, the dynamic one, the buffer texture. */
static int make_other_textures(struct scene *sc)
{
    int bad = 0;
    uint8_t out[16 * 16 * 4], want[16 * 16 * 4];

    glCreateTextures(GL_TEXTURE_2D, 1, &sc->tex[U_CLEAR]);
    glTextureStorage2D(sc->tex[U_CLEAR], 1, GL_RGBA8, 16, 16);
    glClearTexImage(sc->tex[U_CLEAR], 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL); /* zeroes */
    static const uint8_t clear_rgba[4] = {30, 60, 200, 255};
    glClearTexImage(sc->tex[U_CLEAR], 0, GL_RGBA, GL_UNSIGNED_BYTE, clear_rgba);
    glTextureParameteri(sc->tex[U_CLEAR], GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(sc->tex[U_CLEAR], GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGetTextureImage(sc->tex[U_CLEAR], 0, GL_RGBA, GL_UNSIGNED_BYTE, sizeof out, out);
    for (size_t i = 0; i < sizeof want; i++)
        want[i] = clear_rgba[i % 4];
    bad |= check_bytes("cleared texture", out, want, sizeof want);

    glCreateTextures(GL_TEXTURE_2D, 1, &sc->tex[U_DYN]);
    glTextureStorage2D(sc->tex[U_DYN], 1, GL_RGBA8, 32, 32);
    glTextureParameteri(sc->tex[U_DYN], GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(sc->tex[U_DYN], GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTextureParameteri(sc->tex[U_DYN], GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTextureParameteri(sc->tex[U_DYN], GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);

    /* Buffer texture: 64 RGBA8 texels: cleared, a cleared range, then 8 texels of data. */
    glCreateBuffers(1, &sc->texbuf);
    glNamedBufferStorage(sc->texbuf, 64 * 4, NULL, GL_DYNAMIC_STORAGE_BIT);
    static const uint8_t all[4] = {200, 90, 40, 255}, range[4] = {40, 180, 90, 255};
    glClearNamedBufferData(sc->texbuf, GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, all);
    glClearNamedBufferSubData(sc->texbuf, GL_RGBA8, 16 * 4, 16 * 4, GL_RGBA, GL_UNSIGNED_BYTE,
                              range);
    uint8_t *row = rgba_image(8, 1, 1, 6);
    if (!row)
        return failed("out of memory");
    glNamedBufferSubData(sc->texbuf, 48 * 4, 8 * 4, row);
    glGetNamedBufferSubData(sc->texbuf, 0, 64 * 4, out);
    for (int i = 0; i < 64 * 4; i++)
        want[i] = i >= 48 * 4 && i < 56 * 4 ? row[i - 48 * 4]
                  : i >= 16 * 4 && i < 32 * 4 ? range[i % 4] : all[i % 4];
    bad |= check_bytes("texture buffer", out, want, 64 * 4);
    free(row);
    glCreateTextures(GL_TEXTURE_BUFFER, 1, &sc->tex[U_BUF]);
    glTextureBuffer(sc->tex[U_BUF], GL_RGBA8, sc->texbuf);
    return bad;
}

/* The FBO: two RGBA8 colour textures, a depth renderbuffer, both colour outputs drawn. */
static int make_fbo(struct scene *sc)
{
    glCreateTextures(GL_TEXTURE_2D, 1, &sc->tex[U_FBO]);
    glCreateTextures(GL_TEXTURE_2D, 1, &sc->fbo_tex1);
    GLuint colour[2] = {sc->tex[U_FBO], sc->fbo_tex1};
    for (int i = 0; i < 2; i++) {
        glTextureStorage2D(colour[i], 1, GL_RGBA8, FBO_SIZE, FBO_SIZE);
        glTextureParameteri(colour[i], GL_TEXTURE_MIN_FILTER, GL_LINEAR);
        glTextureParameteri(colour[i], GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTextureParameteri(colour[i], GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    }
    glCreateRenderbuffers(1, &sc->depth_rb);
    glNamedRenderbufferStorage(sc->depth_rb, GL_DEPTH_COMPONENT24, FBO_SIZE, FBO_SIZE);
    glCreateFramebuffers(1, &sc->fbo);
    glNamedFramebufferTexture(sc->fbo, GL_COLOR_ATTACHMENT0, colour[0], 0);
    glNamedFramebufferTexture(sc->fbo, GL_COLOR_ATTACHMENT1, colour[1], 0);
    glNamedFramebufferRenderbuffer(sc->fbo, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, sc->depth_rb);
    static const GLenum draw[2] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1};
    glNamedFramebufferDrawBuffers(sc->fbo, 2, draw);
    glNamedFramebufferReadBuffer(sc->fbo, GL_COLOR_ATTACHMENT1);
    GLenum status = glCheckNamedFramebufferStatus(sc->fbo, GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, TAG ": FBO incomplete (0x%04x)\n", status);
        return 1;
    }
    return 0;
}

/* The quad, its indices, the per-instance tints and the VAO over them. */
static void make_vertex_arrays(struct scene *sc)
{
    static const struct vertex quad[4] = {
        {{-1, -1}, {0, 0}}, {{1, -1}, {1, 0}}, {{1, 1}, {1, 1}}, {{-1, 1}, {0, 1}},
    };
    static const GLushort idx[6] = {0, 1, 2, 0, 2, 3};
    glCreateBuffers(1, &sc->vbo);
    glNamedBufferStorage(sc->vbo, sizeof quad, quad, 0);
    glCreateBuffers(1, &sc->ebo);
    glNamedBufferData(sc->ebo, sizeof idx, idx, GL_STATIC_DRAW);
    glCreateBuffers(1, &sc->tints);
    glNamedBufferData(sc->tints, N_TILES * 4 * sizeof(float), NULL, GL_DYNAMIC_DRAW);

    glCreateVertexArrays(1, &sc->vao);
    glVertexArrayVertexBuffer(sc->vao, 0, sc->vbo, 0, sizeof(struct vertex));
    const GLintptr offsets[1] = {0};
    const GLsizei strides[1] = {4 * sizeof(float)};
    glVertexArrayVertexBuffers(sc->vao, 1, 1, &sc->tints, offsets, strides);
    glVertexArrayBindingDivisor(sc->vao, 1, 1);
    glVertexArrayAttribFormat(sc->vao, 0, 2, GL_FLOAT, GL_FALSE, offsetof(struct vertex, pos));
    glVertexArrayAttribFormat(sc->vao, 1, 2, GL_FLOAT, GL_FALSE, offsetof(struct vertex, uv));
    glVertexArrayAttribFormat(sc->vao, 2, 4, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribBinding(sc->vao, 0, 0);
    glVertexArrayAttribBinding(sc->vao, 1, 0);
    glVertexArrayAttribBinding(sc->vao, 2, 1);
    for (GLuint a = 0; a < 3; a++)
        glEnableVertexArrayAttrib(sc->vao, a);
    glVertexArrayElementBuffer(sc->vao, sc->ebo);
}

/* Both programs, their samplers and constant uniforms (glProgramUniform*). */
static int make_programs(struct scene *sc)
{
    sc->tile_prog = app_build_program(TAG, tile_vs, tile_fs, NULL);
    sc->fbo_prog = app_build_program(TAG, fbo_vs, fbo_fs, NULL);
    if (!sc->tile_prog || !sc->fbo_prog)
        return 1;
    for (int u = 0; u < N_UNITS; u++)
        glProgramUniform1i(sc->tile_prog, glGetUniformLocation(sc->tile_prog, sampler_names[u]),
                           u);
    /* Tiles: 4 columns x 3 rows of 80x80 pixels, each quad 72x72 in its middle. */
    GLfloat tiles[N_TILES][4];
    for (int t = 0; t < N_TILES; t++) {
        tiles[t][0] = -1.0f + (float)(t % 4 * 80 + 40) * 2.0f / APP_WIDTH;
        tiles[t][1] = 1.0f - (float)(t / 4 * 80 + 40) * 2.0f / APP_HEIGHT;
        tiles[t][2] = 36.0f * 2.0f / APP_WIDTH;
        tiles[t][3] = 36.0f * 2.0f / APP_HEIGHT;
    }
    glProgramUniform4fv(sc->tile_prog, glGetUniformLocation(sc->tile_prog, "u_tiles"), N_TILES,
                        &tiles[0][0]);
    sc->loc_rot = glGetUniformLocation(sc->tile_prog, "u_rot");
    sc->loc_cube = glGetUniformLocation(sc->tile_prog, "u_cube");
    sc->loc_layer = glGetUniformLocation(sc->tile_prog, "u_layer");
    glProgramUniform1i(sc->fbo_prog, glGetUniformLocation(sc->fbo_prog, "u_checker"), U_2D);
    sc->loc_mvp = glGetUniformLocation(sc->fbo_prog, "u_mvp");
    sc->loc_colors = glGetUniformLocation(sc->fbo_prog, "u_colors");
    if (sc->loc_rot < 0 || sc->loc_cube < 0 || sc->loc_layer < 0 || sc->loc_mvp < 0 ||
        sc->loc_colors < 0)
        return failed("a uniform is missing");
    return 0;
}

/* The frame's writes: tints through a map, the dynamic texture from client memory and
 * the unpack buffer, frame-coloured clears of a texture and a buffer range. */
static int update(struct scene *sc, unsigned frame)
{
    float *tint = glMapNamedBufferRange(sc->tints, 0, N_TILES * 4 * sizeof(float),
                                        GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
    if (!tint)
        return failed("glMapNamedBufferRange failed");
    for (int t = 0; t < N_TILES; t++) {
        tint[t * 4 + 0] = 0.75f + 0.25f * sinf(0.9f * (float)frame + (float)t);
        tint[t * 4 + 1] = 0.75f + 0.25f * cosf(0.7f * (float)frame + 2.0f * (float)t);
        tint[t * 4 + 2] = 1.0f - 0.05f * (float)((frame + (unsigned)t) % 5);
        tint[t * 4 + 3] = 1.0f;
    }
    if (!glUnmapNamedBuffer(sc->tints))
        return failed("glUnmapNamedBuffer failed");

    uint8_t *img = rgba_image(32, 32, 1, 20 + frame), *piece = rgba_image(16, 16, 1, 40 + frame);
    if (!img || !piece) {
        free(img);
        free(piece);
        return failed("out of memory");
    }
    glTextureSubImage2D(sc->tex[U_DYN], 0, 0, 0, 32, 32, GL_RGBA, GL_UNSIGNED_BYTE, img);
    const GLintptr at = 512 + 64 * (GLintptr)(frame % 4);
    glNamedBufferSubData(sc->unpack, at, 16 * 16 * 4, piece);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, sc->unpack);
    glTextureSubImage2D(sc->tex[U_DYN], 0, 8, 8, 16, 16, GL_RGBA, GL_UNSIGNED_BYTE,
                        (const void *)at);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    uint8_t out[16 * 16 * 4];
    glGetTextureSubImage(sc->tex[U_DYN], 0, 8, 8, 0, 16, 16, 1, GL_RGBA, GL_UNSIGNED_BYTE,
                         sizeof out, out);
    int bad = check_bytes("dynamic texture's piece", out, piece, sizeof out);
    free(img);
    free(piece);

    const GLfloat c[4] = {0.2f * (float)(frame % 5), 0.9f - 0.15f * (float)(frame % 6), 0.5f, 1};
    glClearTexSubImage(sc->tex[U_CLEAR], 0, 2 + (GLint)(frame % 6), 4, 0, 8, 6, 1, GL_RGBA,
                       GL_FLOAT, c);
    const uint8_t b[4] = {(uint8_t)(frame * 40), 220, (uint8_t)(255 - frame * 30), 255};
    glClearNamedBufferSubData(sc->texbuf, GL_RGBA8, (GLintptr)(frame % 8) * 8 * 4, 4 * 4,
                              GL_RGBA, GL_UNSIGNED_BYTE, b);
    return bad;
}

/* The frame's uniforms: arrays of matrices and vectors, a mat3, a float. */
static void set_uniforms(struct scene *sc, unsigned frame)
{
    float rot[2][16], mvp[2][16], cube[9];
    float a = 0.25f * (float)frame;
    mat4_rotate_z(rot[0], a);
    mat4_rotate_z(rot[1], -0.5f * a);
    float s[16], r[16], t[16], tmp[16];
    for (int i = 0; i < 2; i++) {
        mat4_scale(s, 0.7f - 0.2f * (float)i, 0.7f - 0.2f * (float)i, 1.0f);
        mat4_rotate_z(r, (i ? -1.0f : 1.0f) * 0.3f * (float)(frame + 1));
        mat4_translate(t, 0.2f * (float)i - 0.1f, 0.1f - 0.2f * (float)i, 0.5f * (float)i - 0.2f);
        mat4_mul(tmp, r, s);
        mat4_mul(mvp[i], t, tmp);
    }
    float ca = cosf(0.4f * (float)frame), sa = sinf(0.4f * (float)frame);
    const float c3[9] = {ca, 0, -sa, 0, 1, 0, sa, 0, ca};
    memcpy(cube, c3, sizeof cube);
    glProgramUniformMatrix4fv(sc->tile_prog, sc->loc_rot, 2, GL_FALSE, &rot[0][0]);
    glProgramUniformMatrix3fv(sc->tile_prog, sc->loc_cube, 1, GL_FALSE, cube);
    glProgramUniform1f(sc->tile_prog, sc->loc_layer, (0.5f + (float)(frame % 8)) / 8.0f);
    glProgramUniformMatrix4fv(sc->fbo_prog, sc->loc_mvp, 2, GL_FALSE, &mvp[0][0]);
    const GLfloat colors[2][3] = {{1.0f, 0.6f + 0.1f * (float)(frame % 4), 0.4f},
                                  {0.4f, 0.8f, 1.0f - 0.1f * (float)(frame % 3)}};
    glProgramUniform3fv(sc->fbo_prog, sc->loc_colors, 2, &colors[0][0]);
}

static void draw(struct scene *sc, unsigned frame)
{
    /* Pass 1: both colour attachments and depth, two overlapping quads. */
    glBindFramebuffer(GL_FRAMEBUFFER, sc->fbo);
    glViewport(0, 0, FBO_SIZE, FBO_SIZE);
    glEnable(GL_DEPTH_TEST);
    const GLfloat c0[4] = {0.1f, 0.1f, 0.2f + 0.05f * (float)(frame % 4), 1.0f};
    const GLfloat c1[4] = {0.3f, 0.1f, 0.1f, 1.0f}, one = 1.0f;
    glClearNamedFramebufferfv(sc->fbo, GL_COLOR, 0, c0);
    glClearNamedFramebufferfv(sc->fbo, GL_COLOR, 1, c1);
    glClearNamedFramebufferfv(sc->fbo, GL_DEPTH, 0, &one);
    glUseProgram(sc->fbo_prog);
    glBindVertexArray(sc->vao);
    for (int u = 0; u < N_UNITS; u++)
        glBindTextureUnit((GLuint)u, sc->tex[u]);
    glDrawElementsInstanced(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, NULL, 2);
    static const GLenum depth[1] = {GL_DEPTH_ATTACHMENT};
    glInvalidateNamedFramebufferData(sc->fbo, 1, depth);

    /* Pass 2: the tiles into the window, then attachment 1 blitted over tile 10's corner. */
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, APP_WIDTH, APP_HEIGHT);
    glDisable(GL_DEPTH_TEST);
    const GLfloat bg[4] = {0.05f, 0.05f + 0.02f * (float)(frame % 3), 0.1f, 1.0f};
    glClearNamedFramebufferfv(0, GL_COLOR, 0, bg);
    glUseProgram(sc->tile_prog);
    glDrawElementsInstanced(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, NULL, N_TILES);
    glBlitNamedFramebuffer(sc->fbo, 0, 0, 0, FBO_SIZE, FBO_SIZE, 164, 4, 200, 40,
                           GL_COLOR_BUFFER_BIT, GL_LINEAR);
}

int main(int argc, char **argv)
{
    struct app_options opt;
    app_parse_options(argc, argv, &opt);
    Display *dpy;
    GLXFBConfig config;
    Window win = app_glx_open(TAG, NULL, &dpy, &config);
    if (!win)
        return 1;
    PFNGLXCREATECONTEXTATTRIBSARBPROC create_context;
    GLXContext ctx = app_glx_core_context(dpy, win, config, TAG, 4, 5, &create_context);
    if (!ctx)
        return 1;
    if (opt.warmup) {
        app_warmup_clear(GL_COLOR_BUFFER_BIT);
        glXSwapBuffers(dpy, win);
    }

    struct scene sc;
    memset(&sc, 0, sizeof sc);
    if (make_basic_textures(&sc) || make_layered_textures(&sc) || make_other_textures(&sc) ||
        make_fbo(&sc) || make_programs(&sc))
        return 1;
    make_vertex_arrays(&sc);
    if (app_check_gl_error(TAG, "the set-up", 0))
        return 1;

    uint8_t *pixels;
    if (app_frame_buffer(TAG, &opt, &pixels) != 0)
        return 1;
    int status = 0;
    for (unsigned frame = 0; frame < opt.frames && !status; frame++) {
        if (update(&sc, frame)) {
            status = 1;
            break;
        }
        set_uniforms(&sc, frame);
        draw(&sc, frame);
        if (app_check_gl_error(TAG, NULL, frame) ||
            (pixels && app_read_frame(opt.save_prefix, frame, pixels) != 0)) {
            status = 1;
            break;
        }
        glXSwapBuffers(dpy, win);
    }

    free(pixels);
    glDeleteVertexArrays(1, &sc.vao);
    GLuint buffers[] = {sc.unpack, sc.rgtc_src, sc.texbuf, sc.pack, sc.vbo, sc.ebo, sc.tints};
    glDeleteBuffers(sizeof buffers / sizeof *buffers, buffers);
    glDeleteTextures(N_UNITS, sc.tex);
    glDeleteTextures(1, &sc.fbo_tex1);
    glDeleteRenderbuffers(1, &sc.depth_rb);
    glDeleteFramebuffers(1, &sc.fbo);
    glDeleteProgram(sc.tile_prog);
    glDeleteProgram(sc.fbo_prog);
    app_glx_close(dpy, win, ctx);
    return status;
}
