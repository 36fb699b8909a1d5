/* The answers the recorder changes, as apitrace 11's tracer changes them
 * (wrappers/glcaps.cpp, gltrace.py), made memory-safe (`invoke` annotations in
 * specs/annotations.txt; the generated wrapper records what the program saw):
 *
 * - program binaries are hidden (a binary cannot be replayed on another driver, and the
 *   trace must hold the shaders): GL_NUM_PROGRAM_BINARY_FORMATS reads 0 and
 *   GL_PROGRAM_BINARY_FORMATS is never passed to the driver, so nothing is written into
 *   the program's buffer sized for 0 (apitrace does both in glGetIntegerv only; its other
 *   glGet flavours leak the driver's count and let the driver write the list: memory
 *   corruption, so here every flavour answers alike); GL_PROGRAM_BINARY_LENGTH reads 0,
 *   glGetProgramBinary gets bufSize 0 and returns length 0, glProgramBinary is made to
 *   fail (format 0xDEADDEAD) so the program compiles its shaders. GL_ARB_get_program_binary
 *   stays in the extension list, as with apitrace (no formats: nothing to use).
 * - apitrace's marker and debug extensions are appended to the extension string and to
 *   glGetStringi's list, with GL_NUM_EXTENSIONS counting them (desktop GL: the GREMEDY
 *   ones, ARB/AMD debug output, KHR_debug, EXT debug marker and label, and apitrace's
 *   GL_VMWX_map_buffer_debug, which hook_mapbuffer_vmwx.c implements; ES: KHR_debug and
 *   the EXT debug marker and label), whether or not the driver has them, as apitrace
 *   does. GL_MAX_LABEL_LENGTH / GL_MAX_DEBUG_MESSAGE_LENGTH read
 *   256 / 4096 where the driver says 0 (our KHR_debug stands in for it).
 * - GL_SHADER_BINARY_FORMATS is the driver's (apitrace writes a 0 into a list sized for
 *   none before asking the driver; we do not).
 * - a gltrace.conf (gl_conf.c) may configure strings and integers: they win. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_conf.h"
#include "gl_enums.gen.h"
#include "gltrace_runtime.h"
#include "hook_answers.h"


static const char *const extra_full[] = {
    "GL_GREMEDY_string_marker", "GL_GREMEDY_frame_terminator", "GL_ARB_debug_output",
    "GL_AMD_debug_output",      "GL_KHR_debug",                "GL_EXT_debug_marker",
    "GL_EXT_debug_label",       "GL_VMWX_map_buffer_debug"};
static const char *const extra_es[] = {"GL_KHR_debug", "GL_EXT_debug_marker",
                                       "GL_EXT_debug_label"};

typedef const unsigned char *(*get_string_fn)(unsigned);

/* The driver's GL_VERSION ("OpenGL ES 3.2 ..." or "4.5 (Core Profile) ..."). */
static const char *driver_version(void)
{
    static get_string_fn get;
    if (!get)
        get = (get_string_fn)gltrace_real("glGetString");
    const unsigned char *v = get ? get(GL_VERSION) : NULL;
    return v ? (const char *)v : "";
}

/* The extensions we add for the current context, and how many. */
static const char *const *extras(unsigned *n)
{
    if (!strncmp(driver_version(), "OpenGL ES", 9)) {
        *n = sizeof extra_es / sizeof *extra_es;
        return extra_es;
    }
    *n = sizeof extra_full / sizeof *extra_full;
    return extra_full;
}

/* glGetStringi's list exists from GL 3 / ES 3 on (apitrace: profile major >= 3). */
static int has_stringi(void)
{
    const char *v = driver_version();
    if (!strncmp(v, "OpenGL ES", 9))
        v += 9;
    while (*v == ' ' || (*v && (*v < '0' || *v > '9')))
        v++;
    return atoi(v) >= 3;
}

/* The scalar answers we change: 1 and *out set when `pname` is one, given the driver's
 * value (ask_driver says whether the caller must get it first: see below). */
static int changed_scalar(unsigned pname, long long driver, long long *out)
{
    long long conf;
    if (gl_conf_integer(pname, &conf)) {
        *out = conf;
        if (pname == GL_NUM_EXTENSIONS && has_stringi()) { /* the configured list + ours */
            unsigned n;
            extras(&n);
            *out += n;
        }
        return 1;
    }
    switch (pname) {
    case GL_NUM_PROGRAM_BINARY_FORMATS:
        *out = 0;
        return 1;
    case GL_NUM_EXTENSIONS: {
        unsigned n;
        extras(&n);
        *out = driver + (has_stringi() ? n : 0);
        return 1;
    }
    case GL_MAX_LABEL_LENGTH:
        *out = driver ? driver : 256;
        return 1;
    case GL_MAX_DEBUG_MESSAGE_LENGTH:
        *out = driver ? driver : 4096;
        return 1;
    default:
        return 0;
    }
}

static int is_changed(unsigned pname)
{
    long long ignored;
    return pname == GL_NUM_PROGRAM_BINARY_FORMATS || pname == GL_NUM_EXTENSIONS ||
           pname == GL_MAX_LABEL_LENGTH || pname == GL_MAX_DEBUG_MESSAGE_LENGTH ||
           gl_conf_integer(pname, &ignored);
}

int gth_answer_count(unsigned pname)
{
    int v = 0;
    gth_invoke_get_integer_v((gth_proc)gltrace_real("glGetIntegerv"), pname, &v);
    return v;
}

/* One body for the five glGet flavours: T the value type. */
#define GET_FLAVOUR(NAME, T, TO_T)                                                          \
    void NAME(gth_proc real, unsigned pname, T *data)                                       \
    {                                                                                       \
        void (*get)(unsigned, T *) = (void (*)(unsigned, T *))real;                         \
        if (pname == GL_PROGRAM_BINARY_FORMATS)                                             \
            return; /* a list of GL_NUM_PROGRAM_BINARY_FORMATS = 0 values: none */           \
        if (!data || !is_changed(pname)) {                                                  \
            if (get)                                                                        \
                get(pname, data);                                                           \
            return;                                                                         \
        }                                                                                   \
        T driver = 0;                                                                       \
        if (get)                                                                            \
            get(pname, &driver);                                                            \
        long long v;                                                                        \
        if (changed_scalar(pname, (long long)driver, &v))                                   \
            *data = TO_T;                                                                   \
        else                                                                                \
            *data = driver;                                                                 \
    }

GET_FLAVOUR(gth_invoke_get_integer_v, int, (int)v)
GET_FLAVOUR(gth_invoke_get_integer64_v, int64_t, (int64_t)v)
GET_FLAVOUR(gth_invoke_get_boolean_v, unsigned char, (unsigned char)(v != 0))
GET_FLAVOUR(gth_invoke_get_float_v, float, (float)v)
GET_FLAVOUR(gth_invoke_get_double_v, double, (double)v)

void gth_invoke_get_program_iv(gth_proc real, unsigned program, unsigned pname, int *params)
{
    void (*get)(unsigned, unsigned, int *) = (void (*)(unsigned, unsigned, int *))real;
    if (get)
        get(program, pname, params);
    if (params && pname == GL_PROGRAM_BINARY_LENGTH)
        *params = 0;
}

void gth_invoke_get_program_binary(gth_proc real, unsigned program, int buf_size, int *length,
                                   unsigned *binary_format, void *binary)
{
    (void)buf_size; /* the program was told the length is 0: nothing may be written */
    void (*get)(unsigned, int, int *, unsigned *, void *) =
        (void (*)(unsigned, int, int *, unsigned *, void *))real;
    if (get)
        get(program, 0, length, binary_format, binary);
    if (length)
        *length = 0;
}

void gth_invoke_program_binary(gth_proc real, unsigned program, unsigned binary_format,
                               const void *binary, int length)
{
    (void)binary_format;
    (void)binary;
    (void)length;
    /* An unknown format fails the link: per ARB_get_program_binary, the program then
     * compiles its shaders (which the trace then holds). */
    static const unsigned bad = 0xDEADDEAD;
    void (*load)(unsigned, unsigned, const void *, int) =
        (void (*)(unsigned, unsigned, const void *, int))real;
    if (load)
        load(program, bad, &bad, (int)sizeof bad);
}

/* ---- the extension string ----------------------------------------------------------- */

/* The driver's (or configured) string with ours appended; kept for the process's life
 * (the program may hold the pointer), one per distinct input string. */
typedef struct ext_string {
    const char *from;
    char *to;
    struct ext_string *next;
} ext_string;

static pthread_mutex_t ext_lock = PTHREAD_MUTEX_INITIALIZER;
static ext_string *ext_strings;

static char *append_extras(const char *from)
{
    unsigned n;
    const char *const *names = extras(&n);
    size_t len = strlen(from), total = len + 2;
    for (unsigned i = 0; i < n; i++)
        total += strlen(names[i]) + 1;
    char *s = malloc(total);
    if (!s)
        return NULL;
    memcpy(s, from, len);
    if (len && s[len - 1] != ' ')
        s[len++] = ' ';
    for (unsigned i = 0; i < n; i++) { /* apitrace's form: each name followed by a space */
        size_t l = strlen(names[i]);
        memcpy(s + len, names[i], l);
        len += l;
        s[len++] = ' ';
    }
    s[len] = '\0';
    return s;
}

static const char *extended(const char *from)
{
    pthread_mutex_lock(&ext_lock);
    ext_string *e = ext_strings;
    while (e && strcmp(e->from, from) != 0)
        e = e->next;
    if (!e && (e = calloc(1, sizeof *e)) != NULL) {
        e->from = strdup(from);
        e->to = append_extras(from);
        if (!e->from || !e->to) {
            free((void *)e->from);
            free(e->to);
            free(e);
            e = NULL;
        } else {
            e->next = ext_strings;
            ext_strings = e;
        }
    }
    pthread_mutex_unlock(&ext_lock);
    return e ? e->to : from;
}

const unsigned char *gth_invoke_get_string(gth_proc real, unsigned name)
{
    const char *s = gl_conf_string(name);
    if (!s) {
        get_string_fn get = (get_string_fn)real;
        s = get ? (const char *)get(name) : NULL;
    }
    if (s && name == GL_EXTENSIONS)
        s = extended(s);
    return (const unsigned char *)s;
}

const unsigned char *gth_invoke_get_stringi(gth_proc real, unsigned name, unsigned index)
{
    if (name == GL_EXTENSIONS && has_stringi()) {
        unsigned n;
        const char *const *names = extras(&n);
        int base = 0;
        long long conf;
        if (gl_conf_integer(GL_NUM_EXTENSIONS, &conf)) {
            base = (int)conf;
        } else {
            void (*get)(unsigned, int *) = (void (*)(unsigned, int *))gltrace_real("glGetIntegerv");
            if (get)
                get(GL_NUM_EXTENSIONS, &base);
        }
        if (base >= 0 && index >= (unsigned)base && index < (unsigned)base + n)
            return (const unsigned char *)names[index - (unsigned)base];
        const char *conf_name;
        if (gl_conf_extension(index, &conf_name))
            return (const unsigned char *)conf_name;
    }
    typedef const unsigned char *(*get_stringi_fn)(unsigned, unsigned);
    get_stringi_fn get = (get_stringi_fn)real;
    return get ? get(name, index) : NULL;
}
