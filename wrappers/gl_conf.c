/* gltrace.conf, apitrace's configuration file for emulating another GPU: the file named
 * by GLTRACE_CONF, else $XDG_CONFIG_HOME/apitrace/gltrace.conf, else
 * ~/.config/apitrace/gltrace.conf. apitrace's syntax, one setting a line:
 *
 *     # a comment
 *     GL_VENDOR = "Some Vendor"
 *     GL_EXTENSIONS = "GL_ARB_one GL_ARB_two"
 *     GL_MAX_TEXTURE_SIZE = 4096
 *     GL_CONTEXT_PROFILE_MASK = GL_CONTEXT_CORE_PROFILE_BIT
 *
 * Keys: GL_VENDOR, GL_RENDERER, GL_VERSION, GL_SHADING_LANGUAGE_VERSION, GL_EXTENSIONS
 * (quoted strings), GL_MAJOR_VERSION, GL_MINOR_VERSION, GL_CONTEXT_PROFILE_MASK,
 * GL_MAX_TEXTURE_SIZE (integers; the mask also as the profile bit names joined by |).
 * A line we cannot read gets "gltrace: FILE:LINE: ..." on stderr and is skipped: a bad
 * file never stops the program. Read once, under a lock, on first use. */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_conf.h"
#include "gl_enums.gen.h"
#include "gt_grow.h"


typedef struct key { const char *name; unsigned e; int is_string; } key;

static const key keys[] = {
    {"GL_VENDOR", GL_VENDOR, 1},           {"GL_RENDERER", GL_RENDERER, 1},
    {"GL_VERSION", GL_VERSION, 1},         {"GL_SHADING_LANGUAGE_VERSION", GL_SHADING_LANGUAGE_VERSION, 1},
    {"GL_EXTENSIONS", GL_EXTENSIONS, 1},   {"GL_MAJOR_VERSION", GL_MAJOR_VERSION, 0},
    {"GL_MINOR_VERSION", GL_MINOR_VERSION, 0}, {"GL_CONTEXT_PROFILE_MASK", GL_CONTEXT_PROFILE_MASK, 0},
    {"GL_MAX_TEXTURE_SIZE", GL_MAX_TEXTURE_SIZE, 0},
};
#define NKEYS (sizeof keys / sizeof *keys)

static struct {
    char *str[NKEYS];
    long long num[NKEYS];
    int has_num[NKEYS];
    char **ext;    /* GL_EXTENSIONS split into names */
    unsigned next;
} conf;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void warn(const char *file, unsigned line, const char *what)
{
    fprintf(stderr, "gltrace: %s:%u: %s (line ignored)\n", file, line, what);
}

/* A quoted string with \" and \\ escapes, into a new string; NULL if malformed. */
static char *parse_string(const char *p, const char **end)
{
    if (*p != '"')
        return NULL;
    char *out = malloc(strlen(p) + 1), *o = out;
    if (!out)
        return NULL;
    for (++p; *p && *p != '"'; ++p) {
        if (*p == '\\' && p[1])
            ++p;
        *o++ = *p;
    }
    if (*p != '"') {
        free(out);
        return NULL;
    }
    *o = '\0';
    *end = p + 1;
    return out;
}

/* An integer, or profile bit names joined by '|'; 0 on failure. */
static int parse_integer(const char *p, long long *v, const char **end)
{
    static const struct { const char *name; long long bit; } bits[] = {
        {"GL_CONTEXT_CORE_PROFILE_BIT", 1}, {"GL_CONTEXT_COMPATIBILITY_PROFILE_BIT", 2}};
    if (isdigit((unsigned char)*p) || *p == '-') {
        char *e;
        *v = strtoll(p, &e, 0);
        *end = e;
        return e != p;
    }
    *v = 0;
    for (;;) {
        size_t n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789");
        size_t i = 0;
        while (i < sizeof bits / sizeof *bits &&
               (strlen(bits[i].name) != n || strncmp(bits[i].name, p, n) != 0))
            i++;
        if (!n || i == sizeof bits / sizeof *bits)
            return 0;
        *v |= bits[i].bit;
        p += n;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p != '|')
            break;
        p++;
        while (*p == ' ' || *p == '\t')
            p++;
    }
    *end = p;
    return 1;
}

static void split_extensions(const char *s)
{
    size_t n = 0, cap = 16;
    char **v = malloc(cap * sizeof *v);
    while (v && *s) {
        s += strspn(s, " ");
        size_t l = strcspn(s, " ");
        if (!l)
            break;
        if (GT_GROW(v, cap, n + 1, 16) != 0)
            break;
        v[n] = strndup(s, l);
        if (v[n])
            n++;
        s += l;
    }
    conf.ext = v;
    conf.next = v ? (unsigned)n : 0;
}

static void parse_line(const char *file, unsigned lineno, char *line)
{
    char *p = line + strspn(line, " \t");
    p[strcspn(p, "\r\n")] = '\0';
    if (!*p || *p == '#')
        return;
    size_t n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_0123456789");
    size_t k = 0;
    while (k < NKEYS && (strlen(keys[k].name) != n || strncmp(keys[k].name, p, n) != 0))
        k++;
    if (k == NKEYS) {
        warn(file, lineno, n ? "unknown key" : "expected KEY = VALUE");
        return;
    }
    p += n + strspn(p + n, " \t");
    if (*p != '=') {
        warn(file, lineno, "expected '=' after the key");
        return;
    }
    p += 1 + strspn(p + 1, " \t");
    const char *end = p;
    char *s = NULL;
    long long v = 0;
    if (keys[k].is_string ? !(s = parse_string(p, &end)) : !parse_integer(p, &v, &end)) {
        warn(file, lineno, keys[k].is_string ? "expected a \"quoted string\"" : "expected an integer");
        return;
    }
    end += strspn(end, " \t");
    if (*end && *end != '#') {
        free(s);
        warn(file, lineno, "unexpected text after the value");
        return;
    }
    if (keys[k].is_string) {
        free(conf.str[k]);
        conf.str[k] = s;
    } else {
        conf.num[k] = v;
        conf.has_num[k] = 1;
    }
}

/* GLTRACE_CONF, else the XDG path, else ~/.config; NULL when none is set. */
static char *conf_path(int *explicit_file)
{
    const char *env = getenv("GLTRACE_CONF"), *xdg = getenv("XDG_CONFIG_HOME"),
               *home = getenv("HOME");
    char buf[4096];
    *explicit_file = env && *env;
    if (*explicit_file)
        return strdup(env);
    if (xdg && *xdg)
        snprintf(buf, sizeof buf, "%s/apitrace/gltrace.conf", xdg);
    else if (home && *home)
        snprintf(buf, sizeof buf, "%s/.config/apitrace/gltrace.conf", home);
    else
        return NULL;
    return strdup(buf);
}

static void load(void)
{
    int explicit_file;
    char *path = conf_path(&explicit_file);
    if (!path)
        return;
    FILE *f = fopen(path, "r");
    if (!f) {
        if (explicit_file)
            fprintf(stderr, "gltrace: %s: cannot read the configuration file\n", path);
        free(path);
        return;
    }
    char line[65536];
    unsigned lineno = 0;
    while (fgets(line, sizeof line, f)) {
        ++lineno;
        if (!strchr(line, '\n') && !feof(f)) { /* longer than the buffer: skip the rest */
            warn(path, lineno, "line too long");
            int c;
            while ((c = fgetc(f)) != EOF && c != '\n') {
            }
            continue;
        }
        parse_line(path, lineno, line);
    }
    fclose(f);
    for (size_t k = 0; k < NKEYS; k++)
        if (keys[k].e == GL_EXTENSIONS && conf.str[k])
            split_extensions(conf.str[k]);
    fprintf(stderr, "gltrace: using the configuration file %s\n", path);
    free(path);
}

static size_t find(unsigned e)
{
    pthread_once(&once, load);
    size_t k = 0;
    while (k < NKEYS && keys[k].e != e)
        k++;
    return k;
}

const char *gl_conf_string(unsigned name)
{
    size_t k = find(name);
    return k < NKEYS ? conf.str[k] : NULL;
}

int gl_conf_integer(unsigned pname, long long *value)
{
    if (pname == GL_NUM_EXTENSIONS) {
        if (!gl_conf_string(GL_EXTENSIONS))
            return 0;
        *value = conf.next;
        return 1;
    }
    size_t k = find(pname);
    if (k >= NKEYS || !conf.has_num[k])
        return 0;
    *value = conf.num[k];
    return 1;
}

int gl_conf_extension(unsigned index, const char **name)
{
    if (!gl_conf_string(GL_EXTENSIONS))
        return 0;
    *name = index < conf.next ? conf.ext[index] : NULL;
    return 1;
}
