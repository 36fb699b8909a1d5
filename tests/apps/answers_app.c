/* answers_app: queries every answer a recorder may change (program and shader binary
 * formats, program binaries, the extension list, the strings and integers a gltrace.conf
 * may configure) with guard values around each buffer it hands the GL, for
 * tests/integration/recording_answers.sh. Run untraced, under gltrace and under
 * `apitrace trace`: the guards must stay intact in all three (a driver that writes more
 * values than the program was told to expect corrupts its memory).
 *
 * Xlib + GLX, a 3.3 core profile context (llvmpipe gives 4.5). Prints one "name: value"
 * line per answer (the test compares the lines of the three runs) and "guards intact";
 * on corruption prints "answers_app: CORRUPTION: ..." and exits 3. */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#include <GL/glx.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_common.h"
#include "gl_util.h"
#include "glx_util.h"

#define TAG "answers_app"
#define GUARD 16           /* guard elements after each buffer */
#define GUARD_BYTE 0xCD

static int corrupted;
/* --integerv: only what a program asking glGetIntegerv for the count and the list sees
 * (apitrace 11 keeps that one path safe; its other flavours let the driver write). */
static int integerv_only;

/* A buffer of `count` elements of `size` bytes plus GUARD more, all GUARD_BYTE. */
static unsigned char *guarded(size_t count, size_t size)
{
    unsigned char *p = malloc((count + GUARD) * size);
    if (!p) {
        fprintf(stderr, TAG ": out of memory\n");
        exit(1);
    }
    memset(p, GUARD_BYTE, (count + GUARD) * size);
    return p;
}

/* Checks that the guard elements after `count` elements are untouched, then frees. */
static void check_guard(const char *what, unsigned char *p, size_t count, size_t size)
{
    for (size_t i = count * size; i < (count + GUARD) * size; i++)
        if (p[i] != GUARD_BYTE) {
            printf(TAG ": CORRUPTION: %s wrote past the %zu value(s) it announced (byte %zu: "
                   "0x%02x)\n", what, count, i, p[i]);
            corrupted = 1;
            break;
        }
    free(p);
}

/* A count pname read with every glGet flavour; prints them, returns the integer one. */
static GLint count_of(const char *name, GLenum pname)
{
    GLint i = -1;
    GLint64 i64 = -1;
    GLboolean b = 0xCD;
    GLfloat f = -1;
    GLdouble d = -1;
    glGetIntegerv(pname, &i);
    glGetInteger64v(pname, &i64);
    glGetBooleanv(pname, &b);
    glGetFloatv(pname, &f);
    glGetDoublev(pname, &d);
    printf("%s: int %d int64 %lld bool %d float %g double %g\n", name, i, (long long)i64, b,
           f, d);
    if (!integerv_only && (i64 != i || (b != 0) != (i != 0) || f != (GLfloat)i || d != (GLdouble)i)) {
        printf(TAG ": CORRUPTION: %s answers differ between the glGet flavours\n", name);
        corrupted = 1;
    }
    return i < 0 ? 0 : i;
}

/* The list pname read with every glGet flavour into buffers sized for `count`. */
static void list_of(const char *name, GLenum pname, GLint count)
{
    char what[96];
    unsigned char *p;
    snprintf(what, sizeof what, "glGetIntegerv(%s)", name);
    p = guarded((size_t)count, sizeof(GLint));
    glGetIntegerv(pname, (GLint *)p);
    check_guard(what, p, (size_t)count, sizeof(GLint));
    if (integerv_only)
        return;
    snprintf(what, sizeof what, "glGetInteger64v(%s)", name);
    p = guarded((size_t)count, sizeof(GLint64));
    glGetInteger64v(pname, (GLint64 *)p);
    check_guard(what, p, (size_t)count, sizeof(GLint64));
    snprintf(what, sizeof what, "glGetBooleanv(%s)", name);
    p = guarded((size_t)count, sizeof(GLboolean));
    glGetBooleanv(pname, (GLboolean *)p);
    check_guard(what, p, (size_t)count, sizeof(GLboolean));
    snprintf(what, sizeof what, "glGetFloatv(%s)", name);
    p = guarded((size_t)count, sizeof(GLfloat));
    glGetFloatv(pname, (GLfloat *)p);
    check_guard(what, p, (size_t)count, sizeof(GLfloat));
    snprintf(what, sizeof what, "glGetDoublev(%s)", name);
    p = guarded((size_t)count, sizeof(GLdouble));
    glGetDoublev(pname, (GLdouble *)p);
    check_guard(what, p, (size_t)count, sizeof(GLdouble));
    /* Indexed forms: no list pname is indexed (GL_INVALID_ENUM), nothing may be written
     * past one value. */
    p = guarded(1, sizeof(GLint));
    glGetIntegeri_v(pname, 0, (GLint *)p);
    check_guard("glGetIntegeri_v", p, 1, sizeof(GLint));
    p = guarded(1, sizeof(GLint64));
    glGetInteger64i_v(pname, 0, (GLint64 *)p);
    check_guard("glGetInteger64i_v", p, 1, sizeof(GLint64));
    p = guarded(1, sizeof(GLboolean));
    glGetBooleani_v(pname, 0, (GLboolean *)p);
    check_guard("glGetBooleani_v", p, 1, sizeof(GLboolean));
    p = guarded(1, sizeof(GLfloat));
    glGetFloati_v(pname, 0, (GLfloat *)p);
    check_guard("glGetFloati_v", p, 1, sizeof(GLfloat));
    p = guarded(1, sizeof(GLdouble));
    glGetDoublei_v(pname, 0, (GLdouble *)p);
    check_guard("glGetDoublei_v", p, 1, sizeof(GLdouble));
    while (glGetError() != GL_NO_ERROR) {
    }
}

/* glGetProgramiv(GL_PROGRAM_BINARY_LENGTH), then glGetProgramBinary into that many bytes. */
static void program_binary(void)
{
    static const char vs[] = "#version 330 core\nin vec2 a_pos;\n"
                             "void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }\n";
    static const char fs[] = "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";
    GLuint prog = app_build_program(TAG, vs, fs, NULL);
    if (!prog) {
        corrupted = 1;
        return;
    }
    GLint len = -1;
    glGetProgramiv(prog, GL_PROGRAM_BINARY_LENGTH, &len);
    printf("program binary length: %d\n", len);
    size_t n = len > 0 ? (size_t)len : 0;
    unsigned char *p = guarded(n, 1);
    GLsizei got = -1;
    GLenum format = 0;
    glGetProgramBinary(prog, (GLsizei)n, &got, &format, p);
    printf("program binary returned: %d\n", got);
    if (got < 0 || (size_t)got > n) {
        printf(TAG ": CORRUPTION: glGetProgramBinary says %d bytes for a buffer of %zu\n", got, n);
        corrupted = 1;
    }
    check_guard("glGetProgramBinary", p, n, 1);
    while (glGetError() != GL_NO_ERROR) {
    }
    glDeleteProgram(prog);
}

static unsigned count_words(const char *s)
{
    unsigned n = 0;
    for (const char *p = s; p && *p;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        n++;
        while (*p && *p != ' ')
            p++;
    }
    return n;
}

/* 1 when `name` is one of the space-separated words of s. */
static int has_word(const char *s, const char *name)
{
    return app_has_extension(s, name);
}

/* The extension string, GL_NUM_EXTENSIONS and glGetStringi agree; which of the
 * interesting extensions the program sees. */
static void extensions(void)
{
    const char *all = (const char *)glGetString(GL_EXTENSIONS);
    while (glGetError() != GL_NO_ERROR) {
    }
    GLint num = count_of("GL_NUM_EXTENSIONS", GL_NUM_EXTENSIONS);
    printf("extension string words: %u\n", count_words(all));
    int listed = 1;
    for (GLint i = 0; i < num; i++) {
        const char *e = (const char *)glGetStringi(GL_EXTENSIONS, (GLuint)i);
        if (!e) {
            printf(TAG ": glGetStringi(GL_EXTENSIONS, %d) is NULL below GL_NUM_EXTENSIONS\n", i);
            corrupted = 1;
            break;
        }
        if (all && !has_word(all, e))
            listed = 0;
        if (i >= num - 9) /* the last ones: where a recorder appends */
            printf("glGetStringi(%d): %s\n", i, e);
    }
    printf("every glGetStringi in the string: %s\n", listed ? "yes" : "no");
    printf("glGetStringi(GL_NUM_EXTENSIONS) is NULL: %s\n",
           glGetStringi(GL_EXTENSIONS, (GLuint)num) ? "no" : "yes");
    while (glGetError() != GL_NO_ERROR) {
    }
    static const char *const names[] = {
        "GL_ARB_get_program_binary", "GL_ARB_gl_spirv", "GL_GREMEDY_string_marker",
        "GL_GREMEDY_frame_terminator", "GL_EXT_debug_marker", "GL_EXT_debug_label",
        "GL_KHR_debug", "GL_ARB_debug_output", "GL_AMD_debug_output"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        printf("%s in string: %s\n", names[i], has_word(all, names[i]) ? "yes" : "no");
}

/* What a gltrace.conf can configure. */
static void configurable(void)
{
    static const struct { const char *name; GLenum e; } strs[] = {
        {"GL_VENDOR", GL_VENDOR}, {"GL_RENDERER", GL_RENDERER}, {"GL_VERSION", GL_VERSION},
        {"GL_SHADING_LANGUAGE_VERSION", GL_SHADING_LANGUAGE_VERSION}};
    for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) {
        const char *s = (const char *)glGetString(strs[i].e);
        printf("%s: %s\n", strs[i].name, s ? s : "(null)");
    }
    static const struct { const char *name; GLenum e; } ints[] = {
        {"GL_MAJOR_VERSION", GL_MAJOR_VERSION}, {"GL_MINOR_VERSION", GL_MINOR_VERSION},
        {"GL_CONTEXT_PROFILE_MASK", GL_CONTEXT_PROFILE_MASK},
        {"GL_MAX_TEXTURE_SIZE", GL_MAX_TEXTURE_SIZE}};
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++) {
        GLint v = -1;
        glGetIntegerv(ints[i].e, &v);
        printf("%s: %d\n", ints[i].name, v);
    }
}

int main(int argc, char **argv)
{
    struct app_options opt;
    integerv_only = app_take_flag(&argc, argv, "--integerv") > 0;
    app_parse_options(argc, argv, &opt);
    Display *dpy;
    GLXFBConfig config;
    Window win = app_glx_open(TAG, NULL, &dpy, &config);
    if (!win)
        return 1;
    PFNGLXCREATECONTEXTATTRIBSARBPROC create_context;
    GLXContext ctx = app_glx_core33_context(dpy, win, config, TAG, &create_context);
    if (!ctx)
        return 1;
    configurable();
    GLint n = count_of("GL_NUM_PROGRAM_BINARY_FORMATS", GL_NUM_PROGRAM_BINARY_FORMATS);
    list_of("GL_PROGRAM_BINARY_FORMATS", GL_PROGRAM_BINARY_FORMATS, n);
    n = count_of("GL_NUM_SHADER_BINARY_FORMATS", GL_NUM_SHADER_BINARY_FORMATS);
    if (!integerv_only) /* apitrace 11 writes a 0 into this list even when it is empty */
        list_of("GL_SHADER_BINARY_FORMATS", GL_SHADER_BINARY_FORMATS, n);
    n = count_of("GL_NUM_COMPRESSED_TEXTURE_FORMATS", GL_NUM_COMPRESSED_TEXTURE_FORMATS);
    list_of("GL_COMPRESSED_TEXTURE_FORMATS", GL_COMPRESSED_TEXTURE_FORMATS, n);
    program_binary();
    extensions();
    glClear(GL_COLOR_BUFFER_BIT);
    glXSwapBuffers(dpy, win);
    app_glx_close(dpy, win, ctx);
    if (corrupted) {
        fprintf(stderr, TAG ": memory corruption or inconsistent answers (see stdout)\n");
        return 3;
    }
    printf("guards intact\n");
    return 0;
}
