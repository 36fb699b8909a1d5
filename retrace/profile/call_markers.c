/* glretrace --markers (call_markers.h). */
#include <SDL.h>
#include <epoxy/gl.h>
#include <string.h>

#include "at_dump.h"
#include "call_markers.h"
#include "gt_strbuf.h"

#define MARKER_ID 0xA3ACE001u /* apitrace's APITRACE_MARKER_ID */
#define MAX_CTX 16

/* What each context offers, asked once: the extension string is long to search. */
static struct {
    struct {
        void *ctx;
        GLint max_len; /* 0: no KHR_debug */
    } known[MAX_CTX];
    unsigned n, next;
    gt_strbuf text;
    bool text_init;
} mk;

static GLint max_length(void *ctx)
{
    for (unsigned i = 0; i < mk.n; ++i)
        if (mk.known[i].ctx == ctx)
            return mk.known[i].max_len;
    GLint len = 0;
    if (epoxy_has_gl_extension("GL_KHR_debug") ||
        (epoxy_is_desktop_gl() && epoxy_gl_version() >= 43))
        glGetIntegerv(GL_MAX_DEBUG_MESSAGE_LENGTH, &len);
    unsigned slot = mk.n < MAX_CTX ? mk.n++ : mk.next++ % MAX_CTX;
    mk.known[slot].ctx = ctx;
    mk.known[slot].max_len = len;
    return len;
}

void call_marker_insert(const gt_call *c)
{
    void *ctx = SDL_GL_GetCurrentContext();
    GLint max = ctx ? max_length(ctx) : 0;
    if (max <= 1)
        return;
    if (!mk.text_init) {
        gt_strbuf_init(&mk.text);
        mk.text_init = true;
    }
    at_dump_options o = {.call_nos = true}; /* no colour, no names, one line */
    mk.text.len = 0;
    at_dump_call(&mk.text, c, &o);
    gt_strbuf_putc(&mk.text, 0);
    if (mk.text.oom)
        return;
    size_t len = strlen(mk.text.data);
    if (len > (size_t)max - 1)
        len = (size_t)max - 1;
    glDebugMessageInsert(GL_DEBUG_SOURCE_THIRD_PARTY, GL_DEBUG_TYPE_MARKER, MARKER_ID,
                         GL_DEBUG_SEVERITY_NOTIFICATION, (GLsizei)len, mk.text.data);
}

void call_markers_reset(void)
{
    if (mk.text_init)
        gt_strbuf_free(&mk.text);
    memset(&mk, 0, sizeof mk);
}
