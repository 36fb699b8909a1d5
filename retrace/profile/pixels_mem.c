/* --ppd and --pmem's measures (pixels_mem.h). */
#include <SDL.h>
#include <epoxy/gl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "pixels_mem.h"

unsigned pixels_begin(void)
{
    static bool warned;
    if (!SDL_GL_GetCurrentContext())
        return 0;
    if (!epoxy_is_desktop_gl() || epoxy_gl_version() < 15) {
        if (!warned)
            fprintf(stderr, "glretrace: warning: --ppd: this context has no GL_SAMPLES_PASSED "
                            "queries (desktop GL 1.5): pixels left 0\n");
        warned = true;
        return 0;
    }
    GLint busy = 0; /* the program's own query: ours would fail, and end it early */
    glGetQueryiv(GL_SAMPLES_PASSED, GL_CURRENT_QUERY, &busy);
    if (busy)
        return 0;
    GLuint q = 0;
    glGenQueries(1, &q);
    glBeginQuery(GL_SAMPLES_PASSED, q);
    return q;
}

int64_t pixels_end(unsigned q)
{
    if (!q)
        return 0;
    glEndQuery(GL_SAMPLES_PASSED);
    GLuint n = 0;
    glGetQueryObjectuiv(q, GL_QUERY_RESULT, &n);
    glDeleteQueries(1, &q);
    return n;
}

void mem_usage(int64_t *vsize, int64_t *rss)
{
    *vsize = *rss = 0;
    FILE *f = fopen("/proc/self/stat", "r");
    if (!f)
        return;
    char buf[1024];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *p = strrchr(buf, ')'); /* after the command name, which may hold spaces */
    long long v = 0, r = 0;
    /* fields 3..22 skipped, 23 vsize, 24 rss */
    if (p && sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d "
                           "%*d %*d %*d %*u %lld %lld", &v, &r) == 2) {
        *vsize = v;
        *rss = r;
    }
}
