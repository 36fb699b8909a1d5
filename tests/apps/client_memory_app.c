/* client_memory_app: a deterministic OpenGL compatibility-profile program (Xlib + GLX,
 * glXCreateContext) that hands the GL client memory in one way per mode, for the
 * recording test tests/integration/client_memory.sh (each mode recorded by gltrace and
 * by apitrace, the dumps compared, both traces replayed to this program's frames).
 *
 * Modes (one flag; the animation depends on the frame index only):
 *   --interleaved  glInterleavedArrays in client memory: GL_C3F_V3F + glDrawArrays (the
 *                  texture coordinate array enabled before, so the call must disable it),
 *                  GL_C4UB_V2F + glDrawElements, GL_T2F_C4F_N3F_V3F with a stride, and
 *                  GL_V2F from a buffer object (recorded as a plain call);
 *   --lock         glLockArraysEXT(0, 24) over client arrays (colours of size GL_BGRA),
 *                  draws that read fewer vertices (glDrawArrays of 6, glDrawElements up
 *                  to index 11), then glUnlockArraysEXT and a draw of 6;
 *   --arrays       the other conventional arrays: edge flags (glEdgeFlagPointer, polygons
 *                  drawn as lines), fog coordinates, secondary colours, colour indices,
 *                  texture coordinates on unit 1, glVertexPointerEXT/glColorPointerEXT
 *                  (GL_EXT_vertex_array);
 *   --multidraw    glMultiDrawArrays, glMultiDrawElements, glMultiDrawElementsBaseVertex
 *                  over client arrays;
 *   --coherent     a persistent coherent map (glBufferStorage(MAP_WRITE | PERSISTENT |
 *                  COHERENT), glMapBufferRange at offset 1000 of 16384 bytes): each frame
 *                  rewrites some of four triangles lying in pages 0, 0, 2 and 3 of the
 *                  buffer, then draws them (glVertexPointer from the buffer);
 *   --pixels       pixel transfers with unpack state: glTexImage2D with row length, skip
 *                  rows/pixels and alignment 1, glTexSubImage2D, glTexImage3D with image
 *                  height and skip images, glCompressedTexImage2D (RGTC1), glDrawPixels,
 *                  glBitmap; textured quads;
 *   --lists        display lists called with glCallLists of GL_UNSIGNED_BYTE, GL_SHORT
 *                  and GL_2_BYTES names;
 *   --indirect     glDrawArraysIndirect and glDrawElementsIndirect (indices from an
 *                  element buffer) whose commands are in client memory (no
 *                  GL_DRAW_INDIRECT_BUFFER bound), over client vertex arrays;
 *   --select       memory the GL writes after the call that hands it over: a selection
 *                  buffer (glSelectBuffer, 256 KiB) and a feedback buffer
 *                  (glFeedbackBuffer), filled at glRenderMode(GL_RENDER); the frame
 *                  draws what they say (which triangles were hit, where one landed).
 * Options as the other apps (app_common.h): --frames N, --save PREFIX, --warmup. Any GL
 * error exits 1. */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#include <GL/glx.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_common.h"
#include "gl_util.h"
#include "glx_util.h"

#define TAG "client_memory_app"

static unsigned g_frame;

static int check(const char *what)
{
    return app_check_gl_error(TAG, what, g_frame);
}

static int has_ext(const char *name)
{
    const char *list = (const char *)glGetString(GL_EXTENSIONS);
    size_t n = strlen(name);
    for (const char *p = list; p && (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

/* A triangle fan around (cx, cy) as GL_TRIANGLES: 3 * n vertices of 2 floats. */
static void fan(float *xy, int n, float cx, float cy, float r, float turn)
{
    for (int i = 0; i < n; ++i) {
        float a = turn + 6.2831853f * (float)i / (float)n, b = a + 6.2831853f / (float)n;
        float *t = xy + 6 * i;
        t[0] = cx, t[1] = cy;
        t[2] = cx + r * cosf(a), t[3] = cy + r * sinf(a);
        t[4] = cx + r * cosf(b), t[5] = cy + r * sinf(b);
    }
}

/* ---- --interleaved ------------------------------------------------------------------ */
static GLuint g_vbo;

static int draw_interleaved(void)
{
    float t = 0.3f * (float)g_frame;
    float xy[6 * 6];
    fan(xy, 6, -0.5f, 0.5f, 0.35f, t);
    float c3v3[18 * 6]; /* GL_C3F_V3F */
    for (int i = 0; i < 18; ++i) {
        float *v = c3v3 + 6 * i;
        v[0] = 0.2f + 0.04f * (float)i, v[1] = 0.5f, v[2] = 0.9f - 0.03f * (float)i;
        v[3] = xy[2 * i], v[4] = xy[2 * i + 1], v[5] = 0.0f;
    }
    glEnableClientState(GL_TEXTURE_COORD_ARRAY); /* GL_C3F_V3F disables it */
    glInterleavedArrays(GL_C3F_V3F, 0, c3v3);
    glDrawArrays(GL_TRIANGLES, 0, 18);

    struct { GLubyte c[4]; float v[2]; } c4v2[8]; /* GL_C4UB_V2F, a quad strip of 8 */
    for (int i = 0; i < 8; ++i) {
        c4v2[i].c[0] = (GLubyte)(40 * i), c4v2[i].c[1] = 200, c4v2[i].c[2] = (GLubyte)(g_frame * 50);
        c4v2[i].c[3] = 255;
        c4v2[i].v[0] = 0.1f + 0.11f * (float)(i / 2);
        c4v2[i].v[1] = 0.3f + 0.4f * (float)(i % 2) + 0.05f * (float)(g_frame % 3);
    }
    static const GLushort strip[] = {0, 1, 2, 3, 4, 5, 6, 7};
    glInterleavedArrays(GL_C4UB_V2F, 0, c4v2);
    glDrawElements(GL_TRIANGLE_STRIP, 8, GL_UNSIGNED_SHORT, strip);

    /* GL_T2F_C4F_N3F_V3F with 4 bytes of padding a vertex */
    float big[6 * 16];
    for (int i = 0; i < 6; ++i) {
        float *v = big + 16 * i;
        memset(v, 0, 16 * sizeof *v);
        v[2] = 1.0f, v[3] = 0.3f + 0.1f * (float)i, v[4] = 0.2f, v[5] = 1.0f; /* colour */
        v[8] = 1.0f;                                                          /* normal */
        v[9] = -0.9f + 0.15f * (float)(i / 2) + 0.02f * (float)g_frame;
        v[10] = -0.2f - 0.5f * (float)(i % 2), v[11] = 0.0f;
    }
    glInterleavedArrays(GL_T2F_C4F_N3F_V3F, 16 * sizeof(float), big);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 6);
    glDisableClientState(GL_TEXTURE_COORD_ARRAY);
    glDisableClientState(GL_NORMAL_ARRAY);

    /* GL_V2F from a buffer object: an offset, recorded as such */
    float quad[8];
    for (int i = 0; i < 4; ++i) {
        quad[2 * i] = 0.2f + 0.5f * (float)(i % 2);
        quad[2 * i + 1] = -0.3f - 0.5f * (float)(i / 2) + 0.03f * (float)g_frame;
    }
    glBindBuffer(GL_ARRAY_BUFFER, g_vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STREAM_DRAW);
    glInterleavedArrays(GL_V2F, 0, NULL);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glColor3f(0.9f, 0.9f, 0.2f);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glDisableClientState(GL_VERTEX_ARRAY);
    return check("glInterleavedArrays draws");
}

/* ---- --lock --------------------------------------------------------------------------- */
static int draw_lock(void)
{
    float xy[24 * 2];
    fan(xy, 8, 0.0f, 0.0f, 0.6f, 0.2f * (float)g_frame);
    GLubyte bgra[24 * 4]; /* size GL_BGRA (GL_ARB_vertex_array_bgra): blue first */
    for (int i = 0; i < 24; ++i) {
        bgra[4 * i + 2] = (GLubyte)(10 * i), bgra[4 * i + 1] = (GLubyte)(255 - 10 * i);
        bgra[4 * i] = (GLubyte)(80 * (g_frame % 4)), bgra[4 * i + 3] = 255;
    }
    glEnableClientState(GL_VERTEX_ARRAY);
    glEnableClientState(GL_COLOR_ARRAY);
    glVertexPointer(2, GL_FLOAT, 0, xy);
    glColorPointer(GL_BGRA, GL_UNSIGNED_BYTE, 0, bgra);
    glLockArraysEXT(0, 24);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    static const GLubyte idx[] = {9, 10, 11};
    glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_BYTE, idx);
    glUnlockArraysEXT();
    glDrawArrays(GL_TRIANGLES, 3, 3);
    glDisableClientState(GL_COLOR_ARRAY);
    glDisableClientState(GL_VERTEX_ARRAY);
    return check("locked arrays");
}

/* ---- --arrays ------------------------------------------------------------------------- */
static GLuint g_tex;

static int draw_arrays(void)
{
    float xy[12 * 2];
    fan(xy, 4, -0.4f, 0.0f, 0.5f, 0.25f * (float)g_frame);
    GLboolean edge[12];
    float fog[12], second[12 * 3], index[12], st[12 * 2];
    for (int i = 0; i < 12; ++i) {
        edge[i] = (GLboolean)(i % 3 != 2);
        fog[i] = 0.1f * (float)(i % 6) + 0.05f * (float)(g_frame % 3);
        second[3 * i] = 0.3f, second[3 * i + 1] = 0.05f * (float)i, second[3 * i + 2] = 0.0f;
        index[i] = (float)i;
        st[2 * i] = xy[2 * i] * 2.0f, st[2 * i + 1] = xy[2 * i + 1] * 2.0f;
    }
    glColor3f(0.2f, 0.3f, 0.8f);
    glEnable(GL_FOG);
    glFogi(GL_FOG_MODE, GL_LINEAR);
    glFogf(GL_FOG_START, 0.0f);
    glFogf(GL_FOG_END, 1.0f);
    glFogi(GL_FOG_COORD_SRC, GL_FOG_COORD);
    glEnable(GL_COLOR_SUM);
    glEnableClientState(GL_VERTEX_ARRAY);
    glEnableClientState(GL_EDGE_FLAG_ARRAY);
    glEnableClientState(GL_FOG_COORD_ARRAY);
    glEnableClientState(GL_SECONDARY_COLOR_ARRAY);
    glEnableClientState(GL_INDEX_ARRAY);
    glVertexPointer(2, GL_FLOAT, 0, xy);
    glEdgeFlagPointer(0, edge);
    glFogCoordPointer(GL_FLOAT, 0, fog);
    glSecondaryColorPointer(3, GL_FLOAT, 0, second);
    glIndexPointer(GL_FLOAT, 0, index);
    glClientActiveTexture(GL_TEXTURE1);
    glEnableClientState(GL_TEXTURE_COORD_ARRAY);
    glTexCoordPointer(2, GL_FLOAT, 0, st);
    glClientActiveTexture(GL_TEXTURE0);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, g_tex);
    glEnable(GL_TEXTURE_2D);
    glActiveTexture(GL_TEXTURE0);
    glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
    glDrawArrays(GL_TRIANGLES, 0, 12);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glDrawArrays(GL_TRIANGLES, 3, 6);
    glActiveTexture(GL_TEXTURE1);
    glDisable(GL_TEXTURE_2D);
    glActiveTexture(GL_TEXTURE0);
    glClientActiveTexture(GL_TEXTURE1);
    glDisableClientState(GL_TEXTURE_COORD_ARRAY);
    glClientActiveTexture(GL_TEXTURE0);
    glDisableClientState(GL_INDEX_ARRAY);
    glDisableClientState(GL_SECONDARY_COLOR_ARRAY);
    glDisableClientState(GL_FOG_COORD_ARRAY);
    glDisableClientState(GL_EDGE_FLAG_ARRAY);
    glDisable(GL_COLOR_SUM);
    glDisable(GL_FOG);
    if (has_ext("GL_EXT_vertex_array")) {
        PFNGLVERTEXPOINTEREXTPROC vp =
            (PFNGLVERTEXPOINTEREXTPROC)glXGetProcAddressARB((const GLubyte *)"glVertexPointerEXT");
        PFNGLCOLORPOINTEREXTPROC cp =
            (PFNGLCOLORPOINTEREXTPROC)glXGetProcAddressARB((const GLubyte *)"glColorPointerEXT");
        float ext_xy[6 * 2];
        fan(ext_xy, 2, 0.5f, 0.4f, 0.3f, -0.2f * (float)g_frame);
        GLubyte ext_c[6 * 3] = {255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0, 0, 255, 255, 255, 0, 255};
        glEnableClientState(GL_COLOR_ARRAY);
        vp(2, GL_FLOAT, 0, 6, ext_xy);
        cp(3, GL_UNSIGNED_BYTE, 0, 6, ext_c);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        glDisableClientState(GL_COLOR_ARRAY);
    }
    glDisableClientState(GL_VERTEX_ARRAY);
    return check("conventional arrays");
}

/* ---- --multidraw ---------------------------------------------------------------------- */
static int draw_multidraw(void)
{
    float xy[30 * 2];
    fan(xy, 10, 0.0f, 0.0f, 0.7f, 0.15f * (float)g_frame);
    GLubyte rgb[30 * 3];
    for (int i = 0; i < 30; ++i)
        rgb[3 * i] = (GLubyte)(8 * i), rgb[3 * i + 1] = 120, rgb[3 * i + 2] = (GLubyte)(255 - 8 * i);
    glEnableClientState(GL_VERTEX_ARRAY);
    glEnableClientState(GL_COLOR_ARRAY);
    glVertexPointer(2, GL_FLOAT, 0, xy);
    glColorPointer(3, GL_UNSIGNED_BYTE, 0, rgb);
    static const GLint first[] = {0, 6};
    static const GLsizei count[] = {3, 6};
    glMultiDrawArrays(GL_TRIANGLES, first, count, 2);
    static const GLushort ia[] = {12, 13, 14}, ib[] = {15, 16, 17, 18, 19, 20};
    const void *indices[] = {ia, ib};
    static const GLsizei icount[] = {3, 6};
    glMultiDrawElements(GL_TRIANGLES, icount, GL_UNSIGNED_SHORT, indices, 2);
    static const GLuint ja[] = {0, 1, 2}, jb[] = {3, 4, 5};
    const void *jindices[] = {ja, jb};
    static const GLsizei jcount[] = {3, 3};
    static const GLint base[] = {21, 24};
    glMultiDrawElementsBaseVertex(GL_TRIANGLES, jcount, GL_UNSIGNED_INT, jindices, 2, base);
    glDisableClientState(GL_COLOR_ARRAY);
    glDisableClientState(GL_VERTEX_ARRAY);
    return check("multi-draws");
}

/* ---- --coherent ----------------------------------------------------------------------- */
#define COHERENT_SIZE 16384
#define COHERENT_OFFSET 1000
static GLuint g_coherent;
static unsigned char *g_map; /* buffer offset COHERENT_OFFSET */
/* Buffer offsets of the four triangles (pages 0, 0, 2, 3 of 4096 bytes). */
static const GLintptr tri_at[4] = {1000, 2000, 8292, 12400};

static int setup_coherent(void)
{
    const GLbitfield flags = GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
    glGenBuffers(1, &g_coherent);
    glBindBuffer(GL_ARRAY_BUFFER, g_coherent);
    glBufferStorage(GL_ARRAY_BUFFER, COHERENT_SIZE, NULL, flags);
    g_map = glMapBufferRange(GL_ARRAY_BUFFER, COHERENT_OFFSET, 15000, flags);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    if (!g_map) {
        fprintf(stderr, TAG ": persistent map failed\n");
        return 1;
    }
    return 0;
}

static int draw_coherent(void)
{
    /* frame 0 writes all four, then frame f rewrites triangle f % 4 and the next but one */
    for (int k = 0; k < 4; ++k) {
        if (g_frame > 0 && k != (int)(g_frame % 4) && k != (int)((g_frame + 2) % 4))
            continue;
        float xy[6];
        fan(xy, 1, -0.6f + 0.4f * (float)k, 0.0f, 0.3f, 0.4f * (float)g_frame + (float)k);
        memcpy(g_map + (tri_at[k] - COHERENT_OFFSET), xy, sizeof xy);
    }
    glBindBuffer(GL_ARRAY_BUFFER, g_coherent);
    glEnableClientState(GL_VERTEX_ARRAY);
    glVertexPointer(2, GL_FLOAT, 0, NULL);
    for (int k = 0; k < 4; ++k) {
        glColor3f(0.3f + 0.2f * (float)k, 0.8f - 0.2f * (float)k, 0.5f);
        glDrawArrays(GL_TRIANGLES, (GLint)(tri_at[k] / 8), 3);
    }
    glDisableClientState(GL_VERTEX_ARRAY);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return check("coherent map draws");
}

/* ---- --pixels ------------------------------------------------------------------------- */
static GLuint g_tex3d, g_texc;

static void textured_quad(GLenum target, float x, float y, float r)
{
    glEnable(target);
    glBegin(GL_QUADS);
    glTexCoord3f(0, 0, 0.5f), glVertex2f(x, y);
    glTexCoord3f(1, 0, 0.5f), glVertex2f(x + r, y);
    glTexCoord3f(1, 1, 0.5f), glVertex2f(x + r, y + r);
    glTexCoord3f(0, 1, 0.5f), glVertex2f(x, y + r);
    glEnd();
    glDisable(target);
}

static int draw_pixels(void)
{
    /* a 16 x 12 RGB image inside a 21-pixel-wide client image, 3 rows and 2 pixels in */
    static GLubyte big[20 * 21 * 3];
    for (int i = 0; i < (int)sizeof big; ++i)
        big[i] = (GLubyte)(i * 7 + (int)g_frame * 31);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 21);
    glPixelStorei(GL_UNPACK_SKIP_ROWS, 3);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, 2);
    glBindTexture(GL_TEXTURE_2D, g_tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB, 16, 12, 0, GL_RGB, GL_UNSIGNED_BYTE, big);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 4, 4, 5, 3, GL_RGB, GL_UNSIGNED_BYTE, big);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
    textured_quad(GL_TEXTURE_2D, -0.9f, 0.1f, 0.7f);

    /* 3D: 8 x 8 x 4 RGBA of a client block of 6 images of 10 rows, 1 image skipped */
    static GLubyte vol[6 * 10 * 8 * 4];
    for (int i = 0; i < (int)sizeof vol; ++i)
        vol[i] = (GLubyte)(i * 13 + (int)g_frame * 17);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_IMAGE_HEIGHT, 10);
    glPixelStorei(GL_UNPACK_SKIP_IMAGES, 1);
    glBindTexture(GL_TEXTURE_3D, g_tex3d);
    glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA, 8, 8, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, vol);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glPixelStorei(GL_UNPACK_IMAGE_HEIGHT, 0);
    glPixelStorei(GL_UNPACK_SKIP_IMAGES, 0);
    textured_quad(GL_TEXTURE_3D, 0.1f, 0.1f, 0.7f);

    /* compressed: 8 x 8 RGTC1, 4 blocks of 8 bytes */
    GLubyte blocks[32];
    for (int i = 0; i < 32; ++i)
        blocks[i] = (GLubyte)(i * 29 + (int)g_frame * 3);
    glBindTexture(GL_TEXTURE_2D, g_texc);
    glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 8, 8, 0, sizeof blocks,
                           blocks);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    textured_quad(GL_TEXTURE_2D, -0.9f, -0.8f, 0.7f);
    glBindTexture(GL_TEXTURE_2D, 0);

    /* glDrawPixels with a skip, glBitmap */
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 21);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, 1);
    glRasterPos2f(0.2f, -0.8f);
    glDrawPixels(16, 12, GL_RGB, GL_UNSIGNED_BYTE, big);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
    GLubyte bm[16 * 2]; /* stripes that move with the frame */
    for (int i = 0; i < 32; ++i)
        bm[i] = (i / 2 + (int)g_frame) % 2 ? 0xAA : 0x55;
    glColor3f(1, 1, 0);
    glRasterPos2f(0.6f, -0.8f);
    glBitmap(16, 16, 0, 0, 0, 0, bm);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    return check("pixel transfers");
}

/* ---- --lists -------------------------------------------------------------------------- */
static GLuint g_lists;

static void setup_lists(void)
{
    g_lists = glGenLists(4);
    for (int i = 0; i < 4; ++i) {
        glNewList(g_lists + (GLuint)i, GL_COMPILE);
        glColor3f(0.25f * (float)i, 1.0f - 0.25f * (float)i, 0.5f);
        glBegin(GL_TRIANGLES);
        glVertex2f(-0.9f + 0.45f * (float)i, -0.2f);
        glVertex2f(-0.6f + 0.45f * (float)i, -0.2f);
        glVertex2f(-0.75f + 0.45f * (float)i, 0.3f);
        glEnd();
        glTranslatef(0.0f, 0.02f, 0.0f);
        glEndList();
    }
}

static int draw_lists(void)
{
    glListBase(g_lists);
    GLubyte a[] = {0, (GLubyte)(1 + g_frame % 3)};
    glPushMatrix();
    glCallLists(2, GL_UNSIGNED_BYTE, a);
    GLshort b[] = {3, 2, 1};
    glTranslatef(0.0f, 0.3f, 0.0f);
    glCallLists(3, GL_SHORT, b);
    GLubyte c[] = {0, 0, 0, (GLubyte)(g_frame % 4)}; /* GL_2_BYTES: names 0 and frame % 4 */
    glTranslatef(0.0f, -0.7f, 0.0f);
    glCallLists(2, GL_2_BYTES, c);
    glPopMatrix();
    glListBase(0);
    return check("glCallLists");
}

/* ---- --indirect ---------------------------------------------------------------------- */
static GLuint g_ebo;

static int draw_indirect(void)
{
    float xy[18 * 2];
    fan(xy, 6, 0.0f, 0.0f, 0.6f, -0.2f * (float)g_frame);
    GLubyte rgb[18 * 3];
    for (int i = 0; i < 18; ++i)
        rgb[3 * i] = 200, rgb[3 * i + 1] = (GLubyte)(14 * i), rgb[3 * i + 2] = (GLubyte)(60 * (g_frame % 4));
    glEnableClientState(GL_VERTEX_ARRAY);
    glEnableClientState(GL_COLOR_ARRAY);
    glVertexPointer(2, GL_FLOAT, 0, xy);
    glColorPointer(3, GL_UNSIGNED_BYTE, 0, rgb);
    const GLuint arrays_cmd[4] = {6, 1, 3, 0}; /* count, instances, first, base instance */
    glDrawArraysIndirect(GL_TRIANGLES, arrays_cmd);
    /* count, instances, first index, base vertex, base instance: indices 0..2 + 12 */
    const GLuint elements_cmd[5] = {3, 1, 2, 12, 0};
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g_ebo);
    glDrawElementsIndirect(GL_TRIANGLES, GL_UNSIGNED_SHORT, elements_cmd);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
    glDisableClientState(GL_COLOR_ARRAY);
    glDisableClientState(GL_VERTEX_ARRAY);
    return check("indirect draws");
}

/* ---- --select ------------------------------------------------------------------------ */
/* Larger than glretrace's scratch block: a replayer that frees the buffer after
 * glSelectBuffer has the GL write the hits into freed memory at glRenderMode. */
enum { SELECT_WORDS = 65536, FEEDBACK_FLOATS = 64 };
static GLuint *g_select;
static GLfloat g_feedback[FEEDBACK_FLOATS];

static void select_triangle(int i)
{
    /* triangle 1 leaves the view on odd frames: 2 or 3 hits */
    float x = i == 1 && g_frame % 2 ? 3.0f : -0.7f + 0.6f * (float)i, y = 0.2f;
    glBegin(GL_TRIANGLES);
    glVertex2f(x - 0.2f, y - 0.2f);
    glVertex2f(x + 0.2f, y - 0.2f);
    glVertex2f(x, y + 0.2f + 0.05f * (float)(g_frame % 3));
    glEnd();
}

static int setup_select(void)
{
    g_select = calloc(SELECT_WORDS, sizeof *g_select);
    if (!g_select)
        return 1;
    glSelectBuffer(SELECT_WORDS, g_select);
    glFeedbackBuffer(FEEDBACK_FLOATS, GL_2D, g_feedback);
    return check("glSelectBuffer, glFeedbackBuffer");
}

static int draw_select(void)
{
    glRenderMode(GL_SELECT);
    glInitNames();
    glPushName(0);
    for (int i = 0; i < 3; ++i) {
        glLoadName((GLuint)i + 1);
        select_triangle(i);
    }
    GLint hits = glRenderMode(GL_RENDER);
    unsigned hit = 0; /* bit i: triangle i was hit; records: count, zmin, zmax, names */
    for (GLint h = 0, at = 0; h < hits && at + 3 < SELECT_WORDS; ++h) {
        GLuint names = g_select[at];
        if (names > 0 && g_select[at + 3] >= 1 && g_select[at + 3] <= 3)
            hit |= 1u << (g_select[at + 3] - 1);
        at += 3 + (GLint)names;
    }
    glRenderMode(GL_FEEDBACK);
    select_triangle(2);
    GLint values = glRenderMode(GL_RENDER);
    /* GL_POLYGON_TOKEN, 3, then x, y of each vertex in window coordinates */
    float green = values >= 4 ? g_feedback[2] / (float)APP_WIDTH : 0.0f;
    for (int i = 0; i < 3; ++i) {
        glColor3f(hit & (1u << i) ? 0.9f : 0.3f, i == 2 ? green : 0.3f, 0.3f);
        select_triangle(i);
    }
    glColor3f(1.0f, 1.0f, 1.0f);
    return hits < 2 || values < 4 ? (fprintf(stderr, TAG ": %d hits, %d feedback values\n",
                                             hits, values), 1)
                                  : check("selection and feedback");
}

/* ---- main ----------------------------------------------------------------------------- */
static const struct mode {
    const char *flag;
    int (*draw)(void);
} modes[] = {
    {"--interleaved", draw_interleaved}, {"--lock", draw_lock},
    {"--arrays", draw_arrays},           {"--multidraw", draw_multidraw},
    {"--coherent", draw_coherent},       {"--pixels", draw_pixels},
    {"--lists", draw_lists},             {"--indirect", draw_indirect},
    {"--select", draw_select},
};

static int setup(const struct mode *m)
{
    if (m->draw == draw_interleaved)
        glGenBuffers(1, &g_vbo);
    if (m->draw == draw_lock && !has_ext("GL_EXT_compiled_vertex_array")) {
        fprintf(stderr, TAG ": GL_EXT_compiled_vertex_array not supported\n");
        return 1;
    }
    if (m->draw == draw_arrays || m->draw == draw_pixels) {
        static const GLubyte texels[2 * 2 * 3] = {255, 255, 255, 40, 40, 40, 40, 40, 40, 255, 255, 255};
        glGenTextures(1, &g_tex);
        glBindTexture(GL_TEXTURE_2D, g_tex);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB, 2, 2, 0, GL_RGB, GL_UNSIGNED_BYTE, texels);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glBindTexture(GL_TEXTURE_2D, 0);
    }
    if (m->draw == draw_pixels) {
        glGenTextures(1, &g_tex3d);
        glGenTextures(1, &g_texc);
    }
    if (m->draw == draw_coherent)
        return setup_coherent();
    if (m->draw == draw_select)
        return setup_select();
    if (m->draw == draw_lists)
        setup_lists();
    if (m->draw == draw_indirect) { /* two padding indices, then a triangle */
        static const GLushort idx[] = {9, 9, 0, 1, 2};
        glGenBuffers(1, &g_ebo);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g_ebo);
        glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, idx, GL_STATIC_DRAW);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
    }
    return check("setup");
}

int main(int argc, char **argv)
{
    app_extra_usage = "  --interleaved | --lock | --arrays | --multidraw | --coherent | --pixels |\n"
                      "  --lists | --indirect | --select  the way client memory is handed to the\n"
                      "  GL (one)\n";
    const struct mode *mode = NULL;
    for (size_t i = 0; i < sizeof modes / sizeof *modes; ++i)
        if (app_take_flag(&argc, argv, modes[i].flag) > 0)
            mode = &modes[i];
    struct app_options opt;
    app_parse_options(argc, argv, &opt);
    if (!mode) {
        fprintf(stderr, TAG ": give a mode (--help)\n");
        return 2;
    }

    Display *dpy = app_open_display(TAG);
    if (!dpy)
        return 1;
    int visual_attribs[] = {GLX_RGBA, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8,
                            GLX_DOUBLEBUFFER, None};
    XVisualInfo *vi = glXChooseVisual(dpy, DefaultScreen(dpy), visual_attribs);
    if (!vi) {
        fprintf(stderr, TAG ": no suitable visual\n");
        return 1;
    }
    Window win = app_create_window(dpy, vi, TAG);
    GLXContext ctx = glXCreateContext(dpy, vi, NULL, True);
    XFree(vi);
    if (!win || !ctx || !glXMakeCurrent(dpy, win, ctx)) {
        fprintf(stderr, TAG ": cannot create the window or the context\n");
        return 1;
    }
    if (opt.warmup) {
        app_warmup_clear(GL_COLOR_BUFFER_BIT);
        glXSwapBuffers(dpy, win);
    }
    if (setup(mode))
        return 1;
    uint8_t *pixels;
    if (app_frame_buffer(TAG, &opt, &pixels) != 0)
        return 1;
    glViewport(0, 0, APP_WIDTH, APP_HEIGHT);
    int status = 0;
    for (g_frame = 0; g_frame < opt.frames && !status; ++g_frame) {
        glClearColor(0.1f, 0.1f + 0.03f * (float)(g_frame % 3), 0.15f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        status = mode->draw();
        if (!status && pixels && app_read_frame(opt.save_prefix, g_frame, pixels) != 0)
            status = 1;
        if (!status)
            glXSwapBuffers(dpy, win);
    }
    if (g_map) { /* a last change, written before the unmap */
        memset(g_map, 0, 8);
        glBindBuffer(GL_ARRAY_BUFFER, g_coherent);
        glUnmapBuffer(GL_ARRAY_BUFFER);
    }
    free(pixels);
    free(g_select);
    app_glx_close(dpy, win, ctx);
    return status;
}
