/* coherent_app: writes through persistent buffer maps in one pattern per case, each case
 * followed by a draw (where both recorders write the changes they saw as fake memcpy
 * calls), so that the memcpy calls of apitrace's and gltrace's recordings of it can be
 * compared (tests/integration/mapped_buffers.sh, record_diff.sh).
 *
 * Coherent cases: each its own buffer, glBufferStorage(WRITE | PERSISTENT | COHERENT),
 * glMapBufferRange with the same bits (P is the page size, sysconf(_SC_PAGESIZE)):
 *   small     100-byte buffer, mapped whole: 30 bytes written at offset 20;
 *   window    100-byte buffer, mapped [20, 50): those 30 bytes written;
 *   span      4 P mapped whole: 64 bytes across the first page boundary;
 *   scattered 8 P mapped whole: 16 bytes in pages 0, 2 and 5 (in address order);
 *   fill      8 P mapped whole: the first 5 pages written whole, in order;
 *   ends      3 P - 100 bytes mapped whole: the first and the last 8 bytes;
 *   offset    4 P, mapped from byte 1000 for 2 P: 30 bytes at 20 and at P + 500 of the
 *             map (buffer pages 0 and 1);
 *   twice     2 P mapped whole: 30 bytes at 20, draw, 30 bytes at 40, draw, then a draw
 *             with nothing written;
 *   unmap     2 P, mapped from byte 100 for P: 30 bytes at 20, then glUnmapBuffer (no draw);
 *   named     glCreateBuffers, glNamedBufferStorage, glMapNamedBufferRange of 2 P whole:
 *             30 bytes at P + 20, draw, glUnmapNamedBuffer;
 *   flush     2 P mapped whole with GL_MAP_FLUSH_EXPLICIT_BIT too: 30 bytes at 20,
 *             glFlushMappedBufferRange of them, draw;
 *   sync      2 P mapped whole: 30 bytes at 20, glFenceSync, glFinish, glClientWaitSync
 *             (GL_ALREADY_SIGNALED), 30 bytes at
 *             P + 20, glWaitSync, 30 bytes at 40, glGetSynciv(GL_SYNC_STATUS), then a draw
 *             with nothing written (apitrace writes the changes inside those three syncs).
 * VMWX cases, only when the GL offers GL_VMWX_map_buffer_debug (the recorders do; a driver
 * does not): GL_MAP_NOTIFY_EXPLICIT_BIT_VMWX on glBufferStorage and the map, the program
 * names what it wrote with glNotifyMappedBufferRangeVMWX (from glXGetProcAddressARB):
 *   notify    2 P, WRITE | PERSISTENT (not coherent): 30 bytes at 20 and 40 at P + 8,
 *             each notified, draw;
 *   notify_coherent  2 P, WRITE | PERSISTENT | COHERENT: 30 bytes at 20, notified, draw.
 * One frame, then glXSwapBuffers. Exits 0 when every call succeeded (no GL error). */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#include <GL/glx.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "app_common.h"
#include "gl_util.h"
#include "glx_util.h"

#define TAG "coherent_app"
#define GL_MAP_NOTIFY_EXPLICIT_BIT_VMWX 0x80000000u

typedef void (*buffer_storage_fn)(GLenum, GLsizeiptr, const void *, GLbitfield);
typedef void (*create_buffers_fn)(GLsizei, GLuint *);
typedef void (*named_buffer_storage_fn)(GLuint, GLsizeiptr, const void *, GLbitfield);
typedef void *(*map_named_buffer_range_fn)(GLuint, GLintptr, GLsizeiptr, GLbitfield);
typedef GLboolean (*unmap_named_buffer_fn)(GLuint);
typedef void (*notify_fn)(const void *, GLsizeiptr);

static buffer_storage_fn buffer_storage;
static create_buffers_fn create_buffers;
static named_buffer_storage_fn named_buffer_storage;
static map_named_buffer_range_fn map_named_buffer_range;
static unmap_named_buffer_fn unmap_named_buffer;
static size_t page;
static int failed;

static void (*proc(const char *name))(void)
{
    void (*p)(void) = glXGetProcAddressARB((const GLubyte *)name);
    if (!p) {
        fprintf(stderr, TAG ": %s not available\n", name);
        failed = 1;
    }
    return p;
}

static const char *vertex_src = "#version 330 core\n"
                                "void main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); }\n";
static const char *fragment_src = "#version 330 core\n"
                                  "out vec4 color;\n"
                                  "void main() { color = vec4(1.0); }\n";

/* Where both recorders write what changed in the coherent maps. */
static void draw(void)
{
    glDrawArrays(GL_POINTS, 0, 1);
}

/* A new buffer on GL_ARRAY_BUFFER with `size` bytes of storage, mapped [offset, +length). */
static unsigned char *storage_map(size_t size, size_t offset, size_t length, GLbitfield bits)
{
    GLuint b;
    glGenBuffers(1, &b);
    glBindBuffer(GL_ARRAY_BUFFER, b);
    buffer_storage(GL_ARRAY_BUFFER, (GLsizeiptr)size, NULL, bits);
    unsigned char *p = glMapBufferRange(GL_ARRAY_BUFFER, (GLintptr)offset, (GLsizeiptr)length, bits);
    if (!p) {
        fprintf(stderr, TAG ": map failed (GL error 0x%04x)\n", glGetError());
        failed = 1;
    }
    return p;
}

/* The bytes a case writes: a pattern that differs from what the buffer held (zeroes). */
static void put(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(1 + (i * 7 + seed) % 251);
}

static void coherent_cases(void)
{
    const GLbitfield c = GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
    unsigned char *p;

    if ((p = storage_map(100, 0, 100, c)) != NULL) { /* small */
        put(p + 20, 30, 1);
        draw();
    }
    if ((p = storage_map(100, 20, 30, c)) != NULL) { /* window */
        put(p, 30, 20);
        draw();
    }
    if ((p = storage_map(4 * page, 0, 4 * page, c)) != NULL) { /* span */
        put(p + page - 32, 64, 2);
        draw();
    }
    if ((p = storage_map(8 * page, 0, 8 * page, c)) != NULL) { /* scattered */
        put(p + 8, 16, 3);
        put(p + 2 * page + 8, 16, 4);
        put(p + 5 * page + 8, 16, 5);
        draw();
    }
    if ((p = storage_map(8 * page, 0, 8 * page, c)) != NULL) { /* fill */
        put(p, 5 * page, 6);
        draw();
    }
    size_t ends = 3 * page - 100;
    if ((p = storage_map(ends, 0, ends, c)) != NULL) { /* ends */
        put(p, 8, 7);
        put(p + ends - 8, 8, 8);
        draw();
    }
    if ((p = storage_map(4 * page, 1000, 2 * page, c)) != NULL) { /* offset */
        put(p + 20, 30, 9);
        put(p + page + 500, 30, 10);
        draw();
    }
    if ((p = storage_map(2 * page, 0, 2 * page, c)) != NULL) { /* twice */
        put(p + 20, 30, 11);
        draw();
        put(p + 40, 30, 12);
        draw();
        draw();
    }
    if ((p = storage_map(2 * page, 100, page, c)) != NULL) { /* unmap */
        put(p + 20, 30, 13);
        glUnmapBuffer(GL_ARRAY_BUFFER);
    }
    GLuint fb; /* flush */
    glGenBuffers(1, &fb);
    glBindBuffer(GL_ARRAY_BUFFER, fb);
    buffer_storage(GL_ARRAY_BUFFER, (GLsizeiptr)(2 * page), NULL, c);
    p = glMapBufferRange(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(2 * page), c | GL_MAP_FLUSH_EXPLICIT_BIT);
    if (p) {
        put(p + 20, 30, 21);
        glFlushMappedBufferRange(GL_ARRAY_BUFFER, 20, 30);
        draw();
    } else {
        fprintf(stderr, TAG ": flush map failed (GL error 0x%04x)\n", glGetError());
        failed = 1;
    }
    if ((p = storage_map(2 * page, 0, 2 * page, c)) != NULL) { /* sync */
        put(p + 20, 30, 18);
        GLsync fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        glFinish(); /* signaled now: the wait's answer is the same in every run */
        GLenum r = glClientWaitSync(fence, 0, 0);
        if (r != GL_ALREADY_SIGNALED && r != GL_CONDITION_SATISFIED) {
            fprintf(stderr, TAG ": fence not signaled (0x%04x)\n", r);
            failed = 1;
        }
        put(p + page + 20, 30, 19);
        glWaitSync(fence, 0, GL_TIMEOUT_IGNORED);
        put(p + 40, 30, 20);
        GLint status = 0;
        glGetSynciv(fence, GL_SYNC_STATUS, 1, NULL, &status);
        draw();
        glDeleteSync(fence);
    }
    GLuint b; /* named */
    create_buffers(1, &b);
    named_buffer_storage(b, (GLsizeiptr)(2 * page), NULL, c);
    p = map_named_buffer_range(b, 0, (GLsizeiptr)(2 * page), c);
    if (p) {
        put(p + page + 20, 30, 14);
        draw();
        unmap_named_buffer(b);
    } else {
        fprintf(stderr, TAG ": named map failed (GL error 0x%04x)\n", glGetError());
        failed = 1;
    }
}

static void vmwx_cases(void)
{
    notify_fn notify = (notify_fn)proc("glNotifyMappedBufferRangeVMWX");
    if (!notify)
        return;
    const GLbitfield n = GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_NOTIFY_EXPLICIT_BIT_VMWX;
    unsigned char *p;
    if ((p = storage_map(2 * page, 0, 2 * page, n)) != NULL) { /* notify */
        put(p + 20, 30, 15);
        notify(p + 20, 30);
        put(p + page + 8, 40, 16);
        notify(p + page + 8, 40);
        draw();
    }
    if ((p = storage_map(2 * page, 0, 2 * page, n | GL_MAP_COHERENT_BIT)) != NULL) {
        put(p + 20, 30, 17); /* notify_coherent */
        notify(p + 20, 30);
        draw();
    }
}

static int has_gl_extension(const char *name)
{
    GLint n = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &n);
    for (GLint i = 0; i < n; i++)
        if (strcmp((const char *)glGetStringi(GL_EXTENSIONS, (GLuint)i), name) == 0)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    struct app_options opt;
    app_parse_options(argc, argv, &opt);
    long ps = sysconf(_SC_PAGESIZE);
    page = ps > 0 ? (size_t)ps : 4096;

    Display *dpy;
    GLXFBConfig config;
    Window win = app_glx_open(TAG, NULL, &dpy, &config);
    if (!win)
        return 1;
    PFNGLXCREATECONTEXTATTRIBSARBPROC create_context;
    GLXContext ctx = app_glx_core33_context(dpy, win, config, TAG, &create_context);
    if (!ctx)
        return 1;
    if (!has_gl_extension("GL_ARB_buffer_storage") ||
        !has_gl_extension("GL_ARB_direct_state_access")) {
        fprintf(stderr, TAG ": GL_ARB_buffer_storage and GL_ARB_direct_state_access needed\n");
        return 1;
    }
    buffer_storage = (buffer_storage_fn)proc("glBufferStorage");
    create_buffers = (create_buffers_fn)proc("glCreateBuffers");
    named_buffer_storage = (named_buffer_storage_fn)proc("glNamedBufferStorage");
    map_named_buffer_range = (map_named_buffer_range_fn)proc("glMapNamedBufferRange");
    unmap_named_buffer = (unmap_named_buffer_fn)proc("glUnmapNamedBuffer");
    GLuint prog = app_build_program(TAG, vertex_src, fragment_src, NULL);
    if (failed || !prog)
        return 1;
    GLuint vao;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glUseProgram(prog);

    coherent_cases();
    if (has_gl_extension("GL_VMWX_map_buffer_debug"))
        vmwx_cases();
    glXSwapBuffers(dpy, win);
    if (app_check_gl_error(TAG, NULL, 0))
        failed = 1;
    app_glx_close(dpy, win, ctx);
    return failed;
}
